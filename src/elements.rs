//! The element categories of 13.2.4.2 ("the stack of open elements": the scopes) and
//! 13.2.4.3 ("special", "formatting"), as lists of lowercase element names. One table for
//! both tree builders: the tokenizer's simulated one (`feedback`) and `htmltok-tree`'s,
//! which builds its per-tag tables from these lists at compile time.
//!
//! Each list holds the HTML elements of its category; the MathML and SVG members of
//! "special" and of the scopes are the same elements, in [`MATHML_BOUNDARIES`] and
//! [`SVG_BOUNDARIES`].

/// 13.2.4.3: the HTML elements of the "special" category.
pub const SPECIAL: &[&[u8]] = &[
    b"address",
    b"applet",
    b"area",
    b"article",
    b"aside",
    b"base",
    b"basefont",
    b"bgsound",
    b"blockquote",
    b"body",
    b"br",
    b"button",
    b"caption",
    b"center",
    b"col",
    b"colgroup",
    b"dd",
    b"details",
    b"dir",
    b"div",
    b"dl",
    b"dt",
    b"embed",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"form",
    b"frame",
    b"frameset",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"head",
    b"header",
    b"hgroup",
    b"hr",
    b"html",
    b"iframe",
    b"img",
    b"input",
    b"keygen",
    b"li",
    b"link",
    b"listing",
    b"main",
    b"marquee",
    b"menu",
    b"meta",
    b"nav",
    b"noembed",
    b"noframes",
    b"noscript",
    b"object",
    b"ol",
    b"p",
    b"param",
    b"plaintext",
    b"pre",
    b"script",
    b"search",
    b"section",
    b"select",
    b"source",
    b"style",
    b"summary",
    b"table",
    b"tbody",
    b"td",
    b"template",
    b"textarea",
    b"tfoot",
    b"th",
    b"thead",
    b"title",
    b"tr",
    b"track",
    b"ul",
    b"wbr",
    b"xmp",
];

/// 13.2.4.3: the "formatting" elements, which the list of active formatting elements
/// holds and whose end tags run the adoption agency algorithm.
pub const FORMATTING: &[&[u8]] = &[
    b"a", b"b", b"big", b"code", b"em", b"font", b"i", b"nobr", b"s", b"small", b"strike",
    b"strong", b"tt", b"u",
];

/// 13.2.4.2: the HTML elements that end the search of "has an element in scope" (and so
/// of the list item and button scopes). `select` is among them since the standard's
/// select parser relaxation.
pub const SCOPE: &[&[u8]] = &[
    b"applet",
    b"caption",
    b"html",
    b"table",
    b"td",
    b"th",
    b"marquee",
    b"object",
    b"select",
    b"template",
];

/// 13.2.4.2: the elements "has an element in list item scope" adds to [`SCOPE`].
pub const LIST_ITEM_SCOPE: &[&[u8]] = &[b"ol", b"ul"];

/// 13.2.4.2: the elements that end the search of "has an element in table scope".
pub const TABLE_SCOPE: &[&[u8]] = &[b"html", b"table", b"template"];

/// The heading elements, which "in body" (13.2.6.4.7) closes one another with.
pub const HEADINGS: &[&[u8]] = &[b"h1", b"h2", b"h3", b"h4", b"h5", b"h6"];

/// The MathML elements in "special" and in every scope's list (13.2.4.2, 13.2.4.3).
pub const MATHML_BOUNDARIES: &[&[u8]] = &[b"mi", b"mo", b"mn", b"ms", b"mtext", b"annotation-xml"];

/// The SVG elements in "special" and in every scope's list (13.2.4.2, 13.2.4.3);
/// `foreignObject` lowercased, as the tokenizer gives tag names.
pub const SVG_BOUNDARIES: &[&[u8]] = &[b"foreignobject", b"desc", b"title"];
