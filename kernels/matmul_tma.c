/* Matrix multiplication through tensor descriptors made in the kernel (TMA on Hopper).
 * Python original: kernels/py/matmul_tma.py */
#include "kernels.h"

TL_KERNEL(matmul_tma_kernel, (a_ptr, b_ptr, c_ptr, M, N, K),
          (int, BLOCK_SIZE_M), (int, BLOCK_SIZE_N), (int, BLOCK_SIZE_K))
{
    tl_tensor a_desc = tl_make_tensor_descriptor(a_ptr, tl_tuple(M, K), tl_tuple(K, 1),
                                                 tl_shape(BLOCK_SIZE_M, BLOCK_SIZE_K));
    tl_tensor b_desc = tl_make_tensor_descriptor(b_ptr, tl_tuple(K, N), tl_tuple(N, 1),
                                                 tl_shape(BLOCK_SIZE_K, BLOCK_SIZE_N));
    tl_tensor c_desc = tl_make_tensor_descriptor(c_ptr, tl_tuple(M, N), tl_tuple(N, 1),
                                                 tl_shape(BLOCK_SIZE_M, BLOCK_SIZE_N));
    tl_tensor pid = tl_program_id(0);
    tl_tensor num_pid_n = tl_cdiv(N, BLOCK_SIZE_N);
    tl_tensor pid_m = tl_floordiv(pid, num_pid_n);
    tl_tensor pid_n = tl_mod(pid, num_pid_n);
    tl_tensor offs_am = tl_mul(pid_m, BLOCK_SIZE_M);
    tl_tensor offs_bn = tl_mul(pid_n, BLOCK_SIZE_N);
    tl_tensor accumulator = tl_zeros(tl_shape(BLOCK_SIZE_M, BLOCK_SIZE_N), tl_float32);
    TL_FOR(k, tl_range(0, tl_cdiv(K, BLOCK_SIZE_K), 1), accumulator)
    {
        tl_tensor offs_k = tl_mul(k, BLOCK_SIZE_K);
        tl_tensor a = tl_desc_load(a_desc, tl_tuple(offs_am, offs_k));
        tl_tensor b = tl_desc_load(b_desc, tl_tuple(offs_k, offs_bn));
        accumulator = tl_dot(a, b, .acc = accumulator);
    }
    tl_desc_store(c_desc, tl_tuple(offs_am, offs_bn), tl_to(accumulator, tl_float16));
}

TL_CONFIGS(matmul_tma_kernel,
    {.name = "fp16_128x128x64", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32:16 N=i32:16 K=i32:16",
     .constexprs = "BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 BLOCK_SIZE_K=64", .problem = "M=512 N=512 K=512",
     .num_warps = 8, .num_stages = 3},
    {.name = "fp16_64x64x32_tail", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32 N=i32 K=i32",
     .constexprs = "BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 BLOCK_SIZE_K=32", .problem = "M=200 N=136 K=104",
     .num_warps = 4, .num_stages = 3});
