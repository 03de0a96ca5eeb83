package umac

import (
	"crypto/cipher"
	"encoding/binary"
)

// UHASH (RFC 4418 section 5): key material (5.1), L1-HASH over 1024-byte
// chunks (5.2, with NH in nh.go), L2-HASH (5.3) and L3-HASH (5.4).

const (
	maxIters   = 4    // UMAC-128: one iteration per 32 bits of tag
	chunkSize  = 1024 // L1-HASH chunk
	blockSize  = 32   // NH block: eight 32-bit words
	chunkBlock = chunkSize / blockSize
	// L1Key: 1024 bytes plus 16 more per extra iteration (the Toeplitz shift).
	l1KeyWords = (chunkSize + 16*(maxIters-1)) / 4
	// tableQuads is the length of the even and odd key-quad tables, so that
	// the AVX2 loads at the last block pair plus the largest shift stay inside.
	tableQuads = chunkBlock + 4
	// poly64Words is how many L1 outputs POLY64 takes before L2-HASH moves
	// to POLY128: 2^17 bytes of L1 output (section 5.3.1), i.e. 16 MiB.
	poly64Words = 1 << 14
)

// uhashKey holds all keys of UHASH for four iterations; a shorter tag uses
// the first ones, which the KDF's prefix property makes equal to the keys
// it would derive itself.
type uhashKey struct {
	// words is L1Key as big-endian 32-bit words (section 5.2.2), padded
	// with zeros.
	words [l1KeyWords + 4]uint32
	// even[i] and odd[i] are key quads 2i and 2i+1 (words 8i..8i+3 and
	// 8i+4..8i+7): the layout the AVX2 NH loads two blocks' keys from.
	even, odd [tableQuads][4]uint32
	l2k64     [maxIters]uint64  // masked with 0x01ffffff01ffffff
	l2k64sq   [maxIters]uint64  // l2k64^2 mod p64, for poly64Step
	l2k128    [maxIters]uint128 // masked likewise
	l3k1      [maxIters][8]uint64
	// l3k1Words[j][t] is l3k1[t][4+j]: the layout of the vector L3 of a
	// one-block message, whose L3 input has its first four words zero.
	l3k1Words [4][maxIters]uint64
	l3k2      [maxIters]uint32
}

// deriveUhashKey fills k from the AES key K (section 5.1, step 1).
func deriveUhashKey(block cipher.Block, k *uhashKey) {
	var buf [chunkSize + 16*(maxIters-1)]byte
	kdf(block, 1, buf[:])
	for i := 0; i < l1KeyWords; i++ {
		k.words[i] = binary.BigEndian.Uint32(buf[4*i:])
	}
	for q := 0; q < l1KeyWords/4; q++ {
		table := &k.even
		if q%2 == 1 {
			table = &k.odd
		}
		copy(table[q/2][:], k.words[4*q:4*q+4])
	}
	const m64 = 0x01ffffff01ffffff
	kdf(block, 2, buf[:24*maxIters])
	for i := 0; i < maxIters; i++ {
		b := buf[24*i:]
		k.l2k64[i] = binary.BigEndian.Uint64(b) & m64
		k.l2k64sq[i] = mulAddModP64(k.l2k64[i], k.l2k64[i], 0)
		k.l2k128[i] = uint128{binary.BigEndian.Uint64(b[8:]) & m64, binary.BigEndian.Uint64(b[16:]) & m64}
	}
	kdf(block, 3, buf[:64*maxIters])
	for i := 0; i < maxIters; i++ {
		for j := 0; j < 8; j++ {
			k.l3k1[i][j] = reduceP36(binary.BigEndian.Uint64(buf[64*i+8*j:]))
		}
		for j := 0; j < 4; j++ {
			k.l3k1Words[j][i] = k.l3k1[i][4+j]
		}
	}
	kdf(block, 4, buf[:4*maxIters])
	for i := 0; i < maxIters; i++ {
		k.l3k2[i] = binary.BigEndian.Uint32(buf[4*i:])
	}
	clear(buf[:])
}

