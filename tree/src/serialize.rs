//! Serialization, iterative (an explicit stack, never recursion): the html5lib
//! tree-construction test format ([`Document::to_test_format`](crate::Document::to_test_format)) and 13.3's HTML fragment
//! serialization algorithm ([`NodeRef::outer_html`], [`NodeRef::inner_html`]).

use std::fmt::Write as _;

use crate::dom::{Dom, NONE, NodeData, NodeId};
use crate::names::{Ns, Tag};
use crate::node::DocumentRef;
use crate::node::NodeRef;

impl DocumentRef<'_> {
    /// The tree in the html5lib tree-construction test format: one line per node, `| `
    /// then two spaces per level, elements as `<name>` (`<svg name>`, `<math name>`),
    /// attributes sorted by name under their element, text in quotes, a template's
    /// contents under a `content` line. For a fragment parse, the fragment's nodes are
    /// the top level. No trailing newline.
    pub fn to_test_format(&self) -> String {
        let (dom, input) = (self.dom(), self.input());
        let mut out = String::new();
        let top = dom.fragment_root.unwrap_or(0);
        // (node, depth), in reverse order of output; a template's contents are pushed as
        // their fragment node, which prints as `content`.
        let mut stack: Vec<(NodeId, usize)> = Vec::new();
        push_children_reversed(dom, top, 0, &mut stack);
        while let Some((id, depth)) = stack.pop() {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str("| ");
            indent(&mut out, depth);
            let node = &dom.nodes[id as usize];
            match &node.data {
                NodeData::Document => {}
                NodeData::Fragment => out.push_str("content"),
                NodeData::Doctype(i) => {
                    let d = &dom.doctypes[*i as usize];
                    out.push_str("<!DOCTYPE ");
                    out.push_str(&d.name);
                    if !d.public_id.is_empty() || !d.system_id.is_empty() {
                        let _ = write!(out, " \"{}\" \"{}\"", d.public_id, d.system_id);
                    }
                    out.push('>');
                }
                NodeData::Comment(c) => {
                    let _ = write!(out, "<!-- {} -->", dom.str(input, c.data));
                }
                NodeData::Text(t) => {
                    let _ = write!(out, "\"{}\"", dom.text_of(input, id, t.text));
                }
                NodeData::Element(e) => {
                    out.push('<');
                    match e.name.ns {
                        Ns::Html => {}
                        Ns::Svg => out.push_str("svg "),
                        Ns::MathMl => out.push_str("math "),
                    }
                    out.push_str(dom.local_name(input, id));
                    out.push('>');
                    let mut attrs: Vec<(String, std::borrow::Cow<'_, str>)> = dom
                        .attrs_of(id)
                        .iter()
                        .map(|a| {
                            let local = dom.str(input, a.name);
                            let name = match a.ns.prefix() {
                                Some(p) => format!("{p} {local}"),
                                None => local.to_string(),
                            };
                            (name, a.value(input))
                        })
                        .collect();
                    attrs.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
                    for (name, value) in attrs {
                        out.push_str("\n| ");
                        indent(&mut out, depth + 1);
                        let _ = write!(out, "{name}=\"{value}\"");
                    }
                    if let Some(contents) = e.template_contents() {
                        push_children_reversed(dom, id, depth + 1, &mut stack);
                        stack.push((contents, depth + 1));
                        continue;
                    }
                }
            }
            if matches!(node.data, NodeData::Fragment | NodeData::Element(_)) {
                push_children_reversed(dom, id, depth + 1, &mut stack);
            }
        }
        out
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn push_children_reversed(doc: &Dom, id: NodeId, depth: usize, stack: &mut Vec<(NodeId, usize)>) {
    let mut child = doc.nodes[id as usize].last_child;
    while child != NONE {
        stack.push((child, depth));
        child = doc.nodes[child as usize].prev_sibling;
    }
}

/// The void elements of 13.3 (no end tag, no children serialized).
fn is_void(tag: Tag) -> bool {
    use Tag::*;
    matches!(
        tag,
        Area | Base
            | Basefont
            | Bgsound
            | Br
            | Col
            | Embed
            | Frame
            | Hr
            | Img
            | Input
            | Keygen
            | Link
            | Meta
            | Param
            | Source
            | Track
            | Wbr
    )
}

impl DocumentRef<'_> {
    /// 13.3: the whole document serialized (for a fragment parse: the fragment).
    pub fn outer_html(&self) -> String {
        let mut out = String::new();
        let top = self.dom().fragment_root.unwrap_or(0);
        serialize(self.dom(), self.input(), top, false, &mut out);
        out
    }
}

impl NodeRef<'_> {
    /// 13.3: the node's HTML serialization, itself included (`outerHTML`). Text inside
    /// `style`, `script`, `xmp`, `iframe`, `noembed`, `noframes` and `plaintext` is written
    /// as it is; `noscript` content is escaped (scripting is off by default).
    pub fn outer_html(&self) -> String {
        let mut out = String::new();
        let doc = self.document();
        serialize(doc.dom(), doc.input(), self.id(), true, &mut out);
        out
    }

    /// 13.3: the serialization of the node's children (`innerHTML`; a template's
    /// contents for a template).
    pub fn inner_html(&self) -> String {
        let mut out = String::new();
        let doc = self.document();
        serialize(doc.dom(), doc.input(), self.id(), false, &mut out);
        out
    }
}

