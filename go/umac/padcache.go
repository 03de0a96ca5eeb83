package umac

import (
	"crypto/cipher"
	"encoding/binary"
	"math/bits"
	"sync"
	"sync/atomic"
)

// The PDF's pad caches. Counter nonces (CounterNonce, SSH's packet
// numbers) walk through consecutive AES inputs: UMAC-32 and -64 share one
// block between 4 or 2 nonces (RFC 4418 section 3.3), and every tag size
// moves to the next block after that. On a miss the cache of a Stream
// (padCache) or of a Sequenced or an SSHHash (counterPads) computes a run
// of consecutive blocks at once (padRun or counterRun of them), which
// AES-NI encrypts side by side at little more than the latency of one, so
// a counter pays that latency once per run. A padCache run's blocks are
// first + j*step for j < n, with the step that was current when the run
// was made (a later nonce of another length only misses). Nonces are
// public: lookups may branch on them.

// padRun is the longest run of AES blocks a padCache computes on a miss.
const padRun = 4

// padRunBlocks holds a run's blocks: AES inputs, then their outputs.
type padRunBlocks [padRun]uint128

func load128(b *[16]byte) uint128 {
	return uint128{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}
}

func store128(b *[16]byte, x uint128) {
	binary.BigEndian.PutUint64(b[:8], x.hi)
	binary.BigEndian.PutUint64(b[8:], x.lo)
}

func add128(x, y uint128) uint128 {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	return uint128{x.hi + y.hi + c, lo}
}

// encryptRun fills run with the AES outputs of in, in+step, ... and
// returns how many blocks it computed (1 without AES-NI, where blocks cost
// one AES call each and random nonces would pay for the rest in vain).
func (c *pdfCipher) encryptRun(in uint128, step uint128, run *padRunBlocks) int {
	n := c.runLength()
	for j := 0; j < n; j++ {
		run[j] = in
		in = add128(in, step)
	}
	c.encryptBlocks(run, n)
	return n
}

// encryptThroughPool returns the encryption of in through block, in a
// pooled buffer: a call through the cipher.Block interface makes its
// arguments escape to the heap.
func encryptThroughPool(block cipher.Block, in uint128) uint128 {
	buf := scratchPool.Get().(*[16]byte)
	store128(buf, in)
	block.Encrypt(buf[:], buf[:])
	out := load128(buf)
	clear(buf[:])
	scratchPool.Put(buf)
	return out
}

var scratchPool = sync.Pool{New: func() any { return new([16]byte) }}

// padCache is the pad cache of one Stream, Sequenced or SSHHash: a run of
// n blocks first + j*step, step = 2^shift (blocksPerPad is a power of
// two, and so is the place value of a nonce byte).
type padCache struct {
	n     int // blocks held: 0 when empty
	first uint128
	shift uint
	out   padRunBlocks
}

// pad returns AES(in) for the input block in, whose next nonce's block is
// step further.
func (c *padCache) pad(pdf *pdfCipher, in, step uint128) uint128 {
	j, ok := c.index(in)
	if !ok {
		j = c.refill(pdf, in, step)
	}
	return c.out[j&(padRun-1)]
}

// index reports which block of the run equals in: in - first must be
// j * 2^shift with j < n, mod 2^128 like the run itself. A block whose
// nonce has another length differs from the run's below the shift.
func (c *padCache) index(in uint128) (uint64, bool) {
	lo, borrow := bits.Sub64(in.lo, c.first.lo, 0)
	hi := in.hi - c.first.hi - borrow
	// A run spans less than 2^64 (four steps below 2^59) unless the step
	// is in the high half.
	word, shift := lo, c.shift
	if shift >= 64 {
		word, shift, hi = hi, shift-64, lo
	}
	j := word >> shift
	return j, hi == 0 && j<<shift == word && j < uint64(c.n)
}

