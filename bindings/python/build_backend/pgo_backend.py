"""The package's PEP 517 build backend: maturin's, with the wheel built by profile-guided
optimization (PGO) when the machine can, as CPython's ``--enable-optimizations`` builds
itself.

``pip install ./bindings/python`` (and ``pip wheel``, ``python -m build``) call
``build_wheel`` below, which

1. builds the extension instrumented (``RUSTFLAGS=-Cprofile-generate``) with maturin;
2. runs ``bench/pgo_train.py`` on the repository's bundled ``corpus/`` with it (ten
   crafted pages, none of them in the shared benchmark corpus) — every call users make:
   parse, select, extract, main text, metadata, the token API;
3. merges the counts with ``llvm-profdata`` of rustc's own LLVM (the rustup component
   ``llvm-tools``, or Debian's ``llvm-NN``);
4. builds the wheel again with ``-Cprofile-use``.

The profile is made from the source being built, every time, so it cannot go stale.
It changes code layout and inlining, not answers (the pytest suite runs on both builds).
The instrumented and optimized builds keep their own cargo target directories
(``target/pgo/generate``, ``target/pgo/use``), so they do not rebuild what
``maturin develop`` and ``cargo`` keep in ``target/``, and a second install rebuilds only
what changed in the instrumented build (the optimized build is compiled anew with each
new profile).

``HTMLTOK_PGO`` chooses:

- ``auto`` (the default): PGO when llvm-profdata, the training script and ``corpus/``
  are found; otherwise the plain release build, with a warning saying why.
- ``1``: PGO or fail (the release wheel: ``scripts/build-pgo.sh`` sets it).
- ``0``: the plain release build (half the build time).

``htmltok.PGO`` says which build is installed. Editable installs (``pip install -e``,
``maturin develop``) and sdists are maturin's own, unchanged.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

import maturin
from maturin import (  # noqa: F401  (the hooks this backend passes through unchanged)
    build_editable,
    build_sdist,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_wheel,
)

PACKAGE = Path(__file__).resolve().parent.parent  # bindings/python
ROOT = PACKAGE.parent.parent  # the repository (absent parts: see `_why_not`)
TRAIN = PACKAGE / "bench" / "pgo_train.py"
CORPUS = ROOT / "corpus"


def _say(message: str) -> None:
    # pip shows a backend's output with -v (and on failure); stderr also reaches logs.
    print(f"htmltok build: {message}", file=sys.stderr, flush=True)


def _warn_loudly(message: str) -> None:
    """`_say`, and on the terminal itself: pip hides a backend's output without -v, and a
    fallback to the slower build must not pass unseen."""
    _say(message)
    try:
        with open("/dev/tty", "w") as tty:
            tty.write(f"\nhtmltok build: {message}\n\n")
    except OSError:
        pass  # no terminal (CI, a container): stderr and htmltok.PGO_FALLBACK say it


def _rustc_llvm() -> tuple[str, str, str]:
    """(LLVM major version, host triple, sysroot) of the rustc that cargo will run."""
    rustc = os.environ.get("RUSTC", "rustc")
    info = subprocess.run([rustc, "-vV"], capture_output=True, text=True, check=True).stdout
    fields = dict(line.split(": ", 1) for line in info.splitlines() if ": " in line)
    sysroot = subprocess.run(
        [rustc, "--print", "sysroot"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return fields["LLVM version"].split(".")[0], fields["host"], sysroot


def find_llvm_profdata() -> str | None:
    """llvm-profdata of rustc's LLVM: a profile written by one LLVM is read by the same."""
    major, host, sysroot = _rustc_llvm()
    candidates = [
        os.environ.get("LLVM_PROFDATA", ""),
        str(Path(sysroot) / "lib" / "rustlib" / host / "bin" / "llvm-profdata"),
        f"llvm-profdata-{major}",
        f"/usr/lib/llvm-{major}/bin/llvm-profdata",
        "llvm-profdata",
    ]
    for candidate in filter(None, candidates):
        tool = shutil.which(candidate)
        if tool is None:
            continue
        version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
        if f"LLVM version {major}." in version:
            return tool
    return None


def _why_not() -> str | None:
    """Why a PGO build cannot be made here, or None when it can."""
    if not TRAIN.is_file() or not CORPUS.is_dir():
        return f"no training run here ({TRAIN} and {CORPUS} are in a repository checkout, not an sdist)"
    try:
        if find_llvm_profdata() is None:
            major = _rustc_llvm()[0]
            return (
                f"no llvm-profdata of LLVM {major} (rustc's): `rustup component add llvm-tools`, "
                f"or Debian's llvm-{major}, or set LLVM_PROFDATA"
            )
    except (OSError, subprocess.CalledProcessError, KeyError) as err:
        return f"rustc could not be asked for its LLVM version ({err})"
    return None


