//! `tokenize`, `Tokens` and `Token`: a document's tokens as lazy views of a [`Tape`].

use std::sync::atomic::{AtomicUsize, Ordering};

use htmltok::{PositionTracker, State, Tape, TextKind, Token as RustToken, TokenRecord, Tokenizer};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PySlice, PyString};

use crate::args::{input_bytes, type_name};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_class::<Tokens>()?;
    m.add_class::<Token>()?;
    m.add_class::<TokenIterator>()?;
    Ok(())
}

/// Tokenize an HTML document with the WHATWG tokenizer and return its tokens as a
/// `Tokens` sequence (len, indexing, slicing, iteration) of lazy `Token` views.
///
/// `data` is the document's bytes, read as UTF-8 (invalid bytes decode to U+FFFD, as a
/// browser decodes UTF-8): a `bytes` object is used as it is, without a copy; a
/// `bytearray` or `memoryview` is copied once into a `bytes` object (so that it cannot
/// change under the tokens). To tokenize a page in another encoding, decode it first with
/// `htmltok.Document(data).tokenize()`. A `str` is a TypeError (encode it).
///
/// Options, named like the Rust `Builder`'s methods:
///
/// - `errors`: record parse errors, listed by `Tokens.errors` as `(code, offset, line,
///   col)` tuples (off by default, and free then);
/// - `simulation`: the tree-builder simulation that switches to RCDATA, RAWTEXT, script
///   data and PLAINTEXT after `<title>`, `<style>`, `<script>`, `<plaintext>`, ... and
///   recognises CDATA sections in `<svg>`/`<math>` (on by default; off, as the html5lib
///   tests run);
/// - `scripting`: whether `<noscript>` content is RAWTEXT in the simulation (default True);
/// - `state`: the state to start in, by its html5lib name: 'Data state', 'PLAINTEXT
///   state', 'RCDATA state', 'RAWTEXT state', 'Script data state', 'CDATA section state';
/// - `last_start_tag`: the last start tag's name, for the end tag check in RCDATA,
///   RAWTEXT and script data.
///
/// The GIL is released while the document is tokenized. The tokens are stored compactly
/// (28 bytes per token, 24 per attribute); names, text and attribute values are decoded only when a
/// `Token` attribute is read.
///
/// >>> [t.type for t in htmltok.tokenize(b"<p class=x>Hi</p>")]
/// ['StartTag', 'Text', 'EndTag']
#[pyfunction]
#[pyo3(signature = (data, *, errors = false, simulation = true, scripting = true, state = None, last_start_tag = None))]
pub(crate) fn tokenize(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    errors: bool,
    simulation: bool,
    scripting: bool,
    state: Option<&str>,
    last_start_tag: Option<&str>,
) -> PyResult<Tokens> {
    let bytes = input_bytes(data)?;
    let mut builder = Tokenizer::builder()
        .errors(errors)
        .simulation(simulation)
        .scripting(scripting);
    if let Some(name) = state {
        let state = State::from_html5lib_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown state {name:?}: expected one of 'Data state', 'PLAINTEXT state', \
                 'RCDATA state', 'RAWTEXT state', 'Script data state', 'CDATA section state'"
            ))
        })?;
        builder = builder.state(state);
    }
    if let Some(name) = last_start_tag {
        builder = builder.last_start_tag(name);
    }
    let input = bytes.as_bytes();
    // A tape's offsets are 32-bit: a `bytes` of 4 GiB or more is a ValueError.
    let tape = py
        .detach(|| builder.try_tape(input))
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    Ok(Tokens {
        input: bytes.unbind(),
        tape,
    })
}

/// The tokens of one document: a read-only sequence of `Token` (len, indexing, negative
/// indexing, slicing to a list, iteration), holding the input `bytes` and a compact tape
/// of the tokens' positions. Its memory is proportional to the document.
///
/// `errors` lists the parse errors (with `errors=True`), `input` is the tokenized bytes.
#[pyclass(frozen, sequence, module = "htmltok", name = "Tokens")]
pub(crate) struct Tokens {
    input: Py<PyBytes>,
    tape: Tape,
}

impl Tokens {
    fn token(slf: &Bound<'_, Self>, index: usize) -> Token {
        Token::new(slf.clone().unbind(), index)
    }
}

#[pymethods]
impl Tokens {
    fn __len__(&self) -> usize {
        self.tape.len()
    }

