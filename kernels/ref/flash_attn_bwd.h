/* Shared by the references of the flash attention backward kernels (kernels/flash_attn_bwd.c):
 * the forward's tensors for random Q, K, V and dO ([Z_H, N_CTX, HEAD_DIM]), and the
 * gradients the kernels compute from them, in double.
 *
 * The inputs the backward kernels take from the forward are made as the forward makes them:
 * LSE the fp32 log2-sum-exp of q k * sm_scale (base 2), Delta the fp32 rowsum(O * dO) with O
 * the exact attention output rounded to the inputs' dtype.  From those:
 *     P = exp2(q k * sm_scale * log2(e) - LSE) (0 above the diagonal with CAUSAL),
 *     dV = P^T dO, dS = P * (dO V^T - Delta), dQ = dS K * sm_scale, dK = dS^T Q * sm_scale.
 * The kernels round P and dS to the inputs' dtype before their dots, so the error of an
 * element is bounded by the dtype's unit roundoff times the sum of its terms' magnitudes:
 * each output's atol is that times the largest such sum. */
#ifndef KERNELS_REF_FLASH_ATTN_BWD_H
#define KERNELS_REF_FLASH_ATTN_BWD_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/ref.h"

/* the unit roundoff of a half-precision dtype (fp16: 2**-11, bf16: 2**-8) */
static double fab_unit(ct_emu_dtype t)
{
    return t == CT_EMU_BF16 ? 0x1p-8 : t == CT_EMU_F16 ? 0x1p-11 : 0x1p-24;
}

static double fab_round(ct_emu_dtype t, double v)
{
    uint64_t tmp = 0;
    ct_emu_set(t, &tmp, 0, v);
    return ct_emu_get(t, &tmp, 0);
}

/* Q, K, V, DO, LSE and Delta of a dk/dv or dq kernel's case, sm_scale, N_CTX and the grid
 * (programs of `block` rows, Z_H heads). */
static bool fab_setup_inputs(ct_ref_case *c, const char *block)
{
    int64_t zh = ct_ref_problem(c, "Z_H", 2), n = ct_ref_problem(c, "N_CTX", 256);
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 64);
    bool causal = ct_ref_constexpr(c, "CAUSAL", 0) != 0;
    ct_emu_dtype t = ct_ref_sig_dtype(c, "Q");
    ct_ref_arg *q = ct_ref_input_normal(c, "Q", t, zh * n * d, 1.0, 0.0);
    ct_ref_arg *k = ct_ref_input_normal(c, "K", t, zh * n * d, 1.0, 0.0);
    ct_ref_arg *v = ct_ref_input_normal(c, "V", t, zh * n * d, 1.0, 0.0);
    ct_ref_arg *dout = ct_ref_input_normal(c, "DO", t, zh * n * d, 1.0, 0.0);
    ct_ref_arg *lse = ct_ref_input(c, "LSE", CT_EMU_F32, zh * n, 0, 0);
    ct_ref_arg *delta = ct_ref_input(c, "Delta", CT_EMU_F32, zh * n, 0, 0);
    double scale = 1.0 / sqrt((double)d);
    ct_ref_float(c, "sm_scale", scale);
    ct_ref_int(c, "N_CTX", n);
    c->grid[0] = (int)ct_ref_cdiv(n, ct_ref_constexpr(c, block, 64));
    c->grid[1] = (int)zh;
    double *s = malloc(sizeof(double) * (size_t)n), *o = malloc(sizeof(double) * (size_t)d);
    if (!q || !k || !v || !dout || !lse || !delta || !s || !o) {
        free(s);
        free(o);
        return ct_ref_fail(c, "flash attention backward: out of memory");
    }
    double sc = (float)scale;
    for (int64_t h = 0; h < zh; h++)
        for (int64_t i = 0; i < n; i++) {
            int64_t base = h * n * d, last = causal ? i : n - 1;
            double mx = -INFINITY, sum = 0;
            for (int64_t j = 0; j <= last; j++) {
                double dot = 0;
                for (int64_t e = 0; e < d; e++)
                    dot += ct_ref_in(q, base + i * d + e) * ct_ref_in(k, base + j * d + e);
                s[j] = dot * sc;
                mx = fmax(mx, s[j]);
            }
            memset(o, 0, sizeof(double) * (size_t)d);
            for (int64_t j = 0; j <= last; j++) {
                double p = exp(s[j] - mx);
                sum += p;
                for (int64_t e = 0; e < d; e++)
                    o[e] += p * ct_ref_in(v, base + j * d + e);
            }
            double dl = 0;
            for (int64_t e = 0; e < d; e++)
                dl += fab_round(t, o[e] / sum) * ct_ref_in(dout, base + i * d + e);
            ct_emu_set(CT_EMU_F32, lse->data, h * n + i, (mx + log(sum)) / log(2.0));
            ct_emu_set(CT_EMU_F32, delta->data, h * n + i, dl);
        }
    free(s);
    free(o);
    return true;
}

