/* Reference of rms_norm_fwd_kernel (kernels/rms_norm.c): y = x * rsqrt(mean(x^2) + eps) * w per row. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t m = ct_ref_problem(c, "M", 40), n = ct_ref_problem(c, "N", 1000);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "X");
    double rtol, atol;
    ct_ref_tol(ct_ref_sig_dtype(c, "Y"), &rtol, &atol);
    c->hard_max = 1e4; /* --inputs hard: large activations (W stays near 1) */
    ct_ref_input_normal(c, "X", t, m * n, 1.0, 0.0);
    c->hard_max = 0;
    ct_ref_output(c, "Y", ct_ref_sig_dtype(c, "Y"), m * n, rtol, atol);
    ct_ref_input_normal(c, "W", ct_ref_sig_dtype(c, "W"), n, 0.1, 1.0);
    ct_ref_output(c, "Rstd", CT_EMU_F32, m, 1e-5, 1e-5);
    ct_ref_int(c, "stride", n);
    ct_ref_int(c, "N", n);
    ct_ref_float(c, "eps", 1e-6);
    c->grid[0] = (int)m;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "X"), *y = ct_ref_find_arg(c, "Y");
    ct_ref_arg *w = ct_ref_find_arg(c, "W"), *rstd = ct_ref_find_arg(c, "Rstd");
    int64_t n = ct_ref_find_arg(c, "N")->i, m = rstd->n;
    double eps = ct_ref_find_arg(c, "eps")->f;
    for (int64_t r = 0; r < m; r++) {
        double s = 0;
        for (int64_t j = 0; j < n; j++) {
            double v = ct_ref_in(x, r * n + j);
            s += v * v;
        }
        double rs = 1 / sqrt(s / n + eps);
        ct_ref_want(rstd, r, rs);
        for (int64_t j = 0; j < n; j++)
            ct_ref_want(y, r * n + j, ct_ref_in(x, r * n + j) * rs * ct_ref_in(w, j));
    }
}

const ct_kernel_ref rms_norm_fwd_kernel__ref = {
    "rms_norm_fwd_kernel", setup, reference, "N:BLOCK_SIZE"};
