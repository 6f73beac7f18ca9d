/*
 * reduce.c - tt.reduce and tt.scan, in the order the GPU combines.
 *
 * The combine region runs on whole batches: its block arguments are
 * batched slots filled with many (accumulator, element) pairs at once, so
 * a reduction of N elements costs about log2(N) region executions, not N.
 *
 * Order (docs/emulator.md): Triton lowers a reduction over an axis as
 *   1. each thread folds the elements it holds, in register order:
 *      acc = combine(acc, x);
 *   2. the lanes of a warp fold in halves with shuffles (xor N, N = 16..1):
 *      acc[l] = combine(acc[l], acc[l + N]);
 *   3. the warps fold their lane-0 results the same way through shared memory.
 * The emulator does exactly this for the operand's layout: the one read
 * from Triton's TTGIR (a blocked layout, or the MMA layout of a dot result,
 * whose registers are mapped through regmap), else Triton's default blocked
 * layout for the shape and num_warps (one element per thread per
 * repetition, threads then warps along the fastest dimension).
 * Scans follow ScanOpToLLVM for the same layout (any contiguous elements
 * per thread, see emu_h_scan).
 *
 * A sum whose input is a mulf in the same block is fused by LLVM in step 1
 * (acc = fma(x0, y0, x1 * y1), then acc = fma(x, y, acc)); that is modelled
 * for f32 and f64.
 */
#include "emu_internal.h"

#define RESTRICT __restrict__

#include <math.h>

int emu_run_region(emu_frame *F, const emu_region *r, int64_t batch)
{
    int64_t saved_batch = F->batch;
    int32_t saved_pc = F->pc;
    F->batch = batch;
    F->no_yield++; /* a region cannot be left halfway */
    int rc = emu_exec(F, r->pc);
    F->no_yield--;
    F->batch = saved_batch;
    F->pc = saved_pc;
    return rc == EMU_RET ? EMU_NEXT : EMU_STOP;
}

/* d[0..n) = combine(a[0..n), b[0..n)) for frame arrays (k = 1: one operand);
 * the fast path calls the region's single op directly, otherwise the pairs go
 * through the region's batched slots. */
static int combine1(emu_frame *F, const emu_region *rg, uint32_t d, uint32_t a, uint32_t b,
                    int64_t n, size_t es)
{
    if (n <= 0)
        return EMU_NEXT;
    if (rg->fast) {
        emu_ins I = rg->fast_ins;
        I.d = d;
        I.a = a;
        I.b = b;
        I.n = n;
        return I.fn(F, &I) == EMU_NEXT ? EMU_NEXT : EMU_STOP;
    }
    if (a != rg->arg_off[0])
        memmove(F->mem + rg->arg_off[0], F->mem + a, (size_t)n * es);
    if (b != rg->arg_off[1])
        memmove(F->mem + rg->arg_off[1], F->mem + b, (size_t)n * es);
    if (emu_run_region(F, rg, n) != EMU_NEXT)
        return EMU_STOP;
    if (d != rg->res_off[0])
        memmove(F->mem + d, F->mem + rg->res_off[0], (size_t)n * es);
    return EMU_NEXT;
}

static inline int64_t reg_axis(const emu_reduce_aux *x, int t, int r)
{
    if (x->regmap)
        return x->regmap[(int64_t)t * x->nreg + r];
    int s = x->spt;
    return (int64_t)(r / s) * s * x->nthr + (int64_t)t * s + r % s;
}

/* dst[o][t][i] = src[o][reg_axis(t, r)][i] */
static void gather_reg(const emu_reduce_aux *x, uint8_t *dst, const uint8_t *src, size_t es, int r)
{
    int T = x->nthr;
    size_t row = (size_t)x->inner * es;
    for (int64_t o = 0; o < x->outer; o++) {
        if (x->spt == 1 && !x->regmap) {
            memcpy(dst + (size_t)(o * T) * row, src + (size_t)(o * x->len + reg_axis(x, 0, r)) * row,
                   (size_t)T * row);
            continue;
        }
        for (int t = 0; t < T; t++)
            memcpy(dst + (size_t)(o * T + t) * row, src + (size_t)(o * x->len + reg_axis(x, t, r)) * row,
                   row);
    }
}

/* fused_phase1 where thread t's register r is axis index r T + t (one element per thread and
 * register, no register map): for each r the (t, i) positions are contiguous, so each step is
 * one vectorizable loop (fmaf is the fused operation in every clone) */
