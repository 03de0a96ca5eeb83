#!/bin/bash
# make test-backends: the tests whose results go through NH, once per NH
# backend of this CPU other than the fastest (test-rust ran everything on
# that one), with the backend forced through FASTMAC_BACKEND (read by builds
# with --cfg fastmac_backend_env; tests/backends.rs checks that the force
# took hold), and the AVX-512 unit tests where the CPU has AVX-512. Each is
# one part of the suite in make test's summary.
#
#   test-backends.sh BACKENDS_FILE TEST...
#
# BACKENDS_FILE: `fastmac list --backends` of this CPU, fastest last.
# RUSTFLAGS and TEST_RUST_BUILD (the cargo options of test-rust) come from
# the Makefile: the test binaries are test-rust's own, listed by cargo
# without a rebuild (selecting test files with --test would make Cargo unify
# the dependencies' features otherwise, and rebuild).
set -euo pipefail
cd "$(dirname "$0")/.."
backends_file=$1
shift
read -ra build <<< "${TEST_RUST_BUILD:?TEST_RUST_BUILD: the cargo options of test-rust, set by the Makefile}"

# The first column: the NH backend's name.
mapfile -t backends < <(cut -f1 "$backends_file")
if [ "${#backends[@]}" -eq 0 ]; then
	echo "test-backends: $backends_file lists no NH backend"
	exit 1
fi
fastest=${backends[-1]}

# "KIND NAME EXECUTABLE" of each test binary of the fastmac crate.
binaries=$(cargo test "${build[@]}" --no-run --message-format=json | python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message.get("executable") \
            and message["manifest_path"].endswith("/crates/fastmac/Cargo.toml"):
        print(message["target"]["kind"][0], message["target"]["name"], message["executable"])
')
executable() {
	local kind=$1 name=$2 found
	found=$(awk -v kind="$kind" -v name="$name" '$1 == kind && $2 == name { print $3 }' <<< "$binaries")
	if [ -z "$found" ]; then
		echo "test-backends: test-rust's build has no $kind test binary $name" >&2
		exit 1
	fi
	echo "$found"
}
nh_tests=()
for test in "$@"; do
	nh_tests+=("$(executable test "$test")")
done
unit_tests=$(executable lib fastmac)

status=0
for backend in "${backends[@]}"; do
	if [ "$backend" = "$fastest" ]; then
		echo "== NH backend $backend: the fastest, which test-rust ran"
		continue
	fi
	echo "== NH backend $backend, forced: $*"
	if ! FASTMAC_BACKEND=$backend python3 scripts/suite.py "test-backends/$backend" -- \
		scripts/run-test-binaries.sh crates/fastmac "${nh_tests[@]}"; then
		status=1
	fi
done
if [ "${#backends[@]}" -eq 1 ]; then
	python3 scripts/suite.py test-backends --skip "this CPU runs one NH backend ($fastest), which test-rust ran"
fi

# The unit tests that call the AVX-512 code directly are ignored by a plain
# `cargo test` (a CPU without AVX-512 shows them as skipped); here they run
# where the CPU has it.
has_avx512=no
for backend in "${backends[@]}"; do
	if [ "$backend" = avx512 ]; then
		has_avx512=yes
	fi
done
if [ "$has_avx512" = yes ]; then
	if ! python3 scripts/suite.py test-backends/avx512-only -- \
		scripts/run-test-binaries.sh crates/fastmac "$unit_tests" -- --ignored avx512; then
		status=1
	fi
else
	python3 scripts/suite.py test-backends/avx512-only --skip "no AVX-512 on this CPU: the AVX-512 unit tests do not run"
fi
exit "$status"
