/*
 * memory.c - pointer arithmetic, loads, stores and atomics, with every lane
 * checked.
 *
 * Pointers are emulated addresses (see EMU_BASE in emu_internal.h): each
 * registered buffer owns a 2^40-byte window, so an address names its
 * buffer and its byte offset, and pointer arithmetic can never reach host
 * memory.  A lane whose mask is off is not touched (a load yields `other`,
 * or 0 as the GPU's lowering initializes the register).  A lane whose
 * address is outside every buffer, outside its buffer's [0, size), or not
 * aligned to the access size stops the program with a fault naming the
 * lane, buffer and offset; the op's location gives the source line.
 * Atomics are real host atomics (so programs on different threads see each
 * other's updates); each lane's operation is atomic, lanes in lane order.
 */
#include "emu_internal.h"

#include <math.h>

/* The buffer window of the last lane, to check the next lane quickly. */
typedef struct win {
    uint64_t base, limit; /* valid when addr - base <= limit */
    uint8_t *host;
    int buf;
} win;

static int lane_fault(emu_frame *F, const emu_ins *I, int64_t lane, uint64_t addr, size_t es,
                      bool write)
{
    const emu_mem_aux *mx = I->x.p;
    if (mx && mx->scalar)
        lane = -1;
    const ct_emu *e = F->run->e;
    int64_t b = emu_addr_buffer(addr);
    const char *what = write ? "store to" : "load from";
    if (I->code == CT_OP_TT_ATOMIC_RMW || I->code == CT_OP_TT_ATOMIC_CAS ||
        I->code == CT_OP_TT_DESCRIPTOR_REDUCE)
        what = "atomic on";
    int64_t from = emu_wild_origin(addr);
    if (from >= -1 && from < e->nbufs)
        return emu_fault(F, I, from < 0 ? CT_EMU_ERR_NULL : CT_EMU_ERR_OOB, lane, (int)from, -1,
                         (int64_t)es,
                         "%s a pointer that arithmetic moved 2^39 bytes or more from %s%s%s "
                         "(past any buffer's end: it could reach another buffer's memory)", what,
                         from < 0 ? "a null pointer" : "buffer `",
                         from < 0 ? "" : e->bufs[from].name, from < 0 ? "" : "`");
    if (b < 0 || b >= e->nbufs)
        return emu_fault(F, I, CT_EMU_ERR_NULL, lane, -1, (int64_t)addr, (int64_t)es,
                         "%s address 0x%llx, which is in no buffer%s", what,
                         (unsigned long long)addr, addr == 0 ? " (null pointer)" : "");
    const emu_buffer *bf = &e->bufs[b];
    int64_t off = (int64_t)(addr - EMU_BASE(b));
    if (off < 0 || (uint64_t)off + es > bf->bytes)
        return emu_fault(F, I, CT_EMU_ERR_OOB, lane, (int)b, off, (int64_t)es,
                         "out-of-bounds %s buffer `%s`: byte offset %lld, %zu-byte access, "
                         "buffer is %llu bytes (element %lld of %llu)",
                         what, bf->name, (long long)off, es, (unsigned long long)bf->bytes,
                         off >= 0 ? (long long)(off / (int64_t)es) : -(long long)((-off + (int64_t)es - 1) / (int64_t)es),
                         (unsigned long long)(bf->bytes / es));
    if (addr % es)
        return emu_fault(F, I, CT_EMU_ERR_MISALIGNED, lane, (int)b, off, (int64_t)es,
                         "misaligned %zu-byte %s buffer `%s` at byte offset %lld", es, what,
                         bf->name, (long long)off);
    return emu_fault(F, I, CT_EMU_ERR_READONLY, lane, (int)b, off, (int64_t)es,
                     "%s buffer `%s`, registered as read-only (CT_EMU_IN), at byte offset %lld",
                     write ? "store to" : "atomic on", bf->name, (long long)off);
}

/* Host address of a lane's access, or NULL (then the caller faults). */
static inline uint8_t *resolve(const ct_emu *e, win *w, uint64_t addr, size_t es, bool write)
{
    if (w->host && addr - w->base <= w->limit && (addr & (es - 1)) == 0)
        return w->host + (addr - w->base);
    int64_t b = emu_addr_buffer(addr);
    if (b < 0 || b >= e->nbufs)
        return NULL;
    const emu_buffer *bf = &e->bufs[b];
    if (bf->bytes < es || (addr % es))
        return NULL;
    if (write && bf->access == CT_EMU_IN)
        return NULL;
    uint64_t off = addr - EMU_BASE(b);
    if (off > bf->bytes - es)
        return NULL;
    w->base = EMU_BASE(b);
    w->limit = bf->bytes - es;
    w->host = bf->host;
    w->buf = (int)b;
    return bf->host + off;
}

static inline win win_init(void)
{
    win w = {1, 0, NULL, -1};
    return w;
}

/* ---- addptr ------------------------------------------------------------------ */

EMU_CLONES int emu_h_addptr(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    uint64_t *d = SLOT(F, I->d, uint64_t);
    const uint64_t *p = SLOT(F, I->a, uint64_t);
    uint64_t es = (uint64_t)I->x.i;
    switch ((emu_ek)I->ek2) {
    case EK_I32: {
        const int32_t *o = SLOT(F, I->b, int32_t);
        for (int64_t i = 0; i < n; i++)
            d[i] = emu_ptr_add(p[i], (uint64_t)(int64_t)o[i] * es);
        break;
    }
    case EK_I64: {
        const int64_t *o = SLOT(F, I->b, int64_t);
        for (int64_t i = 0; i < n; i++)
            d[i] = emu_ptr_add(p[i], (uint64_t)o[i] * es);
        break;
    }
    default:
        for (int64_t i = 0; i < n; i++)
            d[i] = emu_ptr_add(p[i], (uint64_t)emu_load_i64((emu_ek)I->ek2, F->mem + I->b, i) * es);
    }
    return EMU_NEXT;
}

