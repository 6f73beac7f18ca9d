/*
 * test_verify.c - the structural verifier: every kernel the language builds
 * (library and conformance, every config) verifies clean, and each class of
 * malformed IR built by hand is reported with the op name and the rule.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ctriton/check.h"
#include "ctriton/text.h"
#include "kernels_testutil.h"

/* ---- everything the language emits verifies ---------------------- */

static void test_all_kernels_verify(void **state)
{
    const ct_kernel_entry *ks[256];
    int n = tu_kernels(ks, 256, true);
    int checked = 0;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < ks[i]->nconfigs; c++) {
            ct_diags d;
            ct_diags_init(&d);
            ct_module *m = tl_build_config(ks[i]->def, &ks[i]->configs[c], &d);
            assert_non_null(m);
            bool ok = ct_verify_module(m, &d);
            if (!ok) {
                print_error("%s/%s:\n", ks[i]->def->name, ks[i]->configs[c].name);
                ct_diags_print(&d, stderr, false);
            }
            assert_true(ok);
            ct_module_destroy(m);
            ct_diags_free(&d);
            checked++;
        }
    assert_true(checked >= 39);
}

/* Python's own TTIR must pass too (no false positives): every golden's raw frontend output
 * and its TTIR after Triton's passes, and the map_elementwise inputs of test_emu_map (branches
 * inside the region once Triton inlined an early-returning scalar function). */
static void verify_file(const char *path, int *checked)
{
    if (access(path, F_OK) != 0)
        return; /* a config without a golden (yet) */
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_file(path, &d);
    if (!m) {
        /* the parser verifies: a golden it refuses is a failure, never a skip */
        print_error("%s: does not parse:\n", path);
        ct_diags_print(&d, stderr, false);
        ct_diags_free(&d);
        fail();
    }
    bool ok = ct_verify_module(m, &d);
    if (!ok) {
        print_error("%s:\n", path);
        ct_diags_print(&d, stderr, false);
    }
    assert_true(ok);
    ct_module_destroy(m);
    ct_diags_free(&d);
    (*checked)++;
}

static void test_python_ttir_verifies(void **state)
{
    (void)state;
    const char *src = getenv("CTRITON_SOURCE_DIR") ? getenv("CTRITON_SOURCE_DIR") : CTRITON_SOURCE_DIR;
    int checked = 0;
    const ct_kernel_entry *ks[256];
    int n = tu_kernels(ks, 256, true);
    char path[4096];
    for (int i = 0; i < n; i++)
        for (int c = 0; c < ks[i]->nconfigs; c++)
            for (int w = 0; w < 2; w++) {
                snprintf(path, sizeof path, "%s/tests/golden/%s/%s/%s", src, ks[i]->def->name,
                         ks[i]->configs[c].name, w ? "py.ttir" : "py.source");
                verify_file(path, &checked);
            }
    static const char *const me[] = {"selu.raw.ttir", "selu.ttir", "pair.raw.ttir", "pair.ttir"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/tests/unit/data/map_elementwise/%s", src, me[i]);
        verify_file(path, &checked);
    }
    assert_true(checked >= 100);
}

/* ---- hand-built malformed IR ------------------------------------- */

typedef struct fixture {
    ct_module *m;
    ct_op *func;
    ct_block *entry;
    const ct_type *i1, *i32, *f16, *f32, *pf32, *t64f32, *t64i32, *t64i1, *t64pf32;
} fixture;

static const ct_loc *L(fixture *f, int line) { return ct_loc_file(f->m, "k.ttir", line, 3); }

/* A module with one tt.func taking (ptr<f32>, i32) and returning nothing. */
static void make(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->m = ct_module_new();
    ct_module *m = f->m;
    f->i1 = ct_type_int(m, 1);
    f->i32 = ct_type_int(m, 32);
    f->f16 = ct_type_float(m, CT_F16);
    f->f32 = ct_type_float(m, CT_F32);
    f->pf32 = ct_type_ptr(m, f->f32, 1);
    int64_t s64[] = {64};
    f->t64f32 = ct_type_tensor(m, f->f32, 1, s64);
    f->t64i32 = ct_type_tensor(m, f->i32, 1, s64);
    f->t64i1 = ct_type_tensor(m, f->i1, 1, s64);
    f->t64pf32 = ct_type_tensor(m, f->pf32, 1, s64);
    const ct_type *ins[] = {f->pf32, f->i32};
    f->func = ct_op_new(m, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1, L(f, 1));
    ct_op_set_attr(m, f->func, "sym_name", ct_attr_str(m, "k"));
    ct_op_set_attr(m, f->func, "function_type",
                   ct_attr_type(m, ct_type_func(m, 2, ins, 0, NULL)));
    f->entry = ct_block_new(m);
    ct_region_append(ct_op_region(f->func, 0), f->entry);
    ct_block_add_arg(m, f->entry, f->pf32, L(f, 1));
    ct_block_add_arg(m, f->entry, f->i32, L(f, 1));
    ct_module_append_func(m, f->func);
}

