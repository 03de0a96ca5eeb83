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
	pads   counterPads
	packet []byte // SumPacket's copy of a packet in parts, without AVX-512
}

// packetCopyLimit is the longest packet in parts that SumPacket copies
// into one piece when the CPU lacks the one-call assembly of a chunk in
// parts (AVX-512): up to a few KiB the copy costs less there than hashing
// the blocks across the parts' seams one by one.
const packetCopyLimit = 4 << 10

// NewSSH returns an SSHHash keyed with key (16 bytes) for tagSize-byte
// tags (8 for umac-64@openssh.com, 16 for umac-128@openssh.com).
func NewSSH(key []byte, tagSize int) (*SSHHash, error) {
	u, err := New(key, tagSize)
	if err != nil {
		return nil, err
	}
	return &SSHHash{u: u, pads: newCounterPads(tagSize)}, nil
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
	var hash [maxIters]uint32
	if s := &h.state; s.chunks == 0 && s.bufLen > 0 {
		// At most one chunk (uhashState.sum in short).
		h.u.key.uhashLastPadded(h.u.iters, s.chunkLen/blockSize, &s.buf, &s.nh, 8*uint64(s.chunkLen+s.bufLen), &hash)
	} else {
		s.sum(&h.u.key, h.u.iters, &hash)
	}
	// The pad after UHASH, as in UMAC.MAC.
	seq := uint64(h.seq) << (8 * (4 - h.seqLen))
	return h.u.appendTag(b, &hash, h.pads.pad(&h.u.pdf, seq), h.pads.word(seq))
}

// SumPacket appends to dst the tag of the packet numbered seq whose bytes
// are the concatenation of parts: in one call what Reset, Write of the
// sequence number and of each part, and Sum compute, without the costs of
// hash.Hash's separate calls. Blocks are hashed where they are, a block
// across parts gathered in a register by masked loads, a packet of up to a
// chunk (1024 bytes) in one assembly call, with AVX-512; without it a
// packet of up to 4 KiB is copied into one piece first.
// golang.org/x/crypto/ssh, patched by go/ssh/xcrypto-umac.patch, calls it
// for every packet. Afterwards the SSHHash is as after Reset.
func (h *SSHHash) SumPacket(dst []byte, seq uint32, parts ...[]byte) []byte {
	var hash [maxIters]uint32
	switch total, k := totalLen(parts), &h.u.key; {
	case len(parts) == 0:
		k.uhash(h.u.iters, nil, &hash)
	case total <= chunkSize && k.uhashInOneCall(h.u.iters, parts[0], parts[1:], total, &hash):
	case total <= packetCopyLimit && !partsInPlace():
		if h.packet == nil {
			h.packet = make([]byte, packetCopyLimit)
		}
		n := 0
		for _, p := range parts {
			n += copy(h.packet[n:], p)
		}
		k.uhash(h.u.iters, h.packet[:n], &hash)
	default:
		k.uhashChunks(h.u.iters, &partsCursor{cur: parts[0], rest: parts[1:]}, total, &hash)
	}
	if h.seqLen|h.state.bufLen != 0 {
		// Bytes were written since Reset (with none, the state is as
		// after it).
		h.Reset()
	}
	return h.u.appendTag(dst, &hash, h.pads.pad(&h.u.pdf, uint64(seq)), h.pads.word(uint64(seq)))
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
