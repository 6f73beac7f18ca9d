/*
 * dot_gemm.c - the fast paths of tt.dot: register-blocked micro-kernels that compute, bit for
 * bit, what the reference loops of dot.c compute.
 *
 * Three computations are served (dot.c says which dot uses which):
 *
 *  - the MMA-group model (bf16, tf32 and the F32DotTC decompositions, f32 accumulator):
 *    for every output and every group of G consecutive k (G = one MMA instruction's K),
 *        t   = ((0 + p[k0]) + p[k0+1]) + ... + p[k1-1]       in double, k in order,
 *        acc = (float)((double)acc + t)
 *    where p[k] = a[m][k] * b[k][n].  The operands have at most 24 significant bits (11 for
 *    f16 and tf32, 8 for bf16 and fp8) and f32's exponent range, so every product is exact in
 *    double, and t + a*b rounds once whether it is computed as a multiply and an add (the
 *    reference) or as one fused multiply-add (here): the results are identical, NaN payloads
 *    aside (which NaN operand x86 propagates depends on the instruction's operand order,
 *    already compiler-dependent in the reference).  t never becomes -0 (it starts at +0 and
 *    round-to-nearest gives +0 for an exact cancellation), so the zero padding of cut tiles
 *    changes nothing that is kept;
 *
 *  - the FMA dot (input_precision "ieee" on f32): acc = fmaf(a[m][k], b[k][n], acc) for k in
 *    order, the same correctly rounded operation in a vector register;
 *
 *  - Hopper's f16 x f16 -> f32 accumulation (the section at the end of this file).
 *
 * Design (the usual GEMM structure, written for this model):
 *  - operands: A and B are decoded once into row-major doubles (the FMA dot's f32 operands
 *    are used as they are) and read in place: the micro-kernel broadcasts A's values from its
 *    MR rows (lda = K) and loads B's rows (ldb = N), so nothing is packed.  A tile cut by M or
 *    N runs on zero-padded copies of its rows of A, columns of B and accumulators;
 *  - micro-kernel: one MR x NR tile of outputs.  For each group it zeroes MR x NR/VL vector
 *    accumulators, and for each k of the group loads NR/VL vectors of B and broadcasts each of
 *    the MR values of A into one FMA per B vector; then it folds the group into the f32
 *    accumulator tile in memory (load, widen, add, round to f32, store).  The k order of every
 *    output is the reference's; blocking over M and N only changes which outputs are computed
 *    side by side.  AVX-512: MR = 8, NR = 16 (16 accumulators of 8 doubles, 2 B vectors, one
 *    broadcast register), about 39 G multiply-adds a second on one core of the development
 *    machine against a 55 G peak: the fold (an add and two conversions on the FMA ports per 16
 *    FMAs) bounds it at about 76% of the peak.  AVX2: MR = 4, NR = 8.  Portable C: MR = NR = 4;
 *  - the loops: column panels outside, row panels inside, so one panel of B (K x NR doubles)
 *    stays in L1 while A (M x K doubles, 32 KiB for a 128 x 32 tile) streams from L1/L2; the
 *    accumulator tile is read and written once per group.
 *
 * The instruction set is picked once at run time (__builtin_cpu_supports); emu_gemm_force_isa
 * lets the tests run every level this machine has against the reference.
 */
#include "emu_internal.h"

#include <math.h>

#if defined(__x86_64__) || defined(__i386__)
#define GEMM_X86 1
#include <immintrin.h>
#endif

enum { ISA_C, ISA_AVX2, ISA_AVX512 };

static _Atomic int isa_cached = -1;
static _Atomic int isa_forced = -1;

static int detect_isa(void)
{
#ifdef GEMM_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return ISA_AVX2;
#endif
    return ISA_C;
}

static int gemm_isa(void)
{
    int f = atomic_load_explicit(&isa_forced, memory_order_relaxed);
    if (f >= 0)
        return f;
    int i = atomic_load_explicit(&isa_cached, memory_order_relaxed);
    if (i < 0) {
        i = detect_isa();
        atomic_store_explicit(&isa_cached, i, memory_order_relaxed);
    }
    return i;
}

int emu_gemm_isa_levels(void)
{
    return detect_isa() + 1;
}

int emu_gemm_force_isa(int level)
{
    int old = atomic_load(&isa_forced);
    if (level > detect_isa())
        level = detect_isa();
    atomic_store(&isa_forced, level);
    return old;
}

/* tile shapes per instruction set: {MR, NR} for the MMA-group kernel and the FMA kernel */
static const struct {
    int mr, nr, fmr, fnr;
} shapes[] = {
    [ISA_C] = {4, 4, 4, 4},
    [ISA_AVX2] = {4, 8, 4, 16},
    [ISA_AVX512] = {8, 16, 8, 32},
};
enum { MAX_MR = 8, MAX_NR = 32 };

static size_t h_layout(int64_t M, int64_t N, int64_t K, void *base, float **fa, int32_t **ea,
                       float **fb, int8_t **eb, uint8_t **rbad, uint8_t **cbad, float **pa,
                       int32_t **pea, float **pb, int8_t **peb, float **tmp, void **w);

size_t emu_gemm_scratch_bytes(int64_t M, int64_t N, int64_t K)
{
    /* A and B decoded to doubles, a cut panel of each, a cut accumulator tile; or the
     * Hopper f16 kernels' pieces */
    size_t d = sizeof(double) * (size_t)((M + N + MAX_MR + MAX_NR) * K + MAX_MR * MAX_NR) + 256;
    size_t h = h_layout(M, N, K, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                        NULL, NULL);
    return d > h ? d : h;
}

/* ---- decoding ---------------------------------------------------------------------------------- */

/* n elements of an operand to doubles, as the reference's decode() does (tf32: cut f32
 * mantissas to 10 bits); the loops vectorize */
EMU_CLONES static void decode_f16(const uint16_t *p, int64_t n, double *out)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = emu_h2f_calc(p[i]);
}

#ifdef GEMM_X86
/* 16 f16 values to floats with vcvtph2ps (exact), NaNs patched to keep their payload as the
 * table does (the instruction sets their quiet bit) */
__attribute__((target("avx512f"))) static inline __m512 h16_to_ps(const uint16_t *p)
{
    __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m512 f = _mm512_cvtph_ps(h);
    __m512i w = _mm512_cvtepu16_epi32(h);
    __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(w, _mm512_set1_epi32(0x7fff)),
                                            _mm512_set1_epi32(0x7c00));
    if (nan) {
        __m512i u = _mm512_or_si512(
            _mm512_slli_epi32(_mm512_and_si512(w, _mm512_set1_epi32(0x8000)), 16),
            _mm512_or_si512(_mm512_set1_epi32(0x7f800000),
                            _mm512_slli_epi32(_mm512_and_si512(w, _mm512_set1_epi32(0x3ff)), 13)));
        f = _mm512_mask_mov_ps(f, nan, _mm512_castsi512_ps(u));
    }
    return f;
}

/* decode_f16 with vcvtph2ps */
__attribute__((target("avx512f"))) static void decode_f16_avx512(const uint16_t *p, int64_t n,
                                                                 double *out)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 f = h16_to_ps(p + i);
        __m256 lo = _mm512_castps512_ps256(f);
        __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f), 1));
        _mm512_storeu_pd(out + i, _mm512_cvtps_pd(lo));
        _mm512_storeu_pd(out + i + 8, _mm512_cvtps_pd(hi));
    }
    for (; i < n; i++)
        out[i] = emu_h2f_calc(p[i]);
}

/* the same into floats */
__attribute__((target("avx512f"))) static void decode_f16_ps_avx512(const uint16_t *p, int64_t n,
                                                                    float *out)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(out + i, h16_to_ps(p + i));
    for (; i < n; i++)
        out[i] = emu_h2f_calc(p[i]);
}
#endif

EMU_CLONES static void decode_bf16(const uint16_t *p, int64_t n, double *out)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = emu_bf2f(p[i]);
}

EMU_CLONES static void decode_f32(const float *p, int64_t n, double *out, bool tf32)
{
    if (!tf32) {
        for (int64_t i = 0; i < n; i++)
            out[i] = p[i];
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &p[i], 4);
        u = (u & 0x7f800000u) != 0x7f800000u ? u & 0xffffe000u : u;
        float f;
        memcpy(&f, &u, 4);
        out[i] = f;
    }
}

/* the operand as a row-major double matrix: decoded into buf, or the operand itself */
static const double *decoded(const emu_gemm_opnd *o, int64_t n, double *buf)
{
    switch (o->ek) {
    case EK_F64:
        return o->p;
    case EK_F16:
#ifdef GEMM_X86
        if (gemm_isa() == ISA_AVX512) {
            decode_f16_avx512(o->p, n, buf);
            break;
        }
#endif
        decode_f16(o->p, n, buf);
        break;
    case EK_BF16:
        decode_bf16(o->p, n, buf);
        break;
    case EK_F32:
        decode_f32(o->p, n, buf, o->tf32);
        break;
    default:
        for (int64_t i = 0; i < n; i++)
            buf[i] = emu_load_f64(o->ek, o->p, i);
    }
    return buf;
}

/* rows [p, p + rows) of A (lda) into an mr x K panel (row stride K), zero rows below */
#define CUT_A(T, A, lda, p, rows, mr, K, dst)                                                 \
    do {                                                                                       \
        for (int i_ = 0; i_ < (mr); i_++)                                                      \
            for (int64_t k_ = 0; k_ < (K); k_++)                                               \
                (dst)[i_ * (K) + k_] = i_ < (rows) ? (A)[((p) + i_) * (lda) + k_] : (T)0;      \
    } while (0)

/* columns [q, q + cols) of B (ldb) into a K x nr panel (row stride nr), zero columns right */
#define CUT_B(T, B, ldb, q, cols, nr, K, dst)                                                 \
    do {                                                                                       \
        for (int64_t k_ = 0; k_ < (K); k_++)                                                   \
            for (int j_ = 0; j_ < (nr); j_++)                                                  \
                (dst)[k_ * (nr) + j_] = j_ < (cols) ? (B)[k_ * (ldb) + (q) + j_] : (T)0;       \
    } while (0)

