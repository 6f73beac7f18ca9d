/*
 * attr.c - attributes and locations.
 *
 * Attributes are immutable values allocated in the module arena.  Integer
 * attributes store the signed value of their bits at the attribute's width
 * (MLIR prints signless integers that way: 0xffffffff : i32 is -1).  An
 * attribute's text or elements share its allocation; so do a location and
 * its strings.
 */
#include "ctriton/ir.h"

#include <stdio.h>
#include <string.h>

#define ATTR_SIZE ((sizeof(ct_attr) + 15) & ~(size_t)15)

/* An attribute with `extra` bytes after it (16-byte aligned) for its data. */
static ct_attr *new_attr_extra(ct_module *m, ct_attr_kind k, size_t extra, void **data)
{
    ct_attr *a = ct_arena_alloc(m->arena, ATTR_SIZE + extra);
    a->kind = k;
    *data = (char *)a + ATTR_SIZE;
    return a;
}

static ct_attr *new_attr(ct_module *m, ct_attr_kind k)
{
    ct_attr *a = ct_arena_alloc(m->arena, sizeof *a);
    a->kind = k;
    return a;
}

/* An attribute holding a copy of the string s. */
static ct_attr *new_attr_str(ct_module *m, ct_attr_kind k, const char *s)
{
    size_t n = strlen(s);
    void *d;
    ct_attr *a = new_attr_extra(m, k, n + 1, &d);
    memcpy(d, s, n + 1);
    a->s = d;
    return a;
}

int64_t ct_int_wrap(int64_t v, int bits)
{
    if (bits >= 64 || bits <= 0)
        return v;
    if (bits == 1)
        return v & 1;
    uint64_t mask = (1ull << bits) - 1;
    uint64_t u = (uint64_t)v & mask;
    if (u >> (bits - 1))
        u |= ~mask;
    return (int64_t)u;
}

const ct_attr *ct_attr_unit(ct_module *m)
{
    return new_attr(m, CT_ATTR_UNIT);
}

const ct_attr *ct_attr_bool(ct_module *m, bool v)
{
    ct_attr *a = new_attr(m, CT_ATTR_BOOL);
    a->i = v;
    return a;
}

const ct_attr *ct_attr_int(ct_module *m, const ct_type *t, int64_t v)
{
    ct_attr *a = new_attr(m, CT_ATTR_INT);
    a->type = t;
    a->i = t ? ct_int_wrap(v, t->bits) : v;
    return a;
}

const ct_attr *ct_attr_float(ct_module *m, const ct_type *t, double v)
{
    ct_attr *a = new_attr(m, CT_ATTR_FLOAT);
    a->type = t;
    a->f = v;
    return a;
}

const ct_attr *ct_attr_str(ct_module *m, const char *s)
{
    return new_attr_str(m, CT_ATTR_STR, s);
}

const ct_attr *ct_attr_type(ct_module *m, const ct_type *t)
{
    ct_attr *a = new_attr(m, CT_ATTR_TYPE);
    a->type = t;
    return a;
}

const ct_attr *ct_attr_symref(ct_module *m, const char *sym)
{
    return new_attr_str(m, CT_ATTR_SYMREF, sym);
}

const ct_attr *ct_attr_enum(ct_module *m, const char *word)
{
    return new_attr_str(m, CT_ATTR_ENUM, word);
}

const ct_attr *ct_attr_enum_lit(ct_module *m, const char *word)
{
    ct_attr *a = new_attr(m, CT_ATTR_ENUM);
    a->s = word;
    return a;
}

const ct_attr *ct_attr_opaque(ct_module *m, const char *text)
{
    return new_attr_str(m, CT_ATTR_OPAQUE, text);
}

const ct_attr *ct_attr_dense_int(ct_module *m, const ct_type *t, int n, const int64_t *v)
{
    void *mem;
    ct_attr *a = new_attr_extra(m, CT_ATTR_DENSE, sizeof(int64_t) * (size_t)(n ? n : 1), &mem);
    a->type = t;
    a->n = n;
    int64_t *d = mem;
    int bits = ct_type_scalar(t)->bits;
    for (int i = 0; i < n; i++)
        d[i] = ct_int_wrap(v[i], bits);
    a->ivals = d;
    return a;
}

