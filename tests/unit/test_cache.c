/*
 * test_cache.c - the content-addressed cache, run for real: Triton lowers
 * softmax for sm_90 (no GPU needed) into a private cache directory, then
 * entries are damaged in the ways that happen (a truncated cubin, a missing
 * JSON, a corrupt MANIFEST, a flipped byte), several processes compile the
 * same kernel at once, a writer crashes before publishing, and lowering
 * fails in each way it can (bad TTIR, wrong Triton, no Python).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctriton/compile.h"
#include "ctriton/triton_version.h"
#include "kernels_testutil.h"
#include "launch_testutil.h"

static char *softmax_ttir(void)
{
    const ct_kernel_entry *k = tu_kernel("softmax_kernel");
    assert_non_null(k);
    const tl_config *c = ct_kernel_config(k, "B1024");
    ct_diags d;
    ct_diags_init(&d);
    tl_options o;
    tl_options_default(&o);
    char *t = ct_kernel_ttir(k->def, c->signature, c->constexprs, &o, &d);
    ct_diags_free(&d);
    assert_non_null(t);
    return t;
}

static ct_status compile(const char *ttir, int num_warps, ct_artifact *a)
{
    ct_lower_opts o;
    ct_lower_opts_default(&o);
    o.num_warps = num_warps;
    ct_diags d;
    ct_diags_init(&d);
    ct_status s = ct_compile_ttir(ttir, &o, a, &d);
    ct_diags_free(&d);
    if (s != CT_OK && getenv("CTRITON_TEST_VERBOSE"))
        fprintf(stderr, "compile: %s: %s\n", ct_status_name(s), ct_errmsg());
    return s;
}

static char *entry_file(const ct_artifact *a, const char *name)
{
    char *p = malloc(strlen(a->dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", a->dir, name);
    return p;
}

static void t_key(void **state)
{
    (void)state;
    ct_lower_opts o, o2;
    ct_lower_opts_default(&o);
    char k1[65], k2[65];
    ct_cache_key("module {}", &o, k1);
    ct_cache_key("module {}", &o, k2);
    assert_string_equal(k1, k2);
    o2 = o;
    o2.num_warps = 8;
    ct_cache_key("module {}", &o2, k2);
    assert_string_not_equal(k1, k2);
    o2 = o;
    o2.arch = 80;
    ct_cache_key("module {}", &o2, k2);
    assert_string_not_equal(k1, k2);
    o2 = o;
    o2.enable_fp_fusion = false;
    ct_cache_key("module {}", &o2, k2);
    assert_string_not_equal(k1, k2);
    ct_cache_key("module { }", &o, k2);
    assert_string_not_equal(k1, k2);
    setenv("TRITON_DISABLE_LINE_INFO", "1", 1);
    ct_cache_key("module {}", &o, k2);
    unsetenv("TRITON_DISABLE_LINE_INFO");
    assert_string_not_equal(k1, k2);
    setenv("CTRITON_TRITON_VERSION", "3.6.1", 1);
    ct_cache_key("module {}", &o, k2);
    unsetenv("CTRITON_TRITON_VERSION");
    assert_string_not_equal(k1, k2);
}

static void t_dir(void **state)
{
    (void)state;
    char buf[4096];
    char *saved = getenv("CTRITON_CACHE_DIR") ? strdup(getenv("CTRITON_CACHE_DIR")) : NULL;
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    unsetenv("CTRITON_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/x/y", 1);
    ct_cache_dir(buf, sizeof buf);
    assert_string_equal(buf, "/x/y/ctriton");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/h", 1);
    ct_cache_dir(buf, sizeof buf);
    assert_string_equal(buf, "/h/.cache/ctriton");
    setenv("CTRITON_CACHE_DIR", "/c", 1);
    ct_cache_dir(buf, sizeof buf);
    assert_string_equal(buf, "/c");
    unsetenv("CTRITON_CACHE_DIR");
    if (home) {
        setenv("HOME", home, 1);
        free(home);
    }
    if (xdg) {
        setenv("XDG_CACHE_HOME", xdg, 1);
        free(xdg);
    }
    if (saved) {
        setenv("CTRITON_CACHE_DIR", saved, 1);
        free(saved);
    }
}

static void t_miss_then_hit(void **state)
{
    (void)state;
    char *ttir = softmax_ttir();
    ct_artifact a, b;
    assert_int_equal(compile(ttir, 4, &a), CT_OK);
    assert_false(a.hit);
    assert_string_equal(a.meta.name, "softmax_kernel");
    assert_int_equal(a.meta.num_warps, 4);
    assert_int_equal(a.meta.num_ctas, 1);
    assert_int_equal(a.meta.arch, 90);
    assert_int_equal(a.meta.global_scratch_size, 0);
    assert_true(a.cubin_size > 1000);
    assert_memory_equal(a.cubin, "\177ELF", 4);
    assert_int_equal(compile(ttir, 4, &b), CT_OK);
    assert_true(b.hit);
    assert_string_equal(a.key, b.key);
    assert_int_equal(a.cubin_size, b.cubin_size);
    assert_memory_equal(a.cubin, b.cubin, a.cubin_size);
    size_t n;
    char *ptx = ct_artifact_stage(&b, "ptx", &n);
    assert_non_null(ptx);
    assert_non_null(strstr(ptx, ".visible .entry softmax_kernel"));
    assert_non_null(strstr(ptx, ".target sm_90a"));
    /* line info points at the C source */
    assert_non_null(strstr(ptx, "kernels/softmax.c"));
    free(ptx);
    char *src = ct_artifact_stage(&b, "source", NULL);
    assert_string_equal(src, ttir);
    free(src);
    char *ttgir = ct_artifact_stage(&b, "ttgir", NULL);
    assert_non_null(strstr(ttgir, "\"ttg.num-warps\" = 4"));
    free(ttgir);
    /* options reach Triton */
    ct_artifact c;
    assert_int_equal(compile(ttir, 8, &c), CT_OK);
    assert_false(c.hit);
    assert_int_equal(c.meta.num_warps, 8);
    assert_string_not_equal(c.key, a.key);
    ct_artifact_free(&a);
    ct_artifact_free(&b);
    ct_artifact_free(&c);
    free(ttir);
}