    fn __getitem__<'py>(
        slf: &Bound<'py, Self>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let len = slf.get().tape.len();
        if let Ok(slice) = index.cast::<PySlice>() {
            let range = slice.indices(len as isize)?;
            let mut items = Vec::with_capacity(range.slicelength);
            let mut i = range.start;
            for _ in 0..range.slicelength {
                items.push(Self::token(slf, i as usize));
                i += range.step;
            }
            return Ok(PyList::new(py, items)?.into_any());
        }
        let Ok(i) = index.extract::<isize>() else {
            return Err(PyTypeError::new_err(format!(
                "Tokens indices must be integers or slices, not {}",
                type_name(index)
            )));
        };
        let at = if i < 0 { i + len as isize } else { i };
        if at < 0 || at as usize >= len {
            return Err(PyIndexError::new_err("token index out of range"));
        }
        Ok(Bound::new(py, Self::token(slf, at as usize))?.into_any())
    }

    fn __iter__(slf: &Bound<'_, Self>) -> TokenIterator {
        TokenIterator {
            tokens: slf.clone().unbind(),
            next: 0,
            spare: [None, None],
            replace: 0,
        }
    }

    /// The parse errors, in the order the tokenizer found them, as `(code, offset, line,
    /// col)`: the WHATWG error code (`'duplicate-attribute'`), the byte offset, and the
    /// one-based line and column (columns in UTF-16 code units, CR LF one newline, as the
    /// html5lib tests count them). Empty unless `tokenize` was called with `errors=True`.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Vec<(&'static str, usize, usize, usize)> {
        let input = self.input.bind(py).as_bytes();
        let errors = self.tape.errors();
        py.detach(|| {
            // Positions are found walking forward: visit the errors by offset.
            let mut order: Vec<usize> = (0..errors.len()).collect();
            order.sort_by_key(|&i| errors[i].offset);
            let mut tracker = PositionTracker::new(input);
            let mut out = vec![("", 0, 0, 0); errors.len()];
            for i in order {
                let p = tracker.position(errors[i].offset);
                out[i] = (errors[i].code.as_str(), errors[i].offset, p.line, p.col);
            }
            out
        })
    }

    /// The bytes that were tokenized.
    #[getter]
    fn input(&self, py: Python<'_>) -> Py<PyBytes> {
        self.input.clone_ref(py)
    }

    fn __repr__(&self) -> String {
        format!(
            "<htmltok.Tokens: {} tokens, {} bytes, {} errors>",
            self.tape.len(),
            self.tape.input_len(),
            self.tape.errors().len()
        )
    }
}

/// An iterator over a `Tokens` sequence.
///
/// Allocating one Python object per token costs more than tokenizing (about 600
/// instructions against 30 per token), so the iterator recycles: it keeps the last two
/// `Token` objects it handed out, and when one of them is referenced by nothing but the
/// iterator (the caller has dropped it), it points that object at the next token instead
/// of allocating a new one. An object nobody else can reach cannot be observed changing,
/// so this is invisible to the caller (CPython's `dict.items()`, `zip` and `enumerate`
/// iterators reuse their result tuples the same way). Two, because in `for tok in
/// tokens:` the loop variable still holds the previous token while the next is made.
#[pyclass(module = "htmltok", name = "TokenIterator")]
pub(crate) struct TokenIterator {
    tokens: Py<Tokens>,
    next: usize,
    spare: [Option<Py<Token>>; 2],
    /// Which spare a newly allocated token replaces.
    replace: usize,
}

#[pymethods]
impl TokenIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>) -> PyResult<Option<Py<Token>>> {
        let py = slf.py();
        let index = slf.next;
        if index >= slf.tokens.get().tape.len() {
            return Ok(None);
        }
        slf.next += 1;
        // Under the GIL (abi3 builds are never free-threaded), a reference count of one
        // means only `spare` holds the object, and nothing can take a new reference to it
        // while this runs. (PyO3 deprecates `get_refcnt` because a count read without the
        // GIL is a guess; with it, it is exact. Its replacement, `ffi::Py_REFCNT`, would
        // be the crate's only `unsafe`.)
        for token in slf.spare.iter().flatten() {
            #[allow(deprecated)]
            let only_ours = token.get_refcnt(py) == 1;
            if only_ours {
                token.get().index.store(index, Ordering::Relaxed);
                return Ok(Some(token.clone_ref(py)));
            }
        }
        let token = Py::new(py, Token::new(slf.tokens.clone_ref(py), index))?;
        let slot = slf.replace;
        slf.spare[slot] = Some(token.clone_ref(py));
        slf.replace = 1 - slot;
        Ok(Some(token))
    }

    fn __length_hint__(&self) -> usize {
        self.tokens.get().tape.len().saturating_sub(self.next)
    }
}

