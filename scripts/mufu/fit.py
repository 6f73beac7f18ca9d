#!/usr/bin/env python3
"""Fits the emulator's models of the H200's MUFU operations to probe tables.

Input: the tables scripts/gpu/mufu_probe.cu writes (NAME.delta: int8 differences of the
hardware's output from the correctly rounded one over the operation's reduced domain;
NAME.sums: the sum of the hardware's output bits per block of 65536 entries, to check that the
tables are rebuilt exactly).  Output: src/emu/mufu_data.c.

The model of one operation over its reduced domain (2^23 or 2^24 entries k; a binade of the
output, an integer significand Y on that binade's grid):
  - the domain is cut into segments of 2^16 entries; in segment s, with x = (k mod 2^16) / 2^16,
    q = c0[s] + x * (c1[s] + x * c2[s])      (IEEE double, in this order, no fused operations)
    is a least-squares quadratic of the hardware's Y, shifted so that floor(q) = Y as often as
    possible (about 99% of entries);
  - the other entries ("exceptions") are those where the hardware's internal truncations put Y
    one below floor(q) (the fraction of q is close to 0) or one above it (close to 1).  Only
    entries whose fraction lies within w of an integer can be exceptions; for those, one bit
    says whether they are, coded with an adaptive binary range coder (LZMA's) whose context is
    how close the fraction is to the integer.  The emulator decodes the bits once, into a bitmap.
Every rebuilt entry is checked against the hardware's table, and the block sums against the
GPU's, before anything is written.
"""
import argparse, os, sys
import numpy as np

SEG = 16
NCTX = 16


class RangeEncoder:
    """LZMA's binary range coder: 11-bit probabilities, adaptation shift 5."""

    def __init__(self):
        self.low, self.range, self.cache, self.cache_size = 0, 0xFFFFFFFF, 0, 1
        self.out = bytearray()

    def _shift_low(self):
        if self.low < 0xFF000000 or self.low >= 1 << 32:
            carry = self.low >> 32
            temp = self.cache
            while True:
                self.out.append((temp + carry) & 0xFF)
                temp = 0xFF
                self.cache_size -= 1
                if self.cache_size == 0:
                    break
            self.cache = (self.low >> 24) & 0xFF
        self.cache_size += 1
        self.low = (self.low & 0x00FFFFFF) << 8

    def bit(self, probs, i, b):
        p = probs[i]
        bound = (self.range >> 11) * p
        if not b:
            self.range = bound
            probs[i] = p + ((2048 - p) >> 5)
        else:
            self.low += bound
            self.range -= bound
            probs[i] = p - (p >> 5)
        while self.range < 1 << 24:
            self.range = (self.range << 8) & 0xFFFFFFFF
            self._shift_low()

    def finish(self):
        for _ in range(5):
            self._shift_low()
        return bytes(self.out)


# name: (table entries, domain -> input floats, lowest output binade's exponent field)
def dom_unit(n):      # [1, 2): rcp
    return (np.uint32(0x3F800000) | np.arange(n, dtype=np.uint32)).view(np.float32)


def dom_two(n):       # [1, 4): rsq, sqrt
    k = np.arange(n, dtype=np.uint32)
    return ((np.uint32(0x3F800000) + ((k >> 23) << 23)) | (k & 0x7FFFFF)).view(np.float32)


def dom_frac(n):      # [0, 1): ex2 (+x) ; the caller negates for ex2neg
    return (np.arange(n, dtype=np.float64) * 2.0 ** -23).astype(np.float32)


OPS = {
    "rcp": (1 << 23, dom_unit, lambda x: 1.0 / x, 126),
    "rsq": (1 << 24, dom_two, lambda x: 1.0 / np.sqrt(x), 126),
    "sqrt": (1 << 24, dom_two, np.sqrt, 127),
    "ex2": (1 << 23, dom_frac, np.exp2, 127),
    "ex2neg": (1 << 23, lambda n: -dom_frac(n), np.exp2, 126),
}


def hardware_table(probe_dir, name):
    n, dom, fn, lo = OPS[name]
    x = dom(n).astype(np.float64)
    # the probe's correctly rounded reference: double result rounded to f32 (RN)
    cr = fn(x).astype(np.float32).view(np.uint32).astype(np.int64)
    d = np.fromfile(os.path.join(probe_dir, name + ".delta"), dtype=np.int8)[:n].astype(np.int64)
    if np.any(d == -128):
        sys.exit(f"{name}: the probe's table has entries whose difference does not fit")
    hw = (cr + d).astype(np.uint32)
    sums_path = os.path.join(probe_dir, name + ".sums")
    if os.path.exists(sums_path):
        sums = np.fromfile(sums_path, dtype=np.uint64)
        got = hw.astype(np.uint64).reshape(-1, 65536).sum(axis=1)
        if not np.array_equal(got, sums[: len(got)]):
            sys.exit(f"{name}: rebuilt table does not match the GPU's block sums")
    return hw, lo


