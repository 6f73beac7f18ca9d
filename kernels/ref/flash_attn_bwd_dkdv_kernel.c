/* Reference of flash_attn_bwd_dkdv_kernel (kernels/flash_attn_bwd.c): dK and dV from Q, K, V,
 * dO and the forward's LSE and Delta (kernels/ref/flash_attn_bwd.h). */
#include "flash_attn_bwd.h"

static bool setup(ct_ref_case *c)
{
    if (!fab_setup_inputs(c, "BLOCK_N"))
        return false;
    ct_ref_arg *q = ct_ref_find_arg(c, "Q");
    double rtol, atol;
    ct_ref_tol(ct_ref_sig_dtype(c, "DK"), &rtol, &atol);
    ct_ref_output(c, "DK", ct_ref_sig_dtype(c, "DK"), q->n, rtol, atol);
    ct_ref_tol(ct_ref_sig_dtype(c, "DV"), &rtol, &atol);
    ct_ref_output(c, "DV", ct_ref_sig_dtype(c, "DV"), q->n, rtol, atol);
    return true;
}

static void reference(ct_ref_case *c)
{
    fab_grads(c, NULL, ct_ref_find_arg(c, "DK"), ct_ref_find_arg(c, "DV"));
}

const ct_kernel_ref flash_attn_bwd_dkdv_kernel__ref = {
    "flash_attn_bwd_dkdv_kernel", setup, reference, "N_CTX:BLOCK_N"};
