# russh (crates.io) with the UMAC MACs: russh-umac, test-russh, bench-russh.
# Included from the root Makefile; paths are relative to the repository.
#
# russh-umac fetches the pinned russh from crates.io with cargo (a throwaway
# manifest under target/russh/fetch; cargo checks the archive's checksum
# against the index) and keeps three copies under target/russh/:
#   russh-$(RUSSH_VERSION)            as published (the benchmark's stock russh)
#   russh-$(RUSSH_VERSION)-umac       with russh-umac.patch: what users build
#   russh-$(RUSSH_VERSION)-umac-flip  plus russh-flip-tag.patch: every UMAC
#                                     tag sent has one bit flipped (the
#                                     negative control of test-russh)
# crates/fastmac-russh is its own cargo workspace (excluded from the root
# one, so `cargo test --workspace` never compiles russh); its
# [patch.crates-io] points at the -umac copy, and its build cache is
# target/russh/build.

.PHONY: russh-umac test-russh bench-russh deps-russh

RUSSH_VERSION := 0.65.1
RUSSH_CRATE := $(CURDIR)/crates/fastmac-russh
RUSSH_TARGET := $(CURDIR)/target/russh
RUSSH_STOCK := $(RUSSH_TARGET)/russh-$(RUSSH_VERSION)
RUSSH_UMAC := $(RUSSH_STOCK)-umac
RUSSH_FLIP := $(RUSSH_STOCK)-umac-flip
RUSSH_CARGO := cd $(RUSSH_CRATE) && CARGO_TARGET_DIR=$(RUSSH_TARGET)/build $(CARGO)
# The flip build: the same workspace with russh taken from the -umac-flip
# copy (a --config [patch] wins over the manifest's), and the feature that
# builds the refusal tests instead of the sessions.
RUSSH_FLIP_ARGS := --features flip-tag --config 'patch.crates-io.russh.path="$(RUSSH_FLIP)"'

# OpenSSH (the peer of the sessions) and patch(1) (applies the patches).
deps-russh:
	@if [ ! -x /usr/sbin/sshd ] || [ ! -x /usr/bin/ssh ] || [ ! -x /usr/bin/ssh-keygen ]; then \
		echo "installing openssh-server and openssh-client (russh sessions)"; \
		$(call apt_install,openssh-server openssh-client); \
	fi
	@if ! command -v patch >/dev/null; then echo "installing patch"; $(call apt_install,patch); fi

russh-umac: $(RUSSH_UMAC)/.patched $(RUSSH_FLIP)/.patched

$(RUSSH_STOCK)/.fetched: | deps-russh
	rm -rf $(RUSSH_TARGET)/fetch $(RUSSH_STOCK) && mkdir -p $(RUSSH_TARGET)/fetch
	printf '[package]\nname = "fetch-russh"\nversion = "0.0.0"\nedition = "2024"\n\n[lib]\npath = "lib.rs"\n\n[dependencies]\nrussh = { version = "=$(RUSSH_VERSION)", default-features = false, features = ["ring"] }\n\n[workspace]\n' \
		> $(RUSSH_TARGET)/fetch/Cargo.toml
	touch $(RUSSH_TARGET)/fetch/lib.rs
	set -o pipefail; manifest=$$($(CARGO) metadata --format-version 1 --manifest-path $(RUSSH_TARGET)/fetch/Cargo.toml | \
		grep -o '"manifest_path":"[^"]*/russh-$(RUSSH_VERSION)/Cargo.toml"' | head -n 1 | cut -d '"' -f 4); \
		if [ ! -f "$$manifest" ]; then echo "cargo did not fetch russh $(RUSSH_VERSION)"; exit 1; fi; \
		cp -r "$$(dirname "$$manifest")" $(RUSSH_STOCK)
	chmod -R u+w $(RUSSH_STOCK)
	touch $@

$(RUSSH_UMAC)/.patched: $(RUSSH_STOCK)/.fetched crates/fastmac-russh/russh-umac.patch
	rm -rf $(RUSSH_UMAC) && cp -r $(RUSSH_STOCK) $(RUSSH_UMAC) && rm $(RUSSH_UMAC)/.fetched
	cd $(RUSSH_UMAC) && patch -s -p1 < $(RUSSH_CRATE)/russh-umac.patch
	touch $@

$(RUSSH_FLIP)/.patched: $(RUSSH_UMAC)/.patched crates/fastmac-russh/russh-flip-tag.patch
	rm -rf $(RUSSH_FLIP) && cp -r $(RUSSH_UMAC) $(RUSSH_FLIP) && rm $(RUSSH_FLIP)/.patched
	cd $(RUSSH_FLIP) && patch -s -p1 < $(RUSSH_CRATE)/russh-flip-tag.patch
	touch $@

# The eight sessions against OpenSSH (tests/openssh_sessions.rs), then the
# negative control built against the -umac-flip copy
# (tests/openssh_refuses_flipped_tags.rs), each a part of the suite's row in
# make test's summary ($(SUITE)/PART: a run that passed no test fails, so a
# test file compiled out by a wrong feature cannot pass).
RUSSH_TEST = CARGO_TARGET_DIR=$(RUSSH_TARGET)/build $(CARGO) test --manifest-path $(RUSSH_CRATE)/Cargo.toml \
	--profile sessions --locked
RUSSH_SESSIONS := $(RUSSH_TEST) --test openssh_sessions -- --nocapture
RUSSH_REFUSALS := $(RUSSH_TEST) $(RUSSH_FLIP_ARGS) --test openssh_refuses_flipped_tags -- --nocapture
TEST_SUITES += test-russh
test-russh: deps-russh russh-umac
	@echo "== russh with UMAC against OpenSSH: four MACs, both directions"
	$(SUITE)/sessions -- env $(RUSSH_SESSIONS)
	@echo "== negative control: russh flipping one bit of every UMAC tag it sends"
	$(SUITE)/refusals -- env $(RUSSH_REFUSALS)

# Stock russh against patched russh, and UMAC against HMAC, in a loopback
# transfer (bench.sh; docs/russh.md section 5). The stock binary is built
# from a copy of this workspace whose [patch] points at the unpatched russh.
RUSSH_BENCH := $(RUSSH_TARGET)/bench
bench-russh: russh-umac
	@command -v perf >/dev/null || { echo "installing linux-perf"; $(call apt_install,linux-perf); }
	$(RUSSH_CARGO) build --release --locked --bin russh-bench
	mkdir -p $(RUSSH_BENCH) && cp $(RUSSH_TARGET)/build/release/russh-bench $(RUSSH_BENCH)/russh-bench-patched
	rm -rf $(RUSSH_TARGET)/stock-bench && mkdir -p $(RUSSH_TARGET)/stock-bench
	cp -r $(RUSSH_CRATE)/Cargo.toml $(RUSSH_CRATE)/Cargo.lock $(RUSSH_CRATE)/src $(RUSSH_TARGET)/stock-bench/
	sed -i -e 's#^russh = { path = .*#russh = { path = "$(RUSSH_STOCK)" }#' -e '/^fastmac = { path = /d' \
		$(RUSSH_TARGET)/stock-bench/Cargo.toml
	cd $(RUSSH_TARGET)/stock-bench && CARGO_TARGET_DIR=$(RUSSH_TARGET)/build $(CARGO) build --release --bin russh-bench
	cp $(RUSSH_TARGET)/build/release/russh-bench $(RUSSH_BENCH)/russh-bench-stock
	bash $(RUSSH_CRATE)/bench.sh $(RUSSH_BENCH)/russh-bench-stock $(RUSSH_BENCH)/russh-bench-patched $(RUSSH_BENCH)
