//! The stream tokenizer (`StreamTokenizer`, `ReadTokenizer`) on real and test inputs: for
//! every input, options and chunking, the same tokens (text pieces joined) and errors as
//! the whole-input tokenizer, in the same order (`checks::check_stream`, which the
//! quickcheck properties in `properties.rs` and the `stream` fuzz target also run); its
//! memory stays bounded on hostile inputs; read errors come back as `io::Error`.

use htmltok_test_support::checks;
use htmltok_test_support::data;

use std::io::{self, Read};

use checks::{Options, STATES, check_stream};
use htmltok::{ReadTokenizer, State, StreamTokenizer, Token, Tokenizer};

/// Chunkings that cross run boundaries often: (chunk sizes, run sizes).
fn chunkings() -> Vec<(Vec<usize>, (usize, usize))> {
    vec![
        (vec![1], (1, 1)),
        (vec![1], (100, 200)),
        (vec![3, 17, 1, 64], (16, 32)),
        (vec![7, 200, 1], (300, 70)),
        (vec![usize::MAX], (64, 128)),
        (vec![65536], (4096, 256 * 1024)),
    ]
}

#[test]
fn regression_inputs_and_seeds_under_every_option_set() {
    let mut files = data::regression_inputs();
    let seeds = data::workspace_root().join("fuzz/seeds");
    for e in std::fs::read_dir(&seeds).expect("fuzz/seeds") {
        files.push(e.expect("entry").path());
    }
    let mut failures = Vec::new();
    for path in &files {
        let input = std::fs::read(path).expect("read input");
        for state in STATES {
            for simulation in [true, false] {
                for keep_bom in [false, true] {
                    let options = Options {
                        simulation,
                        state,
                        keep_bom,
                        last_start_tag: (state != State::Data).then(|| "title".to_string()),
                        ..Options::default()
                    };
                    for (chunks, runs) in chunkings() {
                        if let Err(e) = check_stream(&input, &options, &chunks, runs) {
                            failures.push(format!("{}: {options:?}: {e}", path.display()));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn html5lib_inputs() {
    let dir = match data::html5lib_dir() {
        Ok(dir) => dir,
        Err(message) => {
            return data::missing("the stream tokenizer on html5lib inputs", &message);
        }
    };
    let mut failures = Vec::new();
    let mut cases = 0;
    for entry in std::fs::read_dir(&dir).expect("html5lib dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "test") {
            continue;
        }
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
        let Some(tests) = json["tests"].as_array() else {
            continue;
        };
        for test in tests {
            if test["doubleEscaped"].as_bool().unwrap_or(false) {
                continue;
            }
            let input = test["input"].as_str().expect("input").as_bytes();
            let states: Vec<State> = match test["initialStates"].as_array() {
                Some(s) => s
                    .iter()
                    .map(|v| State::from_html5lib_name(v.as_str().unwrap()).unwrap())
                    .collect(),
                None => vec![State::Data],
            };
            for state in states {
                let options = Options {
                    simulation: false,
                    state,
                    keep_bom: true,
                    last_start_tag: test["lastStartTag"].as_str().map(str::to_string),
                    ..Options::default()
                };
                for (chunks, runs) in chunkings().into_iter().take(3) {
                    cases += 1;
                    if let Err(e) = check_stream(input, &options, &chunks, runs) {
                        failures.push(format!("{}: {input:?} {options:?}: {e}", path.display()));
                    }
                }
            }
        }
    }
    assert!(cases > 1000, "only {cases} html5lib cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn corpus_pages() {
    let dir = data::real_or_bundled_corpus("the stream tokenizer on the real corpus");
    let manifest = data::Manifest::read(&dir);
    let mut failures = Vec::new();
    for (i, page) in manifest.paths().iter().enumerate() {
        let input = std::fs::read(dir.join(page)).expect("read page");
        let mut runs = vec![(vec![65536], (4096, 256 * 1024))];
        if i % 4 == 0 {
            runs.push((vec![1000, 7, 3000], (512, 2048)));
        }
        if i % 16 == 0 {
            runs.push((vec![1], (4096, 256 * 1024)));
        }
        for (chunks, sizes) in runs {
            if let Err(e) = check_stream(&input, &Options::default(), &chunks, sizes) {
                failures.push(format!("{page}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Feeds `input` in 64 KiB chunks and returns the most the stream held, and the tokens.
fn peak_buffered(input: &[u8], builder: htmltok::Builder) -> (usize, usize) {
    let mut stream = builder.stream();
    let (mut peak, mut tokens) = (0, 0);
    for chunk in input.chunks(64 * 1024) {
        stream.feed(chunk);
        peak = peak.max(stream.buffered());
        while stream.next_token().is_some() {
            tokens += 1;
        }
    }
    stream.finish();
    while stream.next_token().is_some() {
        tokens += 1;
    }
    (peak, tokens)
}

#[test]
fn memory_stays_bounded_on_long_runs() {
    let mb = 8 << 20;
    let bound = 1 << 20;
    // Text with spaces, `<<<…` (a parse error per byte), many small tags, an RCDATA run.
    let spaced = b"word ".repeat(mb / 5);
    let less = vec![b'<'; mb];
    let tags = b"<p class=x>a</p>".repeat(mb / 16);
    let mut title = b"<title>".to_vec();
    title.extend(b"x y ".repeat(mb / 4));
    for (name, input) in [
        ("spaced", &spaced),
        ("<<<", &less),
        ("tags", &tags),
        ("title", &title),
    ] {
        for errors in [false, true] {
            let (peak, tokens) = peak_buffered(input, Tokenizer::builder().errors(errors));
            assert!(peak < bound, "{name} (errors {errors}): held {peak} bytes");
            assert!(tokens > 0);
        }
    }
    // Without a cut point, a text run is held whole (documented).
    let (peak, _) = peak_buffered(&vec![b'x'; mb], Tokenizer::builder());
    assert!(peak >= mb / 2, "{peak}");
}

#[test]
fn text_pieces_say_that_the_run_goes_on() {
    let input = b"<p>"
        .iter()
        .chain(b"one two ".repeat(10_000).iter())
        .copied()
        .collect::<Vec<u8>>();
    let mut stream = StreamTokenizer::new();
    let mut pieces = Vec::new();
    let mut text = String::new();
    for chunk in input.chunks(1000) {
        stream.feed(chunk);
        while stream.advance() {
            if let Some(Token::Text(t)) = stream.token() {
                text.push_str(&t.text());
                pieces.push(stream.text_continues());
            }
        }
    }
    stream.finish();
    while stream.advance() {
        if let Some(Token::Text(t)) = stream.token() {
            text.push_str(&t.text());
            pieces.push(stream.text_continues());
        }
    }
    assert!(pieces.len() > 10, "{} pieces", pieces.len());
    assert_eq!(pieces.last(), Some(&false));
    assert!(pieces[..pieces.len() - 1].iter().all(|&c| c));
    assert_eq!(text, "one two ".repeat(10_000));
}

#[test]
fn a_frameset_after_the_dropped_prefix_is_decided_as_in_one_piece() {
    for prefix in [
        "",
        "<head><title>t</title></head>",
        "<p>x</p>",
        "&#32; ",
        "<br>",
        "\0",
    ] {
        let mut input = prefix.as_bytes().to_vec();
        input.extend(b"<!-- pad -->\n".repeat(2000));
        input.extend(b"<frameset><noframes>&lt;x</noframes><plaintext>y<z>");
        for (chunks, runs) in chunkings() {
            check_stream(&input, &Options::default(), &chunks, runs)
                .unwrap_or_else(|e| panic!("prefix {prefix:?}: {e}"));
        }
    }
}

#[test]
fn the_stack_of_open_elements_before_the_dropped_prefix_decides_as_in_one_piece() {
    // The simulation's decisions that depend on HTML elements opened long before (a
    // whole-input tokenizer re-reads the document for them; a stream tracks them).
    for (prefix, rest) in [
        ("<div>", "<svg></div><style>a<b></style>"),
        ("", "<svg></div><style>a<b></style>"),
        ("<table>", "<svg><foreignObject><td><style>a<b></style>"),
        (
            "<table><td>",
            "<svg><foreignObject></table><![CDATA[a<b>]]>",
        ),
        ("<template><col>", "<title>a<b></title><svg><style>a<b>"),
        ("<b><div>", "<svg></b><style>a<b></style>"),
        ("<ul><select>", "<svg></ul><style>a<b></style>"),
        ("<path>", "<math></path><noscript/>a<b>"),
    ] {
        let mut input = prefix.as_bytes().to_vec();
        input.extend(b"<!-- pad -->\n".repeat(2000));
        input.extend(rest.as_bytes());
        for (chunks, runs) in chunkings() {
            check_stream(&input, &Options::default(), &chunks, runs)
                .unwrap_or_else(|e| panic!("prefix {prefix:?}: {e}"));
        }
    }
}

/// A reader that gives `ok` bytes, then fails.
struct Failing<'a> {
    data: &'a [u8],
}

impl Read for Failing<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() {
            return Err(io::Error::other("disk on fire"));
        }
        let n = buf.len().min(self.data.len()).min(100);
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn read_errors_come_back_as_io_errors() {
    let page = b"<p>hello</p>".repeat(1000);
    let mut tok = Tokenizer::builder().reader(Failing { data: &page });
    let mut tokens = 0;
    let error = loop {
        match tok.next_token() {
            Ok(Some(_)) => tokens += 1,
            Ok(None) => panic!("the end came before the error"),
            Err(e) => break e,
        }
    };
    assert_eq!(error.to_string(), "disk on fire");
    assert!(tokens > 0);
    // Interrupted reads are retried; a reader's end finishes the stream.
    let mut tok = ReadTokenizer::new(&b"<a href=x>y"[..]);
    let mut names = Vec::new();
    while let Some(token) = tok.next_token().expect("no error") {
        if let Token::StartTag(t) = token {
            names.push(t.name().into_owned());
        }
    }
    assert_eq!(names, ["a"]);
    assert!(tok.stream().is_done());
}

/// A token longer than a run can be (4 GiB; here lowered to 1 KiB) stops the stream with
/// an error instead of a wrong token or an endless wait; the tokens before it came out.
#[test]
fn a_token_too_large_to_record_is_an_error() {
    let mut input = b"<p>before</p><!--".to_vec();
    input.extend(std::iter::repeat_n(b'x', 5000));
    input.extend_from_slice(b"--><p>after");
    let mut stream = Tokenizer::builder().stream();
    stream.set_max_window(1024);
    stream.set_run_sizes(64, 256);
    let mut kinds = Vec::new();
    for chunk in input.chunks(100) {
        stream.feed(chunk);
        while let Some(token) = stream.next_token() {
            kinds.push(format!("{token:?}").chars().take(5).collect::<String>());
        }
    }
    stream.finish();
    while stream.next_token().is_some() {}
    assert!(stream.is_too_large() && !stream.is_done());
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    // A window that fits the whole comment gives every token.
    let mut stream = Tokenizer::builder().stream();
    stream.set_max_window(8192);
    stream.feed(&input);
    stream.finish();
    let mut n = 0;
    while stream.next_token().is_some() {
        n += 1;
    }
    assert!(stream.is_done() && !stream.is_too_large());
    assert_eq!(n, 6);
    // Through a reader: an InvalidData error, not a panic or a hang.
    let mut reader = Tokenizer::builder().reader(&input[..]);
    reader.stream_mut().set_max_window(1024);
    let err = loop {
        match reader.advance() {
            Ok(true) => {}
            Ok(false) => panic!("the reader ended without reporting the large token"),
            Err(err) => break err,
        }
    };
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    assert!(err.to_string().contains("byte 13"), "{err}");
}
