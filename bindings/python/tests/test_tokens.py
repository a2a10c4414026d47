"""htmltok.tokenize against `htmltok tokens`, parse errors, the sequence API, threads and
bad input."""

import json
import random
import threading
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import htmltok
from conftest import cli_json_lines, html5lib_dir, shared_corpus_sample

FIELDS = ("type", "start", "end", "name", "attrs", "self_closing", "text", "data",
          "public_id", "system_id", "force_quirks")


def token_fields(tok: htmltok.Token) -> Dict[str, Any]:
    """The token's fields as `htmltok tokens` prints them (attrs as lists)."""
    d: Dict[str, Any] = {"type": tok.type, "start": tok.start, "end": tok.end}
    if tok.type in ("StartTag", "EndTag"):
        d["name"] = tok.name
        d["attrs"] = [list(a) for a in tok.attrs or []]
        d["self_closing"] = tok.self_closing
    elif tok.type == "Text":
        d["text"] = tok.text
    elif tok.type == "Comment":
        d["data"] = tok.data
    else:
        d.update(name=tok.name, public_id=tok.public_id, system_id=tok.system_id,
                 force_quirks=tok.force_quirks)
    return d


def compare_with_cli(path: Path, *cli_options: str, **options: Any) -> int:
    data = path.read_bytes()
    expected = cli_json_lines("tokens", "--errors", *cli_options, path)
    want_tokens = [e for e in expected if e["type"] != "Error"]
    want_errors = [(e["code"], e["offset"], e["line"], e["col"]) for e in expected if e["type"] == "Error"]
    tokens = htmltok.tokenize(data, errors=True, **options)
    assert len(tokens) == len(want_tokens), path
    for i, (tok, want) in enumerate(zip(tokens, want_tokens)):
        got = token_fields(tok)
        for field in FIELDS:
            assert got.get(field) == want.get(field), f"{path} token {i} field {field}: {got} != {want}"
        assert tok.to_dict() == want
    assert tokens.errors == want_errors, path
    return len(tokens)


def test_bundled_pages_equal_the_cli(bundled: List[Path]) -> None:
    total = sum(compare_with_cli(path) for path in bundled)
    assert total > 1000


def test_bundled_pages_with_options_equal_the_cli(bundled: List[Path]) -> None:
    for path in bundled[:3]:
        compare_with_cli(path, "--no-simulation", simulation=False)
        compare_with_cli(path, "--no-scripting", scripting=False)
        compare_with_cli(path, "--state", "RCDATA state", "--last-start-tag", "title",
                         state="RCDATA state", last_start_tag="title")


def test_shared_corpus_sample_equals_the_cli() -> None:
    pages = shared_corpus_sample()
    assert len(pages) >= 10
    for path in pages:
        compare_with_cli(path)


def test_errors_off_by_default() -> None:
    tokens = htmltok.tokenize(b"<a b b>")
    assert tokens.errors == []


@pytest.mark.parametrize("html, errors", [
    (b"<a b b>", [("duplicate-attribute", 6, 1, 7)]),
    (b"<p>\n<a b='1' b='2'>", [("duplicate-attribute", 14, 2, 11)]),
    (b"<!DOCTYPE>", [("missing-doctype-name", 9, 1, 10)]),
    (b"<div", [("eof-in-tag", 4, 1, 5)]),
    (b"</>x", [("missing-end-tag-name", 2, 1, 3)]),
    (b"&#0;", [("null-character-reference", 4, 1, 5)]),
])
def test_parse_error_positions(html: bytes, errors: List[Tuple[str, int, int, int]]) -> None:
    got = htmltok.tokenize(html, errors=True).errors
    assert got == errors


def test_html5lib_error_positions() -> None:
    """Codes, lines and columns of the html5lib tokenizer tests (simulation off, as they
    run), on the tests of test1-4.test."""
    directory = html5lib_dir()
    checked = 0
    for name in ("test1.test", "test2.test", "test3.test", "test4.test"):
        for test in json.loads((directory / name).read_text(encoding="utf-8"))["tests"]:
            if test.get("doubleEscaped"):
                continue
            for state in test.get("initialStates", ["Data state"]):
                tokens = htmltok.tokenize(test["input"].encode("utf-8"), errors=True, simulation=False,
                                          state=state, last_start_tag=test.get("lastStartTag"))
                got = sorted((c, l, col) for c, _, l, col in tokens.errors)
                want = sorted((e["code"], e["line"], e["col"]) for e in test.get("errors", []))
                assert got == want, (name, test["description"], state)
                checked += 1
    assert checked > 500


