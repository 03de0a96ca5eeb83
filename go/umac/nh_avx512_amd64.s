//go:build amd64 && !purego

#include "textflag.h"
#include "go_asm.h"
#include "nh_amd64.h"

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

// XY_ADVANCE moves past a group hashed in place: 128 bytes of message,
// four quads of each key table.
#define XY_ADVANCE \
	ADDQ $128, SI; \
	ADDQ $64, R10; \
	ADDQ $64, BX

// XY_LANES sets Y8 to the sums of the qwords of Z8 and Z9, Z10 and Z11,
// Z12 and Z13 (iterations 0, 1 and 2), and zero: one lane per iteration.
#define XY_LANES \
	VPADDQ Z9, Z8, Z8; \
	VPADDQ Z11, Z10, Z10; \
	VPADDQ Z13, Z12, Z12; \
	VEXTRACTI64X4 $1, Z8, Y9; \
	VPADDQ Y9, Y8, Y8; \
	VEXTRACTI64X4 $1, Z10, Y11; \
	VPADDQ Y11, Y10, Y10; \
	VEXTRACTI64X4 $1, Z12, Y13; \
	VPADDQ Y13, Y12, Y12; \
	VEXTRACTI128 $1, Y8, X9; \
	VPADDQ X9, X8, X8; \
	VEXTRACTI128 $1, Y10, X11; \
	VPADDQ X11, X10, X10; \
	VEXTRACTI128 $1, Y12, X13; \
	VPADDQ X13, X12, X12; \
	VPUNPCKLQDQ X10, X8, X9; \
	VPUNPCKHQDQ X10, X8, X11; \
	VPADDQ X11, X9, X9; \
	VPSHUFD $0x4e, X12, X13; \
	VPADDQ X13, X12, X12; \
	VMOVQ X12, X12; \
	VINSERTI128 $1, X12, Y9, Y8

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

// Z4_LANES sets Y8 to the sums of the four iterations' qwords in Z8 to
// Z11 (128-bit lane t of each holds iteration t): one lane per iteration.
#define Z4_LANES \
	VPADDQ Z9, Z8, Z8; \
	VPADDQ Z11, Z10, Z10; \
	VPADDQ Z10, Z8, Z8; \
	VPSHUFD $0x4e, Z8, Z9; \
	VPADDQ Z9, Z8, Z8; \
	VEXTRACTI64X4 $1, Z8, Y9; \
	VPUNPCKLQDQ Y9, Y8, Y8; \
	VPERMQ $0xd8, Y8, Y8

// ADD_LANES adds the four lanes of Y8 to acc at DI, loaded qword by qword
// (see LOAD_QWORDS).
#define ADD_LANES \
	LOAD_QWORDS(DI, Y9, X9, X10); \
	VPADDQ Y9, Y8, Y8; \
	VMOVDQU Y8, (DI)

// The message is the bytes of cur followed by those of the parts of rest
// (slice headers: pointer, length, capacity). While a part holds the next
// 128 (X/Y) or 64 (four iterations) bytes, they are loaded where they are;
// a group across parts, or the last one, is gathered (GATHER). Registers,
// in the functions below: SI the next byte, R12 the bytes left in its
// part, R13 the next part's slice header, R11 the parts from there on, CX
// the bytes left to hash.

// PARTS_BEGIN sets SI, R12, R13, R11 and CX from the arguments.
#define PARTS_BEGIN(CUR, CURLEN, REST, RESTCOUNT, N) \
	MOVQ CUR, SI; \
	MOVQ CURLEN, R12; \
	MOVQ REST, R13; \
	MOVQ RESTCOUNT, R11; \
	MOVQ N, CX

// PARTS_END writes where hashing stopped: how many parts of rest it moved
// into (from RESTCOUNT, rest's length) to MOVED and the bytes left in the
// part it is in to LEFT.
#define PARTS_END(RESTCOUNT, MOVED, LEFT) \
	MOVQ RESTCOUNT, AX; \
	SUBQ R11, AX; \
	MOVQ AX, MOVED; \
	MOVQ R12, LEFT

