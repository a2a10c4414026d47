//! The block model's features: how many a block has, where the groups of them start in
//! a block's vector, and their names (which the training script reads, and the compiled
//! model is checked against).

use super::walk_records::inside;

/// Where the [`inside::SELECTED`] and [`inside::LEFT_OUT`] bits are among the features.
pub(crate) const SELECTED_AT: usize = 7 + inside::SELECTED.trailing_zeros() as usize;
pub(crate) const LEFT_OUT_AT: usize = 7 + inside::LEFT_OUT.trailing_zeros() as usize;

/// Page-wide features.
pub(crate) const PAGE: usize = 4;
/// Where the neighbours' features start.
pub(crate) const NEAR_AT: usize = 7 + inside::COUNT + 14 + PAGE;
/// How many features a block has.
pub(crate) const FEATURES: usize = NEAR_AT + 10;

/// The features' names, in order (for the training script and the model's docs).
pub(crate) fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "chars",
        "link_density",
        "commas",
        "stops",
        "digits",
        "ends_sentence",
        "tag",
    ]
    .map(String::from)
    .to_vec();
    let bits = [
        "nav",
        "aside",
        "footer",
        "header",
        "form",
        "dialog",
        "main",
        "article",
        "list",
        "table",
        "link",
        "heading",
        "pre",
        "quote",
        "figure",
        "side_role",
        "comment_name",
        "boilerplate_name",
        "unlikely_name",
        "negative_name",
        "positive_name",
        "selected",
        "left_out",
        "section",
        "noscript",
    ];
    names.extend(bits.iter().map(|b| format!("in_{b}")));
    for n in [
        "weight",
        "position",
        "depth",
        "parent_chars",
        "parent_link_density",
        "share_of_parent",
        "parent_children",
        "grandparent_link_density",
        "shape_count",
        "levels_to_anchor",
        "anchor_chars",
        "anchor_link_density",
        "group_chars",
        "group_link_density",
        "page_chars",
        "page_link_density",
        "page_blocks",
        "page_selected",
        "before_chars",
        "before_link_density",
        "before_kept",
        "after_chars",
        "after_link_density",
        "after_kept",
        "repeats_title",
        "selection_side",
        "selection_distance",
        "levels_to_selection",
    ] {
        names.push(n.to_string());
    }
    names
}
