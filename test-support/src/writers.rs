//! The CLI's JSON writers against the tokens they write: shared by the fuzz target
//! `writers` and `cli/tests/writers.rs`.

use crate::checks::{H5, Options, Tok, clip, h5_from_toks, owned, run};
use htmltok::{PositionTracker, Scanner};
use htmltok_cli::json;

// ----- JSON writers --------------------------------------------------------------------

/// `json::write_token` and `json::write_error` output parses as JSON with the token's own
/// fields; `json::html5lib` parses and lists the tokens and errors of the same run.
pub fn check_writers(input: &[u8], options: &Options) -> Result<(), String> {
    use serde_json::{Value, json};
    let parse = |s: &str| -> Result<Value, String> {
        serde_json::from_str(s).map_err(|e| format!("invalid JSON {s:?}: {e}"))
    };
    let mut tok = options.tokenizer(input, true, Scanner::best());
    while let Some(token) = tok.next_token() {
        let mut out = String::new();
        json::write_token(&mut out, &token);
        let v = parse(&out)?;
        let t = owned(input, &token);
        let span = t.span();
        let expected = match &t {
            Tok::Doctype {
                name,
                public_id,
                system_id,
                force_quirks,
                ..
            } => json!({"type": "Doctype", "start": span.start, "end": span.end,
                "name": name, "public_id": public_id, "system_id": system_id,
                "force_quirks": force_quirks}),
            Tok::Tag {
                end,
                name,
                attrs,
                self_closing,
                ..
            } => json!({"type": if *end { "EndTag" } else { "StartTag" },
                "start": span.start, "end": span.end, "name": name,
                "attrs": attrs.iter().map(|a| json!([a.name, a.value])).collect::<Vec<_>>(),
                "self_closing": self_closing}),
            Tok::Comment { data, .. } => {
                json!({"type": "Comment", "start": span.start, "end": span.end, "data": data})
            }
            Tok::Text { text, .. } => {
                json!({"type": "Text", "start": span.start, "end": span.end, "text": text})
            }
        };
        if v != expected {
            return Err(format!("write_token: {out} is not {expected}"));
        }
    }
    let mut tracker = PositionTracker::new(input);
    for e in tok.errors() {
        let p = tracker.position(e.offset);
        let mut out = String::new();
        json::write_error(&mut out, e, p);
        let v = parse(&out)?;
        let expected = json!({"type": "Error", "code": e.code.as_str(), "offset": e.offset,
            "line": p.line, "col": p.col});
        if v != expected {
            return Err(format!("write_error: {out} is not {expected}"));
        }
    }

    // json::html5lib: simulation off, errors on, the given state and last start tag.
    let s = json::html5lib(input, options.state, options.last_start_tag.as_deref());
    let v = parse(&s)?;
    let naive = Options {
        simulation: false,
        keep_bom: true,
        ..options.clone()
    };
    let run = run(input, &naive, true, Scanner::best());
    let mut output = Vec::new();
    for t in h5_from_toks(&run.tokens) {
        output.push(match t {
            H5::Doctype {
                name,
                public_id,
                system_id,
                force_quirks,
            } => json!(["DOCTYPE", name, public_id, system_id, !force_quirks]),
            H5::StartTag {
                name,
                attrs,
                self_closing,
            } => {
                let map: serde_json::Map<String, Value> = attrs
                    .into_iter()
                    .map(|(k, v)| (k, Value::String(v)))
                    .collect();
                if self_closing {
                    json!(["StartTag", name, map, true])
                } else {
                    json!(["StartTag", name, map])
                }
            }
            H5::EndTag { name } => json!(["EndTag", name]),
            H5::Comment(data) => json!(["Comment", data]),
            H5::Character(text) => json!(["Character", text]),
        });
    }
    let mut tracker = PositionTracker::new(input);
    let errors: Vec<Value> = run
        .errors
        .iter()
        .map(|e| {
            let p = tracker.position(e.offset);
            json!({"code": e.code.as_str(), "line": p.line, "col": p.col})
        })
        .collect();
    let expected = json!({"output": output, "errors": errors});
    if v != expected {
        return Err(format!(
            "json::html5lib: {} is not {}",
            clip(&s, 2000),
            clip(&expected.to_string(), 2000)
        ));
    }
    Ok(())
}
