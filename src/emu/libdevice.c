/*
 * libdevice.c - tt.extern_elementwise calls of CUDA's libdevice (__nv_*),
 * as triton.language.extra.libdevice emits them.
 *
 * Exact: the integer functions (clz, popc, brev, mulhi, byte_perm, sad,
 * hadd, ...), bit casts, predicates, IEEE operations with an explicit
 * rounding mode (__nv_fadd_rz, __nv_fsqrt_rn, __nv_fmaf_rd, conversions
 * like __nv_float2int_rn), floor/ceil/trunc/round/rint, fabs, copysign,
 * fmod, fdim, ldexp, nextafter.  Bit-exact ports (mathfn.c, equal to the GPU
 * on every input of the unary ones: scripts/gpu/libdevice_check.py): __nv_logf, __nv_log2f,
 * __nv_sinf, __nv_cosf, __nv_erff, __nv_tanhf, __nv_asinf, __nv_powf,
 * __nv_powif; the MUFU models (mufu.c) for __nv_exp2f, __nv_sqrtf, __nv_rsqrtf
 * and the fast_ functions but fast_sinf/cosf/tanf.  The remaining
 * transcendental functions (f32 and f64) use the C library,
 * which is correctly rounded or within 1 ulp; libdevice's own error bounds
 * (CUDA Programming Guide, "Mathematical Functions") then bound the
 * difference from the GPU (e.g. expf 2 ulp, powf 4 ulp, tgammaf 5 ulp).
 * This file is compiled with -frounding-math: the directed-rounding
 * functions switch the rounding mode around a single operation.
 */
#include "emu_internal.h"

#include <fenv.h>
#include <math.h>

typedef float (*f1)(float);
typedef double (*d1)(double);
typedef float (*f2)(float, float);
typedef double (*d2)(double, double);

#define RESTRICT __restrict__

/* ---- generic handlers: the function pointer is in I->x.p ---------------------------- */

static int h_f1(emu_frame *F, const emu_ins *I)
{
    f1 f = (f1)I->x.p;
    int64_t n = NE(F, I);
    float *RESTRICT d = SLOT(F, I->d, float);
    const float *a = SLOT(F, I->a, float);
    for (int64_t i = 0; i < n; i++)
        d[i] = f(a[i]);
    return EMU_NEXT;
}

static int h_d1(emu_frame *F, const emu_ins *I)
{
    d1 f = (d1)I->x.p;
    int64_t n = NE(F, I);
    double *RESTRICT d = SLOT(F, I->d, double);
    const double *a = SLOT(F, I->a, double);
    for (int64_t i = 0; i < n; i++)
        d[i] = f(a[i]);
    return EMU_NEXT;
}

static int h_f2(emu_frame *F, const emu_ins *I)
{
    f2 f = (f2)I->x.p;
    int64_t n = NE(F, I);
    float *RESTRICT d = SLOT(F, I->d, float);
    const float *a = SLOT(F, I->a, float), *b = SLOT(F, I->b, float);
    for (int64_t i = 0; i < n; i++)
        d[i] = f(a[i], b[i]);
    return EMU_NEXT;
}

static int h_d2(emu_frame *F, const emu_ins *I)
{
    d2 f = (d2)I->x.p;
    int64_t n = NE(F, I);
    double *RESTRICT d = SLOT(F, I->d, double);
    const double *a = SLOT(F, I->a, double), *b = SLOT(F, I->b, double);
    for (int64_t i = 0; i < n; i++)
        d[i] = f(a[i], b[i]);
    return EMU_NEXT;
}

/* generic: every element through doubles/int64 by a function of (args, nargs) */
typedef struct gen {
    int nargs;
    emu_ek ret, args[3];
    double (*fd)(const double *a);     /* float result */
    int64_t (*fi)(const int64_t *a);   /* integer args and result */
    int64_t (*fdi)(const double *a);   /* float args, integer result */
    double (*fid)(const int64_t *a);   /* integer args, float result */
    double (*fmix)(const double *a, const int64_t *ia); /* mixed */
} gen;

static int h_gen(emu_frame *F, const emu_ins *I)
{
    const gen *g = I->x.p;
    int64_t n = NE(F, I);
    uint32_t offs[3] = {I->a, I->b, I->c};
    for (int64_t i = 0; i < n; i++) {
        double a[3] = {0, 0, 0};
        int64_t ia[3] = {0, 0, 0};
        for (int j = 0; j < g->nargs; j++) {
            if (emu_ek_is_float(g->args[j]))
                a[j] = emu_load_f64(g->args[j], F->mem + offs[j], i);
            else
                ia[j] = emu_load_i64(g->args[j], F->mem + offs[j], i);
        }
        if (g->fd)
            emu_store_f64(g->ret, F->mem + I->d, i, g->fd(a));
        else if (g->fi)
            emu_store_i64(g->ret, F->mem + I->d, i, g->fi(ia));
        else if (g->fdi)
            emu_store_i64(g->ret, F->mem + I->d, i, g->fdi(a));
        else if (g->fid)
            emu_store_f64(g->ret, F->mem + I->d, i, g->fid(ia));
        else
            emu_store_f64(g->ret, F->mem + I->d, i, g->fmix(a, ia));
    }
    return EMU_NEXT;
}

