//! Token, tag, parse error and encoding counts: what `htmltok stats` counts.

use std::collections::HashMap;

use htmltok::{ErrorCode, ParseError, TextKind, Token, Tokenizer};

use crate::batch::{DecodedAs, Document};

/// How many tokens of each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TokenCounts {
    /// Text runs (CDATA sections included).
    pub text: u64,
    /// Start tags.
    pub start_tag: u64,
    /// End tags.
    pub end_tag: u64,
    /// Comments.
    pub comment: u64,
    /// DOCTYPEs.
    pub doctype: u64,
    /// CDATA sections (text runs of kind [`TextKind::Cdata`], also counted in `text`).
    pub cdata: u64,
}

impl TokenCounts {
    /// All tokens (CDATA sections being text runs, they are not counted twice).
    pub fn total(&self) -> u64 {
        self.text + self.start_tag + self.end_tag + self.comment + self.doctype
    }

    fn add(&mut self, other: &TokenCounts) {
        self.text += other.text;
        self.start_tag += other.start_tag;
        self.end_tag += other.end_tag;
        self.comment += other.comment;
        self.doctype += other.doctype;
        self.cdata += other.cdata;
    }
}

/// What one document, or many, hold: [`Stats::of`] counts a batch document,
/// [`Stats::merge`] adds two counts up (it is associative and commutative, a batch's
/// `reduce`), and [`Stats::default`] is the empty count.
///
/// ```
/// use htmltok_crawl::extract::{self, Stats};
///
/// let a = extract::stats(b"<!DOCTYPE html><p>one<p>two");
/// let b = extract::stats(b"<p>three</b>");
/// let both = a.merge(b);
/// assert_eq!((both.tokens.start_tag, both.tokens.end_tag, both.tokens.doctype), (3, 1, 1));
/// assert_eq!(both.tags["p"], 3);
/// assert_eq!(Stats::by_count(&both.tags)[0], ("p".to_string(), 3));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Tokens by kind.
    pub tokens: TokenCounts,
    /// Start tags by name (lowercased, as the tokenizer gives them).
    pub tags: HashMap<String, u64>,
    /// Parse errors by code (empty when the tokenizer ran with errors off).
    pub errors: HashMap<ErrorCode, u64>,
    /// Decoded documents by the rule that decided their encoding
    /// ([`Rule::as_str`](crate::encoding::Rule::as_str): `bom`, `transport`, `meta`, …).
    pub by_rule: HashMap<&'static str, u64>,
    /// Decoded documents by encoding name (`UTF-8`, `windows-1252`, …).
    pub by_encoding: HashMap<&'static str, u64>,
    /// Decoded documents with malformed bytes (decoded to U+FFFD).
    pub with_replacements: u64,
}

impl Stats {
    /// Counts a batch document: its tokens (with the batch's tokenizer options, so parse
    /// errors only when those have errors on) and how it was decoded.
    pub fn of(document: &Document<'_>) -> Stats {
        // Parse errors are counted as they are found, never held.
        let mut errors = HashMap::new();
        let mut tokenizer =
            document.tokenizer_with_sink(|e: ParseError| *errors.entry(e.code).or_default() += 1);
        let mut stats = Stats::of_tokenizer(&mut tokenizer);
        drop(tokenizer);
        stats.errors = errors;
        if let Some(decoded) = document.decoded_as() {
            stats.count_decoded(&decoded);
        }
        stats
    }

    /// Counts the tokens of the document `tokenizer` reads, and its parse errors when it
    /// has errors on (the errors are taken from it after each token; a tokenizer built
    /// with an error sink has none to take).
    pub fn of_tokenizer(tokenizer: &mut Tokenizer<'_>) -> Stats {
        let mut stats = Stats::default();
        while let Some(token) = tokenizer.next_token() {
            let tokens = &mut stats.tokens;
            match token {
                Token::Text(text) => {
                    tokens.text += 1;
                    tokens.cdata += (text.kind() == TextKind::Cdata) as u64;
                }
                Token::StartTag(tag) => {
                    tokens.start_tag += 1;
                    let name = tag.name();
                    match stats.tags.get_mut(&*name) {
                        Some(count) => *count += 1,
                        None => {
                            stats.tags.insert(name.into_owned(), 1);
                        }
                    }
                }
                Token::EndTag(_) => tokens.end_tag += 1,
                Token::Comment(_) => tokens.comment += 1,
                Token::Doctype(_) => tokens.doctype += 1,
            }
            if !tokenizer.errors().is_empty() {
                stats.count_errors(&tokenizer.take_errors());
            }
        }
        stats.count_errors(&tokenizer.take_errors());
        stats
    }

