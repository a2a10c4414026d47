#!/usr/bin/env python3
"""Times the Spark job (htmltok.spark.warc_dataframe) against htmltok.process on the same
WARC files: local[1] vs local[2], mapInArrow ("arrow": Arrow batches built in Rust by
htmltok.process(output="pyarrow")) vs mapPartitions ("rows"), and the job's overhead over
process(threads=2). Run with the venv of scripts/test-python.sh:

    target/python-venv/bin/python scripts/bench-spark.py [--corpus DIR] [--copies N] [WARC...]

With no WARC, writes one from the shared corpus (DIR/MANIFEST.tsv, default
../shared/corpus; each page N times, default 4) to target/bench-spark/. Each Spark number
is the best of --runs runs (default 3) of the whole DataFrame into Spark's `noop` sink,
the session already started (JVM start-up is not counted)."""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python" / "tests"))


def corpus_warc(corpus: Path, copies: int) -> Path:
    from warcs import write_warc

    out = ROOT / "target" / "bench-spark" / f"corpus-x{copies}.warc.gz"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    pages = [(f"https://corpus.example/{n}/{row.split(chr(9))[0]}", (corpus / row.split("\t")[0]).read_bytes(), "text/html")
             for n in range(copies) for row in rows]
    write_warc(out, pages)
    return out


def best(runs, fn):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("warcs", nargs="*")
    p.add_argument("--corpus", default=os.environ.get("HTMLTOK_CORPUS", str(ROOT.parent / "shared" / "corpus")))
    p.add_argument("--copies", type=int, default=4)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--masters", default="local[1],local[2]")
    p.add_argument("--methods", default="arrow,rows")
    args = p.parse_args()
    warcs = [str(Path(w).resolve()) for w in args.warcs] or [str(corpus_warc(Path(args.corpus), args.copies))]

    import htmltok

    docs = sum(1 for _ in htmltok.process(warcs, threads=1))
    html_mb = sum(p["warc_record_length"] for p in htmltok.process(warcs, text=False, links=False)) / 1e6
    print(f"{len(warcs)} WARC file(s), {docs} documents, {html_mb:.1f} MB of gzip records")
    for threads in (1, 2):
        t = best(args.runs, lambda: sum(1 for _ in htmltok.process(warcs, threads=threads)))
        print(f"htmltok.process(threads={threads}): {t:.2f} s, {docs / t:.0f} docs/s, {html_mb / t:.0f} MB/s")
        t = best(args.runs, lambda: sum(b.num_rows for b in htmltok.process(warcs, output="pyarrow", threads=threads)))
        print(f"htmltok.process(output=pyarrow, threads={threads}): {t:.2f} s, {docs / t:.0f} docs/s, {html_mb / t:.0f} MB/s")

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession
    from htmltok.spark import warc_dataframe

    for master in args.masters.split(","):
        spark = (SparkSession.builder.master(master).appName("htmltok-bench")
                 .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        for method in args.methods.split(","):
            def job():
                df = warc_dataframe(spark, warcs, method=method)
                df.write.format("noop").mode("overwrite").save()
                assert df.htmltok_counters.documents.value == docs, df.htmltok_counters
            t = best(args.runs, job)
            print(f"spark {master} {method}: {t:.2f} s, {docs / t:.0f} docs/s, {html_mb / t:.0f} MB/s")
        spark.stop()


if __name__ == "__main__":
    main()