/* a scalar pointer plus a tensor of offsets (the compiler dropped the pointer's splat) */
EMU_CLONES int emu_h_addptr_sp(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    uint64_t *d = SLOT(F, I->d, uint64_t);
    uint64_t p = *SLOT(F, I->a, uint64_t);
    uint64_t es = (uint64_t)I->x.i;
    switch ((emu_ek)I->ek2) {
    case EK_I32: {
        const int32_t *o = SLOT(F, I->b, int32_t);
        for (int64_t i = 0; i < n; i++)
            d[i] = emu_ptr_add(p, (uint64_t)(int64_t)o[i] * es);
        break;
    }
    case EK_I64: {
        const int64_t *o = SLOT(F, I->b, int64_t);
        for (int64_t i = 0; i < n; i++)
            d[i] = emu_ptr_add(p, (uint64_t)o[i] * es);
        break;
    }
    default:
        for (int64_t i = 0; i < n; i++)
            d[i] = emu_ptr_add(p, (uint64_t)emu_load_i64((emu_ek)I->ek2, F->mem + I->b, i) * es);
    }
    return EMU_NEXT;
}

/* a tensor of pointers plus a scalar offset (the compiler dropped the offset's splat) */
EMU_CLONES int emu_h_addptr_so(emu_frame *F, const emu_ins *I)
{
    int64_t n = NE(F, I);
    uint64_t *d = SLOT(F, I->d, uint64_t);
    const uint64_t *p = SLOT(F, I->a, uint64_t);
    uint64_t step = (uint64_t)emu_load_i64((emu_ek)I->ek2, F->mem + I->b, 0) * (uint64_t)I->x.i;
    for (int64_t i = 0; i < n; i++)
        d[i] = emu_ptr_add(p[i], step);
    return EMU_NEXT;
}

/* ---- loads and stores --------------------------------------------------------
 *
 * A tensor of pointers is usually one block of memory (a row of a vector op) or a tile whose
 * rows are blocks at a constant stride (a 2-D load of a matrix tile).  With every lane active
 * such a tile is checked in one pass over the pointers and its span once against its buffer,
 * then copied row by row.  Otherwise each block (the whole tensor, or each row) is checked
 * once: the span of its active lanes must lie in one buffer; then its lanes are copied with
 * typed loops.  Anything else (gathers, a block that leaves its buffer) goes lane by lane, and
 * a fault names the first bad lane in lane order, as before. */

/* element types for host memory that may be less aligned than the type (a caller's buffer) */
typedef uint16_t u16u __attribute__((aligned(1), may_alias));
typedef uint32_t u32u __attribute__((aligned(1), may_alias));
typedef uint64_t u64u __attribute__((aligned(1), may_alias));

/* true when p[i] == p[0] + i * es for every lane: one block of memory */
EMU_CLONES static bool contiguous_scan(const uint64_t *p, int64_t n, uint64_t es)
{
    uint64_t base = p[0], bad = 0;
    for (int64_t i = 0; i < n; i++)
        bad |= p[i] ^ (base + (uint64_t)i * es);
    return bad == 0;
}

static inline bool contiguous(const uint64_t *p, int64_t n, uint64_t es)
{
    /* the last lane first: a tile's rows or a gather usually fail there */
    return p[n - 1] == p[0] + (uint64_t)(n - 1) * es && contiguous_scan(p, n, es);
}

/* true when each row of L lanes is one block */
EMU_CLONES static bool rows_contiguous(const uint64_t *p, int64_t n, int64_t L, uint64_t es)
{
    uint64_t bad = 0;
    for (int64_t r = 0; r < n; r += L) {
        uint64_t base = p[r];
        for (int64_t j = 0; j < L; j++)
            bad |= p[r + j] ^ (base + (uint64_t)j * es);
    }
    return bad == 0;
}

/* true when lane j of row r is p[0] + r * S + j * es (rows of L lanes, S = p[L] - p[0]): row 0
 * is checked against p[0] + j * es, every later row r against row 0 plus r * S, so the loop over
 * the tile is a load, an add, a xor and an or per 8 lanes, with no multiply and no reduction per
 * row */
typedef uint64_t v8u64 __attribute__((vector_size(64)));

EMU_CLONES static bool strided_rows(const uint64_t *p, int64_t n, int64_t L, uint64_t es)
{
    uint64_t S = p[L] - p[0], bad = 0;
    for (int64_t j = 0; j < L; j++)
        bad |= p[j] ^ (p[0] + (uint64_t)j * es);
    if (L % 8 == 0) {
        v8u64 acc = {0};
        uint64_t off = 0;
        for (int64_t r = L; r < n; r += L) {
            off += S;
            for (int64_t j = 0; j < L; j += 8) {
                v8u64 x, y;
                memcpy(&x, p + r + j, sizeof x);
                memcpy(&y, p + j, sizeof y);
                acc |= x ^ (y + off);
            }
        }
        for (int i = 0; i < 8; i++)
            bad |= acc[i];
    } else {
        uint64_t off = 0;
        for (int64_t r = L; r < n; r += L) {
            off += S;
            for (int64_t j = 0; j < L; j++)
                bad |= p[r + j] ^ (p[j] + off);
        }
    }
    return bad == 0;
}

/* rows of `bytes` bytes between a dense array and memory `stride` bytes apart */
EMU_CLONES static void rows_in(uint8_t *d, const uint8_t *h, int64_t rows, int64_t stride,
                               int64_t bytes)
{
    if (bytes % 8) {
        for (int64_t r = 0; r < rows; r++)
            memcpy(d + r * bytes, h + r * stride, (size_t)bytes);
        return;
    }
    for (int64_t r = 0; r < rows; r++) {
        u64u *dd = (u64u *)(d + r * bytes);
        const u64u *hh = (const u64u *)(h + r * stride);
        for (int64_t j = 0; j < bytes / 8; j++)
            dd[j] = hh[j];
    }
}

