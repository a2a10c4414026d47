//! `htmltok extract --metadata`: the metadata columns as JSON, in the names, order and
//! shapes of `htmltok_crawl::extract::columns::metadata` (structs as objects, lists as
//! arrays, URLs resolved, null where the Parquet column is null).

use htmltok_content::metadata::{Metadata, Robots};
use htmltok_crawl::extract::{METADATA_COLUMNS, robots_flags};

use crate::json;

fn opt_str(line: &mut String, value: Option<&str>) {
    match value {
        Some(value) => json::write_str(line, value),
        None => line.push_str("null"),
    }
}

fn opt_num(line: &mut String, value: Option<i64>) {
    match value {
        Some(value) => line.push_str(&value.to_string()),
        None => line.push_str("null"),
    }
}

/// `[item,…]`.
fn array<T>(line: &mut String, items: &[T], mut write: impl FnMut(&mut String, &T)) {
    line.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        write(line, item);
    }
    line.push(']');
}

fn robots(line: &mut String, r: &Robots) {
    if !r.present {
        line.push_str("null");
        return;
    }
    line.push('{');
    for (name, flag) in robots_flags(r) {
        json::write_str(line, name);
        line.push(':');
        line.push_str(if flag { "true" } else { "false" });
        line.push(',');
    }
    line.push_str("\"max_snippet\":");
    opt_num(line, r.max_snippet);
    line.push_str(",\"max_image_preview\":");
    opt_str(line, r.max_image_preview.map(|p| p.as_str()));
    line.push_str(",\"max_video_preview\":");
    opt_num(line, r.max_video_preview);
    line.push_str(",\"unavailable_after\":");
    opt_str(line, r.unavailable_after.as_deref());
    line.push_str(",\"other\":");
    array(line, &r.other, |line, s| json::write_str(line, s));
    line.push('}');
}

fn pairs(line: &mut String, pairs: &[(String, String)]) {
    array(line, pairs, |line, (name, content)| {
        line.push_str("{\"name\":");
        json::write_str(line, name);
        line.push_str(",\"content\":");
        json::write_str(line, content);
        line.push('}');
    });
}

/// Appends `,"canonical":…` and the other metadata members of `m` (null for a page
/// without metadata: every member null).
pub(crate) fn write_members(line: &mut String, m: Option<&Metadata>) {
    for name in METADATA_COLUMNS {
        line.push(',');
        json::write_str(line, name);
        line.push(':');
        let Some(m) = m else {
            line.push_str("null");
            continue;
        };
        match name {
            "canonical" => opt_str(line, m.canonical.as_ref().and_then(|c| c.url.as_deref())),
            "robots" => robots(line, &m.robots),
            "googlebot" => robots(line, &m.googlebot),
            "description" => opt_str(line, m.description.as_deref()),
            "open_graph" => pairs(line, &m.open_graph),
            "twitter" => pairs(line, &m.twitter),
            "lang" => opt_str(line, m.lang.as_deref()),
            "content_language" => opt_str(line, m.content_language.as_deref()),
            "hreflang" => array(line, &m.alternates, |line, a| {
                line.push_str("{\"hreflang\":");
                json::write_str(line, &a.hreflang);
                line.push_str(",\"url\":");
                opt_str(line, a.href.url.as_deref());
                line.push('}');
            }),
            "refresh" => match &m.refresh {
                Some(r) => {
                    line.push_str("{\"delay\":");
                    opt_num(line, Some(i64::try_from(r.delay).unwrap_or(i64::MAX)));
                    line.push_str(",\"url\":");
                    opt_str(line, r.url.as_deref());
                    line.push('}');
                }
                None => line.push_str("null"),
            },
            "json_ld" => array(line, &m.json_ld, |line, s| json::write_str(line, s)),
            "qualified_links" => array(line, &m.qualified_links, |line, q| {
                line.push_str("{\"url\":");
                opt_str(line, q.href.url.as_deref());
                for (key, flag) in [
                    ("nofollow", q.nofollow),
                    ("ugc", q.ugc),
                    ("sponsored", q.sponsored),
                ] {
                    line.push_str(",\"");
                    line.push_str(key);
                    line.push_str("\":");
                    line.push_str(if flag { "true" } else { "false" });
                }
                line.push('}');
            }),
            // METADATA_COLUMNS and this match are one list: a name not matched here
            // would be a column the JSON lines lack, which the tests catch.
            _ => line.push_str("null"),
        }
    }
}