def significand(hw, lo):
    """the output as an integer on the grid of binade `lo` (Y = 2^24 is the next power of two)"""
    e = ((hw >> 23) & 0xFF).astype(np.int64)
    m = (hw & 0x7FFFFF).astype(np.int64)
    if np.any((e < lo) | (e > lo + 1)) or np.any((e == lo + 1) & (m != 0)):
        sys.exit("output outside the expected binade")
    return np.where(e == lo, (1 << 23) | m, 1 << 24).astype(np.float64)


def fit(Y):
    n = len(Y)
    x = (np.arange(1 << SEG, dtype=np.float64)) * 2.0 ** -SEG
    A = np.stack([np.ones_like(x), x, x * x], 1)
    coef = []
    frs = np.empty(n)
    base = np.empty(n)
    for s in range(n >> SEG):
        y = Y[s << SEG:(s + 1) << SEG]
        c, *_ = np.linalg.lstsq(A, y, rcond=None)
        q = c[0] + x * (c[1] + x * c[2])
        best = None
        for off in np.linspace(-0.5, 1.0, 301):
            ex = np.count_nonzero(np.floor(q + off) != y)
            if best is None or ex < best[0]:
                best = (ex, off)
        c0 = float(c[0] + best[1])          # folded; the runtime computes exactly this
        c1, c2 = float(c[1]), float(c[2])
        q = c0 + x * (c1 + x * c2)
        coef.append((c0, c1, c2))
        fl = np.floor(q)
        frs[s << SEG:(s + 1) << SEG] = q - fl
        base[s << SEG:(s + 1) << SEG] = fl
    r = Y - base
    exc = r != 0
    if np.any(np.abs(r) > 1):
        sys.exit("an entry is more than one from floor(q)")
    # exceptions below sit at fractions close to 0, those above close to 1
    side_ok = np.where(r[exc] < 0, frs[exc] < 0.5, frs[exc] >= 0.5)
    if not np.all(side_ok):
        sys.exit("an exception on the wrong side of its fraction")
    dist = np.minimum(frs, 1.0 - frs)
    w = float(dist[exc].max()) * 1.0001 if exc.any() else 0.0
    return coef, frs, exc, dist, w


def encode(exc, dist, w):
    cand = np.nonzero(dist < w)[0]
    ctx = np.minimum((dist[cand] / w * NCTX).astype(np.int64), NCTX - 1)
    bits = exc[cand]
    rc = RangeEncoder()
    probs = [1024] * NCTX
    for c, b in zip(ctx.tolist(), bits.tolist()):
        rc.bit(probs, c, b)
    return rc.finish(), len(cand)


def c_bytes(b):
    out, line = [], ""
    for v in b:
        t = "%d," % v
        if len(line) + len(t) > 96:
            out.append(line)
            line = ""
        line += t
    out.append(line)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("probe_dir")
    ap.add_argument("-o", "--out", default="src/emu/mufu_data.c")
    ap.add_argument("--ops", default="rcp,rsq,sqrt")
    a = ap.parse_args()
    parts = []
    for name in a.ops.split(","):
        hw, lo = hardware_table(a.probe_dir, name)
        Y = significand(hw, lo)
        coef, frs, exc, dist, w = fit(Y)
        stream, ncand = encode(exc, dist, w)
        print(f"{name}: {len(Y)} entries, {int(exc.sum())} exceptions, w={w:.4f}, "
              f"{ncand} coded bits, {len(stream)} bytes", flush=True)
        parts.append((name, len(Y), lo, coef, w, stream, int(exc.sum())))
    with open(a.out, "w") as f:
        f.write("/* src/emu/mufu_data.c - generated by scripts/mufu/fit.py from the H200 probe tables\n"
                " * (scripts/gpu/mufu_probe.cu); do not edit.  The format is described in\n"
                " * scripts/mufu/fit.py and decoded by src/emu/mufu.c. */\n")
        f.write('#include "mufu_internal.h"\n\n')
        for name, n, lo, coef, w, stream, nexc in parts:
            f.write(f"static const double {name}_coef[{len(coef)}][3] = {{\n")
            for c in coef:
                f.write("    {%s, %s, %s},\n" % tuple(v.hex() for v in c))
            f.write("};\n")
            f.write(f"static const unsigned char {name}_stream[{len(stream)}] = {{\n{c_bytes(stream)}\n}};\n")
            f.write(f"const emu_mufu_table emu_mufu_{name}_table = {{\"{name}\", {n}, {lo}, {w.hex()}, "
                    f"{name}_coef, {name}_stream, {len(stream)}, {nexc}}};\n\n")


if __name__ == "__main__":
    main()
