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
