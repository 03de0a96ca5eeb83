#!/bin/bash
# The steps docs/openssh.md gives (its code block after the line
# "<!-- packager.sh -->") are packager.sh's (between its "# --- docs/openssh.md:
# steps ---" and "# --- end of steps ---" lines), line for line, so that the
# script make test runs is what the documentation says:
#
#   docs-check.sh DOC PACKAGER
#
# Prints one line per check and "N passed, N failed, N skipped"
# (scripts/checks.sh).
set -euo pipefail
doc=$1
packager=$2
source "$(dirname "$0")/../../../scripts/checks.sh"

documented=$(sed -n '/^<!-- packager.sh -->$/,/^```$/p' "$doc" | sed '1,2d;$d')
scripted=$(sed -n '/^# --- docs\/openssh.md: steps ---$/,/^# --- end of steps ---$/p' "$packager" | sed '1d;$d')
check "$packager has marked steps" test -n "$scripted"
check "$doc has a code block after <!-- packager.sh -->" test -n "$documented"
check "$doc gives $packager's steps ($(wc -l <<< "$scripted") lines), line for line" \
	diff <(echo "$documented") <(echo "$scripted")
checks_done
