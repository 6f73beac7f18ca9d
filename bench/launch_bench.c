/*
 * launch_bench.c - launching from C, measured on the GPU machine
 * (scripts/gpu/run_launch_bench.sh runs it beside bench/launch_py.py).
 *
 *   launch_bench overhead [N]     empty kernel: ct_launch (key + hit) vs raw cuLaunchKernel
 *   launch_bench startup          process start to first launch done, warm cache ($CT_T0_NS)
 *   launch_bench precompile       lowers every library config in one parallel batch
 *   launch_bench kernels DIR      every library kernel/config: checked at its problem
 *                                 (C reference; dumped to DIR for a bitwise replay in
 *                                 Python), timed at a large problem with do_bench
 *   launch_bench features         streams, contexts, threads, specializations, errors
 *   launch_bench softmax-bw       softmax 32768 x 4096 fp32 (autotuned num_warps) vs a
 *                                 device-to-device copy
 *   launch_bench matmul [TABLE]   fp16 8192^3 through ct_autotune; exports the table
 *
 * Each prints one JSON object per line on stdout; progress goes to stderr.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ctriton/launch.h"
#include "conformance.h"
#include "kernels.h"
#include "launch_recipes.h"

/* Python: @triton.jit def empty_kernel(x_ptr, n): pass */
TL_KERNEL(empty_kernel, (x_ptr, n)) {}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int die(const char *what)
{
    fprintf(stderr, "launch_bench: %s: %s\n", what, ct_errmsg());
    printf("{\"test\": \"error\", \"what\": \"%s\", \"message\": \"", what);
    for (const char *p = ct_errmsg(); *p; p++)
        printf(*p == '"' || *p == '\\' ? "\\%c" : *p == '\n' ? " " : "%c", *p);
    printf("\"}\n");
    return 1;
}

#define CHECK(x, what)                                                                        \
    do {                                                                                      \
        if ((x) != CT_OK)                                                                     \
            return die(what);                                                                 \
    } while (0)

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- overhead ------------------------------------------------------------ */

typedef struct raw_launch {
    const ct_cuda_api *cu;
    ct_loaded l;
    void *params[4];
    ct_devptr x, gs, ps;
    int32_t n;
} raw_launch;

static int launch_ct(ct_kernel *k, ct_devptr x)
{
    return CT_LAUNCH(k, ct_grid(1), NULL, ct_ptr(x, tl_float32), ct_int(7)) != CT_OK;
}

static int launch_raw(raw_launch *r)
{
    return r->cu->cuLaunchKernel(r->l.function, 1, 1, 1, 32u * (unsigned)r->l.meta.num_warps, 1,
                                 1, (unsigned)r->l.meta.shared, NULL, r->params, NULL) != 0;
}

/* us per launch: `loop` = n launches then one sync (throughput, queue may
 * fill); `host` = the launch calls alone, in batches of 32 with a sync
 * between batches (the queue never fills). */
static int measure(int mode, ct_kernel *k, raw_launch *r, int n, double *loop_us, double *host_us)
{
    const ct_cuda_api *cu = r->cu;
    int bad = 0;
    double t0 = now_ns();
    for (int i = 0; i < n; i++)
        bad |= mode ? launch_raw(r) : launch_ct(k, r->x);
    cu->cuCtxSynchronize();
    *loop_us = (now_ns() - t0) / n / 1e3;
    double host = 0;
    int done = 0;
    while (done < n) {
        double b0 = now_ns();
        for (int i = 0; i < 32; i++)
            bad |= mode ? launch_raw(r) : launch_ct(k, r->x);
        host += now_ns() - b0;
        done += 32;
        cu->cuCtxSynchronize();
    }
    *host_us = host / done / 1e3;
    return bad;
}

static int cmd_overhead(int n)
{
    ct_context ctx;
    CHECK(ct_cuda_context(0, &ctx), "context");
    ct_kernel *k;
    CHECK(ct_kernel_new(&empty_kernel, NULL, &k), "ct_kernel_new");
    raw_launch r = {.cu = ct_cuda(), .n = 7};
    CHECK(ct_mem_alloc(&r.x, 256), "alloc");
    double c0 = now_ns();
    CHECK(launch_ct(k, r.x) ? CT_ERR_CUDA : CT_OK, "first ct_launch");
    CHECK(ct_stream_sync(NULL), "sync");
    double first_ms = (now_ns() - c0) / 1e6;
    ct_arg args[] = {ct_ptr(r.x, tl_float32), ct_int(7)};
    const ct_artifact *a = ct_kernel_artifact(k, args, 2);
    CHECK(a ? CT_OK : CT_ERR_INVALID, "artifact");
    /* the same cubin, loaded a second time, launched by hand */
    CHECK(ct_load_cubin(a->cubin, a->cubin_size, &a->meta, &r.l), "ct_load_cubin");
    r.params[0] = &r.x;
    r.params[1] = &r.n;
    r.params[2] = &r.gs;
    r.params[3] = &r.ps;
    enum { ROUNDS = 7 };
    double cl[ROUNDS], ch[ROUNDS], rl[ROUNDS], rh[ROUNDS];
    int bad = 0;
    bad |= measure(0, k, &r, 2000, &cl[0], &ch[0]); /* warm-up */
    bad |= measure(1, k, &r, 2000, &rl[0], &rh[0]);
    for (int i = 0; i < ROUNDS; i++) {
        bad |= measure(1, k, &r, n, &rl[i], &rh[i]);
        bad |= measure(0, k, &r, n, &cl[i], &ch[i]);
    }
    if (bad)
        return die("a launch failed");
    char sig[256];
    uint8_t codes[2];
    ct_spec_codes(args, 2, NULL, empty_kernel.params, codes);
    ct_spec_key_str(codes, 2, sig, sizeof sig);
    printf("{\"test\": \"overhead\", \"n\": %d, \"rounds\": %d, \"key\": \"%s\", "
           "\"first_launch_ms\": %.3f, \"ct_launch_loop_us\": %.3f, \"raw_loop_us\": %.3f, "
           "\"ct_launch_host_us\": %.3f, \"raw_host_us\": %.3f}\n",
           n, ROUNDS, sig, first_ms, median(cl, ROUNDS), median(rl, ROUNDS), median(ch, ROUNDS),
           median(rh, ROUNDS));
    ct_unload(&r.l);
    ct_mem_free(r.x);
    ct_kernel_free(k);
    return 0;
}

