"""Type stubs of htmltok.datatrove."""

from typing import Any, Callable, Dict, Literal, Optional, Tuple

from datatrove.data import DocumentsPipeline
from datatrove.io import DataFileLike, DataFolderLike
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.pipeline.readers.base import BaseDiskReader

__all__ = ["Htmltok", "WarcReader", "FORMATS"]

_Format = Literal["text", "markdown"]

#: The formats of the text: the main text as plain text, or as GitHub-flavoured Markdown.
FORMATS: Tuple[str, str]
#: How many unreadable records or files a reader logs (the stats count them all).
MAX_LOGGED_FAILURES: int

class Htmltok(BaseExtractor):
    """htmltok's extractor: each document's HTML replaced by its main text (or Markdown),
    in the pipeline's own process."""

    name: str
    format: _Format
    links: bool
    images: bool
    def __init__(self, format: _Format = "text", links: bool = True, images: bool = True, timeout: float = 1) -> None: ...
    def extract(self, text: str, url: Optional[str] = None) -> str:
        """The main text (or Markdown, links resolved against url) of the page text."""
    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline: ...

class WarcReader(BaseDiskReader):
    """WARC and ARC files read by htmltok's Rust reader: one Document per HTML record,
    its text the main text (or Markdown), its metadata htmltok's reading of the page."""

    name: str
    compression: Optional[str]
    format: _Format
    metadata: bool
    threads: int
    def __init__(
        self,
        data_folder: DataFolderLike,
        paths_file: Optional[DataFileLike] = None,
        compression: Optional[str] = "infer",
        limit: int = -1,
        skip: int = 0,
        file_progress: bool = False,
        doc_progress: bool = False,
        adapter: Optional[Callable[..., Any]] = None,
        text_key: str = "text",
        id_key: str = "id",
        default_metadata: Optional[Dict[str, Any]] = None,
        recursive: bool = True,
        glob_pattern: Optional[str] = None,
        shuffle_files: bool = False,
        *,
        format: _Format = "text",
        metadata: bool = False,
        threads: int = 1,
    ) -> None: ...
    def read_file(self, filepath: str) -> DocumentsPipeline: ...
