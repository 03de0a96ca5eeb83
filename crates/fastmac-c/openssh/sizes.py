"""What linking the drop-in costs each OpenSSH program, measured on the
builds `make test` links (openssh.mk), against the table docs/openssh.md
gives for that build:

    sizes.py --fastmac DIR --stock DIR --doc FILE --marker TEXT

The table's rows are the programs whose fastmac build differs in size from
its stock build (size(1), Berkeley format: text, and text + data + bss);
nm-check.sh checks that those are the programs that compute MACs, and that
every other program keeps the stock build's size. The table that follows
the line "<!-- sizes.py TEXT -->" in FILE must list the same programs, and
each of its figures must be within 2% of the one measured. Prints the
measured table (the one to paste when the library changes), one line per
check and "N passed, N failed, N skipped". Negative control: the measured
table with one growth 3% higher must be refused.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

TOLERANCE = 0.02
COLUMNS = ("stock text", "fastmac text", "growth", "stock text + data + bss", "fastmac text + data + bss", "growth")


def berkeley(path: Path) -> tuple[int, int]:
    """(text, text + data + bss) of a program."""
    lines = subprocess.run(["size", "--format=berkeley", str(path)], check=True, capture_output=True,
                           text=True).stdout.splitlines()
    text, data, bss = (int(field) for field in lines[1].split()[:3])
    return text, text + data + bss


def measure(fastmac: Path, stock: Path) -> dict[str, tuple[int, ...]]:
    """Per program that grew: the six figures of COLUMNS."""
    rows = {}
    for program in sorted(p.name for p in stock.iterdir() if p.is_file() and not p.name.startswith(".")):
        stock_text, stock_total = berkeley(stock / program)
        fastmac_text, fastmac_total = berkeley(fastmac / program)
        if (stock_text, stock_total) != (fastmac_text, fastmac_total):
            rows[program] = (stock_text, fastmac_text, fastmac_text - stock_text, stock_total, fastmac_total,
                             fastmac_total - stock_total)
    return rows


def render(rows: dict[str, tuple[int, ...]]) -> str:
    lines = ["| program | " + " | ".join(COLUMNS) + " |", "|---|" + "---:|" * len(COLUMNS)]
    for program, figures in rows.items():
        cells = [f"+{f:,}" if column == "growth" else f"{f:,}" for column, f in zip(COLUMNS, figures)]
        lines.append(f"| `{program}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def documented(text: str, marker: str) -> dict[str, tuple[int, ...]]:
    """The table after the line `<!-- sizes.py MARKER -->`."""
    lines = text.splitlines()
    tag = f"<!-- sizes.py {marker} -->"
    if tag not in lines:
        raise ValueError(f"no line {tag}")
    rows = {}
    for line in lines[lines.index(tag) + 3:]:  # the marker, the header, the separator
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = tuple(int(re.sub(r"[+,]", "", c)) for c in cells[1:])
    return rows


def differences(doc: dict[str, tuple[int, ...]], measured: dict[str, tuple[int, ...]]) -> list[str]:
    """Where the documented table is not the measured one, within TOLERANCE."""
    found = []
    if list(doc) != list(measured):
        found.append(f"programs: the docs list {list(doc)}, the build grew {list(measured)}")
    for program in doc.keys() & measured.keys():
        for column, given, actual in zip(COLUMNS, doc[program], measured[program]):
            if abs(given - actual) > TOLERANCE * abs(actual):
                found.append(f"{program}, {column}: the docs give {given:,}, the build {actual:,} "
                             f"({(given - actual) / actual:+.1%})")
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fastmac", type=Path, required=True)
    parser.add_argument("--stock", type=Path, required=True)
    parser.add_argument("--doc", type=Path, required=True)
    parser.add_argument("--marker", required=True)
    args = parser.parse_args()
    measured = measure(args.fastmac, args.stock)
    print(render(measured))
    passed = failed = 0

    def check(what: str, problems: list[str], must_fail: bool = False) -> None:
        nonlocal passed, failed
        if bool(problems) == must_fail:
            passed += 1
            print(f"ok: {'refused as it must be: ' if must_fail else ''}{what}")
        else:
            failed += 1
            print(f"FAILED: {'NOT REFUSED: ' if must_fail else ''}{what}")
            for problem in problems:
                print(f"  {problem}")

    check(f"the fastmac build grew some programs ({', '.join(measured)})",
          [] if measured else ["no program differs in size from its stock build"])
    try:
        doc = documented(args.doc.read_text(), args.marker)
        problems = differences(doc, measured)
    except ValueError as error:
        problems = [f"{args.doc}: {error}"]
    check(f"{args.doc} ({args.marker}) gives every program's size within {TOLERANCE:.0%} of this build's", problems)
    if measured:
        program = next(iter(measured))
        off = dict(measured)
        figures = list(off[program])
        figures[2] = round(figures[2] * 1.03)
        off[program] = tuple(figures)
        check(f"control: a table whose {program} text growth is 3% above this build's",
              differences(documented(f"<!-- sizes.py control -->\n{render(off)}\n", "control"), measured),
              must_fail=True)
    print(f"{passed} passed, {failed} failed, 0 skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
