/*
 * test_emu_mathfn.c - the ports of libdevice's f32 functions (src/emu/mathfn.c)
 * against the correctly rounded result (double precision libm), over millions
 * of inputs: a mistyped constant or a wrong branch shows as a large error.
 * The bounds are CUDA's documented maximum errors for these functions
 * (logf, log2f 1 ulp; sinf, cosf 2 ulp in the full range; erff 2 ulp; tanhf
 * 2 ulp; asinf 2 ulp; powf 4 ulp), which the ported instruction sequences must meet too; and
 * against outputs of the GPU (emu_libdevice_samples.inc, scripts/gpu/libdevice_check.py),
 * bit for bit.
 * The model of ex2.approx (MUFU.EX2, mufu.c) stays within 2 ulp of 2^x in long double on
 * 2^24 inputs spread over f32, and the vector path of the exp/exp2 handlers gives its bits
 * on every class of input.
 */
#include <math.h>
#include <stdlib.h>

#include "emu/emu_internal.h"
#include "emu_test.h"

/* distance in floats between a float and a double (the exact value) */
static double ulp_err(float got, double exact)
{
    if (isnan(exact) || isnan(got))
        return isnan(exact) && isnan(got) ? 0 : INFINITY;
    if (isinf(exact) || isinf(got))
        return (double)got == exact ? 0 : INFINITY;
    double a = fabs(exact);
    int e;
    frexp(a < 0x1p-126 ? 0x1p-126 : a, &e);
    double ulp = ldexp(1.0, e - 24);
    return fabs((double)got - exact) / ulp;
}

typedef struct fn_case {
    const char *name;
    float (*f)(float);
    double (*ref)(double);
    double lo, hi;   /* sample range (log-uniform magnitude, both signs when lo < 0) */
    double bound;    /* ulp */
} fn_case;

static double d_erf(double x) { return erf(x); }

static void check(const fn_case *c, int n)
{
    uint64_t r = 12345;
    double worst = 0;
    float worst_x = 0;
    for (int i = 0; i < n; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(r >> 11) * 0x1p-53;
        double x;
        if (c->lo < 0) {
            double m = exp(log(1e-6) + u * (log(c->hi) - log(1e-6)));
            x = (r & 1) ? -m : m;
        } else {
            x = exp(log(c->lo) + u * (log(c->hi) - log(c->lo)));
        }
        float xf = (float)x;
        double e = ulp_err(c->f(xf), c->ref((double)xf));
        if (e > worst) {
            worst = e;
            worst_x = xf;
        }
    }
    printf("  %-6s max %.2f ulp (at %a), bound %.0f\n", c->name, worst, worst_x, c->bound);
    assert_true(worst <= c->bound);
}

