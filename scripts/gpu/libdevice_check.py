"""The emulator's ports of libdevice's f32 functions (src/emu/mathfn.c) against the GPU.

Run on the GPU machine from the repository root (OUT names the output folder):
    gcc -O2 -ffp-contract=off -fPIC -fopenmp -shared -o /tmp/libldcheck.so scripts/gpu/libdevice_check.c \
        src/emu/mathfn.c src/emu/mufu.c src/emu/mufu_cache.c src/emu/mufu_data.c src/emu/mufu_lg2_data.c \
        src/util/util.c src/util/alloc.c -Isrc -Iinclude -Isrc/emu -lm
    OUT=dir python3 scripts/gpu/libdevice_check.py /tmp/libldcheck.so
Each unary function (libdevice asin, log, log2, sin, cos, erf, tanh as Triton 3.6 calls them)
is run on every one of the 2^32 f32 bit patterns; pow(x, y) on the products of a list of
special values and on random pairs of several kinds; pow(x, n) (__nv_powif) on random x and
exponents in [-64, 64] and the ends of int32.  The GPU's outputs are compared bit for bit
with the ports (scripts/gpu/libdevice_check.c) on the CPU: $OUT/libdevice_check.txt.
$OUT/libdevice_samples.bin keeps (function, x, y, GPU output) for the unit test's sample
(tests/unit/emu_libdevice_samples.inc, written by scripts/libdevice_samples.py).
"""
import ctypes
import os
import sys
import time

import numpy as np
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

NAMES = ["asinf", "logf", "log2f", "sinf", "cosf", "erff", "tanhf", "powf", "powif"]


@triton.jit
def apply1(x, FN: tl.constexpr):
    if FN == 0:
        y = libdevice.asin(x)
    elif FN == 1:
        y = libdevice.log(x)
    elif FN == 2:
        y = libdevice.log2(x)
    elif FN == 3:
        y = libdevice.sin(x)
    elif FN == 4:
        y = libdevice.cos(x)
    elif FN == 5:
        y = libdevice.erf(x)
    else:
        y = libdevice.tanh(x)
    return y


