/* Reference of asin_kernel (kernels/asin.c): y = asin(x) through libdevice. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_nonfinite = true; /* --inputs hard: asin of NaN and of Inf is NaN */
    int64_t n = ct_ref_problem(c, "N", 98304);
    int64_t block = ct_ref_constexpr(c, "BLOCK_SIZE", 1024);
    ct_ref_arg *x = ct_ref_input(c, "x_ptr", CT_EMU_F32, n, -1, 1);
    if (x && n >= 3) {
        ((float *)x->data)[0] = -1;
        ((float *)x->data)[1] = 0;
        ((float *)x->data)[2] = 1;
    }
    ct_ref_output(c, "y_ptr", CT_EMU_F32, n, 1e-5, 1e-6);
    ct_ref_int(c, "n_elements", n);
    c->grid[0] = (int)ct_ref_cdiv(n, block);
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    for (int64_t i = 0; i < y->n; i++)
        ((float *)y->want)[i] = (float)asin(((const float *)x->data)[i]);
}

const ct_kernel_ref asin_kernel__ref = {"asin_kernel", setup, reference, "N:BLOCK_SIZE"};
