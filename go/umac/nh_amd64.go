//go:build amd64 && !purego

package umac

import "golang.org/x/sys/cpu"

// useAVX2 and useAVX512 select the NH, once, from the CPU's features:
// AVX-512 where the CPU runs 512-bit operations at full width, else AVX2,
// else the portable code; with AVX2 the last block and L3 of every
// iteration also go in one vector step. Tests switch them to compare each
// with the portable code.
var (
	useAVX2   = cpu.X86.HasAVX2
	useAVX512 = hasAVX512 && !splits512BitOps()
)

// hasAVX512 reports the instructions the AVX-512 NH uses (AVX-512 F, BW
// and VL, and BMI2's BZHI for its byte masks), with the OS saving the
// 512-bit registers.
var hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasBMI2

// splits512BitOps reports whether the CPU executes a 512-bit vector
// operation as two 256-bit halves, as AMD's Zen 4 (family 19h) does, the
// only x86-64 cores with AVX-512 but 256-bit datapaths: there a 512-bit
// operation does the work of two 256-bit ones, and the AVX2 NH stays
// (crates/fastmac/src/umac/nh/avx512.rs decides the same way, where its
// AVX2 layout measured faster). Zen 5 and Intel's cores run them at full
// width.
func splits512BitOps() bool {
	_, b, c, d := cpuid(0)
	if b != 0x68747541 || d != 0x69746e65 || c != 0x444d4163 { // "AuthenticAMD"
		return false
	}
	signature, _, _, _ := cpuid(1)
	// The base family field (bits 8-11) plus the extended one (bits 20-27).
	family := signature>>8&0xf + signature>>20&0xff
	return family == 0x19
}

// cpuid returns the registers CPUID writes for leaf (subleaf 0).
// Implemented in cpu_amd64.s.
func cpuid(leaf uint32) (eax, ebx, ecx, edx uint32)

// nhAVX2 adds NH of 2*pairs blocks at msg, then of restBlocks (0, 1 or 2)
// blocks at rest, to acc[0..iters). even and odd point at the key-quad
// tables and words at the key words, all at the first block's entry (see
// uhashKey). Implemented in nh_amd64.s.
//
//go:noescape
func nhAVX2(even, odd *[4]uint32, words *uint32, msg *byte, pairs int, rest *byte, restBlocks int, acc *[maxIters]uint64, iters int)

// nhXYAVX512 adds NH of the first n bytes of the message made of cur
// and then the parts of rest (the last block zero-padded) to
// acc[0..iters), for iters 1 to 3, in the X/Y layout; even and odd point
// at the key-quad tables at the first block's entry. Blocks are read where
// they are, a block across parts gathered with masked loads. It returns
// where the n bytes end: the parts of rest it moved into, and the bytes
// left in the part it is in. Implemented in nh_avx512_amd64.s.
//
//go:noescape
func nhXYAVX512(even, odd *[4]uint32, cur []byte, rest [][]byte, n int, acc *[maxIters]uint64, iters int) (moved, left int)

// nhZ4AVX512 is nhXYAVX512 for the four iterations side by side; words
// points at the first block's key words. Implemented in
// nh_avx512_amd64.s.
//
//go:noescape
func nhZ4AVX512(words *uint32, cur []byte, rest [][]byte, n int, acc *[maxIters]uint64) (moved, left int)

// nhHash is NH: through AVX-512 or AVX2 when selected, else through the
// portable code.
func nhHash(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	switch {
	case len(data) == 0:
	case useAVX512 && iters == maxIters:
		nhZ4AVX512(&k.words[8*first], data, nil, len(data), acc)
	case useAVX512:
		nhXYAVX512(&k.even[first], &k.odd[first], data, nil, len(data), acc, iters)
	case useAVX2:
		nhHashAVX2(k, first, data, acc, iters)
	default:
		nhGeneric(k, first, data, acc, iters)
	}
}

