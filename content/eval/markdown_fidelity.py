#!/usr/bin/env python3
"""Whole-page Markdown: how faithfully each HTML→Markdown converter keeps a page's
structure, and how fast it is, htmltok beside its peers on the same pages in one run.

    python3 content/eval/markdown_fidelity.py [--datasets corpus,multitype]
        [--corpus DIR] [--multitype DIR] [--converters a,b] [--sample N]
        [--speed-repeat N] [--main-sample N] [--main-repeat N] [--no-main]
        [--jobs N] [--json FILE] [--check] [--list-misses CONVERTER]

The data: the shared corpus (--corpus: $HTMLTOK_CORPUS, else ../shared/corpus beside the
repository; every page its MANIFEST.tsv lists) and the multitype development split
(--multitype: multitype-dev in $HTMLTOK_EVAL_DATA, else in ../shared/eval; every
html/NNNN.html.gz). Nothing of them is copied into the repository.

**The truth is the page's DOM**, htmltok's tree (it passes the html5lib tree-construction
suite), walked iteratively (pages nest deeper than Python's recursion limit). What is
visible: an element is hidden when it is a `script`, `style`, `template`, `noscript`,
`head` or `title` (in any namespace: SVG has them too), or has the `hidden` attribute
(but `hidden=until-found`), `aria-hidden="true"` or an inline `style` whose declarations
set `display: none` or `visibility: hidden` (ASCII case-insensitive, `!important`
allowed, the last declaration of a property winning); its whole subtree is hidden with
it. Beyond the issue's definition, as browsers (and htmltok) do: a closed `<details>`
shows its first `<summary>` only; SVG's `desc`, like its `title`, is not rendered; and
`visibility: collapse` hides as `hidden` does. The page is parsed with scripting off, so
a `noscript` holds markup, which is left out. From the visible part of the tree:

- **Code**: each visible `pre` (also `listing`, `xmp`, `plaintext`; not one inside
  another, whose text is its outer one's) with some non-whitespace text. Its expected
  code is its visible text nodes concatenated, a `<br>` as a line break, and a line break
  at the start and at the end of each block-level descendant (`div`, `p`, `li`, `tr`,
  `td`, `h1`-`h6`, ...: the user agent style sheet's blocks) unless the text so far ends
  with one or is still empty (as a browser lays the lines out). It is found when a code
  block of the Markdown (fenced or indented) holds exactly that text, one final line
  break taken off each side if it has one.
- **Headings**: each visible `h1`-`h6` that is in no table cell (a GFM cell cannot hold a
  heading; one inside a link or a link's `div` still counts) nor in another heading (whose
  text it is part of: a Markdown heading cannot hold one either) and has some text: its
  level and its visible text (a `<br>` and block boundaries a space, runs of whitespace
  one space, trimmed; an image's alt is not text). Found when the Markdown has a heading
  of that level with that inline text (text, code spans and link text; an image's alt
  left out; line breaks and inline HTML a space; whitespace normalized likewise).
- **Tables**: each visible `table` with at least 2 rows and 2 columns of cells, no cell
  with a `colspan` or `rowspan` over 1, and no visible table inside it; a table inside
  another's cell counts on its own when it qualifies. Its rows are its own visible `tr`
  in document order, each the list of its visible `td` and `th` texts (normalized as a
  heading's), padded with "" to the widest row; a `tr` without a visible cell is a row of
  empty cells (the issue's "same cells row by row" taken literally), though it does not
  count towards the 2 rows. Found when a GFM table of the Markdown has the same rows: its
  header row, then its body rows, each cell's inline text as a heading's, padded likewise.
- **Words**: the visible text nodes' text (a block boundary or `<br>` a space; alt text is
  not text) against the Markdown's text (inline text, code spans, link text and code
  blocks' content; not URLs, image alt or raw HTML, an inline HTML tag counting as a space:
  a `<br>` in a GFM cell is the only line break a cell has), both as the multitype set's
  words (`re.findall(r"\\w+", text.lower())`), the page's F1 from their multiset overlap.

Each item is matched as a multiset on its page (a Markdown block matches one item at
most). The rates are items found over items expected across the data set; the word F1 is
the mean of the pages' F1. The Markdown is read back by markdown-it-py, CommonMark with
the GFM table and strikethrough rules, as a reader of GFM reads it: without the commonmark
preset's nesting limit (20 levels, past which it swallows the rest of the page) and with
links to any URL (it leaves `[text](javascript:void(0))` as literal text; GFM does not).

**The converters**, each with its defaults: htmltok `htmltok.parse(bytes).markdown()`;
turbohtml `turbohtml.parse(str).to_markdown()`; html-to-markdown `convert(str).content`;
markdownify `markdownify(str)`; html2text `html2text(str)`. The peers are handed the page
decoded as a browser decodes it (htmltok.Document(bytes).html_text, outside the timing);
htmltok is handed the bytes and its decoding is timed with it. A converter that raises on
a page (markdownify's RecursionError on deep pages) fails that page: none of its items
found, F1 0, and the failure counted.

**Speed**: one thread, the input's MB over the seconds of the converter's calls; each of
`--speed-repeat` rounds makes one pass per converter over the data set, the order rotated
from round to round (so that a busy machine weighs on all alike); the first round's output
is the one scored; MB/s of each converter's best round. htmltok's ratio to each peer is
that of the best rounds, beside the median of the rounds' ratios.
**Main-content Markdown** speed, on the same pages (every page, or `--main-sample N` of
each data set, spread evenly): htmltok `parse(bytes).main_text(format="markdown")` against
trafilatura `extract(str, output_format="markdown", include_formatting=True,
include_tables=True, include_links=True, include_images=True)` (the options of its
Markdown output; links and images because htmltok's Markdown has them), `--main-repeat`
rounds (default one: trafilatura runs at ~5 MB/s).

The scoring (tree walk and read-back) runs after the timed passes, in `--jobs` processes.
`--check` exits 1 when htmltok is under the issue's targets (code 99 %, headings 97 %,
tables 98 %, word F1 0.97) on a data set; `--list-misses CONVERTER` prints each item that
converter missed, beside the nearest Markdown block of its kind.
"""

