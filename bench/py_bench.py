#!/usr/bin/env python3
"""The emulator benchmark's workloads run from Python: ctriton's emulator
(CTRITON_INTERPRET's path, one thread, compilation included once) against
Triton's interpreter (TRITON_INTERPRET=1), same machine, same run, same inputs.

    python bench/py_bench.py [--markdown] [--only softmax,matmul] [--emu-threads 1]

Each side runs in its own subprocess (the interpreter is chosen when a module's
@triton.jit functions are decorated).  For each workload: the first launch
(the emulator's includes making the TTIR and compiling it; a 16-element softmax
launched before, on both sides, pays what a process pays once), and the outputs
of the two compared; the emulator's second launch (compiled, from its cache)
is timed too.  The goal is 100x on the first launch; --require makes a miss
exit 1.  The fused attention is bench_workloads' (bench/workloads_py.py,
32 heads x 1024 x 64).  Needs Triton, NumPy and PyTorch (the interpreter takes
torch tensors); the package installed, or PYTHONPATH=python and
CTRITON_LIBRARY=build/libctriton.so.
"""
import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name: (description, problem)
WORKLOADS = {
    "softmax": "softmax 1024x1000 fp32 (kernels/py/softmax.py)",
    "layer_norm": "layer norm fwd 1151x8192 fp16 (kernels/py/layer_norm.py)",
    "matmul": "matmul 512x512x512 fp16 (kernels/py/matmul.py, 64x64x32 tiles)",
    "attention": "fused attention fwd 32x1024x64 fp16 (bench/workloads_py.py, bench_workloads' size)",
    "matmul_fast": "the matmul, CTRITON_FAST_DOT=1 (the interpreter's arithmetic)",
    "attention_fast": "the attention, CTRITON_FAST_DOT=1",
}


def worker(which, only, out_dir):
    sys.path.insert(0, os.path.join(ROOT, "kernels", "py"))
    sys.path.insert(0, HERE)
    import numpy as np
    import torch
    import triton
    if which == "emu":
        import ctriton
        ctriton.install()
    import softmax, layer_norm, matmul, workloads_py  # noqa: E401
    g = torch.Generator().manual_seed(0)
    res = {}
    # once per process, on both sides: the frontend's imports, the emulator's tables and threads
    xs = torch.zeros(16)
    softmax.softmax_kernel[(1,)](xs, torch.empty_like(xs), 16, BLOCK_SIZE=16)

    def timed(name, launch, outs):
        gc.collect()  # on both sides: no collection of the imports' objects (0.1 s with torch) inside a timing
        t = time.perf_counter()
        launch()
        res[name] = time.perf_counter() - t
        if which == "emu":  # the steady state: compiled, a second launch
            t = time.perf_counter()
            launch()
            res[name + "/again"] = time.perf_counter() - t
        np.savez(os.path.join(out_dir, "%s-%s.npz" % (which, name)),
                 **{str(i): o.float().numpy() for i, o in enumerate(outs)})

    if "softmax" in only:
        x = torch.randn(1024, 1000, generator=g)
        y = torch.empty_like(x)
        timed("softmax", lambda: softmax.softmax_kernel[(1024,)](x, y, 1000, BLOCK_SIZE=1024), [y])
    if "layer_norm" in only:
        M, N = 1151, 8192
        x = torch.randn(M, N, generator=g).half()
        w = torch.rand(N, generator=g).half()
        b = torch.rand(N, generator=g).half()
        y = torch.empty_like(x)
        mean = torch.empty(M)
        rstd = torch.empty(M)
        timed("layer_norm", lambda: layer_norm.layer_norm_fwd_kernel[(M,)](x, y, w, b, mean, rstd, N, N, 1e-5,
                                                                            BLOCK_SIZE=1024), [y, mean, rstd])
    for suffix in ("", "_fast"):  # the interpreter has one arithmetic: the _fast rows time it again
        if suffix and which == "emu":
            os.environ["CTRITON_FAST_DOT"] = "1"
        run_dots(which, only, suffix, g, timed, torch, triton, matmul, workloads_py)
    print(json.dumps(res))


