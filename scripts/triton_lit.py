#!/usr/bin/env python3
"""ctriton's parser, printer and verifier against Triton's own MLIR lit tests.

    scripts/triton_lit.py --repo GITDIR [--rev 4b184cccb] [--dir test/Triton] [-v]
    scripts/triton_lit.py --src DIR                       (a checkout's test/Triton)

A developer's check, not a test of the tree (it needs Triton's sources, which
are not copied here): take the lit tests of Triton 3.6 (a clone of
triton-lang/triton or of facebookexperimental/triton, a fork that tracks it;
4b184cccb is the commit of the 3.6 release there), split each file at its
`// -----` lines as `--split-input-file` does, and for every module:

  1. ask Triton whether it accepts the module: the venv's Python bindings,
     triton._C.libtriton.ir.parse_mlir_module (which parses and verifies);
  2. keep the Triton-dialect modules (no ttg/ttng/amdgpu op, no layout
     encoding: TTGIR is a documented refusal of ctriton's parser);
  3. parse each with ctriton's parser (ct_parse_module, which verifies) through
     ctypes on build/libctriton.so ($CTRITON_LIBRARY names another);
  4. print what ctriton parsed (ct_print_module) and ask Triton again whether it
     accepts the printed text (the round trip);
  5. for the modules Triton rejects, count those ctriton accepts anyway (a
     rule the verifier lacks).

ctriton's own cases (tests/text/rules, with --src) mark a module `// error: MSG`
(Triton and ctriton must both reject it) or `// refused: MSG` (ctriton refuses it
on purpose, e.g. a rank over CT_MAX_RANK; Triton's verdict is only listed).

Prints one line per module that fails a step (with -v, every module) and the
counts; docs/text.md records the latest.  Run it with the Python of
~/.cache/ctriton/venv (Triton 3.6.0).  Exit status 0 when every module Triton
accepts round-trips and no module Triton rejects is accepted; 1 otherwise;
2 on bad usage.
"""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# what makes a module TTGIR (or another dialect's) rather than TTIR
GPU_DIALECT = re.compile(r"\b(ttg|ttng|triton_gpu|triton_nvidia_gpu|amdgpu|rocdl|nvvm|ttig|gpu|"
                         r"llvm|proton|tlx|nvws)\.[a-z_]|#(ttg|ttng|triton_gpu|blocked|shared|mma|"
                         r"linear|dot_op|slice|nvmma|amd)")


def split_input(text):
    """The modules of a lit file, as `mlir-opt --split-input-file` cuts it: (first line, text)."""
    out, cur, start = [], [], 1
    for n, line in enumerate(text.split("\n"), 1):
        if re.match(r"^//\s*-----\s*$", line):
            out.append((start, "\n".join(cur) + "\n"))
            cur, start = [], n + 1
        else:
            cur.append(line)
    out.append((start, "\n".join(cur) + "\n"))
    return [(s, t) for s, t in out if re.search(r"\S", re.sub(r"//[^\n]*", "", t))]


def lit_files(args):
    """(name, text) of every .mlir file of the lit directory."""
    if args.src:
        for dirpath, _, names in sorted(os.walk(args.src)):
            for n in sorted(names):
                if n.endswith(".mlir"):
                    p = os.path.join(dirpath, n)
                    with open(p, encoding="utf-8", errors="replace") as f:
                        yield os.path.relpath(p, args.src), f.read()
        return
    git = ["git", "--git-dir", args.repo]
    names = subprocess.run(git + ["ls-tree", "-r", "--name-only", args.rev, args.dir],
                           capture_output=True, text=True, check=True).stdout.split()
    for n in names:
        if n.endswith(".mlir"):
            text = subprocess.run(git + ["show", "%s:%s" % (args.rev, n)], capture_output=True,
                                  check=True).stdout.decode("utf-8", "replace")
            yield n, text


class Triton:
    """Triton's verdict on a text: None if it accepts it, else its first error line."""

    def __init__(self):
        from triton._C import libtriton
        ir = libtriton.ir
        self.ir = ir
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        for backend in ("nvidia", "amd"):  # their dialects too, as the compiler loads them
            if hasattr(libtriton, backend):
                getattr(libtriton, backend).load_dialects(self.ctx)
        self.tmp = tempfile.mkdtemp(prefix="ctriton-lit-")

    def error(self, text):
        path = os.path.join(self.tmp, "m.mlir")
        with open(path, "w") as f:
            f.write(text)
        # MLIR prints its diagnostics on the process's stderr: catch them in a file
        log = os.path.join(self.tmp, "err")
        sys.stderr.flush()
        saved = os.dup(2)
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 2)
        os.close(fd)
        try:
            self.ir.parse_mlir_module(path, self.ctx)
            return None
        except Exception as e:  # RuntimeError: Parse MLIR file failed.<diagnostics>
            msg = str(e).replace("Parse MLIR file failed.", "").strip()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        with open(log, errors="replace") as f:
            msg = (f.read().strip() + "\n" + msg).strip()
        msg = re.sub(r'loc\("[^"]*":(\d+):(\d+)\): ', r"\1:\2: ", msg)
        return msg.split("\n")[0][:200] or "rejected"


