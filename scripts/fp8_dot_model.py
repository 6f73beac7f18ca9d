#!/usr/bin/env python3
"""Fits a model of Hopper's fp8 MMA accumulation to the GPU's matmul output.

The capture tests/golden/matmul_kernel/fp8_128x128x64/emu holds what an H200
computed for C = A @ B (fp8e4nv A, B; fp32 accumulator; fp16 output;
M = N = K = 256; BLOCK_K = 64, i.e. two wgmma k32 instructions per tt.dot).
This script rebuilds the inputs with the CLI and scores candidate models of one
wgmma instruction: how many of the 65536 fp16 outputs are bit-identical to the
GPU's, and the largest fp16 ulp distance.

    make build
    build/ctriton run matmul_kernel --config fp8_128x128x64 --emu --dump-case /tmp/fp8case
    python scripts/fp8_dot_model.py /tmp/fp8case     # needs numpy

A model step (one instruction: G products of the k-chunk, and the accumulator):
  emax  = max(max_k (exp(a_k) + exp(b_k)), exp(acc))   exp(x): x's binary exponent,
          the format's minimum normal exponent for subnormals ('sum'), or the
          product's own exponent floor(log2|a_k b_k|) ('real')
  t     = sum_k Q(a_k b_k) + Q(acc)          Q: to a multiple of 2^(emax - F)
          ('tz' toward zero, 'fl' toward -inf, 'rn' nearest)
  acc'  = t truncated toward zero to P significant bits (P = None: kept), then f32
"""
import sys

import numpy as np


def e4m3(u8):
    u = u8.astype(np.int64)
    e, m = (u >> 3) & 0xF, u & 7
    v = np.where(e == 0, m * 2.0**-9, (8 + m) * np.exp2(e - 10.0))
    v = np.where((u & 0x7F) == 0x7F, np.nan, v)
    return np.where(u & 0x80, -v, v)


def expo(x):
    with np.errstate(divide="ignore"):
        e = np.floor(np.log2(np.abs(x)))
    return np.where(x == 0, -1000, e)


def quant(x, q, mode):
    y = x / q
    y = np.trunc(y) if mode == "tz" else np.floor(y) if mode == "fl" else np.round(y)
    return y * q


def step_model(P, PE, G=32, F=13, mode="tz", acc_in=True, post=13):
    acc = np.zeros(P.shape[:2])
    for k0 in range(0, P.shape[2], G):
        p = P[:, :, k0:k0 + G]
        emax = PE[:, :, k0:k0 + G].max(axis=2)
        if acc_in:
            emax = np.maximum(emax, expo(acc))
        q = np.exp2(emax - F)
        t = quant(p, q[:, :, None], mode).sum(axis=2)
        t = t + quant(acc, q, mode) if acc_in else t
        if post is not None:
            t = quant(t, np.exp2(expo(t) - post), "tz")
        acc = (t if acc_in else acc + t).astype(np.float32).astype(np.float64)
    return acc


def main():
    case = sys.argv[1] if len(sys.argv) > 1 else "/tmp/fp8case"
    gold = sys.argv[2] if len(sys.argv) > 2 else "tests/golden/matmul_kernel/fp8_128x128x64/emu"
    A = e4m3(np.fromfile(case + "/in_a_ptr.bin", np.uint8)).reshape(256, 256)
    B = e4m3(np.fromfile(case + "/in_b_ptr.bin", np.uint8)).reshape(256, 256)
    GPU = np.fromfile(gold + "/gpu_c_ptr.bin", np.uint16).reshape(256, 256)  # full capture
    P = A[:, None, :] * B.T[None, :, :]  # [m, n, k], exact
    opexp = lambda x: np.where(x == 0, -6, np.maximum(expo(x), -6))  # e4m3: emin = -6
    PS = opexp(A)[:, None, :] + opexp(B).T[None, :, :]
    PR = expo(P)

    def key(u):
        u = u.astype(np.int64)
        return np.where(u & 0x8000, -(u & 0x7FFF), u)

    def score(acc):
        h = acc.astype(np.float16).view(np.uint16)
        return int((h == GPU).sum()), int(np.abs(key(h) - key(GPU)).max())

    print("%-52s %13s %8s" % ("model", "bit-identical", "max ulp"))
    print("%-52s %7d/65536 %8d" % ("exact sum, one rounding", *score(P.sum(axis=2))))
    base = dict(G=32, F=13, mode="tz", acc_in=True, post=13, pe="sum")
    variants = [{}, dict(post=None), dict(pe="real"), dict(pe="real", post=None), dict(G=16), dict(G=64),
                dict(F=12), dict(F=14), dict(mode="fl"), dict(mode="rn"), dict(acc_in=False),
                dict(post=14), dict(F=14, post=None), dict(F=40, post=None)]
    for v in variants:
        kw = dict(base, **v)
        pe = kw.pop("pe")
        name = "G=%d F=%d %s acc %s, exp %s, post %s" % (
            kw["G"], kw["F"], kw["mode"], "aligned" if kw["acc_in"] else "added after", pe, kw["post"])
        print("%-52s %7d/65536 %8d" % (name, *score(step_model(P, PS if pe == "sum" else PR, **kw))), flush=True)


if __name__ == "__main__":
    main()
