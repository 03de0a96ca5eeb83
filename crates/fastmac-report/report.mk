# OpenSSL's libcrypto (libcrypto.so.3): the benchmark's Poly1305 and
# AES-128-GMAC comparators load it at run time, and its unit tests check
# them against RFC 8439 and NIST vectors. Debian 12 ships it as libssl3,
# Debian 13 as libssl3t64.
.PHONY: deps-openssl
deps-openssl:
	@if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libcrypto\.so\.3 '; then \
		echo "installing libssl3 (OpenSSL comparators of fastmac bench)"; \
		{ $(call apt_install,libssl3); } || { $(call apt_install,libssl3t64); }; \
	fi
