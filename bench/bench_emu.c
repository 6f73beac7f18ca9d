/*
 * bench_emu.c - emulator speed: softmax 1024 x 1000 fp32, layer norm
 * forward, matmul 512^3 fp16, each on the emulator with one thread and with
 * all cores, against a plain C loop of the same computation on one thread.
 *
 *   build/bench_emu [--reps N] [--threads N] [--markdown] [--only NAME] [--emu-only] [--json FILE]
 *
 * --json writes the rows as bench/bench_workloads.c does, under the keys softmax, layer_norm,
 * matmul512 and matmul512_fast (scripts/gpu/emu_speed.sh).
 *
 * The kernels are the library's when it has them (softmax_kernel) and the
 * Triton tutorials' otherwise, written here in the kernel language (their
 * Python twins are in bench/kernels.py, which scripts/gpu_emu_capture.py
 * times under TRITON_INTERPRET=1 for the comparison in bench/RESULTS.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctriton/emu.h"
#include "ctriton/tl.h"
#include "kernels.h"
#include "dot_floor.h"

/* ---- kernels not (yet) in the library: Triton's tutorials ----------------------------- */

/* Layer norm: the library's layer_norm_fwd_kernel (kernels/layer_norm.c), which is
 * Triton's tutorial kernel 05-layer-norm.py (_layer_norm_fwd_fused). */
extern const tl_kernel_def layer_norm_fwd_kernel;

/* 03-matrix-multiplication.py (without grouping and activation) */
TL_KERNEL(bench_matmul, (a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                         stride_cm, stride_cn),
          (int, BLOCK_SIZE_M), (int, BLOCK_SIZE_N), (int, BLOCK_SIZE_K))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor num_pid_n = tl_cdiv(N, BLOCK_SIZE_N);
    tl_tensor pid_m = tl_floordiv(pid, num_pid_n);
    tl_tensor pid_n = tl_mod(pid, num_pid_n);
    tl_tensor offs_am = tl_mod(tl_add(tl_mul(pid_m, BLOCK_SIZE_M), tl_arange(0, BLOCK_SIZE_M)), M);
    tl_tensor offs_bn = tl_mod(tl_add(tl_mul(pid_n, BLOCK_SIZE_N), tl_arange(0, BLOCK_SIZE_N)), N);
    tl_tensor offs_k = tl_arange(0, BLOCK_SIZE_K);
    tl_tensor a_ptrs = tl_add(a_ptr, tl_add(tl_mul(tl_idx(offs_am, ":, None"), stride_am),
                                            tl_mul(tl_idx(offs_k, "None, :"), stride_ak)));
    tl_tensor b_ptrs = tl_add(b_ptr, tl_add(tl_mul(tl_idx(offs_k, ":, None"), stride_bk),
                                            tl_mul(tl_idx(offs_bn, "None, :"), stride_bn)));
    tl_tensor accumulator = tl_zeros(tl_shape(BLOCK_SIZE_M, BLOCK_SIZE_N), tl_float32);
    TL_FOR(k, tl_range(0, tl_cdiv(K, BLOCK_SIZE_K), 1), a_ptrs, b_ptrs, accumulator)
    {
        tl_tensor a = tl_load(a_ptrs, .mask = tl_lt(tl_idx(offs_k, "None, :"),
                                                    tl_sub(K, tl_mul(k, BLOCK_SIZE_K))),
                              .other = tl_c(0.0));
        tl_tensor b = tl_load(b_ptrs, .mask = tl_lt(tl_idx(offs_k, ":, None"),
                                                    tl_sub(K, tl_mul(k, BLOCK_SIZE_K))),
                              .other = tl_c(0.0));
        accumulator = tl_dot(a, b, .acc = accumulator);
        a_ptrs = tl_add(a_ptrs, tl_mul(BLOCK_SIZE_K, stride_ak));
        b_ptrs = tl_add(b_ptrs, tl_mul(BLOCK_SIZE_K, stride_bk));
    }
    tl_tensor c = tl_to(accumulator, tl_float16);
    tl_tensor offs_cm = tl_add(tl_mul(pid_m, BLOCK_SIZE_M), tl_arange(0, BLOCK_SIZE_M));
    tl_tensor offs_cn = tl_add(tl_mul(pid_n, BLOCK_SIZE_N), tl_arange(0, BLOCK_SIZE_N));
    tl_tensor c_ptrs = tl_add(c_ptr, tl_add(tl_mul(stride_cm, tl_idx(offs_cm, ":, None")),
                                            tl_mul(stride_cn, tl_idx(offs_cn, "None, :"))));
    tl_tensor c_mask = tl_logical_and(tl_lt(tl_idx(offs_cm, ":, None"), M),
                                      tl_lt(tl_idx(offs_cn, "None, :"), N));
    tl_store(c_ptrs, c, .mask = c_mask);
}

