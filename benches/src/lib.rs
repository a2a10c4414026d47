//! Shared by `benches/compare.rs` (criterion, wall time) and `benches/instructions.rs`
//! (gungraun, instruction counts): finding and loading the corpus, and one driver per
//! engine. See BENCHMARKS.md for what each engine does and why.
//!
//! Every driver walks a whole page and returns [`Stats`]: token counts by kind and a
//! checksum of the lengths it touched, so that nothing can be optimised away and so that
//! the engines can be seen to do comparable work (`HTMLTOK_BENCH_COUNTS=1`).

use std::cell::Cell;
use std::fmt;
use std::path::{Path, PathBuf};

use htmltok::{Tape, Token, TokenRecord, Tokenizer};

/// The environment variable that names the corpus folder.
pub const CORPUS_ENV: &str = "HTMLTOK_CORPUS";

/// One page of the corpus.
pub struct Page {
    /// Path relative to the corpus folder (`news/cnn.html`).
    pub path: String,
    /// The category column of MANIFEST.tsv (`news`, `wikipedia`, …).
    pub category: String,
    /// The bytes exactly as stored.
    pub bytes: Vec<u8>,
    /// For html5ever, which only takes UTF-8: the bytes decoded as UTF-8 (invalid
    /// sequences replaced by U+FFFD), built outside the timed loop. Cloning a tendril only
    /// bumps a reference count. None unless loaded with `html5ever_input`.
    pub html5ever_input: Option<html5ever::tendril::StrTendril>,
}

/// The loaded corpus.
pub struct Corpus {
    pub dir: PathBuf,
    pub pages: Vec<Page>,
}

impl Corpus {
    /// Total bytes of all pages.
    pub fn bytes(&self) -> u64 {
        self.pages.iter().map(|p| p.bytes.len() as u64).sum()
    }

    /// The categories in the order MANIFEST.tsv first names them.
    pub fn categories(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for p in &self.pages {
            if !out.contains(&p.category.as_str()) {
                out.push(&p.category);
            }
        }
        out
    }

    /// The pages of one category.
    pub fn category(&self, name: &str) -> Vec<&Page> {
        self.pages.iter().filter(|p| p.category == name).collect()
    }

    /// One page by its relative path.
    pub fn page(&self, path: &str) -> Option<&Page> {
        self.pages.iter().find(|p| p.path == path)
    }
}

/// The folders looked at, in order: `$HTMLTOK_CORPUS`, `<workspace>/../shared/corpus`,
/// `<workspace>/corpus` (the bundled pages). A folder counts only if it holds a
/// MANIFEST.tsv.
pub fn corpus_candidates() -> Vec<PathBuf> {
    // This package lives in `benches/` of the workspace.
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    if let Some(dir) = std::env::var_os(CORPUS_ENV).filter(|v| !v.is_empty()) {
        out.push(PathBuf::from(dir));
    }
    out.push(workspace.join("..").join("shared").join("corpus"));
    out.push(workspace.join("corpus"));
    out
}

/// The corpus folder, or exit(2) with a message naming the variable and the paths tried.
pub fn corpus_dir_or_exit() -> PathBuf {
    let candidates = corpus_candidates();
    for dir in &candidates {
        if dir.join("MANIFEST.tsv").is_file() {
            return dir.clone();
        }
    }
    eprintln!("error: no benchmark corpus found (a folder holding MANIFEST.tsv).");
    eprintln!("Set {CORPUS_ENV}=/path/to/corpus, or put the corpus at one of:");
    for dir in &candidates {
        eprintln!("  {}", dir.display());
    }
    if std::env::var_os(CORPUS_ENV).is_some_and(|v| !v.is_empty()) {
        eprintln!("({CORPUS_ENV} is set, but that folder has no MANIFEST.tsv.)");
    }
    std::process::exit(2);
}