static ct_op *add(fixture *f, ct_block *b, ct_opcode c, int nin, ct_value *const *in,
                  const ct_type *rt, int line)
{
    ct_op *op = ct_op_new(f->m, c, nin, in, rt ? 1 : 0, rt ? &rt : NULL, 0, L(f, line));
    ct_block_append(b, op);
    return op;
}

static ct_value *range64(fixture *f, int line)
{
    ct_op *r = add(f, f->entry, CT_OP_TT_MAKE_RANGE, 0, NULL, f->t64i32, line);
    ct_op_set_attr(f->m, r, "start", ct_attr_int(f->m, f->i32, 0));
    ct_op_set_attr(f->m, r, "end", ct_attr_int(f->m, f->i32, 64));
    return ct_op_result(r, 0);
}

static ct_value *ptrs64(fixture *f, int line)
{
    ct_value *p = f->entry->args[0];
    ct_value *sp = ct_op_result(add(f, f->entry, CT_OP_TT_SPLAT, 1, &p, f->t64pf32, line), 0);
    ct_value *in[] = {sp, range64(f, line)};
    return ct_op_result(add(f, f->entry, CT_OP_TT_ADDPTR, 2, in, f->t64pf32, line), 0);
}

static void ret(fixture *f) { add(f, f->entry, CT_OP_TT_RETURN, 0, NULL, NULL, 99); }

/* Verifies, expects exactly one error at `line` whose message has `needle`. */
static void expect_error(fixture *f, int line, const char *needle)
{
    ct_diags d;
    ct_diags_init(&d);
    bool ok = ct_verify_module(f->m, &d);
    if (ok || d.nerrors != 1 || !strstr(d.items[0].message, needle) || d.items[0].line != line) {
        ct_diags_print(&d, stderr, false);
        char *s = ct_print_module(f->m, 0);
        print_error("wanted one error at line %d containing \"%s\" in:\n%s", line, needle, s);
        free(s);
    }
    assert_false(ok);
    assert_int_equal(d.nerrors, 1);
    assert_int_equal(d.items[0].line, line);
    assert_string_equal(d.items[0].file, "k.ttir");
    assert_non_null(strstr(d.items[0].message, needle));
    ct_diags_free(&d);
    ct_module_destroy(f->m);
}

static void expect_clean(fixture *f)
{
    ct_diags d;
    ct_diags_init(&d);
    bool ok = ct_verify_module(f->m, &d);
    if (!ok)
        ct_diags_print(&d, stderr, false);
    assert_true(ok);
    ct_diags_free(&d);
    ct_module_destroy(f->m);
}

static void test_wellformed_load_store(void **state)
{
    fixture f;
    make(&f);
    ct_value *p = ptrs64(&f, 2);
    ct_value *x = ct_op_result(add(&f, f.entry, CT_OP_TT_LOAD, 1, &p, f.t64f32, 3), 0);
    ct_value *in[] = {p, x};
    add(&f, f.entry, CT_OP_TT_STORE, 2, in, NULL, 4);
    ret(&f);
    expect_clean(&f);
}

static void test_load_result_not_pointee(void **state)
{
    fixture f;
    make(&f);
    ct_value *p = ptrs64(&f, 2);
    int64_t s64[] = {64};
    const ct_type *t64f16 = ct_type_tensor(f.m, f.f16, 1, s64);
    add(&f, f.entry, CT_OP_TT_LOAD, 1, &p, t64f16, 7);
    ret(&f);
    expect_error(&f, 7, "is not the pointee");
}

static void test_store_mask_not_i1(void **state)
{
    fixture f;
    make(&f);
    ct_value *p = ptrs64(&f, 2);
    ct_value *x = ct_op_result(add(&f, f.entry, CT_OP_TT_LOAD, 1, &p, f.t64f32, 3), 0);
    ct_value *offs = range64(&f, 4);
    ct_value *in[] = {p, x, offs};
    add(&f, f.entry, CT_OP_TT_STORE, 3, in, NULL, 5);
    ret(&f);
    expect_error(&f, 5, "mask");
}

static void test_binary_type_mismatch(void **state)
{
    fixture f;
    make(&f);
    ct_value *r = range64(&f, 2);
    ct_value *in[] = {r, f.entry->args[1]};
    add(&f, f.entry, CT_OP_ARITH_ADDI, 2, in, f.t64i32, 8);
    ret(&f);
    expect_error(&f, 8, "operand 1 has type i32");
}

