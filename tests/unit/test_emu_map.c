/*
 * test_emu_map.c - tt.map_elementwise on the emulator, from the TTIR Triton 3.6 writes
 * (tests/unit/data/map_elementwise/, made by gen.py there): raw (the scalar function a
 * tt.call in the region) and after Triton's passes (inlined: branches inside the region),
 * for a SELU with a branch per element (pack 1, a scalar captured from outside the region)
 * and for a function of two elements of each input returning two results (pack 2).  Both
 * forms must give the C reference's bits; malformed regions are refused with the line.
 * The C port (tl_map_elementwise, conformance kernel ops_map_elementwise) and Python's
 * golden TTIR of the same kernel give the same bits too.
 */
#include <math.h>

#include "ctriton/text.h"
#include "emu/emu_internal.h"
#include "emu_test.h"
#include "kernels_testutil.h"

static const char *src_dir(void)
{
    const char *s = getenv("CTRITON_SOURCE_DIR");
    return s ? s : CTRITON_SOURCE_DIR;
}

static ct_emu_kernel *load_kernel(const char *name, ct_diags *d)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/unit/data/map_elementwise/%s", src_dir(), name);
    ct_module *m = ct_parse_file(path, d);
    if (!m) {
        ct_diags_print(d, stderr, true);
        return NULL;
    }
    ct_emu_kernel *k = ct_emu_compile(m, NULL, d);
    ct_module_destroy(m);
    return k;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

enum { N = 256 };

static void fill(float *x, uint64_t seed)
{
    for (int i = 0; i < N; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (float)((double)(seed >> 40) * 0x1p-24 * 8.0 - 4.0);
    }
    x[3] = 0.0f;
    x[4] = -0.0f;
    x[5] = -100.0f;
}

static void t_selu(void **s)
{
    (void)s;
    static const char *const forms[] = {"selu.raw.ttir", "selu.ttir"};
    float x[N], y[N];
    fill(x, 1);
    const float alpha = 1.6732632f;
    for (int f = 0; f < 2; f++) {
        ct_diags d;
        ct_diags_init(&d);
        ct_emu_kernel *k = load_kernel(forms[f], &d);
        if (!k)
            ct_diags_print(&d, stderr, true);
        assert_non_null(k);
        ct_diags_free(&d);
        ct_emu *e = ct_emu_new();
        ct_emu_arg a[] = {ct_emu_ptr(ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN)),
                          ct_emu_ptr(ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_OUT)),
                          ct_emu_float(alpha)};
        ct_emu_result r;
        assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 3, a, &r), CT_EMU_OK);
        for (int i = 0; i < N; i++) {
            /* x > 0 ? x : alpha * (exp(x) - 1), exp as Triton lowers it */
            float want = x[i] > 0 ? x[i] : alpha * (emu_exp_nv(x[i]) - 1.0f);
            if (fbits(y[i]) != fbits(want))
                fail_msg("%s: selu(%a) = %a, want %a", forms[f], (double)x[i], (double)y[i],
                         (double)want);
        }
        ct_emu_free(e);
        ct_emu_kernel_free(k);
    }
}

static void t_pack2_two_results(void **s)
{
    (void)s;
    static const char *const forms[] = {"pair.raw.ttir", "pair.ttir"};
    float x[N], y[N], sres[N], pres[N];
    fill(x, 2);
    fill(y, 3);
    for (int f = 0; f < 2; f++) {
        ct_diags d;
        ct_diags_init(&d);
        ct_emu_kernel *k = load_kernel(forms[f], &d);
        assert_non_null(k);
        ct_diags_free(&d);
        ct_emu *e = ct_emu_new();
        ct_emu_arg a[] = {ct_emu_ptr(ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN)),
                          ct_emu_ptr(ct_emu_add_buffer(e, "y", y, sizeof y, CT_EMU_F32, CT_EMU_IN)),
                          ct_emu_ptr(ct_emu_add_buffer(e, "s", sres, sizeof sres, CT_EMU_F32, CT_EMU_OUT)),
                          ct_emu_ptr(ct_emu_add_buffer(e, "p", pres, sizeof pres, CT_EMU_F32, CT_EMU_OUT))};
        ct_emu_result r;
        assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 4, a, &r), CT_EMU_OK);
        for (int i = 0; i < N; i += 2) {
            /* one call takes elements i and i + 1 and returns (s_i, s_i+1, p_i, p_i+1) */
            float s0 = x[i] > y[i] ? x[i] - y[i] : y[i] - x[i], s1 = x[i + 1] + y[i + 1];
            float p0 = x[i] * y[i], p1 = x[i + 1] * y[i + 1];
            if (fbits(sres[i]) != fbits(s0) || fbits(sres[i + 1]) != fbits(s1) ||
                fbits(pres[i]) != fbits(p0) || fbits(pres[i + 1]) != fbits(p1))
                fail_msg("%s: elements %d, %d: s %a %a p %a %a, want %a %a %a %a", forms[f], i,
                         i + 1, (double)sres[i], (double)sres[i + 1], (double)pres[i],
                         (double)pres[i + 1], (double)s0, (double)s1, (double)p0, (double)p1);
        }
        ct_emu_free(e);
        ct_emu_kernel_free(k);
    }
}

