# Style and structure checks, suites of `make test`:
#
#   make lint                 rustfmt --check (the workspace and the fuzz/
#                             workspace) and clippy -D warnings over every
#                             target, with the default features, and with the
#                             OpenSSH drop-in's feature and the test cfgs
#                             (scripts/lint.sh)
#   make check-module-graph   no import cycle and no import of an enclosing
#                             module among crates/fastmac/src's modules
#                             (scripts/check_module_graph.py), after its own
#                             tests with their negative controls
#                             (scripts/test_check_module_graph.py)
#
# Clippy builds in target/lint (test-rustdoc's build directory too), not in
# the test builds' target/debug, so that neither invalidates the other's
# cache.
.PHONY: lint check-module-graph

LINT_TARGET := $(CURDIR)/target/lint

TEST_SUITES += lint
lint: deps-nettle
	LINT_TARGET=$(LINT_TARGET) TEST_CFGS="$(TEST_CFGS)" CARGO="$(CARGO)" $(SUITE) -- scripts/lint.sh

TEST_SUITES += check-module-graph
check-module-graph: deps-check-references
	$(SUITE)/tests -- python3 scripts/test_check_module_graph.py
	$(SUITE)/graph -- scripts/check.sh "no import cycle and no import of an enclosing module in crates/fastmac/src" \
		python3 scripts/check_module_graph.py crates/fastmac/src
