//! Properties of the tokenizer on generated inputs ("never wrong, never stuck"), checked
//! with quickcheck on two generators:
//!
//! - [`Bytes`]: arbitrary bytes, biased toward the ones the states look at (`<`, `&`, `-`,
//!   quotes, …), NUL, CR, invalid UTF-8, with occasional long runs for the SIMD blocks;
//! - [`Html`]: HTML-shaped documents: tags with random-case names and attributes
//!   (quoted, unquoted, missing values, duplicates), comments (`--!>`, `<!-->`, nested),
//!   DOCTYPEs, `<script>` with `<!--`/`</script>` escapes, RCDATA and RAWTEXT elements,
//!   `<plaintext>`, character references (named, numeric, broken), `<svg>`/`<math>` with
//!   CDATA, stray `<`, `</`, `&`, NUL, CR LF and non-ASCII.
//!
//! The properties, each on both generators and with random options (initial state,
//! simulation, scripting, last start tag) unless said otherwise:
//!
//! 1. no panic, and the span contract (`checks::check_spans`: spans inside the input, in
//!    order, non-overlapping, inner spans inside their token, a middle gap is exactly
//!    `</>` (repeated), a final gap starts with `<`);
//! 2. the same tokens (kinds, spans, decoded strings) with parse errors on and off; error
//!    offsets inside the input and positions equal to an independent computation;
//! 3. the same tokens and errors with `Scanner::Scalar` and `Scanner::best()` (and SSE2),
//!    errors off and on;
//! 4. round trip: the tokens serialised back to HTML and tokenized again give the same
//!    tokens (names, attributes, self-closing flags, decoded text and data). Restriction:
//!    the simulation is off and the tokenizer starts in the data state, so every token
//!    comes from the data state and its descendants (RCDATA, RAWTEXT, script data and
//!    CDATA have no escaping, so text there has no faithful serialisation in general).
//!    Tokens with no faithful serialisation are left out of both sides: comments whose
//!    data starts with `>` or `->`, ends with `-`, or contains `--` or `<!-`; DOCTYPEs
//!    with an identifier containing `>` or both quote kinds, or with force-quirks set and
//!    an identifier present;
//! 5. decoding agrees with a reference decoder written here, character by character over
//!    the raw span (CR LF and CR → LF, NUL per context, character references by a naive
//!    longest match over the names in the spec's `entities.json`, with the attribute rule
//!    and the numeric fix-up table), independent of `src/charref`; and decoding borrows
//!    whenever the raw bytes are valid UTF-8 without `&`, CR, NUL (or, for names, an ASCII
//!    capital).
//!
//! 6. decoding over the input as a `&str` (`Text::text_and_nul_in`, `Comment::data_in`,
//!    which skip UTF-8 validation) gives the same strings, borrowed or not alike, as
//!    decoding its bytes (on the generated inputs made valid UTF-8).
//!
//! `entities.json` is read from `$HTMLTOK_SPEC_DIR`, else `../shared/spec` next to the
//! crate; the decoding properties fail with a message saying so when it is missing.
//!
//! Case counts: `QUICKCHECK_TESTS` overrides the per-property default.

use htmltok_test_support::{checks, data};

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use checks::{Options, STATES, Tok};
use htmltok::{Scanner, State, TextKind, Token};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult, Testable};

// ----- running -------------------------------------------------------------------------

fn qc<T: Testable>(default_tests: u64, size: usize, prop: T) {
    let tests = std::env::var("QUICKCHECK_TESTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default_tests);
    QuickCheck::new()
        .tests(tests)
        .max_tests(tests * 10)
        .rng(Gen::new(size))
        .quickcheck(prop);
}

fn verdict(r: Result<(), String>) -> TestResult {
    match r {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(e),
    }
}

// ----- generators ----------------------------------------------------------------------

fn below(g: &mut Gen, n: usize) -> usize {
    usize::arbitrary(g) % n.max(1)
}

fn one_in(g: &mut Gen, n: usize) -> bool {
    below(g, n) == 0
}

fn pick<'a>(g: &mut Gen, items: &[&'a str]) -> &'a str {
    g.choose(items).unwrap()
}

fn pick_bytes<'a>(g: &mut Gen, items: &[&'a [u8]]) -> &'a [u8] {
    g.choose(items).unwrap()
}

/// One of `items`, in random case.
fn pick_case(g: &mut Gen, items: &[&[u8]]) -> Vec<u8> {
    let item = pick_bytes(g, items);
    random_case(g, item)
}

/// `s` with each ASCII letter upper- or lowercased at random.
fn random_case(g: &mut Gen, s: &[u8]) -> Vec<u8> {
    s.iter()
        .map(|&b| {
            if bool::arbitrary(g) {
                b.to_ascii_uppercase()
            } else {
                b.to_ascii_lowercase()
            }
        })
        .collect()
}

/// Arbitrary bytes, biased toward the bytes the tokenizer looks at.
#[derive(Clone)]
struct Bytes(Vec<u8>);

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "b\"{}\"", self.0.escape_ascii())
    }
}

const MARKUP_BYTES: &[u8] = b"<>/!-&#;=\"'`?[]xX ";
const SPECIAL_BYTES: &[u8] = b"\0\r\n\t\x0c \xff\xc3\xa9\xe2\x82\xf0\x9f\xed\xa0\x01\x7f";
const WORD_BYTES: &[u8] = b"aAbsScCdDtTpPiImMlLvVgGrRxX0123456789";

impl Arbitrary for Bytes {
    fn arbitrary(g: &mut Gen) -> Self {
        let len = below(g, g.size() + 1);
        let mut v = Vec::with_capacity(len);
        while v.len() < len {
            match below(g, 10) {
                0 => v.push(u8::arbitrary(g)),
                1..=3 => v.push(*g.choose(MARKUP_BYTES).unwrap()),
                4 => v.push(*g.choose(SPECIAL_BYTES).unwrap()),
                5 => {
                    // A word the states recognise, in random case.
                    let word = pick_bytes(
                        g,
                        &[
                            b"<!--",
                            b"-->",
                            b"<!DOCTYPE",
                            b"script",
                            b"</script",
                            b"title",
                            b"<![CDATA[",
                            b"]]>",
                            b"&amp;",
                            b"&#x",
                            b"PUBLIC",
                            b"SYSTEM",
                            b"<svg>",
                            b"<math>",
                            b"style",
                            b"plaintext",
                            b"&not",
                            b"textarea",
                        ],
                    );
                    v.extend(random_case(g, word));
                }
                6 if one_in(g, 4) => {
                    // A long run, for the SIMD scanners' blocks.
                    let b = *g.choose(WORD_BYTES).unwrap();
                    let n = 16 + below(g, 200);
                    v.extend(std::iter::repeat_n(b, n));
                }
                _ => v.push(*g.choose(WORD_BYTES).unwrap()),
            }
        }
        Bytes(v)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Bytes))
    }
}

