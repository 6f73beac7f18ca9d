/*
 * numeric.c - element kinds and the float conversions the GPU performs:
 * f16/bf16 from and to f32 (cvt.rn / cvt.rz), fp8 with satfinite, flush to
 * zero, and slow generic element access for the rarely used paths.
 *
 * The f32 -> f16 and f32 -> bf16 conversions are bit manipulations that
 * match cvt.rn.f16.f32 / cvt.rz.f16.f32 / cvt.rn.bf16.f32 exactly (NaN
 * becomes the GPU's canonical 0x7fff).  fp8 encodes have the semantics of
 * cvt.rn.satfinite.{e4m3,e5m2}x2 (out-of-range values and infinities become
 * the largest finite value, NaN stays NaN): emu_fp8_encode_sat computes
 * ct_float_encode_ex's bits with saturation in integers; the fnuz formats
 * still go through ct_float_encode_ex.
 */
#include "emu_internal.h"

#include <math.h>
#include <pthread.h>

static const size_t ek_sizes[EK__COUNT] = {
    [EK_I1] = 1,     [EK_I8] = 1,     [EK_I16] = 2,     [EK_I32] = 4,      [EK_I64] = 8,
    [EK_F16] = 2,    [EK_BF16] = 2,   [EK_F32] = 4,     [EK_F64] = 8,      [EK_F8E4NV] = 1,
    [EK_F8E5] = 1,   [EK_F8E4B8] = 1, [EK_F8E5B16] = 1, [EK_F8E4B15] = 1,  [EK_PTR] = 8,
    [EK_BPTR] = sizeof(emu_bptr),
};

static const char *const ek_names[EK__COUNT] = {
    [EK_I1] = "i1",           [EK_I8] = "i8",         [EK_I16] = "i16",
    [EK_I32] = "i32",         [EK_I64] = "i64",       [EK_F16] = "f16",
    [EK_BF16] = "bf16",       [EK_F32] = "f32",       [EK_F64] = "f64",
    [EK_F8E4NV] = "f8E4M3FN", [EK_F8E5] = "f8E5M2",   [EK_F8E4B8] = "f8E4M3FNUZ",
    [EK_F8E5B16] = "f8E5M2FNUZ", [EK_F8E4B15] = "f8E4M3B11FNUZ", [EK_PTR] = "ptr",
    [EK_BPTR] = "block ptr",
};

size_t emu_ek_size(emu_ek k)
{
    return k < EK__COUNT ? ek_sizes[k] : 0;
}

const char *emu_ek_name(emu_ek k)
{
    return k < EK__COUNT ? ek_names[k] : "?";
}

bool emu_ek_is_float(emu_ek k)
{
    return k >= EK_F16 && k <= EK_F8E4B15;
}

bool emu_ek_is_fp8(emu_ek k)
{
    return k >= EK_F8E4NV && k <= EK_F8E4B15;
}

ct_float_kind emu_ek_fk(emu_ek k)
{
    switch (k) {
    case EK_F16:
        return CT_F16;
    case EK_BF16:
        return CT_BF16;
    case EK_F64:
        return CT_F64;
    case EK_F8E4NV:
        return CT_F8E4M3FN;
    case EK_F8E5:
        return CT_F8E5M2;
    case EK_F8E4B8:
        return CT_F8E4M3FNUZ;
    case EK_F8E5B16:
        return CT_F8E5M2FNUZ;
    case EK_F8E4B15:
        return CT_F8E4M3B11FNUZ;
    default:
        return CT_F32;
    }
}

int emu_ek_int_bits(emu_ek k)
{
    switch (k) {
    case EK_I1:
        return 1;
    case EK_I8:
        return 8;
    case EK_I16:
        return 16;
    case EK_I32:
        return 32;
    case EK_I64:
    case EK_PTR:
        return 64;
    default:
        return 0;
    }
}


/* ---- f16 -------------------------------------------------------------- */