static void test_float_op_on_ints(void **state)
{
    fixture f;
    make(&f);
    ct_value *r = range64(&f, 2);
    add(&f, f.entry, CT_OP_MATH_EXP, 1, &r, f.t64i32, 9);
    ret(&f);
    expect_error(&f, 9, "floating-point");
}

static void test_use_before_def(void **state)
{
    fixture f;
    make(&f);
    /* %1 = arith.addi %0, %0 placed before %0's definition */
    ct_op *def = ct_op_new(f.m, CT_OP_ARITH_ADDI, 2,
                           (ct_value *[]){f.entry->args[1], f.entry->args[1]}, 1, &f.i32, 0,
                           L(&f, 11));
    ct_value *v = ct_op_result(def, 0);
    add(&f, f.entry, CT_OP_ARITH_MULI, 2, (ct_value *[]){v, v}, f.i32, 10);
    ct_block_append(f.entry, def);
    ret(&f);
    expect_error(&f, 10, "does not dominate");
}

static void test_for_yield_type(void **state)
{
    fixture f;
    make(&f);
    ct_value *n = f.entry->args[1];
    ct_op *c = add(&f, f.entry, CT_OP_ARITH_CONSTANT, 0, NULL, f.f32, 2);
    ct_op_set_attr(f.m, c, "value", ct_attr_float(f.m, f.f32, 0.0));
    ct_value *init = ct_op_result(c, 0);
    ct_value *ops[] = {n, n, n, init};
    ct_op *loop = ct_op_new(f.m, CT_OP_SCF_FOR, 4, ops, 1, &f.f32, 1, L(&f, 12));
    ct_block_append(f.entry, loop);
    ct_block *body = ct_block_new(f.m);
    ct_region_append(ct_op_region(loop, 0), body);
    ct_value *iv = ct_block_add_arg(f.m, body, f.i32, L(&f, 12));
    ct_block_add_arg(f.m, body, f.f32, L(&f, 12));
    add(&f, body, CT_OP_SCF_YIELD, 1, &iv, NULL, 13); /* yields the i32 counter */
    ret(&f);
    expect_error(&f, 13, "the enclosing scf.for expects f32");
}

static void test_missing_terminator(void **state)
{
    fixture f;
    make(&f);
    range64(&f, 14);
    expect_error(&f, 14, "does not end with a terminator");
}

static void test_call_undefined(void **state)
{
    fixture f;
    make(&f);
    ct_op *call = add(&f, f.entry, CT_OP_TT_CALL, 0, NULL, NULL, 15);
    ct_op_set_attr(f.m, call, "callee", ct_attr_symref(f.m, "nowhere"));
    ret(&f);
    expect_error(&f, 15, "@nowhere");
}

static void test_dot_inner_mismatch(void **state)
{
    fixture f;
    make(&f);
    int64_t sa[] = {16, 32}, sb[] = {16, 16}, sc[] = {16, 16};
    const ct_type *ta = ct_type_tensor(f.m, f.f16, 2, sa), *tb = ct_type_tensor(f.m, f.f16, 2, sb),
                  *tc = ct_type_tensor(f.m, f.f32, 2, sc);
    ct_value *vals[3];
    const ct_type *ts[] = {ta, tb, tc};
    for (int i = 0; i < 3; i++) {
        ct_op *p = add(&f, f.entry, CT_OP_UB_POISON, 0, NULL, ts[i], 2);
        vals[i] = ct_op_result(p, 0);
    }
    add(&f, f.entry, CT_OP_TT_DOT, 3, vals, tc, 16);
    ret(&f);
    expect_error(&f, 16, "do not compose");
}

static void test_broadcast_bad(void **state)
{
    fixture f;
    make(&f);
    ct_value *r = range64(&f, 2);
    int64_t s[] = {128};
    add(&f, f.entry, CT_OP_TT_BROADCAST, 1, &r, ct_type_tensor(f.m, f.i32, 1, s), 17);
    ret(&f);
    expect_error(&f, 17, "cannot broadcast");
}

static void test_reduce_axis(void **state)
{
    fixture f;
    make(&f);
    ct_value *r = range64(&f, 2);
    ct_op *red = ct_op_new(f.m, CT_OP_TT_REDUCE, 1, &r, 1, &f.i32, 1, L(&f, 18));
    ct_op_set_attr(f.m, red, "axis", ct_attr_int(f.m, f.i32, 1));
    ct_block_append(f.entry, red);
    ct_block *b = ct_block_new(f.m);
    ct_region_append(ct_op_region(red, 0), b);
    ct_value *a = ct_block_add_arg(f.m, b, f.i32, L(&f, 18));
    ct_value *c = ct_block_add_arg(f.m, b, f.i32, L(&f, 18));
    ct_value *s = ct_op_result(add(&f, b, CT_OP_ARITH_ADDI, 2, (ct_value *[]){a, c}, f.i32, 18), 0);
    add(&f, b, CT_OP_TT_REDUCE_RETURN, 1, &s, NULL, 18);
    ret(&f);
    expect_error(&f, 18, "axis 1 is out of range");
}

