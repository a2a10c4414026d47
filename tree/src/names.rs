//! Interned element names: [`Tag`], a `u16` enum of the names tree construction and
//! common pages use (HTML, SVG and MathML), and [`Ns`], the three namespaces. The tree
//! builder compares these ids, never strings; an element whose name is not in the list is
//! [`Tag::Unknown`] and keeps its name as text in the document.
//!
//! Also here: the element categories of 13.2.4.2 ("special", the scopes), built from
//! `htmltok::elements`, and the foreign-content adjustments of 13.2.6.3 (SVG tag names,
//! SVG/MathML/foreign attributes). A leaf module. (The tables of what "in body" and "in
//! cell" do with a tag live with those modes' rules, in `builder/modes/`.)
//!
//! Small accessors are `#[inline]` so that the crates reading the DOM can inline them.

/// An element's namespace. Two bytes, as wide as [`Tag`], so that a [`Name`] has no
/// padding byte: comparing two names, or a name with `Name::html(tag)`, is then one
/// 32-bit compare (the compiler merges the two fields' compares), not two compares and
/// two branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u16)]
pub enum Ns {
    /// The HTML namespace.
    Html,
    /// The SVG namespace.
    Svg,
    /// The MathML namespace.
    MathMl,
}

/// An attribute's namespace: none for all but the adjusted foreign attributes (13.2.6.3
/// "adjust foreign attributes": `xlink:href` on an SVG element is `href` in XLink).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum AttrNs {
    /// No namespace (every HTML attribute).
    #[default]
    None,
    /// The XLink namespace.
    XLink,
    /// The XML namespace.
    Xml,
    /// The XMLNS namespace.
    Xmlns,
}

impl AttrNs {
    /// The prefix the html5lib test format writes (`xlink`, `xml`, `xmlns`), or None.
    ///
    /// Not the DOM's prefix for every attribute: 13.2.6.3 "adjust foreign attributes" gives
    /// `xmlns` (namespace XMLNS, local name `xmlns`) no prefix, while the test format
    /// writes it `xmlns xmlns`. Qualified names take theirs from
    /// [`AttrRef::prefix`](crate::AttrRef::prefix).
    pub fn prefix(self) -> Option<&'static str> {
        match self {
            AttrNs::None => None,
            AttrNs::XLink => Some("xlink"),
            AttrNs::Xml => Some("xml"),
            AttrNs::Xmlns => Some("xmlns"),
        }
    }

    /// The prefix of the qualified name of an attribute in this namespace with local name
    /// `local`: [`AttrNs::prefix`] but for `xmlns` itself, to which 13.2.6.3 "adjust
    /// foreign attributes" gives no prefix (and which 13.3 "attribute's serialized name"
    /// writes `xmlns`). The DOM's qualified names ([`AttrRef::prefix`](crate::AttrRef::prefix))
    /// and the serializer both take it from here.
    pub(crate) fn qualified_prefix(self, local: &[u8]) -> Option<&'static str> {
        match self {
            AttrNs::Xmlns if local == b"xmlns" => None,
            ns => ns.prefix(),
        }
    }
}

