/* Reference of dropout_kernel (kernels/dropout.c): keep x / (1 - p) where Philox(seed, i) > p. */
#include <stdlib.h>
#include <string.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_max = 1e30; /* --inputs hard */
    int64_t n = ct_ref_problem(c, "N", 65536);
    int64_t block = ct_ref_constexpr(c, "BLOCK_SIZE", 1024);
    ct_ref_arg *x = ct_ref_input(c, "x_ptr", CT_EMU_F32, n, 0.5, 1.5);
    for (int64_t i = 0; x && i < n; i++) /* nonzero, both signs */
        if (ct_ref_rand(c) < 0.5)
            ((float *)x->data)[i] = -((float *)x->data)[i];
    /* the mask is Philox, exact; x / (1 - p) is div.full on the GPU: 2 ulp */
    ct_ref_output(c, "output_ptr", CT_EMU_F32, n, 3e-7, 0);
    ct_ref_int(c, "n_elements", n);
    /* P and SEED are problem values: "N=65536 P=0.25 SEED=123" */
    char buf[32];
    double p = 0.5;
    if (c->cfg->problem) {
        const char *s = strstr(c->cfg->problem, "P=");
        if (s)
            p = strtod(s + 2, NULL);
    }
    (void)buf;
    ct_ref_float(c, "p", p);
    ct_ref_int(c, "seed", ct_ref_problem(c, "SEED", 123));
    c->grid[0] = (int)ct_ref_cdiv(n, block);
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *o = ct_ref_find_arg(c, "output_ptr");
    float p = (float)ct_ref_find_arg(c, "p")->f;
    uint64_t seed = (uint64_t)ct_ref_find_arg(c, "seed")->i;
    for (int64_t i = 0; i < o->n; i++) {
        float xi = ((const float *)x->data)[i];
        ((float *)o->want)[i] = ct_ref_philox_rand(seed, (uint64_t)i) > p ? xi / (1.0f - p) : 0.0f;
    }
}

const ct_kernel_ref dropout_kernel__ref = {"dropout_kernel", setup, reference, "N:BLOCK_SIZE"};