def test_sequence_api() -> None:
    tokens = htmltok.tokenize(b"<p class=x>Hi</p><!--c-->")
    assert len(tokens) == 4
    assert [t.type for t in tokens] == ["StartTag", "Text", "EndTag", "Comment"]
    assert tokens[-1].data == "c" and tokens[0].attrs == [("class", "x")]
    assert [t.index for t in tokens[1:3]] == [1, 2]
    assert [t.index for t in tokens[::-2]] == [3, 1]
    with pytest.raises(IndexError):
        tokens[4]
    with pytest.raises(TypeError):
        tokens["a"]  # type: ignore[call-overload]
    assert tokens[1].raw == b"Hi" and tokens.input == b"<p class=x>Hi</p><!--c-->"
    assert tokens[1].name is None and tokens[1].attrs is None and tokens[0].text is None
    assert tokens[1].text_kind == "data"
    # Tokens outlive their sequence and the input.
    tok = htmltok.tokenize(bytearray(b"<b>x</b>"))[1]
    assert tok.text == "x"


def test_input_types() -> None:
    html = b"<a href='x'>&amp;</a>"
    want = [t.to_dict() for t in htmltok.tokenize(html)]
    assert [t.to_dict() for t in htmltok.tokenize(bytearray(html))] == want
    assert [t.to_dict() for t in htmltok.tokenize(memoryview(html))] == want
    buffer = bytearray(html)
    tokens = htmltok.tokenize(buffer)
    buffer[:] = b"x" * len(buffer)  # the tokens hold a copy
    assert [t.to_dict() for t in tokens] == want


@pytest.mark.parametrize("bad", ["<p>", 5, None, [1, 2], object()])
def test_wrong_types_raise_type_error(bad: object) -> None:
    with pytest.raises(TypeError):
        htmltok.tokenize(bad)  # type: ignore[arg-type]


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        htmltok.tokenize(b"", state="no such state")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        htmltok.tokenize(b"", errors="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        htmltok.tokenize(b"", True)  # type: ignore[call-arg] # options are keywords


def test_any_bytes_tokenize() -> None:
    rng = random.Random(12)
    alphabet = b"<>/!-='\"&#;abcxyz \n\r\t\x00\xff\xc3\xa9[]?"
    for _ in range(300):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(60)))
        for errors in (False, True):
            tokens = htmltok.tokenize(data, errors=errors)
            for tok in tokens:
                tok.to_dict()
            tokens.errors
    data = bytes(rng.randrange(256) for _ in range(5000))
    assert len(htmltok.tokenize(data, errors=True)) > 0


def test_threads_tokenize_at_once(bundled: List[Path]) -> None:
    pages = [p.read_bytes() for p in bundled]
    want = [[t.to_dict() for t in htmltok.tokenize(d, errors=True)] for d in pages]
    results: Dict[int, List[List[Dict[str, Any]]]] = {}

    def work(n: int) -> None:
        results[n] = [[t.to_dict() for t in htmltok.tokenize(d, errors=True)] for d in pages]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[n] == want for n in range(4))


def test_iteration_recycles_only_tokens_nobody_holds() -> None:
    toks = htmltok.tokenize(b"<p class=x>Hi</p><!--c--><br><b>x</b>")
    # Every token kept: all distinct objects, each still pointing at its own token.
    kept = list(toks)
    assert [t.index for t in kept] == list(range(len(toks)))
    assert len({id(t) for t in kept}) == len(kept)
    # A plain loop (where the iterator may recycle) sees the same tokens as indexing.
    seen = [(t.index, t.type, t.start, t.end, t.name) for t in toks]
    assert seen == [(t.index, t.type, t.start, t.end, t.name) for t in kept]
    # A token held across further iterations never changes under its holder.
    it = iter(toks)
    first = next(it)
    held = [next(it)]
    for tok in it:
        assert tok.index not in (first.index, held[0].index)
    assert (first.index, first.type, first.name) == (0, "StartTag", "p")
    assert (held[0].index, held[0].type, held[0].text) == (1, "Text", "Hi")