macro_rules! tags {
    ($($id:ident = $s:literal,)*) => {
        /// An interned, lowercase element name. [`Tag::Unknown`] for names not listed.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u16)]
        #[allow(missing_docs)]
        pub enum Tag {
            Unknown,
            $($id,)*
        }

        /// Every interned tag, in declaration order (index = id - 1).
        pub(crate) const ALL_TAGS: &[Tag] = &[$(Tag::$id,)*];

        impl Tag {
            /// The id of a lowercase tag name: one hash, one probe or two, one compare.
            pub fn from_name(name: &str) -> Tag {
                lookup(name.as_bytes())
            }

            /// The id of the tag name whose raw bytes lie in `input` at `at`, of length
            /// `len` (the tokenizer's name span), when they are exactly an interned
            /// lowercase name; else [`Tag::Unknown`], also for names that decoding
            /// changes (upper case, NUL, non-ASCII), which the caller then decodes. The
            /// table holds only lowercase ASCII names, so a match needs no check of the
            /// bytes first: the name is read as two words straight from the input (one
            /// 16-byte window, masked to the length), not scanned and then packed.
            /// Always inlined: otherwise a call for every tag token, in the parse loop.
            #[inline(always)]
            pub(crate) fn from_raw_name(input: &[u8], at: usize, len: usize) -> Tag {
                if len == 0 || len > LONGEST {
                    return Tag::Unknown;
                }
                // The window as `get(at..)` then `first_chunk`: `at` within the input,
                // then 16 bytes left after it (two compares; `get(at..at + 16)` also
                // tested the sum for overflow, seven instructions a tag).
                match input.get(at..) {
                    Some(rest) => match rest.first_chunk::<16>() {
                        Some(window) => lookup_words(pack_window(window, len)),
                        // Within 16 bytes of the input's end: read byte by byte.
                        None => match rest.get(..len) {
                            Some(name) => lookup_words(pack(name)),
                            None => Tag::Unknown,
                        },
                    },
                    None => Tag::Unknown,
                }
            }

            /// The lowercase name ("" for [`Tag::Unknown`]).
            #[inline]
            pub const fn as_str(self) -> &'static str {
                match self {
                    Tag::Unknown => "",
                    $(Tag::$id => $s,)*
                }
            }
        }
    };
}

tags! {
    A = "a", Abbr = "abbr", Address = "address", AnnotationXml = "annotation-xml",
    Applet = "applet", Area = "area", Article = "article", Aside = "aside", Audio = "audio",
    B = "b", Base = "base", Basefont = "basefont", Bdi = "bdi", Bdo = "bdo",
    Bgsound = "bgsound", Big = "big", Blockquote = "blockquote", Body = "body", Br = "br",
    Button = "button", Canvas = "canvas", Caption = "caption", Center = "center",
    Cite = "cite", Code = "code", Col = "col", Colgroup = "colgroup", Data = "data",
    Datalist = "datalist", Dd = "dd", Del = "del", Desc = "desc", Details = "details",
    Dfn = "dfn", Dialog = "dialog", Dir = "dir", Div = "div", Dl = "dl", Dt = "dt",
    Em = "em", Embed = "embed", Fieldset = "fieldset", Figcaption = "figcaption",
    Figure = "figure", Font = "font", Footer = "footer", ForeignObject = "foreignobject",
    Form = "form", Frame = "frame", Frameset = "frameset", G = "g", H1 = "h1", H2 = "h2",
    H3 = "h3", H4 = "h4", H5 = "h5", H6 = "h6", Head = "head", Header = "header",
    Hgroup = "hgroup", Hr = "hr", Html = "html", I = "i", Iframe = "iframe",
    Image = "image", Img = "img", Input = "input", Ins = "ins", Kbd = "kbd",
    Keygen = "keygen", Label = "label", Legend = "legend", Li = "li", Link = "link",
    Listing = "listing", Main = "main", Malignmark = "malignmark", Map = "map",
    Mark = "mark", Marquee = "marquee", Math = "math", Menu = "menu", Meta = "meta",
    Meter = "meter", Mglyph = "mglyph", Mi = "mi", Mn = "mn", Mo = "mo", Ms = "ms",
    Mtext = "mtext", Nav = "nav", Nobr = "nobr", Noembed = "noembed",
    Noframes = "noframes", Noscript = "noscript", Object = "object", Ol = "ol",
    Optgroup = "optgroup", Option = "option", Output = "output", P = "p",
    Param = "param", Path = "path", Picture = "picture", Plaintext = "plaintext",
    Pre = "pre", Progress = "progress", Q = "q", Rb = "rb", Rp = "rp", Rt = "rt",
    Rtc = "rtc", Ruby = "ruby", S = "s", Samp = "samp", Script = "script",
    Search = "search", Section = "section", Select = "select",
    Selectedcontent = "selectedcontent", Slot = "slot", Small = "small",
    Source = "source", Span = "span", Strike = "strike", Strong = "strong",
    Style = "style", Sub = "sub", Summary = "summary", Sup = "sup", Svg = "svg",
    Table = "table", Tbody = "tbody", Td = "td", Template = "template",
    Textarea = "textarea", Tfoot = "tfoot", Th = "th", Thead = "thead", Time = "time",
    Title = "title", Tr = "tr", Track = "track", Tt = "tt", U = "u", Ul = "ul",
    Var = "var", Video = "video", Wbr = "wbr", Xmp = "xmp",
}

