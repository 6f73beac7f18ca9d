/*
 * test_pack_driver.c - the launch paths against a driver that checks the
 * rules (tests/unit/fake_cuda.c, built here as libcuda.so.1: CI has no GPU).
 *
 * Real cubins (lowered by Triton for sm_90) go through ct_launch, autotuning,
 * do_bench and a generated AOT launcher; the fake driver refuses what the
 * real one refuses (a function used in another context, dynamic shared
 * memory above 48 KiB without the opt-in, a cluster that does not divide the
 * grid, a block over 1024 threads, no current context) and records each
 * launch, so the test can check grid, block, shared memory, cluster and the
 * packed parameters, including the two scratch pointers.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "ctriton/launch.h"
#include "kernels_testutil.h"
#include "launch_testutil.h"

typedef struct fake_launch {
    void *fn, *ctx, *stream;
    char name[128];
    unsigned grid[3], block[3], shared;
    int ex, cluster[3], nattrs;
    uint64_t params[12];
} fake_launch;

static char fake_dir[4096];
static int (*fake_nlaunches)(void);
static const fake_launch *(*fake_launch_at)(int);
static int (*fake_nloads)(void);
static void (*fake_expect_params)(int);
static size_t (*fake_last_async_alloc)(void);
static int (*fake_async_live)(void);
static int (*fake_async_allocs)(void);
typedef struct fake_tmap {
    int dtype, swizzle, l2, fill, interleave;
    unsigned rank;
    uint64_t addr, dims[5], strides[5];
    unsigned box[5], elem_strides[5];
    int calls;
} fake_tmap;
static const fake_tmap *(*fake_last_tmap)(void);

static char *slurp_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *s = calloc(1, 1 << 16);
    size_t n = fread(s, 1, (1 << 16) - 1, f);
    s[n] = 0;
    fclose(f);
    return s;
}

static const fake_launch *last(void) { return fake_launch_at(fake_nlaunches() - 1); }

static ct_kernel *kernel(const char *name, const char *cx, int num_warps, int num_stages, int num_ctas)
{
    ct_kernel *k;
    ct_kernel_opts o = {.constexprs = cx, .num_warps = num_warps, .num_stages = num_stages,
                        .num_ctas = num_ctas};
    assert_int_equal(ct_kernel_new(tu_kernel(name)->def, &o, &k), CT_OK);
    return k;
}

static void t_launch_packs(void **state)
{
    (void)state;
    ct_kernel *k = kernel("softmax_kernel", "BLOCK_SIZE=128", 4, 0, 0);
    ct_devptr x, y;
    assert_int_equal(ct_mem_alloc(&x, 4096), CT_OK);
    assert_int_equal(ct_mem_alloc(&y, 4096), CT_OK);
    fake_expect_params(5);
    int before = fake_nlaunches();
    ct_status s = CT_LAUNCH(k, ct_grid(5), NULL, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(100));
    if (s != CT_OK)
        fail_msg("%s", ct_errmsg());
    assert_int_equal(fake_nlaunches(), before + 1);
    const fake_launch *l = last();
    assert_string_equal(l->name, "softmax_kernel");
    assert_int_equal(l->grid[0], 5);
    assert_int_equal(l->grid[1], 1);
    assert_int_equal(l->block[0], 128); /* 32 * num_warps */
    assert_int_equal(l->ex, 0);
    assert_int_equal(l->params[0], x);
    assert_int_equal(l->params[1], y);
    assert_int_equal((int32_t)l->params[2], 100);
    assert_int_equal(l->params[3], 0); /* global_scratch: none */
    assert_int_equal(l->params[4], 0); /* profile_scratch: none */
    const ct_artifact *a = ct_kernel_artifact(k, (ct_arg[]){ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(100)}, 3);
    assert_int_equal(l->shared, (unsigned)a->meta.shared);
    /* n_cols == 1: a constant, so one parameter fewer */
    fake_expect_params(4);
    assert_int_equal(CT_LAUNCH(k, ct_grid(2), NULL, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(1)), CT_OK);
    assert_int_equal(last()->params[2], 0);
    assert_int_equal(last()->params[3], 0);
    /* a stream is passed through */
    ct_stream st;
    assert_int_equal(ct_cuda()->cuStreamCreate(&st, 1), 0);
    assert_int_equal(CT_LAUNCH(k, ct_grid(1), st, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(64)), CT_OK);
    assert_ptr_equal(last()->stream, st);
    ct_cuda()->cuStreamDestroy(st);
    /* the hot path allocates nothing (glibc's count of bytes in use stays put;
     * under ASan mallinfo2 reports zeros and this checks nothing) */
    struct mallinfo2 m0 = mallinfo2();
    for (int i = 0; i < 1000; i++)
        assert_int_equal(CT_LAUNCH(k, ct_grid(1), NULL, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32),
                                   ct_int(64)), CT_OK);
    struct mallinfo2 m1 = mallinfo2();
    assert_int_equal(m0.uordblks, m1.uordblks);
    /* a zero grid launches nothing */
    before = fake_nlaunches();
    assert_int_equal(CT_LAUNCH(k, ct_grid(0), NULL, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(64)), CT_OK);
    assert_int_equal(fake_nlaunches(), before);
    /* a driver error comes back with the kernel's name */
    setenv("FAKE_FAIL_LAUNCH", "719", 1);
    s = CT_LAUNCH(k, ct_grid(1), NULL, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(64));
    unsetenv("FAKE_FAIL_LAUNCH");
    assert_int_equal(s, CT_ERR_CUDA);
    assert_int_equal(ct_last_cuda_result(), 719);
    assert_non_null(strstr(ct_errmsg(), "launching softmax_kernel failed: CUDA_ERROR_FAKE_719"));
    ct_kernel_free(k);
    ct_mem_free(x);
    ct_mem_free(y);
}

