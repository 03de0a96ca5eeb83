#!/bin/bash
# ssh and sshd of the fastmac build define the eight OpenSSH UMAC functions,
# carry fastmac's code and none of umac.c (its static nh_aux); the stock
# build must show the opposite, so that the check can fail (make openssh-nm).
#
#   nm-check.sh FASTMAC_DIR STOCK_DIR
set -euo pipefail
fastmac=$1
stock=$2
source "$(dirname "$0")/../../../scripts/checks.sh"
UMAC_FUNCTIONS=(umac_new umac_update umac_final umac_delete umac128_new umac128_update umac128_final umac128_delete)

# (grep reads nm's whole output from a variable: `nm | grep -q` under
# pipefail fails with SIGPIPE when grep stops at its first match.)
defines() { grep -q " T $2\$" <<< "$(nm "$1")"; }
has_fastmac_umac() { grep -q '7fastmac4umac' <<< "$(nm "$1")"; }
has_umac_c() { grep -q ' t nh_aux$' <<< "$(nm "$1")"; }
for program in ssh sshd; do
	for function in "${UMAC_FUNCTIONS[@]}"; do
		check "fastmac $program defines $function" defines "$fastmac/$program" "$function"
	done
	check "fastmac $program carries fastmac::umac code" has_fastmac_umac "$fastmac/$program"
	refuse "fastmac $program carries umac.c (nh_aux)" has_umac_c "$fastmac/$program"
	check "control: stock $program carries umac.c (nh_aux)" has_umac_c "$stock/$program"
	refuse "control: stock $program carries fastmac::umac code" has_fastmac_umac "$stock/$program"
done
checks_done
