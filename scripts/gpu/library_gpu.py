#!/usr/bin/env python3
"""The inference-engine kernels of issue 15 on the GPU: C launch against the Python
original against PyTorch, in one process.

For each kernel and config of library_refs.BUILDERS (as `ctriton list --json` has them):
  1. correctness, at the config's problem and at every timed problem: the Python original
     (@triton.jit) against a float64 PyTorch reference; the C port launched with ct_launch
     (build/liblibrary_launch.so, through ctypes: the same CUDA context and stream as
     torch) on copies of the same inputs, its outputs compared with Python's bit for bit
     (outputs whose bits depend on the order in which programs take a lock are compared
     within tolerance and said so); the signature C's specialization chose, against the
     config's;
  2. timing, on a size sweep: the three (C, Python, PyTorch's own op) warmed up, then
     measured interleaved in rounds (C, Python, torch; then Python, torch, C; then torch,
     C, Python; ...: each round starts one later, so no side always follows the same
     one), each measurement the median of several launches timed with CUDA events, the
     L2 flushed before each; the SM clock, power and temperature read before and after
     each sweep point.  Reported: the median over rounds and the spread (min..max of the
     rounds).  --aa adds a control: a second Python launch on its own copy of the inputs
     ("Python'"), measured in the same rounds; Python'/Python is what the method itself
     shows between two identical launches.
Results: $OUT/library_gpu.json, $OUT/library_gpu.md, and one SVG per kernel family
($OUT/plot_<kernel>.svg).

    OUT=out/lib bash scripts/gpu/library_gpu.sh        # builds, then runs this
    python3 scripts/gpu/library_gpu.py --build build-gpu --out out/lib [--kernel K] [--rounds 7]
"""
import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "gpu"))
import library_refs as lr  # noqa: E402

