//! The encoding sniffing algorithm (13.2.3.2) on bytes: BOM, transport label, prescan,
//! a late `<meta>` found by tokenizing, the detector, the default; and decoding with
//! the encoding decided.

use std::borrow::Cow;
use std::fmt;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

use super::prescan::{extract_from_meta_content, prescan};

/// How many bytes the detector is fed after the first non-ASCII byte. chardetng skips a
/// leading all-ASCII stretch cheaply (scripts and styles in the `<head>` are often tens of
/// kilobytes), so the cap counts from the first byte that can tell encodings apart; 64 KiB
/// of text is far more than the detector needs to settle, and it bounds the cost on
/// megabyte pages.
pub const DETECTOR_BYTES: usize = 64 * 1024;

/// Which step of the encoding sniffing algorithm decided the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A byte order mark (step 1). Its bytes are not part of [`Decoded::text`].
    Bom,
    /// The transport layer's charset, given by the caller (step 4).
    Transport,
    /// The prescan of the first 1,024 bytes found a `<meta>` declaration or an XML
    /// declaration (step 5).
    MetaPrescan,
    /// A `<meta>` the prescan did not see (usually one after the first 1,024 bytes)
    /// declared the encoding, as the tree builder's "change the encoding" (13.2.3.4) would
    /// switch to it: either it differs from the prescan's encoding, or the prescan found
    /// nothing (the detector is then not consulted: the declaration wins either way).
    LateMeta,
    /// The chardetng detector guessed it (step 8).
    Detector,
    /// Nothing to go on (an all-ASCII document with no declaration): windows-1252 (step 9).
    Default,
}

impl Rule {
    /// A short lowercase name for reports: `bom`, `transport`, `meta`, `late-meta`,
    /// `detector`, `default`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Bom => "bom",
            Rule::Transport => "transport",
            Rule::MetaPrescan => "meta",
            Rule::LateMeta => "late-meta",
            Rule::Detector => "detector",
            Rule::Default => "default",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A document transcoded to UTF-8, with how its encoding was decided.
#[derive(Clone, Debug)]
pub struct Decoded<'a> {
    /// The document as UTF-8, without the byte order mark. Borrowed from the input (no copy)
    /// when the encoding is UTF-8 and the bytes are valid UTF-8, or when the encoding is
    /// ASCII-compatible and the bytes are all ASCII.
    pub text: Cow<'a, str>,
    /// The encoding used (an [`Encoding`] of the Encoding Standard; `name()` gives its
    /// canonical name, such as `"Shift_JIS"` or `"windows-1252"`).
    pub encoding: &'static Encoding,
    /// Which step decided it.
    pub rule: Rule,
    /// Whether some bytes were malformed in that encoding and became U+FFFD.
    pub had_replacements: bool,
    /// The length of the byte order mark that was stripped (0, 2 or 3). Byte offsets into
    /// `text` are offsets into the input minus this, when the encoding is UTF-8.
    pub bom_len: usize,
}

