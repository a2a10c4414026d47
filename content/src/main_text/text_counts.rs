//! How the text of a page is counted: characters, not space-separated words, so that
//! CJK and Thai pages count like the rest (a Han, kana or Hangul character three,
//! whitespace nothing), commas of every script, and for the block model sentence ends
//! and digits; each text node counted once a page ([`TextCache`]).

/// Whether a character is a comma of some script (Latin, Arabic, CJK full-width and
/// ideographic, the small and vertical forms): commas mark prose, not menus, in every
/// language.
fn is_comma(c: char) -> bool {
    matches!(
        c,
        ',' | '\u{060C}'
            | '\u{FE50}'
            | '\u{FE10}'
            | '\u{FE11}'
            | '\u{2E41}'
            | '\u{2E34}'
            | '\u{2E32}'
            | '\u{FF0C}'
            | '\u{3001}'
    )
}

/// How many characters a character counts for. One, but a Han, kana or Hangul
/// character counts three: one of them carries about what a three-letter-plus-space
/// stretch of alphabetic text does, so the length thresholds (a paragraph is 20
/// characters, 85 make a point of score) mean the same on CJK pages. Whitespace counts
/// nothing.
fn weigh(c: char) -> u32 {
    match c {
        '\t' | '\n' | '\x0C' | '\r' | ' ' | '\u{A0}' => 0,
        '\u{1100}'..='\u{11FF}'
        | '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{AC00}'..='\u{D7AF}'
        | '\u{F900}'..='\u{FAFF}' => 3,
        c if c.is_whitespace() => 0,
        _ => 1,
    }
}

/// The code points of the multi-byte characters of UTF-8 `bytes` (ASCII skipped): what
/// [`measure`] weighs, read from the bytes so that a text node's text needs no `&str`
/// (and so no UTF-8 check, which on every text node is a large part of main text's
/// cost). A malformed sequence — which the tree never holds — yields whatever its bits
/// say, never a panic.
fn non_ascii(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let lead = loop {
            let b = *bytes.get(i)?;
            i += 1;
            if b >= 0xC0 {
                break b;
            }
        };
        // The lead byte's payload bits, then six from each continuation byte.
        let (mut c, more) = match lead {
            0xC0..=0xDF => (u32::from(lead & 0x1F), 1),
            0xE0..=0xEF => (u32::from(lead & 0x0F), 2),
            _ => (u32::from(lead & 0x07), 3),
        };
        for _ in 0..more {
            match bytes.get(i) {
                Some(&b) if b & 0xC0 == 0x80 => {
                    c = (c << 6) | u32::from(b & 0x3F);
                    i += 1;
                }
                _ => break,
            }
        }
        Some(c)
    })
}

/// The weighted length and the commas of a text, given as its UTF-8 bytes.
pub(crate) fn measure(bytes: &[u8]) -> (u32, u32) {
    let t = tally::<false>(bytes);
    (t.chars, t.commas)
}

/// Whether [`measure`] counts at least `chars` characters in the text: counted a stretch
/// at a time (cut at character boundaries), stopping once there are enough.
pub(crate) fn at_least(text: &str, chars: u32) -> bool {
    const STRETCH: usize = 512;
    let mut rest = text;
    let mut counted = 0u32;
    while !rest.is_empty() {
        let mut end = rest.len().min(STRETCH);
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        let (stretch, after) = rest.split_at(end);
        counted = counted.saturating_add(measure(stretch.as_bytes()).0);
        if counted >= chars {
            return true;
        }
        rest = after;
    }
    counted >= chars
}

/// What [`tally`] counts of a text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Characters, weighted (see [`weigh`]).
    pub(crate) chars: u32,
    /// Commas of every script.
    pub(crate) commas: u32,
    /// Sentence ends: `.`, `!`, `?` and the CJK `。`, `！`, `？` (with `STOPS` only).
    pub(crate) stops: u32,
    /// ASCII digits (with `STOPS` only).
    pub(crate) digits: u32,
}

/// Every text node's [`Tally`], each counted at most once a page (the block walk and the
/// page's kind count the same texts).
pub(crate) struct TextCache {
    /// By node id; [`TextCache::UNKNOWN`] until counted.
    tallies: Vec<Tally>,
}

impl TextCache {
    const UNKNOWN: Tally = Tally {
        chars: u32::MAX,
        commas: 0,
        stops: 0,
        digits: 0,
    };

    /// A cache for a document of `nodes` nodes, in `buffer` (emptied first); for 0
    /// nodes, one that counts every text it is asked for and keeps nothing.
    pub(crate) fn new(mut buffer: Vec<Tally>, nodes: usize) -> TextCache {
        buffer.clear();
        buffer.resize(nodes, TextCache::UNKNOWN);
        TextCache { tallies: buffer }
    }

    /// The cache's buffer, for another page (the cache is left empty).
    pub(crate) fn take_buffer(&mut self) -> Vec<Tally> {
        std::mem::take(&mut self.tallies)
    }

    /// The counts of the text node `id`, whose text is `bytes` (read only the first
    /// time; `tally::<true>`'s counts).
    pub(crate) fn tally<'a>(&mut self, id: u32, bytes: impl FnOnce() -> &'a [u8]) -> Tally {
        match self.tallies.get_mut(id as usize) {
            Some(t) if t.chars != u32::MAX => *t,
            Some(t) => {
                *t = tally::<true>(bytes());
                *t
            }
            None => tally::<true>(bytes()),
        }
    }
}

