//! [`Html`]: a handle on a decoded page's UTF-8 bytes, shared by a `Document` and the
//! trees parsed from it without a copy.

use std::borrow::Cow;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};

/// The decoded document's UTF-8 bytes: the input object itself (from `start`, after a
/// byte order mark) when decoding changed nothing, else the decoded text. Held as a
/// [`PyBackedBytes`] (whose bytes can be read without the GIL), a [`PyBackedStr`] (a
/// `str` given by the caller: its UTF-8 as CPython keeps it, the `str`'s own characters
/// when it is ASCII, encoded once and cached in the `str` otherwise) or an `Arc<String>`
/// (made without the GIL: what `parse` decodes while it parses, see [`Html::of_text`]),
/// so that a tree can own a handle on them (`htmltok_tree::OwnedDocument<Html>`) and no
/// copy is made.
pub(crate) enum Html {
    Python { bytes: PyBackedBytes, start: usize },
    Str(PyBackedStr),
    Rust(Arc<String>),
}

impl Html {
    /// Another handle on the same bytes.
    pub(crate) fn clone_ref(&self, py: Python<'_>) -> Html {
        match self {
            Html::Python { bytes, start } => Html::Python {
                bytes: bytes.clone_ref(py),
                start: *start,
            },
            Html::Str(text) => Html::Str(text.clone_ref(py)),
            Html::Rust(text) => Html::Rust(Arc::clone(text)),
        }
    }

    /// The text when the type says it is UTF-8 (a `str`'s, or decoded by Rust); `None`
    /// for bytes, which are UTF-8 too (decoded, or checked by decoding) but would have to
    /// be checked again to be a `&str`.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Html::Python { .. } => None,
            Html::Str(text) => Some(text),
            Html::Rust(text) => Some(text),
        }
    }

    /// The handle on `text`, the decoding of `input` (without the GIL): `input` itself
    /// from the start of `text` when `text` is borrowed from it and `input_handle` (a
    /// handle on `input`) has not been taken yet, else `text` as it is (an owned text
    /// moves, a borrowed one is copied).
    pub(crate) fn of_text(
        input: &[u8],
        input_handle: &mut Option<PyBackedBytes>,
        text: Cow<'_, str>,
    ) -> Html {
        if let Cow::Borrowed(t) = &text {
            // Borrowed text is the input minus a byte order mark: a pointer into the input
            // and the rest of it (compared by address, not byte by byte).
            let start = (t.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
            if start <= input.len()
                && input.len() - start == t.len()
                && let Some(bytes) = input_handle.take()
            {
                return Html::Python { bytes, start };
            }
        }
        Html::Rust(Arc::new(text.into_owned()))
    }
}

impl AsRef<[u8]> for Html {
    fn as_ref(&self) -> &[u8] {
        match self {
            Html::Python { bytes, start } => bytes.get(*start..).unwrap_or_default(),
            Html::Str(text) => text.as_bytes(),
            Html::Rust(text) => text.as_bytes(),
        }
    }
}
