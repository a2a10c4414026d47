#!/usr/bin/env python3
"""Writes N generated HTML documents (tag soup, fixed seed) to a folder: the shapes that
exercise the tokenizer's states, tree construction's insertion modes and foreign content,
for comparing outputs before and after a change (scripts/same-outputs.sh).

    python3 scripts/gen-soup.py OUT_DIR [N] [SEED]
"""
import os
import random
import sys

TAGS = (
    "html head body title meta base link style script noscript template p div span a b i em "
    "strong font nobr u s small big code pre listing textarea xmp iframe noembed noframes "
    "plaintext table caption colgroup col tbody thead tfoot tr td th form input button select "
    "option optgroup ul ol li dl dt dd h1 h2 h3 h6 hr br img image frameset frame applet "
    "marquee object embed svg math mi mo mtext annotation-xml foreignObject desc g path "
    "mglyph malignmark math-x custom-el ruby rt rp details summary dialog main article aside "
    "header footer nav section figure figcaption address blockquote center search"
).split()
ATTRS = ["class", "id", "href", "src", "type", "name", "value", "color", "face", "size",
         "encoding", "charset", "content", "http-equiv", "xlink:href", "definitionURL", "style"]
TEXTS = ["x", "  ", "\n", "&amp;", "&lt;", "&notin;", "&notit;", "&#x80;", "&#0;", "\0", "é",
         "<!--c-->", "<!-->", "<!DOCTYPE html>", "<![CDATA[d]]>", "</>", "<?pi>", "&", "<",
         "]]>", "--!>", "\r\n", "\t", "text with words", "\u00a0", "&#x1F600;"]
VALUES = ["", "a b", "text/html", "application/xhtml+xml", "red", "#", "javascript:x",
          "&quot;", "\"'", "x>y", "UTF-8", "text/html; charset=windows-1252"]


def attribute(rng):
    name = rng.choice(ATTRS)
    if rng.random() < 0.2:
        name = name.upper()
    form = rng.random()
    value = rng.choice(VALUES)
    if form < 0.15:
        return f" {name}"
    if form < 0.3:
        return f" {name}={value.replace(' ', '') or 'v'}"
    if form < 0.45:
        return f" {name}='{value}'"
    return f' {name}="{value}"'


def piece(rng):
    r = rng.random()
    if r < 0.45:
        tag = rng.choice(TAGS)
        if rng.random() < 0.1:
            tag = tag.upper()
        attrs = "".join(attribute(rng) for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])))
        end = "/>" if rng.random() < 0.08 else ">"
        return f"<{tag}{attrs}{end}"
    if r < 0.7:
        return f"</{rng.choice(TAGS)}>"
    return rng.choice(TEXTS)


def document(rng):
    n = rng.choice([5, 10, 20, 40, 80, 160])
    return "".join(piece(rng) for _ in range(n))


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 51
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        with open(os.path.join(out, f"soup-{i:05}.html"), "w", encoding="utf-8") as f:
            f.write(document(rng))


if __name__ == "__main__":
    main()
