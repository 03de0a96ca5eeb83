package umac

import (
	"crypto/cipher"
	"encoding/binary"
)

// kdf fills out with KDF(K, index, len(out)) (RFC 4418 section 3.2): AES
// of uint2str(index, 8) || uint2str(i, 8) for i = 1, 2, ..., truncated. So
// a shorter output is a prefix of a longer one.
func kdf(block cipher.Block, index uint64, out []byte) {
	var in, enc [16]byte
	binary.BigEndian.PutUint64(in[:8], index)
	for i := uint64(1); len(out) > 0; i++ {
		binary.BigEndian.PutUint64(in[8:], i)
		block.Encrypt(enc[:], in[:])
		out = out[copy(out, enc[:]):]
	}
	clear(enc[:])
}

// pdfInput turns a nonce (already checked: 1 to 16 bytes) into the AES
// input block of the PDF, the offset of the tag's pad within the AES output
// (RFC 4418 section 3.3) and the step from this block to the next
// nonce's: for 4- and 8-byte tags, index = nonce mod (16 / taglen), those
// low bits of the nonce are cleared, and the pad is bytes index*taglen of
// the output; longer tags use the output's first taglen bytes. The nonce
// fills the block from its first byte, so its last byte is byte
// len(nonce)-1 of the block, and the next block is the block plus
// 16/taglen (or 1) in that byte's place.
func pdfInput(nonce []byte, tagSize int, in *[16]byte) (offset int, step uint128) {
	*in = [16]byte{}
	copy(in[:], nonce)
	last := len(nonce) - 1
	perBlock, index := 1, 0
	if tagSize <= 8 {
		perBlock = 4 >> (tagSize/4 - 1) // 16 / tagSize, without a division
		low := byte(perBlock - 1)
		index = int(in[last&15] & low)
		in[last&15] &^= low
	}
	// The last nonce byte's place value in the 128-bit block is 2^shift.
	if shift := 8 * (15 - last); shift >= 64 {
		step.hi = uint64(perBlock) << (shift - 64)
	} else {
		step.lo = uint64(perBlock) << shift
	}
	return index * tagSize, step
}
