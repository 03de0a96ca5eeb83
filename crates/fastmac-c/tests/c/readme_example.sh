#!/bin/bash
# The root README's C example, as written: its ```c block is app.c, and its
# ```sh block that builds app.c runs line by line with /opt/fastmac (the
# README's prefix) replaced by the prefix `make install` filled. The block's
# `make install` line is that install (test-c ran it); ssh_mac.c, the
# README's program "written against OpenSSH's header", is
# crates/fastmac-c/examples/openssh_umac.c. app must print the UMAC-64 tag of
# "abc" from tests/vectors/rfc4418.txt.
#
# usage: readme_example.sh REPOSITORY PREFIX SCRATCH_DIR
set -euo pipefail
repo=$1 prefix=$2 dir=$3
readme="$repo"/README.md

# The lines of the first ```LANG block that contains TEXT.
block() {
    awk -v lang="$1" -v text="$2" '
        $0 == "```" lang { inside = 1; body = ""; next }
        inside && $0 == "```" { inside = 0; if (index(body, text)) { printf "%s", body; exit } next }
        inside { body = body $0 "\n" }
    ' "$readme"
}

rm -rf "$dir"
mkdir -p "$dir"
block c fastmac_umac_compute > "$dir/app.c"
block sh app.c > "$dir/build.sh"
for file in app.c build.sh; do
    if [ ! -s "$dir/$file" ]; then
        echo "readme_example: no $file block in $readme"
        exit 1
    fi
done
if ! grep -q '^make install PREFIX=/opt/fastmac' "$dir/build.sh"; then
    echo "readme_example: the README's build block no longer installs into /opt/fastmac"
    exit 1
fi
cp "$repo/crates/fastmac-c/examples/openssh_umac.c" "$dir/ssh_mac.c"
sed -e '/^make install /d' -e "s|/opt/fastmac|$prefix|g" "$dir/build.sh" > "$dir/build-here.sh"

expected=$(awk '$1 == "abc" && $2 == "1" { print tolower($4) }' "$repo/tests/vectors/rfc4418.txt")
output=$(cd "$dir" && bash -euo pipefail build-here.sh)
if [ "$output" != "$expected" ]; then
    echo "readme_example: app printed '$output', the vector file says '$expected'"
    exit 1
fi
echo "README C example: built and ran as written, printed $output"