/* Tensor descriptor arguments: the map Triton's metadata asks for (fp32, 64 x 32 blocks, the
 * swizzle of the sm_90 lowering), then each descriptor's shape (i32) and strides (i64). */
static void t_tensor_desc(void **state)
{
    (void)state;
    ct_kernel *k = kernel("ops_host_desc", "BLOCK_M=64 BLOCK_N=32", 4, 0, 0);
    ct_devptr a, c;
    assert_int_equal(ct_mem_alloc(&a, 100 * 72 * 4), CT_OK);
    assert_int_equal(ct_mem_alloc(&c, 100 * 72 * 4), CT_OK);
    ct_tensordesc ad = {.base = a, .dtype = TL_FP32, .rank = 2, .shape = {100, 72},
                        .strides = {72, 1}, .block_shape = {64, 32}};
    ct_tensordesc cd = ad;
    cd.base = c;
    cd.padding_nan = true;
    fake_expect_params(12);
    ct_status s = CT_LAUNCH(k, ct_grid(2, 3), NULL, ct_desc(&ad), ct_desc(&cd));
    if (s != CT_OK)
        fail_msg("%s", ct_errmsg());
    const ct_artifact *art = ct_kernel_artifact(k, (ct_arg[]){ct_desc(&ad), ct_desc(&cd)}, 2);
    assert_non_null(art);
    assert_int_equal(art->meta.ndescs, 2);
    const fake_tmap *t = fake_last_tmap();
    assert_int_equal(t->calls, 2);
    assert_int_equal(t->addr, c);                        /* the second map: c's */
    assert_int_equal(t->rank, 2);
    assert_int_equal(t->dims[0], 72);                   /* innermost first */
    assert_int_equal(t->dims[1], 100);
    assert_int_equal(t->strides[0], 72 * 4);            /* bytes, without the innermost */
    assert_int_equal(t->box[0], 32);
    assert_int_equal(t->box[1], 64);
    assert_int_equal(t->elem_strides[0], 1);
    assert_int_equal(t->swizzle, art->meta.descs[1].swizzle);
    assert_int_equal(t->l2, 2);                         /* 128-byte L2 promotion */
    assert_int_equal(t->fill, 1);                       /* padding "nan" */
    const fake_launch *l = last();
    assert_int_equal(l->params[0], a);                  /* a's map (its first 8 bytes) */
    assert_int_equal((int32_t)l->params[1], 100);
    assert_int_equal((int32_t)l->params[2], 72);
    assert_int_equal(l->params[3], 72);
    assert_int_equal(l->params[4], 1);
    assert_int_equal(l->params[5], c);                  /* c's map */
    assert_int_equal(l->params[10], 0);                 /* global scratch */
    /* a last stride other than 1 is refused before the driver sees it */
    cd.strides[1] = 2;
    assert_int_equal(CT_LAUNCH(k, ct_grid(2, 3), NULL, ct_desc(&ad), ct_desc(&cd)), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "last stride must be 1"));
    ct_kernel_free(k);
    ct_mem_free(a);
    ct_mem_free(c);
}