/* gen.py's selu_kernel in C, its helper returning from both branches (TL_RETURN) as the
 * Python one does: a callee with several blocks inside the region */
TL_JIT(selu_ret, (x, alpha))
{
    TL_IF(tl_gt(x, 0)) {
        TL_RETURN(x);
    } TL_ELSE {
        TL_RETURN(tl_mul(alpha, tl_sub(tl_exp(x), 1)));
    }
    return TL_NONE;
}

TL_KERNEL(selu_kernel, (x_ptr, y_ptr, alpha), (int, NN))
{
    tl_tensor offs = tl_arange(0, NN);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor y = tl_map_elementwise(selu_ret, (x, alpha));
    tl_store(tl_add(y_ptr, offs), y);
}

static void t_c_early_return(void **s)
{
    (void)s;
    float x[N], y[N], yp[N];
    fill(x, 6);
    const float alpha = 0.75f;
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(&selu_kernel, "x_ptr=*fp32 y_ptr=*fp32 alpha=fp32", "NN=256", NULL, &d);
    if (!m)
        ct_diags_print(&d, stderr, true);
    assert_non_null(m);
    /* the callee branches and returns twice, as Python's (tests/.../selu.raw.ttir) */
    char *text = ct_print_module(m, 0);
    assert_non_null(strstr(text, "cf.cond_br"));
    assert_non_null(strstr(text, "ub.poison"));
    free(text);
    ct_emu_kernel *k = ct_emu_compile(m, NULL, &d);
    ct_module_destroy(m);
    ct_emu_kernel *kp = load_kernel("selu.raw.ttir", &d);
    ct_diags_free(&d);
    assert_non_null(k);
    assert_non_null(kp);
    for (int which = 0; which < 2; which++) {
        ct_emu *e = ct_emu_new();
        float *out = which ? yp : y;
        ct_emu_arg a[] = {ct_emu_ptr(ct_emu_add_buffer(e, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN)),
                          ct_emu_ptr(ct_emu_add_buffer(e, "y", out, sizeof y, CT_EMU_F32, CT_EMU_OUT)),
                          ct_emu_float(alpha)};
        ct_emu_result r;
        assert_int_equal(emu_go(e, which ? kp : k, 1, 1, 1, 1, 3, a, &r), CT_EMU_OK);
        ct_emu_free(e);
    }
    for (int i = 0; i < N; i++) {
        float want = x[i] > 0 ? x[i] : alpha * (emu_exp_nv(x[i]) - 1.0f);
        if (fbits(y[i]) != fbits(want) || fbits(yp[i]) != fbits(want))
            fail_msg("element %d: C %a, Python %a, want %a", i, (double)y[i], (double)yp[i],
                     (double)want);
    }
    ct_emu_kernel_free(k);
    ct_emu_kernel_free(kp);
}

/* ops_map_elementwise: s = selu(x, alpha), p = pair's s * p; the C port and Python's TTIR */
static void run_conformance(ct_module *m, const float *x, const float *y, float alpha, float *so,
                            float *po)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_emu_kernel *k = m ? ct_emu_compile(m, "ops_map_elementwise", &d) : NULL;
    if (!k)
        ct_diags_print(&d, stderr, true);
    assert_non_null(k);
    ct_diags_free(&d);
    ct_emu *e = ct_emu_new();
    ct_emu_arg a[] = {
        ct_emu_ptr(ct_emu_add_buffer(e, "x", (void *)x, sizeof(float) * N, CT_EMU_F32, CT_EMU_IN)),
        ct_emu_ptr(ct_emu_add_buffer(e, "y", (void *)y, sizeof(float) * N, CT_EMU_F32, CT_EMU_IN)),
        ct_emu_ptr(ct_emu_add_buffer(e, "s", so, sizeof(float) * N, CT_EMU_F32, CT_EMU_OUT)),
        ct_emu_ptr(ct_emu_add_buffer(e, "p", po, sizeof(float) * N, CT_EMU_F32, CT_EMU_OUT)),
        ct_emu_float(alpha)};
    ct_emu_result r;
    assert_int_equal(emu_go(e, k, 1, 1, 1, 1, 5, a, &r), CT_EMU_OK);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

