#!/usr/bin/env python3
"""The emulator against TRITON_INTERPRET=1, per workload: a markdown table and a log-scale plot
from the JSON of bench_workloads / bench_emu (--json) and bench/interp_workloads.py.

Rows with dots also carry the time their products take the exact dot model alone on 1 and on N
threads (bench/dot_floor.h: a floor under any run in the default mode); where that floor
already exceeds the goal's budget (the interpreter's time / 100, / 1000), the goal is marked
"✗ (dots alone Rx)", R the interpreter's time over that floor: no speed-up of the rest of the
emulator can meet such a goal in the exact mode.  The plot marks the floor on the 1-thread bars.

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
           "emu(1) / C | exact dots alone, 1 / %d threads | 1 thread (goal 100x) | %d threads (goal 1000x) "
           "| check |" % (nt, nt, nt),
           "|---|---|---|---|---|---|---|---|---|---|"]
    plot = []
    for r in rows:
        key = r["key"]
        it = interp.get(key if key != "matmul512_fast" else "matmul512")
        e1, en, cl = r["emu1_s"], r["emuN_s"], r["cloop_s"]
        d1, dn = r.get("dot1_s"), r.get("dotN_s")
        floor = "%.1f / %.2f ms" % (1e3 * d1, 1e3 * dn) if d1 and dn else "-"
        if isinstance(it, (int, float)):
            s1, sn = it / e1, it / en

            def goal(ratio, want, dots):
                mark = "✓" if ratio >= want else "✗"
                if ratio < want and dots and dots > it / want:
                    mark += " (dots alone %.0fx)" % (it / dots)
                return "%.0fx %s" % (ratio, mark)
            g1, gn = goal(s1, 100, d1), goal(sn, 1000, dn)
            its = "%.0f ms" % (1e3 * it)
            plot.append((r["name"], it, e1, en, d1))
        else:
            g1 = gn = "-"
            its = str(it) if it is not None else "not run"
        out.append("| %s | %s | %.1f ms | %.2f ms | %.1f ms | %.2fx | %s | %s | %s | %s |" %
                   (r["name"], its, 1e3 * e1, 1e3 * en, 1e3 * cl, e1 / cl, floor, g1, gn, r["check"]))
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
        fl = [(i, p[4] * 1e3) for i, p in zip(x, plot) if p[4]]
        if fl:
            ax.scatter([i for i, _ in fl], [v for _, v in fl], marker="_", s=400, color="black", zorder=3,
                       label="exact dots alone, 1 thread (a floor)")
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
