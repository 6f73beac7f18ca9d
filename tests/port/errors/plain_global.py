# expect: 10: `SCALE` is a global that is not a tl.constexpr(...)
import triton
import triton.language as tl

SCALE: tl.constexpr = 0.5


@triton.jit
def k(x_ptr):
    tl.store(x_ptr, SCALE)
