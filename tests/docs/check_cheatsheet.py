#!/usr/bin/env python3
"""Keeps docs/cheatsheet.md complete.

Every public name that include/ctriton/tl.h declares (functions and macros
spelled tl_* or TL_*; the internal tl__* and TL__* ones are skipped) must be
mentioned in the cheat-sheet, as a whole word.  Exits 1 and lists the names
that are missing; with --list, prints the names it found in the header.

Plain Python 3, no dependencies.  Run from anywhere:
    python3 tests/docs/check_cheatsheet.py [--header H] [--sheet S] [--list]
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PUBLIC = re.compile(r"^(?:tl|TL)_(?!_)\w*$")
CALL = re.compile(r"\b((?:tl|TL)_\w+)\s*\(")
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.M)


def strip_comments(text):
    """Removes /* */ and // comments, keeping string literals and line breaks."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def public_names(header_text):
    """The public function and macro names declared in a header."""
    text = strip_comments(header_text)
    text = re.sub(r"\\\n", " ", text)  # join continued macro lines
    names = set()
    code = []
    for line in text.split("\n"):
        if re.match(r"^[ \t]*#", line):
            m = DEFINE.match(line)
            if m:
                names.add(m.group(1))  # the macro's name only, not its body
        else:
            code.append(line)
    # outside the preprocessor lines the header has declarations only, so a
    # name followed by `(` is a declared function
    for m in CALL.finditer("\n".join(code)):
        names.add(m.group(1))
    return sorted(n for n in names if PUBLIC.match(n))


def shown(path):
    """A path relative to the source tree when it lies inside it."""
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    return path if rel.startswith("..") else rel


def missing_names(names, sheet_text):
    return [n for n in names
            if not re.search(r"(?<![A-Za-z0-9_])" + re.escape(n) + r"(?![A-Za-z0-9_])", sheet_text)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--header", default=os.path.join(ROOT, "include", "ctriton", "tl.h"))
    ap.add_argument("--sheet", default=os.path.join(ROOT, "docs", "cheatsheet.md"))
    ap.add_argument("--list", action="store_true", help="print the public names of the header")
    args = ap.parse_args(argv)
    with open(args.header, encoding="utf-8") as f:
        names = public_names(f.read())
    if args.list:
        print("\n".join(names))
        return 0
    if not names:
        print("check_cheatsheet: found no public names in %s" % args.header, file=sys.stderr)
        return 1
    try:
        with open(args.sheet, encoding="utf-8") as f:
            sheet = f.read()
    except OSError as e:
        print("check_cheatsheet: cannot read the cheat-sheet: %s" % e, file=sys.stderr)
        return 1
    missing = missing_names(names, sheet)
    if missing:
        print("check_cheatsheet: %d of the %d public names of %s are not in %s:"
              % (len(missing), len(names), shown(args.header), shown(args.sheet)),
              file=sys.stderr)
        for n in missing:
            print("  " + n, file=sys.stderr)
        return 1
    print("check_cheatsheet: all %d public names of %s are in %s"
          % (len(names), shown(args.header), shown(args.sheet)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