/// Loads every page MANIFEST.tsv lists (columns: path, bytes, …, category in column 7).
/// Exits with a message if the corpus is missing, a listed file can't be read, or no page
/// is listed. `html5ever_input` also builds each page's UTF-8 tendril.
pub fn load_corpus(html5ever_input: bool) -> Corpus {
    let dir = corpus_dir_or_exit();
    let manifest_path = dir.join("MANIFEST.tsv");
    let manifest = std::fs::read_to_string(&manifest_path).unwrap_or_else(|e| {
        eprintln!("error: cannot read {}: {e}", manifest_path.display());
        std::process::exit(2);
    });
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| {
        header.iter().position(|h| *h == name).unwrap_or_else(|| {
            eprintln!(
                "error: {} has no `{name}` column (header: {header:?})",
                manifest_path.display()
            );
            std::process::exit(2);
        })
    };
    let (path_col, bytes_col, category_col) = (col("path"), col("bytes"), col("category"));
    let mut pages = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(path), Some(category)) = (fields.get(path_col), fields.get(category_col)) else {
            eprintln!("warning: skipping malformed MANIFEST.tsv line: {line:?}");
            continue;
        };
        let file = dir.join(path);
        let bytes = std::fs::read(&file).unwrap_or_else(|e| {
            eprintln!("error: cannot read corpus file {}: {e}", file.display());
            std::process::exit(2);
        });
        if let Some(declared) = fields.get(bytes_col).and_then(|b| b.parse::<usize>().ok())
            && declared != bytes.len()
        {
            eprintln!(
                "warning: {path}: MANIFEST.tsv says {declared} bytes, the file has {}",
                bytes.len()
            );
        }
        let html5ever_input = html5ever_input
            .then(|| html5ever::tendril::StrTendril::from_slice(&String::from_utf8_lossy(&bytes)));
        pages.push(Page {
            path: path.to_string(),
            category: category.to_string(),
            bytes,
            html5ever_input,
        });
    }
    if pages.is_empty() {
        eprintln!("error: {} lists no pages", manifest_path.display());
        std::process::exit(2);
    }
    Corpus { dir, pages }
}

/// What one engine saw in one or more pages. Engines that cannot see a kind leave it 0
/// (lol-html's element handler sees no end tags; the memchr baseline only counts `<`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub doctypes: u64,
    pub start_tags: u64,
    pub end_tags: u64,
    pub comments: u64,
    /// Text tokens as the engine hands them out (a run for htmltok; html5ever and
    /// html5gum may split a run into several; lol-html: text nodes, not chunks).
    pub texts: u64,
    pub attrs: u64,
    /// Parse errors the engine reported (htmltok: only with errors on).
    pub errors: u64,
    /// Sum of the lengths of everything touched (spans or decoded strings).
    pub checksum: u64,
}

impl Stats {
    /// Counts a start tag (`start`) or an end tag.
    #[inline(always)]
    fn tag(&mut self, start: bool) {
        if start {
            self.start_tags += 1;
        } else {
            self.end_tags += 1;
        }
    }
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.doctypes += o.doctypes;
        self.start_tags += o.start_tags;
        self.end_tags += o.end_tags;
        self.comments += o.comments;
        self.texts += o.texts;
        self.attrs += o.attrs;
        self.errors += o.errors;
        self.checksum += o.checksum;
    }
}

/// The engines measured, in the order they are reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// htmltok, default options, touching spans only.
    Htmltok,
    /// htmltok, decoding every name, value, text, comment and DOCTYPE field.
    HtmltokDecodeAll,
    /// htmltok with parse errors recorded.
    HtmltokErrorsOn,
    /// htmltok building the whole page's token tape, then walking its records.
    HtmltokTape,
    /// html5ever's tokenizer with a counting sink and the start-tag state switches.
    Html5ever,
    /// html5gum's default emitter with naive state switching.
    Html5gum,
    /// lol-html with element, doctype, text and comment handlers.
    LolHtml,
    /// lol-html with no handlers.
    LolHtmlNoHandlers,
    /// tl's parser (a DOM, not a spec tokenizer: it does not follow 13.2.5), its nodes
    /// walked.
    Tl,
    /// memchr count of `<`.
    MemchrLt,
    /// The sum of the bytes: what reading the input from memory costs.
    SumOfBytes,
}

impl Engine {
    pub const ALL: [Engine; 11] = [
        Engine::Htmltok,
        Engine::HtmltokDecodeAll,
        Engine::HtmltokErrorsOn,
        Engine::HtmltokTape,
        Engine::Html5ever,
        Engine::Html5gum,
        Engine::LolHtml,
        Engine::LolHtmlNoHandlers,
        Engine::Tl,
        Engine::MemchrLt,
        Engine::SumOfBytes,
    ];

