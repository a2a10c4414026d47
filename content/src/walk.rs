//! The step of the crate's iterative walks: the node after `node` in tree order, with or
//! without its subtree, within a subtree. Walks that skip subtrees (dropped boilerplate,
//! elements never laid out) take it instead of the tree's `descendants()`, and none
//! recurses.

use htmltok_tree::NodeRef;

/// The node after `node` in tree order inside `within`'s subtree (`within` itself
/// excluded): its first child when `descend` and it has one, else the next sibling of
/// it or of its nearest ancestor below `within` that has one; None at the subtree's end.
#[inline]
pub(crate) fn next<'d>(
    node: NodeRef<'d>,
    descend: bool,
    within: &NodeRef<'d>,
) -> Option<NodeRef<'d>> {
    if descend && let Some(child) = node.first_child() {
        return Some(child);
    }
    let mut at = node;
    loop {
        if at.id() == within.id() {
            return None;
        }
        if let Some(sibling) = at.next_sibling() {
            return Some(sibling);
        }
        at = at.parent()?;
    }
}
