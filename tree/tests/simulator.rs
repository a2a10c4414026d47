//! The tokenizer's simulation of tree construction (what `htmltok::Tokenizer` decides on
//! its own: RAWTEXT, RCDATA, script data and PLAINTEXT after the tags that switch to
//! them, CDATA sections in foreign content) against this crate's tree builder, on every
//! page of the real-page corpus: the tree built on the simulated tokenizer's tokens
//! (`Parser::simulated_feedback`) must be the tree built with the tree builder's own
//! feedback, in both scripting modes. The html5lib tree-construction cases get the same
//! check in `html5lib_tree.rs`; html5ever's tree builder is the other reference
//! (`benches/tests/tree_builder.rs`, which also lists the simulation's known limits on
//! generated tag soup).
//!
//! Without the corpus (`$HTMLTOK_CORPUS`, else `../shared/corpus`) the bundled pages run,
//! after a loud NOT RUN line (a failure under CI).

use htmltok_test_support::data;

use htmltok_tree::Parser;

#[test]
fn the_simulation_builds_the_same_trees_on_real_pages() {
    let dir = data::real_or_bundled_corpus("the simulator against the tree on the corpus");
    let mut paths = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d)
            .expect("the corpus folder reads")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "html" || e == "htm") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    assert!(!paths.is_empty(), "no pages in {}", dir.display());
    let mut differ = Vec::new();
    for path in &paths {
        let input = std::fs::read(path).expect("a page reads");
        for scripting in [false, true] {
            let parser = Parser::new().scripting(scripting);
            let exact = parser.parse(&input).to_test_format();
            let simulated = parser
                .simulated_feedback(true)
                .parse(&input)
                .to_test_format();
            if simulated != exact {
                differ.push(format!("{} (scripting {scripting})", path.display()));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} pages build another tree on the simulation's tokens:\n{}",
        differ.len(),
        paths.len(),
        differ.join("\n")
    );
    eprintln!(
        "simulator: {} pages, both scripting modes, same trees",
        paths.len()
    );
}
