/* Reference of softmax_kernel (kernels/softmax.c): row-wise softmax of an M x N matrix. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_max = 1e30; /* --inputs hard: exp overflows unless the row max is taken out */
    int64_t m = ct_ref_problem(c, "M", 64), n = ct_ref_problem(c, "N", 1000);
    if (n > ct_ref_constexpr(c, "BLOCK_SIZE", 1024))
        return ct_ref_fail(c, "N = %lld does not fit in one block", (long long)n);
    ct_ref_input(c, "x_ptr", CT_EMU_F32, m * n, -4, 4);
    /* the GPU's exp and division are approximations: a few ulp */
    ct_ref_output(c, "y_ptr", CT_EMU_F32, m * n, 1e-5, 1e-7);
    ct_ref_int(c, "n_cols", n);
    c->grid[0] = (int)m;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    int64_t n = ct_ref_find_arg(c, "n_cols")->i, m = y->n / n;
    const float *xs = x->data;
    float *ys = y->want;
    for (int64_t r = 0; r < m; r++) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < n; j++)
            mx = fmax(mx, xs[r * n + j]);
        for (int64_t j = 0; j < n; j++)
            s += exp(xs[r * n + j] - mx);
        for (int64_t j = 0; j < n; j++)
            ys[r * n + j] = (float)(exp(xs[r * n + j] - mx) / s);
    }
}

const ct_kernel_ref softmax_kernel__ref = {"softmax_kernel", setup, reference, "N:BLOCK_SIZE"};
