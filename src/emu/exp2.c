/*
 * exp2.c - math.exp and math.exp2 on f32 tensors: emu_exp2f (emu_internal.h) over an array,
 * sixteen lanes at a time with AVX-512 where the machine has it.
 *
 * The vector path performs the scalar function's operations in the same order, on the same
 * types (the f32 multiply of math.exp, then in double: the multiply and add that round x * 32
 * to an integer, the reduction, the Horner steps, the table entry scaled through its exponent
 * field, the product rounded to f32), so the two give the same bits; test_emu_ops compares
 * them on every class of input, and scripts/check_exp2.c on all 2^32.
 */
#include "emu_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define EXP2_X86 1
#endif

/* one element: the model of ex2.approx.ftz.f32 (ftz) or of math.exp's ex2.approx.f32 after
 * the multiply by log2(e) (not ftz); NaN becomes the canonical NaN, as the handlers store it */
static inline float one(float x, bool is_exp)
{
    float y = is_exp ? emu_exp_nv(x) : emu_ex2_ftz(x);
    if (y != y) {
        uint32_t u = 0x7fffffffu;
        memcpy(&y, &u, 4);
    }
    return y;
}

#ifdef EXP2_X86
/* 8 f32 inputs (already multiplied or flushed), widened: emu_exp2f's double part */
__attribute__((target("avx512f,avx512dq"))) static inline __m256 exp2_8(__m256 xf)
{
    __m512d x = _mm512_cvtps_pd(xf);
    /* the clamps; a NaN lane becomes -200 here and is replaced by the caller */
    x = _mm512_max_pd(x, _mm512_set1_pd(-200.0));
    x = _mm512_min_pd(x, _mm512_set1_pd(200.0));
    __m512d shift = _mm512_set1_pd(0x1.8p52);
    __m512d t = _mm512_add_pd(_mm512_mul_pd(x, _mm512_set1_pd(32.0)), shift);
    __m512i k = _mm512_sub_epi64(_mm512_castpd_si512(t), _mm512_set1_epi64(0x4338000000000000ll));
    __m512d r = _mm512_sub_pd(x, _mm512_mul_pd(_mm512_sub_pd(t, shift), _mm512_set1_pd(0x1p-5)));
    __m512d a = _mm512_mul_pd(r, _mm512_set1_pd(0x1.ffcbfc588b0c7p-17));
    a = _mm512_mul_pd(r, _mm512_add_pd(_mm512_set1_pd(0x1.430912f86c787p-13), a));
    a = _mm512_mul_pd(r, _mm512_add_pd(_mm512_set1_pd(0x1.5d87fe78a6731p-10), a));
    a = _mm512_mul_pd(r, _mm512_add_pd(_mm512_set1_pd(0x1.3b2ab6fba4e77p-7), a));
    a = _mm512_mul_pd(r, _mm512_add_pd(_mm512_set1_pd(0x1.c6b08d704a0c0p-5), a));
    a = _mm512_mul_pd(r, _mm512_add_pd(_mm512_set1_pd(0x1.ebfbdff82c58fp-3), a));
    a = _mm512_mul_pd(r, _mm512_add_pd(_mm512_set1_pd(0x1.62e42fefa39efp-1), a));
    __m512d p = _mm512_add_pd(_mm512_set1_pd(1.0), a);
    __m512i idx = _mm512_and_si512(k, _mm512_set1_epi64(31));
    __m512i sb = _mm512_castpd_si512(_mm512_i64gather_pd(idx, emu_exp2_tab, 8));
    sb = _mm512_add_epi64(sb, _mm512_slli_epi64(_mm512_srai_epi64(k, 5), 52));
    return _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_castsi512_pd(sb), p));
}

__attribute__((target("avx512f,avx512dq"))) static void exp2_avx512(float *d, const float *a,
                                                                   int64_t n, bool is_exp)
{
    const __m512i expo = _mm512_set1_epi32(0x7f800000), sign = _mm512_set1_epi32((int)0x80000000u);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 xf = _mm512_loadu_ps(a + i);
        if (is_exp) {
            xf = _mm512_mul_ps(xf, _mm512_set1_ps(EMU_LOG2E_F));
        } else { /* flush a subnormal input to its signed zero */
            __mmask16 sub = _mm512_testn_epi32_mask(_mm512_castps_si512(xf), expo);
            xf = _mm512_mask_mov_ps(xf, sub, _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(xf), sign)));
        }
        __m256 lo = exp2_8(_mm512_castps512_ps256(xf));
        __m256 hi = exp2_8(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(xf), 1)));
        __m512 y = _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
        /* emu_exp2f's two patched inputs */
        __m512i xb = _mm512_castps_si512(xf);
        y = _mm512_mask_mov_ps(y, _mm512_cmpeq_epi32_mask(xb, _mm512_set1_epi32(0x3b429d37)),
                               _mm512_set1_ps(0x1.00870ap+0f));
        y = _mm512_mask_mov_ps(y, _mm512_cmpeq_epi32_mask(xb, _mm512_set1_epi32((int)0xbcf3a937u)),
                               _mm512_set1_ps(0x1.f58d62p-1f));
        if (!is_exp) { /* flush a subnormal result */
            __mmask16 sub = _mm512_testn_epi32_mask(_mm512_castps_si512(y), expo);
            y = _mm512_mask_mov_ps(y, sub, _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(y), sign)));
        }
        /* NaN in, the canonical NaN out */
        __mmask16 nan = _mm512_cmp_ps_mask(xf, xf, _CMP_UNORD_Q);
        y = _mm512_mask_mov_ps(y, nan, _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff)));
        _mm512_storeu_ps(d + i, y);
    }
    for (; i < n; i++)
        d[i] = one(a[i], is_exp);
}
#endif

void emu_exp2_f32_array(float *d, const float *a, int64_t n, bool is_exp, bool force_scalar)
{
#ifdef EXP2_X86
    if (!force_scalar && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
        exp2_avx512(d, a, n, is_exp);
        return;
    }
#endif
    (void)force_scalar;
    for (int64_t i = 0; i < n; i++)
        d[i] = one(a[i], is_exp);
}
