//! The page's JSON-LD (`<script type="application/ld+json">`), parsed once for the
//! page kind and the title, byline and date.

use htmltok_tree::{DocumentRef, Name, NodeRef, Ns, Tag};
use serde_json::Value;

/// The JSON-LD objects of a page that name a `@type`: the top-level ones, those in
/// top-level arrays and those in `@graph` arrays (at any depth of `@graph` and arrays,
/// not inside other properties: an `Offer` inside a `Product`'s `offers` is not an
/// object of the page).
#[derive(Default)]
pub(crate) struct JsonLd {
    objects: Vec<serde_json::Map<String, Value>>,
}

impl JsonLd {
    /// Parses every JSON-LD script of the document; a script that is not JSON is
    /// skipped (one page in a hundred has one, often with a stray trailing comma).
    pub(crate) fn read(doc: &DocumentRef<'_>) -> JsonLd {
        let mut ld = JsonLd::default();
        // Most pages have none: a search of the input for `+json` (any case) spares them
        // the walk of the tree (a type written with a character reference for the `+`
        // is not seen).
        if !mentions_json(doc.input()) {
            return ld;
        }
        let is_script = |name: Name| name.ns == Ns::Html && name.tag == Tag::Script;
        let mut scripts: Vec<NodeRef<'_>> = match doc.elements_in_tree_order() {
            // The arena in tree order: a scan of it passes the other nodes by.
            Some(mut elements) => std::iter::from_fn(|| elements.next_named(is_script))
                .map(|(script, _)| script)
                .collect(),
            None => doc
                .root()
                .descendants()
                .filter(|n| n.element_name().is_some_and(is_script))
                .collect(),
        };
        scripts.retain(|n| n.attr("type").is_some_and(|t| is_json_ld(&t)));
        for script in scripts {
            if let Ok(value) = serde_json::from_str::<Value>(script.text().trim()) {
                ld.collect(value);
            }
        }
        ld
    }

    /// Keeps the typed objects of `value` (an explicit stack: `@graph`s can nest).
    fn collect(&mut self, value: Value) {
        let mut stack = vec![value];
        while let Some(value) = stack.pop() {
            match value {
                Value::Array(items) => stack.extend(items.into_iter().rev()),
                Value::Object(mut object) => {
                    if let Some(graph) = object.remove("@graph") {
                        stack.push(graph);
                    }
                    if object.contains_key("@type") {
                        self.objects.push(object);
                    }
                }
                _ => {}
            }
        }
    }

    /// The objects, in the order the page gives them.
    pub(crate) fn objects(&self) -> impl Iterator<Item = &serde_json::Map<String, Value>> {
        self.objects.iter()
    }
}

/// Whether the bytes hold `+json` in any ASCII case.
fn mentions_json(input: &[u8]) -> bool {
    memchr::memchr_iter(b'+', input).any(|i| {
        input
            .get(i + 1..i + 5)
            .is_some_and(|json| json.eq_ignore_ascii_case(b"json"))
    })
}

/// An object's types: its `@type`, a string or an array of strings, each without a
/// `schema:` or `http(s)://schema.org/` prefix.
pub(crate) fn types(object: &serde_json::Map<String, Value>) -> impl Iterator<Item = &str> {
    let (one, many) = match object.get("@type") {
        Some(Value::String(s)) => (Some(s.as_str()), None),
        Some(Value::Array(items)) => (None, Some(items.iter().filter_map(Value::as_str))),
        _ => (None, None),
    };
    one.into_iter().chain(many.into_iter().flatten()).map(|t| {
        let t = t.trim();
        t.rsplit_once(['/', ':']).map_or(t, |(_, name)| name)
    })
}

/// Whether a `type` attribute names JSON-LD (`application/ld+json`, parameters and
/// case ignored).
fn is_json_ld(value: &str) -> bool {
    value
        .split(';')
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .eq_ignore_ascii_case("application/ld+json")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(html: &str) -> JsonLd {
        JsonLd::read(&htmltok_tree::parse(html.as_bytes()).view())
    }

    #[test]
    fn objects_of_graphs_and_arrays() {
        let ld = read(
            r#"<script type="application/ld+json; charset=utf-8">
            {"@context":"https://schema.org","@graph":[{"@type":"WebSite"},
             {"@type":["Article","NewsArticle"],"offers":{"@type":"Offer"}}]}</script>
            <script type=application/ld+json>[{"@type":"schema:Product"}, 3]</script>"#,
        );
        let types: Vec<Vec<&str>> = ld.objects().map(|o| types(o).collect()).collect();
        assert_eq!(
            types,
            [
                vec!["WebSite"],
                vec!["Article", "NewsArticle"],
                vec!["Product"]
            ]
        );
    }

    #[test]
    fn the_type_is_found_in_any_case_and_pages_without_one_are_not_walked() {
        let ld = read(r#"<SCRIPT TYPE="Application/LD+Json">{"@type":"Product"}</SCRIPT>"#);
        assert_eq!(ld.objects().count(), 1);
        assert!(mentions_json(b"a+JsOn") && mentions_json(b"+json"));
        assert!(!mentions_json(b"json+") && !mentions_json(b"+jso") && !mentions_json(b""));
        assert_eq!(
            read("<script>{\"@type\":\"Product\"}</script>")
                .objects()
                .count(),
            0
        );
    }

    #[test]
    fn malformed_scripts_are_skipped() {
        for bad in [
            "{",
            "",
            "null",
            r#"{"@type": 3}"#,
            r#"{"@graph": {"@graph": "x"}}"#,
            "[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]",
            r#"{"@type":"Article",}"#,
        ] {
            let ld = read(&format!(
                "<script type=application/ld+json>{bad}</script>\
                 <script type=application/ld+json>{{\"@type\":\"Product\"}}</script>"
            ));
            let types: Vec<&str> = ld.objects().flat_map(types).collect();
            assert_eq!(types, ["Product"], "{bad}");
        }
    }
}
