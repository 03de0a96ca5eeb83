#!/bin/bash
# Which programs of an OpenSSH build compute a MAC, and that each of them
# carries libfastmac's UMAC and none of OpenSSH's umac.c:
#
#   nm-check.sh FASTMAC_DIR STOCK_DIR MUST_COMPUTE...
#
# The two directories hold the same programs (link.sh all), linked with the
# drop-in and with OpenSSH's own umac.o and umac128.o. A program computes
# MACs when its stock build holds umac.c's code (its static function
# nh_aux); the fastmac build of every such program must then define the
# eight umac.h functions, contain fastmac's UMAC code (Rust symbols of
# fastmac::umac) and no nh_aux, and a program that does not must hold
# neither. MUST_COMPUTE names the programs that are known to compute MACs
# (the client and the server processes that carry a connection): each must
# be found so, or the check fails.
set -euo pipefail
fastmac=$1
stock=$2
shift 2
UMAC_H="umac_new umac_update umac_final umac_delete umac128_new umac128_update umac128_final umac128_delete"

has_umac_c() { grep -q ' t nh_aux$' <<< "$1"; }
has_fastmac() { grep -q '7fastmac4umac' <<< "$1"; }

computing=()
printf '| program | stock build links umac.c | fastmac build: the 8 umac.h functions, fastmac::umac, no umac.c |\n|---|---|---|\n'
for path in "$stock"/*; do
	prog=$(basename "$path")
	stock_syms=$(nm "$path")
	if [ ! -x "$fastmac/$prog" ]; then echo "nm: $fastmac/$prog is missing"; exit 1; fi
	syms=$(nm "$fastmac/$prog")
	if has_fastmac "$stock_syms"; then echo "nm: control: stock $prog holds fastmac's code"; exit 1; fi
	if has_umac_c "$syms"; then echo "nm: fastmac $prog still holds umac.c"; exit 1; fi
	if ! has_umac_c "$stock_syms"; then
		if has_fastmac "$syms"; then echo "nm: $prog computes no MAC in its stock build, yet links fastmac"; exit 1; fi
		printf '| %s | no | (computes no MAC) |\n' "$prog"
		continue
	fi
	for s in $UMAC_H; do
		if ! grep -q " T $s\$" <<< "$syms"; then echo "nm: fastmac $prog lacks $s"; exit 1; fi
	done
	if ! has_fastmac "$syms"; then echo "nm: fastmac $prog has no fastmac::umac code"; exit 1; fi
	computing+=("$prog")
	printf '| %s | yes | yes |\n' "$prog"
done
for prog in "$@"; do
	if ! grep -qx -- "$prog" < <(printf '%s\n' "${computing[@]}"); then
		echo "nm: $prog was expected to compute MACs, but its stock build holds no umac.c"; exit 1
	fi
done
echo "nm: ${#computing[@]} programs compute MACs, each with fastmac's UMAC: ${computing[*]}"
