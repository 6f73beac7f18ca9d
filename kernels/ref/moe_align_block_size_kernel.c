/* Reference of moe_align_block_size_kernel (kernels/moe_align.c): the ids of each expert
 * in increasing order over counts padded to a multiple of block_size (the padding holds
 * numel), the expert of each block, the padded total; ids outside [0, num_experts) are
 * left out; nothing past the total is written (those slots keep -7).  Exact. */
#include <math.h>
#include <stdlib.h>

#include "ctriton/ref.h"

#define UNTOUCHED (-7)

static bool setup(ct_ref_case *c)
{
    int64_t tokens = ct_ref_problem(c, "TOKENS", 64), topk = ct_ref_problem(c, "TOPK", 2);
    int64_t e = ct_ref_problem(c, "E", 8), bs = ct_ref_problem(c, "BS", 16);
    int64_t drop = ct_ref_problem(c, "DROP", 0), ne = ct_ref_constexpr(c, "NUM_EXPERTS", 8);
    if (e < 1 || e > ne || topk < 1 || topk > e || bs < 1)
        return ct_ref_fail(c, "moe_align_block_size_kernel needs 1 <= TOPK <= E <= NUM_EXPERTS and BS >= 1 "
                              "(TOPK=%lld E=%lld NUM_EXPERTS=%lld BS=%lld)",
                           (long long)topk, (long long)e, (long long)ne, (long long)bs);
    int64_t numel = tokens * topk, slots = numel + e * (bs - 1);
    ct_emu_dtype t = ct_ref_sig_dtype(c, "topk_ids_ptr");
    ct_ref_arg *ids = ct_ref_input(c, "topk_ids_ptr", t, numel, 0, 0);
    int64_t *perm = malloc(sizeof(int64_t) * (size_t)e);
    if (!ids || !perm) {
        free(perm);
        return ct_ref_fail(c, "moe_align_block_size_kernel: out of memory for %lld ids", (long long)numel);
    }
    bool hard = c->inputs == CT_REF_INPUTS_HARD;
    double lo = t == CT_EMU_I64 ? -0x1p63 : -0x1p31, hi = t == CT_EMU_I64 ? 0x1p62 : 0x1p31 - 1;
    for (int64_t tok = 0; tok < tokens; tok++) {
        /* each token routed to topk distinct experts (a partial Fisher-Yates shuffle) */
        for (int64_t x = 0; x < e; x++)
            perm[x] = x;
        for (int64_t j = 0; j < topk; j++) {
            int64_t r = j + (int64_t)(ct_ref_rand(c) * (double)(e - j));
            int64_t s = perm[j];
            perm[j] = perm[r];
            perm[r] = s;
            double v = (double)perm[j];
            /* with DROP, about one id in ten is another rank's: -1, or one past the experts */
            if (drop && ct_ref_rand(c) < 0.1)
                v = (tok * topk + j) % 2 ? -1 : (double)e;
            /* hard inputs: the ends of the id type's range, num_experts and NUM_EXPERTS, and
             * one expert taking most ids (a long run of the same expert) */
            if (hard) {
                double u = ct_ref_rand(c);
                v = u < 0.05 ? lo : u < 0.1 ? hi : u < 0.13 ? (double)e : u < 0.16 ? (double)ne : u < 0.5 ? 0 : v;
            }
            ct_emu_set(t, ids->data, tok * topk + j, v);
        }
    }
    free(perm);
    ct_ref_inout(c, "sorted_token_ids_ptr", CT_EMU_I32, slots, UNTOUCHED, 0, 0);
    ct_ref_inout(c, "expert_ids_ptr", CT_EMU_I32, ct_ref_cdiv(slots, bs), UNTOUCHED, 0, 0);
    ct_ref_output(c, "num_tokens_post_pad_ptr", CT_EMU_I32, 1, 0, 0);
    ct_ref_int(c, "numel", numel);
    ct_ref_int(c, "num_experts", e);
    ct_ref_int(c, "block_size", bs);
    c->grid[0] = 1;
    return true;
}

static void reference(ct_ref_case *c)
{
    ct_ref_arg *ids = ct_ref_find_arg(c, "topk_ids_ptr"), *sorted = ct_ref_find_arg(c, "sorted_token_ids_ptr");
    ct_ref_arg *owner = ct_ref_find_arg(c, "expert_ids_ptr"), *post = ct_ref_find_arg(c, "num_tokens_post_pad_ptr");
    int64_t numel = ct_ref_find_arg(c, "numel")->i, e = ct_ref_find_arg(c, "num_experts")->i;
    int64_t bs = ct_ref_find_arg(c, "block_size")->i;
    int64_t *start = calloc((size_t)e + 1, sizeof(int64_t)), *fill = calloc((size_t)e + 1, sizeof(int64_t));
    if (!start || !fill)
        goto out;
    for (int64_t i = 0; i < sorted->n; i++)
        ct_ref_want(sorted, i, UNTOUCHED);
    for (int64_t i = 0; i < owner->n; i++)
        ct_ref_want(owner, i, UNTOUCHED);
    /* counts, then each expert's first slot over the padded counts */
    for (int64_t i = 0; i < numel; i++) {
        double v = ct_ref_in(ids, i);
        if (v >= 0 && v < (double)e)
            fill[(int64_t)v]++;
    }
    for (int64_t x = 0; x < e; x++)
        start[x + 1] = start[x] + (fill[x] + bs - 1) / bs * bs;
    int64_t total = start[e];
    ct_ref_want(post, 0, (double)total);
    /* the padding, the owners of the blocks, then the ids in order of their index */
    for (int64_t x = 0; x < e; x++) {
        for (int64_t s = start[x] + fill[x]; s < start[x + 1]; s++)
            ct_ref_want(sorted, s, (double)numel);
        for (int64_t s = start[x]; s < start[x + 1]; s += bs)
            ct_ref_want(owner, s / bs, (double)x);
        fill[x] = start[x];
    }
    for (int64_t i = 0; i < numel; i++) {
        double v = ct_ref_in(ids, i);
        if (v >= 0 && v < (double)e)
            ct_ref_want(sorted, fill[(int64_t)v]++, (double)i);
    }
out:
    free(start);
    free(fill);
}

const ct_kernel_ref moe_align_block_size_kernel__ref = {"moe_align_block_size_kernel", setup, reference,
                                                        "TOKENS:BLOCK"};
