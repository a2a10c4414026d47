//! Main content block by block (issue #49, item 1): every block of text on the page (a
//! block-level element's own text: a paragraph, a list item, a table cell, a heading) is
//! described by what a reader of its markup sees — its length, links, punctuation, tag,
//! what it sits inside (navigation, a footer, an element named `comment`, the container
//! Readability chose), how many siblings share its shape (the cards of a listing, the
//! posts of a thread) and its neighbours — and a compiled-in model ([`super::model`])
//! decides which blocks are main content.
//!
//! The walk is one iterative pass over the tree with the element's context inherited
//! from its parent, and the block totals summed in one sweep back (Readability's passes
//! count their blocks from its elements and texts, and its choice is marked on them
//! after); the siblings' shapes are compared once per parent (bucketed by parent, sorted
//! within), so the whole is linear in the page but for those sorts.

use std::mem::take;
use std::sync::LazyLock;

use htmltok_tree::{DocumentRef, NodeData, NodeRef, Ns, Tag};

use super::Reads;
use super::blocks::{Blocks, REMOVED};
use super::hints::{self, Words};
use super::output::{LeftOut, PageTitle, normalize};
use super::select::Selection;
use super::spare::Spare;
use crate::visible::{self, Layout, Sink};
use crate::walk;

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

/// Siblings sharing a shape make a repeated group from this many on.
const REPEATED: u32 = 3;

/// What the walk keeps of one element.
#[derive(Clone, Copy)]
pub(crate) struct Element {
    /// The element's node id.
    pub(crate) node: u32,
    /// The parent element's index (or [`NONE`]).
    pub(crate) parent: u32,
    /// The [`inside`] bits.
    inside: u32,
    /// The `class`/`id` weights of the element and its ancestors, summed.
    weight: i32,
    depth: u32,
    /// The nearest block-level element at or above it (whose own text its text is).
    owner: u32,
    /// The nearest element at or above it with [`REPEATED`] siblings of its shape.
    anchor: u32,
    /// Text characters below it ([`super::blocks::tally`]'s count) and those inside
    /// links.
    chars: u32,
    link_chars: u32,
    /// Element children.
    children: u32,
    /// Its shape: its name and `class`, hashed.
    shape: u64,
    /// Siblings of its shape, itself included.
    shape_count: u32,
    /// Its block of text's index in [`Units::units`] (or [`NONE`]).
    unit: u32,
    /// Levels up to the nearest element at or above it that is, or holds, a container
    /// Readability chose (0 inside one).
    to_selection: u32,
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
    owner: u32,
    /// Its [`super::blocks::Tally`] counts.
    pub(crate) chars: u32,
    pub(crate) commas: u32,
}

/// One block of text.
#[derive(Clone, Default)]
pub(crate) struct Unit {
    /// The block-level element whose own text it is (its index in the walk).
    element: u32,
    /// Text characters ([`super::blocks::tally`]'s count).
    pub(crate) chars: u32,
    link_chars: u32,
    commas: u32,
    /// Sentence ends (`.`, `!`, `?` and their CJK forms).
    stops: u32,
    digits: u32,
    /// The text ends with a sentence end.
    ends_sentence: bool,
    /// Characters of the page before it.
    before: u32,
    /// The text itself (collected for training only).
    pub(crate) text: String,
}

/// The page's blocks of text and what the output needs to lay out a choice of them.
pub(crate) struct Units {
    /// The elements, in document order (parents before their children).
    pub(crate) elements: Vec<Element>,
    pub(crate) units: Vec<Unit>,
    /// The text nodes below the elements, in document order.
    pub(crate) texts: Vec<Text>,
    /// Elements never laid out (scripts, form controls, hidden): by node id, a bit each.
    skipped: Vec<u64>,
    /// Those of them with a parent element: (node id, the parent's index).
    pub(crate) skipped_children: Vec<(u32, u32)>,
    total_chars: u32,
    total_link_chars: u32,
}

/// What Readability's chosen pass says of the page, as [`Units::read_readability`]
/// reads it.
pub(crate) struct Readability<'a> {
    pub(crate) blocks: &'a Blocks,
    pub(crate) selection: &'a Selection,
    pub(crate) left_out: &'a LeftOut,
}

fn set(bits: &mut [u64], id: u32) {
    if let Some(word) = bits.get_mut(id as usize / 64) {
        *word |= 1 << (id % 64);
    }
}

fn get(bits: &[u64], id: u32) -> bool {
    bits.get(id as usize / 64)
        .is_some_and(|word| word & (1 << (id % 64)) != 0)
}

