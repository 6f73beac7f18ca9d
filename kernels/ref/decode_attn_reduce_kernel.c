/* Reference of decode_attn_reduce_kernel (kernels/decode_attn.c): per (sequence, head), the
 * splits' outputs weighted by exp2(lse_s - max_s lse_s), divided by the weights' sum, and
 * the row's log2-sum-exp max + log2(sum).  Empty splits (lse -inf) weigh zero; split 0 is
 * never empty here (the last split holding the query's own key is never empty in a
 * decode step, and one non-empty split is all the kernel needs). */
#include <math.h>

#include "ctriton/ref.h"

static bool setup(ct_ref_case *c)
{
    int64_t seqs = ct_ref_problem(c, "SEQS", 3), heads = ct_ref_problem(c, "HEADS", 8);
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 128), splits = ct_ref_constexpr(c, "NUM_SPLITS", 4);
    if (splits > ct_ref_constexpr(c, "BLOCK_S", 4))
        return ct_ref_fail(c, "decode_attn_reduce_kernel needs NUM_SPLITS <= BLOCK_S");
    ct_emu_dtype t = ct_ref_sig_dtype(c, "Out");
    double rtol, atol;
    ct_ref_tol(t, &rtol, &atol);
    ct_ref_input_normal(c, "O_part", CT_EMU_F32, seqs * heads * splits * d, 1.0, 0.0);
    /* lse in [-3, 5), about one split in four after the first empty (-inf) */
    ct_ref_arg *lse = ct_ref_input(c, "LSE_part", CT_EMU_F32, seqs * heads * splits, -3.0, 5.0);
    for (int64_t i = 0; lse && i < lse->n; i++)
        if (i % splits > 0 && ct_ref_rand(c) < 0.25)
            ct_emu_set(CT_EMU_F32, lse->data, i, -INFINITY);
    ct_ref_output(c, "Out", t, seqs * heads * d, rtol, atol);
    ct_ref_output(c, "LSE", CT_EMU_F32, seqs * heads, 1e-6, 1e-5);
    ct_ref_int(c, "stride_os", heads * d);
    ct_ref_int(c, "stride_oh", d);
    c->grid[0] = (int)seqs;
    c->grid[1] = (int)heads;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *o = ct_ref_find_arg(c, "O_part"), *lse = ct_ref_find_arg(c, "LSE_part");
    ct_ref_arg *out = ct_ref_find_arg(c, "Out"), *lse_out = ct_ref_find_arg(c, "LSE");
    int64_t d = ct_ref_constexpr(c, "HEAD_DIM", 128), splits = ct_ref_constexpr(c, "NUM_SPLITS", 4);
    for (int64_t r = 0; r < lse_out->n; r++) {
        double mx = -INFINITY, sum = 0;
        for (int64_t sp = 0; sp < splits; sp++)
            mx = fmax(mx, ct_ref_in(lse, r * splits + sp));
        for (int64_t sp = 0; sp < splits; sp++)
            sum += exp2(ct_ref_in(lse, r * splits + sp) - mx);
        for (int64_t e = 0; e < d; e++) {
            double acc = 0;
            for (int64_t sp = 0; sp < splits; sp++)
                acc += exp2(ct_ref_in(lse, r * splits + sp) - mx) * ct_ref_in(o, (r * splits + sp) * d + e);
            ct_ref_want(out, r * d + e, acc / sum);
        }
        ct_ref_want(lse_out, r, mx + log2(sum));
    }
}

const ct_kernel_ref decode_attn_reduce_kernel__ref = {"decode_attn_reduce_kernel", setup, reference, "HEADS"};
