//! 13.2.4.2 The stack of open elements, with every scope kind of the spec and the popping
//! helpers the insertion modes share (generate implied end tags, clear the stack back to a
//! table context, …). Entries are node ids with their interned names, so no check here
//! touches the DOM.
//!
//! Cost: the scope checks walk down from the current node to the first boundary; a count
//! of the HTML elements of each tag on the stack answers "not in scope" at once when no
//! such element is open (so a million nested `<div>`s, each asking for a `p` in button
//! scope, stay linear), and a membership bit per node answers "is this element on the
//! stack" in constant time.

use crate::dom::NodeId;
use crate::names::{Name, Ns, Tag};

/// The kinds of scope of 13.2.4.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// "has an element in scope".
    Default,
    /// "in list item scope": the default set plus `ol`, `ul`.
    ListItem,
    /// "in button scope": the default set plus `button`.
    Button,
    /// "in table scope": `html`, `table`, `template`.
    Table,
}

impl Scope {
    fn is_boundary(self, name: Name) -> bool {
        match self {
            Scope::Default => name.is_scope_boundary(),
            Scope::ListItem => name.is_scope_boundary() || name.is_list_item_scope_boundary(),
            Scope::Button => name.is_scope_boundary() || name.is_html(Tag::Button),
            Scope::Table => name.is_table_scope_boundary(),
        }
    }
}

thread_local! {
    /// The membership bits the last parse on this thread left (see `spare`).
    pub(crate) static SPARE_MEMBER: std::cell::Cell<Vec<bool>> =
        const { std::cell::Cell::new(Vec::new()) };
}

/// The stack of open elements.
#[derive(Debug)]
pub(crate) struct OpenElements {
    items: Vec<(NodeId, Name)>,
    /// How many HTML elements of each tag are on the stack.
    /// (An array of 256: a tag's id is below 256, so indexing it needs no bounds check.)
    counts: Box<[u32; 256]>,
    /// Whether each node is on the stack.
    member: Vec<bool>,
    /// How many elements outside the HTML namespace are on the stack, plus one in a
    /// fragment parse with a context element ([`OpenElements::count_context`]). While it
    /// is 0, the adjusted current node is an HTML element without reading it
    /// (`TreeBuilder::adjusted_current_is_foreign`, asked before every token: one test,
    /// where the context's own was a second per token).
    foreign: u32,
}

/// The elements "generate implied end tags" pops.
fn implied_end(name: Name) -> bool {
    use Tag::*;
    name.ns == Ns::Html
        && matches!(
            name.tag,
            Dd | Dt | Li | Optgroup | Option | P | Rb | Rp | Rt | Rtc
        )
}

/// The elements "generate all implied end tags thoroughly" pops.
fn implied_end_thorough(name: Name) -> bool {
    use Tag::*;
    implied_end(name)
        || (name.ns == Ns::Html
            && matches!(
                name.tag,
                Caption | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
            ))
}

impl OpenElements {
    pub(crate) fn new() -> OpenElements {
        OpenElements {
            items: Vec::new(),
            counts: Box::new([0; 256]),
            // Every bit clear; the last parse's length kept (see `spare::take_bits`).
            member: crate::spare::take_bits(&SPARE_MEMBER),
            foreign: 0,
        }
    }

    fn count_slot(name: Name) -> Option<usize> {
        (name.ns == Ns::Html).then_some(name.tag as usize)
    }

    pub(crate) fn push(&mut self, id: NodeId, name: Name) {
        self.items.push((id, name));
        match Self::count_slot(name) {
            Some(slot) => self.counts[slot] += 1,
            None => self.foreign += 1,
        }
        let i = id as usize;
        match self.member.get_mut(i) {
            Some(bit) => *bit = true,
            None => self.grow_member(i),
        }
    }

    /// [`Self::push`] of an HTML element (`name` is `Name::html(name.tag)`) when the
    /// stack and the membership bits have room for it; false, doing nothing, otherwise.
    /// Inlined into the common element insertion (`TreeBuilder::append_html_element`),
    /// which it leaves without a call: its count without the namespace's test, and
    /// growing left to the general path.
    #[inline(always)]
    pub(crate) fn push_html_with_room(&mut self, id: NodeId, name: Name) -> bool {
        debug_assert_eq!(name.ns, Ns::Html);
        let i = id as usize;
        if self.items.len() == self.items.capacity() || i >= self.member.len() {
            return false;
        }
        self.items.push((id, name));
        self.counts[name.tag as usize] += 1;
        self.member[i] = true;
        true
    }

