/*
 * test_spec.c - ct_launch's specialization against Triton's own.
 *
 * tests/unit/data/spec_keys.txt was written by scripts/gen_spec_keys.py with
 * Triton 3.6's binder (the native specialize_impl) and _pack_args for the same
 * argument lists: each line has the JIT's key `str(specialization)` and the
 * signature the compiler gets.  Here the same arguments, made with ct_ptr,
 * ct_int, ct_i64, ..., must give the same key and the same signature.
 * Then the specializations are used for real: kernels compiled (no GPU
 * needed) per key, with the checks ct_launch makes before launching.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile_internal.h"
#include "ctriton/launch.h"
#include "kernels_testutil.h"
#include "launch_testutil.h"

static tl_dtype dtype_named(const char *n)
{
    tl_dtype d = tl_dtype_from_name(n);
    assert_non_null(d);
    return d;
}

static ct_arg parse_arg(const char *tok)
{
    char kind[16], rest[64];
    assert_int_equal(sscanf(tok, "%15[^:]:%63s", kind, rest), 2);
    if (!strcmp(kind, "ptr")) {
        char dt[16];
        unsigned long long addr;
        assert_int_equal(sscanf(rest, "%15[^:]:%llx", dt, &addr), 2);
        return ct_ptr(addr, dtype_named(dt));
    }
    if (!strcmp(kind, "int")) {
        if (rest[0] == '-')
            return ct_int(strtoll(rest, NULL, 10));
        return ct_uint(strtoull(rest, NULL, 10));
    }
    if (!strcmp(kind, "float"))
        return ct_float(strtod(rest, NULL));
    if (!strcmp(kind, "bool"))
        return ct_bool(atoi(rest));
    if (!strcmp(kind, "i32"))
        return ct_i32(atoll(rest));
    if (!strcmp(kind, "i64"))
        return ct_i64(strtoll(rest, NULL, 10));
    if (!strcmp(kind, "u32"))
        return ct_u32(strtoull(rest, NULL, 10));
    if (!strcmp(kind, "u64"))
        return ct_u64(strtoull(rest, NULL, 10));
    if (!strcmp(kind, "fp32"))
        return ct_f32(strtod(rest, NULL));
    if (!strcmp(kind, "fp64"))
        return ct_f64(strtod(rest, NULL));
    if (!strcmp(kind, "fp16"))
        return ct_f16(strtod(rest, NULL));
    if (!strcmp(kind, "bf16"))
        return ct_bf16(strtod(rest, NULL));
    if (!strcmp(kind, "u1"))
        return (ct_arg){.kind = CT_ARG_TYPED, .type = TL_INT1, .v.i = atoi(rest)};
    fail_msg("unknown argument kind %s", kind);
    return (ct_arg){0};
}

static uint64_t mask_of(const char *names)
{
    uint64_t m = 0;
    for (const char *p = names; *p;) {
        if (*p == 'a') {
            m |= 1ull << atoi(p + 1);
            while (*p && *p != ' ')
                p++;
        } else {
            p++;
        }
    }
    return m;
}

/* Every case Triton specialized gives the same key and signature here. */
static void t_against_triton(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/unit/data/spec_keys.txt", CTRITON_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[4096];
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = 0;
        char *field[5];
        char *p = line;
        for (int i = 0; i < 5; i++) {
            field[i] = p;
            char *tab = strchr(p, '\t');
            if (i < 4) {
                assert_non_null(tab);
                *tab = 0;
                p = tab + 1;
            }
        }
        ct_arg args[64];
        const char *names[64];
        char namebuf[64][8];
        int n = 0;
        char *save = NULL;
        for (char *t = strtok_r(field[2], " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            args[n] = parse_arg(t);
            snprintf(namebuf[n], sizeof namebuf[n], "a%d", n);
            names[n] = namebuf[n];
            n++;
        }
        ct_spec_flags fl = {mask_of(field[0]), mask_of(field[1])};
        uint8_t codes[64];
        assert_int_equal(ct_spec_codes(args, n, &fl, names, codes), CT_OK);
        char key[2048], sig[2048];
        ct_spec_key_str(codes, n, key, sizeof key);
        ct_spec_signature(codes, n, names, sig, sizeof sig);
        if (strcmp(key, field[3]) || strcmp(sig, field[4]))
            fail_msg("case %d (%s):\n  key  %s\n  want %s\n  sig  %s\n  want %s", cases,
                     field[2], key, field[3], sig, field[4]);
        cases++;
    }
    fclose(f);
    assert_true(cases >= 18);
}

