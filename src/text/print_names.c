/*
 * print_names.c - the names of values and blocks, as MLIR's SSANameState
 * makes them.
 */
#include "print_internal.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Naming                                                              */
/* ------------------------------------------------------------------ */

/* Every name the namer makes is appended to one text buffer as "%name";
 * entries refer to it by offset, so naming a value allocates nothing.
 *
 * Names used in the current scope chain: a hash table whose entries are
 * removed in the reverse order of insertion when a region's scope ends (like
 * MLIR's ScopedHashTable), so a name is visible in nested regions but not in
 * sibling ones.  The entries form the scope stack (an array, pushed and
 * popped at its end) and are chained per bucket by index.  The table doubles
 * when it holds more names than buckets; it is rebuilt from the stack, which
 * keeps every chain in LIFO order. */

static void oom(void)
{
    ct_oom_fail(); /* to the printer's scope, or an abort outside one */
}

static uint64_t hash_name(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static bool name_find(const namer *n, const char *s, size_t len, uint64_t h)
{
    for (int i = n->buckets[h & (n->nbuckets - 1)]; i >= 0; i = n->stack[i].next) {
        const name_entry *e = &n->stack[i];
        if (e->h == h && e->len == len && !memcmp(n->text.s + e->off, s, len))
            return true;
    }
    return false;
}

static bool name_used(const namer *n, const char *s, size_t len)
{
    return name_find(n, s, len, hash_name(s, len));
}

static void name_rehash(namer *n, size_t nb)
{
    ct_xfree(n->buckets);
    n->buckets = ct_xmalloc(nb * sizeof *n->buckets);
    if (!n->buckets)
        oom();
    memset(n->buckets, 0xff, nb * sizeof *n->buckets); /* all -1 */
    n->nbuckets = nb;
    for (size_t i = 0; i < n->nstack; i++) {
        name_entry *e = &n->stack[i];
        e->next = n->buckets[e->h & (nb - 1)];
        n->buckets[e->h & (nb - 1)] = (int)i;
    }
}

/* Room for `need` more bytes at the end of the name buffer, where the next
 * name is written in place (bytes written one by one and then copied as a
 * block would stall the copy's loads). */
static char *text_room(namer *n, size_t need)
{
    if (n->text.len + need + 1 > n->text.cap)
        ct_sb_reserve(&n->text, need);
    return n->text.s + n->text.len;
}

/* Adds the tlen bytes "%name" written at the end of the name buffer;
 * returns their offset. */
static size_t name_add(namer *n, size_t tlen, uint64_t h)
{
    if (n->nstack == n->cstack) {
        n->cstack = n->cstack ? n->cstack * 2 : 256;
        n->stack = ct_xrealloc(n->stack, sizeof(*n->stack) * n->cstack);
        if (!n->stack)
            oom();
    }
    size_t off = n->text.len;
    n->text.len += tlen;
    name_entry *e = &n->stack[n->nstack++];
    e->h = h;
    e->off = off + 1;
    e->len = tlen - 1;
    if (n->nstack > n->nbuckets) {
        name_rehash(n, n->nbuckets * 2); /* links e too */
    } else {
        e->next = n->buckets[h & (n->nbuckets - 1)];
        n->buckets[h & (n->nbuckets - 1)] = (int)(n->nstack - 1);
    }
    return off;
}

static void scope_pop(namer *n, size_t mark)
{
    while (n->nstack > mark) {
        name_entry *e = &n->stack[--n->nstack];
        n->buckets[e->h & (n->nbuckets - 1)] = e->next; /* always the head: LIFO */
    }
}

/* A bare identifier ([a-zA-Z_][a-zA-Z0-9_$.]*): printed without quotes as
 * a symbol or an attribute name. */
bool bare_ident(const char *s)
{
    if (!(ch_class[(unsigned char)s[0]] & CH_ALPHA) && s[0] != '_')
        return false;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (!(ch_class[*c] & (CH_ALPHA | CH_DIGIT | CH_SYM)))
            return false;
    return true;
}

#define NAME_MAX_LEN 488 /* a longer name is cut there (before its _N suffix) */

/* Makes `want` a unique name; sets the offset and length of its "%name" text. */
static void unique_name(namer *n, counters *c, const char *want, size_t *off, size_t *tlen)
{
    /* MLIR's sanitizeIdentifier, then _N suffixes until unused; buf holds
     * "%name", the name from buf + 1 */
    char *buf = text_room(n, 1 + NAME_MAX_LEN + 24);
    size_t len = 1;
    buf[0] = '%';
    if (is_digit(want[0]))
        buf[len++] = '_';
    for (const char *q = want; *q && len - 1 < NAME_MAX_LEN; q++)
        buf[len++] = is_id_char(*q) ? *q : '_';
    uint64_t h = hash_name(buf + 1, len - 1);
    if (!name_find(n, buf + 1, len - 1, h)) {
        *off = name_add(n, len, h);
        *tlen = len;
        return;
    }
    buf[len++] = '_';
    for (;;) {
        int k = c->conflict++;
        char num[16];
        int nl = 0;
        do {
            num[nl++] = (char)('0' + k % 10);
            k /= 10;
        } while (k);
        size_t l2 = len;
        while (nl)
            buf[l2++] = num[--nl];
        h = hash_name(buf + 1, l2 - 1);
        if (!name_find(n, buf + 1, l2 - 1, h)) {
            *off = name_add(n, l2, h);
            *tlen = l2;
            return;
        }
    }
}

/* The name a location gives the value it is attached to: the first name
 * location met walking it in pre-order (a callsite's callee before its
 * caller), as MLIR's printNameLocAsPrefix finds it (findInstanceOf<NameLoc>). */
static const ct_loc *name_loc(const ct_loc *l, int depth)
{
    if (!l || depth > 1000)
        return NULL;
    switch (l->kind) {
    case CT_LOC_NAME:
        return l;
    case CT_LOC_CALLSITE: {
        const ct_loc *r = name_loc(l->child, depth + 1);
        return r ? r : name_loc(l->caller, depth + 1);
    }
    case CT_LOC_FUSED:
        for (int i = 0; i < l->nfused; i++) {
            const ct_loc *r = name_loc(l->fused[i], depth + 1);
            if (r)
                return r;
        }
        return NULL;
    default:
        return NULL;
    }
}

static const char *loc_name(const ct_loc *l)
{
    const ct_loc *n = name_loc(l, 0);
    return n ? n->name : NULL;
}

/* A name the parser kept from the text for a block argument whose location
 * the text could not carry (see ct_loc_name_hint).  MLIR printed it either
 * as the name itself or as `base_N`, base made unique with the conflict
 * counter at N; in the second case name `base` again, so that the counter
 * advances as it did in MLIR and the names after it come out the same. */
static void hinted_name(namer *n, counters *c, const char *h, vname *e)
{
    const char *us = strrchr(h, '_');
    if (us && us > h && us[1] && !name_used(n, h, strlen(h))) {
        char *end;
        long k = strtol(us + 1, &end, 10);
        if (!*end && is_digit(us[1]) && k == c->conflict &&
            name_used(n, h, (size_t)(us - h))) {
            char base[512];
            size_t bl = (size_t)(us - h) < sizeof base - 1 ? (size_t)(us - h) : sizeof base - 1;
            memcpy(base, h, bl);
            base[bl] = 0;
            unique_name(n, c, base, &e->off, &e->len);
            return;
        }
    }
    unique_name(n, c, h, &e->off, &e->len);
}

static vname *vname_new(namer *n, const ct_value *v)
{
    if (n->nv == n->cv) {
        n->cv = n->cv ? n->cv * 2 : 256;
        n->v = ct_xrealloc(n->v, sizeof(*n->v) * (size_t)n->cv);
        if (!n->v)
            oom();
    }
    vname *e = &n->v[n->nv];
    ct_pm_put(&n->vidx, v, (void *)(intptr_t)(++n->nv));
    e->v = v;
    e->separate = false;
    return e;
}

const vname *vname_of(const namer *n, const ct_value *v)
{
    intptr_t i = (intptr_t)ct_pm_get(&n->vidx, v) - 1;
    return i >= 0 ? &n->v[i] : NULL;
}

static vname *set_name(namer *n, counters *c, const ct_value *v, const char *want)
{
    vname *e = vname_new(n, v);
    if (want && *want) {
        unique_name(n, c, want, &e->off, &e->len);
        return e;
    }
    /* "%N", written in place */
    unsigned u = (unsigned)c->value++;
    size_t nd = 1;
    for (unsigned t = u; t >= 10; t /= 10)
        nd++;
    char *d = text_room(n, nd + 1);
    d[0] = '%';
    for (size_t i = nd; i > 0; i--, u /= 10)
        d[i] = (char)('0' + u % 10);
    e->off = n->text.len;
    e->len = nd + 1;
    n->text.len += nd + 1;
    return e;
}

/* Writes u in decimal at o (no NUL); returns the number of digits. */
static size_t put_decimal(char *o, uint64_t u)
{
    size_t nd = 1;
    for (uint64_t t = u; t >= 10; t /= 10)
        nd++;
    for (size_t i = nd; i > 0; i--, u /= 10)
        o[i - 1] = (char)('0' + u % 10);
    return nd;
}

static void copy_word(char *out, size_t cap, const char *w)
{
    size_t n = strlen(w);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, w, n);
    out[n] = 0;
}

