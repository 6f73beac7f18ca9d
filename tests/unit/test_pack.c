/*
 * test_pack.c - argument packing as Triton's launcher does it
 * (backends/nvidia/driver.py): one slot per non-constexpr argument in the C
 * type of its Triton type, constants dropped, fp32 as a float, fp16/bf16 as
 * their bits, i1 as one byte; and the hidden scratch pointers after them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "ctriton/launch.h"

static void codes_of(const ct_arg *a, int n, uint8_t *codes)
{
    assert_int_equal(ct_spec_codes(a, n, NULL, NULL, codes), CT_OK);
}

static void t_slots(void **state)
{
    (void)state;
    ct_arg a[] = {ct_ptr(0x7f0000001230ull, tl_float16), ct_int(1), ct_int(-5), ct_int(1ll << 40),
                  ct_float(1.5), ct_bool(1), ct_f16(-2.0), ct_bf16(1.0), ct_f64(0.25),
                  ct_i64(7), ct_uint(0xfffffffffffffff0ull), ct_u32(0xdeadbeef)};
    int n = (int)(sizeof a / sizeof a[0]);
    uint8_t codes[16];
    codes_of(a, n, codes);
    uint64_t slots[16];
    void *params[18];
    memset(slots, 0xab, sizeof slots);
    int np = ct_pack_args(a, codes, n, slots, params);
    assert_int_equal(np, n - 1); /* the int 1 is a constexpr: not passed */
    for (int j = 0; j < np; j++)
        assert_ptr_equal(params[j], &slots[j]);

    unsigned long long p;
    memcpy(&p, params[0], 8);
    assert_int_equal(p, 0x7f0000001230ull);
    int32_t i32;
    memcpy(&i32, params[1], 4);
    assert_int_equal(i32, -5);
    int64_t i64;
    memcpy(&i64, params[2], 8);
    assert_int_equal(i64, 1ll << 40);
    float f;
    memcpy(&f, params[3], 4);
    assert_true(f == 1.5f);
    /* upper bytes of a 4-byte slot are zero (no stale bits reach the kernel) */
    assert_int_equal(slots[3] >> 32, 0);
    uint8_t b;
    memcpy(&b, params[4], 1);
    assert_int_equal(b, 1);
    assert_int_equal(slots[4] >> 8, 0);
    uint16_t h;
    memcpy(&h, params[5], 2);
    assert_int_equal(h, 0xc000); /* fp16 -2.0 */
    memcpy(&h, params[6], 2);
    assert_int_equal(h, 0x3f80); /* bf16 1.0 */
    double d;
    memcpy(&d, params[7], 8);
    assert_true(d == 0.25);
    memcpy(&i64, params[8], 8);
    assert_int_equal(i64, 7);
    uint64_t u64;
    memcpy(&u64, params[9], 8);
    assert_int_equal(u64, 0xfffffffffffffff0ull);
    uint32_t u32;
    memcpy(&u32, params[10], 4);
    assert_int_equal(u32, 0xdeadbeefu);
}

/* do_not_specialize keeps a 1 as a runtime argument, which is then passed. */
static void t_dns_one_is_passed(void **state)
{
    (void)state;
    ct_arg a[] = {ct_int(1), ct_int(1)};
    ct_spec_flags f = {.do_not_specialize = 1};
    uint8_t codes[2];
    assert_int_equal(ct_spec_codes(a, 2, &f, NULL, codes), CT_OK);
    uint64_t slots[2];
    void *params[4];
    assert_int_equal(ct_pack_args(a, codes, 2, slots, params), 1);
    int32_t v;
    memcpy(&v, params[0], 4);
    assert_int_equal(v, 1);
}

/* ct_launch_packed fills the two scratch pointers after the arguments (NULL
 * when the metadata has no scratch) and refuses a bad grid first. */
static void t_launch_packed_checks(void **state)
{
    (void)state;
    ct_loaded l;
    memset(&l, 0, sizeof l);
    snprintf(l.meta.name, sizeof l.meta.name, "k");
    l.meta.num_warps = 4;
    l.meta.num_ctas = 1;
    void *params[4] = {0};
    assert_int_equal(ct_launch_packed(&l, (unsigned[]){1, 70000, 1}, NULL, params, 2),
                     CT_ERR_INVALID);
    assert_null(params[2]);
    /* a zero grid launches nothing, like Triton */
    assert_int_equal(ct_launch_packed(&l, (unsigned[]){0, 1, 1}, NULL, params, 2), CT_OK);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_slots),
        cmocka_unit_test(t_dns_one_is_passed),
        cmocka_unit_test(t_launch_packed_checks),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
