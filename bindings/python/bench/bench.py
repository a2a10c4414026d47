"""Throughput of htmltok's Python bindings against selectolax, Resiliparse and turbohtml
(each when installed), single threaded, on a folder of HTML pages (the shared corpus, else
the bundled pages).

    python bench.py [CORPUS_DIR] [--repeat N] [--task parse --task links ...]

Prints one table: MB/s (10^6 bytes of input per second) and documents per second, best of
N runs (the methods measured in turn within each run), for parsing to a tree (htmltok.parse beside selectolax's LexborHTMLParser, Resiliparse
and turbohtml.parse), parse + every <a href> link, parse + visible text, tokenizing, and
htmltok.process with 1 and 2 threads (links as dicts, as URL strings, and as Arrow record
batches). Each library is given the page's bytes. `--task` (parse, links, text, tokens,
batch, select, fields; repeatable) measures only those rows.

`select` is issue #26's first row: every `a[href]` and its `href` value (htmltok
parse(d).select, selectolax css, turbohtml select); `fields` its second: the ten fields of
FIELDS at once (htmltok.extract, frostwork's one-pass extract with the same selectors,
selectolax parse + ten css() calls).
"""

import argparse
import os
import sys
import time
from pathlib import Path

import htmltok
from importlib.metadata import version

HTML = (".html", ".htm", ".xhtml", ".xht", ".shtml")


def pages_of(corpus):
    paths = sorted(p for p in Path(corpus).rglob("*") if p.suffix.lower() in HTML and p.is_file())
    return paths, [p.read_bytes() for p in paths]


def htmltok_links(data):
    return [l["url"] for l in htmltok.Document(data).links() if l["element"] == "a"]


def htmltok_links_a(data):
    return htmltok.Document(data).links(elements=("a",), urls=True)


def htmltok_text(data):
    return htmltok.Document(data).text()


def htmltok_tokens(data):
    for _ in htmltok.tokenize(data):
        pass


def htmltok_tokens_types(data):
    n = 0
    for tok in htmltok.tokenize(data):
        if tok.type == "StartTag":
            n += 1
    return n


def htmltok_tokenize_only(data):
    return len(htmltok.tokenize(data))


def htmltok_parse(data):
    return htmltok.parse(data)


#: Issue #26's ten fields (title, meta description, canonical, robots, og:title, h1 text,
#: every a[href], every img[src], html[lang], hreflang alternates), parsel's pseudo-elements.
FIELDS = {
    "title": "title::text",
    "description": "meta[name=description]::attr(content)",
    "canonical": "link[rel=canonical]::attr(href)",
    "robots": "meta[name=robots]::attr(content)",
    "og_title": 'meta[property="og:title"]::attr(content)',
    "h1": "h1::text",
    "links": "a[href]::attr(href)",
    "images": "img[src]::attr(src)",
    "lang": "html[lang]::attr(lang)",
    "hreflang": "link[rel=alternate][hreflang]::attr(href)",
}
COMPILED_FIELDS = htmltok.Fields(FIELDS)
A_HREF = htmltok.Selector("a[href]")


def htmltok_select_hrefs(data):
    return [a.attr("href") for a in htmltok.parse(data).select(A_HREF)]


def htmltok_select_attr(data):
    return htmltok.parse(data).getall("a[href]::attr(href)")


def htmltok_extract(data):
    return htmltok.extract(data, COMPILED_FIELDS)


def selectolax_fields(parser_class):
    """parse + one css() per field: ::text as the element's own text, ::attr(x) as x."""
    queries = []
    for css in FIELDS.values():
        sel, _, pseudo = css.partition("::")
        attr = pseudo[len("attr("):-1] if pseudo.startswith("attr(") else None
        queries.append((sel, attr))

    def run(data):
        tree = parser_class(data)
        out = []
        for sel, attr in queries:
            if attr is None:
                out.append([n.text(deep=False) for n in tree.css(sel)])
            else:
                out.append([n.attributes.get(attr) for n in tree.css(sel)])
        return out

    return run


