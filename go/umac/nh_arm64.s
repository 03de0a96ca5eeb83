//go:build arm64 && !purego

#include "textflag.h"

// NH (RFC 4418 section 5.2.2) with NEON, one 32-byte block at a time.
// V0 holds message words 0-3, V1 words 4-7; iteration t adds key words
// 4t..4t+3 to V0 and 4t+4..4t+7 to V1 and multiply-accumulates the lane
// pairs (word j times word j+4) into the two 64-bit lanes of V16+t.
// Go's assembler has no UMLAL/UMLAL2, so they are spelled out as WORDs:
// UMLAL Vd.2D, Vn.2S, Vm.2S is 0x2ea08000 | m<<16 | n<<5 | d, UMLAL2
// (the upper halves) the same with bit 30 set (0x6ea08000).

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
	VADD V2.S4, V0.S4, V6.S4
	VADD V3.S4, V1.S4, V7.S4
	WORD $0x2ea780d0 // UMLAL V16.2D, V6.2S, V7.2S
	WORD $0x6ea780d0 // UMLAL2 V16.2D, V6.4S, V7.4S
	VADD V3.S4, V0.S4, V6.S4
	VADD V4.S4, V1.S4, V7.S4
	WORD $0x2ea780d1 // UMLAL V17.2D, V6.2S, V7.2S
	WORD $0x6ea780d1 // UMLAL2 V17.2D, V6.4S, V7.4S
	ADD $32, R0
	SUBS $1, R2
	BNE loop2
	B sums

loop4:
	VLD1.P 32(R1), [V0.S4, V1.S4]
	VLD1 (R0), [V2.S4, V3.S4, V4.S4, V5.S4]
	ADD $64, R0, R5
	VLD1 (R5), [V20.S4]
	VADD V2.S4, V0.S4, V6.S4
	VADD V3.S4, V1.S4, V7.S4
	WORD $0x2ea780d0 // UMLAL V16.2D, V6.2S, V7.2S
	WORD $0x6ea780d0 // UMLAL2 V16.2D, V6.4S, V7.4S
	VADD V3.S4, V0.S4, V6.S4
	VADD V4.S4, V1.S4, V7.S4
	WORD $0x2ea780d1 // UMLAL V17.2D, V6.2S, V7.2S
	WORD $0x6ea780d1 // UMLAL2 V17.2D, V6.4S, V7.4S
	VADD V4.S4, V0.S4, V6.S4
	VADD V5.S4, V1.S4, V7.S4
	WORD $0x2ea780d2 // UMLAL V18.2D, V6.2S, V7.2S
	WORD $0x6ea780d2 // UMLAL2 V18.2D, V6.4S, V7.4S
	VADD V5.S4, V0.S4, V6.S4
	VADD V20.S4, V1.S4, V7.S4
	WORD $0x2ea780d3 // UMLAL V19.2D, V6.2S, V7.2S
	WORD $0x6ea780d3 // UMLAL2 V19.2D, V6.4S, V7.4S
	ADD $32, R0
	SUBS $1, R2
	BNE loop4

sums:
	// acc[t] += the two lanes of V16+t (unused iterations add zero).
	VMOV V16.D[0], R5
	VMOV V16.D[1], R6
	MOVD 0(R3), R7
	ADD R5, R6, R5
	ADD R5, R7, R7
	MOVD R7, 0(R3)
	VMOV V17.D[0], R5
	VMOV V17.D[1], R6
	MOVD 8(R3), R7
	ADD R5, R6, R5
	ADD R5, R7, R7
	MOVD R7, 8(R3)
	VMOV V18.D[0], R5
	VMOV V18.D[1], R6
	MOVD 16(R3), R7
	ADD R5, R6, R5
	ADD R5, R7, R7
	MOVD R7, 16(R3)
	VMOV V19.D[0], R5
	VMOV V19.D[1], R6
	MOVD 24(R3), R7
	ADD R5, R6, R5
	ADD R5, R7, R7
	MOVD R7, 24(R3)
	RET
