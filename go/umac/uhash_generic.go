//go:build !amd64 || purego

package umac

// The one-block UHASH and the short L3 without vector code for this target
// (or with the purego tag).

// uhashBlock is UHASH of a message of at most one NH block.
func (k *uhashKey) uhashBlock(iters int, msg []byte, out *[maxIters]uint32) {
	k.uhashShort(iters, msg, out)
}

// l3Short writes L3-HASH of zeroes(8) || a[t] to out[t] for the first
// iters iterations.
func (k *uhashKey) l3Short(a *[maxIters]uint64, iters int, out *[maxIters]uint32) {
	k.l3ShortEach(a, iters, out)
}
