//! Block segmentation: one pass over the block walk's elements and texts (the tree is
//! walked once, by [`super::units`]) that drops boilerplate subtrees and counts, for
//! every element left, the text below it — in characters, not space-separated words, so
//! that CJK and Thai pages count like the rest — the part of it inside links, its
//! commas, and the text it holds itself (outside any block-level descendant:
//! Readability's "paragraph" once it has wrapped a container's loose text).

use htmltok_tree::{DocumentRef, Tag};

use super::Reads;
use super::hints::{self, TagKind};
use super::spare::Spare;
use super::units::{NONE, Units};
use crate::visible::{self, Layout};

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
    /// Text characters below the element (whitespace not counted; see [`weigh`]).
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

/// Whether a character is a comma of some script (Latin, Arabic, CJK full-width and
/// ideographic, the small and vertical forms): commas mark prose, not menus, in every
/// language.
fn is_comma(c: char) -> bool {
    matches!(
        c,
        ',' | '\u{060C}'
            | '\u{FE50}'
            | '\u{FE10}'
            | '\u{FE11}'
            | '\u{2E41}'
            | '\u{2E34}'
            | '\u{2E32}'
            | '\u{FF0C}'
            | '\u{3001}'
    )
}

/// How many characters a character counts for. One, but a Han, kana or Hangul
/// character counts three: one of them carries about what a three-letter-plus-space
/// stretch of alphabetic text does, so the length thresholds (a paragraph is 20
/// characters, 85 make a point of score) mean the same on CJK pages. Whitespace counts
/// nothing.
fn weigh(c: char) -> u32 {
    match c {
        '\t' | '\n' | '\x0C' | '\r' | ' ' | '\u{A0}' => 0,
        '\u{1100}'..='\u{11FF}'
        | '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}'
        | '\u{F900}'..='\u{FAFF}' => 3,
        c if c.is_whitespace() => 0,
        _ => 1,
    }
}

/// The code points of the multi-byte characters of UTF-8 `bytes` (ASCII skipped): what
/// [`measure`] weighs, read from the bytes so that a text node's text needs no `&str`
/// (and so no UTF-8 check, which on every text node is a large part of main text's
/// cost). A malformed sequence — which the tree never holds — yields whatever its bits
/// say, never a panic.
fn non_ascii(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let lead = loop {
            let b = *bytes.get(i)?;
            i += 1;
            if b >= 0xC0 {
                break b;
            }
        };
        // The lead byte's payload bits, then six from each continuation byte.
        let (mut c, more) = match lead {
            0xC0..=0xDF => (u32::from(lead & 0x1F), 1),
            0xE0..=0xEF => (u32::from(lead & 0x0F), 2),
            _ => (u32::from(lead & 0x07), 3),
        };
        for _ in 0..more {
            match bytes.get(i) {
                Some(&b) if b & 0xC0 == 0x80 => {
                    c = (c << 6) | u32::from(b & 0x3F);
                    i += 1;
                }
                _ => break,
            }
        }
        Some(c)
    })
}

/// The weighted length and the commas of a text, given as its UTF-8 bytes.
pub(crate) fn measure(bytes: &[u8]) -> (u32, u32) {
    let t = tally::<false>(bytes);
    (t.chars, t.commas)
}

/// Whether [`measure`] counts at least `chars` characters in the text: counted a stretch
/// at a time (cut at character boundaries), stopping once there are enough.
pub(crate) fn at_least(text: &str, chars: u32) -> bool {
    const STRETCH: usize = 512;
    let mut rest = text;
    let mut counted = 0u32;
    while !rest.is_empty() {
        let mut end = rest.len().min(STRETCH);
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        let (stretch, after) = rest.split_at(end);
        counted = counted.saturating_add(measure(stretch.as_bytes()).0);
        if counted >= chars {
            return true;
        }
        rest = after;
    }
    counted >= chars
}

