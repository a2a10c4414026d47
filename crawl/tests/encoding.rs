//! `htmltok::encoding`: deciding a document's encoding as a browser does, and transcoding.
//!
//! Two parts:
//! - every page in the real corpus's `legacy-encoding/` folder (listed in its
//!   `MANIFEST.tsv`) is decoded and checked for the encoding and rule expected, and for
//!   its `<title>` (taken with the tokenizer from the decoded text) and a phrase that a
//!   wrong decoding would garble. The corpus is found in `$HTMLTOK_CORPUS`, else
//!   `../shared/corpus` beside the workspace; without it the test says loudly that it
//!   did not run (and fails under CI: see `test-support/src/data.rs`);
//! - small hand-written pages for each rule and each form of declaration.
//!
//! Run with `cargo test -p htmltok-crawl --test encoding`.

use htmltok_test_support::data;

use std::borrow::Cow;
use std::path::Path;

use data::{Manifest, loud};
use htmltok::{Token, Tokenizer};
use htmltok_crawl::encoding::{
    self, Decoded, Encoding, Rule, charset_from_content_type, decode_and_parse, detect, prescan,
};
use htmltok_tree::Parser;

// ---------------------------------------------------------------------------------------
// Both paths: every case below is decided by the token path (`encoding::decode`,
// `encoding::sniff`) and by the tree path (`encoding::decode_and_parse`), which must agree
// ---------------------------------------------------------------------------------------

/// The tree path's decision, checked against the token path's `decoded` (encoding, rule,
/// replacements, BOM and the text the tree was parsed from).
fn same_by_tree(bytes: &[u8], transport: Option<&str>, decoded: &Decoded<'_>) {
    let parsed = decode_and_parse(bytes, transport, &Parser::new());
    let label = String::from_utf8_lossy(&bytes[..bytes.len().min(80)]);
    assert_eq!(
        (parsed.encoding.name(), parsed.rule),
        (decoded.encoding.name(), decoded.rule),
        "tree path and token path disagree on {label:?}"
    );
    assert_eq!(
        (parsed.had_replacements, parsed.bom_len),
        (decoded.had_replacements, decoded.bom_len),
        "{label:?}"
    );
    assert_eq!(
        parsed.document.input(),
        decoded.text.as_bytes(),
        "the tree's text, {label:?}"
    );
}

/// `encoding::decode`, with the tree path checked to decide the same.
fn decode<'a>(bytes: &'a [u8], transport: Option<&str>) -> Decoded<'a> {
    let decoded = encoding::decode(bytes, transport);
    same_by_tree(bytes, transport, &decoded);
    decoded
}

/// `encoding::sniff`, with the tree path checked to decide the same.
fn sniff(bytes: &[u8], transport: Option<&str>) -> (&'static Encoding, Rule) {
    let sniffed = encoding::sniff(bytes, transport);
    let decoded = decode(bytes, transport);
    assert_eq!((decoded.encoding, decoded.rule), sniffed);
    sniffed
}

// ---------------------------------------------------------------------------------------
// The corpus's legacy-encoding pages
// ---------------------------------------------------------------------------------------

/// What each legacy-encoding page must give: file name, encoding name, rule, the decoded
/// `<title>` (None when the page has none worth checking), a phrase in the decoded text,
/// and how many U+FFFD the decoding may produce.
struct Expected {
    file: &'static str,
    encoding: &'static str,
    rule: Rule,
    title: Option<&'static str>,
    phrase: &'static str,
    replacements: usize,
}

