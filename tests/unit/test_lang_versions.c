/*
 * test_lang_versions.c - the kernel language per Triton release
 * (ctriton/triton_version.h): every library and conformance kernel builds for every
 * supported release (a valid module, printed for it) or, where the release's
 * Python refuses the kernel, is refused with Python's message and the
 * release; and each fact the builtins consult shows in what they emit, as
 * Triton's sources say (the fidelity tables, tests/golden/VERDICTS-*.md,
 * compare whole kernels against Python; this test needs no Triton).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/check.h"
#include "ctriton/text.h"
#include "ctriton/tl.h"
#include "ctriton/triton_version.h"
#include "kernels_testutil.h"

/* Builds `k` for `release`; the printed module (malloc'd) or NULL with the
 * first error in *err (static buffer). */
/* a config's options (tl_config.options): NULL for none */
static const char *build_options;

static char *build(const tl_kernel_def *k, const char *sig, const char *cx, const char *release,
                   const char **err)
{
    static char msg[2048];
    tl_options o;
    tl_options_default(&o);
    assert_true(tl_options_parse(&o, build_options, NULL));
    o.triton = release;
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(k, sig, cx, &o, &d);
    char *text = NULL;
    *err = NULL;
    if (m) {
        assert_string_equal(ct_module_triton(m)->name, release);
        text = ct_print_module(m, 0);
        ct_module_destroy(m);
    } else {
        const char *e = ct_diags_first_error(&d);
        snprintf(msg, sizeof msg, "%s", e ? e : "(no message)");
        *err = msg;
    }
    ct_diags_free(&d);
    return text;
}

static void t_every_kernel_every_release(void **state)
{
    (void)state;
    const ct_kernel_entry *ks[256];
    int n = tu_kernels(ks, 256, true);
    for (int v = 0; v < ct_triton_count(); v++) {
        const ct_triton *tv = ct_triton_at(v);
        for (int i = 0; i < n; i++)
            for (int c = 0; c < ks[i]->nconfigs; c++) {
                const tl_config *cfg = &ks[i]->configs[c];
                const char *err;
                build_options = cfg->options;
                char *text = build(ks[i]->def, cfg->signature, cfg->constexprs, tv->name, &err);
                build_options = NULL;
                /* the kernels made of block pointers (refused by 3.9, as Python refuses them) */
                bool block_ptrs = !strcmp(ks[i]->def->name, "ops_block_ptr") ||
                                  !strcmp(ks[i]->def->name, "port_block_ptr_pad");
                if (block_ptrs && tv->block_ptrs == CT_BLOCK_PTR_REMOVED) {
                    if (text || !strstr(err, "Block pointers have been removed in favor of the "
                                             "tensor descriptor API") ||
                        !strstr(err, tv->name))
                        fail_msg("%s/%s for %s: %s", ks[i]->def->name, cfg->name, tv->name,
                                 text ? "built" : err);
                    free(text);
                    continue;
                }
                if (!text)
                    fail_msg("%s/%s for %s: %s", ks[i]->def->name, cfg->name, tv->name, err);
                /* block-pointer ops exist only where the dialect has them */
                bool has_ptr_ops = strstr(text, "tt.make_tensor_ptr") != NULL;
                if (has_ptr_ops != (block_ptrs && tv->block_ptrs == CT_BLOCK_PTR_OPS))
                    fail_msg("%s for %s: tt.make_tensor_ptr %s", ks[i]->def->name, tv->name,
                             has_ptr_ops ? "present" : "missing");
                free(text);
            }
    }
}

/* -x of a float: 0 - x before 3.8, arith.negf from 3.8 (semantic.minus) */
TL_KERNEL(k_neg, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_store(tl_add(y_ptr, offs), tl_neg(tl_load(tl_add(x_ptr, offs))));
}

