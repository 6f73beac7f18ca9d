#!/usr/bin/env python3
"""What changed between two Triton releases in the parts ctriton ports.

    scripts/triton_diff.py 3.8.0 3.9.0            summary, op names, then the diffs
    scripts/triton_diff.py 3.8.0 3.9.0 --stat     the summary and the op names only
    scripts/triton_diff.py 3.6.0 3.7.1 --file language/semantic.py

ctriton's kernel language is a port of Triton's frontend (semantic.py, core.py,
standard.py, math.py, random.py, libdevice, the code generator) and its text
layer reads and writes the TTIR dialect.  Adding a release starts from this
listing (docs/triton-versions.md says what to do with it):

  1. the unified diff of each ported Python file;
  2. the TTIR ops (tt.*, ttg.*) one release defines and the other does not,
     and the ops of ctriton's table (include/ctriton/ops.def) the new release
     lacks: asked of each release's own MLIR context when both venvs exist
     (exact), else read from the wheels' files (TritonOps.td, the op names
     compiled into libtriton.so: approximate); the diff of the op definitions
     (include/triton/Dialect/Triton/IR/*.td) where both wheels ship them;
  3. nothing is guessed: a file missing from a release is listed as such.

The releases come from PyPI, as wheels: a ctriton virtual environment that has
the version installed is read in place (~/.cache/ctriton/venv-X.Y.Z, and
~/.cache/ctriton/venv for 3.6.0); otherwise `pip download` fetches the wheel
(no dependencies) into ~/.cache/ctriton/wheels, and only the files above are
read from it.  Exit status 0; 2 on bad usage or a version pip cannot get.
"""
import argparse
import difflib
import glob
import io
import os
import re
import subprocess
import sys
import zipfile

# The frontend files ctriton ports, relative to the `triton` package, and where.
PORTED = [
    ("language/semantic.py", "src/lang/semantic.c (typing rules, op emission)"),
    ("language/core.py", "src/lang/core.c, include/ctriton/tl.h (builtins, defaults)"),
    ("language/standard.py", "src/lang/standard.c (@jit library functions)"),
    ("language/math.py", "src/lang/core.c, semantic.c (math builtins)"),
    ("language/random.py", "src/lang/random.c (Philox)"),
    ("language/extra/cuda/libdevice.py", "src/lang/libdevice_table.inc (scripts/gen_libdevice.py)"),
    ("compiler/code_generator.py", "src/lang/jit.c, control.c (calls, mangling, returns, loops)"),
    ("runtime/jit.py", "src/compile/spec.c (specialization keys, scripts/gen_spec_keys.py)"),
    ("backends/nvidia/compiler.py", "scripts/lower.py, src/compile (options, stages)"),
]
TD_DIR = "include/triton/Dialect/Triton/IR/"
TD_FILES = ["TritonOps.td", "TritonTypes.td", "TritonAttrDefs.td"]
LIBTRITON = "_C/libtriton.so"
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "ctriton")


def fail(msg):
    sys.stderr.write("triton_diff.py: %s\n" % msg)
    sys.exit(2)


class Release:
    """One Triton release's files, from an installed venv or a downloaded wheel."""

    def __init__(self, version):
        if not re.fullmatch(r"\d+\.\d+\.\d+", version):
            fail("`%s` is not a release number like 3.9.0" % version)
        self.version = version
        self.root = None   # a directory holding triton/ ...
        self.wheel = None  # ... or a zip file
        for venv in ([os.path.join(CACHE, "venv")] if version == "3.6.0" else []) + \
                [os.path.join(CACHE, "venv-" + version)]:
            for meta in glob.glob(os.path.join(venv, "lib", "python3*", "site-packages",
                                               "triton-%s.dist-info" % version)):
                self.root = os.path.join(os.path.dirname(meta), "triton")
                return
        self.wheel = self._download()
        self.zip = zipfile.ZipFile(self.wheel)

    def _download(self):
        dest = os.path.join(CACHE, "wheels")
        os.makedirs(dest, exist_ok=True)
        have = glob.glob(os.path.join(dest, "triton-%s-*.whl" % version_glob(self.version)))
        if have:
            return have[0]
        sys.stderr.write("== pip download triton==%s (no dependencies) into %s\n" % (self.version, dest))
        r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", dest,
                            "triton==" + self.version], capture_output=True, text=True)
        have = glob.glob(os.path.join(dest, "triton-%s-*.whl" % version_glob(self.version)))
        if r.returncode != 0 or not have:
            fail("pip cannot get triton==%s: %s" % (self.version, (r.stderr or r.stdout).strip()[-800:]))
        return have[0]

    def where(self):
        return self.root or self.wheel

    def read(self, rel):
        """The bytes of triton/<rel>, or None when this release has no such file."""
        if self.root:
            p = os.path.join(self.root, rel)
            if not os.path.exists(p):
                return None
            with open(p, "rb") as f:
                return f.read()
        try:
            return self.zip.read("triton/" + rel)
        except KeyError:
            return None

    def text(self, rel):
        b = self.read(rel)
        return None if b is None else b.decode("utf-8", "replace")


def version_glob(v):
    return v.replace(".", "[.]")


_op_re = re.compile(rb"\x00((?:tt|ttg)\.[a-z][a-z0-9_]*)\x00")
_td_op_re = re.compile(r'^def\s+\w+\s*:\s*TT_Op<"([a-z0-9_]+)"', re.M)
_def_re = re.compile(r'^CT_OP\(\w+,\s*"([a-z_]+\.[a-z0-9_.]+)"', re.M)

