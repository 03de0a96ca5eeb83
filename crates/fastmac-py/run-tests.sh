#!/bin/bash
# The Python tests against the wheel FILE (make test-python, test-python-abi3):
#
#   run-tests.sh PYTHON WHEEL_DIR VENV PYTEST_ARG...
#
# A fresh venv of the CPython PYTHON at VENV, the test packages, the wheel
# from WHEEL_DIR (no dependencies), then pytest from crates/fastmac-py with
# no cargo or rustc on PATH (checked) and fastmac imported from the venv, not
# the source tree (checked). FASTMAC_CLI (the Rust CLI, for the differential
# tests) and PY_TEST_PACKAGES come from py.mk.
set -euo pipefail
python=$1
wheel_dir=$(realpath "$2")
venv=$(realpath -m "$3")
shift 3
cd "$(dirname "$0")"
read -ra packages <<< "${PY_TEST_PACKAGES:?PY_TEST_PACKAGES: the test packages, set by py.mk}"
pip_quiet=(-q --disable-pip-version-check)

version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
echo "== fastmac wheel on CPython $version ($python), fresh venv $venv"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install "${pip_quiet[@]}" "${packages[@]}"
wheels=("$wheel_dir"/fastmac-*.whl)
if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
	echo "expected one fastmac wheel in $wheel_dir, found: ${wheels[*]}"
	exit 1
fi
"$venv/bin/python" -m pip install "${pip_quiet[@]}" --no-deps "${wheels[0]}"

# PATH without the Rust toolchain.
no_rust_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e '/\.cargo/bin' -e '/\.rustup' | paste -sd:)
for tool in cargo rustc; do
	if PATH=$no_rust_path command -v "$tool" >/dev/null; then
		echo "$tool is still on the tests' PATH: $(PATH=$no_rust_path command -v "$tool")"
		exit 1
	fi
done
PATH=$no_rust_path "$venv/bin/python" -c \
	'import fastmac, sys; assert fastmac.__file__.startswith(sys.prefix), fastmac.__file__'
PATH=$no_rust_path timeout 1500 "$venv/bin/python" -m pytest -p no:cacheprovider -q -rs "$@"
