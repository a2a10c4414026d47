//! `htmltok extract`: JSON lines and Parquet of the bundled corpus, the Parquet read back
//! with the parquet crate's reader and compared with the JSON lines.

use std::path::{Path, PathBuf};
use std::process::Command;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_htmltok");

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus")
}

fn htmltok(args: &[&str]) -> std::process::Output {
    let output = Command::new(BIN).args(args).output().expect("run htmltok");
    assert!(
        output.status.success(),
        "htmltok {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A Parquet record batch as JSON objects (the JSON lines' shape).
fn rows(batch: &RecordBatch) -> Vec<Value> {
    let schema = batch.schema();
    (0..batch.num_rows())
        .map(|i| {
            let mut row = serde_json::Map::new();
            for (field, column) in schema.fields().iter().zip(batch.columns()) {
                row.insert(field.name().clone(), value(column.as_ref(), i));
            }
            Value::Object(row)
        })
        .collect()
}

/// Row `i` of a column as JSON: lists as arrays, structs as objects.
fn value(column: &dyn Array, i: usize) -> Value {
    if column.is_null(i) {
        return Value::Null;
    }
    match column.data_type() {
        DataType::List(_) => {
            let list = column.as_list::<i32>().value(i);
            json!((0..list.len()).map(|j| value(&list, j)).collect::<Vec<_>>())
        }
        DataType::Struct(fields) => {
            let columns = column.as_struct();
            let mut object = serde_json::Map::new();
            for (field, child) in fields.iter().zip(columns.columns()) {
                object.insert(field.name().clone(), value(child.as_ref(), i));
            }
            Value::Object(object)
        }
        DataType::Int64 => json!(column.as_primitive::<Int64Type>().value(i)),
        DataType::Int32 => json!(column.as_primitive::<Int32Type>().value(i)),
        DataType::Boolean => json!(column.as_boolean().value(i)),
        DataType::Utf8 => json!(column.as_string::<i32>().value(i)),
        // As the JSON lines write it (the shortest form that reads back as the f32).
        DataType::Float32 => {
            let x = column.as_primitive::<Float32Type>().value(i);
            serde_json::from_str(&format!("{x:?}")).unwrap()
        }
        other => panic!("a column of type {other} in the Parquet file"),
    }
}

/// The columns, in order (those of `htmltok_crawl::extract::columns::COLUMNS`).
const COLUMNS: [&str; 13] = [
    "warc_filename",
    "warc_record_offset",
    "warc_record_length",
    "warc_record_id",
    "url",
    "fetch_time",
    "fetch_status",
    "content_mime_type",
    "encoding",
    "encoding_rule",
    "title",
    "links",
    "text",
];

/// The rows of a Parquet file written by `extract`, as JSON values ([`rows`]).
fn parquet_rows(path: &std::path::Path) -> Vec<Value> {
    ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap())
        .unwrap()
        .build()
        .unwrap()
        .flat_map(|b| rows(&b.unwrap()))
        .collect()
}

/// The rows of `extract`'s JSON lines output.
fn json_lines(out: &[u8]) -> Vec<Value> {
    std::str::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn key(row: &Value) -> (String, i64) {
    (
        row["warc_filename"].as_str().unwrap().to_string(),
        row["warc_record_offset"].as_i64().unwrap_or(-1),
    )
}

#[test]
fn parquet_equals_json_lines_on_the_bundled_corpus() {
    let corpus = corpus();
    let corpus = corpus.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("htmltok-extract-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let parquet = dir.join("pages.parquet");
    let jsonl = dir.join("pages.jsonl");
    htmltok(&[
        "extract",
        "--format",
        "parquet",
        "-o",
        parquet.to_str().unwrap(),
        corpus,
    ]);
    htmltok(&["extract", "--output", jsonl.to_str().unwrap(), corpus]);
    let stdout = htmltok(&["extract", "-j", "1", corpus]).stdout;

    let mut from_parquet = parquet_rows(&parquet);
    let mut from_jsonl = json_lines(&std::fs::read(&jsonl).unwrap());
    let mut from_stdout = json_lines(&stdout);
    // 10 pages and the 7 HTML records of the sample WARC file
    assert_eq!(from_parquet.len(), 17);
    for rows in [&mut from_parquet, &mut from_jsonl, &mut from_stdout] {
        rows.sort_by_key(key);
    }
    assert_eq!(from_parquet, from_jsonl);
    assert_eq!(from_parquet, from_stdout);
    // The JSON keys, in order, are the Parquet columns (serde_json's map sorts them:
    // find each in the line).
    let first_line = std::str::from_utf8(&stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    let object: serde_json::Map<String, Value> = serde_json::from_str(first_line).unwrap();
    assert_eq!(object.len(), COLUMNS.len());
    let places: Vec<usize> = COLUMNS
        .iter()
        .map(|c| first_line.find(&format!("\"{c}\":")).unwrap())
        .collect();
    assert!(places.is_sorted(), "{first_line}");

    let article = from_parquet
        .iter()
        .find(|r| {
            r["warc_filename"]
                .as_str()
                .unwrap()
                .ends_with("article.html")
        })
        .unwrap();
    assert_eq!(article["title"], "Tide tables & the moon — a field guide");
    for column in [
        "warc_record_offset",
        "warc_record_length",
        "warc_record_id",
        "url",
        "fetch_time",
        "fetch_status",
        "content_mime_type",
    ] {
        assert_eq!(article[column], Value::Null, "{column}");
    }
    assert!(article["text"].as_str().unwrap().starts_with("Home"));
    let records: Vec<&Value> = from_parquet
        .iter()
        .filter(|r| {
            r["warc_filename"]
                .as_str()
                .unwrap()
                .ends_with("sample.warc.gz")
        })
        .collect();
    assert_eq!(records.len(), 7);
    assert!(
        records
            .iter()
            .all(|r| r["warc_record_length"].as_i64().unwrap() > 0)
    );
    let kettle = records
        .iter()
        .find(|r| r["url"] == "https://www.shop.example.com/p/halden-glass-kettle-48213")
        .unwrap();
    assert_eq!(kettle["encoding"], "UTF-8");
    // The join columns, as the record's WARC and HTTP headers give them.
    assert_eq!(
        kettle["warc_record_id"],
        "<urn:uuid:02180b65-22d5-5777-9ce7-00da28232cc2>"
    );
    assert_eq!(kettle["fetch_time"], "2026-11-05T07:00:04Z");
    assert_eq!(kettle["fetch_status"], 200);
    assert_eq!(kettle["content_mime_type"], "text/html");
    let redirect = records
        .iter()
        .find(|r| r["url"] == "http://tides.example.org/2026/11/tide-tables-and-the-moon")
        .unwrap();
    assert_eq!(redirect["fetch_status"], 301);
    assert_eq!(redirect["fetch_time"], "2026-11-05T07:00:02Z");
    let ids: std::collections::BTreeSet<&str> = records
        .iter()
        .map(|r| r["warc_record_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 7);
    assert!(!kettle["links"].as_array().unwrap().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn parquet_needs_an_output_and_options_null_columns() {
    let output = Command::new(BIN)
        .args(["extract", "--format", "parquet", "x.html"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--output"));
    let page = corpus().join("article.html");
    let stdout = htmltok(&["extract", "--no-links", "--no-text", page.to_str().unwrap()]).stdout;
    let row: Value = serde_json::from_slice(&stdout).unwrap();
    assert_eq!(row["links"], Value::Null);
    assert_eq!(row["text"], Value::Null);
    assert_eq!(row["encoding_rule"], "meta");
}

#[test]
fn parquet_schema_is_the_columns() {
    let dir = std::env::temp_dir().join(format!("htmltok-extract-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let parquet = dir.join("pages.parquet");
    let page = corpus().join("article.html");
    htmltok(&[
        "extract",
        "--format",
        "parquet",
        "-o",
        parquet.to_str().unwrap(),
        page.to_str().unwrap(),
    ]);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&parquet).unwrap()).unwrap();
    let names: Vec<String> = builder
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, COLUMNS);
    assert_eq!(
        htmltok_crawl::extract::columns::COLUMNS,
        COLUMNS,
        "the columns of the crate"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An ARC v1 file: the `filedesc://` record, then one HTTP response per page, each
/// record gzipped alone when `gzip`.
fn arc_file(pages: &[(&str, &str, &[u8])], gzip: bool) -> Vec<u8> {
    let mut records: Vec<Vec<u8>> = Vec::new();
    let version = b"1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n";
    let mut filedesc = format!(
        "filedesc://x.arc 0.0.0.0 20140216050221 text/plain {}\n",
        version.len()
    )
    .into_bytes();
    filedesc.extend_from_slice(version);
    filedesc.push(b'\n');
    records.push(filedesc);
    for (url, status, html) in pages {
        let mut http = format!(
            "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: {}\r\n\r\n",
            html.len()
        )
        .into_bytes();
        http.extend_from_slice(html);
        let mut record = format!(
            "{url} 93.184.216.119 20140216050221 text/html {}\n",
            http.len()
        )
        .into_bytes();
        record.extend_from_slice(&http);
        record.push(b'\n');
        records.push(record);
    }
    if !gzip {
        return records.concat();
    }
    records
        .iter()
        .flat_map(|record| gzip_stored(record))
        .collect()
}

/// `data` as one gzip member of stored (uncompressed) deflate blocks.
fn gzip_stored(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    let mut chunks = data.chunks(0xffff).peekable();
    if chunks.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(chunk) = chunks.next() {
        out.push(u8::from(chunks.peek().is_none()));
        let len = chunk.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(chunk);
    }
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    out.extend_from_slice(&(!crc).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

#[test]
fn arc_records_fill_the_join_columns_and_counts_are_summed_up() {
    let dir = std::env::temp_dir().join(format!("htmltok-extract-arc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pages: [(&str, &str, &[u8]); 2] = [
        (
            "http://example.com/",
            "200 OK",
            b"<title>Example</title><a href=/a>a</a>",
        ),
        (
            "http://example.com/gone",
            "404 Not Found",
            b"<title>Gone</title>",
        ),
    ];
    for (name, gzip) in [("plain.arc", false), ("members.arc.gz", true)] {
        let path = dir.join(name);
        std::fs::write(&path, arc_file(&pages, gzip)).unwrap();
        let output = htmltok(&["extract", "-j", "1", path.to_str().unwrap()]);
        let rows: Vec<Value> = std::str::from_utf8(&output.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), 2, "{name}");
        for (row, (url, status, _)) in rows.iter().zip(pages) {
            assert_eq!(row["url"], url, "{name}");
            assert_eq!(
                row["warc_record_id"],
                Value::Null,
                "{name}: ARC has no record IDs"
            );
            assert_eq!(row["fetch_time"], "2014-02-16T05:02:21Z", "{name}");
            let code: u64 = status[..3].parse().unwrap();
            assert_eq!(row["fetch_status"], code, "{name}");
            assert_eq!(row["content_mime_type"], "text/html", "{name}");
            assert!(row["warc_record_offset"].as_u64().unwrap() > 0, "{name}");
        }
        assert_eq!(rows[0]["title"], "Example");
        assert_eq!(rows[0]["links"], json!(["http://example.com/a"]));
        // The filedesc:// record is not a document, and is counted so.
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.ends_with("; not documents warcinfo=1\n"),
            "{name}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_summary_ends_the_run_on_standard_error() {
    let warc = corpus().join("sample.warc.gz");
    let output = htmltok(&["extract", "--no-text", warc.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.lines().last(),
        Some(
            "htmltok summary: 7 documents; 7 rows written to standard output; not documents \
             request=8 metadata=1 not-html=1 warcinfo=1"
        ),
        "{stderr}"
    );
    // Nothing to count: the documents and rows alone.
    let page = corpus().join("article.html");
    let output = htmltok(&["extract", page.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "htmltok summary: 1 document; 1 row written to standard output\n"
    );
    // A folder: what the walk passed over is said, with the flag that takes it.
    let output = htmltok(&["extract", "--no-text", corpus().to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.ends_with(
            "; passed over in folders not-html-name=2 (--all-files reads files of any name)\n"
        ),
        "{stderr}"
    );
    // A file cut off in its last response: the record is read in part (its header, HTTP
    // head and the start of its body decompressed), a document counted with its note.
    let dir = std::env::temp_dir().join(format!("htmltok-extract-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("cut.warc.gz");
    let raw = std::fs::read(&warc).unwrap();
    let by_reason = |bytes: &[u8], code: i32| {
        std::fs::write(&cut, bytes).unwrap();
        let output = Command::new(BIN)
            .args(["extract", "--format", "parquet", "-o"])
            .arg(dir.join("cut.parquet"))
            .arg(&cut)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(code));
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        stderr
            .lines()
            .find(|l| l.starts_with("htmltok summary: "))
            .unwrap_or_else(|| panic!("{stderr}"))
            .to_string()
    };
    let line = by_reason(&raw[..raw.len() - 500], 0);
    assert!(
        line.contains("rows written to ") && line.contains("cut.parquet"),
        "{line}"
    );
    assert!(line.ends_with("; recovered record-cut-off=1"), "{line}");
    // Cut inside the last member's gzip header, nothing of it decompressed: its failure is
    // counted too, and the exit status is 1.
    let last = raw
        .windows(3)
        .rposition(|w| w == [0x1f, 0x8b, 0x08])
        .unwrap();
    let line = by_reason(&raw[..last + 6], 1);
    assert!(line.contains("; not read bad-gzip-member=1"), "{line}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--field NAME=SELECTOR` columns: the same in Parquet (lists of strings, after the
/// page's columns) and in JSON lines.
#[test]
fn fields_in_parquet_equal_json_lines() {
    let corpus = corpus();
    let corpus = corpus.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("htmltok-fields-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let parquet = dir.join("pages.parquet");
    let fields = [
        "--field",
        "title_text=html|title::text",
        "--field",
        "hrefs=a[href]::attr(href)",
        "--field",
        "h1=h1",
    ];
    let mut args = vec![
        "extract",
        "--format",
        "parquet",
        "-o",
        parquet.to_str().unwrap(),
    ];
    args.extend(fields);
    args.push(corpus);
    htmltok(&args);
    let mut args = vec!["extract", "-j", "1"];
    args.extend(fields);
    args.push(corpus);
    let stdout = htmltok(&args).stdout;
    let mut from_parquet = parquet_rows(&parquet);
    let mut from_jsonl = json_lines(&stdout);
    assert_eq!(from_parquet.len(), 17);
    from_parquet.sort_by_key(key);
    from_jsonl.sort_by_key(key);
    assert_eq!(from_parquet, from_jsonl);
    for row in &from_parquet {
        // title::text is the title element's text, which `title` strips and collapses.
        let texts = row["title_text"].as_array().unwrap();
        match row["title"].as_str() {
            Some(title) if !title.is_empty() => {
                let joined: String = texts.iter().map(|t| t.as_str().unwrap()).collect();
                assert_eq!(
                    joined.split_whitespace().collect::<Vec<_>>().join(" "),
                    title
                );
            }
            _ => {}
        }
        for h1 in row["h1"].as_array().unwrap() {
            assert!(h1.as_str().unwrap().starts_with("<h1"), "{h1}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--main-text`: the `main_text`, `main_kind` and `main_confidence` columns
/// (htmltok-content's main text of the decoded page), the same in Parquet and JSON
/// lines, alongside fields; without it, no such columns.
#[test]
fn main_text_column_in_parquet_and_json_lines() {
    let corpus = corpus();
    let dir = std::env::temp_dir().join(format!("htmltok-main-text-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let parquet = dir.join("pages.parquet");
    let p = parquet.to_str().unwrap();
    let c = corpus.to_str().unwrap();
    htmltok(&[
        "extract",
        "--format",
        "parquet",
        "-o",
        p,
        "--main-text",
        "--field",
        "h1=h1::text",
        c,
    ]);
    let stdout = htmltok(&[
        "extract",
        "-j",
        "1",
        "--main-text",
        "--field",
        "h1=h1::text",
        c,
    ])
    .stdout;
    let mut from_parquet = parquet_rows(&parquet);
    let mut from_jsonl = json_lines(&stdout);
    from_parquet.sort_by_key(key);
    from_jsonl.sort_by_key(key);
    assert_eq!(from_parquet, from_jsonl);
    let article = corpus.join("article.html");
    let row = from_jsonl
        .iter()
        .find(|r| r["warc_filename"] == article.to_str().unwrap())
        .expect("article.html");
    let html = std::fs::read(&article).unwrap();
    let doc = htmltok_tree::parse(&html);
    let expected = htmltok_content::main_text(&doc, &Default::default()).text;
    assert!(!expected.is_empty());
    assert_eq!(row["main_text"], expected.as_str());
    assert!(from_jsonl.iter().all(|r| r["main_text"].is_string()));
    // The page's kind and the confidence come with the main text, after it.
    let main = htmltok_content::main_text(&doc, &Default::default());
    assert_eq!(row["main_kind"], main.kind.as_str());
    assert_eq!(
        row["main_confidence"].as_f64().map(|c| c as f32),
        Some(main.confidence)
    );
    let line = std::str::from_utf8(&stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap();
    let at = |key: &str| line.find(&format!("\"{key}\":")).unwrap();
    assert!(at("main_text") < at("main_kind") && at("main_kind") < at("main_confidence"));
    for r in &from_jsonl {
        assert!(
            r["main_kind"].is_string() && r["main_confidence"].is_f64(),
            "{r}"
        );
    }

    let plain = htmltok(&["extract", "-j", "1", c]).stdout;
    let first: Value =
        serde_json::from_str(std::str::from_utf8(&plain).unwrap().lines().next().unwrap()).unwrap();
    assert!(first.get("main_text").is_none(), "{first}");
    assert!(first.get("main_kind").is_none(), "{first}");

    let clash = Command::new(BIN)
        .args(["extract", "--main-text", "--field", "main_text=p", c])
        .output()
        .unwrap();
    assert!(!clash.status.success());
    assert!(String::from_utf8_lossy(&clash.stderr).contains("\"main_text\""));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--metadata`: the metadata columns (htmltok-content's metadata, URLs resolved), the
/// same in Parquet and JSON lines on the bundled corpus and a crafted page; every name of
/// `METADATA_COLUMNS` in its order; a field may not take one of their names.
#[test]
fn metadata_columns_in_parquet_and_json_lines() {
    let dir = std::env::temp_dir().join(format!("htmltok-metadata-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(corpus().join("article.html"), dir.join("article.html")).unwrap();
    std::fs::write(
        dir.join("crafted.html"),
        br#"<html lang=de-AT><head><base href="/b/">
<link rel="Canonical" href="c.html"><meta name=robots content="noindex, max-snippet:20, max-image-preview:large, whatever">
<meta name=googlebot content="nosnippet"><meta name=description content=" A page ">
<meta property=og:image content=1><meta property=og:image content=2><meta name=twitter:card content=summary>
<meta http-equiv=content-language content=fr><meta http-equiv=refresh content="7;URL='next'">
<link rel=alternate hreflang=en href="/en/"><script type="application/ld+json">{"@type":"Thing"}</script>
</head><body><a href=/ad rel="sponsored">ad</a><a href=/x rel="ugc nofollow">x</a><p>text"#,
    )
    .unwrap();
    let parquet = dir.join("pages.parquet");
    let (p, d) = (parquet.to_str().unwrap(), dir.to_str().unwrap());
    let base = ["--base", "https://example.org/dir/page.html"];
    let common = ["extract", "-j", "1", "--metadata", base[0], base[1]];
    htmltok(&[&common[..], &["--format", "parquet", "-o", p, d]].concat());
    let stdout = htmltok(&[&common[..], &[d]].concat()).stdout;
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&parquet).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.map(|b| b.unwrap()).collect();
    let names: Vec<String> = batches[0]
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let metadata_columns = htmltok_crawl::extract::METADATA_COLUMNS;
    assert_eq!(names[COLUMNS.len()..], metadata_columns);
    let mut from_parquet: Vec<Value> = batches.iter().flat_map(rows).collect();
    let mut from_jsonl = json_lines(&stdout);
    from_parquet.sort_by_key(key);
    from_jsonl.sort_by_key(key);
    assert_eq!(from_parquet, from_jsonl);
    let crafted = from_jsonl
        .iter()
        .find(|r| {
            r["warc_filename"]
                .as_str()
                .unwrap()
                .ends_with("crafted.html")
        })
        .unwrap();
    // The keys in the line's order (serde_json's map sorts them): the metadata's after
    // the page's, in their order.
    let line = std::str::from_utf8(&stdout)
        .unwrap()
        .lines()
        .find(|l| l.contains("crafted.html"))
        .unwrap();
    let at = |name: &str| line.find(&format!(",\"{name}\":")).expect(name);
    let places: Vec<usize> = metadata_columns.iter().map(|name| at(name)).collect();
    assert!(places.windows(2).all(|w| w[0] < w[1]), "{line}");
    assert!(at("text") < places[0]);
    let metadata: serde_json::Map<String, Value> = crafted
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| metadata_columns.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let robots = |flags: &[&str], max_snippet: Value, preview: Value, other: Value| {
        let mut r = serde_json::Map::new();
        for flag in [
            "noindex",
            "nofollow",
            "noarchive",
            "nosnippet",
            "noimageindex",
            "notranslate",
            "indexifembedded",
        ] {
            r.insert(flag.into(), json!(flags.contains(&flag)));
        }
        r.insert("max_snippet".into(), max_snippet);
        r.insert("max_image_preview".into(), preview);
        r.insert("max_video_preview".into(), Value::Null);
        r.insert("unavailable_after".into(), Value::Null);
        r.insert("other".into(), other);
        Value::Object(r)
    };
    let expected = json!({
        "canonical": "https://example.org/b/c.html",
        "robots": robots(&["noindex"], json!(20), json!("large"), json!(["whatever"])),
        "googlebot": robots(&["nosnippet"], Value::Null, Value::Null, json!([])),
        "description": "A page",
        "open_graph": [{"name": "og:image", "content": "1"}, {"name": "og:image", "content": "2"}],
        "twitter": [{"name": "twitter:card", "content": "summary"}],
        "lang": "de-AT",
        "content_language": "fr",
        "hreflang": [{"hreflang": "en", "url": "https://example.org/en/"}],
        "refresh": {"delay": 7, "url": "https://example.org/b/next"},
        "json_ld": ["{\"@type\":\"Thing\"}"],
        "qualified_links": [
            {"url": "https://example.org/ad", "nofollow": false, "ugc": false, "sponsored": true},
            {"url": "https://example.org/x", "nofollow": true, "ugc": true, "sponsored": false},
        ],
    });
    assert_eq!(Value::Object(metadata), expected);
    // A page without robots tags has null robots columns, and empty lists.
    let article = from_jsonl
        .iter()
        .find(|r| {
            r["warc_filename"]
                .as_str()
                .unwrap()
                .ends_with("article.html")
        })
        .unwrap();
    assert_eq!(article["googlebot"], Value::Null);
    assert!(article["hreflang"].is_array());

    let clash = Command::new(BIN)
        .args(["extract", "--metadata", "--field", "description=p", d])
        .output()
        .unwrap();
    assert!(!clash.status.success());
    assert!(String::from_utf8_lossy(&clash.stderr).contains("metadata columns"));
    let without = htmltok(&["extract", "--field", "description=p", d]).stdout;
    assert!(
        std::str::from_utf8(&without)
            .unwrap()
            .contains("\"description\":[")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