// refill computes the run from in and returns the index of in in it: 0.
func (c *padCache) refill(pdf *pdfCipher, in, step uint128) uint64 {
	c.first, c.shift = in, uint(bits.TrailingZeros64(step.lo))
	if step.lo == 0 {
		c.shift = 64 + uint(bits.TrailingZeros64(step.hi))
	}
	c.n = pdf.encryptRun(in, step, &c.out)
	return 0
}

// counterRun is the longest run of AES blocks a counterPads computes on a
// miss: counters are consecutive, so none is wasted.
const counterRun = 8

// counterRunBlocks holds a counterPads run's AES outputs.
type counterRunBlocks [counterRun]uint128

// counterPads is the pad cache of counter nonces, CounterNonce(n): SSH's
// packet numbers and a Sequenced's counter. It holds the pads of count
// consecutive nonces from first on, a run of blocks computed on a miss,
// so that a lookup is a subtraction and a comparison of the counter.
type counterPads struct {
	first, count uint64
	shift        uint   // log2 of the nonces that share an AES block
	shared       uint64 // 2^shift - 1: the counter's bits within a block
	tagWords     int    // 32-bit words of a tag
	out          counterRunBlocks
}

// newCounterPads returns an empty cache for tagSize-byte tags.
func newCounterPads(tagSize int) counterPads {
	perBlock := blocksPerPad(tagSize)
	return counterPads{shift: uint(bits.TrailingZeros64(perBlock)), shared: perBlock - 1, tagWords: tagSize / 4}
}

// pad returns the AES output holding the pad of nonce CounterNonce(n), as
// pdfInput and the PDF would (RFC 4418 section 3.3).
func (c *counterPads) pad(pdf *pdfCipher, n uint64) uint128 {
	if n-c.first >= c.count {
		c.refill(pdf, n)
	}
	return c.out[(n-c.first)>>c.shift]
}

// word returns the index of the first 32-bit word of n's pad in its AES
// output.
func (c *counterPads) word(n uint64) int { return int(n&c.shared) * c.tagWords }

// refill computes the run from n's block on: the nonce with its low bits
// cleared, in the block's first 64 bits (see counterInput).
func (c *counterPads) refill(pdf *pdfCipher, n uint64) {
	c.first = n &^ c.shared
	c.count = uint64(pdf.encryptCounters(c.first, c.shared+1, &c.out)) << c.shift
}

// sharedPadCache is the pad cache that MAC calls on one *UMAC share from
// any goroutine, used only where AES is slow (without AES-NI, where a run
// is one block): the last block, without a lock or an allocation, under a
// sequence lock. A reader takes the block only if the version was even (no
// write in progress) and unchanged around its loads; a writer that finds
// another writer in progress simply does not cache.
type sharedPadCache struct {
	version atomic.Uint64    // 0: empty; odd: a write in progress
	in, out [2]atomic.Uint64 // hi, lo
}

// pad returns AES(in), from the cache when in repeats the last block.
func (c *sharedPadCache) pad(pdf *pdfCipher, in uint128) uint128 {
	if pad, ok := c.lookup(in); ok {
		return pad
	}
	pad := pdf.encrypt(in)
	c.store(in, pad)
	return pad
}

// lookup returns the cached AES(x) and whether it had it.
func (c *sharedPadCache) lookup(x uint128) (uint128, bool) {
	v := c.version.Load()
	if v == 0 || v&1 == 1 {
		return uint128{}, false
	}
	in := uint128{c.in[0].Load(), c.in[1].Load()}
	pad := uint128{c.out[0].Load(), c.out[1].Load()}
	if c.version.Load() != v || in != x {
		return uint128{}, false
	}
	return pad, true
}

// store caches pad = AES(x), unless another goroutine is storing.
func (c *sharedPadCache) store(x, pad uint128) {
	v := c.version.Load()
	if v&1 == 1 || !c.version.CompareAndSwap(v, v+1) {
		return
	}
	c.in[0].Store(x.hi)
	c.in[1].Store(x.lo)
	c.out[0].Store(pad.hi)
	c.out[1].Store(pad.lo)
	c.version.Store(v + 2)
}
