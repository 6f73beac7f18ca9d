/* Reference of flash_attn_fwd_kernel (kernels/flash_attn.c): per (batch x head) and query
 * row, O = softmax(q K^T * sm_scale) V over the keys it sees (all, or up to the query with
 * CAUSAL), and LSE = log2(sum exp(q k * sm_scale)). */
#include <math.h>
#include <stdlib.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t zh = ct_ref_problem(c, "Z_H", 2), n = ct_ref_problem(c, "N_CTX", 256);
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 64);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "Q");
    double rtol, atol;
    ct_ref_tol(t, &rtol, &atol);
    ct_ref_input_normal(c, "Q", t, zh * n * d, 1.0, 0.0);
    ct_ref_input_normal(c, "K", t, zh * n * d, 1.0, 0.0);
    ct_ref_input_normal(c, "V", t, zh * n * d, 1.0, 0.0);
    ct_ref_output(c, "O", t, zh * n * d, rtol, atol);
    ct_ref_output(c, "LSE", CT_EMU_F32, zh * n, 1e-5, 1e-4);
    ct_ref_float(c, "sm_scale", 1.0 / sqrt((double)d));
    ct_ref_int(c, "Z_H", zh);
    ct_ref_int(c, "N_CTX", n);
    c->grid[0] = (int)ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK_M", 128));
    c->grid[1] = (int)zh;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *q = ct_ref_find_arg(c, "Q"), *k = ct_ref_find_arg(c, "K"), *v = ct_ref_find_arg(c, "V");
    ct_ref_arg *o = ct_ref_find_arg(c, "O"), *lse = ct_ref_find_arg(c, "LSE");
    int64_t zh = ct_ref_find_arg(c, "Z_H")->i, n = ct_ref_find_arg(c, "N_CTX")->i;
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 64);
    bool causal = ct_ref_constexpr(c, "CAUSAL", 0) != 0;
    double scale = (float)ct_ref_find_arg(c, "sm_scale")->f;
    double *s = malloc(sizeof(double) * (size_t)n), *acc = malloc(sizeof(double) * (size_t)d);
    for (int64_t h = 0; s && acc && h < zh; h++)
        for (int64_t i = 0; i < n; i++) {
            int64_t last = causal ? i : n - 1, base = h * n * d;
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j <= last; j++) {
                double dot = 0;
                for (int64_t e = 0; e < d; e++)
                    dot += ct_ref_in(q, base + i * d + e) * ct_ref_in(k, base + j * d + e);
                s[j] = dot * scale;
                mx = fmax(mx, s[j]);
            }
            for (int64_t e = 0; e < d; e++)
                acc[e] = 0;
            for (int64_t j = 0; j <= last; j++) {
                double p = exp(s[j] - mx);
                sum += p;
                for (int64_t e = 0; e < d; e++)
                    acc[e] += p * ct_ref_in(v, base + j * d + e);
            }
            for (int64_t e = 0; e < d; e++)
                ct_ref_want(o, base + i * d + e, acc[e] / sum);
            ct_ref_want(lse, h * n + i, (mx + log(sum)) / log(2.0));
        }
    free(s);
    free(acc);
}

const ct_kernel_ref flash_attn_fwd_kernel__ref = {
    "flash_attn_fwd_kernel", setup, reference, "N_CTX:BLOCK_M"};
