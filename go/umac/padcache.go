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
// moves to the next block after that. On a miss the cache of a Stream, a
// Sequenced or an SSHHash computes a run of up to padRun consecutive
// blocks at once, which AES-NI encrypts side by side at little more than
// the latency of one, so a counter pays that latency once per padRun
// blocks. The run's blocks are first + j*step for j < n, with the step
// that was current when the run was made (a later nonce of another length
// only misses). Nonces are public: lookups may branch on them.

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

// padCache is the pad cache of one Stream, Sequenced or SSHHash: a run.
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

// pad writes AES(in) over in, from the cache when in repeats the last
// block.
func (c *sharedPadCache) pad(pdf *pdfCipher, in *[16]byte) {
	x := load128(in)
	if c.lookup(x, in) {
		return
	}
	pdf.encrypt(in)
	c.store(x, load128(in))
}

// lookup writes the cached AES(x) to out and reports whether it had it.
func (c *sharedPadCache) lookup(x uint128, out *[16]byte) bool {
	v := c.version.Load()
	if v == 0 || v&1 == 1 {
		return false
	}
	in := uint128{c.in[0].Load(), c.in[1].Load()}
	pad := uint128{c.out[0].Load(), c.out[1].Load()}
	if c.version.Load() != v || in != x {
		return false
	}
	store128(out, pad)
	return true
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
