#!/usr/bin/env python3
"""Runs the Python original of every kernel on real inputs and checks it against PyTorch.

For each kernel and config that `ctriton list --json --all` reports (the
library kernels of kernels/py/*.py and the conformance kernels of
tests/conformance/conformance.py), this script imports the Python module,
builds inputs of the config's `problem` sizes, launches the @triton.jit kernel
with the config's constexprs, num_warps and num_stages, and compares what it
wrote with a PyTorch reference.  One line per kernel/config:

    PASS add_kernel/B256_tail   max_abs=0 max_rel=0   (0.41 s)

then a summary; `--json PATH` writes every result.  Exit status 1 when any
config FAILs (or has no reference), 0 otherwise.

On the GPU machine (Python 3.12, Triton 3.6.0, PyTorch, CUDA), from the repo root:

    make build
    python scripts/gpu/check_py_kernels.py --device cuda --json $OUT/py_kernels.json

`make build` installs libcmocka-dev and cmake with apt-get when they are
missing, which fails without network.  With cmake there, build the CLI alone:

    cmake -S . -B build -DCTRITON_TESTS=OFF && cmake --build build --target ctriton_cli

or skip building: save the list first on a machine that has the binary,

    build/ctriton --kernels build/libctriton_conformance.so list --json --all > /tmp/kernels.json
    python scripts/gpu/check_py_kernels.py --device cuda --list-json /tmp/kernels.json

or let the script fall back to the committed copy scripts/gpu/kernels_list.json
(it says so when it does; refresh that copy when configs change, with
`build/ctriton --kernels build/libctriton_conformance.so list --json --all >
scripts/gpu/kernels_list.json`).

Without a GPU, Triton's interpreter runs the same kernels on the CPU:

    python scripts/gpu/check_py_kernels.py --device cpu      # sets TRITON_INTERPRET=1

Triton 3.6's interpreter needs numpy < 2.4 (loops with runtime bounds call
int() on a 1-element array).  A few kernels use what it cannot run faithfully
(libdevice calls; fp32->fp8/bf16 casts and bf16 arithmetic, which it gets
wrong); those are reported as `SKIP (interpreter: reason)`, only under the
interpreter.  `--interp-libdevice-shim` replaces the libdevice calls by numpy
there, so that the references of those kernels can be checked too.
"""
import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys
import time
import traceback

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAVED_LIST = os.path.join(ROOT, "scripts", "gpu", "kernels_list.json")

# Imported by main() once TRITON_INTERPRET is settled: @triton.jit reads it at import time,
# Triton's own standard library included.
triton = None
tl = None
INTERPRETED = False

# What Triton 3.6's interpreter cannot run faithfully (used only under TRITON_INTERPRET).
INTERP_LIBDEVICE = {        # extern calls: the interpreter runs the empty Python stubs
    "asin_kernel": "libdevice.asin",
    "geglu_kernel": "libdevice.tanh",
    "ops_float": "libdevice.pow and libdevice.tanh",
}
INTERP_CASTS = {            # its fp32->fp8 casts lose the rounding carry (127.9 -> 64), ->bf16 truncates
    "per_token_group_quant_fp8_kernel": "fp32->fp8 casts",
    "ops_cast": "fp32->fp8 and fp32->bf16 casts",
}
INTERP_BF16_MATH = ("geglu_kernel", "swiglu_kernel", "ops_float",   # bf16 arithmetic, not just casts
                    "port_ptr_tuple")   # a bf16 load's other=0.0 (the interpreter has no get_bf16)
INTERP_WRONG = {            # the interpreter computes something else (or cannot run it)
    "ops_inline_asm": "PTX inline assembly",
    # ScanOps.generic_scan compares dimension numbers with the unwrapped axis (-2 != 0)
    "ops_combine": "associative_scan with a user combine function over a negative axis",
    # map_elementwise reads `.type` of every input; the interpreter passes alpha as a float
    "ops_map_elementwise": "map_elementwise with a scalar argument",
    "ops_desc_atomic": "descriptor atomics (the interpreter has no create_descriptor_reduce)",
}


def interpreter_skip(entry, shim):
    """Why the interpreter cannot run this config faithfully; None when it can."""
    name = entry["kernel"]
    if name in INTERP_LIBDEVICE and not shim:
        return INTERP_LIBDEVICE[name] + " (extern calls are not run by the interpreter)"
    if name in INTERP_CASTS:
        return INTERP_CASTS[name] + " (the interpreter rounds them differently from the hardware)"
    if name in INTERP_BF16_MATH and "bf16" in entry["signature"]:
        return "bfloat16 arithmetic (the interpreter computes on the raw bits)"
    if name in INTERP_WRONG:
        return INTERP_WRONG[name] + " (the interpreter's result is wrong)"
    return None


# ---------------------------------------------------------------------------
# Reading `ctriton list --json --all`


def load_list(args):
    """The kernel/config entries, from --list-json, from ctriton, or from the saved copy."""
    if args.list_json:
        with open(args.list_json) as f:
            return json.load(f), args.list_json
    # the conformance kernels are a plugin beside the command (tests/conformance)
    plugin = os.path.join(os.path.dirname(os.path.abspath(args.ctriton)), "libctriton_conformance.so")
    extra = ["--kernels", plugin] if os.path.exists(plugin) else []
    try:
        out = subprocess.run([args.ctriton] + extra + ["list", "--json", "--all"], check=True,
                             capture_output=True, text=True, cwd=ROOT).stdout
        return json.loads(out), args.ctriton + " list --json --all"
    except (OSError, subprocess.CalledProcessError, ValueError) as exc:
        print(f"note: cannot run {args.ctriton} ({type(exc).__name__}); using the saved list "
              f"{os.path.relpath(SAVED_LIST, ROOT)}, which may be older than the kernels")
    with open(SAVED_LIST) as f:
        return json.load(f), SAVED_LIST


def parse_value(text):
    """A constexpr or problem value: int, float, bool, None, quoted string, or dtype name."""
    if text[:1] in "'\"":
        return text[1:-1]
    if text in ("True", "False"):
        return text == "True"
    if text == "None":
        return None
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return getattr(tl, TL_DTYPES.get(text, text))


def parse_words(text):
    """'A=1 B='x' C=fp16' -> {'A': 1, 'B': 'x', 'C': tl.float16}."""
    out = {}
    for word in (text or "").split():
        name, value = word.split("=", 1)
        out[name] = parse_value(value)
    return out


TL_DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
             "fp8e4nv": "float8e4nv", "fp8e5": "float8e5"}


def torch_dtype(name):
    """Signature element type ('fp32', 'i32', 'fp8e4nv', ...) -> torch dtype."""
    table = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
             "fp64": torch.float64, "fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2,
             "i1": torch.bool, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
             "i64": torch.int64, "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32,
             "u64": torch.uint64}
    return table[name]


def parse_signature(text):
    """'x_ptr=*fp32:16 n=i32' -> {'x_ptr': torch.float32, 'n': 'i32'} (pointers as torch dtypes)."""
    out = {}
    for word in text.split():
        name, ty = word.split("=", 1)
        ty = ty.split(":")[0]
        out[name] = torch_dtype(ty[1:]) if ty.startswith("*") else ty
    return out


_modules = {}


def load_kernel(py, name):
    """The @triton.jit object `name` of the module at repo-relative path `py`."""
    if py not in _modules:
        modname = "ctriton_py_" + os.path.splitext(os.path.basename(py))[0]
        spec = importlib.util.spec_from_file_location(modname, os.path.join(ROOT, py))
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        spec.loader.exec_module(module)
        _modules[py] = module
    return getattr(_modules[py], name)


# ---------------------------------------------------------------------------
# Comparisons


class Check:
    """One comparison of a kernel output (or one property of it)."""

    def __init__(self, name, ok, max_abs=None, max_rel=None, detail=""):
        self.name, self.ok, self.max_abs, self.max_rel, self.detail = name, ok, max_abs, max_rel, detail

    def as_dict(self):
        return {"name": self.name, "ok": self.ok, "max_abs": json_number(self.max_abs),
                "max_rel": json_number(self.max_rel), "detail": self.detail}


def json_number(v):
    """NaN and infinities as strings, which strict JSON readers accept."""
    return v if v is None or math.isfinite(v) else str(v)


def tolerance(dtype):
    """(atol, rtol) for an output stored in `dtype`, against a float64 reference."""
    return {torch.float32: (1e-5, 1e-5), torch.float16: (1e-3, 2e-3),
            torch.bfloat16: (1e-2, 1.6e-2)}[dtype]


def errors(out, ref):
    """(abs error, rel error) elementwise as float64 CPU tensors; NaN where out is NaN, 0 where
    out equals ref (an infinity the reference wants, as -inf for an empty split's lse)."""
    out = out.detach().cpu().to(torch.float64)
    ref = ref.detach().cpu().to(torch.float64)
    err = torch.where(out == ref, torch.zeros_like(ref), (out - ref).abs())
    rel = err / ref.abs().clamp_min(1e-30)
    return err, rel, ref


def compare(name, out, ref, atol, rtol):
    """Passes when |out - ref| <= atol + rtol * |ref| everywhere (NaN never passes)."""
    out = out.reshape(ref.shape)
    err, rel, ref64 = errors(out, ref)
    bad = ~(err <= atol + rtol * ref64.abs())
    max_abs = float(err.max()) if err.numel() else 0.0
    # relative error where the reference is not tiny next to atol
    big = ref64.abs() > atol
    max_rel = float(rel[big].max()) if bool(big.any()) else 0.0
    detail = f"atol={atol:g} rtol={rtol:g}"
    if bool(bad.any()):
        i = int(bad.flatten().nonzero()[0])
        detail += (f"; {int(bad.sum())}/{bad.numel()} elements off, first at flat index {i}: "
                   f"got {float(out.flatten()[i].float())} want {float(ref64.flatten()[i])}")
    return Check(name, not bool(bad.any()), max_abs, max_rel, detail)


