//! The page's kind: what sort of page the main text was taken from (issue #49, item 2).
//!
//! Each kind collects points from what the page says of itself and from its structure,
//! and the kind with the most wins (ties go to the earlier kind of [`PageKind::ALL`]):
//!
//! - **Metadata**: JSON-LD `@type`s (top level, arrays and `@graph`s: `Product` and
//!   `Offer`, `Article` and `BlogPosting`, `QAPage` and `DiscussionForumPosting`,
//!   `CollectionPage`, `ItemList`, `TechArticle`, `Service` and `SoftwareApplication`,
//!   …), Open Graph's `og:type` (`article`, `product`, `product.group`), microdata
//!   `itemtype`s (`Comment`, `Answer`, `Product`, `Offer`, `BlogPosting`, …) and an
//!   article's `meta`s (`article:published_time`, `author`): a page without any
//!   article metadata leans towards a service page.
//! - **Structure**: code blocks (`pre`, `code`); runs of three or more siblings with the
//!   same tag and class (cards) and what most of them hold — a price (currency sign and
//!   digits, or a `price` class), a link, an image, a heading, a `time`, post or comment
//!   class names; long paragraphs (200 characters or more, a CJK character counting
//!   three); `time` and `article` elements.
//! - **Class and id words** anywhere on the page (`cart`, `swatch`, `filter`, `sort`,
//!   `avatar`, `reply`, `toc`, `highlight`, `hero`, `testimonial`, `pricing`, `author`,
//!   …): developers' words, English on pages of any language.
//!
//! A page with almost no text and no metadata is [`PageKind::Other`]; otherwise an
//! article is the default (it starts with a small lead). The weights were set on two
//! thirds of the multitype benchmark's development split and checked on the other
//! third (see `content/examples/page_kind.rs`).
//!
//! Cost: one iterative walk over the body, one sweep back up it and a sort of each
//! element's children by their signature: linear in the page but for the sorts
//! (`n log n` in an element's children). The JSON-LD is parsed once, by the caller.

use htmltok_tree::{DocumentRef, NodeData, NodeRef, Ns, Tag};

use super::cues;
use super::hints;
use super::jsonld::{self, JsonLd};
use super::reads::Reads;
use crate::walk;

/// What sort of page a page is, in the seven kinds of the multitype benchmark
/// (`shared/eval/multitype-dev`) and [`PageKind::Other`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PageKind {
    /// A blog post, a news story, a guide, a review.
    Article,
    /// A thread or a question with its answers: every post is content.
    Forum,
    /// One product: its description and specifications.
    Product,
    /// A category page: a grid of products.
    Collection,
    /// An index of repeated cards (posts, jobs, events, results).
    Listing,
    /// API documentation or a tutorial, with code blocks.
    Documentation,
    /// A product-marketing page: hero, features, pricing, questions.
    Service,
    /// None of these, or not known.
    #[default]
    Other,
}

impl PageKind {
    /// Every kind, in the order of the enum.
    pub const ALL: [PageKind; 8] = [
        PageKind::Article,
        PageKind::Forum,
        PageKind::Product,
        PageKind::Collection,
        PageKind::Listing,
        PageKind::Documentation,
        PageKind::Service,
        PageKind::Other,
    ];

    /// The kind's name as the outputs write it (`"article"`, `"forum"`, …, `"other"`):
    /// the benchmark's names.
    pub fn as_str(self) -> &'static str {
        match self {
            PageKind::Article => "article",
            PageKind::Forum => "forum",
            PageKind::Product => "product",
            PageKind::Collection => "collection",
            PageKind::Listing => "listing",
            PageKind::Documentation => "documentation",
            PageKind::Service => "service",
            PageKind::Other => "other",
        }
    }
}

impl std::fmt::Display for PageKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for PageKind {
    type Err = String;

    fn from_str(s: &str) -> Result<PageKind, String> {
        PageKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("not a page kind: {s:?}"))
    }
}