import argparse
import difflib
import gc
import gzip
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from importlib.metadata import version
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluate import REPO, multiset_scores, words  # noqa: E402

# The targets for htmltok, each data set alike.
TARGETS = {"pre": 0.99, "headings": 0.97, "tables": 0.98, "f1": 0.97}
# Whole-page speed: htmltok at least this many times each peer; main content likewise.
SPEED_TARGETS = {"turbohtml": 3.0, "html-to-markdown": 20.0}
MAIN_SPEED_TARGET = 100.0
KINDS = ("pre", "headings", "tables")

# ---------------------------------------------------------------------------------------
# Pages


class Page(NamedTuple):
    name: str  # its path under the data set's folder
    data: bytes  # as fetched (decompressed)
    text: str  # decoded as a browser decodes it (what the peers are handed)


def decoded(data):
    import htmltok

    return htmltok.Document(data).html_text


def corpus_root(args):
    """--corpus, else $HTMLTOK_CORPUS, else ../shared/corpus beside the repository."""
    if args.corpus:
        return args.corpus
    if os.environ.get("HTMLTOK_CORPUS"):
        return Path(os.environ["HTMLTOK_CORPUS"])
    return REPO.parent / "shared" / "corpus"


def multitype_root(args):
    """--multitype, else multitype-dev in $HTMLTOK_EVAL_DATA, else in ../shared/eval."""
    if args.multitype:
        return args.multitype
    if os.environ.get("HTMLTOK_EVAL_DATA"):
        return Path(os.environ["HTMLTOK_EVAL_DATA"]) / "multitype-dev"
    return REPO.parent / "shared" / "eval" / "multitype-dev"


def load_corpus(root, sample):
    """The pages the corpus's MANIFEST.tsv lists (its `path` column), else every .htm*."""
    manifest = root / "MANIFEST.tsv"
    if manifest.is_file():
        lines = manifest.read_text("utf-8").splitlines()
        column = lines[0].split("\t").index("path")
        names = sorted(line.split("\t")[column] for line in lines[1:] if line)
    else:
        names = sorted(str(p.relative_to(root)) for p in root.rglob("*.htm*"))
    names = names[:sample] if sample else names
    pages = []
    for name in names:
        data = (root / name).read_bytes()
        pages.append(Page(name, data, decoded(data)))
    return pages


def load_multitype(root, sample):
    """Every html/NNNN.html.gz of the split, decompressed."""
    paths = sorted((root / "html").glob("*.html.gz"))
    paths = paths[:sample] if sample else paths
    pages = []
    for path in paths:
        data = gzip.decompress(path.read_bytes())
        pages.append(Page(str(path.relative_to(root)), data, decoded(data)))
    return pages


DATASETS = {"corpus": (corpus_root, load_corpus), "multitype": (multitype_root, load_multitype)}

# ---------------------------------------------------------------------------------------
# The DOM's truth

# Elements never rendered, in any namespace (SVG has `style`, `script` and `title` too);
# and SVG's `desc`, which like its `title` is for assistive technology only.
HIDDEN_ELEMENTS = frozenset("script style template noscript head title".split())
# The user agent style sheet's block-level HTML elements (HTML § 15.3): a line of their own.
BLOCKS = frozenset(
    "address article aside blockquote body caption center dd details dialog dir div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend "
    "li listing main menu nav ol optgroup option p plaintext pre search section summary "
    "table td th tr ul xmp".split()
)
PRE_ELEMENTS = frozenset("pre listing xmp plaintext".split())
HEADINGS = {f"h{level}": level for level in range(1, 7)}
ASCII_WHITESPACE = " \t\n\r\f"
# In the list of a page's visible text pieces: a block boundary (a line break in a `pre`,
# a space elsewhere).
BOUNDARY = None