    /// Makes room for node `i`'s membership bit (by half again, so amortized O(1)) and
    /// sets it: out of line, so that a push is one bounds check and a store.
    #[cold]
    #[inline(never)]
    fn grow_member(&mut self, i: usize) {
        self.member.resize(i + 1 + i / 2, false);
        self.member[i] = true;
    }

    /// Inlined: out of line, the end tag shortcuts' `pop_current` would call it for most
    /// end tags.
    #[inline(always)]
    fn forget(&mut self, id: NodeId, name: Name) {
        match Self::count_slot(name) {
            Some(slot) => self.counts[slot] -= 1,
            None => self.foreign -= 1,
        }
        self.member[id as usize] = false;
    }

    /// Pops the current node, `(id, name)`, which the caller has just read
    /// ([`Self::current`]): inlined into "in body"'s end tag shortcuts (`</p>`, `</a>`),
    /// where [`Self::pop`] stayed a call.
    #[inline(always)]
    pub(crate) fn pop_current(&mut self, id: NodeId, name: Name) {
        debug_assert_eq!(self.current(), Some((id, name)));
        self.items.pop();
        self.forget(id, name);
    }

    /// Pops the current node.
    pub(crate) fn pop(&mut self) -> Option<(NodeId, Name)> {
        let top = self.items.pop()?;
        self.forget(top.0, top.1);
        Some(top)
    }

    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// The current node (the bottommost, most recently pushed).
    pub(crate) fn current(&self) -> Option<(NodeId, Name)> {
        self.items.last().copied()
    }

    /// Whether an element outside the HTML namespace is on the stack, or the parse is a
    /// fragment's with a context element (which the adjusted current node may be).
    pub(crate) fn has_foreign(&self) -> bool {
        self.foreign != 0
    }

    /// Counts the fragment parsing context element in [`Self::has_foreign`]'s answer
    /// (13.4: "the adjusted current node" is the context element while only the `html`
    /// element is open).
    pub(crate) fn count_context(&mut self) {
        self.foreign += 1;
    }

    pub(crate) fn current_name(&self) -> Option<Name> {
        self.items.last().map(|e| e.1)
    }

    /// True when the current node is the HTML element `tag`.
    pub(crate) fn current_is(&self, tag: Tag) -> bool {
        self.current_name().is_some_and(|n| n.is_html(tag))
    }

    pub(crate) fn get(&self, i: usize) -> (NodeId, Name) {
        self.items[i]
    }

    pub(crate) fn items(&self) -> &[(NodeId, Name)] {
        &self.items
    }

    pub(crate) fn contains(&self, id: NodeId) -> bool {
        self.member.get(id as usize).copied().unwrap_or(false)
    }

    /// True when an HTML element `tag` is anywhere on the stack.
    pub(crate) fn contains_tag(&self, tag: Tag) -> bool {
        self.counts[tag as usize] > 0
    }

    pub(crate) fn index_of(&self, id: NodeId) -> Option<usize> {
        if !self.contains(id) {
            return None;
        }
        self.items.iter().rposition(|e| e.0 == id)
    }

    /// Removes `id` from wherever it is on the stack.
    pub(crate) fn remove(&mut self, id: NodeId) {
        if let Some(i) = self.index_of(id) {
            let (id, name) = self.items.remove(i);
            self.forget(id, name);
        }
    }

    /// Inserts an element at position `i`.
    pub(crate) fn insert(&mut self, i: usize, id: NodeId, name: Name) {
        self.push(id, name);
        let last = self.items.pop().expect("just pushed");
        self.items.insert(i, last);
    }

    /// Replaces the entry at `i` with another element.
    pub(crate) fn replace(&mut self, i: usize, id: NodeId, name: Name) {
        let (old, old_name) = self.items[i];
        self.forget(old, old_name);
        self.push(id, name);
        let last = self.items.pop().expect("just pushed");
        self.items[i] = last;
    }

    /// "has an element in the specific scope" for the HTML element `tag`.
    pub(crate) fn has_in_scope(&self, tag: Tag, scope: Scope) -> bool {
        if !self.contains_tag(tag) {
            return false;
        }
        self.has_matching_in_scope(|n| n.is_html(tag), scope)
    }

