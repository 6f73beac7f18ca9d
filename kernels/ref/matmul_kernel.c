/* Reference of matmul_kernel (kernels/matmul.c): C = A @ B (+ leaky_relu), in double. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t m = ct_ref_problem(c, "M", 512), n = ct_ref_problem(c, "N", 512);
    int64_t k = ct_ref_problem(c, "K", 512);
    ct_emu_dtype at = ct_ref_sig_dtype(c, "a_ptr"), bt = ct_ref_sig_dtype(c, "b_ptr");
    bool fp8 = ct_emu_dtype_size(at) == 1;
    ct_ref_input_normal(c, "a_ptr", at, m * k, 1.0, 0.0);
    ct_ref_input_normal(c, "b_ptr", bt, k * n, fp8 ? 1.0 : 1.0 / sqrt((double)k), 0.0);
    double rtol, atol;
    ct_ref_tol(ct_ref_sig_dtype(c, "c_ptr"), &rtol, &atol);
    ct_ref_output(c, "c_ptr", ct_ref_sig_dtype(c, "c_ptr"), m * n, rtol, atol);
    ct_ref_int(c, "M", m);
    ct_ref_int(c, "N", n);
    ct_ref_int(c, "K", k);
    ct_ref_int(c, "stride_am", k);
    ct_ref_int(c, "stride_ak", 1);
    ct_ref_int(c, "stride_bk", n);
    ct_ref_int(c, "stride_bn", 1);
    ct_ref_int(c, "stride_cm", n);
    ct_ref_int(c, "stride_cn", 1);
    c->grid[0] = (int)(ct_ref_cdiv(m, ct_ref_constexpr(c, "BLOCK_SIZE_M", 128)) *
                       ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK_SIZE_N", 128)));
    return true;
}

typedef struct mm_out {
    ct_ref_arg *o;
    int64_t n;
    bool leaky;
    double maxmag;
} mm_out;

static void mm_row(int64_t i, const double *row, const double *mag, void *ud)
{
    mm_out *u = ud;
    for (int64_t j = 0; j < u->n; j++) {
        double v = row[j];
        if (u->leaky && v < 0)
            v *= 0.01;
        ct_ref_want(u->o, i * u->n + j, v);
        if (mag[j] > u->maxmag)
            u->maxmag = mag[j];
    }
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *a = ct_ref_find_arg(c, "a_ptr"), *b = ct_ref_find_arg(c, "b_ptr");
    ct_ref_arg *o = ct_ref_find_arg(c, "c_ptr");
    int64_t m = ct_ref_find_arg(c, "M")->i, n = ct_ref_find_arg(c, "N")->i;
    int64_t k = ct_ref_find_arg(c, "K")->i;
    char act[32] = "";
    ct_ref_constexpr_str(c, "ACTIVATION", act, sizeof act);
    mm_out u = {o, n, !strcmp(act, "leaky_relu"), 0};
    ct_ref_gemm(a, b, m, n, k, mm_row, &u);
    /* Hopper's fp8 MMA accumulates with ~14 bits: 2^-9 of the largest sum |a||b| */
    if (ct_emu_dtype_size(a->dtype) == 1)
        o->atol = ldexp(u.maxmag, -9);
}

const ct_kernel_ref matmul_kernel__ref = {"matmul_kernel", setup, reference, "N:BLOCK_SIZE_N"};
