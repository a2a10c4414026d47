//! Main text on crafted pages: boilerplate out, the article in, every script, no page
//! without an answer, hostile shapes in linear time.

use htmltok_content::main_text::{MainText, Options, main_text};

fn main(html: &str) -> MainText {
    main_text(&htmltok_tree::parse(html.as_bytes()), &Options::default())
}

/// Prose long enough to score as paragraphs, numbered so that each is told apart.
fn prose(n: usize) -> String {
    format!(
        "Paragraph {n} of the story tells, at some length and with commas, what happened \
         to the town, why the council voted as it did, and what the residents said."
    )
}

fn article_page(body: &str) -> String {
    format!(
        "<!doctype html><html><head><title>Library stays open - Daily News</title>\
         <meta name=author content='Ada Writer'>\
         <meta property=article:published_time content=2024-05-01T10:00:00Z></head><body>\
         <header><a href=/>Daily News</a> <a href=/world>World</a></header>\
         <nav><ul><li><a href=/a>Politics</a><li><a href=/b>Sport</a><li><a href=/c>Culture</a></ul></nav>\
         {body}\
         <footer><p>Copyright Daily News, all rights reserved, 2024.</p></footer></body></html>"
    )
}

#[test]
fn navigation_footer_and_comments_are_left_out_and_the_article_kept() {
    let page = article_page(&format!(
        "<div id=content><article><h1>Library stays open</h1><p>{}</p><p>{}</p><p>{}</p>\
         </article>\
         <div class=comments><h3>Comments</h3><p>First comment, which is long enough to be a \
         paragraph of its own, and has commas, too.</p></div>\
         <div class=share><a href=/tw>Share on X</a><a href=/fb>Share on Facebook</a></div></div>\
         <aside><h3>Most read</h3><p>Something else entirely, in a sidebar, with commas, \
         that is long enough to count.</p></aside>",
        prose(1),
        prose(2),
        prose(3)
    ));
    let m = main(&page);
    let paragraphs = format!("{}\n\n{}\n\n{}", prose(1), prose(2), prose(3));
    assert!(
        m.text.contains(&paragraphs),
        "the three paragraphs: {}",
        m.text
    );
    for boilerplate in [
        "Politics",
        "World",
        "Copyright",
        "Share on",
        "Most read",
        "sidebar",
    ] {
        assert!(!m.text.contains(boilerplate), "{boilerplate}: {}", m.text);
    }
    assert!(
        m.confidence > 0.0 && m.confidence <= 1.0,
        "a probability: {}",
        m.confidence
    );
    // The headline the page shows (its h1), without the site's name the title adds.
    assert_eq!(m.title.as_deref(), Some("Library stays open"));
    assert_eq!(m.byline.as_deref(), Some("Ada Writer"));
    assert_eq!(m.date.as_deref(), Some("2024-05-01T10:00:00Z"));
}

#[test]
fn title_byline_and_date_from_the_page_where_its_meta_is_silent() {
    let page = format!(
        "<!doctype html><title>Ferry timetable changes for winter | Harbour Post</title>\
         <body><nav><a href=/>Home</a></nav><article><p class=byline>By \
         <a rel=author href=/people/rv>Rosa Vidal</a>, <time datetime=2026-11-02>2 \
         November</time></p><p>{}</p><p>{}</p></article>",
        prose(1),
        prose(2)
    );
    let m = main(&page);
    // No h1: the short last part after a separator is the site's name.
    assert_eq!(
        m.title.as_deref(),
        Some("Ferry timetable changes for winter")
    );
    assert_eq!(m.byline.as_deref(), Some("Rosa Vidal"));
    assert_eq!(m.date.as_deref(), Some("2026-11-02"));
    // A title whose last part is long is left whole.
    let page = "<title>Why tides turn - a long look at the moon and the sea</title><p>x";
    assert_eq!(
        main(page).title.as_deref(),
        Some("Why tides turn - a long look at the moon and the sea")
    );
}