/* ---- functions -------------------------------------------------------------------- */

static double d_rsqrt(double x) { return 1.0 / sqrt(x); }
static float f_exp10(float x) { return powf(10.0f, x); }
static double d_exp10(double x) { return pow(10.0, x); }
static float f_rcbrt(float x) { return (float)(1.0 / cbrt((double)x)); }
static double d_rcbrt(double x) { return 1.0 / cbrt(x); }
static float f_sinpi(float x) { return (float)sin(M_PI * (double)x); }
static double d_sinpi(double x) { return sin(M_PI * x); }
static float f_cospi(float x) { return (float)cos(M_PI * (double)x); }
static double d_cospi(double x) { return cos(M_PI * x); }
static float f_erfcx(float x) { return (float)(exp((double)x * x) * erfc((double)x)); }
static double d_erfcx(double x) { return exp(x * x) * erfc(x); }
static double d_normcdf(double x) { return 0.5 * erfc(-x / M_SQRT2); }
static float f_normcdf(float x) { return (float)d_normcdf(x); }
static double d_erfinv(double y)
{
    /* Newton on erf: a few steps from a rational start are enough for double */
    if (y <= -1)
        return y == -1 ? -INFINITY : NAN;
    if (y >= 1)
        return y == 1 ? INFINITY : NAN;
    double w = -log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) {
        w -= 2.5;
        x = 2.81022636e-08;
        x = 3.43273939e-07 + x * w;
        x = -3.5233877e-06 + x * w;
        x = -4.39150654e-06 + x * w;
        x = 0.00021858087 + x * w;
        x = -0.00125372503 + x * w;
        x = -0.00417768164 + x * w;
        x = 0.246640727 + x * w;
        x = 1.50140941 + x * w;
    } else {
        w = sqrt(w) - 3.0;
        x = -0.000200214257;
        x = 0.000100950558 + x * w;
        x = 0.00134934322 + x * w;
        x = -0.00367342844 + x * w;
        x = 0.00573950773 + x * w;
        x = -0.0076224613 + x * w;
        x = 0.00943887047 + x * w;
        x = 1.00167406 + x * w;
        x = 2.83297682 + x * w;
    }
    x *= y;
    for (int i = 0; i < 3; i++)
        x -= (erf(x) - y) / (2.0 / sqrt(M_PI) * exp(-x * x));
    return x;
}
static float f_erfinv(float x) { return (float)d_erfinv(x); }
static double d_erfcinv(double x) { return d_erfinv(1.0 - x); }
static float f_erfcinv(float x) { return (float)d_erfcinv(x); }
static double d_normcdfinv(double x) { return -M_SQRT2 * d_erfcinv(2.0 * x); }
static float f_normcdfinv(float x) { return (float)d_normcdfinv(x); }
static float f_j0(float x) { return (float)j0(x); }
static float f_j1(float x) { return (float)j1(x); }
static float f_y0(float x) { return (float)y0(x); }
static float f_y1(float x) { return (float)y1(x); }
static float f_saturate(float x) { return x != x ? 0.0f : x < 0 ? 0.0f : x > 1 ? 1.0f : x; }
static float f_logb(float x) { return logbf(x); }
/* __nv_exp2f is ex2.approx.ftz.f32; __nv_fast_expf and __nv_fast_exp10f a mul.f32 by log2(e)
 * or log2(10), then ex2.approx.ftz.f32 (the PTX Triton 3.6 emits) */
static float f_exp2(float x) { return emu_mufu_ex2(x); }
static float f_fast_exp(float x) { return emu_mufu_ex2(x * EMU_LOG2E_F); }
static float f_fast_exp10(float x) { return emu_mufu_ex2(x * 0x1.a934f0p+1f); }
/* __nv_fast_log2f is lg2.approx.ftz.f32 (MUFU.LG2); __nv_fast_logf and __nv_fast_log10f multiply
 * its result by ln 2 or log10 2 (mul.f32); __nv_fast_powf(x, y) is ex2.approx.ftz.f32 of
 * y * lg2.approx.ftz.f32(x) (the PTX Triton 3.6 emits) */
static float f_fast_log2(float x) { return emu_mufu_lg2(x); }
static float f_fast_log(float x) { return f_fast_log2(x) * 0x1.62e430p-1f; }
static float f_fast_log10(float x) { return f_fast_log2(x) * 0x1.344136p-2f; }
static float f_fast_tan(float x) { return sinf(x) / cosf(x); }
/* div.approx.ftz.f32: MUFU.RCP of y, then FMUL.FTZ */
static float f_fast_div(float x, float y) { return emu_ftz(emu_ftz(x) * emu_mufu_rcp(y)); }
static float f_fast_pow(float x, float y) { return emu_mufu_ex2(y * emu_mufu_lg2(x)); }
static float f_rhypot(float x, float y) { return (float)(1.0 / hypot(x, y)); }
static double d_rhypot(double x, double y) { return 1.0 / hypot(x, y); }
static float f_fmin(float x, float y) { return fminf(x, y); }
static float f_fmax(float x, float y) { return fmaxf(x, y); }

