#!/usr/bin/env python3
"""A kernel written in Python, AOT-compiled from its TTIR, run on the GPU from plain C.

For each case below (a fused bias + GELU, a row softmax):
  1. the Python kernel runs on the GPU through Triton (kernel[grid](...)) on seeded inputs;
  2. its TTIR comes two ways: scripts/ttir_from_py.py (Triton's frontend, the raw `.source`)
     and the `ttir` Triton's own JIT kept for that launch (after its ttir passes);
  3. `ctriton aot --ttir` turns each into a C launcher with the cubin embedded (for this
     device's architecture), compiled with -std=c11 -Wall -Wextra -Werror beside
     scripts/gpu/aot_ttir_main.c, which runs it on the same inputs from files;
  4. the C launch's output must equal the Python launch's bit for bit.
Results: OUT/aot_ttir.txt (and the exit status: 0 when every comparison holds).

    OUT=/tmp/out python3 scripts/gpu/check_aot_ttir.py --ctriton build-gpu/ctriton
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CASES = [
    {"name": "bias_gelu", "kind": "KIND_BIAS_GELU", "py": "examples/out-of-tree/py/bias_gelu.py",
     "kernel": "bias_gelu_kernel", "signature": "x_ptr=*fp32:16 b_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32",
     "constexprs": "BLOCK=1024", "M": 64, "N": 1000},
    {"name": "softmax", "kind": "KIND_SOFTMAX", "py": "kernels/py/softmax.py",
     "kernel": "softmax_kernel", "signature": "x_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32",
     "constexprs": "BLOCK_SIZE=1024", "M": 64, "N": 1000},
]


def load(path, name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def run(cmd, log, **kw):
    log.write("$ " + " ".join(cmd) + "\n")
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    log.write(r.stdout + r.stderr)
    if r.returncode:
        raise RuntimeError("%s: exit %d\n%s" % (cmd[0], r.returncode, r.stderr[-2000:]))
    return r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ctriton", default=os.path.join(ROOT, "build-gpu", "ctriton"))
    ap.add_argument("--out", default=os.environ.get("OUT", "out/aot_ttir"))
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    args = ap.parse_args()
    import torch
    import triton

    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "aot_ttir_work")
    os.makedirs(work, exist_ok=True)
    major, minor = torch.cuda.get_device_capability()
    arch = major * 10 + minor
    env = dict(os.environ, CTRITON_PYTHON=os.environ.get("CTRITON_PYTHON", sys.executable))
    failures = 0
    with open(os.path.join(args.out, "aot_ttir.txt"), "w") as report, \
            open(os.path.join(work, "log.txt"), "w") as log:
        report.write("# ctriton aot --ttir on %s (sm_%d), Triton %s, torch %s\n\n"
                     % (torch.cuda.get_device_name(), arch, triton.__version__, torch.__version__))
        for c in CASES:
            fn = load(os.path.join(ROOT, c["py"]), c["kernel"])
            m, n = c["M"], c["N"]
            g = torch.Generator(device="cpu").manual_seed(1234)
            x = (torch.rand(m, n, generator=g) * 6 - 3).cuda()
            b = (torch.rand(n, generator=g) * 2 - 1).cuda()
            y = torch.empty_like(x)
            cx = dict(kv.split("=") for kv in c["constexprs"].split())
            cx = {k: int(v) for k, v in cx.items()}
            if c["kind"] == "KIND_BIAS_GELU":
                compiled = fn[(m,)](x, b, y, n, **cx)
            else:
                compiled = fn[(m,)](x, y, n, **cx)
            torch.cuda.synchronize()
            d = os.path.join(work, c["name"])
            os.makedirs(d, exist_ok=True)
            x.cpu().numpy().tofile(os.path.join(d, "x.bin"))
            b.cpu().numpy().tofile(os.path.join(d, "b.bin"))
            want = y.cpu().numpy()
            ttirs = {}
            raw = os.path.join(d, "frontend.ttir")
            run([sys.executable, os.path.join(ROOT, "scripts", "ttir_from_py.py"), "--py",
                 os.path.join(ROOT, c["py"]), "--kernel", c["kernel"], "--signature", c["signature"],
                 "--constexprs", c["constexprs"], "--arch", str(arch), "-o", raw], log, env=env)
            ttirs["frontend"] = raw
            asm = getattr(compiled, "asm", {}) or {}
            if "ttir" in asm:
                jit = os.path.join(d, "jit.ttir")
                with open(jit, "w") as f:
                    f.write(asm["ttir"])
                ttirs["jit"] = jit
            for how, path in ttirs.items():
                prefix = "%s_%s" % (c["name"], how)
                try:
                    run([args.ctriton, "aot", "--ttir", path, "--name", prefix, "--arch", str(arch),
                         "-o", d], log, env=env)
                    exe = os.path.join(d, prefix)
                    run([args.cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-DPREFIX=" + prefix,
                         '-DHEADER="%s.h"' % prefix, "-D" + c["kind"], "-I" + d,
                         os.path.join(ROOT, "scripts", "gpu", "aot_ttir_main.c"),
                         os.path.join(d, prefix + ".c"), "-o", exe, "-ldl", "-lpthread"], log)
                    out = os.path.join(d, prefix + ".out")
                    cmd = [exe, str(m), str(n), os.path.join(d, "x.bin")]
                    if c["kind"] == "KIND_BIAS_GELU":
                        cmd.append(os.path.join(d, "b.bin"))
                    run(cmd + [out], log)
                    import numpy as np
                    got = np.fromfile(out, dtype=np.float32).reshape(m, n)
                    same = got.view(np.uint32) == want.view(np.uint32)
                    ok = bool(same.all())
                    worst = float(np.abs(got.astype(np.float64) - want.astype(np.float64)).max())
                    line = "%-22s %s  %d of %d elements bitwise equal to Python's launch (max |diff| %.3g)" % (
                        prefix, "PASS" if ok else "FAIL", int(same.sum()), same.size, worst)
                except Exception as e:  # one case's failure must not hide the others
                    ok, line = False, "%-22s FAIL  %s" % (prefix, str(e).strip().splitlines()[0])
                failures += not ok
                report.write(line + "\n")
                print(line, flush=True)
        report.write("\n%s\n" % ("all passed" if not failures else "%d failed (see aot_ttir_work/log.txt)" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