/* Damages a file of the entry, then expects the next compile to detect it,
 * report it, and rebuild. */
static void damage_and_rebuild(const char *name, void (*damage)(const char *path))
{
    char *ttir = softmax_ttir();
    ct_artifact a, b;
    assert_int_equal(compile(ttir, 4, &a), CT_OK);
    char *p = entry_file(&a, name);
    damage(p);
    free(p);
    ct_artifact probe;
    assert_int_equal(ct_cache_lookup(a.key, &probe), CT_ERR_IO);
    assert_non_null(strstr(ct_errmsg(), "corrupt"));
    assert_int_equal(compile(ttir, 4, &b), CT_OK);
    assert_false(b.hit); /* rebuilt */
    assert_int_equal(a.cubin_size, b.cubin_size);
    ct_artifact c;
    assert_int_equal(compile(ttir, 4, &c), CT_OK);
    assert_true(c.hit);
    ct_artifact_free(&a);
    ct_artifact_free(&b);
    ct_artifact_free(&c);
    free(ttir);
}

static void truncate_half(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(truncate(path, st.st_size / 2), 0);
}

static void remove_file(const char *path) { assert_int_equal(unlink(path), 0); }

static void flip_byte(const char *path)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 100, SEEK_SET);
    int c = fgetc(f);
    fseek(f, 100, SEEK_SET);
    fputc(c ^ 0x20, f);
    fclose(f);
}

