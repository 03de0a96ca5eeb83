//go:build !amd64 || purego

package umac

// The last step of UHASH and the short L3 without vector code for this
// target (or with the purego tag).

// partsInPlace reports false: SumPacket copies a short packet in parts
// into one piece.
func partsInPlace() bool { return false }

// uhashInOneCall reports false: no one-call assembly for this target.
func (k *uhashKey) uhashInOneCall(iters int, cur []byte, rest [][]byte, n int, out *[maxIters]uint32) bool {
	return false
}

// l3Short writes L3-HASH of zeroes(8) || a[t] to out[t] for the first
// iters iterations.
func (k *uhashKey) l3Short(a *[maxIters]uint64, iters int, out *[maxIters]uint32) {
	k.l3ShortEach(a, iters, out)
}

// uhashLastPadded writes UHASH of a message of at most one chunk to out:
// acc holds the NH sums of its blocks before block last, block is that
// last block zero-padded, and bitLen is the message's length in bits.
func (k *uhashKey) uhashLastPadded(iters, last int, block *[blockSize]byte, acc *[maxIters]uint64, bitLen uint64, out *[maxIters]uint32) {
	k.uhashLastEach(iters, last, block, acc, bitLen, out)
}

// nhBlockPadded is nhHash of the zero-padded block in block; acc's words
// from iters on may change (not here).
func nhBlockPadded(k *uhashKey, first int, block *[blockSize]byte, acc *[maxIters]uint64, iters int) {
	nhHash(k, first, block[:], acc, iters)
}

// nhParts adds NH of the next n bytes at c (all there) to acc and moves c
// past them.
func nhParts(k *uhashKey, first int, c *partsCursor, n int, acc *[maxIters]uint64, iters int) {
	nhPartsEach(k, first, c, n, acc, iters)
}

// storeBlock sets dst to block (at most 32 bytes), zero-padded.
func storeBlock(dst *[blockSize]byte, block []byte) {
	*dst = [blockSize]byte{}
	copy(dst[:], block)
}

// appendBlock writes block into dst from byte at.
func appendBlock(dst *[blockSize]byte, at int, block []byte) {
	copy(dst[at:], block)
}
