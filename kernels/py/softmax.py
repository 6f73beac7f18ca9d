# Row-wise softmax, one program per row.  The C port is kernels/softmax.c.
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_start = row * n_cols
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row_start + cols, mask=mask, other=-float("inf"))  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row_start + cols, y, mask=mask)