#define FUSED_ROWS(NAME, T_, FMA)                                                                  \
    EMU_CLONES static void NAME(T_ *acc, const T_ *fa, const T_ *fb, int64_t outer, int64_t len,   \
                                int64_t blk, int nreg, int64_t inner)                              \
    {                                                                                              \
        for (int64_t o = 0; o < outer; o++) {                                                      \
            T_ *RESTRICT ac = acc + o * blk;                                                       \
            const T_ *a = fa + o * len * inner, *b = fb + o * len * inner;                         \
            if (nreg == 1) {                                                                       \
                for (int64_t k = 0; k < blk; k++)                                                  \
                    ac[k] = a[k] * b[k];                                                           \
                continue;                                                                          \
            }                                                                                      \
            for (int64_t k = 0; k < blk; k++)                                                      \
                ac[k] = FMA(a[k], b[k], a[blk + k] * b[blk + k]);                                  \
            for (int r = 2; r < nreg; r++) {                                                       \
                const T_ *ar = a + r * blk, *br = b + r * blk;                                     \
                for (int64_t k = 0; k < blk; k++)                                                  \
                    ac[k] = FMA(ar[k], br[k], ac[k]);                                              \
            }                                                                                      \
        }                                                                                          \
    }
FUSED_ROWS(fused_rows_f32, float, fmaf)
FUSED_ROWS(fused_rows_f64, double, fma)
#undef FUSED_ROWS

static int fused_phase1(emu_frame *F, const emu_reduce_aux *x, uint8_t *acc)
{
    int T = x->nthr;
    if (x->spt == 1 && !x->regmap && (int64_t)T * x->nreg <= x->len) {
        int64_t blk = (int64_t)T * x->inner;
        if (x->ek[0] == EK_F32)
            fused_rows_f32((float *)(void *)acc, SLOT(F, x->fa, float), SLOT(F, x->fb, float), x->outer,
                           x->len, blk, x->nreg, x->inner);
        else
            fused_rows_f64((double *)(void *)acc, SLOT(F, x->fa, double), SLOT(F, x->fb, double),
                           x->outer, x->len, blk, x->nreg, x->inner);
        return EMU_NEXT;
    }
    for (int64_t o = 0; o < x->outer; o++)
        for (int t = 0; t < T; t++)
            for (int64_t i = 0; i < x->inner; i++) {
                size_t ai = (size_t)((o * T + t) * x->inner + i);
                /* acc = x0 * y0; acc + x1 * y1 is (fadd (fmul x0 y0) (fmul x1 y1)), which
                 * LLVM contracts on its left operand: fma(x0, y0, x1 * y1); then
                 * fma(xr, yr, acc) */
                int64_t s0 = (o * x->len + reg_axis(x, t, 0)) * x->inner + i;
                if (x->ek[0] == EK_F32) {
                    float a0 = SLOT(F, x->fa, float)[s0], b0 = SLOT(F, x->fb, float)[s0];
                    float *ac = (float *)acc + ai;
                    for (int r = 1; r < x->nreg; r++) {
                        int64_t s = (o * x->len + reg_axis(x, t, r)) * x->inner + i;
                        float a = SLOT(F, x->fa, float)[s], b = SLOT(F, x->fb, float)[s];
                        *ac = r == 1 ? fmaf(a0, b0, a * b) : fmaf(a, b, *ac);
                    }
                    if (x->nreg == 1)
                        *ac = a0 * b0;
                } else {
                    double a0 = SLOT(F, x->fa, double)[s0], b0 = SLOT(F, x->fb, double)[s0];
                    double *ac = (double *)acc + ai;
                    for (int r = 1; r < x->nreg; r++) {
                        int64_t s = (o * x->len + reg_axis(x, t, r)) * x->inner + i;
                        double a = SLOT(F, x->fa, double)[s], b = SLOT(F, x->fb, double)[s];
                        *ac = r == 1 ? fma(a0, b0, a * b) : fma(a, b, *ac);
                    }
                    if (x->nreg == 1)
                        *ac = a0 * b0;
                }
            }
    return EMU_NEXT;
}

/* Phase 1 for operand j into acc[o][t][i]: the first register, then one
 * combine per further register, batched over threads and positions. */
static int phase1(emu_frame *F, const emu_reduce_aux *x)
{
    const emu_region *rg = &x->region;
    int k = x->k, T = x->nthr;
    int64_t P = x->outer * x->inner, TI = (int64_t)T * x->inner;
    for (int j = 0; j < k; j++)
        gather_reg(x, F->mem + x->acc_off[j], F->mem + x->in_off[j], x->esize[j], 0);
    if (x->nreg < 2)
        return EMU_NEXT;
    if (k == 1 && x->outer == 1 && x->spt == 1 && !x->regmap) {
        /* contiguous: combine straight from the input, ping-ponging acc and res */
        size_t es = x->esize[0];
        uint32_t cur = x->acc_off[0], other = rg->res_off[0];
        for (int r = 1; r < x->nreg; r++) {
            uint32_t src = x->in_off[0] + (uint32_t)((size_t)(r * TI) * es);
            if (combine1(F, rg, other, cur, src, TI, es) != EMU_NEXT)
                return EMU_STOP;
            uint32_t t = cur;
            cur = other;
            other = t;
        }
        if (cur != x->acc_off[0])
            memcpy(F->mem + x->acc_off[0], F->mem + cur, (size_t)TI * es);
        return EMU_NEXT;
    }
    for (int r = 1; r < x->nreg; r++) {
        for (int j = 0; j < k; j++) {
            size_t es = x->esize[j];
            memcpy(F->mem + rg->arg_off[j], F->mem + x->acc_off[j], (size_t)(P * T) * es);
            gather_reg(x, F->mem + rg->arg_off[k + j], F->mem + x->in_off[j], es, r);
        }
        if (emu_run_region(F, rg, P * T) != EMU_NEXT)
            return EMU_STOP;
        for (int j = 0; j < k; j++)
            memcpy(F->mem + x->acc_off[j], F->mem + rg->res_off[j], (size_t)(P * T) * x->esize[j]);
    }
    return EMU_NEXT;
}