# Run by a release's own Python: which of the op names on stdin its MLIR
# context registers.  Each name is parsed in MLIR's generic form; an op the
# dialects do not define fails with "unregistered operation", any other
# failure (missing operands or attributes) means the op exists.
_PROBE = r"""
import json, os, sys, tempfile
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
from triton._C.libtriton import ir
from triton.backends.compiler import GPUTarget
from triton.compiler import make_backend
ctx = ir.context()
ir.load_dialects(ctx)
make_backend(GPUTarget("cuda", 90, 32)).load_dialects(ctx)
out = {}
tmp = tempfile.mkdtemp()
for name in json.load(sys.stdin):
    src, err = os.path.join(tmp, "m.mlir"), os.path.join(tmp, "err")
    with open(src, "w") as f:
        f.write('module {\n  "%s"() : () -> ()\n}\n' % name)
    saved = os.dup(2)
    fd = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 2)
    try:
        ir.parse_mlir_module(src, ctx)
    except Exception:
        pass
    finally:
        os.dup2(saved, 2)
        os.close(fd)
        os.close(saved)
    out[name] = "unregistered operation" not in open(err).read()
print(json.dumps(out))
"""


def ctriton_op_names():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "include", "ctriton", "ops.def")) as f:
        return set(_def_re.findall(f.read()))


def candidate_names(rel):
    """Op names a release may define, read from its files: TritonOps.td where the
    wheel ships it, else the NUL-terminated op names in libtriton.so (a name the
    linker merged into the tail of a longer string is missed)."""
    td = rel.text(TD_DIR + "TritonOps.td")
    names = {"tt." + n for n in _td_op_re.findall(td)} if td is not None else set()
    lib = rel.read(LIBTRITON)
    if lib is not None:
        names |= {m.group(1).decode() for m in _op_re.finditer(lib)}
    return names


def registered(rel, names):
    """{name: registered} by the release's own MLIR context (needs its venv), or None."""
    if not rel.root:
        return None
    py = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(rel.root)))),
                      "bin", "python")
    if not os.path.exists(py):
        return None
    import json
    r = subprocess.run([py, "-c", _PROBE], input=json.dumps(sorted(names)), capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.stderr.write("triton_diff.py: the op probe of %s failed: %s\n" % (rel.version, r.stderr[-400:]))
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


def op_changes(old, new):
    """(removed, added, how): the TTIR-dialect (tt, ttg) op names one release
    defines and the other does not, and ctriton's own ops that a release lacks."""
    mine = ctriton_op_names()
    names = candidate_names(old) | candidate_names(new) | mine
    ra, rb = registered(old, names), registered(new, names)
    if ra is not None and rb is not None:
        a = {n for n, ok in ra.items() if ok}
        b = {n for n, ok in rb.items() if ok}
        how = "each release's own MLIR context (exact)"
    else:
        a, b = candidate_names(old), candidate_names(new)
        # only tt/ttg names can be read from the files
        mine = {n for n in mine if n.split(".")[0] in ("tt", "ttg")}
        how = "names in the wheels' files (approximate: install both venvs for an exact answer)"
    return sorted(a - b), sorted(b - a), sorted(mine - b), how


def udiff(a, b, name, va, vb):
    return list(difflib.unified_diff(a.splitlines(), b.splitlines(), "%s (%s)" % (name, va),
                                     "%s (%s)" % (name, vb), lineterm="", n=3))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--stat", action="store_true", help="the summary and op names, no diffs")
    ap.add_argument("--file", action="append", help="only this file (relative to the triton package)")
    args = ap.parse_args()
    old, new = Release(args.old), Release(args.new)
    files = PORTED
    if args.file:
        known = dict(PORTED)
        files = [(f, known.get(f, "")) for f in args.file]
    out = io.StringIO()
    w = out.write
    w("# Triton %s -> %s: the frontend files ctriton ports\n\n" % (old.version, new.version))
    w("old: %s\nnew: %s\n\n" % (old.where(), new.where()))
    w("| file | ported in | lines removed | lines added |\n|---|---|---|---|\n")
    diffs = []
    for rel, ported in files:
        a, b = old.text(rel), new.text(rel)
        if a is None or b is None:
            w("| triton/%s | %s | %s | %s |\n" % (rel, ported, "absent" if a is None else "",
                                                  "absent" if b is None else ""))
            continue
        d = udiff(a, b, rel, old.version, new.version)
        minus = sum(1 for l in d if l.startswith("-") and not l.startswith("---"))
        plus = sum(1 for l in d if l.startswith("+") and not l.startswith("+++"))
        w("| triton/%s | %s | %d | %d |\n" % (rel, ported, minus, plus))
        if d:
            diffs.append(d)
    if not args.file:
        gone, came, lacking, how = op_changes(old, new)
        w("\n## TTIR ops (from %s)\n\n" % how)
        w("removed: %s\n" % (", ".join(gone) or "none"))
        w("added:   %s\n" % (", ".join(came) or "none"))
        w("ops of ctriton's table (include/ctriton/ops.def) that %s lacks: %s\n"
          % (new.version, ", ".join(lacking) or "none"))
        for td in TD_FILES:
            a, b = old.text(TD_DIR + td), new.text(TD_DIR + td)
            if a is not None and b is not None:
                d = udiff(a, b, TD_DIR + td, old.version, new.version)
                w("%s: %s\n" % (td, "%d changed lines" % sum(
                    1 for l in d if l[:1] in "+-" and l[:3] not in ("+++", "---")) if d else "identical"))
                if d:
                    diffs.append(d)
    if not args.stat:
        for d in diffs:
            w("\n")
            w("\n".join(d) + "\n")
    sys.stdout.write(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
