//go:build sidebyside

// Package gobench times fastmac's UMAC against github.com/fakeboboliu/umac
// (a transliteration of OpenSSH's umac.c), crypto/hmac with SHA-256 and
// golang.org/x/crypto/poly1305, in one `go test -bench` run. Every MAC gets
// a new counter nonce (or key, for Poly1305) per message, as SSH uses them.
package gobench

import (
	"bytes"
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

// The sizes of the table: a short SSH message, one L1 chunk, a full
// Ethernet-sized packet (a chunk and a partial one) and 64 KiB.
var sizes = []int{32, 1024, 1500, 64 << 10}

var key = []byte("abcdefghijklmnop")

// A loop tags msg n times under counter nonces from *next on and returns
// the last tag (valid until its next call).
type loop func(msg []byte, n int, next *uint64) []byte

// macLoop is UMAC.MAC on one shared *UMAC.
func macLoop(tb testing.TB, tagSize int) loop {
	u, err := umac.New(key, tagSize)
	if err != nil {
		tb.Fatal(err)
	}
	tag := make([]byte, 0, 16)
	return func(msg []byte, n int, next *uint64) []byte {
		for i := 0; i < n; i++ {
			nonce := umac.CounterNonce(*next)
			*next++
			tag, _ = u.MAC(tag[:0], nonce[:], msg)
		}
		return tag
	}
}

// sshLoop is the SSHHash as golang.org/x/crypto/ssh drives it, through the
// hash.Hash interface: Reset, the 4-byte packet number, the message, Sum
// into a reused buffer.
func sshLoop(tb testing.TB, tagSize int) loop {
	h, err := umac.NewSSH(key, tagSize)
	if err != nil {
		tb.Fatal(err)
	}
	var mac hash.Hash = h
	var seq [4]byte
	tag := make([]byte, 0, 16)
	return func(msg []byte, n int, next *uint64) []byte {
		for i := 0; i < n; i++ {
			binary.BigEndian.PutUint32(seq[:], uint32(*next))
			*next++
			mac.Reset()
			mac.Write(seq[:])
			mac.Write(msg)
			tag = mac.Sum(tag[:0])
		}
		return tag
	}
}

// packetLoop is SSHHash.SumPacket as golang.org/x/crypto/ssh, patched by
// go/ssh/xcrypto-umac.patch, calls it from writeCipherPacket: the message
// in the pieces the packet cipher holds, the 5-byte prefix (length and
// padding length), the payload and 4 to 19 bytes of padding (packets are
// padded to a multiple of 16). With apart false the pieces are cut from
// msg itself, so their blocks lie where MAC reads them; with apart true
// each is where x/crypto keeps it: the prefix and the padding in the
// cipher's arrays, the payload in a buffer of its own, whose blocks after
// the first are then read 27 bytes past its start, across the boundaries
// of its cache lines. The loop tags those pieces of msg (its message
// argument is the same).
func packetLoop(tb testing.TB, tagSize int, msg []byte, apart bool) loop {
	h, err := umac.NewSSH(key, tagSize)
	if err != nil {
		tb.Fatal(err)
	}
	header := min(5, len(msg))
	pad := min(4+len(msg)%16, len(msg)-header)
	prefix, payload, padding := msg[:header], msg[header:len(msg)-pad], msg[len(msg)-pad:]
	if apart {
		var cipherArrays struct {
			prefix  [5]byte
			padding [32]byte
		}
		prefix = cipherArrays.prefix[:copy(cipherArrays.prefix[:], prefix)]
		payload = bytes.Clone(payload)
		padding = cipherArrays.padding[:copy(cipherArrays.padding[:], padding)]
	}
	tag := make([]byte, 0, 16)
	return func(_ []byte, n int, next *uint64) []byte {
		for i := 0; i < n; i++ {
			tag = h.SumPacket(tag[:0], uint32(*next), prefix, payload, padding)
			*next++
		}
		return tag
	}
}

// peerLoop drives the peer's hash.Hash, whose Sum takes the 8-byte nonce
// in its argument and writes the tag over it.
func peerLoop(newMAC func([]byte) hash.Hash) loop {
	h := newMAC(key)
	buf := make([]byte, 8, 16)
	return func(msg []byte, n int, next *uint64) []byte {
		for i := 0; i < n; i++ {
			binary.BigEndian.PutUint64(buf[:8], *next)
			*next++
			h.Write(msg)
			buf = h.Sum(buf[:8])
			h.Reset()
		}
		return buf
	}
}

// contenders of BenchmarkInterleaved, in the order of its metrics.
const (
	mac = iota
	sshHash
	sumPacket
	sumPacketApart
	peerPkg
	contenders
)

// metricNames are the contenders' metric prefixes: ns per message
// (mac-ns, ...), the peer's time over theirs (mac-x, ...) and theirs over
// MAC's (ssh/mac, ...).
var metricNames = [contenders]string{"mac", "ssh", "pkt", "apart", "peer"}

// newLoops returns the contenders for msg, in the order above.
func newLoops(tb testing.TB, tagSize int, newPeer func([]byte) hash.Hash, msg []byte) [contenders]loop {
	return [contenders]loop{macLoop(tb, tagSize), sshLoop(tb, tagSize), packetLoop(tb, tagSize, msg, false),
		packetLoop(tb, tagSize, msg, true), peerLoop(newPeer)}
}

// BenchmarkInterleaved times fastmac's MAC, fastmac's SSHHash through
// hash.Hash and through SumPacket (the pieces cut from the message, and
// the pieces where x/crypto keeps them), and the peer package on the same
// message, interleaved: one op is a round of one batch of about 30 us of
// each, in an order that rotates from round to round, so that a machine
// shared with other work slows all alike. It reports the medians over
// rounds of the ns per message of each and of the ratios within a round:
// the peer's time over each of fastmac's (mac-x, ssh-x, pkt-x, apart-x),
// and the SSH paths' times over MAC's (ssh/mac, pkt/mac, apart/mac).
func BenchmarkInterleaved(b *testing.B) {
	for _, c := range []struct {
		name    string
		tagSize int
		newPeer func([]byte) hash.Hash
	}{{"UMAC64", 8, peer.New8}, {"UMAC128", 16, peer.New16}} {
		for _, size := range sizes {
			b.Run(fmt.Sprintf("%s/%d", c.name, size), func(b *testing.B) {
				msg := make([]byte, size)
				for i := range msg {
					msg[i] = byte(i)
				}
				loops := newLoops(b, c.tagSize, c.newPeer, msg)
				batch := max(1, 30_000/(size/4+40))
				var next [contenders]uint64
				var perMsg, peerOver, overMAC [contenders][]float64
				for i := 0; i < b.N; i++ {
					var d [contenders]float64
					for k := 0; k < contenders; k++ {
						who := (i + k) % contenders
						start := time.Now()
						loops[who](msg, batch, &next[who])
						d[who] = float64(time.Since(start)) / float64(batch)
					}
					for who := range d {
						perMsg[who] = append(perMsg[who], d[who])
						peerOver[who] = append(peerOver[who], d[peerPkg]/d[who])
						overMAC[who] = append(overMAC[who], d[who]/d[mac])
					}
				}
				for who, name := range metricNames {
					b.ReportMetric(median(perMsg[who]), name+"-ns")
					if who == peerPkg {
						continue
					}
					b.ReportMetric(median(peerOver[who]), name+"-x")
					if who != mac {
						b.ReportMetric(median(overMAC[who]), name+"/mac")
					}
				}
			})
		}
	}
}

func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

// forSizes runs a MAC of its own (no interleaving) for scale.
func forSizes(b *testing.B, run func(b *testing.B, msg []byte)) {
	for _, size := range sizes {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			msg := make([]byte, size)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			run(b, msg)
		})
	}
}

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

// TestUMACAgreesWithPeer checks that the five contenders compute the same
// UMAC-64 and UMAC-128 tags below 16 MiB (above it the peer lacks POLY128),
// message after message through their pad caches, so that the benchmark
// compares equal work.
func TestUMACAgreesWithPeer(t *testing.T) {
	for _, size := range append(sizes, 0, 3, 2048, 5000) {
		msg := make([]byte, size)
		for i := range msg {
			msg[i] = byte(i)
		}
		for _, c := range []struct {
			tagSize int
			newPeer func([]byte) hash.Hash
		}{{8, peer.New8}, {16, peer.New16}} {
			loops := newLoops(t, c.tagSize, c.newPeer, msg)
			next := [contenders]uint64{70, 70, 70, 70, 70}
			for n := uint64(70); n < 80; n++ {
				var tags [contenders]string
				for who, run := range loops {
					tags[who] = string(run(msg, 1, &next[who]))
				}
				for who, tag := range tags {
					if tag != tags[peerPkg] {
						t.Fatalf("UMAC-%d of %d bytes, nonce %d: %s %x, peer %x", 8*c.tagSize, size, n, metricNames[who], tag, tags[peerPkg])
					}
				}
			}
		}
	}
}