// nhParts adds NH of the next n bytes at c (1 to 32*(chunkBlock-first),
// all there) to acc, as nhHash of them would, and moves c past them: with
// AVX-512 in one call, in place but for blocks across parts.
func nhParts(k *uhashKey, first int, c *partsCursor, n int, acc *[maxIters]uint64, iters int) {
	switch {
	case len(c.cur) >= n:
		nhHash(k, first, c.cur[:n], acc, iters)
		c.cur = c.cur[n:]
		return
	case !useAVX512:
		nhPartsEach(k, first, c, n, acc, iters)
		return
	}
	var moved, left int
	if iters == maxIters {
		moved, left = nhZ4AVX512(&k.words[8*first], c.cur, c.rest, n, acc)
	} else {
		moved, left = nhXYAVX512(&k.even[first], &k.odd[first], c.cur, c.rest, n, acc, iters)
	}
	c.moveTo(moved, left)
}

// moveTo moves c to left bytes before the end of the part moved parts on
// (0: the current one), where the AVX-512 NH stopped.
func (c *partsCursor) moveTo(moved, left int) {
	if moved > 0 {
		c.cur, c.rest = c.rest[moved-1], c.rest[moved:]
	}
	c.cur = c.cur[len(c.cur)-left:]
}

// nhHashAVX2 is NH through AVX2. The blocks after the last whole pair are
// read in place when they are whole, else from a zero-padded copy, in the
// same call.
func nhHashAVX2(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	pairs := len(data) / (2 * blockSize)
	restStart := 2 * blockSize * pairs
	var msg, rest *byte
	if pairs > 0 {
		msg = &data[0]
	}
	restBlocks := 0
	var padded [2 * blockSize]byte
	switch restLen := len(data) - restStart; {
	case restLen == blockSize:
		rest, restBlocks = &data[restStart], 1
	case restLen > 0:
		copy(padded[:], data[restStart:])
		rest, restBlocks = &padded[0], (restLen+blockSize-1)/blockSize
	case pairs == 0:
		return
	}
	nhAVX2(&k.even[first], &k.odd[first], &k.words[8*first], msg, pairs, rest, restBlocks, acc, iters)
}

// uhashLastAVX2 writes UHASH of a message of at most one chunk to out, for
// all four iterations: acc holds the NH sums of its blocks before the
// last, the last block (zero-padded) is the 32 bytes at block, words
// points at that block's key words, l3 is the key's l3k1Words. NH of the
// block, the bit length and L3 in one call. Implemented in nh_amd64.s.
//
//go:noescape
func uhashLastAVX2(words *uint32, l3 *[4][maxIters]uint64, l3k2 *[maxIters]uint32, block *byte, acc *[maxIters]uint64, bitLen uint64, out *[maxIters]uint32)

// uhashChunkAVX512 writes UHASH of a message of at most one chunk, the
// n bytes of cur and then of the parts of rest, to out, for all
// four iterations (out and the key have room for those a shorter tag does
// not use): the blocks are read where they are, a block across parts
// gathered with masked loads. Implemented in nh_avx512_amd64.s.
//
//go:noescape
func uhashChunkAVX512(k *uhashKey, iters int, cur []byte, rest [][]byte, n int, out *[maxIters]uint32)

// storeBlockAVX512 writes the n bytes (0 to 32) at src, zero-padded, to
// dst, read with a masked load, stored as two halves (see
// uhashLastPadded). Implemented in nh_amd64.s.
//
//go:noescape
func storeBlockAVX512(dst *[blockSize]byte, src *byte, n int)

// appendBlockAVX512 writes the n bytes at src into dst from byte at (at
// + n <= 32), read with a masked load, dst loaded and stored as two halves
// (see uhashLastPadded). Implemented in nh_amd64.s.
//
//go:noescape
func appendBlockAVX512(dst *[blockSize]byte, at int, src *byte, n int)

// l3ShortAVX2 writes L3-HASH of zeroes(8) || a[t] to out[t] for all four
// iterations t. Implemented in nh_amd64.s.
//
//go:noescape
func l3ShortAVX2(a *[maxIters]uint64, l3 *[4][maxIters]uint64, l3k2 *[maxIters]uint32, out *[maxIters]uint32)

