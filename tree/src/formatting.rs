//! 13.2.4.3 The list of active formatting elements: elements and markers, with the Noah's
//! Ark clause (at most three identical elements after the last marker). Whether two
//! elements are identical (same name, namespace and attributes) is the caller's answer,
//! given as a closure with a hash of the name and attributes, so this list needs no DOM.
//!
//! Cost: the list can hold as many elements as a page opens (100,000 `<font>`s with
//! distinct attributes), so nothing here scans it on every push. Per marker level, a count
//! of entries per hash says when three identical elements may exist (only then is the list
//! scanned, and the scan confirms with the exact comparison), and a count per formatting
//! tag says when "the last `a` after the last marker" cannot exist. Real pages keep a few
//! entries per level, and the hashes decode and hash every attribute value, a cost every
//! push would otherwise pay: so the hashes and their counts are made only once a level
//! holds more than [`SMALL`] entries; below that a push scans the level when three
//! entries of its tag exist, at most [`SMALL`] of them.

use std::collections::HashMap;

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

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The counts of the entries between two markers (or after the last one).
/// Up to this many entries in a level, its entries are not hashed (see the module notes).
const SMALL: u32 = 16;

#[derive(Debug, Default)]
struct Level {
    /// The entries of this level.
    len: u32,
    /// Whether `by_key` counts this level's entries (and their `meta` holds their hashes):
    /// set once the level grows past [`SMALL`] entries.
    hashed: bool,
    by_key: HashMap<u64, u32, std::hash::BuildHasherDefault<KeyHasher>>,
    /// Per formatting tag ([`formatting_index`]), the number of entries (the sixteenth
    /// count is never used: with it the masked index needs no bounds check).
    by_tag: [u32; 16],
}

/// The formatting tags, in the order of their small index ([`formatting_index`]).
const FORMATTING_TAGS: [Tag; 14] = {
    use Tag::*;
    [
        A, B, Big, Code, Em, Font, I, Nobr, S, Small, Strike, Strong, Tt, U,
    ]
};

