/*
 * shape.c - data movement on whole tensors: copies, splat, broadcast,
 * trans (permute), join/split, cat, gather, histogram, make_range, select.
 * Tensors are dense row-major arrays in the frame; reshape and
 * expand_dims move nothing and are resolved at compile time.
 */
#include "emu_internal.h"

#define RESTRICT __restrict__

int emu_h_copy(emu_frame *F, const emu_ins *I)
{
    memmove(F->mem + I->d, F->mem + I->a, (size_t)I->n);
    return EMU_NEXT;
}

int emu_h_fill(emu_frame *F, const emu_ins *I)
{
    /* I->x.p: one element of I->y.i bytes, repeated n times */
    size_t es = (size_t)I->y.i;
    int64_t n = NE(F, I);
    uint8_t *d = F->mem + I->d;
    for (int64_t i = 0; i < n; i++)
        memcpy(d + (size_t)i * es, I->x.p, es);
    return EMU_NEXT;
}

#define FILL_T(T)                                                                              \
    do {                                                                                       \
        T v;                                                                                   \
        memcpy(&v, src, sizeof v);                                                             \
        T *RESTRICT p = (T *)dst;                                                              \
        for (int64_t i = 0; i < n; i++)                                                        \
            p[i] = v;                                                                          \
    } while (0)

EMU_CLONES static void fill(void *dst, const void *src, int64_t n, size_t es)
{
    switch (es) {
    case 1:
        memset(dst, *(const uint8_t *)src, (size_t)n);
        break;
    case 2:
        FILL_T(uint16_t);
        break;
    case 4:
        FILL_T(uint32_t);
        break;
    case 8:
        FILL_T(uint64_t);
        break;
    default:
        for (int64_t i = 0; i < n; i++)
            memcpy((uint8_t *)dst + (size_t)i * es, src, es);
    }
}

/* fill() for a short row (a broadcast along the last axis, once per row): inline, no call */
static inline void fill_short(uint8_t *RESTRICT dst, const uint8_t *src, int64_t n, size_t es)
{
    switch (es) {
    case 4: {
        uint32_t v;
        memcpy(&v, src, 4);
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + 4 * i, &v, 4);
        break;
    }
    case 8: {
        uint64_t v;
        memcpy(&v, src, 8);
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + 8 * i, &v, 8);
        break;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, src, 2);
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + 2 * i, &v, 2);
        break;
    }
    case 1:
        memset(dst, *src, (size_t)n);
        break;
    default:
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + (size_t)i * es, src, es);
    }
}

int emu_h_splat(emu_frame *F, const emu_ins *I)
{
    fill(F->mem + I->d, F->mem + I->a, NE(F, I), emu_ek_size((emu_ek)I->ek));
    return EMU_NEXT;
}

/* dst (contiguous, shape `shape`) <- src with element strides `st` */
static void copy_nd(uint8_t *RESTRICT dst, const uint8_t *src, int rank, const int64_t *shape,
                    const int64_t *st, size_t es)
{
    if (rank == 0) {
        memcpy(dst, src, es);
        return;
    }
    /* leading dimensions that repeat (stride 0, a broadcast's new rows): the rest once, then
     * copies of it, doubling */
    int lead = 0;
    int64_t reps = 1;
    while (lead < rank - 1 && st[lead] == 0)
        reps *= shape[lead++];
    if (lead > 0 && reps > 1) {
        size_t blk = es;
        for (int d = lead; d < rank; d++)
            blk *= (size_t)shape[d];
        copy_nd(dst, src, rank - lead, shape + lead, st + lead, es);
        size_t have = blk, total = blk * (size_t)reps;
        while (have < total) {
            size_t n = have < total - have ? have : total - have;
            memcpy(dst + have, dst, n);
            have += n;
        }
        return;
    }
    int64_t idx[CT_MAX_RANK] = {0};
    int64_t inner = shape[rank - 1], ist = st[rank - 1];
    int64_t outer = 1;
    for (int d = 0; d < rank - 1; d++)
        outer *= shape[d];
    for (int64_t o = 0; o < outer; o++) {
        int64_t off = 0;
        for (int d = 0; d < rank - 1; d++)
            off += idx[d] * st[d];
        const uint8_t *s = src + (size_t)off * es;
        if (ist == 1) {
            memcpy(dst, s, (size_t)inner * es);
        } else if (ist == 0) {
            if (inner <= 64)
                fill_short(dst, s, inner, es);
            else
                fill(dst, s, inner, es);
        } else {
            switch (es) {
            case 1:
                for (int64_t i = 0; i < inner; i++)
                    dst[i] = s[i * ist];
                break;
            case 2:
                for (int64_t i = 0; i < inner; i++)
                    ((uint16_t *)dst)[i] = ((const uint16_t *)s)[i * ist];
                break;
            case 4:
                for (int64_t i = 0; i < inner; i++)
                    ((uint32_t *)dst)[i] = ((const uint32_t *)s)[i * ist];
                break;
            case 8:
                for (int64_t i = 0; i < inner; i++)
                    ((uint64_t *)dst)[i] = ((const uint64_t *)s)[i * ist];
                break;
            default:
                for (int64_t i = 0; i < inner; i++)
                    memcpy(dst + (size_t)i * es, s + (size_t)(i * ist) * es, es);
            }
        }
        dst += (size_t)inner * es;
        for (int d = rank - 2; d >= 0; d--) {
            if (++idx[d] < shape[d])
                break;
            idx[d] = 0;
        }
    }
}

