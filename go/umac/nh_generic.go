//go:build !(amd64 || arm64) || purego

package umac

// nhHash is NH; without assembly for this target (or with the purego tag)
// it is the portable Go code.
func nhHash(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	nhGeneric(k, first, data, acc, iters)
}
