"""Tests of the evaluation's tokenizer and scorer on crafted text (run with
`python3 -m unittest discover content/eval`; no third-party package needed)."""

import argparse
import contextlib
import gzip
import io
import json
import os
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluate import (  # noqa: E402
    KINDS,
    Page,
    confidence_levels,
    deciles,
    gate,
    html_text,
    in_process,
    load_multitype,
    load_multitype_third,
    locked_version,
    meta_match,
    multitype_summary,
    overall,
    page_scores,
    rs_trafilatura_binary,
    rs_trafilatura_page,
    run_multitype,
    score_page,
    snippet_rate,
    word_scores,
    words,
    write_per_page,
)
from tokens import tokens  # noqa: E402


class Tokens(unittest.TestCase):
    def test_latin_words_are_case_folded_runs_of_letters_and_digits(self):
        self.assertEqual(tokens("Hello, WORLD! it's 3.14 snake_case"), ["hello", "world", "it", "s", "3", "14", "snake", "case"])

    def test_cyrillic_and_greek_fold_like_latin(self):
        self.assertEqual(tokens("Привет, МИР. Γειά σου"), ["привет", "мир", "γειά", "σου"])

    def test_han_kana_and_thai_letters_are_tokens_alone(self):
        self.assertEqual(tokens("中文字。日本のテスト"), ["中", "文", "字", "日", "本", "の", "テ", "ス", "ト"])
        # A Thai vowel sign (a mark) stays with the consonant before it.
        self.assertEqual(tokens("กิน"), ["กิ", "น"])

    def test_marks_keep_indic_and_arabic_words_whole(self):
        self.assertEqual(tokens("नमस्ते दुनिया"), ["नमस्ते", "दुनिया"])
        self.assertEqual(tokens("مَرْحَبًا بالعالم"), ["مَرْحَبًا", "بالعالم"])

    def test_hangul_is_spaced_and_stays_in_words(self):
        self.assertEqual(tokens("한국어 문장"), ["한국어", "문장"])

    def test_unspaced_letter_then_latin_splits(self):
        self.assertEqual(tokens("中abc文"), ["中", "abc", "文"])


class Scores(unittest.TestCase):
    def test_identical_text_scores_one(self):
        self.assertEqual(page_scores("a b c", "c b a", 1), (1.0, 1.0, 1.0))

    def test_precision_and_recall_count_repeated_words(self):
        # truth: a a b; predicted: a b b x -> common a, b = 2 of 4 predicted, 2 of 3 true.
        p, r, f = page_scores("a a b", "a b b x", 1)
        self.assertAlmostEqual(p, 0.5)
        self.assertAlmostEqual(r, 2 / 3)
        self.assertAlmostEqual(f, 2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))

    def test_empty_prediction_scores_zero_and_empty_against_empty_one(self):
        self.assertEqual(page_scores("some words", "", 1), (0.0, 0.0, 0.0))
        self.assertEqual(page_scores("", "", 1), (1.0, 1.0, 1.0))

    def test_shingles_see_order(self):
        self.assertEqual(page_scores("a b c d e", "a b c d e", 4)[2], 1.0)
        self.assertLess(page_scores("a b c d e", "e d c b a", 4)[2], 0.01)

    def test_overall_is_the_harmonic_mean_of_mean_precision_and_mean_recall(self):
        o = overall([(1.0, 0.5, 2 / 3), (0.5, 1.0, 2 / 3)])
        self.assertAlmostEqual(o["precision"], 0.75)
        self.assertAlmostEqual(o["recall"], 0.75)
        self.assertAlmostEqual(o["f1"], 0.75)
        self.assertAlmostEqual(o["mean_page_f1"], 2 / 3)


class GroundTruthText(unittest.TestCase):
    def test_blocks_separate_words_and_inline_elements_join(self):
        text = html_text("<div><p>one</p><p>two<b>three</b></p><script>x()</script>four<br>five</div>")
        self.assertEqual(tokens(text), ["one", "twothree", "four", "five"])


class QualityGate(unittest.TestCase):
    FLOORS = {"readability": {"htmltok": {"f1": 0.95}}, "scrapinghub": {"htmltok": {"f1": 0.98}}}

    def test_an_f1_under_its_floor_fails_and_one_at_it_passes(self):
        results = {"readability": {"htmltok": {"f1": 0.949}}, "scrapinghub": {"htmltok": {"f1": 0.98}}}
        failed, unchecked = gate(self.FLOORS, results, ["readability", "scrapinghub"])
        self.assertEqual(len(failed), 1)
        self.assertIn("readability/htmltok", failed[0])
        self.assertEqual(unchecked, [])

    def test_a_set_asked_for_but_not_scored_fails(self):
        results = {"readability": {"htmltok": {"f1": 0.96}}}
        failed, _ = gate(self.FLOORS, results, ["readability", "scrapinghub"])
        self.assertEqual(failed, ["scrapinghub/htmltok: not scored (floor 0.980)"])

    def test_a_set_not_asked_for_is_named_not_checked(self):
        results = {"readability": {"htmltok": {"f1": 0.96}}}
        failed, unchecked = gate(self.FLOORS, results, ["readability"])
        self.assertEqual((failed, unchecked), ([], ["scrapinghub"]))


