/*
 * parse.c - the TTIR parser.
 *
 * Reads the MLIR text Triton 3.6 prints for a module (the raw frontend
 * output and the output of the ttir passes) into ctriton's IR: the custom
 * form of every op in the op table (the same syntax print.c writes), the
 * generic form ("tt.reduce"(...) <{...}> ({...}) : (...) -> ...), blocks and
 * regions, attributes, types and locations with their #loc aliases.
 *
 * A hand-written recursive descent over the characters (MLIR's lexing is
 * context dependent: `16x4xf32` is a shape, `%c-1_i64` a name), in the
 * style of chibicc: one function per production, its grammar in a comment
 * above it.  On the first error the parser records a diagnostic with
 * file:line:col and unwinds with longjmp to ct_parse_module, which frees
 * everything: all IR lives in the module's arena, and the parser's own
 * tables are owned by the parser struct, so nothing can leak.  Recursion is
 * bounded (MAX_DEPTH) so that hostile input cannot exhaust the stack.
 *
 * Restrictions (errors, never silent): values must be defined before they
 * are used (MLIR allows forward references across blocks; Triton never
 * prints them), and attribute or type aliases other than #loc ones (TTGIR's
 * #blocked and friends) are refused.
 */
#include "ctriton/text.h"
#include "ctriton/version.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_internal.h"
#include "util/util.h"

#define MAX_DEPTH 200
#define MAX_NUMEL (INT64_C(1) << 31) /* Triton caps tensors at 2^20 elements */
#define MAX_RANK 32

/* ------------------------------------------------------------------ */
/* Name tables                                                         */
/* ------------------------------------------------------------------ */

/* A span of the input text: names are not copied while parsing. */
typedef struct span {
    const char *s;
    size_t n;
} span;

/* Open-addressing map from spans to small integers (indexes into a
 * parallel array kept by the user). */
typedef struct smap {
    span *keys;
    int *vals;
    size_t cap, len;
} smap;

static uint64_t span_hash(span k)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < k.n; i++)
        h = (h ^ (unsigned char)k.s[i]) * 1099511628211ull;
    return h;
}

static bool span_eq(span a, span b)
{
    return a.n == b.n && memcmp(a.s, b.s, a.n) == 0;
}

