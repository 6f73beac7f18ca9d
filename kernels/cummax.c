/* Cumulative maximum with indices (torch.cummax) per block of a row, and each block's
 * maximum: user combine functions in tl.associative_scan and tl.reduce.
 * Python original: kernels/py/cummax.py */
#include "kernels.h"

TL_JIT_TUPLE(max_index_combine, (value1, index1, value2, index2))
{
    // the larger value wins; on a tie the larger index (the last occurrence, as
    // torch.cummax), which makes the result independent of the combining order
    tl_tensor take2 = tl_or(tl_gt(value2, value1), tl_and(tl_eq(value2, value1), tl_gt(index2, index1)));
    tl_tensor value = tl_where(take2, value2, value1);
    tl_tensor index = tl_where(take2, index2, index1);
    return tl_tuple(value, index);
}

TL_KERNEL(cummax_kernel, (x_ptr, values_ptr, indices_ptr, block_max_ptr, block_idx_ptr, n_cols),
          (int, BLOCK_SIZE))
{
    tl_tensor row = tl_program_id(0);
    tl_tensor block = tl_program_id(1);
    tl_tensor offs = tl_add(tl_mul(block, BLOCK_SIZE), tl_arange(0, BLOCK_SIZE));
    tl_tensor mask = tl_lt(offs, n_cols);
    tl_tensor x = tl_load(tl_add(tl_add(x_ptr, tl_mul(row, n_cols)), offs), .mask = mask, .other = tl_c(-INFINITY)); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    // lanes past the row's end lose every tie
    tl_tensor idx = tl_where(mask, offs, -1);
    tl_tensor values, indices;
    TL_UNPACK(tl_associative_scan(tl_tuple(x, idx), 0, max_index_combine), values, indices);
    tl_store(tl_add(tl_add(values_ptr, tl_mul(row, n_cols)), offs), values, .mask = mask); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    tl_store(tl_add(tl_add(indices_ptr, tl_mul(row, n_cols)), offs), indices, .mask = mask); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    tl_tensor block_max, block_idx;
    TL_UNPACK(tl_reduce(tl_tuple(x, idx), 0, max_index_combine), block_max, block_idx);
    tl_tensor num_blocks = tl_num_programs(1);
    tl_store(tl_add(tl_add(block_max_ptr, tl_mul(row, num_blocks)), block), block_max);
    tl_store(tl_add(tl_add(block_idx_ptr, tl_mul(row, num_blocks)), block), block_idx);
}

TL_CONFIGS(cummax_kernel,
    {.name = "fp32_N3000_B1024", .signature = "x_ptr=*fp32:16 values_ptr=*fp32:16 indices_ptr=*i32:16 block_max_ptr=*fp32:16 block_idx_ptr=*i32:16 n_cols=i32",
     .constexprs = "BLOCK_SIZE=1024", .problem = "M=8 N=3000", .num_warps = 4},
    {.name = "fp16_N500_B256", .signature = "x_ptr=*fp16:16 values_ptr=*fp16:16 indices_ptr=*i32:16 block_max_ptr=*fp16:16 block_idx_ptr=*i32:16 n_cols=i32",
     .constexprs = "BLOCK_SIZE=256", .problem = "M=5 N=500", .num_warps = 2});
