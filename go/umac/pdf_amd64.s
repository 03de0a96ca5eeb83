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

// ROUND runs one AES round with the round key at OFF(AX) on the four
// blocks in X0-X3.
#define ROUND(OFF) \
	MOVUPS OFF(AX), X4; \
	AESENC X4, X0; \
	AESENC X4, X1; \
	AESENC X4, X2; \
	AESENC X4, X3

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
