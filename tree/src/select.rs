//! The customizable `<select>`'s `selectedcontent` (the html5lib tests of 2026): when the
//! parser pops an option whose selectedness is true, "maybe clone an option into
//! selectedcontent" replaces the children of the select's first `selectedcontent`
//! descendant with a copy of the option's children.
//!
//! Done once after parsing, with the same outcome: of the options that follow the
//! `selectedcontent` element (only those were popped while it was in the tree), the
//! selected one at its popping is the last with a `selected` attribute, else the first
//! (an option's children are complete when it is popped). Selects with `multiple` have
//! no enabled selectedcontent.

use crate::dom::{Dom, NONE, NodeData, NodeId};
use crate::names::Tag;
use crate::node::DocumentRef;

pub(crate) fn update_selectedcontent(doc: &mut Dom, input: &[u8]) {
    if !doc.has_selectedcontent {
        return;
    }
    let selects: Vec<NodeId> = (0..doc.nodes.len() as NodeId)
        .filter(|&id| matches!(&doc.nodes[id as usize].data, NodeData::Element(e) if e.name.is_html(Tag::Select)))
        .collect();
    for select in selects {
        let view = DocumentRef::new(input, doc);
        if view.node(select).attr("multiple").is_some() {
            continue;
        }
        let mut selectedcontent = NONE;
        let mut first = NONE;
        let mut chosen = NONE;
        for n in view.node(select).descendants() {
            let Some(name) = n.element_name() else {
                continue;
            };
            if name.is_html(Tag::Selectedcontent) && selectedcontent == NONE {
                selectedcontent = n.id();
            } else if name.is_html(Tag::Option) && selectedcontent != NONE {
                if first == NONE {
                    first = n.id();
                }
                if n.attr("selected").is_some() {
                    chosen = n.id();
                }
            }
        }
        if chosen == NONE {
            chosen = first;
        }
        if selectedcontent == NONE || chosen == NONE {
            continue;
        }
        // Replace the children of selectedcontent with a deep copy of the option's.
        let mut child = doc.nodes[selectedcontent as usize].first_child;
        while child != NONE {
            let next = doc.nodes[child as usize].next_sibling;
            doc.detach(child);
            child = next;
        }
        copy_children(doc, chosen, selectedcontent);
    }
}

/// Appends deep copies of `from`'s children to `to`, iteratively.
fn copy_children(doc: &mut Dom, from: NodeId, to: NodeId) {
    let mut work = vec![(from, to)];
    while let Some((src, dst)) = work.pop() {
        let mut child = doc.nodes[src as usize].first_child;
        while child != NONE {
            let data = doc.nodes[child as usize].data.clone();
            let copy = match data {
                NodeData::Element(_) => {
                    let c = doc.clone_element(child);
                    work.push((child, c));
                    c
                }
                other => doc.new_node(other),
            };
            doc.append(dst, copy);
            child = doc.nodes[child as usize].next_sibling;
        }
    }
}