class Truth(NamedTuple):
    """What the page's DOM shows: its code, headings, tables and words."""

    pre: list  # expected code texts
    headings: list  # (level, text)
    tables: list  # tuples of rows, each a tuple of cell texts, padded
    words: Counter


def style_hides(style):
    """Whether an inline style sets `display: none` or `visibility: hidden` (or `collapse`,
    which outside tables is `hidden` and inside them hides the row or column too), the last
    declaration of each property winning (CSS's cascade within one attribute)."""
    display_none = invisible = False
    for declaration in style.split(";"):
        prop, colon, value = declaration.partition(":")
        if not colon:
            continue
        prop = prop.strip(ASCII_WHITESPACE).lower()
        value = value.strip(ASCII_WHITESPACE).lower()
        value = value.removesuffix("!important").strip(ASCII_WHITESPACE)
        if prop == "display":
            display_none = value == "none"
        elif prop == "visibility":
            invisible = value in ("hidden", "collapse")
    return display_none or invisible


def attributes_hide(attrs):
    """Whether an element's attributes (a dict) hide it and its subtree."""
    hidden = attrs.get("hidden")
    if hidden is not None and hidden.strip(ASCII_WHITESPACE).lower() != "until-found":
        return True
    if attrs.get("aria-hidden", "").strip(ASCII_WHITESPACE).lower() == "true":
        return True
    style = attrs.get("style")
    return bool(style) and style_hides(style)


def span_over_one(value):
    """Whether a colspan/rowspan value is a number over 1 (HTML's rules for parsing
    non-negative integers: leading whitespace, then digits; anything else is 1)."""
    digits = value.lstrip(ASCII_WHITESPACE)
    end = 0
    while end < len(digits) and digits[end].isdigit() and digits[end].isascii():
        end += 1
    return end > 0 and int(digits[:end]) > 1


def pre_text(pieces):
    """A `pre`'s code: its pieces joined, a block boundary a line break unless the text so
    far is empty or ends with one."""
    out = []
    for piece in pieces:
        if piece is BOUNDARY:
            if out and not out[-1].endswith("\n"):
                out.append("\n")
        elif piece:
            out.append(piece)
    return "".join(out)


def flat_text(pieces):
    """Pieces joined, a block boundary a space."""
    return "".join(" " if piece is BOUNDARY else piece for piece in pieces)


def normalized(text):
    """Runs of whitespace one space, trimmed (Unicode whitespace: a converter may write a
    no-break space as a space)."""
    return " ".join(text.split())


def padded(rows):
    """The rows as a tuple of tuples, each padded with "" to the widest."""
    width = max((len(row) for row in rows), default=0)
    return tuple(tuple(row) + ("",) * (width - len(row)) for row in rows)


class _Table:
    """A visible table the walk is inside."""

    __slots__ = ("rows", "spans", "nested")

    def __init__(self):
        self.rows = []
        self.spans = False
        self.nested = False

    def qualifies(self):
        rows = [row for row in self.rows if row]
        return not self.spans and not self.nested and len(rows) >= 2 and max(map(len, rows)) >= 2


