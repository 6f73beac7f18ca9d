#!/usr/bin/env python3
"""Writes the parser corpus: Triton 3.6's raw (`.source`) and post-pass
(`.ttir`) IR for each kernel of tests/text/corpus_kernels.py, with line info
on (so the text carries #loc aliases, name locations and callsites).

Paths in locations are shortened the way the reference files are:
`corpus_kernels.py` and `triton/language/...`.

usage: python tests/text/gen_corpus.py [--out tests/text/corpus] [NAME...]
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "corpus"))
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    os.environ.pop("TRITON_DISABLE_LINE_INFO", None)
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
    sys.path.insert(0, HERE)
    import triton
    import corpus_kernels as ck
    from triton.backends.compiler import GPUTarget, Language
    from triton.compiler import ASTSource, make_backend
    from triton._C.libtriton import ir
    target = GPUTarget("cuda", 90, 32)
    backend = make_backend(target)
    tdir = os.path.dirname(triton.__file__)
    os.makedirs(args.out, exist_ok=True)
    failed = 0
    for name, fn, sig, consts, attrs in ck.CASES:
        if args.names and name not in args.names:
            continue
        tattrs = {}
        for key, idxs in attrs.items():
            for i in idxs:
                tattrs[(i,)] = [[key, 16]]
        src = ASTSource(fn, sig, consts, tattrs)
        try:
            # only the frontend and the ttir stage: no ptxas, no GPU
            opts = backend.parse_options(dict({"num_warps": 4, "debug": name == "debug_ops"},
                                              **src.parse_options()))
            ctx = ir.context()
            ir.load_dialects(ctx)
            backend.load_dialects(ctx)
            mod = src.make_ir(target, opts, backend.get_codegen_implementation(opts),
                              backend.get_module_map(), ctx)
            texts = {"source": str(mod)}
            stages = {}
            backend.add_stages(stages, opts, Language.TRITON)
            texts["ttir"] = str(stages["ttir"](mod, {"target": target, **opts.__dict__}))
        except Exception as e:  # report and go on: the others are still useful
            if os.environ.get("CORPUS_DEBUG"):
                raise
            print("%s: %s" % (name, str(e).splitlines()[-1] if str(e) else e), file=sys.stderr)
            failed += 1
            continue
        for ext in ("source", "ttir"):
            text = texts[ext]
            text = text.replace(os.path.join(HERE, ""), "").replace(tdir, "triton")
            with open(os.path.join(args.out, "%s.%s" % (name, ext)), "w") as f:
                f.write(text)
        print(name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
