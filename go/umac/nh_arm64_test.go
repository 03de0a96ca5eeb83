//go:build arm64 && !purego

package umac

// asmNH is the switch of the NEON NH, for the tests in nh_asm_test.go.
var asmNH, asmNHName = &useNEON, "NEON"
