//! Field extraction: named selectors, compiled once, matched together in one walk of a
//! document, giving one column of strings per field.
//!
//! ```
//! use htmltok_select::Fields;
//!
//! let fields = Fields::new([
//!     ("title", "title::text"),
//!     ("links", "a[href]::attr(href)"),
//!     ("robots", "meta[name=robots]::attr(content)"),
//! ])
//! .unwrap();
//! let doc = htmltok_tree::parse(b"<title>Hi</title><a href=/x>x</a><a href=/y>y</a>");
//! let columns = fields.extract(&doc);
//! assert_eq!(columns, [vec!["Hi"], vec!["/x", "/y"], vec![]]);
//! ```
//!
//! What each field gives is [`crate::Selector::values`]'s: `::text` the matched
//! elements' own text-node children (parsel's `::text`: `title::text` is the title's
//! text, `p::text` leaves out the text inside the paragraph's `<b>`), `::attr(name)` the
//! attribute's value, no pseudo-element the outer HTML. Values come in document order.
//! The walk keeps the ancestor Bloom filter (see `ancestors.rs`) when a field tests
//! ancestors.

use std::borrow::Cow;

use htmltok_tree::{Document, DocumentRef};
use selectors::context::SelectorCaches;

use crate::ancestors::Ancestors;
use crate::error::SelectError;
use crate::flat::Flat;
use crate::memo::WalkMemo;
use crate::scan::Nodes;
use crate::selector::Selector;
use crate::subject::{Subject, quirks};
use crate::topdown::{Plan, Walk};

/// One named selector.
#[derive(Clone, Debug)]
pub struct Field {
    /// The column's name.
    pub name: String,
    /// The compiled selector.
    pub selector: Selector,
}

/// Named selectors to extract together (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Fields {
    fields: Vec<Field>,
    /// The fields matched top-down (`topdown.rs`), in one plan: those whose selectors are
    /// all compounds joined by ` ` and `>`.
    pub(crate) plan: Option<Plan>,
    /// The other fields, matched right to left by `selectors`.
    by_name: ByName,
    /// When every field is flat (`flat.rs`: one compound of a type and conditions on the
    /// element, as the issue's ten are), all of them in flat form: matched without the
    /// top-down walk's state.
    pub(crate) flat: Option<Flat>,
}

/// Which fields may match an element, by the element's name, built from the fields'
/// subject type selectors (`Selector::names`): the walk looks an element's name up once
/// instead of asking every field, and most elements (`div`, `span`, `p`) are candidates
/// for none of the usual fields (see `PERFORMANCE.md`, "Selectors").
#[derive(Clone, Debug, Default)]
struct ByName {
    /// For HTML elements: a lowercased type name and the fields that may match it (with
    /// those of `any`), in field order.
    html: Vec<(Box<str>, Box<[usize]>)>,
    /// For SVG and MathML elements: the names as the selectors wrote them.
    foreign: Vec<(Box<str>, Box<[usize]>)>,
    /// The fields with a subject of any name (`.x`, `:is(a, b)`, `*`).
    any: Box<[usize]>,
}

impl ByName {
    /// The index of the fields for which `keep` holds.
    fn new(fields: &[Field], keep: impl Fn(usize) -> bool) -> ByName {
        let any: Vec<usize> = (0..fields.len())
            .filter(|&i| keep(i) && fields[i].selector.names.is_none())
            .collect();
        let index = |pick: fn(&crate::subject::TypeName) -> &str| {
            let mut names: Vec<&str> = fields
                .iter()
                .enumerate()
                .filter(|&(i, _)| keep(i))
                .flat_map(|(_, f)| f.selector.names.iter().flatten().map(pick))
                .collect();
            names.sort_unstable();
            names.dedup();
            names
                .into_iter()
                .map(|name| {
                    let list: Vec<usize> = (0..fields.len())
                        .filter(|&i| keep(i))
                        .filter(|&i| match &fields[i].selector.names {
                            None => true,
                            Some(ns) => ns.iter().any(|n| pick(n) == name),
                        })
                        .collect();
                    (name.into(), list.into())
                })
                .collect()
        };
        ByName {
            html: index(|(_, lower)| lower),
            foreign: index(|(written, _)| written),
            any: any.into(),
        }
    }

    /// True when no field is matched right to left.
    fn is_empty(&self) -> bool {
        self.html.is_empty() && self.foreign.is_empty() && self.any.is_empty()
    }

    /// The fields an element named `name` may match.
    fn candidates(&self, name: &str, html: bool) -> &[usize] {
        let table = if html { &self.html } else { &self.foreign };
        table
            .iter()
            .find(|(n, _)| **n == *name)
            .map_or(&self.any, |(_, list)| list)
    }
}

impl Fields {
    /// Compiles `(name, selector)` pairs. An error names the field; two fields may not
    /// share a name.
    pub fn new<N, S>(pairs: impl IntoIterator<Item = (N, S)>) -> Result<Fields, SelectError>
    where
        N: Into<String>,
        S: AsRef<str>,
    {
        let mut fields: Vec<Field> = Vec::new();
        for (name, css) in pairs {
            let name = name.into();
            let css = css.as_ref();
            if fields.iter().any(|f| f.name == name) {
                return Err(SelectError::new(
                    css,
                    0,
                    format!("field {name:?} given twice"),
                ));
            }
            let selector = Selector::parse(css).map_err(|mut e| {
                e.message = format!("in field {name:?}: {}", e.message);
                e
            })?;
            fields.push(Field { name, selector });
        }
        let planned = |i: usize| fields[i].selector.plan.is_some();
        let plan = Plan::new(
            (0..fields.len())
                .filter(|&i| planned(i))
                .map(|i| (i, &fields[i].selector.list)),
        )
        .filter(|p| !p.is_empty());
        let by_name = ByName::new(&fields, |i| plan.is_none() || !planned(i));
        let flat = Flat::new(
            fields
                .iter()
                .enumerate()
                .map(|(i, f)| (i, &f.selector.list, f.selector.pseudo.as_ref())),
        );
        Ok(Fields {
            fields,
            plan,
            by_name,
            flat,
        })
    }

