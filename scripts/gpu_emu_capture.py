#!/usr/bin/env python3
"""Captures what the GPU computes, for the emulator's differential tests and benchmark.

Run once on the GPU machine (Python 3.12, torch, Triton 3.6.0, CUDA; no network),
from the repository root:

    python scripts/gpu_emu_capture.py --out $OUT

It writes two files under $OUT:

    emu_capture.tar.gz   the golden files, laid out as in the repository:
        tests/golden/<kernel>/<config>/emu/case.txt     the case, with the GPU's versions
        tests/golden/<kernel>/<config>/emu/gpu_<arg>.bin the GPU's output bytes
        tests/golden/emu_probes/probes.txt, *.bin       single-op probes (exp, div, sin, ...)
        bench/emu_capture_bench.md                      TRITON_INTERPRET=1 and emulator timings
    emu_capture.log      what happened, one line per kernel/config/probe/benchmark

Back on the development machine:

    tar -xzf emu_capture.tar.gz            # from the repository root
    make unit                              # test_emu_golden now compares instead of skipping

What it does:
 1. builds the CLI and bench_emu (cmake, tests off) into build-gpu/ unless --ctriton is given;
 2. for every library kernel and config (`ctriton list --json`), asks the CLI for the
    case (`ctriton run K --config C --emu --dump-case DIR`: the C reference's seeded
    inputs, the arguments, the grid), launches the Python original (kernels/py) on
    exactly those inputs with the config's constexprs, num_warps and num_stages,
    and keeps the outputs' bytes (outputs start filled with the emulator's poison
    bytes, so unwritten elements compare too); outputs above 256 KiB keep their
    first and last 128 KiB;
 3. runs single-op probes (tl.exp, x / y, tl.sin, casts to fp8, ...) on 8192 fixed
    inputs, to measure the emulator's ulp bounds and confirm its bit-exact ports;
 4. times softmax 1024 x 1000 fp32, layer norm 1151 x 8192 fp16 and matmul 512^3 fp16
    under TRITON_INTERPRET=1 (in a subprocess), and runs build-gpu/bench_emu on the
    same CPU, for bench/RESULTS.md.
Nothing is sent anywhere; a failure of one kernel is logged and the rest goes on.
"""
import argparse
import datetime
import importlib.util
import io
import json
import os
import platform
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FULL = 256 * 1024      # outputs up to this size are kept whole
HEAD_TAIL = 128 * 1024     # larger ones: this many bytes from each end
PROBE_N = 8192

LOG = []


def log(msg):
    line = f"[{datetime.datetime.now().strftime('%H:%M:%S')}] {msg}"
    print(line, flush=True)
    LOG.append(line)


# ---------------------------------------------------------------------------
# dtypes: the emulator's names (ct_emu_dtype_name) <-> torch


def torch_dtype(name):
    import torch
    return {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16,
            "fp64": torch.float64, "fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2,
            "i1": torch.bool, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32,
            "i64": torch.int64, "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32,
            "u64": torch.uint64, "bytes": torch.uint8}[name]


def itemsize(name):
    return {"fp32": 4, "fp16": 2, "bf16": 2, "fp64": 8, "fp8e4nv": 1, "fp8e5": 1, "i1": 1,
            "i8": 1, "i16": 2, "i32": 4, "i64": 8, "u8": 1, "u16": 2, "u32": 4, "u64": 8,
            "bytes": 1}[name]


def poison_byte(name):
    """ct_emu_poison_byte: NaN in every float format, 0xa5 for integers."""
    return 0xFF if name.startswith("fp") or name == "bf16" else 0xA5


def tensor_from_bytes(data, dtype_name, device):
    import torch
    raw = torch.frombuffer(bytearray(data), dtype=torch.uint8)
    return raw.view(torch_dtype(dtype_name)).to(device)


def tensor_bytes(t):
    import torch
    return t.detach().contiguous().cpu().view(torch.uint8).numpy().tobytes()


# ---------------------------------------------------------------------------
# building and asking the CLI


