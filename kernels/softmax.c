/* Row-wise softmax, one program per row.  Python original: kernels/py/softmax.py */
#include "kernels.h"

TL_KERNEL(softmax_kernel, (x_ptr, y_ptr, n_cols), (int, BLOCK_SIZE))
{
    tl_tensor row = tl_program_id(0);
    tl_tensor row_start = tl_mul(row, n_cols); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    tl_tensor cols = tl_arange(0, BLOCK_SIZE);
    tl_tensor mask = tl_lt(cols, n_cols);
    tl_tensor x = tl_load(tl_add(tl_add(x_ptr, row_start), cols), .mask = mask, .other = tl_c(-INFINITY));
    x = tl_sub(x, tl_max(x, .axis = 0));
    tl_tensor num = tl_exp(x);
    tl_tensor y = tl_div(num, tl_sum(num, .axis = 0));
    tl_store(tl_add(tl_add(y_ptr, row_start), cols), y, .mask = mask);
}

TL_CONFIGS(softmax_kernel,
    {.name = "B1024", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32",
     .constexprs = "BLOCK_SIZE=1024", .problem = "M=64 N=1000", .num_warps = 4},
    {.name = "B128", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32:16",
     .constexprs = "BLOCK_SIZE=128", .problem = "M=33 N=128", .num_warps = 4});