// zeroBlock is the empty message's NH input: "zeropad to a positive
// multiple of 32" (section 5.2.1).
var zeroBlock [blockSize]byte

// uhash writes the first iters words of UHASH(msg) to out: the one-call
// path, hashing every chunk straight from msg with no buffer.
func (k *uhashKey) uhash(iters int, msg []byte, out *[maxIters]uint32) {
	if len(msg) > chunkSize {
		k.uhashLong(iters, msg, out)
		return
	}
	if !k.uhashInOneCall(iters, msg, nil, len(msg), out) {
		k.uhashOne(iters, msg, out)
	}
}

// uhashOne is UHASH of msg (at most one chunk) without the one-call
// assembly: NH of the blocks before the last, then the last one with L3,
// read where it is when it is whole, else from a zero-padded copy. One
// chunk skips L2: B = zeroes(8) || A (section 5.3.1).
func (k *uhashKey) uhashOne(iters int, msg []byte, out *[maxIters]uint32) {
	var acc [maxIters]uint64
	last := max(len(msg)-1, 0) / blockSize
	nhHash(k, 0, msg[:blockSize*last], &acc, iters)
	bitLen := 8 * uint64(len(msg))
	if block := msg[blockSize*last:]; len(block) == blockSize {
		k.uhashLastPadded(iters, last, (*[blockSize]byte)(block), &acc, bitLen, out)
		return
	}
	var padded [blockSize]byte
	copy(padded[:], msg[blockSize*last:])
	k.uhashLastPadded(iters, last, &padded, &acc, bitLen, out)
}

// uhashLastEach is uhashLastPadded one iteration at a time, without
// vector L3.
func (k *uhashKey) uhashLastEach(iters, last int, block *[blockSize]byte, acc *[maxIters]uint64, bitLen uint64, out *[maxIters]uint32) {
	a := *acc
	nhHash(k, last, block[:], &a, iters)
	for i := 0; i < iters; i++ {
		a[i] += bitLen
	}
	k.l3ShortEach(&a, iters, out)
}

// l3ShortEach is l3Short, one iteration at a time.
func (k *uhashKey) l3ShortEach(a *[maxIters]uint64, iters int, out *[maxIters]uint32) {
	for i := 0; i < iters; i++ {
		out[i] = l3HashShort(&k.l3k1[i], k.l3k2[i], a[i])
	}
}

// uhashLong is UHASH of a message longer than one chunk. Up to 2^14
// chunks (16 MiB) L2-HASH is POLY64 alone and its output is
// zeroes(8) || y (section 5.3.1), so each chunk costs one POLY64 step per
// iteration and L3 has four terms; beyond, uhashHuge adds POLY128.
func (k *uhashKey) uhashLong(iters int, msg []byte, out *[maxIters]uint32) {
	if len(msg) > poly64Words*chunkSize {
		k.uhashHuge(iters, &partsCursor{cur: msg}, len(msg), out)
		return
	}
	y := [maxIters]uint64{1, 1, 1, 1}
	// Every chunk but the last is full and carries the bit length 8192.
	for ; len(msg) > chunkSize; msg = msg[chunkSize:] {
		var nh [maxIters]uint64
		nhHash(k, 0, msg[:chunkSize], &nh, iters)
		for i := 0; i < iters; i++ {
			y[i] = poly64Step(k.l2k64[i], k.l2k64sq[i], y[i], nh[i]+8*chunkSize)
		}
	}
	var nh [maxIters]uint64
	nhHash(k, 0, msg, &nh, iters)
	bitLen := 8 * uint64(len(msg))
	for i := 0; i < iters; i++ {
		y[i] = poly64Step(k.l2k64[i], k.l2k64sq[i], y[i], nh[i]+bitLen)
	}
	k.l3Short(&y, iters, out)
}

