#!/bin/bash
# The archive `make install` installs, from cargo's staticlib: one
# relocatable object whose only global definitions are the library's C API,
# so that a C program linking it keeps its own libgcc, libm and libc.
#
#   api-archive.sh CARGO_ARCHIVE CDYLIB OUT_ARCHIVE
#
# Cargo's staticlib holds the crate's object and every member of Rust's
# compiler_builtins, whose global definitions carry libgcc's names
# (__addvsi3, __mulvdi3, __udivti3, ...) and, as weak symbols, libm's (sqrt,
# fmod, ...): linked before libgcc, they would replace libgcc's in the whole
# program. compiler_builtins' __addvsi3 traps with ud2 (SIGILL) where
# libgcc's calls abort() (SIGABRT), which changes what a `-ftrapv` program
# such as OpenSSH does on an overflow (GCC manual, "Code Gen Options",
# -ftrapv).
#
# 1. `ld -r` links the members that the API reaches (the API's names as
#    undefined roots, -u) into one object: the members nothing calls stay
#    out, and a reference no member defines (malloc, memcpy, abort: libc)
#    stays undefined, for the program's own libraries to resolve. (With
#    --whole-archive instead, the object would also need
#    rust_eh_personality, which some compiler_builtins members refer to and
#    a panic = "abort" build does not define: no C program could link it.)
# 2. `objcopy --keep-global-symbols` makes every other definition, strong or
#    weak, local to that object; the undefined references stay global.
#    It also drops the LLVM bitcode that compiler_builtins' members carry
#    (GNU nm with the LLVM plugin would read it instead of the code).
#
# The API is what the shared library CDYLIB (the same cargo build) exports:
# rustc gives a cdylib a version script of the crate's exported C functions
# (`#[no_mangle] pub extern "C"`), so the two libraries export one list.
set -euo pipefail
cargo_archive=$1
cdylib=$2
out=$3

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nm -D --defined-only "$cdylib" | awk 'NF == 3 { print $3 }' | sort -u > "$work/api"
if [ ! -s "$work/api" ]; then echo "api-archive.sh: $cdylib exports nothing" >&2; exit 1; fi

roots=()
while read -r name; do roots+=("-u" "$name"); done < "$work/api"
object=$(basename "$out" .a).o
${LD:-ld} -r "${roots[@]}" -o "$work/linked.o" "$cargo_archive"
objcopy --keep-global-symbols="$work/api" --remove-section=.llvmbc --remove-section=.llvmcmd \
	"$work/linked.o" "$work/$object"

# The object must define exactly the API as global (and weak) symbols.
nm -g --defined-only "$work/$object" | awk 'NF == 3 { print $3 }' | sort -u > "$work/defined"
if ! cmp -s "$work/api" "$work/defined"; then
	echo "api-archive.sh: global definitions other than $cdylib's exports:" >&2
	diff "$work/api" "$work/defined" >&2 || true
	exit 1
fi
rm -f "$out"
ar rcsD "$out" "$work/$object"
