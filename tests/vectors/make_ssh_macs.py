"""Writes ssh_macs.txt: SSH MAC known answers computed WITHOUT fastmac.

HMAC names: CPython's hmac (OpenSSL) over uint32 seq || packet, truncated
(RFC 4253 section 6.4). UMAC names: GNU Nettle (libnettle, ctypes) with the
sequence number as the 8-byte big-endian nonce (OpenSSH mac.c). The etm
forms compute the same function over uint32 length || ciphertext, which
here is just the given bytes.

Run: python3 tests/vectors/make_ssh_macs.py > tests/vectors/ssh_macs.txt
"""

import ctypes
import ctypes.util
import hashlib
import hmac
import random

HMACS = {  # name: (hash, key length, tag length)
    "hmac-sha1": ("sha1", 20, 20), "hmac-sha1-96": ("sha1", 20, 12),
    "hmac-sha2-256": ("sha256", 32, 32), "hmac-sha2-512": ("sha512", 64, 64),
    "hmac-md5": ("md5", 16, 16), "hmac-md5-96": ("md5", 16, 12),
    "hmac-ripemd160": ("ripemd160", 20, 20), "hmac-ripemd160@openssh.com": ("ripemd160", 20, 20),
}
for name in list(HMACS):
    if not name.endswith("@openssh.com"):
        HMACS[name + "-etm@openssh.com"] = HMACS[name]
UMACS = {"umac-64@openssh.com": 8, "umac-128@openssh.com": 16, "umac-64-etm@openssh.com": 8, "umac-128-etm@openssh.com": 16}

nettle = ctypes.CDLL(ctypes.util.find_library("nettle") or "libnettle.so.8")


def nettle_umac(size, key, nonce, message):
    bits = size * 8
    ctx, out = ctypes.create_string_buffer(4096), ctypes.create_string_buffer(size)
    getattr(nettle, f"nettle_umac{bits}_set_key")(ctx, key)
    getattr(nettle, f"nettle_umac{bits}_set_nonce")(ctx, ctypes.c_size_t(len(nonce)), nonce)
    getattr(nettle, f"nettle_umac{bits}_update")(ctx, ctypes.c_size_t(len(message)), message)
    getattr(nettle, f"nettle_umac{bits}_digest")(ctx, ctypes.c_size_t(size), out)
    return out.raw


print("# SSH MAC known answers, computed without fastmac (see make_ssh_macs.py):")
print("# HMACs by CPython's hmac (OpenSSL) over uint32 seq || packet; UMACs by")
print("# GNU Nettle with nonce = seq as 8 big-endian bytes. Packet '-' is empty.")
print("# name seq key-hex packet-hex tag-hex")
for name in sorted(HMACS) + sorted(UMACS):
    rng = random.Random(name)
    key_len = HMACS[name][1] if name in HMACS else 16
    key = rng.randbytes(key_len)
    for seq, length in ((0, 0), (3, 37), (2**32 - 1, 1500), (rng.getrandbits(32), 5000)):
        packet = rng.randbytes(length)
        if name in HMACS:
            digest, _, tag_len = HMACS[name]
            tag = hmac.new(key, seq.to_bytes(4, "big") + packet, digest).digest()[:tag_len]
        else:
            tag = nettle_umac(UMACS[name], key, seq.to_bytes(8, "big"), packet)
        print(name, seq, key.hex(), packet.hex() or "-", tag.hex())
