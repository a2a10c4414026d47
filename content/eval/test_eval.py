"""Tests of the evaluation's tokenizer and scorer on crafted text (run with
`python3 -m unittest discover content/eval`; no third-party package needed)."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluate import gate, html_text, overall, page_scores  # noqa: E402
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


if __name__ == "__main__":
    unittest.main()
