//go:build amd64 && !purego

#include "textflag.h"

// NH (RFC 4418 section 5.2.2) with AVX-512 (F, BW and VL), in the two
// layouts crates/fastmac/src/umac/nh/avx512.rs describes: the X/Y layout
// for one to three iterations and the iteration-parallel one for four.
// A trailing partial block is read with byte-masked loads, which load
// zeros past the end and never fault there: the zero padding of RFC 4418
// section 5.2.1 without a copy.
//
// VPMULUDQ multiplies the even dwords of each qword (words 0x4 and 2x6
// of a block); VPSHUFD $0xf5 moves the odd ones (1x5, 3x7) into their
// place for the second product.

// BYTE_MASK sets K to the mask of the first N bytes of a 64-byte load
// (all of them for N >= 64; N is a register it clobbers, with AX).
#define BYTE_MASK(N, K) \
	MOVQ $-1, AX; \
	BZHIQ N, AX, AX; \
	KMOVQ AX, K

// XY_PASS adds iteration t's products of the four blocks in Z2 (low
// quads) and Z3 (high quads) to EVEN and ODD, in the qwords of K2: KX and
// KY are the key quads, four contiguous ones from the even or odd table.
#define XY_PASS(KX, KY, EVEN, ODD) \
	VPADDD KX, Z2, Z4; \
	VPADDD KY, Z3, Z5; \
	VPMULUDQ Z5, Z4, Z6; \
	VPADDQ Z6, EVEN, K2, EVEN; \
	VPSHUFD $0xf5, Z4, Z4; \
	VPSHUFD $0xf5, Z5, Z5; \
	VPMULUDQ Z5, Z4, Z6; \
	VPADDQ Z6, ODD, K2, ODD

// Iteration t of block b pairs key quad 2b+t with 2b+t+1: for four blocks
// from b, t=0 takes even[b..] and odd[b..], t=1 odd[b..] and even[b+1..],
// t=2 even[b+1..] and odd[b+1..]. R10 and BX point at even[b] and odd[b].
#define XY_GROUP1 \
	XY_PASS((R10), (BX), Z8, Z9)

#define XY_GROUP2 \
	XY_GROUP1; \
	XY_PASS((BX), 16(R10), Z10, Z11)

#define XY_GROUP3 \
	XY_GROUP2; \
	XY_PASS(16(R10), 16(BX), Z12, Z13)

// XY_LOAD gathers the low quads of the four blocks in Z0 (blocks 0-1) and
// Z1 (blocks 2-3) into Z2 and their high quads into Z3.
#define XY_LOAD \
	VSHUFI64X2 $0x88, Z1, Z0, Z2; \
	VSHUFI64X2 $0xdd, Z1, Z0, Z3

// XY_NEXT loads the next group of four whole blocks, or jumps to TAIL when
// fewer than 128 bytes are left. SI: message, CX: bytes left.
#define XY_NEXT(TAIL) \
	CMPQ CX, $128; \
	JB   TAIL; \
	VMOVDQU64 (SI), Z0; \
	VMOVDQU64 64(SI), Z1; \
	XY_LOAD

// XY_ADVANCE moves past a group: 128 bytes of message, four quads of
// each key table.
#define XY_ADVANCE \
	ADDQ $128, SI; \
	ADDQ $64, R10; \
	ADDQ $64, BX; \
	SUBQ $128, CX

// XY_TAIL loads the last partial group (CX bytes, 1 to 127) masked and
// sets K2 to the qwords of its blocks (R11 of them, two per block).
#define XY_TAIL \
	BYTE_MASK(CX, K1); \
	VMOVDQU8.Z (SI), K1, Z0; \
	SUBQ $64, CX; \
	MOVQ $0, DX; \
	CMOVQLT DX, CX; \
	BYTE_MASK(CX, K3); \
	VMOVDQU8.Z 64(SI), K3, Z1; \
	MOVQ $-1, DX; \
	BZHIQ R11, DX, DX; \
	KMOVQ DX, K2; \
	XY_LOAD

// XY_SUM adds the eight qwords of EVEN and ODD (Y and X their low halves)
// to OUT.
#define XY_SUM(EVEN, ODD, Y, X, OUT) \
	VPADDQ ODD, EVEN, EVEN; \
	VEXTRACTI64X4 $1, EVEN, Y14; \
	VPADDQ Y14, Y, Y14; \
	VEXTRACTI128 $1, Y14, X15; \
	VPADDQ X15, X14, X14; \
	VPSHUFD $0x4e, X14, X15; \
	VPADDQ X15, X14, X14; \
	VMOVQ X14, AX; \
	ADDQ AX, OUT

// func nhXYAVX512(even, odd *[4]uint32, msg *byte, n int, acc *[maxIters]uint64, iters int)
//
// Adds NH of the n bytes at msg (the last block zero-padded) to
// acc[0..iters), for iters 1 to 3; even and odd point at the key-quad
// tables at the first block's entry (see uhashKey).
TEXT ·nhXYAVX512(SB), NOSPLIT, $0-48
	MOVQ even+0(FP), R10
	MOVQ odd+8(FP), BX
	MOVQ msg+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ acc+32(FP), DI
	MOVQ iters+40(FP), R9
	// R11: the qwords of the last partial group, two per block.
	MOVQ CX, R11
	ANDQ $127, R11
	ADDQ $31, R11
	SHRQ $5, R11
	SHLQ $1, R11
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	// K2: the qwords added, all of them but in a partial group.
	MOVQ $0xff, AX
	KMOVQ AX, K2
	CMPQ R9, $2
	JB   xy1
	JEQ  xy2

