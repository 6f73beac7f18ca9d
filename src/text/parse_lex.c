/*
 * parse_lex.c - the parser's name tables, errors, characters and literals.
 */
#include "parse_internal.h"
#include "util/alloc.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Name tables                                                         */
/* ------------------------------------------------------------------ */

void smap_free(smap *m)
{
    ct_xfree(m->keys);
    ct_xfree(m->vals);
    memset(m, 0, sizeof *m);
}

int smap_get(const smap *m, span k)
{
    if (!m->cap)
        return -1;
    size_t i = span_hash(k) & (m->cap - 1);
    while (m->keys[i].s) {
        if (span_eq(m->keys[i], k))
            return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

static bool smap_grow(smap *m)
{
    size_t nc = m->cap ? m->cap * 2 : 64;
    span *ok = m->keys;
    int *ov = m->vals;
    size_t oc = m->cap;
    m->keys = ct_xcalloc(nc, sizeof(span));
    m->vals = ct_xcalloc(nc, sizeof(int));
    if (!m->keys || !m->vals) {
        ct_xfree(m->keys);
        ct_xfree(m->vals);
        m->keys = ok;
        m->vals = ov;
        return false;
    }
    m->cap = nc;
    m->len = 0;
    for (size_t i = 0; i < oc; i++)
        if (ok[i].s)
            smap_put(m, ok[i], ov[i]);
    ct_xfree(ok);
    ct_xfree(ov);
    return true;
}

bool smap_put(smap *m, span k, int v)
{
    if ((m->len + 1) * 2 > m->cap && !smap_grow(m))
        return false;
    size_t i = span_hash(k) & (m->cap - 1);
    while (m->keys[i].s) {
        if (span_eq(m->keys[i], k)) {
            m->vals[i] = v;
            return true;
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = k;
    m->vals[i] = v;
    m->len++;
    return true;
}

static void *vec_push(vec *v)
{
    if (v->len == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 32;
        void *ni = ct_xrealloc(v->items, nc * v->size);
        if (!ni)
            return NULL;
        v->items = ni;
        v->cap = nc;
    }
    void *p = (char *)v->items + v->len * v->size;
    memset(p, 0, v->size);
    v->len++;
    return p;
}

#define VEC_AT(v, T, i) (((T *)(v).items)[i])

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

void where(const parser *P, const char *at, int *line, int *col)
{
    int ln = 1;
    const char *bol = P->src;
    if (at > P->end)
        at = P->end;
    for (const char *c = P->src; c < at; c++) {
        if (*c == '\n') {
            ln++;
            bol = c + 1;
        }
    }
    *line = ln;
    *col = (int)(at - bol) + 1;
}

void fail_at(parser *P, const char *at, const char *fmt, ...)
{
    int line, col;
    where(P, at ? at : P->p, &line, &col);
    va_list ap;
    va_start(ap, fmt);
    ct_diag_vadd(P->diags, CT_ERROR, P->file, line, col, fmt, ap);
    va_end(ap);
    longjmp(P->fail, 1);
}

#define fail(P, ...) fail_at((P), (P)->p, __VA_ARGS__)

void oom(parser *P)
{
    fail(P, "out of memory");
}

void *push(parser *P, vec *v)
{
    void *p = vec_push(v);
    if (!p)
        oom(P);
    return p;
}

/* ------------------------------------------------------------------ */
/* Characters                                                          */
/* ------------------------------------------------------------------ */

/* A short, printable description of what is at the cursor, for errors. */
const char *found(parser *P, char *buf, size_t cap)
{
    skip_ws(P);
    if (P->p >= P->end)
        return "end of input";
    size_t n = 0;
    buf[n++] = '\'';
    const char *c = P->p;
    if (id_char((unsigned char)*c) || *c == '%' || *c == '^' || *c == '#' || *c == '@' || *c == '!') {
        do {
            buf[n++] = isprint((unsigned char)*c) ? *c : '?';
            c++;
        } while (c < P->end && suffix_char((unsigned char)*c) && n < cap - 8);
    } else {
        buf[n++] = isprint((unsigned char)*c) ? *c : '?';
    }
    buf[n++] = '\'';
    buf[n] = 0;
    return buf;
}

void expect(parser *P, char c, const char *context)
{
    if (!accept(P, c)) {
        char b[64];
        fail(P, "expected '%c' %s, found %s", c, context, found(P, b, sizeof b));
    }
}

void expect_arrow(parser *P, const char *context)
{
    if (!accept_arrow(P)) {
        char b[64];
        fail(P, "expected '->' %s, found %s", context, found(P, b, sizeof b));
    }
}

void expect_kw(parser *P, const char *w, const char *context)
{
    if (!accept_kw(P, w)) {
        char b[64];
        fail(P, "expected '%s' %s, found %s", w, context, found(P, b, sizeof b));
    }
}

span parse_id(parser *P, const char *what)
{
    span s = peek_id(P);
    if (!s.n) {
        char b[64];
        fail(P, "expected %s, found %s", what, found(P, b, sizeof b));
    }
    P->p += s.n;
    return s;
}

/* suffix-id after a sigil (%, ^, #): digits, or an identifier with '-' */
span parse_suffix_id(parser *P, const char *what)
{
    span s = {P->p, 0};
    const char *c = P->p;
    if (c < P->end && isdigit((unsigned char)*c)) {
        while (c < P->end && isdigit((unsigned char)*c))
            c++;
    } else if (c < P->end && (id_start((unsigned char)*c) || *c == '$' || *c == '.' || *c == '-')) {
        while (c < P->end && suffix_char((unsigned char)*c))
            c++;
    }
    s.n = (size_t)(c - P->p);
    if (!s.n)
        fail(P, "expected %s", what);
    P->p = c;
    return s;
}

char *dup_span(parser *P, span s)
{
    return ct_arena_strndup(P->m->arena, s.s, s.n);
}

/* ------------------------------------------------------------------ */
/* Literals                                                            */
/* ------------------------------------------------------------------ */

/* string ::= '"' (char | '\' ('"' | '\' | 'n' | 't' | hex hex))* '"'
 * Returns the decoded text in the arena. */
char *parse_string(parser *P)
{
    skip_ws(P);
    if (P->p >= P->end || *P->p != '"') {
        char b[64];
        fail(P, "expected a string, found %s", found(P, b, sizeof b));
    }
    const char *start = P->p++;
    const char *c = P->p;
    size_t n = 0;
    /* first pass: validate and measure */
    while (c < P->end && *c != '"') {
        if (*c == '\n')
            fail_at(P, start, "string not closed on its line");
        if (*c == '\\') {
            if (c + 1 >= P->end)
                break;
            char e = c[1];
            if (e == '"' || e == '\\' || e == 'n' || e == 't') {
                c += 2;
            } else if (c + 2 < P->end && isxdigit((unsigned char)c[1]) && isxdigit((unsigned char)c[2])) {
                c += 3;
            } else {
                fail_at(P, c, "unknown escape in string");
            }
        } else {
            c++;
        }
        n++;
    }
    if (c >= P->end)
        fail_at(P, start, "string not closed");
    char *out = ct_arena_alloc(P->m->arena, n + 1);
    size_t k = 0;
    for (const char *q = P->p; q < c;) {
        if (*q == '\\') {
            char e = q[1];
            if (e == '"' || e == '\\') {
                out[k++] = e;
                q += 2;
            } else if (e == 'n') {
                out[k++] = '\n';
                q += 2;
            } else if (e == 't') {
                out[k++] = '\t';
                q += 2;
            } else {
                char hex[3] = {q[1], q[2], 0};
                out[k++] = (char)strtol(hex, NULL, 16);
                q += 3;
            }
        } else {
            out[k++] = *q++;
        }
    }
    out[k] = 0;
    if (strlen(out) != k)
        fail_at(P, start, "string holds a NUL character");
    P->p = c + 1;
    return out;
}

/* An integer literal: '-'? (digits | '0x' hexdigits).  The magnitude must
 * fit 64 bits; *neg tells the sign, *hex whether it was hexadecimal. */
uint64_t parse_uint_lit(parser *P, bool *neg, bool *hex)
{
    skip_ws(P);
    const char *start = P->p;
    *neg = false;
    *hex = false;
    if (P->p < P->end && *P->p == '-') {
        *neg = true;
        P->p++;
    }
    uint64_t v = 0;
    const char *c = P->p;
    if (P->end - c >= 3 && c[0] == '0' && c[1] == 'x' && isxdigit((unsigned char)c[2])) {
        *hex = true;
        c += 2;
        while (c < P->end && isxdigit((unsigned char)*c)) {
            int d = isdigit((unsigned char)*c) ? *c - '0' : (tolower((unsigned char)*c) - 'a' + 10);
            if (v >> 60)
                fail_at(P, start, "integer literal does not fit 64 bits");
            v = v * 16 + (uint64_t)d;
            c++;
        }
    } else if (c < P->end && isdigit((unsigned char)*c)) {
        while (c < P->end && isdigit((unsigned char)*c)) {
            uint64_t d = (uint64_t)(*c - '0');
            if (v > (UINT64_MAX - d) / 10)
                fail_at(P, start, "integer literal does not fit 64 bits");
            v = v * 10 + d;
            c++;
        }
    } else {
        char b[64];
        P->p = start;
        fail(P, "expected an integer, found %s", found(P, b, sizeof b));
    }
    P->p = c;
    return v;
}

/* A plain integer that must fit an int (dimensions, counts, result numbers). */
int64_t parse_small_int(parser *P, int64_t lo, int64_t hi, const char *what)
{
    skip_ws(P);
    const char *at = P->p;
    bool neg, hex;
    uint64_t u = parse_uint_lit(P, &neg, &hex);
    if (u > (uint64_t)INT64_MAX)
        fail_at(P, at, "%s out of range", what);
    int64_t v = neg ? -(int64_t)u : (int64_t)u;
    if (v < lo || v > hi)
        fail_at(P, at, "%s out of range (%" PRId64 " not in [%" PRId64 ", %" PRId64 "])", what, v,
                lo, hi);
    return v;
}

/* Is the cursor at a float literal (digits '.' ...)? */
bool at_float_lit(parser *P)
{
    skip_ws(P);
    const char *c = P->p;
    if (c < P->end && (*c == '-' || *c == '+'))
        c++;
    if (!(c < P->end && isdigit((unsigned char)*c)))
        return false;
    if (P->end - c >= 2 && c[0] == '0' && c[1] == 'x')
        return false;
    while (c < P->end && isdigit((unsigned char)*c))
        c++;
    return c < P->end && *c == '.';
}

/* float-literal ::= '-'? digits '.' digits? ([eE] [+-]? digits)?
 * Read the way MLIR reads it for the given format: correctly rounded to the
 * format (strtof for f32; the others from the double, which is exact enough
 * since the narrow formats have far fewer bits). */
double parse_float_lit(parser *P, ct_float_kind fk)
{
    skip_ws(P);
    const char *start = P->p, *c = P->p;
    char buf[512];
    size_t n = 0;
    if (c < P->end && (*c == '-' || *c == '+'))
        buf[n++] = *c++;
    while (c < P->end && n < sizeof buf - 8 &&
           (isdigit((unsigned char)*c) || *c == '.' || *c == 'e' || *c == 'E' ||
            ((*c == '+' || *c == '-') && (c[-1] == 'e' || c[-1] == 'E'))))
        buf[n++] = *c++;
    buf[n] = 0;
    if (n >= sizeof buf - 8)
        fail_at(P, start, "float literal too long");
    char *endp;
    errno = 0;
    double d;
    if (fk == CT_F32)
        d = strtof(buf, &endp);
    else
        d = ct_float_round(strtod(buf, &endp), fk);
    if (endp != buf + n || n == 0)
        fail_at(P, start, "malformed float literal");
    P->p = c;
    return d;
}
