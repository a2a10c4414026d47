//! Scoring and selection, after Readability: every stretch of prose (a block's own text
//! of at least [`MIN_PARAGRAPH`] characters) scores its container and, less and less,
//! the container's ancestors; a container's score is then discounted by its link
//! density; the best container, adjusted upward when the article is split across
//! several, is the article, together with those of its siblings that score well or
//! read as prose.

use htmltok_tree::{DocumentRef, Tag};

use super::block_counts::{BLOCK, HAS_BLOCK_CHILD, REMOVED};
use super::blocks::Blocks;
use super::hints;

/// The shortest text that counts as a paragraph (weighted characters, whitespace not
/// counted: about Readability's 25 characters with spaces).
pub(crate) const MIN_PARAGRAPH: u32 = 20;
/// Characters per point of a paragraph's score (Readability's 100 with spaces).
const CHARS_PER_POINT: f32 = 85.0;
/// How many ancestors a paragraph scores.
const ANCESTORS: usize = 5;

/// The containers chosen, in document order, and the scores (by node id; 0 when not a
/// candidate).
pub(crate) struct Selection {
    pub(crate) nodes: Vec<u32>,
    pub(crate) scores: Vec<f32>,
}

/// Whether an element's text scores (not a list item, a table heading or a title:
/// menus are lists of short items, and headings restate the text).
fn scores_text(tag: Option<Tag>) -> bool {
    !matches!(
        tag,
        Some(Tag::Li | Tag::Dt | Tag::Dd | Tag::Th | Tag::H1 | Tag::Caption | Tag::Option)
    )
}