/// The size of the open-addressing table of tag names (a power of two, about three times
/// the number of names, so that probes stay short, also for the misses of custom names).
const TABLE_BITS: u32 = 9;
const TABLE_SIZE: usize = 1 << TABLE_BITS;

/// The longest interned name (`selectedcontent`): longer names are not looked up, so the
/// top byte of a packed name's second word is free to hold the length.
const LONGEST: usize = 15;

/// A name of at most [`LONGEST`] bytes as two little-endian words, zero-padded, its length
/// in the top byte of the second: the two words identify the name, so a lookup compares
/// two integers instead of calling `memcmp` on the candidate's text (that took about a
/// tenth of converting a tag).
/// The words are read with a few overlapping loads, not byte by byte (the bytes a load
/// shares with another are the same bytes at the same places, so or-ing them is exact).
fn pack(name: &[u8]) -> (u64, u64) {
    debug_assert!(name.len() <= LONGEST);
    let (lo, hi) = name.split_at(name.len().min(8));
    (load_le(lo), load_le(hi) | (name.len() as u64) << 56)
}

/// [`pack`] of the first `len` bytes (1 to [`LONGEST`]) of a 16-byte window: two
/// 8-byte loads masked to the length, no branch on it.
fn pack_window(window: &[u8; 16], len: usize) -> (u64, u64) {
    debug_assert!((1..=LONGEST).contains(&len));
    let (first, second) = window.split_at(8);
    let word = |eight: &[u8]| u64::from_le_bytes(eight.try_into().expect("eight bytes"));
    let masks = &WINDOW_MASKS[len & LONGEST];
    (word(first) & masks.lo, word(second) & masks.hi | masks.len)
}

/// [`pack_window`]'s masks for one length, and the length in the top byte, as [`pack`]
/// puts it: or-ed in from the table, one instruction where computing it took three.
/// Aligned to 32 bytes, so that an entry's address is the length shifted, not multiplied.
#[repr(align(32))]
struct WindowMasks {
    lo: u64,
    hi: u64,
    len: u64,
}

/// Per length (0 to [`LONGEST`]), the masks of [`pack_window`]'s two words: a table, not
/// shifts and compares per name.
const WINDOW_MASKS: [WindowMasks; LONGEST + 1] = {
    let mut masks = [const {
        WindowMasks {
            lo: 0,
            hi: 0,
            len: 0,
        }
    }; LONGEST + 1];
    let mut len = 1;
    while len <= LONGEST {
        let (lo, hi) = if len < 8 {
            ((1u64 << (8 * len)) - 1, 0)
        } else if len == 8 {
            (u64::MAX, 0)
        } else {
            (u64::MAX, (1u64 << (8 * (len - 8))) - 1)
        };
        masks[len] = WindowMasks {
            lo,
            hi,
            len: (len as u64) << 56,
        };
        len += 1;
    }
    masks
};

/// [`pack`] for building the table at compile time (a byte loop; `pack` is tested equal).
const fn pack_const(name: &[u8]) -> (u64, u64) {
    let (mut lo, mut hi) = (0u64, 0u64);
    let mut i = 0;
    while i < name.len() {
        if i < 8 {
            lo |= (name[i] as u64) << (8 * i);
        } else {
            hi |= (name[i] as u64) << (8 * (i - 8));
        }
        i += 1;
    }
    (lo, hi | (name.len() as u64) << 56)
}

/// Up to eight bytes as a little-endian word, zero-padded.
fn load_le(b: &[u8]) -> u64 {
    let n = b.len();
    let word = |at: usize| {
        let four: [u8; 4] = b[at..at + 4].try_into().expect("four bytes");
        u64::from(u32::from_le_bytes(four))
    };
    match n {
        0 => 0,
        1..=3 => {
            u64::from(b[0])
                | u64::from(b[n / 2]) << (8 * (n / 2))
                | u64::from(b[n - 1]) << (8 * (n - 1))
        }
        _ => word(0) | word(n - 4) << (8 * (n - 4)),
    }
}

