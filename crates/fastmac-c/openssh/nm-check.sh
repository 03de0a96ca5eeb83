#!/bin/bash
# Which programs of an OpenSSH build compute a MAC, and that each of them
# carries libfastmac's UMAC and none of OpenSSH's umac.c:
#
#   nm-check.sh FASTMAC_DIR STOCK_DIR CONTROL_DIR MUST_COMPUTE...
#
# The two directories hold the same programs (link.sh all), linked with the
# drop-in and with OpenSSH's own umac.o and umac128.o. A program computes
# MACs when its stock build holds umac.c's code (its static function
# nh_aux); the fastmac build of every such program must then define the
# eight umac.h functions, contain fastmac's UMAC code (Rust symbols of
# fastmac::umac) and no nh_aux, and a program that does not must hold
# neither, and its fastmac build must be the stock build (size(1)'s text,
# data and bss, and every byte): the drop-in archive defines nothing but
# the eight functions (crates/fastmac-c/api-archive.sh), so a program that
# calls none of them links none of its code, and keeps libgcc's -ftrapv
# helpers (__addvsi3, ...). CONTROL_DIR holds such programs linked with
# cargo's own archive, whose compiler_builtins members displace libgcc's:
# each must differ from its stock build. MUST_COMPUTE names the programs
# that are known to compute MACs
# (the client and the server processes that carry a connection): each must
# be found so, or the check fails. The stock build is the control that
# shows each check can fail. Prints a table, one line per check and
# "N passed, N failed, N skipped" (scripts/checks.sh).
set -euo pipefail
fastmac=$1
stock=$2
control=$3
shift 3
source "$(dirname "$0")/../../../scripts/checks.sh"
UMAC_FUNCTIONS=(umac_new umac_update umac_final umac_delete umac128_new umac128_update umac128_final umac128_delete)

# (grep reads nm's whole output from a variable: `nm | grep -q` under
# pipefail fails with SIGPIPE when grep stops at its first match.)
defines() { grep -q " T $2\$" <<< "$(nm "$1")"; }
has_fastmac_umac() { grep -q '7fastmac4umac' <<< "$(nm "$1")"; }
has_umac_c() { grep -q ' t nh_aux$' <<< "$(nm "$1")"; }
sizes() { size --format=berkeley "$1" | awk 'NR == 2 { print $1, $2, $3 }'; }
identical() {
	if [ "$(sizes "$1")" != "$(sizes "$2")" ]; then
		echo "size (text data bss): $(sizes "$1") against $(sizes "$2")"; return 1
	fi
	cmp "$1" "$2"
}

computing=()
rows=()
for path in "$stock"/*; do
	program=$(basename "$path")
	failed_before=$CHECKS_FAILED
	check "fastmac build has $program" test -x "$fastmac/$program"
	refuse "control: stock $program carries fastmac::umac code" has_fastmac_umac "$path"
	refuse "fastmac $program carries umac.c (nh_aux)" has_umac_c "$fastmac/$program"
	if ! has_umac_c "$path"; then
		refuse "$program computes no MAC in its stock build, yet its fastmac build carries fastmac::umac code" \
			has_fastmac_umac "$fastmac/$program"
		check "$program computes no MAC: its fastmac build is the stock build ($(sizes "$path")), byte for byte" \
			identical "$fastmac/$program" "$path"
		rows+=("| $program | no | (computes no MAC; the stock program, byte for byte) |")
		continue
	fi
	for function in "${UMAC_FUNCTIONS[@]}"; do
		check "fastmac $program defines $function" defines "$fastmac/$program" "$function"
	done
	check "fastmac $program carries fastmac::umac code" has_fastmac_umac "$fastmac/$program"
	computing+=("$program")
	if [ "$CHECKS_FAILED" -eq "$failed_before" ]; then
		rows+=("| $program | yes | yes |")
	else
		rows+=("| $program | yes | NO |")
	fi
done
controls=0
for path in "$control"/*; do
	if [ ! -x "$path" ]; then continue; fi
	program=$(basename "$path")
	refuse "control: $program linked with cargo's archive ($(sizes "$path")) is the stock build" \
		identical "$path" "$stock/$program"
	controls=$((controls + 1))
done
check "the control directory $control holds a program" test "$controls" -gt 0
computes() { grep -qx -- "$1" < <(printf '%s\n' "${computing[@]}"); }
for program in "$@"; do
	check "$program computes MACs (its stock build holds umac.c)" computes "$program"
done
printf '| program | stock build links umac.c | fastmac build: the 8 umac.h functions, fastmac::umac, no umac.c |\n|---|---|---|\n'
printf '%s\n' "${rows[@]}"
echo "nm: ${#computing[@]} programs compute MACs, each with fastmac's UMAC: ${computing[*]}"
checks_done
