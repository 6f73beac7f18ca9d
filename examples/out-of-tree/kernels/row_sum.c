/* Row sums in fp32, one program per row, any width.  Python original: py/row_sum.py */
#include <ctriton/ref.h>
#include <ctriton/registry.h>

TL_KERNEL(row_sum_kernel, (x_ptr, out_ptr, n_cols, stride), (int, BLOCK))
{
    tl_tensor row = tl_program_id(0);
    tl_tensor acc = tl_zeros(tl_shape(BLOCK), tl_float32);
    TL_FOR(start, tl_range(0, n_cols, BLOCK), acc) {
        tl_tensor cols = tl_add(start, tl_arange(0, BLOCK));
        tl_tensor x = tl_load(tl_add(tl_add(x_ptr, tl_mul(row, stride)), cols), .mask = tl_lt(cols, n_cols),
                              .other = tl_c(0.0));
        acc = tl_add(acc, tl_to(x, tl_float32));
    }
    tl_store(tl_add(out_ptr, row), tl_sum(acc, .axis = 0));
}

TL_CONFIGS(row_sum_kernel,
    {.name = "fp16_B512", .signature = "x_ptr=*fp16:16 out_ptr=*fp32:16 n_cols=i32 stride=i32",
     .constexprs = "BLOCK=512", .problem = "M=48 N=3000"},
    {.name = "fp32_B128", .signature = "x_ptr=*fp32:16 out_ptr=*fp32:16 n_cols=i32:16 stride=i32:16",
     .constexprs = "BLOCK=128", .problem = "M=20 N=1024"});

static bool setup(ct_ref_case *c)
{
    int64_t m = ct_ref_problem(c, "M", 48), n = ct_ref_problem(c, "N", 3000);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "x_ptr");
    ct_ref_input(c, "x_ptr", t, m * n, -1, 1);
    /* fp32 sums in the GPU's order against a double sum: a few ulp of the row's magnitude */
    ct_ref_output(c, "out_ptr", CT_EMU_F32, m, 1e-5, 1e-4);
    ct_ref_int(c, "n_cols", n);
    ct_ref_int(c, "stride", n);
    c->grid[0] = (int)m;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *x = ct_ref_find_arg(c, "x_ptr"), *out = ct_ref_find_arg(c, "out_ptr");
    int64_t n = ct_ref_find_arg(c, "n_cols")->i;
    for (int64_t r = 0; r < out->n; r++) {
        double s = 0;
        for (int64_t j = 0; j < n; j++)
            s += ct_ref_in(x, r * n + j);
        ct_ref_want(out, r, s);
    }
}

const ct_kernel_ref row_sum_kernel__ref = {"row_sum_kernel", setup, reference};