EMU_CLONES static void rows_out(uint8_t *h, const uint8_t *v, int64_t rows, int64_t stride,
                                int64_t bytes)
{
    if (bytes % 8) {
        for (int64_t r = 0; r < rows; r++)
            memcpy(h + r * stride, v + r * bytes, (size_t)bytes);
        return;
    }
    for (int64_t r = 0; r < rows; r++) {
        u64u *hh = (u64u *)(h + r * stride);
        const u64u *vv = (const u64u *)(v + r * bytes);
        for (int64_t j = 0; j < bytes / 8; j++)
            hh[j] = vv[j];
    }
}

/* host memory of [addr, addr + bytes) when it lies in one buffer (and, for a
 * write, a writable one); NULL otherwise */
static uint8_t *block(const ct_emu *e, uint64_t addr, uint64_t bytes, size_t es, bool write)
{
    int64_t b = emu_addr_buffer(addr);
    if (b < 0 || b >= e->nbufs || addr % es)
        return NULL;
    const emu_buffer *bf = &e->bufs[b];
    uint64_t off = addr - EMU_BASE(b);
    if (off > bf->bytes || bytes > bf->bytes - off || (write && bf->access == CT_EMU_IN))
        return NULL;
    return bf->host + off;
}

/* A tile of rows of L lanes at a constant stride, all lanes active (the caller checked the
 * mask): one bounds check for the span of all rows, then row copies.  False when the pointers
 * are no such tile or the span leaves its buffer (the caller then looks closer). */
static bool tile_access(const ct_emu *e, uint8_t *frame_data, const uint64_t *p, int64_t n,
                        int64_t L, size_t es, bool write, uint8_t *rec)
{
    if (n % L || n < 2 * L)
        return false;
    /* rec: whether these pointers were a tile when first seen in this entry of the loop that
     * carries them; the loop only adds one offset to every lane, which keeps the answer */
    if (!rec || *rec == 0) {
        bool t = strided_rows(p, n, L, es);
        if (rec)
            *rec = t ? 1 : 2;
        if (!t)
            return false;
    } else if (*rec == 2) {
        return false;
    }
    int64_t R = n / L;
    int64_t S = (int64_t)(p[L] - p[0]), rowb = L * (int64_t)es;
    if (S % (int64_t)es || (S >= 0 && S < rowb) || (S < 0 && -S < rowb))
        return false; /* rows that overlap (or a broadcast): lane by lane */
    uint64_t lo = S >= 0 ? p[0] : p[(R - 1) * L];
    uint64_t span = (uint64_t)((R - 1) * (S >= 0 ? S : -S) + rowb);
    uint8_t *h = block(e, lo, span, es, write);
    if (!h)
        return false;
    h += p[0] - lo;
    if (write)
        rows_out(h, frame_data, R, S, rowb);
    else
        rows_in(frame_data, h, R, S, rowb);
    return true;
}

static bool all_on(const uint8_t *mask, int64_t n)
{
    uint8_t all = 1;
    for (int64_t i = 0; i < n; i++)
        all &= mask[i];
    return all & 1;
}

/* the first and last lane whose mask is on, or first > last */
static void mask_span(const uint8_t *mask, int64_t n, int64_t *first, int64_t *last)
{
    *first = 0;
    *last = n - 1;
    if (!mask || all_on(mask, n))
        return;
    while (*first < n && !(mask[*first] & 1))
        (*first)++;
    while (*last >= 0 && !(mask[*last] & 1))
        (*last)--;
}

/* d[i] = lane i of a block: h[i] where the mask is on, else other[i] or 0; h is valid for
 * lanes [f, l] only */
#define MASKED_IN(T)                                                                           \
    do {                                                                                       \
        T *dd = (T *)d;                                                                        \
        const T *hh = (const T *)h, *oo = (const T *)other;                                    \
        if (oo) {                                                                              \
            for (int64_t i = 0; i < f; i++)                                                    \
                dd[i] = oo[i];                                                                 \
            for (int64_t i = f; i <= l; i++)                                                   \
                dd[i] = (mask[i] & 1) ? hh[i] : oo[i];                                         \
            for (int64_t i = l + 1; i < n; i++)                                                \
                dd[i] = oo[i];                                                                 \
        } else {                                                                               \
            for (int64_t i = 0; i < f; i++)                                                    \
                dd[i] = 0;                                                                     \
            for (int64_t i = f; i <= l; i++)                                                   \
                dd[i] = (mask[i] & 1) ? hh[i] : 0;                                             \
            for (int64_t i = l + 1; i < n; i++)                                                \
                dd[i] = 0;                                                                     \
        }                                                                                      \
    } while (0)

EMU_CLONES static void masked_in(uint8_t *d, const uint8_t *h, const uint8_t *mask,
                                 const uint8_t *other, int64_t n, int64_t f, int64_t l, size_t es)
{
    switch (es) {
    case 1:
        MASKED_IN(uint8_t);
        break;
    case 2:
        MASKED_IN(u16u);
        break;
    case 4:
        MASKED_IN(u32u);
        break;
    case 8:
        MASKED_IN(u64u);
        break;
    default:
        for (int64_t i = 0; i < n; i++) {
            const uint8_t *src = i >= f && i <= l && (mask[i] & 1) ? h + (size_t)i * es
                                 : other                          ? other + (size_t)i * es
                                                                  : NULL;
            if (src)
                memcpy(d + (size_t)i * es, src, es);
            else
                memset(d + (size_t)i * es, 0, es);
        }
    }
}

/* h[i] = v[i] for the active lanes of [f, l] */
#define MASKED_OUT(T)                                                                          \
    for (int64_t i = f; i <= l; i++)                                                           \
        if (mask[i] & 1)                                                                       \
            ((T *)h)[i] = ((const T *)v)[i];

