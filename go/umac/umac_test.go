package umac

import (
	"bytes"
	"errors"
	"hash"
	"math/rand/v2"
	"sync"
	"testing"
)

var testKey = []byte("abcdefghijklmnop")

func mustNew(t testing.TB, tagSize int) *UMAC {
	t.Helper()
	u, err := New(testKey, tagSize)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestBadInputIsATypedError(t *testing.T) {
	for _, n := range []int{0, 15, 17, 32} {
		var e KeySizeError
		if _, err := New(make([]byte, n), 8); !errors.As(err, &e) || int(e) != n {
			t.Errorf("key of %d bytes: %v", n, err)
		}
	}
	for _, n := range []int{0, 1, 5, 20, -4} {
		var e TagSizeError
		if _, err := New(testKey, n); !errors.As(err, &e) || int(e) != n {
			t.Errorf("tag size %d: %v", n, err)
		}
	}
	u := mustNew(t, 8)
	dst := []byte("kept")
	for _, n := range []int{0, 17} {
		out, err := u.MAC(dst, make([]byte, n), []byte("m"))
		var e NonceSizeError
		if !errors.As(err, &e) || int(e) != n || string(out) != "kept" {
			t.Errorf("nonce of %d bytes: %q %v", n, out, err)
		}
		if u.Verify(make([]byte, n), []byte("m"), make([]byte, 8)) {
			t.Errorf("Verify accepted a nonce of %d bytes", n)
		}
	}
	good, _ := u.MAC(nil, []byte{1}, []byte("m"))
	if u.Verify([]byte{1}, []byte("m"), good[:7]) || u.Verify([]byte{1}, []byte("m"), append(good, 0)) {
		t.Error("Verify accepted a tag of the wrong length")
	}
	// A bad nonce at Sum keeps the streamed message for a retry.
	s := u.NewStream()
	s.Write([]byte("m"))
	if _, err := s.Sum(nil, nil); err == nil {
		t.Fatal("Sum accepted an empty nonce")
	}
	if again, _ := s.Sum(nil, []byte{1}); !bytes.Equal(again, good) {
		t.Fatalf("Sum after a refused nonce: %x, want %x", again, good)
	}
	// Messages name lengths, never bytes.
	if got := NonceSizeError(0).Error(); got != "umac: wrong nonce length: expected 1 to 16 bytes, got 0" {
		t.Errorf("message %q", got)
	}
}

// TestUhashNestsAcrossTagSizes: iteration i uses the same key slices
// whatever the tag length (RFC 4418 section 5.1), and 12- and 16-byte tags
// use the same pad block, so UMAC-96 is a prefix of UMAC-128 at any nonce.
func TestUhashNestsAcrossTagSizes(t *testing.T) {
	u96, u128 := mustNew(t, 12), mustNew(t, 16)
	for _, n := range []int{0, 1, 31, 32, 33, 1024, 1025, 5000} {
		msg := bytes.Repeat([]byte{0xa5}, n)
		a, _ := u96.MAC(nil, []byte("nonce"), msg)
		b, _ := u128.MAC(nil, []byte("nonce"), msg)
		if !bytes.Equal(a, b[:12]) {
			t.Fatalf("len %d: UMAC-96 %x is not a prefix of UMAC-128 %x", n, a, b)
		}
	}
}

func TestMACAppendsWithoutAllocating(t *testing.T) {
	for _, tagSize := range []int{4, 8, 12, 16} {
		u := mustNew(t, tagSize)
		msg := make([]byte, 1500)
		want, _ := u.MAC(nil, []byte("12345678"), msg)
		// With exactly the tag's room, and with a whole block's.
		for _, room := range []int{tagSize, 16} {
			dst := make([]byte, 3, 3+room)
			copy(dst, "pre")
			got, _ := u.MAC(dst, []byte("12345678"), msg)
			if string(got[:3]) != "pre" || !bytes.Equal(got[3:], want) || &got[0] != &dst[0] {
				t.Fatalf("UMAC-%d, room %d: %x, want pre||%x in place", 8*tagSize, room, got, want)
			}
			allocs := testing.AllocsPerRun(100, func() { u.MAC(dst[:3], []byte("12345678"), msg) })
			if allocs != 0 {
				t.Errorf("UMAC-%d, room %d: %v allocations per MAC", 8*tagSize, room, allocs)
			}
		}
		if allocs := testing.AllocsPerRun(100, func() { u.Verify([]byte("12345678"), msg, want) }); allocs != 0 {
			t.Errorf("UMAC-%d: %v allocations per Verify", 8*tagSize, allocs)
		}
	}
}

// TestManyMessagesOneKeyConcurrently: per-message state must not live in
// the key object (the Linux vmac bug made only the first tag right), and
// MAC is safe from many goroutines.
func TestManyMessagesOneKeyConcurrently(t *testing.T) {
	// UMAC-32 and -64 share pad blocks between nonces, through the
	// lock-free cache when the AES is slow; UMAC-128 does not.
	for _, tagSize := range []int{4, 8, 16} {
		manyMessagesOneKeyConcurrently(t, tagSize)
	}
}

func manyMessagesOneKeyConcurrently(t *testing.T, tagSize int) {
	u := mustNew(t, tagSize)
	msgs := make([][]byte, 300)
	tags := make([][]byte, len(msgs))
	for i := range msgs {
		msgs[i] = bytes.Repeat([]byte{byte(i)}, i*7)
		nonce := CounterNonce(uint64(i))
		tags[i], _ = u.MAC(nil, nonce[:], msgs[i])
	}
	for i := 0; i < len(msgs); i += 37 {
		nonce := CounterNonce(uint64(i))
		if fresh, _ := mustNew(t, tagSize).MAC(nil, nonce[:], msgs[i]); !bytes.Equal(fresh, tags[i]) {
			t.Fatalf("UMAC-%d message %d: reused key %x, fresh key %x", 8*tagSize, i, tags[i], fresh)
		}
	}
	// Four goroutines, each on its own order of nonces, so that the pad
	// cache is read and rewritten from all of them at once.
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for round := 0; round < 3; round++ {
				for k := 0; k < len(msgs); k++ {
					i := (k*(2*g+1) + g) % len(msgs)
					nonce := CounterNonce(uint64(i))
					if got, _ := u.MAC(nil, nonce[:], msgs[i]); !bytes.Equal(got, tags[i]) {
						errs <- "concurrent MAC differs"
						return
					}
					if !u.Verify(nonce[:], msgs[i], tags[i]) {
						errs <- "concurrent Verify refused"
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatalf("UMAC-%d: %s", 8*tagSize, e)
	}
}

// TestPadCacheOverCounterAndOtherNonces: the pads MAC and a Stream take
// from their caches (runs of blocks for consecutive nonces) equal those a
// fresh key, with an empty cache, computes, for counter runs, repeats,
// jumps back, random nonces, a counter carrying across bytes, and nonces
// of every length from 1 to 16 bytes mixed, whose runs step in different
// bytes of the AES block.
func TestPadCacheOverCounterAndOtherNonces(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var nonces [][]byte
	counter := func(n uint64) []byte {
		nonce := CounterNonce(n)
		return nonce[:]
	}
	for i := uint64(0); i < 40; i++ {
		nonces = append(nonces, counter(i))
	}
	for _, n := range []uint64{7, 7, 3, 1<<40 - 3, 1<<40 - 2, 1<<40 - 1, 1 << 40, 1<<40 + 1, ^uint64(0) - 1, ^uint64(0), 0} {
		nonces = append(nonces, counter(n))
	}
	for i := 0; i < 40; i++ {
		nonces = append(nonces, counter(rng.Uint64()))
	}
	for round := 0; round < 6; round++ {
		for length := 1; length <= 16; length++ {
			nonce := make([]byte, length)
			nonce[length-1] = byte(round)
			nonces = append(nonces, nonce)
		}
	}
	for _, tagSize := range []int{4, 8, 12, 16} {
		u := mustNew(t, tagSize)
		s := u.NewStream()
		for i, nonce := range nonces {
			msg := bytes.Repeat([]byte{byte(i)}, i*13%2000)
			want, _ := mustNew(t, tagSize).MAC(nil, nonce, msg)
			if got, _ := u.MAC(nil, nonce, msg); !bytes.Equal(got, want) {
				t.Fatalf("UMAC-%d nonce %x: MAC %x, fresh key %x", 8*tagSize, nonce, got, want)
			}
			s.Write(msg)
			if got, _ := s.Sum(nil, nonce); !bytes.Equal(got, want) {
				t.Fatalf("UMAC-%d nonce %x: stream %x, fresh key %x", 8*tagSize, nonce, got, want)
			}
		}
	}
}

// TestCounterPadsMatchThePDF: the pad a counterPads (SSHHash's and
// Sequenced's cache) returns for counter n, and the index of its first
// word, equal the PDF's for the nonce CounterNonce(n), through runs,
// repeats, jumps back and forth, and the counter wrapping at 2^32 (SSH's
// packet numbers) and 2^64; SumPacket's tags across the 2^32 wrap equal
// MAC's.
func TestCounterPadsMatchThePDF(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var counters []uint64
	for n := uint64(0); n < 70; n++ {
		counters = append(counters, n)
	}
	for _, base := range []uint64{1<<32 - 20, ^uint64(0) - 20} {
		for n := base; n != base+40; n++ {
			counters = append(counters, n)
		}
	}
	counters = append(counters, 5, 5, 3, 2, 100, 99, 1<<40, 1<<40-1, ^uint64(0), 0)
	for i := 0; i < 40; i++ {
		counters = append(counters, rng.Uint64())
	}
	for _, tagSize := range []int{4, 8, 12, 16} {
		u := mustNew(t, tagSize)
		pads := newCounterPads(tagSize)
		for _, n := range counters {
			pad, word := pads.pad(&u.pdf, n), pads.word(n)
			in, wantWord, _ := counterInput(n, tagSize)
			if want := u.pdf.encrypt(in); pad != want || word != wantWord {
				t.Fatalf("UMAC-%d counter %d: pad %x word %d, want %x word %d", 8*tagSize, n, pad, word, want, wantWord)
			}
		}
		if tagSize != 8 && tagSize != 16 {
			continue
		}
		h, _ := NewSSH(testKey, tagSize)
		msg := []byte("across the wrap of SSH's packet numbers")
		for seq := uint32(1<<32 - 20); seq != 20; seq++ {
			nonce := CounterNonce(uint64(seq))
			want, _ := u.MAC(nil, nonce[:], msg)
			if got := h.SumPacket(nil, seq, msg[:5], msg[5:]); !bytes.Equal(got, want) {
				t.Fatalf("UMAC-%d packet %d: %x, want %x", 8*tagSize, seq, got, want)
			}
		}
	}
}

// TestSumPacketPastPOLY64: a packet past 16 MiB, where L2-HASH moves to
// POLY128 (RFC 4418 section 5.3), in SSH's three pieces: SumPacket's tag
// equals MAC's.
func TestSumPacketPastPOLY64(t *testing.T) {
	msg := make([]byte, poly64Words*chunkSize+100)
	for i := range msg {
		msg[i] = byte(i * 13)
	}
	pieces := headerBodyTrailer(5, 19)(msg)
	for _, tagSize := range []int{8, 16} {
		h, _ := NewSSH(testKey, tagSize)
		nonce := CounterNonce(3)
		want := mustMAC(t, mustNew(t, tagSize), nonce[:], msg)
		if got := h.SumPacket(nil, 3, pieces...); !bytes.Equal(got, want) {
			t.Fatalf("UMAC-%d of %d bytes in %d pieces: %x, want %x", 8*tagSize, len(msg), len(pieces), got, want)
		}
	}
}

func TestSequencedCountsAndRefusesAtItsLimit(t *testing.T) {
	for _, tagSize := range []int{4, 8, 12, 16} {
		u := mustNew(t, tagSize)
		s, err := NewSequencedFrom(testKey, tagSize, 5, 105)
		if err != nil {
			t.Fatal(err)
		}
		for i := uint64(5); i < 105; i++ {
			msg := bytes.Repeat([]byte{byte(i)}, int(i*37%2100))
			var n uint64
			var tag []byte
			if i%2 == 0 {
				n, tag, err = s.MAC(nil, msg)
			} else { // streamed
				s.Write(msg[:len(msg)/2])
				s.Write(msg[len(msg)/2:])
				n, tag, err = s.Sum(nil)
			}
			nonce := CounterNonce(i)
			if err != nil || n != i || !u.Verify(nonce[:], msg, tag) {
				t.Fatalf("UMAC-%d message %d: nonce %d, %v, tag not verified", 8*tagSize, i, n, err)
			}
		}
		if s.Remaining() != 0 || s.Next() != 105 {
			t.Fatalf("remaining %d next %d", s.Remaining(), s.Next())
		}
		for k := 0; k < 2; k++ {
			if _, out, err := s.MAC([]byte("x"), []byte("m")); err != ErrNonceExhausted || string(out) != "x" {
				t.Fatalf("at the limit: %q %v", out, err)
			}
		}
		// A streamed message is refused at the limit too.
		s.Write([]byte("kept"))
		if _, _, err := s.Sum(nil); err != ErrNonceExhausted {
			t.Fatalf("Sum at the limit: %v", err)
		}
		more, _ := NewSequencedFrom(testKey, tagSize, 104, 106)
		more.Write([]byte("kept"))
		n, tag, _ := more.Sum(nil)
		nonce := CounterNonce(n)
		if n != 104 || !u.Verify(nonce[:], []byte("kept"), tag) {
			t.Fatalf("UMAC-%d: streamed tag under nonce %d not verified", 8*tagSize, n)
		}
	}
	// The RFC 4418 "abc" vector through a counter starting at the nonce
	// "bcdefghi" read as a number.
	first := uint64(0x6263646566676869)
	s, _ := NewSequencedFrom(testKey, 8, first, ^uint64(0))
	if n, tag, _ := s.MAC(nil, []byte("abc")); n != first || string(tag) != "\xd4\xd7\xb9\xf6\xbd\x4f\xbf\xcf" {
		t.Fatalf("abc: nonce %x tag %x", n, tag)
	}
}

// TestSSHHashTakesTheSequenceNumberAsNonce drives the adapter as
// golang.org/x/crypto/ssh does: Reset, the 4-byte number, then the packet
// in pieces, Sum into a reused buffer.
func TestSSHHashTakesTheSequenceNumberAsNonce(t *testing.T) {
	for _, tagSize := range []int{8, 16} {
		u := mustNew(t, tagSize)
		h, err := NewSSH(testKey, tagSize)
		if err != nil {
			t.Fatal(err)
		}
		var _ hash.Hash = h
		if h.Size() != tagSize || h.BlockSize() != 32 {
			t.Fatalf("Size %d BlockSize %d", h.Size(), h.BlockSize())
		}
		out := make([]byte, 0, tagSize)
		for seq := uint32(0); seq < 300; seq++ {
			packet := bytes.Repeat([]byte{byte(seq)}, int(seq*29%3000))
			h.Reset()
			h.Write([]byte{byte(seq >> 24), byte(seq >> 16)})
			h.Write([]byte{byte(seq >> 8), byte(seq), 0}[:2])
			h.Write(packet[:len(packet)/2])
			h.Write(packet[len(packet)/2:])
			out = h.Sum(out[:0])
			nonce := CounterNonce(uint64(seq))
			want, _ := u.MAC(nil, nonce[:], packet)
			if !bytes.Equal(out, want) {
				t.Fatalf("UMAC-%d packet %d: %x, want %x", 8*tagSize, seq, out, want)
			}
			// Sum leaves the state alone.
			if again := h.Sum(nil); !bytes.Equal(again, want) {
				t.Fatalf("second Sum %x, want %x", again, want)
			}
		}
	}
	if _, err := NewSSH(testKey[:15], 8); err == nil {
		t.Fatal("NewSSH accepted a 15-byte key")
	}
}

// pieceSchedules are ways to cut a message into writes: one piece; the
// 5-byte header, the body and the 4 or 19 bytes of padding that
// golang.org/x/crypto/ssh writes; pieces of a fixed size around the NH
// block and the L1 chunk, bytes one at a time among them; and a repeating
// mix.
var pieceSchedules = []struct {
	name string
	cut  func(msg []byte) [][]byte
}{
	{"whole", func(msg []byte) [][]byte { return [][]byte{msg} }},
	{"header/body/4", headerBodyTrailer(5, 4)},
	{"each 1", cutEvery(1)},
	{"each 31", cutEvery(31)},
	{"header/body/19", headerBodyTrailer(5, 19)},
	{"each 32", cutEvery(32)},
	{"each 33", cutEvery(33)},
	{"each 1024", cutEvery(1024)},
	{"each 1025", cutEvery(1025)},
	{"3, 60, 7, ...", cutEvery(3, 60, 7)},
}

// cutEvery cuts pieces of the sizes given, in turn.
func cutEvery(sizes ...int) func(msg []byte) [][]byte {
	return func(msg []byte) [][]byte {
		var pieces [][]byte
		for i := 0; len(msg) > 0; i++ {
			n := min(sizes[i%len(sizes)], len(msg))
			pieces, msg = append(pieces, msg[:n]), msg[n:]
		}
		return pieces
	}
}

// headerBodyTrailer cuts the first header bytes, the last trailer bytes
// and the body between them (each as far as the message reaches).
func headerBodyTrailer(header, trailer int) func(msg []byte) [][]byte {
	return func(msg []byte) [][]byte {
		h := min(header, len(msg))
		t := min(trailer, len(msg)-h)
		return [][]byte{msg[:h], msg[h : len(msg)-t], msg[len(msg)-t:]}
	}
}

// streamingSplitsMatchMAC checks Stream, Sequenced and SSHHash, fed a
// message in pieces, and SSHHash.SumPacket given the pieces at once,
// against the one-call MAC of want (a function of the message and its
// nonce), at lengths around the block and chunk boundaries; SSHHash's Sum
// after every piece must tag the bytes so far and leave its state alone.
func streamingSplitsMatchMAC(t *testing.T, want func(u *UMAC, nonce, msg []byte) []byte) {
	var lengths []int
	for _, around := range []int{0, 1024, 2048, 3072} {
		for n := max(around-40, 0); n <= around+40; n++ {
			lengths = append(lengths, n)
		}
	}
	lengths = append(lengths, 16<<10+100)
	msg := make([]byte, 20<<10)
	for i := range msg {
		msg[i] = byte(i*7 + i>>8)
	}
	for _, tagSize := range []int{4, 8, 12, 16} {
		u := mustNew(t, tagSize)
		stream := u.NewStream()
		seqd, _ := NewSequencedFrom(testKey, tagSize, 1000, ^uint64(0))
		h, _ := NewSSH(testKey, tagSize)
		for k, n := range lengths {
			schedule := pieceSchedules[k%len(pieceSchedules)]
			pieces := schedule.cut(msg[:n])
			seq := uint32(1000 + k)
			nonce := CounterNonce(uint64(seq))
			expect := want(u, nonce[:], msg[:n])
			h.Reset()
			h.Write([]byte{byte(seq >> 24), byte(seq >> 16), byte(seq >> 8), byte(seq)})
			written := 0
			for _, piece := range pieces {
				stream.Write(piece)
				seqd.Write(piece)
				h.Write(piece)
				written += len(piece)
				if tagSize == 8 || tagSize == 16 {
					if got, so := h.Sum(nil), want(u, nonce[:], msg[:written]); !bytes.Equal(got, so) {
						t.Fatalf("UMAC-%d len %d schedule %s: SSHHash.Sum after %d bytes %x, want %x",
							8*tagSize, n, schedule.name, written, got, so)
					}
				}
			}
			if tagSize == 8 || tagSize == 16 {
				// SumPacket leaves h as after Reset: Sum then tags the
				// empty message.
				if got := h.SumPacket(nil, seq, pieces...); !bytes.Equal(got, expect) {
					t.Fatalf("UMAC-%d len %d schedule %s: SumPacket of %d parts %x, want %x",
						8*tagSize, n, schedule.name, len(pieces), got, expect)
				}
				h.Write([]byte{byte(seq >> 24), byte(seq >> 16), byte(seq >> 8), byte(seq)})
				if got, empty := h.Sum(nil), want(u, nonce[:], nil); !bytes.Equal(got, empty) {
					t.Fatalf("UMAC-%d: Sum after SumPacket %x, want the empty message's %x", 8*tagSize, got, empty)
				}
				for _, p := range pieces {
					h.Write(p)
				}
			}
			got, _ := stream.Sum(nil, nonce[:])
			seqN, sequenced, _ := seqd.Sum(nil)
			if !bytes.Equal(got, expect) || !bytes.Equal(sequenced, expect) || seqN != uint64(seq) {
				t.Fatalf("UMAC-%d len %d schedule %s: Stream %x, Sequenced %x (nonce %d), want %x",
					8*tagSize, n, schedule.name, got, sequenced, seqN, expect)
			}
			if tagSize == 8 || tagSize == 16 {
				if got := h.Sum(nil); !bytes.Equal(got, expect) {
					t.Fatalf("UMAC-%d len %d schedule %s: SSHHash %x, want %x", 8*tagSize, n, schedule.name, got, expect)
				}
			}
		}
	}
}

func TestStreamingSplitsMatchMAC(t *testing.T) {
	streamingSplitsMatchMAC(t, func(u *UMAC, nonce, msg []byte) []byte { return mustMAC(t, u, nonce, msg) })
}

// TestPDFInputMatchesTheRFCText: the AES input block, the pad's offset and
// the next nonce's block, computed with words and shifts, against RFC 4418
// section 3.3 followed literally on bytes, for every nonce length and tag
// size.
func TestPDFInputMatchesTheRFCText(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for length := 1; length <= 16; length++ {
		for _, tagSize := range []int{4, 8, 12, 16} {
			for trial := 0; trial < 50; trial++ {
				nonce := make([]byte, length)
				for i := range nonce {
					nonce[i] = byte(rng.Uint32())
				}
				if trial == 0 {
					for i := range nonce {
						nonce[i] = 0xff // the next block wraps
					}
				}
				// Nonce = N || zeros; for 4- and 8-byte tags Index = the
				// nonce's last byte mod 16/taglen, those bits cleared.
				var block [16]byte
				copy(block[:], nonce)
				index := 0
				if tagSize <= 8 {
					low := byte(16/tagSize - 1)
					index = int(block[length-1] & low)
					block[length-1] &^= low
				}
				in, word, step := pdfInput(nonce, tagSize)
				if in != load128(&block) || word != index*tagSize/4 {
					t.Fatalf("nonce %x UMAC-%d: block %x word %d, want %x word %d", nonce, 8*tagSize, in, word, block, index*tagSize/4)
				}
				// The next block: the nonce plus 16/taglen (or 1) in its
				// last byte's place, carrying into the bytes before it (a
				// carry out of the first is dropped: mod 2^128).
				perBlock := 1
				if tagSize <= 8 {
					perBlock = 16 / tagSize
				}
				carry := perBlock
				next := block
				for i := length - 1; i >= 0 && carry > 0; i-- {
					sum := int(next[i]) + carry
					next[i], carry = byte(sum), sum>>8
				}
				if got := add128(in, step); got != load128(&next) {
					t.Fatalf("nonce %x UMAC-%d: next block %x, want %x", nonce, 8*tagSize, got, next)
				}
			}
		}
	}
}
