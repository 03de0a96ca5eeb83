//go:build amd64 && !purego

package umac

import (
	"bytes"
	"crypto/aes"
	"math/rand/v2"
	"testing"
)

func requireAESNI(t *testing.T) {
	t.Helper()
	if !useAESNI {
		// Without AES-NI there is no assembly path to compare; this must not
		// pass silently where the assembly is expected to run.
		t.Fatal("this CPU lacks AES-NI: the assembly PDF is not tested here (use -tags purego)")
	}
}

// TestAESNIMatchesCryptoAES: the key schedule, the one- and four-block
// encryptions and a run of counter blocks against crypto/aes, on random
// keys and blocks.
func TestAESNIMatchesCryptoAES(t *testing.T) {
	requireAESNI(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		var key [16]byte
		var run padRunBlocks
		for j := range key {
			key[j] = byte(rng.Uint32())
		}
		for j := range run {
			run[j] = uint128{rng.Uint64(), rng.Uint64()}
		}
		ref, err := aes.NewCipher(key[:])
		if err != nil {
			t.Fatal(err)
		}
		var want padRunBlocks
		for j := range run {
			var block [16]byte
			store128(&block, run[j])
			ref.Encrypt(block[:], block[:])
			want[j] = load128(&block)
		}
		var c pdfCipher
		if err := c.init(&key); err != nil {
			t.Fatal(err)
		}
		one := c.encrypt(run[0])
		c.encryptBlocks(&run, c.runLength())
		if one != want[0] || run != want || c.runLength() != padRun {
			t.Fatalf("key %x: AES-NI %x / %x (run of %d), crypto/aes %x", key, one, run, c.runLength(), want)
		}
		// A run of counters, hi + j*step || 0, its counter wrapping at
		// 2^64 now and then.
		hi, step := rng.Uint64(), uint64(1)<<rng.IntN(3)
		if i%4 == 0 {
			hi = -step * uint64(rng.IntN(counterRun))
		}
		var counters counterRunBlocks
		if n := c.encryptCounters(hi, step, &counters); n != counterRun {
			t.Fatalf("a run of %d counters, want %d", n, counterRun)
		}
		for j, got := range counters {
			var block [16]byte
			store128(&block, uint128{hi + uint64(j)*step, 0})
			ref.Encrypt(block[:], block[:])
			if want := load128(&block); got != want {
				t.Fatalf("key %x: counter %x + %d*%d: AES-NI %x, crypto/aes %x", key, hi, j, step, got, want)
			}
		}
	}
}

// TestTagsWithAndWithoutAESNI: the tags, through MAC and through the pad
// runs of a Stream, a Sequenced and an SSHHash, are the same with the PDF
// in crypto/aes.
func TestTagsWithAndWithoutAESNI(t *testing.T) {
	requireAESNI(t)
	msg := []byte("the PDF in two implementations")
	saved := useAESNI
	defer func() { useAESNI = saved }()
	for _, tagSize := range []int{4, 8, 12, 16} {
		var tags [2][]byte
		for pass, aesni := range []bool{true, false} {
			useAESNI = aesni
			u := mustNew(t, tagSize)
			s := u.NewStream()
			seqd, _ := NewSequenced(testKey, tagSize)
			h, _ := NewSSH(testKey, tagSize)
			for n := uint64(0); n < 40; n++ {
				nonce := CounterNonce(n * 3 / 2)
				tags[pass], _ = u.MAC(tags[pass], nonce[:], msg)
				s.Write(msg)
				tags[pass], _ = s.Sum(tags[pass], nonce[:])
				_, tags[pass], _ = seqd.MAC(tags[pass], msg)
				if tagSize == 8 || tagSize == 16 {
					tags[pass] = h.SumPacket(tags[pass], uint32(n*3/2), msg)
				}
			}
		}
		if !bytes.Equal(tags[0], tags[1]) {
			t.Fatalf("UMAC-%d: AES-NI and crypto/aes tags differ", 8*tagSize)
		}
	}
}

// TestManyMessagesConcurrentlyWithCryptoAES: without AES-NI, MAC calls for
// UMAC-32 and -64 share pads through sharedPadCache; the same test as
// TestManyMessagesOneKeyConcurrently on that path (and under -race).
func TestManyMessagesConcurrentlyWithCryptoAES(t *testing.T) {
	saved := useAESNI
	useAESNI = false
	defer func() { useAESNI = saved }()
	for _, tagSize := range []int{4, 8, 16} {
		manyMessagesOneKeyConcurrently(t, tagSize)
	}
}
