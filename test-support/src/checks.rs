//! Checks shared by the fuzz targets (`fuzz/fuzz_targets/*.rs`) and by the tests
//! (`tests/properties.rs`, `tests/regressions.rs`, `tests/hostile.rs`,
//! `benches/tests/differential.rs`, `cli/tests/writers.rs`), so that the fuzzers and
//! `cargo test` hold htmltok to the same contracts. It depends on htmltok alone. Its
//! companions: `peers` (html5gum, for the differential checks) and `writers` (the
//! CLI's JSON writers), each behind its feature.
//!
//! Every check returns `Err(message)` on a violation (the tests report it; the fuzz
//! targets panic with it); a panic inside htmltok propagates as it is.

use htmltok::{ParseError, PositionTracker, Scanner, Span, State, TextKind, Token, Tokenizer};

/// Every state a tokenizer can start in.
pub const STATES: [State; 6] = [
    State::Data,
    State::Rcdata,
    State::Rawtext,
    State::ScriptData,
    State::Plaintext,
    State::CdataSection,
];

/// The tokenizer options a check runs with (errors and scanner are chosen by the check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub simulation: bool,
    pub scripting: bool,
    pub state: State,
    pub last_start_tag: Option<String>,
    /// `Builder::keep_bom`: a leading UTF-8 BOM as text (off: skipped, as by default).
    pub keep_bom: bool,
}

impl Default for Options {
    /// htmltok's defaults: simulation on, scripting on, data state.
    fn default() -> Self {
        Options {
            simulation: true,
            scripting: true,
            state: State::Data,
            last_start_tag: None,
            keep_bom: false,
        }
    }
}

impl Options {
    /// Simulation off, data state: every token comes from the data state and its
    /// descendants (no RCDATA, RAWTEXT, script data, PLAINTEXT or CDATA).
    pub fn data_only() -> Self {
        Options {
            simulation: false,
            ..Options::default()
        }
    }

    /// Options chosen by one byte (the fuzz targets use the input's first byte): bits 0–2
    /// the initial state (mod 6), bit 3 scripting off, bit 4 simulation off, bits 5–6 the
    /// last start tag (none, `title`, `script`, `style`), bit 7 keep a leading BOM.
    pub fn from_byte(b: u8) -> Self {
        Options {
            state: STATES[(b & 7) as usize % STATES.len()],
            scripting: b & 8 == 0,
            simulation: b & 16 == 0,
            last_start_tag: [None, Some("title"), Some("script"), Some("style")]
                [((b >> 5) & 3) as usize]
                .map(str::to_string),
            keep_bom: b & 128 != 0,
        }
    }

    /// A tokenizer over `input` with these options.
    pub fn tokenizer<'a>(&self, input: &'a [u8], errors: bool, scanner: Scanner) -> Tokenizer<'a> {
        self.builder(errors, scanner).build(input)
    }

    /// The builder of [`Options::tokenizer`].
    pub fn builder(&self, errors: bool, scanner: Scanner) -> htmltok::Builder {
        let mut builder = Tokenizer::builder()
            .errors(errors)
            .simulation(self.simulation)
            .scripting(self.scripting)
            .state(self.state)
            .keep_bom(self.keep_bom)
            .scanner(scanner);
        if let Some(name) = &self.last_start_tag {
            builder = builder.last_start_tag(name);
        }
        builder
    }
}

/// Every scanner this CPU can run, best first.
pub fn scanners() -> Vec<Scanner> {
    let mut all = vec![Scanner::best()];
    for s in [
        Scanner::Avx512,
        Scanner::Avx2,
        Scanner::Sse2,
        Scanner::Neon,
        Scanner::Scalar,
    ] {
        if s.is_supported() && !all.contains(&s) {
            all.push(s);
        }
    }
    all
}

/// One attribute, owned: spans and decoded strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    pub span: Span,
    pub name_span: Span,
    pub value_span: Option<Span>,
    pub name: String,
    pub value: String,
}

/// One token, owned: kind, every span, and every decoded string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Doctype {
        span: Span,
        name_span: Option<Span>,
        public_span: Option<Span>,
        system_span: Option<Span>,
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
    },
    Tag {
        end: bool,
        span: Span,
        name_span: Span,
        name: String,
        self_closing: bool,
        attrs: Vec<Attr>,
    },
    Comment {
        span: Span,
        data_span: Span,
        data: String,
    },
    Text {
        span: Span,
        text_span: Span,
        kind: TextKind,
        text: String,
    },
}

