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

WARC files::

    for rec in htmltok.warc.ArchiveIterator("crawl.warc.gz"):
        rec.offset, rec.length, rec.url, rec.http_headers, rec.content
        doc = rec.document()

Many files, folders and WARC files at once, on every core (the GIL released)::

    for page in htmltok.process(["crawl.warc.gz", "pages/"], threads=0):
        page["warc_filename"], page["warc_record_offset"], page["url"], page["links"]

Contents:

- ``tokenize(data, *, errors, simulation, scripting, state, last_start_tag)`` -> ``Tokens``
- ``Tokens``: a sequence of ``Token`` (lazy views; ``.errors`` with ``errors=True``)
- ``Document(data, http_charset=None, url=None)``: ``links()``, ``text()``, ``stats()``,
  ``tokenize()``, ``title``, ``encoding``, ``encoding_rule``
- ``warc.ArchiveIterator(path_or_file)`` -> ``warc.WarcRecord``
- ``process(paths, links=True, text=True, threads=0)`` -> ``Pages`` of dicts

Every call that does real work releases the GIL, so threads run in parallel.
"""

from ._htmltok import (
    Document,
    Pages,
    Token,
    TokenIterator,
    Tokens,
    __version__,
    process,
    tokenize,
)
from . import warc

__all__ = [
    "Document",
    "Pages",
    "Token",
    "TokenIterator",
    "Tokens",
    "__version__",
    "process",
    "tokenize",
    "warc",
]