/// One token: a view of a `Tokens` sequence (it keeps the document alive). Attributes
/// are decoded from the input when read:
///
/// - `type`: 'StartTag', 'EndTag', 'Text', 'Comment' or 'Doctype';
/// - `start`, `end`: byte offsets of the token's raw bytes in the input (`raw`);
/// - `name`: a tag's name (lowercased), a DOCTYPE's name (None when it has none);
///   None for text and comments;
/// - `attrs`: a tag's attributes as a list of `(name, value)` in source order (duplicates
///   included, as the tokenizer emits them); None for other tokens;
/// - `self_closing`: for tags; False for other tokens;
/// - `text`: a text run's decoded text (character references resolved, CR LF as LF);
/// - `data`: a comment's decoded data;
/// - `public_id`, `system_id`, `force_quirks`: for a DOCTYPE;
/// - `text_kind`: for text, 'data', 'rcdata', 'rawtext', 'script', 'plaintext' or 'cdata'.
///
/// `to_dict()` gives the object `htmltok tokens` prints for the token.
#[pyclass(frozen, freelist = 1024, module = "htmltok", name = "Token")]
pub(crate) struct Token {
    tokens: Py<Tokens>,
    /// Atomic only because a frozen class must be `Sync`: a [`TokenIterator`] re-points
    /// a token object that nothing else references (relaxed loads and stores are plain
    /// moves).
    index: AtomicUsize,
}

impl Token {
    fn new(tokens: Py<Tokens>, index: usize) -> Token {
        Token {
            tokens,
            index: AtomicUsize::new(index),
        }
    }

    fn index(&self) -> usize {
        self.index.load(Ordering::Relaxed)
    }

    /// Calls `f` with the token attached to the input.
    fn with<R>(&self, py: Python<'_>, f: impl FnOnce(&RustToken<'_, '_>) -> R) -> R {
        let tokens = self.tokens.get();
        let input = tokens.input.bind(py).as_bytes();
        let token = tokens
            .tape
            .get(input, self.index())
            .expect("a Token's index is in its tape, made from its input");
        f(&token)
    }
}

