//go:build amd64 && !purego

package umac

// asmBackends are the amd64 NHs the tests in nh_asm_test.go compare with
// the portable code: AVX-512 (where the CPU has it, whether or not it is
// the one selected by default, as on Zen 4) and AVX2. A CPU without AVX2
// fails the tests: the assembly must not go untested where it is expected
// to run; one without AVX-512 skips those subtests and says so.
var asmBackends = []asmBackend{
	{name: "AVX-512", supported: hasAVX512, required: false, use: func() func() { return selectNH(true, true) }},
	{name: "AVX2", supported: useAVX2, required: true, use: func() func() { return selectNH(false, true) }},
}

// usePortable selects the portable NH and the scalar L3.
func usePortable() func() { return selectNH(false, false) }

// selectNH sets the switches and returns a function that restores them.
func selectNH(avx512, avx2 bool) func() {
	saved512, saved2 := useAVX512, useAVX2
	useAVX512, useAVX2 = avx512, avx2
	return func() { useAVX512, useAVX2 = saved512, saved2 }
}
