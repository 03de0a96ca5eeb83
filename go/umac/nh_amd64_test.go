//go:build amd64 && !purego

package umac

// asmNH is the switch of the AVX2 NH, for the tests in nh_asm_test.go.
var asmNH, asmNHName = &useAVX2, "AVX2"