    /// The benchmark id (criterion's `<group>/<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Htmltok => "htmltok",
            Engine::HtmltokDecodeAll => "htmltok-decode-all",
            Engine::HtmltokErrorsOn => "htmltok-errors-on",
            Engine::HtmltokTape => "htmltok-tape",
            Engine::Html5ever => "html5ever",
            Engine::Html5gum => "html5gum",
            Engine::LolHtml => "lol-html",
            Engine::LolHtmlNoHandlers => "lol-html-no-handlers",
            Engine::Tl => "tl",
            Engine::MemchrLt => "memchr-lt",
            Engine::SumOfBytes => "sum-of-bytes",
        }
    }

    /// Runs the engine over one page.
    pub fn run(self, page: &Page) -> Stats {
        match self {
            Engine::Htmltok => htmltok_spans(&page.bytes),
            Engine::HtmltokDecodeAll => htmltok_decode_all(&page.bytes),
            Engine::HtmltokErrorsOn => htmltok_errors_on(&page.bytes),
            Engine::HtmltokTape => htmltok_tape(&page.bytes),
            Engine::Html5ever => html5ever_tokenize(
                page.html5ever_input
                    .as_ref()
                    .expect("corpus loaded without html5ever input"),
            ),
            Engine::Html5gum => html5gum_tokenize(&page.bytes),
            Engine::LolHtml => lol_html_handlers(&page.bytes),
            Engine::LolHtmlNoHandlers => lol_html_no_handlers(&page.bytes),
            Engine::Tl => tl_parse(
                page.html5ever_input
                    .as_ref()
                    .expect("corpus loaded without the UTF-8 input"),
            ),
            Engine::MemchrLt => memchr_lt(&page.bytes),
            Engine::SumOfBytes => sum_of_bytes(&page.bytes),
        }
    }

    /// Runs the engine over several pages, summing the stats.
    pub fn run_all<'p>(self, pages: impl IntoIterator<Item = &'p Page>) -> Stats {
        let mut total = Stats::default();
        for page in pages {
            total += self.run(page);
        }
        total
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ---------------------------------------------------------------------------------------
// htmltok

/// The loop shared by the span-only drivers: every token, its name span, each attribute's
/// name and value spans, the text/comment data span, the DOCTYPE field spans.
#[inline(always)]
fn htmltok_walk_spans(tok: &mut Tokenizer<'_>, s: &mut Stats) {
    while let Some(token) = tok.next_token() {
        match token {
            Token::StartTag(tag) | Token::EndTag(tag) => {
                s.tag(matches!(token, Token::StartTag(_)));
                s.checksum += tag.name_span().len() as u64;
                for attr in tag.attrs() {
                    s.attrs += 1;
                    s.checksum += attr.name_span().len() as u64;
                    if let Some(v) = attr.value_span() {
                        s.checksum += v.len() as u64;
                    }
                }
            }
            Token::Text(text) => {
                s.texts += 1;
                s.checksum += text.text_span().len() as u64;
            }
            Token::Comment(c) => {
                s.comments += 1;
                s.checksum += c.data_span().len() as u64;
            }
            Token::Doctype(d) => {
                s.doctypes += 1;
                let (name, public, system) = d.spans();
                for span in [name, public, system].into_iter().flatten() {
                    s.checksum += span.len() as u64;
                }
            }
        }
    }
}

/// `htmltok`: default options (simulation on, errors off), spans touched, nothing decoded.
pub fn htmltok_spans(input: &[u8]) -> Stats {
    let mut s = Stats::default();
    let mut tok = Tokenizer::new(input);
    htmltok_walk_spans(&mut tok, &mut s);
    s
}

/// `htmltok-errors-on`: as [`htmltok_spans`] with parse errors recorded and counted.
pub fn htmltok_errors_on(input: &[u8]) -> Stats {
    let mut s = Stats::default();
    let mut tok = Tokenizer::builder().errors(true).build(input);
    htmltok_walk_spans(&mut tok, &mut s);
    s.errors = tok.errors().len() as u64;
    s
}

/// `htmltok-tape`: the page's whole token tape built (`Builder::tape_into`, into one
/// tape per thread reused from page to page, as a batch consumer would), then its
/// records walked for the same counts and span lengths as [`htmltok_spans`].
pub fn htmltok_tape(input: &[u8]) -> Stats {
    thread_local! {
        static TAPE: std::cell::RefCell<Tape> = std::cell::RefCell::default();
    }
    TAPE.with_borrow_mut(|tape| {
        Tokenizer::builder()
            .tape_into(input, tape)
            .expect("pages are below 4 GiB");
        tape_stats(tape)
    })
}

/// The counts and span lengths of [`htmltok_walk_spans`], from a tape's records.
fn tape_stats(tape: &Tape) -> Stats {
    let mut s = Stats::default();
    let attrs = tape.attr_records();
    let len = |start: u32, end: u32| u64::from(end - start);
    for r in tape.records() {
        match r.kind {
            TokenRecord::START_TAG | TokenRecord::END_TAG => {
                s.tag(r.kind == TokenRecord::START_TAG);
                s.checksum += len(r.main_start, r.main_end);
                let first = r.extra as usize;
                for a in &attrs[first..first + r.count as usize] {
                    s.attrs += 1;
                    s.checksum += len(a.name_start, a.name_end) + len(a.value_start, a.value_end);
                }
            }
            TokenRecord::TEXT => {
                s.texts += 1;
                s.checksum += len(r.main_start, r.main_end);
            }
            TokenRecord::COMMENT => {
                s.comments += 1;
                s.checksum += len(r.main_start, r.main_end);
            }
            _ => {
                s.doctypes += 1;
                let d = &tape.doctype_records()[r.extra as usize];
                for (i, [start, end]) in d.spans.iter().enumerate() {
                    if d.present & 1 << i != 0 {
                        s.checksum += len(*start, *end);
                    }
                }
            }
        }
    }
    s
}

/// `htmltok-decode-all`: every name, attribute value, text, comment and DOCTYPE field
/// decoded to `Cow<str>`, their lengths summed.
pub fn htmltok_decode_all(input: &[u8]) -> Stats {
    let mut s = Stats::default();
    let mut tok = Tokenizer::new(input);
    while let Some(token) = tok.next_token() {
        match token {
            Token::StartTag(tag) | Token::EndTag(tag) => {
                s.tag(matches!(token, Token::StartTag(_)));
                s.checksum += tag.name().len() as u64;
                for attr in tag.attrs() {
                    s.attrs += 1;
                    s.checksum += attr.name().len() as u64 + attr.value().len() as u64;
                }
            }
            Token::Text(text) => {
                s.texts += 1;
                s.checksum += text.text().len() as u64;
            }
            Token::Comment(c) => {
                s.comments += 1;
                s.checksum += c.data().len() as u64;
            }
            Token::Doctype(d) => {
                s.doctypes += 1;
                for field in [d.name(), d.public_id(), d.system_id()]
                    .into_iter()
                    .flatten()
                {
                    s.checksum += field.len() as u64;
                }
            }
        }
    }
    s
}

// ---------------------------------------------------------------------------------------
// html5ever

mod h5e {
    use std::cell::Cell;

    use html5ever::TokenizerResult;
    use html5ever::tendril::StrTendril;
    use html5ever::tokenizer::states::RawKind;
    use html5ever::tokenizer::{
        BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
    };

    use super::Stats;

    /// Counts tokens, touches names, attributes and text, and plays the tree builder's
    /// part for the start tags that change the tokenizer state (no foreign content).
    #[derive(Default)]
    pub struct CountingSink {
        pub stats: Cell<Stats>,
    }

    impl TokenSink for CountingSink {
        type Handle = ();

        fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
            let mut s = self.stats.get();
            let mut result = TokenSinkResult::Continue;
            match token {
                Token::TagToken(tag) => {
                    s.checksum += tag.name.len() as u64;
                    for attr in &tag.attrs {
                        s.attrs += 1;
                        s.checksum += attr.name.local.len() as u64 + attr.value.len() as u64;
                    }
                    match tag.kind {
                        TagKind::StartTag => {
                            s.start_tags += 1;
                            result = match &*tag.name {
                                "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
                                "style" | "xmp" | "iframe" | "noembed" | "noframes"
                                | "noscript" => TokenSinkResult::RawData(RawKind::Rawtext),
                                "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                                "plaintext" => TokenSinkResult::Plaintext,
                                _ => TokenSinkResult::Continue,
                            };
                        }
                        TagKind::EndTag => s.end_tags += 1,
                    }
                }
                Token::CharacterTokens(text) => {
                    s.texts += 1;
                    s.checksum += text.len() as u64;
                }
                Token::NullCharacterToken => {
                    s.texts += 1;
                    s.checksum += 1;
                }
                Token::CommentToken(c) => {
                    s.comments += 1;
                    s.checksum += c.len() as u64;
                }
                Token::DoctypeToken(d) => {
                    s.doctypes += 1;
                    for field in [&d.name, &d.public_id, &d.system_id].into_iter().flatten() {
                        s.checksum += field.len() as u64;
                    }
                }
                Token::ParseError(_) => s.errors += 1,
                Token::EOFToken => {}
            }
            self.stats.set(s);
            result
        }
    }

    pub fn tokenize(input: &StrTendril) -> Stats {
        let tok = Tokenizer::new(CountingSink::default(), TokenizerOpts::default());
        let queue = BufferQueue::default();
        queue.push_back(input.clone());
        loop {
            match tok.feed(&queue) {
                TokenizerResult::Done => break,
                // Not produced by this sink; keep going if it ever is.
                TokenizerResult::Script(()) | TokenizerResult::EncodingIndicator(_) => {}
            }
        }
        tok.end();
        tok.sink.stats.get()
    }
}