/* ---- micro-kernels: the MMA-group model ------------------------------------------------------------
 * c (MR x NR floats, row stride ldc) <- the groups of a (MR x K, row stride lda) times b (K x NR,
 * row stride ldb) */

typedef void (*ukr_fn)(int64_t K, int G, const double *a, int64_t lda, const double *b,
                       int64_t ldb, float *c, int64_t ldc);

static void ukr_c(int64_t K, int G, const double *a, int64_t lda, const double *b, int64_t ldb,
                  float *c, int64_t ldc)
{
    enum { R = 4, S = 4 };
    for (int64_t k0 = 0; k0 < K; k0 += G) {
        int64_t k1 = k0 + G < K ? k0 + G : K;
        double t[R][S] = {{0}};
        for (int64_t k = k0; k < k1; k++)
            for (int i = 0; i < R; i++)
                for (int j = 0; j < S; j++)
                    t[i][j] += a[i * lda + k] * b[k * ldb + j]; /* exact product: one rounding */
        for (int i = 0; i < R; i++)
            for (int j = 0; j < S; j++)
                c[i * ldc + j] = (float)((double)c[i * ldc + j] + t[i][j]);
    }
}

#ifdef GEMM_X86
__attribute__((target("avx2,fma"))) static void ukr_avx2(int64_t K, int G, const double *a,
                                                         int64_t lda, const double *b, int64_t ldb,
                                                         float *c, int64_t ldc)
{
    enum { R = 4, V = 2 };
    for (int64_t k0 = 0; k0 < K; k0 += G) {
        int64_t k1 = k0 + G < K ? k0 + G : K;
        __m256d t[R][V];
#pragma GCC unroll 8
        for (int i = 0; i < R; i++)
#pragma GCC unroll 4
            for (int j = 0; j < V; j++)
                t[i][j] = _mm256_setzero_pd();
        for (int64_t k = k0; k < k1; k++) {
            __m256d bv[V];
#pragma GCC unroll 4
            for (int j = 0; j < V; j++)
                bv[j] = _mm256_loadu_pd(b + k * ldb + 4 * j);
#pragma GCC unroll 8
            for (int i = 0; i < R; i++) {
                __m256d av = _mm256_broadcast_sd(a + i * lda + k);
#pragma GCC unroll 4
                for (int j = 0; j < V; j++)
                    t[i][j] = _mm256_fmadd_pd(av, bv[j], t[i][j]);
            }
        }
#pragma GCC unroll 8
        for (int i = 0; i < R; i++)
#pragma GCC unroll 4
            for (int j = 0; j < V; j++) {
                float *p = c + i * ldc + 4 * j;
                __m256d s = _mm256_add_pd(_mm256_cvtps_pd(_mm_loadu_ps(p)), t[i][j]);
                _mm_storeu_ps(p, _mm256_cvtpd_ps(s));
            }
    }
}

__attribute__((target("avx512f"))) static void ukr_avx512(int64_t K, int G, const double *a,
                                                          int64_t lda, const double *b,
                                                          int64_t ldb, float *c, int64_t ldc)
{
    enum { R = 8, V = 2 };
    for (int64_t k0 = 0; k0 < K; k0 += G) {
        int64_t k1 = k0 + G < K ? k0 + G : K;
        __m512d t[R][V];
#pragma GCC unroll 8
        for (int i = 0; i < R; i++)
#pragma GCC unroll 4
            for (int j = 0; j < V; j++)
                t[i][j] = _mm512_setzero_pd();
        for (int64_t k = k0; k < k1; k++) {
            __m512d bv[V];
#pragma GCC unroll 4
            for (int j = 0; j < V; j++)
                bv[j] = _mm512_loadu_pd(b + k * ldb + 8 * j);
#pragma GCC unroll 8
            for (int i = 0; i < R; i++) {
                __m512d av = _mm512_set1_pd(a[i * lda + k]);
#pragma GCC unroll 4
                for (int j = 0; j < V; j++)
                    t[i][j] = _mm512_fmadd_pd(av, bv[j], t[i][j]);
            }
        }
#pragma GCC unroll 8
        for (int i = 0; i < R; i++)
#pragma GCC unroll 4
            for (int j = 0; j < V; j++) {
                float *p = c + i * ldc + 8 * j;
                __m512d s = _mm512_add_pd(_mm512_cvtps_pd(_mm256_loadu_ps(p)), t[i][j]);
                _mm256_storeu_ps(p, _mm512_cvtpd_ps(s));
            }
    }
}
#endif

/* ---- micro-kernels: the FMA dot ----------------------------------------------------------------------
 * c (MR x NR floats, row stride ldc) <- fmaf over all K, k in order */

typedef void (*fkr_fn)(int64_t K, const float *a, int64_t lda, const float *b, int64_t ldb,
                       float *c, int64_t ldc);

static void fkr_c(int64_t K, const float *a, int64_t lda, const float *b, int64_t ldb, float *c,
                  int64_t ldc)
{
    enum { R = 4, S = 4 };
    float t[R][S];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < S; j++)
            t[i][j] = c[i * ldc + j];
    for (int64_t k = 0; k < K; k++)
        for (int i = 0; i < R; i++)
            for (int j = 0; j < S; j++)
                t[i][j] = fmaf(a[i * lda + k], b[k * ldb + j], t[i][j]);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < S; j++)
            c[i * ldc + j] = t[i][j];
}

