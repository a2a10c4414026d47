#!/usr/bin/env python3
"""Main-text extraction: quality against ground truth, and speed.

Scores each extractor on pages whose main text someone else wrote down, with word-token
precision, recall and F1 per page and overall, and its throughput (MB of HTML a second,
one thread); with `--speed DIR`, also its throughput over every page of a directory (the
shared corpus). See README.md beside this file for the data sets, the tokenization and
how the quality gate runs in CI.

    python3 content/eval/evaluate.py --data DIR [--sample N] [--extractors a,b]
        [--per-page FILE.tsv] [--check baseline.json] [--speed CORPUS_DIR]
        [--speed-input str|bytes] [--speed-repeat N]
    python3 content/eval/evaluate.py --datasets multitype [--multitype DIR] [--deciles] ...

DIR holds the data sets, each in the layout its repository has:
  readability/test/test-pages/<name>/{source.html,expected.html}  (mozilla/readability)
  article-extraction-benchmark/{ground-truth.json,html/<id>.html.gz}
                                                  (scrapinghub/article-extraction-benchmark)
  multitype-dev/{html/NNNN.html.gz,ground-truth/NNNN.json}   (WCXB's development split:
                                                  seven kinds of pages, issue #49)
Without --data: $HTMLTOK_EVAL_DATA, else ../shared/eval beside the repository.
"""

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tokens import tokens  # noqa: E402

# ---------------------------------------------------------------------------------------
# Ground truth


class _Text(HTMLParser):
    """The text of an HTML fragment, with a space at each block boundary and `<br>` so
    that the words of two paragraphs do not run together (inline elements join)."""

    BLOCKS = frozenset(
        "address article aside blockquote br dd details dialog div dl dt fieldset "
        "figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre "
        "section summary table tbody td tfoot th thead tr ul".split()
    )
    SKIP = frozenset(["script", "style", "template"])

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        elif tag in self.BLOCKS:
            self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skipping = max(0, self.skipping - 1)
        elif tag in self.BLOCKS:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def html_text(fragment):
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts)


def load_readability(root, sample):
    """mozilla/readability's test pages: source.html, and expected.html (Readability's
    reviewed output, the article as HTML) as the truth."""
    pages = []
    base = root / "test" / "test-pages"
    for page in sorted(p for p in base.iterdir() if (p / "expected.html").is_file()):
        html = (page / "source.html").read_bytes()
        truth = html_text((page / "expected.html").read_text("utf-8"))
        pages.append((page.name, html, truth))
    return pages[:sample] if sample else pages


def load_scrapinghub(root, sample):
    """scrapinghub/article-extraction-benchmark: html/<id>.html.gz, and the
    `articleBody` of ground-truth.json (annotated by people) as the truth."""
    truth = json.loads((root / "ground-truth.json").read_text("utf-8"))
    pages = []
    for key in sorted(truth):
        html = gzip.decompress((root / "html" / f"{key}.html.gz").read_bytes())
        pages.append((key[:16], html, truth[key].get("articleBody") or ""))
    return pages[:sample] if sample else pages


class Page(NamedTuple):
    """A page of the multitype set: its HTML and what people wrote down of it."""

    name: str
    path: Path  # html/NNNN.html.gz
    html: bytes  # decompressed
    kind: str  # _internal.page_type.primary
    truth: str  # ground_truth.main_content
    with_: list  # snippets a correct extraction contains
    without: list  # snippets of boilerplate it must not contain
    title: object
    author: object
    date: object


def load_multitype(root, sample, one_in=1):
    """WCXB's development split (multitype-dev/README.md): html/NNNN.html.gz and
    ground-truth/NNNN.json. With one_in N, only the pages whose number is a multiple of N
    (a fixed share of every kind, chosen by file name)."""
    pages = []
    for truth_path in sorted((root / "ground-truth").glob("*.json")):
        name = truth_path.stem
        if one_in > 1 and int(name) % one_in:
            continue
        record = json.loads(truth_path.read_text("utf-8"))
        truth = record.get("ground_truth") or {}
        path = root / "html" / f"{name}.html.gz"
        pages.append(
            Page(
                name=name,
                path=path,
                html=gzip.decompress(path.read_bytes()),
                kind=record["_internal"]["page_type"]["primary"],
                truth=truth.get("main_content") or "",
                with_=truth.get("with") or [],
                without=truth.get("without") or [],
                title=truth.get("title"),
                author=truth.get("author"),
                date=truth.get("publish_date"),
            )
        )
    return pages[:sample] if sample else pages


def load_multitype_third(root, sample):
    """The CI-sized share of the multitype set: every page whose number is a multiple of 3."""
    return load_multitype(root, sample, one_in=3)


DATASETS = {
    "readability": ("readability", load_readability),
    "scrapinghub": ("article-extraction-benchmark", load_scrapinghub),
    "multitype": ("multitype-dev", load_multitype),
    "multitype-third": ("multitype-dev", load_multitype_third),
}
# The sets of many kinds of pages (issue #49): scored by their authors' measure, per kind.
MULTITYPE_SETS = frozenset(["multitype", "multitype-third"])

