/*
 * mathfn.c - the f32 math functions Triton 3.6 calls from libdevice on
 * NVIDIA (math.log, math.log2, math.sin, math.cos, math.erf, libdevice's tanh,
 * asin, pow(float, float) and pow(float, int)), transcribed from the PTX Triton
 * emits for sm_90 (with enable_reflect_ftz, the default): the same constants,
 * the same fused multiply-adds with or without flush-to-zero (LLVM's own
 * contractions of libdevice's fmul/fadd pairs included, as in powf), the same
 * Payne-Hanek reduction for large trigonometric arguments.  Where the PTX uses
 * ex2.approx, rcp.approx or sqrt.approx, the MUFU models (mufu.c) give the
 * GPU's bits, so every function here is bit-exact for every input, NaN results
 * canonical (scripts/gpu/libdevice_check.py found every unary function equal
 * to the GPU on all 2^32 inputs, powf on 2^27.3 pairs and powif on 2^26, on an
 * H100, the H200's SM: tests/golden/libdevice/check.txt; test_emu_mathfn
 * keeps a sample of those outputs and of the H200's asin_kernel launch).
 */
#include "emu_internal.h"

#include <math.h>

static inline float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* A NaN result as the GPU's arithmetic leaves it: the canonical 0x7fffffff. */
static inline float nan_canon(float r)
{
    return r != r ? bf(0x7FFFFFFFu) : r;
}

/* fma.rn.ftz.f32 */
static inline float fma_ftz(float a, float b, float c)
{
    return emu_ftz(fmaf(emu_ftz(a), emu_ftz(b), emu_ftz(c)));
}

/* ex2.approx.ftz.f32 (MUFU.EX2) and rcp.approx.ftz.f32 (MUFU.RCP) */
static inline float ex2_approx_ftz(float x)
{
    return emu_mufu_ex2(x);
}
static inline float rcp_approx_ftz(float x)
{
    return emu_mufu_rcp(x);
}

/* __nv_logf */
float emu_logf_nv(float x)
{
    bool small = x < bf(0x00800000);
    float r4 = small ? x * bf(0x4B000000) : x;
    float r3 = small ? bf(0xC1B80000) : 0.0f;
    uint32_t i4 = fb(r4);
    uint32_t r19 = (i4 - 1059760811u) & 0xFF800000u;
    float r20 = bf(i4 - r19);
    float r21 = (float)(int32_t)r19;
    float r23 = fma_ftz(r21, bf(0x34000000), r3);
    float t = r20 + bf(0xBF800000);
    float p = fma_ftz(bf(0xBE055027), t, bf(0x3E1039F6));
    p = fma_ftz(p, t, bf(0xBDF8CDCC));
    p = fma_ftz(p, t, bf(0x3E0F2955));
    p = fma_ftz(p, t, bf(0xBE2AD8B9));
    p = fma_ftz(p, t, bf(0x3E4CED0B));
    p = fma_ftz(p, t, bf(0xBE7FFF22));
    p = fma_ftz(p, t, bf(0x3EAAAA78));
    p = fma_ftz(p, t, bf(0xBF000000));
    float r42 = t * p;
    float r43 = fma_ftz(r42, t, t);
    float r = fma_ftz(r23, bf(0x3F317218), r43);
    if (!(i4 < 2139095040u))
        r = fma_ftz(r4, bf(0x7F800000), bf(0x7F800000));
    if (r4 == 0.0f)
        r = bf(0xFF800000);
    return nan_canon(r);
}

