//go:build arm64 && !purego

package umac

// useNEON selects the NEON NH. NEON (ASIMD) is part of every arm64 CPU;
// tests turn it off to compare the assembly with the portable code.
var useNEON = true

// nhNEON adds NH of blocks*32 bytes at msg (blocks >= 1) to acc[0..iters),
// words pointing at the first block's key words. Implemented in
// nh_arm64.s.
//
//go:noescape
func nhNEON(words *uint32, msg *byte, blocks int, acc *[maxIters]uint64, iters int)

// nhHash is NH: through NEON (a partial last block zero-padded in a copy),
// or through the portable code when tests turn NEON off.
func nhHash(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	if !useNEON {
		nhGeneric(k, first, data, acc, iters)
		return
	}
	if blocks := len(data) / blockSize; blocks > 0 {
		nhNEON(&k.words[8*first], &data[0], blocks, acc, iters)
		data = data[blocks*blockSize:]
		first += blocks
	}
	if len(data) > 0 {
		var tail [blockSize]byte
		copy(tail[:], data)
		nhNEON(&k.words[8*first], &tail[0], 1, acc, iters)
	}
}