/// `html5ever`: html5ever's tokenizer over the page's UTF-8 tendril.
pub fn html5ever_tokenize(input: &html5ever::tendril::StrTendril) -> Stats {
    h5e::tokenize(input)
}

// ---------------------------------------------------------------------------------------
// html5gum

/// `html5gum`: the default emitter with `naively_switch_states(true)`.
pub fn html5gum_tokenize(input: &[u8]) -> Stats {
    use html5gum::{DefaultEmitter, Token as G, Tokenizer as GumTokenizer};
    let mut emitter = DefaultEmitter::default();
    emitter.naively_switch_states(true);
    let mut s = Stats::default();
    for token in GumTokenizer::new_with_emitter(input, emitter) {
        let Ok(token) = token;
        match token {
            G::StartTag(tag) => {
                s.start_tags += 1;
                s.checksum += tag.name.len() as u64;
                for (name, value) in &tag.attributes {
                    s.attrs += 1;
                    s.checksum += name.len() as u64 + value.value.len() as u64;
                }
            }
            G::EndTag(tag) => {
                s.end_tags += 1;
                s.checksum += tag.name.len() as u64;
            }
            G::String(text) => {
                s.texts += 1;
                s.checksum += text.value.len() as u64;
            }
            G::Comment(c) => {
                s.comments += 1;
                s.checksum += c.value.len() as u64;
            }
            G::Doctype(d) => {
                s.doctypes += 1;
                s.checksum += d.name.len() as u64;
                for field in [&d.public_identifier, &d.system_identifier]
                    .into_iter()
                    .flatten()
                {
                    s.checksum += field.len() as u64;
                }
            }
            G::Error(_) => s.errors += 1,
        }
    }
    s
}

