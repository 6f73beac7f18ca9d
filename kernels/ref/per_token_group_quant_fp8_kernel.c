/* Reference of per_token_group_quant_fp8_kernel (kernels/quant_fp8.c): per group of G values,
 * s = max(|y|, eps) / fp8_max, q = fp8(clamp(y / s)). */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_max = 1e4; /* --inputs hard: groups of large and tiny values */
    int64_t m = ct_ref_problem(c, "M", 32), n = ct_ref_problem(c, "N", 1024);
    int64_t g = ct_ref_problem(c, "G", 128);
    if (g < 1)
        return ct_ref_fail(c, "G = %lld is no group size", (long long)g);
    if (!ct_ref_one_block(c, "G", g, "BLOCK"))
        return false;
    n = ct_ref_cdiv(n, g) * g; /* whole groups (a sweep over G moves N to the next multiple) */
    ct_ref_arg *y = ct_ref_input_normal(c, "y_ptr", ct_ref_sig_dtype(c, "y_ptr"), m * n, 3.0, 0.0);
    for (int64_t i = 0; y && i < g; i++) /* an all-zero group: scale = eps / fp8_max */
        ct_emu_set(y->dtype, y->data, i, 0);
    /* one fp8 step: 2^-3 relative, 2^-9 in the subnormals */
    ct_ref_output(c, "y_q_ptr", CT_EMU_F8E4NV, m * n, 0.125, 0x1p-9);
    ct_ref_output(c, "y_s_ptr", CT_EMU_F32, m * (n / g), 1e-6, 0);
    ct_ref_int(c, "group_size", g);
    ct_ref_int(c, "y_num_columns", n);
    ct_ref_int(c, "y_row_stride", n);
    ct_ref_float(c, "eps", 1e-10);
    ct_ref_float(c, "fp8_min", -448.0);
    ct_ref_float(c, "fp8_max", 448.0);
    c->grid[0] = (int)(m * n / g);
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *y = ct_ref_find_arg(c, "y_ptr"), *q = ct_ref_find_arg(c, "y_q_ptr");
    ct_ref_arg *s = ct_ref_find_arg(c, "y_s_ptr");
    int64_t g = ct_ref_find_arg(c, "group_size")->i;
    float eps = (float)ct_ref_find_arg(c, "eps")->f;
    for (int64_t grp = 0; grp < s->n; grp++) {
        float amax = 0;
        for (int64_t i = 0; i < g; i++)
            amax = fmaxf(amax, fabsf((float)ct_ref_in(y, grp * g + i)));
        float sc = fmaxf(amax, eps) / 448.0f;
        ((float *)s->want)[grp] = sc;
        for (int64_t i = 0; i < g; i++) {
            float v = (float)ct_ref_in(y, grp * g + i) / sc;
            ct_ref_want(q, grp * g + i, fminf(fmaxf(v, -448.0f), 448.0f));
        }
    }
}

const ct_kernel_ref per_token_group_quant_fp8_kernel__ref = {"per_token_group_quant_fp8_kernel",
                                                             setup, reference, "G:BLOCK"};
