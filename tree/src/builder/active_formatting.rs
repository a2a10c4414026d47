//! The algorithms over the list of active formatting elements that the "in body" rules
//! run: pushing an element onto it (13.2.4.3, with the Noah's Ark clause's attribute
//! comparison), reconstructing the active formatting elements (13.2.4.3), and the adoption
//! agency algorithm (13.2.6.4.7). The list itself is `crate::formatting`.

use super::state::TreeBuilder;
use super::token::TagTok;
use crate::dom::{Dom, NodeId};
use crate::formatting::Entry;
use crate::names::{Name, Ns};
use crate::stack::Scope;

impl<'a> TreeBuilder<'a> {
    /// Inserts a formatting element and pushes it onto the list of active formatting
    /// elements.
    ///
    /// Its own copy of the element insertion (as [`Self::insert_html_element`]), not a
    /// call of it: a formatting element (`<code>`, `<a>`, `<b>`) paid two frames. Out of
    /// line for the rare callers (`nobr`); the two common rules (`a`, and `b`, `code`, …)
    /// inline [`Self::insert_formatting_inlined`] into their own out-of-line functions.
    #[inline(never)]
    pub(crate) fn insert_formatting(&mut self, tag: &mut TagTok<'a>) {
        self.insert_formatting_inlined(tag);
    }

    /// [`Self::insert_formatting`] in the caller's frame: the `a` rule and the other
    /// formatting start tags' rule, out of line themselves, would pay a second frame for
    /// it on every formatting element.
    #[inline(always)]
    pub(crate) fn insert_formatting_inlined(&mut self, tag: &mut TagTok<'a>) {
        let id = self.insert_element(tag, Ns::Html);
        // The name `insert_html_element` gave it (formatting tags are interned), not read
        // back from the DOM.
        let name = Name::html(tag.tag);
        debug_assert_eq!(name, self.name_of(id));
        let (doc, input) = (&self.doc, self.input);
        self.active.push(
            id,
            name,
            |e| attrs_key(doc, input, e),
            |other| same_attrs(doc, input, id, other),
        );
    }

    /// Steps 1 to 3 (nothing to reconstruct: the list is empty, or its last entry is a
    /// marker or an open element), inlined into the callers: they answer for almost
    /// every text and start tag.
    #[inline(always)]
    pub(crate) fn reconstruct_active_formatting(&mut self) {
        if self.formatting_to_reconstruct() {
            self.reconstruct_from_rewind();
        }
    }

    /// Whether steps 1 to 3 leave anything to reconstruct: false when the list is empty
    /// or its last entry is a marker or an element on the stack of open elements.
    pub(crate) fn formatting_to_reconstruct(&self) -> bool {
        match self.active.last() {
            None | Some(Entry::Marker) => false,
            Some(Entry::Element(id, _)) => !self.open.contains(id),
        }
    }

    /// Steps 4 to 10: rewind to the first entry to reconstruct, then create the rest.
    fn reconstruct_from_rewind(&mut self) {
        let len = self.active.len();
        let mut i = len - 1;
        while i > 0 {
            match self.active.get(i - 1) {
                Entry::Marker => break,
                Entry::Element(id, _) if self.open.contains(id) => break,
                _ => i -= 1,
            }
        }
        for j in i..len {
            let Entry::Element(old, name) = self.active.get(j) else {
                unreachable!("no marker after the rewind point")
            };
            let place = self.insertion_place(None);
            let new = self.doc.clone_element(old);
            self.insert_at(place, new);
            self.open.push(new, name);
            self.active.set(j, Entry::Element(new, name));
        }
    }

    /// Runs the adoption agency algorithm for an end tag `tag`; false when the caller must
    /// instead act as for "any other end tag". The common case inlined into the callers:
    /// the rest ([`Self::adoption_agency_steps`]) is a large function whose frame (every
    /// register saved) cost the common case more than its own work.
    #[inline]
    pub(crate) fn adoption_agency(&mut self, tag: &TagTok<'a>) -> bool {
        self.close_current_formatting(tag) || self.adoption_agency_steps(tag)
    }

    /// The adoption agency algorithm's common case, which "in body" also tries first for
    /// the end tags of formatting elements: when the current node is an HTML element of
    /// the tag's name and the list's last entry (`<b>…</b>`), it is the formatting
    /// element of 4.3 (the last `subject` after the last marker) and the shortcut of
    /// steps 4.4 to 4.8 applies: it is popped and removed from the list, without searching
    /// the list twice. False (nothing done) otherwise.
    /// Always inlined: otherwise a call for each formatting end tag (`</b>`) in the sink.
    #[inline(always)]
    pub(crate) fn close_current_formatting(&mut self, tag: &TagTok<'a>) -> bool {
        match self.open.current() {
            Some((cur, name))
                if name.is_html(tag.tag)
                    && self.active.last() == Some(Entry::Element(cur, name)) =>
            {
                // Step 4.3's formatting element, which step 2 leaves (it is in the list).
                debug_assert_eq!(
                    self.active.find_after_last_marker(tag.tag),
                    Some((self.active.len() - 1, cur))
                );
                self.open.pop_current(cur, name);
                self.active.pop_element();
                self.doc.element_mut(cur).set_end(tag.span);
                true
            }
            _ => false,
        }
    }