/// An HTML-shaped document, as a list of pieces (shrinking removes pieces).
#[derive(Clone)]
struct Html(Vec<Vec<u8>>);

impl Html {
    fn bytes(&self) -> Vec<u8> {
        self.0.concat()
    }
}

impl std::fmt::Debug for Html {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "b\"{}\"", self.bytes().escape_ascii())
    }
}

const TEXT: &[&[u8]] = &[
    b"hello",
    b" ",
    b"world",
    b"a",
    b"1 < 2",
    b"x > y",
    b"\xc3\xa9",
    "中文".as_bytes(),
    "😀".as_bytes(),
    b"\r\n",
    b"\r",
    b"\n",
    b"\0",
    b"\t",
    b"\x0c",
    b"'",
    b"\"",
    b"=",
    b"]]>",
    b"-->",
    b"-",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xef\xbf\xbe",
    b"\x01",
    b"\x7f",
    b"\xc2\x80",
    b"`",
    b";",
    b"#",
    b"!",
    b"?",
    b"/",
];

fn text(g: &mut Gen) -> Vec<u8> {
    let mut v = Vec::new();
    for _ in 0..1 + below(g, 6) {
        if one_in(g, 4) {
            v.extend(charref(g));
        } else {
            v.extend(pick_bytes(g, TEXT));
        }
    }
    v
}

fn charref(g: &mut Gen) -> Vec<u8> {
    if bool::arbitrary(g) {
        let name = pick(
            g,
            &[
                "&amp;",
                "&amp",
                "&AMP",
                "&AMP;",
                "&lt",
                "&lt;",
                "&gt;",
                "&notit;",
                "&notin;",
                "&not",
                "&noti",
                "&Aacute",
                "&aacute;",
                "&zwnj;",
                "&NotNestedGreaterGreater;",
                "&xyz;",
                "&;",
                "&",
                "&&",
                "&quot",
                "&nbsp",
                "&nbspx",
                "&copy=",
                "&amp=",
                "&ampx",
                "&AElig",
                "&thetasym;",
                "&amp;x",
                "&fjlig;",
                "&nGt;",
                "&a",
                "&#",
                "&#x",
                "&#X",
                "&#;",
                "&#x;",
                "&#xg",
                "&lt=",
            ],
        );
        name.as_bytes().to_vec()
    } else {
        let hex = bool::arbitrary(g);
        let mut v = if hex {
            random_case(g, b"&#x")
        } else {
            b"&#".to_vec()
        };
        let special = [
            "0",
            "65",
            "128",
            "159",
            "13",
            "55296",
            "1114111",
            "1114112",
            "65534",
            "9",
            "99999999999999999999",
            "00000000000065",
            "12",
        ];
        let special_hex = [
            "0",
            "41",
            "80",
            "9F",
            "9f",
            "D800",
            "DFFF",
            "10FFFF",
            "110000",
            "FFFE",
            "1FFFF",
            "FFFFFFFFFFFFFFFFFFFF",
            "0000000041",
            "D",
            "81",
            "8D",
        ];
        if bool::arbitrary(g) {
            v.extend(pick(g, if hex { &special_hex } else { &special }).as_bytes());
        } else {
            let digits: &[u8] = if hex {
                b"0123456789abcdefABCDEF"
            } else {
                b"0123456789"
            };
            for _ in 0..below(g, 12) {
                v.push(*g.choose(digits).unwrap());
            }
        }
        match below(g, 4) {
            0 => {}
            1 => v.push(b'x'),
            _ => v.push(b';'),
        }
        v
    }
}

const TAG_NAMES: &[&[u8]] = &[
    b"div",
    b"a",
    b"p",
    b"b",
    b"span",
    b"br",
    b"img",
    b"font",
    b"script",
    b"title",
    b"textarea",
    b"style",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
    b"noscript",
    b"svg",
    b"math",
    b"foreignObject",
    b"desc",
    b"mi",
    b"mo",
    b"mtext",
    b"annotation-xml",
    b"table",
    b"select",
    b"template",
    b"body",
    b"html",
    b"h1",
    b"x-y",
    b"a1",
    b"a\xc3\xa9",
    b"a\0b",
    b"a<b",
    b"a\"b",
    b"a'b",
    b"a=b",
    b"a&amp;",
    b"i\xff",
];

fn tag_name(g: &mut Gen) -> Vec<u8> {
    pick_case(g, TAG_NAMES)
}

fn attr_value(g: &mut Gen) -> Vec<u8> {
    let mut v = Vec::new();
    for _ in 0..below(g, 4) {
        if one_in(g, 3) {
            v.extend(charref(g));
        } else {
            v.extend(pick_bytes(
                g,
                &[
                    b"x",
                    b"a b",
                    b"'",
                    b"\"",
                    b">",
                    b"<",
                    b"=",
                    b"`",
                    b"\0",
                    b"\r\n",
                    b"\r",
                    b"\xc3\xa9",
                    b"\xff",
                    b"/",
                    b"text/html",
                    b"red",
                ],
            ));
        }
    }
    if one_in(g, 12) {
        v.extend(std::iter::repeat_n(b'v', 20 + below(g, 150)));
    }
    v
}

fn attributes(g: &mut Gen) -> Vec<u8> {
    let mut v = Vec::new();
    for _ in 0..below(g, 5) {
        v.extend(pick_bytes(
            g,
            &[
                b" ", b" ", b"  ", b"\t", b"\n", b"\r\n", b"\r", b"\x0c", b"", b"/", b" / ",
            ],
        ));
        let name = pick_bytes(
            g,
            &[
                b"href",
                b"class",
                b"id",
                b"a",
                b"b",
                b"encoding",
                b"color",
                b"face",
                b"size",
                b"data-x",
                b"=x",
                b"\"q",
                b"'q",
                b"<x",
                b"a\0",
                b"\xc3\xa9",
                b"x`",
                b"on",
                b"c",
            ],
        );
        v.extend(random_case(g, name));
        let value = attr_value(g);
        match below(g, 7) {
            0 | 1 => {}
            2 => {
                v.push(b'=');
                v.extend(value.iter().filter(|b| !b" \t\n\r\x0c>".contains(b)));
            }
            3 => {
                v.extend(pick_bytes(g, &[b"=", b" = ", b"\n=\n"]));
                v.push(b'"');
                v.extend(value.iter().filter(|&&b| b != b'"'));
                v.push(b'"');
            }
            4 => {
                v.push(b'=');
                v.push(b'\'');
                v.extend(value.iter().filter(|&&b| b != b'\''));
                v.push(b'\'');
            }
            5 => v.extend(pick_bytes(g, &[b"=", b"= ", b"=\"\"", b"=''"])),
            _ => {
                v.push(b'=');
                v.extend(value);
            }
        }
    }
    v
}

