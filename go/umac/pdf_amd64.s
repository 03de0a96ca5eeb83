//go:build amd64 && !purego

#include "textflag.h"

// AES-128 with AES-NI for the PDF (RFC 4418 section 3.3): the key schedule
// of FIPS 197 section 5.2 and the encryption of one block or of four side
// by side.

// EXPAND derives the next round key in X0 from the previous one in X0 with
// round constant RCON and stores it at OFF(BX). X4 starts at zero and its
// lowest dword stays zero: the two SHUFPS/PXOR pairs XOR into each word of
// X0 all the words below it (w[i] ^= w[i-1] ^ ... ^ w[0]), and PSHUFD
// broadcasts SubWord(RotWord(w3)) ^ RCON from AESKEYGENASSIST.
#define EXPAND(RCON, OFF) \
	AESKEYGENASSIST $RCON, X0, X1; \
	PSHUFD $0xff, X1, X1; \
	SHUFPS $0x10, X0, X4; \
	PXOR X4, X0; \
	SHUFPS $0x8c, X0, X4; \
	PXOR X4, X0; \
	PXOR X1, X0; \
	MOVUPS X0, OFF(BX)

// func expandKeyAESNI(key *[16]byte, roundKeys *[11][16]byte)
TEXT ·expandKeyAESNI(SB), NOSPLIT, $0-16
	MOVQ key+0(FP), AX
	MOVQ roundKeys+8(FP), BX
	MOVUPS (AX), X0
	MOVUPS X0, (BX)
	PXOR X4, X4
	EXPAND(0x01, 16)
	EXPAND(0x02, 32)
	EXPAND(0x04, 48)
	EXPAND(0x08, 64)
	EXPAND(0x10, 80)
	EXPAND(0x20, 96)
	EXPAND(0x40, 112)
	EXPAND(0x80, 128)
	EXPAND(0x1b, 144)
	EXPAND(0x36, 160)
	PXOR X0, X0
	PXOR X1, X1
	PXOR X4, X4
	RET

// A block hi || lo reaches the registers as two little-endian qwords;
// BSWAP_QWORDS reverses the bytes of each into the AES byte order, and
// back.
DATA bswapQwords<>+0(SB)/8, $0x0001020304050607
DATA bswapQwords<>+8(SB)/8, $0x08090a0b0c0d0e0f
GLOBL bswapQwords<>(SB), RODATA|NOPTR, $16

// ROUND1 runs one AES round with the round key at OFF(AX) on X0.
#define ROUND1(OFF) \
	MOVUPS OFF(AX), X4; \
	AESENC X4, X0

// func encryptAESNI(roundKeys *[11][16]byte, hi, lo uint64) (outHi, outLo uint64)
TEXT ·encryptAESNI(SB), NOSPLIT, $0-40
	MOVQ roundKeys+0(FP), AX
	MOVOU bswapQwords<>(SB), X5
	MOVQ hi+8(FP), X0
	PINSRQ $1, lo+16(FP), X0
	PSHUFB X5, X0
	MOVUPS (AX), X4
	PXOR X4, X0
	ROUND1(16)
	ROUND1(32)
	ROUND1(48)
	ROUND1(64)
	ROUND1(80)
	ROUND1(96)
	ROUND1(112)
	ROUND1(128)
	ROUND1(144)
	MOVUPS 160(AX), X4
	AESENCLAST X4, X0
	PSHUFB X5, X0
	MOVQ X0, outHi+24(FP)
	PEXTRQ $1, X0, outLo+32(FP)
	RET

// AESENC4 runs one AES round with the round key in K on the blocks in
// A, B, C and D.
#define AESENC4(K, A, B, C, D) \
	AESENC K, A; \
	AESENC K, B; \
	AESENC K, C; \
	AESENC K, D

// ROUND runs one AES round with the round key at OFF(AX) on the four
// blocks in X0-X3.
#define ROUND(OFF) \
	MOVUPS OFF(AX), X4; \
	AESENC4(X4, X0, X1, X2, X3)

// LOAD_BLOCK loads the block hi || lo at OFF(BX) into X, qword by qword
// (Go stored it so), in AES byte order.
#define LOAD_BLOCK(OFF, X) \
	MOVQ OFF(BX), X; \
	PINSRQ $1, OFF+8(BX), X; \
	PSHUFB X5, X

