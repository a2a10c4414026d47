"""Type stubs of htmltok (the native module htmltok._htmltok, re-exported)."""

import os
from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, Tuple, TypedDict, Union, overload

from . import warc as warc

__version__: str
#: True when this extension was built with profile-guided optimization (what
#: `pip install ./bindings/python` builds where llvm-profdata is found; HTMLTOK_PGO=0 opts out).
PGO: bool
#: Why the build backend made the plain build instead (no llvm-profdata, HTMLTOK_PGO=0, a
#: failed PGO step); None for a PGO build and for builds not made by the backend.
PGO_FALLBACK: Optional[str]
#: The columns of process_arrow(), the Spark job and `htmltok extract --format parquet`.
COLUMNS: List[str]
#: The metadata columns of process(metadata=True), process_arrow and the Spark job.
METADATA_COLUMNS: List[str]
#: The columns main_text=True adds (main_text, main_kind, main_confidence).
MAIN_TEXT_COLUMNS: List[str]
#: The metadata columns as a Spark DDL fragment (htmltok.spark.schema).
METADATA_SPARK_SCHEMA: str

_Bytes = Union[bytes, bytearray, memoryview]
_Path = Union[str, "os.PathLike[str]"]
TokenType = Literal["StartTag", "EndTag", "Text", "Comment", "Doctype"]
State = Literal[
    "Data state",
    "PLAINTEXT state",
    "RCDATA state",
    "RAWTEXT state",
    "Script data state",
    "CDATA section state",
]
ParseErrorTuple = Tuple[str, int, int, int]
"""(code, byte offset, line, column)"""

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
    def to_dict(self) -> dict: ...

class TokenIterator(Iterator[Token]):
    def __iter__(self) -> TokenIterator: ...
    def __next__(self) -> Token: ...

class Tokens:
    """A document's tokens: len, indexing, slicing (to a list), iteration."""
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> Token: ...
    @overload
    def __getitem__(self, index: slice) -> List[Token]: ...
    def __iter__(self) -> TokenIterator: ...
    @property
    def errors(self) -> List[ParseErrorTuple]: ...
    @property
    def input(self) -> bytes: ...

class Link(TypedDict):
    element: str
    attribute: str
    url: str
    raw: str

class TokenCounts(TypedDict):
    total: int
    text: int
    start_tag: int
    end_tag: int
    comment: int
    doctype: int
    cdata: int

class EncodingCounts(TypedDict):
    by_rule: dict[str, int]
    by_encoding: dict[str, int]
    with_replacements: int

class Stats(TypedDict):
    tokens: TokenCounts
    tags: dict[str, int]
    encodings: EncodingCounts
    errors: Optional[dict[str, int]]

class Document:
    """An HTML page decoded as a browser decodes it, with its links, text and counts."""
    def __init__(self, data: _Bytes, http_charset: Optional[str] = None, url: Optional[str] = None) -> None: ...
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

NodeType = Literal["element", "text", "comment", "doctype", "document", "fragment"]

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
    def select(self, css: Union[str, Selector]) -> Union[List[Node], List[str]]:
        """The descendants matching ``css`` (a str or a compiled Selector) in document order,
        as Node views (matched against the whole tree,
        ``:scope`` being this node, as querySelectorAll). A selector ending in ``::text`` gives strings instead: each
        matched element's own text-node children (parsel's ``::text``); ``::attr(name)``
        each matched element's value of that attribute (elements without it skipped).
        Template contents are not searched. ValueError for a selector that does not
        parse (before anything is matched). The GIL is released while matching."""
    def select_one(self, css: Union[str, Selector]) -> Union[Node, str, None]:
        """The first of select(css), or None."""

class NodeIterator(Iterator[Node]):
    def __iter__(self) -> NodeIterator: ...
    def __next__(self) -> Node: ...

PageKind = Literal["article", "forum", "product", "collection", "listing", "documentation", "service", "other"]