def dom_truth(tree):
    """The page's Truth from its htmltok tree, in one iterative walk. Visible text goes to
    `pieces` (BOUNDARY at each block's start and end); the elements scored remember where
    their pieces start, and take their text from there when the walk leaves them."""
    pieces = []
    pres, headings, tables = [], [], []
    open_tables = []  # the visible tables the walk is inside, innermost last
    cells = 0  # the td/th the walk is inside
    in_pre = in_heading = 0  # the pre and headings the walk is inside (only the outermost counts)
    # The stack holds nodes to enter and (name, start, table) tuples to leave.
    stack = list(reversed(tree.root.children))
    while stack:
        item = stack.pop()
        if type(item) is tuple:
            name, start, table = item
            if name in PRE_ELEMENTS:
                in_pre -= 1
                text = pre_text(pieces[start:])
                if not in_pre and text.strip():
                    pres.append(text)
            elif name in HEADINGS:
                in_heading -= 1
                text = normalized(flat_text(pieces[start:]))
                if text and not cells and not in_heading:
                    headings.append((HEADINGS[name], text))
            elif name in ("td", "th"):
                cells -= 1
                if table is not None:
                    table.rows[-1].append(normalized(flat_text(pieces[start:])))
            elif name == "table":
                open_tables.pop()
                if table.qualifies():
                    tables.append(padded(table.rows))
            pieces.append(BOUNDARY)
            continue
        kind = item.type
        if kind == "text":
            pieces.append(item.text())
            continue
        if kind != "element":
            continue
        name = item.name
        if name in HIDDEN_ELEMENTS or (name == "desc" and item.namespace == "svg"):
            continue
        attrs = item.attrs
        if attrs and attributes_hide(attrs):
            continue
        children = item.children
        if item.namespace != "html":
            stack.extend(reversed(children))
            continue
        if name == "br":
            pieces.append("\n")
            continue
        if name == "details" and "open" not in attrs:
            children = [c for c in children if c.type == "element" and c.name == "summary"][:1]
        if name not in BLOCKS:
            stack.extend(reversed(children))
            continue
        pieces.append(BOUNDARY)
        table = None
        if name in PRE_ELEMENTS:
            in_pre += 1
        elif name in HEADINGS:
            in_heading += 1
        elif name == "table":
            for outer in open_tables:
                outer.nested = True
            table = _Table()
            open_tables.append(table)
        elif name == "tr" and open_tables:
            open_tables[-1].rows.append([])
        elif name in ("td", "th"):
            cells += 1
            # A cell of the innermost table's current row (None: a cell outside any row).
            if open_tables and open_tables[-1].rows:
                table = open_tables[-1]
                if any(span_over_one(attrs.get(a, "")) for a in ("colspan", "rowspan")):
                    table.spans = True
        stack.append((name, len(pieces), table))
        stack.extend(reversed(children))
    return Truth(pres, headings, tables, Counter(words(flat_text(pieces))))


# ---------------------------------------------------------------------------------------
# The Markdown read back


class Readback(NamedTuple):
    """What a reader of GFM finds in the Markdown."""

    code: list  # code blocks' content
    headings: list  # (level, text)
    tables: list  # tuples of rows, padded
    words: Counter


_PARSER = None


def markdown_parser():
    """CommonMark with GFM's tables and strikethrough (made once a process)."""
    global _PARSER
    if _PARSER is None:
        from markdown_it import MarkdownIt

        # The commonmark preset stops reading blocks at 20 levels of nesting and swallows
        # the rest of the page into the 20th (a list nested 20 deep ends the document);
        # CommonMark sets no such limit.
        _PARSER = MarkdownIt("commonmark", {"maxNesting": 1000}).enable("table").enable("strikethrough")
        # markdown-it refuses links to javascript:, vbscript:, file: and most data: URLs,
        # leaving `[text](javascript:void(0))` as literal text; a GFM reader parses it as a
        # link (only a renderer makes it safe), and so does this one.
        _PARSER.validateLink = lambda url: True
    return _PARSER


def parse_markdown(markdown):
    """markdown-it's tokens. It recurses a few times a level of nesting: the recursion
    limit is raised while it reads (Python 3.11's calls between Python functions take no C
    stack), and only then, so that the converters run under Python's default."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        return markdown_parser().parse(markdown)
    finally:
        sys.setrecursionlimit(limit)


def inline_text(token):
    """An inline token's text: text, code spans and link text; an image (its alt) left out;
    a line break or an inline HTML tag a space."""
    parts = []
    for child in token.children or ():
        kind = child.type
        if kind == "text" or kind == "code_inline":
            parts.append(child.content)
        elif kind == "softbreak" or kind == "hardbreak" or kind == "html_inline":
            parts.append(" ")
    return "".join(parts)


def read_markdown(markdown):
    """The code blocks, headings, tables and words of the Markdown, from markdown-it's
    token stream (flat: a table in a list item or a block quote is met like any other)."""
    code, headings, tables, text = [], [], [], []
    level = table = row = None
    for token in parse_markdown(markdown):
        kind = token.type
        if kind == "inline":
            inline = inline_text(token)
            text.append(inline)
            if level is not None:
                headings.append((level, normalized(inline)))
                level = None
            elif row is not None:
                row.append(normalized(inline))
        elif kind == "fence" or kind == "code_block":
            code.append(token.content)
            text.append(token.content)
        elif kind == "heading_open":
            level = int(token.tag[1])
        elif kind == "heading_close":
            level = None
        elif kind == "table_open":
            table = []
        elif kind == "tr_open":
            row = []
            table.append(row)
        elif kind == "tr_close":
            row = None
        elif kind == "table_close":
            tables.append(padded(table))
            table = None
    return Readback(code, headings, tables, Counter(words(" ".join(text))))


# ---------------------------------------------------------------------------------------
# Scoring


def without_final_newline(text):
    return text[:-1] if text.endswith("\n") else text


def expected_and_got(truth, readback):
    """Per kind, the expected items and the Markdown's, as comparable keys."""
    return {
        "pre": ([without_final_newline(t) for t in truth.pre], [without_final_newline(c) for c in readback.code]),
        "headings": (truth.headings, readback.headings),
        "tables": (truth.tables, readback.tables),
    }


