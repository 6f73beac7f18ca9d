/*
 * mufu.c - the H200's special-function unit, bit for bit (models in mufu_internal.h).
 *
 * ptxas -arch=sm_90 turns the approximate instructions into (disassembled with cuobjdump):
 *   rcp.approx.ftz.f32 a      MUFU.RCP a
 *   rsqrt.approx.ftz.f32 a    MUFU.RSQ a
 *   sqrt.approx.ftz.f32 a     MUFU.SQRT a
 *   ex2.approx.ftz.f32 a      MUFU.EX2 a
 *   ex2.approx.f32 a          P0 = a >= -126;  if !P0 a *= 0.5;  y = MUFU.EX2 a;  if !P0 y = y * y
 *   lg2.approx.ftz.f32 a      MUFU.LG2 a
 *   lg2.approx.f32 a          P0 = |a| >= 2^-126 (or NaN);  if !P0 a *= 2^24;  y = MUFU.LG2 a;
 *                             if !P0 y = y + -24
 *   div.full.f32 a, b         P0 = |b| > 2^126; P1 = |b| >= 2^-126;
 *                             if P0 { b *= 0.25; a *= 0.25 }  if !P1 { b *= 2^24; a *= 2^24 }
 *                             r = MUFU.RCP b;  d = r * a       (FMUL, subnormals kept)
 * The measured behaviour of each MUFU operation (scripts/gpu/mufu_probe.cu, all 2^32 inputs):
 * the output is the table entry of the input's mantissa (for RSQ and SQRT: of the mantissa and
 * the exponent's parity; for EX2: of the fraction of |x|, one table per sign) scaled by the
 * power of two the exponent (EX2: the integer part) gives, with subnormal inputs read as zero
 * and subnormal results flushed to zero.  The tables (mufu_data.c) are decoded
 * once into bitmaps of exceptions to a per-segment quadratic; see scripts/mufu/fit.py.
 * LG2 is a fixed-point sum of the exponent and a table of the mantissa, truncated: see
 * emu_mufu_lg2 below and scripts/mufu/fit_lg2.py (its data: mufu_lg2_data.c).
 */
#include "mufu_internal.h"

#include <math.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static inline float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- decoding: LZMA's binary range decoder over the coded entries --------------------------- */

typedef struct rdec {
    const unsigned char *p, *end;
    uint32_t range, code;
} rdec;

static inline uint32_t rd_byte(rdec *d)
{
    return d->p < d->end ? *d->p++ : 0;
}

static void rd_init(rdec *d, const unsigned char *p, uint32_t n)
{
    d->p = p;
    d->end = p + n;
    d->range = 0xFFFFFFFFu;
    d->code = 0;
    for (int i = 0; i < 5; i++)
        d->code = (d->code << 8) | rd_byte(d);
}

static inline int rd_bit(rdec *d, uint16_t *prob)
{
    uint32_t bound = (d->range >> 11) * *prob;
    int bit;
    if (d->code < bound) {
        d->range = bound;
        *prob += (2048 - *prob) >> 5;
        bit = 0;
    } else {
        d->code -= bound;
        d->range -= bound;
        *prob -= *prob >> 5;
        bit = 1;
    }
    if (d->range < (1u << 24)) {
        d->range <<= 8;
        d->code = (d->code << 8) | rd_byte(d);
    }
    return bit;
}

#define NCTX 16

/* the quadratic of entry k: q, and floor(q) */
static inline double quad(const emu_mufu_table *t, uint32_t k, double *fl)
{
    const double *c = t->coef[k >> 16];
    double x = (double)(k & 0xffffu) * 0x1p-16;
    double q = c[0] + x * (c[1] + x * c[2]);
    *fl = floor(q);
    return q;
}

/* the exception bitmaps: static, so nothing is allocated (and nothing can fail) */
static uint64_t rcp_bits[(1u << 23) / 64], rsq_bits[(1u << 24) / 64], sqrt_bits[(1u << 24) / 64];
/* EX2's two tables' bitmaps side by side: the vector path indexes both from one base */
static uint64_t ex2_both_bits[2 * (1u << 23) / 64];
#define ex2_bits ex2_both_bits
#define ex2neg_bits (ex2_both_bits + (1u << 23) / 64)
/* and their coefficients: the positive table's EX2_SEGS segments, then the negative one's */
#define EX2_SEGS ((1u << 23) >> 16)
static double ex2_both_coef[2 * EX2_SEGS][3];

static const struct {
    const emu_mufu_table *t;
    uint64_t *bits;
} tables[] = {{&emu_mufu_rcp_table, rcp_bits},
              {&emu_mufu_rsq_table, rsq_bits},
              {&emu_mufu_sqrt_table, sqrt_bits},
              {&emu_mufu_ex2_table, ex2_bits},
              {&emu_mufu_ex2neg_table, ex2neg_bits}};
#define NTABLES (sizeof tables / sizeof tables[0])

/* EX2's entries packed for the vector path: per group of 32 entries one word.  Bits 0-30 hold
 * the first entry's bits, bit 31 the group's least step s (0 or 1) between two entries, bit
 * 31 + j whether the step to entry j (1 to 31) is s + 1: so entry j is the first one plus or
 * minus (s j + the number of ones in bits 32 to 31 + j), one popcount.  The steps, 0, 1 or 2
 * along the table, are within one of each other in all but a few hundred groups (exceptions
 * next to a step of 2); such a group's word has bit 63 set and its lanes take the scalar model.
 * The positive table's 2^18 words, then the negative one's (4 MiB: the random lanes of an exp
 * mostly miss the L2 cache, so its size counts).  Built by decode() from the same entries as
 * entry(). */