const fn hash_words((lo, hi): (u64, u64)) -> usize {
    // One add and a multiply (the product's top bits mix every bit of both words); the
    // rotate it replaced cost a copy and a rotate per tag.
    let h = lo.wrapping_add(hi).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - TABLE_BITS)) as usize
}

/// The table of tag names, built at compile time: per slot the packed name (`(0, 0)` when
/// empty: a packed name's length byte is never 0) and, in a parallel array, its tag.
/// 9 KB (it was a lazily built 32 KB table of 32-byte slots, as large as the L1 cache).
struct Table {
    words: [(u64, u64); TABLE_SIZE],
    tags: [Tag; TABLE_SIZE],
}

static TABLE: Table = {
    let mut t = Table {
        words: [(0, 0); TABLE_SIZE],
        tags: [Tag::Unknown; TABLE_SIZE],
    };
    let mut k = 0;
    while k < ALL_TAGS.len() {
        let tag = ALL_TAGS[k];
        let name = tag.as_str().as_bytes();
        assert!(name.len() <= LONGEST);
        let words = pack_const(name);
        let mut i = hash_words(words);
        while t.words[i].1 != 0 {
            i = (i + 1) & (TABLE_SIZE - 1);
        }
        t.words[i] = words;
        t.tags[i] = tag;
        k += 1;
    }
    t
};

fn lookup(name: &[u8]) -> Tag {
    if name.is_empty() || name.len() > LONGEST {
        return Tag::Unknown;
    }
    lookup_words(pack(name))
}

/// The tag of a packed name (see [`pack`]), or [`Tag::Unknown`].
fn lookup_words(words: (u64, u64)) -> Tag {
    let mut i = hash_words(words);
    loop {
        let slot = TABLE.words[i];
        if slot == words {
            return TABLE.tags[i];
        }
        if slot.1 == 0 {
            return Tag::Unknown;
        }
        i = (i + 1) & (TABLE_SIZE - 1);
    }
}

/// An element's expanded name as the tree builder compares it: namespace and interned
/// tag. Four bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Name {
    /// The namespace.
    pub ns: Ns,
    /// The interned local name ([`Tag::Unknown`] when not interned).
    pub tag: Tag,
}

/// The bits of [`CATEGORIES`].
mod category {
    pub(super) const SPECIAL: u8 = 1 << 0;
    pub(super) const FORMATTING: u8 = 1 << 1;
    pub(super) const SCOPE: u8 = 1 << 2;
    pub(super) const LIST_ITEM_SCOPE: u8 = 1 << 3;
    pub(super) const TABLE_SCOPE: u8 = 1 << 4;
}

/// The interned tag named `name` (lowercase); a name that is not interned fails the
/// build.
const fn tag_named(name: &[u8]) -> Tag {
    let mut i = 0;
    while i < ALL_TAGS.len() {
        let tag = ALL_TAGS[i];
        let s = tag.as_str().as_bytes();
        if s.len() == name.len() {
            let mut k = 0;
            while k < s.len() && s[k] == name[k] {
                k += 1;
            }
            if k == s.len() {
                return tag;
            }
        }
        i += 1;
    }
    panic!("an element category names a tag that is not interned")
}

/// `table` with `bit` set for each tag of `names`.
const fn with_bit(mut table: [u8; 256], names: &[&[u8]], bit: u8) -> [u8; 256] {
    let mut i = 0;
    while i < names.len() {
        table[tag_named(names[i]) as usize] |= bit;
        i += 1;
    }
    table
}