class MultitypeScore(unittest.TestCase):
    """The multitype set's measures, as multitype-dev/README.md defines them."""

    def test_words_are_python_word_runs_lowercased(self):
        # \\w keeps the underscore and digits in a word, unlike tokens().
        self.assertEqual(words("Hello, WORLD! it's 3.14 snake_case Привет"), ["hello", "world", "it", "s", "3", "14", "snake_case", "привет"])

    def test_word_scores_count_a_multiset(self):
        p, r, f = word_scores("a a b", "A b b x")
        self.assertAlmostEqual(p, 0.5)
        self.assertAlmostEqual(r, 2 / 3)
        self.assertAlmostEqual(f, 2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))

    def test_empty_truth_and_empty_output_score_one_an_empty_output_zero(self):
        self.assertEqual(word_scores("", ""), (1.0, 1.0, 1.0))
        self.assertEqual(word_scores("some words", ""), (0.0, 0.0, 0.0))
        self.assertEqual(word_scores("", "extra words")[2], 0.0)

    def test_snippets_are_case_folded_substrings(self):
        self.assertEqual(snippet_rate(["Big Sale", "buy now", "gone"], "the BIG SALE: Buy now!"), 2 / 3)
        self.assertEqual(snippet_rate(["STRASSE"], "die straße"), 1.0)  # case folding, not lower()
        self.assertIsNone(snippet_rate([], "anything"))

    def test_metadata_is_matched_normalized(self):
        self.assertTrue(meta_match("title", "  A  Title\n of Note ", "a title of NOTE"))
        self.assertFalse(meta_match("author", "Jane Doe", "By Jane Doe"))
        self.assertFalse(meta_match("author", "Jane Doe", None))
        self.assertIsNone(meta_match("author", None, "Jane Doe"))
        self.assertIsNone(meta_match("title", "  ", "x"))

    def test_dates_compare_on_the_day(self):
        self.assertTrue(meta_match("date", "2025-09-04", "2025-09-04T12:50:36+00:00"))
        self.assertFalse(meta_match("date", "2025-09-04", "2025-09-05"))
        self.assertFalse(meta_match("date", "2025-09-04", "September 4, 2025"))
        self.assertTrue(meta_match("date", "2025-09", "2025-09-30"))  # a truth of a month

    def test_summary_means_over_pages_per_kind_and_snippets_where_given(self):
        def row(kind, f1, with_=None, without=None, title=None):
            return {"kind": kind, "precision": f1, "recall": f1, "f1": f1, "with": with_, "without": without,
                    "title": title, "author": None, "date": None, "error": None}

        rows = [row("article", 1.0, 1.0, 0.0, True), row("article", 0.5, 0.5, None, False), row("forum", 0.0, None, 1.0)]
        o = multitype_summary(rows, ("title",))
        self.assertAlmostEqual(o["f1"], 0.5)
        self.assertAlmostEqual(o["article"], 0.75)
        self.assertAlmostEqual(o["forum"], 0.0)
        self.assertIsNone(o["product"])  # no page of that kind
        self.assertAlmostEqual(o["with"], 0.75)  # the forum page has no `with` snippets
        self.assertAlmostEqual(o["without"], 0.5)
        self.assertAlmostEqual(o["title"], 0.5)
        self.assertIsNone(o["author"])  # not a field this extractor reads
        self.assertEqual(o["pages"], 3)

    def test_a_page_is_scored_on_text_snippets_and_metadata(self):
        page = Page("0003", Path("x"), b"", "forum", "one two three", ["two three"], ["menu"], "T", None, "2024-01-02")
        result = {"text": "One two Menu", "title": "t", "author": "someone", "date": "2024-01-02", "confidence": 0.5,
                  "seconds": 0.1, "error": None}
        row = score_page(page, result)
        self.assertAlmostEqual(row["f1"], 2 / 3)
        self.assertEqual((row["with"], row["without"]), (0.0, 1.0))
        self.assertEqual((row["title"], row["author"], row["date"]), (True, None, True))
        self.assertEqual((row["kind"], row["confidence"]), ("forum", 0.5))


