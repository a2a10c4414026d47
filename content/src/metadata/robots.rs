//! Robots directives of `<meta name="robots">` and `<meta name="googlebot">`: what a
//! crawler may do with the page.
//!
//! No standard defines them; the reference is what search engines document (Google
//! Search Central, "Robots meta tag, data-nosnippet, and X-Robots-Tag specifications";
//! Bing's webmaster guidelines for `nocache`). The rules read here:
//!
//! - the `content` is a comma-separated list of directives; each is trimmed of ASCII
//!   whitespace and matched ASCII case-insensitively; empty ones are skipped;
//! - a directive with a value is `name:value` (`max-snippet: 50`), with ASCII whitespace
//!   allowed around the colon;
//! - `none` is `noindex, nofollow`; `all`, `index` and `follow` are the defaults and
//!   change nothing; `nocache` (Bing) is `noarchive`;
//! - when directives conflict (several tags, or one tag that repeats a directive), the
//!   most restrictive wins: a flag once set stays set, the smallest `max-snippet` and
//!   `max-video-preview` win (`-1`, "no limit", loses to any other), and the smallest
//!   `max-image-preview` (`none` < `standard` < `large`);
//! - `unavailable_after` takes a date in one of the formats search engines accept (ISO
//!   8601, RFC 822, RFC 850): an RFC 850 date has a comma after its weekday
//!   (`Friday, 25-Jun-2010 15:00:00 PST`), so a value that is a weekday alone is joined
//!   with the piece after the comma; the first date is kept, as written;
//! - anything else (an unknown directive, a bad number) is kept in
//!   [`Robots::other`], as written, trimmed.

/// The `max-image-preview` sizes, least to most permissive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ImagePreview {
    /// No image preview.
    None,
    /// A default-size preview.
    Standard,
    /// A preview as wide as the viewport.
    Large,
}

impl ImagePreview {
    /// The value as the directive writes it: `none`, `standard`, `large`.
    pub fn as_str(self) -> &'static str {
        match self {
            ImagePreview::None => "none",
            ImagePreview::Standard => "standard",
            ImagePreview::Large => "large",
        }
    }
}

/// The robots directives of a page, for one user agent (see the module's doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Robots {
    /// Whether any directive was read (a tag whose content parsed to something).
    pub present: bool,
    /// `noindex` (or `none`): do not index the page.
    pub noindex: bool,
    /// `nofollow` (or `none`): do not follow the page's links.
    pub nofollow: bool,
    /// `noarchive` (or Bing's `nocache`): no cached copy.
    pub noarchive: bool,
    /// `nosnippet`: no text snippet or video preview.
    pub nosnippet: bool,
    /// `noimageindex`: do not index the page's images.
    pub noimageindex: bool,
    /// `notranslate`: no translation offered.
    pub notranslate: bool,
    /// `indexifembedded`: index the page's content when embedded in another page despite
    /// a `noindex`.
    pub indexifembedded: bool,
    /// `max-snippet:N`: at most N characters of snippet; -1 is no limit, 0 no snippet.
    pub max_snippet: Option<i64>,
    /// `max-image-preview:none|standard|large`.
    pub max_image_preview: Option<ImagePreview>,
    /// `max-video-preview:N`: at most N seconds of video preview; -1 is no limit.
    pub max_video_preview: Option<i64>,
    /// `unavailable_after:DATE`: the date as written (not parsed).
    pub unavailable_after: Option<String>,
    /// Directives not understood, as written (trimmed).
    pub other: Vec<String>,
}

const WEEKDAYS: [&str; 14] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
];

fn is_ascii_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

fn trim(s: &str) -> &str {
    s.trim_matches(is_ascii_whitespace)
}

