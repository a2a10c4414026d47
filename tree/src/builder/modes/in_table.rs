//! 13.2.6.4.9–13.2.6.4.15: the table modes: "in table", "in table text", "in caption",
//! "in column group", "in table body", "in row", "in cell".

use crate::builder::state::{Mode, Step, TreeBuilder};
use crate::builder::token::{TagTok, TextTok, Tok, is_ws};
use crate::dom::{NONE, NodeId};
use crate::names::{ALL_TAGS, Name, Ns, Tag};
use crate::stack::Scope;

use super::Whitespace;
use Step::{Done, Reprocess};

impl<'a> TreeBuilder<'a> {
    // 13.2.6.4.9 The "in table" insertion mode
    pub(in crate::builder) fn in_table(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        match tok {
            Tok::Text(text)
                if self.current_name().is_some_and(|n| {
                    n.ns == Ns::Html && matches!(n.tag, Table | Tbody | Tfoot | Thead | Tr)
                }) =>
            {
                self.pending_table_text.clear();
                self.original_mode = self.mode;
                self.set_mode(Mode::InTableText);
                // "Reprocess the token": the current node is an HTML table element, so
                // the dispatcher would not take the foreign content rules, and "in table
                // text" appends a character token to the pending list. Done here, not by
                // another trip through the dispatcher: the whitespace between table tags
                // (`<tr>\n<td>`) is common.
                debug_assert!(!self.adjusted_current_is_foreign());
                debug_assert_eq!(self.dispatched_mode(None), Mode::InTableText);
                self.pending_table_text_push(text);
                Done
            }
            Tok::Comment(data, span) => self.comment_rule(data.clone(), *span, None),
            Tok::Doctype(_) => Done,
            Tok::Tag(tag) if !tag.end => match tag.tag {
                Caption => {
                    self.open.clear_back_to_table_context();
                    self.active.push_marker();
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InCaption);
                    Done
                }
                Colgroup => {
                    self.open.clear_back_to_table_context();
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InColumnGroup);
                    Done
                }
                Col => {
                    self.open.clear_back_to_table_context();
                    self.insert_implied(Colgroup, tag.span.start);
                    self.set_mode(Mode::InColumnGroup);
                    Reprocess
                }
                Tbody | Tfoot | Thead => {
                    self.open.clear_back_to_table_context();
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InTableBody);
                    Done
                }
                Td | Th | Tr => {
                    self.open.clear_back_to_table_context();
                    self.insert_implied(Tbody, tag.span.start);
                    self.set_mode(Mode::InTableBody);
                    Reprocess
                }
                Table => {
                    if !self.open.has_in_scope(Table, Scope::Table) {
                        return Done;
                    }
                    self.open.pop_until(Table);
                    self.reset_insertion_mode();
                    Reprocess
                }
                Style | Script | Template => self.in_head(tok),
                Input
                    if self
                        .tag_attr(tag, "type")
                        .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
                {
                    self.insert_void(tag);
                    Done
                }
                Form => {
                    if self.has_template() || self.form != NONE {
                        return Done;
                    }
                    self.form = self.insert_void(tag);
                    Done
                }
                _ => self.in_table_anything_else(tok),
            },
            Tok::Tag(tag) => match tag.tag {
                Table => {
                    if self.open.has_in_scope(Table, Scope::Table) {
                        self.pop_until_closing(Table, tag.span);
                        self.reset_insertion_mode();
                    }
                    Done
                }
                Body | Caption | Col | Colgroup | Html | Tbody | Td | Tfoot | Th | Thead | Tr => {
                    Done
                }
                Template => self.in_head(tok),
                _ => self.in_table_anything_else(tok),
            },
            Tok::Eof => self.in_body(tok),
            Tok::Text(_) => self.in_table_anything_else(tok),
        }
    }

    /// "In table", anything else: in body with foster parenting.
    fn in_table_anything_else(&mut self, tok: &mut Tok<'a>) -> Step {
        self.foster_parenting = true;
        let step = self.in_body(tok);
        self.foster_parenting = false;
        step
    }

    // 13.2.6.4.10 The "in table text" insertion mode
    pub(in crate::builder) fn in_table_text(&mut self, tok: &mut Tok<'a>) -> Step {
        if let Tok::Text(text) = tok {
            self.pending_table_text_push(text);
            return Done;
        }
        // Drained, then given back: the list keeps its allocation for the next table
        // text (consumed, it was allocated again and grown for each one).
        let mut pending = std::mem::take(&mut self.pending_table_text);
        if pending.iter().any(|t| !t.is_all_ws()) {
            self.foster_parenting = true;
            for piece in pending.drain(..) {
                self.body_text(piece);
            }
            self.foster_parenting = false;
        } else {
            // Inserted where they lie (`TextTok::characters`), then dropped together:
            // moved out one by one, each piece would be copied and dropped.
            for piece in pending.iter_mut() {
                self.insert_characters(piece.characters());
            }
            pending.clear();
        }
        self.pending_table_text = pending;
        self.set_mode(self.original_mode);
        Reprocess
    }

    /// "In table text"'s rule for a character token: U+0000 dropped (a parse error), the
    /// rest appended to the pending table character tokens. Inlined into its two callers
    /// ("in table text" and "in table"'s text rule, which runs it at once).
    #[inline(always)]
    fn pending_table_text_push(&mut self, text: &mut TextTok<'a>) {
        if text.has_nul() {
            self.pending_table_text.extend(text.without_nul());
        } else {
            // The token is done with: its text is moved, not cloned (cloned, a decoded
            // text would be copied and the original freed).
            self.pending_table_text.push(TextTok {
                text: std::mem::take(&mut text.text),
                ..*text
            });
        }
    }

    // 13.2.6.4.11 The "in caption" insertion mode
    pub(in crate::builder) fn in_caption(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Tok::Tag(tag) = tok {
            let closes = if tag.end {
                matches!(tag.tag, Caption | Table)
            } else {
                matches!(
                    tag.tag,
                    Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr
                )
            };
            if closes {
                if !self.open.has_in_scope(Caption, Scope::Table) {
                    return Done;
                }
                self.open.generate_implied_end_tags(None);
                let end = tag.end && tag.tag == Caption;
                if let Some(id) = self.open.pop_until(Caption)
                    && end
                {
                    self.doc.element_mut(id).set_end(tag.span);
                }
                self.active.clear_to_last_marker();
                self.set_mode(Mode::InTable);
                return if end { Done } else { Reprocess };
            }
            if tag.end
                && matches!(
                    tag.tag,
                    Body | Col | Colgroup | Html | Tbody | Td | Tfoot | Th | Thead | Tr
                )
            {
                return Done;
            }
        }
        self.in_body(tok)
    }

    // 13.2.6.4.12 The "in column group" insertion mode
    pub(in crate::builder) fn in_column_group(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Some(step) = self.whitespace_comment_doctype_html(tok, Whitespace::Insert) {
            return step;
        }
        match tok {
            Tok::Text(text) if !self.open.current_is(Colgroup) => {
                self.column_group_ignored_text(text);
                return Done;
            }
            Tok::Tag(tag) if !tag.end && tag.tag == Col => {
                self.insert_void(tag);
                return Done;
            }
            Tok::Tag(tag) if tag.end && tag.tag == Colgroup => {
                if self.open.current_is(Colgroup) {
                    if let Some((id, _)) = self.open.pop() {
                        self.doc.element_mut(id).set_end(tag.span);
                    }
                    self.set_mode(Mode::InTable);
                }
                return Done;
            }
            Tok::Tag(tag) if tag.end && tag.tag == Col => return Done,
            Tok::Tag(tag) if tag.tag == Template => return self.in_head(tok),
            Tok::Eof => return self.in_body(tok),
            _ => {}
        }
        if !self.open.current_is(Colgroup) {
            return Done;
        }
        self.open.pop();
        self.set_mode(Mode::InTable);
        Reprocess
    }

    /// 13.2.6.4.12 "in column group" for the rest of a run of characters that starts
    /// with one that is not whitespace, when the current node is not a `colgroup` (a
    /// template's contents, `<template><col>`, or a `colgroup` fragment): the rules take
    /// one character at a time, so each non-whitespace one is "anything else" (a parse
    /// error, ignored) and the whitespace after it is inserted again. The mode and the
    /// current node do not change, so the rest of the run takes the same two rules.
    fn column_group_ignored_text(&mut self, text: &TextTok<'a>) {
        // Each whitespace piece sliced from the token, not the rest split off again and
        // again (which copied an owned text's rest per piece).
        let bytes = text.text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let ws = at + bytes[at..].iter().take_while(|&&c| !is_ws(c)).count();
            at = ws + bytes[ws..].iter().take_while(|&&c| is_ws(c)).count();
            if at > ws {
                self.insert_characters(text.slice(ws, at).characters());
            }
        }
    }

    // 13.2.6.4.13 The "in table body" insertion mode
    pub(in crate::builder) fn in_table_body(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Tok::Tag(tag) = tok {
            match (tag.end, tag.tag) {
                (false, Tr) => {
                    self.open.clear_back_to_table_body_context();
                    self.insert_html_element(tag);
                    self.set_mode(Mode::InRow);
                    return Done;
                }
                (false, Th | Td) => {
                    self.open.clear_back_to_table_body_context();
                    self.insert_implied(Tr, tag.span.start);
                    self.set_mode(Mode::InRow);
                    return Reprocess;
                }
                (true, Tbody | Tfoot | Thead) => {
                    if self.open.has_in_scope(tag.tag, Scope::Table) {
                        self.open.clear_back_to_table_body_context();
                        if let Some((id, _)) = self.open.pop() {
                            self.doc.element_mut(id).set_end(tag.span);
                        }
                        self.set_mode(Mode::InTable);
                    }
                    return Done;
                }
                (false, Caption | Col | Colgroup | Tbody | Tfoot | Thead) | (true, Table) => {
                    if !self.open.has_matching_in_scope(
                        |n| n.ns == Ns::Html && matches!(n.tag, Tbody | Thead | Tfoot),
                        Scope::Table,
                    ) {
                        return Done;
                    }
                    self.open.clear_back_to_table_body_context();
                    self.open.pop();
                    self.set_mode(Mode::InTable);
                    return Reprocess;
                }
                (true, Body | Caption | Col | Colgroup | Html | Td | Th | Tr) => return Done,
                _ => {}
            }
        }
        self.in_table(tok)
    }

    // 13.2.6.4.14 The "in row" insertion mode
    pub(in crate::builder) fn in_row(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Tok::Tag(tag) = tok {
            match (tag.end, tag.tag) {
                (false, Th | Td) => {
                    self.in_row_cell_start(tag);
                    return Done;
                }
                (true, Tr) => {
                    if self.open.has_in_scope(Tr, Scope::Table) {
                        self.open.clear_back_to_table_row_context();
                        if let Some((id, _)) = self.open.pop() {
                            self.doc.element_mut(id).set_end(tag.span);
                        }
                        self.set_mode(Mode::InTableBody);
                    }
                    return Done;
                }
                (false, Caption | Col | Colgroup | Tbody | Tfoot | Thead | Tr) | (true, Table) => {
                    // The common case, the row the current node (`<tr><td>x</td><tr>`): it
                    // is in table scope and the clearing leaves it; popped. "Reprocess the
                    // token" in "in table body": with a table section the current node
                    // (HTML, so not the foreign content rules), a `<tr>` takes that mode's
                    // row rule (whose clearing then leaves the section), run here.
                    if let Some((id, name)) = self.open.current()
                        && name.is_html(Tr)
                    {
                        return self.close_current_row(id, name, tag);
                    }
                    return self.close_row_then_reprocess();
                }
                (true, Tbody | Tfoot | Thead) => {
                    if !self.open.has_in_scope(tag.tag, Scope::Table) {
                        return Done;
                    }
                    return self.close_row_then_reprocess();
                }
                (true, Body | Caption | Col | Colgroup | Html | Td | Th) => return Done,
                _ => {}
            }
        }
        self.in_table(tok)
    }

    /// The steps "in row" (13.2.6.4.14) words the same for the start tags `caption`, `col`,
    /// `colgroup`, `tbody`, `tfoot`, `thead`, `tr` and the end tag `table`, and last for
    /// the end tags `tbody`, `tfoot`, `thead`: "If the stack of open elements does not have
    /// a tr element in table scope, … ignore the token. Otherwise: clear the stack back to
    /// a table row context. Pop the current node (which will be a tr element) from the
    /// stack of open elements. Switch the insertion mode to "in table body". Reprocess the
    /// token."
    fn close_row_then_reprocess(&mut self) -> Step {
        if !self.open.has_in_scope(Tag::Tr, Scope::Table) {
            return Done;
        }
        self.open.clear_back_to_table_row_context();
        self.open.pop();
        self.set_mode(Mode::InTableBody);
        Reprocess
    }

    /// "In row"'s rule for the tags that end the row (`tr`, the table sections, `caption`,
    /// `col`, `colgroup`, `</table>`) when the row, `(id, name)`, is the current node: it
    /// is in table scope and clearing the stack back to a table row context leaves it, so
    /// it is popped, and the token reprocessed in "in table body". With a table section
    /// then the current node (HTML, so not the foreign content rules), a `<tr>` takes that
    /// mode's row rule (whose clearing leaves the section), run here.
    fn close_current_row(&mut self, id: NodeId, name: Name, tag: &mut TagTok<'a>) -> Step {
        use Tag::*;
        debug_assert!(self.open.has_in_scope(Tr, Scope::Table));
        self.open.pop_current(id, name);
        self.set_mode(Mode::InTableBody);
        if !tag.end
            && tag.tag == Tr
            && self
                .open
                .current_name()
                .is_some_and(|n| n.ns == Ns::Html && matches!(n.tag, Tbody | Thead | Tfoot))
        {
            debug_assert!(!self.adjusted_current_is_foreign());
            debug_assert_eq!(self.dispatched_mode(Some(tag)), Mode::InTableBody);
            self.insert_html_element(tag);
            self.set_mode(Mode::InRow);
            return Step::Done;
        }
        Step::Reprocess
    }

    /// "In row"'s rule for a `td` or `th` start tag.
    fn in_row_cell_start(&mut self, tag: &mut TagTok<'a>) {
        self.open.clear_back_to_table_row_context();
        self.insert_html_element(tag);
        self.set_mode(Mode::InCell);
        self.active.push_marker();
    }

    // 13.2.6.4.15 The "in cell" insertion mode
    pub(crate) fn in_cell(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        if let Tok::Tag(tag) = tok {
            match (tag.end, tag.tag) {
                (true, Td | Th) => {
                    // The common case, the cell the current node (`<td>x</td>`): it is
                    // in table scope, "generate implied end tags" stops at it (a cell
                    // is not in that list), and the popping ends with it.
                    if let Some((id, name)) = self.open.current()
                        && name.is_html(tag.tag)
                    {
                        debug_assert!(self.open.has_in_scope(tag.tag, Scope::Table));
                        debug_assert!(!self.open.implies_end_of_current(None));
                        self.open.pop_current(id, name);
                        self.doc.element_mut(id).set_end(tag.span);
                        self.active.clear_to_last_marker();
                        self.set_mode(Mode::InRow);
                        return Done;
                    }
                    if self.open.has_in_scope(tag.tag, Scope::Table) {
                        self.open.generate_implied_end_tags(None);
                        self.pop_until_closing(tag.tag, tag.span);
                        self.active.clear_to_last_marker();
                        self.set_mode(Mode::InRow);
                    }
                    return Done;
                }
                (false, Caption | Col | Colgroup | Tbody | Td | Tfoot | Th | Thead | Tr) => {
                    // The common case, the cell the current node (`<td>x<td>`): it is
                    // in table scope, and closing it pops just it.
                    if self.close_current_cell() {
                        // "Reprocess the token" in "in row": with the row the current
                        // node (HTML, so the dispatcher would not take the foreign content
                        // rules), a `<td>` or `<th>` (`<td>x<td>`) takes "in row"'s cell
                        // rule, run here without the dispatcher's second step.
                        if matches!(tag.tag, Td | Th) && self.open.current_is(Tr) {
                            debug_assert!(!self.adjusted_current_is_foreign());
                            debug_assert_eq!(self.dispatched_mode(Some(tag)), Mode::InRow);
                            self.in_row_cell_start(tag);
                            return Done;
                        }
                        // A `<tr>` (`<td>x<tr>`) takes "in row"'s rule for it, which with
                        // the row the current node is `close_current_row`, run here
                        // without the dispatcher's second step.
                        if tag.tag == Tr
                            && let Some((id, name)) = self.open.current()
                            && name.is_html(Tr)
                        {
                            debug_assert!(!self.adjusted_current_is_foreign());
                            debug_assert_eq!(self.dispatched_mode(Some(tag)), Mode::InRow);
                            return self.close_current_row(id, name, tag);
                        }
                        return Reprocess;
                    }
                    if !self.open.has_matching_in_scope(
                        |n| n.ns == Ns::Html && matches!(n.tag, Td | Th),
                        Scope::Table,
                    ) {
                        return Done;
                    }
                    self.close_cell();
                    return Reprocess;
                }
                (true, Body | Caption | Col | Colgroup | Html) => return Done,
                (true, Table | Tbody | Tfoot | Thead | Tr) => {
                    if !self.open.has_in_scope(tag.tag, Scope::Table) {
                        return Done;
                    }
                    self.close_cell();
                    return Reprocess;
                }
                _ => {}
            }
        }
        self.in_body(tok)
    }

    /// "Close the cell" (13.2.6.4.15) when the current node is the cell (an HTML `td` or
    /// `th`): no implied end tag is generated above it (it is the current node and not in
    /// that list), and the popping ends with it. False (nothing done) otherwise. Inlined into
    /// "in cell"'s start tag rule: `<td>x<td>` (a cell left open, common in dense
    /// tables) would otherwise take the scope walk and [`Self::close_cell`]'s calls.
    #[inline(always)]
    fn close_current_cell(&mut self) -> bool {
        match self.open.current() {
            Some((id, name)) if name.is_html(Tag::Td) || name.is_html(Tag::Th) => {
                debug_assert!(!self.open.implies_end_of_current(None));
                self.open.pop_current(id, name);
                self.active.clear_to_last_marker();
                self.set_mode(Mode::InRow);
                true
            }
            _ => false,
        }
    }

    /// "Close the cell" (13.2.6.4.15).
    fn close_cell(&mut self) {
        self.open.generate_implied_end_tags(None);
        self.open
            .pop_until_matching(|n| n.ns == Ns::Html && matches!(n.tag, Tag::Td | Tag::Th));
        self.active.clear_to_last_marker();
        self.set_mode(Mode::InRow);
    }
}

/// The tags that 13.2.6.4.15 "in cell" does not simply process "using the rules for the
/// in body insertion mode", start or end: `caption`, `col`, `colgroup`, `tbody`, `td`,
/// `tfoot`, `th`, `thead`, `tr`, and as end tags `body`, `html`, `table`. (A start tag
/// `body`, `html` or `table` goes to "in body" too, but is rare: it is left to the
/// dispatcher, which gives it the same rules.) So the tokenizer's sink runs every other
/// tag of a table cell with the "in body" rules itself; a table indexed by the tag's id,
/// as `in_body`'s tables.
static IN_CELL_OWN: [bool; 256] = {
    use Tag::*;
    let mut table = [false; 256];
    let mut i = 0;
    while i < ALL_TAGS.len() {
        let tag = ALL_TAGS[i];
        table[tag as usize] = matches!(
            tag,
            Body | Caption | Col | Colgroup | Html | Table | Tbody | Td | Tfoot | Th | Thead | Tr
        );
        i += 1;
    }
    table
};

impl Tag {
    /// See [`IN_CELL_OWN`].
    pub(crate) fn in_cell_own(self) -> bool {
        IN_CELL_OWN[self as usize]
    }
}
