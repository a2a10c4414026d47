//! The tokenizer's sink for the tree builder ([`Drive`]), and its shortcuts: the common
//! "in body" and "in cell" tokens run from the sink, without the parse loop's dispatcher.

use std::borrow::Cow;

use htmltok::{TextKind, Token, TokenSink};

use super::modes::InBodyStart;
use super::state::{Mode, Step, TreeBuilder, sink};
use super::token::Tok;
use crate::names::Tag;

/// The tokenizer's [`TokenSink`] for the tree builder: given to
/// `Tokenizer::next_token_into`, the conversion ([`Tok::from_token`]) is inlined once per
/// kind of token, each copy knowing its kind (`next_token` merges the kinds into one
/// `Token` that `from_token` would take apart again).
///
/// In the common case (the insertion mode is "in body" or "in cell", the adjusted current
/// node is an HTML element, no leading newline to skip) the sink also runs the
/// dispatcher's first step for text and for the tags "in body" keeps to itself (in "in
/// cell" but for the table tags that mode handles itself, [`Tag::in_cell_own`]:
/// 13.2.6.4.15 processes every other token "using the rules for the in body insertion
/// mode"), in the copy that knows the token's kind: the same calls
/// `TreeBuilder::dispatch` makes there (13.2.6: the adjusted current node is in the HTML
/// namespace, so "process the token according to the rules given in the section
/// corresponding to the current insertion mode"), without writing
/// the token out and matching it again in the loop and in the dispatcher; comments, and
/// "in cell"'s own table tags, it gives to those modes' rule functions
/// ([`cell_or_comment`]). `None`:
/// handled; a token it hands back goes to the dispatcher (for a "reprocess the token"
/// too, `<image>` or `</html>`, which the dispatcher then continues as after any step).
/// Each shortcut names the rule it runs and asserts, in debug builds, that the dispatcher
/// would have given the token to the same mode's rules (`TreeBuilder::dispatched_mode`).
/// `SIMULATED`: the tokenizer simulates tree construction itself (see
/// `TreeBuilder::run_simulated`); false for every parse but the simulator's test.
pub(crate) struct Drive<'r, 'a, const SIMULATED: bool> {
    pub(crate) builder: &'r mut TreeBuilder<'a>,
    /// The builder's [`TreeBuilder::sink`] bits before this token, or none when the
    /// adjusted current node is foreign.
    pub(crate) sink: u8,
}

impl<'a, const SIMULATED: bool> TokenSink<'a> for Drive<'_, 'a, SIMULATED> {
    type Output = Option<Tok<'a>>;

    /// Every attribute name is decoded (`from_token`, `name_if_unchanged`): the attribute
    /// name state tells a lowercase ASCII name, which then needs no second pass.
    const DECODES_NAMES: bool = true;

    /// The tree builds its tokenizers with errors off (`Parser` in `lib.rs`): the data
    /// state and the tag states are compiled without their error checks.
    const PARSE_ERRORS: bool = false;

    /// The builder switches the tokenizer's state itself (`TreeBuilder::run`), and its
    /// tokenizers are built with the simulation off: emitting a tag need not test for a
    /// simulator (but in the simulator's test, `TreeBuilder::run_simulated`).
    const SIMULATION: bool = SIMULATED;

