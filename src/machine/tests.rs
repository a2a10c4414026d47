//! Unit tests of the machine through its public API: spans, the text/markup split, the
//! simulation, and the feedback hooks. The html5lib suite (tests/html5lib.rs) covers the
//! states themselves.

use crate::{State, Token, TokenSink, Tokenizer};

/// Renders tokens compactly: `T"…"`, `<name k=v>`, `</name>`, `C"…"`, `D…`, `X"…"` (CDATA).
fn render(input: &[u8], mut tok: Tokenizer<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut last_end = 0;
    while let Some(token) = tok.next_token() {
        let span = token.span();
        assert!(span.start >= last_end && span.end <= input.len() && span.start <= span.end);
        last_end = span.end;
        out.push(render_token(token));
    }
    out
}

/// One token as [`render`] shows it.
fn render_token(token: Token<'_, '_>) -> String {
    match token {
        Token::Text(t) if t.kind() == crate::TextKind::Cdata => format!("X{:?}", t.text()),
        Token::Text(t) => format!("T{:?}", t.text()),
        Token::StartTag(tag) => {
            let attrs: String = tag
                .attrs()
                .map(|a| format!(" {}={}", a.name(), a.value()))
                .collect();
            format!(
                "<{}{}{}>",
                tag.name(),
                attrs,
                if tag.self_closing() { "/" } else { "" }
            )
        }
        Token::EndTag(tag) => format!("</{}>", tag.name()),
        Token::Comment(c) => format!("C{:?}", c.data()),
        Token::Doctype(d) => format!("D{:?}", d.name()),
    }
}

fn tokens(input: &str) -> Vec<String> {
    render(input.as_bytes(), Tokenizer::new(input.as_bytes()))
}

