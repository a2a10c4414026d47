//! One property suite for every back-end: each property compares one routine with its
//! scalar twin on arbitrary inputs (raw, or biased towards the bytes that matter) at
//! every alignment, and [`define_scanner_properties!`] instantiates it as one test per
//! back-end and routine, so a failure names both (`scan::tests::sse2::find_special`,
//! `scan::tests::front_avx2::find_class`). The AVX2 UTF-8 validator's own tests sit next
//! to it (`x86_64/utf8.rs`).

use quickcheck::{QuickCheck, TestResult};

use super::classes::{class, class_punctuation};
use super::{Scanner, scalar, utf8_str};

/// Inputs per property.
const TESTS: u64 = 3000;

const CLASSES: [u8; 5] = [
    class::TAG_NAME_END,
    class::ATTR_NAME_END,
    class::UNQUOTED_VALUE_END,
    class::NOT_WHITESPACE,
    class::NOT_ALPHA,
];

/// The classes the SIMD code searches (those with punctuation).
const SIMD_CLASSES: [u8; 3] = [
    class::TAG_NAME_END,
    class::ATTR_NAME_END,
    class::UNQUOTED_VALUE_END,
];

/// Bytes biased towards the interesting ones, so hits happen at every position.
fn interesting(bytes: Vec<u8>) -> Vec<u8> {
    const PICK: &[u8] = b"\0\t\n\x0B\x0C\r \x01\x1F\"&'/<=>`-]aZ@[A\x7F\x80\xC2\xEF\xF0\xF4\xFF";
    bytes
        .into_iter()
        .map(|b| {
            if b % 3 == 0 {
                PICK[b as usize % PICK.len()]
            } else {
                b'a' + b % 26
            }
        })
        .collect()
}

/// The properties: each takes the routine under test (with its own signature), the whole
/// input and where the haystack starts in it (so every alignment occurs), and says how
/// the routine and its scalar twin disagree, if they do.
mod property {
    use super::*;

    type Outcome = Result<(), String>;
    /// A first-block search that answers only when the block holds a hit.
    type FirstBlock = fn(&[u8], u8) -> Option<(usize, bool)>;
    /// A byte-class search with the ASCII answer and the lowercase name.
    type FindLower = fn(&[u8], u8) -> (usize, bool, Option<&str>);
    /// The same in the first block only.
    type FirstBlockLower = fn(&[u8], u8) -> Option<(usize, bool, Option<&str>)>;

    /// A byte-class search, every class.
    pub(super) fn find_class(f: fn(&[u8], u8) -> usize, data: &[u8], start: usize) -> Outcome {
        let hay = &data[start..];
        for class in CLASSES {
            if f(hay, class) != scalar::find_class(hay, class) {
                return Err(format!("class {class:#x} on {hay:?}"));
            }
        }
        Ok(())
    }

    /// A byte-class search given the class's punctuation, the classes SIMD searches.
    pub(super) fn find_class_with_punctuation(
        f: fn(&[u8], u8, &[u8]) -> usize,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        let hay = &data[start..];
        for class in SIMD_CLASSES {
            if f(hay, class, class_punctuation(class)) != scalar::find_class(hay, class) {
                return Err(format!("class {class:#x} on {hay:?}"));
            }
        }
        Ok(())
    }

