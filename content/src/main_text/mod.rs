//! Main text: the article of a page without its menus, footers, comment threads,
//! cookie banners and link lists, as plain text with paragraph breaks — what web-corpus
//! pipelines keep of a page (issue #27).
//!
//! The method is Readability's candidate scoring, with trafilatura's outright removal of
//! boilerplate subtrees before it and Readability's clean-up after it, counted in
//! characters so that it works the same whatever the script:
//!
//! 1. **Segmentation** (`blocks`, over the block walk's elements: the tree is walked
//!    once, step 6's walk): drops what is never article text —
//!    scripts, forms' controls, embedded objects, `nav`, `aside`, `footer`, `menu`,
//!    `dialog`, SVG, hidden elements (as [`crate::visible`] hides them), ARIA roles of
//!    navigation and side blocks, comment threads and cookie or consent banners (by
//!    `class`/`id`: `comment`, `disqus`, `cookie`, `consent`, `gdpr`) — and, in the
//!    strict pass, `header` elements and those whose `class`/`id` name a side block
//!    (`share`, `related`, `sidebar`, `menu`, `footer`, …) unless they also name
//!    content (`article`, `content`, `main`, `body`, `column`). For each element left it counts the text below it (in
//!    characters, whitespace not counted, a Han, kana or Hangul character three: about
//!    what three Latin letters say), the part of it in links, its commas (of every
//!    script), and the text it holds itself outside block-level descendants: its
//!    paragraph, when it has one.
//! 2. **Scoring** (`select`): every paragraph of 20 characters or more scores
//!    1 + its commas + its length / 85 (at most 3); the score goes to its container (the
//!    block itself when it mixes loose text and blocks, else its parent) and, divided by
//!    2, 6, 9, 12, to the next four ancestors. Each container starts at a tag score
//!    (`div` +5, lists −3, headings −5) plus its class weight (±25 for content or
//!    boilerplate words in `class` and in `id`), and its total is multiplied by one
//!    minus its link density (a menu is mostly links; prose hardly is).
//! 3. **Selection** (`select`): the best container; its ancestor instead when three
//!    other strong candidates (¾ of its score) are inside that ancestor (an article
//!    split in parts), or when its parent scores higher than it (climbing while the
//!    scores stay above a third); its parent when it is an only child. Then its
//!    siblings that score at least a fifth of it (10 at least; a shared class helps),
//!    and sibling paragraphs that read as prose (long with few links, or a short
//!    sentence without links).
//! 4. **Output** (`output`): the chosen containers laid out as the visible text is,
//!    without the dropped subtrees, an `h1`/`h2` that repeats the page title or is
//!    named as boilerplate, and (strict passes) lists, tables, forms and divisions whose
//!    content is boilerplate: too many links (20%, or 50% for a content-named one),
//!    images or list items for their paragraphs, form controls, or almost no text —
//!    unless they have ten commas.
//! 5. **Fallback**: when the text has fewer than [`Options::min_chars`] characters, the
//!    steps run again less strictly — keeping unlikely-named blocks, then without class
//!    weights, then without the clean-up — and the longest result is kept (Readability's
//!    retries: pages with short articles or unusual markup).
//! 6. **Blocks** (`units`, `features`, `model`): Readability keeps one container, but a listing's
//!    40 cards, a thread's posts or a service page's six sections are many. Every block
//!    of text on the page (a block-level element's own text) is described by its length,
//!    links, punctuation, tag, what it sits inside (navigation, a footer, an element named
//!    `comment`, Readability's choice), how many siblings share its shape and its
//!    neighbours, and small gradient-boosted trees compiled into the crate
//!    (`content/eval/train_blocks.py` trains them on the multitype development split)
//!    give the probability that a person keeps it. The text is Readability's blocks
//!    and every other block the trees give at least one half, laid out as the visible
//!    text is.
//! 7. **What the page hides** (`structured`, and `extract`): the text of a question page,
//!    a forum post or an article body the page's JSON-LD holds replaces a shell's text;
//!    a product's description is added when the text lacks it; a page whose visible
//!    text is almost nothing is read again with its hidden elements; tab panels count as
//!    shown. No-break spaces are written as spaces.
//!
//! Every walk is iterative and every step linear in the page (the walks up the tree
//! from a paragraph stop at five ancestors), so a million nested elements take no stack
//! and no quadratic time. The title, byline and date come from the head's `meta`
//! elements and `title`, else the article's JSON-LD, else the body (`fields`); the page's
//! kind from its JSON-LD, Open Graph and structure (`kind`).
//!
//! Memory: besides what a page needs while it is read (a few slots per node), each
//! thread keeps the emptied buffers of the last page it read for the next one (`spare`),
//! none kept over 4 MB: a few MB for a page of the corpus, freed with the thread.

