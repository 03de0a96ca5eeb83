package umac

import "encoding/binary"

// CounterNonce is the nonce of counter value n as a [Sequenced] uses it and
// a receiver passes it to [UMAC.Verify]: 8 big-endian bytes, as SSH forms its
// UMAC nonce from the packet number. Consecutive values share pad blocks
// for 4- and 8-byte tags (RFC 4418 section 3.3).
func CounterNonce(n uint64) [8]byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b
}

// Sequenced is a sender's UMAC that owns its nonces: it tags each message
// under the next counter value (0, 1, 2, ...) and refuses with
// [ErrNonceExhausted] at its limit instead of repeating a nonce. It belongs
// to one goroutine at a time; copying a Sequenced would repeat nonces.
type Sequenced struct {
	u     *UMAC
	next  uint64
	limit uint64
	pads  counterPads
	state uhashState // a message being written
}

// NewSequenced keys UMAC for a sender whose nonces count from 0 and stop
// below 2^64 - 1.
func NewSequenced(key []byte, tagSize int) (*Sequenced, error) {
	return NewSequencedFrom(key, tagSize, 0, ^uint64(0))
}

// NewSequencedFrom starts the counter at first (for a counter persisted
// across restarts) and refuses from limit on (a rekey policy).
func NewSequencedFrom(key []byte, tagSize int, first, limit uint64) (*Sequenced, error) {
	u, err := New(key, tagSize)
	if err != nil {
		return nil, err
	}
	s := &Sequenced{u: u, next: first, limit: limit, pads: newCounterPads(tagSize)}
	s.state.reset()
	return s, nil
}

// MAC appends the tag of msg under the next nonce to dst and returns the
// nonce's counter value (the nonce bytes are [CounterNonce] of it) and the
// result.
func (s *Sequenced) MAC(dst, msg []byte) (nonce uint64, out []byte, err error) {
	if s.next >= s.limit {
		return 0, dst, ErrNonceExhausted
	}
	var hash [maxIters]uint32
	s.u.key.uhash(s.u.iters, msg, &hash)
	return s.tag(dst, &hash)
}

// Write adds p to a message written in pieces, tagged by Sum. It never
// fails.
func (s *Sequenced) Write(p []byte) (int, error) {
	s.state.write(&s.u.key, s.u.iters, p)
	return len(p), nil
}

// Sum appends the tag of the message written so far under the next nonce to
// dst, like MAC, and starts a new message. At the limit it returns
// [ErrNonceExhausted] and keeps the message.
func (s *Sequenced) Sum(dst []byte) (nonce uint64, out []byte, err error) {
	if s.next >= s.limit {
		return 0, dst, ErrNonceExhausted
	}
	var hash [maxIters]uint32
	s.state.sum(&s.u.key, s.u.iters, &hash)
	s.state.reset()
	return s.tag(dst, &hash)
}

// tag spends the next nonce on hash (the caller checked the limit).
func (s *Sequenced) tag(dst []byte, hash *[maxIters]uint32) (uint64, []byte, error) {
	n := s.next
	s.next++
	return n, s.u.appendTag(dst, hash, s.pads.pad(&s.u.pdf, n), s.pads.word(n)), nil
}

// Next returns the counter value the next message gets.
func (s *Sequenced) Next() uint64 { return s.next }

// Remaining returns how many messages may still be tagged.
func (s *Sequenced) Remaining() uint64 { return s.limit - min(s.next, s.limit) }