static void t_bad_args(void **state)
{
    (void)state;
    ct_arg a[2] = {ct_int(3), {0}};
    uint8_t codes[2];
    const char *names[] = {"n", "x_ptr"};
    assert_int_equal(ct_spec_codes(a, 2, NULL, names, codes), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "`x_ptr`"));
    a[1] = (ct_arg){.kind = CT_ARG_PTR, .type = TL_VOID, .v.p = 16};
    assert_int_equal(ct_spec_codes(a, 2, NULL, names, codes), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "dtype"));
}

/* tensor descriptors: the block is part of the key and of the signature */
static void t_desc_codes(void **state)
{
    (void)state;
    ct_tensordesc d = {.base = 4096, .dtype = TL_FP16, .rank = 2, .shape = {100, 72},
                       .strides = {72, 1}, .block_shape = {64, 32}};
    ct_tensordesc e = d;
    e.block_shape[1] = 64;
    ct_arg a[3] = {ct_desc(&d), ct_int(7), ct_desc(&e)};
    const char *names[] = {"a_desc", "n", "c_desc"};
    uint8_t codes[CT_SPEC_CODES_MAX];
    assert_int_equal(ct_spec_codes(a, 3, NULL, names, codes), CT_OK);
    assert_int_equal(ct_spec_len(codes, 3), 3 + 4 + 4);
    char key[512], sig[512];
    ct_spec_key_str(codes, 3, key, sizeof key);
    ct_spec_signature(codes, 3, names, sig, sizeof sig);
    assert_string_equal(key, "[('tensordesc<fp16[64, 32]>', None), ('i32', ''), "
                             "('tensordesc<fp16[64, 64]>', None)]");
    assert_string_equal(sig, "a_desc=tensordesc<fp16[64,32]> n=i32 c_desc=tensordesc<fp16[64,64]>");
    /* what tl_build reads back */
    tl_sig_param sp[3];
    assert_true(tl_parse_signature(&(tl_kernel_def){.name = "k", .nparams = 3, .params = names},
                                   sig, sp, NULL));
    assert_int_equal(sp[0].type->kind, TL_TY_DESC);
    assert_int_equal(sp[2].type->elem->shape[1], 64);
    /* a block that is not a power of two, a missing descriptor */
    d.block_shape[0] = 48;
    assert_int_equal(ct_spec_codes(a, 3, NULL, names, codes), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "power of two"));
    a[0] = ct_desc(NULL);
    assert_int_equal(ct_spec_codes(a, 3, NULL, names, codes), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "`a_desc`"));
}

static void t_grid(void **state)
{
    (void)state;
    ct_dim3 g = ct_grid(7);
    assert_int_equal(g.x, 7);
    assert_int_equal(g.y, 1);
    assert_int_equal(g.z, 1);
    g = ct_grid(3, 4);
    assert_int_equal(g.y, 4);
    assert_int_equal(g.z, 1);
    g = ct_grid(3, 4, 5);
    assert_int_equal(g.z, 5);
    assert_int_equal(ct_check_grid((unsigned[]){0x7fffffff, 65535, 65535}, 1), CT_OK);
    assert_int_equal(ct_check_grid((unsigned[]){0x80000000u, 1, 1}, 1), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "grid[0]"));
    assert_int_equal(ct_check_grid((unsigned[]){1, 65536, 1}, 1), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "grid[1] = 65536"));
    assert_int_equal(ct_check_grid((unsigned[]){1, 1, 70000}, 1), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "grid[2]"));
    /* with clusters the x dimension is multiplied by num_ctas */
    assert_int_equal(ct_check_grid((unsigned[]){0x40000000u, 1, 1}, 2), CT_ERR_INVALID);
    assert_int_equal(ct_check_grid((unsigned[]){0x3fffffffu, 1, 1}, 2), CT_OK);
}

