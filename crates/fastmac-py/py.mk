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
# provides runs them all but the SSH sessions against OpenSSH, which
# test-python runs (test-python-abi3). test-python also runs the buffer race
# test against a debug build of the extension (python-wheel-debug).

.PHONY: deps-python python-wheel python-wheel-debug test-python test-python-abi3 bench-python

PYTHON ?= python3
PYENV := $(CURDIR)/target/pyenv
PY := $(PYENV)/bin/python
PY_BUILD_PACKAGES := 'maturin>=1.15,<2' 'ziglang==0.17.1' 'abi3audit>=0.0.20' 'auditwheel>=6' 'umac==2.0'
# What the tests import: the oracles (PyPI umac), paramiko and asyncssh (the
# pinned major versions the package supports), mypy for the stub tests.
# (Unquoted: run-tests.sh splits the list at spaces.)
PY_TEST_PACKAGES := pytest numpy paramiko>=5,<6 asyncssh>=2.14,<3 umac==2.0 mypy>=1.10 typing_extensions
WHEEL_DIR := $(CURDIR)/target/wheels
WHEEL_DEBUG_DIR := $(CURDIR)/target/wheels-debug
PIP_QUIET := -q --disable-pip-version-check

# CPython 3.11 (pyenv's or Debian's) and the newest CPython 3 found.
PY311 = $(firstword $(wildcard $(HOME)/.pyenv/versions/3.11*/bin/python3) $(shell command -v python3.11))
PY_NEWEST = $(lastword $(shell for p in $(wildcard $(HOME)/.pyenv/versions/3.*/bin/python3) \
	$(wildcard /usr/bin/python3.[0-9] /usr/bin/python3.[0-9][0-9]); do \
	[ -x "$$p" ] && "$$p" -c 'import sys; print("%d.%05d" % sys.version_info[:2], sys.argv[1])' "$$p"; \
	done | sort -n | awk '{print $$2}'))

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

# The tests against the wheel file, in a fresh venv of one CPython, with no
# Rust toolchain on PATH (run-tests.sh). The differential tests call the Rust
# CLI, test-rust's (test-cli).
PY_RUN_TESTS = PY_TEST_PACKAGES="$(PY_TEST_PACKAGES)" FASTMAC_CLI=$(FASTMAC_TEST_CLI) \
	$(SUITE) -- crates/fastmac-py/run-tests.sh

# Every test on CPython 3.11, the oldest the abi3 wheel supports, the SSH
# sessions included (marked ssh_session); then the buffer race test again on
# the debug build, in a venv of its own with pytest alone.
TEST_SUITES += test-python
test-python: deps deps-python python-wheel python-wheel-debug test-cli
	$(PY_RUN_TESTS) $(PY311) $(WHEEL_DIR) $(CURDIR)/target/pytest-3.11 tests
	PY_TEST_PACKAGES=pytest $(SUITE)/debug-build-race -- crates/fastmac-py/run-tests.sh $(PY311) $(WHEEL_DEBUG_DIR) \
		$(CURDIR)/target/pytest-debug-build tests/test_buffer_race.py

# The same wheel on the newest CPython here, when it is newer than 3.11:
# every test but the SSH sessions, which need one CPython only (test-python).
TEST_SUITES += test-python-abi3
test-python-abi3: deps deps-python python-wheel test-cli
	@if [ "$$($(PY_NEWEST) -c 'import sys; print(sys.version_info[:2] > (3, 11))')" = True ]; then \
		$(PY_RUN_TESTS) $(PY_NEWEST) $(WHEEL_DIR) $(CURDIR)/target/pytest-newest tests -m 'not ssh_session'; \
	else \
		$(SUITE) --skip "one CPython here ($(PY_NEWEST), 3.11): test-python ran the wheel on it"; \
	fi

# Per-packet cost from Python: fastmac (ssh.MAC.compute, SequencedUMAC.tag)
# against the PyPI umac package and the stdlib's hmac, one interleaved run;
# then a bytearray read with the GIL held against copied first.
bench-python: python-wheel
	$(PY) -m pip install $(PIP_QUIET) --force-reinstall --no-deps $(WHEEL_DIR)/fastmac-*.whl
	$(PY) crates/fastmac-py/bench/ssh_mac_cost.py
	$(PY) crates/fastmac-py/bench/mutable_buffers.py
