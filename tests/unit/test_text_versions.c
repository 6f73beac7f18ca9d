/*
 * test_text_versions.c - the TTIR text of each Triton release: the printer
 * writes the module's release's spellings, the parser reads every release's
 * and records which releases a text can belong to (never reading one
 * release's text as another's), a text mixing releases is refused, and
 * lowering refuses TTIR of another release than the target before Triton
 * sees it.  Whole-kernel round trips of Python's 3.9 TTIR are in test_parse
 * (tests/golden/<k>/<c>/py-3.9.0.source); running it, in test_emu_golden.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/compile.h"
#include "ctriton/text.h"
#include "ctriton/triton_version.h"
#include "kernels_testutil.h"

/* a kernel with every spelling that differs: a descriptor type, load and store
 * hints, a barrier */
static const char *text_36 =
    "module {\n"
    "  tt.func public @k(%arg0: !tt.ptr<f32>, %arg1: !tt.tensordesc<tensor<64x32xf32>>) "
    "attributes {noinline = false} {\n"
    "    %0 = tt.load %arg0 cacheModifier = cg evictionPolicy = evict_last : !tt.ptr<f32>\n"
    "    tt.store %arg0, %0 cacheModifier = cs : !tt.ptr<f32>\n"
    "    gpu.barrier\n"
    "    tt.return\n"
    "  }\n"
    "}\n";
static const char *text_39 =
    "module {\n"
    "  tt.func public @k(%arg0: !tt.ptr<f32>, %arg1: !tt.tensordesc<64x32xf32>) "
    "attributes {noinline = false} {\n"
    "    %0 = tt.load %arg0 {cachePolicy = #tt.cache_policy<cache_modifier = cg, "
    "eviction_policy = evict_last>} : !tt.ptr<f32>\n"
    "    tt.store %arg0, %0 {cachePolicy = #tt.cache_policy<cache_modifier = cs, "
    "eviction_policy = evict_normal>} : !tt.ptr<f32>\n"
    "    ttg.barrier all\n"
    "    tt.return\n"
    "  }\n"
    "}\n";

static ct_module *parse(const char *text, const char **err)
{
    static char msg[1024];
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(text, strlen(text), "t.ttir", &d);
    const char *e = ct_diags_first_error(&d);
    snprintf(msg, sizeof msg, "%s", e ? e : "");
    *err = msg;
    ct_diags_free(&d);
    return m;
}

static void t_read_and_write_each_release(void **state)
{
    (void)state;
    const char *err;
    ct_module *a = parse(text_36, &err);
    assert_non_null(a);
    assert_string_equal(a->text_lo->name, "3.6.0");
    assert_string_equal(a->text_hi->name, "3.7.1"); /* the wrapped descriptor type */
    ct_module *b = parse(text_39, &err);
    assert_non_null(b);
    assert_string_equal(b->text_lo->name, "3.9.0"); /* the cache policy attribute */
    assert_string_equal(b->text_hi->name, "3.9.0");
    /* each prints back as it was written */
    char *pa = ct_print_module(a, 0), *pb = ct_print_module(b, 0);
    assert_string_equal(pa, text_36);
    assert_string_equal(pb, text_39);
    free(pa);
    free(pb);
    /* a 3.9 module printed for 3.6 is the 3.6 text, but for the barrier op (both
     * releases have gpu.barrier; ttg.barrier is 3.7's tl.debug_barrier) */
    b->triton = ct_triton_find("3.6.0");
    char *p36 = ct_print_module(b, 0);
    assert_non_null(strstr(p36, "!tt.tensordesc<tensor<64x32xf32>>"));
    assert_non_null(strstr(p36, "cacheModifier = cg evictionPolicy = evict_last"));
    assert_non_null(strstr(p36, "tt.store %arg0, %0 cacheModifier = cs :"));
    free(p36);
    ct_module_destroy(a);
    ct_module_destroy(b);
}

/* ctriton diff compares a kernel's TTIR of two releases */
static void t_diff_across_releases(void **state)
{
    (void)state;
    const ct_kernel_entry *k = tu_kernel("ops_tensor_desc");
    assert_non_null(k);
    char *texts[2];
    const char *rel[2] = {"3.7.1", "3.8.0"}; /* the descriptor types differ, the code not */
    for (int i = 0; i < 2; i++) {
        tl_options o;
        tl_options_default(&o);
        o.triton = rel[i];
        ct_diags d;
        ct_diags_init(&d);
        ct_module *m = tl_build(k->def, k->configs[0].signature, k->configs[0].constexprs, &o, &d);
        assert_non_null(m);
        texts[i] = ct_print_module(m, 0);
        ct_module_destroy(m);
        ct_diags_free(&d);
    }
    assert_non_null(strstr(texts[0], "!tt.tensordesc<tensor<64x64xf16>>"));
    assert_non_null(strstr(texts[1], "!tt.tensordesc<64x64xf16>"));
    const char *err;
    ct_module *a = parse(texts[0], &err), *b = parse(texts[1], &err);
    assert_non_null(a);
    assert_non_null(b);
    ct_diff_result r;
    ct_diff_modules(a, b, rel[0], rel[1], &r, NULL);
    assert_true(r.equal);
    ct_diff_result_free(&r);
    ct_module_destroy(a);
    ct_module_destroy(b);
    free(texts[0]);
    free(texts[1]);
}

