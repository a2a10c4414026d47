//! What an element's tag, `class`, `id` and `role` say about it before any text is
//! counted: boilerplate to drop outright, a likely article container, a likely side
//! block. These are the hints Readability and trafilatura rely on; the words below are
//! this crate's own lists (English class names dominate the web whatever the page's
//! language, so they stay useful on CJK, Cyrillic or Arabic pages).

use std::sync::LazyLock;

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind, StartKind};
use htmltok_tree::{AttrNs, Name, NodeRef, Tag};

use super::cues;
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
/// with bits: [`WordBits::of`] gives the bits of every word a value holds. One matcher
/// serves the hints here and the page kind's cues (bits from [`CUES_SHIFT`] on).
///
/// One automaton over all the words: an attribute is read once, however many words
/// there are (a word-by-word search costs more than the rest of the walk). A
/// full DFA, stepped a byte at a time through [`Automaton`]'s state transitions rather
/// than by the crate's overlapping search: every word that ends at a byte is known from
/// the state reached (the standard match kind gives a state all the words that end
/// there), and a value needs only the set of its words, not where they are. The search's
/// iterator, with its match positions and prefilter, costs several times the bare loop,
/// which is a table lookup a byte (see ARCHITECTURE "Page content").
pub(crate) struct WordBits {
    dfa: DFA,
    /// Each word's bits, by pattern index.
    bits: Vec<u64>,
}

