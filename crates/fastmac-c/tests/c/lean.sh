#!/bin/bash
# The lean library's properties, checked on an install prefix (make install):
#
#   lean.sh PREFIX OUT_DIR CARGO_ARCHIVE
#
# - a small C program (lean_size.c) linked with the static drop-in,
#   libfastmac-openssh.a, without any special linker option, gains at most
#   150 KB of text (size(1)) over the same program without the UMAC calls:
#   the archive exports the eight umac.h functions only, so LTO kept only
#   UMAC-64 and UMAC-128 and the NH backends (docs/openssh.md section 4
#   gives the figure, with and without -Wl,--gc-sections, which is printed
#   here but not checked); and it records the same NEEDED entries (libc
#   only): no libgcc_s, libm, libpthread from Rust's std;
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
MAX_TEXT_GROWTH=$((150 * 1024))

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' '; }
text() { size --format=berkeley "$1" | awk 'NR == 2 { print $1 }'; }

mkdir -p "$out"
${CC:-cc} -O2 -Wall -Werror -DWITH_FASTMAC -I"$prefix/include/fastmac" "$here/lean_size.c" \
	"$lib/libfastmac-openssh.a" -o "$out/lean_with"
${CC:-cc} -O2 -Wall -Werror -DWITH_FASTMAC -I"$prefix/include/fastmac" "$here/lean_size.c" \
	"$lib/libfastmac-openssh.a" -Wl,--gc-sections -o "$out/lean_with_gc"
${CC:-cc} -O2 -Wall -Werror "$here/lean_size.c" -o "$out/lean_without"
# It runs, and prints a tag (not the zeros of the build without fastmac).
tag=$("$out/lean_with")
if ! [[ "$tag" =~ ^[0-9a-f]{16}$ && "$tag" != 0000000000000000 ]]; then echo "lean: lean_size printed $tag"; exit 1; fi
growth=$(( $(text "$out/lean_with") - $(text "$out/lean_without") ))
growth_gc=$(( $(text "$out/lean_with_gc") - $(text "$out/lean_without") ))
if [ "$growth" -gt "$MAX_TEXT_GROWTH" ]; then
	echo "lean: the static drop-in adds $growth bytes of text (limit $MAX_TEXT_GROWTH)"; exit 1
fi
echo "lean: a program linked with libfastmac-openssh.a gains $growth bytes of text" \
	"(limit $MAX_TEXT_GROWTH, $(( (MAX_TEXT_GROWTH - growth) * 100 / MAX_TEXT_GROWTH ))% below it;" \
	"with -Wl,--gc-sections: $growth_gc)"
with=$(needed "$out/lean_with")
without=$(needed "$out/lean_without")
if [ "$with" != "$without" ]; then echo "lean: NEEDED with the drop-in: $with; without: $without"; exit 1; fi
echo "lean: NEEDED with the drop-in as without: $with"
for so in libfastmac.so libfastmac-openssh.so; do
	if [ "$(needed "$lib/$so")" != "libc.so.6 " ]; then echo "lean: $so needs $(needed "$lib/$so")"; exit 1; fi
done
echo "lean: libfastmac.so and libfastmac-openssh.so need libc.so.6 only"

bitcode() { readelf -S -W "$1" 2>/dev/null | grep -c '\.llvmbc' || true; }
if [ "$(bitcode "$cargo_archive")" -eq 0 ]; then echo "lean: control: $cargo_archive has no .llvmbc section"; exit 1; fi
for a in libfastmac.a libfastmac-openssh.a; do
	if [ "$(bitcode "$lib/$a")" -ne 0 ]; then echo "lean: $a has LLVM bitcode sections"; exit 1; fi
done
count=$(nm "$lib/libfastmac.a" 2>&1 | grep -c ' T fastmac_' || true)
if [ "$count" -lt 40 ]; then echo "lean: nm lists $count fastmac_ functions in libfastmac.a"; exit 1; fi
count=$(nm "$lib/libfastmac-openssh.a" 2>&1 | grep -c -E ' T umac(128)?_(new|update|final|delete)$' || true)
if [ "$count" -ne 8 ]; then echo "lean: nm lists $count of the 8 umac.h functions in libfastmac-openssh.a"; exit 1; fi
echo "lean: no LLVM bitcode in the archives (cargo's has it), nm lists their functions"

for f in libfastmac.a libfastmac.so libfastmac-openssh.a libfastmac-openssh.so; do
	if grep -qa FASTMAC_BACKEND "$lib/$f"; then echo "lean: $f reads FASTMAC_BACKEND"; exit 1; fi
done
echo "lean: no installed library contains FASTMAC_BACKEND"
