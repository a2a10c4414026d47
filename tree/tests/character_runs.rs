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