#define EX2_GROUP 32
#define EX2_GROUPS ((1u << 23) / EX2_GROUP)
static uint64_t ex2_packed[2 * EX2_GROUPS];

/* entry()'s bits from floor(q) and the exception's direction (0: none) */
static inline uint32_t entry_bits(const emu_mufu_table *t, int64_t y)
{
    if (y >= (1 << 24))
        return (uint32_t)(t->lo + 1) << 23;
    return ((uint32_t)t->lo << 23) | (uint32_t)(y - (1 << 23));
}

/* the packed word of EX2_GROUP entries e (dir: +1 they rise, -1 they fall) */
static uint64_t pack_group(const uint32_t *e, int dir)
{
    int64_t lo = 2, hi = -1;
    for (int j = 1; j < EX2_GROUP; j++) {
        int64_t st = dir * ((int64_t)e[j] - (int64_t)e[j - 1]);
        lo = st < lo ? st : lo;
        hi = st > hi ? st : hi;
    }
    uint64_t w = e[0];
    if (lo < 0 || lo > 1 || hi - lo > 1)
        return w | 1ull << 63; /* the scalar model's */
    w |= (uint64_t)lo << 31;
    for (int j = 1; j < EX2_GROUP; j++)
        if (dir * ((int64_t)e[j] - (int64_t)e[j - 1]) > lo)
            w |= 1ull << (31 + j);
    return w;
}

/* packed: where to write the table's packed words (dir: +1 the entries rise, -1 they fall), or
 * NULL */
static uint64_t decode(const emu_mufu_table *t, uint64_t *bits, uint64_t *packed, int dir)
{
    rdec d;
    uint16_t prob[NCTX];
    uint64_t nexc = 0;
    uint32_t grp[EX2_GROUP];
    for (int i = 0; i < NCTX; i++)
        prob[i] = 1024;
    rd_init(&d, t->stream, t->nstream);
    for (uint32_t k = 0; k < t->n; k++) {
        double fl, q = quad(t, k, &fl);
        double fr = q - fl;
        double dist = fr < 1.0 - fr ? fr : 1.0 - fr;
        int adj = 0;
        if (dist < t->w) {
            int ctx = (int)(dist / t->w * NCTX);
            if (ctx > NCTX - 1)
                ctx = NCTX - 1;
            if (rd_bit(&d, &prob[ctx])) {
                bits[k >> 6] |= 1ull << (k & 63);
                nexc++;
                adj = q - fl < 0.5 ? -1 : 1; /* as entry() */
            }
        }
        if (!packed)
            continue;
        grp[k % EX2_GROUP] = entry_bits(t, (int64_t)fl + adj);
        if (k % EX2_GROUP == EX2_GROUP - 1)
            packed[k / EX2_GROUP] = pack_group(grp, dir);
    }
    return nexc;
}

/* Each table is decoded on its first use, the two EX2 tables together (their packed words are
 * one array): a kernel using only exp decodes 2^24 of the
 * 7 x 2^23 entries (decoding runs at about 6 ns an entry). */
enum { G_RCP, G_RSQ, G_SQRT, G_EX2, NGROUPS };
static uint64_t group_exceptions[NGROUPS];
static atomic_bool group_ready[NGROUPS]; /* set, with release, once the group's bitmaps are complete */

/* Bump when decode()'s output or the buffers below change (it keys the disk cache's files). */
#define MUFU_CACHE_LAYOUT 2u /* 2: EX2's packed words of 32 entries */
static atomic_int groups_decoded;

int emu_mufu_groups_decoded(void)
{
    return atomic_load(&groups_decoded);
}

static void decode_group(int g)
{
    static const char *const name[NGROUPS] = {"rcp", "rsq", "sqrt", "ex2"};
    const emu_mufu_table *ts[2] = {tables[g].t, &emu_mufu_ex2neg_table};
    int nt = g == G_EX2 ? 2 : 1;
    void *bufs[3] = {&group_exceptions[g]};
    size_t sizes[3] = {sizeof group_exceptions[g]};
    int nb = 1;
    if (g == G_EX2) {
        memcpy(ex2_both_coef, emu_mufu_ex2_table.coef, sizeof ex2_both_coef / 2);
        memcpy(ex2_both_coef[EX2_SEGS], emu_mufu_ex2neg_table.coef, sizeof ex2_both_coef / 2);
        bufs[nb] = ex2_both_bits, sizes[nb++] = sizeof ex2_both_bits;
        bufs[nb] = ex2_packed, sizes[nb++] = sizeof ex2_packed;
    } else {
        bufs[nb] = tables[g].bits;
        sizes[nb++] = g == G_RCP ? sizeof rcp_bits : g == G_RSQ ? sizeof rsq_bits : sizeof sqrt_bits;
    }
    uint64_t key = emu_mufu_cache_key(ts, nt, MUFU_CACHE_LAYOUT);
    if (!emu_mufu_cache_load(name[g], key, bufs, sizes, nb)) {
        if (g == G_EX2) {
            group_exceptions[g] = decode(&emu_mufu_ex2_table, ex2_bits, ex2_packed, 1) +
                                  decode(&emu_mufu_ex2neg_table, ex2neg_bits, ex2_packed + EX2_GROUPS, -1);
        } else {
            group_exceptions[g] = decode(tables[g].t, tables[g].bits, NULL, 0);
        }
        atomic_fetch_add(&groups_decoded, 1);
        emu_mufu_cache_store(name[g], key, (const void *const *)bufs, sizes, nb);
    }
    atomic_store_explicit(&group_ready[g], true, memory_order_release);
}

