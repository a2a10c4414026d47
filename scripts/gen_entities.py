#!/usr/bin/env python3
"""Generate src/charref/named_table.rs: the WHATWG named character references as a trie.

The data comes from Python's standard library (`html.entities.html5`, the 2,231 names of
https://html.spec.whatwg.org/entities.json, frozen in the standard since 2013), so no
network access is needed. The output is a pure function of that table: running the script
twice gives byte-identical files.

Usage (from anywhere):
    python3 scripts/gen_entities.py            # (re)write src/charref/named_table.rs
    python3 scripts/gen_entities.py --check    # exit 1 if the file is missing or stale
    python3 scripts/gen_entities.py --output PATH   # write (or --check) another path

Layout of the generated table (see also the doc comment written into the file):

A path-compressed trie (radix tree) over the names without their leading `&`. Each node
but the root is reached by an edge labelled with one or more bytes; a node is kept only if
it ends a name or has several children, so single-child chains ("ounterClockwiseContour
Integral;") collapse into one edge. Nodes are numbered breadth-first with each node's
children consecutive and sorted by their first byte, so:

  NODES[n]     8 bytes: children (first child's number), child_count, label + label_len
               (the rest of n's edge label, a range of LABELS), value (0, or the
               replacement's (byte offset in VALUES << 3) | byte length)
  FIRST[n]     first byte of node n's edge label; siblings are contiguous, so a child is
               found by comparing 8 bytes at a time; padded with 8 zero bytes
  ROOT[b]      the root child whose label starts with byte b, or 0
"""

from __future__ import annotations

import argparse
import difflib
import html.entities
import sys
from pathlib import Path

CRATE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = CRATE_DIR / "src" / "charref" / "named_table.rs"

EXPECTED_NAMES = 2231
MAX_WIDTH = 100  # rustfmt's default max_width
BYTES_PER_LINE = 80
FIRST_PADDING = 8


class Node:
    __slots__ = ("label", "value", "children", "id")

    def __init__(self, label: bytes) -> None:
        self.label = label  # the edge from the parent; b"" for the root
        self.value: str | None = None
        self.children: dict[int, Node] = {}  # keyed by first byte of the child's label
        self.id = -1


def load_names() -> dict[bytes, str]:
    table = html.entities.html5
    names = {name.encode("ascii"): value for name, value in table.items()}
    if len(names) != EXPECTED_NAMES:
        sys.exit(f"html.entities.html5 has {len(names)} names, expected {EXPECTED_NAMES}")
    for name, value in names.items():
        if not (1 <= len(value) <= 2):
            sys.exit(f"{name!r}: value {value!r} is not 1 or 2 code points")
        if not name.removesuffix(b";").isalnum():
            # The standard guarantees this shape; the tests and docs of src/charref assume it.
            sys.exit(f"{name!r}: a name is ASCII alphanumerics, then an optional `;`")
    return names


def build_trie(names: dict[bytes, str]) -> Node:
    """An uncompressed trie (one byte per edge), then path-compressed in place."""
    root = Node(b"")
    for name in sorted(names):
        node = root
        for byte in name:
            child = node.children.get(byte)
            if child is None:
                child = node.children[byte] = Node(bytes([byte]))
            node = child
        node.value = names[name]

    def compress(node: Node) -> None:
        for key, child in list(node.children.items()):
            while child.value is None and len(child.children) == 1:
                (only,) = child.children.values()
                only.label = child.label + only.label
                child = only
            node.children[key] = child
            compress(child)

    compress(root)
    return root


def number_breadth_first(root: Node) -> list[Node]:
    order = [root]
    root.id = 0
    i = 0
    while i < len(order):
        node = order[i]
        for key in sorted(node.children):
            child = node.children[key]
            child.id = len(order)
            order.append(child)
        i += 1
    return order


def rust_str_literal(s: str) -> str:
    out = []
    for ch in s:
        if ch in '\\"':
            out.append("\\" + ch)
        elif "!" <= ch <= "~":
            out.append(ch)
        else:
            out.append("\\u{%X}" % ord(ch))
    return "".join(out)


