#!/usr/bin/env python3
"""mufu_tanh_probe.py - what tanh.approx.f32 (MUFU.TANH on sm_90) computes, over all 2^32 inputs.

    OUT=dir python3 scripts/gpu/mufu_tanh_probe.py [--save-max-mib 15]

Runs the instruction on the GPU (Triton inline asm, torch) for every f32 bit pattern, keeps the
outputs on the GPU and reports, per binade of |x| (exponent field e):
  - which input bits the output depends on (the lowest mantissa bit whose flip ever changes it),
  - the output's precision (the fewest trailing zero bits of its mantissa, over the binade),
  - whether the binade is the identity (out == x), or saturated (out == 1.0),
  - the number of distinct outputs,
and whether tanh.approx(-x) is -tanh.approx(x) bit for bit, and the special inputs (zeros,
subnormals, inf, NaN).  Writes $OUT/tanh_report.json and, for the binades that are neither
identity nor saturated, their outputs at the input resolution found (one uint32 per distinct
input, little-endian) as $OUT/tanh_eEEE.bin while they fit --save-max-mib in all: what
scripts/mufu/ needs to fit a model.  Needs torch and Triton on a CUDA GPU; about a minute.

Status: written on 2026-12-07 for the MUFU.TANH model (docs/emulator.md lists tanh.approx as not
modelled) and not run yet: that day's device starts failed.  Its first run may need fixes.
"""
import json
import os
import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit
def tanh_kernel(x_ptr, y_ptr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i).to(tl.float32, bitcast=True)
    y = tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                  is_pure=True, pack=1)
    tl.store(y_ptr + i, y.to(tl.int32, bitcast=True))


def outputs(lo, n, dev):
    """tanh.approx of the bit patterns lo .. lo + n - 1 (n a multiple of 2^20), as int32"""
    x = torch.arange(lo, lo + n, dtype=torch.int64, device=dev).to(torch.int32)
    y = torch.empty_like(x)
    tanh_kernel[(n // 1024,)](x, y, BLOCK=1024)
    return y


def main():
    out_dir = os.environ.get("OUT", "out/tanh_probe")
    os.makedirs(out_dir, exist_ok=True)
    save_max = 15 << 20
    if "--save-max-mib" in sys.argv:
        save_max = int(sys.argv[sys.argv.index("--save-max-mib") + 1]) << 20
    dev = "cuda"
    t0 = time.time()
    chunk = 1 << 28
    pos = torch.empty(1 << 31, dtype=torch.int32, device=dev)
    sym_bad = 0
    sym_examples = []
    for c in range(8):
        lo = c * chunk
        p = outputs(lo, chunk, dev)
        pos[lo:lo + chunk] = p
        # the negative inputs: bit patterns 0x80000000 | x
        xn = (torch.arange(lo, lo + chunk, dtype=torch.int64, device=dev) - (1 << 31)).to(torch.int32)
        yn = torch.empty_like(xn)
        tanh_kernel[(chunk // 1024,)](xn, yn, BLOCK=1024)
        want = p ^ torch.tensor(-(1 << 31), dtype=torch.int32, device=dev)
        nanp = ((p & 0x7fffffff) > 0x7f800000)
        bad = (yn != want) & ~nanp
        nb = int(bad.sum())
        sym_bad += nb
        if nb and len(sym_examples) < 8:
            idx = torch.nonzero(bad)[:8 - len(sym_examples), 0]
            for i in idx.tolist():
                sym_examples.append(["%08x" % ((lo + i) | (1 << 31)), "%08x" % (int(yn[i]) & 0xffffffff),
                                     "%08x" % (int(p[i]) & 0xffffffff)])
        del xn, yn, want, p
    torch.cuda.synchronize()
    rep = {"device": torch.cuda.get_device_name(), "triton": triton.__version__,
           "symmetric_mismatches": sym_bad, "symmetric_examples": sym_examples, "binades": []}
    specials = {"+0": 0, "min_subnormal": 1, "max_subnormal": 0x7fffff, "min_normal": 0x800000, "1.0": 0x3f800000,
                "inf": 0x7f800000, "nan": 0x7fc00000, "snan": 0x7f800001, "max": 0x7f7fffff}
    rep["specials"] = {k: "%08x" % (int(pos[v]) & 0xffffffff) for k, v in specials.items()}
    saved = 0
    one = 0x3f800000
    m = 1 << 23
    for e in range(255):
        o = pos[e * m:(e + 1) * m]
        x = torch.arange(e * m, (e + 1) * m, dtype=torch.int64, device=dev).to(torch.int32)
        ident = bool((o == x).all())
        sat = bool((o == one).all())
        # the lowest input bit that matters
        low = 23
        for b in range(23):
            v = o.view(-1, 2, 1 << b)
            if bool((v[:, 0, :] != v[:, 1, :]).any()):
                low = b
                break
        mant = (o & 0x7fffff) | (1 << 23)  # the implicit bit caps the count at 23
        tz = int(((mant & -mant).float().log2()).min()) if mant.numel() else 0
        dec = o[::1 << low] if low < 23 else o[:1]
        distinct = int(torch.unique(dec).numel())
        row = {"e": e, "first": "%08x" % (int(o[0]) & 0xffffffff), "last": "%08x" % (int(o[-1]) & 0xffffffff),
               "identity": ident, "saturated": sat, "lowest_input_bit": low, "min_trailing_zeros": tz,
               "distinct": distinct}
        if not ident and not sat and low < 23:
            nbytes = dec.numel() * 4
            if saved + nbytes <= save_max:
                with open(os.path.join(out_dir, "tanh_e%03d.bin" % e), "wb") as f:
                    f.write(dec.cpu().numpy().tobytes())
                saved += nbytes
                row["saved"] = True
        rep["binades"].append(row)
    rep["seconds"] = round(time.time() - t0, 1)
    with open(os.path.join(out_dir, "tanh_report.json"), "w") as f:
        json.dump(rep, f, indent=1)
    for r in rep["binades"]:
        if not r["identity"] and not r["saturated"]:
            print(r)
    print("identity binades:", [r["e"] for r in rep["binades"] if r["identity"]])
    print("saturated binades:", [r["e"] for r in rep["binades"] if r["saturated"]])
    print("symmetric mismatches:", sym_bad, sym_examples[:4])
    print("specials:", rep["specials"])
    print("saved %d bytes, %.1f s" % (saved, rep["seconds"]))


if __name__ == "__main__":
    main()
