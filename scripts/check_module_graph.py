#!/usr/bin/env python3
"""Fails on an import cycle, or an import of an enclosing module, among the
modules of a Rust crate's source tree (by default crates/fastmac/src).

Each source file is one node (lib.rs the crate root, `a.rs` and `a/mod.rs`
module `a`, `a/b.rs` module `a::b`). A file imports another when its code
names a path into it: a `use` item (braces expanded) or a path written in
the code, starting with `crate::`, `super::`, `self::` or the name of a
child module. The path's target is the deepest module it names, so
`crate::error::Error` points at error.rs and `crate::Error` (a re-export)
at lib.rs. Two rules:

- no import of an enclosing module: a module never takes a name from the
  module that contains it (its parent's `mod.rs`, or lib.rs), which
  re-exports it; shared items live in a sibling that both use;
- no cycle: the files and their imports form a graph without a loop.

Test code is left out: `#[cfg(test)]` modules (inline or in their own file)
may import anything they test. Comments and string literals are ignored.
Prints one line per finding and exits 1 if there is any, else a summary
line. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field

DEFAULT_ROOT = "crates/fastmac/src"

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
MOD_DECL = re.compile(rf"\bmod\s+({IDENT})\s*([;{{])")
CFG_TEST = re.compile(r"#\[cfg\((?:all\()?test\b")
USE_ITEM = re.compile(r"\buse\s+([^;]*);")
INLINE_PATH = re.compile(rf"(?<![\w:$])\$?((?:crate|super|self|{IDENT})(?:\s*::\s*{IDENT})+)")


@dataclass
class Module:
    """A module of the tree: its path from the crate root, the file that
    holds it, and its child modules (name -> Module)."""

    path: tuple[str, ...]
    file: str
    test: bool = False
    parent: Module | None = None
    children: dict[str, Module] = field(default_factory=dict)


def strip_comments_and_strings(text: str) -> str:
    """`text` with comments, string literals and char literals blanked out
    (newlines kept), so that neither can hold an import."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
            continue
        raw = re.match(r'b?r(#*)"', text[i:])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + raw.group(1)
            j = text.find(end, i + raw.end())
            j = n if j < 0 else j + len(end)
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append("".join(ch if ch == "\n" else " " for ch in text[i : j + 1]))
            i = j + 1
            continue
        if c == "'":
            # A char literal ('a', '\n', '\u{..}'), not a lifetime ('a).
            lit = re.match(r"'(?:\\.[^']*|[^'\\])'", text[i:])
            if lit:
                out.append(" " * lit.end())
                i += lit.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


def matching_brace(text: str, open_at: int) -> int:
    depth = 0
    for j in range(open_at, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text)