    /// A byte-class search whose answer (the hit's offset, then what it says of the
    /// bytes before it) must be its scalar twin's, over the classes SIMD searches.
    fn agrees<'h, T: PartialEq>(
        f: fn(&'h [u8], u8) -> T,
        twin: fn(&'h [u8], u8) -> T,
        hay: &'h [u8],
    ) -> Outcome {
        for class in SIMD_CLASSES {
            if f(hay, class) != twin(hay, class) {
                return Err(format!("class {class:#x} on {hay:?}"));
            }
        }
        Ok(())
    }

    /// [`agrees`] for a search of the first block only (at least 16 bytes): it answers
    /// exactly when the class has a byte in the block (`offset` reads the twin's hit).
    fn agrees_in_first_block<'h, T: PartialEq>(
        f: fn(&'h [u8], u8) -> Option<T>,
        twin: fn(&'h [u8], u8) -> T,
        offset: fn(&T) -> usize,
        hay: &'h [u8],
    ) -> Outcome {
        if hay.len() < 16 {
            return Ok(());
        }
        for class in SIMD_CLASSES {
            let want = twin(hay, class);
            let got = f(hay, class);
            if got.as_ref().is_some_and(|g| *g != want) || (got.is_none() && offset(&want) < 16) {
                return Err(format!("class {class:#x} on {hay:?}"));
            }
        }
        Ok(())
    }

    /// A byte-class search that also says whether the bytes before the hit are ASCII.
    pub(super) fn find_class_ascii(
        f: fn(&[u8], u8) -> (usize, bool),
        data: &[u8],
        start: usize,
    ) -> Outcome {
        agrees(f, scalar::find_class_ascii, &data[start..])
    }

    /// The same in the first block only.
    pub(super) fn find_class_ascii_first_block(
        f: FirstBlock,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        agrees_in_first_block(f, scalar::find_class_ascii, |w| w.0, &data[start..])
    }

    /// A byte-class search that also gives the bytes before the hit as a `&str` when they
    /// are ASCII without upper-case letters.
    pub(super) fn find_class_ascii_lower(f: FindLower, data: &[u8], start: usize) -> Outcome {
        agrees(f, scalar::find_class_ascii_lower, &data[start..])
    }

    /// The same in the first block only.
    pub(super) fn find_class_ascii_lower_first_block(
        f: FirstBlockLower,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        agrees_in_first_block(f, scalar::find_class_ascii_lower, |w| w.0, &data[start..])
    }

    /// A search for up to three bytes in the first block (at least 16 bytes).
    pub(super) fn first_in_block(
        f: fn(&[u8], &[u8]) -> Option<usize>,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        let hay = &data[start..];
        if hay.len() < 16 {
            return Ok(());
        }
        for class in SIMD_CLASSES {
            let p = class_punctuation(class);
            let needles = &p[..p.len().min(3)];
            let want = scalar::find_bytes(&hay[..16], needles);
            if f(hay, needles).unwrap_or(16) != want {
                return Err(format!("needles {needles:?} on {hay:?}"));
            }
        }
        Ok(())
    }

    /// A search for one to three bytes.
    pub(super) fn find_bytes(f: fn(&[u8], &[u8]) -> usize, data: &[u8], start: usize) -> Outcome {
        let hay = &data[start..];
        for needles in [&b"<"[..], b"\"&", b"-<\0", b"'", b">\0"] {
            if f(hay, needles) != scalar::find_bytes(hay, needles) {
                return Err(format!("needles {needles:?} on {hay:?}"));
            }
        }
        Ok(())
    }

    /// `memchr`'s contract.
    pub(super) fn memchr(f: fn(u8, &[u8]) -> Option<usize>, data: &[u8], start: usize) -> Outcome {
        let hay = &data[start..];
        for needle in [0, b'<', b'\xEF'] {
            if f(needle, hay) != hay.iter().position(|&b| b == needle) {
                return Err(format!("needle {needle:#x} on {hay:?}"));
            }
        }
        Ok(())
    }

    /// A special-byte search, every set of specials (any length).
    pub(super) fn find_special(
        f: fn(&[u8], u8) -> Option<usize>,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        let hay = &data[start..];
        for specials in 0..16 {
            if f(hay, specials) != scalar::find_special(hay, specials) {
                return Err(format!("specials {specials} on {hay:?}"));
            }
        }
        Ok(())
    }

    /// [`find_special`] for the block form, which needs at least 16 bytes.
    pub(super) fn find_special_in_blocks(
        f: fn(&[u8], u8) -> Option<usize>,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        if data.len() - start < 16 {
            return Ok(());
        }
        find_special(f, data, start)
    }

    /// The plain prefix of spans at both ends of the input and around the middle, short
    /// and long.
    pub(super) fn plain_prefix(
        f: fn(&[u8], usize, usize, u8) -> usize,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        let n = data.len();
        for specials in 0..16 {
            for (a, b) in [(start, n), (start, (start + 7).min(n)), (n / 3, n / 2)] {
                let (a, b) = (a.min(b), b);
                if f(data, a, b, specials) != scalar::plain_prefix(&data[a..b], specials) {
                    return Err(format!("specials {specials}, span {a}..{b} of {data:?}"));
                }
            }
        }
        Ok(())
    }

    /// The decoding fast path: the plain prefix, and the span as a `&str` exactly when
    /// the prefix covers it.
    pub(super) fn plain_ascii_span(
        f: fn(&[u8], usize, usize, u8) -> Result<&str, usize>,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        let n = data.len();
        for specials in 0..16 {
            for (a, b) in [(start, n), (start, (start + 7).min(n)), (n / 3, n / 2)] {
                let (a, b) = (a.min(b), b);
                let prefix = scalar::plain_prefix(&data[a..b], specials);
                let want = if prefix == b - a {
                    Ok(std::str::from_utf8(&data[a..b]).unwrap())
                } else {
                    Err(prefix)
                };
                if f(data, a, b, specials) != want {
                    return Err(format!("specials {specials}, span {a}..{b} of {data:?}"));
                }
            }
        }
        Ok(())
    }

    /// The input-stream error candidate search.
    pub(super) fn find_stream_error_candidate(
        f: fn(&[u8]) -> usize,
        data: &[u8],
        start: usize,
    ) -> Outcome {
        let hay = &data[start..];
        if f(hay) != scalar::find_stream_error_candidate(hay) {
            return Err(format!("on {hay:?}"));
        }
        Ok(())
    }

    /// A UTF-8 validator (`std::str::from_utf8` is the twin).
    pub(super) fn to_str(f: fn(&[u8]) -> Option<&str>, data: &[u8], start: usize) -> Outcome {
        let hay = &data[start..];
        if f(hay) != std::str::from_utf8(hay).ok() {
            return Err(format!("on {hay:?}"));
        }
        Ok(())
    }
}

/// Instantiates the property suite for one back-end: `backend if available { routine:
/// property => function, … }` makes the module `backend` with one quickcheck test per
/// routine, named after it, which checks `property` of [`property`] on `function` when
/// `available` holds (a CPU feature, say) and passes trivially otherwise.
macro_rules! define_scanner_properties {
    ($backend:ident if $available:expr => {
        $($routine:ident: $property:ident => $f:expr,)*
    }) => {
        mod $backend {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[test]
                fn $routine() {
                    if !$available {
                        return;
                    }
                    fn check(data: Vec<u8>, offset: u8, bias: bool) -> TestResult {
                        let data = if bias { interesting(data) } else { data };
                        let start = (offset as usize).min(data.len());
                        match property::$property($f, &data, start) {
                            Ok(()) => TestResult::passed(),
                            Err(why) => TestResult::error(format!(
                                "{}::{} disagrees with its scalar twin: {why}",
                                stringify!($backend),
                                stringify!($routine),
                            )),
                        }
                    }
                    QuickCheck::new()
                        .tests(TESTS)
                        .max_tests(TESTS)
                        .quickcheck(check as fn(Vec<u8>, u8, bool) -> TestResult);
                }
            )*
        }
    };
}

/// The front, through one [`Scanner`]: the dispatch as the tokenizer sees it.
macro_rules! define_front_properties {
    ($backend:ident, $scanner:expr) => {
        define_scanner_properties!($backend if $scanner.is_supported() => {
            find_class: find_class => |h, c| $scanner.find_class(h, c),
            find_class_short: find_class => |h, c| $scanner.find_class_short(h, c),
            find_class_ascii: find_class_ascii => |h, c| $scanner.find_class_ascii(h, c),
            find_class_ascii_lower: find_class_ascii_lower
                => |h, c| $scanner.find_class_ascii_lower(h, c),
            find_bytes: find_bytes => |h, n| $scanner.find_bytes(h, n),
            memchr: memchr => |n, h| $scanner.memchr(n, h),
            find_stream_error_candidate: find_stream_error_candidate
                => |h| $scanner.find_stream_error_candidate(h),
        });
    };
}

define_front_properties!(front_scalar, Scanner::Scalar);
define_front_properties!(front_sse2, Scanner::Sse2);
define_front_properties!(front_avx2, Scanner::Avx2);
define_front_properties!(front_avx512, Scanner::Avx512);
define_front_properties!(front_neon, Scanner::Neon);

// The decoding functions, which take no scanner.
define_scanner_properties!(decoding if true => {
    find_special: find_special => super::super::find_special,
    plain_ascii_span: plain_ascii_span => super::super::plain_ascii_span,
    utf8_str: to_str => super::super::utf8_str,
});

#[cfg(target_arch = "x86_64")]
define_scanner_properties!(sse2 if true => {
    find_class: find_class_with_punctuation
        => |h, c, p| super::super::blocks::find_class::<super::super::x86_64::Sse2>(h, c, p, false),
    find_class_ascii_first_block: find_class_ascii_first_block
        => super::super::blocks::find_class_ascii_first_block::<super::super::x86_64::Sse2>,
    find_class_ascii_lower_first_block: find_class_ascii_lower_first_block
        => super::super::blocks::find_class_ascii_lower_first_block::<super::super::x86_64::Sse2>,
    first_in_block: first_in_block
        => super::super::blocks::first_in_block::<super::super::x86_64::Sse2>,
    find_special: find_special_in_blocks
        => super::super::blocks::find_special::<super::super::x86_64::Sse2>,
    plain_prefix: plain_prefix => super::super::blocks::plain_prefix::<super::super::x86_64::Sse2>,
    plain_ascii_span: plain_ascii_span
        => super::super::blocks::plain_ascii_span::<super::super::x86_64::Sse2>,
    find_stream_error_candidate: find_stream_error_candidate
        => super::super::x86_64::find_stream_error_candidate_sse2,
});

#[cfg(target_arch = "x86_64")]
define_scanner_properties!(avx2 if Scanner::Avx2.is_supported() => {
    find_class: find_class_with_punctuation
        => |h, c, p| super::super::x86_64::find_class_avx2(h, 0, c, p),
    find_class_long_runs: find_class_with_punctuation
        => |h, c, p| super::super::blocks::find_class::<super::super::x86_64::Sse2>(h, c, p, true),
    find_stream_error_candidate: find_stream_error_candidate
        => super::super::x86_64::find_stream_error_candidate_avx2,
    to_str: to_str => super::super::x86_64::utf8::to_str,
});

#[cfg(target_arch = "aarch64")]
define_scanner_properties!(neon if true => {
    find_class: find_class_with_punctuation
        => |h, c, p| super::super::blocks::find_class::<super::super::aarch64::Neon>(h, c, p, false),
    find_class_ascii_first_block: find_class_ascii_first_block
        => super::super::blocks::find_class_ascii_first_block::<super::super::aarch64::Neon>,
    find_class_ascii_lower_first_block: find_class_ascii_lower_first_block
        => super::super::blocks::find_class_ascii_lower_first_block::<super::super::aarch64::Neon>,
    first_in_block: first_in_block
        => super::super::blocks::first_in_block::<super::super::aarch64::Neon>,
    find_special: find_special_in_blocks
        => super::super::blocks::find_special::<super::super::aarch64::Neon>,
    plain_prefix: plain_prefix
        => super::super::blocks::plain_prefix::<super::super::aarch64::Neon>,
    plain_ascii_span: plain_ascii_span
        => super::super::blocks::plain_ascii_span::<super::super::aarch64::Neon>,
});

/// Every supported scanner.
fn scanners() -> impl Iterator<Item = Scanner> {
    [
        Scanner::Scalar,
        Scanner::Sse2,
        Scanner::Avx2,
        Scanner::Avx512,
        Scanner::Neon,
    ]
    .into_iter()
    .filter(|s| s.is_supported())
}

#[test]
fn classes_match_the_spec_byte_sets() {
    for scanner in scanners() {
        let s = |h: &[u8], c: u8| scanner.find_class(h, c);
        for (s, label) in [
            (&scalar::find_class as &dyn Fn(&[u8], u8) -> usize, "scalar"),
            (&s, "front"),
        ] {
            let label = format!("{label} {scanner:?}");
            assert_eq!(s(b"div class", class::TAG_NAME_END), 3, "{label}");
            assert_eq!(s(b"div\r", class::TAG_NAME_END), 3, "{label}");
            assert_eq!(s(b"a<b", class::TAG_NAME_END), 3, "{label}");
            assert_eq!(s(b"data-x=1", class::ATTR_NAME_END), 6, "{label}");
            assert_eq!(s(b"abc`", class::UNQUOTED_VALUE_END), 3, "{label}");
            assert_eq!(s(b" \t\r\nx", class::NOT_WHITESPACE), 4, "{label}");
            assert_eq!(s(b"scRipt>", class::NOT_ALPHA), 6, "{label}");
            assert_eq!(s(b"", class::NOT_ALPHA), 0, "{label}");
        }
    }
}

#[test]
fn every_position_and_length_around_the_block_sizes() {
    for scanner in scanners() {
        for len in 0..100 {
            for hit in 0..=len {
                let mut hay = vec![b'x'; len];
                if hit < len {
                    hay[hit] = b'>';
                }
                for class in CLASSES {
                    assert_eq!(
                        scanner.find_class(&hay, class),
                        scalar::find_class(&hay, class),
                        "{scanner:?}"
                    );
                }
                assert_eq!(scanner.find_byte(&hay, b'>'), hit, "{scanner:?}");
                // A control character that is a SIMD candidate but not whitespace.
                let mut hay2 = vec![b'\x01'; len];
                if hit < len {
                    hay2[hit] = b' ';
                }
                assert_eq!(
                    scanner.find_class(&hay2, class::TAG_NAME_END),
                    hit,
                    "{scanner:?}"
                );
                // An input-stream error candidate (the lead byte of U+F000–U+FFFF).
                let mut hay3 = vec![b'x'; len];
                if hit < len {
                    hay3[hit] = 0xEF;
                }
                assert_eq!(
                    scanner.find_stream_error_candidate(&hay3),
                    hit,
                    "{scanner:?}"
                );
            }
        }
    }
}

#[test]
fn utf8_str_on_known_cases() {
    let long = |s: &[u8]| [&[b'a'; 70][..], s, &[b'b'; 5][..]].concat();
    for valid in ["é", "€", "😀", "\u{10FFFF}", "\u{D7FF}", "\u{E000}"] {
        assert!(utf8_str(&long(valid.as_bytes())).is_some(), "{valid:?}");
    }
    for invalid in [
        &b"\xED\xA0\x80"[..], // a surrogate
        b"\xC0\xAF",          // overlong
        b"\xE0\x80\xAF",      // overlong
        b"\xF0\x80\x80\xAF",  // overlong
        b"\xF4\x90\x80\x80",  // above U+10FFFF
        b"\xF5\x80\x80\x80",
        b"\x80",     // a stray continuation
        b"\xE2\x82", // cut short
        b"\xFF",
    ] {
        assert!(utf8_str(&long(invalid)).is_none(), "{invalid:?}");
        assert!(
            utf8_str(&[&[b'a'; 70][..], invalid].concat()).is_none(),
            "{invalid:?} at the end"
        );
    }
}
