//! Unit tests of the simulation.

use super::names::*;
use super::simulator::*;
use super::start_tag::html_start_tag_kind;
use super::*;
use crate::state::State;

fn none(_: &[u8]) -> Option<String> {
    None
}

#[test]
fn packed_names_match_case_insensitively_and_only_letters() {
    assert_eq!(
        html_start_tag_kind(b"ScRiPt", true),
        HtmlStartTag::Switch(State::ScriptData)
    );
    assert_eq!(html_start_tag_kind(b"SVG", true), HtmlStartTag::Svg);
    assert_eq!(
        html_start_tag_kind(b"PlainText", true),
        HtmlStartTag::Switch(State::Plaintext)
    );
    assert_eq!(html_start_tag_kind(b"noscript", false), HtmlStartTag::Other);
    // `@` | 0x20 is a backquote, not a letter: no false match.
    assert_eq!(html_start_tag_kind(b"s\x16g", true), HtmlStartTag::Other);
    assert_eq!(html_start_tag_kind(b"divs", true), HtmlStartTag::Other);
    assert_eq!(html_start_tag_kind(b"scripts", true), HtmlStartTag::Other);
    // The 8-byte load form gives the same answers, near the input's end or not.
    for input in [
        &b"<SVG x>"[..],
        b"<svg",
        b"<TexTarea>",
        b"<scriptx>",
        b"<style>",
        b"<mathematics>",
    ] {
        for end in 1..input.len() {
            assert_eq!(
                html_start_tag_kind_at(input, 1, end, true),
                html_start_tag_kind(&input[1..end], true),
                "{input:?} 1..{end}"
            );
        }
    }
}

#[test]
fn html_start_tags_switch_states() {
    let mut sim = Simulator::new(true);
    assert_eq!(
        sim.start_tag(b"TITLE", false, none),
        Outcome::Switch(State::Rcdata)
    );
    assert_eq!(
        sim.start_tag(b"script", true, none),
        Outcome::Switch(State::ScriptData)
    );
    assert_eq!(
        sim.start_tag(b"noscript", false, none),
        Outcome::Switch(State::Rawtext)
    );
    assert_eq!(
        Simulator::new(false).start_tag(b"noscript", false, none),
        Outcome::None
    );
    assert_eq!(
        sim.start_tag(b"plaintext", false, none),
        Outcome::Switch(State::Plaintext)
    );
}

#[test]
fn foreign_content_suppresses_switches_and_allows_cdata() {
    let mut sim = Simulator::new(true);
    sim.start_tag(b"svg", false, none);
    assert!(sim.in_foreign_content());
    assert_eq!(sim.start_tag(b"script", false, none), Outcome::None);
    assert_eq!(sim.start_tag(b"foreignObject", false, none), Outcome::None);
    assert!(
        sim.in_foreign_content(),
        "foreignObject itself is an SVG element"
    );
    assert_eq!(
        sim.start_tag(b"style", false, none),
        Outcome::Switch(State::Rawtext)
    );
    assert!(
        !sim.in_foreign_content(),
        "an HTML element inside it is current"
    );
    sim.end_tag(b"style");
    sim.end_tag(b"foreignobject");
    assert!(sim.in_foreign_content());
    sim.end_tag(b"svg");
    assert!(!sim.in_foreign_content());
}

#[test]
fn breakout_tags_leave_foreign_content() {
    let mut sim = Simulator::new(true);
    sim.start_tag(b"math", false, none);
    assert_eq!(sim.start_tag(b"p", false, none), Outcome::None);
    assert!(!sim.in_foreign_content());
    sim.start_tag(b"svg", false, none);
    assert_eq!(sim.start_tag(b"font", false, none), Outcome::None);
    assert!(sim.in_foreign_content());
    sim.start_tag(b"font", false, |n: &[u8]| {
        (n == b"color").then(|| "red".to_string())
    });
    assert!(!sim.in_foreign_content());
}

#[test]
fn cdata_stays_allowed_directly_inside_an_integration_point() {
    let mut sim = Simulator::new(true);
    sim.start_tag(b"math", false, none);
    sim.start_tag(b"mtext", false, none);
    assert!(sim.in_foreign_content(), "mtext itself is a MathML element");
    sim.start_tag(b"br", false, none);
    assert!(sim.in_foreign_content(), "a void element is popped at once");
    sim.start_tag(b"b", false, none);
    assert!(!sim.in_foreign_content(), "an HTML <b> is the current node");
}

