/*
 * test_lint.c - each lint fires on the mistake it is for, at the line of
 * the op at fault, and stays quiet on the corrected kernel; the library's
 * kernels have no warnings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <math.h>
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
    tl_tensor rm = tl_arange(0, 16);
    tl_tensor rk = tl_arange(0, 32);
    line_of = __LINE__; tl_tensor a = tl_load(tl_add(tl_add(a_ptr, tl_mul(tl_idx(rm, ":, None"), 32)), tl_idx(rk, "None, :")), .mask = tl_lt(tl_idx(rk, "None, :"), K));
    tl_tensor b = tl_load(tl_add(tl_add(b_ptr, tl_mul(tl_idx(rk, ":, None"), 16)), tl_idx(rm, "None, :")), .mask = tl_lt(tl_idx(rk, ":, None"), K), .other = tl_c(0.0));
    tl_tensor c = tl_dot(a, b, .input_precision = "ieee");
    tl_store(tl_add(tl_add(c_ptr, tl_mul(tl_idx(rm, ":, None"), 16)), tl_idx(rm, "None, :")), c);
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


/* a store, then a load of other lanes of the same tensor: a race without a barrier */
TL_KERNEL(k_store_load, (x_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor m = tl_lt(offs, n);
    tl_store(tl_add(x_ptr, offs), 1.0, .mask = m);
    line_of = __LINE__; tl_tensor y = tl_load(tl_add(x_ptr, tl_sub(B - 1, offs)), .mask = m);
    tl_store(tl_add(tl_add(x_ptr, B), offs), y, .mask = m);
}

/* the same with tl.debug_barrier() between them, and a reload of the very lanes stored */
TL_KERNEL(k_store_load_ok, (x_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor m = tl_lt(offs, n);
    tl_store(tl_add(x_ptr, offs), 1.0, .mask = m);
    tl_tensor same = tl_load(tl_add(x_ptr, offs), .mask = m);
    tl_debug_barrier();
    tl_tensor y = tl_load(tl_add(x_ptr, tl_sub(B - 1, offs)), .mask = m);
    tl_store(tl_add(tl_add(x_ptr, B), offs), tl_add(y, same), .mask = m);
}

/* a loop whose store the next trip's load may read */
TL_KERNEL(k_store_load_loop, (x_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    TL_FOR(i, tl_range(0, n, 1)) {
        line_of = __LINE__; tl_tensor v = tl_load(tl_add(tl_add(x_ptr, i), offs));
        tl_store(tl_add(tl_add(x_ptr, tl_add(i, 1)), offs), tl_add(v, 1.0));
    }
}

/* rows gathered by a loaded index times a stride, in 32 bits */
TL_KERNEL(k_gather_rows, (idx_ptr, x_ptr, y_ptr, stride), (int, B))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor row = tl_load(tl_add(idx_ptr, pid));
    tl_tensor cols = tl_arange(0, B);
    line_of = __LINE__; tl_tensor x = tl_load(tl_add(tl_add(x_ptr, tl_mul(row, stride)), cols));
    tl_store(tl_add(tl_add(y_ptr, tl_mul(tl_to(pid, tl_int64), B)), cols), x);
}

/* a loaded index times a constant row length (a KV-cache slot) */
TL_KERNEL(k_gather_const, (idx_ptr, x_ptr, y_ptr), (int, B))
{
    tl_tensor pid = tl_to(tl_program_id(0), tl_int64);
    tl_tensor slot = tl_load(tl_add(idx_ptr, pid));
    tl_tensor cols = tl_arange(0, B);
    line_of = __LINE__; tl_tensor x = tl_load(tl_add(tl_add(x_ptr, tl_mul(slot, 4096)), cols));
    tl_store(tl_add(tl_add(y_ptr, tl_mul(pid, B)), cols), x);
}

/* a row's tail masked on the load, forgotten on the store */
TL_KERNEL(k_unmasked_store, (x_ptr, y_ptr, n_cols), (int, B))
{
    tl_tensor row = tl_to(tl_program_id(0), tl_int64);
    tl_tensor cols = tl_arange(0, B);
    tl_tensor mask = tl_lt(cols, n_cols);
    tl_tensor x = tl_load(tl_add(tl_add(x_ptr, tl_mul(row, n_cols)), cols), .mask = mask, .other = tl_c(0.0));
    line_of = __LINE__; tl_store(tl_add(tl_add(y_ptr, tl_mul(row, n_cols)), cols), tl_mul(x, 2.0));
}

/* a 2-D tile masked on its rows only */
TL_KERNEL(k_partial_mask, (x_ptr, y_ptr, M, N), (int, BM), (int, BN), (int, FULL))
{
    tl_tensor rm = tl_arange(0, BM);
    tl_tensor rn = tl_arange(0, BN);
    tl_tensor offs = tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"));
    tl_tensor mask = tl_and(tl_lt(tl_idx(rm, ":, None"), M), tl_lt(tl_idx(rn, "None, :"), N));
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = mask, .other = tl_c(0.0));
    if (FULL) /* the passing version */
        tl_store(tl_add(y_ptr, offs), x, .mask = mask);
    else
        line_of = __LINE__, tl_store(tl_add(y_ptr, offs), x, .mask = tl_lt(tl_idx(rm, ":, None"), M));
}

/* an accumulator reassigned in a loop that does not carry it */
TL_KERNEL(k_lost_acc, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor acc = tl_zeros(tl_shape(B), tl_float32);
    tl_tensor ptrs = tl_add(x_ptr, offs);
    TL_FOR(i, tl_range(0, n, 1), ptrs) {
        line_of = __LINE__; acc = tl_add(acc, tl_load(ptrs));
        ptrs = tl_add(ptrs, B);
    }
    tl_store(tl_add(y_ptr, offs), 0.0);
}

/* the same carried, and a branch that loses its update */
TL_KERNEL(k_lost_acc_ok, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor acc = tl_zeros(tl_shape(B), tl_float32);
    tl_tensor ptrs = tl_add(x_ptr, offs);
    TL_FOR(i, tl_range(0, n, 1), acc, ptrs) {
        acc = tl_add(acc, tl_load(ptrs));
        ptrs = tl_add(ptrs, B);
    }
    tl_store(tl_add(y_ptr, offs), acc);
}

TL_KERNEL(k_lost_if, (x_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    TL_IF(tl_gt(n, 0)) {
        line_of = __LINE__; x = tl_mul(x, 2.0);
    }
    tl_store(tl_add(tl_add(x_ptr, B), offs), 1.0);
}

/* used after the loop: the verifier names TL_FOR */
TL_KERNEL(k_lost_used_after, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor acc = tl_zeros(tl_shape(B), tl_float32);
    TL_FOR(i, tl_range(0, n, 1)) {
        acc = tl_add(acc, tl_load(tl_add(tl_add(x_ptr, tl_mul(i, B)), offs)));
    }
    tl_store(tl_add(y_ptr, offs), acc);
}

/* a max over a tail filled with 0, and the right fills */
TL_KERNEL(k_bad_fill, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    line_of = __LINE__; tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = tl_lt(offs, n), .other = tl_c(0.0));
    tl_store(y_ptr, tl_max(x, .axis = 0));
}

TL_KERNEL(k_bad_fill_sum, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    line_of = __LINE__; tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = tl_lt(offs, n), .other = tl_c(-INFINITY));
    tl_store(y_ptr, tl_sum(x, .axis = 0));
}

