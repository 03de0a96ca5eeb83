"""What reading a mutable buffer with the GIL held costs, against copying it
first so that the GIL can be released (docs/python.md section 1).

fastmac reads a ``bytearray`` (any buffer but ``bytes``) in place with the
GIL held; the alternative, a copy made under the GIL and then hashed with
the GIL released, is what a caller gets by passing ``bytes(buf)``. Per
message size, in one interleaved run (medians of the rounds, ns per call):

* ``UMAC.mac(bytearray)``: in place, GIL held (what fastmac does);
* ``UMAC.mac(bytes)``: in place, GIL released from 2 KiB (no copy needed);
* ``copy alone``: ``scratch[:] = buf`` into a buffer allocated once, the
  least any copy-first design adds;
* ``UMAC.mac(bytes(bytearray))``: copy, then hash with the GIL released.

Then two threads for 1 MiB: one tags in a loop, the other counts in pure
Python; per second, the tags and the other thread's count, GIL held against
copy-then-release.

Run: make bench-python (after ssh_mac_cost.py), or python bench/mutable_buffers.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
import timeit

import fastmac

KEY = bytes(range(16))
NONCE = bytes(8)
SIZES = (("64 B", 64), ("1 KiB", 1024), ("1 MiB", 1 << 20))


def per_call_ns(cases: list[tuple[str, object]], number: int, repeat: int) -> dict[str, float]:
    """Median ns per call of each case; the cases take turns in every round."""
    samples: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(repeat):
        for name, fn in cases:
            samples[name].append(timeit.timeit(fn, number=number) / number * 1e9)  # type: ignore[arg-type]
    return {name: statistics.median(s) for name, s in samples.items()}


def two_threads(tag_once, seconds: float) -> tuple[float, float]:
    """(tags per second, the other thread's loop iterations per second)."""
    stop = threading.Event()
    tags = [0]

    def tagger() -> None:
        while not stop.is_set():
            tag_once()
            tags[0] += 1

    thread = threading.Thread(target=tagger)
    thread.start()
    count = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(1000):
            count += 1
    stop.set()
    thread.join()
    return tags[0] / seconds, count / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args()
    repeat = 7 if args.quick else 21
    mac = fastmac.UMAC(KEY, 8)
    print(f"python {sys.version.split()[0]}, fastmac {fastmac.__version__}, UMAC-64; ns per call, "
          f"median of {repeat} interleaved rounds")
    print(f"{'size':>6}  {'mac(bytearray)':>15} {'mac(bytes)':>11} {'copy alone':>11} {'mac(bytes(ba))':>15}")
    for label, size in SIZES:
        buf = bytearray(b"\x5a" * size)
        immutable = bytes(buf)
        scratch = bytearray(size)
        number = max(20, min(100_000, (64 << 20) // size // 8))
        ns = per_call_ns([
            ("held", lambda: mac.mac(NONCE, buf)),
            ("bytes", lambda: mac.mac(NONCE, immutable)),
            ("copy", lambda: scratch.__setitem__(slice(None), buf)),
            ("copy+release", lambda: mac.mac(NONCE, bytes(buf))),
        ], number, repeat)
        print(f"{label:>6}  {ns['held']:>15.0f} {ns['bytes']:>11.0f} {ns['copy']:>11.0f} {ns['copy+release']:>15.0f}")
    rounds = 3 if args.quick else 7
    buf = bytearray(b"\x5a" * (1 << 20))
    runs: dict[str, list[tuple[float, float]]] = {"GIL held": [], "copy, then released": []}
    for _ in range(rounds):
        runs["GIL held"].append(two_threads(lambda: mac.mac(NONCE, buf), 1.0))
        runs["copy, then released"].append(two_threads(lambda: mac.mac(NONCE, bytes(buf)), 1.0))
    print(f"two threads, 1 MiB, medians of {rounds} interleaved 1 s runs:")
    for name, samples in runs.items():
        tags = statistics.median(t for t, _ in samples)
        other = statistics.median(c for _, c in samples)
        print(f"  {name:<20} {tags:>8.0f} tags/s   other thread {other / 1e6:6.2f} M iterations/s")


if __name__ == "__main__":
    main()
