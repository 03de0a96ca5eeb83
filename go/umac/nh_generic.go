//go:build !amd64 || purego

package umac

// nhHash is NH; without assembly for this target (or with the purego tag)
// it is the portable Go code.
func nhHash(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	nhGeneric(k, first, data, acc, iters)
}

// uhashBlock is UHASH of a message of at most one NH block.
func (k *uhashKey) uhashBlock(iters int, msg []byte, out *[maxIters]uint32) {
	k.uhashShort(iters, msg, out)
}

// l3Short writes L3-HASH of zeroes(8) || a[t] to out[t] for the first
// iters iterations.
func (k *uhashKey) l3Short(a *[maxIters]uint64, iters int, out *[maxIters]uint32) {
	k.l3ShortEach(a, iters, out)
}