// ---------------------------------------------------------------------------------------
// lol-html

/// `lol-html`: an `HtmlRewriter` with an element handler on `*` (tag name and every
/// attribute's name and value) and document-level doctype, text and comment handlers;
/// output discarded. Non-strict, so that it never bails out on ambiguous markup.
pub fn lol_html_handlers(input: &[u8]) -> Stats {
    use lol_html::html_content::{Comment, Doctype, TextChunk};
    use lol_html::{DocumentContentHandlers, HtmlRewriter, Settings, element};

    let start_tags = Cell::new(0u64);
    let attrs = Cell::new(0u64);
    let texts = Cell::new(0u64);
    let comments = Cell::new(0u64);
    let doctypes = Cell::new(0u64);
    let checksum = Cell::new(0u64);
    let add = |c: &Cell<u64>, n: usize| c.set(c.get() + n as u64);

    let settings = Settings::new()
        .with_strict(false)
        .append_element_content_handler(element!("*", |el| {
            add(&start_tags, 1);
            add(&checksum, el.tag_name().len());
            for attr in el.attributes() {
                add(&attrs, 1);
                add(&checksum, attr.name().len() + attr.value().len());
            }
            Ok(())
        }))
        .append_document_content_handler(
            DocumentContentHandlers::default()
                .doctype(|d: &mut Doctype<'_>| {
                    add(&doctypes, 1);
                    for field in [d.name(), d.public_id(), d.system_id()]
                        .into_iter()
                        .flatten()
                    {
                        add(&checksum, field.len());
                    }
                    Ok(())
                })
                .text(|t: &mut TextChunk<'_>| {
                    add(&checksum, t.as_str().len());
                    if t.last_in_text_node() {
                        add(&texts, 1);
                    }
                    Ok(())
                })
                .comments(|c: &mut Comment<'_>| {
                    add(&comments, 1);
                    add(&checksum, c.text().len());
                    Ok(())
                }),
        );
    let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
    rewriter.write(input).expect("lol-html write");
    rewriter.end().expect("lol-html end");
    Stats {
        doctypes: doctypes.get(),
        start_tags: start_tags.get(),
        end_tags: 0,
        comments: comments.get(),
        texts: texts.get(),
        attrs: attrs.get(),
        errors: 0,
        checksum: checksum.get(),
    }
}