impl Tok {
    pub fn span(&self) -> Span {
        match self {
            Tok::Doctype { span, .. }
            | Tok::Tag { span, .. }
            | Tok::Comment { span, .. }
            | Tok::Text { span, .. } => *span,
        }
    }
}

fn bytes_of(input: &[u8], span: Span) -> &[u8] {
    &input[span.start..span.end]
}

/// Converts a token into its owned form, decoding every string, and checks that each raw
/// accessor returns the bytes of its span.
pub fn owned(input: &[u8], token: &Token<'_, '_>) -> Tok {
    owned_at(input, token, 0)
}

/// [`owned`] for a token whose spans are relative to offset `base` of `input` (a
/// `StreamTokenizer`'s): the owned form's spans are absolute.
pub fn owned_at(input: &[u8], token: &Token<'_, '_>, base: usize) -> Tok {
    let tok = owned_relative(&input[base.min(input.len())..], token);
    shift(tok, base)
}

fn shift_span(s: Span, base: usize) -> Span {
    Span::new(s.start + base, s.end + base)
}

fn shift(tok: Tok, base: usize) -> Tok {
    if base == 0 {
        return tok;
    }
    let sh = |s: Span| shift_span(s, base);
    match tok {
        Tok::Doctype {
            span,
            name_span,
            public_span,
            system_span,
            name,
            public_id,
            system_id,
            force_quirks,
        } => Tok::Doctype {
            span: sh(span),
            name_span: name_span.map(sh),
            public_span: public_span.map(sh),
            system_span: system_span.map(sh),
            name,
            public_id,
            system_id,
            force_quirks,
        },
        Tok::Tag {
            end,
            span,
            name_span,
            name,
            self_closing,
            attrs,
        } => Tok::Tag {
            end,
            span: sh(span),
            name_span: sh(name_span),
            name,
            self_closing,
            attrs: attrs
                .into_iter()
                .map(|a| Attr {
                    span: sh(a.span),
                    name_span: sh(a.name_span),
                    value_span: a.value_span.map(sh),
                    ..a
                })
                .collect(),
        },
        Tok::Comment {
            span,
            data_span,
            data,
        } => Tok::Comment {
            span: sh(span),
            data_span: sh(data_span),
            data,
        },
        Tok::Text {
            span,
            text_span,
            kind,
            text,
        } => Tok::Text {
            span: sh(span),
            text_span: sh(text_span),
            kind,
            text,
        },
    }
}

fn owned_relative(input: &[u8], token: &Token<'_, '_>) -> Tok {
    let span = token.span();
    assert!(
        span.start <= span.end && span.end <= input.len(),
        "token span {span:?} outside the input (len {})",
        input.len()
    );
    assert_eq!(
        token.raw(),
        bytes_of(input, span),
        "Token::raw() is not its span"
    );
    match token {
        Token::Doctype(d) => {
            assert_eq!(d.raw(), token.raw());
            let (name_span, public_span, system_span) = d.spans();
            Tok::Doctype {
                span,
                name_span,
                public_span,
                system_span,
                name: d.name().map(|s| s.into_owned()),
                public_id: d.public_id().map(|s| s.into_owned()),
                system_id: d.system_id().map(|s| s.into_owned()),
                force_quirks: d.force_quirks(),
            }
        }
        Token::StartTag(tag) | Token::EndTag(tag) => {
            assert_eq!(tag.raw(), token.raw());
            assert_eq!(tag.attr_count(), tag.attrs().len());
            let name_span = tag.name_span();
            assert!(name_span.end <= input.len());
            assert_eq!(tag.raw_name(), bytes_of(input, name_span));
            let attrs = tag
                .attrs()
                .map(|a| {
                    assert!(a.name_span().end <= input.len());
                    assert_eq!(a.raw_name(), bytes_of(input, a.name_span()));
                    if let Some(v) = a.value_span() {
                        assert!(v.end <= input.len());
                    }
                    assert_eq!(a.raw_value(), a.value_span().map(|v| bytes_of(input, v)));
                    let name = a.name().into_owned();
                    assert!(
                        a.name_is(&name),
                        "name_is() rejects the attribute's own name"
                    );
                    Attr {
                        span: a.span(),
                        name_span: a.name_span(),
                        value_span: a.value_span(),
                        name,
                        value: a.value().into_owned(),
                    }
                })
                .collect::<Vec<_>>();
            // (Only the first few: `attr()` is a linear search.)
            for a in attrs.iter().take(32) {
                assert!(
                    tag.attr(&a.name).is_some(),
                    "attr({:?}) finds nothing on the tag that has it",
                    a.name
                );
            }
            Tok::Tag {
                end: matches!(token, Token::EndTag(_)),
                span,
                name_span,
                name: tag.name().into_owned(),
                self_closing: tag.self_closing(),
                attrs,
            }
        }
        Token::Comment(c) => {
            assert_eq!(c.raw(), token.raw());
            assert!(c.data_span().end <= input.len());
            assert_eq!(c.raw_data(), bytes_of(input, c.data_span()));
            Tok::Comment {
                span,
                data_span: c.data_span(),
                data: c.data().into_owned(),
            }
        }
        Token::Text(t) => {
            assert_eq!(t.raw(), token.raw());
            assert!(t.text_span().end <= input.len());
            assert_eq!(t.raw_text(), bytes_of(input, t.text_span()));
            Tok::Text {
                span,
                text_span: t.text_span(),
                kind: t.kind(),
                text: t.text().into_owned(),
            }
        }
    }
}

