/* Paged decode attention with split-K over the KV cache (grouped-query heads, optional logit
 * soft-cap and sliding window), and the reduction of the splits.
 * Python original: kernels/py/decode_attn.py */
#include <math.h>

#include "kernels.h"

TL_KERNEL(decode_attn_paged_splitk_kernel, (Q, K_cache, V_cache, Block_tables, Seq_lens, O_part, LSE_part, sm_scale,
                                    soft_cap, window, stride_qs, stride_qh, stride_kp, stride_kt, stride_kh,
                                    stride_vp, stride_vt, stride_vh, stride_bt), (int, HEAD_DIM),
                                    (int, PAGE_SIZE), (int, GROUP_SIZE), (int, BLOCK_G),
                                    (int, NUM_SPLITS), (int, BLOCK_N), (bool, SOFT_CAP),
                                    (bool, SLIDING_WINDOW))
{
    tl_tensor seq = tl_program_id(0);
    tl_tensor kv_head = tl_program_id(1);
    tl_tensor split = tl_program_id(2);
    tl_tensor seq_len = tl_load(tl_add(Seq_lens, seq));
    // the split's keys: a chunk of whole blocks
    tl_tensor split_len = tl_mul(tl_cdiv(tl_cdiv(seq_len, NUM_SPLITS), BLOCK_N), BLOCK_N);
    tl_tensor lo = tl_mul(split, split_len);
    tl_tensor hi = tl_minimum(tl_add(lo, split_len), seq_len);
    if (SLIDING_WINDOW)
        lo = tl_maximum(lo, tl_sub(seq_len, window));
    tl_tensor offs_g = tl_arange(0, BLOCK_G);
    tl_tensor offs_d = tl_arange(0, HEAD_DIM);
    tl_tensor heads = tl_add(tl_mul(kv_head, GROUP_SIZE), offs_g);
    tl_tensor g_mask = tl_lt(offs_g, GROUP_SIZE);
    tl_tensor q_ptrs = tl_add(tl_add(tl_add(Q, tl_mul(tl_to(seq, tl_int64), stride_qs)), tl_mul(tl_idx(heads, ":, None"), stride_qh)), tl_idx(offs_d, "None, :")); /* lint-ok: int32-offset the head times its stride stays inside one row of Q (the row offset is int64) */
    tl_tensor q = tl_load(q_ptrs, .mask = tl_idx(g_mask, ":, None"), .other = tl_c(0.));
    tl_tensor qk_scale = tl_mul(sm_scale, 1.4426950408889634);
    tl_tensor m_i = tl_full(tl_shape(BLOCK_G), -INFINITY, tl_float32);
    tl_tensor l_i = tl_zeros(tl_shape(BLOCK_G), tl_float32);
    tl_tensor acc = tl_zeros(tl_shape(BLOCK_G, HEAD_DIM), tl_float32);
    tl_tensor table = tl_add(Block_tables, tl_mul(tl_to(seq, tl_int64), stride_bt));
    TL_FOR(start, tl_pyrange(lo, hi, BLOCK_N), m_i, l_i, acc) {
        tl_tensor offs_n = tl_add(start, tl_arange(0, BLOCK_N));
        tl_tensor n_mask = tl_lt(offs_n, hi);
        // each key's page and its slot in the page
        tl_tensor page = tl_to(tl_load(tl_add(table, tl_floordiv(offs_n, PAGE_SIZE)), .mask = n_mask, .other = tl_c(0)), tl_int64);
        tl_tensor slot = tl_mod(offs_n, PAGE_SIZE);
        tl_tensor k_ptrs = tl_add(tl_add(tl_add(tl_add(K_cache, tl_mul(tl_idx(page, ":, None"), stride_kp)), tl_mul(tl_idx(slot, ":, None"), stride_kt)), tl_mul(kv_head, stride_kh)), tl_idx(offs_d, "None, :")); /* lint-ok: int32-offset the KV head times its stride stays inside one slot of the cache (page offsets are int64) */
        tl_tensor k = tl_load(k_ptrs, .mask = tl_idx(n_mask, ":, None"), .other = tl_c(0.));
        tl_tensor s = tl_dot(q, tl_T(k));
        if (SOFT_CAP)
            s = tl_mul(tl_mul(soft_cap, tl_libdevice("tanh", tl_div(tl_mul(s, sm_scale), soft_cap))), 1.4426950408889634);
        else
            s = tl_mul(s, qk_scale);
        s = tl_where(tl_idx(n_mask, "None, :"), s, -INFINITY);
        tl_tensor m_new = tl_maximum(m_i, tl_max(s, .axis = 1));
        tl_tensor alpha = tl_exp2(tl_sub(m_i, m_new));
        tl_tensor p = tl_exp2(tl_sub(s, tl_idx(m_new, ":, None")));
        l_i = tl_add(tl_mul(l_i, alpha), tl_sum(p, .axis = 1));
        tl_tensor v_ptrs = tl_add(tl_add(tl_add(tl_add(V_cache, tl_mul(tl_idx(page, ":, None"), stride_vp)), tl_mul(tl_idx(slot, ":, None"), stride_vt)), tl_mul(kv_head, stride_vh)), tl_idx(offs_d, "None, :")); /* lint-ok: int32-offset the KV head times its stride stays inside one slot of the cache (page offsets are int64) */
        tl_tensor v = tl_load(v_ptrs, .mask = tl_idx(n_mask, ":, None"), .other = tl_c(0.));
        acc = tl_mul(acc, tl_idx(alpha, ":, None"));
        acc = tl_dot(tl_to(p, tl_dtype_of(v)), v, .acc = acc);
        m_i = m_new;
    }
    // an empty chunk: l_i is 0 and m_i -inf, so zeros and -inf
    acc = tl_div(acc, tl_idx(tl_where(tl_gt(l_i, 0.), l_i, 1.), ":, None"));
    tl_tensor rows = tl_add(tl_mul(tl_to(tl_add(tl_mul(tl_mul(seq, tl_num_programs(1)), GROUP_SIZE), heads), tl_int64), NUM_SPLITS), split);
    tl_tensor o_ptrs = tl_add(tl_add(O_part, tl_mul(tl_idx(rows, ":, None"), HEAD_DIM)), tl_idx(offs_d, "None, :"));
    tl_store(o_ptrs, acc, .mask = tl_idx(g_mask, ":, None"));
    tl_store(tl_add(LSE_part, rows), tl_add(m_i, tl_log2(l_i)), .mask = g_mask);
}

