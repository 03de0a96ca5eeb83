// Package nettle binds GNU Nettle's UMAC (libnettle, nettle-dev) through
// cgo as an independent oracle for the differential test of package umac.
// Go does not allow cgo in _test.go files, so the binding is a package of
// its own, built only with the build tag nettle (which `make test-go`
// sets, on x86_64): the module's default build never uses cgo.
package nettle