/// The counts of a text, given as its UTF-8 bytes, in one pass: [`measure`]'s, and with
/// `STOPS` the sentence ends and digits the block model reads too.
pub(crate) fn tally<const STOPS: bool>(bytes: &[u8]) -> Tally {
    let is_space = |b: u8| b == b' ' || (b.wrapping_sub(b'\t') < 5 && b != 0x0B);
    // Shortcut: whitespace alone (the indentation between tags, most of a page's text
    // nodes) counts nothing.
    if bytes.iter().all(|&b| is_space(b)) {
        return Tally::default();
    }
    // The ASCII counts — whitespace, commas, bytes that continue a character, and the
    // stops and digits — in blocks of 32 without branches, which the compiler turns into
    // vector instructions (byte by byte, this filter would be a large part of main text's
    // cost).
    let count = |chunk: &[u8]| {
        let (mut s, mut c, mut k, mut stops, mut digits) = (0u8, 0u8, 0u8, 0u8, 0u8);
        for &b in chunk {
            s += u8::from(is_space(b));
            c += u8::from(b == b',');
            k += u8::from(b & 0xC0 == 0x80);
            if STOPS {
                stops += u8::from(b == b'.' || b == b'!' || b == b'?');
                digits += u8::from(b.wrapping_sub(b'0') < 10);
            }
        }
        [s, c, k, stops, digits].map(usize::from)
    };
    let mut sums = [0usize; 5];
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        for (sum, n) in sums.iter_mut().zip(count(chunk)) {
            *sum += n;
        }
    }
    // The remainder (most texts are shorter than a block) as a block padded with zero
    // bytes, which count as nothing, so that it too is counted without branches.
    let rest = chunks.remainder();
    let mut last = [0u8; 32];
    last[..rest.len()].copy_from_slice(rest);
    for (sum, n) in sums.iter_mut().zip(count(&last)) {
        *sum += n;
    }
    let [spaces, commas, continuations, stops, digits] = sums;
    let mut t = Tally {
        chars: (bytes.len() - spaces - continuations) as u32,
        commas: commas as u32,
        stops: stops as u32,
        digits: digits as u32,
    };
    if continuations > 0 {
        // Multi-byte characters counted one each so far: weigh them.
        for c in non_ascii(bytes).filter_map(char::from_u32) {
            t.chars = t.chars + weigh(c) - 1;
            t.commas += u32::from(is_comma(c));
            if STOPS {
                t.stops += u32::from(matches!(c, '。' | '！' | '？'));
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition `tally` implements on bytes, on `char`s: weights summed, commas
    /// of every script counted, sentence ends and digits.
    fn tally_by_chars(text: &str) -> Tally {
        let (chars, commas) = by_chars(text);
        Tally {
            chars,
            commas,
            stops: text
                .chars()
                .filter(|c| matches!(c, '.' | '!' | '?' | '。' | '！' | '？'))
                .count() as u32,
            digits: text.chars().filter(char::is_ascii_digit).count() as u32,
        }
    }

    /// The definition `measure` implements on bytes, on `char`s: weights summed, commas
    /// of every script counted.
    fn by_chars(text: &str) -> (u32, u32) {
        let chars = text.chars().map(weigh).sum();
        let commas = text.chars().filter(|&c| is_comma(c)).count() as u32;
        (chars, commas)
    }

    #[test]
    fn measure_on_bytes_is_measure_on_chars() {
        let texts = [
            "",
            "plain ASCII, with commas, and\ttabs\r\n",
            "caf\u{e9}\u{a0}cr\u{e8}me, \u{2003}br\u{fb}l\u{e9}e",
            "東京都、日本。ひらがな、カタカナ，한국어 문장",
            "مرحبا، كيف حالك",
            "ภาษาไทย\u{3000}𝄞 emoji 😀, ﹐︐",
            // Over 32 bytes, so that the blocked count and its remainder both run.
            &"Ünïcödé, 漢字 and more text, ".repeat(7),
        ];
        for text in texts {
            assert_eq!(measure(text.as_bytes()), by_chars(text), "{text:?}");
            assert_eq!(
                tally::<true>(text.as_bytes()),
                tally_by_chars(text),
                "{text:?}"
            );
        }
        let text = "One. Two! Three? 42 items: 日本語の文。質問？はい！ 12,345.67.";
        assert_eq!(tally::<true>(text.as_bytes()), tally_by_chars(text));
        // Every length from 0 to 80 bytes, so that each split into 32-byte blocks and a
        // remainder is taken, with every kind of byte at every place in a block.
        let mixed = "a,\t\n\x0C\r \u{e9}漢、\u{a0}x\u{2003}😀z".repeat(4);
        for end in (0..=mixed.len()).filter(|&i| mixed.is_char_boundary(i)) {
            for start in (0..end).filter(|&i| mixed.is_char_boundary(i)).take(9) {
                let text = &mixed[start..end];
                assert_eq!(measure(text.as_bytes()), by_chars(text), "{text:?}");
                assert_eq!(
                    tally::<true>(text.as_bytes()),
                    tally_by_chars(text),
                    "{text:?}"
                );
            }
        }
    }

    /// `at_least` answers as the whole text's count does, whatever the stretch cut.
    #[test]
    fn at_least_is_a_count_of_the_whole_text() {
        let texts = [
            String::new(),
            "short text".to_string(),
            "漢字".repeat(400),
            "word, ".repeat(300),
            format!("{}{}", "a".repeat(511), "漢字".repeat(100)),
        ];
        for text in &texts {
            let whole = measure(text.as_bytes()).0;
            for chars in [0, 1, 10, 199, 200, 1000, whole, whole + 1] {
                assert_eq!(at_least(text, chars), whole >= chars, "{chars} of {whole}");
            }
        }
    }
}