class MultitypeGate(unittest.TestCase):
    FLOORS = {"multitype-third": {"htmltok": {"f1": 0.70, "forum": 0.60, "listing": 0.50}}}

    def test_a_kind_under_its_floor_fails_and_names_the_kind(self):
        results = {"multitype-third": {"htmltok": {"f1": 0.71, "forum": 0.59, "listing": 0.50}}}
        failed, _ = gate(self.FLOORS, results, ["multitype-third"])
        self.assertEqual(failed, ["multitype-third/htmltok/forum: F1 0.5900 under its floor 0.6000"])

    def test_a_kind_not_scored_fails(self):
        results = {"multitype-third": {"htmltok": {"f1": 0.71, "forum": 0.61, "listing": None}}}
        failed, _ = gate(self.FLOORS, results, ["multitype-third"])
        self.assertEqual(failed, ["multitype-third/htmltok/listing: not scored (floor 0.500)"])


class Deciles(unittest.TestCase):
    def test_pages_are_ranked_by_confidence_and_cut_in_ten(self):
        pairs = [(i / 20, float(i >= 10)) for i in range(20)] + [(None, 0.5)]
        parts = deciles(pairs)
        self.assertEqual(len(parts), 10)
        self.assertEqual([n for _, _, n, _ in parts], [2] * 10)
        self.assertEqual([f for _, _, _, f in parts], [0.0] * 5 + [1.0] * 5)
        self.assertEqual(parts[0][:2], (0.0, 0.05))

    def test_pages_of_equal_confidence_are_not_ranked_by_their_f1(self):
        # All of one confidence, F1 alternating 1 and 0: every decile holds a 1 and a 0.
        parts = deciles([(1.0, float(i % 2 == 0)) for i in range(20)])
        self.assertEqual([f for _, _, _, f in parts], [0.5] * 10)

    def test_confidence_levels_give_the_f1_at_each_value(self):
        levels = confidence_levels([(1.0, 1.0), (0.5, 0.0), (1.0, 0.5), (None, 1.0), (0.5, 0.5), (0.1 + 0.2, 1.0)])
        self.assertEqual(levels, [(0.3, 1, 1.0), (0.5, 2, 0.25), (1.0, 2, 0.75)])

    def test_no_confidence_no_deciles(self):
        self.assertEqual(deciles([(None, 1.0), (None, 0.0)]), [])

    def test_uneven_counts_spread_over_the_deciles(self):
        self.assertEqual(sum(n for _, _, n, _ in deciles([(i, 1.0) for i in range(23)])), 23)
        self.assertEqual(len(deciles([(i, 1.0) for i in range(3)])), 3)


def write_multitype(root, pages):
    """A multitype-dev layout: html/NNNN.html.gz and ground-truth/NNNN.json."""
    (root / "html").mkdir(parents=True)
    (root / "ground-truth").mkdir()
    for number, (kind, html, truth) in pages.items():
        (root / "html" / f"{number:04d}.html.gz").write_bytes(gzip.compress(html.encode()))
        record = {"url": "https://example.com/", "_internal": {"page_type": {"primary": kind}},
                  "ground_truth": {"title": "T", "author": None, "publish_date": None, "main_content": truth,
                                   "with": [truth], "without": ["menu"]}}
        (root / "ground-truth" / f"{number:04d}.json").write_text(json.dumps(record))


