//! 13.2.4.3 The list of active formatting elements: elements and markers, with the Noah's
//! Ark clause (at most three identical elements after the last marker). Whether two
//! elements are identical (same name, namespace and attributes) is the caller's answer,
//! given as a closure, so this list needs no DOM.

use crate::dom::NodeId;
use crate::names::{Name, Tag};

/// One entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// A marker (pushed by applet, object, marquee, template, td, th, caption).
    Marker,
    /// A formatting element.
    Element(NodeId, Name),
}

/// The list of active formatting elements.
#[derive(Debug, Default)]
pub(crate) struct ActiveFormatting {
    entries: Vec<Entry>,
}

impl ActiveFormatting {
    pub(crate) fn push_marker(&mut self) {
        self.entries.push(Entry::Marker);
    }

    /// Pushes an element, first applying the Noah's Ark clause: when three elements after
    /// the last marker are `identical` to it, the earliest of them is removed.
    pub(crate) fn push(&mut self, id: NodeId, name: Name, identical: impl Fn(NodeId) -> bool) {
        let mut same = 0;
        let mut earliest = None;
        for (i, e) in self.entries.iter().enumerate().rev() {
            match *e {
                Entry::Marker => break,
                Entry::Element(other, other_name) => {
                    if other_name == name && identical(other) {
                        same += 1;
                        earliest = Some(i);
                    }
                }
            }
        }
        if same >= 3
            && let Some(i) = earliest
        {
            self.entries.remove(i);
        }
        self.entries.push(Entry::Element(id, name));
    }

    /// "Clear the list of active formatting elements up to the last marker".
    pub(crate) fn clear_to_last_marker(&mut self) {
        while let Some(e) = self.entries.pop() {
            if e == Entry::Marker {
                break;
            }
        }
    }

    /// The last HTML element `tag` after the last marker, with its index.
    pub(crate) fn find_after_last_marker(&self, tag: Tag) -> Option<(usize, NodeId)> {
        for (i, e) in self.entries.iter().enumerate().rev() {
            match *e {
                Entry::Marker => return None,
                Entry::Element(id, name) if name.is_html(tag) => return Some((i, id)),
                Entry::Element(..) => {}
            }
        }
        None
    }

    pub(crate) fn position(&self, id: NodeId) -> Option<usize> {
        self.entries
            .iter()
            .rposition(|e| matches!(*e, Entry::Element(x, _) if x == id))
    }

    pub(crate) fn remove(&mut self, id: NodeId) {
        if let Some(i) = self.position(id) {
            self.entries.remove(i);
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn get(&self, i: usize) -> Entry {
        self.entries[i]
    }

    pub(crate) fn last(&self) -> Option<Entry> {
        self.entries.last().copied()
    }

    pub(crate) fn set(&mut self, i: usize, entry: Entry) {
        self.entries[i] = entry;
    }

    pub(crate) fn insert(&mut self, i: usize, entry: Entry) {
        self.entries.insert(i, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noahs_ark() {
        let mut list = ActiveFormatting::default();
        let b = Name::html(Tag::B);
        for id in 0..5 {
            list.push(id, b, |_| true);
        }
        assert_eq!(list.len(), 3);
        assert_eq!(list.get(0), Entry::Element(2, b));
        list.push_marker();
        list.push(9, b, |_| true);
        assert_eq!(list.len(), 5, "the marker bounds the clause");
        list.push(10, b, |other| other != 9);
        assert_eq!(list.len(), 6);
    }

    #[test]
    fn markers() {
        let mut list = ActiveFormatting::default();
        list.push(1, Name::html(Tag::A), |_| false);
        list.push_marker();
        list.push(2, Name::html(Tag::I), |_| false);
        assert_eq!(list.find_after_last_marker(Tag::A), None);
        assert_eq!(list.find_after_last_marker(Tag::I), Some((2, 2)));
        list.clear_to_last_marker();
        assert_eq!(list.len(), 1);
        assert_eq!(list.find_after_last_marker(Tag::A), Some((0, 1)));
        list.remove(1);
        assert_eq!(list.len(), 0);
    }
}