// GATHER(V) sets V (Z7, or Y7 for at most 32 bytes) to the next DX bytes
// (0 to 64) of the parts, zero-padded, and moves past them: one masked
// load when the current part holds them, else each part's bytes go to
// their place by a masked load from the part's position minus the bytes
// already placed (R8 of them; masked bytes are neither read nor faulted
// on). It stops early only if the parts end. Clobbers AX, DI, R8 and K1.
// Its labels take it once per function.
#define GATHER(V) \
	CMPQ R12, DX; \
	JB   gatherparts; \
	MOVQ $-1, AX; \
	BZHIQ DX, AX, AX; \
	KMOVQ AX, K1; \
	VMOVDQU8.Z (SI), K1, V; \
	ADDQ DX, SI; \
	SUBQ DX, R12; \
	JMP  gatherdone; \
gatherparts: \
	VPXORQ V, V, V; \
	XORQ R8, R8; \
gatherwhole: \
	LEAQ (R8)(R12*1), AX; \
	CMPQ AX, DX; \
	JAE  gatherlast; \
	MOVQ $-1, DI; \
	BZHIQ AX, DI, DI; \
	SHRXQ R8, DI, DI; \
	SHLXQ R8, DI, DI; \
	KMOVQ DI, K1; \
	SUBQ R8, SI; \
	VMOVDQU8 (SI), K1, V; \
	ADDQ AX, SI; \
	MOVQ AX, R8; \
	XORQ R12, R12; \
	TESTQ R11, R11; \
	JZ   gatherdone; \
	DECQ R11; \
	MOVQ 0(R13), SI; \
	MOVQ 8(R13), R12; \
	ADDQ $24, R13; \
	JMP  gatherwhole; \
gatherlast: \
	MOVQ $-1, DI; \
	BZHIQ DX, DI, DI; \
	SHRXQ R8, DI, DI; \
	SHLXQ R8, DI, DI; \
	KMOVQ DI, K1; \
	MOVQ SI, DI; \
	SUBQ R8, DI; \
	VMOVDQU8 (DI), K1, V; \
	MOVQ DX, AX; \
	SUBQ R8, AX; \
	ADDQ AX, SI; \
	SUBQ AX, R12; \
gatherdone:

// gatherZ7 is GATHER(Z7), for xyNH's two uses.
TEXT gatherZ7<>(SB), NOSPLIT|NOFRAME, $0-0
	GATHER(Z7)
	RET

// IN_PLACE sets DX to the bytes hashed where they are next: those of the
// whole groups of GROUP bytes (a power of two) in both the CX bytes left
// and the current part; CX and R12 are then the bytes left after them,
// and the zero flag says whether DX is zero.
#define IN_PLACE(GROUP) \
	MOVQ CX, DX; \
	CMPQ R12, DX; \
	CMOVQLT R12, DX; \
	ANDQ $-GROUP, DX; \
	SUBQ DX, CX; \
	SUBQ DX, R12; \
	TESTQ DX, DX

// xyNH sets Z8 to Z13 to NH's products of the next CX bytes of the parts
// (the last block zero-padded) for R9 iterations (1 to 3) in the X/Y
// layout, iteration t's in Z(8+2t) and Z(9+2t), and moves past the bytes;
// R10 and BX point at the even and odd key-quad tables at the first
// block's entry. Clobbers Z0 to Z7, K1, K2 and AX, DX, DI, R8, R10, BX.
TEXT xyNH<>(SB), NOSPLIT|NOFRAME, $0-0
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11
	VPXORQ Z12, Z12, Z12
	VPXORQ Z13, Z13, Z13
	// K2: the qwords added, all of them but in the last partial group.
	MOVQ $0xff, AX
	KMOVQ AX, K2

xyparts:
	IN_PLACE(128)
	JZ   xyseam
	CMPQ R9, $2
	JB   xy1
	JEQ  xy2

xy3:
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	XY_LOAD
	XY_GROUP3
	XY_ADVANCE
	SUBQ $128, DX
	JNZ  xy3
	JMP  xyseam

xy2:
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	XY_LOAD
	XY_GROUP2
	XY_ADVANCE
	SUBQ $128, DX
	JNZ  xy2
	JMP  xyseam

xy1:
	VMOVDQU64 (SI), Z0
	VMOVDQU64 64(SI), Z1
	XY_LOAD
	XY_GROUP1
	XY_ADVANCE
	SUBQ $128, DX
	JNZ  xy1

