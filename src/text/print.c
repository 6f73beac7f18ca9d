/*
 * print.c - the TTIR printer.
 *
 * Writes Triton IR in the textual form MLIR (as configured by Triton 3.6)
 * prints: the custom assembly of each op, SSA names taken from name
 * locations (MLIR's printNameLocAsPrefix), constants named %c0_i32 / %cst /
 * %true, numbers for the rest, conflicts resolved with _N suffixes, block
 * labels with their predecessor comments, and MLIR's float literals.
 *
 * Naming follows MLIR's SSANameState: each region is numbered completely
 * (block labels per region from ^bb0, values and conflict suffixes from
 * counters inherited from the enclosing region) before the regions nested
 * in its ops, which all start from the counters the region ended with.
 *
 * Speed (the printer runs once per build; a matmul is 24 KB of text): the
 * names are made in the naming pass, written once into one text buffer,
 * and found when printing through the value's scratch `id` (an index into
 * the namer's array, checked against the value), so printing a value is an
 * array access and a copy; the scoped name table is chained by index and
 * allocates nothing per name.  A type's text is made once per print and
 * found through a small direct-mapped cache; the output is reserved from
 * the number of ops; numbers, names and keywords are appended without
 * printf.  Printing a module therefore writes the `id` of its values.
 */
#include "ctriton/text.h"
#include "ctriton/version.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_internal.h"
#include "util/util.h"

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
typedef struct name_entry {
    uint64_t h;
    size_t off, len; /* the name is text.s + off; text.s[off - 1] is its '%' */
    int next;        /* the next entry of the bucket, -1 at the end */
} name_entry;

typedef struct counters {
    int value, arg, conflict;
} counters;

/* The printed name of a value, with its '%' ("%x", "%12", "%c0_i32").  A
 * value finds its entry through the namer's own map (value -> index): the
 * printer writes nothing into the module, so several threads may print one
 * module at once.  The printer looks a value up two or three times. */
typedef struct vname {
    const ct_value *v;
    size_t off, len;  /* the text, in the namer's text buffer */
    bool separate;    /* its op's results are named one by one (tt.split) */
} vname;

typedef struct namer {
    bool numbered;    /* CT_PRINT_NUMBERED: ignore name locations */
    ct_arena *arena;  /* the printer's cached pieces of text */
    ct_strbuf text;   /* all names, one after another */
    vname *v;         /* the named values, indexed by ct_value.id */
    int nv, cv;
    int nops;         /* ops seen: the printer sizes its output from it */
    ct_ptrmap bnames; /* ct_block* -> (intptr_t)id + 1 */
    ct_ptrmap vidx;   /* ct_value* -> (intptr_t)index in v + 1 */
    int *buckets;     /* the first entry of each bucket, -1 if none */
    size_t nbuckets;  /* a power of two */
    name_entry *stack;
    size_t nstack, cstack;
} namer;

static void oom(void)
{
    fputs("ctriton: out of memory\n", stderr);
    abort();
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
    free(n->buckets);
    n->buckets = malloc(nb * sizeof *n->buckets);
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
        n->stack = realloc(n->stack, sizeof(*n->stack) * n->cstack);
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

/* ASCII character classes, as LLVM's isAlpha/isDigit (one table lookup per
 * character: names, symbols and strings are scanned character by character) */
enum {
    CH_ALPHA = 1,
    CH_DIGIT = 2,
    CH_SYM = 4,  /* _ $ . : also in a bare identifier */
    CH_DASH = 8, /* - : also in a value name */
    CH_ESC = 16  /* escaped in a string literal */
};

static const unsigned char ch_class[256] = {
    [0 ... 0x1f] = CH_ESC, ['"'] = CH_ESC, ['\\'] = CH_ESC, [0x7f ... 0xff] = CH_ESC,
    ['a' ... 'z'] = CH_ALPHA, ['A' ... 'Z'] = CH_ALPHA, ['0' ... '9'] = CH_DIGIT,
    ['_'] = CH_SYM, ['$'] = CH_SYM, ['.'] = CH_SYM, ['-'] = CH_DASH,
};

static inline bool is_digit(char c)
{
    return ch_class[(unsigned char)c] & CH_DIGIT;
}

/* a character MLIR keeps in a value name (sanitizeIdentifier) */
static inline bool is_id_char(char c)
{
    return ch_class[(unsigned char)c] & (CH_ALPHA | CH_DIGIT | CH_SYM | CH_DASH);
}

/* A bare identifier ([a-zA-Z_][a-zA-Z0-9_$.]*): printed without quotes as
 * a symbol or an attribute name. */
static bool bare_ident(const char *s)
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
        n->v = realloc(n->v, sizeof(*n->v) * (size_t)n->cv);
        if (!n->v)
            oom();
    }
    vname *e = &n->v[n->nv];
    ct_pm_put(&n->vidx, v, (void *)(intptr_t)(++n->nv));
    e->v = v;
    e->separate = false;
    return e;
}

