//! Checks for the `tree` fuzz target (htmltok-tree): the options chosen by the first byte,
//! the consistency of the arena's links, and serialize-then-re-parse where the standard
//! says the tree must come back.

use htmltok_tree::{Document, FragmentContext, NodeData, NodeId, NodeKind, NodeRef, Ns, Parser};

/// The fragment contexts the first byte chooses among; None is a document parse. The
/// ones marked `true` are round-trip contexts (see [`round_trip_context`]).
const CONTEXTS: &[(Option<&str>, bool)] = &[
    (None, true),
    (Some("body"), true),
    (Some("div"), true),
    (Some("span"), true),
    // RCDATA: the serializer escapes `&`, `<`, `>`, which RCDATA decodes again.
    (Some("title"), true),
    (Some("html"), false),
    (Some("td"), false),
    (Some("tr"), false),
    (Some("table"), false),
    (Some("select"), false),
    (Some("template"), false),
    // Raw text, script data and PLAINTEXT contexts: the fragment's text is serialized as
    // the children of the fragment's `html` root, so escaped, and these states never
    // decode character references: no round trip.
    (Some("script"), false),
    (Some("style"), false),
    (Some("plaintext"), false),
    (Some("noscript"), false),
    (Some("frameset"), false),
    (Some("head"), false),
    (Some("svg path"), false),
    (Some("svg foreignObject"), false),
    (Some("math mi"), false),
    (Some("math annotation-xml"), false),
];

/// What the first byte chooses: bit 0 the scripting flag, the other bits (modulo the
/// list) the context: 0 (so a first byte of 0x00) is a document parse, scripting off.
#[derive(Clone, Debug)]
pub struct TreeOptions {
    /// The scripting flag.
    pub scripting: bool,
    /// The fragment context, as the html5lib tests write it; None for a document.
    pub context: Option<&'static str>,
    /// Whether serializing and re-parsing in this context must give the same tree.
    round_trip: bool,
}

impl TreeOptions {
    /// The options of a first byte.
    pub fn from_byte(b: u8) -> TreeOptions {
        let (context, round_trip) = CONTEXTS[usize::from(b >> 1) % CONTEXTS.len()];
        TreeOptions {
            scripting: b & 1 == 1,
            context,
            round_trip,
        }
    }

    /// Parses `input` with these options.
    pub fn parse<'a>(&self, input: &'a [u8]) -> Document<'a> {
        let parser = Parser::new().scripting(self.scripting);
        match self.context {
            Some(ctx) => parser.parse_fragment(input, &FragmentContext::from_test_string(ctx)),
            None => parser.parse(input),
        }
    }
}

/// Everything the `tree` target checks on one input: the parse (no panic), the links,
/// and the round trip where it must hold.
pub fn check_tree(input: &[u8], options: &TreeOptions) -> Result<(), String> {
    let doc = options.parse(input);
    check_links(&doc)?;
    let test_format = doc.to_test_format();
    let html = doc.outer_html();
    if !options.round_trip {
        return Ok(());
    }
    // A serialization beginning with U+FEFF (a fragment's text that began with a second
    // byte order mark) loses it on re-parse: the tokenizer skips a leading BOM.
    if no_round_trip(&doc).is_some() || html.starts_with('\u{feff}') {
        return Ok(());
    }
    let again = options.parse(html.as_bytes());
    check_links(&again)?;
    let again_format = again.to_test_format();
    if again_format != test_format {
        return Err(format!(
            "serialize then re-parse changed the tree (scripting {}, context {:?})\n\
             input: {:?}\nserialized: {:?}\nfirst tree:\n{test_format}\nre-parsed tree:\n{again_format}",
            options.scripting,
            options.context,
            String::from_utf8_lossy(input),
            html,
        ));
    }
    // The serialization of the re-parsed tree is a fixed point.
    let html_again = again.outer_html();
    if html_again != html {
        return Err(format!(
            "the serialization is not a fixed point\ninput: {:?}\nfirst: {html:?}\nsecond: {html_again:?}",
            String::from_utf8_lossy(input)
        ));
    }
    Ok(())
}