const EXPECTED: &[Expected] = &[
    Expected {
        file: "zone-anime-ru-windows-1251.html",
        encoding: "windows-1251",
        rule: Rule::MetaPrescan,
        title: Some("YAkub_Makarov93 » Zone Anime - Все об искусстве Аниме"),
        phrase: "Все об искусстве Аниме",
        replacements: 0,
    },
    Expected {
        // Shift_JIS with JIS X 0213 characters per the source's README; none of them
        // occurs outside what the Encoding Standard's Shift_JIS decodes (no U+FFFD).
        file: "geocities-jp-shift_jis.html",
        encoding: "Shift_JIS",
        rule: Rule::MetaPrescan,
        title: Some("VIDEO GAME TOP"),
        phrase: "26 タイトー/ヒヨコのかくれんぼ",
        replacements: 0,
    },
    Expected {
        file: "2ch-jp-shift_jis.html",
        encoding: "Shift_JIS",
        rule: Rule::MetaPrescan,
        title: Some("２ちゃんねる掲示板へようこそ"),
        phrase: "２ちゃんねる",
        replacements: 0,
    },
    Expected {
        // The BOM wins over the page's own `<meta ... charset=x-sjis>`.
        file: "kcna-utf-16le-bom.html",
        encoding: "UTF-16LE",
        rule: Rule::Bom,
        title: Some("Korea News Service Korean News 조선통신 朝鮮通信"),
        phrase: "조선통신",
        replacements: 0,
    },
    Expected {
        // Undeclared; chardet says ISO-8859-2 (confidence 0.71). Its non-ASCII bytes are
        // 0x95, 0xA0, 0xA9, 0xBD: bullets, no-break spaces, ©, ½ in windows-1252, which
        // chardetng picks; in ISO-8859-2, 0x95 would be a C1 control.
        file: "webtv-undeclared-iso-8859-2.html",
        encoding: "windows-1252",
        rule: Rule::Detector,
        title: Some("COUNTDOWN TO 666 - TvFoutreach"),
        phrase: "•VERY INTERESTINGLY•",
        replacements: 0,
    },
    Expected {
        // A `<?php ... ?>` block before the `<meta>` is skipped as `<?...>`.
        file: "arabic-newspapers-windows-1256.html",
        encoding: "windows-1256",
        rule: Rule::MetaPrescan,
        title: Some("Arabic newspapers Online - الصحف و الجرائد باللغة العربية"),
        phrase: "الجرائد",
        replacements: 0,
    },
    Expected {
        // The `<meta ... charset=gb2312>` starts at byte 1,180, past the prescan; the
        // detector finds GBK (what the `gb2312` label means) and the late `<meta>` agrees,
        // so the detector's decision stands.
        // Its `<meta http-equiv=content-type … charset=gb2312>` is at byte 1,180, just
        // past the prescan (the detector would guess GBK too, but is not consulted).
        file: "xinhuanet-he-gb2312.html",
        encoding: "GBK",
        rule: Rule::LateMeta,
        title: Some("话剧《约定无期限》河北各市巡演结束"),
        phrase: "新华网河北频道",
        replacements: 0,
    },
    Expected {
        file: "baidu-cn-home-gb2312.html",
        encoding: "GBK",
        rule: Rule::MetaPrescan,
        title: Some("百度一下，你就知道      "),
        phrase: "百度一下",
        replacements: 0,
    },
    Expected {
        // ISO-8859-15 is its own encoding in the Encoding Standard (not windows-1252).
        file: "elmundo-es-iso-8859-15.html",
        encoding: "ISO-8859-15",
        rule: Rule::MetaPrescan,
        title: Some(
            "La negociación entre Junts y el PSOE se alarga por \"discrepancias en elementos \
             esenciales\" de la ley de amnistía | España",
        ),
        phrase: "ley de amnistía",
        replacements: 0,
    },
    Expected {
        // The `iso-8859-1` label means windows-1252.
        file: "badische-zeitung-iso-8859-1.html",
        encoding: "windows-1252",
        rule: Rule::MetaPrescan,
        title: Some(
            "Viele Studierende sind noch verzweifelt auf Wohnungssuche in Freiburg - Junges \
             Leben (fudder) - Badische Zeitung",
        ),
        phrase: "Regio-Fußball",
        replacements: 0,
    },
    Expected {
        file: "proplanta-de-iso-8859-1.html",
        encoding: "windows-1252",
        rule: Rule::MetaPrescan,
        title: Some("Bayern fordert höhere Erlösobergrenzen für Bioenergie | proplanta.de"),
        phrase: "Erlösobergrenzen",
        replacements: 0,
    },
    Expected {
        // The `<meta http-equiv=content-type ... charset=iso-8859-1>` starts at byte 1,027,
        // just past the prescan. The page's only non-ASCII byte is 0xC8 ("DÈbut" in a
        // comment), from which the detector alone guesses Big5; the late `<meta>` changes
        // the encoding, as a browser's tree builder would.
        file: "archive-org-fr-iso-8859-1.html",
        encoding: "windows-1252",
        rule: Rule::LateMeta,
        title: Some("Les Français travaillent-ils trop peu ?"),
        phrase: "eStat Javascript DÈbut",
        replacements: 0,
    },
    Expected {
        file: "automobilwoche-windows-1252.html",
        encoding: "windows-1252",
        rule: Rule::MetaPrescan,
        title: Some(
            "Krach vor der VW-Betriebsversammlung: Es knirscht zwischen Diess und \
             Aufsichtsräten | Automobilwoche",
        ),
        phrase: "Aufsichtsräten",
        replacements: 0,
    },
    Expected {
        file: "computerbild-windows-1252.html",
        encoding: "windows-1252",
        rule: Rule::MetaPrescan,
        title: Some("Bundesliga: Dortmund - Mönchengladbach live sehen! - COMPUTER BILD"),
        phrase: "Mönchengladbach",
        replacements: 0,
    },
    Expected {
        // "Undeclared" in the manifest, but a `<meta http-equiv=content-type …
        // charset=iso-8859-1>` comes at byte 58,128, after a long preamble.
        file: "nmb-media-undeclared-windows-1252.html",
        encoding: "windows-1252",
        rule: Rule::LateMeta,
        title: Some(".:: NMB-MEDIA ::. eBay-Templates, JTL-Wawi / Eazyauction Designvorlagen"),
        phrase: "eBay-Individuallösungen",
        replacements: 0,
    },
    Expected {
        // Declared UTF-8 and is UTF-8, except for 3 invalid byte sequences.
        file: "declared-utf8-with-invalid-bytes.html",
        encoding: "UTF-8",
        rule: Rule::MetaPrescan,
        title: Some(
            "   Rinderleber-Geschnetzeltes mit Apfel und Zwiebel |  Liebe geht durch den Magen",
        ),
        phrase: "Marmorkuchen mit Rum und Schokoüberzug",
        replacements: 3,
    },
];

