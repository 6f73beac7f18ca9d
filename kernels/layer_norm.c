/* LayerNorm forward.  Python original: kernels/py/layer_norm.py */
#include "kernels.h"

TL_KERNEL(layer_norm_fwd_kernel, (X, Y, W, B, Mean, Rstd, stride, N, eps), (int, BLOCK_SIZE))
{
    // map the program id to the row of X and Y it should compute
    tl_tensor row = tl_program_id(0);
    Y = tl_add(Y, tl_mul(row, stride)); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    X = tl_add(X, tl_mul(row, stride)); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    // compute the mean
    tl_tensor _mean = tl_zeros(tl_shape(BLOCK_SIZE), tl_float32);
    TL_FOR(off, tl_range(0, N, BLOCK_SIZE), _mean) {
        tl_tensor cols = tl_add(off, tl_arange(0, BLOCK_SIZE));
        tl_tensor a = tl_to(tl_load(tl_add(X, cols), .mask = tl_lt(cols, N), .other = tl_c(0.)), tl_float32);
        _mean = tl_add(_mean, a);
    }
    tl_tensor mean = tl_div(tl_sum(_mean, .axis = 0), N);
    // compute the variance
    tl_tensor _var = tl_zeros(tl_shape(BLOCK_SIZE), tl_float32);
    TL_FOR(off, tl_range(0, N, BLOCK_SIZE), _var) {
        tl_tensor cols = tl_add(off, tl_arange(0, BLOCK_SIZE));
        tl_tensor x = tl_to(tl_load(tl_add(X, cols), .mask = tl_lt(cols, N), .other = tl_c(0.)), tl_float32);
        x = tl_where(tl_lt(cols, N), tl_sub(x, mean), 0.);
        _var = tl_add(_var, tl_mul(x, x));
    }
    tl_tensor var = tl_div(tl_sum(_var, .axis = 0), N);
    tl_tensor rstd = tl_div(1, tl_sqrt(tl_add(var, eps)));
    // write the mean and 1/std of the row
    tl_store(tl_add(Mean, row), mean);
    tl_store(tl_add(Rstd, row), rstd);
    // normalize and apply the linear transformation
    TL_FOR(off, tl_range(0, N, BLOCK_SIZE)) {
        tl_tensor cols = tl_add(off, tl_arange(0, BLOCK_SIZE));
        tl_tensor mask = tl_lt(cols, N);
        tl_tensor w = tl_load(tl_add(W, cols), .mask = mask);
        tl_tensor b = tl_load(tl_add(B, cols), .mask = mask);
        tl_tensor x = tl_to(tl_load(tl_add(X, cols), .mask = mask, .other = tl_c(0.)), tl_float32);
        tl_tensor x_hat = tl_mul(tl_sub(x, mean), rstd);
        tl_tensor y = tl_add(tl_mul(x_hat, w), b);
        tl_store(tl_add(Y, cols), tl_to(y, tl_element_ty(Y)), .mask = mask);
    }
}

TL_CONFIGS(layer_norm_fwd_kernel,
    {.name = "fp16_N1000", .signature = "X=*fp16:16 Y=*fp16:16 W=*fp32:16 B=*fp32:16 Mean=*fp32:16 "
                                        "Rstd=*fp32:16 stride=i32 N=i32 eps=fp32",
     .constexprs = "BLOCK_SIZE=256", .problem = "M=48 N=1000", .num_warps = 4},
    {.name = "fp32_N4096", .signature = "X=*fp32:16 Y=*fp32:16 W=*fp32:16 B=*fp32:16 Mean=*fp32:16 "
                                        "Rstd=*fp32:16 stride=i32:16 N=i32:16 eps=fp32",
     .constexprs = "BLOCK_SIZE=1024", .problem = "M=32 N=4096", .num_warps = 8});
