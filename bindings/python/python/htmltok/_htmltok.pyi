"""Type stubs of htmltok._htmltok, the native module (its names re-exported by htmltok)."""

import os
from types import GenericAlias
from typing import Any, BinaryIO, Dict, Generic, Iterable, Iterator, List, Literal, Optional, Sequence, Tuple, TypeVar, TypedDict, Union, final, overload

import pyarrow
from typing_extensions import Self, Unpack, deprecated

from ._types import (
    Article,
    Counts,
    Link,
    Metadata,
    NodeType,
    Page,
    ParseErrorTuple,
    State,
    Stats,
    TokenType,
)

__version__: str
#: True when this extension was built with profile-guided optimization (what
#: `pip install ./bindings/python` builds where llvm-profdata is found; HTMLTOK_PGO=0 opts out).
PGO: bool
#: Why the build backend made the plain build instead (no llvm-profdata, HTMLTOK_PGO=0, a
#: failed PGO step); None for a PGO build and for builds not made by the backend.
PGO_FALLBACK: Optional[str]
#: The columns of process(output="ipc"/"capsules"/"pyarrow"), the Spark job and
#: `htmltok extract --format parquet`.
COLUMNS: List[str]
#: The metadata columns of process(metadata=True) and the Spark job.
METADATA_COLUMNS: List[str]
#: The columns main_text=True adds (main_text, main_kind, main_confidence).
MAIN_TEXT_COLUMNS: List[str]
#: The metadata columns as a Spark DDL fragment (htmltok.spark.schema).
METADATA_SPARK_SCHEMA: str

__all__ = [
    "__version__",
    "PGO",
    "PGO_FALLBACK",
    "COLUMNS",
    "METADATA_COLUMNS",
    "MAIN_TEXT_COLUMNS",
    "METADATA_SPARK_SCHEMA",
    "tokenize",
    "Tokens",
    "Token",
    "TokenIterator",
    "Document",
    "ArchiveError",
    "ArchiveIterator",
    "WarcRecord",
    "ProcessOptions",
    "process",
    "ArrowBatch",
    "Pages",
    "extract_batch",
    "Tree",
    "Node",
    "NodeIterator",
    "parse",
    "parse_fragment",
    "Selector",
    "Fields",
    "extract",
]

_Bytes = Union[bytes, bytearray, memoryview]
_Path = Union[str, "os.PathLike[str]"]
_Inputs = Union[_Path, Iterable[_Path]]
_T_co = TypeVar("_T_co", covariant=True)

def tokenize(
    data: _Bytes,
    *,
    errors: bool = False,
    simulation: bool = True,
    scripting: bool = True,
    state: Optional[State] = None,
    last_start_tag: Optional[str] = None,
) -> Tokens:
    """Tokenize an HTML document (bytes read as UTF-8) into a sequence of lazy Tokens."""

@final
class Token:
    """One token, a lazy view of its Tokens sequence."""
    @property
    def type(self) -> TokenType: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def index(self) -> int: ...
    @property
    def raw(self) -> bytes: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def attrs(self) -> Optional[List[Tuple[str, str]]]: ...
    @property
    def self_closing(self) -> bool: ...
    @property
    def text(self) -> Optional[str]: ...
    @property
    def text_kind(self) -> Optional[Literal["data", "rcdata", "rawtext", "script", "plaintext", "cdata"]]: ...
    @property
    def data(self) -> Optional[str]: ...
    @property
    def public_id(self) -> Optional[str]: ...
    @property
    def system_id(self) -> Optional[str]: ...
    @property
    def force_quirks(self) -> bool: ...
    def to_dict(self) -> Dict[str, Any]: ...

@final
class TokenIterator(Iterator[Token]):
    def __iter__(self) -> TokenIterator: ...
    def __next__(self) -> Token: ...
    def __length_hint__(self) -> int: ...

@final
class Tokens:
    """A document's tokens: len, indexing, slicing (to a list), iteration."""
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> Token: ...
    @overload
    def __getitem__(self, index: slice, /) -> List[Token]: ...
    def __iter__(self) -> TokenIterator: ...
    @property
    def errors(self) -> List[ParseErrorTuple]: ...
    @property
    def input(self) -> bytes: ...