/// The manifest's `legacy-encoding/` rows: (path, bytes).
fn legacy_pages(dir: &Path) -> Vec<(String, u64)> {
    let manifest = Manifest::read(dir);
    let (path, bytes) = (manifest.require("path"), manifest.require("bytes"));
    manifest
        .rows()
        .filter(|fields| fields[path].starts_with("legacy-encoding/"))
        .map(|fields| {
            let size = fields[bytes].parse().expect("a number in the bytes column");
            (fields[path].to_string(), size)
        })
        .collect()
}

/// The text of the first `<title>`, character references decoded (by the tokenizer).
fn title(text: &str) -> Option<String> {
    let mut tokenizer = Tokenizer::new(text.as_bytes());
    let mut title: Option<String> = None;
    while let Some(token) = tokenizer.next_token() {
        match token {
            Token::StartTag(tag) if title.is_none() && tag.name() == "title" => {
                title = Some(String::new());
            }
            Token::Text(run) => {
                if let Some(title) = title.as_mut() {
                    title.push_str(&run.text());
                }
            }
            Token::EndTag(tag) if title.is_some() && tag.name() == "title" => return title,
            _ => {}
        }
    }
    title
}

#[test]
fn legacy_encoding_pages_decode_as_a_browser_would() {
    let Some(dir) = data::real_corpus_or_skip("the legacy-encoding pages of the corpus") else {
        return;
    };
    let pages = legacy_pages(&dir);
    assert!(
        !pages.is_empty(),
        "MANIFEST.tsv lists no legacy-encoding/ pages"
    );
    // Every listed page has an expectation, and every expectation a listed page.
    for (path, _) in &pages {
        let name = path.trim_start_matches("legacy-encoding/");
        assert!(
            EXPECTED.iter().any(|e| e.file == name),
            "{path} is listed in MANIFEST.tsv but has no expectation in tests/encoding.rs"
        );
    }
    for expected in EXPECTED {
        assert!(
            pages.iter().any(|(p, _)| p.ends_with(expected.file)),
            "legacy-encoding/{} is expected but not listed in MANIFEST.tsv",
            expected.file
        );
    }

    let mut table = String::from("page | encoding | rule | U+FFFD\n");
    let mut failures = Vec::new();
    for (path, size) in &pages {
        let name = path.trim_start_matches("legacy-encoding/");
        let expected = EXPECTED.iter().find(|e| e.file == name).unwrap();
        let bytes = std::fs::read(dir.join(path)).unwrap_or_else(|e| panic!("read {path}: {e}"));
        assert_eq!(
            bytes.len() as u64,
            *size,
            "{path}: size differs from MANIFEST.tsv"
        );
        let doc = decode(&bytes, None);
        let replacements = doc.text.matches('\u{FFFD}').count();
        table.push_str(&format!(
            "{name} | {} | {} | {replacements}\n",
            doc.encoding.name(),
            doc.rule
        ));
        let mut problems = Vec::new();
        if doc.encoding.name() != expected.encoding || doc.rule != expected.rule {
            problems.push(format!(
                "decided {} by {:?}, expected {} by {:?}",
                doc.encoding.name(),
                doc.rule,
                expected.encoding,
                expected.rule
            ));
        }
        if (doc.encoding, doc.rule) != sniff(&bytes, None) {
            problems.push("decode and sniff disagree".into());
        }
        if replacements != expected.replacements
            || doc.had_replacements != (expected.replacements > 0)
        {
            problems.push(format!(
                "{replacements} U+FFFD (had_replacements {}), expected {}",
                doc.had_replacements, expected.replacements
            ));
        }
        if let Some(want) = expected.title {
            let got = title(&doc.text);
            if got.as_deref() != Some(want) {
                problems.push(format!("title {got:?}, expected {want:?}"));
            }
        }
        if !doc.text.contains(expected.phrase) {
            problems.push(format!("the text lacks {:?}", expected.phrase));
        }
        if !problems.is_empty() {
            failures.push(format!("{path}: {}", problems.join("; ")));
        }
    }
    loud(&table);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Hand-written pages
// ---------------------------------------------------------------------------------------

/// `text` encoded as UTF-16LE or UTF-16BE.
fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    text.encode_utf16()
        .flat_map(|unit| {
            if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            }
        })
        .collect()
}

fn decided(doc: &Decoded<'_>) -> (&'static str, Rule) {
    (doc.encoding.name(), doc.rule)
}