/* Names an op's results get from OpAsmOpInterface (arith.constant, tt.split). */
static bool asm_result_name(const ct_op *op, char *out, size_t cap)
{
    if (op->code != CT_OP_ARITH_CONSTANT)
        return false;
    const ct_attr *v = ct_op_attr(op, "value");
    const ct_type *t = op->res[0].type;
    if (v && v->kind == CT_ATTR_INT && t->kind == CT_TY_INT) {
        if (t->bits == 1) {
            copy_word(out, cap, v->i ? "true" : "false");
        } else {
            /* c<value>_i<bits>, without printf (this runs for every
             * constant), written in place (cap is 64: room for any) */
            char *o = out;
            *o++ = 'c';
            if (v->i < 0)
                *o++ = '-';
            o += put_decimal(o, v->i < 0 ? 0 - (uint64_t)v->i : (uint64_t)v->i);
            *o++ = '_';
            *o++ = 'i';
            o += put_decimal(o, (uint64_t)t->bits);
            *o = 0;
        }
        return true;
    }
    if (v && v->kind == CT_ATTR_INT && t->kind == CT_TY_INDEX) {
        snprintf(out, cap, "c%" PRId64, v->i);
        return true;
    }
    if (v && v->kind == CT_ATTR_BOOL) {
        copy_word(out, cap, v->i ? "true" : "false");
        return true;
    }
    copy_word(out, cap, "cst");
    return true;
}

