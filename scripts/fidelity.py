#!/usr/bin/env python3
"""Fidelity harness: C kernels against their Python originals, stage by stage.

For every kernel and config that `ctriton list --json` reports, this script
  1. compiles the Python original (kernels/py/*.py) with Triton's frontend for
     GPUTarget("cuda", 90, 32): the raw module (`.source`), then Triton's own
     stages ttir, ttgir, llir and ptx;
  2. parses the TTIR that the C port emits (`ctriton emit`), and runs the very
     same stages on it (the make_ttir passes first, since it is raw);
  3. compares each stage after stripping debug information and renumbering
     SSA names, and writes the verdict table tests/golden/VERDICTS.md;
  4. keeps Python's IR under tests/golden/<kernel>/<config>/ for the tools
     that run without Triton (the raw gate, the emulator tests).

Both sides are compiled with line info disabled (TRITON_DISABLE_LINE_INFO=1),
so LLIR and PTX must be byte-identical after the normalization below.

Every supported Triton release has its table: run this script with that
release's Python (~/.cache/ctriton/venv-X.Y.Z/bin/python; `make fidelity`
does every release) and the C side is built for it (`ctriton --triton X.Y.Z`).
3.6.0 writes tests/golden/VERDICTS.md and the goldens under tests/golden/; any
other release writes VERDICTS-X.Y.Z.md, keeps its stages under --golden
(default build/golden-X.Y.Z) and fills the raw column itself (`ctriton diff
--exact` of the two raw modules: as written, no normalization).  A kernel the release's Python refuses (block
pointers in 3.9) is a row of its own table when the C side refuses it with
Python's message; its descriptor-based twin is a row like any other.

Exit status: 0 when every row is identical at llir and ptx (or refused alike),
1 otherwise, 2 when the Python's Triton is not the release asked for.
"""
import argparse
import concurrent.futures as cf
import datetime
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

os.environ["TRITON_DISABLE_LINE_INFO"] = "1"
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGES = ["ttir", "ttgir", "llir", "ptx"]
# the release whose goldens are committed (tests/golden/<kernel>/<config>/) and
# whose table is VERDICTS.md; ctriton's first target (src/ir/triton_version.c)
BASELINE = "3.6.0"


def parse_signature(k):
    """ctriton's signature string -> Triton's (signature, constexprs, attrs)."""
    import triton.language as tl  # noqa: F401
    mod = load_module(k["py"])
    fn = getattr(mod, k["kernel"])
    names = list(fn.arg_names)
    sig, consts, attrs = {}, {}, {}
    # entries end at a space or comma, except inside <...> (tensordesc<fp16[64,64]>)
    entries = re.findall(r"(?:[^\s,<]|<[^>]*>)+", k["signature"])
    for pos, e in enumerate(entries):
        name, ty = e.split("=", 1) if "=" in e else (None, e)
        if name is None:
            # positional: the pos-th non-constexpr parameter
            runtime = [n for n in names if not fn.params[names.index(n)].is_constexpr]
            name = runtime[pos]
        div = None
        if ":" in ty:
            ty, d = ty.split(":")
            div = int(d)
        if ty in ("1", "None"):
            # the JIT's specializations of an int equal to 1 and of a None argument
            sig[name] = "constexpr"
            consts[name] = 1 if ty == "1" else None
            continue
        sig[name] = ty
        if div == 16:
            attrs[(names.index(name),)] = [["tt.divisibility", 16]]
    for item in re.findall(r"(\w+)=('[^']*'|\"[^\"]*\"|\S+)", k["constexprs"]):
        name, val = item
        if val[0] in "'\"":
            v = val[1:-1]
        elif val in ("True", "False"):
            v = val == "True"
        elif val == "None":
            v = None
        else:
            try:
                v = int(val, 0)
            except ValueError:
                try:
                    v = float(val)
                except ValueError:
                    v = getattr(tl, {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32",
                                     "fp64": "float64", "fp8e4nv": "float8e4nv",
                                     "fp8e5": "float8e5"}.get(val, val))
        sig[name] = "constexpr"
        consts[name] = v
    # constexprs the config leaves out take their defaults, as the JIT's binder does
    import inspect
    for i, n in enumerate(names):
        p = fn.params[i]
        if n not in sig and p.is_constexpr and p.default is not inspect.Parameter.empty:
            sig[n] = "constexpr"
            consts[n] = p.default
    # Triton wants the signature in parameter order
    sig = {n: sig[n] for n in names if n in sig}
    return fn, sig, consts, attrs


_modules = {}


