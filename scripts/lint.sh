#!/bin/bash
# make lint: rustfmt --check (the workspace and the fuzz/ workspace;
# rustfmt.toml sets 120 columns) and clippy -D warnings over every target of
# the workspace, twice: with the default features (what a user builds), and
# with the OpenSSH drop-in's feature and the test cfgs (TEST_CFGS: the code
# that only the test builds compile). The two cover every combination that
# compiles different code (what a not() of a test cfg keeps compiles in the
# first).
#
#   LINT_TARGET=DIR TEST_CFGS="--cfg ..." lint.sh
#
# Both runs, and make test-rustdoc, check in LINT_TARGET, so the
# dependencies are checked once for all three: the test cfgs go to clippy's
# own arguments, which cargo passes to the workspace's crates only (in
# RUSTFLAGS they would reach every dependency and check each again), and
# cargo re-checks the workspace's crates when those arguments change.
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
	# shellcheck disable=SC2086 # each cfg and its value are words of their own
	CARGO_TARGET_DIR=$lint_target "$cargo" clippy --workspace --all-targets --features fastmac-c/openssh -- \
		-D warnings $test_cfgs
}
check "rustfmt: the workspace" "$cargo" fmt --all --check
check "rustfmt: the fuzz/ workspace" "$cargo" fmt --all --check --manifest-path fuzz/Cargo.toml
check "clippy -D warnings, every target, default features" clippy_default
check "clippy -D warnings, every target, the OpenSSH drop-in's feature and $test_cfgs" clippy_test_cfgs
checks_done
