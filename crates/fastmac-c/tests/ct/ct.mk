# Constant-time evidence (ctgrind): ct_check.c under valgrind memcheck with
# the key and the received tag marked undefined; see the comment atop
# ct_check.c. Included by the top-level Makefile; paths relative to the root.
#
# The library is built with debug info into its own target dir: memcheck
# then names inlined frames, and ct.supp can declassify exactly the verify
# verdict and Badger's key rejection sampling, nothing else in the functions
# around them. run.sh runs ct_check under memcheck once per NH backend that
# valgrind runs (as the library lists them under valgrind, which has no
# AVX-512), forced through FASTMAC_BACKEND, which the library reads only when
# built with --cfg fastmac_backend_env, as here; then the negative controls.

CT_DIR := crates/fastmac-c/tests/ct
CT_TARGET := $(CURDIR)/target/ct-build
CT_OUT := $(CURDIR)/target/ct
CT_LIBS := $(CT_TARGET)/release/libfastmac_c.a $(C_STD_LIBS)

.PHONY: test-ct

TEST_SUITES += test-ct
test-ct: deps-c nh-backends
	CARGO_TARGET_DIR=$(CT_TARGET) CARGO_PROFILE_RELEASE_DEBUG=limited RUSTFLAGS="--cfg fastmac_backend_env" \
		$(CARGO) build --release -p fastmac-c
	mkdir -p $(CT_OUT)
	$(CC) $(C_TEST_CFLAGS) -I$(C_CRATE)/include $(CT_DIR)/ct_check.c $(CT_LIBS) -o $(CT_OUT)/ct_check
	$(CC) $(C_TEST_CFLAGS) -DSECRET_BRANCH_CONTROL -I$(C_CRATE)/include $(CT_DIR)/ct_check.c $(CT_LIBS) \
		-o $(CT_OUT)/ct_control
	$(SUITE) -- $(CT_DIR)/run.sh $(CT_TARGET)/release/libfastmac_c.a $(CT_OUT) $(FASTMAC_TEST_CLI)
