/*
 * test_bench_sweep.c - what `ctriton bench KERNEL --sweep DIM=a:b` computes without a GPU
 * (tools/bench_sweep.c): the sizes of a sweep, the problem at each size, the table, the
 * JSON and the SVG plot.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_sweep.h"

static int sizes_of(const char *spec, int64_t *s, char *dim, char *err)
{
    return bs_parse_sweep(spec, dim, 64, s, err, 256);
}

static void t_sizes(void **state)
{
    (void)state;
    int64_t s[BS_MAX_SIZES];
    char dim[64], err[256];
    /* doubling from decode to prefill, b included */
    assert_int_equal(sizes_of("M=1:8192", s, dim, err), 14);
    assert_string_equal(dim, "M");
    assert_int_equal(s[0], 1);
    assert_int_equal(s[1], 2);
    assert_int_equal(s[13], 8192);
    /* b not a power of the factor: it ends the list */
    assert_int_equal(sizes_of("N_CTX=3:100", s, dim, err), 7);
    int64_t want[] = {3, 6, 12, 24, 48, 96, 100};
    for (int i = 0; i < 7; i++)
        assert_int_equal(s[i], want[i]);
    /* a factor; one size */
    assert_int_equal(sizes_of("M=1:4096:4", s, dim, err), 7);
    assert_int_equal(s[6], 4096);
    assert_int_equal(sizes_of("M=5:5", s, dim, err), 1);
    assert_int_equal(s[0], 5);
    /* a list, sorted, without repeats */
    assert_int_equal(sizes_of("T=128,1,16,16", s, dim, err), 3);
    assert_int_equal(s[0], 1);
    assert_int_equal(s[2], 128);
    /* the largest int32 without overflowing the doubling */
    assert_int_equal(sizes_of("M=1073741824:2147483647", s, dim, err), 2);
    assert_int_equal(s[1], 2147483647);
}

static void t_bad_sweeps(void **state)
{
    (void)state;
    int64_t s[BS_MAX_SIZES];
    char dim[64], err[256];
    const struct {
        const char *spec, *msg;
    } bad[] = {
        {"M", "is not DIM=a:b"},
        {"=1:8", "is not DIM=a:b"},
        {"M N=1:8", "is not a dimension's name"},
        {"M=0:8", "must be sizes from 1"},
        {"M=8:1", "b < a"},
        {"M=1:8:1", "factor K"},
        {"M=1:x", "must be sizes"},
        {"M=1:4294967296", "must be sizes"},
        {"M=1,,2", "is not a size"},
        {"M=1:2147483647:1", "factor K"},
        {NULL, "is not DIM=a:b"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        assert_int_equal(sizes_of(bad[i].spec, s, dim, err), -1);
        if (!strstr(err, bad[i].msg))
            fail_msg("%s: %s", bad[i].spec ? bad[i].spec : "NULL", err);
    }
    /* more sizes than a sweep holds */
    char big[1024] = "M=";
    for (int i = 1; i <= BS_MAX_SIZES + 1; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), "%s%d", i > 1 ? "," : "", i);
    assert_int_equal(sizes_of(big, s, dim, err), -1);
    assert_non_null(strstr(err, "more than 64 sizes"));
}

static void t_problem_with(void **state)
{
    (void)state;
    char out[64];
    assert_true(bs_problem_with("M=64 N=1000", "M", 1, out, sizeof out));
    assert_string_equal(out, "M=1 N=1000");
    /* N, not N_CTX; added when absent */
    assert_true(bs_problem_with("N_CTX=256 Z_H=2", "N", 7, out, sizeof out));
    assert_string_equal(out, "N_CTX=256 Z_H=2 N=7");
    assert_true(bs_problem_with(NULL, "T", 3, out, sizeof out));
    assert_string_equal(out, "T=3");
    assert_false(bs_problem_with("M=64 N=1000", "M", 1, out, 8));
}

static bs_point pts[] = {
    {.size = 1, .grid = {1, 1, 1}, .first_ms = 250, .compile_ms = 240, .lowered = true,
     .median_ms = 0.004, .p20_ms = 0.0039, .p80_ms = 0.0041, .gbs = 1.5},
    {.size = 64, .grid = {64, 1, 1}, .first_ms = 3, .lowered = false, .median_ms = 0.006,
     .p20_ms = 0.0058, .p80_ms = 0.0062, .gbs = 90},
    {.size = 4096, .grid = {4096, 1, 1}, .first_ms = 260, .compile_ms = 251, .lowered = true,
     .median_ms = 0.21, .p20_ms = 0.2, .p80_ms = 0.22, .gbs = 3100.5},
};

static char *capture(int what)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (what == 0)
        bs_print_table(f, "rms_norm_fwd_kernel/fp16", "M", pts, 3);
    else if (what == 1)
        bs_print_json(f, "rms_norm_fwd_kernel/fp16", "M", pts, 3);
    else
        assert_true(bs_write_svg(f, "a<b>&\"c\"", "M", pts, 3));
    fclose(f);
    return buf;
}

static void t_table_json(void **state)
{
    (void)state;
    char *t = capture(0);
    assert_non_null(strstr(t, "rms_norm_fwd_kernel/fp16: a sweep of M"));
    assert_non_null(strstr(t, "first ms"));
    /* a row per size: the first launch apart from the steady state */
    assert_non_null(strstr(t, "         1  (1,1,1)"));
    assert_non_null(strstr(t, "250.00        240.0        0.0040"));
    assert_non_null(strstr(t, "3.00       cached        0.0060"));
    assert_non_null(strstr(t, "3100.5"));
    free(t);
    char *j = capture(1);
    assert_non_null(strstr(j, "{\"kernel\": \"rms_norm_fwd_kernel/fp16\", \"dim\": \"M\", \"points\": [{\"size\": 1, "));
    assert_non_null(strstr(j, "\"lowered\": false"));
    assert_non_null(strstr(j, "\"median_ms\": 0.210000"));
    free(j);
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++)
        n++;
    return n;
}

static void t_svg(void **state)
{
    (void)state;
    char *s = capture(2);
    assert_true(!strncmp(s, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39));
    assert_non_null(strstr(s, "</svg>\n"));
    /* the title escaped; two series of three points; a tick per size; decades from 1e-3 to
     * 1e3 ms */
    assert_non_null(strstr(s, "a&lt;b&gt;&amp;&quot;c&quot;: time against M"));
    assert_int_equal(count(s, "<polyline"), 2);
    assert_int_equal(count(s, "<circle"), 6);
    assert_non_null(strstr(s, ">4096</text>"));
    assert_non_null(strstr(s, ">0.001 ms</text>"));
    assert_non_null(strstr(s, ">1000 ms</text>"));
    assert_null(strstr(s, ">0.0001 ms</text>"));
    /* the smallest size at the left edge, the largest at the right (log scale) */
    assert_non_null(strstr(s, "<circle cx=\"70.0\""));
    assert_non_null(strstr(s, "<circle cx=\"700.0\""));
    /* 64 is halfway between 1 and 4096 */
    assert_non_null(strstr(s, "<circle cx=\"385.0\""));
    free(s);
    /* one point: no division by zero */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_true(bs_write_svg(f, "k", "M", pts, 1));
    fclose(f);
    assert_null(strstr(buf, "nan"));
    assert_null(strstr(buf, "inf"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_sizes),        cmocka_unit_test(t_bad_sweeps),
        cmocka_unit_test(t_problem_with), cmocka_unit_test(t_table_json),
        cmocka_unit_test(t_svg),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
