"""datatrove pipelines from WARC to JSONL on one core: datatrove's own, with htmltok's
extractor, and htmltok's reader alone.

    python bindings/python/bench/datatrove_bench.py [--dev 140] [--repeat 1] [--out DIR]

Builds a WARC file (gzip, one member per record, written with warcio as HTTP response
records, ``WARC-Identified-Payload-Type: text/html`` as Common Crawl writes it) of real
pages from the shared data beside the repository: the 191 pages of the shared corpus
(``$HTMLTOK_CORPUS``, else ``../shared/corpus``; their declared charset as the HTTP
charset, as MANIFEST.tsv gives it) and ``--dev`` pages (default 140, spread evenly)
of the main-content development split (``../shared/eval/multitype-dev/html/*.html.gz``),
331 pages with the default; into ``--out`` (default ``target/datatrove-bench``, never the
repository). Then runs, each in a process of its own pinned to core 0 (``taskset -c 0``;
datatrove's ``LocalPipelineExecutor(tasks=1, workers=1)``, so the trafilatura sandbox's
subprocess shares that core too):

1. ``trafilatura``: datatrove's ``WarcReader`` -> datatrove's ``Trafilatura`` -> ``JsonlWriter``;
2. ``htmltok-extractor``: datatrove's ``WarcReader`` -> ``htmltok.datatrove.Htmltok`` -> ``JsonlWriter``;
3. ``htmltok-reader``: ``htmltok.datatrove.WarcReader`` -> ``JsonlWriter``;
4. ``reader-only``: datatrove's ``WarcReader`` -> ``JsonlWriter`` (the floor of 2.).

It prints, for each, the pipeline's wall time (``executor.run()``: the imports and the
interpreter's start left out; best of ``--repeat``), the documents written (read back from
the JSONL) and documents per second, and the ratios to the first. Needs datatrove, warcio,
faust-cchardet, python-magic, orjson and trafilatura (``pip install datatrove==0.10.1
warcio faust-cchardet python-magic orjson trafilatura``).
"""

import argparse
import gzip
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PIPELINES = ("trafilatura", "htmltok-extractor", "htmltok-reader", "reader-only")


def shared(name, env):
    return Path(os.environ[env]) if os.environ.get(env) else ROOT.parent / "shared" / name


def corpus_pages():
    """(url, html bytes, content type) of the shared corpus's pages."""
    corpus = shared("corpus", "HTMLTOK_CORPUS")
    manifest = corpus / "MANIFEST.tsv"
    if not manifest.is_file():
        sys.exit(f"datatrove_bench: no corpus at {corpus} (set HTMLTOK_CORPUS)")
    rows = manifest.read_text(encoding="utf-8").splitlines()
    header = rows[0].split("\t")
    path_at, charset_at = header.index("path"), header.index("declared_charset")
    pages = []
    for row in rows[1:]:
        fields = row.split("\t")
        path = corpus / fields[path_at]
        if not path.is_file():
            continue
        charset = fields[charset_at].strip()
        content_type = "text/html" if charset in ("", "-") else f"text/html; charset={charset}"
        pages.append((f"https://corpus.example.org/{fields[path_at]}", path.read_bytes(), content_type))
    return pages


def dev_pages(n):
    """(url, html bytes, content type) of `n` pages of the development split, spread
    evenly over it, with their own URL (from the ground truth) when known."""
    split = shared("eval", "HTMLTOK_EVAL") / "multitype-dev"
    paths = sorted((split / "html").glob("*.html.gz"))
    if n and not paths:
        sys.exit(f"datatrove_bench: no development split at {split}")
    if n <= 0:
        return []
    step = len(paths) / min(n, len(paths))
    chosen = [paths[int(i * step)] for i in range(min(n, len(paths)))]
    pages = []
    for path in chosen:
        stem = path.name[: -len(".html.gz")]
        url = f"https://dev.example.org/{stem}"
        truth = split / "ground-truth" / f"{stem}.json"
        if truth.is_file():
            url = json.loads(truth.read_text(encoding="utf-8")).get("url") or url
        pages.append((url, gzip.decompress(path.read_bytes()), "text/html"))
    return pages


