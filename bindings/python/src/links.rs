//! A page's links handed to Python: which are kept ([`LinkForm`]) and in what form, dicts
//! as `htmltok links --json` prints them or URL strings.

use htmltok_crawl::extract::Link;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

/// An element or attribute name of [`htmltok_crawl::extract::LINK_ATTRIBUTES`] as an
/// interned `str` (made once per interpreter), any other name as a new `str`.
fn name_str<'py>(py: Python<'py>, name: &'static str) -> Bound<'py, PyString> {
    macro_rules! interned {
        ($($n:literal),*) => {
            match name {
                $($n => intern!(py, $n).clone(),)*
                _ => PyString::new(py, name),
            }
        };
    }
    interned!(
        "a",
        "area",
        "link",
        "img",
        "source",
        "script",
        "iframe",
        "frame",
        "embed",
        "track",
        "audio",
        "video",
        "input",
        "button",
        "form",
        "object",
        "blockquote",
        "q",
        "del",
        "ins",
        "href",
        "imagesrcset",
        "src",
        "srcset",
        "poster",
        "formaction",
        "action",
        "data",
        "cite"
    )
}

/// A link as the dict `htmltok links --json` prints (without the document). The keys and
/// the element and attribute names are interned strings; `url` and `raw` are one `str`
/// when they are equal.
fn link_dict<'py>(py: Python<'py>, link: &Link) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "element"), name_str(py, link.element))?;
    dict.set_item(intern!(py, "attribute"), name_str(py, link.attribute))?;
    let url = PyString::new(py, &link.url);
    let raw = if link.raw == link.url {
        url.clone()
    } else {
        PyString::new(py, &link.raw)
    };
    dict.set_item(intern!(py, "url"), url)?;
    dict.set_item(intern!(py, "raw"), raw)?;
    Ok(dict)
}

/// Which links to hand to Python, and how.
#[derive(Clone, Default)]
pub(crate) struct LinkForm {
    /// Keep data: URLs.
    pub(crate) data_urls: bool,
    /// Plain URL strings rather than dicts.
    pub(crate) urls: bool,
    /// Only the links on these elements.
    pub(crate) elements: Option<Vec<String>>,
}

impl LinkForm {
    pub(crate) fn keeps(&self, link: &Link) -> bool {
        (self.data_urls || !link.is_data_url())
            && self
                .elements
                .as_ref()
                .is_none_or(|names| names.iter().any(|n| n == link.element))
    }
}

/// The links as a list of dicts (or of URL strings with `form.urls`), filtered by `form`.
pub(crate) fn links_list<'py>(
    py: Python<'py>,
    links: &[Link],
    form: &LinkForm,
) -> PyResult<Bound<'py, PyList>> {
    let kept = links.iter().filter(|l| form.keeps(l));
    if form.urls {
        let urls: Vec<Bound<'py, PyString>> = kept.map(|l| PyString::new(py, &l.url)).collect();
        return PyList::new(py, urls);
    }
    let dicts = kept
        .map(|l| link_dict(py, l))
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, dicts)
}
