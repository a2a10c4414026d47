//! The block model: gradient-boosted decision trees (LightGBM's, trained by
//! `content/eval/train_blocks.py` on the multitype development split and written into
//! `model_trees.rs`) that give each block of text ([`super::units`]) the probability
//! that a person would keep it as the page's main content. Compiled in, each tree a
//! function of nested comparisons: no file to load, the same answer on every machine.

use super::feature_layout::FEATURES;
use super::page_title::PageTitle;
use super::spare::Spare;
use super::units::Units;

include!("model_trees.rs");

/// The blocks chosen and the confidence in the choice.
pub(crate) struct Choice {
    /// By block: main content or not.
    pub(crate) keep: Vec<bool>,
    /// The mean probability of the blocks kept, each weighing its characters: how sure
    /// the model is of what was kept (how well it ranks pages: `content/eval/README.md`).
    pub(crate) confidence: f32,
}

/// Which blocks of the walk are main content: those of Readability's choice, and the
/// others the model gives at least [`THRESHOLD`]. `title`: the page title (see
/// [`Units::features`]); `confidence`: whether to compute it (it costs the
/// probability of Readability's blocks too, otherwise not needed), else it is 0.
pub(crate) fn choose(
    walk: &Units,
    title: &PageTitle<'_>,
    confidence: bool,
    spare: &mut Spare,
) -> Choice {
    let (mut sum, mut weight) = (0f64, 0f64);
    let features = walk.features(title, confidence, std::mem::take(&mut spare.features));
    let keep = features
        .iter()
        .zip(&walk.units)
        .map(|(f, unit)| {
            let by_readability = Units::readability_keeps(f);
            if by_readability && !confidence {
                return true;
            }
            let p = probability(f);
            let kept = by_readability || p >= THRESHOLD;
            if kept {
                sum += f64::from(p) * f64::from(unit.chars);
                weight += f64::from(unit.chars);
            }
            kept
        })
        .collect();
    spare.features = features;
    Choice {
        keep,
        confidence: if weight > 0.0 {
            (sum / weight) as f32
        } else {
            0.0
        },
    }
}

/// The probability the trees give for one block's features: their leaves' values summed
/// in LightGBM's order, through the logistic function.
fn probability(features: &[f32; FEATURES]) -> f32 {
    let sum = TREES.iter().fold(0.0f64, |sum, tree| sum + tree(features));
    (1.0 / (1.0 + (-sum).exp())) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_reads_the_features_the_walk_writes() {
        assert_eq!(FEATURE_NAMES.len(), FEATURES);
        assert_eq!(
            FEATURE_NAMES.map(String::from).to_vec(),
            super::super::feature_layout::feature_names()
        );
    }
}
