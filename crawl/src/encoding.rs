//! Deciding a document's character encoding the way a browser does, and transcoding it to
//! UTF-8.
//!
//! The tokenizer reads UTF-8. Real pages come in Shift_JIS, windows-1251, GBK, UTF-16 and
//! the rest; this module turns their bytes into UTF-8 text first, following HTML § 13.2.3.2
//! "Determining the character encoding" (the *encoding sniffing algorithm*) in this order:
//!
//! | step | [`Rule`] | what decides | spec |
//! |---|---|---|---|
//! | 1 | [`Rule::Bom`] | a UTF-8, UTF-16LE or UTF-16BE byte order mark (stripped) | 13.2.3.2 step 1, BOM sniffing |
//! | 2 | [`Rule::Transport`] | the caller's charset label (HTTP `Content-Type`, `--charset`), if [`Encoding::for_label`] knows it | step 4 |
//! | 3 | [`Rule::MetaPrescan`] | [`prescan`] of the first 1,024 bytes: `<meta charset>`, `<meta http-equiv=content-type content=…>`, an XML declaration | step 5 |
//! | 4 | [`Rule::LateMeta`] | the first `<meta>` declaring an encoding that the tokenizer meets: after 3, when it names another encoding; without 3, always | 13.2.3.4, "change the encoding" |
//! | 5 | [`Rule::Detector`] | chardetng (Firefox's detector), UTF-8 allowed, no TLD hint, fed up to 64 KiB past the first non-ASCII byte ([`DETECTOR_BYTES`]) | step 8 |
//! | 6 | [`Rule::Default`] | windows-1252: the document is all ASCII, so the detector has nothing to go on | step 9 |
//!
//! An unknown transport label is ignored, as the spec says ("if it is supported"). The
//! prescan's result gets the spec's two corrections: UTF-16 from a `<meta>` becomes UTF-8
//! (the bytes could not have been read as ASCII otherwise) and x-user-defined becomes
//! windows-1252. Labels are resolved with the Encoding Standard's table through
//! [`Encoding::for_label`], so `iso-8859-1` and `ascii` mean windows-1252, `gb2312` means
//! GBK, `x-sjis` means Shift_JIS, and the `replacement` labels (`iso-2022-kr`, …) decode
//! the whole document to one U+FFFD, as in a browser.
//!
//! Step 4 is what a browser does when the tree builder meets a `<meta charset>` while the
//! encoding is still tentative: it reparses the page with the declared encoding (WebKit and
//! Chromium also keep prescanning the `<head>` past 1,024 bytes). It matters for pages
//! whose declaration comes after a long `<head>` preamble: of the corpus's two such pages
//! the detector alone decodes one (French, windows-1252, a single non-ASCII byte) as Big5.
//! The declared encoding is the final one whatever the tentative encoding was (the tree
//! builder either confirms it or reparses with it), so when the prescan found nothing the
//! late `<meta>` is looked for *before* the detector, which then never runs: chardetng
//! costs far more per byte it is fed than the tokenizer. (The rule is then `LateMeta`
//! even when the detector would have guessed the same encoding.) Only
//! documents with a `<meta` followed somewhere by the word `charset` or `http-equiv` get
//! this extra tokenizing pass, and it stops at the first declaration. Not modelled: a parent frame's encoding, the user's
//! override, locale-specific defaults (steps 2, 6, 7 and 9's table: there is no browsing
//! context), and the insertion modes in which the tree builder ignores a `<meta>`.
//!
//! Where a tree is parsed anyway, [`decode_and_parse`] decides step 4 with the tree
//! instead of the extra tokenizing pass: it decodes with the tentative encoding (the
//! prescan's, else the detector's, else the default), parses, and walks the `meta`
//! elements the tree builder's "in head" `meta` rule read
//! ([`htmltok_tree::Document::encoding_metas`]); one naming another encoding makes it
//! decode and parse again, as a browser reparses. The rules keep their meanings; the spec
//! steps that turn a `<meta>`'s attributes into an encoding are written once, for both
//! paths. The token path ([`sniff`], [`decode`]) stays for callers that read tokens only.
//!
//! ```
//! use htmltok_crawl::encoding::{decode, Rule};
//!
//! let page = b"<meta charset=windows-1251><title>\xcf\xf0\xe8\xe2\xe5\xf2</title>";
//! let doc = decode(page, None);
//! assert_eq!((doc.encoding.name(), doc.rule), ("windows-1251", Rule::MetaPrescan));
//! assert!(doc.text.contains("<title>Привет</title>"));
//!
//! // Plain UTF-8 is not copied.
//! let doc = decode("<p>déjà vu".as_bytes(), Some("utf-8"));
//! assert!(matches!(doc.text, std::borrow::Cow::Borrowed(_)));
//! ```