class Article(TypedDict):
    text: str
    title: Optional[str]
    byline: Optional[str]
    date: Optional[str]
    kind: PageKind
    confidence: float

class Href(TypedDict):
    raw: str
    url: Optional[str]

class Robots(TypedDict):
    present: bool
    noindex: bool
    nofollow: bool
    noarchive: bool
    nosnippet: bool
    noimageindex: bool
    notranslate: bool
    indexifembedded: bool
    max_snippet: Optional[int]
    max_image_preview: Optional[Literal["none", "standard", "large"]]
    max_video_preview: Optional[int]
    unavailable_after: Optional[str]
    other: List[str]

class Alternate(Href):
    hreflang: str

class Refresh(TypedDict):
    delay: int
    raw: Optional[str]
    url: Optional[str]

class QualifiedLink(Href):
    element: Literal["a", "area"]
    offset: int
    nofollow: bool
    ugc: bool
    sponsored: bool

class Metadata(TypedDict):
    title: Optional[str]
    base_url: Optional[str]
    canonical: Optional[Href]
    robots: Robots
    googlebot: Robots
    description: Optional[str]
    open_graph: List[Tuple[str, str]]
    twitter: List[Tuple[str, str]]
    lang: Optional[str]
    content_language: Optional[str]
    language: Optional[str]
    alternates: List[Alternate]
    refresh: Optional[Refresh]
    json_ld: List[str]
    qualified_links: List[QualifiedLink]

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
    def select(self, css: Union[str, Selector]) -> Union[List[Node], List[str]]:
        """The elements matching ``css`` (a str or a compiled Selector) in document order,
        as Node views. A selector ending in ``::text`` gives strings instead: each
        matched element's own text-node children (parsel's ``::text``); ``::attr(name)``
        each matched element's value of that attribute (elements without it skipped).
        Template contents are not searched. ValueError for a selector that does not
        parse (before anything is matched). The GIL is released while matching."""
    def select_one(self, css: Union[str, Selector]) -> Union[Node, str, None]:
        """The first of select(css), or None."""
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

class Selector:
    """A CSS selector list compiled once, for select / select_one on any number of trees:
    Selectors Level 3, and of Level 4 ``:is``, ``:where``, ``:not`` and ``:nth-child(An+B
    of S)`` with lists, ``:has``, the ``i`` / ``s`` attribute flags; an HTML document's
    case rules (quirks mode included). It may end in ``::text`` or ``::attr(name)``.
    ValueError for a selector that does not parse (where it fails, what was expected)."""
    def __init__(self, css: str) -> None: ...
    @property
    def source(self) -> str: ...
    @property
    def gives(self) -> Literal["elements", "text", "attr"]:
        """What select gives: Nodes, or strings from ``::text`` / ``::attr(name)``."""
    def matches(self, node: Node) -> bool:
        """Whether node is an element the selector matches (in its whole tree)."""

class Fields:
    """Named CSS selectors compiled once: ``Fields({"title": "title::text", "links":
    "a[href]::attr(href)"})``. Each ends in ``::text`` (the matched elements' own text
    nodes, one string each), ``::attr(name)`` (the attribute's value) or nothing (the
    element's outer HTML). ValueError for a selector that does not parse (where it fails,
    what was expected)."""
    def __init__(self, fields: Dict[str, str]) -> None: ...
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

class Page(TypedDict):
    warc_filename: str
    warc_record_offset: Optional[int]
    warc_record_length: Optional[int]
    warc_record_id: Optional[str]
    url: Optional[str]
    fetch_time: Optional[str]
    fetch_status: Optional[int]
    content_mime_type: Optional[str]
    encoding: Optional[str]
    encoding_rule: Optional[str]
    title: Optional[str]
    # Link dicts; the URLs alone with process(..., link_urls=True).
    links: Optional[Union[List[Link], List[str]]]
    text: Optional[str]