def write_warc(path, pages):
    """The pages as HTTP response records of a .warc.gz (warcio, one gzip member each)."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "htmltok datatrove_bench"}))
        for url, html, content_type in pages:
            http = StatusAndHeaders("200 OK", [("Content-Type", content_type),
                                               ("Content-Length", str(len(html)))], protocol="HTTP/1.1")
            record = writer.create_warc_record(url, "response", payload=io.BytesIO(html), http_headers=http,
                                               warc_headers_dict={"WARC-Identified-Payload-Type": "text/html"})
            writer.write_record(record)


def run_pipeline(name, warc_dir, out_dir):
    """One pipeline, in this process: returns (seconds of executor.run(), documents written)."""
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader as DatatroveWarcReader
    from datatrove.pipeline.writers import JsonlWriter

    import htmltok.datatrove

    output = out_dir / "jsonl"
    if name == "trafilatura":
        from datatrove.pipeline.extractors import Trafilatura

        steps = [DatatroveWarcReader(str(warc_dir)), Trafilatura()]
    elif name == "htmltok-extractor":
        steps = [DatatroveWarcReader(str(warc_dir)), htmltok.datatrove.Htmltok()]
    elif name == "htmltok-reader":
        steps = [htmltok.datatrove.WarcReader(str(warc_dir))]
    elif name == "reader-only":
        steps = [DatatroveWarcReader(str(warc_dir))]
    else:
        raise ValueError(name)
    steps.append(JsonlWriter(str(output), compression=None))
    executor = LocalPipelineExecutor(pipeline=steps, tasks=1, workers=1, logging_dir=str(out_dir / "logs"))
    started = time.perf_counter()
    executor.run()
    seconds = time.perf_counter() - started
    documents = sum(1 for f in output.glob("*.jsonl") for line in f.open(encoding="utf-8") if line.strip())
    return seconds, documents


def child(args):
    os.environ.setdefault("LOGURU_LEVEL", "WARNING")
    seconds, documents = run_pipeline(args.child, Path(args.warc_dir), Path(args.child_out))
    print(json.dumps({"seconds": seconds, "documents": documents}))


def versions():
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in ("htmltok", "datatrove", "trafilatura", "warcio", "faust-cchardet", "orjson"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "not installed"
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dev", type=int, default=140, help="pages of the development split (default 140)")
    p.add_argument("--repeat", type=int, default=1, help="runs of each pipeline; the best is kept")
    p.add_argument("--out", type=Path, default=ROOT / "target" / "datatrove-bench")
    p.add_argument("--pipeline", action="append", choices=PIPELINES, help="only these (repeatable)")
    p.add_argument("--core", default="0", help="the core to pin to (taskset -c; default 0)")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--warc-dir", help=argparse.SUPPRESS)
    p.add_argument("--child-out", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        return child(args)

    warc_dir = args.out / "warc"
    warc_dir.mkdir(parents=True, exist_ok=True)
    warc = warc_dir / "pages.warc.gz"
    pages = corpus_pages() + dev_pages(args.dev)
    write_warc(warc, pages)
    size = sum(len(h) for _, h, _ in pages)
    print(f"WARC: {warc} — {len(pages)} response records ({len(pages) - args.dev} shared-corpus pages, "
          f"{args.dev} development-split pages), {size / 1e6:.1f} MB of HTML, "
          f"{warc.stat().st_size / 1e6:.1f} MB gzipped")
    print(f"versions: {versions()}; Python {platform.python_version()}; {os.cpu_count()} cores, pinned to core {args.core}")
    pin = ["taskset", "-c", args.core] if shutil.which("taskset") else []
    if not pin:
        print("taskset not found: the runs are not pinned to one core", file=sys.stderr)
    results = {}
    for name in args.pipeline or PIPELINES:
        best = None
        for _ in range(args.repeat):
            out = args.out / name
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            started = time.perf_counter()
            proc = subprocess.run(pin + [sys.executable, __file__, "--child", name, "--warc-dir", str(warc_dir),
                                         "--child-out", str(out)], capture_output=True, text=True)
            wall = time.perf_counter() - started
            if proc.returncode != 0:
                sys.exit(f"{name} failed:\n{proc.stderr[-4000:]}")
            result = json.loads(proc.stdout.strip().splitlines()[-1])
            result["process"] = wall
            if best is None or result["seconds"] < best["seconds"]:
                best = result
        results[name] = best
        print(f"  {name}: {best['seconds']:.2f} s, {best['documents']} documents", flush=True)

    base = results.get("trafilatura")
    print()
    print("| pipeline (one core) | pipeline s | process s | documents written | docs/s | × trafilatura |")
    print("|---|--:|--:|--:|--:|--:|")
    labels = {
        "trafilatura": "datatrove WarcReader → Trafilatura → JsonlWriter",
        "htmltok-extractor": "datatrove WarcReader → htmltok.datatrove.Htmltok → JsonlWriter",
        "htmltok-reader": "htmltok.datatrove.WarcReader → JsonlWriter",
        "reader-only": "datatrove WarcReader → JsonlWriter (no extraction)",
    }
    for name, r in results.items():
        rate = r["documents"] / r["seconds"] if r["seconds"] else float("inf")
        ratio = ""
        if base and name != "trafilatura":
            base_rate = base["documents"] / base["seconds"]
            ratio = f"{rate / base_rate:.1f}"
        elif name == "trafilatura":
            ratio = "1.0"
        print(f"| {labels[name]} | {r['seconds']:.2f} | {r['process']:.2f} | {r['documents']} | {rate:.1f} | {ratio} |")


if __name__ == "__main__":
    main()
