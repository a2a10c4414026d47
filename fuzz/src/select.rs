//! Checks for the `select` fuzz target (htmltok-select): a selector taken from the input
//! (raw text, or built by a small grammar so that most inputs compile), parsed (an error
//! is fine, a panic is not) and, when it compiles, matched over the parsed input every way
//! the public API offers, the ways held to agree with each other.
//!
//! The input: byte 0 the options (bit 0 the grammar rather than raw text, bit 1 scripting
//! on, bits 2-3 the second field, bits 4-7 which elements to select below); byte 1 a
//! length `n`; the next `n` bytes the selector (raw: as text, lossily UTF-8; grammar: the
//! choices, see [`build_selector`]); the rest the HTML.

use std::fmt::Write as _;

use htmltok_select::{Fields, Select, Selector};
use htmltok_tree::{Document, NodeRef, Parser};

/// Above this many nodes, the checks that call `Selector::matches` on every node (with no
/// `:has` cache, so `:has(:has(...))` is a power of the tree's size) are skipped.
const MAX_NODES_FOR_RIGHT_TO_LEFT: usize = 600;

/// The second fields [`check_select`] extracts beside the selector (none for the first).
const SECOND_FIELDS: [Option<&str>; 4] = [
    None,
    Some("a[href]::attr(href)"),
    Some("p::text"),
    Some("*"),
];

/// What the input's header chooses.
#[derive(Debug)]
pub struct SelectInput<'a> {
    /// The selector text.
    pub css: String,
    /// The HTML.
    pub html: &'a [u8],
    /// The scripting flag of the parse.
    pub scripting: bool,
    /// The second field beside the selector (see [`SECOND_FIELDS`]).
    pub second: Option<&'static str>,
    /// Which elements to select below: a seed for picking them.
    pub below: u8,
}

impl SelectInput<'_> {
    /// Splits a fuzz input; None when it is too short to hold the header.
    pub fn from_bytes(data: &[u8]) -> Option<SelectInput<'_>> {
        let (&options, rest) = data.split_first()?;
        let (&len, rest) = rest.split_first()?;
        let len = usize::from(len).min(rest.len());
        let (selector, html) = rest.split_at(len);
        let css = if options & 1 == 1 {
            build_selector(selector)
        } else {
            String::from_utf8_lossy(selector).into_owned()
        };
        Some(SelectInput {
            css,
            html,
            scripting: options & 2 != 0,
            second: SECOND_FIELDS[usize::from((options >> 2) & 3)],
            below: options >> 4,
        })
    }
}

/// Bytes consumed one choice at a time; when they run out every choice is 0, which always
/// ends what is being built (so the grammar terminates).
struct Choices<'a>(std::slice::Iter<'a, u8>);

impl Choices<'_> {
    fn pick(&mut self, n: usize) -> usize {
        self.0.next().map_or(0, |&b| usize::from(b) % n)
    }
    fn from<'s>(&mut self, list: &[&'s str]) -> &'s str {
        list[self.pick(list.len())]
    }
    fn done(&self) -> bool {
        self.0.len() == 0
    }
}

#[rustfmt::skip]
const TYPES: &[&str] = &[
    "div", "p", "a", "span", "li", "ul", "*", "svg", "math", "td", "table", "template",
    "html", "body", "DIV", "foreignObject", "foreignobject", "title", "svg|a", "*|*",
    "html|p", "|p", "mi", "input", "option",
];
#[rustfmt::skip]
const ATTRS: &[&str] = &[
    "href", "class", "id", "lang", "title", "HREF", "xlink|href", "*|href", "type",
    "checked", "disabled", "data-x", "|id",
];
const OPS: &[&str] = &["", "=", "~=", "|=", "^=", "$=", "*="];
const VALUES: &[&str] = &["x", "\"\"", "\"a b\"", "X", "en", "\"/\"", "-", "\"\\0\""];
const FLAGS: &[&str] = &["", " i", " s", " I"];
#[rustfmt::skip]
const PSEUDO_CLASSES: &[&str] = &[
    ":first-child", ":last-child", ":only-child", ":first-of-type", ":last-of-type",
    ":only-of-type", ":empty", ":root", ":scope", ":link", ":any-link", ":checked",
    ":disabled", ":enabled", ":hover", ":nth-child(2n+1)", ":nth-last-child(-n+3)",
    ":nth-of-type(odd)", ":nth-last-of-type(even)", ":nth-child(0n+0)", ":lang(en)",
    ":lang(\"de\", \"*-CH\")", ":lang(\"\")", ":defined", ":read-only", ":placeholder-shown",
];
const COMBINATORS: &[&str] = &[" ", " > ", " + ", " ~ "];