/// Scores the candidates and picks the article's containers; `weigh_classes`: whether
/// class weights count.
pub(crate) fn select(doc: &DocumentRef<'_>, b: &Blocks, weigh_classes: bool) -> Selection {
    let mut scores = vec![0.0f32; b.node_count()];
    let mut candidate = vec![false; b.node_count()];
    let mut candidates: Vec<u32> = Vec::new();
    for i in 0..b.order.len() {
        let id = b.order[i];
        let block = b.in_order(i);
        if block.flags & BLOCK == 0 || block.own_chars < MIN_PARAGRAPH || !scores_text(block.tag) {
            continue;
        }
        let score =
            1.0 + block.own_commas as f32 + (block.own_chars as f32 / CHARS_PER_POINT).min(3.0);
        // A block of text alone is a paragraph: its parent is the container. A block
        // with loose text beside other blocks is a container itself (Readability wraps
        // that text into paragraphs of its own).
        let node = doc.node(id);
        let start = if block.flags & HAS_BLOCK_CHILD != 0 {
            Some(node)
        } else {
            node.parent()
        };
        let ancestors = std::iter::successors(start, |n| n.parent())
            // Not the document element nor the document: a candidate has a parent
            // element.
            .take_while(|n| n.parent().is_some_and(|p| p.is_element()))
            .take(ANCESTORS);
        for (level, ancestor) in ancestors.enumerate() {
            let a = ancestor.id();
            if !candidate[a as usize] {
                candidate[a as usize] = true;
                let weight = if weigh_classes {
                    f32::from(b.get(a).weight)
                } else {
                    0.0
                };
                scores[a as usize] = b.get(a).tag.map_or(0.0, hints::tag_score) + weight;
                candidates.push(a);
            }
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f32 * 3.0,
            };
            scores[a as usize] += score / divider;
        }
    }
    for &c in &candidates {
        scores[c as usize] *= 1.0 - b.get(c).link_density();
    }
    let best = |ids: &[u32]| {
        ids.iter()
            .copied()
            .fold(None, |best: Option<u32>, c| match best {
                Some(t) if scores[t as usize] >= scores[c as usize] => Some(t),
                _ => Some(c),
            })
    };
    let Some(mut top) = best(&candidates) else {
        let body = doc.body().or_else(|| doc.document_element());
        return Selection {
            nodes: body.map(|n| n.id()).into_iter().collect(),
            scores,
        };
    };
    let top_score = scores[top as usize];

    // Readability's adjustments. 1: when other strong candidates (three quarters of the
    // top score) share an ancestor with it, the article is split: take the ancestor.
    let mut strong: Vec<u32> = candidates
        .iter()
        .copied()
        .filter(|&c| c != top && scores[c as usize] >= 0.75 * top_score)
        .collect();
    strong.sort_by(|x, y| scores[*y as usize].total_cmp(&scores[*x as usize]));
    strong.truncate(4);
    if strong.len() >= 3 {
        // How many strong candidates each ancestor holds: one walk up from each (linear).
        let mut held = vec![0u8; b.node_count()];
        for &c in &strong {
            for n in std::iter::successors(doc.node(c).parent(), |n| n.parent()) {
                held[n.id() as usize] += 1;
            }
        }
        let mut ancestor = doc.node(top).parent();
        while let Some(a) = ancestor {
            if a.element_name().is_none_or(|n| n.is_html(Tag::Body)) {
                break;
            }
            if held[a.id() as usize] >= 3 {
                top = a.id();
                break;
            }
            ancestor = a.parent();
        }
    }
    // 2: climb while the parent scores at least a third of the top and more than the
    // level below it (the article's paragraphs are spread over its children).
    let mut last = scores[top as usize];
    let threshold = last / 3.0;
    let mut parent = doc.node(top).parent();
    while let Some(p) = parent {
        if p.element_name().is_none_or(|n| n.is_html(Tag::Body)) {
            break;
        }
        let pid = p.id() as usize;
        if !candidate[pid] {
            parent = p.parent();
            continue;
        }
        if scores[pid] < threshold {
            break;
        }
        if scores[pid] > last {
            top = p.id();
            break;
        }
        last = scores[pid];
        parent = p.parent();
    }
    // 3: an only child is its parent's whole content: take the parent.
    loop {
        let node = doc.node(top);
        let Some(p) = node.parent() else { break };
        if p.element_name()
            .is_none_or(|n| n.is_html(Tag::Body) || n.is_html(Tag::Html))
        {
            break;
        }
        if p.children().filter(|c| c.is_element()).count() != 1 {
            break;
        }
        top = p.id();
    }
    // Give a container never scored a score of its own (its subtree's best).
    if scores[top as usize] == 0.0 {
        scores[top as usize] = top_score;
    }

    // The siblings that belong with it.
    let top_node = doc.node(top);
    let top_score = scores[top as usize];
    let Some(parent) = top_node.parent() else {
        return Selection {
            nodes: vec![top],
            scores,
        };
    };
    let threshold = (top_score * 0.2).max(10.0);
    let top_class = top_node.attr("class");
    let mut nodes = Vec::new();
    for sibling in parent.children().filter(|c| c.is_element()) {
        let sid = sibling.id();
        if sid == top {
            nodes.push(sid);
            continue;
        }
        let sb = b.get(sid);
        if sb.flags & REMOVED != 0 || sb.chars == 0 {
            continue;
        }
        let mut bonus = 0.0;
        if let Some(class) = &top_class
            && !class.is_empty()
            && sibling.attr("class").as_deref() == Some(class.as_ref())
        {
            bonus = top_score * 0.2;
        }
        if candidate[sid as usize] && scores[sid as usize] + bonus >= threshold {
            nodes.push(sid);
            continue;
        }
        // A paragraph (a block of text alone) that reads as prose.
        let paragraph = sb.flags & BLOCK != 0 && sb.flags & HAS_BLOCK_CHILD == 0;
        if paragraph {
            let density = sb.link_density();
            if sb.chars > 70 && density < 0.25 {
                nodes.push(sid);
            } else if sb.chars <= 70 && density == 0.0 {
                let text = sibling.text();
                let text = text.trim_end();
                if text.contains(". ") || text.ends_with('.') {
                    nodes.push(sid);
                }
            }
        }
    }
    Selection { nodes, scores }
}
