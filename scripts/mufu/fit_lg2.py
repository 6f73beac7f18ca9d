#!/usr/bin/env python3
"""Fits the emulator's model of the H200's MUFU.LG2 to the outputs scripts/gpu/mufu_lg2_probe.cu
measured, and writes src/emu/mufu_lg2_data.c.

What the probe showed: MUFU.LG2 of 2^e (1 + m 2^-23) forms the fixed-point sum
V = e 2^36 + l(m), l(m) the logarithm of the mantissa with 36 fraction bits, and converts V to
f32 by truncating its magnitude to 24 significant bits, the magnitude of a negative V being its
one's complement -V - 1; x = 1 itself gives +0.  Every output then depends on l(m) only through
  - floor(l / 2^12) for e >= 1 and e <= -2 (checked at nine exponents and, by the hash sums, on
    every input),
  - RZ(l) at e = 0 and RZ(2^36 - l - 1) at e = -1 (the tables t0, tm1).
So each m has an interval [lo, hi] of values of l that give the H200's outputs at every exponent,
from t0 (where l < 2^35 its extra fraction bits) and tm1 (where l >= 2^35); it is one value near
m = 0 and m = 2^23 and up to 4096 wide in between.

The model of l, per segment s of 2^16 mantissas (X = m mod 2^16, bits b_0..b_15):
    p = c[s][0] + sum over the bits b_i set of c[s][1 + i] + sum over the pairs i < j with
        b_i = b_j = 1 of c[s][17 + pair(i, j)]                (IEEE double, in this order)
a function of the bits of the form a polynomial of degree 2 in X takes (constant, linear and
square terms as sums of partial products).  l = floor(p + 1/2) lies in [lo, hi] for all but
about 1% of the entries, stored as exceptions (m, l - floor(p + 1/2)).  The coefficients are
found by alternating projections (fit_segment).  Every entry is checked before anything is
written.
"""
import argparse, lzma, os, sys
import numpy as np

SEG = 16
NB = 16
PAIRS = [(i, j) for i in range(NB) for j in range(i + 1, NB)]
NF = 1 + NB + len(PAIRS)


def table(probe_dir, name):
    p = os.path.join(probe_dir, name)
    raw = open(p, "rb").read() if os.path.exists(p) else lzma.decompress(open(p + ".xz", "rb").read())
    d = np.frombuffer(raw, dtype=np.int32).astype(np.int64)
    return (np.cumsum(np.cumsum(d)) & 0xFFFFFFFF).astype(np.uint32)


def ulp36(v):
    """ulp of f32 values v (> 0) in units of 2^-36, at least 1"""
    e = np.frexp(v)[1].astype(np.int64) - 1  # v in [2^e, 2^(e+1))
    return np.maximum(np.ldexp(1.0, e - 23 + 36), 1.0)


def intervals(t0, tm1):
    f0 = t0.view(np.float32).astype(np.float64)
    f1 = tm1.view(np.float32).astype(np.float64)
    if np.any(f0 < 0) or np.any(f0 >= 1) or np.any(f1 >= 0) or np.any(f1 < -1):
        sys.exit("lg2: outputs at e = 0 or -1 outside [0, 1) and [-1, 0)")
    D = np.floor(np.ldexp(f0, 24))
    D[0] = 1  # x = 1 gives +0: l(0) is known from tm1 only
    lo, hi = D * 4096, D * 4096 + 4095
    a = np.ldexp(f0, 36)
    nz = f0 > 0
    lo = np.where(nz, np.maximum(lo, a), lo)
    hi = np.where(nz, np.minimum(hi, a + np.where(nz, ulp36(np.where(nz, f0, 1.0)), 0) - 1), hi)
    t = np.ldexp(-f1, 36)
    lo = np.maximum(lo, 2.0 ** 36 - t - ulp36(-f1))
    hi = np.minimum(hi, 2.0 ** 36 - 1 - t)
    if np.any(lo > hi):
        sys.exit(f"lg2: the outputs at e = 0 and -1 contradict each other at {np.count_nonzero(lo > hi)} mantissas")
    return lo, hi


def features(n):
    X = np.arange(n, dtype=np.int64)
    bits = [((X >> i) & 1).astype(np.float64) for i in range(NB)]
    return [np.ones(n)] + bits + [bits[i] * bits[j] for i, j in PAIRS]


def predict(F, c):
    p = c[0] * F[0]
    for k in range(1, NF):
        p = p + c[k] * F[k]
    return np.floor(p + 0.5)


def fit_segment(F, QR, l, h, iters):
    """alternating projections between the model's values (least squares: the same matrix for
    every segment, factored once) and the intervals (narrowed by 0.45 so that rounding stays
    inside); returns the coefficients with the fewest entries outside their intervals"""
    Q, R = QR
    base = float(l[0])
    L, H = l - base - 0.45, h - base + 0.45
    v = (L + H) / 2
    best = None
    for it in range(iters):
        p = Q @ (Q.T @ v)
        v = np.clip(p, L, H)
        if it % 25 == 24 or it == iters - 1:
            c = np.linalg.solve(R, Q.T @ v)
            c[0] += base
            rp = predict(F, c)
            nexc = np.count_nonzero((rp < l) | (rp > h))
            if best is None or nexc < best[0]:
                best = (nexc, c, rp, np.clip(rp, l, h))
            if nexc == 0:
                break
    return best