def compare_exact(name, out, ref):
    return compare(name, out, ref, 0.0, 0.0)


def compare_either(name, out, ref_a, ref_b, atol, rtol):
    """Each element must match ref_a or ref_b (two stores race on the same address)."""
    out = out.detach().cpu().to(torch.float64)
    ea = (out - ref_a.to(torch.float64)).abs()
    eb = (out - ref_b.to(torch.float64)).abs()
    ok_a = ea <= atol + rtol * ref_a.abs()
    ok_b = eb <= atol + rtol * ref_b.abs()
    err = torch.where(ok_a, ea, torch.minimum(ea, eb))
    bad = ~(ok_a | ok_b)
    return Check(name, not bool(bad.any()), float(err.max()), None,
                 f"atol={atol:g} rtol={rtol:g}, either of two racing stores; {int(bad.sum())} off")


def check_true(name, cond, detail=""):
    return Check(name, bool(cond), None, None, detail)


# ---------------------------------------------------------------------------
# Per-config context: inputs, guarded outputs, launch


class Ctx:
    """What a check function needs for one kernel/config."""

    def __init__(self, entry, fn, device):
        self.entry = entry
        self.fn = fn
        self.device = device
        self.types = parse_signature(entry["signature"])
        self.const = parse_words(entry["constexprs"])
        self.problem = parse_words(entry.get("problem", ""))
        self.gen = torch.Generator().manual_seed(20240601)
        self.guards = []
        self.recorded = False

    def dtype(self, arg):
        """The torch dtype of pointer argument `arg` in the config's signature."""
        return self.types[arg]

    # inputs are drawn on the CPU (the same values on every device), then moved

    def randn(self, *shape, dtype=None, scale=1.0, shift=0.0):
        t = torch.randn(*shape, generator=self.gen, dtype=torch.float32) * scale + shift
        return t.to(dtype or torch.float32)

    def uniform(self, *shape, lo=0.0, hi=1.0, dtype=None):
        t = torch.rand(*shape, generator=self.gen, dtype=torch.float32) * (hi - lo) + lo
        return t.to(dtype or torch.float32)

    def randint(self, *shape, lo, hi, dtype=torch.int32):
        return torch.randint(lo, hi, shape, generator=self.gen, dtype=torch.int64).to(dtype)

    def dev(self, t):
        """An input on the device, followed by a guard zone that must stay untouched."""
        return self._guarded(t.contiguous())

    def out(self, *shape, dtype):
        """An output on the device, filled with NaN (or 0x5A bytes), with a guard zone."""
        fill = torch.empty(*shape, dtype=dtype)
        if dtype.is_floating_point and dtype.itemsize > 1:
            fill.fill_(float("nan"))
        elif dtype.is_floating_point:
            fill.view(torch.uint8).fill_(0x7F)          # NaN in both fp8 formats
        else:
            fill.view(torch.uint8).fill_(0x5A)
        return self._guarded(fill)

    def _guarded(self, t, n_guard=64):
        flat = t.reshape(-1)
        guard = torch.empty(n_guard, dtype=t.dtype)
        if t.dtype == torch.bool:
            guard.fill_(True)
        else:
            guard.view(torch.uint8).fill_(0xA5)
        buf = torch.cat([flat, guard]).to(self.device)
        self.guards.append((buf, flat.numel(), guard))
        return buf[:flat.numel()].view(t.shape)

    def guard_check(self):
        """Nothing was written past the end of any tensor."""
        for buf, n, guard in self.guards:
            tail = buf[n:].cpu()
            if not torch.equal(tail.view(torch.uint8), guard.view(torch.uint8)):
                return check_true("guard", False, "a write landed past the end of a tensor")
        return check_true("guard", True)

    def launch(self, grid, *args):
        record = RECORD is not None and not self.recorded
        before = [a.detach().cpu().clone() if isinstance(a, torch.Tensor) else a for a in args] if record else None
        # a config's options (tl_config.options) that Triton's launch takes too
        extra = {}
        for word in self.entry.get("options", "").split():
            name, value = word.split("=", 1)
            if name in ("debug", "sanitize_overflow", "enable_fp_fusion"):
                extra[name] = value in ("True", "true", "1")
            elif name in ("num_ctas", "maxnreg"):
                extra[name] = int(value)
        compiled = self.fn[grid](*args, **self.const, num_warps=self.entry["num_warps"],
                                 num_stages=self.entry["num_stages"], **extra)
        if record:
            self.recorded = True
            if self.device == "cuda":
                torch.cuda.synchronize()
            record_run(self, grid, args, before, compiled)


# ---- recording GPU runs for the emulator's differential suite (--record DIR) ---------------
# The first launch of each kernel/config: every argument (tensors' bytes before the launch and,
# where the kernel changed them, after it), the grid and num_warps, under
# DIR/tests/golden/gpu_runs/<kernel>/<config>/ (run.txt, NAME.in.bin, NAME.out.bin, and the
# launched kernel's kernel.ttir and kernel.ttgir).  test_emu_gpu_runs runs that TTIR on the
# emulator with those inputs and compares every buffer with the GPU's.
RECORD = None
RECORD_MAX_BYTES = 3 << 20      # inputs and outputs of one config; larger ones are not kept
RECORD_LOG = []
TORCH_NAMES = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "float64": "fp64",
               "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5", "int8": "i8", "int16": "i16",
               "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
               "uint64": "u64", "bool": "i1"}


