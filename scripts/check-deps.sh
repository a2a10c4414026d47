#!/usr/bin/env bash
# The tokenizer crate's normal dependencies are memchr (and bytemuck, if a change earns
# it) and nothing else: a library user of `htmltok` pays for no crawl, CLI or benchmark
# dependency. Fails, listing the tree, when anything else appears.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

tree="$(cargo tree --locked -p htmltok -e normal --prefix none --format '{p}' | awk '{print $1}' | sort -u)"
unexpected="$(echo "$tree" | grep -vxE 'htmltok|memchr|bytemuck' || true)"
echo "htmltok's normal dependency tree:"
echo "$tree" | sed 's/^/  /'
if [ -n "$unexpected" ]; then
    echo "check-deps: FAILED: htmltok depends on more than memchr/bytemuck:" >&2
    echo "$unexpected" | sed 's/^/  /' >&2
    exit 1
fi

# The archive crate reads WARC/ARC records and HTTP bodies without reading HTML: none of
# htmltok's HTML crates may appear in its dependency tree.
archive="$(cargo tree --locked -p htmltok-archive -e normal --prefix none --format '{p}' | awk '{print $1}' | sort -u)"
html="$(echo "$archive" | grep -xE 'htmltok|htmltok-(tree|select|content|crawl|cli)' || true)"
if [ -n "$html" ]; then
    echo "check-deps: FAILED: htmltok-archive depends on an HTML crate:" >&2
    echo "$html" | sed 's/^/  /' >&2
    exit 1
fi
echo "htmltok-archive depends on no HTML crate"
echo "check-deps: ok"
