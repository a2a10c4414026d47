//! The Markdown being written: the block structure (the prefixes of block quotes and
//! list items, blank lines between blocks, hard line breaks) and the inline spans
//! (emphasis, strikethrough, links), with text escaped ([`super::escape`]).
//!
//! Breaks and spaces are owed and written only when more content follows, as the
//! visible text's writer does, so no blank lines or spaces pile up at block edges.
//! An inline span's opening marker is written before its first content, so an empty
//! span writes nothing; a span that a block interrupts (a heading inside a link, a
//! paragraph inside `<b>`) cannot be Markdown, and its opening marker is taken out
//! again (its text stays). Taking it out is recorded and done once, at the end, so
//! it costs no more than writing.

use super::escape::{self, is_word};
use crate::visible::{finish_text, is_space_byte, spaces_end, words_end};

/// The deepest nesting of block quotes and list items written as such.
const MAX_CONTAINERS: usize = 32;

/// A block quote or a list item the writing is inside.
struct Container {
    /// A block quote (`> ` before each line), else a list item.
    quote: bool,
    /// A list item's marker (`- `, `3. `), until its first line is written; then
    /// empty, and its lines are indented by [`Container::width`].
    marker: Vec<u8>,
    width: usize,
    /// Nothing is written inside it yet: the breaks its content asks for before its
    /// first line are not written (the marker is that line's start).
    fresh: bool,
}

/// An inline span that is open.
struct Span {
    /// Its opening marker (`*`, `**`, `~~`, `[`).
    opener: &'static [u8],
    /// A link (its closer is `](` and the destination on [`Markdown::links`]).
    link: bool,
    /// Where its opening marker was written, once it was.
    at: Option<usize>,
    /// A block interrupted it: nothing more is written for it.
    dead: bool,
    /// It counts in [`Markdown::open_kinds`] (an emphasis span inside one of its own
    /// kind does not: it writes nothing, as `**` inside `**` would not read back).
    counted: bool,
}

/// The emphasis markers, by their index in [`Markdown::open_kinds`].
const EMPHASIS: [&[u8]; 3] = [b"*", b"**", b"~~"];

/// A closing marker just written after punctuation: it closes only if no letter or
/// digit follows (CommonMark § 6.2, right-flanking), which the next text tells.
#[derive(Clone, Copy)]
struct PendingCloser {
    /// Where the closing marker ends.
    end: usize,
    /// The closing marker's and the opening marker's positions and length.
    closer: usize,
    opener: usize,
    len: usize,
}

/// The Markdown written so far, and what is owed before the next content.
#[derive(Default)]
pub(crate) struct Markdown {
    pub(crate) out: Vec<u8>,
    /// Line breaks owed (1, or 2: a blank line).
    breaks: u8,
    /// A hard line break (`<br>`) owed.
    hard: bool,
    /// A space owed.
    space: bool,
    /// Anything has been written.
    started: bool,
    /// No text written since the line began (its prefix aside): where the text's
    /// first characters could begin a block.
    pub(crate) line_start: bool,
    /// Nothing written on the line since its prefix.
    line_empty: bool,
    containers: Vec<Container>,
    spans: Vec<Span>,
    /// The destinations of the open links, one after the other in `link_text`, by where
    /// each begins (innermost last).
    links: Vec<usize>,
    link_text: String,
    /// The spans below this index are dead.
    live_from: usize,
    /// The spans from this index on have no opening marker written yet.
    unopened_from: usize,
    /// Open links whose opening bracket is written: brackets in their text are escaped.
    links_written: usize,
    /// Markers to take out at the end: (position, length).
    deletions: Vec<(usize, usize)>,
    /// Live emphasis spans open, by kind ([`EMPHASIS`]).
    open_kinds: [u32; 3],
    /// The last closing marker of an emphasis span, when nothing was written after it:
    /// (where it ends, the marker, where its opening marker is). An opening marker of
    /// the same kind there joins the two spans (`**a****b**` does not read back).
    last_closer: Option<(usize, &'static [u8], usize)>,
    /// A closing marker that closes only if no letter follows.
    pending_closer: Option<PendingCloser>,
    /// Open headings: line breaks inside are spaces.
    headings: u32,
    /// The level of the heading whose marker is owed (0: none).
    heading_marker: u8,
    /// Where the text of the heading being written begins.
    heading_text: usize,
    /// Open table cells (and captions): all on one line.
    pub(crate) inline_only: u32,
}

impl Markdown {
    /// Owes a line break (1) or a blank line (2): a block begins or ends. Spans open
    /// across it die. Inside a heading or a table cell it is a space.
    pub(crate) fn line_break(&mut self, count: u8) {
        if self.headings > 0 || self.inline_only > 0 {
            self.space = true;
            return;
        }
        self.kill_spans();
        if self.containers.last().is_some_and(|c| c.fresh) {
            return;
        }
        self.breaks = self.breaks.max(count);
        self.space = false;
    }

