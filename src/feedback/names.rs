//! The lists of element names the simulated tree builder consults, as the standard gives
//! them (each with its section), and the packed-name keys the rules compare. The element
//! categories it shares with `htmltok-tree` live in [`crate::elements`].

pub(super) use crate::elements::{
    FORMATTING, HEADINGS, LIST_ITEM_SCOPE, SCOPE, SPECIAL, TABLE_SCOPE,
};

/// Start tags that break out of foreign content (13.2.6.5, "A start tag whose tag name is
/// one of: …"); `font` only with a `color`, `face` or `size` attribute.
pub(super) const BREAKOUT_TAGS: &[&[u8]] = &[
    b"b",
    b"big",
    b"blockquote",
    b"body",
    b"br",
    b"center",
    b"code",
    b"dd",
    b"div",
    b"dl",
    b"dt",
    b"em",
    b"embed",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"head",
    b"hr",
    b"i",
    b"img",
    b"li",
    b"listing",
    b"menu",
    b"meta",
    b"nobr",
    b"ol",
    b"p",
    b"pre",
    b"ruby",
    b"s",
    b"small",
    b"span",
    b"strong",
    b"strike",
    b"sub",
    b"sup",
    b"table",
    b"tt",
    b"u",
    b"ul",
    b"var",
];

/// The first 8 bytes of `name`, ASCII-lowercased, packed little-endian: with the length,
/// the whole name when it has at most 8 bytes.
#[inline]
pub(super) fn lower_key(name: &[u8]) -> u64 {
    let mut key = 0u64;
    for (i, &b) in name.iter().take(8).enumerate() {
        key |= u64::from(b.to_ascii_lowercase()) << (8 * i);
    }
    key
}

/// [`lower_key`] of the name at `start..end` of `input`, with one 8-byte load and a
/// bytewise ASCII lowercasing when the input goes on that far.
#[inline(always)]
pub(super) fn lower_key_at(input: &[u8], start: usize, end: usize) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let len = end - start;
    match input.get(start..start + 8) {
        Some(word) => {
            let mut x = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            if len < 8 {
                x &= (1u64 << (8 * len)) - 1;
            }
            // A byte's high bit in `upper` is set when it is in `A..=Z`.
            let low7 = x & (0x7F * ONES);
            let ge_a = low7 + (0x80 - u64::from(b'A')) * ONES;
            let gt_z = low7 + (0x80 - u64::from(b'Z') - 1) * ONES;
            let upper = ge_a & !gt_z & !x & (0x80 * ONES);
            x | (upper >> 2)
        }
        None => lower_key(&input[start..end]),
    }
}

/// [`lower_key`] of a lowercase name, at compile time.
pub(super) const fn key(name: &[u8]) -> u64 {
    let mut key = 0u64;
    let mut i = 0;
    while i < name.len() && i < 8 {
        key |= (name[i] as u64) << (8 * i);
        i += 1;
    }
    key
}

pub(super) fn eq(a: &[u8], b: &[u8]) -> bool {
    a.eq_ignore_ascii_case(b)
}

pub(super) fn one_of(name: &[u8], list: &[&[u8]]) -> bool {
    list.iter().any(|n| eq(n, name))
}

/// HTML start tags that never stay on the stack in "in body": the void elements and
/// `image`, and the ones "in body" ignores (13.2.6.4.7).
pub(super) const NOT_PUSHED: &[&[u8]] = &[
    b"area",
    b"base",
    b"basefont",
    b"bgsound",
    b"br",
    b"col",
    b"embed",
    b"hr",
    b"image",
    b"img",
    b"input",
    b"keygen",
    b"link",
    b"meta",
    b"param",
    b"source",
    b"track",
    b"wbr",
    b"frame",
    b"html",
    b"body",
    b"head",
    b"caption",
    b"colgroup",
    b"tbody",
    b"td",
    b"tfoot",
    b"th",
    b"thead",
    b"tr",
];

/// The table tags "in body" ignores but the table modes insert.
pub(super) const TABLE_PARTS: &[&[u8]] = &[
    b"caption",
    b"col",
    b"colgroup",
    b"tbody",
    b"td",
    b"tfoot",
    b"th",
    b"thead",
    b"tr",
];

