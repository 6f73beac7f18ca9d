/* ref.c - what kernel references build their cases with (ctriton/ref.h):
 * seeded inputs, outputs and their tolerances, config lookups. */
#include "ctriton/ref.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: small, seedable, identical everywhere */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double ct_ref_rand(ct_ref_case *c)
{
    return (double)(next(&c->rng) >> 11) * 0x1p-53;
}

bool ct_ref_fail(ct_ref_case *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    return false;
}

bool ct_ref_one_block(ct_ref_case *c, const char *dim, int64_t n, const char *block)
{
    int64_t b = ct_ref_constexpr(c, block, 0);
    if (b > 0 && n > b)
        return ct_ref_fail(c, "%s = %lld does not fit in one block (%s = %lld)", dim, (long long)n,
                           block, (long long)b);
    return true;
}

bool ct_ref_case_init(ct_ref_case *c, const ct_kernel_ref *r, const tl_config *cfg, uint64_t seed)
{
    return ct_ref_case_init_ex(c, r, cfg, seed, NULL);
}

bool ct_ref_case_init_ex(ct_ref_case *c, const ct_kernel_ref *r, const tl_config *cfg,
                         uint64_t seed, const ct_ref_opts *o)
{
    memset(c, 0, sizeof *c);
    if (o) {
        c->size_name = o->size_name;
        c->size = o->size;
        c->inputs = o->inputs;
    }
    c->cfg = cfg;
    c->seed = seed;
    c->rng = seed ^ 0x6a09e667f3bcc909ull;
    c->num_warps = cfg && cfg->num_warps ? cfg->num_warps : 4;
    c->grid[0] = c->grid[1] = c->grid[2] = 1;
    if (!r || !cfg)
        return ct_ref_fail(c, "no reference or no config");
    return r->setup(c);
}

void ct_ref_case_free(ct_ref_case *c)
{
    for (int i = 0; i < c->nargs; i++) {
        free(c->args[i].data);
        free(c->args[i].want);
    }
    c->nargs = 0;
}

ct_ref_arg *ct_ref_find_arg(ct_ref_case *c, const char *name)
{
    for (int i = 0; i < c->nargs; i++)
        if (!strcmp(c->args[i].name, name))
            return &c->args[i];
    return NULL;
}

/* NAME=value in a space-separated string; the value's text into buf */
static bool lookup(const char *s, const char *name, char *buf, size_t cap)
{
    size_t nl = strlen(name);
    for (const char *p = s; p && *p;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        const char *eq = strchr(p, '=');
        if (!eq)
            return false;
        const char *end = eq + 1;
        if (*end == '\'' || *end == '"') {
            char q = *end++;
            const char *close = strchr(end, q);
            if (!close)
                return false;
            if ((size_t)(eq - p) == nl && !strncmp(p, name, nl)) {
                snprintf(buf, cap, "%.*s", (int)(close - end), end);
                return true;
            }
            p = close + 1;
            continue;
        }
        while (*end && !isspace((unsigned char)*end))
            end++;
        if ((size_t)(eq - p) == nl && !strncmp(p, name, nl)) {
            snprintf(buf, cap, "%.*s", (int)(end - eq - 1), eq + 1);
            return true;
        }
        p = end;
    }
    return false;
}

int64_t ct_ref_problem(const ct_ref_case *c, const char *name, int64_t dflt)
{
    char buf[64];
    if (c->size_name && !strcmp(c->size_name, name))
        return c->size;
    if (!c->cfg || !lookup(c->cfg->problem, name, buf, sizeof buf))
        return dflt;
    return strtoll(buf, NULL, 0);
}

double ct_ref_problem_float(const ct_ref_case *c, const char *name, double dflt)
{
    char buf[64];
    if (!c->cfg || !lookup(c->cfg->problem, name, buf, sizeof buf))
        return dflt;
    return strtod(buf, NULL);
}

