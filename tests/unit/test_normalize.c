/*
 * test_normalize.c - the normalizer: inlining, unreachable blocks, dead
 * code, symbol DCE, locations; what it keeps (noinline calls, effects) and
 * what it leaves to Triton's passes (raw .source against .ttir).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "text_testutil.h"

/* parse, normalize, print (numbered, without locations) */
static char *norm_text(const char *text, unsigned nflags, ct_diags *d)
{
    ct_module *m = parse_str(text);
    assert_non_null(m);
    ct_normalize(m, nflags, d);
    char *s = ct_print_module(m, CT_PRINT_NUMBERED);
    ct_module_destroy(m);
    return s;
}

static char *norm_file(const char *rel)
{
    size_t len;
    char *text = read_src(rel, &len);
    assert_non_null(text);
    ct_module *m = parse_or_report(text, len, rel);
    assert_non_null(m);
    free(text);
    ct_normalize(m, 0, NULL);
    char *s = ct_print_module(m, 0);
    ct_module_destroy(m);
    return s;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Raw softmax: the calls inlined, the functions and their unreachable
 * tails gone, the overflow checks gone, no location left. */
static void t_softmax_raw(void **state)
{
    (void)state;
    char *s = norm_file("tests/text/corpus/softmax.source");
    assert_int_equal(count(s, "tt.call"), 0);
    assert_int_equal(count(s, "tt.func"), 1);
    assert_int_equal(count(s, "ub.poison"), 0);
    assert_int_equal(count(s, "arith.extsi"), 0);
    assert_int_equal(count(s, "^bb1"), 0);
    assert_int_equal(count(s, "loc("), 0);
    assert_int_equal(count(s, "\"tt.reduce\""), 2);
    assert_non_null(strstr(s, "arith.maxnumf %arg3, %arg4 : f32"));
    assert_non_null(strstr(s, "arith.addf %arg3, %arg4 : f32"));
    assert_non_null(strstr(s, "%8 = tt.load %7, %4, %cst : tensor<1024x!tt.ptr<f32>>"));
    free(s);
}

/* The raw module and Triton's ttir of softmax differ, after normalization,
 * only by the constant Triton hoists to the top. */
static void t_source_vs_ttir(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    ct_module *a = NULL, *b = NULL;
    size_t la, lb;
    char *ta = read_src("tests/text/corpus/softmax.source", &la);
    char *tb = read_src("tests/text/corpus/softmax.ttir", &lb);
    a = parse_or_report(ta, la, "softmax.source");
    b = parse_or_report(tb, lb, "softmax.ttir");
    assert_non_null(a);
    assert_non_null(b);
    ct_diff_result r;
    ct_diff_modules(a, b, "source", "ttir", &r, &d);
    assert_false(r.equal);
    assert_int_equal(r.nadded, 1);
    assert_int_equal(r.nremoved, 1);
    assert_non_null(strstr(r.text, "+    %cst = arith.constant dense<0xFF800000> : tensor<1024xf32>"));
    assert_non_null(strstr(r.text, "-    %cst = arith.constant dense<0xFF800000> : tensor<1024xf32>"));
    ct_diff_result_free(&r);
    ct_module_destroy(a);
    ct_module_destroy(b);
    /* a module with nothing to canonicalize is equal to its ttir */
    ta = (free(ta), read_src("tests/text/corpus/empty.source", &la));
    tb = (free(tb), read_src("tests/text/corpus/empty.ttir", &lb));
    a = parse_or_report(ta, la, "empty.source");
    b = parse_or_report(tb, lb, "empty.ttir");
    ct_diff_modules(a, b, "source", "ttir", &r, &d);
    assert_true(r.equal);
    ct_diff_result_free(&r);
    ct_module_destroy(a);
    ct_module_destroy(b);
    free(ta);
    free(tb);
    ct_diags_free(&d);
}

/* noinline functions stay, called, with their names (they are LLVM
 * symbols); the functions they call are inlined into them. */
static void t_noinline(void **state)
{
    (void)state;
    char *s = norm_file("tests/text/corpus/calls.source");
    assert_non_null(strstr(s, "tt.call @corpus_kernels.noinline_pair__fp32_i32__("));
    assert_non_null(strstr(s, "tt.call @corpus_kernels.noinline_void__Pfp32_fp32__("));
    assert_non_null(strstr(s, "tt.func private @corpus_kernels.noinline_pair__fp32_i32__"));
    assert_null(strstr(s, "cdiv"));
    assert_null(strstr(s, "sum__"));
    free(s);
}

static const char recursive[] =
    "module {\n"
    "  tt.func public @k(%x: i32) {\n"
    "    %0 = tt.call @f(%x) : (i32) -> i32\n"
    "    %1 = tt.call @g(%0) : (i32) -> i32\n"
    "    %2 = arith.extsi %1 : i32 to i64\n"
    "    %p = tt.int_to_ptr %2 : i64 -> !tt.ptr<i32>\n"
    "    tt.store %p, %1 : !tt.ptr<i32>\n"
    "    tt.return\n"
    "  }\n"
    "  tt.func private @f(%a: i32) -> i32 {\n"
    "    %0 = tt.call @f(%a) : (i32) -> i32\n"
    "    tt.return %0 : i32\n"
    "  }\n"
    "  tt.func private @g(%a: i32) -> i32 {\n"
    "    %0 = arith.addi %a, %a : i32\n"
    "    tt.return %0 : i32\n"
    "  }\n"
    "}\n";

/* Recursive functions are left called (with a warning); the others go. */
static void t_recursion(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    char *s = norm_text(recursive, 0, &d);
    assert_non_null(strstr(s, "%0 = tt.call @f(%arg0) : (i32) -> i32\n"));
    assert_non_null(strstr(s, "%1 = arith.addi %0, %0 : i32\n"));
    assert_non_null(strstr(s, "tt.func private @f("));
    assert_null(strstr(s, "@g"));
    assert_true(d.n > 0);
    assert_non_null(strstr(d.items[0].message, "recursive"));
    free(s);
    ct_diags_free(&d);
}

/* Dead code: what has no effect goes when unused, the rest stays. */
static void t_dce(void **state)
{
    (void)state;
    const char *in =
        "module {\n"
        "  tt.func public @k(%p: !tt.ptr<f32>, %n: i32) {\n"
        "    %a = tt.load %p : !tt.ptr<f32>\n"
        "    %b = tt.load %p {isVolatile = true} : !tt.ptr<f32>\n"
        "    %c = tt.extern_elementwise %a {libname = \"\", libpath = \"\", pure = true, symbol = \"s\"} :"
        " (f32) -> f32\n"
        "    %d = tt.extern_elementwise %a {libname = \"\", libpath = \"\", pure = false, symbol = \"s\"} :"
        " (f32) -> f32\n"
        "    %c0 = arith.constant 0 : i32\n"
        "    %c1 = arith.constant 1 : i32\n"
        "    %e = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (f32)  : i32 {\n"
        "      %y = arith.addf %x, %x : f32\n"
        "      scf.yield %y : f32\n"
        "    }\n"
        "    scf.for %i = %c0 to %n step %c1  : i32 {\n"
        "      tt.store %p, %a : !tt.ptr<f32>\n"
        "    }\n"
        "    %g = tt.get_program_id x : i32\n"
        "    %h = arith.addi %g, %g : i32\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    char *s = norm_text(in, 0, NULL);
    const char *want =
        "module {\n"
        "  tt.func public @k(%arg0: !tt.ptr<f32>, %arg1: i32) {\n"
        "    %0 = tt.load %arg0 : !tt.ptr<f32>\n"
        "    %1 = tt.load %arg0 {isVolatile = true} : !tt.ptr<f32>\n"
        "    %2 = tt.extern_elementwise %0 {libname = \"\", libpath = \"\", pure = false, symbol = \"s\"} :"
        " (f32) -> f32\n"
        "    %c0_i32 = arith.constant 0 : i32\n"
        "    %c1_i32 = arith.constant 1 : i32\n"
        "    scf.for %arg2 = %c0_i32 to %arg1 step %c1_i32  : i32 {\n"
        "      tt.store %arg0, %0 : !tt.ptr<f32>\n"
        "    }\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    assert_string_equal(s, want);
    free(s);
}

/* Unreachable blocks go; the reachable ones keep their order. */
static void t_unreachable(void **state)
{
    (void)state;
    const char *in =
        "module {\n"
        "  tt.func public @k(%c: i1, %p: !tt.ptr<i32>) {\n"
        "    cf.cond_br %c, ^bb2, ^bb3\n"
        "  ^bb1:  // no predecessors\n"
        "    %0 = ub.poison : i32\n"
        "    tt.store %p, %0 : !tt.ptr<i32>\n"
        "    tt.return\n"
        "  ^bb2:\n"
        "    cf.br ^bb3\n"
        "  ^bb3:\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    char *s = norm_text(in, 0, NULL);
    const char *want =
        "module {\n"
        "  tt.func public @k(%arg0: i1, %arg1: !tt.ptr<i32>) {\n"
        "    cf.cond_br %arg0, ^bb1, ^bb2\n"
        "  ^bb1:  // pred: ^bb0\n"
        "    cf.br ^bb2\n"
        "  ^bb2:  // 2 preds: ^bb0, ^bb1\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    assert_string_equal(s, want);
    free(s);
}

/* Every corpus file normalizes, and normalizing twice changes nothing. */
static void t_idempotent(void **state)
{
    (void)state;
    int n;
    char **files = text_files(&n);
    for (int i = 0; i < n; i++) {
        size_t len;
        char *text = read_src(files[i], &len);
        ct_module *m = parse_or_report(text, len, files[i]);
        assert_non_null(m);
        ct_normalize(m, 0, NULL);
        char *a = ct_print_module(m, CT_PRINT_LOCS);
        ct_normalize(m, 0, NULL);
        char *b = ct_print_module(m, CT_PRINT_LOCS);
        assert_string_equal(a, b);
        /* and the normalized text reads back to itself */
        ct_module *m2 = parse_or_report(a, strlen(a), "normalized");
        assert_non_null(m2);
        char *c = ct_print_module(m2, CT_PRINT_LOCS);
        assert_string_equal(a, c);
        free(a);
        free(b);
        free(c);
        ct_module_destroy(m2);
        ct_module_destroy(m);
        free(text);
    }
    free_files(files, n);
}

/* Renaming private symbols is opt-in. */
static void t_rename(void **state)
{
    (void)state;
    char *s = norm_text(recursive, CT_NORM_RENAME_SYMBOLS, NULL);
    assert_non_null(strstr(s, "tt.call @f0(%arg0)"));
    assert_non_null(strstr(s, "tt.func private @f0("));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_softmax_raw), cmocka_unit_test(t_source_vs_ttir),
        cmocka_unit_test(t_noinline),    cmocka_unit_test(t_recursion),
        cmocka_unit_test(t_dce),         cmocka_unit_test(t_unreachable),
        cmocka_unit_test(t_idempotent),  cmocka_unit_test(t_rename),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