    /// Adds parse errors to the count.
    pub fn count_errors(&mut self, errors: &[ParseError]) {
        for error in errors {
            *self.errors.entry(error.code).or_default() += 1;
        }
    }

    /// Adds a decoded document to the encoding counts.
    pub fn count_decoded(&mut self, decoded: &DecodedAs) {
        *self.by_rule.entry(decoded.rule.as_str()).or_default() += 1;
        *self.by_encoding.entry(decoded.encoding.name()).or_default() += 1;
        self.with_replacements += decoded.had_replacements as u64;
    }

    /// The two counts added up.
    pub fn merge(mut self, mut other: Stats) -> Stats {
        if self.tags.len() < other.tags.len() {
            std::mem::swap(&mut self.tags, &mut other.tags);
        }
        self.tokens.add(&other.tokens);
        for (name, n) in other.tags {
            *self.tags.entry(name).or_default() += n;
        }
        for (code, n) in other.errors {
            *self.errors.entry(code).or_default() += n;
        }
        for (rule, n) in other.by_rule {
            *self.by_rule.entry(rule).or_default() += n;
        }
        for (encoding, n) in other.by_encoding {
            *self.by_encoding.entry(encoding).or_default() += n;
        }
        self.with_replacements += other.with_replacements;
        self
    }

    /// The entries of one of the maps, sorted by count (largest first), then key: the
    /// order `htmltok stats` lists them in.
    pub fn by_count<K: Ord + Clone>(map: &HashMap<K, u64>) -> Vec<(K, u64)> {
        let mut entries: Vec<(K, u64)> = map.iter().map(|(k, n)| (k.clone(), *n)).collect();
        entries.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        entries
    }
}

/// The counts of `html` (UTF-8, as decoded), parse errors included (counted as they are
/// found, so memory stays flat whatever their number).
pub fn stats(html: &[u8]) -> Stats {
    let mut errors = HashMap::new();
    let mut tokenizer = Tokenizer::builder().build_with_sink(html, |e: ParseError| {
        *errors.entry(e.code).or_default() += 1
    });
    let mut stats = Stats::of_tokenizer(&mut tokenizer);
    drop(tokenizer);
    stats.errors = errors;
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_tokens_tags_and_errors() {
        let html = b"<!DOCTYPE html><!-- c --><P>a<svg><![CDATA[x]]></svg></p><p></a>";
        let got = stats(html);
        assert_eq!(
            got.tokens,
            TokenCounts {
                text: 2,
                start_tag: 3,
                end_tag: 3,
                comment: 1,
                doctype: 1,
                cdata: 1,
            }
        );
        assert_eq!(got.tokens.total(), 10);
        assert_eq!(
            Stats::by_count(&got.tags),
            [("p".to_string(), 2), ("svg".to_string(), 1)]
        );
        assert!(got.errors.is_empty(), "{:?}", got.errors);
        let got = stats(b"<a b='x'c></a x>");
        assert_eq!(got.errors.values().sum::<u64>(), 2, "{:?}", got.errors);
        // Errors off: none counted.
        let quiet = Stats::of_tokenizer(&mut Tokenizer::new(b"<a b='x'c></a x>"));
        assert!(quiet.errors.is_empty());
    }

    #[test]
    fn merge_adds_up() {
        let a = stats(b"<p><p><b>");
        let b = stats(b"<i><p>&bogus;</x y>");
        let merged = a.clone().merge(b.clone());
        assert_eq!(merged, b.merge(a));
        assert_eq!(merged.tags["p"], 3);
        assert_eq!(merged.tokens.start_tag, 5);
        assert_eq!(merged.merge(Stats::default()).tokens.end_tag, 1);
    }
}
