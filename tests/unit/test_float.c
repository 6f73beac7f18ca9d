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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_mlir_float_literals),
        cmocka_unit_test(t_fp8_e4m3fn),
        cmocka_unit_test(t_fp8_e5m2_and_halfs),
        cmocka_unit_test(t_fnuz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