use std::borrow::Cow;
use std::fmt;

mod by_tree;

pub use by_tree::{Parsed, decode_and_parse, decode_and_parse_into};

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
pub use encoding_rs::Encoding;
use encoding_rs::{UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the `<meta>` prescan looks at: the spec encourages 1,024 and authors must
/// put the declaration within them (§ 4.2.5.4).
pub const PRESCAN_BYTES: usize = 1024;

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

/// Decides the encoding of `bytes` (see the [module documentation](self) for the order),
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
pub(crate) fn meta_declares<'v>(
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
fn may_declare(bytes: &[u8]) -> bool {
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
fn decode_as<'a>(bytes: &'a [u8], encoding: &'static Encoding, rule: Rule) -> Decoded<'a> {
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
fn detect_and_decode(bytes: &[u8]) -> Result<Decoded<'_>, Chardetng<'_>> {
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
struct Chardetng<'a> {
    fed: &'a [u8],
    last: bool,
}

impl Chardetng<'_> {
    /// chardetng's guess: costly per byte fed.
    fn guess(self) -> Option<&'static Encoding> {
        let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
        // `last` only when the whole document was fed: chardetng then also judges how the
        // stream ends (an unfinished multi-byte sequence counts against an encoding).
        detector.feed(self.fed, self.last);
        Some(detector.guess(None, Utf8Detection::Allow))
    }
}

// ---------------------------------------------------------------------------------------
// 13.2.3.2: "prescan a byte stream to determine its encoding"
// ---------------------------------------------------------------------------------------

/// The spec's "prescan a byte stream to determine its encoding" on the first
/// [`PRESCAN_BYTES`] bytes (the end condition), including its abort path, "get an XML
/// encoding". Returns the encoding a `<meta charset>`, a `<meta http-equiv=content-type
/// content="…; charset=…">`, a UTF-16 `<?x` or an `<?xml … encoding=…?>` declaration
/// names, with UTF-16 from a `<meta>` or an XML declaration turned into UTF-8 and
/// x-user-defined into windows-1252; None when there is none or its label is unknown.
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let input = &bytes[..bytes.len().min(PRESCAN_BYTES)];
    match Prescan::new(input).run() {
        Ok(encoding) => Some(encoding),
        // "If at any point during these steps … the user agent either runs out of bytes …
        // or reaches its end condition, then abort the prescan a byte stream to determine
        // its encoding algorithm and return the result get an XML encoding applied to the
        // same bytes that the prescan … algorithm was applied to."
        Err(OutOfBytes) => get_an_xml_encoding(input),
    }
}

/// The prescan ran out of bytes (the position pointer went past the end of the first
/// 1,024 bytes): the algorithm aborts.
struct OutOfBytes;

/// One step of the prescan: a value, or the abort.
type Step<T> = Result<T, OutOfBytes>;

/// The prescan's `charset` variable: "the null value (which, for the purposes of this
/// algorithm, is distinct from an unrecognized encoding or the empty string)".
#[derive(Clone, Copy)]
enum Charset {
    Null,
    Failure,
    Encoding(&'static Encoding),
}

/// An attribute as the "get an attribute" algorithm returns it (name and value lowercased
/// in ASCII, other bytes kept as they are). The buffers are reused from attribute to
/// attribute.
#[derive(Default)]
struct Attribute {
    name: Vec<u8>,
    value: Vec<u8>,
}

/// The prescan's state: the input (at most 1,024 bytes) and the `position` pointer.
struct Prescan<'a> {
    input: &'a [u8],
    position: usize,
}

