//! What the workspace's tests and the fuzz targets (`fuzz/`) share, so that both hold
//! htmltok to the same contracts: where the external test data is and what a test does
//! without it ([`data`]), and the checks of the tokens ([`checks`]), of html5gum's tokens
//! beside them (`peers`, feature `peers`), of the CLI's JSON writers (`writers`,
//! feature `writers`) and of the WARC readers (`warc`, feature `warc`). Not published.

pub mod checks;
pub mod data;
#[cfg(feature = "peers")]
pub mod peers;
#[cfg(feature = "warc")]
pub mod warc;
#[cfg(feature = "writers")]
pub mod writers;