#[test]
fn annotation_xml_with_html_encoding_is_an_integration_point() {
    let mut sim = Simulator::new(true);
    sim.start_tag(b"math", false, none);
    sim.start_tag(b"annotation-xml", false, |n: &[u8]| {
        (n == b"encoding").then(|| "text/html".to_string())
    });
    assert_eq!(
        sim.start_tag(b"title", false, none),
        Outcome::Switch(State::Rcdata)
    );
    assert!(!sim.in_foreign_content());
}

/// Feeds `tags` (`"<a>"`, `"</a>"`, `"<a/>"`, attributes as `"<font color>"`) and
/// returns the last start tag's outcome, or [`Outcome::NeedsWholeStack`] at once when a
/// tag asks for it.
fn feed(sim: &mut Simulator, tags: &[&str]) -> Outcome {
    let mut last = Outcome::None;
    for t in tags {
        let inner = t.trim_start_matches('<').trim_end_matches('>');
        if let Some(name) = inner.strip_prefix('/') {
            if sim.end_tag(name.as_bytes()) == Outcome::NeedsWholeStack {
                return Outcome::NeedsWholeStack;
            }
            continue;
        }
        let (inner, self_closing) = match inner.strip_suffix('/') {
            Some(i) => (i, true),
            None => (inner, false),
        };
        let mut parts = inner.split(' ');
        let name = parts.next().unwrap();
        let attrs: Vec<(String, String)> = parts
            .map(|a| match a.split_once('=') {
                Some((n, v)) => (n.to_string(), v.to_string()),
                None => (a.to_string(), String::new()),
            })
            .collect();
        last = sim.start_tag(name.as_bytes(), self_closing, |n: &[u8]| {
            attrs
                .iter()
                .find(|(a, _)| a.as_bytes() == n)
                .map(|(_, v)| v.clone())
        });
        if last == Outcome::CheckFrameset {
            sim.frameset_decided(true);
            last = Outcome::None;
        }
        if last == Outcome::NeedsWholeStack {
            return last;
        }
    }
    last
}

#[test]
fn nested_svg_keeps_the_outer_one_open() {
    // Issue #15: `<style>` after an inner `</svg>` is still SVG.
    let mut sim = Simulator::new(true);
    let tags = ["<svg>", "<svg>", "</svg>", "<style>"];
    assert_eq!(feed(&mut sim, &tags), Outcome::None);
    assert!(sim.in_foreign_content());
    feed(&mut sim, &["</style>", "</svg>"]);
    assert!(sim.is_idle());
}

#[test]
fn frameset_modes_ignore_switching_start_tags() {
    // Issue #15: `<frameset><plaintext>` never enters PLAINTEXT.
    let mut sim = Simulator::new(true);
    assert_eq!(feed(&mut sim, &["<frameset>"]), Outcome::None);
    assert!(!sim.is_idle());
    for tag in [
        "<plaintext>",
        "<script>",
        "<style>",
        "<title>",
        "<svg>",
        "<math>",
    ] {
        assert_eq!(feed(&mut sim, &[tag]), Outcome::None, "{tag}");
    }
    assert!(!sim.in_foreign_content());
    feed(&mut sim, &["</frameset>", "</html>"]);
    assert_eq!(
        feed(&mut sim, &["<noframes>"]),
        Outcome::Switch(State::Rawtext)
    );
    // The tokenizer asks first; an ignored `<frameset>` changes nothing.
    let mut sim = Simulator::new(true);
    assert_eq!(
        sim.start_tag(b"frameset", false, none),
        Outcome::CheckFrameset
    );
    sim.frameset_decided(false);
    assert!(sim.is_idle());
    assert_eq!(sim.start_tag(b"frameset", false, none), Outcome::None);
}

