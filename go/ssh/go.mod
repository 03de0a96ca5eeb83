// The interoperability tests of package umac with OpenSSH, through
// golang.org/x/crypto/ssh patched with xcrypto-umac.patch. Its own module:
// the patched copy exists only under target/, where `make test-go` puts it.
module fastmac.dev/go/ssh

go 1.24.0

require golang.org/x/crypto v0.45.0

require (
	fastmac.dev/go v0.0.0 // indirect
	golang.org/x/sys v0.38.0 // indirect
)

replace fastmac.dev/go => ../

replace golang.org/x/crypto => ../../target/go/xcrypto-v0.45.0-umac
