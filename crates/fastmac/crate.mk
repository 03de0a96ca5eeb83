# The fastmac crate as its users get it; included by the root Makefile
# (paths relative to the root):
#
# * test-nostd: `default-features = false` builds for two targets without an
#   operating system (UMAC, Badger, the SSH UMACs, nonce counters; no
#   allocator), in debug and release, and one with `alloc` and `hmac`; and
#   a check that without `hmac` (with and without `alloc`) no hash crate is
#   compiled.
# * test-package: the .crate that `cargo package` makes, unpacked under
#   target/ and tested there on its own (offline, its own target dir), then
#   `cargo publish --dry-run`.
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

# What the feature `hmac` brings, and a UMAC-only build must not compile.
NOSTD_HASH_CRATES := hmac|md-5|ripemd|sha1|sha2
# The aes crate's AES-NI code does not compile unoptimized for a target
# without SSE (LLVM cannot split its vector operations there): a debug
# build for x86_64-unknown-none takes the crate's software AES, as the
# crate README tells users to.
NOSTD_DEBUG_X86_RUSTFLAGS := --cfg aes_backend="soft"

test-nostd: deps-nostd
	@set -e; checks=0; \
	for t in $(NOSTD_TARGETS); do \
		for profile in dev release; do \
			rustflags=; \
			if [ "$$t $$profile" = "x86_64-unknown-none dev" ]; then rustflags='$(NOSTD_DEBUG_X86_RUSTFLAGS)'; fi; \
			echo "== no_std build of fastmac for $$t ($$profile) $$rustflags"; \
			RUSTFLAGS="$$rustflags" $(CARGO) build --profile $$profile -p fastmac --no-default-features --target $$t; \
			checks=$$((checks + 1)); \
		done; \
	done; \
	echo "== no_std build of fastmac with alloc and hmac for thumbv7em-none-eabi (release)"; \
	$(CARGO) build --release -p fastmac --no-default-features --features alloc,hmac --target thumbv7em-none-eabi; \
	checks=$$((checks + 1)); \
	for features in "" alloc; do \
		echo "== dependencies of fastmac without default features, with [$$features]"; \
		deps=$$($(CARGO) tree -p fastmac --no-default-features --features "$$features" -e normal --prefix none); \
		echo "$$deps" | grep -q '^fastmac ' || { echo "cargo tree listed no fastmac"; exit 1; }; \
		if echo "$$deps" | grep -E '^($(NOSTD_HASH_CRATES)) '; then \
			echo "test-nostd: the crates above are compiled without the feature hmac"; exit 1; \
		fi; \
		checks=$$((checks + 1)); \
	done; \
	echo "test-nostd: $$checks checks passed (4 no_std builds in debug and release, 1 with alloc and hmac, 2 dependency checks)"

# The version of the workspace, which the .crate file is named after.
CRATE_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
PACKAGE_TEST := $(CURDIR)/target/package-test

# --no-verify: the unpacked package's own build and tests below are the
# verification (a stricter one: tests, not only a build). --allow-dirty: a
# test run, not a release; a release is made from a clean checkout.
test-package: deps-nettle
	$(CARGO) package -p fastmac --allow-dirty --no-verify
	rm -rf $(PACKAGE_TEST) && mkdir -p $(PACKAGE_TEST)
	tar -xzf target/package/fastmac-$(CRATE_VERSION).crate -C $(PACKAGE_TEST)
	@echo "== the packaged crate's tests, from $(PACKAGE_TEST)/fastmac-$(CRATE_VERSION)"
	cd $(PACKAGE_TEST)/fastmac-$(CRATE_VERSION) && \
		CARGO_TARGET_DIR=$(CURDIR)/target/package-build $(CARGO) test --release --offline
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
# tests, run natively only. Each run must have run tests: a filter that
# matches nothing must not pass silently.
MIRI_LIB_FILTERS := nonce:: error:: badger::keys:: umac::nh::tests::portable \
	umac::pdf::tests::jumps_refill_one_block_and_counters_resume_runs \
	traits::tests::wrong_key_lengths
MIRI_LOG := $(CURDIR)/target/miri.log