/* Halving steps over `span` threads spaced `stride` apart, inside groups of
 * `gsize` threads (lanes: stride 1 within each warp; warps: stride lanes). */
/* memcpy of the halving steps' small rows (a position or a few: one element per thread of a
 * 2-D reduction along its rows) without a call */
static inline void copy_small(uint8_t *d, const uint8_t *s, size_t n)
{
    switch (n) {
    case 4:
        memcpy(d, s, 4);
        break;
    case 8:
        memcpy(d, s, 8);
        break;
    case 16:
        memcpy(d, s, 16);
        break;
    case 32:
        memcpy(d, s, 32);
        break;
    case 64:
        memcpy(d, s, 64);
        break;
    default:
        memcpy(d, s, n);
    }
}

static int halve(emu_frame *F, const emu_reduce_aux *x, int span, int stride, int groups,
                 int gstride)
{
    const emu_region *rg = &x->region;
    int k = x->k, T = x->nthr;
    int64_t inner = x->inner;
    for (int N = span / 2; N >= 1; N /= 2) {
        int64_t nb = 0;
        /* pairs (t0, t1): t0 = g * gstride + l * stride, t1 = t0 + N * stride, l < N */
        for (int j = 0; j < k; j++) {
            size_t es = x->esize[j], row = (size_t)inner * es;
            uint8_t *acc = F->mem + x->acc_off[j];
            uint8_t *A = F->mem + rg->arg_off[j], *C = F->mem + rg->arg_off[k + j];
            nb = 0;
            for (int64_t o = 0; o < x->outer; o++)
                for (int g = 0; g < groups; g++) {
                    int t0 = g * gstride;
                    if (stride == 1) {
                        copy_small(A + nb * row, acc + (size_t)(o * T + t0) * row, (size_t)N * row);
                        copy_small(C + nb * row, acc + (size_t)(o * T + t0 + N) * row, (size_t)N * row);
                        nb += N;
                    } else {
                        for (int l = 0; l < N; l++, nb++) {
                            copy_small(A + nb * row, acc + (size_t)(o * T + t0 + l * stride) * row, row);
                            copy_small(C + nb * row,
                                   acc + (size_t)(o * T + t0 + (l + N) * stride) * row, row);
                        }
                    }
                }
        }
        if (k == 1) {
            if (combine1(F, rg, rg->res_off[0], rg->arg_off[0], rg->arg_off[1], nb * inner,
                         x->esize[0]) != EMU_NEXT)
                return EMU_STOP;
        } else if (emu_run_region(F, rg, nb * inner) != EMU_NEXT) {
            return EMU_STOP;
        }
        for (int j = 0; j < k; j++) {
            size_t es = x->esize[j], row = (size_t)inner * es;
            uint8_t *acc = F->mem + x->acc_off[j], *R = F->mem + rg->res_off[j];
            nb = 0;
            for (int64_t o = 0; o < x->outer; o++)
                for (int g = 0; g < groups; g++) {
                    int t0 = g * gstride;
                    if (stride == 1) {
                        copy_small(acc + (size_t)(o * T + t0) * row, R + nb * row, (size_t)N * row);
                        nb += N;
                    } else {
                        for (int l = 0; l < N; l++, nb++)
                            copy_small(acc + (size_t)(o * T + t0 + l * stride) * row, R + nb * row, row);
                    }
                }
        }
    }
    return EMU_NEXT;
}

/* ---- order-free integer combines ---------------------------------------------------- */

/* d[i * ds] = op(d[i * ds], s[i * ss_]) for i < n, an ASSOC integer op (x->assoc); strides
 * in elements */