#[test]
fn any_other_end_tag_closes_the_matching_foreign_element() {
    let mut sim = Simulator::new(true);
    feed(
        &mut sim,
        &["<svg>", "<g>", "<foreignObject>", "<div>", "<svg>", "<g>"],
    );
    // `</foreignobject>` inside HTML content inside it: "in body" stops at the div.
    feed(&mut sim, &["</div>"]);
    assert!(sim.in_foreign_content());
    assert_eq!(
        feed(&mut sim, &["<style>"]),
        Outcome::Switch(State::Rawtext)
    );
    feed(&mut sim, &["</style>", "</foreignObject>"]);
    assert!(sim.in_foreign_content(), "back in the outer <g>");
    assert_eq!(feed(&mut sim, &["<style>"]), Outcome::None);
    feed(&mut sim, &["</style>", "</G>"]);
    assert!(sim.in_foreign_content());
    feed(&mut sim, &["</svg>"]);
    assert!(sim.is_idle());
}

#[test]
fn end_tags_reaching_untracked_html_ask_for_the_whole_stack() {
    // The lazy simulator cannot tell whether a `<div>` is open below the `<svg>`.
    let mut sim = Simulator::new(true);
    assert_eq!(
        feed(&mut sim, &["<svg>", "<path>", "</div>"]),
        Outcome::NeedsWholeStack
    );
    // Nor whether a table mode is on below it.
    let mut sim = Simulator::new(true);
    assert_eq!(
        feed(&mut sim, &["<svg>", "<foreignObject>", "<td>"]),
        Outcome::NeedsWholeStack
    );
    let mut sim = Simulator::new(true);
    assert_eq!(
        feed(&mut sim, &["<svg>", "<foreignObject>", "</table>"]),
        Outcome::NeedsWholeStack
    );
    // An integration point stops the in-body walk: no need to look below.
    let mut sim = Simulator::new(true);
    assert_eq!(
        feed(&mut sim, &["<svg>", "<foreignObject>", "</div>"]),
        Outcome::None
    );
    assert!(sim.in_foreign_content());
    // The whole-stack simulator never asks.
    let mut sim = Simulator::new_whole_stack(true);
    assert_eq!(
        feed(&mut sim, &["<svg>", "<path>", "</div>", "<td>", "</table>"]),
        Outcome::None
    );
}

#[test]
fn end_tags_breaking_out_of_foreign_content_see_the_html_stack() {
    // 13.2.6.5 "any other end tag" hands `</div>` to "in body", whose walk (13.2.6.4.7)
    // finds no `<div>`: ignored, and `<style>` is still SVG.
    let mut sim = Simulator::new_whole_stack(true);
    assert_eq!(
        feed(&mut sim, &["<svg>", "</div>", "<style>"]),
        Outcome::None
    );
    assert!(sim.in_foreign_content());
    // With a `<div>` open below, it closes the `<svg>` too.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<div>", "<svg>", "<path>", "</div>"]);
    assert!(!sim.in_foreign_content());
    // An HTML `<path>` (an unknown element) below: `</path>` closes it and the `<math>`.
    let mut sim = Simulator::new_whole_stack(true);
    assert_eq!(
        feed(&mut sim, &["<path>", "<math>", "</path>", "<noscript/>"]),
        Outcome::Switch(State::Rawtext)
    );
    // A special element between stops the walk: `<address>` in `<span>`.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<span>", "<address>", "<svg>", "</span>"]);
    assert!(sim.in_foreign_content());
    // Void elements are never open.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<img>", "<svg>", "</img>"]);
    assert!(sim.in_foreign_content());
    // "In scope" ends at `select` (the select parser relaxation, html5ever 0.40).
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<ul>", "<select>", "<svg>", "</ul>"]);
    assert!(sim.in_foreign_content());
    // `</template>` ("in head") closes everything above the template.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<template>", "<svg>", "<g>", "</template>"]);
    assert!(!sim.in_foreign_content());
}

#[test]
fn list_items_close_a_p_element() {
    // 13.2.6.4.7: `li`, `dd` and `dt` close a `p` in button scope after closing an open
    // list item. So `</p>` finds no `p` (it inserts and closes one), `</li>` finds the
    // `li` below the `<svg>` and closes both, and `<style>` is HTML: RAWTEXT.
    for (item, end) in [("<li>", "</li>"), ("<dd>", "</dd>"), ("<dt>", "</dt>")] {
        let mut sim = Simulator::new_whole_stack(true);
        let tags = ["<p>", item, "</p>", "<svg>", end, "<style>"];
        assert_eq!(
            feed(&mut sim, &tags),
            Outcome::Switch(State::Rawtext),
            "{item}"
        );
    }
}

