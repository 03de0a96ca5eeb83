# fastmac: `make test` installs what a fresh machine lacks, builds, and runs
# every suite, then ends with one table: a row per suite with its passed,
# failed and skipped tests, the reason of each skip, and its wall and CPU
# time (also in target/test-summary/summary.txt; each suite's output in
# target/test-logs/). Rust tests are built with the `test` profile of
# .cargo/config.toml (optimized, debug assertions and overflow checks on, no
# LTO): the crypto tests hash tens of MiB, and every Rust suite shares that
# one build.
#
# A suite, in any .mk file, is a target in TEST_SUITES whose recipe runs its
# tests through $(SUITE); `make test` runs the suites in the order they were
# added (the order of the includes below), each as its own make, so that one
# failure does not hide the others:
#
#   TEST_SUITES += test-foo
#   test-foo: deps-foo
#   	$(SUITE) -- COMMAND ARG...
#
# $(SUITE) (scripts/suite.py) counts what cargo test, pytest -rs, go test -v,
# unittest, or a script's "N passed, N failed[, N skipped]" line report, with
# one "SKIP: reason" line per skip (scripts/checks.sh gives a bash script
# both), and fails the suite when a test failed, when none ran, or when a test
# target ran none (--allow-empty TARGET for one that may). A suite that
# cannot run on this machine says why: $(SUITE) --skip "reason". A target
# recording several parts: $(SUITE)/PART -- COMMAND. Long logic goes in a
# script with `set -euo pipefail`, not in a recipe.

SHELL := /bin/bash
CARGO ?= cargo
export DEBIAN_FRONTEND := noninteractive
# Builds from scratch: incremental compilation's bookkeeping would only cost.
export CARGO_INCREMENTAL := 0

SUITE = python3 $(CURDIR)/scripts/suite.py $@
TEST_SUITES :=

# Installs Debian packages (scripts/apt-install.sh: the package lists are
# fetched when first needed, and again when they went stale).
define apt_install
	$(CURDIR)/scripts/apt-install.sh $(1)
endef

.PHONY: test deps deps-runner deps-nettle test-rust build test-backends deps-chromium nh-backends

# make test runs the suites in two lanes, side by side (scripts/test.py;
# docs/testing.md section 1): TEST_LANE_2 names the second lane's suites in
# the order they run; the others are the first lane's, in TEST_SUITES order
# (the cheap checks first, then test-rust, whose build the later Rust suites
# reuse). The second lane holds the suites whose builds share nothing with
# test-rust's (the C library, OpenSSH, Go, russh, no_std), then the Python
# suites, which run test-rust's CLI (built by then), and test-rustdoc, which
# documents in lint's build directory (lint ran first). The fuzz targets share
# nothing either, and test-ct builds its own C library, but both run in the
# first lane, which the others leave the shorter (docs/testing.md section
# 1). What two lanes share is serialized by cargo's build-directory locks
# (test-cli) and scripts/apt-install.sh's lock; any other make prerequisite
# of two suites (deps-python, c-lib's install prefixes, rustup's targets and
# toolchains) must be in one lane. TEST_JOBS=1: one lane, each suite's
# output on the terminal.
TEST_JOBS ?= 2
TEST_LANE_2 := test-c openssh-docs openssh-nm-bookworm openssh-sessions-bookworm openssh-nm-trixie \
	openssh-sessions-trixie openssh-t-exec-trixie test-go test-russh test-nostd test-python test-python-abi3 \
	test-rustdoc
test: deps-runner
	@unknown="$(filter-out $(TEST_SUITES),$(TEST_LANE_2))"; \
	if [ -n "$$unknown" ]; then echo "TEST_LANE_2 names suites that are not in TEST_SUITES: $$unknown"; exit 1; fi
ifeq ($(TEST_JOBS),1)
	@python3 scripts/test.py $(MAKE) --lane "$(TEST_SUITES)"
else
	@python3 scripts/test.py $(MAKE) --lane "$(filter-out $(TEST_LANE_2),$(TEST_SUITES))" --lane "$(TEST_LANE_2)"
endif

# The suites `make test` runs, in order.
.PHONY: list-suites
list-suites:
	@echo $(TEST_SUITES)

# Python 3 runs the suites (scripts/suite.py, scripts/test.py).
deps-runner:
	@if ! command -v python3 >/dev/null 2>&1; then \
		echo "installing python3 (make test's runner)"; \
		$(call apt_install,python3); \
	fi

# The reference check (scripts/check_references.py): check-references.
include scripts/check-references.mk
# Style and structure: lint (rustfmt, clippy), check-module-graph.
include scripts/lint.mk

deps: deps-nettle deps-chromium deps-openssl

