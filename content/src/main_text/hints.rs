//! What an element's tag, `class`, `id` and `role` say about it before any text is
//! counted: boilerplate to drop outright, a likely article container, a likely side
//! block. These are the hints Readability and trafilatura rely on; the words below are
//! this crate's own lists (English class names dominate the web whatever the page's
//! language, so they stay useful on CJK, Cyrillic or Arabic pages).

use std::sync::LazyLock;

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind, StartKind};
use htmltok_tree::{AttrNs, Name, NodeRef, Ns, Tag};

use crate::visible;

/// What a `class` or `id` word suggests.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    /// A block no article is made of (comments, sharing buttons, cookie banners, menus):
    /// dropped in the first, strict pass unless a [`Hint::Maybe`] word is there too.
    Unlikely,
    /// Overrides [`Hint::Unlikely`] (`article-comments` is not dropped outright: its
    /// text decides).
    Maybe,
    /// Counts for the element as an article container.
    Positive,
    /// Counts against it.
    Negative,
    /// Both unlikely and negative.
    UnlikelyNegative,
    /// Never the article whatever else the names say (comment threads, cookie and
    /// consent banners): dropped in every pass, like `nav`; negative.
    Boilerplate,
    /// A comment thread: [`Hint::Boilerplate`] for an article, but the posts of a forum
    /// (the block model tells the two apart).
    Comment,
}

/// The words (matched anywhere in the attribute, ASCII case-insensitively).
const WORDS: &[(&str, Hint)] = &[
    // Boilerplate in every pass.
    ("comment", Hint::Comment),
    ("disqus", Hint::Comment),
    ("cookie", Hint::Boilerplate),
    ("consent", Hint::Boilerplate),
    ("gdpr", Hint::Boilerplate),
    // Unlikely and negative: side blocks whose name says so.
    ("footer", Hint::UnlikelyNegative),
    ("sidebar", Hint::UnlikelyNegative),
    ("related", Hint::UnlikelyNegative),
    ("share", Hint::UnlikelyNegative),
    ("sharing", Hint::UnlikelyNegative),
    ("social", Hint::UnlikelyNegative),
    ("sponsor", Hint::UnlikelyNegative),
    ("promo", Hint::UnlikelyNegative),
    ("banner", Hint::UnlikelyNegative),
    ("newsletter", Hint::UnlikelyNegative),
    ("subscribe", Hint::UnlikelyNegative),
    ("advert", Hint::UnlikelyNegative),
    ("-ad-", Hint::UnlikelyNegative),
    ("skyscraper", Hint::UnlikelyNegative),
    ("shoutbox", Hint::UnlikelyNegative),
    ("masthead", Hint::UnlikelyNegative),
    ("outbrain", Hint::UnlikelyNegative),
    ("taboola", Hint::UnlikelyNegative),
    ("widget", Hint::UnlikelyNegative),
    // Unlikely only: names that some article containers carry too.
    ("breadcrumb", Hint::Unlikely),
    ("combx", Hint::Unlikely),
    ("community", Hint::Unlikely),
    ("header", Hint::Unlikely),
    ("menu", Hint::Unlikely),
    ("navbar", Hint::Unlikely),
    ("pagination", Hint::Unlikely),
    ("pager", Hint::Unlikely),
    ("popup", Hint::Unlikely),
    ("modal", Hint::Unlikely),
    ("remark", Hint::Unlikely),
    ("replies", Hint::Unlikely),
    ("rss", Hint::Unlikely),
    ("signup", Hint::Unlikely),
    ("supplemental", Hint::Unlikely),
    ("legends", Hint::Unlikely),
    ("agegate", Hint::Unlikely),
    // Negative only.
    ("contact", Hint::Negative),
    ("foot", Hint::Negative),
    ("hidden", Hint::Negative),
    ("media", Hint::Negative),
    ("meta", Hint::Negative),
    ("scroll", Hint::Negative),
    ("shopping", Hint::Negative),
    ("tags", Hint::Negative),
    ("tool", Hint::Negative),
    ("byline", Hint::Negative),
    ("author", Hint::Negative),
    ("caption", Hint::Negative),
    // Overriding unlikely, and positive.
    ("article", Hint::Maybe),
    ("body", Hint::Maybe),
    ("content", Hint::Maybe),
    ("main", Hint::Maybe),
    ("column", Hint::Maybe),
    ("entry", Hint::Positive),
    ("post", Hint::Positive),
    ("story", Hint::Positive),
    ("text", Hint::Positive),
    ("blog", Hint::Positive),
    ("page", Hint::Positive),
];