/// Per namespace ([`Ns`] as index) and tag id, the element categories of 13.2.4.2 and
/// 13.2.4.3 ([`category`] bits), built from the lists in `htmltok::elements`, which the
/// tokenizer's simulated tree builder reads too: one table for both.
const CATEGORIES: [[u8; 256]; 3] = {
    use htmltok::elements as list;
    let mut html = [0; 256];
    html = with_bit(html, list::SPECIAL, category::SPECIAL);
    html = with_bit(html, list::FORMATTING, category::FORMATTING);
    html = with_bit(html, list::SCOPE, category::SCOPE);
    html = with_bit(html, list::LIST_ITEM_SCOPE, category::LIST_ITEM_SCOPE);
    html = with_bit(html, list::TABLE_SCOPE, category::TABLE_SCOPE);
    // The foreign members of "special" are those of the scopes' lists too.
    let foreign = category::SPECIAL | category::SCOPE;
    let mut all = [[0; 256]; 3];
    all[Ns::Html as usize] = html;
    all[Ns::Svg as usize] = with_bit([0; 256], list::SVG_BOUNDARIES, foreign);
    all[Ns::MathMl as usize] = with_bit([0; 256], list::MATHML_BOUNDARIES, foreign);
    all
};

impl Name {
    /// An HTML element's name.
    pub const fn html(tag: Tag) -> Name {
        Name { ns: Ns::Html, tag }
    }

    /// True for the HTML element `tag`.
    #[inline]
    pub fn is_html(self, tag: Tag) -> bool {
        self.ns == Ns::Html && self.tag == tag
    }

    /// The element categories of 13.2.4.2 and 13.2.4.3 this element is in ([`category`]
    /// bits).
    const fn categories(self) -> u8 {
        CATEGORIES[self.ns as usize][self.tag as usize]
    }

    /// 13.2.4.3: the "special" category.
    #[inline]
    pub fn is_special(self) -> bool {
        self.categories() & category::SPECIAL != 0
    }

    /// 13.2.4.3: the formatting elements.
    #[inline]
    pub const fn is_formatting(self) -> bool {
        self.categories() & category::FORMATTING != 0
    }

    /// 13.2.6 "MathML text integration point": MathML mi, mo, mn, ms, mtext.
    pub fn is_mathml_text_integration_point(self) -> bool {
        use Tag::*;
        self.ns == Ns::MathMl && matches!(self.tag, Mi | Mo | Mn | Ms | Mtext)
    }

    /// The SVG elements that are HTML integration points (foreignObject, desc, title);
    /// MathML annotation-xml depends on its `encoding` attribute, so it is decided when the
    /// element is created.
    pub fn is_svg_html_integration_point(self) -> bool {
        self.ns == Ns::Svg && matches!(self.tag, Tag::ForeignObject | Tag::Desc | Tag::Title)
    }

    /// The element types of "has an element in scope" (13.2.4.2), which also bound the
    /// list item and button scopes.
    #[inline]
    pub fn is_scope_boundary(self) -> bool {
        self.categories() & category::SCOPE != 0
    }

    /// The element types "has an element in list item scope" adds (13.2.4.2).
    pub(crate) fn is_list_item_scope_boundary(self) -> bool {
        self.categories() & category::LIST_ITEM_SCOPE != 0
    }

    /// The element types of "has an element in table scope" (13.2.4.2).
    pub(crate) fn is_table_scope_boundary(self) -> bool {
        self.categories() & category::TABLE_SCOPE != 0
    }

    /// The local name as the DOM has it for a known tag (SVG's camelCase names included),
    /// or None for [`Tag::Unknown`].
    pub fn known_local_name(self) -> Option<&'static str> {
        match (self.ns, self.tag) {
            (_, Tag::Unknown) => None,
            (Ns::Svg, Tag::ForeignObject) => Some("foreignObject"),
            (_, tag) => Some(tag.as_str()),
        }
    }
}