# GNU Nettle is the differential oracle of the UMAC tests.
deps-nettle:
	@if ! pkg-config --exists nettle 2>/dev/null; then \
		echo "installing nettle-dev (differential oracle)"; \
		$(call apt_install,pkg-config nettle-dev); \
	fi

# Debian's chromium renders the `fastmac bench` report headless in
# crates/fastmac-cli/tests/report.rs.
deps-chromium:
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium (renders the bench report in the report test)"; \
		$(call apt_install,chromium); \
	fi

# Test-only cfgs, set through RUSTFLAGS and never by a Cargo feature:
# - fastmac_nettle: the tests that link GNU Nettle (the differential oracle),
#   so plain `cargo test` needs no nettle-dev;
# - fastmac_backend_env: the library reads FASTMAC_BACKEND, so test-backends
#   can force each NH backend.
# Every native Rust suite sets them alike, so all share test-rust's build.
BACKEND_ENV_FLAGS := --cfg fastmac_backend_env
TEST_CFGS := --cfg fastmac_nettle $(BACKEND_ENV_FLAGS)
TEST_RUSTFLAGS := $(strip $(RUSTFLAGS) $(TEST_CFGS))

# The test binaries the cross suites run under qemu-user (test-cross): the
# byte-order-sensitive ones, that is the vector files, the arithmetic (the
# library's unit tests), the Badger known answers and Rabbit's RFC vectors,
# and the SSH wire formats. `umac` (tests/umac.rs) holds the RFC 4418
# vectors, the RFC-literal model and backends_agree, which compares NEON
# with portable NH; its streaming, alignment and sharing tests, in the same
# binary, run there too. tests/vector_files_covered.rs reads this list
# (FASTMAC_CROSS_TESTS) and fails when a vector file is read by no test in it.
CROSS_TESTS := umac hmac_vectors badger_kat badger ssh vector_files_covered
export FASTMAC_CROSS_TESTS := $(CROSS_TESTS)

# The whole workspace once, with every feature the workspace's crates turn on
# (the CLI turns on `parallel`, so tests/parallel.rs and the message past
# 2^32 bytes of tests/parallel_above_4gib.rs run here). The doc-tests of the
# C, CLI and report crates (they have no examples) and the CLI's binary (no
# unit tests) run no test here; every other test target must run at least one.
# The gears crate's unit tests include T8 (1-byte tags), which only that
# build has, and its forgery-rate test (crates/fastmac-gears/src/t8_forgery_rate.rs).
TEST_RUST_EMPTY := --allow-empty 'Doc-tests fastmac_c' --allow-empty 'Doc-tests fastmac_cli' \
	--allow-empty 'Doc-tests fastmac_report' \
	--allow-empty 'unittests src/main.rs'
TEST_SUITES += test-rust
# The selection and features of test-rust's build, which test-backends
# reuses (with `-p fastmac` alone, Cargo would unify other features and
# rebuild); --locked: the build fails where Cargo.lock no longer matches
# the manifests, rather than resolving other versions than the committed
# ones.
TEST_RUST_BUILD := --workspace --features fastmac-c/openssh --locked
# The modules of UMAC's one test binary (crates/fastmac/tests/umac.rs): each
# must run a test here, so that a module behind a lost `#![cfg(...)]` fails
# the suite as a test file of its own would (scripts/suite.py --expect).
UMAC_TEST_MODULES := $(shell sed -n 's/^mod \([a-z0-9_]*\);$$/\1/p' crates/fastmac/tests/umac.rs)
UMAC_TEST_EXPECT := $(foreach module,$(filter-out common,$(UMAC_TEST_MODULES)),--expect '$(module)::')
test-rust: deps-nettle deps-openssl deps-chromium
	RUSTFLAGS="$(TEST_RUSTFLAGS)" $(SUITE) $(TEST_RUST_EMPTY) $(UMAC_TEST_EXPECT) -- $(CARGO) test $(TEST_RUST_BUILD)

# The fastmac command as test-rust built it (target/debug/fastmac: cargo
# test's profile, `test`, builds in target/debug), for the suites that run
# it: built here when test-rust has not run (--no-run builds every test
# binary of test-rust, which its later run reuses).
FASTMAC_TEST_CLI := $(CURDIR)/target/debug/fastmac
.PHONY: test-cli
test-cli: deps-nettle
	RUSTFLAGS="$(TEST_RUSTFLAGS)" $(CARGO) test -q $(TEST_RUST_BUILD) --no-run

# The NH backends this CPU runs, fastest last, as the library detects them
# (`fastmac list --backends`).
NH_BACKENDS_FILE := $(CURDIR)/target/nh-backends.txt
nh-backends: test-cli
	$(FASTMAC_TEST_CLI) list --backends > $(NH_BACKENDS_FILE)
	@echo "NH backends of this CPU, fastest last: $$(cut -f1 $(NH_BACKENDS_FILE) | tr '\n' ' ')"

