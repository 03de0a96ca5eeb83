#!/bin/bash
# What the cross suites need (make deps-cross): the Rust targets, the Debian
# cross compilers and C libraries of s390x and aarch64 (cargo links with
# them), and qemu-user (the runner, set in .cargo/config.toml). Installs what
# is missing.
#
#   deps-cross.sh RUST_TARGET...
set -euo pipefail
cd "$(dirname "$0")/.."
installed=$(rustup target list --installed)
for target in "$@"; do
	if ! grep -qx "$target" <<< "$installed"; then
		rustup target add "$target"
	fi
done
packages=()
for arch in s390x aarch64; do
	if ! command -v "$arch-linux-gnu-gcc" >/dev/null || [ ! -f "/usr/$arch-linux-gnu/lib/crt1.o" ]; then
		case $arch in
			s390x) packages+=(gcc-s390x-linux-gnu libc6-dev-s390x-cross) ;;
			aarch64) packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross) ;;
		esac
	fi
done
if ! command -v qemu-s390x >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
	packages+=(qemu-user)
fi
if [ "${#packages[@]}" -gt 0 ]; then
	echo "installing ${packages[*]} (cross suites)"
	scripts/apt-install.sh "${packages[@]}"
fi
