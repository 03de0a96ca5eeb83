package umac

import "encoding/binary"

// SSHHash is UMAC in the hash.Hash shape that golang.org/x/crypto/ssh
// drives for umac-64@openssh.com, umac-128@openssh.com and their -etm
// forms: after Reset, the first 4 bytes written are the packet sequence
// number, which is the nonce (as 8 big-endian bytes) and is not hashed; the
// rest is the message. Sum appends the tag and leaves the state unchanged,
// as hash.Hash requires. A message of at most one chunk (1024 bytes)
// finishes in one step, as in [UMAC.MAC], and consecutive packet numbers
// take their pads from a run of AES blocks computed together. An SSHHash
// belongs to one goroutine at a time.
type SSHHash struct {
	u      *UMAC
	seq    uint32 // the sequence number's bytes written so far
	seqLen int
	state  uhashState
	pads   padCache
	packet []byte // SumPacket's copy of a packet in parts, made at first use
}

// packetCopyLimit is the longest packet in parts that SumPacket copies
// into one piece for the one-call path: up to a few KiB the copy costs
// less than the gathered blocks and the extra calls of hashing the parts
// where they are.
const packetCopyLimit = 4 << 10

// NewSSH returns an SSHHash keyed with key (16 bytes) for tagSize-byte
// tags (8 for umac-64@openssh.com, 16 for umac-128@openssh.com).
func NewSSH(key []byte, tagSize int) (*SSHHash, error) {
	u, err := New(key, tagSize)
	if err != nil {
		return nil, err
	}
	return &SSHHash{u: u}, nil
}

// Write takes the 4-byte sequence number first, then message bytes.
func (h *SSHHash) Write(p []byte) (int, error) {
	n := len(p)
	if h.seqLen == 0 && len(p) >= 4 {
		h.seq, h.seqLen = binary.BigEndian.Uint32(p), 4
		p = p[4:]
	}
	for h.seqLen < 4 && len(p) > 0 {
		h.seq = h.seq<<8 | uint32(p[0])
		h.seqLen++
		p = p[1:]
	}
	switch s := &h.state; {
	case len(p) == 0:
	case s.bufLen == 0 && len(p) <= blockSize:
		// A packet's first bytes, all waiting (uhashState.write in short).
		storeBlock(&s.buf, p)
		s.bufLen = len(p)
	default:
		s.write(&h.u.key, h.u.iters, p)
	}
	return n, nil
}

// Sum appends the tag of the message written since Reset to b, under the
// nonce formed from the sequence number (missing bytes of it count as zero).
func (h *SSHHash) Sum(b []byte) []byte {
	// The pad comes first, so that a miss's AES overlaps UHASH.
	seq := uint64(h.seq) << (8 * (4 - h.seqLen))
	in, word, step := counterInput(seq, h.u.tagSize)
	j, ok := h.pads.index(in)
	if !ok {
		j = h.pads.refill(&h.u.pdf, in, step)
	}
	var hash [maxIters]uint32
	if s := &h.state; s.chunks == 0 && s.chunkLen < chunkSize && s.bufLen > 0 {
		// At most one chunk (uhashState.sum in short).
		h.u.key.uhashLastPadded(h.u.iters, s.chunkLen/blockSize, &s.buf, &s.nh, 8*uint64(s.chunkLen+s.bufLen), &hash)
	} else {
		s.sum(&h.u.key, h.u.iters, &hash)
	}
	return h.u.appendTag(b, &hash, h.pads.out[j&(padRun-1)], word)
}

// SumPacket appends to dst the tag of the packet numbered seq whose bytes
// are the concatenation of parts: in one call what Reset, Write of the
// sequence number and of each part, and Sum compute, without the costs of
// hash.Hash's separate calls: a packet in one part, or copied into one
// (up to 4 KiB), takes the one-call path of [UMAC.MAC]; a longer one is
// hashed where its parts are, a block across two parts gathered once. golang.org/x/crypto/ssh, patched
// by go/ssh/xcrypto-umac.patch, calls it for every packet. Afterwards the
// SSHHash is as after Reset.
func (h *SSHHash) SumPacket(dst []byte, seq uint32, parts ...[]byte) []byte {
	in, word, step := counterInput(uint64(seq), h.u.tagSize)
	j, ok := h.pads.index(in)
	if !ok {
		j = h.pads.refill(&h.u.pdf, in, step)
	}
	var hash [maxIters]uint32
	switch total := totalLen(parts); {
	case len(parts) == 1:
		h.u.key.uhash(h.u.iters, parts[0], &hash)
	case total <= blockSize:
		h.u.key.uhashBlockParts(h.u.iters, parts, total, &hash)
	case total <= packetCopyLimit:
		// Copying costs less than hashing across the parts' seams.
		if h.packet == nil {
			h.packet = make([]byte, packetCopyLimit)
		}
		n := 0
		for _, p := range parts {
			n += copy(h.packet[n:], p)
		}
		h.u.key.uhash(h.u.iters, h.packet[:n], &hash)
	default:
		h.state.sumParts(&h.u.key, h.u.iters, parts, &hash)
	}
	h.Reset()
	return h.u.appendTag(dst, &hash, h.pads.out[j&(padRun-1)], word)
}

// Reset starts a new packet: the next 4 bytes written are its number.
func (h *SSHHash) Reset() {
	h.state.reset()
	h.seq, h.seqLen = 0, 0
}

// Size returns the tag size in bytes.
func (h *SSHHash) Size() int { return h.u.tagSize }

// BlockSize returns NH's block size, 32 bytes.
func (h *SSHHash) BlockSize() int { return blockSize }
