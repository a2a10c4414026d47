//! What Readability's choice says of each element of the block walk, and each block's
//! features, which the block model ([`super::model`]) reads: its length, links,
//! punctuation and tag, the [`inside`] bits, its parent's, anchor's and group's counts,
//! the page's, its neighbours' and where it lies from Readability's choice.

use std::sync::LazyLock;

use htmltok_tree::{DocumentRef, Tag};

use super::block_counts::REMOVED;
use super::blocks::Blocks;
use super::feature_layout::{FEATURES, LEFT_OUT_AT, NEAR_AT, PAGE, SELECTED_AT};
use super::node_set::NodeSet;
use super::output::LeftOut;
use super::page_title::{PageTitle, normalize};
use super::select::Selection;
use super::units::Units;
use super::walk_records::{NONE, Unit, inside};

/// What Readability's chosen pass says of the page, as [`Units::read_readability`]
/// reads it.
pub(crate) struct Readability<'a> {
    pub(crate) blocks: &'a Blocks,
    pub(crate) selection: &'a Selection,
    pub(crate) left_out: &'a LeftOut,
}

impl Units {
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
        let mut selected = NodeSet::new(n);
        // The chosen containers, and the elements that hold one (each walk up stops at
        // an element already marked: linear).
        let mut holds = NodeSet::new(n);
        for &id in &readability.selection.nodes {
            selected.insert(id);
            let mut up = doc.node(id).parent();
            while let Some(a) = up {
                if holds.contains(a.id()) {
                    break;
                }
                holds.insert(a.id());
                up = a.parent();
            }
        }
        for i in 0..self.elements.len() {
            let e = self.elements[i];
            let up = (e.parent != NONE).then(|| self.elements[e.parent as usize]);
            let mut bits = e.inside | up.map_or(0, |p| p.inside & inside::LEFT_OUT);
            if up.is_some_and(|p| p.inside & inside::SELECTED != 0) || selected.contains(e.node) {
                bits |= inside::SELECTED;
            }
            let rb = readability.blocks.get(e.node);
            if rb.flags & REMOVED != 0 || readability.left_out.contains(e.node) {
                bits |= inside::LEFT_OUT;
            }
            let element = &mut self.elements[i];
            element.inside = bits;
            element.to_selection = if bits & inside::SELECTED != 0 || holds.contains(e.node) {
                0
            } else {
                up.map_or(0, |p| p.to_selection + 1)
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