typedef struct row1 {
    const char *f, *d; /* __nv_ names of the f32 and f64 variants */
    f1 ff;
    d1 fd;
} row1;

static const row1 unary[] = {
    {"__nv_fabsf", "__nv_fabs", fabsf, fabs},
    {"__nv_floorf", "__nv_floor", floorf, floor},
    {"__nv_ceilf", "__nv_ceil", ceilf, ceil},
    {"__nv_truncf", "__nv_trunc", truncf, trunc},
    {"__nv_roundf", "__nv_round", roundf, round},
    {"__nv_rintf", "__nv_rint", rintf, rint},
    {"__nv_nearbyintf", "__nv_nearbyint", nearbyintf, nearbyint},
    {"__nv_sqrtf", "__nv_sqrt", emu_mufu_sqrt, sqrt},  /* sqrt.approx.ftz.f32 */
    {"__nv_rsqrtf", "__nv_rsqrt", emu_mufu_rsq, d_rsqrt}, /* rsqrt.approx.ftz.f32 */
    {"__nv_cbrtf", "__nv_cbrt", cbrtf, cbrt},
    {"__nv_rcbrtf", "__nv_rcbrt", f_rcbrt, d_rcbrt},
    {"__nv_expf", "__nv_exp", expf, exp},
    {"__nv_exp2f", "__nv_exp2", f_exp2, exp2},
    {"__nv_exp10f", "__nv_exp10", f_exp10, d_exp10},
    {"__nv_expm1f", "__nv_expm1", expm1f, expm1},
    {"__nv_logf", "__nv_log", emu_logf_nv, log},
    {"__nv_log2f", "__nv_log2", emu_log2f_nv, log2},
    {"__nv_log10f", "__nv_log10", log10f, log10},
    {"__nv_log1pf", "__nv_log1p", log1pf, log1p},
    {"__nv_logbf", "__nv_logb", f_logb, logb},
    {"__nv_sinf", "__nv_sin", emu_sinf_nv, sin},
    {"__nv_cosf", "__nv_cos", emu_cosf_nv, cos},
    {"__nv_tanf", "__nv_tan", tanf, tan},
    {"__nv_sinpif", "__nv_sinpi", f_sinpi, d_sinpi},
    {"__nv_cospif", "__nv_cospi", f_cospi, d_cospi},
    {"__nv_asinf", "__nv_asin", emu_asinf_nv, asin},
    {"__nv_acosf", "__nv_acos", acosf, acos},
    {"__nv_atanf", "__nv_atan", atanf, atan},
    {"__nv_sinhf", "__nv_sinh", sinhf, sinh},
    {"__nv_coshf", "__nv_cosh", coshf, cosh},
    {"__nv_tanhf", "__nv_tanh", emu_tanhf_nv, tanh},
    {"__nv_asinhf", "__nv_asinh", asinhf, asinh},
    {"__nv_acoshf", "__nv_acosh", acoshf, acosh},
    {"__nv_atanhf", "__nv_atanh", atanhf, atanh},
    {"__nv_erff", "__nv_erf", emu_erff_nv, erf},
    {"__nv_erfcf", "__nv_erfc", erfcf, erfc},
    {"__nv_erfcxf", "__nv_erfcx", f_erfcx, d_erfcx},
    {"__nv_erfinvf", "__nv_erfinv", f_erfinv, d_erfinv},
    {"__nv_erfcinvf", "__nv_erfcinv", f_erfcinv, d_erfcinv},
    {"__nv_normcdff", "__nv_normcdf", f_normcdf, d_normcdf},
    {"__nv_normcdfinvf", "__nv_normcdfinv", f_normcdfinv, d_normcdfinv},
    {"__nv_lgammaf", "__nv_lgamma", lgammaf, lgamma},
    {"__nv_tgammaf", "__nv_tgamma", tgammaf, tgamma},
    {"__nv_j0f", "__nv_j0", f_j0, j0},
    {"__nv_j1f", "__nv_j1", f_j1, j1},
    {"__nv_y0f", "__nv_y0", f_y0, y0},
    {"__nv_y1f", "__nv_y1", f_y1, y1},
    {"__nv_saturatef", NULL, f_saturate, NULL},
    {"__nv_fast_expf", NULL, f_fast_exp, NULL},
    {"__nv_fast_exp10f", NULL, f_fast_exp10, NULL},
    {"__nv_fast_log2f", NULL, f_fast_log2, NULL},
    {"__nv_fast_logf", NULL, f_fast_log, NULL},
    {"__nv_fast_log10f", NULL, f_fast_log10, NULL},
    {"__nv_fast_sinf", NULL, sinf, NULL},
    {"__nv_fast_cosf", NULL, cosf, NULL},
    {"__nv_fast_tanf", NULL, f_fast_tan, NULL},
};