/// A tag with many attributes (past the duplicate check's linear threshold of 16), names
/// from a small pool so that some repeat.
fn many_attributes(g: &mut Gen) -> Vec<u8> {
    let mut v = b"<t".to_vec();
    for _ in 0..14 + below(g, 30) {
        v.push(b' ');
        let len = 1 + below(g, 2);
        let name: Vec<u8> = (0..len)
            .map(|_| *g.choose(b"abcdefghijklmnopqrsAB").unwrap())
            .collect();
        v.extend(name);
        if one_in(g, 3) {
            v.extend(b"=v");
        }
    }
    v.push(b'>');
    v
}

fn start_tag(g: &mut Gen, name: &[u8]) -> Vec<u8> {
    let mut v = vec![b'<'];
    v.extend(random_case(g, name));
    if one_in(g, 2) {
        v.extend(attributes(g));
    }
    if one_in(g, 5) {
        v.extend(pick_bytes(g, &[b"/", b" /", b"/ ", b" "]));
    }
    if !one_in(g, 30) {
        v.push(b'>');
    }
    v
}

fn end_tag(g: &mut Gen, name: &[u8]) -> Vec<u8> {
    let mut v = b"</".to_vec();
    v.extend(random_case(g, name));
    if one_in(g, 6) {
        v.extend(attributes(g));
    }
    if one_in(g, 8) {
        v.extend(pick_bytes(g, &[b"/", b" ", b"\n", b" x", b"x"]));
    }
    if !one_in(g, 30) {
        v.push(b'>');
    }
    v
}

fn comment(g: &mut Gen) -> Vec<u8> {
    let mut data = Vec::new();
    for _ in 0..below(g, 5) {
        data.extend(pick_bytes(
            g,
            &[
                b"x",
                b" ",
                b"-",
                b"--",
                b"<",
                b"!",
                b">",
                b"<!-",
                b"<!--",
                b"\0",
                b"\r\n",
                b"\xc3\xa9",
            ],
        ));
    }
    let fixed: &[&[u8]] = &[
        b"<!-->",
        b"<!--->",
        b"<!---->",
        b"<!-- a -- b -->",
        b"<!--<!---->",
        b"<!--<!-->",
        b"<!--a<!--b-->",
        b"<!-x>",
        b"<!>",
        b"<?php x ?>",
        b"<!-",
        b"<!--a--->",
        b"<!--a--!->",
        b"<!---x-->",
        b"<!--->x-->",
        b"<!",
        b"<?",
        b"<!--a-- >b-->",
    ];
    match below(g, 8) {
        0..=2 => [b"<!--".as_slice(), &data, b"-->"].concat(),
        3 => [b"<!--".as_slice(), &data, b"--!>"].concat(),
        4 => [
            b"<!--".as_slice(),
            &data,
            pick_bytes(g, &[b"--!", b"-", b"--", b""]),
        ]
        .concat(),
        5 => [b"<!".as_slice(), &data, b">"].concat(),
        _ => pick_bytes(g, fixed).to_vec(),
    }
}

fn doctype(g: &mut Gen) -> Vec<u8> {
    let mut v = random_case(g, b"<!doctype");
    v.extend(pick_bytes(g, &[b" ", b"", b"  ", b"\n", b"\t"]));
    v.extend(pick_case(
        g,
        &[b"html", b"", b"h\0", b"x\xc3\xa9", b"svg", b"html"],
    ));
    let quote = |g: &mut Gen| -> &'static [u8] { pick_bytes(g, &[b"\"", b"'", b""]) };
    match below(g, 7) {
        0 | 1 => {}
        2 => {
            v.extend(pick_case(g, &[b" PUBLIC ", b" PUBLIC", b"PUBLIC "]));
            let q = quote(g);
            v.extend(q);
            v.extend(pick_bytes(
                g,
                &[b"-//W3C//DTD HTML 4.01//EN", b"", b"a>b", b"\0"],
            ));
            v.extend(q);
            if bool::arbitrary(g) {
                v.extend(pick_bytes(g, &[b" ", b""]));
                let q = quote(g);
                v.extend(q);
                v.extend(pick_bytes(
                    g,
                    &[b"http://www.w3.org/TR/html4/strict.dtd", b"", b"x>"],
                ));
                v.extend(q);
            }
        }
        3 => {
            v.extend(pick_case(g, &[b" SYSTEM ", b" SYSTEM", b" system"]));
            let q = quote(g);
            v.extend(q);
            v.extend(pick_bytes(g, &[b"about:legacy-compat", b"", b"a'b\"c"]));
            v.extend(q);
        }
        4 => v.extend(pick_bytes(
            g,
            &[b" bogus", b" PUBLI", b" SYSTEMx", b" x y z"],
        )),
        _ => v.extend(pick_bytes(g, &[b" ", b"\r\n"])),
    }
    if !one_in(g, 20) {
        v.push(b'>');
    }
    v
}

const SCRIPT_BODY: &[&[u8]] = &[
    b"<!--",
    b"-->",
    b"<script>",
    b"</script>",
    b"<SCRIPT ",
    b"</script ",
    b"--",
    b"-",
    b"<",
    b"</",
    b"<!",
    b"x",
    b"if (a<b)",
    b"\0",
    b"\r\n",
    b"<!--<script>",
    b"</scripty",
    b"<scrip",
    b"<script/",
    b"</SCRIPT>",
    b"-->x",
    b"<!-- -->",
    b"<!--<script></script>-->",
    b"'",
];

