# GELU with the tanh approximation: module-level constexprs and aliases, a
# @jit helper with a docstring, a constexpr string picking the variant.
# config: gelu_kernel tanh_fp16 | x_ptr=*fp16:16 y_ptr=*fp16:16 n=i32 | BLOCK=512 APPROX='tanh'
# config: gelu_kernel erf_fp32 | x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32:16 | BLOCK=1024 APPROX='none'
import triton
import triton.language as tl
from triton.language.extra import libdevice

SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)
COEFF = tl.constexpr(0.044715)
tanh = libdevice.tanh
erf = tl.erf


@triton.jit
def _gelu(x, APPROX: tl.constexpr):
    """The GELU of an fp32 tensor."""
    if APPROX == "tanh":
        inner = SQRT_2_OVER_PI * (x + COEFF * x * x * x)
        return 0.5 * x * (1.0 + tanh(inner))
    else:
        return 0.5 * x * (1.0 + erf(x * 0.7071067811865476))


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, APPROX: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = _gelu(x.to(tl.float32), APPROX)  # the math in fp32
    tl.store(y_ptr + offs, y.to(x.dtype), mask=mask)
