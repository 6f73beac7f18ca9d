#!/usr/bin/env python3
"""Captures the H200's tensor-core dots for fitting and checking the emulator's MMA models.

Run on the GPU machine (torch, Triton 3.6.0) from the repository root:

    python3 scripts/gpu/capture_dots.py --out $OUT      # -> $OUT/dot_capture.tar.gz

One Triton kernel computes d = tl.dot(a, b, c) over a single tile for every configuration
below: operand types f16, bf16, tf32 (f32 with input_precision="tf32"), fp8 e4m3 and e5m2,
f32 accumulators (and f16 ones for f16 operands), tile shapes and warp counts for which Triton
picks the different MMA instructions of Hopper (wgmma with N from 8 to 256, one or two
warpgroups, and mma.sync for small tiles).  The inputs come from an integer hash (splitmix64,
re-implementable bit for bit in C: dot_inputs() below is the whole definition): sign, a
mantissa and an exponent spread over 2^-6..2^6 so that the accumulation's alignment and
truncation show.  The archive holds, per configuration, tests/golden/dots/<name>/:
    case.json   the configuration, the instruction Triton chose (from the PTX), the seeds
    py.ttir     the kernel's TTIR (what the emulator runs), py.ttgir (layouts)
    out.bin     the GPU's output bytes
"""
import argparse
import io
import json
import os
import re
import sys
import tarfile
import time

import numpy as np

M64 = (1 << 64) - 1


def splitmix64(x):
    """x: uint64 array -> uint64 array (wrapping arithmetic)"""
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(M64)
    z = x
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(M64)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(M64)
    return z ^ (z >> np.uint64(31))


def dot_inputs(seed, n):
    """n f32 values: h = splitmix64(seed * 2^32 + i); sign = bit 63; mantissa = 1 + bits 0..22
    / 2^23; exponent = ((bits 32..35) mod 13) - 6."""
    i = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        h = splitmix64(np.uint64(seed) * np.uint64(1 << 32) + i)
    mant = 1.0 + (h & np.uint64(0x7FFFFF)).astype(np.float64) / float(1 << 23)
    ex = ((h >> np.uint64(32)) & np.uint64(15)).astype(np.int64) % 13 - 6
    sign = np.where((h >> np.uint64(63)) != 0, -1.0, 1.0)
    return (sign * mant * np.exp2(ex.astype(np.float64))).astype(np.float32)


KERNEL = '''
import triton
import triton.language as tl


@triton.jit
def dot_tile(A, B, C, D, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
             IP: tl.constexpr, ACC16: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rm[:, None] * BK + rk[None, :])
    b = tl.load(B + rk[:, None] * BN + rn[None, :])
    c = tl.load(C + rm[:, None] * BN + rn[None, :])
    if ACC16:
        d = tl.dot(a, b, c, out_dtype=tl.float16)
    else:
        d = tl.dot(a, b, c, input_precision=IP)
    tl.store(D + rm[:, None] * BN + rn[None, :], d)
'''

# (operand type, accumulator) x (BM, BN, BK, num_warps)
TYPES = [("f16", "f32"), ("bf16", "f32"), ("tf32", "f32"), ("e4m3", "f32"), ("e5m2", "f32"),
         ("f16", "f16")]
SHAPES = [(64, 64, 64, 4), (128, 128, 64, 4), (128, 256, 64, 8), (64, 32, 32, 4), (64, 16, 64, 4),
          (64, 8, 32, 4), (128, 64, 128, 8), (256, 128, 32, 8), (16, 16, 32, 1), (32, 32, 64, 2)]


def torch_dtype(torch, t):
    return {"f16": torch.float16, "bf16": torch.bfloat16, "tf32": torch.float32,
            "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}[t]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default=None, help="substring of the configurations' names")
    a = ap.parse_args()
    import importlib.util
    import tempfile
    import torch
    import triton
    path = os.path.join(tempfile.mkdtemp(), "dot_tile.py")
    with open(path, "w") as f:
        f.write(KERNEL)
    spec = importlib.util.spec_from_file_location("dot_tile", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    buf = io.BytesIO()
    tar = tarfile.open(fileobj=buf, mode="w:gz")
    log = []

    def add(name, data):
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        tar.addfile(ti, io.BytesIO(data))

    seed = 1
    t0 = time.time()
    for (ot, acc) in TYPES:
        for (bm, bn, bk, nw) in SHAPES:
            name = f"{ot}_{acc}_{bm}x{bn}x{bk}_w{nw}"
            if a.only and a.only not in name:
                continue
            sa, sb, sc = seed, seed + 1, seed + 2
            seed += 3
            dt = torch_dtype(torch, ot)
            A = torch.from_numpy(dot_inputs(sa, bm * bk)).cuda().to(dt).reshape(bm, bk)
            B = torch.from_numpy(dot_inputs(sb, bk * bn)).cuda().to(dt).reshape(bk, bn)
            cdt = torch.float16 if acc == "f16" else torch.float32
            C = torch.from_numpy(dot_inputs(sc, bm * bn)).cuda().to(cdt).reshape(bm, bn)
            D = torch.empty_like(C)
            try:
                k = mod.dot_tile[(1,)](A, B, C, D, BM=bm, BN=bn, BK=bk,
                                       IP="tf32" if ot == "tf32" else "ieee" if ot == "f32" else None,
                                       ACC16=acc == "f16", num_warps=nw)
                torch.cuda.synchronize()
            except Exception as e:  # a shape Triton refuses for this type: logged, skipped
                log.append(f"{name}: refused: {str(e).splitlines()[0][:160]}")
                continue
            ptx = k.asm["ptx"]
            instr = sorted(set(re.findall(r"\b(wgmma\.mma_async[.\w]*|mma\.sync[.\w]*)", ptx)))
            case = {"name": name, "operands": ot, "acc": acc, "BM": bm, "BN": bn, "BK": bk,
                    "num_warps": nw, "seeds": [sa, sb, sc], "instructions": instr,
                    "triton": triton.__version__, "device": torch.cuda.get_device_name()}
            d = f"tests/golden/dots/{name}/"
            add(d + "case.json", json.dumps(case, indent=1).encode())
            add(d + "py.ttir", k.asm["ttir"].encode())
            add(d + "py.ttgir", k.asm["ttgir"].encode())
            add(d + "out.bin", D.cpu().contiguous().view(torch.uint8).numpy().tobytes())
            log.append(f"{name}: {' '.join(instr)}")
            print(log[-1], flush=True)
    tar.close()
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "dot_capture.tar.gz"), "wb") as f:
        f.write(buf.getvalue())
    with open(os.path.join(a.out, "dot_capture.log"), "w") as f:
        f.write("\n".join(log) + f"\n{time.time() - t0:.1f} s\n")
    print(f"{len(log)} configurations in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
