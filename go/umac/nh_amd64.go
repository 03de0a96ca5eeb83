//go:build amd64 && !purego

package umac

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 NH, once, from the CPU's features. Tests turn it
// off to compare the assembly with the portable code.
var useAVX2 = cpu.X86.HasAVX2

// nhAVX2 adds NH of pairs*64 bytes at msg (pairs >= 1) to acc[0..iters),
// with even and odd pointing at the key-quad tables at the first block's
// entry (see uhashKey). Implemented in nh_amd64.s.
//
//go:noescape
func nhAVX2(even, odd *[4]uint32, msg *byte, pairs int, acc *[maxIters]uint64, iters int)

// nhHash is NH: whole pairs of blocks through AVX2 when the CPU has it, the
// rest (an odd block, a partial one) through the portable code.
func nhHash(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	if useAVX2 && len(data) >= 2*blockSize {
		pairs := len(data) / (2 * blockSize)
		nhAVX2(&k.even[first], &k.odd[first], &data[0], pairs, acc, iters)
		data = data[pairs*2*blockSize:]
		first += 2 * pairs
	}
	nhGeneric(k, first, data, acc, iters)
}

// nhBackend names the NH code in use, for tests and benchmarks.
func nhBackend() string {
	if useAVX2 {
		return "avx2"
	}
	return "generic"
}
