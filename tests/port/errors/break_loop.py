# expect: 10: `break`
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    for i in range(n):
        if i > 3:
            break
    tl.store(x_ptr, 1.0)