/// Elements whose content is never text a reader sees as such.
fn never_text(tag: Tag) -> bool {
    use Tag::*;
    matches!(
        tag,
        Script
            | Style
            | Template
            | Head
            | Title
            | Iframe
            | Object
            | Embed
            | Applet
            | Canvas
            | Button
            | Select
            | Input
            | Textarea
            | Datalist
            | Noembed
            | Noframes
            | Frameset
    )
}

/// The [`inside`] bits an HTML tag sets.
fn tag_bits(tag: Tag) -> u32 {
    use Tag::*;
    match tag {
        Nav | Menu => inside::NAV,
        Aside => inside::ASIDE,
        Footer => inside::FOOTER,
        Header => inside::HEADER,
        Form | Fieldset => inside::FORM,
        Dialog => inside::DIALOG,
        Main => inside::MAIN,
        Article => inside::ARTICLE,
        Ul | Ol | Dl => inside::LIST,
        Table => inside::TABLE,
        A => inside::LINK,
        H1 | H2 | H3 | H4 | H5 | H6 => inside::HEADING,
        Pre | Code => inside::PRE,
        Blockquote => inside::QUOTE,
        Figure | Figcaption => inside::FIGURE,
        Section => inside::SECTION,
        Noscript => inside::NOSCRIPT,
        _ => 0,
    }
}

/// The [`inside`] bits of `class`/`id` words and roles.
fn name_bits(names: &hints::Names) -> u32 {
    let w = names.words;
    let mut bits = 0;
    if names.side_role {
        bits |= inside::SIDE_ROLE;
    }
    if w & Words::COMMENT != 0 {
        bits |= inside::COMMENT_NAME;
    } else if w & Words::BOILERPLATE != 0 {
        bits |= inside::BOILERPLATE_NAME;
    }
    if names.unlikely {
        bits |= inside::UNLIKELY_NAME;
    }
    if w & Words::NEGATIVE != 0 {
        bits |= inside::NEGATIVE_NAME;
    }
    if w & Words::POSITIVE != 0 {
        bits |= inside::POSITIVE_NAME;
    }
    bits
}

/// Whether the text ends a sentence (`.`, `!`, `?`, `:` or a CJK stop before any
/// trailing whitespace); None for a text of whitespace only.
fn ends_sentence(bytes: &[u8]) -> Option<bool> {
    let last = bytes.iter().rposition(|b| !b.is_ascii_whitespace())?;
    Some(
        matches!(bytes[last], b'.' | b'!' | b'?' | b':')
            || (last >= 2
                && matches!(
                    &bytes[last - 2..=last],
                    [0xE3, 0x80, 0x82] | [0xEF, 0xBC, 0x81 | 0x9F]
                )),
    )
}

