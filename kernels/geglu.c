/* GeGLU forward, tanh form.  Python original: kernels/py/geglu.py */
#include "kernels.h"

TL_KERNEL(geglu_kernel, (a_ptr, b_ptr, c_ptr, stride, n_cols), (int, BLOCK_SIZE))
{
    tl_tensor program_id = tl_to(tl_program_id(0), tl_int64);
    // locate the start of the row
    a_ptr = tl_add(a_ptr, tl_mul(program_id, stride));
    b_ptr = tl_add(b_ptr, tl_mul(program_id, stride));
    c_ptr = tl_add(c_ptr, tl_mul(program_id, stride));
    tl_tensor col_offsets = tl_arange(0, BLOCK_SIZE);
    tl_tensor mask = tl_lt(col_offsets, n_cols);
    tl_tensor a_row = tl_to(tl_load(tl_add(a_ptr, col_offsets), .mask = mask, .other = tl_c(0)), tl_float32);
    tl_tensor b_row = tl_load(tl_add(b_ptr, col_offsets), .mask = mask, .other = tl_c(0));
    // tanh approximation of GELU
    tl_tensor sqrt_2_over_pi = tl_to_tensor(0.7978845608028654); /* Python: a literal assigned to a name is a tensor */
    tl_tensor a_cubed = tl_mul(tl_mul(a_row, a_row), a_row);
    tl_tensor tanh_arg = tl_mul(sqrt_2_over_pi, tl_add(a_row, tl_mul(0.044715, a_cubed)));
    tl_tensor tanh_result = tl_libdevice("tanh", tanh_arg);
    tl_tensor geglu_a = tl_mul(tl_mul(0.5, a_row), tl_add(1, tanh_result));
    tl_tensor c_row = tl_mul(tl_cast(geglu_a, tl_dtype_of(b_row)), b_row);
    tl_store(tl_add(c_ptr, col_offsets), c_row, .mask = mask);
}

TL_CONFIGS(geglu_kernel,
    {.name = "bf16_N2048", .signature = "a_ptr=*bf16:16 b_ptr=*bf16:16 c_ptr=*bf16:16 stride=i32:16 n_cols=i32:16",
     .constexprs = "BLOCK_SIZE=2048", .problem = "M=16 N=2048", .num_warps = 8},
    {.name = "fp32_N1000", .signature = "a_ptr=*fp32:16 b_ptr=*fp32:16 c_ptr=*fp32:16 stride=i32 n_cols=i32",
     .constexprs = "BLOCK_SIZE=1024", .problem = "M=20 N=1000", .num_warps = 4});