mod block_counts;
mod blocks;
mod cues;
mod feature_layout;
mod features;
mod fields;
mod hints;
mod jsonld;
mod kind;
mod model;
mod node_set;
mod output;
mod page_title;
mod pass;
mod reads;
mod select;
mod spare;
mod structured;
mod text_counts;
mod units;
mod walk_records;

use std::cell::OnceCell;

use htmltok_tree::DocumentRef;

use crate::Tree;
use crate::visible::{self, Sink, Writer};
use pass::{PASSES, Pass};
use reads::Reads;

pub use kind::PageKind;

/// What [`main_text`] can be asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The fewest characters (whitespace not counted; CJK weighted as in the module's
    /// doc) a strict pass must find before the less strict ones are tried. 500 by
    /// default (Readability's threshold); 0 runs the strict pass only.
    pub min_chars: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options { min_chars: 500 }
    }
}

/// A page's main text and the fields read beside it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MainText {
    /// The article's text: paragraphs set apart by a blank line, lines by a line break,
    /// no-break spaces written as spaces, as corpus pipelines want them (and trafilatura
    /// writes them); empty when the page has no text.
    pub text: String,
    /// The page title (`og:title`, else the `title` element, else the article's JSON-LD
    /// `headline`).
    pub title: Option<String>,
    /// The author, from `meta name=author` (or `article:author`, `dc.creator`), else the
    /// article's JSON-LD `author`, else an element of the body marked as the author.
    pub byline: Option<String>,
    /// The publication date as the page writes it (`article:published_time`,
    /// `datePublished`, `date`, …; else the article's JSON-LD `datePublished` or
    /// `dateCreated`, else the body's first `time`).
    pub date: Option<String>,
    /// What sort of page it is.
    pub kind: PageKind,
    /// How sure the block model is of the text, in [0, 1]: the mean probability it gives
    /// the blocks kept, each weighing its characters (0 when the page has no block of
    /// text). It ranks pages by how well their text matches what people keep (see
    /// `content/eval/README.md`), so a pipeline can send those below a threshold to a
    /// slower tool.
    pub confidence: f32,
}

/// The main text of the document (see the module's doc for the method).
///
/// ```
/// let doc = htmltok_tree::parse(
///     b"<title>News</title><nav><a href=/>Home</a> <a href=/a>About</a></nav>\
///       <div class=story><p>The council met on Monday, and after a long debate, it voted \
///       to keep the library open.</p><p>Residents, who had petitioned for months, \
///       welcomed the decision.</p></div><footer>Copyright, all rights reserved</footer>",
/// );
/// let main = htmltok_content::main_text(&doc, &Default::default());
/// assert_eq!(
///     main.text,
///     "The council met on Monday, and after a long debate, it voted to keep the \
///      library open.\n\nResidents, who had petitioned for months, welcomed the decision."
/// );
/// assert_eq!(main.title.as_deref(), Some("News"));
/// ```
pub fn main_text<D: Tree + ?Sized>(doc: &D, options: &Options) -> MainText {
    main_text_as(&doc.view(), options, Format::Text).0
}

/// [`main_text`], and its text as Markdown too ([`markdown`]'s), from one extraction.
pub fn with_markdown<D: Tree + ?Sized>(
    doc: &D,
    options: &Options,
    markdown: &crate::markdown::Options,
) -> (MainText, String) {
    let (main, md) = main_text_as(&doc.view(), options, Format::Markdown(markdown));
    (main, md.unwrap_or_default())
}