/// The tokens and errors of one tokenization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub tokens: Vec<Tok>,
    pub errors: Vec<ParseError>,
}

/// Tokenizes `input` to the end. Panics when the tokenizer hands out more tokens than the
/// input has bytes (tokens are never empty, so that means it is stuck) or produces a token
/// after having said None.
pub fn run(input: &[u8], options: &Options, errors: bool, scanner: Scanner) -> Run {
    let mut tok = options.tokenizer(input, errors, scanner);
    let mut tokens = Vec::new();
    while let Some(token) = tok.next_token() {
        tokens.push(owned(input, &token));
        assert!(
            tokens.len() <= input.len() + 1,
            "more tokens than input bytes: the tokenizer is stuck"
        );
    }
    assert!(tok.next_token().is_none(), "a token after the end");
    assert!(tok.next_token().is_none(), "a token after the end");
    Run {
        tokens,
        errors: tok.errors().to_vec(),
    }
}

fn inside(inner: Span, outer: Span) -> bool {
    outer.start <= inner.start && inner.start <= inner.end && inner.end <= outer.end
}

/// The span contract: every token is non-empty and inside the input, tokens are in order
/// and never overlap, every inner span lies inside its token, and a gap between tokens
/// holds only `</>` (repeated), while a gap at the end starts with `<` (markup cut off by
/// the end of the input). A UTF-8 byte order mark at the start is skipped by default
/// (`Builder::keep_bom`), a gap before the first token.
pub fn check_spans(input: &[u8], tokens: &[Tok]) -> Result<(), String> {
    let mut last_end = 0;
    if input.starts_with(b"\xEF\xBB\xBF") && tokens.first().is_none_or(|t| t.span().start >= 3) {
        last_end = 3;
    }
    for (i, t) in tokens.iter().enumerate() {
        let span = t.span();
        if span.start >= span.end {
            return Err(format!("token {i} is empty: {t:?}"));
        }
        if span.end > input.len() {
            return Err(format!("token {i} ends past the input: {t:?}"));
        }
        if span.start < last_end {
            return Err(format!(
                "token {i} starts at {} before the previous token's end {last_end}: {t:?}",
                span.start
            ));
        }
        let gap = &input[last_end..span.start];
        if !gap.is_empty() && (!gap.len().is_multiple_of(3) || gap.chunks(3).any(|c| c != b"</>")) {
            return Err(format!(
                "gap {}..{} before token {i} is {:?}, not `</>`",
                last_end,
                span.start,
                String::from_utf8_lossy(gap)
            ));
        }
        match t {
            Tok::Doctype {
                name_span,
                public_span,
                system_span,
                ..
            } => {
                for s in [name_span, public_span, system_span].into_iter().flatten() {
                    if !inside(*s, span) {
                        return Err(format!("token {i}: DOCTYPE field {s:?} outside {t:?}"));
                    }
                }
            }
            Tok::Tag {
                name_span, attrs, ..
            } => {
                if name_span.is_empty() || !inside(*name_span, span) {
                    return Err(format!("token {i}: bad tag name span in {t:?}"));
                }
                if input[span.start] != b'<' || input[span.end - 1] != b'>' {
                    return Err(format!("token {i}: a tag not in `<…>`: {t:?}"));
                }
                let mut names = std::collections::HashSet::new();
                if let Some(a) = attrs.iter().find(|a| !names.insert(a.name.as_str())) {
                    return Err(format!(
                        "token {i}: attribute {:?} appears twice (duplicates must be dropped): {t:?}",
                        a.name
                    ));
                }
                let mut attr_end = name_span.end;
                for a in attrs {
                    if !inside(a.span, span)
                        || a.name_span.is_empty()
                        || !inside(a.name_span, a.span)
                        || a.value_span.is_some_and(|v| !inside(v, a.span))
                        || a.span.start < attr_end
                    {
                        return Err(format!("token {i}: bad attribute spans in {t:?}"));
                    }
                    attr_end = a.span.end;
                }
            }
            Tok::Comment { data_span, .. } => {
                if !inside(*data_span, span) || input[span.start] != b'<' {
                    return Err(format!("token {i}: bad comment spans in {t:?}"));
                }
            }
            Tok::Text {
                text_span, kind, ..
            } => {
                if *kind == TextKind::Cdata {
                    // A CDATA section starts with `<![CDATA[`, unless the tokenizer started
                    // in the CDATA section state (after a skipped BOM, if any).
                    let opened = input[span.start..].starts_with(b"<![CDATA[")
                        || (i == 0 && (span.start == 0 || span.start == 3 && last_end == 3));
                    if !inside(*text_span, span) || !opened {
                        return Err(format!("token {i}: bad CDATA spans in {t:?}"));
                    }
                } else if *text_span != span {
                    return Err(format!("token {i}: text span differs from raw span: {t:?}"));
                }
            }
        }
        last_end = span.end;
    }
    let tail = &input[last_end..];
    if !tail.is_empty() && tail[0] != b'<' {
        return Err(format!(
            "final gap {}..{} does not start with `<`: {:?}",
            last_end,
            input.len(),
            String::from_utf8_lossy(&tail[..tail.len().min(40)])
        ));
    }
    Ok(())
}

