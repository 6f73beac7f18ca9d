/* Softmax in the persistent form.  Python original: kernels/py/softmax_persistent.py */
#include "kernels.h"

TL_KERNEL(softmax_persistent_kernel,
          (output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols),
          (int, BLOCK_SIZE), (int, NUM_STAGES))
{
    // each program starts at its own row and steps over the grid
    tl_tensor row_start = tl_program_id(0);
    tl_tensor row_step = tl_num_programs(0);
    TL_FOR(row_idx, tl_range(row_start, n_rows, row_step, .num_stages = NUM_STAGES)) {
        tl_tensor row_start_ptr = tl_add(input_ptr, tl_mul(row_idx, input_row_stride));
        tl_tensor col_offsets = tl_arange(0, BLOCK_SIZE);
        tl_tensor input_ptrs = tl_add(row_start_ptr, col_offsets);
        tl_tensor mask = tl_lt(col_offsets, n_cols);
        tl_tensor row = tl_load(input_ptrs, .mask = mask, .other = tl_c(-INFINITY));
        tl_tensor row_minus_max = tl_sub(row, tl_max(row, .axis = 0));
        tl_tensor numerator = tl_exp(row_minus_max);
        tl_tensor denominator = tl_sum(numerator, .axis = 0);
        tl_tensor softmax_output = tl_div(numerator, denominator);
        tl_tensor output_row_start_ptr = tl_add(output_ptr, tl_mul(row_idx, output_row_stride));
        tl_tensor output_ptrs = tl_add(output_row_start_ptr, col_offsets);
        tl_store(output_ptrs, softmax_output, .mask = mask);
    }
}

TL_CONFIGS(softmax_persistent_kernel,
    {.name = "B1024_S2", .signature = "output_ptr=*fp32:16 input_ptr=*fp32:16 input_row_stride=i32 "
                                      "output_row_stride=i32 n_rows=i32 n_cols=i32",
     .constexprs = "BLOCK_SIZE=1024 NUM_STAGES=2", .problem = "M=100 N=1000 G=32", .num_warps = 8},
    {.name = "B256_S3", .signature = "output_ptr=*fp32:16 input_ptr=*fp32:16 input_row_stride=i32:16 "
                                     "output_row_stride=i32:16 n_rows=i32:16 n_cols=i32:16",
     .constexprs = "BLOCK_SIZE=256 NUM_STAGES=3", .problem = "M=64 N=256 G=16", .num_warps = 4});