/// [`main_text`], with the text in Markdown too when `format` asks for it.
fn main_text_as(
    view: &DocumentRef<'_>,
    options: &Options,
    format: Format<'_>,
) -> (MainText, Option<String>) {
    let ld = jsonld::JsonLd::read(view);
    let mut reads = Reads::new(view, true);
    let fields = fields::fields_with(view, &ld, &mut reads);
    let title = page_title::PageTitle::known(fields.title.as_deref());
    let extracted = extract(view, options, &title, true, format, &mut reads);
    let markdown = extracted
        .markdown
        .map(|md| with_structured_markdown(md, &extracted.text, &ld));
    let main = MainText {
        text: plain_spaces(structured::instead(extracted.text, &ld)),
        title: fields.title,
        byline: fields.byline,
        date: fields.date,
        kind: kind::page_kind(view, &ld, &mut reads),
        confidence: extracted.confidence,
    };
    (main, markdown)
}

/// The Markdown of a main text (`text` as plain text), with what the structured data
/// changes of it ([`structured::instead_of`]), no-break spaces as spaces.
fn with_structured_markdown(md: String, text: &str, ld: &jsonld::JsonLd) -> String {
    let md = structured::instead_of(text, ld).apply(md, |data| crate::markdown::paragraphs(&data));
    plain_spaces(md)
}

/// The main text alone: [`main_text`]'s `text`, without its other fields (the page
/// title is read only when a heading of the article has to be compared with it).
///
/// ```
/// let doc = htmltok_tree::parse(
///     b"<title>News</title><div><p>The council met on Monday, and after a long \
///       debate, it voted to keep the library open.</p></div>",
/// );
/// let text = htmltok_content::main_text::text(&doc, &Default::default());
/// assert_eq!(
///     text,
///     htmltok_content::main_text(&doc, &Default::default()).text
/// );
/// ```
pub fn text<D: Tree + ?Sized>(doc: &D, options: &Options) -> String {
    text_as(&doc.view(), options, Format::Text)
}

/// The main text alone, as plain text or Markdown (`format`), without its other fields.
fn text_as(view: &DocumentRef<'_>, options: &Options, format: Format<'_>) -> String {
    // The JSON-LD, parsed once for the title (when the page has none) and the text.
    let ld = OnceCell::new();
    let ld = || ld.get_or_init(|| jsonld::JsonLd::read(view));
    let read = || fields::title(view, ld);
    let mut reads = Reads::new(view, false);
    let title = page_title::PageTitle::new(&read);
    let extracted = extract(view, options, &title, false, format, &mut reads);
    match extracted.markdown {
        Some(md) => with_structured_markdown(md, &extracted.text, ld()),
        None => plain_spaces(structured::instead(extracted.text, ld())),
    }
}

/// The main text as GitHub-flavoured Markdown: the blocks [`text`] keeps, written as
/// [`crate::markdown`] writes a page (headings, lists, tables, code blocks, links).
/// Its text is [`text`]'s.
///
/// ```
/// let doc = htmltok_tree::parse(
///     b"<nav><a href=/>Home</a></nav><article><h2>Results</h2><p>The council met on \
///       Monday, and after a long debate, it voted to keep the <b>library</b> open.</p>\
///       <ul><li>For: 7<li>Against: 2</ul></article>",
/// );
/// let md = htmltok_content::main_text::markdown(&doc, &Default::default(), &Default::default());
/// assert_eq!(
///     md,
///     "## Results\n\nThe council met on Monday, and after a long debate, it voted to keep \
///      the **library** open.\n\n- For: 7\n- Against: 2"
/// );
/// ```
pub fn markdown<D: Tree + ?Sized>(
    doc: &D,
    options: &Options,
    markdown: &crate::markdown::Options,
) -> String {
    text_as(&doc.view(), options, Format::Markdown(markdown))
}