/// Start tags that close a `p` element in button scope first (13.2.6.4.7).
pub(super) const CLOSES_P: &[&[u8]] = &[
    b"address",
    b"article",
    b"aside",
    b"blockquote",
    b"center",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"header",
    b"hgroup",
    b"main",
    b"menu",
    b"nav",
    b"ol",
    b"p",
    b"search",
    b"section",
    b"summary",
    b"ul",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"pre",
    b"listing",
    b"form",
    b"plaintext",
    b"table",
    b"hr",
    b"xmp",
];

/// End tags with an "in scope" rule in "in body" (13.2.6.4.7), including the formatting
/// elements (the adoption agency algorithm, which gives up unless the element is in
/// scope).
pub(super) const SCOPED_END: &[&[u8]] = &[
    b"address",
    b"article",
    b"aside",
    b"blockquote",
    b"button",
    b"center",
    b"details",
    b"dialog",
    b"dir",
    b"div",
    b"dl",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"header",
    b"hgroup",
    b"listing",
    b"main",
    b"menu",
    b"nav",
    b"ol",
    b"pre",
    b"search",
    b"section",
    b"select",
    b"summary",
    b"ul",
    b"li",
    b"dd",
    b"dt",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"applet",
    b"marquee",
    b"object",
    b"a",
    b"b",
    b"big",
    b"code",
    b"em",
    b"font",
    b"i",
    b"nobr",
    b"s",
    b"small",
    b"strike",
    b"strong",
    b"tt",
    b"u",
];

/// "In head" start tags that "in body" and "in template" hand to "in head" (13.2.6.4.7,
/// 13.2.6.4.18).
pub(super) const IN_HEAD: &[&[u8]] = &[
    b"base",
    b"basefont",
    b"bgsound",
    b"link",
    b"meta",
    b"noframes",
    b"script",
    b"style",
    b"template",
    b"title",
];

/// The table sections.
pub(super) const TABLE_SECTIONS: &[&[u8]] = &[b"tbody", b"tfoot", b"thead"];

/// The elements whose insertion puts a marker on the list of active formatting elements
/// (13.2.6.4.7, 13.2.6.4.9, 13.2.6.4.14, 13.2.6.4.4).
pub(super) const AFE_MARKERS: &[&[u8]] = &[
    b"applet",
    b"caption",
    b"marquee",
    b"object",
    b"td",
    b"th",
    b"template",
];

/// The lists above an HTML element name belongs to, as bits: one hash lookup per tag and
/// one bit test per element a walk visits, instead of a scan of each list.
pub(super) mod cat {
    /// The special category (13.2.4.3).
    pub const SPECIAL: u32 = 1 << 0;
    /// Ends "has an element in scope" (13.2.4.2; `select` since the select parser
    /// relaxation, as in html5ever 0.40).
    pub const SCOPE: u32 = 1 << 1;
    /// Also ends "in list item scope": `ol`, `ul`.
    pub const LIST_SCOPE: u32 = 1 << 2;
    /// Ends "has an element in table scope": `html`, `table`, `template`.
    pub const TABLE_SCOPE: u32 = 1 << 3;
    /// [`super::CLOSES_P`].
    pub const CLOSES_P: u32 = 1 << 4;
    /// [`super::NOT_PUSHED`].
    pub const NOT_PUSHED: u32 = 1 << 5;
    /// [`super::FORMATTING`].
    pub const FORMATTING: u32 = 1 << 6;
    /// [`super::SCOPED_END`].
    pub const SCOPED_END: u32 = 1 << 7;
    /// [`super::HEADINGS`].
    pub const HEADING: u32 = 1 << 8;
    /// [`super::TABLE_PARTS`].
    pub const TABLE_PART: u32 = 1 << 9;
    /// [`super::IN_HEAD`].
    pub const IN_HEAD: u32 = 1 << 10;
    /// [`super::AFE_MARKERS`].
    pub const AFE_MARKER: u32 = 1 << 11;
    /// The end tags the table modes handle: `table` and [`super::TABLE_PARTS`].
    pub const TABLE_END: u32 = 1 << 12;
    /// [`super::START_SLOW`]: "in body" does more with the start tag than push it.
    pub const START_SLOW: u32 = 1 << 13;
    /// [`super::START_SPECIAL`]: "in body" may close an element before it pushes it.
    pub const START_SPECIAL: u32 = 1 << 15;
    /// [`super::SWITCHING`]: the start tag may switch the tokenizer's state.
    pub const SWITCH: u32 = 1 << 14;
}