int64_t ct_ref_constexpr(const ct_ref_case *c, const char *name, int64_t dflt)
{
    char buf[64];
    if (!c->cfg || !lookup(c->cfg->constexprs, name, buf, sizeof buf))
        return dflt;
    if (!strcmp(buf, "True"))
        return 1;
    if (!strcmp(buf, "False"))
        return 0;
    return strtoll(buf, NULL, 0);
}

bool ct_ref_constexpr_str(const ct_ref_case *c, const char *name, char *buf, size_t cap)
{
    return c->cfg && lookup(c->cfg->constexprs, name, buf, cap);
}

static ct_ref_arg *add(ct_ref_case *c, const char *name, ct_ref_kind k)
{
    if (c->nargs >= CT_REF_MAX_ARGS)
        return NULL;
    ct_ref_arg *a = &c->args[c->nargs++];
    memset(a, 0, sizeof *a);
    a->name = name;
    a->kind = k;
    return a;
}

static ct_ref_arg *buffer(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n,
                          ct_emu_access acc)
{
    ct_ref_arg *a = add(c, name, CT_REF_BUF);
    if (!a)
        return NULL;
    a->dtype = t;
    a->n = n;
    a->access = acc;
    size_t bytes = (size_t)(n > 0 ? n : 1) * ct_emu_dtype_size(t);
    a->data = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (a->data)
        memset(a->data, 0, bytes);
    return a;
}

/* ---- hard inputs (CT_REF_INPUTS_HARD) ------------------------------------------ */

/* the largest finite value and the smallest subnormal of a float dtype (0: not one) */
static void float_limits(ct_emu_dtype t, double *max, double *sub)
{
    switch (t) {
    case CT_EMU_F16:
        *max = 65504, *sub = 0x1p-24;
        break;
    case CT_EMU_BF16:
        *max = 0x1.fep127, *sub = 0x1p-133;
        break;
    case CT_EMU_F32:
        *max = 0x1.fffffep127, *sub = 0x1p-149;
        break;
    case CT_EMU_F64:
        *max = 0x1.fffffffffffffp1023, *sub = 0x1p-1074;
        break;
    case CT_EMU_F8E4NV:
        *max = 448, *sub = 0x1p-9;
        break;
    case CT_EMU_F8E5:
        *max = 57344, *sub = 0x1p-16;
        break;
    default:
        *max = *sub = 0;
    }
}

/* Element i of a hard float input over [lo, hi): its range widened to hard_max, then one of
 * the range's ends, a zero, a subnormal, a large magnitude, the near-negation of the previous
 * element (a sum cancels), NaN or Inf where the reference defines them, or a plain value. */
static double hard_float(ct_ref_case *c, ct_emu_dtype t, const void *data, int64_t i, double lo,
                         double hi)
{
    double fmax_, sub;
    float_limits(t, &fmax_, &sub);
    double big = fmax(c->hard_max, fmax(fabs(lo), fabs(hi)));
    if (fmax_ > 0 && big > fmax_)
        big = fmax_;
    double wlo = lo < 0 ? -big : lo, whi = hi > 0 ? big : hi;
    bool has0 = lo <= 0 && hi >= 0;
    double r = ct_ref_rand(c), u = ct_ref_rand(c);
    double sign = (wlo < 0 && whi > 0) ? (u < 0.5 ? -1 : 1) : (whi > 0 ? 1 : -1);
    if (c->hard_nonfinite) {
        if (r < 0.02)
            return NAN;
        if (r < 0.06)
            return u < 0.5 ? INFINITY : -INFINITY;
        r = (r - 0.06) / 0.94;
    }
    if (r < 0.1) /* the ends of the given range */
        return u < 0.5 ? lo : hi - (hi - lo) * 0x1p-20;
    if (r < 0.2 && has0) /* signed zeros */
        return u < 0.5 ? 0.0 : -0.0;
    if (r < 0.3 && has0 && sub > 0) /* subnormals of the dtype */
        return sign * sub * (double)(1 + (int)(ct_ref_rand(c) * 1000));
    if (r < 0.5) /* large magnitudes */
        return sign * big * (0.5 + 0.5 * ct_ref_rand(c));
    if (r < 0.7 && i > 0) { /* cancellation: about the negation of the previous element */
        double prev = ct_emu_get(t, data, i - 1);
        double v = (wlo < 0 && whi > 0 ? -prev : prev) * (1 + 0x1p-10 * (ct_ref_rand(c) - 0.5));
        if (isfinite(v) && v >= wlo && v <= whi)
            return v;
    }
    return lo + (hi - lo) * u;
}

