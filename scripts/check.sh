#!/bin/bash
# One counted check, for a recipe whose test is a single command:
#
#   check.sh "what it shows" COMMAND ARG...
#
# Prints the check's line and "1 passed, 0 failed, 0 skipped" (or "0
# passed, 1 failed", exit status 1), for scripts/suite.py.
set -euo pipefail
source "$(dirname "$0")/checks.sh"
what=$1
shift
check "$what" "$@"
checks_done
