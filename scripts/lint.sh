#!/bin/bash
# make lint: rustfmt --check (the workspace and the fuzz/ workspace;
# rustfmt.toml sets 120 columns) and clippy -D warnings over every target of
# the workspace, twice: with the default features (what a user builds), and
# with the OpenSSH drop-in's feature and the test cfgs (TEST_CFGS: the code
# that only the test builds compile). The two cover every combination that
# compiles different code (no code is under a not() of either).
#
#   LINT_TARGET=DIR TEST_CFGS="--cfg ..." lint.sh
#
# The default-feature run builds in LINT_TARGET, which make test-rustdoc
# shares (its dependencies are checked once for both); the test-cfg run in
# LINT_TARGET/test-cfgs (other RUSTFLAGS would invalidate the first's).
# Prints one line per check and "N passed, N failed, N skipped"
# (scripts/checks.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/checks.sh
cargo=${CARGO:-cargo}
lint_target=${LINT_TARGET:?LINT_TARGET: the build directory of clippy, set by the Makefile}
test_cfgs=${TEST_CFGS:?TEST_CFGS: the test cfgs, set by the Makefile}

clippy_default() {
	CARGO_TARGET_DIR=$lint_target "$cargo" clippy --workspace --all-targets -- -D warnings
}
clippy_test_cfgs() {
	RUSTFLAGS="${RUSTFLAGS:-} $test_cfgs" CARGO_TARGET_DIR=$lint_target/test-cfgs \
		"$cargo" clippy --workspace --all-targets --features fastmac-c/openssh -- -D warnings
}
check "rustfmt: the workspace" "$cargo" fmt --all --check
check "rustfmt: the fuzz/ workspace" "$cargo" fmt --all --check --manifest-path fuzz/Cargo.toml
check "clippy -D warnings, every target, default features" clippy_default
check "clippy -D warnings, every target, the OpenSSH drop-in's feature and $test_cfgs" clippy_test_cfgs
checks_done
