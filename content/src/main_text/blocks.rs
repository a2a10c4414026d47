//! Block segmentation: one pass over the block walk's elements and texts (the tree is
//! walked once, by [`super::units`]) that drops boilerplate subtrees and counts, for
//! every element left, the text below it — in characters, not space-separated words, so
//! that CJK and Thai pages count like the rest — the part of it inside links, its
//! commas, and the text it holds itself (outside any block-level descendant:
//! Readability's "paragraph" once it has wrapped a container's loose text).

use htmltok_tree::{DocumentRef, Tag};

use super::block_counts::{BLOCK, Block, HAS_BLOCK_CHILD, IN_LINK, REMOVED};
use super::hints::{self, TagKind};
use super::reads::Reads;
use super::spare::Spare;
use super::units::Units;
use super::walk_records::NONE;
use crate::visible::{self, Layout};

/// The walk's result. The blocks are stored densely, one per element kept (the element
/// `order[i]` has `blocks[KEPT + i]`), with one shared block for the nodes not reached
/// and one for the elements dropped: zeroing a block for every node of the tree (text,
/// comments, scripts' insides) would be a sizable part of the walk's time, and a node's
/// slot (`slots`, by node id) is a twelfth of a block's size.
pub(crate) struct Blocks {
    blocks: Vec<Block>,
    /// Each node's block in `blocks`, by node id.
    slots: Vec<u32>,
    /// The elements kept, in document order.
    pub(crate) order: Vec<u32>,
}

/// The shared block of the nodes the walk did not reach: all zero.
const UNREACHED: u32 = 0;
/// The shared block of the elements dropped: [`REMOVED`], nothing counted.
const DROPPED: u32 = 1;
/// The document's block (the parent of the top-level elements).
const ROOT: u32 = 2;
/// The block of `order[0]`.
const KEPT: u32 = 3;

impl Blocks {
    /// The block of node `id`.
    pub(crate) fn get(&self, id: u32) -> &Block {
        &self.blocks[self.slots[id as usize] as usize]
    }

    /// The block of `order[i]`.
    pub(crate) fn in_order(&self, i: usize) -> &Block {
        &self.blocks[KEPT as usize + i]
    }

    /// The place in `order` of node `id`, when the walk kept it (an element).
    pub(crate) fn position(&self, id: u32) -> Option<usize> {
        (self.slots[id as usize] as usize).checked_sub(KEPT as usize)
    }

    /// How many nodes the document has.
    pub(crate) fn node_count(&self) -> usize {
        self.slots.len()
    }

    /// Gives the buffers to `spare`, for another page.
    pub(crate) fn recycle(self, spare: &mut Spare) {
        spare.give_blocks(self.blocks);
        spare.give_numbers(self.slots);
        spare.give_numbers(self.order);
    }
}

