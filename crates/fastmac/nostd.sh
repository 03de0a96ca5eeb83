#!/bin/bash
# fastmac without its default features (make test-nostd): for each target
# without an operating system, a debug and a release build (UMAC, Badger,
# the SSH UMACs, nonce counters; no allocator); one build with `alloc` and
# `hmac`; and a check that without `hmac` (with and without `alloc`) no hash
# crate is compiled.
#
#   nostd.sh ALLOC_TARGET TARGET...
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/checks.sh
alloc_target=$1
shift

# What the feature `hmac` brings, and a UMAC-only build must not compile.
hash_crates='hmac|md-5|ripemd|sha1|sha2'

# build TARGET PROFILE [FEATURES]
build() {
	local rustflags=
	# The aes crate's AES-NI code does not compile unoptimized for a target
	# without SSE (LLVM cannot split its vector operations there): a debug
	# build for x86_64-unknown-none takes the crate's software AES, as the
	# crate README tells users to.
	if [ "$1 $2" = "x86_64-unknown-none dev" ]; then rustflags='--cfg aes_backend="soft"'; fi
	RUSTFLAGS="$rustflags" cargo build --profile "$2" -p fastmac --no-default-features --features "${3:-}" --target "$1"
}

# no_hash_crates FEATURES: cargo tree of fastmac without default features
# lists fastmac and none of the hash crates.
no_hash_crates() {
	local deps
	deps=$(cargo tree -p fastmac --no-default-features --features "$1" -e normal --prefix none)
	if ! grep -q '^fastmac ' <<< "$deps"; then
		echo "cargo tree listed no fastmac"
		return 1
	fi
	if grep -E "^($hash_crates) " <<< "$deps"; then
		echo "the crates above are compiled without the feature hmac"
		return 1
	fi
}

for target in "$@"; do
	for profile in dev release; do
		check "fastmac builds without std for $target ($profile)" build "$target" "$profile"
	done
done
check "fastmac builds with alloc and hmac, without std, for $alloc_target" build "$alloc_target" release alloc,hmac
check "no hash crate without hmac" no_hash_crates ""
check "no hash crate without hmac, with alloc" no_hash_crates alloc
checks_done