# test-rust ran the whole fastmac suite on the fastest backend (and
# tests/backends.rs every backend against Nettle); each other backend runs,
# forced through FASTMAC_BACKEND, the test binaries whose results go through
# NH: UMAC's (tests/umac.rs) and the SSH MACs'.
NH_TESTS := umac ssh
TEST_SUITES += test-backends
test-backends: deps-nettle nh-backends
	RUSTFLAGS="$(TEST_RUSTFLAGS)" TEST_RUST_BUILD="$(TEST_RUST_BUILD)" scripts/test-backends.sh $(NH_BACKENDS_FILE) \
		$(NH_TESTS)

build:
	$(CARGO) build --workspace --release

# Portability suites: the byte-order-sensitive tests (CROSS_TESTS, and the
# gears wire format's) built for a big-endian machine (s390x) and for
# aarch64, run under qemu-user. Linkers and runners are set in
# .cargo/config.toml, with the `test` profile the native suites use. Under
# emulation FASTMAC_TEST_EMULATED=1 bounds the two costliest repetitions,
# and only them: rfc4418 skips the tag bit-flip rejections (8 * taglen
# re-hashes each) of the 1 MiB and 32 MiB rows, whose tags, one-shot and
# streamed, are checked; Badger's two streaming tests with byte-at-a-time
# pieces (tests/badger.rs, and the unit test of badger/backend.rs) stop at
# 1,100 bytes instead of 4,200. The Nettle differential tests need the
# host's libnettle and are x86_64-only.
CROSS_TARGETS := s390x-unknown-linux-gnu aarch64-unknown-linux-gnu
# $(1): the target.
cross_test = FASTMAC_TEST_EMULATED=1 $(SUITE) --note "$(CROSS_NOTE)" -- $(CARGO) test \
	-p fastmac -p fastmac-gears --lib $(addprefix --test ,$(CROSS_TESTS) gears_field) --target $(1)
CROSS_NOTE := the byte-order-sensitive tests only (CROSS_TESTS); rfc4418 checks the tags of its 1 MiB and 32 MiB \
	rows but not their bit-flip rejections, and Badger's byte-at-a-time streaming stops at 1,100 bytes (test-rust does both)

.PHONY: deps-cross test-cross test-cross-s390x test-cross-aarch64

deps-cross:
	@scripts/deps-cross.sh $(CROSS_TARGETS)

test-cross: test-cross-s390x test-cross-aarch64

TEST_SUITES += test-cross-s390x
test-cross-s390x: deps-cross
	$(call cross_test,s390x-unknown-linux-gnu)

# With the NEON NH backend forced: every suite then hashes through NEON, and
# backends_agree checks it against portable NH and that the force took hold.
TEST_SUITES += test-cross-aarch64
test-cross-aarch64: deps-cross
	FASTMAC_BACKEND=neon RUSTFLAGS="$(BACKEND_ENV_FLAGS)" $(call cross_test,aarch64-unknown-linux-gnu)

# The Python package: python-wheel (built and audited), test-python,
# test-python-abi3, bench-python.
include crates/fastmac-py/py.mk
# libfastmac, the C library: install, test-c, c-header, c-bench. Included
# last so that `test` stays the default goal.
include crates/fastmac-c/c.mk
# OpenSSH built with libfastmac, real sessions, its own MAC tests: test-openssh.
include crates/fastmac-c/openssh/openssh.mk
# Constant-time evidence (valgrind memcheck, ctgrind): test-ct.
include crates/fastmac-c/tests/ct/ct.mk
# Fuzz targets: test-fuzz (corpus replay), fuzz.
include fuzz/fuzz.mk
# The crate as published: test-crate (no_std builds, the packaged crate's
# tests and dry-run publish, Miri, the public API baseline).
include crates/fastmac/crate.mk
# Badger's costs in the shape of the paper's table 1 (ns and core cycles),
# and its criterion benchmarks (with Badger-64 against UMAC-64).
.PHONY: badger-table bench-badger
badger-table:
	$(CARGO) run --release -p fastmac --example badger_table

bench-badger:
	$(CARGO) bench -p fastmac-bench --bench badger
# The Go package (go/): test-go, go-bench.
include go/go.mk
# libcrypto for the CLI benchmark's OpenSSL comparators: deps-openssl.
include crates/fastmac-report/report.mk
# russh with UMAC (crates/fastmac-russh): russh-umac, test-russh, bench-russh.
include crates/fastmac-russh/russh.mk
# The timing-sensitive tests, many times under a CPU hog: flake-hunt.
include scripts/flake-hunt.mk
