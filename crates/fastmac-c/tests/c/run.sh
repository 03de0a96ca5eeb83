#!/bin/bash
# The C tests of libfastmac (make test-c), built from a scratch install:
#
#   run.sh PREFIX OUT_DIR CARGO_OPENSSH_ARCHIVE CARGO_ARCHIVE
#
# PREFIX is what `make install PREFIX=...` wrote; the tests are compiled
# through pkg-config from there, so the .pc files, the install layout and the
# headers are tested too. Every program links the shared libraries (rpath
# into the prefix): a program using both APIs links both, since
# libfastmac-openssh has the eight umac.h functions only; test_vectors also
# links the static archives (fastmac-openssh-static.pc and libfastmac.a). Each runs natively and under
# valgrind memcheck (zero errors and zero leaks of any kind); the headers also
# parse as C++. Negative controls: a corrupted vector file, a deliberate leak,
# and the static binary's independence from libfastmac.so must be detected.
# Then the libraries' global symbols (exports.sh: the API only) and a
# -ftrapv program linked with each archive (trapv.c: its int overflow must
# reach libgcc's abort, SIGABRT, as without the archive), each with cargo's
# own archives as the negative control (CARGO_OPENSSH_ARCHIVE and
# CARGO_ARCHIVE: compiler_builtins' members global, its __addvsi3 traps with
# SIGILL); lean.sh (cargo's archive of the drop-in is its control too), and
# readme_example.sh (the root README's C example, built and run as
# written). Prints one line per check and "N passed, N failed, N skipped"
# (scripts/checks.sh).
set -euo pipefail
prefix=$1
out=$2
cargo_openssh_archive=$3
cargo_archive=$4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
source "$root/scripts/checks.sh"

vectors=$root/tests/vectors/rfc4418.txt
major=$(sed -n 's/^Version: \([0-9]*\)\..*/\1/p' "$prefix/lib/pkgconfig/fastmac.pc")
read -ra cflags <<< "${C_TEST_CFLAGS:?C_TEST_CFLAGS: the C flags of the tests, set by c.mk}"
pkg() { PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config "$@"; }
# Zero errors and zero leaks of any kind (definite, indirect, possible, reachable).
memcheck() {
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all "$@" >/dev/null
}

read -ra inc <<< "$(pkg --cflags fastmac) -I$(pkg --variable=includedir fastmac)/fastmac"
rpath=-Wl,-rpath,$prefix/lib
read -ra libs <<< "$(pkg --libs fastmac) $rpath"
read -ra ossh <<< "$(pkg --libs fastmac-openssh) $rpath"
read -ra both <<< "${ossh[*]} $(pkg --libs fastmac)"
read -ra static <<< "$(pkg --libs fastmac-openssh-static) $(pkg --libs-only-L fastmac) -l:libfastmac.a"
read -ra nettle_cflags <<< "$(pkg-config --cflags nettle)"
read -ra nettle_libs <<< "$(pkg-config --libs nettle)"

mkdir -p "$out"
cd "$here"
build() {
	local name=$1
	shift
	check "$name compiles with -Werror" "${CC:-cc}" "${cflags[@]}" "${inc[@]}" "$@" -o "$out/$name"
}
build test_vectors test_vectors.c vectors.c "${both[@]}"
build test_vectors_static test_vectors.c vectors.c "${static[@]}"
build test_bad_args test_bad_args.c "${both[@]}"
build test_openssh_packets "${nettle_cflags[@]}" test_openssh_packets.c "${both[@]}" "${nettle_libs[@]}"
build test_ssh_names "${nettle_cflags[@]}" test_ssh_names.c "${libs[@]}" "${nettle_libs[@]}"
build test_nonce_owning test_nonce_owning.c "${libs[@]}"
build openssh_umac ../../examples/openssh_umac.c "${ossh[@]}"
build test_threads test_threads.c "${both[@]}" -pthread
build leak_control leak_control.c "${ossh[@]}"
headers_as_cxx() {
	printf '#include <fastmac.h>\n#include <umac.h>\nint main(void) { return 0; }\n' |
		c++ -std=c++11 -Wall -Werror "${inc[@]}" -x c++ - -o /dev/null -fsyntax-only
}
check "fastmac.h and umac.h parse as C++11" headers_as_cxx

cd "$out"
# (grep reads ldd's whole output from a variable: `ldd | grep -q` under
# pipefail can fail with SIGPIPE when grep stops at its first match.)
links_to() { grep -q "$2 => $prefix/lib/" <<< "$(ldd "$1")"; }
links_libfastmac() { grep -q libfastmac <<< "$(ldd "$1")"; }
check "test_vectors loads the installed libfastmac-openssh.so.$major" links_to ./test_vectors "libfastmac-openssh.so.$major"
check "test_nonce_owning loads the installed libfastmac.so.$major" links_to ./test_nonce_owning "libfastmac.so.$major"
refuse "test_vectors_static loads a libfastmac shared library" links_libfastmac ./test_vectors_static

programs=("test_vectors $vectors" "test_vectors_static $vectors" test_bad_args test_openssh_packets
	test_ssh_names test_nonce_owning test_threads openssh_umac)