impl Units {
    /// Walks the document (see the module's doc); `collect_text`: keep each block's text
    /// (for training); `show_hidden`: read the elements hidden by their attributes too.
    /// What Readability chose is read after ([`Units::read_readability`]): Readability's
    /// passes count their blocks from this walk's elements and texts.
    pub(crate) fn walk(
        doc: &DocumentRef<'_>,
        collect_text: bool,
        show_hidden: bool,
        reads: &mut Reads,
    ) -> Units {
        let n = doc.node_count();
        let spare = &mut reads.spare;
        let mut slots = spare.numbers();
        slots.resize(n, NONE);
        let (mut elements, mut texts) = (take(&mut spare.elements), take(&mut spare.texts));
        elements.clear();
        texts.clear();
        let mut u = Units {
            elements,
            units: Vec::new(),
            texts,
            skipped: vec![0; n.div_ceil(64)],
            skipped_children: Vec::new(),
            total_chars: 0,
            total_link_chars: 0,
        };
        let root = doc.root();
        let mut next = root.first_child();
        while let Some(node) = next {
            let parent = node.parent().map_or(NONE, |p| slots[p.id() as usize]);
            let mut descend = false;
            match node.data() {
                NodeData::Element(_) => 'element: {
                    let Some(name) = node.element_name() else {
                        break 'element;
                    };
                    let tag = (name.ns == Ns::Html).then_some(name.tag);
                    let layout = tag.map_or(Layout::Inline, visible::layout);
                    // The names of an element the walk keeps; None for one it skips (SVG,
                    // scripts and controls, elements laid out as nothing or hidden).
                    let names = (name.ns != Ns::Svg
                        && !tag.is_some_and(never_text)
                        && layout != Layout::None)
                        .then(|| reads.names.names(&node, show_hidden))
                        .filter(|names| !names.hidden);
                    let Some(names) = names else {
                        set(&mut u.skipped, node.id());
                        if parent != NONE {
                            u.skipped_children.push((node.id(), parent));
                            if tag == Some(Tag::Input) {
                                u.elements[parent as usize].inputs += 1;
                            }
                        }
                        break 'element;
                    };
                    let index = u.elements.len() as u32;
                    slots[node.id() as usize] = index;
                    let up = (parent != NONE).then(|| u.elements[parent as usize]);
                    let bits =
                        up.map_or(0, |p| p.inside) | tag.map_or(0, tag_bits) | name_bits(&names);
                    let is_block = !matches!(layout, Layout::Inline | Layout::Break);
                    if let Some(p) = (parent != NONE).then(|| &mut u.elements[parent as usize]) {
                        p.children += 1;
                    }
                    u.elements.push(Element {
                        node: node.id(),
                        parent,
                        inside: bits,
                        weight: up.map_or(0, |p| p.weight) + names.weight,
                        depth: up.map_or(0, |p| p.depth + 1),
                        owner: if is_block {
                            index
                        } else {
                            up.map_or(NONE, |p| p.owner)
                        },
                        anchor: NONE,
                        shape: hints::shape(name, names.class_hash),
                        chars: 0,
                        link_chars: 0,
                        children: 0,
                        shape_count: 1,
                        unit: NONE,
                        to_selection: 0,
                        inputs: 0,
                        tag,
                    });
                    descend = true;
                }
                NodeData::Text(_) if parent != NONE => {
                    let bytes = node.text_bytes().unwrap_or_default();
                    let owner = u.elements[parent as usize].owner;
                    let counts = reads.texts.tally(node.id(), || bytes);
                    u.texts.push(Text {
                        node: node.id(),
                        parent,
                        owner,
                        chars: counts.chars,
                        commas: counts.commas,
                    });
                    let chars = counts.chars;
                    if chars > 0 && owner != NONE {
                        let in_link = u.elements[parent as usize].inside & inside::LINK != 0;
                        let p = &mut u.elements[parent as usize];
                        p.chars += chars;
                        if in_link {
                            p.link_chars += chars;
                        }
                        let o = &mut u.elements[owner as usize];
                        if o.unit == NONE {
                            o.unit = u.units.len() as u32;
                            u.units.push(Unit {
                                element: owner,
                                before: u.total_chars,
                                ..Unit::default()
                            });
                        }
                        let unit = &mut u.units[o.unit as usize];
                        unit.chars += chars;
                        unit.commas += counts.commas;
                        unit.stops += counts.stops;
                        unit.digits += counts.digits;
                        if let Some(ends) = ends_sentence(bytes) {
                            unit.ends_sentence = ends;
                        }
                        if in_link {
                            unit.link_chars += chars;
                            u.total_link_chars += chars;
                        }
                        let heading = matches!(
                            u.elements[owner as usize].tag,
                            Some(Tag::H1 | Tag::H2 | Tag::H3)
                        );
                        if collect_text || (heading && unit.text.len() < 512) {
                            if !unit.text.is_empty() {
                                unit.text.push(' ');
                            }
                            unit.text.push_str(&String::from_utf8_lossy(bytes));
                        }
                        u.total_chars += chars;
                    }
                }
                _ => {}
            }
            next = walk::next(node, descend, &root);
        }
        reads.spare.give_numbers(slots);
        u.count_shapes();
        // Subtree totals: children come after their parents.
        for i in (0..u.elements.len()).rev() {
            let e = u.elements[i];
            if e.parent != NONE {
                let p = &mut u.elements[e.parent as usize];
                p.chars += e.chars;
                p.link_chars += e.link_chars;
            }
        }
        u
    }

    /// Gives the buffers to `spare`, for another page.
    pub(crate) fn recycle(self, spare: &mut Spare) {
        spare.elements = self.elements;
        spare.texts = self.texts;
    }

    /// Marks what Readability's chosen pass says of each element: inside a container it
    /// chose ([`inside::SELECTED`]), inside an element its output leaves out
    /// ([`inside::LEFT_OUT`]), and how many levels up the nearest chosen container, or
    /// element holding one, is. One pass down the elements (parents come first).
    pub(crate) fn read_readability(
        &mut self,
        doc: &DocumentRef<'_>,
        readability: &Readability<'_>,
    ) {
        let n = doc.node_count();
        let mut selected = vec![0u64; n.div_ceil(64)];
        // The chosen containers, and the elements that hold one (each walk up stops at
        // an element already marked: linear).
        let mut holds = vec![0u64; n.div_ceil(64)];
        for &id in &readability.selection.nodes {
            set(&mut selected, id);
            let mut up = doc.node(id).parent();
            while let Some(a) = up {
                if get(&holds, a.id()) {
                    break;
                }
                set(&mut holds, a.id());
                up = a.parent();
            }
        }
        for i in 0..self.elements.len() {
            let e = self.elements[i];
            let up = (e.parent != NONE).then(|| self.elements[e.parent as usize]);
            let mut bits = e.inside | up.map_or(0, |p| p.inside & inside::LEFT_OUT);
            if up.is_some_and(|p| p.inside & inside::SELECTED != 0) || get(&selected, e.node) {
                bits |= inside::SELECTED;
            }
            let rb = readability.blocks.get(e.node);
            if rb.flags & REMOVED != 0 || readability.left_out.contains(e.node) {
                bits |= inside::LEFT_OUT;
            }
            let element = &mut self.elements[i];
            element.inside = bits;
            element.to_selection = if bits & inside::SELECTED != 0 || get(&holds, e.node) {
                0
            } else {
                up.map_or(0, |p| p.to_selection + 1)
            };
        }
    }

    /// Counts each element's siblings of its shape and finds each one's anchor (the
    /// nearest element at or above it with [`REPEATED`] of them): the elements bucketed
    /// by parent in one counting pass, each parent's children sorted by shape.
    fn count_shapes(&mut self) {
        let elements = &mut self.elements;
        // Bucket 0: the elements without a parent; bucket p + 1: the children of p.
        let mut start = vec![0u32; elements.len() + 2];
        for e in elements.iter() {
            start[(e.parent.wrapping_add(1)) as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut by_parent = vec![(0u64, 0u32); elements.len()];
        let mut next = start.clone();
        for (i, e) in elements.iter().enumerate() {
            let bucket = e.parent.wrapping_add(1) as usize;
            by_parent[next[bucket] as usize] = (e.shape, i as u32);
            next[bucket] += 1;
        }
        for bucket in start.windows(2) {
            let siblings = &mut by_parent[bucket[0] as usize..bucket[1] as usize];
            if siblings.len() < REPEATED as usize {
                continue;
            }
            siblings.sort_unstable();
            for run in siblings.chunk_by(|a, b| a.0 == b.0) {
                for &(_, i) in run {
                    elements[i as usize].shape_count = run.len() as u32;
                }
            }
        }
        // Parents come before their children.
        for i in 0..elements.len() {
            let e = elements[i];
            elements[i].anchor = if e.shape_count >= REPEATED {
                i as u32
            } else if e.parent != NONE {
                elements[e.parent as usize].anchor
            } else {
                NONE
            };
        }
    }

    /// The model's features of every block, in document order (see [`FEATURES`]), in
    /// `out` (emptied first); `title`: the page title (read only when a heading is
    /// compared with it); `all`: the features of the blocks Readability keeps too,
    /// otherwise only those their neighbours read (length, links and Readability's
    /// verdict: [`Units::readability_keeps`] reads them).
    pub(crate) fn features(
        &self,
        title: &PageTitle<'_>,
        all: bool,
        mut out: Vec<[f32; FEATURES]>,
    ) -> Vec<[f32; FEATURES]> {
        let ln = ln_1p;
        let density = |part: u32, whole: u32| {
            if whole == 0 {
                0.0
            } else {
                part as f32 / whole as f32
            }
        };
        let total = self.total_chars;
        let selected_chars: u32 = self
            .units
            .iter()
            .filter(|unit| {
                let bits = self.elements[unit.element as usize].inside;
                bits & inside::SELECTED != 0 && bits & inside::LEFT_OUT == 0
            })
            .map(|unit| unit.chars)
            .sum();
        let page = [
            ln(total),
            density(self.total_link_chars, total),
            ln(self.units.len() as u32),
            density(selected_chars, total),
        ];
        out.clear();
        out.reserve(self.units.len());
        for unit in &self.units {
            let e = &self.elements[unit.element as usize];
            let mut f = [0f32; FEATURES];
            f[0] = ln(unit.chars);
            f[1] = density(unit.link_chars, unit.chars);
            for bit in 0..inside::COUNT {
                f[7 + bit] = f32::from(u8::from(e.inside & (1 << bit) != 0));
            }
            if !all && Units::readability_keeps(&f) {
                out.push(f);
                continue;
            }
            f[2] = ln(unit.commas);
            f[3] = ln(unit.stops);
            f[4] = density(unit.digits, unit.chars);
            f[5] = f32::from(u8::from(unit.ends_sentence));
            use Tag::*;
            f[6] = match e.tag {
                Some(P) => 1.0,
                Some(Li) => 2.0,
                Some(Td | Th) => 3.0,
                Some(H1) => 4.0,
                Some(H2) => 5.0,
                Some(H3 | H4 | H5 | H6) => 6.0,
                Some(Div | Section | Article | Main) => 7.0,
                Some(Pre) => 8.0,
                Some(Blockquote) => 9.0,
                Some(Dt | Dd) => 10.0,
                Some(Figcaption | Caption) => 11.0,
                _ => 0.0,
            };
            let at = 7 + inside::COUNT;
            f[at] = e.weight.clamp(-200, 200) as f32;
            f[at + 1] = density(unit.before, total);
            f[at + 2] = e.depth as f32;
            let parent = (e.parent != NONE).then(|| &self.elements[e.parent as usize]);
            f[at + 3] = parent.map_or(0.0, |p| ln(p.chars));
            f[at + 4] = parent.map_or(0.0, |p| density(p.link_chars, p.chars));
            f[at + 5] = parent.map_or(1.0, |p| density(unit.chars, p.chars));
            f[at + 6] = parent.map_or(0.0, |p| ln(p.children));
            let grandparent = parent
                .filter(|p| p.parent != NONE)
                .map(|p| &self.elements[p.parent as usize]);
            f[at + 7] = grandparent.map_or(0.0, |g| density(g.link_chars, g.chars));
            if e.anchor != NONE {
                let anchor = &self.elements[e.anchor as usize];
                f[at + 8] = ln(anchor.shape_count);
                f[at + 9] = (e.depth - anchor.depth) as f32;
                f[at + 10] = ln(anchor.chars);
                f[at + 11] = density(anchor.link_chars, anchor.chars);
                if anchor.parent != NONE {
                    let group = &self.elements[anchor.parent as usize];
                    f[at + 12] = ln(group.chars);
                    f[at + 13] = density(group.link_chars, group.chars);
                }
            }
            f[at + 14..at + 14 + PAGE].copy_from_slice(&page);
            out.push(f);
        }
        // The neighbours' length, links and Readability's verdict.
        let own =
            |f: &[f32; FEATURES]| [f[0], f[1], f32::from(u8::from(Units::readability_keeps(f)))];
        let near = NEAR_AT;
        for i in 0..out.len() {
            let before = if i > 0 { own(&out[i - 1]) } else { [0.0; 3] };
            let after = if i + 1 < out.len() {
                own(&out[i + 1])
            } else {
                [0.0; 3]
            };
            out[i][near..near + 3].copy_from_slice(&before);
            out[i][near + 3..near + 6].copy_from_slice(&after);
        }
        // Where each block lies from the chosen containers' blocks: before them, among them
        // or after them, and how far (in the page's characters).
        let chosen = |unit: &Unit| {
            let bits = self.elements[unit.element as usize].inside;
            bits & inside::SELECTED != 0
        };
        let first = self.units.iter().find(|u| chosen(u)).map(|u| u.before);
        let last = self
            .units
            .iter()
            .rev()
            .find(|u| chosen(u))
            .map(|u| u.before + u.chars);
        for (unit, f) in self.units.iter().zip(&mut out) {
            if !all && Units::readability_keeps(f) {
                continue;
            }
            let e = &self.elements[unit.element as usize];
            let (side, distance) = match (first, last) {
                (Some(first), _) if unit.before + unit.chars <= first => {
                    (-1.0, first - unit.before - unit.chars)
                }
                (_, Some(last)) if unit.before >= last => (1.0, unit.before - last),
                _ => (0.0, 0),
            };
            f[near + 7] = side;
            f[near + 8] = density(distance, total);
            f[near + 9] = e.to_selection as f32;
        }
        for (unit, f) in self.units.iter().zip(&mut out) {
            if !all && Units::readability_keeps(f) {
                continue;
            }
            let heading = matches!(
                self.elements[unit.element as usize].tag,
                Some(Tag::H1 | Tag::H2 | Tag::H3)
            );
            if heading && !title.get().is_empty() {
                let title = title.get();
                let text = normalize(&unit.text);
                let repeats = !text.is_empty()
                    && (text == title
                        || (text.len() >= 10 && title.contains(&text))
                        || (title.len() >= 10 && text.contains(title)));
                f[near + 6] = f32::from(u8::from(repeats));
            }
        }
        out
    }

    /// Whether Readability's output holds the block with these features.
    pub(crate) fn readability_keeps(f: &[f32; FEATURES]) -> bool {
        f[SELECTED_AT] == 1.0 && f[LEFT_OUT_AT] == 0.0
    }

    /// The text of the blocks `keep` says (by block index), laid out into `w` as the
    /// visible text is.
    pub(crate) fn lay_out<W: Sink>(
        &self,
        doc: &DocumentRef<'_>,
        keep: &[bool],
        mut w: W,
    ) -> String {
        let mut kept_texts = vec![0u64; doc.node_count().div_ceil(64)];
        for text in &self.texts {
            if text.owner == NONE {
                continue;
            }
            let unit = self.elements[text.owner as usize].unit;
            if unit != NONE && keep.get(unit as usize).copied().unwrap_or(false) {
                set(&mut kept_texts, text.node);
            }
        }
        let mut child = doc.root().first_child();
        while let Some(node) = child {
            visible::render(
                node,
                &mut w,
                false,
                &mut |n: &NodeRef<'_>| get(&self.skipped, n.id()),
                &mut |n: &NodeRef<'_>| get(&kept_texts, n.id()),
            );
            child = node.next_sibling();
        }
        w.finish()
    }
}

/// `ln(1 + x)` of a count, as the features write it: the same `f32::ln` of the same
/// value, read from a table for the small counts most are (the logarithm was a fiftieth
/// of main text's time).
fn ln_1p(x: u32) -> f32 {
    const SMALL: usize = 4096;
    static TABLE: LazyLock<Box<[f32]>> =
        LazyLock::new(|| (0..SMALL).map(|x| (1.0 + x as f32).ln()).collect());
    match TABLE.get(x as usize) {
        Some(&y) => y,
        None => (1.0 + x as f32).ln(),
    }
}

/// Where the [`inside::SELECTED`] and [`inside::LEFT_OUT`] bits are among the features.
const SELECTED_AT: usize = 7 + inside::SELECTED.trailing_zeros() as usize;
const LEFT_OUT_AT: usize = 7 + inside::LEFT_OUT.trailing_zeros() as usize;

/// Page-wide features.
const PAGE: usize = 4;
/// Where the neighbours' features start.
const NEAR_AT: usize = 7 + inside::COUNT + 14 + PAGE;
/// How many features a block has.
pub(crate) const FEATURES: usize = NEAR_AT + 10;

/// The features' names, in order (for the training script and the model's docs).
pub(crate) fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "chars",
        "link_density",
        "commas",
        "stops",
        "digits",
        "ends_sentence",
        "tag",
    ]
    .map(String::from)
    .to_vec();
    let bits = [
        "nav",
        "aside",
        "footer",
        "header",
        "form",
        "dialog",
        "main",
        "article",
        "list",
        "table",
        "link",
        "heading",
        "pre",
        "quote",
        "figure",
        "side_role",
        "comment_name",
        "boilerplate_name",
        "unlikely_name",
        "negative_name",
        "positive_name",
        "selected",
        "left_out",
        "section",
        "noscript",
    ];
    names.extend(bits.iter().map(|b| format!("in_{b}")));
    for n in [
        "weight",
        "position",
        "depth",
        "parent_chars",
        "parent_link_density",
        "share_of_parent",
        "parent_children",
        "grandparent_link_density",
        "shape_count",
        "levels_to_anchor",
        "anchor_chars",
        "anchor_link_density",
        "group_chars",
        "group_link_density",
        "page_chars",
        "page_link_density",
        "page_blocks",
        "page_selected",
        "before_chars",
        "before_link_density",
        "before_kept",
        "after_chars",
        "after_link_density",
        "after_kept",
        "repeats_title",
        "selection_side",
        "selection_distance",
        "levels_to_selection",
    ] {
        names.push(n.to_string());
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_ends_with_its_stop_before_trailing_whitespace() {
        for (text, ends) in [
            ("", None),
            ("   ", None),
            ("One. Two items: ", Some(true)),
            ("日本語の文。", Some(true)),
            ("質問？\n", Some(true)),
            ("a link", Some(false)),
            ("12,345.67 dollars.\n", Some(true)),
        ] {
            assert_eq!(ends_sentence(text.as_bytes()), ends, "{text:?}");
        }
    }
}