# ---------------------------------------------------------------------------------------
# Extractors: each takes the page as str (decoded once, outside the timing) and gives
# its main text as str; with a third element, the same from the page's bytes, through
# the library's own entry for bytes (`--speed-input bytes`: what a crawl pipeline hands
# over). Each library is imported only when asked for.


def trafilatura_extractor():
    import trafilatura

    # Defaults (comments and tables included), as `trafilatura.extract` is called.
    run = lambda html: trafilatura.extract(html) or ""  # noqa: E731 (str or bytes alike)
    return f"trafilatura {trafilatura.__version__} extract", run, run


def resiliparse_extractor():
    from importlib.metadata import version

    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    return (
        f"Resiliparse {version('resiliparse')} main_content",
        lambda html: extract_plain_text(html, main_content=True),
        lambda data: extract_plain_text(HTMLTree.parse_from_bytes(data), main_content=True),
    )


def turbohtml_article_extractor():
    from importlib.metadata import version

    import turbohtml

    def run(html):
        article = turbohtml.parse(html).article()
        return article.text if article is not None else ""

    return f"turbohtml {version('turbohtml')} article()", run


def turbohtml_main_text_extractor():
    from importlib.metadata import version

    import turbohtml

    run = lambda html: turbohtml.parse(html).main_text() or ""  # noqa: E731 (str or bytes alike)
    return f"turbohtml {version('turbohtml')} main_text()", run, run


def justext_extractor():
    from importlib.metadata import version

    import justext

    # Language-independent: the union of every language's stop list (jusText's
    # classifier counts stop words; one language's list would favour that language).
    stoplist = frozenset().union(*(justext.get_stoplist(lang) for lang in justext.get_stoplists()))

    def run(html):
        paragraphs = justext.justext(html, stoplist)
        return "\n\n".join(p.text for p in paragraphs if not p.is_boilerplate)

    # justext.justext takes bytes as well (it decodes them itself).
    return f"jusText {version('justext')}", run, run


def htmltok_extractor():
    # The Python package's main text (htmltok-content's main_text, the GIL released):
    # `htmltok.parse(html).main_text()`, as issue #27 puts it. The page is handed over as
    # the str the other extractors get. Install the package into this interpreter with
    # `maturin develop --release -m bindings/python/Cargo.toml` (scripts/check-eval.sh
    # does).
    from importlib.metadata import version

    import htmltok

    if not hasattr(getattr(htmltok, "Tree", None), "main_text"):
        raise ImportError("this htmltok has no Tree.main_text() (issue #27): no htmltok column")
    run = lambda html: htmltok.parse(html).main_text()  # noqa: E731 (str or bytes alike)
    return f"htmltok {version('htmltok')} parse().main_text()", run, run


EXTRACTORS = {
    "htmltok": htmltok_extractor,
    "trafilatura": trafilatura_extractor,
    "resiliparse": resiliparse_extractor,
    "turbohtml-article": turbohtml_article_extractor,
    "turbohtml-main-text": turbohtml_main_text_extractor,
    "justext": justext_extractor,
}


# ---------------------------------------------------------------------------------------
# Extractors of the multitype set: each is handed the page's bytes (what a crawl pipeline
# has; every library's own entry for bytes, the same for all), and gives a dict: `text`,
# and where it reads them `title`, `author`, `date` and `confidence` (its own estimate of
# the page's quality); run(pages) -> one dict a page, each
# with `seconds` (the extractor's call alone) and `error` (None, or why the page gave
# nothing: it then scores as empty). A factory gives (name, run, fields): `fields` are
# the metadata fields it reads (scored as exact matches; the others shown as -).


def in_process(call):
    """run(pages) for a library called in this interpreter: call(bytes) -> dict, timed."""

    def run(pages):
        results = []
        for page in pages:
            data = page.html
            started = time.perf_counter()
            try:
                out, error = call(data), None
            except Exception as err:  # an extractor failing on a page scores that page as empty
                out, error = {}, f"{type(err).__name__}: {err}"
            seconds = time.perf_counter() - started
            results.append(page_result(out, seconds, error))
        return results

    return run


def page_result(out, seconds, error=None):
    """An extractor's dict for one page, with every key present (text a str)."""
    return {
        "text": out.get("text") or "",
        "title": out.get("title"),
        "author": out.get("author"),
        "date": out.get("date"),
        "confidence": out.get("confidence"),
        "seconds": seconds,
        "error": error,
    }


def htmltok_page():
    # article(): main_text() with the title, byline and date read beside it, in one call.
    from importlib.metadata import version

    import htmltok

    if not hasattr(getattr(htmltok, "Tree", None), "article"):
        raise ImportError("this htmltok has no Tree.article() (issue #27): no htmltok column")

    def call(data):
        article = htmltok.parse(data).article()
        return {
            "text": article["text"],
            "title": article.get("title"),
            "author": article.get("byline"),
            "date": article.get("date"),
            "confidence": article.get("confidence"),
        }

    return f"htmltok {version('htmltok')} article()", in_process(call), META_FIELDS


