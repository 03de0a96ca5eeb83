# OpenSSH built with libfastmac: Debian's openssh source packages of Debian 12
# (bookworm, OpenSSH 9.2p1) and Debian 13 (trixie, OpenSSH 10.0p1), each
# built with the documented steps (packager.sh, docs/openssh.md section 1)
# against libfastmac installed in a scratch prefix. Included by the
# top-level Makefile after c.mk; every path is relative to the root.
#
#   make test-openssh    builds both (cached under target/openssh), checks with
#                        nm every program that computes a MAC, checks that the
#                        documentation's steps are packager.sh's, runs the
#                        sessions (sessions.py) and OpenSSH's own regression
#                        tests try-ciphers and integrity (on 10.x: see
#                        OSSH_T_EXEC_SUITES). make test runs these as suites
#                        of their own: openssh-docs, then per Debian suite S
#                        openssh-nm-S and openssh-sessions-S, and
#                        openssh-t-exec-trixie
#   make c-bench         also runs bench-openssh-umac: OpenSSH's umac.c (the
#                        objects its build compiled) against the drop-in
#   make bench-ssh       MB/s and CPU per GiB over ssh on loopback, stock vs
#                        fastmac builds, five ciphers and MACs (bench_ssh.py)
#
# Per suite S, target/openssh/S/ holds the source (src), the tree packager.sh
# built (tree), and the builds linked from that one tree (link.sh):
#   fastmac   every program, with the Makefile's own UMAC_LIBS: the drop-in
#   stock     every program, with OpenSSH's own umac.o and umac128.o, same
#             flags: the nm check's control, the benchmarks' baseline, and a
#             stock sshd-session the sessions' proof must tell apart
#   flip      ssh and the server programs, every umac_final tag with one bit
#             flipped (flip_tag.c): the negative controls
#   cargo-archive  scp (which computes no MAC) with cargo's own archive of
#             the drop-in in place of the installed one: the control of the
#             nm check's size comparison (its compiler_builtins members
#             displace libgcc's -ftrapv helpers)

OSSH_DIR := target/openssh
OSSH_SCRIPTS := $(C_CRATE)/openssh
OSSH_SUITES := bookworm trixie
# The programs known to compute MACs (nm-check.sh fails if one does not):
# the client, and the server process that carries a connection (sshd up to
# OpenSSH 9.7; sshd-session and, for the authentication phase, sshd-auth
# from 10.0 on).
OSSH_MUST_COMPUTE_bookworm := ssh sshd
OSSH_MUST_COMPUTE_trixie := ssh sshd-session sshd-auth
# libfastmac as `make install` installs it, where packager.sh's pkg-config
# finds it (fastmac-openssh-static.pc names the archive by its path).
OSSH_PREFIX := $(CURDIR)/$(OSSH_DIR)/prefix
OSSH_DROPIN := $(OSSH_PREFIX)/lib/libfastmac-openssh.a
OSSH_WRAP := -Wl,--wrap=umac_final -Wl,--wrap=umac128_final
OSSH_FLIP_LIBS := $(OSSH_WRAP) $(CURDIR)/$(OSSH_DIR)/flip_tag.o $(OSSH_DROPIN)
# The tree of bench-openssh-umac, whose figures docs/openssh.md section 3
# gives with that tree's compiler flags.
OSSH_BENCH_SUITE := bookworm
OSSH_TREE := $(OSSH_DIR)/$(OSSH_BENCH_SUITE)/tree

.PHONY: deps-openssh openssh-prefix openssh-builds test-openssh openssh-nm openssh-docs openssh-sessions
.PHONY: openssh-t-exec bench-openssh-umac

# The compiler, what OpenSSH's build needs (libcrypto, zlib, autoreconf for
# configure.ac, dpkg-dev for apt-get source and dpkg-buildflags), and
# Debian's own ssh and sshd, the peers of the sessions.
deps-openssh: deps-c
	@pkgs=""; \
	for p in dpkg-dev autoconf automake libssl-dev zlib1g-dev make openssh-server openssh-client; do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || pkgs="$$pkgs $$p"; \
	done; \
	if [ -n "$$pkgs" ]; then \
		echo "installing$$pkgs (OpenSSH build and sessions)"; \
		$(call apt_install,$$pkgs); \
	fi

# Installed again only when the drop-in changed (the copy's newer time is
# what makes every build relink).
openssh-prefix: c-lib
	@if [ ! -f $(OSSH_DROPIN) ] || [ $(C_OSSH_ARCHIVE) -nt $(OSSH_DROPIN) ]; then \
		echo "installing libfastmac into $(OSSH_PREFIX)"; \
		$(MAKE) --no-print-directory install PREFIX=$(OSSH_PREFIX) > /dev/null; \
	fi

$(OSSH_DIR)/flip_tag.o: $(OSSH_SCRIPTS)/flip_tag.c
	mkdir -p $(@D)
	$(CC) -O2 -Wall -Werror -c $< -o $@