typedef struct row2 {
    const char *f, *d;
    f2 ff;
    d2 fd;
} row2;

static const row2 binary[] = {
    {"__nv_atan2f", "__nv_atan2", atan2f, atan2},
    {"__nv_copysignf", "__nv_copysign", copysignf, copysign},
    {"__nv_fdimf", "__nv_fdim", fdimf, fdim},
    {"__nv_fmodf", "__nv_fmod", fmodf, fmod},
    {"__nv_hypotf", "__nv_hypot", hypotf, hypot},
    {"__nv_rhypotf", "__nv_rhypot", f_rhypot, d_rhypot},
    {"__nv_nextafterf", "__nv_nextafter", nextafterf, nextafter},
    {"__nv_powf", "__nv_pow", emu_powf_nv, pow},
    {"__nv_remainderf", "__nv_remainder", remainderf, remainder},
    {"__nv_fminf", "__nv_fmin", f_fmin, fmin},
    {"__nv_fmaxf", "__nv_fmax", f_fmax, fmax},
    {"__nv_fast_fdividef", NULL, f_fast_div, NULL},
    {"__nv_fast_powf", NULL, f_fast_pow, NULL},
};

/* ---- directed rounding -------------------------------------------------------------- */

static int rmode(const char *sym)
{
    size_t n = strlen(sym);
    if (n < 3 || sym[n - 3] != '_')
        return -1;
    const char *s = sym + n - 2;
    if (!strcmp(s, "rn"))
        return FE_TONEAREST;
    if (!strcmp(s, "rz"))
        return FE_TOWARDZERO;
    if (!strcmp(s, "ru"))
        return FE_UPWARD;
    if (!strcmp(s, "rd"))
        return FE_DOWNWARD;
    return -1;
}

typedef struct rop {
    int op; /* 0 add 1 sub 2 mul 3 div 4 sqrt 5 rcp 6 fma 7 rsqrt */
    int mode;
    bool dbl;
} rop;

static int h_rounded(emu_frame *F, const emu_ins *I)
{
    const rop *r = I->x.p;
    int64_t n = NE(F, I);
    int saved = fegetround();
    fesetround(r->mode);
    for (int64_t i = 0; i < n; i++) {
        if (r->dbl) {
            volatile double a = SLOT(F, I->a, double)[i];
            volatile double b = r->op < 4 || r->op == 6 ? SLOT(F, I->b, double)[i] : 0;
            volatile double c = r->op == 6 ? SLOT(F, I->c, double)[i] : 0;
            volatile double v;
            switch (r->op) {
            case 0: v = a + b; break;
            case 1: v = a - b; break;
            case 2: v = a * b; break;
            case 3: v = a / b; break;
            case 4: v = sqrt(a); break;
            case 5: v = 1.0 / a; break;
            case 6: v = fma(a, b, c); break;
            default: v = 1.0 / sqrt(a); break;
            }
            SLOT(F, I->d, double)[i] = v;
        } else {
            volatile float a = SLOT(F, I->a, float)[i];
            volatile float b = r->op < 4 || r->op == 6 ? SLOT(F, I->b, float)[i] : 0;
            volatile float c = r->op == 6 ? SLOT(F, I->c, float)[i] : 0;
            volatile float v;
            switch (r->op) {
            case 0: v = a + b; break;
            case 1: v = a - b; break;
            case 2: v = a * b; break;
            case 3: v = a / b; break;
            case 4: v = sqrtf(a); break;
            case 5: v = 1.0f / a; break;
            case 6: v = fmaf(a, b, c); break;
            default: v = (float)(1.0 / sqrt((double)a)); break;
            }
            SLOT(F, I->d, float)[i] = v;
        }
    }
    fesetround(saved);
    return EMU_NEXT;
}

/* conversions with a rounding mode: float2int_rn, int2float_rz, double2float_ru, ... */
typedef struct rconv {
    int mode;
    emu_ek from, to;
    bool from_unsigned, to_unsigned;
} rconv;

static int64_t conv_to_int(double v, int mode, int bits, bool uns)
{
    if (v != v)
        return 0;
    double r;
    switch (mode) {
    case FE_TOWARDZERO: r = trunc(v); break;
    case FE_UPWARD: r = ceil(v); break;
    case FE_DOWNWARD: r = floor(v); break;
    default: r = nearbyint(v); break;
    }
    if (uns) {
        double hi = ldexp(1.0, bits);
        if (r <= 0)
            return 0;
        if (r >= hi)
            return bits >= 64 ? (int64_t)UINT64_MAX : (int64_t)((1ull << bits) - 1);
        return (int64_t)(uint64_t)r;
    }
    double hi = ldexp(1.0, bits - 1);
    if (r >= hi)
        return bits >= 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1);
    if (r < -hi)
        return bits >= 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
    return (int64_t)r;
}