def load_module(relpath):
    if relpath not in _modules:
        name = os.path.splitext(os.path.basename(relpath))[0]
        spec = importlib.util.spec_from_file_location(name, relpath)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        _modules[relpath] = mod
    return _modules[relpath]


def compile_stages(module, backend, options, context, assemble=False):
    """Runs Triton's stages on a module already made (raw TTIR). Returns texts.

    With `assemble`, the PTX also goes through ptxas (Triton's `cubin` stage,
    Triton's own bundled ptxas, no GPU needed): PTX that Triton prints but
    ptxas refuses (e.g. an eviction policy combined with `.cg`) fails here
    instead of on the GPU.  out["cubin"] is then the cubin's size, or
    out["cubin_error"] ptxas's complaint."""
    from triton._C.libtriton import ir  # noqa: F401
    from triton.backends.compiler import Language
    stages = {}
    backend.add_stages(stages, options, Language.TRITON)
    metadata = {"target": backend.target, **options.__dict__}
    out = {}
    cur = module
    for ext in STAGES:
        cur = stages[ext](cur, metadata)
        out[ext] = cur if isinstance(cur, str) else str(cur)
    if assemble:
        try:
            out["cubin"] = "%d bytes" % len(stages["cubin"](cur, metadata))
        except Exception as e:  # ptxas refused the PTX
            lines = [l for l in str(e).splitlines()
                     if "error" in l.lower() and ".b8" not in l and "aborted" not in l]
            out["cubin_error"] = (lines[0] if lines else str(e).splitlines()[0]).strip()
    return out


def make_backend_and_options(k):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import make_backend
    target = GPUTarget("cuda", 90, 32)
    backend = make_backend(target)
    opts = {"num_warps": int(k["num_warps"]), "num_stages": int(k["num_stages"])}
    # a config's other options (tl_config.options) that Triton's compiler reads too;
    # implicit_store_casts is the C side's alone (Python always converts)
    for word in k.get("options", "").split():
        name, value = word.split("=", 1)
        if name in ("debug", "sanitize_overflow", "enable_fp_fusion"):
            opts[name] = value in ("True", "true", "1")
        elif name in ("num_ctas", "maxnreg"):
            opts[name] = int(value)
    return backend, backend.parse_options(opts)


def python_side(k):
    from triton._C.libtriton import ir
    from triton.compiler import ASTSource
    fn, sig, consts, attrs = parse_signature(k)
    backend, options = make_backend_and_options(k)
    src = ASTSource(fn, sig, consts, attrs)
    options = backend.parse_options(dict(options.__dict__, **src.parse_options()))
    def make_ir():
        ctx = ir.context()
        ir.load_dialects(ctx)
        backend.load_dialects(ctx)
        return src.make_ir(backend.target, options, backend.get_codegen_implementation(options),
                           backend.get_module_map(), ctx), ctx

    # The golden raw TTIR keeps Python's source locations (kernels/py/...:line),
    # so that tools reading it (the emulator's out-of-bounds reports, ctriton
    # diff) point at Python lines; the stages are compiled without line info.
    os.environ.pop("TRITON_DISABLE_LINE_INFO", None)
    try:
        raw = str(make_ir()[0])
    finally:
        os.environ["TRITON_DISABLE_LINE_INFO"] = "1"
    # paths relative to the repository and to site-packages: the same text on every machine
    import triton
    raw = raw.replace('loc("' + ROOT + '/', 'loc("')
    raw = raw.replace('loc("' + os.path.dirname(os.path.dirname(triton.__file__)) + '/', 'loc("')
    mod, ctx = make_ir()
    out = compile_stages(mod, backend, options, ctx)
    out["source"] = raw
    return out


def emit_c(k, ctriton, version):
    """ctriton: the command as a list (with its --kernels plugins)."""
    return subprocess.run(ctriton + ["emit", k["kernel"], "--config", k["config"], "--locs",
                                     "--triton", version],
                          check=True, capture_output=True, text=True).stdout


