#!/usr/bin/env python3
"""Python Triton's side of the launch benchmarks (bench/launch_bench.c is the C side).

    launch_py.py overhead [N]       empty_kernel[(1,)](x, 7): JIT dispatch cost per launch
    launch_py.py startup            process start to first launch done ($CT_T0_NS)
    launch_py.py kernels DUMPDIR    replays launch_bench's dumps through Python Triton:
                                    outputs compared bit for bit with the C launch, the
                                    normalized PTX and the SASS of both cubins compared,
                                    large problems timed with triton.testing.do_bench
    launch_py.py softmax-bw WARPS   softmax 32768 x 4096 fp32 with the C side's choice,
                                    torch.softmax and a device copy
    launch_py.py matmul CONFIG      fp16 8192^3 with the C side's chosen config, and torch.matmul

One JSON object per line on stdout, like the C side.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import time

T_MAIN_NS = time.time_ns()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def emit(obj):
    print(json.dumps(obj), flush=True)


def load_py(relpath, name):
    path = os.path.join(ROOT, relpath)
    mod_name = "ctriton_py_" + os.path.splitext(os.path.basename(relpath))[0]
    if mod_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(mod_name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = mod
        spec.loader.exec_module(mod)
    return getattr(sys.modules[mod_name], name)


def parse_constexprs(text):
    out = {}
    for name, val in re.findall(r"(\w+)=('[^']*'|\"[^\"]*\"|\S+)", text or ""):
        if val[0] in "'\"":
            v = val[1:-1]
        elif val in ("True", "False"):
            v = val == "True"
        elif val == "None":
            v = None
        else:
            try:
                v = int(val, 0)
            except ValueError:
                v = float(val)
        out[name] = v
    return out


def torch_dtype(name):
    import torch
    return {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "fp64": torch.float64,
            "fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2, "i32": torch.int32,
            "i64": torch.int64, "i8": torch.int8, "u8": torch.uint8}[name]


# ---- overhead --------------------------------------------------------------


def empty_kernel_fn():
    import triton

    @triton.jit
    def empty_kernel(x_ptr, n):
        pass

    return empty_kernel


def cmd_overhead(n):
    import torch
    k = empty_kernel_fn()
    x = torch.empty(64, device="cuda")
    t0 = time.perf_counter()
    k[(1,)](x, 7)
    torch.cuda.synchronize()
    first_ms = (time.perf_counter() - t0) * 1e3
    loops, hosts = [], []

    def measure(count):
        t = time.perf_counter()
        for _ in range(count):
            k[(1,)](x, 7)
        torch.cuda.synchronize()
        loop = (time.perf_counter() - t) / count * 1e6
        host, done = 0.0, 0
        while done < count:
            b = time.perf_counter()
            for _ in range(32):
                k[(1,)](x, 7)
            host += time.perf_counter() - b
            done += 32
            torch.cuda.synchronize()
        return loop, host / done * 1e6

    measure(2000)
    for _ in range(7):
        lp, hs = measure(n)
        loops.append(lp)
        hosts.append(hs)
    loops.sort()
    hosts.sort()
    emit({"test": "overhead_py", "n": n, "first_launch_ms": first_ms, "py_loop_us": loops[3],
          "py_host_us": hosts[3]})


# ---- startup ---------------------------------------------------------------


def cmd_startup():
    t0 = int(os.environ.get("CT_T0_NS", T_MAIN_NS))
    a = time.perf_counter()
    import torch
    b = time.perf_counter()
    import triton  # noqa: F401
    c = time.perf_counter()
    x = torch.empty(64, device="cuda")  # the CUDA context is made here
    torch.cuda.synchronize()
    d = time.perf_counter()
    k = empty_kernel_fn()
    k[(1,)](x, 7)
    torch.cuda.synchronize()
    e = time.perf_counter()
    total_ms = (time.time_ns() - t0) / 1e6
    emit({"test": "startup_py", "exec_to_main_ms": (T_MAIN_NS - t0) / 1e6, "import_torch_ms": (b - a) * 1e3,
          "import_triton_ms": (c - b) * 1e3, "context_ms": (d - c) * 1e3, "first_launch_ms": (e - d) * 1e3,
          "total_ms": total_ms})


# ---- kernels ---------------------------------------------------------------


def norm_ptx(text):
    out = []
    skip = False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(".section") and ".debug" in s:
            skip = True
        if skip:
            if s == "}":
                skip = False
            continue
        if s.startswith((".loc", ".file", "$L__")) or not s:
            continue
        out.append(line.rstrip())
    return "\n".join(out)


def sass_of(cubin_bytes, workdir, tag):
    """SASS text without addresses and comments (cuobjdump from Triton's wheel)."""
    import triton
    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    if not os.path.exists(tool):
        return None
    path = os.path.join(workdir, tag + ".cubin")
    with open(path, "wb") as f:
        f.write(cubin_bytes)
    try:
        text = subprocess.run([tool, "-sass", path], check=True, capture_output=True, text=True).stdout
    except Exception:
        return None
    lines = []
    for line in text.splitlines():
        line = re.sub(r"/\*[0-9a-f]{4,}\*/", "", line)
        line = re.sub(r"/\*.*?\*/", "", line).strip()
        if line and not line.startswith(("code for", "Function :", ".", "Fatbin", "arch", "host", "compile_size")):
            lines.append(line)
    return "\n".join(lines)


def replay(d, meta, do_time):
    import torch
    import triton
    # kernels that make tensor descriptors need global memory from an allocator
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    fn = load_py(meta["py"], meta["kernel"])
    bufs = {}
    for b in meta["buffers"]:
        dt = torch_dtype(b["dtype"])
        path = os.path.join(d, b["name"] + ".in")
        if os.path.exists(path):  # the very inputs the C side used
            raw = open(path, "rb").read()
            t = torch.frombuffer(bytearray(raw), dtype=torch.uint8).to("cuda")
            bufs[b["name"]] = t.view(dt)
        elif b["role"] == "out":  # timing only: same sizes and dtypes, fresh values
            bufs[b["name"]] = torch.empty(b["count"], device="cuda", dtype=dt)
        else:
            bufs[b["name"]] = (torch.rand(b["count"], device="cuda") * 2 - 1).to(dt)
    args = []
    for a in meta["args"]:
        if "buf" in a:
            args.append(bufs[a["buf"]])
        elif "float" in a:
            args.append(float(a["float"]))
        else:
            args.append(int(a["int"]))
    kw = parse_constexprs(meta["constexprs"])
    kw["num_warps"] = meta["num_warps"]
    kw["num_stages"] = meta["num_stages"]
    grid = tuple(meta["grid"])
    res = {"test": "kernel_py", "kernel": meta["kernel"], "config": meta["config"], "role": meta["role"],
           "problem": meta["problem"]}
    compiled = fn[grid](*args, **kw)
    torch.cuda.synchronize()
    if meta["role"] == "check":
        diffs = {}
        for b in meta["buffers"]:
            if b["role"] == "in":
                continue
            want = open(os.path.join(d, b["name"] + ".out"), "rb").read()
            got = bufs[b["name"]].view(torch.uint8).cpu().numpy().tobytes()
            diffs[b["name"]] = sum(1 for i in range(0, len(want), 4096) if want[i:i + 4096] != got[i:i + 4096])
        res["bitwise_equal"] = all(v == 0 for v in diffs.values())
        res["differing_4k_blocks"] = diffs
        ours = meta.get("cubin")
        if ours and os.path.exists(ours):
            ptx_ours = open(os.path.join(os.path.dirname(ours), "kernel.ptx")).read()
            res["ptx_equal"] = norm_ptx(ptx_ours) == norm_ptx(compiled.asm["ptx"])
            sa = sass_of(open(ours, "rb").read(), d, "c")
            sb = sass_of(compiled.asm["cubin"], d, "py")
            if sa is not None and sb is not None:
                res["sass_equal"] = sa == sb
                res["sass_lines"] = sa.count("\n") + 1
        res["py_n_regs"] = getattr(compiled, "n_regs", None)
    if do_time:
        import triton.testing
        ms = triton.testing.do_bench(lambda: fn[grid](*args, **kw), quantiles=[0.5, 0.2, 0.8])
        res["py_median_ms"], res["py_p20_ms"], res["py_p80_ms"] = ms
        res["c_median_ms"] = meta.get("c_median_ms")
        res["bytes"] = meta.get("bytes")
        res["flops"] = meta.get("flops")
    return res


def cmd_kernels(dumpdir):
    for name in sorted(os.listdir(dumpdir)):
        d = os.path.join(dumpdir, name)
        mp = os.path.join(d, "meta.json")
        if not os.path.exists(mp):
            continue
        meta = json.load(open(mp))
        try:
            res = replay(d, meta, do_time=meta["role"] == "time")
        except Exception as e:  # one kernel's failure must not stop the others
            res = {"test": "kernel_py", "kernel": meta["kernel"], "config": meta["config"],
                   "role": meta["role"], "error": "%s: %s" % (type(e).__name__, e)}
        emit(res)


# ---- softmax bandwidth and matmul -------------------------------------------


def cmd_softmax_bw(num_warps):
    import torch
    import triton.testing
    fn = load_py("kernels/py/softmax.py", "softmax_kernel")
    M, N = 32768, 4096
    x = torch.randn(M, N, device="cuda")
    y = torch.empty_like(x)
    bytes_ = 2 * x.numel() * 4

    def gbs(ms):
        return bytes_ / (ms * 1e-3) / 1e9

    tri = triton.testing.do_bench(lambda: fn[(M,)](x, y, N, BLOCK_SIZE=4096, num_warps=num_warps),
                                  return_mode="median")
    ok = torch.allclose(y, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)
    ts = triton.testing.do_bench(lambda: torch.softmax(x, dim=1), return_mode="median")
    cp = triton.testing.do_bench(lambda: y.copy_(x), return_mode="median")
    emit({"test": "softmax_bw_py", "num_warps": num_warps, "triton_ms": tri, "triton_gbs": gbs(tri),
          "torch_ms": ts, "torch_gbs": gbs(ts), "copy_ms": cp, "copy_gbs": gbs(cp), "check": "ok" if ok else "FAILED"})


def cmd_matmul(config):
    import torch
    import triton
    import triton.testing
    fn = load_py("kernels/py/matmul.py", "matmul_kernel")
    kw = parse_constexprs(config)
    M = N = K = 8192
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(M, kw["BLOCK_SIZE_M"]) * triton.cdiv(N, kw["BLOCK_SIZE_N"]),)

    def run():
        fn[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                 **kw)

    run()
    ref = torch.matmul(a, b)
    ok = torch.allclose(c.float(), ref.float(), rtol=1e-2, atol=1e-1)
    flops = 2.0 * M * N * K
    tri = triton.testing.do_bench(run, return_mode="median")
    tm = triton.testing.do_bench(lambda: torch.matmul(a, b), return_mode="median")
    emit({"test": "matmul_py", "config": config, "triton_ms": tri, "triton_tflops": flops / (tri * 1e-3) / 1e12,
          "torch_ms": tm, "torch_tflops": flops / (tm * 1e-3) / 1e12, "check": "ok" if ok else "FAILED"})


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "overhead":
        cmd_overhead(int(sys.argv[2]) if len(sys.argv) > 2 else 20000)
    elif cmd == "startup":
        cmd_startup()
    elif cmd == "kernels":
        cmd_kernels(sys.argv[2])
    elif cmd == "softmax-bw":
        cmd_softmax_bw(int(sys.argv[2]))
    elif cmd == "matmul":
        cmd_matmul(sys.argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
