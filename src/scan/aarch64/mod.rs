//! The aarch64 back-end: NEON, part of the aarch64 baseline (the compiler enables it for
//! every aarch64 target), so there is no run-time detection and no `#[target_feature]`
//! function.
//!
//! | File | Holds |
//! |------|-------|
//! | `neon.rs` | [`Neon`]: the masks the 16-byte block searches of `super::blocks` are written over |
//!
//! NEON has no twin of the input-stream candidate search or of the AVX2 UTF-8 validator:
//! the scalar search and `std::str::from_utf8` serve.

mod neon;

pub(crate) use neon::Neon;