/// The first difference between two token lists, as a message.
pub fn diff_tokens(what: &str, a: &[Tok], b: &[Tok]) -> Result<(), String> {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            return Err(format!("{what}: token {i} differs:\n  {x:?}\n  {y:?}"));
        }
    }
    if a.len() != b.len() {
        return Err(format!(
            "{what}: {} tokens vs {}; first extra: {:?}",
            a.len(),
            b.len(),
            a.get(b.len()).or(b.get(a.len()))
        ));
    }
    Ok(())
}

/// The first difference between two error lists, as a message.
pub fn diff_errors(what: &str, a: &[ParseError], b: &[ParseError]) -> Result<(), String> {
    if a != b {
        let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        return Err(format!(
            "{what}: errors differ at index {i}: {:?} vs {:?} ({} vs {} errors)",
            a.get(i),
            b.get(i),
            a.len(),
            b.len()
        ));
    }
    Ok(())
}

/// No panic; the span contract; the same tokens with errors on and off; the same tokens
/// and errors with every scanner; error offsets inside the input; positions as the
/// reference computes them. Returns the tokens (errors off, best scanner).
pub fn check_all(input: &[u8], options: &Options) -> Result<Vec<Tok>, String> {
    let best = Scanner::best();
    let off = run(input, options, false, best);
    check_spans(input, &off.tokens)?;
    if !off.errors.is_empty() {
        return Err(format!("errors recorded with errors off: {:?}", off.errors));
    }
    let on = run(input, options, true, best);
    diff_tokens("errors off vs on", &off.tokens, &on.tokens)?;
    check_tape(input, options, &on)?;
    check_sink(input, options, &on)?;
    check_error_offsets(input, &on.errors)?;
    check_positions(input, &on.errors)?;
    for scanner in scanners().into_iter().skip(1) {
        let other_off = run(input, options, false, scanner);
        diff_tokens(
            &format!("{best:?} vs {scanner:?} (errors off)"),
            &off.tokens,
            &other_off.tokens,
        )?;
        let other_on = run(input, options, true, scanner);
        diff_tokens(
            &format!("{best:?} vs {scanner:?} (errors on)"),
            &on.tokens,
            &other_on.tokens,
        )?;
        diff_errors(
            &format!("{best:?} vs {scanner:?}"),
            &on.errors,
            &other_on.errors,
        )?;
    }
    Ok(off.tokens)
}

