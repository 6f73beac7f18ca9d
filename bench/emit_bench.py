#!/usr/bin/env python3
"""Emission benchmark: building and printing each stage-1 kernel's TTIR in C
(bench/emit_bench, built by CMake) against Python Triton's frontend
(ASTSource.make_ir, the step that traces the @jit function into TTIR), timed
in the same run on the same machine.

    python3 bench/emit_bench.py [--build build] [--reps 200] [--markdown]

Python is timed per kernel and config as the median of --py-reps calls of
make_ir on a fresh context (the first, which pays for imports and caches, is
discarded).
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--py-reps", type=int, default=20)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    os.chdir(ROOT)
    import json
    import fidelity
    import triton
    from triton._C.libtriton import ir
    from triton.compiler import ASTSource

    listing = json.loads(subprocess.run([os.path.join(args.build, "ctriton"), "list", "--json"],
                                        check=True, capture_output=True, text=True).stdout)
    out = subprocess.run([os.path.join(args.build, "emit_bench"), str(args.reps)], check=True,
                         capture_output=True, text=True).stdout
    c_times = {}
    for line in out.splitlines():
        k, cfg, med, mn, nbytes = line.split()
        c_times[(k, cfg)] = float(med)

    rows = []
    for k in listing:
        fn, sig, consts, attrs = fidelity.parse_signature(k)
        backend, options = fidelity.make_backend_and_options(k)
        src = ASTSource(fn, sig, consts, attrs)
        options = backend.parse_options(dict(options.__dict__, **src.parse_options()))
        times = []
        for r in range(args.py_reps + 1):
            ctx = ir.context()
            ir.load_dialects(ctx)
            backend.load_dialects(ctx)
            t0 = time.perf_counter()
            mod = src.make_ir(backend.target, options, backend.get_codegen_implementation(options),
                              backend.get_module_map(), ctx)
            str(mod)
            times.append((time.perf_counter() - t0) * 1e6)
        py = statistics.median(times[1:])
        c = c_times[(k["kernel"], k["config"])]
        rows.append((k["kernel"], k["config"], py, c, py / c))

    if args.markdown:
        print("Machine: %s, %s, Python %s, Triton %s. C: median of %d builds+prints; "
              "Python: median of %d `ASTSource.make_ir` + print, first call discarded.\n"
              % (platform.node(), platform.processor() or platform.machine(),
                 platform.python_version(), triton.__version__, args.reps, args.py_reps))
        print("| kernel | config | Python frontend (µs) | C (µs) | ratio |")
        print("|---|---|---|---|---|")
        for r in rows:
            print("| %s | %s | %.0f | %.1f | %.0fx |" % r)
        ratios = [r[4] for r in rows]
        print("\nGeometric mean ratio: %.0fx; smallest: %.0fx." % (
            statistics.geometric_mean(ratios), min(ratios)))
    else:
        for r in rows:
            print("%-34s %-26s python %9.0f us   c %8.1f us   %6.0fx" % r)


if __name__ == "__main__":
    main()