static int h_rconv(emu_frame *F, const emu_ins *I)
{
    const rconv *r = I->x.p;
    int64_t n = NE(F, I);
    int saved = fegetround();
    for (int64_t i = 0; i < n; i++) {
        if (emu_ek_is_float(r->to) && emu_ek_is_float(r->from)) {
            fesetround(r->mode);
            volatile double a = emu_load_f64(r->from, F->mem + I->a, i);
            volatile float v = (float)a;
            fesetround(saved);
            SLOT(F, I->d, float)[i] = v;
        } else if (emu_ek_is_float(r->from)) {
            double a = emu_load_f64(r->from, F->mem + I->a, i);
            emu_store_i64(r->to, F->mem + I->d, i,
                          conv_to_int(a, r->mode, emu_ek_int_bits(r->to), r->to_unsigned));
        } else {
            int64_t a = emu_load_i64(r->from, F->mem + I->a, i);
            int bits = emu_ek_int_bits(r->from);
            if (r->from_unsigned && bits < 64)
                a &= (int64_t)((1ull << bits) - 1);
            fesetround(r->mode);
            if (r->to == EK_F32) {
                volatile float v = r->from_unsigned ? (float)(uint64_t)a : (float)a;
                SLOT(F, I->d, float)[i] = v;
            } else {
                volatile double v = r->from_unsigned ? (double)(uint64_t)a : (double)a;
                SLOT(F, I->d, double)[i] = v;
            }
            fesetround(saved);
        }
    }
    return EMU_NEXT;
}

/* ---- integer functions ------------------------------------------------------------------- */

static int64_t i_clz(const int64_t *a) { uint32_t x = (uint32_t)a[0]; return x ? __builtin_clz(x) : 32; }
static int64_t i_clzll(const int64_t *a) { uint64_t x = (uint64_t)a[0]; return x ? __builtin_clzll(x) : 64; }
static int64_t i_popc(const int64_t *a) { return __builtin_popcount((uint32_t)a[0]); }
static int64_t i_popcll(const int64_t *a) { return __builtin_popcountll((uint64_t)a[0]); }
static int64_t i_ffs(const int64_t *a) { return __builtin_ffs((int)(uint32_t)a[0]); }
static int64_t i_ffsll(const int64_t *a) { return __builtin_ffsll((long long)a[0]); }
static int64_t i_brev(const int64_t *a)
{
    uint32_t x = (uint32_t)a[0], r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return (int32_t)r;
}
static int64_t i_brevll(const int64_t *a)
{
    uint64_t x = (uint64_t)a[0], r = 0;
    for (int i = 0; i < 64; i++)
        r |= ((x >> i) & 1ull) << (63 - i);
    return (int64_t)r;
}
static int64_t i_mulhi(const int64_t *a) { return (int32_t)(((int64_t)(int32_t)a[0] * (int32_t)a[1]) >> 32); }
static int64_t i_umulhi(const int64_t *a) { return (int32_t)(uint32_t)(((uint64_t)(uint32_t)a[0] * (uint32_t)a[1]) >> 32); }
static int64_t i_mul64hi(const int64_t *a) { return (int64_t)(((__int128)a[0] * a[1]) >> 64); }
static int64_t i_umul64hi(const int64_t *a) { return (int64_t)(uint64_t)(((unsigned __int128)(uint64_t)a[0] * (uint64_t)a[1]) >> 64); }
static int64_t sext24(int64_t v) { return (int64_t)((int32_t)((uint32_t)v << 8) >> 8); }
static int64_t i_mul24(const int64_t *a) { return (int32_t)(uint32_t)((uint64_t)sext24(a[0]) * (uint64_t)sext24(a[1])); }
static int64_t i_umul24(const int64_t *a) { return (int32_t)(uint32_t)((uint64_t)(a[0] & 0xffffff) * (uint64_t)(a[1] & 0xffffff)); }
static int64_t i_abs(const int64_t *a) { int32_t x = (int32_t)a[0]; return x < 0 ? (int32_t)(0u - (uint32_t)x) : x; }
static int64_t i_llabs(const int64_t *a) { return a[0] < 0 ? (int64_t)(0ull - (uint64_t)a[0]) : a[0]; }
static int64_t i_hadd(const int64_t *a) { return (int32_t)(((int64_t)(int32_t)a[0] + (int32_t)a[1]) >> 1); }
static int64_t i_rhadd(const int64_t *a) { return (int32_t)(((int64_t)(int32_t)a[0] + (int32_t)a[1] + 1) >> 1); }
static int64_t i_uhadd(const int64_t *a) { return (int32_t)(uint32_t)(((uint64_t)(uint32_t)a[0] + (uint32_t)a[1]) >> 1); }
static int64_t i_urhadd(const int64_t *a) { return (int32_t)(uint32_t)(((uint64_t)(uint32_t)a[0] + (uint32_t)a[1] + 1) >> 1); }
static int64_t i_sad(const int64_t *a)
{
    int64_t x = (int32_t)a[0], y = (int32_t)a[1];
    return (int32_t)(uint32_t)((uint64_t)(x > y ? x - y : y - x) + (uint32_t)a[2]);
}
static int64_t i_usad(const int64_t *a)
{
    uint64_t x = (uint32_t)a[0], y = (uint32_t)a[1];
    return (int32_t)(uint32_t)((x > y ? x - y : y - x) + (uint32_t)a[2]);
}
static int64_t i_byte_perm(const int64_t *a)
{
    uint64_t v = ((uint64_t)(uint32_t)a[1] << 32) | (uint32_t)a[0];
    uint32_t s = (uint32_t)a[2], r = 0;
    for (int i = 0; i < 4; i++) {
        unsigned sel = (s >> (4 * i)) & 7;
        r |= (uint32_t)((v >> (8 * sel)) & 0xff) << (8 * i);
    }
    return (int32_t)r;
}

