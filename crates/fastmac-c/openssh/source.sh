#!/bin/bash
# Fetches Debian's openssh source package of one Debian suite, with
# Debian's patches applied (dpkg-source), into DEST/openssh-*:
#
#   source.sh SUITE DEST        e.g. source.sh bookworm target/openssh/9/src
#
# The deb-src entries (SUITE, SUITE-updates and SUITE-security) and apt's
# package lists live in DEST/apt: the system's apt sources and lists are
# neither read nor changed, so a Debian 12 machine fetches Debian 13's
# (trixie) source as well as its own. The archive keys are those of
# debian-archive-keyring, which Debian 12 ships for both releases.
set -euo pipefail
suite=$1
dest=$2
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

rm -rf "$dest"
mkdir -p "$dest/apt/lists/partial" "$dest/apt/cache/archives/partial" "$dest/apt/sources.list.d"
dest=$(realpath "$dest")
cat > "$dest/apt/sources.list.d/debian-src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite $suite-updates
Components: main
Signed-By: $keyring

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: $suite-security
Components: main
Signed-By: $keyring
EOF
apt_private=(
	-o "Dir::Etc::SourceList=/dev/null"
	-o "Dir::Etc::SourceParts=$dest/apt/sources.list.d"
	-o "Dir::State::Lists=$dest/apt/lists"
	-o "Dir::Cache=$dest/apt/cache"
	# apt drops to the user _apt to download, which cannot write here.
	-o "APT::Sandbox::User=root"
)
apt-get "${apt_private[@]}" update -qq
cd "$dest"
apt-get "${apt_private[@]}" source -qq openssh
ls -d "$dest"/openssh-*/ > /dev/null
