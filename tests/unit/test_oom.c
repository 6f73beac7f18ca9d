/* test_oom.c - out of memory is an error, never an abort or a leak (issue 14).
 *
 * An allocator (ctriton/alloc.h) that fails the Nth allocation, for N = 1, 2, ...
 * up to the number a successful run makes, in each of the four components whose
 * entry points promise to unwind:
 *   - the parser (which verifies) and the emulator's compiler: every module of
 *     tests/text/corpus, and modules that each of them refuses (the refusal or
 *     'out of memory', never another outcome);
 *   - the verifier and the compiler alone, on modules parsed beforehand;
 *   - the builder: tl_build of add_kernel and of library kernels that reach loops,
 *     dots, reductions, the sort network, block pointers and descriptors.
 * Each run must come back (no crash); a run that fails must say "out of memory";
 * nearly every run must fail (a failed allocation that the code can absorb, a lost
 * diagnostic, may succeed); the ASan build checks that nothing leaks (leak
 * detection is on for every unit test of a sanitizer build). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ctriton/alloc.h"
#include "ctriton/ctriton.h"
#include "kernels_testutil.h"
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

/* A module's text and the first error parsing+compiling it gives with the default allocator
 * (NULL: it compiles): failing an allocation may only turn that outcome into 'out of memory'. */
typedef struct outcome {
    const char *name, *text;
    char *error;
} outcome;

static ct_emu_kernel *parse_compile_k(const outcome *o, ct_diags *d)
{
    ct_module *m = ct_parse_module(o->text, strlen(o->text), o->name, d);
    ct_emu_kernel *k = m ? ct_emu_compile(m, NULL, d) : NULL;
    ct_module_destroy(m);
    return k;
}

/* true: the outcome of the default allocator (compiled, or refused with the same error) */
static bool parse_compile(const void *ud, ct_diags *d)
{
    const outcome *o = ud;
    ct_emu_kernel *k = parse_compile_k(o, d);
    ct_emu_kernel_free(k);
    if (!o->error)
        return k != NULL;
    const char *e = ct_diags_first_error(d);
    return !k && e && !strcmp(e, o->error) && !says_oom(d);
}

/* fails each allocation of parsing and compiling TEXT, whose outcome must be EXPECT (a piece
 * of the first error; NULL: it compiles) */
static void fail_each_module(const char *name, const char *text, const char *expect)
{
    outcome o = {name, text, NULL};
    ct_diags d;
    ct_diags_init(&d);
    ct_emu_kernel *k = parse_compile_k(&o, &d);
    const char *e = ct_diags_first_error(&d);
    if (expect ? k || !e || !strstr(e, expect) : !k)
        fail_msg("%s: %s (expected %s)", name, k ? "compiles" : e ? e : "no error",
                 expect ? expect : "to compile");
    o.error = k ? NULL : strdup(e);
    ct_emu_kernel_free(k);
    ct_diags_free(&d);
    fail_each(name, parse_compile, &o);
    free(o.error);
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

/* Every module of the parser's corpus (the .ttir files of tests/text/corpus): between them they reach the
 * parser's productions, the verifier's rules and the emulator compiler's op handlers. */
static void t_parse_and_compile(void **st)
{
    (void)st;
    char dir[1024];
    const char *src = getenv("CTRITON_SOURCE_DIR");
    snprintf(dir, sizeof dir, "%s/tests/text/corpus", src ? src : CTRITON_SOURCE_DIR);
    DIR *dd = opendir(dir);
    if (!dd)
        fail_msg("cannot open %s", dir);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(dd))) {
        size_t l = strlen(de->d_name);
        if (l < 6 || strcmp(de->d_name + l - 5, ".ttir"))
            continue;
        char *t = corpus(de->d_name);
        /* every corpus file compiles (debug_ops' inline PTX on the interpreter included) */
        fail_each_module(de->d_name, t, NULL);
        free(t);
        n++;
    }
    closedir(dd);
    assert_true(n >= 20);
}

/* The verifier and the emulator's compiler on their own, on a module parsed beforehand with
 * the default allocator: each of their allocations failed in turn, apart from the parser's. */
