"""htmltok in datatrove pipelines: an extractor and a WARC reader.

``Htmltok`` is a datatrove extractor (a ``BaseExtractor``): it replaces each document's
HTML by its main text, or by the main text as GitHub-flavoured Markdown, in place of
datatrove's ``Trafilatura``::

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from htmltok.datatrove import Htmltok

    LocalPipelineExecutor(pipeline=[
        WarcReader("crawl/", glob_pattern="*.warc.gz"),
        Htmltok(format="markdown"),
        JsonlWriter("out/"),
    ], tasks=4).run()

``WarcReader`` is a datatrove reader (a ``BaseDiskReader``: data folders, ``paths_file``,
sharding between tasks, ``limit``, ``skip``, ``glob_pattern``, adapters, as datatrove's
own readers) that reads WARC and ARC files with htmltok's Rust reader and gives each
HTML record as a ``Document`` whose text is the page's main text (or Markdown) already::

    from htmltok.datatrove import WarcReader

    LocalPipelineExecutor(pipeline=[
        WarcReader("crawl/", glob_pattern="*.warc.gz", format="markdown"),
        JsonlWriter("out/"),
    ], tasks=4).run()

It reads what ``htmltok.process`` reads — ``.warc``, ``.warc.gz``, ``.warc.zst``,
``.warc.lz4``, ``.arc``, ``.arc.gz``, told by their first bytes — and keeps every HTML
``response``/``resource`` record (by the HTTP Content-Type, else by the body's first
bytes, as the ``htmltok`` CLI does). Each page is decoded as a browser decodes it (byte
order mark, the record's HTTP charset, the ``<meta>`` prescan, then the detector), not
as UTF-8-else-cchardet; ``Document.metadata`` has ``url``, ``date`` (the WARC-Date) and
htmltok's reading of the page: ``title``, ``kind`` (the page's kind: article, forum,
product, ...), ``confidence`` (how likely the main text is what a person would keep, in
[0, 1]), ``encoding`` and ``encoding_rule``, ``status`` (HTTP), ``content_type``,
``warc_record_offset`` and ``warc_record_length``; with ``metadata=True`` also the
metadata columns ``htmltok.METADATA_COLUMNS`` (``canonical``, ``robots``,
``description``, ``open_graph``, ``lang``, ``hreflang``, ``json_ld``, ...), and
``file_path`` as datatrove's readers add it. ``Document.id`` is the WARC-Record-ID (an
ARC record, which has none: ``<file>/<offset>``).

Nothing is left out in silence: the reader's stats count the records that are not
documents by reason (``skipped_request``, ``skipped_not-html``, ``skipped_warcinfo``,
...), the records or files that could not be read (``failed_bad-gzip-member``,
``failed_unreadable``, ...; logged too), the documents read with a note
(``recovered_record-cut-off``, ...), and the pages without main text (``dropped``, as
datatrove's extractors count theirs). The extractor keeps the stats of datatrove's
``BaseExtractor``: ``total``, ``extracted``, ``forwarded``, ``dropped`` (no main text),
``clean_error``.

Needs datatrove (``pip install htmltok[datatrove]``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Callable, Literal, Optional

try:
    from datatrove.data import DocumentsPipeline
    from datatrove.pipeline.extractors.base import BaseExtractor
    from datatrove.pipeline.readers.base import BaseDiskReader
    from datatrove.utils.logging import logger
    from datatrove.utils.typeshelper import StatHints
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("htmltok.datatrove needs datatrove (pip install datatrove, "
                      "or pip install htmltok[datatrove])") from err

import htmltok

__all__ = ["Htmltok", "WarcReader", "FORMATS"]

#: The formats of the text: the main text as plain text (paragraphs apart), or as
#: GitHub-flavoured Markdown.
FORMATS = ("text", "markdown")

#: How many unreadable records or files a reader logs (the stats count them all).
MAX_LOGGED_FAILURES = 20


def _check_format(format: str) -> str:
    if format not in FORMATS:
        raise ValueError(f"format {format!r}: expected 'text' or 'markdown'")
    return format


class Htmltok(BaseExtractor):
    """htmltok's extractor: each document's HTML replaced by its main text
    (``Tree.main_text()``: the article without menus, footers, comments, banners and
    link lists; paragraphs apart), or with ``format="markdown"`` by the same blocks as
    GitHub-flavoured Markdown (headings, lists, tables, code, links and images, the
    links resolved against the document's ``metadata["url"]``; ``links=False`` or
    ``images=False`` leave them out). Documents whose page has no main text are
    dropped.

    Unlike datatrove's other extractors, it runs in the pipeline's own process: no
    sandbox subprocess per task, no pipe per document. Its extraction takes time linear
    in the page's size and holds no state between documents, so there is no hang to
    guard against; ``timeout`` is accepted for the signature datatrove's extractors
    share, and not used.

    Args:
        format: "text" (default) or "markdown".
        links: in Markdown, keep links (default True).
        images: in Markdown, keep images (default True).
        timeout: not used (see above).
    """

    name = "⛏ htmltok"

    def __init__(self, format: Literal["text", "markdown"] = "text", links: bool = True,
                 images: bool = True, timeout: float = 1):
        super().__init__(timeout)
        self.format = _check_format(format)
        self.links = links
        self.images = images
        self._warned_error = False

    def extract(self, text: str, url: Optional[str] = None) -> str:
        """The main text (or Markdown) of the page `text` (a str; bytes are decoded as a
        browser decodes them, as ``htmltok.parse`` does); Markdown links resolved
        against `url` when it is an absolute URL."""
        tree = htmltok.parse(text)
        if self.format == "text":
            return tree.main_text()
        try:
            return tree.main_text(format="markdown", links=self.links, images=self.images, url=url)
        except ValueError:  # a url that is not absolute: links left as written
            return tree.main_text(format="markdown", links=self.links, images=self.images)

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        """Each document extracted in this process, with the stats of datatrove's
        ``BaseExtractor.run``."""
        for doc in data:
            self.stat_update(StatHints.total)
            with self.track_time():
                try:
                    doc.text = self.extract(doc.text, doc.metadata.get("url"))
                    self.stat_update("extracted")
                except Exception as e:
                    self.stat_update("clean_error")
                    if not self._warned_error:
                        logger.warning(f'❌ Error "{e}" while extracting record text with htmltok. '
                                       f"Skipping record. This message will only appear once.")
                        self._warned_error = True
                    continue
            if doc.text:
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update(StatHints.dropped)


class WarcReader(BaseDiskReader):
    """Reads WARC and ARC files with htmltok's Rust reader: one ``Document`` per HTML
    record, its text the page's main text (``format="text"``) or Markdown
    (``format="markdown"``), decided in Rust; see the module documentation for the
    metadata, the id and the stats.

    The arguments are those of datatrove's ``WarcReader`` (``compression`` is accepted
    and not needed: the compression is told by the file's first bytes), and:

    Args:
        format: "text" (default) or "markdown".
        metadata: add ``htmltok.METADATA_COLUMNS`` to each document's metadata (canonical
            URL, robots directives, description, Open Graph, lang, hreflang, JSON-LD, ...;
            builds on the same tree, about 0.12x its cost).
        threads: Rust threads per task (default 1: datatrove runs one task per core).

    Files on a local file system are read in place; a file on another file system
    (``s3://``, ...) is copied to a temporary file first, then read and deleted.
    """

    name = "🕷 htmltok Warc"

    def __init__(
        self,
        data_folder,
        paths_file=None,
        compression: Optional[str] = "infer",
        limit: int = -1,
        skip: int = 0,
        file_progress: bool = False,
        doc_progress: bool = False,
        adapter: Optional[Callable] = None,
        text_key: str = "text",
        id_key: str = "id",
        default_metadata: Optional[dict] = None,
        recursive: bool = True,
        glob_pattern: Optional[str] = None,
        shuffle_files: bool = False,
        *,
        format: Literal["text", "markdown"] = "text",
        metadata: bool = False,
        threads: int = 1,
    ):
        self.compression = compression
        self.format = _check_format(format)
        self.metadata = metadata
        self.threads = threads
        super().__init__(
            data_folder,
            paths_file,
            limit,
            skip,
            file_progress,
            doc_progress,
            adapter,
            text_key,
            id_key,
            default_metadata,
            recursive,
            glob_pattern,
            shuffle_files,
        )
        self._logged_failures = 0

    def _local_copy(self, filepath: str) -> str:
        """`filepath` of a file system that is not local, copied to a temporary file."""
        fd, local = tempfile.mkstemp(prefix="htmltok-", suffix="-" + os.path.basename(filepath))
        with os.fdopen(fd, "wb") as out, self.data_folder.open(filepath, "rb") as source:
            shutil.copyfileobj(source, out, 1 << 20)
        return local

    def read_file(self, filepath: str):
        """The documents of one WARC or ARC file, as the pages of ``htmltok.process``."""
        local = self.data_folder.is_local()
        path = self.data_folder.resolve_paths(filepath) if local else self._local_copy(filepath)
        markdown = self.format == "markdown"
        key = "main_markdown" if markdown else "main_text"
        metadata_columns = htmltok.METADATA_COLUMNS if self.metadata else ()
        try:
            pages = htmltok.process(path, links=False, text=False, threads=self.threads, main_text=True,
                                    main_markdown=markdown, metadata=self.metadata)
            with pages:
                while True:
                    with self.track_time():
                        page = next(pages, None)
                        if page is None:
                            break
                        text = page[key]
                        if not text:
                            self.stat_update(StatHints.dropped)
                            continue
                        offset = page["warc_record_offset"]
                        data = {
                            "text": text,
                            "id": page["warc_record_id"] or f"{filepath}/{offset if offset is not None else 0}",
                            "url": page["url"],
                            "date": page["fetch_time"],
                            "title": page["title"],
                            "kind": page["main_kind"],
                            "confidence": page["main_confidence"],
                            "encoding": page["encoding"],
                            "encoding_rule": page["encoding_rule"],
                            "status": page["fetch_status"],
                            "content_type": page["content_mime_type"],
                            "warc_record_offset": offset,
                            "warc_record_length": page["warc_record_length"],
                        }
                        for name in metadata_columns:
                            data[name] = page[name]
                        document = self.get_document_from_dict(data, filepath, offset if offset is not None else 0)
                    if document:
                        yield document
                self._count(pages, filepath)
        finally:
            if not local:
                os.unlink(path)

    def _count(self, pages, filepath: str) -> None:
        """The run's counts as stats, its failures logged (up to MAX_LOGGED_FAILURES)."""
        counts = pages.counts or {}
        for group, prefix in (("skipped", "skipped_"), ("failures", "failed_"), ("recovered", "recovered_"),
                              ("passed_over", "passed_over_")):
            for reason, n in counts.get(group, {}).items():
                self.stat_update(prefix + reason, value=n, unit="input_file")
        errors = pages.errors
        # A missing or unreadable path is in errors, not counted by reason.
        unlisted = len(errors) - sum(counts.get("failures", {}).values())
        if unlisted > 0:
            self.stat_update("failed_unreadable", value=unlisted, unit="input_file")
        for file, offset, reason in errors:
            if self._logged_failures >= MAX_LOGGED_FAILURES:
                break
            self._logged_failures += 1
            where = filepath if offset is None else f"{filepath} at offset {offset}"
            logger.warning(f"htmltok: {where}: {reason} (counted in the stats; the reading goes on)")