/* float predicates and bit views */
static int64_t p_isnan(const double *a) { return isnan(a[0]) ? 1 : 0; }
static int64_t p_isinf(const double *a) { return isinf(a[0]) ? 1 : 0; }
static int64_t p_finite(const double *a) { return isfinite(a[0]) ? 1 : 0; }
static int64_t p_signbit(const double *a) { return signbit(a[0]) ? 1 : 0; }
static int64_t p_ilogb(const double *a) { return ilogb(a[0]); }
static double m_ldexp(const double *a, const int64_t *ia) { return ldexp(a[0], (int)ia[1]); }
static double m_powi(const double *a, const int64_t *ia) { return pow(a[0], (double)(int32_t)ia[1]); }
static double m_powif(const double *a, const int64_t *ia) { return emu_powif_nv((float)a[0], (int32_t)ia[1]); }
static double m_jn(const double *a, const int64_t *ia) { return jn((int)ia[0], a[1]); }
static double m_yn(const double *a, const int64_t *ia) { return yn((int)ia[0], a[1]); }
static double g_norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }
static double g_rnorm3(const double *a) { return 1.0 / g_norm3(a); }
static double g_fma(const double *a) { return fma(a[0], a[1], a[2]); }
static double g_i0(const double *a)
{
    double x = fabs(a[0]), s = 1, t = 1;
    for (int k = 1; k < 500 && t > 1e-17 * s; k++) {
        t *= (x / (2 * k)) * (x / (2 * k));
        s += t;
    }
    return s;
}
static double g_i1(const double *a)
{
    double x = a[0], t = x / 2, s = t;
    for (int k = 1; k < 500 && fabs(t) > 1e-17 * fabs(s); k++) {
        t *= (x / 2) * (x / 2) / (k * (k + 1.0));
        s += t;
    }
    return s;
}
static double g_rcp64h(const double *a) { return 1.0 / a[0]; }

static int64_t p_llrint(const double *a) { return conv_to_int(a[0], FE_TONEAREST, 64, false); }
static int64_t p_llround(const double *a)
{
    return a[0] != a[0] ? 0 : conv_to_int(round(a[0]), FE_TOWARDZERO, 64, false);
}

static int h_bits(emu_frame *F, const emu_ins *I)
{
    memmove(F->mem + I->d, F->mem + I->a, (size_t)NE(F, I) * emu_ek_size((emu_ek)I->ek));
    return EMU_NEXT;
}

/* __nv_double2hiint (x.p non-NULL) / __nv_double2loint */
static int h_dword(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    for (int64_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, F->mem + I->a + 8 * (size_t)i, 8);
        SLOT(F, I->d, uint32_t)[i] = (uint32_t)(I->x.p ? u >> 32 : u);
    }
    return EMU_NEXT;
}

static int h_hilo(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    for (int64_t i = 0; i < n; i++) {
        uint64_t u = ((uint64_t)SLOT(F, I->a, uint32_t)[i] << 32) | SLOT(F, I->b, uint32_t)[i];
        memcpy(F->mem + I->d + 8 * (size_t)i, &u, 8);
    }
    return EMU_NEXT;
}

