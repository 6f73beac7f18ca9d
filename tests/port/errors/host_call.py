# expect: 12: `scale_of` is a Python function (not @triton.jit)
import triton
import triton.language as tl


def scale_of(n):
    return 1.0 / n


@triton.jit
def k(x_ptr, n):
    s = scale_of(n)
    tl.store(x_ptr, s)