/// HT, LF, FF, CR, SP: the bytes the prescan treats as whitespace.
fn is_space(byte: u8) -> bool {
    matches!(byte, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

impl<'a> Prescan<'a> {
    /// "1. Let position be a pointer to a byte in the input byte stream, initially pointing
    /// at the first byte."
    fn new(input: &'a [u8]) -> Self {
        Prescan { input, position: 0 }
    }

    /// The byte at `position`, or the abort when the pointer is past the end.
    fn byte(&self) -> Step<u8> {
        self.input.get(self.position).copied().ok_or(OutOfBytes)
    }

    /// The bytes from `position` on (empty past the end).
    fn rest(&self) -> &'a [u8] {
        self.input.get(self.position..).unwrap_or_default()
    }

    /// Steps 2 to 4: the UTF-16 XML declarations, then the loop over the bytes.
    fn run(&mut self) -> Step<&'static Encoding> {
        // "2. Prescan for UTF-16 XML declarations: If position points to:"
        // "A sequence of bytes starting with: 0x3C, 0x0, 0x3F, 0x0, 0x78, 0x0
        // (case-sensitive UTF-16 little-endian '<?x')": "Return UTF-16LE."
        if self.input.starts_with(b"<\0?\0x\0") {
            return Ok(UTF_16LE);
        }
        // "A sequence of bytes starting with: 0x0, 0x3C, 0x0, 0x3F, 0x0, 0x78
        // (case-sensitive UTF-16 big-endian '<?x')": "Return UTF-16BE."
        if self.input.starts_with(b"\0<\0?\0x") {
            return Ok(UTF_16BE);
        }
        loop {
            // "3. Loop: If position points to:" (a pointer past the end aborts)
            let rest = self.rest();
            if rest.is_empty() {
                return Err(OutOfBytes);
            }
            if rest.starts_with(b"<!--") {
                self.skip_comment()?;
            } else if is_meta_start(rest) {
                if let Some(encoding) = self.meta()? {
                    return Ok(encoding);
                }
            } else if is_tag_start(rest) {
                self.skip_tag()?;
            } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?")
            {
                self.skip_to_greater_than()?;
            }
            // "Any other byte": "Do nothing with that byte."
            // "4. Next byte: Move position so it points at the next byte in the input byte
            // stream, and return to the step above labeled loop."
            self.position += 1;
        }
    }

    /// "A sequence of bytes starting with: 0x3C 0x21 0x2D 0x2D (`<!--`)": "Advance the
    /// position pointer so that it points at the first 0x3E byte which is preceded by two
    /// 0x2D bytes (i.e. at the end of an ASCII '-->' sequence) and comes after the 0x3C
    /// byte that was found. (The two 0x2D bytes can be the same as those in the '<!--'
    /// sequence.)"
    fn skip_comment(&mut self) -> Step<()> {
        let from = self.position + 2; // the "--" of "<!--" may end the comment: `<!-->`
        match memchr::memmem::find(&self.input[from..], b"-->") {
            Some(at) => {
                self.position = from + at + 2;
                Ok(())
            }
            None => Err(OutOfBytes),
        }
    }

    /// "A sequence of bytes starting with: 0x3C 0x21 (`<!`)", "… 0x3C 0x2F (`</`)",
    /// "… 0x3C 0x3F (`<?`)": "Advance the position pointer so that it points at the first
    /// 0x3E byte (>) that comes after the 0x3C byte that was found."
    fn skip_to_greater_than(&mut self) -> Step<()> {
        let from = self.position + 1;
        match memchr::memchr(b'>', &self.input[from..]) {
            Some(at) => {
                self.position = from + at;
                Ok(())
            }
            None => Err(OutOfBytes),
        }
    }

    /// "A sequence of bytes starting with a 0x3C byte (<), optionally a 0x2F byte (/), and
    /// finally a byte in the range 0x41-0x5A or 0x61-0x7A (A-Z or a-z)":
    fn skip_tag(&mut self) -> Step<()> {
        // "1. Advance the position pointer so that it points at the next 0x09 (HT), 0x0A
        // (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E (>) byte."
        loop {
            let byte = self.byte()?;
            if is_space(byte) || byte == b'>' {
                break;
            }
            self.position += 1;
        }
        // "2. Repeatedly get an attribute until no further attributes can be found, then
        // jump to the step below labeled next byte."
        let mut attribute = Attribute::default();
        while self.get_an_attribute(&mut attribute)? {}
        Ok(())
    }

    /// "A sequence of bytes starting with: 0x3C, 0x4D or 0x6D, 0x45 or 0x65, 0x54 or 0x74,
    /// 0x41 or 0x61, and one of 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x2F (case-insensitive ASCII
    /// '<meta' followed by a space or slash)": steps 1 to 16. Returns the encoding, or
    /// None to go on with the next byte.
    fn meta(&mut self) -> Step<Option<&'static Encoding>> {
        // "1. Advance the position pointer so that it points at the next 0x09, 0x0A, 0x0C,
        // 0x0D, 0x20, or 0x2F byte (the one in sequence of characters matched above)."
        self.position += 5;
        // "2. Let attribute list be an empty list of strings."
        let mut attribute_list: Vec<Vec<u8>> = Vec::new();
        // "3. Let got pragma be false."
        let mut got_pragma = false;
        // "4. Let need pragma be null."
        let mut need_pragma: Option<bool> = None;
        // "5. Let charset be the null value."
        let mut charset = Charset::Null;
        // "6. Attributes: Get an attribute and its value. If no attribute was sniffed, then
        // jump to the processing step below."
        let mut attribute = Attribute::default();
        while self.get_an_attribute(&mut attribute)? {
            // "7. If the attribute's name is already in attribute list, then return to the
            // step labeled attributes."
            if attribute_list.contains(&attribute.name) {
                continue;
            }
            // "8. Add the attribute's name to attribute list."
            attribute_list.push(attribute.name.clone());
            // "9. Run the appropriate step from the following list, if one applies:"
            match attribute.name.as_slice() {
                // "If the attribute's name is "http-equiv"": "If the attribute's value is
                // "content-type", then set got pragma to true."
                b"http-equiv" => got_pragma |= attribute.value == b"content-type",
                // "If the attribute's name is "content"": "Apply the algorithm for
                // extracting a character encoding from a meta element, giving the
                // attribute's value as the string to parse. If a character encoding is
                // returned, and if charset is still set to null, let charset be the
                // encoding returned, and set need pragma to true."
                b"content" => {
                    if let Some(encoding) = extract_from_meta_content(&attribute.value)
                        && matches!(charset, Charset::Null)
                    {
                        charset = Charset::Encoding(encoding);
                        need_pragma = Some(true);
                    }
                }
                // "If the attribute's name is "charset"": "Let charset be the result of
                // getting an encoding from the attribute's value, and set need pragma to
                // false."
                b"charset" => {
                    charset = match Encoding::for_label(&attribute.value) {
                        Some(encoding) => Charset::Encoding(encoding),
                        None => Charset::Failure,
                    };
                    need_pragma = Some(false);
                }
                _ => {}
            }
            // "10. Return to the step labeled attributes."
        }
        // "11. Processing: If need pragma is null, then jump to the step below labeled next
        // byte."
        // "12. If need pragma is true but got pragma is false, then jump to the step below
        // labeled next byte."
        match need_pragma {
            None => return Ok(None),
            Some(true) if !got_pragma => return Ok(None),
            Some(_) => {}
        }
        // "13. If charset is failure, then jump to the step below labeled next byte."
        let Charset::Encoding(mut encoding) = charset else {
            return Ok(None);
        };
        // "14. If charset is UTF-16BE/LE, then set charset to UTF-8."
        if encoding == UTF_16BE || encoding == UTF_16LE {
            encoding = UTF_8;
        }
        // "15. If charset is x-user-defined, then set charset to windows-1252."
        if encoding == X_USER_DEFINED {
            encoding = WINDOWS_1252;
        }
        // "16. Return charset."
        Ok(Some(encoding))
    }

    /// The spec's "get an attribute": fills `attribute` and returns true, or returns false
    /// when there is none (the byte at `position` is `>`), or aborts past the end.
    fn get_an_attribute(&mut self, attribute: &mut Attribute) -> Step<bool> {
        // "1. If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR),
        // 0x20 (SP), or 0x2F (/), then advance position to the next byte and redo this
        // step."
        loop {
            let byte = self.byte()?;
            if !(is_space(byte) || byte == b'/') {
                break;
            }
            self.position += 1;
        }
        // "2. If the byte at position is 0x3E (>), then abort the get an attribute
        // algorithm. There isn't one."
        if self.byte()? == b'>' {
            return Ok(false);
        }
        // "3. Otherwise, the byte at position is the start of the attribute name. Let
        // attribute name and attribute value be the empty string."
        attribute.name.clear();
        attribute.value.clear();
        // "4. Process the byte at position as follows:" / "5. Advance position to the next
        // byte and return to the previous step."
        let at_value = loop {
            match self.byte()? {
                // "If it is 0x3D (=), and the attribute name is longer than the empty
                // string": "Advance position to the next byte and jump to the step below
                // labeled value."
                b'=' if !attribute.name.is_empty() => {
                    self.position += 1;
                    break true;
                }
                // "If it is 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), or 0x20 (SP)":
                // "Jump to the step below labeled spaces."
                byte if is_space(byte) => break false,
                // "If it is 0x2F (/) or 0x3E (>)": "Abort the get an attribute algorithm.
                // The attribute's name is the value of attribute name, its value is the
                // empty string."
                b'/' | b'>' => return Ok(true),
                // "If it is in the range 0x41 (A) to 0x5A (Z)": append b+0x20; "Anything
                // else": append the byte.
                byte => attribute.name.push(byte.to_ascii_lowercase()),
            }
            self.position += 1;
        };
        if !at_value {
            // "6. Spaces: If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C
            // (FF), 0x0D (CR), or 0x20 (SP), then advance position to the next byte, then,
            // repeat this step."
            while is_space(self.byte()?) {
                self.position += 1;
            }
            // "7. If the byte at position is not 0x3D (=), abort the get an attribute
            // algorithm. The attribute's name is the value of attribute name, its value
            // is the empty string."
            if self.byte()? != b'=' {
                return Ok(true);
            }
            // "8. Advance position past the 0x3D (=) byte."
            self.position += 1;
        }
        // "9. Value: If the byte at position is one of 0x09 (HT), 0x0A (LF), 0x0C (FF),
        // 0x0D (CR), or 0x20 (SP), then advance position to the next byte, then, repeat
        // this step."
        while is_space(self.byte()?) {
            self.position += 1;
        }
        // "10. Process the byte at position as follows:"
        match self.byte()? {
            // "If it is 0x22 (") or 0x27 (')":
            quote @ (b'"' | b'\'') => loop {
                // "2. Quote loop: Advance position to the next byte."
                self.position += 1;
                let byte = self.byte()?;
                // "3. If the value of the byte at position is the value of b, then advance
                // position to the next byte and abort the "get an attribute" algorithm."
                if byte == quote {
                    self.position += 1;
                    return Ok(true);
                }
                // "4./5." append the byte, A-Z lowercased; "6. Return to the step above
                // labeled quote loop."
                attribute.value.push(byte.to_ascii_lowercase());
            },
            // "If it is 0x3E (>)": "Abort the get an attribute algorithm. The attribute's
            // name is the value of attribute name, its value is the empty string."
            b'>' => return Ok(true),
            // A-Z lowercased, anything else as is; "Advance position to the next byte."
            byte => {
                attribute.value.push(byte.to_ascii_lowercase());
                self.position += 1;
            }
        }
        // "11. Process the byte at position as follows:" / "12. Advance position to the
        // next byte and return to the previous step."
        loop {
            let byte = self.byte()?;
            // "If it is 0x09 (HT), 0x0A (LF), 0x0C (FF), 0x0D (CR), 0x20 (SP), or 0x3E
            // (>)": "Abort the get an attribute algorithm. The attribute's name is the
            // value of attribute name and its value is the value of attribute value."
            if is_space(byte) || byte == b'>' {
                return Ok(true);
            }
            attribute.value.push(byte.to_ascii_lowercase());
            self.position += 1;
        }
    }
}

