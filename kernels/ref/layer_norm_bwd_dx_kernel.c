/* Reference of layer_norm_bwd_dx_kernel and rms_norm_bwd_dx_kernel (kernels/norm_bwd.c):
 * dx per row from the saved mean and 1/std, and the group partial rows of dw (and db)
 * summed from zero; every lock released at the end. */
#include <math.h>
#include <stdlib.h>

#include "ctriton/ref.h"

static bool setup_norm(ct_ref_case *c, bool rms)
{
    int64_t m = ct_ref_problem(c, "M", 40), n = ct_ref_problem(c, "N", 1000);
    int64_t groups = ct_ref_constexpr(c, "GROUP_SIZE_M", 8);
    if (!ct_ref_one_block(c, "N", n, "BLOCK_N"))
        return false;
    ct_emu_dtype t = ct_ref_sig_dtype(c, "X");
    double rtol, atol;
    ct_ref_tol(ct_ref_sig_dtype(c, "DX"), &rtol, &atol);
    ct_ref_output(c, "DX", ct_ref_sig_dtype(c, "DX"), m * n, rtol, atol);
    c->hard_max = 100; /* --inputs hard: large gradients (the weights stay near 1) */
    ct_ref_input_normal(c, "DY", t, m * n, 1.0, 0.0);
    c->hard_max = 0;
    ct_ref_arg *x = ct_ref_input_normal(c, "X", t, m * n, 1.0, rms ? 0.0 : 0.5);
    ct_ref_input_normal(c, "W", ct_ref_sig_dtype(c, "W"), n, 0.1, 1.0);
    /* the forward pass's saved statistics of each row, in fp32 as it stores them */
    ct_ref_arg *mean = rms ? NULL : ct_ref_input(c, "Mean", CT_EMU_F32, m, 0, 0);
    ct_ref_arg *rstd = ct_ref_input(c, "Rstd", CT_EMU_F32, m, 0, 0);
    for (int64_t r = 0; x && rstd && r < m; r++) {
        double s = 0, v = 0;
        for (int64_t j = 0; !rms && j < n; j++)
            s += ct_ref_in(x, r * n + j);
        double mu = s / n;
        for (int64_t j = 0; j < n; j++) {
            double d = ct_ref_in(x, r * n + j) - mu;
            v += d * d;
        }
        if (mean)
            ct_emu_set(CT_EMU_F32, mean->data, r, mu);
        ct_emu_set(CT_EMU_F32, rstd->data, r, 1 / sqrt(v / n + 1e-5));
    }
    /* partial sums of about m / groups terms of size ~1 */
    ct_ref_inout(c, "DW_partial", CT_EMU_F32, groups * n, 0, 1e-5, 1e-5);
    if (!rms)
        ct_ref_inout(c, "DB_partial", CT_EMU_F32, groups * n, 0, 1e-5, 1e-5);
    ct_ref_inout(c, "Locks", CT_EMU_I32, groups, 0, 0, 0);
    ct_ref_int(c, "stride", n);
    ct_ref_int(c, "N", n);
    c->grid[0] = (int)m;
    return true;
}

static void reference_norm(ct_ref_case *c, bool rms)
{
    ct_ref_arg *dx = ct_ref_find_arg(c, "DX"), *dy = ct_ref_find_arg(c, "DY");
    ct_ref_arg *x = ct_ref_find_arg(c, "X"), *w = ct_ref_find_arg(c, "W");
    ct_ref_arg *mean = rms ? NULL : ct_ref_find_arg(c, "Mean"), *rstd = ct_ref_find_arg(c, "Rstd");
    ct_ref_arg *dw = ct_ref_find_arg(c, "DW_partial"), *db = rms ? NULL : ct_ref_find_arg(c, "DB_partial");
    ct_ref_arg *locks = ct_ref_find_arg(c, "Locks");
    int64_t n = ct_ref_find_arg(c, "N")->i, m = rstd->n, groups = locks->n;
    for (int64_t i = 0; i < groups * n; i++) {
        ct_ref_want(dw, i, 0);
        if (db)
            ct_ref_want(db, i, 0);
    }
    for (int64_t i = 0; i < groups; i++)
        ct_ref_want(locks, i, 0);
    double *acc = calloc((size_t)(4 * groups * n), sizeof(double)), *mag = acc + 2 * groups * n;
    if (!acc)
        return;
    double dx_mag = 0; /* the largest sum of |terms| of a DX: f32 rounds relative to it */
    for (int64_t r = 0; r < m; r++) {
        double mu = mean ? ct_ref_in(mean, r) : 0, rs = ct_ref_in(rstd, r), c1 = 0, c2 = 0;
        for (int64_t j = 0; j < n; j++) {
            double g = ct_ref_in(w, j) * ct_ref_in(dy, r * n + j);
            c1 += g * (ct_ref_in(x, r * n + j) - mu) * rs;
            c2 += g;
        }
        c1 /= n;
        c2 = rms ? 0 : c2 / n;
        int64_t grp = r % groups;
        for (int64_t j = 0; j < n; j++) {
            double xh = (ct_ref_in(x, r * n + j) - mu) * rs, d = ct_ref_in(dy, r * n + j);
            ct_ref_want(dx, r * n + j, (ct_ref_in(w, j) * d - (xh * c1 + c2)) * rs);
            dx_mag = fmax(dx_mag, (fabs(ct_ref_in(w, j) * d) + fabs(xh * c1) + fabs(c2)) * rs);
            acc[grp * n + j] += d * xh;
            acc[(groups + grp) * n + j] += d;
            mag[grp * n + j] += fabs(d * xh);
            mag[(groups + grp) * n + j] += fabs(d);
        }
    }
    double pw_mag = 0, pb_mag = 0;
    for (int64_t i = 0; i < groups * n; i++) {
        ct_ref_want(dw, i, acc[i]);
        if (db)
            ct_ref_want(db, i, acc[groups * n + i]);
        pw_mag = fmax(pw_mag, mag[i]);
        pb_mag = fmax(pb_mag, mag[groups * n + i]);
    }
    free(acc);
    /* hard inputs cancel: the f32 result is then exact only to a few ulp of the terms'
     * magnitude, not of the (small) result */
    if (c->inputs == CT_REF_INPUTS_HARD) {
        dx->atol = fmax(dx->atol, 0x1p-20 * dx_mag);
        dw->atol = fmax(dw->atol, 0x1p-20 * pw_mag);
        if (db)
            db->atol = fmax(db->atol, 0x1p-20 * pb_mag);
    }
}

static bool setup_ln(ct_ref_case *c) { return setup_norm(c, false); }
static void reference_ln(ct_ref_case *c) { reference_norm(c, false); }
static bool setup_rms(ct_ref_case *c) { return setup_norm(c, true); }
static void reference_rms(ct_ref_case *c) { reference_norm(c, true); }

const ct_kernel_ref layer_norm_bwd_dx_kernel__ref = {
    "layer_norm_bwd_dx_kernel", setup_ln, reference_ln, "N:BLOCK_N"};
const ct_kernel_ref rms_norm_bwd_dx_kernel__ref = {
    "rms_norm_bwd_dx_kernel", setup_rms, reference_rms, "N:BLOCK_N"};