def found(expected, got):
    """How many expected items the Markdown has (a multiset match)."""
    return sum((Counter(expected) & Counter(got)).values())


def score(truth, readback):
    """A page's items found per kind, and its word F1."""
    pairs = expected_and_got(truth, readback)
    scores = {kind: found(*pairs[kind]) for kind in KINDS}
    scores["f1"] = multiset_scores(truth.words, readback.words)[2]
    return scores


def failed_score():
    return {"pre": 0, "headings": 0, "tables": 0, "f1": 0.0}


def shown(item):
    """An item as one line of text: code as it is, a heading as `h2 text`, a table's rows
    as `a | b` apart by ` / `."""
    if isinstance(item, str):
        return item
    if isinstance(item[0], int):
        return f"h{item[0]} {item[1]}"
    return " / ".join(" | ".join(row) for row in item)


def clipped(text, limit=160):
    return repr(text if len(text) <= limit else text[:limit] + "…")


def nearest(item, candidates):
    """The candidate most like the item (by difflib's quick ratio on their first 400
    characters), and that ratio; (None, 0) without candidates."""
    best, best_ratio = None, 0.0
    target = shown(item)[:400]
    for candidate in candidates:
        ratio = difflib.SequenceMatcher(None, target, shown(candidate)[:400]).quick_ratio()
        if ratio > best_ratio:
            best, best_ratio = candidate, ratio
    return best, best_ratio


def first_words(item):
    """What to look for in the Markdown to find where an item went: a heading's text, a
    table's first non-empty cell, code's first non-blank line (at most 40 characters)."""
    if isinstance(item, str):
        text = next((line.strip() for line in item.split("\n") if line.strip()), "")
    elif isinstance(item[0], int):
        text = item[1]
    else:
        text = next((cell for row in item for cell in row if cell), "")
    return text[:40]


def where_in(markdown, item):
    """The line of the Markdown where the item's first words are, or None."""
    needle = first_words(item)
    at = markdown.find(needle) if needle else -1
    if at < 0:
        return None
    start = markdown.rfind("\n", 0, at) + 1
    end = markdown.find("\n", at)
    return markdown[start : end if end >= 0 else len(markdown)]


def first_difference(expected, got):
    """For tables: the first row that differs, as `row N: expected … got …`."""
    for i in range(max(len(expected), len(got))):
        want = expected[i] if i < len(expected) else None
        have = got[i] if i < len(got) else None
        if want != have:
            return f"row {i}: expected {clipped(shown([want])) if want else None}, got {clipped(shown([have])) if have else None}"
    return ""


def miss_report(truth, readback, markdown):
    """The lines describing each item the Markdown lacks: the item, and the nearest
    Markdown block of its kind that matched nothing (or where its words are)."""
    lines = []
    for kind, (expected, got) in expected_and_got(truth, readback).items():
        missing = Counter(expected) - Counter(got)
        unmatched = list((Counter(got) - Counter(expected)).elements())
        for item in missing.elements():
            lines.append(f"  [{kind}] expected {clipped(shown(item))}")
            candidate, ratio = nearest(item, unmatched)
            if candidate is not None and ratio >= 0.5:
                detail = first_difference(item, candidate) if kind == "tables" else clipped(shown(candidate))
                lines.append(f"      nearest ({ratio:.2f}): {detail}")
            else:
                line = where_in(markdown, item)
                lines.append(f"      in the Markdown: {clipped(line)}" if line is not None else "      not in the Markdown")
    return lines


# The scoring runs in worker processes forked after the timed passes: they read the pages
# and outputs from here (set before the fork) rather than have them pickled.
_WORK = None


def score_page(index):
    """One page: its expected item counts, and per converter its score (and, for the
    converter whose misses are listed, their description)."""
    import htmltok

    pages, outputs, list_misses = _WORK
    page = pages[index]
    truth = dom_truth(htmltok.parse(page.data))
    result = {"expected": {kind: len(getattr(truth, kind)) for kind in KINDS}, "scores": {}, "misses": None}
    for key, texts in outputs.items():
        markdown = texts[index]
        if markdown is None:
            result["scores"][key] = failed_score()
            continue
        readback = read_markdown(markdown)
        result["scores"][key] = score(truth, readback)
        if key == list_misses:
            result["misses"] = miss_report(truth, readback, markdown)
    return result


def score_pages(pages, outputs, list_misses, jobs):
    """Every page's score_page, in `jobs` processes (forked: they share the outputs)."""
    global _WORK
    _WORK = (pages, outputs, list_misses)
    try:
        if jobs <= 1:
            return [score_page(i) for i in range(len(pages))]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return list(pool.imap(score_page, range(len(pages)), chunksize=1))
    finally:
        _WORK = None