/* __nv_log2f */
float emu_log2f_nv(float x)
{
    bool small = x < bf(0x00800000);
    float r1 = small ? x * bf(0x4B000000) : x;
    float r4 = small ? bf(0xC1B80000) : 0.0f;
    uint32_t i1 = fb(r1);
    uint32_t r6 = (i1 - 1060439283u) & 0xFF800000u;
    float r7 = bf(i1 - r6);
    float r8 = (float)(int32_t)r6;
    float r10 = fma_ftz(r8, bf(0x34000000), r4);
    float t = r7 + bf(0xBF800000);
    float p = fma_ftz(bf(0x3DC6B27F), t, bf(0xBE2C7F30));
    p = fma_ftz(p, t, bf(0x3E2FCF2A));
    p = fma_ftz(p, t, bf(0xBE374E43));
    p = fma_ftz(p, t, bf(0x3E520BF4));
    p = fma_ftz(p, t, bf(0xBE763C8B));
    p = fma_ftz(p, t, bf(0x3E93BF99));
    p = fma_ftz(p, t, bf(0xBEB8AA49));
    p = fma_ftz(p, t, bf(0x3EF6384A));
    p = fma_ftz(p, t, bf(0xBF38AA3B));
    float r31 = t * p;
    float r32 = t * r31;
    float r34 = fma_ftz(t, bf(0x3FB8AA3B), r32);
    float r = r10 + r34;
    if (!(i1 < 2139095040u))
        r = fma_ftz(r1, bf(0x7F800000), bf(0x7F800000));
    if (r1 == 0.0f)
        r = bf(0xFF800000);
    return nan_canon(r);
}

/* cvt.rni.ftz.s32.f32: nearest even, saturating, NaN -> 0 */
static inline int32_t cvt_rni_s32(float x)
{
    x = emu_ftz(x);
    if (x != x)
        return 0;
    float r = nearbyintf(x);
    if (r >= 2147483648.0f)
        return INT32_MAX;
    if (r < -2147483648.0f)
        return INT32_MIN;
    return (int32_t)r;
}

static inline uint32_t shf_l_wrap(uint32_t lo, uint32_t hi, uint32_t s)
{
    s &= 31;
    if (s == 0)
        return hi;
    return (hi << s) | (lo >> (32 - s));
}

static const uint32_t i2opi_f[6] = {0x3C439041u, 0xDB629599u, 0xF534DDC0u,
                                    0xFC2757D1u, 0x4E441529u, 0xA2F9836Eu};

/* __internal_trig_reduction_kernel: r in [-pi/4, pi/4] and the quadrant q */
static float trig_reduce(float x, int32_t *q)
{
    float j = x * bf(0x3F22F983);
    int32_t qi = cvt_rni_s32(j);
    float qf = (float)qi;
    float r = fma_ftz(qf, bf(0xBFC90FDA), x);
    r = fma_ftz(qf, bf(0xB3A22168), r);
    r = fma_ftz(qf, bf(0xA7C234C5), r);
    float a = fabsf(emu_ftz(x));
    if (!(a < bf(0x47CE4780)) && a == a) {
        if (a == INFINITY) {
            r = emu_ftz(x * 0.0f);
            qi = 0;
        } else {
            uint32_t ix = fb(x);
            uint32_t hi = (ix << 8) | 0x80000000u;
            uint32_t res[7];
            uint32_t carry = 0;
            for (int i = 0; i < 6; i++) {
                uint64_t t = (uint64_t)i2opi_f[i] * hi + carry;
                res[i] = (uint32_t)t;
                carry = (uint32_t)(t >> 32);
            }
            res[6] = carry;
            uint32_t e = ix >> 23;
            uint32_t jb = ((e & 224u) - 128u) >> 3; /* bytes */
            int w = (int)(jb / 4);
            uint32_t r5 = res[6 - w], r6 = res[5 - w];
            uint32_t r53 = r6;
            if ((ix & 260046848u) != 0)
                r53 = shf_l_wrap(res[4 - w], r6, e);
            uint32_t r27 = shf_l_wrap(r6, r5, e);
            uint32_t r28 = r27 >> 30;
            uint32_t r29 = shf_l_wrap(r53, r27, 2);
            uint32_t r30 = r53 << 2;
            uint32_t r31 = r29 >> 31;
            uint32_t r32 = r31 + r28;
            qi = (int32_t)ix < 0 ? (int32_t)(0u - r32) : (int32_t)r32;
            uint32_t r34 = r29 ^ ix;
            uint32_t r35 = (uint32_t)((int32_t)r29 >> 31);
            uint32_t r36 = r35 ^ r29, r37 = r35 ^ r30;
            int64_t v = (int64_t)(((uint64_t)r36 << 32) | r37);
            double d = (double)v;
            uint64_t cu = 0x3BF921FB54442D19ull;
            double c;
            memcpy(&c, &cu, 8);
            float r38 = (float)(d * c);
            r = (int32_t)r34 < 0 ? -r38 : r38;
        }
    }
    *q = qi;
    return r;
}