/* ---- startup --------------------------------------------------------------- */

static int cmd_startup(void)
{
    double t_main = wall_ns();
    const char *t0s = getenv("CT_T0_NS");
    double t0 = t0s ? atof(t0s) : t_main;
    double c0 = now_ns();
    ct_context ctx;
    CHECK(ct_cuda_context(0, &ctx), "context");
    double c1 = now_ns();
    ct_devptr x;
    CHECK(ct_mem_alloc(&x, 256), "alloc");
    double m0 = now_ns();
    ct_kernel *k;
    CHECK(ct_kernel_new(&empty_kernel, NULL, &k), "ct_kernel_new");
    CHECK(CT_LAUNCH(k, ct_grid(1), NULL, ct_ptr(x, tl_float32), ct_int(7)), "first launch");
    CHECK(ct_stream_sync(NULL), "sync");
    double m1 = now_ns();
    double t_done = wall_ns();
    ct_kernel_stats st;
    ct_kernel_get_stats(k, &st);
    printf("{\"test\": \"startup\", \"exec_to_main_ms\": %.3f, \"context_ms\": %.3f, "
           "\"first_launch_ms\": %.3f, \"total_ms\": %.3f, \"disk_hits\": %d, \"lowered\": %d}\n",
           (t_main - t0) / 1e6, (c1 - c0) / 1e6, (m1 - m0) / 1e6, (t_done - t0) / 1e6,
           st.disk_hits, st.lowered);
    ct_kernel_free(k);
    return 0;
}

/* ---- kernels ----------------------------------------------------------------- */

static ct_status bench_fn(void *ud, ct_stream s) { return lr_launch(ud, s); }

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if (*s == '\n')
            printf("\\n");
        else
            putchar(*s);
    }
    putchar('"');
}

static int cmd_kernels(const char *dumpdir, const char *only)
{
    ct_context ctx;
    CHECK(ct_cuda_context(0, &ctx), "context");
    mkdir(dumpdir, 0755);
    int failures = 0;
    const ct_kernel_entry *ks[256];
    int n = ct_kernels_list(ks, 256, false);
    for (int i = 0; i < n; i++) {
        const ct_kernel_entry *e = ks[i];
        if (only && strcmp(only, e->def->name))
            continue;
        for (int c = 0; c < e->nconfigs; c++) {
            const tl_config *cfg = &e->configs[c];
            printf("{\"test\": \"kernel\", \"kernel\": \"%s\", \"config\": \"%s\"", e->def->name,
                   cfg->name);
            if (!lr_has_recipe(e->def->name)) {
                printf(", \"status\": \"no recipe\"}\n");
                continue;
            }
            fprintf(stderr, "kernels: %s/%s\n", e->def->name, cfg->name);
            /* correctness at the config's problem */
            lr_run r;
            char msg[1024] = "", sig[2048] = "", dir[4200];
            double t0 = now_ns();
            ct_status s = lr_prepare(&r, e, cfg, NULL, 1);
            if (s == CT_OK)
                s = lr_launch(&r, NULL);
            double compile_ms = (now_ns() - t0) / 1e6;
            if (s == CT_OK)
                s = lr_fetch(&r);
            ct_status cs = s == CT_OK ? lr_check(&r, msg, sizeof msg) : s;
            if (s != CT_OK)
                snprintf(msg, sizeof msg, "%s", ct_errmsg());
            lr_signature(&r, sig, sizeof sig);
            snprintf(dir, sizeof dir, "%s/%s__%s", dumpdir, e->def->name, cfg->name);
            if (s == CT_OK) {
                const ct_artifact *a = ct_kernel_artifact(r.k, r.args, r.nargs);
                char extra[4400];
                snprintf(extra, sizeof extra, "\"cubin\": \"%s/kernel.cubin\", \"role\": \"check\"",
                         a ? a->dir : "");
                lr_dump(&r, dir, extra, true);
            }
            printf(", \"problem\": \"%s\", \"signature\": \"%s\", \"signature_matches_config\": %s, "
                   "\"compile_ms\": %.1f, \"check\": \"%s\", \"check_detail\": ",
                   r.problem, sig, strcmp(sig, cfg->signature) ? "false" : "true", compile_ms,
                   cs == CT_OK ? "ok" : "FAILED");
            json_str(msg);
            failures += cs != CT_OK;
            lr_free(&r);
            /* timing at the large problem */
            const char *big = lr_bench_problem(e->def->name, cfg->name);
            if (s == CT_OK && big) {
                s = lr_prepare(&r, e, cfg, big, 2);
                if (s == CT_OK)
                    s = lr_launch(&r, NULL);
                ct_bench_result br;
                if (s == CT_OK)
                    s = ct_do_bench(bench_fn, &r, NULL, &br);
                if (s == CT_OK) {
                    lr_signature(&r, sig, sizeof sig);
                    snprintf(dir, sizeof dir, "%s/%s__%s__large", dumpdir, e->def->name, cfg->name);
                    char extra[256];
                    snprintf(extra, sizeof extra, "\"role\": \"time\", \"c_median_ms\": %.6f",
                             br.median_ms);
                    lr_dump(&r, dir, extra, false); /* Python makes its own inputs */
                    printf(", \"large_problem\": \"%s\", \"large_signature\": \"%s\", "
                           "\"median_ms\": %.6f, \"p20_ms\": %.6f, \"p80_ms\": %.6f, \"reps\": %d, "
                           "\"gbs\": %.2f, \"tflops\": %.3f",
                           big, sig, br.median_ms, br.p20_ms, br.p80_ms, br.reps,
                           r.bytes / (br.median_ms * 1e-3) / 1e9,
                           r.flops / (br.median_ms * 1e-3) / 1e12);
                } else {
                    printf(", \"large_error\": ");
                    json_str(ct_errmsg());
                }
                lr_free(&r);
            }
            printf("}\n");
            fflush(stdout);
        }
    }
    return failures ? 1 : 0;
}

