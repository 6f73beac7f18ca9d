/* Reference of cummax_kernel (kernels/cummax.c): per block of BLOCK_SIZE columns of each row,
 * the running maximum and the index of its last occurrence, and the block's maximum and index. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_max = 1e38; /* --inputs hard: up to the dtype's largest values */
    int64_t m = ct_ref_problem(c, "M", 8), n = ct_ref_problem(c, "N", 3000);
    int64_t bs = ct_ref_constexpr(c, "BLOCK_SIZE", 1024), nb = ct_ref_cdiv(n, bs);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "x_ptr");
    ct_ref_arg *x = ct_ref_input(c, "x_ptr", t, m * n, -4, 4);
    /* multiples of 1/16: ties are frequent, so the tie rule (last index) is exercised */
    for (int64_t i = 0; i < x->n; i++)
        ct_emu_set(t, x->data, i, floor(ct_ref_in(x, i) * 16) / 16);
    ct_ref_output(c, "values_ptr", t, m * n, 0, 0);
    ct_ref_output(c, "indices_ptr", CT_EMU_I32, m * n, 0, 0);
    ct_ref_output(c, "block_max_ptr", t, m * nb, 0, 0);
    ct_ref_output(c, "block_idx_ptr", CT_EMU_I32, m * nb, 0, 0);
    ct_ref_int(c, "n_cols", n);
    c->grid[0] = (int)m;
    c->grid[1] = (int)nb;
    return true;
}

/* the kernel's combine: (v2, i2) wins when larger, or equal with a larger index */
static void combine(double *v, int64_t *i, double v2, int64_t i2)
{
    if (v2 > *v || (v2 == *v && i2 > *i)) {
        *v = v2;
        *i = i2;
    }
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *vals = ct_ref_find_arg(c, "values_ptr");
    ct_ref_arg *idx = ct_ref_find_arg(c, "indices_ptr"), *bmax = ct_ref_find_arg(c, "block_max_ptr");
    ct_ref_arg *bidx = ct_ref_find_arg(c, "block_idx_ptr");
    int64_t n = ct_ref_find_arg(c, "n_cols")->i, m = vals->n / n;
    int64_t bs = ct_ref_constexpr(c, "BLOCK_SIZE", 1024), nb = ct_ref_cdiv(n, bs);
    for (int64_t r = 0; r < m; r++)
        for (int64_t b = 0; b < nb; b++) {
            /* lanes past the row's end hold (-inf, -1), which loses every combine */
            double v = -INFINITY;
            int64_t i = -1;
            for (int64_t j = b * bs; j < (b + 1) * bs && j < n; j++) {
                combine(&v, &i, ct_ref_in(x, r * n + j), j);
                ct_ref_want(vals, r * n + j, v);
                ct_ref_want(idx, r * n + j, (double)i);
            }
            ct_ref_want(bmax, r * nb + b, v);
            ct_ref_want(bidx, r * nb + b, (double)i);
        }
}

const ct_kernel_ref cummax_kernel__ref = {"cummax_kernel", setup, reference, "N:BLOCK_SIZE"};