static void number_op(namer *n, counters *c, const ct_op *op)
{
    n->nops++;
    if (op->nres == 0)
        return;
    const char *nl = n->numbered ? NULL : loc_name(op->loc);
    if (nl) {
        set_name(n, c, &op->res[0], nl);
        return;
    }
    if (op->code == CT_OP_TT_SPLIT) { /* SplitOp's results are named after their segments */
        const ct_op_sig *s = ct_op_sig_of(op->code);
        for (int i = 0; i < op->nres && i < s->nres_segs; i++)
            set_name(n, c, &op->res[i], s->res[i].name)->separate = true;
        return;
    }
    char buf[64]; /* asm_result_name writes at most 46 bytes */
    if (asm_result_name(op, buf, sizeof buf)) {
        set_name(n, c, &op->res[0], buf);
        return;
    }
    set_name(n, c, &op->res[0], NULL);
}

static void number_block(namer *n, counters *c, const ct_block *b, bool entry)
{
    for (int i = 0; i < b->nargs; i++) {
        const ct_value *a = b->args[i];
        const char *nl = n->numbered ? NULL : loc_name(a->loc);
        if (nl && a->loc->kind == CT_LOC_NAME && a->loc->child == &ct_loc_name_hint) {
            if (entry)
                c->arg++;
            hinted_name(n, c, nl, vname_new(n, a));
        } else if (entry) {
            char tmp[24] = "arg";
            int k = c->arg++;
            if (!nl)
                tmp[3 + put_decimal(tmp + 3, (uint64_t)k)] = 0;
            set_name(n, c, a, nl ? nl : tmp);
        } else {
            set_name(n, c, a, nl);
        }
    }
    for (const ct_op *op = b->first; op; op = op->next)
        number_op(n, c, op);
}

static void name_region(namer *n, const ct_region *r, counters c)
{
    size_t mark = n->nstack;
    int bid = 0;
    for (const ct_block *b = r->first; b; b = b->next) {
        ct_pm_put(&n->bnames, b, (void *)(intptr_t)(bid + 1));
        bid++;
        number_block(n, &c, b, b == r->first);
    }
    for (const ct_block *b = r->first; b; b = b->next)
        for (const ct_op *op = b->first; op; op = op->next)
            for (int i = 0; i < op->nregions; i++)
                name_region(n, &op->regions[i], c);
    scope_pop(n, mark);
}

void name_top_op(namer *n, const ct_op *op)
{
    counters c = {0, 0, 0};
    size_t mark = n->nstack;
    number_op(n, &c, op);
    for (int i = 0; i < op->nregions; i++)
        name_region(n, &op->regions[i], c);
    scope_pop(n, mark);
}

void namer_init(namer *n)
{
    memset(n, 0, sizeof *n);
    n->arena = ct_arena_new();
    name_rehash(n, 256);
}

void namer_free(namer *n)
{
    ct_arena_free(n->arena);
    ct_xfree(n->stack);
    ct_xfree(n->buckets);
    ct_xfree(n->v);
    ct_sb_free(&n->text);
    ct_pm_free(&n->bnames);
    ct_pm_free(&n->vidx);
}