/// Start tags that "in body" (13.2.6.4.7) does more with than close a `p`, close a
/// heading and push (or ignore, when void): `Simulator::fast_tag` leaves them to the
/// full rules (with the table parts, `table`, `template` and `html`, which have bits of
/// their own).
pub(super) const START_SLOW: &[&[u8]] = &[b"frameset", b"math", b"select", b"svg"];

/// Start tags that "in body" (13.2.6.4.7) may close an element for before it pushes
/// them (or, for `input`, a `select`): `Simulator::fast_tag` does that itself.
pub(super) const START_SPECIAL: &[&[u8]] = &[
    b"button",
    b"dd",
    b"dt",
    b"input",
    b"li",
    b"optgroup",
    b"option",
];

/// Start tags that may switch the tokenizer's state (`super::html_start_tag_kind`).
pub(super) const SWITCHING: &[&[u8]] = &[
    b"iframe",
    b"noembed",
    b"noframes",
    b"noscript",
    b"plaintext",
    b"script",
    b"style",
    b"textarea",
    b"title",
    b"xmp",
];

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    len: u8,
    flags: u32,
    name: &'static [u8],
}

const TABLE_BITS: u32 = 9;
const TABLE_MASK: usize = (1 << TABLE_BITS) - 1;

const fn slot(key: u64, len: usize) -> usize {
    ((key ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn add(
    mut table: [Entry; 1 << TABLE_BITS],
    list: &[&'static [u8]],
    flag: u32,
) -> [Entry; 1 << TABLE_BITS] {
    let mut i = 0;
    while i < list.len() {
        let name = list[i];
        let k = key(name);
        let mut s = slot(k, name.len());
        loop {
            if table[s].len == 0 {
                table[s] = Entry {
                    key: k,
                    len: name.len() as u8,
                    flags: flag,
                    name,
                };
                break;
            }
            if same(table[s].name, name) {
                table[s].flags |= flag;
                break;
            }
            s = (s + 1) & TABLE_MASK;
        }
        i += 1;
    }
    table
}

/// Open addressing over the lists' names (lowercase), built at compile time.
const CATEGORIES: [Entry; 1 << TABLE_BITS] = {
    let empty = Entry {
        key: 0,
        len: 0,
        flags: 0,
        name: b"",
    };
    let mut t = [empty; 1 << TABLE_BITS];
    t = add(t, SPECIAL, cat::SPECIAL);
    t = add(t, SCOPE, cat::SCOPE);
    t = add(t, LIST_ITEM_SCOPE, cat::LIST_SCOPE);
    t = add(t, TABLE_SCOPE, cat::TABLE_SCOPE);
    t = add(t, CLOSES_P, cat::CLOSES_P);
    t = add(t, NOT_PUSHED, cat::NOT_PUSHED);
    t = add(t, FORMATTING, cat::FORMATTING);
    t = add(t, SCOPED_END, cat::SCOPED_END);
    t = add(t, HEADINGS, cat::HEADING);
    t = add(t, TABLE_PARTS, cat::TABLE_PART);
    t = add(t, IN_HEAD, cat::IN_HEAD);
    t = add(t, AFE_MARKERS, cat::AFE_MARKER);
    t = add(t, TABLE_PARTS, cat::TABLE_END);
    t = add(t, &[b"table"], cat::TABLE_END);
    t = add(t, START_SLOW, cat::START_SLOW);
    t = add(t, START_SPECIAL, cat::START_SPECIAL);
    t = add(t, SWITCHING, cat::SWITCH);
    t
};

/// The [`cat`] bits of an HTML element name (raw bytes, any case); 0 for a name in no
/// list.
#[inline]
pub(super) fn categories(name: &[u8]) -> u32 {
    categories_keyed(name, lower_key(name))
}

/// [`categories`] given the name's [`lower_key`] `k`.
#[inline]
pub(super) fn categories_keyed(name: &[u8], k: u64) -> u32 {
    debug_assert_eq!(k, lower_key(name));
    if name.is_empty() || name.len() > 16 {
        return 0;
    }
    let mut s = slot(k, name.len());
    loop {
        let e = &CATEGORIES[s];
        if e.len == 0 {
            return 0;
        }
        if e.key == k && e.len as usize == name.len() && (name.len() <= 8 || eq(e.name, name)) {
            return e.flags;
        }
        s = (s + 1) & TABLE_MASK;
    }
}
