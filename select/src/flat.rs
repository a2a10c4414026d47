//! The fast path for flat selector lists: every selector one compound of a type selector
//! (or none) and simple conditions on the element itself — attributes in no namespace,
//! ids, classes, namespaces — with no combinator and no pseudo-class (`a[href]`,
//! `meta[name=robots]::attr(content)`, the ten fields).
//!
//! Such a selector depends on the element alone, so the top-down walk's machinery
//! (`topdown.rs`: the `Subject`, the candidate bit masks copied and narrowed, the owners
//! read back from the `last` mask, the matching context kept for the compounds
//! `selectors` answers) does nothing for it. Here an element's interned tag id indexes a
//! list of the selectors that name its type (or none), in the plan's order, and each is
//! tested by its conditions straight on the element ([`topdown::matches_simple`], the same
//! test the top-down walk makes, so the answers are the same). Elements whose name the
//! tree does not intern, and SVG / MathML elements, are offered the selectors by name
//! compared as `selectors` compares them (lowercased on HTML elements, as written on the
//! others). A property test (`tests.rs`) compares it with the general walk on random
//! trees and random flat selectors.
//!
//! A selector that gives an attribute it also tests for (`a[href]::attr(href)`,
//! `img[src]::attr(src)`) finds it once: the presence test is the lookup whose result
//! [`Flat::matches_named`] hands out with the match, so the value is not looked up again.
//! Any other selector with a presence test (`a[href]`, `a[href]::text`) has its first one
//! made by that lookup too (the tree's one loop over the element's records, in line),
//! not by `matches_simple` out of line: the same answer, the attribute not handed out.

use htmltok_tree::{AttrRef, Name, NodeRef, Ns, Tag};
use selectors::SelectorList;
use selectors::context::QuirksMode;
use selectors::parser::{Combinator, Component};

use crate::css::{Impl, PseudoElement};
use crate::subject::{Subject, TypeName};
use crate::topdown::{is_simple, matches_simple};

/// One selector of a flat list: its owner (a field's index; 0 for a lone selector), the
/// type it names, and its other simple selectors.
#[derive(Clone, Debug)]
struct Entry {
    owner: usize,
    name: Option<TypeName>,
    conditions: Box<[Component<Impl>]>,
    /// An attribute whose presence the selector tests (`href` in `a[href]`), as written
    /// and lowercased: looked up last, once, by the tree's loop over the element's
    /// records ([`htmltok_tree::NodeRef::attr_in_no_namespace`]) instead of being among
    /// `conditions`. The one whose value the selector gives (`a[href]::attr(href)`) when
    /// it has one (`gives`), else its first presence test.
    take: Option<TypeName>,
    /// Whether `take` is the attribute the selector's `::attr()` gives: then the match
    /// hands it out, so that its value is not looked up again.
    gives: bool,
}

/// The attribute named by both a presence test `c` and the pseudo-element `pseudo`
/// (`[href]` and `::attr(href)`), as written and lowercased. The names are compared as
/// written: `::attr(name)` reads `name` ASCII-lowercased on HTML elements and as written
/// on the others (`Selector::values`), as `[name]` is matched (`matches_simple`), so the
/// two look up the same attribute on every element.
fn taken(c: &Component<Impl>, pseudo: Option<&PseudoElement>) -> Option<TypeName> {
    match (c, pseudo) {
        (
            Component::AttributeInNoNamespaceExists {
                local_name,
                local_name_lower,
            },
            Some(PseudoElement::Attr(name)),
        ) if local_name.as_str() == &**name => {
            Some((local_name.as_str().into(), local_name_lower.as_str().into()))
        }
        _ => None,
    }
}

/// The entries an element may match, by its name (see [`Flat::candidates`]).
enum Candidates<'f> {
    /// Those of its interned tag, in order (a list of entry ids).
    Ids(&'f [u32]),
    /// An element of a name the tree does not intern (true: an HTML one): those whose
    /// name is none of the tag table's, found by comparing names.
    Uninterned(bool),
    /// Found by comparing names (SVG's `foreignObject`).
    ByName,
}