/// Case-insensitive `<meta` followed by a space or a slash.
fn is_meta_start(rest: &[u8]) -> bool {
    rest.len() >= 6
        && rest[..5].eq_ignore_ascii_case(b"<meta")
        && (is_space(rest[5]) || rest[5] == b'/')
}

/// `<`, an optional `/`, then an ASCII letter.
fn is_tag_start(rest: &[u8]) -> bool {
    match rest {
        [b'<', b'/', letter, ..] | [b'<', letter, ..] => letter.is_ascii_alphabetic(),
        _ => false,
    }
}

/// HTML § 2.6.4 (urls-and-fetching) "algorithm for extracting a character encoding from a
/// meta element", given the `content` attribute's value. None is the spec's "nothing" and
/// also "getting an encoding" returning failure.
fn extract_from_meta_content(s: &[u8]) -> Option<&'static Encoding> {
    // "1. Let position be a pointer into s, initially pointing at the start of the string."
    let mut position = 0;
    loop {
        // "2. Loop: Find the first seven characters in s after position that are an ASCII
        // case-insensitive match for the word "charset". If no such match is found, return
        // nothing."
        let found = s[position..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        position += found + 7;
        // "3. Skip any ASCII whitespace that immediately follow the word "charset" (there
        // might not be any)."
        while s.get(position).is_some_and(|&b| is_space(b)) {
            position += 1;
        }
        // "4. If the next character is not a U+003D EQUALS SIGN (=), then move position to
        // point just before that next character, and jump back to the step labeled loop."
        if s.get(position) != Some(&b'=') {
            continue;
        }
        position += 1;
        // "5. Skip any ASCII whitespace that immediately follow the equals sign (there
        // might not be any)."
        while s.get(position).is_some_and(|&b| is_space(b)) {
            position += 1;
        }
        // "6. Process the next character as follows:"
        return match s.get(position) {
            // "If there is no next character": "Return nothing."
            None => None,
            // "If it is a U+0022 (") and there is a later U+0022 (") in s", same for
            // U+0027 ('): "Return the result of getting an encoding from the substring that
            // is between this character and the next earliest occurrence of this
            // character." An unmatched quote: "Return nothing."
            Some(&quote @ (b'"' | b'\'')) => {
                let value = &s[position + 1..];
                let end = memchr::memchr(quote, value)?;
                Encoding::for_label(&value[..end])
            }
            // "Otherwise": "Return the result of getting an encoding from the substring that
            // consists of this character up to but not including the first ASCII
            // whitespace or U+003B SEMICOLON character (;), or the end of s, whichever
            // comes first."
            Some(_) => {
                let value = &s[position..];
                let end = value
                    .iter()
                    .position(|&b| is_space(b) || b == b';')
                    .unwrap_or(value.len());
                Encoding::for_label(&value[..end])
            }
        };
    }
}

