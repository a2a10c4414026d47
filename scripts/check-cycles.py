#!/usr/bin/env python3
"""Lists import circles between the files of each crate.

A file refers to another when it names an item of that file's module by a path
(`use crate::a::b`, `super::x::f()`, `child::g()`), following `pub use` re-exports to the
file that defines the item. A circle is a strongly connected set of two or more files.
The SIMD back-ends (`src/scan/`) are left out: each back-end and its dispatcher name each
other by design (a scalar twin beside each vector path).

Usage: scripts/check-cycles.py [CRATE_DIR ...]   (default: every crate of the workspace)
Exit status 1 when a circle is found.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES = [".", "archive", "crawl", "cli", "tree", "select", "content", "benches",
          "bindings/python", "test-support"]
EXCLUDED = ("src/scan/",)

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    # String literals can hold `::` (format strings); blank them.
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    # `pub(in crate::a)` names where an item is visible, not what it uses.
    text = re.sub(r"\bpub\(in [^)]*\)", "pub", text)
    return flatten_inline_modules(text)


def flatten_inline_modules(text):
    """Drops `#[cfg(test)] mod x { .. }` blocks (tests are not counted) and reads other
    inline modules as part of their file (their `super::` is the file's `self::`)."""
    while True:
        m = re.search(r"(#\[cfg\(test\)\]\s*)?\bmod\s+" + IDENT + r"\s*\{", text)
        if not m:
            return text
        depth, i = 0, m.end() - 1
        while i < len(text):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        body = text[m.end():i]
        if m.group(1):
            body = ""
        else:
            body = re.sub(r"(?<![\w:])super::", "self::", body)
        text = text[:m.start()] + body + text[i + 1:]


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> [[a, b], [a, c, d], [a, c, e]] (aliases dropped)."""
    tree = tree.strip()
    m = re.match(r"^(.*?)\{(.*)\}$", tree, re.S)
    if not m:
        tree = re.sub(r"\s+as\s+\w+$", "", tree).strip()
        return [[s for s in tree.split("::") if s]] if tree else []
    prefix = [s for s in m.group(1).split("::") if s]
    parts, depth, cur = [], 0, ""
    for ch in m.group(2):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    out = []
    for part in parts:
        if part.strip() in ("", "self"):
            if part.strip() == "self":
                out.append(prefix)
            continue
        for tail in expand_use(part):
            out.append(prefix + tail)
    return out


def crate_files(crate):
    src = ROOT / crate / "src"
    files = {}
    for path in sorted(src.rglob("*.rs")):
        rel = path.relative_to(src).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] in ("lib", "main") and len(parts) == 1:
            parts = []
        elif parts[-1] == "mod":
            parts = parts[:-1]
        if "bin" in parts[:1]:
            continue
        files[tuple(parts)] = path
    return files


def analyse(crate):
    files = crate_files(crate)
    texts = {m: strip_comments(p.read_text()) for m, p in files.items()}
    # Re-exports: module -> name -> absolute path of what it names.
    reexports = {m: {} for m in files}
    uses = {m: [] for m in files}
    for mod, text in texts.items():
        for m in re.finditer(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text):
            for path in expand_use(m.group(2)):
                absolute = absolutise(mod, path, files)
                if absolute is None:
                    continue
                uses[mod].append(absolute)
                if m.group(1) and path[-1] != "*":
                    reexports[mod][path[-1]] = absolute
        children = set(re.findall(r"\bmod\s+(" + IDENT + r")\s*;", text))
        for m in re.finditer(r"(?<![\w:])((?:crate|super|self|" + IDENT + r")(?:::" + IDENT + r")+)",
                             text):
            path = m.group(1).split("::")
            if path[0] not in ("crate", "super", "self") and path[0] not in children:
                continue
            absolute = absolutise(mod, path, files)
            if absolute is not None:
                uses[mod].append(absolute)
    edges = {m: set() for m in files}
    for mod, paths in uses.items():
        for path in paths:
            target = resolve(path, files, reexports)
            if target is not None and target != mod:
                edges[mod].add(target)
    return files, edges


def absolutise(mod, path, files):
    if not path:
        return None
    head = path[0]
    if head == "crate":
        return path[1:]
    if head == "self":
        return list(mod) + path[1:]
    if head == "super":
        base = list(mod)
        while path and path[0] == "super":
            if not base:
                return None
            base.pop()
            path = path[1:]
        return base + path
    if tuple(list(mod) + [head]) in files:
        return list(mod) + path
    return None


def resolve(path, files, reexports, depth=0):
    """The file whose module defines what `path` names."""
    best = None
    for i in range(len(path), -1, -1):
        if tuple(path[:i]) in files:
            best = tuple(path[:i])
            break
    if best is None:
        return None
    rest = path[len(best):]
    if rest and depth < 8 and rest[0] in reexports.get(best, {}):
        target = reexports[best][rest[0]] + rest[1:]
        return resolve(target, files, reexports, depth + 1)
    return best


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def main():
    crates = sys.argv[1:] or CRATES
    found = 0
    for crate in crates:
        files, edges = analyse(crate)
        for comp in sccs(edges):
            names = sorted(str(files[m].relative_to(ROOT)) for m in comp)
            if all(any(n.startswith(str(Path(crate) / e)) or n.startswith(e) for e in EXCLUDED)
                   for n in names):
                continue
            found += 1
            print(f"circle ({len(names)} files):")
            comp_set = set(comp)
            for m in sorted(comp):
                inside = sorted(str(files[t].relative_to(ROOT)) for t in edges[m] if t in comp_set)
                print(f"  {files[m].relative_to(ROOT)} -> {', '.join(inside)}")
    print(f"{found} import circle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