static bool sym_is(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

#define GEN(...)                                                                               \
    do {                                                                                       \
        gen g_;                                                                         \
        g_ = (gen){__VA_ARGS__};                                                               \
        g_.nargs = nargs;                                                                      \
        g_.ret = ret;                                                                          \
        for (int i_ = 0; i_ < nargs && i_ < 3; i_++)                                           \
            g_.args[i_] = args[i_];                                                            \
        gen *gp_ = ct_arena_alloc(A, sizeof *gp_);                                             \
        *gp_ = g_;                                                                             \
        *auxp = gp_;                                                                           \
        return h_gen;                                                                          \
    } while (0)

emu_fn emu_libdevice_fn(const char *sym, int nargs, emu_ek ret, const emu_ek *args, ct_arena *A,
                        const void **auxp)
{
    *auxp = NULL;
    if (!sym)
        return NULL;
    bool f32 = nargs > 0 && args[0] == EK_F32 && ret == EK_F32;
    bool f64 = nargs > 0 && args[0] == EK_F64 && ret == EK_F64;
    /* unary / binary floats through the C library or our ports */
    if (nargs == 1 && (f32 || f64))
        for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++) {
            if (f32 && sym_is(sym, unary[i].f) && unary[i].ff) {
                *auxp = (const void *)unary[i].ff;
                return h_f1;
            }
            if (f64 && sym_is(sym, unary[i].d) && unary[i].fd) {
                *auxp = (const void *)unary[i].fd;
                return h_d1;
            }
        }
    if (nargs == 2 && (f32 || f64) && args[1] == args[0])
        for (size_t i = 0; i < sizeof binary / sizeof binary[0]; i++) {
            if (f32 && sym_is(sym, binary[i].f)) {
                *auxp = (const void *)binary[i].ff;
                return h_f2;
            }
            if (f64 && sym_is(sym, binary[i].d) && binary[i].fd) {
                *auxp = (const void *)binary[i].fd;
                return h_d2;
            }
        }
    /* IEEE operations with a rounding mode */
    static const struct {
        const char *stem;
        int op, nargs;
    } rops[] = {{"__nv_fadd_", 0, 2}, {"__nv_dadd_", 0, 2}, {"__nv_fsub_", 1, 2},
                {"__nv_dsub_", 1, 2}, {"__nv_fmul_", 2, 2}, {"__nv_dmul_", 2, 2},
                {"__nv_fdiv_", 3, 2}, {"__nv_ddiv_", 3, 2}, {"__nv_fsqrt_", 4, 1},
                {"__nv_dsqrt_", 4, 1}, {"__nv_frcp_", 5, 1}, {"__nv_drcp_", 5, 1},
                {"__nv_fmaf_", 6, 3}, {"__nv_fma_", 6, 3},   {"__nv_frsqrt_", 7, 1}};
    int mode = rmode(sym);
    for (size_t i = 0; mode >= 0 && i < sizeof rops / sizeof rops[0]; i++) {
        size_t sl = strlen(rops[i].stem);
        if (strncmp(sym, rops[i].stem, sl) || strlen(sym) != sl + 2 || nargs != rops[i].nargs ||
            !(f32 || f64))
            continue;
        if ((sym[5] == 'd') != f64 && !(rops[i].op == 6 && f64 == !strncmp(sym, "__nv_fma_", 9)))
            continue;
        rop *r = ct_arena_alloc(A, sizeof *r);
        *r = (rop){rops[i].op, mode, f64};
        *auxp = r;
        return h_rounded;
    }
    /* conversions with a rounding mode */
    if (mode >= 0 && nargs == 1) {
        static const struct {
            const char *stem;
            emu_ek from, to;
            bool fu, tu;
        } cv[] = {
            {"__nv_float2int_", EK_F32, EK_I32, 0, 0},   {"__nv_float2uint_", EK_F32, EK_I32, 0, 1},
            {"__nv_float2ll_", EK_F32, EK_I64, 0, 0},    {"__nv_float2ull_", EK_F32, EK_I64, 0, 1},
            {"__nv_double2int_", EK_F64, EK_I32, 0, 0},  {"__nv_double2uint_", EK_F64, EK_I32, 0, 1},
            {"__nv_double2ll_", EK_F64, EK_I64, 0, 0},   {"__nv_double2ull_", EK_F64, EK_I64, 0, 1},
            {"__nv_int2float_", EK_I32, EK_F32, 0, 0},   {"__nv_uint2float_", EK_I32, EK_F32, 1, 0},
            {"__nv_ll2float_", EK_I64, EK_F32, 0, 0},    {"__nv_ull2float_", EK_I64, EK_F32, 1, 0},
            {"__nv_int2double_", EK_I32, EK_F64, 0, 0},  {"__nv_uint2double_", EK_I32, EK_F64, 1, 0},
            {"__nv_ll2double_", EK_I64, EK_F64, 0, 0},   {"__nv_ull2double_", EK_I64, EK_F64, 1, 0},
            {"__nv_double2float_", EK_F64, EK_F32, 0, 0},
        };
        for (size_t i = 0; i < sizeof cv / sizeof cv[0]; i++) {
            size_t sl = strlen(cv[i].stem);
            if (strncmp(sym, cv[i].stem, sl) || strlen(sym) != sl + 2 || args[0] != cv[i].from ||
                ret != cv[i].to)
                continue;
            rconv *r = ct_arena_alloc(A, sizeof *r);
            *r = (rconv){mode, cv[i].from, cv[i].to, cv[i].fu, cv[i].tu};
            *auxp = r;
            return h_rconv;
        }
    }
    /* integers */
    static const struct {
        const char *sym;
        int64_t (*f)(const int64_t *);
        int nargs;
    } ints[] = {
        {"__nv_clz", i_clz, 1},         {"__nv_clzll", i_clzll, 1},   {"__nv_popc", i_popc, 1},
        {"__nv_popcll", i_popcll, 1},   {"__nv_ffs", i_ffs, 1},       {"__nv_ffsll", i_ffsll, 1},
        {"__nv_brev", i_brev, 1},       {"__nv_brevll", i_brevll, 1}, {"__nv_mulhi", i_mulhi, 2},
        {"__nv_umulhi", i_umulhi, 2},   {"__nv_mul64hi", i_mul64hi, 2},
        {"__nv_umul64hi", i_umul64hi, 2}, {"__nv_mul24", i_mul24, 2}, {"__nv_umul24", i_umul24, 2},
        {"__nv_abs", i_abs, 1},         {"__nv_llabs", i_llabs, 1},   {"__nv_hadd", i_hadd, 2},
        {"__nv_rhadd", i_rhadd, 2},     {"__nv_uhadd", i_uhadd, 2},   {"__nv_urhadd", i_urhadd, 2},
        {"__nv_sad", i_sad, 3},         {"__nv_usad", i_usad, 3},     {"__nv_byte_perm", i_byte_perm, 3},
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (sym_is(sym, ints[i].sym) && nargs == ints[i].nargs && !emu_ek_is_float(args[0]))
            GEN(.fi = ints[i].f);
    /* predicates, bit views, odd signatures */
    if (nargs == 1 && emu_ek_is_float(args[0]) && !emu_ek_is_float(ret)) {
        if (sym_is(sym, "__nv_isnanf") || sym_is(sym, "__nv_isnand"))
            GEN(.fdi = p_isnan);
        if (sym_is(sym, "__nv_isinff") || sym_is(sym, "__nv_isinfd"))
            GEN(.fdi = p_isinf);
        if (sym_is(sym, "__nv_finitef") || sym_is(sym, "__nv_isfinited"))
            GEN(.fdi = p_finite);
        if (sym_is(sym, "__nv_signbitf") || sym_is(sym, "__nv_signbitd"))
            GEN(.fdi = p_signbit);
        if (sym_is(sym, "__nv_ilogbf") || sym_is(sym, "__nv_ilogb"))
            GEN(.fdi = p_ilogb);
    }
    if (nargs == 2 && emu_ek_is_float(args[0]) && !emu_ek_is_float(args[1])) {
        if (sym_is(sym, "__nv_ldexpf") || sym_is(sym, "__nv_ldexp") ||
            sym_is(sym, "__nv_scalbnf") || sym_is(sym, "__nv_scalbn"))
            GEN(.fmix = m_ldexp);
        if (sym_is(sym, "__nv_powif") && args[0] == EK_F32)
            GEN(.fmix = m_powif);
        if (sym_is(sym, "__nv_powi"))
            GEN(.fmix = m_powi);
    }
    if (nargs == 2 && !emu_ek_is_float(args[0]) && emu_ek_is_float(args[1])) {
        if (sym_is(sym, "__nv_jnf") || sym_is(sym, "__nv_jn"))
            GEN(.fmix = m_jn);
        if (sym_is(sym, "__nv_ynf") || sym_is(sym, "__nv_yn"))
            GEN(.fmix = m_yn);
    }
    if ((f32 || f64) && nargs == 3) {
        if (sym_is(sym, "__nv_fmaf") || sym_is(sym, "__nv_fma"))
            GEN(.fd = g_fma);
        if (sym_is(sym, "__nv_norm3df") || sym_is(sym, "__nv_norm3d"))
            GEN(.fd = g_norm3);
        if (sym_is(sym, "__nv_rnorm3df") || sym_is(sym, "__nv_rnorm3d"))
            GEN(.fd = g_rnorm3);
    }
    if ((f32 || f64) && nargs == 1) {
        if (sym_is(sym, "__nv_cyl_bessel_i0f") || sym_is(sym, "__nv_cyl_bessel_i0"))
            GEN(.fd = g_i0);
        if (sym_is(sym, "__nv_cyl_bessel_i1f") || sym_is(sym, "__nv_cyl_bessel_i1"))
            GEN(.fd = g_i1);
        if (sym_is(sym, "__nv_rcp64h"))
            GEN(.fd = g_rcp64h);
    }
    /* bit views */
    if (nargs == 1 && emu_ek_size(args[0]) == emu_ek_size(ret) &&
        (sym_is(sym, "__nv_float_as_int") || sym_is(sym, "__nv_float_as_uint") ||
         sym_is(sym, "__nv_int_as_float") || sym_is(sym, "__nv_uint_as_float") ||
         sym_is(sym, "__nv_double_as_longlong") || sym_is(sym, "__nv_longlong_as_double")))
        return h_bits;
    if (nargs == 1 && args[0] == EK_F64 && (sym_is(sym, "__nv_double2hiint") || sym_is(sym, "__nv_double2loint"))) {
        *auxp = sym_is(sym, "__nv_double2hiint") ? (const void *)A : NULL;
        return h_dword;
    }
    if (nargs == 2 && ret == EK_F64 && sym_is(sym, "__nv_hiloint2double"))
        return h_hilo;
    if (nargs == 1 && emu_ek_is_float(args[0]) && ret == EK_I64) {
        if (sym_is(sym, "__nv_llrintf") || sym_is(sym, "__nv_llrint"))
            GEN(.fdi = p_llrint);
        if (sym_is(sym, "__nv_llroundf") || sym_is(sym, "__nv_llround"))
            GEN(.fdi = p_llround);
    }
    return NULL;
}
