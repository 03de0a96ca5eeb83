# OpenSSH built with libfastmac: Debian's openssh source package, configured
# with Debian's flags, umac.o and umac128.o taken out of LIBSSH_OBJS and
# libfastmac's OpenSSH drop-in linked in (build.sh, link.sh). Included by the
# top-level Makefile after c.mk; every path is relative to the root.
#
#   make test-openssh    builds (cached under target/openssh), checks with nm
#                        that ssh and sshd carry fastmac's UMAC, runs the
#                        sessions (sessions.py) and OpenSSH's own regression
#                        tests try-ciphers and integrity on the fastmac build
#   make c-bench         also runs bench-openssh-umac: OpenSSH's umac.c (the
#                        objects its build compiled) against the drop-in
#   make bench-openssh-e2e   MB/s of 1 GiB over ssh, stock vs fastmac builds
#
# Builds, each an ssh and sshd linked from the one compiled tree:
#   target/openssh/fastmac   libfastmac's drop-in
#   target/openssh/flip      the same, every umac_final tag with one bit
#                            flipped (flip_tag.c): the negative control
#   target/openssh/stock     OpenSSH's own umac.c, same flags (benchmarks)

OSSH_DIR := target/openssh
OSSH_SCRIPTS := $(C_CRATE)/openssh
OSSH_TREE := $(OSSH_DIR)/tree
# The drop-in archive (libfastmac-openssh.a: the lean build with the
# OpenSSH umac.h symbols, see c.mk) and what it needs besides libc (nothing).
OSSH_DROPIN := $(C_OSSH_ARCHIVE)
OSSH_UMAC_LIBS := $(OSSH_DROPIN) $(C_LIBS_PRIVATE)
OSSH_WRAP := -Wl,--wrap=umac_final -Wl,--wrap=umac128_final
OSSH_SRC = $$(ls -d $(OSSH_DIR)/src/openssh-*/ | head -n1)

.PHONY: deps-openssh openssh-builds test-openssh openssh-nm openssh-sessions openssh-t-exec bench-openssh-e2e
.PHONY: bench-openssh-umac

# The compiler, OpenSSH's build needs (libcrypto, zlib, autoconf for the
# patched configure.ac, dpkg-dev for apt-get source and dpkg-buildflags), and
# Debian's own ssh and sshd, the peers of the sessions.
deps-openssh: deps-c
	@pkgs=""; \
	for p in dpkg-dev autoconf libssl-dev zlib1g-dev make openssh-server openssh-client; do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || pkgs="$$pkgs $$p"; \
	done; \
	if [ -n "$$pkgs" ]; then \
		echo "installing$$pkgs (OpenSSH build and sessions)"; \
		$(call apt_install,$$pkgs); \
	fi

# apt-get source needs deb-src entries (deb-src.sh adds them for the
# configured Debian suites), then a fresh package list.
$(OSSH_DIR)/.source:
	@$(MAKE) --no-print-directory deps-openssh
	$(OSSH_SCRIPTS)/deb-src.sh
	apt-get update -qq
	rm -rf $(OSSH_DIR)/src && mkdir -p $(OSSH_DIR)/src
	cd $(OSSH_DIR)/src && apt-get source -qq openssh
	touch $@

$(OSSH_DIR)/.tree: $(OSSH_DIR)/.source $(OSSH_SCRIPTS)/build.sh
	$(OSSH_SCRIPTS)/build.sh $(OSSH_SRC) $(OSSH_TREE)
	touch $@

$(OSSH_DIR)/flip_tag.o: $(OSSH_SCRIPTS)/flip_tag.c
	$(CC) -O2 -Wall -Werror -c $< -o $@

# Relinks a build when it is missing or older than the tree or the drop-in.
# $(1): build name; $(2): what replaces umac.o and umac128.o; $(3): extra
# prerequisites.
define ossh_link
	@if [ ! -x $(OSSH_DIR)/$(1)/sshd ] || [ $(OSSH_DIR)/.tree -nt $(OSSH_DIR)/$(1)/sshd ] \
		|| [ $(OSSH_DROPIN) -nt $(OSSH_DIR)/$(1)/sshd ] || [ $(OSSH_SCRIPTS)/link.sh -nt $(OSSH_DIR)/$(1)/sshd ] \
		$(foreach p,$(3),|| [ $(p) -nt $(OSSH_DIR)/$(1)/sshd ]); then \
		echo "linking OpenSSH build $(1)"; \
		$(OSSH_SCRIPTS)/link.sh $(OSSH_TREE) $(OSSH_DIR)/$(1) $(2); \
	fi
