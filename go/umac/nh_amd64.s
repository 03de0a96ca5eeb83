//go:build amd64 && !purego

#include "textflag.h"
#include "nh_amd64.h"

// NH (RFC 4418 section 5.2.2) over pairs of 32-byte blocks with AVX2.
//
// Y0 holds the low halves (words 0-3) of blocks b and b+1, Y1 their high
// halves (words 4-7), so that word j and word j+4 of a block sit in the
// same dword lane of the two registers. The keys are laid out the same way
// at key setup: key quad q is words 4q..4q+3, even[i] = quad 2i and
// odd[i] = quad 2i+1. Iteration t of block b pairs quad 2b+t with quad
// 2b+t+1, so for the two blocks it loads 32 contiguous bytes from each
// table: t=0 even+0/odd+0, t=1 odd+0/even+16, t=2 even+16/odd+16,
// t=3 odd+16/even+32. VPMULUDQ multiplies the even dwords of each qword
// (words 0x4 and 2x6), and after a 32-bit shift the odd ones (1x5, 3x7).
// Y8-Y11 accumulate iterations 0-3. R9 follows the key words, for the
// single block at the end.

// LOAD_PAIR loads blocks b and b+1 from SI into Y0 (low halves) and Y1 (high).
#define LOAD_PAIR \
	VMOVDQU (SI), Y2; \
	VMOVDQU 32(SI), Y3; \
	VPERM2I128 $0x20, Y3, Y2, Y0; \
	VPERM2I128 $0x31, Y3, Y2, Y1

#define NEXT_PAIR \
	ADDQ $64, SI; \
	ADDQ $64, R9; \
	ADDQ $32, AX; \
	ADDQ $32, BX; \
	DECQ CX

// HSUM adds the four qwords of accumulator Y (X its low half) to OUT.
#define HSUM(Y, X, OUT) \
	VEXTRACTI128 $1, Y, X12; \
	VPADDQ X12, X, X12; \
	VPSHUFD $0x4e, X12, X13; \
	VPADDQ X13, X12, X12; \
	VMOVQ X12, R8; \
	ADDQ R8, OUT

// LANE_SUMS adds the two qwords of each 128-bit lane of Y (X its low half),
// iteration-parallel sums, to LO and HI.
#define LANE_SUMS(Y, X, LO, HI) \
	VEXTRACTI128 $1, Y, X12; \
	VPSHUFD $0x4e, X, X13; \
	VPADDQ X13, X, X13; \
	VMOVQ X13, R8; \
	ADDQ R8, LO; \
	VPSHUFD $0x4e, X12, X13; \
	VPADDQ X13, X12, X13; \
	VMOVQ X13, R8; \
	ADDQ R8, HI

// func nhAVX2(even, odd *[4]uint32, words *uint32, msg *byte, pairs int, rest *byte, restBlocks int, acc *[maxIters]uint64, iters int)
TEXT ·nhAVX2(SB), NOSPLIT, $0-72
	MOVQ even+0(FP), AX
	MOVQ odd+8(FP), BX
	MOVQ words+16(FP), R9
	MOVQ msg+24(FP), SI
	MOVQ pairs+32(FP), CX
	MOVQ rest+40(FP), R11
	MOVQ restBlocks+48(FP), R12
	MOVQ acc+56(FP), DI
	MOVQ iters+64(FP), DX
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
	VPXOR Y14, Y14, Y14
	VPXOR Y15, Y15, Y15

pairs:
	TESTQ CX, CX
	JZ    rest
	CMPQ DX, $1
	JEQ  loop1
	CMPQ DX, $2
	JEQ  loop2
	CMPQ DX, $3
	JEQ  loop3

loop4:
	LOAD_PAIR
	PASS((AX), (BX), Y8)
	PASS((BX), 16(AX), Y9)
	PASS(16(AX), 16(BX), Y10)
	PASS(16(BX), 32(AX), Y11)
	NEXT_PAIR
	JNZ loop4
	JMP rest

loop3:
	LOAD_PAIR
	PASS((AX), (BX), Y8)
	PASS((BX), 16(AX), Y9)
	PASS(16(AX), 16(BX), Y10)
	NEXT_PAIR
	JNZ loop3
	JMP rest

loop2:
	LOAD_PAIR
	PASS((AX), (BX), Y8)
	PASS((BX), 16(AX), Y9)
	NEXT_PAIR
	JNZ loop2
	JMP rest

loop1:
	LOAD_PAIR
	PASS((AX), (BX), Y8)
	NEXT_PAIR
	JNZ loop1

rest:
	// The restBlocks (0, 1 or 2) blocks after the pairs, at rest: one more
	// pair through the loops above, or an odd last block.
	CMPQ R12, $1
	JLT  pairsums
	MOVQ R11, SI
	JEQ  single
	MOVQ $1, CX
	XORQ R12, R12
	JMP  pairs

