/*
 * test_sizeexpr.c - the sizes of `run --ttir --size` (tools/sizeexpr.c): expressions of
 * named sizes in --arg and --grid.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "sizeexpr.h"

static sx_vars vars = {2, {"N", "M_2"}, {1000, 7}};

static int64_t ev(const char *s)
{
    int64_t v;
    char err[256];
    if (!sx_eval(s, &vars, &v, err, sizeof err))
        fail_msg("%s", err);
    return v;
}

static void t_eval(void **state)
{
    (void)state;
    assert_int_equal(ev("N"), 1000);
    assert_int_equal(ev("cdiv(N, 256)"), 4);
    assert_int_equal(ev("cdiv(1024, 256)"), 4);
    assert_int_equal(ev("N * M_2 + 1"), 7001);
    assert_int_equal(ev("(N + 1) * 2"), 2002);
    assert_int_equal(ev("N - 2 * 3"), 994);
    assert_int_equal(ev("N / 3 % 7"), 333 % 7);
    assert_int_equal(ev("-N + 0x10"), -984);
    assert_int_equal(ev("min(N, 64) + max(M_2, 9)"), 73);
    assert_int_equal(ev(" 4096 "), 4096);
}

static void t_errors(void **state)
{
    (void)state;
    const struct {
        const char *s, *msg;
    } bad[] = {
        {"K", "no size of that name"},       {"N +", "unexpected end"},
        {"N / (M_2 - 7)", "division by zero"}, {"cdiv(N, 0)", "cdiv by zero"},
        {"foo(N, 1)", "unknown function"},    {"(N", "`)` expected"},
        {"N N", "unexpected text"},           {"9223372036854775807 + 1", "overflow"},
        {"N * 9223372036854775807", "overflow"}, {"cdiv(N 2)", "`,` expected"},
        {"", "unexpected end"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t v;
        char err[256] = "";
        assert_false(sx_eval(bad[i].s, &vars, &v, err, sizeof err));
        if (!strstr(err, bad[i].msg))
            fail_msg("`%s`: %s", bad[i].s, err);
    }
}

static void t_subst(void **state)
{
    (void)state;
    char out[128], err[256];
    assert_true(sx_subst_arg("fp32[N]", &vars, out, sizeof out, err, sizeof err));
    assert_string_equal(out, "fp32[1000]");
    assert_true(sx_subst_arg("fp16[N * M_2]@x.bin:inout", &vars, out, sizeof out, err, sizeof err));
    assert_string_equal(out, "fp16[7000]@x.bin:inout");
    assert_true(sx_subst_arg("N - 1", &vars, out, sizeof out, err, sizeof err));
    assert_string_equal(out, "999");
    /* numbers and null stay as they are */
    const char *keep[] = {"1.5", "1e-5", "-3", "0x10", "null", "-.5"};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        assert_true(sx_subst_arg(keep[i], &vars, out, sizeof out, err, sizeof err));
        assert_string_equal(out, keep[i]);
    }
    assert_false(sx_subst_arg("fp32[K]", &vars, out, sizeof out, err, sizeof err));
    assert_non_null(strstr(err, "no size of that name"));
    /* grids */
    assert_true(sx_subst_grid("cdiv(N, 256), M_2", &vars, out, sizeof out, err, sizeof err));
    assert_string_equal(out, "4,7");
    assert_true(sx_subst_grid("max(1, N / 4096)", &vars, out, sizeof out, err, sizeof err));
    assert_string_equal(out, "1");
    assert_false(sx_subst_grid("N - 1000", &vars, out, sizeof out, err, sizeof err));
    assert_non_null(strstr(err, "dimension 0 is 0"));
    assert_false(sx_subst_grid("1,1,1,1", &vars, out, sizeof out, err, sizeof err));
    assert_non_null(strstr(err, "more than 3"));
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_eval),
        cmocka_unit_test(t_errors),
        cmocka_unit_test(t_subst),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
