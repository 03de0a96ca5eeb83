package umac

import "encoding/binary"

// nhGeneric adds NH(K, data) (RFC 4418 section 5.2.2) to acc[t] for the
// first iters iterations, iteration t using the key shifted by 4t words
// (section 5.1, the Toeplitz construction). data starts at block first of
// an L1 chunk and ends inside it; a trailing partial block counts as
// zero-padded. It is the specification the assembly is tested against.
func nhGeneric(k *uhashKey, first int, data []byte, acc *[maxIters]uint64, iters int) {
	words := k.words[8*first:]
	for ; len(data) >= blockSize; data = data[blockSize:] {
		nhBlock(words, data, acc, iters)
		words = words[8:]
	}
	if len(data) > 0 {
		var tail [blockSize]byte
		copy(tail[:], data)
		nhBlock(words, tail[:], acc, iters)
	}
}

// nhBlock hashes one 32-byte block: message words little-endian (the RFC's
// ENDIAN-SWAP), key words read big-endian at key setup, word j paired with
// word j+4.
func nhBlock(k []uint32, b []byte, acc *[maxIters]uint64, iters int) {
	_ = b[31]
	m0 := binary.LittleEndian.Uint32(b[0:])
	m1 := binary.LittleEndian.Uint32(b[4:])
	m2 := binary.LittleEndian.Uint32(b[8:])
	m3 := binary.LittleEndian.Uint32(b[12:])
	m4 := binary.LittleEndian.Uint32(b[16:])
	m5 := binary.LittleEndian.Uint32(b[20:])
	m6 := binary.LittleEndian.Uint32(b[24:])
	m7 := binary.LittleEndian.Uint32(b[28:])
	for t := 0; t < iters; t++ {
		kk := k[4*t : 4*t+8]
		acc[t] += uint64(m0+kk[0])*uint64(m4+kk[4]) + uint64(m1+kk[1])*uint64(m5+kk[5]) +
			uint64(m2+kk[2])*uint64(m6+kk[6]) + uint64(m3+kk[3])*uint64(m7+kk[7])
	}
}