#[test]
fn byte_order_marks_decide_and_are_stripped() {
    let page = b"\xEF\xBB\xBF<meta charset=gbk><p>caf\xC3\xA9";
    let doc = decode(page, Some("windows-1251"));
    assert_eq!(
        decided(&doc),
        ("UTF-8", Rule::Bom),
        "a BOM beats transport and meta"
    );
    assert_eq!(doc.text, "<meta charset=gbk><p>café");
    assert_eq!(doc.bom_len, 3);
    assert!(
        matches!(&doc.text, Cow::Borrowed(s) if s.as_ptr() == page[3..].as_ptr()),
        "UTF-8 after a BOM is borrowed by re-slicing"
    );

    for big_endian in [false, true] {
        let mut page = if big_endian {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        page.extend(utf16("<meta charset=windows-1252><p>Ωμέγα 𝄞", big_endian));
        let doc = decode(&page, Some("koi8-r"));
        let name = if big_endian { "UTF-16BE" } else { "UTF-16LE" };
        assert_eq!(decided(&doc), (name, Rule::Bom));
        assert_eq!(doc.text, "<meta charset=windows-1252><p>Ωμέγα 𝄞");
        assert_eq!((doc.bom_len, doc.had_replacements), (2, false));
    }

    // A second BOM is a character, not stripped again.
    let doc = decode("\u{FEFF}\u{FEFF}x".as_bytes(), None);
    assert_eq!(doc.text, "\u{FEFF}x");
}

#[test]
fn transport_charset_beats_the_meta_and_unknown_labels_are_ignored() {
    // KOI8-R "Привет" is F0 D2 C9 D7 C5 D4.
    let page = b"<meta charset=windows-1251><p>\xF0\xD2\xC9\xD7\xC5\xD4";
    let doc = decode(page, Some("KOI8-R"));
    assert_eq!(decided(&doc), ("KOI8-R", Rule::Transport));
    assert!(doc.text.ends_with("<p>Привет"));

    let doc = decode(page, Some("x-no-such-encoding"));
    assert_eq!(decided(&doc), ("windows-1251", Rule::MetaPrescan));
    assert!(doc.text.ends_with("<p>рТЙЧЕФ"));

    // Straight from an HTTP header.
    let header = "text/html; charset=\"koi8-r\"";
    let doc = decode(page, charset_from_content_type(header).as_deref());
    assert_eq!(decided(&doc), ("KOI8-R", Rule::Transport));

    // A transport label of the replacement encoding turns the document into one U+FFFD.
    let doc = decode(b"<p>hello", Some("iso-2022-kr"));
    assert_eq!(decided(&doc), ("replacement", Rule::Transport));
    assert_eq!(
        (doc.text.as_ref(), doc.had_replacements),
        ("\u{FFFD}", true)
    );
}

#[test]
fn meta_declarations_in_their_various_forms() {
    let cases: &[(&str, &str)] = &[
        ("<meta charset=shift_jis>", "Shift_JIS"),
        ("<META CHARSET=\"EUC-JP\">", "EUC-JP"),
        ("<meta charset='windows-1250'/>", "windows-1250"),
        ("<meta\ncharset = \" latin2 \" >", "ISO-8859-2"),
        (
            "<meta name=viewport content='width=device-width' charset=big5>",
            "Big5",
        ),
        (
            "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=koi8-u\">",
            "KOI8-U",
        ),
        (
            "<meta content='text/html;charset=gb2312' http-equiv=content-type>",
            "GBK",
        ),
        (
            "<meta http-equiv=content-type content=\"charset='euc-kr'\">",
            "EUC-KR",
        ),
        (
            "<!DOCTYPE html><html lang=ru><head><meta charset=cp1251>",
            "windows-1251",
        ),
        (
            "<?xml version=\"1.0\" encoding=\"ISO-8859-7\"?><html>",
            "ISO-8859-7",
        ),
        ("<meta charset=utf-16>", "UTF-8"),
        ("<meta charset=utf-16be>", "UTF-8"),
        ("<meta charset=x-user-defined>", "windows-1252"),
    ];
    for &(head, expected) in cases {
        let page = format!("{head}<title>t</title>");
        let doc = decode(page.as_bytes(), None);
        assert_eq!(decided(&doc), (expected, Rule::MetaPrescan), "{head}");
        assert_eq!(
            prescan(page.as_bytes()).map(Encoding::name),
            Some(expected),
            "{head}"
        );
    }

    // Declarations the prescan must not take.
    let not: &[&str] = &[
        "<meta content='text/html; charset=gbk'>", // no http-equiv
        "<meta http-equiv=refresh content='0; charset=gbk'>", // not content-type
        "<meta charset=no-such-label>",
        "<meta charset=\"\">",
        "<meta-charset=gbk>",
        "<p data-meta='<meta charset=gbk>'>",
        "<!-- <meta charset=gbk> -->",
        "<!-- unclosed comment <meta charset=gbk>",
    ];
    for head in not {
        assert_eq!(prescan(head.as_bytes()), None, "{head}");
    }

    // A comment hides a meta; the next one counts.
    let page = b"<!-- <meta charset=gbk> --><meta charset=big5>";
    assert_eq!(prescan(page).map(Encoding::name), Some("Big5"));
    // The first declaration wins.
    let page = b"<meta charset=euc-kr><meta charset=big5>";
    assert_eq!(prescan(page).map(Encoding::name), Some("EUC-KR"));
}

#[test]
fn only_the_first_1024_bytes_are_prescanned() {
    let padding = format!("<!-- {} -->", "x".repeat(1100));
    let mut bytes = format!("<html><head>{padding}<meta charset=koi8-r><p>").into_bytes();
    bytes.extend_from_slice(b"\xF0\xD2\xC9\xD7\xC5\xD4"); // KOI8-R "Привет"
    assert_eq!(
        prescan(&bytes),
        None,
        "a meta after 1024 bytes is not prescanned"
    );
    // ... but the tree builder would meet it while the encoding is still tentative.
    let doc = decode(&bytes, None);
    assert_eq!(decided(&doc), ("KOI8-R", Rule::LateMeta));
    assert!(doc.text.ends_with("Привет"));
    let detector = detect(&bytes).map(Encoding::name);
    assert_ne!(
        detector,
        Some("KOI8-R"),
        "the detector alone would not get it"
    );

    // Just inside the window: the prescan finds it.
    let padding = format!("<!-- {} -->", "x".repeat(970));
    let page = format!("{padding}<meta charset=windows-1251>");
    assert!(page.len() <= 1024);
    assert_eq!(
        prescan(page.as_bytes()).map(Encoding::name),
        Some("windows-1251")
    );

    // A meta cut by the 1024-byte boundary runs the prescan out of bytes.
    let padding = "x".repeat(1024 - "<meta charset=gb".len());
    let page = format!("{padding}<meta charset=gbk>");
    assert_eq!(prescan(page.as_bytes()), None);
}

#[test]
fn late_metas_count_only_where_a_tree_builder_would_see_them() {
    let long_script = format!("<script>var s = '{}';</script>", "x".repeat(2000));
    // Inside a script, a title or a comment it is text, not a tag.
    for hidden in [
        "<script>document.write('<meta charset=windows-1251>')</script>",
        "<title><meta charset=windows-1251></title>",
        "<!-- <meta charset=windows-1251> -->",
        "<textarea><meta charset=windows-1251></textarea>",
    ] {
        let mut page = format!("<head>{long_script}{hidden}<p>").into_bytes();
        page.extend_from_slice(b"\xE9t\xE9"); // "été" in windows-1252
        let doc = decode(&page, None);
        assert_eq!(decided(&doc), ("windows-1252", Rule::Detector), "{hidden}");
    }
    // The first declaring meta decides, also when the detector would have guessed the
    // same (the detector is then not run).
    let mut page =
        format!("<head>{long_script}<meta charset=windows-1252><meta charset=gbk><p>").into_bytes();
    page.extend_from_slice(b"\xE9t\xE9");
    assert_eq!(
        sniff(&page, None),
        (encoding_rs_name("windows-1252"), Rule::LateMeta)
    );
    // After a prescan result, an agreeing late meta keeps the prescan's rule.
    let page =
        format!("<meta charset=utf-8><head>{long_script}<meta charset=utf-8><meta charset=gbk>");
    assert_eq!(
        sniff(page.as_bytes(), None),
        (encoding_rs_name("UTF-8"), Rule::MetaPrescan)
    );
    // A pragma whose `charset` is written with a character reference still counts.
    let page = format!(
        "<head>{long_script}<meta http-equiv=content-type content='text/html; &#99;harset=koi8-r'>"
    );
    assert_eq!(
        sniff(page.as_bytes(), None),
        (encoding_rs_name("KOI8-R"), Rule::LateMeta)
    );
    // `<meta` must come before the word `charset` for the pass to run at all.
    let page = format!("<head>charset{long_script}<meta name=x>");
    assert_eq!(
        sniff(page.as_bytes(), None),
        (encoding_rs_name("windows-1252"), Rule::Default)
    );
    // A late http-equiv pragma counts too; an all-ASCII page can change its default.
    let page = format!(
        "<head>{long_script}<meta http-equiv=Content-Type content='text/html; charset=utf-8'>"
    );
    assert_eq!(
        sniff(page.as_bytes(), None),
        (encoding_rs_name("UTF-8"), Rule::LateMeta)
    );
    // Character references in the attribute are decoded first, as the tree builder sees it.
    let page = format!("<head>{long_script}<meta charset='koi8&#x2d;r'>");
    assert_eq!(
        sniff(page.as_bytes(), None),
        (encoding_rs_name("KOI8-R"), Rule::LateMeta)
    );
}

fn encoding_rs_name(name: &str) -> &'static Encoding {
    Encoding::for_label(name.as_bytes()).unwrap()
}

