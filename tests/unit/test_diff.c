/*
 * test_diff.c - the differ's report: equality, the first diverging op of
 * each side with its source location, counts and the unified diff.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "text_testutil.h"

static ct_diff_result diff_texts_flags(const char *a, const char *b, unsigned flags)
{
    ct_module *ma = parse_or_report(a, strlen(a), "a.ttir");
    ct_module *mb = parse_or_report(b, strlen(b), "b.ttir");
    assert_non_null(ma);
    assert_non_null(mb);
    ct_diff_result r;
    assert_true(ct_diff_modules_flags(ma, mb, "a.ttir", "b.ttir", flags, &r, NULL));
    ct_module_destroy(ma);
    ct_module_destroy(mb);
    return r;
}

static ct_diff_result diff_texts(const char *a, const char *b)
{
    ct_module *ma = parse_or_report(a, strlen(a), "a.ttir");
    ct_module *mb = parse_or_report(b, strlen(b), "b.ttir");
    assert_non_null(ma);
    assert_non_null(mb);
    ct_diff_result r;
    assert_true(ct_diff_modules(ma, mb, "a.ttir", "b.ttir", &r, NULL));
    ct_module_destroy(ma);
    ct_module_destroy(mb);
    return r;
}

static void t_equal(void **state)
{
    (void)state;
    size_t len;
    char *g = read_src("tests/text/corpus/matmul.source", &len);
    ct_diff_result r = diff_texts(g, g);
    assert_true(r.equal);
    assert_null(r.first);
    assert_string_equal(r.text, "");
    assert_int_equal(r.nadded + r.nremoved, 0);
    ct_diff_result_free(&r);
    free(g);
}

/* One changed op: the report names it on both sides with the Python line
 * it came from, and the diff has one line out, one line in. */
static void t_first_divergence(void **state)
{
    (void)state;
    size_t len;
    char *g = read_src("tests/text/corpus/softmax.source", &len);
    char *x = replace_once(g, "%num = math.exp %x_16 :", "%num = math.exp2 %x_16 :");
    assert_non_null(x);
    ct_diff_result r = diff_texts(g, x);
    assert_false(r.equal);
    assert_int_equal(r.nadded, 1);
    assert_int_equal(r.nremoved, 1);
    /* #loc46 = loc("num"(#loc10)), #loc10 = loc("corpus_kernels.py":21:17) */
    assert_non_null(strstr(r.first, "a.ttir: line 20: %12 = math.exp %11 : tensor<1024xf32>\n"
                                    "    in math.exp at corpus_kernels.py:21:17\n"));
    assert_non_null(strstr(r.first, "b.ttir: line 20: %12 = math.exp2 %11 : tensor<1024xf32>\n"
                                    "    in math.exp2 at corpus_kernels.py:21:17\n"));
    assert_non_null(strstr(r.text, "--- a.ttir\n+++ b.ttir\n@@ -17,7 +17,7 @@\n"));
    assert_non_null(strstr(r.text, "\n-    %12 = math.exp %11 : tensor<1024xf32>\n"
                                   "+    %12 = math.exp2 %11 : tensor<1024xf32>\n"));
    ct_diff_result_free(&r);
    free(x);
    free(g);
}

/* An op inlined from a called function is reported with the callee's line
 * and the line of the call. */
static void t_inlined_location(void **state)
{
    (void)state;
    size_t len;
    char *g = read_src("tests/text/corpus/softmax.source", &len);
    char *x = replace_once(g, "%0 = arith.maxnumf %a, %b : f32", "%0 = arith.minnumf %a, %b : f32");
    assert_non_null(x);
    ct_diff_result r = diff_texts(g, x);
    assert_false(r.equal);
    assert_non_null(strstr(r.first, "in arith.maxnumf at triton/language/standard.py:"));
    assert_non_null(strstr(r.first, ", inlined at "));
    assert_non_null(strstr(r.first, "corpus_kernels.py:20:"));
    ct_diff_result_free(&r);
    free(x);
    free(g);
}

/* A side that only gains lines: the other side's position is where they go. */
static void t_insertion(void **state)
{
    (void)state;
    const char *a = "module {\n  tt.func public @k(%p: !tt.ptr<i32>) {\n    tt.return\n  }\n}\n";
    const char *b = "module {\n  tt.func public @k(%p: !tt.ptr<i32>) {\n"
                    "    %c = arith.constant 1 : i32 loc(\"k.py\":3:4)\n"
                    "    tt.store %p, %c : !tt.ptr<i32> loc(\"k.py\":3:4)\n"
                    "    tt.return\n  }\n}\n";
    ct_diff_result r = diff_texts(a, b);
    assert_false(r.equal);
    assert_int_equal(r.nadded, 2);
    assert_int_equal(r.nremoved, 0);
    assert_non_null(strstr(r.first, "a.ttir: nothing before line 3: tt.return\n"));
    assert_non_null(strstr(r.first, "b.ttir: line 3: %c1_i32 = arith.constant 1 : i32\n"
                                    "    in arith.constant at k.py:3:4\n"));
    assert_non_null(strstr(r.text, "@@ -1,5 +1,7 @@\n"));
    ct_diff_result_free(&r);
}

/* An unused constant and an expression evaluated twice (Python's range(n)
 * evaluates n twice): equal after normalization, different exactly; value
 * names and locations never count. */
static void t_exact(void **state)
{
    (void)state;
    const char *a = "module {\n  tt.func public @k(%p: !tt.ptr<i32>, %n: i32) {\n"
                    "    %m = arith.muli %n, %n : i32 loc(\"k.py\":3:4)\n"
                    "    tt.store %p, %m : !tt.ptr<i32> loc(\"k.py\":4:4)\n"
                    "    tt.return\n  }\n}\n";
    const char *b = "module {\n  tt.func public @k(%p: !tt.ptr<i32>, %n: i32) {\n"
                    "    %c48_i32 = arith.constant 48 : i32 loc(\"k.c\":9:0)\n"
                    "    %0 = arith.muli %n, %n : i32 loc(\"k.c\":9:0)\n"
                    "    %1 = arith.muli %n, %n : i32 loc(\"k.c\":9:0)\n"
                    "    tt.store %p, %1 : !tt.ptr<i32> loc(\"k.c\":10:0)\n"
                    "    tt.return\n  }\n}\n";
    ct_diff_result r = diff_texts(a, b);
    assert_true(r.equal);
    ct_diff_result_free(&r);
    r = diff_texts_flags(a, b, CT_DIFF_EXACT);
    assert_false(r.equal);
    assert_int_equal(r.nadded, 3); /* the constant, the second muli, the store of %1 */
    assert_int_equal(r.nremoved, 1);
    assert_non_null(strstr(r.first, "first difference (exact):\n"));
    assert_non_null(strstr(r.text, "\n+    %c48_i32 = arith.constant 48 : i32\n"));
    ct_diff_result_free(&r);
    /* the same text with other names and locations is equal exactly */
    const char *c = "module {\n  tt.func public @k(%q: !tt.ptr<i32>, %x: i32) {\n"
                    "    %0 = arith.muli %x, %x : i32 loc(\"k.c\":7:0)\n"
                    "    tt.store %q, %0 : !tt.ptr<i32> loc(\"k.c\":8:0)\n"
                    "    tt.return\n  }\n}\n";
    r = diff_texts_flags(a, c, CT_DIFF_EXACT);
    assert_true(r.equal);
    ct_diff_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_equal),
        cmocka_unit_test(t_first_divergence),
        cmocka_unit_test(t_inlined_location),
        cmocka_unit_test(t_insertion),
        cmocka_unit_test(t_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
