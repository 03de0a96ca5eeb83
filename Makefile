# fastmac: `make test` installs what a fresh machine lacks, builds, and runs
# every test. Tests are built with optimization ([profile.test] opt-level 3,
# and --release): the crypto tests hash tens of MiB.

SHELL := /bin/bash
CARGO ?= cargo
export DEBIAN_FRONTEND := noninteractive

# apt-get update runs at most once per make invocation, and only when an
# install is needed.
APT_UPDATED := $(CURDIR)/target/.apt-updated
define apt_install
	mkdir -p target; \
	if [ ! -f $(APT_UPDATED) ]; then apt-get update -qq && touch $(APT_UPDATED); fi; \
	apt-get install -y -qq --no-install-recommends $(1)
endef

.PHONY: test deps deps-nettle test-rust build test-backends test-parallel test-gears-t8 deps-chromium

test: check-references lint check-module-graph deps test-rust test-backends test-parallel test-gears-t8 test-cross test-c test-python test-python-abi3 test-ct test-fuzz test-go test-openssh test-crate test-russh

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
#   can force each NH backend under every suite.
# test-rust, test-backends and test-parallel set them alike, so they share one
# build cache.
BACKEND_ENV_FLAGS := --cfg fastmac_backend_env
TEST_CFGS := --cfg fastmac_nettle $(BACKEND_ENV_FLAGS)
test-rust test-backends test-parallel: export RUSTFLAGS += $(TEST_CFGS)

test-rust: deps-nettle deps-openssl
	$(CARGO) test --workspace --release --features fastmac-c/openssh

# T8 (1-byte tags) exists only in builds with the cfg fastmac_gears_t8, set
# here and never by a Cargo feature a dependent could enable. Its own run
# (the gears unit tests with T8 among the profiles, and gears_t8: the harness
# observes forgeries at the 2^-8 rate) caches its build in target/gears-t8.
test-gears-t8:
	RUSTFLAGS="$(RUSTFLAGS) --cfg fastmac_gears_t8" CARGO_TARGET_DIR=$(CURDIR)/target/gears-t8 \
		$(CARGO) test --release -p fastmac-gears --lib --test gears_t8

build:
	$(CARGO) build --workspace --release

# Portability suites: the library crates' tests (fastmac, fastmac-gears) built
# for a big-endian machine (s390x) and for aarch64, run under qemu-user.
# Linkers and runners are set in .cargo/config.toml. Release mode. Under emulation
# FASTMAC_TEST_EMULATED=1 bounds the costliest repetition, and only it:
# rfc4418 skips the tag bit-flip rejections (8 * taglen re-hashes each) of the
# 1 MiB and 32 MiB rows; those rows' tags, one-shot and streamed, are checked.
# The Nettle differential tests (nettle_differential, backends) need the
# host's libnettle and are x86_64-only.
CROSS_TARGETS := s390x-unknown-linux-gnu aarch64-unknown-linux-gnu
CROSS_TEST = FASTMAC_TEST_EMULATED=1 $(CARGO) test --release -p fastmac -p fastmac-gears --target

.PHONY: deps-cross test-cross test-cross-s390x test-cross-aarch64

deps-cross:
	@for t in $(CROSS_TARGETS); do \
		rustup target list --installed | grep -qx "$$t" || rustup target add "$$t"; \
	done
	@pkgs=""; \
	[ -x "$$(command -v s390x-linux-gnu-gcc)" ] && [ -f /usr/s390x-linux-gnu/lib/crt1.o ] || \
		pkgs="$$pkgs gcc-s390x-linux-gnu libc6-dev-s390x-cross"; \
	[ -x "$$(command -v aarch64-linux-gnu-gcc)" ] && [ -f /usr/aarch64-linux-gnu/lib/crt1.o ] || \
		pkgs="$$pkgs gcc-aarch64-linux-gnu libc6-dev-arm64-cross"; \
	[ -x "$$(command -v qemu-s390x)" ] && [ -x "$$(command -v qemu-aarch64)" ] || pkgs="$$pkgs qemu-user"; \
	if [ -n "$$pkgs" ]; then \
		echo "installing$$pkgs (cross suites)"; \
		$(call apt_install,$$pkgs); \
	fi

test-cross: test-cross-s390x test-cross-aarch64

test-cross-s390x: deps-cross
	$(CROSS_TEST) s390x-unknown-linux-gnu

# With the NEON NH backend forced: every suite then hashes through NEON, and
# backends_agree checks it against portable NH and that the force took hold.
test-cross-aarch64: deps-cross
	FASTMAC_BACKEND=neon RUSTFLAGS="$(BACKEND_ENV_FLAGS)" $(CROSS_TEST) aarch64-unknown-linux-gnu

# Every NH backend this CPU supports, forced in turn through FASTMAC_BACKEND,
# under the library's tests (the backends test checks the variable took).
NH_BACKENDS := portable \
	$(if $(shell grep -qw sse2 /proc/cpuinfo 2>/dev/null && echo y),sse2) \
	$(if $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo y),avx2) \
	$(if $(shell grep -w avx512f /proc/cpuinfo 2>/dev/null | grep -w avx512bw | grep -qw avx512vl && echo y),avx512) \
	$(if $(shell grep -qw asimd /proc/cpuinfo 2>/dev/null && echo y),neon)

test-backends: deps
	@for backend in $(NH_BACKENDS); do \
		echo "== NH backend $$backend"; \
		FASTMAC_BACKEND=$$backend $(CARGO) test --release -p fastmac --lib --tests || exit 1; \
	done

# The multi-core path (feature `parallel`) against the sequential one; one
# message above 2^32 bytes (about 20 s; test-rust runs it too, the CLI's
# dependency turns `parallel` on workspace-wide).
test-parallel: deps
	$(CARGO) test --release -p fastmac --features parallel --test parallel --test parallel_above_4gib
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
# The reference check (scripts/check_references.py): check-references.
include scripts/check-references.mk
# Style and structure: lint (rustfmt, clippy), check-module-graph.
include scripts/lint.mk
# The crate as published: test-crate (no_std builds, the packaged crate's
# tests and dry-run publish, Miri, the public API baseline).
include crates/fastmac/crate.mk
# Badger's costs in the shape of the paper's table 1 (ns and core cycles),
# and its criterion benchmarks (with Badger-64 against UMAC-64).
.PHONY: badger-table bench-badger
badger-table:
	$(CARGO) run --release -p fastmac --example badger_table

bench-badger:
	$(CARGO) bench -p fastmac --bench badger
# The Go package (go/): test-go, go-bench.
include go/go.mk
# libcrypto for the CLI benchmark's OpenSSL comparators: deps-openssl.
include crates/fastmac-cli/cli.mk
# russh with UMAC (crates/fastmac-russh): russh-umac, test-russh, bench-russh.
include crates/fastmac-russh/russh.mk