    /// The fields in the order given.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// One column per field, in the fields' order: the strings each gives, in document
    /// order. One walk of the document tests every field on each element.
    pub fn extract(&self, doc: &Document<'_>) -> Vec<Vec<String>> {
        self.extract_view(doc.view())
    }

    /// [`Fields::extract`] on a document's view: for an [`htmltok_tree::OwnedDocument`]
    /// (`owned.view()`), or a document reached from a node (`node.document()`).
    pub fn extract_view(&self, doc: DocumentRef<'_>) -> Vec<Vec<String>> {
        let mut columns = vec![Vec::new(); self.fields.len()];
        self.extract_each(doc, |i, v| columns[i].push(v.into_owned()));
        columns
    }

    /// The values of every field, in one walk of the document, handed to `out` with the
    /// field's index as they are found: in document order, and for one element in the
    /// fields' order. The strings borrow from the document where decoding changed
    /// nothing (most values), so a caller that copies them elsewhere (Python's `str`s)
    /// copies each once.
    ///
    /// ```
    /// use htmltok_select::Fields;
    ///
    /// let fields = Fields::new([("title", "title::text"), ("links", "a[href]::attr(href)")])
    ///     .unwrap();
    /// let doc = htmltok_tree::parse(b"<title>Hi</title><a href=/x>x</a>");
    /// let mut found = Vec::new();
    /// fields.extract_each(doc.view(), |i, v| found.push((fields.fields()[i].name.as_str(), v)));
    /// assert_eq!(found, [("title", "Hi".into()), ("links", "/x".into())]);
    /// ```
    pub fn extract_each<'d>(&self, doc: DocumentRef<'d>, out: impl FnMut(usize, Cow<'d, str>)) {
        self.extract_each_by(doc, true, out);
    }

    /// [`Fields::extract_each`]; `scan`: the arena may be scanned instead of walked when
    /// every field is matched top down (`scan.rs`).
    pub(crate) fn extract_each_by<'d>(
        &self,
        doc: DocumentRef<'d>,
        scan: bool,
        mut out: impl FnMut(usize, Cow<'d, str>),
    ) {
        if self.fields.is_empty() {
            return;
        }
        if let Some(flat) = &self.flat {
            let quirks = quirks(doc);
            // The elements no field may match by name are passed by in the scan's loop.
            let mut nodes = Nodes::of_document(doc, scan);
            while let Some((node, name)) = nodes.find_element(|name| flat.wants(name)) {
                // A field's selectors are consecutive entries: give its values once.
                let mut last = usize::MAX;
                flat.matches_named(node, name, quirks, |i, taken| {
                    if i != last {
                        last = i;
                        // The attribute the entry's test found (`a[href]::attr(href)`),
                        // else the field's values looked up.
                        match taken {
                            Some(attr) => out(i, attr.value()),
                            None => self.fields[i].selector.values(node, |v| out(i, v)),
                        }
                    }
                    false
                });
            }
            return;
        }
        let mut caches = SelectorCaches::default();
        let memo = WalkMemo::default();
        let mut topdown = self
            .plan
            .as_ref()
            .map(|plan| Walk::new(plan, quirks(doc), None, &memo, &mut caches));
        let fallback = |i: &usize| topdown.is_none() || self.fields[*i].selector.plan.is_none();
        // The ancestor filter only when a field matched right to left tests ancestors
        // (`ancestors.rs`).
        let mut ancestors = (0..self.fields.len())
            .filter(fallback)
            .any(|i| self.fields[i].selector.uses_ancestors())
            .then(|| Ancestors::new(None));
        let right_to_left = !self.by_name.is_empty();
        // With every field top down (no ancestor filter either), only the elements in
        // document order are needed: scanned when the arena is in tree order. (A `for`
        // loop, the body in line: a closure called per element costs more.)
        let nodes = if right_to_left {
            Nodes::below(doc.root())
        } else {
            Nodes::of_document(doc, scan)
        };
        for node in nodes {
            if let Some(a) = &mut ancestors {
                a.enter(node);
            }
            if let Some(subject) = Subject::of(node) {
                if let Some(walk) = &mut topdown {
                    // A field's selectors lie on consecutive bits: give its values once.
                    let mut last = usize::MAX;
                    walk.matches(&subject, &memo, &mut caches, |i| {
                        if i != last {
                            last = i;
                            self.fields[i].selector.values(node, |v| out(i, v));
                        }
                    });
                    walk.push(node);
                }
                if right_to_left {
                    let filter = ancestors.as_ref().map(|a| a.filter());
                    for &i in self.by_name.candidates(subject.name(), subject.html) {
                        let field = &self.fields[i];
                        if field.selector.matches_subject(
                            &subject,
                            None,
                            filter,
                            Some(&memo),
                            &mut caches,
                        ) {
                            field.selector.values(node, |v| out(i, v));
                        }
                    }
                }
            }
            if let Some(a) = &mut ancestors {
                a.push(node);
            }
        }
    }
}