/// What [`tally`] counts of a text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Characters, weighted (see [`weigh`]).
    pub(crate) chars: u32,
    /// Commas of every script.
    pub(crate) commas: u32,
    /// Sentence ends: `.`, `!`, `?` and the CJK `。`, `！`, `？` (with `STOPS` only).
    pub(crate) stops: u32,
    /// ASCII digits (with `STOPS` only).
    pub(crate) digits: u32,
}

/// Every text node's [`Tally`], each counted at most once a page (the block walk and the
/// page's kind count the same texts).
pub(crate) struct TextCache {
    /// By node id; [`TextCache::UNKNOWN`] until counted.
    tallies: Vec<Tally>,
}

impl TextCache {
    const UNKNOWN: Tally = Tally {
        chars: u32::MAX,
        commas: 0,
        stops: 0,
        digits: 0,
    };

    /// A cache for a document of `nodes` nodes, in `buffer` (emptied first); for 0
    /// nodes, one that counts every text it is asked for and keeps nothing.
    pub(crate) fn new(mut buffer: Vec<Tally>, nodes: usize) -> TextCache {
        buffer.clear();
        buffer.resize(nodes, TextCache::UNKNOWN);
        TextCache { tallies: buffer }
    }

    /// The cache's buffer, for another page (the cache is left empty).
    pub(crate) fn take_buffer(&mut self) -> Vec<Tally> {
        std::mem::take(&mut self.tallies)
    }

    /// The counts of the text node `id`, whose text is `bytes` (read only the first
    /// time; `tally::<true>`'s counts).
    pub(crate) fn tally<'a>(&mut self, id: u32, bytes: impl FnOnce() -> &'a [u8]) -> Tally {
        match self.tallies.get_mut(id as usize) {
            Some(t) if t.chars != u32::MAX => *t,
            Some(t) => {
                *t = tally::<true>(bytes());
                *t
            }
            None => tally::<true>(bytes()),
        }
    }
}