/* ---- harness --------------------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 42; /* reset by each workload: its inputs do not depend on which ran before */
static float frand(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((rng >> 40) * 0x1p-24) * 2 - 1;
}

typedef struct bench {
    const char *name;
    double emu1, emuN, cloop;
    int threads;
    const char *check;
    uint64_t hash; /* FNV-1a of the emulator's outputs: equal across builds that agree bit for bit */
    /* memory: the buffers, one thread's frame, and what the process's resident set grew by
     * while the emulator ran (peak during the runs minus the resident set before them) */
    double bufs_mb, frame_mb, extra_mb;
} bench;

/* kB of a /proc/self/status field, -1 if unknown */
static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long v = -1;
    size_t n = strlen(field);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, field, n) && line[n] == ':') {
            v = atol(line + n + 1);
            break;
        }
    fclose(f);
    return v;
}

/* resets the peak resident set to the current one (Linux >= 4.0); returns the current one, kB */
static long rss_reset(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
    return status_kb("VmRSS");
}

/* the emulator's runs of one workload, with the memory they took */
static void time_both(bench *b, ct_emu *e, ct_emu_kernel *k, int grid, int threads, int nargs,
                      const ct_emu_arg *args, double bufs_bytes);

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define FNV0 0xcbf29ce484222325ull

static int reps = 3;
static bool emu_only; /* --emu-only: the C loop once (it is still the check), for profiling */
static ct_emu_dot_mode dot_mode; /* the matmul's second row: CT_EMU_DOT_FAST */

/* best of `reps` runs */
static double time_emu(ct_emu *e, ct_emu_kernel *k, int grid, int threads, int nargs,
                       const ct_emu_arg *args, int *used)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        ct_emu_result res;
        ct_emu_launch l = {{grid, 1, 1}, threads, 0, NULL};
        if (ct_emu_run(e, k, &l, nargs, args, &res) != CT_EMU_OK) {
            fprintf(stderr, "bench: %s\n", res.fault.message);
            exit(1);
        }
        if (res.seconds < best)
            best = res.seconds;
        *used = res.threads;
    }
    return best;
}

static void time_both(bench *b, ct_emu *e, ct_emu_kernel *k, int grid, int threads, int nargs,
                      const ct_emu_arg *args, double bufs_bytes)
{
    long before = rss_reset();
    b->emu1 = time_emu(e, k, grid, 1, nargs, args, &b->threads);
    b->emuN = time_emu(e, k, grid, threads, nargs, args, &b->threads);
    long peak = status_kb("VmHWM");
    b->extra_mb = before >= 0 && peak >= 0 ? (double)(peak - before) / 1024 : -1;
    b->bufs_mb = bufs_bytes / (1024.0 * 1024.0);
    b->frame_mb = (double)ct_emu_kernel_frame_bytes(k) / (1024.0 * 1024.0);
}

static ct_emu_kernel *compile(const tl_kernel_def *def, const char *sig, const char *cx, int warps)
{
    ct_diags d;
    ct_diags_init(&d);
    tl_options o;
    tl_options_default(&o);
    o.num_warps = warps;
    ct_module *m = tl_build(def, sig, cx, &o, &d);
    ct_emu_options eo = {.num_warps = warps, .dot = dot_mode};
    ct_emu_kernel *k = m ? ct_emu_compile_ex(m, def->name, &eo, &d) : NULL;
    ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    ct_module_destroy(m);
    if (!k)
        exit(1);
    return k;
}

extern const tl_kernel_def softmax_kernel;

