/*
 * test_emu_sched.c - programs that wait on other programs (src/emu/sched.c).
 *
 * A program that spins on a flag (an atomic that writes nothing, or a volatile
 * load, returning the same value again and again) is parked and its thread
 * runs other programs; so a program may wait for one that starts after it,
 * even on one thread, and the run takes time in proportion to the work: the
 * number of times a program is parked grows with the logarithm of what it
 * waits for, not with the spinning.  When every program left waits for a
 * value that nothing will change, the run ends with CT_EMU_ERR_DEADLOCK at the
 * lowest waiting program's poll, where the GPU would hang.
 */
#include "emu_test.h"

static int L_wait_cas, L_wait_pair, L_count_loop;

/* program 0 waits for the flag the last program sets; every program writes out[pid] = pid */
TL_KERNEL(k_wait_last, (flag_ptr, out_ptr), (bool, VOLATILE))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor last = tl_sub(tl_num_programs(0), 1);
    TL_IF(tl_eq(pid, 0)) {
        if (VOLATILE) {
            TL_WHILE(tl_eq(tl_load(flag_ptr, .is_volatile = true), 0)) {
            }
        } else {
            TL_WHILE(tl_eq(tl_atomic_add(flag_ptr, 0), 0)) {
            }
        }
    }
    TL_IF(tl_eq(pid, last)) {
        tl_atomic_xchg(flag_ptr, 1);
    }
    tl_store(tl_add(out_ptr, pid), pid);
}

/* program i waits for flag[i + 1] (the last for nothing), then sets flag[i] to its own
 * count: flag[i] = flag[i + 1] + 1, a chain resolved from the last program backwards */
TL_KERNEL(k_chain_back, (flag_ptr), (int, UNUSED))
{
    (void)UNUSED;
    tl_tensor pid = tl_program_id(0);
    tl_tensor last = tl_sub(tl_num_programs(0), 1);
    tl_tensor v = tl_to_tensor(1);
    TL_IF(tl_lt(pid, last), v) {
        tl_tensor next = tl_add(tl_add(flag_ptr, pid), 1);
        TL_WHILE(tl_eq(tl_atomic_add(next, 0), 0)) {
        }
        v = tl_add(tl_atomic_add(next, 0), 1);
    }
    tl_atomic_xchg(tl_add(flag_ptr, pid), v);
}

/* every program adds its id to sum[0] under a lock taken with atomic_cas (the norm
 * backward's pattern): the add is a plain load and store, so a lost update shows */
TL_KERNEL(k_locked_sum, (lock_ptr, sum_ptr), (int, UNUSED))
{
    (void)UNUSED;
    tl_tensor pid = tl_program_id(0);
    TL_WHILE(tl_eq(tl_atomic_cas(lock_ptr, 0, 1), 1)) {
    }
    tl_store(sum_ptr, tl_add(tl_load(sum_ptr), pid));
    tl_atomic_xchg(lock_ptr, 0);
}

/* waits for a flag nobody sets */
TL_KERNEL(k_wait_forever, (flag_ptr), (int, UNUSED))
{
    (void)UNUSED;
    TL_WHILE(tl_eq(tl_atomic_cas(flag_ptr, 1, 2), 0)) { MARK(L_wait_cas);
    }
}

/* programs 0 and 1 each wait for the other's flag before setting their own */
TL_KERNEL(k_wait_pair, (flag_ptr), (int, UNUSED))
{
    (void)UNUSED;
    tl_tensor pid = tl_program_id(0);
    tl_tensor other = tl_add(flag_ptr, tl_sub(1, pid));
    TL_WHILE(tl_eq(tl_atomic_add(other, 0), 0)) { MARK(L_wait_pair);
    }
    tl_atomic_xchg(tl_add(flag_ptr, pid), 1);
}

/* waits for a flag nobody sets while counting the polls: the frame changes every
 * poll, so this is an endless loop, ended by the step budget */
