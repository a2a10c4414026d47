"""htmltok: an exact WHATWG HTML tokenizer (in Rust), with browser-style encoding
detection, WARC reading, link and text extraction, and parallel batches.

Tokens::

    import htmltok
    for tok in htmltok.tokenize(b"<a href=/x>Fish &amp; chips</a>"):
        print(tok.type, tok.start, tok.end, tok.name, tok.attrs, tok.text)

Pages (decoded as a browser decodes them)::

    doc = htmltok.Document(data, http_charset=None, url="https://example.org/")
    doc.encoding, doc.encoding_rule, doc.title
    doc.links()   # what `htmltok links --json` lists
    doc.text()    # what `htmltok text` gives
    doc.stats()   # what `htmltok stats` counts

The tree (WHATWG tree construction; nodes are views over an arena)::

    tree = htmltok.parse(data)            # bytes decoded as Document decodes them
    tree.title, tree.body.children, tree.document.encoding
    for node in tree.root.descendants():
        node.name, node.attrs, node.span  # span: offsets into tree.document.html_bytes

CSS selectors on the tree: ``select`` gives nodes, ``getall`` / ``get`` strings (parsel's
``::text`` and ``::attr(name)``; an element's outer HTML without them)::

    tree.select("article a[href]")        # [Node, ...] in document order
    tree.select_one("article")            # the first Node, or None
    tree.getall("a[href]::attr(href)")    # ["/a", "/b"]
    tree.get("title::text")               # the first string, or None (or a default)
    node.select(":scope > li")            # below a node
    links = htmltok.Selector("a[href]")   # compiled once, for any number of trees

Named CSS selectors, all matched in one walk of the tree::

    htmltok.extract(data, {"title": "title::text", "links": "a[href]::attr(href)"})
    # {"title": ["..."], "links": ["/a", "/b"]}; htmltok.Fields({...}) compiles once

WARC and ARC files::

    for rec in htmltok.warc.ArchiveIterator("crawl.warc.gz"):
        rec.offset, rec.length, rec.url, rec.http_headers, rec.content
        doc = rec.document()

Many files, folders and WARC files at once, on every core (the GIL released)::

    for page in htmltok.process(["crawl.warc.gz", "pages/"], threads=0):
        page["warc_filename"], page["warc_record_offset"], page["url"], page["links"]

    # The same as Arrow record batches built in Rust (no Python object per page):
    for batch in htmltok.process(["crawl.warc.gz"], output="pyarrow"):   # needs pyarrow
        batch.num_rows, batch.column("url")

    # Options as keywords (above) or as one object, kept and reused:
    options = htmltok.ProcessOptions(main_text=True, links=False, threads=4)
    htmltok.process(paths, options, output="ipc")   # Arrow IPC bytes per batch

Contents:

- ``tokenize(data, *, errors, simulation, scripting, state, last_start_tag)`` -> ``Tokens``
- ``Tokens``: a sequence of ``Token`` (lazy views; ``.errors`` with ``errors=True``)
- ``Document(data, http_charset=None, url=None)``: ``links()``, ``text()``, ``stats()``,
  ``tokenize()``, ``title``, ``encoding``, ``encoding_rule``
- ``parse(data, *, scripting, http_charset, url)`` -> ``Tree`` of ``Node`` views;
  ``parse_fragment(data, context)``; ``Document.tree()``
- ``Tree.select(css)`` / ``select_one`` (nodes), ``Tree.getall(css)`` / ``get`` (strings),
  the same on ``Node``; ``Selector(css)``
- ``extract(data, fields, *, http_charset)`` -> ``dict[str, list[str]]``; ``Fields(dict)``;
  ``Tree.extract(fields)``
- ``warc.ArchiveIterator(path_or_file)`` -> ``warc.WarcRecord``
- ``process(inputs, options=None, *, output="dicts", **keywords)`` -> ``Pages``: of dicts
  (``output="dicts"``), of record batches as Arrow IPC stream ``bytes`` (``"ipc"``, no
  Arrow library needed), as ``ArrowBatch`` objects of the Arrow PyCapsule interface
  (``"capsules"``: for polars, DuckDB, ...) or as ``pyarrow.RecordBatch`` objects
  (``"pyarrow"``); ``ProcessOptions(...)``, the options as one immutable object. (The
  older ``process_ipc``, ``process_batches`` and ``process_arrow`` still work, deprecated.)
- ``htmltok.ray.extract(batch, ...)``: a ``pyarrow`` batch with a column ``html`` in, the
  same batch with the extraction columns added (``title``, ``main_text``, ...) out: for
  Ray Data's ``map_batches`` and Spark's ``mapInArrow``
- ``htmltok.datatrove.Htmltok`` (an extractor) and ``htmltok.datatrove.WarcReader`` (a
  reader whose documents hold the main text already): for datatrove pipelines

Every call that does real work releases the GIL, so threads run in parallel.
"""

