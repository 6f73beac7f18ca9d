/* Reference of flash_attn_bwd_preprocess_kernel (kernels/flash_attn_bwd.c): Delta =
 * rowsum(O * dO) per (batch x head) and query.  The products are exact in fp32; the kernel's
 * fp32 sum of HEAD_DIM of them errs by at most HEAD_DIM * 2**-24 times the sum of their
 * magnitudes, the output's atol (from the largest such sum). */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t zh = ct_ref_problem(c, "Z_H", 2), n = ct_ref_problem(c, "N_CTX", 256);
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 64);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "O");
    ct_ref_input_normal(c, "O", t, zh * n * d, 1.0, 0.0);
    ct_ref_input_normal(c, "DO", ct_ref_sig_dtype(c, "DO"), zh * n * d, 1.0, 0.0);
    ct_ref_output(c, "Delta", CT_EMU_F32, zh * n, 1e-5, 1e-6);
    ct_ref_int(c, "N_CTX", n);
    c->grid[0] = (int)ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK_M", 64));
    c->grid[1] = (int)zh;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *o = ct_ref_find_arg(c, "O"), *dout = ct_ref_find_arg(c, "DO"), *delta = ct_ref_find_arg(c, "Delta");
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 64);
    double mag = 0;
    for (int64_t r = 0; r < delta->n; r++) {
        double sum = 0, m = 0;
        for (int64_t e = 0; e < d; e++) {
            double t = ct_ref_in(o, r * d + e) * ct_ref_in(dout, r * d + e);
            sum += t;
            m += fabs(t);
        }
        ct_ref_want(delta, r, sum);
        mag = fmax(mag, m);
    }
    delta->atol = fmax(delta->atol, (double)d * 0x1p-24 * mag);
}

const ct_kernel_ref flash_attn_bwd_preprocess_kernel__ref = {
    "flash_attn_bwd_preprocess_kernel", setup, reference, "N_CTX:BLOCK_M"};
