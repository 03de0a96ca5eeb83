#!/bin/bash
# The Go package's checks and tests (make test-go):
#
#   test.sh GO STATICCHECK GO_TARGET_DIR
#
# The RFC 4418 vectors of the module (umac/testdata) equal the repository's;
# vet and staticcheck on both paths (assembly and purego); the tests with
# and without purego (each replays the fuzz corpora in umac/testdata/fuzz);
# the module's own tests outside the repository (as a go.mod replace line
# or the module proxy gives it); the Nettle differential test (cgo, x86_64)
# and the race detector on the concurrency tests; the tests on s390x (the
# portable path, big-endian) and arm64 (NEON) under qemu-user; the patched
# golang.org/x/crypto/ssh's own packet-cipher tests; the SSH sessions
# against OpenSSH and their negative control (tag umac_flip_tag). Every `go test` runs with -v: its
# --- PASS, FAIL and SKIP lines are counted by scripts/suite.py, the checks
# by their closing line. GOMODCACHE, GOFLAGS and GOTOOLCHAIN come from go.mk.
set -euo pipefail
go=$1
staticcheck=$2
out=$3
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
source ../scripts/checks.sh

go_test_failed=0
# go test -v ARG...: its output without the === lines; a failure is recorded.
go_test() {
	if ! timeout 600 "$go" test -count=1 -v "$@" 2>&1 | grep -v -e '^=== RUN' -e '^=== PAUSE' -e '^=== CONT'; then
		echo "FAILED: go test $*"
		go_test_failed=1
	fi
}
# A test binary under qemu-user: the same, from the package folder.
qemu_test() {
	local qemu=$1 binary=$2
	if ! (cd umac && timeout 600 "$qemu" "$binary" -test.count=1 -test.v 2>&1 | grep -v -e '^=== RUN'); then
		echo "FAILED: $qemu $binary"
		go_test_failed=1
	fi
}

check "go/umac/testdata/rfc4418.txt equals tests/vectors/rfc4418.txt (copy it again if not)" \
	cmp ../tests/vectors/rfc4418.txt umac/testdata/rfc4418.txt

for tags in "" purego; do
	check "go vet ${tags:+-tags $tags }./..." "$go" vet -tags "$tags" ./...
	check "staticcheck ${tags:+-tags $tags }./..." "$staticcheck" -tags "$tags" ./...
	go_test -tags "$tags" ./...
done

# The module on its own, outside the repository: its tests read only files
# of the module (the README's blocks from the ssh module are skipped there,
# with the reason).
rm -rf "$out/module-alone"
mkdir -p "$out/module-alone"
cp -r go.mod go.sum README.md umac "$out/module-alone/"
cd "$out/module-alone"
go_test -run 'RFC4418|Readme|Example' ./umac/
cd "$here"

if [ "$(uname -m)" = x86_64 ]; then
	check "go vet -tags nettle ./internal/nettle/" "$go" vet -tags nettle ./internal/nettle/
	check "staticcheck -tags nettle ./internal/nettle/" "$staticcheck" -tags nettle ./internal/nettle/
	go_test -tags nettle ./internal/nettle/
	go_test -tags 'nettle purego' ./internal/nettle/
	go_test -race -run 'Concurrently|PadCache' ./umac/
else
	skip "the Nettle differential test and the race detector run on x86_64 only, not on $(uname -m)"
fi

# The portable path on a big-endian machine (s390x) and NEON on arm64, as
# static test binaries under qemu-user.
for arch in s390x arm64; do
	qemu=qemu-${arch/arm64/aarch64}
	check "the umac tests build for $arch" env GOARCH=$arch "$go" test -c -o "$out/umac-$arch.test" ./umac/
	echo "== go test on $arch ($qemu)"
	qemu_test "$qemu" "$out/umac-$arch.test"
done

# The patched package's own packet-cipher tests (every cipher, every MAC,
# UMAC included), then the SSH sessions (go/ssh, its own module) and their
# negative control.
cd ssh
go_test -run 'Cipher|MAC|Mac|Packet' golang.org/x/crypto/ssh
check "go vet ./... (go/ssh)" "$go" vet ./...
check "go vet -tags umac_flip_tag ./... (go/ssh)" "$go" vet -tags umac_flip_tag ./...
go_test -run . ./...
go_test -tags umac_flip_tag ./...

if [ "$go_test_failed" -ne 0 ]; then
	check "every go test run passed" false
fi
checks_done
