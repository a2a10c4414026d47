//! Main content a page holds in its structured data (issue #49, item 2): forums and
//! question pages whose posts a script draws from JSON (the HTML a crawler fetches shows
//! a shell), articles whose body is in `articleBody` only. The schema.org types that
//! carry their text: a `QAPage`'s question and answers, a `DiscussionForumPosting` and
//! its comments, an article's `articleBody`.

use serde_json::{Map, Value};

use super::blocks::measure;
use super::jsonld::{JsonLd, types};
use crate::visible;

/// The main text, or the structured data's text when that holds more than twice as
/// much (the visible page then shows a shell or a fragment of it).
pub(crate) fn instead(text: String, ld: &JsonLd) -> String {
    match self::text(ld) {
        Some(data) if measure(data.as_bytes()).0 > 2 * measure(text.as_bytes()).0 => data,
        _ => text,
    }
}

/// The text the page's JSON-LD gives as its main content, in the order the data has it
/// (paragraphs apart by a blank line), if any.
pub(crate) fn text(ld: &JsonLd) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for object in ld.objects() {
        for kind in types(object) {
            match kind {
                "QAPage" => each(object.get("mainEntity"), |q| question(q, &mut parts)),
                "Question" if parts.is_empty() => question(object, &mut parts),
                "DiscussionForumPosting" | "SocialMediaPosting" => posting(object, &mut parts),
                "Article" | "NewsArticle" | "BlogPosting" | "Report" | "TechArticle" => {
                    push(object.get("articleBody"), &mut parts);
                }
                _ => continue,
            }
            break;
        }
    }
    let text = parts.join("\n\n");
    (!text.trim().is_empty()).then_some(text)
}

/// Calls `f` for the object `value` is, or each object of the array it is.
fn each(value: Option<&Value>, mut f: impl FnMut(&Map<String, Value>)) {
    match value {
        Some(Value::Object(o)) => f(o),
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_object).for_each(&mut f),
        _ => {}
    }
}

/// A question's title and text, then its answers' texts.
fn question(q: &Map<String, Value>, parts: &mut Vec<String>) {
    push(q.get("name"), parts);
    push(q.get("text"), parts);
    for key in ["acceptedAnswer", "suggestedAnswer"] {
        each(q.get(key), |a| push(a.get("text"), parts));
    }
}

/// A post's headline and text, then its comments' (one level: comments of comments are
/// listed by the page beside them when it has them).
fn posting(p: &Map<String, Value>, parts: &mut Vec<String>) {
    push(p.get("headline").or_else(|| p.get("name")), parts);
    push(p.get("text").or_else(|| p.get("articleBody")), parts);
    each(p.get("comment"), |c| push(c.get("text"), parts));
}

/// Adds a string's text: as written, or laid out as visible text when it is HTML.
fn push(value: Option<&Value>, parts: &mut Vec<String>) {
    let Some(s) = value.and_then(Value::as_str) else {
        return;
    };
    let text = if s.contains('<') {
        let doc = htmltok_tree::parse(s.as_bytes());
        visible::visible_text(&doc, visible::Options::default())
    } else {
        s.trim().to_string()
    };
    if !text.is_empty() {
        parts.push(text);
    }
}
