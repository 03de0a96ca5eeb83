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

.PHONY: test deps deps-nettle test-rust test-gears-t8 build

test: deps test-rust test-gears-t8

deps: deps-nettle

# GNU Nettle is the differential oracle of the UMAC tests.
deps-nettle:
	@if ! pkg-config --exists nettle 2>/dev/null; then \
		echo "installing nettle-dev (differential oracle)"; \
		$(call apt_install,pkg-config nettle-dev); \
	fi

test-rust:
	$(CARGO) test --workspace --release

# T8 (1-byte tags) exists only behind a feature: its own test run shows the
# harness observes forgeries at the 2^-8 rate.
test-gears-t8:
	$(CARGO) test --release -p fastmac --features gears-t8 --test gears_t8

build:
	$(CARGO) build --workspace --release