// uhashChunks is uhashLong of the n bytes at c, whose chunks may lie
// across parts.
func (k *uhashKey) uhashChunks(iters int, c *partsCursor, n int, out *[maxIters]uint32) {
	if n > poly64Words*chunkSize {
		k.uhashHuge(iters, c, n, out)
		return
	}
	y := [maxIters]uint64{1, 1, 1, 1}
	for ; n > 0; n -= chunkSize {
		var nh [maxIters]uint64
		size := min(n, chunkSize)
		if len(c.cur) >= size {
			// A chunk within one part, as in uhashLong.
			nhHash(k, 0, c.cur[:size], &nh, iters)
			c.cur = c.cur[size:]
		} else {
			nhParts(k, 0, c, size, &nh, iters)
		}
		for i := 0; i < iters; i++ {
			y[i] = poly64Step(k.l2k64[i], k.l2k64sq[i], y[i], nh[i]+8*uint64(size))
		}
	}
	k.l3Short(&y, iters, out)
}

// uhashHuge is UHASH of the n bytes at c, above 16 MiB, through the
// general L2.
func (k *uhashKey) uhashHuge(iters int, c *partsCursor, n int, out *[maxIters]uint32) {
	var l2 [maxIters]l2Hash
	for i := range l2 {
		l2[i] = newL2Hash()
	}
	var chunks uint64
	for ; n > 0; n -= chunkSize {
		var nh [maxIters]uint64
		size := min(n, chunkSize)
		nhParts(k, 0, c, size, &nh, iters)
		for i := 0; i < iters; i++ {
			l2[i].absorb(k, i, chunks, nh[i]+8*uint64(size))
		}
		chunks++
	}
	for i := 0; i < iters; i++ {
		out[i] = l3Hash(&k.l3k1[i], k.l3k2[i], l2[i].finish(k, i, chunks))
	}
}

// l2Hash is L2-HASH of one iteration (section 5.3), fed one L1 output at a
// time: POLY64 over the first 2^14 outputs, then POLY128 over
// uint2str(y, 16) || the rest || 0x80 || zeros.
type l2Hash struct {
	y64      uint64
	y128     uint128
	highHalf uint64 // the first half of a POLY128 word still waiting
}

func newL2Hash() l2Hash { return l2Hash{y64: 1, y128: uint128{0, 1}} }

// absorb takes L1 output number index (from 0) of iteration i.
func (h *l2Hash) absorb(k *uhashKey, i int, index, word uint64) {
	if index < poly64Words {
		h.y64 = poly64Step(k.l2k64[i], k.l2k64sq[i], h.y64, word)
		return
	}
	offset := index - poly64Words
	if offset == 0 {
		// POLY128's first word is uint2str(y64, 16): below 2^64, never
		// in the marker range.
		h.y128 = mulAddModP128(k.l2k128[i], h.y128, uint128{0, h.y64})
	}
	if offset%2 == 0 {
		h.highHalf = word
	} else {
		h.y128 = poly128Step(k.l2k128[i], h.y128, uint128{h.highHalf, word})
	}
}

// finish returns the L2 output once count L1 outputs were absorbed.
func (h *l2Hash) finish(k *uhashKey, i int, count uint64) uint128 {
	if count <= poly64Words {
		return uint128{0, h.y64}
	}
	// Append the byte 0x80 and zeros to a whole 16-byte word.
	m := uint128{1 << 63, 0}
	if (count-poly64Words)%2 == 1 {
		m = uint128{h.highHalf, 1 << 63}
	}
	return poly128Step(k.l2k128[i], h.y128, m)
}

// uhashState is UHASH of a message arriving in pieces. It holds no key, so
// one key serves many states. Whole blocks are hashed as they arrive, but
// the message's last 1 to 32 bytes wait in buf until more input comes:
// at Sum they are the last block, which finishes with L3 in one step as
// in the one-call path.
type uhashState struct {
	nh       [maxIters]uint64 // NH sums of the current chunk's blocks hashed (from iters on: unused)
	chunkLen int              // bytes of the current chunk hashed: a multiple of 32, below 1024
	chunks   uint64           // chunks before the current one, all in l2
	bufLen   int              // bytes waiting in buf: 0 only before the first
	buf      [blockSize]byte  // zero past bufLen, once written
	l2       [maxIters]l2Hash // set up when the first chunk closes
}