/* One module per context: a second context loads its own, and each launch
 * uses the function of the current context (the driver refuses others). */
static void t_contexts(void **state)
{
    (void)state;
    const ct_cuda_api *cu = ct_cuda();
    ct_context c1, c2;
    assert_int_equal(ct_cuda_context(0, &c1), CT_OK);
    ct_kernel *k = kernel("add_kernel", "BLOCK_SIZE=1024", 4, 0, 0);
    ct_devptr x;
    assert_int_equal(ct_mem_alloc(&x, 1 << 16), CT_OK);
    ct_arg args[] = {ct_ptr(x, tl_float32), ct_ptr(x, tl_float32), ct_ptr(x, tl_float32), ct_int(4096)};
    assert_int_equal(ct_launch(k, ct_grid(4), NULL, args, 4), CT_OK);
    assert_int_equal(cu->cuCtxCreate(&c2, 0, 0), 0);
    assert_int_equal(ct_launch(k, ct_grid(4), NULL, args, 4), CT_OK);
    assert_ptr_equal(last()->ctx, c2);
    assert_int_equal(cu->cuCtxSetCurrent(c1), 0);
    assert_int_equal(ct_launch(k, ct_grid(4), NULL, args, 4), CT_OK);
    assert_ptr_equal(last()->ctx, c1);
    ct_kernel_stats st;
    ct_kernel_get_stats(k, &st);
    assert_int_equal(st.specializations, 1);
    assert_int_equal(st.loads, 2);
    ct_kernel_free(k);
    cu->cuCtxDestroy(c2);
    ct_mem_free(x);
}

/* A matmul tile that needs 147 KiB of shared memory launches only opted in;
 * too much shared memory for the device is refused before launching. */
static void t_shared_optin(void **state)
{
    (void)state;
    ct_kernel *k = kernel("matmul_kernel",
                          "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None",
                          8, 3, 0);
    ct_devptr a;
    assert_int_equal(ct_mem_alloc(&a, 1 << 20), CT_OK);
    ct_arg args[] = {ct_ptr(a, tl_float16), ct_ptr(a, tl_float16), ct_ptr(a, tl_float16), ct_int(512),
                     ct_int(512), ct_int(512), ct_int(512), ct_int(1), ct_int(512), ct_int(1),
                     ct_int(512), ct_int(1)};
    ct_status s = ct_launch(k, ct_grid(8), NULL, args, 12);
    if (s != CT_OK)
        fail_msg("%s", ct_errmsg());
    assert_true(last()->shared > 49152);
    assert_int_equal(last()->block[0], 256);
    ct_kernel_free(k);
    ct_mem_free(a);

    ct_launch_meta m = {.num_warps = 4, .num_ctas = 1, .shared = 300000, .arch = 90};
    snprintf(m.name, sizeof m.name, "softmax_kernel");
    const ct_artifact *art;
    ct_kernel *k2 = kernel("softmax_kernel", "BLOCK_SIZE=128", 4, 0, 0);
    ct_arg a2[] = {ct_ptr(a, tl_float32), ct_ptr(a, tl_float32), ct_int(128)};
    assert_int_equal(ct_kernel_warmup(k2, a2, 3, false), CT_OK);
    art = ct_kernel_artifact(k2, a2, 3);
    ct_loaded l;
    assert_int_equal(ct_load_cubin(art->cubin, art->cubin_size, &m, &l), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "needs 300000 bytes of shared memory"));
    /* compiled for another architecture */
    m.shared = 16;
    m.arch = 80;
    assert_int_equal(ct_load_cubin(art->cubin, art->cubin_size, &m, &l), CT_ERR_NO_BINARY);
    assert_non_null(strstr(ct_errmsg(), "sm_80"));
    ct_kernel_free(k2);
}