    /// Owes a hard line break (`<br>`), written as a backslash at the line's end if
    /// text follows in the same block.
    pub(crate) fn hard_break(&mut self) {
        if self.headings > 0 || self.inline_only > 0 {
            self.space = true;
            return;
        }
        if self.containers.last().is_some_and(|c| c.fresh) || !self.started {
            return;
        }
        self.hard = true;
        self.space = false;
    }

    /// Owes a space.
    pub(crate) fn space(&mut self) {
        self.space = true;
    }

    /// Whether what is written now stays on one line: inside a heading or a table cell,
    /// where blocks (a code block, a table, a rule) cannot be.
    pub(crate) fn on_one_line(&self) -> bool {
        self.headings > 0 || self.inline_only > 0
    }

    /// Whether the innermost container is a list item.
    pub(crate) fn in_item(&self) -> bool {
        self.containers.last().is_some_and(|c| !c.quote)
    }

    /// Whether another container can be opened: deeper ones are written as plain
    /// blocks, so that a line's prefix stays short and the output linear in the page
    /// (a thousand nested quotes would write a thousand `> ` before each line).
    pub(crate) fn can_nest(&self) -> bool {
        self.containers.len() < MAX_CONTAINERS
    }

    /// Opens a block quote (`quote`) or a list item with its marker.
    pub(crate) fn push_container(&mut self, quote: bool, marker: Vec<u8>) {
        self.containers.push(Container {
            quote,
            width: marker.len(),
            marker,
            fresh: true,
        });
    }

    pub(crate) fn pop_container(&mut self) {
        self.containers.pop();
    }

    /// Opens a heading of `level` (its marker written before its first content).
    pub(crate) fn open_heading(&mut self, level: u8) {
        self.line_break(2);
        if self.headings == 0 {
            self.heading_marker = level;
            self.heading_text = usize::MAX;
        }
        self.headings += 1;
    }

    pub(crate) fn close_heading(&mut self) {
        self.headings -= 1;
        if self.headings > 0 {
            return;
        }
        if self.heading_marker == 0 {
            // Written: a closing run of `#` at its end would be read as the heading's
            // closing sequence (CommonMark § 4.2), so it is escaped.
            let hashes = self.out.iter().rev().take_while(|&&b| b == b'#').count();
            let run = self.out.len() - hashes;
            if hashes > 0 && (run == self.heading_text || self.out.get(run - 1) == Some(&b' ')) {
                self.out.insert(run, b'\\');
            }
        }
        self.heading_marker = 0;
        self.line_break(2);
    }

    /// Opens an inline span whose markers are `opener` (one of [`EMPHASIS`]) and its
    /// mirror; inside a live span of the same kind, it writes nothing.
    pub(crate) fn open_span(&mut self, opener: &'static [u8]) {
        let kind = EMPHASIS.iter().position(|&e| e == opener);
        let nested = kind.is_some_and(|k| self.open_kinds[k] > 0);
        if let Some(k) = kind
            && !nested
        {
            self.open_kinds[k] += 1;
        }
        self.spans.push(Span {
            opener,
            link: false,
            at: None,
            dead: nested,
            counted: kind.is_some() && !nested,
        });
    }

    /// A span stops counting in [`Markdown::open_kinds`].
    fn uncount(open_kinds: &mut [u32; 3], span: &mut Span) {
        if span.counted
            && let Some(k) = EMPHASIS.iter().position(|&e| e == span.opener)
        {
            open_kinds[k] -= 1;
            span.counted = false;
        }
    }