#[test]
fn table_modes_decide_inside_integration_points() {
    // 13.2.6.4.9 "in table": `<td>` clears the stack back to the table (the `<svg>`
    // with it) and implies `<tbody>` and `<tr>`.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<table>", "<svg>", "<foreignObject>", "<td>"]);
    assert!(!sim.in_foreign_content());
    assert_eq!(
        feed(&mut sim, &["<style>"]),
        Outcome::Switch(State::Rawtext)
    );
    // `</table>` is in table scope across an integration point (13.2.6.4.15 "in cell":
    // close the cell, then the row, the section, the table).
    let mut sim = Simulator::new_whole_stack(true);
    feed(
        &mut sim,
        &["<table>", "<td>", "<svg>", "<foreignObject>", "</table>"],
    );
    assert!(!sim.in_foreign_content());
    // In body the integration point ends "in scope": `</div>` is ignored.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<div>", "<svg>", "<foreignObject>", "</div>"]);
    assert!(sim.in_foreign_content());
    // `</td>` without a cell open is ignored "in table".
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<table>", "<svg>", "</td>"]);
    assert!(sim.in_foreign_content());
    // A second `<td>` closes the first; `<tr>` closes the row (13.2.6.4.14, .15).
    let mut sim = Simulator::new_whole_stack(true);
    feed(
        &mut sim,
        &[
            "<table>", "<tr>", "<td>", "<svg>", "<desc>", "<td>", "<math>", "<mi>", "<tr>",
        ],
    );
    assert!(!sim.in_foreign_content());
    // "In column group": another start tag pops the `colgroup` and goes to "in table".
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<table>", "<colgroup>", "<col>", "<svg>"]);
    assert!(sim.in_foreign_content());
    feed(&mut sim, &["</svg>", "</table>", "<svg>"]);
    assert!(sim.in_foreign_content());
    // "In template" (13.2.6.4.18): `<td>` sets "in row"; end tags other than
    // `</template>` are ignored while the mode is "in template".
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<template>", "<td>", "<svg>", "<desc>", "<td>"]);
    assert!(
        !sim.in_foreign_content(),
        "the second <td> closed the first"
    );
}

#[test]
fn text_elements_in_template_contents_are_closed_by_their_end_tag() {
    // "In template" hands `<title>`, `<style>`, `<script>` and `<noframes>` to "in
    // head", which switches to "text" (13.2.6.4.8): their end tag pops them, though "in
    // template" ignores other end tags. With a `<title>` left open, `</title>` under a
    // later `<svg>` would reach it, and the `<title>` after it would be taken for an
    // HTML one (RCDATA) instead of an SVG one (found by crawl's tree agreement test).
    for tag in ["title", "style", "script", "noframes"] {
        let mut sim = Simulator::new_whole_stack(true);
        let (start, end) = (format!("<{tag}>"), format!("</{tag}>"));
        assert_eq!(
            feed(&mut sim, &["<template>", &start, &end, "<svg>", &end]),
            Outcome::None
        );
        assert!(sim.in_foreign_content(), "{tag}: the <svg> is still open");
        assert_eq!(feed(&mut sim, &["<title>"]), Outcome::None, "{tag}");
    }
}

#[test]
fn adoption_agency_moves_the_formatting_element_above_the_furthest_block() {
    // `</b>` with a `<div>` above the `<b>`: the `<b>` is re-opened inside the `<div>`,
    // then closed with everything above it: the `<svg>` too.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<b>", "<div>", "<svg>", "</b>"]);
    assert!(!sim.in_foreign_content());
    assert_eq!(
        feed(&mut sim, &["<style>"]),
        Outcome::Switch(State::Rawtext)
    );
    // Not in scope (an integration point comes first): ignored.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<b>", "<svg>", "<foreignObject>", "</b>"]);
    assert!(sim.in_foreign_content());
    // No furthest block: pop to the formatting element.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<i>", "<svg>", "<g>", "</i>"]);
    assert!(!sim.in_foreign_content());
    // A marker (`<td>`) hides the `<b>` from the list: "any other end tag", which
    // stops at the special `<td>`.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<b>", "<table>", "<td>", "<svg>", "</b>"]);
    assert!(sim.in_foreign_content());
}

