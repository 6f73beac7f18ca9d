/*
 * dot.c - tt.dot: [B,] M x K times K x N plus the accumulator.
 *
 * How Triton 3.6 computes it on sm_90, and how the emulator models it:
 *  - input_precision "ieee" with f32 (and every f64 dot) is the FMA dot:
 *    acc = fma(a[m][k], b[k][n], acc) for k = 0, 1, ... (FMADotUtility.cpp);
 *    emulated exactly, bit for bit;
 *  - integer dots (i8 x i8 -> i32) are exact, with wraparound;
 *  - fp8 x fp8 (e4m3, e5m2) into f32 is wgmma with fp8 operands, whose
 *    accumulation is coarse; the emulator follows a model fitted to (and
 *    bit-exact on) an H200's output, see fp8_mma_step below;
 *  - f16 x f16 into f32: the same kind of model with 25 fraction bits,
 *    fitted to (and bit-exact on) two H200 captures, see f16_mma_step;
 *  - the other tensor-core dots (bf16, tf32, f16 with an f16 accumulator)
 *    accumulate in groups of one MMA instruction's K (16 for bf16/f16, 8
 *    for tf32): the emulator forms each group's exact products, sums them
 *    in double, adds the accumulator and rounds once.  No GPU capture pins
 *    their alignment and truncation down, so these dots are not bit-exact
 *    (see docs/emulator.md for the bound);
 *  - tf32 operands: the MMA ignores the low 13 mantissa bits of f32 inputs
 *    (truncation); tf32x3 and bf16x3/bf16x6 are decomposed exactly as the
 *    F32DotTC pass does (cvt.rna.tf32 splits, NaNs of the small products
 *    replaced by zero, the final add of the accumulator).
 *
 * The loops below are the reference.  With an f32 accumulator the FMA dot and
 * the f16 and fp8 wgmma models run on the micro-kernels of dot_gemm.c instead,
 * which give the same bits (test_emu_gemm compares them); the other tensor-core
 * dots run hopper_mma below.
 */
#include "emu_internal.h"
#include "util/alloc.h"

#include <math.h>
#include <stdlib.h>

static inline float tf32_trunc(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u &= 0xffffe000u;
    memcpy(&x, &u, 4);
    return x;
}

/* cvt.rna.tf32.f32: nearest, ties away from zero */
static inline float tf32_rna(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) != 0x7f800000u) {
        u += 0x1000u;
        u &= 0xffffe000u;
    }
    memcpy(&x, &u, 4);
    return x;
}

size_t emu_dot_scratch_bytes(const emu_dot_aux *a)
{
    /* up to three decoded parts of A and of B, two accumulators, three rows, then the fast
     * paths' decoded operands */
    return sizeof(double) * (size_t)(3 * a->M * a->K + 3 * a->K * a->N + 2 * a->M * a->N + 3 * a->N) +
           64 + emu_gemm_scratch_bytes(a->M, a->N, a->K);
}

_Atomic int emu_dot_use_reference;

static int group_k(emu_ek ek)
{
    switch (ek) {
    case EK_F16:
    case EK_BF16:
        return 16;
    case EK_F32:
        return 8;
    default:
        return 32;
    }
}

typedef double v4d __attribute__((vector_size(32)));

static inline double round_out(double s, emu_ek out_ek)
{
    if (out_ek == EK_F32)
        return (double)(float)s;
    if (out_ek == EK_F16)
        return emu_h2f(emu_f2h((float)s));
    if (out_ek == EK_BF16)
        return emu_bf2f(emu_f2bf((float)s));
    return s;
}

/* acc (doubles holding values of out_ek) += A x B, rounding to out_ek once
 * per group of G products; 16 columns at a time in registers */
