//! Markdown from the tree: what each element becomes, and what a reader of the Markdown
//! gets back (the fidelity over whole corpora is measured by
//! `content/eval/markdown_fidelity.py`).

use htmltok_content::markdown::{Options, markdown};

fn md(html: &str) -> String {
    markdown(&htmltok_tree::parse(html.as_bytes()), &Options::default())
}

fn md_with(html: &str, options: &Options) -> String {
    markdown(&htmltok_tree::parse(html.as_bytes()), options)
}

#[test]
fn headings_keep_their_level_and_stay_on_one_line() {
    assert_eq!(
        md("<h1>One</h1><h3>Three<br>lines</h3><h6>Six</h6>"),
        "# One\n\n### Three lines\n\n###### Six"
    );
    // A heading inside a link is still a heading; the link's markers go.
    assert_eq!(md("<a href=/x><h2>Title</h2></a>"), "## Title");
    // A closing run of `#` would be read as the closing sequence.
    assert_eq!(md("<h2>C #</h2>"), "## C \\#");
    // Blocks inside a heading are its text, on its line.
    assert_eq!(
        md("<h2>a<pre>x\ny</pre><table><tr><td>1<td>2</table><hr></h2>"),
        "## a x y 1 2"
    );
    // An empty heading writes nothing.
    assert_eq!(md("<p>a</p><h2> </h2><p>b</p>"), "a\n\nb");
}

#[test]
fn lists_nest_and_keep_their_numbers() {
    assert_eq!(
        md("<ul><li>a<ul><li>b<li>c</ul><li>d</ul>"),
        "- a\n  - b\n  - c\n- d"
    );
    assert_eq!(md("<ol start=3><li>x<li>y</ol>"), "3. x\n4. y");
    assert_eq!(md("<ol reversed><li>x<li>y<li>z</ol>"), "3. x\n2. y\n1. z");
    assert_eq!(
        md("<ol><li>x<li value=10>y<li>z</ol>"),
        "1. x\n10. y\n11. z"
    );
    // Paragraphs of an item are indented under its marker.
    assert_eq!(
        md("<ol><li><p>one</p><p>two</p></li></ol>"),
        "1. one\n\n   two"
    );
}

#[test]
fn block_quotes_prefix_every_line_blank_ones_too() {
    assert_eq!(
        md("<blockquote><p>a</p><p>b</p><blockquote>c</blockquote></blockquote>"),
        "> a\n>\n> b\n>\n> > c"
    );
}

#[test]
fn code_blocks_hold_the_pre_text_exactly() {
    let html =
        "<pre><code class=\"language-rust\">fn main() {\n    let s = \"```\";\n\n}\n</code></pre>";
    assert_eq!(
        md(html),
        "````rust\nfn main() {\n    let s = \"```\";\n\n}\n````"
    );
    // Markup inside is text; `<br>` a line break; the first newline is the parser's.
    assert_eq!(md("<pre>\n<b>*a*</b><br>  b</pre>"), "```\n*a*\n  b\n```");
    // Inside a list item, each line is indented.
    assert_eq!(md("<ul><li><pre>x\ny</pre></ul>"), "- ```\n  x\n  y\n  ```");
    assert_eq!(
        md("<p>Run <code>a`b</code> or <kbd>q</kbd></p>"),
        "Run ``a`b`` or `q`"
    );
}

#[test]
fn tables_are_gfm_tables_with_spans_written_out() {
    assert_eq!(
        md("<table><tr><th>a<th>b<tr><td>1<td>x|y</table>"),
        "| a | b |\n| --- | --- |\n| 1 | x\\|y |"
    );
    assert_eq!(
        md(
            "<table><tr><td colspan=2>wide<td>c<tr><td rowspan=2>tall<td>d<td>e<tr><td>f<td>g</table>"
        ),
        "| wide |  | c |\n| --- | --- | --- |\n| tall | d | e |\n|  | f | g |"
    );
    // A table holding a table is laid out as its text, the inner one a table.
    assert_eq!(
        md("<table><tr><td>outer<td><table><tr><td>1<td>2</table></table>"),
        "outer\n\n| 1 | 2 |\n| --- | --- |"
    );
    // A caption comes before the table, as blocks.
    assert_eq!(
        md(
            "<p>x</p><blockquote><table><caption><h3>Fees</h3>per hour<tr><td>a<td>b</table></blockquote>"
        ),
        "x\n\n> ### Fees\n>\n> per hour\n>\n> | a | b |\n> | --- | --- |"
    );
}

