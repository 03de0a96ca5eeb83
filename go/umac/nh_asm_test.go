//go:build (amd64 || arm64) && !purego

package umac

import (
	"bytes"
	"math/rand/v2"
	"slices"
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

// randomCuts cuts msg into parts at random places, with empty parts among
// them. Each part is a copy with random bytes around it in its own array,
// and a capacity that ends with its bytes: code that reads a part past its
// end, or before its start, reads garbage rather than the bytes that
// follow in msg.
func randomCuts(rng *rand.Rand, msg []byte) [][]byte {
	var parts [][]byte
	for len(parts) == 0 || len(msg) > 0 || rng.IntN(2) == 0 {
		n := 0
		switch rng.IntN(4) {
		case 0: // empty
		case 1:
			n = rng.IntN(8)
		case 2:
			n = rng.IntN(80)
		default:
			n = rng.IntN(400)
		}
		n = min(n, len(msg))
		const guard = 64
		array := make([]byte, guard+n+guard)
		for i := range array {
			array[i] = byte(rng.Uint32())
		}
		part := array[guard : guard+n : guard+n]
		copy(part, msg)
		parts = append(parts, part)
		msg = msg[n:]
	}
	return parts
}

// TestNHAcrossPartsMatchesGeneric compares NH of a message in parts (the
// blocks hashed where they are, those across parts gathered) with the
// portable NH of the message in one piece, for every iteration count and
// length in the chunk, several starting blocks and alignments, and random
// cuts; the cursor must end where the bytes do.
func TestNHAcrossPartsMatchesGeneric(t *testing.T) {
	forEachAsmBackend(t, nhAcrossPartsMatchesGeneric)
}

func nhAcrossPartsMatchesGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	u := mustNew(t, 16)
	buf := make([]byte, chunkSize+64)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for iters := 1; iters <= maxIters; iters++ {
		for _, align := range []int{0, 5, 27} {
			for _, first := range []int{0, 1, 7, 30} {
				for n := 1; first*blockSize+n <= chunkSize; n++ {
					// The n bytes, then a tail the cursor must stop before.
					msg := buf[align : align+n+9]
					parts := randomCuts(rng, msg)
					c := partsCursor{cur: parts[0], rest: parts[1:]}
					seed := [maxIters]uint64{1, 2, 3, 4}
					got, want := seed, seed
					nhParts(&u.key, first, &c, n, &got, iters)
					nhGeneric(&u.key, first, msg[:n], &want, iters)
					if !equalPrefix(got, want, iters) {
						t.Fatalf("iters %d first %d len %d align %d, %d parts: %x, want %x", iters, first, n, align, len(parts), got, want)
					}
					var tail [blockSize]byte
					c.gather(&tail, 9)
					if !bytes.Equal(tail[:9], msg[n:]) {
						t.Fatalf("iters %d len %d, %d parts: the cursor stopped at %x, want %x", iters, n, len(parts), tail[:9], msg[n:])
					}
				}
			}
		}
	}
}

// TestUhashAcrossPartsMatchesPortable compares UHASH of a message in parts
// with the portable UHASH of it in one piece, at every length up to two
// chunks and some beyond, with random cuts: the one-call assembly up to a
// chunk (where the CPU has it), the chunk loop past it.
func TestUhashAcrossPartsMatchesPortable(t *testing.T) {
	forEachAsmBackend(t, uhashAcrossPartsMatchesPortable)
}

func uhashAcrossPartsMatchesPortable(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	u := mustNew(t, 16)
	buf := make([]byte, 5000)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	lengths := []int{3000, 3071, 3072, 3073, 4999}
	for n := 0; n <= 2*chunkSize+40; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		msg := buf[:n]
		parts := randomCuts(rng, msg)
		for iters := 1; iters <= maxIters; iters++ {
			var got, want [maxIters]uint32
			if n > chunkSize {
				u.key.uhashChunks(iters, &partsCursor{cur: parts[0], rest: parts[1:]}, n, &got)
			} else if !u.key.uhashInOneCall(iters, parts[0], parts[1:], n, &got) {
				continue
			}
			withGeneric(func() { u.key.uhash(iters, msg, &want) })
			if !slices.Equal(got[:iters], want[:iters]) {
				t.Fatalf("iters %d len %d, %d parts: %x, want %x", iters, n, len(parts), got, want)
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
