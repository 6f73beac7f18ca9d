/*
 * test_emu_f16.c - the branch-free f16 conversions of emu_internal.h, which the emulator's
 * vectorized loops use: emu_h2f_calc against the decode table for all 65536 encodings,
 * emu_f2h (cvt.rn.f16.f32) against the generic encoder on every f32 exponent, the rounding
 * boundaries of every f16 value, and a sample of all encodings.  (An exhaustive run over all
 * 2^32 floats agreed with the previous branching implementation when it was replaced.)
 */
#include <math.h>
#include <stdint.h>

#include "emu/emu_internal.h"
#include "emu_test.h"

static void t_h2f(void **s)
{
    (void)s;
    emu_numeric_init();
    for (uint32_t h = 0; h < 65536; h++) {
        float a = emu_h2f_calc((uint16_t)h), b = emu_h2f((uint16_t)h);
        if (memcmp(&a, &b, 4))
            fail_msg("h2f(0x%04x): %a, table %a", h, a, b);
    }
}

/* cvt.rn.f16.f32 through the generic encoder: NaN is the canonical 0x7fff */
static uint16_t want_f2h(float f)
{
    return f != f ? 0x7fff : (uint16_t)ct_float_encode(f, CT_F16);
}

static void check(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    uint16_t got = emu_f2h(f), want = want_f2h(f);
    if (got != want)
        fail_msg("f2h(0x%08x = %a): 0x%04x, want 0x%04x", u, f, got, want);
}

static void t_f2h(void **s)
{
    (void)s;
    emu_numeric_init();
    /* a sample of all encodings: every 4099th */
    for (uint64_t u = 0; u < (1ull << 32); u += 4099)
        check((uint32_t)u);
    /* each f16 value, its neighbours and the midpoints to the next one (ties), both signs */
    for (uint32_t h = 0; h < 0x7c00; h++) {
        float lo = emu_h2f((uint16_t)h), hi = emu_h2f((uint16_t)(h + 1));
        float mid = (float)(((double)lo + (double)hi) / 2);
        uint32_t v[3];
        memcpy(&v[0], &lo, 4);
        memcpy(&v[1], &mid, 4);
        memcpy(&v[2], &hi, 4);
        for (int i = 0; i < 3; i++)
            for (int d = -2; d <= 2; d++) {
                check(v[i] + (uint32_t)d);
                check((v[i] + (uint32_t)d) | 0x80000000u);
            }
    }
    /* infinities, NaNs, the overflow threshold */
    static const uint32_t special[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,
                                       0x7f800001u, 0x477fefffu, 0x477ff000u, 0x47800000u,
                                       0x33000000u, 0x33000001u, 0x32ffffffu, 0x38800000u};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        check(special[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_h2f),
        cmocka_unit_test(t_f2h),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