endef

openssh-builds: deps-openssh c-lib $(OSSH_DIR)/.tree $(OSSH_DIR)/flip_tag.o
	$(call ossh_link,stock,umac.o umac128.o)
	$(call ossh_link,flip,$(OSSH_WRAP) $(CURDIR)/$(OSSH_DIR)/flip_tag.o $(OSSH_UMAC_LIBS),$(OSSH_DIR)/flip_tag.o)
	$(call ossh_link,fastmac,$(OSSH_UMAC_LIBS))

# ssh and sshd of the fastmac build carry fastmac's UMAC and none of
# umac.c; the stock build is the control that the check can fail.
TEST_SUITES += openssh-nm
openssh-nm: openssh-builds
	$(SUITE) -- $(OSSH_SCRIPTS)/nm-check.sh $(OSSH_DIR)/fastmac $(OSSH_DIR)/stock

TEST_SUITES += openssh-sessions
openssh-sessions: openssh-builds deps-python
	timeout 900 $(SUITE) -- $(PY) $(OSSH_SCRIPTS)/sessions.py --fastmac $(OSSH_DIR)/fastmac \
		--flip $(OSSH_DIR)/flip --work $(OSSH_DIR)/run

# OpenSSH's own regression tests that exercise the MACs, on the fastmac
# build (make t-exec relinks every program of the tree with UMAC_LIBS). Each
# must report "ok", none may be skipped (t-exec.sh).
OSSH_LTESTS := try-ciphers integrity
TEST_SUITES += openssh-t-exec
openssh-t-exec: openssh-builds
	UMAC_LIBS="$(OSSH_UMAC_LIBS)" $(SUITE) -- $(OSSH_SCRIPTS)/t-exec.sh $(OSSH_TREE) $(OSSH_DIR)/t-exec.log \
		$(OSSH_LTESTS)

test-openssh: openssh-nm openssh-sessions openssh-t-exec

# OpenSSH's umac.o and umac128.o, as its build compiled them, with their
# symbols renamed ossh_* so that umac_bench.c links them beside the drop-in
# (umac.o needs xcalloc/freezero from OpenSSH's libraries, and libcrypto's AES).
OSSH_BENCH := $(OSSH_DIR)/bench
OSSH_RENAME = $(foreach f,new update final delete,--redefine-sym $(1)_$(f)=ossh_$(1)_$(f))
bench-openssh-umac: openssh-builds
	mkdir -p $(OSSH_BENCH)
	objcopy $(call OSSH_RENAME,umac) $(OSSH_TREE)/umac.o $(OSSH_BENCH)/ossh_umac.o
	objcopy $(call OSSH_RENAME,umac128) $(OSSH_TREE)/umac128.o $(OSSH_BENCH)/ossh_umac128.o
	$(CC) -O2 -Wall -Werror -I$(C_CRATE)/include -I$(C_CRATE)/include/fastmac $(OSSH_SCRIPTS)/umac_bench.c \
		$(OSSH_BENCH)/ossh_umac.o $(OSSH_BENCH)/ossh_umac128.o -L$(OSSH_TREE) -L$(OSSH_TREE)/openbsd-compat \
		-lssh -lopenbsd-compat -lcrypto $(OSSH_UMAC_LIBS) -o $(OSSH_BENCH)/umac_bench
	@echo "CPU: $$(lscpu | sed -n 's/^Model name: *//p')"
	$(OSSH_BENCH)/umac_bench 21

c-bench: bench-openssh-umac

# MB/s of 1 GiB over ssh -c aes128-ctr -m umac-64-etm@openssh.com to
# 127.0.0.1, each build's ssh to its own sshd, the builds alternating (not
# part of make test). E2E_ROUNDS=N to change the number of rounds.
E2E_ROUNDS ?= 5
bench-openssh-e2e: openssh-builds deps-python
	@echo "CPU: $$(lscpu | sed -n 's/^Model name: *//p')"
	$(PY) $(OSSH_SCRIPTS)/e2e.py --stock $(OSSH_DIR)/stock --fastmac $(OSSH_DIR)/fastmac \
		--work $(OSSH_DIR)/e2e --rounds $(E2E_ROUNDS)