#ifdef GEMM_X86
__attribute__((target("avx2,fma"))) static void fkr_avx2(int64_t K, const float *a, int64_t lda,
                                                         const float *b, int64_t ldb, float *c,
                                                         int64_t ldc)
{
    enum { R = 4, V = 2 };
    __m256 t[R][V];
#pragma GCC unroll 8
    for (int i = 0; i < R; i++)
#pragma GCC unroll 4
        for (int j = 0; j < V; j++)
            t[i][j] = _mm256_loadu_ps(c + i * ldc + 8 * j);
    for (int64_t k = 0; k < K; k++) {
        __m256 bv[V];
#pragma GCC unroll 4
        for (int j = 0; j < V; j++)
            bv[j] = _mm256_loadu_ps(b + k * ldb + 8 * j);
#pragma GCC unroll 8
        for (int i = 0; i < R; i++) {
            __m256 av = _mm256_broadcast_ss(a + i * lda + k);
#pragma GCC unroll 4
            for (int j = 0; j < V; j++)
                t[i][j] = _mm256_fmadd_ps(av, bv[j], t[i][j]);
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < R; i++)
#pragma GCC unroll 4
        for (int j = 0; j < V; j++)
            _mm256_storeu_ps(c + i * ldc + 8 * j, t[i][j]);
}

__attribute__((target("avx512f"))) static void fkr_avx512(int64_t K, const float *a, int64_t lda,
                                                          const float *b, int64_t ldb, float *c,
                                                          int64_t ldc)
{
    enum { R = 8, V = 2 };
    __m512 t[R][V];
#pragma GCC unroll 8
    for (int i = 0; i < R; i++)
#pragma GCC unroll 4
        for (int j = 0; j < V; j++)
            t[i][j] = _mm512_loadu_ps(c + i * ldc + 16 * j);
    for (int64_t k = 0; k < K; k++) {
        __m512 bv[V];
#pragma GCC unroll 4
        for (int j = 0; j < V; j++)
            bv[j] = _mm512_loadu_ps(b + k * ldb + 16 * j);
#pragma GCC unroll 8
        for (int i = 0; i < R; i++) {
            __m512 av = _mm512_set1_ps(a[i * lda + k]);
#pragma GCC unroll 4
            for (int j = 0; j < V; j++)
                t[i][j] = _mm512_fmadd_ps(av, bv[j], t[i][j]);
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < R; i++)
#pragma GCC unroll 4
        for (int j = 0; j < V; j++)
            _mm512_storeu_ps(c + i * ldc + 16 * j, t[i][j]);
}
#endif

/* ---- drivers --------------------------------------------------------------------------------------- */

/* Runs CALL on every MR x NR tile of c (M x N floats, row stride N): column panels outside (one
 * panel of B stays in L1), row panels inside.  CALL sees a, lda (rows p.. of A), b, ldb
 * (columns q.. of B) and tile, ld (the accumulators).  A tile cut by M or N runs on zero-padded
 * copies of its rows of A (pa), its columns of B (pb) and its accumulators (tmp). */
#define TILES(T, mr, nr, A, B, pa, pb, tmp, CALL)                                                \
    do {                                                                                       \
        for (int64_t q = 0; q < N; q += (nr)) {                                                \
            int cols = N - q < (nr) ? (int)(N - q) : (nr);                                     \
            const T *b = (B) + q;                                                              \
            int64_t ldb = N;                                                                   \
            if (cols < (nr)) {                                                                 \
                CUT_B(T, (B), N, q, cols, (nr), K, (pb));                                      \
                b = (pb);                                                                      \
                ldb = (nr);                                                                    \
            }                                                                                  \
            for (int64_t p = 0; p < M; p += (mr)) {                                            \
                int rows = M - p < (mr) ? (int)(M - p) : (mr);                                 \
                const T *a = (A) + p * K;                                                      \
                int64_t lda = K;                                                               \
                float *tile = c + p * N + q;                                                   \
                int64_t ld = N;                                                                \
                bool cut = rows < (mr) || cols < (nr);                                         \
                if (rows < (mr)) {                                                             \
                    CUT_A(T, (A), K, p, rows, (mr), K, (pa));                                  \
                    a = (pa);                                                                  \
                }                                                                              \
                if (cut) {                                                                     \
                    for (int i = 0; i < (mr); i++)                                             \
                        for (int j = 0; j < (nr); j++)                                         \
                            tmp[i * (nr) + j] = i < rows && j < cols ? tile[i * N + j] : 0;    \
                    tile = tmp;                                                                \
                    ld = (nr);                                                                 \
                }                                                                              \
                CALL;                                                                          \
                if (cut)                                                                       \
                    for (int i = 0; i < rows; i++)                                             \
                        memcpy(c + (p + i) * N + q, tmp + i * (nr), sizeof(float) * (size_t)cols); \
            }                                                                                  \
        }                                                                                      \
    } while (0)

void emu_gemm_groups_f32(const emu_gemm_opnd *A, const emu_gemm_opnd *B, float *c, int64_t M,
                         int64_t N, int64_t K, int G, void *scratch)
{
    int isa = gemm_isa();
    int mr = shapes[isa].mr, nr = shapes[isa].nr;
    ukr_fn kern = ukr_c;
#ifdef GEMM_X86
    if (isa == ISA_AVX512)
        kern = ukr_avx512;
    else if (isa == ISA_AVX2)
        kern = ukr_avx2;
#endif
    double *da = scratch, *db = da + M * K, *pa = db + K * N, *pb = pa + MAX_MR * K;
    float *tmp = (float *)(void *)(pb + MAX_NR * K);
    const double *a0 = decoded(A, M * K, da), *b0 = decoded(B, K * N, db);
    TILES(double, mr, nr, a0, b0, pa, pb, tmp, kern(K, G, a, lda, b, ldb, tile, ld));
}

void emu_gemm_fma_f32(const float *A, const float *B, float *c, int64_t M, int64_t N, int64_t K,
                      void *scratch)
{
    int isa = gemm_isa();
    int mr = shapes[isa].fmr, nr = shapes[isa].fnr;
    fkr_fn kern = fkr_c;
#ifdef GEMM_X86
    if (isa == ISA_AVX512)
        kern = fkr_avx512;
    else if (isa == ISA_AVX2)
        kern = fkr_avx2;
#endif
    float *pa = scratch, *pb = pa + MAX_MR * K, *tmp = pb + MAX_NR * K;
    TILES(float, mr, nr, A, B, pa, pb, tmp, kern(K, a, lda, b, ldb, tile, ld));
}

/* ---- the fast dot (CT_EMU_DOT_FAST) -------------------------------------------------------------
 *
 * f16, bf16 and fp8 values are exact in f32, so decoding the operands once and running the FMA
 * dot's kernels gives, per output, fmaf(a[k], b[k], acc) for k in order: what the FMA dot does
 * for f32 operands. */

EMU_CLONES static void decode_lowp_ps(const emu_gemm_opnd *o, int64_t n, float *out)
{
    const uint16_t *h = o->p;
    const uint8_t *b = o->p;
    switch (o->ek) {
    case EK_F16:
        for (int64_t i = 0; i < n; i++)
            out[i] = emu_h2f_calc(h[i]);
        break;
    case EK_BF16:
        for (int64_t i = 0; i < n; i++)
            out[i] = emu_bf2f(h[i]);
        break;
    default: /* the fp8 kinds */
        for (int64_t i = 0; i < n; i++)
            out[i] = emu_fp8_to_f32(b[i], o->ek);
        break;
    }
}

static void decoded_ps(const emu_gemm_opnd *o, int64_t n, float *out)
{
#ifdef GEMM_X86
    if (o->ek == EK_F16 && gemm_isa() == ISA_AVX512) {
        decode_f16_ps_avx512(o->p, n, out);
        return;
    }
#endif
    decode_lowp_ps(o, n, out);
}

void emu_gemm_fma_lowp(const emu_gemm_opnd *A, const emu_gemm_opnd *B, float *c, int64_t M,
                       int64_t N, int64_t K, void *scratch)
{
    /* the FMA kernels' panels first (emu_gemm_fma_f32's layout), then the decoded operands */
    float *fa = (float *)scratch + (size_t)(MAX_MR + MAX_NR) * (size_t)K + MAX_MR * MAX_NR;
    fa = (float *)(void *)(((uintptr_t)fa + 63) & ~(uintptr_t)63);
    float *fb = fa + M * K;
    decoded_ps(A, M * K, fa);
    decoded_ps(B, K * N, fb);
    emu_gemm_fma_f32(fa, fb, c, M, N, K, scratch);
}

/* ---- f16 x f16 -> f32 on Hopper -------------------------------------------------------------------
 *
 * The model of dot.c (f16_mma_step): per output and per instruction (16 k), emax is the largest of
 * the products' exponent sums and the accumulator's exponent; every product and the accumulator
 * are cut toward zero to a multiple of 2^(emax - 25) and summed exactly; the sum is cut toward
 * zero to 24 significant bits.  Computed here in f32 and int32:
 *  - operands are decoded to floats: a product of two f16 values (22 significant bits, exponent
 *    in [-48, 31]) is exact in f32, and so is its product with s = 2^(25 - emax), which is below
 *    2^27; vcvttps2dq (conversion toward zero) is then exactly the cut term, and 16 of them sum
 *    in int32 without overflow (each at most 2047^2 2^5, the sum below 2^31);
 *  - emax: the operands' exponents as bytes, biased so that a sum is the f32 exponent field of
 *    2^(exponent sum), one add and one max per 64 (AVX-512) or 32 (AVX2) products; its max with
 *    the accumulator's exponent field gives s's field (279 minus it) and 1 / s's (254 minus s's);
 *  - the fold: the accumulator's term, cvtt(acc s) (below 2^26; INT32_MIN only for inf and
 *    NaN), is added in int32, the sum is converted to f32 toward zero (the 24-bit cut: an
 *    embedded rounding mode on AVX-512; on AVX2 a conversion to nearest, stepped down where it
 *    went up) and multiplied by 1 / s = 2^(emax - 25): exact, or inf past f32 (emax - 25 >= -53,
 *    so never subnormal).  A lane whose int32 add overflowed (AVX-512) or whose |terms| reach
 *    2^31 - 256 (AVX2), which takes operands near f16's largest mantissas and the accumulator
 *    at the same exponent, is redone in int64.  An accumulator that is inf or NaN stays (the
 *    products are finite here);
 *  - tiles with an inf or NaN operand in their rows of A or columns of B run the scalar steps
 *    (h_step, in int64), which handle them as dot.c does; so does the portable C level.
 * Per 16 products on AVX-512: two multiplies, a conversion and an add on 16 lanes, against two
 * FMAs on 8 lanes for the double sums of the model this replaced: the exact model costs about
 * 1.6 times as much per product (emax and the fold included). */

enum { HMR_MAX = 4, HNR_MAX = 64, H_FRAC = 25 };

/* the exponent field of a finite f16 as f16's exponent, subnormals and zero -14 */
static inline int h_exp(uint16_t h)
{
    int f = (h >> 10) & 0x1f;
    return (f ? f : 1) - 15;
}

/* the kernels keep the exponents as unsigned bytes, A's plus H_BA and B's plus H_BB: their sum
 * is an exponent sum plus 127, f32's bias, in [99, 157] */
enum { H_BA = 14, H_BB = 113 };

/* one instruction for one output in integers: acc, n products a[k] b[k * ldb] (f16 values as
 * floats, ea and eb their f16 exponents) */
static float h_step(float acc, const float *a, const int32_t *ea, const float *b, const int8_t *eb,
                    int64_t ldb, int64_t n)
{
    int emax = INT32_MIN;
    bool special = !isfinite(acc);
    for (int64_t k = 0; k < n; k++) {
        special |= !isfinite(a[k]) || !isfinite(b[k * ldb]);
        int e = (uint8_t)ea[k] - H_BA + (uint8_t)eb[k * ldb] - H_BB;
        emax = e > emax ? e : emax;
    }
    if (special) {
        double s = acc;
        for (int64_t k = 0; k < n; k++)
            s += (double)a[k] * (double)b[k * ldb];
        return (float)s;
    }
    int eacc = INT32_MIN;
    int64_t macc = 0; /* acc = macc 2^(eacc - 23) */
    if (acc != 0) {
        int ex;
        float fr = frexpf(acc, &ex); /* acc = fr 2^ex, 0.5 <= |fr| < 1 */
        eacc = ex - 1;
        macc = (int64_t)ldexpf(fr, 24); /* exact: acc has at most 24 significant bits */
        emax = eacc > emax ? eacc : emax;
    }
    int64_t t = 0;
    /* a term x 2^(sh) cut toward zero, |x| < 2^25 */
    #define H_TERM(x, sh) ((sh) >= 0 ? (x) * ((int64_t)1 << (sh)) : (sh) <= -40 ? 0 : \
                           (x) < 0 ? -((-(x)) >> -(sh)) : (x) >> -(sh))
    if (acc != 0)
        t += H_TERM(macc, eacc - 23 - (emax - H_FRAC));
    for (int64_t k = 0; k < n; k++) {
        int e1 = (uint8_t)ea[k] - H_BA, e2 = (uint8_t)eb[k * ldb] - H_BB;
        /* the f16 mantissas as integers: a = ma 2^(e1 - 10) */
        int64_t ma = (int64_t)ldexpf(a[k], 10 - e1), mb = (int64_t)ldexpf(b[k * ldb], 10 - e2);
        int64_t p = ma * mb; /* the product is p 2^(e1 + e2 - 20) */
        t += H_TERM(p, e1 + e2 - 20 - (emax - H_FRAC));
    }
    #undef H_TERM
    uint64_t u = t < 0 ? (uint64_t)-t : (uint64_t)t;
    int bits = u ? 64 - __builtin_clzll(u) : 0;
    if (bits > 24)
        u = u >> (bits - 24) << (bits - 24);
    double r = ldexp((double)u, emax - H_FRAC);
    return (float)(t < 0 ? -r : r);
}

/* the scalar steps on rows [p, p + rows) and columns [q, q + cols) of c */
static void h_region(const float *fa, const int32_t *ea, const float *fb, const int8_t *eb, float *c,
                     int64_t N, int64_t K, int64_t p, int64_t rows, int64_t q, int64_t cols)
{
    for (int64_t i = p; i < p + rows; i++)
        for (int64_t j = q; j < q + cols; j++)
            for (int64_t k0 = 0; k0 < K; k0 += 16) {
                int64_t n = K - k0 < 16 ? K - k0 : 16;
                c[i * N + j] = h_step(c[i * N + j], fa + i * K + k0, ea + i * K + k0, fb + k0 * N + j,
                                      eb + k0 * N + j, N, n);
            }
}

/* the operands: f16 bits to floats (exact), their exponents plus H_BA (A's, as int32 holding the
 * byte four times, for broadcasts) or H_BB (B's, bytes), and whether a row of A or a column of B
 * has an inf or NaN.  The loops vectorize; AVX-512 has its own below. */
EMU_CLONES static void h_decode(const uint16_t *p, int64_t rows, int64_t cols, float *f, void *e,
                                bool is_a, uint8_t *bad)
{
    int64_t n = rows * cols;
    for (int64_t i = 0; i < n; i++)
        f[i] = emu_h2f_calc(p[i]);
    if (is_a)
        for (int64_t i = 0; i < n; i++) {
            uint32_t x = (p[i] >> 10) & 0x1f;
            ((int32_t *)e)[i] = (int32_t)(((x ? x : 1) - 15 + H_BA) * 0x01010101u);
        }
    else
        for (int64_t i = 0; i < n; i++) {
            uint32_t x = (p[i] >> 10) & 0x1f;
            ((uint8_t *)e)[i] = (uint8_t)((x ? x : 1) - 15 + H_BB);
        }
    if (is_a)
        for (int64_t r = 0; r < rows; r++) {
            uint16_t m = 0;
            for (int64_t j = 0; j < cols; j++)
                m |= (uint16_t)((p[r * cols + j] & 0x7c00) == 0x7c00);
            bad[r] = (uint8_t)m;
        }
    else {
        for (int64_t j = 0; j < cols; j++)
            bad[j] = 0;
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < cols; j++)
                bad[j] |= (uint8_t)((p[r * cols + j] & 0x7c00) == 0x7c00);
    }
}