static void fill_hard(ct_ref_case *c, ct_ref_arg *a, double lo, double hi)
{
    bool fl = ct_emu_dtype_is_float(a->dtype);
    for (int64_t i = 0; i < a->n; i++) {
        double v;
        if (fl) {
            v = hard_float(c, a->dtype, a->data, i, lo, hi);
        } else { /* integers: the range's ends half of the time */
            double r = ct_ref_rand(c), u = ct_ref_rand(c);
            v = r < 0.25 ? lo : r < 0.5 ? hi - 1e-9 : lo + (hi - lo) * u;
            v = (double)(int64_t)(v < 0 ? v - 1 + 1e-12 : v);
        }
        ct_emu_set(a->dtype, a->data, i, v);
    }
}

ct_ref_arg *ct_ref_input(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n, double lo,
                         double hi)
{
    ct_ref_arg *a = buffer(c, name, t, n, CT_EMU_IN);
    if (!a || !a->data)
        return NULL;
    if (c->inputs == CT_REF_INPUTS_HARD && hi > lo) {
        fill_hard(c, a, lo, hi);
        return a;
    }
    bool fl = ct_emu_dtype_is_float(t);
    for (int64_t i = 0; i < n; i++) {
        double v = lo + (hi - lo) * ct_ref_rand(c);
        ct_emu_set(t, a->data, i, fl ? v : (double)(int64_t)(v < 0 ? v - 1 + 1e-12 : v));
    }
    return a;
}

ct_ref_arg *ct_ref_output(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n,
                          double rtol, double atol)
{
    ct_ref_arg *a = buffer(c, name, t, n, CT_EMU_OUT);
    if (!a || !a->data)
        return NULL;
    a->want = calloc((size_t)(n > 0 ? n : 1), ct_emu_dtype_size(t));
    a->rtol = rtol;
    a->atol = atol;
    return a->want ? a : NULL;
}

ct_ref_arg *ct_ref_inout(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n, double init,
                         double rtol, double atol)
{
    ct_ref_arg *a = buffer(c, name, t, n, CT_EMU_INOUT);
    if (!a || !a->data)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        ct_emu_set(t, a->data, i, init);
    a->want = calloc((size_t)(n > 0 ? n : 1), ct_emu_dtype_size(t));
    a->rtol = rtol;
    a->atol = atol;
    return a->want ? a : NULL;
}

void ct_ref_int(ct_ref_case *c, const char *name, int64_t v)
{
    ct_ref_arg *a = add(c, name, CT_REF_INT);
    if (a)
        a->i = v;
}

void ct_ref_float(ct_ref_case *c, const char *name, double v)
{
    ct_ref_arg *a = add(c, name, CT_REF_FLOAT);
    if (a)
        a->f = v;
}

ct_ref_arg *ct_ref_input_normal(ct_ref_case *c, const char *name, ct_emu_dtype t, int64_t n,
                                double scale, double shift)
{
    ct_ref_arg *a = ct_ref_input(c, name, t, n, 0, 0);
    if (!a)
        return NULL;
    if (c->inputs == CT_REF_INPUTS_HARD) { /* four sigmas either side */
        fill_hard(c, a, shift - 4 * fabs(scale), shift + 4 * fabs(scale));
        return a;
    }
    for (int64_t i = 0; i < n; i++)
        ct_emu_set(t, a->data, i, ct_ref_normal(c) * scale + shift);
    return a;
}