#[test]
fn an_article_split_by_a_link_list_is_kept_whole_without_the_menu() {
    let page = article_page(&format!(
        // (Five paragraphs: enough text for the strict pass, whose clean-up this is.)
        "<div><div class=post><p>{}</p><p>{}</p>\
         <ul><li><a href=/1>Related one</a><li><a href=/2>Related two</a>\
         <li><a href=/3>Related three</a></ul><p>{}</p><p>{}</p><p>{}</p></div>\
         <p>A closing paragraph beside the post, of plain prose without any links in it at all.</p>\
         <div class=menu-links><a href=/x>Elsewhere</a> <a href=/y>Other</a></div></div>",
        prose(1),
        prose(2),
        prose(3),
        prose(4),
        prose(5)
    ));
    let text = main(&page).text;
    assert!(text.starts_with(&prose(1)), "{text}");
    assert!(text.contains(&prose(5)), "{text}");
    assert!(!text.contains("Elsewhere"), "{text}");
}

#[test]
fn hidden_content_cookie_banners_and_headline_repeats_are_left_out() {
    let page = article_page(&format!(
        "<div id=cookie-consent><p>We use cookies, and by browsing, you accept them and our \
         policy, which is long.</p></div>\
         <main><h2>Library stays open</h2><h2>Background</h2><p>{}</p>\
         <p style='display: none'>{}</p><p hidden>{}</p><p>{}</p></main>",
        prose(1),
        prose(2),
        prose(3),
        prose(4)
    ));
    let text = main(&page).text;
    // The headline may stay (people keep it on about half of the benchmark's pages).
    let text = text.strip_prefix("Library stays open\n\n").unwrap_or(&text);
    assert_eq!(
        text,
        format!("Background\n\n{}\n\n{}", prose(1), prose(4)),
        "the hidden paragraphs and the banner are out"
    );
}

#[test]
fn a_cjk_article_is_found_by_its_characters() {
    // Chinese prose has no spaces: lengths are counted in characters.
    let sentence = "图书馆将继续开放，市议会在周一的会议上经过长时间的辩论后作出了这一决定，居民们对此表示欢迎。";
    let page = format!(
        "<html><head><title>新闻</title></head><body>\
         <div class=nav><a href=/1>首页</a> <a href=/2>国际</a> <a href=/3>体育</a> \
         <a href=/4>文化</a> <a href=/5>科技</a></div>\
         <div class=main-body><p>{sentence}</p><p>{sentence}</p><p>{sentence}</p></div>\
         <div class=links><a href=/6>相关新闻一</a><br><a href=/7>相关新闻二</a></div></body></html>"
    );
    let text = main(&page).text;
    assert_eq!(text, format!("{sentence}\n\n{sentence}\n\n{sentence}"));
}

#[test]
fn a_page_without_an_article_gives_its_text() {
    // No paragraph long enough to score: the body, less its boilerplate.
    let m = main(
        "<title>Home</title><nav><a href=/a>A</a></nav><h1>Welcome</h1><p>Short note.</p>\
         <footer>Footer</footer>",
    );
    assert_eq!(m.text, "Welcome\n\nShort note.");
    assert_eq!(main("").text, "");
    assert_eq!(main("<p>").text, "");
    // A page of links only: still its text, nothing invented.
    let links = main("<ul><li><a href=/1>One</a><li><a href=/2>Two</a></ul>").text;
    assert!(links.is_empty() || links == "One\nTwo", "{links:?}");
}

#[test]
fn the_strict_pass_gives_way_when_it_finds_too_little() {
    // The article's only container is named like a side block: the strict pass drops it,
    // the next keeps it.
    let page = format!(
        "<div class=sidebar-related><p>{}</p><p>{}</p></div>",
        prose(1),
        prose(2)
    );
    assert_eq!(main(&page).text, format!("{}\n\n{}", prose(1), prose(2)));
    // With min_chars 0 the strict pass answers alone.
    let strict = main_text(
        &htmltok_tree::parse(page.as_bytes()),
        &Options { min_chars: 0 },
    );
    assert!(!strict.text.contains("Paragraph 1"), "{:?}", strict.text);
}

