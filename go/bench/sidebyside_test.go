//go:build sidebyside

// Package gobench times fastmac's UMAC against github.com/fakeboboliu/umac
// (a transliteration of OpenSSH's umac.c), crypto/hmac with SHA-256 and
// golang.org/x/crypto/poly1305, in one `go test -bench` run. Every MAC gets
// a new counter nonce (or key, for Poly1305) per message, as SSH uses them.
package gobench

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"slices"
	"testing"
	"time"

	peer "github.com/fakeboboliu/umac"
	"golang.org/x/crypto/poly1305"

	"fastmac.dev/go/umac"
)

// 2048 bytes, two whole chunks, shows what the partial second chunk of a
// 1500-byte packet costs.
var sizes = []int{32, 1024, 1500, 2048, 64 << 10}

var key = []byte("abcdefghijklmnop")

func forSizes(b *testing.B, run func(b *testing.B, msg []byte)) {
	for _, size := range sizes {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			msg := make([]byte, size)
			for i := range msg {
				msg[i] = byte(i)
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			run(b, msg)
		})
	}
}

// fastmacLoop and peerLoop tag msg n times under counter nonces from
// *next on.
func fastmacLoop(b *testing.B, tagSize int) func(msg []byte, n int, next *uint64) {
	u, err := umac.New(key, tagSize)
	if err != nil {
		b.Fatal(err)
	}
	tag := make([]byte, 0, 16)
	return func(msg []byte, n int, next *uint64) {
		for i := 0; i < n; i++ {
			nonce := umac.CounterNonce(*next)
			*next++
			tag, _ = u.MAC(tag[:0], nonce[:], msg)
		}
	}
}

// peerLoop drives the peer's hash.Hash, whose Sum takes the 8-byte nonce
// in its argument and writes the tag over it.
func peerLoop(newMAC func([]byte) hash.Hash) func(msg []byte, n int, next *uint64) {
	h := newMAC(key)
	buf := make([]byte, 8, 16)
	return func(msg []byte, n int, next *uint64) {
		for i := 0; i < n; i++ {
			binary.BigEndian.PutUint64(buf[:8], *next)
			*next++
			h.Write(msg)
			buf = h.Sum(buf[:8])
			h.Reset()
		}
	}
}

func fastmacUMAC(tagSize int) func(b *testing.B, msg []byte) {
	return func(b *testing.B, msg []byte) {
		var next uint64
		fastmacLoop(b, tagSize)(msg, b.N, &next)
	}
}

func peerUMAC(newMAC func([]byte) hash.Hash) func(b *testing.B, msg []byte) {
	return func(b *testing.B, msg []byte) {
		var next uint64
		peerLoop(newMAC)(msg, b.N, &next)
	}
}

// BenchmarkSpeedupOverPeer times fastmac and the peer package interleaved,
// in alternating batches of about 50 us each, so that a machine shared
// with other work slows both alike. One op is one pair of batches; it
// reports the median over pairs of the peer's time divided by fastmac's
// (x-speedup) and the median ns per message of each.
func BenchmarkSpeedupOverPeer(b *testing.B) {
	for _, c := range []struct {
		name    string
		tagSize int
		newPeer func([]byte) hash.Hash
	}{{"UMAC64", 8, peer.New8}, {"UMAC128", 16, peer.New16}} {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%d", c.name, size), func(b *testing.B) {
				msg := make([]byte, size)
				ours, theirs := fastmacLoop(b, c.tagSize), peerLoop(c.newPeer)
				batch := max(1, 50_000/(size/4+40))
				var nextOurs, nextTheirs uint64
				var ratios, oursNs, theirsNs []float64
				for i := 0; i < b.N; i++ {
					var dOurs, dTheirs time.Duration
					if i%2 == 0 {
						t0 := time.Now()
						ours(msg, batch, &nextOurs)
						t1 := time.Now()
						theirs(msg, batch, &nextTheirs)
						dOurs, dTheirs = t1.Sub(t0), time.Since(t1)
					} else {
						t0 := time.Now()
						theirs(msg, batch, &nextTheirs)
						t1 := time.Now()
						ours(msg, batch, &nextOurs)
						dTheirs, dOurs = t1.Sub(t0), time.Since(t1)
					}
					ratios = append(ratios, float64(dTheirs)/float64(dOurs))
					oursNs = append(oursNs, float64(dOurs)/float64(batch))
					theirsNs = append(theirsNs, float64(dTheirs)/float64(batch))
				}
				b.ReportMetric(median(ratios), "x-speedup")
				b.ReportMetric(median(oursNs), "fastmac-ns/msg")
				b.ReportMetric(median(theirsNs), "peer-ns/msg")
			})
		}
	}
}

func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

func BenchmarkFastmacUMAC64(b *testing.B)  { forSizes(b, fastmacUMAC(8)) }
func BenchmarkFastmacUMAC128(b *testing.B) { forSizes(b, fastmacUMAC(16)) }
func BenchmarkPeerUMAC64(b *testing.B)     { forSizes(b, peerUMAC(peer.New8)) }
func BenchmarkPeerUMAC128(b *testing.B)    { forSizes(b, peerUMAC(peer.New16)) }

func BenchmarkHMACSHA256(b *testing.B) {
	forSizes(b, func(b *testing.B, msg []byte) {
		h := hmac.New(sha256.New, key)
		out := make([]byte, 0, sha256.Size)
		for i := 0; i < b.N; i++ {
			h.Reset()
			h.Write(msg)
			out = h.Sum(out[:0])
		}
	})
}

func BenchmarkPoly1305(b *testing.B) {
	forSizes(b, func(b *testing.B, msg []byte) {
		var k [32]byte
		var out [16]byte
		for i := 0; i < b.N; i++ {
			binary.BigEndian.PutUint64(k[:8], uint64(i)) // one-time key per message
			poly1305.Sum(&out, msg, &k)
		}
	})
}

// TestUMACAgreesWithPeer checks that both packages compute the same
// UMAC-64 and UMAC-128 tags below 16 MiB (above it the peer lacks POLY128),
// so that the benchmark compares equal work.
func TestUMACAgreesWithPeer(t *testing.T) {
	for _, size := range append(sizes, 0, 3, 5000) {
		msg := make([]byte, size)
		for i := range msg {
			msg[i] = byte(i)
		}
		for _, c := range []struct {
			tagSize int
			newMAC  func([]byte) hash.Hash
		}{{8, peer.New8}, {16, peer.New16}} {
			u, _ := umac.New(key, c.tagSize)
			nonce := umac.CounterNonce(77)
			ours, _ := u.MAC(nil, nonce[:], msg)
			h := c.newMAC(key)
			h.Write(msg)
			theirs := h.Sum(nonce[:])
			if string(ours) != string(theirs) {
				t.Fatalf("UMAC-%d of %d bytes: fastmac %x, peer %x", 8*c.tagSize, size, ours, theirs)
			}
		}
	}
}
