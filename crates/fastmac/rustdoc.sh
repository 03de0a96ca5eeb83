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
# under target/doc when it starts, and otherwise leaves them as literal text
# without a warning; while one crate's rustdoc runs, another's folder may not
# exist yet. So the folders are made first and the crates documented one at
# a time (-j1), after their dependencies are checked in parallel.
doc_dir=${CARGO_TARGET_DIR:-target}/doc
for crate in "$@"; do
	mkdir -p "$doc_dir/$crate"
done
doc_features=(--workspace --lib --features fastmac/parallel)
build_docs() {
	"${CARGO:-cargo}" check "${doc_features[@]}"
	RUSTDOCFLAGS='-D warnings' "${CARGO:-cargo}" doc --no-deps "${doc_features[@]}" -j1
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
