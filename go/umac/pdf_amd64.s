//go:build amd64 && !purego

#include "textflag.h"

// AES-128 with AES-NI for the PDF (RFC 4418 section 3.3): the key schedule
// of FIPS 197 section 5.2 and the encryption of one block.

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

// func encryptAESNI(roundKeys *[11][16]byte, b *[16]byte)
TEXT ·encryptAESNI(SB), NOSPLIT, $0-16
	MOVQ roundKeys+0(FP), AX
	MOVQ b+8(FP), BX
	MOVUPS (AX), X4
	MOVUPS (BX), X0
	PXOR X4, X0
	MOVUPS 16(AX), X4
	AESENC X4, X0
	MOVUPS 32(AX), X4
	AESENC X4, X0
	MOVUPS 48(AX), X4
	AESENC X4, X0
	MOVUPS 64(AX), X4
	AESENC X4, X0
	MOVUPS 80(AX), X4
	AESENC X4, X0
	MOVUPS 96(AX), X4
	AESENC X4, X0
	MOVUPS 112(AX), X4
	AESENC X4, X0
	MOVUPS 128(AX), X4
	AESENC X4, X0
	MOVUPS 144(AX), X4
	AESENC X4, X0
	MOVUPS 160(AX), X4
	AESENCLAST X4, X0
	MOVUPS X0, (BX)
	RET

// ROUND runs one AES round with the round key at OFF(AX) on the four
// blocks in X0-X3.
#define ROUND(OFF) \
	MOVUPS OFF(AX), X4; \
	AESENC X4, X0; \
	AESENC X4, X1; \
	AESENC X4, X2; \
	AESENC X4, X3

// func encrypt4AESNI(roundKeys *[11][16]byte, run *padRunBlocks)
TEXT ·encrypt4AESNI(SB), NOSPLIT, $0-16
	MOVQ roundKeys+0(FP), AX
	MOVQ run+8(FP), BX
	MOVUPS (AX), X4
	MOVUPS (BX), X0
	MOVUPS 16(BX), X1
	MOVUPS 32(BX), X2
	MOVUPS 48(BX), X3
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
	MOVUPS X0, (BX)
	MOVUPS X1, 16(BX)
	MOVUPS X2, 32(BX)
	MOVUPS X3, 48(BX)
	RET
