/*
 * test_emu_mathfn.c - the ports of libdevice's f32 functions (src/emu/mathfn.c)
 * against the correctly rounded result (double precision libm), over millions
 * of inputs: a mistyped constant or a wrong branch shows as a large error.
 * The bounds are CUDA's documented maximum errors for these functions
 * (logf, log2f 1 ulp; sinf, cosf 2 ulp in the full range; erff 2 ulp; tanhf
 * 2 ulp), which the ported instruction sequences must meet too.
 */
#include <math.h>

#include "emu_test.h"

float emu_logf_nv(float x);
float emu_log2f_nv(float x);
float emu_sinf_nv(float x);
float emu_cosf_nv(float x);
float emu_erff_nv(float x);
float emu_tanhf_nv(float x);

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_ported_functions),
        cmocka_unit_test(t_special_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
