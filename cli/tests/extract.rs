//! `htmltok extract`: JSON lines and Parquet of the bundled corpus, the Parquet read back
//! with the parquet crate's reader and compared with the JSON lines.

use std::path::{Path, PathBuf};
use std::process::Command;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{Array, RecordBatch};
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
                let value = if column.is_null(i) {
                    Value::Null
                } else {
                    match field.name().as_str() {
                        "warc_record_offset" | "warc_record_length" => {
                            json!(column.as_primitive::<Int64Type>().value(i))
                        }
                        "links" => {
                            let list = column.as_list::<i32>().value(i);
                            let urls = list.as_string::<i32>();
                            json!((0..urls.len()).map(|j| urls.value(j)).collect::<Vec<_>>())
                        }
                        _ => json!(column.as_string::<i32>().value(i)),
                    }
                };
                row.insert(field.name().clone(), value);
            }
            Value::Object(row)
        })
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

    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&parquet).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let mut from_parquet: Vec<Value> = reader.flat_map(|b| rows(&b.unwrap())).collect();
    let parse = |text: &str| -> Vec<Value> {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let mut from_jsonl = parse(&std::fs::read_to_string(&jsonl).unwrap());
    let mut from_stdout = parse(std::str::from_utf8(&stdout).unwrap());
    // 10 pages and the 7 HTML records of the sample WARC file
    assert_eq!(from_parquet.len(), 17);
    for rows in [&mut from_parquet, &mut from_jsonl, &mut from_stdout] {
        rows.sort_by_key(key);
    }
    assert_eq!(from_parquet, from_jsonl);
    assert_eq!(from_parquet, from_stdout);

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
    assert_eq!(article["warc_record_offset"], Value::Null);
    assert_eq!(article["url"], Value::Null);
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
