#!/usr/bin/env python3
"""ptx_probe.py - runs the inline PTX probes of tests/golden/ptx/cases.txt on the GPU.

Each case (name, constraints, asm, as tt.elementwise_inline_asm takes them; a fourth field
`refused: MESSAGE` for invalid PTX that ptxas must refuse with MESSAGE) becomes a PTX
kernel: one thread per element loads the case's inputs (8-byte slots, zero-extended), sets the
outputs to 0, runs the asm with `$n` replaced by registers of the constraints' widths, and
stores the outputs.  The inputs come from the generator that tests/unit/test_emu_ptx.c
mirrors (an LCG seeded by the case's name, mixing random bits, small integers, special and
moderate floats); the kernels are JIT-compiled by the driver (libcuda through ctypes: no
CUDA toolkit, no numpy).  Writes tests/golden/ptx/gpu.txt (`name N input-hash output-hash`,
FNV-1a 64 of the slots) and, under OUT (default out/ptx_probe), NAME.out.bin with every
output slot, which CTRITON_PTX_PROBE_DIR lets test_emu_ptx compare element by element.

    python3 scripts/gpu/ptx_probe.py [--out DIR] [--golden tests/golden/ptx/gpu.txt] [NAME...]
"""
import ctypes
import os
import re
import struct
import sys

N = 8192
M64 = (1 << 64) - 1

T32 = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
       0x3f800000, 0xbf800000, 0x3f000000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
       0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc12345, 0x4b800001, 0x4f000000, 0xcf000000,
       0x4f800000, 0x477fe000, 0x47800000, 0x33800000, 0x33000000, 0x3f808000, 0x40490fdb,
       0xc2fc0000, 0x43000000, 0x42fe0000, 0xc3160000]
T64 = [0, 0x8000000000000000, 1, 0x000fffffffffffff, 0x3ff0000000000000, 0xbff0000000000000,
       0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff8000000000123,
       0x3ff0000000000001, 0x3ff0020000001000, 0x43e0000000000000, 0xc3e0000000000000,
       0x41dfffffffc00000, 0x47efffffe0000000, 0x3810000000000000, 0x36a0000000000000]
T16 = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00,
       0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x3840, 0x7f7f, 0xffff, 0x3f80, 0xbf80, 0x7f80, 0x7fc0,
       0x0080, 0x4b81]


