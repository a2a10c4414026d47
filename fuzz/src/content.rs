//! Checks for the `content` fuzz target (htmltok-content): main text, metadata, visible
//! text and Markdown of any page never panic, give no NUL, give URLs that parse, come out
//! the same twice and the same from a borrowed and an owned tree; the main text's
//! Markdown from `with_markdown` is `main_text::markdown`'s, and its main text
//! `main_text()`'s.
//!
//! The input: byte 0 the options (see [`ContentOptions::from_byte`]), the rest the HTML.

use htmltok_content::{MainText, Metadata, main_text, metadata, visible};
use htmltok_tree::Parser;
use url::Url;

/// The document URLs the first byte chooses among (None: no URL, relative links stay
/// unresolved).
const DOCUMENT_URLS: [Option<&str>; 4] = [
    None,
    Some("https://example.org/dir/page?q=1#top"),
    Some("http://[::1]:8080/a/b/"),
    Some("file:///C:/site/index.html"),
];

/// The `min_chars` of main text the first byte chooses among.
const MIN_CHARS: [u32; 4] = [500, 0, 1, 100_000];

/// What the first byte chooses: bit 0 scripting on, bits 1-2 the document URL, bits 3-4
/// main text's `min_chars`, bit 5 `noscript` content in the visible text.
#[derive(Clone, Debug)]
pub struct ContentOptions {
    /// The scripting flag of the parse.
    pub scripting: bool,
    /// The document's URL.
    pub document_url: Option<Url>,
    /// Main text's options.
    pub main_text: htmltok_content::main_text::Options,
    /// Visible text's options.
    pub visible: visible::Options,
}

impl ContentOptions {
    /// The options of a first byte.
    pub fn from_byte(b: u8) -> ContentOptions {
        ContentOptions {
            scripting: b & 1 == 1,
            document_url: DOCUMENT_URLS[usize::from((b >> 1) & 3)]
                .map(|u| Url::parse(u).expect("a valid document URL")),
            main_text: htmltok_content::main_text::Options {
                min_chars: MIN_CHARS[usize::from((b >> 3) & 3)],
            },
            visible: visible::Options {
                noscript: b & 32 != 0,
            },
        }
    }
}

/// A URL the crate resolved parses as a URL.
fn check_url(what: &str, url: Option<&str>) -> Result<(), String> {
    match url {
        Some(u) => Url::parse(u)
            .map(drop)
            .map_err(|e| format!("{what} {u:?} does not parse: {e}")),
        None => Ok(()),
    }
}

fn check_metadata(m: &Metadata) -> Result<(), String> {
    check_url("base_url", m.base_url.as_deref())?;
    if let Some(c) = &m.canonical {
        check_url("canonical", c.url.as_deref())?;
    }
    if let Some(r) = &m.refresh {
        check_url("refresh", r.url.as_deref())?;
    }
    for a in &m.alternates {
        check_url("alternate", a.href.url.as_deref())?;
    }
    for l in &m.qualified_links {
        check_url("qualified link", l.href.url.as_deref())?;
    }
    Ok(())
}

fn check_main_text(m: &MainText) -> Result<(), String> {
    for (what, s) in [
        ("text", Some(&m.text)),
        ("title", m.title.as_ref()),
        ("byline", m.byline.as_ref()),
        ("date", m.date.as_ref()),
    ] {
        if s.is_some_and(|s| s.contains('\0')) {
            return Err(format!("main text's {what} holds a NUL"));
        }
    }
    if !(0.0..=1.0).contains(&m.confidence) {
        return Err(format!(
            "main text's confidence {} is not in [0, 1]",
            m.confidence
        ));
    }
    Ok(())
}

/// Everything the `content` target checks on one input.
pub fn check_content(html: &[u8], options: &ContentOptions) -> Result<(), String> {
    let parser = Parser::new().scripting(options.scripting);
    let doc = parser.parse(html);
    let url = options.document_url.as_ref();

    let main = main_text(&doc, &options.main_text);
    check_main_text(&main)?;
    let text_alone = htmltok_content::main_text::text(&doc, &options.main_text);
    if text_alone != main.text {
        return Err(format!(
            "main_text::text gives {text_alone:?}, main_text()'s text is {:?}",
            main.text
        ));
    }
    let meta = metadata(&doc, url);
    check_metadata(&meta)?;
    for l in &meta.qualified_links {
        if l.offset >= html.len() {
            return Err(format!(
                "a qualified link at {} of {} bytes",
                l.offset,
                html.len()
            ));
        }
    }
    let text = visible::visible_text(&doc, options.visible);
    if text.contains('\0') {
        return Err("the visible text holds a NUL".into());
    }

    let md_options = htmltok_content::markdown::Options {
        noscript: options.visible.noscript,
        url: options.document_url.clone(),
        ..Default::default()
    };
    let md = htmltok_content::markdown::markdown(&doc, &md_options);
    if md.contains('\0') {
        return Err("the Markdown holds a NUL".into());
    }
    let main_md = htmltok_content::main_text::markdown(&doc, &options.main_text, &md_options);
    let (main_with, md_with) =
        htmltok_content::main_text::with_markdown(&doc, &options.main_text, &md_options);
    if main_with != main || md_with != main_md {
        return Err("main_text::with_markdown differs from main_text() and markdown()".into());
    }

    // Deterministic: the same again, and the same from a tree that owns its input.
    if main_text(&doc, &options.main_text) != main {
        return Err("main_text differs on a second call".into());
    }
    if metadata(&doc, url) != meta {
        return Err("metadata differs on a second call".into());
    }
    if visible::visible_text(&doc, options.visible) != text {
        return Err("visible_text differs on a second call".into());
    }
    let owned = parser.parse_owned(html.to_vec());
    if main_text(&owned, &options.main_text) != main {
        return Err("main_text differs on the owned tree".into());
    }
    if metadata(&owned, url) != meta {
        return Err("metadata differs on the owned tree".into());
    }
    if visible::visible_text(&owned, options.visible) != text {
        return Err("visible_text differs on the owned tree".into());
    }
    if htmltok_content::markdown::markdown(&owned, &md_options) != md {
        return Err("markdown differs on the owned tree".into());
    }
    Ok(())
}