impl WordBits {
    /// The matcher of these words and their bits.
    pub(crate) fn new<'w>(words: impl IntoIterator<Item = (&'w str, u64)>) -> WordBits {
        let (words, bits): (Vec<&str>, Vec<u64>) = words.into_iter().unzip();
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
    pub(crate) fn of(&self, value: &[u8]) -> u64 {
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

/// Where the page kind's cues start among a matcher's bits (the hints' [`Words`] are
/// the byte below).
const CUES_SHIFT: u32 = 8;

/// The hints' words and the page kind's cues ([`cues::WORDS`]), in one automaton.
static MATCHER: LazyLock<WordBits> = LazyLock::new(|| WordBits::new(all_words()));

/// The words of [`MATCHER`] and their bits.
fn all_words() -> impl Iterator<Item = (&'static str, u64)> {
    let hints = WORDS
        .iter()
        .map(|&(word, hint)| (word, u64::from(Words::of_hint(hint))));
    let kind_cues = cues::WORDS
        .iter()
        .map(|&(word, bits)| (word, u64::from(bits) << CUES_SHIFT));
    hints.chain(kind_cues)
}

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
    /// The `class` value hashed ([`class_hash`]; the empty value's hash when there is
    /// none): a sibling's shape is its name and this.
    pub(crate) class_hash: u64,
    /// The page kind's cues in the `class` and `id` (bits of [`cues`]).
    pub(crate) cues: u32,
    /// The element has an `itemtype` attribute.
    pub(crate) itemtype: bool,
    /// The element has an `itemprop` attribute.
    pub(crate) itemprop: bool,
    /// The element has a `rel` attribute.
    pub(crate) rel: bool,
}

/// FNV-1a's offset basis: the hash of nothing.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a of `bytes`, continuing from `hash`.
fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A hash of a `class` value (the empty value's is [`FNV_OFFSET`]), eight bytes a step:
/// shapes are only compared for equality, and FNV-1a's multiplication a byte was a
/// tenth of the names' scan.
fn class_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let step = |h: u64, word: u64| (h ^ word).wrapping_mul(K).rotate_left(29);
    let mut chunks = bytes.chunks_exact(8);
    let mut h = FNV_OFFSET;
    for chunk in &mut chunks {
        h = step(h, u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
    }
    let rest = chunks.remainder();
    if rest.is_empty() {
        return h;
    }
    let mut last = [0u8; 8];
    last[..rest.len()].copy_from_slice(rest);
    // The length tells "a" from "a\0".
    step(
        h,
        u64::from_le_bytes(last) ^ (bytes.len() as u64).rotate_right(8),
    )
}

/// An element's shape, which siblings of the same tag and `class` share (cards, posts):
/// its name and its `class` value's hash ([`Names::class_hash`]) hashed together.
pub(crate) fn shape(name: Name, class_hash: u64) -> u64 {
    fnv1a(class_hash, &(name.tag as u32).to_le_bytes()) ^ name.ns as u64
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

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

/// Every element's [`Names`], each read at most once a page: Readability's passes, the
/// block walk and the retry with hidden elements shown all ask by node id, and reading
/// them (the attributes scanned, `class` and `id` through the automaton) was the larger
/// part of those walks.
pub(crate) struct NameCache {
    slots: Vec<Read>,
}

/// What one element's attributes say, whether hidden elements are shown or not.
#[derive(Clone, Copy, Default)]
pub(crate) struct Read {
    class_hash: u64,
    cues: u32,
    /// The class weight (a multiple of 25 in -50..=50).
    weight: i8,
    /// [`Words`]' bits.
    words: u8,
    /// [`Read`]'s flags: `KNOWN`, …
    flags: u8,
}

impl Read {
    const KNOWN: u8 = 1;
    /// `hidden`, `aria-hidden` or `style` hides it.
    const HIDES: u8 = 2;
    const TAB_PANEL: u8 = 4;
    const SIDE_ROLE: u8 = 8;
    /// An unlikely word and no overriding one.
    const UNLIKELY: u8 = 16;
    const ITEMTYPE: u8 = 32;
    const ITEMPROP: u8 = 64;
    const REL: u8 = 128;

    fn has(self, flag: u8) -> bool {
        self.flags & flag != 0
    }

    fn names(self, show_hidden: bool) -> Names {
        // A tab panel is content a reader shows with a click, hidden or not (as
        // `hidden=until-found` is).
        let hidden = !show_hidden && self.has(Read::HIDES) && !self.has(Read::TAB_PANEL);
        let side_role = self.has(Read::SIDE_ROLE);
        Names {
            weight: i32::from(self.weight),
            unlikely: self.has(Read::UNLIKELY),
            dropped: hidden || side_role,
            boilerplate: Words(self.words).has(Words::BOILERPLATE),
            words: self.words,
            hidden,
            side_role,
            class_hash: self.class_hash,
            cues: self.cues,
            itemtype: self.has(Read::ITEMTYPE),
            itemprop: self.has(Read::ITEMPROP),
            rel: self.has(Read::REL),
        }
    }
}

impl NameCache {
    /// A cache for a document of `nodes` nodes, in `buffer` (emptied first).
    pub(crate) fn new(mut buffer: Vec<Read>, nodes: usize) -> NameCache {
        buffer.clear();
        buffer.resize(nodes, Read::default());
        NameCache { slots: buffer }
    }

    /// The cache's buffer, for another page (the cache is left empty).
    pub(crate) fn take_buffer(&mut self) -> Vec<Read> {
        std::mem::take(&mut self.slots)
    }

    /// What the element's attributes say (see [`read`]); `show_hidden`: whether the
    /// elements hidden by their attributes are read.
    pub(crate) fn names(&mut self, node: &NodeRef<'_>, show_hidden: bool) -> Names {
        match self.slots.get_mut(node.id() as usize) {
            Some(slot) => {
                if !slot.has(Read::KNOWN) {
                    *slot = read(node);
                }
                slot.names(show_hidden)
            }
            None => read(node).names(show_hidden),
        }
    }
}

/// What the element's attributes say: `class` and `id` words, and whether `hidden`,
/// `aria-hidden`, `style` or `role` drop it (the first three unless hidden elements are
/// shown: [`Read::names`]). One scan of the attributes.
fn read(node: &NodeRef<'_>) -> Read {
    let (mut weight, mut unlikely, mut maybe, mut all_words) = (0i8, false, false, 0u8);
    let mut cues = 0;
    let mut flags = Read::KNOWN;
    let mut class_hash = FNV_OFFSET;
    for attr in node.attrs() {
        if attr.ns() != AttrNs::None {
            continue;
        }
        // The name's bytes: compared, never output, so not checked as UTF-8.
        match attr.name_bytes() {
            name @ (b"class" | b"id") => {
                let value = attr.value();
                if name == b"class" {
                    class_hash = self::class_hash(value.as_bytes());
                }
                let bits = MATCHER.of(value.as_bytes());
                let words = Words(bits as u8);
                cues |= (bits >> CUES_SHIFT) as u32;
                all_words |= words.0;
                unlikely |= words.has(Words::UNLIKELY);
                maybe |= words.has(Words::MAYBE);
                weight += 25 * i8::from(words.has(Words::POSITIVE))
                    - 25 * i8::from(words.has(Words::NEGATIVE));
            }
            b"role" => {
                let role = attr.value();
                if role_is_boilerplate(&role) {
                    flags |= Read::SIDE_ROLE;
                }
                if role
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("tabpanel"))
                {
                    flags |= Read::TAB_PANEL;
                }
            }
            b"itemtype" => flags |= Read::ITEMTYPE,
            b"itemprop" => flags |= Read::ITEMPROP,
            b"rel" => flags |= Read::REL,
            name @ (b"hidden" | b"aria-hidden" | b"style")
                if visible::attribute_hides(name, &attr.value()) =>
            {
                flags |= Read::HIDES;
            }
            _ => {}
        }
    }
    if unlikely && !maybe {
        flags |= Read::UNLIKELY;
    }
    Read {
        class_hash,
        cues,
        weight,
        words: all_words,
        flags,
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

/// How an HTML element's tag treats it (the block walk skips SVG, and the other
/// namespaces' elements are kept).
pub(crate) fn tag_kind(tag: Tag) -> TagKind {
    use Tag::*;
    match tag {
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
pub(crate) fn check_word_bits(words: &[(&str, u64)], matcher: &WordBits) {
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
    /// `pager`), the hints' and the page kind's cues alike.
    #[test]
    fn the_automaton_finds_every_word_a_search_finds() {
        let words: Vec<(&str, u64)> = all_words().collect();
        check_word_bits(&words, &MATCHER);
        assert_eq!(
            MATCHER.of(b"contentry") as u8,
            Words::of_hint(Hint::Maybe) | Words::of_hint(Hint::Positive)
        );
    }
}