    /// Opens a link to `destination` (as it is written between the parentheses).
    pub(crate) fn open_link(&mut self, destination: &str) {
        self.links.push(self.link_text.len());
        self.link_text.push_str(destination);
        self.spans.push(Span {
            opener: b"[",
            link: true,
            at: None,
            dead: false,
            counted: false,
        });
    }

    /// Closes the innermost span: its closing marker written when its opening one was
    /// and the span can be read back as one (see [`Markdown::close_emphasis`]).
    pub(crate) fn close_span(&mut self) {
        let Some(mut span) = self.spans.pop() else {
            return;
        };
        Self::uncount(&mut self.open_kinds, &mut span);
        let len = self.spans.len();
        self.live_from = self.live_from.min(len);
        self.unopened_from = self.unopened_from.min(len);
        let destination = if span.link { self.links.pop() } else { None };
        let Some(at) = span.at.filter(|_| !span.dead) else {
            if let Some(start) = destination {
                self.link_text.truncate(start);
            }
            return;
        };
        if let Some(start) = destination {
            self.links_written -= 1;
            self.out.extend_from_slice(b"](");
            escape::push_destination(&mut self.out, &self.link_text[start..]);
            self.out.push(b')');
            self.link_text.truncate(start);
        } else {
            self.close_emphasis(span.opener, at);
        }
    }

    /// Closes an emphasis span whose opening marker `marker` is at `at`, so that it
    /// reads back (CommonMark § 6.2): whitespace the span ends with (a no-break space)
    /// goes after the closing marker; a span of whitespace alone, or whose opening
    /// marker cannot open (a letter before it and punctuation after it, `a**"b"`),
    /// loses its markers; a closing marker after punctuation waits for the next text.
    fn close_emphasis(&mut self, marker: &'static [u8], at: usize) {
        let content = at + marker.len();
        let mut end = self.out.len();
        while let Some(n) = unicode_space_before(&self.out[content..end]) {
            end -= n;
        }
        let before = if at == 0 { b'\n' } else { self.out[at - 1] };
        let after = self.out.get(content).copied().unwrap_or(b' ');
        let opens =
            end > content && (!is_punctuation(after) || is_space(before) || is_punctuation(before));
        if !opens {
            self.deletions.push((at, marker.len()));
            return;
        }
        self.out.splice(end..end, marker.iter().copied());
        if is_punctuation(self.out[end - 1]) {
            self.pending_closer = Some(PendingCloser {
                end: end + marker.len(),
                closer: end,
                opener: at,
                len: marker.len(),
            });
        }
        if end + marker.len() == self.out.len() {
            self.last_closer = Some((self.out.len(), marker, at));
        }
    }

    /// Before content whose first byte is `first`: a closing marker waiting for it
    /// (see [`PendingCloser`]) and its opening marker are taken out when it is a letter
    /// or digit right after the marker.
    fn settle_closer(&mut self, first: u8) {
        if let Some(p) = self.pending_closer.take()
            && p.end == self.out.len()
            && is_word(first)
        {
            self.deletions.push((p.opener, p.len));
            self.deletions.push((p.closer, p.len));
        }
    }

    /// Marks the open spans dead, their opening markers to be taken out.
    fn kill_spans(&mut self) {
        for span in &mut self.spans[self.live_from..] {
            Self::uncount(&mut self.open_kinds, span);
            if span.dead {
                continue;
            }
            span.dead = true;
            if let Some(at) = span.at {
                self.deletions.push((at, span.opener.len()));
                if span.link {
                    self.links_written -= 1;
                }
            }
        }
        self.live_from = self.spans.len();
        self.unopened_from = self.unopened_from.max(self.live_from);
    }

