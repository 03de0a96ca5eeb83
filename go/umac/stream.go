package umac

import "crypto/subtle"

// Stream computes a tag over a message written in pieces. It belongs to one
// goroutine at a time; many Streams may share one *UMAC.
type Stream struct {
	u     *UMAC
	state uhashState
	pads  padCache
}

// NewStream returns a Stream with nothing written yet.
func (u *UMAC) NewStream() *Stream {
	s := &Stream{u: u}
	s.state.reset()
	return s
}

// Write adds p to the message. It never fails.
func (s *Stream) Write(p []byte) (int, error) {
	s.state.write(&s.u.key, s.u.iters, p)
	return len(p), nil
}

// Sum appends the tag of the message written so far under nonce to dst and
// resets the Stream for the next message. A bad nonce length returns a
// [NonceSizeError] and keeps the message, so Sum can be retried.
func (s *Stream) Sum(dst, nonce []byte) ([]byte, error) {
	if err := checkNonce(nonce); err != nil {
		return dst, err
	}
	var hash [maxIters]uint32
	s.state.sum(&s.u.key, s.u.iters, &hash)
	s.state.reset()
	in, word, step := pdfInput(nonce, s.u.tagSize)
	return s.u.appendTag(dst, &hash, s.pads.pad(&s.u.pdf, in, step), word), nil
}

// Verify reports whether tag is the tag of the message written so far under
// nonce (constant-time comparison), and resets the Stream.
func (s *Stream) Verify(nonce, tag []byte) bool {
	var buf [16]byte
	want, err := s.Sum(buf[:0], nonce)
	if err != nil || len(tag) != len(want) {
		s.Reset()
		return false
	}
	return subtle.ConstantTimeCompare(want, tag) == 1
}

// Reset discards the message written so far.
func (s *Stream) Reset() { s.state.reset() }