static void t_c_port(void **s)
{
    (void)s;
    const ct_kernel_entry *ke = tu_kernel("ops_map_elementwise");
    assert_non_null(ke);
    const tl_config *cfg = ct_kernel_config(ke, "B256");
    assert_non_null(cfg);
    float x[N], y[N], s1[N], p1[N], s2[N], p2[N];
    fill(x, 4);
    fill(y, 5);
    const float alpha = 1.5f;
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(ke->def, cfg, &d);
    if (!m)
        ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    run_conformance(m, x, y, alpha, s1, p1);
    ct_module_destroy(m);
    for (int i = 0; i < N; i += 2) {
        float s0 = x[i] > y[i] ? x[i] - y[i] : y[i] - x[i], sv1 = x[i + 1] + y[i + 1];
        for (int q = 0; q < 2; q++) {
            float xv = x[i + q];
            float selu = xv > 0 ? xv : alpha * (emu_exp_nv(xv) - 1.0f);
            float pv = (q ? sv1 : s0) * (x[i + q] * y[i + q]);
            if (fbits(s1[i + q]) != fbits(selu) || fbits(p1[i + q]) != fbits(pv))
                fail_msg("C port, element %d: %a %a, want %a %a", i + q, (double)s1[i + q],
                         (double)p1[i + q], (double)selu, (double)pv);
        }
    }
    static const char *const forms[] = {"py.source", "py.ttir"};
    for (int f = 0; f < 2; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tests/golden/ops_map_elementwise/B256/%s", src_dir(),
                 forms[f]);
        ct_diags_init(&d);
        ct_module *py = ct_parse_file(path, &d);
        if (!py)
            ct_diags_print(&d, stderr, true);
        ct_diags_free(&d);
        run_conformance(py, x, y, alpha, s2, p2);
        ct_module_destroy(py);
        assert_memory_equal(s1, s2, sizeof s1);
        assert_memory_equal(p1, p2, sizeof p1);
    }
}

/* a region whose arguments do not match pack x operands is refused with its line */
static void t_malformed(void **s)
{
    (void)s;
    static const char text[] =
        "module {\n"
        "  tt.func public @k(%x: !tt.ptr<f32>) {\n"
        "    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>\n"
        "    %p = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>\n"
        "    %q = tt.addptr %p, %r : tensor<4x!tt.ptr<f32>>, tensor<4xi32>\n"
        "    %v = tt.load %q : tensor<4x!tt.ptr<f32>>\n"
        "    %m = \"tt.map_elementwise\"(%v) <{pack = 2 : i32}> ({\n"
        "    ^bb0(%a: f32):\n"
        "      tt.map_elementwise.return %a : f32\n"
        "    }) : (tensor<4xf32>) -> tensor<4xf32> loc(\"bad.py\":7:3)\n"
        "    tt.store %q, %m : tensor<4x!tt.ptr<f32>>\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(text, sizeof text - 1, "bad.ttir", &d);
    if (!m) { /* the parser may refuse it first: then it names the place */
        assert_true(d.nerrors > 0);
        ct_diags_free(&d);
        return;
    }
    ct_emu_kernel *k = ct_emu_compile(m, NULL, &d);
    assert_null(k);
    bool named = false;
    for (int i = 0; i < d.n; i++)
        named |= strstr(d.items[i].message, "map_elementwise") != NULL && d.items[i].line == 7;
    if (!named)
        ct_diags_print(&d, stderr, true);
    assert_true(named);
    ct_diags_free(&d);
    ct_module_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_selu),
        cmocka_unit_test(t_pack2_two_results),
        cmocka_unit_test(t_c_port),
        cmocka_unit_test(t_c_early_return),
        cmocka_unit_test(t_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