@final
class Document:
    """An HTML page decoded as a browser decodes it, with its links, text and counts."""
    def __new__(cls, data: _Bytes, http_charset: Optional[str] = None, url: Optional[str] = None) -> Self: ...
    @property
    def encoding(self) -> str: ...
    @property
    def encoding_rule(self) -> Literal["bom", "transport", "meta", "late-meta", "detector", "default"]: ...
    @property
    def had_replacements(self) -> bool: ...
    @property
    def url(self) -> Optional[str]: ...
    @property
    def title(self) -> Optional[str]: ...
    @property
    def html_text(self) -> str: ...
    @property
    def html_bytes(self) -> bytes: ...
    @overload
    def links(
        self,
        base: Optional[str] = None,
        data_urls: bool = False,
        *,
        elements: Optional[Iterable[str]] = None,
        urls: Literal[False] = False,
    ) -> List[Link]: ...
    @overload
    def links(
        self,
        base: Optional[str] = None,
        data_urls: bool = False,
        *,
        elements: Optional[Iterable[str]] = None,
        urls: Literal[True],
    ) -> List[str]: ...
    def text(self) -> str: ...
    def stats(self, errors: bool = False) -> Stats: ...
    def tokenize(
        self,
        *,
        errors: bool = False,
        simulation: bool = True,
        scripting: bool = True,
        state: Optional[State] = None,
        last_start_tag: Optional[str] = None,
    ) -> Tokens: ...
    def tree(self, *, scripting: bool = False, context: Optional[str] = None) -> Tree:
        """The page's tree (see parse); with context ('td', 'svg path'), a fragment."""
    def main_text(
        self,
        *,
        format: Literal["text", "markdown"] = "text",
        links: bool = True,
        images: bool = True,
        url: Optional[str] = None,
    ) -> str:
        """self.tree().main_text(...) (the tree parsed for it and dropped)."""
    def markdown(
        self,
        *,
        links: bool = True,
        images: bool = True,
        noscript: bool = False,
        url: Optional[str] = None,
    ) -> str:
        """self.tree().markdown(...) (the tree parsed for it and dropped)."""
    def metadata(self, url: Optional[str] = None) -> Metadata:
        """self.tree().metadata(url); url defaults to the document's."""

@final
class Node:
    """A node of a Tree: a view (the tree and the node's id), made when asked for."""
    @property
    def id(self) -> int: ...
    @property
    def tree(self) -> Tree: ...
    @property
    def type(self) -> NodeType: ...
    @property
    def name(self) -> Optional[str]:
        """An element's local name ('div', 'foreignObject'); None for other nodes."""
    @property
    def namespace(self) -> Optional[Literal["html", "svg", "math"]]: ...
    @property
    def attrs(self) -> Dict[str, str]:
        """An element's attributes in source order, decoded ('xlink:href' for foreign ones)."""
    def attr(self, name: str, default: Any = None) -> Any: ...
    def text(self) -> str:
        """A text node's text, a comment's data; for others their descendants' text."""
    @property
    def children(self) -> List[Node]: ...
    @property
    def parent(self) -> Optional[Node]: ...
    @property
    def next_sibling(self) -> Optional[Node]: ...
    @property
    def template_contents(self) -> Optional[Node]: ...
    def descendants(self) -> NodeIterator:
        """Every node below this one in document order (iterative at any depth)."""
    @property
    def span(self) -> Tuple[int, int]:
        """Byte offsets in the decoded page (tree.document.html_bytes, UTF-8)."""
    @property
    def end_span(self) -> Optional[Tuple[int, int]]: ...
    @property
    def html(self) -> str:
        """outerHTML (HTML 13.3), by the tree's serializer."""
    @property
    def inner_html(self) -> str: ...
    def select(self, css: Union[str, Selector]) -> List[Node]:
        """The descendants matching ``css`` (a str or a compiled Selector) in document
        order, as Node views (matched against the whole tree, ``:scope`` being this node,
        as querySelectorAll). Template contents are not searched. ValueError for a
        selector that does not parse (before anything is matched). The GIL is released
        while matching. (Deprecated: a selector ending in ``::text`` / ``::attr(name)``
        gives getall()'s strings, with a DeprecationWarning.)"""
    def select_one(self, css: Union[str, Selector]) -> Optional[Node]:
        """The first of select(css), or None."""
    def getall(self, css: Union[str, Selector]) -> List[str]:
        """The strings ``css`` gives below this node, in document order (parsel's
        ``getall``): with ``::text`` each matched element's own text-node children, with
        ``::attr(name)`` each matched element's value of that attribute (elements without
        it skipped), without a pseudo-element each matched element's outer HTML."""
    @overload
    def get(self, css: Union[str, Selector], default: None = None) -> Optional[str]:
        """The first of getall(css), else default (parsel's ``get``)."""
    @overload
    def get(self, css: Union[str, Selector], default: str) -> str: ...

