/*
 * libdevice_check.c - the emulator's ports of libdevice's f32 functions (src/emu/mathfn.c)
 * against outputs of the GPU, for scripts/gpu/libdevice_check.py (loaded with ctypes).
 * ld_check(fn, x, y, n, gpu, bad, maxbad): counts the elements whose bits differ from the
 * port's; the first maxbad of them are written to bad as (x, y, gpu, port) quadruples.  NaN
 * results count as differing unless both are NaN and then are counted in *nan_payload.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "emu_internal.h" /* the ports' declarations */

static float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint32_t eval(int fn, uint32_t x, uint32_t y)
{
    float a = bf(x);
    switch (fn) {
    case 0: return fb(emu_asinf_nv(a));
    case 1: return fb(emu_logf_nv(a));
    case 2: return fb(emu_log2f_nv(a));
    case 3: return fb(emu_sinf_nv(a));
    case 4: return fb(emu_cosf_nv(a));
    case 5: return fb(emu_erff_nv(a));
    case 6: return fb(emu_tanhf_nv(a));
    case 7: return fb(emu_powf_nv(a, bf(y)));
    case 8: return fb(emu_powif_nv(a, (int32_t)y));
    default: return 0;
    }
}

/* x == NULL: the inputs are x0 + i (every bit pattern of a range) */
int64_t ld_check(int fn, const uint32_t *x, uint32_t x0, const uint32_t *y, int64_t n, const uint32_t *gpu,
                 uint32_t *bad, int maxbad, int64_t *nan_payload)
{
    int64_t nbad = 0, nanp = 0, nrec = 0;
#pragma omp parallel for reduction(+ : nbad, nanp) schedule(static, 65536)
    for (int64_t i = 0; i < n; i++) {
        uint32_t xi = x ? x[i] : x0 + (uint32_t)i, yi = y ? y[i] : 0;
        uint32_t e = eval(fn, xi, yi), g = gpu[i];
        if (e == g)
            continue;
        if ((e & 0x7fffffffu) > 0x7f800000u && (g & 0x7fffffffu) > 0x7f800000u) {
            nanp++;
            continue;
        }
        nbad++;
        int64_t k;
#pragma omp atomic capture
        k = nrec++;
        if (k < maxbad) {
            bad[4 * k] = xi;
            bad[4 * k + 1] = yi;
            bad[4 * k + 2] = g;
            bad[4 * k + 3] = e;
        }
    }
    *nan_payload = nanp;
    return nbad;
}