static ct_kernel *softmax(const char *extra_dns, const char *types)
{
    ct_kernel *k;
    ct_kernel_opts o = {.constexprs = "BLOCK_SIZE=128", .arch = 90, .do_not_specialize = extra_dns,
                        .types = types};
    assert_int_equal(ct_kernel_new(tu_kernel("softmax_kernel")->def, &o, &k), CT_OK);
    return k;
}

/* Distinct keys compile distinct kernels; equal keys share one. */
static void t_specializations_compile(void **state)
{
    (void)state;
    ct_kernel *k = softmax(NULL, NULL);
    ct_arg aligned[] = {ct_ptr(0x10000, tl_float32), ct_ptr(0x20000, tl_float32), ct_int(128)};
    ct_arg unaligned[] = {ct_ptr(0x10004, tl_float32), ct_ptr(0x20000, tl_float32), ct_int(100)};
    ct_arg aligned2[] = {ct_ptr(0x30000, tl_float32), ct_ptr(0x40010, tl_float32), ct_int(4096)};
    assert_int_equal(ct_kernel_warmup(k, aligned, 3, false), CT_OK);
    assert_int_equal(ct_kernel_warmup(k, unaligned, 3, false), CT_OK);
    assert_int_equal(ct_kernel_warmup(k, aligned2, 3, false), CT_OK);
    ct_kernel_stats st;
    ct_kernel_get_stats(k, &st);
    assert_int_equal(st.specializations, 2);
    const ct_artifact *a1 = ct_kernel_artifact(k, aligned, 3);
    const ct_artifact *a2 = ct_kernel_artifact(k, unaligned, 3);
    const ct_artifact *a3 = ct_kernel_artifact(k, aligned2, 3);
    assert_non_null(a1);
    assert_non_null(a2);
    assert_ptr_equal(a1, a3);
    assert_string_not_equal(a1->key, a2->key);
    char *s1 = ct_artifact_stage(a1, "source", NULL);
    char *s2 = ct_artifact_stage(a2, "source", NULL);
    assert_non_null(strstr(s1, "%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}"));
    assert_non_null(strstr(s1, "%n_cols: i32 {tt.divisibility = 16 : i32}"));
    assert_null(strstr(s2, "%x_ptr: !tt.ptr<f32> {tt.divisibility"));
    assert_non_null(strstr(s2, "%y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}"));
    free(s1);
    free(s2);
    ct_kernel_free(k);

    /* a new ct_kernel in the same process finds the entries on disk */
    k = softmax(NULL, NULL);
    assert_int_equal(ct_kernel_warmup(k, aligned, 3, false), CT_OK);
    ct_kernel_get_stats(k, &st);
    assert_int_equal(st.disk_hits, 1);
    assert_int_equal(st.lowered, 0);
    ct_kernel_free(k);
}

/* n_cols == 1 becomes a constant, unless do_not_specialize says not to. */
static void t_const_one(void **state)
{
    (void)state;
    ct_kernel *k = softmax(NULL, NULL);
    ct_arg one[] = {ct_ptr(0x10000, tl_float32), ct_ptr(0x20000, tl_float32), ct_int(1)};
    assert_int_equal(ct_kernel_warmup(k, one, 3, false), CT_OK);
    char *src = ct_artifact_stage(ct_kernel_artifact(k, one, 3), "source", NULL);
    assert_null(strstr(src, "%n_cols"));
    free(src);
    ct_kernel_free(k);

    k = softmax("n_cols", NULL);
    assert_int_equal(ct_kernel_warmup(k, one, 3, false), CT_OK);
    src = ct_artifact_stage(ct_kernel_artifact(k, one, 3), "source", NULL);
    assert_non_null(strstr(src, "%n_cols: i32 loc"));
    free(src);
    /* and 16 is not divisibility-specialized either */
    ct_arg sixteen[] = {ct_ptr(0x10000, tl_float32), ct_ptr(0x20000, tl_float32), ct_int(16)};
    assert_int_equal(ct_kernel_warmup(k, sixteen, 3, false), CT_OK);
    assert_ptr_equal(ct_kernel_artifact(k, one, 3), ct_kernel_artifact(k, sixteen, 3));
    ct_kernel_free(k);
}