/// How deeply the grammar nests `:is()`, `:not()`, `:has()`, `:nth-child(of)`.
const MAX_DEPTH: usize = 4;

/// A selector built from choice bytes: a list of complex selectors, each compounds joined
/// by combinators, a compound a type, ids, classes, attribute selectors, pseudo-classes and
/// the functional ones with nested lists; with `::text` or `::attr(x)` at the end for some.
pub fn build_selector(bytes: &[u8]) -> String {
    let mut c = Choices(bytes.iter());
    let mut out = String::new();
    list(&mut c, &mut out, 0, false);
    match c.pick(5) {
        3 => out += "::text",
        4 => out += "::attr(href)",
        _ => {}
    }
    out
}

fn list(c: &mut Choices<'_>, out: &mut String, depth: usize, relative: bool) {
    loop {
        complex(c, out, depth, relative);
        if c.done() || c.pick(4) != 0 {
            return;
        }
        out.push_str(", ");
    }
}

fn complex(c: &mut Choices<'_>, out: &mut String, depth: usize, relative: bool) {
    if relative {
        // A relative selector (in `:has`) may begin with a combinator.
        out.push_str(["", "> ", "+ ", "~ "][c.pick(4)]);
    }
    for i in 0..8 {
        if i > 0 {
            if c.done() || c.pick(3) == 0 {
                return;
            }
            out.push_str(c.from(COMBINATORS));
        }
        compound(c, out, depth);
    }
}

fn compound(c: &mut Choices<'_>, out: &mut String, depth: usize) {
    let parts = 1 + c.pick(3);
    for i in 0..parts {
        let kind = c.pick(if depth < MAX_DEPTH { 10 } else { 6 });
        // A type selector only comes first.
        let kind = if i > 0 && kind == 0 { 1 } else { kind };
        match kind {
            0 => out.push_str(c.from(TYPES)),
            1 => {
                let _ = write!(out, "#{}", c.from(&["a", "b", "x", "A"]));
            }
            2 => {
                let _ = write!(out, ".{}", c.from(&["x", "y", "X", "a"]));
            }
            3 => {
                let attr = c.from(ATTRS);
                let op = c.from(OPS);
                if op.is_empty() {
                    let _ = write!(out, "[{attr}]");
                } else {
                    let (value, flag) = (c.from(VALUES), c.from(FLAGS));
                    let _ = write!(out, "[{attr}{op}{value}{flag}]");
                }
            }
            4 | 5 => out.push_str(c.from(PSEUDO_CLASSES)),
            6..=9 => {
                let (name, relative) = [
                    (":is(", false),
                    (":where(", false),
                    (":not(", false),
                    (":has(", true),
                    (":nth-child(2n of ", false),
                    (":nth-last-child(1 of ", false),
                ][c.pick(6)];
                out.push_str(name);
                list(c, out, depth + 1, relative);
                out.push(')');
            }
            _ => unreachable!(),
        }
    }
}

/// Each node's position in document order (by node id), for nodes below the root; others
/// `usize::MAX`.
fn positions(doc: &Document<'_>) -> Vec<usize> {
    let mut pos = vec![usize::MAX; doc.node_count()];
    for (i, node) in doc.root().descendants().enumerate() {
        pos[node.id() as usize] = i;
    }
    pos
}