import warnings
from typing import TYPE_CHECKING, Any, Union

from ._htmltok import (
    COLUMNS,
    MAIN_TEXT_COLUMNS,
    METADATA_COLUMNS,
    PGO,
    PGO_FALLBACK,
    ArrowBatch,
    Document,
    Fields,
    Node,
    NodeIterator,
    Pages,
    ProcessOptions,
    Selector,
    Token,
    TokenIterator,
    Tokens,
    Tree,
    __version__,
    extract,
    parse,
    parse_fragment,
    process,
    tokenize,
)
from ._types import (
    Alternate,
    Article,
    Counts,
    EncodingCounts,
    Href,
    Link,
    Metadata,
    NodeType,
    Output,
    Page,
    PageKind,
    ParseErrorTuple,
    QualifiedLink,
    Refresh,
    Robots,
    State,
    Stats,
    TokenCounts,
    TokenType,
)
from . import warc

if TYPE_CHECKING:
    import os as _os
    from collections.abc import Iterable as _Iterable

    import pyarrow as _pyarrow

    _Path = Union[str, "_os.PathLike[str]"]

#: Deprecated: ``process(..., output="pyarrow")`` returns a ``Pages`` iterator.
ArrowBatches = Pages


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"htmltok.{old} is deprecated: use htmltok.{new}", DeprecationWarning, stacklevel=3)


def process_ipc(
    paths: "Union[_Path, _Iterable[_Path]]",
    links: bool = True,
    text: bool = True,
    threads: int = 0,
    **options: Any,
) -> "Pages[bytes]":
    """Deprecated: ``process(paths, output="ipc", ...)``."""
    _deprecated("process_ipc(paths, ...)", 'process(paths, output="ipc", ...)')
    return process(paths, output="ipc", links=links, text=text, threads=threads, **options)


def process_batches(
    paths: "Union[_Path, _Iterable[_Path]]",
    links: bool = True,
    text: bool = True,
    threads: int = 0,
    **options: Any,
) -> "Pages[ArrowBatch]":
    """Deprecated: ``process(paths, output="capsules", ...)``."""
    _deprecated("process_batches(paths, ...)", 'process(paths, output="capsules", ...)')
    return process(paths, output="capsules", links=links, text=text, threads=threads, **options)


def process_arrow(
    paths: "Union[_Path, _Iterable[_Path]]",
    links: bool = True,
    text: bool = True,
    threads: int = 0,
    **options: Any,
) -> "Pages[_pyarrow.RecordBatch]":
    """Deprecated: ``process(paths, output="pyarrow", ...)``."""
    _deprecated("process_arrow(paths, ...)", 'process(paths, output="pyarrow", ...)')
    return process(paths, output="pyarrow", links=links, text=text, threads=threads, **options)


__all__ = [
    "COLUMNS",
    "MAIN_TEXT_COLUMNS",
    "METADATA_COLUMNS",
    "PGO",
    "PGO_FALLBACK",
    "Alternate",
    "Article",
    "ArrowBatch",
    "ArrowBatches",
    "Counts",
    "Document",
    "EncodingCounts",
    "Fields",
    "Href",
    "Link",
    "Metadata",
    "Node",
    "NodeIterator",
    "NodeType",
    "Output",
    "Page",
    "PageKind",
    "Pages",
    "ParseErrorTuple",
    "ProcessOptions",
    "QualifiedLink",
    "Refresh",
    "Robots",
    "Selector",
    "State",
    "Stats",
    "Token",
    "TokenCounts",
    "TokenIterator",
    "TokenType",
    "Tokens",
    "Tree",
    "__version__",
    "extract",
    "parse",
    "parse_fragment",
    "process",
    "process_arrow",
    "process_batches",
    "process_ipc",
    "tokenize",
    "warc",
]
