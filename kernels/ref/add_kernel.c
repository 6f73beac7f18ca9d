/* Reference of add_kernel (kernels/add.c): output = x + y over N elements. */
#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    /* --inputs hard: sums up to 2^128 (overflow to Inf, as the float reference), NaN and Inf */
    c->hard_max = 0x1p127;
    c->hard_nonfinite = true;
    int64_t n = ct_ref_problem(c, "N", 4096);
    int64_t block = ct_ref_constexpr(c, "BLOCK_SIZE", 1024);
    ct_ref_input(c, "x_ptr", CT_EMU_F32, n, -1, 1);
    ct_ref_input(c, "y_ptr", CT_EMU_F32, n, -1, 1);
    ct_ref_output(c, "output_ptr", CT_EMU_F32, n, 0, 0); /* one IEEE add: exact */
    ct_ref_int(c, "n_elements", n);
    c->grid[0] = (int)ct_ref_cdiv(n, block);
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *y = ct_ref_find_arg(c, "y_ptr");
    ct_ref_arg *o = ct_ref_find_arg(c, "output_ptr");
    for (int64_t i = 0; i < o->n; i++)
        ((float *)o->want)[i] = ((const float *)x->data)[i] + ((const float *)y->data)[i];
}

const ct_kernel_ref add_kernel__ref = {"add_kernel", setup, reference, "N:BLOCK_SIZE"};
