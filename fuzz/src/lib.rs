//! Support for the fuzz targets. The checks they share with the workspace's tests are
//! `htmltok-test-support`'s, re-exported here; the tree, select and content checks are the
//! fuzz targets' own.

pub use htmltok_test_support::{checks, peers, warc, writers};

pub mod content;
pub mod select;
pub mod tree;