TL_KERNEL(decode_attn_reduce_kernel, (O_part, LSE_part, Out, LSE, stride_os, stride_oh), (int, HEAD_DIM),
                              (int, NUM_SPLITS), (int, BLOCK_S))
{
    tl_tensor seq = tl_program_id(0);
    tl_tensor head = tl_program_id(1);
    tl_tensor row = tl_add(tl_mul(tl_to(seq, tl_int64), tl_num_programs(1)), head);
    tl_tensor offs_s = tl_arange(0, BLOCK_S);
    tl_tensor offs_d = tl_arange(0, HEAD_DIM);
    tl_tensor s_mask = tl_lt(offs_s, NUM_SPLITS);
    tl_tensor lse = tl_load(tl_add(tl_add(LSE_part, tl_mul(row, NUM_SPLITS)), offs_s), .mask = s_mask, .other = tl_c(-INFINITY));
    tl_tensor m = tl_max(lse, .axis = 0);
    tl_tensor w = tl_exp2(tl_sub(lse, m));
    tl_tensor total = tl_sum(w, .axis = 0);
    tl_tensor o_ptrs = tl_add(tl_add(O_part, tl_mul(tl_add(tl_mul(row, NUM_SPLITS), tl_idx(offs_s, ":, None")), HEAD_DIM)), tl_idx(offs_d, "None, :"));
    tl_tensor o = tl_load(o_ptrs, .mask = tl_idx(s_mask, ":, None"), .other = tl_c(0.));
    tl_tensor out = tl_div(tl_sum(tl_mul(o, tl_idx(w, ":, None")), .axis = 0), total);
    tl_tensor out_ptrs = tl_add(tl_add(tl_add(Out, tl_mul(tl_to(seq, tl_int64), stride_os)), tl_mul(head, stride_oh)), offs_d); /* lint-ok: int32-offset the head times its stride stays inside one row of Out (the row offset is int64) */
    tl_store(out_ptrs, tl_to(out, tl_element_ty(Out)));
    tl_store(tl_add(LSE, row), tl_add(m, tl_log2(total)));
}