/// The page's kind (see the module's doc). `ld` is the page's JSON-LD.
pub(crate) fn page_kind(doc: &DocumentRef<'_>, ld: &JsonLd, reads: &mut Reads) -> PageKind {
    decide(&Signals::read(doc, ld, reads))
}

/// The kinds' points from the signals; the most points win.
fn decide(s: &Signals) -> PageKind {
    if s.chars < 100 && s.metadata == 0 && s.microdata == 0 {
        return PageKind::Other;
    }
    let mut points = [0u32; 7];
    let mut add = |kind: PageKind, weight: u32, present: bool| {
        if present {
            points[kind as usize] += weight;
        }
    };
    let meta = |kind: Meta| s.metadata & kind as u16 != 0;
    let micro = |kind: Meta| s.microdata & kind as u16 != 0;
    let cue = |cue: u32| s.cues & cue != 0;
    use PageKind::*;

    add(Article, 2, true);
    add(Article, 6, meta(Meta::Article));
    add(Article, 3, s.og_article);
    add(Article, 3, micro(Meta::Article));
    add(Article, 3, meta(Meta::Person));
    add(Article, 6, s.long_paragraphs >= 5);
    add(Article, 3, s.long_paragraphs >= 12);
    add(Article, 4, cue(cues::AUTHOR));
    add(Article, 2, cue(cues::BLOG));

    add(Forum, 7, meta(Meta::Forum));
    add(Forum, 7, micro(Meta::Forum));
    add(Forum, 7, s.post_cards >= 3);
    add(Forum, 5, s.times >= 3 && s.long_paragraphs < 3);
    add(Forum, 3, cue(cues::THREAD));
    add(Forum, 4, cue(cues::AVATAR));
    add(Forum, 3, cue(cues::USER));

    add(Product, 8, meta(Meta::Product));
    add(Product, 8, s.og_product);
    add(Product, 6, micro(Meta::Product));
    add(Product, 5, cue(cues::CART));
    add(Product, 3, cue(cues::QUANTITY));
    add(Product, 3, cue(cues::VARIANT));
    add(Product, 3, cue(cues::GALLERY));

    add(Collection, 6, s.og_product_group);
    add(Collection, 3, meta(Meta::Catalog));
    add(Collection, 2, s.price_cards >= 4);
    add(Collection, 4, s.price_cards >= 10);
    add(Collection, 3, s.linked_price_cards >= 4);
    add(Collection, 3, s.buttons >= 20);
    add(Collection, 3, cue(cues::FILTER));
    add(Collection, 6, cue(cues::SORT));

    add(Listing, 3, meta(Meta::List));
    add(Listing, 3, s.heading_cards >= 6);
    add(Listing, 3, s.picture_cards >= 6);
    add(Listing, 8, s.time_cards >= 3);
    add(Listing, 2, s.articles >= 4);
    add(Listing, 2, s.long_paragraphs < 2);
    add(Listing, 3, cue(cues::EXCERPT));
    add(Listing, 3, cue(cues::RESULTS));

    add(Documentation, 3, meta(Meta::Documentation));
    add(Documentation, 3, s.code >= 5);
    add(Documentation, 8, s.code >= 15);
    add(Documentation, 3, s.pre >= 3);
    add(Documentation, 3, cue(cues::DOCS));
    add(Documentation, 3, cue(cues::TOC));
    add(Documentation, 1, cue(cues::HIGHLIGHT));

    add(Service, 8, meta(Meta::Service));
    add(
        Service,
        3,
        !meta(Meta::Article) && !s.og_article && !s.article_meta,
    );
    add(Service, 3, meta(Meta::Faq) || cue(cues::FAQ));
    add(Service, 3, cue(cues::HERO));
    add(Service, 5, cue(cues::TESTIMONIAL));
    add(Service, 3, cue(cues::PRICING));
    add(Service, 2, cue(cues::SOLUTION));
    add(Service, 1, cue(cues::FEATURE));
    add(Service, 3, cue(cues::CTA));

    let mut best = Article;
    for kind in PageKind::ALL.into_iter().take(points.len()) {
        if points[kind as usize] > points[best as usize] {
            best = kind;
        }
    }
    best
}