/* Lowers every config of every kernel with a recipe in one batch (parallel),
 * for the device's architecture, so that `kernels` finds them on disk. */
static int cmd_precompile(void)
{
    ct_device_info di;
    int arch = ct_device_query(&di) == CT_OK ? di.cc_major * 10 + di.cc_minor : 90;
    int m = 0;
    const ct_kernel_entry *ks[256];
    int n = ct_kernels_list(ks, 256, false);
    const char *ttirs[256];
    char *owned[256];
    ct_lower_opts lo[256];
    for (int i = 0; i < n; i++) {
        if (!lr_has_recipe(ks[i]->def->name))
            continue;
        for (int c = 0; c < ks[i]->nconfigs && m < 256; c++) {
            const tl_config *cfg = &ks[i]->configs[c];
            tl_options o;
            tl_options_default(&o);
            if (cfg->num_warps)
                o.num_warps = cfg->num_warps;
            if (cfg->num_stages)
                o.num_stages = cfg->num_stages;
            o.arch = arch;
            ct_diags d;
            ct_diags_init(&d);
            owned[m] = ct_kernel_ttir(ks[i]->def, cfg->signature, cfg->constexprs, &o, &d);
            ct_diags_free(&d);
            if (!owned[m])
                continue;
            ttirs[m] = owned[m];
            ct_lower_opts_from_tl(&lo[m], &o);
            m++;
        }
    }
    ct_artifact *arts = calloc((size_t)m + 1, sizeof *arts);
    ct_status *sts = calloc((size_t)m + 1, sizeof *sts);
    ct_diags d;
    ct_diags_init(&d);
    double t0 = now_ns();
    ct_compile_ttir_many(m, ttirs, lo, arts, sts, &d);
    double ms = (now_ns() - t0) / 1e6;
    int ok = 0, hits = 0;
    for (int i = 0; i < m; i++) {
        ok += sts[i] == CT_OK;
        hits += sts[i] == CT_OK && arts[i].hit;
        ct_artifact_free(&arts[i]);
        free(owned[i]);
    }
    ct_diags_free(&d);
    free(arts);
    free(sts);
    printf("{\"test\": \"precompile\", \"configs\": %d, \"ok\": %d, \"hits\": %d, \"ms\": %.0f, "
           "\"arch\": %d}\n", m, ok, hits, ms, arch);
    return ok == m ? 0 : 1;
}

/* ---- features ---------------------------------------------------------------- */

static void feature(const char *name, bool ok, const char *detail)
{
    printf("{\"test\": \"feature\", \"feature\": \"%s\", \"ok\": %s, \"detail\": ", name,
           ok ? "true" : "false");
    json_str(detail ? detail : "");
    printf("}\n");
    fflush(stdout);
}

typedef struct thread_job {
    ct_kernel *k;
    int id;
    ct_status st;
    int wrong;
    char msg[512];
} thread_job;

