//! Markdown (GitHub-flavoured) from the tree: the page's visible content with its
//! structure kept, for the whole page ([`markdown`]) or its main content
//! ([`crate::main_text::markdown`]).
//!
//! What is shown follows the visible text ([`crate::visible`]): what the user agent
//! style sheet never renders, hidden elements and a closed `details` but its summary are
//! left out. How it is written:
//!
//! - **Blocks**: headings `h1`–`h6` as ATX headings of their level, on one line;
//!   paragraphs and other blocks set apart by a blank line; block quotes with `> `;
//!   lists, nested, with `- ` or their numbers (`start`, `reversed`, an item's
//!   `value`); `<hr>` as `---`; `<br>` as a hard line break (a backslash at the line's
//!   end).
//! - **Code**: `pre` (and `listing`, `xmp`, `plaintext`) as a fenced code block whose
//!   text is the element's exactly (line breaks for `<br>` and blocks inside), fenced
//!   by more backticks than any run inside it, with the language a `language-…` or
//!   `lang-…` class of the `pre` or its `code` names; `code`, `kbd`, `samp` and `tt`
//!   as code spans.
//! - **Inline**: `em`/`i` as `*…*`, `strong`/`b` as `**…**`, `del`/`s`/`strike` as
//!   `~~…~~`; links as `[text](url)` and images as `![alt](src)`, their URLs resolved
//!   against the document base URL (each can be turned off: [`Options`]). A span a
//!   block interrupts (a heading inside a link) keeps its text without its markers.
//! - **Tables**: GFM tables for the tables that are tables (see `table`), spans
//!   written out cell by cell; other tables as their text.
//! - **Math**: as TeX where the page has it (`$…$`, `$$…$$` for display math): a
//!   MathML `annotation` of `application/x-tex`, a `<script type="math/tex">`
//!   (MathJax 2), an image whose class names math and whose `alt` holds the TeX
//!   (Wikipedia's fallback images); else MathML's text.
//! - **Escaping**: a character in text is escaped only where it would begin Markdown
//!   syntax (see `escape`).
//!
//! One walk of the tree ([`crate::visible`]'s, iterative): a million nested elements
//! take no stack, and each node is read a bounded number of times.

mod escape;
mod table;
mod writer;

use htmltok_tree::{DocumentRef, Name, NodeRef, Ns, Tag};
use url::Url;

use crate::Tree;
use crate::visible::{self, Layout, Sink, element_layout};
use table::Table;
use writer::Markdown;

/// What [`markdown`] writes beyond the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Links as `[text](url)` (else their text). On by default.
    pub links: bool,
    /// Images as `![alt](src)` (else nothing). On by default.
    pub images: bool,
    /// Include the content of `noscript` elements (see
    /// [`crate::visible::Options::noscript`]). Off by default.
    pub noscript: bool,
    /// The document's URL, which relative links and image sources resolve against
    /// (with the document's `<base href>`); without it, they resolve against an
    /// absolute `<base href>`, else are written as the page has them.
    pub url: Option<Url>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            links: true,
            images: true,
            noscript: false,
            url: None,
        }
    }
}

/// The page's visible content as GitHub-flavoured Markdown (see the module's doc).
///
/// ```
/// let doc = htmltok_tree::parse(
///     b"<h2>Setup</h2><p>Run <code>make</code>, then <a href=/docs>read</a>:</p>\
///       <ul><li>one<li>two</ul><pre class=language-sh>make test\n</pre>\
///       <table><tr><th>a<th>b<tr><td>1<td>2</table>",
/// );
/// let md = htmltok_content::markdown::markdown(&doc, &Default::default());
/// assert_eq!(
///     md,
///     "## Setup\n\nRun `make`, then [read](/docs):\n\n- one\n- two\n\n\
///      ```sh\nmake test\n```\n\n| a | b |\n| --- | --- |\n| 1 | 2 |"
/// );
/// ```
pub fn markdown<D: Tree + ?Sized>(doc: &D, options: &Options) -> String {
    let view = doc.view();
    let mut w = Writer::new(&view, options, options.noscript);
    // A page's Markdown is about a fifth of its HTML: reserved once, not grown by
    // doubling.
    w.md.out.reserve(view.input().len() / 4);
    visible::render_document(&view, &mut w);
    visible::Sink::finish(w)
}

