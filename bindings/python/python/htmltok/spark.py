"""htmltok on Spark: WARC files to a DataFrame (and Parquet), one row per HTML record.

``warc_dataframe(spark, paths)`` distributes WARC paths over Spark partitions; each
task runs ``htmltok.process(..., output="pyarrow")`` on its paths (Rust threads, the GIL released) and
hands the pages to Spark as Arrow record batches built in Rust (``mapInArrow``: no Python
object per page; ``method="rows"`` goes through ``htmltok.process`` dicts and
``RDD.mapPartitions`` instead, for executors without pyarrow, and measured slower)::

    from pyspark.sql import SparkSession
    from htmltok.spark import warc_dataframe

    spark = SparkSession.builder.getOrCreate()
    df = warc_dataframe(spark, ["/data/a.warc.gz", "/data/b.warc.gz"])
    df.write.parquet("pages.parquet")
    print(df.htmltok_counters)      # documents, failures, ignored, recovered (after an action)

A DataFrame that holds the HTML already (a column ``html``, binary or string, and
optional ``charset`` and ``url`` columns) goes through the same Rust code with
``mapInArrow`` and ``htmltok.ray.extract``, the per-batch function Ray Data's
``map_batches`` takes (its keywords choose the columns; see ``htmltok.ray``)::

    from pyspark.sql.types import FloatType, StringType, StructField, StructType
    import htmltok.ray

    def extract(batches):                 # pyarrow.RecordBatch in, the same with columns added
        for batch in batches:
            yield htmltok.ray.extract(batch)

    added = [StructField(name, StringType()) for name in ("title", "main_text", "main_kind")]
    added.append(StructField("main_confidence", FloatType()))
    pages = df.mapInArrow(extract, StructType(df.schema.fields + added))

Columns (``SCHEMA``): ``warc_filename`` string, ``warc_record_offset`` long,
``warc_record_length`` long, ``warc_record_id`` string, ``url`` string, ``fetch_time``
string (the WARC-Date as written), ``fetch_status`` int (the HTTP status),
``content_mime_type`` string, ``encoding`` string, ``encoding_rule`` string, ``title``
string, ``links`` array<string> (the resolved link URLs, in document order; null with
``links=False``), ``text`` string (null with ``text=False``). The first eight are named as
Common Crawl's columnar index names its columns (``warc_record_id`` in that style; null
for an ARC record); the index joins on ``warc_filename``, ``warc_record_offset`` and
``warc_record_length``. With ``fields`` (a dict of names to CSS selectors, as
``htmltok.extract`` takes it), one ``array<string>`` column per field follows
(``schema(fields)``): the strings the selector gives on each page's tree. With
``main_text=True``, the ``MAIN_TEXT_COLUMNS`` follow: ``main_text`` string (the article,
as ``htmltok.process(main_text=True)`` gives it), ``main_kind`` string (the page's kind:
``article``, ``forum``, ``product``, ``collection``, ``listing``, ``documentation``,
``service`` or ``other``) and ``main_confidence`` float (in [0, 1]); with ``metadata=True``, the metadata
columns ``METADATA_COLUMNS`` (``schema(fields, main_text, metadata)``: ``canonical``
string, ``robots`` and ``googlebot`` structs of the directives, ``description``,
``open_graph`` and ``twitter`` arrays of ``struct<name, content>``, ``lang``,
``content_language``, ``hreflang`` array of ``struct<hreflang, url>``, ``refresh``
``struct<delay, url>``, ``json_ld`` array<string>, ``qualified_links`` array of
``struct<url, nofollow, ugc, sponsored>``: the types are the Rust crate's, as
``htmltok extract --metadata --format parquet`` writes them). Both build each page's
tree, so they are opt-in.

A record (or a whole file) that cannot be read never fails the job: it is counted in
Spark accumulators (``Counters``), with the first reasons kept for the report; so are
the archive records that are not documents (``ignored``) and the documents read with a
note (``recovered``: a body used as stored though its headers name a coding, a record
cut off, ...), by reason.

As a job, in the shape of cc-pyspark's (inputs: WARC files, folders of them, or
manifests listing one path per line; output: Parquet)::

    python -m htmltok.spark --output pages.parquet crawl/*.warc.gz
    python -m htmltok.spark --field h1='h1::text' --output pages.parquet crawl/*.warc.gz
    python -m htmltok.spark --main-text --metadata --output pages.parquet crawl/*.warc.gz
    spark-submit --master spark://host:7077 bindings/python/python/htmltok/spark.py \\
        --output s3a://bucket/pages.parquet warc.paths

The driver and the executors need the ``htmltok`` package installed (the executors also
pyarrow and pandas for ``method="arrow"``, the default), and the WARC paths must be
readable by the executors under the same names (a shared or network file system): the
files are read by Rust, not through Hadoop's file systems.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence

from htmltok._htmltok import COLUMNS as _COLUMNS
from htmltok._htmltok import MAIN_TEXT_COLUMNS as _MAIN_TEXT_COLUMNS
from htmltok._htmltok import METADATA_COLUMNS as _METADATA_COLUMNS
from htmltok._htmltok import METADATA_SPARK_SCHEMA as _METADATA_SPARK_SCHEMA

__all__ = [
    "COLUMNS",
    "MAIN_TEXT_COLUMNS",
    "METADATA_COLUMNS",
    "SCHEMA",
    "schema",
    "Counters",
    "read_manifest",
    "expand_inputs",
    "warc_dataframe",
    "main",
]

#: The column names, in order: those of ``htmltok.process``'s Arrow outputs and of ``htmltok extract
#: --format parquet`` (one definition, in the Rust crate).
COLUMNS = list(_COLUMNS)

#: The names of the metadata columns (``metadata=True``), in order (the Rust crate's).
METADATA_COLUMNS = list(_METADATA_COLUMNS)

#: The name of the main-text column (``main_text=True``).
MAIN_TEXT = "main_text"

#: The columns ``main_text=True`` adds, in order: ``main_text``, ``main_kind``,
#: ``main_confidence`` (the Rust crate's).
MAIN_TEXT_COLUMNS = list(_MAIN_TEXT_COLUMNS)

#: The column ``main_markdown=True`` adds: the main text as GitHub-flavoured Markdown.
MAIN_MARKDOWN = "main_markdown"

#: The DataFrame's schema, as a Spark DDL string.
SCHEMA = (
    "warc_filename string, warc_record_offset long, warc_record_length long, "
    "warc_record_id string, url string, fetch_time string, fetch_status int, "
    "content_mime_type string, encoding string, encoding_rule string, title string, "
    "links array<string>, text string"
)


def schema(fields: Optional[Dict[str, str]] = None, main_text: bool = False,
           metadata: bool = False, main_markdown: bool = False) -> str:
    """``SCHEMA``, and after it one ``array<string>`` column per field of `fields` (a
    dict of names to CSS selectors), named as the field (backquoted); then with
    `main_text` the columns ``main_text string, main_kind string, main_confidence float``,
    with `main_markdown` the column ``main_markdown string``, with `metadata` the
    metadata columns (their DDL is written by the Rust crate from its Arrow schema)."""
    extra = "".join(f", `{name.replace('`', '``')}` array<string>" for name in (fields or {}))
    if main_text:
        main, kind, confidence = MAIN_TEXT_COLUMNS
        extra += f", {main} string, {kind} string, {confidence} float"
    if main_markdown:
        extra += f", {MAIN_MARKDOWN} string"
    if metadata:
        extra += ", " + _METADATA_SPARK_SCHEMA
    return SCHEMA + extra


# How many failure reasons each task reports (the counts are always exact).
MAX_REASONS_PER_TASK = 100

WARC_SUFFIXES = (".warc", ".warc.gz", ".warc.zst", ".warc.lz4", ".arc", ".arc.gz")


class _ListParam:
    """An accumulator of lists (failure reasons): a pyspark AccumulatorParam."""

    def zero(self, value):
        return []

    def addInPlace(self, a, b):
        a.extend(b)
        return a


class _CountsParam:
    """An accumulator of counts by reason (dicts of reason to count): a pyspark
    AccumulatorParam."""

    def zero(self, value):
        return {}

    def addInPlace(self, a, b):
        for reason, n in b.items():
            a[reason] = a.get(reason, 0) + n
        return a


class Counters:
    """Spark accumulators of one ``warc_dataframe``: ``documents`` (rows produced),
    ``failures`` (records or files that could not be read), ``ignored`` (archive records
    that are not documents: requests, revisits, records not HTML, ...), ``recovered``
    (documents read with a note; a document may count under several reasons, and this is
    the sum over them), ``files`` (paths processed), ``reasons`` (the first
    ``(file, offset, reason)`` of the failures, up to 100 per task) and ``by_reason`` (a
    dict ``{"skipped": {...}, "recovered": {...}, "failures": {...}, "passed_over": {...}}``
    of reason to count,
    as ``htmltok.process``'s ``counts``: ``skipped`` sums to ``ignored``, ``recovered`` to
    ``recovered``; ``failures`` counts those of the files read, missing paths apart).

    Accumulators add up every time Spark evaluates the DataFrame: read them after one
    action (a write, a count), or cache the DataFrame first.
    """

    def __init__(self, spark):
        sc = spark.sparkContext
        self.documents = sc.accumulator(0)
        self.failures = sc.accumulator(0)
        self.ignored = sc.accumulator(0)
        self.recovered = sc.accumulator(0)
        self.files = sc.accumulator(0)
        self.reasons = sc.accumulator([], _ListParam())
        self.skipped_by_reason = sc.accumulator({}, _CountsParam())
        self.recovered_by_reason = sc.accumulator({}, _CountsParam())
        self.failures_by_reason = sc.accumulator({}, _CountsParam())
        self.passed_over_by_reason = sc.accumulator({}, _CountsParam())

    @property
    def by_reason(self) -> Dict[str, Dict[str, int]]:
        return {
            "skipped": dict(self.skipped_by_reason.value),
            "recovered": dict(self.recovered_by_reason.value),
            "failures": dict(self.failures_by_reason.value),
            "passed_over": dict(self.passed_over_by_reason.value),
        }

    def as_dict(self) -> Dict[str, Any]:
        return {
            "files": self.files.value,
            "documents": self.documents.value,
            "failures": self.failures.value,
            "ignored": self.ignored.value,
            "recovered": self.recovered.value,
        }

    def __repr__(self) -> str:
        return "Counters({})".format(", ".join(f"{k}={v}" for k, v in self.as_dict().items()))

    def summary(self, output: str) -> str:
        """The run in one line, in the form of the ``htmltok`` CLI's: documents, rows
        written and where, then the counts by reason."""
        documents = self.documents.value
        parts = [f"{documents} document{'' if documents == 1 else 's'}",
                 f"{documents} row{'' if documents == 1 else 's'} written to {output}"]
        for group, name, after in (("skipped", "not documents", ""),
                                   ("recovered", "recovered", ""),
                                   ("failures", "not read", " (the first are named above)")):
            counts = self.by_reason[group]
            if self.failures.value and group == "failures":
                # Missing paths are counted in `failures` but not by reason.
                counts = dict(counts)
                missing = self.failures.value - sum(counts.values())
                if missing > 0:
                    counts["unreadable"] = counts.get("unreadable", 0) + missing
            if counts:
                listed = " ".join(f"{r}={n}" for r, n in sorted(counts.items(), key=lambda rn: (-rn[1], rn[0])))
                parts.append(f"{name} {listed}{after}")
        return "htmltok.spark summary: " + "; ".join(parts)


def _local_path(path: str) -> str:
    """A path as `htmltok.process` takes it: `file:` URIs become plain paths."""
    if path.startswith("file://"):
        return path[len("file://"):]
    if path.startswith("file:"):
        return path[len("file:"):]
    return path


def _pages(paths: Sequence[str], links: bool, text: bool, threads: int, counters: Counters,
           arrow: bool = False, fields: Optional[Dict[str, str]] = None,
           main_text: bool = False, metadata: bool = False, main_markdown: bool = False):
    """The pages of `paths` (dicts of `htmltok.process`, or with `arrow` the
    `pyarrow.RecordBatch` objects of `htmltok.process(..., output="pyarrow")`), counting what fails."""
    import htmltok

    reasons: List = []
    failures = 0
    readable = []
    for path in paths:
        local = _local_path(path)
        if "://" in local:
            failures += 1
            reasons.append((path, None, "not a local path (the files are read by htmltok, not Hadoop)"))
        elif not os.path.isfile(local):
            failures += 1
            reasons.append((path, None, "no such file"))
        else:
            readable.append(local)
    counters.files.add(len(paths))
    documents = 0
    ignored = 0
    counts = None
    try:
        if readable:
            options = htmltok.ProcessOptions(links=links, text=text, threads=threads, link_urls=True,
                                             fields=fields, main_text=main_text, metadata=metadata,
                                             main_markdown=main_markdown)
            pages: htmltok.Pages[Any]
            if arrow:
                pages = htmltok.process(readable, options, output="pyarrow")
            else:
                pages = htmltok.process(readable, options)
            with pages:
                try:
                    yield from pages
                finally:
                    documents = pages.documents
            failures += len(pages.errors)
            reasons.extend(pages.errors)
            ignored = pages.ignored
            counts = pages.counts
    except Exception as err:  # anything else about a path: counted, never fatal
        failures += 1
        reasons.append((",".join(readable), None, f"{type(err).__name__}: {err}"))
    finally:
        counters.documents.add(documents)
        counters.failures.add(failures)
        counters.ignored.add(ignored)
        counters.reasons.add([tuple(r) for r in reasons[:MAX_REASONS_PER_TASK]])
        if counts:
            counters.recovered.add(sum(counts["recovered"].values()))
            counters.skipped_by_reason.add(counts["skipped"])
            counters.recovered_by_reason.add(counts["recovered"])
            counters.failures_by_reason.add(counts["failures"])
            counters.passed_over_by_reason.add(counts["passed_over"])


def _row(page, fields: Optional[Dict[str, str]] = None, tree_columns: Sequence[str] = ()) -> tuple:
    return (
        page["warc_filename"],
        page["warc_record_offset"],
        page["warc_record_length"],
        page["warc_record_id"],
        page["url"],
        page["fetch_time"],
        page["fetch_status"],
        page["content_mime_type"],
        page["encoding"],
        page["encoding_rule"],
        page["title"],
        page["links"],
        page["text"],
    ) + tuple(page[name] for name in fields or ()) + tuple(page[name] for name in tree_columns)


def _threads_per_task(spark, partitions: int) -> int:
    """Rust threads for each task: the cores a task may use when few tasks share an
    executor (a WARC file or two on `local[N]`), else `spark.task.cpus`."""
    sc = spark.sparkContext
    conf = sc.getConf()
    task_cpus = int(conf.get("spark.task.cpus", "1"))
    parallelism = sc.defaultParallelism
    executor_cores = int(conf.get("spark.executor.cores", str(parallelism)))
    return max(task_cpus, min(executor_cores, parallelism // max(partitions, 1)))


def warc_dataframe(
    spark,
    paths: Iterable[str],
    links: bool = True,
    text: bool = True,
    partitions: Optional[int] = None,
    *,
    threads: Optional[int] = None,
    method: str = "arrow",
    counters: Optional[Counters] = None,
    fields: Optional[Dict[str, str]] = None,
    main_text: bool = False,
    metadata: bool = False,
    main_markdown: bool = False,
):
    """A DataFrame of the HTML response records of the WARC files `paths` (one row per
    record; columns ``COLUMNS``, schema ``SCHEMA``).

    `paths` are local paths (or ``file:`` URIs) readable by every executor under the same
    name; they are spread over `partitions` partitions (default: one per path), each task
    reading its paths with ``htmltok.process`` on `threads` Rust threads (default: the
    executor's cores when there are fewer partitions than cores, else
    ``spark.task.cpus``). `method` is ``"arrow"`` (the default: ``mapInArrow`` of the
    Arrow record batches ``htmltok.process(..., output="pyarrow")`` builds in Rust; needs pyarrow and
    pandas on the executors) or ``"rows"`` (``RDD.mapPartitions`` of tuples made from
    ``htmltok.process`` dicts; slower, see README).

    Failures (unreadable records, truncated files, missing paths) are not raised: they
    are counted in `counters` (a ``Counters``; one is made when None), which is also the
    returned DataFrame's ``htmltok_counters`` attribute.

    `fields` (a dict of names to CSS selectors) adds one ``array<string>`` column per
    field (``schema(fields)``); the selectors are compiled here first, so that one that
    does not parse raises ValueError on the driver, before any task runs.

    `main_text` adds the ``MAIN_TEXT_COLUMNS`` (``main_text``, ``main_kind``,
    ``main_confidence``), `main_markdown` the ``main_markdown`` column (the main text as
    GitHub-flavoured Markdown), `metadata` the ``METADATA_COLUMNS``
    (``schema(fields, main_text, metadata, main_markdown)``), from each page's tree.
    """
    from pyspark.sql import DataFrame  # noqa: F401  (pyspark must be importable)

    paths = [os.path.abspath(p) if "://" not in p and not p.startswith("file:") else p for p in map(os.fspath, paths)]
    sc = spark.sparkContext
    if partitions is None:
        partitions = len(paths)
    partitions = max(1, min(int(partitions), max(len(paths), 1)))
    if threads is None:
        threads = _threads_per_task(spark, partitions)
    if counters is None:
        counters = Counters(spark)
    want_links, want_text = bool(links), bool(text)
    fields = dict(fields or {})
    main_text, metadata, main_markdown = bool(main_text), bool(metadata), bool(main_markdown)
    tree_columns = ((MAIN_TEXT_COLUMNS if main_text else []) + ([MAIN_MARKDOWN] if main_markdown else [])
                    + (METADATA_COLUMNS if metadata else []))
    if fields:
        import htmltok

        # A bad selector or name fails here, on the driver, not in every task.
        htmltok.Fields(fields)
        taken = [name for name in fields if name in COLUMNS or name in tree_columns]
        if taken:
            raise ValueError(f"warc_dataframe: field name {taken[0]!r} is one of the columns "
                             f"{COLUMNS + tree_columns}")
    ddl = schema(fields, main_text, metadata, main_markdown)

    if method == "arrow":
        def task(batches):
            mine = [p for batch in batches for p in batch.column(0).to_pylist()]
            yield from _pages(mine, want_links, want_text, threads, counters, arrow=True,
                              fields=fields, main_text=main_text, metadata=metadata,
                              main_markdown=main_markdown)

        inputs = spark.createDataFrame(sc.parallelize([(p,) for p in paths], partitions), "path string")
        df = inputs.mapInArrow(task, ddl)
    elif method == "rows":
        def task_rows(mine):
            for page in _pages(list(mine), want_links, want_text, threads, counters, fields=fields,
                               main_text=main_text, metadata=metadata, main_markdown=main_markdown):
                yield _row(page, fields, tree_columns)

        rdd = sc.parallelize(paths, partitions).mapPartitions(task_rows)
        df = spark.createDataFrame(rdd, ddl)
    else:
        raise ValueError(f"warc_dataframe: method must be 'arrow' or 'rows', not {method!r}")
    df.htmltok_counters = counters
    return df


def read_manifest(path: str) -> List[str]:
    """The paths a manifest lists, one per line (blank lines and lines starting with `#`
    left out); relative paths are taken relative to the manifest's folder."""
    folder = os.path.dirname(os.path.abspath(path))
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "://" not in line and not line.startswith("file:") and not os.path.isabs(line):
                line = os.path.join(folder, line)
            out.append(line)
    return out