// STORE_BLOCK stores X back as hi || lo at OFF(BX).
#define STORE_BLOCK(X, OFF) \
	PSHUFB X5, X; \
	MOVQ X, OFF(BX); \
	PEXTRQ $1, X, OFF+8(BX)

// func encrypt4AESNI(roundKeys *[11][16]byte, run *padRunBlocks)
TEXT ·encrypt4AESNI(SB), NOSPLIT, $0-16
	MOVQ roundKeys+0(FP), AX
	MOVQ run+8(FP), BX
	MOVOU bswapQwords<>(SB), X5
	LOAD_BLOCK(0, X0)
	LOAD_BLOCK(16, X1)
	LOAD_BLOCK(32, X2)
	LOAD_BLOCK(48, X3)
	MOVUPS (AX), X4
	PXOR X4, X0
	PXOR X4, X1
	PXOR X4, X2
	PXOR X4, X3
	ROUND(16)
	ROUND(32)
	ROUND(48)
	ROUND(64)
	ROUND(80)
	ROUND(96)
	ROUND(112)
	ROUND(128)
	ROUND(144)
	MOVUPS 160(AX), X4
	AESENCLAST X4, X0
	AESENCLAST X4, X1
	AESENCLAST X4, X2
	AESENCLAST X4, X3
	STORE_BLOCK(X0, 0)
	STORE_BLOCK(X1, 16)
	STORE_BLOCK(X2, 32)
	STORE_BLOCK(X3, 48)
	RET

// ROUND8 runs one AES round with the round key at OFF(AX) on the eight
// blocks in X0-X7.
#define ROUND8(OFF) \
	MOVUPS OFF(AX), X8; \
	AESENC4(X8, X0, X1, X2, X3); \
	AESENC4(X8, X4, X5, X6, X7)

// COUNTER_BLOCK sets X to the block BX || 0 in AES byte order and moves BX
// on by the step in CX.
#define COUNTER_BLOCK(X) \
	MOVQ BX, X; \
	PSHUFB X9, X; \
	ADDQ CX, BX

// STORE_OUT stores X as hi || lo at OFF(DI), qword by qword (Go reads it
// so).
#define STORE_OUT(X, OFF) \
	PSHUFB X9, X; \
	MOVQ X, OFF(DI); \
	PEXTRQ $1, X, OFF+8(DI)

// func encryptCountersAESNI(roundKeys *[11][16]byte, hi, step uint64, out *counterRunBlocks)
//
// The AES-128 encryptions of the blocks hi + j*step || 0 for j < 8, side
// by side, built in registers.
TEXT ·encryptCountersAESNI(SB), NOSPLIT, $0-32
	MOVQ roundKeys+0(FP), AX
	MOVQ hi+8(FP), BX
	MOVQ step+16(FP), CX
	MOVQ out+24(FP), DI
	MOVOU bswapQwords<>(SB), X9
	COUNTER_BLOCK(X0)
	COUNTER_BLOCK(X1)
	COUNTER_BLOCK(X2)
	COUNTER_BLOCK(X3)
	COUNTER_BLOCK(X4)
	COUNTER_BLOCK(X5)
	COUNTER_BLOCK(X6)
	COUNTER_BLOCK(X7)
	MOVUPS (AX), X8
	PXOR X8, X0
	PXOR X8, X1
	PXOR X8, X2
	PXOR X8, X3
	PXOR X8, X4
	PXOR X8, X5
	PXOR X8, X6
	PXOR X8, X7
	ROUND8(16)
	ROUND8(32)
	ROUND8(48)
	ROUND8(64)
	ROUND8(80)
	ROUND8(96)
	ROUND8(112)
	ROUND8(128)
	ROUND8(144)
	MOVUPS 160(AX), X8
	AESENCLAST X8, X0
	AESENCLAST X8, X1
	AESENCLAST X8, X2
	AESENCLAST X8, X3
	AESENCLAST X8, X4
	AESENCLAST X8, X5
	AESENCLAST X8, X6
	AESENCLAST X8, X7
	STORE_OUT(X0, 0)
	STORE_OUT(X1, 16)
	STORE_OUT(X2, 32)
	STORE_OUT(X3, 48)
	STORE_OUT(X4, 64)
	STORE_OUT(X5, 80)
	STORE_OUT(X6, 96)
	STORE_OUT(X7, 112)
	RET
