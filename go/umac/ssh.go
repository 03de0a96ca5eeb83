package umac

// SSHHash is UMAC in the hash.Hash shape that golang.org/x/crypto/ssh
// drives for umac-64@openssh.com, umac-128@openssh.com and their -etm
// forms: after Reset, the first 4 bytes written are the packet sequence
// number, which is the nonce (as 8 big-endian bytes) and is not hashed; the
// rest is the message. Sum appends the tag and leaves the state unchanged,
// as hash.Hash requires. Consecutive packet numbers share pad blocks for
// 8-byte tags. An SSHHash belongs to one goroutine at a time.
type SSHHash struct {
	u      *UMAC
	state  uhashState
	seq    [4]byte
	seqLen int
	pads   padCache
}

// NewSSH returns an SSHHash keyed with key (16 bytes) for tagSize-byte
// tags (8 for umac-64@openssh.com, 16 for umac-128@openssh.com).
func NewSSH(key []byte, tagSize int) (*SSHHash, error) {
	u, err := New(key, tagSize)
	if err != nil {
		return nil, err
	}
	h := &SSHHash{u: u}
	h.state.reset()
	return h, nil
}

// Write takes the 4-byte sequence number first, then message bytes.
func (h *SSHHash) Write(p []byte) (int, error) {
	n := len(p)
	if h.seqLen < len(h.seq) {
		k := copy(h.seq[h.seqLen:], p)
		h.seqLen += k
		p = p[k:]
	}
	h.state.write(&h.u.key, h.u.iters, p)
	return n, nil
}

// Sum appends the tag of the message written since Reset to b, under the
// nonce formed from the sequence number (missing bytes of it count as zero).
func (h *SSHHash) Sum(b []byte) []byte {
	var nonce [8]byte
	copy(nonce[4:], h.seq[:])
	state := h.state // Sum must not change the hash state
	var hash [maxIters]uint32
	state.sum(&h.u.key, h.u.iters, &hash)
	var in [16]byte
	offset, step := pdfInput(nonce[:], h.u.tagSize, &in)
	return h.u.appendTag(b, &hash, h.pads.pad(&h.u.pdf, &in, step)[offset:])
}

// Reset starts a new packet: the next 4 bytes written are its number.
func (h *SSHHash) Reset() {
	h.state.reset()
	h.seqLen = 0
}

// Size returns the tag size in bytes.
func (h *SSHHash) Size() int { return h.u.tagSize }

// BlockSize returns NH's block size, 32 bytes.
func (h *SSHHash) BlockSize() int { return blockSize }
