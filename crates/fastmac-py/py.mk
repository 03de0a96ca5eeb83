# --- Python package (crates/fastmac-py): the wheel, its audits, its tests ---
# Included from the root Makefile (paths are relative to the repository).
#
# target/pyenv holds the build tools (maturin, zig from PyPI's ziglang,
# abi3audit, auditwheel) and the PyPI `umac` package for bench-python. The
# wheel is built by maturin in its own target dir (its PyO3 build flags
# differ from `cargo test`'s), linked by zig against glibc 2.17, audited
# (abi3audit --strict; auditwheel show must say manylinux_2_17), and its FILE is
# installed into a fresh venv per CPython, where the tests run with no Rust
# toolchain on PATH: CPython 3.11 (the oldest the abi3 wheel supports) runs
# every Python test (test-python); the newest CPython that pyenv or apt
# provides runs them all but the paramiko-against-sshd suite, which
# test-python covers (test-python-abi3). test-python also runs the buffer
# race test against a debug build of the extension (python-wheel-debug).

.PHONY: deps-python python-wheel python-wheel-debug test-python test-python-abi3 bench-python

PYTHON ?= python3
PYENV := $(CURDIR)/target/pyenv
PY := $(PYENV)/bin/python
PY_BUILD_PACKAGES := 'maturin>=1.15,<2' 'ziglang==0.17.1' 'abi3audit>=0.0.20' 'auditwheel>=6' 'umac==2.0'
# What the tests import: the oracles (PyPI umac), paramiko and asyncssh (the
# pinned major versions the package supports), mypy for the stub tests.
PY_TEST_PACKAGES := pytest numpy 'paramiko>=5,<6' 'asyncssh>=2.14,<3' 'umac==2.0' 'mypy>=1.10' typing_extensions
WHEEL_DIR := $(CURDIR)/target/wheels
WHEEL_DEBUG_DIR := $(CURDIR)/target/wheels-debug
PIP_QUIET := -q --disable-pip-version-check

# CPython 3.11 (pyenv's or Debian's) and the newest CPython 3 found.
PY311 = $(firstword $(wildcard $(HOME)/.pyenv/versions/3.11*/bin/python3) $(shell command -v python3.11))
PY_NEWEST = $(lastword $(shell for p in $(wildcard $(HOME)/.pyenv/versions/3.*/bin/python3) \
	$(wildcard /usr/bin/python3.[0-9] /usr/bin/python3.[0-9][0-9]); do \
	[ -x "$$p" ] && "$$p" -c 'import sys; print("%d.%05d" % sys.version_info[:2], sys.argv[1])' "$$p"; \
	done | sort -n | awk '{print $$2}'))
# PATH without the Rust toolchain, for the test runs.
NO_RUST_PATH := $(shell printf '%s' "$$PATH" | tr ':' '\n' | grep -v -e '/\.cargo/bin' -e '/\.rustup' | paste -sd: -)

deps-python:
	@if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then \
		echo "installing openssh-server and openssh-client (real-server tests)"; \
		$(call apt_install,openssh-server openssh-client); \
	fi
	@if [ -z "$(PY311)" ]; then echo "installing python3.11 and python3-venv"; $(call apt_install,python3.11 python3.11-venv); fi
	@if ! $(PYTHON) -m venv --help >/dev/null 2>&1 || ! $(PYTHON) -c 'import ensurepip' 2>/dev/null; then \
		$(call apt_install,python3-venv); \
	fi
	@if [ ! -x $(PY) ]; then $(PYTHON) -m venv $(PYENV); fi
	@if ! $(PY) -c 'import maturin, ziglang, umac' 2>/dev/null || [ ! -x $(PYENV)/bin/abi3audit ] || [ ! -x $(PYENV)/bin/auditwheel ]; then \
		echo "installing $(PY_BUILD_PACKAGES) into $(PYENV)"; \
		$(PY) -m pip install $(PIP_QUIET) $(PY_BUILD_PACKAGES); \
	fi

# The wheel, linked by zig (`--zig`, found through PATH) against glibc 2.17
# (manylinux2014: installs on RHEL 7, Debian 8, Ubuntu 14.04 and later), then
# its audits: abi3audit --strict fails on any symbol outside the 3.11 stable
# ABI; auditwheel show must find the manylinux_2_17 tag, and no later one.
# tests/test_wheel.py checks its metadata and files.
python-wheel: deps-python
	rm -rf $(WHEEL_DIR)
	cd crates/fastmac-py && PATH="$(PYENV)/bin:$$PATH" CARGO_TARGET_DIR=$(CURDIR)/target/maturin \
		$(PYENV)/bin/maturin build --release --zig --compatibility manylinux2014 -i $(PY) -o $(WHEEL_DIR)
	$(PYENV)/bin/abi3audit --strict --verbose $(WHEEL_DIR)/fastmac-*.whl
	@$(PYENV)/bin/auditwheel show $(WHEEL_DIR)/fastmac-*.whl | tee target/auditwheel-show.txt
	@if ! tr '\n' ' ' < target/auditwheel-show.txt | grep -q 'consistent with the following platform tag: "manylinux_2_17_'; then \
		echo "auditwheel: the wheel is not manylinux_2_17 (manylinux2014)"; exit 1; \
	fi

