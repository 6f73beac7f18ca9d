/*
 * dot_floor.h - the least time the default (exact) mode can take for a workload's dots.
 *
 * The emulator's exact dots reproduce Hopper's wgmma accumulation bit for bit (docs/emulator.md,
 * "f16 dots on Hopper", "fp8 dots"): every product is cut at a grid set by its own output's
 * largest exponent, so no matrix engine can do the sums, and the micro-kernels of
 * src/emu/dot_gemm.c (emu_gemm_hopper_f16, emu_gemm_hopper_fp8) run at a few vector operations
 * per 16 products.  This header times those micro-kernels alone, on the workload's own tile shape
 * and on random operands like the workloads', on 1 thread and on T threads at once (each on its
 * own tiles, as programs run), and turns a workload's number of products into the time its dots
 * alone take: a floor under any run of the workload in the default mode, since everything else a
 * kernel does (loads, masks, softmax, stores) only adds to it.  bench_workloads and bench_emu
 * print it beside each dot workload; bench/speed_report.py sets it against the interpreter's
 * time / 100 and / 1000 (the goals of issue 13).
 *
 * For the benchmarks only: it calls the library's internal functions (they link the static
 * library and include src/).
 */
#ifndef CTRITON_BENCH_DOT_FLOOR_H
#define CTRITON_BENCH_DOT_FLOOR_H

#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctriton/emu.h"
#include "emu/emu_internal.h"

typedef enum { DOT_NONE, DOT_F16, DOT_FP8 } dot_kind;

/* a workload's dots: their model, the tile shape of one tt.dot (M x N x K, as the TTIR has it)
 * and the products all its programs compute */
typedef struct dot_work {
    dot_kind kind;
    int m, n, k;
    double products;
} dot_work;

typedef struct dot_job {
    dot_kind kind;
    int m, n, k;
    double seconds; /* how long to keep calling */
    double products;
    double elapsed;
    int failed;
} dot_job;

static double dot_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *dot_worker(void *arg)
{
    dot_job *j = arg;
    size_t ebytes = j->kind == DOT_F16 ? 2 : 1;
    size_t na = (size_t)j->m * (size_t)j->k, nb = (size_t)j->k * (size_t)j->n;
    size_t scratch_bytes = 64 + emu_gemm_scratch_bytes(j->m, j->n, j->k);
    uint8_t *a = malloc(na * ebytes), *b = malloc(nb * ebytes);
    float *c = malloc(sizeof(float) * (size_t)j->m * (size_t)j->n);
    void *scratch = malloc(scratch_bytes);
    if (!a || !b || !c || !scratch) {
        j->failed = 1;
        free(a), free(b), free(c), free(scratch);
        return NULL;
    }
    /* operands in [-1, 1) (f16) or [-8, 8) (e4m3), as bench_workloads' inputs */
    uint64_t r = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)j;
    for (size_t i = 0; i < na + nb; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)((uint32_t)(r >> 40)) * 0x1p-24 * 2 - 1;
        uint8_t *p = i < na ? a : b;
        size_t at = i < na ? i : i - na;
        if (j->kind == DOT_F16)
            ct_emu_set(CT_EMU_F16, p, (int64_t)at, v);
        else
            ct_emu_set(CT_EMU_F8E4NV, p, (int64_t)at, 8 * v);
    }
    int64_t calls = 0;
    double t0 = dot_now(), t;
    do {
        for (int rep = 0; rep < 4; rep++, calls++) {
            memset(c, 0, sizeof(float) * (size_t)j->m * (size_t)j->n);
            if (j->kind == DOT_F16)
                emu_gemm_hopper_f16((const uint16_t *)(const void *)a, (const uint16_t *)(const void *)b,
                                    c, j->m, j->n, j->k, scratch);
            else
                emu_gemm_hopper_fp8(a, EK_F8E4NV, b, EK_F8E4NV, c, j->m, j->n, j->k, (int64_t)1 << 30,
                                    scratch);
        }
        t = dot_now();
    } while (t - t0 < j->seconds);
    j->elapsed = t - t0;
    j->products = (double)calls * j->m * j->n * j->k;
    free(a), free(b), free(c), free(scratch);
    return NULL;
}

/* products per second of the exact model on tiles m x n x k, with `threads` threads calling it
 * at once (all of them together); 0 if it could not be measured */
static double dot_rate(dot_kind kind, int m, int n, int k, int threads)
{
    if (kind == DOT_NONE || threads < 1)
        return 0;
    dot_job *jobs = calloc((size_t)threads, sizeof *jobs);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    double rate = 0;
    if (jobs && tid) {
        int started = 0;
        for (int i = 0; i < threads; i++) {
            jobs[i] = (dot_job){kind, m, n, k, 0.2, 0, 0, 0};
            if (pthread_create(&tid[i], NULL, dot_worker, &jobs[i]) != 0)
                break;
            started++;
        }
        double sum = 0;
        int ok = started == threads;
        for (int i = 0; i < started; i++) {
            pthread_join(tid[i], NULL);
            ok = ok && !jobs[i].failed && jobs[i].elapsed > 0;
            if (ok)
                sum += jobs[i].products / jobs[i].elapsed;
        }
        rate = ok ? sum : 0;
    }
    free(jobs);
    free(tid);
    return rate;
}

/* the floor of a workload's dots: the seconds its products take the exact model alone on 1
 * thread (*one) and on `threads` threads at once (*all); both 0 for a workload without dots or
 * where it could not be measured.  Rates are measured once per kind, shape and thread count. */
static void dot_floor(const dot_work *w, int threads, double *one, double *all)
{
    static struct {
        dot_work shape;
        int threads;
        double rate;
    } seen[16];
    static int nseen;
    *one = *all = 0;
    if (w->kind == DOT_NONE || w->products <= 0)
        return;
    for (int pass = 0; pass < 2; pass++) {
        int t = pass ? threads : 1;
        double rate = -1;
        for (int i = 0; i < nseen; i++)
            if (seen[i].shape.kind == w->kind && seen[i].shape.m == w->m && seen[i].shape.n == w->n &&
                seen[i].shape.k == w->k && seen[i].threads == t)
                rate = seen[i].rate;
        if (rate < 0) {
            rate = dot_rate(w->kind, w->m, w->n, w->k, t);
            if (nseen < 16)
                seen[nseen].shape = *w, seen[nseen].threads = t, seen[nseen++].rate = rate;
        }
        if (rate > 0)
            *(pass ? all : one) = w->products / rate;
    }
}

/* `, "dot_products": P, "dot1_s": S1, "dotN_s": SN` for a row of --json, or nothing */
static void dot_floor_json(FILE *f, const dot_work *w, int threads)
{
    double one, all;
    dot_floor(w, threads, &one, &all);
    if (one > 0 && all > 0)
        fprintf(f, ", \"dot_products\": %.6g, \"dot_model\": \"%s %dx%dx%d\", \"dot1_s\": %.6g, "
                   "\"dotN_s\": %.6g",
                w->products, w->kind == DOT_F16 ? "f16" : "fp8e4m3", w->m, w->n, w->k, one, all);
}

#endif