def _is_warc(name: str) -> bool:
    return name.lower().endswith(WARC_SUFFIXES)


def expand_inputs(inputs: Iterable[str]) -> List[str]:
    """Archive paths from the job's inputs: a `.warc`/`.warc.gz`/`.warc.zst`/`.warc.lz4`/`.arc`/`.arc.gz` path is
    itself, a folder is walked (recursively, names sorted) for such files, anything else is a manifest."""
    paths: List[str] = []
    for item in inputs:
        if _is_warc(item) or "://" in item:
            paths.append(item)
        elif os.path.isdir(item):
            for folder, dirs, files in os.walk(item):
                dirs.sort()
                paths.extend(os.path.join(folder, f) for f in sorted(files) if _is_warc(f))
        else:
            paths.extend(read_manifest(item))
    return paths


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m htmltok.spark",
        description="Tokenize the HTML records of WARC files on Spark and write one Parquet "
        "row per record (" + ", ".join(COLUMNS) + ").",
        epilog="Inputs: WARC files (.warc, .warc.gz, .warc.zst, .warc.lz4) or ARC files (.arc, .arc.gz), folders of them, or manifests (one path "
        "per line, relative to the manifest; see scripts/make-manifest.sh). With spark-submit: "
        "spark-submit [--master URL] bindings/python/python/htmltok/spark.py --output OUT INPUT...",
    )
    p.add_argument("inputs", nargs="+", metavar="WARC_OR_MANIFEST")
    p.add_argument("--output", "-o", required=True, help="the Parquet output (a folder, as Spark writes it)")
    p.add_argument("--partitions", type=int, default=None, help="input partitions (default: one per WARC file)")
    p.add_argument("--output-partitions", type=int, default=None, help="coalesce to this many Parquet files")
    p.add_argument("--threads", type=int, default=None, help="Rust threads per task (default: see warc_dataframe)")
    p.add_argument("--no-links", action="store_true", help="leave the links column null")
    p.add_argument("--no-text", action="store_true", help="leave the text column null")
    p.add_argument("--field", action="append", default=[], metavar="NAME=SELECTOR",
                   help="add a column NAME: the strings the CSS selector gives on each page "
                        "(::text, ::attr(name) or the element's HTML); repeatable")
    p.add_argument("--main-text", action="store_true",
                   help="add the columns main_text, main_kind and main_confidence: each page's "
                        "main text, its page kind and the text's confidence (builds the tree)")
    p.add_argument("--main-markdown", action="store_true",
                   help="add the column main_markdown: each page's main text as GitHub-flavoured "
                        "Markdown (builds the tree)")
    p.add_argument("--metadata", action="store_true",
                   help="add the metadata columns (" + ", ".join(METADATA_COLUMNS) + "; builds the tree)")
    p.add_argument("--method", choices=("arrow", "rows"), default="arrow",
                   help="mapInArrow of Arrow batches built in Rust (default) or mapPartitions of rows")
    p.add_argument("--mode", default="errorifexists", choices=("errorifexists", "overwrite", "append", "ignore"),
                   help="what to do when the output exists (default: fail)")
    p.add_argument("--compression", default="zstd", help="Parquet codec (default: zstd)")
    p.add_argument("--master", default=None, help="the Spark master when not given by spark-submit")
    p.add_argument("--app-name", default="htmltok-warc-to-parquet")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    fields = {}
    for spec in args.field:
        name, eq, css = spec.partition("=")
        if not eq or not name:
            parser.error(f"--field {spec!r}: expected NAME=SELECTOR")
        fields[name] = css
    if fields:
        import htmltok

        try:
            htmltok.Fields(fields)
        except ValueError as err:
            parser.error(str(err))
    paths = expand_inputs(args.inputs)
    if not paths:
        print("htmltok.spark: no WARC files in the inputs", file=sys.stderr)
        return 2
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        # Started as a plain Python program (not by spark-submit): the local workers run
        # this interpreter, the one htmltok is installed in.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(args.app_name)
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        df = warc_dataframe(
            spark,
            paths,
            links=not args.no_links,
            text=not args.no_text,
            partitions=args.partitions,
            threads=args.threads,
            method=args.method,
            fields=fields,
            main_text=args.main_text,
            metadata=args.metadata,
            main_markdown=args.main_markdown,
        )
        if args.output_partitions:
            df = df.coalesce(args.output_partitions)
        df.write.mode(args.mode).option("compression", args.compression).parquet(args.output)
        counters = df.htmltok_counters
        for file, offset, reason in counters.reasons.value[:20]:
            where = file if offset is None else f"{file}: offset {offset}"
            print(f"htmltok.spark: {where}: {reason}", file=sys.stderr)
        print(counters.summary(args.output), file=sys.stderr)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
