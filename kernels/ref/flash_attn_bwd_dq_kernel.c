/* Reference of flash_attn_bwd_dq_kernel (kernels/flash_attn_bwd.c): dQ from Q, K, V, dO and
 * the forward's LSE and Delta (kernels/ref/flash_attn_bwd.h). */
#include "flash_attn_bwd.h"

static bool setup(ct_ref_case *c)
{
    if (!fab_setup_inputs(c, "BLOCK_M"))
        return false;
    double rtol, atol;
    ct_ref_tol(ct_ref_sig_dtype(c, "DQ"), &rtol, &atol);
    ct_ref_output(c, "DQ", ct_ref_sig_dtype(c, "DQ"), ct_ref_find_arg(c, "Q")->n, rtol, atol);
    return true;
}

static void reference(ct_ref_case *c)
{
    fab_grads(c, ct_ref_find_arg(c, "DQ"), NULL, NULL);
}

const ct_kernel_ref flash_attn_bwd_dq_kernel__ref = {
    "flash_attn_bwd_dq_kernel", setup, reference, "N_CTX:BLOCK_M"};