// reset forgets the message: a handful of stores (buf is written whole
// by the first write, and l2 set up when a chunk closes).
func (s *uhashState) reset() {
	s.nh = [maxIters]uint64{}
	s.chunkLen, s.chunks, s.bufLen = 0, 0, 0
}

// write is L1-HASH, incrementally.
func (s *uhashState) write(k *uhashKey, iters int, data []byte) {
	if len(data) == 0 {
		return
	}
	if s.bufLen > 0 {
		n := min(blockSize-s.bufLen, len(data))
		appendBlock(&s.buf, s.bufLen, data[:n])
		s.bufLen += n
		data = data[n:]
		if len(data) == 0 {
			return
		}
		// The waiting block is whole and more follows.
		s.hashBuffered(k, iters)
	}
	tail := (len(data)-1)%blockSize + 1
	s.hashWhole(k, iters, data[:len(data)-tail])
	storeBlock(&s.buf, data[len(data)-tail:])
	s.bufLen = tail
}

// hashWhole hashes whole blocks in place, chunk by chunk. More input
// always follows them (the message's last bytes wait in buf), so a chunk
// they complete goes to L2 at once, and whole chunks go through NH and
// POLY64 in one loop, as in the one-call path.
func (s *uhashState) hashWhole(k *uhashKey, iters int, whole []byte) {
	if s.chunkLen > 0 {
		n := min(chunkSize-s.chunkLen, len(whole))
		nhHash(k, s.chunkLen/blockSize, whole[:n], &s.nh, iters)
		s.chunkLen += n
		whole = whole[n:]
		if s.chunkLen < chunkSize {
			return
		}
		s.closeChunk(k, iters)
	}
	for ; len(whole) >= chunkSize; whole = whole[chunkSize:] {
		var nh [maxIters]uint64
		nhHash(k, 0, whole[:chunkSize], &nh, iters)
		absorbChunk(k, iters, &s.l2, s.chunks, &nh)
		s.chunks++
	}
	nhHash(k, 0, whole, &s.nh, iters)
	s.chunkLen = len(whole)
}

// hashBuffered hashes the whole block waiting in buf, which more input
// follows.
func (s *uhashState) hashBuffered(k *uhashKey, iters int) {
	nhBlockPadded(k, s.chunkLen/blockSize, &s.buf, &s.nh, iters)
	s.chunkLen += blockSize
	if s.chunkLen == chunkSize {
		s.closeChunk(k, iters)
	}
}

// totalLen is the length of the concatenation of parts.
func totalLen(parts [][]byte) int {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	return n
}

// partsCursor is a position in the concatenation of parts: the bytes
// left in the current part, and the parts after it.
type partsCursor struct {
	cur  []byte
	rest [][]byte
}

// skipEmpty moves past a used-up current part, and empty ones after it.
func (c *partsCursor) skipEmpty() {
	for len(c.cur) == 0 && len(c.rest) > 0 {
		c.cur, c.rest = c.rest[0], c.rest[1:]
	}
}

// nhPartsEach adds NH of the next n bytes at c (all there) to acc and
// moves c past them: whole blocks hashed where they are, a block across
// parts gathered.
func nhPartsEach(k *uhashKey, first int, c *partsCursor, n int, acc *[maxIters]uint64, iters int) {
	for n > 0 {
		c.skipEmpty()
		if m := min(len(c.cur), n); m == n || m >= blockSize {
			if m < n {
				m = m / blockSize * blockSize
			}
			nhHash(k, first, c.cur[:m], acc, iters)
			c.cur = c.cur[m:]
			first += m / blockSize
			n -= m
			continue
		}
		var block [blockSize]byte
		c.gather(&block, min(n, blockSize))
		nhBlockPadded(k, first, &block, acc, iters)
		first++
		n -= min(n, blockSize)
	}
}