/// Decides the encoding of `bytes` (see the [module documentation](super) for the order),
/// given the transport layer's charset label if there is one. Returns the encoding and the
/// rule that decided it.
pub fn sniff(bytes: &[u8], transport: Option<&str>) -> (&'static Encoding, Rule) {
    // Step 1: "If the result of BOM sniffing is an encoding, return that encoding with
    // confidence certain."
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return (encoding, Rule::Bom);
    }
    // Step 4: "If the transport layer specifies a character encoding, and it is supported,
    // return that encoding with the confidence certain."
    if let Some(encoding) = transport.and_then(|label| Encoding::for_label(label.as_bytes())) {
        return (encoding, Rule::Transport);
    }
    // The remaining steps give an encoding with the confidence *tentative*, which the
    // first `<meta>` declaring an encoding then confirms or changes (13.2.3.4).
    if let Some(tentative) = prescan(bytes) {
        // Step 5: "Optionally, prescan the byte stream to determine its encoding, with the
        // end condition being when the user agent decides that scanning further bytes
        // would not be efficient. User agents are encouraged to only prescan the first
        // 1024 bytes."
        return match declared_by_meta(bytes) {
            Some(declared) if declared != tentative => (declared, Rule::LateMeta),
            _ => (tentative, Rule::MetaPrescan),
        };
    }
    // Whatever steps 8 and 9 would guess, a declaring `<meta>` ends with its encoding (the
    // tree builder confirms a tentative encoding that agrees and reparses with it
    // otherwise), so it is looked for first and the detector is spared.
    if let Some(declared) = declared_by_meta(bytes) {
        return (declared, Rule::LateMeta);
    }
    if let Some(encoding) = detect(bytes) {
        // Step 8: "The user agent may attempt to autodetect the character encoding from
        // applying frequency analysis or other algorithms to the data stream."
        (encoding, Rule::Detector)
    } else {
        // Step 9: "Otherwise, return an implementation-defined or user-specified default
        // character encoding" — windows-1252, the table's "all other locales".
        (WINDOWS_1252, Rule::Default)
    }
}

/// 13.2.3.4 "Changing the encoding while parsing": the encoding the tree builder would
/// change to (or confirm) at the first `<meta>` start tag with a usable `charset` (or
/// `http-equiv=content-type` and `content`), for a document decoded with a tentative
/// ASCII-compatible encoding. The tags are found with this crate's tokenizer and its
/// tree-builder simulation (so a `<meta>` in a comment, a `<script>` or a `<title>` does
/// not count); insertion modes that ignore a `<meta>` (in select, in frameset) are not
/// modelled. None when no `<meta>` declares an encoding.
///
/// The raw bytes are tokenized as they are: every encoding a tentative decision can give
/// (the prescan, chardetng without ISO-2022-JP, the default) is ASCII-compatible, and the
/// bytes that delimit tokens (`<`, `>`, `=`, quotes, `/`, `!`, `-`, whitespace) are all
/// below 0x40, so they are never the second byte of a Shift_JIS, GBK or Big5 character:
/// the tokens are those of the decoded text.
fn declared_by_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    if !may_declare(bytes) {
        return None;
    }
    let mut tokenizer = htmltok::Tokenizer::new(bytes);
    while let Some(token) = tokenizer.next_token() {
        let htmltok::Token::StartTag(tag) = token else {
            continue;
        };
        if !tag.raw_name().eq_ignore_ascii_case(b"meta") {
            continue;
        }
        if let Some(declared) = meta_declares(|name| tag.attr(name).map(|attr| attr.value())) {
            return Some(declared);
        }
    }
    None
}