static void t_float_minus(void **state)
{
    (void)state;
    const char *err;
    char *a = build(&k_neg, "*fp32 *fp32", "B=16", "3.7.1", &err);
    char *b = build(&k_neg, "*fp32 *fp32", "B=16", "3.8.0", &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(strstr(a, "arith.subf"));
    assert_null(strstr(a, "arith.negf"));
    assert_non_null(strstr(b, "arith.negf"));
    assert_null(strstr(b, "arith.subf"));
    free(a);
    free(b);
}

/* a helper with a constexpr argument and a helper returning a constexpr */
TL_JIT(twice, (x, k))
{
    return tl_mul(x, k);
}

TL_JIT(four, (n))
{
    (void)n;
    return tl_c(4);
}

TL_KERNEL(k_jit, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor y = TL_CALL(twice, x, 3);
    tl_store(tl_add(y_ptr, offs), tl_add(y, TL_CALL(four, B)));
}

static void t_mangling_and_returns(void **state)
{
    (void)state;
    const char *err;
    char *a = build(&k_jit, "*fp32 *fp32", "B=16", "3.6.0", &err);
    char *b = build(&k_jit, "*fp32 *fp32", "B=16", "3.7.0", &err);
    assert_non_null(a);
    assert_non_null(b);
    /* mangle_fn: runtime types, then constexprs by path (3.6); every argument in order (3.7) */
    assert_non_null(strstr(a, "test_lang_versions.twice__fp32S16S__(1,)cconstexpr_3_"));
    assert_non_null(strstr(b, "@test_lang_versions.twice__fp32S16S_c3("));
    /* a helper returning a number: an i32 result (3.6), nothing and a constexpr (3.7) */
    assert_non_null(strstr(a, "@\"test_lang_versions.four____(0,)cconstexpr_16_\"() -> i32"));
    assert_non_null(strstr(b, "@test_lang_versions.four__c16() attributes"));
    assert_null(strstr(b, "four__c16() -> i32"));
    free(a);
    free(b);
}

/* tl.cat without can_reorder: refused by 3.6, join/permute/reshape from 3.7 */
TL_KERNEL(k_cat, (x_ptr, y_ptr), (int, B))
{
    tl_tensor r = tl_arange(0, B);
    tl_tensor x = tl_load(tl_add(x_ptr, tl_add(tl_mul(tl_idx(r, ":, None"), B), tl_idx(r, "None, :"))));
    tl_tensor c = tl_cat(x, x, .dim = 1);
    tl_tensor o = tl_add(tl_mul(tl_idx(r, ":, None"), 2 * B), tl_idx(tl_arange(0, 2 * B), "None, :"));
    tl_store(tl_add(y_ptr, o), c);
}

static void t_cat(void **state)
{
    (void)state;
    const char *err;
    char *a = build(&k_cat, "*fp32 *fp32", "B=16", "3.6.0", &err);
    assert_null(a);
    assert_non_null(strstr(err, "current implementation of `cat` always may reorder elements"));
    char *b = build(&k_cat, "*fp32 *fp32", "B=16", "3.7.1", &err);
    assert_non_null(b);
    assert_non_null(strstr(b, "tt.join"));
    assert_non_null(strstr(b, "tt.trans"));
    assert_non_null(strstr(b, "tt.reshape"));
    assert_non_null(strstr(b, "tensor<16x32xf32>"));
    free(b);
}

/* block pointers in a loop: tt.make_tensor_ptr (3.7); scalars carried field by
 * field and a masked load (3.8); refused with Python's message (3.9) */
TL_KERNEL(k_bptr, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor p = tl_make_block_ptr(x_ptr, tl_tuple(n), tl_tuple(1), tl_tuple(0), tl_shape(B), tl_ints(0));
    tl_tensor acc = tl_zeros(tl_shape(B), tl_float32);
    TL_FOR(i, tl_range(0, n, B), p, acc)
    {
        acc = tl_add(acc, tl_load(p, .boundary_check = tl_ints(0), .padding_option = "zero"));
        p = tl_advance(p, tl_tuple(B));
    }
    tl_store(tl_add(y_ptr, tl_arange(0, B)), acc);
}

static void t_block_ptrs(void **state)
{
    (void)state;
    const char *err;
    char *a = build(&k_bptr, "*fp32 *fp32 i32", "B=64", "3.7.1", &err);
    assert_non_null(a);
    assert_non_null(strstr(a, "tt.make_tensor_ptr"));
    assert_non_null(strstr(a, "tt.advance"));
    free(a);
    char *b = build(&k_bptr, "*fp32 *fp32 i32", "B=64", "3.8.0", &err);
    assert_non_null(b);
    assert_null(strstr(b, "tt.make_tensor_ptr"));
    assert_null(strstr(b, "tt.advance"));
    /* the loop carries base, shape, stride, offset and acc: five iter_args */
    assert_non_null(strstr(b, "-> (!tt.ptr<f32>, i64, i64, i64, tensor<64xf32>)"));
    assert_non_null(strstr(b, "arith.cmpi slt"));
    free(b);
    char *c = build(&k_bptr, "*fp32 *fp32 i32", "B=64", "3.9.0", &err);
    assert_null(c);
    assert_non_null(strstr(err, "Block pointers have been removed in favor of the tensor "
                                "descriptor API"));
    assert_non_null(strstr(err, "3.9.0"));
}

/* tl.load(boundary_check=) of an ordinary pointer: 3.9's load() has no such parameter */
TL_KERNEL(k_bc, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_store(tl_add(y_ptr, offs), tl_load(tl_add(x_ptr, offs), .boundary_check = tl_ints(0)));
}

static void t_removed_keywords(void **state)
{
    (void)state;
    const char *err;
    assert_null(build(&k_bc, "*fp32 *fp32", "B=16", "3.8.0", &err));
    assert_non_null(strstr(err, "`padding_option` or `boundary_check` argument is not supported"));
    assert_null(build(&k_bc, "*fp32 *fp32", "B=16", "3.9.0", &err));
    assert_non_null(strstr(err, "load() got an unexpected keyword argument 'boundary_check'"));
}

/* x < 1 on an int64 tensor: the number is an i32 tensor first (3.8: an extsi),
 * a scalar typed as i64 (3.9: no extsi) */
TL_KERNEL(k_cmp, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_store(tl_add(y_ptr, offs), tl_lt(x, 1));
}

static void t_scalar_operands(void **state)
{
    (void)state;
    const char *err;
    char *a = build(&k_cmp, "*i64 *i1", "B=16", "3.8.0", &err);
    char *b = build(&k_cmp, "*i64 *i1", "B=16", "3.9.0", &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(strstr(a, "arith.constant 1 : i32"));
    assert_null(strstr(b, "arith.constant 1 : i32"));
    assert_non_null(strstr(b, "arith.constant dense<1> : tensor<16xi64>"));
    free(a);
    free(b);
}

/* fp16 -> bf16: through fp32 before 3.9, one tt.fp_to_fp from 3.9 */
TL_KERNEL(k_h2b, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_store(tl_add(y_ptr, offs), tl_to(tl_load(tl_add(x_ptr, offs)), tl_bfloat16));
}

static void t_fp16_bf16(void **state)
{
    (void)state;
    const char *err;
    char *a = build(&k_h2b, "*fp16 *bf16", "B=16", "3.8.0", &err);
    char *b = build(&k_h2b, "*fp16 *bf16", "B=16", "3.9.0", &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(strstr(a, "arith.extf"));
    assert_null(strstr(a, "tt.fp_to_fp"));
    assert_non_null(strstr(b, "tt.fp_to_fp"));
    assert_null(strstr(b, "arith.extf"));
    free(a);
    free(b);
}

/* tl.topk(descending=False): a TypeError before 3.8 */
TL_KERNEL(k_topk, (x_ptr, y_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    tl_store(tl_add(y_ptr, tl_arange(0, 4)), tl_topk(x, 4, .descending = false));
}

static void t_topk_descending(void **state)
{
    (void)state;
    const char *err;
    assert_null(build(&k_topk, "*fp32 *fp32", "B=16", "3.7.1", &err));
    assert_non_null(strstr(err, "topk() got an unexpected keyword argument 'descending'"));
    char *b = build(&k_topk, "*fp32 *fp32", "B=16", "3.8.0", &err);
    assert_non_null(b);
    assert_non_null(strstr(b, "topk__fp32S16S_c4_cNone_cFalse"));
    free(b);
}

/* cache hints: a load's ".cs" from 3.8; 3.9's _CachePolicy takes "cg" without the dot */
TL_KERNEL(k_hint_cs, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_store(tl_add(y_ptr, offs), tl_load(tl_add(x_ptr, offs), .cache_modifier = ".cs"));
}

TL_KERNEL(k_hint_nodot, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_store(tl_add(y_ptr, offs), tl_load(tl_add(x_ptr, offs), .cache_modifier = "cg"));
}

static void t_cache_hints(void **state)
{
    (void)state;
    const char *err;
    assert_null(build(&k_hint_cs, "*fp32 *fp32", "B=16", "3.7.1", &err));
    assert_non_null(strstr(err, "Cache modifier .cs not supported"));
    char *a = build(&k_hint_cs, "*fp32 *fp32", "B=16", "3.8.0", &err);
    assert_non_null(a);
    assert_non_null(strstr(a, "cacheModifier = cs"));
    free(a);
    assert_null(build(&k_hint_nodot, "*fp32 *fp32", "B=16", "3.8.0", &err));
    char *b = build(&k_hint_nodot, "*fp32 *fp32", "B=16", "3.9.0", &err);
    assert_non_null(b);
    assert_non_null(strstr(b, "#tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>"));
    free(b);
}

/* tl.zeros([], dtype): the empty shape is a tuple constexpr, mangled `TT` from 3.7
 * (`zeros__TT_ci32`), no entry in 3.6 (`zeros____(1,)cconstexpr_int32_`); not a None */
TL_KERNEL(k_zeros_scalar, (y_ptr))
{
    tl_store(y_ptr, tl_zeros(tl_shape(), tl_int32));
}

static void t_zeros_empty_shape(void **state)
{
    (void)state;
    const char *err;
    char *a = build(&k_zeros_scalar, "*i32", "", "3.6.0", &err);
    char *b = build(&k_zeros_scalar, "*i32", "", "3.7.0", &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(strstr(a, "standard.zeros____(1,)cconstexpr_int32_"));
    assert_non_null(strstr(b, "@triton.language.standard.zeros__TT_ci32("));
    assert_null(strstr(b, "cNone"));
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_every_kernel_every_release),
        cmocka_unit_test(t_float_minus),
        cmocka_unit_test(t_zeros_empty_shape),
        cmocka_unit_test(t_mangling_and_returns),
        cmocka_unit_test(t_cat),
        cmocka_unit_test(t_block_ptrs),
        cmocka_unit_test(t_removed_keywords),
        cmocka_unit_test(t_scalar_operands),
        cmocka_unit_test(t_fp16_bf16),
        cmocka_unit_test(t_topk_descending),
        cmocka_unit_test(t_cache_hints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