fn raw_element(g: &mut Gen) -> Vec<u8> {
    let name: &[u8] = pick_bytes(
        g,
        &[
            b"script",
            b"script",
            b"title",
            b"textarea",
            b"style",
            b"xmp",
            b"iframe",
            b"noembed",
            b"noframes",
            b"noscript",
        ],
    );
    let mut v = start_tag(g, name);
    for _ in 0..below(g, 8) {
        if name == b"script" && bool::arbitrary(g) {
            v.extend(pick_bytes(g, SCRIPT_BODY));
        } else if bool::arbitrary(g) {
            v.extend(text(g));
        } else {
            v.extend(pick_bytes(
                g,
                &[
                    b"<b>",
                    b"</b>",
                    b"</",
                    b"<",
                    b"</tit",
                    b"</title",
                    b"</style x>",
                    b"&amp;",
                ],
            ));
        }
    }
    if !one_in(g, 5) {
        v.extend(end_tag(g, name));
    }
    v
}

fn cdata(g: &mut Gen) -> Vec<u8> {
    let mut v = random_case(g, b"<![CDATA[");
    if one_in(g, 3) {
        v = b"<![CDATA[".to_vec();
    }
    for _ in 0..below(g, 5) {
        v.extend(pick_bytes(
            g,
            &[
                b"x", b"]", b"]]", b"]]]", b">", b"<", b"\0", b"\r\n", b"<b>", b"&amp;", b"]>",
            ],
        ));
    }
    if !one_in(g, 6) {
        v.extend(b"]]>");
    }
    v
}

fn foreign(g: &mut Gen, depth: usize) -> Vec<u8> {
    let root: &[u8] = if bool::arbitrary(g) { b"svg" } else { b"math" };
    let mut v = start_tag(g, root);
    for _ in 0..below(g, 8) {
        match below(g, 12) {
            0..=2 => v.extend(cdata(g)),
            3 => v.extend(pick_bytes(
                g,
                &[
                    b"<foreignObject>",
                    b"</foreignObject>",
                    b"<mi>",
                    b"</mi>",
                    b"<annotation-xml encoding=\"text/html\">",
                    b"<annotation-xml>",
                    b"</annotation-xml>",
                    b"<desc>",
                    b"</desc>",
                    b"<svg/>",
                    b"<math/>",
                ],
            )),
            4 => v.extend(pick_bytes(
                g,
                &[
                    b"<p>",
                    b"</p>",
                    b"</br>",
                    b"<font color=red>",
                    b"<font>",
                    b"<b>",
                    b"<div>",
                    b"</svg>",
                    b"</math>",
                ],
            )),
            5 if depth < 2 => v.extend(foreign(g, depth + 1)),
            6 => v.extend(raw_element(g)),
            _ => v.extend(piece(g, depth + 1)),
        }
    }
    if bool::arbitrary(g) {
        v.extend(end_tag(g, root));
    }
    v
}

fn piece(g: &mut Gen, depth: usize) -> Vec<u8> {
    match below(g, 40) {
        0..=7 => text(g),
        8..=10 => charref(g),
        11..=15 => {
            let name = tag_name(g);
            start_tag(g, &name)
        }
        16..=18 => {
            let name = tag_name(g);
            end_tag(g, &name)
        }
        19..=21 => comment(g),
        22 | 23 => doctype(g),
        24..=27 => raw_element(g),
        28 | 29 if depth < 2 => foreign(g, depth),
        30 | 31 => cdata(g),
        32 if one_in(g, 4) => {
            let mut v = start_tag(g, b"plaintext");
            v.extend(text(g));
            v
        }
        33 | 34 => pick_bytes(
            g,
            &[
                b"<",
                b"</",
                b"&",
                b"<!",
                b"<![CDATA[",
                b"]]>",
                b"< ",
                b"<>",
                b"</ ",
                b"<3",
                b"<\0",
                b"</\0",
                b"<?",
                b"<!-",
                b"<\xc3\xa9",
                b"</>",
                b"</></>",
                b"<a",
                b"</a",
            ],
        )
        .to_vec(),
        35 => {
            // A long run inside some construct, for the SIMD scanners.
            let n = 16 + below(g, 300);
            let fill = *g.choose(b"aZ- &<\"'=\0\r\n\xc3]").unwrap();
            let body = vec![fill; n];
            match below(g, 5) {
                0 => [b"<a title=\"".as_slice(), &body, b"\">"].concat(),
                1 => [b"<!--".as_slice(), &body, b"-->"].concat(),
                2 => [b"<x".as_slice(), &body, b">"].concat(),
                3 => [b"<a b=".as_slice(), &body, b">"].concat(),
                _ => body,
            }
        }
        36 => many_attributes(g),
        _ => text(g),
    }
}

impl Arbitrary for Html {
    fn arbitrary(g: &mut Gen) -> Self {
        let n = below(g, g.size() + 1);
        Html((0..n).map(|_| piece(g, 0)).collect())
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(Html))
    }
}

/// Options for HTML-shaped documents: mostly the data state.
#[derive(Clone, Debug)]
struct HtmlOptions(Options);

impl Arbitrary for HtmlOptions {
    fn arbitrary(g: &mut Gen) -> Self {
        let mut o = Options::arbitrary(g);
        if !one_in(g, 5) {
            o.state = State::Data;
        }
        HtmlOptions(o)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(HtmlOptions))
    }
}

// ----- 1. no panic, span contract ------------------------------------------------------

fn span_contract(input: &[u8], options: &Options) -> Result<(), String> {
    for scanner in checks::scanners() {
        for errors in [false, true] {
            let run = checks::run(input, options, errors, scanner);
            checks::check_spans(input, &run.tokens)
                .map_err(|e| format!("{scanner:?}, errors {errors}: {e}"))?;
        }
    }
    Ok(())
}

#[test]
fn span_contract_on_bytes() {
    fn prop(o: Options, b: Bytes) -> TestResult {
        verdict(span_contract(&b.0, &o))
    }
    qc(2000, 300, prop as fn(Options, Bytes) -> TestResult);
}

#[test]
fn span_contract_on_html() {
    fn prop(o: HtmlOptions, h: Html) -> TestResult {
        verdict(span_contract(&h.bytes(), &o.0))
    }
    qc(1000, 30, prop as fn(HtmlOptions, Html) -> TestResult);
}

