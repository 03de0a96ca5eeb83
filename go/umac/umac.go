package umac

import (
	"crypto/aes"
	"crypto/subtle"
)

const (
	// KeySize is the length of a UMAC key in bytes (AES-128).
	KeySize = 16
	// MinNonceSize and MaxNonceSize bound the nonce length in bytes.
	MinNonceSize = 1
	MaxNonceSize = 16
)

// UMAC is a keyed UMAC with one tag size. It holds key material and a
// lock-free pad cache (used where AES is slow), so MAC, Verify and
// NewStream may be called from many goroutines at once.
type UMAC struct {
	tagSize int
	iters   int // UHASH iterations: one per 4 bytes of tag
	pdf     pdfCipher
	pads    sharedPadCache // for 4- and 8-byte tags, without a fast AES
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
	err = u.pdf.init(&pdfKey)
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
	// UHASH first, then the pad: nothing but the tag waits for the AES,
	// whose chain the processor runs beside the end of UHASH (the other
	// order measured slower; docs/performance.md, "The Go package"). Only UMAC-32
	// and -64 share a block between nonces, and only a slow AES is worth
	// publishing it to other goroutines (atomic stores cost more than an
	// AES-NI block).
	var hash [maxIters]uint32
	u.key.uhash(u.iters, msg, &hash)
	in, word, _ := pdfInput(nonce, u.tagSize)
	var pad uint128
	if u.tagSize <= 8 && !u.pdf.fast() {
		pad = u.pads.pad(&u.pdf, in)
	} else {
		pad = u.pdf.encrypt(in)
	}
	return u.appendTag(dst, &hash, pad, word), nil
}

// Verify reports whether tag is the tag of msg under nonce, comparing in
// constant time. A nonce or tag of the wrong length is never valid.
func (u *UMAC) Verify(nonce, msg, tag []byte) bool {
	if len(tag) != u.tagSize {
		return false
	}
	var buf [aes.BlockSize]byte
	want, err := u.MAC(buf[:0], nonce, msg)
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