def methods():
    out = [
        ("parse", "htmltok parse(d) (the tree: decode + tree construction)", htmltok_parse),
        ("links", "htmltok Document(d).links() (dicts, a filtered in Python)", htmltok_links),
        ("links", "htmltok Document(d).links(elements=('a',), urls=True)", htmltok_links_a),
        ("text", "htmltok Document(d).text()", htmltok_text),
        ("tokens", "htmltok tokenize(d) (no iteration)", htmltok_tokenize_only),
        ("select", "htmltok parse(d).select(Selector('a[href]')) + .attr('href')", htmltok_select_hrefs),
        ("select", "htmltok parse(d).getall('a[href]::attr(href)')", htmltok_select_attr),
        ("fields", "htmltok extract(d, Fields(ten fields))", htmltok_extract),
        ("fields", "htmltok parse(d).extract(Fields(ten fields))",
         lambda d: htmltok.parse(d).extract(COMPILED_FIELDS)),
        ("tokens", "htmltok tokenize(d), iterate every token", htmltok_tokens),
        ("tokens", "htmltok tokenize(d), iterate + tok.type", htmltok_tokens_types),
    ]
    try:
        from selectolax.lexbor import LexborHTMLParser as HTMLParser

        sx = f"selectolax {version('selectolax')} (lexbor)"
        out += [
            ("links", f"{sx} HTMLParser(d).css('a[href]')",
             lambda d: [n.attributes.get("href") for n in HTMLParser(d).css("a[href]")]),
            ("parse", f"{sx} HTMLParser(d) (parse alone)", lambda d: HTMLParser(d)),
            ("select", f"{sx} HTMLParser(d).css('a[href]') + href",
             lambda d: [n.attributes.get("href") for n in HTMLParser(d).css("a[href]")]),
            ("fields", f"{sx} HTMLParser(d) + ten css()", selectolax_fields(HTMLParser)),
        ]
    except ImportError as err:
        print(f"selectolax is not installed ({err}): not measured", file=sys.stderr)
    try:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import detect_encoding
        from resiliparse.parse.html import HTMLTree
        rp = f"Resiliparse {version('resiliparse')}"

        def rp_tree(data):
            return HTMLTree.parse_from_bytes(data, detect_encoding(data))

        def rp_text(data):
            return extract_plain_text(rp_tree(data))

        out += [
            ("text", f"{rp} extract_plain_text(HTMLTree)", rp_text),
            ("parse", f"{rp} HTMLTree.parse_from_bytes (parse alone)", rp_tree),
        ]
    except ImportError as err:
        print(f"resiliparse is not installed ({err}): not measured", file=sys.stderr)
    try:
        import turbohtml

        th = f"turbohtml {version('turbohtml')}"
        out += [
            ("parse", f"{th} parse(d) (parse alone)", turbohtml.parse),
            ("select", f"{th} parse(d).select('a[href]') + href",
             lambda d: [a.attr("href") for a in turbohtml.parse(d).select("a[href]")]),
        ]
    except ImportError as err:
        print(f"turbohtml is not installed ({err}): not measured", file=sys.stderr)
    try:
        import frostwork

        queries = list(FIELDS.values())
        out += [("fields", f"frostwork {version('frostwork')} extract(d, ten queries) (one pass, no tree)",
                 lambda d: frostwork.extract(d, queries))]
    except ImportError as err:
        print(f"frostwork is not installed ({err}): not measured", file=sys.stderr)
    return out