/// The token tape ([`htmltok::Tape`], errors on) gives exactly `run`'s tokens and errors.
pub fn check_tape(input: &[u8], options: &Options, on: &Run) -> Result<(), String> {
    let tape = options.builder(true, Scanner::best()).tape(input);
    let tokens: Vec<Tok> = tape.iter(input).map(|t| owned(input, &t)).collect();
    diff_tokens("next_token vs the tape", &on.tokens, &tokens)?;
    diff_errors("next_token vs the tape", &on.errors, tape.errors())?;
    // Its records, taken back as a file reader would, are accepted and give the same.
    let back = htmltok::Tape::from_parts(
        tape.records().to_vec(),
        tape.attr_records().to_vec(),
        tape.doctype_records().to_vec(),
        input.len(),
    )
    .map_err(|err| format!("Tape::from_parts rejects a tape's own records: {err}"))?;
    let again: Vec<Tok> = back.iter(input).map(|t| owned(input, &t)).collect();
    diff_tokens("the tape vs its records taken back", &tokens, &again)
}

/// An error sink (`Builder::build_with_sink`) gets exactly the errors the list has, in
/// order, with the same tokens, and the list stays empty.
pub fn check_sink(input: &[u8], options: &Options, on: &Run) -> Result<(), String> {
    let mut sunk = Vec::new();
    let mut tok = options
        .builder(false, Scanner::best())
        .build_with_sink(input, |e| sunk.push(e));
    let mut tokens = Vec::new();
    while let Some(token) = tok.next_token() {
        tokens.push(owned(input, &token));
    }
    let left = tok.errors().len();
    drop(tok);
    diff_tokens("list vs sink", &on.tokens, &tokens)?;
    if left != 0 {
        return Err(format!("{left} errors in the list with a sink"));
    }
    diff_errors("list vs sink", &on.errors, &sunk)
}

/// Scalar against the best scanner only, errors off and on (tokens and errors equal).
pub fn check_scalar_vs_best(input: &[u8], options: &Options) -> Result<(), String> {
    for errors in [false, true] {
        let a = run(input, options, errors, Scanner::best());
        let b = run(input, options, errors, Scanner::Scalar);
        diff_tokens(
            &format!("best vs scalar (errors {errors})"),
            &a.tokens,
            &b.tokens,
        )?;
        diff_errors("best vs scalar", &a.errors, &b.errors)?;
    }
    Ok(())
}

/// Every error offset lies within the input (the input length for EOF errors).
pub fn check_error_offsets(input: &[u8], errors: &[ParseError]) -> Result<(), String> {
    match errors.iter().find(|e| e.offset > input.len()) {
        Some(e) => Err(format!("error past the input (len {}): {e:?}", input.len())),
        None => Ok(()),
    }
}

/// Line and column of every character start (and of the end of the input), computed
/// independently of htmltok: characters as `Utf8Chunks` splits them (one U+FFFD per
/// maximal invalid subpart), CR LF and CR as one newline, columns in UTF-16 code units.
pub fn reference_positions(input: &[u8]) -> Vec<(usize, usize, usize)> {
    let mut starts: Vec<(usize, char)> = Vec::new();
    let mut offset = 0;
    for chunk in input.utf8_chunks() {
        for c in chunk.valid().chars() {
            starts.push((offset, c));
            offset += c.len_utf8();
        }
        if !chunk.invalid().is_empty() {
            starts.push((offset, '\u{FFFD}'));
            offset += chunk.invalid().len();
        }
    }
    let mut out = Vec::with_capacity(starts.len() + 1);
    let (mut line, mut col) = (1, 1);
    let mut i = 0;
    while i < starts.len() {
        let (at, c) = starts[i];
        out.push((at, line, col));
        if c == '\r' || c == '\n' {
            if c == '\r' && starts.get(i + 1).is_some_and(|&(_, n)| n == '\n') {
                i += 1; // the LF of CR LF is no character of its own
            }
            line += 1;
            col = 1;
        } else {
            col += c.len_utf16();
        }
        i += 1;
    }
    out.push((input.len(), line, col));
    out
}

