"""Tests of markdown_fidelity.py's scorer on hand-made HTML and Markdown (run with
`python3 -m pytest content/eval/test_markdown_fidelity.py`, or with the other tests by
`python3 -m unittest discover -s content/eval`). They need htmltok (the DOM's truth is its
tree) and markdown-it-py (the read-back), not the shared data; without either they are
skipped, and say so."""

import importlib.util
import sys
import unittest
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from markdown_fidelity import (  # noqa: E402
    dom_truth,
    read_markdown,
    score,
    span_over_one,
    style_hides,
)

# The modules the scorer imports, by the names their packages have.
NEEDED = {"htmltok": "htmltok", "markdown_it": "markdown-it-py"}
MISSING = [package for module, package in NEEDED.items() if importlib.util.find_spec(module) is None]
REASON = (
    f"NOT TESTED: the Markdown fidelity scorer needs {' and '.join(MISSING)}"
    " (pip install -r content/eval/requirements.txt; htmltok: maturin develop -m bindings/python/Cargo.toml)"
)
if MISSING:
    print(f"\n*** {REASON}\n", file=sys.stderr)


def truth(html):
    import htmltok

    return dom_truth(htmltok.parse(html))


def scored(html, markdown):
    return score(truth(html), read_markdown(markdown))


@unittest.skipIf(MISSING, REASON)
class Visibility(unittest.TestCase):
    def visible_words(self, html):
        return sorted(truth(html).words.elements())

    def test_hidden_attribute_and_aria_hidden_hide_but_until_found_does_not(self):
        html = "<p>a</p><p hidden>b</p><p hidden=until-found>c</p><p aria-hidden=TRUE>d</p><p aria-hidden=false>e</p>"
        self.assertEqual(self.visible_words(html), ["a", "c", "e"])

    def test_inline_style_hides_by_its_last_declaration(self):
        html = (
            "<p style='display: NONE !important'>a</p><p style='display:none; display:block'>b</p>"
            "<p style='visibility:hidden'>c</p><p style='color:red'>d</p>"
        )
        self.assertEqual(self.visible_words(html), ["b", "d"])
        self.assertTrue(style_hides("visibility : collapse"))
        self.assertFalse(style_hides("display: nonesuch"))

    def test_elements_never_rendered(self):
        html = (
            "<title>t</title><p>a</p><script>s()</script><style>p{}</style><template>x</template>"
            "<noscript><p>n</p></noscript><svg><title>st</title><desc>sd</desc><style>.a{}</style><text>b</text></svg>"
        )
        self.assertEqual(self.visible_words(html), ["a", "b"])

    def test_closed_details_shows_its_first_summary_only(self):
        self.assertEqual(self.visible_words("<details><summary>s</summary>x<p>y</p><summary>z</summary></details>"), ["s"])
        self.assertEqual(self.visible_words("<details open><summary>s</summary>x</details>"), ["s", "x"])

    def test_alt_text_is_not_text_and_blocks_split_words_inline_elements_do_not(self):
        self.assertEqual(self.visible_words("<div>one</div><div>two<img alt=three>four</div>"), ["one", "twofour"])


@unittest.skipIf(MISSING, REASON)
class Code(unittest.TestCase):
    def test_br_and_blocks_are_line_breaks_but_not_at_the_start(self):
        self.assertEqual(truth("<pre>a<br>b</pre>").pre, ["a\nb"])
        self.assertEqual(truth("<pre><div>a</div><div>b</div>c</pre>").pre, ["a\nb\nc"])
        self.assertEqual(truth("<pre>x\n<p>a</p></pre>").pre, ["x\na\n"])

    def test_hidden_text_inside_is_left_out_and_blank_pre_does_not_count(self):
        self.assertEqual(truth("<pre><span aria-hidden=true>1 </span>code</pre><pre>  \n </pre>").pre, ["code"])

    def test_a_pre_inside_a_pre_is_part_of_it(self):
        self.assertEqual(truth("<pre>a<pre>b</pre></pre>").pre, ["a\nb\n"])

    def test_found_modulo_one_final_line_break(self):
        html = "<pre>line 1\n  line 2\n</pre>"
        self.assertEqual(scored(html, "```\nline 1\n  line 2\n```\n")["pre"], 1)
        self.assertEqual(scored(html, "    line 1\n      line 2\n")["pre"], 1)
        self.assertEqual(scored(html, "```\nline 1\nline 2\n```\n")["pre"], 0)
        self.assertEqual(scored(html, "line 1\n  line 2\n")["pre"], 0)

    def test_each_code_block_matches_one_pre(self):
        self.assertEqual(scored("<pre>x</pre><pre>x</pre>", "```\nx\n```\n")["pre"], 1)