static void t_truncated_cubin(void **s) { (void)s; damage_and_rebuild("kernel.cubin", truncate_half); }
static void t_missing_json(void **s) { (void)s; damage_and_rebuild("kernel.json", remove_file); }
static void t_flipped_cubin(void **s) { (void)s; damage_and_rebuild("kernel.cubin", flip_byte); }
static void t_corrupt_manifest(void **s) { (void)s; damage_and_rebuild("MANIFEST", flip_byte); }
static void t_truncated_manifest(void **s) { (void)s; damage_and_rebuild("MANIFEST", truncate_half); }
static void t_missing_manifest(void **s) { (void)s; damage_and_rebuild("MANIFEST", remove_file); }

/* Several processes compile the same kernel at the same moment: all get it,
 * Triton runs once (the others wait on the lock, then hit). */
static void t_concurrent_writers(void **state)
{
    (void)state;
    char *ttir = softmax_ttir();
    enum { N = 4 };
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t pids[N];
    for (int i = 0; i < N; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            close(go[1]);
            char c;
            if (read(go[0], &c, 1) < 0)
                _exit(2);
            ct_artifact a;
            ct_status s = compile(ttir, 2, &a);
            int code = s != CT_OK ? 1 : a.hit ? 11 : 10;
            ct_artifact_free(&a);
            _exit(code);
        }
    }
    close(go[0]);
    close(go[1]); /* releases every child at once */
    int lowered = 0, hits = 0;
    for (int i = 0; i < N; i++) {
        int st;
        assert_int_equal(waitpid(pids[i], &st, 0), pids[i]);
        assert_true(WIFEXITED(st));
        int code = WEXITSTATUS(st);
        assert_true(code == 10 || code == 11);
        lowered += code == 10;
        hits += code == 11;
    }
    assert_int_equal(lowered, 1);
    assert_int_equal(hits, N - 1);
    ct_artifact a;
    assert_int_equal(compile(ttir, 2, &a), CT_OK);
    assert_true(a.hit);
    ct_artifact_free(&a);
    free(ttir);
}

/* A writer that dies after lowering, before publishing, leaves no entry. */
static void t_crash_before_publish(void **state)
{
    (void)state;
    char *ttir = softmax_ttir();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        setenv("CTRITON_FAULT", "cache-crash-before-publish", 1);
        ct_artifact a;
        compile(ttir, 1, &a);
        _exit(0); /* not reached: the fault exits with 77 */
    }
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 77);
    ct_lower_opts o;
    ct_lower_opts_default(&o);
    o.num_warps = 1;
    char key[65];
    ct_cache_key(ttir, &o, key);
    ct_artifact a;
    assert_int_equal(ct_cache_lookup(key, &a), CT_ERR_IO); /* nothing half-written */
    /* the crashed writer's private directory is left; once it is old, the next
     * build sweeps it away (a fresh one, maybe a live build, stays) */
    char tmp[4200], old[4300], fresh[4300];
    snprintf(tmp, sizeof tmp, "%s/v1/tmp", tu_cache);
    snprintf(fresh, sizeof fresh, "%s/fresh.123", tmp);
    assert_int_equal(mkdir(fresh, 0755), 0);
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "cd '%s' && test $(ls | grep -c '^%s') = 1 && touch -d '2 hours ago' %s.*", tmp, key, key);
    assert_int_equal(system(cmd), 0);
    snprintf(old, sizeof old, "%s/%s", tmp, key);
    assert_int_equal(compile(ttir, 1, &a), CT_OK);
    assert_false(a.hit);
    snprintf(cmd, sizeof cmd, "cd '%s' && test $(ls | grep -c '^%s') = 0 && test -d fresh.123", tmp, key);
    assert_int_equal(system(cmd), 0);
    (void)old;
    ct_artifact_free(&a);
    free(ttir);
}

static void t_triton_error_passed_on(void **state)
{
    (void)state;
    ct_artifact a;
    ct_lower_opts o;
    ct_lower_opts_default(&o);
    ct_diags d;
    ct_diags_init(&d);
    ct_status s = ct_compile_ttir("module {\n  tt.bogus_op\n}\n", &o, &a, &d);
    assert_int_equal(s, CT_ERR_COMPILE);
    /* MLIR's own diagnostic, with its line and column */
    assert_non_null(strstr(ct_errmsg(), "tt.bogus_op"));
    assert_true(ct_diags_has_errors(&d));
    ct_diags_free(&d);
    /* nothing was cached */
    char key[65];
    ct_cache_key("module {\n  tt.bogus_op\n}\n", &o, key);
    assert_int_equal(ct_cache_lookup(key, &a), CT_ERR_IO);
}

