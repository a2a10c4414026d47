//! [`Span`]: a byte range into the input. A leaf module: the tokens, the machine and the
//! decoder all use it, and it uses none of them.

use std::ops::Range;

/// A half-open byte range `[start, end)` into the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    pub(crate) const EMPTY: Span = Span { start: 0, end: 0 };

    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The span as a `Range<usize>`.
    pub fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// True when the span holds no bytes.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub(crate) fn of(self, input: &[u8]) -> &[u8] {
        &input[self.start..self.end]
    }
}