static bool verify_only(const void *ud, ct_diags *d)
{
    return ct_verify_module(ud, d);
}

static bool compile_only(const void *ud, ct_diags *d)
{
    ct_emu_kernel *k = ct_emu_compile(ud, NULL, d);
    ct_emu_kernel_free(k);
    return k != NULL;
}

static void t_verify_and_compile(void **st)
{
    (void)st;
    /* the verifier allocates for multi-block regions only (its dominance tables): control's
     * and early_return's; the compiler for every module */
    static const struct {
        const char *name;
        bool verify;
    } mods[] = {{"control.ttir", true},     {"early_return.ttir", true}, {"reductions.ttir", false},
                {"dots.ttir", false},       {"descriptors.ttir", false}, {"random.ttir", false},
                {"atomics.ttir", false},    {"block_ptrs.ttir", false}};
    for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
        char *t = corpus(mods[i].name);
        ct_diags d;
        ct_diags_init(&d);
        ct_module *m = ct_parse_module(t, strlen(t), mods[i].name, &d);
        if (!m)
            fail_msg("%s: %s", mods[i].name, ct_diags_first_error(&d));
        ct_diags_free(&d);
        char what[256];
        if (mods[i].verify) {
            snprintf(what, sizeof what, "verify %s", mods[i].name);
            fail_each(what, verify_only, m);
        }
        snprintf(what, sizeof what, "compile %s", mods[i].name);
        fail_each(what, compile_only, m);
        ct_module_destroy(m);
        free(t);
    }
}

/* Refusals under a failing allocator: a module the parser, the verifier or the emulator's
 * compiler refuses must come back with its own error or 'out of memory', whichever
 * allocation fails (the error paths allocate diagnostics, names and types too). */
typedef struct refusal {
    const char *text, *error;
} refusal;

static void t_refusals(void **st)
{
    (void)st;
    static const refusal cases[] = {
        /* the parser: an undefined value */
        {"module {\n  tt.func public @k(%p: !tt.ptr<f32>) {\n"
         "    tt.store %p, %v : !tt.ptr<f32>\n    tt.return\n  }\n}\n",
         "undefined value"},
        /* the verifier: a make_range that does not fit its type */
        {"module {\n  tt.func public @k(%p: !tt.ptr<i32>) {\n"
         "    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<32xi32>\n"
         "    tt.return\n  }\n}\n",
         "does not fit"},
        /* the emulator's gate: two public functions */
        {"module {\n  tt.func public @a(%p: !tt.ptr<f32>) {\n    tt.return\n  }\n"
         "  tt.func public @b(%p: !tt.ptr<f32>) {\n    tt.return\n  }\n}\n",
         "more than one public function"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "refusal %zu (%s)", i, cases[i].error);
        fail_each_module(what, cases[i].text, cases[i].error);
    }
}

static bool build_config(const void *ud, ct_diags *d)
{
    const ct_kernel_entry *ke = ud;
    ct_module *m = tl_build_config(ke->def, &ke->configs[0], d);
    bool ok = m != NULL;
    ct_module_destroy(m);
    return ok;
}

static void t_build(void **st)
{
    (void)st;
    fail_each("tl_build add_kernel", build, NULL);
    /* library kernels that reach more of the builder: loops, dots, reductions, the sort
     * network, block pointers, descriptors, jit helpers (registered before the failing
     * allocator goes in: the registry is not one of the four components) */
    static const char *names[] = {"flash_attn_fwd_kernel", "topk_kernel", "matmul_tma_kernel",
                                  "cross_entropy_fwd_bwd_kernel", "rope_kernel"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const ct_kernel_entry *ke = tu_kernel(names[i]);
        if (!ke)
            fail_msg("no kernel %s", names[i]);
        char what[128];
        snprintf(what, sizeof what, "tl_build %s/%s", names[i], ke->configs[0].name);
        fail_each(what, build_config, ke);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_parse_and_compile),
        cmocka_unit_test(t_verify_and_compile),
        cmocka_unit_test(t_refusals),
        cmocka_unit_test(t_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
