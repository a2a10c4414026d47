"""htmltok.spark: the Spark job over WARC files equals htmltok.process, row for row.

Needs pyspark (and pyarrow to read Parquet), which scripts/test-python.sh installs; without
them the tests are skipped with a visible reason, or fail under CI/HTMLTOK_REQUIRE_DATA.
Spark runs locally (local[2]); Java must be installed."""

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, List, Optional, Sequence, Tuple, cast

import pytest

import htmltok
from conftest import BUNDLED, ROOT, SAMPLE_WARC, cli, missing
from warcs import write_warc

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

SPARK_PY = ROOT / "bindings" / "python" / "python" / "htmltok" / "spark.py"


def need(module: str) -> Any:
    try:
        return __import__(module)
    except ImportError as err:
        missing(f"the Spark tests ({module} is not importable)", f"{err}; pip install ./bindings/python[spark]")


@pytest.fixture(scope="module")
def spark() -> Iterator["SparkSession"]:
    need("pyspark")
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("htmltok-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def warcs(tmp_path_factory: pytest.TempPathFactory) -> List[Path]:
    """Two WARC files of the bundled pages, a truncated one and a garbage one."""
    folder = tmp_path_factory.mktemp("warcs")
    pages = sorted(BUNDLED.glob("*.html"))
    content_type = {"legacy-shift_jis.html": "text/html; charset=Shift_JIS",
                    "legacy-windows-1251.html": "text/html; charset=windows-1251"}
    records = [(f"https://corpus.example.org/{p.name}", p.read_bytes(),
                content_type.get(p.name, "text/html")) for p in pages]
    half = len(records) // 2
    write_warc(folder / "one.warc.gz", records[:half])
    write_warc(folder / "two.warc.gz", records[half:])
    raw = SAMPLE_WARC.read_bytes()
    (folder / "cut.warc.gz").write_bytes(raw[: len(raw) - 500])
    (folder / "garbage.warc.gz").write_bytes(b"\x1f\x8b\x08\x00garbage, not gzip" * 10)
    return [folder / n for n in ("one.warc.gz", "two.warc.gz", "cut.warc.gz", "garbage.warc.gz")]


def key(row: Sequence[Any]) -> Tuple[Any, Any]:
    return (row[0], row[1])


def process_rows(paths: Iterable[Path]) -> Tuple[List[Tuple[Any, ...]], List[Tuple[str, Optional[int], str]]]:
    """What htmltok.process gives, as the job's rows (links: the URLs), sorted by
    (file, offset); and its failures."""
    pages = htmltok.process([str(p) for p in paths], threads=1)
    rows = [(p["warc_filename"], p["warc_record_offset"], p["warc_record_length"], p["warc_record_id"],
             p["url"], p["fetch_time"], p["fetch_status"], p["content_mime_type"],
             p["encoding"], p["encoding_rule"], p["title"], [l["url"] for l in cast(List[htmltok.Link], p["links"])], p["text"])
            for p in pages]
    return sorted(rows, key=key), pages.errors


def process_counts(paths: Iterable[Path]) -> Optional[htmltok.Counts]:
    """What one htmltok.process run over `paths` counts by reason."""
    pages = htmltok.process([str(p) for p in paths], links=False, text=False)
    for _ in pages:
        pass
    return pages.counts


def spark_rows(rows: Iterable[Any]) -> List[Tuple[Any, ...]]:
    return sorted((tuple(r) for r in rows), key=key)


@pytest.mark.parametrize("method", ["rows", "arrow"])
def test_dataframe_equals_process(spark: "SparkSession", warcs: List[Path], method: str) -> None:
    if method == "arrow":
        need("pyarrow")
        need("pandas")
    from htmltok.spark import COLUMNS, warc_dataframe

    want, errors = process_rows(warcs)
    # The cut file's last response is read in part (a note); the garbage file fails.
    assert len(want) == 10 + 7 and len(errors) == 1
    df = warc_dataframe(spark, [str(p) for p in warcs], partitions=3, method=method)
    assert df.columns == COLUMNS
    got = spark_rows(df.collect())
    assert got == want
    counters = df.htmltok_counters
    assert counters.documents.value == len(want)
    assert counters.failures.value == len(errors)
    assert counters.files.value == 4
    assert {f for f, _, _ in counters.reasons.value} == {str(warcs[3])}
    # The counts by reason add up over the tasks to those of one process() run.
    counts = process_counts(warcs)
    assert counts is not None
    assert counters.by_reason == counts
    assert counters.ignored.value == sum(counts["skipped"].values())
    assert counters.recovered.value == sum(counts["recovered"].values())
    assert counts["skipped"]["warcinfo"] == 3  # one.warc.gz, two.warc.gz, cut.warc.gz
    # The join columns of the rows written from pages of write_warc.
    row = next(r for r in df.collect() if r.warc_filename == str(warcs[0]))
    assert row.warc_record_id.startswith("<urn:uuid:") and row.fetch_time == "2026-11-23T00:00:00Z"
    assert (row.fetch_status, row.content_mime_type) == (200, "text/html")


def test_options_and_missing_files(spark: "SparkSession", warcs: List[Path], tmp_path: Path) -> None:
    from htmltok.spark import warc_dataframe

    df = warc_dataframe(spark, [str(warcs[0]), str(tmp_path / "gone.warc.gz")], links=False, text=False)
    rows = df.collect()
    assert rows and all(r.links is None and r.text is None and r.title for r in rows)
    assert df.htmltok_counters.failures.value == 1
    assert df.htmltok_counters.reasons.value == [(str(tmp_path / "gone.warc.gz"), None, "no such file")]


def read_parquet(path: Path) -> List[Tuple[Any, ...]]:
    need("pyarrow")
    import pyarrow.parquet as pq

    table = pq.read_table(str(path))
    return sorted((tuple(r[c] for c in table.column_names) for r in table.to_pylist()), key=key)


def test_command_writes_parquet(warcs: List[Path], tmp_path: Path) -> None:
    need("pyspark")
    need("pyarrow")
    want, _ = process_rows(warcs)
    manifest = tmp_path / "warc.paths"
    # relative paths are relative to the manifest
    manifest.write_text("# test WARC files\n" + "".join(os.path.relpath(p, tmp_path) + "\n" for p in warcs))
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    runs = [
        [sys.executable, "-m", "htmltok.spark", "--master", "local[2]", "--output", tmp_path / "m.parquet", manifest],
        # as spark-submit runs it: the module as a script file
        [sys.executable, SPARK_PY, "--master", "local[1]", "--output", tmp_path / "s.parquet", *warcs[:2]],
    ]
    stderr: List[str] = []
    for run in runs:
        proc = subprocess.run([str(a) for a in run], capture_output=True, env=env, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
        stderr.append(proc.stderr.decode(errors="replace"))
    # Each run ends with one summary line; the damage is named before it.
    summaries = [err.strip().splitlines()[-1] for err in stderr]
    assert summaries[0].startswith("htmltok.spark summary: 17 documents; 17 rows written to ")
    assert "; not read " in summaries[0] and f"htmltok.spark: {warcs[3]}: " in stderr[0]
    assert summaries[1].startswith("htmltok.spark summary: 10 documents; 10 rows written to ")
    assert "not read" not in summaries[1]
    assert read_parquet(tmp_path / "m.parquet") == want
    assert read_parquet(tmp_path / "s.parquet") == [r for r in want if r[0] in (str(warcs[0]), str(warcs[1]))]


def test_spark_parquet_equals_the_cli_parquet(warcs: List[Path], tmp_path: Path) -> None:
    """`htmltok extract --format parquet` (one machine) writes the rows the Spark job
    writes."""
    need("pyspark")
    need("pyarrow")
    good = [str(p) for p in warcs[:3]]  # the cut file gives its readable records
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    proc = subprocess.run([sys.executable, "-m", "htmltok.spark", "--master", "local[2]",
                           "--output", str(tmp_path / "spark.parquet"), *good], capture_output=True, env=env)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-3000:]
    _, _, status = cli("extract", "--format", "parquet", "--output", tmp_path / "cli.parquet", *good, check=False)
    assert status == 0  # the cut file's last record is read in part, with a note
    spark_rows, cli_rows = read_parquet(tmp_path / "spark.parquet"), read_parquet(tmp_path / "cli.parquet")
    assert len(cli_rows) == 17
    assert spark_rows == cli_rows


def test_expand_inputs_takes_warc_and_arc_files(tmp_path: Path) -> None:
    from htmltok.spark import expand_inputs

    names = ["a.warc.gz", "b.arc", "c.ARC.GZ", "d.warc.zst", "notes.txt"]
    for name in names:
        (tmp_path / name).write_bytes(b"")
    assert expand_inputs([str(tmp_path)]) == [str(tmp_path / n) for n in names[:4]]


@pytest.mark.parametrize("method", ["rows", "arrow"])
def test_fields_add_columns(spark: "SparkSession", warcs: List[Path], method: str) -> None:
    if method == "arrow":
        need("pyarrow")
        need("pandas")
    from htmltok.spark import COLUMNS, warc_dataframe

    fields = {"heading": "h1::text", "hrefs": "a[href]::attr(href)"}
    df = warc_dataframe(spark, [str(p) for p in warcs[:2]], method=method, fields=fields)
    assert df.columns == COLUMNS + list(fields)
    got = sorted((r.warc_filename, r.warc_record_offset, r.heading, r.hrefs) for r in df.collect())
    pages = [dict(p) for p in htmltok.process([str(p) for p in warcs[:2]], threads=1, fields=fields)]
    want = sorted((p["warc_filename"], p["warc_record_offset"], p["heading"], p["hrefs"]) for p in pages)
    assert got == want and any(h for _, _, h, _ in got)
    with pytest.raises(ValueError, match="invalid selector"):
        warc_dataframe(spark, [str(warcs[0])], fields={"x": "a["})
    with pytest.raises(ValueError, match="one of the columns"):
        warc_dataframe(spark, [str(warcs[0])], fields={"title": "h1"})


@pytest.mark.parametrize("method", ["rows", "arrow"])
def test_main_text_and_metadata_add_columns(spark: "SparkSession", warcs: List[Path], method: str) -> None:
    """main_text=True and metadata=True add the columns of process(main_text=True,
    metadata=True), with their values (structs and lists of structs as Rows)."""
    if method == "arrow":
        need("pyarrow")
        need("pandas")
    from htmltok.spark import COLUMNS, MAIN_TEXT_COLUMNS, METADATA_COLUMNS, schema, warc_dataframe

    assert MAIN_TEXT_COLUMNS == ["main_text", "main_kind", "main_confidence"]
    tree_columns = MAIN_TEXT_COLUMNS + METADATA_COLUMNS
    df = warc_dataframe(spark, [str(p) for p in warcs[:2]], method=method, main_text=True,
                        metadata=True)
    assert df.columns == COLUMNS + tree_columns
    assert "robots struct<`noindex`:boolean" in schema(metadata=True)
    assert schema(main_text=True).endswith(
        ", main_text string, main_kind string, main_confidence float")
    assert dict(df.dtypes)["main_confidence"] == "float"

    def plain(value: Any) -> Any:
        """A Row (struct) as a dict, recursively; lists item by item."""
        if hasattr(value, "asDict"):
            return {k: plain(v) for k, v in value.asDict().items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    got = sorted([r.warc_filename, r.warc_record_offset] + [plain(r[c]) for c in tree_columns]
                 for r in df.collect())
    pages = [dict(p) for p in htmltok.process([str(p) for p in warcs[:2]], threads=1, main_text=True, metadata=True)]
    want = sorted([p["warc_filename"], p["warc_record_offset"]] + [p[c] for c in tree_columns]
                  for p in pages)
    assert got == want
    assert any(row[2] for row in got)  # some main text
    assert all(isinstance(row[3], str) and isinstance(row[4], float) for row in got)
    assert any(row[2 + len(MAIN_TEXT_COLUMNS) + METADATA_COLUMNS.index("open_graph")] for row in got)
    with pytest.raises(ValueError, match="one of the columns"):
        warc_dataframe(spark, [str(warcs[0])], fields={"lang": "h1"}, metadata=True)
