"""htmltok over Arrow batches: Ray Data, Spark's ``mapInArrow``, or any pipeline that holds
HTML in a column.

``extract(batch)`` takes a ``pyarrow.RecordBatch`` or ``pyarrow.Table`` with a column
``html`` (binary or string) and optional ``charset`` and ``url`` columns, and returns the
same type with the extraction columns added, named as ``htmltok.process`` names them::

    import functools
    import ray
    import htmltok.ray

    ds = ray.data.read_parquet("pages.parquet")        # columns: url, html (binary), ...
    ds = ds.map_batches(htmltok.ray.extract, batch_format="pyarrow")
    # + title, main_text, main_kind, main_confidence
    ds = ds.map_batches(functools.partial(htmltok.ray.extract, main_markdown=True, metadata=True),
                        batch_format="pyarrow")

Each row goes through the same Rust code as ``htmltok.process`` and the ``htmltok`` CLI:
its bytes decoded as a browser decodes them (byte order mark, then the row's ``charset``
as the HTTP charset, then the ``<meta>`` prescan, then the detector; a string column is
UTF-8 already), its tree built, its main text (and Markdown, metadata, ...) read, the
whole batch in Rust with the GIL released. The function is a plain module function, so
it pickles (by reference), and so does a ``functools.partial`` of it.

The columns added, in order (the names and types of ``process``'s Arrow outputs):

- ``title`` (string; ``title=False`` leaves it out);
- ``encoding``, ``encoding_rule`` (strings) with ``encoding=True``;
- ``links`` (list<string>: the resolved URLs) with ``links=True``; ``text`` (the
  visible text) with ``text=True``;
- one list<string> column per field of ``fields`` (names to CSS selectors);
- by default the main text: ``main_text`` and ``main_kind`` strings and
  ``main_confidence`` float32 (``main_text=False`` leaves them out);
- ``main_markdown`` (the main text as GitHub-flavoured Markdown) with
  ``main_markdown=True``;
- the metadata columns ``htmltok.METADATA_COLUMNS`` with ``metadata=True``;
- ``extract_error`` (string) with ``errors=True``: null for a row read, else why it
  has no document: ``null-html`` (its html is null), ``archive`` (its bytes are a WARC
  or ARC file, not one page), ``not-html-file`` (binary data), ``too-large`` (over 256
  MiB), ``panicked``.

A row without a document (those reasons) has null in every added column; with
``errors=True`` the column says which rows and why (count them with
``pyarrow.compute.value_counts``, or ``ds.groupby("extract_error").count()``). Nothing
else is counted: a batch function has no counters to report to. A batch that already
has a column of a name to be added raises ValueError (rename it, or leave the column
out); so does a batch without the html column.

Links, Markdown links and metadata URLs are resolved against the row's ``url``, else
``base``. The batch runs on ``threads`` Rust threads (default 1: a Ray or Spark task
holds one core; 0 for one per core).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, TypeVar, Union

from . import _htmltok

if TYPE_CHECKING:
    import pyarrow as _pa

    from ._htmltok import Fields

__all__ = ["extract", "HTML", "CHARSET", "URL", "ERROR"]

#: The default name of the column of the HTML (binary or string).
HTML = "html"
#: The default name of the column of the HTTP charset of each row's bytes.
CHARSET = "charset"
#: The default name of the column of each row's URL.
URL = "url"
#: The column ``errors=True`` adds.
ERROR = "extract_error"

_OFFSET = 8  # bytes of one large_binary offset

#: What `extract` takes and gives back: a RecordBatch for a RecordBatch, a Table for a Table.
_Batch = TypeVar("_Batch", "_pa.RecordBatch", "_pa.Table")
#: The html column as `extract_batch` takes it: Arrow buffers `(values, offsets, nulls)`,
#: or a list of None for a column of nulls.
_Rows = Union[Tuple[bytes, bytes, Optional[List[bool]]], List[None]]


def _column(batch: Any, name: str) -> Any:
    """The column `name` of a RecordBatch or Table as one Array, or None."""
    if name not in batch.schema.names:
        return None
    column = batch.column(name)
    if hasattr(column, "combine_chunks"):  # a Table's ChunkedArray
        column = column.combine_chunks()
    return column


def _strings(column: Any) -> Optional[List[Optional[str]]]:
    """A charset or URL column as a list of str or None."""
    import pyarrow as pa

    if column is None:
        return None
    if _is(column.type, "is_dictionary"):
        column = column.dictionary_decode()
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        column = column.cast(pa.string())
    strings: List[Optional[str]] = column.to_pylist()
    return strings


def _is(type_: Any, name: str) -> bool:
    """pyarrow.types.<name>(type_), False where this pyarrow lacks the test (the view
    types came in pyarrow 16)."""
    import pyarrow as pa

    test = getattr(pa.types, name, None)
    return bool(test and test(type_))


def _buffers(column: Any) -> Tuple[_Rows, bool]:
    """An Arrow binary or string array as the buffers `extract_batch` reads:
    `(values, offsets, nulls)` and whether it holds strings."""
    import pyarrow as pa

    if _is(column.type, "is_dictionary"):
        column = column.dictionary_decode()
    t = column.type
    if _is(t, "is_null"):
        return [None] * len(column), False
    decoded = any(_is(t, test) for test in ("is_string", "is_large_string", "is_string_view"))
    if not decoded and not any(_is(t, test) for test in ("is_binary", "is_large_binary", "is_binary_view")):
        raise TypeError(f"htmltok.ray.extract: the html column must be binary or string, not {t}")
    if not _is(t, "is_large_binary"):
        column = column.cast(pa.large_binary())  # the same bytes; int64 offsets
    n = len(column)
    _validity, offsets, values = column.buffers()
    offsets = offsets.slice(column.offset * _OFFSET, (n + 1) * _OFFSET).to_pybytes() if offsets else b"\0" * _OFFSET
    first = int.from_bytes(offsets[:_OFFSET], "little", signed=True)
    last = int.from_bytes(offsets[-_OFFSET:], "little", signed=True)
    values = values.slice(first, last - first).to_pybytes() if values is not None and last > first else b""
    nulls = column.is_null().to_pylist() if column.null_count else None
    return (values, offsets, nulls), decoded


def extract(
    batch: _Batch,
    *,
    html: str = HTML,
    charset: str = CHARSET,
    url: str = URL,
    base: Optional[str] = None,
    title: bool = True,
    encoding: bool = False,
    links: bool = False,
    text: bool = False,
    data_urls: bool = False,
    fields: Optional[Union[Dict[str, str], Fields]] = None,
    main_text: bool = True,
    main_markdown: bool = False,
    metadata: bool = False,
    errors: bool = False,
    threads: int = 1,
) -> _Batch:
    """`batch` (a ``pyarrow.RecordBatch`` or ``pyarrow.Table``) with the extraction
    columns of its column `html` added (see the module documentation); the same type
    as given. `charset` and `url` name the optional columns of each row's HTTP charset
    and URL (a missing column is no charset, no URL). The other keywords choose the
    columns, as ``htmltok.process`` takes them."""
    import pyarrow as pa

    table = isinstance(batch, pa.Table)
    if not table and not isinstance(batch, pa.RecordBatch):
        raise TypeError(f"htmltok.ray.extract: expected a pyarrow.RecordBatch or pyarrow.Table, "
                        f"not {type(batch).__name__} (map_batches(..., batch_format='pyarrow'))")
    column = _column(batch, html)
    if column is None:
        raise ValueError(f"htmltok.ray.extract: the batch has no column {html!r} "
                         f"(its columns: {batch.schema.names}); html= names another")
    options: Dict[str, Any] = dict(
        base=base, title=title, encoding=encoding, links=links, text=text, data_urls=data_urls,
        fields=fields, main_text=main_text, main_markdown=main_markdown, metadata=metadata,
        errors=errors, threads=threads)
    # The names to be added, from the Rust code itself (no rows: no work), checked first.
    names = pa.record_batch(_htmltok.extract_batch([], **options)).schema.names
    taken = [name for name in names if name in batch.schema.names]
    if taken:
        raise ValueError(f"htmltok.ray.extract: the batch has a column {taken[0]!r} already, which the "
                         f"extraction adds ({', '.join(names)}): rename it, or leave that column out")
    rows, decoded = _buffers(column)
    out = pa.record_batch(_htmltok.extract_batch(
        rows, _strings(_column(batch, charset)), _strings(_column(batch, url)), decoded=decoded, **options))
    schema = pa.schema(list(batch.schema) + list(out.schema), metadata=batch.schema.metadata)
    if table:
        return pa.Table.from_arrays(list(batch.columns) + [pa.chunked_array([c]) for c in out.columns],
                                    schema=schema)
    return pa.RecordBatch.from_arrays(list(batch.columns) + list(out.columns), schema=schema)