/// The groups of JSON-LD and microdata types the rules read (bits of a `u16`).
#[derive(Clone, Copy)]
enum Meta {
    Article = 1,
    Person = 2,
    Forum = 4,
    Product = 8,
    Catalog = 16,
    List = 32,
    Documentation = 64,
    Service = 128,
    Faq = 256,
}

/// The groups a schema.org type is in (0 for the types the rules do not read).
fn meta_of(schema_type: &str) -> u16 {
    let meta = |m: Meta| m as u16;
    match schema_type {
        "Article"
        | "NewsArticle"
        | "BlogPosting"
        | "Blog"
        | "Report"
        | "OpinionNewsArticle"
        | "ReportageNewsArticle"
        | "AnalysisNewsArticle"
        | "ReviewNewsArticle"
        | "LiveBlogPosting"
        | "ScholarlyArticle" => meta(Meta::Article),
        "Person" => meta(Meta::Person),
        "QAPage"
        | "DiscussionForumPosting"
        | "Question"
        | "Answer"
        | "Comment"
        | "UserComments"
        | "InteractionCounter" => meta(Meta::Forum),
        "Product" | "ProductGroup" | "ProductModel" | "IndividualProduct" | "Offer"
        | "AggregateOffer" | "AggregateRating" => meta(Meta::Product),
        "CollectionPage" => meta(Meta::Catalog) | meta(Meta::List),
        "OfferCatalog" => meta(Meta::Catalog),
        "ItemList" => meta(Meta::List),
        "TechArticle" | "APIReference" | "SoftwareSourceCode" => meta(Meta::Documentation),
        "Service"
        | "SoftwareApplication"
        | "WebApplication"
        | "MobileApplication"
        | "ProfessionalService" => meta(Meta::Service),
        "FAQPage" => meta(Meta::Faq),
        _ => 0,
    }
}

/// What the rules read of a page.
#[derive(Default, Debug)]
struct Signals {
    /// The [`Meta`] groups of the JSON-LD types.
    metadata: u16,
    /// The [`Meta`] groups of the microdata `itemtype`s.
    microdata: u16,
    og_article: bool,
    /// The head has an article's `meta`: `article:published_time`, `article:author` or
    /// `author`.
    article_meta: bool,
    og_product: bool,
    og_product_group: bool,
    /// The class/id cues found anywhere in the body.
    cues: u32,
    pre: u32,
    code: u32,
    times: u32,
    articles: u32,
    buttons: u32,
    /// Paragraphs of 200 characters or more.
    long_paragraphs: u32,
    /// Characters of text in the body.
    chars: u32,
    /// The largest runs of cards (see [`card`]) most of which show a price; a price
    /// and a link; a heading and a link; a picture (or a date) and a link; a date; a
    /// post class.
    price_cards: u32,
    linked_price_cards: u32,
    heading_cards: u32,
    picture_cards: u32,
    time_cards: u32,
    post_cards: u32,
}

/// What is known of one node after the sweep: its characters and [`card`] bits of what
/// is at or below it.
#[derive(Clone, Copy, Default)]
struct Node {
    chars: u32,
    flags: u16,
}

/// The bits of [`Node::flags`].
mod card {
    pub(super) const PRICE: u16 = 1;
    pub(super) const LINK: u16 = 2;
    pub(super) const TIME: u16 = 4;
    pub(super) const PICTURE: u16 = 8;
    pub(super) const HEADING: u16 = 16;
    /// Set on the element itself (not passed up): a post or comment class.
    pub(super) const POST: u16 = 32;
    /// Passed down, not up: inside `nav`, `header`, `footer` or `aside`.
    pub(super) const IN_CHROME: u16 = 64;
    /// What an element passes to its parent in the sweep.
    pub(super) const UP: u16 = PRICE | LINK | TIME | PICTURE | HEADING;
    /// What an element passes to its children in the walk.
    pub(super) const DOWN: u16 = IN_CHROME;
}