def c_side(k, ctriton, version):
    from triton._C.libtriton import ir
    text = emit_c(k, ctriton, version)
    backend, options = make_backend_and_options(k)
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    with tempfile.NamedTemporaryFile("w", suffix=".ttir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        mod = ir.parse_mlir_module(path, ctx)
        mod.context = ctx
    finally:
        os.unlink(path)
    out = compile_stages(mod, backend, options, ctx, assemble=True)
    out["source"] = text
    return out


# ---- normalization ------------------------------------------------------

_loc_re = re.compile(r"\s*loc\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)")


_def_patterns = [
    re.compile(r"^\s*((?:%[\w$.\-]+(?::\d+)?)(?:,\s*%[\w$.\-]+)*)\s*="),  # results
    re.compile(r"(?:\^bb\d+|tt\.func\s+\w+\s+@[\w$.\-\"]+|while\s*)\((.*?)\)\s*(?::|->|attributes|\{|$)"),
    re.compile(r"scf\.for\s+(%[\w$.\-]+)\s*="),
    re.compile(r"iter_args\((.*?)\)\s*->"),
]
_name_re = re.compile(r"%([A-Za-z0-9_$.\-]+)")


def norm_mlir(text):
    """Strip locations; rename SSA values by definition order (scope-aware: MLIR
    reuses names in sibling regions, so a name maps to its latest definition)."""
    lines = []
    for line in text.splitlines():
        if line.startswith("#loc"):
            continue
        line = _loc_re.sub("", line)
        lines.append(line.rstrip())
    cur = {}
    counter = [0]

    def define(name):
        cur[name] = "%%v%d" % counter[0]
        counter[0] += 1

    out = []
    for line in lines:
        defs = []
        for pat in _def_patterns:
            for m in pat.finditer(line):
                grp = m.group(1)
                if pat is _def_patterns[1] or pat is _def_patterns[3]:
                    # "%a: T, %b: T" or "%a = %x, %b = %y": the names before ':' or '='
                    for part in re.finditer(r"%([\w$.\-]+)\s*[:=]", grp):
                        defs.append(part.group(1))
                else:
                    for part in _name_re.finditer(grp):
                        defs.append(part.group(1))
        # uses on this line refer to earlier definitions; except the definitions
        # themselves (iter_args' init values are uses and come after '=')
        def rename(m, defs=set(defs)):
            key = m.group(1)
            if key not in cur:
                define(key)
            return cur[key]
        # first define, in textual order, then substitute uses
        pieces = []
        pos = 0
        for m in _name_re.finditer(line):
            name = m.group(1)
            pieces.append(line[pos:m.start()])
            is_def = False
            if name in defs:
                # a definition if followed by ':', ' =', ':N =' or ',' in a result list
                rest = line[m.end():m.end() + 4]
                before = line[:m.start()].rstrip()
                if rest.startswith(":") or rest.lstrip().startswith("=") or \
                        (before == "" and rest.lstrip().startswith(",")) or \
                        before.endswith("scf.for"):
                    is_def = True
                    defs.remove(name)
            if is_def:
                define(name)
                pieces.append(cur[name])
            else:
                if name not in cur:
                    define(name)
                pieces.append(cur[name])
            pos = m.end()
        pieces.append(line[pos:])
        out.append("".join(pieces))
    return "\n".join(out).strip() + "\n"


def norm_llir(text):
    out = []
    for line in text.splitlines():
        if line.startswith("!") or line.startswith("declare void @llvm.dbg"):
            continue
        if line.startswith("source_filename"):
            continue
        line = re.sub(r",\s*!dbg !\d+", "", line)
        line = re.sub(r"\s*#dbg_\w+\(.*\)\s*$", "", line)
        if not line.strip():
            continue
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


def norm_ptx(text):
    out = []
    skip = False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(".section") and ".debug" in s:
            skip = True
        if skip:
            if s == "}":
                skip = False
            continue
        if s.startswith(".loc") or s.startswith(".file") or s.startswith("$L__"):
            continue
        if not s:
            continue
        out.append(line.rstrip())
    return "\n".join(out) + "\n"


NORM = {"ttir": norm_mlir, "ttgir": norm_mlir, "llir": norm_llir, "ptx": norm_ptx,
        "source": norm_mlir}


def diffstat(a, b):
    import difflib
    plus = minus = 0
    for d in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0):
        if d.startswith("+") and not d.startswith("+++"):
            plus += 1
        elif d.startswith("-") and not d.startswith("---"):
            minus += 1
    return plus, minus


def refusal(e):
    """The message of a Python compilation error (the last line, without the source excerpt)."""
    lines = [l.strip() for l in str(e).splitlines() if l.strip()]
    return lines[-1] if lines else type(e).__name__


