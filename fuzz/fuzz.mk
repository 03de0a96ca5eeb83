# Fuzz targets (fuzz/, cargo-fuzz + libFuzzer). Included by the top-level
# Makefile; paths relative to the root.
#
#   make test-fuzz                 replay the checked-in corpora once (bounded), built
#                                  unoptimized (--dev: debug assertions and overflow
#                                  checks on, and the cheapest build to compile)
#   make fuzz FUZZ_SECONDS=300     fuzz every target for FUZZ_SECONDS each
#
# cargo fuzz needs nightly flags (-Zsanitizer=address, sancov passes): the
# stable toolchain takes them with RUSTC_BOOTSTRAP=1.

FUZZ_TARGETS := umac_streaming umac_nettle badger_streaming gears_wire c_api cli_parse
FUZZ_SECONDS ?= 300
FUZZ_CARGO := cd fuzz && RUSTC_BOOTSTRAP=1 $(CARGO) fuzz

.PHONY: deps-fuzz test-fuzz fuzz

deps-fuzz: deps-nettle
	@$(CARGO) fuzz --version >/dev/null 2>&1 || { echo "installing cargo-fuzz"; $(CARGO) install --locked cargo-fuzz; }
	@command -v c++ >/dev/null || { echo "installing g++ (libFuzzer)"; $(call apt_install,g++); }

TEST_SUITES += test-fuzz
# cargo fuzz passes no --locked to cargo: the lock is checked first, so that
# the build uses the versions of fuzz/Cargo.lock, not newly resolved ones.
test-fuzz: deps-fuzz
	@if ! (cd fuzz && $(CARGO) metadata --locked --format-version 1 >/dev/null); then \
		echo "fuzz/Cargo.lock does not match the manifests: run cargo metadata in fuzz/ and commit the lock"; exit 1; \
	fi
	$(FUZZ_CARGO) build --dev
	$(SUITE) -- fuzz/replay.sh $(FUZZ_TARGETS)

fuzz: deps-fuzz
	@set -e; for t in $(FUZZ_TARGETS); do \
		$(FUZZ_CARGO) run -O $$t corpus/$$t -- -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1; \
	done