#ifdef GEMM_X86
__attribute__((target("avx512f,avx512bw"))) static void h_decode_avx512(
    const uint16_t *p, int64_t rows, int64_t cols, float *f, void *e, bool is_a, uint8_t *bad)
{
    int64_t n = rows * cols, i = 0;
    const __m512i c31 = _mm512_set1_epi32(31), one = _mm512_set1_epi32(1);
    const __m512i bias = _mm512_set1_epi32((is_a ? H_BA : H_BB) - 15);
    __mmask16 any = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        _mm512_storeu_ps(f + i, _mm512_cvtph_ps(h)); /* exact; NaNs only reach the scalar steps */
        __m512i x = _mm512_and_si512(_mm512_srli_epi32(_mm512_cvtepu16_epi32(h), 10), c31);
        any |= _mm512_cmpeq_epi32_mask(x, c31);
        __m512i ex = _mm512_add_epi32(_mm512_max_epi32(x, one), bias);
        if (is_a)
            _mm512_storeu_si512((int32_t *)e + i, _mm512_mullo_epi32(ex, _mm512_set1_epi32(0x01010101)));
        else
            _mm_storeu_si128((__m128i *)(void *)((uint8_t *)e + i), _mm512_cvtepi32_epi8(ex));
    }
    for (; i < n; i++) {
        uint32_t x = (p[i] >> 10) & 0x1f;
        any |= x == 31;
        f[i] = emu_h2f_calc(p[i]);
        if (is_a)
            ((int32_t *)e)[i] = (int32_t)(((x ? x : 1) - 15 + H_BA) * 0x01010101u);
        else
            ((uint8_t *)e)[i] = (uint8_t)((x ? x : 1) - 15 + H_BB);
    }
    if (!any)
        memset(bad, 0, (size_t)(is_a ? rows : cols));
    else if (is_a)
        for (int64_t r = 0; r < rows; r++) {
            uint16_t m = 0;
            for (int64_t j = 0; j < cols; j++)
                m |= (uint16_t)((p[r * cols + j] & 0x7c00) == 0x7c00);
            bad[r] = (uint8_t)m;
        }
    else {
        for (int64_t j = 0; j < cols; j++)
            bad[j] = 0;
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < cols; j++)
                bad[j] |= (uint8_t)((p[r * cols + j] & 0x7c00) == 0x7c00);
    }
}
#endif

/* a micro-kernel: c (MR x NR floats, row stride ldc) <- the instructions of a (MR x K floats,
 * exponents ea, row stride lda) times b (K x NR floats, exponents eb, row stride ldb); w: 64-byte
 * aligned work space (HMR_MAX x HNR_MAX floats twice, HMR_MAX x HNR_MAX bytes); seg: the fp8
 * kernels' instructions per partial sum (the f16 kernels take no partial sums) */
typedef void (*hkr_fn)(int64_t K, const float *a, const int32_t *ea, int64_t lda, const float *b,
                       const int8_t *eb, int64_t ldb, float *c, int64_t ldc, void *w, int64_t seg);

/* the fold of one lane in int64 (the portable kernel's, and the vector kernels' where the int32 sum
 * could overflow): T (products' terms)
 * + as (the accumulator's), scaled by 1 / s = 2^(emax - 25) */
static float h_fold_wide(int32_t T, int32_t as, float s)
{
    /* the sum (below 2^33) is exact in double; clearing the low 29 of its 52 fraction bits cuts
     * it toward zero to 24 significant bits */
    double d = (double)((int64_t)T + as);
    uint64_t u;
    memcpy(&u, &d, 8);
    u &= ~(((uint64_t)1 << 29) - 1);
    memcpy(&d, &u, 8);
    uint32_t sb, ib;
    memcpy(&sb, &s, 4);
    ib = (254u << 23) - sb; /* 1 / s, a power of two */
    float inv;
    memcpy(&inv, &ib, 4);
    return (float)(d * inv);
}

/* The portable kernels' (hkr_c, qkr_c) shared steps on their 2 x 8 tiles, as the vector kernels'
 * h_scales_* / h_terms_* below: each output's scale 2^(F - emax) into sbuf (sx = 127 + 127 + F),
 * and the products cut at it and summed in int32 ((int32_t) of a float is toward zero). */
enum { HC_R = 2, HC_S = 8 };
static inline void h_scales_c(int64_t k0, int64_t k1, const int32_t *ea, int64_t lda, const int8_t *eb,
                              int64_t ldb, const float *acc, int64_t lacc, float *sbuf, uint32_t sx)
{
    int32_t E[HC_R][HC_S] = {{0}};
    for (int64_t k = k0; k < k1; k++)
        for (int i = 0; i < HC_R; i++) {
            int32_t x = (uint8_t)ea[i * lda + k];
            for (int j = 0; j < HC_S; j++) {
                int32_t e = x + (uint8_t)eb[k * ldb + j];
                E[i][j] = e > E[i][j] ? e : E[i][j];
            }
        }
    for (int i = 0; i < HC_R; i++)
        for (int j = 0; j < HC_S; j++) {
            uint32_t u, pe = (uint32_t)E[i][j] << 23;
            memcpy(&u, &acc[i * lacc + j], 4);
            u &= 0x7f800000u;
            u = (sx << 23) - (u > pe ? u : pe);
            memcpy(&sbuf[i * HC_S + j], &u, 4);
        }
}

static inline void h_terms_c(int64_t k0, int64_t k1, const float *a, int64_t lda, const float *b, int64_t ldb,
                             const float *sbuf, int32_t T[HC_R][HC_S])
{
    memset(T, 0, sizeof(int32_t) * HC_R * HC_S);
    for (int64_t k = k0; k < k1; k++)
        for (int i = 0; i < HC_R; i++) {
            float av = a[i * lda + k];
            for (int j = 0; j < HC_S; j++)
                T[i][j] += (int32_t)(av * b[k * ldb + j] * sbuf[i * HC_S + j]);
        }
}

/* the portable kernel: the same steps as the vector kernels below in plain C, 2 x 8 outputs (the
 * loops over the 8 columns vectorize; larger tiles spill SSE2's 16 registers); (int32_t) of a
 * float is the conversion toward zero */
static void hkr_c(int64_t K, const float *a, const int32_t *ea, int64_t lda, const float *b,
                  const int8_t *eb, int64_t ldb, float *c, int64_t ldc, void *w, int64_t seg)
{
    (void)seg;
    enum { R = HC_R, S = HC_S };
    float *sbuf = w;
    for (int64_t k0 = 0; k0 < K; k0 += 16) {
        int64_t k1 = k0 + 16 < K ? k0 + 16 : K;
        h_scales_c(k0, k1, ea, lda, eb, ldb, c, ldc, sbuf, 279u);
        int32_t T[R][S];
        h_terms_c(k0, k1, a, lda, b, ldb, sbuf, T);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < S; j++) {
                float cv = c[i * ldc + j];
                if (isfinite(cv))
                    c[i * ldc + j] = h_fold_wide(T[i][j], (int32_t)(cv * sbuf[i * S + j]), sbuf[i * S + j]);
            }
    }
}

#ifdef GEMM_X86
/* t += x (int32 lanes) in t's register: written as the compiler would, it adds into a new
 * register and copies that back, one extra instruction per product vector */
#define H_ACC(t, x)                                                                            \
    do {                                                                                       \
        __typeof__(t) x_ = (x);                                                                \
        __asm__("vpaddd %1, %0, %0" : "+v"(t) : "v"(x_));                                      \
    } while (0)

/* The two steps the f16 and fp8 micro-kernels (hkr_*, qkr_*) share, per group of k0..k1 (one
 * wgmma instruction's products), on a tile of R rows by 64 (AVX-512) or 32 (AVX2) columns:
 *
 * h_scales_*: each output's scale s = 2^(F - emax) into sbuf as f32 bits, emax the largest of its
 *   products' exponents (the operands' exponent fields ea, eb: bytes summed) and its
 *   accumulator's (acc); sx = (127 + 127 + F) << 23, F the instruction's fraction bits below
 *   emax (25 for f16, 13 for fp8).
 * h_terms_*: the products cut toward zero at the scale's grid, summed in int32 into t (the
 *   exact sum: the terms are below 2^26 and a group has at most 32). */
#define H_AVX512 __attribute__((target("avx512f,avx512bw"), always_inline)) static inline
#define H_AVX2 __attribute__((target("avx2,fma"), always_inline)) static inline