#[test]
fn br_and_p_end_tags_leave_foreign_content() {
    for end in ["</br>", "</p>"] {
        let mut sim = Simulator::new(true);
        feed(&mut sim, &["<math>", "<mrow>", end]);
        assert!(sim.is_idle(), "{end}");
        // Inside an integration point they stop there.
        let mut sim = Simulator::new(true);
        feed(&mut sim, &["<svg>", "<desc>", "<svg>", "<g>", end]);
        assert!(sim.in_foreign_content(), "{end}: desc is current");
        assert_eq!(
            feed(&mut sim, &["<textarea>"]),
            Outcome::Switch(State::Rcdata)
        );
    }
}

#[test]
fn mathml_text_integration_points_keep_mglyph_and_malignmark() {
    let mut sim = Simulator::new(true);
    feed(&mut sim, &["<math>", "<mi>", "<mglyph>"]);
    assert!(sim.in_foreign_content());
    assert_eq!(feed(&mut sim, &["<style>"]), Outcome::None);
    feed(&mut sim, &["</style>", "</mglyph>"]);
    assert_eq!(
        feed(&mut sim, &["<style>"]),
        Outcome::Switch(State::Rawtext)
    );
}

#[test]
fn annotation_xml_without_encoding_takes_svg_as_html() {
    let mut sim = Simulator::new(true);
    feed(&mut sim, &["<math>", "<annotation-xml>"]);
    assert_eq!(feed(&mut sim, &["<style>"]), Outcome::None);
    feed(&mut sim, &["</style>", "<svg>", "<foreignObject>"]);
    assert_eq!(
        feed(&mut sim, &["<style>"]),
        Outcome::Switch(State::Rawtext)
    );
}

#[test]
fn html_elements_in_integration_points_pop_by_in_body_rules() {
    let mut sim = Simulator::new(true);
    feed(&mut sim, &["<svg>", "<foreignObject>", "<b>", "</b>"]);
    assert!(sim.in_foreign_content(), "foreignObject is current again");
    feed(&mut sim, &["<p>", "<div>", "</div>"]);
    assert!(sim.in_foreign_content(), "<div> closed the <p>");
    feed(&mut sim, &["<li>", "<li>", "</li>"]);
    assert!(sim.in_foreign_content(), "the second <li> closed the first");
    feed(&mut sim, &["<span>", "<div>", "</span>"]);
    assert!(
        !sim.in_foreign_content(),
        "</span> stops at the special <div>"
    );
    feed(&mut sim, &["</div>", "</span>", "<br>", "<img>"]);
    assert!(sim.in_foreign_content(), "void elements are never current");
}

#[test]
fn breakout_keys_match_the_list() {
    let none = |_: &[u8]| None;
    for name in BREAKOUT_TAGS {
        let upper = name.to_ascii_uppercase();
        assert!(is_breakout(name, lower_key(name), &none), "{name:?}");
        assert!(is_breakout(&upper, lower_key(&upper), &none), "{upper:?}");
    }
    for name in [
        &b"path"[..],
        b"g",
        b"svg",
        b"blockquotes",
        b"bb",
        b"font",
        b"p1",
    ] {
        assert!(!is_breakout(name, lower_key(name), &none), "{name:?}");
    }
}

#[test]
fn font_breaks_out_only_with_its_attributes() {
    let mut sim = Simulator::new(true);
    feed(&mut sim, &["<svg>", "<font>"]);
    assert!(sim.in_foreign_content());
    feed(&mut sim, &["</font>", "<font size=2>"]);
    assert!(sim.is_idle());
}