/// Whether a text is a price label: short, with a digit and a currency sign.
fn is_price(text: &str) -> bool {
    let text = text.trim();
    text.len() <= 40
        && text.bytes().any(|b| b.is_ascii_digit())
        && text.chars().any(|c| {
            matches!(
                c,
                '$' | '€'
                    | '£'
                    | '¥'
                    | '₹'
                    | '₽'
                    | '₩'
                    | '₺'
                    | '₫'
                    | '₱'
                    | '₪'
                    | '₴'
                    | '₦'
            )
        })
}

impl Signals {
    /// Reads the JSON-LD types, the head's `og:type` and the body (see the module's doc).
    fn read(doc: &DocumentRef<'_>, ld: &JsonLd, reads: &mut Reads) -> Signals {
        let mut s = Signals::default();
        for object in ld.objects() {
            for schema_type in jsonld::types(object) {
                s.metadata |= meta_of(schema_type);
            }
        }
        if let Some(head) = doc.head() {
            s.read_head(&head);
        }
        if let Some(body) = doc.body() {
            s.read_body(doc, body, reads);
        }
        s
    }

    /// Reads `og:type` and the article `meta`s among the head's children.
    fn read_head(&mut self, head: &NodeRef<'_>) {
        let mut og_type = None;
        for meta in head.children() {
            if !meta.element_name().is_some_and(|n| n.is_html(Tag::Meta)) {
                continue;
            }
            let Some(key) = meta.attr("property").or_else(|| meta.attr("name")) else {
                continue;
            };
            if key.eq_ignore_ascii_case("og:type") {
                og_type = og_type.or_else(|| meta.attr("content"));
            } else if ["article:published_time", "article:author", "author"]
                .iter()
                .any(|k| key.eq_ignore_ascii_case(k))
            {
                self.article_meta = true;
            }
        }
        let Some(og_type) = og_type else { return };
        let og_type = og_type.trim().to_ascii_lowercase();
        self.og_article = og_type == "article";
        // `product`, and the `…:item` types of shops' own Open Graph namespaces.
        self.og_product = og_type == "product" || og_type.ends_with(":item");
        self.og_product_group = og_type == "product.group";
    }

    /// The walk down the body (counts, cues, what each node inherits), the sweep back
    /// up (what each element holds) and the cards.
    fn read_body(&mut self, doc: &DocumentRef<'_>, body: NodeRef<'_>, reads: &mut Reads) {
        let mut nodes = vec![Node::default(); doc.node_count()];
        // The nodes reached, in tree order: the sweep goes through them backwards.
        let mut order: Vec<NodeRef<'_>> = Vec::new();
        let mut node = body;
        loop {
            let id = node.id() as usize;
            let inherited = node
                .parent()
                .map_or(0, |p| nodes[p.id() as usize].flags & card::DOWN);
            let mut descend = false;
            match node.data() {
                NodeData::Element(_) => {
                    if let Some(flags) = self.element(&node, inherited, reads) {
                        nodes[id].flags = flags;
                        order.push(node);
                        descend = true;
                    }
                }
                NodeData::Text(_) => {
                    let bytes = node.text_bytes().unwrap_or_default();
                    let tally = reads.texts.tally(node.id(), || bytes);
                    let chars = tally.chars;
                    self.chars = self.chars.saturating_add(chars);
                    let n = &mut nodes[id];
                    n.chars = chars;
                    // A price label is short, with a digit and a currency sign (`$` or
                    // one beyond ASCII): other texts are not read for one.
                    if tally.digits > 0
                        && bytes.trim_ascii().len() <= 40
                        && bytes.iter().any(|&b| b == b'$' || !b.is_ascii())
                        && std::str::from_utf8(bytes).is_ok_and(is_price)
                    {
                        n.flags |= card::PRICE;
                    }
                    order.push(node);
                }
                _ => {}
            }
            match walk::next(node, descend, &body) {
                Some(next) => node = next,
                None => break,
            }
        }
        for node in order.iter().rev() {
            let here = nodes[node.id() as usize];
            if node.element_name().is_some_and(|n| n.is_html(Tag::P)) && here.chars >= 200 {
                self.long_paragraphs += 1;
            }
            if let Some(parent) = node.parent() {
                let up = &mut nodes[parent.id() as usize];
                up.chars = up.chars.saturating_add(here.chars);
                up.flags |= here.flags & card::UP;
            }
        }
        let mut signatures: Vec<(u64, u32)> = Vec::new();
        for parent in &order {
            if parent.is_element() && nodes[parent.id() as usize].flags & card::IN_CHROME == 0 {
                self.cards(parent, &nodes, &mut signatures, reads);
            }
        }
    }

