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

mod by_tree;
mod prescan;
mod sniff;

pub use by_tree::{Parsed, decode_and_parse, decode_and_parse_into};
pub use encoding_rs::Encoding;
pub use prescan::{PRESCAN_BYTES, prescan};
pub use sniff::{DETECTOR_BYTES, Decoded, Rule, decode, detect, sniff};

/// The `charset` parameter of an HTTP `Content-Type` header value, the transport charset
/// to pass to [`sniff`] or [`decode`] (resolve it with [`Encoding::for_label`], which
/// [`sniff`] does): the archive crate's, which the WARC reader uses for a record's charset.
pub use htmltok_archive::mime::charset_from_content_type;
