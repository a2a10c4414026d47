//! What the block walk ([`super::units`]) keeps of a page: each element it keeps, with
//! what the element is inside ([`inside`]), each text node below them, and each block of
//! text.

use htmltok_tree::Tag;

/// What an element is inside (itself included): bits inherited from parent to child.
pub(crate) mod inside {
    pub(crate) const NAV: u32 = 1 << 0;
    pub(crate) const ASIDE: u32 = 1 << 1;
    pub(crate) const FOOTER: u32 = 1 << 2;
    pub(crate) const HEADER: u32 = 1 << 3;
    pub(crate) const FORM: u32 = 1 << 4;
    pub(crate) const DIALOG: u32 = 1 << 5;
    pub(crate) const MAIN: u32 = 1 << 6;
    pub(crate) const ARTICLE: u32 = 1 << 7;
    pub(crate) const LIST: u32 = 1 << 8;
    pub(crate) const TABLE: u32 = 1 << 9;
    pub(crate) const LINK: u32 = 1 << 10;
    pub(crate) const HEADING: u32 = 1 << 11;
    pub(crate) const PRE: u32 = 1 << 12;
    pub(crate) const QUOTE: u32 = 1 << 13;
    pub(crate) const FIGURE: u32 = 1 << 14;
    /// A `role` of navigation or a side block.
    pub(crate) const SIDE_ROLE: u32 = 1 << 15;
    /// A `class`/`id` naming comments.
    pub(crate) const COMMENT_NAME: u32 = 1 << 16;
    /// A `class`/`id` naming cookie or consent banners.
    pub(crate) const BOILERPLATE_NAME: u32 = 1 << 17;
    pub(crate) const UNLIKELY_NAME: u32 = 1 << 18;
    pub(crate) const NEGATIVE_NAME: u32 = 1 << 19;
    pub(crate) const POSITIVE_NAME: u32 = 1 << 20;
    /// Inside a container Readability's scoring chose.
    pub(crate) const SELECTED: u32 = 1 << 21;
    /// Inside an element Readability's output leaves out.
    pub(crate) const LEFT_OUT: u32 = 1 << 22;
    pub(crate) const SECTION: u32 = 1 << 23;
    /// Inside `noscript`: what the page shows without scripts (some forums show their
    /// posts only there).
    pub(crate) const NOSCRIPT: u32 = 1 << 24;
    /// How many bits there are.
    pub(crate) const COUNT: usize = 25;
}

/// No element (a parent, an owner, an anchor).
pub(crate) const NONE: u32 = u32::MAX;

/// What the walk keeps of one element.
#[derive(Clone, Copy)]
pub(crate) struct Element {
    /// The element's node id.
    pub(crate) node: u32,
    /// The parent element's index (or [`NONE`]).
    pub(crate) parent: u32,
    /// The [`inside`] bits.
    pub(crate) inside: u32,
    /// The `class`/`id` weights of the element and its ancestors, summed.
    pub(crate) weight: i32,
    pub(crate) depth: u32,
    /// The nearest block-level element at or above it (whose own text its text is).
    pub(crate) owner: u32,
    /// The nearest element at or above it with enough siblings of its shape to make a
    /// repeated group (`REPEATED` in [`super::units`]).
    pub(crate) anchor: u32,
    /// Text characters below it ([`super::text_counts::tally`]'s count) and those inside
    /// links.
    pub(crate) chars: u32,
    pub(crate) link_chars: u32,
    /// Element children.
    pub(crate) children: u32,
    /// Its shape: its name and `class`, hashed.
    pub(crate) shape: u64,
    /// Siblings of its shape, itself included.
    pub(crate) shape_count: u32,
    /// Its block of text's index in [`super::units::Units::units`] (or [`NONE`]).
    pub(crate) unit: u32,
    /// Levels up to the nearest element at or above it that is, or holds, a container
    /// Readability chose (0 inside one).
    pub(crate) to_selection: u32,
    /// Form controls (`input`) among its children (which the walk does not keep).
    pub(crate) inputs: u32,
    pub(crate) tag: Option<Tag>,
}

/// One text node of the walk.
#[derive(Clone, Copy)]
pub(crate) struct Text {
    pub(crate) node: u32,
    /// Its parent element's index.
    pub(crate) parent: u32,
    /// The element owning it (see [`Element::owner`]), or [`NONE`].
    pub(crate) owner: u32,
    /// Its [`super::text_counts::Tally`] counts.
    pub(crate) chars: u32,
    pub(crate) commas: u32,
}

/// One block of text.
#[derive(Clone, Default)]
pub(crate) struct Unit {
    /// The block-level element whose own text it is (its index in the walk).
    pub(crate) element: u32,
    /// Text characters ([`super::text_counts::tally`]'s count).
    pub(crate) chars: u32,
    pub(crate) link_chars: u32,
    pub(crate) commas: u32,
    /// Sentence ends (`.`, `!`, `?` and their CJK forms).
    pub(crate) stops: u32,
    pub(crate) digits: u32,
    /// The text ends with a sentence end.
    pub(crate) ends_sentence: bool,
    /// Characters of the page before it.
    pub(crate) before: u32,
    /// The text itself (collected for training only).
    pub(crate) text: String,
}
