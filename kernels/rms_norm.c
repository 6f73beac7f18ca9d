/* RMSNorm forward.  Python original: kernels/py/rms_norm.py */
#include "kernels.h"

TL_KERNEL(rms_norm_fwd_kernel, (X, Y, W, Rstd, stride, N, eps), (int, BLOCK_SIZE))
{
    tl_tensor row = tl_program_id(0);
    X = tl_add(X, tl_mul(row, stride)); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    Y = tl_add(Y, tl_mul(row, stride)); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    // sum of squares over the row
    tl_tensor _sum_sq = tl_zeros(tl_shape(BLOCK_SIZE), tl_float32);
    TL_FOR(off, tl_range(0, N, BLOCK_SIZE), _sum_sq) {
        tl_tensor cols = tl_add(off, tl_arange(0, BLOCK_SIZE));
        tl_tensor x = tl_to(tl_load(tl_add(X, cols), .mask = tl_lt(cols, N), .other = tl_c(0.)), tl_float32);
        _sum_sq = tl_add(_sum_sq, tl_mul(x, x));
    }
    tl_tensor rstd = tl_rsqrt(tl_add(tl_div(tl_sum(_sum_sq, .axis = 0), N), eps));
    tl_store(tl_add(Rstd, row), rstd);
    // scale
    TL_FOR(off, tl_range(0, N, BLOCK_SIZE)) {
        tl_tensor cols = tl_add(off, tl_arange(0, BLOCK_SIZE));
        tl_tensor mask = tl_lt(cols, N);
        tl_tensor x = tl_to(tl_load(tl_add(X, cols), .mask = mask, .other = tl_c(0.)), tl_float32);
        tl_tensor w = tl_to(tl_load(tl_add(W, cols), .mask = mask), tl_float32);
        tl_tensor y = tl_mul(tl_mul(x, rstd), w);
        tl_store(tl_add(Y, cols), tl_to(y, tl_element_ty(Y)), .mask = mask);
    }
}

TL_CONFIGS(rms_norm_fwd_kernel,
    {.name = "bf16_N1000", .signature = "X=*bf16:16 Y=*bf16:16 W=*bf16:16 Rstd=*fp32:16 stride=i32 "
                                        "N=i32 eps=fp32",
     .constexprs = "BLOCK_SIZE=512", .problem = "M=40 N=1000", .num_warps = 4},
    {.name = "fp32_N2048", .signature = "X=*fp32:16 Y=*fp32:16 W=*fp32:16 Rstd=*fp32:16 stride=i32:16 "
                                        "N=i32:16 eps=fp32",
     .constexprs = "BLOCK_SIZE=1024", .problem = "M=32 N=2048", .num_warps = 8});