EMU_CLONES static void mma_rows(
    const double *A, const double *B, double *acc, int64_t M, int64_t N, int64_t K, int G,
    emu_ek out_ek, double *tmp)
{
    (void)tmp;
    for (int64_t m = 0; m < M; m++) {
        double *row = acc + m * N;
        for (int64_t k0 = 0; k0 < K; k0 += G) {
            int64_t k1 = k0 + G < K ? k0 + G : K;
            int64_t n0 = 0;
            for (; n0 + 16 <= N; n0 += 16) {
                v4d t0 = {0, 0, 0, 0}, t1 = t0, t2 = t0, t3 = t0;
                for (int64_t k = k0; k < k1; k++) {
                    double a = A[m * K + k];
                    v4d av = {a, a, a, a};
                    const double *b = B + k * N + n0;
                    v4d b0, b1, b2, b3;
                    memcpy(&b0, b, 32);
                    memcpy(&b1, b + 4, 32);
                    memcpy(&b2, b + 8, 32);
                    memcpy(&b3, b + 12, 32);
                    t0 += av * b0;
                    t1 += av * b1;
                    t2 += av * b2;
                    t3 += av * b3;
                }
                double t[16];
                memcpy(t, &t0, 32);
                memcpy(t + 4, &t1, 32);
                memcpy(t + 8, &t2, 32);
                memcpy(t + 12, &t3, 32);
                for (int j = 0; j < 16; j++)
                    row[n0 + j] = round_out(row[n0 + j] + t[j], out_ek);
            }
            for (; n0 < N; n0++) {
                double t = 0;
                for (int64_t k = k0; k < k1; k++)
                    t += A[m * K + k] * B[k * N + n0];
                row[n0] = round_out(row[n0] + t, out_ek);
            }
        }
    }
}

void emu_dot_mma_ref(const double *A, const double *B, double *acc, int64_t M, int64_t N,
                     int64_t K, int G, emu_ek out_ek)
{
    mma_rows(A, B, acc, M, N, K, G, out_ek, NULL);
}

/* decodes n elements of kind ek into doubles; tf32: truncate f32 mantissas */
static void decode(emu_ek ek, const uint8_t *p, int64_t n, double *out, bool tf32)
{
    switch (ek) {
    case EK_F16:
        for (int64_t i = 0; i < n; i++)
            out[i] = emu_h2f(((const uint16_t *)p)[i]);
        break;
    case EK_BF16:
        for (int64_t i = 0; i < n; i++)
            out[i] = emu_bf2f(((const uint16_t *)p)[i]);
        break;
    case EK_F32:
        for (int64_t i = 0; i < n; i++)
            out[i] = tf32 ? tf32_trunc(((const float *)p)[i]) : ((const float *)p)[i];
        break;
    default:
        for (int64_t i = 0; i < n; i++)
            out[i] = emu_load_f64(ek, p, i);
    }
}

/* ---- fp8 x fp8 -> f32 on Hopper (wgmma ... .f32.e4m3/e5m2, K = 32 per instruction) -------------
 *
 * One instruction computes acc' = acc + sum of its 32 products like this (fitted to the H200's
 * output of matmul_kernel/fp8_128x128x64, where it gives all 65536 results bit for bit;
 * scripts/fp8_dot_model.py scores it and its variants):
 *   emax = max(max_k (e(a_k) + e(b_k)), e(acc)), e() the binary exponent (for an fp8 operand its
 *          encoding's: subnormals and zero count as the format's minimum normal exponent);
 *   t    = sum_k trunc(a_k b_k) + trunc(acc), each term cut toward zero to a multiple of
 *          2^(emax - 13), summed exactly;
 *   acc' = t cut toward zero to 14 significant bits (as f32).
 * Triton issues the instructions k = 0, 32, 64, ... of each tt.dot in order.  With
 * maxNumImpreciseAcc <= K (Triton's needsPartialAccumulator) the instructions accumulate into a
 * zeroed partial sum that is added to the accumulator with an f32 add after every
 * maxNumImpreciseAcc products (rounded up to whole instructions) and after the last one.  The
 * fast path (emu_gemm_hopper_fp8 in dot_gemm.c) computes the same in f32 and int32. */
enum { FP8_MMA_K = 32, FP8_FRAC = 13 };

static inline bool hopper_fp8(const emu_dot_aux *x)
{
    return (x->a_ek == EK_F8E4NV || x->a_ek == EK_F8E5) &&
           (x->b_ek == EK_F8E4NV || x->b_ek == EK_F8E5) && x->c_ek == EK_F32;
}

static void fp8_exponents(emu_ek ek, const double *v, int64_t n, int32_t *e)
{
    int emin = ek == EK_F8E4NV ? -6 : -14;
    for (int64_t i = 0; i < n; i++) {
        int x = v[i] != 0 && isfinite(v[i]) ? emu_dexp(v[i]) : emin;
        e[i] = x > emin ? x : emin;
    }
}