static void t_ported_functions(void **s)
{
    (void)s;
    const fn_case cases[] = {
        {"logf", emu_logf_nv, log, 1e-37, 1e37, 1},
        {"log2f", emu_log2f_nv, log2, 1e-37, 1e37, 1},
        {"sinf", emu_sinf_nv, sin, -1, 1e6, 2},   /* Cody-Waite range */
        {"cosf", emu_cosf_nv, cos, -1, 1e6, 2},
        {"sinf", emu_sinf_nv, sin, -1, 1e30, 2},  /* Payne-Hanek range */
        {"cosf", emu_cosf_nv, cos, -1, 1e30, 2},
        {"erff", emu_erff_nv, d_erf, -1, 10, 2},
        {"tanhf", emu_tanhf_nv, tanh, -1, 20, 2},
        {"asinf", emu_asinf_nv, asin, -1, 1, 2.5}, /* 2 ulp from the rounded result */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check(&cases[i], 1 << 20);
}

static void t_special_values(void **s)
{
    (void)s;
    assert_true(isinf(emu_logf_nv(0.0f)) && emu_logf_nv(0.0f) < 0);
    assert_true(isnan(emu_logf_nv(-1.0f)));
    assert_true(isinf(emu_logf_nv(INFINITY)));
    assert_true(emu_logf_nv(1.0f) == 0.0f);
    assert_true(emu_log2f_nv(8.0f) == 3.0f);
    assert_true(emu_log2f_nv(0x1p-140f) == -140.0f); /* a subnormal input, scaled */
    assert_true(isnan(emu_sinf_nv(INFINITY)) && isnan(emu_cosf_nv(-INFINITY)));
    assert_true(emu_sinf_nv(0.0f) == 0.0f && emu_cosf_nv(0.0f) == 1.0f);
    assert_true(emu_erff_nv(100.0f) == 1.0f && emu_erff_nv(-100.0f) == -1.0f);
    assert_true(emu_tanhf_nv(50.0f) == 1.0f && emu_tanhf_nv(-50.0f) == -1.0f);
    assert_true(isnan(emu_tanhf_nv(NAN)) && isnan(emu_erff_nv(NAN)));
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* powf against pow in double on 2^20 pairs (x log-uniform in [1e-30, 1e30], negative with an
 * integer y for half of them, y uniform in [-40, 40]; results that stay normal): within CUDA's
 * bound of 4 ulp (the port's double-float logarithm keeps it near 1) */
static void t_powf(void **s)
{
    (void)s;
    uint64_t r = 777;
    double worst = 0;
    float wx = 0, wy = 0;
    for (int i = 0; i < (1 << 20); i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(r >> 11) * 0x1p-53;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(r >> 11) * 0x1p-53;
        float x = (float)exp(log(1e-30) + u * (log(1e30) - log(1e-30)));
        float y = (float)(-40.0 + 80.0 * v);
        if (i & 1) {
            y = nearbyintf(y);
            x = -x;
        }
        double want = pow((double)x, (double)y);
        if (!(fabs(want) >= 0x1p-126 && fabs(want) <= 0x1.fffffep127))
            continue;
        double e = ulp_err(emu_powf_nv(x, y), want);
        if (e > worst) {
            worst = e;
            wx = x;
            wy = y;
        }
    }
    printf("  powf   max %.2f ulp (at %a, %a), bound 4\n", worst, (double)wx, (double)wy);
    assert_true(worst <= 4);
}

/* the special cases of powf (C99's, as libdevice has them), powif and asinf, bit for bit */
static void t_pow_asin_special(void **s)
{
    (void)s;
    const float inf = INFINITY, nan = NAN;
    static const struct {
        float x, y;
        uint32_t want;
    } pw[] = {
        {nan, 0.0f, 0x3f800000},   {1.0f, nan, 0x3f800000},  {-1.0f, INFINITY, 0x3f800000},
        {-1.0f, -INFINITY, 0x3f800000}, {2.0f, nan, 0x7fffffff}, {nan, 2.0f, 0x7fffffff},
        {-0.0f, -3.0f, 0xff800000}, {-0.0f, 3.0f, 0x80000000}, {-0.0f, 2.0f, 0x00000000},
        {0.0f, -2.0f, 0x7f800000},  {-0.0f, -2.5f, 0x7f800000}, {-2.0f, 0.5f, 0x7fffffff},
        {-2.0f, 3.0f, 0xc1000000},  {-2.0f, 2.0f, 0x40800000}, {2.0f, 10.0f, 0x44800000},
        {inf, -1.0f, 0x00000000},   {inf, 0.5f, 0x7f800000},  {-inf, 3.0f, 0xff800000},
        {-inf, 2.0f, 0x7f800000},   {-inf, -3.0f, 0x80000000}, {0.5f, inf, 0x00000000},
        {2.0f, inf, 0x7f800000},    {0.5f, -inf, 0x7f800000}, {2.0f, -inf, 0x00000000},
        {2.0f, 128.0f, 0x7f800000}, {2.0f, -150.0f, 0x00000000}, {4.0f, 0.5f, 0x40000000},
    };
    for (size_t i = 0; i < sizeof pw / sizeof pw[0]; i++) {
        uint32_t got = fbits(emu_powf_nv(pw[i].x, pw[i].y));
        if (got != pw[i].want)
            fail_msg("powf(%a, %a) = %08x, want %08x", (double)pw[i].x, (double)pw[i].y, got, pw[i].want);
    }
    (void)inf;
    (void)nan;
    /* __nv_powif: mul.rn.ftz from the lowest bit of |n| (x^3 is x * (x * x), rounded twice:
     * ops_float's element 39 on the H200), rcp.rn for n < 0 */
    float x = from_bits(0x402886a5u);
    assert_int_equal(fbits(emu_powif_nv(x, 3)), fbits(x * (x * x)));
    assert_int_equal(fbits(emu_powif_nv(x, -3)), fbits(1.0f / (x * (x * x))));
    assert_int_equal(fbits(emu_powif_nv(nan, 0)), 0x3f800000u);
    assert_int_equal(fbits(emu_powif_nv(0.0f, -1)), 0x7f800000u);
    assert_int_equal(fbits(emu_powif_nv(-0.0f, -1)), 0xff800000u);
    assert_int_equal(fbits(emu_powif_nv(2.0f, -2)), 0x3e800000u);
    assert_int_equal(fbits(emu_powif_nv(0x1p-140f, 1)), 0u); /* subnormal x flushed */
    assert_int_equal(fbits(emu_powif_nv(2.0f, INT32_MIN)), 0u);
    assert_int_equal(fbits(emu_powif_nv(nan, 2)), 0x7fffffffu);
    /* __nv_asinf */
    assert_int_equal(fbits(emu_asinf_nv(0.0f)), 0u);
    assert_int_equal(fbits(emu_asinf_nv(-0.0f)), 0x80000000u);
    assert_int_equal(fbits(emu_asinf_nv(1.0f)), 0x3fc90fdbu);
    assert_int_equal(fbits(emu_asinf_nv(-1.0f)), 0xbfc90fdbu);
    assert_int_equal(fbits(emu_asinf_nv(0x1p-140f)), 0u);          /* subnormals flush */
    assert_int_equal(fbits(emu_asinf_nv(-0x1p-140f)), 0x80000000u);
    assert_int_equal(fbits(emu_asinf_nv(1.0000001f)), 0x7fffffffu); /* |x| > 1 */
    assert_int_equal(fbits(emu_asinf_nv(nan)), 0x7fffffffu);
    assert_int_equal(fbits(emu_asinf_nv(-inf)), 0x7fffffffu);
}

/* the ports against outputs of the GPU, bit for bit, NaN included: a sample of what
 * scripts/gpu/libdevice_check.py recorded on an H100 (sm_90, the H200's SM) when it found the
 * ports equal to the GPU on all 2^32 inputs of each unary function and on 2^27.3 pairs of powf
 * and 2^26 of powif (tests/golden/libdevice/check.txt): special values, random bits and working
 * ranges; and 319 asinf outputs of the H200 (asin_kernel's recorded launch) */
static const uint32_t gpu_samples[][4] = {
#include "emu_libdevice_samples.inc"
};

static void t_gpu_samples(void **s)
{
    (void)s;
    static float (*const f1[])(float) = {emu_asinf_nv, emu_logf_nv, emu_log2f_nv, emu_sinf_nv,
                                         emu_cosf_nv, emu_erff_nv, emu_tanhf_nv};
    int counts[9] = {0};
    for (size_t i = 0; i < sizeof gpu_samples / sizeof gpu_samples[0]; i++) {
        uint32_t fn = gpu_samples[i][0], x = gpu_samples[i][1], y = gpu_samples[i][2], want = gpu_samples[i][3];
        assert_true(fn < 9);
        float got = fn < 7 ? f1[fn](from_bits(x)) : fn == 7 ? emu_powf_nv(from_bits(x), from_bits(y))
                                                            : emu_powif_nv(from_bits(x), (int32_t)y);
        if (fbits(got) != want)
            fail_msg("function %u (x %08x, y %08x): %08x, the GPU %08x", fn, x, y, fbits(got), want);
        counts[fn]++;
    }
    for (int f = 0; f < 9; f++)
        assert_true(counts[f] >= 300);
    printf("  %zu outputs of the GPU matched (asinf %d, logf %d, log2f %d, sinf %d, cosf %d, erff %d, "
           "tanhf %d, powf %d, powif %d)\n", sizeof gpu_samples / sizeof gpu_samples[0], counts[0], counts[1],
           counts[2], counts[3], counts[4], counts[5], counts[6], counts[7], counts[8]);
}

/* MUFU.EX2 (its bits are the GPU's: test_emu_mufu, test_emu_golden's probes): within 2 ulp of
 * 2^x on every 256th bit pattern, with the instruction's special cases */
static void t_ex2_model(void **s)
{
    (void)s;
    if (sizeof(long double) <= sizeof(double))
        fail_msg("no wider reference than double on this host");
    double worst = 0;
    for (uint64_t u = 77; u < (1ull << 32); u += 256) {
        float x = from_bits((uint32_t)u);
        float got = emu_mufu_ex2(x);
        if (x != x) {
            assert_int_equal(fbits(got), 0x7fffffffu);
            continue;
        }
        long double want = exp2l((long double)emu_ftz(x));
        if (want < 0x1p-126L) { /* ftz: subnormal results are zeros */
            assert_true(got == 0.0f);
            continue;
        }
        if (want > 0x1.fffffep127L) { /* beyond f32: infinity */
            assert_true(got == INFINITY);
            continue;
        }
        double e = ulp_err(got, (double)want);
        worst = e > worst ? e : worst;
        if (e > 2.0)
            fail_msg("ex2(%a) = %a, 2^x = %La: %.2f ulp", (double)x, (double)got, want, e);
    }
    printf("  MUFU.EX2 model: max %.3f ulp from 2^x\n", worst);
    assert_true(emu_mufu_ex2(0x1p-130f) == 1.0f && emu_mufu_ex2(-0x1p-130f) == 1.0f);
    assert_true(emu_mufu_ex2(128.0f) == INFINITY && emu_mufu_ex2(-INFINITY) == 0.0f);
    assert_true(emu_mufu_ex2(127.0f) == 0x1p127f && emu_mufu_ex2(-126.0f) == 0x1p-126f);
    assert_true(emu_mufu_ex2(-127.0f) == 0.0f && emu_mufu_ex2(0.0f) == 1.0f);
    /* ex2.approx.f32 (no ftz) keeps subnormal results: the halved input, squared */
    assert_true(emu_ex2_full(-130.0f) == 0x1p-130f);
    assert_true(emu_ex2_full(-150.0f) == 0.0f);
}

/* the handlers' array function: the vector path and the scalar one give the same bits */
static void t_exp2_vector_path(void **s)
{
    (void)s;
    enum { N = 1 << 16 };
    static float in[N], v[N], sc[N];
    uint64_t r = 0x243f6a8885a308d3ull;
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN,
                                    -NAN, 0x1p-149f, -0x1p-140f, 127.99999f, 128.0f, -126.0f,
                                    -149.5f, -150.0f, 200.0f, -200.0f, 1e30f, -1e30f,
                                    0x1.853a6ep-9f, -0x1.e7526ep-6f, 88.72f, -103.9f,
                                    -126.00001f, -125.99999f, 0x1p-23f, -0x1p-23f};
    for (int i = 0; i < N; i++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        uint32_t u = (uint32_t)(r >> 11);
        switch (i % 4) {
        case 0: /* any bits */
            in[i] = from_bits(u);
            break;
        case 1: /* the interesting range */
            in[i] = (float)((double)(u % 300000000u) / 1e6 - 160.0);
            break;
        case 2: /* near zero, subnormals included */
            in[i] = from_bits(u & 0x807fffffu) * (u & 1 ? 1.0f : 0x1p100f);
            break;
        default:
            in[i] = special[(u >> 3) % (sizeof special / sizeof special[0])];
        }
    }
    for (int is_exp = 0; is_exp < 2; is_exp++) {
        for (int off = 0; off < 3; off++) { /* lengths that leave a scalar tail */
            int n = N - off * 7;
            emu_exp2_f32_array(v, in, n, is_exp, false);
            emu_exp2_f32_array(sc, in, n, is_exp, true);
            for (int i = 0; i < n; i++)
                if (fbits(v[i]) != fbits(sc[i]))
                    fail_msg("%s(%a): vector %a, scalar %a", is_exp ? "exp" : "exp2",
                             (double)in[i], (double)v[i], (double)sc[i]);
        }
        /* NaN is canonical, subnormal results of exp2 are flushed */
        float x = NAN, y;
        emu_exp2_f32_array(&y, &x, 1, is_exp, false);
        assert_int_equal(fbits(y), 0x7fffffffu);
    }
    float x[16], y[16];
    for (int i = 0; i < 16; i++)
        x[i] = -130.0f - (float)i;
    emu_exp2_f32_array(y, x, 16, false, false);
    for (int i = 0; i < 16; i++)
        assert_true(fbits(y[i]) == 0);
    x[0] = -90.0f; /* exp(-90): a subnormal result, kept by math.exp (no ftz) */
    emu_exp2_f32_array(y, x, 16, true, false);
    assert_true(y[0] > 0 && y[0] < 0x1p-126f);
}

/* MUFU.EX2's array paths (the scalar model, the vector one over the quadratics and exception
 * bitmaps, the vector one over the packed entries) give the same bits: every entry of both
 * tables (all 2^23 mantissas of [1, 2) and of (-2, -1]), the same at exponents where the power of
 * two flushes or overflows, random bit patterns and the special values, for ex2.approx.ftz.f32
 * and ex2.approx.f32 */
static void t_ex2_array_paths(void **s)
{
    (void)s;
    enum { N = 1 << 23 };
    float *in = malloc(sizeof(float) * N), *sc = malloc(sizeof(float) * N), *v = malloc(sizeof(float) * N);
    assert_non_null(in);
    assert_non_null(sc);
    assert_non_null(v);
    static const uint32_t exps[] = {127, 127 + 6, 127 - 3, 127 - 30};
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, -NAN,
                                    0x1p-149f, -0x1p-140f, 0x1p-126f, -0x1p-126f, 127.99999f,
                                    128.0f, -128.0f, -127.99999f, -126.0f, -126.00001f,
                                    -125.99999f, -149.5f, -150.0f, 200.0f, -200.0f, 1e30f, -1e30f};
    uint64_t r = 0x9e3779b97f4a7c15ull;
    int paths_run[4] = {0};
    for (int round = 0; round < 2 * 4 + 1; round++) {
        int n = N;
        if (round < 8) { /* one sign and exponent: every mantissa */
            uint32_t sign = (uint32_t)(round & 1) << 31, e = exps[round >> 1];
            for (uint32_t m = 0; m < N; m++)
                in[m] = from_bits(sign | e << 23 | m);
        } else {
            n = 1 << 20;
            for (int i = 0; i < n; i++) {
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                uint32_t u = (uint32_t)(r >> 17);
                in[i] = i % 16 == 0 ? special[u % (sizeof special / sizeof special[0])]
                                    : from_bits((uint32_t)(r >> 11));
            }
        }
        for (int full = 0; full < 2; full++) {
            assert_true(emu_mufu_ex2_array_path(sc, in, n, full, EMU_EX2_SCALAR));
            for (emu_ex2_path p = EMU_EX2_BITMAPS; p <= EMU_EX2_PACKED; p++) {
                if (!emu_mufu_ex2_array_path(v, in, n - 5, full, p))
                    continue; /* not on this CPU */
                paths_run[p]++;
                for (int i = 0; i < n - 5; i++)
                    if (fbits(v[i]) != fbits(sc[i]))
                        fail_msg("ex2 path %d (full %d) of %a: %08x, scalar %08x", (int)p, full,
                                 (double)in[i], fbits(v[i]), fbits(sc[i]));
            }
        }
    }
    printf("  ex2 array paths checked: bitmaps %d, packed %d rounds\n", paths_run[EMU_EX2_BITMAPS],
           paths_run[EMU_EX2_PACKED]);
    free(in);
    free(sc);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_ported_functions),
        cmocka_unit_test(t_special_values),
        cmocka_unit_test(t_powf),
        cmocka_unit_test(t_pow_asin_special),
        cmocka_unit_test(t_gpu_samples),
        cmocka_unit_test(t_ex2_model),
        cmocka_unit_test(t_exp2_vector_path),
        cmocka_unit_test(t_ex2_array_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
