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
// moves to the next block after that. On a miss a cache computes a run of
// up to padRun consecutive blocks at once, which AES-NI encrypts side by
// side in about the time of one, so a counter pays the AES latency once
// per padRun blocks. The run's blocks are first + j*step for j < n, with
// the step that was current when the run was made (a later nonce of
// another length only misses). Nonces are public: lookups may branch on
// them.

// padRun is the longest run of AES blocks computed on a miss.
const padRun = 4

// padRunBlocks holds a run's blocks: AES inputs, then their outputs.
type padRunBlocks [padRun][16]byte

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

// runIndex reports which block of the run first, first+step, ... (n
// blocks) equals in, mod 2^128 like the run itself.
func runIndex(first, step uint128, n int, in uint128) (int, bool) {
	for j := 0; j < n; j++ {
		if first == in {
			return j, true
		}
		first = add128(first, step)
	}
	return 0, false
}

// encryptRun fills run with the AES outputs of in, in+step, ... and
// returns how many blocks it computed (1 without AES-NI, where blocks cost
// one AES call each and random nonces would pay for the rest in vain).
func (c *pdfCipher) encryptRun(in uint128, step uint128, run *padRunBlocks) int {
	n := c.runLength()
	for j := 0; j < n; j++ {
		store128(&run[j], in)
		in = add128(in, step)
	}
	c.encryptBlocks(run, n)
	return n
}

// encryptThroughPool replaces b by its encryption through block, in a
// pooled buffer: a call through the cipher.Block interface makes its
// arguments escape to the heap, and b lives on the caller's stack.
func encryptThroughPool(block cipher.Block, b *[16]byte) {
	buf := scratchPool.Get().(*[16]byte)
	*buf = *b
	block.Encrypt(buf[:], buf[:])
	*b = *buf
	clear(buf[:])
	scratchPool.Put(buf)
}

var scratchPool = sync.Pool{New: func() any { return new([16]byte) }}

// padCache is the pad cache of one Stream, Sequenced or SSHHash.
type padCache struct {
	n           int // blocks held: 0 when empty
	first, step uint128
	out         padRunBlocks
}

// pad returns AES(in) for the input block in, whose next nonce's block is
// step further.
func (c *padCache) pad(pdf *pdfCipher, in *[16]byte, step uint128) *[16]byte {
	x := load128(in)
	j, ok := runIndex(c.first, c.step, c.n, x)
	if !ok {
		c.first, c.step, j = x, step, 0
		c.n = pdf.encryptRun(x, step, &c.out)
	}
	return &c.out[j]
}

// sharedPadCache is a padCache that MAC calls on one *UMAC share from any
// goroutine, without a lock or an allocation: a sequence lock over one
// run. A reader takes a block only if the version was even (no write in
// progress) and unchanged around its loads; a writer that finds another
// writer in progress simply does not cache.
type sharedPadCache struct {
	version     atomic.Uint64 // 0: empty; odd: a write in progress
	n           atomic.Uint64
	first, step [2]atomic.Uint64 // hi, lo
	out         [padRun][2]atomic.Uint64
}

// pad writes AES(in) over in, from the cache or from a new run (see
// padCache.pad).
func (c *sharedPadCache) pad(pdf *pdfCipher, in *[16]byte, step uint128) {
	x := load128(in)
	if c.lookup(x, in) {
		return
	}
	var run padRunBlocks
	n := pdf.encryptRun(x, step, &run)
	*in = run[0]
	c.store(x, step, n, &run)
}

// lookup writes the cached AES(x) to out and reports whether it had it.
func (c *sharedPadCache) lookup(x uint128, out *[16]byte) bool {
	v := c.version.Load()
	if v == 0 || v&1 == 1 {
		return false
	}
	first := uint128{c.first[0].Load(), c.first[1].Load()}
	step := uint128{c.step[0].Load(), c.step[1].Load()}
	j, ok := runIndex(first, step, int(min(c.n.Load(), padRun)), x)
	if !ok {
		return false
	}
	hi, lo := c.out[j][0].Load(), c.out[j][1].Load()
	if c.version.Load() != v {
		return false
	}
	store128(out, uint128{hi, lo})
	return true
}

// store caches the run of n blocks from first, unless another goroutine
// is storing.
func (c *sharedPadCache) store(first, step uint128, n int, run *padRunBlocks) {
	v := c.version.Load()
	if v&1 == 1 || !c.version.CompareAndSwap(v, v+1) {
		return
	}
	c.first[0].Store(first.hi)
	c.first[1].Store(first.lo)
	c.step[0].Store(step.hi)
	c.step[1].Store(step.lo)
	c.n.Store(uint64(n))
	for j := 0; j < n; j++ {
		out := load128(&run[j])
		c.out[j][0].Store(out.hi)
		c.out[j][1].Store(out.lo)
	}
	c.version.Store(v + 2)
}