@unittest.skipIf(MISSING, REASON)
class Headings(unittest.TestCase):
    def test_heading_in_a_cell_or_in_a_heading_does_not_count_one_in_a_link_does(self):
        html = (
            "<table><tr><td><h2>in cell</h2></td></tr></table><a href=x><div><h3>in <b>link</b></h3></div></a>"
            "<h1>outer <span><h2>inner</h2></span></h1><h4><img alt=alt> </h4>"
        )
        self.assertEqual(truth(html).headings, [(3, "in link"), (1, "outer inner")])

    def test_found_with_its_level_and_inline_text(self):
        html = "<h2>Foo  <em>bar</em><br>baz <img alt=pic src=x></h2>"
        self.assertEqual(scored(html, "## Foo *bar* baz ![pic](x)\n")["headings"], 1)
        self.assertEqual(scored(html, "[Foo *bar* baz](u)\n---\n")["headings"], 1)
        self.assertEqual(scored(html, "Foo bar baz\n===\n")["headings"], 0)
        self.assertEqual(scored(html, "### Foo bar baz\n")["headings"], 0)

    def test_emphasis_a_reader_does_not_take_as_emphasis_is_not_the_text(self):
        # `**text **` is no strong emphasis in CommonMark: the asterisks are text.
        self.assertEqual(scored("<h2><b>text </b></h2>", "## **text **\n")["headings"], 0)
        self.assertEqual(scored("<h2><b>text </b></h2>", "## **text**\n")["headings"], 1)

    def test_javascript_links_are_links(self):
        self.assertEqual(scored("<h2><a href='javascript:void(0)'>go</a></h2>", "## [go](javascript:void(0))\n")["headings"], 1)


@unittest.skipIf(MISSING, REASON)
class Tables(unittest.TestCase):
    def test_rows_padded_to_the_widest(self):
        html = "<table><tr><th>a<th>b<tr><td>c</table>"
        self.assertEqual(truth(html).tables, [(("a", "b"), ("c", ""))])
        self.assertEqual(scored(html, "| a | b |\n| --- | --- |\n| c |\n")["tables"], 1)
        self.assertEqual(scored(html, "| | |\n| --- | --- |\n| a | b |\n| c | |\n")["tables"], 0)

    def test_spans_small_tables_and_tables_holding_tables_do_not_count(self):
        self.assertEqual(truth("<table><tr><td colspan=2>a<tr><td>b<td>c</table>").tables, [])
        self.assertEqual(truth("<table><tr><td colspan=' 1'>a<td>x<tr><td>b<td>c</table>").tables, [(("a", "x"), ("b", "c"))])
        self.assertEqual(truth("<table><tr><td>a<td>b</table>").tables, [])
        nested = "<table><tr><td><table><tr><td>1<td>2<tr><td>3<td>4</table><td>x<tr><td>y<td>z</table>"
        self.assertEqual(truth(nested).tables, [(("1", "2"), ("3", "4"))])
        self.assertTrue(span_over_one(" 3x"))
        self.assertFalse(span_over_one("1"))

    def test_hidden_rows_and_cells_are_not_there_and_a_row_without_cells_is_empty(self):
        html = "<table><tr><td>a<td hidden>h<td>b<tr style=display:none><td>x<td>y<tr></tr><tr><td>c<td>d</table>"
        self.assertEqual(truth(html).tables, [(("a", "b"), ("", ""), ("c", "d"))])

    def test_cell_text_is_the_inline_text_whitespace_normalized(self):
        html = "<table><tr><td>a  b<td><a href=u>l</a><tr><td><code>x|y</code><td>d<br>e</table>"
        self.assertEqual(scored(html, "| a b | [l](u) |\n|---|---|\n| `x\\|y` | d<br>e |\n")["tables"], 1)


@unittest.skipIf(MISSING, REASON)
class Words(unittest.TestCase):
    def test_identical_words_score_one(self):
        self.assertEqual(scored("<p>One <b>two</b></p><pre>three</pre>", "One **two**\n\n```\nthree\n```\n")["f1"], 1.0)

    def test_urls_alt_and_raw_html_are_not_markdown_text(self):
        readback = read_markdown("[link](http://example.com/path) ![alt](pic.png)\n\n<div>raw</div>\n")
        self.assertEqual(readback.words, Counter(["link"]))

    def test_page_f1_from_the_multiset_overlap(self):
        # truth: a a b (3 words); Markdown: a b b x (4): 2 in common.
        f1 = scored("<p>a a b</p>", "a b b x\n")["f1"]
        self.assertAlmostEqual(f1, 2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))


@unittest.skipIf(MISSING, REASON)
class ReadBack(unittest.TestCase):
    def test_deep_nesting_does_not_swallow_the_rest(self):
        deep = "".join("  " * i + "- x\n" for i in range(30))
        readback = read_markdown(deep + "\n# After\n")
        self.assertEqual(readback.headings, [(1, "After")])


if __name__ == "__main__":
    unittest.main()