/* One thread: its own buffers, 200 launches of the shared ct_kernel, a check. */
static void *thread_main(void *p)
{
    thread_job *j = p;
    enum { N = 4096 };
    static _Thread_local float hx[N], hy[N], hz[N];
    ct_devptr x = 0, y = 0, z = 0;
    ct_context ctx;
    for (int i = 0; i < N; i++) {
        hx[i] = (float)(i + j->id);
        hy[i] = (float)(2 * i);
    }
    ct_status s = ct_cuda_context(0, &ctx);
    if (s == CT_OK)
        s = ct_mem_alloc(&x, sizeof hx);
    if (s == CT_OK)
        s = ct_mem_alloc(&y, sizeof hy);
    if (s == CT_OK)
        s = ct_mem_alloc(&z, sizeof hz);
    if (s == CT_OK)
        s = ct_mem_upload(x, hx, sizeof hx);
    if (s == CT_OK)
        s = ct_mem_upload(y, hy, sizeof hy);
    for (int r = 0; r < 200 && s == CT_OK; r++)
        s = CT_LAUNCH(j->k, ct_grid(N / 1024), NULL, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32),
                      ct_ptr(z, tl_float32), ct_int(N));
    if (s == CT_OK)
        s = ct_mem_download(hz, z, sizeof hz);
    for (int i = 0; i < N && s == CT_OK; i++)
        j->wrong += hz[i] != hx[i] + hy[i];
    if (s != CT_OK)
        snprintf(j->msg, sizeof j->msg, "%s", ct_errmsg());
    j->st = s;
    ct_mem_free(x);
    ct_mem_free(y);
    ct_mem_free(z);
    return NULL;
}

/* A kernel of the registry with constexprs, and two device buffers: a filled from ha, c from hc
 * (or left as allocated when hc is NULL). */
static ct_status kernel_and_two_buffers(const ct_kernel_entry *e, const char *cx, ct_kernel **k,
                                        ct_devptr *a, const void *ha, size_t an, ct_devptr *c,
                                        const void *hc, size_t cn)
{
    ct_kernel_opts o = {.constexprs = cx};
    ct_status s = e ? ct_kernel_new(e->def, &o, k) : CT_ERR_INVALID;
    if (s == CT_OK)
        s = ct_mem_alloc(a, an);
    if (s == CT_OK)
        s = ct_mem_alloc(c, cn);
    if (s == CT_OK)
        s = ct_mem_upload(*a, ha, an);
    if (s == CT_OK && hc)
        s = ct_mem_upload(*c, hc, cn);
    return s;
}

static void free_kernel_and_buffers(ct_kernel *k, ct_devptr a, ct_devptr c)
{
    if (a)
        ct_mem_free(a);
    if (c)
        ct_mem_free(c);
    if (k)
        ct_kernel_free(k);
}

