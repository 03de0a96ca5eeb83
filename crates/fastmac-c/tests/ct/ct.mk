# Constant-time evidence (ctgrind): ct_check.c under valgrind memcheck with
# the key and the received tag marked undefined; see the comment atop
# ct_check.c. Included by the top-level Makefile; paths relative to the root.
#
# The library is built with debug info into its own target dir: memcheck
# then names inlined frames, and ct.supp can declassify exactly the verify
# verdict and Badger's key rejection sampling, nothing else in the functions
# around them. Every NH backend valgrind can run is exercised (it has no
# AVX-512; the automatic choice under valgrind is the best of the rest),
# forced through FASTMAC_BACKEND, which the library reads only when built
# with --cfg fastmac_backend_env, as here.

CT_DIR := crates/fastmac-c/tests/ct
CT_TARGET := $(CURDIR)/target/ct-build
CT_OUT := $(CURDIR)/target/ct
CT_LIBS := $(CT_TARGET)/release/libfastmac_c.a $(C_STD_LIBS)
CT_VALGRIND := valgrind -q --num-callers=40 --error-exitcode=99
CT_BACKENDS := auto portable \
	$(if $(shell grep -qw sse2 /proc/cpuinfo 2>/dev/null && echo y),sse2) \
	$(if $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo y),avx2)

.PHONY: test-ct

test-ct: deps-c
	CARGO_TARGET_DIR=$(CT_TARGET) CARGO_PROFILE_RELEASE_DEBUG=limited RUSTFLAGS="--cfg fastmac_backend_env" \
		$(CARGO) build --release -p fastmac-c
	@grep -qa FASTMAC_BACKEND $(CT_TARGET)/release/libfastmac_c.a \
		|| { echo "ct: this build must read FASTMAC_BACKEND (the installed one must not: lean.sh)"; exit 1; }
	mkdir -p $(CT_OUT)
	$(CC) $(C_TEST_CFLAGS) -I$(C_CRATE)/include $(CT_DIR)/ct_check.c $(CT_LIBS) -o $(CT_OUT)/ct_check
	$(CC) $(C_TEST_CFLAGS) -DSECRET_BRANCH_CONTROL -I$(C_CRATE)/include $(CT_DIR)/ct_check.c $(CT_LIBS) \
		-o $(CT_OUT)/ct_control
	@set -e; for backend in $(CT_BACKENDS); do \
		echo "== constant-time check under memcheck, NH backend $$backend"; \
		if [ $$backend = auto ]; then unset FASTMAC_BACKEND; else export FASTMAC_BACKEND=$$backend; fi; \
		$(CT_VALGRIND) --suppressions=$(CT_DIR)/ct.supp $(CT_OUT)/ct_check; \
	done
	@echo "negative controls: without ct.supp, and with a branch on a key byte, memcheck must report"
	@set -e; \
	! $(CT_VALGRIND) $(CT_OUT)/ct_check > /dev/null 2> $(CT_OUT)/unsuppressed.log; \
	grep -q 'redraw_until_below_p' $(CT_OUT)/unsuppressed.log; \
	grep -q 'fastmac_mac_verify' $(CT_OUT)/unsuppressed.log; \
	grep -q 'fastmac_ssh_mac_verify' $(CT_OUT)/unsuppressed.log; \
	! $(CT_VALGRIND) --suppressions=$(CT_DIR)/ct.supp $(CT_OUT)/ct_control > /dev/null 2> $(CT_OUT)/control.log; \
	grep -q 'ct_check.c' $(CT_OUT)/control.log; \
	echo "negative controls: both reported"
