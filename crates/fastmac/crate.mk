# The fastmac crate as its users get it; included by the root Makefile
# (paths relative to the root):
#
# * test-nostd: `default-features = false` builds for two targets without an
#   operating system (UMAC, Badger, the SSH UMACs, nonce counters; no
#   allocator), in debug and release, and one with `alloc` and `hmac`; and
#   a check that without `hmac` (with and without `alloc`) no hash crate is
#   compiled.
# * test-package: the .crate that `cargo package` makes, unpacked under
#   target/, built there (offline) and its tests that read the package's own
#   files run, then `cargo publish --dry-run`.
# * test-miri: a bounded subset under Miri (nightly, installed when missing):
#   portable NH, the nonce counter, Badger's key sampling, errors, and the C
#   boundary's argument handling. SIMD backends are compiled out under
#   cfg(miri).
# * test-public-api: the public API (cargo public-api, on nightly rustdoc)
#   against crates/fastmac/public-api.txt; `make public-api` rewrites that
#   baseline after an intended change.
# * test-rustdoc: the workspace's library documentation (fastmac with docs.rs's
#   features, which the CLI turns on), every rustdoc warning an error (broken intra-doc links among
#   them), and no link left as literal "[`name`]" text in the pages of our
#   own crates and modules (rustdoc does that without a warning for a
#   re-exported extern crate).

.PHONY: test-crate test-nostd test-package test-miri test-public-api public-api test-rustdoc
.PHONY: deps-nostd deps-nightly deps-public-api

test-crate: test-nostd test-package test-miri test-public-api test-rustdoc

NOSTD_TARGETS := x86_64-unknown-none thumbv7em-none-eabi

deps-nostd:
	@for t in $(NOSTD_TARGETS); do \
		rustup target list --installed | grep -qx "$$t" || rustup target add "$$t"; \
	done

TEST_SUITES += test-nostd
test-nostd: deps-nostd
	$(SUITE) -- crates/fastmac/nostd.sh thumbv7em-none-eabi $(NOSTD_TARGETS)

# The version of the workspace, which the .crate file is named after.
CRATE_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
PACKAGE_TEST := $(CURDIR)/target/package-test

# --no-verify: the unpacked package's own build and tests below are the
# verification. --allow-dirty: a test run, not a release; a release is made
# from a clean checkout. The unpacked crate builds in the workspace's target
# dir with test-rust's flags and `test` profile (.cargo/config.toml, which
# applies under target/ too), so that its dependencies are reused where
# their features agree, and its tests that read the package's own files (the
# vector files, its test sources) run from there, optimized.
PACKAGE_FILE_TESTS := umac hmac_vectors badger_kat ssh vector_files_covered
TEST_SUITES += test-package
test-package: deps-nettle
	$(CARGO) package -p fastmac --allow-dirty --no-verify
	rm -rf $(PACKAGE_TEST)
	mkdir -p $(PACKAGE_TEST)
	tar -xzf target/package/fastmac-$(CRATE_VERSION).crate -C $(PACKAGE_TEST)
	@echo "== the packaged crate's tests, from $(PACKAGE_TEST)/fastmac-$(CRATE_VERSION)"
	RUSTFLAGS="$(TEST_RUSTFLAGS)" CARGO_TARGET_DIR=$(CURDIR)/target $(SUITE) -- $(CARGO) test --offline \
		--manifest-path $(PACKAGE_TEST)/fastmac-$(CRATE_VERSION)/Cargo.toml $(addprefix --test ,$(PACKAGE_FILE_TESTS))
	$(CARGO) publish --dry-run -p fastmac --allow-dirty --no-verify

NIGHTLY := nightly
deps-nightly:
	@rustup toolchain list | grep -q "^$(NIGHTLY)" || rustup toolchain install $(NIGHTLY) --profile minimal
	@installed=$$(rustup +$(NIGHTLY) component list --installed); \
	for c in miri rust-src; do \
		echo "$$installed" | grep -q "^$$c" || rustup +$(NIGHTLY) component add $$c; \
	done

# Unit tests by module path, and the C boundary's argument tests. Bounded
# by what Miri interprets in minutes: AES runs in software there, so of the
# pad cache's tests only the one that walks its logic on a few dozen blocks
# (a run, jumps that refill one block, the counter resuming runs) runs under
# Miri; the ones that encrypt thousands of blocks, and the SSH sequencing
# tests, run natively only. Each run must have run tests (scripts/suite.py).
MIRI_LIB_FILTERS := nonce:: error:: badger::keys:: umac::nh::tests::portable \
	umac::pdf::tests::jumps_refill_one_block_and_counters_resume_runs \
	traits::tests::wrong_key_lengths
TEST_SUITES += test-miri
test-miri: deps-nightly
	$(SUITE)/lib -- $(CARGO) +$(NIGHTLY) miri test -p fastmac --lib -- $(MIRI_LIB_FILTERS)
	$(SUITE)/c-arguments -- $(CARGO) +$(NIGHTLY) miri test -p fastmac-c --features openssh --test arguments