def build(args):
    if args.ctriton:
        return args.ctriton, args.bench_emu
    bdir = os.path.join(ROOT, "build-gpu")
    log(f"building the CLI and bench_emu into {bdir}")
    subprocess.run(["cmake", "-S", ROOT, "-B", bdir, "-DCTRITON_TESTS=OFF",
                    "-DCMAKE_BUILD_TYPE=Release"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", bdir, "--target", "ctriton_cli", "bench_emu", "-j",
                    str(os.cpu_count() or 4)], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(bdir, "ctriton"), os.path.join(bdir, "bench_emu")


def kernel_list(ctriton):
    out = subprocess.run([ctriton, "list", "--json"], check=True, capture_output=True,
                         text=True, cwd=ROOT).stdout
    return json.loads(out)


def read_case(path):
    """case.txt -> dict: kernel, config, grid, num_warps, num_stages, args (in order)."""
    case = {"args": []}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if w[0] == "arg":
                a = {"name": w[1], "kind": w[2]}
                if w[2] == "int":
                    a["value"] = int(w[3])
                elif w[2] == "float":
                    a["value"] = float(w[3])
                else:
                    a.update(dtype=w[3], n=int(w[4]), access=w[5], fnv=w[6])
                case["args"].append(a)
            elif w[0] == "grid":
                case["grid"] = tuple(int(x) for x in w[1:4])
            elif w[0] in ("num_warps", "num_stages", "seed"):
                case[w[0]] = int(w[1])
            else:
                case[w[0]] = " ".join(w[1:])
    return case


# ---------------------------------------------------------------------------
# running a Python original on a case

_modules = {}


def load_kernel(py, name):
    if py not in _modules:
        modname = "ctriton_py_" + os.path.splitext(os.path.basename(py))[0]
        spec = importlib.util.spec_from_file_location(modname, os.path.join(ROOT, py))
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        spec.loader.exec_module(module)
        _modules[py] = module
    return getattr(_modules[py], name)


def parse_constexprs(text):
    import triton.language as tl
    dtypes = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64",
              "fp8e4nv": "float8e4nv", "fp8e5": "float8e5"}
    out = {}
    for word in (text or "").split():
        name, v = word.split("=", 1)
        if v[:1] in "'\"":
            out[name] = v[1:-1]
        elif v in ("True", "False"):
            out[name] = v == "True"
        elif v == "None":
            out[name] = None
        else:
            try:
                out[name] = int(v, 0)
            except ValueError:
                try:
                    out[name] = float(v)
                except ValueError:
                    out[name] = getattr(tl, dtypes.get(v, v))
    return out


