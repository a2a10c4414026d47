//! The encoding decided with the tree that is parsed anyway: 13.2.3.4 "Changing the
//! encoding while parsing" as the tree builder meets the `<meta>`, instead of the token
//! path's extra pass ([`super::declared_by_meta`]).
//!
//! [`decode_and_parse`] runs the sniffing algorithm's certain steps (BOM, transport), else
//! gets a tentative encoding (the prescan, else the detector, else the default), decodes
//! with it and parses; then it walks the `meta` elements the tree builder's "in head"
//! `meta` rule read ([`htmltok_tree::Document::encoding_metas`]) with the rule's steps
//! ([`super::sniff::meta_declares`], shared with the token path), and the first that gives an
//! encoding decides: the same one confirms the tentative encoding, another one makes the
//! page be decoded and parsed again (the spec's reparse, confidence certain). The rules
//! are [`sniff`](super::sniff)'s with its meanings: a declaring `<meta>` after a prescan
//! answer that agrees is `MetaPrescan`; one that disagrees, or one without a prescan
//! answer, is `LateMeta` (even when the detector guessed the same encoding: then nothing
//! is parsed twice). One exception to the order, for speed with the same answers: without
//! a prescan answer, on bytes that are not UTF-8 and may hold a declaring `<meta>`, the
//! page is parsed first as windows-1252 and chardetng (far costlier a byte than a parse)
//! runs only when the tree has no declaration.
//!
//! Each byte's UTF-8 is checked once: the decoded text is parsed as a `&str`
//! ([`Parser::parse_str_owned`]), so the tree does not validate its texts again, and an
//! undeclared page that is valid UTF-8 is decided and decoded by the same validation
//! (`detect_and_decode`).
//!
//! Where the token path's simulation and the tree disagree, the tree is right: a `<meta>`
//! after `<frameset>` or in "after frameset" is ignored by the tree builder (not an
//! element), which the simulation does not model.

use std::borrow::Cow;

use htmltok_tree::{DocumentView, OwnedDocument, Parser};

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};

use super::prescan::prescan;
use super::sniff::{Decoded, Rule, decode_as, detect_and_decode, may_declare, meta_declares};

/// A page decoded and parsed by [`decode_and_parse`]: the tree (over the decoded UTF-8, as
/// `I`) and how its encoding was decided.
#[derive(Debug)]
pub struct Parsed<I> {
    /// The tree of the page decoded with [`Parsed::encoding`]; its input is the decoded
    /// UTF-8 (without the byte order mark).
    pub document: OwnedDocument<I>,
    /// The encoding used.
    pub encoding: &'static Encoding,
    /// Which step decided it.
    pub rule: Rule,
    /// Whether some bytes were malformed in that encoding and became U+FFFD.
    pub had_replacements: bool,
    /// The length of the byte order mark that was stripped (0, 2 or 3).
    pub bom_len: usize,
}

/// Decides the encoding of `bytes` as a browser does while it parses them, decodes them and
/// parses the result with `parser`: one parse, two when a `<meta>` the prescan did not see
/// names another encoding than the tentative one. The tree's input is the decoded UTF-8,
/// borrowed from `bytes` where decoding changed nothing (see [`super::decode`]).
///
/// The encoding and rule are those of [`super::sniff`] except where its tokenizer's
/// simulation of the tree builder is wrong: a `<meta>` after `<frameset>` is ignored by
/// the tree builder (no element, no encoding change), and a `<meta>` in a `<noscript>` in
/// the head counts only with `parser`'s scripting flag off, as in the tree it builds.
/// Every page of the shared corpus is decided the same by both.
///
/// ```
/// use htmltok_crawl::encoding::{Rule, decode_and_parse};
///
/// // A late declaration: the tree is the one of the page decoded as windows-1251.
/// let mut page = b"<title>\xcf\xf0\xe8\xe2\xe5\xf2</title>".to_vec();
/// page.extend(b"<!-- padding -->".repeat(70));
/// page.extend(b"<meta charset=windows-1251>");
/// let parsed = decode_and_parse(&page, None, &htmltok_tree::Parser::new());
/// assert_eq!((parsed.encoding.name(), parsed.rule), ("windows-1251", Rule::LateMeta));
/// assert_eq!(parsed.document.title().as_deref(), Some("Привет"));
/// ```
pub fn decode_and_parse<'a>(
    bytes: &'a [u8],
    transport: Option<&str>,
    parser: &Parser,
) -> Parsed<Cow<'a, [u8]>> {
    decode_and_parse_into(bytes, transport, parser, |text| match text {
        Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
        Cow::Owned(text) => Cow::Owned(text.into_bytes()),
    })
}