def markdown_text(md):
    """The text a reader of Markdown gets: the document read back as
    `markdown_fidelity.py` reads it (CommonMark + GFM tables and strikethrough, by
    markdown-it-py) and its text written back, blocks apart by a blank line, without the
    syntax (markers, URLs, image alt text)."""
    from markdown_fidelity import inline_text, parse_markdown

    blocks = []
    for token in parse_markdown(md):
        if token.type in ("fence", "code_block"):
            blocks.append(token.content.rstrip("\n"))
        elif token.type == "inline":
            blocks.append(inline_text(token))
    return "\n\n".join(b for b in blocks if b)


def htmltok_markdown_page():
    # The main content as Markdown (`main_text(format="markdown")`), scored on the text a
    # Markdown reader gets back from it (markdown_text): issue #50 wants it within 0.005 of
    # main_text()'s F1.
    from importlib.metadata import version

    import htmltok

    markdown_text("")  # markdown-it-py missing: ImportError, the column is left out

    def call(data):
        return {"text": htmltok.parse(data).main_text(format="markdown")}

    return f"htmltok {version('htmltok')} main_text(format=markdown)", read_back(in_process(call)), ()


def trafilatura_markdown_page():
    # trafilatura's Markdown output (`output_format="markdown"`, its defaults otherwise:
    # tables and comments in), scored like htmltok's.
    from importlib.metadata import version

    import trafilatura

    markdown_text("")

    def call(data):
        return {"text": trafilatura.extract(data, output_format="markdown", include_formatting=True)}

    return f"trafilatura {version('trafilatura')} markdown", read_back(in_process(call)), ()


def read_back(run):
    """run(pages) whose Markdown texts are scored as the text a reader gets back from
    them (markdown_text), read back after the extractor's time is taken."""

    def scored(pages):
        results = run(pages)
        for result in results:
            result["text"] = markdown_text(result["text"])
        return results

    return scored


def trafilatura_page():
    import trafilatura

    # bare_extraction with metadata; its text and comments joined as extract() joins them
    # with its defaults (comments and tables included).
    def call(data):
        document = trafilatura.bare_extraction(data, with_metadata=True)
        if document is None:
            return {}
        text = document.text or ""
        if document.comments:
            text = f"{text}\n{document.comments}".strip()
        return {"text": text, "title": document.title, "author": document.author, "date": document.date}

    return f"trafilatura {trafilatura.__version__} bare_extraction", in_process(call), META_FIELDS


def resiliparse_page():
    name, _, from_bytes = resiliparse_extractor()
    return name, in_process(lambda data: {"text": from_bytes(data)}), ()


def turbohtml_article_page():
    from importlib.metadata import version

    import turbohtml

    def call(data):
        article = turbohtml.parse(data).article()
        if article is None:
            return {}
        return {"text": article.text, "title": article.title, "author": article.byline, "date": article.date}

    return f"turbohtml {version('turbohtml')} article()", in_process(call), META_FIELDS


def turbohtml_main_text_page():
    name, _, from_bytes = turbohtml_main_text_extractor()
    return name, in_process(lambda data: {"text": from_bytes(data)}), ()


def justext_page():
    name, _, from_bytes = justext_extractor()
    return name, in_process(lambda data: {"text": from_bytes(data)}), ()


RS_TRAFILATURA = Path(__file__).resolve().parent.parent / "tools" / "rs-trafilatura-bench"


def rs_trafilatura_binary():
    """The peer's binary: $HTMLTOK_RS_TRAFILATURA_BIN, else built here and now (cargo build
    --release --locked in content/tools/rs-trafilatura-bench, incremental). ImportError
    when it cannot be had: the column is then left out, never replaced."""
    given = os.environ.get("HTMLTOK_RS_TRAFILATURA_BIN")
    if given:
        if not os.access(given, os.X_OK):
            raise ImportError(f"HTMLTOK_RS_TRAFILATURA_BIN={given} is not an executable")
        return given
    manifest = RS_TRAFILATURA / "Cargo.toml"
    command = ["cargo", "build", "--release", "--locked", "--message-format=json-render-diagnostics"]
    print(f"rs-trafilatura: {' '.join(command[:4])} in {RS_TRAFILATURA}", file=sys.stderr)
    try:
        built = subprocess.run(
            [*command, "--manifest-path", str(manifest)], stdout=subprocess.PIPE, text=True, check=False
        )
    except OSError as err:
        raise ImportError(f"cannot run cargo to build {RS_TRAFILATURA}: {err}") from err
    if built.returncode:
        raise ImportError(f"cargo build of {RS_TRAFILATURA} failed (exit {built.returncode}; its errors above)")
    for line in built.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            if message["target"]["name"] == "rs-trafilatura-bench":
                return message["executable"]
    raise ImportError(f"cargo build of {RS_TRAFILATURA} named no rs-trafilatura-bench binary")


