/*
 * print_attr.c - types, values, strings, symbols, floats and attributes.
 */
#include "print_internal.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

text_piece *piece_new(ct_arena *a, const char *s, size_t n)
{
    text_piece *t = ct_arena_alloc(a, sizeof *t + n + 1);
    t->n = n;
    memcpy(t->s, s, n);
    t->s[n] = 0;
    return t;
}

void Pf(printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_sb_vprintf(&p->out, fmt, ap);
    va_end(ap);
}

void nl(printer *p)
{
    ct_sb_putc(&p->out, '\n');
    ct_sb_spaces(&p->out, p->indent);
}

void put_type(printer *p, const ct_type *t)
{
    unsigned slot = (unsigned)(((uintptr_t)t * 0x9e3779b97f4a7c15ull) >> 58);
    const text_piece *tp;
    if (p->tcache[slot].t == t) {
        tp = p->tcache[slot].tp;
    } else {
        tp = ct_pm_get(&p->tstr, t);
        if (!tp) {
            char buf[256];
            size_t n = ct_type_str_for(t, p->tv, buf, sizeof buf);
            if (n < sizeof buf) {
                tp = piece_new(p->nm.arena, buf, n);
            } else {
                char *c = ct_xmalloc(n + 1);
                if (!c)
                    return;
                ct_type_str_for(t, p->tv, c, n + 1);
                tp = piece_new(p->nm.arena, c, n);
                ct_xfree(c);
            }
            ct_pm_put(&p->tstr, t, (void *)tp);
        }
        p->tcache[slot].t = t;
        p->tcache[slot].tp = tp;
    }
    ct_sb_putn(&p->out, tp->s, tp->n);
}

void printer_free(printer *p)
{
    ct_pm_free(&p->tstr);
    ct_pm_free(&p->lstr);
    namer_free(&p->nm);
}

/* A type as ODS prints a typed operand or result of a dialect type class:
 * without its mnemonic (`<tensor<32x64xf16>>` for !tt.ptr<tensor<32x64xf16>>). */
void put_stripped_type(printer *p, const ct_type *t)
{
    if (t->kind == CT_TY_PTR || t->kind == CT_TY_TENSORDESC) {
        size_t n = ct_type_str_for(t, p->tv, NULL, 0);
        char *buf = ct_xmalloc(n + 1);
        if (buf) {
            ct_type_str_for(t, p->tv, buf, n + 1);
            const char *lt = strchr(buf, '<');
            P(p, lt ? lt : buf);
            ct_xfree(buf);
            return;
        }
    }
    put_type(p, t);
}

void put_vname(printer *p, const vname *nm)
{
    ct_sb_putn(&p->out, p->nm.text.s + nm->off, nm->len);
}

void put_value(printer *p, const ct_value *v)
{
    const vname *nm = vname_of(&p->nm, v);
    if (nm) {
        put_vname(p, nm);
        if (v->def && v->def->nres > 1 && !nm->separate) {
            /* a result of a multi-result op named as one group: %name#0 */
            ct_sb_putc(&p->out, '#');
            ct_sb_putint(&p->out, v->index);
        }
        return;
    }
    if (v->def) {
        /* a result of a single-named group: %name#i */
        const vname *base = vname_of(&p->nm, &v->def->res[0]);
        if (base) {
            put_vname(p, base);
            ct_sb_putc(&p->out, '#');
            ct_sb_putint(&p->out, v->index);
            return;
        }
    }
    P(p, "%<<UNKNOWN SSA VALUE>>");
}

void put_values(printer *p, ct_value *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            P(p, ", ");
        put_value(p, v[i]);
    }
}

void put_types_of(printer *p, ct_value *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            P(p, ", ");
        put_type(p, v[i]->type);
    }
}

void put_string(printer *p, const char *s)
{
    ct_sb_putc(&p->out, '"');
    const unsigned char *run = (const unsigned char *)s, *c;
    for (c = run; *c; c++) {
        if (ch_class[*c] & CH_ESC) {
            ct_sb_putn(&p->out, (const char *)run, (size_t)(c - run));
            if (*c == '"' || *c == '\\')
                Pf(p, "\\%c", *c);
            else
                Pf(p, "\\%02X", *c);
            run = c + 1;
        }
    }
    ct_sb_putn(&p->out, (const char *)run, (size_t)(c - run));
    ct_sb_putc(&p->out, '"');
}

void put_symbol(printer *p, const char *s)
{
    ct_sb_putc(&p->out, '@');
    if (bare_ident(s))
        P(p, s);
    else
        put_string(p, s);
}

static void put_float(printer *p, double v, const ct_type *t)
{
    char buf[256];
    ct_format_float(v, t ? t->fk : CT_F64, buf, sizeof buf);
    P(p, buf);
}

