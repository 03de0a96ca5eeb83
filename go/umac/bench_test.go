package umac

import (
	"fmt"
	"testing"
)

// Benchmarks of this package alone; `make go-bench` runs them side by side
// with other MACs in one `go test -bench` run.
func BenchmarkMAC(b *testing.B) {
	for _, tagSize := range []int{4, 8, 12, 16} {
		for _, size := range []int{32, 1024, 1500, 64 << 10} {
			b.Run(fmt.Sprintf("UMAC-%d/%d", 8*tagSize, size), func(b *testing.B) {
				u, _ := New([]byte("abcdefghijklmnop"), tagSize)
				msg := make([]byte, size)
				tag := make([]byte, 0, 16)
				nonce := CounterNonce(0)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					nonce = CounterNonce(uint64(i))
					tag, _ = u.MAC(tag[:0], nonce[:], msg)
				}
			})
		}
	}
}