/// Flat selector lists, indexed by the element's interned tag (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Flat {
    entries: Box<[Entry]>,
    /// For an HTML element of an interned tag `t`: `ids[from..to]`, `(from, to) =
    /// ranges[t]`, are the entries that may match it (naming its type, or none), in
    /// order. Tags past the end get `any`.
    ranges: Box<[(u32, u32)]>,
    ids: Box<[u32]>,
    /// The entries naming no type.
    any: Box<[u32]>,
    /// For an SVG or MathML element of an interned tag `t` (but SVG's `foreignObject`),
    /// whose local name is `t`'s as the tree interns it (lowercase): as `ranges` / `ids`,
    /// the entries naming no type or `t`'s name as written (`selectors` compares a
    /// foreign element's name as written). Tags past the end get `any`.
    foreign_ranges: Box<[(u32, u32)]>,
    foreign_ids: Box<[u32]>,
    /// Whether some entry may match a foreign element whose tag the tree does not intern
    /// (SVG's camelCase names, `clipPath`, and names outside the tag table): one naming
    /// no type, or a name written otherwise than an interned tag's (the builder gives a
    /// foreign element the interned tag of its name when it has one, as it does HTML
    /// elements). Else such an element is rejected without its name being looked up.
    foreign_uninterned: bool,
    /// Whether some entry names a type: else an element of an uninterned or foreign name
    /// is offered `any` without its name being looked up.
    named: bool,
    /// Whether some entry may match an HTML element whose name the tree does not intern
    /// (`my-widget`): one naming no type, or an uninterned one. Else such an element is
    /// rejected without its name being looked up (the builder interns every HTML element
    /// name the tag table holds, `Tag::from_name`, so an uninterned element's name is
    /// none of the interned names the others give), so that selections with no such
    /// entry, such as the ten fields, look no such name up for nothing.
    uninterned: bool,
}

