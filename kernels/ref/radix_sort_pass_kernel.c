/* References of radix_histogram_kernel and radix_sort_pass_kernel (kernels/radix_sort.c):
 * the digit counts of all keys; the keys stably ordered by the digit at `shift`, every tile's
 * status words left as inclusive prefixes (flag 2), the tile counter at the tile count. */
#include <stdint.h>
#include <stdlib.h>

#include "ctriton/ref.h"

static int64_t digit_of(const ct_ref_arg *keys, int64_t i, int64_t shift, int64_t radix)
{
    return (int64_t)(((uint32_t)(int32_t)ct_ref_in(keys, i) >> shift) & (uint32_t)(radix - 1));
}

static ct_ref_arg *make_keys(ct_ref_case *c, int64_t n)
{
    ct_ref_arg *k = ct_ref_input(c, "keys_ptr", CT_EMU_I32, n, 0, 0);
    for (int64_t i = 0; k && i < n; i++)
        ct_emu_set(CT_EMU_I32, k->data, i, (double)(int32_t)(uint32_t)(ct_ref_rand(c) * 4294967296.0));
    return k;
}

static bool setup_hist(ct_ref_case *c)
{
    int64_t n = ct_ref_problem(c, "N", 5000), radix = 1 << ct_ref_constexpr(c, "RADIX_BITS", 4);
    make_keys(c, n);
    ct_ref_inout(c, "hist_ptr", CT_EMU_I32, radix, 0, 0, 0);
    ct_ref_int(c, "n", n);
    ct_ref_int(c, "shift", ct_ref_problem(c, "SHIFT", 4));
    c->grid[0] = (int)ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK", 1024));
    return true;
}

static void reference_hist(ct_ref_case *c)
{
    ct_ref_arg *k = ct_ref_find_arg(c, "keys_ptr"), *h = ct_ref_find_arg(c, "hist_ptr");
    int64_t shift = ct_ref_find_arg(c, "shift")->i, radix = h->n;
    for (int64_t d = 0; d < radix; d++)
        ct_ref_want(h, d, 0);
    for (int64_t i = 0; i < k->n; i++) {
        int64_t d = digit_of(k, i, shift, radix);
        ct_ref_want(h, d, ct_emu_get(CT_EMU_I32, h->want, d) + 1);
    }
}

static bool setup_pass(ct_ref_case *c)
{
    int64_t n = ct_ref_problem(c, "N", 5000), radix = 1 << ct_ref_constexpr(c, "RADIX_BITS", 4);
    int64_t shift = ct_ref_problem(c, "SHIFT", 4), tiles = ct_ref_cdiv(n, ct_ref_constexpr(c, "BLOCK", 1024));
    ct_ref_arg *k = make_keys(c, n);
    ct_ref_output(c, "out_ptr", CT_EMU_I32, n, 0, 0);
    /* the histogram radix_histogram_kernel makes */
    ct_ref_arg *h = ct_ref_input(c, "hist_ptr", CT_EMU_I32, radix, 0, 0);
    for (int64_t i = 0; k && h && i < n; i++) {
        int64_t d = digit_of(k, i, shift, radix);
        ct_emu_set(CT_EMU_I32, h->data, d, ct_emu_get(CT_EMU_I32, h->data, d) + 1);
    }
    ct_ref_inout(c, "status_ptr", CT_EMU_I32, tiles * radix, 0, 0, 0);
    ct_ref_inout(c, "tile_counter_ptr", CT_EMU_I32, 1, 0, 0, 0);
    ct_ref_int(c, "n", n);
    ct_ref_int(c, "shift", shift);
    c->grid[0] = (int)tiles;
    return true;
}

static void reference_pass(ct_ref_case *c)
{
    ct_ref_arg *k = ct_ref_find_arg(c, "keys_ptr"), *out = ct_ref_find_arg(c, "out_ptr");
    ct_ref_arg *st = ct_ref_find_arg(c, "status_ptr"), *cnt = ct_ref_find_arg(c, "tile_counter_ptr");
    int64_t n = ct_ref_find_arg(c, "n")->i, shift = ct_ref_find_arg(c, "shift")->i;
    int64_t radix = 1 << ct_ref_constexpr(c, "RADIX_BITS", 4), block = ct_ref_constexpr(c, "BLOCK", 1024);
    int64_t tiles = st->n / radix;
    int64_t *inclusive = calloc((size_t)radix, sizeof(int64_t));
    if (!inclusive)
        return;
    /* a stable counting sort: digit by digit, keys in input order */
    int64_t o = 0;
    for (int64_t d = 0; d < radix; d++)
        for (int64_t i = 0; i < n; i++)
            if (digit_of(k, i, shift, radix) == d)
                ct_ref_want(out, o++, ct_ref_in(k, i));
    for (int64_t t = 0; t < tiles; t++) {
        for (int64_t i = t * block; i < (t + 1) * block && i < n; i++)
            inclusive[digit_of(k, i, shift, radix)]++;
        for (int64_t d = 0; d < radix; d++)
            ct_ref_want(st, t * radix + d, (double)(int32_t)((uint32_t)inclusive[d] | (2u << 29)));
    }
    ct_ref_want(cnt, 0, (double)tiles);
    free(inclusive);
}

const ct_kernel_ref radix_histogram_kernel__ref = {
    "radix_histogram_kernel", setup_hist, reference_hist, "N:BLOCK"};
const ct_kernel_ref radix_sort_pass_kernel__ref = {
    "radix_sort_pass_kernel", setup_pass, reference_pass, "N:BLOCK"};
