//! `htmltok extract --format jsonl`: one JSON object per document.

use std::io::{BufWriter, Write as _};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use htmltok::Tokenizer;
use htmltok_crawl::extract::{
    MAIN_CONFIDENCE, MAIN_KIND, MAIN_MARKDOWN, MAIN_TEXT, Page, TreeColumns,
};
use htmltok_tree::Parser;

use crate::json;

use crate::Failure;
use crate::args::{SharedOut, Written};

use super::command::{Args, create, fields, page, tree_columns};
use super::metadata;

pub(super) fn run(args: &Args) -> Result<ExitCode, Failure> {
    let fields = fields(args)?;
    let names: Vec<&str> = fields.fields().iter().map(|f| f.name.as_str()).collect();
    let file = match &args.output {
        Some(path) => Some(Mutex::new(BufWriter::with_capacity(
            256 * 1024,
            create(path)?,
        ))),
        None => None,
    };
    let out = SharedOut::new();
    let stop = out.stop_flag();
    let error = Mutex::new(None);
    let finished = args.corpus.run(
        Tokenizer::builder(),
        // The tree is parsed as each page is decoded when the fields or the tree's
        // columns read it (the late `<meta>` then decided by the tree builder).
        (!fields.is_empty() || tree_columns(args).any()).then(Parser::new),
        stop.clone(),
        |document| {
            let page = page(args, &fields, &document);
            let mut line = String::with_capacity(page.text.len() + 256);
            write_json(
                &mut line,
                &page,
                !args.no_links,
                !args.no_text,
                &names,
                tree_columns(args),
            );
            match &file {
                Some(file) => {
                    if stop.load(Ordering::Relaxed) {
                        return 0;
                    }
                    let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                    if let Err(err) = file.write_all(line.as_bytes()) {
                        stop.store(true, Ordering::Relaxed);
                        error
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(err);
                    }
                }
                None => out.write(line.as_bytes()),
            }
            1
        },
        |a, b| a + b,
        || 0,
    )?;
    out.finish()?;
    if let Some(err) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(Failure::Output(err));
    }
    if let Some(file) = file {
        let mut file = file.into_inner().unwrap_or_else(|e| e.into_inner());
        file.flush()?;
    }
    Ok(finished.exit_code(Some(Written {
        rows: finished.result.value,
        noun: ("row", "rows"),
        to: args.output.as_deref(),
    })))
}

/// Appends one JSON line (with its newline) for `page`, the field columns
/// ([`Page::fields`]) after the page's, under `names` (a field the page lacks is null),
/// then the columns of `tree`: `main_text`, `main_kind` and `main_confidence`
/// ([`Page::main_text`], [`Page::main_kind`], [`Page::main_confidence`]) and the metadata's
/// ([`Page::metadata`]), null where the page lacks them.
fn write_json(
    line: &mut String,
    page: &Page,
    links: bool,
    text: bool,
    names: &[&str],
    tree: TreeColumns,
) {
    let opt = |line: &mut String, value: Option<&str>| match value {
        Some(value) => json::write_str(line, value),
        None => line.push_str("null"),
    };
    let num = |line: &mut String, value: Option<u64>| match value {
        Some(value) => line.push_str(&value.to_string()),
        None => line.push_str("null"),
    };
    line.push_str("{\"warc_filename\":");
    json::write_str(line, &page.source);
    line.push_str(",\"warc_record_offset\":");
    num(line, page.offset);
    line.push_str(",\"warc_record_length\":");
    num(line, page.length);
    line.push_str(",\"warc_record_id\":");
    opt(line, page.warc_record_id.as_deref());
    line.push_str(",\"url\":");
    opt(line, page.url.as_deref());
    line.push_str(",\"fetch_time\":");
    opt(line, page.fetch_time.as_deref());
    line.push_str(",\"fetch_status\":");
    num(line, page.fetch_status.map(u64::from));
    line.push_str(",\"content_mime_type\":");
    opt(line, page.content_mime_type.as_deref());
    line.push_str(",\"encoding\":");
    opt(line, page.encoding);
    line.push_str(",\"encoding_rule\":");
    opt(line, page.rule.map(|r| r.as_str()));
    line.push_str(",\"title\":");
    opt(line, page.title.as_deref());
    line.push_str(",\"links\":");
    if links {
        line.push('[');
        for (i, link) in page.links.iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            json::write_str(line, &link.url);
        }
        line.push(']');
    } else {
        line.push_str("null");
    }
    line.push_str(",\"text\":");
    opt(line, text.then_some(page.text.as_str()));
    for (i, name) in names.iter().enumerate() {
        line.push(',');
        json::write_str(line, name);
        line.push(':');
        match page.fields.get(i) {
            Some(values) => {
                line.push('[');
                for (j, v) in values.iter().enumerate() {
                    if j > 0 {
                        line.push(',');
                    }
                    json::write_str(line, v);
                }
                line.push(']');
            }
            None => line.push_str("null"),
        }
    }
    if tree.main_text {
        let key = json::write_key;
        key(line, MAIN_TEXT);
        opt(line, page.main_text.as_deref());
        key(line, MAIN_KIND);
        opt(line, page.main_kind.map(|k| k.as_str()));
        key(line, MAIN_CONFIDENCE);
        match page.main_confidence {
            Some(confidence) => json::write_f32(line, confidence),
            None => line.push_str("null"),
        }
    }
    if tree.main_markdown {
        json::write_key(line, MAIN_MARKDOWN);
        opt(line, page.main_markdown.as_deref());
    }
    if tree.metadata {
        metadata::write_members(line, page.metadata.as_deref());
    }
    line.push_str("}\n");
}
