/*
 * test_ref.c - what the references of `ctriton run` build their cases with (ctriton/ref.h):
 * the sweep's size override, the one-block refusal, and the hard inputs of --inputs hard.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ctriton/ref.h"

static const tl_config cfg = {.name = "B256", .signature = "x_ptr=*fp32:16 n=i32",
                              .constexprs = "BLOCK_SIZE=256", .problem = "M=4 N=1000"};

static ct_emu_dtype in_t = CT_EMU_F32;
static double in_lo = -1, in_hi = 1;

static bool setup(ct_ref_case *c)
{
    int64_t n = ct_ref_problem(c, "N", 0), m = ct_ref_problem(c, "M", 0);
    ct_ref_input(c, "x_ptr", in_t, m * n, in_lo, in_hi);
    ct_ref_int(c, "n", n);
    return true;
}

static void reference(ct_ref_case *c)
{
    (void)c;
}

static bool setup_nonfinite(ct_ref_case *c)
{
    c->hard_max = 1e30;
    c->hard_nonfinite = true;
    return setup(c);
}

static const ct_kernel_ref ref = {"k", setup, reference, "N:BLOCK_SIZE"};
static const ct_kernel_ref ref_nf = {"k", setup_nonfinite, reference, "N:BLOCK_SIZE"};

/* the sweep's size replaces the problem's, and only that one */
static void t_size_override(void **s)
{
    (void)s;
    ct_ref_case c;
    assert_true(ct_ref_case_init(&c, &ref, &cfg, 1));
    assert_int_equal(ct_ref_find_arg(&c, "x_ptr")->n, 4000);
    ct_ref_case_free(&c);
    ct_ref_opts o = {.size_name = "N", .size = 257};
    assert_true(ct_ref_case_init_ex(&c, &ref, &cfg, 1, &o));
    assert_int_equal(ct_ref_find_arg(&c, "n")->i, 257);
    assert_int_equal(ct_ref_find_arg(&c, "x_ptr")->n, 4 * 257);
    assert_int_equal(ct_ref_problem(&c, "M", 0), 4);
    ct_ref_case_free(&c);
}

static void t_one_block(void **s)
{
    (void)s;
    ct_ref_case c = {.cfg = &cfg};
    assert_true(ct_ref_one_block(&c, "N", 256, "BLOCK_SIZE"));
    assert_false(ct_ref_one_block(&c, "N", 257, "BLOCK_SIZE"));
    assert_string_equal(c.err, "N = 257 does not fit in one block (BLOCK_SIZE = 256)");
    assert_true(ct_ref_one_block(&c, "N", 1 << 20, "NO_SUCH_BLOCK")); /* no block: no limit */
}

typedef struct census {
    int64_t n, zero, negzero, sub, big, nan, inf, cancel, outside;
    double maxabs;
} census;

static census count(const ct_kernel_ref *r, ct_ref_inputs in, ct_emu_dtype t, double lo, double hi)
{
    in_t = t, in_lo = lo, in_hi = hi;
    ct_ref_case c;
    ct_ref_opts o = {.inputs = in};
    assert_true(ct_ref_case_init_ex(&c, r, &cfg, 7, &o));
    ct_ref_arg *a = ct_ref_find_arg(&c, "x_ptr");
    census k = {.n = a->n};
    double tiny = t == CT_EMU_F16 ? 0x1p-14 : 0x1p-126, wide = fmax(c.hard_max, fmax(fabs(lo), fabs(hi)));
    for (int64_t i = 0; i < a->n; i++) {
        double v = ct_ref_in(a, i);
        k.nan += isnan(v) != 0;
        k.inf += isinf(v) != 0;
        if (!isfinite(v))
            continue;
        k.maxabs = fmax(k.maxabs, fabs(v));
        k.zero += v == 0 && !signbit(v);
        k.negzero += v == 0 && signbit(v);
        k.sub += v != 0 && fabs(v) < tiny;
        k.big += fabs(v) >= 0.5 * wide && fabs(v) > fmax(fabs(lo), fabs(hi));
        k.outside += v < (lo < 0 ? -wide : lo) || v > (hi > 0 ? wide : hi);
        double p = i ? ct_ref_in(a, i - 1) : NAN;
        k.cancel += i && v != 0 && isfinite(p) && fabs(v + p) < 1e-2 * fabs(v) && fabs(v) > 1e-30;
    }
    ct_ref_case_free(&c);
    return k;
}

/* random inputs: none of the hard kinds */
static void t_random_is_plain(void **s)
{
    (void)s;
    census k = count(&ref, CT_REF_INPUTS_RANDOM, CT_EMU_F32, -1, 1);
    assert_int_equal(k.sub, 0);
    assert_int_equal(k.nan + k.inf, 0);
    assert_true(k.zero + k.negzero < 5);
}

/* hard inputs: every kind, within the range */
static void t_hard_kinds(void **s)
{
    (void)s;
    census k = count(&ref, CT_REF_INPUTS_HARD, CT_EMU_F32, -1, 1);
    assert_int_equal(k.n, 4000);
    assert_true(k.zero > 100 && k.negzero > 100);
    assert_true(k.sub > 200);
    assert_true(k.cancel > 200);
    assert_int_equal(k.outside, 0);
    assert_int_equal(k.nan + k.inf, 0); /* not asked for */
    /* fp16's subnormals are its own */
    k = count(&ref, CT_REF_INPUTS_HARD, CT_EMU_F16, -1, 1);
    assert_true(k.sub > 200);
    /* a range without 0: no zeros, no subnormals, nothing outside it */
    k = count(&ref, CT_REF_INPUTS_HARD, CT_EMU_F32, 0.5, 2);
    assert_int_equal(k.zero + k.negzero + k.sub + k.outside, 0);
}

/* hard_max widens the range, hard_nonfinite adds NaN and both infinities */
static void t_hard_max_nonfinite(void **s)
{
    (void)s;
    census k = count(&ref_nf, CT_REF_INPUTS_HARD, CT_EMU_F32, -1, 1);
    assert_true(k.big > 500);
    assert_int_equal(k.outside, 0);
    assert_true(k.nan > 20 && k.inf > 50);
    /* capped at the dtype's largest finite value */
    k = count(&ref_nf, CT_REF_INPUTS_HARD, CT_EMU_F16, -1, 1);
    assert_true(k.maxabs <= 65504 && k.maxabs >= 32752);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_size_override),     cmocka_unit_test(t_one_block),
        cmocka_unit_test(t_random_is_plain),   cmocka_unit_test(t_hard_kinds),
        cmocka_unit_test(t_hard_max_nonfinite),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
