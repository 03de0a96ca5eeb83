#!/bin/bash
# apt-get install PACKAGE... for make's deps-* targets, non-interactive and
# without recommended packages; apt's and dpkg's output go to
# target/apt.log (its end is shown when an install fails). The package
# lists are fetched once (target/.apt-updated), and again when an install
# fails on stale lists; a dpkg lock held by another apt-get is waited for
# (up to 10 minutes). Two suites that make test runs side by side install
# one after the other (target/apt.lock).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
apt=(apt-get -qq -o DPkg::Lock::Timeout=600)
mkdir -p target
log=target/apt.log
exec 9> target/apt.lock
flock 9

update() {
	if ! "${apt[@]}" update >> "$log" 2>&1; then
		tail -n 20 "$log"
		return 1
	fi
	touch target/.apt-updated
}
install_packages() {
	"${apt[@]}" install -y --no-install-recommends "$@" >> "$log" 2>&1
}

echo "apt-get install $* (output in $log)"
if [ ! -f target/.apt-updated ]; then
	update
fi
if ! install_packages "$@"; then
	echo "apt-get install $* failed: fetching the package lists again, then one more try"
	update
	if ! install_packages "$@"; then
		tail -n 20 "$log"
		exit 1
	fi
fi
