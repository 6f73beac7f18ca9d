/* Reference of topk_kernel (kernels/topk.c): per row the K largest values, largest first,
 * and their columns, the smaller column first among equal values; exact. */
#include <math.h>
#include <stdlib.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    c->hard_max = 1e30; /* --inputs hard */
    int64_t m = ct_ref_problem(c, "M", 4), n = ct_ref_problem(c, "N", 1000);
    int64_t k = ct_ref_constexpr(c, "K", 8);
    if (n < k)
        return ct_ref_fail(c, "topk_kernel needs N >= K (N=%lld, K=%lld)", (long long)n, (long long)k);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "x_ptr");
    /* multiples of 1/8 (and a few negative zeros): equal values are frequent */
    ct_ref_arg *x = ct_ref_input(c, "x_ptr", t, m * n, 0, 0);
    for (int64_t i = 0; x && i < x->n; i++) {
        double v = round(8 * ct_ref_normal(c)) / 8;
        ct_emu_set(t, x->data, i, v == 0 && i % 2 ? -0.0 : v);
    }
    ct_ref_output(c, "values_ptr", ct_ref_sig_dtype(c, "values_ptr"), m * k, 0, 0);
    ct_ref_output(c, "indices_ptr", CT_EMU_I32, m * k, 0, 0);
    ct_ref_int(c, "row_stride", n);
    ct_ref_int(c, "n_cols", n);
    c->grid[0] = (int)m;
    return true;
}

/* the order of the keys: the larger value first (-0 below +0, as their bits order), then
 * the smaller column */
static const double *g_row;
static int by_value_then_column(const void *a, const void *b)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    double u = g_row[i], v = g_row[j];
    if (u != v)
        return u > v ? -1 : 1;
    if (signbit(u) != signbit(v))
        return signbit(u) ? 1 : -1;
    return i < j ? -1 : i > j;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *vals = ct_ref_find_arg(c, "values_ptr");
    ct_ref_arg *idx = ct_ref_find_arg(c, "indices_ptr");
    int64_t n = ct_ref_find_arg(c, "n_cols")->i, k = ct_ref_constexpr(c, "K", 8), m = vals->n / k;
    double *row = malloc(sizeof(double) * (size_t)n);
    int64_t *order = malloc(sizeof(int64_t) * (size_t)n);
    for (int64_t r = 0; row && order && r < m; r++) {
        for (int64_t j = 0; j < n; j++) {
            row[j] = ct_ref_in(x, r * n + j);
            order[j] = j;
        }
        g_row = row;
        qsort(order, (size_t)n, sizeof order[0], by_value_then_column);
        for (int64_t j = 0; j < k; j++) {
            ct_ref_want(vals, r * k + j, row[order[j]]);
            ct_ref_want(idx, r * k + j, (double)order[j]);
        }
    }
    free(row);
    free(order);
}

const ct_kernel_ref topk_kernel__ref = {"topk_kernel", setup, reference, "N:BLOCK_N"};
