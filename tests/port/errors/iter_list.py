# expect: 8: only range(), tl.range() and tl.static_range() loops
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    for s in [1, 2, 3]:
        tl.store(x_ptr + s, 1.0)