EMU_CLONES static void masked_out(uint8_t *h, const uint8_t *v, const uint8_t *mask, int64_t f,
                                  int64_t l, size_t es)
{
    switch (es) {
    case 1:
        MASKED_OUT(uint8_t);
        break;
    case 2:
        MASKED_OUT(u16u);
        break;
    case 4:
        MASKED_OUT(u32u);
        break;
    case 8:
        MASKED_OUT(u64u);
        break;
    default:
        for (int64_t i = f; i <= l; i++)
            if (mask[i] & 1)
                memcpy(h + (size_t)i * es, v + (size_t)i * es, es);
    }
}

/* loads the n lanes of one block starting at p[0]; false when an active lane is outside its
 * buffer (the caller then goes lane by lane to name it) */
static bool load_block(const ct_emu *e, uint8_t *d, const uint64_t *p, const uint8_t *mask,
                       const uint8_t *other, int64_t n, size_t es)
{
    int64_t f, l;
    mask_span(mask, n, &f, &l);
    if (f > l) {
        masked_in(d, NULL, mask, other, n, n, n - 1, es);
        return true;
    }
    const uint8_t *h = block(e, p[f], (uint64_t)(l - f + 1) * es, es, false);
    if (!h)
        return false;
    h -= (size_t)f * es;
    if (f == 0 && l == n - 1 && (!mask || all_on(mask, n)))
        memcpy(d, h, (size_t)n * es);
    else
        masked_in(d, h, mask, other, n, f, l, es);
    return true;
}

/* the smallest and largest of n pointers; false unless every one is a multiple of es (a power
 * of two) */
EMU_CLONES static bool lanes_span(const uint64_t *p, int64_t n, uint64_t es, uint64_t *lo,
                                  uint64_t *hi)
{
    uint64_t mn = UINT64_MAX, mx = 0, bits = 0;
    for (int64_t i = 0; i < n; i++) {
        mn = p[i] < mn ? p[i] : mn;
        mx = p[i] > mx ? p[i] : mx;
        bits |= p[i];
    }
    *lo = mn;
    *hi = mx;
    return (bits & (es - 1)) == 0;
}

#define GATHER_IN(T)                                                                           \
    for (int64_t i = 0; i < n; i++)                                                            \
        ((T *)d)[i] = *(const T *)(const void *)(h + (p[i] - lo));

EMU_CLONES static void gather_in(uint8_t *d, const uint8_t *h, const uint64_t *p, uint64_t lo,
                                 int64_t n, size_t es)
{
    switch (es) {
    case 1:
        GATHER_IN(uint8_t);
        break;
    case 2:
        GATHER_IN(u16u);
        break;
    case 4:
        GATHER_IN(u32u);
        break;
    default:
        GATHER_IN(u64u);
        break;
    }
}

/* A gather whose lanes are all active and all lie in one buffer (a transposed tile, rows picked
 * by index): one pass for the span, one bounds check, then a typed copy per lane without a
 * lookup.  False when the lanes span more than their buffer (the caller goes lane by lane). */
static bool gather_block(const ct_emu *e, uint8_t *d, const uint64_t *p, int64_t n, size_t es)
{
    if (es > 8 || (es & (es - 1)))
        return false;
    uint64_t lo, hi;
    if (!lanes_span(p, n, es, &lo, &hi))
        return false;
    const uint8_t *h = block(e, lo, hi - lo + es, es, false);
    if (!h)
        return false;
    gather_in(d, h, p, lo, n, es);
    return true;
}

/* stores the n lanes of one block starting at p[0]; false as load_block */
static bool store_block(const ct_emu *e, const uint8_t *v, const uint64_t *p, const uint8_t *mask,
                        int64_t n, size_t es)
{
    int64_t f, l;
    mask_span(mask, n, &f, &l);
    if (f > l)
        return true;
    uint8_t *h = block(e, p[f], (uint64_t)(l - f + 1) * es, es, true);
    if (!h)
        return false;
    h -= (size_t)f * es;
    if (f == 0 && l == n - 1 && (!mask || all_on(mask, n)))
        memcpy(h, v, (size_t)n * es);
    else
        masked_out(h, v, mask, f, l, es);
    return true;
}

int emu_h_zero(emu_frame *F, const emu_ins *I)
{
    memset(F->mem + I->d, 0, (size_t)I->x.i);
    return EMU_NEXT;
}

/* rows of at least this many lanes are checked as blocks */
enum { MIN_ROW = 8 };

/* A poll: an atomic that wrote nothing, or a volatile load (d: its result, n elements of es
 * bytes).  When the
 * program's polls return what they returned before EMU_SPIN_POLLS times in a row, with no
 * write in between, the program is spin-waiting and yields (sched.c parks it). */
static int emu_poll(emu_frame *F, const emu_ins *I, const uint8_t *d, int64_t n, size_t es)
{
    if (F->no_yield)
        return EMU_NEXT;
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(I - F->k->code);
    for (size_t i = 0, b = (size_t)n * es; i < b; i++)
        h = (h ^ d[i]) * 1099511628211ull;
    h |= 1; /* never 0, the value of a slot not yet polled */
    uint64_t *sig = &F->spin_sig[(I - F->k->code) & 3];
    if (F->writes != F->spin_writes || *sig != h) {
        F->spin_writes = F->writes;
        *sig = h;
        F->spin_n = 0;
        return EMU_NEXT;
    }
    if (++F->spin_n < EMU_SPIN_POLLS)
        return EMU_NEXT;
    F->spin_n = 0;
    F->status = EMU_YIELDED;
    return EMU_STOP;
}