/* one instruction on one row: p[n] <- step(p[n], a[k0:k1] . B[k0:k1][n]) for every n; a, ea are
 * the row of A and its exponents, B, eb all of B; NaN and inf propagate through the sums */
EMU_CLONES static void fp8_mma_step(
    const double *a, const int32_t *ea, const double *B, const int32_t *eb, int64_t N, int64_t k0,
    int64_t k1, double *p, int32_t *emax, double *scale, double *t)
{
    for (int64_t n = 0; n < N; n++)
        emax[n] = p[n] != 0 && isfinite(p[n]) ? emu_dexp(p[n]) : -100000;
    for (int64_t k = k0; k < k1; k++) {
        int32_t e = ea[k];
        const int32_t *ek = eb + k * N;
        for (int64_t n = 0; n < N; n++)
            emax[n] = e + ek[n] > emax[n] ? e + ek[n] : emax[n];
    }
    for (int64_t n = 0; n < N; n++) {
        scale[n] = emu_pow2(FP8_FRAC - emax[n]);
        t[n] = emu_trunc_small(p[n] * scale[n]);
    }
    for (int64_t k = k0; k < k1; k++) {
        double av = a[k];
        const double *bk = B + k * N;
        for (int64_t n = 0; n < N; n++)
            t[n] += emu_trunc_small(av * bk[n] * scale[n]);
    }
    for (int64_t n = 0; n < N; n++) {
        double v = t[n];
        if (v != 0 && isfinite(v)) {
            int sh = emu_dexp(v) - FP8_FRAC; /* keep FP8_FRAC + 1 significant bits */
            if (sh > 0)
                v = emu_trunc_small(v * emu_pow2(-sh)) * emu_pow2(sh);
            v *= emu_pow2(emax[n] - FP8_FRAC);
        }
        p[n] = (double)(float)v;
    }
}

/* acc (M x N, f32 values) += A x B by the model above; p, t, scale, emax: one row each */
static void fp8_dot(const emu_dot_aux *x, const double *A, const int32_t *ea, const double *B,
                    const int32_t *eb, double *acc, double *p, double *t, double *scale,
                    int32_t *emax)
{
    int64_t M = x->M, N = x->N, K = x->K;
    bool partial = x->max_imprecise <= K;
    for (int64_t m = 0; m < M; m++) {
        double *d = acc + m * N;
        for (int64_t n = 0; n < N; n++)
            p[n] = partial ? 0 : d[n];
        int64_t since = 0;
        for (int64_t k0 = 0; k0 < K; k0 += FP8_MMA_K) {
            int64_t k1 = k0 + FP8_MMA_K < K ? k0 + FP8_MMA_K : K;
            fp8_mma_step(A + m * K, ea + m * K, B, eb, N, k0, k1, p, emax, scale, t);
            since += FP8_MMA_K;
            if (partial && (since >= x->max_imprecise || k1 == K)) {
                for (int64_t n = 0; n < N; n++) {
                    d[n] = (double)(float)(d[n] + p[n]);
                    p[n] = 0;
                }
                since = 0;
            }
        }
        if (!partial)
            for (int64_t n = 0; n < N; n++)
                d[n] = p[n];
    }
}

void emu_dot_fp8_hopper_ref(const double *A, emu_ek a_ek, const double *B, emu_ek b_ek, double *acc,
                            int64_t M, int64_t N, int64_t K, int64_t max_imprecise)
{
    emu_dot_aux x = {.batch = 1, .M = M, .N = N, .K = K, .a_ek = a_ek, .b_ek = b_ek,
                     .c_ek = EK_F32, .max_imprecise = max_imprecise, .wgmma = true};
    int32_t *ea = ct_xcalloc((size_t)(M * K), sizeof(int32_t)), *eb = ct_xcalloc((size_t)(K * N), sizeof(int32_t));
    double *rows = ct_xcalloc((size_t)(3 * N), sizeof(double));
    int32_t *emax = ct_xcalloc((size_t)N, sizeof(int32_t));
    fp8_exponents(a_ek, A, M * K, ea);
    fp8_exponents(b_ek, B, K * N, eb);
    fp8_dot(&x, A, ea, B, eb, acc, rows, rows + N, rows + 2 * N, emax);
    free(ea);
    free(eb);
    free(rows);
    free(emax);
}