class Counts(TypedDict):
    """What a run counted by reason (Pages.counts, once the iteration has ended)."""
    skipped: Dict[str, int]
    recovered: Dict[str, int]
    failures: Dict[str, int]
    passed_over: Dict[str, int]

class Pages(Iterator[Page]):
    """The iterator process() returns."""
    def __iter__(self) -> Pages: ...
    def __next__(self) -> Page: ...
    def __enter__(self) -> Pages: ...
    def __exit__(self, *args: object) -> None: ...
    def close(self) -> None: ...
    @property
    def errors(self) -> List[Tuple[str, Optional[int], str]]: ...
    @property
    def documents(self) -> int: ...
    @property
    def ignored(self) -> int: ...
    @property
    def counts(self) -> Optional[Counts]: ...

def process(
    paths: Union[_Path, Iterable[_Path]],
    links: bool = True,
    text: bool = True,
    threads: int = 0,
    *,
    base: Optional[str] = None,
    data_urls: bool = False,
    link_urls: bool = False,
    all_files: bool = False,
    all_records: bool = False,
    fields: Optional[Union[Dict[str, str], Fields]] = None,
    main_text: bool = False,
    main_markdown: bool = False,
    metadata: bool = False,
) -> Pages:
    """Tokenize files, folders and WARC files in parallel; one dict per document."""

def process_ipc(
    paths: Union[_Path, Iterable[_Path]],
    links: bool = True,
    text: bool = True,
    threads: int = 0,
    *,
    base: Optional[str] = None,
    data_urls: bool = False,
    all_files: bool = False,
    all_records: bool = False,
    batch_rows: int = 1024,
    batch_bytes: int = 4 << 20,
    fields: Optional[Union[Dict[str, str], Fields]] = None,
    main_text: bool = False,
    main_markdown: bool = False,
    metadata: bool = False,
) -> Pages:
    """As process(), but each item is an Arrow IPC stream (bytes) of a record batch."""

class ArrowBatch:
    """One record batch of process_batches(): the Arrow PyCapsule interface."""
    @property
    def num_rows(self) -> int: ...
    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...

def process_batches(
    paths: Union[_Path, Iterable[_Path]],
    links: bool = True,
    text: bool = True,
    threads: int = 0,
    *,
    base: Optional[str] = None,
    data_urls: bool = False,
    all_files: bool = False,
    all_records: bool = False,
    batch_rows: int = 1024,
    batch_bytes: int = 4 << 20,
    fields: Optional[Union[Dict[str, str], Fields]] = None,
    main_text: bool = False,
    main_markdown: bool = False,
    metadata: bool = False,
) -> Pages:
    """As process_ipc(), but each item is an ArrowBatch (Arrow PyCapsule interface)."""

class ArrowBatches(Iterator[Any]):
    """The iterator process_arrow() returns: pyarrow.RecordBatch objects."""
    def __iter__(self) -> ArrowBatches: ...
    def __next__(self) -> Any: ...
    def __enter__(self) -> ArrowBatches: ...
    def __exit__(self, *args: object) -> None: ...
    def close(self) -> None: ...
    @property
    def errors(self) -> List[Tuple[str, Optional[int], str]]: ...
    @property
    def documents(self) -> int: ...
    @property
    def ignored(self) -> int: ...
    @property
    def counts(self) -> Optional[Counts]: ...

def process_arrow(
    paths: Union[_Path, Iterable[_Path]],
    links: bool = True,
    text: bool = True,
    threads: int = 0,
    *,
    base: Optional[str] = None,
    data_urls: bool = False,
    all_files: bool = False,
    all_records: bool = False,
    batch_rows: int = 1024,
    batch_bytes: int = 4 << 20,
    fields: Optional[Union[Dict[str, str], Fields]] = None,
    main_text: bool = False,
    main_markdown: bool = False,
    metadata: bool = False,
) -> ArrowBatches:
    """As process(), but yields pyarrow.RecordBatch objects (columns: htmltok.spark.SCHEMA)."""
