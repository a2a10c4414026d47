//! Main content a page holds in its structured data (issue #49, item 2): forums and
//! question pages whose posts a script draws from JSON (the HTML a crawler fetches shows
//! a shell), articles whose body is in `articleBody` only. The schema.org types that
//! carry their text: a `QAPage`'s question and answers, a `DiscussionForumPosting` and
//! its comments, an article's `articleBody`; and a product's `description`, which shops
//! often show in a tab a script fills.

use serde_json::{Map, Value};

use super::jsonld::{JsonLd, types};
use super::text_counts::measure;
use crate::visible;

/// What the structured data changes of a page's main text.
pub(crate) enum Instead {
    /// Nothing.
    Keep,
    /// The structured data's text replaces it.
    Replace(String),
    /// A product's description follows it.
    Append(String),
}

/// The main text, or the structured data's text when that holds more than twice as
/// much (the visible page then shows a shell or a fragment of it); else the main text
/// with a product's description after it when the text lacks most of its words.
pub(crate) fn instead(text: String, ld: &JsonLd) -> String {
    instead_of(&text, ld).apply(text, |data| data)
}

impl Instead {
    /// The output `out` (the main text as plain text or written otherwise) changed as
    /// this says, the structured data's text written by `write`.
    pub(crate) fn apply(self, out: String, write: impl Fn(String) -> String) -> String {
        match self {
            Instead::Keep => out,
            Instead::Replace(data) => write(data),
            Instead::Append(description) if out.is_empty() => write(description),
            Instead::Append(description) => out + "\n\n" + &write(description),
        }
    }
}

/// What [`instead`] does to the main text `text`.
pub(crate) fn instead_of(text: &str, ld: &JsonLd) -> Instead {
    match self::text(ld) {
        Some(data) if measure(data.as_bytes()).0 > 2 * measure(text.as_bytes()).0 => {
            Instead::Replace(data)
        }
        _ => description(text, ld).map_or(Instead::Keep, Instead::Append),
    }
}

/// The first `Product`'s `description`, when fewer than half of its words are in the
/// text.
fn description(text: &str, ld: &JsonLd) -> Option<String> {
    let description = ld.objects().find_map(|o| {
        types(o)
            .any(|t| t == "Product")
            .then(|| o.get("description"))
            .flatten()
    });
    let mut parts = Vec::new();
    push(description, &mut parts);
    let description = parts.pop()?;
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let have: std::collections::HashSet<String> = words(text).into_iter().collect();
    let wanted = words(&description);
    let found = wanted.iter().filter(|w| have.contains(*w)).count();
    (!wanted.is_empty() && found * 2 < wanted.len()).then_some(description)
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

#[cfg(test)]
mod tests {
    fn main(html: &str) -> String {
        crate::main_text(&htmltok_tree::parse(html.as_bytes()), &Default::default()).text
    }

    #[test]
    fn a_question_page_shell_gives_its_questions_and_answers() {
        let text = main(
            r#"<script type="application/ld+json">{"@type":"QAPage","mainEntity":{
            "@type":"Question","name":"Which telescope first?","text":"<p>I am new to this.</p>",
            "acceptedAnswer":{"@type":"Answer","text":"A small refractor, and patience."},
            "suggestedAnswer":[{"@type":"Answer","text":"Binoculars first."}]}}</script>
            <div id=app>Loading</div>"#,
        );
        assert_eq!(
            text,
            "Which telescope first?\n\nI am new to this.\n\nA small refractor, and patience.\n\nBinoculars first."
        );
    }

    #[test]
    fn a_product_description_in_a_tab_is_added_once() {
        let description = "Solid oak desk with a matte finish, cable tray and adjustable feet.";
        let page = |shown: &str| {
            format!(
                "<script type=application/ld+json>{{\"@type\":\"Product\",\"name\":\"Desk\",\
                 \"description\":\"{description}\"}}</script><h1>Desk</h1>\
                 <p>Ships in two days, with free returns, from our warehouse in town.</p>{shown}"
            )
        };
        assert!(main(&page("")).ends_with(description));
        // Shown on the page already: not repeated.
        let shown = main(&page(&format!("<p>{description}</p>")));
        assert_eq!(shown.matches("Solid oak").count(), 1, "{shown}");
    }
}