@contextmanager
def _environment(**changes: str) -> Iterator[None]:
    """os.environ with `changes` for the duration (maturin's subprocesses inherit it)."""
    saved = {name: os.environ.get(name) for name in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _rustflags(extra: str) -> str:
    return f"{os.environ.get('RUSTFLAGS', '')} {extra}".strip()


def _pgo_dir() -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "pgo"


def _build_pgo_wheel(
    wheel_directory: str,
    config_settings: Mapping[str, Any] | None,
    metadata_directory: str | None,
) -> str:
    profdata = find_llvm_profdata()
    assert profdata is not None  # checked by _why_not
    pgo = _pgo_dir()
    # Fixed paths in RUSTFLAGS, so that a second install rebuilds only what changed:
    # cargo rebuilds everything when RUSTFLAGS change. The counts are written afresh.
    profiles = pgo / "profiles"
    shutil.rmtree(profiles, ignore_errors=True)
    profiles.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="htmltok-pgo-") as scratch:
        work = Path(scratch)
        instrumented, site = work / "instrumented", work / "site"
        for d in (instrumented, site):
            d.mkdir()

        _say("PGO 1/4: building the instrumented extension")
        with _environment(
            RUSTFLAGS=_rustflags(f"-Cprofile-generate={profiles}"),
            CARGO_TARGET_DIR=str(pgo / "generate"),
        ):
            name = maturin.build_wheel(str(instrumented), config_settings, metadata_directory)
        with zipfile.ZipFile(instrumented / name) as wheel:
            wheel.extractall(site)

        _say(f"PGO 2/4: training on {CORPUS}")
        # Run from the scratch directory with only the unpacked wheel on the path, so that
        # the instrumented build is imported, not a package directory of the checkout.
        env = dict(os.environ, PYTHONPATH=str(site), PYTHONNOUSERSITE="1")
        subprocess.run([sys.executable, str(TRAIN), str(CORPUS)], cwd=work, env=env, check=True)
        if not any(profiles.iterdir()):
            raise RuntimeError(f"the training run wrote no profile into {profiles}")

    _say("PGO 3/4: merging the profile")
    merged = pgo / "merged.profdata"
    subprocess.run([profdata, "merge", "-o", str(merged), str(profiles)], check=True)
    # The profile's digest in its file name: cargo does not look into the file, so a new
    # profile must change RUSTFLAGS for every crate to be compiled with it.
    digest = hashlib.sha256(merged.read_bytes()).hexdigest()[:16]
    for old in pgo.glob("profile-*.profdata"):
        old.unlink()
    profile = merged.rename(pgo / f"profile-{digest}.profdata")

    _say("PGO 4/4: building the optimized extension")
    with _environment(
        RUSTFLAGS=_rustflags(f"-Cprofile-use={profile}"),
        CARGO_TARGET_DIR=str(pgo / "use"),
        # Read by the extension (`htmltok.PGO`); cargo rebuilds when it changes.
        HTMLTOK_BUILT_WITH_PGO="1",
    ):
        return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_wheel(
    wheel_directory: str,
    config_settings: Mapping[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    choice = os.environ.get("HTMLTOK_PGO", "auto").strip().lower()
    if choice not in {"auto", "1", "0"}:
        raise ValueError(f"HTMLTOK_PGO={choice!r}: expected auto, 1 or 0")
    if choice != "0":
        why_not = _why_not()
        if why_not is None:
            try:
                return _build_pgo_wheel(wheel_directory, config_settings, metadata_directory)
            except (OSError, RuntimeError, subprocess.CalledProcessError) as err:
                # The instrumented build, its training run or the merge failed: with
                # `auto`, the install still succeeds, as the plain build (which fails in
                # turn if the source does not build).
                if choice == "1":
                    raise
                why_not = f"a PGO step failed ({err})"
        if choice == "1":
            raise RuntimeError(f"HTMLTOK_PGO=1 but no PGO build is possible: {why_not}")
        _warn_loudly(
            f"WARNING: building without profile-guided optimization (about 10% slower): {why_not}"
        )
    else:
        why_not = "HTMLTOK_PGO=0 asked for the plain build"
    with _environment(HTMLTOK_BUILT_WITH_PGO="0", HTMLTOK_PGO_FALLBACK=why_not):
        return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
