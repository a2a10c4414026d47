//! Feedback without a tree builder: a small simulation of the tree construction stage's
//! decisions that change how the tokenizer reads what follows.
//!
//! The tree builder switches the tokenizer to RCDATA, RAWTEXT, script data or PLAINTEXT
//! after certain HTML start tags (13.2.6.4.4 "in head", 13.2.6.4.7 "in body"), and lets
//! `<![CDATA[` open a CDATA section only when the adjusted current node is not an HTML
//! element (13.2.5.42). Two things decide whether a start tag does that:
//!
//! - **Foreign content** (13.2.6.5, and the dispatcher of 13.2.6): from the first `<svg>`
//!   or `<math>` processed as HTML, the simulation keeps the stack of open elements above
//!   it exactly enough: every SVG and MathML element, the HTML integration points and
//!   MathML text integration points (13.2.6.5's lists, `annotation-xml` with a
//!   `text/html` or `application/xhtml+xml` encoding, `mglyph`/`malignmark` staying
//!   MathML), the HTML elements opened inside integration points (with the in-body rules
//!   that pop them: the end tags' "in scope" and "special" walks, `p` closed by the block
//!   start tags, `li`/`dd`/`dt`/headings/`option`/`button`, the adoption agency
//!   algorithm), the break-out start tags (and `<font>` with `color`/`face`/`size`),
//!   `</br>` and `</p>`, and the "any other end tag" loop of 13.2.6.5 that closes the
//!   matching element.
//! - **The whole stack, on demand**: the HTML elements *below* the outermost foreign root
//!   and the insertion mode are not tracked at first (that would cost every tag of every
//!   page). When a tag's effect depends on them (an end tag whose in-body walk reaches
//!   below the foreign root, e.g. `<svg></div>`; a table start or end tag processed as
//!   HTML while foreign content is open, which the table modes 13.2.6.4.9–15 handle), the
//!   simulator answers [`Outcome::NeedsWholeStack`]: the tokenizer re-reads the input
//!   before the tag once with a simulator that tracks the whole stack of open elements
//!   from the first token ([`Simulator::new_whole_stack`]) and carries on with it. That
//!   one knows every open element and the insertion mode as "reset the insertion mode
//!   appropriately" (13.2.4.1) finds it from the stack: "in body", the table modes
//!   (implied `tbody`/`tr`, "clear the stack back to a table context", table scope),
//!   "in column group", "in template" with its template insertion modes. The list of
//!   active formatting elements is not kept: the adoption agency algorithm takes it to
//!   hold the formatting elements on the stack after the last marker, and formatting
//!   elements are never reconstructed (what that leaves out: see the tree-builder test,
//!   `benches/tests/tree_builder.rs`). The stream tokenizer cannot re-read what it has
//!   dropped: its simulators track the whole stack from the start.
//! - **Insertion modes**: a `<frameset>` start tag switches to "in frameset" when the
//!   body element does not exist yet, or when the frameset-ok flag is still "ok"
//!   (13.2.6.4.6, 13.2.6.4.7); from then on ("in frameset", "after frameset", "after after
//!   frameset": 13.2.6.4.19–22) only `<noframes>` switches the tokenizer (RAWTEXT), every
//!   other start tag is ignored and foreign content never opens. The frameset-ok flag is
//!   not tracked on the hot path: the first `<frameset>` processed as HTML re-reads the
//!   document before it once (see `Tokenizer::frameset_allowed`). In a template, "in
//!   column group" (13.2.6.4.12, after `<template><col>`) ignores every start tag but
//!   `col` and `template`, so an open `<template>` is tracked like a foreign root, with
//!   its template insertion modes (13.2.6.4.18). The other modes need nothing for the
//!   switches: `<select>`'s content is parsed by "in body" (the select parser
//!   relaxation, as in html5ever 0.40), and the table modes send these start tags to "in
//!   head" or "in body", which switch the same way.
//!
//! Most pages never open `<svg>`, `<math>`, `<template>` or `<frameset>`, and most that do
//! close them: then the simulator is idle outside them and each start tag is classified
//! inline by length and packed name (`html_start_tag_kind_at`).
//!
//! Memory: one stack entry (and the name's bytes) per open element, so bounded by the
//! document's nesting; no cap is needed since every entry stands for a start tag of the
//! input.
//!
//! | file | holds |
//! |---|---|
//! | `start_tag.rs` | the hot path: each HTML start tag classified by length and packed name |
//! | `simulator.rs` | the [`Simulator`]: the stack of open elements (from the foreign root, or whole), the insertion modes that change it, the frameset modes |
//! | `frameset.rs` | the [`FramesetTracker`]: the frameset-ok flag, from the tokens before a `<frameset>` |
//! | `names.rs` | the standard's lists of element names the rules consult |
//! | `tests.rs` | unit tests |

mod frameset;
mod names;
mod simulator;
mod start_tag;
#[cfg(test)]
mod tests;

pub(crate) use frameset::FramesetTracker;
pub(crate) use simulator::{Outcome, Simulator};
pub(crate) use start_tag::{HtmlStartTag, html_start_tag_kind_at};