H_AVX512 void h_scales_avx512(int64_t k0, int64_t k1, const int32_t *ea, int64_t lda, const int8_t *eb,
                              int64_t ldb, const float *acc, int64_t lacc, float *sbuf, uint8_t *ebuf,
                              __m512i sx)
{
    enum { R = 4, V = 4 };
    const __m512i expf = _mm512_set1_epi32(0x7f800000);
    /* emax of the products + 127, 64 lanes of bytes per row */
    __m512i E[R];
#pragma GCC unroll 4
    for (int i = 0; i < R; i++)
        E[i] = _mm512_setzero_si512();
    for (int64_t k = k0; k < k1; k++) {
        __m512i e = _mm512_loadu_si512(eb + k * ldb);
#pragma GCC unroll 4
        for (int i = 0; i < R; i++)
            E[i] = _mm512_max_epu8(E[i], _mm512_add_epi8(e, _mm512_set1_epi32(ea[i * lda + k])));
    }
#pragma GCC unroll 4
    for (int i = 0; i < R; i++)
        _mm512_store_si512(ebuf + i * 64, E[i]);
    /* with the accumulator's exponent, as f32 exponent fields: 2^emax has the larger of the
     * two; s has sx minus that */
#pragma GCC unroll 4
    for (int i = 0; i < R; i++)
#pragma GCC unroll 4
        for (int v = 0; v < V; v++) {
            __m512i ep = _mm512_slli_epi32(_mm512_cvtepu8_epi32(_mm_load_si128((const __m128i *)(const void *)(ebuf + i * 64 + 16 * v))), 23);
            __m512i ec = _mm512_and_si512(_mm512_castps_si512(_mm512_loadu_ps(acc + i * lacc + 16 * v)), expf);
            _mm512_store_si512(sbuf + i * 64 + 16 * v, _mm512_sub_epi32(sx, _mm512_max_epi32(ep, ec)));
        }
}

/* the terms of columns 16 h .. 16 h + 31 (half the tile: the sums of a whole tile, the loaded rows
 * of B and the scales would not fit in the registers) */
H_AVX512 void h_terms_avx512(int64_t k0, int64_t k1, const float *a, int64_t lda, const float *b,
                             int64_t ldb, const float *sbuf, int h, __m512i t[4][2])
{
    enum { R = 4 };
#pragma GCC unroll 4
    for (int i = 0; i < R; i++)
        t[i][0] = t[i][1] = _mm512_setzero_si512();
#pragma GCC unroll 2
    for (int64_t k = k0; k < k1; k++) {
        __m512 b0 = _mm512_loadu_ps(b + k * ldb + 16 * h), b1 = _mm512_loadu_ps(b + k * ldb + 16 * h + 16);
#pragma GCC unroll 4
        for (int i = 0; i < R; i++) {
            __m512 av = _mm512_set1_ps(a[i * lda + k]);
            __m512 p0 = _mm512_mul_ps(_mm512_mul_ps(av, b0), _mm512_load_ps(sbuf + i * 64 + 16 * h));
            __m512 p1 = _mm512_mul_ps(_mm512_mul_ps(av, b1), _mm512_load_ps(sbuf + i * 64 + 16 * h + 16));
            H_ACC(t[i][0], _mm512_cvttps_epi32(p0));
            H_ACC(t[i][1], _mm512_cvttps_epi32(p1));
        }
    }
}

H_AVX2 void h_scales_avx2(int64_t k0, int64_t k1, const int32_t *ea, int64_t lda, const int8_t *eb,
                          int64_t ldb, const float *acc, int64_t lacc, float *sbuf, uint8_t *ebuf,
                          __m256i sx)
{
    enum { R = 2, V = 4 };
    const __m256i expf = _mm256_set1_epi32(0x7f800000);
    __m256i E[R];
#pragma GCC unroll 4
    for (int i = 0; i < R; i++)
        E[i] = _mm256_setzero_si256();
    for (int64_t k = k0; k < k1; k++) {
        __m256i e = _mm256_loadu_si256((const __m256i *)(const void *)(eb + k * ldb));
#pragma GCC unroll 4
        for (int i = 0; i < R; i++)
            E[i] = _mm256_max_epu8(E[i], _mm256_add_epi8(e, _mm256_set1_epi32(ea[i * lda + k])));
    }
#pragma GCC unroll 4
    for (int i = 0; i < R; i++)
        _mm256_store_si256((__m256i *)(void *)(ebuf + i * 32), E[i]);
#pragma GCC unroll 4
    for (int i = 0; i < R; i++)
#pragma GCC unroll 4
        for (int v = 0; v < V; v++) {
            __m256i ep = _mm256_slli_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)(ebuf + i * 32 + 8 * v))), 23);
            __m256i ec = _mm256_and_si256(_mm256_castps_si256(_mm256_loadu_ps(acc + i * lacc + 8 * v)), expf);
            _mm256_store_si256((__m256i *)(void *)(sbuf + i * 32 + 8 * v), _mm256_sub_epi32(sx, _mm256_max_epi32(ep, ec)));
        }
}

H_AVX2 void h_terms_avx2(int64_t k0, int64_t k1, const float *a, int64_t lda, const float *b, int64_t ldb,
                         const float *sbuf, __m256i T[2][4])
{
    enum { R = 2, V = 4 };
#pragma GCC unroll 4
    for (int i = 0; i < R; i++)
#pragma GCC unroll 4
        for (int v = 0; v < V; v++)
            T[i][v] = _mm256_setzero_si256();
    for (int64_t k = k0; k < k1; k++) {
        /* the scales read from memory at each use (the empty asm hides that they do not change):
         * with the sums and B's row they would not fit in AVX2's 16 registers */
        const float *sp = sbuf;
        __asm__("" : "+r"(sp));
        __m256 bv[V];
#pragma GCC unroll 4
        for (int v = 0; v < V; v++)
            bv[v] = _mm256_loadu_ps(b + k * ldb + 8 * v);
#pragma GCC unroll 4
        for (int i = 0; i < R; i++) {
            __m256 av = _mm256_broadcast_ss(a + i * lda + k);
#pragma GCC unroll 4
            for (int v = 0; v < V; v++) {
                __m256 p = _mm256_mul_ps(_mm256_mul_ps(av, bv[v]), _mm256_load_ps(sp + i * 32 + 8 * v));
                H_ACC(T[i][v], _mm256_cvttps_epi32(p));
            }
        }
    }
}

__attribute__((target("avx512f,avx512bw"))) static void hkr_avx512(
    int64_t K, const float *a, const int32_t *ea, int64_t lda, const float *b, const int8_t *eb,
    int64_t ldb, float *c, int64_t ldc, void *w, int64_t seg)
{
    (void)seg;
    enum { R = 4, V = 4 };
    float *sbuf = w;
    uint8_t *ebuf = (uint8_t *)(sbuf + 2 * HMR_MAX * HNR_MAX);
    const __m512i s279 = _mm512_set1_epi32((int32_t)(279u << 23)),
                  i254 = _mm512_set1_epi32(254 << 23), imin = _mm512_set1_epi32(INT32_MIN);
    for (int64_t k0 = 0; k0 < K; k0 += 16) {
        int64_t k1 = k0 + 16 < K ? k0 + 16 : K;
        h_scales_avx512(k0, k1, ea, lda, eb, ldb, c, ldc, sbuf, ebuf, s279);
        /* per half of 32 columns (the sums of a whole tile, the loaded rows of B and the
         * scales would not fit in the registers): the products' terms, then the fold, in
         * which the accumulator's term (cvtt gives INT32_MIN only for inf and NaN: the finite
         * terms are below 2^26) joins, the conversion toward zero cuts the sum to 24 bits, and
         * 1 / s (whose exponent field is 254 minus s's) scales it */
#pragma GCC unroll 1
        for (int h = 0; h < V; h += 2) {
            __m512i t[R][2];
            h_terms_avx512(k0, k1, a, lda, b, ldb, sbuf, h, t);
#pragma GCC unroll 4
            for (int i = 0; i < R; i++)
#pragma GCC unroll 2
                for (int u = 0; u < 2; u++) {
                    int v = h + u;
                    float *cp = c + i * ldc + 16 * v;
                    __m512 cv = _mm512_loadu_ps(cp);
                    __m512i sv = _mm512_load_si512(sbuf + i * 64 + 16 * v);
                    __m512i as = _mm512_cvttps_epi32(_mm512_mul_ps(cv, _mm512_castsi512_ps(sv)));
                    __m512i tt = _mm512_add_epi32(t[i][u], as);
                    __mmask16 fin = _mm512_cmpneq_epi32_mask(as, imin);
                    __m512 r = _mm512_mul_ps(_mm512_cvt_roundepi32_ps(tt, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC),
                                             _mm512_castsi512_ps(_mm512_sub_epi32(i254, sv)));
                    r = _mm512_mask_blend_ps(fin, cv, r);
                    /* the int32 add overflowed (operands of one sign, the sum of the other):
                     * redo in int64 */
                    __mmask16 wide = _mm512_mask_cmplt_epi32_mask(
                        fin, _mm512_ternarylogic_epi32(t[i][u], as, tt, 0x42), _mm512_setzero_si512());
                    _mm512_storeu_ps(cp, r);
                    if (wide) {
                        int32_t Ts[16], As[16];
                        _mm512_storeu_si512(Ts, t[i][u]);
                        _mm512_storeu_si512(As, as);
                        for (int l = 0; l < 16; l++)
                            if (wide >> l & 1)
                                cp[l] = h_fold_wide(Ts[l], As[l], sbuf[i * 64 + 16 * v + l]);
                    }
                }
        }
    }
}

