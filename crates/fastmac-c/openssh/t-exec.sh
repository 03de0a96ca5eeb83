#!/bin/bash
# OpenSSH's own regression tests that exercise the MACs, on the fastmac
# build (make openssh-t-exec): `make t-exec` in the tree relinks every
# program it runs with UMAC_LIBS (the drop-in, from the environment). Each
# test of LTESTS must report "ok", none may be skipped, and the relinked
# ssh and sshd must carry fastmac's UMAC.
#
#   t-exec.sh TREE LOG LTEST...
set -euo pipefail
tree=$1
log=$2
shift 2
source "$(dirname "$0")/../../../scripts/checks.sh"

status=0
timeout 900 make -s -C "$tree" t-exec LTESTS="$*" SKIP_LTESTS= UMAC_LIBS="${UMAC_LIBS:?UMAC_LIBS: the drop-in, set by openssh.mk}" \
	2>&1 | tee "$log" || status=$?
check "make t-exec LTESTS=\"$*\" exits 0" test "$status" -eq 0
mentions_skip() { grep -qi 'skip' "$log"; }
refuse "the t-exec log mentions a skipped test" mentions_skip
for test in "$@"; do
	check "t-exec: $test reports ok" grep -q "^ok .*${test//-/ }" "$log"
done
has_fastmac_umac() { grep -q '7fastmac4umac' <<< "$(nm "$1")"; }
for program in ssh sshd; do
	check "the t-exec $program carries fastmac::umac code" has_fastmac_umac "$tree/$program"
done
checks_done