/// The encoding a `<meta>` element makes the tree builder change to (or confirm), given
/// its attributes (`attr` returns an attribute's decoded value by its lowercase name): the
/// "in head" insertion mode's rule for a start tag "meta" (13.2.6.4.4), then steps 2 and 3
/// of 13.2.3.4 "Changing the encoding while parsing". None when the element declares no
/// encoding this way (the rule then does nothing and the next `<meta>` is looked at).
///
/// The one place these steps are written: the token path ([`declared_by_meta`]) and the
/// tree path ([`decode_and_parse`], over the tree's
/// [`encoding_metas`](htmltok_tree::Document::encoding_metas)) both ask it.
pub(super) fn meta_declares<'v>(
    attr: impl Fn(&str) -> Option<Cow<'v, str>>,
) -> Option<&'static Encoding> {
    // "If the element has a charset attribute, and getting an encoding from its value
    // results in an encoding, and the confidence is currently tentative, then change the
    // encoding to the resulting encoding. Otherwise, if the element has an http-equiv
    // attribute whose value is an ASCII case-insensitive match for the string
    // "Content-Type", and the element has a content attribute, and applying the algorithm
    // for extracting a character encoding from a meta element to that attribute's value
    // returns an encoding, and the confidence is currently tentative, then change the
    // encoding to the extracted encoding."
    let from_charset = attr("charset").and_then(|charset| Encoding::for_label(charset.as_bytes()));
    let from_pragma = || {
        let pragma = attr("http-equiv")?;
        if !pragma.eq_ignore_ascii_case("content-type") {
            return None;
        }
        extract_from_meta_content(attr("content")?.as_bytes())
    };
    let mut new = from_charset.or_else(from_pragma)?;
    // "2. If the new encoding is UTF-16BE/LE, then change it to UTF-8."
    if new == UTF_16BE || new == UTF_16LE {
        new = UTF_8;
    }
    // "3. If the new encoding is x-user-defined, then change it to windows-1252."
    if new == X_USER_DEFINED {
        new = WINDOWS_1252;
    }
    // "4. If the new encoding is identical or equivalent to the encoding that is already
    // being used to interpret the input stream, then set the confidence to certain and
    // return." Otherwise the document is reparsed with the new encoding, confidence
    // certain: later declarations change nothing. (Step 1, "if the encoding already being
    // used is UTF-16BE/LE, return", is the caller's: the token path never meets it, as its
    // tentative encodings are ASCII-compatible; the tree path checks it.)
    Some(new)
}

/// Whether a `<meta>` start tag could declare an encoding: the bytes `<meta` (in any
/// ASCII case) occur, and after them the attribute name `charset` or `http-equiv` (in any
/// case). Attribute names are never decoded, so one of the two is there literally in any
/// declaring `<meta>`; `charset=` inside a `content` value could be written with a
/// character reference (`&#99;harset=`), but only with `http-equiv` beside it. Most
/// documents with a declaration have it in the prescan window (the pass then stops there),
/// and this rules out the documents that cannot have one without tokenizing them.
pub(super) fn may_declare(bytes: &[u8]) -> bool {
    let Some(meta) = crate::tag_open::find_tag_open(bytes, b"meta") else {
        return false;
    };
    let rest = &bytes[meta..];
    let word_at = |at: usize, word: &[u8]| {
        rest.get(at..at + word.len())
            .is_some_and(|found| found.eq_ignore_ascii_case(word))
    };
    memchr::memchr2_iter(b'c', b'C', rest).any(|at| word_at(at, b"charset"))
        || memchr::memchr2_iter(b'h', b'H', rest).any(|at| word_at(at, b"http-equiv"))
}

/// Decides the encoding of `bytes` with [`sniff`] and transcodes them to UTF-8: the byte
/// order mark, if it decided, is stripped; malformed sequences become U+FFFD as the
/// Encoding Standard's decoders say. No copy is made when the bytes already are what the
/// text must be (valid UTF-8 decoded as UTF-8, or all-ASCII bytes in an ASCII-compatible
/// encoding).
pub fn decode<'a>(bytes: &'a [u8], transport: Option<&str>) -> Decoded<'a> {
    let (encoding, rule) = sniff(bytes, transport);
    decode_as(bytes, encoding, rule)
}

/// Transcodes `bytes` from `encoding`, decided by `rule` (a byte order mark, when it
/// decided, is stripped).
pub(super) fn decode_as<'a>(
    bytes: &'a [u8],
    encoding: &'static Encoding,
    rule: Rule,
) -> Decoded<'a> {
    let bom_len = match rule {
        Rule::Bom => Encoding::for_bom(bytes).map_or(0, |(_, len)| len),
        _ => 0,
    };
    // The BOM is removed by re-slicing, so UTF-8 input stays borrowed; the decoder must
    // not look for a BOM again (the spec decodes the rest of the stream with the BOM
    // already consumed, so a second BOM is a U+FEFF character).
    let (text, had_replacements) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
    Decoded {
        text,
        encoding,
        rule,
        had_replacements,
        bom_len,
    }
}

