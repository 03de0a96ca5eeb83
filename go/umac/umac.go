package umac

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"sync"
)

const (
	// KeySize is the length of a UMAC key in bytes (AES-128).
	KeySize = 16
	// MinNonceSize and MaxNonceSize bound the nonce length in bytes.
	MinNonceSize = 1
	MaxNonceSize = 16
)

// UMAC is a keyed UMAC with one tag size. It holds key material and a
// lock-free pad cache, so MAC, Verify and NewStream may be called from many
// goroutines at once.
type UMAC struct {
	tagSize int
	iters   int // UHASH iterations: one per 4 bytes of tag
	pdf     cipher.Block
	pads    sharedPadCache // for 4- and 8-byte tags
	key     uhashKey
}

// New returns UMAC keyed with key (16 bytes) producing tagSize-byte tags:
// 4, 8, 12 or 16 (UMAC-32, -64, -96, -128).
func New(key []byte, tagSize int) (*UMAC, error) {
	if len(key) != KeySize {
		return nil, KeySizeError(len(key))
	}
	if tagSize != 4 && tagSize != 8 && tagSize != 12 && tagSize != 16 {
		return nil, TagSizeError(tagSize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	u := &UMAC{tagSize: tagSize, iters: tagSize / 4}
	deriveUhashKey(block, &u.key)
	// The PDF's key is K' = KDF(K, 0, 16) (RFC 4418 section 3.3).
	var pdfKey [KeySize]byte
	kdf(block, 0, pdfKey[:])
	u.pdf, err = aes.NewCipher(pdfKey[:])
	clear(pdfKey[:])
	if err != nil {
		return nil, err
	}
	return u, nil
}

// Size returns the tag size in bytes.
func (u *UMAC) Size() int { return u.tagSize }

// MAC appends the tag of msg under nonce (1 to 16 bytes, never repeated
// under this key) to dst and returns the result. It does not allocate when
// dst has room for the tag. A bad nonce length returns dst unchanged and a
// [NonceSizeError].
func (u *UMAC) MAC(dst, nonce, msg []byte) ([]byte, error) {
	if err := checkNonce(nonce); err != nil {
		return dst, err
	}
	var hash [maxIters]uint32
	u.key.uhash(u.iters, msg, &hash)
	if cap(dst)-len(dst) >= aes.BlockSize {
		// The AES block is computed in dst's spare room, then overwritten
		// by the tag.
		ret, block := sliceForAppend(dst, aes.BlockSize)
		u.xorPad(nonce, &hash, (*[aes.BlockSize]byte)(block))
		return ret[:len(dst)+u.tagSize], nil
	}
	// No room for a whole block: a pooled one (an AES call through the
	// cipher.Block interface makes any local buffer escape to the heap).
	block := scratchPool.Get().(*[aes.BlockSize]byte)
	u.xorPad(nonce, &hash, block)
	ret := append(dst, block[:u.tagSize]...)
	scratchPool.Put(block)
	return ret, nil
}

var scratchPool = sync.Pool{New: func() any { return new([aes.BlockSize]byte) }}

// xorPad writes the tag, UHASH XOR pad (RFC 4418 section 4), to the first
// tagSize bytes of block, using block for the AES call of the PDF.
func (u *UMAC) xorPad(nonce []byte, hash *[maxIters]uint32, block *[aes.BlockSize]byte) {
	offset := pdfInput(nonce, u.tagSize, block)
	if u.tagSize > 8 {
		u.pdf.Encrypt(block[:], block[:])
	} else if in := *block; !u.pads.lookup(&in, block) {
		u.pdf.Encrypt(block[:], block[:])
		u.pads.store(&in, block)
	}
	// Reading at offset + 4i >= 4i before writing at 4i: the pad is never
	// overwritten before it is read.
	for i := 0; i < u.iters; i++ {
		binary.BigEndian.PutUint32(block[4*i:], hash[i]^binary.BigEndian.Uint32(block[offset+4*i:]))
	}
}

// appendTag appends UHASH XOR pad (RFC 4418 section 4) to dst.
func (u *UMAC) appendTag(dst []byte, hash *[maxIters]uint32, pad []byte) []byte {
	ret, tag := sliceForAppend(dst, u.tagSize)
	for i := 0; i < u.iters; i++ {
		binary.BigEndian.PutUint32(tag[4*i:], hash[i]^binary.BigEndian.Uint32(pad[4*i:]))
	}
	return ret
}

// Verify reports whether tag is the tag of msg under nonce, comparing in
// constant time. A nonce or tag of the wrong length is never valid.
func (u *UMAC) Verify(nonce, msg, tag []byte) bool {
	if len(tag) != u.tagSize {
		return false
	}
	block := scratchPool.Get().(*[aes.BlockSize]byte)
	defer scratchPool.Put(block)
	want, err := u.MAC(block[:0], nonce, msg)
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare(want, tag) == 1
}

// sliceForAppend extends in by n bytes, reusing its capacity when it can,
// and returns the whole slice and the new tail.
func sliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	return head, head[len(in):]
}