/// `PositionTracker` (offsets in error order, restarting when they go back) agrees with
/// [`reference_positions`] at every error offset that is a character start.
pub fn check_positions(input: &[u8], errors: &[ParseError]) -> Result<(), String> {
    if errors.is_empty() {
        return Ok(());
    }
    let reference = reference_positions(input);
    let mut tracker = PositionTracker::new(input);
    for e in errors {
        let p = tracker.position(e.offset);
        if p.line == 0 || p.col == 0 {
            return Err(format!("position {p:?} of {e:?} is not one-based"));
        }
        if let Ok(i) = reference.binary_search_by_key(&e.offset, |&(at, _, _)| at) {
            let (_, line, col) = reference[i];
            if (p.line, p.col) != (line, col) {
                return Err(format!(
                    "position of {e:?}: tracker says {}:{}, reference {line}:{col}",
                    p.line, p.col
                ));
            }
        }
    }
    Ok(())
}

// ----- the html5lib-like representation -----------------------------------------------

/// A token as the html5lib tests represent it: no spans, character tokens coalesced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum H5 {
    Doctype {
        name: Option<String>,
        public_id: Option<String>,
        system_id: Option<String>,
        force_quirks: bool,
    },
    StartTag {
        name: String,
        attrs: Vec<(String, String)>,
        self_closing: bool,
    },
    EndTag {
        name: String,
    },
    Comment(String),
    Character(String),
}

/// Appends `t`, merging adjacent character tokens and dropping empty ones.
pub fn push_h5(out: &mut Vec<H5>, t: H5) {
    if let H5::Character(s) = &t {
        if s.is_empty() {
            return;
        }
        if let Some(H5::Character(prev)) = out.last_mut() {
            prev.push_str(s);
            return;
        }
    }
    out.push(t);
}

/// htmltok's tokens in the html5lib-like form (end tags keep only their name, as the
/// html5lib tests do).
pub fn h5_from_toks(tokens: &[Tok]) -> Vec<H5> {
    let mut out = Vec::new();
    for t in tokens {
        push_h5(&mut out, h5_of(t));
    }
    out
}

pub fn h5_of(t: &Tok) -> H5 {
    match t {
        Tok::Doctype {
            name,
            public_id,
            system_id,
            force_quirks,
            ..
        } => H5::Doctype {
            name: name.clone(),
            public_id: public_id.clone(),
            system_id: system_id.clone(),
            force_quirks: *force_quirks,
        },
        Tok::Tag {
            end: false,
            name,
            attrs,
            self_closing,
            ..
        } => H5::StartTag {
            name: name.clone(),
            attrs: attrs
                .iter()
                .map(|a| (a.name.clone(), a.value.clone()))
                .collect(),
            self_closing: *self_closing,
        },
        Tok::Tag {
            end: true, name, ..
        } => H5::EndTag { name: name.clone() },
        Tok::Comment { data, .. } => H5::Comment(data.clone()),
        Tok::Text { text, .. } => H5::Character(text.clone()),
    }
}

/// The first difference between two html5lib-like token lists, with a little context.
pub fn diff_h5(what: &str, a: &[H5], b: &[H5]) -> Result<(), String> {
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if i == a.len() && i == b.len() {
        return Ok(());
    }
    let show = |v: &[H5]| -> String {
        v.iter()
            .skip(i.saturating_sub(2))
            .take(4)
            .map(|t| format!("\n    {}", clip(&format!("{t:?}"), 300)))
            .collect()
    };
    let mut detail = String::new();
    if let (
        Some(H5::StartTag {
            name: n1,
            attrs: a1,
            self_closing: s1,
        }),
        Some(H5::StartTag {
            name: n2,
            attrs: a2,
            self_closing: s2,
        }),
    ) = (a.get(i), b.get(i))
    {
        let only = |x: &[(String, String)], y: &[(String, String)]| -> Vec<String> {
            x.iter()
                .filter(|p| !y.contains(p))
                .map(|p| clip(&format!("{p:?}"), 200))
                .collect()
        };
        detail = format!(
            "\n  start tag {:?} vs {:?}, self-closing {s1} vs {s2}, {} vs {} attributes; \
             only in htmltok: {:?}; only in other: {:?}",
            clip(n1, 60),
            clip(n2, 60),
            a1.len(),
            a2.len(),
            only(a1, a2),
            only(a2, a1)
        );
    }
    Err(format!(
        "{what}: first difference at token {i} ({} vs {} tokens)\n  htmltok:{}\n  other:{}{detail}",
        a.len(),
        b.len(),
        show(a),
        show(b)
    ))
}