/// Runs chardetng on `bytes` as a browser would for an undeclared page (no top-level
/// domain hint, ISO-2022-JP not a candidate) but allowing a UTF-8 guess, on the bytes up to
/// [`DETECTOR_BYTES`] past the first non-ASCII byte. Returns None when the bytes are all
/// ASCII: the guess would only be the default. Valid UTF-8 is answered without running
/// chardetng's models (it would answer UTF-8 too), at memory speed.
pub fn detect(bytes: &[u8]) -> Option<&'static Encoding> {
    detect_without_models(bytes).unwrap_or_else(Chardetng::guess)
}

/// What [`detect`] answers without running chardetng's models (all ASCII: None; valid
/// UTF-8: UTF-8), else the bytes chardetng must be fed.
fn detect_without_models(bytes: &[u8]) -> Result<Option<&'static Encoding>, Chardetng<'_>> {
    let first_non_ascii = Encoding::ascii_valid_up_to(bytes);
    if first_non_ascii == bytes.len() {
        return Ok(None);
    }
    let end = bytes
        .len()
        .min(first_non_ascii.saturating_add(DETECTOR_BYTES));
    let (fed, last) = (&bytes[..end], end == bytes.len());
    // chardetng guesses UTF-8 whenever the bytes it was fed are valid UTF-8 (its UTF-8
    // candidate is the Encoding Standard's decoder, which a prefix cut inside a character
    // does not fail) and UTF-8 is allowed. Checking that first gives the same answer at
    // memory speed instead of running its models.
    match std::str::from_utf8(fed) {
        Ok(_) => Ok(Some(UTF_8)),
        Err(error) if !last && error.error_len().is_none() => Ok(Some(UTF_8)),
        Err(_) => Err(Chardetng { fed, last }),
    }
}

/// Steps 8 and 9 with the decoding, for a caller that decodes the page anyway: bytes that
/// are valid UTF-8 are decided by the one validation that also gives their text (UTF-8
/// when some byte is not ASCII, as [`detect`] answers without chardetng; windows-1252,
/// the default, when all are, which decodes them the same). Otherwise what
/// [`detect_without_models`] answers, decoded, or chardetng's input. The same encodings
/// and rules as [`detect`] and the default; before, valid UTF-8 was checked twice (the
/// detector's prefix with `str::from_utf8`, then the whole page by the decoder).
pub(super) fn detect_and_decode(bytes: &[u8]) -> Result<Decoded<'_>, Chardetng<'_>> {
    if let Some(Cow::Borrowed(text)) =
        UTF_8.decode_without_bom_handling_and_without_replacement(bytes)
    {
        let (encoding, rule) = if Encoding::ascii_valid_up_to(bytes) == bytes.len() {
            (WINDOWS_1252, Rule::Default)
        } else {
            (UTF_8, Rule::Detector)
        };
        return Ok(Decoded {
            text: Cow::Borrowed(text),
            encoding,
            rule,
            had_replacements: false,
            bom_len: 0,
        });
    }
    match detect_without_models(bytes)? {
        Some(encoding) => Ok(decode_as(bytes, encoding, Rule::Detector)),
        None => Ok(decode_as(bytes, WINDOWS_1252, Rule::Default)),
    }
}

/// The bytes chardetng is fed (see [`detect`]); `last` when they are the whole document.
pub(super) struct Chardetng<'a> {
    fed: &'a [u8],
    last: bool,
}

impl Chardetng<'_> {
    /// chardetng's guess: costly per byte fed.
    pub(super) fn guess(self) -> Option<&'static Encoding> {
        let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
        // `last` only when the whole document was fed: chardetng then also judges how the
        // stream ends (an unfinished multi-byte sequence counts against an encoding).
        detector.feed(self.fed, self.last);
        Some(detector.guess(None, Utf8Detection::Allow))
    }
}