    /// Writes what is owed before content: line breaks with the containers' prefixes,
    /// or a space; then a heading's marker and the opening markers of the spans
    /// content now begins.
    pub(crate) fn begin_content(&mut self) {
        self.flush();
        if self.heading_marker > 0 {
            for _ in 0..self.heading_marker {
                self.out.push(b'#');
            }
            self.out.push(b' ');
            self.heading_marker = 0;
            self.heading_text = self.out.len();
            self.line_start = false;
        }
        for span in &mut self.spans[self.unopened_from..] {
            if span.dead {
                continue;
            }
            // Right after a closing marker of its kind: the two spans join.
            if let Some((end, marker, opener)) = self.last_closer
                && end == self.out.len()
                && marker == span.opener
            {
                self.out.truncate(end - marker.len());
                span.at = Some(opener);
                self.pending_closer = None;
                continue;
            }
            if span.link {
                // `![` would begin an image.
                if self.out.last() == Some(&b'!') {
                    let at = self.out.len() - 1;
                    self.out.insert(at, b'\\');
                }
                self.links_written += 1;
            }
            span.at = Some(self.out.len());
            self.out.extend_from_slice(span.opener);
        }
        self.unopened_from = self.spans.len();
        self.line_empty = false;
        self.last_closer = None;
    }

    fn flush(&mut self) {
        if self.inline_only > 0 {
            // In a table cell: the breaks owed before the table stay owed.
            if self.space && !self.line_empty {
                self.out.push(b' ');
            }
            self.space = false;
            return;
        }
        if !self.started {
            self.prefix();
        } else if self.breaks > 0 {
            self.out.push(b'\n');
            if self.breaks > 1 {
                self.blank_prefix();
                self.out.push(b'\n');
            }
            self.prefix();
        } else if self.hard {
            self.out.extend_from_slice(b"\\\n");
            self.prefix();
        } else if self.space && !self.line_empty {
            self.out.push(b' ');
        }
        self.started = true;
        self.breaks = 0;
        self.hard = false;
        self.space = false;
    }

    /// Writes the containers' prefixes of a line (a fresh list item's marker, else its
    /// indentation; `> ` for a block quote).
    fn prefix(&mut self) {
        for c in &mut self.containers {
            if c.quote {
                self.out.extend_from_slice(b"> ");
            } else if c.fresh {
                self.out.extend_from_slice(&c.marker);
            } else {
                self.out.extend(std::iter::repeat_n(b' ', c.width));
            }
            c.fresh = false;
        }
        self.line_start = true;
        self.line_empty = true;
    }

    /// Writes the prefixes of a blank line: `>` for each block quote it is inside.
    fn blank_prefix(&mut self) {
        let start = self.out.len();
        for c in self.containers.iter().filter(|c| !c.fresh) {
            if c.quote {
                self.out.extend_from_slice(b"> ");
            } else {
                self.out.extend(std::iter::repeat_n(b' ', c.width));
            }
        }
        let end = self.out[start..]
            .iter()
            .rposition(|&b| b != b' ')
            .map_or(start, |i| start + i + 1);
        self.out.truncate(end);
    }

    /// Writes a text node's text: whitespace runs collapsed to one space, text escaped.
    pub(crate) fn text(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            if is_space_byte(bytes[i]) {
                i = spaces_end(bytes, i);
                self.space = true;
                continue;
            }
            let start = i;
            i = words_end(bytes, i);
            let mut stretch = &bytes[start..i];
            // Whitespace beyond ASCII (a no-break space) that begins a span's text goes
            // before its opening marker, which could not open before it.
            if self.unopened_from < self.spans.len() {
                let mut spaces = 0;
                while let Some(n) = unicode_space_at(&stretch[spaces..]) {
                    spaces += n;
                }
                if spaces > 0 {
                    self.flush();
                    self.settle_closer(b' ');
                    self.out.extend_from_slice(&stretch[..spaces]);
                    self.line_empty = false;
                    self.line_start = false;
                    self.last_closer = None;
                    stretch = &stretch[spaces..];
                    if stretch.is_empty() {
                        continue;
                    }
                }
            }
            self.begin_content();
            self.settle_closer(stretch[0]);
            escape::push_text(
                &mut self.out,
                stretch,
                self.line_start,
                self.links_written > 0,
            );
            self.line_start = false;
        }
    }

    /// Writes content that is not text, beginning with the byte `first`, by `write`:
    /// after what is owed, not escaped.
    pub(crate) fn raw_with(&mut self, first: u8, write: impl FnOnce(&mut Vec<u8>)) {
        self.begin_content();
        self.settle_closer(first);
        write(&mut self.out);
        self.line_start = false;
    }