// gather writes the next n bytes (at most 32, all there), zero-padded, to
// dst and moves past them.
func (c *partsCursor) gather(dst *[blockSize]byte, n int) {
	*dst = [blockSize]byte{}
	for filled := 0; filled < n; {
		c.skipEmpty()
		take := copy(dst[filled:n], c.cur)
		c.cur = c.cur[take:]
		filled += take
	}
}

// closeChunk hands the full current chunk to L2.
func (s *uhashState) closeChunk(k *uhashKey, iters int) {
	absorbChunk(k, iters, &s.l2, s.chunks, &s.nh)
	s.nh, s.chunks, s.chunkLen = [maxIters]uint64{}, s.chunks+1, 0
}

// absorbChunk hands the L1 output of full chunk number index, nh + 8192,
// to L2, set up at the first chunk.
func absorbChunk(k *uhashKey, iters int, l2 *[maxIters]l2Hash, index uint64, nh *[maxIters]uint64) {
	if index == 0 {
		for i := range l2 {
			l2[i] = newL2Hash()
		}
	}
	if index >= poly64Words {
		for i := 0; i < iters; i++ {
			l2[i].absorb(k, i, index, nh[i]+8*chunkSize)
		}
		return
	}
	for i := 0; i < iters; i++ {
		l2[i].y64 = poly64Step(k.l2k64[i], k.l2k64sq[i], l2[i].y64, nh[i]+8*chunkSize)
	}
}

// sum writes UHASH of everything written to out. It leaves s unchanged.
func (s *uhashState) sum(k *uhashKey, iters int, out *[maxIters]uint32) {
	switch {
	case s.bufLen == 0:
		// The empty message: one block of zeros.
		k.uhashLastPadded(iters, 0, &zeroBlock, &s.nh, 0, out)
	case s.chunks == 0:
		// One chunk: the waiting bytes, zero-padded in buf, are its last
		// block, hashed with L3 in one step.
		k.uhashLastPadded(iters, s.chunkLen/blockSize, &s.buf, &s.nh, 8*uint64(s.chunkLen+s.bufLen), out)
	default:
		s.sumLong(k, iters, out)
	}
}

// sumLong is sum of a message of more than one chunk.
func (s *uhashState) sumLong(k *uhashKey, iters int, out *[maxIters]uint32) {
	if s.chunks >= poly64Words {
		s.sumAcrossChunk(k, iters, out)
		return
	}
	// The last block ends the current chunk, whose L1 output is the last
	// word of POLY64: L2's output is zeroes(8) || y (section 5.3.1).
	nh := s.nh
	nhBlockPadded(k, s.chunkLen/blockSize, &s.buf, &nh, iters)
	bitLen := 8 * uint64(s.chunkLen+s.bufLen)
	var y [maxIters]uint64
	for i := 0; i < iters; i++ {
		y[i] = poly64Step(k.l2k64[i], k.l2k64sq[i], s.l2[i].y64, nh[i]+bitLen)
	}
	k.l3Short(&y, iters, out)
}

// sumAcrossChunk is sumLong once L2 has reached POLY128: on a copy of
// L2's state.
func (s *uhashState) sumAcrossChunk(k *uhashKey, iters int, out *[maxIters]uint32) {
	l2, nh := s.l2, s.nh
	nhBlockPadded(k, s.chunkLen/blockSize, &s.buf, &nh, iters)
	bitLen := 8 * uint64(s.chunkLen+s.bufLen)
	for i := 0; i < iters; i++ {
		l2[i].absorb(k, i, s.chunks, nh[i]+bitLen)
		out[i] = l3Hash(&k.l3k1[i], k.l3k2[i], l2[i].finish(k, i, s.chunks+1))
	}
}