static int cmd_features(void)
{
    ct_context ctx;
    CHECK(ct_cuda_context(0, &ctx), "context");
    const ct_cuda_api *cu = ct_cuda();
    char msg[2048];
    const ct_kernel_entry *sm = ct_kernel_find("softmax_kernel");
    const ct_kernel_entry *add = ct_kernel_find("add_kernel");

    /* 0. a kernel that makes tensor descriptors: its global scratch comes from ct_launch */
    {
        const ct_kernel_entry *td = ct_kernel_find("ops_tensor_desc");
        enum { M = 100, N = 80 };
        static uint16_t ha[M * N], hc[M * N];
        for (int i = 0; i < M * N; i++)
            ha[i] = (uint16_t)(0x3c00 + (i % 512)); /* fp16 values in [1, 2) */
        ct_kernel *k = NULL;
        ct_devptr a = 0, c = 0;
        ct_status s = kernel_and_two_buffers(td, "BLOCK_M=64 BLOCK_N=64", &k, &a, ha, sizeof ha, &c,
                                             NULL, sizeof hc);
        if (s == CT_OK)
            s = CT_LAUNCH(k, ct_grid(2, 2), NULL, ct_ptr(a, tl_float16), ct_ptr(c, tl_float16),
                          ct_int(M), ct_int(N), ct_int(N), ct_int(N));
        if (s == CT_OK)
            s = ct_mem_download(hc, c, sizeof hc);
        int bad = 0;
        for (int i = 0; i < M * N && s == CT_OK; i++)
            bad += hc[i] != (uint16_t)(ha[i] + 0x400); /* 2x: one more in the exponent */
        snprintf(msg, sizeof msg, "%s; %d of %d elements differ from 2a", s == CT_OK ? "ok" : ct_errmsg(),
                 bad, M * N);
        feature("tensor descriptors made in the kernel (global scratch)", s == CT_OK && !bad, msg);
        free_kernel_and_buffers(k, a, c);
    }
    /* 0b. tensor descriptors made on the host: TMA descriptors encoded by ct_launch */
    {
        const ct_kernel_entry *hd = ct_kernel_find("ops_host_desc");
        enum { M = 100, N = 72, GUARD = 64 };
        static float ha[M * N], hc[M * N + GUARD];
        for (int i = 0; i < M * N; i++)
            ha[i] = (float)(i % 1000) * 0.25f;
        for (int i = 0; i < M * N + GUARD; i++)
            hc[i] = -7.0f;
        ct_kernel *k = NULL;
        ct_devptr a = 0, c = 0;
        ct_status s = kernel_and_two_buffers(hd, "BLOCK_M=64 BLOCK_N=32", &k, &a, ha, sizeof ha, &c,
                                             hc, sizeof hc);
        ct_tensordesc ad = {.base = a, .dtype = TL_FP32, .rank = 2, .shape = {M, N},
                            .strides = {N, 1}, .block_shape = {64, 32}};
        ct_tensordesc cd = ad;
        cd.base = c;
        if (s == CT_OK)
            s = CT_LAUNCH(k, ct_grid(2, 3), NULL, ct_desc(&ad), ct_desc(&cd));
        if (s == CT_OK)
            s = ct_mem_download(hc, c, sizeof hc);
        int bad = 0, guard = 0;
        for (int i = 0; i < M * N && s == CT_OK; i++)
            bad += hc[i] != ha[i] + 1.0f;
        for (int i = M * N; i < M * N + GUARD && s == CT_OK; i++)
            guard += hc[i] != -7.0f;
        const ct_artifact *art = k ? ct_kernel_artifact(k, (ct_arg[]){ct_desc(&ad), ct_desc(&cd)}, 2) : NULL;
        snprintf(msg, sizeof msg, "%s; %d of %d elements differ from a+1; %d guard elements written; "
                 "%d TMA descriptors in the metadata",
                 s == CT_OK ? "ok" : ct_errmsg(), bad, M * N, guard, art ? art->meta.ndescs : -1);
        feature("tensor descriptor arguments (TMA descriptors encoded by ct_launch)",
                s == CT_OK && !bad && !guard && art && art->meta.ndescs == 2, msg);
        free_kernel_and_buffers(k, a, c);
    }
    /* 1. a stream of our own */
    {
        lr_run r;
        ct_stream st = NULL;
        ct_status s = cu->cuStreamCreate(&st, 1) ? CT_ERR_CUDA : CT_OK;
        if (s == CT_OK)
            s = lr_prepare(&r, sm, &sm->configs[0], NULL, 3);
        if (s == CT_OK)
            s = lr_launch(&r, st);
        if (s == CT_OK)
            s = ct_stream_sync(st);
        if (s == CT_OK)
            s = lr_fetch(&r);
        if (s == CT_OK)
            s = lr_check(&r, msg, sizeof msg);
        else
            snprintf(msg, sizeof msg, "%s", ct_errmsg());
        feature("launch on a created stream", s == CT_OK, msg);
        lr_free(&r);
        if (st)
            cu->cuStreamDestroy(st);
    }
    /* 2. specializations: an unaligned pointer and n_cols == 1 compile new kernels */
    {
        ct_kernel *k;
        ct_kernel_opts o = {.constexprs = "BLOCK_SIZE=128"};
        ct_status s = ct_kernel_new(sm->def, &o, &k);
        ct_devptr x = 0, y = 0;
        enum { M = 8, N = 100 };
        float hx[M * N + 4], hy[M * N + 4];
        for (int i = 0; i < M * N + 4; i++)
            hx[i] = (float)((i * 37) % 11) / 5.0f;
        if (s == CT_OK)
            s = ct_mem_alloc(&x, sizeof hx);
        if (s == CT_OK)
            s = ct_mem_alloc(&y, sizeof hy);
        if (s == CT_OK)
            s = ct_mem_upload(x, hx, sizeof hx);
        /* aligned, then 4 bytes in (no divisibility), then one column (constant 1) */
        if (s == CT_OK)
            s = CT_LAUNCH(k, ct_grid(M), NULL, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(N));
        if (s == CT_OK)
            s = CT_LAUNCH(k, ct_grid(M), NULL, ct_ptr(x + 4, tl_float32), ct_ptr(y + 4, tl_float32), ct_int(N));
        if (s == CT_OK)
            s = ct_mem_download(hy, y, sizeof hy);
        double err = 0;
        for (int r = 0; r < M && s == CT_OK; r++) {
            double mx = -INFINITY, sum = 0;
            for (int c = 0; c < N; c++)
                mx = fmax(mx, hx[1 + r * N + c]);
            for (int c = 0; c < N; c++)
                sum += exp(hx[1 + r * N + c] - mx);
            for (int c = 0; c < N; c++)
                err = fmax(err, fabs(hy[1 + r * N + c] - exp(hx[1 + r * N + c] - mx) / sum));
        }
        if (s == CT_OK)
            s = CT_LAUNCH(k, ct_grid(M), NULL, ct_ptr(x, tl_float32), ct_ptr(y, tl_float32), ct_int(1));
        if (s == CT_OK)
            s = ct_mem_download(hy, y, sizeof hy);
        bool ones = s == CT_OK;
        for (int r = 0; r < M && ones; r++)
            ones = hy[r] == 1.0f;
        ct_kernel_stats st = {0};
        ct_kernel_get_stats(k, &st);
        snprintf(msg, sizeof msg, "%s; %d specializations; unaligned max err %.2e; n_cols=1 -> %s",
                 s == CT_OK ? "ok" : ct_errmsg(), st.specializations, err,
                 ones ? "all 1.0" : "WRONG");
        feature("JIT specializations (aligned, unaligned, constant 1)",
                s == CT_OK && st.specializations == 3 && err < 1e-6 && ones, msg);
        /* 3. errors are values, nothing launched */
        ct_status g = CT_LAUNCH(k, ct_grid(1, 70000), NULL, ct_ptr(x, tl_float32),
                                ct_ptr(y, tl_float32), ct_int(N));
        snprintf(msg, sizeof msg, "%s: %s", ct_status_name(g), ct_errmsg());
        feature("grid[1] > 65535 refused before launch", g == CT_ERR_INVALID, msg);
        ct_status a = CT_LAUNCH(k, ct_grid(1), NULL, ct_ptr(x, tl_float32), ct_int(N));
        snprintf(msg, sizeof msg, "%s: %s", ct_status_name(a), ct_errmsg());
        feature("wrong argument count refused", a == CT_ERR_INVALID, msg);
        /* 4. a second context on the same device: the module is loaded there too */
        if (cu->cuCtxCreate && s == CT_OK) {
            ct_context c2 = NULL;
            ct_cudevice dev;
            cu->cuCtxGetDevice(&dev);
            ct_status s2 = cu->cuCtxCreate(&c2, 0, dev) ? CT_ERR_CUDA : CT_OK; /* current now */
            ct_devptr x2 = 0, y2 = 0;
            if (s2 == CT_OK)
                s2 = ct_mem_alloc(&x2, sizeof hx);
            if (s2 == CT_OK)
                s2 = ct_mem_alloc(&y2, sizeof hy);
            if (s2 == CT_OK)
                s2 = ct_mem_upload(x2, hx, sizeof hx);
            if (s2 == CT_OK)
                s2 = CT_LAUNCH(k, ct_grid(M), NULL, ct_ptr(x2, tl_float32), ct_ptr(y2, tl_float32), ct_int(N));
            float h2[M * N + 4];
            if (s2 == CT_OK)
                s2 = ct_mem_download(h2, y2, sizeof h2);
            ct_kernel_get_stats(k, &st);
            snprintf(msg, sizeof msg, "%s; modules loaded: %d", s2 == CT_OK ? "ok" : ct_errmsg(),
                     st.loads);
            feature("a second CUDA context", s2 == CT_OK && st.loads == 4, msg);
            if (x2)
                ct_mem_free(x2);
            if (y2)
                ct_mem_free(y2);
            if (c2) {
                cu->cuCtxSetCurrent(ctx);
                ct_kernel_free(k); /* unload from both contexts before destroying one */
                k = NULL;
                cu->cuCtxDestroy(c2);
            }
        }
        ct_kernel_free(k);
        if (x)
            ct_mem_free(x);
        if (y)
            ct_mem_free(y);
    }
    /* 5. large shared memory (opt-in above 48 KiB) and 6. a 2-CTA cluster */
    {
        lr_run r;
        const ct_kernel_entry *mm = ct_kernel_find("matmul_kernel");
        tl_config big = {.name = "fp16_128x256x64_s3",
                         .signature = mm ? mm->configs[0].signature : "",
                         .constexprs = "BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 "
                                       "GROUP_SIZE_M=8 ACTIVATION=None",
                         .problem = "M=512 N=512 K=512", .num_warps = 8, .num_stages = 3};
        ct_status s = mm ? lr_prepare(&r, mm, &big, NULL, 4) : CT_ERR_UNSUPPORTED;
        if (s == CT_OK)
            s = lr_launch(&r, NULL);
        if (s == CT_OK)
            s = lr_fetch(&r);
        int shared = 0;
        if (s == CT_OK) {
            const ct_artifact *a = ct_kernel_artifact(r.k, r.args, r.nargs);
            shared = a ? a->meta.shared : 0;
            s = lr_check(&r, msg, sizeof msg);
        } else {
            snprintf(msg, sizeof msg, "%s", ct_errmsg());
        }
        char d[2300];
        snprintf(d, sizeof d, "%d bytes of shared memory; %s", shared, msg);
        feature("dynamic shared memory above 48 KiB", s == CT_OK && shared > 49152, d);
        if (mm)
            lr_free(&r);

        tl_config two = add->configs[0];
        ct_kernel_opts o = {.constexprs = two.constexprs, .num_ctas = 2};
        ct_kernel *k = NULL;
        s = ct_kernel_new(add->def, &o, &k);
        lr_run ar;
        if (s == CT_OK)
            s = lr_prepare(&ar, add, &two, NULL, 5);
        if (s == CT_OK) {
            ct_kernel_free(ar.k);
            ar.k = k; /* the same arguments through the num_ctas=2 kernel */
            k = NULL;
            s = lr_launch(&ar, NULL);
            if (s == CT_OK)
                s = lr_fetch(&ar);
            if (s == CT_OK)
                s = lr_check(&ar, msg, sizeof msg);
            else
                snprintf(msg, sizeof msg, "%s", ct_errmsg());
            lr_free(&ar);
        } else {
            snprintf(msg, sizeof msg, "%s", ct_errmsg());
        }
        ct_kernel_free(k);
        feature("num_ctas=2 (cluster launch)", s == CT_OK, msg);
    }
    /* 7. one ct_kernel launched from four threads at once (each thread makes the
     * primary context current for itself) */
    {
        ct_kernel *k = NULL;
        ct_kernel_opts o = {.constexprs = add->configs[0].constexprs};
        ct_status s = ct_kernel_new(add->def, &o, &k);
        thread_job jobs[4];
        pthread_t th[4];
        memset(jobs, 0, sizeof jobs);
        int started = 0;
        for (int i = 0; i < 4 && s == CT_OK; i++, started++) {
            jobs[i].k = k;
            jobs[i].id = i;
            if (pthread_create(&th[i], NULL, thread_main, &jobs[i]) != 0)
                break;
        }
        int wrong = 0;
        bool ok = s == CT_OK && started == 4;
        msg[0] = 0;
        for (int i = 0; i < started; i++) {
            pthread_join(th[i], NULL);
            wrong += jobs[i].wrong;
            if (jobs[i].st != CT_OK) {
                ok = false;
                snprintf(msg, sizeof msg, "thread %d: %s", i, jobs[i].msg);
            }
        }
        ct_kernel_stats st = {0};
        if (k)
            ct_kernel_get_stats(k, &st);
        if (!msg[0])
            snprintf(msg, sizeof msg, "%d wrong elements; %d specialization(s), %d module load(s)",
                     wrong, st.specializations, st.loads);
        feature("one ct_kernel from 4 threads", ok && wrong == 0 && st.specializations == 1, msg);
        ct_kernel_free(k);
    }
    return 0;
}

