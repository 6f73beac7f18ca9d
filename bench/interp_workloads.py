#!/usr/bin/env python3
"""Times the emulator benchmark's workloads under TRITON_INTERPRET=1 (Triton's interpreter, on
the CPU), with the sizes of bench/bench_workloads.c and bench/bench_emu.c:

    python3 bench/interp_workloads.py --json interp.json [--reps N] [--only key,key] [--budget S]

bench/workloads_py.py's seven kernels plus bench_emu's three (softmax, layer norm forward,
matmul 512^3; the last two with their loop bounds as constexprs, bench/kernels_py.py).  Each
workload is timed as the best of --reps runs (a workload whose first run took more than a
quarter of the budget left is run once); a workload that fails is recorded as
"failed: <why>".  Needs torch and Triton 3.6; no GPU (CUDA_VISIBLE_DEVICES is cleared).
"""
import argparse
import importlib.util
import json
import math
import os
import sys
import time

os.environ["TRITON_INTERPRET"] = "1"
os.environ["CUDA_VISIBLE_DEVICES"] = ""
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import torch  # noqa: E402

import kernels_py as kp  # noqa: E402
import workloads_py as wp  # noqa: E402


def load_py(rel, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, rel))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


g = torch.Generator().manual_seed(0)


def rnd(*shape, scale=1.0):
    return (torch.rand(*shape, generator=g) * 2 - 1) * scale


def w_cross_entropy():
    R, V = 256, 32768
    x0 = rnd(R, V, scale=8.0)
    tgt = torch.randint(0, V, (R,), generator=g, dtype=torch.int64)
    loss = torch.empty(R)
    x = x0.clone()

    def f():
        x.copy_(x0)
        wp.ce_fwd_kernel[(R,)](x, V, tgt, loss, 1.0 / R, V=V, BLOCK=4096)
    return f