/// [`decode_and_parse`] with the tree's input made by `input` from the decoded text (for a
/// caller that holds its text in its own type, such as a handle on a Python `bytes`).
/// `input` is called once per parse (twice on a reparse) and must give the text's bytes;
/// the returned document's input is the one its last call made.
pub fn decode_and_parse_into<'a, I: AsRef<[u8]>>(
    bytes: &'a [u8],
    transport: Option<&str>,
    parser: &Parser,
    mut input: impl FnMut(Cow<'a, str>) -> I,
) -> Parsed<I> {
    let mut parse = |decoded: Decoded<'a>| {
        let borrowed = matches!(decoded.text, Cow::Borrowed(_));
        let parsed = Parsed {
            // Parsed as a `&str`: the decoding validated (or made) the UTF-8, so the tree
            // does not check each text's again.
            document: parser.parse_str_owned(decoded.text, &mut input),
            encoding: decoded.encoding,
            rule: decoded.rule,
            had_replacements: decoded.had_replacements,
            bom_len: decoded.bom_len,
        };
        (parsed, borrowed)
    };
    // Step 1 (BOM sniffing) and step 4 (the transport layer's encoding): "with the
    // confidence certain", so no `<meta>` changes anything.
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return parse(decode_as(bytes, encoding, Rule::Bom)).0;
    }
    if let Some(encoding) = transport.and_then(|label| Encoding::for_label(label.as_bytes())) {
        return parse(decode_as(bytes, encoding, Rule::Transport)).0;
    }
    // Steps 5, 8 and 9: the tentative encoding.
    let decoded = match prescan(bytes) {
        Some(encoding) => decode_as(bytes, encoding, Rule::MetaPrescan),
        // Valid UTF-8 (all ASCII among it) is decided and decoded by one validation.
        None => match detect_and_decode(bytes) {
            Ok(decoded) => decoded,
            // chardetng costs far more per byte than a parse, and a declaring `<meta>`
            // wins over its guess: when one may be there, the page is parsed first as
            // windows-1252 (the tree's elements are the same in every
            // ASCII-compatible encoding: the bytes that delimit tokens and the ASCII
            // whitespace that steers the insertion modes are never part of a multi-byte
            // character), and chardetng runs only when the tree has no declaration.
            Err(chardetng) if may_declare(bytes) => {
                let (parsed, _) = parse(decode_as(bytes, WINDOWS_1252, Rule::Detector));
                let (encoding, rule) = match declared_by_tree(&parsed.document) {
                    Some(declared) => (declared, Rule::LateMeta),
                    None => (chardetng.guess().unwrap_or(WINDOWS_1252), Rule::Detector),
                };
                if encoding == WINDOWS_1252 {
                    return Parsed { rule, ..parsed };
                }
                drop(parsed);
                return parse(decode_as(bytes, encoding, rule)).0;
            }
            Err(chardetng) => {
                let guess = chardetng.guess().unwrap_or(WINDOWS_1252);
                decode_as(bytes, guess, Rule::Detector)
            }
        },
    };
    let (tentative, rule) = (decoded.encoding, decoded.rule);
    let (mut parsed, borrowed) = parse(decoded);
    // 13.2.3.4 step 1: "If the encoding that is already being used to interpret the input
    // stream is UTF-16BE/LE, then set the confidence to certain and return." (A UTF-16
    // tentative encoding comes from the prescan's UTF-16 `<?x` declarations.)
    if tentative == UTF_16BE || tentative == UTF_16LE {
        return parsed;
    }
    let Some(declared) = declared_by_tree(&parsed.document) else {
        return parsed;
    };
    if declared == tentative {
        // Step 4: "If the new encoding is identical or equivalent to the encoding that is
        // already being used to interpret the input stream, then set the confidence to
        // certain and return." Without a prescan answer the declaration is what decided
        // (see `Rule::LateMeta`).
        if rule != Rule::MetaPrescan {
            parsed.rule = Rule::LateMeta;
        }
        return parsed;
    }
    // Steps 5 and 6: "Otherwise, navigate to the document again, with …, and with the
    // encoding set to the new encoding, and confidence certain."
    if borrowed && tentative != UTF_8 && declared.is_ascii_compatible() {
        // A decoding other than UTF-8 left the input as it is only when it is all ASCII,
        // which every ASCII-compatible encoding decodes the same, without replacements:
        // the same tree, known without decoding (validating) the page again.
        parsed.encoding = declared;
        parsed.rule = Rule::LateMeta;
        parsed.had_replacements = false;
        return parsed;
    }
    let again = decode_as(bytes, declared, Rule::LateMeta);
    if borrowed && matches!(again.text, Cow::Borrowed(_)) {
        // Both decodings are the input itself (all ASCII, or UTF-8 that a tentative
        // encoding decoded the same): the second parse would build the same tree.
        parsed.encoding = declared;
        parsed.rule = Rule::LateMeta;
        parsed.had_replacements = again.had_replacements;
        return parsed;
    }
    drop(parsed);
    parse(again).0
}

/// The encoding the first `meta` element the tree builder read declares, by the "in head"
/// `meta` rule's steps.
fn declared_by_tree(document: &impl DocumentView) -> Option<&'static Encoding> {
    document
        .view()
        .encoding_metas()
        .find_map(|meta| meta_declares(|name| meta.attr(name)))
}