impl Robots {
    /// Adds the directives of one tag's `content` to these (the most restrictive wins).
    pub fn add(&mut self, content: &str) {
        let mut pieces = content.split(',').map(trim).peekable();
        while let Some(piece) = pieces.next() {
            if piece.is_empty() {
                continue;
            }
            let (name, value) = match piece.split_once(':') {
                Some((name, value)) => (trim(name), Some(trim(value))),
                None => (piece, None),
            };
            let name = name.to_ascii_lowercase();
            self.present = true;
            match (name.as_str(), value) {
                ("noindex", None) => self.noindex = true,
                ("nofollow", None) => self.nofollow = true,
                ("none", None) => {
                    self.noindex = true;
                    self.nofollow = true;
                }
                ("all" | "index" | "follow", None) => {}
                ("noarchive" | "nocache", None) => self.noarchive = true,
                ("nosnippet", None) => self.nosnippet = true,
                ("noimageindex", None) => self.noimageindex = true,
                ("notranslate", None) => self.notranslate = true,
                ("indexifembedded", None) => self.indexifembedded = true,
                ("max-snippet", Some(v)) if parse_limit(v).is_some() => {
                    self.max_snippet = most_restrictive(self.max_snippet, parse_limit(v));
                }
                ("max-video-preview", Some(v)) if parse_limit(v).is_some() => {
                    self.max_video_preview =
                        most_restrictive(self.max_video_preview, parse_limit(v));
                }
                ("max-image-preview", Some(v)) if image_preview(v).is_some() => {
                    let size = image_preview(v);
                    self.max_image_preview = match self.max_image_preview {
                        Some(old) => size.map(|new| new.min(old)),
                        None => size,
                    };
                }
                ("unavailable_after", Some(v)) if !v.is_empty() => {
                    let mut date = v.to_string();
                    // An RFC 850 date: its weekday, then a comma, then the rest.
                    if WEEKDAYS.iter().any(|d| d.eq_ignore_ascii_case(v))
                        && let Some(rest) = pieces.next()
                    {
                        date.push_str(", ");
                        date.push_str(rest);
                    }
                    self.unavailable_after.get_or_insert(date);
                }
                _ => self.other.push(piece.to_string()),
            }
        }
    }
}

/// A `max-snippet` / `max-video-preview` value: an integer, -1 or more.
fn parse_limit(value: &str) -> Option<i64> {
    value.parse::<i64>().ok().filter(|&n| n >= -1)
}

/// The smaller limit, -1 ("no limit") being the largest.
fn most_restrictive(old: Option<i64>, new: Option<i64>) -> Option<i64> {
    match (old, new) {
        (Some(-1), n) | (n, Some(-1)) if n.is_some() => n,
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn image_preview(value: &str) -> Option<ImagePreview> {
    match value.to_ascii_lowercase().as_str() {
        "none" => Some(ImagePreview::None),
        "standard" => Some(ImagePreview::Standard),
        "large" => Some(ImagePreview::Large),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn robots(contents: &[&str]) -> Robots {
        let mut r = Robots::default();
        for c in contents {
            r.add(c);
        }
        r
    }

    #[test]
    fn flags_are_comma_separated_trimmed_and_case_insensitive() {
        let r = robots(&[" NoIndex ,\tnofollow,, NOARCHIVE , nosnippet"]);
        assert!(r.present && r.noindex && r.nofollow && r.noarchive && r.nosnippet);
        assert!(!r.noimageindex && r.other.is_empty());
    }

    #[test]
    fn none_is_noindex_nofollow_and_all_changes_nothing() {
        let r = robots(&["none"]);
        assert!(r.noindex && r.nofollow && !r.noarchive);
        let r = robots(&["all, index, follow"]);
        assert_eq!(
            r,
            Robots {
                present: true,
                ..Robots::default()
            }
        );
    }

    #[test]
    fn several_tags_combine_and_the_most_restrictive_wins() {
        let r = robots(&[
            "max-snippet:50, max-image-preview:large",
            "max-snippet : 20, max-image-preview: Standard, nocache",
            "max-snippet:-1, max-video-preview:-1",
        ]);
        assert_eq!(r.max_snippet, Some(20));
        assert_eq!(r.max_image_preview, Some(ImagePreview::Standard));
        assert_eq!(r.max_video_preview, Some(-1));
        assert!(r.noarchive);
        assert_eq!(
            robots(&["max-snippet:-1", "max-snippet:0"]).max_snippet,
            Some(0)
        );
    }

    #[test]
    fn bad_values_and_unknown_directives_are_kept_aside() {
        let r = robots(&["max-snippet:many, max-image-preview:huge, noodp, max-snippet:-2"]);
        assert_eq!(r.max_snippet, None);
        assert_eq!(r.max_image_preview, None);
        assert_eq!(
            r.other,
            [
                "max-snippet:many",
                "max-image-preview:huge",
                "noodp",
                "max-snippet:-2"
            ]
        );
    }

    #[test]
    fn unavailable_after_keeps_an_rfc_850_date_whole() {
        let r = robots(&["noindex, unavailable_after: Friday, 25-Jun-2010 15:00:00 PST, nofollow"]);
        assert_eq!(
            r.unavailable_after.as_deref(),
            Some("Friday, 25-Jun-2010 15:00:00 PST")
        );
        assert!(r.noindex && r.nofollow && r.other.is_empty());
        let r = robots(&[
            "unavailable_after: 2020-09-21",
            "unavailable_after: 2030-01-01",
        ]);
        assert_eq!(r.unavailable_after.as_deref(), Some("2020-09-21"));
    }

    #[test]
    fn an_empty_content_reads_nothing() {
        assert!(!robots(&["", " , "]).present);
    }
}
