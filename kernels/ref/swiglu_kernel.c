/* Reference of swiglu_kernel (kernels/swiglu.c): c = silu(a) * b, silu rounded to b's type first. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_max = 100; /* --inputs hard: the sigmoid's tails */
    int64_t m = ct_ref_problem(c, "M", 16), n = ct_ref_problem(c, "N", 4096);
    if (!ct_ref_one_block(c, "N", n, "BLOCK_SIZE"))
        return false;
    ct_emu_dtype t = ct_ref_sig_dtype(c, "c_ptr");
    double rtol, atol;
    ct_ref_tol(t, &rtol, &atol);
    ct_ref_input_normal(c, "a_ptr", ct_ref_sig_dtype(c, "a_ptr"), m * n, 2.0, 0.0);
    ct_ref_input_normal(c, "b_ptr", ct_ref_sig_dtype(c, "b_ptr"), m * n, 1.0, 0.0);
    ct_ref_output(c, "c_ptr", t, m * n, rtol, atol);
    ct_ref_int(c, "stride", n);
    ct_ref_int(c, "n_cols", n);
    c->grid[0] = (int)m;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *a = ct_ref_find_arg(c, "a_ptr"), *b = ct_ref_find_arg(c, "b_ptr");
    ct_ref_arg *o = ct_ref_find_arg(c, "c_ptr");
    for (int64_t i = 0; i < o->n; i++) {
        double x = ct_ref_in(a, i);
        double silu = x / (1 + exp(-x));
        /* the kernel casts silu(a) to b's type, then multiplies in b's type */
        ct_ref_want(o, i, silu);
        ct_ref_want(o, i, ct_emu_get(o->dtype, o->want, i) * ct_ref_in(b, i));
    }
}

const ct_kernel_ref swiglu_kernel__ref = {"swiglu_kernel", setup, reference, "N:BLOCK_SIZE"};