xy3:
	XY_NEXT(xy3tail)
	XY_GROUP3
	XY_ADVANCE
	JMP xy3
xy3tail:
	TESTQ CX, CX
	JZ    xysums
	XY_TAIL
	XY_GROUP3
	JMP xysums

xy2:
	XY_NEXT(xy2tail)
	XY_GROUP2
	XY_ADVANCE
	JMP xy2
xy2tail:
	TESTQ CX, CX
	JZ    xysums
	XY_TAIL
	XY_GROUP2
	JMP xysums

xy1:
	XY_NEXT(xy1tail)
	XY_GROUP1
	XY_ADVANCE
	JMP xy1
xy1tail:
	TESTQ CX, CX
	JZ    xysums
	XY_TAIL
	XY_GROUP1

xysums:
	// Unused iterations add zero: acc has room for three.
	XY_SUM(Z8, Z9, Y8, X8, 0(DI))
	XY_SUM(Z10, Z11, Y10, X10, 8(DI))
	XY_SUM(Z12, Z13, Y12, X12, 16(DI))
	VZEROUPPER
	RET

// Z4_BLOCK adds the four iterations' products of one block, its low quad
// broadcast in Z0 and its high quad in Z1, to EVEN and ODD: lane t adds
// key words 4t..4t+3 from KEY (low) and KEY+16 (high), the Toeplitz shift
// of iteration t.
#define Z4_BLOCK(KEY, KEYHIGH, EVEN, ODD) \
	VPADDD KEY, Z0, Z4; \
	VPADDD KEYHIGH, Z1, Z5; \
	VPMULUDQ Z5, Z4, Z6; \
	VPADDQ Z6, EVEN, EVEN; \
	VPSHUFD $0xf5, Z4, Z4; \
	VPSHUFD $0xf5, Z5, Z5; \
	VPMULUDQ Z5, Z4, Z6; \
	VPADDQ Z6, ODD, ODD

// func nhZ4AVX512(words *uint32, msg *byte, n int, acc *[maxIters]uint64)
//
// Adds NH of the n bytes at msg (the last block zero-padded) to acc[0..4),
// all four iterations side by side; words points at the key words of the
// first block.
TEXT ·nhZ4AVX512(SB), NOSPLIT, $0-32
	MOVQ words+0(FP), R9
	MOVQ msg+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ acc+24(FP), DI
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11

z4pairs:
	// Two blocks at a time, into two accumulator sets.
	CMPQ CX, $64
	JB   z4tail
	VBROADCASTI32X4 (SI), Z0
	VBROADCASTI32X4 16(SI), Z1
	Z4_BLOCK((R9), 16(R9), Z8, Z9)
	VBROADCASTI32X4 32(SI), Z0
	VBROADCASTI32X4 48(SI), Z1
	Z4_BLOCK(32(R9), 48(R9), Z10, Z11)
	ADDQ $64, SI
	ADDQ $64, R9
	SUBQ $64, CX
	JMP  z4pairs

z4tail:
	// Up to two blocks, the last one partial: each half read masked and
	// broadcast to the four lanes.
	TESTQ CX, CX
	JLE   z4sums
	MOVQ CX, DX
	BYTE_MASK(DX, K1)
	VMOVDQU8.Z (SI), K1, X0
	MOVQ CX, DX
	SUBQ $16, DX
	MOVQ $0, R8
	CMOVQLT R8, DX
	BYTE_MASK(DX, K1)
	VMOVDQU8.Z 16(SI), K1, X1
	VSHUFI32X4 $0, Z0, Z0, Z0
	VSHUFI32X4 $0, Z1, Z1, Z1
	Z4_BLOCK((R9), 16(R9), Z8, Z9)
	ADDQ $32, SI
	ADDQ $32, R9
	SUBQ $32, CX
	JMP  z4tail

z4sums:
	// 128-bit lane t holds iteration t in its two qwords.
	VPADDQ Z9, Z8, Z8
	VPADDQ Z11, Z10, Z10
	VPADDQ Z10, Z8, Z8
	VPSHUFD $0x4e, Z8, Z9
	VPADDQ Z9, Z8, Z8
	VEXTRACTI64X4 $1, Z8, Y9
	VPUNPCKLQDQ Y9, Y8, Y8
	VPERMQ $0xd8, Y8, Y8
	// acc, qword by qword: Go stored it so (see LOAD_QWORDS in nh_amd64.s).
	VMOVQ 0(DI), X9
	VPINSRQ $1, 8(DI), X9, X9
	VMOVQ 16(DI), X10
	VPINSRQ $1, 24(DI), X10, X10
	VINSERTI128 $1, X10, Y9, Y9
	VPADDQ Y9, Y8, Y8
	VMOVDQU Y8, (DI)
	VZEROUPPER
	RET
