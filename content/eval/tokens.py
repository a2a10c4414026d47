"""Word tokens for scoring extracted text against ground truth.

A token is a maximal run of letters, marks and digits (Unicode general categories L*, M*
and N*), case-folded; everything else (punctuation, symbols, spaces, `_`) separates
tokens. Scripts written without spaces between words (Han, Hiragana, Katakana, Thai, Lao,
Khmer, Myanmar, Tibetan) have no word boundaries a scorer could find without a dictionary,
so each of their letters is a token of its own, with the combining marks that follow it
(a Thai vowel sign stays with its consonant). Hangul is written with spaces and is
tokenized like Latin.

Marks count as word characters so that words of Devanagari, Bengali or Arabic with
vowel signs stay whole (Python's `\\w` leaves most marks out and would cut them apart).
"""

import unicodedata

# Code point ranges of scripts written without spaces between words.
_UNSPACED = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x0F00, 0x0FFF),  # Tibetan
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x19E0, 0x19FF),  # Khmer symbols
    (0x2E80, 0x2FDF),  # CJK radicals, Kangxi radicals
    (0x3005, 0x3007),  # ideographic iteration mark, closing mark, number zero
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3FFFF),  # CJK extensions B and later
)


def _unspaced(cp):
    return any(lo <= cp <= hi for lo, hi in _UNSPACED)


def tokens(text):
    """The word tokens of `text`, in order (see the module's doc)."""
    out = []
    word = []
    # Whether `word` is one letter of an unspaced script (it takes marks, not letters).
    alone = False
    for ch in text.casefold():
        category = unicodedata.category(ch)[0]
        if category == "M" and word:
            word.append(ch)
        elif category in "LMN":
            unspaced = _unspaced(ord(ch))
            if word and (unspaced or alone):
                out.append("".join(word))
                word = []
            word.append(ch)
            alone = unspaced
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out
