"""Type stubs of htmltok.ray."""

from typing import Dict, Optional, TypeVar, Union

import pyarrow

from . import Fields

__all__ = ["extract", "HTML", "CHARSET", "URL", "ERROR"]

_Batch = TypeVar("_Batch", pyarrow.RecordBatch, pyarrow.Table)

#: The default name of the column of the HTML (binary or string).
HTML: str
#: The default name of the column of the HTTP charset of each row's bytes.
CHARSET: str
#: The default name of the column of each row's URL.
URL: str
#: The column errors=True adds: null for a row read, else why it has no document.
ERROR: str

def extract(
    batch: _Batch,
    *,
    html: str = "html",
    charset: str = "charset",
    url: str = "url",
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
    """batch with the extraction columns of its html column added (title, then the
    columns asked for: encoding, links, text, fields, main_text/main_kind/main_confidence
    by default, main_markdown, htmltok.METADATA_COLUMNS, extract_error). ValueError when
    the html column is missing or a column to be added exists; TypeError for a batch
    that is not a pyarrow.RecordBatch or pyarrow.Table, or an html column that is not
    binary or string."""
