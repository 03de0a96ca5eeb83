package umac

import (
	"crypto/cipher"
	"encoding/binary"
)

// kdf fills out with KDF(K, index, len(out)) (RFC 4418 section 3.2): AES
// of uint2str(index, 8) || uint2str(i, 8) for i = 1, 2, ..., truncated. So
// a shorter output is a prefix of a longer one.
func kdf(block cipher.Block, index uint64, out []byte) {
	var in, enc [16]byte
	binary.BigEndian.PutUint64(in[:8], index)
	for i := uint64(1); len(out) > 0; i++ {
		binary.BigEndian.PutUint64(in[8:], i)
		block.Encrypt(enc[:], in[:])
		out = out[copy(out, enc[:]):]
	}
	clear(enc[:])
}