static void decode_rcp(void) { decode_group(G_RCP); }
static void decode_rsq(void) { decode_group(G_RSQ); }
static void decode_sqrt(void) { decode_group(G_SQRT); }
static void decode_ex2(void) { decode_group(G_EX2); }
static pthread_once_t group_once[NGROUPS] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                             PTHREAD_ONCE_INIT};
static void (*const group_decode[NGROUPS])(void) = {decode_rcp, decode_rsq, decode_sqrt, decode_ex2};

/* the hot paths test one flag; the first call decodes the group */
static inline void ready(int g)
{
    if (!atomic_load_explicit(&group_ready[g], memory_order_acquire))
        pthread_once(&group_once[g], group_decode[g]);
}

uint64_t emu_mufu_decode_all(void)
{
    uint64_t n = 0;
    for (int g = 0; g < NGROUPS; g++) {
        ready(g);
        n += group_exceptions[g];
    }
    return n;
}

/* the group of a table (tables[] lists RCP, RSQ, SQRT, EX2, EX2neg in that order) */
static inline int group_of(const emu_mufu_table *t)
{
    for (int i = 0; i < (int)NTABLES; i++)
        if (tables[i].t == t)
            return i < G_EX2 ? i : G_EX2;
    return G_RCP; /* not reached: every table is listed */
}

static inline const uint64_t *bits_of(const emu_mufu_table *t)
{
    for (size_t i = 0; i < NTABLES; i++)
        if (tables[i].t == t)
            return tables[i].bits;
    return rcp_bits; /* not reached: every table is listed */
}

static inline uint32_t entry(const emu_mufu_table *t, const uint64_t *bits, uint32_t k)
{
    double fl, q = quad(t, k, &fl);
    int64_t y = (int64_t)fl;
    if ((bits[k >> 6] >> (k & 63)) & 1)
        y += q - fl < 0.5 ? -1 : 1;
    /* y is the significand on binade lo's grid, in [2^23, 2^24] */
    if (y >= (1 << 24))
        return (uint32_t)(t->lo + 1) << 23;
    return ((uint32_t)t->lo << 23) | (uint32_t)(y - (1 << 23));
}

uint32_t emu_mufu_entry(const emu_mufu_table *t, uint32_t k)
{
    ready(group_of(t));
    return entry(t, bits_of(t), k);
}

/* t * 2^e for a normal t, flushed to signed zero below the normal range, infinite above */
static inline uint32_t scale_ftz(uint32_t t, int e)
{
    int te = (int)((t >> 23) & 0xff) + e;
    if (te <= 0)
        return t & 0x80000000u;
    if (te >= 255)
        return (t & 0x80000000u) | 0x7f800000u;
    return (t & 0x807fffffu) | ((uint32_t)te << 23);
}

float emu_mufu_rcp(float x)
{
    uint32_t u = fb(x), s = u & 0x80000000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return bf(0x7fffffffu);
    if (a < 0x00800000u)
        return bf(s | 0x7f800000u);
    if (a == 0x7f800000u)
        return bf(s);
    int ex = (int)(a >> 23) - 127;
    ready(G_RCP);
    return bf(s | scale_ftz(entry(&emu_mufu_rcp_table, rcp_bits, a & 0x7fffffu), -ex));
}

/* RSQ and SQRT: the table over [1, 4) indexed by the exponent's parity and the mantissa */
static inline float root(const emu_mufu_table *t, const uint64_t *bits, float x, int is_rsq)
{
    uint32_t u = fb(x), s = u & 0x80000000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return bf(0x7fffffffu);
    if (a < 0x00800000u) /* +-0 and subnormals (read as +-0) */
        return bf(is_rsq ? (s | 0x7f800000u) : s);
    if (s)
        return bf(0x7fffffffu);
    if (a == 0x7f800000u)
        return bf(is_rsq ? 0u : 0x7f800000u);
    int ex = (int)(a >> 23) - 127;
    int odd = ex & 1;
    int half = (ex - odd) / 2;
    ready(is_rsq ? G_RSQ : G_SQRT);
    uint32_t e = entry(t, bits, ((uint32_t)odd << 23) | (a & 0x7fffffu));
    return bf(scale_ftz(e, is_rsq ? -half : half));
}

float emu_mufu_rsq(float x)
{
    return root(&emu_mufu_rsq_table, rsq_bits, x, 1);
}

float emu_mufu_sqrt(float x)
{
    return root(&emu_mufu_sqrt_table, sqrt_bits, x, 0);
}

/* EX2 in sign-magnitude: |x| = i + f with f truncated to 23 fraction bits (only those bits of
 * the input matter: measured for 23 to 28); 2^x is 2^f from the positive table times 2^i, 2^-x
 * is 2^-f from the negative one times 2^-i. */
float emu_mufu_ex2(float x)
{
    uint32_t u = fb(x), a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return bf(0x7fffffffu);
    if (a < 0x00800000u) /* +-0 and subnormals (read as +-0) */
        return 1.0f;
    bool neg = u >> 31;
    if (a >= 0x43000000u) /* |x| >= 128 */
        return bf(neg ? 0u : 0x7f800000u);
    int64_t X = (int64_t)((double)bf(a) * 0x1p23); /* exact, then truncated */
    int i = (int)(X >> 23);
    uint32_t f = (uint32_t)(X & 0x7fffff);
    ready(G_EX2);
    if (neg)
        return bf(scale_ftz(entry(&emu_mufu_ex2neg_table, ex2neg_bits, f), -i));
    return bf(scale_ftz(entry(&emu_mufu_ex2_table, ex2_bits, f), i));
}