__attribute__((target("avx2,fma"))) static void hkr_avx2(
    int64_t K, const float *a, const int32_t *ea, int64_t lda, const float *b, const int8_t *eb,
    int64_t ldb, float *c, int64_t ldc, void *w, int64_t seg)
{
    (void)seg;
    enum { R = 2, V = 4 };
    float *sbuf = w;
    uint8_t *ebuf = (uint8_t *)(sbuf + 2 * HMR_MAX * HNR_MAX);
    const __m256i s279 = _mm256_set1_epi32((int32_t)(279u << 23)),
                  i254 = _mm256_set1_epi32(254 << 23), sign = _mm256_set1_epi32(INT32_MIN);
    for (int64_t k0 = 0; k0 < K; k0 += 16) {
        int64_t k1 = k0 + 16 < K ? k0 + 16 : K;
        h_scales_avx2(k0, k1, ea, lda, eb, ldb, c, ldc, sbuf, ebuf, s279);
        __m256i T[R][V];
        h_terms_avx2(k0, k1, a, lda, b, ldb, sbuf, T);
#pragma GCC unroll 4
        for (int i = 0; i < R; i++)
#pragma GCC unroll 4
            for (int v = 0; v < V; v++) {
                float *cp = c + i * ldc + 8 * v;
                __m256 cv = _mm256_loadu_ps(cp);
                __m256i sv = _mm256_load_si256((const __m256i *)(const void *)(sbuf + i * 32 + 8 * v));
                __m256 inv = _mm256_castsi256_ps(_mm256_sub_epi32(i254, sv));
                __m256i as = _mm256_cvttps_epi32(_mm256_mul_ps(cv, _mm256_castsi256_ps(sv)));
                __m256i t = _mm256_add_epi32(T[i][v], as);
                __m256i nonfin = _mm256_cmpeq_epi32(as, sign); /* as in the AVX-512 kernel */
                /* |t| to f32 toward zero: to nearest, then one step down where that went up */
                __m256i at = _mm256_abs_epi32(t);
                __m256 f = _mm256_cvtepi32_ps(at);
                __m256i up = _mm256_cmpgt_epi32(_mm256_cvttps_epi32(f), at);
                __m256i fb = _mm256_or_si256(_mm256_add_epi32(_mm256_castps_si256(f), up),
                                             _mm256_and_si256(t, sign));
                __m256 r = _mm256_mul_ps(_mm256_castsi256_ps(fb), inv);
                r = _mm256_blendv_ps(r, cv, _mm256_castsi256_ps(nonfin));
                __m256i u = _mm256_add_epi32(_mm256_add_epi32(_mm256_abs_epi32(T[i][v]), _mm256_abs_epi32(as)), _mm256_set1_epi32(256));
                int wide = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_andnot_si256(nonfin, u)));
                _mm256_storeu_ps(cp, r);
                if (wide) {
                    int32_t Ts[8], As[8];
                    _mm256_storeu_si256((__m256i *)(void *)Ts, T[i][v]);
                    _mm256_storeu_si256((__m256i *)(void *)As, as);
                    for (int l = 0; l < 8; l++)
                        if (wide >> l & 1)
                            cp[l] = h_fold_wide(Ts[l], As[l], sbuf[i * 32 + 8 * v + l]);
                }
            }
    }
}
#endif

/* aligned pieces of the scratch: size when base is NULL */
static size_t h_layout(int64_t M, int64_t N, int64_t K, void *base, float **fa, int32_t **ea,
                       float **fb, int8_t **eb, uint8_t **rbad, uint8_t **cbad, float **pa,
                       int32_t **pea, float **pb, int8_t **peb, float **tmp, void **w)
{
    size_t off = 0;
    uint8_t *b = base;
#define H_PIECE(ptr, type, n)                                                                  \
    do {                                                                                       \
        if (b)                                                                                 \
            *(ptr) = (type *)(void *)(b + off);                                                \
        off += ((size_t)(n) * sizeof(type) + 63) & ~(size_t)63;                                \
    } while (0)
    H_PIECE(fa, float, M * K);
    H_PIECE(ea, int32_t, M * K);
    H_PIECE(fb, float, K * N);
    H_PIECE(eb, int8_t, K * N);
    H_PIECE(rbad, uint8_t, M);
    H_PIECE(cbad, uint8_t, N);
    H_PIECE(pa, float, HMR_MAX * K);
    H_PIECE(pea, int32_t, HMR_MAX * K);
    H_PIECE(pb, float, K * HNR_MAX);
    H_PIECE(peb, int8_t, K * HNR_MAX);
    H_PIECE(tmp, float, HMR_MAX * HNR_MAX);
    H_PIECE(w, uint8_t, HMR_MAX * HNR_MAX * (2 * sizeof(float) + 1));
#undef H_PIECE
    return off + 64;
}

/* ---- the tiles of the Hopper models (f16 and fp8): one driver ------------------------------ */

/* a product's operands decoded (h_layout's pieces), the micro-kernel and its tile, and the scalar
 * steps for the tiles whose rows of A or columns of B hold an inf or NaN */
typedef struct h_tiles h_tiles;
struct h_tiles {
    const float *fa, *fb;
    const int32_t *ea;
    const int8_t *eb;
    const uint8_t *rbad, *cbad;
    float *c, *pa, *pb, *tmp;
    int32_t *pea;
    int8_t *peb;
    void *w;
    int64_t M, N, K, seg;
    hkr_fn kern;
    int mr, nr, emin_a, emin_b;
    void (*region)(const h_tiles *t, int64_t p, int rows, int64_t q, int cols);
};

/* c <- the product, tile by tile: tiles cut by the edges run on zero-padded copies */
static void h_run_tiles(const h_tiles *t)
{
    const float *fa = t->fa, *fb = t->fb;
    const int32_t *ea = t->ea;
    const int8_t *eb = t->eb;
    const uint8_t *rbad = t->rbad, *cbad = t->cbad;
    float *c = t->c, *pa = t->pa, *pb = t->pb, *tmp = t->tmp;
    int32_t *pea = t->pea;
    int8_t *peb = t->peb;
    int64_t M = t->M, N = t->N, K = t->K;
    int mr = t->mr, nr = t->nr;
    const int32_t zexp = (int32_t)((uint32_t)(-14 + H_BA) * 0x01010101u);
    for (int64_t q = 0; q < N; q += nr) {
        int cols = N - q < nr ? (int)(N - q) : nr;
        bool cbadp = false;
        for (int j = 0; j < cols; j++)
            cbadp |= cbad[q + j];
        const float *b = fb + q;
        const int8_t *ebp = eb + q;
        int64_t ldb = N;
        if (cols < nr && !cbadp) { /* zero columns on the right */
            for (int64_t k = 0; k < K; k++)
                for (int j = 0; j < nr; j++) {
                    pb[k * nr + j] = j < cols ? fb[k * N + q + j] : 0.0f;
                    peb[k * nr + j] = j < cols ? eb[k * N + q + j] : (int8_t)(uint8_t)(-14 + H_BB);
                }
            b = pb;
            ebp = peb;
            ldb = nr;
        }
        for (int64_t p = 0; p < M; p += mr) {
            int rows = M - p < mr ? (int)(M - p) : mr;
            bool bad = cbadp;
            for (int i = 0; i < rows; i++)
                bad |= rbad[p + i];
            if (bad) {
                t->region(t, p, rows, q, cols);
                continue;
            }
            const float *a = fa + p * K;
            const int32_t *eap = ea + p * K;
            if (rows < mr) { /* zero rows below */
                for (int i = 0; i < mr; i++)
                    for (int64_t k = 0; k < K; k++) {
                        pa[i * K + k] = i < rows ? fa[(p + i) * K + k] : 0.0f;
                        pea[i * K + k] = i < rows ? ea[(p + i) * K + k] : zexp;
                    }
                a = pa;
                eap = pea;
            }
            float *tile = c + p * N + q;
            int64_t ld = N;
            bool cut = rows < mr || cols < nr;
            if (cut) {
                for (int i = 0; i < mr; i++)
                    for (int j = 0; j < nr; j++)
                        tmp[i * nr + j] = i < rows && j < cols ? tile[i * N + j] : 0.0f;
                tile = tmp;
                ld = nr;
            }
            t->kern(K, a, eap, K, b, ebp, ldb, tile, ld, t->w, t->seg);
            if (cut)
                for (int i = 0; i < rows; i++)
                    memcpy(c + (p + i) * N + q, tmp + i * nr, sizeof(float) * (size_t)cols);
        }
    }
}

static void h_region_tiles(const h_tiles *t, int64_t p, int rows, int64_t q, int cols)
{
    h_region(t->fa, t->ea, t->fb, t->eb, t->c, t->N, t->K, p, rows, q, cols);
}