/// 13.2.6.3: the SVG element names whose case is adjusted ("adjust SVG tag name"), for
/// names not interned; `name` is lowercase.
pub fn adjust_svg_tag_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "altglyph" => "altGlyph",
        "altglyphdef" => "altGlyphDef",
        "altglyphitem" => "altGlyphItem",
        "animatecolor" => "animateColor",
        "animatemotion" => "animateMotion",
        "animatetransform" => "animateTransform",
        "clippath" => "clipPath",
        "feblend" => "feBlend",
        "fecolormatrix" => "feColorMatrix",
        "fecomponenttransfer" => "feComponentTransfer",
        "fecomposite" => "feComposite",
        "feconvolvematrix" => "feConvolveMatrix",
        "fediffuselighting" => "feDiffuseLighting",
        "fedisplacementmap" => "feDisplacementMap",
        "fedistantlight" => "feDistantLight",
        "fedropshadow" => "feDropShadow",
        "feflood" => "feFlood",
        "fefunca" => "feFuncA",
        "fefuncb" => "feFuncB",
        "fefuncg" => "feFuncG",
        "fefuncr" => "feFuncR",
        "fegaussianblur" => "feGaussianBlur",
        "feimage" => "feImage",
        "femerge" => "feMerge",
        "femergenode" => "feMergeNode",
        "femorphology" => "feMorphology",
        "feoffset" => "feOffset",
        "fepointlight" => "fePointLight",
        "fespecularlighting" => "feSpecularLighting",
        "fespotlight" => "feSpotLight",
        "fetile" => "feTile",
        "feturbulence" => "feTurbulence",
        "glyphref" => "glyphRef",
        "lineargradient" => "linearGradient",
        "radialgradient" => "radialGradient",
        "textpath" => "textPath",
        _ => return None,
    })
}

/// Defines [`adjust_svg_attribute`] from one list: the `match` that finds a name, and
/// the filter by length and first letter that answers the common names at once.
macro_rules! svg_attributes {
    ($($lower:literal => $adjusted:literal,)*) => {
        /// Per name length (the longest is 19), a bit per first letter `a`-`z` of the
        /// names [`adjust_svg_attribute`] adjusts: `d`, `fill`, `class`, `transform`,
        /// … fail this test, and do not go through the `match` (its length switch then
        /// compares of the candidates of that length).
        const SVG_ATTRIBUTE_FIRST_LETTERS: [u32; 20] = {
            let names = SVG_ATTRIBUTE_NAMES;
            let mut bits = [0u32; 20];
            let mut i = 0;
            while i < names.len() {
                bits[names[i].len()] |= 1 << (names[i][0] - b'a');
                i += 1;
            }
            bits
        };

        /// The lowercase names [`adjust_svg_attribute`] adjusts.
        const SVG_ATTRIBUTE_NAMES: &[&[u8]] = &[$($lower),*];

        /// 13.2.6.3 "adjust SVG attributes": the camelCase name of an SVG attribute. By
        /// bytes: the builder reads an attribute's name from the input without
        /// validating it again.
        pub fn adjust_svg_attribute(name: &[u8]) -> Option<&'static str> {
            let bits = SVG_ATTRIBUTE_FIRST_LETTERS.get(name.len()).copied().unwrap_or(0);
            let letter = name.first().map_or(u32::MAX, |&c| u32::from(c.wrapping_sub(b'a')));
            if letter >= 26 || bits & (1 << letter) == 0 {
                return None;
            }
            Some(match name {
                $($lower => $adjusted,)*
                _ => return None,
            })
        }
    };
}