/* LG2 (scripts/gpu/mufu_lg2_probe.cu, scripts/mufu/fit_lg2.py): V = e 2^36 + l(m), the exponent
 * and the fixed-point log2 of the mantissa (36 fraction bits), converted to f32 by truncating its
 * magnitude to 24 significant bits, the magnitude of a negative V being its one's complement
 * -V - 1 (so lg2(2^-126) is -126 + 2^-17 and lg2(0.5) is -1 + 2^-23); lg2(1) is +0.  l(m) is a
 * function of the bits of m mod 2^16, bilinear, per segment of 2^16 mantissas (the hardware's
 * constant, linear and square terms as partial products), plus the stored exceptions. */
static signed char lg2_pair[16][16];
static pthread_once_t lg2_once = PTHREAD_ONCE_INIT;

static void lg2_init(void)
{
    int k = 17;
    for (int i = 0; i < 16; i++)
        for (int j = i + 1; j < 16; j++)
            lg2_pair[i][j] = (signed char)(k++ - 17);
}

int64_t emu_mufu_lg2_l(uint32_t m)
{
    pthread_once(&lg2_once, lg2_init);
    const double *c = emu_mufu_lg2_data.coef[m >> 16];
    uint32_t X = m & 0xffffu;
    int set[16], ns = 0;
    double p = c[0];
    for (int i = 0; i < 16; i++)
        if ((X >> i) & 1) {
            p += c[1 + i];
            set[ns++] = i;
        }
    for (int a = 0; a < ns; a++)
        for (int b = a + 1; b < ns; b++)
            p += c[17 + lg2_pair[set[a]][set[b]]];
    int64_t y = (int64_t)floor(p + 0.5);
    /* the segment's exceptions, sorted */
    uint32_t lo = emu_mufu_lg2_data.exc_start[m >> 16], end = emu_mufu_lg2_data.exc_start[(m >> 16) + 1];
    uint32_t hi = end;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (emu_mufu_lg2_data.exc_m[mid] < X)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < end && emu_mufu_lg2_data.exc_m[lo] == X)
        y += emu_mufu_lg2_data.exc_d[lo];
    return y;
}

/* M 2^-36 with M's bits below its 24 leading ones dropped */
static inline float lg2_trunc(uint64_t M)
{
    if (M == 0)
        return 0.0f;
    int n = 63 - __builtin_clzll(M);
    if (n > 23)
        M &= ~((1ull << (n - 23)) - 1);
    return (float)M * 0x1p-36f;
}

float emu_mufu_lg2(float x)
{
    uint32_t u = fb(x), a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return bf(0x7fffffffu);
    if (a < 0x00800000u) /* +-0 and subnormals (read as +-0) */
        return bf(0xff800000u);
    if (u >> 31)
        return bf(0x7fffffffu);
    if (a == 0x7f800000u)
        return bf(0x7f800000u);
    if (a == 0x3f800000u)
        return 0.0f;
    int e = (int)(a >> 23) - 127;
    int64_t V = (int64_t)e * (1ll << 36) + emu_mufu_lg2_l(a & 0x7fffffu);
    return V >= 0 ? lg2_trunc((uint64_t)V) : -lg2_trunc((uint64_t)(-V - 1));
}

float emu_lg2_full(float x)
{
    /* FSETP.GEU P0 = |x| >= 2^-126 (true for NaN) */
    if (fabsf(x) >= 0x1p-126f || x != x)
        return emu_mufu_lg2(x);
    float y = emu_mufu_lg2(x * 0x1p24f) + -24.0f;
    return y != y ? bf(0x7fffffffu) : y;
}

float emu_ex2_full(float x)
{
    /* FSETP.GEU P0 = x >= -126 (false for NaN) */
    if (x >= -126.0f)
        return emu_mufu_ex2(x);
    float y = emu_mufu_ex2(x * 0.5f);
    y = y * y;
    return y != y ? bf(0x7fffffffu) : y;
}

float emu_div_full(float a, float b)
{
    float ab = fabsf(b);
    int p0 = ab > 0x1p126f, p1 = ab >= 0x1p-126f;
    if (p0) {
        b *= 0.25f;
        a *= 0.25f;
    }
    if (!p1) {
        b *= 0x1p24f;
        a *= 0x1p24f;
    }
    float d = emu_mufu_rcp(b) * a;
    return d != d ? bf(0x7fffffffu) : d;
}

/* div.full.f32 whose only use is an add.f32: ptxas contracts the sequence's final FMUL with
 * the add into one FFMA (rcp(b') * a' + c, rounded once), as it does in `sum / N + eps` */
float emu_div_full_fma(float a, float b, float c, int form)
{
    float ab = fabsf(b);
    int p0 = ab > 0x1p126f, p1 = ab >= 0x1p-126f;
    if (p0) {
        b *= 0.25f;
        a *= 0.25f;
    }
    if (!p1) {
        b *= 0x1p24f;
        a *= 0x1p24f;
    }
    float r = emu_mufu_rcp(b);
    float d = form == 0 ? fmaf(r, a, c) : form == 1 ? fmaf(r, a, -c) : fmaf(-r, a, c);
    return d != d ? bf(0x7fffffffu) : d;
}

/* div.full.f32 by a divisor the PTX has as a constant: ptxas folds the sequence into the
 * scaled dividend times the correctly rounded reciprocal of the scaled divisor, computed when
 * it compiles (the SASS of x / 33 is FMUL x, 0.030303031 = RN(1/33), where MUFU.RCP(33) is one
 * ulp lower; x / 1e38 is FMUL x, 0.25 then FMUL by RN(1/2.5e37); x / 3e-39 scales by 2^24) */
