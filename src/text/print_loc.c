/*
 * print_loc.c - locations, and the #loc aliases MLIR's AliasInitializer
 * assigns.
 */
#include "format_internal.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- locations ---------------------------------------------------- */

static uint64_t key_hash(const char *k)
{
    uint64_t h = 1469598103934665603ull;
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211ull;
    return h;
}

static int al_find_key(aliases *a, const char *key)
{
    if (!a->hcap)
        return -1;
    size_t i = key_hash(key) & (size_t)(a->hcap - 1);
    while (a->htab[i]) {
        if (!strcmp(a->e[a->htab[i] - 1].key, key))
            return a->htab[i] - 1;
        i = (i + 1) & (size_t)(a->hcap - 1);
    }
    return -1;
}

static void al_insert_key(aliases *a, int id)
{
    if ((a->n + 1) * 2 > a->hcap) {
        int nc = a->hcap ? a->hcap * 2 : 256;
        int *nt = ct_xcalloc((size_t)nc, sizeof(int));
        for (int i = 0; i < a->hcap; i++) {
            if (!a->htab[i])
                continue;
            size_t j = key_hash(a->e[a->htab[i] - 1].key) & (size_t)(nc - 1);
            while (nt[j])
                j = (j + 1) & (size_t)(nc - 1);
            nt[j] = a->htab[i];
        }
        ct_xfree(a->htab);
        a->htab = nt;
        a->hcap = nc;
    }
    size_t i = key_hash(a->e[id].key) & (size_t)(a->hcap - 1);
    while (a->htab[i])
        i = (i + 1) & (size_t)(a->hcap - 1);
    a->htab[i] = id + 1;
}

/* The canonical id of a location: equal structures get equal ids. */
static int al_canon(aliases *a, const ct_loc *l, int depth)
{
    intptr_t m = (intptr_t)ct_pm_get(&a->canon, l);
    if (m)
        return (int)m - 1;
    ct_strbuf k;
    ct_sb_init(&k);
    int kids[2] = {-1, -1}, nk = 0;
    int *fk = NULL;
    if (depth > 2000) {
        /* pathological nesting: keep it distinct rather than recurse further */
        ct_sb_printf(&k, "deep%p", (const void *)l);
    } else {
        switch (l->kind) {
        case CT_LOC_UNKNOWN:
            ct_sb_puts(&k, "U");
            break;
        case CT_LOC_FILE:
            ct_sb_printf(&k, "F%d:%d:%zu:", l->line, l->col, strlen(l->file));
            ct_sb_puts(&k, l->file);
            break;
        case CT_LOC_NAME:
            if (l->child && l->child->kind != CT_LOC_UNKNOWN)
                kids[nk++] = al_canon(a, l->child, depth + 1);
            ct_sb_printf(&k, "N%d:%zu:", nk ? kids[0] : -1, strlen(l->name));
            ct_sb_puts(&k, l->name);
            break;
        case CT_LOC_CALLSITE:
            kids[0] = al_canon(a, l->child, depth + 1);
            kids[1] = al_canon(a, l->caller, depth + 1);
            nk = 2;
            ct_sb_printf(&k, "C%d:%d", kids[0], kids[1]);
            break;
        case CT_LOC_FUSED:
            fk = ct_xmalloc(sizeof(int) * (size_t)(l->nfused + 1));
            ct_sb_puts(&k, "S");
            for (int i = 0; i < l->nfused; i++) {
                fk[i] = al_canon(a, l->fused[i], depth + 1);
                ct_sb_printf(&k, ":%d", fk[i]);
            }
            nk = l->nfused;
            break;
        }
    }
    int id = al_find_key(a, k.s);
    if (id >= 0) {
        ct_sb_free(&k);
        ct_xfree(fk);
    } else {
        if (a->n == a->cap) {
            a->cap = a->cap ? a->cap * 2 : 64;
            a->e = ct_xrealloc(a->e, sizeof(locent) * (size_t)a->cap);
        }
        id = a->n++;
        locent *e = &a->e[id];
        memset(e, 0, sizeof *e);
        e->key = ct_sb_take(&k);
        e->loc = l;
        e->kids[0] = kids[0];
        e->kids[1] = kids[1];
        e->nkids = nk;
        e->fkids = fk;
        al_insert_key(a, id);
    }
    ct_pm_put(&a->canon, l, (void *)(intptr_t)(id + 1));
    return id;
}

static int al_kid(const locent *e, int i)
{
    return e->fkids ? e->fkids[i] : e->kids[i];
}

static void al_mark_nondeferred(aliases *a, int id)
{
    locent *e = &a->e[id];
    if (!e->deferred)
        return;
    e->deferred = false;
    for (int i = 0; i < e->nkids; i++)
        al_mark_nondeferred(a, al_kid(e, i));
}

/* AliasInitializer::visit: pre-order insertion, depth from the children. */
static int al_visit_id(aliases *a, int id, bool deferred)
{
    locent *e = &a->e[id];
    if (e->depth) {
        if (!deferred)
            al_mark_nondeferred(a, id);
        return e->depth;
    }
    e->depth = 1; /* provisional: a location is never its own child */
    e->deferred = deferred;
    e->order = a->nvisited++;
    int maxd = 0;
    for (int i = 0; i < e->nkids; i++) {
        int d = al_visit_id(a, al_kid(&a->e[id], i), deferred);
        if (d > maxd)
            maxd = d;
    }
    a->e[id].depth = maxd + 1;
    return maxd + 1;
}

