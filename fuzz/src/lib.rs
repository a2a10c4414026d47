//! Support for the fuzz targets: the checks they share with the workspace's tests.

pub mod checks;
pub mod content;
pub mod peers;
pub mod select;
pub mod tree;
pub mod warc;
pub mod writers;
