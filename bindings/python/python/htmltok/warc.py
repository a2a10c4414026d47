"""Reading WARC files (``.warc``, ``.warc.gz``, ``.warc.zst`` and ``.warc.lz4``) with htmltok's Rust reader.

``ArchiveIterator(source)`` yields the ``response`` and ``resource`` records of a WARC
file as ``WarcRecord`` objects, with their offsets in the file (Common Crawl's
``warc_record_offset``/``warc_record_length``), target URI, HTTP headers and body::

    from htmltok.warc import ArchiveIterator

    records = ArchiveIterator("CC-MAIN-example.warc.gz")
    for rec in records:
        print(rec.offset, rec.length, rec.url, len(rec.content))
        doc = rec.document()          # decoded with the record's HTTP charset
    print(records.errors)             # [(file, offset, reason), ...]

A damaged record does not stop the iteration: it is reported in ``errors`` and reading
resumes at the next record.
"""

from ._htmltok import ArchiveIterator, WarcRecord

__all__ = ["ArchiveIterator", "WarcRecord"]