def summary(results, key):
    """A converter's rates over a data set: items found over items expected per kind, the
    mean of the pages' F1."""
    out = {}
    for kind in KINDS:
        expected = sum(r["expected"][kind] for r in results)
        got = sum(r["scores"][key][kind] for r in results)
        out[kind] = {"found": got, "expected": expected, "rate": got / expected if expected else None}
    out["f1"] = sum(r["scores"][key]["f1"] for r in results) / len(results) if results else None
    return out


# ---------------------------------------------------------------------------------------
# Converters: a factory gives (label, run, takes_bytes); run(page input) -> Markdown str.
# Each library is imported only when asked for.


def htmltok_converter():
    import htmltok

    return f"htmltok {version('htmltok')} markdown()", lambda data: htmltok.parse(data).markdown(), True


def turbohtml_converter():
    import turbohtml

    return f"turbohtml {version('turbohtml')} to_markdown()", lambda text: turbohtml.parse(text).to_markdown(), False


def html_to_markdown_converter():
    import html_to_markdown

    # convert() gives a ConversionResult in 3.x; its Markdown is `content`.
    run = lambda text: html_to_markdown.convert(text).content  # noqa: E731
    return f"html-to-markdown {version('html-to-markdown')}", run, False


def markdownify_converter():
    from markdownify import markdownify

    return f"markdownify {version('markdownify')}", markdownify, False


def html2text_converter():
    from html2text import html2text

    return f"html2text {version('html2text')}", html2text, False


CONVERTERS = {
    "htmltok": htmltok_converter,
    "turbohtml": turbohtml_converter,
    "html-to-markdown": html_to_markdown_converter,
    "markdownify": markdownify_converter,
    "html2text": html2text_converter,
}


def htmltok_main():
    import htmltok

    run = lambda data: htmltok.parse(data).main_text(format="markdown")  # noqa: E731
    return f"htmltok {version('htmltok')} main_text(format='markdown')", run, True


def trafilatura_main():
    import trafilatura

    def run(text):
        return trafilatura.extract(
            text,
            output_format="markdown",
            include_formatting=True,
            include_tables=True,
            include_links=True,
            include_images=True,
        )

    return f"trafilatura {version('trafilatura')} extract(markdown)", run, False


# Main-content Markdown, timed only: htmltok first (the ratio is taken against it).
MAINS = {"htmltok": htmltok_main, "trafilatura": trafilatura_main}


def load_converters(keys, registry):
    """(key, label, run, takes_bytes) for each key whose library imports; the others are
    left out loudly."""
    loaded = []
    for key in keys:
        try:
            loaded.append((key, *registry[key]()))
        except ImportError as err:
            print(f"\n*** {key}: LEFT OUT (no column): {err}\n", file=sys.stderr)
    return loaded


# ---------------------------------------------------------------------------------------
# Timed passes


def convert_pass(run, takes_bytes, pages):
    """One pass over the pages: the outputs (None where the converter raised) and the
    seconds of its calls."""
    outputs, seconds = [], 0.0
    for page in pages:
        given = page.data if takes_bytes else page.text
        started = time.perf_counter()
        try:
            out = run(given) or ""
        except Exception:  # RecursionError and the like: the page fails for this converter
            out = None
        seconds += time.perf_counter() - started
        outputs.append(out)
    return outputs, seconds


def timed_rounds(converters, pages, repeat):
    """`repeat` rounds of one pass per converter, the order rotated each round. Gives each
    converter's first-round outputs and the seconds of each of its rounds."""
    outputs = {}
    seconds = {key: [] for key, *_ in converters}
    for round_ in range(repeat):
        for k in range(len(converters)):
            key, _, run, takes_bytes = converters[(k + round_) % len(converters)]
            # Collected between passes so that one converter's garbage is not another's.
            gc.collect()
            out, took = convert_pass(run, takes_bytes, pages)
            seconds[key].append(took)
            outputs.setdefault(key, out)
    return outputs, seconds