/// Checks every link of the arena:
/// - each node's children chain: every child names the node as its parent, each child's
///   previous sibling is the child before it, the last child is the last of the chain;
/// - counts: the number of children in each chain is the number of nodes naming that
///   node as their parent (so no node names a parent that does not list it);
/// - a node without a parent has no siblings;
/// - no cycles: a walk down from every parentless node (the document, template
///   contents, nodes the parser created and never inserted) meets each node exactly once.
pub fn check_links(doc: &Document<'_>) -> Result<(), String> {
    let n = doc.node_count();
    if n == 0 || doc.root().kind() != NodeKind::Document || doc.root().parent().is_some() {
        return Err("node 0 is not a parentless document node".into());
    }
    let mut named_as_parent = vec![0usize; n];
    for id in 0..n {
        let node = doc.node(id as NodeId);
        match node.parent() {
            Some(p) => named_as_parent[p.id() as usize] += 1,
            None => {
                if node.prev_sibling().is_some() || node.next_sibling().is_some() {
                    return Err(format!("{node:?} has no parent but has siblings"));
                }
            }
        }
    }
    for id in 0..n {
        let node = doc.node(id as NodeId);
        let mut prev: Option<NodeRef<'_>> = None;
        let mut count = 0usize;
        let mut child = node.first_child();
        while let Some(c) = child {
            count += 1;
            if count > n {
                return Err(format!("the children of {node:?} loop"));
            }
            if c.parent() != Some(node) {
                return Err(format!(
                    "{c:?}, a child of {node:?}, names {:?} as its parent",
                    c.parent()
                ));
            }
            if c.prev_sibling() != prev {
                return Err(format!(
                    "{c:?}: previous sibling {:?}, expected {prev:?}",
                    c.prev_sibling()
                ));
            }
            prev = Some(c);
            child = c.next_sibling();
        }
        if node.last_child() != prev {
            return Err(format!(
                "{node:?}: last child {:?}, expected {prev:?}",
                node.last_child()
            ));
        }
        if count != named_as_parent[id] {
            return Err(format!(
                "{node:?} has {count} children, but {} nodes name it as their parent",
                named_as_parent[id]
            ));
        }
        if count > 0
            && !matches!(
                node.data(),
                NodeData::Document | NodeData::Fragment | NodeData::Element(_)
            )
        {
            return Err(format!("{node:?} cannot have children"));
        }
        if let Some(contents) = node.template_contents() {
            if contents.kind() != NodeKind::Fragment || contents.parent().is_some() {
                return Err(format!(
                    "{node:?}: its contents are not a parentless fragment"
                ));
            }
        }
    }
    let mut seen = vec![false; n];
    for id in 0..n {
        let root = doc.node(id as NodeId);
        if root.parent().is_some() {
            continue;
        }
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            let i = node.id() as usize;
            if seen[i] {
                return Err(format!("{node:?} is reached twice"));
            }
            seen[i] = true;
            stack.extend(node.children());
        }
    }
    if let Some(id) = seen.iter().position(|s| !s) {
        return Err(format!("node {id} is on a parent cycle"));
    }
    // The iterators agree with the links.
    let reached = doc.root().descendants().count();
    let mut below_root = 0usize;
    let mut stack: Vec<NodeRef<'_>> = doc.root().children().collect();
    while let Some(node) = stack.pop() {
        below_root += 1;
        stack.extend(node.children());
    }
    if reached != below_root {
        return Err(format!(
            "descendants() of the document gives {reached} nodes, the links {below_root}"
        ));
    }
    Ok(())
}

