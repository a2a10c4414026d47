//! A set of a document's nodes, by node id: a bit each.

/// Node ids, a bit each (for every node of a document of the size it was made for).
pub(crate) struct NodeSet(Vec<u64>);

impl NodeSet {
    /// An empty set for a document of `nodes` nodes.
    pub(crate) fn new(nodes: usize) -> NodeSet {
        NodeSet(vec![0; nodes.div_ceil(64)])
    }

    pub(crate) fn insert(&mut self, id: u32) {
        if let Some(word) = self.0.get_mut(id as usize / 64) {
            *word |= 1 << (id % 64);
        }
    }

    pub(crate) fn contains(&self, id: u32) -> bool {
        self.0
            .get(id as usize / 64)
            .is_some_and(|word| word & (1 << (id % 64)) != 0)
    }
}
