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

.PHONY: test deps deps-nettle test-rust build

test: deps test-rust

deps: deps-nettle

# GNU Nettle is the differential oracle of the UMAC tests.
deps-nettle:
	@if ! pkg-config --exists nettle 2>/dev/null; then \
		echo "installing nettle-dev (differential oracle)"; \
		$(call apt_install,pkg-config nettle-dev); \
	fi

test-rust:
	$(CARGO) test --workspace --release

build:
	$(CARGO) build --workspace --release

# Badger's costs in the shape of the paper's table 1 (ns and core cycles),
# and its criterion benchmarks (with Badger-64 against UMAC-64).
.PHONY: badger-table bench-badger
badger-table:
	$(CARGO) run --release -p fastmac --example badger_table

bench-badger:
	$(CARGO) bench -p fastmac --bench badger