def measure(fn, pages, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for data in pages:
            fn(data)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    parser = argparse.ArgumentParser()
    here = Path(__file__).resolve().parents[3]
    default = Path(os.environ.get("HTMLTOK_CORPUS", here.parent / "shared" / "corpus"))
    if not default.is_dir():
        default = here / "corpus"
    parser.add_argument("corpus", nargs="?", default=str(default))
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--task", action="append", choices=["parse", "links", "text", "tokens", "batch", "select", "fields"],
                        help="measure only these tasks (default: all)")
    args = parser.parse_args()
    paths, pages = pages_of(args.corpus)
    total = sum(map(len, pages))
    print(f"corpus: {args.corpus}: {len(pages)} documents, {total / 1e6:.1f} MB; "
          f"single thread, best of {args.repeat}; Python {sys.version.split()[0]}, htmltok {htmltok.__version__}\n")
    rows = []
    chosen = [(task, name, fn) for task, name, fn in methods() if not args.task or task in args.task]
    for _, _, fn in chosen:
        fn(pages[0])
    # Round robin: each run measures every method once, so a machine whose speed drifts
    # (a shared VM) slows them alike and the ratios between rows hold.
    rounds = [[] for _ in chosen]
    for _ in range(args.repeat):
        for i, (_, _, fn) in enumerate(chosen):
            rounds[i].append(measure(fn, pages, 1))
    for (task, name, _), took in zip(chosen, rounds):
        seconds = min(took)
        rows.append((task, name, total / seconds / 1e6, len(pages) / seconds))
        print(f"  {task:7} {name:62} {rows[-1][2]:8.1f} MB/s {rows[-1][3]:8.0f} docs/s", file=sys.stderr)
    # Each htmltok row against each other row of its task: the ratio of the best runs and
    # the median of the ratios within a round (the two runs closest in time).
    ratios = []
    for (task, name, _), ours in zip(chosen, rounds):
        if not name.startswith("htmltok"):
            continue
        for (other_task, other, _), theirs in zip(chosen, rounds):
            if other_task != task or other.startswith("htmltok"):
                continue
            per_round = sorted(t / o for t, o in zip(theirs, ours))
            short = lambda n: n.split(" (")[0]  # noqa: E731
            ratios.append(f"  {task:7} {short(name)} / {short(other)}: {min(theirs) / min(ours):.2f}x best,"
                          f" {per_round[len(per_round) // 2]:.2f}x median of {len(per_round)} rounds"
                          f" ({per_round[0]:.2f}-{per_round[-1]:.2f})")
    if ratios:
        print("\n".join(["ratios (htmltok / peer, time of the peer over htmltok's):"] + ratios), file=sys.stderr)
    try:
        import pyarrow  # noqa: F401  (process(output="pyarrow") needs it)
        arrow = True
    except ImportError:
        print("pyarrow is not installed: process(output='pyarrow') not measured", file=sys.stderr)
        arrow = False

    def dicts(threads):
        for _ in htmltok.process(args.corpus, threads=threads):
            pass

    def urls(threads):
        for _ in htmltok.process(args.corpus, threads=threads, link_urls=True):
            pass

    def batches(threads):
        for _ in htmltok.process(args.corpus, threads=threads, output="pyarrow"):
            pass

    forms = [("process", "link dicts", dicts), ("process", "link_urls=True", urls)]
    if args.task and "batch" not in args.task:
        forms = []
    elif arrow:
        forms.append(("process", "output='pyarrow'", batches))
    for name, form, fn in forms:
        for threads in (1, 2):
            fn(threads)
            seconds = measure(lambda _: fn(threads), [None], args.repeat)
            rows.append(("batch", f"htmltok {name}(corpus, threads={threads}) (links + text, {form})", total / seconds / 1e6, len(pages) / seconds))
            print(f"  batch   {name} threads={threads} {form}: {rows[-1][2]:8.1f} MB/s", file=sys.stderr)
    print("| task | method | MB/s | docs/s |")
    print("|---|---|---:|---:|")
    for task, name, mbs, docs in rows:
        print(f"| {task} | {name} | {mbs:.1f} | {docs:.0f} |")


if __name__ == "__main__":
    main()