    /// "has an element in scope" for any HTML element matching `pred`.
    pub(crate) fn has_matching_in_scope(&self, pred: impl Fn(Name) -> bool, scope: Scope) -> bool {
        for &(_, name) in self.items.iter().rev() {
            if pred(name) {
                return true;
            }
            if scope.is_boundary(name) {
                return false;
            }
        }
        false
    }

    /// "has an element in scope" for the particular node `id`.
    pub(crate) fn has_node_in_scope(&self, id: NodeId, scope: Scope) -> bool {
        if !self.contains(id) {
            return false;
        }
        for &(node, name) in self.items.iter().rev() {
            if node == id {
                return true;
            }
            if scope.is_boundary(name) {
                return false;
            }
        }
        false
    }

    /// Pops elements until an HTML element `tag` has been popped; returns that element
    /// (None when there was none: the stack is then empty).
    pub(crate) fn pop_until(&mut self, tag: Tag) -> Option<NodeId> {
        self.pop_until_matching(|n| n.is_html(tag))
    }

    /// Pops elements until one matching `pred` has been popped, and returns it.
    pub(crate) fn pop_until_matching(&mut self, pred: impl Fn(Name) -> bool) -> Option<NodeId> {
        while let Some((id, name)) = self.pop() {
            if pred(name) {
                return Some(id);
            }
        }
        None
    }

    /// 13.2.6.3 "generate implied end tags", except for HTML elements `except`.
    pub(crate) fn generate_implied_end_tags(&mut self, except: Option<Tag>) {
        while let Some(name) = self.current_name() {
            if !implied_end(name) || except.is_some_and(|t| name.is_html(t)) {
                break;
            }
            self.pop();
        }
    }

    /// Whether "generate implied end tags" (except for HTML elements `except`) would pop
    /// the current node: for the debug assertions of the shortcuts that pop the current
    /// node where a rule generates implied end tags first.
    pub(crate) fn implies_end_of_current(&self, except: Option<Tag>) -> bool {
        self.current_name()
            .is_some_and(|name| implied_end(name) && !except.is_some_and(|t| name.is_html(t)))
    }

    /// 13.2.6.3 "generate all implied end tags thoroughly".
    pub(crate) fn generate_implied_end_tags_thoroughly(&mut self) {
        while self.current_name().is_some_and(implied_end_thorough) {
            self.pop();
        }
    }

    fn clear_back_to(&mut self, stop: impl Fn(Tag) -> bool) {
        while let Some(name) = self.current_name() {
            if name.ns == Ns::Html && stop(name.tag) {
                break;
            }
            self.pop();
        }
    }

    /// 13.2.6.4.9 "clear the stack back to a table context".
    pub(crate) fn clear_back_to_table_context(&mut self) {
        self.clear_back_to(|t| matches!(t, Tag::Table | Tag::Template | Tag::Html));
    }

    /// 13.2.6.4.13 "clear the stack back to a table body context".
    pub(crate) fn clear_back_to_table_body_context(&mut self) {
        self.clear_back_to(|t| {
            matches!(
                t,
                Tag::Tbody | Tag::Tfoot | Tag::Thead | Tag::Template | Tag::Html
            )
        });
    }

    /// 13.2.6.4.14 "clear the stack back to a table row context". The common answer (the
    /// current node is the row: every `<td>` of a row after the first) inlined, the
    /// popping out of line.
    #[inline(always)]
    pub(crate) fn clear_back_to_table_row_context(&mut self) {
        if self.current_is(Tag::Tr) {
            return;
        }
        self.clear_back_to_table_row_context_general();
    }

    #[inline(never)]
    fn clear_back_to_table_row_context_general(&mut self) {
        self.clear_back_to(|t| matches!(t, Tag::Tr | Tag::Template | Tag::Html));
    }

    /// At the end of a parse: clears the bits of the elements still open (a bit is set
    /// exactly while its element is on the stack) and lends the bits to the next parse on
    /// this thread (`spare::keep_bits`). Called by the tree builder's loop once it has
    /// finished, not from a `Drop`: drop glue on the stack makes the compiler lay the
    /// loop out less well.
    pub(crate) fn give_back(&mut self) {
        for &(id, _) in &self.items {
            self.member[id as usize] = false;
        }
        crate::spare::keep_bits(&SPARE_MEMBER, std::mem::take(&mut self.member));
    }

