/* Reference of decode_attn_paged_splitk_kernel (kernels/decode_attn.c): for each sequence,
 * query head and split, the softmax-weighted mean of the values of the split's keys and the
 * log2-sum-exp of their logits (q k * sm_scale, squashed to cap * tanh(x / cap) with
 * SOFT_CAP), the keys gathered through the block table; the split's keys are the chunk
 * [s * L, min(s * L + L, n)) with L = cdiv(cdiv(n, NUM_SPLITS), BLOCK_N) * BLOCK_N, from
 * n - window on with SLIDING_WINDOW; an empty chunk gives zeros and -inf. */
#include <math.h>
#include <stdlib.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t seqs = ct_ref_problem(c, "SEQS", 3), kvh = ct_ref_problem(c, "KV_HEADS", 2);
    int64_t max_len = ct_ref_problem(c, "MAX_LEN", 256), window = ct_ref_problem(c, "WINDOW", 0);
    double cap = ct_ref_problem_float(c, "CAP", 0);
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 128), page = ct_ref_constexpr(c, "PAGE_SIZE", 16);
    int64_t group = ct_ref_constexpr(c, "GROUP_SIZE", 1), splits = ct_ref_constexpr(c, "NUM_SPLITS", 1);
    if (group > ct_ref_constexpr(c, "BLOCK_G", 16))
        return ct_ref_fail(c, "decode_attn_paged_splitk_kernel needs GROUP_SIZE <= BLOCK_G (%lld)", (long long)group);
    if (ct_ref_constexpr(c, "SOFT_CAP", 0) && !(cap > 0))
        return ct_ref_fail(c, "decode_attn_paged_splitk_kernel with SOFT_CAP needs CAP > 0 in the problem");
    if (ct_ref_constexpr(c, "SLIDING_WINDOW", 0) && window < 1)
        return ct_ref_fail(c, "decode_attn_paged_splitk_kernel with SLIDING_WINDOW needs WINDOW >= 1 in the problem");
    int64_t qh = kvh * group, per_seq = ct_ref_cdiv(max_len, page), pages = seqs * per_seq + 3;
    ct_emu_dtype t = ct_ref_sig_dtype(c, "Q");
    double rtol, atol;
    ct_ref_tol(t, &rtol, &atol);
    ct_ref_input_normal(c, "Q", t, seqs * qh * d, 1.0, 0.0);
    ct_ref_input_normal(c, "K_cache", t, pages * page * kvh * d, 1.0, 0.0);
    ct_ref_input_normal(c, "V_cache", t, pages * page * kvh * d, 1.0, 0.0);
    /* the block table: the first seqs * per_seq entries of a random permutation of the pages */
    ct_ref_arg *bt = ct_ref_input(c, "Block_tables", CT_EMU_I32, seqs * per_seq, 0, 0);
    int64_t *perm = malloc(sizeof(int64_t) * (size_t)pages);
    if (!bt || !perm) {
        free(perm);
        return ct_ref_fail(c, "decode_attn_paged_splitk_kernel: out of memory");
    }
    for (int64_t i = 0; i < pages; i++)
        perm[i] = i;
    for (int64_t i = pages - 1; i > 0; i--) {
        int64_t j = (int64_t)(ct_ref_rand(c) * (double)(i + 1)), tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
    for (int64_t i = 0; i < bt->n; i++)
        ct_emu_set(CT_EMU_I32, bt->data, i, (double)perm[i]);
    free(perm);
    /* the lengths: the longest, a short one, the rest random in [1, max_len] */
    ct_ref_arg *lens = ct_ref_input(c, "Seq_lens", CT_EMU_I32, seqs, 0, 0);
    for (int64_t s = 0; lens && s < seqs; s++) {
        int64_t n = s == 0 ? max_len : s == 1 ? 1 + max_len / 9 : 1 + (int64_t)(ct_ref_rand(c) * (double)max_len);
        ct_emu_set(CT_EMU_I32, lens->data, s, (double)(n > max_len ? max_len : n));
    }
    ct_ref_output(c, "O_part", CT_EMU_F32, seqs * qh * splits * d, rtol, atol);
    ct_ref_output(c, "LSE_part", CT_EMU_F32, seqs * qh * splits, 1e-5, 1e-4);
    ct_ref_float(c, "sm_scale", 1.0 / sqrt((double)d));
    ct_ref_float(c, "soft_cap", cap);
    ct_ref_int(c, "window", window);
    ct_ref_int(c, "stride_qs", qh * d);
    ct_ref_int(c, "stride_qh", d);
    ct_ref_int(c, "stride_kp", page * kvh * d);
    ct_ref_int(c, "stride_kt", kvh * d);
    ct_ref_int(c, "stride_kh", d);
    ct_ref_int(c, "stride_vp", page * kvh * d);
    ct_ref_int(c, "stride_vt", kvh * d);
    ct_ref_int(c, "stride_vh", d);
    ct_ref_int(c, "stride_bt", per_seq);
    c->grid[0] = (int)seqs;
    c->grid[1] = (int)kvh;
    c->grid[2] = (int)splits;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *q = ct_ref_find_arg(c, "Q"), *k = ct_ref_find_arg(c, "K_cache"), *v = ct_ref_find_arg(c, "V_cache");
    ct_ref_arg *bt = ct_ref_find_arg(c, "Block_tables"), *lens = ct_ref_find_arg(c, "Seq_lens");
    ct_ref_arg *o = ct_ref_find_arg(c, "O_part"), *lse = ct_ref_find_arg(c, "LSE_part");
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 128), page = ct_ref_constexpr(c, "PAGE_SIZE", 16);
    int64_t group = ct_ref_constexpr(c, "GROUP_SIZE", 1), splits = ct_ref_constexpr(c, "NUM_SPLITS", 1);
    int64_t block_n = ct_ref_constexpr(c, "BLOCK_N", 64);
    bool soft = ct_ref_constexpr(c, "SOFT_CAP", 0) != 0, sliding = ct_ref_constexpr(c, "SLIDING_WINDOW", 0) != 0;
    double scale = (float)ct_ref_find_arg(c, "sm_scale")->f, cap = (float)ct_ref_find_arg(c, "soft_cap")->f;
    int64_t window = ct_ref_find_arg(c, "window")->i, per_seq = ct_ref_find_arg(c, "stride_bt")->i;
    int64_t seqs = lens->n, qh = q->n / (seqs * d), kvh = qh / group;
    int64_t max_len = per_seq * page;
    double *logit = malloc(sizeof(double) * (size_t)max_len), *acc = malloc(sizeof(double) * (size_t)d);
    int64_t *row = malloc(sizeof(int64_t) * (size_t)max_len);
    for (int64_t s = 0; logit && acc && row && s < seqs; s++) {
        int64_t n = (int64_t)ct_ref_in(lens, s);
        /* each key's row of the cache ([page, slot] flattened, before the head) */
        for (int64_t j = 0; j < n; j++)
            row[j] = (int64_t)ct_ref_in(bt, s * per_seq + j / page) * page + j % page;
        int64_t split_len = ct_ref_cdiv(ct_ref_cdiv(n, splits), block_n) * block_n;
        for (int64_t h = 0; h < qh; h++) {
            int64_t kh = h / group, qbase = (s * qh + h) * d;
            for (int64_t j = 0; j < n; j++) {
                double dot = 0;
                int64_t kbase = (row[j] * kvh + kh) * d;
                for (int64_t e = 0; e < d; e++)
                    dot += ct_ref_in(q, qbase + e) * ct_ref_in(k, kbase + e);
                logit[j] = soft ? cap * tanh(dot * scale / cap) : dot * scale;
            }
            for (int64_t sp = 0; sp < splits; sp++) {
                int64_t lo = sp * split_len, hi = lo + split_len < n ? lo + split_len : n;
                if (sliding && lo < n - window)
                    lo = n - window;
                int64_t out = (s * qh + h) * splits + sp;
                double mx = -INFINITY, sum = 0;
                for (int64_t j = lo; j < hi; j++)
                    mx = fmax(mx, logit[j]);
                for (int64_t e = 0; e < d; e++)
                    acc[e] = 0;
                for (int64_t j = lo; j < hi; j++) {
                    double p = exp(logit[j] - mx);
                    int64_t vbase = (row[j] * kvh + kh) * d;
                    sum += p;
                    for (int64_t e = 0; e < d; e++)
                        acc[e] += p * ct_ref_in(v, vbase + e);
                }
                for (int64_t e = 0; e < d; e++)
                    ct_ref_want(o, out * d + e, lo < hi ? acc[e] / sum : 0.0);
                ct_ref_want(lse, out, lo < hi ? (mx + log(sum)) / log(2.0) : -INFINITY);
            }
        }
    }
    free(logit);
    free(acc);
    free(row);
}

const ct_kernel_ref decode_attn_paged_splitk_kernel__ref = {
    "decode_attn_paged_splitk_kernel", setup, reference, "MAX_LEN:BLOCK_N"};