    /// Always inlined: otherwise one function called for every token, not a copy per kind.
    #[inline(always)]
    fn token(&mut self, token: Token<'a, '_>) -> Option<Tok<'a>> {
        let b = &mut *self.builder;
        let bits = self.sink;
        // Every shortcut below runs a rule of the current insertion mode, which 13.2.6's
        // dispatcher takes for a token when the adjusted current node is an HTML element:
        // the loop gives the sink no bits otherwise.
        debug_assert!(bits == 0 || !b.adjusted_current_is_foreign());
        // Shortcuts of 13.2.6.4.7 "in body", any other character token, once frameset-ok
        // is "not ok" (`TreeBuilder::in_body_lazy_text`: a page's first words set it):
        // nothing of the text decides what the rule does with it but whether it has a
        // character other than U+0000, which its first byte answers unless that is a NUL.
        // The text is stored as its span, unread (`Dom::insert_lazy_text`); the decoding
        // (and the search for what it must change) runs when the text is first read, if
        // ever.
        //
        // And of 13.2.6.4.8 "text", a character token, for a RAWTEXT or script data run
        // (script, style: `TreeBuilder::text_lazy_characters`), stored as its span too.
        // (Its RCDATA runs, `title` and `textarea`, are decoded now: a title is read by
        // most callers, and alone.)
        if let Token::Text(t) = &token {
            let span = t.text_span();
            if bits & sink::LAZY_TEXT != 0
                && t.kind() == TextKind::Data
                && b.input.get(span.start).is_some_and(|&c| c != 0)
                && span.start < span.end
            {
                b.in_body_lazy_text(span);
                return None;
            }
            if bits & sink::TEXT_MODE != 0
                && matches!(t.kind(), TextKind::ScriptData | TextKind::Rawtext)
                && span.start < span.end
            {
                // Stored as `LazyKind::Verbatim`, which decodes as RAWTEXT.
                debug_assert_eq!(
                    t.kind().decode(b.input, span),
                    TextKind::Rawtext.decode(b.input, span)
                );
                b.text_lazy_characters(span);
                return None;
            }
        }
        let mut tok = Tok::from_token(token, b.input, b.input_str, &mut b.doc);
        // "In body" or "in cell": shortcuts of 13.2.6's dispatch, which would run the same
        // rule functions for these tokens.
        if bits & sink::IN_BODY != 0 {
            match &mut tok {
                // 13.2.6.4.7 "in body", a character token. An empty text is no token (the
                // loop skips it). "In cell" processes characters "using the rules for the
                // in body insertion mode".
                Tok::Text(text) if !text.text.is_empty() => {
                    debug_assert_eq!(b.dispatched_mode(None), Mode::InBody);
                    // "Reprocess the token": the loop's dispatcher goes on.
                    if b.in_body_characters(text) != Step::Done {
                        return Some(tok);
                    }
                    drop(std::mem::take(&mut text.text));
                }
                // 13.2.6.4.7 "in body", a start or end tag (`TreeBuilder::in_body_tag`).
                // "In cell" also hands "in body" every tag but its table tags. Left to the
                // dispatcher: the tags of `uses_in_head_rules` and those that switch the
                // tokenizer (for a start tag, one load: `InBodyStart::Dispatcher`).
                Tok::Tag(tag)
                    if (bits & sink::IN_CELL == 0 || !tag.tag.in_cell_own())
                        && if tag.end {
                            tag.tag != Tag::Template
                        } else {
                            tag.tag.in_body_start() != InBodyStart::Dispatcher
                        } =>
                {
                    debug_assert_eq!(b.dispatched_mode(Some(tag)), Mode::InBody);
                    if b.in_body_tag(tag) != Step::Done {
                        return Some(tok);
                    }
                    // Only a name that is not interned may own memory (the steps never
                    // give an interned tag a name of its own): one compare of the tag,
                    // where dropping the `Cow` tested its capacity word (four).
                    if tag.tag == Tag::Unknown {
                        drop(std::mem::take(&mut tag.other_name));
                    } else {
                        debug_assert!(matches!(tag.other_name, Cow::Borrowed("")));
                    }
                }
                _ => return cell_or_comment(b, bits, tok),
            }
            // The token is finished, and what it owned (its one string) was dropped in its
            // arm, as the kind it is: dropped whole here, the `Tok`'s kind would be read
            // back from memory (the steps are calls) and branched on through a jump table.
            std::mem::forget(tok);
            return None;
        }
        Some(tok)
    }

    fn end(&mut self) -> Option<Tok<'a>> {
        Some(Tok::Eof)
    }
}

/// The sink's steps for the tokens of "in body" and "in cell" that the common paths above
/// leave, shortcuts of 13.2.6's dispatch: a comment (13.2.6.4.7 "in body", a comment
/// token: "insert a comment", by `in_body`), and in "in cell" its own table tags
/// (13.2.6.4.15, `</td>`, `<td>`, `<tr>`: by `in_cell`), none of whose rules switch the
/// tokenizer. Handed to the loop's dispatcher: the rest, and a token to reprocess.
/// Always inlined: with a plain hint, the dispatcher's foreign-content test becomes a call.
#[inline(always)]
fn cell_or_comment<'a>(b: &mut TreeBuilder<'a>, bits: u8, mut tok: Tok<'a>) -> Option<Tok<'a>> {
    let step = match &tok {
        Tok::Comment(..) => {
            debug_assert_eq!(b.dispatched_mode(None), Mode::InBody);
            b.in_body(&mut tok)
        }
        Tok::Tag(tag) if bits & sink::IN_CELL != 0 && tag.tag.in_cell_own() => {
            debug_assert_eq!(b.mode, Mode::InCell);
            b.in_cell(&mut tok)
        }
        _ => return Some(tok),
    };
    if step != Step::Done {
        return Some(tok);
    }
    debug_assert!(b.switch_to.is_none(), "a step the loop does not look after");
    None
}