# cargo-public-api, pinned, installed once per machine into cargo's own bin
# directory, as cargo-fuzz is (fuzz/fuzz.mk): a fresh clone reuses it rather
# than compiling it again under its target/.
PUBLIC_API_VERSION := 0.52.0
PUBLIC_API_BASELINE := crates/fastmac/public-api.txt
# Default features (std): what `fastmac = "..."` gives a user.
PUBLIC_API_RUN = $(CARGO) public-api --manifest-path crates/fastmac/Cargo.toml -sss

deps-public-api: deps-nightly
	@if [ "$$($(CARGO) public-api --version 2>/dev/null)" != "cargo-public-api $(PUBLIC_API_VERSION)" ]; then \
		echo "installing cargo-public-api $(PUBLIC_API_VERSION) into cargo's bin directory"; \
		$(CARGO) install --locked cargo-public-api@$(PUBLIC_API_VERSION); \
	fi

TEST_SUITES += test-public-api
test-public-api: deps-public-api
	$(PUBLIC_API_RUN) > target/public-api.txt
	$(SUITE) -- scripts/check.sh \
		"the public API is $(PUBLIC_API_BASELINE) (after an intended change, 'make public-api' updates it)" \
		diff -u $(PUBLIC_API_BASELINE) target/public-api.txt

public-api: deps-public-api
	$(PUBLIC_API_RUN) > $(PUBLIC_API_BASELINE)

RUSTDOC_CRATES := fastmac fastmac_gears fastmac_c fastmac_cli fastmac_report _fastmac
TEST_SUITES += test-rustdoc
# In make lint's build directory, whose check of the dependencies it reuses.
test-rustdoc:
	CARGO_TARGET_DIR=$(LINT_TARGET) CARGO="$(CARGO)" $(SUITE) -- crates/fastmac/rustdoc.sh $(RUSTDOC_CRATES)

# Mutation testing (cargo-mutants, installed under target/tools): each
# mutant of the arithmetic's files built and run against the tests that
# guard it. UMAC's layers (with the portable NH), the tag comparison and the
# nonce counter: the library's unit tests with `parallel` (the RFC-text L2
# reference, the RFC vectors, NH backends against portable, streaming and
# the multi-core path against one-shot), about ten seconds. Badger: its
# unit tests and integration tests (the paper's known answers, the
# level-by-level reference, the bad-input errors). Not part of `make test`:
# about 1,260 mutants, which take both cores for one to five hours
# (docs/testing.md section 8 has the times per machine), each built with
# the `mutants` profile (.cargo/config.toml: incremental, so that a
# mutant's build compiles only what its change touched).
# Narrow a run with MUTANTS_UMAC_FILES or MUTANTS_BADGER_FILES (globs
# relative to the root); `make -j2 mutants` runs the halves side by side.
# .cargo/mutants.toml leaves out the equivalent and unreachable mutants, so
# cargo-mutants exits non-zero only on a new survivor; the outcomes are in
# target/mutants/{umac,badger}/mutants.out (docs/testing.md section 8).
MUTANTS_ROOT := $(CURDIR)/target/tools
MUTANTS := $(MUTANTS_ROOT)/bin/cargo-mutants
MUTANTS_VERSION := 27.1.0
MUTANTS_UMAC_FILES := crates/fastmac/src/tag.rs crates/fastmac/src/nonce.rs crates/fastmac/src/umac/kdf.rs \
	crates/fastmac/src/umac/pdf.rs crates/fastmac/src/umac/nh/portable.rs crates/fastmac/src/umac/l1.rs \
	crates/fastmac/src/umac/l2/*.rs crates/fastmac/src/umac/l3.rs crates/fastmac/src/umac/uhash.rs
MUTANTS_BADGER_FILES := crates/fastmac/src/badger/*.rs
MUTANTS_RUN = $(MUTANTS) mutants -p fastmac --minimum-test-timeout 30 --profile mutants

.PHONY: mutants mutants-umac mutants-badger deps-mutants

deps-mutants:
	@[ -x $(MUTANTS) ] || $(CARGO) install --locked --root $(MUTANTS_ROOT) --version $(MUTANTS_VERSION) cargo-mutants

mutants: mutants-umac mutants-badger

mutants-umac: deps-mutants
	mkdir -p target/mutants/umac
	$(MUTANTS_RUN) $(foreach file,$(MUTANTS_UMAC_FILES),-f '$(file)') --features parallel --cargo-arg=--lib \
		-o target/mutants/umac

mutants-badger: deps-mutants
	mkdir -p target/mutants/badger
	$(MUTANTS_RUN) $(foreach file,$(MUTANTS_BADGER_FILES),-f '$(file)') --cargo-arg=--lib \
		--cargo-arg=--test=badger --cargo-arg=--test=badger_kat --cargo-arg=--test=bad_input -o target/mutants/badger