/// The spec's "get an XML encoding", run when the prescan aborts: an `encoding="…"` in an
/// `<?xml` declaration at the very start.
fn get_an_xml_encoding(input: &[u8]) -> Option<&'static Encoding> {
    // "1. Let encodingPosition be a pointer to the start of the stream."
    // "2. If encodingPosition does not point to the start of a byte sequence 0x3C, 0x3F,
    // 0x78, 0x6D, 0x6C (`<?xml`), then return failure."
    if !input.starts_with(b"<?xml") {
        return None;
    }
    // "3. Let xmlDeclarationEnd be a pointer to the next byte in the input byte stream
    // which is 0x3E (>). If there is no such byte, then return failure."
    let declaration = &input[..memchr::memchr(b'>', input)?];
    // "4. Set encodingPosition to the position of the first occurrence of the subsequence
    // of bytes `encoding` at or after the current encodingPosition. If there is no such
    // sequence, then return failure." (Searched within the declaration, which is what
    // xmlDeclarationEnd is for, as in WebKit and Chromium.)
    // "5. Advance encodingPosition past the 0x67 (g) byte."
    let mut position = memchr::memmem::find(declaration, b"encoding")? + 8;
    // "6. While the byte at encodingPosition is less than or equal to 0x20 (i.e., it is
    // either an ASCII space or control character), advance encodingPosition to the next
    // byte."
    while declaration.get(position).is_some_and(|&b| b <= 0x20) {
        position += 1;
    }
    // "7. If the byte at encodingPosition is not 0x3D (=), then return failure."
    if declaration.get(position) != Some(&b'=') {
        return None;
    }
    // "8. Advance encodingPosition to the next byte."
    position += 1;
    // "9. While the byte at encodingPosition is less than or equal to 0x20 …, advance
    // encodingPosition to the next byte."
    while declaration.get(position).is_some_and(|&b| b <= 0x20) {
        position += 1;
    }
    // "10. Let quoteMark be the byte at encodingPosition."
    // "11. If quoteMark is not either 0x22 (") or 0x27 ('), then return failure."
    let quote = *declaration.get(position)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    // "12. Advance encodingPosition to the next byte."
    position += 1;
    // "13. Let encodingEndPosition be the position of the next occurrence of quoteMark at
    // or after encodingPosition. If quoteMark does not occur again, then return failure."
    let length = memchr::memchr(quote, &declaration[position..])?;
    // "14. Let potentialEncoding be the sequence of the bytes between encodingPosition
    // (inclusive) and encodingEndPosition (exclusive)."
    let potential = &declaration[position..position + length];
    // "15. If potentialEncoding contains one or more bytes whose byte value is 0x20 or
    // below, then return failure."
    if potential.iter().any(|&b| b <= 0x20) {
        return None;
    }
    // "16. Let encoding be the result of getting an encoding given potentialEncoding
    // isomorphic decoded."
    let encoding = Encoding::for_label(potential)?;
    // "17. If the encoding is UTF-16BE/LE, then change it to UTF-8."
    if encoding == UTF_16BE || encoding == UTF_16LE {
        return Some(UTF_8);
    }
    // "18. Return encoding."
    Some(encoding)
}