/* ---- f16 x f16 -> f32 on Hopper (wgmma ... .f32.f16.f16, K = 16 per instruction) -----------------
 *
 * One instruction computes acc' = acc + sum of its 16 products like this (fitted to the H200's
 * outputs of matmul_kernel/fp16_128x128x64 and fp16_64x64x32_relu_tail, where it gives all
 * 131072 + 27200 captured results bit for bit; scripts/f16_dot_model.py scores it and its
 * variants):
 *   emax = max(max_k (e(a_k) + e(b_k)), e(acc)), e() the binary exponent (for an f16 operand its
 *          encoding's: subnormals and zero count as -14; for the accumulator its value's);
 *   t    = sum_k trunc(a_k b_k) + trunc(acc), each term cut toward zero to a multiple of
 *          2^(emax - 25), summed exactly;
 *   acc' = t cut toward zero to 24 significant bits, as f32 (+0 when t is 0, inf past f32).
 * The same structure as the fp8 model above, with 25 fraction bits instead of 13 and a 24-bit
 * result instead of 14.  An instruction with an inf or NaN among its operands or in the
 * accumulator gives what IEEE arithmetic gives for acc + the products (NaN or an infinity).
 * Triton issues the instructions k = 0, 16, 32, ... of each tt.dot in order.  The fast path
 * (emu_gemm_hopper_f16 in dot_gemm.c) computes the same in integers. */
enum { F16_MMA_K = 16, F16_FRAC = 25 };

/* an operand's exponent (a finite value held in a double): its binary exponent, subnormals and
 * zero counting as the format's smallest normal exponent emin */
static inline int opnd_exp(double v, int emin)
{
    int e = v != 0 ? emu_dexp(v) : emin;
    return e > emin ? e : emin;
}

/* One instruction for one output: acc (a value of out_ek), n products a[k] b[k * ldb] whose
 * operand exponents are floored at emin_a and emin_b.  out_ek F32: the sum cut to 24 significant
 * bits; F16 (an f16 accumulator): the exact sum rounded to nearest f16 (measured: no cut). */
static double mma_step(double acc, const double *a, const double *b, int64_t ldb, int64_t n,
                       int emin_a, int emin_b, emu_ek out_ek)
{
    bool special = !isfinite(acc);
    double ieee = acc;
    int emax = acc != 0 && !special ? emu_dexp(acc) : -100000;
    for (int64_t k = 0; k < n; k++) {
        double x = a[k], y = b[k * ldb];
        special |= !isfinite(x) || !isfinite(y);
        ieee += x * y;
        if (!special) {
            int e = opnd_exp(x, emin_a) + opnd_exp(y, emin_b);
            emax = e > emax ? e : emax;
        }
    }
    if (special)
        return round_out(ieee, out_ek);
    /* every term is exact in double: products of operands of at most 11 significant bits, the
     * scale a power of two, the cut terms integers below 2^27 and their sum below 2^33 */
    double sc = ldexp(1.0, F16_FRAC - emax), t = trunc(acc * sc);
    for (int64_t k = 0; k < n; k++)
        t += trunc(a[k] * b[k * ldb] * sc);
    if (out_ek == EK_F32 && t != 0 && emu_dexp(t) > 23) {
        int sh = emu_dexp(t) - 23; /* keep 24 significant bits */
        t = ldexp(trunc(ldexp(t, -sh)), sh);
    }
    double v = ldexp(t, emax - F16_FRAC);
    if (out_ek == EK_F16 && v != 0) {
        /* once to nearest even f16 (not through f32: that would round twice) */
        int e = emu_dexp(v) > -14 ? emu_dexp(v) : -14;
        double q = ldexp(1.0, e - 10);
        v = nearbyint(v / q) * q;
        if (fabs(v) > 65504.0)
            v = copysign(INFINITY, v);
        return v;
    }
    return round_out(v, out_ek);
}

static double f16_mma_step(double acc, const double *a, const double *b, int64_t ldb, int64_t n)
{
    return mma_step(acc, a, b, ldb, n, -14, -14, EK_F32);
}