/// Words matched anywhere in a `class` or `id` value, ASCII case-insensitively, each
/// with bits: [`WordBits::of`] gives the bits of every word a value holds. Shared by the
/// hints here and the page kind's cues.
///
/// One automaton over all the words: an attribute is read once, however many words
/// there are (measured: a word-by-word search cost more than the rest of the walk). A
/// full DFA, stepped a byte at a time through [`Automaton`]'s state transitions rather
/// than by the crate's overlapping search: every word that ends at a byte is known from
/// the state reached (the standard match kind gives a state all the words that end
/// there), and a value needs only the set of its words, not where they are. The search's
/// iterator, with its match positions and prefilter, costs several times the bare loop,
/// which is a table lookup a byte (see ARCHITECTURE "Page content").
pub(crate) struct WordBits {
    dfa: DFA,
    /// Each word's bits, by pattern index.
    bits: Vec<u32>,
}

impl WordBits {
    /// The matcher of these words and their bits.
    pub(crate) fn new<'w>(words: impl IntoIterator<Item = (&'w str, u32)>) -> WordBits {
        let (words, bits): (Vec<&str>, Vec<u32>) = words.into_iter().unzip();
        let dfa = DFA::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .start_kind(StartKind::Unanchored)
            // `of` steps the states itself: no prefilter is asked for.
            .prefilter(false)
            .build(words)
            .expect("the word list is a valid automaton");
        WordBits { dfa, bits }
    }

    /// The bits of every word found in the value (each byte ends the words of the state
    /// it leads to).
    #[inline]
    pub(crate) fn of(&self, value: &[u8]) -> u32 {
        let dfa = &self.dfa;
        let Ok(mut state) = dfa.start_state(Anchored::No) else {
            return 0;
        };
        let mut bits = 0;
        for &byte in value {
            state = dfa.next_state(Anchored::No, state, byte);
            if dfa.is_match(state) {
                for i in 0..dfa.match_len(state) {
                    bits |= self.bits[dfa.match_pattern(state, i).as_usize()];
                }
            }
        }
        bits
    }
}

/// The hints' words.
static MATCHER: LazyLock<WordBits> = LazyLock::new(|| {
    WordBits::new(
        WORDS
            .iter()
            .map(|&(word, hint)| (word, u32::from(Words::of_hint(hint)))),
    )
});

/// What an element's `class` and `id` say.
#[derive(Clone, Copy, Default)]
pub(crate) struct Names {
    /// Readability's class weight: +25 for each of `class` and `id` holding a positive
    /// word, -25 for each holding a negative one.
    pub(crate) weight: i32,
    /// An unlikely word and no overriding one.
    pub(crate) unlikely: bool,
    /// Hidden (as [`crate::visible`] hides elements) or given a role of navigation or a
    /// side block: dropped in every pass.
    pub(crate) dropped: bool,
    /// A boilerplate word: dropped in every pass (but `body`, `article`, `main`).
    pub(crate) boilerplate: bool,
    /// The kinds of word the `class` and `id` hold ([`Words`]' bits).
    pub(crate) words: u8,
    /// Hidden, as [`crate::visible`] hides elements.
    pub(crate) hidden: bool,
    /// A `role` of navigation or a side block.
    pub(crate) side_role: bool,
    /// The `class` value hashed (FNV-1a; the empty value's hash when there is none): a
    /// sibling's shape is its name and this.
    pub(crate) class_hash: u64,
}

