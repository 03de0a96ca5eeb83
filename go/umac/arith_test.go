package umac

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func bigOf(u uint128) *big.Int {
	x := new(big.Int).SetUint64(u.hi)
	return x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(u.lo))
}

var (
	bigP64  = new(big.Int).SetUint64(p64)
	bigP128 = bigOf(p128)
)

// The modular arithmetic against math/big, on edge and random operands in
// the ranges the callers use (keys masked as RFC 4418 section 5.3 does).
func TestModularArithmeticMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const m64 = 0x01ffffff01ffffff
	edges := []uint64{0, 1, 58, 59, 60, p64 - 1, p64, p64 + 1, 1<<64 - 1<<32, 1<<64 - 1<<32 - 1, ^uint64(0), m64}
	operand := func(i int) uint64 {
		if i < len(edges) {
			return edges[i]
		}
		return rng.Uint64()
	}
	for i := 0; i < 2000; i++ {
		k, y, a := operand(i%len(edges))&m64, operand(i/3), operand((i+5)%len(edges)+i/len(edges))
		want := new(big.Int).SetUint64(k)
		want.Mul(want, new(big.Int).SetUint64(y)).Add(want, new(big.Int).SetUint64(a)).Mod(want, bigP64)
		if got := mulAddModP64(k, y, a); got != want.Uint64() {
			t.Fatalf("mulAddModP64(%x, %x, %x) = %x, want %x", k, y, a, got, want)
		}
		// POLY's marker path, as the RFC writes it with a branch.
		var poly uint64
		if a >= 1<<64-1<<32 {
			poly = mulAddModP64(k, mulAddModP64(k, y%p64, p64-1), a-59)
		} else {
			poly = mulAddModP64(k, y%p64, a)
		}
		if got := poly64Step(k, mulAddModP64(k, k, 0), y%p64, a); got != poly {
			t.Fatalf("poly64Step(%x, %x, %x) = %x, want %x", k, y, a, got, poly)
		}
		if got := reduceP36(y); got != y%p36 {
			t.Fatalf("reduceP36(%x) = %x", y, got)
		}
		if s := y >> 9; reduceP36Sum(s) != s%p36 {
			t.Fatalf("reduceP36Sum(%x) = %x", s, reduceP36Sum(s))
		}
		k128 := uint128{operand(i) & m64, operand(i+1) & m64}
		y128 := uint128{operand(i + 2), operand(i + 3)}
		a128 := uint128{operand(i + 4), operand(i + 5)}
		if i%7 == 0 {
			y128 = uint128{p128.hi, p128.lo - 1}
			a128 = uint128{^uint64(0), ^uint64(0)}
		}
		want = bigOf(k128)
		want.Mul(want, bigOf(y128)).Add(want, bigOf(a128)).Mod(want, bigP128)
		if got := mulAddModP128(k128, y128, a128); bigOf(got).Cmp(want) != 0 {
			t.Fatalf("mulAddModP128(%x, %x, %x) = %x, want %x", k128, y128, a128, got, want)
		}
	}
}

// TestPoly64StepMarkerRange: random keys and accumulators with words in
// and just below the marker range, where poly64Step selects k^2 and
// m - 59 - k, against the RFC's two steps.
func TestPoly64StepMarkerRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const m64 = 0x01ffffff01ffffff
	for i := 0; i < 4000; i++ {
		k, y := rng.Uint64()&m64, rng.Uint64()%p64
		m := 1<<64 - 1<<32 + rng.Uint64()%(1<<32)
		if i%2 == 1 {
			m -= 1 << 32
		}
		var want uint64
		if m >= 1<<64-1<<32 {
			want = mulAddModP64(k, mulAddModP64(k, y, p64-1), m-59)
		} else {
			want = mulAddModP64(k, y, m)
		}
		if got := poly64Step(k, mulAddModP64(k, k, 0), y, m); got != want {
			t.Fatalf("poly64Step(%x, %x, %x) = %x, want %x", k, y, m, got, want)
		}
	}
}

func TestL3ShortEqualsFullL3(t *testing.T) {
	k1 := [8]uint64{p36 - 1, 1, 2, 3, p36 - 2, 0xfffffffff % p36, 12345, p36 - 1}
	for _, a := range []uint64{0, ^uint64(0), 0x0123456789abcdef, 1 << 63} {
		if l3HashShort(&k1, 0xdeadbeef, a) != l3Hash(&k1, 0xdeadbeef, uint128{0, a}) {
			t.Fatalf("a=%x", a)
		}
	}
}