@final
class NodeIterator(Iterator[Node]):
    def __iter__(self) -> NodeIterator: ...
    def __next__(self) -> Node: ...

@final
class Tree:
    """A page's tree (WHATWG tree construction); nodes are Node views over its arena."""
    @property
    def document(self) -> Document:
        """The decoded page the tree was parsed from (spans are offsets into its html_bytes)."""
    @property
    def root(self) -> Node: ...
    @property
    def fragment_root(self) -> Optional[Node]: ...
    @property
    def document_element(self) -> Optional[Node]: ...
    @property
    def head(self) -> Optional[Node]: ...
    @property
    def body(self) -> Optional[Node]: ...
    @property
    def title(self) -> Optional[str]: ...
    @property
    def quirks_mode(self) -> Literal["no-quirks", "limited-quirks", "quirks"]: ...
    @property
    def html(self) -> str: ...
    def node(self, id: int) -> Node: ...
    def to_test_format(self) -> str:
        """The html5lib tree-construction test format (`| <html>` ...)."""
    def __len__(self) -> int: ...
    def select(self, css: Union[str, Selector]) -> List[Node]:
        """The elements matching ``css`` (a str or a compiled Selector) in document order,
        as Node views. Template contents are not searched. ValueError for a selector that
        does not parse (before anything is matched). The GIL is released while matching.
        (Deprecated: a selector ending in ``::text`` / ``::attr(name)`` gives getall()'s
        strings, with a DeprecationWarning.)"""
    def select_one(self, css: Union[str, Selector]) -> Optional[Node]:
        """The first of select(css), or None."""
    def getall(self, css: Union[str, Selector]) -> List[str]:
        """The strings ``css`` gives, in document order (parsel's ``getall``): with
        ``::text`` each matched element's own text-node children (not its descendants'),
        with ``::attr(name)`` each matched element's value of that attribute (elements
        without it skipped), without a pseudo-element each matched element's outer HTML
        (as ``extract`` gives them)."""
    @overload
    def get(self, css: Union[str, Selector], default: None = None) -> Optional[str]:
        """The first of getall(css), else default (parsel's ``get``)."""
    @overload
    def get(self, css: Union[str, Selector], default: str) -> str: ...
    def extract(self, fields: Union[Dict[str, str], Fields]) -> Dict[str, List[str]]:
        """htmltok.extract's columns on this tree (every field matched in one walk)."""
    # Page content (htmltok-content, issue #27).
    def main_text(
        self,
        *,
        format: Literal["text", "markdown"] = "text",
        links: bool = True,
        images: bool = True,
        url: Optional[str] = None,
    ) -> str:
        """The article's text without menus, footers, comments, banners and link lists;
        paragraphs set apart by a blank line ('' for a page without text). With
        format="markdown", the same blocks as GitHub-flavoured Markdown (see markdown();
        links resolved against url, default the document's). ValueError for another
        format or a url that is not absolute."""
    def markdown(
        self,
        *,
        links: bool = True,
        images: bool = True,
        noscript: bool = False,
        url: Optional[str] = None,
    ) -> str:
        """The visible page as GitHub-flavoured Markdown: headings, paragraphs, lists,
        block quotes, fenced code blocks (each <pre>'s text exactly), tables, links and
        images (each optional; resolved against url, default the document's), math as
        TeX where the page has it; hidden content left out. ValueError for a url that
        is not absolute."""
    def article(self) -> Article:
        """main_text() with the title, byline and date read beside it, the page's kind
        and the text's confidence (a float in [0, 1])."""
    def metadata(self, url: Optional[str] = None) -> Metadata:
        """Metadata with crawler semantics; url (default: the document's) resolves
        relative URLs. ValueError when url is not absolute."""
    def visible_text(self, *, noscript: bool = False) -> str:
        """The visible text laid out (blocks, <br>, <pre>, tables; hidden content out)."""