void emu_gemm_hopper_f16(const uint16_t *A, const uint16_t *B, float *c, int64_t M, int64_t N,
                         int64_t K, void *scratch)
{
    float *fa = NULL, *fb = NULL, *pa = NULL, *pb = NULL, *tmp = NULL;
    int32_t *ea = NULL, *pea = NULL;
    int8_t *eb = NULL, *peb = NULL;
    uint8_t *rbad = NULL, *cbad = NULL;
    void *w = NULL;
    void *base = (void *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    h_layout(M, N, K, base, &fa, &ea, &fb, &eb, &rbad, &cbad, &pa, &pea, &pb, &peb, &tmp, &w);
    int isa = gemm_isa();
#ifdef GEMM_X86
    if (isa == ISA_AVX512) {
        h_decode_avx512(A, M, K, fa, ea, true, rbad);
        h_decode_avx512(B, K, N, fb, eb, false, cbad);
    } else
#endif
    {
        h_decode(A, M, K, fa, ea, true, rbad);
        h_decode(B, K, N, fb, eb, false, cbad);
    }
    hkr_fn kern = hkr_c;
    int mr = 2, nr = 8;
#ifdef GEMM_X86
    if (isa == ISA_AVX512) {
        kern = hkr_avx512;
        mr = 4;
        nr = 64;
    } else if (isa == ISA_AVX2) {
        kern = hkr_avx2;
        mr = 2;
        nr = 32;
    }
#endif
    h_tiles t = {fa, fb, ea, eb, rbad, cbad, c, pa, pb, tmp, pea, peb, w, M, N, K, 0, kern, mr, nr, 0, 0,
                 h_region_tiles};
    h_run_tiles(&t);
}

/* ---- fp8 x fp8 -> f32 on Hopper (wgmma k32) ------------------------------------------------------
 *
 * The model of dot.c (fp8_mma_step, fp8_dot): per output and per instruction (32 k), emax is the
 * largest of the products' exponent sums (an fp8 operand's exponent is its encoding's, subnormals
 * and zero at the format's smallest normal exponent: -6 for e4m3, -14 for e5m2) and the
 * accumulator's exponent; every product and the accumulator are cut toward zero to a multiple of
 * 2^(emax - 13) and summed exactly; the sum is cut toward zero to 14 significant bits.  The same
 * structure as the f16 kernels above, simpler:
 *  - operands are decoded to floats by table (exact); a product of two fp8 values (at most 8
 *    significant bits, exponent in [-32, 32]) is exact in f32, and so is its product with
 *    s = 2^(13 - emax) once that reaches 1 (below 1 the cut gives 0 whatever the rounding);
 *    vcvttps2dq is the cut term, below 2^15, and 32 of them plus the accumulator's (below 2^14)
 *    sum in int32 far from overflow, so there is no wide fallback;
 *  - emax: the operands' exponents as bytes (A's plus H_BA, B's plus H_BB, both formats' exponents
 *    being at least -14), a sum being the f32 exponent field of 2^(exponent sum); s's field is
 *    267 (127 + 127 + 13) minus the larger of that and the accumulator's exponent field, and
 *    1 / s's 254 minus s's (s and 1 / s are normal: emax is in [-28, 127]);
 *  - the fold: the sum (below 2^21) converts to f32 exactly, clearing the low 10 of its 23
 *    fraction bits is the cut to 14 significant bits (toward zero: sign and magnitude), and
 *    1 / s scales it, exactly or to inf past f32 (never subnormal: emax - 13 >= -41).  The sum is
 *    never -0 (the reference's neither: its terms are never -0).  An accumulator that is inf or
 *    NaN stays (cvtt gives INT32_MIN only for those);
 *  - maxNumImpreciseAcc <= K (seg > 0: instructions per partial sum, at least 1): the
 *    instructions run on a zeroed partial tile that is added to c with an f32 add (the
 *    reference's double add rounded to f32 gives the same) after every seg instructions and after
 *    the last;
 *  - tiles with an inf or NaN operand in their rows of A or columns of B run the reference's
 *    steps in double (q_scalar); so does the portable C level's equivalent of nothing: it has its
 *    own kernel in plain C. */

enum { Q_K = 32, Q_FRAC = 13 };

/* dot.c's fp8_exponents for one value */
static inline int q_opexp(float v, int emin)
{
    int x = v != 0 && isfinite(v) ? emu_dexp(v) : emin;
    return x > emin ? x : emin;
}

/* one output through all of K, exactly as dot.c's fp8_dot and fp8_mma_step compute it (in
 * double): c the accumulator, a a row of A, b a column of B (stride ldb), seg as above (0: no
 * partial sums) */
static float q_scalar(float c, const float *a, const float *b, int64_t ldb, int64_t K, int emin_a,
                      int emin_b, int64_t seg)
{
    double d = c, p = seg ? 0 : d;
    int64_t cnt = 0;
    for (int64_t k0 = 0; k0 < K; k0 += Q_K) {
        int64_t k1 = k0 + Q_K < K ? k0 + Q_K : K;
        int emax = p != 0 && isfinite(p) ? emu_dexp(p) : -100000;
        for (int64_t k = k0; k < k1; k++) {
            int e = q_opexp(a[k], emin_a) + q_opexp(b[k * ldb], emin_b);
            emax = e > emax ? e : emax;
        }
        double scale = emu_pow2(Q_FRAC - emax), t = emu_trunc_small(p * scale);
        for (int64_t k = k0; k < k1; k++)
            t += emu_trunc_small((double)a[k] * (double)b[k * ldb] * scale);
        double v = t;
        if (v != 0 && isfinite(v)) {
            int sh = emu_dexp(v) - Q_FRAC;
            if (sh > 0)
                v = emu_trunc_small(v * emu_pow2(-sh)) * emu_pow2(sh);
            v *= emu_pow2(emax - Q_FRAC);
        }
        p = (double)(float)v;
        if (seg && (++cnt == seg || k1 == K)) {
            d = (double)(float)(d + p);
            p = 0;
            cnt = 0;
        }
    }
    return seg ? (float)d : (float)p;
}

static void q_region(const float *fa, const float *fb, float *c, int64_t N, int64_t K, int64_t p,
                     int64_t rows, int64_t q, int64_t cols, int emin_a, int emin_b, int64_t seg)
{
    for (int64_t i = p; i < p + rows; i++)
        for (int64_t j = q; j < q + cols; j++)
            c[i * N + j] = q_scalar(c[i * N + j], fa + i * K, fb + j, N, K, emin_a, emin_b, seg);
}

/* the operands: fp8 bytes to floats (exact), their exponents plus H_BA (A's, as int32 holding the
 * byte four times, for broadcasts) or H_BB (B's, bytes), and whether a row of A or a column of B
 * has an inf or NaN */
EMU_CLONES static void q_decode(const uint8_t *p, emu_ek ek, int64_t rows, int64_t cols, float *f,
                                void *e, bool is_a, uint8_t *bad)
{
    int64_t n = rows * cols;
    const float *tab = emu_fp8_tab[ek - EK_F8E4NV];
    bool e4 = ek == EK_F8E4NV;
    int sh = e4 ? 3 : 2;
    uint32_t fm = e4 ? 15 : 31, sp = e4 ? 0x7f : 0x7c, spm = e4 ? 0x7f : 0x7c;
    int bias = (e4 ? 7 : 15) - (is_a ? H_BA : H_BB);
    for (int64_t i = 0; i < n; i++)
        f[i] = tab[p[i]];
    if (is_a)
        for (int64_t i = 0; i < n; i++) {
            uint32_t x = ((uint32_t)p[i] >> sh) & fm;
            ((int32_t *)e)[i] = (int32_t)((uint32_t)((int)(x ? x : 1) - bias) * 0x01010101u);
        }
    else
        for (int64_t i = 0; i < n; i++) {
            uint32_t x = ((uint32_t)p[i] >> sh) & fm;
            ((uint8_t *)e)[i] = (uint8_t)((int)(x ? x : 1) - bias);
        }
    if (is_a)
        for (int64_t r = 0; r < rows; r++) {
            uint8_t m = 0;
            for (int64_t j = 0; j < cols; j++)
                m |= (uint8_t)((p[r * cols + j] & spm) == sp);
            bad[r] = m;
        }
    else {
        for (int64_t j = 0; j < cols; j++)
            bad[j] = 0;
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < cols; j++)
                bad[j] |= (uint8_t)((p[r * cols + j] & spm) == sp);
    }
}

#ifdef GEMM_X86
/* q_decode 16 values at a time: e5m2 is the top byte of an f16 (vcvtph2ps); e4m3's magnitude
 * bits shifted into an f16's are the value times 2^-8 (subnormals included), scaled back
 * exactly; e4m3's NaN encodings patched (the scalar steps see NaN) */
__attribute__((target("avx512f,avx512bw"))) static void q_decode_avx512(
    const uint8_t *p, emu_ek ek, int64_t rows, int64_t cols, float *f, void *e, bool is_a, uint8_t *bad)
{
    int64_t n = rows * cols, i = 0;
    bool e4 = ek == EK_F8E4NV;
    const float *tab = emu_fp8_tab[ek - EK_F8E4NV];
    const __m512i fm = _mm512_set1_epi32(e4 ? 15 : 31), one = _mm512_set1_epi32(1),
                  bias = _mm512_set1_epi32((is_a ? H_BA : H_BB) - (e4 ? 7 : 15)),
                  spm = _mm512_set1_epi32(e4 ? 0x7f : 0x7c), m7f = _mm512_set1_epi32(0x7f),
                  m80 = _mm512_set1_epi32(0x80);
    const int sh = e4 ? 3 : 2;
    __mmask16 any = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i w = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p + i)));
        __mmask16 sp = _mm512_cmpeq_epi32_mask(_mm512_and_si512(w, spm), spm);
        any |= sp;
        __m512 fv;
        if (e4) {
            __m512i h = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(w, m7f), 7),
                                        _mm512_slli_epi32(_mm512_and_si512(w, m80), 8));
            fv = _mm512_mul_ps(_mm512_cvtph_ps(_mm512_cvtepi32_epi16(h)), _mm512_set1_ps(256.0f));
            fv = _mm512_mask_mov_ps(fv, sp, _mm512_set1_ps(NAN));
        } else {
            fv = _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_slli_epi32(w, 8)));
        }
        _mm512_storeu_ps(f + i, fv);
        __m512i x = _mm512_and_si512(_mm512_srli_epi32(w, (unsigned)sh), fm);
        __m512i ex = _mm512_add_epi32(_mm512_max_epi32(x, one), bias);
        if (is_a)
            _mm512_storeu_si512((int32_t *)e + i, _mm512_mullo_epi32(ex, _mm512_set1_epi32(0x01010101)));
        else
            _mm_storeu_si128((__m128i *)(void *)((uint8_t *)e + i), _mm512_cvtepi32_epi8(ex));
    }
    int b = (e4 ? 7 : 15) - (is_a ? H_BA : H_BB);
    uint32_t spv = e4 ? 0x7f : 0x7c;
    for (; i < n; i++) {
        uint32_t x = ((uint32_t)p[i] >> sh) & (e4 ? 15u : 31u);
        any |= (p[i] & spv) == spv;
        f[i] = tab[p[i]];
        if (is_a)
            ((int32_t *)e)[i] = (int32_t)((uint32_t)((int)(x ? x : 1) - b) * 0x01010101u);
        else
            ((uint8_t *)e)[i] = (uint8_t)((int)(x ? x : 1) - b);
    }
    if (!any)
        memset(bad, 0, (size_t)(is_a ? rows : cols));
    else if (is_a)
        for (int64_t r = 0; r < rows; r++) {
            uint8_t m = 0;
            for (int64_t j = 0; j < cols; j++)
                m |= (uint8_t)((p[r * cols + j] & spv) == spv);
            bad[r] = m;
        }
    else {
        for (int64_t j = 0; j < cols; j++)
            bad[j] = 0;
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < cols; j++)
                bad[j] |= (uint8_t)((p[r * cols + j] & spv) == spv);
    }
}
#endif

/* the micro-kernels (hkr_fn): 32 k per instruction, seg as above; w also holds the partial tile */