/// `found` are elements below `below` (or anywhere when None), in document order, without
/// duplicates.
fn check_matches(
    what: &str,
    found: &[NodeRef<'_>],
    below: Option<NodeRef<'_>>,
    pos: &[usize],
) -> Result<(), String> {
    for (i, node) in found.iter().enumerate() {
        if !node.is_element() {
            return Err(format!("{what}: match {i} is not an element: {node:?}"));
        }
        if pos[node.id() as usize] == usize::MAX {
            return Err(format!(
                "{what}: match {i} is not in the document: {node:?}"
            ));
        }
        if let Some(b) = below {
            let mut up = node.parent();
            while up.is_some_and(|a| a.id() != b.id()) {
                up = up.and_then(|a| a.parent());
            }
            if up.is_none() {
                return Err(format!("{what}: match {i} {node:?} is not below {b:?}"));
            }
        }
        if i > 0 && pos[found[i - 1].id() as usize] >= pos[node.id() as usize] {
            return Err(format!(
                "{what}: matches {} and {i} are out of document order or the same",
                i - 1
            ));
        }
    }
    Ok(())
}

/// The strings a selector gives for its matches, as `Fields` gives them for a field.
fn values_of(sel: &Selector, found: &[NodeRef<'_>]) -> Vec<String> {
    let mut out = Vec::new();
    for n in found {
        sel.values(*n, |v| out.push(v.into_owned()));
    }
    out
}

/// Everything the `select` target checks on one input.
pub fn check_select(input: &SelectInput<'_>) -> Result<(), String> {
    let css = &input.css;
    let sel = match Selector::parse(css) {
        Err(e) => {
            if e.offset > css.len() || e.message.is_empty() || e.selector != *css {
                return Err(format!("a malformed error for {css:?}: {e:?}"));
            }
            return Ok(());
        }
        Ok(sel) => sel,
    };
    if sel.source() != css {
        return Err(format!("source() {:?} is not {css:?}", sel.source()));
    }
    let doc = Parser::new().scripting(input.scripting).parse(input.html);
    let pos = positions(&doc);
    let small = doc.node_count() <= MAX_NODES_FOR_RIGHT_TO_LEFT;

    // The whole document.
    let found: Vec<_> = doc.select(&sel).collect();
    check_matches("select", &found, None, &pos)?;
    let first = doc.select_first(&sel);
    if first.map(|n| n.id()) != found.first().map(|n| n.id()) {
        return Err(format!("select_first {first:?} is not the first of select"));
    }
    // Right to left (`Selector::matches`: `selectors` alone, whatever plan `select` has).
    if small {
        let all: Vec<_> = doc
            .root()
            .descendants()
            .filter(|n| sel.matches(*n))
            .collect();
        if all != found {
            return Err(format!(
                "select gives {} matches, Selector::matches on each node {}",
                found.len(),
                all.len()
            ));
        }
    }

    // Below a few elements: the first, one chosen by the header, the last.
    let elements: Vec<_> = doc
        .root()
        .descendants()
        .filter(|n| n.is_element())
        .collect();
    if let (Some(&a), Some(&z)) = (elements.first(), elements.last()) {
        let mid = elements[usize::from(input.below) * elements.len() / 16];
        // Without `:scope` the scope changes nothing: the matches are the descendants
        // that match in the whole tree.
        let scoped = css.to_ascii_lowercase().contains("scope");
        for node in [a, mid, z] {
            let below: Vec<_> = node.select(&sel).collect();
            check_matches("node.select", &below, Some(node), &pos)?;
            let first = node.select_first(&sel);
            if first.map(|n| n.id()) != below.first().map(|n| n.id()) {
                return Err(format!(
                    "{node:?}.select_first {first:?} is not the first of its select"
                ));
            }
            if small && !scoped {
                let want: Vec<_> = node.descendants().filter(|n| sel.matches(*n)).collect();
                if want != below {
                    return Err(format!(
                        "{node:?}.select gives {} matches, Selector::matches on its \
                         descendants {}",
                        below.len(),
                        want.len()
                    ));
                }
            }
        }
    }

    // As fields: alone, and beside a second field; each column what select gives.
    let mut pairs = vec![("s", css.as_str())];
    pairs.extend(input.second.map(|s| ("t", s)));
    let fields = Fields::new(pairs).map_err(|e| format!("Fields::new: {e}"))?;
    let columns = fields.extract(&doc);
    if columns.len() != fields.len() {
        return Err(format!(
            "{} columns for {} fields",
            columns.len(),
            fields.len()
        ));
    }
    for (field, column) in fields.fields().iter().zip(&columns) {
        let matches: Vec<_> = doc.select(&field.selector).collect();
        let want = values_of(&field.selector, &matches);
        if *column != want {
            return Err(format!(
                "field {:?} ({:?}): extract gives {} strings, select {}",
                field.name,
                field.selector.source(),
                column.len(),
                want.len()
            ));
        }
    }
    Ok(())
}
