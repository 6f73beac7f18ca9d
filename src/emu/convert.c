/*
 * convert.c - casts: integer extension and truncation, int <-> float,
 * float <-> float (arith.extf/truncf and tt.fp_to_fp), as the NVIDIA
 * backend lowers them:
 *  - sitofp/uitofp are cvt.rn (round to nearest even);
 *  - fptosi/fptoui are cvt.rzi, which truncate toward zero and saturate to
 *    the destination range (NaN gives 0); 8-bit results go through the
 *    16-bit instruction and keep its low byte;
 *  - truncf and fp_to_fp round to nearest even (or toward zero for
 *    fp_to_fp rounding = rtz: cvt.rz.f16.f32, f2bf16.rz);
 *  - conversions to fp8e4nv/fp8e5 are cvt.rn.satfinite: out-of-range
 *    values and infinities become the largest finite value; f32 -> fp8e5
 *    with rtz truncates the f16 conversion (Triton's Fp16_to_Fp8E5M2_RTZ);
 *  - conversions from fp8, f16 and bf16 upward are exact.
 * Hot pairs have typed loops; everything else goes through one generic
 * element loop.
 */
#include "emu_internal.h"

#include <math.h>

#define RESTRICT __restrict__

enum { CV_SEXT, CV_ZEXT, CV_TRUNC, CV_SITOFP, CV_UITOFP, CV_FPTOSI, CV_FPTOUI, CV_FF };

/* ---- typed fast paths ---------------------------------------------------- */

#define DEF_CV(NAME, S, D, EXPR)                                                               \
    EMU_CLONES static int NAME(emu_frame *F, const emu_ins *I)                                 \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        D *RESTRICT d = SLOT(F, I->d, D);                                                      \
        const S *a = SLOT(F, I->a, S);                                                         \
        for (int64_t i = 0; i < n; i++) {                                                      \
            S x = a[i];                                                                        \
            d[i] = (D)(EXPR);                                                                  \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }

DEF_CV(cv_f16_f32, uint16_t, float, emu_h2f_calc(x))
DEF_CV(cv_bf16_f32, uint16_t, float, emu_bf2f(x))
DEF_CV(cv_f32_f16, float, uint16_t, emu_f2h(x))
DEF_CV(cv_f32_f16_rz, float, uint16_t, emu_f2h_rz(x))
DEF_CV(cv_f32_bf16, float, uint16_t, emu_f2bf(x))
DEF_CV(cv_f32_bf16_rz, float, uint16_t, emu_f2bf_rz(x))
DEF_CV(cv_f32_e4m3, float, uint8_t, emu_fp8_encode_sat((double)x, EK_F8E4NV, false))
DEF_CV(cv_f32_e4m3_rz, float, uint8_t, emu_fp8_encode_sat((double)x, EK_F8E4NV, true))
DEF_CV(cv_f32_e5m2, float, uint8_t, emu_fp8_encode_sat((double)x, EK_F8E5, false))
DEF_CV(cv_f32_f64, float, double, x)
DEF_CV(cv_f64_f32, double, float, x)
DEF_CV(cv_i32_i64, int32_t, int64_t, x)
DEF_CV(cv_u32_i64, uint32_t, uint64_t, x)
DEF_CV(cv_i64_i32, uint64_t, uint32_t, x)
DEF_CV(cv_i1_i32, uint8_t, uint32_t, x & 1)
DEF_CV(cv_i1_i8, uint8_t, uint8_t, x & 1)
DEF_CV(cv_i32_f32, int32_t, float, x)
DEF_CV(cv_u32_f32, uint32_t, float, x)
DEF_CV(cv_i64_f32, int64_t, float, x)
DEF_CV(cv_i32_f64, int32_t, double, x)

static inline int32_t f2i32(float x)
{
    if (x != x)
        return 0;
    if (x >= 2147483648.0f)
        return INT32_MAX;
    if (x <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)x;
}
DEF_CV(cv_f32_i32, float, int32_t, f2i32(x))

/* ---- the generic loop ------------------------------------------------------ */