/* acc (M x N, values of out_ek) += A x B, one mma_step per instruction of G products in k
 * order; kw4: the k slots of an mma.sync fed fp8 operands converted to f16 (kWidth = 4 in
 * Triton's dot_op layout): in each block of 2G k, the first instruction takes the k with
 * k mod 4 < 2, the second the others (measured on the H200's mma.sync m16n8k16 captures) */
static void hopper_mma(const double *A, const double *B, double *acc, int64_t M, int64_t N, int64_t K,
                       int G, int emin_a, int emin_b, emu_ek out_ek, bool kw4)
{
    double ta[64], tb[64];
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < N; n++) {
            double v = acc[m * N + n];
            if (!kw4) {
                for (int64_t k0 = 0; k0 < K; k0 += G) {
                    int64_t k1 = k0 + G < K ? k0 + G : K;
                    v = mma_step(v, A + m * K + k0, B + k0 * N + n, N, k1 - k0, emin_a, emin_b, out_ek);
                }
            } else {
                for (int64_t k0 = 0; k0 < K; k0 += 2 * G)
                    for (int half = 0; half < 2; half++) {
                        int c = 0;
                        for (int64_t k = k0; k < k0 + 2 * G && k < K; k++)
                            if (((k % 4) < 2) == (half == 0)) {
                                ta[c] = A[m * K + k];
                                tb[c++] = B[k * N + n];
                            }
                        if (c)
                            v = mma_step(v, ta, tb, 1, c, emin_a, emin_b, out_ek);
                    }
            }
            acc[m * N + n] = v;
        }
}

/* the smallest normal exponent of a tensor-core operand type (tf32: f32's) */
static int opnd_emin(emu_ek ek)
{
    switch (ek) {
    case EK_F16:
        return -14;
    case EK_F8E4NV:
        return -6;
    case EK_F8E5:
        return -14;
    default:
        return -126;
    }
}

void emu_dot_f16_hopper_ref(const double *A, const double *B, double *acc, int64_t M, int64_t N,
                            int64_t K)
{
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < N; n++)
            for (int64_t k0 = 0; k0 < K; k0 += F16_MMA_K) {
                int64_t k1 = k0 + F16_MMA_K < K ? k0 + F16_MMA_K : K;
                acc[m * N + n] = f16_mma_step(acc[m * N + n], A + m * K + k0, B + k0 * N + n, N, k1 - k0);
            }
}

static inline bool hopper_f16(const emu_dot_aux *x)
{
    return x->a_ek == EK_F16 && x->b_ek == EK_F16 && x->c_ek == EK_F32;
}

static void nan_to_zero(double *v, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (v[i] != v[i])
            v[i] = 0;
}

/* x = hi + mid + lo in bf16 parts, as splitF32 does (truncf is RNE) */
static void split_bf16(float v, double *p0, double *p1, double *p2)
{
    float h = emu_bf2f(emu_f2bf(v));
    float r = v - h;
    float m = emu_bf2f(emu_f2bf(r));
    float r2 = r - m;
    *p0 = h;
    *p1 = m;
    *p2 = emu_bf2f(emu_f2bf(r2));
}