def fnv(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & M64
    return h


class Gen:
    """The input generator; test_emu_ptx.c's probe_value is the same."""

    def __init__(self, name):
        self.s = fnv(name.encode())

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & M64
        return self.s >> 32

    def value(self, width):
        k = self.next() % 8
        if width == 64:
            if k <= 2:
                hi = self.next()
                return (hi << 32) | self.next()
            if k == 3:
                return ((self.next() % 81) - 40) & M64
            if k == 4:
                return T64[self.next() % len(T64)]
            if k == 5:
                return struct.unpack("<Q", struct.pack("<d", struct.unpack("<f", struct.pack("<I", self.moderate32()))[0]))[0]
            if k == 6:
                return struct.unpack("<Q", struct.pack("<d", ((self.next() % 201) - 100) * 0.5))[0]
            return self.next() % 70
        if width == 32:
            if k <= 2:
                return self.next()
            if k == 3:
                return ((self.next() % 81) - 40) & 0xffffffff
            if k == 4:
                return T32[self.next() % len(T32)]
            if k == 5:
                return self.moderate32()
            if k == 6:
                return struct.unpack("<I", struct.pack("<f", ((self.next() % 201) - 100) * 0.5))[0]
            return self.next() % 70
        # 16
        if k <= 2:
            return self.next() & 0xffff
        if k == 3:
            return ((self.next() % 81) - 40) & 0xffff
        if k == 4:
            return T16[self.next() % len(T16)]
        if k == 5:
            sign = self.next() & 1
            exp = 5 + self.next() % 21
            mant = self.next() & 0x3ff
            return sign << 15 | exp << 10 | mant
        if k == 6:
            return self.next() & 0xffff
        return self.next() % 40

    def moderate32(self):
        sign = self.next() & 1
        exp = 100 + self.next() % 60
        mant = self.next() & 0x7fffff
        return sign << 31 | exp << 23 | mant


WIDTH = {"r": 32, "f": 32, "h": 16, "l": 64, "d": 64, "c": 8}


def parse_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f = line.split("\t")
            name, cons, asm = f[:3]
            refused = f[3][len("refused: "):] if len(f) > 3 else None
            ops = []
            for c in cons.split(","):
                c = c.strip()
                out = c.startswith("=")
                ops.append((out, WIDTH[c.lstrip("=")]))
            cases.append((name, ops, asm, refused))
    return cases


def inputs(name, ops):
    g = Gen(name)
    ins = [i for i, (out, _) in enumerate(ops) if not out]
    vals = []
    for _ in range(N):
        vals.append([g.value(ops[i][1]) for i in ins])
    return vals


def slots_hash(rows):
    h = 0xcbf29ce484222325
    for row in rows:
        for v in row:
            h = fnv(struct.pack("<Q", v), h)
    return h


def kernel(ops, asm):
    nin = sum(1 for o, _ in ops if not o)
    nout = len(ops) - nin
    regname = {16: "%%h%d", 32: "%%r%d", 64: "%%l%d"}
    names = [regname[w] % i for i, (_, w) in enumerate(ops)]
    body = re.sub(r"\$(\d+)", lambda m: names[int(m.group(1))], asm)
    lines = [".version 8.7", ".target sm_90", ".address_size 64", "",
             ".visible .entry probe(.param .u64 pin, .param .u64 pout, .param .u32 n)", "{",
             "  .reg .pred %pp;", "  .reg .b32 %t<4>;", "  .reg .b64 %a<4>;",
             "  .reg .b16 %%h<%d>;" % len(ops), "  .reg .b32 %%r<%d>;" % len(ops),
             "  .reg .b64 %%l<%d>;" % len(ops),
             "  mov.u32 %t0, %tid.x;", "  mov.u32 %t1, %ctaid.x;", "  mov.u32 %t2, %ntid.x;",
             "  mad.lo.u32 %t0, %t1, %t2, %t0;", "  ld.param.u32 %t3, [n];",
             "  setp.ge.u32 %pp, %t0, %t3;", "  @%pp bra DONE;",
             "  ld.param.u64 %a0, [pin];", "  ld.param.u64 %a1, [pout];",
             "  cvta.to.global.u64 %a0, %a0;", "  cvta.to.global.u64 %a1, %a1;",
             "  mul.wide.u32 %%a2, %%t0, %d;" % (8 * max(nin, 1)), "  add.u64 %a2, %a0, %a2;",
             "  mul.wide.u32 %%a3, %%t0, %d;" % (8 * nout), "  add.u64 %a3, %a1, %a3;"]
    j = k = 0
    for i, (out, w) in enumerate(ops):
        b = {16: "b16", 32: "b32", 64: "b64"}[w]
        if out:
            lines.append("  mov.%s %s, 0;" % (b, names[i]))
        else:
            lines.append("  ld.global.%s %s, [%%a2 + %d];" % (b, names[i], 8 * j))
            j += 1
    lines.append("  " + body)
    for i, (out, w) in enumerate(ops):
        if out:
            b = {16: "b16", 32: "b32", 64: "b64"}[w]
            lines.append("  st.global.%s [%%a3 + %d], %s;" % (b, 8 * k, names[i]))
            k += 1
    lines += ["DONE:", "  ret;", "}", ""]
    return "\n".join(lines)


class Cuda:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.check(self.lib.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.ctx = ctypes.c_void_p()
        self.check(self.lib.cuCtxCreate_v2(ctypes.byref(self.ctx), 0, dev), "cuCtxCreate")
        name = ctypes.create_string_buffer(128)
        self.lib.cuDeviceGetName(name, 128, dev)
        self.name = name.value.decode()

    def check(self, r, what):
        if r != 0:
            raise RuntimeError("%s failed: CUDA error %d" % (what, r))

    def run(self, ptx, nin, nout, rows):
        log = ctypes.create_string_buffer(8192)
        opts = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER, ..._SIZE_BYTES
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p).value, 8192)
        mod = ctypes.c_void_p()
        r = self.lib.cuModuleLoadDataEx(ctypes.byref(mod), ctypes.c_char_p(ptx.encode()), 2, opts, vals)
        if r != 0:
            raise RuntimeError("the driver refuses the PTX (%d): %s" % (r, log.value.decode(errors="replace")))
        fn = ctypes.c_void_p()
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(fn), mod, b"probe"), "cuModuleGetFunction")
        inb = b"".join(struct.pack("<%dQ" % nin, *row) for row in rows) if nin else b"\0" * 8 * N
        din, dout = ctypes.c_uint64(), ctypes.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(din), len(inb)), "cuMemAlloc")
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(dout), 8 * nout * N), "cuMemAlloc")
        self.check(self.lib.cuMemcpyHtoD_v2(din, inb, len(inb)), "cuMemcpyHtoD")
        self.check(self.lib.cuMemsetD8_v2(dout, 0, 8 * nout * N), "cuMemsetD8")
        pin, pout, pn = ctypes.c_uint64(din.value), ctypes.c_uint64(dout.value), ctypes.c_uint32(N)
        params = (ctypes.c_void_p * 3)(ctypes.addressof(pin), ctypes.addressof(pout), ctypes.addressof(pn))
        self.check(self.lib.cuLaunchKernel(fn, (N + 127) // 128, 1, 1, 128, 1, 1, 0, None, params, None),
                   "cuLaunchKernel")
        self.check(self.lib.cuCtxSynchronize(), "cuCtxSynchronize")
        outb = ctypes.create_string_buffer(8 * nout * N)
        self.check(self.lib.cuMemcpyDtoH_v2(outb, dout, 8 * nout * N), "cuMemcpyDtoH")
        self.lib.cuMemFree_v2(din)
        self.lib.cuMemFree_v2(dout)
        self.lib.cuModuleUnload(mod)
        return outb.raw


def main():
    args = sys.argv[1:]
    out = "out/ptx_probe"
    golden = "tests/golden/ptx/gpu.txt"
    if "--out" in args:
        i = args.index("--out")
        out = args[i + 1]
        del args[i:i + 2]
    if "--golden" in args:
        i = args.index("--golden")
        golden = args[i + 1]
        del args[i:i + 2]
    cases = parse_cases("tests/golden/ptx/cases.txt")
    names = [a for a in args if not a.startswith("--")]
    if names:
        cases = [c for c in cases if c[0] in names]
    if "--dry" in args:  # no GPU: the inputs' hashes and the first kernel
        for name, ops, asm, _ in cases:
            print("%s %d %016x" % (name, N, slots_hash(inputs(name, ops))))
        print(kernel(cases[0][1], cases[0][2]))
        return 0
    os.makedirs(out, exist_ok=True)
    cu = Cuda()
    lines = ["# %s, the driver's PTX JIT; N = %d inputs per case (scripts/gpu/ptx_probe.py)" % (cu.name, N)]
    failed = 0
    for name, ops, asm, refused in cases:
        rows = inputs(name, ops)
        nin = sum(1 for o, _ in ops if not o)
        nout = len(ops) - nin
        try:
            raw = cu.run(kernel(ops, asm), nin, nout, rows)
        except RuntimeError as e:
            if refused and refused in str(e):  # invalid PTX: ptxas refuses it, as expected
                print("%s: refused as expected (%s)" % (name, refused))
                continue
            print("%s: %s" % (name, e))
            failed += 1
            continue
        if refused:
            print("%s: cases.txt expects ptxas to refuse it (%s), the driver accepted it" % (name, refused))
            failed += 1
            continue
        with open(os.path.join(out, name + ".out.bin"), "wb") as f:
            f.write(raw)
        oh = fnv(raw)
        lines.append("%s %d %016x %016x" % (name, N, slots_hash(rows), oh))
        print(lines[-1])
    with open(golden, "w") as f:
        f.write("\n".join(lines) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
