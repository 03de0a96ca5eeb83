package umac

import "encoding/binary"

// The PDF (RFC 4418 section 3.3): the pad is AES(K', nonce with its low
// bits cleared) for 4- and 8-byte tags, which take bytes index*taglen of
// the output (index = nonce mod 16/taglen), and AES(K', nonce) for longer
// tags, which take its first taglen bytes. Blocks are 128-bit big-endian
// numbers (uint128), so the pad is read and the next nonce's block found
// with shifts and additions in registers.

// pdfInput returns the AES input block of nonce (already checked: 1 to 16
// bytes), the index of the pad's first 32-bit word in the AES output, and
// the step from this block to the next nonce's. The nonce fills the block
// from its first byte, so its last byte is byte len(nonce)-1 of the block,
// and the next block is this one plus 16/taglen (or 1) in that byte's
// place.
func pdfInput(nonce []byte, tagSize int) (in uint128, word int, step uint128) {
	if len(nonce) == 8 {
		return counterInput(binary.BigEndian.Uint64(nonce), tagSize)
	}
	split := min(len(nonce), 8)
	in = uint128{leftAligned(nonce[:split]), leftAligned(nonce[split:])}
	perBlock := blocksPerPad(tagSize)
	// The last nonce byte's place value in the block is 2^shift.
	shift := uint(8 * (16 - len(nonce)))
	step = shl128(perBlock, shift)
	low := shl128(perBlock-1, shift)
	index := shr128(and128(in, low), shift)
	in = uint128{in.hi &^ low.hi, in.lo &^ low.lo}
	return in, int(index) * tagSize / 4, step
}

// counterInput is pdfInput of the 8-byte nonce CounterNonce(n): the
// nonce of SSH's packet numbers and of a Sequenced, in the block's first
// 64 bits.
func counterInput(n uint64, tagSize int) (in uint128, word int, step uint128) {
	perBlock := blocksPerPad(tagSize)
	index := n & (perBlock - 1)
	return uint128{n &^ (perBlock - 1), 0}, int(index) * tagSize / 4, uint128{perBlock, 0}
}

// blocksPerPad is how many consecutive nonces share one AES block: 16 /
// tagSize for 4- and 8-byte tags (computed without a division), else 1.
func blocksPerPad(tagSize int) uint64 {
	if tagSize <= 8 {
		return 4 >> (tagSize/4 - 1)
	}
	return 1
}

// leftAligned returns up to 8 bytes as the leading bytes of a big-endian
// word, zeros after them.
func leftAligned(b []byte) uint64 {
	if len(b) == 8 {
		return binary.BigEndian.Uint64(b)
	}
	var x uint64
	for i, c := range b {
		x |= uint64(c) << (56 - 8*i)
	}
	return x
}

// shl128 returns x * 2^shift for shift < 128, as 128 bits.
func shl128(x uint64, shift uint) uint128 {
	if shift >= 64 {
		return uint128{x << (shift - 64), 0}
	}
	return uint128{x >> (64 - shift), x << shift}
}

// shr128 returns the low 64 bits of x / 2^shift for shift < 128.
func shr128(x uint128, shift uint) uint64 {
	if shift >= 64 {
		return x.hi >> (shift - 64)
	}
	return x.lo>>shift | x.hi<<(64-shift)
}

func and128(x, y uint128) uint128 { return uint128{x.hi & y.hi, x.lo & y.lo} }

// appendTag appends UHASH XOR pad (RFC 4418 section 4) to dst: hash word
// i with word word+i of the AES output pad.
func (u *UMAC) appendTag(dst []byte, hash *[maxIters]uint32, pad uint128, word int) []byte {
	ret, tag := sliceForAppend(dst, u.tagSize)
	// The pad's words from word on, as the top of a 128-bit number.
	if word >= 2 {
		pad = uint128{pad.lo, 0}
	}
	if word&1 == 1 {
		pad = uint128{pad.hi<<32 | pad.lo>>32, pad.lo << 32}
	}
	hi := (uint64(hash[0])<<32 | uint64(hash[1])) ^ pad.hi
	lo := (uint64(hash[2])<<32 | uint64(hash[3])) ^ pad.lo
	switch len(tag) {
	case 4:
		binary.BigEndian.PutUint32(tag, uint32(hi>>32))
	case 8:
		binary.BigEndian.PutUint64(tag, hi)
	case 12:
		binary.BigEndian.PutUint64(tag, hi)
		binary.BigEndian.PutUint32(tag[8:], uint32(lo>>32))
	default:
		binary.BigEndian.PutUint64(tag, hi)
		binary.BigEndian.PutUint64(tag[8:], lo)
	}
	return ret
}