class Ctriton:
    """ctriton's parser and printer through ctypes."""

    def __init__(self, path):
        sys.path.insert(0, os.path.join(ROOT, "python"))
        os.environ["CTRITON_LIBRARY"] = path
        from ctriton import _lib
        self._lib = _lib
        self.L = _lib.lib()

    def parse_print(self, text, name):
        """(printed text, None) or (None, the first error)."""
        data = text.encode("utf-8")
        with self._lib.DiagList() as d:
            m = self.L.ct_parse_module(data, len(data), name.encode(), d.ref)
            if not m:
                return None, d.text().split("\n")[0][:200]
            try:
                return self._lib.take_string(self.L.ct_print_module(m, 0)), None
            finally:
                self.L.ct_module_destroy(m)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--repo", help="a Triton git directory (e.g. the fetch tool's mirror)")
    g.add_argument("--src", help="a directory of lit tests (a checkout's test/Triton)")
    ap.add_argument("--rev", default="4b184cccb", help="--repo: the commit (default: 3.6's)")
    ap.add_argument("--dir", default="test/Triton", help="--repo: the lit directory")
    ap.add_argument("--lib", default=os.environ.get("CTRITON_LIBRARY") or
                    os.path.join(ROOT, "build", "libctriton.so"), help="libctriton.so")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line for every module")
    args = ap.parse_args()
    if not os.path.exists(args.lib):
        ap.error("no %s: build the library first (make build)" % args.lib)
    try:
        tri = Triton()
    except ImportError as e:
        ap.error("cannot import Triton's bindings (%s): run with ~/.cache/ctriton/venv/bin/python" % e)
    ct = Ctriton(args.lib)

    n = dict(modules=0, accepted=0, ttgir=0, ttir=0, parsed=0, roundtrip=0, rejected=0,
             rejected_ttir=0, wrongly_accepted=0, refused=0)
    bad = 0
    for fname, text in lit_files(args):
        for line, mod in split_input(text):
            where = "%s:%d" % (fname, line)
            mod = "\n" * (line - 1) + mod  # errors at the file's lines
            n["modules"] += 1
            terr = tri.error(mod)
            gpu = bool(GPU_DIALECT.search(re.sub(r"//[^\n]*", "", mod)))
            # ctriton's own cases (tests/text/rules): `// error:` Triton and ctriton reject
            # the module, `// refused:` ctriton refuses it on purpose, whatever Triton says
            marked_error = bool(re.search(r"^\s*// error:", mod, re.M))
            refused = bool(re.search(r"^\s*// refused:", mod, re.M))
            if marked_error and terr is None:
                bad += 1
                print("%s: marked `// error:` but Triton accepts it" % where)
            if refused:
                n["refused"] += 1
                _, cerr = ct.parse_print(mod, fname)
                if cerr is None:
                    bad += 1
                    print("%s: marked `// refused:` but ctriton accepts it" % where)
                elif args.verbose:
                    print("%s: ctriton refuses (%s); Triton %s" %
                          (where, cerr, "accepts" if terr is None else "rejects: " + terr))
                continue
            if terr is not None:
                n["rejected"] += 1
                if gpu:
                    continue
                n["rejected_ttir"] += 1
                _, cerr = ct.parse_print(mod, fname)
                if cerr is None:
                    n["wrongly_accepted"] += 1
                    bad += 1
                    print("%s: Triton rejects (%s), ctriton accepts" % (where, terr))
                elif args.verbose:
                    print("%s: both reject (Triton: %s; ctriton: %s)" % (where, terr, cerr))
                continue
            n["accepted"] += 1
            if gpu:
                n["ttgir"] += 1
                continue
            n["ttir"] += 1
            printed, cerr = ct.parse_print(mod, fname)
            if printed is None:
                bad += 1
                print("%s: Triton accepts, ctriton: %s" % (where, cerr))
                continue
            n["parsed"] += 1
            rerr = tri.error(printed)
            if rerr is not None:
                bad += 1
                print("%s: Triton rejects ctriton's printed text: %s" % (where, rerr))
                if args.verbose:
                    print(printed)
                continue
            n["roundtrip"] += 1
            if args.verbose:
                print("%s: ok" % where)
    print("%(modules)d modules; Triton accepts %(accepted)d (%(ttir)d TTIR, %(ttgir)d TTGIR or other "
          "dialects) and rejects %(rejected)d (%(rejected_ttir)d TTIR)" % n)
    print("TTIR that Triton accepts: ctriton parses %(parsed)d of %(ttir)d, round-trips %(roundtrip)d "
          "(printed text Triton accepts)" % n)
    print("TTIR that Triton rejects: ctriton accepts %(wrongly_accepted)d of %(rejected_ttir)d" % n)
    if n["refused"]:
        print("%(refused)d modules marked `// refused:` (ctriton's own limits)" % n)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