static const vname *vname_of(const namer *n, const ct_value *v)
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
    if (op->code == CT_OP_TT_SPLIT && op->nres == 2) {
        set_name(n, c, &op->res[0], "outLHS")->separate = true;
        set_name(n, c, &op->res[1], "outRHS")->separate = true;
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

static void name_top_op(namer *n, const ct_op *op)
{
    counters c = {0, 0, 0};
    size_t mark = n->nstack;
    number_op(n, &c, op);
    for (int i = 0; i < op->nregions; i++)
        name_region(n, &op->regions[i], c);
    scope_pop(n, mark);
}

static void namer_init(namer *n)
{
    memset(n, 0, sizeof *n);
    n->arena = ct_arena_new();
    name_rehash(n, 256);
}

static void namer_free(namer *n)
{
    ct_arena_free(n->arena);
    free(n->stack);
    free(n->buckets);
    free(n->v);
    ct_sb_free(&n->text);
    ct_pm_free(&n->bnames);
    ct_pm_free(&n->vidx);
}

/* ------------------------------------------------------------------ */
/* Printer                                                             */
/* ------------------------------------------------------------------ */

/* ---- location aliases -------------------------------------------- */

/* MLIR prints each distinct location once, as `#locN = loc(...)`, and
 * refers to it as `loc(#locN)`.  Its AliasInitializer walks the module in
 * print order, visiting every location (an op's location before its body,
 * block arguments' locations wherever the arguments are printed with their
 * types) and what it is made of (a name location's child unless unknown, a
 * callsite's callee then caller, a fused location's parts).  Aliases are
 * numbered in the order of a stable sort by depth (a location without
 * children has depth 1, others one more than their deepest child), and
 * printed before the module when a block argument uses them (directly or
 * through a parent), after it otherwise ("deferred").  Identical locations
 * are one attribute in MLIR, so they are interned here by structure. */
typedef struct locent {
    char *key;         /* structural key (interning) */
    const ct_loc *loc; /* a representative */
    int kids[2];       /* canonical ids of the children MLIR visits; fused: see fkids */
    int nkids;
    int *fkids;
    int depth;         /* 0: not visited */
    bool deferred;
    int order;         /* visit order */
    int alias;         /* alias number after sorting */
} locent;

typedef struct aliases {
    ct_ptrmap canon;   /* ct_loc* -> id + 1 */
    locent *e;
    int n, cap;
    int *htab;         /* open addressing over keys: id + 1 */
    int hcap;
    int nvisited;
} aliases;

typedef struct printer {
    const ct_triton *tv;       /* the release whose spellings are written (the module's) */
    ct_strbuf out;
    namer nm;
    unsigned flags;
    int indent;
    aliases *al;       /* non-NULL when printing with location aliases */
    /* ct_print_module_lines: where each op starts */
    bool record;
    const ct_op **rec_op;
    size_t *rec_off;
    int nrec, caprec;
    ct_ptrmap tstr; /* ct_type* -> text_piece (in the namer's arena): types recur */
    struct {        /* in front of tstr: a direct-mapped cache */
        const ct_type *t;
        const struct text_piece *tp;
    } tcache[64];
    ct_ptrmap lstr; /* ct_loc* -> text_piece: ops of one call site share a location */
} printer;

/* A cached piece of output text with its length. */
typedef struct text_piece {
    size_t n;
    char s[];
} text_piece;

static text_piece *piece_new(ct_arena *a, const char *s, size_t n)
{
    text_piece *t = ct_arena_alloc(a, sizeof *t + n + 1);
    t->n = n;
    memcpy(t->s, s, n);
    t->s[n] = 0;
    return t;
}

/* inline, so that the length of a literal is known when compiling */
static inline void P(printer *p, const char *s)
{
    ct_sb_puts(&p->out, s);
}

static void Pf(printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void Pf(printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_sb_vprintf(&p->out, fmt, ap);
    va_end(ap);
}

static void nl(printer *p)
{
    ct_sb_putc(&p->out, '\n');
    ct_sb_spaces(&p->out, p->indent);
}

static void put_type(printer *p, const ct_type *t)
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
                char *c = malloc(n + 1);
                if (!c)
                    return;
                ct_type_str_for(t, p->tv, c, n + 1);
                tp = piece_new(p->nm.arena, c, n);
                free(c);
            }
            ct_pm_put(&p->tstr, t, (void *)tp);
        }
        p->tcache[slot].t = t;
        p->tcache[slot].tp = tp;
    }
    ct_sb_putn(&p->out, tp->s, tp->n);
}

static void printer_free(printer *p)
{
    ct_pm_free(&p->tstr);
    ct_pm_free(&p->lstr);
    namer_free(&p->nm);
}

/* A type as ODS prints a typed operand or result of a dialect type class:
 * without its mnemonic (`<tensor<32x64xf16>>` for !tt.ptr<tensor<32x64xf16>>). */
static void put_stripped_type(printer *p, const ct_type *t)
{
    if (t->kind == CT_TY_PTR || t->kind == CT_TY_TENSORDESC) {
        size_t n = ct_type_str_for(t, p->tv, NULL, 0);
        char *buf = malloc(n + 1);
        if (buf) {
            ct_type_str_for(t, p->tv, buf, n + 1);
            const char *lt = strchr(buf, '<');
            P(p, lt ? lt : buf);
            free(buf);
            return;
        }
    }
    put_type(p, t);
}

static void put_vname(printer *p, const vname *nm)
{
    ct_sb_putn(&p->out, p->nm.text.s + nm->off, nm->len);
}

static void put_value(printer *p, const ct_value *v)
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

static void put_values(printer *p, ct_value *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            P(p, ", ");
        put_value(p, v[i]);
    }
}