/* num_ctas = 2: grid x doubled, a (2, 1, 1) cluster, through cuLaunchKernelEx. */
static void t_cluster(void **state)
{
    (void)state;
    ct_kernel *k = kernel("add_kernel", "BLOCK_SIZE=1024", 4, 0, 2);
    ct_devptr x;
    assert_int_equal(ct_mem_alloc(&x, 1 << 16), CT_OK);
    ct_status s = CT_LAUNCH(k, ct_grid(3), NULL, ct_ptr(x, tl_float32), ct_ptr(x, tl_float32),
                            ct_ptr(x, tl_float32), ct_int(3072));
    if (s != CT_OK)
        fail_msg("%s", ct_errmsg());
    const fake_launch *l = last();
    assert_int_equal(l->ex, 1);
    assert_int_equal(l->grid[0], 6);
    assert_int_equal(l->cluster[0], 2);
    assert_int_equal(l->cluster[1], 1);
    assert_int_equal(l->nattrs, 2); /* cluster dimension and scheduling policy */
    ct_kernel_free(k);
    ct_mem_free(x);
}

/* Scratch: grid * num_ctas * size bytes, passed after the arguments, from a
 * buffer kept per stream and kind: a second launch allocates nothing, a larger
 * grid grows it, another stream has its own, ct_launch_release_scratch frees
 * them all. */
static void t_scratch(void **state)
{
    (void)state;
    ct_kernel *k = kernel("add_kernel", "BLOCK_SIZE=1024", 4, 0, 0);
    ct_devptr x;
    assert_int_equal(ct_mem_alloc(&x, 1 << 16), CT_OK);
    ct_arg args[] = {ct_ptr(x, tl_float32), ct_ptr(x, tl_float32), ct_ptr(x, tl_float32), ct_int(4096)};
    assert_int_equal(ct_kernel_warmup(k, args, 4, true), CT_OK);
    const ct_artifact *a = ct_kernel_artifact(k, args, 4);
    ct_launch_meta m = a->meta;
    m.global_scratch_size = 128;
    m.profile_scratch_size = 8;
    ct_loaded l;
    assert_int_equal(ct_load_cubin(a->cubin, a->cubin_size, &m, &l), CT_OK);
    uint64_t slots[8];
    void *params[8];
    uint8_t codes[4];
    assert_int_equal(ct_spec_codes(args, 4, NULL, NULL, codes), CT_OK);
    int np = ct_pack_args(args, codes, 4, slots, params);
    assert_int_equal(np, 4);
    fake_expect_params(6);
    assert_int_equal(ct_launch_packed(&l, (unsigned[]){3, 2, 1}, NULL, params, np), CT_OK);
    assert_int_equal(fake_last_async_alloc(), 8 * 3 * 2); /* the profile scratch, allocated last */
    uint64_t g0 = last()->params[4], p0 = last()->params[5];
    assert_true(g0 != 0 && p0 != 0 && g0 != p0);
    assert_int_equal(fake_async_live(), 2); /* kept for the next launch */
    int allocs = fake_async_allocs();
    /* the same or a smaller grid on the same stream: the same buffers, no allocation */
    assert_int_equal(ct_launch_packed(&l, (unsigned[]){3, 2, 1}, NULL, params, np), CT_OK);
    assert_int_equal(ct_launch_packed(&l, (unsigned[]){1, 1, 1}, NULL, params, np), CT_OK);
    assert_int_equal(fake_async_allocs(), allocs);
    assert_true(last()->params[4] == g0 && last()->params[5] == p0);
    /* a larger grid: both grow, the old ones freed in stream order */
    assert_int_equal(ct_launch_packed(&l, (unsigned[]){4, 4, 1}, NULL, params, np), CT_OK);
    assert_int_equal(fake_async_allocs(), allocs + 2);
    assert_int_equal(fake_last_async_alloc(), 8 * 16);
    assert_int_equal(fake_async_live(), 2);
    /* another stream: its own buffers */
    ct_stream st;
    assert_int_equal(ct_cuda()->cuStreamCreate(&st, 0), 0);
    assert_int_equal(ct_launch_packed(&l, (unsigned[]){1, 1, 1}, st, params, np), CT_OK);
    assert_int_equal(fake_async_live(), 4);
    assert_true(last()->params[4] != 0 && last()->params[4] != g0);
    ct_launch_release_scratch();
    assert_int_equal(fake_async_live(), 0);
    assert_int_equal(ct_cuda()->cuStreamDestroy(st), 0);
    /* after the release a launch allocates again */
    assert_int_equal(ct_launch_packed(&l, (unsigned[]){3, 2, 1}, NULL, params, np), CT_OK);
    assert_int_equal(fake_async_live(), 2);
    ct_launch_release_scratch();
    assert_int_equal(fake_async_live(), 0);
    /* a scratch size (from metadata) whose total overflows: refused, nothing allocated */
    ct_loaded huge = l;
    huge.meta.global_scratch_size = INT64_MAX / 2;
    assert_int_equal(ct_launch_packed(&huge, (unsigned[]){3, 2, 1}, NULL, params, np), CT_ERR_INVALID);
    assert_non_null(strstr(ct_errmsg(), "overflows"));
    assert_int_equal(fake_async_live(), 0);
    ct_unload(&l);
    ct_kernel_free(k);
    ct_mem_free(x);
}

