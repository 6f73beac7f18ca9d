/* Reference of fused_moe_kernel (kernels/fused_moe.c): C[t] = A[t // TOP_K] @ B[e]^T for each
 * (token, k) pair t routed to expert e, each term scaled by its A and B block scales with
 * USE_FP8_W8A8, times the pair's routing weight with MUL_ROUTED_WEIGHT; in double.  The
 * sorted ids, block experts and padded total are moe_align_block_size_kernel's, for a block
 * size of BLOCK_M. */
#include <math.h>
#include <stdlib.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t tokens = ct_ref_problem(c, "TOKENS", 16), e = ct_ref_problem(c, "E", 8);
    int64_t n = ct_ref_problem(c, "N", 256), k = ct_ref_problem(c, "K", 256);
    int64_t topk = ct_ref_constexpr(c, "TOP_K", 2), bm = ct_ref_constexpr(c, "BLOCK_M", 64);
    int64_t bn = ct_ref_constexpr(c, "BLOCK_N", 64), bk = ct_ref_constexpr(c, "BLOCK_K", 64);
    bool fp8 = ct_ref_constexpr(c, "USE_FP8_W8A8", 0) != 0;
    int64_t gn = ct_ref_constexpr(c, "GROUP_N", 0), gk = ct_ref_constexpr(c, "GROUP_K", 0);
    if (topk < 1 || topk > e)
        return ct_ref_fail(c, "fused_moe_kernel needs 1 <= TOP_K <= E (TOP_K=%lld E=%lld)", (long long)topk,
                           (long long)e);
    if (fp8 && (gn < 1 || gk < 1 || gk % bk))
        return ct_ref_fail(c, "fused_moe_kernel with USE_FP8_W8A8 needs GROUP_N >= 1 and BLOCK_K dividing GROUP_K "
                              "(GROUP_N=%lld GROUP_K=%lld BLOCK_K=%lld)",
                           (long long)gn, (long long)gk, (long long)bk);
    int64_t numel = tokens * topk, em = numel + e * (bm - 1);
    /* the routing: each token to TOP_K distinct experts (hard inputs: half the tokens to the
     * first experts, so that a few experts take most rows), aligned as the alignment kernel does */
    int64_t *ids = malloc(sizeof(int64_t) * (size_t)(numel ? numel : 1)), *perm = malloc(sizeof(int64_t) * (size_t)e);
    int64_t *start = calloc((size_t)e + 1, sizeof(int64_t)), *fill = calloc((size_t)e + 1, sizeof(int64_t));
    ct_ref_arg *sorted = ct_ref_input(c, "sorted_token_ids_ptr", CT_EMU_I32, em, 0, 0);
    ct_ref_arg *owner = ct_ref_input(c, "expert_ids_ptr", CT_EMU_I32, ct_ref_cdiv(em, bm), 0, 0);
    ct_ref_arg *post = ct_ref_input(c, "num_tokens_post_padded_ptr", CT_EMU_I32, 1, 0, 0);
    bool ok = ids && perm && start && fill && sorted && owner && post;
    for (int64_t tok = 0; ok && tok < tokens; tok++) {
        bool skew = c->inputs == CT_REF_INPUTS_HARD && ct_ref_rand(c) < 0.5;
        for (int64_t x = 0; x < e; x++)
            perm[x] = x;
        for (int64_t j = 0; j < topk; j++) {
            int64_t r = skew ? j : j + (int64_t)(ct_ref_rand(c) * (double)(e - j));
            int64_t s = perm[j];
            perm[j] = perm[r];
            perm[r] = s;
            ids[tok * topk + j] = perm[j];
            fill[perm[j]]++;
        }
    }
    if (ok) {
        for (int64_t x = 0; x < e; x++)
            start[x + 1] = start[x] + (fill[x] + bm - 1) / bm * bm;
        for (int64_t i = 0; i < sorted->n; i++)
            ct_emu_set(CT_EMU_I32, sorted->data, i, (double)numel);
        for (int64_t i = 0; i < owner->n; i++)
            ct_emu_set(CT_EMU_I32, owner->data, i, 0);
        for (int64_t x = 0; x < e; x++) {
            for (int64_t s = start[x]; s < start[x + 1]; s += bm)
                ct_emu_set(CT_EMU_I32, owner->data, s / bm, (double)x);
            fill[x] = start[x];
        }
        for (int64_t i = 0; i < numel; i++)
            ct_emu_set(CT_EMU_I32, sorted->data, fill[ids[i]]++, (double)i);
        ct_emu_set(CT_EMU_I32, post->data, 0, (double)start[e]);
    }
    free(ids);
    free(perm);
    free(start);
    free(fill);
    if (!ok)
        return ct_ref_fail(c, "fused_moe_kernel: out of memory for %lld routed rows", (long long)numel);
    ct_emu_dtype at = ct_ref_sig_dtype(c, "a_ptr"), bt = ct_ref_sig_dtype(c, "b_ptr");
    ct_ref_input_normal(c, "a_ptr", at, tokens * k, fp8 ? 2.0 : 1.0, 0.0);
    ct_ref_input_normal(c, "b_ptr", bt, e * n * k, fp8 ? 2.0 : 1.0 / sqrt((double)k), 0.0);
    int64_t ks = fp8 ? ct_ref_cdiv(k, gk) : 0, ns = fp8 ? ct_ref_cdiv(n, gn) : 0;
    if (fp8) {
        ct_ref_input(c, "a_scale_ptr", CT_EMU_F32, tokens * ks, 0.001, 0.011);
        ct_ref_input(c, "b_scale_ptr", CT_EMU_F32, e * ns * ks, 0.001, 0.011);
    }
    ct_ref_input(c, "topk_weights_ptr", CT_EMU_F32, numel, 0.0, 1.0);
    double rtol, atol;
    ct_ref_tol(ct_ref_sig_dtype(c, "c_ptr"), &rtol, &atol);
    ct_ref_output(c, "c_ptr", ct_ref_sig_dtype(c, "c_ptr"), numel * n, rtol, atol);
    ct_ref_int(c, "N", n);
    ct_ref_int(c, "K", k);
    ct_ref_int(c, "EM", em);
    ct_ref_int(c, "num_valid_tokens", numel);
    ct_ref_int(c, "stride_am", k);
    ct_ref_int(c, "stride_be", n * k);
    ct_ref_int(c, "stride_bn", k);
    ct_ref_int(c, "stride_cm", n);
    ct_ref_int(c, "stride_asm", ks);
    ct_ref_int(c, "stride_ask", fp8 ? 1 : 0);
    ct_ref_int(c, "stride_bse", ns * ks);
    ct_ref_int(c, "stride_bsn", ks);
    ct_ref_int(c, "stride_bsk", fp8 ? 1 : 0);
    c->grid[0] = (int)(ct_ref_cdiv(em, bm) * ct_ref_cdiv(n, bn));
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *a = ct_ref_find_arg(c, "a_ptr"), *b = ct_ref_find_arg(c, "b_ptr"), *o = ct_ref_find_arg(c, "c_ptr");
    ct_ref_arg *as = ct_ref_find_arg(c, "a_scale_ptr"), *bsc = ct_ref_find_arg(c, "b_scale_ptr");
    ct_ref_arg *w = ct_ref_find_arg(c, "topk_weights_ptr"), *sorted = ct_ref_find_arg(c, "sorted_token_ids_ptr");
    ct_ref_arg *owner = ct_ref_find_arg(c, "expert_ids_ptr"), *post = ct_ref_find_arg(c, "num_tokens_post_padded_ptr");
    int64_t n = ct_ref_find_arg(c, "N")->i, k = ct_ref_find_arg(c, "K")->i;
    int64_t numel = ct_ref_find_arg(c, "num_valid_tokens")->i;
    int64_t topk = ct_ref_constexpr(c, "TOP_K", 2), bm = ct_ref_constexpr(c, "BLOCK_M", 64);
    bool fp8 = ct_ref_constexpr(c, "USE_FP8_W8A8", 0) != 0;
    bool routed = ct_ref_constexpr(c, "MUL_ROUTED_WEIGHT", 0) != 0;
    int64_t gn = ct_ref_constexpr(c, "GROUP_N", 0), gk = ct_ref_constexpr(c, "GROUP_K", 0);
    int64_t ks = fp8 ? ct_ref_cdiv(k, gk) : 0, ns = fp8 ? ct_ref_cdiv(n, gn) : 0;
    double *arow = malloc(sizeof(double) * (size_t)(k ? k : 1));
    double *bx = malloc(sizeof(double) * (size_t)(n > 0 && k > 0 ? n * k : 1));
    double maxmag = 0;
    /* each routed row from the alignment: slot s of the padded total holds row t of C,
     * owned by the expert of its block (the slots come expert by expert: B[x], its scales
     * applied, is made once per expert) */
    int64_t total = (int64_t)ct_ref_in(post, 0), have = -1;
    for (int64_t s = 0; arow && bx && s < total; s++) {
        int64_t t = (int64_t)ct_ref_in(sorted, s);
        if (t >= numel)
            continue;
        int64_t x = (int64_t)ct_ref_in(owner, s / bm), tok = t / topk;
        if (x != have) {
            for (int64_t j = 0; j < n; j++)
                for (int64_t q = 0; q < k; q++)
                    bx[j * k + q] = ct_ref_in(b, (x * n + j) * k + q) *
                                    (fp8 ? ct_ref_in(bsc, (x * ns + j / gn) * ks + q / gk) : 1.0);
            have = x;
        }
        double wt = routed ? ct_ref_in(w, t) : 1.0;
        for (int64_t q = 0; q < k; q++)
            arow[q] = ct_ref_in(a, tok * k + q) * (fp8 ? ct_ref_in(as, tok * ks + q / gk) : 1.0);
        for (int64_t j = 0; j < n; j++) {
            double sum = 0, mag = 0;
            const double *bj = bx + j * k;
            for (int64_t q = 0; q < k; q++) {
                sum += arow[q] * bj[q];
                mag += fabs(arow[q] * bj[q]);
            }
            ct_ref_want(o, t * n + j, sum * wt);
            if (mag * wt > maxmag)
                maxmag = mag * wt;
        }
    }
    free(arow);
    free(bx);
    /* bf16 output: one rounding (rtol, the want rounded too: one bf16 ulp); the fp32
     * accumulation's error, a small part of the largest sum of |terms| (where they cancel);
     * Hopper's fp8 MMA keeps ~14 bits per 32 products and truncates: 2^-9 of it, as
     * matmul_kernel's reference */
    o->atol = ldexp(maxmag, fp8 ? -9 : -14);
}

const ct_kernel_ref fused_moe_kernel__ref = {"fused_moe_kernel", setup, reference, "TOKENS:BLOCK_M"};
