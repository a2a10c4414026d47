//! The arena of the last document dropped on this thread, kept for the next parse.
//!
//! A parse reserves its node and attribute vectors for the densest pages (see
//! [`crate::dom::Dom::new`]) and writes them front to back. Fresh vectors that large are
//! fresh pages: every page the parse touches is a page fault and a page the kernel
//! zeroes, and dropping the document gives them back, so the next parse on the thread
//! faults them in again. Callers that parse one page after another (a crawl loop, the
//! Python binding, a benchmark) drop each document before the next parse; keeping the
//! dropped document's two vectors (emptied, their capacity kept) and handing them to
//! the next parse reuses memory that is already mapped and warm.
//!
//! One pair per thread, the larger of two kept. A kept vector is reused only when it fits the new
//! reservation and is at most [`MAX_SLACK`] times larger, so that a small document kept
//! by its caller never holds a large one's memory; vectors over [`MAX_KEPT_BYTES`] are
//! not kept at all. The records hold no heap data (spans and indices), so emptying a
//! vector is free.

use std::cell::Cell;
use std::mem::size_of;
use std::thread::LocalKey;

/// A thread's kept vector of `T`, declared by the module that owns the vectors
/// (`thread_local!`): the arena's in `dom.rs`, the stack's membership bits in `stack.rs`.
pub(crate) type Slot<T> = &'static LocalKey<Cell<Vec<T>>>;

/// A kept vector is reused for a reservation of `n` only if its capacity is below
/// `MAX_SLACK * n`.
const MAX_SLACK: usize = 4;

/// Vectors larger than this (in bytes of capacity) are freed, not kept.
const MAX_KEPT_BYTES: usize = 64 << 20;

/// The stack of open elements' membership bits (`OpenElements::member`, a bit per node
/// id) that the last parse on this thread left, every bit clear. The stack grows them as
/// the arena grows (by half again, each growth a `realloc` and the new part zeroed, a
/// cost worth sparing on large pages); reused, only a page larger than every earlier one
/// grows them.
pub(crate) fn take_bits(slot: Slot<bool>) -> Vec<bool> {
    slot.try_with(Cell::take).unwrap_or_default()
}

/// Keeps the membership bits of a finished parse, every bit clear, for the next one
/// (the longer of the two kept; over [`MAX_KEPT_BYTES`], freed).
pub(crate) fn keep_bits(slot: Slot<bool>, v: Vec<bool>) {
    debug_assert!(!v.contains(&true), "every membership bit is clear");
    if v.len() > MAX_KEPT_BYTES {
        return;
    }
    let _ = slot.try_with(|s| {
        let kept = s.take();
        s.set(if kept.len() > v.len() { kept } else { v });
    });
}

/// An empty vector with room for `n`: the one kept in `slot` if it fits, else a new one.
pub(crate) fn take<T>(slot: Slot<T>, n: usize) -> Vec<T> {
    // `try_with`: a document dropped while the thread's locals are being destroyed
    // simply does not keep its vectors.
    let kept = slot.try_with(Cell::take).unwrap_or_default();
    if kept.capacity() >= n && kept.capacity() / MAX_SLACK < n {
        return kept;
    }
    // Not a fit: leave it for a later document of its size.
    if kept.capacity() != 0 {
        let _ = slot.try_with(|s| s.set(kept));
    }
    Vec::with_capacity(n)
}

/// Keeps a dropped document's vector, emptied, for the next parse on this thread.
pub(crate) fn keep<T>(slot: Slot<T>, mut v: Vec<T>) {
    if v.capacity() == 0 || v.capacity().saturating_mul(size_of::<T>()) > MAX_KEPT_BYTES {
        return;
    }
    v.clear();
    let _ = slot.try_with(|s| {
        // The larger of the two is kept: it fits more of the pages to come, and the
        // large pages are the ones whose fresh memory costs most.
        let kept = s.take();
        s.set(if kept.capacity() > v.capacity() {
            kept
        } else {
            v
        });
    });
}

#[cfg(test)]
mod tests {
    /// A document dropped before the next parse lends that parse its vectors, and the
    /// tree built in them is the tree built in fresh ones.
    #[test]
    fn next_parse_reuses_the_dropped_arena() {
        let page = |n: usize| {
            let mut s = String::from("<!DOCTYPE html><title>t</title>");
            for i in 0..n {
                s.push_str(&format!("<p class=c{i}>one <b>two</b> &amp; three"));
            }
            s
        };
        let (a, b) = (page(300), page(290));
        let expected = std::thread::scope(|s| {
            // Another thread: nothing kept there, fresh vectors.
            s.spawn(|| crate::parse(b.as_bytes()).to_test_format())
                .join()
                .unwrap()
        });
        let first = crate::parse(a.as_bytes());
        let ptr = first.view().dom().nodes.as_ptr();
        drop(first);
        let second = crate::parse(b.as_bytes());
        assert_eq!(second.view().dom().nodes.as_ptr(), ptr);
        assert_eq!(second.to_test_format(), expected);
        // A much smaller page does not take them (a small kept document would hold a
        // large one's memory).
        drop(second);
        let small = crate::parse(b"<p>x");
        assert_ne!(small.view().dom().nodes.as_ptr(), ptr);
    }

    /// A finished parse lends its stack's membership bits, every one clear (elements
    /// left open at the end included), to the next parse on the thread.
    #[test]
    fn next_parse_reuses_the_membership_bits() {
        std::thread::scope(|s| {
            s.spawn(|| {
                // Left open at the end: `html`, `body`, the `div`s and the `b`.
                let doc = crate::parse(b"<div><div><p>x</p><b>y");
                let bits = super::take_bits(&crate::stack::SPARE_MEMBER);
                assert!(!bits.is_empty());
                assert!(!bits.contains(&true));
                super::keep_bits(&crate::stack::SPARE_MEMBER, bits);
                let again = crate::parse(b"<div><div><p>x</p><b>y");
                assert_eq!(again.to_test_format(), doc.to_test_format());
            })
            .join()
            .unwrap()
        });
    }
}