svg_attributes! {
    b"attributename" => "attributeName",
    b"attributetype" => "attributeType",
    b"basefrequency" => "baseFrequency",
    b"baseprofile" => "baseProfile",
    b"calcmode" => "calcMode",
    b"clippathunits" => "clipPathUnits",
    b"diffuseconstant" => "diffuseConstant",
    b"edgemode" => "edgeMode",
    b"filterunits" => "filterUnits",
    b"glyphref" => "glyphRef",
    b"gradienttransform" => "gradientTransform",
    b"gradientunits" => "gradientUnits",
    b"kernelmatrix" => "kernelMatrix",
    b"kernelunitlength" => "kernelUnitLength",
    b"keypoints" => "keyPoints",
    b"keysplines" => "keySplines",
    b"keytimes" => "keyTimes",
    b"lengthadjust" => "lengthAdjust",
    b"limitingconeangle" => "limitingConeAngle",
    b"markerheight" => "markerHeight",
    b"markerunits" => "markerUnits",
    b"markerwidth" => "markerWidth",
    b"maskcontentunits" => "maskContentUnits",
    b"maskunits" => "maskUnits",
    b"numoctaves" => "numOctaves",
    b"pathlength" => "pathLength",
    b"patterncontentunits" => "patternContentUnits",
    b"patterntransform" => "patternTransform",
    b"patternunits" => "patternUnits",
    b"pointsatx" => "pointsAtX",
    b"pointsaty" => "pointsAtY",
    b"pointsatz" => "pointsAtZ",
    b"preservealpha" => "preserveAlpha",
    b"preserveaspectratio" => "preserveAspectRatio",
    b"primitiveunits" => "primitiveUnits",
    b"refx" => "refX",
    b"refy" => "refY",
    b"repeatcount" => "repeatCount",
    b"repeatdur" => "repeatDur",
    b"requiredextensions" => "requiredExtensions",
    b"requiredfeatures" => "requiredFeatures",
    b"specularconstant" => "specularConstant",
    b"specularexponent" => "specularExponent",
    b"spreadmethod" => "spreadMethod",
    b"startoffset" => "startOffset",
    b"stddeviation" => "stdDeviation",
    b"stitchtiles" => "stitchTiles",
    b"surfacescale" => "surfaceScale",
    b"systemlanguage" => "systemLanguage",
    b"tablevalues" => "tableValues",
    b"targetx" => "targetX",
    b"targety" => "targetY",
    b"textlength" => "textLength",
    b"viewbox" => "viewBox",
    b"viewtarget" => "viewTarget",
    b"xchannelselector" => "xChannelSelector",
    b"ychannelselector" => "yChannelSelector",
    b"zoomandpan" => "zoomAndPan",
}