/// Duplicate attribute names are dropped (13.2.5.33) however many attributes a tag has
/// (`check_spans` checks it on every tag too). Tags past the duplicate check's linear
/// threshold of 16 attributes once kept repeated names (fixed in ccb3e60).
#[test]
fn attribute_names_are_unique_in_big_tags() {
    #[derive(Clone, Debug)]
    struct BigTags(Vec<u8>);
    impl Arbitrary for BigTags {
        fn arbitrary(g: &mut Gen) -> Self {
            BigTags(
                (0..1 + below(g, 4))
                    .flat_map(|_| many_attributes(g))
                    .collect(),
            )
        }
    }
    fn prop(b: BigTags) -> TestResult {
        let run = checks::run(&b.0, &Options::default(), true, Scanner::best());
        for t in &run.tokens {
            if let Tok::Tag { attrs, .. } = t {
                let mut seen = std::collections::HashSet::new();
                if let Some(a) = attrs.iter().find(|a| !seen.insert(&a.name)) {
                    return TestResult::error(format!("{:?} kept twice", a.name));
                }
            }
        }
        TestResult::passed()
    }
    qc(1000, 10, prop as fn(BigTags) -> TestResult);
}

// ----- 1b. the stream tokenizer -----------------------------------------------------------

/// How a stream is fed: chunk sizes (cycled) and the run sizes (`set_run_sizes`).
#[derive(Clone, Debug)]
struct Chunking {
    chunks: Vec<usize>,
    runs: (usize, usize),
}

impl Arbitrary for Chunking {
    fn arbitrary(g: &mut Gen) -> Self {
        let chunks = match below(g, 4) {
            0 => vec![1],
            1 => vec![usize::MAX],
            _ => (0..1 + below(g, 8)).map(|_| 1 + below(g, 200)).collect(),
        };
        let runs = match below(g, 3) {
            0 => (4096, 256 * 1024),
            1 => (1, 1),
            _ => (1 + below(g, 300), 1 + below(g, 600)),
        };
        Chunking { chunks, runs }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let runs = self.runs;
        Box::new(
            self.chunks
                .shrink()
                .filter(|c| !c.is_empty())
                .map(move |chunks| Chunking { chunks, runs }),
        )
    }
}

/// Property 1b: for every input, options and chunking, the stream tokenizer gives the
/// whole-input tokens (text pieces joined) and errors, in the same order.
#[test]
fn the_stream_gives_the_whole_input_tokens_on_bytes() {
    fn prop(o: Options, b: Bytes, c: Chunking) -> TestResult {
        verdict(checks::check_stream(&b.0, &o, &c.chunks, c.runs))
    }
    qc(
        2000,
        300,
        prop as fn(Options, Bytes, Chunking) -> TestResult,
    );
}

#[test]
fn the_stream_gives_the_whole_input_tokens_on_html() {
    fn prop(o: HtmlOptions, h: Html, c: Chunking) -> TestResult {
        verdict(checks::check_stream(&h.bytes(), &o.0, &c.chunks, c.runs))
    }
    qc(
        1000,
        30,
        prop as fn(HtmlOptions, Html, Chunking) -> TestResult,
    );
}

// ----- 2. errors on and off ------------------------------------------------------------

fn errors_on_off(input: &[u8], options: &Options) -> Result<(), String> {
    let off = checks::run(input, options, false, Scanner::best());
    let on = checks::run(input, options, true, Scanner::best());
    if !off.errors.is_empty() {
        return Err(format!("errors recorded with errors off: {:?}", off.errors));
    }
    checks::diff_tokens("errors off vs on", &off.tokens, &on.tokens)?;
    checks::check_error_offsets(input, &on.errors)?;
    checks::check_positions(input, &on.errors)
}

#[test]
fn errors_on_and_off_give_the_same_tokens_on_bytes() {
    fn prop(o: Options, b: Bytes) -> TestResult {
        verdict(errors_on_off(&b.0, &o))
    }
    qc(2000, 300, prop as fn(Options, Bytes) -> TestResult);
}

#[test]
fn errors_on_and_off_give_the_same_tokens_on_html() {
    fn prop(o: HtmlOptions, h: Html) -> TestResult {
        verdict(errors_on_off(&h.bytes(), &o.0))
    }
    qc(1000, 30, prop as fn(HtmlOptions, Html) -> TestResult);
}

// ----- 3. scanners ---------------------------------------------------------------------

fn scanners_agree(input: &[u8], options: &Options) -> Result<(), String> {
    checks::check_scalar_vs_best(input, options)?;
    if Scanner::Sse2.is_supported() && Scanner::best() != Scanner::Sse2 {
        let a = checks::run(input, options, true, Scanner::best());
        let b = checks::run(input, options, true, Scanner::Sse2);
        checks::diff_tokens("best vs SSE2", &a.tokens, &b.tokens)?;
        checks::diff_errors("best vs SSE2", &a.errors, &b.errors)?;
    }
    Ok(())
}

#[test]
fn scalar_and_simd_scanners_agree_on_bytes() {
    fn prop(o: Options, b: Bytes) -> TestResult {
        verdict(scanners_agree(&b.0, &o))
    }
    qc(2000, 400, prop as fn(Options, Bytes) -> TestResult);
}

#[test]
fn scalar_and_simd_scanners_agree_on_html() {
    fn prop(o: HtmlOptions, h: Html) -> TestResult {
        verdict(scanners_agree(&h.bytes(), &o.0))
    }
    qc(1000, 30, prop as fn(HtmlOptions, Html) -> TestResult);
}

// ----- 4. round trip -------------------------------------------------------------------

/// A token without spans, for the round trip.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Plain {
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
    },
    Tag {
        end: bool,
        name: String,
        attrs: Vec<(String, String)>,
        self_closing: bool,
    },
    Comment(String),
    Text(String),
}

fn push_plain(out: &mut Vec<Plain>, t: Plain) {
    if let Plain::Text(s) = &t
        && let Some(Plain::Text(prev)) = out.last_mut()
    {
        prev.push_str(s);
        return;
    }
    out.push(t);
}

fn plain(tokens: &[Tok]) -> Vec<Plain> {
    let mut out = Vec::new();
    for t in tokens {
        push_plain(&mut out, plain_of(t));
    }
    out
}

fn plain_of(t: &Tok) -> Plain {
    match t {
        Tok::Doctype {
            name,
            public_id,
            system_id,
            force_quirks,
            ..
        } => Plain::Doctype {
            name: name.clone(),
            public_id: public_id.clone(),
            system_id: system_id.clone(),
            force_quirks: *force_quirks,
        },
        Tok::Tag {
            end,
            name,
            attrs,
            self_closing,
            ..
        } => Plain::Tag {
            end: *end,
            name: name.clone(),
            attrs: attrs
                .iter()
                .map(|a| (a.name.clone(), a.value.clone()))
                .collect(),
            self_closing: *self_closing,
        },
        Tok::Comment { data, .. } => Plain::Comment(data.clone()),
        Tok::Text { text, .. } => Plain::Text(text.clone()),
    }
}