TL_KERNEL(k_wait_counting, (flag_ptr, n_ptr), (int, UNUSED))
{
    (void)UNUSED;
    tl_tensor n = tl_to_tensor(0);
    TL_WHILE(tl_eq(tl_atomic_add(flag_ptr, 0), 0), n) { MARK(L_count_loop);
        n = tl_add(n, 1);
    }
    tl_store(n_ptr, n);
}

static int64_t log2_ceil(int64_t n)
{
    int64_t l = 0;
    while ((INT64_C(1) << l) < n)
        l++;
    return l;
}

static void wait_last(bool vol, int n, int threads)
{
    ct_emu_kernel *k = emu_build(&k_wait_last, "flag_ptr=*i32 out_ptr=*i32", vol ? "VOLATILE=1" : "VOLATILE=0");
    ct_emu *e = ct_emu_new();
    int32_t flag = 0;
    int32_t *out = calloc((size_t)n, sizeof *out);
    ct_emu_arg a[2] = {ct_emu_ptr(ct_emu_add_buffer(e, "flag", &flag, (size_t)(1) * 4, CT_EMU_I32, CT_EMU_INOUT)),
                       ct_emu_ptr(ct_emu_add_buffer(e, "out", out, (size_t)(n) * 4, CT_EMU_I32, CT_EMU_OUT))};
    ct_emu_result r;
    assert_int_equal(emu_go(e, k, n, 1, 1, threads, 2, a, &r), CT_EMU_OK);
    assert_int_equal(r.programs, n);
    assert_int_equal(flag, 1);
    for (int i = 0; i < n; i++)
        assert_int_equal(out[i], i);
    /* program 0 parks each time its wait is due again: the due intervals double, so the
     * count is logarithmic in the programs it waits for (one thread: exactly so) */
    if (threads == 1) {
        assert_true(r.parks >= 1);
        assert_true(r.parks <= 2 * log2_ceil(n) + 4);
    }
    free(out);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

/* on one thread program 0 can only finish if it yields to the last program */
static void t_wait_last_one_thread(void **st)
{
    (void)st;
    wait_last(false, 8, 1);
    wait_last(false, 100000, 1);
}

static void t_wait_last_volatile_load(void **st)
{
    (void)st;
    wait_last(true, 8, 1);
    wait_last(true, 4096, 1);
}

static void t_wait_last_threads(void **st)
{
    (void)st;
    wait_last(false, 5000, 2);
    wait_last(true, 5000, 3);
}

static void t_chain_backwards(void **st)
{
    (void)st;
    ct_emu_kernel *k = emu_build(&k_chain_back, "flag_ptr=*i32", "UNUSED=0");
    for (int threads = 1; threads <= 3; threads++) {
        enum { N = 300 };
        int32_t flag[N] = {0};
        ct_emu *e = ct_emu_new();
        ct_emu_arg a[1] = {ct_emu_ptr(ct_emu_add_buffer(e, "flag", flag, (size_t)(N) * 4, CT_EMU_I32, CT_EMU_INOUT))};
        ct_emu_result r;
        assert_int_equal(emu_go(e, k, N, 1, 1, threads, 1, a, &r), CT_EMU_OK);
        assert_int_equal(r.programs, N);
        for (int i = 0; i < N; i++)
            assert_int_equal(flag[i], N - i);
        ct_emu_free(e);
    }
    ct_emu_kernel_free(k);
}

static void t_locked_sum(void **st)
{
    (void)st;
    ct_emu_kernel *k = emu_build(&k_locked_sum, "lock_ptr=*i32 sum_ptr=*i32", "UNUSED=0");
    for (int threads = 1; threads <= 4; threads++) {
        enum { N = 2000 };
        int32_t lock = 0, sum = 0;
        ct_emu *e = ct_emu_new();
        ct_emu_arg a[2] = {ct_emu_ptr(ct_emu_add_buffer(e, "lock", &lock, (size_t)(1) * 4, CT_EMU_I32, CT_EMU_INOUT)),
                           ct_emu_ptr(ct_emu_add_buffer(e, "sum", &sum, (size_t)(1) * 4, CT_EMU_I32, CT_EMU_INOUT))};
        ct_emu_result r;
        assert_int_equal(emu_go(e, k, N, 1, 1, threads, 2, a, &r), CT_EMU_OK);
        assert_int_equal(r.programs, N);
        assert_int_equal(lock, 0);
        assert_int_equal(sum, N * (N - 1) / 2);
        ct_emu_free(e);
    }
    ct_emu_kernel_free(k);
}

/* a wait nothing will end: the deadlock error at the poll, not a hang and not the budget */
static void t_deadlock(void **st)
{
    (void)st;
    ct_emu_kernel *k = emu_build(&k_wait_forever, "flag_ptr=*i32", "UNUSED=0");
    for (int threads = 1; threads <= 3; threads++) {
        int32_t flag = 0;
        ct_emu *e = ct_emu_new();
        ct_emu_arg a[1] = {ct_emu_ptr(ct_emu_add_buffer(e, "flag", &flag, (size_t)(1) * 4, CT_EMU_I32, CT_EMU_INOUT))};
        ct_emu_result r;
        emu_go(e, k, 5, 1, 1, threads, 1, a, &r);
        expect_fault(&r, CT_EMU_ERR_DEADLOCK, L_wait_cas, __FILE__);
        assert_int_equal(r.fault.pid[0], 0); /* the lowest waiting program */
        assert_non_null(strstr(r.fault.message, "5 programs waiting"));
        ct_emu_free(e);
    }
    ct_emu_kernel_free(k);
}

static void t_deadlock_pair(void **st)
{
    (void)st;
    ct_emu_kernel *k = emu_build(&k_wait_pair, "flag_ptr=*i32", "UNUSED=0");
    for (int threads = 1; threads <= 2; threads++) {
        int32_t flag[2] = {0, 0};
        ct_emu *e = ct_emu_new();
        ct_emu_arg a[1] = {ct_emu_ptr(ct_emu_add_buffer(e, "flag", flag, (size_t)(2) * 4, CT_EMU_I32, CT_EMU_INOUT))};
        ct_emu_result r;
        emu_go(e, k, 2, 1, 1, threads, 1, a, &r);
        expect_fault(&r, CT_EMU_ERR_DEADLOCK, L_wait_pair, __FILE__);
        ct_emu_free(e);
    }
    ct_emu_kernel_free(k);
}

/* a poll loop whose frame changes is not a deadlock the emulator can prove: the step
 * budget ends it */
static void t_counting_wait_budget(void **st)
{
    (void)st;
    ct_emu_kernel *k = emu_build(&k_wait_counting, "flag_ptr=*i32 n_ptr=*i32", "UNUSED=0");
    int32_t flag = 0, n = 0;
    ct_emu *e = ct_emu_new();
    ct_emu_arg a[2] = {ct_emu_ptr(ct_emu_add_buffer(e, "flag", &flag, (size_t)(1) * 4, CT_EMU_I32, CT_EMU_INOUT)),
                       ct_emu_ptr(ct_emu_add_buffer(e, "n", &n, (size_t)(1) * 4, CT_EMU_I32, CT_EMU_INOUT))};
    ct_emu_launch l = {{2, 1, 1}, 2, 0, NULL};
    l.max_steps = 20000;
    ct_emu_result r;
    ct_emu_run(e, k, &l, 2, a, &r);
    expect_fault(&r, CT_EMU_ERR_BUDGET, L_count_loop, __FILE__);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_wait_last_one_thread), cmocka_unit_test(t_wait_last_volatile_load),
        cmocka_unit_test(t_wait_last_threads),    cmocka_unit_test(t_chain_backwards),
        cmocka_unit_test(t_locked_sum),           cmocka_unit_test(t_deadlock),
        cmocka_unit_test(t_deadlock_pair),        cmocka_unit_test(t_counting_wait_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
