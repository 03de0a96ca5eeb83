//go:build !amd64 || purego

package umac

// The last step of UHASH and the short L3 without vector code for this
// target (or with the purego tag).

// uhashLast writes UHASH of a message of at most one chunk to out: acc
// holds the NH sums of its blocks before block last, block is that last
// block (0 to 32 bytes: none only for the empty message, zero-padded in
// any case) and bitLen the message's length in bits.
func (k *uhashKey) uhashLast(iters, last int, block []byte, acc *[maxIters]uint64, bitLen uint64, out *[maxIters]uint32) {
	k.uhashLastEach(iters, last, block, acc, bitLen, out)
}

// l3Short writes L3-HASH of zeroes(8) || a[t] to out[t] for the first
// iters iterations.
func (k *uhashKey) l3Short(a *[maxIters]uint64, iters int, out *[maxIters]uint32) {
	k.l3ShortEach(a, iters, out)
}

// uhashLastPadded is uhashLast for a last block zero-padded in block.
func (k *uhashKey) uhashLastPadded(iters, last int, block *[blockSize]byte, acc *[maxIters]uint64, bitLen uint64, out *[maxIters]uint32) {
	k.uhashLastEach(iters, last, block[:], acc, bitLen, out)
}

// nhBlockPadded is nhHash of the zero-padded block in block; acc's words
// from iters on may change (not here).
func nhBlockPadded(k *uhashKey, first int, block *[blockSize]byte, acc *[maxIters]uint64, iters int) {
	nhHash(k, first, block[:], acc, iters)
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

// gatherBlock writes n bytes (at most 32) of the concatenation of parts
// from byte off of parts[0], zero-padded, to dst.
func gatherBlock(dst *[blockSize]byte, parts [][]byte, off, n int) {
	gatherBlockCopy(dst, parts, off, n)
}