#[test]
fn the_detector_decides_undeclared_pages() {
    // windows-1251 Russian, no declaration.
    let text = "<html><body><p>Съешь же ещё этих мягких французских булок, да выпей чаю. \
                Широкая электрификация южных губерний даст мощный толчок подъёму сельского \
                хозяйства.</p>";
    let (bytes, _, _) = encoding_rs_name("windows-1251").encode(text);
    let doc = decode(&bytes, None);
    assert_eq!(decided(&doc), ("windows-1251", Rule::Detector));
    assert_eq!(doc.text, text);

    // Shift_JIS Japanese, no declaration.
    let text = "<p>日本語のウェブページは、かつてシフトJISやEUC-JPで書かれることが多く、\
                文字コードの宣言がないと文字化けが起きました。ブラウザーは統計的な検出器を使って、\
                宣言のないページの文字コードを推測します。</p>";
    let (bytes, _, _) = encoding_rs_name("shift_jis").encode(text);
    assert_eq!(
        decided(&decode(&bytes, None)),
        ("Shift_JIS", Rule::Detector)
    );

    // Undeclared UTF-8 is detected as UTF-8, and not copied.
    let text = "<p>Größenordnung, naïve café, Ελληνικά, 日本語";
    let doc = decode(text.as_bytes(), None);
    assert_eq!(decided(&doc), ("UTF-8", Rule::Detector));
    assert!(matches!(doc.text, Cow::Borrowed(_)));

    // All ASCII: nothing to detect, the default; not copied either.
    let doc = decode(b"<p>plain old ASCII", None);
    assert_eq!(decided(&doc), ("windows-1252", Rule::Default));
    assert!(matches!(doc.text, Cow::Borrowed(_)));
    assert_eq!(detect(b"<p>plain old ASCII"), None);
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let page = b"<meta charset=utf-8><p>a\xFFb\xE2\x82c\xF0\x9F\x98";
    let doc = decode(page, None);
    assert_eq!(decided(&doc), ("UTF-8", Rule::MetaPrescan));
    assert!(doc.had_replacements);
    assert!(matches!(doc.text, Cow::Owned(_)));
    // One U+FFFD per maximal invalid subpart, as the WHATWG UTF-8 decoder gives.
    assert_eq!(
        doc.text,
        "<meta charset=utf-8><p>a\u{FFFD}b\u{FFFD}c\u{FFFD}"
    );
}