TL_KERNEL(k_good_fill, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = mask, .other = tl_c(-INFINITY));
    tl_tensor z = tl_load(tl_add(x_ptr, offs), .mask = mask, .other = tl_c(0.0));
    /* exp(-inf - max) is 0: a sum of it is right, and goes through arithmetic */
    tl_tensor e = tl_exp(tl_sub(x, tl_max(x, .axis = 0)));
    tl_store(y_ptr, tl_add(tl_sum(e, .axis = 0), tl_sum(z, .axis = 0)));
}

/* an atomic every lane aims at one counter */
TL_KERNEL(k_atomic_lanes, (cnt_ptr, x_ptr), (int, B))
{
    tl_tensor z = tl_zeros(tl_shape(B), tl_int32);
    line_of = __LINE__; tl_atomic_add(tl_add(cnt_ptr, z), 1);
}

TL_KERNEL(k_atomic_lanes_ok, (cnt_ptr, x_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_atomic_add(cnt_ptr, 1);
    tl_atomic_add(x_ptr, tl_sum(x, .axis = 0));
    /* one lane picked by the mask */
    tl_atomic_add(tl_add(cnt_ptr, tl_zeros(tl_shape(B), tl_int32)), 1, .mask = tl_eq(offs, 0));
}

/* a finding justified in the source */
TL_KERNEL(k_justified, (x_ptr, stride), (int, B))
{
    tl_tensor row = tl_program_id(0);
    tl_tensor p = tl_add(x_ptr, tl_mul(row, stride)); /* lint-ok: int32-offset rows * stride < 2**31 here */
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


static void t_store_load(void **s)
{
    expect_one(&k_store_load, "*fp32 i32", "B=64", "[store-load]", CT_WARNING);
    expect_one(&k_store_load_loop, "*fp32 i32", "B=64", "[store-load]", CT_WARNING);
    expect_none(&k_store_load_ok, "*fp32 i32", "B=64");
}

static void t_int32_loaded_index(void **s)
{
    expect_one(&k_gather_rows, "*i32 *fp32 *fp32 i32", "B=64", "[int32-offset]", CT_NOTE);
    expect_one(&k_gather_const, "*i32 *fp32 *fp32", "B=64", "[int32-offset]", CT_NOTE);
    /* 64-bit indices, or a 64-bit stride: nothing to wrap */
    expect_none(&k_gather_rows, "*i64 *fp32 *fp32 i32", "B=64");
    expect_none(&k_gather_rows, "*i32 *fp32 *fp32 i64", "B=64");
    expect_none(&k_gather_const, "*i64 *fp32 *fp32", "B=64");
}

static void t_unmasked_dim(void **s)
{
    expect_one(&k_unmasked_store, "*fp32 *fp32 i32", "B=64", "[unmasked-dim]", CT_WARNING);
    expect_one(&k_partial_mask, "*fp32 *fp32 i32 i32", "BM=16 BN=32 FULL=0", "[unmasked-dim]",
               CT_WARNING);
    expect_none(&k_partial_mask, "*fp32 *fp32 i32 i32", "BM=16 BN=32 FULL=1");
    expect_none(&k_masked_sum_ok, "*fp32 *fp32 i32", "B=64");
}

static void t_lost_update(void **s)
{
    expect_one(&k_lost_acc, "*fp32 *fp32 i32", "B=64", "[lost-update]", CT_WARNING);
    expect_one(&k_lost_if, "*fp32 i32", "B=64", "[lost-update]", CT_WARNING);
    expect_none(&k_lost_acc_ok, "*fp32 *fp32 i32", "B=64");
    /* used after the loop: refused, and the message says what to list */
    ct_diags d;
    ct_diags_init(&d);
    assert_null(tl_build(&k_lost_used_after, "*fp32 *fp32 i32", "B=64", NULL, &d));
    const char *e = ct_diags_first_error(&d);
    assert_non_null(e);
    assert_non_null(strstr(e, "acc is reassigned inside TL_FOR but not listed as carried"));
    ct_diags_free(&d);
}

static void t_reduce_fill(void **s)
{
    expect_one(&k_bad_fill, "*fp32 *fp32 i32", "B=64", "[reduce-fill]", CT_WARNING);
    expect_one(&k_bad_fill_sum, "*fp32 *fp32 i32", "B=64", "[reduce-fill]", CT_WARNING);
    expect_none(&k_good_fill, "*fp32 *fp32 i32", "B=64");
}

static void t_atomic_same_address(void **s)
{
    expect_one(&k_atomic_lanes, "*i32 *fp32", "B=64", "[atomic-same-address]", CT_WARNING);
    expect_none(&k_atomic_lanes_ok, "*i32 *fp32", "B=64");
}

static void t_justified(void **s)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(&k_justified, "*fp32 i32", "B=64", NULL, &d);
    assert_non_null(m);
    ct_lint_module(m, &d);
    assert_int_equal(count(&d, "[int32-offset]"), 1); /* without the sources: reported */
    ct_diags_free(&d);
    ct_diags_init(&d);
    ct_lint_opts o = {.read_sources = true, .source_root = CTRITON_SOURCE_DIR};
    ct_lint_module_ex(m, &o, &d);
    assert_int_equal(d.n, 0);
    assert_int_equal(o.justified, 1);
    o.show_justified = true;
    ct_lint_module_ex(m, &o, &d);
    assert_int_equal(d.n, 1);
    assert_int_equal(d.items[0].severity, CT_NOTE);
    assert_non_null(strstr(d.items[0].message, "justified: [int32-offset]"));
    ct_diags_free(&d);
    ct_module_destroy(m);
}

static void t_library_is_clean(void **s)
{
    /* the library's and the conformance kernels: no finding, notes included, that is
     * not justified in the kernel's source */
    const ct_kernel_entry *ks[256];
    int n = tu_kernels(ks, 256, true);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < ks[i]->nconfigs; c++) {
            ct_diags d;
            ct_diags_init(&d);
            ct_module *m = tl_build_config(ks[i]->def, &ks[i]->configs[c], &d);
            assert_non_null(m);
            ct_lint_opts o = {.read_sources = true, .source_root = CTRITON_SOURCE_DIR};
            ct_lint_module_ex(m, &o, &d);
            if (d.n) {
                print_error("%s/%s:\n", ks[i]->def->name, ks[i]->configs[c].name);
                ct_diags_print(&d, stderr, false);
                fail();
            }
            ct_module_destroy(m);
            ct_diags_free(&d);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_masked_reduce), cmocka_unit_test(t_unused_load),
        cmocka_unit_test(t_div_by_zero),   cmocka_unit_test(t_int32_offset),
        cmocka_unit_test(t_store_load),    cmocka_unit_test(t_int32_loaded_index),
        cmocka_unit_test(t_unmasked_dim),  cmocka_unit_test(t_lost_update),
        cmocka_unit_test(t_reduce_fill),   cmocka_unit_test(t_atomic_same_address),
        cmocka_unit_test(t_justified),     cmocka_unit_test(t_library_is_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