/// At most `n` bytes of `s` (on a character boundary), with `…` when cut.
pub fn clip(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

// ----- the stream tokenizer --------------------------------------------------------------

/// A token or a parse error, in the order a tokenizer hands them out: the errors found
/// while it worked on a token come before the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Error(ParseError),
    Token(Tok),
}

/// The whole-input tokenizer's events (errors through an error sink when `errors`).
pub fn whole_events(input: &[u8], options: &Options, errors: bool) -> Vec<Event> {
    use std::sync::{Arc, Mutex};
    let events = Arc::new(Mutex::new(Vec::new()));
    let builder = options.builder(errors, Scanner::best());
    let mut tok = if errors {
        let sink = Arc::clone(&events);
        builder.build_with_sink(input, move |e| sink.lock().unwrap().push(Event::Error(e)))
    } else {
        builder.build(input)
    };
    while let Some(token) = tok.next_token() {
        let t = owned(input, &token);
        events.lock().unwrap().push(Event::Token(t));
    }
    drop(tok);
    Arc::try_unwrap(events)
        .map(|m| m.into_inner().unwrap())
        .unwrap_or_default()
}

/// Text piece `b` appended to text `a` (`StreamTokenizer::text_continues`), or why not.
fn join_text(a: &mut Tok, b: Tok) -> Result<(), String> {
    match (&mut *a, &b) {
        (
            Tok::Text {
                span,
                text_span,
                kind,
                text,
            },
            Tok::Text {
                span: s2,
                text_span: t2,
                kind: k2,
                text: x2,
            },
        ) if kind == k2 && span.end == s2.start => {
            span.end = s2.end;
            text_span.end = t2.end;
            text.push_str(x2);
            Ok(())
        }
        _ => Err(format!(
            "a text piece said the run continues, but the next token is {b:?} (after {a:?})"
        )),
    }
}

/// The stream tokenizer's events over `input` fed in chunks of the sizes in `chunks`
/// (cycled; 0 is taken as 1), with text pieces joined; runs wait for at least `min_run`
/// and read at most `max_run` bytes. Checks on the way that every error's position
/// (`StreamTokenizer::position`) is `htmltok::position`'s, and that every piece that says
/// the run continues is followed by text that continues it.
pub fn stream_events(
    input: &[u8],
    options: &Options,
    errors: bool,
    chunks: &[usize],
    (min_run, max_run): (usize, usize),
) -> Result<Vec<Event>, String> {
    let mut stream = options.builder(errors, Scanner::best()).stream();
    stream.set_run_sizes(min_run, max_run);
    let mut events = Vec::new();
    let mut held: Option<Tok> = None;
    let mut fed = 0;
    let mut sizes = chunks.iter().cycle();
    let drain = |stream: &mut htmltok::StreamTokenizer,
                 events: &mut Vec<Event>,
                 held: &mut Option<Tok>|
     -> Result<(), String> {
        loop {
            let more = stream.advance();
            for &e in stream.errors() {
                events.push(Event::Error(e));
            }
            let n = stream.errors().len();
            for i in 0..n {
                let e = stream.errors()[i];
                let got = stream.position(e.offset);
                let want = htmltok::position(input, e.offset);
                if got != want {
                    return Err(format!(
                        "stream position of {e:?}: {got:?}, whole input: {want:?}"
                    ));
                }
            }
            if !more {
                return Ok(());
            }
            let base = stream.base();
            let token = stream.token().ok_or("advance() said true but no token")?;
            let tok = owned_at(input, &token, base);
            let continues = stream.text_continues();
            match held.take() {
                Some(mut prev) => {
                    join_text(&mut prev, tok)?;
                    *held = Some(prev);
                }
                None => *held = Some(tok),
            }
            if !continues {
                events.push(Event::Token(held.take().expect("held")));
            }
        }
    };
    while fed < input.len() {
        let size = (*sizes.next().unwrap_or(&1)).max(1);
        let end = fed.saturating_add(size).min(input.len());
        stream.feed(&input[fed..end]);
        fed = end;
        drain(&mut stream, &mut events, &mut held)?;
    }
    stream.finish();
    drain(&mut stream, &mut events, &mut held)?;
    if !stream.is_done() {
        return Err("the stream is not done after finish()".into());
    }
    if let Some(t) = held {
        return Err(format!("the last text piece says the run continues: {t:?}"));
    }
    if stream.next_token().is_some() {
        return Err("a token after the end".into());
    }
    Ok(events)
}

