/*
 * test_float.c - float formats: MLIR's float literals (against a table
 * printed by Triton 3.6's own builder, tests/unit/data/floatfmt.txt), and
 * the narrow formats' encoding, decoding and rounding.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/float.h"
#include "emu/emu_internal.h"

/* What Triton's builder does to a Python float before it becomes an attribute. */
static double as_builder_makes(const char *ty, double v, ct_float_kind *fk)
{
    if (!strcmp(ty, "f32")) {
        *fk = CT_F32;
        return (float)v;
    }
    if (!strcmp(ty, "f64")) {
        *fk = CT_F64;
        return v;
    }
    if (!strcmp(ty, "f16")) {
        *fk = CT_F16;
        return ct_float_round((float)v, CT_F16);
    }
    /* bf16: APFloat(bf16, std::to_string((float)v)) */
    *fk = CT_BF16;
    char buf[64];
    snprintf(buf, sizeof buf, "%f", (double)(float)v);
    return ct_float_round(strtod(buf, NULL), CT_BF16);
}

static void t_mlir_float_literals(void **s)
{
    (void)s;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/unit/data/floatfmt.txt", CTRITON_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256], ty[16], hex[64], want[128];
    int n = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%15s %63s %127s", ty, hex, want) != 3)
            continue;
        ct_float_kind fk;
        double v = as_builder_makes(ty, strtod(hex, NULL), &fk);
        char got[128];
        ct_format_float(v, fk, got, sizeof got);
        if (strcmp(got, want)) {
            if (bad < 10)
                fprintf(stderr, "%s %s: got %s, MLIR prints %s\n", ty, hex, got, want);
            bad++;
        }
        n++;
    }
    fclose(f);
    assert_true(n > 1000);
    assert_int_equal(bad, 0);
}

static void t_fp8_e4m3fn(void **s)
{
    (void)s;
    /* largest finite 448 = 0x7E; 0x7F is NaN; no infinity */
    assert_int_equal(ct_float_encode(448.0, CT_F8E4M3FN), 0x7E);
    assert_true(isnan(ct_float_decode(0x7F, CT_F8E4M3FN)));
    assert_true(ct_float_decode(0x7E, CT_F8E4M3FN) == 448.0);
    /* overflow: NaN like APFloat, or the largest value when saturating like the GPU */
    assert_int_equal(ct_float_encode(1000.0, CT_F8E4M3FN), 0x7F);
    assert_int_equal(ct_float_encode_ex(1000.0, CT_F8E4M3FN, CT_RTNE, true), 0x7E);
    assert_int_equal(ct_float_encode_ex(-1000.0, CT_F8E4M3FN, CT_RTNE, true), 0xFE);
    /* smallest subnormal 2^-9 */
    assert_true(ct_float_decode(0x01, CT_F8E4M3FN) == ldexp(1, -9));
    /* ties to even: 1 + 1/16 sits between 1 and 1.125 -> 1 */
    assert_int_equal(ct_float_encode(1.0625, CT_F8E4M3FN), 0x38);
    assert_int_equal(ct_float_encode(1.1875, CT_F8E4M3FN), 0x3A); /* 1.1875 -> 1.25 */
    /* round toward zero */
    assert_int_equal(ct_float_encode_ex(1.1875, CT_F8E4M3FN, CT_RTZ, false), 0x39);
    /* every code decodes and re-encodes to itself (NaNs aside) */
    for (unsigned b = 0; b < 256; b++) {
        double d = ct_float_decode(b, CT_F8E4M3FN);
        if (!isnan(d))
            assert_int_equal(ct_float_encode(d, CT_F8E4M3FN), b);
    }
}

static void t_fp8_e5m2_and_halfs(void **s)
{
    (void)s;
    assert_int_equal(ct_float_encode(57344.0, CT_F8E5M2), 0x7B);
    assert_int_equal(ct_float_encode(INFINITY, CT_F8E5M2), 0x7C);
    assert_int_equal(ct_float_encode(65504.0, CT_F16), 0x7BFF);
    assert_int_equal(ct_float_encode(65520.0, CT_F16), 0x7C00); /* rounds to inf */
    assert_int_equal(ct_float_encode(1.0, CT_BF16), 0x3F80);
    assert_int_equal(ct_float_encode(-0.0, CT_F16), 0x8000);
    for (unsigned b = 0; b < 65536; b++) {
        double d = ct_float_decode(b, CT_F16);
        if (!isnan(d))
            assert_int_equal(ct_float_encode(d, CT_F16), b);
        d = ct_float_decode(b, CT_BF16);
        if (!isnan(d))
            assert_int_equal(ct_float_encode(d, CT_BF16), b);
    }
    /* bf16 agrees with the usual bit trick (round to nearest even on the top half) */
    for (int i = 0; i < 100000; i++) {
        uint32_t u = (uint32_t)rand() * 2654435761u;
        float f;
        memcpy(&f, &u, 4);
        if (isnan(f))
            continue;
        uint32_t r = u + 0x7FFF + ((u >> 16) & 1);
        assert_int_equal(ct_float_encode(f, CT_BF16), r >> 16);
    }
}