@triton.jit
def k_range(out_ptr, start, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    x = (start + offs).to(tl.uint32).to(tl.float32, bitcast=True)
    tl.store(out_ptr + offs, apply1(x, FN))


@triton.jit
def k_list(out_ptr, x_ptr, n, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(out_ptr + offs, apply1(x, FN), mask=m)


@triton.jit
def k_pow(out_ptr, x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    tl.store(out_ptr + offs, libdevice.pow(x, y), mask=m)


@triton.jit
def k_powi(out_ptr, x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + offs, libdevice.pow(x, y), mask=m)


SPECIAL = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
           0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000, 0x40000000, 0xc0000000, 0x40400000, 0xc0400000,
           0x3f800001, 0x3f7fffff, 0xbf800001, 0xbf7fffff, 0x3f11eb85, 0x3f11eb86, 0x3f11eb84, 0x3f8060fe,
           0x3f8060ff, 0x3f19999a, 0x3f199999, 0x41102cb4, 0x41102cb5, 0x47ce4780, 0x47ce477f, 0x7f7fffff,
           0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x42b17218, 0x42b17217,
           0x4b000000, 0x4b000001, 0xcb000001, 0x3e800000, 0x3fb504f3, 0x3fb504f4, 0x2f800000, 0x4f000000]


def main():
    lib = ctypes.CDLL(sys.argv[1])
    lib.ld_check.restype = ctypes.c_int64
    lib.ld_check.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_int64,
                             ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    out = os.environ["OUT"]
    log = open(os.path.join(out, "libdevice_check.txt"), "w")

    def say(s):
        print(s, flush=True)
        log.write(s + "\n")
        log.flush()

    say("# %s, torch %s, triton %s" % (torch.cuda.get_device_name(), torch.__version__, triton.__version__))
    total_bad = 0

    def check(fn, x, y, gpu, what):
        nonlocal total_bad
        n = len(gpu)
        bad = np.zeros(4 * 8, np.uint32)
        nanp = ctypes.c_int64(0)
        xp = x.ctypes.data if x is not None else None
        yp = y.ctypes.data if y is not None else None
        nb = lib.ld_check(fn, xp, 0, yp, n, gpu.ctypes.data, bad.ctypes.data, 8, ctypes.byref(nanp))
        total_bad += nb
        say("%-6s %-28s %12d inputs: %d differ, %d NaN payloads" % (NAMES[fn], what, n, nb, nanp.value))
        for k in range(min(nb, 8)):
            say("    x %08x y %08x gpu %08x port %08x" % tuple(bad[4 * k:4 * k + 4]))
        return nb

    samples = []
    rng = np.random.default_rng(13)
    # unary functions: every bit pattern, in chunks
    chunk = 1 << 28
    buf = torch.empty(chunk, dtype=torch.float32, device="cuda")
    for fn in range(7):
        t0 = time.time()
        nb = nanp_total = 0
        for c in range((1 << 32) // chunk):
            start = c * chunk
            k_range[(chunk // 1024,)](buf, start, FN=fn, BLOCK=1024)
            gpu = buf.view(torch.int32).cpu().numpy().view(np.uint32)
            bad = np.zeros(4 * 8, np.uint32)
            nanp = ctypes.c_int64(0)
            b = lib.ld_check(fn, None, start, None, chunk, gpu.ctypes.data, bad.ctypes.data, 8, ctypes.byref(nanp))
            if b and nb < 8:
                for k in range(min(b, 8 - nb)):
                    say("    x %08x y %08x gpu %08x port %08x" % tuple(bad[4 * k:4 * k + 4]))
            nb += b
            nanp_total += nanp.value
        total_bad += nb
        say("%-6s %-28s %12d inputs: %d differ, %d NaN payloads (%.0f s)"
            % (NAMES[fn], "all 2^32", 1 << 32, nb, nanp_total, time.time() - t0))
        xs = np.array(SPECIAL + list(rng.integers(0, 1 << 32, 200, dtype=np.uint64)) +
                      list(np.float32(rng.uniform(-1.5, 1.5, 56)).view(np.uint32)), np.uint32)
        xt = torch.from_numpy(xs.view(np.float32)).cuda()
        o = torch.empty_like(xt)
        k_list[(triton.cdiv(len(xs), 256),)](o, xt, len(xs), FN=fn, BLOCK=256)
        g = o.view(torch.int32).cpu().numpy().view(np.uint32)
        samples += [(fn, int(a), 0, int(b)) for a, b in zip(xs, g)]
    del buf

    # powf
    def run_pow(x, y, what, keep=0):
        xt = torch.from_numpy(x.view(np.float32)).cuda()
        yt = torch.from_numpy(y.view(np.float32)).cuda()
        o = torch.empty_like(xt)
        k_pow[(triton.cdiv(len(x), 1024),)](o, xt, yt, len(x), BLOCK=1024)
        g = o.view(torch.int32).cpu().numpy().view(np.uint32)
        check(7, x, y, g, what)
        idx = rng.choice(len(x), size=min(keep, len(x)), replace=False) if keep < len(x) else range(len(x))
        samples.extend((7, int(x[i]), int(y[i]), int(g[i])) for i in idx)

    sp = np.array(SPECIAL, np.uint32)
    run_pow(np.repeat(sp, len(sp)), np.tile(sp, len(sp)), "special x special", keep=len(sp) ** 2)
    n = 1 << 25
    run_pow(rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32),
            rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32), "random bits", keep=256)
    run_pow(np.float32(np.exp(rng.uniform(-88, 88, n))).view(np.uint32),
            np.float32(rng.uniform(-30, 30, n)).view(np.uint32), "x in e^[-88,88], y in [-30,30]", keep=256)
    run_pow(np.float32(rng.uniform(0, 4, n)).view(np.uint32),
            np.float32(rng.uniform(-4, 4, n)).view(np.uint32), "x in [0,4), y in [-4,4)", keep=256)
    run_pow(np.float32(-np.exp(rng.uniform(-20, 20, n))).view(np.uint32),
            np.float32(rng.integers(-40, 41, n)).view(np.uint32), "x < 0, integer y", keep=256)
    run_pow(np.float32(rng.uniform(0.5, 2, n)).view(np.uint32),
            np.float32(np.exp(rng.uniform(-5, 80, n)) * rng.choice([-1, 1], n)).view(np.uint32),
            "x in [0.5,2), |y| in e^[-5,80]", keep=256)

    # powif
    def run_powi(x, y, what, keep=0):
        xt = torch.from_numpy(x.view(np.float32)).cuda()
        yt = torch.from_numpy(y.view(np.int32)).cuda()
        o = torch.empty_like(xt)
        k_powi[(triton.cdiv(len(x), 1024),)](o, xt, yt, len(x), BLOCK=1024)
        g = o.view(torch.int32).cpu().numpy().view(np.uint32)
        check(8, x, y, g, what)
        idx = rng.choice(len(x), size=min(keep, len(x)), replace=False) if keep < len(x) else range(len(x))
        samples.extend((8, int(x[i]), int(y[i]), int(g[i])) for i in idx)

    ns = np.array([0, 1, 2, 3, 4, 5, 7, 8, 31, 64, 127, 128, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe,
                   0xfffffffd, 0xffffff81, 0xffffff80], np.uint32)
    run_powi(np.repeat(sp, len(ns)), np.tile(ns, len(sp)), "special x exponents", keep=len(sp) * len(ns))
    run_powi(rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32),
             rng.integers(-64, 65, n).astype(np.int32).view(np.uint32), "random bits, n in [-64,64]", keep=256)
    run_powi(np.float32(rng.uniform(-3, 3, n)).view(np.uint32),
             rng.integers(-64, 65, n).astype(np.int32).view(np.uint32), "x in [-3,3), n in [-64,64]", keep=256)

    np.array(samples, np.uint32).tofile(os.path.join(out, "libdevice_samples.bin"))
    say("total: %d differ" % total_bad)


if __name__ == "__main__":
    main()
