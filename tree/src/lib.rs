//! Exact WHATWG HTML tree construction (HTML § 13.2.6, fragments § 13.4) on htmltok's
//! tokens, into a zero-copy arena DOM (text and names are spans of the input; only what
//! decoding changed is copied).
//!
//! ```
//! let html = b"<p class=x>Hello <b>world</p>";
//! let doc = htmltok_tree::parse(html);
//! let p = doc.root().descendants().find(|n| n.name() == Some("p")).unwrap();
//! assert_eq!(p.attr("class").as_deref(), Some("x"));
//! assert_eq!(p.text(), "Hello world");
//! assert_eq!(p.span(), htmltok::Span::new(0, 11)); // the start tag's bytes
//! assert_eq!(p.outer_html(), "<p class=\"x\">Hello <b>world</b></p>");
//! ```
//!
//! - [`parse`] and [`parse_fragment`], or [`Parser`] for the options (the scripting flag:
//!   off by default, so `<noscript>` content is parsed as markup).
//! - [`Document`]: the tree, borrowing its input; [`OwnedDocument`] (from [`parse_owned`] or
//!   [`Parser::parse_owned`]): the same tree owning its input (a `Vec<u8>`, an
//!   `Arc<[u8]>`, …), to keep or move without a borrow. Both hand out the same
//!   [`NodeRef`], a node handle with `children()`, `parent()`, `descendants()`, `name()`,
//!   `attr()`, `text()`, `span()`, `outer_html()`, `inner_html()`; [`DocumentRef`] is the
//!   view of either that a `NodeRef` carries.
//! - [`Document::to_test_format`]: the html5lib tree-construction test format.
//!
//! The tree builder follows the html5lib tree-construction tests (2026-06) where they are
//! newer than the 2021 text: the `search` element, the customizable `<select>` parsing
//! rules (no "in select" insertion modes; `selectedcontent` gets a copy of the selected
//! option). Declarative shadow roots (`<template shadowrootmode>`) are not attached: such
//! a template is an ordinary template. Parse errors are not reported.
//!
//! The input is taken as UTF-8, as the tokenizer takes it (invalid sequences decode to
//! U+FFFD; a leading byte order mark is skipped): decode other encodings first, with
//! `htmltok_crawl::encoding::decode`. Spans are byte offsets into the input.
//!
//! Nothing recurses: parsing, walking, serializing and dropping a million nested elements
//! take loops, not stack.

mod builder;
mod document;
mod dom;
mod formatting;
mod names;
mod node;
mod select;
mod serialize;
mod spare;
mod stack;

use std::borrow::Cow;

use htmltok::{State, Tokenizer};

pub use document::{Document, DocumentView, OwnedDocument};
pub use dom::{
    CommentData, DoctypeData, ElementData, Node, NodeData, NodeId, QuirksMode, TextData,
    strip_and_collapse_ascii_whitespace,
};
pub use htmltok::Span;
pub use names::{AttrNs, Name, Ns, Tag};
pub use node::{AttrRef, Children, Descendants, DocumentRef, Elements, NodeKind, NodeRef};

use builder::{Mode, Options, TagTok, TreeBuilder};
use dom::Dom;

/// Parses a document with the default options (scripting off).
pub fn parse(input: &[u8]) -> Document<'_> {
    Parser::new().parse(input)
}

/// Parses a document that owns its input (`Vec<u8>`, `Arc<[u8]>`, `String`, …), with the
/// default options: see [`Parser::parse_owned`].
pub fn parse_owned<I: AsRef<[u8]>>(input: I) -> OwnedDocument<I> {
    Parser::new().parse_owned(input)
}

/// Parses a fragment in the context of an element (13.4), with the default options. The
/// fragment's nodes are the children of [`Document::fragment_root`].
pub fn parse_fragment<'a>(input: &'a [u8], context: &FragmentContext) -> Document<'a> {
    Parser::new().parse_fragment(input, context)
}

/// The context element of a fragment parse: a namespace and a local name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentContext {
    /// The namespace.
    pub ns: Ns,
    /// The local name (`td`, `path`, `foreignObject`, `mi`).
    pub name: String,
}

impl FragmentContext {
    /// An HTML element context.
    pub fn html(name: &str) -> FragmentContext {
        FragmentContext {
            ns: Ns::Html,
            name: name.to_owned(),
        }
    }

    /// A context as the html5lib tests write it: `td`, `svg path`, `math mi`.
    pub fn from_test_string(s: &str) -> FragmentContext {
        let s = s.trim();
        if let Some(rest) = s.strip_prefix("svg ") {
            FragmentContext {
                ns: Ns::Svg,
                name: rest.to_owned(),
            }
        } else if let Some(rest) = s.strip_prefix("math ") {
            FragmentContext {
                ns: Ns::MathMl,
                name: rest.to_owned(),
            }
        } else {
            FragmentContext::html(s)
        }
    }
}

/// The parser's options: `Parser::new().scripting(true).parse(&bytes)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Parser {
    opts: Options,
}

impl Parser {
    /// The default options: scripting off.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// The scripting flag (13.2.4.5). Off (the default), `<noscript>` content is parsed
    /// as markup, as a browser with scripts disabled does; on, as raw text.
    pub fn scripting(mut self, on: bool) -> Parser {
        self.opts.scripting = on;
        self
    }

    /// For the differential test of the tokenizer's simulated tree construction against
    /// this crate's (`tree/tests/simulator.rs`) only: the tokenizer decides its state
    /// switches and CDATA sections by its own simulation instead of being told by the tree
    /// builder, so the tree shows where the simulation departs. [`Parser::parse`] and
    /// [`Parser::parse_owned`] only; off by default; not part of the API.
    #[doc(hidden)]
    pub fn simulated_feedback(mut self, on: bool) -> Parser {
        self.opts.simulated_feedback = on;
        self
    }