# A debug build of the extension (debug assertions and overflow checks on)
# for the buffer race test; not audited, never shipped.
python-wheel-debug: deps-python
	rm -rf $(WHEEL_DEBUG_DIR)
	cd crates/fastmac-py && CARGO_TARGET_DIR=$(CURDIR)/target/maturin $(PYENV)/bin/maturin build \
		-i $(PY) -o $(WHEEL_DEBUG_DIR)

# $(1): the interpreter; $(2): pytest arguments. A fresh venv, the wheel
# file, and pytest with no cargo or rustc on PATH (checked); fastmac must be
# imported from the venv, not the source tree.
define python_tests_in_fresh_venv
	@set -e; py=$(1); \
	version=$$($$py -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
	venv=$(CURDIR)/target/pytest-$$version; \
	echo "== fastmac wheel on CPython $$version ($$py), fresh venv $$venv"; \
	rm -rf $$venv; $$py -m venv $$venv; \
	$$venv/bin/python -m pip install $(PIP_QUIET) $(PY_TEST_PACKAGES); \
	$$venv/bin/python -m pip install $(PIP_QUIET) --no-deps $(WHEEL_DIR)/fastmac-*.whl; \
	cd crates/fastmac-py; \
	env PATH="$(NO_RUST_PATH)" sh -c '! command -v cargo && ! command -v rustc' >/dev/null || \
		{ echo "a Rust toolchain is still on the tests' PATH"; exit 1; }; \
	env PATH="$(NO_RUST_PATH)" $$venv/bin/python -c \
		'import fastmac, sys; assert fastmac.__file__.startswith(sys.prefix), fastmac.__file__'; \
	env PATH="$(NO_RUST_PATH)" FASTMAC_CLI=$(CURDIR)/target/release/fastmac \
		timeout 1500 $$venv/bin/python -m pytest -p no:cacheprovider -q $(2)
endef

# The differential tests call the Rust CLI (built first, with cargo). The
# buffer race test runs again on the debug build, in a venv of its own.
test-python: deps deps-python python-wheel python-wheel-debug
	$(CARGO) build --release -p fastmac-cli
	$(call python_tests_in_fresh_venv,$(PY311),tests)
	@set -e; venv=$(CURDIR)/target/pytest-debug-build; \
	echo "== buffer race test on the debug build, fresh venv $$venv"; \
	rm -rf $$venv; $(PY311) -m venv $$venv; \
	$$venv/bin/python -m pip install $(PIP_QUIET) pytest; \
	$$venv/bin/python -m pip install $(PIP_QUIET) --no-deps $(WHEEL_DEBUG_DIR)/fastmac-*.whl; \
	cd crates/fastmac-py; \
	env PATH="$(NO_RUST_PATH)" timeout 600 $$venv/bin/python -m pytest -p no:cacheprovider -q tests/test_buffer_race.py

test-python-abi3: deps deps-python python-wheel
	@if [ "$$($(PY_NEWEST) -c 'import sys; print(sys.version_info[:2] > (3, 11))')" != True ]; then \
		echo "the newest CPython here is $(PY_NEWEST), 3.11: test-python covers it"; \
	else \
		$(CARGO) build --release -p fastmac-cli && \
		$(MAKE) --no-print-directory python-tests-newest; \
	fi

.PHONY: python-tests-newest
python-tests-newest:
	$(call python_tests_in_fresh_venv,$(PY_NEWEST),tests --ignore=tests/test_openssh.py)

# Per-packet cost from Python: fastmac (ssh.MAC.compute, SequencedUMAC.tag)
# against the PyPI umac package and the stdlib's hmac, one interleaved run;
# then a bytearray read with the GIL held against copied first.
bench-python: python-wheel
	$(PY) -m pip install $(PIP_QUIET) --force-reinstall --no-deps $(WHEEL_DIR)/fastmac-*.whl
	$(PY) crates/fastmac-py/bench/ssh_mac_cost.py
	$(PY) crates/fastmac-py/bench/mutable_buffers.py
