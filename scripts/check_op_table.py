#!/usr/bin/env python3
"""check_op_table.py - that the op table (include/ctriton/ops.def) is the one
place that states an op's name, arity, results and textual form.

Run by CTest (op_table_single_source); exit status 1 with one line per
finding (file:line: what), 0 when there is none.  It checks the C sources
under src/ and tools/ (comments and string contents removed first):

  names    no string literal spells an op's name ("tt.load"): the names are
           ct_op_table's (ct_op_info_of(code)->name, ct_opcode_from_name)
  counts   no count of an op's operands, results, regions or successors
           (->nopnds, ->nres, ->nregions, ->nsucc) is compared with a number
           where the code is about one op: inside a `case CT_OP_...:` of a
           switch, or in a statement that names a CT_OP_ opcode.  Such a
           count is what the op's row says (ct_op_arity_ok checks it); an
           optional operand is found by its segment's name (ct_op_get(op,
           "mask")), a variadic one's length by ct_op_count.
  forms    the printer and parser (src/text/parse*.c, print*.c, format.c)
           have no per-op switch: the forms are the rows' FORMAT strings
           (format.c) and the custom<Name> forms (forms.c)
  gates    the verifier (src/check/verify.c) and the emulator's compiler
           (src/emu/compile.c) call ct_op_arity_ok, and no function named
           *arity* checks counts of its own (one that calls ct_op_arity_ok
           is a wrapper)

A count compared with a number that is not the op's arity (a limit of the
emulator, a pattern a lint looks for) is written with a named constant or
through the table, so that this check stays exact.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNT = re.compile(r"(?:->|\.)(nopnds|nres|nregions|nsucc)\s*(==|!=|<=|>=|<|>)\s*\d"
                   r"|\b\d+\s*(==|!=|<=|>=|<|>)\s*\w+(?:->|\.)(nopnds|nres|nregions|nsucc)\b")
FORM_FILES = re.compile(r"^src/text/(parse[a-z_]*|print[a-z_]*|format)\.c$")


def strip(text):
    """C text with comments blanked and string contents emptied (lines kept)."""
    out, i, n = [], 0, len(text)
    strings = []
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            strings.append((text.count("\n", 0, i) + 1, text[i + 1:j]))
            out.append(c + " " * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out), strings


def op_names():
    text = open(os.path.join(ROOT, "include/ctriton/ops.def")).read()
    return set(re.findall(r'^CT_OP\(\s*\w+\s*,\s*"([^"]+)"', text, re.M))


def sources():
    for top in ("src", "tools"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    p = os.path.join(d, f)
                    yield os.path.relpath(p, ROOT), open(p, errors="replace").read()


def statements(lines):
    """(first line, last line, text) of each statement-ish chunk: split at ; { }"""
    start, buf = 0, []
    for i, l in enumerate(lines):
        for part in re.split(r"([;{}])", l):
            if not buf:
                start = i
            buf.append(part)
            if part in (";", "{", "}"):
                yield start, i, "".join(buf)
                buf = []
        buf.append("\n")


def case_regions(lines):
    """the line ranges that follow a `case CT_OP_...:` up to the next case or
    default of the same switch, or the end of that switch"""
    regions, stack, depth = [], [], 0
    for i, l in enumerate(lines):
        for m in re.finditer(r"\bcase\s+CT_OP_\w+\s*:|\bcase\b[^:]*:|\bdefault\s*:|[{}]", l):
            t = m.group(0)
            if t == "{":
                depth += 1
            elif t == "}":
                if stack and stack[-1][1] == depth:
                    regions.append((stack.pop()[0], i))
                depth -= 1
            else:
                if stack and stack[-1][1] == depth:
                    regions.append((stack.pop()[0], i))
                if t.startswith("case") and "CT_OP_" in t:
                    stack.append((i, depth))
    return regions


def main():
    names = op_names()
    found = []
    gates = {"src/check/verify.c": False, "src/emu/compile.c": False}
    for path, text in sources():
        code, strings = strip(text)
        lines = code.split("\n")
        if path != "src/ir/optable.c":
            for line, s in strings:
                if s in names:
                    found.append(f"{path}:{line}: names op \"{s}\" (ct_op_info_of(CT_OP_...)->name)")
        if path in gates:
            gates[path] = "ct_op_arity_ok(" in code
        for i, l in enumerate(lines):
            m = re.search(r"\b(?:static\s+)?bool\s+(\w*arity\w*)\s*\(", l)
            body = "".join(lines[i:i + 16])
            if (m and path != "src/ir/optable.c" and not l.rstrip().endswith(";")
                    and "ct_op_arity_ok(" not in body):
                found.append(f"{path}:{i + 1}: an arity check of its own ({m.group(1)}): "
                             "ct_op_arity_ok")
        if FORM_FILES.match(path) and re.search(r"\bcase\s+CT_OP_", code):
            i = next(k for k, l in enumerate(lines) if re.search(r"\bcase\s+CT_OP_", l))
            found.append(f"{path}:{i + 1}: a per-op switch in the printer/parser "
                         "(the row's FORMAT, or a custom form in forms.c)")
        if path == "src/ir/optable.c":
            continue
        flagged = set()
        for a, b in case_regions(lines):
            for i in range(a, b + 1):
                if COUNT.search(lines[i]):
                    flagged.add(i)
        for a, b, st in statements(lines):
            if "CT_OP_" in st and COUNT.search(st):
                for i in range(a, b + 1):
                    if COUNT.search(lines[i]):
                        flagged.add(i)
        for i in sorted(flagged):
            found.append(f"{path}:{i + 1}: an op's count compared with a number: "
                         f"{lines[i].strip()}")
    for path, ok in gates.items():
        if not ok:
            found.append(f"{path}: does not call ct_op_arity_ok (its counts must be the table's)")
    for f in found:
        print(f)
    if found:
        print(f"check_op_table: {len(found)} place(s) restate what ops.def says", file=sys.stderr)
        return 1
    print("check_op_table: names, counts and forms of ops are stated in ops.def only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