# Relinks build $(2) of suite $(1) when it is older than the tree, the
# drop-in or the scripts. $(3): all or peers (link.sh); $(4): UMAC_LIBS
# (empty: the Makefile's own).
define ossh_link
	@stamp=$(OSSH_DIR)/$(1)/$(2)/.linked; \
	if [ ! -f $$stamp ] || [ $(OSSH_DIR)/$(1)/.tree -nt $$stamp ] || [ $(OSSH_DROPIN) -nt $$stamp ] \
		|| [ $(OSSH_SCRIPTS)/link.sh -nt $$stamp ] || [ $(OSSH_DIR)/flip_tag.o -nt $$stamp ]; then \
		echo "linking OpenSSH $(1) build $(2)"; \
		rm -rf $(OSSH_DIR)/$(1)/$(2); \
		$(OSSH_SCRIPTS)/link.sh $(OSSH_DIR)/$(1)/tree $(OSSH_DIR)/$(1)/$(2) $(3) $(4) && touch $$stamp; \
	fi
endef

# The Debian package a suite's tree comes from (for the tables), e.g.
# "trixie: openssh_10.0p1-7+deb13u4": $(1) suite.
ossh_package = $(1): $$(basename $$(ls $(OSSH_DIR)/$(1)/src/*.dsc) .dsc)

# The steps docs/openssh.md gives (its code block after "<!-- packager.sh
# -->") are packager.sh's, line for line: the script make test runs is what
# the documentation says (docs-check.sh).
TEST_SUITES += openssh-docs
openssh-docs:
	$(SUITE) -- $(OSSH_SCRIPTS)/docs-check.sh docs/openssh.md $(OSSH_SCRIPTS)/packager.sh

# Per suite: the source (source.sh: its deb-src entries stay in src/apt),
# the tree packager.sh builds with the drop-in, the builds, the nm check,
# the sizes against docs/openssh.md section 4's table for the suite
# (sizes.py), and OpenSSH's regression tests.
define ossh_suite
$(OSSH_DIR)/$(1)/.source: $(OSSH_SCRIPTS)/source.sh
	@$(MAKE) --no-print-directory deps-openssh
	$(OSSH_SCRIPTS)/source.sh $(1) $(OSSH_DIR)/$(1)/src
	touch $$@

$(OSSH_DIR)/$(1)/.tree: $(OSSH_DIR)/$(1)/.source $(OSSH_SCRIPTS)/packager.sh | openssh-prefix
	rm -rf $(OSSH_DIR)/$(1)/tree
	cp -a "$$$$(ls -d $(OSSH_DIR)/$(1)/src/openssh-*/)" $(OSSH_DIR)/$(1)/tree
	@echo "packager.sh on $(1)'s OpenSSH (log: $(OSSH_DIR)/$(1)/packager.log)"
	PKG_CONFIG_PATH=$(OSSH_PREFIX)/lib/pkgconfig $(OSSH_SCRIPTS)/packager.sh $(OSSH_DIR)/$(1)/tree \
		> $(OSSH_DIR)/$(1)/packager.log 2>&1 || { tail -n 40 $(OSSH_DIR)/$(1)/packager.log; exit 1; }
	touch $$@

.PHONY: openssh-builds-$(1) openssh-nm-$(1) openssh-sessions-$(1) openssh-t-exec-$(1)
openssh-builds-$(1): deps-openssh openssh-prefix $(OSSH_DIR)/$(1)/.tree $(OSSH_DIR)/flip_tag.o
	$$(call ossh_link,$(1),stock,all,umac.c)
	$$(call ossh_link,$(1),flip,peers,$$(OSSH_FLIP_LIBS))
	$$(call ossh_link,$(1),fastmac,all)
	$$(call ossh_link,$(1),cargo-archive,scp,$(C_OSSH_BUILD)/libfastmac_c.a)

TEST_SUITES += openssh-nm-$(1)
openssh-nm-$(1): openssh-builds-$(1)
	@echo "nm: $$(call ossh_package,$(1))"
	$$(SUITE)/nm -- $(OSSH_SCRIPTS)/nm-check.sh $(OSSH_DIR)/$(1)/fastmac $(OSSH_DIR)/$(1)/stock \
		$(OSSH_DIR)/$(1)/cargo-archive $(OSSH_MUST_COMPUTE_$(1))
	$$(SUITE)/sizes -- python3 $(OSSH_SCRIPTS)/sizes.py --fastmac $(OSSH_DIR)/$(1)/fastmac \
		--stock $(OSSH_DIR)/$(1)/stock --doc docs/openssh.md --marker $(1)

TEST_SUITES += openssh-sessions-$(1)
openssh-sessions-$(1): openssh-builds-$(1) deps-python
	$$(SUITE) -- timeout 900 $(PY) $(OSSH_SCRIPTS)/sessions.py --label "$$(call ossh_package,$(1))" \
		--fastmac $(OSSH_DIR)/$(1)/fastmac --flip $(OSSH_DIR)/$(1)/flip --stock $(OSSH_DIR)/$(1)/stock \
		--work $(OSSH_DIR)/$(1)/run

# OpenSSH's own regression tests that exercise the MACs (t-exec.sh): `make
# t-exec` links every program the builds moved out of the tree again, with
# the Makefile's own UMAC_LIBS (the drop-in); each test must report "ok",
# none may be skipped, and each program a session runs must carry fastmac's
# code.
openssh-t-exec-$(1): openssh-builds-$(1)
	$$(SUITE) -- $(OSSH_SCRIPTS)/t-exec.sh $(OSSH_DIR)/$(1)/tree $(OSSH_DIR)/$(1)/t-exec.log \
		"$(OSSH_MUST_COMPUTE_$(1))" $(OSSH_LTESTS)
endef
OSSH_LTESTS := try-ciphers integrity
$(foreach s,$(OSSH_SUITES),$(eval $(call ossh_suite,$(s))))

openssh-builds: $(foreach s,$(OSSH_SUITES),openssh-builds-$(s))
openssh-nm: $(foreach s,$(OSSH_SUITES),openssh-nm-$(s))
# t-exec costs minutes per tree (try-ciphers connects once per cipher and
# MAC pair, integrity ten times per MAC): make test runs it on the 10.x
# tree, whose sshd-session and sshd-auth are what is new;
# openssh-t-exec-bookworm runs it on 9.2p1.
OSSH_T_EXEC_SUITES ?= trixie
TEST_SUITES += $(foreach s,$(OSSH_T_EXEC_SUITES),openssh-t-exec-$(s))
openssh-t-exec: $(foreach s,$(OSSH_T_EXEC_SUITES),openssh-t-exec-$(s))

openssh-sessions: $(foreach s,$(OSSH_SUITES),openssh-sessions-$(s))

test-openssh: openssh-docs openssh-nm openssh-sessions openssh-t-exec

# OpenSSH's umac.o and umac128.o, as its build compiled them, with their
# symbols renamed ossh_* so that umac_bench.c links them beside the drop-in
# (umac.o needs xcalloc/freezero from OpenSSH's libraries, and libcrypto's AES;
# the general C API, for the one-shot columns, is libfastmac's archive).
OSSH_BENCH := $(OSSH_DIR)/bench
OSSH_RENAME = $(foreach f,new update final delete,--redefine-sym $(1)_$(f)=ossh_$(1)_$(f))
bench-openssh-umac: openssh-builds-$(OSSH_BENCH_SUITE)
	mkdir -p $(OSSH_BENCH)
	objcopy $(call OSSH_RENAME,umac) $(OSSH_TREE)/umac.o $(OSSH_BENCH)/ossh_umac.o
	objcopy $(call OSSH_RENAME,umac128) $(OSSH_TREE)/umac128.o $(OSSH_BENCH)/ossh_umac128.o
	$(CC) -O2 -Wall -Werror -I$(C_CRATE)/include -I$(C_CRATE)/include/fastmac $(OSSH_SCRIPTS)/umac_bench.c \
		$(OSSH_BENCH)/ossh_umac.o $(OSSH_BENCH)/ossh_umac128.o -L$(OSSH_TREE) -L$(OSSH_TREE)/openbsd-compat \
		-lssh -lopenbsd-compat -lcrypto $(OSSH_DROPIN) $(OSSH_PREFIX)/lib/libfastmac.a -o $(OSSH_BENCH)/umac_bench
	@echo "CPU: $$(lscpu | sed -n 's/^Model name: *//p')"
	$(OSSH_BENCH)/umac_bench 21

c-bench: bench-openssh-umac

# What an ssh user gains (bench_ssh.py; not part of make test): stock and
# fastmac builds of one tree, each build's ssh to its own sshd on
# 127.0.0.1, BENCH_SSH_MIB each way per transfer, BENCH_SSH_PAIRS
# interleaved pairs per cipher, MAC and direction, and a control pair of the
# stock build against a copy of itself; MB/s and client + server CPU
# seconds per GiB. docs/openssh.md section 3 gives its table.
BENCH_SSH_SUITE ?= trixie
BENCH_SSH_PAIRS ?= 10
BENCH_SSH_MIB ?= 1024
.PHONY: bench-ssh
bench-ssh: openssh-builds-$(BENCH_SSH_SUITE)
	python3 $(OSSH_SCRIPTS)/bench_ssh.py --stock $(OSSH_DIR)/$(BENCH_SSH_SUITE)/stock \
		--fastmac $(OSSH_DIR)/$(BENCH_SSH_SUITE)/fastmac --work $(OSSH_DIR)/bench-ssh \
		--pairs $(BENCH_SSH_PAIRS) --mib $(BENCH_SSH_MIB)