static inline float div_const_scale(float b)
{
    float ab = fabsf(b), s = 1.0f;
    if (ab > 0x1p126f)
        s = 0.25f;
    if (!(ab >= 0x1p-126f))
        s = 0x1p24f;
    return s;
}

float emu_div_full_const(float a, float b)
{
    float s = div_const_scale(b);
    float k = 1.0f / (b * s);
    float d = (s == 1.0f ? a : a * s) * k;
    return d != d ? bf(0x7fffffffu) : d;
}

/* the same contracted into an add (form as emu_div_full_fma): FFMA a', RN(1/b'), c */
float emu_div_full_const_fma(float a, float b, float c, int form)
{
    float s = div_const_scale(b);
    float k = 1.0f / (b * s);
    if (s != 1.0f)
        a = a * s;
    float d = form == 0 ? fmaf(k, a, c) : form == 1 ? fmaf(k, a, -c) : fmaf(-k, a, c);
    return d != d ? bf(0x7fffffffu) : d;
}

/* ---- arrays: eight lanes at a time on AVX-512, the scalar functions' bits -------------------- */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define MUFU_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl")))
#define MUFU_AVX512_POPCNT __attribute__((target("avx512f,avx512dq,avx512vl,avx512vpopcntdq")))

/* entry() on eight lanes: k the entry indices, seg0 the index of each lane's first segment in
 * coef (EX2: its two tables' coefficients side by side, the negative one from segment 128), the
 * bitmap words from bits + boff, lo the binades, w the tables' candidate widths.  A lane's
 * exception bit can be set only where q is within w of an integer (decode() leaves every other
 * bit clear), so the bitmap, too large for the L2 cache, is read only for those lanes. */
MUFU_AVX512 static inline __m512i entry8(__m512i k, __m512i seg0, const double *coef, const uint64_t *bits,
                                         __m512i boff, __m512i lo, __m512d w)
{
    __m512i seg = _mm512_add_epi64(_mm512_srli_epi64(k, 16), seg0);
    __m512i seg3 = _mm512_add_epi64(seg, _mm512_add_epi64(seg, seg));
    __m512d x = _mm512_mul_pd(_mm512_cvtepi64_pd(_mm512_and_si512(k, _mm512_set1_epi64(0xffff))),
                              _mm512_set1_pd(0x1p-16));
    __m512d c0 = _mm512_i64gather_pd(seg3, coef, 8);
    __m512d c1 = _mm512_i64gather_pd(seg3, coef + 1, 8);
    __m512d c2 = _mm512_i64gather_pd(seg3, coef + 2, 8);
    /* q = c0 + x * (c1 + x * c2), separate multiplies and adds as in quad() */
    __m512d q = _mm512_add_pd(c0, _mm512_mul_pd(x, _mm512_add_pd(c1, _mm512_mul_pd(x, c2))));
    __m512d fl = _mm512_roundscale_pd(q, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    __m512i y = _mm512_cvttpd_epi64(fl);
    __m512d fr = _mm512_sub_pd(q, fl);
    /* decode()'s test: min(fr, 1 - fr) < w */
    __mmask8 cand = _mm512_cmp_pd_mask(fr, w, _CMP_LT_OQ) |
                    _mm512_cmp_pd_mask(_mm512_sub_pd(_mm512_set1_pd(1.0), fr), w, _CMP_LT_OQ);
    if (cand) {
        __m512i wd = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), cand,
                                                 _mm512_add_epi64(_mm512_srli_epi64(k, 6), boff),
                                                 (const long long *)bits, 8);
        wd = _mm512_srlv_epi64(wd, _mm512_and_si512(k, _mm512_set1_epi64(63)));
        __mmask8 exc = _mm512_mask_test_epi64_mask(cand, wd, _mm512_set1_epi64(1));
        __mmask8 below = _mm512_cmp_pd_mask(fr, _mm512_set1_pd(0.5), _CMP_LT_OQ);
        y = _mm512_mask_sub_epi64(y, exc & below, y, _mm512_set1_epi64(1));
        y = _mm512_mask_add_epi64(y, exc & ~below, y, _mm512_set1_epi64(1));
    }
    __m512i r = _mm512_or_si512(_mm512_slli_epi64(lo, 23), _mm512_sub_epi64(y, _mm512_set1_epi64(1 << 23)));
    __mmask8 top = _mm512_cmpge_epi64_mask(y, _mm512_set1_epi64(1 << 24));
    return _mm512_mask_mov_epi64(r, top, _mm512_slli_epi64(_mm512_add_epi64(lo, _mm512_set1_epi64(1)), 23));
}

/* scale_ftz on eight lanes: t normal and positive, e the power of two */
MUFU_AVX512 static inline __m512i scale8(__m512i t, __m512i e)
{
    __m512i te = _mm512_add_epi64(_mm512_and_si512(_mm512_srli_epi64(t, 23), _mm512_set1_epi64(0xff)), e);
    __m512i r = _mm512_or_si512(_mm512_and_si512(t, _mm512_set1_epi64(0x807fffff)), _mm512_slli_epi64(te, 23));
    r = _mm512_mask_mov_epi64(r, _mm512_cmple_epi64_mask(te, _mm512_setzero_si512()),
                              _mm512_and_si512(t, _mm512_set1_epi64(0x80000000)));
    return _mm512_mask_mov_epi64(r, _mm512_cmpge_epi64_mask(te, _mm512_set1_epi64(255)),
                                 _mm512_or_si512(_mm512_and_si512(t, _mm512_set1_epi64(0x80000000)),
                                                 _mm512_set1_epi64(0x7f800000)));
}

