#!/bin/bash
# Links programs of a tree built by packager.sh against one UMAC
# implementation and moves them to OUT_DIR:
#
#   link.sh TREE OUT_DIR all|peers|PROGRAM [umac.c | UMAC_LIBS...]
#
# `all` is every program the tree builds (its Makefile's TARGETS); `peers`
# the ones a session runs: ssh, sshd and, where the tree has them,
# sshd-session (OpenSSH 9.8 on) and sshd-auth (10.0 on); or one program of
# TARGETS. UMAC_LIBS is what replaces umac.o and umac128.o on the link
# lines: without it, the
# Makefile's own (libfastmac's drop-in, packager.sh); `umac.c` for the
# stock build: OpenSSH's own umac.o and umac128.o, in an archive of their
# own so that, as from libssh.a, only the programs that call them link them
# (an object on the link line would be linked into every program, after
# the libcrypto it needs); the flipped-tag wrapper with the drop-in for the
# negative control. The programs are moved, not copied, so that a later
# `make` in the tree (t-exec) links them again with the Makefile's own
# UMAC_LIBS.
set -euo pipefail
tree=$1
out=$2
which=$3
shift 3
mkdir -p "$out"
out=$(realpath "$out")
cd "$tree"
targets=$(make -s -f Makefile -f <(printf 'print-targets:\n\t@echo $(TARGETS)\n') print-targets)
case $which in
all) programs=$targets ;;
peers) programs=$(for p in ssh sshd sshd-session sshd-auth; do
	if grep -qw -- "$p" <<< "$targets"; then echo "$p"; fi; done) ;;
*) if ! grep -qxF -- "$which" <<< "$(tr ' ' '\n' <<< "$targets")"; then
	echo "link.sh: all, peers or a program of the tree's TARGETS, not $which" >&2; exit 2
fi
programs=$which ;;
esac
override=()
if [ "$*" = umac.c ]; then
	make -s umac.o umac128.o
	rm -f libumac-stock.a
	ar rcs libumac-stock.a umac.o umac128.o
	override=("UMAC_LIBS=$PWD/libumac-stock.a")
elif [ $# -gt 0 ]; then
	override=("UMAC_LIBS=$*")
fi
# shellcheck disable=SC2086 # one word per program
rm -f $programs
# shellcheck disable=SC2086
make -s -j"$(nproc)" $programs "${override[@]}"
# shellcheck disable=SC2086
mv $programs "$out/"