impl Flat {
    /// The flat form of `lists` (each with its owner and the pseudo-element its
    /// selectors end in), or None when some selector is not one compound of a type and
    /// conditions (perhaps ending in a pseudo-element).
    pub(crate) fn new<'a>(
        lists: impl IntoIterator<Item = (usize, &'a SelectorList<Impl>, Option<&'a PseudoElement>)>,
    ) -> Option<Flat> {
        let mut entries = Vec::new();
        for (owner, list, pseudo) in lists {
            for sel in list.slice() {
                let mut name = None;
                let mut conditions = Vec::new();
                // The presence test of the attribute given, if any, else the first.
                let gives = sel
                    .iter_raw_parse_order_from(0)
                    .any(|c| taken(c, pseudo).is_some());
                let mut take = None;
                for c in sel.iter_raw_parse_order_from(0) {
                    match c {
                        Component::LocalName(n) => {
                            name = Some((n.name.as_str().into(), n.lower_name.as_str().into()));
                        }
                        Component::ExplicitUniversalType | Component::ExplicitAnyNamespace => {}
                        // The pseudo-element (`::attr()`, `::text`) ends the selector; the
                        // element it is taken from is the subject.
                        Component::Combinator(Combinator::PseudoElement) => break,
                        c if take.is_none() && taken(c, pseudo).is_some() => {
                            take = taken(c, pseudo);
                        }
                        Component::AttributeInNoNamespaceExists {
                            local_name,
                            local_name_lower,
                        } if take.is_none() && !gives => {
                            take = Some((
                                local_name.as_str().into(),
                                local_name_lower.as_str().into(),
                            ));
                        }
                        c if is_simple(c) => conditions.push(c.clone()),
                        _ => return None,
                    }
                }
                entries.push(Entry {
                    owner,
                    name,
                    conditions: conditions.into(),
                    take,
                    gives,
                });
            }
        }
        if entries.is_empty() || u32::try_from(entries.len()).is_err() {
            return None;
        }
        let all = 0..entries.len() as u32;
        let any: Box<[u32]> = all
            .clone()
            .filter(|&i| entries[i as usize].name.is_none())
            .collect();
        // The entries that may match an element of an interned tag `t` (those naming no
        // type, and those whose name, as `key` gives it, is `t`'s), as a table of ranges
        // into a list of entry ids.
        let table = |key: fn(&TypeName) -> &str| {
            let tag_of = |i: u32| {
                entries[i as usize]
                    .name
                    .as_ref()
                    .map(|n| Tag::from_name(key(n)))
            };
            let end = all
                .clone()
                .filter_map(tag_of)
                .filter(|&t| t != Tag::Unknown)
                .map(|t| t as usize + 1)
                .max()
                .unwrap_or(0);
            let mut ranges = Vec::with_capacity(end);
            let mut ids = Vec::new();
            for t in 0..end {
                let from = ids.len() as u32;
                ids.extend(all.clone().filter(|&i| match tag_of(i) {
                    None => true,
                    Some(tag) => tag != Tag::Unknown && tag as usize == t,
                }));
                ranges.push((from, ids.len() as u32));
            }
            let uninterned = all
                .clone()
                .any(|i| tag_of(i).is_none_or(|t| t == Tag::Unknown));
            (
                ranges.into_boxed_slice(),
                ids.into_boxed_slice(),
                uninterned,
            )
        };
        // HTML elements: the names lowercased; foreign ones: as written.
        let (ranges, ids, uninterned) = table(|(_, lower)| lower);
        let (foreign_ranges, foreign_ids, foreign_uninterned) = table(|(written, _)| written);
        let named = entries.iter().any(|e| e.name.is_some());
        Some(Flat {
            entries: entries.into(),
            ranges,
            ids,
            any,
            foreign_ranges,
            foreign_ids,
            foreign_uninterned,
            named,
            uninterned,
        })
    }

    /// Whether an element named `name` may match some entry: false for the elements
    /// rejected by their name alone (an element of an interned tag no entry may match:
    /// one table load; an element of an uninterned name when no entry may match one).
    /// Tested in the scan's own loop (`scan::Nodes::find_element`), so the elements it
    /// rejects (most of them) cost the scan a few instructions each.
    #[inline(always)]
    pub(crate) fn wants(&self, name: Name) -> bool {
        // HTML elements in line (the scan's loop stays small), foreign ones out of line.
        if name.ns != Ns::Html {
            return self.wants_foreign(name);
        }
        if name.tag == Tag::Unknown {
            return self.uninterned;
        }
        match self.ranges.get(name.tag as usize) {
            Some(&(from, to)) => from != to,
            None => !self.any.is_empty(),
        }
    }

    /// [`Flat::wants`] for an SVG or MathML element.
    #[inline(never)]
    fn wants_foreign(&self, name: Name) -> bool {
        match self.candidates(name) {
            Candidates::Ids(ids) => !ids.is_empty(),
            Candidates::Uninterned(_) => self.foreign_uninterned,
            Candidates::ByName => true,
        }
    }

    /// Which entries an element named `name` may match, by its interned tag.
    #[inline(always)]
    fn candidates(&self, name: Name) -> Candidates<'_> {
        let html = name.ns == Ns::Html;
        if name.tag == Tag::Unknown {
            return Candidates::Uninterned(html);
        }
        let (ranges, ids) = if html {
            (&self.ranges, &self.ids)
        } else if name.ns == Ns::Svg && name.tag == Tag::ForeignObject {
            // Its local name is `foreignObject`, not the tag's (`known_local_name`).
            return Candidates::ByName;
        } else {
            (&self.foreign_ranges, &self.foreign_ids)
        };
        Candidates::Ids(match ranges.get(name.tag as usize) {
            Some(&(from, to)) => ids.get(from as usize..to as usize).unwrap_or_default(),
            None => &self.any,
        })
    }

    /// Calls `hit` with the owner of each entry the element `node`, named `name`, matches,
    /// in order, and the attribute the entry took (see [`Entry::take`]). Stops, returning
    /// true, when `hit` returns true. The entries are tried out of line, so a caller's
    /// loop over the elements stays small; [`Flat::wants`] is the test that rejects most
    /// elements before.
    #[inline(always)]
    pub(crate) fn matches_named<'d>(
        &self,
        node: NodeRef<'d>,
        name: Name,
        quirks: QuirksMode,
        hit: impl FnMut(usize, Option<AttrRef<'d>>) -> bool,
    ) -> bool {
        match self.candidates(name) {
            Candidates::Ids(ids) => {
                !ids.is_empty() && self.matches_ids(ids, node, name, quirks, hit)
            }
            Candidates::Uninterned(html) => {
                (if html {
                    self.uninterned
                } else {
                    self.foreign_uninterned
                }) && self.matches_by_name(node, name, quirks, hit)
            }
            Candidates::ByName => self.matches_by_name(node, name, quirks, hit),
        }
    }

    /// [`Flat::matches_named`] for an element of an interned tag: the entries `ids`.
    #[inline(never)]
    fn matches_ids<'d>(
        &self,
        ids: &[u32],
        node: NodeRef<'d>,
        name: Name,
        quirks: QuirksMode,
        mut hit: impl FnMut(usize, Option<AttrRef<'d>>) -> bool,
    ) -> bool {
        let subject = Subject::named(node, name);
        for &i in ids {
            let entry = &self.entries[i as usize];
            if let Some(attr) = entry.test(&subject, quirks)
                && hit(entry.owner, attr)
            {
                return true;
            }
        }
        false
    }

    /// [`Flat::matches_named`] for an element whose name the tree does not intern, or a foreign
    /// one: each entry's type compared with the name as `selectors` compares it.
    #[inline(never)]
    fn matches_by_name<'d>(
        &self,
        node: NodeRef<'d>,
        name: Name,
        quirks: QuirksMode,
        mut hit: impl FnMut(usize, Option<AttrRef<'d>>) -> bool,
    ) -> bool {
        let subject = Subject::named(node, name);
        let local = if self.named { subject.name() } else { "" };
        for entry in self.entries.iter() {
            let named = match &entry.name {
                None => true,
                Some((written, lower)) => local == if subject.html { &**lower } else { &**written },
            };
            if named
                && let Some(attr) = entry.test(&subject, quirks)
                && hit(entry.owner, attr)
            {
                return true;
            }
        }
        false
    }
}

