//! 13.2.6.4.8 The "text" insertion mode.

use htmltok::Span;

use crate::builder::state::{Mode, Step, TreeBuilder};
use crate::builder::token::{Mark, Tok};
use crate::dom::{Characters, LazyKind};

use Step::{Done, Reprocess};

impl<'a> TreeBuilder<'a> {
    // 13.2.6.4.8 The "text" insertion mode
    pub(in crate::builder) fn text(&mut self, tok: &mut Tok<'a>) -> Step {
        match tok {
            Tok::Text(text) => {
                // A raw text (script, style, title: see `Mark::Raw`) is inserted as it
                // is: this rule reads nothing of it.
                match text.mark {
                    Mark::Raw(kind) => self.insert_characters(Characters::Raw {
                        span: text.span,
                        kind,
                    }),
                    _ => self.insert_characters(text.characters()),
                }
                Done
            }
            Tok::Eof => {
                self.open.pop();
                self.set_mode(self.original_mode);
                Reprocess
            }
            Tok::Tag(tag) if tag.end => {
                if let Some((id, _)) = self.open.pop() {
                    self.doc.element_mut(id).set_end(tag.span);
                }
                self.set_mode(self.original_mode);
                Done
            }
            _ => Done,
        }
    }

    /// Shortcut of 13.2.6.4.8 "text", a character token ("insert the token's character"),
    /// for a run of RAWTEXT or script data (`style`, `script`), taken by the tokenizer's
    /// sink (`Drive`) without the dispatcher: the run is inserted as its span
    /// (`Characters::Lazy`), decoded when read, as this rule inserts every character.
    pub(crate) fn text_lazy_characters(&mut self, span: Span) {
        debug_assert_eq!(self.dispatched_mode(None), Mode::Text);
        self.insert_characters(Characters::Lazy {
            span,
            kind: LazyKind::Verbatim,
        });
    }
}