single:
	// An odd last block, in the iteration-parallel layout: its message
	// halves broadcast to both lanes, iterations t and t+1 in the low and
	// high lane, keys straight from the words (quads t, t+1 and t+1, t+2
	// are contiguous). Y14 sums iterations 0|1, Y15 iterations 2|3.
	VBROADCASTI128 (SI), Y0
	VBROADCASTI128 16(SI), Y1
	PASS((R9), 16(R9), Y14)
	CMPQ DX, $2
	JLE  lanes
	PASS(32(R9), 48(R9), Y15)

lanes:
	// Unused iterations add zero: acc has room for four.
	LANE_SUMS(Y14, X14, 0(DI), 8(DI))
	LANE_SUMS(Y15, X15, 16(DI), 24(DI))

pairsums:
	// The pair sums (zero when there were no pairs).
	HSUM(Y8, X8, 0(DI))
	HSUM(Y9, X9, 8(DI))
	HSUM(Y10, X10, 16(DI))
	HSUM(Y11, X11, 24(DI))
	VZEROUPPER
	RET

// func nhBlockAVX2(words *uint32, block *byte, acc *[maxIters]uint64)
//
// Adds NH of the 32-byte block at block, words pointing at its key words,
// to acc[0..4), all four iterations (unused ones have room), in the
// single-block layout of nhAVX2.
TEXT ·nhBlockAVX2(SB), NOSPLIT, $0-24
	MOVQ words+0(FP), R9
	MOVQ block+8(FP), SI
	MOVQ acc+16(FP), DI
	VPXOR Y14, Y14, Y14
	VPXOR Y15, Y15, Y15
	VBROADCASTI128 (SI), Y0
	VBROADCASTI128 16(SI), Y1
	PASS((R9), 16(R9), Y14)
	PASS(32(R9), 48(R9), Y15)
	LANE_SUMS(Y14, X14, 0(DI), 8(DI))
	LANE_SUMS(Y15, X15, 16(DI), 24(DI))
	VZEROUPPER
	RET

// func uhashLastAVX2(words *uint32, l3 *[4][maxIters]uint64, l3k2 *[maxIters]uint32, block *byte, acc *[maxIters]uint64, bitLen uint64, out *[maxIters]uint32)
//
// UHASH of a message of at most one chunk whose last block, zero-padded,
// is the 32 bytes at block (words points at its key words) and whose
// earlier blocks' NH sums are acc, for all four iterations.
TEXT ·uhashLastAVX2(SB), NOSPLIT, $0-56
	MOVQ words+0(FP), R9
	MOVQ l3+8(FP), AX
	MOVQ l3k2+16(FP), BX
	MOVQ block+24(FP), SI
	MOVQ acc+32(FP), DX
	MOVQ out+48(FP), DI
	VBROADCASTI128 (SI), Y0
	VBROADCASTI128 16(SI), Y1
	UHASH_LAST(bitLen+40(FP))
	VZEROUPPER
	RET

// func l3ShortAVX2(a *[maxIters]uint64, l3 *[4][maxIters]uint64, l3k2 *[maxIters]uint32, out *[maxIters]uint32)
TEXT ·l3ShortAVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ l3+8(FP), AX
	MOVQ l3k2+16(FP), BX
	MOVQ out+24(FP), DI
	VMOVQ 0(SI), X0
	VPINSRQ $1, 8(SI), X0, X0
	VMOVQ 16(SI), X1
	VPINSRQ $1, 24(SI), X1, X1
	VINSERTI128 $1, X1, Y0, Y0
	L3_SHORT
	VZEROUPPER
	RET

// A block buffer is stored and loaded as two 16-byte halves, as Go copies
// a [32]byte and as VBROADCASTI128 reads it, so that each load takes its
// half from the store buffer (a load spanning two stores, or part of a
// wider one, may have to wait for them to reach the cache).
#define STORE_HALVES(Y, X, DST) \
	VMOVDQU X, (DST); \
	VEXTRACTI128 $1, Y, 16(DST)

// func storeBlockAVX512(dst *[blockSize]byte, src *byte, n int)
//
// The n bytes (0 to 32) at src, zero-padded, to dst.
TEXT ·storeBlockAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ $-1, AX
	BZHIQ CX, AX, AX
	KMOVD AX, K1
	VMOVDQU8.Z (SI), K1, Y0
	STORE_HALVES(Y0, X0, DI)
	VZEROUPPER
	RET

// func appendBlockAVX512(dst *[blockSize]byte, at int, src *byte, n int)
//
// The n bytes at src into dst from byte at (at + n <= 32), through a load
// and store of dst's halves and a masked load of src, placed by reading
// from src - at with the bytes before src masked off (masked bytes are
// neither read nor faulted on).
TEXT ·appendBlockAVX512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ at+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ $-1, AX
	BZHIQ CX, AX, AX
	SHLXQ DX, AX, AX
	KMOVD AX, K1
	SUBQ DX, SI
	VMOVDQU (DI), X0
	VINSERTI128 $1, 16(DI), Y0, Y0
	VMOVDQU8 (SI), K1, Y0
	STORE_HALVES(Y0, X0, DI)
	VZEROUPPER
	RET