/// FNV-1a's offset basis: the hash of nothing.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a of `bytes`, continuing from `hash`.
pub(crate) fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The kinds of word one `class` or `id` value holds (bits: [`Words::POSITIVE`], …).
#[derive(Clone, Copy, Default)]
pub(crate) struct Words(u8);

impl Words {
    pub(crate) const POSITIVE: u8 = 1;
    pub(crate) const NEGATIVE: u8 = 2;
    pub(crate) const UNLIKELY: u8 = 4;
    pub(crate) const MAYBE: u8 = 8;
    pub(crate) const BOILERPLATE: u8 = 16;
    pub(crate) const COMMENT: u8 = 32;

    /// The bits of one hint.
    fn of_hint(hint: Hint) -> u8 {
        match hint {
            Hint::Unlikely => Words::UNLIKELY,
            Hint::UnlikelyNegative => Words::UNLIKELY | Words::NEGATIVE,
            Hint::Negative => Words::NEGATIVE,
            Hint::Boilerplate => Words::BOILERPLATE | Words::NEGATIVE,
            Hint::Comment => Words::COMMENT | Words::BOILERPLATE | Words::NEGATIVE,
            Hint::Maybe => Words::MAYBE | Words::POSITIVE,
            Hint::Positive => Words::POSITIVE,
        }
    }

    /// The kinds of word in the value (one pass of [`MATCHER`]).
    fn of(value: &[u8]) -> Words {
        // The bits are `of_hint`'s, which fit a byte.
        Words(MATCHER.of(value) as u8)
    }

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

/// What the element's attributes say: `class` and `id` words, and whether `hidden`,
/// `aria-hidden`, `style` (unless `show_hidden`) or `role` drop it. One scan of the attributes. No cache of
/// the words by value: the automaton reads a value in about what a hash map takes to
/// look it up (with a cache keyed by the decoded value, main text over the corpus was
/// 2 M instructions more, callgrind 2026-11-26; reading the value's bytes from the
/// input when it has no `&`, not decoding it, was 3 M more).
pub(crate) fn names(node: &NodeRef<'_>, show_hidden: bool) -> Names {
    let (mut weight, mut unlikely, mut maybe) = (0, false, false);
    let (mut boilerplate, mut all_words, mut hidden, mut side_role) = (false, 0, false, false);
    let mut class_hash = FNV_OFFSET;
    // A tab panel is content a reader shows with a click, hidden or not (as
    // `hidden=until-found` is).
    let mut tab_panel = false;
    for attr in node.attrs() {
        if attr.ns() != AttrNs::None {
            continue;
        }
        // The name's bytes: compared, never output, so not checked as UTF-8.
        match attr.name_bytes() {
            name @ (b"class" | b"id") => {
                let value = attr.value();
                if name == b"class" {
                    class_hash = fnv1a(FNV_OFFSET, value.as_bytes());
                }
                let words = Words::of(value.as_bytes());
                all_words |= words.0;
                unlikely |= words.has(Words::UNLIKELY);
                maybe |= words.has(Words::MAYBE);
                boilerplate |= words.has(Words::BOILERPLATE);
                weight += 25 * i32::from(words.has(Words::POSITIVE))
                    - 25 * i32::from(words.has(Words::NEGATIVE));
            }
            b"role" => {
                let role = attr.value();
                side_role |= role_is_boilerplate(&role);
                tab_panel |= role
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("tabpanel"));
            }
            name @ (b"hidden" | b"aria-hidden" | b"style") if !show_hidden => {
                hidden |= visible::attribute_hides(name, &attr.value());
            }
            _ => {}
        }
    }
    let hidden = hidden && !tab_panel;
    Names {
        weight,
        unlikely: unlikely && !maybe,
        dropped: hidden || side_role,
        boilerplate,
        words: all_words,
        hidden,
        side_role,
        class_hash,
    }
}

