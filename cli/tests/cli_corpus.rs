//! The corpus subcommands (`stats`, `links`, `text`) of the debug binary over the bundled
//! corpus (`corpus/`), over the real-page corpus (`$HTMLTOK_CORPUS`, else
//! `../shared/corpus`; absent, said loudly, or a failure under CI), and over
//! WARC files built from the bundled pages in a temporary directory, whole, truncated and
//! with a broken header.

use htmltok_test_support::data;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use data::bundled_corpus as bundled;
use htmltok_crawl::warc::Writer;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_htmltok");

/// HTML responses in corpus/sample.warc.gz (six pages and a redirect; see
/// scripts/make-sample-warc.py), and its records that are not documents: robots.txt, the
/// warcinfo, a metadata and eight request records.
const SAMPLE_WARC_HTML: usize = 7;
const SAMPLE_WARC_OTHER: u64 = 11;

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run htmltok")
}

/// Whether standard error holds nothing but the run's summary line (`htmltok summary:
/// ...`, which every corpus command ends with).
fn only_summary(stderr: &[u8]) -> bool {
    let stderr = String::from_utf8_lossy(stderr);
    stderr.lines().count() <= 1 && stderr.lines().all(|l| l.starts_with("htmltok summary: "))
}

/// Runs the binary and expects exit status 0, nothing on stderr but the summary line,
/// UTF-8 on stdout.
fn ok(args: &[&str]) -> String {
    let output = run(args);
    assert!(
        output.status.success() && only_summary(&output.stderr),
        "htmltok {args:?}: {:?}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("output is UTF-8")
}

fn json_lines(stdout: &str) -> Vec<Value> {
    // Split on LF only: JSON strings may hold U+2028 and friends unescaped.
    stdout
        .split('\n')
        .filter(|l| !l.is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}")))
        .collect()
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// The `path` column of a corpus manifest.
fn manifest(dir: &Path) -> Vec<String> {
    data::Manifest::read(dir).paths()
}

/// The real-page corpus, or None when it is absent (said loudly; a failure under CI).
fn shared_corpus() -> Option<PathBuf> {
    data::real_corpus_or_skip("the CLI over the real-page corpus")
}

/// A fresh temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("htmltok-cli-corpus-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------------------------------
// The bundled corpus
// ---------------------------------------------------------------------------------------

#[test]
fn stats_over_the_bundled_corpus() {
    let dir = bundled();
    let pages = manifest(&dir).len();
    assert_eq!(pages, 10);
    let stats: Value =
        serde_json::from_str(&ok(&["stats", "--json", "--errors", path_str(&dir)])).unwrap();
    assert_eq!(
        stats["documents"],
        (pages + SAMPLE_WARC_HTML) as u64,
        "{stats}"
    );
    assert_eq!(stats["skipped"], 0);
    assert_eq!(stats["ignored"], SAMPLE_WARC_OTHER);
    assert_eq!(
        stats["ignored_by_reason"],
        serde_json::json!({"request": 8, "metadata": 1, "not-html": 1, "warcinfo": 1})
    );
    let page_bytes: u64 = manifest(&dir)
        .iter()
        .map(|p| std::fs::metadata(dir.join(p)).unwrap().len())
        .sum();
    assert!(stats["bytes"].as_u64().unwrap() > page_bytes, "{stats}");
    let tokens = &stats["tokens"];
    let total = tokens["total"].as_u64().unwrap();
    let kinds: u64 = ["text", "start_tag", "end_tag", "comment", "doctype"]
        .iter()
        .map(|k| tokens[k].as_u64().unwrap())
        .sum();
    assert_eq!(total, kinds);
    assert_eq!(
        tokens["doctype"], stats["documents"],
        "one DOCTYPE per page"
    );
    assert!(
        tokens["cdata"].as_u64().unwrap() >= 9,
        "SVG/MathML CDATA: {tokens}"
    );
    let top: Vec<&str> = stats["top_tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair[0].as_str().unwrap())
        .collect();
    assert_eq!(top.len(), 20);
    for tag in ["a", "td", "span", "div", "li"] {
        assert!(top.contains(&tag), "{tag} in {top:?}");
    }
    let by_encoding = &stats["encodings"]["by_encoding"];
    assert_eq!(by_encoding["windows-1251"], 2, "{by_encoding}");
    assert_eq!(by_encoding["Shift_JIS"], 2, "{by_encoding}");
    let by_rule = &stats["encodings"]["by_rule"];
    assert_eq!(
        by_rule["transport"], 6,
        "the WARC's HTTP charsets: {by_rule}"
    );
    let errors = stats["errors"]
        .as_object()
        .expect("parse errors with --errors");
    assert!(!errors.is_empty());

    // The table: the same counts, for people.
    let table = ok(&["stats", path_str(&dir)]);
    let documents = format!("documents{:>19}\n", pages + SAMPLE_WARC_HTML);
    assert!(table.starts_with(&documents), "{table}");
    assert!(table.contains("MB/s"), "{table}");
    assert!(table.contains("windows-1251"), "{table}");
}

#[test]
fn links_in_known_pages() {
    let dir = bundled();
    let shop = dir.join("shop-kettle.html");
    let tsv = ok(&[
        "links",
        "--base",
        "https://www.shop.example.com/p/halden-glass-kettle-48213",
        path_str(&shop),
    ]);
    let rows: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 4 && r[0] == path_str(&shop)));
    let has = |element: &str, attribute: &str, url: &str| {
        assert!(
            rows.iter()
                .any(|r| r[1] == element && r[2] == attribute && r[3] == url),
            "{element} {attribute} {url} not found"
        );
    };
    has("a", "href", "https://www.shop.example.com/basket");
    has(
        "link",
        "href",
        "https://www.shop.example.com/p/halden-glass-kettle-48213",
    );
    has(
        "img",
        "srcset",
        "https://cdn.shop.example.com/img/p/48213/kettle-front-1200.jpg",
    );
    has(
        "source",
        "srcset",
        "https://cdn.shop.example.com/img/p/48213/kettle-lid-400.avif",
    );
    has("form", "action", "https://www.shop.example.com/basket/add");
    has(
        "button",
        "formaction",
        "https://www.shop.example.com/wishlist/add",
    );
    has(
        "input",
        "formaction",
        "https://www.shop.example.com/checkout/express?product=48213&variant=48213-CLR",
    );
    has(
        "track",
        "src",
        "https://www.shop.example.com/media/48213/demo.en.vtt",
    );
    has(
        "video",
        "poster",
        "https://cdn.shop.example.com/img/p/48213/video-poster.jpg",
    );
    has(
        "object",
        "data",
        "https://cdn.shop.example.com/docs/48213/dimensions.svg",
    );
    has(
        "script",
        "src",
        "https://www.shop.example.com/assets/js/pdp.4f1c2a9.js",
    );
    // The tracking pixel is inside <noscript>, which is raw text with scripting on.
    assert!(!tsv.contains("pixel.example.net"));

    // Without a base URL relative links stay as written; JSON lines say the same.
    let lines = json_lines(&ok(&[
        "links",
        "--json",
        path_str(&dir.join("article.html")),
    ]));
    assert!(lines.iter().any(|l| l["element"] == "a"
        && l["attribute"] == "href"
        && l["url"] == "/science/"
        && l["raw"] == "/science/"));

    // The wiki page in the WARC resolves against its WARC-Target-URI.
    let tsv = ok(&["links", path_str(&dir.join("sample.warc.gz"))]);
    let wiki: Vec<&str> = tsv
        .lines()
        .filter(|l| l.contains("\thttps://en.wiki.example.org/wiki/Lists_of_lighthouses"))
        .collect();
    assert_eq!(wiki.len(), 1, "{tsv}");
    assert!(wiki[0].starts_with(&format!("{}@", path_str(&dir.join("sample.warc.gz")))));
    assert!(tsv.contains(
        "\timg\tsrc\thttps://upload.example.org/commons/thumb/a/a7/Bell_Rock_Lighthouse.jpg/220px-Bell_Rock_Lighthouse.jpg\n"
    ));
    assert!(tsv.contains("\ta\thref\thttp://foto-forum.example.ru/viewforum.php?f=7\n"));
}

#[test]
fn text_of_known_pages() {
    let dir = bundled();
    let lines = json_lines(&ok(&["text", path_str(&dir)]));
    assert_eq!(lines.len(), manifest(&dir).len() + SAMPLE_WARC_HTML);
    let page = |name: &str| -> &Value {
        let wanted = path_str(&dir.join(name)).to_string();
        lines
            .iter()
            .find(|l| l["document"] == wanted.as_str())
            .unwrap_or_else(|| panic!("{name} missing"))
    };
    let app = page("app-shell.html");
    assert_eq!(app["title"], "Tidewater Studio · Projects — Taskboard");
    assert_eq!(app["url"], Value::Null);
    let text = app["text"].as_str().unwrap();
    assert!(
        text.contains("Plan, track and ship work with your team."),
        "{text}"
    );
    for code in [
        "document.write",
        "function",
        "__INITIAL_STATE__",
        "{",
        "=>",
        "Session frame",
    ] {
        assert!(
            !text.contains(code),
            "script or hidden text {code:?} in {text}"
        );
    }

    let wiki = page("wiki-bell-rock.html")["text"].as_str().unwrap();
    assert!(wiki.contains("is the world's oldest surviving sea-washed lighthouse."));
    assert!(wiki.contains("Account of the Bell Rock Lighthouse"));
    assert!(!wiki.contains("RLCONF") && !wiki.contains(".mw-parser-output"));

    // Legacy encodings decoded by their <meta>.
    let forum = page("legacy-windows-1251.html");
    assert_eq!(
        forum["title"],
        "Форум любителей фотографии :: Просмотр темы - Какой объектив взять для пейзажа?"
    );
    assert!(
        forum["text"]
            .as_str()
            .unwrap()
            .contains("Для пейзажа светосила не так важна")
    );
    let sjis = page("legacy-shift_jis.html")["text"].as_str().unwrap();
    assert!(
        sjis.contains("もみじ列車は、窓を大きくした展望車両"),
        "{sjis}"
    );

    // Ruby text and entities.
    let ja = page("cjk-ja-momiji.html")["text"].as_str().unwrap();
    assert!(ja.contains("渓谷（けいこく）"), "{ja}");
    let recette = page("entities-recette.html")["text"].as_str().unwrap();
    assert!(
        recette.contains("Préchauffez le four à 100 °C"),
        "{recette}"
    );

    // WARC records carry their URL.
    assert!(lines.iter().any(|l| l["url"]
        == "https://www.minato-shimbun.example.jp/articles/2026/11/05/local-line-momiji.html"
        && l["text"].as_str().unwrap().contains("もみじ列車")));
}

// ---------------------------------------------------------------------------------------
// WARC files built from the bundled pages
// ---------------------------------------------------------------------------------------

/// Writes every page of the bundled corpus as a response record (HTTP charset for the
/// UTF-8 pages only), compressed as the name's extension says (`.warc.gz`, `.warc.zst`,
/// `.warc.lz4`, else plain); returns the pages and their record offsets.
fn write_warc(path: &Path) -> Vec<(String, u64)> {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let name = path.to_str().unwrap();
    let mut warc = if name.ends_with(".gz") {
        Writer::gzip(file)
    } else if name.ends_with(".zst") {
        Writer::zstd(file, 3).unwrap()
    } else if name.ends_with(".lz4") {
        Writer::lz4(file)
    } else {
        Writer::new(file)
    };
    let dir = bundled();
    let mut offsets = Vec::new();
    for page in manifest(&dir) {
        let body = std::fs::read(dir.join(&page)).unwrap();
        let content_type = if page.starts_with("legacy-") {
            "text/html"
        } else {
            "text/html; charset=utf-8"
        };
        let uri = format!("https://corpus.example/{page}");
        let offset = warc
            .write_response(
                &uri,
                "2026-11-05T00:00:00Z",
                200,
                &[("Content-Type", content_type)],
                &body,
            )
            .unwrap();
        offsets.push((page, offset));
    }
    warc.into_inner().unwrap();
    offsets
}

#[test]
fn a_warc_gz_of_the_bundled_pages() {
    a_warc_of_the_bundled_pages("pages.warc.gz");
}

#[test]
fn a_warc_zst_of_the_bundled_pages() {
    a_warc_of_the_bundled_pages("pages.warc.zst");
}

#[test]
fn a_warc_lz4_of_the_bundled_pages() {
    a_warc_of_the_bundled_pages("pages.warc.lz4");
}

fn a_warc_of_the_bundled_pages(name: &str) {
    let tmp = TempDir::new(name);
    let warc = tmp.join(name);
    let offsets = write_warc(&warc);
    let stats: Value = serde_json::from_str(&ok(&["stats", "--json", path_str(&warc)])).unwrap();
    assert_eq!(stats["documents"], offsets.len() as u64);
    let page_bytes: u64 = manifest(&bundled())
        .iter()
        .map(|p| std::fs::metadata(bundled().join(p)).unwrap().len())
        .sum();
    assert_eq!(stats["bytes"], page_bytes);
    assert_eq!(stats["encodings"]["by_rule"]["transport"], 8);
    assert_eq!(stats["encodings"]["by_rule"]["meta"], 2);

    let text = json_lines(&ok(&["text", "-j", "1", path_str(&warc)]));
    let documents: Vec<String> = text
        .iter()
        .map(|l| l["document"].as_str().unwrap().to_string())
        .collect();
    let expected: Vec<String> = offsets
        .iter()
        .map(|(_, offset)| format!("{}@{offset}", path_str(&warc)))
        .collect();
    assert_eq!(documents, expected, "-j 1 keeps the order of the records");
    for (line, (page, _)) in text.iter().zip(&offsets) {
        assert_eq!(
            line["url"],
            format!("https://corpus.example/{page}").as_str()
        );
    }

    let links = ok(&["links", path_str(&warc)]);
    let shop = offsets
        .iter()
        .find(|(p, _)| p == "shop-kettle.html")
        .unwrap()
        .1;
    assert!(links.contains(&format!(
        "{}@{shop}\ta\thref\thttps://corpus.example/c/kitchen/small-appliances/kettles\n",
        path_str(&warc)
    )));
}

#[test]
fn a_truncated_warc_gz_is_reported_with_its_offset() {
    a_truncated_warc_is_reported_with_its_offset("cut.warc.gz", "gzip");
}

#[test]
fn a_truncated_warc_zst_is_reported_with_its_offset() {
    a_truncated_warc_is_reported_with_its_offset("cut.warc.zst", "zstd");
}

#[test]
fn a_truncated_warc_lz4_is_reported_with_its_offset() {
    a_truncated_warc_is_reported_with_its_offset("cut.warc.lz4", "LZ4");
}

fn a_truncated_warc_is_reported_with_its_offset(name: &str, codec: &str) {
    let tmp = TempDir::new(name);
    let warc = tmp.join(name);
    let offsets = write_warc(&warc);
    // Cut the file in the middle of the fifth record's gzip member (zstd frame).
    let (_, fifth) = offsets[4];
    let (_, sixth) = offsets[5];
    let bytes = std::fs::read(&warc).unwrap();
    std::fs::write(&warc, &bytes[..(fifth + (sixth - fifth) / 2) as usize]).unwrap();
    // What the cut member decompressed to is read as a file cut there. Deflate gives its
    // output as it goes: the fifth record's header, HTTP head and the start of its body
    // came out, so it is a document, read in part (a note). zstd and LZ4 give a block
    // at a time: nothing of it came out of the frame's one block, so it is an error.
    let in_part = codec == "gzip";
    for command in ["stats", "links", "text"] {
        let output = run(&[command, path_str(&warc)]);
        assert_eq!(output.status.code(), Some(i32::from(!in_part)), "{command}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        let expected = if in_part {
            format!(
                "htmltok: note: {}: offset {fifth}: the record is cut off",
                path_str(&warc)
            )
        } else {
            format!("htmltok: {}: offset {fifth}: ", path_str(&warc))
        };
        assert!(stderr.starts_with(&expected), "{command}: {stderr}");
        // The run ends with its summary: the records read, the damage counted.
        let summary = stderr.lines().last().unwrap_or_default();
        let documents = 4 + usize::from(in_part);
        assert!(
            summary.starts_with(&format!("htmltok summary: {documents} documents")),
            "{stderr}"
        );
        if in_part {
            assert!(summary.contains("; recovered record-cut-off=1"), "{stderr}");
            assert!(!summary.contains("not read"), "{stderr}");
        } else {
            assert!(stderr.contains(codec), "{stderr}");
            assert!(summary.contains("; not read bad-"), "{stderr}");
        }
        assert!(!stderr.contains("panicked"));
        let stdout = String::from_utf8(output.stdout).unwrap();
        // The four whole records are still counted, and the fifth read in part.
        let documents = 4 + usize::from(in_part);
        match command {
            "stats" => assert!(
                stdout.starts_with(&format!("documents{documents:>19}\n")),
                "{stdout}"
            ),
            "text" => assert_eq!(json_lines(&stdout).len(), documents),
            _ => assert!(stdout.lines().count() > 100),
        }
    }
}

#[test]
fn a_broken_warc_header_and_an_unreadable_file_are_skipped() {
    let tmp = TempDir::new("broken");
    let warc = tmp.join("plain.warc");
    let offsets = write_warc(&warc);
    // Break the third record's Content-Length.
    let mut bytes = std::fs::read(&warc).unwrap();
    let at = offsets[2].1 as usize;
    let field = bytes[at..]
        .windows(16)
        .position(|w| w == b"Content-Length: ")
        .unwrap();
    bytes[at + field + 16] = b'x';
    std::fs::write(&warc, &bytes).unwrap();
    let missing = tmp.join("missing.html");
    let output = run(&["stats", "--json", path_str(&warc), path_str(&missing)]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(&format!("htmltok: {}: offset {at}: ", path_str(&warc))),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("htmltok: {}: cannot read", path_str(&missing))),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(&format!(
            "htmltok summary: {} documents; not read bad-length=1 unreadable=1 (each named \
             above)\n",
            offsets.len() - 1
        )),
        "{stderr}"
    );
    let stats: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(stats["documents"], offsets.len() as u64 - 1);
    assert_eq!(stats["skipped"], 2);
}

