//! The x86_64 back-end: SSE2, part of the target's baseline (every x86_64 CPU has it, and
//! the compiler enables it for the whole target), and AVX2, detected at run time.
//!
//! | File | Holds |
//! |------|-------|
//! | `sse2.rs` | [`Sse2`]: the masks the 16-byte block searches of `super::blocks` are written over; the SSE2 input-stream candidate search |
//! | `avx2.rs` | the AVX2 byte-class search for long runs, the AVX2 input-stream candidate search |
//! | `utf8.rs` | the AVX2 UTF-8 validator |
//!
//! The AVX2 functions are `#[target_feature(enable = "avx2")]`, so calling one is `unsafe`; each has a safe wrapper here that asserts the CPU has the feature (std's cached
//! feature test: a load and a bit test) before it calls, so `super` (the front,
//! `src/scan/mod.rs`) calls only safe functions and holds no `unsafe` of its own. The
//! front hands these wrappers work only for [`super::Scanner::Avx2`] and
//! [`super::Scanner::Avx512`], which `Builder::scanner` accepts only when the CPU has
//! them: the assertions never fire.

mod avx2;
mod sse2;
pub(crate) mod utf8;

pub(crate) use avx2::find_stream_error_candidate as find_stream_error_candidate_avx2;
pub(crate) use sse2::Sse2;
pub(crate) use sse2::find_stream_error_candidate as find_stream_error_candidate_sse2;

#[cfg(test)]
pub(crate) use avx2::find_class as find_class_avx2;