/* the portable kernel: 2 x 8 outputs */
static void qkr_c(int64_t K, const float *a, const int32_t *ea, int64_t lda, const float *b,
                  const int8_t *eb, int64_t ldb, float *c, int64_t ldc, void *w, int64_t seg)
{
    enum { R = HC_R, S = HC_S };
    float *sbuf = w, *pbuf = sbuf + HMR_MAX * HNR_MAX;
    float *acc = c;
    int64_t lacc = ldc, cnt = 0;
    if (seg) {
        acc = pbuf;
        lacc = S;
        memset(pbuf, 0, sizeof(float) * R * S);
    }
    for (int64_t k0 = 0; k0 < K; k0 += Q_K) {
        int64_t k1 = k0 + Q_K < K ? k0 + Q_K : K;
        h_scales_c(k0, k1, ea, lda, eb, ldb, acc, lacc, sbuf, 267u);
        int32_t T[R][S];
        h_terms_c(k0, k1, a, lda, b, ldb, sbuf, T);
        for (int i = 0; i < R; i++)
            for (int j = 0; j < S; j++) {
                float cv = acc[i * lacc + j], s = sbuf[i * S + j];
                if (!isfinite(cv))
                    continue;
                float f = (float)(T[i][j] + (int32_t)(cv * s));
                uint32_t u, sb;
                memcpy(&u, &f, 4);
                u &= 0xfffffc00u;
                memcpy(&f, &u, 4);
                memcpy(&sb, &s, 4);
                sb = (254u << 23) - sb;
                float inv;
                memcpy(&inv, &sb, 4);
                acc[i * lacc + j] = f * inv;
            }
        if (seg && (++cnt == seg || k1 == K)) {
            for (int i = 0; i < R; i++)
                for (int j = 0; j < S; j++) {
                    c[i * ldc + j] += pbuf[i * S + j];
                    pbuf[i * S + j] = 0;
                }
            cnt = 0;
        }
    }
}

#ifdef GEMM_X86
__attribute__((target("avx512f,avx512bw"))) static void qkr_avx512(
    int64_t K, const float *a, const int32_t *ea, int64_t lda, const float *b, const int8_t *eb,
    int64_t ldb, float *c, int64_t ldc, void *w, int64_t seg)
{
    enum { R = 4, V = 4 };
    float *sbuf = w, *pbuf = sbuf + HMR_MAX * HNR_MAX;
    uint8_t *ebuf = (uint8_t *)(sbuf + 2 * HMR_MAX * HNR_MAX);
    const __m512i s267 = _mm512_set1_epi32((int32_t)(267u << 23)),
                  i254 = _mm512_set1_epi32(254 << 23), imin = _mm512_set1_epi32(INT32_MIN),
                  cutm = _mm512_set1_epi32((int32_t)0xfffffc00u);
    float *acc = c;
    int64_t lacc = ldc, cnt = 0;
    if (seg) {
        acc = pbuf;
        lacc = 16 * V;
        memset(pbuf, 0, sizeof(float) * R * 16 * V);
    }
    for (int64_t k0 = 0; k0 < K; k0 += Q_K) {
        int64_t k1 = k0 + Q_K < K ? k0 + Q_K : K;
        h_scales_avx512(k0, k1, ea, lda, eb, ldb, acc, lacc, sbuf, ebuf, s267);
        /* per half of 32 columns: the products' terms, then the fold */
#pragma GCC unroll 1
        for (int h = 0; h < V; h += 2) {
            __m512i t[R][2];
            h_terms_avx512(k0, k1, a, lda, b, ldb, sbuf, h, t);
#pragma GCC unroll 4
            for (int i = 0; i < R; i++)
#pragma GCC unroll 2
                for (int u = 0; u < 2; u++) {
                    int v = h + u;
                    float *cp = acc + i * lacc + 16 * v;
                    __m512 cv = _mm512_loadu_ps(cp);
                    __m512i sv = _mm512_load_si512(sbuf + i * 64 + 16 * v);
                    __m512i as = _mm512_cvttps_epi32(_mm512_mul_ps(cv, _mm512_castsi512_ps(sv)));
                    __m512i tt = _mm512_add_epi32(t[i][u], as);
                    __mmask16 fin = _mm512_cmpneq_epi32_mask(as, imin);
                    __m512i cut = _mm512_and_si512(_mm512_castps_si512(_mm512_cvtepi32_ps(tt)), cutm);
                    __m512 r = _mm512_mul_ps(_mm512_castsi512_ps(cut), _mm512_castsi512_ps(_mm512_sub_epi32(i254, sv)));
                    _mm512_storeu_ps(cp, _mm512_mask_blend_ps(fin, cv, r));
                }
        }
        if (seg && (++cnt == seg || k1 == K)) {
#pragma GCC unroll 4
            for (int i = 0; i < R; i++)
#pragma GCC unroll 4
                for (int v = 0; v < V; v++) {
                    float *cp = c + i * ldc + 16 * v;
                    _mm512_storeu_ps(cp, _mm512_add_ps(_mm512_loadu_ps(cp), _mm512_loadu_ps(pbuf + i * 64 + 16 * v)));
                    _mm512_storeu_ps(pbuf + i * 64 + 16 * v, _mm512_setzero_ps());
                }
            cnt = 0;
        }
    }
}

__attribute__((target("avx2,fma"))) static void qkr_avx2(
    int64_t K, const float *a, const int32_t *ea, int64_t lda, const float *b, const int8_t *eb,
    int64_t ldb, float *c, int64_t ldc, void *w, int64_t seg)
{
    enum { R = 2, V = 4 };
    float *sbuf = w, *pbuf = sbuf + HMR_MAX * HNR_MAX;
    uint8_t *ebuf = (uint8_t *)(sbuf + 2 * HMR_MAX * HNR_MAX);
    const __m256i s267 = _mm256_set1_epi32((int32_t)(267u << 23)),
                  i254 = _mm256_set1_epi32(254 << 23), sign = _mm256_set1_epi32(INT32_MIN),
                  cutm = _mm256_set1_epi32((int32_t)0xfffffc00u);
    float *acc = c;
    int64_t lacc = ldc, cnt = 0;
    if (seg) {
        acc = pbuf;
        lacc = 8 * V;
        memset(pbuf, 0, sizeof(float) * R * 8 * V);
    }
    for (int64_t k0 = 0; k0 < K; k0 += Q_K) {
        int64_t k1 = k0 + Q_K < K ? k0 + Q_K : K;
        h_scales_avx2(k0, k1, ea, lda, eb, ldb, acc, lacc, sbuf, ebuf, s267);
        __m256i T[R][V];
        h_terms_avx2(k0, k1, a, lda, b, ldb, sbuf, T);
#pragma GCC unroll 4
        for (int i = 0; i < R; i++)
#pragma GCC unroll 4
            for (int v = 0; v < V; v++) {
                float *cp = acc + i * lacc + 8 * v;
                __m256 cv = _mm256_loadu_ps(cp);
                __m256i sv = _mm256_load_si256((const __m256i *)(const void *)(sbuf + i * 32 + 8 * v));
                __m256 inv = _mm256_castsi256_ps(_mm256_sub_epi32(i254, sv));
                __m256i as = _mm256_cvttps_epi32(_mm256_mul_ps(cv, _mm256_castsi256_ps(sv)));
                __m256i t = _mm256_add_epi32(T[i][v], as);
                __m256i nonfin = _mm256_cmpeq_epi32(as, sign);
                __m256i cut = _mm256_and_si256(_mm256_castps_si256(_mm256_cvtepi32_ps(t)), cutm);
                __m256 r = _mm256_mul_ps(_mm256_castsi256_ps(cut), inv);
                _mm256_storeu_ps(cp, _mm256_blendv_ps(r, cv, _mm256_castsi256_ps(nonfin)));
            }
        if (seg && (++cnt == seg || k1 == K)) {
#pragma GCC unroll 4
            for (int i = 0; i < R; i++)
#pragma GCC unroll 4
                for (int v = 0; v < V; v++) {
                    float *cp = c + i * ldc + 8 * v;
                    _mm256_storeu_ps(cp, _mm256_add_ps(_mm256_loadu_ps(cp), _mm256_loadu_ps(pbuf + i * 32 + 8 * v)));
                    _mm256_storeu_ps(pbuf + i * 32 + 8 * v, _mm256_setzero_ps());
                }
            cnt = 0;
        }
    }
}
#endif

static void q_region_tiles(const h_tiles *t, int64_t p, int rows, int64_t q, int cols)
{
    q_region(t->fa, t->fb, t->c, t->N, t->K, p, rows, q, cols, t->emin_a, t->emin_b, t->seg);
}

void emu_gemm_hopper_fp8(const uint8_t *A, emu_ek a_ek, const uint8_t *B, emu_ek b_ek, float *c,
                         int64_t M, int64_t N, int64_t K, int64_t max_imprecise, void *scratch)
{
    float *fa = NULL, *fb = NULL, *pa = NULL, *pb = NULL, *tmp = NULL;
    int32_t *ea = NULL, *pea = NULL;
    int8_t *eb = NULL, *peb = NULL;
    uint8_t *rbad = NULL, *cbad = NULL;
    void *w = NULL;
    void *base = (void *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    h_layout(M, N, K, base, &fa, &ea, &fb, &eb, &rbad, &cbad, &pa, &pea, &pb, &peb, &tmp, &w);
    /* instructions per partial sum (dot.c's fp8_dot: maxNumImpreciseAcc <= K, whole
     * instructions, at least one) */
    int64_t seg = 0;
    if (max_imprecise <= K) {
        seg = max_imprecise > 0 ? (max_imprecise + Q_K - 1) / Q_K : 1;
        if (seg < 1)
            seg = 1;
    }
    int isa = gemm_isa();
#ifdef GEMM_X86
    if (isa == ISA_AVX512) {
        q_decode_avx512(A, a_ek, M, K, fa, ea, true, rbad);
        q_decode_avx512(B, b_ek, K, N, fb, eb, false, cbad);
    } else
#endif
    {
        q_decode(A, a_ek, M, K, fa, ea, true, rbad);
        q_decode(B, b_ek, K, N, fb, eb, false, cbad);
    }
    int emin_a = a_ek == EK_F8E4NV ? -6 : -14, emin_b = b_ek == EK_F8E4NV ? -6 : -14;
    hkr_fn kern = qkr_c;
    int mr = 2, nr = 8;
#ifdef GEMM_X86
    if (isa == ISA_AVX512) {
        kern = qkr_avx512;
        mr = 4;
        nr = 64;
    } else if (isa == ISA_AVX2) {
        kern = qkr_avx2;
        mr = 2;
        nr = 32;
    }
#else
    (void)isa;
#endif
    h_tiles t = {fa, fb, ea, eb, rbad, cbad, c, pa, pb, tmp, pea, peb, w, M, N, K, seg,
                 kern, mr, nr, emin_a, emin_b, q_region_tiles};
    h_run_tiles(&t);
}