impl Entry {
    /// Whether the element `subject` (of the entry's type) matches the entry's
    /// conditions: None if not, else the attribute taken (when the entry takes one).
    #[inline(always)]
    fn test<'d>(&self, subject: &Subject<'d>, quirks: QuirksMode) -> Option<Option<AttrRef<'d>>> {
        if !self
            .conditions
            .iter()
            .all(|c| matches_simple(c, subject, quirks))
        {
            return None;
        }
        match &self.take {
            None => Some(None),
            // As `matches_simple` tests `[name]`: the lowercased name on HTML elements.
            Some((written, lower)) => {
                let name = if subject.html { lower } else { written };
                let attr = subject.el.attr_ref(name.as_bytes())?;
                Some(self.gives.then_some(attr))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Selector;

    /// The attributes the entries of `css`'s flat form take and give (see `Entry::take`).
    fn taken(css: &str) -> Vec<Option<String>> {
        entries(css)
            .into_iter()
            .map(|(take, gives)| take.filter(|_| gives))
            .collect()
    }

    /// Each entry's `take` and `gives`.
    fn entries(css: &str) -> Vec<(Option<String>, bool)> {
        let sel = Selector::parse(css).unwrap();
        let flat = sel.flat.expect("a flat selector");
        flat.entries
            .iter()
            .map(|e| {
                let take = e.take.as_ref().map(|(written, _)| written.to_string());
                (take, e.gives)
            })
            .collect()
    }

    #[test]
    fn a_presence_test_of_the_attribute_given_is_taken() {
        assert_eq!(taken("a[href]::attr(href)"), [Some("href".into())]);
        assert_eq!(taken("*[TITLE]::attr(TITLE)"), [Some("TITLE".into())]);
        assert_eq!(
            taken("img[src][alt]::attr(src), a::attr(src)"),
            [Some("src".into()), None]
        );
        // Written differently (`::attr` lowercases on HTML elements only, `[HREF]` too,
        // but as written on SVG ones: left to the two lookups), a value test, another
        // attribute, or no `::attr`: nothing taken.
        assert_eq!(taken("a[HREF]::attr(href)"), [None]);
        assert_eq!(taken("a[href=x]::attr(href)"), [None]);
        assert_eq!(taken("a[title]::attr(href)"), [None]);
        assert_eq!(taken("a[href]::text"), [None]);
        assert_eq!(taken("a[href]"), [None]);
    }

    #[test]
    fn a_presence_test_not_given_is_looked_up_by_the_tree() {
        let not_given = |take: &str| (Some(take.to_string()), false);
        assert_eq!(entries("a[href]"), [not_given("href")]);
        assert_eq!(entries("a[href]::text"), [not_given("href")]);
        assert_eq!(entries("a[HREF][title=t]"), [not_given("HREF")]);
        assert_eq!(entries("a[title]::attr(href)"), [not_given("title")]);
        assert_eq!(entries("a[href=x]"), [(None, false)]);
        assert_eq!(
            entries("img[alt][src]::attr(src), a[href]::attr(src)"),
            [(Some("src".into()), true), not_given("href")]
        );
    }
}