def numbers(values: list[int], indent: str = "    ") -> str:
    """Array elements filled greedily into lines shorter than 100 columns, as rustfmt does."""
    lines = []
    line = ""
    for v in values:
        item = f"{v},"
        if line and len(indent) + len(line) + 1 + len(item) >= MAX_WIDTH:
            lines.append(indent + line)
            line = item
        else:
            line = f"{line} {item}" if line else item
    if line:
        lines.append(indent + line)
    return "\n".join(lines)


def byte_string_lines(data: bytes, indent: str = "    ") -> str:
    """A byte string literal body split with `\\` line continuations (no whitespace in data)."""
    assert all(0x21 <= b <= 0x7E and b not in b'\\"' for b in data)
    text = data.decode("ascii")
    chunks = [text[i : i + BYTES_PER_LINE] for i in range(0, len(text), BYTES_PER_LINE)]
    return "\\\n".join(indent + c for c in chunks)


def generate() -> str:
    names = load_names()
    root = build_trie(names)
    order = number_breadth_first(root)
    n = len(order)

    # Every node's children are consecutive and the blocks are in node order (breadth-first).
    next_child = 1
    for node in order:
        if node.children:
            assert min(c.id for c in node.children.values()) == next_child
        next_child += len(node.children)
    assert next_child == n

    labels = bytearray()
    label_at = []
    for node in order:
        label_at.append(len(labels))
        labels += node.label[1:]

    distinct_values = sorted({v for v in names.values()})
    value_blob = bytearray()
    value_pos: dict[str, tuple[int, int]] = {}
    for v in distinct_values:
        encoded = v.encode("utf-8")
        value_pos[v] = (len(value_blob), len(encoded))
        value_blob += encoded
    assert "".join(distinct_values).encode("utf-8") == bytes(value_blob)
    assert len(value_blob) < (1 << 13), "value offsets must fit in 13 bits"

    def packed_value(node: Node) -> int:
        if node.value is None:
            return 0
        off, length = value_pos[node.value]
        assert 1 <= length <= 7
        return (off << 3) | length

    def path(node: Node, parents: dict[int, Node]) -> bytes:
        parts = []
        while node.id != 0:
            parts.append(node.label)
            node = parents[node.id]
        return b"".join(reversed(parts))

    parents = {child.id: node for node in order for child in node.children.values()}
    node_lines = []
    for node in order:
        first_child = min((c.id for c in node.children.values()), default=0)
        fields = (first_child, len(node.children), label_at[node.id], max(len(node.label) - 1, 0),
                  packed_value(node))
        assert all(0 <= f < (1 << 16) for f in fields) and fields[1] < 256 and fields[3] < 256
        name = path(node, parents).decode("ascii") if node.id else "(root)"
        node_lines.append((f"    n({', '.join(map(str, fields))}),", name))
    # Trailing comments aligned one column after the longest entry, as rustfmt does.
    width = max(len(code) for code, _ in node_lines) + 1
    node_lines = [f"{code.ljust(width)}// {name}" for code, name in node_lines]

    root_table = [0] * 256
    for key, child in root.children.items():
        root_table[key] = child.id

    terminal = sum(1 for node in order if node.value is not None)
    assert terminal == len(names)
    max_children = max(len(node.children) for node in order[1:])
    max_len = max(len(name) for name in names)

    value_lines = []
    line = ""
    for v in distinct_values:
        piece = rust_str_literal(v)
        if len(line) + len(piece) > BYTES_PER_LINE:
            value_lines.append(line)
            line = ""
        line += piece
    value_lines.append(line)
    value_literal = "\\\n".join("    " + l for l in value_lines)

    # The root's first byte is 0, written `\0`; every other node's is a name byte. Eight
    # zero bytes follow so that the child search can always load 8 bytes.
    first_bytes = [node.label[0] if node.label else 0 for node in order]
    assert first_bytes[0] == 0 and all(b != 0 for b in first_bytes[1:])
    first_body = (
        "    \\0\\\n"
        + byte_string_lines(bytes(first_bytes[1:]))
        + "\\\n    "
        + "\\0" * FIRST_PADDING
    )
    newline = "\n"

    return f"""\
// @generated by scripts/gen_entities.py -- DO NOT EDIT.
//
// Source: Python's `html.entities.html5` (the WHATWG named character references table,
// https://html.spec.whatwg.org/entities.json, {len(names)} names without their `&`).
// Regenerate: python3 scripts/gen_entities.py
// Check:      python3 scripts/gen_entities.py --check

//! The named character references table as a path-compressed trie (radix tree).
//!
//! Nodes are numbered breadth-first; the root is node 0, and each node's children are
//! consecutive node numbers sorted by the first byte of their edge label. A node exists
//! only where a name ends or the names branch, so a chain such as the tail of
//! `CounterClockwiseContourIntegral;` is a single edge.
//!
//! * [`NODES`]`[n]`: node `n` in 8 bytes (see [`Node`]).
//! * [`FIRST`]`[n]`: the first byte of node `n`'s edge label (0 for the root). Siblings
//!   are contiguous, so a child is found by comparing 8 bytes at a time; the array ends
//!   with {FIRST_PADDING} zero bytes of padding so that such loads never run off its end.
//! * [`LABELS`]: the rest of every node's label, concatenated.
//! * [`VALUES`]: every distinct replacement, concatenated.
//! * [`ROOT`]`[b]`: the root's child whose label starts with byte `b`, or 0 (none); it
//!   replaces a search among the root's {len(root.children)} children.

/// One trie node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {{
    /// Node number of the first child; the children are `children..children + child_count`.
    pub children: u16,
    /// Start in [`LABELS`] of the node's edge label after its first byte.
    pub label: u16,
    /// 0 when no name ends here, else `(offset << 3) | len`: the replacement is
    /// `VALUES[offset..offset + len]`.
    pub value: u16,
    /// Number of children.
    pub child_count: u8,
    /// Length of the label after its first byte.
    pub label_len: u8,
}}

const fn n(children: u16, child_count: u8, label: u16, label_len: u8, value: u16) -> Node {{
    Node {{
        children,
        label,
        value,
        child_count,
        label_len,
    }}
}}

// The lookup needs only the tables; these constants are for tests and documentation.
/// Number of names in the table (with and without the trailing `;`).
#[cfg_attr(not(test), allow(dead_code))]
pub(super) const NAME_COUNT: usize = {len(names)};
/// Length in bytes of the longest name.
#[cfg_attr(not(test), allow(dead_code))]
pub(super) const MAX_NAME_LEN: usize = {max_len};
/// Number of trie nodes, the root included.
pub(super) const NODE_COUNT: usize = {n};
/// Most children of any node but the root.
#[cfg_attr(not(test), allow(dead_code))]
pub(super) const MAX_CHILDREN: usize = {max_children};
/// Zero bytes after the last entry of [`FIRST`].
pub(super) const FIRST_PADDING: usize = {FIRST_PADDING};

/// The root's child for each possible first byte, or 0.
pub(super) static ROOT: [u16; 256] = [
{numbers(root_table)}
];

/// The nodes, breadth-first; `n(children, child_count, label, label_len, value)`, each
/// followed by the name prefix it stands for.
pub(super) static NODES: [Node; NODE_COUNT] = [
{newline.join(node_lines)}
];

/// First byte of each node's edge label (the root's is 0), then the padding.
pub(super) static FIRST: [u8; NODE_COUNT + FIRST_PADDING] = *b"\\
{first_body}";

/// Edge labels without their first byte, concatenated in node order.
pub(super) static LABELS: &[u8] = b"\\
{byte_string_lines(bytes(labels))}";

/// Every distinct replacement, concatenated (sorted; {len(distinct_values)} strings, {len(value_blob)} bytes).
pub(super) static VALUES: &str = "\\
{value_literal}";
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the file is stale")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args()

    text = generate()
    if args.check:
        try:
            current = args.output.read_text(encoding="utf-8")
        except FileNotFoundError:
            print(f"{args.output} is missing; run python3 scripts/gen_entities.py", file=sys.stderr)
            return 1
        if current != text:
            diff = difflib.unified_diff(
                current.splitlines(keepends=True),
                text.splitlines(keepends=True),
                str(args.output),
                "generated",
                n=1,
            )
            sys.stderr.writelines(list(diff)[:40])
            print(
                f"\n{args.output} is out of date; run python3 scripts/gen_entities.py",
                file=sys.stderr,
            )
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
