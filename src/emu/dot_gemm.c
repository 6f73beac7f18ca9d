/*
 * dot_gemm.c - the fast paths of tt.dot: register-blocked micro-kernels that compute, bit for
 * bit, what the reference loops of dot.c compute.
 *
 * Two computations are served (dot.c says which dot uses which):
 *
 *  - the MMA-group model (f16, bf16, tf32 and the F32DotTC decompositions, f32 accumulator):
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
 *    order, the same correctly rounded operation in a vector register.
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

size_t emu_gemm_scratch_bytes(int64_t M, int64_t N, int64_t K)
{
    /* A and B decoded to doubles, a cut panel of each, a cut accumulator tile */
    return sizeof(double) * (size_t)((M + N + MAX_MR + MAX_NR) * K + MAX_MR * MAX_NR) + 256;
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
/* the same with vcvtph2ps (exact), NaNs patched to keep their payload as the table does
 * (the instruction sets their quiet bit) */
__attribute__((target("avx512f"))) static void decode_f16_avx512(const uint16_t *p, int64_t n,
                                                                 double *out)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
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
        __m256 lo = _mm512_castps512_ps256(f);
        __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f), 1));
        _mm512_storeu_pd(out + i, _mm512_cvtps_pd(lo));
        _mm512_storeu_pd(out + i + 8, _mm512_cvtps_pd(hi));
    }
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