    /// The adoption agency algorithm (13.2.6.4.7) but for the common case of
    /// [`Self::adoption_agency`].
    #[inline(never)]
    fn adoption_agency_steps(&mut self, tag: &TagTok<'a>) -> bool {
        let subject = tag.tag;
        if let Some((cur, name)) = self.open.current()
            && name.is_html(subject)
        {
            // 2.
            if self.active.position(cur).is_none() {
                self.open.pop();
                self.doc.element_mut(cur).set_end(tag.span);
                return true;
            }
        }
        for _outer in 0..8 {
            // 4.3
            let Some((fe_index, fe)) = self.active.find_after_last_marker(subject) else {
                return false;
            };
            // 4.4 - 4.8 when the formatting element is the current node (`<a>…</a>`, the
            // common case): it is on the stack and in scope, no furthest block can be
            // above it, so it is popped and removed from the list, without the scans.
            if self.open.current().is_some_and(|(cur, _)| cur == fe) {
                debug_assert!(self.open.has_node_in_scope(fe, Scope::Default));
                self.open.pop();
                self.active.remove_at(fe_index);
                self.doc.element_mut(fe).set_end(tag.span);
                return true;
            }
            // 4.4
            if !self.open.contains(fe) {
                self.active.remove(fe);
                return true;
            }
            // 4.5
            if !self.open.has_node_in_scope(fe, Scope::Default) {
                return true;
            }
            // 4.7
            let fe_stack = self.open.index_of(fe).expect("on the stack");
            let furthest =
                (fe_stack + 1..self.open.len()).find(|&i| self.open.get(i).1.is_special());
            let Some(fb_stack) = furthest else {
                // 4.8
                self.open.truncate(fe_stack);
                self.active.remove(fe);
                self.doc.element_mut(fe).set_end(tag.span);
                return true;
            };
            let furthest_block = self.open.get(fb_stack).0;
            // 4.9, 4.10
            let common_ancestor = self.open.get(fe_stack - 1).0;
            let mut bookmark = fe_index;
            // 4.11 - 4.13
            let mut node_index = fb_stack;
            let mut last_node = furthest_block;
            let mut inner = 0;
            loop {
                inner += 1;
                node_index -= 1;
                let (node, node_name) = self.open.get(node_index);
                if node == fe {
                    break;
                }
                let mut in_list = self.active.position(node);
                if inner > 3
                    && let Some(p) = in_list
                {
                    self.active.remove(node);
                    if p < bookmark {
                        bookmark -= 1;
                    }
                    in_list = None;
                }
                let Some(list_index) = in_list else {
                    self.open.remove(node);
                    continue;
                };
                let new = self.doc.clone_element(node);
                self.active.set(list_index, Entry::Element(new, node_name));
                self.open.replace(node_index, new, node_name);
                if last_node == furthest_block {
                    bookmark = list_index + 1;
                }
                self.doc.detach(last_node);
                self.doc.append(new, last_node);
                last_node = new;
            }
            // 4.14
            self.doc.detach(last_node);
            let place = self.insertion_place(Some(common_ancestor));
            self.insert_at(place, last_node);
            // 4.15 - 4.17
            let fe_name = self.name_of(fe);
            let new = self.doc.clone_element(fe);
            self.doc.reparent_children(furthest_block, new);
            self.doc.append(furthest_block, new);
            // 4.18
            let fe_pos = self.active.position(fe).expect("in the list");
            let key = self.active.key_at(fe_pos);
            if fe_pos < bookmark {
                bookmark -= 1;
            }
            self.active.remove(fe);
            self.active.insert(
                bookmark.min(self.active.len()),
                Entry::Element(new, fe_name),
                key,
            );
            // 4.19
            self.open.remove(fe);
            let fb_now = self.open.index_of(furthest_block).expect("on the stack");
            self.open.insert(fb_now + 1, new, fe_name);
        }
        true
    }
}

/// A hash of an element's name and attributes, the same for any order of the attributes
/// (for the Noah's Ark clause's counts).
fn attrs_key(doc: &Dom, input: &[u8], id: NodeId) -> u64 {
    /// A multiply-xorshift over eight bytes at a time (attribute values can be long URLs).
    fn mix(h: u64, bytes: &[u8]) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h = h ^ (bytes.len() as u64).wrapping_mul(K);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
            h = (h ^ w).wrapping_mul(K);
            h ^= h >> 29;
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        h = (h ^ u64::from_le_bytes(last)).wrapping_mul(K);
        h ^ (h >> 32)
    }
    let e = doc.element(id);
    let mut key = mix(
        0,
        &[
            e.name.ns as u8,
            e.name.tag as u8,
            (e.name.tag as u16 >> 8) as u8,
        ],
    );
    for a in doc.attrs_of(id) {
        let h = mix(
            mix(a.ns as u64 + 1, doc.bytes(input, a.name)),
            a.value(input).as_bytes(),
        );
        key = key.wrapping_add(h);
    }
    key
}

/// Whether two elements have the same attributes (names, namespaces and values), for the
/// Noah's Ark clause.
fn same_attrs(doc: &Dom, input: &[u8], a: NodeId, b: NodeId) -> bool {
    let (ea, eb) = (doc.element(a), doc.element(b));
    if ea.attrs_start == eb.attrs_start && ea.attrs_len == eb.attrs_len {
        return true;
    }
    if ea.attrs_len != eb.attrs_len {
        return false;
    }
    let (xa, xb) = (doc.attrs_of(a), doc.attrs_of(b));
    xa.iter().all(|x| {
        xb.iter().any(|y| {
            doc.bytes(input, x.name) == doc.bytes(input, y.name)
                && x.ns == y.ns
                && x.value(input) == y.value(input)
        })
    })
}