class MultitypeRun(unittest.TestCase):
    """The multitype set end to end, with a fake extractor that gives a confidence (as
    htmltok's article() is to)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "multitype-dev"
        # Page n: its text is "word{n} ...", its truth that text on even pages only.
        self.pages = {n: (KINDS[n % len(KINDS)], f"<p>word{n} text</p>", f"word{n} text" if n % 2 == 0 else "other")
                      for n in range(1, 21)}
        write_multitype(self.root, self.pages)

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_loader_reads_pages_and_the_third_is_every_third_number(self):
        pages = load_multitype(self.root, 0)
        self.assertEqual([p.name for p in pages], [f"{n:04d}" for n in range(1, 21)])
        self.assertEqual(pages[0].html, b"<p>word1 text</p>")
        self.assertEqual((pages[0].kind, pages[0].truth, pages[0].without), (KINDS[1], "other", ["menu"]))
        self.assertEqual([p.name for p in load_multitype_third(self.root, 0)], [f"{n:04d}" for n in range(3, 21, 3)])
        self.assertEqual(len(load_multitype(self.root, 5)), 5)

    def fake(self, page_html):
        # Confident exactly where the output is right (even pages).
        number = int(page_html.decode().split("word")[1].split(" ")[0])
        if number == 7:
            raise ValueError("a failing page")
        return {"text": f"word{number} text", "title": "T", "confidence": 1.0 if number % 2 == 0 else 0.0}

    def test_a_fake_extractor_with_confidence_gives_the_table_and_deciles(self):
        args = argparse.Namespace(sample=0, deciles=True)
        per_page = []
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            results = run_multitype("multitype", self.root, [("fake", "fake extractor", in_process(self.fake), ("title",))],
                                    [("absent", "could not be built")], args, per_page)
        summary = results["fake"]
        self.assertAlmostEqual(summary["f1"], 0.5)  # the even pages right, the odd ones wrong
        self.assertEqual(summary["errors"], 1)  # page 7: scored as empty
        self.assertAlmostEqual(summary["title"], 1.0 - 1 / 20)
        self.assertIsNone(summary["author"])
        self.assertGreater(summary["mb_per_s"], 0)
        self.assertEqual(len(per_page), 20)
        text = out.getvalue()
        self.assertIn("fake extractor", text)
        self.assertIn("absent: LEFT OUT (no column): could not be built", text)
        decile_lines = text.split("by decile of its confidence")[1].strip().splitlines()[2:]
        # The lower half of the confidences is the odd pages (F1 0), the upper the even (F1 1).
        self.assertEqual([line.split()[-1] for line in decile_lines[:10]], ["0.000"] * 5 + ["1.000"] * 5)
        self.assertIn("deciles 1-10 hold one confidence each", decile_lines[10])
        # Two values of confidence: the F1 at each.
        self.assertEqual([line.split() for line in decile_lines[-2:]], [["0.000", "9", "0.000"], ["1.000", "10", "1.000"]])

        tsv = Path(self.tmp.name) / "pages.tsv"
        write_per_page(tsv, per_page)
        lines = tsv.read_text().splitlines()
        self.assertEqual(lines[0].split("\t")[:7], ["dataset", "page", "extractor", "precision", "recall", "f1", "kind"])
        first = dict(zip(lines[0].split("\t"), lines[1].split("\t")))
        self.assertEqual((first["page"], first["f1"], first["title"], first["author"], first["confidence"]),
                         ("0001", "0.0000", "1", "", "0.0000"))

    def test_an_extractor_without_confidence_has_no_deciles(self):
        args = argparse.Namespace(sample=0, deciles=True)
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            run_multitype("multitype", self.root, [("plain", "plain", in_process(lambda d: {"text": ""}), ())], [], args, [])
        self.assertIn("no confidence, no deciles: plain", out.getvalue())


class RsTrafilatura(unittest.TestCase):
    def test_a_binary_that_is_not_there_leaves_the_column_out(self):
        with mock.patch.dict(os.environ, {"HTMLTOK_RS_TRAFILATURA_BIN": "/nonexistent/rs-trafilatura-bench"}):
            with self.assertRaises(ImportError):
                rs_trafilatura_binary()

    def test_the_binary_s_lines_are_read_whole_and_a_death_costs_one_page(self):
        # A stand-in for the binary: one JSON line a path, a text with U+2028 in it, and
        # an abort on a page named "die" (the pages after it are run anew).
        with tempfile.TemporaryDirectory() as tmp:
            fake = Path(tmp) / "fake-bench"
            fake.write_text(
                f"#!{sys.executable}\n"
                "import json, sys\n"
                "for path in sys.stdin.read().split():\n"
                "    if 'die' in path:\n"
                "        sys.exit(134)\n"
                "    print(json.dumps({'path': path, 'text': 'a\\u2028b ' + path, 'title': 'T', 'author': None,\n"
                "                      'date': None, 'confidence': 0.5, 'seconds': 0.25, 'error': None},\n"
                "                     ensure_ascii=False), flush=True)\n"
            )
            fake.chmod(0o755)
            pages = [Page(n, Path(tmp) / f"{n}.html.gz", b"", "article", "", [], [], None, None, None)
                     for n in ("one", "die", "three")]
            with mock.patch.dict(os.environ, {"HTMLTOK_RS_TRAFILATURA_BIN": str(fake)}):
                name, run, fields = rs_trafilatura_page()
                with contextlib.redirect_stderr(io.StringIO()):
                    results = run(pages)
        self.assertTrue(name.startswith("rs-trafilatura "))
        self.assertEqual(fields, ("title", "author", "date"))
        self.assertEqual([r["text"] for r in results], [f"a\u2028b {pages[0].path}", "", f"a\u2028b {pages[2].path}"])
        self.assertEqual([r["error"] is None for r in results], [True, False, True])
        self.assertEqual((results[0]["confidence"], results[0]["seconds"]), (0.5, 0.25))

    def test_the_version_is_read_from_the_lock_file(self):
        lock = '[[package]]\nname = "rs-trafilatura"\nversion = "0.2.2"\n\n[[package]]\nname = "x"\nversion = "1.0.0"\n'
        self.assertEqual(locked_version(lock, "rs-trafilatura"), "0.2.2")
        self.assertEqual(locked_version(lock, "absent"), "?")


if __name__ == "__main__":
    unittest.main()
