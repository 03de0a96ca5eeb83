# shellcheck shell=bash
# Counted checks for the test scripts of `make test` (bash; source it).
#
#   source scripts/checks.sh
#   check "what it shows" command args...      # passes when the command succeeds
#   refuse "what must be refused" command...    # a negative control: passes when the
#                                               # command FAILS (exit 1 to 125); its
#                                               # success, or a command that could not
#                                               # run (126, 127) or died of a signal
#                                               # (128 and above), fails
#   skip "why this does not run here"           # counted and printed, never passed
#   checks_done                                 # "N passed, N failed, N skipped";
#                                               # exit status 1 if any check failed
#
# Each check prints one line (ok, FAILED, refused as it must be, NOT REFUSED,
# SKIP) and a failed check's output. scripts/suite.py reads the closing line
# and the SKIP lines into the summary table of `make test`. A check's command
# runs in the script's shell, so `set -e` does not stop the script at a failed
# check: every check runs, the closing line counts them all. Feed grep -q a
# variable (`grep -q X <<< "$(cmd)"`), not a pipe: under pipefail
# `cmd | grep -q X` fails with SIGPIPE when grep stops at its first match.

CHECKS_PASSED=0
CHECKS_FAILED=0
CHECKS_SKIPPED=0

# check WHAT COMMAND...: the command must succeed.
check() {
	local what=$1
	shift
	local out status=0
	out=$("$@" 2>&1) || status=$?
	if [ "$status" -eq 0 ]; then
		CHECKS_PASSED=$((CHECKS_PASSED + 1))
		echo "ok: $what"
	else
		CHECKS_FAILED=$((CHECKS_FAILED + 1))
		echo "FAILED: $what (exit $status): $*"
		[ -z "$out" ] || printf '%s\n' "$out" | tail -n 40
	fi
}

# refuse WHAT COMMAND...: a negative control; the command must fail.
refuse() {
	local what=$1
	shift
	local out status=0
	out=$("$@" 2>&1) || status=$?
	if [ "$status" -ge 1 ] && [ "$status" -le 125 ]; then
		CHECKS_PASSED=$((CHECKS_PASSED + 1))
		echo "ok: refused as it must be: $what (exit $status)"
	elif [ "$status" -eq 0 ]; then
		CHECKS_FAILED=$((CHECKS_FAILED + 1))
		echo "FAILED: NOT REFUSED (the negative control was not detected): $what: $*"
		[ -z "$out" ] || printf '%s\n' "$out" | tail -n 40
	else
		CHECKS_FAILED=$((CHECKS_FAILED + 1))
		echo "FAILED: the negative control did not run (exit $status: not found, not executable, or a signal): $what: $*"
		[ -z "$out" ] || printf '%s\n' "$out" | tail -n 40
	fi
}

# skip REASON: a check that does not run here, with why.
skip() {
	CHECKS_SKIPPED=$((CHECKS_SKIPPED + 1))
	echo "SKIP: $1"
}

# The closing line; exit status 1 when a check failed.
checks_done() {
	echo "$CHECKS_PASSED passed, $CHECKS_FAILED failed, $CHECKS_SKIPPED skipped"
	if [ "$CHECKS_FAILED" -ne 0 ]; then
		exit 1
	fi
	exit 0
}
