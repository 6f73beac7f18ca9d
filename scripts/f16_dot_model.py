#!/usr/bin/env python3
"""Fits a model of Hopper's f16 MMA accumulation to the GPU's matmul output.

The captures tests/golden/matmul_kernel/fp16_*/emu hold what an H200 computed
for C = A @ B (f16 A, B drawn from N(0, 1); f32 accumulator; fp16 output):

  fp16_128x128x64          M = N = K = 512, BLOCK_K = 64: each tt.dot is four
                           wgmma m64n128k16 instructions, 32 in all per output;
                           rows 0-127 and 384-511 captured (131072 outputs)
  fp16_64x64x32_relu_tail  M = 200, N = 136, K = 100 (masked to 128 with zeros),
                           BLOCK_K = 32: wgmma m64n64k16, 8 per output; then
                           leaky_relu in f32; all 27200 outputs captured

This script rebuilds the inputs with the CLI and scores candidate models of one
instruction: how many fp16 outputs are bit-identical to the GPU's, and the
largest fp16 ulp distance.

    make build
    mkdir -p /tmp/f16big /tmp/f16tail
    build/ctriton run matmul_kernel --config fp16_128x128x64 --emu --dump-case /tmp/f16big
    build/ctriton run matmul_kernel --config fp16_64x64x32_relu_tail --emu --dump-case /tmp/f16tail
    python scripts/f16_dot_model.py /tmp/f16big /tmp/f16tail     # needs numpy

A model step (one instruction: the G products of a k-chunk, and the accumulator):
  emax  = max(max_k (exp(a_k) + exp(b_k)), exp(acc))   exp(x): x's binary exponent,
          f16's minimum normal exponent (-14) for subnormals and zero ('sum');
          or the product's own exponent floor(log2|a_k b_k|) ('real'); 'sum+1':
          exponent sums plus one (the products' carry bit)
  t     = sum_k Q(a_k b_k) + Q(acc)          Q: to a multiple of 2^(emax - F)
          ('tz' toward zero, 'fl' toward -inf, 'rn' nearest); with the accumulator
          'added after', t = sum_k Q(a_k b_k) and acc' = f32(acc + t)
  acc'  = t cut toward zero ('tz') or rounded to nearest ('rn') to P significant
          bits, then f32 (post None: t rounded to f32 directly)
"""
import sys

import numpy as np

BIG, TAIL = "fp16_128x128x64", "fp16_64x64x32_relu_tail"


def expo(x):
    with np.errstate(divide="ignore"):
        e = np.floor(np.log2(np.abs(x)))
    return np.where(x == 0, -1000, e)


def quant(x, q, mode):
    y = x / q
    y = np.trunc(y) if mode == "tz" else np.floor(y) if mode == "fl" else np.round(y)
    return y * q


def opexp(x):  # an f16 operand's encoding exponent
    return np.where(x == 0, -14, np.maximum(expo(x), -14))


def load(cfg, case):
    gold = "tests/golden/matmul_kernel/%s/emu/gpu_c_ptr.bin" % cfg
    f16 = lambda name: np.fromfile(case + "/" + name, np.float16).astype(np.float64)
    if cfg == BIG:
        A, B = f16("in_a_ptr.bin").reshape(512, 512), f16("in_b_ptr.bin").reshape(512, 512)
        # outputs over 256 KiB keep their first and last 128 KiB: rows 0-127 and 384-511
        return A[np.r_[0:128, 384:512]], B, np.fromfile(gold, np.uint16).reshape(256, 512), False
    A, B = f16("in_a_ptr.bin").reshape(200, 100), f16("in_b_ptr.bin").reshape(100, 136)
    A, B = np.pad(A, ((0, 0), (0, 28))), np.pad(B, ((0, 28), (0, 0)))  # the masked K tail
    return A, B, np.fromfile(gold, np.uint16).reshape(200, 136), True


def step_model(A, B, G=16, F=25, mode="tz", acc_in=True, post="tz", P=24, pe="sum", rows=16):
    out = np.zeros((A.shape[0], B.shape[1]))
    for r0 in range(0, A.shape[0], rows):  # a few rows at a time: [m, n, k] products
        a = A[r0:r0 + rows]
        Pr = a[:, None, :] * B.T[None, :, :]  # exact
        if pe == "real":
            PE = expo(Pr)
        else:
            PE = opexp(a)[:, None, :] + opexp(B).T[None, :, :] + (1 if pe == "sum+1" else 0)
        acc = np.zeros(Pr.shape[:2])
        for k0 in range(0, Pr.shape[2], G):
            emax = PE[:, :, k0:k0 + G].max(axis=2)
            if acc_in:
                emax = np.maximum(emax, expo(acc))
            q = np.exp2(emax - F)
            t = quant(Pr[:, :, k0:k0 + G], q[:, :, None], mode).sum(axis=2)  # exact in double
            if not acc_in:
                acc = (acc + t).astype(np.float32).astype(np.float64)
                continue
            t = t + quant(acc, q, mode)
            if post is not None:
                t = quant(t, np.exp2(expo(t) - (P - 1)), post)
            acc = t.astype(np.float32).astype(np.float64)
        out[r0:r0 + rows] = acc
    return out


def key(u):
    u = u.astype(np.int64)
    return np.where(u & 0x8000, -(u & 0x7FFF), u)


def score(acc, gpu, relu):
    c = acc.astype(np.float32)
    if relu:  # the kernel's leaky_relu, in f32
        c = np.where(c >= 0, c, np.float32(0.01) * c)
    h = c.astype(np.float16).view(np.uint16)
    return int((h == gpu).sum()), int(np.abs(key(h) - key(gpu)).max())


def main():
    cases = sys.argv[1:3] if len(sys.argv) > 2 else ["/tmp/f16big", "/tmp/f16tail"]
    data = [load(cfg, case) for cfg, case in zip((BIG, TAIL), cases)]
    base = dict(G=16, F=25, mode="tz", acc_in=True, post="tz", P=24, pe="sum")
    variants = [("the model", {}),
                ("t rounded to nearest f32, not cut", dict(post=None)),
                ("t cut to 25 bits, then rounded to f32", dict(P=25)),
                ("products' real exponents", dict(pe="real")),
                ("exponent sums + 1", dict(pe="sum+1")),
                ("exponent sums + 1, F = 26", dict(pe="sum+1", F=26)),
                ("F = 24", dict(F=24)), ("F = 26", dict(F=26)), ("F = 27", dict(F=27)),
                ("8 products per alignment", dict(G=8)), ("32 products per alignment", dict(G=32)),
                ("terms rounded down", dict(mode="fl")), ("terms rounded to nearest", dict(mode="rn")),
                ("accumulator added after, not aligned", dict(acc_in=False))]
    print("%-40s %16s %16s" % ("model", BIG, TAIL))
    exact = [score(A @ B, g, r) for A, B, g, r in data]
    n = [g.size for _, _, g, _ in data]
    fmt = lambda s, n: "%6d/%d %3d" % (s[0], n, s[1])
    print("%-40s %16s %16s" % ("exact sum, rounded once", fmt(exact[0], n[0]), fmt(exact[1], n[1])))
    for name, v in variants:
        kw = dict(base, **v)
        s = [score(step_model(A, B, **kw), g, r) for A, B, g, r in data]
        print("%-40s %16s %16s" % (name, fmt(s[0], n[0]), fmt(s[1], n[1])), flush=True)


if __name__ == "__main__":
    main()