def capture_case(entry, ctriton, staging, device):
    """Runs one kernel/config on the GPU; writes its golden folder into staging."""
    import torch
    import triton
    kname, cname = entry["kernel"], entry["config"]
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([ctriton, "run", kname, "--config", cname, "--emu", "--dump-case", tmp],
                           capture_output=True, text=True, cwd=ROOT)
        emu_line = (r.stdout.strip().splitlines() or [""])[-1]
        if not os.path.exists(os.path.join(tmp, "case.txt")):
            log(f"FAIL {kname}/{cname}: no case from ctriton: {r.stdout} {r.stderr}")
            return False
        case = read_case(os.path.join(tmp, "case.txt"))
        fn = load_kernel(entry["py"], kname)
        const = parse_constexprs(entry["constexprs"])
        values, outputs = {}, []
        for a in case["args"]:
            if a["kind"] in ("int", "float"):
                values[a["name"]] = a["value"]
                continue
            nbytes = a["n"] * itemsize(a["dtype"])
            if a["access"] == "out":
                data = bytes([poison_byte(a["dtype"])]) * nbytes
            else:
                with open(os.path.join(tmp, "in_" + a["name"] + ".bin"), "rb") as f:
                    data = f.read()
            t = tensor_from_bytes(data, a["dtype"], device)
            values[a["name"]] = t
            if a["access"] != "in":
                outputs.append((a, t))
        runtime = [n for n in fn.arg_names if n not in const]
        missing = [n for n in runtime if n not in values]
        if missing:
            log(f"FAIL {kname}/{cname}: the case has no value for {missing}")
            return False
        args = [values[n] for n in runtime]
        # kernels that make tensor descriptors need global memory from an allocator
        triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=device,
                                                                          dtype=torch.int8))
        fn[case["grid"]](*args, **const, num_warps=case["num_warps"],
                         num_stages=case["num_stages"])
        torch.cuda.synchronize()
        dest = os.path.join(staging, "tests", "golden", kname, cname, "emu")
        os.makedirs(dest, exist_ok=True)
        with open(os.path.join(tmp, "case.txt")) as f:
            text = f.read()
        lines = [text.rstrip("\n"),
                 f"captured {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}",
                 f"versions {versions()}"]
        same = 0
        for a, t in outputs:
            data = tensor_bytes(t)
            emu = open(os.path.join(tmp, "emu_" + a["name"] + ".bin"), "rb").read()
            same += data == emu
            if len(data) <= MAX_FULL:
                blob, head, tail = data, len(data), 0
            else:
                blob, head, tail = data[:HEAD_TAIL] + data[-HEAD_TAIL:], HEAD_TAIL, HEAD_TAIL
            fname = "gpu_" + a["name"] + ".bin"
            with open(os.path.join(dest, fname), "wb") as f:
                f.write(blob)
            lines.append(f"gpu {a['name']} {fname} bytes {len(data)} head {head} tail {tail}")
        with open(os.path.join(dest, "case.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        log(f"ok   {kname}/{cname}: {len(outputs)} outputs, {same} bit-identical to the emulator; "
            f"emulator: {emu_line[:160]}")
        return True


_versions = None


def versions():
    global _versions
    if _versions is None:
        import torch
        import triton
        p = torch.cuda.get_device_properties(0)
        _versions = (f"triton={triton.__version__} torch={torch.__version__} "
                     f"cuda={torch.version.cuda} device=\"{p.name}\" "
                     f"sm={p.major}{p.minor} python={platform.python_version()}")
    return _versions


# ---------------------------------------------------------------------------
# single-op probes

PROBES = [
    # name, inputs, output dtype
    ("exp", 1, "fp32"), ("exp2", 1, "fp32"), ("log", 1, "fp32"), ("log2", 1, "fp32"),
    ("sqrt", 1, "fp32"), ("sqrt_rn", 1, "fp32"), ("rsqrt", 1, "fp32"), ("sin", 1, "fp32"),
    ("cos", 1, "fp32"), ("erf", 1, "fp32"), ("tanh", 1, "fp32"), ("sigmoid", 1, "fp32"),
    ("div", 2, "fp32"), ("div_rn", 2, "fp32"), ("rem", 2, "fp32"), ("max", 2, "fp32"),
    ("min", 2, "fp32"), ("max_nan", 2, "fp32"), ("mul_add", 3, "fp32"),
    ("to_fp16", 1, "fp16"), ("to_fp16_rtz", 1, "fp16"), ("to_bf16", 1, "bf16"),
    ("to_bf16_rtz", 1, "bf16"), ("to_e4nv", 1, "fp8e4nv"), ("to_e5", 1, "fp8e5"),
    ("to_e5_rtz", 1, "fp8e5"), ("to_i32", 1, "i32"),
]


def splitmix(state):
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


def probe_inputs(which):
    """PROBE_N float32 bit patterns: specials, then log-uniform magnitudes in
    [2^-40, 2^40) of both signs (integer arithmetic only: reproducible)."""
    specials = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001,
                0x807FFFFF, 0x00800000, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0x47CE4780,
                0x47CE4781, 0x42C80000, 0xC2C80000, 0x43E00000, 0x43E80000, 0x477FE000,
                0x477FF000, 0x40490FDB, 0x3FC90FDB, 0x49742400, 0x3F000000, 0x33800000]
    state = 0x1234 + which * 0x1000001
    out = []
    for i in range(PROBE_N):
        if which == 0 and i < len(specials):
            out.append(specials[i])
            continue
        state, r = splitmix(state)
        sign = (r >> 63) & 1
        exp = 127 + ((r >> 32) % 81) - 40
        mant = r & 0x7FFFFF
        out.append((sign << 31) | (exp << 23) | mant)
    return struct.pack(f"<{PROBE_N}I", *out)


