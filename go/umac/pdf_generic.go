//go:build !amd64 || purego

package umac

import (
	"crypto/aes"
	"crypto/cipher"
)

// pdfCipher is the AES-128 of the PDF (RFC 4418 section 3.3): crypto/aes,
// without assembly for this target (or with the purego tag).
type pdfCipher struct {
	block cipher.Block
}

// init keys c with key.
func (c *pdfCipher) init(key *[16]byte) (err error) {
	c.block, err = aes.NewCipher(key[:])
	return err
}

// fast reports whether a block costs less than sharing it between
// goroutines through sharedPadCache.
func (c *pdfCipher) fast() bool { return false }

// runLength is how many blocks encryptRun computes on a cache miss.
func (c *pdfCipher) runLength() int { return 1 }

// encrypt returns AES(in).
func (c *pdfCipher) encrypt(in uint128) uint128 { return encryptThroughPool(c.block, in) }

// encryptBlocks replaces the first n blocks of run by their encryptions.
func (c *pdfCipher) encryptBlocks(run *padRunBlocks, n int) {
	for j := 0; j < n; j++ {
		run[j] = c.encrypt(run[j])
	}
}

// encryptCounters writes to out the encryption of the block hi || 0 and
// returns 1: one block per call, as random nonces would pay for the rest
// in vain.
func (c *pdfCipher) encryptCounters(hi, step uint64, out *counterRunBlocks) int {
	out[0] = c.encrypt(uint128{hi, 0})
	return 1
}