# the timed problems: decode-like (few rows) to prefill-like (many); residues mod 16 as in
# the config, so that both sides specialize as the config does
SWEEPS = {
    ("cross_entropy_fwd_bwd_kernel", "bf16_V32000"): ["M=1 V=32000 SMOOTHING=0.1", "M=64 V=32000 SMOOTHING=0.1",
                                                      "M=4096 V=32000 SMOOTHING=0.1"],
    ("cross_entropy_fwd_bwd_kernel", "fp32_V1003_tail"): ["M=16384 V=1003 SMOOTHING=0"],
    ("cross_entropy_fwd_bwd_kernel", "fp16_V50257"): ["M=8 V=50257 SMOOTHING=0.05", "M=2048 V=50257 SMOOTHING=0.05"],
    ("layer_norm_bwd_dx_kernel", "fp16_N1000_G8"): ["M=16 N=1000", "M=16384 N=1000"],
    ("layer_norm_bwd_dx_kernel", "bf16_N4096_G32"): ["M=64 N=4096", "M=8192 N=4096"],
    ("rms_norm_bwd_dx_kernel", "bf16_N1000_G8"): ["M=16384 N=1000"],
    ("rms_norm_bwd_dx_kernel", "fp32_N2048_G16"): ["M=64 N=2048", "M=8192 N=2048"],
    ("norm_bwd_dwdb_kernel", "bias_G8_N1000"): ["G=8 N=1000"],
    ("norm_bwd_dwdb_kernel", "nobias_G48_N4096"): ["G=48 N=4096"],
    ("topk_kernel", "fp32_V32000_k8"): ["M=1 N=32000", "M=64 N=32000", "M=1024 N=32000"],
    ("topk_kernel", "bf16_V1000_k64_tail"): ["M=16384 N=1000"],
    ("topk_kernel", "fp16_V50257_k16"): ["M=8 N=50257", "M=256 N=50257"],
    ("matmul_kernel", "fp16_128x128x64"): ["M=8192 N=8192 K=8192"],
    ("radix_histogram_kernel", "i32_r4_B1024"): ["N=16777219 SHIFT=4"],
    ("radix_histogram_kernel", "i32_r8_B512_n16"): ["N=16777216 SHIFT=16"],
    ("radix_sort_pass_kernel", "i32_r4_B1024"): ["N=1000003 SHIFT=4", "N=16777219 SHIFT=4"],
    ("radix_sort_pass_kernel", "i32_r8_B512_n16"): ["N=1048576 SHIFT=16"],
    # prefill shapes (batch x heads folded into Z_H), and a short context
    ("flash_attn_fwd_kernel", "fp16_d64_causal"): ["Z_H=30 N_CTX=1024", "Z_H=30 N_CTX=4096"],
    ("flash_attn_fwd_kernel", "bf16_d128"): ["Z_H=30 N_CTX=256", "Z_H=30 N_CTX=4096"],
    ("flash_attn_fwd_kernel", "fp16_d128_causal_ws"): ["Z_H=30 N_CTX=4096", "Z_H=14 N_CTX=8192"],
    ("flash_attn_fwd_kernel", "bf16_d64_ws"): ["Z_H=30 N_CTX=4096"],
    ("flash_attn_fwd_kernel", "fp16_d64_tail"): ["Z_H=30 N_CTX=4099"],
    ("flash_attn_fwd_kernel", "bf16_d128_causal_tail"): ["Z_H=30 N_CTX=2049"],
    # the backward at the same prefill shapes
    ("flash_attn_bwd_preprocess_kernel", "fp16_d64"): ["Z_H=30 N_CTX=4096"],
    ("flash_attn_bwd_preprocess_kernel", "bf16_d128_tail"): ["Z_H=30 N_CTX=4099"],
    ("flash_attn_bwd_dkdv_kernel", "fp16_d64_causal"): ["Z_H=30 N_CTX=1024", "Z_H=30 N_CTX=4096"],
    ("flash_attn_bwd_dkdv_kernel", "bf16_d128"): ["Z_H=30 N_CTX=4096"],
    ("flash_attn_bwd_dkdv_kernel", "bf16_d128_causal_tail"): ["Z_H=30 N_CTX=2049"],
    ("flash_attn_bwd_dq_kernel", "fp16_d64_causal"): ["Z_H=30 N_CTX=1024", "Z_H=30 N_CTX=4096"],
    ("flash_attn_bwd_dq_kernel", "bf16_d128"): ["Z_H=30 N_CTX=4096"],
    ("flash_attn_bwd_dq_kernel", "bf16_d128_causal_tail"): ["Z_H=30 N_CTX=2049"],
    # MoE: a decode step (a few tokens) and a prefill batch; the alignment's one program
    ("moe_align_block_size_kernel", "e8_top2_bs16_tail"): ["TOKENS=1 TOPK=2 E=8 BS=16", "TOKENS=8191 TOPK=2 E=8 BS=16"],
    ("moe_align_block_size_kernel", "e60_top4_bs64_i64"): ["TOKENS=4 TOPK=4 E=60 BS=64 DROP=1",
                                                           "TOKENS=4096 TOPK=4 E=60 BS=64 DROP=1"],
    ("moe_align_block_size_kernel", "e256_top8_bs128"): ["TOKENS=2 TOPK=8 E=256 BS=128", "TOKENS=4096 TOPK=8 E=256 BS=128"],
    ("fused_moe_kernel", "bf16_e8_top2_64x64x64_tail"): ["TOKENS=16 E=8 N=4095 K=2047", "TOKENS=1024 E=8 N=4095 K=2047"],
    ("fused_moe_kernel", "bf16_e16_top4_64x128x64"): ["TOKENS=16 E=16 N=2048 K=2048", "TOKENS=2048 E=16 N=2048 K=2048"],
    ("fused_moe_kernel", "fp8_w8a8_e16_top8_64x128x128"): ["TOKENS=16 E=16 N=2048 K=2048",
                                                           "TOKENS=1024 E=16 N=2048 K=2048"],
    ("fused_moe_kernel", "fp8_w8a8_e8_top2_16x64x64_tail"): ["TOKENS=7 E=8 N=4096 K=2048"],
    # decode: one long sequence, a batch of medium ones
    ("decode_attn_paged_splitk_kernel", "fp16_d128_g8_p16"): ["SEQS=1 KV_HEADS=8 MAX_LEN=8192",
                                                              "SEQS=64 KV_HEADS=8 MAX_LEN=2048"],
    ("decode_attn_paged_splitk_kernel", "bf16_d128_g4_p16_window"): ["SEQS=32 KV_HEADS=8 MAX_LEN=4096 WINDOW=1024"],
    ("decode_attn_paged_splitk_kernel", "bf16_d256_g2_p32_softcap_window"): [
        "SEQS=16 KV_HEADS=4 MAX_LEN=4096 WINDOW=2048 CAP=50"],
    ("decode_attn_paged_splitk_kernel", "fp16_d64_g16_p64_softcap"): ["SEQS=32 KV_HEADS=2 MAX_LEN=2048 CAP=30"],
    ("decode_attn_reduce_kernel", "fp16_d128_s4"): ["SEQS=64 HEADS=64"],
    ("decode_attn_reduce_kernel", "bf16_d128_s8"): ["SEQS=128 HEADS=32"],
    ("decode_attn_reduce_kernel", "bf16_d256_s5_tail"): ["SEQS=64 HEADS=16"],
}