def locked_version(lock, package):
    """The version of `package` in a Cargo.lock, or '?'."""
    found = re.search(rf'name = "{re.escape(package)}"\nversion = "([^"]+)"', lock)
    return found.group(1) if found else "?"


def rs_trafilatura_page():
    """rs-trafilatura (crates.io) through its peer binary, which reads each page's file and
    times `extract_bytes` alone (content/tools/rs-trafilatura-bench/src/main.rs)."""
    binary = rs_trafilatura_binary()
    lock = (RS_TRAFILATURA / "Cargo.lock").read_text("utf-8")
    name = f"rs-trafilatura {locked_version(lock, 'rs-trafilatura')} extract_bytes"

    def run(pages):
        results = []
        while len(results) < len(pages):
            rest = pages[len(results) :]
            done = subprocess.run(
                [binary, "--list", "-"],
                input="".join(f"{page.path}\n" for page in rest).encode(),
                stdout=subprocess.PIPE,
                check=False,
            )
            # One JSON object a line; split on \n only (a text may hold U+2028, which JSON
            # leaves unescaped and str.splitlines would split on).
            lines = [line for line in done.stdout.decode("utf-8").split("\n") if line]
            for page, line in zip(rest, lines):
                record = json.loads(line)
                if record["path"] != str(page.path):
                    raise RuntimeError(f"rs-trafilatura-bench answered {record['path']} for {page.path}")
                results.append(page_result(record, record["seconds"], record.get("error")))
            if len(lines) < len(rest):
                # The binary died on the next page (an abort the library's panic handler
                # did not catch): that page scores as empty, and the rest run anew.
                failed = rest[len(lines)]
                print(f"rs-trafilatura: died on {failed.path} (exit {done.returncode})", file=sys.stderr)
                results.append(page_result({}, 0.0, f"the binary died (exit {done.returncode})"))
        return results

    return name, run, META_FIELDS


PAGE_EXTRACTORS = {
    "htmltok": htmltok_page,
    "htmltok-markdown": htmltok_markdown_page,
    "trafilatura-markdown": trafilatura_markdown_page,
    "rs-trafilatura": rs_trafilatura_page,
    "trafilatura": trafilatura_page,
    "resiliparse": resiliparse_page,
    "turbohtml-article": turbohtml_article_page,
    "turbohtml-main-text": turbohtml_main_text_page,
    "justext": justext_page,
}

# ---------------------------------------------------------------------------------------
# Scoring


def page_scores(truth, predicted, n):
    """(precision, recall, F1) of the multiset of word n-grams of `predicted` against
    that of `truth`. Empty against empty is a perfect score; anything against empty is 0."""
    return multiset_scores(grams(truth, n), grams(predicted, n))


def multiset_scores(t, p):
    """(precision, recall, F1) of the multiset `p` (Counter) against the multiset `t`."""
    common = sum((t & p).values())
    t_total, p_total = sum(t.values()), sum(p.values())
    precision = common / p_total if p_total else float(t_total == 0)
    recall = common / t_total if t_total else float(p_total == 0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def grams(text, n):
    words = tokens(text)
    if n == 1:
        return Counter(words)
    return Counter(tuple(words[i : i + n]) for i in range(max(1, len(words) - n + 1)) if words)


def overall(scores):
    """Mean precision and mean recall over the pages, and their harmonic mean (the
    article-extraction-benchmark's aggregate), beside the mean of the pages' F1."""
    n = len(scores)
    precision = sum(s[0] for s in scores) / n
    recall = sum(s[1] for s in scores) / n
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "mean_page_f1": sum(s[2] for s in scores) / n}


# The multitype set's measures, as its README defines them (its authors' score).

KINDS = ("article", "forum", "product", "collection", "listing", "documentation", "service")
META_FIELDS = ("title", "author", "date")


def words(text):
    """The words of the multitype set's score: `re.findall(r'\\w+', text.lower())`."""
    return re.findall(r"\w+", text.lower())


def word_scores(truth, predicted):
    """(precision, recall, F1) of the multiset of words of `predicted` against that of
    `truth` (empty against empty 1, an empty output 0)."""
    return multiset_scores(Counter(words(truth)), Counter(words(predicted)))


def snippet_rate(snippets, output):
    """The share of `snippets` found in `output` (case-folded substrings), or None for a
    page without snippets (left out of the mean)."""
    if not snippets:
        return None
    folded = output.casefold()
    return sum(snippet.casefold() in folded for snippet in snippets) / len(snippets)


def normalized(value):
    """A metadata value compared: trimmed, case-folded, runs of whitespace made one space."""
    return " ".join(str(value).split()).casefold() if value is not None else ""


