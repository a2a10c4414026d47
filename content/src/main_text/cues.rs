//! The page kind's cues in `class` and `id` values (bits of a `u32`): each a group of
//! words with one meaning (an author, a cart, a table of contents, …), and the words.
//! The hints' automaton finds them with its own words, in one scan of each element's
//! names; the page kind and the byline read them.

pub(crate) const AUTHOR: u32 = 1;
pub(crate) const BLOG: u32 = 1 << 1;
pub(crate) const THREAD: u32 = 1 << 2;
pub(crate) const AVATAR: u32 = 1 << 3;
pub(crate) const USER: u32 = 1 << 4;
pub(crate) const CART: u32 = 1 << 5;
pub(crate) const QUANTITY: u32 = 1 << 6;
pub(crate) const VARIANT: u32 = 1 << 7;
pub(crate) const GALLERY: u32 = 1 << 8;
pub(crate) const FILTER: u32 = 1 << 9;
pub(crate) const SORT: u32 = 1 << 10;
pub(crate) const EXCERPT: u32 = 1 << 11;
pub(crate) const RESULTS: u32 = 1 << 12;
pub(crate) const DOCS: u32 = 1 << 13;
pub(crate) const TOC: u32 = 1 << 14;
pub(crate) const HIGHLIGHT: u32 = 1 << 15;
pub(crate) const HERO: u32 = 1 << 16;
pub(crate) const TESTIMONIAL: u32 = 1 << 17;
pub(crate) const PRICING: u32 = 1 << 18;
pub(crate) const SOLUTION: u32 = 1 << 19;
pub(crate) const FEATURE: u32 = 1 << 20;
pub(crate) const FAQ: u32 = 1 << 21;
pub(crate) const CTA: u32 = 1 << 22;
/// A price shown (marks a card, not the page).
pub(crate) const PRICE: u32 = 1 << 23;
/// A post, comment or message (marks a card, not the page).
pub(crate) const POST: u32 = 1 << 24;

/// The words of the cues, matched anywhere in a `class` or `id` value, ASCII
/// case-insensitively (by the hints' automaton, which reads each element's names once:
/// [`super::hints::NameCache`]).
pub(crate) const WORDS: &[(&str, u32)] = &[
    ("author", AUTHOR),
    ("byline", AUTHOR),
    ("blog", BLOG),
    ("entry", BLOG),
    ("article", BLOG),
    ("reply", THREAD | POST),
    ("thread", THREAD | POST),
    ("forum", THREAD | POST),
    ("avatar", AVATAR),
    ("vote", AVATAR | POST),
    ("user", USER),
    ("comment", POST),
    ("post", POST),
    ("message", POST),
    ("topic", POST),
    ("answer", POST),
    ("cart", CART),
    ("quantity", QUANTITY),
    ("qty", QUANTITY),
    ("swatch", VARIANT),
    ("variant", VARIANT),
    ("sku", VARIANT),
    ("gallery", GALLERY),
    ("buy", GALLERY),
    ("filter", FILTER),
    ("facet", FILTER),
    ("sort", SORT),
    ("excerpt", EXCERPT),
    ("teaser", EXCERPT),
    ("result", RESULTS),
    ("pagination", RESULTS),
    ("doc", DOCS),
    ("syntax", DOCS),
    ("toc", TOC),
    ("highlight", HIGHLIGHT),
    ("language-", HIGHLIGHT),
    ("hljs", HIGHLIGHT),
    ("hero", HERO),
    ("testimonial", TESTIMONIAL),
    ("pricing", PRICING),
    ("plan", PRICING),
    ("solution", SOLUTION),
    ("benefit", SOLUTION),
    ("feature", FEATURE),
    ("faq", FAQ),
    ("cta", CTA),
    ("price", PRICE),
];
