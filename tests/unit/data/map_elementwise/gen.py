"""Writes the TTIR of two tl.map_elementwise kernels as Triton 3.6 emits it, for
tests/unit/test_emu_map.c: raw (the frontend's output, the scalar function a tt.call in the
region) and after Triton's ttir passes (inlined: branches in the region).  From the
repository root, with triton 3.6.0 installed:

    python tests/unit/data/map_elementwise/gen.py
"""
import os

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia.compiler import CUDABackend
from triton._C.libtriton import ir


@triton.jit
def selu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def selu_kernel(x_ptr, y_ptr, alpha, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.map_elementwise(selu_scalar, x, alpha)
    tl.store(y_ptr + offs, y)


@triton.jit
def pair_scalar(a0, a1, b0, b1):
    # pack=2: two elements of each input; two results of two elements each
    if a0 > b0:
        s0 = a0 - b0
    else:
        s0 = b0 - a0
    return s0, a1 + b1, a0 * b0, a1 * b1


@triton.jit
def pair_kernel(x_ptr, y_ptr, s_ptr, p_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    s, p = tl.map_elementwise(pair_scalar, x, y, pack=2)
    tl.store(s_ptr + offs, s)
    tl.store(p_ptr + offs, p)


def relative(text):
    # locations name this file relative to the repository root
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
    return text.replace(root + "/", "")


def main():
    out = os.path.dirname(__file__)
    target = GPUTarget("cuda", 90, 32)
    backend = CUDABackend(target)
    opts = backend.parse_options({})
    cases = [
        ("selu", selu_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "alpha": "fp32", "N": "constexpr"},
         {"N": 256}),
        ("pair", pair_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "s_ptr": "*fp32", "p_ptr": "*fp32",
                               "N": "constexpr"}, {"N": 256}),
    ]
    for name, fn, sig, cx in cases:
        src = triton.compiler.ASTSource(fn=fn, signature=sig, constexprs=cx)
        ctx = ir.context()
        ir.load_dialects(ctx)
        backend.load_dialects(ctx)
        raw = src.make_ir(target, opts, backend.get_codegen_implementation(opts), backend.get_module_map(), ctx)
        with open(os.path.join(out, f"{name}.raw.ttir"), "w") as f:
            f.write(relative(str(raw)))
        compiled = triton.compile(src, target=target)
        with open(os.path.join(out, f"{name}.ttir"), "w") as f:
            f.write(relative(compiled.asm["ttir"]))


if __name__ == "__main__":
    main()