def w_attn_fwd():
    ZH, N, D = 32, 1024, 64
    q, k, v = (rnd(ZH, N, D).half() for _ in range(3))
    o = torch.empty_like(q)
    return lambda: wp.attn_fwd_kernel[(N // 128, ZH)](q, k, v, o, 0.125, N_CTX=N, HEAD_DIM=D,
                                                       BLOCK_M=128, BLOCK_N=64)


def w_moe_fp8():
    T, TOPK, E, N, K, EM, BM, BN, G = 256, 2, 8, 1024, 1024, 1024, 64, 128, 128
    a = rnd(T, K, scale=8.0).to(torch.float8_e4m3fn)
    b = rnd(E, N, K, scale=8.0).to(torch.float8_e4m3fn)
    a_s = 0.01 + 0.01 * torch.rand(T, K // G, generator=g)
    b_s = 0.01 + 0.01 * torch.rand(E, N // G, K // G, generator=g)
    tw = torch.rand(T, TOPK, generator=g)
    # the same routing and moe_align_block_size as bench_workloads.c
    sorted_ids = torch.full((EM,), T * TOPK, dtype=torch.int32)
    eids = torch.zeros(EM // BM, dtype=torch.int32)
    n = 0
    for e in range(E):
        start = n
        for t in range(T):
            for j in range(TOPK):
                if (t * 5 + j * 3 + (t >> 3)) % E == e:
                    sorted_ids[n] = t * TOPK + j
                    n += 1
        n = start + (n - start + BM - 1) // BM * BM
        eids[start // BM:n // BM] = e
    ntpp = torch.tensor([n], dtype=torch.int32)
    c = torch.empty(T * TOPK, N, dtype=torch.float16)
    grid = ((EM // BM) * (N // BN),)
    return lambda: wp.moe_fp8_kernel[grid](a, b, c, a_s, b_s, tw, sorted_ids, eids, ntpp, T * TOPK,
                                           N=N, K=K, EM=EM, top_k=TOPK, group_n=G, group_k=G,
                                           BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=128, GROUP_M=8)


def w_decode_attn():
    B, H, G, SEQ, D, S = 8, 32, 4, 2048, 128, 8
    q = rnd(B, H, D).half()
    k = rnd(B, SEQ, H // G, D).half()
    v = rnd(B, SEQ, H // G, D).half()
    mid_o = torch.empty(B, H, S, D)
    mid_l = torch.empty(B, H, S)
    o = torch.empty(B, H, D, dtype=torch.float16)

    def f():
        wp.decode_stage1_kernel[(B, H, S)](q, k, v, 1.0 / math.sqrt(D), mid_o, mid_l, H=H,
                                           KV_GROUP=G, SEQ=SEQ, D=D, NUM_SPLITS=S, BLOCK_N=64)
        wp.decode_stage2_kernel[(B, H)](mid_o, mid_l, o, H=H, D=D, NUM_SPLITS=S)
    return f


def w_chunk_la():
    BH, T, DK, DV = 16, 2048, 64, 64
    q = rnd(BH, T, DK).half()
    k = rnd(BH, T, DK, scale=0.25).half()
    v = rnd(BH, T, DV).half()
    o = torch.empty(BH, T, DV, dtype=torch.float16)
    return lambda: wp.chunk_la_kernel[(BH,)](q, k, v, o, 0.125, T=T, DK=DK, DV=DV, BT=64)


def w_matmul():
    M = N = K = 1024
    a, b = rnd(M, K).half(), rnd(K, N).half()
    c = torch.empty(M, N, dtype=torch.float16)
    return lambda: wp.matmul_kernel[((M // 128) * (N // 256),)](
        a, b, c, M, N, K, K, 1, N, 1, N, 1, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64,
        GROUP_SIZE_M=8)


def w_radix_sort():
    N, BLOCK, RADIX = 1 << 20, 1024, 16
    P = N // BLOCK
    keys = torch.randint(0, 2**31 - 1, (N,), generator=g, dtype=torch.int32)
    out = torch.empty_like(keys)
    hist = torch.zeros(RADIX, dtype=torch.int32)
    status = torch.zeros(P * RADIX, dtype=torch.int32)

    def f():
        hist.zero_()
        status.zero_()
        wp.radix_hist_kernel[(P,)](keys, hist, 0, BLOCK=BLOCK, RADIX=RADIX)
        offs = (torch.cumsum(hist, 0) - hist).to(torch.int32)  # host: the 16-entry scan
        wp.radix_scatter_kernel[(P,)](keys, out, offs, status, 0, BLOCK=BLOCK, RADIX=RADIX)
    return f


def w_softmax():
    sm = load_py("kernels/py/softmax.py", "sm")
    x = torch.randn(1024, 1000, generator=g)
    y = torch.empty_like(x)
    return lambda: sm.softmax_kernel[(1024,)](x, y, 1000, BLOCK_SIZE=1024)


def w_layer_norm():
    M, N = 1151, 8192
    X = torch.randn(M, N, generator=g).half()
    Y = torch.empty_like(X)
    W = torch.randn(N, generator=g).half()
    B = torch.randn(N, generator=g).half()
    Mean, Rstd = torch.empty(M), torch.empty(M)
    return lambda: kp.bench_layer_norm_fwd_cx[(M,)](X, Y, W, B, Mean, Rstd, N, 1e-5, N=N,
                                                    BLOCK_SIZE=1024)


def w_matmul512():
    a = torch.randn(512, 512, generator=g).half()
    b = torch.randn(512, 512, generator=g).half()
    c = torch.empty(512, 512).half()
    return lambda: kp.bench_matmul_cx[(16,)](a, b, c, 512, 512, 512, 1, 512, 1, 512, 1, K=512,
                                             BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32)


WORKLOADS = [("cross_entropy", w_cross_entropy), ("attn_fwd", w_attn_fwd),
             ("moe_fp8", w_moe_fp8), ("decode_attn", w_decode_attn), ("chunk_la", w_chunk_la),
             ("matmul", w_matmul), ("radix_sort", w_radix_sort), ("softmax", w_softmax),
             ("layer_norm", w_layer_norm), ("matmul512", w_matmul512)]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", required=True)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--budget", type=float, default=300.0, help="seconds for all workloads")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    import numpy
    import triton
    res = {"_meta": {"triton": triton.__version__, "torch": torch.__version__,
                     "numpy": numpy.__version__, "threads": torch.get_num_threads()}}
    t_start = time.perf_counter()
    for key, make in WORKLOADS:
        if only and key not in only:
            continue
        left = args.budget - (time.perf_counter() - t_start)
        if left <= 0:
            res[key] = "skipped: out of time"
            continue
        try:
            f = make()
            best = None
            for r in range(args.reps):
                t0 = time.perf_counter()
                f()
                t = time.perf_counter() - t0
                best = t if best is None else min(best, t)
                if t > (args.budget - (time.perf_counter() - t_start)) / 4:
                    break
            res[key] = best
        except Exception as e:  # recorded, not fatal: the other workloads still run
            res[key] = "failed: %s: %s" % (type(e).__name__, str(e)[:300])
        print(key, res[key], flush=True)
        with open(args.json, "w") as fh:
            json.dump(res, fh, indent=1)
    with open(args.json, "w") as fh:
        json.dump(res, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