    /// Counts an element of the walk and reads its cues; its [`Node::flags`], or None
    /// for an element whose subtree is never page text (scripts, styles, SVG, …).
    fn element(&mut self, node: &NodeRef<'_>, inherited: u16, reads: &mut Reads) -> Option<u16> {
        let name = node.element_name()?;
        let tag = if name.ns == Ns::Html {
            name.tag
        } else if name.ns == Ns::Svg {
            return None;
        } else {
            Tag::Unknown
        };
        let mut flags = inherited;
        match tag {
            Tag::Script | Tag::Style | Tag::Noscript | Tag::Template => return None,
            Tag::Nav | Tag::Header | Tag::Footer | Tag::Aside => flags |= card::IN_CHROME,
            Tag::Pre => self.pre += 1,
            Tag::Code => self.code += 1,
            Tag::Time => {
                self.times += 1;
                flags |= card::TIME;
            }
            Tag::Article => self.articles += 1,
            Tag::Button => self.buttons += 1,
            Tag::Img | Tag::Picture => flags |= card::PICTURE,
            Tag::A => flags |= card::LINK,
            Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => flags |= card::HEADING,
            _ => {}
        }
        // The names' scan of the attributes found the cues, and whether to read an
        // `itemtype`.
        let names = reads.names.names(node, false);
        if names.itemtype
            && let Some(itemtype) = node.attr("itemtype")
        {
            for url in itemtype.split_ascii_whitespace() {
                self.microdata |= meta_of(url.rsplit('/').next().unwrap_or(url));
            }
        }
        self.cues |= names.cues;
        if names.cues & cues::PRICE != 0 {
            flags |= card::PRICE;
        }
        if names.cues & cues::POST != 0 {
            flags |= card::POST;
        }
        Some(flags)
    }