/// Plain text written as Markdown paragraphs (text that is not from the tree: the
/// main content structured data holds): its blank lines kept, each line escaped.
pub(crate) fn paragraphs(text: &str) -> String {
    let mut md = Markdown::default();
    for (i, paragraph) in text.split("\n\n").enumerate() {
        if i > 0 {
            md.line_break(2);
        }
        for (j, line) in paragraph.lines().enumerate() {
            if j > 0 {
                md.hard_break();
            }
            md.text(line.as_bytes());
        }
    }
    md.finish()
}

/// A list being written: ordered or not, and the number of its next item.
struct List {
    ordered: bool,
    next: i64,
    step: i64,
}

/// What is collected, not written, while inside an element: a `pre`'s text, a code
/// span's, or a MathML element's.
enum Collect {
    /// A `pre`: its text, exactly, with the language of its fence.
    Pre { info: String },
    /// A code span.
    Code,
    /// A `math` element (or a `script` of TeX): its TeX annotation, and its other
    /// text for when it has none; `tex_depth` is above 0 inside the annotation,
    /// `other_depth` inside another one.
    Math {
        display: bool,
        tex: Vec<u8>,
        tex_depth: u32,
        other_depth: u32,
    },
}

/// The Markdown writer [`crate::visible::render`] lays elements out into.
pub(crate) struct Writer {
    md: Markdown,
    options: Options,
    noscript: bool,
    /// The document base URL, which links and images resolve against.
    base: Option<Url>,
    lists: Vec<List>,
    table: Option<Table>,
    /// What the innermost collecting element collects, and how deep inside it (an
    /// element of the same kind inside adds one).
    collect: Option<(Collect, u32)>,
    collected: Vec<u8>,
}

impl Writer {
    /// A writer for `doc`: `noscript`, whether `noscript` content is laid out.
    pub(crate) fn new(doc: &DocumentRef<'_>, options: &Options, noscript: bool) -> Writer {
        let base = crate::base::document_base_url(doc.base_href().as_deref(), options.url.as_ref());
        Writer {
            md: Markdown::default(),
            options: options.clone(),
            noscript,
            base,
            lists: Vec::new(),
            table: None,
            collect: None,
            collected: Vec::new(),
        }
    }