int emu_h_dot(emu_frame *F, const emu_ins *I)
{
    const emu_dot_aux *x = I->x.p;
    int64_t M = x->M, N = x->N, K = x->K;
    const uint8_t *Ab = F->mem + I->a, *Bb = F->mem + I->b, *Cb = F->mem + I->c;
    uint8_t *Db = F->mem + I->d;
    size_t aes = emu_ek_size(x->a_ek), bes = emu_ek_size(x->b_ek), ces = emu_ek_size(x->c_ek);
    double *da = (double *)(void *)(F->mem + x->scratch); /* 3 parts of A */
    double *db = da + 3 * M * K;                          /* 3 parts of B */
    double *acc = db + 3 * K * N;
    double *acc2 = acc + M * N;
    double *row = acc2 + M * N;
    /* the fast paths' decoded operands, 64-byte aligned */
    void *gs = (void *)(((uintptr_t)(row + 3 * N) + 63) & ~(uintptr_t)63);
    bool fast = x->c_ek == EK_F32 && !atomic_load_explicit(&emu_dot_use_reference, memory_order_relaxed);

    for (int64_t bt = 0; bt < x->batch; bt++) {
        const uint8_t *A = Ab + (size_t)(bt * M * K) * aes, *B = Bb + (size_t)(bt * K * N) * bes;
        const uint8_t *C = Cb + (size_t)(bt * M * N) * ces;
        uint8_t *D = Db + (size_t)(bt * M * N) * ces;

        /* integers: exact, wrapping in the accumulator's width */
        if (!emu_ek_is_float(x->a_ek)) {
            for (int64_t m = 0; m < M; m++)
                for (int64_t n = 0; n < N; n++) {
                    uint64_t s = (uint64_t)emu_load_i64(x->c_ek, C, m * N + n);
                    for (int64_t k = 0; k < K; k++)
                        s += (uint64_t)emu_load_i64(x->a_ek, A, m * K + k) *
                             (uint64_t)emu_load_i64(x->b_ek, B, k * N + n);
                    emu_store_i64(x->c_ek, D, m * N + n, (int64_t)s);
                }
            continue;
        }
        /* the FMA dot: sequential fused multiply-adds in k order (also CT_EMU_DOT_FAST's
         * 16- and 8-bit float operands, whose values f32 holds exactly) */
        if ((x->precision == PREC_IEEE && x->a_ek == EK_F32) || x->a_ek == EK_F64 ||
            x->c_ek == EK_F64 || x->fast) {
            if (fast && ((x->a_ek == EK_F32 && x->b_ek == EK_F32) || x->fast)) {
                if (D != C)
                    memmove(D, C, sizeof(float) * (size_t)(M * N));
                if (x->fast) {
                    emu_gemm_opnd ga = {A, x->a_ek, false}, gb = {B, x->b_ek, false};
                    emu_gemm_fma_lowp(&ga, &gb, (float *)(void *)D, M, N, K, gs);
                } else {
                    emu_gemm_fma_f32((const float *)(const void *)A,
                                     (const float *)(const void *)B, (float *)(void *)D, M, N, K,
                                     gs);
                }
                continue;
            }
            for (int64_t m = 0; m < M; m++)
                for (int64_t n = 0; n < N; n++) {
                    if (x->c_ek == EK_F64) {
                        double s = emu_load_f64(x->c_ek, C, m * N + n);
                        for (int64_t k = 0; k < K; k++)
                            s = fma(emu_load_f64(x->a_ek, A, m * K + k),
                                    emu_load_f64(x->b_ek, B, k * N + n), s);
                        emu_store_f64(x->c_ek, D, m * N + n, s);
                    } else {
                        float s = (float)emu_load_f64(x->c_ek, C, m * N + n);
                        for (int64_t k = 0; k < K; k++)
                            s = fmaf((float)emu_load_f64(x->a_ek, A, m * K + k),
                                     (float)emu_load_f64(x->b_ek, B, k * N + n), s);
                        emu_store_f64(x->c_ek, D, m * N + n, s);
                    }
                }
            continue;
        }
        int G = group_k(x->a_ek);
        bool f32in = x->a_ek == EK_F32;
        if (hopper_fp8(x) && !x->wgmma) {
            /* mma.sync: Triton converts the fp8 operands to f16 (exactly) first */
            decode(x->c_ek, C, M * N, acc, false);
            decode(x->a_ek, A, M * K, da, false);
            decode(x->b_ek, B, K * N, db, false);
            hopper_mma(da, db, acc, M, N, K, 16, -14, -14, EK_F32, true);
        } else if (hopper_fp8(x)) {
            if (fast) {
                if (D != C)
                    memmove(D, C, sizeof(float) * (size_t)(M * N));
                emu_gemm_hopper_fp8(A, x->a_ek, B, x->b_ek, (float *)(void *)D, M, N, K,
                                    x->max_imprecise, gs);
                continue;
            }
            int32_t *ea = (int32_t *)(void *)(da + M * K), *eb = (int32_t *)(void *)(db + K * N);
            decode(x->c_ek, C, M * N, acc, false);
            decode(x->a_ek, A, M * K, da, false);
            decode(x->b_ek, B, K * N, db, false);
            fp8_exponents(x->a_ek, da, M * K, ea);
            fp8_exponents(x->b_ek, db, K * N, eb);
            fp8_dot(x, da, ea, db, eb, acc, acc2, row, row + N, (int32_t *)(void *)(row + 2 * N));
        } else if (hopper_f16(x)) {
            if (fast) {
                if (D != C)
                    memmove(D, C, sizeof(float) * (size_t)(M * N));
                emu_gemm_hopper_f16((const uint16_t *)(const void *)A, (const uint16_t *)(const void *)B,
                                    (float *)(void *)D, M, N, K, gs);
                continue;
            }
            decode(x->c_ek, C, M * N, acc, false);
            decode(x->a_ek, A, M * K, da, false);
            decode(x->b_ek, B, K * N, db, false);
            emu_dot_f16_hopper_ref(da, db, acc, M, N, K);
        } else if (!f32in || x->precision == PREC_TF32) {
            /* bf16, tf32 (truncated f32), f16 into f16, fp8 into f16: the same instruction model */
            decode(x->c_ek, C, M * N, acc, false);
            decode(x->a_ek, A, M * K, da, f32in);
            decode(x->b_ek, B, K * N, db, f32in);
            hopper_mma(da, db, acc, M, N, K, G, opnd_emin(x->a_ek), opnd_emin(x->b_ek), x->c_ek, false);
        } else if (x->precision == PREC_TF32X3) {
            double *as = da + M * K, *bs = db + K * N;
            for (int64_t i = 0; i < M * K; i++) {
                float v = (float)emu_load_f64(EK_F32, A, i), big = tf32_rna(v);
                da[i] = big;
                as[i] = tf32_trunc(v - big);
            }
            for (int64_t i = 0; i < K * N; i++) {
                float v = (float)emu_load_f64(EK_F32, B, i), big = tf32_rna(v);
                db[i] = big;
                bs[i] = tf32_trunc(v - big);
            }
            for (int64_t i = 0; i < M * N; i++)
                acc2[i] = 0;
            hopper_mma(as, db, acc2, M, N, K, 8, -126, -126, EK_F32, false);
            hopper_mma(da, bs, acc2, M, N, K, 8, -126, -126, EK_F32, false);
            nan_to_zero(acc2, M * N);
            hopper_mma(da, db, acc2, M, N, K, 8, -126, -126, EK_F32, false);
            for (int64_t i = 0; i < M * N; i++)
                acc[i] = (double)(float)(acc2[i] + emu_load_f64(x->c_ek, C, i));
        } else {
            /* bf16x3 / bf16x6 (PREC_IEEE on f32 was the FMA dot above) */
            double *a0 = da, *a1 = da + M * K, *a2 = da + 2 * M * K;
            double *b0 = db, *b1 = db + K * N, *b2 = db + 2 * K * N;
            for (int64_t i = 0; i < M * K; i++)
                split_bf16((float)emu_load_f64(EK_F32, A, i), &a0[i], &a1[i], &a2[i]);
            for (int64_t i = 0; i < K * N; i++)
                split_bf16((float)emu_load_f64(EK_F32, B, i), &b0[i], &b1[i], &b2[i]);
            for (int64_t i = 0; i < M * N; i++)
                acc2[i] = 0;
            if (x->precision == PREC_BF16X6) {
                hopper_mma(a1, b1, acc2, M, N, K, 16, -126, -126, EK_F32, false);
                hopper_mma(a2, b0, acc2, M, N, K, 16, -126, -126, EK_F32, false);
                hopper_mma(a0, b2, acc2, M, N, K, 16, -126, -126, EK_F32, false);
            }
            hopper_mma(a1, b0, acc2, M, N, K, 16, -126, -126, EK_F32, false);
            hopper_mma(a0, b1, acc2, M, N, K, 16, -126, -126, EK_F32, false);
            nan_to_zero(acc2, M * N);
            hopper_mma(a0, b0, acc2, M, N, K, 16, -126, -126, EK_F32, false);
            for (int64_t i = 0; i < M * N; i++)
                acc[i] = (double)(float)(acc2[i] + emu_load_f64(x->c_ek, C, i));
        }
        if (x->c_ek == EK_F32)
            for (int64_t i = 0; i < M * N; i++)
                ((float *)D)[i] = (float)acc[i];
        else
            for (int64_t i = 0; i < M * N; i++)
                emu_store_f64(x->c_ek, D, i, acc[i]);
    }
    return EMU_NEXT;
}