/// How the main text is written: as plain text, or as Markdown too.
#[derive(Clone, Copy)]
enum Format<'a> {
    Text,
    Markdown(&'a crate::markdown::Options),
}

/// The main text extracted: as plain text (what the decisions read), as Markdown when
/// asked for, and the confidence in it.
struct Extracted {
    text: String,
    markdown: Option<String>,
    confidence: f32,
}

/// The text with each no-break space (U+00A0) a space.
fn plain_spaces(text: String) -> String {
    if text.contains('\u{a0}') {
        text.replace('\u{a0}', " ")
    } else {
        text
    }
}

/// Readability's passes run on a page: the walks and selections computed, and the pass
/// kept (see the module's doc, step 5).
struct Passes {
    walks: Vec<blocks::Blocks>,
    selections: Vec<select::Selection>,
    /// (walk, selection, pass, characters, elements left out) of the pass kept.
    best: Option<(usize, usize, Pass, u32, output::LeftOut)>,
}

impl Passes {
    fn run(
        doc: &DocumentRef<'_>,
        walk: &units::Units,
        options: &Options,
        title: &page_title::PageTitle<'_>,
        show_hidden: bool,
        reads: &mut Reads,
    ) -> Passes {
        // A pass reuses what the one before computed when it differs only later: the
        // walk depends on `strip_unlikely` alone, the selection on `weigh_classes` too.
        // Each pass counts its output's characters from the walk's counts; only the
        // pass kept lays its text out.
        let mut p = Passes {
            walks: Vec::with_capacity(2),
            selections: Vec::with_capacity(3),
            best: None,
        };
        for (i, pass) in PASSES.into_iter().enumerate() {
            if i == 0 || pass.strip_unlikely != PASSES[i - 1].strip_unlikely {
                let blocks = blocks::segment(doc, walk, pass.strip_unlikely, show_hidden, reads);
                p.walks.push(blocks);
            }
            let b = p.walks.len() - 1;
            if i == 0
                || pass.strip_unlikely != PASSES[i - 1].strip_unlikely
                || pass.weigh_classes != PASSES[i - 1].weigh_classes
            {
                p.selections
                    .push(select::select(doc, &p.walks[b], pass.weigh_classes));
            }
            let s = p.selections.len() - 1;
            let out = output::Output {
                blocks: &p.walks[b],
                selection: &p.selections[s],
                pass,
                title,
            };
            let (chars, left_out) = out.chars(doc);
            if p.best.as_ref().is_none_or(|&(.., most, _)| chars > most) {
                p.best = Some((b, s, pass, chars, left_out));
            }
            if chars >= options.min_chars {
                break;
            }
        }
        p
    }

    /// Gives the buffers to `spare`, for another page.
    fn recycle(self, spare: &mut spare::Spare) {
        for blocks in self.walks {
            blocks.recycle(spare);
        }
    }

    /// Readability's view of the page, for the block walk.
    fn readability(&self) -> Option<features::Readability<'_>> {
        self.best
            .as_ref()
            .map(|(b, s, _, _, left_out)| features::Readability {
                blocks: &self.walks[*b],
                selection: &self.selections[*s],
                left_out,
            })
    }

    /// The text of the pass kept, laid out into `w`.
    fn lay_out<W: Sink>(
        &self,
        doc: &DocumentRef<'_>,
        title: &page_title::PageTitle<'_>,
        w: W,
    ) -> String {
        self.best
            .as_ref()
            .map_or_else(String::new, |(b, s, pass, _, left_out)| {
                output::Output {
                    blocks: &self.walks[*b],
                    selection: &self.selections[*s],
                    pass: *pass,
                    title,
                }
                .lay_out(doc, left_out, w)
            })
    }
}

/// Below this many characters (as [`text_counts::measure`] counts them), a page's main
/// text is looked for again with the elements hidden by their attributes read too.
const HIDDEN_RETRY_BELOW: u32 = 200;
/// The least text that retry must find to be kept instead.
const HIDDEN_RETRY_FINDS: u32 = 1000;