def meta_match(field, truth, got):
    """Whether `got` is the `truth` of a metadata field (True/False), or None when the truth
    has no value (the page is left out of that field's rate). Dates compare on the truth's
    YYYY-MM-DD prefix (YYYY-MM where that is all it gives)."""
    want = normalized(truth)
    if not want:
        return None
    have = normalized(got)
    if field == "date":
        want = want[:10]
        return have[: len(want)] == want
    return have == want


def score_page(page, result):
    """One page's row: its kind, P/R/F1, snippet rates, metadata matches, confidence, time.
    Metadata matches are None for an extractor that does not read that field."""
    precision, recall, f1 = word_scores(page.truth, result["text"])
    row = {
        "kind": page.kind,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "with": snippet_rate(page.with_, result["text"]),
        "without": snippet_rate(page.without, result["text"]),
        "confidence": result.get("confidence"),
        "seconds": result["seconds"],
        "error": result.get("error"),
    }
    for field in META_FIELDS:
        row[field] = meta_match(field, getattr(page, field), result.get(field))
    return row


def mean(values):
    """The mean of the values that are not None, or None when there are none."""
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def multitype_summary(rows, gives_metadata=()):
    """The means over the pages (each page weighs the same): precision, recall and F1
    (`f1`, all pages), F1 per kind, the `with` and `without` rates over the pages that have
    snippets, and the exact-match rate of each metadata field in `gives_metadata` over the
    pages whose truth has it."""
    summary = {
        "pages": len(rows),
        "precision": mean(r["precision"] for r in rows),
        "recall": mean(r["recall"] for r in rows),
        "f1": mean(r["f1"] for r in rows),
        "with": mean(r["with"] for r in rows),
        "without": mean(r["without"] for r in rows),
        "errors": sum(r["error"] is not None for r in rows),
    }
    for kind in KINDS:
        summary[kind] = mean(r["f1"] for r in rows if r["kind"] == kind)
    for field in META_FIELDS:
        summary[field] = mean(r[field] for r in rows) if field in gives_metadata else None
    return summary


