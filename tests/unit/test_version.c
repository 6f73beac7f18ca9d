/*
 * test_version.c - the table of Triton releases and how a build's target is
 * chosen (include/ctriton/triton_version.h): the supported list, refusal of any
 * other release with that list, $CTRITON_TRITON_VERSION, detection of the
 * release installed beside the Python that lowers, and the target as part
 * of the cache key.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctriton/compile.h"
#include "ctriton/text.h"
#include "ctriton/triton_version.h"
#include "kernels_testutil.h"

/* Detection runs once per process: the first test fakes a venv with Triton
 * 3.8.0 (PREFIX/bin/python, PREFIX/lib/python3.11/site-packages/triton-3.8.0.dist-info). */
static void t_detect(void **state)
{
    (void)state;
    char dir[] = "/tmp/ctriton-venv-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char p[512];
    snprintf(p, sizeof p, "%s/bin", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/bin/python", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    chmod(p, 0755);
    setenv("CTRITON_PYTHON", p, 1);
    const char *mk[] = {"lib", "lib/python3.11", "lib/python3.11/site-packages",
                        "lib/python3.11/site-packages/triton-3.8.0.dist-info"};
    for (int i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, mk[i]);
        assert_int_equal(mkdir(p, 0755), 0);
    }
    unsetenv("CTRITON_TRITON_VERSION");
    assert_string_equal(ct_triton_detected(), "3.8.0");
    const ct_triton *t = ct_triton_resolve(NULL, NULL);
    assert_non_null(t);
    assert_string_equal(t->name, "3.8.0");
    /* the environment comes before detection, the caller before both */
    setenv("CTRITON_TRITON_VERSION", "3.7.1", 1);
    assert_string_equal(ct_triton_resolve(NULL, NULL)->name, "3.7.1");
    assert_string_equal(ct_triton_resolve("3.9.0", NULL)->name, "3.9.0");
    unsetenv("CTRITON_TRITON_VERSION");
    unsetenv("CTRITON_PYTHON");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void t_table(void **state)
{
    (void)state;
    char list[256];
    assert_string_equal(ct_triton_supported(list, sizeof list), "3.6.0, 3.7.0, 3.7.1, 3.8.0, 3.9.0");
    assert_int_equal(ct_triton_count(), 5);
    assert_ptr_equal(ct_triton_baseline(), ct_triton_find("3.6.0"));
    for (int i = 1; i < ct_triton_count(); i++)
        assert_true(ct_triton_cmp(ct_triton_at(i - 1), ct_triton_at(i)) < 0);
    assert_null(ct_triton_find("3.5.1"));
    assert_null(ct_triton_find("3.10.0"));
    assert_null(ct_triton_find("3.9"));
    assert_null(ct_triton_find(""));
    assert_null(ct_triton_find(NULL));
    /* the facts follow the releases (spot checks against Triton's sources) */
    assert_int_equal(ct_triton_find("3.6.0")->block_ptrs, CT_BLOCK_PTR_OPS);
    assert_int_equal(ct_triton_find("3.8.0")->block_ptrs, CT_BLOCK_PTR_AGGREGATE);
    assert_int_equal(ct_triton_find("3.9.0")->block_ptrs, CT_BLOCK_PTR_REMOVED);
    assert_false(ct_triton_find("3.6.0")->mangle_in_order);
    assert_true(ct_triton_find("3.7.0")->mangle_in_order);
    assert_false(ct_triton_find("3.7.1")->tensordesc_bare);
    assert_true(ct_triton_find("3.8.0")->tensordesc_bare);
    assert_false(ct_triton_find("3.8.0")->cache_policy_attr);
    assert_true(ct_triton_find("3.9.0")->cache_policy_attr);
    /* 3.7.0 and 3.7.1 have one frontend: every fact equal */
    const ct_triton *a = ct_triton_find("3.7.0"), *b = ct_triton_find("3.7.1");
    ct_triton x = *a, y = *b;
    x.name = y.name = NULL;
    x.patch = y.patch = 0;
    assert_memory_equal(&x, &y, sizeof x);
}

static void t_refused(void **state)
{
    (void)state;
    ct_diags d;
    ct_diags_init(&d);
    assert_null(ct_triton_resolve("3.10.0", &d));
    const char *e = ct_diags_first_error(&d);
    assert_non_null(e);
    assert_non_null(strstr(e, "Triton 3.10.0"));
    assert_non_null(strstr(e, "supported: 3.6.0, 3.7.0, 3.7.1, 3.8.0, 3.9.0"));
    ct_diags_free(&d);
    /* the same from the environment, named as such */
    setenv("CTRITON_TRITON_VERSION", "2.3.1", 1);
    ct_diags_init(&d);
    assert_null(ct_triton_resolve(NULL, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "$CTRITON_TRITON_VERSION"));
    ct_diags_free(&d);
    unsetenv("CTRITON_TRITON_VERSION");
    /* a build for an unsupported release is refused, not built for another */
    const ct_kernel_entry *k = tu_kernel("add_kernel");
    assert_non_null(k);
    tl_options o;
    tl_options_default(&o);
    o.triton = "3.5.0";
    ct_diags_init(&d);
    ct_module *m = tl_build(k->def, k->configs[0].signature, k->configs[0].constexprs, &o, &d);
    assert_null(m);
    assert_non_null(strstr(ct_diags_first_error(&d), "Triton 3.5.0"));
    ct_diags_free(&d);
}

static void t_module_and_key(void **state)
{
    (void)state;
    const ct_kernel_entry *k = tu_kernel("add_kernel");
    tl_options o;
    tl_options_default(&o);
    o.triton = "3.9.0";
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(k->def, k->configs[0].signature, k->configs[0].constexprs, &o, &d);
    assert_non_null(m);
    assert_string_equal(ct_module_triton(m)->name, "3.9.0");
    ct_module_destroy(m);
    ct_diags_free(&d);
    /* the same text, lowered for two releases, is two cache entries */
    ct_lower_opts a, b;
    ct_lower_opts_default(&a);
    b = a;
    a.triton = "3.8.0";
    b.triton = "3.9.0";
    char ka[65], kb[65];
    ct_cache_key("module {}", &a, ka);
    ct_cache_key("module {}", &b, kb);
    assert_string_not_equal(ka, kb);
    /* the default target is the environment's: the same key as asking for it */
    setenv("CTRITON_TRITON_VERSION", "3.9.0", 1);
    ct_lower_opts_default(&a);
    ct_cache_key("module {}", &a, ka);
    unsetenv("CTRITON_TRITON_VERSION");
    assert_string_equal(ka, kb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_detect),
        cmocka_unit_test(t_table),
        cmocka_unit_test(t_refused),
        cmocka_unit_test(t_module_and_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