static void contiguous_strides(int rank, const int64_t *shape, int64_t *st)
{
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        st[d] = s;
        s *= shape[d];
    }
}

int emu_h_broadcast(emu_frame *F, const emu_ins *I)
{
    const emu_shape_aux *x = I->x.p;
    int64_t st[CT_MAX_RANK];
    contiguous_strides(x->rank, x->src, st);
    for (int d = 0; d < x->rank; d++)
        if (x->src[d] == 1)
            st[d] = 0;
    copy_nd(F->mem + I->d, F->mem + I->a, x->rank, x->dst, st, x->esize);
    return EMU_NEXT;
}

int emu_h_trans(emu_frame *F, const emu_ins *I)
{
    const emu_shape_aux *x = I->x.p;
    int64_t cs[CT_MAX_RANK], st[CT_MAX_RANK];
    contiguous_strides(x->rank, x->src, cs);
    for (int d = 0; d < x->rank; d++)
        st[d] = cs[x->perm[d]];
    copy_nd(F->mem + I->d, F->mem + I->a, x->rank, x->dst, st, x->esize);
    return EMU_NEXT;
}

/* join: a, b of n elements -> [n, 2] interleaved */
int emu_h_join(emu_frame *F, const emu_ins *I)
{
    const emu_shape_aux *x = I->x.p;
    int64_t n = I->n;
    size_t es = x->esize;
    uint8_t *d = F->mem + I->d;
    const uint8_t *a = F->mem + I->a, *b = F->mem + I->b;
    for (int64_t i = 0; i < n; i++) {
        memcpy(d + (size_t)(2 * i) * es, a + (size_t)i * es, es);
        memcpy(d + (size_t)(2 * i + 1) * es, b + (size_t)i * es, es);
    }
    return EMU_NEXT;
}

/* split: [n, 2] -> a, b (results at I->d and x->b2) */
int emu_h_split(emu_frame *F, const emu_ins *I)
{
    const emu_shape_aux *x = I->x.p;
    int64_t n = I->n;
    size_t es = x->esize;
    uint8_t *a = F->mem + I->d, *b = F->mem + x->b2;
    const uint8_t *s = F->mem + I->a;
    for (int64_t i = 0; i < n; i++) {
        memcpy(a + (size_t)i * es, s + (size_t)(2 * i) * es, es);
        memcpy(b + (size_t)i * es, s + (size_t)(2 * i + 1) * es, es);
    }
    return EMU_NEXT;
}

/* cat along dim 0: the row-major data of a, then b (sizes in x->src[0], x->dst[0] bytes) */
int emu_h_cat(emu_frame *F, const emu_ins *I)
{
    const emu_shape_aux *x = I->x.p;
    memcpy(F->mem + I->d, F->mem + I->a, (size_t)x->src[0]);
    memcpy(F->mem + I->d + x->src[0], F->mem + I->b, (size_t)x->dst[0]);
    return EMU_NEXT;
}