enum Op {
    Open(NodeId),
    Close(NodeId),
}

fn serialize(doc: &Dom, input: &[u8], root: NodeId, include_root: bool, out: &mut String) {
    let mut ops = Vec::new();
    if include_root {
        ops.push(Op::Open(root));
    } else {
        push_child_ops(doc, content_of(doc, root), &mut ops);
    }
    while let Some(op) = ops.pop() {
        let id = match op {
            Op::Close(id) => {
                out.push_str("</");
                out.push_str(doc.local_name(input, id));
                out.push('>');
                continue;
            }
            Op::Open(id) => id,
        };
        match &doc.nodes[id as usize].data {
            NodeData::Document | NodeData::Fragment => push_child_ops(doc, id, &mut ops),
            NodeData::Doctype(i) => {
                out.push_str("<!DOCTYPE ");
                out.push_str(&doc.doctypes[*i as usize].name);
                out.push('>');
            }
            NodeData::Comment(c) => {
                out.push_str("<!--");
                out.push_str(doc.str(input, c.data));
                out.push_str("-->");
            }
            NodeData::Text(t) => {
                let parent = doc.nodes[id as usize].parent;
                let raw = parent != NONE
                    && matches!(&doc.nodes[parent as usize].data, NodeData::Element(e)
                        if e.name.ns == Ns::Html && matches!(e.name.tag,
                            Tag::Style | Tag::Script | Tag::Xmp | Tag::Iframe | Tag::Noembed
                                | Tag::Noframes | Tag::Plaintext));
                let text = doc.text_of(input, id, t.text);
                if raw {
                    out.push_str(text);
                } else {
                    escape(text, false, out);
                }
            }
            NodeData::Element(e) => {
                out.push('<');
                out.push_str(doc.local_name(input, id));
                for a in doc.attrs_of(id) {
                    let name = doc.str(input, a.name);
                    out.push(' ');
                    // 13.3 "attribute's serialized name": the prefix (`xml`, `xlink`,
                    // `xmlns` but for `xmlns` itself), a colon, the local name.
                    if let Some(prefix) = a.ns.qualified_prefix(name.as_bytes()) {
                        out.push_str(prefix);
                        out.push(':');
                    }
                    out.push_str(name);
                    out.push_str("=\"");
                    escape(&a.value(input), true, out);
                    out.push('"');
                }
                out.push('>');
                if e.name.ns == Ns::Html && is_void(e.name.tag) {
                    continue;
                }
                ops.push(Op::Close(id));
                push_child_ops(doc, content_of(doc, id), &mut ops);
            }
        }
    }
}

/// The node whose children an element's serialization holds: a template's contents, or
/// the element itself.
fn content_of(doc: &Dom, id: NodeId) -> NodeId {
    match &doc.nodes[id as usize].data {
        NodeData::Element(e) if e.name.is_html(Tag::Template) => {
            e.template_contents().unwrap_or(id)
        }
        _ => id,
    }
}

fn push_child_ops(doc: &Dom, id: NodeId, ops: &mut Vec<Op>) {
    let mut child = doc.nodes[id as usize].last_child;
    while child != NONE {
        ops.push(Op::Open(child));
        child = doc.nodes[child as usize].prev_sibling;
    }
}

/// 13.3 "escaping a string": `&`, U+00A0, and `"` (attribute mode) or `<`, `>` (text);
/// attribute values also escape `<` and `>` as the current standard does.
fn escape(s: &str, attribute: bool, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '\u{A0}' => out.push_str("&nbsp;"),
            '"' if attribute => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}