// l3Short writes L3-HASH of zeroes(8) || a[t] to out[t] for the first
// iters iterations: through AVX2, all four at once, when the CPU has it.
func (k *uhashKey) l3Short(a *[maxIters]uint64, iters int, out *[maxIters]uint32) {
	if !useAVX2 {
		k.l3ShortEach(a, iters, out)
		return
	}
	l3ShortAVX2(a, &k.l3k1Words, &k.l3k2, out)
}

// partsInPlace reports whether SumPacket hashes a packet in parts where
// the parts are, with AVX-512, whose masked loads gather a block across
// parts in a register, rather than copy a short one into one piece.
func partsInPlace() bool { return useAVX512 }

// uhashInOneCall writes UHASH of a message of at most one chunk, the n
// bytes of cur and then of rest, to out in one assembly call and reports
// true, with AVX-512; else it reports false.
func (k *uhashKey) uhashInOneCall(iters int, cur []byte, rest [][]byte, n int, out *[maxIters]uint32) bool {
	if !useAVX512 {
		return false
	}
	uhashChunkAVX512(k, iters, cur, rest, n, out)
	return true
}

// uhashLastPadded writes UHASH of a message of at most one chunk to out:
// acc holds the NH sums of its blocks before block last, block is that
// last block zero-padded, a buffer written shortly before, and bitLen is
// the message's length in bits. A block buffer is always written as two
// 16-byte halves (a Go copy of [32]byte, and the AVX-512 stores of
// storeBlock and appendBlock) and read as such (the
// VBROADCASTI128 loads of uhashLastAVX2 and nhAVX2), so that each load
// takes its half from the store buffer: a masked load, or one spanning
// two stores, waits for them to reach the cache.
func (k *uhashKey) uhashLastPadded(iters, last int, block *[blockSize]byte, acc *[maxIters]uint64, bitLen uint64, out *[maxIters]uint32) {
	if !useAVX2 {
		k.uhashLastEach(iters, last, block, acc, bitLen, out)
		return
	}
	uhashLastAVX2(&k.words[8*last], &k.l3k1Words, &k.l3k2, &block[0], acc, bitLen, out)
}

// nhBlockAVX2 adds NH of the 32-byte block at block, words pointing at
// its key words, to acc for all four iterations (acc has room for those a
// shorter tag does not use). Implemented in nh_amd64.s.
//
//go:noescape
func nhBlockAVX2(words *uint32, block *byte, acc *[maxIters]uint64)

// nhBlockPadded is nhHash of the zero-padded block in block (see
// uhashLastPadded); acc's words from iters on may change.
func nhBlockPadded(k *uhashKey, first int, block *[blockSize]byte, acc *[maxIters]uint64, iters int) {
	if !useAVX2 {
		nhGeneric(k, first, block[:], acc, iters)
		return
	}
	nhBlockAVX2(&k.words[8*first], &block[0], acc)
}

// storeBlock sets dst to block (1 to 32 bytes), zero-padded: with AVX-512
// without a byte copy (see uhashLastPadded).
func storeBlock(dst *[blockSize]byte, block []byte) {
	if len(block) == blockSize {
		*dst = [blockSize]byte(block)
		return
	}
	storePartialBlock(dst, block)
}

func storePartialBlock(dst *[blockSize]byte, block []byte) {
	if useAVX512 {
		storeBlockAVX512(dst, &block[0], len(block))
		return
	}
	*dst = [blockSize]byte{}
	copy(dst[:], block)
}

// appendBlock writes block into dst from byte at (at + len(block) <= 32):
// with AVX-512 without a byte copy (see uhashLastPadded).
func appendBlock(dst *[blockSize]byte, at int, block []byte) {
	if useAVX512 && len(block) > 0 {
		appendBlockAVX512(dst, at, &block[0], len(block))
		return
	}
	copy(dst[at:], block)
}