def record_run(ctx, grid, args, before, compiled=None):
    kname, cname = ctx.entry["kernel"], ctx.entry["config"]
    names = [n for n in ctx.fn.arg_names if n not in ctx.const]
    if len(args) > len(names):
        RECORD_LOG.append(f"{kname}/{cname}: not recorded (more arguments than parameters)")
        return
    if callable(grid):
        grid = grid(dict(ctx.const))
    grid = tuple(grid) + (1,) * (3 - len(tuple(grid)))
    lines = [f"kernel {kname}", f"config {cname}", "grid %d %d %d" % grid[:3],
             f"num_warps {ctx.entry['num_warps']}"]
    files, total = {}, 0
    for name, a, b in zip(names, args, before):
        if isinstance(a, torch.Tensor):
            dt = TORCH_NAMES.get(str(a.dtype).replace("torch.", ""))
            if dt is None or not a.is_contiguous():
                RECORD_LOG.append(f"{kname}/{cname}: not recorded ({name}: {a.dtype}, contiguous={a.is_contiguous()})")
                return
            pre = b.contiguous().view(torch.uint8).numpy().tobytes() if b.numel() else b""
            post = a.detach().cpu().contiguous().view(torch.uint8).numpy().tobytes() if a.numel() else b""
            files[name + ".in.bin"] = pre
            changed = post != pre
            if changed:
                files[name + ".out.bin"] = post
            total += len(pre) + (len(post) if changed else 0)
            lines.append(f"arg {name} buf {dt} {a.numel()} {'out' if changed else 'same'}")
        elif a is None:
            lines.append(f"arg {name} none")
        elif isinstance(a, bool):
            lines.append(f"arg {name} int {int(a)}")
        elif isinstance(a, int):
            lines.append(f"arg {name} int {a}")
        elif isinstance(a, float):
            lines.append(f"arg {name} float {a.hex()}")
        else:
            RECORD_LOG.append(f"{kname}/{cname}: not recorded ({name}: {type(a).__name__})")
            return
    if total > RECORD_MAX_BYTES:
        RECORD_LOG.append(f"{kname}/{cname}: not recorded ({total} bytes)")
        return
    d = os.path.join(RECORD, "tests", "golden", "gpu_runs", kname, cname)
    os.makedirs(d, exist_ok=True)
    # the TTIR and TTGIR of the launched kernel itself (its specialization is the launch's:
    # divisibility and equal-to-1 hints from these very arguments), when Triton kept them
    asm = getattr(compiled, "asm", None) or {}
    for stage in ("ttir", "ttgir"):
        if isinstance(asm.get(stage), str):
            files["kernel." + stage] = asm[stage].encode()
    for f, data in files.items():
        with open(os.path.join(d, f), "wb") as fh:
            fh.write(data)
    where = torch.cuda.get_device_name() if ctx.device == "cuda" else "the CPU (TRITON_INTERPRET=1)"
    lines.append(f"# recorded on {where}, triton {triton.__version__}, "
                 f"torch {torch.__version__}")
    with open(os.path.join(d, "run.txt"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    RECORD_LOG.append(f"{kname}/{cname}: recorded, {total} bytes")


def cdiv(a, b):
    return (a + b - 1) // b


# ---------------------------------------------------------------------------
# Philox, as Triton's tl.randint/tl.rand/tl.randn compute it (32-bit counters)

PHILOX_ROUND_A, PHILOX_ROUND_B = 0xD2511F53, 0xCD9E8D57
PHILOX_KEY_A, PHILOX_KEY_B = 0x9E3779B9, 0xBB67AE85
M32 = 0xFFFFFFFF


def philox4x32(seed, offsets, rounds=10):
    """The four uint32 streams (as int64 tensors) for int32 or int64 offsets >= 0."""
    offsets = offsets.to(torch.int64)
    c0, c1 = offsets & M32, (offsets >> 32) & M32
    c2 = torch.zeros_like(c0)
    c3 = torch.zeros_like(c0)
    k0, k1 = seed & M32, (seed >> 32) & M32
    for _ in range(rounds):
        # products of two uint32 fit in 64 bits, but not in int64: split them
        hi_b, lo_b = mul32(PHILOX_ROUND_B, c2)
        hi_a, lo_a = mul32(PHILOX_ROUND_A, c0)
        c0, c1, c2, c3 = hi_b ^ c1 ^ k0, lo_b, hi_a ^ c3 ^ k1, lo_a
        k0, k1 = (k0 + PHILOX_KEY_A) & M32, (k1 + PHILOX_KEY_B) & M32
    return c0, c1, c2, c3


def mul32(a, b):
    """(high, low) 32-bit halves of the 64-bit product of constant a and int64 tensor b < 2**32."""
    a_hi, a_lo = a >> 16, a & 0xFFFF
    lo_part = a_lo * b                        # < 2**48
    hi_part = a_hi * b                        # < 2**48
    low = (lo_part + ((hi_part & 0xFFFF) << 16)) & M32
    carry = (lo_part + ((hi_part & 0xFFFF) << 16)) >> 32
    high = (hi_part >> 16) + carry
    return high & M32, low


def uint_to_uniform(u):
    """tl.rand's map of a uint32 stream to a float32 in [0, 1)."""
    x = torch.where(u >= 2**31, u - 2**32, u)          # bitcast to int32
    x = torch.where(x < 0, -x - 1, x)
    return x.to(torch.float32) * torch.tensor(4.6566127342e-10, dtype=torch.float32)


def philox_rand(seed, offsets):
    return uint_to_uniform(philox4x32(seed, offsets)[0])


# ---------------------------------------------------------------------------
# Library kernels (kernels/py)


def check_add(ctx):
    n, block = ctx.problem["N"], ctx.const["BLOCK_SIZE"]
    x = ctx.randn(n, dtype=ctx.dtype("x_ptr"))
    y = ctx.randn(n, dtype=ctx.dtype("y_ptr"))
    out = ctx.out(n, dtype=ctx.dtype("output_ptr"))
    ctx.launch((cdiv(n, block),), ctx.dev(x), ctx.dev(y), out, n)
    return [compare_exact("output", out, x + y)]


def check_softmax(ctx):
    m, n = ctx.problem["M"], ctx.problem["N"]
    x = ctx.randn(m, n, scale=2.0, dtype=ctx.dtype("x_ptr"))
    y = ctx.out(m, n, dtype=ctx.dtype("y_ptr"))
    ctx.launch((m,), ctx.dev(x), y, n)
    return [compare("y", y, torch.softmax(x.double(), dim=1), 1e-7, 1e-5)]


def check_softmax_persistent(ctx):
    m, n, programs = ctx.problem["M"], ctx.problem["N"], ctx.problem["G"]
    x = ctx.randn(m, n, scale=2.0, dtype=ctx.dtype("input_ptr"))
    y = ctx.out(m, n, dtype=ctx.dtype("output_ptr"))
    ctx.launch((programs,), y, ctx.dev(x), n, n, m, n)
    return [compare("output", y, torch.softmax(x.double(), dim=1), 1e-7, 1e-5)]


def check_layer_norm(ctx):
    m, n, eps = ctx.problem["M"], ctx.problem["N"], 1e-5
    x = ctx.randn(m, n, shift=1.0, dtype=ctx.dtype("X"))
    w = ctx.randn(n, scale=0.1, shift=1.0, dtype=ctx.dtype("W"))
    b = ctx.randn(n, scale=0.1, dtype=ctx.dtype("B"))
    y = ctx.out(m, n, dtype=ctx.dtype("Y"))
    mean = ctx.out(m, dtype=ctx.dtype("Mean"))
    rstd = ctx.out(m, dtype=ctx.dtype("Rstd"))
    ctx.launch((m,), ctx.dev(x), y, ctx.dev(w), ctx.dev(b), mean, rstd, n, n, eps)
    x64 = x.double()
    mean_ref = x64.mean(dim=1)
    rstd_ref = 1 / torch.sqrt(x64.var(dim=1, unbiased=False) + eps)
    y_ref = (x64 - mean_ref[:, None]) * rstd_ref[:, None] * w.double() + b.double()
    return [compare("Y", y, y_ref, *tolerance(y.dtype)),
            compare("Mean", mean, mean_ref, *tolerance(mean.dtype)),
            compare("Rstd", rstd, rstd_ref, *tolerance(rstd.dtype))]


def check_rms_norm(ctx):
    m, n, eps = ctx.problem["M"], ctx.problem["N"], 1e-6
    x = ctx.randn(m, n, dtype=ctx.dtype("X"))
    w = ctx.randn(n, scale=0.1, shift=1.0, dtype=ctx.dtype("W"))
    y = ctx.out(m, n, dtype=ctx.dtype("Y"))
    rstd = ctx.out(m, dtype=ctx.dtype("Rstd"))
    ctx.launch((m,), ctx.dev(x), y, ctx.dev(w), rstd, n, n, eps)
    x64 = x.double()
    rstd_ref = torch.rsqrt((x64 * x64).mean(dim=1) + eps)
    y_ref = x64 * rstd_ref[:, None] * w.double()
    return [compare("Y", y, y_ref, *tolerance(y.dtype)),
            compare("Rstd", rstd, rstd_ref, *tolerance(rstd.dtype))]


def check_dropout(ctx):
    n, p, seed = ctx.problem["N"], ctx.problem["P"], ctx.problem["SEED"]
    block = ctx.const["BLOCK_SIZE"]
    # nonzero inputs, so that a zero output means a dropped element
    x = ctx.uniform(n, lo=0.5, hi=1.5) * torch.where(ctx.uniform(n) < 0.5, -1.0, 1.0)
    x_dev = ctx.dev(x)
    outs = []
    for s in (seed, seed, seed + 1):
        out = ctx.out(n, dtype=ctx.dtype("output_ptr"))
        ctx.launch((cdiv(n, block),), x_dev, out, n, p, s)
        outs.append(out.cpu())
    out = outs[0]
    keep = out != 0
    p32 = torch.tensor(p, dtype=torch.float32)
    kept_ref = x / (1 - p32)
    frac = float(keep.double().mean())
    sigma = math.sqrt(p * (1 - p) / n)
    mask_ref = philox_rand(seed, torch.arange(n)) > p32
    return [
        compare("kept == x/(1-p)", out[keep], kept_ref[keep], *tolerance(torch.float32)),
        check_true("dropped == 0", bool((out[~keep] == 0).all())),
        check_true("kept fraction", abs(frac - (1 - p)) <= 5 * sigma + 1 / n,
                   f"{frac:.4f} kept, expected {1 - p:.4f} +- {5 * sigma:.4f}"),
        check_true("same seed, same output", torch.equal(outs[0], outs[1])),
        check_true("other seed, other mask", not torch.equal(outs[0] != 0, outs[2] != 0)),
        check_true("mask == Philox(seed, offset) > p", torch.equal(keep, mask_ref),
                   f"{int((keep != mask_ref).sum())} of {n} differ"),
    ]


def check_swiglu(ctx):
    m, n = ctx.problem["M"], ctx.problem["N"]
    dt = ctx.dtype("c_ptr")
    a = ctx.randn(m, n, scale=2.0, dtype=ctx.dtype("a_ptr"))
    b = ctx.randn(m, n, dtype=ctx.dtype("b_ptr"))
    c = ctx.out(m, n, dtype=dt)
    ctx.launch((m,), ctx.dev(a), ctx.dev(b), c, n, n)
    a64 = a.double()
    silu = (a64 * torch.sigmoid(a64)).to(dt)          # the kernel casts silu(a) to b's type
    ref = (silu.double() * b.double()).to(dt)         # and multiplies in b's type
    return [compare("c", c, ref, *tolerance(dt))]


def check_geglu(ctx):
    m, n = ctx.problem["M"], ctx.problem["N"]
    dt = ctx.dtype("c_ptr")
    a = ctx.randn(m, n, scale=2.0, dtype=ctx.dtype("a_ptr"))
    b = ctx.randn(m, n, dtype=ctx.dtype("b_ptr"))
    c = ctx.out(m, n, dtype=dt)
    ctx.launch((m,), ctx.dev(a), ctx.dev(b), c, n, n)
    a64 = a.double()
    gelu = 0.5 * a64 * (1 + torch.tanh(math.sqrt(2 / math.pi) * (a64 + 0.044715 * a64 ** 3)))
    ref = (gelu.to(dt).double() * b.double()).to(dt)
    return [compare("c", c, ref, *tolerance(dt))]


def check_asin(ctx):
    n, block = ctx.problem["N"], ctx.const["BLOCK_SIZE"]
    x = ctx.uniform(n, lo=-1.0, hi=1.0, dtype=ctx.dtype("x_ptr"))
    x[:3] = torch.tensor([-1.0, 0.0, 1.0])
    y = ctx.out(n, dtype=ctx.dtype("y_ptr"))
    ctx.launch((cdiv(n, block),), ctx.dev(x), y, n)
    return [compare("y", y, torch.asin(x.double()), *tolerance(torch.float32))]


def check_quant_fp8(ctx):
    m, n, group = ctx.problem["M"], ctx.problem["N"], ctx.problem["G"]
    qt = ctx.dtype("y_q_ptr")
    fp8_max = float(torch.finfo(qt).max)
    eps = 1e-10
    y = ctx.randn(m, n, scale=3.0, dtype=ctx.dtype("y_ptr"))
    y[0, :group] = 0                                   # an all-zero group: scale = eps / max
    y_q = ctx.out(m, n, dtype=qt)
    y_s = ctx.out(m, n // group, dtype=ctx.dtype("y_s_ptr"))
    ctx.launch((m * n // group,), ctx.dev(y), y_q, y_s, group, n, n, eps, -fp8_max, fp8_max)
    g = y.float().view(m, n // group, group)
    s_ref = g.abs().amax(dim=2).clamp_min(eps) / fp8_max            # float32, as the kernel
    q_ref = (g / s_ref[..., None]).clamp(-fp8_max, fp8_max).to(qt).view(m, n)
    q = y_q.cpu().float()
    # fp8 e4m3: 3 mantissa bits; one step is 2**-3 relative, 2**-9 in the subnormals
    deq = (q.view(m, n // group, group) * y_s.cpu()[..., None]).view(m, n)
    atol_deq = (2.0 ** -10) * s_ref.repeat_interleave(group, dim=1).double()
    err_deq = (deq.double() - y.double()).abs()
    ok_deq = bool((err_deq <= 2.0 ** -4 * y.double().abs() + atol_deq).all())
    return [compare("y_s", y_s, s_ref, 0.0, 1e-6),
            compare("y_q (fp8, 1 step)", q, q_ref.float(), 2.0 ** -9, 2.0 ** -3),
            check_true("y_q * y_s ~ y (half fp8 step)", ok_deq,
                       f"max |y_q*y_s - y| = {float(err_deq.max()):.3g}")]


def check_rope(ctx):
    tokens, seq = ctx.problem["T"], ctx.problem["S"]
    heads, hd = ctx.const["n_qh"], ctx.const["hd"]
    dt = ctx.dtype("q_ptr")
    q0 = ctx.randn(tokens, heads * hd, dtype=dt)
    inv_freq = 10000.0 ** (-torch.arange(0, hd, 2, dtype=torch.float64) / hd)
    angles = torch.arange(seq, dtype=torch.float64)[:, None] * inv_freq[None, :]
    emb = torch.cat([angles, angles], dim=1)                # (seq, hd), as rotary caches are laid out
    cos, sin = emb.cos().to(ctx.dtype("cos_ptr")), emb.sin().to(ctx.dtype("sin_ptr"))
    q = ctx.dev(q0)
    ctx.launch((tokens,), q, heads * hd, ctx.dev(cos), hd, ctx.dev(sin), hd, seq)
    pos = torch.arange(tokens) % seq
    c = cos.double()[pos, None, :hd // 2]
    s = sin.double()[pos, None, :hd // 2]
    x = q0.double().view(tokens, heads, hd)
    x1, x2 = x[..., :hd // 2], x[..., hd // 2:]
    if ctx.const["BACKWARD_PASS"]:
        ref = torch.cat([x1 * c + x2 * s, x2 * c - x1 * s], dim=-1)
    else:
        ref = torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)
    return [compare("q (in place)", q, ref.view(tokens, heads * hd), *tolerance(dt))]


def check_matmul(ctx):
    m, n, k = ctx.problem["M"], ctx.problem["N"], ctx.problem["K"]
    at, bt = ctx.dtype("a_ptr"), ctx.dtype("b_ptr")
    a = ctx.randn(m, k, dtype=at)
    fp8 = at.itemsize == 1
    b = ctx.randn(k, n, scale=1.0 if fp8 else 1 / math.sqrt(k), dtype=bt)
    c = ctx.out(m, n, dtype=ctx.dtype("c_ptr"))
    grid = (cdiv(m, ctx.const["BLOCK_SIZE_M"]) * cdiv(n, ctx.const["BLOCK_SIZE_N"]),)
    ctx.launch(grid, ctx.dev(a), ctx.dev(b), c, m, n, k, k, 1, n, 1, n, 1)
    # the reference of the (already rounded) inputs, in float64
    ref = a.double() @ b.double()
    if ctx.const["ACTIVATION"] == "leaky_relu":
        ref = torch.where(ref >= 0, ref, 0.01 * ref)
    atol, rtol = tolerance(c.dtype)
    if fp8:
        # Hopper's fp8 MMA accumulates with ~14 bits, not fp32's 24: allow 2**-9 of sum |a||b|
        atol = 2.0 ** -9 * float((a.double().abs() @ b.double().abs()).max())
    return [compare("c", c, ref, atol, rtol)]


def check_matmul_tma(ctx):
    m, n, k = ctx.problem["M"], ctx.problem["N"], ctx.problem["K"]
    # the descriptors made in the kernel live in memory Triton asks this allocator for
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=ctx.device, dtype=torch.int8))
    a = ctx.randn(m, k, dtype=torch.float16)
    b = ctx.randn(k, n, scale=1 / math.sqrt(k), dtype=torch.float16)
    c = ctx.out(m, n, dtype=torch.float16)
    grid = (cdiv(m, ctx.const["BLOCK_SIZE_M"]) * cdiv(n, ctx.const["BLOCK_SIZE_N"]),)
    ctx.launch(grid, ctx.dev(a), ctx.dev(b), c, m, n, k)
    return [compare("c", c, a.double() @ b.double(), *tolerance(torch.float16))]


# ---------------------------------------------------------------------------
# Conformance kernels (tests/conformance/conformance.py)


def check_cummax(ctx):
    m, n, block = ctx.problem["M"], ctx.problem["N"], ctx.const["BLOCK_SIZE"]
    dt = ctx.dtype("x_ptr")
    nb = cdiv(n, block)
    # multiples of 1/16, so that ties (the last index wins, as torch.cummax) are frequent
    x = (torch.floor(ctx.uniform(m, n, lo=-4.0, hi=4.0) * 16) / 16).to(dt)
    values = ctx.out(m, n, dtype=dt)
    indices = ctx.out(m, n, dtype=torch.int32)
    block_max = ctx.out(m, nb, dtype=dt)
    block_idx = ctx.out(m, nb, dtype=torch.int32)
    ctx.launch((m, nb), ctx.dev(x), values, indices, block_max, block_idx, n)
    want_v, want_i = torch.empty(m, n, dtype=dt), torch.empty(m, n, dtype=torch.int64)
    want_bm, want_bi = torch.empty(m, nb, dtype=dt), torch.empty(m, nb, dtype=torch.int64)
    for b in range(nb):
        lo, hi = b * block, min(n, (b + 1) * block)
        v, i = torch.cummax(x[:, lo:hi].float(), dim=1)
        want_v[:, lo:hi], want_i[:, lo:hi] = v.to(dt), i + lo
        want_bm[:, b], want_bi[:, b] = v[:, -1].to(dt), i[:, -1] + lo
    return [compare_exact("values", values, want_v), compare_exact("indices", indices, want_i),
            compare_exact("block_max", block_max, want_bm), compare_exact("block_idx", block_idx, want_bi)]


def check_cf_if_else(ctx):
    programs, n = 8, 4
    x = ctx.randn(programs)
    y = ctx.out(programs, dtype=ctx.dtype("y_ptr"))
    ctx.launch((programs,), ctx.dev(x), y, n)
    pid = torch.arange(programs)
    s, t = x.double(), 2 * x.double()
    s = torch.where(pid == 0, s + 1, s - 1)
    t = torch.where(pid == 0, t, t * 3)
    s = torch.where(pid > n, s * t, s)
    return [compare("y", y, s + t, *tolerance(torch.float32))]


def check_cf_while(ctx):
    n = 5
    x = ctx.randn(1)
    y = ctx.out(1, dtype=ctx.dtype("y_ptr"))
    ctx.launch((1,), ctx.dev(x), y, n)
    return [compare_exact("y", y, x.double() * 2 ** n)]


def check_cf_early_return(ctx):
    block = ctx.const["BLOCK"]
    n = 2 * block + block // 3
    programs = cdiv(n, block) + 2                      # the last two return at once
    x = ctx.randn(n)
    y = ctx.out(programs * block, dtype=ctx.dtype("y_ptr"))
    ctx.launch((programs,), ctx.dev(x), y, n)
    tail = y[n:].cpu()
    return [compare_exact("y[:n]", y[:n], x.double()),
            check_true("y[n:] untouched", bool(tail.isnan().all()))]


def check_cf_ternary_nested(ctx):
    block, n, programs = ctx.const["BLOCK"], 3, 2
    x = ctx.randn(programs)
    y = ctx.out(block, dtype=ctx.dtype("y_ptr"))
    ctx.launch((programs,), ctx.dev(x), y, n)
    # every program stores the whole of y: it ends up with one program's values
    cands = []
    for pid in range(programs):
        w = float(x[pid]) if pid % 2 == 0 else float(x[pid]) * 2.0
        acc = 0.0
        for i in range(n):
            for j in range(4):
                acc += w * j
            acc -= i
        for k in range(8, 0, -2):
            acc += k
        cands.append(torch.full((block,), acc, dtype=torch.float64))
    return [compare_either("y", y, cands[0], cands[1], *tolerance(torch.float32))]


def wrap32(v):
    """Python int -> the int32 with the same low 32 bits."""
    v &= M32
    return v - 2 ** 32 if v >= 2 ** 31 else v


def check_ops_int(ctx):
    block, n = ctx.const["BLOCK"], 10
    a = ctx.randint(block, lo=-1000, hi=1000)
    b = ctx.randint(block, lo=1, hi=50) * torch.where(ctx.uniform(block) < 0.5, -1, 1).to(torch.int32)
    u = ctx.randint(block, lo=0, hi=2 ** 32, dtype=torch.int64)
    c = ctx.out(block, dtype=ctx.dtype("c_ptr"))
    ctx.launch((1,), ctx.dev(a), ctx.dev(b), c, ctx.dev(u.to(ctx.dtype("u_ptr"))), n)
    ref = []
    for ai, bi, ui in zip(a.tolist(), b.tolist(), u.tolist()):
        q = abs(ai) // abs(bi) * (1 if (ai < 0) == (bi < 0) else -1)   # division truncates
        r = ai - bi * q                                                 # remainder has a's sign
        cc = q + r + ai + (ai << 2) + (ai >> 1) + ~ai + (ai & bi) + (ai | bi) + (ai ^ bi)
        cc += min(ai, bi) + max(ai, 7) + abs(ai) + wrap32((ui * ui) >> 32)
        d = ((ui // 3) + (ui % 5) + (ui >> 3)) & M32
        e = ai * 3 + n
        f = ((ai > bi) and (ai >= 0)) or ((ai < n) != (ai <= bi))
        f = f or ai == 1 or ai != bi
        g = (cc if f else wrap32(d)) + wrap32(e)
        g += wrap32(ai & 0xFF) if (ai & 0xFF) < 128 else (ai & 0xFF) - 256   # to int8
        g += ai & 0xFFFF                                                      # to uint16
        ref.append(wrap32(g + (1 - ai) * 2))
    return [compare_exact("c", c, torch.tensor(ref, dtype=torch.float64))]


def check_ops_float(ctx):
    block, scale = ctx.const["BLOCK"], 0.75
    x = ctx.uniform(block, lo=0.1, hi=3.0)
    h = ctx.uniform(block, lo=0.5, hi=2.0, dtype=ctx.dtype("h_ptr"))
    b = ctx.uniform(block, lo=-2.0, hi=2.0, dtype=ctx.dtype("b_ptr"))
    y = ctx.out(block, dtype=ctx.dtype("y_ptr"))
    ctx.launch((1,), ctx.dev(x), ctx.dev(h), ctx.dev(b), y, scale)
    x, h, b = x.double(), h.double(), b.double()
    r = torch.exp(x) + torch.exp2(x) + torch.log(x) + torch.log2(x)
    r = r + 2 * torch.sqrt(x) + torch.rsqrt(x)
    r = r + torch.sin(x) + torch.cos(x) + torch.erf(x)
    r = r + torch.floor(x) + torch.ceil(x) + x.abs() + torch.sigmoid(x)
    r = r + (x * x + 1) + x / 3 + 1
    r = r + torch.fmod(x, 2.0) + x / 3 + 2 / x
    r = r + x.clamp(max=0.5) + x.clamp(min=0.5) + x.clamp(-1.0, 1.0)
    r = r + 2 * h + 1 + 2 * b + (h + b) + h * scale
    r = r + x ** 2 + x ** 3 + torch.tanh(x)
    r = torch.where(x > 0.5, r, -r) + (h < 1).double()
    r = r + 1e-6 + 2.0 ** 0.5
    # ~40 float32 terms of up to ~20 each, some through approximate hardware math;
    # and h / h is an fp16 division, which the GPU computes approximately: it can
    # come out 1 - 2**-10 (measured on the H200: 9 of 64 elements 0.00098 low)
    return [compare("y", y, r, 2e-3, 1e-5)]


def check_ops_cast(ctx):
    block = ctx.const["BLOCK"]
    # [0, 200): defined for the uint8 cast, inside fp8 range, normal for fp16 (round-toward-zero below)
    x = ctx.uniform(block, lo=0.5, hi=200.0)
    x[:4] = torch.tensor([0.0, 1.0, 2.5, 199.75])
    y = ctx.out(block, dtype=ctx.dtype("y_ptr"))
    q = ctx.out(block, dtype=ctx.dtype("q_ptr"))
    ctx.launch((1,), ctx.dev(x), y, q)
    f32 = torch.float32
    rtz = (x.view(torch.int32) & ~0x1FFF).view(f32)     # fp16 round-toward-zero: drop 13 mantissa bits
    terms = [x.half().to(f32), x.bfloat16().to(f32), x.to(ctx.dtype("q_ptr")).to(f32),
             x.half().to(torch.float8_e5m2).to(f32), rtz, x.to(torch.int32).to(f32),
             x.to(torch.uint8).to(f32), x, (x != 0).to(f32), x.double().to(f32)]
    ref = terms[0]
    for t in terms[1:]:
        ref = ref + t                                    # float32 sums, in the kernel's order
    return [compare("y", y, ref, 0.0, 1e-6),
            compare_exact("q (fp8e4nv)", q.cpu().float(), terms[2])]


def check_ops_reduce(ctx):
    bm, bn = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"]
    x = ctx.uniform(bm, bn, lo=0.5, hi=1.5)
    iv = ctx.randint(bm, bn, lo=-2 ** 31, hi=2 ** 31)
    y = ctx.out(bm, bn, dtype=ctx.dtype("y_ptr"))
    i_dev = ctx.dev(iv)
    ctx.launch((1,), ctx.dev(x), i_dev, y)
    x64 = x.double()
    row_sum, row_max, row_min = x64.sum(1), x64.amax(1), x64.amin(1)
    c = (x64.argmax(1) + x64.argmin(1)).double()
    s = x64.sum() + x64.max() + row_sum
    first = row_sum + row_max + row_min + c + row_max + x64.argmax(1).double() + s
    second = torch.cumsum(x64, 1) + torch.flip(torch.cumprod(torch.flip(x64, [1]), 1), [1]) + x64.sum(0)
    iv64 = iv.to(torch.int64)
    xor, orr = iv64[0].clone(), iv64[0].clone()
    for r in range(1, bm):
        xor, orr = xor ^ iv64[r], orr | iv64[r]
    low8 = iv64 & 0xFF
    e = xor + orr + torch.where(low8 >= 128, low8 - 256, low8).sum(0)
    e = torch.tensor([wrap32(v) for v in e.tolist()], dtype=torch.float64)
    i_ref = iv.double().flatten()
    i_ref[:bn] = e
    # y[0:BLOCK_M] is written by both stores: on a GPU, either one may land last
    return [compare_either("y[:BLOCK_M]", y.flatten()[:bm], first, second.flatten()[:bm],
                           *tolerance(torch.float32)),
            compare("y", y.flatten()[bm:], second.flatten()[bm:], *tolerance(torch.float32)),
            compare_exact("i", i_dev, i_ref.view(bm, bn))]


def check_ops_combine(ctx):
    bm, bn = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"]
    x = ctx.uniform(bm, bn, lo=-1.0, hi=1.0)
    y = ctx.out(bm, bn, dtype=ctx.dtype("y_ptr"))
    z = ctx.out(1, dtype=ctx.dtype("z_ptr"))
    ctx.launch((1,), ctx.dev(x), y, z)
    x64 = x.double()
    rev_cumsum = torch.flip(torch.cumsum(torch.flip(x64, [1]), 1), [1])
    cummax0 = torch.cummax(x64, 0).values
    return [compare("y", y, rev_cumsum + cummax0 - x64.amax(1, keepdim=True), *tolerance(torch.float32)),
            compare("z", z, x64.sum().reshape(1), *tolerance(torch.float32))]


def bitonic_merge_ref(x):
    """The merge network of tl.bitonic_merge along the last dimension, ascending: half-cleaners
    at distances n/2, ..., 1 (exact for any input, bitonic or not)."""
    y = x.clone()
    n = y.shape[-1]
    d = n // 2
    while d >= 1:
        idx = torch.arange(n)
        left = idx[(idx & d) == 0]
        a, b = y[..., left], y[..., left + d]
        y[..., left], y[..., left + d] = torch.minimum(a, b), torch.maximum(a, b)
        d //= 2
    return y


def check_ops_sort(ctx):
    bm, bn, k = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"], ctx.const["K"]
    dt = ctx.dtype("x_ptr")
    x = ctx.randn(bm, bn, dtype=dt)
    iv = ctx.randint(bm, bn, lo=-1000, hi=1000)
    y = ctx.out(4 * bm * bn + bm * k, dtype=dt)
    j = ctx.out(bm, bn, dtype=torch.int32)
    ctx.launch((1,), ctx.dev(x), ctx.dev(iv), y, j)
    xf = x.float()
    want = torch.cat([torch.sort(xf, 1).values.flatten(), torch.sort(xf, 1, descending=True).values.flatten(),
                      torch.flip(xf, [0]).flatten(), bitonic_merge_ref(xf).flatten(),
                      torch.topk(xf, k, 1).values.flatten()])
    return [compare_exact("y", y, want.to(dt)),
            compare_exact("j", j, torch.sort(iv, 1).values + torch.flip(iv, [1]))]


def check_ops_block_ptr(ctx):
    m, n, k = ctx.problem["M"], ctx.problem["N"], ctx.problem["K"]
    bm, bn = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"]
    a = ctx.randn(m, k, dtype=torch.float16)
    b = ctx.randn(k, n, dtype=torch.float16)
    c = ctx.out(m, n, dtype=torch.float16)
    ctx.launch((cdiv(m, bm), cdiv(n, bn)), ctx.dev(a), ctx.dev(b), c, m, n, k, k, 1, n, 1, n, 1)
    ref = (a.double() @ b.double()).to(torch.float16)
    return [compare("c", c, ref, 1e-2, 1e-2)]


def check_ops_block_ptr_desc(ctx):
    m, n, k = ctx.problem["M"], ctx.problem["N"], ctx.problem["K"]
    bm, bn = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"]
    # descriptors made in the kernel live in global scratch, which Triton asks the allocator for
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=ctx.device, dtype=torch.int8))
    a = ctx.randn(m, k, dtype=torch.float16)
    b = ctx.randn(k, n, dtype=torch.float16)
    c = ctx.out(m, n, dtype=torch.float16)
    ctx.launch((cdiv(m, bm), cdiv(n, bn)), ctx.dev(a), ctx.dev(b), c, m, n, k, k, 1, n, 1, n, 1)
    ref = (a.double() @ b.double()).to(torch.float16)
    return [compare("c", c, ref, 1e-2, 1e-2)]


def check_ops_tensor_desc(ctx):
    m, n = ctx.problem["M"], ctx.problem["N"]
    bm, bn = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"]
    # descriptors made in the kernel live in global scratch, which Triton asks the allocator for
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=ctx.device, dtype=torch.int8))
    a = ctx.randn(m, n, dtype=torch.float16)
    c = ctx.out(m, n, dtype=torch.float16)
    ctx.launch((cdiv(m, bm), cdiv(n, bn)), ctx.dev(a), c, m, n, n, n)
    return [compare_exact("c", c, a * 2)]


def check_ops_desc_atomic(ctx):
    m, n = ctx.problem["M"], ctx.problem["N"]
    bm, bn = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"]
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=ctx.device, dtype=torch.int8))
    a0 = ctx.randn(m, n)
    i0 = ctx.randint(m, n, lo=-30, hi=30)
    a, iv = ctx.dev(a0.clone()), ctx.dev(i0.clone())
    ctx.launch((cdiv(m, bm), cdiv(n, bn)), a, iv, m, n, n)
    rows = (torch.arange(m) % bm)[:, None]
    cols = (torch.arange(n) % bn)[None, :]
    k = rows * 3 - cols
    want_i = torch.minimum(torch.maximum(i0.long(), k), k + 40) ^ (k & 7)
    return [compare("a", a.cpu(), a0.double() + k.double() * 0.5, *tolerance(torch.float32)),
            compare_exact("i", iv.cpu(), want_i.to(torch.int32))]


def check_ops_extras(ctx):
    bm, bn, group = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"], ctx.const["GROUP"]
    x = ctx.randn(bm, bn, scale=2.0)
    y = ctx.out(bm * bn + bn, dtype=torch.float32)
    r = ctx.out(bm, bn, dtype=torch.float32)
    i = ctx.out(bm, bn, dtype=torch.int32)
    seed = 1234
    ctx.launch((1,), ctx.dev(x), y, r, i, seed)
    x64 = x.double()
    want_y = torch.cat([torch.softmax(x64, 1).flatten(), torch.softmax(x64[0], 0)])
    # swizzle2d, as standard.py computes it
    ii, jj = torch.meshgrid(torch.arange(bm), torch.arange(bn), indexing="ij")
    ij = ii * bn + jj
    size_gj = group * bn
    off_i = (ij // size_gj) * group
    size_g = torch.clamp(bm - off_i, max=group)
    ij = ij % size_gj
    want_i = (off_i + ij % size_g) * bn + ij // size_g
    # the four Philox streams at offsets 0..BM*BN-1, their uniforms, Box-Muller pairs
    offs = torch.arange(bm * bn, dtype=torch.int64).view(bm, bn)
    u = [uint_to_uniform(c).double() for c in philox4x32(seed, offs)]
    def pair(u1, u2):
        u1 = torch.clamp(u1, min=1.0e-7)
        rad = torch.sqrt(-2.0 * torch.log(u1))
        th = 6.283185307179586 * u2
        return rad * torch.cos(th), rad * torch.sin(th)
    n1, n2 = pair(u[0], u[1])
    n3, n4 = pair(u[2], u[3])
    v = uint_to_uniform(philox4x32(seed, offs, rounds=7)[0]).double()   # tl.rand(..., n_rounds=7)
    want_r = u[0] + u[1] + u[2] + u[3] + n1 + n2 + n3 + n4 + u[0] + n1 + n2 + v
    return [compare("y", y, want_y, 1e-7, 1e-5), compare_exact("i", i, want_i),
            compare("r", r, want_r, 1e-4, 1e-4)]


def check_ops_inline_asm(ctx):
    block = ctx.const["BLOCK"]
    x = ctx.randint(block, lo=-2 ** 31, hi=2 ** 31)
    a = ctx.randint(block, lo=0, hi=256, dtype=torch.uint8)
    b = ctx.randn(block, scale=100.0)
    y = ctx.out(block, dtype=torch.int32)
    c = ctx.out(block, dtype=torch.int32)
    d = ctx.out(block, dtype=torch.float32)
    ctx.launch((1,), ctx.dev(x), y, ctx.dev(a), ctx.dev(b), c, d)
    u = x.to(torch.int64) & 0xFFFFFFFF
    rot = ((u << 3) | (u >> 29)) & 0xFFFFFFFF
    want_y = torch.where(rot >= 2 ** 31, rot - 2 ** 32, rot)
    return [compare_exact("y", y, want_y), compare_exact("c", c, a.to(torch.int32)),
            compare_exact("d", d, torch.maximum(a.float(), b))]


def check_ops_host_desc(ctx):
    from triton.tools.tensor_descriptor import TensorDescriptor
    m, n = ctx.problem["M"], ctx.problem["N"]
    bm, bn = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"]
    a = ctx.randn(m, n)
    c = ctx.out(m, n, dtype=torch.float32)
    a_desc = TensorDescriptor.from_tensor(ctx.dev(a), [bm, bn])
    c_desc = TensorDescriptor.from_tensor(c, [bm, bn])
    ctx.launch((cdiv(m, bm), cdiv(n, bn)), a_desc, c_desc)
    return [compare_exact("c", c, a + 1)]


def check_ops_persistent_tma(ctx):
    m, n, k = ctx.problem["M"], ctx.problem["N"], ctx.problem["K"]
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=ctx.device, dtype=torch.int8))
    a = ctx.randn(m, k, dtype=torch.float16)
    b = ctx.randn(n, k, dtype=torch.float16)
    c = ctx.out(m, n, dtype=torch.float16)
    ctx.launch((ctx.const["NUM_SMS"],), ctx.dev(a), ctx.dev(b), c, m, n, k)
    return [compare("c", c, a.double() @ b.double().T, *tolerance(torch.float16))]


def check_ops_shape(ctx):
    block = ctx.const["BLOCK"]
    x = ctx.randn(block)
    y = ctx.out(block, dtype=ctx.dtype("y_ptr"))
    ctx.launch((1,), ctx.dev(x), y)
    x64 = x.double()
    total = x64.sum()
    gathered = x64[torch.arange(block) % 7]
    ref = 8 * x64 + 6 * total + 3 + gathered + block      # sum of the histogram is BLOCK
    return [compare("y", y, ref, 1e-4, 1e-5)]


def check_ops_memory(ctx):
    block = ctx.const["BLOCK"]
    n = block - block // 4
    x = ctx.randn(block)
    y0 = ctx.randn(block)
    iv = ctx.randint(block, lo=-1000, hi=1000)
    iv[0] = 0                                                 # so that the compare-and-swap swaps
    flags = ctx.uniform(block) < 0.5
    y, i, b = ctx.dev(y0), ctx.dev(iv), ctx.dev(flags)
    ctx.launch((1,), ctx.dev(x), y, i, b, n)
    # y[:n] = min(max(y + x, x), x) = x, whatever the first store left
    y_ref = torch.cat([x[:n], y0[n:]])
    b_ref = torch.cat([x[:n] > 0, flags[n:]])
    i_ref = iv.clone().to(torch.int64)
    i_ref[0] = 1
    i_ref[1] = wrap32(i.data_ptr() + 12)                     # (i_ptr + 3) as an int32
    return [compare_exact("y", y, y_ref.double()),
            check_true("b", torch.equal(b.cpu(), b_ref)),
            compare_exact("i", i, i_ref.double())]


def check_ops_dot(ctx):
    m, n, k = ctx.const["M"], ctx.const["N"], ctx.const["K"]
    a = ctx.randn(m, k, scale=0.5, dtype=ctx.dtype("a_ptr"))
    b = ctx.randn(k, n, scale=0.5, dtype=ctx.dtype("b_ptr"))
    f = ctx.randn(max(m * k, k * n), scale=0.5, dtype=ctx.dtype("f_ptr"))
    c = ctx.out(m, n, dtype=ctx.dtype("c_ptr"))
    ctx.launch((1,), ctx.dev(a), ctx.dev(b), c, ctx.dev(f))
    ab = a.double() @ b.double()
    fab = f[:m * k].double().view(m, k) @ f[:k * n].double().view(k, n)
    ref = ab + ab.half().double() + 3 * fab + ab
    # one dot accumulates in fp16, one rounds its inputs to tf32 (the default precision)
    return [compare("c", c, ref, 2e-2, 1e-2)]


def check_ops_random(ctx):
    block, n = ctx.const["BLOCK"], 3 * ctx.const["BLOCK"] + 21
    seed = 1234
    outs = []
    for s in (seed, seed, seed + 1):
        y = ctx.out(n, dtype=ctx.dtype("y_ptr"))
        ctx.launch((cdiv(n, block),), y, s, n)
        outs.append(y.cpu())
    y = outs[0]
    c0, c1, c2, c3 = philox4x32(seed, torch.arange(n))
    u1, u2 = uint_to_uniform(c0), uint_to_uniform(c1)
    normal = torch.sqrt(-2 * torch.log(u1.double().clamp_min(1e-7))) * torch.cos(2 * math.pi * u2.double())
    ref = u1 + normal.float()                                 # float32 sums, in the kernel's order
    ref = ref + c0.to(torch.float32)
    ref = ref + (c0 ^ c1 ^ c2 ^ c3).to(torch.float32)
    ref = ref + philox_rand(123, torch.arange(n))
    return [compare("y vs Philox", y, ref.double(), 1e-5, 1e-6),
            check_true("range", bool(((y > -8) & (y < 2.0 ** 33 + 8)).all())),
            check_true("same seed, same output", torch.equal(outs[0], outs[1])),
            check_true("other seed, other output", not torch.equal(outs[0], outs[2]))]


def check_ops_map_elementwise(ctx):
    block = ctx.const["BLOCK"]
    x = ctx.randn(block)
    y = ctx.randn(block)
    s = ctx.out(block, dtype=ctx.dtype("s_ptr"))
    p = ctx.out(block, dtype=ctx.dtype("p_ptr"))
    alpha = 1.5
    ctx.launch((1,), ctx.dev(x), ctx.dev(y), s, p, alpha)
    x64, y64 = x.double(), y.double()
    selu = torch.where(x64 > 0, x64, alpha * (torch.exp(x64) - 1))
    # pair_scalar with pack=2: (|x0 - y0|, x1 + y1) and (x0 * y0, x1 * y1) per pair of elements
    first = torch.empty_like(x64)
    first[0::2] = (x64[0::2] - y64[0::2]).abs()
    first[1::2] = x64[1::2] + y64[1::2]
    second = x64 * y64
    return [compare("s (selu)", s, selu, *tolerance(torch.float32)),
            compare("p", p, first * second, *tolerance(torch.float32))]


def check_jit_helpers(ctx):
    block, alpha = ctx.const["BLOCK"], ctx.const["ALPHA"]
    x = ctx.randn(block)
    y = ctx.out(block, dtype=ctx.dtype("y_ptr"))
    ctx.launch((1,), ctx.dev(x), y)
    x64 = x.double()
    v = x64 * alpha + 1.0
    if ctx.const["USE_SHIFT"]:
        v = v * 2 + x64
    a, b = v + 1, v * 2
    if ctx.const["NAME"] == "double":
        a = a * 2
    dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[str(ctx.const["DTYPE"])]
    return [compare("y", y, (a + b + cdiv(block, 16)).to(dt).double(), *tolerance(dt))]


def check_jit_cx_args(ctx):
    block = ctx.const["BLOCK"]
    x = ctx.randn(block)
    y = ctx.out(block, dtype=ctx.dtype("y_ptr"))
    z = ctx.out(block, dtype=ctx.dtype("z_ptr"))
    ctx.launch((1,), ctx.dev(x), y, z)
    x64 = x.double()
    return [compare("y", y, (x64 * 2).to(torch.float16).double(), *tolerance(torch.float16)),
            compare("z", z, x64.to(torch.bfloat16).double(), *tolerance(torch.bfloat16))]


# Conformance kernels for what real kernels do (tests/conformance/porting.py)


def check_port_many_params(ctx):
    block, n, k_iters = ctx.const["BLOCK"], 150, 5
    programs = cdiv(n, block)
    strides = [1 + i % 3 for i in range(10)]
    xs = [ctx.randn(n * strides[i] + k_iters) for i in range(10)]
    ws = [0.25 * (i + 1) for i in range(10)]
    ys = [ctx.out(programs * block, dtype=torch.float32) for _ in range(10)]
    ctx.launch((programs,), *[ctx.dev(x) for x in xs], *strides, *ws, *ys, n, k_iters)
    checks = []
    offs = torch.arange(n)
    for i in range(10):
        ref = sum(xs[i][offs * strides[i] + k].double() * ws[i] for k in range(k_iters))
        checks.append(compare("y%d" % i, ys[i][:n], ref, *tolerance(torch.float32)))
    return checks


def check_port_none_args(ctx):
    block, n = ctx.const["BLOCK"], 300
    programs = cdiv(n, block)
    x = ctx.randn(n)
    y = ctx.out(programs * block, dtype=torch.float32)
    if ctx.types["scale_ptr"] == "None":
        ctx.launch((programs,), ctx.dev(x), None, None, y, n)
        ref = x.double() * 2.0
    else:
        scale = ctx.randn(1)
        idx = ctx.randint(n, lo=0, hi=n)
        ctx.launch((programs,), ctx.dev(x), ctx.dev(scale), ctx.dev(idx), y, n)
        ref = x[idx.long()].double() * scale.double()
    return [compare("y", y[:n], ref, *tolerance(torch.float32))]


def check_port_raw_forms(ctx):
    block, n, programs = ctx.const["BLOCK"], 300, 4
    x = ctx.randn(n)
    y = ctx.out(programs * block, dtype=torch.float32)
    ctx.launch((programs,), ctx.dev(x), y, n)
    xp = torch.zeros(cdiv(n, block) * block, dtype=torch.float64)
    xp[:n] = x.double()
    acc = xp.view(-1, block).sum(0)
    ref = torch.cat([acc * 0.5 ** (pid % 3 + 1) + 3.0 + block // 32 for pid in range(programs)])
    return [compare("y", y, ref, *tolerance(torch.float32))]


def check_port_cx_defaults(ctx):
    block = ctx.const.get("BLOCK", 64)                 # the configs leave out what has a default
    n = 2 * block + 7
    programs = cdiv(n, block)
    x = ctx.randn(n)
    y = ctx.out(programs * block, dtype=ctx.dtype("y_ptr"))
    ctx.launch((programs,), ctx.dev(x), y, n)
    ref = x.double() * ctx.const.get("SCALE", 0.5)
    if ctx.const.get("ACT", "relu") == "relu":
        ref = ref.clamp(min=0.0)
    if ctx.const.get("BACKWARD", False):
        ref = -ref
    ref = ref.to(ctx.dtype("y_ptr")).double()
    return [compare("y", y[:n], ref, *tolerance(ctx.dtype("y_ptr")))]

def check_port_dtype_dispatch(ctx):
    block, n = ctx.const["BLOCK"], 50
    xdt, ydt = ctx.dtype("x_ptr"), ctx.dtype("y_ptr")
    x = ctx.randn(n).to(xdt)
    y = ctx.out(block, dtype=ydt)
    ctx.launch((1,), ctx.dev(x), y, n)
    if xdt in (torch.float8_e4m3fn, torch.float8_e5m2):
        ref = x.float() * 0.5
    elif xdt == torch.bfloat16:
        ref = x.float() * 2.0
    else:
        ref = x.float() * 1.5
    ref = ref.to(ydt).double()
    return [compare("y", y[:n], ref, *tolerance(ydt))]

def check_port_while_exit(ctx):
    rows, n, thresh = ctx.problem["ROWS"], ctx.problem["N"], 0.995
    x = ctx.uniform(rows, n)
    x[3::4] *= thresh                                   # rows searched to the end: -1
    out = ctx.out(rows, dtype=torch.int32)
    ctx.launch((rows,), ctx.dev(x), out, n, thresh)
    hit = x > torch.tensor(thresh, dtype=torch.float32)
    ref = torch.where(hit.any(dim=1), hit.int().argmax(dim=1), torch.full((rows,), -1))
    return [compare_exact("out", out, ref.double())]


def check_port_spin_wait(ctx):
    block, tiles = ctx.const["BLOCK"], ctx.problem["TILES"]
    x = ctx.randint(tiles * block, lo=-100, hi=101)
    y = ctx.out(tiles * block, dtype=torch.int32)
    zeros = [ctx.dev(torch.zeros(k, dtype=torch.int32)) for k in (tiles, tiles, 1, 1, 1)]
    sums, flags, counter, lock, total = zeros
    ctx.launch((tiles,), ctx.dev(x), y, sums, flags, counter, lock, total)
    ref = torch.cumsum(x.long(), dim=0).double()
    return [compare_exact("y", y, ref), compare_exact("sums", sums, ref[block - 1::block]),
            compare_exact("flags", flags, torch.ones(tiles, dtype=torch.float64)),
            compare_exact("counter", counter, torch.tensor([float(tiles)])),
            compare_exact("lock", lock, torch.tensor([0.0])),
            compare_exact("total", total, ref[-1:])]


def check_port_block_ptr_pad(ctx):
    m, n = ctx.problem["M"], ctx.problem["N"]
    bm, bn = ctx.const["BLOCK_M"], ctx.const["BLOCK_N"]
    xdt = ctx.dtype("x_ptr")
    x = ctx.uniform(m, n, lo=-1.0, hi=1.0, dtype=xdt)
    sums = ctx.out(m, dtype=torch.float32)
    nans = ctx.out(m, dtype=torch.int32)
    ctx.launch((cdiv(m, bm),), ctx.dev(x), sums, nans, m, n, n, 1)
    # fp16 rows are summed in fp16, a block at a time
    atol, rtol = (0.1, 1e-2) if xdt == torch.float16 else (1e-4, 1e-5)
    return [compare("sum", sums, x.double().sum(dim=1), atol, rtol),
            compare_exact("nan", nans, torch.full((m,), float(cdiv(n, bn) * bn - n), dtype=torch.float64))]


def check_port_block_ptr_pad_desc(ctx):
    # descriptors made in the kernel live in global scratch, which Triton asks the allocator for
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=ctx.device, dtype=torch.int8))
    return check_port_block_ptr_pad(ctx)


def check_port_ptr_tuple(ctx):
    n, block = ctx.problem["N"], ctx.const["BLOCK"]
    xs = [ctx.uniform(n, lo=-1.0, hi=1.0, dtype=ctx.dtype("x%d_ptr" % i)) for i in range(3)]
    y = ctx.out(n, dtype=torch.float32)
    ctx.launch((cdiv(n, block),), *[ctx.dev(x) for x in xs], y, n)
    # products by powers of 2, then f32 adds in the kernel's order: exact
    ref = torch.zeros(n, dtype=torch.float32)
    for x, w in zip(xs, (0.5, 2.0, -1.0)):
        ref = ref + x.float() * w
    return [compare_exact("y", y, ref.double())]


def check_library(ctx):
    """The kernels of scripts/gpu/library_refs.py: its inputs and float64 PyTorch references."""
    sys.path.insert(0, os.path.join(ROOT, "scripts", "gpu"))
    import library_refs
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=ctx.device, dtype=torch.int8))
    run = library_refs.build(ctx.entry, None, ctx.gen, ctx.device)
    ctx.launch(run.grid, *run.args)
    return [compare(name, got, want, atol, rtol) for name, got, want, atol, rtol in run.reference(run.args)]


CHECKS = {
    "add_kernel": check_add,
    "softmax_kernel": check_softmax,
    "softmax_persistent_kernel": check_softmax_persistent,
    "layer_norm_fwd_kernel": check_layer_norm,
    "rms_norm_fwd_kernel": check_rms_norm,
    "dropout_kernel": check_dropout,
    "swiglu_kernel": check_swiglu,
    "geglu_kernel": check_geglu,
    "asin_kernel": check_asin,
    "per_token_group_quant_fp8_kernel": check_quant_fp8,
    "rope_kernel": check_rope,
    "matmul_kernel": check_matmul,
    "matmul_tma_kernel": check_matmul_tma,
    "cummax_kernel": check_cummax,
    "cf_if_else": check_cf_if_else,
    "cf_while": check_cf_while,
    "cf_early_return": check_cf_early_return,
    "cf_ternary_nested": check_cf_ternary_nested,
    "ops_int": check_ops_int,
    "ops_float": check_ops_float,
    "ops_cast": check_ops_cast,
    "ops_reduce": check_ops_reduce,
    "ops_combine": check_ops_combine,
    "ops_map_elementwise": check_ops_map_elementwise,
    "ops_desc_atomic": check_ops_desc_atomic,
    "ops_sort": check_ops_sort,
    "ops_block_ptr": check_ops_block_ptr,
    "ops_block_ptr_desc": check_ops_block_ptr_desc,
    "ops_tensor_desc": check_ops_tensor_desc,
    "ops_extras": check_ops_extras,
    "ops_inline_asm": check_ops_inline_asm,
    "ops_host_desc": check_ops_host_desc,
    "ops_persistent_tma": check_ops_persistent_tma,
    "ops_shape": check_ops_shape,
    "ops_memory": check_ops_memory,
    "ops_dot": check_ops_dot,
    "ops_random": check_ops_random,
    "jit_helpers": check_jit_helpers,
    "jit_cx_args": check_jit_cx_args,
    "port_many_params": check_port_many_params,
    "port_none_args": check_port_none_args,
    "port_cx_defaults": check_port_cx_defaults,
    "port_dtype_dispatch": check_port_dtype_dispatch,
    "port_while_exit": check_port_while_exit,
    "port_spin_wait": check_port_spin_wait,
    "port_block_ptr_pad": check_port_block_ptr_pad,
    "port_block_ptr_pad_desc": check_port_block_ptr_pad_desc,
    "port_ptr_tuple": check_port_ptr_tuple,
    "port_raw_forms": check_port_raw_forms,
    "cross_entropy_fwd_bwd_kernel": check_library,
    "layer_norm_bwd_dx_kernel": check_library,
    "rms_norm_bwd_dx_kernel": check_library,
    "norm_bwd_dwdb_kernel": check_library,
    "topk_kernel": check_library,
    "flash_attn_fwd_kernel": check_library,
    "flash_attn_bwd_preprocess_kernel": check_library,
    "flash_attn_bwd_dkdv_kernel": check_library,
    "flash_attn_bwd_dq_kernel": check_library,
    "radix_histogram_kernel": check_library,
    "radix_sort_pass_kernel": check_library,
    "moe_align_block_size_kernel": check_library,
    "fused_moe_kernel": check_library,
    "decode_attn_paged_splitk_kernel": check_library,
    "decode_attn_reduce_kernel": check_library,
}


# ---------------------------------------------------------------------------
# Interpreter-only: libdevice through numpy (--interp-libdevice-shim)


def install_libdevice_shim():
    """Under the interpreter, make libdevice.asin/tanh/pow compute with numpy."""
    import numpy as np
    from triton.language.extra import libdevice
    from triton.runtime.interpreter import TensorHandle

    def shim(np_fn):
        def fn(x, *rest):
            args = [r.handle.data if hasattr(r, "handle") else r for r in (x,) + rest]
            data = np_fn(*args).astype(x.handle.data.dtype)
            return tl.core.tensor(TensorHandle(data, x.handle.dtype.scalar), x.type)
        return fn

    libdevice.asin = shim(np.arcsin)
    libdevice.tanh = shim(np.tanh)
    libdevice.pow = shim(np.power)


# ---------------------------------------------------------------------------
# Driver


def run_one(entry, device, shim):
    """Result dict of one kernel/config."""
    name = entry["kernel"]
    result = {"kernel": name, "config": entry["config"], "py": entry["py"],
              "conformance": entry.get("conformance", False), "status": None,
              "max_abs": None, "max_rel": None, "checks": [], "note": ""}
    if name not in CHECKS:
        result.update(status="NOREF", note="no reference written for this kernel")
        return result
    skip = interpreter_skip(entry, shim) if INTERPRETED else None
    if skip:
        result.update(status="SKIP", note="interpreter: " + skip)
        return result
    if INTERPRETED and shim and name in INTERP_LIBDEVICE:
        result["note"] = "interpreter: libdevice through numpy"
    start = time.time()
    try:
        fn = load_kernel(entry["py"], name)
        ctx = Ctx(entry, fn, device)
        checks = CHECKS[name](ctx)
        checks.append(ctx.guard_check())
    except Exception as exc:  # a crash is a failure of this config, not of the run
        result.update(status="FAIL", note=f"{type(exc).__name__}: {exc}".strip()[:2000],
                      traceback=traceback.format_exc()[-4000:], seconds=round(time.time() - start, 3))
        return result
    result["seconds"] = round(time.time() - start, 3)
    result["checks"] = [c.as_dict() for c in checks]
    abs_errs = [c.max_abs for c in checks if c.max_abs is not None]
    rel_errs = [c.max_rel for c in checks if c.max_rel is not None]
    result["max_abs"] = json_number(max(abs_errs, key=nan_last)) if abs_errs else None
    result["max_rel"] = json_number(max(rel_errs, key=nan_last)) if rel_errs else None
    result["status"] = "PASS" if all(c.ok for c in checks) else "FAIL"
    if result["status"] == "FAIL":
        failed = [f"{c.name} ({c.detail})" if c.detail else c.name for c in checks if not c.ok]
        result["note"] = "; ".join(filter(None, [result["note"], "failed: " + "; ".join(failed)]))
    return result


def nan_last(v):
    """Sort key that makes NaN the largest error."""
    return math.inf if math.isnan(v) else v


def format_line(r, width):
    label = f"{r['kernel']}/{r['config']}".ljust(width)
    if r["status"] in ("PASS", "FAIL") and "seconds" in r:
        errs = f"max_abs={fmt(r['max_abs'])} max_rel={fmt(r['max_rel'])}  ({r['seconds']:.2f} s)"
    else:
        errs = ""
    note = f"  {r['note']}" if r["note"] else ""
    if r["status"] == "SKIP":
        return f"SKIP {label} ({r['note']})"
    return f"{r['status']} {label} {errs}{note}".rstrip()


def fmt(v):
    return "-" if v is None else v if isinstance(v, str) else f"{v:.3g}"


def main():
    global triton, tl, INTERPRETED
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                    help="cuda: compile and run on the GPU; cpu: Triton's interpreter (TRITON_INTERPRET=1)")
    ap.add_argument("--json", help="write all results to this file")
    ap.add_argument("--list-json", help="a saved `ctriton list --json --all` output, instead of running ctriton")
    ap.add_argument("--ctriton", default=os.path.join(ROOT, "build", "ctriton"), help="the ctriton binary")
    ap.add_argument("--kernel", action="append", help="only this kernel (repeatable)")
    ap.add_argument("--record", metavar="DIR",
                    help="keep each config's first launch (inputs, outputs) under DIR for the "
                         "emulator's differential tests (on the GPU; under the interpreter only to try it)")
    ap.add_argument("--interp-libdevice-shim", action="store_true",
                    help="interpreter only: run libdevice calls through numpy instead of skipping")
    args = ap.parse_args()
    global RECORD
    RECORD = args.record

    if args.device == "cpu" and os.environ.get("TRITON_INTERPRET", "0") in ("", "0"):
        os.environ["TRITON_INTERPRET"] = "1"
    import triton as triton_module
    import triton.language as tl_module
    triton, tl = triton_module, tl_module
    INTERPRETED = os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")
    if args.device == "cuda" and not torch.cuda.is_available():
        sys.exit("error: --device cuda but torch sees no GPU (use --device cpu for the interpreter)")
    if args.interp_libdevice_shim and INTERPRETED:
        install_libdevice_shim()
    if INTERPRETED:
        import numpy
        if tuple(int(v) for v in numpy.__version__.split(".")[:2]) >= (2, 4):
            print(f"warning: numpy {numpy.__version__}: Triton 3.6's interpreter fails on loops with "
                  "runtime bounds under numpy >= 2.4 (int() of a 1-element array); use numpy < 2.4")

    entries, source = load_list(args)
    if args.kernel:
        entries = [e for e in entries if e["kernel"] in args.kernel]
    gpu = torch.cuda.get_device_name() if args.device == "cuda" else None
    print(f"# {len(entries)} configs from {source}; device {gpu or args.device}"
          f"{' (interpreter)' if INTERPRETED else ''}; triton {triton.__version__}, torch {torch.__version__}")

    width = max([len(e["kernel"]) + len(e["config"]) + 1 for e in entries] + [10])
    results = []
    for entry in entries:
        r = run_one(entry, args.device, args.interp_libdevice_shim)
        results.append(r)
        print(format_line(r, width), flush=True)

    if RECORD:
        with open(os.path.join(RECORD, "record.log"), "w") as f:
            f.write("\n".join(RECORD_LOG) + "\n")
        print(f"# recorded {sum('recorded,' in l for l in RECORD_LOG)} runs under {RECORD}")
    counts = {s: sum(r["status"] == s for r in results) for s in ("PASS", "FAIL", "SKIP", "NOREF")}
    kernels = sorted({r["kernel"] for r in results})
    print(f"# {counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped, "
          f"{counts['NOREF']} without reference; {len(results)} configs of {len(kernels)} kernels")
    if args.json:
        report = {"device": args.device, "gpu": gpu, "interpreter": INTERPRETED, "list": source,
                  "triton": triton.__version__, "torch": torch.__version__,
                  "python": sys.version.split()[0], "summary": counts, "results": results}
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 1 if counts["FAIL"] or counts["NOREF"] else 0


if __name__ == "__main__":
    sys.exit(main())
