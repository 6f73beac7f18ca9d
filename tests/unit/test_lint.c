/*
 * test_lint.c - each lint fires on the mistake it is for, at the line of
 * the op at fault, and stays quiet on the corrected kernel; the library's
 * kernels have no warnings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/check.h"
#include "kernels_testutil.h"

static int line_of;

/* a masked load without `other` summed */
TL_KERNEL(k_masked_sum, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    line_of = __LINE__; tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = tl_lt(offs, n));
    tl_tensor y = tl_mul(tl_exp(x), 2.0);
    tl_store(y_ptr, tl_sum(y, .axis = 0));
}

/* the same with `other`, and with tl.where: both fine */
TL_KERNEL(k_masked_sum_ok, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = mask, .other = tl_c(0.0));
    tl_tensor z = tl_load(tl_add(x_ptr, offs), .mask = mask);
    tl_tensor w = tl_where(mask, z, 0.0);
    tl_store(y_ptr, tl_add(tl_sum(x, .axis = 0), tl_sum(w, .axis = 0)));
}

/* a masked load without `other` into a dot */
TL_KERNEL(k_masked_dot, (a_ptr, b_ptr, c_ptr, K))
{
    tl_tensor r = tl_arange(0, 16);
    line_of = __LINE__; tl_tensor a = tl_load(tl_add(tl_add(a_ptr, tl_mul(tl_idx(r, ":, None"), 16)), tl_idx(r, "None, :")), .mask = tl_lt(tl_idx(r, "None, :"), K));
    tl_tensor b = tl_load(tl_add(tl_add(b_ptr, tl_mul(tl_idx(r, ":, None"), 16)), tl_idx(r, "None, :")));
    tl_tensor c = tl_dot(a, b, .input_precision = "ieee");
    tl_store(tl_add(tl_add(c_ptr, tl_mul(tl_idx(r, ":, None"), 16)), tl_idx(r, "None, :")), c);
}

/* a load whose value is dropped */
TL_KERNEL(k_unused_load, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    line_of = __LINE__; tl_load(tl_add(x_ptr, offs));
    tl_store(tl_add(y_ptr, offs), 1.0);
}

/* integer division by zero */
TL_KERNEL(k_div_zero, (x_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    line_of = __LINE__; tl_tensor q = tl_floordiv(offs, 0);
    tl_store(tl_add(x_ptr, offs), q);
}

/* 32-bit row offsets, and the int64 fix */
TL_KERNEL(k_row_offset, (x_ptr, stride), (int, B))
{
    tl_tensor row = tl_program_id(0);
    line_of = __LINE__; tl_tensor p = tl_add(x_ptr, tl_mul(row, stride));
    tl_store(tl_add(p, tl_arange(0, B)), 1.0);
}

TL_KERNEL(k_row_offset64, (x_ptr, stride), (int, B))
{
    tl_tensor row = tl_to(tl_program_id(0), tl_int64);
    tl_tensor p = tl_add(x_ptr, tl_mul(row, stride));
    tl_store(tl_add(p, tl_arange(0, B)), 1.0);
}

/* Builds and lints; returns the diagnostics. */
static ct_diags lint(const tl_kernel_def *k, const char *sig, const char *cx)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(k, sig, cx, NULL, &d);
    assert_non_null(m);
    ct_lint_module(m, &d);
    ct_module_destroy(m);
    return d;
}

static int count(const ct_diags *d, const char *id)
{
    int n = 0;
    for (int i = 0; i < d->n; i++)
        if (strstr(d->items[i].message, id))
            n++;
    return n;
}

static void expect_one(const tl_kernel_def *k, const char *sig, const char *cx, const char *id,
                       ct_severity sev)
{
    line_of = 0;
    ct_diags d = lint(k, sig, cx);
    if (d.n != 1)
        ct_diags_print(&d, stderr, false);
    assert_int_equal(d.n, 1);
    assert_non_null(strstr(d.items[0].message, id));
    assert_int_equal(d.items[0].severity, sev);
    assert_string_equal(d.items[0].file, "tests/unit/test_lint.c");
    assert_int_equal(d.items[0].line, line_of);
    ct_diags_free(&d);
}

static void expect_none(const tl_kernel_def *k, const char *sig, const char *cx)
{
    ct_diags d = lint(k, sig, cx);
    if (d.n)
        ct_diags_print(&d, stderr, false);
    assert_int_equal(d.n, 0);
    ct_diags_free(&d);
}

static void t_masked_reduce(void **s)
{
    expect_one(&k_masked_sum, "*fp32 *fp32 i32", "B=64", "[masked-reduce]", CT_WARNING);
    expect_one(&k_masked_dot, "*fp16 *fp16 *fp32 i32", "", "[masked-reduce]", CT_WARNING);
    expect_none(&k_masked_sum_ok, "*fp32 *fp32 i32", "B=64");
}

static void t_unused_load(void **s)
{
    expect_one(&k_unused_load, "*fp32 *fp32", "B=64", "[unused-load]", CT_WARNING);
}

static void t_div_by_zero(void **s)
{
    expect_one(&k_div_zero, "*i32", "B=64", "[div-by-zero]", CT_WARNING);
}

static void t_int32_offset(void **s)
{
    expect_one(&k_row_offset, "*fp32 i32", "B=64", "[int32-offset]", CT_NOTE);
    expect_none(&k_row_offset64, "*fp32 i32", "B=64");
    /* an i64 stride makes the product 64-bit already */
    expect_none(&k_row_offset, "*fp32 i64", "B=64");
}

static void t_library_has_no_warnings(void **s)
{
    const ct_kernel_entry *ks[256];
    int n = tu_kernels(ks, 256, true);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < ks[i]->nconfigs; c++) {
            ct_diags d;
            ct_diags_init(&d);
            ct_module *m = tl_build_config(ks[i]->def, &ks[i]->configs[c], &d);
            assert_non_null(m);
            if (!ct_lint_module(m, &d)) {
                print_error("%s/%s:\n", ks[i]->def->name, ks[i]->configs[c].name);
                ct_diags_print(&d, stderr, false);
                fail();
            }
            assert_int_equal(count(&d, "[masked-reduce]") + count(&d, "[unused-load]"), 0);
            ct_module_destroy(m);
            ct_diags_free(&d);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_masked_reduce), cmocka_unit_test(t_unused_load),
        cmocka_unit_test(t_div_by_zero),   cmocka_unit_test(t_int32_offset),
        cmocka_unit_test(t_library_has_no_warnings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