/* None for an optional pointer: ('constexpr', None), not passed, the body specialized. */
static void t_none_arg(void **state)
{
    (void)state;
    ct_arg args[] = {ct_ptr(0x10000, tl_float32), ct_none(), ct_none(), ct_ptr(0x20000, tl_float32),
                     ct_int(100)};
    const char *const names[] = {"x_ptr", "scale_ptr", "idx_ptr", "y_ptr", "n"};
    uint8_t codes[CT_SPEC_CODES_MAX];
    assert_int_equal(ct_spec_codes(args, 5, NULL, names, codes), CT_OK);
    char key[256], sig[256];
    ct_spec_key_str(codes, 5, key, sizeof key);
    ct_spec_signature(codes, 5, names, sig, sizeof sig);
    assert_string_equal(key, "[('*fp32', 'D'), ('constexpr', None), ('constexpr', None), "
                             "('*fp32', 'D'), ('i32', '')]");
    assert_string_equal(sig, "x_ptr=*fp32:16 scale_ptr=None idx_ptr=None y_ptr=*fp32:16 n=i32");
    uint64_t slots[8];
    void *params[10];
    assert_int_equal(ct_pack_args(args, codes, 5, slots, params), 3);

    ct_kernel *k;
    ct_kernel_opts o = {.constexprs = "BLOCK=128", .arch = 90, .types = "*fp32 *fp32 *i32 *fp32 i32"};
    assert_int_equal(ct_kernel_new(tu_kernel("port_none_args")->def, &o, &k), CT_OK);
    assert_int_equal(ct_kernel_warmup(k, args, 5, false), CT_OK);
    char *src = ct_artifact_stage(ct_kernel_artifact(k, args, 5), "source", NULL);
    assert_null(strstr(src, "%scale_ptr"));
    assert_non_null(strstr(src, "%y_ptr"));
    free(src);
    ct_kernel_free(k);
}

/* What ct_launch refuses before anything reaches the GPU. */
static void t_launch_checks(void **state)
{
    (void)state;
    ct_kernel *k = softmax(NULL, NULL);
    ct_status s = CT_LAUNCH(k, ct_grid(4), NULL, ct_ptr(0x10000, tl_float32), ct_int(3));
    assert_int_equal(s, CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "softmax_kernel takes 3 arguments (x_ptr, y_ptr, n_cols), 2 given"));
    ct_kernel_free(k);

    ct_kernel_opts bad = {.constexprs = "BLOCK_SIZE=128", .do_not_specialize = "n_rows"};
    assert_int_equal(ct_kernel_new(tu_kernel("softmax_kernel")->def, &bad, &k), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "`n_rows`"));

    /* declared types */
    k = softmax(NULL, "*fp32 *fp32 i32");
    ct_arg wrong[] = {ct_ptr(0x10000, tl_float16), ct_ptr(0x20000, tl_float32), ct_int(128)};
    assert_int_equal(ct_kernel_warmup(k, wrong, 3, false), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "argument 0 (`x_ptr`) should be *fp32 but is [('*fp16', 'D')]"));
    ct_arg big[] = {ct_ptr(0x10000, tl_float32), ct_ptr(0x20000, tl_float32), ct_int(1ll << 40)};
    assert_int_equal(ct_kernel_warmup(k, big, 3, false), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "`n_cols`) should be int32"));
    ct_kernel_free(k);

    /* a kernel the language refuses: the diagnostic names the C line */
    k = softmax(NULL, NULL);
    ct_arg swapped[] = {ct_int(128), ct_ptr(0x20000, tl_float32), ct_ptr(0x10000, tl_float32)};
    assert_int_equal(ct_kernel_warmup(k, swapped, 3, false), CT_ERR_COMPILE);
    assert_non_null(strstr(ct_errmsg(), "kernels/softmax.c:"));
    ct_kernel_free(k);

    /* without a driver, the compile works and the launch says why it cannot run */
    if (!ct_cuda()) {
        k = softmax(NULL, NULL);
        s = CT_LAUNCH(k, ct_grid(4), NULL, ct_ptr(0x10000, tl_float32),
                      ct_ptr(0x20000, tl_float32), ct_int(128));
        assert_int_equal(s, CT_ERR_NO_DRIVER);
        assert_non_null(strstr(ct_errmsg(), "libcuda.so.1"));
        ct_kernel_stats st;
        ct_kernel_get_stats(k, &st);
        assert_int_equal(st.specializations, 1);
        ct_kernel_free(k);
    }
}

