"""Per-packet cost of MACs from Python: fastmac.SequencedUMAC.tag (owns its
counter nonce) and fastmac.ssh.MAC.compute (keyed once per direction)
against the standard library's hmac (SHA-256, OpenSSL underneath) and the
PyPI package `umac` 2.0 (which can only key per message: UMAC(digest_size,
key, nonce) + update + digest), all in one interleaved run.

Run: make bench-python   (or: python bench/ssh_mac_cost.py [--quick] [--markdown])
Prints the median over several interleaved timing rounds, in ns per packet.
"""

from __future__ import annotations

import argparse
import ctypes
import hmac
import os
import statistics
import sys
import timeit

import fastmac
import fastmac.compat
import fastmac.ssh

try:
    import umac
except ImportError:  # the comparison needs it; fastmac's own rows do not
    umac = None

FIX_NONE = sys.version_info < (3, 12)  # umac 2.0's update() returns a borrowed None


def pypi_umac_packet(size: int, key: bytes):
    incref = ctypes.pythonapi.Py_IncRef
    none = ctypes.py_object(None)

    def run(seq: int, packet: bytes) -> bytes:
        mac = umac.UMAC(size, key, seq.to_bytes(8, "big"))
        mac.update(packet)
        if FIX_NONE:
            incref(none)
        return mac.digest()

    return run


def timer(fn, packet: bytes, number: int):
    """A timeit.Timer running ``number`` packets with increasing seq."""
    seq = [0]

    def one() -> None:
        seq[0] = (seq[0] + 1) & 0xFFFFFFFF
        fn(seq[0], packet)

    return timeit.Timer(one), number


def measure_interleaved(cases, repeat: int) -> list[float]:
    """Median ns/packet per case; the cases take turns in every round so
    that a busy machine slows them alike."""
    samples = [[] for _ in cases]
    for _ in range(repeat):
        for i, (timer_, number) in enumerate(cases):
            samples[i].append(timer_.timeit(number) / number * 1e9)
    return [statistics.median(s) for s in samples]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer iterations")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table (the package README's)")
    args = parser.parse_args()
    repeat = 5 if args.quick else 9
    key16 = os.urandom(16)
    rows = []
    for label, size in (("64 B", 64), ("1500 B", 1500), ("32 KiB", 32 * 1024)):
        packet = os.urandom(size)
        number = (20_000 if size <= 1500 else 2_000) // (4 if args.quick else 1)
        sequenced64 = fastmac.SequencedUMAC(key16, 8)
        sequenced128 = fastmac.SequencedUMAC(key16, 16)
        cases = [
            ("fastmac.SequencedUMAC.tag, UMAC-64", lambda _seq, p, s=sequenced64: s.tag(p)),
            ("fastmac.SequencedUMAC.tag, UMAC-128", lambda _seq, p, s=sequenced128: s.tag(p)),
            ("fastmac.ssh.MAC umac-64@openssh.com", fastmac.ssh.MAC("umac-64@openssh.com", key16).compute),
            ("fastmac.ssh.MAC umac-128@openssh.com", fastmac.ssh.MAC("umac-128@openssh.com", key16).compute),
            ("fastmac.ssh.MAC hmac-sha2-256", fastmac.ssh.MAC("hmac-sha2-256", os.urandom(32)).compute),
        ]
        if umac is not None:
            cases += [
                ("PyPI umac 2.0, UMAC-64 (keyed per packet)", pypi_umac_packet(8, key16)),
                ("PyPI umac 2.0, UMAC-128 (keyed per packet)", pypi_umac_packet(16, key16)),
            ]
        key32 = os.urandom(32)
        cases += [
            ("stdlib hmac.digest sha256 (one-shot)", lambda _seq, p: hmac.digest(key32, p, "sha256")),
            ("stdlib hmac sha256 (paramiko's way)", lambda seq, p: hmac.new(key32, seq.to_bytes(4, "big") + p, "sha256").digest()),
        ]
        timers = [timer(fn, packet, number) for _name, fn in cases]
        for (name, _fn), ns in zip(cases, measure_interleaved(timers, repeat)):
            rows.append((label, name, ns))
    baseline = {label: ns for label, name, ns in rows if name.startswith("stdlib hmac.digest")}
    header = f"python {sys.version.split()[0]}, fastmac {fastmac.__version__}" + (", PyPI umac 2.0" if umac else "")
    if args.markdown:
        print(f"{header}\n\n| packet | MAC | ns/packet | vs `hmac.digest` |\n|---:|:---|---:|---:|")
        for label, name, ns in rows:
            print(f"| {label} | {name} | {ns:.0f} | {ns / baseline[label]:.2f}x |")
        return
    print(header)
    print(f"{'packet':>7}  {'MAC':<46} {'ns/packet':>10} {'vs hmac.digest':>15}")
    for label, name, ns in rows:
        print(f"{label:>7}  {name:<46} {ns:>10.0f} {ns / baseline[label]:>14.2f}x")


if __name__ == "__main__":
    main()