float emu_h2f_tab[65536];
float emu_fp8_tab[5][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static float h2f_slow(uint16_t h)
{
    uint32_t s = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
    if (e == 0) {
        float f = (float)m * 0x1p-24f;
        memcpy(&u, &f, 4);
        u |= s;
    } else if (e == 31) {
        u = s | 0x7f800000u | (m << 13);
    } else {
        u = s | ((e + 112) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void init_tables(void)
{
    for (uint32_t i = 0; i < 65536; i++)
        emu_h2f_tab[i] = h2f_slow((uint16_t)i);
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 256; i++)
            emu_fp8_tab[k][i] = (float)ct_float_decode((uint64_t)i, emu_ek_fk((emu_ek)(EK_F8E4NV + k)));
}

void emu_numeric_init(void)
{
    pthread_once(&tables_once, init_tables);
}

uint16_t emu_f2h_rz(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = x & 0x80000000u;
    x ^= sign;
    uint16_t o;
    if (x > 0x7f800000u)
        return 0x7fff;
    if (x == 0x7f800000u)
        o = 0x7c00;
    else if (x >= 0x47800000u)
        o = 0x7bff; /* round toward zero never overflows to inf */
    else if (x < 0x38800000u) {
        float g;
        memcpy(&g, &x, 4);
        o = (uint16_t)(uint32_t)(g * 0x1p24f); /* exact scaling, truncating conversion */
    } else {
        o = (uint16_t)((x - ((uint32_t)(127 - 15) << 23)) >> 13);
    }
    return (uint16_t)(o | (sign >> 16));
}

uint16_t emu_f2bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

uint16_t emu_f2bf_rz(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return (uint16_t)(u >> 16);
}

/* ---- fp8 ----------------------------------------------------------------- */

/* ct_float_encode_ex(v, e4m3fn or e5m2, RTNE or RTZ, saturate) in integer arithmetic on the
 * double's bits (test_float compares the two): the significand shifted to units of the fp8
 * value's quantum 2^(max(e, emin) - mbits), rounded, a carry into the next binade, saturation
 * to the largest finite value (for infinities too); NaN is 0x7f (e4m3fn) or 0x7e (e5m2), both
 * zeros keep their sign.  ct_float_encode_ex takes frexp, ldexp, floor and fmod per value: a
 * quarter of the MoE fp8 workload's run (its operands' set-up through ct_emu_set) went there. */
uint8_t emu_fp8_encode_sat(double v, emu_ek k, bool rtz)
{
    bool e4 = k == EK_F8E4NV;
    const int mbits = e4 ? 3 : 2, bias = e4 ? 7 : 15;
    const uint64_t maxbits = e4 ? 0x7e : 0x7b;
    uint64_t u;
    memcpy(&u, &v, 8);
    uint8_t sign = (uint8_t)(u >> 56 & 0x80);
    u &= ~(1ull << 63);
    if (u > 0x7ff0000000000000ull)
        return e4 ? 0x7f : 0x7e;
    if (u == 0x7ff0000000000000ull)
        return (uint8_t)(sign | maxbits);
    int fe = (int)(u >> 52);
    uint64_t m = u & ((1ull << 52) - 1);
    if (fe)
        m |= 1ull << 52;
    int E = (fe ? fe : 1) - 1023, emin = 1 - bias;
    int e = E > emin ? E : emin;
    /* v = m 2^(E - 52); the quantum is 2^(e - mbits) */
    int shift = 52 + (e - mbits) - E;
    uint64_t r;
    if (shift >= 64) {
        r = 0; /* below a quarter of the smallest subnormal */
    } else {
        r = m >> shift;
        uint64_t rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        if (!rtz && (rem > half || (rem == half && (r & 1))))
            r++;
    }
    if (r >= (2ull << mbits)) { /* rounding carried into the next binade */
        r >>= 1;
        e += 1;
    }
    uint64_t bits = r < (1ull << mbits) ? r : ((uint64_t)(e + bias) << mbits) | (r & ((1ull << mbits) - 1));
    if (bits > maxbits)
        bits = maxbits;
    return (uint8_t)(sign | bits);
}

uint8_t emu_f32_to_fp8(float f, emu_ek k, int rounding)
{
    if (rounding == 1 && k == EK_F8E5) {
        /* cvt.rz.f16.f32, then the top byte of the f16 (Fp16_to_Fp8E5M2_RTZ) */
        return (uint8_t)(emu_f2h_rz(f) >> 8);
    }
    if (k == EK_F8E4NV || k == EK_F8E5)
        return emu_fp8_encode_sat((double)f, k, rounding != 0);
    return (uint8_t)ct_float_encode_ex((double)f, emu_ek_fk(k), rounding ? CT_RTZ : CT_RTNE, false);
}

/* ---- generic element access (slow paths) ------------------------------- */

double emu_load_f64(emu_ek k, const void *p, int64_t i)
{
    switch (k) {
    case EK_F16:
        return emu_h2f(((const uint16_t *)p)[i]);
    case EK_BF16:
        return emu_bf2f(((const uint16_t *)p)[i]);
    case EK_F32:
        return ((const float *)p)[i];
    case EK_F64:
        return ((const double *)p)[i];
    case EK_F8E4NV:
    case EK_F8E5:
    case EK_F8E4B8:
    case EK_F8E5B16:
    case EK_F8E4B15:
        return emu_fp8_to_f32(((const uint8_t *)p)[i], k);
    default:
        return (double)emu_load_i64(k, p, i);
    }
}

void emu_store_f64(emu_ek k, void *p, int64_t i, double v)
{
    switch (k) {
    case EK_F16:
        /* through f32 when that is exact (one rounding), else from the double */
        ((uint16_t *)p)[i] = (double)(float)v == v || v != v ? emu_f2h((float)v)
                                                               : (uint16_t)ct_float_encode(v, CT_F16);
        break;
    case EK_BF16:
        ((uint16_t *)p)[i] = (double)(float)v == v || v != v
                                 ? emu_f2bf((float)v)
                                 : (uint16_t)ct_float_encode(v, CT_BF16);
        break;
    case EK_F32:
        ((float *)p)[i] = (float)v;
        break;
    case EK_F64:
        ((double *)p)[i] = v;
        break;
    case EK_F8E4NV:
    case EK_F8E5:
        ((uint8_t *)p)[i] = emu_fp8_encode_sat(v, k, false);
        break;
    case EK_F8E4B8:
    case EK_F8E5B16:
    case EK_F8E4B15:
        ((uint8_t *)p)[i] = (uint8_t)ct_float_encode_ex(v, emu_ek_fk(k), CT_RTNE, false);
        break;
    default:
        emu_store_i64(k, p, i, (int64_t)v);
    }
}

int64_t emu_load_i64(emu_ek k, const void *p, int64_t i)
{
    switch (k) {
    case EK_I1:
        return ((const uint8_t *)p)[i] & 1;
    case EK_I8:
    case EK_F8E4NV:
    case EK_F8E5:
    case EK_F8E4B8:
    case EK_F8E5B16:
    case EK_F8E4B15:
        return ((const int8_t *)p)[i];
    case EK_I16:
    case EK_F16:
    case EK_BF16:
        return ((const int16_t *)p)[i];
    case EK_I32:
    case EK_F32:
        return ((const int32_t *)p)[i];
    case EK_I64:
    case EK_F64:
    case EK_PTR:
        return ((const int64_t *)p)[i];
    default:
        return 0;
    }
}

void emu_store_i64(emu_ek k, void *p, int64_t i, int64_t v)
{
    switch (emu_ek_size(k)) {
    case 1:
        ((uint8_t *)p)[i] = (uint8_t)(k == EK_I1 ? (v & 1) : v);
        break;
    case 2:
        ((uint16_t *)p)[i] = (uint16_t)v;
        break;
    case 4:
        ((uint32_t *)p)[i] = (uint32_t)v;
        break;
    case 8:
        ((uint64_t *)p)[i] = (uint64_t)v;
        break;
    default:
        break;
    }
}
