# expect: 8: chained comparison
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, m):
    tl.store(x_ptr, (0 < n < m).to(tl.float32))
