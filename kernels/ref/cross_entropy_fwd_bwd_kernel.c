/* Reference of cross_entropy_fwd_bwd_kernel (kernels/cross_entropy.c): per row the loss
 * logsumexp(x) - (1 - eps) x[label] - eps / V sum(x), and over the logits the gradient
 * (softmax(x) - q) * grad_scale; rows labelled ignore_index give 0 and 0. */
#include <math.h>

#include "ctriton/ref.h"

#define IGNORE_INDEX (-100)

static bool setup(ct_ref_case *c)
{
    c->hard_max = 1e4; /* --inputs hard: logits whose exp overflows unless the max is taken out */
    int64_t m = ct_ref_problem(c, "M", 8), v = ct_ref_problem(c, "V", 1000);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "logits_ptr");
    double rtol, atol;
    ct_ref_tol(t, &rtol, &atol);
    /* every third row is ignored; the others count for the mean */
    int64_t counted = m - (m + 1) / 3;
    double scale = counted ? 1.0 / (double)counted : 0.0;
    /* the gradient is about scale / V where the softmax is flat: the absolute
     * tolerance follows it, not the dtype's default (far above every value) */
    ct_ref_arg *x = ct_ref_inout(c, "logits_ptr", t, m * v, 0, rtol,
                                 (t == CT_EMU_F32 ? 1e-5 : rtol) * scale / (double)v);
    for (int64_t i = 0; x && i < x->n; i++)
        ct_emu_set(t, x->data, i, 2.0 * ct_ref_normal(c));
    ct_ref_arg *labels = ct_ref_input(c, "labels_ptr", CT_EMU_I64, m, 0, 0);
    for (int64_t r = 0; labels && r < m; r++)
        ct_emu_set(CT_EMU_I64, labels->data, r,
                   r % 3 == 1 ? IGNORE_INDEX : (double)(int64_t)(ct_ref_rand(c) * (double)v));
    ct_ref_output(c, "loss_ptr", CT_EMU_F32, m, 1e-5, 1e-4);
    ct_ref_int(c, "row_stride", v);
    ct_ref_int(c, "n_cols", v);
    ct_ref_int(c, "ignore_index", IGNORE_INDEX);
    ct_ref_float(c, "label_smoothing", ct_ref_problem_float(c, "SMOOTHING", 0.0));
    ct_ref_float(c, "grad_scale", scale);
    c->grid[0] = (int)m;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "logits_ptr"), *labels = ct_ref_find_arg(c, "labels_ptr");
    ct_ref_arg *loss = ct_ref_find_arg(c, "loss_ptr");
    int64_t v = ct_ref_find_arg(c, "n_cols")->i, m = loss->n;
    double eps = (float)ct_ref_find_arg(c, "label_smoothing")->f;
    double scale = (float)ct_ref_find_arg(c, "grad_scale")->f;
    for (int64_t r = 0; r < m; r++) {
        int64_t label = (int64_t)ct_ref_in(labels, r);
        if (label == IGNORE_INDEX) {
            ct_ref_want(loss, r, 0);
            for (int64_t j = 0; j < v; j++)
                ct_ref_want(x, r * v + j, 0);
            continue;
        }
        double mx = -INFINITY, sum = 0, sx = 0;
        for (int64_t j = 0; j < v; j++)
            mx = fmax(mx, ct_ref_in(x, r * v + j));
        for (int64_t j = 0; j < v; j++) {
            double xj = ct_ref_in(x, r * v + j);
            sum += exp(xj - mx);
            sx += xj;
        }
        double lse = mx + log(sum);
        ct_ref_want(loss, r, lse - (1 - eps) * ct_ref_in(x, r * v + label) - eps / (double)v * sx);
        for (int64_t j = 0; j < v; j++) {
            double p = exp(ct_ref_in(x, r * v + j) - mx) / sum;
            ct_ref_want(x, r * v + j, (p - eps / (double)v - (j == label ? 1 - eps : 0)) * scale);
        }
    }
}

const ct_kernel_ref cross_entropy_fwd_bwd_kernel__ref = {
    "cross_entropy_fwd_bwd_kernel", setup, reference, "V:BLOCK_SIZE"};
