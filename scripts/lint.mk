# Style and structure checks, part of `make test`:
#
#   make lint                 rustfmt --check (the workspace and the fuzz/
#                             workspace) and clippy with -D warnings, with the
#                             OpenSSH drop-in's feature and with the test cfgs
#   make check-module-graph   no import cycle and no import of an enclosing
#                             module among crates/fastmac/src's modules
#                             (scripts/check_module_graph.py, its tests first)
#
# Clippy builds into its own target directory per configuration, so that
# it does not invalidate the test builds' caches.
.PHONY: lint lint-fmt lint-clippy check-module-graph

CLIPPY = $(CARGO) clippy --workspace --all-targets
CLIPPY_TARGET := $(CURDIR)/target/clippy

lint: lint-fmt lint-clippy
	@echo "lint: rustfmt and clippy clean"

lint-fmt:
	$(CARGO) fmt --all --check
	$(CARGO) fmt --all --check --manifest-path fuzz/Cargo.toml

lint-clippy: deps-nettle
	CARGO_TARGET_DIR=$(CLIPPY_TARGET) $(CLIPPY) -- -D warnings
	CARGO_TARGET_DIR=$(CLIPPY_TARGET) $(CLIPPY) --features fastmac-c/openssh -- -D warnings
	RUSTFLAGS="$(RUSTFLAGS) $(TEST_CFGS)" CARGO_TARGET_DIR=$(CLIPPY_TARGET)/test-cfgs \
		$(CLIPPY) --features fastmac-c/openssh -- -D warnings

check-module-graph: deps-check-references
	python3 scripts/test_check_module_graph.py -q
	python3 scripts/check_module_graph.py crates/fastmac/src