static void test_branch_args(void **state)
{
    fixture f;
    make(&f);
    ct_block *next = ct_block_new(f.m);
    ct_region_append(ct_op_region(f.func, 0), next);
    ct_block_add_arg(f.m, next, f.i32, L(&f, 20));
    ct_op *br = add(&f, f.entry, CT_OP_CF_BR, 0, NULL, NULL, 19);
    ct_op_set_successors(f.m, br, 1, &next, (int[]){0});
    add(&f, next, CT_OP_TT_RETURN, 0, NULL, NULL, 21);
    expect_error(&f, 19, "passes 0 values to successor 0, which takes 1");
}

static void test_cf_dominance(void **state)
{
    /* entry: cond_br %c, ^a, ^b;  ^a: %x = ...; br ^b ;  ^b: use %x  -> not dominated */
    fixture f;
    make(&f);
    ct_block *ba = ct_block_new(f.m), *bb = ct_block_new(f.m);
    ct_region_append(ct_op_region(f.func, 0), ba);
    ct_region_append(ct_op_region(f.func, 0), bb);
    ct_value *n = f.entry->args[1];
    ct_op *cmp = add(&f, f.entry, CT_OP_ARITH_CMPI, 2, (ct_value *[]){n, n}, f.i1, 2);
    ct_op_set_attr(f.m, cmp, "predicate", ct_attr_enum(f.m, "eq"));
    ct_value *c = ct_op_result(cmp, 0);
    ct_op *cbr = add(&f, f.entry, CT_OP_CF_COND_BR, 1, &c, NULL, 3);
    ct_op_set_successors(f.m, cbr, 2, (ct_block *[]){ba, bb}, (int[]){0, 0});
    ct_value *x = ct_op_result(add(&f, ba, CT_OP_ARITH_ADDI, 2, (ct_value *[]){n, n}, f.i32, 4), 0);
    ct_op *br = add(&f, ba, CT_OP_CF_BR, 0, NULL, NULL, 5);
    ct_op_set_successors(f.m, br, 1, &bb, (int[]){0});
    add(&f, bb, CT_OP_ARITH_MULI, 2, (ct_value *[]){x, x}, f.i32, 22);
    add(&f, bb, CT_OP_TT_RETURN, 0, NULL, NULL, 23);
    expect_error(&f, 22, "does not dominate");
}

static void test_cf_dominance_ok(void **state)
{
    /* a value of the entry block is visible in both successors */
    fixture f;
    make(&f);
    ct_block *ba = ct_block_new(f.m);
    ct_region_append(ct_op_region(f.func, 0), ba);
    ct_value *n = f.entry->args[1];
    ct_value *x = ct_op_result(add(&f, f.entry, CT_OP_ARITH_ADDI, 2, (ct_value *[]){n, n}, f.i32, 2), 0);
    ct_op *br = add(&f, f.entry, CT_OP_CF_BR, 0, NULL, NULL, 3);
    ct_op_set_successors(f.m, br, 1, &ba, (int[]){0});
    add(&f, ba, CT_OP_ARITH_MULI, 2, (ct_value *[]){x, n}, f.i32, 4);
    add(&f, ba, CT_OP_TT_RETURN, 0, NULL, NULL, 5);
    expect_clean(&f);
}

static void test_return_arity(void **state)
{
    fixture f;
    make(&f);
    add(&f, f.entry, CT_OP_TT_RETURN, 1, &f.entry->args[1], NULL, 24);
    expect_error(&f, 24, "returns 1 values, the function returns 0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_kernels_verify),
        cmocka_unit_test(test_python_ttir_verifies),
        cmocka_unit_test(test_wellformed_load_store),
        cmocka_unit_test(test_load_result_not_pointee),
        cmocka_unit_test(test_store_mask_not_i1),
        cmocka_unit_test(test_binary_type_mismatch),
        cmocka_unit_test(test_float_op_on_ints),
        cmocka_unit_test(test_use_before_def),
        cmocka_unit_test(test_for_yield_type),
        cmocka_unit_test(test_missing_terminator),
        cmocka_unit_test(test_call_undefined),
        cmocka_unit_test(test_dot_inner_mismatch),
        cmocka_unit_test(test_broadcast_bad),
        cmocka_unit_test(test_reduce_axis),
        cmocka_unit_test(test_branch_args),
        cmocka_unit_test(test_cf_dominance),
        cmocka_unit_test(test_cf_dominance_ok),
        cmocka_unit_test(test_return_arity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