    /// Writes content that is not text (math, a rule): after what is owed, not escaped.
    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        self.begin_content();
        self.settle_closer(bytes.first().copied().unwrap_or(b' '));
        self.out.extend_from_slice(bytes);
        self.line_start = false;
    }

    /// Writes a block of lines (a fenced code block, a table) as its own block: each
    /// line after the containers' prefixes.
    pub(crate) fn block<'a>(&mut self, lines: impl IntoIterator<Item = &'a [u8]>) {
        self.line_break(2);
        self.begin_content();
        for (i, line) in lines.into_iter().enumerate() {
            if i > 0 {
                self.out.push(b'\n');
                self.prefix();
            }
            self.out.extend_from_slice(line);
        }
        self.line_start = false;
        self.line_break(2);
    }

    /// Where the next byte will be written.
    pub(crate) fn position(&self) -> usize {
        self.out.len()
    }

    /// A table cell begins: its first content has no space before it.
    pub(crate) fn begin_cell(&mut self) {
        self.line_empty = true;
        self.space = false;
        self.last_closer = None;
        self.pending_closer = None;
    }

    /// Takes out the bytes written from `start` on (a table cell's), with the opening
    /// markers to be taken out among them taken out.
    pub(crate) fn take_from(&mut self, start: usize) -> Vec<u8> {
        let mut taken = self.out.split_off(start.min(self.out.len()));
        let mut mine = Vec::new();
        self.deletions.retain(|&(at, len)| {
            let outside = at < start;
            if !outside {
                mine.push((at - start, len));
            }
            outside
        });
        delete(&mut taken, &mut mine);
        self.begin_cell();
        taken
    }

    /// The Markdown: the opening markers of the spans blocks interrupted taken out,
    /// whitespace trimmed at both ends.
    pub(crate) fn finish(mut self) -> String {
        let mut deletions = std::mem::take(&mut self.deletions);
        delete(&mut self.out, &mut deletions);
        finish_text(self.out)
    }
}

/// Takes the ranges `(position, length)` (not overlapping) out of `bytes`, in one pass
/// after sorting them.
fn delete(bytes: &mut Vec<u8>, ranges: &mut [(usize, usize)]) {
    ranges.sort_unstable();
    let (mut write, mut read) = (0, 0);
    for &(at, len) in ranges.iter() {
        if at < read || at + len > bytes.len() {
            continue;
        }
        bytes.copy_within(read..at, write);
        write += at - read;
        read = at + len;
    }
    if read == write {
        return;
    }
    bytes.copy_within(read.., write);
    let kept = write + (bytes.len() - read);
    bytes.truncate(kept);
}

/// The length of the whitespace character beyond ASCII (U+00A0, U+2000–U+200A, U+202F,
/// U+205F, U+3000: Unicode's space separators, which CommonMark counts as whitespace)
/// `bytes` begins with, if it does.
fn unicode_space_at(bytes: &[u8]) -> Option<usize> {
    match bytes {
        [0xC2, 0xA0, ..] => Some(2),
        [0xE2, 0x80, 0x80..=0x8A | 0xAF, ..] | [0xE2, 0x81, 0x9F, ..] | [0xE3, 0x80, 0x80, ..] => {
            Some(3)
        }
        _ => None,
    }
}

/// [`unicode_space_at`] of the character `bytes` ends with.
fn unicode_space_before(bytes: &[u8]) -> Option<usize> {
    [2, 3]
        .into_iter()
        .find(|&n| bytes.len() >= n && unicode_space_at(&bytes[bytes.len() - n..]) == Some(n))
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' | 0xA0)
}

/// ASCII punctuation, as the emphasis rules see it (other scripts' punctuation is rare
/// at an emphasis's edge, and counted as a letter).
fn is_punctuation(b: u8) -> bool {
    b.is_ascii_punctuation()
}

#[cfg(test)]
mod tests {
    use super::delete;

    #[test]
    fn delete_takes_the_ranges_out_in_one_pass() {
        let mut bytes = b"a**b[c**d".to_vec();
        delete(&mut bytes, &mut [(6, 2), (1, 2), (4, 1)]);
        assert_eq!(bytes, b"abcd");
        let mut bytes = b"xyz".to_vec();
        delete(&mut bytes, &mut []);
        assert_eq!(bytes, b"xyz");
    }
}
