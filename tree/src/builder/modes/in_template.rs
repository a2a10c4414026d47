//! 13.2.6.4.16–13.2.6.4.18: "in select" and "in select in table" (gone from the
//! standard: "in body" parses a select's content), and "in template".

use crate::builder::state::{Mode, Step, TreeBuilder};
use crate::builder::token::Tok;
use crate::names::Tag;

use Step::{Done, Reprocess};

impl<'a> TreeBuilder<'a> {
    // 13.2.6.4.16 The "in select" and 13.2.6.4.17 "in select in table" insertion modes
    // are gone in the rules the html5lib tests follow (2026): a select's content is
    // parsed by "in body", whose select, option, optgroup, hr and input rules say how.

    // 13.2.6.4.18 The "in template" insertion mode
    pub(in crate::builder) fn in_template(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        match tok {
            Tok::Text(_) | Tok::Comment(..) | Tok::Doctype(_) => self.in_body(tok),
            Tok::Tag(tag) if !tag.end => {
                let new_mode = match tag.tag {
                    Base | Basefont | Bgsound | Link | Meta | Noframes | Script | Style
                    | Template | Title => return self.in_head(tok),
                    Caption | Colgroup | Tbody | Tfoot | Thead => Mode::InTable,
                    Col => Mode::InColumnGroup,
                    Tr => Mode::InTableBody,
                    Td | Th => Mode::InRow,
                    _ => Mode::InBody,
                };
                self.template_modes.pop();
                self.template_modes.push(new_mode);
                self.set_mode(new_mode);
                Reprocess
            }
            Tok::Tag(tag) => {
                if tag.tag == Template {
                    self.in_head(tok)
                } else {
                    Done
                }
            }
            Tok::Eof => {
                if !self.has_template() {
                    return self.stop_parsing();
                }
                self.open.pop_until(Template);
                self.active.clear_to_last_marker();
                self.template_modes.pop();
                self.reset_insertion_mode();
                Reprocess
            }
        }
    }
}
