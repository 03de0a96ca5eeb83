#!/bin/bash
# Runs libtest binaries that cargo built, from a crate's folder as `cargo
# test` would, each after a "Running NAME" line (scripts/suite.py counts
# each binary's tests, and fails one that ran none); every binary runs, the
# exit status is 1 if any failed.
#
#   run-test-binaries.sh CRATE_DIR BINARY... [-- LIBTEST_ARG...]
set -euo pipefail
cd "$1"
shift
binaries=()
while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
	binaries+=("$1")
	shift
done
if [ "$#" -gt 0 ]; then
	shift
fi
status=0
for binary in "${binaries[@]}"; do
	echo "     Running $(basename "$binary")"
	if ! "$binary" "$@"; then
		status=1
	fi
done
exit "$status"