#define DS_SIG(dt) "Q=*" dt ":16 K_cache=*" dt ":16 V_cache=*" dt ":16 Block_tables=*i32:16 Seq_lens=*i32:16 " \
    "O_part=*fp32:16 LSE_part=*fp32:16 sm_scale=fp32 soft_cap=fp32 window=i32:16 stride_qs=i32:16 stride_qh=i32:16 " \
    "stride_kp=i32:16 stride_kt=i32:16 stride_kh=i32:16 stride_vp=i32:16 stride_vt=i32:16 stride_vh=i32:16 stride_bt=i32:16"

/* the sequences' lengths are random (the last block of a split and of a sequence partial,
 * pages cut by splits and windows); window 0 when unused (divisible by 16, as the JIT sees it) */
TL_CONFIGS(decode_attn_paged_splitk_kernel,
    {.name = "fp16_d128_g8_p16", .signature = DS_SIG("fp16"),
     .constexprs = "HEAD_DIM=128 PAGE_SIZE=16 GROUP_SIZE=8 BLOCK_G=16 NUM_SPLITS=16 BLOCK_N=64 SOFT_CAP=False "
                   "SLIDING_WINDOW=False",
     .problem = "SEQS=3 KV_HEADS=2 MAX_LEN=512", .num_warps = 4, .num_stages = 2},
    {.name = "bf16_d128_g4_p16_window", .signature = DS_SIG("bf16"),
     .constexprs = "HEAD_DIM=128 PAGE_SIZE=16 GROUP_SIZE=4 BLOCK_G=16 NUM_SPLITS=8 BLOCK_N=32 SOFT_CAP=False "
                   "SLIDING_WINDOW=True",
     .problem = "SEQS=4 KV_HEADS=2 MAX_LEN=512 WINDOW=160", .num_warps = 4, .num_stages = 2},
    {.name = "bf16_d256_g2_p32_softcap_window", .signature = DS_SIG("bf16"),
     .constexprs = "HEAD_DIM=256 PAGE_SIZE=32 GROUP_SIZE=2 BLOCK_G=16 NUM_SPLITS=4 BLOCK_N=32 SOFT_CAP=True "
                   "SLIDING_WINDOW=True",
     .problem = "SEQS=3 KV_HEADS=2 MAX_LEN=512 WINDOW=208 CAP=50", .num_warps = 4, .num_stages = 2},
    {.name = "fp16_d64_g16_p64_softcap", .signature = DS_SIG("fp16"),
     .constexprs = "HEAD_DIM=64 PAGE_SIZE=64 GROUP_SIZE=16 BLOCK_G=16 NUM_SPLITS=4 BLOCK_N=32 SOFT_CAP=True "
                   "SLIDING_WINDOW=False",
     .problem = "SEQS=3 KV_HEADS=2 MAX_LEN=1024 CAP=30", .num_warps = 4, .num_stages = 2});

#define DR_SIG(dt) "O_part=*fp32:16 LSE_part=*fp32:16 Out=*" dt ":16 LSE=*fp32:16 stride_os=i32:16 stride_oh=i32:16"

TL_CONFIGS(decode_attn_reduce_kernel,
    {.name = "fp16_d128_s4", .signature = DR_SIG("fp16"), .constexprs = "HEAD_DIM=128 NUM_SPLITS=4 BLOCK_S=4",
     .problem = "SEQS=3 HEADS=16", .num_warps = 4},
    {.name = "bf16_d128_s8", .signature = DR_SIG("bf16"), .constexprs = "HEAD_DIM=128 NUM_SPLITS=8 BLOCK_S=8",
     .problem = "SEQS=4 HEADS=8", .num_warps = 4},
    {.name = "bf16_d256_s5_tail", .signature = DR_SIG("bf16"), .constexprs = "HEAD_DIM=256 NUM_SPLITS=5 BLOCK_S=8",
     .problem = "SEQS=3 HEADS=6", .num_warps = 4});
