//go:build amd64 && !purego

package umac

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 NH, once, from the CPU's features. Tests turn it
// off to compare the assembly with the portable code.
var useAVX2 = cpu.X86.HasAVX2

// nhAVX2 adds NH of blocks*32 bytes at msg (blocks >= 1) to acc[0..iters).
// even and odd point at the key-quad tables and words at the key words, all
// at the first block's entry (see uhashKey). Implemented in nh_amd64.s.
//
//go:noescape
func nhAVX2(even, odd *[4]uint32, words *uint32, msg *byte, blocks int, acc *[maxIters]uint64, iters int)

// nhHash is NH: through AVX2 when the CPU has it (a partial last block
// zero-padded in a copy), else through the portable code.
func nhHash(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	if !useAVX2 {
		nhGeneric(k, first, data, acc, iters)
		return
	}
	if blocks := len(data) / blockSize; blocks > 0 {
		nhAVX2(&k.even[first], &k.odd[first], &k.words[8*first], &data[0], blocks, acc, iters)
		data = data[blocks*blockSize:]
		first += blocks
	}
	if len(data) > 0 {
		var tail [blockSize]byte
		copy(tail[:], data)
		nhAVX2(&k.even[first], &k.odd[first], &k.words[8*first], &tail[0], 1, acc, iters)
	}
}

// uhashBlockAVX2 writes UHASH of the zero-padded 32-byte block at block,
// for a message of bitLen bits, to out, for all four iterations. l3 is
// the key's l3k1Words. Implemented in nh_amd64.s.
//
//go:noescape
func uhashBlockAVX2(words *uint32, l3 *[4][maxIters]uint64, l3k2 *[maxIters]uint32, block *byte, bitLen uint64, out *[maxIters]uint32)

// uhashBlock is UHASH of a message of at most one NH block: through AVX2,
// all iterations at once, when the CPU has it.
func (k *uhashKey) uhashBlock(iters int, msg []byte, out *[maxIters]uint32) {
	if !useAVX2 {
		k.uhashShort(iters, msg, out)
		return
	}
	var block [blockSize]byte
	copy(block[:], msg)
	uhashBlockAVX2(&k.words[0], &k.l3k1Words, &k.l3k2, &block[0], 8*uint64(len(msg)), out)
}
