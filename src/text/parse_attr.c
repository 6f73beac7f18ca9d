/*
 * parse_attr.c - attributes: literals, dense and array attributes,
 * dictionaries, dialect attributes kept as text.
 */
#include "parse_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Attributes                                                          */
/* ------------------------------------------------------------------ */

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
int parse_dict_entries(parser *P, ct_named_attr **out)
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
const ct_attr *parse_attr(parser *P)
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
