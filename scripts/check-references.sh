#!/bin/bash
# The reference check (make check-references): its own tests first, so that
# it cannot pass vacuously, then every file reference, numbered section,
# issue or seed number in the tracked files must resolve inside the
# repository (--strict: code cites a note by its path, docs/gears.md, not by
# a bare file name). Python 3 standard library only; git lists the files.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/checks.sh

python3 scripts/test_check_references.py -q
check "every reference in the tracked files resolves inside the repository" \
	python3 scripts/check_references.py --strict
checks_done