#[test]
fn valid_utf8_is_borrowed_not_copied() {
    let page = "<meta charset=utf-8><title>Déjà vu — 日本</title>".as_bytes();
    let doc = decode(page, None);
    assert_eq!(decided(&doc), ("UTF-8", Rule::MetaPrescan));
    assert!(!doc.had_replacements);
    assert!(matches!(&doc.text, Cow::Borrowed(s) if s.as_ptr() == page.as_ptr()));
    let doc = decode(page, Some("utf-8"));
    assert!(matches!(doc.text, Cow::Borrowed(_)));
    // A legacy encoding with ASCII-only bytes is borrowed too.
    let doc = decode(b"<meta charset=windows-1251><p>ascii", None);
    assert!(matches!(doc.text, Cow::Borrowed(_)));
}

#[test]
fn rule_names() {
    let names: Vec<&str> = [
        Rule::Bom,
        Rule::Transport,
        Rule::MetaPrescan,
        Rule::LateMeta,
        Rule::Detector,
        Rule::Default,
    ]
    .iter()
    .map(|rule| rule.as_str())
    .collect();
    assert_eq!(
        names,
        [
            "bom",
            "transport",
            "meta",
            "late-meta",
            "detector",
            "default"
        ]
    );
    assert_eq!(Rule::MetaPrescan.to_string(), "meta");
}

#[test]
fn content_type_headers() {
    let cases: &[(&str, Option<&str>)] = &[
        ("text/html; charset=Shift_JIS", Some("Shift_JIS")),
        ("text/html;charset=\"windows-1251\"", Some("windows-1251")),
        ("text/html ; Charset = utf-8", None), // no whitespace allowed before `=`
        ("text/html; charset=utf-8 ", Some("utf-8")),
        ("text/html", None),
        ("", None),
        ("text/html; charset=euc-kr, text/html", Some("euc-kr")),
    ];
    for &(value, expected) in cases {
        assert_eq!(
            charset_from_content_type(value).as_deref(),
            expected,
            "{value:?}"
        );
    }
}

#[test]
fn nothing_panics_on_odd_bytes() {
    // Every prefix of some tricky heads, and every byte value after `<meta `.
    let heads: &[&[u8]] = &[
        b"<meta charset='gbk'>",
        b"<meta http-equiv=content-type content=\"text/html; charset=gbk\">",
        b"<?xml version='1.0' encoding='gbk'?>",
        b"<!-- x --><a b='c' d=e f>",
        b"\xFF\xFE<\0",
        b"<\0?\0x\0",
    ];
    for head in heads {
        for end in 0..=head.len() {
            let _ = decode(&head[..end], None);
            let _ = decode(&head[..end], Some("utf-16"));
        }
    }
    for byte in 0..=255u8 {
        let page = [b"<meta ".as_slice(), &[byte], b"charset=gbk>"].concat();
        let _ = decode(&page, None);
    }
}

