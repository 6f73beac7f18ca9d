/*
 * elementwise.c - arith and math ops on whole tensors, one typed loop per
 * (op, element kind), chosen at compile time by emu_arith_fn / emu_math_fn.
 *
 * Semantics are those of the PTX the NVIDIA backend of Triton 3.6 emits:
 *  - integers wrap; division by zero gives all ones (quotient) and the
 *    dividend (remainder), INT_MIN / -1 gives INT_MIN, as the GPU's integer
 *    division sequence does; shift amounts >= the width give 0 (or the sign
 *    for arithmetic right shifts), as PTX clamps them;
 *  - float +, -, *, fma are IEEE round-to-nearest-even with subnormals; f16
 *    and bf16 are computed in f32 and rounded once, which is exact for these
 *    operations (24 >= 2 * 11 + 2); NaN results are the GPU's canonical NaN
 *    (0x7fffffff, 0x7fff), not the x86 default NaN;
 *  - arith.divf on f32, f16 and bf16 is div.full.f32 on the GPU (f16/bf16 converted to f32
 *    and back), modelled bit for bit (emu_div_full, mufu.c); f64 is IEEE division;
 *  - arith.remf is what NVPTX expands frem to: x - trunc(x / y) * y with
 *    div.rn and a fused multiply-add, x when y is infinite;
 *  - maxnumf/minnumf are max.f32/min.f32 (a NaN operand is ignored),
 *    maximumf/minimumf are max.NaN/min.NaN (a NaN operand wins); -0 < +0;
 *  - math ops: see math_fn below and docs/emulator.md for the ulp bounds.
 */
#include "emu_internal.h"

#include <math.h>

#define RESTRICT __restrict__

/* ---- integers ----------------------------------------------------------- */

#define INT_TYPES(X) X(8, int8_t, uint8_t) X(16, int16_t, uint16_t) X(32, int32_t, uint32_t) X(64, int64_t, uint64_t)

#define DEF_IBIN(NAME, W, S, U, EXPR)                                                          \
    EMU_CLONES static int NAME##_i##W(emu_frame *F, const emu_ins *I)                          \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        U *RESTRICT d = SLOT(F, I->d, U);                                                      \
        const U *a = SLOT(F, I->a, U), *b = SLOT(F, I->b, U);                                  \
        for (int64_t i = 0; i < n; i++) {                                                      \
            U x = a[i], y = b[i];                                                              \
            S sx = (S)x, sy = (S)y;                                                            \
            (void)sx;                                                                          \
            (void)sy;                                                                          \
            d[i] = (U)(EXPR);                                                                  \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }

#define SMIN(W) ((S)((U)1 << (W - 1)))

static inline uint64_t mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