/* MUFU.EX2 of eight f32 lanes (as 64-bit integers holding the bits) */
MUFU_AVX512 static inline __m512i ex2_8(__m512i u)
{
    __m512i a = _mm512_and_si512(u, _mm512_set1_epi64(0x7fffffff));
    __mmask8 nan = _mm512_cmpgt_epi64_mask(a, _mm512_set1_epi64(0x7f800000));
    __mmask8 tiny = _mm512_cmplt_epi64_mask(a, _mm512_set1_epi64(0x00800000));
    __mmask8 big = _mm512_cmpge_epi64_mask(a, _mm512_set1_epi64(0x43000000)) & ~nan;
    __mmask8 neg = _mm512_test_epi64_mask(u, _mm512_set1_epi64(0x80000000));
    __mmask8 ok = ~(nan | tiny | big);
    /* |x| as f32 -> double, times 2^23, truncated */
    __m256 af = _mm256_castsi256_ps(_mm512_cvtepi64_epi32(a));
    __m512i X = _mm512_cvttpd_epi64(_mm512_mul_pd(_mm512_cvtps_pd(af), _mm512_set1_pd(0x1p23)));
    X = _mm512_maskz_mov_epi64(ok, X); /* special lanes read entry 0 */
    __m512i i = _mm512_srai_epi64(X, 23);
    __m512i f = _mm512_and_si512(X, _mm512_set1_epi64(0x7fffff));
    __m512i boff = _mm512_maskz_mov_epi64(neg, _mm512_set1_epi64((1u << 23) / 64));
    __m512i lo = _mm512_mask_mov_epi64(_mm512_set1_epi64(emu_mufu_ex2_table.lo), neg,
                                       _mm512_set1_epi64(emu_mufu_ex2neg_table.lo));
    __m512i seg0 = _mm512_maskz_mov_epi64(neg, _mm512_set1_epi64(EX2_SEGS));
    __m512d w = _mm512_mask_mov_pd(_mm512_set1_pd(emu_mufu_ex2_table.w), neg,
                                   _mm512_set1_pd(emu_mufu_ex2neg_table.w));
    __m512i t = entry8(f, seg0, &ex2_both_coef[0][0], ex2_both_bits, boff, lo, w);
    __m512i r = scale8(t, _mm512_mask_sub_epi64(i, neg, _mm512_setzero_si512(), i));
    r = _mm512_mask_mov_epi64(r, tiny, _mm512_set1_epi64(0x3f800000));
    r = _mm512_mask_mov_epi64(r, big & neg, _mm512_setzero_si512());
    r = _mm512_mask_mov_epi64(r, big & ~neg, _mm512_set1_epi64(0x7f800000));
    return _mm512_mask_mov_epi64(r, nan, _mm512_set1_epi64(0x7fffffff));
}

/* the packed words of 8 lanes (g their indices) and the number of ones among the steps to each
 * lane's entry (sh = 64 - j for entry j of its group: the step bits 32 to 31 + j shifted to
 * the top, none for j = 0, where vpsllvq's count of 64 gives 0) */
MUFU_AVX512_POPCNT static inline __m512i packed_steps8(__m256i g, __m256i sh, __m512i *w)
{
    *w = _mm512_i32gather_epi64(g, (const long long *)ex2_packed, 8);
    return _mm512_popcnt_epi64(_mm512_sllv_epi64(_mm512_srli_epi64(*w, 32), _mm512_cvtepu32_epi64(sh)));
}

/* MUFU.EX2 of sixteen f32 lanes (their bits) from the packed entries; *irregular: the lanes whose
 * group has no packed steps (bit 63), for the caller to take from the scalar model */
MUFU_AVX512_POPCNT static inline __m512i ex2_16_packed(__m512i u, __mmask16 *irregular)
{
    const __m512i zero = _mm512_setzero_si512();
    __m512i a = _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff));
    __mmask16 nan = _mm512_cmpgt_epu32_mask(a, _mm512_set1_epi32(0x7f800000));
    __mmask16 tiny = _mm512_cmplt_epu32_mask(a, _mm512_set1_epi32(0x00800000));
    __mmask16 big = _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x43000000)) & ~nan;
    __mmask16 neg = _mm512_movepi32_mask(u);
    __mmask16 ok = ~(nan | tiny | big);
    /* X = floor(|x| 2^23): for the normal |x| < 128 of the other lanes |x| 2^23 is exact in
     * f32 and below 2^30, so the truncating conversion gives it; the special lanes read entry 0 */
    __m512i X = _mm512_maskz_cvttps_epi32(ok, _mm512_mul_ps(_mm512_castsi512_ps(a), _mm512_set1_ps(0x1p23f)));
    __m512i i = _mm512_srli_epi32(X, 23);
    __m512i f = _mm512_and_si512(X, _mm512_set1_epi32(0x7fffff));
    __m512i g = _mm512_srli_epi32(f, 5); /* EX2_GROUP */
    g = _mm512_mask_add_epi32(g, neg, g, _mm512_set1_epi32((int)EX2_GROUPS));
    __m512i j = _mm512_and_si512(X, _mm512_set1_epi32(EX2_GROUP - 1));
    __m512i sh = _mm512_sub_epi32(_mm512_set1_epi32(64), j);
    __m512i w0, w1;
    __m512i c0 = packed_steps8(_mm512_castsi512_si256(g), _mm512_castsi512_si256(sh), &w0);
    __m512i c1 = packed_steps8(_mm512_extracti64x4_epi64(g, 1), _mm512_extracti64x4_epi64(sh, 1), &w1);
    *irregular = (__mmask16)(_mm512_movepi64_mask(w0) | (unsigned)_mm512_movepi64_mask(w1) << 8);
    /* the low halves of the sixteen 64-bit lanes: the first entries (31 bits) and s, the counts */
    const __m512i lows = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    __m512i lw = _mm512_permutex2var_epi32(w0, lows, w1);
    __m512i base = _mm512_and_si512(lw, _mm512_set1_epi32(0x7fffffff));
    __m512i cnt = _mm512_permutex2var_epi32(c0, lows, c1);
    cnt = _mm512_mask_add_epi32(cnt, _mm512_movepi32_mask(lw), cnt, j); /* + s j */
    __m512i t = _mm512_mask_sub_epi32(_mm512_add_epi32(base, cnt), neg, base, cnt);
    /* times 2^(+-i): t is normal and positive, so adding to its exponent field is the product
     * while the exponent te stays in (0, 255); below the normal range +0, above it inf */
    __m512i si = _mm512_mask_sub_epi32(i, neg, zero, i);
    __m512i te = _mm512_add_epi32(_mm512_srli_epi32(t, 23), si);
    __m512i r = _mm512_add_epi32(t, _mm512_slli_epi32(si, 23));
    r = _mm512_mask_mov_epi32(r, _mm512_cmple_epi32_mask(te, zero) | (big & neg), zero);
    r = _mm512_mask_mov_epi32(r, _mm512_cmpge_epi32_mask(te, _mm512_set1_epi32(255)) | (big & ~neg),
                              _mm512_set1_epi32(0x7f800000));
    r = _mm512_mask_mov_epi32(r, tiny, _mm512_set1_epi32(0x3f800000));
    return _mm512_mask_mov_epi32(r, nan, _mm512_set1_epi32(0x7fffffff));
}

