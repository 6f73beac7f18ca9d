/*
 * check.c - comparing outputs with a reference and classifying failures:
 * CRASH (the run faulted: out of bounds, assert, ... with its line),
 * SHAPE (element counts differ), MISMATCH (values beyond rtol/atol, with
 * the largest absolute and relative errors and where), and the flags that
 * usually explain a mismatch: HAS_NAN, HAS_INF, ALL_ZERO, UNWRITTEN.
 */
#include "emu_internal.h"

#include <math.h>
#include <stdio.h>

const char *ct_emu_verdict_name(ct_emu_verdict v)
{
    switch (v) {
    case CT_EMU_PASS:
        return "PASS";
    case CT_EMU_CRASH:
        return "CRASH";
    case CT_EMU_SHAPE:
        return "SHAPE";
    case CT_EMU_MISMATCH:
        return "MISMATCH";
    }
    return "?";
}

/* bits of element i, and a monotonic integer for ulp distances */
static uint64_t raw_bits(size_t es, const uint8_t *p, int64_t i)
{
    uint64_t u = 0;
    memcpy(&u, p + (size_t)i * es, es);
    return u;
}

static int64_t ordered(uint64_t bits, size_t es)
{
    int w = (int)es * 8;
    uint64_t sign = 1ull << (w - 1);
    uint64_t mag = bits & (sign - 1);
    return (bits & sign) ? -(int64_t)mag : (int64_t)mag;
}

static bool is_fnuz(ct_emu_dtype t)
{
    return t == CT_EMU_F8E4B8 || t == CT_EMU_F8E5B16;
}

ct_emu_verdict ct_emu_compare(ct_emu_dtype t, const void *got, int64_t n_got, const void *want,
                              int64_t n_want, double rtol, double atol, bool poison,
                              ct_emu_check *out)
{
    ct_emu_check c;
    memset(&c, 0, sizeof c);
    c.worst = -1;
    emu_numeric_init();
    if (n_got != n_want) {
        c.verdict = CT_EMU_SHAPE;
        snprintf(c.message, sizeof c.message, "SHAPE: %lld elements, the reference has %lld",
                 (long long)n_got, (long long)n_want);
        if (out)
            *out = c;
        return c.verdict;
    }
    size_t es = ct_emu_dtype_size(t);
    bool fl = ct_emu_dtype_is_float(t);
    bool exact = rtol == 0 && atol == 0;
    uint8_t pb = ct_emu_poison_byte(t);
    int64_t zeros = 0, want_zeros = 0, unwritten = 0;
    double worst_excess = -1;
    c.n = n_got;
    for (int64_t i = 0; i < n_got; i++) {
        const uint8_t *gp = (const uint8_t *)got + (size_t)i * es;
        bool pois = poison;
        for (size_t j = 0; j < es && pois; j++)
            pois = gp[j] == pb;
        double g = ct_emu_get(t, got, i), w = ct_emu_get(t, want, i);
        if (w == 0)
            want_zeros++;
        bool bad = false;
        double excess = 0;
        if (pois) {
            unwritten++;
            bad = true;
            excess = INFINITY;
        } else if (fl && (isnan(g) || isnan(w))) {
            if (isnan(g) != isnan(w)) {
                bad = true;
                excess = INFINITY;
                if (isnan(g))
                    c.flags |= CT_EMU_HAS_NAN;
            }
        } else {
            if (g == 0)
                zeros++;
            double diff = fabs(g - w);
            if (fl && (isinf(g) || isinf(w))) {
                if (g != w) {
                    bad = true;
                    excess = INFINITY;
                    if (isinf(g))
                        c.flags |= CT_EMU_HAS_INF;
                }
                diff = g == w ? 0 : INFINITY;
            } else if (exact) {
                bad = fl ? raw_bits(es, got, i) != raw_bits(es, want, i) : g != w;
                excess = diff;
                if (bad && excess == 0)
                    excess = 1e-300; /* -0 vs +0 */
            } else {
                double tol = atol + rtol * fabs(w);
                bad = diff > tol;
                excess = diff - tol;
            }
            if (diff > c.max_abs)
                c.max_abs = diff;
            double rel = w != 0 ? diff / fabs(w) : (diff > 0 ? INFINITY : 0);
            if (rel > c.max_rel)
                c.max_rel = rel;
            if (fl && !is_fnuz(t) && isfinite(g) && isfinite(w)) {
                int64_t u = ordered(raw_bits(es, got, i), es) - ordered(raw_bits(es, want, i), es);
                if (u < 0)
                    u = -u;
                if (u > c.max_ulp)
                    c.max_ulp = u;
            }
        }
        if (bad) {
            c.nbad++;
            if (excess > worst_excess) {
                worst_excess = excess;
                c.worst = i;
                c.got = g;
                c.want = w;
            }
        }
    }
    if (unwritten)
        c.flags |= CT_EMU_UNWRITTEN;
    if (n_got > 0 && zeros == n_got && want_zeros < n_want)
        c.flags |= CT_EMU_ALL_ZERO;
    c.verdict = c.nbad ? CT_EMU_MISMATCH : CT_EMU_PASS;
    char flags[128] = "";
    if (c.flags & CT_EMU_HAS_NAN)
        strcat(flags, " HAS_NAN");
    if (c.flags & CT_EMU_HAS_INF)
        strcat(flags, " HAS_INF");
    if (c.flags & CT_EMU_ALL_ZERO)
        strcat(flags, " ALL_ZERO");
    if (c.flags & CT_EMU_UNWRITTEN)
        snprintf(flags + strlen(flags), sizeof flags - strlen(flags), " UNWRITTEN(%lld)",
                 (long long)unwritten);
    if (c.verdict == CT_EMU_PASS)
        snprintf(c.message, sizeof c.message,
                 "PASS: %lld elements, max abs err %.3g, max rel err %.3g, max %lld ulp",
                 (long long)c.n, c.max_abs, c.max_rel, (long long)c.max_ulp);
    else
        snprintf(c.message, sizeof c.message,
                 "MISMATCH: %lld of %lld elements beyond %s; worst at [%lld]: got %.9g, want "
                 "%.9g; max abs err %.3g, max rel err %.3g%s",
                 (long long)c.nbad, (long long)c.n,
                 exact ? "bit equality" : (rtol == 0 ? "atol" : "rtol/atol"), (long long)c.worst,
                 c.got, c.want, c.max_abs, c.max_rel, flags);
    if (out)
        *out = c;
    return c.verdict;
}

ct_emu_verdict ct_emu_check_output(const ct_emu *e, const ct_emu_result *run, int buf,
                                   const void *want, int64_t n_want, double rtol, double atol,
                                   ct_emu_check *out)
{
    ct_emu_check c;
    memset(&c, 0, sizeof c);
    c.worst = -1;
    if (run && run->status != CT_EMU_OK) {
        c.verdict = CT_EMU_CRASH;
        snprintf(c.message, sizeof c.message, "CRASH (%s): %s", ct_emu_status_name(run->status),
                 run->fault.message);
        if (out)
            *out = c;
        return c.verdict;
    }
    if (!e || buf < 0 || buf >= e->nbufs) {
        c.verdict = CT_EMU_SHAPE;
        snprintf(c.message, sizeof c.message, "no buffer %d", buf);
        if (out)
            *out = c;
        return c.verdict;
    }
    const emu_buffer *b = &e->bufs[buf];
    int64_t n = (int64_t)(b->bytes / ct_emu_dtype_size(b->dtype));
    return ct_emu_compare(b->dtype, b->host, n, want, n_want, rtol, atol,
                          b->access == CT_EMU_OUT, out);
}
