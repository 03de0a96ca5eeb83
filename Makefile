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

.PHONY: test deps deps-nettle deps-chromium test-rust build test-backends test-parallel

test: deps test-rust test-backends test-parallel

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

test-rust:
	$(CARGO) test --workspace --release

build:
	$(CARGO) build --workspace --release

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

# The multi-core path (feature `parallel`) against the sequential one.
test-parallel: deps
	$(CARGO) test --release -p fastmac --features parallel --test parallel