xyseam:
	// The last group (CX below 128, K2 then keeping the qwords of its
	// blocks, two per block), read with masked loads when it is all in
	// this part, else gathered; or a whole group across parts, gathered.
	TESTQ CX, CX
	JZ    xydone
	CMPQ R12, CX
	JB   xyseamgather
	MOVQ $-1, AX
	BZHIQ CX, AX, AX
	KMOVQ AX, K1
	VMOVDQU8.Z (SI), K1, Z0
	MOVQ CX, DX
	SUBQ $64, DX
	MOVQ $0, AX
	CMOVQLT AX, DX
	MOVQ $-1, AX
	BZHIQ DX, AX, AX
	KMOVQ AX, K1
	VMOVDQU8.Z 64(SI), K1, Z1
	ADDQ CX, SI
	SUBQ CX, R12
	JMP  xyseammask
xyseamgather:
	MOVQ CX, DX
	MOVQ $64, AX
	CMPQ DX, AX
	CMOVQGT AX, DX
	CALL gatherZ7<>(SB)
	VMOVDQA64 Z7, Z0
	VPXORQ Z1, Z1, Z1
	CMPQ CX, $64
	JBE  xyseammask
	MOVQ CX, DX
	SUBQ $64, DX
	MOVQ $64, AX
	CMPQ DX, AX
	CMOVQGT AX, DX
	CALL gatherZ7<>(SB)
	VMOVDQA64 Z7, Z1
xyseammask:
	CMPQ CX, $128
	JAE  xyseamhash
	MOVQ CX, DX
	ADDQ $31, DX
	SHRQ $5, DX
	SHLQ $1, DX
	MOVQ $-1, AX
	BZHIQ DX, AX, AX
	KMOVQ AX, K2
	MOVQ $128, CX
xyseamhash:
	XY_LOAD
	CMPQ R9, $2
	JB   xyseam1
	JEQ  xyseam2
	XY_GROUP3
	JMP  xyseamnext
xyseam2:
	XY_GROUP2
	JMP  xyseamnext
xyseam1:
	XY_GROUP1
xyseamnext:
	ADDQ $64, R10
	ADDQ $64, BX
	SUBQ $128, CX
	JMP  xyparts

xydone:
	RET

// z4NH sets Z8 to Z11 to NH's products of the next CX bytes of the parts
// (the last block zero-padded) for the four iterations side by side
// (128-bit lane t: iteration t; even blocks in Z8 and Z9, odd ones in Z10
// and Z11), and moves past the bytes; R9 points at the first block's key
// words. Clobbers Z0 to Z7, K1 and AX, DX, DI, R8, R9.
TEXT z4NH<>(SB), NOSPLIT|NOFRAME, $0-0
	VPXORQ Z8, Z8, Z8
	VPXORQ Z9, Z9, Z9
	VPXORQ Z10, Z10, Z10
	VPXORQ Z11, Z11, Z11

z4parts:
	IN_PLACE(64)
	JZ   z4seam

	PCALIGN $32
z4pair:
	// Two blocks at a time, into two accumulator sets.
	VBROADCASTI32X4 (SI), Z0
	VBROADCASTI32X4 16(SI), Z1
	Z4_BLOCK((R9), 16(R9), Z8, Z9)
	VBROADCASTI32X4 32(SI), Z0
	VBROADCASTI32X4 48(SI), Z1
	Z4_BLOCK(32(R9), 48(R9), Z10, Z11)
	ADDQ $64, SI
	ADDQ $64, R9
	SUBQ $64, DX
	JNZ  z4pair

z4seam:
	// Two blocks across parts, or the last one or two, gathered; their
	// quads broadcast from Z7.
	TESTQ CX, CX
	JZ    z4done
	MOVQ CX, DX
	MOVQ $64, AX
	CMPQ DX, AX
	CMOVQGT AX, DX
	GATHER(Z7)
	VSHUFI32X4 $0x00, Z7, Z7, Z0
	VSHUFI32X4 $0x55, Z7, Z7, Z1
	Z4_BLOCK((R9), 16(R9), Z8, Z9)
	CMPQ CX, $32
	JBE  z4done
	VSHUFI32X4 $0xaa, Z7, Z7, Z0
	VSHUFI32X4 $0xff, Z7, Z7, Z1
	Z4_BLOCK(32(R9), 48(R9), Z10, Z11)
	ADDQ $64, R9
	SUBQ DX, CX
	JMP  z4parts

z4done:
	RET