/// The first difference between two event lists, as a message.
pub fn diff_events(what: &str, a: &[Event], b: &[Event]) -> Result<(), String> {
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if i == a.len() && i == b.len() {
        return Ok(());
    }
    Err(format!(
        "{what}: first difference at event {i} of {} vs {}:\n  whole:  {:?}\n  stream: {:?}",
        a.len(),
        b.len(),
        a.get(i),
        b.get(i)
    ))
}

/// The stream tokenizer, fed `input` in chunks of the sizes in `chunks` (cycled), gives
/// the whole-input tokenizer's tokens (text pieces joined) and errors, in the same order,
/// errors off and on.
pub fn check_stream(
    input: &[u8],
    options: &Options,
    chunks: &[usize],
    runs: (usize, usize),
) -> Result<(), String> {
    for errors in [false, true] {
        let whole = whole_events(input, options, errors);
        let stream = stream_events(input, options, errors, chunks, runs)?;
        diff_events(
            &format!("whole input vs stream (errors {errors}, chunks {chunks:?}, runs {runs:?})"),
            &whole,
            &stream,
        )?;
    }
    Ok(())
}

/// Random [`Options`] for the property tests (feature `quickcheck`): mostly the data
/// state, the simulation and scripting mostly on, a last start tag sometimes.
#[cfg(feature = "quickcheck")]
mod arbitrary {
    use htmltok::State;
    use quickcheck::{Arbitrary, Gen};

    use super::{Options, STATES};

    fn one_in(g: &mut Gen, n: usize) -> bool {
        usize::arbitrary(g) % n == 0
    }

    impl Arbitrary for Options {
        fn arbitrary(g: &mut Gen) -> Self {
            let state = if bool::arbitrary(g) {
                State::Data
            } else {
                *g.choose(&STATES).unwrap()
            };
            Options {
                simulation: !one_in(g, 4),
                scripting: !one_in(g, 3),
                state,
                last_start_tag: g
                    .choose(&[
                        None,
                        Some("title"),
                        Some("script"),
                        Some("style"),
                        Some("xmp"),
                    ])
                    .unwrap()
                    .map(str::to_string),
                keep_bom: one_in(g, 4),
            }
        }

        fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
            let mut simpler = Vec::new();
            if self.state != State::Data {
                simpler.push(Options {
                    state: State::Data,
                    ..self.clone()
                });
            }
            if self.last_start_tag.is_some() {
                simpler.push(Options {
                    last_start_tag: None,
                    ..self.clone()
                });
            }
            Box::new(simpler.into_iter())
        }
    }
}

/// Decodes every string of a token; returns their total length (so that a timing loop
/// touches every string and nothing is optimised away).
pub fn decoded_len(token: &Token<'_, '_>) -> usize {
    match token {
        Token::Doctype(d) => {
            d.name().map_or(0, |s| s.len())
                + d.public_id().map_or(0, |s| s.len())
                + d.system_id().map_or(0, |s| s.len())
        }
        Token::StartTag(t) | Token::EndTag(t) => {
            t.name().len()
                + t.attrs()
                    .map(|a| a.name().len() + a.value().len())
                    .sum::<usize>()
        }
        Token::Comment(c) => c.data().len(),
        Token::Text(t) => t.text().len(),
    }
}
