package umac

import "math/bits"

// Modular arithmetic of L2-HASH and L3-HASH (RFC 4418 sections 5.3 and 5.4).
// Operands depend on the key, so every selection is by mask, not by branch.

const (
	p36 = 1<<36 - 5
	p64 = 1<<64 - 59
)

// uint128 is a 128-bit number as two 64-bit halves.
type uint128 struct{ hi, lo uint64 }

// p128 is 2^128 - 159.
var p128 = uint128{^uint64(0), ^uint64(0) - 158}

// mask is all ones when bit is 1 and zero when it is 0.
func mask(bit uint64) uint64 { return -bit }

// mulAddModP64 returns (k*y + a) mod p64 for k < 2^57.
func mulAddModP64(k, y, a uint64) uint64 {
	hi, lo := bits.Mul64(k, y)
	lo, c := bits.Add64(lo, a, 0)
	hi += c // x = hi*2^64 + lo < 2^122
	// 2^64 = 59 (mod p64): fold the high half down twice. After the first
	// fold the carry is 0 or 1, and with a carry t < 2^63, so the second
	// fold cannot carry; then t < 2*p64.
	t, c := bits.Add64(lo, hi*59, 0)
	t += 59 * c
	reduced, borrow := bits.Sub64(t, p64, 0)
	keep := mask(borrow)
	return t&keep | reduced&^keep
}

// poly64Step is one word of POLY with 64-bit words (RFC 4418 section
// 5.3.2): a word m >= 2^64 - 2^32 is hashed as the marker p64 - 1 and then
// m - 59, i.e. k*(k*y + p64 - 1) + m - 59 = k^2*y + (m - 59 - k). With
// kSquared (k^2 mod p64) both cases are one product of y: the multiplier
// and the addend are selected by mask, not by branch.
func poly64Step(k, kSquared, y, m uint64) uint64 {
	inTop := mask(((m >> 32) + 1) >> 32)
	// In the marker range m - 59 - k cannot wrap (k < 2^57).
	mul, add := k^(k^kSquared)&inTop, m-(59+k)&inTop
	// mul*y + add < 2^128, for a multiplier of any size.
	hi, lo := bits.Mul64(mul, y)
	lo, c := bits.Add64(lo, add, 0)
	hi += c
	// 2^64 = 59 (mod p64): hi*59 has a high half below 59, folded once
	// more; with a carry there t is below 59*59, so adding 59 cannot wrap.
	foldHi, foldLo := bits.Mul64(hi, 59)
	t, c := bits.Add64(lo, foldLo, 0)
	t, c = bits.Add64(t, (foldHi+c)*59, 0)
	t += 59 * c
	// t < 2^64 < 2*p64: subtract p64 unless that borrows.
	reduced, borrow := bits.Sub64(t, p64, 0)
	return reduced + p64&mask(borrow)
}

