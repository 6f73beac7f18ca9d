/* Reference of rope_kernel (kernels/rope.c): rotary embedding of q, in place, forward or backward. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t tokens = ct_ref_problem(c, "T", 64), seq = ct_ref_problem(c, "S", 32);
    int64_t heads = ct_ref_constexpr(c, "n_qh", 32), hd = ct_ref_constexpr(c, "hd", 128);
    ct_emu_dtype qt = ct_ref_sig_dtype(c, "q_ptr");
    double rtol, atol;
    ct_ref_tol(qt, &rtol, &atol);
    ct_ref_arg *q = ct_ref_inout(c, "q_ptr", qt, tokens * heads * hd, 0, rtol, atol);
    for (int64_t i = 0; q && i < q->n; i++)
        ct_emu_set(qt, q->data, i, ct_ref_normal(c));
    ct_ref_int(c, "q_row_stride", heads * hd);
    /* cos and sin caches laid out (seq, hd) with the half-dim angles repeated */
    ct_ref_arg *co = ct_ref_input(c, "cos_ptr", ct_ref_sig_dtype(c, "cos_ptr"), seq * hd, 0, 0);
    ct_ref_arg *si = ct_ref_input(c, "sin_ptr", ct_ref_sig_dtype(c, "sin_ptr"), seq * hd, 0, 0);
    for (int64_t s = 0; co && si && s < seq; s++)
        for (int64_t d = 0; d < hd; d++) {
            double inv = pow(10000.0, -(double)(2 * (d % (hd / 2))) / (double)hd);
            ct_emu_set(co->dtype, co->data, s * hd + d, cos(s * inv));
            ct_emu_set(si->dtype, si->data, s * hd + d, sin(s * inv));
        }
    ct_ref_int(c, "cos_row_stride", hd);
    ct_ref_int(c, "sin_row_stride", hd);
    ct_ref_int(c, "seq_len", seq);
    c->grid[0] = (int)tokens;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *q = ct_ref_find_arg(c, "q_ptr");
    ct_ref_arg *co = ct_ref_find_arg(c, "cos_ptr"), *si = ct_ref_find_arg(c, "sin_ptr");
    int64_t heads = ct_ref_constexpr(c, "n_qh", 32), hd = ct_ref_constexpr(c, "hd", 128);
    int64_t seq = ct_ref_find_arg(c, "seq_len")->i, tokens = q->n / (heads * hd);
    bool bwd = ct_ref_constexpr(c, "BACKWARD_PASS", 0) != 0;
    for (int64_t t = 0; t < tokens; t++) {
        int64_t pos = t % seq;
        for (int64_t h = 0; h < heads; h++)
            for (int64_t d = 0; d < hd / 2; d++) {
                int64_t i1 = (t * heads + h) * hd + d, i2 = i1 + hd / 2;
                double x1 = ct_ref_in(q, i1), x2 = ct_ref_in(q, i2);
                double cs = ct_ref_in(co, pos * hd + d), sn = ct_ref_in(si, pos * hd + d);
                double y1 = bwd ? x1 * cs + x2 * sn : x1 * cs - x2 * sn;
                double y2 = bwd ? x2 * cs - x1 * sn : x2 * cs + x1 * sn;
                ct_ref_want(q, i1, y1);
                ct_ref_want(q, i2, y2);
            }
    }
}

const ct_kernel_ref rope_kernel__ref = {"rope_kernel", setup, reference, "T"};