/// The counts of a text, given as its UTF-8 bytes, in one pass: [`measure`]'s, and with
/// `STOPS` the sentence ends and digits the block model reads too.
pub(crate) fn tally<const STOPS: bool>(bytes: &[u8]) -> Tally {
    let is_space = |b: u8| b == b' ' || (b.wrapping_sub(b'\t') < 5 && b != 0x0B);
    // Shortcut: whitespace alone (the indentation between tags, most of a page's text
    // nodes) counts nothing.
    if bytes.iter().all(|&b| is_space(b)) {
        return Tally::default();
    }
    // The ASCII counts — whitespace, commas, bytes that continue a character, and the
    // stops and digits — in blocks of 32 without branches, which the compiler turns into
    // vector instructions (byte by byte, this filter would be a large part of main text's
    // cost).
    let count = |chunk: &[u8]| {
        let (mut s, mut c, mut k, mut stops, mut digits) = (0u8, 0u8, 0u8, 0u8, 0u8);
        for &b in chunk {
            s += u8::from(is_space(b));
            c += u8::from(b == b',');
            k += u8::from(b & 0xC0 == 0x80);
            if STOPS {
                stops += u8::from(b == b'.' || b == b'!' || b == b'?');
                digits += u8::from(b.wrapping_sub(b'0') < 10);
            }
        }
        [s, c, k, stops, digits].map(usize::from)
    };
    let mut sums = [0usize; 5];
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        for (sum, n) in sums.iter_mut().zip(count(chunk)) {
            *sum += n;
        }
    }
    // The remainder (most texts are shorter than a block) as a block padded with zero
    // bytes, which count as nothing, so that it too is counted without branches.
    let rest = chunks.remainder();
    let mut last = [0u8; 32];
    last[..rest.len()].copy_from_slice(rest);
    for (sum, n) in sums.iter_mut().zip(count(&last)) {
        *sum += n;
    }
    let [spaces, commas, continuations, stops, digits] = sums;
    let mut t = Tally {
        chars: (bytes.len() - spaces - continuations) as u32,
        commas: commas as u32,
        stops: stops as u32,
        digits: digits as u32,
    };
    if continuations > 0 {
        // Multi-byte characters counted one each so far: weigh them.
        for c in non_ascii(bytes).filter_map(char::from_u32) {
            t.chars = t.chars + weigh(c) - 1;
            t.commas += u32::from(is_comma(c));
            if STOPS {
                t.stops += u32::from(matches!(c, '。' | '！' | '？'));
            }
        }
    }
    t
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition `tally` implements on bytes, on `char`s: weights summed, commas
    /// of every script counted, sentence ends and digits.
    fn tally_by_chars(text: &str) -> Tally {
        let (chars, commas) = by_chars(text);
        Tally {
            chars,
            commas,
            stops: text
                .chars()
                .filter(|c| matches!(c, '.' | '!' | '?' | '。' | '！' | '？'))
                .count() as u32,
            digits: text.chars().filter(char::is_ascii_digit).count() as u32,
        }
    }

    /// The definition `measure` implements on bytes, on `char`s: weights summed, commas
    /// of every script counted.
    fn by_chars(text: &str) -> (u32, u32) {
        let chars = text.chars().map(weigh).sum();
        let commas = text.chars().filter(|&c| is_comma(c)).count() as u32;
        (chars, commas)
    }

    #[test]
    fn measure_on_bytes_is_measure_on_chars() {
        let texts = [
            "",
            "plain ASCII, with commas, and\ttabs\r\n",
            "caf\u{e9}\u{a0}cr\u{e8}me, \u{2003}br\u{fb}l\u{e9}e",
            "東京都、日本。ひらがな、カタカナ，한국어 문장",
            "مرحبا، كيف حالك",
            "ภาษาไทย\u{3000}𝄞 emoji 😀, ﹐︐",
            // Over 32 bytes, so that the blocked count and its remainder both run.
            &"Ünïcödé, 漢字 and more text, ".repeat(7),
        ];
        for text in texts {
            assert_eq!(measure(text.as_bytes()), by_chars(text), "{text:?}");
            assert_eq!(
                tally::<true>(text.as_bytes()),
                tally_by_chars(text),
                "{text:?}"
            );
        }
        let text = "One. Two! Three? 42 items: 日本語の文。質問？はい！ 12,345.67.";
        assert_eq!(tally::<true>(text.as_bytes()), tally_by_chars(text));
        // Every length from 0 to 80 bytes, so that each split into 32-byte blocks and a
        // remainder is taken, with every kind of byte at every place in a block.
        let mixed = "a,\t\n\x0C\r \u{e9}漢、\u{a0}x\u{2003}😀z".repeat(4);
        for end in (0..=mixed.len()).filter(|&i| mixed.is_char_boundary(i)) {
            for start in (0..end).filter(|&i| mixed.is_char_boundary(i)).take(9) {
                let text = &mixed[start..end];
                assert_eq!(measure(text.as_bytes()), by_chars(text), "{text:?}");
                assert_eq!(
                    tally::<true>(text.as_bytes()),
                    tally_by_chars(text),
                    "{text:?}"
                );
            }
        }
    }

    /// `at_least` answers as the whole text's count does, whatever the stretch cut.
    #[test]
    fn at_least_is_a_count_of_the_whole_text() {
        let texts = [
            String::new(),
            "short text".to_string(),
            "漢字".repeat(400),
            "word, ".repeat(300),
            format!("{}{}", "a".repeat(511), "漢字".repeat(100)),
        ];
        for text in &texts {
            let whole = measure(text.as_bytes()).0;
            for chars in [0, 1, 10, 199, 200, 1000, whole, whole + 1] {
                assert_eq!(at_least(text, chars), whole >= chars, "{chars} of {whole}");
            }
        }
    }
}
