//! Runs of characters mixing whitespace and other characters, in every insertion mode
//! whose rules treat the two differently (13.2.6.4): the rules take one character token
//! at a time, and the builder takes a run, so a run may have to be split (whitespace
//! inserted, the other characters ignored or reprocessed, the whitespace after them
//! inserted again). Each case is " a \n" (or a longer mix) after the mode's context
//! element, its tree in the html5lib test format derived from the spec's rules; html5ever
//! 0.40 builds the same trees for the document cases (`tree/tools/html5ever-diff`,
//! scripting off).

use htmltok_tree::{FragmentContext, Parser};

/// Parses `input` (scripting off) as a document, or as a fragment in `context`, and
/// compares its tree with `expected`, lines joined by newlines.
fn check(input: &str, context: Option<&str>, expected: &[&str]) {
    let parser = Parser::new().scripting(false);
    let doc = match context {
        Some(ctx) => {
            parser.parse_fragment(input.as_bytes(), &FragmentContext::from_test_string(ctx))
        }
        None => parser.parse(input.as_bytes()),
    };
    let expected = expected.join("\n");
    let got = doc.to_test_format();
    assert_eq!(got, expected, "input {input:?}, context {context:?}");
    if context.is_none() {
        let from_str = parser.parse_str(input).to_test_format();
        assert_eq!(from_str, expected, "input {input:?} as a &str");
    }
}

/// 13.2.6.4.12 "in column group": with a `template` the current node, each character
/// that is not whitespace is ignored ("anything else", the current node not a colgroup)
/// and the whitespace after it still inserted.
#[test]
fn in_column_group_in_a_template() {
    check(
        "<template><col> a=1\n",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|     <template>",
            "|       content",
            "|         <col>",
            "|         \" \n\"",
            "|   <body>",
        ],
    );
    check(
        "<template><col> a \n",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|     <template>",
            "|       content",
            "|         <col>",
            "|         \"  \n\"",
            "|   <body>",
        ],
    );
    // A decoded (owned) run: the character reference is ignored with the letters.
    check(
        "<template><col> a&amp;\n b",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|     <template>",
            "|       content",
            "|         <col>",
            "|         \" \n \"",
            "|   <body>",
        ],
    );
    // `</template>` goes to the "in head" rules, which reset the insertion mode.
    check(
        "<template><col> a \n</template>x",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|     <template>",
            "|       content",
            "|         <col>",
            "|         \"  \n\"",
            "|   <body>",
            "|     \"x\"",
        ],
    );
}

/// "In column group" in a `colgroup` fragment: the current node is the `html` element,
/// so the other characters are ignored too.
#[test]
fn in_column_group_fragment() {
    check(" a \nb\t", Some("colgroup"), &["| \"  \n\t\""]);
}

/// "In column group" with a `colgroup` the current node: the first character that is not
/// whitespace pops it and is reprocessed "in table" with the rest of the run (foster
/// parented, as the pending table text holds more than whitespace).
#[test]
fn in_column_group_under_a_colgroup() {
    check(
        "<table><colgroup> a \n",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|   <body>",
            "|     \"a \n\"",
            "|     <table>",
            "|       <colgroup>",
            "|         \" \"",
        ],
    );
}

/// 13.2.6.4.20 "in frameset": whitespace inserted, anything else ignored.
#[test]
fn in_frameset() {
    check(
        "<frameset> a \n b\t",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|   <frameset>",
            "|     \"  \n \t\"",
        ],
    );
}

/// 13.2.6.4.21 "after frameset": as "in frameset", the current node the `html` element.
#[test]
fn after_frameset() {
    check(
        "<frameset></frameset> a \n",
        None,
        &["| <html>", "|   <head>", "|   <frameset>", "|   \"  \n\""],
    );
}

/// 13.2.6.4.23 "after after frameset": whitespace by the "in body" rules (inserted in the
/// `html` element, the current node), anything else ignored.
#[test]
fn after_after_frameset() {
    check(
        "<frameset></frameset></html> a \n",
        None,
        &["| <html>", "|   <head>", "|   <frameset>", "|   \"  \n\""],
    );
}