for program in "${programs[@]}"; do
	read -ra argv <<< "$program"
	check "${argv[0]} passes" "./${argv[0]}" "${argv[@]:1}"
done
for program in "${programs[@]}"; do
	read -ra argv <<< "$program"
	check "${argv[0]} under valgrind memcheck: 0 errors, 0 leaks" memcheck "./${argv[0]}" "${argv[@]:1}"
done

# Negative controls: one tag digit of the vector file changed, and a program
# that leaks a context on purpose (leak_control.c).
sed 's/D4D7B9F6BD4FBFCF/D4D7B9F6BD4FBFCE/' "$vectors" > bad_vectors.txt
refuse "the corrupted vector file equals the original (the sed edit must change a tag)" cmp -s "$vectors" bad_vectors.txt
refuse "test_vectors on a vector file with one wrong tag digit" ./test_vectors bad_vectors.txt
refuse "valgrind memcheck on leak_control, which leaks a context" memcheck ./leak_control

for library in libfastmac.a libfastmac.so; do
	check "exports.sh: $library defines only fastmac_ functions as global symbols" \
		"$here/exports.sh" "$prefix/lib/$library" fastmac
done
for library in libfastmac-openssh.a libfastmac-openssh.so; do
	check "exports.sh: $library defines only the 8 umac.h functions as global symbols" \
		"$here/exports.sh" "$prefix/lib/$library" openssh
done
# The controls: exports.sh must fail, and name global symbols outside the
# API (libgcc's __addvsi3 among cargo's), not fail for another reason.
exports_outside_api() {
	local report
	if report=$("$here/exports.sh" "$1" "$2"); then echo "exports.sh passed $1 as $2"; return 1; fi
	grep -q "global symbols outside its API" <<< "$report" && grep -qx "$3" <<< "$report"
}
check "control: exports.sh refuses cargo's archive of the drop-in, for __addvsi3 and the like" \
	exports_outside_api "$cargo_openssh_archive" openssh __addvsi3
check "control: exports.sh refuses cargo's archive of libfastmac, for __addvsi3 and the like" \
	exports_outside_api "$cargo_archive" fastmac __addvsi3
check "control: exports.sh refuses libfastmac.so as the drop-in, for its fastmac_ functions" \
	exports_outside_api "$prefix/lib/libfastmac.so" openssh fastmac_mac_new
check "control: exports.sh refuses libfastmac-openssh.so as libfastmac, for umac_new" \
	exports_outside_api "$prefix/lib/libfastmac-openssh.so" fastmac umac_new

# The -ftrapv program: without a library (the control: libgcc's trap),
# with each installed archive, and with cargo's (the negative controls).
# Exit status 134 is death by SIGABRT (128 + 6), 132 by SIGILL (128 + 4).
# (check's own locals, out and status, would shadow run.sh's in these
# functions: bash scopes dynamically.)
trapv_dir=$out
exits_with() {
	local expected=$1 code=0
	shift
	(ulimit -c 0; exec "$@") > /dev/null 2>&1 || code=$?
	if [ "$code" -ne "$expected" ]; then echo "$* exited with $code, not $expected"; return 1; fi
}
defines() { grep -q " T $2\$" <<< "$(nm "$1")"; }
trapv() {
	local name=$1
	shift
	"${CC:-cc}" -O2 -ftrapv -Wall -Werror "${inc[@]}" "$here/trapv.c" "$@" -o "$trapv_dir/$name"
}
check "trapv.c compiles with -ftrapv, no library" trapv trapv_alone
check "trapv_alone overflows into libgcc's abort (SIGABRT, exit 134)" exits_with 134 "$trapv_dir/trapv_alone"
for variant in "trapv_openssh -DWITH_OPENSSH $prefix/lib/libfastmac-openssh.a umac_new" \
	"trapv_fastmac -DWITH_FASTMAC $prefix/lib/libfastmac.a fastmac_umac_counter_nonce" \
	"trapv_cargo_openssh -DWITH_OPENSSH $cargo_openssh_archive umac_new" \
	"trapv_cargo -DWITH_FASTMAC $cargo_archive fastmac_umac_counter_nonce"; do
	read -r name define archive function <<< "$variant"
	check "trapv.c compiles with -ftrapv and $archive" trapv "$name" "$define" "$archive"
	check "$name holds the archive's code ($function)" defines "$trapv_dir/$name" "$function"
	case $name in
	trapv_cargo*) check "control: $name (cargo's archive) dies by SIGILL, exit 132: compiler_builtins' __addvsi3" \
		exits_with 132 "$trapv_dir/$name" ;;
	*) check "$name overflows into libgcc's abort (SIGABRT, exit 134)" exits_with 134 "$trapv_dir/$name" ;;
	esac
done

check "lean.sh: the lean library's size, NEEDED entries, archives and build flags" \
	"$here/lean.sh" "$prefix" "$out/lean" "$cargo_openssh_archive"
check "readme_example.sh: the root README's C example builds as written and prints the RFC 4418 tag of abc" \
	"$here/readme_example.sh" "$root" "$prefix" "$out/readme"
checks_done
