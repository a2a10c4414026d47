"""The training run of a profile-guided (PGO) build of the extension: scripts/build-pgo.sh
installs an instrumented build, runs this, and rebuilds with the profile it wrote.

    python bindings/python/bench/pgo_train.py DIR [--rounds N]

It calls what users call — the tree (`parse`, bytes and str), `select`, `extract`,
`main_text`, `metadata`, visible text, the token API and `Document` — on every `.html`
page under DIR (the repository's bundled corpus/, ten crafted pages, none of them in the
shared benchmark corpus, so the build is not trained on what it is measured on). The
profile only weighs the code's branches and calls: what it gives is the same as without
it, which the test suite checks on the PGO build like on any other.
"""

import argparse
import pathlib
import sys

import htmltok
# The ten fields, compiled as bench.py measures them (the script beside this one).
from bench import COMPILED_FIELDS as FIELDS

SELECTORS = [htmltok.Selector(css) for css in (
    "a[href]", "div p", "ul > li a", "h1, h2, h3", "table tr:nth-child(2n) td",
    "p:not(.x)", "div:has(img)", "a[href^=http]::attr(href)", "title::text",
)]


def train(data: bytes) -> int:
    n = 0
    tree = htmltok.parse(data)
    n += len(tree)
    n += sum(len(tree.select(s)) for s in SELECTORS)
    # The node views users read after a select: `.attr`, `.name`, `.attrs`, `.text()`.
    links = tree.select(SELECTORS[0])
    n += sum(len(a.attr("href")) for a in links)
    n += sum(len(a.name) + len(a.attrs) + len(a.text()) for a in links)
    n += len(tree.getall("a[href]::attr(href)"))
    n += len(tree.main_text()) + len(tree.visible_text())
    n += len(tree.metadata(url="https://example.org/page"))
    n += len(tree.html)
    n += sum(len(v) for v in htmltok.extract(data, FIELDS).values())
    doc = htmltok.Document(data)
    text = doc.html_text
    n += len(htmltok.parse(text))
    n += sum(len(v) for v in htmltok.extract(text, FIELDS).values())
    n += len(doc.links()) + len(doc.text()) + len(doc.main_text())
    n += len(htmltok.tokenize(data))
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", type=pathlib.Path)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    pages = [p.read_bytes() for p in sorted(args.dir.rglob("*.html"))]
    if not pages:
        print(f"pgo_train: no .html pages under {args.dir}", file=sys.stderr)
        return 1
    total = 0
    for _ in range(args.rounds):
        for data in pages:
            total += train(data)
    print(f"pgo_train: {len(pages)} pages x {args.rounds} rounds ({total} items)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
