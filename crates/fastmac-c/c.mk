# libfastmac (crates/fastmac-c): build, install, C tests, C benchmark.
# Included by the top-level Makefile; every path is relative to the root.
#
#   make install PREFIX=/opt/fastmac   lib/libfastmac.{so,a}, include/fastmac.h,
#                                      include/fastmac/umac.h, lib/pkgconfig/fastmac.pc;
#                                      lib/libfastmac-openssh.{so,a}, fastmac-openssh.pc and
#                                      fastmac-openssh-static.pc: OpenSSH's eight umac.h
#                                      functions only (feature openssh without api)
#   make test-c                        C tests (system cc), then all under valgrind, and the
#                                      root README's C example as written (tests/c/run.sh)
#   make c-header                      regenerate include/fastmac.h (cbindgen)
#   make c-example / c-bench           the OpenSSH-API example; umac_final timing

C_CRATE := crates/fastmac-c
C_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
C_MAJOR := $(firstword $(subst ., ,$(C_VERSION)))
# The lean library: no `std` (the crate's default feature), the `clib`
# profile (panic = "abort", fat LTO; workspace Cargo.toml), only the C crate
# types. Its archive and shared library link nothing beyond libc.
C_CARGO_LEAN := $(CARGO) rustc --profile clib -p fastmac-c --lib --no-default-features \
	--crate-type staticlib,cdylib
C_TARGET := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
C_BUILD := $(C_TARGET)/clib
# The `openssh` build (the feature alone: only the eight umac.h functions
# are exported, so LTO keeps only what they reach) has its own target dir:
# its libfastmac_c.* would otherwise overwrite the general library's.
C_OSSH_TARGET := $(C_TARGET)/openssh-dropin
C_OSSH_BUILD := $(C_OSSH_TARGET)/clib
# The archives as installed (api-archive.sh): one object each whose only
# global definitions are the C API, cargo's compiler_builtins members
# (libgcc's and libm's names) made local to it and its LLVM bitcode
# sections dropped; rewritten when cargo's archive or the script is newer.
C_ARCHIVE := $(C_BUILD)/libfastmac.a
C_OSSH_ARCHIVE := $(C_OSSH_BUILD)/libfastmac-openssh.a
C_API_ARCHIVE := $(C_CRATE)/api-archive.sh
define c_api_archive
	@if [ ! -f $(2) ] || [ $(1).a -nt $(2) ] || [ $(C_API_ARCHIVE) -nt $(2) ]; then \
		$(C_API_ARCHIVE) $(1).a $(1).so $(2); fi
endef
# What rustc reports for the lean staticlib (`--print native-static-libs`):
# nothing; libc, which every C program links, provides malloc and free.
C_LIBS_PRIVATE :=
# What a `std` build of the staticlib needs (Linux/glibc): test-ct's.
C_STD_LIBS := -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc

# libfastmac-openssh's pkg-config files: fastmac-openssh links the shared
# library (-lfastmac-openssh), fastmac-openssh-static the archive, named by
# its path (a -l option would find the .so first).
C_OSSH_DESCRIPTION := the OpenSSH umac.h functions (umac_new, ..., umac128_*) implemented by fastmac

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include

C_TEST_DIR := $(CURDIR)/target/c-test
C_TEST_PREFIX := $(C_TEST_DIR)/prefix
C_TEST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror

.PHONY: c-lib c-header install deps-c test-c c-example c-bench

c-lib:
	$(C_CARGO_LEAN) --features api
	$(C_CARGO_LEAN) --features openssh --target-dir $(C_OSSH_TARGET)
	$(call c_api_archive,$(C_BUILD)/libfastmac_c,$(C_ARCHIVE))
	$(call c_api_archive,$(C_OSSH_BUILD)/libfastmac_c,$(C_OSSH_ARCHIVE))

# cbindgen reads the crate with its macros expanded (tests/header.rs), which
# takes the nightly toolchain; the header test runs in test-rust.
c-header: deps-nightly
	FASTMAC_BLESS_HEADER=1 $(CARGO) test --release -p fastmac-c --test header
test-rust: deps-nightly