/* ex2 of a[0 .. n) (of a[i] log2(e) rounded to f32 when log2e: math.exp) */
MUFU_AVX512_POPCNT static void ex2_array_packed(float *d, const float *a, int64_t n, bool full, bool log2e)
{
    for (int64_t i = 0; i < n; i += 16) {
        __mmask16 live = n - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - i)) - 1);
        __m512 x = _mm512_maskz_loadu_ps(live, a + i);
        if (log2e)
            x = _mm512_mul_ps(x, _mm512_set1_ps(0x1.715476p+0f)); /* EMU_LOG2E_F */
        __mmask16 halve = 0;
        if (full) { /* ex2.approx.f32: below -126 (not NaN), halve, then square */
            halve = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-126.0f), _CMP_NGE_UQ);
            x = _mm512_mask_mul_ps(x, halve, x, _mm512_set1_ps(0.5f));
        }
        __mmask16 irregular;
        __m512 y = _mm512_castsi512_ps(ex2_16_packed(_mm512_castps_si512(x), &irregular));
        if (irregular) { /* a few hundred groups of each table: the scalar model */
            float xs[16], ys[16];
            _mm512_storeu_ps(xs, x);
            _mm512_storeu_ps(ys, y);
            for (int l = 0; l < 16; l++)
                if ((irregular >> l) & 1)
                    ys[l] = emu_mufu_ex2(xs[l]);
            y = _mm512_loadu_ps(ys);
        }
        if (halve) {
            y = _mm512_mask_mul_ps(y, halve, y, y);
            __mmask16 nan = _mm512_cmp_ps_mask(y, y, _CMP_UNORD_Q);
            y = _mm512_mask_mov_ps(y, nan, _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff)));
        }
        _mm512_mask_storeu_ps(d + i, live, y);
    }
}

MUFU_AVX512 static void ex2_array_avx512(float *d, const float *a, int64_t n, bool full)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_loadu_ps(a + i);
        __mmask8 halve = 0;
        if (full) { /* ex2.approx.f32: below -126 (not NaN), halve, then square */
            halve = _mm256_cmp_ps_mask(x, _mm256_set1_ps(-126.0f), _CMP_NGE_UQ);
            x = _mm256_mask_mul_ps(x, halve, x, _mm256_set1_ps(0.5f));
        }
        __m512i u = _mm512_cvtepu32_epi64(_mm256_castps_si256(x));
        __m256 y = _mm256_castsi256_ps(_mm512_cvtepi64_epi32(ex2_8(u)));
        if (halve) {
            y = _mm256_mask_mul_ps(y, halve, y, y);
            __mmask8 nan = _mm256_cmp_ps_mask(y, y, _CMP_UNORD_Q);
            y = _mm256_mask_mov_ps(y, nan, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
        }
        _mm256_storeu_ps(d + i, y);
    }
    for (; i < n; i++)
        d[i] = full ? emu_ex2_full(a[i]) : emu_mufu_ex2(a[i]);
}

MUFU_AVX512 static inline __m256 rcp8(__m256 y);

