/* Per-token-group fp8 quantization.  Python original: kernels/py/quant_fp8.py */
#include "kernels.h"

TL_KERNEL(per_token_group_quant_fp8_kernel,
          (y_ptr, y_q_ptr, y_s_ptr, group_size, y_num_columns, y_row_stride, eps, fp8_min, fp8_max),
          (int, BLOCK))
{
    tl_tensor groups_per_row = tl_floordiv(y_num_columns, group_size);
    // map the program id to the row of y it should compute
    tl_tensor g_id = tl_program_id(0);
    tl_tensor row = tl_floordiv(g_id, groups_per_row);
    tl_tensor row_g_id = tl_mod(g_id, groups_per_row);
    y_ptr = tl_add(y_ptr, tl_add(tl_mul(tl_to(row, tl_int64), y_row_stride), tl_mul(tl_to(row_g_id, tl_int64), group_size)));
    y_q_ptr = tl_add(y_q_ptr, tl_mul(tl_to(g_id, tl_int64), group_size));
    y_s_ptr = tl_add(y_s_ptr, g_id);
    tl_tensor cols = tl_arange(0, BLOCK);
    tl_tensor mask = tl_lt(cols, group_size);
    tl_tensor y = tl_to(tl_load(tl_add(y_ptr, cols), .mask = mask, .other = tl_c(0.0)), tl_float32);
    // quantize
    tl_tensor _absmax = tl_maximum(tl_max(tl_abs(y)), eps);
    tl_tensor y_s = tl_div(_absmax, fp8_max);
    tl_tensor y_q = tl_to(tl_clamp(tl_div(y, y_s), fp8_min, fp8_max), tl_element_ty(y_q_ptr));
    tl_store(tl_add(y_q_ptr, cols), y_q, .mask = mask);
    tl_store(y_s_ptr, y_s);
}

TL_CONFIGS(per_token_group_quant_fp8_kernel,
    {.name = "g128", .signature = "y_ptr=*fp16:16 y_q_ptr=*fp8e4nv:16 y_s_ptr=*fp32:16 group_size=i32:16 "
                                  "y_num_columns=i32:16 y_row_stride=i32:16 eps=fp32 fp8_min=fp32 fp8_max=fp32",
     .constexprs = "BLOCK=128", .problem = "M=32 N=1024 G=128", .num_warps = 4},
    {.name = "g100_bf16", .signature = "y_ptr=*bf16:16 y_q_ptr=*fp8e4nv:16 y_s_ptr=*fp32:16 group_size=i32 "
                                       "y_num_columns=i32 y_row_stride=i32 eps=fp32 fp8_min=fp32 fp8_max=fp32",
     .constexprs = "BLOCK=128", .problem = "M=16 N=700 G=100", .num_warps = 4});
