#!/usr/bin/env python3
"""Turns scripts/gpu/run_launch_bench.sh's results directory into the
"Launching from C" section of bench/RESULTS.md (markdown on stdout)."""
import datetime
import glob
import json
import os
import statistics
import sys


def jl(path):
    out = []
    for p in glob.glob(path):
        for line in open(p):
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def one(rows, test):
    r = [x for x in rows if x.get("test") == test]
    return r[0] if r else None


def f(x, fmt="%.2f"):
    return fmt % x if isinstance(x, (int, float)) else "n/a"


def yes(b):
    return "✓" if b else "✗"


def main():
    R = sys.argv[1]
    lines = []
    P = lines.append
    machine = open(os.path.join(R, "machine.txt")).read().strip().splitlines() if os.path.exists(
        os.path.join(R, "machine.txt")) else []
    P("## Launching from C (issue 5)")
    P("")
    P("Measured by `scripts/gpu/run_launch_bench.sh` on %s, one run. Machine:" % datetime.date.today().isoformat())
    P("")
    P("```")
    P("\n".join(machine))
    P("```")
    P("")
    err = [x for x in jl(os.path.join(R, "*.jsonl")) if x.get("test") in ("error", "skipped")]
    for e in err:
        P("- **%s**: %s %s" % (e["test"], e.get("what", ""), e.get("message", "")))
    if err:
        P("")

    # 1. overhead
    c = one(jl(os.path.join(R, "overhead_c.jsonl")), "overhead")
    p = one(jl(os.path.join(R, "overhead_py.jsonl")), "overhead_py")
    P("### Launch overhead of an empty kernel")
    P("")
    if c:
        P("`empty_kernel[(1,)](x, 7)` and its C equivalent, %d launches per round, median of %d rounds. "
          "*loop*: launches back to back then one synchronize (per-launch throughput); *host*: the time "
          "spent in the launch call itself, in batches of 32 with a synchronize between batches." %
          (c["n"], c["rounds"]))
        P("")
        P("| path | loop µs/launch | host µs/call | loop vs raw |")
        P("|---|---|---|---|")
        raw = c["raw_loop_us"]
        P("| raw `cuLaunchKernel` (same cubin, packed params) | %s | %s | 1.00 |" % (f(raw), f(c["raw_host_us"])))
        P("| `ct_launch` (specialization key + cache hit) | %s | %s | %s |" % (
            f(c["ct_launch_loop_us"]), f(c["ct_launch_host_us"]), f(c["ct_launch_loop_us"] / raw)))
        if p:
            P("| Python Triton JIT dispatch | %s | %s | %s |" % (f(p["py_loop_us"]), f(p["py_host_us"]),
                                                              f(p["py_loop_us"] / raw)))
        P("")
        goal1 = c["ct_launch_loop_us"] <= 1.1 * raw
        goal2 = p and p["py_loop_us"] >= 2.5 * c["ct_launch_loop_us"]
        P("Goals: `ct_launch` at most 1.1× raw: %s (%.3f×); at least 2.5× faster than Python: %s (%s×)." % (
            yes(goal1), c["ct_launch_loop_us"] / raw, yes(goal2),
            f(p["py_loop_us"] / c["ct_launch_loop_us"]) if p else "n/a"))
        P("")

    # 2. startup
    sc = jl(os.path.join(R, "startup_c.jsonl"))
    sp = jl(os.path.join(R, "startup_py.jsonl"))
    P("### Process start to first launch completed (warm caches, median of %d runs)" % max(len(sc), len(sp)))
    P("")
    P("| | total | CUDA context | total without context | imports | first launch (after context) |")
    P("|---|---|---|---|---|---|")
    if sc:
        med = lambda k, rows: statistics.median([x[k] for x in rows if k in x])  # noqa: E731
        P("| C (`ct_launch`, disk cache hit) | %s ms | %s ms | %s ms | — | %s ms |" % (
            f(med("total_ms", sc), "%.1f"), f(med("context_ms", sc), "%.1f"),
            f(med("total_ms", sc) - med("context_ms", sc), "%.1f"), f(med("first_launch_ms", sc), "%.1f")))
    if sp:
        med = lambda k, rows: statistics.median([x[k] for x in rows if k in x])  # noqa: E731
        P("| Python (`import torch, triton`, JIT, warm cache) | %s ms | %s ms | %s ms | %s ms | %s ms |" % (
            f(med("total_ms", sp), "%.0f"), f(med("context_ms", sp), "%.0f"),
            f(med("total_ms", sp) - med("context_ms", sp), "%.0f"),
            f(med("import_torch_ms", sp) + med("import_triton_ms", sp), "%.0f"), f(med("first_launch_ms", sp), "%.0f")))
    P("")

    # 3. kernels
    kc = [x for x in jl(os.path.join(R, "kernels_c.jsonl")) if x.get("test") == "kernel"]
    kp = jl(os.path.join(R, "kernels_py.jsonl"))
    pyc = {(x["kernel"], x["config"]): x for x in kp if x.get("role") == "check"}
    pyt = {(x["kernel"], x["config"]): x for x in kp if x.get("role") == "time"}
    P("### Every library kernel launched from C")
    P("")
    P("Checked at the config's problem against a plain C reference, and replayed through Python Triton "
      "with the same inputs and config: outputs compared bit for bit, PTX (debug info stripped) and SASS of "
      "the two cubins compared. Timed at a larger problem (same residues mod 16, so the same specialization) "
      "with `do_bench` on both sides (L2 flushed; median).")
    P("")
    P("| kernel | config | JIT signature = config | C reference | bitwise = Python | PTX = | SASS = | "
      "large problem | C ms | Python ms | C/Py | GB/s (TFLOP/s) |")
    P("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for x in kc:
        key = (x["kernel"], x["config"])
        if x.get("status") == "no recipe":
            P("| %s | %s | no recipe yet | | | | | | | | | |" % key)
            continue
        a, b = pyc.get(key, {}), pyt.get(key, {})
        cm, pm = x.get("median_ms"), b.get("py_median_ms")
        perf = f(x.get("gbs"), "%.0f")
        if x.get("tflops"):
            perf += " (%s)" % f(x["tflops"], "%.1f")
        P("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            x["kernel"], x["config"], yes(x.get("signature_matches_config")),
            "✓" if x.get("check") == "ok" else "✗ " + x.get("check_detail", "")[:80],
            ("error: " + a["error"][:60]) if "error" in a else yes(a.get("bitwise_equal")) if a else "n/a",
            yes(a.get("ptx_equal")) if "ptx_equal" in a else "n/a",
            yes(a.get("sass_equal")) if "sass_equal" in a else "n/a",
            x.get("large_problem", ""), f(cm, "%.4f"), f(pm, "%.4f"),
            f(cm / pm) if isinstance(cm, float) and isinstance(pm, float) else "n/a", perf))
    P("")

    emu = {(x["kernel"], x["config"]): x["exit"] for x in jl(os.path.join(R, "emu.jsonl")) if x.get("test") == "emu"}
    if emu:
        P("`ctriton run --emu` on the same configs (the emulator against its C reference): %d of %d pass." % (
            sum(1 for v in emu.values() if v == 0), len(emu)))
        bad = ["%s/%s (exit %d)" % (k[0], k[1], v) for k, v in sorted(emu.items()) if v != 0]
        if bad:
            P("Failing: " + ", ".join(bad) + ".")
        P("")

    # 4. features
    fe = [x for x in jl(os.path.join(R, "features.jsonl")) if x.get("test") == "feature"]
    if fe:
        P("### Launch features on the GPU")
        P("")
        for x in fe:
            P("- %s %s: %s" % (yes(x["ok"]), x["feature"], x["detail"]))
        P("")

    # 5. softmax
    s = one(jl(os.path.join(R, "softmax_c.jsonl")), "softmax_bw")
    sp = one(jl(os.path.join(R, "softmax_py.jsonl")), "softmax_bw_py")
    P("### Softmax 32768 × 4096 fp32 against the device's copy bandwidth")
    P("")
    if s:
        P("| | ms | GB/s | of C copy |")
        P("|---|---|---|---|")
        P("| C `ct_launch` softmax_kernel BLOCK_SIZE=4096, num_warps=%s (autotuned over 4/8/16/32) | %s | %s | %s |"
          % (s["best_num_warps"], f(s["median_ms"], "%.4f"), f(s["gbs"], "%.0f"), f(s["ratio"] * 100, "%.1f%%")))
        P("| device-to-device copy (`cuMemcpyDtoD`, read + write) | %s | %s | 100%% |" % (
            f(s["copy_median_ms"], "%.4f"), f(s["copy_gbs"], "%.0f")))
        if sp:
            P("| Python Triton, same config | %s | %s | %s |" % (
                f(sp["triton_ms"], "%.4f"), f(sp["triton_gbs"], "%.0f"), f(sp["triton_gbs"] / s["copy_gbs"] * 100, "%.1f%%")))
            P("| `torch.softmax` | %s | %s | %s |" % (f(sp["torch_ms"], "%.4f"), f(sp["torch_gbs"], "%.0f"),
                                                      f(sp["torch_gbs"] / s["copy_gbs"] * 100, "%.1f%%")))
            P("| torch `copy_` | %s | %s | %s |" % (f(sp["copy_ms"], "%.4f"), f(sp["copy_gbs"], "%.0f"),
                                                   f(sp["copy_gbs"] / s["copy_gbs"] * 100, "%.1f%%")))
        P("")
        P("Goal ≥ 95%% of copy bandwidth: %s. Check against the C reference: %s." % (
            yes(s["ratio"] >= 0.95), s["check"]))
        P("")

    # 6. matmul
    m = one(jl(os.path.join(R, "matmul_c.jsonl")), "matmul")
    mr = one(jl(os.path.join(R, "matmul_c_reuse.jsonl")), "matmul")
    mp = one(jl(os.path.join(R, "matmul_py.jsonl")), "matmul_py")
    P("### fp16 matmul 8192³ with `ct_autotune`")
    P("")
    if m:
        P("| | config | TFLOP/s | ms |")
        P("|---|---|---|---|")
        P("| C, tuned in this process (%.1f s of tuning) | %s | %s | %s |" % (
            m["tune_s"], m["best_config"], f(m["tflops"], "%.1f"), f(m["median_ms"], "%.4f")))
        if mr:
            P("| C, a new process reusing the stored choice (%.2f s to pick) | %s | %s | %s |" % (
                mr["tune_s"], mr["best_config"], f(mr["tflops"], "%.1f"), f(mr["median_ms"], "%.4f")))
        if mp:
            P("| Python Triton, same config | | %s | %s |" % (f(mp["triton_tflops"], "%.1f"), f(mp["triton_ms"], "%.4f")))
            P("| `torch.matmul` | | %s | %s |" % (f(mp["torch_tflops"], "%.1f"), f(mp["torch_ms"], "%.4f")))
            P("")
            P("Goal ≥ 97%% of torch.matmul: %s (%.1f%%). C output check (sampled against the C reference): %s." % (
                yes(m["tflops"] >= 0.97 * mp["torch_tflops"]), m["tflops"] / mp["torch_tflops"] * 100, m["check"]))
        P("")
    tables = glob.glob(os.path.join(R, "matmul_kernel*.tsv")) + glob.glob(os.path.join(R, "matmul_tuned.tsv"))
    if tables:
        P("The tuned table (exportable, shippable with `CTRITON_TUNE_TABLE`):")
        P("")
        P("```")
        P(open(tables[0]).read().strip())
        P("```")
        P("")

    # 7. AOT
    ap = os.path.join(R, "aot_example.txt")
    if os.path.exists(ap):
        P("### AOT example (`examples/aot`, run with `env -i PATH=/usr/bin:/bin`)")
        P("")
        P("```")
        P(open(ap).read().strip())
        ld = os.path.join(R, "aot_ldd.txt")
        if os.path.exists(ld):
            P("--- ldd")
            P(open(ld).read().strip())
        P("```")
        P("")
    ct = os.path.join(R, "ctest.txt")
    if os.path.exists(ct):
        P("### Unit tests with a real driver")
        P("")
        P("```")
        P("\n".join(open(ct).read().strip().splitlines()[-12:]))
        P("```")
        P("")
    cp = os.path.join(R, "cli_bench.txt")
    if os.path.exists(cp):
        P("### `ctriton bench`")
        P("")
        P("```")
        P(open(cp).read().strip())
        P("```")
        P("")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