/// chardetng run directly on what `detect` feeds it (up to `DETECTOR_BYTES` past the
/// first non-ASCII byte).
fn chardetng_guess(bytes: &[u8]) -> Option<&'static Encoding> {
    let first = Encoding::ascii_valid_up_to(bytes);
    if first == bytes.len() {
        return None;
    }
    let end = bytes
        .len()
        .min(first + htmltok_crawl::encoding::DETECTOR_BYTES);
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(&bytes[..end], end == bytes.len());
    Some(detector.guess(None, chardetng::Utf8Detection::Allow))
}

/// `detect` answers UTF-8 for valid UTF-8 without running chardetng: the answer must be
/// the one chardetng gives, also when the 64 KiB cap cuts a character in two.
#[test]
fn detect_agrees_with_chardetng() {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let text = "Größenordnung naïve café Ελληνικά 日本語 🦀 ".repeat(2000); // > 64 KiB
    for cut in 0..8 {
        let mut page = b"<p>".to_vec();
        page.extend_from_slice(&text.as_bytes()[cut..]);
        inputs.push(page.clone());
        page.extend_from_slice(b"\xFF"); // invalid, but past the cap
        inputs.push(page);
    }
    inputs.push(b"<p>caf\xC3".to_vec()); // cut at the very end: not UTF-8
    inputs.push(b"<p>caf\xE9 cr\xE8me br\xFBl\xE9e".to_vec());
    inputs.push("<p>Привет, как дела?".as_bytes().to_vec());
    if let Ok(dir) = data::real_corpus() {
        for (path, _) in legacy_pages(&dir) {
            inputs.push(std::fs::read(dir.join(path)).unwrap());
        }
    }
    for input in &inputs {
        assert_eq!(
            detect(input).map(Encoding::name),
            chardetng_guess(input).map(Encoding::name),
            "{:?}",
            String::from_utf8_lossy(&input[..input.len().min(60)])
        );
    }
}

/// Pages glued together from the pieces declarations are made of, at random: nothing
/// panics, and the prescan only ever looks at the first 1,024 bytes.
#[test]
fn random_declaration_soup() {
    const PIECES: &[&[u8]] = &[
        b"<meta",
        b"<META",
        b" ",
        b"\t",
        b"/",
        b"charset",
        b"=",
        b"\"",
        b"'",
        b">",
        b"<!--",
        b"-->",
        b"<!",
        b"</",
        b"<?",
        b"<?xml",
        b" encoding=",
        b"content",
        b"http-equiv",
        b"content-type",
        b"text/html;",
        b"utf-8",
        b"gbk",
        b"utf-16le",
        b"x-user-defined",
        b"koi8-r",
        b"<p",
        b"<script>",
        b"</script>",
        b"x",
        b"\xE9",
        b"\xFF\xFE",
        b"\0",
    ];
    let mut state = 0x1234_5678_9abc_def0_u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    for _ in 0..1000 {
        let mut page = Vec::new();
        let pieces = next() % 400;
        for _ in 0..pieces {
            page.extend_from_slice(PIECES[next() % PIECES.len()]);
        }
        let found = prescan(&page);
        assert_eq!(found, prescan(&page[..page.len().min(1024)]));
        let doc = decode(&page, None);
        if let Some(encoding) = found
            && !page.starts_with(b"\xFF\xFE")
        {
            assert!(matches!(doc.rule, Rule::MetaPrescan | Rule::LateMeta));
            assert_ne!(encoding.name(), "x-user-defined");
        }
    }
}

// ---------------------------------------------------------------------------------------
// The tree path where it differs: the real tree builder, and the reparse
// ---------------------------------------------------------------------------------------

/// A `<meta>` in a place where the tree builder ignores it. The token path's simulation
/// of the tree builder does not model the insertion modes that drop a `meta` start tag
/// ("in frameset", "after frameset": "anything else: parse error, ignore the token"), so
/// it takes the declaration; the tree path asks the tree, where there is no such element,
/// and the detector's guess stands. The tree is right: a browser never changes the
/// encoding for a `meta` it did not insert.
#[test]
fn the_tree_decides_where_the_simulation_is_wrong() {
    let long_script = format!("<script>var s = '{}';</script>", "x".repeat(2000));
    for ignored in [
        "<frameset><meta charset=windows-1251></frameset>",
        "<frameset></frameset><meta charset=windows-1251>",
    ] {
        let mut page = b"<head><title>caf".to_vec();
        page.extend_from_slice(b"\xE9 cr\xE8me br\xFBl\xE9e</title>"); // windows-1252
        page.extend_from_slice(format!("{long_script}</head>{ignored}").as_bytes());
        let by_tokens = encoding::decode(&page, None);
        assert_eq!(
            decided(&by_tokens),
            ("windows-1251", Rule::LateMeta),
            "{ignored}"
        );
        let parsed = decode_and_parse(&page, None, &Parser::new());
        assert_eq!(
            (parsed.encoding.name(), parsed.rule),
            ("windows-1252", Rule::Detector),
            "{ignored}"
        );
        assert_eq!(
            parsed.document.title().as_deref(),
            Some("café crème brûlée")
        );
    }
    // A `<meta>` in a `<noscript>` in the head is an element with scripting off (the tree
    // builder's "in head noscript" runs the in head rules), text with scripting on; the
    // simulation tokenizes with scripting on. The tree path follows the parser it is given.
    let mut page =
        format!("<head>{long_script}<noscript><meta charset=koi8-r></noscript>").into_bytes();
    page.extend_from_slice(b"<p>\xF0\xD2\xC9\xD7\xC5\xD4"); // KOI8-R "Привет"
    let scripting_off = decode_and_parse(&page, None, &Parser::new());
    assert_eq!(
        (scripting_off.encoding.name(), scripting_off.rule),
        ("KOI8-R", Rule::LateMeta)
    );
    let scripting_on = decode_and_parse(&page, None, &Parser::new().scripting(true));
    assert_eq!(scripting_on.rule, Rule::Detector);
    assert_eq!(encoding::decode(&page, None).rule, Rule::Detector);
    // Under the customizable `<select>` rules a `meta` in a `select` is an element, as the
    // simulation has it: both paths agree.
    let page = format!("<head>{long_script}<body><select><meta charset=gbk></select>");
    assert_eq!(
        sniff(page.as_bytes(), None),
        (encoding_rs_name("GBK"), Rule::LateMeta)
    );
}