int emu_h_load(emu_frame *F, const emu_ins *I)
{
    const emu_mem_aux *x = I->x.p;
    size_t es = x->esize;
    int64_t n = NE(F, I);
    const uint64_t *p = SLOT(F, I->a, uint64_t);
    const uint8_t *mask = x->has_mask ? F->mem + I->b : NULL;
    const uint8_t *other = x->has_other ? F->mem + I->c : NULL;
    uint8_t *d = F->mem + I->d;
    const ct_emu *e = F->run->e;
    if (n > 4 && contiguous(p, n, es)) {
        if (load_block(e, d, p, mask, other, n, es))
            return EMU_NEXT;
    } else if (x->inner >= MIN_ROW && n % x->inner == 0) {
        if ((!mask || all_on(mask, n)) &&
            tile_access(e, d, p, n, x->inner, es, false,
                        x->tile_rec ? F->mem + x->tile_rec - 1 : NULL))
            return EMU_NEXT;
        if (rows_contiguous(p, n, x->inner, es)) {
            int64_t L = x->inner, r = 0;
            for (; r < n; r += L)
                if (!load_block(e, d + (size_t)r * es, p + r, mask ? mask + r : NULL,
                                other ? other + (size_t)r * es : NULL, L, es))
                    break;
            if (r >= n)
                return EMU_NEXT;
        }
    }
    if (n > 4 && (!mask || all_on(mask, n)) && gather_block(e, d, p, n, es))
        return EMU_NEXT;
    /* lane by lane (a gather, or some active lane is out of bounds: this names it) */
    win w = win_init();
    for (int64_t i = 0; i < n; i++) {
        uint8_t *dst = d + (size_t)i * es;
        if (mask && !(mask[i] & 1)) {
            if (other)
                memcpy(dst, other + (size_t)i * es, es);
            else
                memset(dst, 0, es);
            continue;
        }
        uint8_t *h = resolve(e, &w, p[i], es, false);
        if (!h)
            return lane_fault(F, I, i, p[i], es, false);
        switch (es) {
        case 4:
            memcpy(dst, h, 4);
            break;
        case 2:
            memcpy(dst, h, 2);
            break;
        case 8:
            memcpy(dst, h, 8);
            break;
        case 1:
            *dst = *h;
            break;
        default:
            memcpy(dst, h, es);
        }
    }
    return EMU_NEXT;
}

int emu_h_load_volatile(emu_frame *F, const emu_ins *I)
{
    int rc = emu_h_load(F, I);
    return rc == EMU_NEXT ? emu_poll(F, I, F->mem + I->d, NE(F, I), ((const emu_mem_aux *)I->x.p)->esize)
                          : rc;
}

int emu_h_store(emu_frame *F, const emu_ins *I)
{
    F->writes++; /* a store counts as a write whatever it writes (sched.c) */
    const emu_mem_aux *x = I->x.p;
    size_t es = x->esize;
    int64_t n = NE(F, I);
    const uint64_t *p = SLOT(F, I->a, uint64_t);
    const uint8_t *v = F->mem + I->b;
    const uint8_t *mask = x->has_mask ? F->mem + I->c : NULL;
    const ct_emu *e = F->run->e;
    if (n > 4 && contiguous(p, n, es)) {
        if (store_block(e, v, p, mask, n, es))
            return EMU_NEXT;
    } else if (x->inner >= MIN_ROW && n % x->inner == 0) {
        if ((!mask || all_on(mask, n)) &&
            tile_access(e, (uint8_t *)v, p, n, x->inner, es, true,
                        x->tile_rec ? F->mem + x->tile_rec - 1 : NULL))
            return EMU_NEXT;
        if (rows_contiguous(p, n, x->inner, es)) {
            /* a fault in a later row: the lane loop below stores the earlier lanes again (the
             * same values in the same order) and names the lane */
            int64_t L = x->inner, r = 0;
            for (; r < n; r += L)
                if (!store_block(e, v + (size_t)r * es, p + r, mask ? mask + r : NULL, L, es))
                    break;
            if (r >= n)
                return EMU_NEXT;
        }
    }
    win w = win_init();
    for (int64_t i = 0; i < n; i++) {
        if (mask && !(mask[i] & 1))
            continue;
        uint8_t *h = resolve(e, &w, p[i], es, true);
        if (!h)
            return lane_fault(F, I, i, p[i], es, true);
        switch (es) {
        case 4:
            memcpy(h, v + (size_t)i * 4, 4);
            break;
        case 2:
            memcpy(h, v + (size_t)i * 2, 2);
            break;
        case 8:
            memcpy(h, v + (size_t)i * 8, 8);
            break;
        case 1:
            *h = v[i];
            break;
        default:
            memcpy(h, v + (size_t)i * es, es);
        }
    }
    return EMU_NEXT;
}

/* ---- atomics --------------------------------------------------------------------- */

static inline float ftz32(float x)
{
    return emu_ftz(x);
}

