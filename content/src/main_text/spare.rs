//! The buffers a page's walks leave for the thread's next page.
//!
//! One page's walks fill a few hundred kilobytes (a slot per node in several tables, a
//! record per element and per text): fresh memory for each page comes from the system
//! one page fault at a time, a sizable part of main text's time. A thread keeps the
//! emptied buffers of its last page instead (each of up to [`KEEP_AT_MOST`] bytes) and
//! the next page's walks fill those.

use std::cell::RefCell;

use super::block_counts::Block;
use super::feature_layout::FEATURES;
use super::hints::Read;
use super::text_counts::Tally;
use super::walk_records::{Element, Text};

/// The most bytes of one buffer a thread keeps between pages (the buffers of a page of a
/// hundred thousand nodes go back to the system; those of the pages before it stay).
const KEEP_AT_MOST: usize = 4 << 20;

/// Buffers with their capacity kept and their contents not.
#[derive(Default)]
pub(crate) struct Spare {
    pub(crate) names: Vec<Read>,
    pub(crate) tallies: Vec<Tally>,
    pub(crate) elements: Vec<Element>,
    pub(crate) texts: Vec<Text>,
    pub(crate) features: Vec<[f32; FEATURES]>,
    blocks: Vec<Vec<Block>>,
    numbers: Vec<Vec<u32>>,
}

thread_local! {
    static SPARE: RefCell<Spare> = RefCell::default();
}

impl Spare {
    /// The thread's buffers (empty ones when it has none, or while another page of the
    /// thread holds them).
    pub(crate) fn take() -> Spare {
        SPARE
            .try_with(|spare| spare.try_borrow_mut().map(|mut s| std::mem::take(&mut *s)))
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default()
    }

    /// Gives the buffers back to the thread, but those too large to keep.
    pub(crate) fn keep(mut self) {
        fn trim<T>(v: &mut Vec<T>) {
            if v.capacity() * size_of::<T>() > KEEP_AT_MOST {
                *v = Vec::new();
            }
        }
        trim(&mut self.names);
        trim(&mut self.tallies);
        trim(&mut self.elements);
        trim(&mut self.texts);
        trim(&mut self.features);
        self.blocks.iter_mut().for_each(trim);
        self.numbers.iter_mut().for_each(trim);
        // A thread being torn down keeps nothing.
        let _ = SPARE.try_with(|spare| {
            if let Ok(mut s) = spare.try_borrow_mut() {
                *s = self;
            }
        });
    }

    /// An empty `u32` buffer.
    pub(crate) fn numbers(&mut self) -> Vec<u32> {
        let mut v = self.numbers.pop().unwrap_or_default();
        v.clear();
        v
    }

    /// An empty block buffer.
    pub(crate) fn blocks(&mut self) -> Vec<Block> {
        let mut v = self.blocks.pop().unwrap_or_default();
        v.clear();
        v
    }

    pub(crate) fn give_numbers(&mut self, v: Vec<u32>) {
        self.numbers.push(v);
    }

    pub(crate) fn give_blocks(&mut self, v: Vec<Block>) {
        self.blocks.push(v);
    }
}

#[cfg(test)]
mod tests {
    use crate::main_text::{MainText, Options, main_text};

    const SMALL: &[u8] = b"<title>News</title><nav><a href=/>Home</a></nav><div class=story>\
        <p>The council met on Monday, and after a long debate, it voted to keep the \
        library open.</p><p>Residents, who had petitioned for months, welcomed it.</p></div>";

    fn read(html: &[u8]) -> MainText {
        main_text(&htmltok_tree::parse(html), &Options::default())
    }

    /// A page read after a larger one (whose buffers it reuses) reads as it does on a
    /// thread of its own.
    #[test]
    fn a_page_reads_the_same_in_a_larger_page_s_buffers() {
        let alone = std::thread::spawn(|| read(SMALL)).join().unwrap();
        let large = format!(
            "<ul class=menu>{}</ul><section>{}</section>",
            "<li><a href=/x>Link</a></li>".repeat(2000),
            "<article class=post><h2>Title</h2><p>Some words, and more words.</p></article>"
                .repeat(500)
        );
        let after = std::thread::spawn(move || {
            read(large.as_bytes());
            read(SMALL)
        })
        .join()
        .unwrap();
        assert_eq!(after, alone);
        assert!(after.text.starts_with("The council met"));
    }
}