/* ---- softmax bandwidth ------------------------------------------------------------ */

/* one program per row; the number of rows comes in `ud` */
static ct_dim3 rows_grid(const ct_tune_config *c, const ct_arg *a, int n, void *ud)
{
    (void)c, (void)a, (void)n;
    return ct_grid((unsigned)(uintptr_t)ud);
}

typedef struct copy_job {
    ct_devptr dst, src;
    size_t bytes;
} copy_job;

static ct_status copy_fn(void *ud, ct_stream s)
{
    (void)s;
    copy_job *j = ud;
    return ct_cu_check(ct_cuda()->cuMemcpyDtoD(j->dst, j->src, j->bytes), "cuMemcpyDtoD");
}

typedef struct tuned_job {
    ct_autotuner *t;
    const ct_arg *args;
    int nargs;
} tuned_job;

static ct_status tuned_fn(void *ud, ct_stream s)
{
    tuned_job *j = ud;
    return ct_autotune(j->t, s, j->args, j->nargs);
}

static int cmd_softmax_bw(void)
{
    ct_context ctx;
    CHECK(ct_cuda_context(0, &ctx), "context");
    const ct_kernel_entry *sm = ct_kernel_find("softmax_kernel");
    enum { M = 32768, N = 4096 };
    tl_config cfg = {.name = "B4096", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32:16",
                     .constexprs = "BLOCK_SIZE=4096", .problem = "M=32768 N=4096", .num_warps = 8};
    lr_run r;
    CHECK(lr_prepare(&r, sm, &cfg, NULL, 6), "prepare softmax");
    static const ct_tune_config cfgs[] = {
        {"BLOCK_SIZE=4096", 4, 3, 1, 0},  {"BLOCK_SIZE=4096", 8, 3, 1, 0},
        {"BLOCK_SIZE=4096", 16, 3, 1, 0}, {"BLOCK_SIZE=4096", 32, 3, 1, 0},
    };
    ct_autotune_opts ao = {.def = sm->def, .configs = cfgs, .nconfigs = 4, .key = "n_cols",
                           .grid = rows_grid, .grid_ud = (void *)(uintptr_t)M, .verbose = true};
    ct_autotuner *t;
    CHECK(ct_autotuner_new(&ao, &t), "autotuner");
    CHECK(ct_autotune(t, NULL, r.args, r.nargs), "softmax autotune");
    int best = ct_autotune_best(t, NULL, r.args, r.nargs);
    CHECK(lr_fetch(&r), "fetch");
    char msg[1024];
    ct_status cs = lr_check(&r, msg, sizeof msg);
    tuned_job tj = {t, r.args, r.nargs};
    ct_bench_result b;
    CHECK(ct_do_bench(tuned_fn, &tj, NULL, &b), "bench softmax");
    copy_job cj = {r.bufs[1].dev, r.bufs[0].dev, (size_t)M * N * 4};
    ct_bench_result cb;
    CHECK(ct_do_bench(copy_fn, &cj, NULL, &cb), "bench copy");
    double bytes = 2.0 * M * N * 4;
    double sm_gbs = bytes / (b.median_ms * 1e-3) / 1e9, copy_gbs = bytes / (cb.median_ms * 1e-3) / 1e9;
    ct_device_info di;
    ct_device_query(&di);
    printf("{\"test\": \"softmax_bw\", \"shape\": \"%dx%d fp32\", \"best_num_warps\": %d, "
           "\"median_ms\": %.5f, \"gbs\": %.1f, \"copy_median_ms\": %.5f, \"copy_gbs\": %.1f, "
           "\"ratio\": %.4f, \"check\": \"%s\", \"device\": \"%s\", \"theoretical_gbs\": %.0f}\n",
           M, N, best >= 0 ? cfgs[best].num_warps : -1, b.median_ms, sm_gbs, cb.median_ms,
           copy_gbs, sm_gbs / copy_gbs, cs == CT_OK ? "ok" : msg, di.name, di.mem_bandwidth_gbs);
    ct_autotuner_free(t);
    lr_free(&r);
    return 0;
}

