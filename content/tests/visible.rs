//! Visible text: each layout rule on crafted pages.

use htmltok_content::visible::{Options, visible_text};

fn text(html: &str) -> String {
    visible_text(&htmltok_tree::parse(html.as_bytes()), Options::default())
}

#[test]
fn blocks_break_lines_and_paragraphs_are_set_apart() {
    assert_eq!(
        text("<div>a</div><div>b</div><p>c</p><p>d</p><span>e</span><span>f</span>"),
        "a\nb\n\nc\n\nd\n\nef"
    );
    assert_eq!(
        text("<h2>Head</h2>body<ul><li>one<li>two</ul>after"),
        "Head\n\nbody\n\none\ntwo\n\nafter"
    );
}

#[test]
fn whitespace_collapses_outside_pre_and_is_kept_inside() {
    assert_eq!(text("<p>  a \n\t b  <b> c </b>d</p>"), "a b c d");
    assert_eq!(
        text("<p>x</p><pre>\n  keep\n    this  </pre><p>y</p>"),
        "x\n\n  keep\n    this  \n\ny"
    );
    assert_eq!(text("<textarea>  t  a</textarea>"), "  t  a");
}

#[test]
fn br_breaks_and_a_run_of_them_gives_blank_lines() {
    assert_eq!(text("a<br>b<br><br>c"), "a\nb\n\nc");
    assert_eq!(text("<p>a<br></p><p>b</p>"), "a\n\nb");
}

#[test]
fn hidden_content_is_left_out() {
    let html = "<p>shown</p><p hidden>h</p><p hidden=until-found>found</p>\
                <div aria-hidden=' TRUE '>aria</div><div aria-hidden=false>not aria</div>\
                <span style='color:red; DISPLAY : none !important'>css</span>\
                <span style='display:none;display:inline'>later wins</span>\
                <span style='visibility:hidden'>vis</span>\
                <script>s()</script><style>p{}</style><template>t</template>\
                <noscript>ns</noscript><select><option>o1<option>o2</select>\
                <svg><title>svg title</title><text>svg text</text></svg>";
    assert_eq!(
        text(html),
        "shown\n\nfound\n\nnot aria\nlater wins\no1\no2\nsvg text"
    );
}

#[test]
fn noscript_is_an_option() {
    let doc = htmltok_tree::parse(b"<body><noscript><p>enable js</p></noscript>");
    assert_eq!(visible_text(&doc, Options { noscript: true }), "enable js");
    assert_eq!(visible_text(&doc, Options::default()), "");
}

#[test]
fn a_closed_details_shows_its_first_summary_only() {
    assert_eq!(
        text("<details><summary>S</summary><summary>T</summary>body</details>"),
        "S"
    );
    assert_eq!(
        text("<details open><summary>S</summary>body</details>"),
        "S\nbody"
    );
}

#[test]
fn tables_go_cell_by_cell_and_row_by_row() {
    assert_eq!(
        text("<table><caption>Cap</caption><tr><th>h1<th>h2<tr><td>a<td> b <td>c</table>x"),
        "Cap\nh1\th2\na\tb\tc\n\nx"
    );
    // An empty cell keeps its column; empty cells at a row's end leave no tabs.
    assert_eq!(text("<table><tr><td>a<td><td>c<td></table>"), "a\t\tc");
}

#[test]
fn head_and_title_are_not_visible() {
    assert_eq!(text("<title>T</title><meta name=x><body>b"), "b");
}

#[test]
fn a_million_nested_elements_do_not_recurse() {
    let html = format!(
        "{}deep{}",
        "<div>".repeat(1_000_000),
        "</div>".repeat(1_000_000)
    );
    assert_eq!(text(&html), "deep");
}

#[test]
fn many_children_of_a_closed_details_stay_linear() {
    let html = format!(
        "<details>{}</details>",
        "<summary>s</summary>".repeat(200_000)
    );
    let started = std::time::Instant::now();
    assert_eq!(text(&html), "s");
    // Quadratic would be 4e10 steps; linear is milliseconds.
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn breaks_between_empty_blocks_stay_linear() {
    let html = "<br><div></div>".repeat(200_000);
    let started = std::time::Instant::now();
    assert_eq!(text(&format!("{html}x")).trim_start_matches('\n'), "x");
    assert!(started.elapsed().as_secs() < 10);
}
