#!/bin/bash
# The general library exports fastmac_-prefixed C names only; OpenSSH's
# unprefixed umac.h names (which would clash with a program's own umac.c)
# are in libfastmac-openssh, which exports those eight and nothing else (so
# that a program linking it gains only what they reach):
#
#   exports.sh LIBDIR      (an install prefix's lib/, from `make install`)
#
# readelf reads the ELF symbol tables (lean.sh checks that GNU nm lists
# them too: the archives carry no LLVM bitcode). In the archive, Rust's own
# global names (mangled _ZN/_R symbols, the compiler's __ runtime helpers, rust_*, LTO's
# promoted *.llvm.* constants) are not C API and are left out of the check.
set -euo pipefail
lib=$1
OPENSSH_NAMES="umac_new umac_update umac_final umac_delete umac128_new umac128_update umac128_final umac128_delete"

dynamic() { readelf --dyn-syms -W "$1" | awk '$5 == "GLOBAL" && $7 != "UND" && $4 == "FUNC" { sub(/@.*/, "", $8); print $8 }' | sort -u; }
archive() {
	readelf -sW "$1" | awk '$5 == "GLOBAL" && $7 != "UND" && ($4 == "FUNC" || $4 == "OBJECT") { print $8 }' \
		| grep -v -e '^_ZN' -e '^_R' -e '^__' -e '^rust_' -e '\.llvm\.' | sort -u
}

check() {
	local what=$1 names=$2 wants_openssh=$3
	local count stray
	count=$(grep -c '^fastmac_' <<< "$names" || true)
	if [ "$wants_openssh" = no ] && [ "$count" -lt 40 ]; then
		echo "exports: $what: only $count fastmac_ functions"; exit 1
	fi
	if [ "$wants_openssh" = yes ] && [ "$count" -ne 0 ]; then
		echo "exports: $what exports $count fastmac_ functions"; exit 1
	fi
	stray=$(grep -v '^fastmac_' <<< "$names" | grep -vxF -f <(tr ' ' '\n' <<< "$OPENSSH_NAMES") || true)
	if [ -n "$stray" ]; then echo "exports: $what exports other names:"; echo "$stray"; exit 1; fi
	for name in $OPENSSH_NAMES; do
		if grep -qx "$name" <<< "$names"; then
			if [ "$wants_openssh" != yes ]; then echo "exports: $what exports $name"; exit 1; fi
		else
			if [ "$wants_openssh" != no ]; then echo "exports: $what lacks $name"; exit 1; fi
		fi
	done
	if [ "$wants_openssh" = yes ]; then
		echo "exports: $what: the 8 OpenSSH umac.h functions, nothing else"
	else
		echo "exports: $what: $count fastmac_ functions, nothing else"
	fi
}

check libfastmac.so "$(dynamic "$lib/libfastmac.so")" no
check libfastmac.a "$(archive "$lib/libfastmac.a")" no
check libfastmac-openssh.so "$(dynamic "$lib/libfastmac-openssh.so")" yes
check libfastmac-openssh.a "$(archive "$lib/libfastmac-openssh.a")" yes