test-miri: deps-nightly
	@set -o pipefail; \
	$(CARGO) +$(NIGHTLY) miri test -p fastmac --lib -- $(MIRI_LIB_FILTERS) 2>&1 | tee $(MIRI_LOG); \
	$(CARGO) +$(NIGHTLY) miri test -p fastmac-c --features openssh --test arguments 2>&1 | tee -a $(MIRI_LOG); \
	runs=$$(grep -c '^test result: ok\. [1-9]' $(MIRI_LOG)); \
	[ "$$runs" = 2 ] || { echo "test-miri: a Miri run ran no test"; exit 1; }

TOOLS := $(CURDIR)/target/tools
PUBLIC_API := $(TOOLS)/bin/cargo-public-api
PUBLIC_API_BASELINE := crates/fastmac/public-api.txt
# Default features (std): what `fastmac = "..."` gives a user.
PUBLIC_API_RUN = $(PUBLIC_API) --manifest-path crates/fastmac/Cargo.toml -sss

deps-public-api: deps-nightly
	@[ -x $(PUBLIC_API) ] || $(CARGO) install --locked --root $(TOOLS) cargo-public-api

test-public-api: deps-public-api
	@$(PUBLIC_API_RUN) > target/public-api.txt
	@diff -u $(PUBLIC_API_BASELINE) target/public-api.txt || \
		{ echo "the public API changed: review the diff, then 'make public-api' updates the baseline"; exit 1; }

public-api: deps-public-api
	$(PUBLIC_API_RUN) > $(PUBLIC_API_BASELINE)

RUSTDOC_CRATES := fastmac fastmac_gears fastmac_c fastmac_cli _fastmac
# rustdoc links another crate's items only if that crate's folder exists
# under target/doc when it starts, and otherwise leaves them as literal text
# without a warning; while fastmac's own rustdoc runs, its folder may not.
# So the folders are made first and the crates documented one at a time
# (their dependencies checked in parallel before).
test-rustdoc:
	mkdir -p $(foreach crate,$(RUSTDOC_CRATES),target/doc/$(crate))
	$(CARGO) check --workspace --lib
	RUSTDOCFLAGS='-D warnings' $(CARGO) doc --no-deps --workspace --lib -j1
	@pages=$$(for crate in $(RUSTDOC_CRATES); do find target/doc/$$crate -name index.html; done); \
	if [ -z "$$pages" ]; then echo "rustdoc: no pages under target/doc"; exit 1; fi; \
	if grep -lE '\[<code>[^<]*</code>\]' $$pages; then \
		echo "rustdoc left the links above as literal [name] text"; exit 1; \
	fi; \
	echo "rustdoc: $$(echo "$$pages" | wc -w) crate and module pages, every link rendered"

# Mutation testing (cargo-mutants, installed under target/tools): each
# mutant of the arithmetic's files (UMAC's layers with the portable NH,
# Badger, the tag comparison, the nonce counter) built and checked by the
# library's unit tests (the layers' tests beside each step, with the RFC-text
# L2 reference, the NH backends against portable, the pad cache), which take
# a second; the integration suites would cost minutes per mutant. Not part
# of `make test`: on two shared cores a mutant costs about ten seconds and
# there are over a thousand; narrow it with MUTANTS_FILES (globs relative
# to the root). cargo-mutants exits non-zero if any mutant survives; the
# outcomes are in target/mutants/mutants.out (docs/testing.md section 4).
MUTANTS := $(TOOLS)/bin/cargo-mutants
MUTANTS_VERSION := 27.1.0
MUTANTS_FILES := crates/fastmac/src/tag.rs crates/fastmac/src/nonce.rs crates/fastmac/src/umac/kdf.rs \
	crates/fastmac/src/umac/pdf.rs crates/fastmac/src/umac/nh/portable.rs crates/fastmac/src/umac/l1.rs \
	crates/fastmac/src/umac/l2/*.rs crates/fastmac/src/umac/l3.rs crates/fastmac/src/umac/uhash.rs \
	crates/fastmac/src/badger/*.rs

.PHONY: mutants deps-mutants

deps-mutants:
	@[ -x $(MUTANTS) ] || $(CARGO) install --locked --root $(TOOLS) --version $(MUTANTS_VERSION) cargo-mutants

mutants: deps-mutants
	$(MUTANTS) mutants -p fastmac $(foreach file,$(MUTANTS_FILES),-f '$(file)') --cargo-arg=--lib \
		--minimum-test-timeout 60 -o target/mutants
