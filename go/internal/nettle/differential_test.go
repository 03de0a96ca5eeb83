//go:build nettle && cgo && amd64

package nettle

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"fastmac.dev/go/umac"
)

var tagSizes = []int{4, 8, 12, 16}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// randomLength favours the edges of NH blocks and L1 chunks.
func randomLength(rng *rand.Rand) int {
	switch rng.IntN(4) {
	case 0:
		return rng.IntN(100)
	case 1:
		return 1024*rng.IntN(5) + rng.IntN(65) - 32
	case 2:
		return rng.IntN(5000)
	default:
		return rng.IntN(70000)
	}
}

// TestRandomCasesAgreeWithNettle: random keys, nonces of every length,
// message lengths around block and chunk edges, every tag size; one-shot,
// streamed and verified.
func TestRandomCasesAgreeWithNettle(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 4418))
	const cases = 4000
	for i := 0; i < cases; i++ {
		tagSize := tagSizes[i%4]
		key := randomBytes(rng, 16)
		nonce := randomBytes(rng, 1+rng.IntN(16))
		msg := randomBytes(rng, max(0, randomLength(rng)))
		want, err := MAC(tagSize, key, nonce, msg)
		if err != nil {
			t.Fatal(err)
		}
		u, err := umac.New(key, tagSize)
		if err != nil {
			t.Fatal(err)
		}
		got, err := u.MAC(nil, nonce, msg)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("case %d UMAC-%d len %d nonce %x: got %x (%v), nettle %x", i, 8*tagSize, len(msg), nonce, got, err, want)
		}
		s := u.NewStream()
		cut := rng.IntN(len(msg) + 1)
		s.Write(msg[:cut])
		s.Write(msg[cut:])
		if !s.Verify(nonce, want) {
			t.Fatalf("case %d UMAC-%d len %d: the streamed tag differs from nettle's", i, 8*tagSize, len(msg))
		}
	}
}

// TestAbove16MiBAgreesWithNettle: lengths around 2^24 bytes, where L2-HASH
// moves from POLY64 to POLY128 (RFC 4418 section 5.3), and one longer
// message, every tag size (OpenSSH's umac.c gets all of these wrong).
func TestAbove16MiBAgreesWithNettle(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 25))
	big := randomBytes(rng, 1<<24+3*1024+1)
	key := randomBytes(rng, 16)
	nonce := randomBytes(rng, 8)
	lengths := []int{1<<24 - 1, 1 << 24, 1<<24 + 1, 1<<24 + 1024, 1<<24 + 2048, 1<<24 + 2049, len(big)}
	for _, tagSize := range tagSizes {
		u, _ := umac.New(key, tagSize)
		for _, n := range lengths {
			want, err := MAC(tagSize, key, nonce, big[:n])
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := u.MAC(nil, nonce, big[:n]); !bytes.Equal(got, want) {
				t.Fatalf("UMAC-%d len %d: got %x, nettle %x", 8*tagSize, n, got, want)
			}
		}
	}
	// Streamed in uneven pieces across the POLY128 switch.
	u, _ := umac.New(key, 16)
	s := u.NewStream()
	for rest := big; len(rest) > 0; {
		n := min(len(rest), 1+rng.IntN(300000))
		s.Write(rest[:n])
		rest = rest[n:]
	}
	want, _ := MAC(16, key, nonce, big)
	if !s.Verify(nonce, want) {
		t.Fatal("streamed UMAC-128 above 16 MiB differs from nettle")
	}
}

// TestCounterRunsAgreeWithNettle: Nettle increments the nonce after each
// digest; runs of messages from one Nettle context match our tags under the
// same counter nonces, through MAC, a Sequenced and a Stream (pad caches
// on both sides), including runs that carry across bytes of the nonce.
func TestCounterRunsAgreeWithNettle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, start := range []uint64{0, 1, 2, 3, 0xfd, 0xfffffffffffffffa, 1 << 32, rng.Uint64()} {
		for _, tagSize := range tagSizes {
			key := randomBytes(rng, 16)
			msgs := make([][]byte, 40)
			for i := range msgs {
				msgs[i] = randomBytes(rng, rng.IntN(3000))
			}
			first := umac.CounterNonce(start)
			want, err := Run(tagSize, key, first[:], msgs)
			if err != nil {
				t.Fatal(err)
			}
			u, _ := umac.New(key, tagSize)
			seq, _ := umac.NewSequencedFrom(key, tagSize, start, ^uint64(0))
			s := u.NewStream()
			for i, m := range msgs {
				n := start + uint64(i) // wraps like Nettle's 8-byte counter
				nonce := umac.CounterNonce(n)
				got, _ := u.MAC(nil, nonce[:], m)
				s.Write(m)
				streamed, _ := s.Sum(nil, nonce[:])
				if !bytes.Equal(got, want[i]) || !bytes.Equal(streamed, want[i]) {
					t.Fatalf("UMAC-%d nonce %x: MAC %x stream %x, nettle %x", 8*tagSize, n, got, streamed, want[i])
				}
				if n < start || n == ^uint64(0) { // a Sequenced stops below 2^64 - 1
					continue
				}
				if _, tag, err := seq.MAC(nil, m); err != nil || !bytes.Equal(tag, want[i]) {
					t.Fatalf("UMAC-%d Sequenced nonce %x: %x (%v), nettle %x", 8*tagSize, n, tag, err, want[i])
				}
			}
		}
	}
	// Short nonces count too: a 2-byte nonce run from 0xfffe.
	key := randomBytes(rng, 16)
	msgs := [][]byte{[]byte("a"), []byte("b"), []byte("c")}
	want, _ := Run(8, key, []byte{0xff, 0xfe}, msgs)
	u, _ := umac.New(key, 8)
	for i, nonce := range [][]byte{{0xff, 0xfe}, {0xff, 0xff}, {0, 0}} {
		if got, _ := u.MAC(nil, nonce, msgs[i]); !bytes.Equal(got, want[i]) {
			t.Fatalf("2-byte nonce %x: %x, nettle %x", nonce, got, want[i])
		}
	}
}