    /// Parses a document.
    pub fn parse<'a>(&self, input: &'a [u8]) -> Document<'a> {
        Document::new(input, self.build(input))
    }

    /// Parses a document that owns its input, so that it can be kept without a borrow
    /// (the same tree as [`Parser::parse`]: the arena names the input by spans).
    pub fn parse_owned<I: AsRef<[u8]>>(&self, input: I) -> OwnedDocument<I> {
        let dom = self.build(input.as_ref());
        OwnedDocument::new(input, dom)
    }

    /// Parses a document whose input is known to be UTF-8 (decoded text): the same tree
    /// as [`Parser::parse`] of its bytes, without validating the UTF-8 of each text that
    /// is not plain ASCII again.
    pub fn parse_str<'a>(&self, input: &'a str) -> Document<'a> {
        Document::new(input.as_bytes(), self.build_str(input))
    }

    /// [`Parser::parse_str`] for a document that owns its input: `text` is parsed, then
    /// `into_input` turns it into the input the document keeps (a `String` into an
    /// `Arc<String>`, a `Cow<str>` into bytes, …), which must hold the same bytes (the
    /// tree names them by span). For a caller with decoded text whose owner is not itself
    /// a `&str` (the same tree as [`Parser::parse_owned`] of those bytes).
    ///
    /// ```
    /// let text = String::from("<p>caf\u{e9}");
    /// let document = htmltok_tree::Parser::new().parse_str_owned(text, String::into_bytes);
    /// assert_eq!(document.to_test_format(), htmltok_tree::parse("<p>caf\u{e9}".as_bytes()).to_test_format());
    /// ```
    pub fn parse_str_owned<T: AsRef<str>, I: AsRef<[u8]>>(
        &self,
        text: T,
        into_input: impl FnOnce(T) -> I,
    ) -> OwnedDocument<I> {
        let len = text.as_ref().len();
        let dom = self.build_str(text.as_ref());
        let input = into_input(text);
        if input.as_ref().len() != len {
            // Not the same bytes: the tree of the bytes given, as `parse_owned` makes it.
            return self.parse_owned(input);
        }
        OwnedDocument::new(input, dom)
    }

    /// Parses a fragment in the context of an element (13.4).
    pub fn parse_fragment<'a>(&self, input: &'a [u8], context: &FragmentContext) -> Document<'a> {
        Document::new(input, self.build_fragment(input, context))
    }

    /// Parses a fragment that owns its input (see [`Parser::parse_owned`]).
    pub fn parse_fragment_owned<I: AsRef<[u8]>>(
        &self,
        input: I,
        context: &FragmentContext,
    ) -> OwnedDocument<I> {
        let dom = self.build_fragment(input.as_ref(), context);
        OwnedDocument::new(input, dom)
    }

    fn build(&self, input: &[u8]) -> Dom {
        let mut dom = if self.opts.simulated_feedback {
            let tokenizer = Tokenizer::builder()
                .scripting(self.opts.scripting)
                .build(input);
            TreeBuilder::new(input, self.opts).run_simulated(tokenizer)
        } else {
            let tokenizer = Tokenizer::builder().simulation(false).build(input);
            TreeBuilder::new(input, self.opts).run(tokenizer)
        };
        select::update_selectedcontent(&mut dom, input);
        dom
    }

    fn build_str(&self, input: &str) -> Dom {
        let bytes = input.as_bytes();
        let tokenizer = Tokenizer::builder().simulation(false).build(bytes);
        let mut builder = TreeBuilder::new(bytes, self.opts);
        builder.input_str = Some(input);
        let mut dom = builder.run(tokenizer);
        dom.input_is_str = true;
        select::update_selectedcontent(&mut dom, bytes);
        dom
    }

    fn build_fragment(&self, input: &[u8], context: &FragmentContext) -> Dom {
        let lower = context.name.to_ascii_lowercase();
        let tag = Tag::from_name(&lower);
        let state = if context.ns == Ns::Html {
            match tag {
                Tag::Title | Tag::Textarea => State::Rcdata,
                Tag::Style | Tag::Xmp | Tag::Iframe | Tag::Noembed | Tag::Noframes => {
                    State::Rawtext
                }
                Tag::Script => State::ScriptData,
                Tag::Noscript if self.opts.scripting => State::Rawtext,
                Tag::Plaintext => State::Plaintext,
                _ => State::Data,
            }
        } else {
            State::Data
        };
        let tokenizer = Tokenizer::builder()
            .simulation(false)
            .state(state)
            .build(input);
        let mut b = TreeBuilder::new(input, self.opts);
        // The context element: created, never inserted.
        let mut ctx_tok = TagTok::implied(tag, 0);
        ctx_tok.other_name = Cow::Owned(if context.ns == Ns::Html {
            lower.clone()
        } else {
            context.name.clone()
        });
        if context.ns != Ns::Html {
            // Keep the given case for foreign names (`foreignObject`), and intern by the
            // lowercase name.
            ctx_tok.tag = tag;
        }
        let ctx = b.create_element(&mut ctx_tok, context.ns);
        b.context = Some(ctx);
        b.open.count_context();
        let mut html_tok = TagTok::implied(Tag::Html, 0);
        let (root, name) = b.create_element(&mut html_tok, Ns::Html);
        b.doc.append(0, root);
        b.open.push(root, name);
        b.doc.fragment_root = Some(root);
        if ctx.1.is_html(Tag::Template) {
            b.template_modes.push(Mode::InTemplate);
        }
        b.reset_insertion_mode();
        let mut dom = b.run(tokenizer);
        select::update_selectedcontent(&mut dom, input);
        dom
    }
}

#[cfg(test)]
mod tests;