#[test]
fn posts_that_share_a_shape_are_kept_together() {
    // A thread: every post is content, not only the longest.
    let post = |n: usize| {
        format!(
            "<div class=post><div class=author>user{n}</div><div class=body><p>{}</p></div></div>",
            prose(n)
        )
    };
    let page = format!(
        "<title>Thread</title><nav><a href=/>Forum</a> <a href=/new>New</a></nav>\
         <main><h1>Which library?</h1><div class=posts>{}</div></main>\
         <footer><a href=/about>About</a> <a href=/terms>Terms</a></footer>",
        (1..=6).map(post).collect::<String>()
    );
    let text = main(&page).text;
    for n in 1..=6 {
        assert!(text.contains(&prose(n)), "post {n}: {text}");
    }
    assert!(!text.contains("Terms"), "{text}");
}

#[test]
fn a_page_that_hides_all_its_text_until_a_script_runs_is_read_hidden() {
    // React's streamed content waits in `<div hidden id="S:0">` for a script to move it;
    // other pages hide their whole body until their styles load.
    let article = (1..=12)
        .map(|n| format!("<p>{}</p>", prose(n)))
        .collect::<String>();
    for wrapper in [
        "<div hidden id=S:0>",
        "<div style='visibility:hidden'>",
        "<div aria-hidden=true>",
    ] {
        let page =
            format!("<main><div>Loading</div></main>{wrapper}<article>{article}</article></div>");
        let text = main(&page).text;
        assert!(
            text.contains(&prose(1)) && text.contains(&prose(12)),
            "{wrapper}: {text}"
        );
    }
    // A page with visible text keeps its hidden parts out.
    let page = format!(
        "<article>{article}</article><div hidden><p>{}</p></div>",
        prose(13)
    );
    assert!(!main(&page).text.contains("Paragraph 13"));
}

#[test]
fn hidden_tab_panels_are_content() {
    let panel = |os: &str, hidden: &str| {
        format!(
            "<section role=tabpanel {hidden}><p>On {os}, install the tools with the package \
             manager, then open a new terminal, and check the version it prints.</p></section>"
        )
    };
    let page = format!(
        "<article><h1>Install</h1><p>{}</p><p>{}</p>{}{}</article>",
        prose(1),
        prose(2),
        panel("Windows", ""),
        panel("macOS", "hidden aria-hidden=true")
    );
    let text = main(&page).text;
    assert!(
        text.contains("On Windows") && text.contains("On macOS"),
        "{text}"
    );
}

#[test]
fn no_break_spaces_are_spaces() {
    let page = format!("<p>{}&nbsp;and\u{a0}more&nbsp;&nbsp;text.</p>", prose(1));
    let text = main(&page).text;
    assert!(text.ends_with("said. and more  text."), "{text:?}");
    assert!(!text.contains('\u{a0}'));
}

#[test]
fn a_million_nested_elements_do_not_recurse() {
    let html = format!(
        "{}<p>{}</p>{}",
        "<div>".repeat(1_000_000),
        prose(1),
        "</div>".repeat(1_000_000)
    );
    assert_eq!(main(&html).text, prose(1));
    // Nested headings (each read for the title check only when small).
    let html = format!(
        "<title>x</title>{}x{}",
        "<h2><div>".repeat(200_000),
        "</div></h2>".repeat(200_000)
    );
    let _ = main(&html);
}

#[test]
fn many_siblings_take_linear_time() {
    let html = format!(
        "<div>{}</div>",
        (0..100_000)
            .map(|_| "<p>A short sentence here, with a comma.</p>")
            .collect::<String>()
    );
    let text = main(&html).text;
    assert_eq!(text.matches("A short sentence").count(), 100_000);
}