#[test]
fn text_runs_are_maximal_and_markup_splits_them() {
    assert_eq!(tokens("a < b &amp; c"), [r#"T"a < b & c""#]);
    assert_eq!(
        tokens("a<b>c</b>d"),
        [r#"T"a""#, "<b>", r#"T"c""#, "</b>", r#"T"d""#]
    );
    assert_eq!(tokens("a</>b"), [r#"T"a""#, r#"T"b""#]);
    assert_eq!(tokens("a</"), [r#"T"a</""#]);
    assert_eq!(tokens("a<p class='x"), [r#"T"a""#]);
}

#[test]
fn simulation_switches_text_states() {
    assert_eq!(
        tokens("<title>a<b>&amp;</title><p>"),
        ["<title>", r#"T"a<b>&""#, "</title>", "<p>"]
    );
    assert_eq!(
        tokens("<script>if (a<b) x='</div>'</script >y"),
        [
            "<script>",
            r#"T"if (a<b) x='</div>'""#,
            "</script>",
            r#"T"y""#
        ]
    );
    assert_eq!(
        tokens("<script><!--<script>x</script>y--></script>z"),
        [
            "<script>",
            r#"T"<!--<script>x</script>y-->""#,
            "</script>",
            r#"T"z""#
        ]
    );
    assert_eq!(
        tokens("<style>a&amp;</style>"),
        ["<style>", r#"T"a&amp;""#, "</style>"]
    );
    assert_eq!(
        tokens("<plaintext></plaintext>"),
        ["<plaintext>", r#"T"</plaintext>""#]
    );
    assert_eq!(
        tokens("<noscript><b></noscript>"),
        ["<noscript>", r#"T"<b>""#, "</noscript>"]
    );
    let no_scripting = Tokenizer::builder()
        .scripting(false)
        .build(b"<noscript><b>");
    assert_eq!(
        render(b"<noscript><b>", no_scripting),
        ["<noscript>", "<b>"]
    );
}

#[test]
fn foreign_content_allows_cdata_and_keeps_script_tokenized() {
    assert_eq!(
        tokens("<svg><![CDATA[a<b]]><script>x<y/></script></svg><![CDATA[z]]>"),
        [
            "<svg>",
            r#"X"a<b""#,
            "<script>",
            r#"T"x""#,
            "<y/>",
            "</script>",
            "</svg>",
            r#"C"[CDATA[z]]""#
        ]
    );
    assert_eq!(
        tokens("<svg><foreignObject><title>&lt;</title></foreignObject></svg>"),
        [
            "<svg>",
            "<foreignobject>",
            "<title>",
            r#"T"<""#,
            "</title>",
            "</foreignobject>",
            "</svg>"
        ]
    );
}

#[test]
fn hooks_drive_the_state_without_simulation() {
    let input = b"<textarea><b></textarea><![CDATA[x]]>";
    let mut tok = Tokenizer::builder().simulation(false).build(input);
    let mut seen = Vec::new();
    while let Some(token) = tok.next_token() {
        let is_textarea = matches!(&token, Token::StartTag(t) if t.name() == "textarea");
        let is_end = matches!(&token, Token::EndTag(_));
        seen.push(String::from_utf8_lossy(token.raw()).into_owned());
        if is_textarea {
            tok.set_state(State::Rcdata);
        }
        if is_end {
            tok.set_foreign_content(true);
        }
    }
    assert_eq!(seen, ["<textarea>", "<b>", "</textarea>", "<![CDATA[x]]>"]);
}

#[test]
fn raw_spans_reproduce_the_input() {
    let input = "<!DOCTYPE html><p a=1 A=2 b='&amp;'>x\r\ny<!--c--><?pi><br/></p></>tail<a";
    let mut tok = Tokenizer::new(input.as_bytes());
    let mut rebuilt = Vec::new();
    let mut last = 0;
    while let Some(token) = tok.next_token() {
        let span = token.span();
        rebuilt.extend_from_slice(&input.as_bytes()[last..span.start]);
        rebuilt.extend_from_slice(token.raw());
        last = span.end;
    }
    rebuilt.extend_from_slice(&input.as_bytes()[last..]);
    assert_eq!(rebuilt, input.as_bytes());
}

#[test]
fn duplicate_attributes_are_dropped_case_insensitively() {
    assert_eq!(tokens("<p a=1 A=2 b c=3 B=4>"), ["<p a=1 b= c=3>"]);
    // Many attributes take the set-based path.
    let many: String = (0..40).map(|i| format!(" a{i}={i}")).collect();
    let input = format!("<p{many} A7=x>");
    let out = tokens(&input);
    assert_eq!(out.len(), 1);
    assert!(out[0].contains(" a7=7") && !out[0].contains("a7=x"));
    // Attributes the name filter let through unchecked must still be found later.
    let names: String = (0..40).map(|i| format!(" n{i}")).collect();
    let input = format!("<p{names} n30 n3 N39 x>");
    let out = tokens(&input);
    assert_eq!(out[0].matches(" n30=").count(), 1, "{out:?}");
    assert_eq!(out[0].matches(" n39=").count(), 1, "{out:?}");
    assert!(out[0].ends_with(" x=>"), "{out:?}");
}

#[test]
fn errors_do_not_change_tokens() {
    let input = b"<p a='&notin' b=&#0;>&unknown; \0</p x><!--a--!><!DOCTYPE>";
    let plain = render(input, Tokenizer::new(input));
    let mut tok = Tokenizer::builder().errors(true).build(input);
    let with_errors = render(input, Tokenizer::builder().errors(true).build(input));
    assert_eq!(plain, with_errors);
    while tok.next_token().is_some() {}
    let codes: Vec<&str> = tok.errors().iter().map(|e| e.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            // `&notin` in a value followed by a letter is left alone: no error.
            "null-character-reference",
            "unknown-named-character-reference",
            "unexpected-null-character",
            "end-tag-with-attributes",
            "incorrectly-closed-comment",
            "missing-doctype-name",
        ]
    );
}

#[test]
fn invalid_utf8_decodes_to_replacement_characters() {
    let input = b"<p t\xFF='\xC3'>\xE2\x82x";
    assert_eq!(
        render(input, Tokenizer::new(input)),
        ["<p t\u{FFFD}=\u{FFFD}>", "T\"\u{FFFD}x\""]
    );
}

#[test]
fn a_state_switch_after_text_rereads_the_markup_that_ended_it() {
    for (input, want) in [
        (&b"abc<b>x"[..], vec!["abc", "<b>x"]),
        (b"abc</b>x", vec!["abc", "</b>x"]),
        (b"abc<!--c-->", vec!["abc", "<!--c-->"]),
        (b"abc<", vec!["abc<"]),
    ] {
        let mut tok = Tokenizer::builder().simulation(false).build(input);
        let mut seen = Vec::new();
        while let Some(token) = tok.next_token() {
            let text = matches!(token, Token::Text(_));
            seen.push(String::from_utf8_lossy(token.raw()).into_owned());
            if text && seen.len() == 1 {
                tok.set_state(State::Rawtext);
            }
        }
        assert_eq!(seen, want, "{}", String::from_utf8_lossy(input));
    }
    // In RCDATA the text ends at an appropriate end tag; a switch to PLAINTEXT then reads
    // that end tag again as text (in RAWTEXT it would still be an appropriate end tag).
    let mut tok = Tokenizer::builder()
        .simulation(false)
        .state(State::Rcdata)
        .last_start_tag("title")
        .build(b"a</title><b>");
    let first = tok.next_token().map(|t| t.raw().to_vec());
    assert_eq!(first.as_deref(), Some(&b"a"[..]));
    tok.set_state(State::Plaintext);
    let rest: Vec<Vec<u8>> =
        std::iter::from_fn(|| tok.next_token().map(|t| t.raw().to_vec())).collect();
    assert_eq!(rest, [b"</title><b>".to_vec()]);
}

/// A leading UTF-8 byte order mark is skipped (as the Encoding standard's decode skips
/// it), so the first token starts at 3; `keep_bom` keeps it as text. Only at offset 0.
#[test]
fn a_leading_byte_order_mark_is_skipped_unless_kept() {
    let input = "\u{FEFF}<p>\u{FEFF}x".as_bytes();
    let spans = |keep: bool| -> Vec<(usize, usize, String)> {
        let mut tok = Tokenizer::builder()
            .errors(true)
            .keep_bom(keep)
            .build(input);
        let mut seen = Vec::new();
        while let Some(token) = tok.next_token() {
            let span = token.span();
            let text = match token {
                Token::Text(t) => t.text().into_owned(),
                Token::StartTag(t) => t.name().into_owned(),
                _ => String::new(),
            };
            seen.push((span.start, span.end, text));
        }
        assert!(tok.errors().is_empty());
        seen
    };
    assert_eq!(
        spans(false),
        [(3, 6, "p".to_string()), (6, 10, "\u{FEFF}x".to_string())]
    );
    assert_eq!(
        spans(true),
        [
            (0, 3, "\u{FEFF}".to_string()),
            (3, 6, "p".to_string()),
            (6, 10, "\u{FEFF}x".to_string())
        ]
    );
    // Nothing but a BOM: no token at all.
    assert!(Tokenizer::new(b"\xEF\xBB\xBF").next_token().is_none());
}

#[test]
fn frameset_honoured_only_while_frameset_ok() {
    // Issue #15: "in frameset" ignores `<plaintext>` (13.2.6.4.19).
    assert_eq!(
        tokens("<head><title>t</title></head><frameset><plaintext><b>"),
        [
            "<head>",
            "<title>",
            r#"T"t""#,
            "</title>",
            "</head>",
            "<frameset>",
            "<plaintext>",
            "<b>"
        ]
    );
    // The body exists (implied by `<svg>`), but the flag is still "ok": `<svg>` and
    // whitespace do not change it.
    assert_eq!(
        tokens("<html> <svg></svg> <frameset><style><b>"),
        [
            "<html>",
            r#"T" ""#,
            "<svg>",
            "</svg>",
            r#"T" ""#,
            "<frameset>",
            "<style>",
            "<b>"
        ]
    );
    // An explicit `<body>` sets it to "not ok".
    assert!(tokens("<body><frameset><style><b>").contains(&r#"T"<b>""#.to_string()));
    // Text in the body or a `<body>`-less `<img>` sets the flag to "not ok": ignored.
    for page in ["x<frameset><style><b>", "<img><frameset><style><b>"] {
        assert!(tokens(page).contains(&r#"T"<b>""#.to_string()), "{page}");
    }
    // The frameset modes keep `<noframes>` RAWTEXT.
    assert_eq!(
        tokens("<frameset></frameset><noframes><b></noframes>"),
        [
            "<frameset>",
            "</frameset>",
            "<noframes>",
            r#"T"<b>""#,
            "</noframes>"
        ]
    );
}

#[test]
fn nested_svg_does_not_close_the_outer_one() {
    // Issue #15: the outer `<svg>` is still open, so `<style>` is SVG: `<b>` is a tag.
    assert_eq!(
        tokens("<svg><svg></svg><style>a<b></style></svg><style>a<b>"),
        [
            "<svg>",
            "<svg>",
            "</svg>",
            "<style>",
            r#"T"a""#,
            "<b>",
            "</style>",
            "</svg>",
            "<style>",
            r#"T"a<b>""#
        ]
    );
}

/// A sink that renders each token and its span, as [`render`] does.
struct RenderSink;

impl<'a> TokenSink<'a> for RenderSink {
    type Output = Option<(String, crate::Span)>;

    fn token(&mut self, token: Token<'a, '_>) -> Self::Output {
        Some((render_token(token), token.span()))
    }

    fn end(&mut self) -> Self::Output {
        None
    }
}

#[test]
fn next_token_into_gives_the_tokens_of_next_token() {
    let inputs = [
        "<!DOCTYPE html><html><head><title>a &amp; b</title></head>",
        "<p class=x id='y' z>text</p><!-- c --><br/><?pi?>",
        "<script>if (a<b) x()</script><style>p{}</style><textarea>\n<b></textarea>",
        "<svg><![CDATA[<x>]]><path d=1 /></svg>tail",
        "<plaintext><p>all text",
        "",
    ];
    for input in inputs {
        let expected: Vec<(String, crate::Span)> = {
            let mut tok = Tokenizer::new(input.as_bytes());
            std::iter::from_fn(|| tok.next_token().map(|t| (render_token(t), t.span()))).collect()
        };
        let mut tok = Tokenizer::new(input.as_bytes());
        let got: Vec<_> = std::iter::from_fn(|| tok.next_token_into(&mut RenderSink)).collect();
        assert_eq!(got, expected, "{input:?}");
        // And once more past the end: still the end.
        assert_eq!(tok.next_token_into(&mut RenderSink), None);
    }
}

/// [`RenderSink`] for a tokenizer built with errors off ([`TokenSink::PARSE_ERRORS`]
/// false, as the tree builder's sink is): the data state and the tag states are compiled
/// without their error checks.
struct QuietSink;

impl<'a> TokenSink<'a> for QuietSink {
    type Output = Option<(String, crate::Span)>;
    const PARSE_ERRORS: bool = false;

    fn token(&mut self, token: Token<'a, '_>) -> Self::Output {
        RenderSink.token(token)
    }

    fn end(&mut self) -> Self::Output {
        None
    }
}

#[test]
fn a_sink_without_parse_errors_gets_the_same_tokens() {
    // Inputs with the errors the data state and the tag states check for: NUL and `&` in
    // text and values, duplicates, missing whitespace or values, `=` before a name, an
    // end tag with attributes or a solidus, EOF inside a tag.
    let inputs: [&[u8]; 8] = [
        b"a\0b &amp &#x; &notit; <p a=1 a=2 b='&x'c=\"\0\">t</p>",
        b"<p =x a=\"&quot\" b=&lt c=d\0e f=`g h=>i<j>/</p a=1/>",
        b"<br/ a=1><b a /><i a = \"1\" b\t=\t'2'><x \0=1 y\"z=2>",
        b"<a href=x class=\"y\" id='z' hidden>text &copy; more</a>",
        b"<p x y z",
        b"<p abc=\"unterminated",
        b"<title>&amp;\0</title><script>a\0<b</script>",
        b"",
    ];
    for input in inputs {
        for errors in [false, true] {
            let mut tok = Tokenizer::builder().errors(errors).build(input);
            let expected: Vec<_> =
                std::iter::from_fn(|| tok.next_token().map(|t| (render_token(t), t.span())))
                    .collect();
            let mut tok = Tokenizer::builder().errors(errors).build(input);
            let got: Vec<_> = std::iter::from_fn(|| tok.next_token_into(&mut QuietSink)).collect();
            assert_eq!(got, expected, "{input:?}, errors {errors}");
            if !errors {
                assert!(tok.errors().is_empty());
            }
        }
    }
}

/// [`RenderSink`] that switches the state itself ([`TokenSink::SIMULATION`] false, as the
/// tree builder's sink does): a tag it takes is not given to a simulator.
struct UnsimulatedSink;

impl<'a> TokenSink<'a> for UnsimulatedSink {
    type Output = Option<(String, crate::Span)>;
    const PARSE_ERRORS: bool = false;
    const SIMULATION: bool = false;

    fn token(&mut self, token: Token<'a, '_>) -> Self::Output {
        RenderSink.token(token)
    }

    fn end(&mut self) -> Self::Output {
        None
    }
}

#[test]
fn a_sink_without_the_simulation_gets_the_tokens_of_a_tokenizer_without_it() {
    let inputs: [&[u8]; 5] = [
        b"<title>a <b>c</b></title><p class=x>t</p>",
        b"<script>if (a<b) x()</script><style>p{}</style><textarea>\n<b></textarea>",
        b"<svg><![CDATA[<x>]]><path d=1 /></svg><math><mi>x</mi></math>tail",
        b"<plaintext><p>all text",
        b"",
    ];
    for input in inputs {
        let tokens = |simulation: bool, sink: bool| -> Vec<_> {
            let mut tok = Tokenizer::builder().simulation(simulation).build(input);
            if sink {
                std::iter::from_fn(|| tok.next_token_into(&mut UnsimulatedSink)).collect()
            } else {
                std::iter::from_fn(|| tok.next_token().map(|t| (render_token(t), t.span())))
                    .collect()
            }
        };
        let expected = tokens(false, false);
        assert_eq!(tokens(false, true), expected, "{input:?}");
        // A simulator the tokenizer has is not asked either: the same tokens.
        assert_eq!(tokens(true, true), expected, "{input:?}");
    }
}

/// A sink that decodes attribute names ([`TokenSink::DECODES_NAMES`]): each attribute's
/// `name_if_unchanged` and decoded name, and its spans.
struct NamesSink;

/// One tag's attributes as [`NamesSink`] and [`names_of`] record them.
type AttrNames = Vec<(Option<String>, String, crate::Span, Option<crate::Span>)>;

fn attr_names(token: Token<'_, '_>) -> AttrNames {
    match token {
        Token::StartTag(tag) | Token::EndTag(tag) => tag
            .attrs()
            .map(|a| {
                (
                    a.name_if_unchanged().map(str::to_owned),
                    a.name().into_owned(),
                    a.span(),
                    a.value_span(),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl<'a> TokenSink<'a> for NamesSink {
    type Output = Option<AttrNames>;
    const DECODES_NAMES: bool = true;

    fn token(&mut self, token: Token<'a, '_>) -> Self::Output {
        Some(attr_names(token))
    }

    fn end(&mut self) -> Self::Output {
        None
    }
}

/// The attribute names of `input` through `next_token` (which never learns whether a name
/// is lowercase) and through a sink that asks ([`NamesSink`]); errors on or off.
fn names_both_ways(input: &[u8], errors: bool) -> (Vec<AttrNames>, Vec<AttrNames>) {
    let mut tok = Tokenizer::builder().errors(errors).build(input);
    let plain: Vec<_> = std::iter::from_fn(|| tok.next_token().map(attr_names)).collect();
    let mut tok = Tokenizer::builder().errors(errors).build(input);
    let asked: Vec<_> = std::iter::from_fn(|| tok.next_token_into(&mut NamesSink)).collect();
    (plain, asked)
}

#[test]
fn lowercase_names_learnt_in_the_scan_are_the_names_decoding_keeps() {
    let inputs: [&[u8]; 14] = [
        b"<a href=x class=\"y\" id='z' hidden>",
        b"<svg viewBox=\"0 0 1 1\" xmlns=x><path D=1 d=2></svg>",
        b"<p data-a-rather-long-attribute-name=1 data-x=\"2\" a123456789012345=3 b1234567890123456>",
        b"<p a\0b=1 c\"d=2 e'f g<h=3>",
        b"<p =x =\"y\" ==z>",
        b"<p \xC3\xA9t\xC3\xA9=1 na\xEFve=\"2\">",
        b"<p a=1 a=2 A=3 b c b>",
        b"<p x y z",
        b"<p abc",
        b"<p abc=\"unterminated",
        b"<br/ a=1><b a /><i a = \"1\" b\t=\t'2'>",
        b"<x aB=1 Ab=\"2\" ab='3'>",
        b"</p a=1 b=\"2\">",
        b"",
    ];
    for input in inputs {
        for errors in [false, true] {
            let (plain, asked) = names_both_ways(input, errors);
            assert_eq!(asked, plain, "{input:?}, errors {errors}");
        }
    }
}

#[test]
fn lowercase_names_property() {
    use quickcheck::{QuickCheck, TestResult};
    // Tags with attribute names made of the bytes that matter to the name scan.
    fn check(parts: Vec<(u8, u8)>, errors: bool) -> TestResult {
        const PICK: &[u8] = b"aZb=\"' \t/\0<>\xC3\xA9-xAy1";
        let mut input = b"<p ".to_vec();
        for (a, b) in parts {
            input.push(PICK[a as usize % PICK.len()]);
            if b % 4 == 0 {
                input.extend_from_slice(b" q=\"v\" <i ");
            } else {
                input.push(PICK[b as usize % PICK.len()]);
            }
        }
        let (plain, asked) = names_both_ways(&input, errors);
        if asked == plain {
            TestResult::passed()
        } else {
            TestResult::error(format!("{input:?}: {asked:?} against {plain:?}"))
        }
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(check as fn(Vec<(u8, u8)>, bool) -> TestResult);
}
