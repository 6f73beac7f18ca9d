/*
 * test_emu_pool.c - the threads of ct_emu_run are kept between runs (src/emu/pool.c): many
 * runs with changing thread counts and kernels give the one-thread results; runs from several
 * threads at once; a run in a child after fork().
 */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu_test.h"

/* y[i] = x[i] * s + pid, one block per program */
TL_KERNEL(k_scale, (x_ptr, y_ptr, s), (int, BLOCK))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor offs = tl_add(tl_mul(pid, BLOCK), tl_arange(0, BLOCK));
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_store(tl_add(y_ptr, offs), tl_add(tl_mul(x, s), tl_to(pid, tl_float32)));
}

/* y[i] = sum of the block of x (a different frame layout) */
TL_KERNEL(k_blocksum, (x_ptr, y_ptr), (int, BLOCK))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor x = tl_load(tl_add(x_ptr, tl_add(tl_mul(pid, BLOCK), tl_arange(0, BLOCK))));
    tl_store(tl_add(y_ptr, pid), tl_sum(x, .axis = 0));
}

enum { BLOCK = 256, GRID = 64, N = BLOCK * GRID };

typedef struct setup {
    ct_emu_kernel *scale, *sum;
    float x[N], y[N], want_scale[N], want_sum[GRID];
} setup;

static void run(setup *S, ct_emu_kernel *k, int threads, float s)
{
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", S->x, sizeof S->x, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", S->y, sizeof S->y, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg a3[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_float(s)};
    ct_emu_result r;
    assert_int_equal(emu_go(e, k, GRID, 1, 1, threads, k == S->scale ? 3 : 2, a3, &r), CT_EMU_OK);
    assert_int_equal(r.programs, GRID);
    ct_emu_free(e);
}

static setup *make_setup(void)
{
    setup *S = calloc(1, sizeof *S);
    for (int i = 0; i < N; i++)
        S->x[i] = (float)((i * 37) % 101) / 7.0f;
    S->scale = emu_build(&k_scale, "x_ptr=*fp32 y_ptr=*fp32 s=fp32", "BLOCK=256");
    S->sum = emu_build(&k_blocksum, "x_ptr=*fp32 y_ptr=*fp32", "BLOCK=256");
    run(S, S->scale, 1, 3.0f);
    memcpy(S->want_scale, S->y, sizeof S->want_scale);
    run(S, S->sum, 1, 0);
    memcpy(S->want_sum, S->y, sizeof S->want_sum);
    return S;
}

static void free_setup(setup *S)
{
    ct_emu_kernel_free(S->scale);
    ct_emu_kernel_free(S->sum);
    free(S);
}

static void t_many_runs(void **s)
{
    (void)s;
    setup *S = make_setup();
    static const int threads[] = {2, 5, 1, 8, 3, 16, 2, 7};
    for (int rep = 0; rep < 40; rep++) {
        int th = threads[rep % 8];
        if (rep % 3 == 2) {
            run(S, S->sum, th, 0);
            assert_memory_equal(S->y, S->want_sum, sizeof S->want_sum);
        } else {
            run(S, S->scale, th, 3.0f);
            assert_memory_equal(S->y, S->want_scale, sizeof S->want_scale);
        }
    }
    free_setup(S);
}

static void *concurrent(void *p)
{
    setup *S = p;
    for (int rep = 0; rep < 20; rep++) {
        run(S, S->scale, 3, 3.0f);
        if (memcmp(S->y, S->want_scale, sizeof S->want_scale))
            return (void *)1;
    }
    return NULL;
}

static void t_concurrent_runs(void **s)
{
    (void)s;
    setup *S[3];
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        S[i] = make_setup();
    for (int i = 0; i < 3; i++)
        assert_int_equal(pthread_create(&th[i], NULL, concurrent, S[i]), 0);
    for (int i = 0; i < 3; i++) {
        void *rc;
        pthread_join(th[i], &rc);
        assert_null(rc);
    }
    for (int i = 0; i < 3; i++)
        free_setup(S[i]);
}

static void t_fork(void **s)
{
    (void)s;
    setup *S = make_setup();
    run(S, S->scale, 4, 3.0f); /* the pool has workers now */
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* the parent's workers do not exist here: the run must start its own */
        memset(S->y, 0, sizeof S->y);
        ct_emu *e = ct_emu_new();
        int bx = ct_emu_add_buffer(e, "x", S->x, sizeof S->x, CT_EMU_F32, CT_EMU_IN);
        int by = ct_emu_add_buffer(e, "y", S->y, sizeof S->y, CT_EMU_F32, CT_EMU_OUT);
        ct_emu_arg a3[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_float(3.0f)};
        ct_emu_result r;
        ct_emu_launch l = {{GRID, 1, 1}, 4, 0, NULL};
        int ok = ct_emu_run(e, S->scale, &l, 3, a3, &r) == CT_EMU_OK &&
                 !memcmp(S->y, S->want_scale, sizeof S->want_scale);
        _exit(ok ? 0 : 1);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    run(S, S->scale, 4, 3.0f);
    assert_memory_equal(S->y, S->want_scale, sizeof S->want_scale);
    free_setup(S);
}

/* outputs above 4 MiB are poisoned by several threads: every byte of every output still is */
static void t_poison_split(void **s)
{
    (void)s;
    setup *S = make_setup();
    enum { BIG = 3 << 20 }; /* 12 MiB of floats */
    float *y1 = malloc(sizeof(float) * BIG), *y2 = malloc(sizeof(float) * 1000);
    for (int th = 1; th <= 7; th += 3) {
        memset(y1, 0, sizeof(float) * BIG);
        memset(y2, 0, sizeof(float) * 1000);
        ct_emu *e = ct_emu_new();
        int bx = ct_emu_add_buffer(e, "x", S->x, sizeof S->x, CT_EMU_F32, CT_EMU_IN);
        int b2 = ct_emu_add_buffer(e, "y2", y2, sizeof(float) * 1000, CT_EMU_F32, CT_EMU_OUT);
        int b1 = ct_emu_add_buffer(e, "y1", y1, sizeof(float) * BIG, CT_EMU_F32, CT_EMU_OUT);
        ct_emu_arg a3[] = {ct_emu_ptr(bx), ct_emu_ptr(b1), ct_emu_float(3.0f)};
        ct_emu_result r;
        assert_int_equal(emu_go(e, S->scale, GRID, 1, 1, th, 3, a3, &r), CT_EMU_OK);
        assert_memory_equal(y1, S->want_scale, sizeof S->want_scale);
        ct_emu_report rep;
        ct_emu_buffer_report(e, b1, &rep);
        assert_int_equal(rep.unwritten, BIG - N);
        ct_emu_buffer_report(e, b2, &rep);
        assert_int_equal(rep.unwritten, 1000);
        ct_emu_free(e);
    }
    free(y1);
    free(y2);
    free_setup(S);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_many_runs),
        cmocka_unit_test(t_concurrent_runs),
        cmocka_unit_test(t_fork),
        cmocka_unit_test(t_poison_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