/// 13.2.6.4.19 "after body": whitespace by the "in body" rules; anything else switches
/// to "in body" and is reprocessed, with the rest of the run.
#[test]
fn after_body() {
    check(
        "<body></body> a \n",
        None,
        &["| <html>", "|   <head>", "|   <body>", "|     \" a \n\""],
    );
}

/// 13.2.6.4.22 "after after body": as "after body".
#[test]
fn after_after_body() {
    check(
        "<body></body></html> a \n",
        None,
        &["| <html>", "|   <head>", "|   <body>", "|     \" a \n\""],
    );
}

/// 13.2.6.4.1 "initial": whitespace ignored; anything else reprocessed "before html",
/// which implies the `html`, `head` and `body` elements.
#[test]
fn initial() {
    check(
        " a \n",
        None,
        &["| <html>", "|   <head>", "|   <body>", "|     \"a \n\""],
    );
}

/// 13.2.6.4.2 "before html": whitespace ignored.
#[test]
fn before_html() {
    check(
        "<!DOCTYPE html> a \n",
        None,
        &[
            "| <!DOCTYPE html>",
            "| <html>",
            "|   <head>",
            "|   <body>",
            "|     \"a \n\"",
        ],
    );
}

/// 13.2.6.4.3 "before head": whitespace ignored.
#[test]
fn before_head() {
    check(
        "<html> a \n",
        None,
        &["| <html>", "|   <head>", "|   <body>", "|     \"a \n\""],
    );
}

/// 13.2.6.4.4 "in head": whitespace inserted; anything else pops the `head` and is
/// reprocessed "after head".
#[test]
fn in_head() {
    check(
        "<head> a \n",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|     \" \"",
            "|   <body>",
            "|     \"a \n\"",
        ],
    );
}

/// 13.2.6.4.5 "in head noscript" (scripting off): whitespace by the "in head" rules;
/// anything else pops the `noscript` and is reprocessed "in head".
#[test]
fn in_head_noscript() {
    check(
        "<head><noscript> a \n",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|     <noscript>",
            "|       \" \"",
            "|   <body>",
            "|     \"a \n\"",
        ],
    );
}

/// 13.2.6.4.6 "after head": whitespace inserted; anything else implies the `body`.
#[test]
fn after_head() {
    check(
        "<head></head> a \n",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|   \" \"",
            "|   <body>",
            "|     \"a \n\"",
        ],
    );
}

/// 13.2.6.4.9 "in table" and 13.2.6.4.10 "in table text": the run goes to the pending
/// table character tokens; as they hold more than whitespace, all of them (the
/// whitespace too) are foster parented by the "in body" rules.
#[test]
fn in_table() {
    for (input, section) in [
        ("<table> a \n</table>", &[][..]),
        ("<table><tbody> a \n</table>", &["|       <tbody>"][..]),
        (
            "<table><tr> a \n</table>",
            &["|       <tbody>", "|         <tr>"][..],
        ),
    ] {
        let mut expected = vec![
            "| <html>",
            "|   <head>",
            "|   <body>",
            "|     \" a \n\"",
            "|     <table>",
        ];
        expected.extend_from_slice(section);
        check(input, None, &expected);
    }
    // Whitespace only: inserted in the table.
    check(
        "<table> \n</table>",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|   <body>",
            "|     <table>",
            "|       \" \n\"",
        ],
    );
}

/// 13.2.6.4.18 "in template": characters by the "in body" rules, all inserted.
#[test]
fn in_template() {
    check(
        "<template> a \n",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|     <template>",
            "|       content",
            "|         \" a \n\"",
            "|   <body>",
        ],
    );
}

/// A `select`'s content is parsed by "in body" (the old "in select" mode is gone): all
/// inserted.
#[test]
fn in_select() {
    check(
        "<select> a \n",
        None,
        &[
            "| <html>",
            "|   <head>",
            "|   <body>",
            "|     <select>",
            "|       \" a \n\"",
        ],
    );
}
