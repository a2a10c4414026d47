//! The page's kind: what sort of page the main text was taken from (issue #49, item 2).

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