/* dQ (dq != NULL) or dK and dV, in double, with the largest sums of magnitudes behind an
 * element for the tolerances (mag[0]: dq or dk, mag[1]: dv). */
static void fab_grads(ct_ref_case *c, ct_ref_arg *dq, ct_ref_arg *dk, ct_ref_arg *dv)
{
    ct_ref_arg *q = ct_ref_find_arg(c, "Q"), *k = ct_ref_find_arg(c, "K"), *v = ct_ref_find_arg(c, "V");
    ct_ref_arg *dout = ct_ref_find_arg(c, "DO"), *lse = ct_ref_find_arg(c, "LSE");
    ct_ref_arg *delta = ct_ref_find_arg(c, "Delta");
    int64_t n = ct_ref_find_arg(c, "N_CTX")->i, d = ct_ref_constexpr(c, "HEAD_DIM", 64), zh = lse->n / n;
    bool causal = ct_ref_constexpr(c, "CAUSAL", 0) != 0;
    double sc = (float)ct_ref_find_arg(c, "sm_scale")->f;
    size_t nd = (size_t)(n * d);
    /* per head: P and dS (n x n), the gradients and their magnitudes (n x d) */
    double *p = malloc(sizeof(double) * (size_t)(n * n)), *ds = malloc(sizeof(double) * (size_t)(n * n));
    double *dsm = malloc(sizeof(double) * (size_t)(n * n));
    double *g0 = malloc(sizeof(double) * nd), *m0 = malloc(sizeof(double) * nd);
    double *g1 = malloc(sizeof(double) * nd), *m1 = malloc(sizeof(double) * nd);
    double mag0 = 0, mag1 = 0;
    for (int64_t h = 0; p && ds && dsm && g0 && m0 && g1 && m1 && h < zh; h++) {
        int64_t base = h * n * d;
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                double pij = 0, dp = 0, dpm = 0;
                if (!causal || j <= i) {
                    double dot = 0;
                    for (int64_t e = 0; e < d; e++) {
                        dot += ct_ref_in(q, base + i * d + e) * ct_ref_in(k, base + j * d + e);
                        double t = ct_ref_in(dout, base + i * d + e) * ct_ref_in(v, base + j * d + e);
                        dp += t;
                        dpm += fabs(t);
                    }
                    pij = exp2(dot * sc / log(2.0) - ct_ref_in(lse, h * n + i));
                }
                double dl = ct_ref_in(delta, h * n + i);
                p[i * n + j] = pij;
                ds[i * n + j] = pij * (dp - dl);
                dsm[i * n + j] = pij * (dpm + fabs(dl));
            }
        memset(g0, 0, sizeof(double) * nd);
        memset(m0, 0, sizeof(double) * nd);
        memset(g1, 0, sizeof(double) * nd);
        memset(m1, 0, sizeof(double) * nd);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++) {
                double pij = p[i * n + j], dsij = ds[i * n + j], dsmij = dsm[i * n + j];
                if (pij == 0)
                    continue;
                for (int64_t e = 0; e < d; e++) {
                    if (dq) {
                        double kj = ct_ref_in(k, base + j * d + e);
                        g0[i * d + e] += dsij * kj;
                        m0[i * d + e] += dsmij * fabs(kj);
                    } else {
                        double qi = ct_ref_in(q, base + i * d + e), doi = ct_ref_in(dout, base + i * d + e);
                        g0[j * d + e] += dsij * qi;
                        m0[j * d + e] += dsmij * fabs(qi);
                        g1[j * d + e] += pij * doi;
                        m1[j * d + e] += pij * fabs(doi);
                    }
                }
            }
        for (size_t x = 0; x < nd; x++) {
            if (dq) {
                ct_ref_want(dq, base + (int64_t)x, g0[x] * sc);
            } else {
                ct_ref_want(dk, base + (int64_t)x, g0[x] * sc);
                ct_ref_want(dv, base + (int64_t)x, g1[x]);
            }
            mag0 = fmax(mag0, m0[x] * sc);
            mag1 = fmax(mag1, m1[x]);
        }
    }
    ct_ref_arg *first = dq ? dq : dk;
    first->atol = fmax(first->atol, 2 * fab_unit(first->dtype) * mag0);
    if (dv)
        dv->atol = fmax(dv->atol, 2 * fab_unit(dv->dtype) * mag1);
    free(p);
    free(ds);
    free(dsm);
    free(g0);
    free(m0);
    free(g1);
    free(m1);
}

#endif
