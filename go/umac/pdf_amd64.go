//go:build amd64 && !purego

package umac

import (
	"crypto/aes"
	"crypto/cipher"

	"golang.org/x/sys/cpu"
)

// useAESNI selects the AES-NI PDF, once, from the CPU's features. Tests turn
// it off to compare it with crypto/aes.
var useAESNI = cpu.X86.HasAES

// pdfCipher is the AES-128 of the PDF (RFC 4418 section 3.3), called once
// per message or per run of counter nonces (padcache.go). With AES-NI it
// runs the rounds from its own key schedule, without the interface call
// and the argument checks of crypto/aes, and four blocks side by side;
// otherwise it is crypto/aes.
type pdfCipher struct {
	roundKeys [11][16]byte // the AES-128 key schedule, when useAESNI
	block     cipher.Block
}

// expandKeyAESNI writes the AES-128 key schedule of key (FIPS 197 section
// 5.2) to roundKeys. Implemented in pdf_amd64.s.
//
//go:noescape
func expandKeyAESNI(key *[16]byte, roundKeys *[11][16]byte)

// encryptAESNI returns the AES-128 encryption under roundKeys of the block
// hi || lo (big-endian halves), passed in registers: a block assembled in
// memory from smaller stores would stall the 16-byte load of the first
// round until they reach the cache. Implemented in pdf_amd64.s.
//
//go:noescape
func encryptAESNI(roundKeys *[11][16]byte, hi, lo uint64) (outHi, outLo uint64)

// encrypt4AESNI replaces the four blocks of run by their AES-128
// encryptions under roundKeys, side by side. Implemented in pdf_amd64.s.
//
//go:noescape
func encrypt4AESNI(roundKeys *[11][16]byte, run *padRunBlocks)

// encryptCountersAESNI writes to out the AES-128 encryptions under
// roundKeys of the counterRun blocks hi + j*step || 0, side by side.
// Implemented in pdf_amd64.s.
//
//go:noescape
func encryptCountersAESNI(roundKeys *[11][16]byte, hi, step uint64, out *counterRunBlocks)

// init keys c with key; both forms are kept so that tests can switch.
func (c *pdfCipher) init(key *[16]byte) error {
	if cpu.X86.HasAES {
		expandKeyAESNI(key, &c.roundKeys)
	}
	var err error
	c.block, err = aes.NewCipher(key[:])
	return err
}

// fast reports whether a block costs less than sharing it between
// goroutines through sharedPadCache.
func (c *pdfCipher) fast() bool { return useAESNI }

// runLength is how many blocks encryptRun computes on a cache miss.
func (c *pdfCipher) runLength() int {
	if useAESNI {
		return padRun
	}
	return 1
}

// encrypt returns AES(in).
func (c *pdfCipher) encrypt(in uint128) uint128 {
	if useAESNI {
		hi, lo := encryptAESNI(&c.roundKeys, in.hi, in.lo)
		return uint128{hi, lo}
	}
	return encryptThroughPool(c.block, in)
}

// encryptBlocks replaces the first n = c.runLength() blocks of run by
// their encryptions.
func (c *pdfCipher) encryptBlocks(run *padRunBlocks, n int) {
	if useAESNI {
		encrypt4AESNI(&c.roundKeys, run)
		return
	}
	for j := 0; j < n; j++ {
		run[j] = c.encrypt(run[j])
	}
}

// encryptCounters writes to out the encryptions of the blocks
// hi + j*step || 0 from j = 0 and returns how many it computed: a whole
// run with AES-NI, one block without.
func (c *pdfCipher) encryptCounters(hi, step uint64, out *counterRunBlocks) int {
	if useAESNI {
		encryptCountersAESNI(&c.roundKeys, hi, step, out)
		return counterRun
	}
	out[0] = c.encrypt(uint128{hi, 0})
	return 1
}