/// The main text (see the module's doc) and the confidence in it: the mean
/// probability of the blocks kept, each weighing its characters (0 for a page whose
/// text comes from Readability alone, which has no blocks of text). A page whose visible
/// text holds almost nothing is read again with its hidden elements (`hidden`,
/// `aria-hidden`, inline `display: none` or `visibility: hidden`): pages that stream
/// their content into hidden elements for a script to move (React's `<div hidden
/// id="S:0">`) or hide the whole page until a script has run show their text to
/// readers, not to a crawler.
fn extract(
    doc: &DocumentRef<'_>,
    options: &Options,
    title: &page_title::PageTitle<'_>,
    confidence: bool,
    format: Format<'_>,
    reads: &mut Reads,
) -> Extracted {
    let visible = extract_with(doc, options, title, confidence, false, format, reads);
    if text_counts::at_least(&visible.text, HIDDEN_RETRY_BELOW) {
        return visible;
    }
    let all = extract_with(doc, options, title, confidence, true, format, reads);
    if text_counts::at_least(&all.text, HIDDEN_RETRY_FINDS) {
        all
    } else {
        visible
    }
}

/// [`extract`], the hidden elements read or not.
fn extract_with(
    doc: &DocumentRef<'_>,
    options: &Options,
    title: &page_title::PageTitle<'_>,
    confidence: bool,
    show_hidden: bool,
    format: Format<'_>,
    reads: &mut Reads,
) -> Extracted {
    let mut walk = units::Units::walk(doc, false, show_hidden, reads);
    let passes = Passes::run(doc, &walk, options, title, show_hidden, reads);
    let mut extracted = None;
    if let Some(readability) = passes.readability() {
        walk.read_readability(doc, &readability);
        let chosen = model::choose(&walk, title, confidence, &mut reads.spare);
        if chosen.keep.contains(&true) {
            // `noscript` is laid out when its blocks are chosen (the walk reads it).
            let plain = Writer::new(visible::Options { noscript: true });
            extracted = Some(Extracted {
                text: walk.lay_out(doc, &chosen.keep, plain),
                markdown: match format {
                    Format::Text => None,
                    Format::Markdown(o) => {
                        let md = crate::markdown::Writer::new(doc, o, true);
                        Some(walk.lay_out(doc, &chosen.keep, md))
                    }
                },
                confidence: chosen.confidence,
            });
        }
    }
    let extracted = extracted.unwrap_or_else(|| Extracted {
        text: passes.lay_out(doc, title, Writer::new(visible::Options::default())),
        markdown: match format {
            Format::Text => None,
            Format::Markdown(o) => {
                Some(passes.lay_out(doc, title, crate::markdown::Writer::new(doc, o, false)))
            }
        },
        confidence: 0.0,
    });
    walk.recycle(&mut reads.spare);
    passes.recycle(&mut reads.spare);
    extracted
}

/// Every block of text of the page with the features the block model reads, and the
/// features' names: what `content/eval/train_blocks.py` learns from (not a stable
/// API).
#[doc(hidden)]
pub fn block_features<D: Tree + ?Sized>(doc: &D) -> (Vec<String>, Vec<(String, Vec<f32>)>) {
    let view = doc.view();
    let ld = OnceCell::new();
    let read = || fields::title(&view, || ld.get_or_init(|| jsonld::JsonLd::read(&view)));
    let title = page_title::PageTitle::new(&read);
    let mut reads = Reads::new(&view, false);
    let mut walk = units::Units::walk(&view, true, false, &mut reads);
    let passes = Passes::run(&view, &walk, &Options::default(), &title, false, &mut reads);
    let Some(readability) = passes.readability() else {
        return (feature_layout::feature_names(), Vec::new());
    };
    walk.read_readability(&view, &readability);
    let features = walk.features(&title, true, Vec::new());
    let blocks = walk
        .units
        .iter()
        .zip(features)
        .map(|(unit, f)| (unit.text.clone(), f.to_vec()))
        .collect();
    (feature_layout::feature_names(), blocks)
}