/// Whether a `role` marks navigation or a side block (ARIA landmark and widget roles no
/// article has).
fn role_is_boilerplate(role: &str) -> bool {
    role.split_ascii_whitespace().any(|r| {
        [
            "navigation",
            "menu",
            "menubar",
            "complementary",
            "banner",
            "contentinfo",
            "search",
            "alert",
            "alertdialog",
            "dialog",
        ]
        .iter()
        .any(|b| r.eq_ignore_ascii_case(b))
    })
}

/// How the tag treats an element, before its names are read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum TagKind {
    /// Never main text: scripts, forms' controls, embedded objects, navigation, asides,
    /// page footers (trafilatura drops these whatever their content).
    Drop,
    /// A page or section header: dropped in the strict pass (it holds the headline,
    /// which the article body does not repeat, and the site's masthead).
    Header,
    /// Anything else.
    Keep,
}

pub(crate) fn tag_kind(name: Name) -> TagKind {
    if name.ns == Ns::Svg {
        return TagKind::Drop;
    }
    if name.ns != Ns::Html {
        return TagKind::Keep;
    }
    use Tag::*;
    match name.tag {
        Script | Style | Noscript | Template | Head | Title | Iframe | Object | Embed | Applet
        | Canvas | Button | Select | Input | Textarea | Nav | Aside | Footer | Datalist
        | Noembed | Noframes | Frameset | Dialog | Menu => TagKind::Drop,
        Header => TagKind::Header,
        _ => TagKind::Keep,
    }
}

/// Readability's starting score of a candidate container, by tag: a `div` is the usual
/// article wrapper; list parts, forms and headings rarely are.
pub(crate) fn tag_score(tag: Tag) -> f32 {
    use Tag::*;
    match tag {
        Div | Article | Main => 5.0,
        Pre | Td | Blockquote => 3.0,
        Address | Ol | Ul | Dl | Dd | Dt | Li | Form => -3.0,
        H1 | H2 | H3 | H4 | H5 | H6 | Th => -5.0,
        _ => 0.0,
    }
}

/// Checks a [`WordBits`] against a plain search on values that run every word alone,
/// inside other letters and overlapping every other word (tests of its users).
#[cfg(test)]
pub(crate) fn check_word_bits(words: &[(&str, u32)], matcher: &WordBits) {
    let by_search = |value: &[u8]| {
        let lower = value.to_ascii_lowercase();
        words
            .iter()
            .filter(|(w, _)| lower.windows(w.len()).any(|at| at == w.as_bytes()))
            .fold(0, |bits, &(_, b)| bits | b)
    };
    let mut values: Vec<Vec<u8>> = vec![b"".to_vec(), b"x caf\xc3\xa9 y".to_vec()];
    for (a, _) in words {
        values.push(a.as_bytes().to_vec());
        values.push(format!("x{}Y", a.to_ascii_uppercase()).into_bytes());
        for (b, _) in words {
            values.push(format!("{a}{b}").into_bytes());
            values.push(format!("{a}{}", &b[1..]).into_bytes());
        }
    }
    for value in values {
        assert_eq!(
            matcher.of(&value),
            by_search(&value),
            "{:?}",
            String::from_utf8_lossy(&value)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word found anywhere in a value, ASCII case-insensitively, overlapping ones
    /// included (`contentry` holds `content` and `entry`; `pager` holds `page` and
    /// `pager`).
    #[test]
    fn the_automaton_finds_every_word_a_search_finds() {
        let words: Vec<(&str, u32)> = WORDS
            .iter()
            .map(|&(word, hint)| (word, u32::from(Words::of_hint(hint))))
            .collect();
        check_word_bits(&words, &MATCHER);
        assert_eq!(
            Words::of(b"contentry").0,
            Words::of_hint(Hint::Maybe) | Words::of_hint(Hint::Positive)
        );
    }
}