/* the polynomial part shared by sinf and cosf: `cospoly` selects cos */
static float trig_poly(float r, bool cospoly, bool negate)
{
    float s = emu_ftz(emu_ftz(r) * emu_ftz(r));
    float r8 = cospoly ? 1.0f : r;
    float r9 = fma_ftz(s, r8, 0.0f);
    float c58 = bf(0xB94D4153), c57 = bf(0x3C0885E4), c56 = bf(0xBE2AAAA8);
    if (cospoly) {
        c58 = fma_ftz(bf(0x37CBAC00), s, bf(0xBAB607ED));
        c57 = bf(0x3D2AAABB);
        c56 = bf(0xBEFFFFFF);
    }
    float p = fma_ftz(c58, s, c57);
    p = fma_ftz(p, s, c56);
    float res = fma_ftz(p, r9, r8);
    if (negate)
        res = fma_ftz(res, -1.0f, 0.0f);
    return res;
}

/* __nv_sinf */
float emu_sinf_nv(float x)
{
    int32_t q;
    float r = trig_reduce(x, &q);
    return nan_canon(trig_poly(r, (q & 1) != 0, (q & 2) != 0));
}

/* __nv_cosf */
float emu_cosf_nv(float x)
{
    int32_t q;
    float r = trig_reduce(x, &q);
    return nan_canon(trig_poly(r, (q & 1) == 0, ((q + 1) & 2) != 0));
}

/* __nv_erff */
float emu_erff_nv(float x)
{
    float a = fabsf(emu_ftz(x));
    bool big = a >= bf(0x3F8060FE);
    float t;
    float c[7];
    if (big) {
        static const uint32_t k[7] = {0x3789CA3C, 0xB9F560B9, 0x3BAC840B, 0xBD0C8162,
                                      0x3E1CF906, 0x3F6A937E, 0x3F20D842};
        for (int i = 0; i < 7; i++)
            c[i] = bf(k[i]);
        t = a;
    } else {
        static const uint32_t k[7] = {0x38B1E96A, 0xBA574D20, 0x3BAAD5EA, 0xBCDC1BE7,
                                      0x3DE718AF, 0xBEC093AC, 0x3E0375D3};
        for (int i = 0; i < 7; i++)
            c[i] = bf(k[i]);
        t = x * x;
    }
    float p = fma_ftz(c[0], t, c[1]);
    p = fma_ftz(p, t, c[2]);
    p = fma_ftz(p, t, c[3]);
    p = fma_ftz(p, t, c[4]);
    p = fma_ftz(p, t, c[5]);
    p = fma_ftz(p, t, c[6]);
    float r10 = big ? -t : x;
    float r = fma_ftz(p, r10, r10);
    if (!(a < bf(0x3F8060FE)) && a == a) {
        float e = ex2_approx_ftz(r);
        float d = 1.0f - e;
        r = bf((fb(x) & 0x80000000u) | fb(d));
    }
    return nan_canon(r);
}

