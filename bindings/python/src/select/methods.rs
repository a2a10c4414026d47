//! The Python methods of `htmltok.Selector` and `htmltok.Fields` (the classes are in
//! `mod.rs`, below `tree.rs`; `Selector.matches` takes a `Node`).

use pyo3::prelude::*;

use super::{Fields, Selector, compile, parse};
use crate::tree::Node;

#[pymethods]
impl Selector {
    #[new]
    fn new(css: &str) -> PyResult<Selector> {
        Ok(Selector { inner: parse(css)? })
    }

    /// The selector as written.
    #[getter]
    fn source(&self) -> &str {
        self.inner.source()
    }

    /// What the selector gives: 'elements', 'text' (`::text`) or 'attr' (`::attr(name)`).
    #[getter]
    fn gives(&self) -> &'static str {
        match self.inner.pseudo_element() {
            None => "elements",
            Some(htmltok_select::PseudoElement::Text) => "text",
            Some(htmltok_select::PseudoElement::Attr(_)) => "attr",
        }
    }

    /// Whether `node` is an element the selector matches (for `::text` / `::attr()`: an
    /// element the strings would be taken from), in the whole tree.
    fn matches(&self, node: &Bound<'_, Node>) -> bool {
        let node = node.get();
        self.inner.matches(node.tree.get().doc.node(node.id))
    }

    fn __repr__(&self) -> String {
        format!("Selector({:?})", self.inner.source())
    }
}

#[pymethods]
impl Fields {
    #[new]
    fn new(fields: &Bound<'_, PyAny>) -> PyResult<Fields> {
        Ok(Fields {
            inner: compile(fields)?,
        })
    }

    /// The field names, in order.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.inner.fields().iter().map(|f| f.name.clone()).collect()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        let items: Vec<String> = self
            .inner
            .fields()
            .iter()
            .map(|f| format!("{:?}: {:?}", f.name, f.selector.source()))
            .collect();
        format!("Fields({{{}}})", items.join(", "))
    }
}
