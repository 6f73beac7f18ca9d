/* Top-k of each row with indices, through int64 keys (value bits, column) and tl.topk,
 * the row walked in blocks.  Python original: kernels/py/topk.py */
#include <stdint.h>

#include "kernels.h"

TL_KERNEL(topk_kernel, (x_ptr, values_ptr, indices_ptr, row_stride, n_cols), (int, K), (int, BLOCK_N))
{
    tl_tensor row = tl_to(tl_program_id(0), tl_int64);
    x_ptr = tl_add(x_ptr, tl_mul(row, row_stride));
    tl_tensor best = tl_full(tl_shape(K), INT64_MIN, tl_int64);
    TL_FOR(off, tl_range(0, n_cols, BLOCK_N), best) {
        tl_tensor cols = tl_add(off, tl_arange(0, BLOCK_N));
        tl_tensor mask = tl_lt(cols, n_cols);
        tl_tensor x = tl_to(tl_load(tl_add(x_ptr, cols), .mask = mask, .other = tl_c(0.)), tl_float32);
        tl_tensor bits = tl_to(x, tl_int32, .bitcast = true);
        bits = tl_where(tl_lt(bits, 0), tl_xor(bits, 0x7fffffff), bits);
        tl_tensor key = tl_or(tl_shl(tl_to(bits, tl_int64), 32), tl_to(tl_sub(0x7fffffff, cols), tl_int64));
        key = tl_where(mask, key, INT64_MIN);
        tl_tensor top = tl_topk(key, K);
        best = tl_topk(tl_reshape(tl_join(best, top), tl_shape(2 * K)), K);
    }
    // back from the keys to the values and the columns
    tl_tensor bits = tl_to(tl_shr(best, 32), tl_int32);
    bits = tl_where(tl_lt(bits, 0), tl_xor(bits, 0x7fffffff), bits);
    tl_tensor values = tl_to(bits, tl_float32, .bitcast = true);
    tl_tensor indices = tl_sub(0x7fffffff, tl_to(tl_and(best, 0x7fffffff), tl_int32));
    tl_tensor out = tl_add(tl_mul(row, K), tl_arange(0, K));
    tl_store(tl_add(values_ptr, out), tl_to(values, tl_element_ty(values_ptr)));
    tl_store(tl_add(indices_ptr, out), indices);
}

TL_CONFIGS(topk_kernel,
    {.name = "fp32_V32000_k8", .signature = "x_ptr=*fp32:16 values_ptr=*fp32:16 indices_ptr=*i32:16 row_stride=i32:16 n_cols=i32:16",
     .constexprs = "K=8 BLOCK_N=1024", .problem = "M=6 N=32000", .num_warps = 4},
    {.name = "bf16_V1000_k64_tail", .signature = "x_ptr=*bf16:16 values_ptr=*bf16:16 indices_ptr=*i32:16 row_stride=i32 n_cols=i32",
     .constexprs = "K=64 BLOCK_N=256", .problem = "M=5 N=1000", .num_warps = 4},
    {.name = "fp16_V50257_k16", .signature = "x_ptr=*fp16:16 values_ptr=*fp16:16 indices_ptr=*i32:16 row_stride=i32 n_cols=i32",
     .constexprs = "K=16 BLOCK_N=2048", .problem = "M=3 N=50257", .num_warps = 8});