static void put_types_of(printer *p, ct_value *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            P(p, ", ");
        put_type(p, v[i]->type);
    }
}

static void put_string(printer *p, const char *s)
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

static void put_symbol(printer *p, const char *s)
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

typedef enum { ELIDE_NEVER, ELIDE_MAY } elision;

static void put_attr(printer *p, const ct_attr *a, elision el);

static void put_attr(printer *p, const ct_attr *a, elision el)
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

static bool in_list(const char *name, const char *const *list)
{
    for (; list && *list; list++)
        if (ct_streq(*list, name))
            return true;
    return false;
}

/* " {a = 1 : i32, b}" for the attributes not in `elided`; nothing if none. */
static void put_attr_dict(printer *p, const ct_named_attr *attrs, int n,
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

static void put_op_attrs(printer *p, const ct_op *op, const char *const *elided)
{
    if (op->nattrs)
        put_attr_dict(p, op->attrs, op->nattrs, elided, true);
}

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
        int *nt = calloc((size_t)nc, sizeof(int));
        for (int i = 0; i < a->hcap; i++) {
            if (!a->htab[i])
                continue;
            size_t j = key_hash(a->e[a->htab[i] - 1].key) & (size_t)(nc - 1);
            while (nt[j])
                j = (j + 1) & (size_t)(nc - 1);
            nt[j] = a->htab[i];
        }
        free(a->htab);
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
            fk = malloc(sizeof(int) * (size_t)(l->nfused + 1));
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
        free(fk);
    } else {
        if (a->n == a->cap) {
            a->cap = a->cap ? a->cap * 2 : 64;
            a->e = realloc(a->e, sizeof(locent) * (size_t)a->cap);
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

static void al_visit(aliases *a, const ct_loc *l, bool deferred)
{
    if (l)
        al_visit_id(a, al_canon(a, l, 0), deferred);
}

static void al_visit_op(aliases *a, const ct_op *op);

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
static void al_visit_op(aliases *a, const ct_op *op)
{
    al_visit(a, op->loc, true);
    switch (op->code) {
    case CT_OP_TT_FUNC: {
        const ct_block *e = ct_func_entry(op);
        for (int i = 0; e && i < e->nargs; i++)
            al_visit(a, e->args[i]->loc, false);
        if (op->nregions)
            al_visit_region(a, &op->regions[0], false, true);
        break;
    }
    case CT_OP_SCF_FOR:
        al_visit_region(a, &op->regions[0], false, op->nres > 0);
        break;
    case CT_OP_SCF_IF:
        al_visit_region(a, &op->regions[0], false, op->nres > 0);
        if (op->nregions > 1)
            al_visit_region(a, &op->regions[1], false, op->nres > 0);
        break;
    case CT_OP_SCF_WHILE:
        al_visit_region(a, &op->regions[0], false, true);
        al_visit_region(a, &op->regions[1], true, true);
        break;
    default:
        for (int i = 0; i < op->nregions; i++)
            al_visit_region(a, &op->regions[i], true, true);
        break;
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
static locent **al_number(aliases *a, int *n)
{
    locent **v = malloc(sizeof(locent *) * (size_t)(a->n + 1));
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

static void al_free(aliases *a)
{
    for (int i = 0; i < a->n; i++) {
        free(a->e[i].key);
        free(a->e[i].fkids);
    }
    free(a->e);
    free(a->htab);
    ct_pm_free(&a->canon);
}

/* `#locN` of a visited location, false if it has none. */
static bool put_alias(printer *p, const ct_loc *l)
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
static void put_loc_inner(printer *p, const ct_loc *l, bool top)
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
static void put_trailing_loc(printer *p, const ct_loc *l)
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
static void put_arg_loc(printer *p, const ct_loc *l)
{
    if (!(p->flags & CT_PRINT_LOCS) || !l)
        return;
    P(p, " loc(");
    put_loc_inner(p, l, true);
    P(p, ")");
}

/* ---- blocks and regions ------------------------------------------- */

static void put_block_name(printer *p, const ct_block *b)
{
    intptr_t id = (intptr_t)ct_pm_get(&p->nm.bnames, b);
    P(p, "^bb");
    ct_sb_putint(&p->out, id ? id - 1 : -1);
}

static void print_op(printer *p, const ct_op *op);

/* predecessor edges of block b, in block order of the region */
static int collect_preds(const ct_block *b, const ct_block **preds, int cap)
{
    int n = 0;
    const ct_region *r = b->parent;
    for (const ct_block *q = r ? r->first : NULL; q; q = q->next) {
        const ct_op *t = q->last;
        if (!t)
            continue;
        for (int i = 0; i < t->nsucc; i++)
            if (t->succ[i] == b && n < cap)
                preds[n++] = q;
    }
    return n;
}

static void print_block(printer *p, const ct_block *b, bool header, bool terminators)
{
    if (header) {
        nl(p);
        /* labels sit one level out from the ops of their block */
        p->out.len -= 2;
        p->out.s[p->out.len] = 0;
        put_block_name(p, b);
        if (b->nargs) {
            P(p, "(");
            for (int i = 0; i < b->nargs; i++) {
                if (i)
                    P(p, ", ");
                put_value(p, b->args[i]);
                P(p, ": ");
                put_type(p, b->args[i]->type);
                put_arg_loc(p, b->args[i]->loc);
            }
            P(p, ")");
        }
        P(p, ":");
        const ct_block *preds[64];
        int np = collect_preds(b, preds, 64);
        bool entry = b->parent && b->parent->first == b;
        if (np == 0) {
            if (!entry)
                P(p, "  // no predecessors");
        } else {
            /* MLIR's getSinglePredecessor: two edges from one block are two preds */
            if (np == 1) {
                P(p, "  // pred: ");
                put_block_name(p, preds[0]);
            } else {
                Pf(p, "  // %d preds: ", np);
                for (int i = 0; i < np; i++) {
                    if (i)
                        P(p, ", ");
                    put_block_name(p, preds[i]);
                }
            }
        }
    }
    for (const ct_op *op = b->first; op; op = op->next) {
        if (!terminators && op == b->last && (ct_op_info_of(op->code)->flags & CT_OPF_TERM))
            continue;
        nl(p);
        print_op(p, op);
    }
}

static void print_region(printer *p, const ct_region *r, bool entry_args, bool terminators)
{
    P(p, "{");
    p->indent += 2;
    if (r->first) {
        const ct_block *e = r->first;
        print_block(p, e, entry_args && e->nargs, terminators);
        for (const ct_block *b = e->next; b; b = b->next)
            print_block(p, b, true, terminators);
    }
    p->indent -= 2;
    nl(p);
    P(p, "}");
}

/* ---- ops ---------------------------------------------------------- */

static void put_results(printer *p, const ct_op *op)
{
    if (op->nres == 0)
        return;
    const vname *nm = vname_of(&p->nm, &op->res[0]);
    if (nm && nm->separate) {
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_value(p, &op->res[i]);
        }
    } else {
        if (nm)
            put_vname(p, nm);
        else
            P(p, "%<<UNKNOWN SSA VALUE>>");
        if (op->nres > 1) {
            ct_sb_putc(&p->out, ':');
            ct_sb_putint(&p->out, op->nres);
        }
    }
    P(p, " = ");
}

static const char *attr_word(const ct_op *op, const char *name, const char *dflt)
{
    const ct_attr *a = ct_op_attr(op, name);
    if (!a)
        return dflt;
    if (a->kind == CT_ATTR_ENUM || a->kind == CT_ATTR_STR)
        return a->s;
    return dflt;
}

static void print_generic(printer *p, const ct_op *op)
{
    /* "name"(operands) <{attrs}> ({regions}) : (types) -> (types) */
    put_string(p, ct_op_info_of(op->code)->name);
    P(p, "(");
    put_values(p, op->opnds, op->nopnds);
    P(p, ")");
    if (op->nattrs) {
        P(p, " <");
        put_attr_dict(p, op->attrs, op->nattrs, NULL, false);
        P(p, ">");
    }
    if (op->nregions) {
        P(p, " (");
        for (int i = 0; i < op->nregions; i++) {
            if (i)
                P(p, ", ");
            print_region(p, &op->regions[i], true, true);
        }
        P(p, ")");
    }
    P(p, " : (");
    put_types_of(p, op->opnds, op->nopnds);
    P(p, ") -> ");
    if (op->nres == 1) {
        put_type(p, op->res[0].type);
    } else {
        P(p, "(");
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_type(p, op->res[i].type);
        }
        P(p, ")");
    }
}

static void print_func(printer *p, const ct_op *op)
{
    const ct_attr *vis = ct_op_attr(op, "sym_visibility");
    const ct_type *ft = ct_func_type(op);
    const ct_attr *argattrs = ct_op_attr(op, "arg_attrs");
    P(p, "tt.func ");
    if (vis && vis->kind == CT_ATTR_STR) {
        P(p, vis->s);
        P(p, " ");
    }
    put_symbol(p, ct_func_name(op));
    P(p, "(");
    const ct_block *e = ct_func_entry(op);
    for (int i = 0; ft && i < ft->nin; i++) {
        if (i)
            P(p, ", ");
        if (e) {
            put_value(p, e->args[i]);
            P(p, ": ");
        }
        put_type(p, ft->ins[i]);
        const ct_attr *aa = argattrs && argattrs->kind == CT_ATTR_ARRAY && i < argattrs->n
                                ? argattrs->elems[i]
                                : NULL;
        if (aa && aa->kind == CT_ATTR_DICT && aa->n) {
            P(p, " ");
            put_attr(p, aa, ELIDE_MAY);
        }
        if (e)
            put_arg_loc(p, e->args[i]->loc);
    }
    P(p, ")");
    if (ft && ft->nout) {
        P(p, " -> ");
        if (ft->nout == 1) {
            put_type(p, ft->outs[0]);
        } else {
            P(p, "(");
            for (int i = 0; i < ft->nout; i++) {
                if (i)
                    P(p, ", ");
                put_type(p, ft->outs[i]);
            }
            P(p, ")");
        }
    }
    static const char *const elided[] = {"sym_name", "function_type", "sym_visibility",
                                         "arg_attrs", "res_attrs", NULL};
    int shown = 0;
    for (int i = 0; i < op->nattrs; i++)
        if (!in_list(op->attrs[i].name, elided))
            shown++;
    if (shown) {
        P(p, " attributes");
        put_op_attrs(p, op, elided);
    }
    if (op->nregions && op->regions[0].first) {
        P(p, " ");
        print_region(p, &op->regions[0], false, true);
    }
}

static void put_succ(printer *p, const ct_op *op, int si, int first_opnd)
{
    put_block_name(p, op->succ[si]);
    int n = op->succ_nopnds[si];
    if (n) {
        P(p, "(");
        put_values(p, op->opnds + first_opnd, n);
        P(p, " : ");
        put_types_of(p, op->opnds + first_opnd, n);
        P(p, ")");
    }
}

static void put_op_name(printer *p, const ct_op_info *info)
{
    ct_sb_putn(&p->out, info->name, info->name_len);
}

static void put_cache_evict(printer *p, const char *cache, const char *evict)
{
    if (cache) {
        P(p, " cacheModifier = ");
        P(p, cache);
    }
    if (evict) {
        P(p, " evictionPolicy = ");
        P(p, evict);
    }
}

/* The cache hints of load, store and descriptor_load, then the other
 * attributes (`elided` names the hints and what the op's form spells):
 * `cacheModifier = cg evictionPolicy = evict_last {...}` before Triton 3.9,
 * one attribute from 3.9, first of the dictionary as MLIR sorts it:
 * {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = evict_normal>, ...} */
static void put_hints_and_attrs(printer *p, const ct_op *op, const char *const *elided)
{
    const char *cache = attr_word(op, "cache", NULL);
    const char *evict = attr_word(op, "evict", NULL);
    if (!p->tv->cache_policy_attr || (!cache && !evict)) {
        put_cache_evict(p, cache, evict);
        put_op_attrs(p, op, elided);
        return;
    }
    Pf(p, " {cachePolicy = #tt.cache_policy<cache_modifier = %s, eviction_policy = %s>",
       cache ? cache : "none", evict ? evict : "evict_normal");
    ct_strbuf rest;
    ct_sb_init(&rest);
    ct_strbuf saved = p->out;
    p->out = rest;
    put_op_attrs(p, op, elided);
    rest = p->out;
    p->out = saved;
    if (rest.len) /* " {a = 1, b}": its entries follow ours */
        Pf(p, ", %.*s", (int)(rest.len - 3), rest.s + 2);
    ct_sb_free(&rest);
    P(p, "}");
}

static void print_custom(printer *p, const ct_op *op)
{
    const ct_op_info *info = ct_op_info_of(op->code);
    switch (op->code) {
    case CT_OP_ARITH_CONSTANT: {
        static const char *const el[] = {"value", NULL};
        put_op_name(p, info);
        put_op_attrs(p, op, el);
        P(p, " ");
        const ct_attr *v = ct_op_attr(op, "value");
        if (v)
            put_attr(p, v, ELIDE_NEVER);
        break;
    }
    case CT_OP_ARITH_CMPI:
    case CT_OP_ARITH_CMPF: {
        static const char *const el[] = {"predicate", NULL};
        put_op_name(p, info);
        P(p, " ");
        P(p, attr_word(op, "predicate", "?"));
        P(p, ", ");
        put_values(p, op->opnds, 2);
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    }
    case CT_OP_ARITH_SELECT:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 3);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        if (op->opnds[0]->type->kind == CT_TY_TENSOR) {
            put_type(p, op->opnds[0]->type);
            P(p, ", ");
        }
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_FUNC:
        print_func(p, op);
        break;
    case CT_OP_TT_RETURN:
    case CT_OP_SCF_YIELD:
    case CT_OP_TT_MAP_ELEMENTWISE_RETURN:
        /* attr-dict ($values^ : type($values))? */
        put_op_name(p, info);
        put_op_attrs(p, op, NULL);
        if (op->nopnds) {
            P(p, " ");
            put_values(p, op->opnds, op->nopnds);
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        }
        break;
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
        /* $result attr-dict : type($result) */
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_types_of(p, op->opnds, op->nopnds);
        break;
    case CT_OP_TT_CALL: {
        static const char *const el[] = {"callee", NULL};
        put_op_name(p, info);
        P(p, " ");
        const ct_attr *c = ct_op_attr(op, "callee");
        put_symbol(p, c ? c->s : "?");
        P(p, "(");
        put_values(p, op->opnds, op->nopnds);
        P(p, ")");
        put_op_attrs(p, op, el);
        P(p, " : (");
        put_types_of(p, op->opnds, op->nopnds);
        P(p, ") -> ");
        if (op->nres == 1) {
            put_type(p, op->res[0].type);
        } else {
            P(p, "(");
            for (int i = 0; i < op->nres; i++) {
                if (i)
                    P(p, ", ");
                put_type(p, op->res[i].type);
            }
            P(p, ")");
        }
        break;
    }
    case CT_OP_TT_GET_PROGRAM_ID:
    case CT_OP_TT_GET_NUM_PROGRAMS: {
        static const char *const el[] = {"axis", NULL};
        put_op_name(p, info);
        P(p, " ");
        P(p, attr_word(op, "axis", "x"));
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_MAKE_RANGE:
        put_op_name(p, info);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_TRANS:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_RESHAPE: {
        static const char *const el[] = {"allow_reorder", "efficient_layout", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        if (ct_op_attr(op, "allow_reorder"))
            P(p, " allow_reorder");
        if (ct_op_attr(op, "efficient_layout"))
            P(p, " efficient_layout");
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_JOIN:
    case CT_OP_TT_CAT:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 2);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_SPLIT:
    case CT_OP_TT_HISTOGRAM:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_GATHER:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, "[");
        put_value(p, op->opnds[1]);
        P(p, "]");
        put_op_attrs(p, op, NULL);
        P(p, " : (");
        put_types_of(p, op->opnds, 2);
        P(p, ") -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_ADDPTR:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 2);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        P(p, ", ");
        put_type(p, op->opnds[1]->type);
        break;
    case CT_OP_TT_LOAD:
    case CT_OP_TT_STORE: {
        static const char *const el[] = {"cache", "evict", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_hints_and_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    }
    case CT_OP_TT_ATOMIC_RMW:
    case CT_OP_TT_ATOMIC_CAS: {
        static const char *const el[] = {"atomic_rmw_op", "sem", "scope", NULL};
        put_op_name(p, info);
        P(p, " ");
        if (op->code == CT_OP_TT_ATOMIC_RMW)
            Pf(p, "%s, ", attr_word(op, "atomic_rmw_op", "?"));
        Pf(p, "%s, %s, ", attr_word(op, "sem", "acq_rel"), attr_word(op, "scope", "gpu"));
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, el);
        P(p, " : (");
        put_types_of(p, op->opnds, op->nopnds);
        P(p, ") -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_FP_TO_FP: {
        static const char *const el[] = {"rounding", NULL};
        /* $src attr-dict (`,` `rounding` `=` $rounding^)? */
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, el);
        const char *r = attr_word(op, "rounding", NULL);
        if (r)
            Pf(p, ", rounding = %s", r);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_CLAMPF: {
        static const char *const el[] = {"propagateNan", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 3);
        Pf(p, ", propagateNan = %s", attr_word(op, "propagateNan", "none"));
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_DOT: {
        static const char *const el[] = {"inputPrecision", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 3);
        const char *ip = attr_word(op, "inputPrecision", NULL);
        if (ip && strcmp(ip, "ieee") != 0)
            Pf(p, ", inputPrecision = %s", ip);
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " * ");
        put_type(p, op->opnds[1]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_REDUCE:
    case CT_OP_TT_SCAN:
        print_generic(p, op);
        break;
    case CT_OP_TT_EXTERN_ELEMENTWISE:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : (");
        put_types_of(p, op->opnds, op->nopnds);
        P(p, ") -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_INLINE_ASM: {
        static const char *const el[] = {"asm_string", NULL};
        put_op_name(p, info);
        P(p, " ");
        const ct_attr *s = ct_op_attr(op, "asm_string");
        put_string(p, s ? s->s : "");
        put_op_attrs(p, op, el);
        if (op->nopnds) {
            P(p, " ");
            put_values(p, op->opnds, op->nopnds);
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        }
        P(p, " -> ");
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_type(p, op->res[i].type);
        }
        break;
    }
    case CT_OP_TT_ASSERT: {
        static const char *const el[] = {"message", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, ", ");
        const ct_attr *m = ct_op_attr(op, "message");
        put_string(p, m ? m->s : "");
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    }
    case CT_OP_TT_PRINT: {
        static const char *const el[] = {"prefix", NULL};
        put_op_name(p, info);
        P(p, " ");
        const ct_attr *m = ct_op_attr(op, "prefix");
        put_string(p, m ? m->s : "");
        put_op_attrs(p, op, el);
        if (op->nopnds) {
            P(p, " : ");
            put_values(p, op->opnds, op->nopnds);
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        }
        break;
    }
    case CT_OP_TT_MAKE_TENSOR_PTR: {
        /* $base, [shape], [strides], [offsets] attr-dict : type($result), the
         * result type stripped of its mnemonic (ODS does that for a typed result) */
        int rank = (op->nopnds - 1) / 3;
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        for (int g = 0; g < 3; g++) {
            P(p, ", [");
            put_values(p, op->opnds + 1 + g * rank, rank);
            P(p, "]");
        }
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_stripped_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_MAKE_TENSOR_DESC: {
        /* $base, [shape], [strides] attr-dict : type($base), type($result), both stripped */
        int rank = (op->nopnds - 1) / 2;
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        for (int g = 0; g < 2; g++) {
            P(p, ", [");
            put_values(p, op->opnds + 1 + g * rank, rank);
            P(p, "]");
        }
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_stripped_type(p, op->opnds[0]->type);
        P(p, ", ");
        put_stripped_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_DESCRIPTOR_LOAD:
    case CT_OP_TT_DESCRIPTOR_STORE:
    case CT_OP_TT_DESCRIPTOR_REDUCE: {
        static const char *const el[] = {"cache", "evict", "kind", NULL};
        bool store = op->code != CT_OP_TT_DESCRIPTOR_LOAD;
        int nidx = op->nopnds - 1 - (store ? 1 : 0);
        put_op_name(p, info);
        P(p, " ");
        if (op->code == CT_OP_TT_DESCRIPTOR_REDUCE)
            Pf(p, "%s, ", attr_word(op, "kind", "?"));
        put_value(p, op->opnds[0]);
        P(p, "[");
        put_values(p, op->opnds + 1, nidx);
        P(p, "]");
        if (store) {
            P(p, ", ");
            put_value(p, op->opnds[op->nopnds - 1]);
            put_op_attrs(p, op, el);
        } else {
            put_hints_and_attrs(p, op, el);
        }
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        if (store) {
            P(p, ", ");
            put_type(p, op->opnds[op->nopnds - 1]->type);
        } else {
            P(p, " -> ");
            put_type(p, op->res[0].type);
        }
        break;
    }
    case CT_OP_TT_DESCRIPTOR_GATHER:
    case CT_OP_TT_DESCRIPTOR_SCATTER: {
        /* $desc[$x_offsets, $y_offset] (, $src)? attr-dict : functional-type | type(operands) */
        bool scatter = op->code == CT_OP_TT_DESCRIPTOR_SCATTER;
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, "[");
        put_values(p, op->opnds + 1, 2);
        P(p, "]");
        if (scatter) {
            P(p, ", ");
            put_value(p, op->opnds[3]);
        }
        put_op_attrs(p, op, NULL);
        if (scatter) {
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        } else {
            P(p, " : (");
            put_types_of(p, op->opnds, op->nopnds);
            P(p, ") -> ");
            put_type(p, op->res[0].type);
        }
        break;
    }
    case CT_OP_TT_UNSPLAT:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    case CT_OP_TT_ADVANCE:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, ", [");
        put_values(p, op->opnds + 1, op->nopnds - 1);
        P(p, "]");
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_stripped_type(p, op->res[0].type);
        break;
    case CT_OP_SCF_FOR: {
        /* scf.for %iv = %lb to %ub step %st iter_args(%a = %x) -> (T)  : i32 { */
        const ct_block *body = op->regions[0].first;
        put_op_name(p, info);
        P(p, " ");
        put_value(p, body->args[0]);
        P(p, " = ");
        put_value(p, op->opnds[0]);
        P(p, " to ");
        put_value(p, op->opnds[1]);
        P(p, " step ");
        put_value(p, op->opnds[2]);
        int ni = op->nopnds - 3;
        if (ni) {
            P(p, " iter_args(");
            for (int i = 0; i < ni; i++) {
                if (i)
                    P(p, ", ");
                put_value(p, body->args[i + 1]);
                P(p, " = ");
                put_value(p, op->opnds[3 + i]);
            }
            P(p, ") -> (");
            for (int i = 0; i < op->nres; i++) {
                if (i)
                    P(p, ", ");
                put_type(p, op->res[i].type);
            }
            P(p, ")");
        }
        if (op->opnds[0]->type->kind != CT_TY_INDEX) {
            P(p, "  : ");
            put_type(p, op->opnds[0]->type);
        }
        P(p, " ");
        print_region(p, &op->regions[0], false, ni > 0);
        put_op_attrs(p, op, NULL);
        break;
    }
    case CT_OP_SCF_IF: {
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        if (op->nres) {
            P(p, " -> (");
            for (int i = 0; i < op->nres; i++) {
                if (i)
                    P(p, ", ");
                put_type(p, op->res[i].type);
            }
            P(p, ")");
        }
        P(p, " ");
        bool terms = op->nres > 0;
        print_region(p, &op->regions[0], false, terms);
        if (op->nregions > 1 && op->regions[1].first) {
            P(p, " else ");
            print_region(p, &op->regions[1], false, terms);
        }
        put_op_attrs(p, op, NULL);
        break;
    }
    case CT_OP_SCF_WHILE: {
        const ct_block *before = op->regions[0].first;
        put_op_name(p, info);
        P(p, " (");
        for (int i = 0; i < op->nopnds; i++) {
            if (i)
                P(p, ", ");
            put_value(p, before->args[i]);
            P(p, " = ");
            put_value(p, op->opnds[i]);
        }
        P(p, ") : (");
        put_types_of(p, op->opnds, op->nopnds);
        P(p, ") -> ");
        if (op->nres == 1) {
            put_type(p, op->res[0].type);
        } else {
            P(p, "(");
            for (int i = 0; i < op->nres; i++) {
                if (i)
                    P(p, ", ");
                put_type(p, op->res[i].type);
            }
            P(p, ")");
        }
        P(p, " ");
        print_region(p, &op->regions[0], false, true);
        P(p, " do ");
        print_region(p, &op->regions[1], true, true);
        if (op->nattrs) {
            P(p, " attributes");
            put_attr_dict(p, op->attrs, op->nattrs, NULL, true);
        }
        break;
    }
    case CT_OP_SCF_CONDITION:
        /* `(` $condition `)` attr-dict ($args^ `:` type($args))? */
        put_op_name(p, info);
        P(p, "(");
        put_value(p, op->opnds[0]);
        P(p, ")");
        put_op_attrs(p, op, NULL);
        if (op->nopnds > 1) {
            P(p, " ");
            put_values(p, op->opnds + 1, op->nopnds - 1);
            P(p, " : ");
            put_types_of(p, op->opnds + 1, op->nopnds - 1);
        }
        break;
    case CT_OP_CF_BR:
        put_op_name(p, info);
        P(p, " ");
        put_succ(p, op, 0, 0);
        break;
    case CT_OP_CF_COND_BR:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, ", ");
        put_succ(p, op, 0, 1);
        P(p, ", ");
        put_succ(p, op, 1, 1 + op->succ_nopnds[0]);
        break;
    case CT_OP_UB_POISON:
        put_op_name(p, info);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_LLVM_ASSUME:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    case CT_OP_GPU_BARRIER:
        put_op_name(p, info);
        put_op_attrs(p, op, NULL);
        break;
    case CT_OP_TTG_BARRIER: {
        /* $addrSpace attr-dict */
        static const char *const el[] = {"addrSpace", NULL};
        put_op_name(p, info);
        P(p, " ");
        P(p, attr_word(op, "addrSpace", "all"));
        put_op_attrs(p, op, el);
        break;
    }
    default:
        print_generic(p, op);
        break;
    }
}

static void print_op(printer *p, const ct_op *op)
{
    if (p->record) {
        if (p->nrec == p->caprec) {
            p->caprec = p->caprec ? p->caprec * 2 : 256;
            p->rec_op = realloc(p->rec_op, sizeof(*p->rec_op) * (size_t)p->caprec);
            p->rec_off = realloc(p->rec_off, sizeof(*p->rec_off) * (size_t)p->caprec);
        }
        p->rec_op[p->nrec] = op;
        p->rec_off[p->nrec++] = p->out.len;
    }
    const ct_op_info *info = ct_op_info_of(op->code);
    put_results(p, op);
    switch (info->format) {
    case CT_FMT_BIN:
    case CT_FMT_UN:
    case CT_FMT_TERN:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_FMT_CAST:
    case CT_FMT_ARROW:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, info->format == CT_FMT_CAST ? " to " : " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_FMT_CUSTOM:
        print_custom(p, op);
        break;
    }
    if (op->code != CT_OP_TT_FUNC || true)
        put_trailing_loc(p, op->loc);
}

static void put_alias_defs(printer *p, locent **v, int n, bool deferred)
{
    for (int i = 0; i < n; i++) {
        if (v[i]->deferred != deferred)
            continue;
        put_alias(p, v[i]->loc);
        P(p, " = loc(");
        put_loc_inner(p, v[i]->loc, true);
        P(p, ")\n");
    }
}

/* Output bytes per op to reserve up front (the library's kernels print 50
 * to 60 without locations), so that the text is not copied as it grows. */
#define BYTES_PER_OP 64

static char *print_module(const ct_module *m, unsigned flags, printer *p)
{
    p->flags = flags;
    p->tv = ct_module_triton(m);
    ct_sb_init(&p->out);
    namer_init(&p->nm);
    p->nm.numbered = (flags & CT_PRINT_NUMBERED) != 0;
    for (const ct_op *op = m->body->first; op; op = op->next)
        name_top_op(&p->nm, op);
    ct_sb_reserve(&p->out, (size_t)p->nm.nops * BYTES_PER_OP * ((flags & CT_PRINT_LOCS) ? 2 : 1));
    aliases al = {0};
    locent **order = NULL;
    int nalias = 0;
    if ((flags & CT_PRINT_LOCS) && (flags & CT_PRINT_LOC_ALIASES)) {
        ct_pm_init(&al.canon);
        al_visit(&al, m->loc, true);
        for (const ct_op *op = m->body->first; op; op = op->next)
            al_visit_op(&al, op);
        order = al_number(&al, &nalias);
        p->al = &al;
        put_alias_defs(p, order, nalias, false);
    }
    P(p, "module");
    if (m->nattrs) {
        P(p, " attributes");
        put_attr_dict(p, m->attrs, m->nattrs, NULL, true);
    }
    P(p, " {");
    p->indent = 2;
    for (const ct_op *op = m->body->first; op; op = op->next) {
        nl(p);
        print_op(p, op);
    }
    p->indent = 0;
    nl(p);
    P(p, "}");
    put_trailing_loc(p, m->loc);
    P(p, "\n");
    if (p->al) {
        put_alias_defs(p, order, nalias, true);
        free(order);
        al_free(&al);
        p->al = NULL;
    }
    printer_free(p);
    return ct_sb_take(&p->out);
}

char *ct_print_module(const ct_module *m, unsigned flags)
{
    printer p = {0};
    return print_module(m, flags, &p);
}

char *ct_print_module_lines(const ct_module *m, unsigned flags, const ct_op ***lines, int *nlines)
{
    printer p = {.record = true};
    char *s = print_module(m, flags, &p);
    int n = 1;
    for (const char *c = s; *c; c++)
        n += *c == '\n';
    const ct_op **l = calloc((size_t)n + 1, sizeof(*l));
    /* offsets were recorded in increasing order: one pass maps them to lines */
    int line = 0;
    size_t off = 0;
    for (int k = 0; k < p.nrec; k++) {
        for (; off < p.rec_off[k]; off++)
            line += s[off] == '\n';
        if (!l[line])
            l[line] = p.rec_op[k];
    }
    free(p.rec_op);
    free(p.rec_off);
    *lines = l;
    *nlines = n;
    return s;
}



char *ct_print_op(const ct_op *op, unsigned flags)
{
    /* an op alone: the baseline's spellings (ct_print_module writes the module's) */
    printer p = {.flags = flags, .tv = ct_triton_baseline()};
    ct_sb_init(&p.out);
    namer_init(&p.nm);
    p.nm.numbered = (flags & CT_PRINT_NUMBERED) != 0;
    const ct_op *top = op;
    while (ct_op_parent_op(top))
        top = ct_op_parent_op(top);
    name_top_op(&p.nm, top);
    print_op(&p, op);
    printer_free(&p);
    return ct_sb_take(&p.out);
}

const ct_loc ct_loc_name_hint = {.kind = CT_LOC_UNKNOWN};
