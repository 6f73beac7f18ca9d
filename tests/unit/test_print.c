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
#include <pthread.h>

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

/* The printer writes nothing into the module: a scratch id set by another
 * pass survives printing, and threads printing one module at once all get
 * the text one thread gets. */
typedef struct print_job {
    const ct_module *m;
    const char *want;
    int bad;
} print_job;

static void *print_many(void *arg)
{
    print_job *j = arg;
    for (int i = 0; i < 200; i++) {
        char *s = ct_print_module(j->m, CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES);
        j->bad += strcmp(s, j->want) != 0;
        free(s);
    }
    return NULL;
}

static void t_print_writes_nothing(void **state)
{
    (void)state;
    size_t n;
    char *in = read_src("tests/text/print/locs.in.ttir", &n);
    ct_module *m = parse_or_report(in, n, "locs.in.ttir");
    assert_non_null(m);
    ct_op *c = ct_func_entry(m->body->first)->first;
    ct_value *arg0 = ct_func_entry(m->body->first)->args[0];
    c->res[0].id = 777;
    arg0->id = -5;
    char *want = ct_print_module(m, CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES);
    assert_int_equal(c->res[0].id, 777);
    assert_int_equal(arg0->id, -5);

    enum { NT = 4 };
    pthread_t th[NT];
    print_job jobs[NT];
    for (int t = 0; t < NT; t++) {
        jobs[t] = (print_job){m, want, 0};
        assert_int_equal(pthread_create(&th[t], NULL, print_many, &jobs[t]), 0);
    }
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        assert_int_equal(jobs[t].bad, 0);
    }
    free(want);
    ct_module_destroy(m);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_locations_like_mlir),
        cmocka_unit_test(t_no_locations),
        cmocka_unit_test(t_print_op),
        cmocka_unit_test(t_print_writes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
