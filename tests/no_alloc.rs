//! The hot path allocates nothing per token: a counting global allocator shows that the
//! number of allocations while tokenizing does not grow with the number of tokens.

// The workspace denies `unsafe` outside the scan back-ends; a global allocator cannot be
// written without it (the trait is unsafe). This one only forwards to `System` and counts.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use htmltok::{Token, Tokenizer};

struct Counting;

thread_local! {
    // `const` initialisation: reading it never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// A page of every kind of token, repeated `n` times.
fn page(n: usize) -> Vec<u8> {
    let unit = "<!DOCTYPE html><div id=a class='b c' data-x=\"1&amp;2\" hidden>Text &amp; more</div>\
                <!-- a comment --><script>if (a < b) { x = '</p>'; }</script><title>T&lt;</title>\
                <svg><![CDATA[x]]><path d='M0 0'/></svg><p>caf\u{e9} <a href=/x?a=1&b=2>link</a><br/>\r\n";
    unit.repeat(n).into_bytes()
}

/// Tokenizes `input`, touching every span (no decoding), and returns (tokens, allocations).
fn tokenize(input: &[u8], errors: bool) -> (usize, usize) {
    let before = allocations();
    let mut tok = Tokenizer::builder().errors(errors).build(input);
    let mut tokens = 0;
    let mut touched = 0usize;
    while let Some(token) = tok.next_token() {
        tokens += 1;
        touched += token.span().len();
        if let Token::StartTag(tag) = &token {
            for attr in tag.attrs() {
                touched += attr.name_span().len() + attr.value_span().map_or(0, |s| s.len());
            }
        }
    }
    assert!(touched > 0);
    (tokens, allocations() - before)
}

#[test]
fn allocations_do_not_grow_with_the_number_of_tokens() {
    let small = page(10);
    let large = page(10_000);
    let (small_tokens, small_allocs) = tokenize(&small, false);
    let (large_tokens, large_allocs) = tokenize(&large, false);
    assert!(large_tokens > 200_000, "{large_tokens} tokens");
    assert!(large_tokens > 900 * small_tokens);
    // The attribute buffer grows once or twice; nothing else allocates.
    assert!(
        small_allocs <= 8,
        "{small_allocs} allocations for {small_tokens} tokens"
    );
    assert_eq!(
        large_allocs, small_allocs,
        "allocations grew with the input"
    );
}

#[test]
fn decoding_borrows_when_nothing_changes() {
    let input = b"<p class=plain>no references here</p>";
    let before = allocations();
    let mut tok = Tokenizer::new(input);
    let mut borrowed = 0;
    while let Some(token) = tok.next_token() {
        match token {
            Token::StartTag(tag) | Token::EndTag(tag) => {
                borrowed += matches!(tag.name(), std::borrow::Cow::Borrowed(_)) as usize;
                for attr in tag.attrs() {
                    borrowed += matches!(attr.value(), std::borrow::Cow::Borrowed(_)) as usize;
                }
            }
            Token::Text(text) => {
                borrowed += matches!(text.text(), std::borrow::Cow::Borrowed(_)) as usize
            }
            _ => {}
        }
    }
    assert_eq!(borrowed, 4);
    assert!(
        allocations() - before <= 2,
        "only the attribute buffer may allocate"
    );
}

#[test]
fn errors_on_allocate_only_for_the_error_list() {
    // A page without parse errors: errors on must not allocate per token either.
    let clean = "<!DOCTYPE html><p class=a>x</p><!--c-->"
        .repeat(20_000)
        .into_bytes();
    let (tokens, allocs) = tokenize(&clean, true);
    assert!(tokens > 50_000);
    assert!(allocs <= 8, "{allocs} allocations with errors on");
}
