#!/bin/bash
# Configures and compiles OpenSSH from Debian's source package in a tree of
# its own, with Debian's compiler flags, and prepares its Makefile to link
# libfastmac in place of OpenSSH's umac.c / umac128.c:
#
#   build.sh SOURCE_TREE BUILD_TREE
#
# The edit is two sed expressions on the configured Makefile (so it applies
# to any OpenSSH release that still lists the two objects):
#   - ` umac.o umac128.o` is removed from LIBSSH_OBJS;
#   - `$(UMAC_LIBS)` is appended to LIBS, the libraries every program is
#     linked with.
# UMAC_LIBS is then given on the make command line, once per variant (see
# link.sh): libfastmac's OpenSSH drop-in, or OpenSSH's own umac objects.
set -euo pipefail
src=$(realpath "$1")
build=$2

rm -rf "$build"
cp -a "$src" "$build"
cd "$build"
# Debian patches configure.ac: regenerate configure (OpenSSH ships its
# aclocal.m4, so autoconf and autoheader suffice).
autoconf -f && autoheader -f
# Debian's flags (dpkg-buildflags: -O2, stack protector, _FORTIFY_SOURCE,
# relro), as debian/rules passes them; the features a test does not need
# (PAM, Kerberos, SELinux, libedit, systemd, FIDO keys) are left out.
./configure -q \
	--with-cflags="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)" \
	--with-ldflags="-Wl,--as-needed $(dpkg-buildflags --get LDFLAGS)" \
	--prefix=/usr --sysconfdir="$PWD/etc" --with-privsep-path=/run/sshd \
	--with-pid-dir="$PWD" --without-pam --without-kerberos5 --without-selinux \
	--without-libedit --disable-security-key --without-zlib-version-check
sed -i -e 's/ umac\.o umac128\.o / /' -e 's/^LIBS=.*/& $(UMAC_LIBS)/' Makefile
grep -q '^LIBSSH_OBJS=' Makefile
if sed -n '/^LIBSSH_OBJS=/,/^$/p' Makefile | grep -n 'umac'; then
	echo "build.sh: umac objects still listed in the Makefile" >&2
	exit 1
fi
# Everything but the final links of the programs.
make -s -j"$(nproc)" libssh.a openbsd-compat/libopenbsd-compat.a