static inline uint64_t umask(int bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* value of an integer element: sign- or zero-extended */
static inline int64_t ld_int(emu_ek k, const void *p, int64_t i, bool sext)
{
    int bits = emu_ek_int_bits(k);
    uint64_t u = (uint64_t)emu_load_i64(k, p, i) & umask(bits);
    if (sext && bits < 64 && (u >> (bits - 1)) & 1)
        u |= ~umask(bits);
    return (int64_t)u;
}

/* float to integer as cvt.rzi: truncate, saturate, NaN -> 0 */
static int64_t sat_fp_to_int(double v, int bits, bool is_signed)
{
    if (v != v)
        return 0;
    int b = bits < 16 ? 16 : bits;
    v = trunc(v);
    if (is_signed) {
        double lo = -ldexp(1.0, b - 1), hi = ldexp(1.0, b - 1);
        if (v <= lo)
            return b >= 64 ? INT64_MIN : -(int64_t)(1ull << (b - 1));
        if (v >= hi)
            return b >= 64 ? INT64_MAX : (int64_t)((1ull << (b - 1)) - 1);
        return (int64_t)v;
    }
    double hi = ldexp(1.0, b);
    if (v <= 0)
        return 0;
    if (v >= hi)
        return (int64_t)umask(b);
    return (int64_t)(uint64_t)v;
}

/* a double (holding a value of the source float kind) to the destination
 * float kind, the way the GPU converts between those two kinds */
static void st_float(emu_ek src, emu_ek dst, void *p, int64_t i, double v, int rounding)
{
    switch (dst) {
    case EK_F64:
        ((double *)p)[i] = v;
        return;
    case EK_F32:
        ((float *)p)[i] = (float)v; /* f64 -> f32: cvt.rn.f32.f64 */
        return;
    case EK_F16:
        if (src == EK_F64)
            ((uint16_t *)p)[i] = (uint16_t)ct_float_encode_ex(
                v, CT_F16, rounding ? CT_RTZ : CT_RTNE, rounding != 0);
        else
            ((uint16_t *)p)[i] = rounding ? emu_f2h_rz((float)v) : emu_f2h((float)v);
        return;
    case EK_BF16:
        if (src == EK_F64)
            ((uint16_t *)p)[i] = (uint16_t)ct_float_encode_ex(
                v, CT_BF16, rounding ? CT_RTZ : CT_RTNE, rounding != 0);
        else
            ((uint16_t *)p)[i] = rounding ? emu_f2bf_rz((float)v) : emu_f2bf((float)v);
        return;
    default:
        if (emu_ek_is_fp8(dst)) {
            float f = (float)v;
            if (rounding == 1 && dst == EK_F8E5 && src == EK_F16) {
                /* f16 -> e5m2 rtz: the top byte */
                ((uint8_t *)p)[i] = (uint8_t)(emu_f2h_rz(f) >> 8);
                return;
            }
            ((uint8_t *)p)[i] = emu_f32_to_fp8(f, dst, rounding);
        }
        return;
    }
}

static int cv_generic(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    void *d = F->mem + I->d;
    const void *a = F->mem + I->a;
    emu_ek src = (emu_ek)I->ek2, dst = (emu_ek)I->ek;
    int mode = (int)I->x.i, rounding = (int)I->y.i;
    int dbits = emu_ek_int_bits(dst);
    for (int64_t i = 0; i < n; i++) {
        switch (mode) {
        case CV_SEXT:
        case CV_ZEXT:
        case CV_TRUNC:
            emu_store_i64(dst, d, i, ld_int(src, a, i, mode == CV_SEXT));
            break;
        case CV_SITOFP:
        case CV_UITOFP: {
            int64_t v = ld_int(src, a, i, mode == CV_SITOFP);
            double dv;
            if (dst == EK_F32) {
                float f = mode == CV_SITOFP ? (float)v : (float)(uint64_t)v;
                dv = f;
            } else {
                dv = mode == CV_SITOFP ? (double)v : (double)(uint64_t)v;
            }
            st_float(EK_F64, dst, d, i, dv, 0);
            break;
        }
        case CV_FPTOSI:
        case CV_FPTOUI:
            emu_store_i64(dst, d, i,
                          sat_fp_to_int(emu_load_f64(src, a, i), dbits, mode == CV_FPTOSI));
            break;
        case CV_FF:
            st_float(src, dst, d, i, emu_load_f64(src, a, i), rounding);
            break;
        }
    }
    return EMU_NEXT;
}

emu_fn emu_cast_fn(ct_opcode code, emu_ek src, emu_ek dst, int rounding)
{
    bool si = emu_ek_int_bits(src) > 0 && src != EK_PTR, di = emu_ek_int_bits(dst) > 0 && dst != EK_PTR;
    bool sf = emu_ek_is_float(src), df = emu_ek_is_float(dst);
    switch (code) {
    case CT_OP_ARITH_EXTSI:
    case CT_OP_ARITH_INDEX_CAST:
        if (!si || !di)
            return NULL;
        if (src == EK_I32 && dst == EK_I64)
            return cv_i32_i64;
        if (src == EK_I64 && dst == EK_I32)
            return cv_i64_i32;
        return cv_generic;
    case CT_OP_ARITH_EXTUI:
        if (!si || !di)
            return NULL;
        if (src == EK_I32 && dst == EK_I64)
            return cv_u32_i64;
        if (src == EK_I1 && dst == EK_I32)
            return cv_i1_i32;
        if (src == EK_I1 && dst == EK_I8)
            return cv_i1_i8;
        return cv_generic;
    case CT_OP_ARITH_TRUNCI:
        if (!si || !di)
            return NULL;
        if (src == EK_I64 && dst == EK_I32)
            return cv_i64_i32;
        return cv_generic;
    case CT_OP_ARITH_SITOFP:
        if (!si || !df)
            return NULL;
        if (src == EK_I32 && dst == EK_F32)
            return cv_i32_f32;
        if (src == EK_I64 && dst == EK_F32)
            return cv_i64_f32;
        if (src == EK_I32 && dst == EK_F64)
            return cv_i32_f64;
        return cv_generic;
    case CT_OP_ARITH_UITOFP:
        if (!si || !df)
            return NULL;
        if (src == EK_I32 && dst == EK_F32)
            return cv_u32_f32;
        return cv_generic;
    case CT_OP_ARITH_FPTOSI:
        if (!sf || !di)
            return NULL;
        if (src == EK_F32 && dst == EK_I32)
            return cv_f32_i32;
        return cv_generic;
    case CT_OP_ARITH_FPTOUI:
        if (!sf || !di)
            return NULL;
        return cv_generic;
    case CT_OP_ARITH_EXTF:
    case CT_OP_ARITH_TRUNCF:
    case CT_OP_TT_FP_TO_FP:
        if (!sf || !df)
            return NULL;
        if (src == EK_F16 && dst == EK_F32)
            return cv_f16_f32;
        if (src == EK_BF16 && dst == EK_F32)
            return cv_bf16_f32;
        if (src == EK_F32 && dst == EK_F16)
            return rounding ? cv_f32_f16_rz : cv_f32_f16;
        if (src == EK_F32 && dst == EK_BF16)
            return rounding ? cv_f32_bf16_rz : cv_f32_bf16;
        /* cvt.satfinite to fp8 (f32 -> e5m2 toward zero goes through f16: cv_generic) */
        if (src == EK_F32 && dst == EK_F8E4NV)
            return rounding ? cv_f32_e4m3_rz : cv_f32_e4m3;
        if (src == EK_F32 && dst == EK_F8E5 && !rounding)
            return cv_f32_e5m2;
        if (src == EK_F32 && dst == EK_F64)
            return cv_f32_f64;
        if (src == EK_F64 && dst == EK_F32)
            return cv_f64_f32;
        return cv_generic;
    default:
        return NULL;
    }
}

/* The generic loop needs its mode: compile.c asks for it here. */
int emu_cast_mode(ct_opcode code)
{
    switch (code) {
    case CT_OP_ARITH_EXTSI:
    case CT_OP_ARITH_INDEX_CAST:
        return CV_SEXT;
    case CT_OP_ARITH_EXTUI:
        return CV_ZEXT;
    case CT_OP_ARITH_TRUNCI:
        return CV_TRUNC;
    case CT_OP_ARITH_SITOFP:
        return CV_SITOFP;
    case CT_OP_ARITH_UITOFP:
        return CV_UITOFP;
    case CT_OP_ARITH_FPTOSI:
        return CV_FPTOSI;
    case CT_OP_ARITH_FPTOUI:
        return CV_FPTOUI;
    default:
        return CV_FF;
    }
}
