#!/usr/bin/env python3
"""The emulator benchmark's workloads run from Python: ctriton's emulator
(CTRITON_INTERPRET's path, one thread, compilation included once) against
Triton's interpreter (TRITON_INTERPRET=1), same machine, same run, same inputs.

    python bench/py_bench.py [--markdown] [--only softmax,matmul] [--emu-threads 1]

Each side runs in its own subprocess (the interpreter is chosen when a module's
@triton.jit functions are decorated).  For each workload: the first launch
(the emulator's includes making the TTIR and compiling it; a 16-element softmax
launched before, on both sides, pays what a process pays once), and the outputs
of the two compared.  Needs Triton, NumPy and PyTorch (the interpreter takes
torch tensors); the package installed, or PYTHONPATH=python and
CTRITON_LIBRARY=build/libctriton.so.
"""
import argparse
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
    "attention": "fused attention fwd, 2 heads x 256 tokens x 64, fp16 (bench/py_attention.py)",
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
    import softmax, layer_norm, matmul, py_attention  # noqa: E401
    g = torch.Generator().manual_seed(0)
    res = {}
    # once per process, on both sides: the frontend's imports, the emulator's tables and threads
    xs = torch.zeros(16)
    softmax.softmax_kernel[(1,)](xs, torch.empty_like(xs), 16, BLOCK_SIZE=16)

    def timed(name, launch, outs):
        t = time.perf_counter()
        launch()
        res[name] = time.perf_counter() - t
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
        run_dots(which, only, suffix, g, timed, torch, triton, matmul, py_attention)
    print(json.dumps(res))


def run_dots(which, only, suffix, g, timed, torch, triton, matmul, py_attention):
    if "matmul" + suffix in only:
        M = N = K = 512
        a = torch.randn(M, K, generator=g).half()
        bb = torch.randn(K, N, generator=g).half()
        c = torch.empty(M, N).half()
        timed("matmul" + suffix, lambda: matmul.matmul_kernel[(triton.cdiv(M, 64) * triton.cdiv(N, 64),)](
            a, bb, c, M, N, K, a.stride(0), a.stride(1), bb.stride(0), bb.stride(1), c.stride(0), c.stride(1),
            BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, ACTIVATION=""), [c])
    if "attention" + suffix in only:
        BH, S, D = 2, 256, 64
        q, k, v = (torch.randn(BH, S, D, generator=g).half() for _ in range(3))
        o = torch.empty_like(q)
        timed("attention" + suffix, lambda: py_attention.attention_fwd[(triton.cdiv(S, 64), BH)](
            q, k, v, o, S, D ** -0.5, HEAD=D, BM=64, BN=64), [o])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=",".join(WORKLOADS))
    ap.add_argument("--emu-threads", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
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
        rows.append((WORKLOADS[name], i, e, i / e, err))
    if a.markdown:
        print("Triton %s, NumPy %s, %s; emulator on %d thread(s), first launch (TTIR + compile + run); "
              "interpreter: first launch." % (triton.__version__, np.__version__, os.uname().machine, a.emu_threads))
        print()
        print("| workload | TRITON_INTERPRET=1 (s) | ctriton emulator (s) | ratio | max abs diff |")
        print("|---|---|---|---|---|")
        for r in rows:
            print("| %s | %.3f | %.4f | %.0fx | %.3g |" % r)
    else:
        for r in rows:
            print("%-70s interp %8.3f s  emu %8.4f s  %6.0fx  maxdiff %.3g" % r)


if __name__ == "__main__":
    sys.exit(main())
