/* Flash attention forward (online softmax over key blocks, causal or not) through tensor
 * descriptors made in the kernel, optionally warp-specialized.
 * Python original: kernels/py/flash_attn.py */
#include "kernels.h"

TL_KERNEL(flash_attn_fwd_kernel, (Q, K, V, O, LSE, sm_scale, Z_H, N_CTX), (int, HEAD_DIM), (int, BLOCK_M),
          (int, BLOCK_N), (bool, CAUSAL), (bool, WARP_SPECIALIZE))
{
    tl_tensor start_m = tl_program_id(0);
    tl_tensor bh = tl_program_id(1);
    tl_tensor q_desc = tl_make_tensor_descriptor(Q, tl_tuple(Z_H, N_CTX, HEAD_DIM), tl_tuple(tl_mul(N_CTX, HEAD_DIM), HEAD_DIM, 1),
                                                 tl_shape(1, BLOCK_M, HEAD_DIM));
    tl_tensor k_desc = tl_make_tensor_descriptor(K, tl_tuple(Z_H, N_CTX, HEAD_DIM), tl_tuple(tl_mul(N_CTX, HEAD_DIM), HEAD_DIM, 1),
                                                 tl_shape(1, BLOCK_N, HEAD_DIM));
    tl_tensor v_desc = tl_make_tensor_descriptor(V, tl_tuple(Z_H, N_CTX, HEAD_DIM), tl_tuple(tl_mul(N_CTX, HEAD_DIM), HEAD_DIM, 1),
                                                 tl_shape(1, BLOCK_N, HEAD_DIM));
    tl_tensor o_desc = tl_make_tensor_descriptor(O, tl_tuple(Z_H, N_CTX, HEAD_DIM), tl_tuple(tl_mul(N_CTX, HEAD_DIM), HEAD_DIM, 1),
                                                 tl_shape(1, BLOCK_M, HEAD_DIM));
    tl_tensor offs_m = tl_add(tl_mul(start_m, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_tensor q = tl_reshape(tl_desc_load(q_desc, tl_tuple(bh, tl_mul(start_m, BLOCK_M), 0)), tl_shape(BLOCK_M, HEAD_DIM));
    tl_tensor qk_scale = tl_mul(sm_scale, 1.4426950408889634);
    tl_tensor m_i = tl_full(tl_shape(BLOCK_M), -INFINITY, tl_float32);
    tl_tensor l_i = tl_zeros(tl_shape(BLOCK_M), tl_float32);
    tl_tensor acc = tl_zeros(tl_shape(BLOCK_M, HEAD_DIM), tl_float32);
    tl_tensor hi = CAUSAL ? tl_minimum(tl_mul(tl_add(start_m, 1), BLOCK_M), N_CTX) : N_CTX;
    TL_FOR(start_n, tl_range(0, hi, BLOCK_N, .warp_specialize = WARP_SPECIALIZE), m_i, l_i, acc) {
        tl_tensor k = tl_reshape(tl_desc_load(k_desc, tl_tuple(bh, start_n, 0)), tl_shape(BLOCK_N, HEAD_DIM));
        tl_tensor s = tl_mul(tl_dot(q, tl_trans(k)), qk_scale);
        tl_tensor offs_n = tl_add(start_n, tl_arange(0, BLOCK_N));
        tl_tensor keep = tl_lt(tl_idx(offs_n, "None, :"), N_CTX);
        if (CAUSAL)
            keep = tl_and(keep, tl_ge(tl_idx(offs_m, ":, None"), tl_idx(offs_n, "None, :")));
        s = tl_where(keep, s, -INFINITY);
        tl_tensor m_new = tl_maximum(m_i, tl_max(s, .axis = 1));
        tl_tensor alpha = tl_exp2(tl_sub(m_i, m_new));
        tl_tensor p = tl_exp2(tl_sub(s, tl_idx(m_new, ":, None")));
        l_i = tl_add(tl_mul(l_i, alpha), tl_sum(p, .axis = 1));
        tl_tensor v = tl_reshape(tl_desc_load(v_desc, tl_tuple(bh, start_n, 0)), tl_shape(BLOCK_N, HEAD_DIM));
        acc = tl_mul(acc, tl_idx(alpha, ":, None"));
        acc = tl_dot(tl_to(p, tl_dtype_of(v)), v, .acc = acc);
        m_i = m_new;
    }
    acc = tl_div(acc, tl_idx(l_i, ":, None"));
    tl_store(tl_add(tl_add(LSE, tl_mul(tl_to(bh, tl_int64), N_CTX)), offs_m), tl_add(m_i, tl_log2(l_i)), .mask = tl_lt(offs_m, N_CTX));
    tl_desc_store(o_desc, tl_tuple(bh, tl_mul(start_m, BLOCK_M), 0),
                  tl_reshape(tl_to(acc, tl_element_ty(O)), tl_shape(1, BLOCK_M, HEAD_DIM)));
}

#define FA_SIG(dt, n) "Q=*" dt ":16 K=*" dt ":16 V=*" dt ":16 O=*" dt ":16 LSE=*fp32:16 sm_scale=fp32 Z_H=i32 N_CTX=i32" n

TL_CONFIGS(flash_attn_fwd_kernel,
    {.name = "fp16_d64_causal", .signature = FA_SIG("fp16", ":16"),
     .constexprs = "HEAD_DIM=64 BLOCK_M=128 BLOCK_N=64 CAUSAL=True WARP_SPECIALIZE=False",
     .problem = "Z_H=3 N_CTX=384", .num_warps = 4, .num_stages = 3},
    {.name = "bf16_d128", .signature = FA_SIG("bf16", ":16"),
     .constexprs = "HEAD_DIM=128 BLOCK_M=128 BLOCK_N=64 CAUSAL=False WARP_SPECIALIZE=False",
     .problem = "Z_H=2 N_CTX=256", .num_warps = 8, .num_stages = 3},
    {.name = "fp16_d128_causal_ws", .signature = FA_SIG("fp16", ":16"),
     .constexprs = "HEAD_DIM=128 BLOCK_M=128 BLOCK_N=128 CAUSAL=True WARP_SPECIALIZE=True",
     .problem = "Z_H=2 N_CTX=256", .num_warps = 8, .num_stages = 3},
    {.name = "bf16_d64_ws", .signature = FA_SIG("bf16", ":16"),
     .constexprs = "HEAD_DIM=64 BLOCK_M=128 BLOCK_N=128 CAUSAL=False WARP_SPECIALIZE=True",
     .problem = "Z_H=2 N_CTX=256", .num_warps = 8, .num_stages = 3},
    {.name = "fp16_d64_tail", .signature = FA_SIG("fp16", ""),
     .constexprs = "HEAD_DIM=64 BLOCK_M=64 BLOCK_N=64 CAUSAL=False WARP_SPECIALIZE=False",
     .problem = "Z_H=3 N_CTX=300", .num_warps = 4, .num_stages = 3},
    {.name = "bf16_d128_causal_tail", .signature = FA_SIG("bf16", ""),
     .constexprs = "HEAD_DIM=128 BLOCK_M=64 BLOCK_N=32 CAUSAL=True WARP_SPECIALIZE=False",
     .problem = "Z_H=2 N_CTX=201", .num_warps = 4, .num_stages = 2});