// ---------------------------------------------------------------------------------------
// HTTP: the charset of a Content-Type header
// ---------------------------------------------------------------------------------------

/// The `charset` parameter of an HTTP `Content-Type` header value, the transport charset
/// to pass to [`sniff`] or [`decode`] (resolve it with [`Encoding::for_label`], which
/// [`sniff`] does): the archive crate's, which the WARC reader uses for a record's charset.
pub use htmltok_archive::mime::charset_from_content_type;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_an_attribute_forms() {
        let cases: &[(&[u8], Option<&str>)] = &[
            (b"<meta charset=koi8-r>", Some("KOI8-R")),
            (b"<META CHARSET='Big5'>", Some("Big5")),
            (b"<meta/charset=\"euc-kr\"/>", Some("EUC-KR")),
            (b"<meta charset = gbk >", Some("GBK")),
            (b"<meta name=x charset=gbk", None), // runs out of bytes
            (b"<meta charset=bogus>", None),
            (b"<meta charset=\"\">", None),
            (b"<metacharset=gbk>", None),
            (
                b"<meta http-equiv=Content-Type content='text/html; charset=koi8-u'>",
                Some("KOI8-U"),
            ),
            (b"<meta content='text/html; charset=koi8-u'>", None), // needs the pragma
            (
                b"<meta content='charset=koi8-u' http-equiv=content-type>",
                Some("KOI8-U"),
            ),
            (
                b"<meta charset=bogus content='charset=gbk' http-equiv=content-type>",
                None,
            ),
            (
                b"<meta content='charset=gbk' charset=bogus http-equiv=content-type>",
                None,
            ),
            (b"<meta charset=gbk charset=big5>", Some("GBK")), // duplicate ignored
            (b"<meta charset=utf-16le>", Some("UTF-8")),
            (b"<meta charset=x-user-defined>", Some("windows-1252")),
            (
                b"<!-- <meta charset=gbk> --><meta charset=big5>",
                Some("Big5"),
            ),
            (b"<!--><meta charset=big5>", Some("Big5")),
            (
                b"<p title='<meta charset=gbk>'><meta charset=big5>",
                Some("Big5"),
            ),
            // `<?` ends at the first `>`, then `'; ?>` are other bytes.
            (b"<?php echo '>'; ?><meta charset=big5>", Some("Big5")),
            (
                b"<!DOCTYPE html><?php x ?><meta charset=big5>",
                Some("Big5"),
            ),
            (
                b"<! <meta charset=gbk> --><meta charset=big5>",
                Some("Big5"),
            ),
            (b"</p foo='>'><meta charset=big5>", Some("Big5")),
            (
                b"<?xml version='1.0' encoding='ISO-8859-2'?><p>",
                Some("ISO-8859-2"),
            ),
            (b"<?xml version='1.0' encoding='utf-16'?><p>", Some("UTF-8")),
            (b"<\0?\0x\0m\0l\0", Some("UTF-16LE")),
            (b"\0<\0?\0x\0m\0l", Some("UTF-16BE")),
        ];
        for &(input, expected) in cases {
            assert_eq!(
                prescan(input).map(Encoding::name),
                expected,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }

    #[test]
    fn meta_content_extraction() {
        let cases: &[(&[u8], Option<&str>)] = &[
            (b"text/html; charset=utf-8", Some("UTF-8")),
            (b"text/html;charset = 'koi8-r' ", Some("KOI8-R")),
            (b"text/html; charset=\"gbk", None),
            (b"text/html; charset=", None),
            (b"charsetcharset=gbk", Some("GBK")),
            (b"text/html; charset; charset=big5", Some("Big5")),
            (b"text/html; charset=shift_jis;foo", Some("Shift_JIS")),
        ];
        for &(input, expected) in cases {
            assert_eq!(
                extract_from_meta_content(input).map(Encoding::name),
                expected,
                "{}",
                String::from_utf8_lossy(input)
            );
        }
    }
}