#define ASSOC_OPS(T, U, DI, SI)                                                                    \
    do {                                                                                           \
        T *dd = (T *)(void *)d;                                                                    \
        const T *ss = (const T *)(const void *)s;                                                  \
        switch (code) {                                                                            \
        case CT_OP_ARITH_ADDI:                                                                     \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] = (T)((U)dd[DI] + (U)ss[SI]);                                               \
            break;                                                                                 \
        case CT_OP_ARITH_MULI:                                                                     \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] = (T)((U)dd[DI] * (U)ss[SI]);                                               \
            break;                                                                                 \
        case CT_OP_ARITH_ANDI:                                                                     \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] &= ss[SI];                                                                  \
            break;                                                                                 \
        case CT_OP_ARITH_ORI:                                                                      \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] |= ss[SI];                                                                  \
            break;                                                                                 \
        case CT_OP_ARITH_XORI:                                                                     \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] ^= ss[SI];                                                                  \
            break;                                                                                 \
        case CT_OP_ARITH_MAXSI:                                                                    \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] = ss[SI] > dd[DI] ? ss[SI] : dd[DI];                                        \
            break;                                                                                 \
        case CT_OP_ARITH_MINSI:                                                                    \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] = ss[SI] < dd[DI] ? ss[SI] : dd[DI];                                        \
            break;                                                                                 \
        case CT_OP_ARITH_MAXUI:                                                                    \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] = (U)ss[SI] > (U)dd[DI] ? ss[SI] : dd[DI];                                  \
            break;                                                                                 \
        case CT_OP_ARITH_MINUI:                                                                    \
            for (int64_t i = 0; i < n; i++)                                                        \
                dd[DI] = (U)ss[SI] < (U)dd[DI] ? ss[SI] : dd[DI];                                  \
            break;                                                                                 \
        default:                                                                                   \
            break;                                                                                 \
        }                                                                                          \
    } while (0)
#define ASSOC_LOOP(T, U)                                                                           \
    do {                                                                                           \
        if (ds == 1 && ss_ == 1)                                                                   \
            ASSOC_OPS(T, U, i, i);                                                                 \
        else                                                                                       \
            ASSOC_OPS(T, U, i * ds, i * ss_);                                                      \
    } while (0)

static void assoc_combine(int code, emu_ek ek, uint8_t *d, int64_t ds, const uint8_t *s, int64_t ss_,
                          int64_t n)
{
    switch (ek) {
    case EK_I1:
        ASSOC_LOOP(uint8_t, uint8_t);
        for (int64_t i = 0; i < n; i++)
            d[i * ds] &= 1; /* i1 arithmetic wraps at one bit: add is xor, mul is and */
        break;
    case EK_I8:
        ASSOC_LOOP(int8_t, uint8_t);
        break;
    case EK_I16:
        ASSOC_LOOP(int16_t, uint16_t);
        break;
    case EK_I32:
        ASSOC_LOOP(int32_t, uint32_t);
        break;
    default:
        ASSOC_LOOP(int64_t, uint64_t);
        break;
    }
}
#undef ASSOC_LOOP
#undef ASSOC_OPS

/* The whole reduction or scan of one ASSOC op on one element type, with the op's switch outside
 * the loops (the loops vectorize).  in/out [outer, len, inner]; the axis is len.
 *   reduce: out[o][i] = in[o][0][i] op .. op in[o][len-1][i]
 *   scan:   out[o][l][i] = in[o][0][i] op .. op in[o][l][i] (from the end when reversed),
 *           computed in place in out (a copy of in).
 * A row (inner == 1) is folded along its own contiguous elements. */
#define ASSOC_EACH(T, U, BODY)                                                                     \
    do {                                                                                           \
        switch (code) {                                                                            \
        case CT_OP_ARITH_ADDI:                                                                     \
            BODY(T, (T)((U)acc + (U)b));                                                           \
            break;                                                                                 \
        case CT_OP_ARITH_MULI:                                                                     \
            BODY(T, (T)((U)acc * (U)b));                                                           \
            break;                                                                                 \
        case CT_OP_ARITH_ANDI:                                                                     \
            BODY(T, (T)(acc & b));                                                                 \
            break;                                                                                 \
        case CT_OP_ARITH_ORI:                                                                      \
            BODY(T, (T)(acc | b));                                                                 \
            break;                                                                                 \
        case CT_OP_ARITH_XORI:                                                                     \
            BODY(T, (T)(acc ^ b));                                                                 \
            break;                                                                                 \
        case CT_OP_ARITH_MAXSI:                                                                    \
            BODY(T, b > acc ? b : acc);                                                            \
            break;                                                                                 \
        case CT_OP_ARITH_MINSI:                                                                    \
            BODY(T, b < acc ? b : acc);                                                            \
            break;                                                                                 \
        case CT_OP_ARITH_MAXUI:                                                                    \
            BODY(T, (U)b > (U)acc ? b : acc);                                                      \
            break;                                                                                 \
        case CT_OP_ARITH_MINUI:                                                                    \
            BODY(T, (U)b < (U)acc ? b : acc);                                                      \
            break;                                                                                 \
        default:                                                                                   \
            break;                                                                                 \
        }                                                                                          \
    } while (0)