    /// A URL attribute resolved against the base URL (as written when there is none or
    /// it does not resolve); None for `javascript:` and empty ones.
    fn url<'a>(&self, raw: &'a str) -> Option<std::borrow::Cow<'a, str>> {
        let raw = raw.trim_matches(|c: char| c.is_ascii_whitespace());
        if raw.is_empty()
            || raw
                .get(..11)
                .is_some_and(|s| s.eq_ignore_ascii_case("javascript:"))
        {
            return None;
        }
        // Without a base URL, a URL is written as the page has it (parsing an absolute
        // one would only normalize it).
        let Some(base) = &self.base else {
            return Some(raw.into());
        };
        Some(crate::base::resolve(raw, Some(base)).map_or(raw.into(), Into::into))
    }

    /// Enters an element inside a collecting one: only line structure counts.
    fn enter_collecting(&mut self, node: &NodeRef<'_>, name: Name) -> Option<Open> {
        let layout = element_layout(name, self.noscript);
        let Some((collect, depth)) = &mut self.collect else {
            return None;
        };
        match collect {
            Collect::Pre { .. } => match layout {
                Layout::None => None,
                Layout::Break => {
                    self.collected.push(b'\n');
                    None
                }
                Layout::Block | Layout::Paragraph | Layout::Row => {
                    end_line(&mut self.collected);
                    Some(Open::CollectedBlock)
                }
                _ => {
                    if name.is_html(Tag::Pre) {
                        *depth += 1;
                        return Some(Open::Collecting);
                    }
                    Some(Open::Inline)
                }
            },
            Collect::Code => match layout {
                Layout::None => None,
                Layout::Inline if is_code(name) => {
                    *depth += 1;
                    Some(Open::Collecting)
                }
                Layout::Inline => Some(Open::Inline),
                _ => {
                    self.collected.push(b' ');
                    Some(Open::CollectedBlock)
                }
            },
            Collect::Math {
                tex_depth,
                other_depth,
                ..
            } => {
                if layout == Layout::None {
                    return None;
                }
                if name.ns == Ns::MathMl && node.name() == Some("annotation") {
                    let tex = node.attr("encoding").is_some_and(|e| {
                        let e = e.trim();
                        e.eq_ignore_ascii_case("application/x-tex") || e.eq_ignore_ascii_case("tex")
                    });
                    if tex {
                        *tex_depth += 1;
                        return Some(Open::Annotation { tex: true });
                    }
                    *other_depth += 1;
                    return Some(Open::Annotation { tex: false });
                }
                if name.ns == Ns::MathMl && name.tag == Tag::AnnotationXml {
                    *other_depth += 1;
                    return Some(Open::Annotation { tex: false });
                }
                Some(Open::Inline)
            }
        }
    }

    /// Starts collecting for `what`.
    fn collect(&mut self, what: Collect) -> Option<Open> {
        self.collected.clear();
        self.collect = Some((what, 1));
        Some(Open::Collecting)
    }

    /// A collecting element ends: what it collected written.
    fn write_collected(&mut self) {
        let Some((_, depth)) = &mut self.collect else {
            return;
        };
        *depth -= 1;
        if *depth > 0 {
            return;
        }
        let Some((what, _)) = self.collect.take() else {
            return;
        };
        let collected = std::mem::take(&mut self.collected);
        match what {
            Collect::Pre { info } => self.code_block(&collected, &info),
            Collect::Code => self.code_span(&collected),
            Collect::Math { display, tex, .. } => {
                let tex = String::from_utf8_lossy(&tex);
                let tex = tex.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
                if tex.is_empty() {
                    self.md.text(&collected);
                } else {
                    self.math(&tex, display);
                }
            }
        }
        self.collected = collected;
        self.collected.clear();
    }

    /// A fenced code block of `text` (a heading's or a cell's text inline instead).
    fn code_block(&mut self, text: &[u8], info: &str) {
        if text.is_empty() {
            return;
        }
        if self.md.on_one_line() {
            self.md.text(text);
            return;
        }
        let fence = "`".repeat(longest_run(text, b'`').max(2) + 1);
        let text = text.strip_suffix(b"\n").unwrap_or(text);
        let opening = format!("{fence}{info}");
        let lines = std::iter::once(opening.as_bytes())
            .chain(text.split(|&b| b == b'\n'))
            .chain(std::iter::once(fence.as_bytes()));
        self.md.block(lines);
    }

    /// A code span of `text` (whitespace collapsed, as inline text is).
    fn code_span(&mut self, text: &[u8]) {
        let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C');
        if text.first().is_some_and(space) {
            self.md.space();
        }
        if let (Some(start), Some(last)) = (
            text.iter().position(|b| !space(b)),
            text.iter().rposition(|b| !space(b)),
        ) {
            let code = &text[start..=last];
            let fence = longest_run(code, b'`') + 1;
            let pad = code.first() == Some(&b'`') || code.last() == Some(&b'`');
            self.md.raw_with(b'`', |out| {
                out.extend(std::iter::repeat_n(b'`', fence));
                if pad {
                    out.push(b' ');
                }
                let mut after_space = false;
                for b in code {
                    if space(b) {
                        if !after_space {
                            out.push(b' ');
                        }
                        after_space = true;
                    } else {
                        out.push(*b);
                        after_space = false;
                    }
                }
                if pad {
                    out.push(b' ');
                }
                out.extend(std::iter::repeat_n(b'`', fence));
            });
        }
        if text.last().is_some_and(space) {
            self.md.space();
        }
    }

    /// TeX: inline `$…$`, or display `$$…$$` as its own block.
    fn math(&mut self, tex: &str, display: bool) {
        if display && !self.md.on_one_line() {
            self.md.line_break(2);
            self.md.raw(format!("$${tex}$$").as_bytes());
            self.md.line_break(2);
        } else {
            self.md.raw(format!("${tex}$").as_bytes());
        }
    }

    /// An image: `![alt](src)`, or TeX for an image of math with its TeX as `alt`.
    fn image(&mut self, node: &NodeRef<'_>) {
        let alt = node.attr("alt").unwrap_or_default();
        let math = node
            .attr("class")
            .is_some_and(|c| c.split_ascii_whitespace().any(|w| w.contains("math")));
        if math && !alt.trim().is_empty() {
            let tex = alt.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
            let display = node
                .attr("class")
                .is_some_and(|c| c.contains("display") || c.contains("block"));
            self.math(&tex, display);
            return;
        }
        if !self.options.images {
            return;
        }
        // A `data:` placeholder stands for the image a script loads from `data-src`.
        let src = node
            .attr("src")
            .filter(|s| !s.trim_start().starts_with("data:"))
            .or_else(|| node.attr("data-src"));
        let Some(src) = src.as_deref().and_then(|s| self.url(s)) else {
            return;
        };
        self.md.raw_with(b'!', |out| {
            out.extend_from_slice(b"![");
            escape::push_alt(out, &alt);
            out.extend_from_slice(b"](");
            escape::push_destination(out, &src);
            out.push(b')');
        });
    }

    /// Enters a list (`ol` when `ordered`).
    fn enter_list(&mut self, node: &NodeRef<'_>, ordered: bool) -> Open {
        let nested = self.md.in_item();
        self.md.line_break(if nested { 1 } else { 2 });
        let number = |name: &str| node.attr(name).and_then(|v| v.trim().parse::<i64>().ok());
        let reversed = ordered && node.attr("reversed").is_some();
        let start = number("start").unwrap_or_else(|| {
            if reversed {
                node.children()
                    .filter(|c| c.element_name().is_some_and(|n| n.is_html(Tag::Li)))
                    .count() as i64
            } else {
                1
            }
        });
        self.lists.push(List {
            ordered,
            next: start,
            step: if reversed { -1 } else { 1 },
        });
        Open::List { nested }
    }

    /// Enters a list item: its marker.
    fn enter_item(&mut self, node: &NodeRef<'_>) -> Open {
        self.md.line_break(1);
        let marker = match self.lists.last_mut() {
            Some(list) if list.ordered => {
                let n = node
                    .attr("value")
                    .and_then(|v| v.trim().parse::<i64>().ok())
                    .unwrap_or(list.next);
                list.next = n.saturating_add(list.step);
                format!("{}. ", n.clamp(0, 999_999_999)).into_bytes()
            }
            _ => b"- ".to_vec(),
        };
        self.md.push_container(false, marker);
        Open::Item
    }

    /// Enters an element of a GFM table being written (a row, a cell, a caption).
    fn enter_table_part(&mut self, node: &NodeRef<'_>, tag: Tag) -> Option<Open> {
        let position = self.md.position();
        let table = self.table.as_mut()?;
        match tag {
            Tag::Tr => {
                table.row();
                Some(Open::Row)
            }
            Tag::Td | Tag::Th if table.cell_start.is_none() => {
                table.begin_cell(node, position);
                self.md.begin_cell();
                Some(Open::Cell)
            }
            Tag::Caption => {
                // A caption is written before the table, as blocks (it may hold
                // headings).
                self.md.inline_only -= 1;
                self.md.line_break(2);
                Some(Open::Caption)
            }
            _ => None,
        }
    }

    fn leave_cell(&mut self) {
        let Some((start, colspan, rowspan)) = self.table.as_mut().and_then(|t| t.cell_start.take())
        else {
            return;
        };
        let text = self.md.take_from(start);
        if let Some(table) = &mut self.table {
            table.end_cell(text, colspan, rowspan);
        }
    }

    fn leave_table(&mut self) {
        let Some(table) = self.table.take() else {
            return;
        };
        self.md.inline_only -= 1;
        let lines = table.lines();
        if !lines.is_empty() {
            self.md.block(lines.iter().map(Vec::as_slice));
        }
    }
}