def run_one(k, ctriton, golden_dir, version, source_copy):
    try:
        py = python_side(k)
    except Exception as e:
        # The Python original must compile, unless this release refuses the
        # construct: then the C side must refuse it too, with Python's words.
        msg = refusal(e)
        try:
            emit_c(k, ctriton, version)
            return k, {"error": "python refuses it (%s) but the C side builds it" % msg}
        except subprocess.CalledProcessError as ce:
            if msg in ce.stderr and version in ce.stderr:
                return k, {"refused": msg}
            return k, {"error": "python: %s; C side: %s" % (msg, ce.stderr.strip()[-300:])}
    try:
        c = c_side(k, ctriton, version)
    except subprocess.CalledProcessError as e:
        return k, {"error": "ctriton emit failed: %s" % e.stderr.strip()}
    except Exception as e:
        return k, {"error": "c side: %s" % e}
    res = {}
    if "cubin_error" in c:
        res["error"] = "ptxas refuses the PTX: %s" % c["cubin_error"]
    gdir = os.path.join(golden_dir, k["kernel"], k["config"])
    os.makedirs(gdir, exist_ok=True)
    for old in os.listdir(gdir):
        if old.startswith("diff."):
            os.unlink(os.path.join(gdir, old))
    for ext in ["source"] + STAGES:
        with open(os.path.join(gdir, "py." + ext), "w") as f:
            f.write(py[ext])
    with open(os.path.join(gdir, "c.source"), "w") as f:
        f.write(c["source"])
    if source_copy:
        # Python's raw TTIR of this release beside the baseline's goldens, for the
        # tools that read every release's text (the emulator's tests)
        sdir = os.path.join(source_copy, k["kernel"], k["config"])
        os.makedirs(sdir, exist_ok=True)
        with open(os.path.join(sdir, "py-%s.source" % version), "w") as f:
            f.write(py["source"])
    if version != BASELINE:
        # the raw column: both raw modules as written (`diff --exact`, as the raw
        # gate compares; the committed goldens the raw gate reads are the baseline's)
        r = subprocess.run(ctriton + ["diff", "--exact", "--json", os.path.join(gdir, "py.source"),
                            os.path.join(gdir, "c.source")], capture_output=True, text=True)
        try:
            j = json.loads(r.stdout)
            res["raw"] = "✓" if j["equal"] else "+%d/-%d" % (j["added"], j["removed"])
        except (ValueError, KeyError):
            res["raw"] = "unreadable"
    for ext in STAGES:
        a, b = NORM[ext](py[ext]), NORM[ext](c[ext])
        if a == b:
            res[ext] = "✓"
        else:
            p, m = diffstat(a, b)
            res[ext] = "+%d/-%d" % (p, m)
            with open(os.path.join(gdir, "diff." + ext), "w") as f:
                import difflib
                f.writelines(l + "\n" for l in difflib.unified_diff(
                    a.splitlines(), b.splitlines(), "python", "c", lineterm=""))
    return k, res


