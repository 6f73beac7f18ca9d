/* Reference of matmul_tma_kernel (kernels/matmul_tma.c): C = A @ B, row-major, in double. */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t m = ct_ref_problem(c, "M", 512), n = ct_ref_problem(c, "N", 512);
    int64_t k = ct_ref_problem(c, "K", 512);
    if (n % 8 || k % 8)
        return ct_ref_fail(c, "N and K must be multiples of 8 (16-byte rows for TMA), got %lld and %lld",
                           (long long)n, (long long)k);
    ct_ref_input_normal(c, "a_ptr", ct_ref_sig_dtype(c, "a_ptr"), m * k, 1.0, 0.0);
    ct_ref_input_normal(c, "b_ptr", ct_ref_sig_dtype(c, "b_ptr"), k * n, 1.0 / sqrt((double)k), 0.0);
    double rtol, atol;
    ct_ref_tol(ct_ref_sig_dtype(c, "c_ptr"), &rtol, &atol);
    ct_ref_output(c, "c_ptr", ct_ref_sig_dtype(c, "c_ptr"), m * n, rtol, atol);
    ct_ref_int(c, "M", m);
    ct_ref_int(c, "N", n);
    ct_ref_int(c, "K", k);
    c->grid[0] = (int)(ct_ref_cdiv(m, ct_ref_constexpr(c, "BLOCK_SIZE_M", 128)) *
                       ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK_SIZE_N", 128)));
    return true;
}

typedef struct tma_out {
    ct_ref_arg *o;
    int64_t n;
} tma_out;

static void tma_row(int64_t i, const double *row, const double *mag, void *ud)
{
    (void)mag;
    const tma_out *u = ud;
    for (int64_t j = 0; j < u->n; j++)
        ct_ref_want(u->o, i * u->n + j, row[j]);
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *a = ct_ref_find_arg(c, "a_ptr"), *b = ct_ref_find_arg(c, "b_ptr");
    tma_out u = {ct_ref_find_arg(c, "c_ptr"), ct_ref_find_arg(c, "N")->i};
    ct_ref_gemm(a, b, ct_ref_find_arg(c, "M")->i, u.n, ct_ref_find_arg(c, "K")->i, tma_row, &u);
}

const ct_kernel_ref matmul_tma_kernel__ref = {
    "matmul_tma_kernel", setup, reference, "M:BLOCK_SIZE_M"};
