/* Reference of norm_bwd_dwdb_kernel (kernels/norm_bwd.c): the column sums of the G partial
 * rows of dw (and, with HAS_BIAS, of db). */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_max = 1e30; /* --inputs hard: partial sums far from overflow of the f32 sum */
    int64_t g = ct_ref_problem(c, "G", 8), n = ct_ref_problem(c, "N", 1000);
    bool bias = ct_ref_constexpr(c, "HAS_BIAS", 1) != 0;
    ct_emu_dtype t = ct_ref_sig_dtype(c, "DW");
    double rtol, atol;
    ct_ref_tol(t, &rtol, &atol);
    ct_ref_input_normal(c, "DW_partial", CT_EMU_F32, g * n, 1.0, 0.0);
    ct_ref_input_normal(c, "DB_partial", CT_EMU_F32, bias ? g * n : 1, 1.0, 0.0);
    ct_ref_output(c, "DW", t, n, rtol, atol);
    /* without a bias the kernel never touches DB: an input the reference leaves as it is */
    if (bias)
        ct_ref_output(c, "DB", t, n, rtol, atol);
    else
        ct_ref_input(c, "DB", t, 1, 0, 0);
    ct_ref_int(c, "M", g);
    ct_ref_int(c, "N", n);
    c->grid[0] = (int)ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK_N", 128));
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *pw = ct_ref_find_arg(c, "DW_partial"), *pb = ct_ref_find_arg(c, "DB_partial");
    ct_ref_arg *dw = ct_ref_find_arg(c, "DW"), *db = ct_ref_find_arg(c, "DB");
    int64_t g = ct_ref_find_arg(c, "M")->i, n = ct_ref_find_arg(c, "N")->i;
    bool bias = ct_ref_constexpr(c, "HAS_BIAS", 1) != 0;
    double mw = 0, mb = 0; /* the largest sum of |terms| of a column */
    for (int64_t j = 0; j < n; j++) {
        double sw = 0, sb = 0, aw = 0, ab = 0;
        for (int64_t i = 0; i < g; i++) {
            sw += ct_ref_in(pw, i * n + j);
            aw += fabs(ct_ref_in(pw, i * n + j));
            if (bias) {
                sb += ct_ref_in(pb, i * n + j);
                ab += fabs(ct_ref_in(pb, i * n + j));
            }
        }
        ct_ref_want(dw, j, sw);
        if (bias)
            ct_ref_want(db, j, sb);
        mw = fmax(mw, aw);
        mb = fmax(mb, ab);
    }
    /* hard inputs cancel: an f32 sum is exact only to a few ulp of the sum of |terms| */
    if (c->inputs == CT_REF_INPUTS_HARD) {
        dw->atol = fmax(dw->atol, 0x1p-20 * mw);
        if (bias)
            db->atol = fmax(db->atol, 0x1p-20 * mb);
    }
}

const ct_kernel_ref norm_bwd_dwdb_kernel__ref = {
    "norm_bwd_dwdb_kernel", setup, reference, "N:BLOCK_N"};