#[test]
fn named_files_are_told_by_their_first_bytes() {
    let tmp = TempDir::new("sniffed");
    // A WARC file under a name that says nothing, an ARC file, a PNG named .html and
    // gzip data that is no archive.
    let warc = tmp.join("crawl-0001.data");
    let offsets = write_warc(&warc);
    let arc = tmp.join("old-crawl.bin");
    let http = b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<title>old</title>";
    let mut arc_bytes = format!(
        "http://example.org/ 192.0.2.1 20010203040506 text/html {}\n",
        http.len()
    )
    .into_bytes();
    arc_bytes.extend_from_slice(http);
    arc_bytes.push(b'\n');
    std::fs::write(&arc, &arc_bytes).unwrap();
    let png = tmp.join("image.html");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let gz = tmp.join("page.html");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut encoder, b"<p>compressed").unwrap();
    std::fs::write(&gz, encoder.finish().unwrap()).unwrap();

    let output = run(&["stats", "--json", path_str(&warc), path_str(&arc)]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stats: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(stats["documents"], offsets.len() as u64 + 1, "{stats}");

    let output = run(&["stats", "--json", path_str(&png), path_str(&gz)]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    for (path, what) in [(&png, "binary data"), (&gz, "gzip data")] {
        assert!(
            stderr.contains(&format!(
                "htmltok: {}: neither HTML nor a WARC or ARC file: {what}",
                path_str(path)
            )),
            "{stderr}"
        );
    }
    let stats: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(stats["documents"], 0);
    assert_eq!(stats["skipped_by_reason"]["not-html-file"], 2);
}

// ---------------------------------------------------------------------------------------
// The real-page corpus
// ---------------------------------------------------------------------------------------

#[test]
fn stats_over_the_real_page_corpus() {
    let Some(dir) = shared_corpus() else {
        return;
    };
    let pages = manifest(&dir);
    let stats: Value = serde_json::from_str(&ok(&["stats", "--json", path_str(&dir)])).unwrap();
    assert_eq!(stats["documents"], pages.len() as u64, "{stats}");
    assert_eq!(stats["skipped"], 0);
    let bytes: u64 = pages
        .iter()
        .map(|p| std::fs::metadata(dir.join(p)).unwrap().len())
        .sum();
    assert_eq!(stats["bytes"], bytes);
    let by_encoding: u64 = stats["encodings"]["by_encoding"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(by_encoding, pages.len() as u64);
    assert!(stats["tokens"]["start_tag"].as_u64().unwrap() > 100_000);
}

#[test]
fn links_and_text_over_one_real_category() {
    let Some(dir) = shared_corpus() else {
        return;
    };
    let category = "legacy-encoding";
    let pages: BTreeSet<String> = manifest(&dir)
        .into_iter()
        .filter(|p| p.starts_with(&format!("{category}/")))
        .map(|p| path_str(&dir.join(p)).to_string())
        .collect();
    assert!(pages.len() >= 10, "{pages:?}");
    let folder = dir.join(category);

    let text = json_lines(&ok(&["text", path_str(&folder)]));
    let documents: BTreeSet<String> = text
        .iter()
        .map(|l| l["document"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(documents, pages);
    let with_text = text
        .iter()
        .filter(|l| l["text"].as_str().unwrap().chars().count() > 50)
        .count();
    assert!(
        with_text >= pages.len() - 2,
        "{with_text} of {}",
        pages.len()
    );
    // Decoded: Cyrillic, CJK and Arabic letters, not mojibake of them.
    let all: String = text.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert!(all.chars().any(|c| ('\u{400}'..='\u{4ff}').contains(&c)));
    assert!(all.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
    assert!(all.chars().any(|c| ('\u{600}'..='\u{6ff}').contains(&c)));

    let tsv = ok(&[
        "links",
        "--base",
        "https://legacy.example/",
        path_str(&folder),
    ]);
    let mut unresolved = 0;
    let linked: BTreeSet<&str> = tsv
        .lines()
        .map(|l| {
            let fields: Vec<&str> = l.split('\t').collect();
            assert_eq!(fields.len(), 4, "{l}");
            unresolved += !fields[3].contains(':') as usize;
            fields[0]
        })
        .collect();
    // With a base URL every link resolves, except values that are not URLs at all.
    assert!(
        unresolved * 100 <= tsv.lines().count(),
        "{unresolved} unresolved"
    );
    assert!(linked.len() >= pages.len() - 2, "{linked:?}");
    assert!(linked.iter().all(|d| pages.contains(*d)));
}

/// `text --main`: htmltok-content's main text of each decoded page, with byline, date,
/// kind and confidence;
/// `text --visible`: its visible text. The same Rust code the library gives.
#[test]
fn main_and_visible_text_of_known_pages() {
    let dir = bundled();
    for (flag, expected) in [
        (
            "--main",
            (|html: &[u8]| {
                htmltok_content::main_text(&htmltok_tree::parse(html), &Default::default()).text
            }) as fn(&[u8]) -> String,
        ),
        ("--visible", |html: &[u8]| {
            htmltok_content::visible::visible_text(&htmltok_tree::parse(html), Default::default())
        }),
    ] {
        let lines = json_lines(&ok(&["text", flag, "-j", "1", path_str(&dir)]));
        assert_eq!(lines.len(), manifest(&dir).len() + SAMPLE_WARC_HTML);
        for name in ["article.html", "app-shell.html", "wiki-bell-rock.html"] {
            let path = dir.join(name);
            let line = lines
                .iter()
                .find(|l| l["document"] == path_str(&path))
                .unwrap_or_else(|| panic!("{name} missing"));
            let html = std::fs::read(&path).unwrap();
            assert_eq!(line["text"], expected(&html).as_str(), "{flag} {name}");
            assert_eq!(line.get("byline").is_some(), flag == "--main", "{line}");
            if flag == "--main" {
                let main =
                    htmltok_content::main_text(&htmltok_tree::parse(&html), &Default::default());
                assert_eq!(line["kind"], main.kind.as_str(), "{name}");
                // Written as the f32 it is (its shortest decimal form).
                assert_eq!(
                    line["confidence"].as_f64().map(|c| c as f32),
                    Some(main.confidence)
                );
            } else {
                assert!(line.get("kind").is_none() && line.get("confidence").is_none());
            }
        }
        // A legacy encoding is decoded before the tree is built.
        let forum = lines
            .iter()
            .find(|l| l["document"] == path_str(&dir.join("legacy-windows-1251.html")))
            .unwrap();
        assert_eq!(
            forum["title"],
            "Форум любителей фотографии :: Просмотр темы - Какой объектив взять для пейзажа?"
        );
        assert!(
            forum["text"]
                .as_str()
                .unwrap()
                .contains("Вернуться к началу")
        );
    }
    let main = json_lines(&ok(&[
        "text",
        "--main",
        path_str(&dir.join("wiki-bell-rock.html")),
    ]));
    let text = main[0]["text"].as_str().unwrap();
    assert!(text.contains("is the world's oldest surviving sea-washed lighthouse."));
    assert!(
        !text.contains("Jump to navigation") && !text.contains("Privacy policy"),
        "{text}"
    );
}