double ct_ref_normal(ct_ref_case *c)
{
    /* Irwin-Hall: the sum of 12 uniforms minus 6 has mean 0 and variance 1.
     * Only additions: the same bits on every machine (no libm). */
    double z = -6;
    for (int k = 0; k < 12; k++)
        z += ct_ref_rand(c);
    return z;
}

uint64_t ct_ref_fnv1a(const void *data, size_t bytes)
{
    const uint8_t *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

ct_emu_dtype ct_ref_sig_dtype(const ct_ref_case *c, const char *param)
{
    char buf[64];
    if (!c->cfg || !lookup(c->cfg->signature, param, buf, sizeof buf) || buf[0] != '*')
        return CT_EMU_BYTES;
    char *colon = strchr(buf, ':');
    if (colon)
        *colon = 0;
    const char *name = buf + 1;
    if (*name == 'k') /* const pointer */
        name++;
    int t = ct_emu_dtype_from_name(name);
    return t < 0 ? CT_EMU_BYTES : (ct_emu_dtype)t;
}

void ct_ref_tol(ct_emu_dtype t, double *rtol, double *atol)
{
    switch (t) {
    case CT_EMU_F16:
        *rtol = 2e-3, *atol = 1e-3;
        break;
    case CT_EMU_BF16:
        *rtol = 1.6e-2, *atol = 1e-2;
        break;
    case CT_EMU_F8E4NV:
    case CT_EMU_F8E5:
        *rtol = 0.125, *atol = 0x1p-9;
        break;
    case CT_EMU_F64:
        *rtol = 1e-12, *atol = 1e-14;
        break;
    default:
        *rtol = 1e-5, *atol = 1e-5;
    }
}

uint32_t ct_ref_philox_randint(uint64_t seed, uint64_t offset)
{
    uint32_t c0 = (uint32_t)offset, c1 = (uint32_t)(offset >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; r++) {
        uint64_t pb = (uint64_t)0xCD9E8D57u * c2, pa = (uint64_t)0xD2511F53u * c0;
        uint32_t n0 = (uint32_t)(pb >> 32) ^ c1 ^ k0, n2 = (uint32_t)(pa >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)pb;
        c3 = (uint32_t)pa;
        c0 = n0;
        c2 = n2;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return c0;
}

float ct_ref_philox_rand(uint64_t seed, uint64_t offset)
{
    int32_t x = (int32_t)ct_ref_philox_randint(seed, offset);
    if (x < 0)
        x = -x - 1;
    return (float)x * 4.6566127342e-10f;
}

bool ct_ref_gemm(const ct_ref_arg *a, const ct_ref_arg *b, int64_t m, int64_t n, int64_t k,
                 void (*row)(int64_t i, const double *c, const double *mag, void *ud), void *ud)
{
    double *bd = malloc(sizeof(double) * (size_t)(k * n));
    double *c = malloc(sizeof(double) * (size_t)n), *mag = malloc(sizeof(double) * (size_t)n);
    bool ok = bd && c && mag;
    for (int64_t i = 0; ok && i < k * n; i++)
        bd[i] = ct_ref_in(b, i);
    for (int64_t i = 0; ok && i < m; i++) {
        for (int64_t j = 0; j < n; j++)
            c[j] = mag[j] = 0;
        for (int64_t kk = 0; kk < k; kk++) {
            double av = ct_ref_in(a, i * k + kk);
            for (int64_t j = 0; j < n; j++) {
                c[j] += av * bd[kk * n + j];
                mag[j] += fabs(av * bd[kk * n + j]);
            }
        }
        row(i, c, mag, ud);
    }
    free(bd);
    free(c);
    free(mag);
    return ok;
}
