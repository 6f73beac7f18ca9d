/*
 * bench.c - do_bench: triton.testing.do_bench in C.
 *
 * Same procedure as Triton's: one run, then five runs each after an L2
 * flush (a 256 MB buffer cleared with a memset, as Triton's
 * get_empty_cache_for_benchmark / clear_cache do) timed together for an
 * estimate; warm-up and repeat counts from the time budgets; every repeat
 * after a flush, between two events.  Statistics over the per-repeat times:
 * median, mean, min, max, 20th and 80th percentiles (torch.quantile's
 * linear interpolation) and standard deviation.
 */
#include "ctriton/cuda.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double ct_quantile(double *v, int n, double q)
{
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double pos = q * (n - 1);
    int lo = (int)floor(pos);
    int hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

typedef struct flush_buf {
    ct_devptr p;
    size_t words;
} flush_buf;

static ct_status flush(const ct_cuda_api *cu, const flush_buf *f, ct_stream s)
{
    if (!f->p)
        return CT_OK;
    return ct_cu_check(cu->cuMemsetD32Async(f->p, 0, f->words, s), "cuMemsetD32Async (L2 flush)");
}

ct_status ct_do_bench(ct_bench_fn fn, void *ud, const ct_bench_opts *opts, ct_bench_result *out)
{
    ct_bench_opts o = {.warmup_ms = 25, .rep_ms = 100, .flush_bytes = 256u << 20, .max_reps = 0};
    if (opts)
        o = *opts;
    if (o.warmup_ms <= 0)
        o.warmup_ms = 25;
    if (o.rep_ms <= 0)
        o.rep_ms = 100;
    if (o.max_reps <= 0)
        o.max_reps = 100000;
    memset(out, 0, sizeof *out);
    ct_context ctx;
    ct_status s = ct_cuda_context(0, &ctx);
    if (s != CT_OK)
        return s;
    const ct_cuda_api *cu = ct_cuda();
    ct_stream st = o.stream;
    flush_buf fb = {0, o.flush_bytes / 4};
    ct_event *ev = NULL;
    double *times = NULL;
    int nev = 0;
    ct_event e0 = NULL, e1 = NULL;

    if ((s = fn(ud, st)) != CT_OK)
        return s;
    if ((s = ct_cu_check(cu->cuStreamSynchronize(st), "cuStreamSynchronize")) != CT_OK)
        return s;
    if (fb.words && (s = ct_cu_check(cu->cuMemAlloc(&fb.p, fb.words * 4), "cuMemAlloc (L2 flush buffer)")) != CT_OK)
        return s;
    if ((s = ct_cu_check(cu->cuEventCreate(&e0, 0), "cuEventCreate")) != CT_OK ||
        (s = ct_cu_check(cu->cuEventCreate(&e1, 0), "cuEventCreate")) != CT_OK)
        goto done;

    /* estimate: 5 runs, each after a flush */
    if ((s = ct_cu_check(cu->cuEventRecord(e0, st), "cuEventRecord")) != CT_OK)
        goto done;
    for (int i = 0; i < 5; i++)
        if ((s = flush(cu, &fb, st)) != CT_OK || (s = fn(ud, st)) != CT_OK)
            goto done;
    if ((s = ct_cu_check(cu->cuEventRecord(e1, st), "cuEventRecord")) != CT_OK ||
        (s = ct_cu_check(cu->cuEventSynchronize(e1), "cuEventSynchronize")) != CT_OK)
        goto done;
    float ems = 0;
    if ((s = ct_cu_check(cu->cuEventElapsedTime(&ems, e0, e1), "cuEventElapsedTime")) != CT_OK)
        goto done;
    double est = ems / 5.0;
    if (est <= 0)
        est = 1e-3;
    int n_warmup = (int)(o.warmup_ms / est);
    int n_repeat = (int)(o.rep_ms / est);
    n_warmup = n_warmup < 1 ? 1 : n_warmup > o.max_reps ? o.max_reps : n_warmup;
    n_repeat = n_repeat < 1 ? 1 : n_repeat > o.max_reps ? o.max_reps : n_repeat;

    ev = calloc((size_t)n_repeat * 2, sizeof *ev);
    times = calloc((size_t)n_repeat, sizeof *times);
    if (!ev || !times) {
        s = ct_fail(CT_ERR_NOMEM, "out of memory for %d benchmark events", n_repeat);
        goto done;
    }
    for (; nev < 2 * n_repeat; nev++)
        if ((s = ct_cu_check(cu->cuEventCreate(&ev[nev], 0), "cuEventCreate")) != CT_OK)
            goto done;
    for (int i = 0; i < n_warmup; i++)
        if ((s = fn(ud, st)) != CT_OK)
            goto done;
    for (int i = 0; i < n_repeat; i++) {
        if ((s = flush(cu, &fb, st)) != CT_OK ||
            (s = ct_cu_check(cu->cuEventRecord(ev[2 * i], st), "cuEventRecord")) != CT_OK ||
            (s = fn(ud, st)) != CT_OK ||
            (s = ct_cu_check(cu->cuEventRecord(ev[2 * i + 1], st), "cuEventRecord")) != CT_OK)
            goto done;
    }
    if ((s = ct_cu_check(cu->cuStreamSynchronize(st), "cuStreamSynchronize")) != CT_OK)
        goto done;
    double sum = 0, sq = 0;
    for (int i = 0; i < n_repeat; i++) {
        float ms = 0;
        if ((s = ct_cu_check(cu->cuEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]),
                             "cuEventElapsedTime")) != CT_OK)
            goto done;
        times[i] = ms;
        sum += ms;
        sq += (double)ms * ms;
    }
    out->reps = n_repeat;
    out->warmup = n_warmup;
    out->estimate_ms = est;
    out->mean_ms = sum / n_repeat;
    double var = sq / n_repeat - out->mean_ms * out->mean_ms;
    out->std_ms = var > 0 ? sqrt(var) : 0;
    out->median_ms = ct_quantile(times, n_repeat, 0.5);
    out->p20_ms = ct_quantile(times, n_repeat, 0.2);
    out->p80_ms = ct_quantile(times, n_repeat, 0.8);
    out->min_ms = times[0];
    out->max_ms = times[n_repeat - 1];
done:
    for (int i = 0; i < nev; i++)
        cu->cuEventDestroy(ev[i]);
    if (e0)
        cu->cuEventDestroy(e0);
    if (e1)
        cu->cuEventDestroy(e1);
    if (fb.p) {
        cu->cuStreamSynchronize(st);
        cu->cuMemFree(fb.p);
    }
    free(ev);
    free(times);
    return s;
}