/* One atomic read-modify-write of `es` bytes at h; returns the old bits. */
static uint64_t rmw_one(emu_frame *F, uint8_t *h, size_t es, emu_ek ek, int op, uint64_t val,
                        bool *changed)
{
    bool aligned = ((uintptr_t)h % es) == 0;
    if (!aligned)
        pthread_mutex_lock(&F->run->lock);
    uint64_t old = 0;
#define CASLOOP(T, EXPR)                                                                       \
    do {                                                                                       \
        T *q = (T *)h;                                                                         \
        T o, nv, v = (T)val;                                                                   \
        if (!aligned) {                                                                        \
            memcpy(&o, h, sizeof o);                                                           \
            T cur = o;                                                                         \
            (void)cur;                                                                         \
            nv = (T)(EXPR);                                                                    \
            memcpy(h, &nv, sizeof nv);                                                         \
        } else {                                                                               \
            o = __atomic_load_n(q, __ATOMIC_RELAXED);                                          \
            do {                                                                               \
                T cur = o;                                                                     \
                (void)cur;                                                                     \
                nv = (T)(EXPR);                                                                \
            } while (!__atomic_compare_exchange_n(q, &o, nv, true, __ATOMIC_SEQ_CST,           \
                                                  __ATOMIC_RELAXED));                          \
        }                                                                                      \
        old = (uint64_t)o;                                                                     \
        *changed |= nv != o;                                                                   \
        (void)v;                                                                               \
    } while (0)
    switch (es) {
    case 2:
        switch (op) {
        case RMW_FADD:
            if (ek == EK_BF16)
                CASLOOP(uint16_t, emu_f2bf(emu_bf2f(cur) + emu_bf2f(v)));
            else
                CASLOOP(uint16_t, emu_f2h(emu_h2f(cur) + emu_h2f(v)));
            break;
        case RMW_ADD:
            CASLOOP(uint16_t, cur + v);
            break;
        case RMW_AND:
            CASLOOP(uint16_t, cur & v);
            break;
        case RMW_OR:
            CASLOOP(uint16_t, cur | v);
            break;
        case RMW_XOR:
            CASLOOP(uint16_t, cur ^ v);
            break;
        case RMW_MAX:
            CASLOOP(uint16_t, (int16_t)cur > (int16_t)v ? cur : v);
            break;
        case RMW_MIN:
            CASLOOP(uint16_t, (int16_t)cur < (int16_t)v ? cur : v);
            break;
        case RMW_UMAX:
            CASLOOP(uint16_t, cur > v ? cur : v);
            break;
        case RMW_UMIN:
            CASLOOP(uint16_t, cur < v ? cur : v);
            break;
        case RMW_XCHG:
            CASLOOP(uint16_t, v);
            break;
        }
        break;
    case 4:
        switch (op) {
        case RMW_FADD: {
            /* atom.add.f32: round to nearest even, flush subnormals */
            float fv;
            uint32_t vb = (uint32_t)val;
            memcpy(&fv, &vb, 4);
            CASLOOP(uint32_t, ({
                        float fc;
                        uint32_t cb = cur, rb;
                        memcpy(&fc, &cb, 4);
                        float r = ftz32(ftz32(fc) + ftz32(fv));
                        memcpy(&rb, &r, 4);
                        rb;
                    }));
            break;
        }
        case RMW_ADD:
            CASLOOP(uint32_t, cur + v);
            break;
        case RMW_AND:
            CASLOOP(uint32_t, cur & v);
            break;
        case RMW_OR:
            CASLOOP(uint32_t, cur | v);
            break;
        case RMW_XOR:
            CASLOOP(uint32_t, cur ^ v);
            break;
        case RMW_MAX:
            CASLOOP(uint32_t, (int32_t)cur > (int32_t)v ? cur : v);
            break;
        case RMW_MIN:
            CASLOOP(uint32_t, (int32_t)cur < (int32_t)v ? cur : v);
            break;
        case RMW_UMAX:
            CASLOOP(uint32_t, cur > v ? cur : v);
            break;
        case RMW_UMIN:
            CASLOOP(uint32_t, cur < v ? cur : v);
            break;
        case RMW_XCHG:
            CASLOOP(uint32_t, v);
            break;
        }
        break;
    case 8:
        switch (op) {
        case RMW_FADD: {
            double dv;
            memcpy(&dv, &val, 8);
            CASLOOP(uint64_t, ({
                        double dc;
                        uint64_t cb = cur, rb;
                        memcpy(&dc, &cb, 8);
                        double r = dc + dv;
                        memcpy(&rb, &r, 8);
                        rb;
                    }));
            break;
        }
        case RMW_ADD:
            CASLOOP(uint64_t, cur + v);
            break;
        case RMW_AND:
            CASLOOP(uint64_t, cur & v);
            break;
        case RMW_OR:
            CASLOOP(uint64_t, cur | v);
            break;
        case RMW_XOR:
            CASLOOP(uint64_t, cur ^ v);
            break;
        case RMW_MAX:
            CASLOOP(uint64_t, (int64_t)cur > (int64_t)v ? cur : v);
            break;
        case RMW_MIN:
            CASLOOP(uint64_t, (int64_t)cur < (int64_t)v ? cur : v);
            break;
        case RMW_UMAX:
            CASLOOP(uint64_t, cur > v ? cur : v);
            break;
        case RMW_UMIN:
            CASLOOP(uint64_t, cur < v ? cur : v);
            break;
        case RMW_XCHG:
            CASLOOP(uint64_t, v);
            break;
        }
        break;
    }
#undef CASLOOP
    if (!aligned)
        pthread_mutex_unlock(&F->run->lock);
    return old;
}

int emu_h_atomic_rmw(emu_frame *F, const emu_ins *I)
{
    const emu_mem_aux *x = I->x.p;
    size_t es = x->esize;
    int64_t n = NE(F, I);
    const uint64_t *p = SLOT(F, I->a, uint64_t);
    const uint8_t *v = F->mem + I->b;
    const uint8_t *mask = x->has_mask ? F->mem + I->c : NULL;
    uint8_t *d = F->mem + I->d;
    const ct_emu *e = F->run->e;
    win w = win_init();
    bool changed = false;
    for (int64_t i = 0; i < n; i++) {
        if (mask && !(mask[i] & 1)) {
            memset(d + (size_t)i * es, 0, es);
            continue;
        }
        uint8_t *h = resolve(e, &w, p[i], es, true);
        if (!h)
            return lane_fault(F, I, i, p[i], es, true);
        uint64_t old = rmw_one(F, h, es, x->ek, x->rmw, emu_ld_bits(v + (size_t)i * es, es), &changed);
        emu_st_bits(d + (size_t)i * es, es, old);
    }
    if (changed) {
        F->writes++;
        return EMU_NEXT;
    }
    return emu_poll(F, I, d, n, es);
}

