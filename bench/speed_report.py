#!/usr/bin/env python3
"""The emulator against TRITON_INTERPRET=1, per workload: a markdown table and a log-scale plot
from the JSON of bench_workloads / bench_emu (--json) and bench/interp_workloads.py.

    python3 bench/speed_report.py --emu a.json b.json --interp interp.json --md out.md [--png out.png]
"""
import argparse
import json
import math


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emu", nargs="+", required=True)
    ap.add_argument("--interp", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--png")
    a = ap.parse_args()
    rows = []
    for f in a.emu:
        try:
            with open(f) as fh:
                rows += json.load(fh)
        except (OSError, ValueError) as e:
            print("speed_report: %s: %s" % (f, e))
    try:
        with open(a.interp) as fh:
            interp = json.load(fh)
    except (OSError, ValueError):
        interp = {}
    meta = interp.get("_meta", {})
    nt = max([r.get("threads", 0) for r in rows] or [0])
    out = ["Interpreter: Triton %s, torch %s, numpy %s (best of up to 2 runs); emulator: best of "
           "3-5 runs, default (exact) mode unless the row says `--fast-dot`." %
           (meta.get("triton", "?"), meta.get("torch", "?"), meta.get("numpy", "?")), "",
           "| workload | interpreter | emulator, 1 thread | emulator, %d threads | plain C loop | "
           "emu(1) / C | 1 thread (goal 100x) | %d threads (goal 1000x) | check |" % (nt, nt),
           "|---|---|---|---|---|---|---|---|---|"]
    plot = []
    for r in rows:
        key = r["key"]
        it = interp.get(key if key != "matmul512_fast" else "matmul512")
        e1, en, cl = r["emu1_s"], r["emuN_s"], r["cloop_s"]
        if isinstance(it, (int, float)):
            s1, sn = it / e1, it / en
            g1 = "%.0fx %s" % (s1, "✓" if s1 >= 100 else "✗")
            gn = "%.0fx %s" % (sn, "✓" if sn >= 1000 else "✗")
            its = "%.0f ms" % (1e3 * it)
            plot.append((r["name"], it, e1, en))
        else:
            g1 = gn = "-"
            its = str(it) if it is not None else "not run"
        out.append("| %s | %s | %.1f ms | %.2f ms | %.1f ms | %.2fx | %s | %s | %s |" %
                   (r["name"], its, 1e3 * e1, 1e3 * en, 1e3 * cl, e1 / cl, g1, gn, r["check"]))
    with open(a.md, "w") as fh:
        fh.write("\n".join(out) + "\n")
    if a.png and plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("speed_report: no matplotlib, no plot")
            return 0
        fig, ax = plt.subplots(figsize=(11, 5.5))
        x = range(len(plot))
        w = 0.27
        ax.bar([i - w for i in x], [p[1] * 1e3 for p in plot], w, label="TRITON_INTERPRET=1")
        ax.bar([i for i in x], [p[2] * 1e3 for p in plot], w, label="emulator, 1 thread")
        ax.bar([i + w for i in x], [p[3] * 1e3 for p in plot], w, label="emulator, %d threads" % nt)
        ax.set_yscale("log")
        ax.set_ylabel("ms (log scale)")
        ax.set_xticks(list(x))
        ax.set_xticklabels([p[0].split(" (")[0][:28] for p in plot], rotation=30, ha="right",
                           fontsize=8)
        ax.legend()
        ax.set_title("Emulator vs Triton's interpreter, per workload")
        fig.tight_layout()
        fig.savefig(a.png, dpi=110)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