#define REDUCE_ROWS(T, EXPR, LEN)                                                                  \
    do {                                                                                           \
    for (int64_t o = 0; o < outer; o++) {                                                          \
        const T *r = in + o * (LEN);                                                               \
        T acc = r[0];                                                                              \
        for (int64_t l = 1; l < (LEN); l++) {                                                      \
            T b = r[l];                                                                            \
            acc = EXPR;                                                                            \
        }                                                                                          \
        out[o] = acc;                                                                              \
    }                                                                                              \
    } while (0)

#define REDUCE_BODY(T, EXPR)                                                                       \
    do {                                                                                           \
        const T *in = (const T *)(const void *)in_;                                               \
        T *out = (T *)(void *)out_;                                                                \
        if (inner == 1) {                                                                          \
            /* short rows of a constant length unroll */                                          \
            if (len == 16)                                                                         \
                REDUCE_ROWS(T, EXPR, 16);                                                          \
            else if (len == 8)                                                                     \
                REDUCE_ROWS(T, EXPR, 8);                                                           \
            else if (len == 4)                                                                     \
                REDUCE_ROWS(T, EXPR, 4);                                                           \
            else if (len == 32)                                                                    \
                REDUCE_ROWS(T, EXPR, 32);                                                          \
            else                                                                                   \
                REDUCE_ROWS(T, EXPR, len);                                                         \
        } else {                                                                                   \
            /* 64 bytes of columns at a time, held in registers down the axis */                   \
            enum { BLK = 64 / sizeof(T) };                                                         \
            for (int64_t o = 0; o < outer; o++) {                                                  \
                const T *src = in + o * len * inner;                                               \
                T *dst = out + o * inner;                                                          \
                int64_t i0 = 0;                                                                    \
                for (; i0 + BLK <= inner; i0 += BLK) {                                             \
                    T a[BLK];                                                                      \
                    memcpy(a, src + i0, sizeof a);                                                 \
                    for (int64_t l = 1; l < len; l++) {                                            \
                        const T *sl = src + l * inner + i0;                                        \
                        for (int j = 0; j < BLK; j++) {                                            \
                            T acc = a[j], b = sl[j];                                               \
                            a[j] = EXPR;                                                           \
                        }                                                                          \
                    }                                                                              \
                    memcpy(dst + i0, a, sizeof a);                                                 \
                }                                                                                  \
                if (i0 < inner) {                                                                  \
                    memcpy(dst + i0, src + i0, sizeof(T) * (size_t)(inner - i0));                  \
                    for (int64_t l = 1; l < len; l++) {                                            \
                        const T *sl = src + l * inner;                                             \
                        for (int64_t i = i0; i < inner; i++) {                                     \
                            T acc = dst[i], b = sl[i];                                             \
                            dst[i] = EXPR;                                                         \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define SCAN_BODY(T, EXPR)                                                                         \
    do {                                                                                           \
        T *v = (T *)(void *)out_;                                                                  \
        if (inner == 1) {                                                                          \
            for (int64_t o = 0; o < outer; o++) {                                                  \
                T *r = v + o * len;                                                                \
                if (reverse) {                                                                     \
                    for (int64_t l = len - 2; l >= 0; l--) {                                       \
                        T acc = r[l], b = r[l + 1];                                                \
                        r[l] = EXPR;                                                               \
                    }                                                                              \
                } else {                                                                           \
                    for (int64_t l = 1; l < len; l++) {                                            \
                        T acc = r[l], b = r[l - 1];                                                \
                        r[l] = EXPR;                                                               \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        } else {                                                                                   \
            enum { BLK = 64 / sizeof(T) };                                                         \
            for (int64_t o = 0; o < outer; o++) {                                                  \
                T *g = v + o * len * inner;                                                        \
                int64_t i0 = 0;                                                                    \
                /* 64 bytes of columns at a time, the running value in registers */               \
                for (; i0 + BLK <= inner; i0 += BLK) {                                             \
                    T p[BLK];                                                                      \
                    memcpy(p, g + (reverse ? len - 1 : 0) * inner + i0, sizeof p);                 \
                    for (int64_t l = 1; l < len; l++) {                                            \
                        T *c = g + (reverse ? len - 1 - l : l) * inner + i0;                       \
                        for (int j = 0; j < BLK; j++) {                                            \
                            T acc = c[j], b = p[j];                                                \
                            p[j] = EXPR;                                                           \
                        }                                                                          \
                        memcpy(c, p, sizeof p);                                                    \
                    }                                                                              \
                }                                                                                  \
                if (i0 == inner)                                                                   \
                    continue;                                                                      \
                for (int64_t l = 1; l < len; l++) {                                               \
                    int64_t cur = reverse ? len - 1 - l : l, prev = reverse ? cur + 1 : cur - 1;   \
                    T *c = g + cur * inner;                                                        \
                    const T *p = g + prev * inner;                                                 \
                    for (int64_t i = i0; i < inner; i++) {                                         \
                        T acc = c[i], b = p[i];                                                    \
                        c[i] = EXPR;                                                               \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

EMU_CLONES static void assoc_reduce_typed(int code, emu_ek ek, uint8_t *out_, const uint8_t *in_,
                               int64_t outer, int64_t len, int64_t inner)
{
    switch (ek) {
    case EK_I8:
        ASSOC_EACH(int8_t, uint8_t, REDUCE_BODY);
        break;
    case EK_I16:
        ASSOC_EACH(int16_t, uint16_t, REDUCE_BODY);
        break;
    case EK_I32:
        ASSOC_EACH(int32_t, uint32_t, REDUCE_BODY);
        break;
    default:
        ASSOC_EACH(int64_t, uint64_t, REDUCE_BODY);
        break;
    }
}

EMU_CLONES static void assoc_scan_typed(int code, emu_ek ek, uint8_t *out_, int64_t outer, int64_t len,
                             int64_t inner, bool reverse)
{
    switch (ek) {
    case EK_I8:
        ASSOC_EACH(int8_t, uint8_t, SCAN_BODY);
        break;
    case EK_I16:
        ASSOC_EACH(int16_t, uint16_t, SCAN_BODY);
        break;
    case EK_I32:
        ASSOC_EACH(int32_t, uint32_t, SCAN_BODY);
        break;
    default:
        ASSOC_EACH(int64_t, uint64_t, SCAN_BODY);
        break;
    }
}
#undef ASSOC_EACH
#undef REDUCE_BODY
#undef REDUCE_ROWS
#undef SCAN_BODY

/* out[o][i] = in[o][0][i] op in[o][1][i] op ... */
static void assoc_reduce(emu_frame *F, const emu_reduce_aux *x)
{
    size_t es = x->esize[0], row = (size_t)x->inner * es;
    const uint8_t *in = F->mem + x->in_off[0];
    uint8_t *out = F->mem + x->out_off[0];
    int64_t len = x->len;
    if (x->ek[0] != EK_I1) {
        assoc_reduce_typed(x->assoc, x->ek[0], out, in, x->outer, len, x->inner);
        return;
    }
    if (x->inner == 1) {
        /* a contiguous axis: all rows at once, strided by the axis */
        for (int64_t o = 0; o < x->outer; o++)
            memcpy(out + (size_t)o * es, in + (size_t)(o * len) * es, es);
        for (int64_t l = 1; l < len; l++)
            assoc_combine(x->assoc, x->ek[0], out, 1, in + (size_t)l * es, len, x->outer);
        return;
    }
    for (int64_t o = 0; o < x->outer; o++) {
        const uint8_t *src = in + (size_t)(o * len) * row;
        uint8_t *dst = out + (size_t)o * row;
        memcpy(dst, src, row);
        for (int64_t l = 1; l < len; l++)
            assoc_combine(x->assoc, x->ek[0], dst, 1, src + (size_t)l * row, 1, x->inner);
    }
}

/* out[o][l][i] = in[o][0][i] op .. op in[o][l][i] (from the end when reversed) */
static void assoc_scan(emu_frame *F, const emu_reduce_aux *x)
{
    size_t es = x->esize[0], row = (size_t)x->inner * es;
    uint8_t *out = F->mem + x->out_off[0];
    int64_t len = x->len;
    memcpy(out, F->mem + x->in_off[0], (size_t)(x->outer * len) * row);
    if (x->ek[0] != EK_I1) {
        assoc_scan_typed(x->assoc, x->ek[0], out, x->outer, len, x->inner, x->reverse);
        return;
    }
    /* with one row of positions per axis index (inner == 1) all rows go at once */
    int64_t groups = x->inner == 1 ? 1 : x->outer, n = x->inner == 1 ? x->outer : x->inner;
    int64_t stride = x->inner == 1 ? len : 1;
    for (int64_t o = 0; o < groups; o++) {
        uint8_t *v = out + (size_t)(o * len) * row;
        for (int64_t l = 1; l < len; l++) {
            int64_t cur = x->reverse ? len - 1 - l : l, prev = x->reverse ? cur + 1 : cur - 1;
            assoc_combine(x->assoc, x->ek[0], v + (size_t)cur * row, stride, v + (size_t)prev * row,
                          stride, n);
        }
    }
}

int emu_h_reduce(emu_frame *F, const emu_ins *I)
{
    const emu_reduce_aux *x = I->x.p;
    if (x->assoc) {
        assoc_reduce(F, x);
        return EMU_NEXT;
    }
    /* 1. within threads */
    if (x->fuse)
        fused_phase1(F, x, F->mem + x->acc_off[0]);
    else if (phase1(F, x) != EMU_NEXT)
        return EMU_STOP;
    /* 2. lanes of each warp fold in halves, 3. then the warps */
    if (halve(F, x, x->lanes, 1, x->warps, x->lanes) != EMU_NEXT)
        return EMU_STOP;
    if (halve(F, x, x->warps, x->lanes, 1, 0) != EMU_NEXT)
        return EMU_STOP;
    int64_t T = x->nthr;
    for (int j = 0; j < x->k; j++) {
        size_t row = (size_t)x->inner * x->esize[j];
        for (int64_t o = 0; o < x->outer; o++)
            memcpy(F->mem + x->out_off[j] + (size_t)o * row,
                   F->mem + x->acc_off[j] + (size_t)(o * T) * row, row);
    }
    return EMU_NEXT;
}

/* ---- scans ------------------------------------------------------------------------ */

/* reverse the axis of a [outer, len, inner] array in place */
static void reverse_axis(uint8_t *v, const emu_reduce_aux *x, size_t es)
{
    uint8_t tmp[16];
    for (int64_t o = 0; o < x->outer; o++)
        for (int64_t a = 0, b = x->len - 1; a < b; a++, b--)
            for (int64_t i = 0; i < x->inner; i++) {
                uint8_t *pa = v + (size_t)((o * x->len + a) * x->inner + i) * es;
                uint8_t *pb = v + (size_t)((o * x->len + b) * x->inner + i) * es;
                memcpy(tmp, pa, es);
                memcpy(pa, pb, es);
                memcpy(pb, tmp, es);
            }
}

/* element (o, J, i) of a [outer, len, inner] array, J along the axis */
static inline uint8_t *at(uint8_t *v, const emu_reduce_aux *x, size_t es, int64_t o, int64_t J,
                          int64_t i)
{
    return v + (size_t)((o * x->len + J) * x->inner + i) * es;
}

/* copy the P positions of axis index J of v into dst (contiguous), or back */
static void get_col(uint8_t *dst, uint8_t *v, const emu_reduce_aux *x, size_t es, int64_t J)
{
    size_t row = (size_t)x->inner * es;
    for (int64_t o = 0; o < x->outer; o++)
        memcpy(dst + (size_t)o * row, at(v, x, es, o, J, 0), row);
}

static void put_col(uint8_t *v, const uint8_t *src, const emu_reduce_aux *x, size_t es, int64_t J)
{
    size_t row = (size_t)x->inner * es;
    for (int64_t o = 0; o < x->outer; o++)
        memcpy(at(v, x, es, o, J, 0), src + (size_t)o * row, row);
}

/* An index into the scan's pair lists: >= 0 an axis index of the output
 * array, < 0 the partial prefix excl[-1 - idx] (acc scratch, P elements each). */
static void get_ref(uint8_t *dst, emu_frame *F, const emu_reduce_aux *x, int j, int64_t ref)
{
    size_t es = x->esize[j], chunk = (size_t)(x->outer * x->inner) * es;
    if (ref >= 0)
        get_col(dst, F->mem + x->out_off[j], x, es, ref);
    else
        memcpy(dst, F->mem + x->acc_off[j] + (size_t)(-1 - ref) * chunk, chunk);
}

static void put_ref(emu_frame *F, const emu_reduce_aux *x, int j, int64_t ref, const uint8_t *src)
{
    size_t es = x->esize[j], chunk = (size_t)(x->outer * x->inner) * es;
    if (ref >= 0)
        put_col(F->mem + x->out_off[j], src, x, es, ref);
    else
        memcpy(F->mem + x->acc_off[j] + (size_t)(-1 - ref) * chunk, src, chunk);
}

/* one step of n independent combines d[i] = combine(a[i], b[i]), all read before any write */
static int scan_step(emu_frame *F, const emu_reduce_aux *x, int64_t n, const int64_t *a,
                     const int64_t *b, const int64_t *d)
{
    if (n == 0)
        return EMU_NEXT;
    const emu_region *rg = &x->region;
    int k = x->k;
    int64_t P = x->outer * x->inner;
    for (int64_t i = 0; i < n; i++)
        for (int j = 0; j < k; j++) {
            size_t chunk = (size_t)P * x->esize[j];
            get_ref(F->mem + rg->arg_off[j] + (size_t)i * chunk, F, x, j, a[i]);
            get_ref(F->mem + rg->arg_off[k + j] + (size_t)i * chunk, F, x, j, b[i]);
        }
    if (emu_run_region(F, rg, n * P) != EMU_NEXT)
        return EMU_STOP;
    for (int64_t i = 0; i < n; i++)
        for (int j = 0; j < k; j++) {
            size_t chunk = (size_t)P * x->esize[j];
            put_ref(F, x, j, d[i], F->mem + rg->res_off[j] + (size_t)i * chunk);
        }
    return EMU_NEXT;
}

/*
 * ScanOpToLLVM for a blocked layout, along the axis: thread (lane l, warp w)
 * holds, in block (repetition) b, the s contiguous elements
 * J = (g * L + l) * s + e, g = b * W + w, e < s.  A reverse scan flips the
 * registers, the lanes and the warps (flipSrcValues), which is the forward
 * scan of the reversed axis.  The steps:
 *   1. each thread scans its chunk: v[e] = combine(v[e-1], v[e]);
 *   2. Hillis-Steele over the lanes on each chunk's last element:
 *      v[l] = combine(v[l - i], v[l]) for l >= i, i = 1, 2, .., L/2;
 *   3. the prefix before group g, from the last lanes' totals t:
 *      excl[1] = t[0], excl[g] = combine(excl[g-1], t[g-1]);
 *   4. the last elements of groups g >= 1: v = combine(excl[g], v);
 *   5. the other elements of each chunk: v[e] = combine(p, v[e]), p the
 *      previous lane's final last element, or excl[g] on lane 0 (nothing for
 *      the first thread of group 0).  With one lane and one warp along the
 *      axis (AddPartialReduceOneWarp with scanDim 1) Triton 3.6 combines the
 *      thread's own final last element there instead, and so does this.
 */
int emu_h_scan(emu_frame *F, const emu_ins *I)
{
    const emu_reduce_aux *x = I->x.p;
    if (x->assoc) {
        assoc_scan(F, x);
        return EMU_NEXT;
    }
    int k = x->k;
    int64_t s = x->spt, L = x->lanes, W = x->warps;
    int64_t B = x->len / (s * L * W);
    if (B < 1)
        B = 1;
    int64_t G = B * W;
    for (int j = 0; j < k; j++) {
        memcpy(F->mem + x->out_off[j], F->mem + x->in_off[j],
               (size_t)(x->outer * x->len * x->inner) * x->esize[j]);
        if (x->reverse)
            reverse_axis(F->mem + x->out_off[j], x, x->esize[j]);
    }
    /* the pair lists: frame scratch of 3 * len indices (G <= len) */
    int64_t *ia = (int64_t *)(void *)(F->mem + x->idx_off);
    int64_t *ib = ia + x->len, *id = ib + x->len;
#define COL(g, l, e) ((((int64_t)(g) * L + (l)) * s) + (e))
#define EXCL(g) (-1 - (int64_t)(g))
#define STEP(n)                                                                                    \
    do {                                                                                           \
        if (scan_step(F, x, (n), ia, ib, id) != EMU_NEXT)                                          \
            return EMU_STOP;                                                                       \
    } while (0)
    int64_t n;
    /* 1. within each thread's chunk */
    for (int64_t e = 1; e < s; e++) {
        n = 0;
        for (int64_t t = 0; t < G * L; t++, n++) {
            ia[n] = COL(0, t, e - 1);
            ib[n] = id[n] = COL(0, t, e);
        }
        STEP(n);
    }
    /* 2. Hillis-Steele over the lanes, on the last elements */
    for (int64_t i = 1; i < L; i *= 2) {
        n = 0;
        for (int64_t g = 0; g < G; g++)
            for (int64_t l = i; l < L; l++, n++) {
                ia[n] = COL(g, l - i, s - 1);
                ib[n] = id[n] = COL(g, l, s - 1);
            }
        STEP(n);
    }
    if (G > 1) {
        /* 3. excl[g], the prefix before group g */
        for (int j = 0; j < k; j++) {
            size_t chunk = (size_t)(x->outer * x->inner) * x->esize[j];
            get_ref(F->mem + x->acc_off[j] + chunk, F, x, j, COL(0, L - 1, s - 1));
        }
        for (int64_t g = 2; g < G; g++) {
            ia[0] = EXCL(g - 1);
            ib[0] = COL(g - 1, L - 1, s - 1);
            id[0] = EXCL(g);
            STEP(1);
        }
        /* 4. the last elements of the later groups */
        n = 0;
        for (int64_t g = 1; g < G; g++)
            for (int64_t l = 0; l < L; l++, n++) {
                ia[n] = EXCL(g);
                ib[n] = id[n] = COL(g, l, s - 1);
            }
        STEP(n);
    }
    /* 5. the rest of each chunk */
    if (s > 1) {
        n = 0;
        for (int64_t g = 0; g < G; g++)
            for (int64_t l = 0; l < L; l++) {
                if (g == 0 && l == 0)
                    continue;
                int64_t p = l > 0                ? COL(g, l - 1, s - 1)
                            : L == 1 && W == 1 ? COL(g, 0, s - 1)
                                               : EXCL(g);
                for (int64_t e = 0; e < s - 1; e++, n++) {
                    ia[n] = p;
                    ib[n] = id[n] = COL(g, l, e);
                }
            }
        STEP(n);
    }
#undef STEP
#undef EXCL
#undef COL
    if (x->reverse)
        for (int j = 0; j < k; j++)
            reverse_axis(F->mem + x->out_off[j], x, x->esize[j]);
    return EMU_NEXT;
}