typedef struct th_job {
    ct_kernel *k;
    ct_devptr x;
    ct_status st;
} th_job;

static void *th_main(void *p)
{
    th_job *j = p;
    for (int i = 0; i < 100 && j->st == CT_OK; i++)
        j->st = CT_LAUNCH(j->k, ct_grid(4), NULL, ct_ptr(j->x, tl_float32), ct_ptr(j->x, tl_float32),
                          ct_ptr(j->x, tl_float32), ct_int(4096 + 16 * (i % 3)));
    return NULL;
}

/* Threads with no current context share the primary one; the first launches
 * of three specializations race and each is compiled once. */
static void t_threads(void **state)
{
    (void)state;
    ct_kernel *k = kernel("add_kernel", "BLOCK_SIZE=1024", 4, 0, 0);
    ct_devptr x;
    assert_int_equal(ct_mem_alloc(&x, 1 << 16), CT_OK);
    th_job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (th_job){k, x, CT_OK};
        assert_int_equal(pthread_create(&th[i], NULL, th_main, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(jobs[i].st, CT_OK);
    }
    ct_kernel_stats st;
    ct_kernel_get_stats(k, &st);
    assert_int_equal(st.specializations, 1); /* 4096, 4112, 4128: all multiples of 16 */
    assert_int_equal(st.loads, 1);
    ct_kernel_free(k);
    ct_mem_free(x);
}

/* A launch loop that alternates a scalar between 1 and 2 compiles two
 * specializations and reports the churn exactly once, naming the argument;
 * with do_not_specialize there is one specialization and no report. */
static int nchurn;
static char churn_msg[1024];
static void on_churn(const char *msg, void *ud)
{
    (void)ud;
    nchurn++;
    snprintf(churn_msg, sizeof churn_msg, "%s", msg);
}

static void t_churn(void **state)
{
    (void)state;
    for (int dns = 0; dns < 2; dns++) {
        ct_kernel *k;
        ct_kernel_opts o = {.constexprs = "BLOCK_SIZE=1024", .churn_report = on_churn,
                            .do_not_specialize = dns ? "n_elements" : NULL};
        assert_int_equal(ct_kernel_new(tu_kernel("add_kernel")->def, &o, &k), CT_OK);
        ct_devptr x;
        assert_int_equal(ct_mem_alloc(&x, 1 << 16), CT_OK);
        nchurn = 0;
        for (int i = 0; i < 12; i++)
            assert_int_equal(CT_LAUNCH(k, ct_grid(1), NULL, ct_ptr(x, tl_float32),
                                       ct_ptr(x, tl_float32), ct_ptr(x, tl_float32),
                                       ct_int(1 + i % 2)),
                             CT_OK);
        ct_kernel_stats st;
        ct_kernel_get_stats(k, &st);
        assert_int_equal(st.specializations, dns ? 1 : 2);
        assert_int_equal(nchurn, dns ? 0 : 1);
        assert_int_equal(st.churn_reports, dns ? 0 : 1);
        if (!dns) {
            assert_non_null(strstr(churn_msg, "add_kernel"));
            assert_non_null(strstr(churn_msg, "`n_elements`"));
            assert_non_null(strstr(churn_msg, "do_not_specialize = \"n_elements\""));
        }
        ct_kernel_free(k);
        ct_mem_free(x);
    }
}

static ct_status bench_fn(void *ud, ct_stream s)
{
    ct_kernel *k = ud;
    return CT_LAUNCH(k, ct_grid(64), s, ct_ptr(0x10000, tl_float32), ct_ptr(0x20000, tl_float32),
                     ct_int(128));
}

static void t_do_bench(void **state)
{
    (void)state;
    ct_kernel *k = kernel("softmax_kernel", "BLOCK_SIZE=128", 4, 0, 0);
    ct_bench_result r;
    ct_bench_opts o = {.warmup_ms = 1, .rep_ms = 5, .flush_bytes = 1 << 20};
    ct_status s = ct_do_bench(bench_fn, k, &o, &r);
    if (s != CT_OK)
        fail_msg("%s", ct_errmsg());
    /* the fake clock: a flush costs 0.01 ms, the launch 0.002 + 64 * 128e-6 */
    assert_true(fabs(r.median_ms - (0.002 + 64 * 128e-6)) < 1e-4);
    assert_true(fabs(r.estimate_ms - (0.01 + 0.002 + 64 * 128e-6)) < 1e-4);
    assert_int_equal(r.reps, (int)(5 / r.estimate_ms));
    assert_true(r.p20_ms <= r.median_ms && r.median_ms <= r.p80_ms);
    ct_kernel_free(k);
    double v[] = {4, 1, 3, 2};
    assert_true(ct_quantile(v, 4, 0.5) == 2.5);
    assert_true(ct_quantile(v, 4, 0.2) == 1.6);
}

static ct_dim3 rows(const ct_tune_config *c, const ct_arg *a, int n, void *ud)
{
    (void)c, (void)a, (void)n, (void)ud;
    return ct_grid(64);
}

/* The fake clock charges per thread: 4 warps beat 8 and 16 for the same grid. */
static void t_autotune(void **state)
{
    (void)state;
    static const ct_tune_config cfgs[] = {
        {"BLOCK_SIZE=128", 16, 3, 1, 0}, {"BLOCK_SIZE=128", 8, 3, 1, 0},
        {"BLOCK_SIZE=128", 4, 3, 1, 0},  {"BLOCK_SIZE=100", 4, 3, 1, 0}, /* refused: not a power of 2 */
    };
    ct_autotune_opts o = {.def = tu_kernel("softmax_kernel")->def, .configs = cfgs, .nconfigs = 4,
                          .key = "n_cols", .grid = rows, .warmup_ms = 1, .rep_ms = 2};
    ct_autotuner *t;
    assert_int_equal(ct_autotuner_new(&o, &t), CT_OK);
    ct_arg args[] = {ct_ptr(0x10000, tl_float32), ct_ptr(0x20000, tl_float32), ct_int(128)};
    ct_status s = ct_autotune(t, NULL, args, 3);
    if (s != CT_OK)
        fail_msg("%s", ct_errmsg());
    assert_int_equal(ct_autotune_best(t, NULL, args, 3), 2);
    assert_int_equal(last()->block[0], 128);
    char path[4200];
    snprintf(path, sizeof path, "%s/exported.tsv", tu_cache);
    assert_int_equal(ct_autotuner_export(t, path), CT_OK);
    ct_autotuner_free(t);

    /* a new tuner (as in a later process) reuses the stored choice: no tuning */
    assert_int_equal(ct_autotuner_new(&o, &t), CT_OK);
    int before = fake_nlaunches();
    assert_int_equal(ct_autotune(t, NULL, args, 3), CT_OK);
    assert_int_equal(fake_nlaunches(), before + 1);
    ct_autotuner_free(t);

    /* the exported table, shipped to a machine with an empty cache */
    char *text = slurp_text(path);
    assert_non_null(strstr(text, "softmax_kernel\tFake H200\t3.6.0\t"));
    assert_non_null(strstr(text, "\t128|fp32|fp32\t2\tBLOCK_SIZE=128 num_warps=4"));
    assert_non_null(strstr(text, ",fail\n")); /* the refused config is remembered */
    free(text);
    char empty[4200];
    snprintf(empty, sizeof empty, "%s/other-cache", tu_cache);
    setenv("CTRITON_CACHE_DIR", empty, 1);
    o.table = path;
    assert_int_equal(ct_autotuner_new(&o, &t), CT_OK);
    before = fake_nlaunches();
    assert_int_equal(ct_autotune_best(t, NULL, args, 3), 2);
    assert_int_equal(fake_nlaunches(), before);
    ct_autotuner_free(t);
    setenv("CTRITON_CACHE_DIR", tu_cache, 1);
}

static int sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int st = system(cmd);
    return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/* A generated launcher against the same driver: it loads the cubin for the
 * device (none for sm_86 here: sm_90a only runs on sm_90), launches, and
 * reports driver errors as codes. */
static void t_aot_launcher(void **state)
{
    (void)state;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/aot", tu_cache);
    const ct_kernel_entry *e = tu_kernel("softmax_kernel");
    ct_aot_request r = {.def = e->def, .name = "sm_aot", .signature = e->configs[0].signature,
                        .constexprs = e->configs[0].constexprs};
    tl_options_default(&r.opts);
    ct_diags d;
    ct_diags_init(&d);
    assert_int_equal(ct_aot_write(&r, dir, &d), CT_OK);
    ct_diags_free(&d);
    char path[4300];
    snprintf(path, sizeof path, "%s/main.c", dir);
    FILE *f = fopen(path, "w");
    fputs("#include \"sm_aot.h\"\n#include <stdio.h>\n#include <stdlib.h>\n"
          "int main(void) {\n"
          "    void *buf = aligned_alloc(256, 1 << 16);\n"
          "    sm_aot_args a = {.x_ptr = (uint64_t)(uintptr_t)buf, .y_ptr = (uint64_t)(uintptr_t)buf, .n_cols = 1000};\n"
          "    int e = sm_aot_launch(NULL, 64, 1, 1, &a);\n"
          "    printf(\"%d %s\\n\", e, sm_aot_error());\n"
          "    int e2 = sm_aot_launch(NULL, 64, 1, 1, &a);\n"
          "    return e != e2 ? 99 : e;\n"
          "}\n",
          f);
    fclose(f);
    assert_int_equal(sh("cd '%s' && cc -std=c11 -O1 -o m main.c sm_aot.c -ldl -lpthread", dir), 0);
    assert_int_equal(sh("cd '%s' && LD_LIBRARY_PATH='%s' ./m >/dev/null", dir, fake_dir), 0);
    assert_int_equal(sh("cd '%s' && FAKE_CC=86 LD_LIBRARY_PATH='%s' ./m | grep -q 'no cubin for device 0 (sm_86)'",
                        dir, fake_dir), 0);
    assert_int_equal(sh("cd '%s' && FAKE_CC=86 LD_LIBRARY_PATH='%s' ./m >/dev/null", dir, fake_dir), 3);
    assert_int_equal(sh("cd '%s' && FAKE_FAIL_LAUNCH=700 LD_LIBRARY_PATH='%s' ./m >/dev/null", dir, fake_dir), 2);
}

static int setup(void **state)
{
    if (fake_expect_params)
        fake_expect_params(0);
    return tu_cache_setup(state);
}

static int build_fake(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(fake_dir, sizeof fake_dir, "%s/ctriton-fakecuda-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fake_dir))
        return -1;
    const char *cc = getenv("CC");
    if (sh("%s -std=gnu11 -O1 -shared -fPIC -o '%s/libcuda.so.1' '%s/tests/unit/fake_cuda.c' -lpthread",
           cc && *cc ? cc : "cc", fake_dir, CTRITON_SOURCE_DIR) != 0)
        return -1;
    char lib[4200];
    snprintf(lib, sizeof lib, "%s/libcuda.so.1", fake_dir);
    setenv("CTRITON_LIBCUDA", lib, 1);
    if (!ct_cuda()) /* loads it, once for the process */
        return -1;
    void *h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
    if (!h)
        return -1;
    *(void **)&fake_nlaunches = dlsym(h, "fake_nlaunches");
    *(void **)&fake_launch_at = dlsym(h, "fake_launch_at");
    *(void **)&fake_nloads = dlsym(h, "fake_nloads");
    *(void **)&fake_expect_params = dlsym(h, "fake_expect_params");
    *(void **)&fake_last_async_alloc = dlsym(h, "fake_last_async_alloc");
    *(void **)&fake_async_live = dlsym(h, "fake_async_live");
    *(void **)&fake_async_allocs = dlsym(h, "fake_async_allocs");
    *(void **)&fake_last_tmap = dlsym(h, "fake_last_tmap");
    return fake_async_live ? 0 : -1;
}

int main(void)
{
    if (build_fake() != 0) {
        fprintf(stderr, "test_pack_driver: cannot build or load the fake driver: %s\n", ct_errmsg());
        return 1;
    }
    const struct CMUnitTest t[] = {
        cmocka_unit_test_setup_teardown(t_launch_packs, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_tensor_desc, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_contexts, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_shared_optin, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_cluster, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_scratch, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_threads, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_churn, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_do_bench, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_autotune, setup, tu_cache_teardown),
        cmocka_unit_test_setup_teardown(t_aot_launcher, setup, tu_cache_teardown),
    };
    int rc = cmocka_run_group_tests(t, NULL, NULL);
    tu_rm_rf(fake_dir);
    return rc;
}