void al_visit(aliases *a, const ct_loc *l, bool deferred)
{
    if (l)
        al_visit_id(a, al_canon(a, l, 0), deferred);
}

static void al_visit_region(aliases *a, const ct_region *r, bool entry_args, bool terminators)
{
    for (const ct_block *b = r->first; b; b = b->next) {
        if (b != r->first || entry_args)
            for (int i = 0; i < b->nargs; i++)
                al_visit(a, b->args[i]->loc, false);
        for (const ct_op *op = b->first; op; op = op->next) {
            if (!terminators && op == b->last && (ct_op_info_of(op->code)->flags & CT_OPF_TERM))
                continue;
            al_visit_op(a, op);
        }
    }
}

/* The order in which the printer below prints what an op holds. */
void al_visit_op(aliases *a, const ct_op *op)
{
    al_visit(a, op->loc, true);
    const custom_form *cf = custom_form_of(op->code);
    bool terms = !cf || !cf->elide_yields || op->nres;
    for (int i = 0; i < op->nregions; i++) {
        bool header = cf && (cf->header_args >> i & 1);
        const ct_block *e = op->regions[i].first;
        for (int k = 0; header && cf->header_locs && e && k < e->nargs; k++)
            al_visit(a, e->args[k]->loc, false);
        al_visit_region(a, &op->regions[i], !header, terms);
    }
}

static int cmp_depth_order(const void *x, const void *y)
{
    const locent *a = *(const locent *const *)x, *b = *(const locent *const *)y;
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* Sorts the visited locations and numbers their aliases; returns them in
 * alias order (malloc'd, n entries). */
locent **al_number(aliases *a, int *n)
{
    locent **v = ct_xmalloc(sizeof(locent *) * (size_t)(a->n + 1));
    int k = 0;
    for (int i = 0; i < a->n; i++)
        if (a->e[i].depth)
            v[k++] = &a->e[i];
    qsort(v, (size_t)k, sizeof *v, cmp_depth_order);
    for (int i = 0; i < k; i++)
        v[i]->alias = i;
    *n = k;
    return v;
}

void al_free(aliases *a)
{
    for (int i = 0; i < a->n; i++) {
        ct_xfree(a->e[i].key);
        ct_xfree(a->e[i].fkids);
    }
    ct_xfree(a->e);
    ct_xfree(a->htab);
    ct_pm_free(&a->canon);
}

/* `#locN` of a visited location, false if it has none. */
bool put_alias(printer *p, const ct_loc *l)
{
    if (!p->al || !l)
        return false;
    intptr_t m = (intptr_t)ct_pm_get(&p->al->canon, l);
    if (!m || !p->al->e[m - 1].depth)
        return false;
    int k = p->al->e[m - 1].alias;
    if (k)
        Pf(p, "#loc%d", k);
    else
        P(p, "#loc");
    return true;
}

/* The inside of loc(...): children by alias when printing aliases. */
void put_loc_inner(printer *p, const ct_loc *l, bool top)
{
    if (!top && put_alias(p, l))
        return;
    switch (l->kind) {
    case CT_LOC_UNKNOWN:
        P(p, "unknown");
        break;
    case CT_LOC_FILE:
        put_string(p, l->file);
        ct_sb_putc(&p->out, ':');
        ct_sb_putint(&p->out, l->line);
        ct_sb_putc(&p->out, ':');
        ct_sb_putint(&p->out, l->col);
        break;
    case CT_LOC_NAME:
        put_string(p, l->name);
        if (l->child && l->child->kind != CT_LOC_UNKNOWN) {
            P(p, "(");
            put_loc_inner(p, l->child, false);
            P(p, ")");
        }
        break;
    case CT_LOC_CALLSITE:
        P(p, "callsite(");
        put_loc_inner(p, l->child, false);
        P(p, " at ");
        put_loc_inner(p, l->caller, false);
        P(p, ")");
        break;
    case CT_LOC_FUSED:
        P(p, "fused[");
        for (int i = 0; i < l->nfused; i++) {
            if (i)
                P(p, ", ");
            put_loc_inner(p, l->fused[i], false);
        }
        P(p, "]");
        break;
    }
}

/* An op's location: ` loc(#locN)`, or inline without aliases. */
void put_trailing_loc(printer *p, const ct_loc *l)
{
    if (!(p->flags & CT_PRINT_LOCS) || !l)
        return;
    /* ops made at one call site share their location: print it once */
    const text_piece *done = ct_pm_get(&p->lstr, l);
    if (done) {
        ct_sb_putn(&p->out, done->s, done->n);
        return;
    }
    size_t start = p->out.len;
    P(p, " loc(");
    if (!put_alias(p, l))
        put_loc_inner(p, l, true);
    P(p, ")");
    ct_pm_put(&p->lstr, l, piece_new(p->nm.arena, p->out.s + start, p->out.len - start));
}

/* A block argument's location: MLIR never uses an alias for the location
 * itself there, only for its children. */
void put_arg_loc(printer *p, const ct_loc *l)
{
    if (!(p->flags & CT_PRINT_LOCS) || !l)
        return;
    P(p, " loc(");
    put_loc_inner(p, l, true);
    P(p, ")");
}
