//! Support for the fuzz targets: the checks they share with the crate's tests.

pub mod checks;