/// Escapes text for the data state: `&`, `<`, and CR (which only a character reference
/// can have put there; a raw one would be normalised to LF).
fn escape_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('\r', "&#13;")
}

fn escape_attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('\r', "&#13;")
}

fn comment_serialisable(d: &str) -> bool {
    !d.starts_with('>')
        && !d.starts_with("->")
        && !d.ends_with('-')
        && !d.contains("--")
        && !d.contains("<!-")
}

fn quote_for(id: &str) -> Option<char> {
    if id.contains('>') {
        None
    } else if !id.contains('"') {
        Some('"')
    } else if !id.contains('\'') {
        Some('\'')
    } else {
        None
    }
}

/// Serialises the tokens that have a faithful serialisation (see the module docs) and
/// returns the HTML and the tokens it must give back.
fn serialise(tokens: &[Tok]) -> Result<(String, Vec<Plain>), String> {
    let mut html = String::new();
    let mut expected = Vec::new();
    for t in tokens {
        let ok = match t {
            Tok::Text { kind, text, .. } => {
                if *kind != TextKind::Data {
                    return Err(format!(
                        "simulation off, data state, but {kind:?} text: {t:?}"
                    ));
                }
                html.push_str(&escape_text(text));
                true
            }
            Tok::Tag {
                end,
                name,
                attrs,
                self_closing,
                ..
            } => {
                html.push_str(if *end { "</" } else { "<" });
                html.push_str(name);
                for a in attrs {
                    html.push(' ');
                    html.push_str(&a.name);
                    html.push_str("=\"");
                    html.push_str(&escape_attr(&a.value));
                    html.push('"');
                }
                if *self_closing {
                    html.push('/');
                }
                html.push('>');
                true
            }
            Tok::Comment { data, .. } => {
                let ok = comment_serialisable(data);
                if ok {
                    html.push_str("<!--");
                    html.push_str(data);
                    html.push_str("-->");
                }
                ok
            }
            Tok::Doctype {
                name,
                public_id,
                system_id,
                force_quirks,
                ..
            } => {
                let mut s = String::from("<!DOCTYPE");
                let ok = match (name, public_id, system_id, force_quirks) {
                    (None, None, None, true) => true,
                    (Some(n), None, None, true) => {
                        s.push(' ');
                        s.push_str(n);
                        s.push_str(" x");
                        true
                    }
                    (Some(n), p, sy, false) => {
                        s.push(' ');
                        s.push_str(n);
                        let mut ok = true;
                        if let Some(p) = p {
                            s.push_str(" PUBLIC ");
                            match quote_for(p) {
                                Some(q) => s.push_str(&format!("{q}{p}{q}")),
                                None => ok = false,
                            }
                        } else if sy.is_some() {
                            s.push_str(" SYSTEM");
                        }
                        if let Some(sy) = sy {
                            s.push(' ');
                            match quote_for(sy) {
                                Some(q) => s.push_str(&format!("{q}{sy}{q}")),
                                None => ok = false,
                            }
                        }
                        ok
                    }
                    _ => false,
                };
                if ok {
                    s.push('>');
                    html.push_str(&s);
                }
                ok
            }
        };
        if ok {
            push_plain(&mut expected, plain_of(t));
        }
    }
    Ok((html, expected))
}

fn round_trip(input: &[u8]) -> Result<(), String> {
    let options = Options::data_only();
    let first = checks::run(input, &options, false, Scanner::best());
    let (html, expected) = serialise(&first.tokens)?;
    // The serialisation is a decoded stream: a U+FEFF at its start is text (it was text,
    // or the input's own BOM was skipped and is not in the tokens).
    let reread = Options {
        keep_bom: true,
        ..options
    };
    let second = checks::run(html.as_bytes(), &reread, false, Scanner::best());
    let got = plain(&second.tokens);
    if got != expected {
        let i = got
            .iter()
            .zip(&expected)
            .take_while(|(a, b)| a == b)
            .count();
        return Err(format!(
            "round trip differs at token {i}:\n  serialised: {html:?}\n  expected {:?}\n  got      {:?}",
            expected.get(i),
            got.get(i)
        ));
    }
    Ok(())
}

#[test]
fn round_trip_on_bytes() {
    fn prop(b: Bytes) -> TestResult {
        verdict(round_trip(&b.0))
    }
    qc(2000, 300, prop as fn(Bytes) -> TestResult);
}

#[test]
fn round_trip_on_html() {
    fn prop(h: Html) -> TestResult {
        verdict(round_trip(&h.bytes()))
    }
    qc(1500, 30, prop as fn(Html) -> TestResult);
}

#[test]
fn round_trip_examples() {
    for input in [
        &b"<a href='x&amp;y' title=\"&quot;\">a &lt; b</a>"[..],
        b"<!DOCTYPE html PUBLIC \"a'b\" 'c\"d'><!-- c --><!--->",
        b"x&#13;y\r\nz\0<br/></p x=y/>",
        b"<!DOCTYPE><!DOCTYPE html bogus><?pi><!x>",
    ] {
        round_trip(input).unwrap();
    }
}

// ----- 5. decoding against a reference decoder -----------------------------------------

/// The named character references of the spec's `entities.json` (names without `&`).
struct Entities {
    map: HashMap<String, String>,
    longest: usize,
}

/// The spec's table, or None when `entities.json` is absent.
fn entities() -> Option<&'static Entities> {
    static ENTITIES: OnceLock<Option<Entities>> = OnceLock::new();
    ENTITIES
        .get_or_init(|| {
            let path = data::spec_dir().ok()?.join("entities.json");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let json: serde_json::Value =
                serde_json::from_str(&text).expect("entities.json is JSON");
            let mut map = HashMap::new();
            for (name, v) in json.as_object().expect("entities.json is an object") {
                let name = name.strip_prefix('&').expect("entity names start with &");
                let chars = v["characters"].as_str().expect("characters").to_string();
                map.insert(name.to_string(), chars);
            }
            assert_eq!(map.len(), 2231, "entities.json should list 2,231 names");
            let longest = map.keys().map(|k| k.chars().count()).max().unwrap();
            Some(Entities { map, longest })
        })
        .as_ref()
}

/// Whether the reference decoder has its table; when not, says that `what` was not run
/// (or fails under CI).
fn have_entities(what: &str) -> bool {
    if entities().is_some() {
        return true;
    }
    if let Err(message) = data::spec_dir() {
        data::missing(what, &message);
    }
    false
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Data,
    Rcdata,
    Verbatim,
    Cdata,
    Attr,
    Name,
}

