/*
 * bench_workloads.c - the emulator on real-kernel-shaped workloads (issue 13, part 5): the
 * TTIR of bench/workloads_py.py's kernels (bench/workloads/NAME.ttir, made by
 * bench/gen_workloads.sh), each run on the emulator with one thread and with all cores, in the
 * default (exact) mode, next to a plain C loop of the same computation on one thread, which is
 * also the check of the emulator's outputs.
 *
 *   build/bench_workloads [--reps N] [--threads N] [--only KEY] [--json FILE] [--dir DIR]
 *
 * The sizes are those of bench/interp_workloads.py, which times the same kernels under
 * TRITON_INTERPRET=1 (scripts/gpu/emu_speed.sh puts the two side by side).  A workload of two
 * kernels (decode attention's two stages, the radix sort pass's histogram and scatter) is timed
 * as the sum of its kernels' runs; what the host does between them (the radix pass's 16-entry
 * exclusive scan) is not timed on either side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctriton/emu.h"
#include "ctriton/text.h"
#include "dot_floor.h"

#ifndef WORKLOADS_DIR
#define WORKLOADS_DIR "bench/workloads"
#endif

static const char *dir = WORKLOADS_DIR;
static int reps = 3;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng;
static uint32_t urand(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 32);
}
static float frand(void) /* [-1, 1) */
{
    return (float)((urand() >> 8) * 0x1p-24) * 2 - 1;
}

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "bench_workloads: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

static ct_emu_kernel *load(const char *file, int warps)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.ttir", dir, file);
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_file(path, &d);
    ct_emu_options o = {.num_warps = warps};
    ct_emu_kernel *k = m ? ct_emu_compile_ex(m, NULL, &o, &d) : NULL;
    ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    ct_module_destroy(m);
    if (!k) {
        fprintf(stderr, "bench_workloads: cannot compile %s\n", path);
        exit(1);
    }
    return k;
}

/* one run of a kernel; returns its seconds (exits on a fault: a benchmark that faults says
 * nothing about speed) */