    /// Truncates the stack to its first `len` entries.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.items.len() > len {
            self.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(tags: &[Tag]) -> OpenElements {
        let mut s = OpenElements::new();
        for (i, &t) in tags.iter().enumerate() {
            s.push(i as NodeId, Name::html(t));
        }
        s
    }

    #[test]
    fn scopes() {
        let s = stack(&[Tag::Html, Tag::Body, Tag::P, Tag::Button, Tag::Span]);
        assert!(s.has_in_scope(Tag::P, Scope::Default));
        assert!(!s.has_in_scope(Tag::P, Scope::Button));
        assert!(s.has_in_scope(Tag::Button, Scope::Button));
        assert!(!s.has_in_scope(Tag::Div, Scope::Default));
        let s = stack(&[Tag::Html, Tag::Body, Tag::Li, Tag::Ul, Tag::Span]);
        assert!(!s.has_in_scope(Tag::Li, Scope::ListItem));
        assert!(s.has_in_scope(Tag::Li, Scope::Default));
        let s = stack(&[Tag::Html, Tag::Body, Tag::Table, Tag::Tr, Tag::Td, Tag::P]);
        assert!(
            !s.has_in_scope(Tag::Tr, Scope::Default),
            "td bounds the default scope"
        );
        let mut s = s;
        assert!(s.has_in_scope(Tag::Tr, Scope::Table));
        s.pop();
        s.pop();
        assert!(s.has_in_scope(Tag::Table, Scope::Table));
    }

    #[test]
    fn foreign_boundaries() {
        let mut s = stack(&[Tag::Html, Tag::Body, Tag::P]);
        s.push(
            9,
            Name {
                ns: Ns::Svg,
                tag: Tag::ForeignObject,
            },
        );
        assert!(!s.has_in_scope(Tag::P, Scope::Default));
        s.pop();
        s.push(
            9,
            Name {
                ns: Ns::Svg,
                tag: Tag::G,
            },
        );
        assert!(s.has_in_scope(Tag::P, Scope::Default));
    }

    #[test]
    fn popping() {
        let mut s = stack(&[
            Tag::Html,
            Tag::Body,
            Tag::Table,
            Tag::Tbody,
            Tag::Tr,
            Tag::Td,
            Tag::P,
            Tag::Li,
        ]);
        s.generate_implied_end_tags(Some(Tag::Li));
        assert_eq!(s.len(), 8);
        s.generate_implied_end_tags(None);
        assert!(s.current_is(Tag::Td));
        s.clear_back_to_table_body_context();
        assert!(s.current_is(Tag::Tbody));
        s.clear_back_to_table_context();
        assert!(s.current_is(Tag::Table));
        assert!(s.contains(2) && !s.contains(3));
        assert_eq!(s.pop_until(Tag::Body), Some(1));
        assert_eq!(s.len(), 1);
        assert!(!s.contains_tag(Tag::Table));
    }

    #[test]
    fn insert_and_replace() {
        let mut s = stack(&[Tag::Html, Tag::Body, Tag::B]);
        s.insert(2, 7, Name::html(Tag::I));
        assert_eq!(s.get(2).0, 7);
        assert_eq!(s.index_of(2), Some(3));
        s.replace(3, 8, Name::html(Tag::U));
        assert!(!s.contains(2) && s.contains(8));
        assert!(!s.contains_tag(Tag::B) && s.contains_tag(Tag::U));
        s.remove(7);
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn foreign_count() {
        let svg = |tag| Name { ns: Ns::Svg, tag };
        let mut s = stack(&[Tag::Html, Tag::Body]);
        assert!(!s.has_foreign());
        s.push(5, svg(Tag::Svg));
        s.push(6, svg(Tag::G));
        assert!(s.has_foreign());
        s.pop_current(6, svg(Tag::G));
        assert!(s.has_foreign());
        s.replace(2, 7, Name::html(Tag::Div));
        assert!(!s.has_foreign());
        s.insert(2, 8, svg(Tag::Path));
        assert!(s.has_foreign());
        s.remove(8);
        assert!(!s.has_foreign());
        s.push(9, svg(Tag::Svg));
        s.truncate(2);
        assert!(!s.has_foreign());
    }
}