TORCH_NAMES = {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16", torch.int32: "i32",
               torch.int64: "i64", torch.float8_e4m3fn: "fp8e4nv", torch.float8_e5m2: "fp8e5"}


# ---- the C side ----------------------------------------------------------------------------

class CLib:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.ll_new.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        self.lib.ll_launch.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                                       ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                                       ctypes.POINTER(ctypes.c_longlong), ctypes.POINTER(ctypes.c_double)]
        self.lib.ll_signature.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                                          ctypes.POINTER(ctypes.c_longlong), ctypes.POINTER(ctypes.c_double),
                                          ctypes.c_char_p, ctypes.c_size_t]
        self.lib.ll_errmsg.restype = ctypes.c_char_p

    def check(self, status, what):
        if status != 0:
            raise RuntimeError(f"{what}: ct_status {status}: {self.lib.ll_errmsg().decode()}")

    def kernel(self, name, config):
        k = ctypes.c_void_p()
        self.check(self.lib.ll_new(name.encode(), config.encode(), ctypes.byref(k)), f"ll_new {name}/{config}")
        return CKernel(self, k)


class CKernel:
    def __init__(self, clib, handle):
        self.c, self.k = clib, handle

    @staticmethod
    def pack(args):
        n = len(args)
        kinds, ints, floats = (ctypes.c_char_p * n)(), (ctypes.c_longlong * n)(), (ctypes.c_double * n)()
        for i, a in enumerate(args):
            if isinstance(a, torch.Tensor):
                kinds[i], ints[i] = ("*" + TORCH_NAMES[a.dtype]).encode(), a.data_ptr()
            elif a is None:
                kinds[i] = b"None"
            elif isinstance(a, bool):
                raise TypeError("bool arguments are not used by these kernels")
            elif isinstance(a, int):
                kinds[i], ints[i] = b"int", a
            else:
                kinds[i], floats[i] = b"float", float(a)
        return n, kinds, ints, floats

    def launch(self, grid, args):
        g = tuple(grid) + (1,) * (3 - len(grid))
        n, kinds, ints, floats = self.pack(args)
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        self.c.check(self.c.lib.ll_launch(self.k, g[0], g[1], g[2], stream, n, kinds, ints, floats), "ll_launch")

    def signature(self, args):
        n, kinds, ints, floats = self.pack(args)
        buf = ctypes.create_string_buffer(2048)
        self.c.check(self.c.lib.ll_signature(self.k, n, kinds, ints, floats, buf, 2048), "ll_signature")
        return buf.value.decode()


# ---- the Python side -----------------------------------------------------------------------

