#!/bin/bash
# The global symbols a library defines are its C API and nothing else:
#
#   exports.sh LIBRARY fastmac|openssh
#
# `fastmac`: libfastmac.{a,so}, at least 40 fastmac_ functions and no other
# name; `openssh`: libfastmac-openssh.{a,so}, OpenSSH's eight umac.h
# functions (include/fastmac/umac.h) exactly. For a shared library the
# dynamic symbols it defines (nm -D); for an archive every global or weak
# definition of any member (readelf, which reads each member's ELF symbol
# table whatever sections it carries): a program linking the archive could
# bind to any of them (a compiler_builtins __addvsi3 in place of libgcc's,
# say; api-archive.sh). Prints the names, or the ones that are not the
# API; exits 1 on any of those.
set -euo pipefail
library=$1
api=$2
OPENSSH_NAMES="umac_new umac_update umac_final umac_delete umac128_new umac128_update umac128_final umac128_delete"

case $library in
*.so*) defined=$(nm -D --defined-only "$library" | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | sort -u) ;;
*.a) defined=$(readelf -sW "$library" |
	awk '($5 == "GLOBAL" || $5 == "WEAK" || $5 == "UNIQUE") && $7 != "UND" && NF >= 8 { print $8 }' | sort -u) ;;
*) echo "exports: $library: neither .a nor .so"; exit 2 ;;
esac
case $api in
fastmac) stray=$(grep -v '^fastmac_' <<< "$defined" || true) ;;
openssh) stray=$(grep -vxF -f <(tr ' ' '\n' <<< "$OPENSSH_NAMES") <<< "$defined" || true) ;;
*) echo "exports: fastmac or openssh, not $api"; exit 2 ;;
esac
if [ -n "$stray" ]; then
	echo "exports: $library defines $(wc -l <<< "$stray") global symbols outside its API, among them:"
	# C names (libgcc's, libm's) before Rust's mangled ones.
	{ grep -v -e '^_R' -e '^_ZN' <<< "$stray" || true; grep -e '^_R' -e '^_ZN' <<< "$stray" || true; } | head -n 20
	exit 1
fi
count=$(wc -l <<< "$defined")
if [ "$api" = fastmac ] && [ "$count" -lt 40 ]; then
	echo "exports: $library defines only $count fastmac_ functions"; exit 1
fi
if [ "$api" = openssh ] && [ "$count" -ne 8 ]; then
	echo "exports: $library defines $count of the 8 umac.h functions"; exit 1
fi
echo "exports: $library defines as global symbols its $count API functions only:" $defined