def run_probes(staging, device):
    import torch
    import triton
    import triton.language as tl
    from triton.language.extra import libdevice

    @triton.jit
    def probe_kernel(x_ptr, y_ptr, z_ptr, out_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m)
        y = tl.load(y_ptr + offs, mask=m)
        z = tl.load(z_ptr + offs, mask=m)
        if OP == "exp":
            r = tl.exp(x)
        elif OP == "exp2":
            r = tl.exp2(x)
        elif OP == "log":
            r = tl.log(x)
        elif OP == "log2":
            r = tl.log2(x)
        elif OP == "sqrt":
            r = tl.sqrt(x)
        elif OP == "sqrt_rn":
            r = tl.sqrt_rn(x)
        elif OP == "rsqrt":
            r = tl.rsqrt(x)
        elif OP == "sin":
            r = tl.sin(x)
        elif OP == "cos":
            r = tl.cos(x)
        elif OP == "erf":
            r = tl.erf(x)
        elif OP == "tanh":
            r = libdevice.tanh(x)
        elif OP == "sigmoid":
            r = tl.sigmoid(x)
        elif OP == "div":
            r = x / y
        elif OP == "div_rn":
            r = tl.div_rn(x, y)
        elif OP == "rem":
            r = x % y
        elif OP == "max":
            r = tl.maximum(x, y)
        elif OP == "min":
            r = tl.minimum(x, y)
        elif OP == "max_nan":
            r = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
        elif OP == "mul_add":
            r = x * y + z
        elif OP == "to_fp16":
            r = x.to(tl.float16)
        elif OP == "to_fp16_rtz":
            r = x.to(tl.float16, fp_downcast_rounding="rtz")
        elif OP == "to_bf16":
            r = x.to(tl.bfloat16)
        elif OP == "to_bf16_rtz":
            r = x.to(tl.bfloat16, fp_downcast_rounding="rtz")
        elif OP == "to_e4nv":
            r = x.to(tl.float8e4nv)
        elif OP == "to_e5":
            r = x.to(tl.float8e5)
        elif OP == "to_e5_rtz":
            r = x.to(tl.float8e5, fp_downcast_rounding="rtz")
        else:  # to_i32
            r = x.to(tl.int32)
        tl.store(out_ptr + offs, r, mask=m)

    dest = os.path.join(staging, "tests", "golden", "emu_probes")
    os.makedirs(dest, exist_ok=True)
    ins = [probe_inputs(k) for k in range(3)]
    for k, name in enumerate("xyz"):
        with open(os.path.join(dest, name + ".bin"), "wb") as f:
            f.write(ins[k])
    xs = [tensor_from_bytes(b, "fp32", device) for b in ins]
    lines = ["# single-op probes: out = OP(x[, y[, z]]) on the GPU, one file per op",
             f"n {PROBE_N}", f"captured {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}",
             f"versions {versions()}"]
    for name, nin, dt in PROBES:
        try:
            out = torch.empty(PROBE_N, dtype=torch_dtype(dt), device=device)
            out.view(torch.uint8).fill_(poison_byte(dt))
            probe_kernel[(PROBE_N // 1024,)](xs[0], xs[1], xs[2], out, PROBE_N, OP=name, BLOCK=1024)
            torch.cuda.synchronize()
            with open(os.path.join(dest, name + ".bin"), "wb") as f:
                f.write(tensor_bytes(out))
            lines.append(f"probe {name} {nin} {dt} {name}.bin")
            log(f"ok   probe {name}")
        except Exception as exc:  # keep going
            log(f"FAIL probe {name}: {type(exc).__name__}: {exc}")
    with open(os.path.join(dest, "probes.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------
# benchmark: TRITON_INTERPRET=1 in a subprocess, and bench_emu

INTERP_BENCH = r'''
import os, sys, time, json
os.environ["TRITON_INTERPRET"] = "1"
sys.path.insert(0, os.path.join(sys.argv[1], "bench"))
import importlib.util, torch, triton
spec = importlib.util.spec_from_file_location("sm", os.path.join(sys.argv[1], "kernels/py/softmax.py"))
sm = importlib.util.module_from_spec(spec); spec.loader.exec_module(sm)
spec = importlib.util.spec_from_file_location("ln", os.path.join(sys.argv[1], "kernels/py/layer_norm.py"))
ln = importlib.util.module_from_spec(spec); spec.loader.exec_module(ln)
import kernels_py as kp
res = {}
def timed(name, f, reps=1):
    # the best of reps runs, as bench_emu takes the best of its 10
    try:
        best = None
        for _ in range(reps):
            t0 = time.perf_counter(); f(); t = time.perf_counter() - t0
            best = t if best is None else min(best, t)
        res[name] = best
    except Exception as e:
        res[name] = "failed: %s: %s" % (type(e).__name__, str(e)[:200])
    print(name, res[name], flush=True)
g = torch.Generator().manual_seed(0)
x = torch.randn(1024, 1000, generator=g); y = torch.empty_like(x)
timed("softmax 1024x1000 fp32", lambda: sm.softmax_kernel[(1024,)](x, y, 1000, BLOCK_SIZE=1024))
M, N = 1151, 8192
X = torch.randn(M, N, generator=g).half(); Y = torch.empty_like(X)
W = torch.randn(N, generator=g).half(); B = torch.randn(N, generator=g).half()
Mean = torch.empty(M); Rstd = torch.empty(M)
timed("layer norm fwd 1151x8192 fp16", lambda: ln.layer_norm_fwd_kernel[(M,)](X, Y, W, B, Mean, Rstd, N, N, 1e-5, BLOCK_SIZE=1024))
timed("layer norm fwd 1151x8192 fp16 (constexpr N)", lambda: kp.bench_layer_norm_fwd_cx[(M,)](X, Y, W, B, Mean, Rstd, N, 1e-5, N=N, BLOCK_SIZE=1024))
a = torch.randn(512, 512, generator=g).half(); b = torch.randn(512, 512, generator=g).half()
c = torch.empty(512, 512).half()
timed("matmul 512^3 fp16", lambda: kp.bench_matmul[(16,)](a, b, c, 512, 512, 512, 512, 1, 512, 1, 512, 1, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32))
timed("matmul 512^3 fp16 (constexpr K)", lambda: kp.bench_matmul_cx[(16,)](a, b, c, 512, 512, 512, 1, 512, 1, 512, 1, K=512, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32), reps=10)
import numpy
res["numpy"] = numpy.__version__
print(json.dumps(res))
'''


def run_bench(staging, bench_emu, timeout):
    dest = os.path.join(staging, "bench")
    os.makedirs(dest, exist_ok=True)
    out = ["# Emulator benchmark, captured on the GPU machine's CPU", "",
           f"captured {datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')}; "
           f"CPU: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores", ""]
    interp = {}
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(INTERP_BENCH)
        script = f.name
    try:
        r = subprocess.run([sys.executable, script, ROOT], capture_output=True, text=True,
                           timeout=timeout, env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))
        last = (r.stdout.strip().splitlines() or ["{}"])[-1]
        interp = json.loads(last) if last.startswith("{") else {}
        if r.returncode:
            out.append(f"interpreter run exited {r.returncode}: {r.stderr[-500:]}")
    except subprocess.TimeoutExpired:
        out.append(f"interpreter run timed out after {timeout} s")
    except Exception as exc:
        out.append(f"interpreter run failed: {exc}")
    finally:
        os.unlink(script)
    log(f"interpreter: {interp}")
    out += ["## TRITON_INTERPRET=1 (one run each; the matmul: best of 10)", "",
            "| workload | interpreter |", "|---|---|"]
    for k, v in interp.items():
        if k != "numpy":
            out.append(f"| {k} | {v * 1e3:.0f} ms |" if isinstance(v, float) else f"| {k} | {v} |")
    out += ["", f"numpy {interp.get('numpy', '?')}", ""]
    try:
        r = subprocess.run([bench_emu, "--markdown", "--reps", "10"], capture_output=True,
                           text=True, timeout=timeout)
        out += ["## Emulator (build-gpu/bench_emu --markdown --reps 10)", "", r.stdout.strip(), ""]
        log("bench_emu:\n" + r.stdout.strip())
    except Exception as exc:
        out.append(f"bench_emu failed: {exc}")
    with open(os.path.join(dest, "emu_capture_bench.md"), "w") as f:
        f.write("\n".join(out) + "\n")


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.environ.get("OUT", "."), help="where the two files go")
    ap.add_argument("--ctriton", help="an existing ctriton binary (skip building)")
    ap.add_argument("--bench-emu", help="an existing bench_emu binary (with --ctriton)")
    ap.add_argument("--only", help="capture only this kernel")
    ap.add_argument("--skip-bench", action="store_true")
    ap.add_argument("--bench-only", action="store_true",
                    help="only the benchmark (no GPU needed): emu_capture_bench.md in --out")
    ap.add_argument("--skip-probes", action="store_true")
    ap.add_argument("--bench-timeout", type=int, default=300, help="seconds per benchmark run")
    ap.add_argument("--self-test", action="store_true",
                    help="without a GPU: check the CLI's cases and the probe inputs only")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    ctriton, bench_emu = build(args)
    entries = kernel_list(ctriton)
    if args.only:
        entries = [e for e in entries if e["kernel"] == args.only]
    if args.self_test:
        with tempfile.TemporaryDirectory() as tmp:
            for e in entries:
                d = os.path.join(tmp, e["kernel"], e["config"])
                os.makedirs(d)
                subprocess.run([ctriton, "run", e["kernel"], "--config", e["config"], "--emu",
                                "--dump-case", d], check=True, capture_output=True, cwd=ROOT)
                c = read_case(os.path.join(d, "case.txt"))
                assert c["kernel"] == e["kernel"] and c["grid"], c
                log(f"case {e['kernel']}/{e['config']}: grid {c['grid']}, {len(c['args'])} args")
        assert len(probe_inputs(0)) == 4 * PROBE_N
        log("self-test passed")
        return 0
    if args.bench_only:
        staging = tempfile.mkdtemp(prefix="emu_bench_")
        run_bench(staging, bench_emu, args.bench_timeout)
        shutil.copy(os.path.join(staging, "bench", "emu_capture_bench.md"), args.out)
        shutil.rmtree(staging, ignore_errors=True)
        with open(os.path.join(args.out, "emu_capture.log"), "w") as f:
            f.write("\n".join(LOG) + "\n")
        return 0
    import torch
    if not torch.cuda.is_available():
        log("no CUDA device: nothing to capture (use --self-test to check the script)")
        return 1
    device = "cuda"
    staging = tempfile.mkdtemp(prefix="emu_capture_")
    ok = 0
    for e in entries:
        try:
            ok += capture_case(e, ctriton, staging, device)
        except Exception as exc:
            log(f"FAIL {e['kernel']}/{e['config']}: {type(exc).__name__}: {exc}")
            LOG.append(traceback.format_exc())
    log(f"{ok} of {len(entries)} kernel configs captured")
    if not args.skip_probes:
        try:
            run_probes(staging, device)
        except Exception as exc:
            log(f"FAIL probes: {type(exc).__name__}: {exc}")
            LOG.append(traceback.format_exc())
    if not args.skip_bench:
        run_bench(staging, bench_emu, args.bench_timeout)
    tar_path = os.path.join(args.out, "emu_capture.tar.gz")
    with tarfile.open(tar_path, "w:gz") as tar:
        for name in sorted(os.listdir(staging)):
            tar.add(os.path.join(staging, name), arcname=name)
    shutil.rmtree(staging, ignore_errors=True)
    log(f"wrote {tar_path} ({os.path.getsize(tar_path) // 1024} KiB) in {time.time() - t0:.0f} s")
    with open(os.path.join(args.out, "emu_capture.log"), "w") as f:
        f.write("\n".join(LOG) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