    /// The runs of cards among the element's children: children with the same tag and
    /// `class`, three or more (`signatures` is scratch space).
    fn cards(
        &mut self,
        parent: &NodeRef<'_>,
        nodes: &[Node],
        signatures: &mut Vec<(u64, u32)>,
        reads: &mut Reads,
    ) {
        signatures.clear();
        for child in parent.children() {
            let Some(name) = child.element_name() else {
                continue;
            };
            let class_hash = reads.names.names(&child, false).class_hash;
            signatures.push((hints::shape(name, class_hash), child.id()));
        }
        if signatures.len() < 3 {
            return;
        }
        signatures.sort_unstable();
        for run in signatures.chunk_by(|a, b| a.0 == b.0) {
            if run.len() < 3 {
                continue;
            }
            let cards = || run.iter().map(|&(_, id)| nodes[id as usize]);
            let most = |flag: u16| cards().filter(|n| n.flags & flag != 0).count() * 2 >= run.len();
            let size = run.len() as u32;
            let chars = cards().map(|n| n.chars as u64).sum::<u64>() / size as u64;
            let max = |best: &mut u32, present: bool| {
                if present {
                    *best = (*best).max(size);
                }
            };
            max(&mut self.price_cards, most(card::PRICE));
            max(
                &mut self.linked_price_cards,
                most(card::PRICE) && most(card::LINK) && chars < 400,
            );
            max(
                &mut self.heading_cards,
                most(card::HEADING) && most(card::LINK) && chars >= 40,
            );
            max(
                &mut self.picture_cards,
                most(card::LINK) && (most(card::PICTURE) || most(card::TIME)) && chars >= 40,
            );
            max(&mut self.time_cards, most(card::TIME) && chars >= 40);
            max(&mut self.post_cards, most(card::POST) && chars >= 80);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(html: &str) -> PageKind {
        let doc = htmltok_tree::parse(html.as_bytes());
        let view = doc.view();
        page_kind(&view, &JsonLd::read(&view), &mut Reads::new(&view, true))
    }

    /// Enough prose for a page that is not empty.
    const PROSE: &str = "<p>The council met on Monday, and after a long debate it voted to keep \
        the library open for another year, which residents had asked for.</p>";

    #[test]
    fn json_ld_product() {
        let page = format!(
            r#"<script type="application/ld+json">{{"@context":"https://schema.org",
            "@type":"Product","name":"Kettle","offers":{{"@type":"Offer","price":"20"}}}}
            </script><h1>Kettle</h1>{PROSE}"#
        );
        assert_eq!(kind(&page), PageKind::Product);
    }

    #[test]
    fn og_type_article() {
        let page = format!(r#"<meta property="og:type" content="Article"><h1>News</h1>{PROSE}"#);
        assert_eq!(kind(&page), PageKind::Article);
    }

    #[test]
    fn graph_and_type_arrays() {
        let page = format!(
            r#"<script type="application/ld+json">{{"@graph":[{{"@type":"WebSite"}},
            {{"@type":["WebPage","QAPage"]}}]}}</script>{PROSE}"#
        );
        assert_eq!(kind(&page), PageKind::Forum);
    }

    #[test]
    fn malformed_json_ld_never_panics() {
        for bad in [
            "{",
            "[1,",
            r#"{"@type":}"#,
            r#"{"@graph":7}"#,
            "\u{0}",
            "]]]",
        ] {
            let page = format!("<script type=application/ld+json>{bad}</script>{PROSE}");
            assert_eq!(kind(&page), kind(PROSE), "{bad}");
        }
    }

    #[test]
    fn structure_alone() {
        let code = "<pre><code>let x = 1;</code></pre>".repeat(4);
        let calls = "<p>Call <code>f()</code> then <code>g()</code>.</p>".repeat(8);
        assert_eq!(
            kind(&format!("{PROSE}{code}{calls}")),
            PageKind::Documentation
        );
        let card = "<div class=product-card><a href=/p><img src=p.jpg>Kettle</a>\
            <span>$20.00</span></div>";
        let grid = format!("<div class=grid>{}</div>", card.repeat(12));
        assert_eq!(
            kind(&format!("<div class=sort-by>Sort</div>{grid}")),
            PageKind::Collection
        );
        let post = "<div class=post><div class=avatar></div><p>I had the same problem with \
            the driver, and reinstalling it from the vendor's page fixed it.</p></div>";
        assert_eq!(kind(&post.repeat(5)), PageKind::Forum);
    }

    #[test]
    fn empty_pages_are_other() {
        assert_eq!(kind(""), PageKind::Other);
        assert_eq!(
            kind("<div><svg><text>x</text></svg></div>"),
            PageKind::Other
        );
    }

    #[test]
    fn deep_nesting_takes_no_stack() {
        let page = "<div>".repeat(200_000);
        assert_eq!(kind(&page), PageKind::Other);
    }
}