/* __nv_tanhf */
float emu_tanhf_nv(float x)
{
    float a = fabsf(emu_ftz(x));
    if (!(a >= bf(0x3F19999A))) { /* setp.ltu: also NaN */
        float x2 = x * x;
        float p = fma_ftz(bf(0x3C80F082), x2, bf(0xBD563CAE));
        p = fma_ftz(p, x2, bf(0x3E085941));
        p = fma_ftz(p, x2, bf(0xBEAAA9ED));
        p = fma_ftz(p, x2, 0.0f);
        return nan_canon(fma_ftz(p, x, x));
    }
    float e = ex2_approx_ftz(a * bf(0x4038AA3B));
    float r3 = rcp_approx_ftz(e + 1.0f);
    float r9 = fma_ftz(r3, -2.0f, 1.0f);
    float r10 = a >= bf(0x41102CB4) ? 1.0f : r9;
    return bf((fb(x) & 0x80000000u) | fb(r10));
}


/* __nv_asinf.  With a = |x|: on [0, 0.57] asin(a) = a + a^3 p(a^2); above, asin(a) =
 * pi/2 - 2 asin(s) with s = sqrt((1 - a) / 2) (sqrt.approx.ftz, MUFU.SQRT), the same
 * polynomial at s.  The squares and the product t^2 p are plain mul.f32 (subnormals kept),
 * the rest fma.rn.ftz; the sign of x is put back on any result that is not NaN. */
float emu_asinf_nv(float x)
{
    float a = fabsf(emu_ftz(x));
    bool big = a > bf(0x3F11EB85);
    float t = big ? emu_mufu_sqrt((1.0f - a) * 0.5f) : a;
    float t2 = t * t;
    float p = fma_ftz(bf(0x3D53F941), t2, bf(0x3C94D2E9));
    p = fma_ftz(p, t2, bf(0x3D3F841F));
    p = fma_ftz(p, t2, bf(0x3D994929));
    p = fma_ftz(p, t2, bf(0x3E2AAB94));
    float r = fma_ftz(t2 * p, t, t);
    if (big)
        r = fma_ftz(-2.0f, r, bf(0x3FC90FDB));
    if (r != r)
        return nan_canon(r);
    return bf(fb(r) | (fb(x) & 0x80000000u));
}

/* mul.rn.ftz.f32, add.rn.ftz.f32 */
static inline float mul_ftz(float a, float b)
{
    return emu_ftz(emu_ftz(a) * emu_ftz(b));
}
static inline float add_ftz(float a, float b)
{
    return emu_ftz(emu_ftz(a) + emu_ftz(b));
}

/* __nv_powf, as Triton's PTX has it (libdevice's __internal_accurate_powf after LLVM's
 * contractions: three of the log's fmul/fadd pairs are fma.rn.f32 without ftz).
 * log|x| as a head and tail: |x| = m 2^e with m in (0.707, 1.414], u = 2(m-1)/(m+1) through
 * rcp.approx.ftz, log m = u + u^3 q(u^2) plus the error of u, e log 2 in two parts, summed
 * with Fast2Sum steps; times y (scaled by 2^-12 above 1e34) as a product and its fma
 * residual; exp of that by 2^n ex2.approx.ftz(f log2 e) (n = trunc(s log2 e) within +-126)
 * corrected by the tail.  Then the corner cases of C99 pow. */
