/* Matrix multiplication with grouped tile order.  Python original: kernels/py/matmul.py */
#include <string.h>

#include "kernels.h"

TL_JIT(leaky_relu, (x))
{
    return tl_where(tl_ge(x, 0), x, tl_mul(0.01, x));
}

TL_KERNEL(matmul_kernel,
          (a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn),
          (int, BLOCK_SIZE_M), (int, BLOCK_SIZE_N), (int, BLOCK_SIZE_K), (int, GROUP_SIZE_M),
          (const char *, ACTIVATION))
{
    // map the program id to the tile of C it computes, in grouped order
    tl_tensor pid = tl_program_id(0);
    tl_tensor num_pid_m = tl_cdiv(M, BLOCK_SIZE_M);
    tl_tensor num_pid_n = tl_cdiv(N, BLOCK_SIZE_N);
    tl_tensor num_pid_in_group = tl_mul(GROUP_SIZE_M, num_pid_n);
    tl_tensor group_id = tl_floordiv(pid, num_pid_in_group);
    tl_tensor first_pid_m = tl_mul(group_id, GROUP_SIZE_M);
    tl_tensor group_size_m = tl_builtin_min(tl_sub(num_pid_m, first_pid_m), GROUP_SIZE_M);
    tl_tensor pid_m = tl_add(first_pid_m, tl_mod(tl_mod(pid, num_pid_in_group), group_size_m));
    tl_tensor pid_n = tl_floordiv(tl_mod(pid, num_pid_in_group), group_size_m);
    tl_assume(tl_ge(pid_m, 0));
    tl_assume(tl_ge(pid_n, 0));
    tl_assume(tl_gt(stride_am, 0));
    tl_assume(tl_gt(stride_ak, 0));
    tl_assume(tl_gt(stride_bn, 0));
    tl_assume(tl_gt(stride_bk, 0));
    tl_assume(tl_gt(stride_cm, 0));
    tl_assume(tl_gt(stride_cn, 0));
    // pointers to the first blocks of A and B
    tl_tensor offs_am = tl_mod(tl_add(tl_mul(pid_m, BLOCK_SIZE_M), tl_arange(0, BLOCK_SIZE_M)), M);
    tl_tensor offs_bn = tl_mod(tl_add(tl_mul(pid_n, BLOCK_SIZE_N), tl_arange(0, BLOCK_SIZE_N)), N);
    tl_tensor offs_k = tl_arange(0, BLOCK_SIZE_K);
    tl_tensor a_ptrs = tl_add(a_ptr, tl_add(tl_mul(tl_idx(offs_am, ":, None"), stride_am), tl_mul(tl_idx(offs_k, "None, :"), stride_ak)));
    tl_tensor b_ptrs = tl_add(b_ptr, tl_add(tl_mul(tl_idx(offs_k, ":, None"), stride_bk), tl_mul(tl_idx(offs_bn, "None, :"), stride_bn)));
    // accumulate over K
    tl_tensor accumulator = tl_zeros(tl_shape(BLOCK_SIZE_M, BLOCK_SIZE_N), tl_float32);
    TL_FOR(k, tl_range(0, tl_cdiv(K, BLOCK_SIZE_K), 1), a_ptrs, b_ptrs, accumulator) {
        tl_tensor a = tl_load(a_ptrs, .mask = tl_lt(tl_idx(offs_k, "None, :"), tl_sub(K, tl_mul(k, BLOCK_SIZE_K))), .other = tl_c(0.0));
        tl_tensor b = tl_load(b_ptrs, .mask = tl_lt(tl_idx(offs_k, ":, None"), tl_sub(K, tl_mul(k, BLOCK_SIZE_K))), .other = tl_c(0.0));
        accumulator = tl_dot(a, b, .acc = accumulator);
        a_ptrs = tl_add(a_ptrs, tl_mul(BLOCK_SIZE_K, stride_ak));
        b_ptrs = tl_add(b_ptrs, tl_mul(BLOCK_SIZE_K, stride_bk));
    }
    if (ACTIVATION && strcmp(ACTIVATION, "leaky_relu") == 0)
        accumulator = TL_CALL(leaky_relu, accumulator);
    tl_tensor c = tl_to(accumulator, tl_float16);
    // write back the tile of C
    tl_tensor offs_cm = tl_add(tl_mul(pid_m, BLOCK_SIZE_M), tl_arange(0, BLOCK_SIZE_M));
    tl_tensor offs_cn = tl_add(tl_mul(pid_n, BLOCK_SIZE_N), tl_arange(0, BLOCK_SIZE_N));
    tl_tensor c_ptrs = tl_add(tl_add(c_ptr, tl_mul(stride_cm, tl_idx(offs_cm, ":, None"))), tl_mul(stride_cn, tl_idx(offs_cn, "None, :")));
    tl_tensor c_mask = tl_and(tl_lt(tl_idx(offs_cm, ":, None"), M), tl_lt(tl_idx(offs_cn, "None, :"), N));
    tl_store(c_ptrs, c, .mask = c_mask);
}

TL_CONFIGS(matmul_kernel,
    {.name = "fp16_128x128x64", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32:16 N=i32:16 K=i32:16 "
                                             "stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 stride_cn=1",
     .constexprs = "BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None",
     .problem = "M=512 N=512 K=512", .num_warps = 8, .num_stages = 3},
    {.name = "fp16_64x64x32_relu_tail", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32 N=i32 K=i32 "
                                                     "stride_am=i32 stride_ak=1 stride_bk=i32 stride_bn=1 stride_cm=i32 stride_cn=1",
     .constexprs = "BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=32 GROUP_SIZE_M=4 ACTIVATION='leaky_relu'",
     .problem = "M=200 N=136 K=100", .num_warps = 4, .num_stages = 3},
    {.name = "fp8_128x128x64", .signature = "a_ptr=*fp8e4nv:16 b_ptr=*fp8e4nv:16 c_ptr=*fp16:16 M=i32:16 N=i32:16 K=i32:16 "
                                            "stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 stride_cn=1",
     .constexprs = "BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None",
     .problem = "M=256 N=256 K=256", .num_warps = 8, .num_stages = 3});
