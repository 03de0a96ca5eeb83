//go:build arm64 && !purego

package umac

// asmBackends are the arm64 NHs the tests in nh_asm_test.go compare with
// the portable code: NEON, part of every arm64 CPU.
var asmBackends = []asmBackend{
	{name: "NEON", supported: true, required: true, use: func() func() { return selectNEON(true) }},
}

// usePortable selects the portable NH.
func usePortable() func() { return selectNEON(false) }

func selectNEON(on bool) func() {
	saved := useNEON
	useNEON = on
	return func() { useNEON = saved }
}