/* gather(src, idx, axis): out[i] = src[i with i[axis] = idx[i]]; out has idx's shape */
int emu_h_gather(emu_frame *F, const emu_ins *I)
{
    const emu_shape_aux *x = I->x.p; /* src: src shape, dst: index shape */
    int rank = x->rank, ax = x->axis;
    size_t es = x->esize;
    int64_t sst[CT_MAX_RANK], idx[CT_MAX_RANK] = {0};
    contiguous_strides(rank, x->src, sst);
    int64_t n = I->n;
    const uint8_t *src = F->mem + I->a;
    uint8_t *dst = F->mem + I->d;
    emu_ek iek = (emu_ek)I->ek2;
    for (int64_t i = 0; i < n; i++) {
        int64_t j = emu_load_i64(iek, F->mem + I->b, i);
        if (j < 0 || j >= x->src[ax])
            return emu_fault(F, I, CT_EMU_ERR_OOB, i, -1, 0, 0,
                             "gather index %lld out of range [0, %lld) on axis %d",
                             (long long)j, (long long)x->src[ax], ax);
        int64_t off = 0;
        for (int d = 0; d < rank; d++)
            off += (d == ax ? j : idx[d]) * sst[d];
        memcpy(dst + (size_t)i * es, src + (size_t)off * es, es);
        for (int d = rank - 1; d >= 0; d--) {
            if (++idx[d] < x->dst[d])
                break;
            idx[d] = 0;
        }
    }
    return EMU_NEXT;
}

/* histogram(x, bins[, mask]): counts of 0 <= x < bins into i32 (or i64) bins */
int emu_h_histogram(emu_frame *F, const emu_ins *I)
{
    int64_t bins = I->x.i, n = I->n;
    emu_ek ek = (emu_ek)I->ek2;
    memset(F->mem + I->d, 0, (size_t)bins * emu_ek_size((emu_ek)I->ek));
    const uint8_t *mask = I->flags ? F->mem + I->b : NULL;
    for (int64_t i = 0; i < n; i++) {
        if (mask && !(mask[i] & 1))
            continue;
        int64_t v = emu_load_i64(ek, F->mem + I->a, i);
        if (v < 0 || v >= bins)
            continue;
        if (I->ek == EK_I64)
            SLOT(F, I->d, int64_t)[v]++;
        else
            SLOT(F, I->d, int32_t)[v]++;
    }
    return EMU_NEXT;
}

EMU_CLONES int emu_h_make_range(emu_frame *F, const emu_ins *I)
{
    int32_t *d = SLOT(F, I->d, int32_t);
    int32_t s = (int32_t)I->x.i;
    for (int64_t i = 0; i < I->n; i++)
        d[i] = (int32_t)((uint32_t)s + (uint32_t)i);
    return EMU_NEXT;
}

#define SEL_T(T)                                                                               \
    do {                                                                                       \
        T *RESTRICT d = SLOT(F, I->d, T);                                                      \
        const T *a = SLOT(F, I->b, T), *b = SLOT(F, I->c, T);                                  \
        for (int64_t i = 0; i < n; i++)                                                        \
            d[i] = (c[i] & 1) ? a[i] : b[i];                                                   \
    } while (0)

EMU_CLONES int emu_h_select(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    const uint8_t *c = F->mem + I->a;
    size_t es = emu_ek_size((emu_ek)I->ek);
    switch (es) {
    case 1:
        SEL_T(uint8_t);
        break;
    case 2:
        SEL_T(uint16_t);
        break;
    case 4:
        SEL_T(uint32_t);
        break;
    case 8:
        SEL_T(uint64_t);
        break;
    default:
        for (int64_t i = 0; i < n; i++)
            memcpy(F->mem + I->d + (size_t)i * es,
                   F->mem + ((c[i] & 1) ? I->b : I->c) + (size_t)i * es, es);
    }
    return EMU_NEXT;
}

/* select with a scalar condition and tensor operands */
int emu_h_select_scalar(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    size_t es = emu_ek_size((emu_ek)I->ek);
    const uint8_t *c = F->mem + I->a;
    memcpy(F->mem + I->d, F->mem + ((c[0] & 1) ? I->b : I->c), (size_t)n * es);
    return EMU_NEXT;
}
