"""Reading WARC files (``.warc``, ``.warc.gz``, ``.warc.zst`` and ``.warc.lz4``) and ARC
files (``.arc``, ``.arc.gz``) with htmltok's Rust reader.

``ArchiveIterator(source)`` yields the ``response`` and ``resource`` records of a WARC or
ARC file as ``WarcRecord`` objects, with their offsets in the file (Common Crawl's
``warc_record_offset``/``warc_record_length``), target URI, HTTP headers and body (its
transfer and content codings undone; ``raw_body`` the bytes as stored when that changed
them)::

    from htmltok.warc import ArchiveIterator

    records = ArchiveIterator("CC-MAIN-example.warc.gz")
    for rec in records:
        print(rec.offset, rec.length, rec.url, len(rec.content))
        doc = rec.document()          # decoded with the record's HTTP charset
    print(records.errors)             # [(file, offset, reason), ...]

A source that is not a WARC or ARC file by its first bytes (an HTML page, binary data)
raises ``ArchiveError`` (a ``ValueError``) at once. A damaged record does not stop the
iteration: a record that cannot be read is reported in ``errors``, one cut off or with a
wrong length is yielded with what could be read (``rec.damage`` says how), and reading
resumes at the next record; ``strict=True`` raises ``ArchiveError`` at the first damage
instead. What decoding the body
met is in ``rec.payload_notes`` (reasons) and ``rec.body_error``; ``rec.format`` is
``"warc"`` or ``"arc"``, ``rec.warc_truncated`` the WARC-Truncated field.
"""

from ._htmltok import ArchiveError, ArchiveIterator, WarcRecord

__all__ = ["ArchiveError", "ArchiveIterator", "WarcRecord"]
