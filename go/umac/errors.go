package umac

import (
	"errors"
	"strconv"
)

// KeySizeError is returned for a key that is not 16 bytes long.
type KeySizeError int

func (e KeySizeError) Error() string {
	return "umac: wrong key length: expected 16 bytes, got " + strconv.Itoa(int(e))
}

// TagSizeError is returned for a tag size other than 4, 8, 12 or 16 bytes.
type TagSizeError int

func (e TagSizeError) Error() string {
	return "umac: wrong tag size: expected 4, 8, 12 or 16 bytes, got " + strconv.Itoa(int(e))
}

// NonceSizeError is returned for a nonce outside 1 to 16 bytes.
type NonceSizeError int

func (e NonceSizeError) Error() string {
	return "umac: wrong nonce length: expected 1 to 16 bytes, got " + strconv.Itoa(int(e))
}

// ErrNonceExhausted is returned by a [Sequenced] whose counter reached its
// limit: a new key is needed, since a repeated nonce would leak.
var ErrNonceExhausted = errors.New("umac: nonce counter exhausted: rekey")

func checkNonce(nonce []byte) error {
	if len(nonce) < MinNonceSize || len(nonce) > MaxNonceSize {
		return NonceSizeError(len(nonce))
	}
	return nil
}