def parse(
    data: Union[_Bytes, str],
    *,
    scripting: bool = False,
    http_charset: Optional[str] = None,
    url: Optional[str] = None,
) -> Tree:
    """The page's tree; bytes decoded as Document decodes them (a str is taken as it is),
    except that a declaring ``<meta>`` the 1024-byte prescan did not see is found by the
    tree builder as it meets it (one that names another encoding makes the page be decoded
    and parsed again, as a browser does), not by an extra pass over the tokens: so
    ``tree.document.encoding`` / ``encoding_rule`` are the tree's answer (they differ from
    ``Document(data)``'s only where the token pass is wrong, e.g. a ``<meta>`` after
    ``<frameset>``). The GIL is released while decoding and parsing."""

def parse_fragment(
    data: Union[_Bytes, str],
    context: str,
    *,
    scripting: bool = False,
    http_charset: Optional[str] = None,
    url: Optional[str] = None,
) -> Tree:
    """A fragment parsed in the context of an element ('td', 'svg path', 'math mi')."""

@final
class Selector:
    """A CSS selector list compiled once, for select / select_one and getall / get on any
    number of trees and nodes:
    Selectors Level 3, and of Level 4 ``:is``, ``:where``, ``:not`` and ``:nth-child(An+B
    of S)`` with lists, ``:has``, the ``i`` / ``s`` attribute flags; an HTML document's
    case rules (quirks mode included). It may end in ``::text`` or ``::attr(name)``.
    ValueError for a selector that does not parse (where it fails, what was expected)."""
    def __new__(cls, css: str) -> Self: ...
    @property
    def source(self) -> str: ...
    @property
    def gives(self) -> Literal["elements", "text", "attr"]:
        """What the selector picks: elements, or strings from ``::text`` / ``::attr(name)``
        (for getall / get)."""
    def matches(self, node: Node) -> bool:
        """Whether node is an element the selector matches (in its whole tree)."""

@final
class Fields:
    """Named CSS selectors compiled once: ``Fields({"title": "title::text", "links":
    "a[href]::attr(href)"})``. Each ends in ``::text`` (the matched elements' own text
    nodes, one string each), ``::attr(name)`` (the attribute's value) or nothing (the
    element's outer HTML). ValueError for a selector that does not parse (where it fails,
    what was expected)."""
    def __new__(cls, fields: Dict[str, str]) -> Self: ...
    @property
    def names(self) -> List[str]: ...
    def __len__(self) -> int: ...

def extract(
    data: Union[_Bytes, str],
    fields: Union[Dict[str, str], Fields],
    *,
    http_charset: Optional[str] = None,
) -> Dict[str, List[str]]:
    """One list of strings per field, in document order, every field matched in one walk
    of the page's tree (bytes decoded as ``parse`` decodes them; a str taken as it is).
    The GIL is released."""