def default_ctriton():
    """build/ctriton in the source tree; installed (share/ctriton/), the bin/ctriton beside it."""
    here = os.path.dirname(os.path.abspath(__file__))
    installed = os.path.join(here, "..", "..", "bin", "ctriton")
    if os.path.basename(here) == "ctriton" and os.path.exists(installed):
        return os.path.normpath(installed)
    return os.path.join(ROOT, "build", "ctriton")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ctriton", default=default_ctriton())
    ap.add_argument("--kernels", action="append", default=[], metavar="LIB",
                    help="a kernel plugin for ctriton (repeatable): a project's own kernels")
    ap.add_argument("--no-library", action="store_true",
                    help="leave ctriton's own kernels out (a plugin's may have their names)")
    ap.add_argument("--triton", default=None,
                    help="the release to compare for; it must be the Triton this Python imports "
                         "(default: that one)")
    ap.add_argument("--golden", default=None,
                    help="where Python's IR goes (default: tests/golden in ctriton's tree, else "
                         "./golden, for %s; build/golden-X.Y.Z for another release)" % BASELINE)
    ap.add_argument("--source-copy", default=None,
                    help="also write Python's raw TTIR as DIR/<kernel>/<config>/py-X.Y.Z.source")
    ap.add_argument("--verdicts", default=None)
    ap.add_argument("--kernel", action="append", help="only these kernels")
    ap.add_argument("--all", action="store_true", help="the conformance kernels too")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--raw-column", default=None,
                    help="JSON file with the raw-gate results (kernel/config -> verdict)")
    args = ap.parse_args()
    ctriton = [os.path.abspath(args.ctriton) if os.sep in args.ctriton else args.ctriton]
    if args.no_library:
        ctriton.append("--no-library")
    for lib in args.kernels:
        ctriton += ["--kernels", os.path.abspath(lib)]
    start = os.getcwd()
    if args.golden is not None:
        args.golden = os.path.abspath(args.golden)
    if args.verdicts:
        args.verdicts = os.path.abspath(args.verdicts)
    if args.raw_column:
        args.raw_column = os.path.abspath(args.raw_column)
    os.chdir(ROOT)
    import triton
    version = args.triton or triton.__version__
    if version != triton.__version__:
        sys.stderr.write("fidelity.py: %s has Triton %s, not %s: run this script with the Python of "
                         "~/.cache/ctriton/venv-%s\n" % (sys.executable, triton.__version__, version,
                                                           version))
        return 2
    if args.golden is None:
        tree = os.path.join(ROOT, "tests", "golden")
        args.golden = (tree if os.path.isdir(tree) else os.path.join(start, "golden")) \
            if version == BASELINE else os.path.join(ROOT, "build", "golden-" + version)
    if args.source_copy:
        args.source_copy = os.path.abspath(os.path.join(start, args.source_copy))
    listing = json.loads(subprocess.run(ctriton + ["list", "--json", "--triton", version] +
                                        (["--all"] if args.all else []),
                                        check=True, capture_output=True, text=True).stdout)
    # a plugin's Python original: absolute (the registry resolves it beside the C file that
    # registered it), or relative to where this script was started; ctriton's own: to ROOT
    for k in listing:
        if not os.path.isabs(k["py"]) and not os.path.exists(os.path.join(ROOT, k["py"])):
            k["py"] = os.path.join(start, k["py"])
    if args.kernel:
        listing = [k for k in listing if k["kernel"] in args.kernel]
    raw = {}
    if args.raw_column and os.path.exists(args.raw_column):
        raw = json.load(open(args.raw_column))
    results = []
    with cf.ProcessPoolExecutor(max_workers=args.jobs) as ex:
        futs = [ex.submit(run_one, k, ctriton, args.golden, version, args.source_copy)
                for k in listing]
        for f in futs:
            results.append(f.result())
    ok = True
    rows = []
    conf_rows = []
    refused = []
    for k, res in results:
        table = conf_rows if k.get("conformance") else rows
        key = "%s/%s" % (k["kernel"], k["config"])
        if "raw" in res:
            raw[key] = res["raw"]
        if "refused" in res:
            refused.append("| %s | %s | %s |" % (k["kernel"], k["config"], res["refused"]))
            print("%-40s refused by Python and C alike: %s" % (key, res["refused"]))
            continue
        if "error" in res:
            ok = False
            table.append("| %s | %s | %s | error | error | error | error |" % (
                k["kernel"], k["config"], raw.get(key, "")))
            print("%-40s ERROR %s" % (key, res["error"]), file=sys.stderr)
            continue
        if res["llir"] != "✓" or res["ptx"] != "✓":
            ok = False
        table.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            k["kernel"], k["config"], raw.get(key, ""), res["ttir"], res["ttgir"], res["llir"], res["ptx"]))
        print("%-40s ttir %-10s ttgir %-10s llir %-10s ptx %s" % (
            key, res["ttir"], res["ttgir"], res["llir"], res["ptx"]))
    if args.verdicts:
        note_path = re.sub(r"\.md$", "", args.verdicts) + ".notes.md"
        notes = open(note_path).read() if os.path.exists(note_path) else ""
        with open(args.verdicts, "w") as f:
            f.write("# Verdicts: C kernels against their Python originals\n\n")
            f.write("Generated by `scripts/fidelity.py` on %s with Triton %s, target sm_90 "
                    "(cuda, 90, 32), line info disabled; the C side built for Triton %s "
                    "(`ctriton --triton %s`). ✓: identical after normalization; "
                    "+a/-b: lines added/removed in the C side's stage. Every C-side PTX is also "
                    "assembled with Triton's ptxas (a refusal is an error row).\n\n"
                    % (datetime.date.today().isoformat(), triton.__version__, version, version))
            f.write("| kernel | config | raw | ttir | ttgir | llir | ptx |\n")
            f.write("|---|---|---|---|---|---|---|\n")
            f.write("\n".join(rows) + "\n")
            if conf_rows:
                f.write("\n## Conformance kernels\n\nOne construct of triton.language each "
                        "(tests/conformance); same columns.\n\n")
                f.write("| kernel | config | raw | ttir | ttgir | llir | ptx |\n")
                f.write("|---|---|---|---|---|---|---|\n")
                f.write("\n".join(conf_rows) + "\n")
            if refused:
                f.write("\n## Refused by Triton %s\n\nKernels this release's Python does not "
                        "compile; the C side, built for it, refuses them with Python's message "
                        "(checked). Their descriptor-based twins are rows above.\n\n"
                        "| kernel | config | Python's message, also in the C side's |\n"
                        "|---|---|---|\n" % version)
                f.write("\n".join(refused) + "\n")
            if notes:
                f.write("\n" + notes)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
