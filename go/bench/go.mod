// The side-by-side benchmark is its own module, outside fastmac.dev/go, so
// that the package it measures against is never a dependency of ours.
// `make go-bench` copies it under target/ and adds the requirements and
// replace lines there.
module fastmac.dev/gobench

go 1.24.0
