#!/usr/bin/env python3
"""Compares the short TTGIR pipeline (python/ctriton/_ttgir.py) with Triton's full
make_ttgir on every kernel a Python program compiles for the emulator.

    PYTHONPATH=python CTRITON_LIBRARY=build/libctriton.so \\
        python scripts/check_ttgir_layouts.py [--log FILE] PROGRAM.py [ARGS...]
    python scripts/check_ttgir_layouts.py --log FILE -m pytest [PYTEST ARGS...]

PROGRAM runs as under CTRITON_INTERPRET=1 (ctriton.install() first).  Each time the
package runs Triton's frontend on a kernel with reductions or scans, the kernel's TTIR
is made twice more and taken through both pipelines, and their layout tables
(ct_emu_layouts_from_ttgir) compared; a line per kernel goes to the log (JSON: kernel,
num_warps, the number of layouts, equal, the two pipelines' milliseconds).  At exit it
prints a summary and exits 1 on a difference.  A pipeline that fails counts as a
table of None (the emulator then keeps its default layouts).  Run it on a new Triton
release's test suite before adding the release to _ttgir._SHORT.  Set
TRITON_ALWAYS_COMPILE=1 (or an empty CTRITON_CACHE_DIR) so that kept specializations
are compiled again.
"""
import atexit
import json
import os
import runpy
import sys


def main():
    argv = sys.argv[1:]
    log = None
    if argv[:1] == ["--log"]:
        log, argv = argv[1], argv[2:]
    if not argv:
        sys.exit(__doc__)
    import ctriton
    from ctriton import _jit, _ttgir
    ctriton.install()
    seen = {"n": 0, "diff": []}
    frontend = _jit._frontend

    def checked(fn, src, options):
        asm = frontend(fn, src, options)
        if "tt.reduce" not in asm["source"] and "tt.scan" not in asm["source"]:
            return asm
        both = _ttgir.compare(src, options)
        (short, t_short), (full, t_full) = both["short"], both["full"]
        tab = _ttgir.layout_table(asm["ttgir"]) if "ttgir" in asm else None
        code = getattr(fn.fn, "__code__", None)
        rec = {"kernel": fn.__name__, "file": code and code.co_filename, "num_warps": options.num_warps,
               "num_stages": options.num_stages, "layouts": None if tab is None else len(tab),
               "equal": full == short, "full_failed": full is None, "full_ms": round(t_full, 2),
               "short_ms": round(t_short, 2)}
        seen["n"] += 1
        if full != short:
            seen["diff"].append(rec)
            sys.stderr.write("check_ttgir_layouts: DIFFERENT layout tables: %s\n" % json.dumps(rec))
        if log:
            with open(log, "a") as f:
                f.write(json.dumps(rec) + "\n")
        return asm

    _jit._frontend = checked

    def summary():
        sys.stderr.write("check_ttgir_layouts: %d kernels with reductions or scans compared, %d different\n" %
                         (seen["n"], len(seen["diff"])))
        if seen["diff"]:
            os._exit(1)

    atexit.register(summary)
    if argv[0] == "-m":
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
