"""The types of htmltok's dicts and string values (re-exported by ``htmltok``).

They are plain ``typing`` objects: ``TypedDict`` classes (at runtime the values are
ordinary dicts) and ``Literal`` aliases, for annotations such as
``def keep(page: htmltok.Page) -> bool``.
"""

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union

#: ``Token.type``.
TokenType = Literal["StartTag", "EndTag", "Text", "Comment", "Doctype"]
#: The tokenizer's start states (``tokenize(state=...)``).
State = Literal[
    "Data state",
    "PLAINTEXT state",
    "RCDATA state",
    "RAWTEXT state",
    "Script data state",
    "CDATA section state",
]
#: A parse error: (code, byte offset, line, column).
ParseErrorTuple = Tuple[str, int, int, int]
#: ``Node.type``.
NodeType = Literal["element", "text", "comment", "doctype", "document", "fragment"]
#: ``Article["kind"]`` and the ``main_kind`` column.
PageKind = Literal["article", "forum", "product", "collection", "listing", "documentation", "service", "other"]
#: ``process``'s ``output``.
Output = Literal["dicts", "ipc", "capsules", "pyarrow"]


class Link(TypedDict):
    """A link of ``Document.links()`` (and of ``process``'s dicts)."""

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
    by_rule: Dict[str, int]
    by_encoding: Dict[str, int]
    with_replacements: int


class Stats(TypedDict):
    """``Document.stats()``."""

    tokens: TokenCounts
    tags: Dict[str, int]
    encodings: EncodingCounts
    errors: Optional[Dict[str, int]]


class Article(TypedDict):
    """``Tree.article()``."""

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
    """``Tree.metadata()``."""

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


class _PageColumns(TypedDict):
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
    #: Link dicts; their URLs with ``link_urls=True``; None with ``links=False``.
    links: Optional[Union[List[Link], List[str]]]
    #: None with ``text=False``.
    text: Optional[str]


class Page(_PageColumns, total=False):
    """A dict of ``process(..., output="dicts")``: the page's columns, then those asked
    for: ``main_text=True``'s, ``main_markdown=True``'s, ``metadata=True``'s
    (``METADATA_COLUMNS``). The keys of ``fields`` (names chosen by the caller, each a
    ``list[str]``) are not in this type: read them from ``typing.cast(dict[str, Any], page)``."""

    main_text: Optional[str]
    main_kind: Optional[PageKind]
    main_confidence: Optional[float]
    main_markdown: Optional[str]
    canonical: Optional[str]
    robots: Optional[Dict[str, Any]]
    googlebot: Optional[Dict[str, Any]]
    description: Optional[str]
    open_graph: Optional[List[Dict[str, str]]]
    twitter: Optional[List[Dict[str, str]]]
    lang: Optional[str]
    content_language: Optional[str]
    hreflang: Optional[List[Dict[str, Optional[str]]]]
    refresh: Optional[Dict[str, Any]]
    json_ld: Optional[List[str]]
    qualified_links: Optional[List[Dict[str, Any]]]


class Counts(TypedDict):
    """What a run counted by reason (``Pages.counts``, once the iteration has ended)."""

    skipped: Dict[str, int]
    recovered: Dict[str, int]
    failures: Dict[str, int]
    passed_over: Dict[str, int]


__all__ = [
    "Alternate",
    "Article",
    "Counts",
    "EncodingCounts",
    "Href",
    "Link",
    "Metadata",
    "NodeType",
    "Output",
    "Page",
    "PageKind",
    "ParseErrorTuple",
    "QualifiedLink",
    "Refresh",
    "Robots",
    "State",
    "Stats",
    "TokenCounts",
    "TokenType",
]
