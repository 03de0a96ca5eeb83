//go:build amd64 && !purego

package umac

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 NH, once, from the CPU's features. Tests turn it
// off to compare the assembly with the portable code.
var useAVX2 = cpu.X86.HasAVX2

// nhAVX2 adds NH of 2*pairs blocks at msg, then of restBlocks (0, 1 or 2)
// blocks at rest, to acc[0..iters). even and odd point at the key-quad
// tables and words at the key words, all at the first block's entry (see
// uhashKey). Implemented in nh_amd64.s.
//
//go:noescape
func nhAVX2(even, odd *[4]uint32, words *uint32, msg *byte, pairs int, rest *byte, restBlocks int, acc *[maxIters]uint64, iters int)

// nhHash is NH: through AVX2 when the CPU has it, else through the
// portable code. The blocks after the last whole pair are read in place
// when they are whole, else from a zero-padded copy, in the same call.
func nhHash(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	if !useAVX2 {
		nhGeneric(k, first, data, acc, iters)
		return
	}
	pairs := len(data) / (2 * blockSize)
	restStart := 2 * blockSize * pairs
	var msg, rest *byte
	if pairs > 0 {
		msg = &data[0]
	}
	restBlocks := 0
	var padded [2 * blockSize]byte
	switch restLen := len(data) - restStart; {
	case restLen == blockSize:
		rest, restBlocks = &data[restStart], 1
	case restLen > 0:
		copy(padded[:], data[restStart:])
		rest, restBlocks = &padded[0], (restLen+blockSize-1)/blockSize
	case pairs == 0:
		return
	}
	nhAVX2(&k.even[first], &k.odd[first], &k.words[8*first], msg, pairs, rest, restBlocks, acc, iters)
}

// uhashBlockAVX2 writes UHASH of the zero-padded 32-byte block at block,
// for a message of bitLen bits, to out, for all four iterations. l3 is
// the key's l3k1Words. Implemented in nh_amd64.s.
//
//go:noescape
func uhashBlockAVX2(words *uint32, l3 *[4][maxIters]uint64, l3k2 *[maxIters]uint32, block *byte, bitLen uint64, out *[maxIters]uint32)

// l3ShortAVX2 writes L3-HASH of zeroes(8) || a[t] to out[t] for all four
// iterations t. Implemented in nh_amd64.s.
//
//go:noescape
func l3ShortAVX2(a *[maxIters]uint64, l3 *[4][maxIters]uint64, l3k2 *[maxIters]uint32, out *[maxIters]uint32)

// l3Short writes L3-HASH of zeroes(8) || a[t] to out[t] for the first
// iters iterations: through AVX2, all four at once, when the CPU has it.
func (k *uhashKey) l3Short(a *[maxIters]uint64, iters int, out *[maxIters]uint32) {
	if !useAVX2 {
		k.l3ShortEach(a, iters, out)
		return
	}
	l3ShortAVX2(a, &k.l3k1Words, &k.l3k2, out)
}

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