/// Drops boilerplate and counts text (see the module's doc) over the block walk's
/// elements and texts, in document order, without walking the tree again: the walk keeps
/// every element this drops but those it skips itself (scripts, form controls, hidden
/// ones), which this drops too. `strip_unlikely`: whether elements whose `class`/`id` say
/// unlikely (comments, menus, …) and `header` elements are dropped too; `show_hidden`:
/// whether elements hidden by their attributes are kept (see [`super::extract`]).
pub(crate) fn segment(
    doc: &DocumentRef<'_>,
    walk: &Units,
    strip_unlikely: bool,
    show_hidden: bool,
    reads: &mut Reads,
) -> Blocks {
    let elements = &walk.elements;
    let spare = &mut reads.spare;
    let mut slots = spare.numbers();
    slots.resize(doc.node_count(), UNREACHED);
    // Room for every element, reserved but not written: only the kept elements' blocks are.
    let mut blocks = spare.blocks();
    blocks.reserve(KEPT as usize + elements.len());
    blocks.resize(KEPT as usize, Block::default());
    blocks[DROPPED as usize].flags = REMOVED;
    // Text with no block-level element above it is the document's own.
    blocks[ROOT as usize].owner = ROOT;
    let mut order = spare.numbers();
    order.reserve(elements.len());
    // The parent's block of each element of `order`, for the sweep below.
    let mut parents = spare.numbers();
    parents.reserve(elements.len());
    slots[doc.root().id() as usize] = ROOT;
    // Each element's block: its own when kept, [`DROPPED`] when dropped, [`UNREACHED`]
    // below a dropped one.
    let mut block_of = spare.numbers();
    block_of.resize(elements.len(), UNREACHED);
    let kept = |slot: u32| slot >= ROOT;
    for (i, e) in elements.iter().enumerate() {
        let parent = if e.parent == NONE {
            ROOT
        } else {
            block_of[e.parent as usize]
        };
        if !kept(parent) {
            continue;
        }
        let tag = e.tag;
        let layout = tag.map(visible::layout);
        let structural = matches!(
            tag,
            Some(Tag::Html | Tag::Body | Tag::Article | Tag::Main | Tag::A)
        );
        // The tag decides first: an element it drops (navigation, …) needs no names. (The
        // walk left out the elements laid out as nothing, and SVG.)
        let by_tag = match tag.map(hints::tag_kind) {
            Some(TagKind::Drop) => true,
            Some(TagKind::Header) => strip_unlikely,
            _ => false,
        };
        let names = if by_tag {
            hints::Names::default()
        } else {
            reads.names.names(&doc.node(e.node), show_hidden)
        };
        if by_tag
            || names.dropped
            || (names.boilerplate && !structural)
            || (strip_unlikely && names.unlikely && !structural)
        {
            block_of[i] = DROPPED;
            slots[e.node as usize] = DROPPED;
            continue;
        }
        let is_block = layout.is_some_and(|l| !matches!(l, Layout::Inline | Layout::Break));
        let slot = blocks.len() as u32;
        block_of[i] = slot;
        slots[e.node as usize] = slot;
        let parent_block = &mut blocks[parent as usize];
        if is_block {
            parent_block.flags |= HAS_BLOCK_CHILD;
        }
        match tag {
            Some(Tag::Li) => parent_block.items += 1,
            Some(Tag::Img) => parent_block.images += 1,
            _ => {}
        }
        let (in_link, parent_owner) = (parent_block.flags & IN_LINK, parent_block.owner);
        blocks.push(Block {
            flags: blocks_flags(is_block, tag == Some(Tag::A)) | in_link,
            weight: names.weight as i16,
            paragraphs: u32::from(tag == Some(Tag::P)),
            size: 1,
            owner: if is_block { slot } else { parent_owner },
            inputs: e.inputs,
            tag,
            ..Block::default()
        });
        order.push(e.node);
        parents.push(parent);
    }
    // What the walk skipped under a kept element is dropped here (scripts, controls, …).
    for &(node, parent) in &walk.skipped_children {
        if kept(block_of[parent as usize]) {
            slots[node as usize] = DROPPED;
        }
    }
    for text in &walk.texts {
        let parent = block_of[text.parent as usize];
        if !kept(parent) || text.chars == 0 {
            continue;
        }
        let b = &mut blocks[parent as usize];
        b.chars += text.chars;
        b.commas += text.commas;
        if b.flags & IN_LINK != 0 {
            b.link_chars += text.chars;
        }
        let owner = b.owner as usize;
        let owner = &mut blocks[owner];
        owner.own_chars += text.chars;
        owner.own_commas += text.commas;
    }
    // Subtree totals: children after their parents in `order`, so one backward sweep
    // adds each element into its parent.
    for (i, &parent) in parents.iter().enumerate().rev() {
        let b = blocks[KEPT as usize + i];
        let p = &mut blocks[parent as usize];
        p.chars += b.chars;
        p.link_chars += b.link_chars;
        p.commas += b.commas;
        p.paragraphs += b.paragraphs;
        p.items += b.items;
        p.images += b.images;
        p.inputs += b.inputs;
        p.size += b.size;
    }
    reads.spare.give_numbers(parents);
    reads.spare.give_numbers(block_of);
    Blocks {
        blocks,
        slots,
        order,
    }
}

fn blocks_flags(is_block: bool, is_link: bool) -> u8 {
    (if is_block { BLOCK } else { 0 }) | (if is_link { IN_LINK } else { 0 })
}
