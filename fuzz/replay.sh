#!/bin/bash
# Replays each fuzz target's checked-in corpus once (make test-fuzz): every
# input of the target's folder in fuzz/corpus/ runs through the target built by `cargo fuzz
# build --dev` (AddressSanitizer, libFuzzer; unoptimized, with debug
# assertions and overflow checks), bounded in time; a crash, a sanitizer
# report or an empty corpus fails the target's check.
#
#   replay.sh TARGET...
set -euo pipefail
cd "$(dirname "$0")"
source ../scripts/checks.sh

replay() {
	local target=$1 log
	log=$(RUSTC_BOOTSTRAP=1 timeout 120 cargo fuzz run --dev "$target" "corpus/$target" -- -runs=0 2>&1)
	tail -n 1 <<< "$log"
	grep -q "INITED" <<< "$log"
}
for target in "$@"; do
	inputs=$(find "corpus/$target" -type f | wc -l)
	if [ "$inputs" -eq 0 ]; then
		check "fuzz/corpus/$target has inputs" false
		continue
	fi
	check "$target replays its $inputs corpus inputs without a crash" replay "$target"
done
checks_done
