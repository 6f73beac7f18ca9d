/* The grouped GEMM of a fused MoE over sorted token ids: bf16, or fp8 w8a8 with per-block
 * scales; routed weights.  Python original: kernels/py/fused_moe.py */
#include "kernels.h"

TL_KERNEL(fused_moe_kernel,
          (a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr,
           num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm,
           stride_asm, stride_ask, stride_bse, stride_bsn, stride_bsk),
          (int, GROUP_N), (int, GROUP_K), (int, BLOCK_M), (int, BLOCK_N), (int, BLOCK_K), (int, GROUP_SIZE_M),
          (bool, MUL_ROUTED_WEIGHT), (int, TOP_K), (bool, USE_FP8_W8A8))
{
    // the tile of C, in grouped order: GROUP_SIZE_M blocks of slots walk the columns together
    tl_tensor pid = tl_program_id(0);
    tl_tensor num_pid_m = tl_cdiv(EM, BLOCK_M);
    tl_tensor num_pid_n = tl_cdiv(N, BLOCK_N);
    tl_tensor num_pid_in_group = tl_mul(GROUP_SIZE_M, num_pid_n);
    tl_tensor group_id = tl_floordiv(pid, num_pid_in_group);
    tl_tensor first_pid_m = tl_mul(group_id, GROUP_SIZE_M);
    tl_tensor group_size_m = tl_builtin_min(tl_sub(num_pid_m, first_pid_m), GROUP_SIZE_M);
    tl_tensor pid_m = tl_add(first_pid_m, tl_mod(tl_mod(pid, num_pid_in_group), group_size_m));
    tl_tensor pid_n = tl_floordiv(tl_mod(pid, num_pid_in_group), group_size_m);
    tl_tensor num_tokens_post_padded = tl_load(num_tokens_post_padded_ptr);
    TL_IF(tl_ge(tl_mul(pid_m, BLOCK_M), num_tokens_post_padded)) {
        TL_RETURN();
    }
    // the block's slots, their rows of C (num_valid_tokens: padding) and its expert
    tl_tensor offs_token_id = tl_add(tl_mul(pid_m, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_tensor offs_token = tl_load(tl_add(sorted_token_ids_ptr, offs_token_id),
                                   .mask = tl_lt(offs_token_id, num_tokens_post_padded), .other = num_valid_tokens);
    tl_tensor token_mask = tl_lt(offs_token, num_valid_tokens);
    tl_tensor expert = tl_to(tl_load(tl_add(expert_ids_ptr, pid_m)), tl_int64);
    tl_tensor offs_bn = tl_mod(tl_add(tl_mul(pid_n, BLOCK_N), tl_arange(0, BLOCK_N)), N);
    tl_tensor offs_k = tl_arange(0, BLOCK_K);
    tl_tensor a_ptrs = tl_add(a_ptr, tl_add(tl_mul(tl_floordiv(tl_idx(offs_token, ":, None"), TOP_K), stride_am),
                                            tl_idx(offs_k, "None, :")));
    tl_tensor b_ptrs = tl_add(tl_add(b_ptr, tl_mul(expert, stride_be)),
                              tl_add(tl_idx(offs_k, ":, None"), tl_mul(tl_idx(offs_bn, "None, :"), stride_bn)));
    tl_tensor a_scale_ptrs = TL_NONE, b_scale_ptrs = TL_NONE;
    if (USE_FP8_W8A8) {
        a_scale_ptrs = tl_add(a_scale_ptr, tl_mul(tl_floordiv(offs_token, TOP_K), stride_asm));
        b_scale_ptrs = tl_add(tl_add(b_scale_ptr, tl_mul(expert, stride_bse)),
                              tl_mul(tl_floordiv(offs_bn, GROUP_N), stride_bsn));
    }
    // accumulate over K
    tl_tensor accumulator = tl_zeros(tl_shape(BLOCK_M, BLOCK_N), tl_float32);
    TL_FOR(k, tl_range(0, tl_cdiv(K, BLOCK_K), 1), a_ptrs, b_ptrs, accumulator) {
        tl_tensor k_mask = tl_lt(offs_k, tl_sub(K, tl_mul(k, BLOCK_K)));
        tl_tensor a = tl_load(a_ptrs, .mask = tl_and(tl_idx(token_mask, ":, None"), tl_idx(k_mask, "None, :")),
                              .other = tl_c(0.0));
        tl_tensor b = tl_load(b_ptrs, .mask = tl_idx(k_mask, ":, None"), .other = tl_c(0.0));
        if (USE_FP8_W8A8) {
            tl_tensor group_k = tl_floordiv(tl_mul(k, BLOCK_K), GROUP_K);
            tl_tensor a_s = tl_load(tl_add(a_scale_ptrs, tl_mul(group_k, stride_ask)), .mask = token_mask,
                                    .other = tl_c(0.0));
            tl_tensor b_s = tl_load(tl_add(b_scale_ptrs, tl_mul(group_k, stride_bsk)));
            accumulator = tl_add(accumulator, tl_mul(tl_mul(tl_dot(a, b), tl_idx(a_s, ":, None")),
                                                     tl_idx(b_s, "None, :")));
        } else {
            accumulator = tl_dot(a, b, .acc = accumulator);
        }
        a_ptrs = tl_add(a_ptrs, BLOCK_K);
        b_ptrs = tl_add(b_ptrs, BLOCK_K);
    }
    if (MUL_ROUTED_WEIGHT) {
        tl_tensor weight = tl_load(tl_add(topk_weights_ptr, offs_token), .mask = token_mask, .other = tl_c(0.0));
        accumulator = tl_mul(accumulator, tl_idx(weight, ":, None"));
    }
    tl_tensor c = tl_to(accumulator, tl_element_ty(c_ptr));
    // write back the rows of C
    tl_tensor offs_cn = tl_add(tl_mul(pid_n, BLOCK_N), tl_arange(0, BLOCK_N));
    // in 64 bits: C may hold more than 2**31 elements (TOKENS * TOP_K * N)
    tl_tensor c_ptrs = tl_add(tl_add(c_ptr, tl_mul(stride_cm, tl_to(tl_idx(offs_token, ":, None"), tl_int64))),
                              tl_idx(offs_cn, "None, :"));
    tl_tensor c_mask = tl_and(tl_idx(token_mask, ":, None"), tl_lt(tl_idx(offs_cn, "None, :"), N));
    tl_store(c_ptrs, c, .mask = c_mask);
}

#define BF16_SIG                                                                                                  \
    "a_ptr=*bf16:16 b_ptr=*bf16:16 c_ptr=*bf16:16 a_scale_ptr=None b_scale_ptr=None topk_weights_ptr=*fp32:16 " \
    "sorted_token_ids_ptr=*i32:16 expert_ids_ptr=*i32:16 num_tokens_post_padded_ptr=*i32:16 "
#define FP8_SIG                                                                                                    \
    "a_ptr=*fp8e4nv:16 b_ptr=*fp8e4nv:16 c_ptr=*bf16:16 a_scale_ptr=*fp32:16 b_scale_ptr=*fp32:16 "               \
    "topk_weights_ptr=*fp32:16 sorted_token_ids_ptr=*i32:16 expert_ids_ptr=*i32:16 num_tokens_post_padded_ptr=*i32:16 "

TL_CONFIGS(fused_moe_kernel,
    {.name = "bf16_e8_top2_64x64x64_tail",
     .signature = BF16_SIG "N=i32 K=i32 EM=i32 num_valid_tokens=i32:16 stride_am=i32 stride_be=i32 stride_bn=i32 "
                  "stride_cm=i32 stride_asm=i32:16 stride_ask=i32:16 stride_bse=i32:16 stride_bsn=i32:16 stride_bsk=i32:16",
     .constexprs = "GROUP_N=0 GROUP_K=0 BLOCK_M=64 BLOCK_N=64 BLOCK_K=64 GROUP_SIZE_M=8 MUL_ROUTED_WEIGHT=True TOP_K=2 "
                   "USE_FP8_W8A8=False",
     .problem = "TOKENS=24 E=8 N=255 K=191", .num_warps = 4, .num_stages = 3},
    {.name = "bf16_e16_top4_64x128x64",
     .signature = BF16_SIG "N=i32:16 K=i32:16 EM=i32:16 num_valid_tokens=i32:16 stride_am=i32:16 stride_be=i32:16 "
                  "stride_bn=i32:16 stride_cm=i32:16 stride_asm=i32:16 stride_ask=i32:16 stride_bse=i32:16 "
                  "stride_bsn=i32:16 stride_bsk=i32:16",
     .constexprs = "GROUP_N=0 GROUP_K=0 BLOCK_M=64 BLOCK_N=128 BLOCK_K=64 GROUP_SIZE_M=8 MUL_ROUTED_WEIGHT=False TOP_K=4 "
                   "USE_FP8_W8A8=False",
     .problem = "TOKENS=16 E=16 N=256 K=256", .num_warps = 4, .num_stages = 3},
    {.name = "fp8_w8a8_e16_top8_64x128x128",
     .signature = FP8_SIG "N=i32:16 K=i32:16 EM=i32:16 num_valid_tokens=i32:16 stride_am=i32:16 stride_be=i32:16 "
                  "stride_bn=i32:16 stride_cm=i32:16 stride_asm=i32:16 stride_ask=1 stride_bse=i32:16 stride_bsn=i32:16 "
                  "stride_bsk=1",
     .constexprs = "GROUP_N=128 GROUP_K=128 BLOCK_M=64 BLOCK_N=128 BLOCK_K=128 GROUP_SIZE_M=8 MUL_ROUTED_WEIGHT=True "
                   "TOP_K=8 USE_FP8_W8A8=True",
     .problem = "TOKENS=16 E=16 N=128 K=2048", .num_warps = 4, .num_stages = 3},
    {.name = "fp8_w8a8_e8_top2_16x64x64_tail",
     .signature = FP8_SIG "N=i32:16 K=i32:16 EM=i32 num_valid_tokens=i32 stride_am=i32:16 stride_be=i32:16 "
                  "stride_bn=i32:16 stride_cm=i32:16 stride_asm=i32:16 stride_ask=1 stride_bse=i32:16 stride_bsn=i32:16 "
                  "stride_bsk=1",
     .constexprs = "GROUP_N=128 GROUP_K=128 BLOCK_M=16 BLOCK_N=64 BLOCK_K=64 GROUP_SIZE_M=1 MUL_ROUTED_WEIGHT=False "
                   "TOP_K=2 USE_FP8_W8A8=True",
     .problem = "TOKENS=7 E=8 N=256 K=2048", .num_warps = 4, .num_stages = 3});