static void bench_softmax(bench *b, int threads)
{
    rng = 42;
    const int M = 1024, N = 1000;
    float *x = malloc(sizeof(float) * M * N), *y = malloc(sizeof(float) * M * N);
    float *ref = malloc(sizeof(float) * M * N);
    for (int i = 0; i < M * N; i++)
        x[i] = frand() * 4;
    ct_emu_kernel *k = compile(&softmax_kernel, "x_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32",
                               "BLOCK_SIZE=1024", 4);
    ct_emu *e = ct_emu_new();
    int bx = ct_emu_add_buffer(e, "x", x, sizeof(float) * M * N, CT_EMU_F32, CT_EMU_IN);
    int by = ct_emu_add_buffer(e, "y", y, sizeof(float) * M * N, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(bx), ct_emu_ptr(by), ct_emu_int(N)};
    memset(y, 0, sizeof(float) * M * N); /* resident before the runs, as a caller's buffers are */
    time_both(b, e, k, M, threads, 3, args, 2.0 * sizeof(float) * M * N);
    double best = 1e30;
    for (int r = 0; r < (emu_only ? 1 : reps); r++) {
        double t0 = now();
        for (int i = 0; i < M; i++) {
            const float *xr = x + (size_t)i * N;
            float mx = -INFINITY, s = 0;
            for (int j = 0; j < N; j++)
                mx = fmaxf(mx, xr[j]);
            for (int j = 0; j < N; j++)
                s += ref[(size_t)i * N + j] = expf(xr[j] - mx);
            for (int j = 0; j < N; j++)
                ref[(size_t)i * N + j] /= s;
        }
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    b->cloop = best;
    ct_emu_check c;
    ct_emu_compare(CT_EMU_F32, y, M * N, ref, M * N, 1e-5, 1e-7, true, &c);
    b->hash = fnv(FNV0, y, sizeof(float) * M * N);
    b->check = ct_emu_verdict_name(c.verdict);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    free(x);
    free(y);
    free(ref);
}

static void bench_layernorm(bench *b, int threads)
{
    rng = 42;
    const int M = 1151, N = 8192; /* the tutorial's benchmark shape, fp16 */
    size_t n = (size_t)M * N;
    uint16_t *x = malloc(2 * n), *y = malloc(2 * n), *w = malloc(2 * N), *bb = malloc(2 * N);
    float *mean = malloc(4 * M), *rstd = malloc(4 * M);
    float *yref = malloc(4 * n);
    for (size_t i = 0; i < n; i++)
        ct_emu_set(CT_EMU_F16, x, (int64_t)i, frand() * 2);
    for (int i = 0; i < N; i++) {
        ct_emu_set(CT_EMU_F16, w, i, 1 + frand() * 0.1);
        ct_emu_set(CT_EMU_F16, bb, i, frand() * 0.1);
    }
    ct_emu_kernel *k = compile(&layer_norm_fwd_kernel,
                               "X=*fp16:16 Y=*fp16:16 W=*fp16:16 B=*fp16:16 Mean=*fp32:16 "
                               "Rstd=*fp32:16 stride=i32:16 N=i32:16 eps=fp32",
                               "BLOCK_SIZE=1024", 8);
    ct_emu *e = ct_emu_new();
    int ix = ct_emu_add_buffer(e, "X", x, 2 * n, CT_EMU_F16, CT_EMU_IN);
    int iy = ct_emu_add_buffer(e, "Y", y, 2 * n, CT_EMU_F16, CT_EMU_OUT);
    int iw = ct_emu_add_buffer(e, "W", w, 2 * N, CT_EMU_F16, CT_EMU_IN);
    int ib = ct_emu_add_buffer(e, "B", bb, 2 * N, CT_EMU_F16, CT_EMU_IN);
    int im = ct_emu_add_buffer(e, "Mean", mean, 4 * M, CT_EMU_F32, CT_EMU_OUT);
    int ir = ct_emu_add_buffer(e, "Rstd", rstd, 4 * M, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(ix), ct_emu_ptr(iy), ct_emu_ptr(iw), ct_emu_ptr(ib),
                         ct_emu_ptr(im), ct_emu_ptr(ir), ct_emu_int(N), ct_emu_int(N),
                         ct_emu_float(1e-5)};
    memset(y, 0, 2 * n);
    memset(mean, 0, 4 * M);
    memset(rstd, 0, 4 * M);
    time_both(b, e, k, M, threads, 9, args, 4.0 * (double)n + 4.0 * N + 8.0 * M);
    /* the C loop decodes f16 through a table, as a tuned CPU kernel would */
    static float h2f[65536];
    for (int i = 0; i < 65536; i++) {
        uint16_t h = (uint16_t)i;
        h2f[i] = (float)ct_emu_get(CT_EMU_F16, &h, 0);
    }
    double best = 1e30;
    for (int r = 0; r < (emu_only ? 1 : reps); r++) {
        double t0 = now();
        for (int i = 0; i < M; i++) {
            const uint16_t *xr = x + (size_t)i * N;
            float s = 0, v = 0;
            for (int j = 0; j < N; j++)
                s += h2f[xr[j]];
            float mu = s / N;
            for (int j = 0; j < N; j++) {
                float d = h2f[xr[j]] - mu;
                v += d * d;
            }
            float rs = 1 / sqrtf(v / N + 1e-5f);
            for (int j = 0; j < N; j++)
                yref[(size_t)i * N + j] = (h2f[xr[j]] - mu) * rs * h2f[w[j]] + h2f[bb[j]];
        }
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    b->cloop = best;
    uint16_t *y16 = malloc(2 * n);
    for (size_t i = 0; i < n; i++)
        ct_emu_set(CT_EMU_F16, y16, (int64_t)i, yref[i]);
    ct_emu_check c;
    ct_emu_compare(CT_EMU_F16, y, (int64_t)n, y16, (int64_t)n, 1e-2, 1e-2, true, &c);
    b->hash = fnv(fnv(fnv(FNV0, y, 2 * n), mean, 4 * M), rstd, 4 * M);
    b->check = ct_emu_verdict_name(c.verdict);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    free(x);
    free(y);
    free(w);
    free(bb);
    free(mean);
    free(rstd);
    free(yref);
    free(y16);
}

static void bench_matmul_run(bench *b, int threads)
{
    rng = 42;
    const int M = 512, N = 512, K = 512;
    uint16_t *a = malloc(2 * M * K), *bm = malloc(2 * K * N), *c = malloc(2 * M * N);
    float *af = malloc(4 * M * K), *bf = malloc(4 * K * N), *cref = malloc(4 * M * N);
    for (int i = 0; i < M * K; i++) {
        ct_emu_set(CT_EMU_F16, a, i, frand());
        af[i] = (float)ct_emu_get(CT_EMU_F16, a, i);
    }
    for (int i = 0; i < K * N; i++) {
        ct_emu_set(CT_EMU_F16, bm, i, frand());
        bf[i] = (float)ct_emu_get(CT_EMU_F16, bm, i);
    }
    ct_emu_kernel *k = compile(&bench_matmul,
                               "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32:16 N=i32:16 "
                               "K=i32:16 stride_am=i32:16 stride_ak=1 stride_bk=i32:16 "
                               "stride_bn=1 stride_cm=i32:16 stride_cn=1",
                               "BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 BLOCK_SIZE_K=32", 4);
    ct_emu *e = ct_emu_new();
    int ia = ct_emu_add_buffer(e, "a", a, 2 * M * K, CT_EMU_F16, CT_EMU_IN);
    int ib = ct_emu_add_buffer(e, "b", bm, 2 * K * N, CT_EMU_F16, CT_EMU_IN);
    int ic = ct_emu_add_buffer(e, "c", c, 2 * M * N, CT_EMU_F16, CT_EMU_OUT);
    ct_emu_arg args[] = {ct_emu_ptr(ia), ct_emu_ptr(ib), ct_emu_ptr(ic), ct_emu_int(M),
                         ct_emu_int(N),  ct_emu_int(K),  ct_emu_int(K),  ct_emu_int(N),
                         ct_emu_int(N)};
    int grid = (M / 128) * (N / 128);
    memset(c, 0, 2 * M * N);
    time_both(b, e, k, grid, threads, 9, args, 2.0 * (M * K + K * N + M * N));
    double best = 1e30;
    for (int r = 0; r < (emu_only ? 1 : reps); r++) {
        double t0 = now();
        for (int i = 0; i < M; i++) {
            float *row = cref + (size_t)i * N;
            for (int j = 0; j < N; j++)
                row[j] = 0;
            for (int kk = 0; kk < K; kk++) {
                float av = af[(size_t)i * K + kk];
                const float *br = bf + (size_t)kk * N;
                for (int j = 0; j < N; j++)
                    row[j] += av * br[j];
            }
        }
        double t = now() - t0;
        if (t < best)
            best = t;
    }
    b->cloop = best;
    uint16_t *c16 = malloc(2 * M * N);
    for (int i = 0; i < M * N; i++)
        ct_emu_set(CT_EMU_F16, c16, i, cref[i]);
    ct_emu_check chk;
    ct_emu_compare(CT_EMU_F16, c, M * N, c16, M * N, 1e-2, 1e-2, true, &chk);
    b->hash = fnv(FNV0, c, 2 * M * N);
    b->check = ct_emu_verdict_name(chk.verdict);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    free(a);
    free(bm);
    free(c);
    free(af);
    free(bf);
    free(cref);
    free(c16);
}

/* the same with CT_EMU_DOT_FAST: f32 fused multiply-adds, not the tensor cores' bits */
static void bench_matmul_fast(bench *b, int threads)
{
    dot_mode = CT_EMU_DOT_FAST;
    bench_matmul_run(b, threads);
    dot_mode = CT_EMU_DOT_GPU;
}

int main(int argc, char **argv)
{
    int threads = 0;
    bool md = false;
    const char *only = NULL, *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--emu-only"))
            emu_only = true;
        else if (!strcmp(argv[i], "--markdown"))
            md = true;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else {
            fprintf(stderr, "usage: bench_emu [--reps N] [--threads N] [--markdown] [--only NAME] [--emu-only] [--json FILE]\n");
            return 2;
        }
    }
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    enum { NB = 4 };
    bench bs[NB] = {{"softmax 1024x1000 fp32"}, {"layer norm fwd 1151x8192 fp16"},
                    {"matmul 512^3 fp16"}, {"matmul 512^3 fp16, --fast-dot"}};
    void (*fns[NB])(bench *, int) = {bench_softmax, bench_layernorm, bench_matmul_run,
                                     bench_matmul_fast};
    if (md)
        printf("| workload | emulator, 1 thread | emulator, %d threads | plain C loop, 1 thread | "
               "emu(1) / C | check |\n|---|---|---|---|---|---|\n",
               threads);
    for (int i = 0; i < NB; i++) {
        if (only && !strstr(bs[i].name, only))
            continue;
        fns[i](&bs[i], threads);
        if (md)
            printf("| %s | %.1f ms | %.1f ms | %.1f ms | %.1fx | %s |\n", bs[i].name,
                   1e3 * bs[i].emu1, 1e3 * bs[i].emuN, 1e3 * bs[i].cloop,
                   bs[i].emu1 / bs[i].cloop, bs[i].check);
        else
            printf("%-32s emu 1 thread %9.2f ms   emu %2d threads %9.2f ms   C loop %9.2f ms   "
                   "(%.1fx C)  %s  outputs %016llx\n",
                   bs[i].name, 1e3 * bs[i].emu1, bs[i].threads, 1e3 * bs[i].emuN,
                   1e3 * bs[i].cloop, bs[i].emu1 / bs[i].cloop, bs[i].check,
                   (unsigned long long)bs[i].hash);
        fflush(stdout);
    }
    static const char *keys[NB] = {"softmax", "layer_norm", "matmul512", "matmul512_fast"};
    FILE *jf = json ? fopen(json, "w") : NULL;
    if (json && !jf) {
        fprintf(stderr, "bench_emu: cannot write %s\n", json);
        return 1;
    }
    if (jf) {
        int n = 0;
        fprintf(jf, "[\n");
        for (int i = 0; i < NB; i++)
            if (!only || strstr(bs[i].name, only)) {
                fprintf(jf,
                        "%s  {\"key\": \"%s\", \"name\": \"%s\", \"emu1_s\": %.6g, "
                        "\"emuN_s\": %.6g, \"threads\": %d, \"cloop_s\": %.6g, \"check\": "
                        "\"%s\", \"outputs_fnv\": \"%016llx\"",
                        n++ ? ",\n" : "", keys[i], bs[i].name, bs[i].emu1, bs[i].emuN,
                        bs[i].threads, bs[i].cloop, bs[i].check, (unsigned long long)bs[i].hash);
                if (i == 2) { /* the exact matmul: 128 x 128 x 32 tiles, 512^3 products */
                    dot_work d = {DOT_F16, 128, 128, 32, 512.0 * 512 * 512};
                    dot_floor_json(jf, &d, threads);
                }
                fprintf(jf, "}");
            }
        fprintf(jf, "\n]\n");
        fclose(jf);
    }
    if (md) {
        printf("\nMemory: the buffers, one thread's frame (the kernel's scratch), and how much the "
               "resident set grew while the emulator ran (peak during its runs minus the resident "
               "set before them, which already holds the buffers).\n\n"
               "| workload | buffers | frame per thread | threads | resident set growth |\n"
               "|---|---|---|---|---|\n");
        for (int i = 0; i < NB; i++)
            if (!only || strstr(bs[i].name, only))
                printf("| %s | %.1f MiB | %.2f MiB | %d | %.1f MiB |\n", bs[i].name, bs[i].bufs_mb,
                       bs[i].frame_mb, bs[i].threads, bs[i].extra_mb);
    } else {
        for (int i = 0; i < NB; i++)
            if (!only || strstr(bs[i].name, only))
                printf("%-32s buffers %.1f MiB, frame %.2f MiB per thread, resident set grew "
                       "%.1f MiB during the runs\n",
                       bs[i].name, bs[i].bufs_mb, bs[i].frame_mb, bs[i].extra_mb);
    }
    return 0;
}