@final
class ProcessOptions:
    """The options of a process() run, checked when made: ValueError for a base that is
    not an absolute URL, a field selector that does not parse or a field named as a
    column, a negative threads, batch_rows below 1. Immutable (replace() makes a changed
    copy), compared by value, picklable."""
    def __new__(
        cls,
        *,
        links: bool = True,
        text: bool = True,
        threads: int = 0,
        base: Optional[str] = None,
        data_urls: bool = False,
        link_urls: bool = False,
        all_files: bool = False,
        all_records: bool = False,
        fields: Optional[Union[Dict[str, str], Fields]] = None,
        main_text: bool = False,
        main_markdown: bool = False,
        metadata: bool = False,
        batch_rows: int = 1024,
        batch_bytes: int = 4 << 20,
    ) -> Self: ...
    @property
    def links(self) -> bool:
        """Each page's links (link dicts, or their URLs with link_urls; the Arrow outputs'
        links column is the URLs); None without."""
    @property
    def text(self) -> bool:
        """Each page's visible text (as Document.text()); None without."""
    @property
    def threads(self) -> int:
        """Worker threads (0: one per core). Pages come in no fixed order (with 1, in the
        order of the inputs)."""
    @property
    def base(self) -> Optional[str]:
        """The URL to resolve the links of documents without a URL of their own against."""
    @property
    def data_urls(self) -> bool:
        """Keep data: URLs among the links."""
    @property
    def link_urls(self) -> bool:
        """The dicts' links as their resolved URLs (str) instead of link dicts: much cheaper."""
    @property
    def all_files(self) -> bool:
        """Every file of a folder, not only HTML and archive names."""
    @property
    def all_records(self) -> bool:
        """Every archive record, not only HTML responses and resources."""
    @property
    def fields(self) -> Optional[Union[Dict[str, str], Fields]]:
        """Named CSS selectors: one list of strings per field and page, as extract()
        gives them (a copy of the dict given)."""
    @property
    def main_text(self) -> bool:
        """The MAIN_TEXT_COLUMNS: main_text, main_kind, main_confidence (as Tree.article())."""
    @property
    def main_markdown(self) -> bool:
        """main_markdown: the main text as Markdown (as Tree.main_text(format="markdown"))."""
    @property
    def metadata(self) -> bool:
        """The METADATA_COLUMNS (as `htmltok extract --metadata` writes them)."""
    @property
    def batch_rows(self) -> int:
        """The Arrow outputs' rows per batch, at most."""
    @property
    def batch_bytes(self) -> int:
        """The Arrow outputs' batch ends once its strings reach so many bytes (4 MiB)."""
    def replace(self, **changes: Unpack[_ProcessKeywords]) -> ProcessOptions:
        """A copy with the given options changed."""
    def __replace__(self, **changes: Unpack[_ProcessKeywords]) -> ProcessOptions: ...
    def to_dict(self) -> Dict[str, Any]:
        """The options as keywords: ProcessOptions(**options.to_dict()) == options."""
    def __getnewargs_ex__(self) -> Tuple[Tuple[()], Dict[str, Any]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

class _ProcessKeywords(TypedDict, total=False):
    links: bool
    text: bool
    threads: int
    base: Optional[str]
    data_urls: bool
    link_urls: bool
    all_files: bool
    all_records: bool
    fields: Optional[Union[Dict[str, str], Fields]]
    main_text: bool
    main_markdown: bool
    metadata: bool
    batch_rows: int
    batch_bytes: int

@final
class ArrowBatch:
    """One record batch of process(output="capsules"): the Arrow PyCapsule interface
    (pyarrow.record_batch(b), polars.DataFrame(b), DuckDB, nanoarrow)."""
    @property
    def num_rows(self) -> int: ...
    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...

@final
class Pages(Iterator[_T_co], Generic[_T_co]):
    """The iterator process() returns: Page dicts, IPC bytes, ArrowBatch objects or
    pyarrow.RecordBatch objects, as its output says. errors, documents (pages, not
    batches), ignored and counts describe the run; close() (or dropping the iterator)
    stops it."""
    def __class_getitem__(cls, item: Any) -> GenericAlias: ...
    def __iter__(self) -> Pages[_T_co]: ...
    def __next__(self) -> _T_co: ...
    def __enter__(self) -> Pages[_T_co]: ...
    def __exit__(self, *args: object) -> None: ...
    def close(self) -> None: ...
    @property
    def errors(self) -> List[Tuple[str, Optional[int], str]]:
        """The inputs that could not be read, as (file, offset, reason); complete once
        the iteration has ended."""
    @property
    def documents(self) -> int: ...
    @property
    def ignored(self) -> int: ...
    @property
    def counts(self) -> Optional[Counts]: ...

@overload
def process(
    inputs: _Inputs,
    options: Optional[ProcessOptions] = None,
    *,
    output: Literal["dicts"] = "dicts",
    **keywords: Unpack[_ProcessKeywords],
) -> Pages[Page]:
    """Files, folders and WARC/ARC files read in parallel in Rust (the GIL released): one
    Page dict per document (output="dicts"), or record batches of pages as Arrow IPC
    bytes ("ipc"), ArrowBatch capsule objects ("capsules") or pyarrow.RecordBatch
    objects ("pyarrow"). The options as a ProcessOptions or as its keywords, not both."""
@overload
def process(
    inputs: _Inputs,
    options: Optional[ProcessOptions] = None,
    *,
    output: Literal["ipc"],
    **keywords: Unpack[_ProcessKeywords],
) -> Pages[bytes]: ...
@overload
def process(
    inputs: _Inputs,
    options: Optional[ProcessOptions] = None,
    *,
    output: Literal["capsules"],
    **keywords: Unpack[_ProcessKeywords],
) -> Pages[ArrowBatch]: ...
@overload
def process(
    inputs: _Inputs,
    options: Optional[ProcessOptions] = None,
    *,
    output: Literal["pyarrow"],
    **keywords: Unpack[_ProcessKeywords],
) -> Pages[pyarrow.RecordBatch]: ...
@overload
@deprecated("process(paths, links, text, threads): pass links, text and threads as keywords")
def process(
    inputs: _Inputs,
    options: bool,
    *args: Union[bool, int],
    output: Literal["dicts"] = "dicts",
    **keywords: Unpack[_ProcessKeywords],
) -> Pages[Page]: ...

def extract_batch(
    html: Any,
    charsets: Optional[Sequence[Optional[str]]] = None,
    urls: Optional[Sequence[Optional[str]]] = None,
    *,
    decoded: bool = False,
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
) -> ArrowBatch:
    """The extraction columns of a batch of HTML documents in memory (htmltok.ray.extract
    uses it)."""

# htmltok.warc's classes.

class ArchiveError(ValueError): ...

@final
class WarcRecord:
    @property
    def format(self) -> Literal["warc", "arc"]: ...
    @property
    def offset(self) -> int: ...
    @property
    def length(self) -> Optional[int]: ...
    @property
    def type(self) -> str: ...
    @property
    def url(self) -> Optional[str]: ...
    @property
    def date(self) -> Optional[str]: ...
    @property
    def record_id(self) -> Optional[str]: ...
    @property
    def ip_address(self) -> Optional[str]: ...
    @property
    def http_status(self) -> Optional[int]: ...
    @property
    def http_headers(self) -> List[Tuple[str, str]]: ...
    @property
    def content_type(self) -> Optional[str]: ...
    @property
    def charset(self) -> Optional[str]: ...
    @property
    def transfer_encoding(self) -> Optional[str]: ...
    @property
    def content_encoding(self) -> Optional[str]: ...
    @property
    def payload_notes(self) -> List[str]: ...
    @property
    def body_error(self) -> Optional[str]: ...
    @property
    def warc_truncated(self) -> Optional[str]: ...
    @property
    def damage(self) -> Optional[str]: ...
    @property
    def content(self) -> bytes: ...
    @property
    def raw_body(self) -> Optional[bytes]: ...
    def document(self) -> Document: ...
    def header(self, name: str) -> Optional[str]: ...

@final
class ArchiveIterator(Iterator[WarcRecord]):
    def __new__(
        cls,
        source: Union[str, "os.PathLike[str]", BinaryIO],
        *,
        resources: bool = True,
        threads: int = 1,
        strict: bool = False,
    ) -> Self: ...
    def __iter__(self) -> ArchiveIterator: ...
    def __next__(self) -> WarcRecord: ...
    @property
    def errors(self) -> List[Tuple[str, int, str]]: ...
    @property
    def name(self) -> str: ...