/// The numeric character reference end state's fix-ups (13.2.5.80).
fn numeric_fixup(code: u64) -> char {
    const C1: [(u64, u32); 27] = [
        (0x80, 0x20AC),
        (0x82, 0x201A),
        (0x83, 0x0192),
        (0x84, 0x201E),
        (0x85, 0x2026),
        (0x86, 0x2020),
        (0x87, 0x2021),
        (0x88, 0x02C6),
        (0x89, 0x2030),
        (0x8A, 0x0160),
        (0x8B, 0x2039),
        (0x8C, 0x0152),
        (0x8E, 0x017D),
        (0x91, 0x2018),
        (0x92, 0x2019),
        (0x93, 0x201C),
        (0x94, 0x201D),
        (0x95, 0x2022),
        (0x96, 0x2013),
        (0x97, 0x2014),
        (0x98, 0x02DC),
        (0x99, 0x2122),
        (0x9A, 0x0161),
        (0x9B, 0x203A),
        (0x9C, 0x0153),
        (0x9E, 0x017E),
        (0x9F, 0x0178),
    ];
    if code == 0 || code > 0x10FFFF || (0xD800..=0xDFFF).contains(&code) {
        return '\u{FFFD}';
    }
    if let Some(&(_, to)) = C1.iter().find(|&&(from, _)| from == code) {
        return char::from_u32(to).unwrap();
    }
    char::from_u32(code as u32).unwrap()
}

/// The character reference after an `&` (13.2.5.72–80): what it stands for and how many
/// characters after the `&` it consumes; None when the `&` stays a literal `&` (the
/// characters after it are then read as ordinary characters, which is what "flush code
/// points consumed as a character reference" amounts to for them).
fn reference_charref(rest: &[char], in_attribute: bool) -> Option<(String, usize)> {
    if rest.first() == Some(&'#') {
        let hex = matches!(rest.get(1), Some('x' | 'X'));
        let start = if hex { 2 } else { 1 };
        let radix = if hex { 16 } else { 10 };
        let digits = rest[start..]
            .iter()
            .take_while(|c| c.is_digit(radix))
            .count();
        if digits == 0 {
            return None; // absence-of-digits: `&#` (or `&#x`) stays as it is
        }
        let mut code: u64 = 0;
        for c in &rest[start..start + digits] {
            code = (code * radix as u64 + c.to_digit(radix).unwrap() as u64).min(0x110000);
        }
        let mut len = start + digits;
        if rest.get(len) == Some(&';') {
            len += 1;
        }
        return Some((numeric_fixup(code).to_string(), len));
    }
    let ents = entities().expect("the tests check have_entities first");
    let max = ents.longest.min(rest.len());
    for n in (1..=max).rev() {
        let candidate: String = rest[..n].iter().collect();
        if let Some(value) = ents.map.get(&candidate) {
            let semicolon = candidate.ends_with(';');
            if in_attribute
                && !semicolon
                && rest
                    .get(n)
                    .is_some_and(|c| *c == '=' || c.is_ascii_alphanumeric())
            {
                return None; // historical reasons: not a reference in an attribute
            }
            return Some((value.clone(), n));
        }
    }
    None
}

/// Decodes a raw span character by character, as the tokenizer would have produced it.
fn reference_decode(raw: &[u8], ctx: Ctx) -> String {
    // Invalid UTF-8 → one U+FFFD per maximal subpart; ASCII bytes are never part of an
    // invalid subpart, so this cannot change any character the rules below look at.
    let chars: Vec<char> = String::from_utf8_lossy(raw).chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\r' => {
                out.push('\n');
                if chars.get(i) == Some(&'\n') {
                    i += 1;
                }
            }
            '\0' => out.push(if matches!(ctx, Ctx::Data | Ctx::Cdata) {
                '\0'
            } else {
                '\u{FFFD}'
            }),
            '&' if matches!(ctx, Ctx::Data | Ctx::Rcdata | Ctx::Attr) => {
                match reference_charref(&chars[i..], ctx == Ctx::Attr) {
                    Some((value, len)) => {
                        out.push_str(&value);
                        i += len;
                    }
                    None => out.push('&'),
                }
            }
            'A'..='Z' if ctx == Ctx::Name => out.push(c.to_ascii_lowercase()),
            _ => out.push(c),
        }
    }
    out
}

fn check_decoded(what: &str, raw: &[u8], ctx: Ctx, got: Cow<'_, str>) -> Result<(), String> {
    let expected = reference_decode(raw, ctx);
    if got != expected {
        return Err(format!(
            "{what} ({ctx:?}) of raw {:?}: htmltok {got:?}, reference {expected:?}",
            String::from_utf8_lossy(raw)
        ));
    }
    let plain = std::str::from_utf8(raw).is_ok()
        && !raw.iter().any(|&b| {
            b == b'&' || b == b'\r' || b == 0 || (ctx == Ctx::Name && b.is_ascii_uppercase())
        });
    if plain && matches!(got, Cow::Owned(_)) {
        return Err(format!(
            "{what} ({ctx:?}) of {:?} needs no transform but is not borrowed",
            String::from_utf8_lossy(raw)
        ));
    }
    Ok(())
}

fn decoding_matches_reference(input: &[u8], options: &Options) -> Result<(), String> {
    let mut tok = options.tokenizer(input, false, Scanner::best());
    while let Some(token) = tok.next_token() {
        match token {
            Token::Text(t) => {
                let ctx = match t.kind() {
                    TextKind::Data => Ctx::Data,
                    TextKind::Rcdata => Ctx::Rcdata,
                    TextKind::Rawtext | TextKind::ScriptData | TextKind::Plaintext => Ctx::Verbatim,
                    TextKind::Cdata => Ctx::Cdata,
                };
                check_decoded("text", t.raw_text(), ctx, t.text())?;
            }
            Token::StartTag(tag) | Token::EndTag(tag) => {
                check_decoded("tag name", tag.raw_name(), Ctx::Name, tag.name())?;
                for a in tag.attrs() {
                    check_decoded("attribute name", a.raw_name(), Ctx::Name, a.name())?;
                    match a.raw_value() {
                        Some(raw) => check_decoded("attribute value", raw, Ctx::Attr, a.value())?,
                        None if a.value().is_empty() => {}
                        None => return Err(format!("value without `=`: {:?}", a.value())),
                    }
                }
            }
            Token::Comment(c) => check_decoded("comment", c.raw_data(), Ctx::Verbatim, c.data())?,
            Token::Doctype(d) => {
                let (name, public, system) = d.spans();
                let fields = [
                    ("DOCTYPE name", name, Ctx::Name, d.name()),
                    ("public id", public, Ctx::Verbatim, d.public_id()),
                    ("system id", system, Ctx::Verbatim, d.system_id()),
                ];
                for (what, span, ctx, value) in fields {
                    match (span, value) {
                        (Some(s), Some(v)) => check_decoded(what, &input[s.start..s.end], ctx, v)?,
                        (None, None) => {}
                        (s, v) => return Err(format!("{what}: span {s:?} but value {v:?}")),
                    }
                }
            }
        }
    }
    Ok(())
}