float emu_powf_nv(float x, float y)
{
    float ax = fabsf(emu_ftz(x)), ay = fabsf(emu_ftz(y));
    bool y_odd = fabsf(emu_ftz(fmaf(truncf(y * 0.5f), -2.0f, y))) == 1.0f;
    uint32_t ia = fb(ax);
    float m = bf((ia & 0x007FFFFFu) | 0x3F800000u);
    float e = (float)(ia >> 23) + bf(0xC2FE0000);
    if (m > bf(0x3FB504F3)) {
        m = m * 0.5f;
        e = e + 1.0f;
    }
    float mm1 = m + -1.0f, rcp = emu_mufu_rcp(m + 1.0f);
    float d = mm1 + mm1;
    float u = rcp * d, u2 = u * u;
    float q = fma_ftz(bf(0x3B18F0FE), u2, bf(0x3C4CAF63));
    q = fma_ftz(q, u2, bf(0x3DAAAABD));
    float u3q = mul_ftz(mul_ftz(q, u2), u);
    float r = fmaf(-rcp, d, mm1);
    r = r + r;
    float ulo = mul_ftz(rcp, fma_ftz(-u, mm1, r));
    float h = fmaf(rcp, d, u3q);
    float t = u3q + fmaf(rcp, d, -h);
    t = ulo + t;
    float lm_hi = h + t;
    float lm_lo = t + (h - lm_hi);
    float e_hi = mul_ftz(e, bf(0x3F317200)), e_lo = mul_ftz(e, bf(0x35BFBE8E));
    float s1 = e_hi + lm_hi;
    float s2 = lm_lo + (lm_hi + (e_hi - s1));
    s2 = e_lo + s2;
    float l_hi = s1 + s2;
    float l_lo = s2 + (s1 - l_hi);
    float ys = ay > bf(0x77F684DF) ? y * bf(0x39000000) : y;
    float p_hi = mul_ftz(ys, l_hi);
    float p_lo = fma_ftz(ys, l_hi, -p_hi);
    p_lo = fma_ftz(ys, l_lo, p_lo);
    p_lo = fma_ftz(0.0f, l_hi, p_lo);
    float s = add_ftz(p_hi, p_lo);
    bool at_max = fb(s) == 0x42B17218u; /* ln(FLT_MAX) rounded up: nudged below */
    float sx = at_max ? bf(0x42B17217) : s;
    float n = truncf(mul_ftz(sx, bf(0x3FB8AA3B)));
    if (fabsf(emu_ftz(n)) > 126.0f)
        n = copysignf(126.0f, n);
    float f = fma_ftz(n, bf(0xBF317218), sx);
    f = fma_ftz(n, bf(0x3102E308), f);
    float ex = emu_mufu_ex2(f * bf(0x3FB8AA3B));
    float scaled = ex * bf(fb(n + bf(0x4B40007F)) << 23);
    float res = INFINITY;
    if (scaled != INFINITY) {
        float tail = add_ftz(add_ftz(p_hi, -s), p_lo);
        if (at_max)
            tail = tail + bf(0x37000000);
        res = fma_ftz(scaled, tail, scaled);
    }
    /* corner cases */
    bool neg_odd = x < 0.0f && y_odd;
    if (x == 0.0f) {
        uint32_t z = y_odd ? fb(x + x) : 0u;
        res = bf(y < 0.0f ? z | 0x7F800000u : z);
    } else {
        if (neg_odd)
            res = -res;
        if (x < 0.0f && truncf(y) != y)
            res = bf(0x7FFFFFFFu);
    }
    if (!((int32_t)fb(ax + ay) < 0x7F800000)) {
        if (ax != ax || ay != ay) {
            res = x + y;
        } else if (ay == INFINITY) {
            uint32_t z = ax > 1.0f ? 0x7F800000u : 0u;
            if (y < 0.0f)
                z ^= 0x7F800000u;
            res = x == -1.0f ? 1.0f : bf(z);
        } else if (ax == INFINITY) {
            uint32_t z = y >= 0.0f ? 0x7F800000u : 0u;
            res = bf(neg_odd ? z | 0x80000000u : z);
        }
    }
    if (y == 0.0f || x == 1.0f)
        res = 1.0f;
    return nan_canon(res);
}

/* __nv_powif: binary powering with mul.rn.ftz (r = r x for each set bit of |n|, from the
 * lowest, x squared between), then rcp.rn for n < 0 */
float emu_powif_nv(float x, int32_t n)
{
    uint32_t k = n < 0 ? 0u - (uint32_t)n : (uint32_t)n;
    float r = 1.0f;
    for (;;) {
        if (k & 1u)
            r = mul_ftz(r, x);
        if (k < 2u)
            break;
        k >>= 1;
        x = mul_ftz(x, x);
    }
    if (n < 0)
        r = 1.0f / r;
    return nan_canon(r);
}