static void t_wrong_triton_version(void **state)
{
    (void)state;
    char *ttir = softmax_ttir();
    /* a release ctriton does not support: refused before any lowering, with the list */
    setenv("CTRITON_TRITON_VERSION", "9.9.9", 1);
    ct_artifact a;
    ct_status s = compile(ttir, 4, &a);
    unsetenv("CTRITON_TRITON_VERSION");
    assert_int_equal(s, CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "Triton 9.9.9"));
    assert_non_null(strstr(ct_errmsg(), "supported: 3.6.0, "));
    /* a supported release that the Python which lowers does not have: lower.py says so */
    const char *have = ct_triton_detected();
    const char *other = strcmp(have, "3.9.0") ? "3.9.0" : "3.6.0";
    setenv("CTRITON_TRITON_VERSION", other, 1);
    s = compile(ttir, 4, &a);
    unsetenv("CTRITON_TRITON_VERSION");
    assert_int_equal(s, CT_ERR_COMPILE);
    char want[128];
    snprintf(want, sizeof want, "but the TTIR targets Triton %s", other);
    assert_non_null(strstr(ct_errmsg(), want));
    free(ttir);
}

static void t_no_python(void **state)
{
    (void)state;
    char *ttir = softmax_ttir();
    char *saved = getenv("CTRITON_PYTHON") ? strdup(getenv("CTRITON_PYTHON")) : NULL;
    setenv("CTRITON_PYTHON", "/nonexistent/python3", 1);
    ct_artifact a;
    ct_status s = compile(ttir, 4, &a);
    if (saved) {
        setenv("CTRITON_PYTHON", saved, 1);
        free(saved);
    } else {
        unsetenv("CTRITON_PYTHON");
    }
    assert_int_equal(s, CT_ERR_COMPILE);
    assert_non_null(strstr(ct_errmsg(), "/nonexistent/python3"));
    free(ttir);
}

/* A batch: misses lowered by one subprocess, duplicates built once. */
static void t_many(void **state)
{
    (void)state;
    char *ttir = softmax_ttir();
    const char *ttirs[4] = {ttir, ttir, ttir, ttir};
    ct_lower_opts o[4];
    for (int i = 0; i < 4; i++)
        ct_lower_opts_default(&o[i]);
    o[1].num_warps = 8;
    o[2].arch = 80;
    /* o[3] duplicates o[0] */
    ct_artifact a[4];
    ct_status st[4];
    ct_diags d;
    ct_diags_init(&d);
    assert_int_equal(ct_compile_ttir_many(4, ttirs, o, a, st, &d), CT_OK);
    ct_diags_free(&d);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(st[i], CT_OK);
        assert_string_equal(a[i].meta.name, "softmax_kernel");
    }
    assert_int_equal(a[1].meta.num_warps, 8);
    assert_int_equal(a[2].meta.arch, 80);
    assert_string_equal(a[0].key, a[3].key);
    char *ptx = ct_artifact_stage(&a[2], "ptx", NULL);
    assert_non_null(strstr(ptx, ".target sm_80"));
    free(ptx);
    for (int i = 0; i < 4; i++)
        ct_artifact_free(&a[i]);
    free(ttir);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_key),
        cmocka_unit_test(t_dir),
        cmocka_unit_test_setup_teardown(t_miss_then_hit, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_truncated_cubin, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_missing_json, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_flipped_cubin, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_corrupt_manifest, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_truncated_manifest, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_missing_manifest, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_concurrent_writers, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_crash_before_publish, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_triton_error_passed_on, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_wrong_triton_version, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_no_python, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_many, tu_cache_setup, tu_cache_teardown),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