/// [`formatting_index`] by tag id (a tag's id is below 256, as the stack's per-tag counts
/// also assume): one load, where a `match` was a jump or a chain of compares for each of
/// the list's pushes, pops, searches and counts.
static FORMATTING_INDEX: [u8; 256] = {
    let mut table = [14u8; 256];
    let mut i = 0;
    while i < FORMATTING_TAGS.len() {
        table[FORMATTING_TAGS[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// A small index for the formatting tags (14 of them; 14 for any other name). Masked to
/// the 16 counts of `Level::by_tag`, which it is then known to fit.
fn formatting_index(tag: Tag) -> usize {
    usize::from(FORMATTING_INDEX[tag as usize] & 15)
}

/// The list of active formatting elements.
#[derive(Debug)]
pub(crate) struct ActiveFormatting {
    entries: Vec<Entry>,
    /// Per entry: the hash of its name and attributes, and its level (markers before it).
    meta: Vec<(u64, u32)>,
    levels: Vec<Level>,
}

impl Default for ActiveFormatting {
    fn default() -> Self {
        ActiveFormatting {
            entries: Vec::new(),
            meta: Vec::new(),
            levels: vec![Level::default()],
        }
    }
}

impl ActiveFormatting {
    fn level(&self) -> u32 {
        (self.levels.len() - 1) as u32
    }

    /// Counts an entry in (`delta` 1) or out (-1) of its level. Inlined, with the hash
    /// map (levels of more than [`SMALL`] entries only) out of line.
    #[inline]
    fn count(&mut self, (key, level): (u64, u32), name: Name, delta: i32) {
        let l = &mut self.levels[level as usize];
        if l.hashed {
            Self::count_key(l, key, delta);
        }
        l.len = l.len.wrapping_add_signed(delta);
        let t = &mut l.by_tag[formatting_index(name.tag)];
        *t = t.wrapping_add_signed(delta);
    }

    #[cold]
    #[inline(never)]
    fn count_key(l: &mut Level, key: u64, delta: i32) {
        let k = l.by_key.entry(key).or_insert(0);
        *k = k.wrapping_add_signed(delta);
    }

    /// Starts counting the current level's entries by hash (it has grown past [`SMALL`]).
    fn hash_level(&mut self, key_of: &impl Fn(NodeId) -> u64) {
        let level = self.levels.len() - 1;
        let mut by_key = HashMap::default();
        for i in (0..self.entries.len()).rev() {
            match self.entries[i] {
                Entry::Marker => break,
                Entry::Element(id, _) => {
                    let key = key_of(id);
                    self.meta[i].0 = key;
                    *by_key.entry(key).or_insert(0) += 1;
                }
            }
        }
        let l = &mut self.levels[level];
        l.by_key = by_key;
        l.hashed = true;
    }

    /// Inlined into its few callers (`td`, `th`, `caption`, `applet`, `marquee`,
    /// `object`, `template`): a call would be a large part of its cost.
    #[inline(always)]
    pub(crate) fn push_marker(&mut self) {
        self.entries.push(Entry::Marker);
        self.meta.push((0, self.level()));
        self.levels.push(Level::default());
    }

    /// Pushes an element, first applying the Noah's Ark clause: when three elements after
    /// the last marker are `identical` to it, the earliest of them is removed. `key_of`
    /// gives an element's hash of name and attributes (equal for identical elements); it
    /// is asked only on levels of more than [`SMALL`] entries.
    ///
    /// The common case inlined: a level that is not hashed and stays within [`SMALL`]
    /// entries, with fewer than three entries of the element's tag (so no three can be
    /// identical to it: the clause has nothing to do). It is counted in with one look at
    /// the level, without the closures (whose captures the general path spilled to the
    /// stack for every push) or the general path's repeated lookups of the level.
    #[inline(always)]
    pub(crate) fn push(
        &mut self,
        id: NodeId,
        name: Name,
        key_of: impl Fn(NodeId) -> u64,
        identical: impl Fn(NodeId) -> bool,
    ) {
        let level = self.levels.len() - 1;
        if let Some(l) = self.levels.last_mut()
            && !l.hashed
            && l.len < SMALL
        {
            let t = &mut l.by_tag[formatting_index(name.tag)];
            if *t < 3 {
                // The clause's scan would find fewer than three entries of the name.
                debug_assert!(
                    self.entries
                        .iter()
                        .rev()
                        .take_while(|e| **e != Entry::Marker)
                        .filter(|e| matches!(e, Entry::Element(_, n) if *n == name))
                        .count()
                        < 3
                );
                *t += 1;
                l.len += 1;
                self.entries.push(Entry::Element(id, name));
                self.meta.push((0, level as u32));
                return;
            }
        }
        self.push_general(id, name, key_of, identical);
    }

    /// [`Self::push`] when the level is hashed, has grown past [`SMALL`] entries, or
    /// already holds three or more entries of the element's tag.
    #[inline(never)]
    fn push_general(
        &mut self,
        id: NodeId,
        name: Name,
        key_of: impl Fn(NodeId) -> u64,
        identical: impl Fn(NodeId) -> bool,
    ) {
        let level = self.level();
        let l = &self.levels[level as usize];
        if !l.hashed && l.len >= SMALL {
            self.hash_level(&key_of);
        }
        let l = &self.levels[level as usize];
        // On a level that is not hashed, every entry's key is 0, so the scan below
        // compares by name and `identical` alone (over at most `SMALL` entries).
        let (key, possible) = if l.hashed {
            let key = key_of(id);
            (key, l.by_key.get(&key).copied().unwrap_or(0))
        } else {
            (0, l.by_tag[formatting_index(name.tag)])
        };
        if possible >= 3 {
            let mut same = 0;
            let mut earliest = None;
            for (i, e) in self.entries.iter().enumerate().rev() {
                match *e {
                    Entry::Marker => break,
                    Entry::Element(other, other_name) => {
                        if self.meta[i].0 == key && other_name == name && identical(other) {
                            same += 1;
                            earliest = Some(i);
                            if same == 3 {
                                break;
                            }
                        }
                    }
                }
            }
            if same >= 3
                && let Some(i) = earliest
            {
                self.remove_at(i);
            }
        }
        self.entries.push(Entry::Element(id, name));
        self.meta.push((key, level));
        self.count((key, level), name, 1);
    }

    /// "Clear the list of active formatting elements up to the last marker". The common
    /// case (the last entry is the marker: a table cell closed with no formatting element
    /// left open in it) inlined, the loop out of line.
    #[inline(always)]
    pub(crate) fn clear_to_last_marker(&mut self) {
        if let Some(Entry::Marker) = self.entries.last()
            && self.levels.len() > 1
            && let Some(level) = self.levels.last()
            && !level.hashed
        {
            self.entries.pop();
            self.meta.pop();
            // A level that is not hashed owns no memory: its map is the empty default
            // (`hash_level` fills it and sets `hashed`). So it is forgotten, not dropped:
            // the drop would be a call that copies the level out first.
            debug_assert_eq!(level.by_key.capacity(), 0);
            std::mem::forget(self.levels.pop());
            return;
        }
        self.clear_to_last_marker_general();
    }

    #[inline(never)]
    fn clear_to_last_marker_general(&mut self) {
        loop {
            match self.entries.pop() {
                Some(Entry::Marker) => {
                    self.meta.pop();
                    self.levels.pop();
                    return;
                }
                Some(Entry::Element(..)) => {
                    self.meta.pop();
                }
                None => {
                    self.levels = vec![Level::default()];
                    return;
                }
            }
        }
    }

    /// The last HTML element `tag` after the last marker, with its index. The common
    /// answer (none of that tag on the level: its count) inlined into the caller (every
    /// `<a>` asks it), the scan out of line.
    #[inline(always)]
    pub(crate) fn find_after_last_marker(&self, tag: Tag) -> Option<(usize, NodeId)> {
        match self.levels.last() {
            Some(level) if level.by_tag[formatting_index(tag)] == 0 => {
                debug_assert_eq!(self.scan_after_last_marker(tag), None);
                None
            }
            _ => self.scan_after_last_marker(tag),
        }
    }

    #[inline(never)]
    fn scan_after_last_marker(&self, tag: Tag) -> Option<(usize, NodeId)> {
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

    /// The hash an element's entry was pushed with (0 on a level that is not hashed).
    pub(crate) fn key_at(&self, i: usize) -> u64 {
        self.meta[i].0
    }

    /// Removes the last entry, an element (a formatting element closed where it was
    /// opened, the common case), without `remove_at`'s `memmove` path. Inlined for a level
    /// that is not hashed: the last entry, an element, is on the current level (no marker
    /// follows it), so it is counted out there without reading its level back; the rest
    /// out of line.
    #[inline(always)]
    pub(crate) fn pop_element(&mut self) {
        if let Some(l) = self.levels.last_mut()
            && !l.hashed
            && let Some(&Entry::Element(_, name)) = self.entries.last()
        {
            self.entries.pop();
            self.meta.pop();
            l.len -= 1;
            l.by_tag[formatting_index(name.tag)] -= 1;
            return;
        }
        self.pop_element_general();
    }

    #[inline(never)]
    fn pop_element_general(&mut self) {
        if let (Some(Entry::Element(_, name)), Some(meta)) = (self.entries.pop(), self.meta.pop()) {
            self.count(meta, name, -1);
        }
    }

    /// Removes element entry `i`.
    pub(crate) fn remove_at(&mut self, i: usize) {
        // The last entry (a formatting element closed where it was opened, the common
        // case) is popped: `Vec::remove` would call `memmove` for nothing, twice.
        let (entry, meta) = if i + 1 == self.entries.len() {
            (self.entries.pop(), self.meta.pop())
        } else {
            (Some(self.entries.remove(i)), Some(self.meta.remove(i)))
        };
        let (Some(Entry::Element(_, name)), Some(meta)) = (entry, meta) else {
            unreachable!("markers are removed by clear_to_last_marker")
        };
        self.count(meta, name, -1);
    }

    pub(crate) fn remove(&mut self, id: NodeId) {
        if let Some(i) = self.position(id) {
            self.remove_at(i);
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

    /// Replaces element entry `i` with another element of the same name and attributes.
    pub(crate) fn set(&mut self, i: usize, entry: Entry) {
        self.entries[i] = entry;
    }

    /// Inserts an element entry at `i`, after the last marker.
    pub(crate) fn insert(&mut self, i: usize, entry: Entry, key: u64) {
        let Entry::Element(_, name) = entry else {
            unreachable!("only elements are inserted")
        };
        let level = self.level();
        self.entries.insert(i, entry);
        self.meta.insert(i, (key, level));
        self.count((key, level), name, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list with five `b` elements (ids 0 to 4) pushed with the same attribute hash,
    /// whose attributes the clause's comparison finds the same when `same_attrs`.
    fn five_b(same_attrs: bool) -> (ActiveFormatting, Name) {
        let mut list = ActiveFormatting::default();
        let b = Name::html(Tag::B);
        for id in 0..5 {
            list.push(id, b, |_| 7, |_| same_attrs);
        }
        (list, b)
    }

    #[test]
    fn noahs_ark() {
        let (mut list, b) = five_b(true);
        assert_eq!(list.len(), 3);
        assert_eq!(list.get(0), Entry::Element(2, b));
        list.push_marker();
        list.push(9, b, |_| 7, |_| true);
        assert_eq!(list.len(), 5, "the marker bounds the clause");
        list.push(10, b, |_| 7, |other| other != 9);
        assert_eq!(list.len(), 6);
        list.clear_to_last_marker();
        assert_eq!(list.len(), 3);
        list.push(11, b, |_| 7, |_| true);
        assert_eq!(list.len(), 3, "the counts of the outer level are back");
    }

    #[test]
    fn same_hash_different_attributes() {
        let (list, _) = five_b(false);
        assert_eq!(list.len(), 5, "a hash match alone removes nothing");
    }

    #[test]
    fn markers() {
        let mut list = ActiveFormatting::default();
        list.push(1, Name::html(Tag::A), |_| 1, |_| false);
        list.push_marker();
        list.push(2, Name::html(Tag::I), |_| 2, |_| false);
        assert_eq!(list.find_after_last_marker(Tag::A), None);
        assert_eq!(list.find_after_last_marker(Tag::I), Some((2, 2)));
        list.clear_to_last_marker();
        assert_eq!(list.len(), 1);
        assert_eq!(list.find_after_last_marker(Tag::A), Some((0, 1)));
        list.remove(1);
        assert_eq!(list.len(), 0);
        assert_eq!(list.find_after_last_marker(Tag::A), None);
    }

    #[test]
    fn noahs_ark_on_a_hashed_level() {
        // Past `SMALL` entries a level counts by hash: elements with distinct hashes never
        // scan, identical ones (equal hashes) still keep at most three.
        let mut list = ActiveFormatting::default();
        let font = Name::html(Tag::Font);
        let key_of = |id: NodeId| if id >= 1000 { 7 } else { u64::from(id) + 100 };
        let identical = |a: NodeId| move |b: NodeId| a >= 1000 && b >= 1000;
        for id in 0..40 {
            list.push(id, font, key_of, identical(id));
        }
        assert_eq!(list.len(), 40);
        for id in 1000..1005 {
            list.push(id, font, key_of, identical(id));
        }
        assert_eq!(list.len(), 43);
        assert_eq!(list.get(40), Entry::Element(1002, font));
        list.remove(1003);
        list.push(1005, font, key_of, identical(1005));
        assert_eq!(list.len(), 43, "the removal was counted");
    }
}