def run_dots(which, only, suffix, g, timed, torch, triton, matmul, workloads_py):
    if "matmul" + suffix in only:
        M = N = K = 512
        a = torch.randn(M, K, generator=g).half()
        bb = torch.randn(K, N, generator=g).half()
        c = torch.empty(M, N).half()
        timed("matmul" + suffix, lambda: matmul.matmul_kernel[(triton.cdiv(M, 64) * triton.cdiv(N, 64),)](
            a, bb, c, M, N, K, a.stride(0), a.stride(1), bb.stride(0), bb.stride(1), c.stride(0), c.stride(1),
            BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, ACTIVATION=""), [c])
    if "attention" + suffix in only:
        ZH, S, D = 32, 1024, 64  # bench_workloads' attn_fwd (and bench/interp_workloads.py)
        q, k, v = (torch.randn(ZH, S, D, generator=g).half() for _ in range(3))
        o = torch.empty_like(q)
        timed("attention" + suffix, lambda: workloads_py.attn_fwd_kernel[(S // 128, ZH)](
            q, k, v, o, 0.125, N_CTX=S, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64), [o])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=",".join(WORKLOADS))
    ap.add_argument("--emu-threads", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--require", action="store_true", help="exit 1 where a first launch is not 100x the interpreter")
    ap.add_argument("--worker", choices=["emu", "interp"])
    ap.add_argument("--out-dir")
    a = ap.parse_args()
    only = a.only.split(",")
    if a.worker:
        return worker(a.worker, only, a.out_dir)
    import numpy as np
    d = tempfile.mkdtemp(prefix="py_bench.")
    runs = {}
    for which in ("emu", "interp"):
        env = dict(os.environ)
        env.pop("CTRITON_INTERPRET", None)
        env.pop("TRITON_INTERPRET", None)
        if which == "interp":
            env["TRITON_INTERPRET"] = "1"
        else:
            env["CTRITON_THREADS"] = str(a.emu_threads)
        p = subprocess.run([sys.executable, __file__, "--worker", which, "--only", a.only, "--out-dir", d],
                           env=env, capture_output=True, text=True)
        if p.returncode:
            sys.exit("py_bench: the %s run failed:\n%s" % (which, p.stdout + p.stderr))
        runs[which] = json.loads(p.stdout.strip().splitlines()[-1])
    import triton
    rows = []
    for name in only:
        e, i = runs["emu"][name], runs["interp"][name]
        fe = np.load(os.path.join(d, "emu-%s.npz" % name))
        fi = np.load(os.path.join(d, "interp-%s.npz" % name))
        err = max(float(np.nanmax(np.abs(fe[k] - fi[k]))) for k in fe.files)
        again = runs["emu"].get(name + "/again", e)
        rows.append((WORKLOADS[name], i, e, i / e, "✓" if i / e >= 100 else "✗", again, i / again, err))
    if a.markdown:
        print("Triton %s, NumPy %s, %s; emulator on %d thread(s), first launch (TTIR + compile + run); "
              "interpreter: first launch." % (triton.__version__, np.__version__, os.uname().machine, a.emu_threads))
        print()
        print("| workload | TRITON_INTERPRET=1 (s) | ctriton, first launch (s) | ratio | 100x | "
              "ctriton, compiled (s) | ratio | max abs diff |")
        print("|---|---|---|---|---|---|---|---|")
        for r in rows:
            print("| %s | %.3f | %.4f | %.0fx | %s | %.4f | %.0fx | %.3g |" % r)
    else:
        for r in rows:
            print("%-70s interp %8.3f s  emu %8.4f s  %6.0fx %s  compiled %8.4f s %6.0fx  maxdiff %.3g" % r)
    return 0 if all(r[3] >= 100 for r in rows) else (1 if a.require else 0)


if __name__ == "__main__":
    sys.exit(main())
