//! Output: the chosen containers laid out as the visible text is (paragraphs set apart
//! by a blank line), less what Readability's clean-up takes out of an article: the
//! subtrees the walk dropped, headings that are negatively named or repeat the page
//! title, and (in the stricter passes) the link lists, galleries and forms inside it.

use htmltok_tree::{DocumentRef, NodeRef, Tag};

use super::block_counts::{Block, REMOVED};
use super::blocks::Blocks;
use super::node_set::NodeSet;
use super::page_title::{PageTitle, normalize};
use super::pass::Pass;
use super::select::{MIN_PARAGRAPH, Selection};
use crate::visible::{self, Sink};
use crate::walk;

/// Whether a list, table, form or division inside the article is boilerplate by its
/// content (Readability's "clean conditionally"): negatively scored; or, unless it has
/// ten commas of prose, more images than paragraphs can caption, more list items than
/// paragraphs (a hundred spare), a form's controls, almost no text, or too many of its
/// characters in links.
fn clean_out(tag: Tag, b: &Blocks, sel: &Selection, weigh_classes: bool, id: usize) -> bool {
    use Tag::*;
    if !matches!(tag, Form | Fieldset | Table | Ul | Ol | Div | Section) {
        return false;
    }
    let block = b.get(id as u32);
    let weight = if weigh_classes {
        f32::from(block.weight)
    } else {
        0.0
    };
    if weight + sel.scores[id] < 0.0 {
        return true;
    }
    if block.commas >= 10 {
        return false;
    }
    let list = matches!(tag, Ul | Ol);
    let paragraphs = block.paragraphs as f32;
    let images = block.images as f32;
    let items = block.items as f32 - 100.0;
    let density = block.link_density();
    (images > 1.0 && paragraphs / images < 0.5)
        || (!list && items > paragraphs)
        || block.inputs > block.paragraphs / 3
        || (!list && block.chars < MIN_PARAGRAPH && (block.images == 0 || block.images > 2))
        || (weight < 25.0 && density > 0.2)
        || (weight >= 25.0 && density > 0.5)
}

/// Whether a heading restates the page title (the article body does not repeat its
/// headline). Only small headings are read, so the check stays linear.
fn repeats_title(node: &NodeRef<'_>, size: u32, title: &PageTitle<'_>) -> bool {
    if size > 64 {
        return false;
    }
    let title = title.get();
    if title.is_empty() {
        return false;
    }
    let heading = normalize(&node.text());
    !heading.is_empty() && (heading == title || (heading.len() >= 10 && title.contains(&heading)))
}

/// What output needs of a pass: its walk, its selection, its settings and the page
/// title.
pub(crate) struct Output<'p> {
    pub(crate) blocks: &'p Blocks,
    pub(crate) selection: &'p Selection,
    pub(crate) pass: Pass,
    pub(crate) title: &'p PageTitle<'p>,
}

impl Output<'_> {
    /// Whether the output leaves out element `n` (inside the chosen container `start`).
    fn skips(&self, n: &NodeRef<'_>, start: u32) -> bool {
        let id = n.id();
        let block = self.blocks.get(id);
        if block.flags & REMOVED != 0 {
            return true;
        }
        if id == start {
            return false;
        }
        self.skips_kept(&n.document(), id, block)
    }

    /// Whether the output leaves out element `id`, kept by the walk (its block `block`),
    /// inside a chosen container: a heading or a boilerplate block, by the block alone
    /// (the tree is read only for a small `h1`/`h2`, to compare its text with the title).
    fn skips_kept(&self, doc: &DocumentRef<'_>, id: u32, block: &Block) -> bool {
        let Some(tag) = block.tag else {
            return false;
        };
        let pass = self.pass;
        if matches!(tag, Tag::H1 | Tag::H2)
            && ((pass.weigh_classes && block.weight < 0)
                || repeats_title(&doc.node(id), block.size, self.title))
        {
            return true;
        }
        pass.clean
            && clean_out(
                tag,
                self.blocks,
                self.selection,
                pass.weigh_classes,
                id as usize,
            )
    }

    /// How many characters (as the walk counts them) the output has, from the walk's
    /// counts: the chosen containers' less the subtrees left out, found by a walk over
    /// the kept elements that steps over them. Cheaper than laying the text out, which
    /// only the pass kept does. With it, the elements left out, as [`LeftOut`].
    pub(crate) fn chars(&self, doc: &DocumentRef<'_>) -> (u32, LeftOut) {
        let mut total = 0u32;
        let mut left_out = LeftOut::new(self.blocks.node_count());
        for &id in &self.selection.nodes {
            let Some(first) = self.blocks.position(id) else {
                total += self.chars_in_tree(doc, id, &mut left_out);
                continue;
            };
            // The kept elements below it follow it in `order`, a subtree's `size` of
            // them: a subtree left out is stepped over, and no node of the tree is read
            // (walking the tree's nodes, text included, for this is costly). The
            // elements the walk dropped are not in `order`: the layout leaves them out
            // by their block (`REMOVED`), not by `left_out`.
            let start = self.blocks.in_order(first);
            total += start.chars;
            let end = first + start.size as usize;
            let mut k = first + 1;
            while k < end {
                let block = self.blocks.in_order(k);
                let element = self.blocks.order[k];
                if self.skips_kept(doc, element, block) {
                    total -= block.chars;
                    left_out.insert(element);
                    k += (block.size as usize).max(1);
                } else {
                    k += 1;
                }
            }
        }
        (total, left_out)
    }

    /// [`Output::chars`] of a chosen container the walk did not keep (the document's
    /// `body` when nothing scored and the walk never reached it), by a walk of the
    /// tree below it.
    fn chars_in_tree(&self, doc: &DocumentRef<'_>, id: u32, left_out: &mut LeftOut) -> u32 {
        let start = doc.node(id);
        if self.skips(&start, id) {
            left_out.insert(id);
            return 0;
        }
        let mut total = self.blocks.get(id).chars;
        let mut next = start.first_child();
        while let Some(node) = next {
            let mut descend = false;
            if node.is_element() {
                if self.skips(&node, id) {
                    total -= self.blocks.get(node.id()).chars;
                    left_out.insert(node.id());
                } else {
                    descend = true;
                }
            }
            next = walk::next(node, descend, &start);
        }
        total
    }

    /// The text of the selection laid out into `w`, without the elements
    /// [`Output::chars`] found left out and those the walk dropped (the answers are
    /// looked up, which is cheaper than asking [`Output::skips`] again).
    pub(crate) fn lay_out<W: Sink>(
        &self,
        doc: &DocumentRef<'_>,
        left_out: &LeftOut,
        mut w: W,
    ) -> String {
        for &id in &self.selection.nodes {
            let mut skip = |n: &NodeRef<'_>| {
                left_out.contains(n.id()) || self.blocks.get(n.id()).flags & REMOVED != 0
            };
            w.line_break(2);
            // The walk dropped the hidden elements already (`REMOVED`).
            visible::render(doc.node(id), &mut w, false, &mut skip, &mut |_| true);
        }
        w.finish()
    }
}

/// The elements an output leaves out, by node id.
pub(crate) type LeftOut = NodeSet;
