//! Byte offsets to one-based line and column, for offsets that mostly increase.
//!
//! [`PositionTracker`] walks forward and restarts from the beginning when asked about an
//! earlier offset. Parse errors come almost in input order, but not quite (an input-stream
//! error can be reported after a later token's), so this keeps a copy of the tracker every
//! [`STEP`] bytes: an earlier offset costs at most a walk from the copy before it.

use htmltok::{Position, PositionTracker};

/// Distance between checkpoints, in bytes.
const STEP: usize = 64 * 1024;

pub struct Positions<'a> {
    /// The tracker for increasing offsets.
    ahead: PositionTracker<'a>,
    /// The largest offset `ahead` was asked about.
    ahead_at: usize,
    /// `checkpoints[i]` has been walked to offset `i * STEP`.
    checkpoints: Vec<PositionTracker<'a>>,
}

impl<'a> Positions<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        let start = PositionTracker::new(input);
        Positions {
            ahead: start.clone(),
            ahead_at: 0,
            checkpoints: vec![start],
        }
    }

    /// The position of the character at (or containing) byte `offset`.
    pub fn position(&mut self, offset: usize) -> Position {
        if offset >= self.ahead_at {
            // Leave a checkpoint at every STEP boundary on the way.
            while self.checkpoints.len() * STEP <= offset {
                self.ahead.position(self.checkpoints.len() * STEP);
                self.checkpoints.push(self.ahead.clone());
            }
            self.ahead_at = offset;
            self.ahead.position(offset)
        } else {
            let mut tracker = self.checkpoints[offset / STEP].clone();
            tracker.position(offset)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_order_agrees_with_a_fresh_walk() {
        let mut input = Vec::new();
        for i in 0..40_000u32 {
            input.extend_from_slice(match i % 7 {
                0 => "a\r\n".as_bytes(),
                1 => "é".as_bytes(),
                2 => "\u{1F600}".as_bytes(),
                3 => b"\r",
                4 => b"\xF0\x9F",
                5 => b"\n",
                _ => b"xyz",
            });
        }
        let mut positions = Positions::new(&input);
        let offsets = (0..input.len() + 2).step_by(4099).chain([
            3 * STEP + 1,
            7,
            2 * STEP - 1,
            input.len(),
            STEP,
        ]);
        for offset in offsets {
            assert_eq!(
                positions.position(offset),
                htmltok::position(&input, offset),
                "offset {offset}"
            );
        }
    }
}