#[test]
fn template_contents_modes_can_ignore_switching_start_tags() {
    // 13.2.6.4.18: `<col>` sets the template insertion mode to "in column group", which
    // ignores every start tag but `col` and `template` when the current node is not a
    // `colgroup` (13.2.6.4.12): no RCDATA, no foreign content.
    let mut sim = Simulator::new(true);
    assert_eq!(
        feed(&mut sim, &["<template>", "<col>", "<title>"]),
        Outcome::None
    );
    assert_eq!(feed(&mut sim, &["<svg>"]), Outcome::None);
    assert!(!sim.in_foreign_content());
    // `</template>` ends it.
    assert_eq!(
        feed(&mut sim, &["</template>", "<title>"]),
        Outcome::Switch(State::Rcdata)
    );
    // Any other start tag first sets "in body", which switches.
    let mut sim = Simulator::new(true);
    assert_eq!(
        feed(&mut sim, &["<template>", "<div>", "<col>", "<title>"]),
        Outcome::Switch(State::Rcdata)
    );
    // A `<frameset>` ignored in the template still sets "in body".
    let mut sim = Simulator::new(true);
    assert_eq!(sim.start_tag(b"template", false, none), Outcome::None);
    assert_eq!(
        sim.start_tag(b"frameset", false, none),
        Outcome::CheckFrameset
    );
    sim.frameset_decided(false);
    assert_eq!(
        feed(&mut sim, &["<col>", "<plaintext>"]),
        Outcome::Switch(State::Plaintext)
    );
    // "In column group" under a table pops the `colgroup` and switches "in table".
    let mut sim = Simulator::new_whole_stack(true);
    assert_eq!(
        feed(&mut sim, &["<table>", "<colgroup>", "<style>"]),
        Outcome::Switch(State::Rawtext)
    );
}

/// The foreign members of "special" (`crate::elements`), which the simulator knows as
/// integration points: an end tag's "any other end tag" walk stops at each of them, and
/// goes past a foreign element that is not one.
#[test]
fn foreign_boundaries_are_special() {
    use crate::elements::{MATHML_BOUNDARIES, SVG_BOUNDARIES};
    for (root, names) in [("<math>", MATHML_BOUNDARIES), ("<svg>", SVG_BOUNDARIES)] {
        for name in names {
            let tag = format!("<{}>", String::from_utf8_lossy(name));
            let mut sim = Simulator::new_whole_stack(true);
            feed(&mut sim, &["<span>", root, &tag, "</span>"]);
            assert!(
                sim.in_foreign_content(),
                "{root} {tag}: the walk stops there"
            );
        }
        let mut sim = Simulator::new_whole_stack(true);
        feed(&mut sim, &["<span>", root, "<g>", "</span>"]);
        assert!(
            !sim.in_foreign_content(),
            "{root} <g>: the walk closes the span"
        );
    }
}

#[test]
fn html5ever_quirks_leave_foreign_special_elements_out() {
    // The standard: the SVG `foreignObject` is special, `</span>` stops there.
    let mut sim = Simulator::new_whole_stack(true);
    feed(&mut sim, &["<span>", "<svg>", "<foreignObject>", "</span>"]);
    assert!(sim.in_foreign_content());
    // html5ever 0.40: it walks past and closes the `<span>`.
    let mut sim = Simulator::new_whole_stack(true).with_html5ever_quirks(true);
    feed(&mut sim, &["<span>", "<svg>", "<foreignObject>", "</span>"]);
    assert!(!sim.in_foreign_content());
}

#[test]
fn categories_match_the_lists() {
    use super::names::cat;
    for (list, flag) in [
        (SPECIAL, cat::SPECIAL),
        (CLOSES_P, cat::CLOSES_P),
        (NOT_PUSHED, cat::NOT_PUSHED),
        (FORMATTING, cat::FORMATTING),
        (SCOPED_END, cat::SCOPED_END),
        (HEADINGS, cat::HEADING),
        (TABLE_PARTS, cat::TABLE_PART),
        (IN_HEAD, cat::IN_HEAD),
        (AFE_MARKERS, cat::AFE_MARKER),
    ] {
        for name in list {
            assert_ne!(categories(name) & flag, 0, "{name:?}");
            let upper = name.to_ascii_uppercase();
            assert_ne!(categories(&upper) & flag, 0, "{upper:?}");
        }
    }
    assert_eq!(categories(b"span"), 0);
    assert_eq!(
        categories(b"blockquotx"),
        0,
        "long names are compared whole"
    );
    assert_eq!(categories(b"figcaptionx"), 0);
    assert_eq!(categories(b""), 0);
    assert_eq!(categories(b"di\xffv"), 0);
    assert_ne!(categories(b"select") & cat::SCOPE, 0);
    assert_ne!(categories(b"ul") & cat::LIST_SCOPE, 0);
    assert_ne!(categories(b"template") & cat::TABLE_SCOPE, 0);
    assert_ne!(categories(b"table") & cat::TABLE_END, 0);
    assert_eq!(categories(b"table") & cat::TABLE_PART, 0);
}

