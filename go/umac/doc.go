// Package umac implements UMAC (RFC 4418), the message authentication code
// built on the NH universal hash, with 32-, 64-, 96- and 128-bit tags.
//
// A [UMAC] holds one 16-byte key and one tag size. Every message needs a
// nonce of 1 to 16 bytes that is never repeated under the key: two tags under
// one (key, nonce) reveal the XOR of two hashes (RFC 4418 section 6).
// [Sequenced] owns its nonces (a counter) so that a sender cannot repeat one.
//
// The layers follow RFC 4418 section 5: NH over 1024-byte chunks (L1-HASH,
// with AVX2 assembly on amd64, chosen at run time, NEON assembly on arm64,
// and a portable Go path that the build tag purego forces), POLY64 over the
// chunk hashes switching to POLY128 past 16 MiB of message (L2-HASH;
// OpenSSH's umac.c lacks that stage and so gets every longer message
// wrong), an inner product modulo 2^36-5 (L3-HASH, on amd64 for all
// iterations in one AVX2 step), and an AES-128 pad (the PDF, section 3.3;
// AES-NI assembly on amd64, crypto/aes elsewhere). Pads of counter nonces
// are cached: consecutive nonces share one AES block for 32- and 64-bit
// tags (section 3.3), and on a miss a Stream, a Sequenced or an SSH hash
// computes the blocks of the next nonces with it.
//
// [UMAC.MAC], [UMAC.Verify] and [UMAC.NewStream] are safe for concurrent use
// on one *UMAC, which holds only key material. A [Stream], a [Sequenced] and
// the [NewSSH] hash each belong to one goroutine at a time.
//
// Go cannot guarantee that key material is wiped from memory: the garbage
// collector may copy it, so no Close or Zeroize is offered.
package umac