#define INT_OPS(W, S, U)                                                                       \
    DEF_IBIN(addi, W, S, U, x + y)                                                             \
    DEF_IBIN(subi, W, S, U, x - y)                                                             \
    DEF_IBIN(muli, W, S, U, (uint64_t)x * (uint64_t)y)                                         \
    DEF_IBIN(divsi, W, S, U, sy == 0 ? (S)-1 : (sy == -1 ? (S)(0 - x) : (S)(sx / sy)))          \
    DEF_IBIN(divui, W, S, U, y == 0 ? (U)~(U)0 : (U)(x / y))                                   \
    DEF_IBIN(remsi, W, S, U, sy == 0 ? sx : (sy == -1 ? 0 : (S)(sx % sy)))                     \
    DEF_IBIN(remui, W, S, U, y == 0 ? x : (U)(x % y))                                          \
    DEF_IBIN(ceildivsi, W, S, U, ceildiv_##W(sx, sy))                                          \
    DEF_IBIN(floordivsi, W, S, U, floordiv_##W(sx, sy))                                        \
    DEF_IBIN(andi, W, S, U, x &y)                                                              \
    DEF_IBIN(ori, W, S, U, x | y)                                                              \
    DEF_IBIN(xori, W, S, U, x ^ y)                                                             \
    DEF_IBIN(shli, W, S, U, (uint64_t)y >= W ? 0 : (U)((uint64_t)x << y))                      \
    DEF_IBIN(shrui, W, S, U, (uint64_t)y >= W ? 0 : (U)(x >> y))                               \
    DEF_IBIN(shrsi, W, S, U, (uint64_t)y >= W ? (sx < 0 ? (S)-1 : 0) : (S)(sx >> y))           \
    DEF_IBIN(maxsi, W, S, U, sx > sy ? x : y)                                                  \
    DEF_IBIN(minsi, W, S, U, sx < sy ? x : y)                                                  \
    DEF_IBIN(maxui, W, S, U, x > y ? x : y)                                                    \
    DEF_IBIN(minui, W, S, U, x < y ? x : y)                                                    \
    DEF_IBIN(mulhiui, W, S, U, mulhi_##W(x, y))

#define DIVHELP(W, S, U)                                                                       \
    static inline S ceildiv_##W(S x, S y)                                                      \
    {                                                                                          \
        if (y == 0)                                                                            \
            return (S)-1;                                                                      \
        if (y == -1)                                                                           \
            return (S)(0 - (U)x);                                                              \
        S q = (S)(x / y);                                                                      \
        if (x % y != 0 && ((x < 0) == (y < 0)))                                                \
            q++;                                                                               \
        return q;                                                                              \
    }                                                                                          \
    static inline S floordiv_##W(S x, S y)                                                     \
    {                                                                                          \
        if (y == 0)                                                                            \
            return (S)-1;                                                                      \
        if (y == -1)                                                                           \
            return (S)(0 - (U)x);                                                              \
        S q = (S)(x / y);                                                                      \
        if (x % y != 0 && ((x < 0) != (y < 0)))                                                \
            q--;                                                                               \
        return q;                                                                              \
    }
INT_TYPES(DIVHELP)

static inline uint8_t mulhi_8(uint8_t a, uint8_t b) { return (uint8_t)(((uint32_t)a * b) >> 8); }
static inline uint16_t mulhi_16(uint16_t a, uint16_t b) { return (uint16_t)(((uint32_t)a * b) >> 16); }
static inline uint32_t mulhi_32(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static inline uint64_t mulhi_64(uint64_t a, uint64_t b) { return mulhi64(a, b); }

INT_TYPES(INT_OPS)

/* i1: booleans stored as 0/1; as signed integers they are 0 and -1. */
#define DEF_BBIN(NAME, EXPR)                                                                   \
    EMU_CLONES static int NAME##_i1(emu_frame *F, const emu_ins *I)                            \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        uint8_t *RESTRICT d = SLOT(F, I->d, uint8_t);                                          \
        const uint8_t *a = SLOT(F, I->a, uint8_t), *b = SLOT(F, I->b, uint8_t);                \
        for (int64_t i = 0; i < n; i++) {                                                      \
            uint8_t x = a[i] & 1, y = b[i] & 1;                                                \
            (void)y;                                                                           \
            d[i] = (uint8_t)((EXPR) & 1);                                                      \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }
DEF_BBIN(andi, x &y)
DEF_BBIN(ori, x | y)
DEF_BBIN(xori, x ^ y)
DEF_BBIN(addi, x ^ y)
DEF_BBIN(subi, x ^ y)
DEF_BBIN(muli, x &y)
DEF_BBIN(maxsi, x &y) /* max(-1, 0) = 0 */
DEF_BBIN(minsi, x | y)
DEF_BBIN(maxui, x | y)
DEF_BBIN(minui, x &y)
DEF_BBIN(shli, y ? 0 : x)
DEF_BBIN(shrui, y ? 0 : x)
DEF_BBIN(shrsi, x)

#define PICK_INT(NAME)                                                                         \
    switch (ek) {                                                                              \
    case EK_I8:                                                                                \
        return NAME##_i8;                                                                      \
    case EK_I16:                                                                               \
        return NAME##_i16;                                                                     \
    case EK_I32:                                                                               \
        return NAME##_i32;                                                                     \
    case EK_I64:                                                                               \
        return NAME##_i64;                                                                     \
    default:                                                                                   \
        return NULL;                                                                           \
    }

#define PICK_INT1(NAME)                                                                        \
    if (ek == EK_I1)                                                                           \
        return NAME##_i1;                                                                      \
    PICK_INT(NAME)

/* ---- integer compares ----------------------------------------------------- */

#define DEF_ICMP(PNAME, W, S, U, EXPR)                                                         \
    EMU_CLONES static int cmpi_##PNAME##_i##W(emu_frame *F, const emu_ins *I)                  \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        uint8_t *RESTRICT d = SLOT(F, I->d, uint8_t);                                          \
        const U *a = SLOT(F, I->a, U), *b = SLOT(F, I->b, U);                                  \
        for (int64_t i = 0; i < n; i++) {                                                      \
            U x = a[i], y = b[i];                                                              \
            S sx = (S)x, sy = (S)y;                                                            \
            (void)sx;                                                                          \
            (void)sy;                                                                          \
            d[i] = (uint8_t)(EXPR);                                                            \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }

#define ICMPS(W, S, U)                                                                         \
    DEF_ICMP(eq, W, S, U, x == y)                                                              \
    DEF_ICMP(ne, W, S, U, x != y)                                                              \
    DEF_ICMP(slt, W, S, U, sx < sy)                                                            \
    DEF_ICMP(sle, W, S, U, sx <= sy)                                                           \
    DEF_ICMP(sgt, W, S, U, sx > sy)                                                            \
    DEF_ICMP(sge, W, S, U, sx >= sy)                                                           \
    DEF_ICMP(ult, W, S, U, x < y)                                                              \
    DEF_ICMP(ule, W, S, U, x <= y)                                                             \
    DEF_ICMP(ugt, W, S, U, x > y)                                                              \
    DEF_ICMP(uge, W, S, U, x >= y)
INT_TYPES(ICMPS)
/* i1 as signed: true is -1, so signed order is reversed */
#define ICMP1(PNAME, EXPR)                                                                     \
    EMU_CLONES static int cmpi_##PNAME##_i1(emu_frame *F, const emu_ins *I)                    \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        uint8_t *RESTRICT d = SLOT(F, I->d, uint8_t);                                          \
        const uint8_t *a = SLOT(F, I->a, uint8_t), *b = SLOT(F, I->b, uint8_t);                \
        for (int64_t i = 0; i < n; i++) {                                                      \
            int x = a[i] & 1, y = b[i] & 1;                                                    \
            int sx = -x, sy = -y;                                                              \
            (void)sx;                                                                          \
            (void)sy;                                                                          \
            d[i] = (uint8_t)(EXPR);                                                            \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }
ICMP1(eq, x == y)
ICMP1(ne, x != y)
ICMP1(slt, sx < sy)
ICMP1(sle, sx <= sy)
ICMP1(sgt, sx > sy)
ICMP1(sge, sx >= sy)
ICMP1(ult, x < y)
ICMP1(ule, x <= y)
ICMP1(ugt, x > y)
ICMP1(uge, x >= y)

static emu_fn cmpi_fn(emu_ek ek, int pred)
{
#define CASE(P, NAME)                                                                          \
    case P:                                                                                    \
        PICK_INT1(cmpi_##NAME)
    switch (pred) {
        CASE(PI_EQ, eq)
        CASE(PI_NE, ne)
        CASE(PI_SLT, slt)
        CASE(PI_SLE, sle)
        CASE(PI_SGT, sgt)
        CASE(PI_SGE, sge)
        CASE(PI_ULT, ult)
        CASE(PI_ULE, ule)
        CASE(PI_UGT, ugt)
        CASE(PI_UGE, uge)
    }
#undef CASE
    return NULL;
}

/* ---- floats ------------------------------------------------------------------ */

/* canonical NaN of the GPU */
static inline float canon_f(float r)
{
    if (r != r) {
        uint32_t u = 0x7fffffffu;
        memcpy(&r, &u, 4);
    }
    return r;
}
static inline double canon_d(double r)
{
    if (r != r) {
        uint64_t u = 0x7fffffffffffffffull;
        memcpy(&r, &u, 8);
    }
    return r;
}

static inline float fmax_nv(float x, float y)
{
    if (x != x)
        return y != y ? canon_f(x) : y;
    if (y != y)
        return x;
    if (x == y)
        return signbit(x) ? y : x; /* -0 < +0 */
    return x > y ? x : y;
}
static inline float fmin_nv(float x, float y)
{
    if (x != x)
        return y != y ? canon_f(x) : y;
    if (y != y)
        return x;
    if (x == y)
        return signbit(x) ? x : y;
    return x < y ? x : y;
}
static inline float fmax_nan(float x, float y)
{
    if (x != x || y != y)
        return canon_f(NAN);
    return fmax_nv(x, y);
}
static inline float fmin_nan(float x, float y)
{
    if (x != x || y != y)
        return canon_f(NAN);
    return fmin_nv(x, y);
}
static inline double dmax_nv(double x, double y)
{
    if (x != x)
        return y != y ? canon_d(x) : y;
    if (y != y)
        return x;
    if (x == y)
        return signbit(x) ? y : x;
    return x > y ? x : y;
}
static inline double dmin_nv(double x, double y)
{
    if (x != x)
        return y != y ? canon_d(x) : y;
    if (y != y)
        return x;
    if (x == y)
        return signbit(x) ? x : y;
    return x < y ? x : y;
}
static inline double dmax_nan(double x, double y)
{
    return (x != x || y != y) ? canon_d(NAN) : dmax_nv(x, y);
}
static inline double dmin_nan(double x, double y)
{
    return (x != x || y != y) ? canon_d(NAN) : dmin_nv(x, y);
}

/* frem as NVPTX expands it: fma(-trunc(div.rn(x, y)), y, x), x if y is inf */
static inline float frem_nv(float x, float y)
{
    if (isinf(y))
        return x;
    return canon_f(fmaf(-truncf(x / y), y, x));
}
static inline double drem_nv(double x, double y)
{
    if (isinf(y))
        return x;
    return canon_d(fma(-trunc(x / y), y, x));
}

/* The storage of each float kind: element type, load to compute type, store. */
#define LD_F32(v) (v)
#define ST_F32(v) canon_f(v)
#define LD_F16(v) emu_h2f_calc(v)
#define ST_F16(v) emu_f2h(v)
#define LD_BF16(v) emu_bf2f(v)
#define ST_BF16(v) emu_f2bf(v)
#define LD_F64(v) (v)
#define ST_F64(v) canon_d(v)

#define DEF_FBIN(NAME, SFX, T, C, LD, ST, EXPR)                                                \
    EMU_CLONES static int NAME##_##SFX(emu_frame *F, const emu_ins *I)                         \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        T *RESTRICT d = SLOT(F, I->d, T);                                                      \
        const T *a = SLOT(F, I->a, T), *b = SLOT(F, I->b, T);                                  \
        for (int64_t i = 0; i < n; i++) {                                                      \
            C x = LD(a[i]), y = LD(b[i]);                                                      \
            d[i] = ST(EXPR);                                                                   \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }

#define FLOAT_OPS(SFX, T, C, LD, ST, MAXNV, MINNV, MAXNAN, MINNAN, REM)                        \
    DEF_FBIN(addf, SFX, T, C, LD, ST, x + y)                                                   \
    DEF_FBIN(subf, SFX, T, C, LD, ST, x - y)                                                   \
    DEF_FBIN(mulf, SFX, T, C, LD, ST, x *y)                                                    \
    DEF_FBIN(divrn, SFX, T, C, LD, ST, x / y)                                                  \
    DEF_FBIN(remf, SFX, T, C, LD, ST, REM(x, y))                                               \
    DEF_FBIN(maxnumf, SFX, T, C, LD, ST, MAXNV(x, y))                                          \
    DEF_FBIN(minnumf, SFX, T, C, LD, ST, MINNV(x, y))                                          \
    DEF_FBIN(maximumf, SFX, T, C, LD, ST, MAXNAN(x, y))                                        \
    DEF_FBIN(minimumf, SFX, T, C, LD, ST, MINNAN(x, y))

FLOAT_OPS(f32, float, float, LD_F32, ST_F32, fmax_nv, fmin_nv, fmax_nan, fmin_nan, frem_nv)
FLOAT_OPS(f16, uint16_t, float, LD_F16, ST_F16, fmax_nv, fmin_nv, fmax_nan, fmin_nan, frem_nv)
FLOAT_OPS(bf16, uint16_t, float, LD_BF16, ST_BF16, fmax_nv, fmin_nv, fmax_nan, fmin_nan, frem_nv)
FLOAT_OPS(f64, double, double, LD_F64, ST_F64, dmax_nv, dmin_nv, dmax_nan, dmin_nan, drem_nv)

/* arith.divf: div.full.f32 (f16 and bf16 through f32), IEEE for f64 */
static int divf_f32(emu_frame *F, const emu_ins *I)
{
    emu_div_full_array(SLOT(F, I->d, float), SLOT(F, I->a, float), SLOT(F, I->b, float), NE(F, I), false);
    return EMU_NEXT;
}
DEF_FBIN(divf, f16, uint16_t, float, LD_F16, ST_F16, emu_div_full(x, y))
DEF_FBIN(divf, bf16, uint16_t, float, LD_BF16, ST_BF16, emu_div_full(x, y))
DEF_FBIN(divf, f64, double, double, LD_F64, ST_F64, x / y)
/* ... by a divisor that is a constant (the same in every lane): ptxas's folding */
DEF_FBIN(divk, f32, float, float, LD_F32, ST_F32, emu_div_full_const(x, y))
DEF_FBIN(divk, f16, uint16_t, float, LD_F16, ST_F16, emu_div_full_const(x, y))
DEF_FBIN(divk, bf16, uint16_t, float, LD_BF16, ST_BF16, emu_div_full_const(x, y))

emu_fn emu_divk_fn(emu_ek ek)
{
    return ek == EK_F32 ? divk_f32 : ek == EK_F16 ? divk_f16 : ek == EK_BF16 ? divk_bf16 : NULL;
}

#define PICK_FLOAT(NAME)                                                                       \
    switch (ek) {                                                                              \
    case EK_F32:                                                                               \
        return NAME##_f32;                                                                     \
    case EK_F16:                                                                               \
        return NAME##_f16;                                                                     \
    case EK_BF16:                                                                              \
        return NAME##_bf16;                                                                    \
    case EK_F64:                                                                               \
        return NAME##_f64;                                                                     \
    default:                                                                                   \
        return NULL;                                                                           \
    }

/* fused multiply-add forms: 0 a*b+c, 1 a*b-c, 2 c-a*b; and math.fma */
#define DEF_FMA(FORM, SFX, T, C, LD, ST, FMA, EXPR)                                            \
    EMU_CLONES static int fma##FORM##_##SFX(emu_frame *F, const emu_ins *I)                    \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        T *RESTRICT d = SLOT(F, I->d, T);                                                      \
        const T *a = SLOT(F, I->a, T), *b = SLOT(F, I->b, T), *c = SLOT(F, I->c, T);           \
        for (int64_t i = 0; i < n; i++) {                                                      \
            C x = LD(a[i]), y = LD(b[i]), z = LD(c[i]);                                        \
            d[i] = ST(EXPR);                                                                   \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }

/* f16/bf16 fma: the product of two f16 is exact in f32, the sum is formed in
 * double (exact up to a final rounding) and rounded to f16 */
static inline float fma16(float x, float y, float z)
{
    return (float)fma((double)x, (double)y, (double)z);
}

#define FMA_OPS(SFX, T, C, LD, ST, FMA)                                                        \
    DEF_FMA(0, SFX, T, C, LD, ST, FMA, FMA(x, y, z))                                           \
    DEF_FMA(1, SFX, T, C, LD, ST, FMA, FMA(x, y, -z))                                          \
    DEF_FMA(2, SFX, T, C, LD, ST, FMA, FMA(-x, y, z))

FMA_OPS(f32, float, float, LD_F32, ST_F32, fmaf)
FMA_OPS(f64, double, double, LD_F64, ST_F64, fma)
FMA_OPS(f16, uint16_t, float, LD_F16, ST_F16, fma16)
FMA_OPS(bf16, uint16_t, float, LD_BF16, ST_BF16, fma16)

/* an f32 arith.divf contracted by ptxas into the add/sub that uses it: FN is emu_div_full_fma,
 * or emu_div_full_const_fma for a divisor ptxas folds into a multiply by its reciprocal */
#define DEF_DIVFMA(NAME, FN, FORM)                                                             \
    static int NAME##FORM##_f32(emu_frame *F, const emu_ins *I)                                \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        float *RESTRICT d = SLOT(F, I->d, float);                                              \
        const float *a = SLOT(F, I->a, float), *b = SLOT(F, I->b, float);                      \
        const float *c = SLOT(F, I->c, float);                                                 \
        for (int64_t i = 0; i < n; i++)                                                        \
            d[i] = FN(a[i], b[i], c[i], FORM);                                                 \
        return EMU_NEXT;                                                                       \
    }
DEF_DIVFMA(divfma, emu_div_full_fma, 0)
DEF_DIVFMA(divfma, emu_div_full_fma, 1)
DEF_DIVFMA(divfma, emu_div_full_fma, 2)
DEF_DIVFMA(divkfma, emu_div_full_const_fma, 0)
DEF_DIVFMA(divkfma, emu_div_full_const_fma, 1)
DEF_DIVFMA(divkfma, emu_div_full_const_fma, 2)

emu_fn emu_divfma_fn(int form, bool const_divisor)
{
    if (const_divisor)
        return form == 0 ? divkfma0_f32 : form == 1 ? divkfma1_f32 : divkfma2_f32;
    return form == 0 ? divfma0_f32 : form == 1 ? divfma1_f32 : divfma2_f32;
}

emu_fn emu_fma_fn(emu_ek ek, int form)
{
    switch (form) {
    case 0:
        PICK_FLOAT(fma0)
    case 1:
        PICK_FLOAT(fma1)
    case 2:
        PICK_FLOAT(fma2)
    }
    return NULL;
}

/* ---- float compares --------------------------------------------------------- */

#define DEF_FCMP(PNAME, SFX, T, C, LD, EXPR)                                                   \
    EMU_CLONES static int cmpf_##PNAME##_##SFX(emu_frame *F, const emu_ins *I)                 \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        uint8_t *RESTRICT d = SLOT(F, I->d, uint8_t);                                          \
        const T *a = SLOT(F, I->a, T), *b = SLOT(F, I->b, T);                                  \
        for (int64_t i = 0; i < n; i++) {                                                      \
            C x = LD(a[i]), y = LD(b[i]);                                                      \
            bool un = x != x || y != y;                                                        \
            (void)un;                                                                          \
            d[i] = (uint8_t)(EXPR);                                                            \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }

#define FCMPS(SFX, T, C, LD)                                                                   \
    DEF_FCMP(false, SFX, T, C, LD, 0)                                                          \
    DEF_FCMP(oeq, SFX, T, C, LD, x == y)                                                       \
    DEF_FCMP(ogt, SFX, T, C, LD, x > y)                                                        \
    DEF_FCMP(oge, SFX, T, C, LD, x >= y)                                                       \
    DEF_FCMP(olt, SFX, T, C, LD, x < y)                                                        \
    DEF_FCMP(ole, SFX, T, C, LD, x <= y)                                                       \
    DEF_FCMP(one, SFX, T, C, LD, !un && x != y)                                                \
    DEF_FCMP(ord, SFX, T, C, LD, !un)                                                          \
    DEF_FCMP(ueq, SFX, T, C, LD, un || x == y)                                                 \
    DEF_FCMP(ugt, SFX, T, C, LD, un || x > y)                                                  \
    DEF_FCMP(uge, SFX, T, C, LD, un || x >= y)                                                 \
    DEF_FCMP(ult, SFX, T, C, LD, un || x < y)                                                  \
    DEF_FCMP(ule, SFX, T, C, LD, un || x <= y)                                                 \
    DEF_FCMP(une, SFX, T, C, LD, x != y)                                                       \
    DEF_FCMP(uno, SFX, T, C, LD, un)                                                           \
    DEF_FCMP(true, SFX, T, C, LD, 1)

FCMPS(f32, float, float, LD_F32)
FCMPS(f16, uint16_t, float, LD_F16)
FCMPS(bf16, uint16_t, float, LD_BF16)
FCMPS(f64, double, double, LD_F64)

static emu_fn cmpf_fn(emu_ek ek, int pred)
{
#define CASE(P, NAME)                                                                          \
    case P:                                                                                    \
        PICK_FLOAT(cmpf_##NAME)
    switch (pred) {
        CASE(PF_FALSE, false)
        CASE(PF_OEQ, oeq)
        CASE(PF_OGT, ogt)
        CASE(PF_OGE, oge)
        CASE(PF_OLT, olt)
        CASE(PF_OLE, ole)
        CASE(PF_ONE, one)
        CASE(PF_ORD, ord)
        CASE(PF_UEQ, ueq)
        CASE(PF_UGT, ugt)
        CASE(PF_UGE, uge)
        CASE(PF_ULT, ult)
        CASE(PF_ULE, ule)
        CASE(PF_UNE, une)
        CASE(PF_UNO, uno)
        CASE(PF_TRUE, true)
    }
#undef CASE
    return NULL;
}

emu_fn emu_arith_fn(ct_opcode code, emu_ek ek, int pred)
{
    switch (code) {
    case CT_OP_ARITH_ADDI:
        PICK_INT1(addi)
    case CT_OP_ARITH_SUBI:
        PICK_INT1(subi)
    case CT_OP_ARITH_MULI:
        PICK_INT1(muli)
    case CT_OP_ARITH_DIVSI:
        PICK_INT(divsi)
    case CT_OP_ARITH_DIVUI:
        PICK_INT(divui)
    case CT_OP_ARITH_CEILDIVSI:
        PICK_INT(ceildivsi)
    case CT_OP_ARITH_FLOORDIVSI:
        PICK_INT(floordivsi)
    case CT_OP_ARITH_REMSI:
        PICK_INT(remsi)
    case CT_OP_ARITH_REMUI:
        PICK_INT(remui)
    case CT_OP_ARITH_ANDI:
        PICK_INT1(andi)
    case CT_OP_ARITH_ORI:
        PICK_INT1(ori)
    case CT_OP_ARITH_XORI:
        PICK_INT1(xori)
    case CT_OP_ARITH_SHLI:
        PICK_INT1(shli)
    case CT_OP_ARITH_SHRSI:
        PICK_INT1(shrsi)
    case CT_OP_ARITH_SHRUI:
        PICK_INT1(shrui)
    case CT_OP_ARITH_MAXSI:
        PICK_INT1(maxsi)
    case CT_OP_ARITH_MAXUI:
        PICK_INT1(maxui)
    case CT_OP_ARITH_MINSI:
        PICK_INT1(minsi)
    case CT_OP_ARITH_MINUI:
        PICK_INT1(minui)
    case CT_OP_TT_MULHIUI:
        PICK_INT(mulhiui)
    case CT_OP_ARITH_ADDF:
        PICK_FLOAT(addf)
    case CT_OP_ARITH_SUBF:
        PICK_FLOAT(subf)
    case CT_OP_ARITH_MULF:
        PICK_FLOAT(mulf)
    case CT_OP_ARITH_DIVF:
        PICK_FLOAT(divf)
    case CT_OP_TT_PRECISE_DIVF: /* div.rn: IEEE */
        PICK_FLOAT(divrn)
    case CT_OP_ARITH_REMF:
        PICK_FLOAT(remf)
    case CT_OP_ARITH_MAXNUMF:
        PICK_FLOAT(maxnumf)
    case CT_OP_ARITH_MINNUMF:
        PICK_FLOAT(minnumf)
    case CT_OP_ARITH_MAXIMUMF:
        PICK_FLOAT(maximumf)
    case CT_OP_ARITH_MINIMUMF:
        PICK_FLOAT(minimumf)
    case CT_OP_ARITH_CMPI:
        return cmpi_fn(ek, pred);
    case CT_OP_ARITH_CMPF:
        return cmpf_fn(ek, pred);
    default:
        return NULL;
    }
}

/* ---- unary and ternary math ------------------------------------------------- */

#define DEF_FUN(NAME, SFX, T, C, LD, ST, EXPR)                                                 \
    static int NAME##_##SFX(emu_frame *F, const emu_ins *I)                                    \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        T *RESTRICT d = SLOT(F, I->d, T);                                                      \
        const T *a = SLOT(F, I->a, T);                                                         \
        for (int64_t i = 0; i < n; i++) {                                                      \
            C x = LD(a[i]);                                                                    \
            d[i] = ST(EXPR);                                                                   \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }

/* Models of the approximate GPU instructions (see docs/emulator.md):
 *   sqrt.approx.ftz.f32, rsqrt.approx.ftz.f32: MUFU.SQRT and MUFU.RSQ, bit for bit (mufu.c);
 *   ex2.approx.ftz.f32 (exp2 with flushed input and output) and ex2.approx.f32 (math.exp after
 *   the f32 multiply by log2(e)): correctly rounded (emu_exp2f, emu_internal.h). */
static inline float sqrt_ftz(float x)
{
    return emu_mufu_sqrt(x);
}
static inline float rsqrt_ftz(float x)
{
    return emu_mufu_rsq(x);
}

#define MATH_F32(NAME, EXPR) DEF_FUN(NAME, f32, float, float, LD_F32, ST_F32, EXPR)
#define MATH_F16(NAME, EXPR) DEF_FUN(NAME, f16, uint16_t, float, LD_F16, ST_F16, EXPR)
#define MATH_BF16(NAME, EXPR) DEF_FUN(NAME, bf16, uint16_t, float, LD_BF16, ST_BF16, EXPR)
#define MATH_F64(NAME, EXPR) DEF_FUN(NAME, f64, double, double, LD_F64, ST_F64, EXPR)
#define MATH_ALL(NAME, FEXPR, DEXPR)                                                           \
    MATH_F32(NAME, FEXPR) MATH_F16(NAME, FEXPR) MATH_BF16(NAME, FEXPR) MATH_F64(NAME, DEXPR)

MATH_ALL(negf, -x, -x)
MATH_ALL(absf, fabsf(x), fabs(x))
MATH_ALL(floor, floorf(x), floor(x))
MATH_ALL(ceil, ceilf(x), ceil(x))
MATH_ALL(sqrt, sqrt_ftz(x), sqrt(x))
MATH_ALL(precise_sqrt, sqrtf(x), sqrt(x))
MATH_ALL(rsqrt, rsqrt_ftz(x), 1.0 / sqrt(x))
MATH_F16(exp, emu_exp_nv(x)) MATH_BF16(exp, emu_exp_nv(x)) MATH_F64(exp, exp(x))
MATH_F16(exp2, emu_ex2_ftz(x)) MATH_BF16(exp2, emu_ex2_ftz(x)) MATH_F64(exp2, exp2(x))
/* f32: exp2.c's array function (vectorized) */
static int exp_f32(emu_frame *F, const emu_ins *I)
{
    emu_exp2_f32_array(SLOT(F, I->d, float), SLOT(F, I->a, float), NE(F, I), true, false);
    return EMU_NEXT;
}
static int exp2_f32(emu_frame *F, const emu_ins *I)
{
    emu_exp2_f32_array(SLOT(F, I->d, float), SLOT(F, I->a, float), NE(F, I), false, false);
    return EMU_NEXT;
}
MATH_ALL(log, emu_logf_nv(x), log(x))
MATH_ALL(log2, emu_log2f_nv(x), log2(x))
MATH_ALL(sin, emu_sinf_nv(x), sin(x))
MATH_ALL(cos, emu_cosf_nv(x), cos(x))
MATH_ALL(erf, emu_erff_nv(x), erf(x))
MATH_ALL(tanh, emu_tanhf_nv(x), tanh(x))

#define DEF_IUN(NAME, W, S, U, EXPR)                                                           \
    static int NAME##_i##W(emu_frame *F, const emu_ins *I)                                     \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        U *RESTRICT d = SLOT(F, I->d, U);                                                      \
        const U *a = SLOT(F, I->a, U);                                                         \
        for (int64_t i = 0; i < n; i++) {                                                      \
            U x = a[i];                                                                        \
            S sx = (S)x;                                                                       \
            d[i] = (U)(EXPR);                                                                  \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }
#define ABSI(W, S, U) DEF_IUN(absi, W, S, U, sx < 0 ? (U)(0 - x) : x)
INT_TYPES(ABSI)

/* math.absf on the fp8 types: the GPU keeps fp8 as i8 and clears the sign bit
 * (Triton's AbsFOp lowering), for every fp8 format alike */
static int absf_f8(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    uint8_t *RESTRICT d = SLOT(F, I->d, uint8_t);
    const uint8_t *a = SLOT(F, I->a, uint8_t);
    for (int64_t i = 0; i < n; i++)
        d[i] = (uint8_t)(a[i] & 0x7f);
    return EMU_NEXT;
}

DEF_FMA(3, f32, float, float, LD_F32, ST_F32, fmaf, fmaf(x, y, z))
DEF_FMA(3, f64, double, double, LD_F64, ST_F64, fma, fma(x, y, z))
DEF_FMA(3, f16, uint16_t, float, LD_F16, ST_F16, fma16, fma16(x, y, z))
DEF_FMA(3, bf16, uint16_t, float, LD_BF16, ST_BF16, fma16, fma16(x, y, z))

/* tt.clampf(x, lo, hi): min(max(x, lo), hi) with max/min or max.NaN/min.NaN */
#define DEF_CLAMP(NAME, SFX, T, C, LD, ST, MAX, MIN)                                           \
    EMU_CLONES static int NAME##_##SFX(emu_frame *F, const emu_ins *I)                         \
    {                                                                                          \
        int64_t n = NE(F, I);                                                                  \
        T *RESTRICT d = SLOT(F, I->d, T);                                                      \
        const T *a = SLOT(F, I->a, T), *b = SLOT(F, I->b, T), *c = SLOT(F, I->c, T);           \
        for (int64_t i = 0; i < n; i++) {                                                      \
            C x = LD(a[i]), lo = LD(b[i]), hi = LD(c[i]);                                      \
            d[i] = ST(MIN(MAX(x, lo), hi));                                                    \
        }                                                                                      \
        return EMU_NEXT;                                                                       \
    }
DEF_CLAMP(clamp, f32, float, float, LD_F32, ST_F32, fmax_nv, fmin_nv)
DEF_CLAMP(clamp, f16, uint16_t, float, LD_F16, ST_F16, fmax_nv, fmin_nv)
DEF_CLAMP(clamp, bf16, uint16_t, float, LD_BF16, ST_BF16, fmax_nv, fmin_nv)
DEF_CLAMP(clamp, f64, double, double, LD_F64, ST_F64, dmax_nv, dmin_nv)
DEF_CLAMP(clampnan, f32, float, float, LD_F32, ST_F32, fmax_nan, fmin_nan)
DEF_CLAMP(clampnan, f16, uint16_t, float, LD_F16, ST_F16, fmax_nan, fmin_nan)
DEF_CLAMP(clampnan, bf16, uint16_t, float, LD_BF16, ST_BF16, fmax_nan, fmin_nan)
DEF_CLAMP(clampnan, f64, double, double, LD_F64, ST_F64, dmax_nan, dmin_nan)

/* tt.elementwise_inline_asm: the emulator runs no PTX, but it knows the few pieces of inline
 * PTX Triton's own frontend emits.  Each is recognized by an FNV-1a hash of its text with the
 * white space removed (the same in Triton 3.6 to 3.9), its constraints and packing, and run as
 * the C function computing the same bits:
 *   fp8e4b15 -> fp16 (triton.language.extra.cuda's upcast of a deprecated dot operand on sm_90:
 *   "=r,=r,r", 4 packed): fp16 bits = sign << 15 | (exponent, mantissa) << 7, exact (the bias
 *   is 15 in both; 0x7f and 0xff are +-1.75, not NaN). */
static int asm_fp8e4b15_to_f16(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    uint16_t *RESTRICT d = SLOT(F, I->d, uint16_t);
    const uint8_t *a = SLOT(F, I->a, uint8_t);
    for (int64_t i = 0; i < n; i++)
        d[i] = (uint16_t)((a[i] & 0x80u) << 8 | (a[i] & 0x7fu) << 7);
    return EMU_NEXT;
}

static uint64_t asm_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            continue;
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}

emu_fn emu_inline_asm_fn(const char *asm_, const char *constraints, int packed, emu_ek in, emu_ek out)
{
    if (!asm_ || !constraints)
        return NULL;
    if (asm_hash(asm_) == 0x14a32c5322cc8aacull && !strcmp(constraints, "=r,=r,r") && packed == 4 &&
        (in == EK_F8E4B15 || in == EK_I8) && out == EK_F16)
        return asm_fp8e4b15_to_f16;
    return NULL;
}

emu_fn emu_math_fn(ct_opcode code, emu_ek ek)
{
    switch (code) {
    case CT_OP_ARITH_NEGF:
        PICK_FLOAT(negf)
    case CT_OP_MATH_ABSF:
        if (ek >= EK_F8E4NV && ek <= EK_F8E4B15)
            return absf_f8;
        PICK_FLOAT(absf)
    case CT_OP_MATH_ABSI:
        PICK_INT(absi)
    case CT_OP_MATH_FLOOR:
        PICK_FLOAT(floor)
    case CT_OP_MATH_CEIL:
        PICK_FLOAT(ceil)
    case CT_OP_MATH_SQRT:
        PICK_FLOAT(sqrt)
    case CT_OP_TT_PRECISE_SQRT:
        PICK_FLOAT(precise_sqrt)
    case CT_OP_MATH_RSQRT:
        PICK_FLOAT(rsqrt)
    case CT_OP_MATH_EXP:
        PICK_FLOAT(exp)
    case CT_OP_MATH_EXP2:
        PICK_FLOAT(exp2)
    case CT_OP_MATH_LOG:
        PICK_FLOAT(log)
    case CT_OP_MATH_LOG2:
        PICK_FLOAT(log2)
    case CT_OP_MATH_SIN:
        PICK_FLOAT(sin)
    case CT_OP_MATH_COS:
        PICK_FLOAT(cos)
    case CT_OP_MATH_ERF:
        PICK_FLOAT(erf)
    case CT_OP_MATH_TANH:
        PICK_FLOAT(tanh)
    case CT_OP_MATH_FMA:
        PICK_FLOAT(fma3)
    case CT_OP_TT_CLAMPF:
        PICK_FLOAT(clamp)
    default:
        return NULL;
    }
}

/* clampf with propagateNan = all */
emu_fn emu_clampnan_fn(emu_ek ek)
{
    PICK_FLOAT(clampnan)
}