int emu_h_atomic_cas(emu_frame *F, const emu_ins *I)
{
    const emu_mem_aux *x = I->x.p;
    size_t es = x->esize;
    int64_t n = NE(F, I);
    const uint64_t *p = SLOT(F, I->a, uint64_t);
    const uint8_t *cmp = F->mem + I->b, *val = F->mem + I->c;
    uint8_t *d = F->mem + I->d;
    const ct_emu *e = F->run->e;
    win w = win_init();
    bool changed = false;
    for (int64_t i = 0; i < n; i++) {
        uint8_t *h = resolve(e, &w, p[i], es, true);
        if (!h)
            return lane_fault(F, I, i, p[i], es, true);
        uint64_t c = emu_ld_bits(cmp + (size_t)i * es, es), nv = emu_ld_bits(val + (size_t)i * es, es);
        uint64_t old;
        if ((uintptr_t)h % es) {
            pthread_mutex_lock(&F->run->lock);
            old = emu_ld_bits(h, es);
            if (old == c)
                emu_st_bits(h, es, nv);
            pthread_mutex_unlock(&F->run->lock);
        } else if (es == 2) {
            uint16_t o = (uint16_t)c;
            __atomic_compare_exchange_n((uint16_t *)h, &o, (uint16_t)nv, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST);
            old = o;
        } else if (es == 4) {
            uint32_t o = (uint32_t)c;
            __atomic_compare_exchange_n((uint32_t *)h, &o, (uint32_t)nv, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST);
            old = o;
        } else {
            uint64_t o = c;
            __atomic_compare_exchange_n((uint64_t *)h, &o, nv, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST);
            old = o;
        }
        changed |= old == c && nv != c;
        emu_st_bits(d + (size_t)i * es, es, old);
    }
    if (changed) {
        F->writes++;
        return EMU_NEXT;
    }
    return emu_poll(F, I, d, n, es);
}

/* ---- block pointers ------------------------------------------------------------------ */


int emu_h_make_bptr(emu_frame *F, const emu_ins *I)
{
    const bptr_ops *o = I->x.p;
    emu_bptr *b = SLOT(F, I->d, emu_bptr);
    memset(b, 0, sizeof *b);
    b->base = *SLOT(F, o->base, uint64_t);
    b->rank = o->rank;
    for (int d = 0; d < o->rank; d++) {
        b->shape[d] = emu_load_i64(o->shape_ek, F->mem + o->shape[d], 0);
        b->strides[d] = emu_load_i64(o->stride_ek, F->mem + o->strides[d], 0);
        b->offsets[d] = (int32_t)emu_load_i64(o->off_ek, F->mem + o->offsets[d], 0);
    }
    return EMU_NEXT;
}

int emu_h_advance(emu_frame *F, const emu_ins *I)
{
    const bptr_ops *o = I->x.p;
    emu_bptr *b = SLOT(F, I->d, emu_bptr);
    memmove(b, SLOT(F, I->a, emu_bptr), sizeof *b);
    for (int d = 0; d < b->rank && d < o->rank; d++)
        b->offsets[d] = (int32_t)((uint32_t)b->offsets[d] +
                                  (uint32_t)emu_load_i64(o->off_ek, F->mem + o->offsets[d], 0));
    return EMU_NEXT;
}

/* element i of the block: its address, or false when a checked dimension is out of bounds */
static bool bptr_addr(const emu_bptr *b, const emu_mem_aux *x, int64_t i, uint64_t *addr)
{
    int64_t idx[CT_MAX_RANK];
    for (int d = x->rank - 1; d >= 0; d--) {
        idx[d] = i % x->shape[d];
        i /= x->shape[d];
    }
    /* the GPU's 64-bit address arithmetic wraps: so does this one (unsigned, never an
     * overflow), and emu_ptr_add keeps the result in the base's window */
    uint64_t off = 0;
    for (int d = 0; d < x->rank; d++) {
        int64_t c = (int64_t)b->offsets[d] + idx[d];
        if ((x->boundary >> d) & 1)
            if (c < 0 || c >= b->shape[d])
                return false;
        off += (uint64_t)c * (uint64_t)b->strides[d];
    }
    *addr = emu_ptr_add(b->base, off * x->esize);
    return true;
}

/* padding for elements [i0, i1) of a block being loaded */
static void block_pad(const emu_mem_aux *x, uint8_t *d, int64_t i0, int64_t i1, int fill)
{
    if (fill == PAD_NAN && emu_ek_is_float(x->ek))
        for (int64_t i = i0; i < i1; i++)
            emu_store_f64(x->ek, d, i, NAN);
    else if (i1 > i0)
        memset(d + (size_t)i0 * x->esize, 0, (size_t)(i1 - i0) * x->esize);
}

/* The fast path of block loads and stores whose last dimension is contiguous (stride 1): row
 * by row, the part inside the tensor is one span, checked at both ends (a buffer is contiguous)
 * and copied.  Returns false when a span is not inside one buffer: the caller then goes element
 * by element, which names the first faulting lane (loads and stores are idempotent). */
static bool block_rows(emu_frame *F, const emu_ins *I, const emu_bptr *b, const emu_mem_aux *x,
                       int fill, bool store)
{
    int r = x->rank;
    int64_t W = x->shape[r - 1];
    if (r < 1 || b->strides[r - 1] != 1 || W < 2 || I->n % W)
        return false;
    size_t es = x->esize;
    uint8_t *d = F->mem + (store ? I->b : I->d);
    const ct_emu *e = F->run->e;
    win w = win_init();
    int64_t rows = I->n / W;
    for (int64_t row = 0; row < rows; row++) {
        int64_t rem = row;
        uint64_t off = 0; /* wrapping, as in bptr_addr */
        bool outside = false;
        for (int dim = r - 2; dim >= 0; dim--) {
            int64_t c = (int64_t)b->offsets[dim] + rem % x->shape[dim];
            rem /= x->shape[dim];
            if (((x->boundary >> dim) & 1) && (c < 0 || c >= b->shape[dim]))
                outside = true;
            off += (uint64_t)c * (uint64_t)b->strides[dim];
        }
        int64_t c0 = b->offsets[r - 1], lo = 0, hi = W;
        if (!outside && ((x->boundary >> (r - 1)) & 1)) {
            /* [lo, hi): the row's columns inside [0, shape), in [0, W]; shape - c0 is formed
             * only when it lies in [lo, W] (a shape near 2^63 would overflow it) */
            int64_t sh = b->shape[r - 1];
            lo = -c0 < 0 ? 0 : -c0 > W ? W : -c0;
            hi = sh <= c0 + lo ? lo : sh >= c0 + W ? W : sh - c0;
        }
        if (outside)
            lo = hi = W;
        if (!store) {
            block_pad(x, d, row * W, row * W + lo, fill);
            block_pad(x, d, row * W + hi, row * W + W, fill);
        }
        if (hi <= lo)
            continue;
        uint64_t a0 = emu_ptr_add(b->base, (off + (uint64_t)(c0 + lo)) * es);
        uint64_t a1 = emu_ptr_add(a0, (uint64_t)(hi - lo - 1) * es);
        uint8_t *h = resolve(e, &w, a0, es, store);
        if (!h || a1 - w.base > w.limit)
            return false;
        if (store)
            memcpy(h, d + (size_t)(row * W + lo) * es, (size_t)(hi - lo) * es);
        else
            memcpy(d + (size_t)(row * W + lo) * es, h, (size_t)(hi - lo) * es);
    }
    return true;
}