static double run(ct_emu *e, const ct_emu_kernel *k, int gx, int gy, int gz, int threads,
                  int nargs, const ct_emu_arg *args)
{
    ct_emu_result res;
    ct_emu_launch l = {{gx, gy, gz}, threads, 0, NULL};
    if (ct_emu_run(e, k, &l, nargs, args, &res) != CT_EMU_OK) {
        fprintf(stderr, "bench_workloads: %s: %s\n", ct_emu_kernel_name(k), res.fault.message);
        exit(1);
    }
    return res.seconds;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define FNV0 0xcbf29ce484222325ull

static float h2f_tab[65536];
static float e4m3_tab[256];
static void tables(void)
{
    for (int i = 0; i < 65536; i++) {
        uint16_t h = (uint16_t)i;
        h2f_tab[i] = (float)ct_emu_get(CT_EMU_F16, &h, 0);
    }
    for (int i = 0; i < 256; i++) {
        uint8_t b = (uint8_t)i;
        e4m3_tab[i] = (float)ct_emu_get(CT_EMU_F8E4NV, &b, 0);
    }
}
static uint16_t f2h(float v)
{
    uint16_t h;
    ct_emu_set(CT_EMU_F16, &h, 0, v);
    return h;
}

/* ---- a workload: its state, one full execution on the emulator, the C loop ------------------ */

typedef struct wl wl;
struct wl {
    const char *key, *name;
    void (*setup)(wl *w);
    double (*emu)(wl *w, int threads); /* one execution; the emulator's seconds */
    void (*cloop)(wl *w);              /* the reference into the workload's ref buffers */
    const char *(*check)(wl *w, uint64_t *hash);
    void (*teardown)(wl *w);
    int64_t programs;
    dot_work dot; /* its dots (bench/dot_floor.h), set by setup; kind DOT_NONE without */
    /* results */
    double emu1, emuN, cl;
    int threads;
    const char *verdict;
    uint64_t hash;
    void *s; /* the workload's own state */
};

static const char *verdict(ct_emu_dtype t, const void *got, const void *want, int64_t n,
                           double rtol, double atol)
{
    ct_emu_check c;
    ct_emu_compare(t, got, n, want, n, rtol, atol, false, &c);
    if (c.verdict != CT_EMU_PASS)
        fprintf(stderr, "  %s\n", c.message);
    return ct_emu_verdict_name(c.verdict);
}

/* ---- cross entropy over a 32k vocabulary ---------------------------------------------------- */

enum { CE_R = 256, CE_V = 32768 };
typedef struct ce_s {
    float *x0, *x, *loss, *gref, *lref;
    int64_t *tgt;
    ct_emu *e;
    ct_emu_kernel *k;
    int bx, bt, bl;
} ce_s;

static void ce_setup(wl *w)
{
    ce_s *s = w->s = xmalloc(sizeof *s);
    size_t n = (size_t)CE_R * CE_V;
    s->x0 = xmalloc(4 * n);
    s->x = xmalloc(4 * n);
    s->gref = xmalloc(4 * n);
    s->loss = xmalloc(4 * CE_R);
    s->lref = xmalloc(4 * CE_R);
    s->tgt = xmalloc(8 * CE_R);
    for (size_t i = 0; i < n; i++)
        s->x0[i] = frand() * 8;
    for (int r = 0; r < CE_R; r++)
        s->tgt[r] = urand() % CE_V;
    s->k = load("cross_entropy", 8);
    s->e = ct_emu_new();
    s->bx = ct_emu_add_buffer(s->e, "logits", s->x, 4 * n, CT_EMU_F32, CT_EMU_INOUT);
    s->bt = ct_emu_add_buffer(s->e, "target", s->tgt, 8 * CE_R, CT_EMU_I64, CT_EMU_IN);
    s->bl = ct_emu_add_buffer(s->e, "loss", s->loss, 4 * CE_R, CT_EMU_F32, CT_EMU_OUT);
    w->programs = CE_R;
}

static double ce_emu(wl *w, int threads)
{
    ce_s *s = w->s;
    memcpy(s->x, s->x0, 4 * (size_t)CE_R * CE_V); /* the gradient overwrites the logits */
    ct_emu_arg a[] = {ct_emu_ptr(s->bx), ct_emu_int(CE_V), ct_emu_ptr(s->bt), ct_emu_ptr(s->bl),
                      ct_emu_float(1.0 / CE_R)};
    return run(s->e, s->k, CE_R, 1, 1, threads, 5, a);
}

static void ce_cloop(wl *w)
{
    ce_s *s = w->s;
    for (int r = 0; r < CE_R; r++) {
        const float *x = s->x0 + (size_t)r * CE_V;
        float *g = s->gref + (size_t)r * CE_V;
        float m = -INFINITY, d = 0;
        for (int j = 0; j < CE_V; j++)
            m = fmaxf(m, x[j]);
        for (int j = 0; j < CE_V; j++)
            d += g[j] = expf(x[j] - m);
        float inv = 1.0f / d, sc = 1.0f / CE_R;
        for (int j = 0; j < CE_V; j++)
            g[j] = g[j] * inv * sc;
        g[s->tgt[r]] -= sc;
        s->lref[r] = (m + logf(d) - x[s->tgt[r]]) * sc;
    }
}

static const char *ce_check(wl *w, uint64_t *hash)
{
    ce_s *s = w->s;
    size_t n = (size_t)CE_R * CE_V;
    *hash = fnv(fnv(FNV0, s->x, 4 * n), s->loss, 4 * CE_R);
    const char *v = verdict(CT_EMU_F32, s->x, s->gref, (int64_t)n, 1e-4, 1e-12);
    return strcmp(v, "PASS") ? v : verdict(CT_EMU_F32, s->loss, s->lref, CE_R, 1e-4, 1e-7);
}

static void ce_teardown(wl *w)
{
    ce_s *s = w->s;
    ct_emu_free(s->e);
    ct_emu_kernel_free(s->k);
    free(s->x0);
    free(s->x);
    free(s->gref);
    free(s->loss);
    free(s->lref);
    free(s->tgt);
    free(s);
}

/* ---- fused attention forward ------------------------------------------------------------- */

enum { AT_ZH = 32, AT_N = 1024, AT_D = 64, AT_BM = 128 };
typedef struct at_s {
    uint16_t *q, *k, *v, *o, *oref;
    ct_emu *e;
    ct_emu_kernel *kern;
    int bq, bk, bv, bo;
} at_s;

static void at_setup(wl *w)
{
    at_s *s = w->s = xmalloc(sizeof *s);
    size_t n = (size_t)AT_ZH * AT_N * AT_D;
    s->q = xmalloc(2 * n);
    s->k = xmalloc(2 * n);
    s->v = xmalloc(2 * n);
    s->o = xmalloc(2 * n);
    s->oref = xmalloc(2 * n);
    for (size_t i = 0; i < n; i++) {
        s->q[i] = f2h(frand());
        s->k[i] = f2h(frand());
        s->v[i] = f2h(frand());
    }
    s->kern = load("attn_fwd", 8);
    s->e = ct_emu_new();
    s->bq = ct_emu_add_buffer(s->e, "Q", s->q, 2 * n, CT_EMU_F16, CT_EMU_IN);
    s->bk = ct_emu_add_buffer(s->e, "K", s->k, 2 * n, CT_EMU_F16, CT_EMU_IN);
    s->bv = ct_emu_add_buffer(s->e, "V", s->v, 2 * n, CT_EMU_F16, CT_EMU_IN);
    s->bo = ct_emu_add_buffer(s->e, "Out", s->o, 2 * n, CT_EMU_F16, CT_EMU_OUT);
    w->programs = (AT_N / AT_BM) * AT_ZH;
    /* q k^T and p v: 128 x 64 x 64 tiles (BLOCK_N = HEAD_DIM = 64) over the whole context */
    w->dot = (dot_work){DOT_F16, AT_BM, 64, AT_D, 2.0 * AT_ZH * AT_N * AT_N * AT_D};
}

static double at_emu(wl *w, int threads)
{
    at_s *s = w->s;
    ct_emu_arg a[] = {ct_emu_ptr(s->bq), ct_emu_ptr(s->bk), ct_emu_ptr(s->bv), ct_emu_ptr(s->bo),
                      ct_emu_float(0.125)};
    return run(s->e, s->kern, AT_N / AT_BM, AT_ZH, 1, threads, 5, a);
}

static void at_cloop(wl *w)
{
    at_s *s = w->s;
    float *kf = xmalloc(4 * AT_N * AT_D), *vf = xmalloc(4 * AT_N * AT_D), *p = xmalloc(4 * AT_N);
    for (int hz = 0; hz < AT_ZH; hz++) {
        size_t base = (size_t)hz * AT_N * AT_D;
        for (int i = 0; i < AT_N * AT_D; i++) {
            kf[i] = h2f_tab[s->k[base + i]];
            vf[i] = h2f_tab[s->v[base + i]];
        }
        for (int m = 0; m < AT_N; m++) {
            float q[AT_D], acc[AT_D] = {0}, mx = -INFINITY, l = 0;
            for (int d = 0; d < AT_D; d++)
                q[d] = h2f_tab[s->q[base + (size_t)m * AT_D + d]];
            for (int n = 0; n < AT_N; n++) {
                float t = 0;
                for (int d = 0; d < AT_D; d++)
                    t += q[d] * kf[n * AT_D + d];
                p[n] = t * 0.125f;
                mx = fmaxf(mx, p[n]);
            }
            for (int n = 0; n < AT_N; n++) {
                p[n] = expf(p[n] - mx);
                l += p[n];
                for (int d = 0; d < AT_D; d++)
                    acc[d] += p[n] * vf[n * AT_D + d];
            }
            for (int d = 0; d < AT_D; d++)
                s->oref[base + (size_t)m * AT_D + d] = f2h(acc[d] / l);
        }
    }
    free(kf);
    free(vf);
    free(p);
}

static const char *at_check(wl *w, uint64_t *hash)
{
    at_s *s = w->s;
    size_t n = (size_t)AT_ZH * AT_N * AT_D;
    *hash = fnv(FNV0, s->o, 2 * n);
    return verdict(CT_EMU_F16, s->o, s->oref, (int64_t)n, 2e-2, 2e-3);
}

static void at_teardown(wl *w)
{
    at_s *s = w->s;
    ct_emu_free(s->e);
    ct_emu_kernel_free(s->kern);
    free(s->q);
    free(s->k);
    free(s->v);
    free(s->o);
    free(s->oref);
    free(s);
}

/* ---- MoE GEMM, fp8 e4m3 with block scales ------------------------------------------------- */

enum { MO_T = 256, MO_TOPK = 2, MO_E = 8, MO_N = 1024, MO_K = 1024, MO_EM = 1024, MO_BM = 64,
       MO_BN = 128, MO_G = 128 };
typedef struct mo_s {
    uint8_t *a, *b;
    float *as, *bs, *tw, *cref;
    int32_t *sorted, *eids, ntpp;
    int32_t *topk_ids;
    uint16_t *c;
    ct_emu *e;
    ct_emu_kernel *k;
    int ba, bb, bc, bas, bbs, btw, bsorted, beids, bntpp;
} mo_s;

/* the routing: token t's j-th expert; distinct for j = 0, 1 */
static int mo_expert(int t, int j)
{
    return (t * 5 + j * 3 + (t >> 3)) % MO_E;
}

static void mo_setup(wl *w)
{
    mo_s *s = w->s = xmalloc(sizeof *s);
    s->a = xmalloc((size_t)MO_T * MO_K);
    s->b = xmalloc((size_t)MO_E * MO_N * MO_K);
    s->as = xmalloc(4 * MO_T * (MO_K / MO_G));
    s->bs = xmalloc(4 * MO_E * (MO_N / MO_G) * (MO_K / MO_G));
    s->tw = xmalloc(4 * MO_T * MO_TOPK);
    s->c = xmalloc(2 * (size_t)MO_T * MO_TOPK * MO_N);
    s->cref = xmalloc(4 * (size_t)MO_T * MO_TOPK * MO_N);
    s->sorted = xmalloc(4 * MO_EM);
    s->eids = xmalloc(4 * (MO_EM / MO_BM));
    for (size_t i = 0; i < (size_t)MO_T * MO_K; i++)
        ct_emu_set(CT_EMU_F8E4NV, s->a, (int64_t)i, frand() * 8);
    for (size_t i = 0; i < (size_t)MO_E * MO_N * MO_K; i++)
        ct_emu_set(CT_EMU_F8E4NV, s->b, (int64_t)i, frand() * 8);
    for (int i = 0; i < MO_T * (MO_K / MO_G); i++)
        s->as[i] = 0.01f + 0.01f * (frand() + 1);
    for (int i = 0; i < MO_E * (MO_N / MO_G) * (MO_K / MO_G); i++)
        s->bs[i] = 0.01f + 0.01f * (frand() + 1);
    for (int i = 0; i < MO_T * MO_TOPK; i++)
        s->tw[i] = 0.5f * (frand() + 1);
    /* moe_align_block_size: each expert's (token, slot) pairs in order, padded to BLOCK_M */
    int n = 0;
    for (int i = 0; i < MO_EM; i++)
        s->sorted[i] = MO_T * MO_TOPK;
    for (int e = 0; e < MO_E; e++) {
        int start = n;
        for (int t = 0; t < MO_T; t++)
            for (int j = 0; j < MO_TOPK; j++)
                if (mo_expert(t, j) == e)
                    s->sorted[n++] = t * MO_TOPK + j;
        n = start + (n - start + MO_BM - 1) / MO_BM * MO_BM;
        for (int blk = start / MO_BM; blk < n / MO_BM; blk++)
            s->eids[blk] = e;
    }
    if (n > MO_EM) {
        fprintf(stderr, "bench_workloads: moe: %d padded tokens > EM\n", n);
        exit(1);
    }
    s->ntpp = n;
    s->k = load("moe_fp8", 8);
    s->e = ct_emu_new();
    s->ba = ct_emu_add_buffer(s->e, "a", s->a, (size_t)MO_T * MO_K, CT_EMU_F8E4NV, CT_EMU_IN);
    s->bb = ct_emu_add_buffer(s->e, "b", s->b, (size_t)MO_E * MO_N * MO_K, CT_EMU_F8E4NV,
                              CT_EMU_IN);
    s->bc = ct_emu_add_buffer(s->e, "c", s->c, 2 * (size_t)MO_T * MO_TOPK * MO_N, CT_EMU_F16,
                              CT_EMU_OUT);
    s->bas = ct_emu_add_buffer(s->e, "a_scale", s->as, 4 * MO_T * (MO_K / MO_G), CT_EMU_F32,
                               CT_EMU_IN);
    s->bbs = ct_emu_add_buffer(s->e, "b_scale", s->bs, 4 * MO_E * (MO_N / MO_G) * (MO_K / MO_G),
                               CT_EMU_F32, CT_EMU_IN);
    s->btw = ct_emu_add_buffer(s->e, "topk_weights", s->tw, 4 * MO_T * MO_TOPK, CT_EMU_F32,
                               CT_EMU_IN);
    s->bsorted = ct_emu_add_buffer(s->e, "sorted", s->sorted, 4 * MO_EM, CT_EMU_I32, CT_EMU_IN);
    s->beids = ct_emu_add_buffer(s->e, "expert_ids", s->eids, 4 * (MO_EM / MO_BM), CT_EMU_I32,
                                 CT_EMU_IN);
    s->bntpp = ct_emu_add_buffer(s->e, "ntpp", &s->ntpp, 4, CT_EMU_I32, CT_EMU_IN);
    w->programs = (MO_EM / MO_BM) * (MO_N / MO_BN);
    /* the programs past the padded token count return at once; BLOCK_K = the scales' group */
    w->dot = (dot_work){DOT_FP8, MO_BM, MO_BN, MO_G, (double)s->ntpp * MO_N * MO_K};
}

static double mo_emu(wl *w, int threads)
{
    mo_s *s = w->s;
    ct_emu_arg a[] = {ct_emu_ptr(s->ba),  ct_emu_ptr(s->bb),      ct_emu_ptr(s->bc),
                      ct_emu_ptr(s->bas), ct_emu_ptr(s->bbs),     ct_emu_ptr(s->btw),
                      ct_emu_ptr(s->bsorted), ct_emu_ptr(s->beids), ct_emu_ptr(s->bntpp),
                      ct_emu_int(MO_T * MO_TOPK)};
    return run(s->e, s->k, (MO_EM / MO_BM) * (MO_N / MO_BN), 1, 1, threads, 10, a);
}

static void mo_cloop(wl *w)
{
    mo_s *s = w->s;
    float *af = xmalloc(4 * MO_K), *bf = xmalloc(4 * MO_K);
    for (int t = 0; t < MO_T; t++) {
        for (int kk = 0; kk < MO_K; kk++)
            af[kk] = e4m3_tab[s->a[(size_t)t * MO_K + kk]];
        for (int j = 0; j < MO_TOPK; j++) {
            int e = mo_expert(t, j);
            for (int nn = 0; nn < MO_N; nn++) {
                const uint8_t *br = s->b + ((size_t)e * MO_N + nn) * MO_K;
                float acc = 0;
                for (int kb = 0; kb < MO_K / MO_G; kb++) {
                    float part = 0;
                    for (int kk = 0; kk < MO_G; kk++)
                        part += af[kb * MO_G + kk] * e4m3_tab[br[kb * MO_G + kk]];
                    acc += part * s->as[t * (MO_K / MO_G) + kb] *
                           s->bs[(e * (MO_N / MO_G) + nn / MO_G) * (MO_K / MO_G) + kb];
                }
                s->cref[((size_t)t * MO_TOPK + j) * MO_N + nn] = acc * s->tw[t * MO_TOPK + j];
            }
        }
    }
    (void)bf;
    free(af);
    free(bf);
}

static const char *mo_check(wl *w, uint64_t *hash)
{
    mo_s *s = w->s;
    size_t n = (size_t)MO_T * MO_TOPK * MO_N;
    *hash = fnv(FNV0, s->c, 2 * n);
    uint16_t *r = xmalloc(2 * n);
    for (size_t i = 0; i < n; i++)
        r[i] = f2h(s->cref[i]);
    const char *v = verdict(CT_EMU_F16, s->c, r, (int64_t)n, 1e-2, 1e-2);
    free(r);
    return v;
}

static void mo_teardown(wl *w)
{
    mo_s *s = w->s;
    ct_emu_free(s->e);
    ct_emu_kernel_free(s->k);
    free(s->a);
    free(s->b);
    free(s->as);
    free(s->bs);
    free(s->tw);
    free(s->c);
    free(s->cref);
    free(s->sorted);
    free(s->eids);
    free(s);
}

/* ---- decode attention with split-K ----------------------------------------------------------- */

enum { DE_B = 8, DE_H = 32, DE_G = 4, DE_HKV = DE_H / DE_G, DE_SEQ = 2048, DE_D = 128, DE_S = 8 };
typedef struct de_s {
    uint16_t *q, *k, *v, *o, *oref;
    float *mo, *ml;
    ct_emu *e;
    ct_emu_kernel *k1, *k2;
    int bq, bk, bv, bmo, bml, bo;
} de_s;

static void de_setup(wl *w)
{
    de_s *s = w->s = xmalloc(sizeof *s);
    size_t nq = (size_t)DE_B * DE_H * DE_D, nkv = (size_t)DE_B * DE_SEQ * DE_HKV * DE_D;
    s->q = xmalloc(2 * nq);
    s->o = xmalloc(2 * nq);
    s->oref = xmalloc(2 * nq);
    s->k = xmalloc(2 * nkv);
    s->v = xmalloc(2 * nkv);
    s->mo = xmalloc(4 * nq * DE_S);
    s->ml = xmalloc(4 * DE_B * DE_H * DE_S);
    for (size_t i = 0; i < nq; i++)
        s->q[i] = f2h(frand());
    for (size_t i = 0; i < nkv; i++) {
        s->k[i] = f2h(frand());
        s->v[i] = f2h(frand());
    }
    s->k1 = load("decode_stage1", 4);
    s->k2 = load("decode_stage2", 4);
    s->e = ct_emu_new();
    s->bq = ct_emu_add_buffer(s->e, "Q", s->q, 2 * nq, CT_EMU_F16, CT_EMU_IN);
    s->bk = ct_emu_add_buffer(s->e, "K_cache", s->k, 2 * nkv, CT_EMU_F16, CT_EMU_IN);
    s->bv = ct_emu_add_buffer(s->e, "V_cache", s->v, 2 * nkv, CT_EMU_F16, CT_EMU_IN);
    /* INOUT: stage 2 reads them, and an OUT buffer is poisoned at the start of every run */
    s->bmo = ct_emu_add_buffer(s->e, "Mid_O", s->mo, 4 * nq * DE_S, CT_EMU_F32, CT_EMU_INOUT);
    s->bml = ct_emu_add_buffer(s->e, "Mid_lse", s->ml, 4 * DE_B * DE_H * DE_S, CT_EMU_F32,
                               CT_EMU_INOUT);
    s->bo = ct_emu_add_buffer(s->e, "O", s->o, 2 * nq, CT_EMU_F16, CT_EMU_OUT);
    w->programs = DE_B * DE_H * DE_S + DE_B * DE_H;
}

static double de_emu(wl *w, int threads)
{
    de_s *s = w->s;
    ct_emu_arg a1[] = {ct_emu_ptr(s->bq),  ct_emu_ptr(s->bk),  ct_emu_ptr(s->bv),
                       ct_emu_float(1.0 / sqrt((double)DE_D)), ct_emu_ptr(s->bmo),
                       ct_emu_ptr(s->bml)};
    ct_emu_arg a2[] = {ct_emu_ptr(s->bmo), ct_emu_ptr(s->bml), ct_emu_ptr(s->bo)};
    double t = run(s->e, s->k1, DE_B, DE_H, DE_S, threads, 6, a1);
    return t + run(s->e, s->k2, DE_B, DE_H, 1, threads, 3, a2);
}

static void de_cloop(wl *w)
{
    de_s *s = w->s;
    float *p = xmalloc(4 * DE_SEQ);
    for (int b = 0; b < DE_B; b++)
        for (int h = 0; h < DE_H; h++) {
            float q[DE_D], acc[DE_D] = {0}, mx = -INFINITY, l = 0;
            for (int d = 0; d < DE_D; d++)
                q[d] = h2f_tab[s->q[(b * DE_H + h) * DE_D + d]];
            int kvh = h / DE_G;
            for (int n = 0; n < DE_SEQ; n++) {
                const uint16_t *kr = s->k + (((size_t)b * DE_SEQ + n) * DE_HKV + kvh) * DE_D;
                float t = 0;
                for (int d = 0; d < DE_D; d++)
                    t += q[d] * h2f_tab[kr[d]];
                p[n] = t / sqrtf((float)DE_D);
                mx = fmaxf(mx, p[n]);
            }
            for (int n = 0; n < DE_SEQ; n++) {
                const uint16_t *vr = s->v + (((size_t)b * DE_SEQ + n) * DE_HKV + kvh) * DE_D;
                float e = expf(p[n] - mx);
                l += e;
                for (int d = 0; d < DE_D; d++)
                    acc[d] += e * h2f_tab[vr[d]];
            }
            for (int d = 0; d < DE_D; d++)
                s->oref[(b * DE_H + h) * DE_D + d] = f2h(acc[d] / l);
        }
    free(p);
}

static const char *de_check(wl *w, uint64_t *hash)
{
    de_s *s = w->s;
    size_t n = (size_t)DE_B * DE_H * DE_D;
    *hash = fnv(FNV0, s->o, 2 * n);
    return verdict(CT_EMU_F16, s->o, s->oref, (int64_t)n, 2e-2, 2e-3);
}

static void de_teardown(wl *w)
{
    de_s *s = w->s;
    ct_emu_free(s->e);
    ct_emu_kernel_free(s->k1);
    ct_emu_kernel_free(s->k2);
    free(s->q);
    free(s->k);
    free(s->v);
    free(s->o);
    free(s->oref);
    free(s->mo);
    free(s->ml);
    free(s);
}

/* ---- chunked linear attention ------------------------------------------------------------------ */

enum { LA_BH = 16, LA_T = 2048, LA_DK = 64, LA_DV = 64, LA_BT = 64 };
typedef struct la_s {
    uint16_t *q, *k, *v, *o;
    float *oref;
    ct_emu *e;
    ct_emu_kernel *kern;
    int bq, bk, bv, bo;
} la_s;

static void la_setup(wl *w)
{
    la_s *s = w->s = xmalloc(sizeof *s);
    size_t nk = (size_t)LA_BH * LA_T * LA_DK, nv = (size_t)LA_BH * LA_T * LA_DV;
    s->q = xmalloc(2 * nk);
    s->k = xmalloc(2 * nk);
    s->v = xmalloc(2 * nv);
    s->o = xmalloc(2 * nv);
    s->oref = xmalloc(4 * nv);
    for (size_t i = 0; i < nk; i++) {
        s->q[i] = f2h(frand());
        s->k[i] = f2h(frand() * 0.25f);
    }
    for (size_t i = 0; i < nv; i++)
        s->v[i] = f2h(frand());
    s->kern = load("chunk_la", 4);
    s->e = ct_emu_new();
    s->bq = ct_emu_add_buffer(s->e, "Q", s->q, 2 * nk, CT_EMU_F16, CT_EMU_IN);
    s->bk = ct_emu_add_buffer(s->e, "K", s->k, 2 * nk, CT_EMU_F16, CT_EMU_IN);
    s->bv = ct_emu_add_buffer(s->e, "V", s->v, 2 * nv, CT_EMU_F16, CT_EMU_IN);
    s->bo = ct_emu_add_buffer(s->e, "O", s->o, 2 * nv, CT_EMU_F16, CT_EMU_OUT);
    w->programs = LA_BH;
    /* per chunk: q k^T, q h, s v, k^T v */
    w->dot = (dot_work){DOT_F16, LA_BT, LA_DV, LA_DK,
                        (double)LA_BH * (LA_T / LA_BT) *
                            ((double)LA_BT * LA_BT * LA_DK + (double)LA_BT * LA_DV * LA_DK +
                             (double)LA_BT * LA_DV * LA_BT + (double)LA_DK * LA_DV * LA_BT)};
}

static double la_emu(wl *w, int threads)
{
    la_s *s = w->s;
    ct_emu_arg a[] = {ct_emu_ptr(s->bq), ct_emu_ptr(s->bk), ct_emu_ptr(s->bv), ct_emu_ptr(s->bo),
                      ct_emu_float(0.125)};
    return run(s->e, s->kern, LA_BH, 1, 1, threads, 5, a);
}

/* the same recurrence in f32, chunk by chunk: o = (q k^T, causal) v + q h; h += k^T v */
static void la_cloop(wl *w)
{
    la_s *s = w->s;
    static float h[LA_DK][LA_DV], q[LA_BT][LA_DK], k[LA_BT][LA_DK], v[LA_BT][LA_DV];
    for (int bh = 0; bh < LA_BH; bh++) {
        memset(h, 0, sizeof h);
        for (int c = 0; c < LA_T / LA_BT; c++) {
            size_t rk = ((size_t)bh * LA_T + (size_t)c * LA_BT) * LA_DK;
            size_t rv = ((size_t)bh * LA_T + (size_t)c * LA_BT) * LA_DV;
            for (int t = 0; t < LA_BT; t++) {
                for (int d = 0; d < LA_DK; d++) {
                    q[t][d] = h2f_tab[s->q[rk + t * LA_DK + d]] * 0.125f;
                    k[t][d] = h2f_tab[s->k[rk + t * LA_DK + d]];
                }
                for (int d = 0; d < LA_DV; d++)
                    v[t][d] = h2f_tab[s->v[rv + t * LA_DV + d]];
            }
            for (int t = 0; t < LA_BT; t++) {
                float *o = s->oref + rv + (size_t)t * LA_DV;
                for (int d = 0; d < LA_DV; d++)
                    o[d] = 0;
                for (int j = 0; j < LA_DK; j++)
                    for (int d = 0; d < LA_DV; d++)
                        o[d] += q[t][j] * h[j][d];
                for (int u = 0; u <= t; u++) {
                    float sc = 0;
                    for (int j = 0; j < LA_DK; j++)
                        sc += q[t][j] * k[u][j];
                    for (int d = 0; d < LA_DV; d++)
                        o[d] += sc * v[u][d];
                }
            }
            for (int t = 0; t < LA_BT; t++)
                for (int j = 0; j < LA_DK; j++)
                    for (int d = 0; d < LA_DV; d++)
                        h[j][d] += k[t][j] * v[t][d];
        }
    }
}

static const char *la_check(wl *w, uint64_t *hash)
{
    la_s *s = w->s;
    size_t n = (size_t)LA_BH * LA_T * LA_DV;
    *hash = fnv(FNV0, s->o, 2 * n);
    uint16_t *r = xmalloc(2 * n);
    for (size_t i = 0; i < n; i++)
        r[i] = f2h(s->oref[i]);
    /* the kernel rounds q, the scores and the state to fp16 for its dots: loose tolerance */
    const char *v = verdict(CT_EMU_F16, s->o, r, (int64_t)n, 3e-2, 3e-1);
    free(r);
    return v;
}

static void la_teardown(wl *w)
{
    la_s *s = w->s;
    ct_emu_free(s->e);
    ct_emu_kernel_free(s->kern);
    free(s->q);
    free(s->k);
    free(s->v);
    free(s->o);
    free(s->oref);
    free(s);
}

/* ---- the tutorial matmul ------------------------------------------------------------------- */

enum { MM_M = 1024, MM_N = 1024, MM_K = 1024, MM_BM = 128, MM_BN = 256 };
typedef struct mm_s {
    uint16_t *a, *b, *c;
    float *cref;
    ct_emu *e;
    ct_emu_kernel *k;
    int ba, bb, bc;
} mm_s;

static void mm_setup(wl *w)
{
    mm_s *s = w->s = xmalloc(sizeof *s);
    s->a = xmalloc(2 * MM_M * MM_K);
    s->b = xmalloc(2 * MM_K * MM_N);
    s->c = xmalloc(2 * MM_M * MM_N);
    s->cref = xmalloc(4 * MM_M * MM_N);
    for (int i = 0; i < MM_M * MM_K; i++)
        s->a[i] = f2h(frand());
    for (int i = 0; i < MM_K * MM_N; i++)
        s->b[i] = f2h(frand());
    s->k = load("matmul", 8);
    s->e = ct_emu_new();
    s->ba = ct_emu_add_buffer(s->e, "a", s->a, 2 * MM_M * MM_K, CT_EMU_F16, CT_EMU_IN);
    s->bb = ct_emu_add_buffer(s->e, "b", s->b, 2 * MM_K * MM_N, CT_EMU_F16, CT_EMU_IN);
    s->bc = ct_emu_add_buffer(s->e, "c", s->c, 2 * MM_M * MM_N, CT_EMU_F16, CT_EMU_OUT);
    w->programs = (MM_M / MM_BM) * (MM_N / MM_BN);
    w->dot = (dot_work){DOT_F16, MM_BM, MM_BN, 64, (double)MM_M * MM_N * MM_K};
}

static double mm_emu(wl *w, int threads)
{
    mm_s *s = w->s;
    ct_emu_arg a[] = {ct_emu_ptr(s->ba), ct_emu_ptr(s->bb), ct_emu_ptr(s->bc), ct_emu_int(MM_M),
                      ct_emu_int(MM_N),  ct_emu_int(MM_K),  ct_emu_int(MM_N),  ct_emu_int(MM_N)};
    return run(s->e, s->k, (int)w->programs, 1, 1, threads, 8, a);
}

static void mm_cloop(wl *w)
{
    mm_s *s = w->s;
    float *bf = xmalloc(4 * MM_K * MM_N);
    for (int i = 0; i < MM_K * MM_N; i++)
        bf[i] = h2f_tab[s->b[i]];
    for (int i = 0; i < MM_M; i++) {
        float *row = s->cref + (size_t)i * MM_N;
        memset(row, 0, 4 * MM_N);
        for (int kk = 0; kk < MM_K; kk++) {
            float av = h2f_tab[s->a[(size_t)i * MM_K + kk]];
            const float *br = bf + (size_t)kk * MM_N;
            for (int j = 0; j < MM_N; j++)
                row[j] += av * br[j];
        }
    }
    free(bf);
}

static const char *mm_check(wl *w, uint64_t *hash)
{
    mm_s *s = w->s;
    size_t n = (size_t)MM_M * MM_N;
    *hash = fnv(FNV0, s->c, 2 * n);
    uint16_t *r = xmalloc(2 * n);
    for (size_t i = 0; i < n; i++)
        r[i] = f2h(s->cref[i]);
    const char *v = verdict(CT_EMU_F16, s->c, r, (int64_t)n, 1e-2, 1e-2);
    free(r);
    return v;
}

static void mm_teardown(wl *w)
{
    mm_s *s = w->s;
    ct_emu_free(s->e);
    ct_emu_kernel_free(s->k);
    free(s->a);
    free(s->b);
    free(s->c);
    free(s->cref);
    free(s);
}

/* ---- one pass of a radix sort: histogram, then scatter with decoupled look-back ------------------ */

enum { RS_N = 1 << 20, RS_BLOCK = 1024, RS_RADIX = 16, RS_P = RS_N / RS_BLOCK };
typedef struct rs_s {
    int32_t *keys, *out, *ref, hist[RS_RADIX], offs[RS_RADIX], *status;
    ct_emu *e;
    ct_emu_kernel *kh, *ks;
    int bkeys, bout, bhist, boffs, bstatus;
} rs_s;

static void rs_setup(wl *w)
{
    rs_s *s = w->s = xmalloc(sizeof *s);
    s->keys = xmalloc(4 * RS_N);
    s->out = xmalloc(4 * RS_N);
    s->ref = xmalloc(4 * RS_N);
    s->status = xmalloc(4 * RS_P * RS_RADIX);
    for (int i = 0; i < RS_N; i++)
        s->keys[i] = (int32_t)(urand() >> 1);
    s->kh = load("radix_hist", 4);
    s->ks = load("radix_scatter", 4);
    s->e = ct_emu_new();
    s->bkeys = ct_emu_add_buffer(s->e, "keys_in", s->keys, 4 * RS_N, CT_EMU_I32, CT_EMU_IN);
    s->bout = ct_emu_add_buffer(s->e, "keys_out", s->out, 4 * RS_N, CT_EMU_I32, CT_EMU_OUT);
    s->bhist = ct_emu_add_buffer(s->e, "hist", s->hist, sizeof s->hist, CT_EMU_I32,
                                 CT_EMU_INOUT);
    s->boffs = ct_emu_add_buffer(s->e, "digit_offsets", s->offs, sizeof s->offs, CT_EMU_I32,
                                 CT_EMU_IN);
    s->bstatus = ct_emu_add_buffer(s->e, "status", s->status, 4 * RS_P * RS_RADIX, CT_EMU_I32,
                                   CT_EMU_INOUT);
    w->programs = 2 * RS_P;
}

static double rs_emu(wl *w, int threads)
{
    rs_s *s = w->s;
    memset(s->hist, 0, sizeof s->hist);
    memset(s->status, 0, 4 * RS_P * RS_RADIX);
    ct_emu_arg ah[] = {ct_emu_ptr(s->bkeys), ct_emu_ptr(s->bhist), ct_emu_int(0)};
    double t = run(s->e, s->kh, RS_P, 1, 1, threads, 3, ah);
    for (int d = 0, acc = 0; d < RS_RADIX; d++) {
        s->offs[d] = acc;
        acc += s->hist[d];
    }
    ct_emu_arg as[] = {ct_emu_ptr(s->bkeys), ct_emu_ptr(s->bout), ct_emu_ptr(s->boffs),
                       ct_emu_ptr(s->bstatus), ct_emu_int(0)};
    return t + run(s->e, s->ks, RS_P, 1, 1, threads, 5, as);
}

static void rs_cloop(wl *w)
{
    rs_s *s = w->s;
    int cnt[RS_RADIX] = {0}, pos[RS_RADIX];
    for (int i = 0; i < RS_N; i++)
        cnt[s->keys[i] & (RS_RADIX - 1)]++;
    for (int d = 0, acc = 0; d < RS_RADIX; d++) {
        pos[d] = acc;
        acc += cnt[d];
    }
    for (int i = 0; i < RS_N; i++)
        s->ref[pos[s->keys[i] & (RS_RADIX - 1)]++] = s->keys[i];
}

static const char *rs_check(wl *w, uint64_t *hash)
{
    rs_s *s = w->s;
    *hash = fnv(FNV0, s->out, 4 * RS_N);
    return verdict(CT_EMU_I32, s->out, s->ref, RS_N, 0, 0);
}

static void rs_teardown(wl *w)
{
    rs_s *s = w->s;
    ct_emu_free(s->e);
    ct_emu_kernel_free(s->kh);
    ct_emu_kernel_free(s->ks);
    free(s->keys);
    free(s->out);
    free(s->ref);
    free(s->status);
    free(s);
}

/* ---- driver --------------------------------------------------------------------------------- */

#define WL(key, name, p) {key, name, p##_setup, p##_emu, p##_cloop, p##_check, p##_teardown}
static wl wls[] = {
    WL("cross_entropy", "cross entropy 256x32768 fp32 (loss + grad)", ce),
    WL("attn_fwd", "fused attention fwd 32x1024x64 fp16", at),
    WL("moe_fp8", "MoE GEMM fp8 block scales 256 tok x top2 of 8, 1024x1024", mo),
    WL("decode_attn", "decode attention split-K 8x32 heads (GQA 4), 2048 ctx", de),
    WL("chunk_la", "chunked linear attention 16 heads x 2048, d 64", la),
    WL("matmul", "tutorial matmul 1024^3 fp16 (128x256x64, 8 warps)", mm),
    WL("radix_sort", "radix sort pass 2^20 i32 keys, 4-bit digit, look-back", rs),
};
#define NWL ((int)(sizeof wls / sizeof wls[0]))

static double best_emu(wl *w, int threads)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t = w->emu(w, threads);
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    int threads = 0;
    const char *only = NULL, *json = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: bench_workloads [--reps N] [--threads N] [--only KEY[,KEY]] "
                            "[--json FILE] [--dir DIR]\n");
            return 2;
        }
    }
    if (threads <= 0)
        threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (reps < 1)
        reps = 1;
    tables();
    FILE *jf = json ? fopen(json, "w") : NULL;
    if (json && !jf) {
        fprintf(stderr, "bench_workloads: cannot write %s\n", json);
        return 1;
    }
    if (jf)
        fprintf(jf, "[\n");
    printf("| workload | programs | emulator, 1 thread | emulator, %d threads | plain C loop, 1 "
           "thread | emu(1) / C | exact dots alone, 1 / %d threads | check |\n"
           "|---|---|---|---|---|---|---|---|\n",
           threads, threads);
    int n = 0;
    for (int i = 0; i < NWL; i++) {
        wl *w = &wls[i];
        if (only && !strstr(only, w->key))
            continue;
        rng = 42;
        w->setup(w);
        w->emu1 = best_emu(w, 1);
        w->emuN = best_emu(w, threads);
        double t0 = now();
        w->cloop(w);
        w->cl = now() - t0;
        w->verdict = w->check(w, &w->hash);
        double d1, dn;
        dot_floor(&w->dot, threads, &d1, &dn);
        char floor_ms[64] = "-";
        if (d1 > 0)
            snprintf(floor_ms, sizeof floor_ms, "%.1f / %.2f ms", 1e3 * d1, 1e3 * dn);
        printf("| %s | %lld | %.1f ms | %.2f ms | %.1f ms | %.2fx | %s | %s |\n", w->name,
               (long long)w->programs, 1e3 * w->emu1, 1e3 * w->emuN, 1e3 * w->cl,
               w->emu1 / w->cl, floor_ms, w->verdict);
        fflush(stdout);
        if (jf) {
            fprintf(jf,
                    "%s  {\"key\": \"%s\", \"name\": \"%s\", \"programs\": %lld, \"emu1_s\": %.6g, "
                    "\"emuN_s\": %.6g, \"threads\": %d, \"cloop_s\": %.6g, \"check\": \"%s\", "
                    "\"outputs_fnv\": \"%016llx\"",
                    n++ ? ",\n" : "", w->key, w->name, (long long)w->programs, w->emu1, w->emuN,
                    threads, w->cl, w->verdict, (unsigned long long)w->hash);
            dot_floor_json(jf, &w->dot, threads);
            fprintf(jf, "}");
        }
        w->teardown(w);
    }
    if (jf) {
        fprintf(jf, "\n]\n");
        fclose(jf);
    }
    return 0;
}