def py_launcher(entry):
    import importlib.util
    spec = importlib.util.spec_from_file_location("lib_" + entry["kernel"], os.path.join(ROOT, entry["py"]))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fn = getattr(mod, entry["kernel"])
    const = lr.words(entry["constexprs"])
    opts = {"num_warps": entry["num_warps"]}
    if entry.get("num_stages"):
        opts["num_stages"] = entry["num_stages"]

    def launch(grid, args):
        fn[tuple(grid)](*args, **const, **opts)
    return launch


# ---- measurements -------------------------------------------------------------------------

def gpu_state():
    """SM clock (MHz), power (W), temperature (C) of GPU 0, or None where unreadable."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu",
                              "--format=csv,noheader,nounits", "-i", "0"],
                             capture_output=True, text=True, timeout=10).stdout.strip().split(",")
        return {"sm_mhz": float(out[0]), "power_w": float(out[1]), "temp_c": float(out[2])}
    except Exception:  # noqa: BLE001 - the measurement goes on without it
        return None


_flush = None


def flush_l2():
    global _flush
    if _flush is None:
        _flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    _flush.zero_()


def time_once(fn, iters):
    """The median of `iters` launches of fn (ms), each after an L2 flush, by CUDA events."""
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for i in range(iters):
        flush_l2()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends))


def interleaved(fns, rounds):
    """{name: [ms per round]}: warm-up, then rounds of every fn in turn."""
    for f in fns.values():                       # warm-up, and the launch size estimate
        for _ in range(3):
            f()
    torch.cuda.synchronize()
    est = max(time_once(f, 3) for f in fns.values())
    iters = max(5, min(100, int(30.0 / max(est, 1e-3))))
    times = {k: [] for k in fns}
    names = list(fns)
    for r in range(rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            times[k].append(time_once(fns[k], iters))
    return times, iters


def summary(ms):
    return {"median": statistics.median(ms), "min": min(ms), "max": max(ms), "rounds": ms}


# ---- one config ---------------------------------------------------------------------------

def bitwise(a, b):
    return torch.equal(a.contiguous().view(torch.uint8), b.contiguous().view(torch.uint8))


def check_outputs(run, after_py):
    rows = []
    for name, got, want, atol, rtol in run.reference(after_py):
        got64 = got.detach().cpu().double().reshape(want.shape)
        # an equal infinity is no error (the -inf lse of an empty split)
        err = torch.where(got64 == want, torch.zeros_like(want), (got64 - want).abs())
        ok = bool((err <= atol + rtol * want.abs()).all())
        rows.append({"output": name, "ok": ok, "max_abs": float(err.max()) if err.numel() else 0.0,
                     "atol": atol, "rtol": rtol})
    return rows


def correctness(entry, run, cker, pyl):
    a_py, a_c = run.fresh(), run.fresh()
    pyl(run.grid, a_py)
    cker.launch(run.grid, a_c)
    torch.cuda.synchronize()
    res = {"python_vs_torch": check_outputs(run, a_py), "c_vs_python": []}
    for name, i in run.outputs.items():
        if name in run.nondet:
            err = float((a_py[i].double() - a_c[i].double()).abs().max())
            # both within the reference's tolerance of this output (the same check as Python's)
            tol = next((t for t in res["python_vs_torch"] if t["output"] == name), {"atol": 1e-4, "rtol": 1e-5})
            ok = bool(torch.allclose(a_py[i].double(), a_c[i].double(), rtol=tol["rtol"], atol=2 * tol["atol"]))
            res["c_vs_python"].append({"output": name, "bitwise": None, "ok": ok, "max_abs": err,
                                       "note": "sums in the order programs take the lock"})
        else:
            same = bitwise(a_py[i], a_c[i])
            res["c_vs_python"].append({"output": name, "bitwise": same, "ok": same})
    res["c_signature"] = cker.signature(a_c)
    res["ok"] = all(r["ok"] for r in res["python_vs_torch"]) and all(r["ok"] for r in res["c_vs_python"])
    return res


def sig_matches(entry, sig):
    norm = lambda s: sorted(s.split())  # noqa: E731
    return norm(sig) == norm(entry["signature"])


def run_entry(entry, clib, rounds, deadline, aa=False):
    out = {"kernel": entry["kernel"], "config": entry["config"], "points": []}
    cker = clib.kernel(entry["kernel"], entry["config"])
    pyl = py_launcher(entry)
    gen = torch.Generator().manual_seed(15)
    problems = [None] + [lr.words(p) for p in SWEEPS.get((entry["kernel"], entry["config"]), [])]
    for prob in problems:
        label = entry["problem"] if prob is None else " ".join(f"{k}={v}" for k, v in prob.items())
        point = {"problem": label, "timed": prob is not None}
        try:
            run = lr.build(entry, prob, gen, "cuda")
            point["correct"] = correctness(entry, run, cker, pyl)
            point["signature_is_config"] = sig_matches(entry, point["correct"]["c_signature"])
            if prob is not None and time.time() < deadline:
                args_c, args_py = run.fresh(), run.fresh()
                reset = getattr(run, "reset", None)
                if reset:   # state the kernel consumes (look-back status, tile counter): zeroed
                    fns = {"C": lambda: (reset(args_c), cker.launch(run.grid, args_c)),
                           "Python": lambda: (reset(args_py), pyl(run.grid, args_py)), "torch": run.torch_fn}
                else:
                    fns = {"C": lambda: cker.launch(run.grid, args_c), "Python": lambda: pyl(run.grid, args_py),
                           "torch": run.torch_fn}
                if aa:      # the A/A control: the same Python launch on its own copy
                    args_aa = run.fresh()
                    fns["Python'"] = ((lambda: (reset(args_aa), pyl(run.grid, args_aa))) if reset
                                      else (lambda: pyl(run.grid, args_aa)))
                point["state_before"] = gpu_state()
                times, iters = interleaved(fns, rounds)
                point["state_after"] = gpu_state()
                point["iters"] = iters
                point["ms"] = {k: summary(v) for k, v in times.items()}
                point["c_over_py"] = point["ms"]["C"]["median"] / point["ms"]["Python"]["median"]
                if aa:
                    point["aa"] = point["ms"]["Python'"]["median"] / point["ms"]["Python"]["median"]
                point["bytes"], point["flops"] = run.bytes, run.flops
            elif prob is not None:
                point["skipped"] = "time budget spent"
            del run
        except Exception as exc:  # noqa: BLE001 - one point's failure is reported, the rest go on
            import traceback
            point["error"] = f"{type(exc).__name__}: {exc}"[:2000]
            point["traceback"] = traceback.format_exc()[-3000:]
        out["points"].append(point)
        print(line(entry, point), flush=True)
        torch.cuda.empty_cache()
    return out


def line(entry, p):
    head = f"{entry['kernel']}/{entry['config']} [{p['problem']}]"
    if "error" in p:
        return f"ERROR {head}: {p['error']}"
    c = p["correct"]
    s = f"{'PASS' if c['ok'] else 'FAIL'} {head} sig={'=' if p['signature_is_config'] else c['c_signature']}"
    for r in c["python_vs_torch"]:
        s += f" {r['output']}:{'ok' if r['ok'] else 'BAD'}({r['max_abs']:.2g})"
    s += " C=Py:" + ",".join(f"{r['output']}={'bits' if r['bitwise'] else ('tol' if r['ok'] else 'DIFF')}"
                             for r in c["c_vs_python"])
    if "ms" in p:
        m = p["ms"]
        s += (f" | C {m['C']['median']:.4f} Py {m['Python']['median']:.4f} torch {m['torch']['median']:.4f} ms"
              f" C/Py {p['c_over_py']:.3f}")
        if "aa" in p:
            s += f" Py'/Py {p['aa']:.3f}"
    return s


# ---- reports --------------------------------------------------------------------------------

def fmt_ms(s):
    return f"{s['median']:.4f} ({s['min']:.4f}..{s['max']:.4f})"


def markdown(results, meta):
    L = ["# Inference-engine kernels on the GPU: C, Python Triton, PyTorch", "",
         f"`scripts/gpu/library_gpu.py`; {meta['gpu']}, torch {meta['torch']}, triton {meta['triton']}, "
         f"ctriton {meta['commit']}, {meta['date']}. {meta['rounds']} interleaved rounds (C, Python, "
         "torch, each round starting one later), each the median of `iters` launches with the L2 flushed; a cell is the median "
         "over rounds (min..max). Inputs are the same tensors for all three.", "",
         "## Correctness", "",
         "| kernel | config | problem | C signature = config | Python vs PyTorch (max abs err) | C = Python |",
         "|---|---|---|---|---|---|"]
    for r in results:
        for p in r["points"]:
            if "error" in p:
                L.append(f"| {r['kernel']} | {r['config']} | {p['problem']} | error | {p['error'][:120]} | |")
                continue
            c = p["correct"]
            pv = "; ".join(f"{x['output']} {'✓' if x['ok'] else '✗'} {x['max_abs']:.2g}" for x in c["python_vs_torch"])
            cv = "; ".join(f"{x['output']} {'✓ bitwise' if x['bitwise'] else ('✓ within tolerance (lock order)' if x['ok'] else '✗')}"
                           for x in c["c_vs_python"])
            sig = "✓" if p["signature_is_config"] else f"✗ `{c['c_signature']}`"
            L.append(f"| {r['kernel']} | {r['config']} | {p['problem']} | {sig} | {pv} | {cv} |")
    L += ["", "## Timing", "",
          "| kernel | config | problem | C ms | Python ms | PyTorch ms | C/Py | Py/torch | GB/s (TFLOP/s) of C | SM MHz, W before → after |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        for p in r["points"]:
            if "ms" not in p:
                continue
            m = p["ms"]
            c_s = m["C"]["median"] / 1e3
            thr = f"{p['bytes'] / c_s / 1e9:.0f}" + (f" ({p['flops'] / c_s / 1e12:.0f})" if p["flops"] else "")
            sb, sa = p.get("state_before") or {}, p.get("state_after") or {}
            st = (f"{sb.get('sm_mhz', '?'):.0f}, {sb.get('power_w', 0):.0f} → {sa.get('sm_mhz', 0):.0f}, "
                  f"{sa.get('power_w', 0):.0f}") if sb and sa else "?"
            L.append(f"| {r['kernel']} | {r['config']} | {p['problem']} | {fmt_ms(m['C'])} | {fmt_ms(m['Python'])} | "
                     f"{fmt_ms(m['torch'])} | {p['c_over_py']:.3f} | "
                     f"{m['Python']['median'] / m['torch']['median']:.2f} | {thr} | {st} |")
    return "\n".join(L) + "\n"


def svg(kernel, points):
    """A sweep as a picture: ms (log scale) per problem, one line per side."""
    pts = [p for p in points if "ms" in p]
    if not pts:
        return None
    import math
    W, H, L, B = 760, 360, 70, 110
    vals = [p["ms"][k]["median"] for p in pts for k in ("C", "Python", "torch")]
    lo, hi = math.log10(min(vals)) - 0.1, math.log10(max(vals)) + 0.1
    x = lambda i: L + (W - L - 20) * (i + 0.5) / len(pts)  # noqa: E731
    y = lambda v: 20 + (H - 20 - B) * (hi - math.log10(v)) / (hi - lo)  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="14" text-anchor="middle" font-size="13">{kernel}: ms per launch (log scale)</text>',
           f'<line x1="{L}" y1="{H - B}" x2="{W - 20}" y2="{H - B}" stroke="black"/>',
           f'<line x1="{L}" y1="20" x2="{L}" y2="{H - B}" stroke="black"/>']
    for e in range(math.floor(lo), math.ceil(hi) + 1):
        if lo <= e <= hi:
            out.append(f'<text x="{L - 5}" y="{y(10 ** e) + 4}" text-anchor="end">{10 ** e:g}</text>')
            out.append(f'<line x1="{L}" y1="{y(10 ** e)}" x2="{W - 20}" y2="{y(10 ** e)}" stroke="#ddd"/>')
    colors = {"C": "#1f77b4", "Python": "#ff7f0e", "torch": "#2ca02c"}
    for k, col in colors.items():
        coords = " ".join(f"{x(i):.1f},{y(p['ms'][k]['median']):.1f}" for i, p in enumerate(pts))
        out.append(f'<polyline points="{coords}" fill="none" stroke="{col}" stroke-width="2"/>')
        for i, p in enumerate(pts):
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(p["ms"][k]["median"]):.1f}" r="3" fill="{col}"/>')
    for i, p in enumerate(pts):
        out.append(f'<text x="{x(i):.1f}" y="{H - B + 14}" text-anchor="end" '
                   f'transform="rotate(-30 {x(i):.1f} {H - B + 14})">{p["config"]} {p["problem"]}</text>')
    for j, (k, col) in enumerate(colors.items()):
        out.append(f'<rect x="{L + 10 + 110 * j}" y="{H - 18}" width="12" height="12" fill="{col}"/>'
                   f'<text x="{L + 26 + 110 * j}" y="{H - 8}">{"PyTorch" if k == "torch" else k}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.environ.get("OUT", "out/library_gpu"))
    ap.add_argument("--kernel", action="append")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--budget-s", type=float, default=330, help="stop timing (correctness goes on) after this")
    ap.add_argument("--aa", action="store_true", help="time a second Python launch on its own inputs too (A/A control)")
    args = ap.parse_args()
    deadline = time.time() + args.budget_s
    os.makedirs(args.out, exist_ok=True)
    listing = json.loads(subprocess.run([os.path.join(args.build, "ctriton"), "list", "--json"], check=True,
                                        capture_output=True, text=True).stdout)
    entries = [e for e in listing if e["kernel"] in lr.BUILDERS and (not args.kernel or e["kernel"] in args.kernel)
               and (e["kernel"] != "matmul_kernel" or (e["kernel"], e["config"]) in SWEEPS)]
    clib = CLib(os.path.join(args.build, "liblibrary_launch.so"))
    import triton
    # tensor descriptors made in a kernel need global scratch (ct_launch allocates its own)
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    meta = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
            "rounds": args.rounds, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                     text=True).stdout.strip() or "?"}
    print(f"# {len(entries)} configs; {meta['gpu']}; torch {meta['torch']} triton {meta['triton']}", flush=True)
    results = []
    for e in entries:
        try:
            results.append(run_entry(e, clib, args.rounds, deadline, args.aa))
        except Exception as exc:  # noqa: BLE001
            print(f"ERROR {e['kernel']}/{e['config']}: {exc}", flush=True)
            results.append({"kernel": e["kernel"], "config": e["config"],
                            "points": [{"problem": e["problem"], "error": str(exc)[:2000]}]})
    with open(os.path.join(args.out, "library_gpu.json"), "w") as f:
        json.dump({"meta": meta, "results": results}, f, indent=1)
    with open(os.path.join(args.out, "library_gpu.md"), "w") as f:
        f.write(markdown(results, meta))
    fams = {}
    for r in results:
        for p in r["points"]:
            fams.setdefault(r["kernel"], []).append(dict(p, config=r["config"]))
    for k, pts in fams.items():
        s = svg(k, pts)
        if s:
            with open(os.path.join(args.out, f"plot_{k}.svg"), "w") as f:
                f.write(s)
    bad = [f"{r['kernel']}/{r['config']} [{p['problem']}]" for r in results for p in r["points"]
           if "error" in p or not p["correct"]["ok"]]
    print(f"# {sum(len(r['points']) for r in results)} points, {len(bad)} failed" + (": " + "; ".join(bad) if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
