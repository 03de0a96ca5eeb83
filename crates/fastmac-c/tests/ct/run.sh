#!/bin/bash
# Constant-time evidence (make test-ct): ct_check.c under valgrind memcheck
# with the key and the received tag marked undefined (see the comment atop
# ct_check.c), once per NH backend that valgrind runs, forced through
# FASTMAC_BACKEND; then the negative controls.
#
#   run.sh LIBRARY OUT_DIR FASTMAC_CLI
#
# LIBRARY: the libfastmac_c.a that ct.mk built with debug info and
# --cfg fastmac_backend_env; OUT_DIR holds ct_check and ct_control, built
# from it; FASTMAC_CLI: the fastmac command, which lists the NH backends the
# library detects (`fastmac list --backends`): run under valgrind, whose
# virtual CPU has no AVX-512, it lists the backends valgrind can run.
set -euo pipefail
library=$1
out=$2
cli=$3
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../../../scripts/checks.sh"
memcheck=(valgrind -q --num-callers=40 --error-exitcode=99)

reads_backend_variable() { grep -qa FASTMAC_BACKEND "$library"; }
check "this build reads FASTMAC_BACKEND (the installed one must not: lean.sh)" reads_backend_variable

mapfile -t backends < <("${memcheck[@]}" "$cli" list --backends | cut -f1)
if [ "${#backends[@]}" -eq 0 ]; then
	echo "fastmac list --backends under valgrind listed no backend"
	exit 1
fi
echo "NH backends under valgrind: ${backends[*]}"
for backend in "${backends[@]}"; do
	check "memcheck finds no secret-dependent branch or address, NH backend $backend" \
		env FASTMAC_BACKEND="$backend" "${memcheck[@]}" --suppressions="$here/ct.supp" "$out/ct_check"
done

# Negative controls: without ct.supp memcheck must report the declassified
# places (the key's taint reaches them), and with a branch on a key byte
# (ct_control, built with -DSECRET_BRANCH_CONTROL) it must report that.
run_to_log() {
	local log=$1
	shift
	"$@" > /dev/null 2> "$log"
}
refuse "memcheck without ct.supp" run_to_log "$out/unsuppressed.log" "${memcheck[@]}" "$out/ct_check"
for place in redraw_until_below_p fastmac_mac_verify fastmac_ssh_mac_verify; do
	check "memcheck without ct.supp reports $place" grep -q "$place" "$out/unsuppressed.log"
done
refuse "memcheck on ct_control, which branches on a key byte" \
	run_to_log "$out/control.log" "${memcheck[@]}" --suppressions="$here/ct.supp" "$out/ct_control"
check "memcheck reports ct_control's branch in ct_check.c" grep -q 'ct_check.c' "$out/control.log"
checks_done