static void t_refusals(void **state)
{
    (void)state;
    const char *err;
    /* one text, two releases' spellings */
    const char *mixed =
        "module {\n"
        "  tt.func public @k(%arg0: !tt.ptr<f32>, %arg1: !tt.tensordesc<tensor<64x32xf32>>) {\n"
        "    %0 = tt.load %arg0 {cachePolicy = #tt.cache_policy<cache_modifier = cg, "
        "eviction_policy = evict_last>} : !tt.ptr<f32>\n"
        "    tt.return\n"
        "  }\n"
        "}\n";
    assert_null(parse(mixed, &err));
    assert_non_null(strstr(err, "the text mixes two Triton releases"));
    assert_non_null(strstr(err, "Triton 3.9.0"));
    assert_non_null(strstr(err, "Triton 3.6.0 to 3.7.1"));
    assert_non_null(strstr(err, "(line 2)"));
    /* the old keywords beside the new attribute */
    const char *both = "module {\n  tt.func public @k(%arg0: !tt.ptr<f32>) {\n"
                       "    %0 = tt.load %arg0 cacheModifier = cg {cachePolicy = "
                       "#tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last>} : "
                       "!tt.ptr<f32>\n    tt.return\n  }\n}\n";
    assert_null(parse(both, &err));
    assert_non_null(strstr(err, "mixes two Triton releases"));
    /* a bad cache policy */
    const char *bad[] = {
        "#tt.cache_policy<cache_modifier = cg>",
        "#tt.cache_policy<cache_modifier = bogus, eviction_policy = evict_last>",
        "#tt.cache_policy<cache_modifier = cg, eviction_policy = evict_last, x = 1>",
        "#tt.cache_policy<eviction_policy = evict_last, eviction_policy = evict_last>",
        "#tt.other<cache_modifier = cg, eviction_policy = evict_last>",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char t[512];
        snprintf(t, sizeof t,
                 "module {\n  tt.func public @k(%%arg0: !tt.ptr<f32>) {\n    %%0 = tt.load %%arg0 "
                 "{cachePolicy = %s} : !tt.ptr<f32>\n    tt.return\n  }\n}\n", bad[i]);
        ct_module *m = parse(t, &err);
        if (m)
            fail_msg("accepted: %s", bad[i]);
        assert_true(strstr(err, "cache_policy") || strstr(err, "cachePolicy") ||
                    strstr(err, "cache_modifier"));
    }
    /* in either order, the parameters are the same hints */
    const char *swapped = "module {\n  tt.func public @k(%arg0: !tt.ptr<f32>) {\n"
                          "    %0 = tt.load %arg0 {cachePolicy = #tt.cache_policy<eviction_policy "
                          "= evict_first, cache_modifier = ca>} : !tt.ptr<f32>\n    tt.return\n"
                          "  }\n}\n";
    ct_module *m = parse(swapped, &err);
    assert_non_null(m);
    char *p = ct_print_module(m, 0);
    assert_non_null(strstr(p, "cache_modifier = ca, eviction_policy = evict_first"));
    free(p);
    ct_module_destroy(m);
    /* block-pointer ops and ttg.barrier belong to some releases only: with both, the
     * text is 3.7's; a block pointer beside 3.8's descriptor type is no release's */
    const char *ops37 =
        "module {\n  tt.func public @k(%arg0: !tt.ptr<f32>, %arg1: i64, %arg2: i32) {\n"
        "    ttg.barrier all\n"
        "    %0 = tt.make_tensor_ptr %arg0, [%arg1], [%arg1], [%arg2] {order = array<i32: 0>} : "
        "<tensor<4xf32>>\n    tt.return\n  }\n}\n";
    m = parse(ops37, &err);
    assert_non_null(m);
    assert_string_equal(m->text_lo->name, "3.7.0");
    assert_string_equal(m->text_hi->name, "3.7.1");
    ct_module_destroy(m);
    const char *both_ops =
        "module {\n  tt.func public @k(%arg0: !tt.ptr<f32>, %arg1: i64, %arg2: i32, "
        "%arg3: !tt.tensordesc<4xf32>) {\n"
        "    %0 = tt.make_tensor_ptr %arg0, [%arg1], [%arg1], [%arg2] {order = array<i32: 0>} : "
        "<tensor<4xf32>>\n    tt.return\n  }\n}\n";
    assert_null(parse(both_ops, &err));
    assert_non_null(strstr(err, "mixes two Triton releases"));
}

/* Lowering refuses TTIR written for another release than the target, naming
 * the spelling (no Triton is run: the refusal comes first). */
static void t_lowering_refuses_other_release(void **state)
{
    (void)state;
    ct_lower_opts o;
    ct_lower_opts_default(&o);
    o.triton = "3.9.0";
    ct_artifact a;
    ct_diags d;
    ct_diags_init(&d);
    char dir[] = "/tmp/ctriton-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("CTRITON_CACHE_DIR", dir, 1);
    ct_status s = ct_compile_ttir(text_36, &o, &a, &d);
    unsetenv("CTRITON_CACHE_DIR");
    assert_int_equal(s, CT_ERR_INVALID);
    const char *e = ct_errmsg();
    assert_non_null(strstr(e, "the TTIR is written for Triton 3.6.0 to 3.7.1"));
    assert_non_null(strstr(e, "!tt.tensordesc<tensor<...>> (line 2)"));
    assert_non_null(strstr(e, "the target is Triton 3.9.0"));
    ct_diags_free(&d);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_read_and_write_each_release),
        cmocka_unit_test(t_diff_across_releases),
        cmocka_unit_test(t_refusals),
        cmocka_unit_test(t_lowering_refuses_other_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
