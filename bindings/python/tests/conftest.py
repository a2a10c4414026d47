"""Shared helpers of the htmltok Python tests.

The tests compare the bindings with the `htmltok` program (the CLI, built from this
workspace) on the bundled pages of `corpus/` and, when it is present, on a sample of the
shared corpus (`$HTMLTOK_CORPUS`, else `../shared/corpus` beside the repository).

Data policy (as in the Rust tests, tests/common/mod.rs): a test whose external data is
absent is skipped with a visible reason, unless `CI` or `HTMLTOK_REQUIRE_DATA` is set (to
anything but 0/false/no), in which case it fails.
"""

import json
import os
import subprocess
from pathlib import Path
from typing import Any, List, NoReturn, Optional, Tuple, TypeVar

import pytest

ROOT = Path(__file__).resolve().parents[3]
BUNDLED = ROOT / "corpus"
SAMPLE_WARC = BUNDLED / "sample.warc.gz"


T = TypeVar("T")


def some(value: Optional[T]) -> T:
    """`value`, asserted not None (for the type checker: a node's parent, a tree's body)."""
    assert value is not None
    return value


def data_required() -> bool:
    return any(
        os.environ.get(name, "").strip() not in ("", "0", "false", "no")
        for name in ("CI", "HTMLTOK_REQUIRE_DATA")
    )


def missing(what: str, why: str) -> NoReturn:
    """Skips (or, with CI/HTMLTOK_REQUIRE_DATA, fails) a test whose data is absent."""
    message = f"NOT RUN: {what}: {why}"
    if data_required():
        pytest.fail(message + " (CI or HTMLTOK_REQUIRE_DATA is set, so absent test data is a failure)")
    pytest.skip(message)


def shared_dir(name: str, env: str) -> Path:
    if os.environ.get(env):
        return Path(os.environ[env])
    return ROOT.parent / "shared" / name


def bundled_pages() -> List[Path]:
    return sorted(BUNDLED.glob("*.html"))


def shared_corpus_sample(limit_bytes: int = 600_000, step: int = 8) -> List[Path]:
    """Every `step`-th page of the shared corpus's MANIFEST.tsv under `limit_bytes`, or a
    skip (failure under CI) when the corpus is absent."""
    corpus = shared_dir("corpus", "HTMLTOK_CORPUS")
    manifest = corpus / "MANIFEST.tsv"
    if not manifest.is_file():
        missing("the shared-corpus comparisons", f"no corpus at {corpus} (set HTMLTOK_CORPUS)")
    rows = manifest.read_text(encoding="utf-8").splitlines()[1:]
    paths = []
    for row in rows:
        fields = row.split("\t")
        if len(fields) > 1 and fields[1].isdigit() and int(fields[1]) <= limit_bytes:
            paths.append(corpus / fields[0])
    return [p for p in paths[::step] if p.is_file()]


def html5lib_dir() -> Path:
    env = os.environ.get("HTML5LIB_TESTS")
    candidates = [Path(env)] if env else []
    candidates += [ROOT / "tests" / "html5lib-tests" / "tokenizer", ROOT.parent / "shared" / "html5lib-tests" / "tokenizer"]
    for candidate in candidates:
        if (candidate / "test1.test").is_file():
            return candidate
    missing("the html5lib error-position cases", "no html5lib-tests checkout (set HTML5LIB_TESTS)")


_CLI: Optional[Path] = None


def cli_path() -> Path:
    """The `htmltok` program: $HTMLTOK_CLI, else target/debug/htmltok (built with cargo
    when absent)."""
    global _CLI
    if _CLI is None:
        if os.environ.get("HTMLTOK_CLI"):
            _CLI = Path(os.environ["HTMLTOK_CLI"])
        else:
            target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
            _CLI = target / "debug" / "htmltok"
            if not _CLI.is_file():
                subprocess.run(["cargo", "build", "-p", "htmltok-cli"], cwd=ROOT, check=True)
    return _CLI


def cli(*args: object, check: bool = True) -> Tuple[str, str, int]:
    """Runs the CLI; returns (stdout as str, stderr as str, exit status)."""
    proc = subprocess.run([str(cli_path()), *map(str, args)], capture_output=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"htmltok {' '.join(map(str, args))} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8", errors="replace"), proc.returncode


def cli_json_lines(*args: object, check: bool = True) -> List[Any]:
    out, _, _ = cli(*args, check=check)
    return [json.loads(line) for line in out.splitlines() if line]


@pytest.fixture(scope="session")
def bundled() -> List[Path]:
    pages = bundled_pages()
    assert pages, f"no bundled pages in {BUNDLED}"
    return pages