/// `lol-html-no-handlers`: an `HtmlRewriter` with no handlers (only its tag scanner runs),
/// output discarded; the checksum is the number of output bytes.
pub fn lol_html_no_handlers(input: &[u8]) -> Stats {
    use lol_html::{HtmlRewriter, Settings};
    let out = Cell::new(0u64);
    let mut rewriter = HtmlRewriter::new(Settings::new().with_strict(false), |chunk: &[u8]| {
        out.set(out.get() + chunk.len() as u64)
    });
    rewriter.write(input).expect("lol-html write");
    rewriter.end().expect("lol-html end");
    Stats {
        checksum: out.get(),
        ..Stats::default()
    }
}

// ---------------------------------------------------------------------------------------
// baseline

/// `memchr-lt`: the number of `<` bytes (a floor: one SIMD pass, no state machine).
pub fn memchr_lt(input: &[u8]) -> Stats {
    Stats {
        checksum: memchr::memchr_iter(b'<', input).count() as u64,
        ..Stats::default()
    }
}

/// `sum-of-bytes`: every byte read and added up (the compiler vectorizes it): the cost
/// of reading the input from memory, the floor under every engine.
pub fn sum_of_bytes(input: &[u8]) -> Stats {
    Stats {
        // 32-bit sums of 64 KiB pieces (at most 255 · 2^16, no overflow), which the
        // compiler vectorizes; then the pieces' sums as 64-bit.
        checksum: input
            .chunks(1 << 16)
            .map(|piece| u64::from(piece.iter().map(|&b| u32::from(b)).sum::<u32>()))
            .sum(),
        ..Stats::default()
    }
}

/// `tl`: tl's parser (a fast DOM builder that is not a spec tokenizer) on the page as
/// UTF-8 (the same lossy string html5ever gets), then every node walked: tags with their
/// attributes, text, comments.
pub fn tl_parse(input: &str) -> Stats {
    let mut s = Stats::default();
    let Ok(dom) = tl::parse(input, tl::ParserOptions::default()) else {
        return s;
    };
    for node in dom.nodes() {
        match node {
            tl::Node::Tag(tag) => {
                s.start_tags += 1;
                s.checksum += tag.name().as_bytes().len() as u64;
                for (name, value) in tag.attributes().iter() {
                    s.attrs += 1;
                    s.checksum += name.len() as u64 + value.map_or(0, |v| v.len() as u64);
                }
            }
            tl::Node::Raw(text) => {
                s.texts += 1;
                s.checksum += text.as_bytes().len() as u64;
            }
            tl::Node::Comment(c) => {
                s.comments += 1;
                s.checksum += c.as_bytes().len() as u64;
            }
        }
    }
    s
}

/// A markdown table of what each engine saw over `pages` (one run each).
pub fn counts_table(pages: &[&Page], engines: &[Engine]) -> String {
    let mut out = String::new();
    out.push_str(
        "| engine | doctypes | start tags | end tags | comments | texts | attributes | errors | checksum |\n",
    );
    out.push_str("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for &engine in engines {
        let s = engine.run_all(pages.iter().copied());
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            engine.name(),
            s.doctypes,
            s.start_tags,
            s.end_tags,
            s.comments,
            s.texts,
            s.attrs,
            s.errors,
            s.checksum
        ));
    }
    out
}