static void smap_free(smap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static int smap_get(const smap *m, span k)
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

static bool smap_put(smap *m, span k, int v);

static bool smap_grow(smap *m)
{
    size_t nc = m->cap ? m->cap * 2 : 64;
    span *ok = m->keys;
    int *ov = m->vals;
    size_t oc = m->cap;
    m->keys = calloc(nc, sizeof(span));
    m->vals = calloc(nc, sizeof(int));
    if (!m->keys || !m->vals) {
        free(m->keys);
        free(m->vals);
        m->keys = ok;
        m->vals = ov;
        return false;
    }
    m->cap = nc;
    m->len = 0;
    for (size_t i = 0; i < oc; i++)
        if (ok[i].s)
            smap_put(m, ok[i], ov[i]);
    free(ok);
    free(ov);
    return true;
}

static bool smap_put(smap *m, span k, int v)
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

/* A growable array of fixed-size items (malloc'd, owned by the parser). */
typedef struct vec {
    void *items;
    size_t len, cap, size;
} vec;

static void *vec_push(vec *v)
{
    if (v->len == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 32;
        void *ni = realloc(v->items, nc * v->size);
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
/* Parser state                                                        */
/* ------------------------------------------------------------------ */

/* What a value name stands for: `count` consecutive values starting at
 * `vals[0]` (an op's results), or one block argument. */
typedef struct binding {
    span name;
    ct_value *first;  /* results: &op->res[k]; argument: the argument */
    int count;
    bool bound;
} binding;

/* A block label of the region being parsed. */
typedef struct label {
    span name;
    ct_block *block;
    const char *first_use; /* where it was first referenced (for errors) */
    bool defined;
} label;

/* An op with successors and where it was written. */
typedef struct branch {
    const ct_op *op;
    const char *at;
} branch;

/* A #loc alias: `loc` is filled in when the definition is read; uses seen
 * before that point at the same (still empty) struct. */
typedef struct alias {
    span name;
    ct_loc *loc;
    const char *first_use;
    bool defined;
    int state;    /* check_aliases: 0 new, 1 on the stack, 2 done */
    int64_t size; /* check_aliases: nodes when expanded */
} alias;

typedef struct parser {
    const char *src, *p, *end;
    const char *file;
    ct_diags *diags;
    jmp_buf fail;
    int depth;
    ct_module *m;

    smap vnames;   /* value name -> index in `binds` */
    vec binds;     /* binding */
    vec undo;      /* int: bindings made in the open scopes, in order */

    vec labels;    /* label: a stack; each region parses above its base */
    size_t nlabel_base;
    vec branches;  /* branch: ops with successors, checked when their region ends */
    smap opnames;  /* op name -> opcode */

    smap anames;   /* alias name -> index in `aliases` */
    vec aliases;   /* alias */

    const ct_type *i1, *i32, *i64, *f64, *index;
    const char *last_file; /* the file of the last file:line:col location */

    /* The Triton releases the spellings read so far belong to (bit i: row i of
     * version.c), and the spelling that last narrowed them, for messages. */
    unsigned releases;
    char why[160];
} parser;

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

static void where(const parser *P, const char *at, int *line, int *col)
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

static void fail_at(parser *P, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
static void fail_at(parser *P, const char *at, const char *fmt, ...)
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

static void oom(parser *P)
{
    fail(P, "out of memory");
}

static void *push(parser *P, vec *v)
{
    void *p = vec_push(v);
    if (!p)
        oom(P);
    return p;
}

static void enter(parser *P)
{
    if (++P->depth > MAX_DEPTH)
        fail(P, "nesting deeper than %d levels", MAX_DEPTH);
}

static void leave(parser *P)
{
    P->depth--;
}

/* ------------------------------------------------------------------ */
/* Characters                                                          */
/* ------------------------------------------------------------------ */

/* Skips blanks and // comments. */
static void skip_ws(parser *P)
{
    for (;;) {
        while (P->p < P->end && (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r'))
            P->p++;
        if (P->end - P->p >= 2 && P->p[0] == '/' && P->p[1] == '/') {
            while (P->p < P->end && *P->p != '\n')
                P->p++;
            continue;
        }
        return;
    }
}

static int peek(parser *P)
{
    skip_ws(P);
    return P->p < P->end ? (unsigned char)*P->p : -1;
}

static int peek2(parser *P)
{
    skip_ws(P);
    return P->end - P->p >= 2 ? (unsigned char)P->p[1] : -1;
}

/* Character classes by table (ASCII only, independent of the locale):
 * 1 starts an identifier, 2 continues one, 4 continues a suffix-id
 * (%names, ^labels and #aliases also allow '-'). */
#define CC_ALPHA 7
#define CC_DIGIT 6
static const unsigned char cclass[256] = {
    ['a' ... 'z'] = CC_ALPHA, ['A' ... 'Z'] = CC_ALPHA, ['_'] = CC_ALPHA,
    ['0' ... '9'] = CC_DIGIT, ['$'] = 6, ['.'] = 6, ['-'] = 4,
};

static bool id_start(int c)
{
    return c >= 0 && (cclass[c & 255] & 1);
}

static bool id_char(int c)
{
    return c >= 0 && (cclass[c & 255] & 2);
}

static bool suffix_char(int c)
{
    return c >= 0 && (cclass[c & 255] & 4);
}

/* A short, printable description of what is at the cursor, for errors. */
static const char *found(parser *P, char *buf, size_t cap)
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

static bool accept(parser *P, char c)
{
    if (peek(P) == (unsigned char)c) {
        P->p++;
        return true;
    }
    return false;
}

static void expect(parser *P, char c, const char *context)
{
    if (!accept(P, c)) {
        char b[64];
        fail(P, "expected '%c' %s, found %s", c, context, found(P, b, sizeof b));
    }
}

static bool accept_arrow(parser *P)
{
    if (peek(P) == '-' && peek2(P) == '>') {
        P->p += 2;
        return true;
    }
    return false;
}

static void expect_arrow(parser *P, const char *context)
{
    if (!accept_arrow(P)) {
        char b[64];
        fail(P, "expected '->' %s, found %s", context, found(P, b, sizeof b));
    }
}

/* A bare identifier at the cursor: [a-zA-Z_][a-zA-Z0-9_$.]* ; len 0 if none. */
static span peek_id(parser *P)
{
    skip_ws(P);
    span s = {P->p, 0};
    if (P->p < P->end && id_start((unsigned char)*P->p)) {
        const char *c = P->p;
        while (c < P->end && id_char((unsigned char)*c))
            c++;
        s.n = (size_t)(c - P->p);
    }
    return s;
}

static bool span_is(span s, const char *w)
{
    return s.n == strlen(w) && memcmp(s.s, w, s.n) == 0;
}

static bool peek_kw(parser *P, const char *w)
{
    return span_is(peek_id(P), w);
}

static bool accept_kw(parser *P, const char *w)
{
    span s = peek_id(P);
    if (!span_is(s, w))
        return false;
    P->p += s.n;
    return true;
}

static void expect_kw(parser *P, const char *w, const char *context)
{
    if (!accept_kw(P, w)) {
        char b[64];
        fail(P, "expected '%s' %s, found %s", w, context, found(P, b, sizeof b));
    }
}

static span parse_id(parser *P, const char *what)
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
static span parse_suffix_id(parser *P, const char *what)
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

static char *dup_span(parser *P, span s)
{
    return ct_arena_strndup(P->m->arena, s.s, s.n);
}

/* ------------------------------------------------------------------ */
/* Literals                                                            */
/* ------------------------------------------------------------------ */

/* string ::= '"' (char | '\' ('"' | '\' | 'n' | 't' | hex hex))* '"'
 * Returns the decoded text in the arena. */
static char *parse_string(parser *P)
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
static uint64_t parse_uint_lit(parser *P, bool *neg, bool *hex)
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
static int64_t parse_small_int(parser *P, int64_t lo, int64_t hi, const char *what)
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
static bool at_float_lit(parser *P)
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
static double parse_float_lit(parser *P, ct_float_kind fk)
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

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

static const ct_type *parse_type(parser *P);

typedef struct fname {
    const char *name;
    ct_float_kind fk;
} fname;

static const fname float_names[] = {
    {"f16", CT_F16},
    {"bf16", CT_BF16},
    {"f32", CT_F32},
    {"f64", CT_F64},
    {"f8E4M3FN", CT_F8E4M3FN},
    {"f8E5M2", CT_F8E5M2},
    {"f8E4M3FNUZ", CT_F8E4M3FNUZ},
    {"f8E5M2FNUZ", CT_F8E5M2FNUZ},
    {"f8E4M3B11FNUZ", CT_F8E4M3B11FNUZ},
};

/* Scalar builtin types by name, or NULL: iN, index, none, float names. */
static const ct_type *builtin_type(parser *P, span id)
{
    /* siN and uiN: integers with a signedness (a signed tensor descriptor's block) */
    int sg = id.n >= 3 && id.s[1] == 'i' && isdigit((unsigned char)id.s[2])
                 ? (id.s[0] == 's' ? 1 : id.s[0] == 'u' ? 2 : 0)
                 : 0;
    if (sg || (id.n >= 2 && id.s[0] == 'i' && isdigit((unsigned char)id.s[1]))) {
        int bits = 0;
        for (size_t i = sg ? 2 : 1; i < id.n; i++) {
            if (!isdigit((unsigned char)id.s[i]))
                return NULL;
            bits = bits * 10 + (id.s[i] - '0');
            if (bits > 64)
                fail_at(P, id.s, "integer types wider than 64 bits are not supported");
        }
        if (bits == 0)
            fail_at(P, id.s, "integer type of width 0");
        return ct_type_int_signed(P->m, bits, sg);
    }
    if (span_is(id, "index"))
        return P->index;
    if (span_is(id, "none"))
        return ct_type_none(P->m);
    for (size_t i = 0; i < sizeof float_names / sizeof float_names[0]; i++)
        if (span_is(id, float_names[i].name))
            return ct_type_float(P->m, float_names[i].fk);
    return NULL;
}

/* tensor-type ::= 'tensor' '<' (dim 'x')* element-type '>'
 * (after 'tensor').  The dimensions are read character by character since
 * `16x4xf32` is one identifier-like run. */
/* ---- which Triton releases the text is written for ------------------------
 *
 * A spelling that only some releases use narrows P->releases (ctriton/version.h
 * facts); a text mixing two releases' spellings is refused, never misread. */

static bool wraps_desc(const ct_triton *t)
{
    return !t->tensordesc_bare;
}

static bool bare_desc(const ct_triton *t)
{
    return t->tensordesc_bare;
}

static bool inline_hints(const ct_triton *t)
{
    return !t->cache_policy_attr;
}

static bool hint_attr(const ct_triton *t)
{
    return t->cache_policy_attr;
}

static void release_range(unsigned mask, char *buf, size_t cap)
{
    int lo = -1, hi = -1;
    for (int i = 0; i < ct_triton_count(); i++)
        if (mask & (1u << i)) {
            if (lo < 0)
                lo = i;
            hi = i;
        }
    if (lo < 0)
        snprintf(buf, cap, "no release");
    else if (lo == hi)
        snprintf(buf, cap, "Triton %s", ct_triton_at(lo)->name);
    else
        snprintf(buf, cap, "Triton %s to %s", ct_triton_at(lo)->name, ct_triton_at(hi)->name);
}

static void narrow_releases(parser *P, const char *at, const char *what, unsigned mask)
{
    if ((P->releases & mask) == P->releases)
        return;
    int line, col;
    where(P, at, &line, &col);
    char mine[64], before[64];
    release_range(mask, mine, sizeof mine);
    if (!(P->releases & mask)) {
        release_range(P->releases, before, sizeof before);
        fail_at(P, at, "%s is %s's spelling, but %s is %s's: the text mixes two Triton "
                "releases", what, mine, P->why, before);
    }
    P->releases &= mask;
    snprintf(P->why, sizeof P->why, "%s (line %d)", what, line);
}

static void note_release(parser *P, const char *at, const char *what,
                         bool (*spells)(const ct_triton *))
{
    unsigned mask = 0;
    for (int i = 0; i < ct_triton_count(); i++)
        if (spells(ct_triton_at(i)))
            mask |= 1u << i;
    narrow_releases(P, at, what, mask);
}

/* An op that only some releases' dialects have (ct_triton_has_op). */
static void note_op_release(parser *P, const char *at, ct_opcode code)
{
    unsigned mask = 0;
    for (int i = 0; i < ct_triton_count(); i++)
        if (ct_triton_has_op(ct_triton_at(i), code))
            mask |= 1u << i;
    narrow_releases(P, at, ct_op_info_of(code)->name, mask);
}

/* (int 'x')* element-type: a tensor type's shape and element (between its < >) */
static const ct_type *parse_shaped(parser *P)
{
    int64_t shape[MAX_RANK];
    int rank = 0;
    int64_t numel = 1;
    skip_ws(P);
    while (P->p < P->end && isdigit((unsigned char)*P->p)) {
        const char *at = P->p;
        int64_t d = 0;
        while (P->p < P->end && isdigit((unsigned char)*P->p)) {
            d = d * 10 + (*P->p - '0');
            if (d > MAX_NUMEL)
                fail_at(P, at, "tensor dimension too large");
            P->p++;
        }
        if (P->p >= P->end || *P->p != 'x')
            fail(P, "expected 'x' after a tensor dimension");
        P->p++;
        if (rank == MAX_RANK)
            fail_at(P, at, "tensor of rank above %d", MAX_RANK);
        numel *= d ? d : 1;
        if (numel > MAX_NUMEL)
            fail_at(P, at, "tensor with more than 2^31 elements");
        shape[rank++] = d;
    }
    if (P->p < P->end && *P->p == '?')
        fail(P, "dynamic tensor dimensions are not supported");
    const ct_type *elem = parse_type(P);
    if (elem->kind == CT_TY_TENSOR || elem->kind == CT_TY_FUNC || elem->kind == CT_TY_NONE ||
        elem->kind == CT_TY_TENSORDESC)
        fail(P, "invalid tensor element type");
    if (accept(P, ','))
        fail(P, "tensor encodings (TTGIR layouts) are not supported");
    return ct_type_tensor(P->m, elem, rank, shape);
}

static const ct_type *parse_tensor_body(parser *P)
{
    expect(P, '<', "after 'tensor'");
    const ct_type *t = parse_shaped(P);
    expect(P, '>', "to close the tensor type");
    return t;
}

/* ptr-body ::= '<' type (',' int)? '>'   (the part after !tt.ptr) */
static const ct_type *parse_ptr_body(parser *P)
{
    expect(P, '<', "in a pointer type");
    const ct_type *pointee = parse_type(P);
    if (pointee->kind == CT_TY_FUNC || pointee->kind == CT_TY_NONE)
        fail(P, "invalid pointee type");
    int as = 1;
    if (accept(P, ','))
        as = (int)parse_small_int(P, 0, 1 << 20, "address space");
    expect(P, '>', "to close the pointer type");
    return ct_type_ptr(P->m, pointee, as);
}

/* desc-body ::= '<' tensor-type '>'       (Triton 3.6, 3.7)
 *             | '<' (int 'x')* type '>'   (Triton 3.8 on: the block's shape and element)
 * (the part after !tt.tensordesc) */
static const ct_type *parse_desc_body(parser *P)
{
    expect(P, '<', "in a tensor descriptor type");
    const char *at = P->p;
    const ct_type *block;
    span id = peek_id(P);
    if (span_is(id, "tensor")) {
        note_release(P, at, "!tt.tensordesc<tensor<...>>", wraps_desc);
        block = parse_type(P);
    } else {
        note_release(P, at, "!tt.tensordesc<SHAPExTYPE>", bare_desc);
        block = parse_shaped(P);
    }
    if (block->kind != CT_TY_TENSOR)
        fail_at(P, at, "a tensor descriptor holds a tensor type");
    expect(P, '>', "to close the tensor descriptor type");
    return ct_type_tensordesc(P->m, block);
}

/* type-list ::= '(' (type (',' type)*)? ')' ; returns the count */
static int parse_type_list_paren(parser *P, const ct_type ***out)
{
    expect(P, '(', "to open a type list");
    /* the list must not leak on error: keep it in the arena */
    int n = 0, cap = 8;
    const ct_type **arr = ct_arena_alloc(P->m->arena, sizeof(*arr) * (size_t)cap);
    if (!accept(P, ')')) {
        do {
            if (n == cap) {
                const ct_type **na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                memcpy(na, arr, sizeof(*na) * (size_t)n);
                arr = na;
                cap *= 2;
            }
            arr[n++] = parse_type(P);
        } while (accept(P, ','));
        expect(P, ')', "to close the type list");
    }
    *out = arr;
    return n;
}

/* function-type ::= type-list '->' (type | type-list) */
static const ct_type *parse_function_type_rest(parser *P, int nin, const ct_type **ins)
{
    expect_arrow(P, "in a function type");
    const ct_type **outs;
    int nout;
    if (peek(P) == '(') {
        nout = parse_type_list_paren(P, &outs);
    } else {
        outs = ct_arena_alloc(P->m->arena, sizeof(*outs));
        outs[0] = parse_type(P);
        nout = 1;
    }
    return ct_type_func(P->m, nin, ins, nout, outs);
}

/* type ::= 'i'N | 'index' | 'none' | float-type | 'tensor' '<' ... '>'
 *        | '!tt.ptr' ptr-body | '!tt.tensordesc' desc-body | function-type */
static const ct_type *parse_type(parser *P)
{
    enter(P);
    const ct_type *t = NULL;
    int c = peek(P);
    const char *at = P->p;
    if (c == '!') {
        P->p++;
        span id = parse_id(P, "a dialect type name after '!'");
        if (span_is(id, "tt.ptr"))
            t = parse_ptr_body(P);
        else if (span_is(id, "tt.tensordesc"))
            t = parse_desc_body(P);
        else
            fail_at(P, at, "unknown type '!%.*s'", (int)id.n, id.s);
    } else if (c == '(') {
        const ct_type **ins;
        int nin = parse_type_list_paren(P, &ins);
        t = parse_function_type_rest(P, nin, ins);
    } else {
        span id = peek_id(P);
        if (span_is(id, "tensor")) {
            P->p += id.n;
            t = parse_tensor_body(P);
        } else if (id.n && (t = builtin_type(P, id)) != NULL) {
            P->p += id.n;
        } else {
            char b[64];
            fail(P, "expected a type, found %s", found(P, b, sizeof b));
        }
    }
    leave(P);
    return t;
}

/* A type the op's format prints "stripped" (without the !tt.ptr or
 * !tt.tensordesc mnemonic, as ODS does for operands of a known type
 * class): `<tensor<32x64xf16>>`.  The full spelling is accepted as well. */
static const ct_type *parse_stripped(parser *P, ct_type_kind kind)
{
    if (peek(P) != '<')
        return parse_type(P);
    if (kind == CT_TY_PTR)
        return parse_ptr_body(P);
    return parse_desc_body(P);
}

static bool is_type_start(parser *P)
{
    int c = peek(P);
    if (c == '!' || c == '(')
        return true;
    span id = peek_id(P);
    if (!id.n)
        return false;
    if (span_is(id, "tensor"))
        return true;
    if (id.n >= 2 && id.s[0] == 'i' && isdigit((unsigned char)id.s[1])) {
        for (size_t i = 1; i < id.n; i++)
            if (!isdigit((unsigned char)id.s[i]))
                return false;
        return true;
    }
    if (id.n >= 3 && (id.s[0] == 's' || id.s[0] == 'u') && id.s[1] == 'i' &&
        isdigit((unsigned char)id.s[2])) {
        for (size_t i = 2; i < id.n; i++)
            if (!isdigit((unsigned char)id.s[i]))
                return false;
        return true;
    }
    if (span_is(id, "index") || span_is(id, "none"))
        return true;
    for (size_t i = 0; i < sizeof float_names / sizeof float_names[0]; i++)
        if (span_is(id, float_names[i].name))
            return true;
    return false;
}

/* ------------------------------------------------------------------ */
/* Locations                                                           */
/* ------------------------------------------------------------------ */

static ct_loc *new_loc(parser *P, ct_loc_kind k)
{
    ct_loc *l = ct_arena_alloc(P->m->arena, sizeof *l);
    l->kind = k;
    return l;
}

/* A use of #name: the alias's struct, created empty if not defined yet. */
static const ct_loc *alias_use(parser *P, span name, const char *at)
{
    int i = smap_get(&P->anames, name);
    if (i < 0) {
        alias *a = push(P, &P->aliases);
        a->name = name;
        a->loc = new_loc(P, CT_LOC_UNKNOWN);
        a->first_use = at;
        i = (int)P->aliases.len - 1;
        if (!smap_put(&P->anames, name, i))
            oom(P);
    }
    return VEC_AT(P->aliases, alias, i).loc;
}

static const ct_loc *parse_loc_inner(parser *P);

/* loc-ref ::= '#' alias-name | loc-inner */
static const ct_loc *parse_loc_ref(parser *P)
{
    if (peek(P) == '#') {
        const char *at = P->p++;
        span name = parse_suffix_id(P, "a location alias name after '#'");
        return alias_use(P, name, at);
    }
    return parse_loc_inner(P);
}

/* loc-inner ::= 'unknown'
 *             | 'callsite' '(' loc-ref 'at' loc-ref ')'
 *             | 'fused' '[' loc-ref (',' loc-ref)* ']'
 *             | string ':' int ':' int            (file:line:col)
 *             | string ('(' loc-ref ')')?         (a name location) */
static const ct_loc *parse_loc_inner(parser *P)
{
    enter(P);
    const ct_loc *res;
    int c = peek(P);
    if (c == '"') {
        char *s = parse_string(P);
        if (accept(P, ':')) {
            ct_loc *l = new_loc(P, CT_LOC_FILE);
            /* most locations of a file name one file: share the string */
            if (P->last_file && !strcmp(P->last_file, s))
                s = (char *)P->last_file;
            P->last_file = s;
            l->file = s;
            l->line = (int)parse_small_int(P, 0, INT_MAX, "line number");
            expect(P, ':', "between line and column");
            l->col = (int)parse_small_int(P, 0, INT_MAX, "column number");
            if (peek_kw(P, "to"))
                fail(P, "location ranges are not supported");
            res = l;
        } else {
            ct_loc *l = new_loc(P, CT_LOC_NAME);
            l->name = s;
            if (accept(P, '(')) {
                l->child = parse_loc_ref(P);
                expect(P, ')', "to close a name location");
            } else {
                l->child = new_loc(P, CT_LOC_UNKNOWN);
            }
            res = l;
        }
    } else if (accept_kw(P, "unknown")) {
        res = new_loc(P, CT_LOC_UNKNOWN);
    } else if (accept_kw(P, "callsite")) {
        ct_loc *l = new_loc(P, CT_LOC_CALLSITE);
        expect(P, '(', "after 'callsite'");
        l->child = parse_loc_ref(P);
        expect_kw(P, "at", "in a callsite location");
        l->caller = parse_loc_ref(P);
        expect(P, ')', "to close a callsite location");
        res = l;
    } else if (accept_kw(P, "fused")) {
        if (peek(P) == '<')
            fail(P, "fused locations with metadata are not supported");
        expect(P, '[', "after 'fused'");
        int n = 0, cap = 4;
        const ct_loc **arr = ct_arena_alloc(P->m->arena, sizeof(*arr) * (size_t)cap);
        do {
            if (n == cap) {
                const ct_loc **na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                memcpy(na, arr, sizeof(*na) * (size_t)n);
                arr = na;
                cap *= 2;
            }
            arr[n++] = parse_loc_ref(P);
        } while (accept(P, ','));
        expect(P, ']', "to close a fused location");
        ct_loc *l = new_loc(P, CT_LOC_FUSED);
        l->nfused = n;
        l->fused = arr;
        res = l;
    } else {
        char b[64];
        fail(P, "expected a location, found %s", found(P, b, sizeof b));
    }
    leave(P);
    return res;
}

/* loc ::= 'loc' '(' loc-ref ')' */
static const ct_loc *parse_loc(parser *P)
{
    expect_kw(P, "loc", "");
    expect(P, '(', "after 'loc'");
    const ct_loc *l = parse_loc_ref(P);
    expect(P, ')', "to close the location");
    return l;
}

/* trailing-loc ::= loc? */
static const ct_loc *parse_opt_loc(parser *P)
{
    if (peek_kw(P, "loc"))
        return parse_loc(P);
    return NULL;
}

/* alias-def ::= '#' name '=' loc   (only location aliases) */
static void parse_alias_def(parser *P)
{
    const char *at = P->p;
    expect(P, '#', "");
    span name = parse_suffix_id(P, "an alias name after '#'");
    expect(P, '=', "in an alias definition");
    if (!peek_kw(P, "loc"))
        fail(P, "only location aliases are supported (TTGIR attribute aliases are not)");
    const ct_loc *l = parse_loc(P);
    int i = smap_get(&P->anames, name);
    if (i < 0) {
        alias_use(P, name, at);
        i = smap_get(&P->anames, name);
    }
    alias *a = &VEC_AT(P->aliases, alias, i);
    if (a->defined)
        fail_at(P, at, "redefinition of alias #%.*s", (int)name.n, name.s);
    a->defined = true;
    /* fill the struct every use already points at */
    *a->loc = *l;
}

/* After the whole text: every alias is defined, none is made of itself,
 * and none expands to a huge tree (aliases may share children, so a chain
 * of `callsite(#a at #a)` would double at each step when printed inline). */
#define MAX_LOC_NODES 100000

static int64_t loc_size(parser *P, ct_ptrmap *index, const ct_loc *l, int depth);

static void check_aliases(parser *P)
{
    for (size_t i = 0; i < P->aliases.len; i++) {
        alias *a = &VEC_AT(P->aliases, alias, i);
        if (!a->defined)
            fail_at(P, a->first_use, "use of undefined location alias #%.*s", (int)a->name.n,
                    a->name.s);
    }
    if (!P->aliases.len)
        return;
    ct_ptrmap index;
    ct_pm_init(&index);
    for (size_t i = 0; i < P->aliases.len; i++)
        ct_pm_put(&index, VEC_AT(P->aliases, alias, i).loc, (void *)(intptr_t)(i + 1));
    /* the map is freed on success; on failure fail_at longjmps, so free first */
    for (size_t i = 0; i < P->aliases.len; i++) {
        alias *a = &VEC_AT(P->aliases, alias, i);
        int64_t n = loc_size(P, &index, a->loc, 0);
        if (n < 0 || n > MAX_LOC_NODES) {
            ct_pm_free(&index);
            fail_at(P, a->first_use, n < 0 ? "location alias #%.*s refers to itself"
                                           : "location alias #%.*s is too large when expanded",
                    (int)a->name.n, a->name.s);
        }
    }
    ct_pm_free(&index);
}

/* Expanded node count of a location (saturating), -1 on a cycle.  Alias
 * structs are memoized in their `size` slot through the alias table. */
static int64_t loc_size(parser *P, ct_ptrmap *index, const ct_loc *l, int depth)
{
    if (!l)
        return 0;
    if (depth > 1000) /* a chain of aliases this long is as bad as a huge tree */
        return MAX_LOC_NODES + 1;
    intptr_t ai = (intptr_t)ct_pm_get(index, l);
    alias *a = ai ? &VEC_AT(P->aliases, alias, ai - 1) : NULL;
    if (a) {
        if (a->state == 1)
            return -1;
        if (a->state == 2)
            return a->size;
        a->state = 1;
    }
    int64_t n = 1, k;
    switch (l->kind) {
    case CT_LOC_NAME:
        k = loc_size(P, index, l->child, depth + 1);
        n = k < 0 ? -1 : n + k;
        break;
    case CT_LOC_CALLSITE: {
        int64_t k1 = loc_size(P, index, l->child, depth + 1), k2 = k1 < 0 ? -1 : loc_size(P, index, l->caller, depth + 1);
        n = (k1 < 0 || k2 < 0) ? -1 : n + k1 + k2;
        break;
    }
    case CT_LOC_FUSED:
        for (int i = 0; i < l->nfused && n >= 0; i++) {
            k = loc_size(P, index, l->fused[i], depth + 1);
            n = k < 0 ? -1 : n + k;
        }
        break;
    default:
        break;
    }
    if (n > MAX_LOC_NODES)
        n = MAX_LOC_NODES + 1;
    if (a) {
        a->state = 2;
        a->size = n;
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Attributes                                                          */
/* ------------------------------------------------------------------ */

static const ct_attr *parse_attr(parser *P);

/* The bits of v as a value of `t` (an integer type): MLIR accepts a literal
 * that fits the width as signed or as unsigned. */
static int64_t int_for_type(parser *P, const char *at, uint64_t mag, bool neg, const ct_type *t)
{
    int bits = t->kind == CT_TY_INDEX ? 64 : t->bits;
    if (neg) {
        uint64_t lim = bits >= 64 ? (UINT64_C(1) << 63) : (UINT64_C(1) << (bits - 1));
        if (bits == 1)
            lim = 1;
        if (mag > lim)
            fail_at(P, at, "integer literal out of range for i%d", bits);
        return ct_int_wrap((int64_t)(0 - mag), bits);
    }
    if (bits < 64 && mag >> bits)
        fail_at(P, at, "integer literal out of range for i%d", bits);
    return ct_int_wrap((int64_t)mag, bits);
}

/* A float of format fk spelled as its hexadecimal bits. */
static double float_from_hex(parser *P, const char *at, uint64_t bits, bool neg, ct_float_kind fk)
{
    int w = ct_float_bits(fk);
    if (neg || (w < 64 && bits >> w))
        fail_at(P, at, "hexadecimal float literal does not fit %d bits", w);
    return ct_float_from_bits(bits, fk);
}

/* One element of a dense literal, kept until the type is known. */
typedef struct elem {
    const char *at;
    enum { EL_INT, EL_FLOAT, EL_BOOL } kind;
    uint64_t mag;
    bool neg, hex, b;
} elem;

typedef struct dense_acc {
    elem *els;
    int64_t n, cap;
    int64_t shape[MAX_RANK];
    bool seen[MAX_RANK]; /* shape[level] recorded */
    int rank;            /* depth of the leaves; -1 until known */
} dense_acc;

/* All leaves (and empty lists) of a nested literal sit at one depth. */
static void dense_depth(parser *P, dense_acc *d, int depth, const char *at)
{
    if (d->rank < 0)
        d->rank = depth;
    else if (d->rank != depth)
        fail_at(P, at, "dense literal with uneven nesting");
}

static void dense_leaf(parser *P, dense_acc *d)
{
    skip_ws(P);
    elem e = {.at = P->p};
    if (accept_kw(P, "true")) {
        e.kind = EL_BOOL;
        e.b = true;
    } else if (accept_kw(P, "false")) {
        e.kind = EL_BOOL;
    } else if (at_float_lit(P)) {
        e.kind = EL_FLOAT;
        parse_float_lit(P, CT_F64); /* validated now, read again with its format */
    } else if (peek(P) == '(') {
        fail(P, "complex dense elements are not supported");
    } else {
        e.kind = EL_INT;
        e.mag = parse_uint_lit(P, &e.neg, &e.hex);
    }
    if (d->n == d->cap) {
        int64_t nc = d->cap ? d->cap * 2 : 16;
        elem *ne = ct_arena_alloc(P->m->arena, sizeof(elem) * (size_t)nc);
        if (d->n)
            memcpy(ne, d->els, sizeof(elem) * (size_t)d->n);
        d->els = ne;
        d->cap = nc;
    }
    d->els[d->n++] = e;
}

/* dense-list ::= '[' (dense-item (',' dense-item)*)? ']' ; dense-item ::= dense-list | literal
 * Records the length of each nesting level, which must be the same for
 * all lists at one level. */
static void dense_list(parser *P, dense_acc *d, int level)
{
    enter(P);
    const char *at = P->p;
    expect(P, '[', "");
    if (level >= MAX_RANK)
        fail_at(P, at, "dense literal nested too deep");
    int64_t count = 0;
    if (!accept(P, ']')) {
        do {
            skip_ws(P);
            if (peek(P) == '[') {
                dense_list(P, d, level + 1);
            } else {
                dense_depth(P, d, level + 1, P->p);
                dense_leaf(P, d);
            }
            count++;
        } while (accept(P, ','));
        expect(P, ']', "to close a dense list");
    } else {
        dense_depth(P, d, level + 1, at);
    }
    if (!d->seen[level]) {
        d->seen[level] = true;
        d->shape[level] = count;
    } else if (d->shape[level] != count) {
        fail_at(P, at, "dense literal with uneven lists (%" PRId64 " and %" PRId64 " elements)",
                d->shape[level], count);
    }
    leave(P);
}

/* Decodes `"0x..."` (MLIR's hex form of dense data: elements little-endian,
 * one element for a splat). */
static void dense_hex(parser *P, const char *at, const char *s, const ct_type *t, int64_t numel,
                      int64_t **iv, double **fv, int *n)
{
    const ct_type *et = t->elem;
    int w = et->kind == CT_TY_FLOAT ? ct_float_bits(et->fk) : et->bits;
    int bytes = (w + 7) / 8;
    size_t len = strlen(s);
    if (len < 2 || s[0] != '0' || s[1] != 'x' || (len - 2) % 2)
        fail_at(P, at, "malformed hexadecimal dense literal");
    size_t nb = (len - 2) / 2;
    int64_t count;
    if (nb == (size_t)bytes)
        count = 1;
    else if (nb == (size_t)(bytes * numel))
        count = numel;
    else
        fail_at(P, at, "hexadecimal dense literal has %zu bytes, expected %d or %" PRId64, nb,
                bytes, bytes * numel);
    *n = (int)count;
    if (et->kind == CT_TY_FLOAT)
        *fv = ct_arena_alloc(P->m->arena, sizeof(double) * (size_t)(count ? count : 1));
    else
        *iv = ct_arena_alloc(P->m->arena, sizeof(int64_t) * (size_t)(count ? count : 1));
    for (int64_t i = 0; i < count; i++) {
        uint64_t v = 0;
        for (int b = bytes - 1; b >= 0; b--) {
            const char *h = s + 2 + 2 * ((size_t)i * (size_t)bytes + (size_t)b);
            if (!isxdigit((unsigned char)h[0]) || !isxdigit((unsigned char)h[1]))
                fail_at(P, at, "malformed hexadecimal dense literal");
            char tmp[3] = {h[0], h[1], 0};
            v = (v << 8) | (uint64_t)strtoul(tmp, NULL, 16);
        }
        if (et->kind == CT_TY_FLOAT)
            (*fv)[i] = ct_float_from_bits(v, et->fk);
        else
            (*iv)[i] = ct_int_wrap((int64_t)v, w);
    }
}

/* dense ::= 'dense' '<' (literal | dense-list | string)? '>' ':' tensor-type
 * (after 'dense').  All-equal elements are stored as a splat, as MLIR does. */
static const ct_attr *parse_dense(parser *P)
{
    expect(P, '<', "after 'dense'");
    dense_acc d = {.rank = -1};
    const char *at = P->p;
    char *hex = NULL;
    bool list = false;
    if (peek(P) == '"') {
        hex = parse_string(P);
    } else if (peek(P) == '[') {
        list = true;
        dense_list(P, &d, 0);
    } else if (peek(P) != '>') {
        dense_leaf(P, &d);
    }
    expect(P, '>', "to close 'dense<'");
    expect(P, ':', "before the type of a dense attribute");
    const char *tat = P->p;
    const ct_type *t = parse_type(P);
    if (t->kind != CT_TY_TENSOR)
        fail_at(P, tat, "dense attributes need a tensor type");
    const ct_type *et = t->elem;
    if (et->kind != CT_TY_INT && et->kind != CT_TY_FLOAT && et->kind != CT_TY_INDEX)
        fail_at(P, tat, "dense attributes hold integers or floats");
    int64_t numel = ct_type_numel(t);
    int64_t *iv = NULL;
    double *fv = NULL;
    int n;
    if (hex) {
        dense_hex(P, at, hex, t, numel, &iv, &fv, &n);
    } else {
        if (list) {
            if (d.rank < 0)
                d.rank = 1;
            if (d.rank != t->rank)
                fail_at(P, at, "dense literal of rank %d for a tensor of rank %d", d.rank, t->rank);
            for (int i = 0; i < t->rank; i++)
                if (d.shape[i] != t->shape[i])
                    fail_at(P, at, "dense literal shape does not match the tensor type");
        } else if (d.n == 0) {
            if (numel != 0)
                fail_at(P, at, "empty dense literal for a non-empty tensor");
        }
        n = (int)d.n;
        if (et->kind == CT_TY_FLOAT)
            fv = ct_arena_alloc(P->m->arena, sizeof(double) * (size_t)(n ? n : 1));
        else
            iv = ct_arena_alloc(P->m->arena, sizeof(int64_t) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++) {
            elem *e = &d.els[i];
            if (et->kind == CT_TY_FLOAT) {
                if (e->kind == EL_FLOAT) {
                    const char *save = P->p;
                    P->p = e->at;
                    fv[i] = parse_float_lit(P, et->fk);
                    P->p = save;
                } else if (e->kind == EL_INT && e->hex) {
                    fv[i] = float_from_hex(P, e->at, e->mag, e->neg, et->fk);
                } else {
                    fail_at(P, e->at, "expected a float element (a decimal integer needs a '.')");
                }
            } else {
                if (e->kind == EL_BOOL) {
                    if (et->bits != 1)
                        fail_at(P, e->at, "boolean element in a non-i1 dense attribute");
                    iv[i] = e->b;
                } else if (e->kind == EL_INT) {
                    iv[i] = int_for_type(P, e->at, e->mag, e->neg, et);
                } else {
                    fail_at(P, e->at, "float element in an integer dense attribute");
                }
            }
        }
    }
    /* MLIR stores (and prints) a dense attribute whose elements are all equal as a splat */
    bool splat = n > 0;
    for (int i = 1; i < n && splat; i++)
        splat = fv ? memcmp(&fv[i], &fv[0], sizeof(double)) == 0 : iv[i] == iv[0];
    if (splat)
        n = 1;
    if (n != 1 && n != numel)
        fail_at(P, at, "dense literal has %d elements for a tensor of %" PRId64, n, numel);
    if (n == 0 && numel == 0) {
        /* an empty tensor: keep it as an empty list */
    }
    return fv ? ct_attr_dense_float(P->m, t, n, fv) : ct_attr_dense_int(P->m, t, n, iv);
}

/* dense-array ::= 'array' '<' int-type (':' int (',' int)*)? '>'  (after 'array') */
static const ct_attr *parse_dense_array(parser *P)
{
    expect(P, '<', "after 'array'");
    const char *tat = P->p;
    const ct_type *t = parse_type(P);
    if (t->kind != CT_TY_INT)
        fail_at(P, tat, "only integer dense arrays are supported");
    int n = 0, cap = 8;
    int64_t *v = ct_arena_alloc(P->m->arena, sizeof(int64_t) * (size_t)cap);
    if (accept(P, ':')) {
        do {
            if (n == cap) {
                int64_t *nv = ct_arena_alloc(P->m->arena, sizeof(int64_t) * (size_t)cap * 2);
                memcpy(nv, v, sizeof(int64_t) * (size_t)n);
                v = nv;
                cap *= 2;
            }
            skip_ws(P);
            const char *at = P->p;
            if (t->bits == 1 && accept_kw(P, "true")) {
                v[n++] = 1;
            } else if (t->bits == 1 && accept_kw(P, "false")) {
                v[n++] = 0;
            } else {
                bool neg, hex;
                uint64_t mag = parse_uint_lit(P, &neg, &hex);
                v[n++] = int_for_type(P, at, mag, neg, t);
            }
        } while (accept(P, ','));
    }
    expect(P, '>', "to close 'array<'");
    return ct_attr_dense_array(P->m, t, n, v);
}

/* dict ::= '{' (entry (',' entry)*)? '}' ; entry ::= (bare-id | string) ('=' attr)?
 * Entries without a value are unit attributes.  Fills *out (arena). */
static int parse_dict_entries(parser *P, ct_named_attr **out)
{
    expect(P, '{', "to open an attribute dictionary");
    int n = 0, cap = 8;
    ct_named_attr *e = ct_arena_alloc(P->m->arena, sizeof(*e) * (size_t)cap);
    if (!accept(P, '}')) {
        do {
            skip_ws(P);
            const char *at = P->p;
            const char *key;
            if (peek(P) == '"')
                key = parse_string(P);
            else
                key = dup_span(P, parse_id(P, "an attribute name"));
            if (!*key)
                fail_at(P, at, "empty attribute name");
            for (int i = 0; i < n; i++)
                if (!strcmp(e[i].name, key))
                    fail_at(P, at, "duplicate attribute '%s'", key);
            const ct_attr *val = accept(P, '=') ? parse_attr(P) : ct_attr_unit(P->m);
            if (n == cap) {
                ct_named_attr *ne = ct_arena_alloc(P->m->arena, sizeof(*ne) * (size_t)cap * 2);
                memcpy(ne, e, sizeof(*ne) * (size_t)n);
                e = ne;
                cap *= 2;
            }
            e[n].name = key;
            e[n].attr = val;
            n++;
        } while (accept(P, ','));
        expect(P, '}', "to close the attribute dictionary");
    }
    *out = e;
    return n;
}

/* opaque ::= '#' dialect-id '<' balanced '>'   (kept as text) */
static const ct_attr *parse_opaque(parser *P)
{
    const char *start = P->p;
    P->p++; /* '#' */
    span id = parse_id(P, "a dialect attribute name after '#'");
    if (P->p >= P->end || *P->p != '<') {
        if (!memchr(id.s, '.', id.n))
            fail_at(P, start, "attribute aliases (#%.*s) are not supported", (int)id.n, id.s);
        return ct_attr_opaque(P->m, dup_span(P, (span){start, (size_t)(P->p - start)}));
    }
    int depth = 0;
    const char *c = P->p;
    for (; c < P->end; c++) {
        if (*c == '"') {
            for (c++; c < P->end && *c != '"'; c++)
                if (*c == '\\')
                    c++;
            if (c >= P->end)
                break;
        } else if (*c == '-' && c + 1 < P->end && c[1] == '>') {
            c++;
        } else if (*c == '<' || *c == '(' || *c == '[' || *c == '{') {
            depth++;
        } else if (*c == '>' || *c == ')' || *c == ']' || *c == '}') {
            if (--depth == 0) {
                c++;
                break;
            }
            if (depth < 0)
                break;
        }
    }
    if (depth != 0)
        fail_at(P, start, "unbalanced brackets in a dialect attribute");
    P->p = c;
    return ct_attr_opaque(P->m, dup_span(P, (span){start, (size_t)(c - start)}));
}

/* attr ::= 'unit' | 'true' | 'false' | int (':' type)? | float (':' type)?
 *        | string | '@' symbol | dense | dense-array | '[' attrs ']' | dict
 *        | '#' dialect-attr | type */
static const ct_attr *parse_attr(parser *P)
{
    enter(P);
    const ct_attr *a = NULL;
    int c = peek(P);
    const char *at = P->p;
    if (c == '"') {
        a = ct_attr_str(P->m, parse_string(P));
    } else if (c == '@') {
        P->p++;
        const char *sym;
        if (peek(P) == '"')
            sym = parse_string(P);
        else
            sym = dup_span(P, parse_id(P, "a symbol name after '@'"));
        if (peek(P) == ':' && peek2(P) == ':')
            fail(P, "nested symbol references are not supported");
        a = ct_attr_symref(P->m, sym);
    } else if (c == '[') {
        P->p++;
        int n = 0, cap = 8;
        const ct_attr **arr = ct_arena_alloc(P->m->arena, sizeof(*arr) * (size_t)cap);
        if (!accept(P, ']')) {
            do {
                if (n == cap) {
                    const ct_attr **na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                    memcpy(na, arr, sizeof(*na) * (size_t)n);
                    arr = na;
                    cap *= 2;
                }
                arr[n++] = parse_attr(P);
            } while (accept(P, ','));
            expect(P, ']', "to close the array attribute");
        }
        a = ct_attr_array(P->m, n, arr);
    } else if (c == '{') {
        ct_named_attr *e;
        int n = parse_dict_entries(P, &e);
        a = ct_attr_dict(P->m, n, e);
    } else if (c == '#') {
        a = parse_opaque(P);
    } else if (c == '-' || isdigit(c)) {
        if (at_float_lit(P)) {
            const char *lit = P->p;
            parse_float_lit(P, CT_F64);
            const ct_type *t = P->f64;
            if (accept(P, ':')) {
                const char *tat = P->p;
                t = parse_type(P);
                if (t->kind != CT_TY_FLOAT)
                    fail_at(P, tat, "float literal with a non-float type");
            }
            const char *save = P->p;
            P->p = lit;
            double v = parse_float_lit(P, t->fk);
            P->p = save;
            a = ct_attr_float(P->m, t, v);
        } else {
            bool neg, hex;
            uint64_t mag = parse_uint_lit(P, &neg, &hex);
            const ct_type *t = P->i64;
            if (accept(P, ':')) {
                const char *tat = P->p;
                t = parse_type(P);
                if (t->kind == CT_TY_FLOAT) {
                    if (!hex)
                        fail_at(P, at, "decimal integer for a float attribute (add a '.')");
                    a = ct_attr_float(P->m, t, float_from_hex(P, at, mag, neg, t->fk));
                } else if (t->kind != CT_TY_INT && t->kind != CT_TY_INDEX) {
                    fail_at(P, tat, "integer literal with a non-integer type");
                }
            }
            if (!a) {
                int64_t v = int_for_type(P, at, mag, neg, t);
                a = t->kind == CT_TY_INT && t->bits == 1 ? ct_attr_bool(P->m, v != 0)
                                                         : ct_attr_int(P->m, t, v);
            }
        }
    } else {
        span id = peek_id(P);
        if (span_is(id, "true") || span_is(id, "false")) {
            P->p += id.n;
            a = ct_attr_bool(P->m, id.s[0] == 't');
            if (peek(P) == ':' && peek2(P) != ':') {
                P->p++;
                const ct_type *t = parse_type(P);
                if (t->kind != CT_TY_INT || t->bits != 1)
                    fail_at(P, at, "boolean literal with a type other than i1");
            }
        } else if (span_is(id, "unit")) {
            P->p += id.n;
            a = ct_attr_unit(P->m);
        } else if (span_is(id, "dense")) {
            P->p += id.n;
            a = parse_dense(P);
        } else if (span_is(id, "array")) {
            P->p += id.n;
            a = parse_dense_array(P);
        } else if (is_type_start(P)) {
            a = ct_attr_type(P->m, parse_type(P));
        } else {
            char b[64];
            fail(P, "expected an attribute value, found %s", found(P, b, sizeof b));
        }
    }
    leave(P);
    return a;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

/* An operand as written: %name or %name#N. */
typedef struct uref {
    span name;
    int resno;
    const char *at;
} uref;

static uref parse_uref(parser *P)
{
    skip_ws(P);
    uref u = {.at = P->p};
    if (P->p >= P->end || *P->p != '%') {
        char b[64];
        fail(P, "expected a value (%%name), found %s", found(P, b, sizeof b));
    }
    P->p++;
    u.name = parse_suffix_id(P, "a value name after '%'");
    if (P->p < P->end && *P->p == '#') {
        P->p++;
        if (P->p >= P->end || !isdigit((unsigned char)*P->p))
            fail(P, "expected a result number after '#'");
        u.resno = (int)parse_small_int(P, 0, INT_MAX, "result number");
    }
    return u;
}

/* uref-list ::= uref (',' uref)* ; a list of at least one */
static int parse_uref_list(parser *P, uref **out)
{
    int n = 0, cap = 8;
    uref *u = ct_arena_alloc(P->m->arena, sizeof(*u) * (size_t)cap);
    do {
        if (n == cap) {
            uref *nu = ct_arena_alloc(P->m->arena, sizeof(*nu) * (size_t)cap * 2);
            memcpy(nu, u, sizeof(*nu) * (size_t)n);
            u = nu;
            cap *= 2;
        }
        u[n++] = parse_uref(P);
    } while (accept(P, ','));
    *out = u;
    return n;
}

/* A possibly empty uref list: present only when the next char is '%'. */
static int parse_opt_uref_list(parser *P, uref **out)
{
    if (peek(P) != '%') {
        *out = NULL;
        return 0;
    }
    return parse_uref_list(P, out);
}

static ct_value *lookup(parser *P, uref u)
{
    int i = smap_get(&P->vnames, u.name);
    binding *b = i >= 0 ? &VEC_AT(P->binds, binding, i) : NULL;
    if (!b || !b->bound)
        fail_at(P, u.at, "use of undefined value %%%.*s", (int)u.name.n, u.name.s);
    if (u.resno >= b->count)
        fail_at(P, u.at, "%%%.*s has %d result%s, no #%d", (int)u.name.n, u.name.s, b->count,
                b->count == 1 ? "" : "s", u.resno);
    return &b->first[u.resno];
}

static void type_mismatch(parser *P, uref u, const ct_type *have, const ct_type *want)
    __attribute__((noreturn));
static void type_mismatch(parser *P, uref u, const ct_type *have, const ct_type *want)
{
    char a[256], b[256];
    ct_type_str(have, a, sizeof a);
    ct_type_str(want, b, sizeof b);
    fail_at(P, u.at, "%%%.*s has type %s but is used as %s", (int)u.name.n, u.name.s, a, b);
}

/* The value of u, which must have type t. */
static ct_value *resolve(parser *P, uref u, const ct_type *t)
{
    ct_value *v = lookup(P, u);
    if (v->type != t)
        type_mismatch(P, u, v->type, t);
    return v;
}

static ct_value **resolve_all(parser *P, const uref *u, int n, const ct_type *const *types)
{
    ct_value **v = ct_arena_alloc(P->m->arena, sizeof(*v) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        v[i] = types ? resolve(P, u[i], types[i]) : lookup(P, u[i]);
    return v;
}

static ct_value **resolve_same(parser *P, const uref *u, int n, const ct_type *t)
{
    ct_value **v = ct_arena_alloc(P->m->arena, sizeof(*v) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        v[i] = resolve(P, u[i], t);
    return v;
}

static int scope_mark(parser *P)
{
    return (int)P->undo.len;
}

static void scope_pop(parser *P, int mark)
{
    while ((int)P->undo.len > mark) {
        int i = VEC_AT(P->undo, int, P->undo.len - 1);
        VEC_AT(P->binds, binding, i).bound = false;
        P->undo.len--;
    }
}

/* Binds %name to `count` values starting at `first`. */
static void bind(parser *P, span name, const char *at, ct_value *first, int count)
{
    int i = smap_get(&P->vnames, name);
    if (i >= 0 && VEC_AT(P->binds, binding, i).bound)
        fail_at(P, at, "redefinition of %%%.*s", (int)name.n, name.s);
    if (i < 0) {
        push(P, &P->binds);
        i = (int)P->binds.len - 1;
        if (!smap_put(&P->vnames, name, i))
            oom(P);
    }
    binding *b = &VEC_AT(P->binds, binding, i);
    b->name = name;
    b->first = first;
    b->count = count;
    b->bound = true;
    *(int *)push(P, &P->undo) = i;
}

/* ------------------------------------------------------------------ */
/* Ops: helpers                                                        */
/* ------------------------------------------------------------------ */

static void parse_op(parser *P, ct_block *blk);

typedef struct attrs {
    ct_named_attr *e;
    int n;
    const char *at;
} attrs;

/* attr-dict? ; applied to the op once it exists */
static attrs parse_opt_attrs(parser *P)
{
    attrs a = {NULL, 0, NULL};
    if (peek(P) == '{') {
        a.at = P->p;
        a.n = parse_dict_entries(P, &a.e);
    }
    return a;
}

static void apply_attrs(parser *P, ct_op *op, attrs a)
{
    for (int i = 0; i < a.n; i++) {
        if (ct_op_attr(op, a.e[i].name))
            fail_at(P, a.at, "attribute '%s' given twice", a.e[i].name);
        ct_op_set_attr(P->m, op, a.e[i].name, a.e[i].attr);
    }
}

static ct_op *new_op(parser *P, ct_opcode code, int nopnds, ct_value **opnds, int nres,
                     const ct_type *const *rt, int nregions)
{
    return ct_op_new(P->m, code, nopnds, opnds, nres, rt, nregions, NULL);
}

static const char *opname(ct_opcode code)
{
    return ct_op_info_of(code)->name;
}

static void want_count(parser *P, const uref *u, int n, int lo, int hi, ct_opcode code)
{
    if (n < lo || n > hi) {
        if (lo == hi)
            fail_at(P, n ? u[0].at : P->p, "'%s' takes %d operand%s, not %d", opname(code), lo,
                    lo == 1 ? "" : "s", n);
        fail_at(P, n ? u[0].at : P->p, "'%s' takes %d to %d operands, not %d", opname(code), lo,
                hi, n);
    }
}

static const ct_type *type_colon(parser *P, const char *what)
{
    expect(P, ':', what);
    return parse_type(P);
}

/* i1 with the shape of t */
static const ct_type *bool_like(parser *P, const ct_type *t)
{
    return ct_type_with_elem(P->m, t, P->i1);
}

/* What a pointer (or tensor of pointers, or block pointer) points at. */
static const ct_type *pointee_of(parser *P, const ct_type *t, const char *at, ct_opcode code)
{
    if (t->kind == CT_TY_TENSOR && t->elem->kind == CT_TY_PTR)
        return ct_type_tensor(P->m, t->elem->elem, t->rank, t->shape);
    if (t->kind == CT_TY_PTR)
        return t->elem;
    char b[256];
    ct_type_str(t, b, sizeof b);
    fail_at(P, at, "'%s' needs a pointer type, not %s", opname(code), b);
}

/* ENUM attribute from a keyword, checked against the op's enum table. */
static const ct_attr *enum_word(parser *P, ct_opcode code, const char *attr)
{
    skip_ws(P);
    const char *at = P->p;
    span w = parse_id(P, attr);
    if (ct_enum_cases(code, attr, NULL, NULL) && !ct_enum_value(code, attr, w.s, w.n, NULL))
        fail_at(P, at, "'%.*s' is not a valid %s of '%s'", (int)w.n, w.s, attr, opname(code));
    return ct_attr_enum(P->m, dup_span(P, w));
}

/* `keyword '=' WORD` as used by the oilists of load/store. */
static void keyword_enum(parser *P, ct_op *op, const char *attr)
{
    expect(P, '=', "after the keyword");
    if (ct_op_attr(op, attr))
        fail(P, "'%s' given twice", attr);
    ct_op_set_attr(P->m, op, attr, enum_word(P, op->code, attr));
}

/* results ::= type | '(' types ')'   (for functional types: -> T or -> (T, U)) */
static int parse_results(parser *P, const ct_type ***out)
{
    if (peek(P) == '(')
        return parse_type_list_paren(P, out);
    *out = ct_arena_alloc(P->m->arena, sizeof(**out));
    (*out)[0] = parse_type(P);
    return 1;
}

/* ':' '(' operand types ')' '->' results, checked against the operands */
static ct_value **functional_operands(parser *P, const uref *u, int n, int *nres,
                                      const ct_type ***rt)
{
    expect(P, ':', "before the operation's type");
    const char *at = P->p;
    const ct_type **ins;
    int nin = parse_type_list_paren(P, &ins);
    if (nin != n)
        fail_at(P, at, "%d operand types for %d operands", nin, n);
    expect_arrow(P, "in the operation's type");
    *nres = parse_results(P, rt);
    return resolve_all(P, u, n, ins);
}

/* '[' uref-list? ']' */
static int parse_bracket_list(parser *P, uref **out)
{
    expect(P, '[', "");
    int n = 0;
    *out = NULL;
    if (!accept(P, ']')) {
        n = parse_uref_list(P, out);
        expect(P, ']', "to close the operand list");
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Regions and blocks                                                  */
/* ------------------------------------------------------------------ */

/* Arguments of an entry block declared by the op's own syntax
 * (function signature, scf.for header). */
typedef struct entry_args {
    int n;
    const ct_type **types;
    uref *names;          /* may be NULL: arguments without names */
    const ct_loc **locs;  /* may be NULL */
} entry_args;

static ct_block *label_ref(parser *P, size_t base, span name, const char *at)
{
    for (size_t i = base; i < P->labels.len; i++) {
        label *l = &VEC_AT(P->labels, label, i);
        if (span_eq(l->name, name))
            return l->block;
    }
    label *l = push(P, &P->labels);
    l->name = name;
    l->block = ct_block_new(P->m);
    l->first_use = at;
    return l->block;
}

/* The labels of the current region start at this index of P->labels. */
static size_t label_base(parser *P)
{
    return P->nlabel_base;
}

/* A block argument: %name ':' type loc? */
static ct_value *parse_block_arg(parser *P, ct_block *b)
{
    uref u = parse_uref(P);
    if (u.resno)
        fail_at(P, u.at, "a block argument cannot have a result number");
    const ct_type *t = type_colon(P, "after a block argument");
    const ct_loc *l = parse_opt_loc(P);
    ct_value *v = ct_block_add_arg(P->m, b, t, l);
    bind(P, u.name, u.at, v, 1);
    return v;
}

/* block-label ::= '^' suffix-id ('(' block-arg (',' block-arg)* ')')? ':' */
static ct_block *parse_block_label(parser *P, ct_region *r)
{
    const char *at = P->p;
    expect(P, '^', "");
    span name = parse_suffix_id(P, "a block name after '^'");
    ct_block *b = label_ref(P, label_base(P), name, at);
    for (size_t i = label_base(P); i < P->labels.len; i++) {
        label *l = &VEC_AT(P->labels, label, i);
        if (l->block == b) {
            if (l->defined)
                fail_at(P, at, "redefinition of block ^%.*s", (int)name.n, name.s);
            l->defined = true;
        }
    }
    ct_region_append(r, b);
    if (accept(P, '(')) {
        if (!accept(P, ')')) {
            do
                parse_block_arg(P, b);
            while (accept(P, ','));
            expect(P, ')', "to close the block arguments");
        }
    }
    expect(P, ':', "after a block label");
    return b;
}

static void parse_block_ops(parser *P, ct_block *b)
{
    for (;;) {
        int c = peek(P);
        if (c == '^' || c == '}' || c == -1)
            break;
        parse_op(P, b);
    }
}

/* region ::= '{' (ops)? (block-label ops)* '}'
 * With `ea`, the entry block exists with those arguments and cannot carry a
 * label; without, an unlabeled entry block is made only if ops come first. */
static void parse_region(parser *P, ct_region *r, const entry_args *ea)
{
    enter(P);
    int mark = scope_mark(P);
    size_t saved_base = P->nlabel_base;
    size_t branch_base = P->branches.len;
    P->nlabel_base = P->labels.len;
    expect(P, '{', "to open a region");
    ct_block *entry = NULL;
    if (ea) {
        entry = ct_block_new(P->m);
        ct_region_append(r, entry);
        for (int i = 0; i < ea->n; i++) {
            ct_value *v = ct_block_add_arg(P->m, entry, ea->types[i], ea->locs ? ea->locs[i] : NULL);
            if (ea->names)
                bind(P, ea->names[i].name, ea->names[i].at, v, 1);
        }
        if (peek(P) == '^')
            fail(P, "this region's entry block takes its arguments from the operation; it "
                    "cannot have a label");
    }
    int c = peek(P);
    if (c != '^' && c != '}') {
        if (!entry) {
            entry = ct_block_new(P->m);
            ct_region_append(r, entry);
        }
        parse_block_ops(P, entry);
    }
    while (peek(P) == '^') {
        ct_block *b = parse_block_label(P, r);
        parse_block_ops(P, b);
    }
    expect(P, '}', "to close the region");
    for (size_t i = P->nlabel_base; i < P->labels.len; i++) {
        label *l = &VEC_AT(P->labels, label, i);
        if (!l->defined)
            fail_at(P, l->first_use, "reference to undefined block ^%.*s", (int)l->name.n,
                    l->name.s);
    }
    /* branches pass their successors exactly the arguments they take: checked
     * now that every block of the region is defined */
    for (size_t i = branch_base; i < P->branches.len; i++) {
        branch *br = &VEC_AT(P->branches, branch, i);
        const ct_op *op = br->op;
        int k = op->code == CT_OP_CF_COND_BR ? 1 : 0;
        for (int j = 0; j < op->nsucc; j++) {
            const ct_block *sb = op->succ[j];
            bool ok = op->succ_nopnds[j] == sb->nargs;
            for (int a = 0; ok && a < sb->nargs; a++)
                ok = op->opnds[k + a]->type == sb->args[a]->type;
            if (!ok)
                fail_at(P, br->at, "the operands of '%s' do not match the arguments of its successor",
                        opname(op->code));
            k += op->succ_nopnds[j];
        }
    }
    P->branches.len = branch_base;
    P->labels.len = P->nlabel_base;
    P->nlabel_base = saved_base;
    scope_pop(P, mark);
    leave(P);
}

/* A successor: ^label ('(' uref-list ':' types ')')? ; returns the operand count */
static int parse_successor(parser *P, ct_block **out, ct_value ***vals)
{
    skip_ws(P);
    const char *at = P->p;
    expect(P, '^', "before a successor block");
    span name = parse_suffix_id(P, "a block name");
    *out = label_ref(P, label_base(P), name, at);
    *vals = NULL;
    if (!accept(P, '('))
        return 0;
    uref *u;
    int n = parse_uref_list(P, &u);
    expect(P, ':', "before the types of successor operands");
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (i)
            expect(P, ',', "between successor operand types");
        t[i] = parse_type(P);
    }
    expect(P, ')', "to close the successor operands");
    *vals = resolve_all(P, u, n, t);
    return n;
}

/* ------------------------------------------------------------------ */
/* Ops: the custom forms                                               */
/* ------------------------------------------------------------------ */

/* A block argument that an op header names (`scf.for %k = ...`) carries
 * no location in the text, so its name would be lost.  Keep it as a name
 * hint for the printer (see ct_loc_name_hint in text_internal.h). */
static const ct_loc *header_arg_loc(parser *P, uref u)
{
    span n = u.name;
    bool digits = true;
    for (size_t i = 0; i < n.n; i++)
        digits &= isdigit((unsigned char)n.s[i]) != 0;
    if (digits)
        return NULL;
    if (n.n > 3 && !memcmp(n.s, "arg", 3)) {
        bool argn = true;
        for (size_t i = 3; i < n.n; i++)
            argn &= isdigit((unsigned char)n.s[i]) != 0;
        if (argn)
            return NULL;
    }
    return ct_loc_name(P->m, dup_span(P, n), &ct_loc_name_hint);
}

/* BIN, UN, TERN:  op uref-list attr-dict ':' type */
static ct_op *parse_same_type(parser *P, ct_opcode code, int nopnds)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, nopnds, nopnds, code);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the operation's type");
    ct_op *op = new_op(P, code, n, resolve_same(P, u, n, t), 1, &t, 0);
    apply_attrs(P, op, a);
    return op;
}

/* CAST, ARROW:  op uref attr-dict ':' type ('to' | '->') type */
static ct_op *parse_conversion(parser *P, ct_opcode code, bool arrow)
{
    uref u = parse_uref(P);
    attrs a = parse_opt_attrs(P);
    const ct_type *from = type_colon(P, "before the operand type");
    if (arrow)
        expect_arrow(P, "between the operand and result types");
    else
        expect_kw(P, "to", "between the operand and result types");
    const ct_type *to = parse_type(P);
    ct_value *v = resolve(P, u, from);
    ct_op *op = new_op(P, code, 1, &v, 1, &to, 0);
    apply_attrs(P, op, a);
    return op;
}

/* arith.constant attr-dict typed-attr */
static ct_op *parse_constant(parser *P)
{
    attrs a = parse_opt_attrs(P);
    skip_ws(P);
    const char *at = P->p;
    const ct_attr *v = parse_attr(P);
    const ct_type *t;
    if (v->kind == CT_ATTR_INT || v->kind == CT_ATTR_FLOAT || v->kind == CT_ATTR_DENSE)
        t = v->type;
    else if (v->kind == CT_ATTR_BOOL)
        t = P->i1;
    else
        fail_at(P, at, "arith.constant needs an integer, float or dense value");
    ct_op *op = new_op(P, CT_OP_ARITH_CONSTANT, 0, NULL, 1, &t, 0);
    ct_op_set_attr(P->m, op, "value", v);
    apply_attrs(P, op, a);
    return op;
}

/* arith.cmpi/cmpf PRED ',' %a ',' %b attr-dict ':' type */
static ct_op *parse_cmp(parser *P, ct_opcode code)
{
    const ct_attr *pred = enum_word(P, code, "predicate");
    expect(P, ',', "after the predicate");
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, 2, 2, code);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the operand type");
    const ct_type *rt = bool_like(P, t);
    ct_op *op = new_op(P, code, 2, resolve_same(P, u, 2, t), 1, &rt, 0);
    ct_op_set_attr(P->m, op, "predicate", pred);
    apply_attrs(P, op, a);
    return op;
}

/* arith.select %c ',' %a ',' %b attr-dict ':' (cond-type ',')? type */
static ct_op *parse_select(parser *P)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, 3, 3, CT_OP_ARITH_SELECT);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the operand type");
    const ct_type *ct = P->i1;
    if (accept(P, ',')) {
        ct = t;
        t = parse_type(P);
    }
    ct_value *v[3] = {resolve(P, u[0], ct), resolve(P, u[1], t), resolve(P, u[2], t)};
    ct_op *op = new_op(P, CT_OP_ARITH_SELECT, 3, v, 1, &t, 0);
    apply_attrs(P, op, a);
    return op;
}

/* Terminators with the values last: op attr-dict (uref-list ':' types)?
 * (tt.return, scf.yield, tt.map_elementwise.return) */
static ct_op *parse_return_like(parser *P, ct_opcode code)
{
    attrs a = parse_opt_attrs(P);
    uref *u;
    int n = parse_opt_uref_list(P, &u);
    ct_value **v = NULL;
    if (n) {
        expect(P, ':', "before the operand types");
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
        for (int i = 0; i < n; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[i] = parse_type(P);
        }
        v = resolve_all(P, u, n, t);
    }
    ct_op *op = new_op(P, code, n, v, 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.reduce.return / tt.scan.return: uref-list attr-dict ':' types */
static ct_op *parse_combine_return(parser *P, ct_opcode code)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    attrs a = parse_opt_attrs(P);
    expect(P, ':', "before the operand types");
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (i)
            expect(P, ',', "between operand types");
        t[i] = parse_type(P);
    }
    ct_op *op = new_op(P, code, n, resolve_all(P, u, n, t), 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.call @callee '(' uref-list? ')' attr-dict ':' functional-type */
static ct_op *parse_call(parser *P)
{
    skip_ws(P);
    expect(P, '@', "before the callee");
    const char *callee = peek(P) == '"' ? parse_string(P) : dup_span(P, parse_id(P, "a callee"));
    expect(P, '(', "to open the call's operands");
    uref *u = NULL;
    int n = 0;
    if (!accept(P, ')')) {
        n = parse_uref_list(P, &u);
        expect(P, ')', "to close the call's operands");
    }
    attrs a = parse_opt_attrs(P);
    int nres;
    const ct_type **rt;
    ct_value **v = functional_operands(P, u, n, &nres, &rt);
    ct_op *op = new_op(P, CT_OP_TT_CALL, n, v, nres, rt, 0);
    ct_op_set_attr(P->m, op, "callee", ct_attr_symref(P->m, callee));
    apply_attrs(P, op, a);
    return op;
}

/* tt.get_program_id / tt.get_num_programs AXIS attr-dict ':' type */
static ct_op *parse_program_query(parser *P, ct_opcode code)
{
    const ct_attr *axis = enum_word(P, code, "axis");
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the result type");
    ct_op *op = new_op(P, code, 0, NULL, 1, &t, 0);
    ct_op_set_attr(P->m, op, "axis", axis);
    apply_attrs(P, op, a);
    return op;
}

/* op attr-dict ':' type   (tt.make_range, ub.poison) */
static ct_op *parse_nullary(parser *P, ct_opcode code)
{
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the result type");
    ct_op *op = new_op(P, code, 0, NULL, 1, &t, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.unsplat %a attr-dict ':' tensor-type  -> its element */
static ct_op *parse_unsplat(parser *P)
{
    uref u = parse_uref(P);
    attrs a = parse_opt_attrs(P);
    const char *at = P->p;
    const ct_type *t = type_colon(P, "before the operand type");
    if (t->kind != CT_TY_TENSOR)
        fail_at(P, at, "tt.unsplat takes a tensor");
    ct_value *v = resolve(P, u, t);
    ct_op *op = new_op(P, CT_OP_TT_UNSPLAT, 1, &v, 1, &t->elem, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.reshape %a ('allow_reorder')? ('efficient_layout')? attr-dict ':' T '->' T */
static ct_op *parse_reshape(parser *P)
{
    uref u = parse_uref(P);
    bool reorder = accept_kw(P, "allow_reorder");
    bool eff = accept_kw(P, "efficient_layout");
    attrs a = parse_opt_attrs(P);
    const ct_type *from = type_colon(P, "before the operand type");
    expect_arrow(P, "between the operand and result types");
    const ct_type *to = parse_type(P);
    ct_value *v = resolve(P, u, from);
    ct_op *op = new_op(P, CT_OP_TT_RESHAPE, 1, &v, 1, &to, 0);
    if (reorder)
        ct_op_set_attr(P->m, op, "allow_reorder", ct_attr_unit(P->m));
    if (eff)
        ct_op_set_attr(P->m, op, "efficient_layout", ct_attr_unit(P->m));
    apply_attrs(P, op, a);
    return op;
}

/* tt.join / tt.cat %a ',' %b attr-dict ':' T '->' T2
 * tt.split %a attr-dict ':' T '->' T2  (two results) */
static ct_op *parse_join_split(parser *P, ct_opcode code)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, code == CT_OP_TT_SPLIT ? 1 : 2, code == CT_OP_TT_SPLIT ? 1 : 2, code);
    attrs a = parse_opt_attrs(P);
    const ct_type *from = type_colon(P, "before the operand type");
    expect_arrow(P, "between the operand and result types");
    const ct_type *to = parse_type(P);
    const ct_type *rt[2] = {to, to};
    ct_op *op = new_op(P, code, n, resolve_same(P, u, n, from), code == CT_OP_TT_SPLIT ? 2 : 1,
                       rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.histogram %src (',' %mask)? attr-dict ':' T '->' T2 */
static ct_op *parse_histogram(parser *P)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, 1, 2, CT_OP_TT_HISTOGRAM);
    attrs a = parse_opt_attrs(P);
    const ct_type *from = type_colon(P, "before the operand type");
    expect_arrow(P, "between the operand and result types");
    const ct_type *to = parse_type(P);
    const ct_type *types[2] = {from, bool_like(P, from)};
    ct_op *op = new_op(P, CT_OP_TT_HISTOGRAM, n, resolve_all(P, u, n, types), 1, &to, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.gather %src '[' %idx ']' attr-dict ':' '(' T ',' T ')' '->' T */
static ct_op *parse_gather(parser *P)
{
    uref u[2];
    u[0] = parse_uref(P);
    expect(P, '[', "before the indices");
    u[1] = parse_uref(P);
    expect(P, ']', "after the indices");
    attrs a = parse_opt_attrs(P);
    int nres;
    const ct_type **rt;
    ct_value **v = functional_operands(P, u, 2, &nres, &rt);
    ct_op *op = new_op(P, CT_OP_TT_GATHER, 2, v, nres, rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.addptr %p ',' %off attr-dict ':' T ',' Toff */
static ct_op *parse_addptr(parser *P)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, 2, 2, CT_OP_TT_ADDPTR);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the pointer type");
    expect(P, ',', "between the pointer and offset types");
    const ct_type *ot = parse_type(P);
    ct_value *v[2] = {resolve(P, u[0], t), resolve(P, u[1], ot)};
    ct_op *op = new_op(P, CT_OP_TT_ADDPTR, 2, v, 1, &t, 0);
    apply_attrs(P, op, a);
    return op;
}

/* oilist(cacheModifier = W | evictionPolicy = W) */
static void parse_cache_evict(parser *P, ct_op *op)
{
    for (;;) {
        skip_ws(P);
        const char *at = P->p;
        if (accept_kw(P, "cacheModifier")) {
            note_release(P, at, "cacheModifier = ...", inline_hints);
            keyword_enum(P, op, "cache");
        } else if (accept_kw(P, "evictionPolicy")) {
            note_release(P, at, "evictionPolicy = ...", inline_hints);
            keyword_enum(P, op, "evict");
        } else {
            return;
        }
    }
}

/* Triton 3.9's {cachePolicy = #tt.cache_policy<cache_modifier = W, eviction_policy = W>}
 * (an attribute of load, store and descriptor_load; struct(params), in any
 * order, both required) is the same hints as 3.6's keywords: the op keeps them
 * as its cache and evict attributes, defaults dropped, as the keywords are. */
static void read_cache_policy(parser *P, ct_op *op, const char *at)
{
    const ct_attr *a = ct_op_attr(op, "cachePolicy");
    if (!a)
        return;
    if (op->code != CT_OP_TT_LOAD && op->code != CT_OP_TT_STORE &&
        op->code != CT_OP_TT_DESCRIPTOR_LOAD)
        fail_at(P, at, "'%s' has no cachePolicy", opname(op->code));
    note_release(P, at, "{cachePolicy = #tt.cache_policy<...>}", hint_attr);
    const char *pre = "#tt.cache_policy<";
    if (a->kind != CT_ATTR_OPAQUE || strncmp(a->s, pre, strlen(pre)))
        fail_at(P, at, "cachePolicy must be a #tt.cache_policy<cache_modifier = ..., "
                "eviction_policy = ...>");
    if (ct_op_attr(op, "cache") || ct_op_attr(op, "evict"))
        fail_at(P, at, "cachePolicy and cacheModifier/evictionPolicy given together");
    static const struct {
        const char *param, *attr, *dflt;
    } params[] = {{"cache_modifier", "cache", "none"}, {"eviction_policy", "evict", "evict_normal"}};
    const char *c = a->s + strlen(pre);
    bool seen[2] = {false, false};
    for (int k = 0; k < 2; k++) {
        while (*c == ' ')
            c++;
        int which = -1;
        for (int i = 0; i < 2; i++)
            if (!strncmp(c, params[i].param, strlen(params[i].param)))
                which = i;
        if (which < 0 || seen[which])
            fail_at(P, at, "#tt.cache_policy needs cache_modifier and eviction_policy, once each");
        seen[which] = true;
        c += strlen(params[which].param);
        while (*c == ' ')
            c++;
        if (*c++ != '=')
            fail_at(P, at, "expected '=' in #tt.cache_policy");
        while (*c == ' ')
            c++;
        size_t n = 0;
        while (c[n] && (isalnum((unsigned char)c[n]) || c[n] == '_'))
            n++;
        if (!ct_enum_value(op->code, params[which].attr, c, n, NULL))
            fail_at(P, at, "'%.*s' is not a valid %s of '%s'", (int)n, c, params[which].param,
                    opname(op->code));
        if (n != strlen(params[which].dflt) || strncmp(c, params[which].dflt, n))
            ct_op_set_attr(P->m, op, params[which].attr, ct_attr_enum(P->m, dup_span(P, (span){c, n})));
        c += n;
        while (*c == ' ')
            c++;
        if (*c != (k ? '>' : ','))
            fail_at(P, at, "malformed #tt.cache_policy<...>");
        c++;
    }
    if (*c)
        fail_at(P, at, "malformed #tt.cache_policy<...>");
    ct_op_remove_attr(op, "cachePolicy");
}

/* tt.load %ptr (',' %mask)? (',' %other)? oilist attr-dict ':' ptr-type
 * tt.store %ptr ',' %value (',' %mask)? oilist attr-dict ':' ptr-type */
static ct_op *parse_load_store(parser *P, ct_opcode code)
{
    bool load = code == CT_OP_TT_LOAD;
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, load ? 1 : 2, 3, code);
    /* attributes are gathered on a scratch op until the types are known */
    ct_op *tmp = new_op(P, code, 0, NULL, 0, NULL, 0);
    parse_cache_evict(P, tmp);
    attrs a = parse_opt_attrs(P);
    skip_ws(P);
    const char *at = P->p;
    const ct_type *pt = type_colon(P, "before the pointer type");
    const ct_type *vt = pointee_of(P, pt, at, code);
    /* the mask has the shape of the loaded value (block pointers included) */
    const ct_type *types[3] = {pt, load ? bool_like(P, vt) : vt, load ? vt : bool_like(P, vt)};
    ct_op *op = new_op(P, code, n, resolve_all(P, u, n, types), load ? 1 : 0, &vt, 0);
    for (int i = 0; i < tmp->nattrs; i++)
        ct_op_set_attr(P->m, op, tmp->attrs[i].name, tmp->attrs[i].attr);
    apply_attrs(P, op, a);
    return op;
}

/* tt.atomic_rmw OP ',' SEM ',' SCOPE ',' %ptr ',' %val (',' %mask)? attr-dict ':' fn-type
 * tt.atomic_cas SEM ',' SCOPE ',' %ptr ',' %cmp ',' %val attr-dict ':' fn-type */
static ct_op *parse_atomic(parser *P, ct_opcode code)
{
    const ct_attr *rmw = NULL;
    if (code == CT_OP_TT_ATOMIC_RMW) {
        rmw = enum_word(P, code, "atomic_rmw_op");
        expect(P, ',', "after the atomic operation");
    }
    const ct_attr *sem = enum_word(P, code, "sem");
    expect(P, ',', "after the memory semantics");
    const ct_attr *scope = enum_word(P, code, "scope");
    expect(P, ',', "after the memory scope");
    uref *u;
    int n = parse_uref_list(P, &u);
    if (code == CT_OP_TT_ATOMIC_RMW)
        want_count(P, u, n, 2, 3, code);
    else
        want_count(P, u, n, 3, 3, code);
    attrs a = parse_opt_attrs(P);
    int nres;
    const ct_type **rt;
    ct_value **v = functional_operands(P, u, n, &nres, &rt);
    ct_op *op = new_op(P, code, n, v, nres, rt, 0);
    if (rmw)
        ct_op_set_attr(P->m, op, "atomic_rmw_op", rmw);
    ct_op_set_attr(P->m, op, "sem", sem);
    ct_op_set_attr(P->m, op, "scope", scope);
    apply_attrs(P, op, a);
    return op;
}

/* tt.fp_to_fp %a attr-dict (',' 'rounding' '=' W)? ':' T '->' T */
static ct_op *parse_fp_to_fp(parser *P)
{
    uref u = parse_uref(P);
    attrs a = parse_opt_attrs(P);
    const ct_attr *rounding = NULL;
    if (accept(P, ',')) {
        expect_kw(P, "rounding", "after ','");
        expect(P, '=', "after 'rounding'");
        rounding = enum_word(P, CT_OP_TT_FP_TO_FP, "rounding");
    }
    if (!a.n)
        a = parse_opt_attrs(P); /* accepted after the rounding as well */
    const ct_type *from = type_colon(P, "before the operand type");
    expect_arrow(P, "between the operand and result types");
    const ct_type *to = parse_type(P);
    ct_value *v = resolve(P, u, from);
    ct_op *op = new_op(P, CT_OP_TT_FP_TO_FP, 1, &v, 1, &to, 0);
    if (rounding)
        ct_op_set_attr(P->m, op, "rounding", rounding);
    apply_attrs(P, op, a);
    return op;
}

/* tt.clampf %x ',' %lo ',' %hi ',' 'propagateNan' '=' W attr-dict ':' T */
static ct_op *parse_clampf(parser *P)
{
    uref u[3];
    for (int i = 0; i < 3; i++) {
        u[i] = parse_uref(P);
        expect(P, ',', "after an operand of tt.clampf");
    }
    expect_kw(P, "propagateNan", "in tt.clampf");
    expect(P, '=', "after 'propagateNan'");
    const ct_attr *nan = enum_word(P, CT_OP_TT_CLAMPF, "propagateNan");
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the type");
    ct_op *op = new_op(P, CT_OP_TT_CLAMPF, 3, resolve_same(P, u, 3, t), 1, &t, 0);
    ct_op_set_attr(P->m, op, "propagateNan", nan);
    apply_attrs(P, op, a);
    return op;
}

/* tt.dot %a ',' %b ',' %c (',' 'inputPrecision' '=' W)? attr-dict ':' Ta '*' Tb '->' Tc
 * An absent inputPrecision is its default, ieee (which is not printed). */
static ct_op *parse_dot(parser *P)
{
    uref u[3];
    for (int i = 0; i < 3; i++) {
        if (i)
            expect(P, ',', "between the operands of tt.dot");
        u[i] = parse_uref(P);
    }
    const ct_attr *prec = NULL;
    if (accept(P, ',')) {
        expect_kw(P, "inputPrecision", "after ','");
        expect(P, '=', "after 'inputPrecision'");
        prec = enum_word(P, CT_OP_TT_DOT, "inputPrecision");
    }
    attrs a = parse_opt_attrs(P);
    const ct_type *ta = type_colon(P, "before the operand types");
    expect(P, '*', "between the operand types of tt.dot");
    const ct_type *tb = parse_type(P);
    expect_arrow(P, "before the result type");
    const ct_type *tc = parse_type(P);
    ct_value *v[3] = {resolve(P, u[0], ta), resolve(P, u[1], tb), resolve(P, u[2], tc)};
    ct_op *op = new_op(P, CT_OP_TT_DOT, 3, v, 1, &tc, 0);
    ct_op_set_attr(P->m, op, "inputPrecision", prec ? prec : ct_attr_enum(P->m, "ieee"));
    apply_attrs(P, op, a);
    return op;
}

/* tt.extern_elementwise uref-list? attr-dict ':' fn-type */
static ct_op *parse_extern(parser *P)
{
    uref *u;
    int n = parse_opt_uref_list(P, &u);
    attrs a = parse_opt_attrs(P);
    int nres;
    const ct_type **rt;
    ct_value **v = functional_operands(P, u, n, &nres, &rt);
    ct_op *op = new_op(P, CT_OP_TT_EXTERN_ELEMENTWISE, n, v, nres, rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.elementwise_inline_asm STRING attr-dict (uref-list ':' types)? '->' types */
static ct_op *parse_inline_asm(parser *P)
{
    const char *s = parse_string(P);
    attrs a = parse_opt_attrs(P);
    uref *u;
    int n = parse_opt_uref_list(P, &u);
    ct_value **v = NULL;
    if (n) {
        expect(P, ':', "before the operand types");
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
        for (int i = 0; i < n; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[i] = parse_type(P);
        }
        v = resolve_all(P, u, n, t);
    }
    expect_arrow(P, "before the result types");
    int nres = 0, cap = 4;
    const ct_type **rt = ct_arena_alloc(P->m->arena, sizeof(*rt) * (size_t)cap);
    do {
        if (nres == cap) {
            const ct_type **nr = ct_arena_alloc(P->m->arena, sizeof(*nr) * (size_t)cap * 2);
            memcpy(nr, rt, sizeof(*nr) * (size_t)nres);
            rt = nr;
            cap *= 2;
        }
        rt[nres++] = parse_type(P);
    } while (accept(P, ','));
    ct_op *op = new_op(P, CT_OP_TT_INLINE_ASM, n, v, nres, rt, 0);
    ct_op_set_attr(P->m, op, "asm_string", ct_attr_str(P->m, s));
    apply_attrs(P, op, a);
    return op;
}

/* tt.assert %cond ',' STRING attr-dict ':' T */
static ct_op *parse_assert(parser *P)
{
    uref u = parse_uref(P);
    expect(P, ',', "before the message");
    const char *msg = parse_string(P);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the condition type");
    ct_value *v = resolve(P, u, t);
    ct_op *op = new_op(P, CT_OP_TT_ASSERT, 1, &v, 0, NULL, 0);
    ct_op_set_attr(P->m, op, "message", ct_attr_str(P->m, msg));
    apply_attrs(P, op, a);
    return op;
}

/* tt.print STRING attr-dict (':' uref-list ':' types)? */
static ct_op *parse_print(parser *P)
{
    const char *prefix = parse_string(P);
    attrs a = parse_opt_attrs(P);
    uref *u = NULL;
    int n = 0;
    ct_value **v = NULL;
    if (accept(P, ':')) {
        n = parse_uref_list(P, &u);
        expect(P, ':', "before the operand types");
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
        for (int i = 0; i < n; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[i] = parse_type(P);
        }
        v = resolve_all(P, u, n, t);
    }
    ct_op *op = new_op(P, CT_OP_TT_PRINT, n, v, 0, NULL, 0);
    ct_op_set_attr(P->m, op, "prefix", ct_attr_str(P->m, prefix));
    apply_attrs(P, op, a);
    return op;
}

/* Concatenates operand lists. */
static uref *cat_urefs(parser *P, uref *a, int na, uref *b, int nb)
{
    uref *u = ct_arena_alloc(P->m->arena, sizeof(*u) * (size_t)(na + nb + 1));
    if (na)
        memcpy(u, a, sizeof(*u) * (size_t)na);
    if (nb)
        memcpy(u + na, b, sizeof(*u) * (size_t)nb);
    return u;
}

/* tt.make_tensor_ptr %base ',' '[' shape ']' ',' '[' strides ']' ',' '[' offsets ']'
 *   attr-dict ':' stripped-ptr-type */
static ct_op *parse_make_tensor_ptr(parser *P)
{
    uref base = parse_uref(P);
    uref *l[3];
    int n[3];
    for (int g = 0; g < 3; g++) {
        expect(P, ',', "between the operand groups of tt.make_tensor_ptr");
        n[g] = parse_bracket_list(P, &l[g]);
    }
    if (n[0] != n[1] || n[1] != n[2])
        fail(P, "tt.make_tensor_ptr needs as many shape, stride and offset operands");
    attrs a = parse_opt_attrs(P);
    skip_ws(P);
    const char *at = P->p;
    expect(P, ':', "before the result type");
    const ct_type *rt = parse_stripped(P, CT_TY_PTR);
    if (rt->kind != CT_TY_PTR || rt->elem->kind != CT_TY_TENSOR)
        fail_at(P, at, "tt.make_tensor_ptr makes a pointer to a tensor");
    int r = n[0];
    uref *u = cat_urefs(P, &base, 1, l[0], r);
    u = cat_urefs(P, u, 1 + r, l[1], r);
    u = cat_urefs(P, u, 1 + 2 * r, l[2], r);
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(1 + 3 * r));
    t[0] = ct_type_ptr(P->m, rt->elem->elem, rt->addrspace);
    for (int i = 0; i < r; i++) {
        t[1 + i] = P->i64;
        t[1 + r + i] = P->i64;
        t[1 + 2 * r + i] = P->i32;
    }
    ct_op *op = new_op(P, CT_OP_TT_MAKE_TENSOR_PTR, 1 + 3 * r, resolve_all(P, u, 1 + 3 * r, t), 1,
                       &rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.advance %ptr ',' '[' offsets ']' attr-dict ':' stripped-ptr-type */
static ct_op *parse_advance(parser *P)
{
    uref p = parse_uref(P);
    expect(P, ',', "after the pointer");
    uref *l;
    int n = parse_bracket_list(P, &l);
    attrs a = parse_opt_attrs(P);
    expect(P, ':', "before the result type");
    const ct_type *rt = parse_stripped(P, CT_TY_PTR);
    uref *u = cat_urefs(P, &p, 1, l, n);
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(1 + n));
    t[0] = rt;
    for (int i = 0; i < n; i++)
        t[1 + i] = P->i32;
    ct_op *op = new_op(P, CT_OP_TT_ADVANCE, 1 + n, resolve_all(P, u, 1 + n, t), 1, &rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.make_tensor_descriptor %base ',' '[' shape ']' ',' '[' strides ']' attr-dict
 *   ':' stripped-ptr ',' stripped-desc */
static ct_op *parse_make_desc(parser *P)
{
    uref base = parse_uref(P);
    uref *l[2];
    int n[2];
    for (int g = 0; g < 2; g++) {
        expect(P, ',', "between the operand groups of tt.make_tensor_descriptor");
        n[g] = parse_bracket_list(P, &l[g]);
    }
    if (n[0] != n[1])
        fail(P, "tt.make_tensor_descriptor needs as many shape as stride operands");
    attrs a = parse_opt_attrs(P);
    expect(P, ':', "before the types");
    const ct_type *bt = parse_stripped(P, CT_TY_PTR);
    expect(P, ',', "between the types");
    const ct_type *rt = parse_stripped(P, CT_TY_TENSORDESC);
    int r = n[0];
    uref *u = cat_urefs(P, &base, 1, l[0], r);
    u = cat_urefs(P, u, 1 + r, l[1], r);
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(1 + 2 * r));
    t[0] = bt;
    for (int i = 0; i < r; i++) {
        t[1 + i] = P->i32;
        t[1 + r + i] = P->i64;
    }
    ct_op *op = new_op(P, CT_OP_TT_MAKE_TENSOR_DESC, 1 + 2 * r, resolve_all(P, u, 1 + 2 * r, t),
                       1, &rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* The descriptor ops:
 *   tt.descriptor_load %d '[' idx ']' oilist attr-dict ':' desc '->' T
 *   tt.descriptor_store %d '[' idx ']' ',' %src attr-dict ':' desc ',' T
 *   tt.descriptor_reduce KIND ',' %d '[' idx ']' ',' %src attr-dict ':' desc ',' T
 *   tt.descriptor_gather %d '[' %x ',' %y ']' attr-dict ':' fn-type
 *   tt.descriptor_scatter %d '[' %x ',' %y ']' ',' %src attr-dict ':' types */
static ct_op *parse_descriptor(parser *P, ct_opcode code)
{
    const ct_attr *kind = NULL;
    if (code == CT_OP_TT_DESCRIPTOR_REDUCE) {
        kind = enum_word(P, code, "kind");
        expect(P, ',', "after the reduction kind");
    }
    uref d = parse_uref(P);
    uref *idx;
    int n = parse_bracket_list(P, &idx);
    uref src = {0};
    bool has_src = code != CT_OP_TT_DESCRIPTOR_LOAD && code != CT_OP_TT_DESCRIPTOR_GATHER;
    if (has_src) {
        expect(P, ',', "before the source operand");
        src = parse_uref(P);
    }
    ct_op *tmp = new_op(P, code, 0, NULL, 0, NULL, 0);
    if (code == CT_OP_TT_DESCRIPTOR_LOAD)
        parse_cache_evict(P, tmp);
    attrs a = parse_opt_attrs(P);
    uref *u = cat_urefs(P, &d, 1, idx, n);
    if (has_src)
        u = cat_urefs(P, u, 1 + n, &src, 1);
    int nu = 1 + n + has_src;
    ct_op *op;
    if (code == CT_OP_TT_DESCRIPTOR_GATHER) {
        int nres;
        const ct_type **rt;
        ct_value **v = functional_operands(P, u, nu, &nres, &rt);
        op = new_op(P, code, nu, v, nres, rt, 0);
    } else if (code == CT_OP_TT_DESCRIPTOR_SCATTER) {
        expect(P, ':', "before the operand types");
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)nu);
        for (int i = 0; i < nu; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[i] = parse_type(P);
        }
        op = new_op(P, code, nu, resolve_all(P, u, nu, t), 0, NULL, 0);
    } else {
        expect(P, ':', "before the descriptor type");
        const ct_type *dt = parse_type(P);
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)nu);
        t[0] = dt;
        for (int i = 0; i < n; i++)
            t[1 + i] = P->i32;
        const ct_type *other;
        if (code == CT_OP_TT_DESCRIPTOR_LOAD) {
            expect_arrow(P, "before the result type");
            other = parse_type(P);
            op = new_op(P, code, nu, resolve_all(P, u, nu, t), 1, &other, 0);
        } else {
            expect(P, ',', "between the descriptor and source types");
            other = parse_type(P);
            t[1 + n] = other;
            op = new_op(P, code, nu, resolve_all(P, u, nu, t), 0, NULL, 0);
        }
    }
    for (int i = 0; i < tmp->nattrs; i++)
        ct_op_set_attr(P->m, op, tmp->attrs[i].name, tmp->attrs[i].attr);
    if (kind)
        ct_op_set_attr(P->m, op, "kind", kind);
    apply_attrs(P, op, a);
    return op;
}

/* llvm.intr.assume %c attr-dict ':' i1 */
static ct_op *parse_assume(parser *P)
{
    uref u = parse_uref(P);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the condition type");
    ct_value *v = resolve(P, u, t);
    ct_op *op = new_op(P, CT_OP_LLVM_ASSUME, 1, &v, 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* An op without operands or results: gpu.barrier attr-dict */
static ct_op *parse_bare(parser *P, ct_opcode code)
{
    attrs a = parse_opt_attrs(P);
    ct_op *op = new_op(P, code, 0, NULL, 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* ttg.barrier $addrSpace attr-dict: the words of TTG_AddrSpace joined by `|` */
static ct_op *parse_ttg_barrier(parser *P)
{
    static const char *const words[] = {"none",        "local",       "global_read", "global_write",
                                        "tensor_read", "tensor_write", "all",        NULL};
    char buf[128];
    size_t n = 0;
    do {
        const char *at = P->p;
        span id = parse_id(P, "an address space of ttg.barrier (all, local, global_read, ...)");
        bool known = false;
        for (int i = 0; words[i] && !known; i++)
            known = span_is(id, words[i]);
        if (!known)
            fail_at(P, at, "unknown address space '%.*s' of ttg.barrier (none, local, "
                    "global_read, global_write, tensor_read, tensor_write, all)", (int)id.n, id.s);
        if (n + id.n + 2 > sizeof buf)
            fail_at(P, at, "too many address spaces in ttg.barrier");
        if (n)
            buf[n++] = '|';
        memcpy(buf + n, id.s, id.n);
        n += id.n;
        buf[n] = 0;
    } while (accept(P, '|'));
    attrs a = parse_opt_attrs(P);
    ct_op *op = new_op(P, CT_OP_TTG_BARRIER, 0, NULL, 0, NULL, 0);
    ct_op_set_attr(P->m, op, "addrSpace", ct_attr_enum(P->m, buf));
    apply_attrs(P, op, a);
    return op;
}

/* Appends an implicit `scf.yield` (no operands) to a region whose block
 * has no terminator, as MLIR's parser does for ops with such regions. */
static void ensure_yield(parser *P, ct_region *r)
{
    if (!r->first)
        ct_region_append(r, ct_block_new(P->m));
    ct_block *b = r->last;
    if (!ct_block_terminator(b))
        ct_block_append(b, new_op(P, CT_OP_SCF_YIELD, 0, NULL, 0, NULL, 0));
}

/* scf.for %iv '=' %lb 'to' %ub 'step' %st
 *   ('iter_args' '(' %a '=' %init (',' ...)* ')' '->' '(' types ')')?
 *   (':' type)? region attr-dict */
static ct_op *parse_for(parser *P)
{
    if (peek_kw(P, "unsigned"))
        fail(P, "unsigned scf.for loops are not supported");
    uref hdr[4];
    hdr[0] = parse_uref(P);
    expect(P, '=', "after the induction variable");
    hdr[1] = parse_uref(P);
    expect_kw(P, "to", "after the lower bound");
    hdr[2] = parse_uref(P);
    expect_kw(P, "step", "after the upper bound");
    hdr[3] = parse_uref(P);
    int ni = 0, cap = 4;
    uref *args = ct_arena_alloc(P->m->arena, sizeof(*args) * (size_t)cap);
    uref *inits = ct_arena_alloc(P->m->arena, sizeof(*inits) * (size_t)cap);
    const ct_type **it = NULL;
    if (accept_kw(P, "iter_args")) {
        expect(P, '(', "after 'iter_args'");
        do {
            if (ni == cap) {
                uref *na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                uref *nn = ct_arena_alloc(P->m->arena, sizeof(*nn) * (size_t)cap * 2);
                memcpy(na, args, sizeof(*na) * (size_t)ni);
                memcpy(nn, inits, sizeof(*nn) * (size_t)ni);
                args = na;
                inits = nn;
                cap *= 2;
            }
            args[ni] = parse_uref(P);
            expect(P, '=', "in iter_args");
            inits[ni] = parse_uref(P);
            ni++;
        } while (accept(P, ','));
        expect(P, ')', "to close iter_args");
        expect_arrow(P, "after iter_args");
        const char *at = P->p;
        int nt = parse_type_list_paren(P, &it);
        if (nt != ni)
            fail_at(P, at, "%d result types for %d iter_args", nt, ni);
    }
    const ct_type *t = P->index;
    if (accept(P, ':'))
        t = parse_type(P);
    ct_value **ops = ct_arena_alloc(P->m->arena, sizeof(*ops) * (size_t)(3 + ni));
    for (int i = 0; i < 3; i++)
        ops[i] = resolve(P, hdr[1 + i], t);
    for (int i = 0; i < ni; i++)
        ops[3 + i] = resolve(P, inits[i], it[i]);
    ct_op *op = new_op(P, CT_OP_SCF_FOR, 3 + ni, ops, ni, it, 1);
    entry_args ea = {.n = 1 + ni};
    ea.types = ct_arena_alloc(P->m->arena, sizeof(*ea.types) * (size_t)(1 + ni));
    ea.names = ct_arena_alloc(P->m->arena, sizeof(*ea.names) * (size_t)(1 + ni));
    ea.locs = ct_arena_alloc(P->m->arena, sizeof(*ea.locs) * (size_t)(1 + ni));
    ea.types[0] = t;
    ea.names[0] = hdr[0];
    for (int i = 0; i < ni; i++) {
        ea.types[1 + i] = it[i];
        ea.names[1 + i] = args[i];
    }
    for (int i = 0; i < 1 + ni; i++) {
        if (ea.names[i].resno)
            fail_at(P, ea.names[i].at, "a loop variable cannot have a result number");
        ea.locs[i] = header_arg_loc(P, ea.names[i]);
    }
    parse_region(P, &op->regions[0], &ea);
    if (ni == 0)
        ensure_yield(P, &op->regions[0]);
    apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* scf.if %c ('->' '(' types ')')? region ('else' region)? attr-dict */
static ct_op *parse_if(parser *P)
{
    uref c = parse_uref(P);
    const ct_type **rt = NULL;
    int nres = 0;
    if (accept_arrow(P))
        nres = parse_type_list_paren(P, &rt);
    ct_value *cv = resolve(P, c, P->i1);
    ct_op *op = new_op(P, CT_OP_SCF_IF, 1, &cv, nres, rt, 2);
    parse_region(P, &op->regions[0], NULL);
    if (nres == 0)
        ensure_yield(P, &op->regions[0]);
    if (accept_kw(P, "else")) {
        parse_region(P, &op->regions[1], NULL);
        if (nres == 0)
            ensure_yield(P, &op->regions[1]);
    }
    apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* scf.while '(' (%a '=' %init (',' ...)*)? ')' ':' '(' types ')' '->' results
 *   region 'do' region ('attributes' dict)? */
static ct_op *parse_while(parser *P)
{
    expect(P, '(', "after scf.while");
    int n = 0, cap = 4;
    uref *args = ct_arena_alloc(P->m->arena, sizeof(*args) * (size_t)cap);
    uref *inits = ct_arena_alloc(P->m->arena, sizeof(*inits) * (size_t)cap);
    if (!accept(P, ')')) {
        do {
            if (n == cap) {
                uref *na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                uref *nn = ct_arena_alloc(P->m->arena, sizeof(*nn) * (size_t)cap * 2);
                memcpy(na, args, sizeof(*na) * (size_t)n);
                memcpy(nn, inits, sizeof(*nn) * (size_t)n);
                args = na;
                inits = nn;
                cap *= 2;
            }
            args[n] = parse_uref(P);
            expect(P, '=', "in scf.while's arguments");
            inits[n] = parse_uref(P);
            n++;
        } while (accept(P, ','));
        expect(P, ')', "to close scf.while's arguments");
    }
    expect(P, ':', "before scf.while's type");
    const char *at = P->p;
    const ct_type **ins;
    int nin = parse_type_list_paren(P, &ins);
    if (nin != n)
        fail_at(P, at, "%d operand types for %d operands", nin, n);
    expect_arrow(P, "in scf.while's type");
    const ct_type **rt;
    int nres = parse_results(P, &rt);
    ct_op *op = new_op(P, CT_OP_SCF_WHILE, n, resolve_all(P, inits, n, ins), nres, rt, 2);
    entry_args ea = {.n = n, .types = ins, .names = args};
    ea.locs = ct_arena_alloc(P->m->arena, sizeof(*ea.locs) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        if (args[i].resno)
            fail_at(P, args[i].at, "an argument cannot have a result number");
        ea.locs[i] = header_arg_loc(P, args[i]);
    }
    parse_region(P, &op->regions[0], &ea);
    expect_kw(P, "do", "between the regions of scf.while");
    parse_region(P, &op->regions[1], NULL);
    if (accept_kw(P, "attributes"))
        apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* scf.condition '(' %c ')' attr-dict (uref-list ':' types)? */
static ct_op *parse_condition(parser *P)
{
    expect(P, '(', "after scf.condition");
    uref c = parse_uref(P);
    expect(P, ')', "after the condition");
    attrs a = parse_opt_attrs(P);
    uref *u;
    int n = parse_opt_uref_list(P, &u);
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(n + 1));
    t[0] = P->i1;
    if (n) {
        expect(P, ':', "before the operand types");
        for (int i = 0; i < n; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[1 + i] = parse_type(P);
        }
    }
    uref *all = cat_urefs(P, &c, 1, u, n);
    ct_op *op = new_op(P, CT_OP_SCF_CONDITION, 1 + n, resolve_all(P, all, 1 + n, t), 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* cf.br successor attr-dict
 * cf.cond_br %c ',' successor ',' successor attr-dict */
static ct_op *parse_branch(parser *P, ct_opcode code)
{
    ct_value *cond = NULL;
    if (code == CT_OP_CF_COND_BR) {
        uref c = parse_uref(P);
        cond = resolve(P, c, P->i1);
        expect(P, ',', "after the condition");
    }
    ct_block *succ[2];
    ct_value **vals[2];
    int cnt[2] = {0, 0};
    int ns = code == CT_OP_CF_COND_BR ? 2 : 1;
    for (int i = 0; i < ns; i++) {
        if (i)
            expect(P, ',', "between the successors");
        cnt[i] = parse_successor(P, &succ[i], &vals[i]);
    }
    int nop = (cond ? 1 : 0) + cnt[0] + cnt[1];
    ct_value **ops = ct_arena_alloc(P->m->arena, sizeof(*ops) * (size_t)(nop ? nop : 1));
    int k = 0;
    if (cond)
        ops[k++] = cond;
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < cnt[i]; j++)
            ops[k++] = vals[i][j];
    ct_op *op = new_op(P, code, nop, ops, 0, NULL, 0);
    ct_op_set_successors(P->m, op, ns, succ, cnt);
    apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* ------------------------------------------------------------------ */
/* Ops: the generic form                                               */
/* ------------------------------------------------------------------ */

/* Generic attributes into ctriton's conventions: enum integers become
 * their keywords, and the default-valued properties MLIR writes out in the
 * generic form (but never in the custom one) are dropped, so that the op
 * prints as Triton prints its custom form. */
static void canonicalize_generic_attrs(parser *P, ct_op *op, const char *at)
{
    for (int i = 0; i < op->nattrs; i++) {
        const ct_named_attr *na = &op->attrs[i];
        if (na->attr->kind != CT_ATTR_INT || !ct_enum_cases(op->code, na->name, NULL, NULL))
            continue;
        const char *w = ct_enum_word(op->code, na->name, na->attr->i);
        if (!w)
            fail_at(P, at, "%" PRId64 " is not a valid %s of '%s'", na->attr->i, na->name,
                    opname(op->code));
        ct_op_set_attr(P->m, op, na->name, ct_attr_enum(P->m, w));
    }
    static const struct {
        ct_opcode op;
        const char *name, *word;
    } defaults[] = {
        {CT_OP_TT_LOAD, "cache", "none"},       {CT_OP_TT_LOAD, "evict", "evict_normal"},
        {CT_OP_TT_STORE, "cache", "none"},      {CT_OP_TT_STORE, "evict", "evict_normal"},
        {CT_OP_TT_DESCRIPTOR_LOAD, "cache", "none"},
        {CT_OP_TT_DESCRIPTOR_LOAD, "evict", "evict_normal"},
    };
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
        const ct_attr *a;
        if (defaults[i].op == op->code && (a = ct_op_attr(op, defaults[i].name)) &&
            a->kind == CT_ATTR_ENUM && !strcmp(a->s, defaults[i].word))
            ct_op_remove_attr(op, defaults[i].name);
    }
    const ct_attr *a;
    if ((op->code == CT_OP_TT_LOAD || op->code == CT_OP_TT_STORE) &&
        (a = ct_op_attr(op, "boundaryCheck")) && a->kind == CT_ATTR_DENSE_ARRAY && a->n == 0)
        ct_op_remove_attr(op, "boundaryCheck");
    if (op->code == CT_OP_TT_LOAD && (a = ct_op_attr(op, "isVolatile")) &&
        a->kind == CT_ATTR_BOOL && !a->i)
        ct_op_remove_attr(op, "isVolatile");
    if (op->code == CT_OP_TT_DOT && (a = ct_op_attr(op, "maxNumImpreciseAcc")) &&
        a->kind == CT_ATTR_INT && a->i == 0)
        ct_op_remove_attr(op, "maxNumImpreciseAcc");
    if (op->code == CT_OP_TT_RESHAPE) {
        static const char *const flags[] = {"allow_reorder", "efficient_layout"};
        for (int i = 0; i < 2; i++) {
            if ((a = ct_op_attr(op, flags[i])) && a->kind == CT_ATTR_BOOL) {
                if (a->i)
                    ct_op_set_attr(P->m, op, flags[i], ct_attr_unit(P->m));
                else
                    ct_op_remove_attr(op, flags[i]);
            }
        }
    }
    if (op->code == CT_OP_TT_DOT && !ct_op_attr(op, "inputPrecision"))
        ct_op_set_attr(P->m, op, "inputPrecision", ct_attr_enum(P->m, "ieee"));
    /* operand segments are implied by the operand count in ctriton's IR */
    if ((a = ct_op_attr(op, "operandSegmentSizes")) && op->code != CT_OP_CF_COND_BR) {
        int64_t sum = 0;
        for (int i = 0; a->kind == CT_ATTR_DENSE_ARRAY && i < a->n; i++)
            sum += a->ivals[i];
        if (a->kind != CT_ATTR_DENSE_ARRAY || sum != op->nopnds)
            fail_at(P, at, "operandSegmentSizes does not match the operands");
        if (op->code == CT_OP_TT_LOAD && a->n == 3 && a->ivals[1] == 0 && a->ivals[2] == 1)
            fail_at(P, at, "tt.load with `other` but no mask cannot be represented");
        ct_op_remove_attr(op, "operandSegmentSizes");
    }
}

/* generic-op ::= string '(' uref-list? ')' ('[' successors ']')? ('<' dict '>')?
 *                ('(' region (',' region)* ')')? dict? ':' function-type */
static ct_op *parse_generic(parser *P, const char *at)
{
    skip_ws(P);
    const char *nat = P->p;
    const char *name = parse_string(P);
    int code = smap_get(&P->opnames, (span){name, strlen(name)});
    if (code < 0)
        fail_at(P, nat, "unknown operation '%s'", name);
    if (code == CT_OP_TT_FUNC)
        fail_at(P, nat, "tt.func in generic form is not supported");
    expect(P, '(', "to open the operands");
    uref *u = NULL;
    int n = 0;
    if (!accept(P, ')')) {
        n = parse_uref_list(P, &u);
        expect(P, ')', "to close the operands");
    }
    int ns = 0;
    ct_block *succ[2];
    if (accept(P, '[')) {
        do {
            skip_ws(P);
            const char *sat = P->p;
            expect(P, '^', "before a successor");
            span sn = parse_suffix_id(P, "a block name");
            if (ns == 2)
                fail_at(P, sat, "too many successors");
            succ[ns++] = label_ref(P, label_base(P), sn, sat);
        } while (accept(P, ','));
        expect(P, ']', "to close the successors");
    }
    ct_named_attr *props = NULL;
    int nprops = 0;
    if (accept(P, '<')) {
        nprops = parse_dict_entries(P, &props);
        expect(P, '>', "to close the properties");
    }
    int nreg = 0, rcap = 2;
    ct_region *regs = ct_arena_alloc(P->m->arena, sizeof(*regs) * (size_t)rcap);
    if (peek(P) == '(' && peek2(P) == '{') {
        P->p++;
        do {
            if (nreg == rcap) {
                ct_region *nr = ct_arena_alloc(P->m->arena, sizeof(*nr) * (size_t)rcap * 2);
                memcpy(nr, regs, sizeof(*nr) * (size_t)nreg);
                regs = nr;
                rcap *= 2;
            }
            parse_region(P, &regs[nreg++], NULL);
        } while (accept(P, ','));
        expect(P, ')', "to close the regions");
    }
    attrs a = parse_opt_attrs(P);
    expect(P, ':', "before the operation's type");
    const char *tat = P->p;
    const ct_type *ft = parse_type(P);
    if (ft->kind != CT_TY_FUNC)
        fail_at(P, tat, "the generic form needs a function type");
    if (ft->nin != n)
        fail_at(P, tat, "%d operand types for %d operands", ft->nin, n);
    ct_op *op = new_op(P, (ct_opcode)code, n, resolve_all(P, u, n, ft->ins), ft->nout, ft->outs,
                       nreg);
    for (int i = 0; i < nreg; i++) {
        op->regions[i].first = regs[i].first;
        op->regions[i].last = regs[i].last;
        for (ct_block *b = regs[i].first; b; b = b->next)
            b->parent = &op->regions[i];
    }
    for (int i = 0; i < nprops; i++) {
        if (ct_op_attr(op, props[i].name))
            fail_at(P, at, "property '%s' given twice", props[i].name);
        ct_op_set_attr(P->m, op, props[i].name, props[i].attr);
    }
    apply_attrs(P, op, a);
    if (ns) {
        int cnt[2] = {n, 0};
        if (code == CT_OP_CF_COND_BR) {
            const ct_attr *seg = ct_op_attr(op, "operandSegmentSizes");
            if (!seg || seg->kind != CT_ATTR_DENSE_ARRAY || seg->n != 3 || seg->ivals[0] != 1 ||
                seg->ivals[1] < 0 || seg->ivals[2] < 0 || seg->ivals[1] + seg->ivals[2] + 1 != n)
                fail_at(P, at, "cf.cond_br in generic form needs operandSegmentSizes");
            cnt[0] = (int)seg->ivals[1];
            cnt[1] = (int)seg->ivals[2];
            ct_op_remove_attr(op, "operandSegmentSizes");
        } else if (code != CT_OP_CF_BR) {
            fail_at(P, at, "'%s' has no successors", name);
        }
        ct_op_set_successors(P->m, op, ns, succ, cnt);
    }
    canonicalize_generic_attrs(P, op, at);
    return op;
}

/* ------------------------------------------------------------------ */
/* Functions                                                           */
/* ------------------------------------------------------------------ */

/* tt.func ('public' | 'private' | 'nested')? '@' sym '(' args ')' ('->' results)?
 *   ('attributes' dict)? region?
 * arg ::= (%name ':')? type dict? loc?    ; results ::= type | '(' (type dict?)* ')' */
static ct_op *parse_func(parser *P)
{
    const char *vis = NULL;
    if (accept_kw(P, "public"))
        vis = "public";
    else if (accept_kw(P, "private"))
        vis = "private";
    else if (accept_kw(P, "nested"))
        vis = "nested";
    expect(P, '@', "before the function name");
    const char *name = peek(P) == '"' ? parse_string(P) : dup_span(P, parse_id(P, "a function name"));
    expect(P, '(', "to open the function's arguments");
    int n = 0, cap = 8;
    const ct_type **ins = ct_arena_alloc(P->m->arena, sizeof(*ins) * (size_t)cap);
    const ct_attr **aattr = ct_arena_alloc(P->m->arena, sizeof(*aattr) * (size_t)cap);
    uref *names = ct_arena_alloc(P->m->arena, sizeof(*names) * (size_t)cap);
    const ct_loc **locs = ct_arena_alloc(P->m->arena, sizeof(*locs) * (size_t)cap);
    bool named = peek(P) == '%', any_attr = false;
    if (!accept(P, ')')) {
        do {
            if (n == cap) {
                const ct_type **ni = ct_arena_alloc(P->m->arena, sizeof(*ni) * (size_t)cap * 2);
                const ct_attr **na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                uref *nn = ct_arena_alloc(P->m->arena, sizeof(*nn) * (size_t)cap * 2);
                const ct_loc **nl = ct_arena_alloc(P->m->arena, sizeof(*nl) * (size_t)cap * 2);
                memcpy(ni, ins, sizeof(*ni) * (size_t)n);
                memcpy(na, aattr, sizeof(*na) * (size_t)n);
                memcpy(nn, names, sizeof(*nn) * (size_t)n);
                memcpy(nl, locs, sizeof(*nl) * (size_t)n);
                ins = ni;
                aattr = na;
                names = nn;
                locs = nl;
                cap *= 2;
            }
            if ((peek(P) == '%') != named)
                fail(P, "either all or none of the function's arguments are named");
            if (named) {
                names[n] = parse_uref(P);
                if (names[n].resno)
                    fail_at(P, names[n].at, "an argument cannot have a result number");
                expect(P, ':', "after the argument name");
            }
            ins[n] = parse_type(P);
            ct_named_attr *e = NULL;
            int ne = peek(P) == '{' ? parse_dict_entries(P, &e) : 0;
            aattr[n] = ct_attr_dict(P->m, ne, e);
            any_attr |= ne > 0;
            locs[n] = parse_opt_loc(P);
            n++;
        } while (accept(P, ','));
        expect(P, ')', "to close the function's arguments");
    }
    int nout = 0;
    const ct_type **outs = NULL;
    const ct_attr **rattr = NULL;
    bool any_rattr = false;
    if (accept_arrow(P)) {
        if (accept(P, '(')) {
            int rc = 4;
            outs = ct_arena_alloc(P->m->arena, sizeof(*outs) * (size_t)rc);
            rattr = ct_arena_alloc(P->m->arena, sizeof(*rattr) * (size_t)rc);
            if (!accept(P, ')')) {
                do {
                    if (nout == rc) {
                        const ct_type **no = ct_arena_alloc(P->m->arena, sizeof(*no) * (size_t)rc * 2);
                        const ct_attr **nr = ct_arena_alloc(P->m->arena, sizeof(*nr) * (size_t)rc * 2);
                        memcpy(no, outs, sizeof(*no) * (size_t)nout);
                        memcpy(nr, rattr, sizeof(*nr) * (size_t)nout);
                        outs = no;
                        rattr = nr;
                        rc *= 2;
                    }
                    outs[nout] = parse_type(P);
                    ct_named_attr *e = NULL;
                    int ne = peek(P) == '{' ? parse_dict_entries(P, &e) : 0;
                    rattr[nout] = ct_attr_dict(P->m, ne, e);
                    any_rattr |= ne > 0;
                    nout++;
                } while (accept(P, ','));
                expect(P, ')', "to close the function's results");
            }
        } else {
            outs = ct_arena_alloc(P->m->arena, sizeof(*outs));
            outs[0] = parse_type(P);
            nout = 1;
        }
    }
    attrs extra = {0};
    if (accept_kw(P, "attributes"))
        extra = parse_opt_attrs(P);
    ct_op *op = new_op(P, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1);
    ct_op_set_attr(P->m, op, "sym_name", ct_attr_str(P->m, name));
    if (vis)
        ct_op_set_attr(P->m, op, "sym_visibility", ct_attr_str(P->m, vis));
    ct_op_set_attr(P->m, op, "function_type",
                   ct_attr_type(P->m, ct_type_func(P->m, n, ins, nout, outs)));
    if (any_attr)
        ct_op_set_attr(P->m, op, "arg_attrs", ct_attr_array(P->m, n, aattr));
    if (any_rattr)
        ct_op_set_attr(P->m, op, "res_attrs", ct_attr_array(P->m, nout, rattr));
    for (int i = 0; i < extra.n; i++) {
        static const char *const reserved[] = {"sym_name", "sym_visibility", "function_type",
                                               "arg_attrs", "res_attrs"};
        for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
            if (!strcmp(extra.e[i].name, reserved[k]))
                fail_at(P, extra.at, "'%s' cannot be given in the attributes of tt.func",
                        reserved[k]);
    }
    apply_attrs(P, op, extra);
    if (peek(P) == '{') {
        if (!named && n)
            fail(P, "a function with a body needs named arguments");
        entry_args ea = {.n = n, .types = ins, .names = named ? names : NULL, .locs = locs};
        parse_region(P, &op->regions[0], &ea);
    } else if (named && n) {
        /* a declaration with named arguments: MLIR accepts it; keep the locations */
    }
    return op;
}

/* ------------------------------------------------------------------ */
/* Structure checks                                                    */
/* ------------------------------------------------------------------ */

/* What an op must look like for the printer, normalizer and emulator to
 * rely on it: counts of operands, results and regions, the attributes
 * they read, the shape of regions and the terminators that end them.  The
 * custom forms cannot produce most of these errors; the generic form can. */

/* v[off..off+n) have the types t[0..nt) (v may be NULL when n is 0) */
static bool types_match(ct_value *const *v, int off, int n, const ct_type *const *t, int nt)
{
    if (n != nt)
        return false;
    for (int i = 0; i < n; i++)
        if (v[off + i]->type != t[i])
            return false;
    return true;
}

static const ct_type **result_types(parser *P, const ct_op *op)
{
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(op->nres + 1));
    for (int i = 0; i < op->nres; i++)
        t[i] = op->res[i].type;
    return t;
}

static const ct_type **value_types(parser *P, ct_value *const *v, int n)
{
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        t[i] = v[i]->type;
    return t;
}


/* A single-block region ending in `term` whose operands have types t[0..n). */
static void check_body(parser *P, const ct_op *op, const ct_region *r, const char *what,
                       ct_opcode term, int skip, const ct_type *const *t, int n, const char *at)
{
    if (!r->first || r->first != r->last)
        fail_at(P, at, "the %s region of '%s' must have one block", what, opname(op->code));
    const ct_op *last = r->first->last;
    if (!last || last->code != term)
        fail_at(P, at, "the %s region of '%s' must end with '%s'", what, opname(op->code),
                opname(term));
    if (!types_match(last->opnds, skip, last->nopnds - skip, t, n))
        fail_at(P, at, "'%s' in the %s region of '%s' does not match its types", opname(term),
                what, opname(op->code));
}

static bool attr_is(const ct_op *op, const char *name, ct_attr_kind k)
{
    const ct_attr *a = ct_op_attr(op, name);
    return a && a->kind == k;
}

static void need_attr(parser *P, const ct_op *op, const char *name, ct_attr_kind k, const char *at)
{
    if (!attr_is(op, name, k))
        fail_at(P, at, "'%s' needs the attribute '%s'", opname(op->code), name);
}

static void check_op(parser *P, ct_op *op, const char *at)
{
    const ct_op_info *info = ct_op_info_of(op->code);
    int lo = 0, hi = INT_MAX, rlo = 0, rhi = 0, nreg = 0;
    switch (info->format) {
    case CT_FMT_BIN:
        lo = hi = 2, rlo = rhi = 1;
        break;
    case CT_FMT_UN:
    case CT_FMT_CAST:
    case CT_FMT_ARROW:
        lo = hi = 1, rlo = rhi = 1;
        break;
    case CT_FMT_TERN:
        lo = hi = 3, rlo = rhi = 1;
        break;
    case CT_FMT_CUSTOM:
        break;
    }
    switch (op->code) {
    case CT_OP_ARITH_CONSTANT:
        lo = hi = 0, rlo = rhi = 1;
        if (!ct_op_attr(op, "value"))
            fail_at(P, at, "arith.constant needs a value");
        break;
    case CT_OP_ARITH_CMPI:
    case CT_OP_ARITH_CMPF:
        lo = hi = 2, rlo = rhi = 1;
        need_attr(P, op, "predicate", CT_ATTR_ENUM, at);
        break;
    case CT_OP_ARITH_SELECT:
    case CT_OP_TT_CLAMPF:
    case CT_OP_TT_DOT:
        lo = hi = 3, rlo = rhi = 1;
        if (op->code == CT_OP_TT_CLAMPF)
            need_attr(P, op, "propagateNan", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_FUNC:
        lo = hi = 0, nreg = 1;
        need_attr(P, op, "sym_name", CT_ATTR_STR, at);
        need_attr(P, op, "function_type", CT_ATTR_TYPE, at);
        if (ct_func_type(op)->kind != CT_TY_FUNC)
            fail_at(P, at, "the type of a function must be a function type");
        break;
    case CT_OP_TT_RETURN:
    case CT_OP_SCF_YIELD:
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
    case CT_OP_TT_MAP_ELEMENTWISE_RETURN:
    case CT_OP_TT_PRINT:
        break;
    case CT_OP_TT_CALL:
        rhi = INT_MAX;
        need_attr(P, op, "callee", CT_ATTR_SYMREF, at);
        break;
    case CT_OP_TT_GET_PROGRAM_ID:
    case CT_OP_TT_GET_NUM_PROGRAMS:
        lo = hi = 0, rlo = rhi = 1;
        need_attr(P, op, "axis", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_MAKE_RANGE:
        lo = hi = 0, rlo = rhi = 1;
        need_attr(P, op, "start", CT_ATTR_INT, at);
        need_attr(P, op, "end", CT_ATTR_INT, at);
        break;
    case CT_OP_UB_POISON:
        lo = hi = 0, rlo = rhi = 1;
        break;
    case CT_OP_TT_UNSPLAT:
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_RESHAPE:
    case CT_OP_TT_TRANS:
    case CT_OP_TT_FP_TO_FP:
        lo = hi = 1, rlo = rhi = 1;
        break;
    case CT_OP_TT_JOIN:
    case CT_OP_TT_CAT:
    case CT_OP_TT_GATHER:
    case CT_OP_TT_ADDPTR:
        lo = hi = 2, rlo = rhi = 1;
        break;
    case CT_OP_TT_SPLIT:
        lo = hi = 1, rlo = rhi = 2;
        break;
    case CT_OP_TT_HISTOGRAM:
        lo = 1, hi = 2, rlo = rhi = 1;
        break;
    case CT_OP_TT_LOAD:
        lo = 1, hi = 3, rlo = rhi = 1;
        break;
    case CT_OP_TT_STORE:
        lo = 2, hi = 3;
        break;
    case CT_OP_TT_ATOMIC_RMW:
        lo = 2, hi = 3, rlo = rhi = 1;
        need_attr(P, op, "atomic_rmw_op", CT_ATTR_ENUM, at);
        need_attr(P, op, "sem", CT_ATTR_ENUM, at);
        need_attr(P, op, "scope", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_ATOMIC_CAS:
        lo = hi = 3, rlo = rhi = 1;
        need_attr(P, op, "sem", CT_ATTR_ENUM, at);
        need_attr(P, op, "scope", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_REDUCE:
    case CT_OP_TT_SCAN:
        lo = 1, rlo = 1, rhi = INT_MAX, nreg = 1;
        if (op->nres != op->nopnds)
            fail_at(P, at, "'%s' has as many results as operands", info->name);
        need_attr(P, op, "axis", CT_ATTR_INT, at);
        break;
    case CT_OP_TT_MAP_ELEMENTWISE:
        rhi = INT_MAX, nreg = 1;
        break;
    case CT_OP_TT_EXTERN_ELEMENTWISE:
        rlo = rhi = 1;
        break;
    case CT_OP_TT_INLINE_ASM:
        rhi = INT_MAX;
        need_attr(P, op, "asm_string", CT_ATTR_STR, at);
        break;
    case CT_OP_TT_ASSERT:
        lo = hi = 1;
        need_attr(P, op, "message", CT_ATTR_STR, at);
        break;
    case CT_OP_TT_MAKE_TENSOR_PTR:
        lo = 4, rlo = rhi = 1;
        if ((op->nopnds - 1) % 3)
            fail_at(P, at, "tt.make_tensor_ptr takes a base and three lists of one length");
        break;
    case CT_OP_TT_MAKE_TENSOR_DESC:
        lo = 3, rlo = rhi = 1;
        if ((op->nopnds - 1) % 2)
            fail_at(P, at, "tt.make_tensor_descriptor takes a base and two lists of one length");
        break;
    case CT_OP_TT_ADVANCE:
    case CT_OP_TT_DESCRIPTOR_LOAD:
        lo = 1, rlo = rhi = 1;
        break;
    case CT_OP_TT_DESCRIPTOR_STORE:
    case CT_OP_TT_DESCRIPTOR_REDUCE:
        lo = 2;
        if (op->code == CT_OP_TT_DESCRIPTOR_REDUCE)
            need_attr(P, op, "kind", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_DESCRIPTOR_GATHER:
        lo = hi = 3, rlo = rhi = 1;
        break;
    case CT_OP_TT_DESCRIPTOR_SCATTER:
        lo = hi = 4;
        break;
    case CT_OP_SCF_FOR:
        lo = 3, rhi = INT_MAX, nreg = 1;
        if (op->nres != op->nopnds - 3)
            fail_at(P, at, "scf.for has one result per iter_arg");
        break;
    case CT_OP_SCF_IF:
        lo = hi = 1, rhi = INT_MAX, nreg = 2;
        break;
    case CT_OP_SCF_WHILE:
        rhi = INT_MAX, nreg = 2;
        break;
    case CT_OP_SCF_CONDITION:
        lo = 1;
        break;
    case CT_OP_CF_BR:
    case CT_OP_CF_COND_BR:
        break;
    case CT_OP_LLVM_ASSUME:
        lo = hi = 1;
        break;
    case CT_OP_GPU_BARRIER:
    case CT_OP_TTG_BARRIER:
        lo = hi = 0;
        break;
    default:
        break;
    }
    if (op->nopnds < lo || op->nopnds > hi)
        fail_at(P, at, "'%s' does not take %d operand%s", info->name, op->nopnds,
                op->nopnds == 1 ? "" : "s");
    if (op->nres < rlo || op->nres > rhi)
        fail_at(P, at, "'%s' does not have %d result%s", info->name, op->nres,
                op->nres == 1 ? "" : "s");
    if (op->nregions != nreg)
        fail_at(P, at, "'%s' does not have %d region%s", info->name, op->nregions,
                op->nregions == 1 ? "" : "s");
    int nsucc = op->code == CT_OP_CF_BR ? 1 : op->code == CT_OP_CF_COND_BR ? 2 : 0;
    if (op->nsucc != nsucc)
        fail_at(P, at, "'%s' needs %d successor%s", info->name, nsucc, nsucc == 1 ? "" : "s");
    if (nsucc && op->code == CT_OP_CF_COND_BR && op->opnds[0]->type != P->i1)
        fail_at(P, at, "cf.cond_br needs an i1 condition");
    /* successor arguments are checked when the region ends (check_branches):
     * the blocks may not be defined yet */
    const ct_type **rt = result_types(P, op);
    switch (op->code) {
    case CT_OP_TT_FUNC: {
        const ct_type *ft = ct_func_type(op);
        ct_block *e = ct_func_entry(op);
        if (!e)
            break;
        if (!types_match(e->args, 0, e->nargs, ft->ins, ft->nin))
            fail_at(P, at, "the entry block of a function takes its arguments");
        for (ct_block *b = e; b; b = b->next) {
            const ct_op *t = b->last;
            if (!t || !(t->code == CT_OP_TT_RETURN || t->code == CT_OP_CF_BR ||
                        t->code == CT_OP_CF_COND_BR))
                fail_at(P, at, "every block of a function must end with tt.return or a branch");
            if (t->code == CT_OP_TT_RETURN && !types_match(t->opnds, 0, t->nopnds, ft->outs, ft->nout))
                fail_at(P, at, "tt.return does not match the function's result types");
        }
        break;
    }
    case CT_OP_SCF_FOR: {
        const ct_region *r = &op->regions[0];
        if (!r->first || r->first->nargs != op->nopnds - 2 || r->first->args[0]->type != op->opnds[0]->type)
            fail_at(P, at, "malformed scf.for body");
        if (!types_match(op->opnds, 3, op->nopnds - 3, rt, op->nres) ||
            !types_match(r->first->args, 1, r->first->nargs - 1, rt, op->nres))
            fail_at(P, at, "scf.for iter_args do not match its results");
        if (op->opnds[0]->type != op->opnds[1]->type || op->opnds[0]->type != op->opnds[2]->type)
            fail_at(P, at, "scf.for bounds and step must have one type");
        check_body(P, op, r, "body", CT_OP_SCF_YIELD, 0, rt, op->nres, at);
        break;
    }
    case CT_OP_SCF_IF:
        if (op->opnds[0]->type != P->i1)
            fail_at(P, at, "scf.if needs an i1 condition");
        check_body(P, op, &op->regions[0], "then", CT_OP_SCF_YIELD, 0, rt, op->nres, at);
        if (op->regions[1].first || op->nres)
            check_body(P, op, &op->regions[1], "else", CT_OP_SCF_YIELD, 0, rt, op->nres, at);
        break;
    case CT_OP_SCF_WHILE: {
        const ct_type **it = value_types(P, op->opnds, op->nopnds);
        const ct_region *b = &op->regions[0], *a = &op->regions[1];
        if (!b->first || !types_match(b->first->args, 0, b->first->nargs, it, op->nopnds))
            fail_at(P, at, "the before region of scf.while takes its operands");
        if (!a->first || !types_match(a->first->args, 0, a->first->nargs, rt, op->nres))
            fail_at(P, at, "the after region of scf.while takes its results");
        check_body(P, op, b, "before", CT_OP_SCF_CONDITION, 1, rt, op->nres, at);
        if (b->first->last->opnds[0]->type != P->i1)
            fail_at(P, at, "scf.condition needs an i1 condition");
        check_body(P, op, a, "after", CT_OP_SCF_YIELD, 0, it, op->nopnds, at);
        break;
    }
    case CT_OP_TT_REDUCE:
    case CT_OP_TT_SCAN: {
        const ct_region *r = &op->regions[0];
        ct_opcode term = op->code == CT_OP_TT_REDUCE ? CT_OP_TT_REDUCE_RETURN : CT_OP_TT_SCAN_RETURN;
        if (!r->first || r->first->nargs != 2 * op->nopnds)
            fail_at(P, at, "the combine region of '%s' takes two arguments per operand",
                    info->name);
        for (const ct_block *b = r->first; b; b = b->next) {
            const ct_op *t = b->last;
            if (!t || (t->code != term && t->code != CT_OP_CF_BR && t->code != CT_OP_CF_COND_BR))
                fail_at(P, at, "the combine region of '%s' must end with '%s'", info->name,
                        opname(term));
            if (t->code == term && t->nopnds != op->nopnds)
                fail_at(P, at, "'%s' returns one value per operand", opname(term));
        }
        break;
    }
    case CT_OP_TT_MAP_ELEMENTWISE: {
        const ct_region *r = &op->regions[0];
        if (!r->first)
            fail_at(P, at, "tt.map_elementwise needs a body");
        for (const ct_block *b = r->first; b; b = b->next) {
            const ct_op *t = b->last;
            if (!t || (t->code != CT_OP_TT_MAP_ELEMENTWISE_RETURN && t->code != CT_OP_CF_BR &&
                       t->code != CT_OP_CF_COND_BR))
                fail_at(P, at, "tt.map_elementwise's body must end with its return");
        }
        break;
    }
    default:
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Ops                                                                 */
/* ------------------------------------------------------------------ */

static ct_op *parse_custom(parser *P, ct_opcode code, const char *at)
{
    switch (ct_op_info_of(code)->format) {
    case CT_FMT_BIN:
        return parse_same_type(P, code, 2);
    case CT_FMT_UN:
        return parse_same_type(P, code, 1);
    case CT_FMT_TERN:
        return parse_same_type(P, code, 3);
    case CT_FMT_CAST:
        return parse_conversion(P, code, false);
    case CT_FMT_ARROW:
        return parse_conversion(P, code, true);
    case CT_FMT_CUSTOM:
        break;
    }
    switch (code) {
    case CT_OP_ARITH_CONSTANT:
        return parse_constant(P);
    case CT_OP_ARITH_CMPI:
    case CT_OP_ARITH_CMPF:
        return parse_cmp(P, code);
    case CT_OP_ARITH_SELECT:
        return parse_select(P);
    case CT_OP_TT_FUNC:
        return parse_func(P);
    case CT_OP_TT_RETURN:
    case CT_OP_SCF_YIELD:
    case CT_OP_TT_MAP_ELEMENTWISE_RETURN:
        return parse_return_like(P, code);
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
        return parse_combine_return(P, code);
    case CT_OP_TT_CALL:
        return parse_call(P);
    case CT_OP_TT_GET_PROGRAM_ID:
    case CT_OP_TT_GET_NUM_PROGRAMS:
        return parse_program_query(P, code);
    case CT_OP_TT_MAKE_RANGE:
    case CT_OP_UB_POISON:
        return parse_nullary(P, code);
    case CT_OP_TT_UNSPLAT:
        return parse_unsplat(P);
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_TRANS:
        return parse_conversion(P, code, true);
    case CT_OP_TT_RESHAPE:
        return parse_reshape(P);
    case CT_OP_TT_JOIN:
    case CT_OP_TT_CAT:
    case CT_OP_TT_SPLIT:
        return parse_join_split(P, code);
    case CT_OP_TT_HISTOGRAM:
        return parse_histogram(P);
    case CT_OP_TT_GATHER:
        return parse_gather(P);
    case CT_OP_TT_ADDPTR:
        return parse_addptr(P);
    case CT_OP_TT_LOAD:
    case CT_OP_TT_STORE:
        return parse_load_store(P, code);
    case CT_OP_TT_ATOMIC_RMW:
    case CT_OP_TT_ATOMIC_CAS:
        return parse_atomic(P, code);
    case CT_OP_TT_FP_TO_FP:
        return parse_fp_to_fp(P);
    case CT_OP_TT_CLAMPF:
        return parse_clampf(P);
    case CT_OP_TT_DOT:
        return parse_dot(P);
    case CT_OP_TT_EXTERN_ELEMENTWISE:
        return parse_extern(P);
    case CT_OP_TT_INLINE_ASM:
        return parse_inline_asm(P);
    case CT_OP_TT_ASSERT:
        return parse_assert(P);
    case CT_OP_TT_PRINT:
        return parse_print(P);
    case CT_OP_TT_MAKE_TENSOR_PTR:
        return parse_make_tensor_ptr(P);
    case CT_OP_TT_ADVANCE:
        return parse_advance(P);
    case CT_OP_TT_MAKE_TENSOR_DESC:
        return parse_make_desc(P);
    case CT_OP_TT_DESCRIPTOR_LOAD:
    case CT_OP_TT_DESCRIPTOR_STORE:
    case CT_OP_TT_DESCRIPTOR_REDUCE:
    case CT_OP_TT_DESCRIPTOR_GATHER:
    case CT_OP_TT_DESCRIPTOR_SCATTER:
        return parse_descriptor(P, code);
    case CT_OP_SCF_FOR:
        return parse_for(P);
    case CT_OP_SCF_IF:
        return parse_if(P);
    case CT_OP_SCF_WHILE:
        return parse_while(P);
    case CT_OP_SCF_CONDITION:
        return parse_condition(P);
    case CT_OP_CF_BR:
    case CT_OP_CF_COND_BR:
        return parse_branch(P, code);
    case CT_OP_LLVM_ASSUME:
        return parse_assume(P);
    case CT_OP_GPU_BARRIER:
        return parse_bare(P, code);
    case CT_OP_TTG_BARRIER:
        return parse_ttg_barrier(P);
    default:
        fail_at(P, at, "'%s' has no custom form; write it in the generic form", opname(code));
    }
}

/* op ::= (result (',' result)* '=')? (generic-op | bare-id custom-op) trailing-loc?
 * result ::= '%' suffix-id (':' count)? */
static void parse_op(parser *P, ct_block *blk)
{
    skip_ws(P);
    const char *at = P->p;
    enter(P);
    struct rname {
        span name;
        int count;
        const char *at;
    } rn[16];
    int nrn = 0, total = 0;
    if (peek(P) == '%') {
        do {
            uref u = parse_uref(P);
            if (u.resno)
                fail_at(P, u.at, "a result name cannot have a result number");
            if (nrn == 16)
                fail_at(P, u.at, "too many result names");
            rn[nrn].name = u.name;
            rn[nrn].at = u.at;
            rn[nrn].count = 1;
            if (P->p < P->end && *P->p == ':' && !(P->end - P->p >= 2 && P->p[1] == ':')) {
                P->p++;
                rn[nrn].count = (int)parse_small_int(P, 1, 1 << 20, "result count");
            }
            total += rn[nrn].count;
            nrn++;
        } while (accept(P, ','));
        expect(P, '=', "after the result names");
    }
    ct_op *op;
    const char *oat;
    skip_ws(P);
    oat = P->p;
    if (peek(P) == '"') {
        op = parse_generic(P, oat);
    } else {
        span id = parse_id(P, "an operation");
        int code = smap_get(&P->opnames, id);
        if (code < 0)
            fail_at(P, oat, "unknown operation '%.*s'", (int)id.n, id.s);
        if (code == CT_OP_TT_FUNC && blk != P->m->body)
            fail_at(P, oat, "tt.func must be at the top level of the module");
        op = parse_custom(P, (ct_opcode)code, oat);
    }
    if (op->code != CT_OP_TT_FUNC && blk == P->m->body)
        fail_at(P, oat, "only tt.func can be at the top level of the module");
    const ct_loc *l = parse_opt_loc(P);
    if (l)
        op->loc = l;
    if (total != op->nres)
        fail_at(P, at, "'%s' has %d result%s but %d %s named", opname(op->code), op->nres,
                op->nres == 1 ? "" : "s", total, total == 1 ? "is" : "are");
    check_op(P, op, oat);
    note_op_release(P, oat, op->code);
    read_cache_policy(P, op, oat);
    if (ct_block_terminator(blk))
        fail_at(P, oat, "an operation after the terminator of its block");
    if (op->nsucc) {
        branch *br = push(P, &P->branches);
        br->op = op;
        br->at = oat;
    }
    int k = 0;
    for (int i = 0; i < nrn; i++) {
        bind(P, rn[i].name, rn[i].at, &op->res[k], rn[i].count);
        k += rn[i].count;
    }
    ct_block_append(blk, op);
    leave(P);
}

/* ------------------------------------------------------------------ */
/* Module                                                              */
/* ------------------------------------------------------------------ */

/* file ::= alias-def* ('module' ('attributes' dict)? '{' op* '}' loc? | op*) alias-def* */
static void parse_file(parser *P)
{
    while (peek(P) == '#')
        parse_alias_def(P);
    if (accept_kw(P, "module")) {
        if (peek(P) == '@')
            fail(P, "named modules are not supported");
        if (accept_kw(P, "attributes")) {
            ct_named_attr *e;
            int n = parse_dict_entries(P, &e);
            for (int i = 0; i < n; i++)
                ct_module_set_attr(P->m, e[i].name, e[i].attr);
        }
        expect(P, '{', "to open the module");
        while (peek(P) != '}' && peek(P) != -1) {
            if (peek(P) == '^')
                fail(P, "a module has a single block");
            parse_op(P, P->m->body);
        }
        expect(P, '}', "to close the module");
        const ct_loc *l = parse_opt_loc(P);
        if (l)
            P->m->loc = l;
    } else {
        /* ops without the module wrapper, as MLIR accepts them */
        while (peek(P) != -1 && peek(P) != '#')
            parse_op(P, P->m->body);
    }
    while (peek(P) == '#')
        parse_alias_def(P);
    if (peek(P) == '{' && peek2(P) == '-')
        fail(P, "dialect resources ({-# ... #-}) are not supported");
    if (peek(P) != -1) {
        char b[64];
        fail(P, "unexpected %s after the module", found(P, b, sizeof b));
    }
    check_aliases(P);
}

static void parser_free(parser *P)
{
    smap_free(&P->vnames);
    smap_free(&P->anames);
    smap_free(&P->opnames);
    free(P->binds.items);
    free(P->undo.items);
    free(P->labels.items);
    free(P->aliases.items);
    free(P->branches.items);
}

/* The module's release: the default target when the text can be written for
 * it, else the oldest release it can be written for; and the range. */
static void set_releases(parser *P)
{
    ct_module *m = P->m;
    for (int i = 0; i < ct_triton_count(); i++)
        if (P->releases & (1u << i)) {
            if (!m->text_lo)
                m->text_lo = ct_triton_at(i);
            m->text_hi = ct_triton_at(i);
        }
    const ct_triton *d = ct_triton_resolve(NULL, NULL);
    m->triton = d && ct_triton_cmp(d, m->text_lo) >= 0 && ct_triton_cmp(d, m->text_hi) <= 0
                    ? d
                    : m->text_lo;
    if (P->why[0])
        m->text_why = ct_arena_strdup(m->arena, P->why);
}

ct_module *ct_parse_module(const char *text, size_t len, const char *filename, ct_diags *diags)
{
    parser *P = calloc(1, sizeof *P);
    if (!P) {
        ct_diag_add(diags, CT_ERROR, filename, 0, 0, "out of memory");
        return NULL;
    }
    P->src = P->p = text ? text : "";
    P->end = P->src + (text ? len : 0);
    P->file = filename ? filename : "<input>";
    P->diags = diags;
    P->binds.size = sizeof(binding);
    P->undo.size = sizeof(int);
    P->labels.size = sizeof(label);
    P->aliases.size = sizeof(alias);
    P->branches.size = sizeof(branch);
    P->m = ct_module_new();
    P->releases = (1u << ct_triton_count()) - 1;
    ct_module *volatile m = P->m;
    if (setjmp(P->fail)) {
        parser_free(P);
        free(P);
        ct_module_destroy(m);
        return NULL;
    }
    for (int i = 0; i < CT_OP__COUNT; i++) {
        const char *n = ct_op_info_of((ct_opcode)i)->name;
        if (!smap_put(&P->opnames, (span){n, strlen(n)}, i))
            oom(P);
    }
    P->i1 = ct_type_int(P->m, 1);
    P->i32 = ct_type_int(P->m, 32);
    P->i64 = ct_type_int(P->m, 64);
    P->f64 = ct_type_float(P->m, CT_F64);
    P->index = ct_type_index(P->m);
    if (memchr(P->src, 0, (size_t)(P->end - P->src)))
        fail_at(P, memchr(P->src, 0, (size_t)(P->end - P->src)), "NUL character in the text");
    parse_file(P);
    set_releases(P);
    parser_free(P);
    free(P);
    return m;
}

ct_module *ct_parse_file(const char *path, ct_diags *diags)
{
    size_t len;
    char *text = ct_read_file(path, &len);
    if (!text) {
        ct_diag_add(diags, CT_ERROR, path, 0, 0, "cannot read the file");
        return NULL;
    }
    ct_module *m = ct_parse_module(text, len, path, diags);
    free(text);
    return m;
}
