/* Fused bias + GELU, one program per row.  Python original: py/bias_gelu.py */
#include <math.h>

#include <ctriton/ref.h>
#include <ctriton/registry.h>

TL_KERNEL(bias_gelu_kernel, (x_ptr, b_ptr, y_ptr, n_cols), (int, BLOCK))
{
    tl_tensor row = tl_program_id(0);
    tl_tensor cols = tl_arange(0, BLOCK);
    tl_tensor mask = tl_lt(cols, n_cols);
    tl_tensor x = tl_load(tl_add(tl_add(x_ptr, tl_mul(row, n_cols)), cols), .mask = mask, .other = tl_c(0.0));
    tl_tensor b = tl_load(tl_add(b_ptr, cols), .mask = mask, .other = tl_c(0.0));
    tl_tensor h = tl_add(x, b);
    tl_tensor y = tl_mul(tl_mul(0.5, h), tl_add(1.0, tl_erf(tl_mul(h, 0.7071067811865476))));
    tl_store(tl_add(tl_add(y_ptr, tl_mul(row, n_cols)), cols), y, .mask = mask);
}

TL_CONFIGS(bias_gelu_kernel,
    {.name = "B1024", .signature = "x_ptr=*fp32:16 b_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32",
     .constexprs = "BLOCK=1024", .problem = "M=64 N=1000"},
    {.name = "B256", .signature = "x_ptr=*fp32:16 b_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32:16",
     .constexprs = "BLOCK=256", .problem = "M=33 N=256"});

/* ---- its C reference: seeded inputs and the exact values -------------------------- */

static bool setup(ct_ref_case *c)
{
    int64_t m = ct_ref_problem(c, "M", 64), n = ct_ref_problem(c, "N", 1000);
    if (n > ct_ref_constexpr(c, "BLOCK", 1024))
        return ct_ref_fail(c, "N = %lld does not fit in one block", (long long)n);
    ct_ref_input(c, "x_ptr", CT_EMU_F32, m * n, -3, 3);
    ct_ref_input(c, "b_ptr", CT_EMU_F32, n, -1, 1);
    /* the GPU's erf (libdevice) is within 2 ulp of the exact value */
    ct_ref_output(c, "y_ptr", CT_EMU_F32, m * n, 1e-6, 1e-7);
    ct_ref_int(c, "n_cols", n);
    c->grid[0] = (int)m;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *b = ct_ref_find_arg(c, "b_ptr");
    ct_ref_arg *y = ct_ref_find_arg(c, "y_ptr");
    int64_t n = ct_ref_find_arg(c, "n_cols")->i;
    for (int64_t i = 0; i < y->n; i++) {
        double h = (double)(float)(ct_ref_in(x, i) + ct_ref_in(b, i % n)); /* x + b in fp32 */
        ct_ref_want(y, i, 0.5 * h * (1.0 + erf(h * 0.7071067811865476)));
    }
}

const ct_kernel_ref bias_gelu_kernel__ref = {"bias_gelu_kernel", setup, reference};
