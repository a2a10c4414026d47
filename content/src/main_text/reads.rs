//! What one page's walks share: each node's attributes and text read once, and the
//! buffers they fill.

use htmltok_tree::DocumentRef;

use super::hints::NameCache;
use super::spare::Spare;
use super::text_counts::TextCache;

/// What the walks of one page read of its nodes — an element's `class`, `id`, `role`
/// and hiding attributes, a text's counts — each read once and kept for the page's other
/// walks (Readability's passes, the block walk, the page's kind); and the buffers the
/// walks fill, the thread's from its last page ([`Spare`]).
pub(crate) struct Reads {
    pub(crate) names: NameCache,
    pub(crate) texts: TextCache,
    pub(crate) spare: Spare,
}

impl Reads {
    /// `cache_texts`: whether more than one walk counts the texts (the block walk and
    /// the page's kind do; the block walk alone counts each text once).
    pub(crate) fn new(doc: &DocumentRef<'_>, cache_texts: bool) -> Reads {
        let mut spare = Spare::take();
        let n = doc.node_count();
        Reads {
            names: NameCache::new(std::mem::take(&mut spare.names), n),
            texts: TextCache::new(
                std::mem::take(&mut spare.tallies),
                if cache_texts { n } else { 0 },
            ),
            spare,
        }
    }
}

impl Drop for Reads {
    fn drop(&mut self) {
        let mut spare = std::mem::take(&mut self.spare);
        spare.names = self.names.take_buffer();
        spare.tallies = self.texts.take_buffer();
        spare.keep();
    }
}
