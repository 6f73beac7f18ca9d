/*
 * test_print.c - the printer against MLIR itself.  tests/text/print/
 * holds inputs and what Triton 3.6's MLIR printed for them (the input read
 * with triton._C.libtriton.ir.parse_mlir_module and printed with str(): see
 * tests/text/README.md): location aliases of every kind (names, callsites
 * nested in callsites, fused, unknown), arguments of non-entry blocks and of
 * scf.while's after region (their locations make aliases printed before the
 * module), value names from the first name location, predecessor comments.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "text_testutil.h"

static void check_pair(const char *in_rel, const char *want_rel, unsigned flags)
{
    size_t n, wn;
    char *in = read_src(in_rel, &n);
    char *want = read_src(want_rel, &wn);
    assert_non_null(in);
    assert_non_null(want);
    ct_module *m = parse_or_report(in, n, in_rel);
    assert_non_null(m);
    char *got = ct_print_module(m, flags);
    assert_string_equal(got, want);
    free(got);
    ct_module_destroy(m);
    free(in);
    free(want);
}

static void t_locations_like_mlir(void **state)
{
    (void)state;
    check_pair("tests/text/print/locs.in.ttir", "tests/text/print/locs.mlir.ttir",
               CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES);
}

/* Without locations: names still come from the name locations. */
static void t_no_locations(void **state)
{
    (void)state;
    size_t n;
    char *in = read_src("tests/text/print/locs.in.ttir", &n);
    ct_module *m = parse_or_report(in, n, "locs.in.ttir");
    assert_non_null(m);
    char *s = ct_print_module(m, 0);
    assert_non_null(strstr(s, "    %a = arith.constant 1 : i32\n"));
    assert_non_null(strstr(s, "    ^bb0(%a_0: i32, %arg3: i32):\n"));
    assert_non_null(strstr(s, "  ^bb2:  // 2 preds: ^bb0, ^bb1\n"));
    assert_null(strstr(s, "loc"));
    free(s);
    s = ct_print_module(m, CT_PRINT_NUMBERED);
    assert_non_null(strstr(s, "    %c1_i32 = arith.constant 1 : i32\n"));
    assert_non_null(strstr(s, "  tt.func public @k(%arg0: i1, %arg1: i32) {\n"));
    free(s);
    ct_module_destroy(m);
    free(in);
}

/* One op printed alone, with the names of its function. */
static void t_print_op(void **state)
{
    (void)state;
    size_t n;
    char *in = read_src("tests/text/print/locs.in.ttir", &n);
    ct_module *m = parse_or_report(in, n, "locs.in.ttir");
    ct_op *f = m->body->first;
    ct_op *c = ct_func_entry(f)->first;
    char *s = ct_print_op(c, 0);
    assert_string_equal(s, "%a = arith.constant 1 : i32");
    free(s);
    ct_module_destroy(m);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_locations_like_mlir),
        cmocka_unit_test(t_no_locations),
        cmocka_unit_test(t_print_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