/// Why serializing `doc` and re-parsing it need not give the same tree (None: it must).
/// Conservative: every shape below is excluded whether or not this input hits the case.
///
/// - Foreign content (any SVG or MathML element): the serializer writes foreign elements
///   as HTML (no self-closing `/>`, raw-text rules of HTML), which does not come back.
/// - Table elements (`table`, `caption`, `colgroup`, `col`, `tbody`, `thead`, `tfoot`,
///   `tr`, `td`, `th`): foster parenting moves nodes before the table and the table text
///   rules do not apply on re-parse the same way; the quirks mode (which a DOCTYPE's
///   identifiers decide, and the serializer drops) changes `<p><table>`.
/// - `noscript`: its content is parsed as markup with scripting off and as raw text with
///   scripting on, while the serializer escapes it either way.
/// - `template`: its contents hang off a separate fragment; `<template>` in `<head>`,
///   tables and the template insertion modes do not re-create every shape.
/// - `plaintext`: everything after it is its text, written raw, so anything the tree
///   builder put after it in tree order (an element closed by adoption, a comment after
///   `</html>`) is swallowed on re-parse.
/// - `form`: the form element pointer makes nested forms (through tables or templates)
///   impossible to re-create, and `</form>` can close a form that is not the current node.
/// - `select`, `option`, `optgroup`, `selectedcontent`: the select parsing rules and the
///   copy of the selected option into `selectedcontent` (made again on re-parse).
/// - `pre`, `textarea`, `listing` whose first child is text beginning with a line feed:
///   the parser drops a line feed right after the start tag, and 13.3 no longer writes one
///   back.
/// - A `script` whose text holds `<!--`: the script data escaped states (`<!--<script>`
///   enters the double-escaped state, where `</script>` does not end the script), so a
///   script the end of the input closed takes the serializer's `</script>` as its text.
/// - A carriage return in text or an attribute value (only `&#13;` makes one): 13.3 writes
///   it as it is, and the input stream's preprocessing turns it into a line feed.
/// - Two text nodes side by side (foster parenting and the adoption agency can leave
///   them): serialized they become one text node.
/// - A DOCTYPE with a public or system identifier: the serializer writes only its name.
pub fn no_round_trip(doc: &Document<'_>) -> Option<&'static str> {
    let mut stack: Vec<NodeRef<'_>> = vec![doc.root()];
    while let Some(node) = stack.pop() {
        match node.data() {
            NodeData::Doctype(_)
                if node
                    .doctype()
                    .is_some_and(|d| !d.public_id.is_empty() || !d.system_id.is_empty()) =>
            {
                return Some("a DOCTYPE with identifiers");
            }
            NodeData::Text(_) => {
                if node.text().contains('\r') {
                    return Some("a carriage return in text");
                }
                if node
                    .next_sibling()
                    .is_some_and(|s| s.kind() == NodeKind::Text)
                {
                    return Some("adjacent text nodes");
                }
            }
            NodeData::Element(_) => {
                if node.namespace() != Some(Ns::Html) {
                    return Some("foreign content");
                }
                if node.attrs().any(|a| a.value().contains('\r')) {
                    return Some("a carriage return in an attribute value");
                }
                let name = node.name().unwrap_or("");
                match name {
                    "table" | "caption" | "colgroup" | "col" | "tbody" | "thead" | "tfoot"
                    | "tr" | "td" | "th" => return Some("a table"),
                    "noscript" => return Some("noscript"),
                    "template" => return Some("a template"),
                    "plaintext" => return Some("plaintext"),
                    "form" => return Some("a form"),
                    "select" | "option" | "optgroup" | "selectedcontent" => {
                        return Some("a select");
                    }
                    "script" if node.text().contains("<!--") => {
                        return Some("a script with escaped text");
                    }
                    "pre" | "textarea" | "listing" => {
                        if node.first_child().is_some_and(|c| {
                            c.kind() == NodeKind::Text && c.text().starts_with('\n')
                        }) {
                            return Some("a leading line feed in pre, textarea or listing");
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        stack.extend(node.children());
        if let Some(contents) = node.template_contents() {
            stack.push(contents);
        }
    }
    None
}