static void t_fnuz(void **s)
{
    (void)s;
    /* FNUZ formats: 0x80 is NaN, there is no negative zero */
    assert_true(isnan(ct_float_decode(0x80, CT_F8E4M3FNUZ)));
    assert_int_equal(ct_float_encode(-0.0, CT_F8E4M3FNUZ), 0);
    assert_true(ct_float_decode(0x7F, CT_F8E4M3FNUZ) == 240.0);
    assert_true(ct_float_decode(0x7F, CT_F8E5M2FNUZ) == 57344.0);
}

/* the emulator's fp8 encoder (emu_fp8_encode_sat, used by ct_emu_set, the casts and
 * emu_store_f64) gives ct_float_encode_ex's bits with saturation: every f32 exponent and sign
 * with the top 8 fraction bits enumerated and the low ones 0, 1, all set, or the half; each of
 * them also as the double one unit above and below (ties broken beyond f32); random doubles */
static void t_fp8_fast_encode(void **s)
{
    (void)s;
    static const uint32_t lows[] = {0, 1, 0x7fff, 0x8000, 0xffff};
    static const emu_ek kinds[] = {EK_F8E4NV, EK_F8E5};
    long n = 0;
    for (int ki = 0; ki < 2; ki++)
        for (int rtz = 0; rtz < 2; rtz++) {
            emu_ek k = kinds[ki];
            ct_float_kind fk = k == EK_F8E4NV ? CT_F8E4M3FN : CT_F8E5M2;
            for (uint32_t top = 0; top < (1u << 17); top++)
                for (size_t l = 0; l < sizeof lows / sizeof lows[0]; l++) {
                    uint32_t w = top << 15 | lows[l];
                    float f;
                    memcpy(&f, &w, 4);
                    double d = f;
                    uint64_t u;
                    memcpy(&u, &d, 8);
                    for (int dd = -1; dd <= 1; dd++) {
                        uint64_t x = u + (uint64_t)(int64_t)dd;
                        double v;
                        memcpy(&v, &x, 8);
                        if ((x & 0x7fffffffffffffffull) == 0x7ff0000000000000ull + 1)
                            continue; /* inf + 1 is a NaN: same as the dd = 0 NaNs */
                        uint8_t want = (uint8_t)ct_float_encode_ex(v, fk, rtz ? CT_RTZ : CT_RTNE, true);
                        uint8_t got = emu_fp8_encode_sat(v, k, rtz);
                        n++;
                        if (got != want)
                            fail_msg("fp8 encode %s rtz %d of %a (0x%016llx): 0x%02x, reference 0x%02x",
                                     emu_ek_name(k), rtz, v, (unsigned long long)x, got, want);
                    }
                }
            uint64_t r = 0x243f6a8885a308d3ull;
            for (int i = 0; i < 300000; i++) {
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                /* mostly near fp8's range, some anywhere */
                uint64_t x = i % 8 ? (r & 0x800fffffffffffffull) | (uint64_t)(1023 - 30 + (int)(r >> 53 & 63)) << 52 : r;
                double v;
                memcpy(&v, &x, 8);
                uint8_t want = (uint8_t)ct_float_encode_ex(v, fk, rtz ? CT_RTZ : CT_RTNE, true);
                if (emu_fp8_encode_sat(v, k, rtz) != want)
                    fail_msg("fp8 encode %s rtz %d of %a: 0x%02x, reference 0x%02x", emu_ek_name(k), rtz,
                             v, emu_fp8_encode_sat(v, k, rtz), want);
            }
        }
    assert_true(n > 7000000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_mlir_float_literals),
        cmocka_unit_test(t_fp8_e4m3fn),
        cmocka_unit_test(t_fp8_e5m2_and_halfs),
        cmocka_unit_test(t_fnuz),
        cmocka_unit_test(t_fp8_fast_encode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
