#!/bin/bash
# The workspace's library documentation (make test-rustdoc): built with
# docs.rs's features, every rustdoc warning an error (broken intra-doc links
# among them), and no link left as literal "[`name`]" text in the crate and
# module pages of our own crates (rustdoc does that without a warning for a
# re-exported extern crate).
#
#   rustdoc.sh CRATE...       (the crates' names as rustdoc writes them)
#
# The pages go to $CARGO_TARGET_DIR/doc (target/doc by default; make
# test-rustdoc builds in target/lint, beside make lint's clippy, so that
# the dependencies checked for one serve the other).
#
# Prints one line per check and "N passed, N failed, N skipped"
# (scripts/checks.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/checks.sh

# rustdoc links another crate's items only if that crate's folder exists
# under the doc folder when it starts, and otherwise leaves them as literal
# text without a warning; cargo clears the folder of each crate it is about
# to document, in an order of its own, so a folder made beforehand does not
# help. The crates are therefore documented in their dependency order, one
# cargo run each: fastmac, then fastmac-gears (which links fastmac), then
# the others (which link both), each run leaving out what an earlier one
# documented (--no-deps: a dependency left out is not documented again).
doc_dir=${CARGO_TARGET_DIR:-target}/doc
doc() {
	RUSTDOCFLAGS='-D warnings' "${CARGO:-cargo}" doc --no-deps --lib --features fastmac/parallel "$@"
}
build_docs() {
	doc -p fastmac
	doc -p fastmac-gears
	doc --workspace --exclude fastmac --exclude fastmac-gears
}
check "cargo doc --workspace under -D warnings" build_docs
pages=()
for crate in "$@"; do
	found=$(find "$doc_dir/$crate" -name index.html 2>/dev/null || true)
	check "rustdoc wrote the pages of $crate" test -n "$found"
	[ -z "$found" ] || mapfile -t -O "${#pages[@]}" pages <<< "$found"
done
# grep's status 1 (nothing found) passes; 0 (found: the pages are listed)
# and 2 (a page could not be read) fail.
no_literal_links() {
	local status=0
	grep -lE '\[<code>[^<]*</code>\]' "${pages[@]}" || status=$?
	[ "$status" -eq 1 ]
}
if [ "${#pages[@]}" -gt 0 ]; then
	check "no link left as literal [name] text in ${#pages[@]} crate and module pages" no_literal_links
fi
checks_done