/// A late `<meta>` naming another encoding than the tentative one: the page is decoded
/// and parsed again, and the tree is the second parse's.
#[test]
fn a_late_meta_reparses_and_the_tree_is_the_second_parse() {
    let long_script = format!("<script>var s = '{}';</script>", "x".repeat(2000));
    // "Привет" in KOI8-R is F0 D2 C9 D7 C5 D4, which the detector takes for something else
    // on so little text.
    let mut page = b"<head><title>\xF0\xD2\xC9\xD7\xC5\xD4</title>".to_vec();
    page.extend_from_slice(format!("{long_script}<meta charset=koi8-r><p>").as_bytes());
    page.extend_from_slice(b"\xF0\xD2\xC9\xD7\xC5\xD4");
    let tentative = detect(&page).unwrap();
    assert_ne!(
        tentative.name(),
        "KOI8-R",
        "then there is no reparse to test"
    );
    let parsed = decode_and_parse(&page, None, &Parser::new());
    assert_eq!(
        (parsed.encoding.name(), parsed.rule),
        ("KOI8-R", Rule::LateMeta)
    );
    assert_eq!(parsed.document.title().as_deref(), Some("Привет"));
    let p = parsed
        .document
        .root()
        .descendants()
        .find(|n| n.name() == Some("p"))
        .unwrap();
    assert_eq!(p.text(), "Привет");
    // The same as decoding first and parsing that.
    let decoded = encoding::decode(&page, None);
    assert_eq!(
        parsed.document.to_test_format(),
        htmltok_tree::parse(decoded.text.as_bytes()).to_test_format()
    );

    // All ASCII with a late UTF-8 declaration: both decodings are the input, so the tree
    // of the tentative parse is kept (the same tree), and the text is still borrowed.
    let page = format!("<head>{long_script}<meta charset=utf-8><p>plain");
    let parsed = decode_and_parse(page.as_bytes(), None, &Parser::new());
    assert_eq!(
        (parsed.encoding.name(), parsed.rule),
        ("UTF-8", Rule::LateMeta)
    );
    assert_eq!(parsed.document.input().as_ptr(), page.as_ptr());

    // A UTF-16 tentative encoding (the prescan's `<?x` in UTF-16) is certain at once: a
    // `<meta>` in the decoded text changes nothing.
    let page = utf16("<?xml version='1.0'?><meta charset=koi8-r><p>Привет", false);
    let parsed = decode_and_parse(&page, None, &Parser::new());
    assert_eq!(
        (parsed.encoding.name(), parsed.rule),
        ("UTF-16LE", Rule::MetaPrescan)
    );
}

/// Every page of the real corpus is decided the same by the tree path and the token path
/// (encoding, rule and text), the corpus's pages having no `<meta>` where the two differ.
#[test]
fn the_whole_corpus_is_decided_the_same_by_the_tree() {
    let Some(dir) = data::real_corpus_or_skip("the tree path over the whole corpus") else {
        return;
    };
    let manifest = Manifest::read(&dir);
    let mut rules = std::collections::BTreeMap::<&str, usize>::new();
    for path in manifest.paths() {
        let bytes = std::fs::read(dir.join(&path)).unwrap_or_else(|e| panic!("read {path}: {e}"));
        let decoded = encoding::decode(&bytes, None);
        same_by_tree(&bytes, None, &decoded);
        *rules.entry(decoded.rule.as_str()).or_default() += 1;
    }
    let pages: usize = rules.values().sum();
    loud(&format!(
        "tree path = token path on {pages} corpus pages: {rules:?}"
    ));
    assert!(pages >= 150, "only {pages} pages in the corpus");
}
