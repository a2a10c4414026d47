//! Support for the fuzz targets: the checks they share with the workspace's tests.

pub mod checks;
pub mod peers;
pub mod tree;
pub mod warc;
pub mod writers;