/* ---- matmul with autotuning ------------------------------------------------------- */

static ct_dim3 mm_grid(const ct_tune_config *c, const ct_arg *a, int n, void *ud)
{
    (void)n, (void)ud;
    int64_t bm = ct_cx_int(c->constexprs, "BLOCK_SIZE_M", 128);
    int64_t bn = ct_cx_int(c->constexprs, "BLOCK_SIZE_N", 128);
    int64_t m = a[3].v.i, nn = a[4].v.i;
    return ct_grid((unsigned)(((m + bm - 1) / bm) * ((nn + bn - 1) / bn)));
}

/* Hopper-oriented candidates, most of them from Triton's matmul tutorial. */
static const ct_tune_config mm_configs[] = {
    {"BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None", 8, 3, 1, 0},
    {"BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None", 8, 4, 1, 0},
    {"BLOCK_SIZE_M=256 BLOCK_SIZE_N=128 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None", 8, 3, 1, 0},
    {"BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None", 8, 4, 1, 0},
    {"BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None", 4, 4, 1, 0},
    {"BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=32 GROUP_SIZE_M=8 ACTIVATION=None", 8, 4, 1, 0},
    {"BLOCK_SIZE_M=256 BLOCK_SIZE_N=128 BLOCK_SIZE_K=32 GROUP_SIZE_M=8 ACTIVATION=None", 8, 4, 1, 0},
    {"BLOCK_SIZE_M=64 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 ACTIVATION=None", 4, 4, 1, 0},
};