def ratios(ours, theirs):
    """htmltok against a peer: (best round against best round, median of the rounds'
    ratios, lowest, highest)."""
    per_round = sorted(t / o for t, o in zip(theirs, ours))
    return min(theirs) / min(ours), per_round[len(per_round) // 2], per_round[0], per_round[-1]


def spread(pages, n):
    """n of the pages, evenly spread (all of them when n is 0 or more than they are)."""
    if not n or n >= len(pages):
        return pages
    return [pages[i * len(pages) // n] for i in range(n)]


# ---------------------------------------------------------------------------------------
# Reports


def percent(rate):
    return f"{100 * rate:.1f}" if rate is not None else "-"


def print_quality(dataset, root, pages, converters, summaries, failures, mb_per_s):
    size = sum(len(p.data) for p in pages)
    totals = next(iter(summaries.values()))
    print(
        f"\n{dataset}: {len(pages)} pages of {root}, {size / 1e6:.1f} MB;"
        f" {totals['pre']['expected']} pre, {totals['headings']['expected']} headings,"
        f" {totals['tables']['expected']} tables (visible, as the DOM has them)"
    )
    print(f"  {'converter':<42} {'pre %':>7} {'head %':>7} {'table %':>7} {'word F1':>7} {'failed':>6} {'MB/s':>8}")
    for key, label, *_ in converters:
        s = summaries[key]
        print(
            f"  {label:<42} {percent(s['pre']['rate']):>7} {percent(s['headings']['rate']):>7}"
            f" {percent(s['tables']['rate']):>7} {s['f1']:7.4f} {failures[key]:6d} {mb_per_s[key]:8.2f}"
        )


def print_speed(title, converters, seconds, size, targets):
    """MB/s of each converter's best round, and htmltok's ratio to each peer (with its
    target where the issue sets one)."""
    first = converters[0][0]
    print(f"\n{title}")
    for key, label, *_ in converters:
        took = seconds[key]
        line = f"  {label:<46} {size / min(took) / 1e6:8.2f} MB/s  ({len(took)} rounds, best {min(took):.2f} s)"
        if key != first:
            best, median, low, high = ratios(seconds[first], took)
            line += f"  {first} {best:.1f}x as fast (median of rounds {median:.1f}x, {low:.1f}-{high:.1f})"
            if key in targets:
                line += f", target {targets[key]:g}x: {'met' if best >= targets[key] else 'NOT MET'}"
        print(line)


def list_misses(dataset, root, key, pages, results):
    print(f"\n{dataset}: what {key} missed (pages under {root})")
    for page, result in zip(pages, results):
        if result["misses"]:
            counts = ", ".join(
                f"{result['expected'][kind] - result['scores'][key][kind]} of {result['expected'][kind]} {kind}"
                for kind in KINDS
                if result["expected"][kind] > result["scores"][key][kind]
            )
            print(f"== {page.name}: missed {counts}")
            print("\n".join(result["misses"]))


def check(figures):
    """The targets htmltok is under, one line each."""
    under = []
    for dataset, figures_of in figures.items():
        ours = figures_of["converters"].get("htmltok")
        if ours is None:
            under.append(f"{dataset}: htmltok not scored")
            continue
        for kind in KINDS:
            rate = ours[kind]["rate"]
            if rate is not None and rate < TARGETS[kind]:
                under.append(f"{dataset}: {kind} {100 * rate:.2f} % under {100 * TARGETS[kind]:g} %")
        if ours["f1"] < TARGETS["f1"]:
            under.append(f"{dataset}: word F1 {ours['f1']:.4f} under {TARGETS['f1']}")
    return under


def speed_together(what, converters, parts, targets):
    """Prints the speed over every data set together (a round's seconds summed over the
    sets, from `parts`: per set, (seconds per converter, size)) and gives its figures."""
    size = sum(part_size for _, part_size in parts.values())
    seconds = {key: [sum(t) for t in zip(*(s[key] for s, _ in parts.values()))] for key, *_ in converters}
    print_speed(f"all data sets: {what}, one thread", converters, seconds, size, targets)
    return {"bytes": size, "seconds": seconds, "mb_per_s": {key: size / min(t) / 1e6 for key, t in seconds.items()}}


# ---------------------------------------------------------------------------------------


def run_dataset(dataset, args, converters, mains):
    """Loads, converts (timed), scores and prints one data set; gives its figures and the
    main-content passes' seconds and size."""
    find_root, load = DATASETS[dataset]
    root = find_root(args)
    started = time.perf_counter()
    pages = load(root, args.sample)
    if not pages:
        sys.exit(f"{dataset}: no pages in {root}")
    size = sum(len(p.data) for p in pages)
    loaded = time.perf_counter()
    outputs, seconds = timed_rounds(converters, pages, args.speed_repeat)
    converted = time.perf_counter()
    results = score_pages(pages, outputs, args.list_misses, args.jobs)
    scored = time.perf_counter()

    summaries = {key: summary(results, key) for key, *_ in converters}
    failures = {key: sum(out is None for out in outputs[key]) for key, *_ in converters}
    mb_per_s = {key: size / min(seconds[key]) / 1e6 for key, *_ in converters}
    print_quality(dataset, root, pages, converters, summaries, failures, mb_per_s)
    print_speed(f"{dataset}: whole-page Markdown, one thread", converters, seconds, size, SPEED_TARGETS)

    main_seconds, main_size = {}, 0
    if mains:
        main_pages = spread(pages, args.main_sample)
        main_size = sum(len(p.data) for p in main_pages)
        _, main_seconds = timed_rounds(mains, main_pages, args.main_repeat)
        print_speed(
            f"{dataset}: main-content Markdown, one thread, {len(main_pages)} pages ({main_size / 1e6:.1f} MB)",
            mains,
            main_seconds,
            main_size,
            {"trafilatura": MAIN_SPEED_TARGET},
        )
    done = time.perf_counter()
    print(
        f"  took: load {loaded - started:.0f} s, convert {converted - loaded:.0f} s ({args.speed_repeat} rounds),"
        f" score {scored - converted:.0f} s ({args.jobs} processes), main content {done - scored:.0f} s"
    )
    if args.list_misses:
        list_misses(dataset, root, args.list_misses, pages, results)

    figures = {
        "root": str(root),
        "pages": len(pages),
        "bytes": size,
        "converters": {
            key: {
                "label": label,
                **summaries[key],
                "failures": failures[key],
                "seconds": seconds[key],
                "mb_per_s": mb_per_s[key],
            }
            for key, label, *_ in converters
        },
    }
    if mains:
        figures["main"] = {
            "pages": len(main_pages),
            "bytes": main_size,
            "converters": {
                key: {"label": label, "seconds": main_seconds[key], "mb_per_s": main_size / min(main_seconds[key]) / 1e6}
                for key, label, *_ in mains
            },
        }
    return figures, seconds, size, main_seconds, main_size


def main():
    args = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    args.add_argument("--datasets", default="corpus,multitype", help="comma-separated: " + ", ".join(DATASETS))
    args.add_argument("--corpus", type=Path, help="the corpus (default: $HTMLTOK_CORPUS, else ../shared/corpus)")
    args.add_argument(
        "--multitype", type=Path, help="the multitype split (default: multitype-dev in $HTMLTOK_EVAL_DATA, else ../shared/eval)"
    )
    args.add_argument("--converters", default=",".join(CONVERTERS), help="comma-separated: " + ", ".join(CONVERTERS))
    args.add_argument("--sample", type=int, default=0, help="only the first N pages of each data set (by name)")
    args.add_argument("--speed-repeat", type=int, default=1, help="rounds of one pass per converter, in turn (default 1)")
    args.add_argument("--no-main", action="store_true", help="leave out the main-content Markdown speed")
    args.add_argument(
        "--main-sample", type=int, default=0, help="main content: N pages of each data set, evenly spread (default: all)"
    )
    args.add_argument("--main-repeat", type=int, default=1, help="main content: rounds (default 1; trafilatura is slow)")
    args.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes that score (default: one per CPU)")
    args.add_argument("--json", type=Path, help="write every figure to this JSON file")
    args.add_argument("--check", action="store_true", help="exit 1 when htmltok is under the issue's targets on a data set")
    args.add_argument("--list-misses", metavar="CONVERTER", help="print each item the converter missed")
    args = args.parse_args()

    datasets = args.datasets.split(",")
    for dataset in datasets:
        if dataset not in DATASETS:
            sys.exit(f"unknown data set {dataset!r}; known: {', '.join(DATASETS)}")
    keys = args.converters.split(",")
    for key in keys:
        if key not in CONVERTERS:
            sys.exit(f"unknown converter {key!r}; known: {', '.join(CONVERTERS)}")
    if args.list_misses and args.list_misses not in keys:
        sys.exit(f"--list-misses {args.list_misses}: not among --converters")
    # htmltok first: the speed ratios are taken against it.
    keys.sort(key=lambda key: key != "htmltok")
    markdown_parser()  # fails here, before any pass, without markdown-it-py
    converters = load_converters(keys, CONVERTERS)
    if not converters:
        sys.exit("no converter could be imported")
    mains = [] if args.no_main else load_converters(list(MAINS), MAINS)

    started = time.perf_counter()
    figures, totals, main_totals = {}, {}, {}
    for dataset in datasets:
        figures[dataset], seconds, size, main_seconds, main_size = run_dataset(dataset, args, converters, mains)
        totals[dataset] = (seconds, size)
        main_totals[dataset] = (main_seconds, main_size)

    together = {}
    if len(datasets) > 1:
        together["whole_page"] = speed_together("whole-page Markdown", converters, totals, SPEED_TARGETS)
        if mains:
            together["main"] = speed_together("main-content Markdown", mains, main_totals, {"trafilatura": MAIN_SPEED_TARGET})
    print(f"\ntook {time.perf_counter() - started:.0f} s in all")

    under = check(figures)
    if args.json:
        everything = {"targets": TARGETS, "datasets": figures, "all_datasets": together, "under_targets": under}
        args.json.write_text(json.dumps(everything, indent=1))
    if args.check:
        if under:
            print("\nhtmltok UNDER the issue's targets:\n  " + "\n  ".join(under), file=sys.stderr)
            sys.exit(1)
        print("\nhtmltok meets the issue's targets on " + ", ".join(datasets))


if __name__ == "__main__":
    main()
