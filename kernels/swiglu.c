/* SwiGLU forward.  Python original: kernels/py/swiglu.py */
#include "kernels.h"

TL_JIT(silu, (x))
{
    return tl_mul(x, tl_sigmoid(x));
}

TL_KERNEL(swiglu_kernel, (a_ptr, b_ptr, c_ptr, stride, n_cols), (int, BLOCK_SIZE))
{
    tl_tensor program_id = tl_to(tl_program_id(0), tl_int64);
    // locate the start of the row
    a_ptr = tl_add(a_ptr, tl_mul(program_id, stride));
    b_ptr = tl_add(b_ptr, tl_mul(program_id, stride));
    c_ptr = tl_add(c_ptr, tl_mul(program_id, stride));
    tl_tensor col_offsets = tl_arange(0, BLOCK_SIZE);
    tl_tensor mask = tl_lt(col_offsets, n_cols);
    // sigmoid in fp32
    tl_tensor a_row = tl_to(tl_load(tl_add(a_ptr, col_offsets), .mask = mask, .other = tl_c(0)), tl_float32);
    tl_tensor b_row = tl_load(tl_add(b_ptr, col_offsets), .mask = mask, .other = tl_c(0));
    tl_tensor c_row = tl_mul(tl_cast(TL_CALL(silu, a_row), tl_dtype_of(b_row)), b_row);
    tl_store(tl_add(c_ptr, col_offsets), c_row, .mask = mask);
}

TL_CONFIGS(swiglu_kernel,
    {.name = "fp16_N4096", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 stride=i32:16 n_cols=i32:16",
     .constexprs = "BLOCK_SIZE=4096", .problem = "M=16 N=4096", .num_warps = 8},
    {.name = "fp32_N1000", .signature = "a_ptr=*fp32:16 b_ptr=*fp32:16 c_ptr=*fp32:16 stride=i32 n_cols=i32",
     .constexprs = "BLOCK_SIZE=1024", .problem = "M=24 N=1000", .num_warps = 4});