// mulAddModP128 returns (k*y + a) mod p128 for k < 2^121.
func mulAddModP128(k, y, a uint128) uint128 {
	// The 256-bit product in limbs r3..r0, plus a.
	h00, r0 := bits.Mul64(k.lo, y.lo)
	h01, l01 := bits.Mul64(k.lo, y.hi)
	h10, l10 := bits.Mul64(k.hi, y.lo)
	h11, l11 := bits.Mul64(k.hi, y.hi)
	r1, c1 := bits.Add64(h00, l01, 0)
	r1, c2 := bits.Add64(r1, l10, 0)
	r2, c3 := bits.Add64(h01, h10, c1)
	r2, c4 := bits.Add64(r2, l11, c2)
	r3 := h11 + c3 + c4
	var c uint64
	r0, c = bits.Add64(r0, a.lo, 0)
	r1, c = bits.Add64(r1, a.hi, c)
	r2, c = bits.Add64(r2, 0, c)
	r3 += c // r3 < 2^58
	// 2^128 = 159 (mod p128): x = (r3*2^64 + r2)*159 + (r1*2^64 + r0).
	m2hi, m2lo := bits.Mul64(r2, 159)
	m3hi, m3lo := bits.Mul64(r3, 159)
	s0, c := bits.Add64(r0, m2lo, 0)
	s1, c := bits.Add64(r1, m2hi, c)
	s2 := m3hi + c
	s1, c = bits.Add64(s1, m3lo, 0)
	s2 += c // a few units
	s0, c = bits.Add64(s0, s2*159, 0)
	s1, c = bits.Add64(s1, 0, c)
	// A carry here leaves s tiny, so adding 159 for it cannot carry again.
	s0, c2 = bits.Add64(s0, 159*c, 0)
	s1 += c2
	// s < 2*p128: subtract p128 once if s >= p128, i.e. if s + 159 carries.
	t0, c := bits.Add64(s0, 159, 0)
	t1, over := bits.Add64(s1, 0, c)
	take := mask(over)
	return uint128{t1&take | s1&^take, t0&take | s0&^take}
}

// poly128Step is one word of POLY with 128-bit words (RFC 4418 section
// 5.3.2, range limit 2^128 - 2^96).
func poly128Step(k, y, m uint128) uint128 {
	inTop := mask(((m.hi >> 32) + 1) >> 32)
	plain := mulAddModP128(k, y, m)
	pm1 := uint128{p128.hi, p128.lo - 1}
	lo, borrow := bits.Sub64(m.lo, 159, 0)
	shifted := uint128{m.hi - borrow, lo}
	marked := mulAddModP128(k, mulAddModP128(k, y, pm1), shifted)
	return uint128{marked.hi&inTop | plain.hi&^inTop, marked.lo&inTop | plain.lo&^inTop}
}

// reduceP36 returns x mod p36 for any x.
func reduceP36(x uint64) uint64 {
	const m = 1<<36 - 1
	t := x&m + 5*(x>>36) // < 2^37
	t = t&m + 5*(t>>36)  // < 2^36 + 5 < 2*p36
	reduced, borrow := bits.Sub64(t, p36, 0)
	keep := mask(borrow)
	return t&keep | reduced&^keep
}

// reduceP36Sum returns x mod p36 for x < 2^55 (every L3 sum): one fold
// leaves t < 2^36 + 5*2^19 < 2*p36.
func reduceP36Sum(x uint64) uint64 {
	t := x&(1<<36-1) + 5*(x>>36)
	reduced, borrow := bits.Sub64(t, p36, 0)
	keep := mask(borrow)
	return t&keep | reduced&^keep
}

// l3Hash is L3-HASH (RFC 4418 section 5.4): the inner product of the eight
// 16-bit big-endian words of b with the L3Key1 words mod p36, taken mod 2^32,
// XORed with L3Key2. Each term is below 2^52, the sum below 2^55.
func l3Hash(k1 *[8]uint64, k2 uint32, b uint128) uint32 {
	y := (b.hi>>48)*k1[0] + (b.hi>>32&0xffff)*k1[1] + (b.hi>>16&0xffff)*k1[2] + (b.hi&0xffff)*k1[3] +
		(b.lo>>48)*k1[4] + (b.lo>>32&0xffff)*k1[5] + (b.lo>>16&0xffff)*k1[6] + (b.lo&0xffff)*k1[7]
	return uint32(reduceP36Sum(y)) ^ k2
}

// l3HashShort is l3Hash of B = zeroes(8) || a, a message of at most one
// chunk (section 5.3.1): the four top words of B are zero.
func l3HashShort(k1 *[8]uint64, k2 uint32, a uint64) uint32 {
	y := (a>>48)*k1[4] + (a>>32&0xffff)*k1[5] + (a>>16&0xffff)*k1[6] + (a&0xffff)*k1[7]
	return uint32(reduceP36Sum(y)) ^ k2
}
