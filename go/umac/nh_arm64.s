//go:build arm64 && !purego

#include "textflag.h"

// NH (RFC 4418 section 5.2.2) with NEON, one 32-byte block at a time.
// V0 holds message words 0-3, V1 words 4-7; iteration t adds key words
// 4t..4t+3 to V0 and 4t+4..4t+7 to V1 and multiply-accumulates the lane
// pairs (word j times word j+4) into the two 64-bit lanes of V16+t.
// Go's assembler has no UMLAL/UMLAL2, so they are spelled out as WORDs:
// UMLAL Vd.2D, Vn.2S, Vm.2S is 0x2ea08000 | m<<16 | n<<5 | d, UMLAL2
// (the upper halves) the same with bit 30 set (0x6ea08000); here n = 6,
// m = 7 and d = 16+t.

// ITERATION adds one iteration's NH terms, keys KA (low) and KB (high), to
// the accumulator that the instruction words LOW and HIGH (UMLAL and
// UMLAL2 into V16+t) name.
#define ITERATION(KA, KB, LOW, HIGH) \
	VADD KA.S4, V0.S4, V6.S4; \
	VADD KB.S4, V1.S4, V7.S4; \
	WORD LOW; \
	WORD HIGH

#define ITERATION0 ITERATION(V2, V3, $0x2ea780d0, $0x6ea780d0)
#define ITERATION1 ITERATION(V3, V4, $0x2ea780d1, $0x6ea780d1)
#define ITERATION2 ITERATION(V4, V5, $0x2ea780d2, $0x6ea780d2)
#define ITERATION3 ITERATION(V5, V20, $0x2ea780d3, $0x6ea780d3)

// ADD_LANES adds the two lanes of accumulator V to the uint64 at OFF(R3).
#define ADD_LANES(V, OFF) \
	VMOV V.D[0], R5; \
	VMOV V.D[1], R6; \
	MOVD OFF(R3), R7; \
	ADD R5, R6, R5; \
	ADD R5, R7, R7; \
	MOVD R7, OFF(R3)

// func nhNEON(words *uint32, msg *byte, blocks int, acc *[maxIters]uint64, iters int)
TEXT ·nhNEON(SB), NOSPLIT, $0-40
	MOVD words+0(FP), R0
	MOVD msg+8(FP), R1
	MOVD blocks+16(FP), R2
	MOVD acc+24(FP), R3
	MOVD iters+32(FP), R4
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	CMP $2, R4
	BGT loop4

loop2:
	VLD1.P 32(R1), [V0.S4, V1.S4]
	VLD1 (R0), [V2.S4, V3.S4, V4.S4]
	ITERATION0
	ITERATION1
	ADD $32, R0
	SUBS $1, R2
	BNE loop2
	B sums

loop4:
	VLD1.P 32(R1), [V0.S4, V1.S4]
	VLD1 (R0), [V2.S4, V3.S4, V4.S4, V5.S4]
	ADD $64, R0, R5
	VLD1 (R5), [V20.S4]
	ITERATION0
	ITERATION1
	ITERATION2
	ITERATION3
	ADD $32, R0
	SUBS $1, R2
	BNE loop4

sums:
	// Unused iterations add zero: acc has room for four.
	ADD_LANES(V16, 0)
	ADD_LANES(V17, 8)
	ADD_LANES(V18, 16)
	ADD_LANES(V19, 24)
	RET