#[test]
fn inline_markup_links_and_images() {
    assert_eq!(
        md("<p><em>e</em> <strong>s</strong> <del>d</del> <b> </b>x</p>"),
        "*e* **s** ~~d~~ x"
    );
    let options = Options {
        url: Some(url::Url::parse("https://example.org/a/b.html").unwrap()),
        ..Options::default()
    };
    assert_eq!(
        md_with(
            "<a href=c.html>see <img src=i.png alt=\"an [x]\"></a>",
            &options
        ),
        "[see ![an \\[x\\]](https://example.org/a/i.png)](https://example.org/a/c.html)"
    );
    assert_eq!(
        md_with("<base href=/d/><a href=\"e (1).html\">e</a>", &options),
        "[e](<https://example.org/d/e%20(1).html>)"
    );
    let plain = Options {
        links: false,
        images: false,
        ..Options::default()
    };
    assert_eq!(
        md_with("<a href=/x>text</a><img src=y.png alt=z>", &plain),
        "text"
    );
    assert_eq!(md("<a href=\"javascript:void(0)\">menu</a>"), "menu");
    // `!` before a link would make it an image.
    assert_eq!(md("Hi!<a href=/x>there</a>"), "Hi\\![there](/x)");
}

#[test]
fn emphasis_is_written_where_it_reads_back() {
    // No-break spaces at its edges go outside the markers; a span of spaces alone has
    // none.
    assert_eq!(md("<b>\u{a0}Skills\u{a0}</b>x"), "\u{a0}**Skills**\u{a0}x");
    assert_eq!(md("Data<strong>\u{a0}</strong>more"), "Data\u{a0}more");
    // Spans of a kind side by side join; inside one another, the inner writes nothing.
    assert_eq!(md("<b>Pros</b><strong>:</strong> good"), "**Pros:** good");
    assert_eq!(md("<strong><b>Hot</b></strong> keys"), "**Hot** keys");
    // Markers that could not open or close are left out.
    assert_eq!(md("<p>inittab<b>:</b> x</p>"), "inittab: x");
    assert_eq!(md("<p><em>Club (x)</em>Broadside</p>"), "Club (x)Broadside");
    assert_eq!(md("<p><b>Note:</b> x</p>"), "**Note:** x");
}

#[test]
fn text_is_escaped_only_where_it_would_be_syntax() {
    assert_eq!(
        md("<p>snake_case, 2 * 3, AT&amp;T, [1]</p>"),
        "snake_case, 2 * 3, AT&T, [1]"
    );
    assert_eq!(
        md("<p># not a heading</p><p>1. not a list</p>"),
        "\\# not a heading\n\n1\\. not a list"
    );
    assert_eq!(md("<p>*stars* and &lt;b&gt;</p>"), "\\*stars\\* and \\<b>");
    assert_eq!(md("<p><span>[a]</span>(b)</p>"), "[a]\\(b)");
}

#[test]
fn math_is_tex_where_the_page_has_it() {
    let mathml = "<p>So <math><semantics><mi>x</mi><annotation encoding=\"application/x-tex\">x^2</annotation></semantics></math>.</p>";
    assert_eq!(md(mathml), "So $x^2$.");
    assert_eq!(md("<p><math><mi>y</mi></math></p>"), "y");
    assert_eq!(
        md("<p>a<script type=\"math/tex; mode=display\">\\sum_i i</script>b</p>"),
        "a\n\n$$\\sum_i i$$\n\nb"
    );
    assert_eq!(
        md("<img class=mwe-math-fallback-image-inline alt=\"{\\displaystyle x}\" src=m.svg>"),
        "${\\displaystyle x}$"
    );
}

#[test]
fn hidden_content_is_left_out() {
    assert_eq!(
        md(
            "<p>a</p><p hidden>b</p><div style=\"display:none\">c</div><script>d()</script>\
            <details><summary>e</summary>f</details><noscript>g</noscript>"
        ),
        "a\n\ne"
    );
}

#[test]
fn main_content_as_markdown_has_the_main_texts_words() {
    let html = "<title>T</title><nav><a href=/>Home</a> <a href=/b>Blog</a></nav><article>\
        <h2>Results of the vote</h2><p>The council met on Monday, and after a long debate, it \
        voted to keep the <b>library</b> open until the end of the year.</p><ul><li>For: 7</li>\
        <li>Against: 2</li></ul><pre>tally = 7 - 2</pre></article><footer>© 2026</footer>";
    let doc = htmltok_tree::parse(html.as_bytes());
    let text = htmltok_content::main_text::text(&doc, &Default::default());
    let md = htmltok_content::main_text::markdown(&doc, &Default::default(), &Options::default());
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    assert_eq!(words(&md), words(&text), "{md}");
    assert!(md.contains("- For: 7\n- Against: 2"), "{md}");
    assert!(md.contains("```\ntally = 7 - 2\n```"), "{md}");
    let (main, with) =
        htmltok_content::main_text::with_markdown(&doc, &Default::default(), &Options::default());
    assert_eq!(main.text, text);
    assert_eq!(with, md);
}

#[test]
fn deep_nesting_stays_linear() {
    // Quotes and lists nested past the cap are plain blocks: a line's prefix stays short.
    let depth = 10_000;
    let html = "<blockquote>x".repeat(depth);
    let out = md(&html);
    let longest = out.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 200, "a line of {longest} bytes");
    let html = "<ul><li>x".repeat(depth);
    let out = md(&html);
    let longest = out.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 200, "a line of {longest} bytes");
    let html = format!("{}text", "<b><a href=/x>".repeat(depth));
    assert!(md(&html).contains("text"));
}