#[test]
fn decoding_matches_the_reference_on_bytes() {
    if !have_entities("decoding against the reference decoder (bytes)") {
        return;
    }
    fn prop(o: Options, b: Bytes) -> TestResult {
        verdict(decoding_matches_reference(&b.0, &o))
    }
    qc(2000, 300, prop as fn(Options, Bytes) -> TestResult);
}

#[test]
fn decoding_matches_the_reference_on_html() {
    if !have_entities("decoding against the reference decoder (HTML)") {
        return;
    }
    fn prop(o: HtmlOptions, h: Html) -> TestResult {
        verdict(decoding_matches_reference(&h.bytes(), &o.0))
    }
    qc(1500, 30, prop as fn(HtmlOptions, Html) -> TestResult);
}

/// Property 6: over an input known to be UTF-8 (`Text::text_and_nul_in`,
/// `Comment::data_in`, which skip the UTF-8 validation), decoding gives what it gives over
/// the input's bytes. The generated bytes are made valid UTF-8 by replacing what is not
/// (so U+FFFD, three bytes, sits next to every special byte the generators favour).
fn decoding_in_str_matches_bytes(input: &[u8], options: &Options) -> Result<(), String> {
    let text = String::from_utf8_lossy(input);
    let text: &str = &text;
    for scanner in checks::scanners() {
        let mut tok = options.tokenizer(text.as_bytes(), false, scanner);
        while let Some(token) = tok.next_token() {
            match token {
                Token::Text(t) => {
                    let (in_str, in_bytes) = (t.text_and_nul_in(text), t.text_and_nul());
                    if in_str != in_bytes {
                        return Err(format!("{scanner:?}: text {in_str:?} != {in_bytes:?}"));
                    }
                    // A borrowed text is borrowed on both paths.
                    if matches!(in_str.0, Cow::Borrowed(_))
                        != matches!(in_bytes.0, Cow::Borrowed(_))
                    {
                        return Err(format!(
                            "{scanner:?}: text {in_str:?}: borrowed on one path only"
                        ));
                    }
                }
                Token::Comment(c) if c.data_in(text) != c.data() => {
                    return Err(format!(
                        "{scanner:?}: comment {:?} != {:?}",
                        c.data_in(text),
                        c.data()
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[test]
fn decoding_in_str_matches_bytes_on_bytes() {
    fn prop(o: Options, b: Bytes) -> TestResult {
        verdict(decoding_in_str_matches_bytes(&b.0, &o))
    }
    qc(2000, 300, prop as fn(Options, Bytes) -> TestResult);
}

#[test]
fn decoding_in_str_matches_bytes_on_html() {
    fn prop(o: HtmlOptions, h: Html) -> TestResult {
        verdict(decoding_in_str_matches_bytes(&h.bytes(), &o.0))
    }
    qc(1500, 30, prop as fn(HtmlOptions, Html) -> TestResult);
}

/// A `&str` other than the tokenizer's input is not trusted: the bytes path answers.
#[test]
fn decoding_in_another_str_is_the_bytes_path() {
    let input = "<p>caf\u{e9} &amp; th\u{e9}<!-- \u{e9}\r\n -->".to_string();
    let copy = input.clone();
    let mut tok = htmltok::Tokenizer::new(input.as_bytes());
    while let Some(token) = tok.next_token() {
        match token {
            Token::Text(t) => assert_eq!(t.text_and_nul_in(&copy), t.text_and_nul()),
            Token::Comment(c) => assert_eq!(c.data_in(&copy), c.data()),
            _ => {}
        }
    }
}

#[test]
fn reference_decoder_examples() {
    if !have_entities("the reference decoder's examples") {
        return;
    }
    assert_eq!(
        reference_decode(b"&notit; &notin; &amp", Ctx::Data),
        "\u{AC}it; \u{2209} &"
    );
    assert_eq!(
        reference_decode(b"&notit; &amp=x &amp;=", Ctx::Attr),
        "&notit; &amp=x &="
    );
    assert_eq!(
        reference_decode(b"&#128;&#x0;&#xD800;&#1114112", Ctx::Rcdata),
        "€\u{FFFD}\u{FFFD}\u{FFFD}"
    );
    assert_eq!(
        reference_decode(b"a\r\nb\rc\0", Ctx::Verbatim),
        "a\nb\nc\u{FFFD}"
    );
    assert_eq!(reference_decode(b"DiV\0", Ctx::Name), "div\u{FFFD}");
    assert_eq!(reference_decode(b"&#x;&#;&;", Ctx::Data), "&#x;&#;&;");
    assert_eq!(reference_decode(b"\xff&amp;", Ctx::Cdata), "\u{FFFD}&amp;");
}

// ----- everything at once, on a few fixed inputs ---------------------------------------

#[test]
fn check_all_on_examples() {
    for input in [
        &b""[..],
        b"<",
        b"</",
        b"</>",
        b"<!DOCTYPE html><title>x</title><script><!--<script></script>--></script>",
        b"<svg><![CDATA[x]]></svg><math><mi><![CDATA[y]]>",
        b"\xff\xfe<a \0=\0>&#0;\r\n\r",
    ] {
        for state in STATES {
            for simulation in [false, true] {
                let options = Options {
                    simulation,
                    state,
                    ..Options::default()
                };
                checks::check_all(input, &options).unwrap();
            }
        }
    }
}

/// Prints a few generated inputs (to see what the generators make):
/// `cargo test --test properties -- --ignored --nocapture show_samples`.
#[test]
#[ignore = "prints samples of the generators"]
fn show_samples() {
    let mut g = Gen::new(30);
    for _ in 0..8 {
        println!("{:?}\n", Html::arbitrary(&mut g));
    }
    let mut g = Gen::new(300);
    for _ in 0..4 {
        println!("{:?}\n", Bytes::arbitrary(&mut g));
    }
}