install: c-lib
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/fastmac
	install -m 0755 $(C_BUILD)/libfastmac_c.so $(DESTDIR)$(LIBDIR)/libfastmac.so.$(C_VERSION)
	ln -sf libfastmac.so.$(C_VERSION) $(DESTDIR)$(LIBDIR)/libfastmac.so.$(C_MAJOR)
	ln -sf libfastmac.so.$(C_MAJOR) $(DESTDIR)$(LIBDIR)/libfastmac.so
	install -m 0644 $(C_ARCHIVE) $(DESTDIR)$(LIBDIR)/libfastmac.a
	install -m 0755 $(C_OSSH_BUILD)/libfastmac_c.so $(DESTDIR)$(LIBDIR)/libfastmac-openssh.so.$(C_VERSION)
	ln -sf libfastmac-openssh.so.$(C_VERSION) $(DESTDIR)$(LIBDIR)/libfastmac-openssh.so.$(C_MAJOR)
	ln -sf libfastmac-openssh.so.$(C_MAJOR) $(DESTDIR)$(LIBDIR)/libfastmac-openssh.so
	install -m 0644 $(C_OSSH_ARCHIVE) $(DESTDIR)$(LIBDIR)/libfastmac-openssh.a
	install -m 0644 $(C_CRATE)/include/fastmac.h $(DESTDIR)$(INCLUDEDIR)/fastmac.h
	install -m 0644 $(C_CRATE)/include/fastmac/umac.h $(DESTDIR)$(INCLUDEDIR)/fastmac/umac.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(C_VERSION)|' -e 's|@LIBS_PRIVATE@|$(C_LIBS_PRIVATE)|' \
		$(C_CRATE)/fastmac.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/fastmac.pc
	sed -e 's/^Name: fastmac/Name: fastmac-openssh/' -e 's/-lfastmac$$/-lfastmac-openssh/' \
		-e 's/^Description: .*/Description: $(C_OSSH_DESCRIPTION)/' \
		$(DESTDIR)$(LIBDIR)/pkgconfig/fastmac.pc > $(DESTDIR)$(LIBDIR)/pkgconfig/fastmac-openssh.pc
	sed -e 's/^Name: fastmac-openssh/&-static/' -e 's|-L$${libdir} -lfastmac-openssh$$|$${libdir}/libfastmac-openssh.a|' \
		-e 's/^Description: .*/&, the static archive by its path (OpenSSH: UMAC_LIBS)/' \
		$(DESTDIR)$(LIBDIR)/pkgconfig/fastmac-openssh.pc > $(DESTDIR)$(LIBDIR)/pkgconfig/fastmac-openssh-static.pc

deps-c: deps-nettle
	@for tool in cc:gcc c++:g++ pkg-config:pkg-config valgrind:valgrind; do \
		if ! command -v $${tool%%:*} >/dev/null 2>&1; then \
			echo "installing $${tool#*:} (C tests)"; \
			$(call apt_install,$${tool#*:}); \
		fi; \
	done

# Installs into a scratch prefix; tests/c/run.sh builds the tests from there
# through pkg-config (the .pc files, the install layout and the headers are
# tested too), runs them natively and under valgrind memcheck, fires its
# negative controls, then the libraries' global symbols (exports.sh), the
# -ftrapv program with each archive (trapv.c) and lean.sh; cargo's own
# archives are the controls of the first two.
TEST_SUITES += test-c
test-c: deps-c
	rm -rf $(C_TEST_DIR)
	$(MAKE) --no-print-directory install PREFIX=$(C_TEST_PREFIX)
	C_TEST_CFLAGS="$(C_TEST_CFLAGS)" $(SUITE) -- $(C_CRATE)/tests/c/run.sh $(C_TEST_PREFIX) $(C_TEST_DIR) \
		$(C_OSSH_BUILD)/libfastmac_c.a $(C_BUILD)/libfastmac_c.a

c-example: c-lib
	$(MAKE) --no-print-directory install PREFIX=$(C_TEST_PREFIX)
	$(CC) -O2 -Wall -I$(C_TEST_PREFIX)/include/fastmac $(C_CRATE)/examples/openssh_umac.c \
		-L$(C_TEST_PREFIX)/lib -lfastmac-openssh -Wl,-rpath,$(C_TEST_PREFIX)/lib -o $(C_TEST_DIR)/openssh_umac
	$(C_TEST_DIR)/openssh_umac

c-bench: deps-c c-lib
	$(MAKE) --no-print-directory install PREFIX=$(C_TEST_PREFIX)
	$(CC) -O2 -Wall -I$(C_TEST_PREFIX)/include -I$(C_TEST_PREFIX)/include/fastmac \
		$(C_CRATE)/bench/umac_final_bench.c -L$(C_TEST_PREFIX)/lib -lfastmac-openssh -lfastmac \
		-Wl,-rpath,$(C_TEST_PREFIX)/lib -lnettle -o $(C_TEST_DIR)/umac_final_bench
	$(C_TEST_DIR)/umac_final_bench
