#!/usr/bin/env python3
"""The TTIR of a kernel written in Python, specialized the way Triton's JIT does.

    ttir_from_py.py --py kernels/py/softmax.py --kernel softmax_kernel \\
        --signature "x_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32" --constexprs "BLOCK_SIZE=1024" \\
        -o softmax.ttir

writes the raw TTIR Triton's frontend makes for that specialization (what
Triton keeps as the `.source` of a compiled kernel): constexprs folded in,
`:16` arguments marked tt.divisibility = 16, arguments given as `1` dropped.
The signature and constexprs are ctriton's strings (docs/cheatsheet.md,
"Kernels and configs").  Then, with no C port:

    ctriton aot --ttir softmax.ttir --name softmax -o gen     # a C launcher, cubins embedded
    ctriton run --ttir softmax.ttir --grid 64 --arg 'fp32[64000]' --arg 'fp32[64000]:out' --arg 1000
    ctriton lint --ttir softmax.ttir

The same TTIR comes from a Python program: `k = kernel.warmup(..., grid=(1,))`
then `k.asm["source"]` (or `["ttir"]`, after Triton's ttir passes; both lower
alike).  Needs Triton (the version ctriton targets), no GPU.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--py", required=True, help="the Python file defining the @triton.jit kernel")
    ap.add_argument("--kernel", required=True, help="the kernel's name in it")
    ap.add_argument("--signature", required=True, help='"x_ptr=*fp32:16 n=i32" (ctriton\'s form)')
    ap.add_argument("--constexprs", default="", help='"BLOCK_SIZE=1024 ACTIVATION=\'gelu\'"')
    ap.add_argument("--num-warps", type=int, default=4)
    ap.add_argument("--num-stages", type=int, default=3)
    ap.add_argument("--arch", type=int, default=90, help="the target the frontend specializes for")
    ap.add_argument("-o", "--out", required=True, help="the TTIR file to write ('-': stdout)")
    args = ap.parse_args()
    import fidelity  # parse_signature: ctriton's signature strings -> Triton's
    # line info as Triton keeps it (fidelity turns it off): locations point at the Python source
    os.environ.pop("TRITON_DISABLE_LINE_INFO", None)
    from triton._C.libtriton import ir
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend

    k = {"py": os.path.abspath(args.py), "kernel": args.kernel, "signature": args.signature,
         "constexprs": args.constexprs}
    try:
        fn, sig, consts, attrs = fidelity.parse_signature(k)
    except (AttributeError, IndexError, KeyError, ValueError) as e:
        sys.exit("ttir_from_py: %s in %s: %s" % (args.kernel, args.py, e))
    backend = make_backend(GPUTarget("cuda", args.arch, 32))
    src = ASTSource(fn, sig, consts, attrs)
    options = backend.parse_options(dict({"num_warps": args.num_warps, "num_stages": args.num_stages},
                                         **src.parse_options()))
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    mod = src.make_ir(backend.target, options, backend.get_codegen_implementation(options),
                      backend.get_module_map(), ctx)
    text = str(mod)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
