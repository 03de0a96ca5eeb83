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
.PHONY: deps-python test-python python-wheel bench-python test-python-abi3

test: deps test-rust test-backends test-parallel test-gears-t8 test-cross test-c test-python test-python-abi3 test-ct test-fuzz

deps: deps-nettle deps-chromium

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

# The tests that link GNU Nettle (the differential oracle) are built only
# under `--cfg fastmac_nettle`, so plain `cargo test` needs no nettle-dev.
# test-rust, test-backends and test-parallel set it alike, so they share one
# build cache; more test cfgs go into TEST_CFGS.
TEST_CFGS := --cfg fastmac_nettle
test-rust test-backends test-parallel: export RUSTFLAGS += $(TEST_CFGS)

test-rust: deps-nettle
	$(CARGO) test --workspace --release

# T8 (1-byte tags) exists only behind a feature: its own test run shows the
# harness observes forgeries at the 2^-8 rate.
test-gears-t8:
	$(CARGO) test --release -p fastmac --features gears-t8 --test gears_t8

build:
	$(CARGO) build --workspace --release

# Portability suites: the library crate's tests built for a big-endian machine
# (s390x) and for aarch64, run under qemu-user. Linkers and runners are set in
# .cargo/config.toml. Only the fastmac crate, release mode. Under emulation
# FASTMAC_TEST_EMULATED=1 bounds the costliest repetition, and only it:
# rfc4418 skips the tag bit-flip rejections (8 * taglen re-hashes each) of the
# 1 MiB and 32 MiB rows; those rows' tags, one-shot and streamed, are checked.
# The Nettle differential tests (nettle_differential, backends) need the
# host's libnettle and are x86_64-only.
CROSS_TARGETS := s390x-unknown-linux-gnu aarch64-unknown-linux-gnu
CROSS_TEST = FASTMAC_TEST_EMULATED=1 $(CARGO) test --release -p fastmac --target

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
	FASTMAC_BACKEND=neon $(CROSS_TEST) aarch64-unknown-linux-gnu

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
# --- Python package (crates/fastmac-py) and the real OpenSSH tests ----------
# A venv under target/ holds maturin, pytest, paramiko, numpy and the PyPI
# `umac` package (the compatibility oracle); the wheel is built by maturin in
# its own target dir (its PyO3 build flags differ from `cargo test`'s).
PYTHON ?= python3
PYENV := $(CURDIR)/target/pyenv
PY := $(PYENV)/bin/python
PY_PACKAGES := 'paramiko>=5,<6' 'maturin>=1.15,<2' pytest numpy 'umac==2.0'

deps-python:
	@if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then \
		echo "installing openssh-server and openssh-client (real-server tests)"; \
		$(call apt_install,openssh-server openssh-client); \
	fi
	@if [ ! -x $(PY) ]; then \
		$(PYTHON) -m venv $(PYENV) || { $(call apt_install,python3-venv); $(PYTHON) -m venv $(PYENV); }; \
	fi
	@if ! $(PY) -c 'import paramiko, maturin, pytest, numpy, umac' 2>/dev/null; then \
		echo "installing $(PY_PACKAGES) into $(PYENV)"; \
		$(PY) -m pip install -q --disable-pip-version-check $(PY_PACKAGES); \
	fi

python-wheel: deps-python
	rm -rf target/wheels
	cd crates/fastmac-py && CARGO_TARGET_DIR=$(CURDIR)/target/maturin $(PYENV)/bin/maturin build --release \
		-i $(PY) -o $(CURDIR)/target/wheels
	$(PY) -m pip install -q --disable-pip-version-check --force-reinstall --no-deps target/wheels/fastmac-*.whl

# The differential tests call the Rust CLI; the whole run is bounded in time.
test-python: deps deps-python python-wheel
	$(CARGO) build --release -p fastmac-cli
	cd crates/fastmac-py && FASTMAC_CLI=$(CURDIR)/target/release/fastmac \
		timeout 1500 $(PY) -m pytest -p no:cacheprovider -q tests

# The one abi3 wheel on the oldest and newest other CPythons of the machine
# (pyenv's 3.10 and 3.13 on this machine kind): API and paramiko-hook tests.
ABI3_PYTHONS := $(lastword $(sort $(wildcard $(HOME)/.pyenv/versions/3.10*/bin/python3))) \
	$(lastword $(sort $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3)))
test-python-abi3: python-wheel
	@if [ -z "$(strip $(ABI3_PYTHONS))" ]; then echo "no CPython 3.10/3.13 under ~/.pyenv: abi3 wheel tested on $(PY) only"; fi
	@for py in $(ABI3_PYTHONS); do \
		version=$$($$py -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
		venv=$(CURDIR)/target/pyenv-$$version; \
		echo "== abi3 wheel on CPython $$version"; \
		[ -x $$venv/bin/python ] || $$py -m venv $$venv || exit 1; \
		$$venv/bin/python -c 'import pytest, numpy, paramiko' 2>/dev/null || \
			$$venv/bin/python -m pip install -q --disable-pip-version-check pytest numpy 'paramiko>=5,<6' || exit 1; \
		$$venv/bin/python -m pip install -q --disable-pip-version-check --force-reinstall --no-deps target/wheels/fastmac-*.whl || exit 1; \
		(cd crates/fastmac-py && timeout 600 $$venv/bin/python -m pytest -p no:cacheprovider -q \
			tests/test_api.py tests/test_paramiko_hooks.py) || exit 1; \
	done

# Per-packet cost of fastmac.ssh.MAC.compute vs the PyPI umac package.
bench-python: python-wheel
	$(PY) crates/fastmac-py/bench/ssh_mac_cost.py
# libfastmac, the C library: install, test-c, c-header, c-bench. Included
# last so that `test` stays the default goal.
include crates/fastmac-c/c.mk
# Constant-time evidence (valgrind memcheck, ctgrind): test-ct.
include crates/fastmac-c/tests/ct/ct.mk
# Fuzz targets: test-fuzz (corpus replay), fuzz.
include fuzz/fuzz.mk
# Badger's costs in the shape of the paper's table 1 (ns and core cycles),
# and its criterion benchmarks (with Badger-64 against UMAC-64).
.PHONY: badger-table bench-badger
badger-table:
	$(CARGO) run --release -p fastmac --example badger_table

bench-badger:
	$(CARGO) bench -p fastmac --bench badger
