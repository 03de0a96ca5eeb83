#!/bin/bash
# OpenSSH's own regression tests that exercise the MACs, on a tree built by
# packager.sh (make openssh-t-exec-SUITE): `make t-exec` in the tree links
# every program it runs again, with the Makefile's own UMAC_LIBS (the
# drop-in). Each test of LTESTS must report "ok", none may be skipped, and
# each program of PROGRAMS (the ones that compute MACs, space-separated)
# must carry fastmac's UMAC afterwards.
#
#   t-exec.sh TREE LOG PROGRAMS LTEST...
#
# Prints one line per check and "N passed, N failed, N skipped"
# (scripts/checks.sh).
set -euo pipefail
tree=$1
log=$2
read -ra programs <<< "$3"
shift 3
source "$(dirname "$0")/../../../scripts/checks.sh"

status=0
timeout 900 make -s -C "$tree" t-exec LTESTS="$*" SKIP_LTESTS= 2>&1 | tee "$log" || status=$?
check "make t-exec LTESTS=\"$*\" exits 0" test "$status" -eq 0
mentions_skip() { grep -qi 'skip' "$log"; }
refuse "the t-exec log mentions a skipped test" mentions_skip
for test in "$@"; do
	check "t-exec: $test reports ok" grep -q "^ok .*${test//-/ }" "$log"
done
has_fastmac_umac() { grep -q '7fastmac4umac' <<< "$(nm "$1")"; }
for program in "${programs[@]}"; do
	check "the tree's $program, as t-exec ran it, carries fastmac::umac code" has_fastmac_umac "$tree/$program"
done
checks_done
