#!/usr/bin/env python3
"""Differential check of htmltok's selectors against selectolax (lexbor); not run in CI.

For every page of the shared corpus (decoded once, by htmltok, so both read the same
text) and every selector of SELECTORS below, compares the elements the two match: the
sequence of their tag names, in document order. Where they differ, it says whether the
two trees differ (the sequences of all element names in document order, from
htmltok.parse and from lexbor's tree), since a selector cannot agree on different trees.

    pip install selectolax          # in the venv where htmltok is built
    python select/tools/selectolax-diff.py [CORPUS_DIR] [-v]

Prints per selector the pages that agree, that differ on the same tree (a selector
difference: listed) and that differ where the trees differ; exit status 1 when any
selector differs on a tree both agree on.

Run on 2026-11-25 (selectolax 1.0.2, the 191-page corpus): the element trees agree on all
191 pages; 6,775 of the 6,876 (page, selector) pairs agree, and the 101 that differ are
all `:where(nav, footer) a`, a lexbor bug, not ours: lexbor matches `:is(X) a` and
`:where(X) a` only when X is the parent (`LexborHTMLParser("<footer><p><a>").css(
":is(footer) a")` finds nothing; `footer a` finds the `a`; Selectors 4 § 4.2 says any
ancestor).
"""

import os
import re
import sys
from collections import Counter

import htmltok
from selectolax.lexbor import LexborHTMLParser

SELECTORS = [
    "a[href]",
    "img[src]",
    "title",
    "meta[name=description]",
    "link[rel=canonical]",
    "meta[name=robots]",
    'meta[property="og:title"]',
    "h1",
    "html[lang]",
    "link[rel=alternate][hreflang]",
    "div > p",
    "ul li a",
    "li:first-child",
    "li:last-child",
    "tr:nth-child(2n+1)",
    "li:nth-of-type(3)",
    "p:empty",
    "p + p",
    "h2 ~ p",
    "[class~=nav i]",
    'a[href^="http"]',
    'a[href$=".pdf"]',
    "a[href*=google]",
    "input[type=hidden]",
    "script[src]",
    "head > meta",
    ":is(h1, h2, h3)",
    ":where(nav, footer) a",
    "div:has(> img)",
    "a:not([href])",
    "form input:not([type=hidden], [type=submit])",
    "td:only-child",
    "span:first-of-type",
    ":root",
    "svg",
    "[data-id]",
]

TAG = re.compile(r"<([^\s/>]+)")


def pages(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith((".html", ".htm")):
                yield os.path.join(dirpath, name)


def ours(text):
    fields = htmltok.Fields({str(i): s for i, s in enumerate(SELECTORS)})
    got = htmltok.extract(text, fields)
    return [[TAG.match(h).group(1).lower() for h in got[str(i)]] for i in range(len(SELECTORS))]


def theirs(tree):
    return [[n.tag.lower() for n in tree.css(s)] for s in SELECTORS]


def our_elements(text):
    tree = htmltok.parse(text)
    return [n.name.lower() for n in tree.root.descendants() if n.type == "element"]


def their_elements(tree):
    # lexbor's tree from the html element; text and comments left out.
    return [n.tag.lower() for n in tree.root.traverse(include_text=False)
            if not n.tag.startswith(("-", "_", "!"))]


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    here = os.path.dirname(os.path.abspath(__file__))
    root = args[0] if args else os.path.join(here, "..", "..", "..", "shared", "corpus")
    same, sel_diff, tree_diff = Counter(), Counter(), Counter()
    details = []
    trees_differ = 0
    n_pages = 0
    for path in pages(root):
        n_pages += 1
        data = open(path, "rb").read()
        text = htmltok.Document(data).html_text
        lex = LexborHTMLParser(text)
        a, b = ours(text), theirs(lex)
        trees_agree = our_elements(text) == their_elements(lex)
        trees_differ += not trees_agree
        for sel, x, y in zip(SELECTORS, a, b):
            if x == y:
                same[sel] += 1
            elif trees_agree:
                sel_diff[sel] += 1
                details.append((path, sel, x, y))
            else:
                tree_diff[sel] += 1
                if verbose:
                    details.append((path, sel + "  [trees differ]", x, y))
    print(f"{n_pages} pages, {len(SELECTORS)} selectors; the trees differ on {trees_differ} pages")
    print(f"{'selector':45} {'agree':>6} {'differ':>6} {'differ, trees differ':>21}")
    for sel in SELECTORS:
        print(f"{sel:45} {same[sel]:6} {sel_diff[sel]:6} {tree_diff[sel]:21}")
    total = sum(same.values()), sum(sel_diff.values()), sum(tree_diff.values())
    print(f"{'total (page, selector) pairs':45} {total[0]:6} {total[1]:6} {total[2]:21}")
    for path, sel, x, y in details:
        print(f"\n{path}: {sel}\n  htmltok    {len(x)}: {' '.join(x[:20])}\n  selectolax {len(y)}: {' '.join(y[:20])}")
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
