"""The package's build backend (build_backend/pgo_backend.py): its choices, without a build.

A whole PGO build takes two release builds of the extension (10-20 minutes on two cores),
so these tests check what decides the build; the build itself is run by
`scripts/build-pgo.sh` and by `pip install ./bindings/python`.
"""

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, List, Optional

import pytest

import htmltok

BACKEND = Path(__file__).resolve().parents[1] / "build_backend" / "pgo_backend.py"


def load_backend() -> Any:
    pytest.importorskip("maturin", reason="NOT RUN: maturin is not installed (the backend imports it)")
    spec = importlib.util.spec_from_file_location("pgo_backend", BACKEND)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pgo_flag_is_a_bool() -> None:
    # `maturin develop` (the tests' build) is not the backend's PGO build.
    assert isinstance(htmltok.PGO, bool)


def test_backend_passes_maturins_hooks_through() -> None:
    backend = load_backend()
    import maturin

    for hook in ("build_sdist", "build_editable", "get_requires_for_build_wheel",
                 "prepare_metadata_for_build_wheel"):
        assert getattr(backend, hook) is getattr(maturin, hook)
    assert backend.build_wheel is not maturin.build_wheel


def test_unknown_choice_is_refused_before_building(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    backend = load_backend()
    monkeypatch.setenv("HTMLTOK_PGO", "yes please")
    with pytest.raises(ValueError, match="HTMLTOK_PGO"):
        backend.build_wheel(str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_pgo_required_but_impossible_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    backend = load_backend()
    monkeypatch.setenv("HTMLTOK_PGO", "1")
    monkeypatch.setattr(backend, "_why_not", lambda: "no llvm-profdata here")
    with pytest.raises(RuntimeError, match="no llvm-profdata here"):
        backend.build_wheel(str(tmp_path))


def test_without_a_checkout_the_reason_is_the_training_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # An sdist has the backend but not the repository's corpus/ to train on.
    backend = load_backend()
    monkeypatch.setattr(backend, "CORPUS", tmp_path / "corpus")
    assert "not an sdist" in backend._why_not()


def test_llvm_profdata_found_is_rustcs_llvm() -> None:
    backend = load_backend()
    try:
        major = backend._rustc_llvm()[0]
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("NOT RUN: rustc is not on PATH")
    tool = backend.find_llvm_profdata()
    if tool is None:
        # Nothing to check: the backend then builds without PGO and says why.
        assert "llvm-profdata" in backend._why_not()
        return
    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    assert f"LLVM version {major}." in version, (tool, version, sys.version)


def test_auto_falls_back_to_the_plain_build_when_a_pgo_step_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    backend = load_backend()
    monkeypatch.setenv("HTMLTOK_PGO", "auto")
    monkeypatch.setattr(backend, "_why_not", lambda: None)

    def failing_pgo(*args: object) -> None:
        raise subprocess.CalledProcessError(1, ["pgo_train.py"])

    built: List[Optional[str]] = []

    def plain(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
        import os

        built.append(os.environ.get("HTMLTOK_BUILT_WITH_PGO"))
        return "htmltok-plain.whl"

    monkeypatch.setattr(backend, "_build_pgo_wheel", failing_pgo)
    monkeypatch.setattr(backend.maturin, "build_wheel", plain)
    assert backend.build_wheel(str(tmp_path)) == "htmltok-plain.whl"
    assert built == ["0"]
    # With HTMLTOK_PGO=1 the same failure is the install's error.
    monkeypatch.setenv("HTMLTOK_PGO", "1")
    with pytest.raises(subprocess.CalledProcessError):
        backend.build_wheel(str(tmp_path))


def test_a_fallback_is_said_and_recorded_in_the_build(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    backend = load_backend()
    monkeypatch.setenv("HTMLTOK_PGO", "auto")
    monkeypatch.setattr(backend, "_why_not", lambda: "no llvm-profdata here")
    built: List[Optional[str]] = []

    def plain(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
        import os

        built.append(os.environ.get("HTMLTOK_PGO_FALLBACK"))
        return "htmltok-plain.whl"

    monkeypatch.setattr(backend.maturin, "build_wheel", plain)
    assert backend.build_wheel(str(tmp_path)) == "htmltok-plain.whl"
    # Said on standard error (and on the terminal, when there is one), and compiled into
    # the extension as htmltok.PGO_FALLBACK.
    assert "WARNING: building without profile-guided optimization" in capsys.readouterr().err
    assert built == ["no llvm-profdata here"]
    monkeypatch.setenv("HTMLTOK_PGO", "0")
    backend.build_wheel(str(tmp_path))
    assert built[-1] == "HTMLTOK_PGO=0 asked for the plain build"


def test_pgo_fallback_is_none_or_a_reason() -> None:
    assert htmltok.PGO_FALLBACK is None or (isinstance(htmltok.PGO_FALLBACK, str) and not htmltok.PGO)