static void put_dense_elem(printer *p, const ct_attr *a, int i)
{
    const ct_type *et = ct_type_scalar(a->type);
    if (a->fvals)
        put_float(p, a->fvals[i], et);
    else if (et->kind == CT_TY_INT && et->bits == 1)
        P(p, a->ivals[i] ? "true" : "false");
    else
        ct_sb_putint(&p->out, a->ivals[i]);
}

static void put_dense_nested(printer *p, const ct_attr *a, int dim, int *idx)
{
    const ct_type *t = a->type;
    if (dim == t->rank) {
        put_dense_elem(p, a, (*idx)++);
        return;
    }
    P(p, "[");
    for (int64_t i = 0; i < t->shape[dim]; i++) {
        if (i)
            P(p, ", ");
        put_dense_nested(p, a, dim + 1, idx);
    }
    P(p, "]");
}

void put_attr(printer *p, const ct_attr *a, elision el)
{
    switch (a->kind) {
    case CT_ATTR_UNIT:
        P(p, "unit");
        break;
    case CT_ATTR_BOOL:
        P(p, a->i ? "true" : "false");
        break;
    case CT_ATTR_INT:
        if (a->type && a->type->kind == CT_TY_INT && a->type->bits == 1) {
            P(p, a->i ? "true" : "false");
            break;
        }
        ct_sb_putint(&p->out, a->i);
        if (!a->type || (el == ELIDE_MAY && a->type->kind == CT_TY_INT && a->type->bits == 64))
            break;
        P(p, " : ");
        put_type(p, a->type);
        break;
    case CT_ATTR_FLOAT: {
        char buf[256];
        ct_format_float(a->f, a->type->fk, buf, sizeof buf);
        P(p, buf);
        if (el == ELIDE_MAY && a->type->fk == CT_F64 && strncmp(buf, "0x", 2) != 0)
            break;
        P(p, " : ");
        put_type(p, a->type);
        break;
    }
    case CT_ATTR_STR:
        put_string(p, a->s);
        break;
    case CT_ATTR_TYPE:
        put_type(p, a->type);
        break;
    case CT_ATTR_SYMREF:
        put_symbol(p, a->s);
        break;
    case CT_ATTR_ENUM:
    case CT_ATTR_OPAQUE:
        P(p, a->s);
        break;
    case CT_ATTR_DENSE:
        P(p, "dense<");
        if (a->n == 1 || a->type->rank == 0) {
            put_dense_elem(p, a, 0);
        } else {
            int idx = 0;
            put_dense_nested(p, a, 0, &idx);
        }
        P(p, "> : ");
        put_type(p, a->type);
        break;
    case CT_ATTR_DENSE_ARRAY:
        P(p, "array<");
        put_type(p, a->type);
        for (int i = 0; i < a->n; i++) {
            P(p, i ? ", " : ": ");
            ct_sb_putint(&p->out, a->ivals[i]);
        }
        P(p, ">");
        break;
    case CT_ATTR_ARRAY:
        P(p, "[");
        for (int i = 0; i < a->n; i++) {
            if (i)
                P(p, ", ");
            put_attr(p, a->elems[i], ELIDE_MAY);
        }
        P(p, "]");
        break;
    case CT_ATTR_DICT:
        P(p, "{");
        for (int i = 0; i < a->n; i++) {
            if (i)
                P(p, ", ");
            P(p, a->entries[i].name);
            if (a->entries[i].attr->kind != CT_ATTR_UNIT) {
                P(p, " = ");
                put_attr(p, a->entries[i].attr, ELIDE_MAY);
            }
        }
        P(p, "}");
        break;
    }
}

bool in_list(const char *name, const char *const *list)
{
    for (; list && *list; list++)
        if (ct_streq(*list, name))
            return true;
    return false;
}

/* " {a = 1 : i32, b}" for the attributes not in `elided`; nothing if none. */
void put_attr_dict(printer *p, const ct_named_attr *attrs, int n,
                          const char *const *elided, bool leading_space)
{
    int shown = 0;
    for (int i = 0; i < n; i++) {
        if (in_list(attrs[i].name, elided))
            continue;
        if (!shown)
            P(p, leading_space ? " {" : "{");
        else
            P(p, ", ");
        shown++;
        if (bare_ident(attrs[i].name))
            P(p, attrs[i].name);
        else
            put_string(p, attrs[i].name);
        if (attrs[i].attr->kind != CT_ATTR_UNIT) {
            P(p, " = ");
            put_attr(p, attrs[i].attr, ELIDE_MAY);
        }
    }
    if (shown)
        P(p, "}");
}

void put_op_attrs(printer *p, const ct_op *op, const char *const *elided)
{
    if (op->nattrs)
        put_attr_dict(p, op->attrs, op->nattrs, elided, true);
}
