//! Output: the chosen containers laid out as the visible text is (paragraphs set apart
//! by a blank line), less what Readability's clean-up takes out of an article: the
//! subtrees the walk dropped, headings that are negatively named or repeat the page
//! title, and (in the stricter passes) the link lists, galleries and forms inside it.

use htmltok_tree::{Document, NodeRef, Ns, Tag};

use super::blocks::{Blocks, Pass, REMOVED};
use super::select::{MIN_PARAGRAPH, Selection};
use crate::visible::{self, Writer};

/// Whether a list, table, form or division inside the article is boilerplate by its
/// content (Readability's "clean conditionally"): negatively scored; or, unless it has
/// ten commas of prose, more images than paragraphs can caption, more list items than
/// paragraphs (a hundred spare), a form's controls, almost no text, or too many of its
/// characters in links.
fn clean_out(tag: Tag, b: &Blocks, sel: &Selection, id: usize) -> bool {
    use Tag::*;
    if !matches!(tag, Form | Fieldset | Table | Ul | Ol | Div | Section) {
        return false;
    }
    let block = &b.blocks[id];
    let weight = f32::from(block.weight);
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

/// Lowercased, whitespace collapsed.
fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// Whether a heading restates the page title (the article body does not repeat its
/// headline). Only small headings are read, so the check stays linear.
fn repeats_title(node: &NodeRef<'_, '_>, size: u32, title: &str) -> bool {
    if title.is_empty() || size > 64 {
        return false;
    }
    let heading = normalize(&node.text());
    !heading.is_empty() && (heading == title || (heading.len() >= 10 && title.contains(&heading)))
}

/// The text of the selection.
pub(crate) fn render(
    doc: &Document<'_>,
    b: &Blocks,
    sel: &Selection,
    pass: Pass,
    title: Option<&str>,
) -> String {
    let title = title.map(normalize).unwrap_or_default();
    let mut w = Writer::default();
    for &id in &sel.nodes {
        let start = doc.node(id);
        let mut skip = |n: &NodeRef<'_, '_>| {
            let i = n.id() as usize;
            let block = &b.blocks[i];
            if block.flags & REMOVED != 0 {
                return true;
            }
            if i == id as usize {
                return false;
            }
            let Some(tag) = n.element_name().filter(|n| n.ns == Ns::Html).map(|n| n.tag) else {
                return false;
            };
            if matches!(tag, Tag::H1 | Tag::H2)
                && (block.weight < 0 || repeats_title(n, block.size, &title))
            {
                return true;
            }
            pass.clean && clean_out(tag, b, sel, i)
        };
        w.line_break(2);
        visible::render(start, visible::Options::default(), &mut w, &mut skip);
    }
    w.finish()
}
