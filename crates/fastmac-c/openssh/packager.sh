#!/bin/bash
# The steps of docs/openssh.md section 1 ("Linking OpenSSH with libfastmac"),
# exactly as documented, run by `make test-openssh` on each OpenSSH tree it
# builds (Debian 12's 9.2p1 and Debian 13's 10.0p1):
#
#   packager.sh TREE
#
# TREE is an OpenSSH source tree (a release tarball, Debian's source package
# or a git checkout of openssh-portable), edited and built in place.
# pkg-config must find fastmac-openssh-static.pc (PKG_CONFIG_PATH for an
# install prefix other than the system's). The lines between the markers are
# the documentation's code block, character for character: openssh.mk
# (openssh-docs) fails when the two differ.
set -euo pipefail
cd "$1"

# --- docs/openssh.md: steps ---
autoreconf -i
umac_libs=$(pkg-config --libs fastmac-openssh-static)
sed -i -e 's/ umac\.o umac128\.o / /' \
	-e "s|^LIBS=@LIBS@\$|UMAC_LIBS=$umac_libs\nLIBS=@LIBS@ \$(UMAC_LIBS)|" Makefile.in
if sed -n '/^LIBSSH_OBJS=/,/^$/p' Makefile.in | grep -n 'umac'; then
	echo "umac.o or umac128.o is still in LIBSSH_OBJS" >&2; exit 1
fi
if ! grep -q '^LIBS=@LIBS@ \$(UMAC_LIBS)$' Makefile.in; then
	echo "Makefile.in has no line LIBS=@LIBS@" >&2; exit 1
fi
./configure --with-cflags="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)" \
	--with-ldflags="-Wl,--as-needed $(dpkg-buildflags --get LDFLAGS)" \
	--prefix=/usr --libexecdir=/usr/lib/openssh --sysconfdir=/etc/ssh \
	--with-privsep-path=/run/sshd --disable-strip \
	--without-pam --without-kerberos5 --without-selinux --without-libedit \
	--disable-security-key --without-zlib-version-check
make -j"$(nproc)"
make install DESTDIR="$PWD/destdir"
# --- end of steps ---