/* the elements of a block: those a checked dimension puts outside the tensor read as the
 * padding (fill 2: NaN for floats; zero otherwise) or are not written; all others must lie in
 * a buffer */
static int block_load(emu_frame *F, const emu_ins *I, const emu_bptr *b, const emu_mem_aux *x,
                      int fill)
{
    if (block_rows(F, I, b, x, fill, false))
        return EMU_NEXT;
    size_t es = x->esize;
    uint8_t *d = F->mem + I->d;
    const ct_emu *e = F->run->e;
    win w = win_init();
    for (int64_t i = 0; i < I->n; i++) {
        uint64_t a;
        uint8_t *dst = d + (size_t)i * es;
        if (!bptr_addr(b, x, i, &a)) {
            if (fill == PAD_NAN && emu_ek_is_float(x->ek))
                emu_store_f64(x->ek, d, i, NAN);
            else
                memset(dst, 0, es);
            continue;
        }
        uint8_t *h = resolve(e, &w, a, es, false);
        if (!h)
            return lane_fault(F, I, i, a, es, false);
        memcpy(dst, h, es);
    }
    return EMU_NEXT;
}

static int block_store(emu_frame *F, const emu_ins *I, const emu_bptr *b, const emu_mem_aux *x)
{
    if (block_rows(F, I, b, x, 0, true))
        return EMU_NEXT;
    size_t es = x->esize;
    const uint8_t *v = F->mem + I->b;
    const ct_emu *e = F->run->e;
    win w = win_init();
    for (int64_t i = 0; i < I->n; i++) {
        uint64_t a;
        if (!bptr_addr(b, x, i, &a))
            continue;
        uint8_t *h = resolve(e, &w, a, es, true);
        if (!h)
            return lane_fault(F, I, i, a, es, true);
        memcpy(h, v + (size_t)i * es, es);
    }
    return EMU_NEXT;
}

int emu_h_load_bptr(emu_frame *F, const emu_ins *I)
{
    const emu_mem_aux *x = I->x.p;
    return block_load(F, I, SLOT(F, I->a, emu_bptr), x, x->padding);
}

int emu_h_store_bptr(emu_frame *F, const emu_ins *I)
{
    F->writes++;
    return block_store(F, I, SLOT(F, I->a, emu_bptr), I->x.p);
}

/* ---- tensor descriptors: block pointers at offset 0 whose every dimension is checked ---------- */

int emu_h_make_desc(emu_frame *F, const emu_ins *I)
{
    const bptr_ops *o = I->x.p;
    emu_bptr *b = SLOT(F, I->d, emu_bptr);
    memset(b, 0, sizeof *b);
    b->base = *SLOT(F, o->base, uint64_t);
    b->rank = o->rank;
    b->fill = o->fill;
    for (int d = 0; d < o->rank; d++) {
        b->shape[d] = emu_load_i64(o->shape_ek, F->mem + o->shape[d], 0);
        b->strides[d] = emu_load_i64(o->stride_ek, F->mem + o->strides[d], 0);
    }
    return EMU_NEXT;
}

/* the descriptor moved to the access's indices */
static emu_bptr desc_at(emu_frame *F, const emu_ins *I, const desc_ops *o)
{
    emu_bptr b = *SLOT(F, I->a, emu_bptr);
    for (int d = 0; d < b.rank && d < o->m.rank; d++)
        b.offsets[d] = (int32_t)emu_load_i64(o->idx_ek, F->mem + o->idx[d], 0);
    return b;
}

/* TMA: elements outside the tensor read as the descriptor's padding and are not written */
int emu_h_desc_load(emu_frame *F, const emu_ins *I)
{
    const desc_ops *o = I->x.p;
    emu_bptr b = desc_at(F, I, o);
    return block_load(F, I, &b, &o->m, b.fill);
}

int emu_h_desc_store(emu_frame *F, const emu_ins *I)
{
    F->writes++;
    const desc_ops *o = I->x.p;
    emu_bptr b = desc_at(F, I, o);
    return block_store(F, I, &b, &o->m);
}

/* TMA reduction (desc.atomic_add ...): every element inside the tensor is one atomic
 * read-modify-write, in element order; elements outside it are not touched */
int emu_h_desc_reduce(emu_frame *F, const emu_ins *I)
{
    const desc_ops *o = I->x.p;
    emu_bptr b = desc_at(F, I, o);
    const emu_mem_aux *x = &o->m;
    size_t es = x->esize;
    const uint8_t *v = F->mem + I->b;
    const ct_emu *e = F->run->e;
    win w = win_init();
    for (int64_t i = 0; i < I->n; i++) {
        uint64_t a;
        if (!bptr_addr(&b, x, i, &a))
            continue;
        uint8_t *h = resolve(e, &w, a, es, true);
        if (!h)
            return lane_fault(F, I, i, a, es, true);
        bool changed = false;
        rmw_one(F, h, es, x->ek, (int)I->flags, emu_ld_bits(v + (size_t)i * es, es), &changed);
    }
    F->writes++;
    return EMU_NEXT;
}
