package umac

import (
	"crypto/cipher"
	"encoding/binary"
	"sync/atomic"
)

// kdf fills out with KDF(K, index, len(out)) (RFC 4418 section 3.2): AES
// of uint2str(index, 8) || uint2str(i, 8) for i = 1, 2, ..., truncated. So
// a shorter output is a prefix of a longer one.
func kdf(block cipher.Block, index uint64, out []byte) {
	var in, enc [16]byte
	binary.BigEndian.PutUint64(in[:8], index)
	for i := uint64(1); len(out) > 0; i++ {
		binary.BigEndian.PutUint64(in[8:], i)
		block.Encrypt(enc[:], in[:])
		out = out[copy(out, enc[:]):]
	}
	clear(enc[:])
}

// pdfInput turns a nonce (already checked: 1 to 16 bytes) into the AES
// input block of the PDF and the offset of the tag's pad within the AES
// output (RFC 4418 section 3.3): for 4- and 8-byte tags, index = nonce mod
// (16 / taglen), those low bits of the nonce are cleared, and the pad is
// bytes index*taglen of the output; longer tags use the output's first
// taglen bytes.
func pdfInput(nonce []byte, tagSize int, in *[16]byte) (offset int) {
	*in = [16]byte{}
	copy(in[:], nonce)
	if tagSize <= 8 {
		low := byte(16/tagSize - 1)
		last := len(nonce) - 1
		index := int(in[last] & low)
		in[last] &^= low
		return index * tagSize
	}
	return 0
}

// padCache keeps the last AES block of the PDF. Consecutive counter nonces
// share a block for 4- and 8-byte tags (four and two nonces per block), so a
// counter pays one AES call per 4 or 2 messages. Nonces are public: the
// comparison may take variable time.
type padCache struct {
	valid bool
	in    [16]byte
	out   [16]byte
}

// pad returns AES(in), from the cache when in repeats the last input.
func (c *padCache) pad(block cipher.Block, in *[16]byte) *[16]byte {
	if !c.valid || *in != c.in {
		c.in = *in
		block.Encrypt(c.out[:], c.in[:])
		c.valid = true
	}
	return &c.out
}

// sharedPadCache is a padCache that MAC calls on one *UMAC share from any
// goroutine, without a lock or an allocation: a sequence lock over one
// entry. A reader takes the entry only if the version was even (no write in
// progress) and unchanged around its loads; a writer that finds another
// writer in progress simply does not cache. Only 4- and 8-byte tags use it:
// other tag sizes never share a block between nonces.
type sharedPadCache struct {
	version atomic.Uint64 // 0: empty; odd: a write in progress
	in, out [2]atomic.Uint64
}

// lookup writes the cached AES(in) to out and reports whether it had it.
func (c *sharedPadCache) lookup(in, out *[16]byte) bool {
	v := c.version.Load()
	if v == 0 || v&1 == 1 {
		return false
	}
	i0, i1 := c.in[0].Load(), c.in[1].Load()
	o0, o1 := c.out[0].Load(), c.out[1].Load()
	if c.version.Load() != v || i0 != binary.LittleEndian.Uint64(in[:8]) || i1 != binary.LittleEndian.Uint64(in[8:]) {
		return false
	}
	binary.LittleEndian.PutUint64(out[:8], o0)
	binary.LittleEndian.PutUint64(out[8:], o1)
	return true
}

// store caches out = AES(in), unless another goroutine is storing.
func (c *sharedPadCache) store(in, out *[16]byte) {
	v := c.version.Load()
	if v&1 == 1 || !c.version.CompareAndSwap(v, v+1) {
		return
	}
	c.in[0].Store(binary.LittleEndian.Uint64(in[:8]))
	c.in[1].Store(binary.LittleEndian.Uint64(in[8:]))
	c.out[0].Store(binary.LittleEndian.Uint64(out[:8]))
	c.out[1].Store(binary.LittleEndian.Uint64(out[8:]))
	c.version.Store(v + 2)
}
