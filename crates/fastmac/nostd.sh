#!/bin/bash
# fastmac without its default `std` feature (make test-nostd): a build for
# each target without an operating system (UMAC, Badger, HMAC, SSH MACs,
# nonce counters; no allocator), and one with `alloc`.
#
#   nostd.sh ALLOC_TARGET TARGET...
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/checks.sh
alloc_target=$1
shift
for target in "$@"; do
	check "fastmac builds without std for $target" \
		cargo build --release -p fastmac --no-default-features --target "$target"
done
check "fastmac builds with alloc, without std, for $alloc_target" \
	cargo build --release -p fastmac --no-default-features --features alloc --target "$alloc_target"
checks_done
