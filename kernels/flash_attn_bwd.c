/* Flash attention backward for flash_attn_fwd_kernel: Delta = rowsum(O * dO), then dK and dV
 * per key block and dQ per query block, each recomputing P from the forward's log2-sum-exp.
 * Python original: kernels/py/flash_attn_bwd.py */
#include "kernels.h"

TL_KERNEL(flash_attn_bwd_preprocess_kernel, (O, DO, Delta, N_CTX), (int, HEAD_DIM), (int, BLOCK_M))
{
    tl_tensor start_m = tl_program_id(0);
    tl_tensor bh = tl_to(tl_program_id(1), tl_int64);
    tl_tensor offs_m = tl_add(tl_mul(start_m, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_tensor offs_d = tl_arange(0, HEAD_DIM);
    tl_tensor mask = tl_lt(offs_m, N_CTX);
    tl_tensor offs = tl_add(tl_add(tl_mul(tl_mul(bh, N_CTX), HEAD_DIM), tl_mul(tl_idx(offs_m, ":, None"), HEAD_DIM)), tl_idx(offs_d, "None, :"));
    tl_tensor o = tl_to(tl_load(tl_add(O, offs), .mask = tl_idx(mask, ":, None"), .other = tl_c(0.)), tl_float32);
    tl_tensor do_ = tl_to(tl_load(tl_add(DO, offs), .mask = tl_idx(mask, ":, None"), .other = tl_c(0.)), tl_float32);
    tl_store(tl_add(tl_add(Delta, tl_mul(bh, N_CTX)), offs_m), tl_sum(tl_mul(o, do_), .axis = 1), .mask = mask);
}

TL_KERNEL(flash_attn_bwd_dkdv_kernel, (Q, K, V, DO, LSE, Delta, DK, DV, sm_scale, N_CTX), (int, HEAD_DIM),
                               (int, BLOCK_M), (int, BLOCK_N), (bool, CAUSAL))
{
    tl_tensor start_n = tl_mul(tl_program_id(0), BLOCK_N);
    tl_tensor bh = tl_to(tl_program_id(1), tl_int64);
    tl_tensor head = tl_mul(tl_mul(bh, N_CTX), HEAD_DIM);
    tl_tensor offs_n = tl_add(start_n, tl_arange(0, BLOCK_N));
    tl_tensor offs_d = tl_arange(0, HEAD_DIM);
    tl_tensor n_mask = tl_lt(offs_n, N_CTX);
    tl_tensor kv_offs = tl_add(tl_add(head, tl_mul(tl_idx(offs_n, ":, None"), HEAD_DIM)), tl_idx(offs_d, "None, :"));
    tl_tensor k = tl_load(tl_add(K, kv_offs), .mask = tl_idx(n_mask, ":, None"), .other = tl_c(0.)); /* lint-ok: unmasked-dim the HEAD_DIM columns are whole; with BLOCK_N == HEAD_DIM their tl.arange is the keys' one, which n_mask bounds */
    tl_tensor v = tl_load(tl_add(V, kv_offs), .mask = tl_idx(n_mask, ":, None"), .other = tl_c(0.)); /* lint-ok: unmasked-dim the HEAD_DIM columns are whole; with BLOCK_N == HEAD_DIM their tl.arange is the keys' one, which n_mask bounds */
    tl_tensor qk_scale = tl_mul(sm_scale, 1.4426950408889634);
    tl_tensor dk = tl_zeros(tl_shape(BLOCK_N, HEAD_DIM), tl_float32);
    tl_tensor dv = tl_zeros(tl_shape(BLOCK_N, HEAD_DIM), tl_float32);
    tl_tensor lo = CAUSAL ? start_n : tl_c(0);
    TL_FOR(start_m, tl_pyrange(lo, N_CTX, BLOCK_M), dk, dv) {
        tl_tensor offs_m = tl_add(start_m, tl_arange(0, BLOCK_M));
        tl_tensor m_mask = tl_lt(offs_m, N_CTX);
        tl_tensor q_offs = tl_add(tl_add(head, tl_mul(tl_idx(offs_m, ":, None"), HEAD_DIM)), tl_idx(offs_d, "None, :"));
        tl_tensor q = tl_load(tl_add(Q, q_offs), .mask = tl_idx(m_mask, ":, None"), .other = tl_c(0.)); /* lint-ok: unmasked-dim the HEAD_DIM columns are whole; with BLOCK_N == HEAD_DIM their tl.arange is the keys' one, which n_mask bounds */
        tl_tensor do_ = tl_load(tl_add(DO, q_offs), .mask = tl_idx(m_mask, ":, None"), .other = tl_c(0.)); /* lint-ok: unmasked-dim the HEAD_DIM columns are whole; with BLOCK_N == HEAD_DIM their tl.arange is the keys' one, which n_mask bounds */
        tl_tensor lse = tl_load(tl_add(tl_add(LSE, tl_mul(bh, N_CTX)), offs_m), .mask = m_mask, .other = tl_c(0.));
        tl_tensor delta = tl_load(tl_add(tl_add(Delta, tl_mul(bh, N_CTX)), offs_m), .mask = m_mask, .other = tl_c(0.));
        // P^T and dP^T of this block, keys down and queries across
        tl_tensor p_t = tl_exp2(tl_sub(tl_mul(tl_dot(k, tl_T(q)), qk_scale), tl_idx(lse, "None, :")));
        tl_tensor keep = tl_idx(m_mask, "None, :");
        if (CAUSAL)
            keep = tl_and(keep, tl_ge(tl_idx(offs_m, "None, :"), tl_idx(offs_n, ":, None")));
        p_t = tl_where(keep, p_t, 0.);
        dv = tl_dot(tl_to(p_t, tl_dtype_of(do_)), do_, .acc = dv);
        tl_tensor dp_t = tl_dot(v, tl_T(do_));
        tl_tensor ds_t = tl_mul(p_t, tl_sub(dp_t, tl_idx(delta, "None, :")));
        dk = tl_dot(tl_to(ds_t, tl_dtype_of(q)), q, .acc = dk);
    }
    dk = tl_mul(dk, sm_scale);
    tl_store(tl_add(DK, kv_offs), tl_to(dk, tl_element_ty(DK)), .mask = tl_idx(n_mask, ":, None")); /* lint-ok: unmasked-dim the HEAD_DIM columns are whole; with BLOCK_N == HEAD_DIM their tl.arange is the keys' one, which n_mask bounds */
    tl_store(tl_add(DV, kv_offs), tl_to(dv, tl_element_ty(DV)), .mask = tl_idx(n_mask, ":, None")); /* lint-ok: unmasked-dim the HEAD_DIM columns are whole; with BLOCK_N == HEAD_DIM their tl.arange is the keys' one, which n_mask bounds */
}

TL_KERNEL(flash_attn_bwd_dq_kernel, (Q, K, V, DO, LSE, Delta, DQ, sm_scale, N_CTX), (int, HEAD_DIM),
                             (int, BLOCK_M), (int, BLOCK_N), (bool, CAUSAL))
{
    tl_tensor start_m = tl_mul(tl_program_id(0), BLOCK_M);
    tl_tensor bh = tl_to(tl_program_id(1), tl_int64);
    tl_tensor head = tl_mul(tl_mul(bh, N_CTX), HEAD_DIM);
    tl_tensor offs_m = tl_add(start_m, tl_arange(0, BLOCK_M));
    tl_tensor offs_d = tl_arange(0, HEAD_DIM);
    tl_tensor m_mask = tl_lt(offs_m, N_CTX);
    tl_tensor q_offs = tl_add(tl_add(head, tl_mul(tl_idx(offs_m, ":, None"), HEAD_DIM)), tl_idx(offs_d, "None, :"));
    tl_tensor q = tl_load(tl_add(Q, q_offs), .mask = tl_idx(m_mask, ":, None"), .other = tl_c(0.));
    tl_tensor do_ = tl_load(tl_add(DO, q_offs), .mask = tl_idx(m_mask, ":, None"), .other = tl_c(0.));
    tl_tensor lse = tl_load(tl_add(tl_add(LSE, tl_mul(bh, N_CTX)), offs_m), .mask = m_mask, .other = tl_c(0.));
    tl_tensor delta = tl_load(tl_add(tl_add(Delta, tl_mul(bh, N_CTX)), offs_m), .mask = m_mask, .other = tl_c(0.));
    tl_tensor qk_scale = tl_mul(sm_scale, 1.4426950408889634);
    tl_tensor dq = tl_zeros(tl_shape(BLOCK_M, HEAD_DIM), tl_float32);
    tl_tensor hi = CAUSAL ? tl_minimum(tl_add(start_m, BLOCK_M), N_CTX) : N_CTX;
    TL_FOR(start_n, tl_pyrange(0, hi, BLOCK_N), dq) {
        tl_tensor offs_n = tl_add(start_n, tl_arange(0, BLOCK_N));
        tl_tensor n_mask = tl_lt(offs_n, N_CTX);
        tl_tensor kv_offs = tl_add(tl_add(head, tl_mul(tl_idx(offs_n, ":, None"), HEAD_DIM)), tl_idx(offs_d, "None, :"));
        tl_tensor k = tl_load(tl_add(K, kv_offs), .mask = tl_idx(n_mask, ":, None"), .other = tl_c(0.));
        tl_tensor v = tl_load(tl_add(V, kv_offs), .mask = tl_idx(n_mask, ":, None"), .other = tl_c(0.));
        tl_tensor p = tl_exp2(tl_sub(tl_mul(tl_dot(q, tl_T(k)), qk_scale), tl_idx(lse, ":, None")));
        tl_tensor keep = tl_idx(n_mask, "None, :");
        if (CAUSAL)
            keep = tl_and(keep, tl_ge(tl_idx(offs_m, ":, None"), tl_idx(offs_n, "None, :")));
        p = tl_where(keep, p, 0.);
        tl_tensor dp = tl_dot(do_, tl_T(v));
        tl_tensor ds = tl_mul(p, tl_sub(dp, tl_idx(delta, ":, None")));
        dq = tl_dot(tl_to(ds, tl_dtype_of(k)), k, .acc = dq);
    }
    dq = tl_mul(dq, sm_scale);
    tl_store(tl_add(DQ, q_offs), tl_to(dq, tl_element_ty(DQ)), .mask = tl_idx(m_mask, ":, None"));
}

#define FAB_SIG(dt, grad, n) "Q=*" dt ":16 K=*" dt ":16 V=*" dt ":16 DO=*" dt ":16 LSE=*fp32:16 Delta=*fp32:16 " grad \
    " sm_scale=fp32 N_CTX=i32" n
#define FAB_DKDV(dt) "DK=*" dt ":16 DV=*" dt ":16"
#define FAB_DQ(dt) "DQ=*" dt ":16"

TL_CONFIGS(flash_attn_bwd_preprocess_kernel,
    {.name = "fp16_d64", .signature = "O=*fp16:16 DO=*fp16:16 Delta=*fp32:16 N_CTX=i32:16",
     .constexprs = "HEAD_DIM=64 BLOCK_M=128", .problem = "Z_H=3 N_CTX=384", .num_warps = 4},
    {.name = "bf16_d128_tail", .signature = "O=*bf16:16 DO=*bf16:16 Delta=*fp32:16 N_CTX=i32",
     .constexprs = "HEAD_DIM=128 BLOCK_M=64", .problem = "Z_H=2 N_CTX=201", .num_warps = 4});

TL_CONFIGS(flash_attn_bwd_dkdv_kernel,
    {.name = "fp16_d64_causal", .signature = FAB_SIG("fp16", FAB_DKDV("fp16"), ":16"),
     .constexprs = "HEAD_DIM=64 BLOCK_M=32 BLOCK_N=64 CAUSAL=True", .problem = "Z_H=3 N_CTX=384", .num_warps = 4},
    {.name = "bf16_d128", .signature = FAB_SIG("bf16", FAB_DKDV("bf16"), ":16"),
     .constexprs = "HEAD_DIM=128 BLOCK_M=32 BLOCK_N=64 CAUSAL=False", .problem = "Z_H=2 N_CTX=256", .num_warps = 8},
    {.name = "bf16_d128_causal_tail", .signature = FAB_SIG("bf16", FAB_DKDV("bf16"), ""),
     .constexprs = "HEAD_DIM=128 BLOCK_M=32 BLOCK_N=64 CAUSAL=True", .problem = "Z_H=2 N_CTX=201", .num_warps = 8,
     .num_stages = 2});

TL_CONFIGS(flash_attn_bwd_dq_kernel,
    {.name = "fp16_d64_causal", .signature = FAB_SIG("fp16", FAB_DQ("fp16"), ":16"),
     .constexprs = "HEAD_DIM=64 BLOCK_M=128 BLOCK_N=32 CAUSAL=True", .problem = "Z_H=3 N_CTX=384", .num_warps = 4},
    {.name = "bf16_d128", .signature = FAB_SIG("bf16", FAB_DQ("bf16"), ":16"),
     .constexprs = "HEAD_DIM=128 BLOCK_M=64 BLOCK_N=32 CAUSAL=False", .problem = "Z_H=2 N_CTX=256", .num_warps = 8},
    {.name = "bf16_d128_causal_tail", .signature = FAB_SIG("bf16", FAB_DQ("bf16"), ""),
     .constexprs = "HEAD_DIM=128 BLOCK_M=64 BLOCK_N=32 CAUSAL=True", .problem = "Z_H=2 N_CTX=201", .num_warps = 8,
     .num_stages = 2});
