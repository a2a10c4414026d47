#!/usr/bin/env bash
# Installs what `cargo bench -p htmltok-benches --bench instructions` needs besides the crates themselves:
# valgrind, and gungraun-runner of exactly the version of the `gungraun` crate that
# Cargo.lock pins (the runner refuses to work with another version).
#
#   scripts/install-bench-tools.sh
#
# `cargo bench -p htmltok-benches --bench compare` needs nothing beyond cargo.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "installing valgrind (apt-get)..."
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq valgrind
fi
valgrind --version

# The locked version of the gungraun crate (fall back to Cargo.toml's requirement).
version="$(awk '/^name = "gungraun"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$root/Cargo.lock" 2>/dev/null || true)"
if [ -z "$version" ]; then
    version="$(sed -n 's/^gungraun = "\([0-9.]*\)".*/\1/p' "$root/benches/Cargo.toml" | head -n1)"
fi
if [ -z "$version" ]; then
    echo "error: cannot find the gungraun version in Cargo.lock or Cargo.toml" >&2
    exit 1
fi

installed="$(gungraun-runner --version 2>/dev/null | awk '{print $NF}' || true)"
if [ "$installed" = "$version" ]; then
    echo "gungraun-runner $version is already installed"
else
    echo "installing gungraun-runner $version (was: ${installed:-none})..."
    cargo install gungraun-runner --version "$version" --locked
fi
gungraun-runner --version