/* emu_div_full on eight lanes */
MUFU_AVX512 static void div_array_avx512(float *d, const float *a, const float *b, int64_t n)
{
    int64_t i = 0;
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    bool have_last = false;
    uint32_t last_y = 0;
    float last_rc = 0.0f;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_loadu_ps(a + i), y = _mm256_loadu_ps(b + i);
        __m256 ay = _mm256_and_ps(y, absmask);
        __mmask8 p0 = _mm256_cmp_ps_mask(ay, _mm256_set1_ps(0x1p126f), _CMP_GT_OQ);
        __mmask8 np1 = _mm256_cmp_ps_mask(ay, _mm256_set1_ps(0x1p-126f), _CMP_NGE_UQ);
        y = _mm256_mask_mul_ps(y, p0, y, _mm256_set1_ps(0.25f));
        x = _mm256_mask_mul_ps(x, p0, x, _mm256_set1_ps(0.25f));
        y = _mm256_mask_mul_ps(y, np1, y, _mm256_set1_ps(0x1p24f));
        x = _mm256_mask_mul_ps(x, np1, x, _mm256_set1_ps(0x1p24f));
        __m256 rc;
        __m256i yi = _mm256_castps_si256(y);
        if (_mm256_cmpeq_epi32_mask(yi, _mm256_permutexvar_epi32(_mm256_setzero_si256(), yi)) == 0xff) {
            /* one divisor for all eight lanes (a row's broadcast sum), the same bits (+0 and -0
             * are not one divisor): one MUFU.RCP, kept for the next eight while the bits stay */
            uint32_t yb = (uint32_t)_mm256_cvtsi256_si32(_mm256_castps_si256(y));
            if (!have_last || yb != last_y) {
                last_y = yb;
                last_rc = emu_mufu_rcp(_mm256_cvtss_f32(y));
                have_last = true;
            }
            rc = _mm256_set1_ps(last_rc);
        } else {
            rc = rcp8(y);
        }
        __m256 q = _mm256_mul_ps(rc, x);
        __mmask8 qnan = _mm256_cmp_ps_mask(q, q, _CMP_UNORD_Q);
        _mm256_storeu_ps(d + i, _mm256_mask_mov_ps(q, qnan, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff))));
    }
    for (; i < n; i++)
        d[i] = emu_div_full(a[i], b[i]);
}

/* MUFU.RCP of eight lanes */
MUFU_AVX512 static inline __m256 rcp8(__m256 y)
{
    {
        __m512i u = _mm512_cvtepu32_epi64(_mm256_castps_si256(y));
        __m512i s = _mm512_and_si512(u, _mm512_set1_epi64(0x80000000));
        __m512i ua = _mm512_and_si512(u, _mm512_set1_epi64(0x7fffffff));
        __mmask8 nan = _mm512_cmpgt_epi64_mask(ua, _mm512_set1_epi64(0x7f800000));
        __mmask8 zero = _mm512_cmplt_epi64_mask(ua, _mm512_set1_epi64(0x00800000));
        __mmask8 inf = _mm512_cmpeq_epi64_mask(ua, _mm512_set1_epi64(0x7f800000));
        __mmask8 ok = ~(nan | zero | inf);
        __m512i k = _mm512_maskz_and_epi64(ok, ua, _mm512_set1_epi64(0x7fffff));
        __m512i t = entry8(k, _mm512_setzero_si512(), &emu_mufu_rcp_table.coef[0][0], rcp_bits,
                           _mm512_setzero_si512(), _mm512_set1_epi64(emu_mufu_rcp_table.lo),
                           _mm512_set1_pd(emu_mufu_rcp_table.w));
        __m512i ex = _mm512_sub_epi64(_mm512_srli_epi64(ua, 23), _mm512_set1_epi64(127));
        __m512i r = _mm512_or_si512(s, scale8(t, _mm512_sub_epi64(_mm512_setzero_si512(), ex)));
        r = _mm512_mask_mov_epi64(r, zero, _mm512_or_si512(s, _mm512_set1_epi64(0x7f800000)));
        r = _mm512_mask_mov_epi64(r, inf, s);
        r = _mm512_mask_mov_epi64(r, nan, _mm512_set1_epi64(0x7fffffff));
        return _mm256_castsi256_ps(_mm512_cvtepi64_epi32(r));
    }
}

static int have_avx512(void)
{
    static int v = -1;
    if (v < 0)
        v = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vl");
    return v;
}

static int have_vpopcnt(void)
{
    static int v = -1;
    if (v < 0)
        v = __builtin_cpu_supports("avx512vpopcntdq");
    return v;
}
#endif

bool emu_mufu_ex2_array_path(float *d, const float *a, int64_t n, bool full, emu_ex2_path path)
{
    ready(G_EX2);
#ifdef MUFU_AVX512
    bool packed = have_avx512() && have_vpopcnt();
    if (path == EMU_EX2_AUTO)
        path = packed ? EMU_EX2_PACKED : have_avx512() ? EMU_EX2_BITMAPS : EMU_EX2_SCALAR;
    if (path == EMU_EX2_PACKED) {
        if (!packed)
            return false;
        ex2_array_packed(d, a, n, full, false);
        return true;
    }
    if (path == EMU_EX2_BITMAPS) {
        if (!have_avx512())
            return false;
        ex2_array_avx512(d, a, n, full);
        return true;
    }
#else
    if (path != EMU_EX2_AUTO && path != EMU_EX2_SCALAR)
        return false;
#endif
    for (int64_t i = 0; i < n; i++)
        d[i] = full ? emu_ex2_full(a[i]) : emu_mufu_ex2(a[i]);
    return true;
}

bool emu_mufu_exp_array_packed(float *d, const float *a, int64_t n)
{
    ready(G_EX2);
#ifdef MUFU_AVX512
    if (have_avx512() && have_vpopcnt()) {
        ex2_array_packed(d, a, n, true, true);
        return true;
    }
#endif
    (void)d, (void)a, (void)n;
    return false;
}

void emu_mufu_ex2_array(float *d, const float *a, int64_t n, bool full, bool force_scalar)
{
    emu_mufu_ex2_array_path(d, a, n, full, force_scalar ? EMU_EX2_SCALAR : EMU_EX2_AUTO);
}

void emu_div_full_array(float *d, const float *a, const float *b, int64_t n, bool force_scalar)
{
    ready(G_RCP);
#ifdef MUFU_AVX512
    if (!force_scalar && have_avx512()) {
        div_array_avx512(d, a, b, n);
        return;
    }
#endif
    (void)force_scalar;
    for (int64_t i = 0; i < n; i++)
        d[i] = emu_div_full(a[i], b[i]);
}
