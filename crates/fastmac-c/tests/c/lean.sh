#!/bin/bash
# The lean library's properties, checked on an install prefix (make install):
#
#   lean.sh PREFIX OUT_DIR CARGO_ARCHIVE
#
# - a small C program (lean_size.c) linked with the static drop-in,
#   libfastmac-openssh.a, grows by at most 300 KB (size: text + data + bss)
#   over the same program without the UMAC calls, and records the same
#   NEEDED entries (libc only): no libgcc_s, libm, libpthread from Rust's std;
# - the shared libraries need libc only;
# - no member of the installed archives has an LLVM bitcode section
#   (.llvmbc), which CARGO_ARCHIVE, cargo's own archive, has (the control
#   that the check can fail), and GNU nm lists the C functions;
# - no installed library contains FASTMAC_BACKEND: the variable that makes
#   fastmac choose its NH backend is read only by test builds (--cfg
#   fastmac_backend_env, see the root Makefile), never by the installed one.
set -euo pipefail
prefix=$1
out=$2
cargo_archive=$3
lib=$prefix/lib
here=$(dirname "$0")
MAX_GROWTH=$((300 * 1024))

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' '; }
total() { size --format=berkeley "$1" | awk 'NR == 2 { print $4 }'; }

mkdir -p "$out"
${CC:-cc} -O2 -Wall -Werror -DWITH_FASTMAC -I"$prefix/include/fastmac" "$here/lean_size.c" \
	"$lib/libfastmac-openssh.a" -o "$out/lean_with"
${CC:-cc} -O2 -Wall -Werror "$here/lean_size.c" -o "$out/lean_without"
# It runs, and prints a tag (not the zeros of the build without fastmac).
tag=$("$out/lean_with")
[[ "$tag" =~ ^[0-9a-f]{16}$ && "$tag" != 0000000000000000 ]] || { echo "lean: lean_size printed $tag"; exit 1; }
growth=$(( $(total "$out/lean_with") - $(total "$out/lean_without") ))
[ "$growth" -le "$MAX_GROWTH" ] || { echo "lean: the static drop-in adds $growth bytes (limit $MAX_GROWTH)"; exit 1; }
echo "lean: a program linked with libfastmac-openssh.a grows by $growth bytes (limit $MAX_GROWTH)"
with=$(needed "$out/lean_with")
without=$(needed "$out/lean_without")
[ "$with" = "$without" ] || { echo "lean: NEEDED with the drop-in: $with; without: $without"; exit 1; }
echo "lean: NEEDED with the drop-in as without: $with"
for so in libfastmac.so libfastmac-openssh.so; do
	[ "$(needed "$lib/$so")" = "libc.so.6 " ] || { echo "lean: $so needs $(needed "$lib/$so")"; exit 1; }
done
echo "lean: libfastmac.so and libfastmac-openssh.so need libc.so.6 only"

bitcode() { readelf -S -W "$1" 2>/dev/null | grep -c '\.llvmbc' || true; }
[ "$(bitcode "$cargo_archive")" -gt 0 ] || { echo "lean: control: $cargo_archive has no .llvmbc section"; exit 1; }
for a in libfastmac.a libfastmac-openssh.a; do
	[ "$(bitcode "$lib/$a")" -eq 0 ] || { echo "lean: $a has LLVM bitcode sections"; exit 1; }
	symbols=$(nm "$lib/$a" 2>&1)
	count=$(grep -c ' T fastmac_' <<< "$symbols" || true)
	[ "$count" -ge 40 ] || { echo "lean: nm lists $count fastmac_ functions in $a"; exit 1; }
done
grep -q ' T umac_final$' <<< "$(nm "$lib/libfastmac-openssh.a")" || { echo "lean: nm lists no umac_final"; exit 1; }
echo "lean: no LLVM bitcode in the archives (cargo's has it), nm lists their functions"

for f in libfastmac.a libfastmac.so libfastmac-openssh.a libfastmac-openssh.so; do
	if grep -qa FASTMAC_BACKEND "$lib/$f"; then
		echo "lean: $f reads FASTMAC_BACKEND"
		exit 1
	fi
done
echo "lean: no installed library contains FASTMAC_BACKEND"
