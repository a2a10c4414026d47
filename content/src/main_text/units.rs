//! Main content block by block (issue #49, item 1): every block of text on the page (a
//! block-level element's own text: a paragraph, a list item, a table cell, a heading) is
//! described by what a reader of its markup sees — its length, links, punctuation, tag,
//! what it sits inside (navigation, a footer, an element named `comment`, the container
//! Readability chose), how many siblings share its shape (the cards of a listing, the
//! posts of a thread) and its neighbours — and a compiled-in model ([`super::model`])
//! decides which blocks are main content. This is the walk and the layout of the blocks
//! chosen; what it keeps of each node is in [`super::walk_records`], the features in
//! [`super::features`].
//!
//! The walk is one iterative pass over the tree with the element's context inherited
//! from its parent, and the block totals summed in one sweep back (Readability's passes
//! count their blocks from its elements and texts, and its choice is marked on them
//! after); the siblings' shapes are compared once per parent (bucketed by parent, sorted
//! within), so the whole is linear in the page but for those sorts.

use std::mem::take;

use htmltok_tree::{DocumentRef, NodeData, NodeRef, Ns, Tag};

use super::hints::{self, Words};
use super::node_set::NodeSet;
use super::reads::Reads;
use super::spare::Spare;
use super::walk_records::{Element, NONE, Text, Unit, inside};
use crate::visible::{self, Layout, Sink};
use crate::walk;

/// Siblings sharing a shape make a repeated group from this many on.
const REPEATED: u32 = 3;

/// The page's blocks of text and what the output needs to lay out a choice of them.
pub(crate) struct Units {
    /// The elements, in document order (parents before their children).
    pub(crate) elements: Vec<Element>,
    pub(crate) units: Vec<Unit>,
    /// The text nodes below the elements, in document order.
    pub(crate) texts: Vec<Text>,
    /// Elements never laid out (scripts, form controls, hidden): by node id, a bit each.
    skipped: NodeSet,
    /// Those of them with a parent element: (node id, the parent's index).
    pub(crate) skipped_children: Vec<(u32, u32)>,
    pub(crate) total_chars: u32,
    pub(crate) total_link_chars: u32,
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
            skipped: NodeSet::new(n),
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
                        u.skipped.insert(node.id());
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

    /// The text of the blocks `keep` says (by block index), laid out into `w` as the
    /// visible text is.
    pub(crate) fn lay_out<W: Sink>(
        &self,
        doc: &DocumentRef<'_>,
        keep: &[bool],
        mut w: W,
    ) -> String {
        let mut kept_texts = NodeSet::new(doc.node_count());
        for text in &self.texts {
            if text.owner == NONE {
                continue;
            }
            let unit = self.elements[text.owner as usize].unit;
            if unit != NONE && keep.get(unit as usize).copied().unwrap_or(false) {
                kept_texts.insert(text.node);
            }
        }
        let mut child = doc.root().first_child();
        while let Some(node) = child {
            visible::render(
                node,
                &mut w,
                false,
                &mut |n: &NodeRef<'_>| self.skipped.contains(n.id()),
                &mut |n: &NodeRef<'_>| kept_texts.contains(n.id()),
            );
            child = node.next_sibling();
        }
        w.finish()
    }
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
