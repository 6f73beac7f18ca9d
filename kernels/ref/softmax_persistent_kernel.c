/* Reference of softmax_persistent_kernel (kernels/softmax_persistent.c): row softmax, G programs striding over M rows. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_max = 1e30; /* --inputs hard: exp overflows unless the row max is taken out */
    int64_t m = ct_ref_problem(c, "M", 100), n = ct_ref_problem(c, "N", 1000);
    if (!ct_ref_one_block(c, "N", n, "BLOCK_SIZE"))
        return false;
    ct_ref_output(c, "output_ptr", CT_EMU_F32, m * n, 1e-5, 1e-7);
    ct_ref_input_normal(c, "input_ptr", CT_EMU_F32, m * n, 2.0, 0.0);
    ct_ref_int(c, "input_row_stride", n);
    ct_ref_int(c, "output_row_stride", n);
    ct_ref_int(c, "n_rows", m);
    ct_ref_int(c, "n_cols", n);
    c->grid[0] = (int)ct_ref_problem(c, "G", 32);
    return true;
}

static void reference(ct_ref_case *c)
{
    const float *x = ct_ref_find_arg(c, "input_ptr")->data;
    float *y = ct_ref_find_arg(c, "output_ptr")->want;
    int64_t n = ct_ref_find_arg(c, "n_cols")->i, m = ct_ref_find_arg(c, "n_rows")->i;
    for (int64_t r = 0; r < m; r++) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < n; j++)
            mx = fmax(mx, x[r * n + j]);
        for (int64_t j = 0; j < n; j++)
            s += exp(x[r * n + j] - mx);
        for (int64_t j = 0; j < n; j++)
            y[r * n + j] = (float)(exp(x[r * n + j] - mx) / s);
    }
}

const ct_kernel_ref softmax_persistent_kernel__ref = {
    "softmax_persistent_kernel", setup, reference, "N:BLOCK_SIZE"};