#[pymethods]
impl Token {
    /// 'StartTag', 'EndTag', 'Text', 'Comment' or 'Doctype'.
    #[getter(r#type)]
    fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        // Straight from the record's kind byte (no token view needed), as an interned
        // `str`: made once, not one new `str` per read.
        let kind = self.tokens.get().tape.records()[self.index()].kind;
        match kind {
            TokenRecord::DOCTYPE => intern!(py, "Doctype"),
            TokenRecord::START_TAG => intern!(py, "StartTag"),
            TokenRecord::END_TAG => intern!(py, "EndTag"),
            TokenRecord::COMMENT => intern!(py, "Comment"),
            _ => intern!(py, "Text"),
        }
        .clone()
    }

    /// The byte offset where the token's raw bytes start.
    #[getter]
    fn start(&self) -> usize {
        self.tokens
            .get()
            .tape
            .span(self.index())
            .map_or(0, |s| s.start)
    }

    /// The byte offset one past the token's raw bytes.
    #[getter]
    fn end(&self) -> usize {
        self.tokens
            .get()
            .tape
            .span(self.index())
            .map_or(0, |s| s.end)
    }

    /// The token's index in its `Tokens`.
    #[getter(index)]
    fn index_getter(&self) -> usize {
        self.index()
    }

    /// The token's raw bytes, `input[start:end]`.
    #[getter]
    fn raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        self.with(py, |t| PyBytes::new(py, t.raw()))
    }

    /// A tag's name (lowercased) or a DOCTYPE's name (None when it has none); None for
    /// text and comments.
    #[getter]
    fn name(&self, py: Python<'_>) -> Option<String> {
        self.with(py, |t| match t {
            RustToken::StartTag(tag) | RustToken::EndTag(tag) => Some(tag.name().into_owned()),
            RustToken::Doctype(d) => d.name().map(|n| n.into_owned()),
            _ => None,
        })
    }

    /// A tag's attributes as `(name, value)` tuples in source order; None for other
    /// tokens.
    #[getter]
    fn attrs(&self, py: Python<'_>) -> Option<Vec<(String, String)>> {
        self.with(py, |t| match t {
            RustToken::StartTag(tag) | RustToken::EndTag(tag) => Some(
                tag.attrs()
                    .map(|a| (a.name().into_owned(), a.value().into_owned()))
                    .collect(),
            ),
            _ => None,
        })
    }

    /// Whether a tag ends in `/>`; False for other tokens.
    #[getter]
    fn self_closing(&self, py: Python<'_>) -> bool {
        self.with(py, |t| match t {
            RustToken::StartTag(tag) | RustToken::EndTag(tag) => tag.self_closing(),
            _ => false,
        })
    }

    /// A text run's decoded text; None for other tokens.
    #[getter]
    fn text(&self, py: Python<'_>) -> Option<String> {
        self.with(py, |t| match t {
            RustToken::Text(text) => Some(text.text().into_owned()),
            _ => None,
        })
    }

    /// The kind of a text run: 'data', 'rcdata', 'rawtext', 'script', 'plaintext' or
    /// 'cdata'; None for other tokens.
    #[getter]
    fn text_kind(&self, py: Python<'_>) -> Option<&'static str> {
        self.with(py, |t| match t {
            RustToken::Text(text) => Some(match text.kind() {
                TextKind::Data => "data",
                TextKind::Rcdata => "rcdata",
                TextKind::Rawtext => "rawtext",
                TextKind::ScriptData => "script",
                TextKind::Plaintext => "plaintext",
                TextKind::Cdata => "cdata",
            }),
            _ => None,
        })
    }

    /// A comment's decoded data; None for other tokens.
    #[getter]
    fn data(&self, py: Python<'_>) -> Option<String> {
        self.with(py, |t| match t {
            RustToken::Comment(c) => Some(c.data().into_owned()),
            _ => None,
        })
    }

    /// A DOCTYPE's public identifier (None when missing or not a DOCTYPE).
    #[getter]
    fn public_id(&self, py: Python<'_>) -> Option<String> {
        self.with(py, |t| match t {
            RustToken::Doctype(d) => d.public_id().map(|s| s.into_owned()),
            _ => None,
        })
    }

    /// A DOCTYPE's system identifier (None when missing or not a DOCTYPE).
    #[getter]
    fn system_id(&self, py: Python<'_>) -> Option<String> {
        self.with(py, |t| match t {
            RustToken::Doctype(d) => d.system_id().map(|s| s.into_owned()),
            _ => None,
        })
    }

    /// A DOCTYPE's force-quirks flag; False for other tokens.
    #[getter]
    fn force_quirks(&self, py: Python<'_>) -> bool {
        self.with(
            py,
            |t| matches!(t, RustToken::Doctype(d) if d.force_quirks()),
        )
    }

    /// The token as the dict `htmltok tokens` prints for it: `type`, `start`, `end`, and
    /// `name`/`attrs` (as lists)/`self_closing` for tags, `text` for text, `data` for a
    /// comment, `name`/`public_id`/`system_id`/`force_quirks` for a DOCTYPE.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        self.with(py, |t| -> PyResult<()> {
            let span = t.span();
            dict.set_item("type", t.kind_name())?;
            dict.set_item("start", span.start)?;
            dict.set_item("end", span.end)?;
            match t {
                RustToken::Doctype(d) => {
                    dict.set_item("name", d.name())?;
                    dict.set_item("public_id", d.public_id())?;
                    dict.set_item("system_id", d.system_id())?;
                    dict.set_item("force_quirks", d.force_quirks())?;
                }
                RustToken::StartTag(tag) | RustToken::EndTag(tag) => {
                    dict.set_item("name", tag.name())?;
                    let attrs: Vec<[String; 2]> = tag
                        .attrs()
                        .map(|a| [a.name().into_owned(), a.value().into_owned()])
                        .collect();
                    dict.set_item("attrs", attrs)?;
                    dict.set_item("self_closing", tag.self_closing())?;
                }
                RustToken::Comment(c) => dict.set_item("data", c.data())?,
                RustToken::Text(text) => dict.set_item("text", text.text())?,
            }
            Ok(())
        })?;
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let (kind, span) = self.with(py, |t| (t.kind_name(), t.span()));
        let detail = match kind {
            "StartTag" | "EndTag" | "Doctype" => {
                format!(" {:?}", self.name(py).unwrap_or_default())
            }
            "Text" => format!(" {:?}", short(&self.text(py).unwrap_or_default())),
            _ => format!(" {:?}", short(&self.data(py).unwrap_or_default())),
        };
        format!(
            "<htmltok.Token {kind}{detail} {}..{}>",
            span.start, span.end
        )
    }
}

/// The first 40 characters of `s`, with an ellipsis when cut.
fn short(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
