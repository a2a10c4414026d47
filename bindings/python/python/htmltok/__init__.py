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

CSS selectors on the tree (elements as Node views; parsel's ``::text`` and
``::attr(name)`` give strings)::

    tree.select("article a[href]")        # [Node, ...] in document order
    tree.select("a[href]::attr(href)")    # ["/a", "/b"]
    tree.select_one("title::text")        # the first, or None
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
    for batch in htmltok.process_arrow(["crawl.warc.gz"]):   # needs pyarrow
        batch.num_rows, batch.column("url")

Contents:

- ``tokenize(data, *, errors, simulation, scripting, state, last_start_tag)`` -> ``Tokens``
- ``Tokens``: a sequence of ``Token`` (lazy views; ``.errors`` with ``errors=True``)
- ``Document(data, http_charset=None, url=None)``: ``links()``, ``text()``, ``stats()``,
  ``tokenize()``, ``title``, ``encoding``, ``encoding_rule``
- ``parse(data, *, scripting, http_charset, url)`` -> ``Tree`` of ``Node`` views;
  ``parse_fragment(data, context)``; ``Document.tree()``
- ``Tree.select(css)`` / ``select_one``, ``Node.select(css)`` / ``select_one``;
  ``Selector(css)``
- ``extract(data, fields, *, http_charset)`` -> ``dict[str, list[str]]``; ``Fields(dict)``;
  ``Tree.extract(fields)``
- ``warc.ArchiveIterator(path_or_file)`` -> ``warc.WarcRecord``
- ``process(paths, links=True, text=True, threads=0)`` -> ``Pages`` of dicts
- ``process_arrow(...)`` -> ``pyarrow.RecordBatch`` iterator; ``process_batches(...)`` -> the
  same batches as ``ArrowBatch`` objects of the Arrow PyCapsule interface (for polars,
  DuckDB, ...); ``process_ipc(...)`` -> as Arrow IPC stream ``bytes`` (no Arrow library)
- ``htmltok.ray.extract(batch, ...)``: a ``pyarrow`` batch with a column ``html`` in, the
  same batch with the extraction columns added (``title``, ``main_text``, ...) out: for
  Ray Data's ``map_batches`` and Spark's ``mapInArrow``
- ``htmltok.datatrove.Htmltok`` (an extractor) and ``htmltok.datatrove.WarcReader`` (a
  reader whose documents hold the main text already): for datatrove pipelines

Every call that does real work releases the GIL, so threads run in parallel.
"""

from ._htmltok import (
    MAIN_TEXT_COLUMNS,
    METADATA_COLUMNS,
    Document,
    Fields,
    Selector,
    Node,
    NodeIterator,
    Pages,
    Token,
    TokenIterator,
    Tokens,
    Tree,
    PGO,
    PGO_FALLBACK,
    __version__,
    extract,
    parse,
    parse_fragment,
    process,
    process_batches,
    process_ipc,
    tokenize,
)
from . import warc


class ArrowBatches:
    """The iterator ``process_arrow`` returns: ``pyarrow.RecordBatch`` objects taken over
    without a copy (the Arrow C data interface) from the batches of a ``process_batches``
    run. ``errors``, ``documents``, ``ignored``, ``counts`` and ``close()`` are those of the
    run (see ``Pages``)."""

    def __init__(self, pages, pyarrow):
        self._pages = pages
        self._pa = pyarrow

    def __iter__(self):
        return self

    def __next__(self):
        return self._pa.record_batch(next(self._pages))

    @property
    def errors(self):
        return self._pages.errors

    @property
    def documents(self):
        return self._pages.documents

    @property
    def ignored(self):
        return self._pages.ignored

    @property
    def counts(self):
        return self._pages.counts

    def close(self):
        self._pages.close()

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self._pages.close()


def process_arrow(paths, links=True, text=True, threads=0, **options):
    """Like ``process``, but yields ``pyarrow.RecordBatch`` objects of up to
    ``batch_rows`` pages (default 1024; fewer when their strings reach ``batch_bytes``,
    default 4 MiB) with the columns of ``htmltok.spark.SCHEMA``:
    built and encoded in Rust with the GIL released, read by pyarrow without a copy.
    Needs pyarrow 14 or later. Keyword options: those of ``process_ipc`` (``base``, ``data_urls``, ``all_files``,
    ``all_records``, ``batch_rows``, ``batch_bytes``, ``fields``, ``main_text``,
    ``main_markdown``, ``metadata``: with ``main_text=True`` the ``MAIN_TEXT_COLUMNS``
    follow (``main_text`` and ``main_kind`` strings, ``main_confidence`` a float32);
    with ``main_markdown=True`` the ``main_markdown`` string column; with ``metadata=True`` the ``METADATA_COLUMNS`` follow, typed: strings,
    structs and lists of structs). Needs pyarrow."""
    try:
        import pyarrow
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("htmltok.process_arrow needs pyarrow (pip install pyarrow); "
                          "htmltok.process_ipc gives the same batches as Arrow IPC bytes") from err
    return ArrowBatches(process_batches(paths, links, text, threads, **options), pyarrow)

__all__ = [
    "MAIN_TEXT_COLUMNS",
    "METADATA_COLUMNS",
    "Document",
    "Fields",
    "Selector",
    "Node",
    "NodeIterator",
    "Pages",
    "Token",
    "TokenIterator",
    "Tokens",
    "Tree",
    "__version__",
    "PGO",
    "PGO_FALLBACK",
    "ArrowBatches",
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
