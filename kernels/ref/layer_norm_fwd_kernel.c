/* Reference of layer_norm_fwd_kernel (kernels/layer_norm.c): y = (x - mean) * rstd * w + b per row. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t m = ct_ref_problem(c, "M", 48), n = ct_ref_problem(c, "N", 1000);
    ct_emu_dtype xt = ct_ref_sig_dtype(c, "X"), yt = ct_ref_sig_dtype(c, "Y");
    double rtol, atol;
    ct_ref_tol(yt, &rtol, &atol);
    c->hard_max = 1e4; /* --inputs hard: large activations whose mean cancels */
    ct_ref_input_normal(c, "X", xt, m * n, 1.0, 1.0);
    c->hard_max = 0;
    ct_ref_output(c, "Y", yt, m * n, rtol, atol);
    ct_ref_input_normal(c, "W", ct_ref_sig_dtype(c, "W"), n, 0.1, 1.0);
    ct_ref_input_normal(c, "B", ct_ref_sig_dtype(c, "B"), n, 0.1, 0.0);
    ct_ref_output(c, "Mean", CT_EMU_F32, m, 1e-5, 1e-5);
    ct_ref_output(c, "Rstd", CT_EMU_F32, m, 1e-5, 1e-5);
    ct_ref_int(c, "stride", n);
    ct_ref_int(c, "N", n);
    ct_ref_float(c, "eps", 1e-5);
    c->grid[0] = (int)m;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "X"), *y = ct_ref_find_arg(c, "Y");
    ct_ref_arg *w = ct_ref_find_arg(c, "W"), *b = ct_ref_find_arg(c, "B");
    ct_ref_arg *mean = ct_ref_find_arg(c, "Mean"), *rstd = ct_ref_find_arg(c, "Rstd");
    int64_t n = ct_ref_find_arg(c, "N")->i, m = mean->n;
    double eps = ct_ref_find_arg(c, "eps")->f;
    for (int64_t r = 0; r < m; r++) {
        double s = 0, v = 0;
        for (int64_t j = 0; j < n; j++)
            s += ct_ref_in(x, r * n + j);
        double mu = s / n;
        for (int64_t j = 0; j < n; j++) {
            double d = ct_ref_in(x, r * n + j) - mu;
            v += d * d;
        }
        double rs = 1 / sqrt(v / n + eps);
        ct_ref_want(mean, r, mu);
        ct_ref_want(rstd, r, rs);
        for (int64_t j = 0; j < n; j++)
            ct_ref_want(y, r * n + j,
                        (ct_ref_in(x, r * n + j) - mu) * rs * ct_ref_in(w, j) + ct_ref_in(b, j));
    }
}

const ct_kernel_ref layer_norm_fwd_kernel__ref = {
    "layer_norm_fwd_kernel", setup, reference, "N:BLOCK_SIZE"};