/// 13.2.6.3 "adjust foreign attributes": the namespace and local name of `xlink:*`,
/// `xml:*` and `xmlns*` attributes on foreign elements.
pub fn adjust_foreign_attribute(name: &[u8]) -> Option<(AttrNs, &'static str)> {
    // Every name below starts with `x` (`xlink:`, `xml:`, `xmlns`): one compare answers
    // the others (`d`, `fill`, `viewbox`, …), before the `match`'s length switch.
    if name.first() != Some(&b'x') {
        return None;
    }
    Some(match name {
        b"xlink:actuate" => (AttrNs::XLink, "actuate"),
        b"xlink:arcrole" => (AttrNs::XLink, "arcrole"),
        b"xlink:href" => (AttrNs::XLink, "href"),
        b"xlink:role" => (AttrNs::XLink, "role"),
        b"xlink:show" => (AttrNs::XLink, "show"),
        b"xlink:title" => (AttrNs::XLink, "title"),
        b"xlink:type" => (AttrNs::XLink, "type"),
        b"xml:lang" => (AttrNs::Xml, "lang"),
        b"xml:space" => (AttrNs::Xml, "space"),
        b"xmlns" => (AttrNs::Xmlns, "xmlns"),
        b"xmlns:xlink" => (AttrNs::Xmlns, "xlink"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_found() {
        for &tag in ALL_TAGS {
            assert_eq!(Tag::from_name(tag.as_str()), tag);
        }
        assert_eq!(Tag::from_name(""), Tag::Unknown);
        assert_eq!(Tag::from_name("my-custom-element-name"), Tag::Unknown);
        // Names are packed zero-padded: a trailing NUL must not find the shorter name.
        assert_eq!(Tag::from_name("a\0"), Tag::Unknown);
        assert_eq!(Tag::from_name("selectedcontent\0"), Tag::Unknown);
        assert_eq!(Tag::from_name("\0"), Tag::Unknown);
        assert_eq!(Tag::from_name("\0\0\0\0\0\0\0\0\0"), Tag::Unknown);
        // Every slot's probe ends: the table has empty slots.
        assert!(TABLE.words.iter().any(|w| w.1 == 0));
    }

    /// The raw-bytes lookup finds exactly the names `from_name` finds, wherever the name
    /// lies in the input (far from its end: the 16-byte window; near it: the byte path)
    /// and whatever follows it; names that decoding changes are not found.
    #[test]
    fn raw_name_lookup_agrees() {
        let mut names: Vec<String> = ALL_TAGS.iter().map(|t| t.as_str().to_owned()).collect();
        for extra in [
            "",
            "DIV",
            "Div",
            "p\0",
            "\0",
            "my-element",
            "blink",
            "a-",
            "tablex",
        ] {
            names.push(extra.to_owned());
        }
        for tag in ["div", "selectedcontent", "annotation-xml", "foreignobject"] {
            names.push(tag.to_uppercase());
            names.push(format!("{tag}s"));
            names.push(tag[..tag.len() - 1].to_owned());
        }
        for name in &names {
            let want = Tag::from_name(name);
            for (before, after) in [
                ("<", ">"),
                ("<", " class=a>"),
                ("xxxxxxxxxxxxxxxxxxxx<", ""),
            ] {
                for pad in ["", "p>x</p><div class=foo>"] {
                    let input = format!("{before}{name}{after}{pad}");
                    let at = before.len();
                    let got = Tag::from_raw_name(input.as_bytes(), at, name.len());
                    assert_eq!(got, want, "{input:?}");
                }
            }
        }
        // A span past the input's end finds nothing.
        assert_eq!(Tag::from_raw_name(b"<di", 1, 3), Tag::Unknown);
    }

    #[test]
    fn names_round_trip() {
        for name in [
            "a",
            "annotation-xml",
            "foreignobject",
            "xmp",
            "selectedcontent",
        ] {
            assert_eq!(Tag::from_name(name).as_str(), name);
        }
        assert_eq!(Tag::from_name("blink"), Tag::Unknown);
        assert_eq!(
            Tag::from_name("DIV"),
            Tag::Unknown,
            "names are looked up lowercase"
        );
    }

    #[test]
    fn sets() {
        assert!(Name::html(Tag::Search).is_special());
        assert!(!Name::html(Tag::Span).is_special());
        assert!(
            Name {
                ns: Ns::Svg,
                tag: Tag::Title
            }
            .is_special()
        );
        assert!(
            !Name {
                ns: Ns::Svg,
                tag: Tag::Div
            }
            .is_special()
        );
        assert!(Name::html(Tag::Nobr).is_formatting());
        assert_eq!(
            Name {
                ns: Ns::Svg,
                tag: Tag::ForeignObject
            }
            .known_local_name(),
            Some("foreignObject")
        );
        assert_eq!(adjust_svg_tag_name("clippath"), Some("clipPath"));
        // The filter before the `match` lets every listed name through, and the `match`
        // adjusts each; names it stops are not in the list.
        for &name in SVG_ATTRIBUTE_NAMES {
            let adjusted = adjust_svg_attribute(name).expect("a listed name is adjusted");
            assert!(adjusted.as_bytes().eq_ignore_ascii_case(name));
        }
        assert_eq!(adjust_svg_attribute(b"viewbox"), Some("viewBox"));
        for name in [
            &b""[..],
            b"d",
            b"fill",
            b"viewbo",
            b"viewBox",
            b"VIEWBOX",
            b"zz",
        ] {
            assert_eq!(adjust_svg_attribute(name), None);
        }
        assert_eq!(
            adjust_foreign_attribute(b"xml:lang"),
            Some((AttrNs::Xml, "lang"))
        );
        assert_eq!(adjust_foreign_attribute(b"lang"), None);
        assert_eq!(adjust_foreign_attribute(b""), None);
        // The packed words are the bytes in order, zero-padded, with the length in the
        // top byte, at every length, the same at run time and at compile time.
        let name = b"abcdefghijklmno";
        for len in 0..=LONGEST {
            let mut bytes = [0u8; 16];
            bytes[..len].copy_from_slice(&name[..len]);
            bytes[15] = len as u8;
            let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
            let hi = u64::from_le_bytes(bytes[8..].try_into().unwrap());
            assert_eq!(pack(&name[..len]), (lo, hi), "{len}");
            assert_eq!(pack_const(&name[..len]), (lo, hi), "{len}");
            if len > 0 {
                // The window's bytes past the name do not count.
                let mut window = [0xffu8; 16];
                window[..len].copy_from_slice(&name[..len]);
                assert_eq!(pack_window(&window, len), (lo, hi), "{len}");
            }
        }
        assert_eq!(
            adjust_foreign_attribute(b"xlink:href"),
            Some((AttrNs::XLink, "href"))
        );
    }
}