static int cmd_matmul(const char *table_out)
{
    ct_context ctx;
    CHECK(ct_cuda_context(0, &ctx), "context");
    const ct_kernel_entry *mm = ct_kernel_find("matmul_kernel");
    if (!mm)
        return die("no matmul_kernel in the library");
    tl_config cfg = mm->configs[0];
    cfg.problem = "M=8192 N=8192 K=8192";
    lr_run r;
    CHECK(lr_prepare(&r, mm, &cfg, NULL, 7), "prepare matmul");
    int nc = (int)(sizeof mm_configs / sizeof mm_configs[0]);
    ct_autotune_opts ao = {.def = mm->def, .configs = mm_configs, .nconfigs = nc, .key = "M,N,K",
                           .grid = mm_grid, .verbose = true};
    ct_autotuner *t;
    CHECK(ct_autotuner_new(&ao, &t), "autotuner");
    double t0 = now_ns();
    int best = ct_autotune_best(t, NULL, r.args, r.nargs);
    double tune_s = (now_ns() - t0) / 1e9;
    if (best < 0)
        return die("matmul autotune");
    CHECK(ct_autotune(t, NULL, r.args, r.nargs), "matmul launch");
    CHECK(lr_fetch(&r), "fetch");
    char msg[1024];
    /* the reference for the chosen config's epilogue: ACTIVATION=None, like cfg */
    ct_status cs = lr_check(&r, msg, sizeof msg);
    tuned_job tj = {t, r.args, r.nargs};
    ct_bench_result b;
    CHECK(ct_do_bench(tuned_fn, &tj, NULL, &b), "bench matmul");
    double tflops = r.flops / (b.median_ms * 1e-3) / 1e12;
    if (table_out)
        ct_autotuner_export(t, table_out);
    ct_kernel_stats st = {0};
    ct_kernel_get_stats(ct_autotuner_kernel(t, best), &st);
    printf("{\"test\": \"matmul\", \"shape\": \"8192^3 fp16\", \"best\": %d, \"best_config\": \"%s "
           "num_warps=%d num_stages=%d\", \"tune_s\": %.2f, \"median_ms\": %.4f, \"p20_ms\": %.4f, "
           "\"p80_ms\": %.4f, \"tflops\": %.1f, \"check\": ",
           best, mm_configs[best].constexprs, mm_configs[best].num_warps,
           mm_configs[best].num_stages, tune_s, b.median_ms, b.p20_ms, b.p80_ms, tflops);
    json_str(cs == CT_OK ? "ok" : msg);
    printf(", \"check_detail\": ");
    json_str(msg);
    printf("}\n");
    ct_autotuner_free(t);
    lr_free(&r);
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";
    if (ct_register_library_kernels() != CT_OK || ct_register_conformance_kernels() != CT_OK) {
        fprintf(stderr, "launch_bench: %s\n", ct_errmsg());
        return 1;
    }
    if (!strcmp(cmd, "overhead"))
        return cmd_overhead(argc > 2 ? atoi(argv[2]) : 20000);
    if (!strcmp(cmd, "startup"))
        return cmd_startup();
    if (!strcmp(cmd, "kernels"))
        return cmd_kernels(argc > 2 ? argv[2] : "launch-dumps", argc > 3 ? argv[3] : NULL);
    if (!strcmp(cmd, "precompile"))
        return cmd_precompile();
    if (!strcmp(cmd, "features"))
        return cmd_features();
    if (!strcmp(cmd, "softmax-bw"))
        return cmd_softmax_bw();
    if (!strcmp(cmd, "matmul"))
        return cmd_matmul(argc > 2 ? argv[2] : NULL);
    fprintf(stderr, "usage: launch_bench overhead [N] | startup | precompile | kernels DIR [KERNEL] | features | "
                    "softmax-bw | matmul [TABLE]\n");
    return 2;
}
