//! Finding `<name` (any ASCII case) in raw bytes, without tokenizing them: the quick
//! tests that decide whether the tokens or the tree must look closer (`encoding.rs`'s
//! late `<meta>` test, `extract/by_tree.rs`'s text that may hide a tag).

/// The offset of the first `<` in `bytes` followed by `name` in any ASCII case.
pub(crate) fn find_tag_open(bytes: &[u8], name: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'<', bytes).find(|&at| {
        bytes
            .get(at + 1..at + 1 + name.len())
            .is_some_and(|after| after.eq_ignore_ascii_case(name))
    })
}
