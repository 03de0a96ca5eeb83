//go:build (amd64 || arm64) && !purego

package umac

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// The assembly NHs (AVX-512 and AVX2 on amd64, NEON on arm64) against the
// portable code. asmBackends and usePortable are this target's (see
// nh_amd64_test.go and nh_arm64_test.go).

// asmBackend is one assembly NH: whether this CPU runs it, whether a CPU
// of this architecture must (else its tests skip, saying why), and how to
// select it (use returns the function that restores the selection).
type asmBackend struct {
	name                string
	supported, required bool
	use                 func() (restore func())
}

// forEachAsmBackend runs f with each assembly NH selected, as a subtest.
func forEachAsmBackend(t *testing.T, f func(t *testing.T)) {
	for _, b := range asmBackends {
		t.Run(b.name, func(t *testing.T) {
			switch {
			case !b.supported && b.required:
				t.Fatalf("this CPU lacks %s: the assembly path is not tested here (use -tags purego)", b.name)
			case !b.supported:
				t.Skipf("this CPU lacks %s: its NH is not tested here", b.name)
			}
			defer b.use()()
			f(t)
		})
	}
}

// withGeneric runs f with the portable code selected.
func withGeneric(f func()) {
	defer usePortable()()
	f()
}

// TestNHAssemblyMatchesGeneric compares NH itself, every iteration count,
// every starting block and every length that fits in the chunk, at several
// alignments of the message.
func TestNHAssemblyMatchesGeneric(t *testing.T) {
	forEachAsmBackend(t, nhAssemblyMatchesGeneric)
}

func nhAssemblyMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var keyBytes [KeySize]byte
	for i := range keyBytes {
		keyBytes[i] = byte(rng.Uint32())
	}
	u, err := New(keyBytes[:], 16)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, chunkSize+64)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for iters := 1; iters <= maxIters; iters++ {
		for _, align := range []int{0, 1, 3, 8, 17, 31} {
			for first := 0; first < chunkBlock; first += 5 {
				for n := 0; first*blockSize+n <= chunkSize; n++ {
					data := buf[align : align+n]
					seed := [maxIters]uint64{1, 2, 3, 4}
					asm, gen := seed, seed
					nhHash(&u.key, first, data, &asm, iters)
					nhGeneric(&u.key, first, data, &gen, iters)
					if !equalPrefix(asm, gen, iters) {
						t.Fatalf("iters %d first %d len %d align %d: assembly %x generic %x", iters, first, n, align, asm, gen)
					}
				}
			}
		}
	}
}

func equalPrefix(a, b [maxIters]uint64, n int) bool {
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAssemblyMatchesPortable compares whole tags from the assembly and the
// portable path on every length 0..3000 at several alignments, all four
// tag sizes, one-shot and streamed.
func TestAssemblyMatchesPortable(t *testing.T) {
	forEachAsmBackend(t, assemblyMatchesPortable)
}

func assemblyMatchesPortable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 3000+16)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	key := []byte("0123456789abcdef")
	nonce := []byte("nonce-12")
	for _, tagSize := range []int{4, 8, 12, 16} {
		u, _ := New(key, tagSize)
		for _, align := range []int{0, 1, 7, 13} {
			for n := 0; n <= 3000; n++ {
				msg := buf[align : align+n]
				asm, _ := u.MAC(nil, nonce, msg)
				s := u.NewStream()
				s.Write(msg[:n/3])
				s.Write(msg[n/3:])
				streamed, _ := s.Sum(nil, nonce)
				var gen, genStreamed []byte
				withGeneric(func() {
					gen, _ = u.MAC(nil, nonce, msg)
					s.Write(msg[:n/3])
					s.Write(msg[n/3:])
					genStreamed, _ = s.Sum(nil, nonce)
				})
				if !bytes.Equal(asm, gen) || !bytes.Equal(streamed, gen) || !bytes.Equal(genStreamed, gen) {
					t.Fatalf("UMAC-%d len %d align %d: assembly %x (streamed %x), portable %x (streamed %x)",
						8*tagSize, n, align, asm, streamed, gen, genStreamed)
				}
			}
		}
	}
}

// TestStreamingOnEachBackend: Stream, Sequenced and SSHHash in pieces, with
// each assembly NH (and its block stores), against the portable one-call
// MAC.
func TestStreamingOnEachBackend(t *testing.T) {
	forEachAsmBackend(t, func(t *testing.T) {
		streamingSplitsMatchMAC(t, func(u *UMAC, nonce, msg []byte) (tag []byte) {
			withGeneric(func() { tag = mustMAC(t, u, nonce, msg) })
			return tag
		})
	})
}
