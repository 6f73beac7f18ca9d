# GeGLU forward with the tanh form of GELU:
#   c = 0.5 * a * (1 + tanh(sqrt(2 / pi) * (a + 0.044715 * a^3))) * b
# The C port is kernels/geglu.c.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def geglu_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    # locate the start of the row
    a_ptr += program_id * stride
    b_ptr += program_id * stride
    c_ptr += program_id * stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    a_row = tl.load(a_ptr + col_offsets, mask=mask, other=0).to(tl.float32)
    b_row = tl.load(b_ptr + col_offsets, mask=mask, other=0)
    # tanh approximation of GELU
    sqrt_2_over_pi = 0.7978845608028654
    a_cubed = a_row * a_row * a_row
    tanh_arg = sqrt_2_over_pi * (a_row + 0.044715 * a_cubed)
    tanh_result = libdevice.tanh(tanh_arg)
    geglu_a = 0.5 * a_row * (1 + tanh_result)
    c_row = geglu_a.cast(b_row.dtype) * b_row
    tl.store(c_ptr + col_offsets, c_row, mask=mask)