def deciles(pairs, n=10):
    """Mean F1 by decile of confidence: `pairs` are (confidence, F1) in the pages' order,
    pages without a confidence (None) left out; sorted by confidence alone (pages of equal
    confidence stay in their order, never by F1) and cut into n parts of (nearly) equal
    size, lowest first. Gives [(lowest confidence, highest, pages, mean F1)]."""
    ranked = sorted(((c, f) for c, f in pairs if c is not None), key=lambda pair: pair[0])
    parts = []
    for i in range(n):
        part = ranked[i * len(ranked) // n : (i + 1) * len(ranked) // n]
        if part:
            parts.append((part[0][0], part[-1][0], len(part), sum(f for _, f in part) / len(part)))
    return parts


def confidence_levels(pairs):
    """Mean F1 at each value of confidence (for a confidence of few values, where deciles
    would cut pages of one value apart): [(confidence, pages, mean F1)], lowest first."""
    by_value = {}
    for confidence, f1 in pairs:
        if confidence is not None:
            # 0.95 and 0.9500000000000001 (a sum of steps) are one value.
            by_value.setdefault(round(confidence, 9), []).append(f1)
    return [(c, len(f), sum(f) / len(f)) for c, f in sorted(by_value.items())]


def decode(html):
    return html.decode("utf-8", errors="replace")


def run_extractor(run, pages):
    """The extractor's output for each page, its errors, and the seconds it took."""
    outputs, errors, seconds = [], 0, 0.0
    for _, html, _ in pages:
        text = decode(html)
        started = time.perf_counter()
        try:
            out = run(text)
        except Exception:  # an extractor failing on a page scores that page as empty
            out, errors = "", errors + 1
        seconds += time.perf_counter() - started
        outputs.append(out or "")
    return outputs, errors, seconds


# ---------------------------------------------------------------------------------------
# Speed over a corpus


def corpus_pages(root):
    """Every page of the shared corpus: its size, its str (decoded by its MANIFEST's
    encoding) and its bytes."""
    manifest = root / "MANIFEST.tsv"
    encodings = {}
    if manifest.is_file():
        lines = manifest.read_text("utf-8").splitlines()
        header = lines[0].split("\t")
        for line in lines[1:]:
            row = dict(zip(header, line.split("\t")))
            encodings[row["path"]] = row.get("actual_encoding", "utf-8")
    pages = []
    for path in sorted(root.rglob("*.htm*")):
        rel = str(path.relative_to(root))
        data = path.read_bytes()
        encoding = encodings.get(rel, "utf-8")
        try:
            text = data.decode(encoding if encoding not in ("-", "ascii") else "utf-8", errors="replace")
        except LookupError:
            text = data.decode("utf-8", errors="replace")
        pages.append((len(data), text, data))
    return pages


def speed_pass(run, pages, from_bytes=False):
    """Seconds and errors of one pass over the pages."""
    started = time.perf_counter()
    errors = 0
    for _, text, data in pages:
        try:
            run(data if from_bytes else text)
        except Exception:
            errors += 1
    return time.perf_counter() - started, errors


def speed_rounds(runs, pages, from_bytes=False, repeat=1):
    """Each round makes one pass per extractor, in turn (the order rotated from round to
    round), so that a shared machine's load falls on all of them alike rather than on
    whichever ran its passes while it was busy. Gives, per extractor, the seconds of each
    round and its errors."""
    seconds = [[] for _ in runs]
    errors = [0] * len(runs)
    for round_ in range(repeat):
        for k in range(len(runs)):
            i = (k + round_) % len(runs)
            took, failed = speed_pass(runs[i], pages, from_bytes)
            seconds[i].append(took)
            errors[i] = failed
    return seconds, errors


# ---------------------------------------------------------------------------------------


def gate(floors, results, asked):
    """The quality gate: (failures, sets not checked). A floor fails when its extractor's F1
    on its set is under it, or when the set was asked for (`--datasets`) and not scored
    (its data missing); the floors of sets not asked for are not checked, and named."""
    failed, unchecked = [], []
    for dataset, by_extractor in floors.items():
        if dataset not in asked:
            unchecked.append(dataset)
            continue
        for key, floor in by_extractor.items():
            got = results.get(dataset, {}).get(key)
            if got is None:
                failed.append(f"{dataset}/{key}: not scored (floor {floor['f1']:.3f})")
                continue
            # `f1` is the set's F1; on the multitype sets the other floors are per kind.
            for measure, value in floor.items():
                name = f"{dataset}/{key}" if measure == "f1" else f"{dataset}/{key}/{measure}"
                if got.get(measure) is None:
                    failed.append(f"{name}: not scored (floor {value:.3f})")
                elif got[measure] < value:
                    failed.append(f"{name}: F1 {got[measure]:.4f} under its floor {value:.4f}")
    return failed, unchecked


PER_PAGE_COLUMNS = (
    "dataset page extractor precision recall f1 kind with without title author date confidence seconds".split()
)


def tsv_value(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) >= 1e-3 or value == 0 else f"{value:.3g}"
    return str(value)


def write_per_page(path, rows):
    """Each page's scores, one row a page and extractor (the multitype sets' columns left
    empty on the other sets; metadata matches 1/0, empty where not scored)."""
    with path.open("w") as out:
        out.write("\t".join(PER_PAGE_COLUMNS) + "\n")
        for row in rows:
            row = tuple(row) + (None,) * (len(PER_PAGE_COLUMNS) - len(row))
            out.write("\t".join(tsv_value(v) for v in row) + "\n")


REPO = Path(__file__).resolve().parent.parent.parent


def data_root(args):
    """--data, else $HTMLTOK_EVAL_DATA, else ../shared/eval beside the repository."""
    if args.data:
        return args.data
    if os.environ.get("HTMLTOK_EVAL_DATA"):
        return Path(os.environ["HTMLTOK_EVAL_DATA"])
    return REPO.parent / "shared" / "eval"


def load_extractors(keys, registry, wanted_for):
    """The factories' results for the keys in `registry`, each as (key, *result); a library
    that cannot be had is left out, loudly, and named in `left_out`."""
    loaded, left_out = [], []
    for key in keys:
        if key not in registry:
            continue
        try:
            loaded.append((key, *registry[key]()))
        except ImportError as err:
            print(f"\n*** {key}: LEFT OUT of {wanted_for} (no column): {err}\n", file=sys.stderr)
            left_out.append((key, str(err)))
    return loaded, left_out


def cell(value, width, digits=3):
    return f"{value:{width}.{digits}f}" if value is not None else f"{'-':>{width}}"


def run_multitype(dataset, root, extractors, left_out, args, per_page):
    """Scores each extractor on a multitype set and prints one table: mean word F1 over
    all pages and per kind, the `with` and `without` rates and MB/s; then precision,
    recall and the metadata's exact-match rates. Gives {extractor: summary}."""
    _, load = DATASETS[dataset]
    pages = load(root, args.sample)
    size = sum(len(page.html) for page in pages)
    counts = Counter(page.kind for page in pages)
    scored = []
    for key, name, run, fields in extractors:
        print(f"{dataset}: {name} on {len(pages)} pages", file=sys.stderr, flush=True)
        results = run(pages)
        rows = [score_page(page, result) for page, result in zip(pages, results)]
        summary = multitype_summary(rows, fields)
        seconds = sum(r["seconds"] for r in rows)
        summary["mb_per_s"] = size / seconds / 1e6 if seconds else None
        scored.append((key, name, rows, summary))
        per_page += [
            (dataset, page.name, key, r["precision"], r["recall"], r["f1"], page.kind, r["with"], r["without"])
            + tuple(r[f] for f in META_FIELDS)
            + (r["confidence"], r["seconds"])
            for page, r in zip(pages, rows)
        ]

    print(
        f"\n{dataset}: {len(pages)} pages of {root}, {size / 1e6:.1f} MB"
        f" ({', '.join(f'{kind} {counts[kind]}' for kind in KINDS)});"
        " word F1 (re \\w+ words), the mean over pages; each extractor handed the page's bytes, one thread"
    )
    columns = ("all", *KINDS, "with", "without", "MB/s")
    widths = [max(6, len(c)) for c in columns]
    print(f"  {'extractor':<40}" + "".join(f" {c:>{w}}" for c, w in zip(columns, widths)))
    for _, name, _, o in scored:
        values = [o["f1"], *(o[kind] for kind in KINDS), o["with"], o["without"]]
        print(
            f"  {name:<40}"
            + "".join(f" {cell(v, w)}" for v, w in zip(values, widths))
            + f" {cell(o['mb_per_s'], widths[-1], 2)}"
        )
    print(f"  {'':<40} {'prec':>6} {'recall':>6} {'title':>6} {'author':>6} {'date':>6} {'errors':>6}")
    for _, name, _, o in scored:
        values = [o["precision"], o["recall"], *(o[f] for f in META_FIELDS)]
        print(f"  {name:<40}" + "".join(f" {cell(v, 6)}" for v in values) + f" {o['errors']:6d}")
    for key, reason in left_out:
        print(f"  {key}: LEFT OUT (no column): {reason}")

    if args.deciles:
        silent = [name for _, name, rows, _ in scored if all(r["confidence"] is None for r in rows)]
        if silent:
            print(f"\n{dataset}: no confidence, no deciles: {', '.join(silent)}")
        for _, name, rows, _ in scored:
            parts = deciles([(r["confidence"], r["f1"]) for r in rows])
            if not parts:
                continue
            print(f"\n{dataset}: {name}, mean F1 by decile of its confidence (lowest first)")
            print(f"  {'decile':>6} {'confidence':>17} {'pages':>6} {'F1':>6}")
            for i, (low, high, n, f1) in enumerate(parts, 1):
                print(f"  {i:6d} {low:8.3f}-{high:<8.3f} {n:6d} {f1:6.3f}")
            tied = [i for i, (low, high, _, _) in enumerate(parts, 1) if round(low, 9) == round(high, 9)]
            if len(tied) > 1:
                print(f"  (deciles {tied[0]}-{tied[-1]} hold one confidence each: pages of equal confidence are cut in page order)")
            levels = confidence_levels([(r["confidence"], r["f1"]) for r in rows])
            if len(levels) <= 20:
                print(f"  by value: {len(levels)} values of confidence")
                print(f"  {'confidence':>17} {'pages':>6} {'F1':>6}")
                for value, n, f1 in levels:
                    print(f"  {value:17.3f} {n:6d} {f1:6.3f}")
    return {key: summary for key, _, _, summary in scored}


def main():
    args = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    args.add_argument("--data", type=Path, help="the directory holding the data sets (default: $HTMLTOK_EVAL_DATA, else ../shared/eval)")
    args.add_argument("--multitype", type=Path, help="the multitype set's directory (default: multitype-dev in the data directory)")
    args.add_argument(
        "--datasets",
        help="comma-separated: " + ", ".join(DATASETS) + " (default: readability and scrapinghub with --data,"
        " multitype with --multitype)",
    )
    known = sorted(set(EXTRACTORS) | set(PAGE_EXTRACTORS))
    args.add_argument("--extractors", default=",".join(EXTRACTORS), help="comma-separated: " + ", ".join(known))
    args.add_argument("--sample", type=int, default=0, help="only the first N pages of each data set (by name)")
    args.add_argument("--ngram", type=int, default=1, help="score n-grams of words (1: word tokens; 4: shingles); not the multitype sets")
    args.add_argument("--per-page", type=Path, help="write each page's scores to this TSV file")
    args.add_argument("--check", type=Path, help="fail when an F1 is under its floor in this JSON file")
    args.add_argument("--deciles", action="store_true", help="multitype: mean F1 by decile of each extractor's confidence, where it gives one")
    args.add_argument("--speed", type=Path, help="also time each extractor over every page of this directory")
    args.add_argument(
        "--speed-input",
        choices=("str", "bytes"),
        default="str",
        help="--speed hands each extractor the page as str (default) or as bytes (the library's entry for bytes)",
    )
    args.add_argument("--speed-repeat", type=int, default=1, help="--speed: N rounds of one pass per extractor, in turn; the best pass of each")
    args = args.parse_args()

    if args.datasets:
        datasets = args.datasets.split(",")
    else:
        datasets = (["readability", "scrapinghub"] if args.data else []) + (["multitype"] if args.multitype else [])
        if not datasets and not args.speed:
            sys.exit("nothing to do: give --data, --multitype, --datasets or --speed")
    for dataset in datasets:
        if dataset not in DATASETS:
            sys.exit(f"unknown data set {dataset!r}; known: {', '.join(DATASETS)}")
    keys = args.extractors.split(",")
    for key in keys:
        if key not in EXTRACTORS and key not in PAGE_EXTRACTORS:
            sys.exit(f"unknown extractor {key!r}; known: {', '.join(known)}")
    plain_sets = [d for d in datasets if d not in MULTITYPE_SETS]
    multitype_sets = [d for d in datasets if d in MULTITYPE_SETS]

    extractors, page_extractors = [], []
    if plain_sets or args.speed:
        loaded, _ = load_extractors(keys, EXTRACTORS, "the readability and scrapinghub sets and --speed")
        extractors = [(key, name, run, from_bytes[0] if from_bytes else None) for key, name, run, *from_bytes in loaded]
        for key in keys:
            if key not in EXTRACTORS:
                print(f"{key}: the multitype sets only", file=sys.stderr)
    page_left_out = []
    if multitype_sets:
        page_extractors, page_left_out = load_extractors(keys, PAGE_EXTRACTORS, "the multitype sets")
    if not extractors and not page_extractors:
        sys.exit("no extractor could be imported")

    results = {}
    per_page = []
    for dataset in datasets:
        folder, load = DATASETS[dataset]
        root = args.multitype if dataset in MULTITYPE_SETS and args.multitype else data_root(args) / folder
        if not root.is_dir():
            print(f"{dataset}: NOT RUN: no {root}", file=sys.stderr)
            continue
        if dataset in MULTITYPE_SETS:
            results[dataset] = run_multitype(dataset, root, page_extractors, page_left_out, args, per_page)
            continue
        pages = load(root, args.sample)
        size = sum(len(html) for _, html, _ in pages)
        print(f"\n{dataset}: {len(pages)} pages, {size / 1e6:.1f} MB; word {args.ngram}-grams")
        print(f"  {'extractor':<40} {'F1':>6} {'prec':>6} {'recall':>6} {'pageF1':>6} {'MB/s':>7} {'errors':>6}")
        for key, name, run, _ in extractors:
            outputs, errors, seconds = run_extractor(run, pages)
            scores = [page_scores(truth, out, args.ngram) for (_, _, truth), out in zip(pages, outputs)]
            o = overall(scores)
            o["mb_per_s"] = size / seconds / 1e6 if seconds else 0.0
            results.setdefault(dataset, {})[key] = o
            print(
                f"  {name:<40} {o['f1']:6.3f} {o['precision']:6.3f} {o['recall']:6.3f}"
                f" {o['mean_page_f1']:6.3f} {o['mb_per_s']:7.2f} {errors:6d}"
            )
            per_page += [(dataset, page, key, *s) for (page, _, _), s in zip(pages, scores)]

    if args.per_page:
        write_per_page(args.per_page, per_page)

    if args.speed:
        pages = corpus_pages(args.speed)
        size = sum(s for s, _, _ in pages)
        given = args.speed_input
        print(
            f"\nspeed: {len(pages)} pages of {args.speed}, {size / 1e6:.1f} MB, one thread, each page as {given},"
            f" {args.speed_repeat} rounds of a pass each, in turn; the best pass"
        )
        print(f"  {'extractor':<40} {'MB/s':>7} {'seconds':>8} {'errors':>6}")
        timed = []
        for key, name, run, run_bytes in extractors:
            if given == "bytes" and run_bytes is None:
                print(f"  {name:<40} left out: no entry for bytes")
                continue
            timed.append((key, name, run_bytes if given == "bytes" else run))
        rounds, errors = speed_rounds([run for _, _, run in timed], pages, given == "bytes", args.speed_repeat)
        for (_, name, _), took, failed in zip(timed, rounds, errors):
            print(f"  {name:<40} {size / min(took) / 1e6:7.2f} {min(took):8.2f} {failed:6d}")
        # htmltok against each other extractor: the ratio of the best passes, and the
        # median of the ratios within a round (passes that ran close together in time).
        ours = next((took for (key, _, _), took in zip(timed, rounds) if key == "htmltok"), None)
        for (key, name, _), took in zip(timed, rounds):
            if ours is None or key == "htmltok":
                continue
            per_round = sorted(t / o for t, o in zip(took, ours))
            print(
                f"  htmltok / {name}: {min(took) / min(ours):.2f}x (best passes),"
                f" {per_round[len(per_round) // 2]:.2f}x (median of {len(per_round)} rounds,"
                f" {per_round[0]:.2f}-{per_round[-1]:.2f})"
            )

    if args.check:
        floors = json.loads(args.check.read_text("utf-8"))
        failed, unchecked = gate(floors, results, args.datasets.split(","))
        for dataset in unchecked:
            print(f"quality gate: {dataset} not asked for (--datasets): its floors not checked")
        if failed:
            print("\nquality gate FAILED:\n  " + "\n  ".join(failed), file=sys.stderr)
            sys.exit(1)
        print(f"\nquality gate: every F1 at or above its floor in {args.check}")


if __name__ == "__main__":
    main()
