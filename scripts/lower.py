#!/usr/bin/env python3
"""Lower raw TTIR through Triton's own compiler: ttir, ttgir, llir, ptx, cubin.

ctriton runs this script as a subprocess (with $CTRITON_PYTHON) on a cache miss.
It parses the TTIR text the C kernel language printed, runs every stage of
Triton's NVIDIA backend on it, starting with the `make_ttir` passes (the
input is the raw frontend output, like Python's `.source`), and writes

    OUT/kernel.ttir  .ttgir  .llir  .ptx  .cubin   the stages, as Triton makes them
    OUT/kernel.json                                Triton's metadata, plus `ctriton`

One job:   lower.py --ttir IN.ttir --out DIR [--arch 90] [--num-warps 4] ...
Many jobs: lower.py --jobs JOBS.json   ([{"ttir": ..., "out": ..., "options": {...}}])
           run in parallel worker processes, one import of Triton for all.

Exit status: 0 all jobs lowered; 1 some job failed (its OUT/error.txt holds
Triton's message, also printed on stderr); 2 bad usage; 3 Triton missing, or
not the release the TTIR targets (--expect-version: ctriton prints each
release's own TTIR, and lowering it with another would fail or mislead).
Nothing here needs a GPU.
"""
import argparse
import json
import os
import sys
import time
import traceback

# Lowering never touches a device; keep CUDA out of the import.
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

STAGES = ["ttir", "ttgir", "llir", "ptx", "cubin"]
OPTION_KEYS = ("arch", "num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "debug",
               "line_info")


def fail_version(msg):
    sys.stderr.write("lower.py: %s\n" % msg)
    sys.exit(3)


def check_triton(expect):
    try:
        import triton
    except Exception as e:  # ImportError, or a broken install
        fail_version("cannot import triton with %s: %s (set CTRITON_PYTHON to a Python that has "
                     "triton==%s, or run `make deps-py`)" % (sys.executable, e, expect or "3.6.0"))
    if expect and triton.__version__ != expect:
        fail_version("%s has Triton %s but the TTIR targets Triton %s: set CTRITON_PYTHON to a "
                     "Python with triton==%s (`make deps-py` makes one per supported release: "
                     "~/.cache/ctriton/venv for 3.6.0, ~/.cache/ctriton/venv-X.Y.Z for the "
                     "others), or target Triton %s (--triton %s, CTRITON_TRITON_VERSION, "
                     "tl_options.triton)"
                     % (sys.executable, triton.__version__, expect, expect, triton.__version__,
                        triton.__version__))
    return triton.__version__


def lower_one(ttir_path, out_dir, opts):
    """Runs Triton's stages on one raw TTIR file; writes OUT_DIR/kernel.*."""
    from triton import knobs
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget, Language
    from triton.compiler import make_backend
    import triton

    arch = int(opts.get("arch", 90))
    # line info is a process-wide knob in Triton; set it per job
    knobs.compilation.disable_line_info = not bool(opts.get("line_info", True))
    target = GPUTarget("cuda", arch, 32)
    backend = make_backend(target)
    raw = {"num_warps": int(opts.get("num_warps", 4)), "num_stages": int(opts.get("num_stages", 3)),
           "num_ctas": int(opts.get("num_ctas", 1)), "enable_fp_fusion": bool(opts.get("enable_fp_fusion", True)),
           "debug": bool(opts.get("debug", False))}
    if opts.get("maxnreg"):
        raw["maxnreg"] = int(opts["maxnreg"])
    options = backend.parse_options(raw)

    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = ir.parse_mlir_module(ttir_path, ctx)
    mod.context = ctx

    stages = {}
    backend.add_stages(stages, options, Language.TRITON)
    metadata = {"target": target, **options.__dict__}
    times = {}
    cur = mod
    outputs = {}
    for ext in STAGES:
        t0 = time.perf_counter()
        cur = stages[ext](cur, metadata)
        times[ext] = round((time.perf_counter() - t0) * 1000.0, 3)
        # the MLIR stages rewrite the module in place: take the text now
        outputs[ext] = cur if isinstance(cur, (str, bytes)) else str(cur)
    os.makedirs(out_dir, exist_ok=True)
    for ext in STAGES:
        data = outputs[ext]
        path = os.path.join(out_dir, "kernel." + ext)
        if isinstance(data, bytes):
            with open(path, "wb") as f:
                f.write(data)
        else:
            with open(path, "w") as f:
                f.write(data)
    metadata["triton_version"] = triton.__version__
    metadata["ctriton"] = {"lower_ms": times, "options": {k: opts.get(k) for k in OPTION_KEYS if k in opts}}
    # Triton's own JSON (json.dumps(metadata, default=vars)) with the target as a dict
    with open(os.path.join(out_dir, "kernel.json"), "w") as f:
        json.dump(metadata, f, default=vars, indent=1, sort_keys=True)
        f.write("\n")


def run_job(job):
    out = job["out"]
    try:
        lower_one(job["ttir"], out, job.get("options", {}))
        return out, None
    except Exception as e:
        # Triton's errors (CompilationError, PTXASError, MLIR diagnostics) pass on as they are
        msg = "".join(traceback.format_exception_only(type(e), e)).strip()
        try:
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, "error.txt"), "w") as f:
                f.write(msg + "\n")
        except OSError:
            pass
        return out, msg


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ttir")
    ap.add_argument("--out")
    ap.add_argument("--jobs", help="JSON list of {ttir, out, options}")
    ap.add_argument("--arch", type=int, default=90)
    ap.add_argument("--num-warps", type=int, default=4)
    ap.add_argument("--num-stages", type=int, default=3)
    ap.add_argument("--num-ctas", type=int, default=1)
    ap.add_argument("--maxnreg", type=int, default=0)
    ap.add_argument("--no-fp-fusion", action="store_true")
    ap.add_argument("--debug", action="store_true")
    ap.add_argument("--no-line-info", action="store_true")
    ap.add_argument("--expect-version", default=None, help="fail (exit 3) unless triton.__version__ is this")
    ap.add_argument("--workers", type=int, default=0, help="parallel workers for --jobs (0: one per CPU)")
    args = ap.parse_args()

    if args.jobs:
        with open(args.jobs) as f:
            jobs = json.load(f)
    elif args.ttir and args.out:
        jobs = [{"ttir": args.ttir, "out": args.out,
                 "options": {"arch": args.arch, "num_warps": args.num_warps, "num_stages": args.num_stages,
                             "num_ctas": args.num_ctas, "maxnreg": args.maxnreg,
                             "enable_fp_fusion": not args.no_fp_fusion, "debug": args.debug,
                             "line_info": not args.no_line_info}}]
    else:
        ap.print_usage(sys.stderr)
        sys.stderr.write("lower.py: give --ttir and --out, or --jobs\n")
        return 2

    check_triton(args.expect_version)
    workers = args.workers or (os.cpu_count() or 1)
    workers = max(1, min(workers, len(jobs)))
    if workers == 1:
        results = [run_job(j) for j in jobs]
    else:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(workers) as pool:
            results = pool.map(run_job, jobs, chunksize=1)
    failed = 0
    for out, msg in results:
        if msg is not None:
            failed += 1
            sys.stderr.write("%s: %s\n" % (out, msg))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