// func nhXYAVX512(even, odd *[4]uint32, cur []byte, rest [][]byte, n int, acc *[maxIters]uint64, iters int) (moved, left int)
//
// Adds NH of the first n bytes of the message (cur, then the parts at
// rest), the last block zero-padded, to acc[0..iters), for iters 1 to 3,
// in the X/Y layout; even and odd point at the key-quad tables at the
// first block's entry. Returns where the n bytes end (see PARTS_END).
TEXT ·nhXYAVX512(SB), NOSPLIT, $0-104
	MOVQ even+0(FP), R10
	MOVQ odd+8(FP), BX
	MOVQ iters+80(FP), R9
	PARTS_BEGIN(cur_base+16(FP), cur_len+24(FP), rest_base+40(FP), rest_len+48(FP), n+64(FP))
	CALL xyNH<>(SB)
	XY_LANES
	MOVQ acc+72(FP), DI
	ADD_LANES
	PARTS_END(rest_len+48(FP), moved+88(FP), left+96(FP))
	VZEROUPPER
	RET

// func nhZ4AVX512(words *uint32, cur []byte, rest [][]byte, n int, acc *[maxIters]uint64) (moved, left int)
//
// Adds NH of the first n bytes of the message (cur, then the parts at
// rest), the last block zero-padded, to acc[0..4), all four iterations
// side by side; words points at the key words of the first block. Returns
// where the n bytes end (see PARTS_END).
TEXT ·nhZ4AVX512(SB), NOSPLIT, $0-88
	MOVQ words+0(FP), R9
	PARTS_BEGIN(cur_base+8(FP), cur_len+16(FP), rest_base+32(FP), rest_len+40(FP), n+56(FP))
	CALL z4NH<>(SB)
	Z4_LANES
	MOVQ acc+64(FP), DI
	ADD_LANES
	PARTS_END(rest_len+40(FP), moved+72(FP), left+80(FP))
	VZEROUPPER
	RET

// func uhashChunkAVX512(k *uhashKey, iters int, cur []byte, rest [][]byte, n int, out *[maxIters]uint32)
//
// UHASH of a message of at most one chunk, the n bytes of cur and then of
// the parts at rest, for all four iterations (the first iters are the
// tag's): NH of the blocks before the last (xyNH for one to three
// iterations, z4NH for four), then NH of the last block, gathered and
// zero-padded in a register, the bit length and L3 (RFC 4418 section
// 5.3.1: one chunk skips L2).
TEXT ·uhashChunkAVX512(SB), NOSPLIT, $0-80
	PARTS_BEGIN(cur_base+16(FP), cur_len+24(FP), rest_base+40(FP), rest_len+48(FP), n+64(FP))
	// CX: the bytes before the last block, 32 * ((n - 1) / 32), and 0 for
	// the empty message.
	DECQ CX
	MOVQ $0, AX
	CMOVQLT AX, CX
	ANDQ $-32, CX
	VPXOR Y8, Y8, Y8
	JZ   chunklast
	MOVQ k+0(FP), DX
	MOVQ iters+8(FP), R9
	CMPQ R9, $4
	JEQ  chunkz4
	LEAQ uhashKey_even(DX), R10
	LEAQ uhashKey_odd(DX), BX
	CALL xyNH<>(SB)
	XY_LANES
	JMP  chunklast
chunkz4:
	LEAQ uhashKey_words(DX), R9
	CALL z4NH<>(SB)
	Z4_LANES

chunklast:
	// The last block: n minus the bytes before it, with its key words
	// from there on.
	MOVQ n+64(FP), DX
	MOVQ DX, R9
	DECQ R9
	MOVQ $0, AX
	CMOVQLT AX, R9
	ANDQ $-32, R9
	SUBQ R9, DX
	GATHER(Y7)
	MOVQ k+0(FP), DX
	LEAQ uhashKey_words(DX)(R9*1), R9
	LEAQ uhashKey_l3k1Words(DX), AX
	LEAQ uhashKey_l3k2(DX), BX
	MOVQ out+72(FP), DI
	VPERMQ $0x44, Y7, Y0
	VPERMQ $0xee, Y7, Y1
	LAST_BLOCK_NH
	VPADDQ Y8, Y0, Y0
	MOVQ n+64(FP), R8
	SHLQ $3, R8
	VMOVQ R8, X1
	L3_WITH_LENGTH(X1)
	VZEROUPPER
	RET
