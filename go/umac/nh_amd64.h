// Macros of nh_amd64.s and nh_avx512_amd64.s: NH of one block in the
// iteration-parallel layout, and the last steps of UHASH (NH of the last
// block, the bit length, L3) for the four iterations side by side.

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

// LOAD_QWORDS loads the four qwords at (R) into Y, one by one: Go stored
// them so, and one 32-byte load of separate stores would wait for them to
// reach the cache instead of taking them from the store buffer.
#define LOAD_QWORDS(R, Y, X, XT) \
	VMOVQ 0(R), X; \
	VPINSRQ $1, 8(R), X, X; \
	VMOVQ 16(R), XT; \
	VPINSRQ $1, 24(R), XT, XT; \
	VINSERTI128 $1, XT, Y, Y

// L3_WORD adds the products of the 16-bit words in W (one per iteration)
// with the L3 keys at OFF(AX) (four qwords below 2^36): the low 32 key
// bits to Y4, the high 4 to Y5.
#define L3_WORD(W, OFF) \
	VMOVDQU OFF(AX), Y3; \
	VPMULUDQ Y3, W, Y6; \
	VPADDQ Y6, Y4, Y4; \
	VPSRLQ $32, Y3, Y3; \
	VPMULUDQ Y3, W, Y6; \
	VPADDQ Y6, Y5, Y5

// L3_SHORT writes L3-HASH of zeroes(8) || a (RFC 4418 sections 5.3.1
// and 5.4) for the four iterations' a in Y0 to DI: y = the sum of the four
// 16-bit words of a times L3Key1 (AX points at l3k1Words), below 2^55,
// reduced mod p36 by one fold and one conditional subtraction, its low 32
// bits XOR L3Key2 (at BX). Clobbers R8.
#define L3_SHORT \
	VPCMPEQD Y15, Y15, Y15; \
	VPSRLQ $48, Y15, Y15; \
	VPXOR Y4, Y4, Y4; \
	VPXOR Y5, Y5, Y5; \
	VPSRLQ $48, Y0, Y2; \
	L3_WORD(Y2, 0); \
	VPSRLQ $32, Y0, Y2; \
	VPAND Y15, Y2, Y2; \
	L3_WORD(Y2, 32); \
	VPSRLQ $16, Y0, Y2; \
	VPAND Y15, Y2, Y2; \
	L3_WORD(Y2, 64); \
	VPAND Y15, Y0, Y2; \
	L3_WORD(Y2, 96); \
	VPSLLQ $32, Y5, Y5; \
	VPADDQ Y5, Y4, Y4; \
	VPCMPEQD Y6, Y6, Y6; \
	VPSRLQ $28, Y6, Y6; \
	VPAND Y6, Y4, Y2; \
	VPSRLQ $36, Y4, Y3; \
	VPSLLQ $2, Y3, Y5; \
	VPADDQ Y5, Y3, Y3; \
	VPADDQ Y3, Y2, Y2; \
	MOVQ $0xffffffffb, R8; \
	VMOVQ R8, X3; \
	VPBROADCASTQ X3, Y3; \
	VPSUBQ Y3, Y2, Y3; \
	VBLENDVPD Y3, Y2, Y3, Y2; \
	VPSHUFD $0x08, Y2, Y2; \
	VPERMQ $0x08, Y2, Y2; \
	VPXOR (BX), X2, X2; \
	VMOVDQU X2, (DI)

// LAST_BLOCK_NH sets Y0 to NH of the last block of a message of at most
// one chunk, for the four iterations side by side (lane t, iteration t):
// the block's low quad broadcast in Y0 and its high quad in Y1, in the
// single-block layout of nhAVX2 (R9 at its key words).
#define LAST_BLOCK_NH \
	VPXOR Y14, Y14, Y14; \
	VPXOR Y15, Y15, Y15; \
	PASS((R9), 16(R9), Y14); \
	PASS(32(R9), 48(R9), Y15); \
	VPSHUFD $0x4e, Y14, Y2; \
	VPADDQ Y2, Y14, Y14; \
	VPSHUFD $0x4e, Y15, Y3; \
	VPADDQ Y3, Y15, Y15; \
	VPUNPCKLQDQ Y15, Y14, Y0; \
	VPERMQ $0xd8, Y0, Y0

// L3_WITH_LENGTH adds the message's bit length (BITLEN, broadcast) to the
// L1 outputs in Y0 and writes L3-HASH of each (L3_SHORT).
#define L3_WITH_LENGTH(BITLEN) \
	VPBROADCASTQ BITLEN, Y1; \
	VPADDQ Y1, Y0, Y0; \
	L3_SHORT

// UHASH_LAST finishes UHASH of a message of at most one chunk, its last
// block's halves broadcast in Y0 and Y1 (LAST_BLOCK_NH): plus the NH sums
// of the blocks before it (at DX), plus the bit length (at BITLEN), then
// L3_SHORT.
#define UHASH_LAST(BITLEN) \
	LAST_BLOCK_NH; \
	LOAD_QWORDS(DX, Y1, X1, X2); \
	VPADDQ Y1, Y0, Y0; \
	L3_WITH_LENGTH(BITLEN)
