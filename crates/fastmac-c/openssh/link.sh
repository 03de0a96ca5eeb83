#!/bin/bash
# Links ssh and sshd of a tree prepared by build.sh against one UMAC
# implementation and moves them to OUT_DIR:
#
#   link.sh BUILD_TREE OUT_DIR UMAC_LIBS...
#
# UMAC_LIBS is what replaces umac.o and umac128.o on the link line: the
# libfastmac drop-in archive (with the system libraries Rust's std needs),
# or OpenSSH's own `umac.o umac128.o` for the stock build.
set -euo pipefail
tree=$1
out=$2
shift 2
mkdir -p "$out"
out=$(realpath "$out")
cd "$tree"
rm -f ssh sshd
make -s umac.o umac128.o
make -s ssh sshd UMAC_LIBS="$*"
mv ssh sshd "$out/"
