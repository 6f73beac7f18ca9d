/* test_oom.c - out of memory is an error, never an abort or a leak (issue 14).
 *
 * An allocator (ctriton/alloc.h) that fails the Nth allocation, for N = 1, 2, ...
 * up to the number a successful run makes: parsing (which verifies: the verifier's
 * allocations are among those failed) and
 * compiling for the emulator a few modules of the corpus, and building a kernel
 * through tl_build.  Each run must come back (no crash); a run that fails must
 * say "out of memory"; nearly every run must fail (a failed allocation that the
 * code can absorb, a lost diagnostic, may succeed); the ASan build
 * (make unit-asan) checks that nothing leaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ctriton/alloc.h"
#include "ctriton/ctriton.h"
#include "util/util.h"

TL_DECLARE_KERNEL(add_kernel);

static long count, fail_at;

static void *failing(void *ud, void *p, size_t n)
{
    (void)ud;
    if (n == 0) {
        free(p);
        return NULL;
    }
    if (++count == fail_at)
        return NULL;
    return realloc(p, n);
}

static bool says_oom(const ct_diags *d)
{
    for (int i = 0; i < d->n; i++)
        if (strstr(d->items[i].message, "out of memory"))
            return true;
    return d->oom;
}

typedef bool (*step)(const void *ud, ct_diags *d);

/* Runs f once to count its allocations, then once per allocation failing it. */
static void fail_each(const char *what, step f, const void *ud)
{
    ct_set_allocator(failing, NULL);
    ct_diags d;
    ct_diags_init(&d);
    fail_at = 0;
    count = 0;
    bool ok = f(ud, &d);
    long total = count;
    ct_diags_free(&d);
    if (!ok)
        fail_msg("%s: fails without a failed allocation", what);
    printf("%s: %ld allocations\n", what, total);
    assert_true(total > 0);
    long succeeded = 0;
    for (fail_at = 1; fail_at <= total; fail_at++) {
        count = 0;
        ct_diags_init(&d);
        ok = f(ud, &d);
        if (!ok && !says_oom(&d))
            fail_msg("%s: allocation %ld of %ld failed, the error is not 'out of memory'", what,
                     fail_at, total);
        succeeded += ok;
        ct_diags_free(&d);
    }
    ct_set_allocator(NULL, NULL);
    printf("%s: %ld allocations failed in turn, %ld absorbed\n", what, total, succeeded);
    assert_true(succeeded <= 2 + total / 10);
}

static bool parse_compile(const void *ud, ct_diags *d)
{
    const char *text = ud;
    ct_module *m = ct_parse_module(text, strlen(text), "oom.ttir", d);
    ct_emu_kernel *k = m ? ct_emu_compile(m, NULL, d) : NULL;
    bool ok = k != NULL;
    ct_emu_kernel_free(k);
    ct_module_destroy(m);
    return ok;
}

static bool build(const void *ud, ct_diags *d)
{
    (void)ud;
    ct_module *m = tl_build(&add_kernel, "x_ptr=*fp32:16 y_ptr=*fp32:16 output_ptr=*fp32:16 "
                            "n_elements=i32:16", "BLOCK_SIZE=256", NULL, d);
    bool ok = m != NULL;
    ct_module_destroy(m);
    return ok;
}

static char *corpus(const char *name)
{
    char path[1024];
    const char *src = getenv("CTRITON_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/tests/text/corpus/%s", src ? src : CTRITON_SOURCE_DIR, name);
    char *t = ct_read_file(path, NULL);
    if (!t)
        fail_msg("cannot read %s", path);
    return t;
}

static void t_parse_and_compile(void **st)
{
    (void)st;
    static const char *names[] = {"shapes.ttir", "descriptors_int.ttir", "ref_softmax.ttir"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *t = corpus(names[i]);
        fail_each(names[i], parse_compile, t);
        free(t);
    }
}

static void t_build(void **st)
{
    (void)st;
    fail_each("tl_build add_kernel", build, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_parse_and_compile),
        cmocka_unit_test(t_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
