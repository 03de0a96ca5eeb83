//go:build amd64 && !purego

#include "textflag.h"

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
// Y8-Y11 accumulate iterations 0-3.

// LOAD_PAIR loads blocks b and b+1 from SI into Y0 (low halves) and Y1 (high).
#define LOAD_PAIR \
	VMOVDQU (SI), Y2; \
	VMOVDQU 32(SI), Y3; \
	VPERM2I128 $0x20, Y3, Y2, Y0; \
	VPERM2I128 $0x31, Y3, Y2, Y1

// PASS adds the NH terms of one iteration, with keys KA (low) and KB (high),
// to ACC.
#define PASS(KA, KB, ACC) \
	VPADDD KA, Y0, Y4; \
	VPADDD KB, Y1, Y5; \
	VPMULUDQ Y4, Y5, Y6; \
	VPSRLQ $32, Y4, Y4; \
	VPSRLQ $32, Y5, Y5; \
	VPMULUDQ Y4, Y5, Y4; \
	VPADDQ Y6, ACC, ACC; \
	VPADDQ Y4, ACC, ACC

#define NEXT_PAIR \
	ADDQ $64, SI; \
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

// func nhAVX2(even, odd *[4]uint32, msg *byte, pairs int, acc *[maxIters]uint64, iters int)
TEXT ·nhAVX2(SB), NOSPLIT, $0-48
	MOVQ even+0(FP), AX
	MOVQ odd+8(FP), BX
	MOVQ msg+16(FP), SI
	MOVQ pairs+24(FP), CX
	MOVQ acc+32(FP), DI
	MOVQ iters+40(FP), DX
	VPXOR Y8, Y8, Y8
	VPXOR Y9, Y9, Y9
	VPXOR Y10, Y10, Y10
	VPXOR Y11, Y11, Y11
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
	JMP done

loop3:
	LOAD_PAIR
	PASS((AX), (BX), Y8)
	PASS((BX), 16(AX), Y9)
	PASS(16(AX), 16(BX), Y10)
	NEXT_PAIR
	JNZ loop3
	JMP done

loop2:
	LOAD_PAIR
	PASS((AX), (BX), Y8)
	PASS((BX), 16(AX), Y9)
	NEXT_PAIR
	JNZ loop2
	JMP done

loop1:
	LOAD_PAIR
	PASS((AX), (BX), Y8)
	NEXT_PAIR
	JNZ loop1

done:
	// Unused iterations add zero: acc has room for four.
	HSUM(Y8, X8, 0(DI))
	HSUM(Y9, X9, 8(DI))
	HSUM(Y10, X10, 16(DI))
	HSUM(Y11, X11, 24(DI))
	VZEROUPPER
	RET