const ct_attr *ct_attr_dense_float(ct_module *m, const ct_type *t, int n, const double *v)
{
    void *mem;
    ct_attr *a = new_attr_extra(m, CT_ATTR_DENSE, sizeof(double) * (size_t)(n ? n : 1), &mem);
    a->type = t;
    a->n = n;
    double *d = mem;
    memcpy(d, v, sizeof(double) * (size_t)n);
    a->fvals = d;
    return a;
}

const ct_attr *ct_attr_dense_array(ct_module *m, const ct_type *elem, int n, const int64_t *v)
{
    void *mem;
    ct_attr *a =
        new_attr_extra(m, CT_ATTR_DENSE_ARRAY, sizeof(int64_t) * (size_t)(n ? n : 1), &mem);
    a->type = elem;
    a->n = n;
    int64_t *d = mem;
    memcpy(d, v, sizeof(int64_t) * (size_t)n);
    a->ivals = d;
    return a;
}

const ct_attr *ct_attr_array(ct_module *m, int n, const ct_attr *const *elems)
{
    void *mem;
    ct_attr *a = new_attr_extra(m, CT_ATTR_ARRAY, sizeof(ct_attr *) * (size_t)(n ? n : 1), &mem);
    a->n = n;
    const ct_attr **d = mem;
    memcpy(d, elems, sizeof(*d) * (size_t)n);
    a->elems = d;
    return a;
}

const ct_attr *ct_attr_dict(ct_module *m, int n, const ct_named_attr *entries)
{
    void *mem;
    ct_attr *a =
        new_attr_extra(m, CT_ATTR_DICT, sizeof(ct_named_attr) * (size_t)(n ? n : 1), &mem);
    a->n = n;
    ct_named_attr *d = mem;
    /* MLIR keeps dictionaries sorted by name */
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && strcmp(d[j - 1].name, entries[i].name) > 0) {
            d[j] = d[j - 1];
            j--;
        }
        d[j].name = ct_arena_strdup(m->arena, entries[i].name);
        d[j].attr = entries[i].attr;
    }
    a->entries = d;
    return a;
}

const ct_attr *ct_attr_dict_get(const ct_attr *dict, const char *name)
{
    if (!dict || dict->kind != CT_ATTR_DICT)
        return NULL;
    for (int i = 0; i < dict->n; i++)
        if (!strcmp(dict->entries[i].name, name))
            return dict->entries[i].attr;
    return NULL;
}

