"""The type stubs against the runtime: every public name of the stubs exists at runtime
and every public name at runtime is in the stubs, with the same signatures (mypy's
stubtest, on the compiled module too); and the names htmltok exports."""

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import htmltok
import htmltok._htmltok

HERE = Path(__file__).resolve().parent
CONFIG = HERE.parent / "pyproject.toml"
ROOT = HERE.parents[2]


def test_stubtest() -> None:
    pytest.importorskip("mypy", reason="NOT RUN: mypy is not installed (pip install mypy)")
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "htmltok", "--mypy-config-file", str(CONFIG),
         "--allowlist", str(HERE / "stubtest-allowlist.txt"),
         # PEP 800's @disjoint_base: every native class is one; not worth marking.
         "--ignore-disjoint-bases"],
        # From the repository root: the configuration's cache_dir is under target/.
        capture_output=True, text=True, cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_exports() -> None:
    """htmltok.__all__ is what the package exports: the native module's public names (but
    the internals of htmltok.ray and htmltok.spark) and the Python ones."""
    exported = set(htmltok.__all__)
    assert all(hasattr(htmltok, name) for name in exported)
    native = {name for name in htmltok._htmltok.__all__}
    internal = {"extract_batch", "METADATA_SPARK_SCHEMA", "ArchiveError", "ArchiveIterator", "WarcRecord"}
    assert native - internal <= exported
    assert {"process", "ProcessOptions", "Pages", "ArrowBatch", "Page", "Counts"} <= exported
    # The deprecated names, kept for one release.
    assert {"process_ipc", "process_batches", "process_arrow", "ArrowBatches"} <= exported
    assert htmltok.ArrowBatches is htmltok.Pages
    # The native functions show the signatures the stubs give.
    assert str(inspect.signature(htmltok.process)) == "(inputs, options=None, *args, output='dicts', **kwargs)"
