//! What a run extracts of each page ([`Want`], read once from the arguments of `process`
//! or `extract_batch`) and the page it extracts ([`page`]).

use std::sync::Arc;

use htmltok_crawl::batch::Document;
use htmltok_crawl::extract::columns::PageColumns;
use htmltok_crawl::extract::{Page, TreeColumns};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use url::Url;

/// What to extract (`process`'s, from its options, and `extract_batch`'s).
#[derive(Clone)]
pub(crate) struct Want {
    pub(crate) links: bool,
    pub(crate) text: bool,
    /// The `fields` argument, compiled (empty: none).
    pub(crate) fields: Arc<htmltok_select::Fields>,
    /// The `main_text`, `main_markdown` and `metadata` arguments: the columns read from
    /// the tree
    /// (opt-in: building the tree costs about three times the tokenizer's pass).
    pub(crate) tree: TreeColumns,
}

impl Want {
    /// What the keywords of `process` and `extract_batch` ask for, `fields` compiled by
    /// [`compile_fields`].
    pub(crate) fn new(
        links: bool,
        text: bool,
        fields: Option<&Bound<'_, PyAny>>,
        main_text: bool,
        main_markdown: bool,
        metadata: bool,
    ) -> PyResult<Want> {
        let tree = TreeColumns {
            main_text,
            main_markdown,
            metadata,
        };
        Ok(Want {
            links,
            text,
            fields: compile_fields(fields, tree)?,
            tree,
        })
    }

    /// The field names, for the columns and the dicts.
    pub(crate) fn field_names(&self) -> Vec<&str> {
        self.fields
            .fields()
            .iter()
            .map(|f| f.name.as_str())
            .collect()
    }

    /// Empty columns for the pages (the page's and the fields').
    pub(crate) fn columns(&self) -> PageColumns {
        PageColumns::with(&self.field_names(), self.tree)
    }

    /// The parser of the batch's trees: one is parsed for the fields and the tree's
    /// columns, as the page is decoded, so that the tree builder decides the encoding's
    /// late `<meta>` (`batch::Options::tree`); None when nothing reads a tree.
    pub(crate) fn parser(&self) -> Option<htmltok_tree::Parser> {
        (!self.fields.is_empty() || self.tree.any()).then(htmltok_tree::Parser::new)
    }
}

/// Compiles the `fields` argument (a dict of names to selectors, or a `Fields`), refusing
/// names of the page's columns and of the tree's columns asked for; ValueError for a
/// selector that does not parse.
fn compile_fields(
    fields: Option<&Bound<'_, PyAny>>,
    tree: TreeColumns,
) -> PyResult<Arc<htmltok_select::Fields>> {
    let Some(fields) = fields.filter(|f| !f.is_none()) else {
        return Ok(Arc::default());
    };
    let compiled = match fields.cast::<crate::select::Fields>() {
        Ok(f) => f.get().inner.clone(),
        Err(_) => crate::select::compile(fields)?,
    };
    htmltok_crawl::extract::check_column_names(&compiled, tree).map_err(PyValueError::new_err)?;
    Ok(Arc::new(compiled))
}

/// The page of one document: [`Page::of`] when links are wanted, else
/// [`Page::without_links`] (no link resolution). The title is always there.
pub(crate) fn page(document: &Document<'_>, want: &Want, base: Option<&Url>) -> Page {
    let mut page = if want.links {
        Page::of(document, base)
    } else {
        Page::without_links(document)
    };
    if !want.text {
        page.text = String::new();
    }
    page.with_tree_columns(document, base, &want.fields, want.tree)
}