static bool feq(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

bool ct_attr_equal(const ct_attr *a, const ct_attr *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    if ((a->type || b->type) && !ct_type_equal(a->type, b->type))
        return false;
    switch (a->kind) {
    case CT_ATTR_UNIT:
        return true;
    case CT_ATTR_BOOL:
    case CT_ATTR_INT:
        return a->i == b->i;
    case CT_ATTR_FLOAT:
        return feq(a->f, b->f);
    case CT_ATTR_STR:
    case CT_ATTR_SYMREF:
    case CT_ATTR_ENUM:
    case CT_ATTR_OPAQUE:
        return strcmp(a->s, b->s) == 0;
    case CT_ATTR_TYPE:
        return true;
    case CT_ATTR_DENSE:
    case CT_ATTR_DENSE_ARRAY:
        if (a->n != b->n || (!a->fvals) != (!b->fvals))
            return false;
        for (int i = 0; i < a->n; i++) {
            if (a->fvals ? !feq(a->fvals[i], b->fvals[i]) : a->ivals[i] != b->ivals[i])
                return false;
        }
        return true;
    case CT_ATTR_ARRAY:
        if (a->n != b->n)
            return false;
        for (int i = 0; i < a->n; i++)
            if (!ct_attr_equal(a->elems[i], b->elems[i]))
                return false;
        return true;
    case CT_ATTR_DICT:
        if (a->n != b->n)
            return false;
        for (int i = 0; i < a->n; i++)
            if (strcmp(a->entries[i].name, b->entries[i].name) ||
                !ct_attr_equal(a->entries[i].attr, b->entries[i].attr))
                return false;
        return true;
    }
    return false;
}

/* ---- locations ---------------------------------------------------- */

static ct_loc *new_loc(ct_module *m, ct_loc_kind k)
{
    ct_loc *l = ct_arena_alloc(m->arena, sizeof *l);
    l->kind = k;
    return l;
}

const ct_loc *ct_loc_unknown(ct_module *m)
{
    return new_loc(m, CT_LOC_UNKNOWN);
}

/* A location with a copy of the string s after it; returns the copy. */
static ct_loc *new_loc_str(ct_module *m, ct_loc_kind k, const char *s, const char **copy)
{
    size_t head = (sizeof(ct_loc) + 15) & ~(size_t)15, n = strlen(s);
    ct_loc *l = ct_arena_alloc(m->arena, head + n + 1);
    l->kind = k;
    memcpy((char *)l + head, s, n + 1);
    *copy = (char *)l + head;
    return l;
}

const ct_loc *ct_loc_file(ct_module *m, const char *file, int line, int col)
{
    const char *f;
    ct_loc *l = new_loc_str(m, CT_LOC_FILE, file ? file : "", &f);
    l->file = f;
    l->line = line;
    l->col = col;
    return l;
}

const ct_loc *ct_loc_name(ct_module *m, const char *name, const ct_loc *child)
{
    const char *nm;
    ct_loc *l = new_loc_str(m, CT_LOC_NAME, name, &nm);
    l->name = nm;
    l->child = child;
    return l;
}

const ct_loc *ct_loc_callsite(ct_module *m, const ct_loc *callee, const ct_loc *caller)
{
    ct_loc *l = new_loc(m, CT_LOC_CALLSITE);
    l->child = callee;
    l->caller = caller;
    return l;
}

const ct_loc *ct_loc_file_of(const ct_loc *l)
{
    while (l) {
        switch (l->kind) {
        case CT_LOC_FILE:
            return l;
        case CT_LOC_NAME:
            l = l->child;
            break;
        case CT_LOC_CALLSITE:
            l = l->caller;
            break;
        case CT_LOC_FUSED:
            l = l->nfused ? l->fused[0] : NULL;
            break;
        default:
            return NULL;
        }
    }
    return NULL;
}

const ct_loc *ct_loc_innermost(const ct_loc *l, char *called_from, size_t cap)
{
    const ct_loc *callers[16]; /* outermost first, as the location nests them */
    int nc = 0;
    const ct_loc *res = NULL;
    for (int depth = 0; l && depth < 10000 && !res; depth++) {
        switch (l->kind) {
        case CT_LOC_FILE:
            res = l;
            break;
        case CT_LOC_NAME:
            l = l->child;
            break;
        case CT_LOC_CALLSITE:
            if (nc < 16)
                callers[nc++] = l->caller;
            l = l->child;
            break;
        case CT_LOC_FUSED:
            l = l->nfused ? l->fused[0] : NULL;
            break;
        default:
            l = NULL;
            break;
        }
    }
    if (called_from && cap) {
        size_t n = 0;
        called_from[0] = 0;
        for (int i = nc - 1; i >= 0 && n + 1 < cap; i--) {
            const ct_loc *c = ct_loc_innermost(callers[i], NULL, 0);
            if (!c)
                continue;
            int k = snprintf(called_from + n, cap - n, "%s%s:%d", n ? ", " : "", c->file, c->line);
            if (k < 0)
                break;
            n = n + (size_t)k < cap ? n + (size_t)k : cap - 1;
        }
    }
    return res;
}

const char *ct_loc_name_of(const ct_loc *l)
{
    return l && l->kind == CT_LOC_NAME ? l->name : NULL;
}
