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

DIR holds one or both data sets, each in the layout its repository has:
  readability/test/test-pages/<name>/{source.html,expected.html}  (mozilla/readability)
  article-extraction-benchmark/{ground-truth.json,html/<id>.html.gz}
                                                  (scrapinghub/article-extraction-benchmark)
"""

import argparse
import gzip
import json
import os
import sys
import time
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

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


DATASETS = {
    "readability": ("readability", load_readability),
    "scrapinghub": ("article-extraction-benchmark", load_scrapinghub),
}

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
# Scoring


def page_scores(truth, predicted, n):
    """(precision, recall, F1) of the multiset of word n-grams of `predicted` against
    that of `truth`. Empty against empty is a perfect score; anything against empty is 0."""
    t, p = grams(truth, n), grams(predicted, n)
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
            elif got["f1"] < floor["f1"]:
                failed.append(f"{dataset}/{key}: F1 {got['f1']:.4f} under its floor {floor['f1']:.4f}")
    return failed, unchecked


def main():
    args = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    args.add_argument("--data", type=Path, help="the directory holding the data sets")
    args.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated: " + ", ".join(DATASETS))
    args.add_argument("--extractors", default=",".join(EXTRACTORS), help="comma-separated: " + ", ".join(EXTRACTORS))
    args.add_argument("--sample", type=int, default=0, help="only the first N pages of each data set (by name)")
    args.add_argument("--ngram", type=int, default=1, help="score n-grams of words (1: word tokens; 4: shingles)")
    args.add_argument("--per-page", type=Path, help="write each page's scores to this TSV file")
    args.add_argument("--check", type=Path, help="fail when an F1 is under its floor in this JSON file")
    args.add_argument("--speed", type=Path, help="also time each extractor over every page of this directory")
    args.add_argument(
        "--speed-input",
        choices=("str", "bytes"),
        default="str",
        help="--speed hands each extractor the page as str (default) or as bytes (the library's entry for bytes)",
    )
    args.add_argument("--speed-repeat", type=int, default=1, help="--speed: N rounds of one pass per extractor, in turn; the best pass of each")
    args = args.parse_args()

    extractors = []
    for key in args.extractors.split(","):
        try:
            name, run, *from_bytes = EXTRACTORS[key]()
        except KeyError:
            sys.exit(f"unknown extractor {key!r}; known: {', '.join(EXTRACTORS)}")
        except ImportError as err:
            print(f"{key}: left out: {err}", file=sys.stderr)
            continue
        extractors.append((key, name, run, from_bytes[0] if from_bytes else None))
    if not extractors:
        sys.exit("no extractor could be imported")

    results = {}
    per_page = []
    if args.data:
        for dataset in args.datasets.split(","):
            if dataset not in DATASETS:
                sys.exit(f"unknown data set {dataset!r}; known: {', '.join(DATASETS)}")
            folder, load = DATASETS[dataset]
            root = args.data / folder
            if not root.is_dir():
                print(f"{dataset}: NOT RUN: no {root}", file=sys.stderr)
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
        with args.per_page.open("w") as out:
            out.write("dataset\tpage\textractor\tprecision\trecall\tf1\n")
            for row in per_page:
                out.write("\t".join(row[:3]) + "".join(f"\t{x:.4f}" for x in row[3:]) + "\n")

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