def expand_use_tree(tree: str) -> list[list[str]]:
    """The full paths of a use tree: `a::{b, c::{d, self}}` gives a::b,
    a::c::d and a::c. `as` renames and globs end a path where they stand."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)

    def split_top(s: str) -> list[str]:
        parts, depth, start = [], 0, 0
        for j, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:j])
                start = j + 1
        parts.append(s[start:])
        return [p for p in parts if p]

    def expand(s: str, prefix: list[str]) -> list[list[str]]:
        brace = s.find("{")
        if brace < 0:
            segments = [seg for seg in s.split("::") if seg]
            if segments == ["self"]:
                return [prefix]
            return [prefix + [seg for seg in segments if seg != "*"]]
        head = [seg for seg in s[:brace].split("::") if seg]
        inner = s[brace + 1 : s.rfind("}")]
        paths = []
        for part in split_top(inner):
            paths.extend(expand(part, prefix + head))
        return paths

    return expand(tree, [])


def module_path_of(rel: str) -> tuple[str, ...]:
    parts = rel[:-3].split("/")
    if parts[-1] in ("lib", "main") and len(parts) == 1:
        return ()
    if parts[-1] == "mod":
        parts = parts[:-1]
    return tuple(parts)


@dataclass
class Tree:
    modules: dict[tuple[str, ...], Module]
    texts: dict[str, str]


def load(root: str) -> Tree:
    """Every .rs file under `root`, its module and its declared children;
    test modules marked (with everything below them)."""
    files = sorted(
        os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
        for d, _, names in os.walk(root)
        for f in names
        if f.endswith(".rs")
    )
    texts = {}
    modules: dict[tuple[str, ...], Module] = {}
    for rel in files:
        with open(os.path.join(root, rel), encoding="utf-8") as handle:
            texts[rel] = strip_comments_and_strings(handle.read())
        path = module_path_of(rel)
        modules[path] = Module(path, rel)
    for rel, text in texts.items():
        owner = modules[module_path_of(rel)]
        for found in MOD_DECL.finditer(text):
            name, kind = found.group(1), found.group(2)
            before = text[max(0, text.rfind(";", 0, found.start()), text.rfind("}", 0, found.start())) : found.start()]
            test = bool(CFG_TEST.search(before))
            inner_path = scope_at(modules, owner, text, found.start()) + (name,)
            if kind == ";":
                child = modules.get(inner_path) or Module(inner_path, rel)
                modules[inner_path] = child
            else:
                child = Module(inner_path, rel)
                modules.setdefault(inner_path, child)
                child = modules[inner_path]
            child.test = child.test or test
            parent = modules.get(inner_path[:-1])
            if parent is not None:
                child.parent = parent
                parent.children[name] = child
    for module in sorted(modules.values(), key=lambda m: len(m.path)):
        if module.parent is not None and module.parent.test:
            module.test = True
    return Tree(modules, texts)


def inline_modules(text: str) -> list[tuple[int, int, str, bool]]:
    """Inline `mod name { ... }` blocks: (start, end, name, is_test)."""
    blocks = []
    for found in MOD_DECL.finditer(text):
        if found.group(2) != "{":
            continue
        open_at = found.end() - 1
        before = text[max(0, text.rfind(";", 0, found.start()), text.rfind("}", 0, found.start())) : found.start()]
        blocks.append((open_at, matching_brace(text, open_at), found.group(1), bool(CFG_TEST.search(before))))
    return blocks


def scope_at(modules: dict[tuple[str, ...], Module], owner: Module, text: str, pos: int) -> tuple[str, ...]:
    """The module path at offset `pos` of `owner`'s file (inside inline
    modules, deeper)."""
    path = owner.path
    for start, end, name, _ in inline_modules(text):
        if start < pos <= end:
            path = path + (name,)
    return path


@dataclass(frozen=True, order=True)
class Import:
    source: str
    target: str
    name: str


def resolve(tree: Tree, scope: tuple[str, ...], segments: list[str]) -> tuple[str, ...] | None:
    """The deepest module `segments` names from `scope`, or None for a path
    that leaves the crate (another crate, a local name)."""
    modules = tree.modules
    if not segments:
        return None
    if segments[0] == "crate":
        at, rest = (), segments[1:]
    elif segments[0] == "super":
        at, rest = scope, segments
        while rest and rest[0] == "super":
            at, rest = at[:-1], rest[1:]
    elif segments[0] == "self":
        at, rest = scope, segments[1:]
    elif segments[0] in modules.get(scope, Module(scope, "")).children:
        at, rest = scope, segments
    else:
        return None
    while rest and rest[0] in modules[at].children if at in modules else False:
        at, rest = at + (rest[0],), rest[1:]
    return at


def imports(tree: Tree) -> set[Import]:
    found: set[Import] = set()
    for rel, text in tree.texts.items():
        owner = tree.modules[module_path_of(rel)]
        if owner.test:
            continue
        blocks = inline_modules(text)
        skip = [(start, end) for start, end, _, test in blocks if test]
        paths: list[tuple[int, list[str]]] = []
        for use in USE_ITEM.finditer(text):
            for path in expand_use_tree(use.group(1)):
                paths.append((use.start(), path))
        for written in INLINE_PATH.finditer(text):
            if text[: written.start()].rstrip().endswith("use"):
                continue
            paths.append((written.start(), re.sub(r"\s+", "", written.group(1)).split("::")))
        for pos, segments in paths:
            if any(start < pos <= end for start, end in skip):
                continue
            scope = owner.path
            for start, end, name, _ in blocks:
                if start < pos <= end:
                    scope = scope + (name,)
            target = resolve(tree, scope, segments)
            if target is None or target not in tree.modules:
                continue
            target_module = tree.modules[target]
            if target_module.test or target_module.file == rel:
                continue
            found.add(Import(rel, target_module.file, "::".join(segments)))
    return found


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one file (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def check(root: str) -> tuple[list[str], int, int]:
    """Findings, and the counts of files and imports checked."""
    tree = load(root)
    found = imports(tree)
    by_file = {m.file: m for m in tree.modules.values() if not m.test and m.file}
    findings = []
    for imp in sorted(found):
        source, target = by_file.get(imp.source), by_file.get(imp.target)
        if source is None or target is None:
            continue
        if len(target.path) < len(source.path) and source.path[: len(target.path)] == target.path:
            findings.append(
                f"{root}/{imp.source}: imports `{imp.name}` from its enclosing module {root}/{imp.target}"
            )
    edges: dict[str, set[str]] = {}
    for imp in found:
        edges.setdefault(imp.source, set()).add(imp.target)
    for component in cycles(edges):
        inside = sorted(
            f"{imp.source} -> {imp.target} (`{imp.name}`)"
            for imp in found
            if imp.source in component and imp.target in component
        )
        findings.append(f"{root}: import cycle among {', '.join(component)}: " + "; ".join(inside))
    files = {m.file for m in tree.modules.values() if not m.test}
    return findings, len(files), len({(i.source, i.target) for i in found})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", default=DEFAULT_ROOT, help=f"a crate's src directory ({DEFAULT_ROOT})")
    args = parser.parse_args()
    if not os.path.isdir(args.root):
        print(f"check_module_graph: no directory {args.root}", file=sys.stderr)
        return 2
    findings, files, edges = check(args.root)
    for finding in findings:
        print(finding)
    if findings:
        print(f"module graph of {args.root}: {len(findings)} finding(s)")
        return 1
    print(f"module graph of {args.root}: {files} files, {edges} imports between them, no cycle, "
          "no import of an enclosing module")
    return 0


if __name__ == "__main__":
    sys.exit(main())