/// Ends the line of collected text (for a block inside a `pre`), unless it is ended.
fn end_line(text: &mut Vec<u8>) {
    if text.last().is_some_and(|&b| b != b'\n') {
        text.push(b'\n');
    }
}

/// The longest run of `byte` in `text`.
fn longest_run(text: &[u8], byte: u8) -> usize {
    let (mut longest, mut run) = (0, 0);
    for &b in text {
        run = if b == byte { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// Whether an element is written as a code span.
fn is_code(name: Name) -> bool {
    name.ns == Ns::Html && matches!(name.tag, Tag::Code | Tag::Kbd | Tag::Samp | Tag::Tt)
}

/// The language a code block names: a `language-…` or `lang-…` class of the `pre` or
/// of its first element child (a `code`).
fn code_language(pre: &NodeRef<'_>) -> String {
    let of = |node: &NodeRef<'_>| -> Option<String> {
        let class = node.attr("class")?;
        class.split_ascii_whitespace().find_map(|word| {
            let lang = word
                .strip_prefix("language-")
                .or_else(|| word.strip_prefix("lang-"))?;
            let lang: String = lang.chars().filter(|&c| c != '`' && c != '~').collect();
            (!lang.is_empty()).then_some(lang)
        })
    };
    of(pre)
        .or_else(|| {
            pre.children()
                .find(NodeRef::is_element)
                .and_then(|c| of(&c))
        })
        .unwrap_or_default()
}

/// What leaving an element writes.
#[derive(Clone, Copy)]
pub(crate) enum Open {
    /// Nothing.
    Inline,
    /// A block's closing break.
    Block(u8),
    Heading,
    Quote,
    List {
        nested: bool,
    },
    Item,
    Span,
    /// A collecting element (`pre`, code, math) or one of its kind inside it.
    Collecting,
    /// A block inside a collecting element: the collected line ends.
    CollectedBlock,
    Annotation {
        tex: bool,
    },
    Table,
    Row,
    Cell,
    Caption,
}

impl Sink for Writer {
    type Open = Open;

    fn enter(&mut self, node: &NodeRef<'_>, name: Name) -> Option<Open> {
        if self.collect.is_some() {
            return self.enter_collecting(node, name);
        }
        if name.ns == Ns::MathMl && name.tag == Tag::Math {
            let display = node
                .attr("display")
                .is_some_and(|d| d.trim().eq_ignore_ascii_case("block"));
            return self.collect(Collect::Math {
                display,
                tex: Vec::new(),
                tex_depth: 0,
                other_depth: 0,
            });
        }
        if name.is_html(Tag::Script) {
            // MathJax 2's TeX: `<script type="math/tex">` (`; mode=display`).
            let kind = node.attr("type")?;
            let kind = kind.trim().to_ascii_lowercase();
            if !kind.starts_with("math/tex") {
                return None;
            }
            return self.collect(Collect::Math {
                display: kind.contains("mode=display"),
                tex: Vec::new(),
                tex_depth: 1,
                other_depth: 0,
            });
        }
        let layout = element_layout(name, self.noscript);
        if layout == Layout::None {
            return None;
        }
        if name.ns != Ns::Html {
            return Some(Open::Inline);
        }
        let inline_only = self.md.on_one_line();
        let nest = !inline_only && self.md.can_nest();
        if self.table.is_some()
            && matches!(name.tag, Tag::Tr | Tag::Td | Tag::Th | Tag::Caption)
            && let Some(open) = self.enter_table_part(node, name.tag)
        {
            return Some(open);
        }
        Some(match name.tag {
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 if !inline_only => {
                self.md.open_heading(heading_level(name.tag));
                Open::Heading
            }
            Tag::Blockquote if nest => {
                self.md.line_break(2);
                self.md.push_container(true, Vec::new());
                Open::Quote
            }
            Tag::Ul | Tag::Menu | Tag::Dir if nest => self.enter_list(node, false),
            Tag::Ol if nest => self.enter_list(node, true),
            Tag::Li if nest => self.enter_item(node),
            Tag::Pre | Tag::Listing | Tag::Xmp | Tag::Plaintext => {
                self.md.line_break(2);
                let info = code_language(node);
                return self.collect(Collect::Pre { info });
            }
            Tag::Code | Tag::Kbd | Tag::Samp | Tag::Tt => return self.collect(Collect::Code),
            Tag::Em | Tag::I => {
                self.md.open_span(b"*");
                Open::Span
            }
            Tag::Strong | Tag::B => {
                self.md.open_span(b"**");
                Open::Span
            }
            Tag::Del | Tag::S | Tag::Strike => {
                self.md.open_span(b"~~");
                Open::Span
            }
            Tag::A if self.options.links => {
                let href = node.attr("href");
                match href.as_deref().and_then(|href| self.url(href)) {
                    Some(url) => {
                        self.md.open_link(&url);
                        Open::Span
                    }
                    None => Open::Inline,
                }
            }
            Tag::Img => {
                self.image(node);
                return None;
            }
            Tag::Br => {
                self.md.hard_break();
                return None;
            }
            Tag::Hr => {
                if !inline_only {
                    self.md.line_break(2);
                    self.md.raw(b"---");
                    self.md.line_break(2);
                }
                return None;
            }
            Tag::Table if !inline_only && table::is_data_table(node) => {
                self.md.line_break(2);
                self.md.inline_only += 1;
                self.table = Some(Table::default());
                Open::Table
            }
            _ => match layout {
                Layout::Inline => Open::Inline,
                _ => {
                    self.md.line_break(2);
                    Open::Block(2)
                }
            },
        })
    }

    fn leave(&mut self, open: Open) {
        match open {
            Open::Inline => {}
            Open::Block(n) => self.md.line_break(n),
            Open::Heading => self.md.close_heading(),
            Open::Quote => {
                self.md.pop_container();
                self.md.line_break(2);
            }
            Open::List { nested } => {
                self.lists.pop();
                self.md.line_break(if nested { 1 } else { 2 });
            }
            Open::Item => {
                self.md.pop_container();
                self.md.line_break(1);
            }
            Open::Span => self.md.close_span(),
            Open::Collecting => self.write_collected(),
            Open::CollectedBlock => {
                if let Some((Collect::Pre { .. }, _)) = self.collect {
                    end_line(&mut self.collected);
                } else {
                    self.collected.push(b' ');
                }
            }
            Open::Annotation { tex } => {
                if let Some((
                    Collect::Math {
                        tex_depth,
                        other_depth,
                        ..
                    },
                    _,
                )) = &mut self.collect
                {
                    if tex {
                        *tex_depth -= 1;
                    } else {
                        *other_depth -= 1;
                    }
                }
            }
            Open::Table => self.leave_table(),
            Open::Row => {}
            Open::Cell => self.leave_cell(),
            Open::Caption => {
                self.md.line_break(2);
                self.md.inline_only += 1;
            }
        }
    }

    fn text(&mut self, bytes: &[u8]) {
        match &mut self.collect {
            None => self.md.text(bytes),
            Some((Collect::Pre { .. } | Collect::Code, _)) => {
                self.collected.extend_from_slice(bytes)
            }
            Some((
                Collect::Math {
                    tex,
                    tex_depth,
                    other_depth,
                    ..
                },
                _,
            )) => {
                if *tex_depth > 0 {
                    tex.extend_from_slice(bytes);
                } else if *other_depth == 0 {
                    self.collected.extend_from_slice(bytes);
                }
            }
        }
    }

    fn line_break(&mut self, count: u8) {
        self.md.line_break(count);
    }

    fn finish(self) -> String {
        self.md.finish()
    }
}

/// The level of a heading element (`h1`–`h6`).
fn heading_level(tag: Tag) -> u8 {
    match tag {
        Tag::H1 => 1,
        Tag::H2 => 2,
        Tag::H3 => 3,
        Tag::H4 => 4,
        Tag::H5 => 5,
        _ => 6,
    }
}