/* Specialization churn: an argument whose specialization keeps flipping between
 * launches is reported once, by name, with the opt-out to pass. */
static int churn_run(const int64_t *vals, int n, const ct_spec_flags *fl, int *at, char *msg,
                     size_t cap)
{
    const char *names[] = {"x_ptr", "n"};
    ct_churn c;
    memset(&c, 0, sizeof c);
    int reports = 0;
    for (int i = 0; i < n; i++) {
        ct_arg args[] = {ct_ptr(0x1000, tl_float32), ct_int(vals[i])};
        uint8_t codes[CT_SPEC_CODES_MAX], prev[CT_SPEC_CODES_MAX];
        assert_int_equal(ct_spec_codes(args, 2, fl, names, codes), CT_OK);
        memcpy(prev, c.last, sizeof prev);
        int r = ct__churn_step(&c, codes, 2);
        if (r >= 0) {
            reports++;
            *at = i;
            ct__churn_message("k", names, r, prev[r], codes[r], c.flips[r], msg, cap);
        }
    }
    assert_int_equal(c.nreports, reports);
    return reports;
}

static void t_churn(void **state)
{
    (void)state;
    ct_spec_flags none = {0, 0};
    char msg[1024] = "";
    int at = -1;
    /* 1, 2, 1, 2, ...: the constant-1 case flips; one report, at the second flip */
    int64_t alt[] = {1, 2, 1, 2, 1, 2, 1, 2, 1, 2};
    assert_int_equal(churn_run(alt, 10, &none, &at, msg, sizeof msg), 1);
    assert_int_equal(at, 2);
    assert_non_null(strstr(msg, "`n`"));
    assert_non_null(strstr(msg, "do_not_specialize = \"n\""));
    assert_non_null(strstr(msg, "('constexpr', 1)"));
    /* 1024, 1000, ...: the divisibility flips: the alignment opt-out is the one to name */
    int64_t div[] = {1024, 1000, 1024, 1000};
    assert_int_equal(churn_run(div, 4, &none, &at, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "do_not_specialize_on_alignment = \"n\""));
    /* one change and then steady: no churn */
    int64_t once[] = {1, 2, 2, 2, 2, 2, 2};
    assert_int_equal(churn_run(once, 7, &none, &at, msg, sizeof msg), 0);
    /* values that keep the specialization (3, 5, 7: all i32, not multiples of 16) */
    int64_t same[] = {3, 5, 7, 9, 11};
    assert_int_equal(churn_run(same, 5, &none, &at, msg, sizeof msg), 0);
    /* do_not_specialize: the flips are gone */
    ct_spec_flags dns = {1u << 1, 0};
    assert_int_equal(churn_run(alt, 10, &dns, &at, msg, sizeof msg), 0);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_against_triton),
        cmocka_unit_test(t_bad_args),
        cmocka_unit_test(t_desc_codes),
        cmocka_unit_test(t_grid),
        cmocka_unit_test(t_churn),
        cmocka_unit_test_setup_teardown(t_specializations_compile, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_const_one, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_launch_checks, tu_cache_setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_none_arg, tu_cache_setup, tu_cache_teardown),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