#[test]
fn lower_key_at_is_lower_key() {
    let names: [&[u8]; 8] = [
        b"DiV",
        b"a",
        b"FOREIGNOBJECT",
        b"x@[`{Z",
        b"\xC3\x89t\xC3\xA9",
        b"h1\x00",
        b"ABCDEFGH",
        b"",
    ];
    for name in names {
        let mut input = b"<".to_vec();
        input.extend_from_slice(name);
        let end = input.len();
        assert_eq!(
            lower_key_at(&input, 1, end),
            lower_key(name),
            "{name:?} at the end"
        );
        input.extend_from_slice(b" CLASS=X>");
        assert_eq!(lower_key_at(&input, 1, end), lower_key(name), "{name:?}");
    }
    for b in 0..=255u8 {
        let input = [b; 9];
        assert_eq!(lower_key_at(&input, 0, 8), lower_key(&input[..8]), "{b}");
    }
}

/// Every tag name of the simulation's lists.
fn listed_names() -> Vec<&'static [u8]> {
    [
        SPECIAL,
        CLOSES_P,
        NOT_PUSHED,
        FORMATTING,
        SCOPED_END,
        HEADINGS,
        TABLE_PARTS,
        IN_HEAD,
        AFE_MARKERS,
        START_SLOW,
        START_SPECIAL,
        SWITCHING,
        BREAKOUT_TAGS,
    ]
    .concat()
}

/// The `SWITCHING` list (the `cat::SWITCH` bit `Simulator::fast_tag` checks first) and
/// `html_start_tag_kind` (which decides the switch) name the same start tags, so that the
/// list cannot drift from the classifier.
#[test]
fn the_switching_list_is_the_classifiers() {
    for name in listed_names() {
        for scripting in [false, true] {
            let switches = matches!(
                html_start_tag_kind(name, scripting),
                HtmlStartTag::Switch(_)
            );
            assert!(
                !switches || SWITCHING.contains(&name),
                "{:?} switches the state but is not in SWITCHING",
                String::from_utf8_lossy(name)
            );
        }
        if SWITCHING.contains(&name) {
            assert!(
                matches!(html_start_tag_kind(name, true), HtmlStartTag::Switch(_)),
                "{:?} is in SWITCHING but switches nothing",
                String::from_utf8_lossy(name)
            );
        }
    }
}

/// `Simulator::fast_tag` and the full rules agree: random tag sequences fed to a
/// whole-stack simulator through the fast path (falling back to the rules when it
/// declines) and to one through the rules alone leave the same simulator and outcomes.
#[test]
fn fast_tags_follow_the_full_rules() {
    let mut vocabulary = listed_names();
    vocabulary.extend_from_slice(&[
        b"span",
        b"custom-element",
        b"foreignObject",
        b"desc",
        b"mi",
        b"mtext",
        b"annotation-xml",
        b"path",
        b"Div",
        b"TABLE",
        b"P",
        b"blockquotx",
    ]);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut hits = 0;
    for case in 0..3000 {
        let mut fast = Simulator::new_whole_stack(true);
        let mut slow = Simulator::new_whole_stack(true);
        for step in 0..60 {
            let name = vocabulary[random(vocabulary.len())];
            let is_end = random(3) == 0;
            let self_closing = random(8) == 0;
            // The name at the input's end (no 8-byte load) or inside it.
            let mut input = b"<".to_vec();
            input.extend_from_slice(name);
            let end = input.len();
            if random(2) == 0 {
                input.extend_from_slice(b" id=x>");
            }
            let rules = |sim: &mut Simulator| {
                let outcome = if is_end {
                    sim.end_tag(name)
                } else {
                    sim.start_tag(name, self_closing, none)
                };
                if outcome == Outcome::CheckFrameset {
                    sim.frameset_decided(false);
                }
                outcome
            };
            let expected = rules(&mut slow);
            let got = match fast.fast_tag(&input, 1, end, is_end) {
                Some(outcome) => {
                    hits += 1;
                    outcome
                }
                None => rules(&mut fast),
            };
            assert_eq!(got, expected, "case {case} step {step} {name:?}");
            assert_eq!(
                format!("{fast:?}"),
                format!("{slow:?}"),
                "case {case} step {step} {name:?} end {is_end}"
            );
        }
    }
    assert!(hits > 3000 * 60 / 4, "the fast path decided {hits} tags");
}
