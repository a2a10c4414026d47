//! What segmentation keeps of one element, which scoring and output read: its counts
//! of text, links, commas and children ([`Block`]) and its flags.

use htmltok_tree::Tag;

/// The element was dropped with its subtree.
pub(crate) const REMOVED: u8 = 1;
/// The element lays out as a block (a line of its own).
pub(crate) const BLOCK: u8 = 2;
/// A block-level element is among the element's children.
pub(crate) const HAS_BLOCK_CHILD: u8 = 4;
/// The element is, or is inside, a link.
pub(crate) const IN_LINK: u8 = 8;

/// What segmentation knows of one node (indexed by node id; zero for nodes not reached).
#[derive(Clone, Copy, Default)]
pub(crate) struct Block {
    /// Text characters below the element (as [`super::text_counts::tally`] counts them).
    pub(crate) chars: u32,
    /// Those of them inside links.
    pub(crate) link_chars: u32,
    /// Commas below the element.
    pub(crate) commas: u32,
    /// Text characters the element holds itself (not inside a block-level descendant).
    pub(crate) own_chars: u32,
    /// Commas in that text.
    pub(crate) own_commas: u32,
    /// `p` elements at or below the element.
    pub(crate) paragraphs: u32,
    /// `li` elements below it.
    pub(crate) items: u32,
    /// `img` elements below it.
    pub(crate) images: u32,
    /// Form controls (`input`) below it.
    pub(crate) inputs: u32,
    /// Nodes at or below it (kept ones).
    pub(crate) size: u32,
    /// The block of the nearest block-level element at or above it: whose own text its
    /// text is.
    pub(crate) owner: u32,
    /// The `class`/`id` weight.
    pub(crate) weight: i16,
    /// [`REMOVED`], [`BLOCK`], [`HAS_BLOCK_CHILD`], [`IN_LINK`].
    pub(crate) flags: u8,
    /// The element's tag when it is an HTML element (kept here so that scoring reads no
    /// tree node for it).
    pub(crate) tag: Option<Tag>,
}

impl Block {
    /// The share of the text inside links (0 for an element without text).
    pub(crate) fn link_density(&self) -> f32 {
        if self.chars == 0 {
            0.0
        } else {
            self.link_chars as f32 / self.chars as f32
        }
    }
}
