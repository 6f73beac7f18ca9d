/*
 * exp2.c - math.exp and math.exp2 on f32 tensors: the MUFU.EX2 model (mufu.c) over an array.
 *
 * math.exp2 is ex2.approx.ftz.f32; math.exp is ex2.approx.f32 of the f32 product with log2(e)
 * (emu_internal.h: emu_ex2_ftz, emu_exp_nv), eight lanes at a time on AVX-512.
 */
#include "emu_internal.h"

void emu_exp2_f32_array(float *d, const float *a, int64_t n, bool is_exp, bool force_scalar)
{
    if (!is_exp) {
        emu_mufu_ex2_array(d, a, n, false, force_scalar);
        return;
    }
    if (!force_scalar && emu_mufu_exp_array_packed(d, a, n))
        return;
    /* the f32 multiply first, in blocks (d may be a) */
    float t[256];
    for (int64_t i = 0; i < n; i += 256) {
        int64_t m = n - i < 256 ? n - i : 256;
        for (int64_t j = 0; j < m; j++)
            t[j] = a[i + j] * EMU_LOG2E_F;
        emu_mufu_ex2_array(d + i, t, m, true, force_scalar);
    }
}
