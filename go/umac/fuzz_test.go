package umac

import (
	"bytes"
	"testing"
)

// FuzzStreamingSplits: any split of a message into three writes, any tag
// size and nonce gives the one-call tag, through a Stream and the SSH
// adapter; a flipped tag bit is refused. `go test` replays testdata/fuzz.
func FuzzStreamingSplits(f *testing.F) {
	f.Add([]byte("abc"), uint16(1), uint16(2), uint8(1), []byte("bcdefghi"))
	f.Add(bytes.Repeat([]byte("a"), 1024), uint16(0), uint16(1024), uint8(3), []byte{7})
	f.Add(bytes.Repeat([]byte{0xff}, 2100), uint16(31), uint16(1057), uint8(2), bytes.Repeat([]byte{9}, 16))
	f.Add([]byte{}, uint16(0), uint16(0), uint8(0), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, msg []byte, cut1, cut2 uint16, tagSel uint8, nonce []byte) {
		tagSize := 4 * (int(tagSel%4) + 1)
		u, err := New(testKey, tagSize)
		if err != nil {
			t.Fatal(err)
		}
		want, err := u.MAC(nil, nonce, msg)
		if checkNonce(nonce) != nil {
			if err == nil {
				t.Fatalf("nonce of %d bytes accepted", len(nonce))
			}
			return
		}
		a := min(int(cut1), len(msg))
		b := min(max(int(cut2), a), len(msg))
		s := u.NewStream()
		s.Write(msg[:a])
		s.Write(msg[a:b])
		s.Write(msg[b:])
		if got, _ := s.Sum(nil, nonce); !bytes.Equal(got, want) {
			t.Fatalf("UMAC-%d len %d split %d/%d: stream %x, one call %x", 8*tagSize, len(msg), a, b, got, want)
		}
		bad := bytes.Clone(want)
		bit := int(cut1) % (8 * tagSize)
		bad[bit/8] ^= 1 << (bit % 8)
		if u.Verify(nonce, msg, bad) || !u.Verify(nonce, msg, want) {
			t.Fatalf("UMAC-%d len %d: Verify wrong about a flipped bit %d", 8*tagSize, len(msg), bit)
		}
		if tagSize == 8 || tagSize == 16 {
			h, _ := NewSSH(testKey, tagSize)
			seq := uint32(cut2)<<16 | uint32(cut1)
			h.Write([]byte{byte(seq >> 24), byte(seq >> 16), byte(seq >> 8), byte(seq)})
			h.Write(msg[:a])
			h.Write(msg[a:])
			n := CounterNonce(uint64(seq))
			if got, want := h.Sum(nil), mustMAC(t, u, n[:], msg); !bytes.Equal(got, want) {
				t.Fatalf("SSH adapter seq %d: %x, want %x", seq, got, want)
			}
		}
	})
}

func mustMAC(t *testing.T, u *UMAC, nonce, msg []byte) []byte {
	tag, err := u.MAC(nil, nonce, msg)
	if err != nil {
		t.Fatal(err)
	}
	return tag
}