def c_array(vals, per_line, fmt):
    out, line = [], []
    for v in vals:
        line.append(fmt(v))
        if len(line) == per_line:
            out.append("    " + ", ".join(line) + ",")
            line = []
    if line:
        out.append("    " + ", ".join(line) + ",")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("probe_dir")
    ap.add_argument("-o", "--out", default="src/emu/mufu_lg2_data.c")
    ap.add_argument("--iters", type=int, default=150)
    ap.add_argument("--segs", help="fit only segments A:B and save them to --part (to run in parallel)")
    ap.add_argument("--part", help="the .npz file of --segs")
    ap.add_argument("--parts", nargs="*", default=[], help="take these segments' fits from --part files")
    a = ap.parse_args()
    t0, tm1 = table(a.probe_dir, "t0.d2"), table(a.probe_dir, "tm1.d2")
    N = 1 << 23
    if len(t0) != N or len(tm1) != N:
        sys.exit("lg2: the tables must have 2^23 entries")
    lo, hi = intervals(t0, tm1)
    n = 1 << SEG
    F = features(n)
    QR = np.linalg.qr(np.stack(F, 1))
    coef, exc_m, exc_d = [], [], []
    L = np.empty(N)
    done = {}
    for path in a.parts:
        z = np.load(path)
        for s, c in zip(z["segs"].tolist(), z["coef"]):
            done[s] = c
    segs = range(N >> SEG)
    if a.segs:
        s0, s1 = map(int, a.segs.split(":"))
        segs = range(s0, s1)
    for s in segs:
        sl = slice(s * n, (s + 1) * n)
        if s in done:
            c = done[s]
            rp = predict(F, c)
            v = np.clip(rp, lo[sl], hi[sl])
            nexc = np.count_nonzero(v != rp)
        else:
            nexc, c, rp, v = fit_segment(F, QR, lo[sl], hi[sl], a.iters)
        coef.append(c)
        idx = np.nonzero(v != rp)[0]
        exc_m.extend((s * n + idx).tolist())
        exc_d.extend((v[idx] - rp[idx]).astype(np.int64).tolist())
        L[sl] = v
        print(f"segment {s}: {nexc} exceptions", flush=True)
    if a.segs:
        np.savez(a.part, segs=np.array(list(segs)), coef=np.array(coef))
        return
    # the check: rebuild l from the stored numbers exactly as mufu.c does
    Lr = np.empty(N)
    for s in range(N >> SEG):
        Lr[s * n:(s + 1) * n] = predict(F, coef[s])
    Lr[np.array(exc_m, dtype=np.int64)] += np.array(exc_d, dtype=np.float64)
    if np.any(Lr < lo) or np.any(Lr > hi) or np.any(Lr != L):
        sys.exit("lg2: the rebuilt table leaves an interval")
    d = np.array(exc_d)
    if len(d) and np.abs(d).max() > 127:
        sys.exit("lg2: an exception does not fit in 8 bits")
    em = np.array(exc_m, dtype=np.int64)
    start = np.searchsorted(em, np.arange((N >> SEG) + 1) << SEG).tolist()
    print(f"lg2: {len(exc_m)} exceptions, largest {np.abs(d).max() if len(d) else 0}", flush=True)
    with open(a.out, "w") as f:
        f.write(f"/* {a.out} - generated by scripts/mufu/fit_lg2.py from the H200's outputs\n"
                " * (scripts/gpu/mufu_lg2_probe.cu); do not edit.  The model is described there and in\n"
                " * src/emu/mufu.c. */\n")
        f.write('#include "mufu_internal.h"\n\n')
        f.write(f"static const double lg2_coef[{len(coef)}][{NF}] = {{\n")
        for c in coef:
            f.write("    {\n" + c_array([float(v) for v in c], 4, lambda v: v.hex()) + "\n    },\n")
        f.write("};\n")
        ne = len(exc_m)
        f.write("/* the exceptions of segment s: entries start[s] .. start[s + 1] - 1, by m mod 2^16 */\n")
        f.write(f"static const uint32_t lg2_exc_start[{len(start)}] = {{\n" + c_array(start, 12, str) + "\n};\n")
        f.write(f"static const uint16_t lg2_exc_m[{max(ne, 1)}] = {{\n"
                + c_array([m & 0xFFFF for m in exc_m] or [0], 14, str) + "\n};\n")
        f.write(f"static const int8_t lg2_exc_d[{max(ne, 1)}] = {{\n" + c_array(exc_d or [0], 20, str) + "\n};\n")
        f.write(f"const emu_mufu_lg2_model emu_mufu_lg2_data = {{{NB}, lg2_coef, lg2_exc_start, lg2_exc_m, "
                f"lg2_exc_d, {ne}}};\n")

if __name__ == "__main__":
    main()
