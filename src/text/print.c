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
 */
#include "ctriton/text.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "text_internal.h"
#include "util/util.h"

/* ------------------------------------------------------------------ */
/* Naming                                                              */
/* ------------------------------------------------------------------ */

/* Names used in the current scope chain: a hash table whose entries are
 * removed in the reverse order of insertion when a region's scope ends (like
 * MLIR's ScopedHashTable), so a name is visible in nested regions but not in
 * sibling ones. */
typedef struct name_entry {
    struct name_entry *next;
    uint64_t h;
    const char *s;
} name_entry;

#define NAME_BUCKETS 4096

typedef struct counters {
    int value, arg, conflict;
} counters;

typedef struct namer {
    ct_arena *arena;
    ct_ptrmap vnames; /* ct_value* -> name (char*), or (id << 1) | 1 for %id */
    ct_ptrmap bnames; /* ct_block* -> (intptr_t)id + 1 */
    ct_ptrmap groups; /* ct_op* -> (void*)1 when every result is named separately */
    name_entry *buckets[NAME_BUCKETS];
    name_entry **stack;
    size_t nstack, cstack;
} namer;

static uint64_t hash_name(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

static bool name_used(const namer *n, const char *s, size_t len)
{
    uint64_t h = hash_name(s, len);
    for (const name_entry *e = n->buckets[h % NAME_BUCKETS]; e; e = e->next)
        if (e->h == h && strlen(e->s) == len && !memcmp(e->s, s, len))
            return true;
    return false;
}

static const char *name_add(namer *n, const char *s, size_t len)
{
    uint64_t h = hash_name(s, len);
    name_entry *e = ct_arena_alloc(n->arena, sizeof *e);
    e->h = h;
    e->s = ct_arena_strndup(n->arena, s, len);
    e->next = n->buckets[h % NAME_BUCKETS];
    n->buckets[h % NAME_BUCKETS] = e;
    if (n->nstack == n->cstack) {
        n->cstack = n->cstack ? n->cstack * 2 : 256;
        n->stack = realloc(n->stack, sizeof(*n->stack) * n->cstack);
    }
    n->stack[n->nstack++] = e;
    return e->s;
}

static void scope_pop(namer *n, size_t mark)
{
    while (n->nstack > mark) {
        name_entry *e = n->stack[--n->nstack];
        n->buckets[e->h % NAME_BUCKETS] = e->next; /* always the head: LIFO */
    }
}

static bool is_id_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == '-';
}

static const char *unique_name(namer *n, counters *c, const char *want)
{
    /* MLIR's sanitizeIdentifier, then _N suffixes until unused */
    char buf[512];
    size_t len = 0;
    if (isdigit((unsigned char)want[0]))
        buf[len++] = '_';
    for (const char *q = want; *q && len < sizeof buf - 24; q++)
        buf[len++] = is_id_char(*q) ? *q : '_';
    if (!name_used(n, buf, len))
        return name_add(n, buf, len);
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
        if (!name_used(n, buf, l2))
            return name_add(n, buf, l2);
    }
}

static void set_name(namer *n, counters *c, const ct_value *v, const char *want)
{
    if (!want || !*want) {
        ct_pm_put(&n->vnames, v, (void *)(((intptr_t)c->value++ << 1) | 1));
        return;
    }
    ct_pm_put(&n->vnames, v, (void *)unique_name(n, c, want));
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
            snprintf(out, cap, "%s", v->i ? "true" : "false");
        } else {
            /* c<value>_i<bits>, without printf: this runs for every constant */
            char tmp[48];
            int k = 48;
            int b = t->bits;
            do {
                tmp[--k] = (char)('0' + b % 10);
                b /= 10;
            } while (b);
            tmp[--k] = 'i';
            tmp[--k] = '_';
            uint64_t u = v->i < 0 ? 0 - (uint64_t)v->i : (uint64_t)v->i;
            do {
                tmp[--k] = (char)('0' + u % 10);
                u /= 10;
            } while (u);
            if (v->i < 0)
                tmp[--k] = '-';
            tmp[--k] = 'c';
            size_t n = (size_t)(48 - k);
            if (n >= cap)
                n = cap - 1;
            memcpy(out, tmp + k, n);
            out[n] = 0;
        }
        return true;
    }
    if (v && v->kind == CT_ATTR_INT && t->kind == CT_TY_INDEX) {
        snprintf(out, cap, "c%" PRId64, v->i);
        return true;
    }
    if (v && v->kind == CT_ATTR_BOOL) {
        snprintf(out, cap, "%s", v->i ? "true" : "false");
        return true;
    }
    snprintf(out, cap, "cst");
    return true;
}

static void number_op(namer *n, counters *c, const ct_op *op)
{
    if (op->nres == 0)
        return;
    const char *nl = ct_loc_name_of(op->loc);
    if (nl) {
        set_name(n, c, &op->res[0], nl);
        return;
    }
    if (op->code == CT_OP_TT_SPLIT && op->nres == 2) {
        set_name(n, c, &op->res[0], "outLHS");
        set_name(n, c, &op->res[1], "outRHS");
        ct_pm_put(&n->groups, op, (void *)1);
        return;
    }
    char buf[64];
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
        const char *nl = ct_loc_name_of(a->loc);
        if (entry) {
            char tmp[24];
            snprintf(tmp, sizeof tmp, "arg%d", c->arg++);
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
}

static void namer_free(namer *n)
{
    ct_arena_free(n->arena);
    free(n->stack);
    ct_pm_free(&n->vnames);
    ct_pm_free(&n->bnames);
    ct_pm_free(&n->groups);
}

/* ------------------------------------------------------------------ */
/* Printer                                                             */
/* ------------------------------------------------------------------ */

typedef struct printer {
    ct_strbuf out;
    namer nm;
    unsigned flags;
    int indent;
    ct_ptrmap tstr; /* ct_type* -> text_piece (in the namer's arena): types recur */
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

static void P(printer *p, const char *s)
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
    text_piece *tp = ct_pm_get(&p->tstr, t);
    if (!tp) {
        char buf[256];
        size_t n = ct_type_str(t, buf, sizeof buf);
        if (n < sizeof buf) {
            tp = piece_new(p->nm.arena, buf, n);
        } else {
            char *c = malloc(n + 1);
            if (!c)
                return;
            ct_type_str(t, c, n + 1);
            tp = piece_new(p->nm.arena, c, n);
            free(c);
        }
        ct_pm_put(&p->tstr, t, tp);
    }
    ct_sb_putn(&p->out, tp->s, tp->n);
}

static void printer_free(printer *p)
{
    ct_pm_free(&p->tstr);
    ct_pm_free(&p->lstr);
    namer_free(&p->nm);
}

/* the name of a value: a string, or a number tagged in the low bit */
static void put_name(printer *p, const void *nm)
{
    ct_sb_putc(&p->out, '%');
    if ((intptr_t)nm & 1)
        ct_sb_putint(&p->out, (long long)((intptr_t)nm >> 1));
    else
        P(p, (const char *)nm);
}

static void put_value(printer *p, const ct_value *v)
{
    const char *name = ct_pm_get(&p->nm.vnames, v);
    if (name && v->def && v->def->nres > 1 && !ct_pm_get(&p->nm.groups, v->def)) {
        /* a result of a multi-result op named as one group: %name#0 */
        put_name(p, name);
        ct_sb_putc(&p->out, '#');
        ct_sb_putint(&p->out, v->index);
        return;
    }
    if (name) {
        put_name(p, name);
        return;
    }
    if (v->def) {
        /* a result of a single-named group: %name#i */
        const char *base = ct_pm_get(&p->nm.vnames, &v->def->res[0]);
        if (base) {
            put_name(p, base);
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
        if (*c == '"' || *c == '\\' || *c < 0x20 || *c >= 0x7f) {
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

static bool bare_symbol(const char *s)
{
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (const char *c = s; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '$' || *c == '.'))
            return false;
    return true;
}

static void put_symbol(printer *p, const char *s)
{
    ct_sb_putc(&p->out, '@');
    if (bare_symbol(s))
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
        Pf(p, "%" PRId64, a->ivals[i]);
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
            Pf(p, "%" PRId64, a->ivals[i]);
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

static bool attr_key_bare(const char *s)
{
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (const char *c = s; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '$' || *c == '.'))
            return false;
    return true;
}

static bool in_list(const char *name, const char *const *list)
{
    for (; list && *list; list++)
        if (!strcmp(*list, name))
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
        if (attr_key_bare(attrs[i].name))
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
    put_attr_dict(p, op->attrs, op->nattrs, elided, true);
}

/* ---- locations ---------------------------------------------------- */

static void put_loc_inner(printer *p, const ct_loc *l)
{
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
            put_loc_inner(p, l->child);
            P(p, ")");
        }
        break;
    case CT_LOC_CALLSITE:
        P(p, "callsite(");
        put_loc_inner(p, l->child);
        P(p, " at ");
        put_loc_inner(p, l->caller);
        P(p, ")");
        break;
    case CT_LOC_FUSED:
        P(p, "fused[");
        for (int i = 0; i < l->nfused; i++) {
            if (i)
                P(p, ", ");
            put_loc_inner(p, l->fused[i]);
        }
        P(p, "]");
        break;
    }
}

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
    put_loc_inner(p, l);
    P(p, ")");
    ct_pm_put(&p->lstr, l, piece_new(p->nm.arena, p->out.s + start, p->out.len - start));
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
                put_trailing_loc(p, b->args[i]->loc);
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
            bool single = true;
            for (int i = 1; i < np; i++)
                if (preds[i] != preds[0])
                    single = false;
            if (single) {
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
    if (ct_pm_get(&p->nm.groups, op)) {
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_value(p, &op->res[i]);
        }
    } else {
        const char *name = ct_pm_get(&p->nm.vnames, &op->res[0]);
        if (name)
            put_name(p, name);
        else
            P(p, "%<<UNKNOWN SSA VALUE>>");
        if (op->nres > 1)
            Pf(p, ":%d", op->nres);
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
    P(p, vis ? vis->s : "public");
    P(p, " ");
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
            put_trailing_loc(p, e->args[i]->loc);
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

static void print_custom(printer *p, const ct_op *op)
{
    const char *name = ct_op_info_of(op->code)->name;
    switch (op->code) {
    case CT_OP_ARITH_CONSTANT: {
        static const char *const el[] = {"value", NULL};
        P(p, name);
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
        Pf(p, "%s %s, ", name, attr_word(op, "predicate", "?"));
        put_values(p, op->opnds, 2);
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    }
    case CT_OP_ARITH_SELECT:
        P(p, name);
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
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
        P(p, name);
        if (op->nopnds) {
            P(p, " ");
            put_values(p, op->opnds, op->nopnds);
            put_op_attrs(p, op, NULL);
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        } else {
            put_op_attrs(p, op, NULL);
        }
        break;
    case CT_OP_TT_CALL: {
        static const char *const el[] = {"callee", NULL};
        P(p, name);
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
        Pf(p, "%s %s", name, attr_word(op, "axis", "x"));
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_MAKE_RANGE:
        P(p, name);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_TRANS:
        P(p, name);
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
        P(p, name);
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
        P(p, name);
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
        P(p, name);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_GATHER:
        P(p, name);
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
        P(p, name);
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
        P(p, name);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        const char *cache = attr_word(op, "cache", NULL);
        const char *evict = attr_word(op, "evict", NULL);
        if (cache)
            Pf(p, " cacheModifier = %s", cache);
        if (evict)
            Pf(p, " evictionPolicy = %s", evict);
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    }
    case CT_OP_TT_ATOMIC_RMW:
    case CT_OP_TT_ATOMIC_CAS: {
        static const char *const el[] = {"atomic_rmw_op", "sem", "scope", NULL};
        P(p, name);
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
        P(p, name);
        P(p, " ");
        put_value(p, op->opnds[0]);
        const char *r = attr_word(op, "rounding", NULL);
        if (r)
            Pf(p, ", rounding = %s", r);
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_CLAMPF: {
        static const char *const el[] = {"propagateNan", NULL};
        P(p, name);
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
        P(p, name);
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
        P(p, name);
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
        P(p, name);
        P(p, " ");
        const ct_attr *s = ct_op_attr(op, "asm_string");
        put_string(p, s ? s->s : "");
        put_op_attrs(p, op, el);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        P(p, " : ");
        put_types_of(p, op->opnds, op->nopnds);
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
        P(p, name);
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
        P(p, name);
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
        static const char *const el[] = {"order", NULL};
        /* $base, [shape], [strides], [offsets] attr-dict : result */
        int rank = (op->nopnds - 1) / 3;
        P(p, name);
        P(p, " ");
        put_value(p, op->opnds[0]);
        for (int g = 0; g < 3; g++) {
            P(p, ", [");
            put_values(p, op->opnds + 1 + g * rank, rank);
            P(p, "]");
        }
        put_op_attrs(p, op, el);
        const ct_attr *o = ct_op_attr(op, "order");
        if (o) {
            /* order is printed in the attr dict by Triton */
            P(p, " {order = ");
            put_attr(p, o, ELIDE_MAY);
            P(p, "}");
        }
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_ADVANCE:
        P(p, name);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, ", [");
        put_values(p, op->opnds + 1, op->nopnds - 1);
        P(p, "]");
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_SCF_FOR: {
        /* scf.for %iv = %lb to %ub step %st iter_args(%a = %x) -> (T)  : i32 { */
        const ct_block *body = op->regions[0].first;
        P(p, name);
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
        P(p, name);
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
        P(p, name);
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
        put_attr_dict(p, op->attrs, op->nattrs, NULL, true);
        break;
    }
    case CT_OP_SCF_CONDITION:
        P(p, name);
        P(p, "(");
        put_value(p, op->opnds[0]);
        P(p, ")");
        if (op->nopnds > 1) {
            P(p, " ");
            put_values(p, op->opnds + 1, op->nopnds - 1);
            P(p, " : ");
            put_types_of(p, op->opnds + 1, op->nopnds - 1);
        }
        put_op_attrs(p, op, NULL);
        break;
    case CT_OP_CF_BR:
        P(p, name);
        P(p, " ");
        put_succ(p, op, 0, 0);
        break;
    case CT_OP_CF_COND_BR:
        P(p, name);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, ", ");
        put_succ(p, op, 0, 1);
        P(p, ", ");
        put_succ(p, op, 1, 1 + op->succ_nopnds[0]);
        break;
    case CT_OP_UB_POISON:
        P(p, name);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_LLVM_ASSUME:
        P(p, name);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    case CT_OP_GPU_BARRIER:
        P(p, name);
        put_op_attrs(p, op, NULL);
        break;
    default:
        print_generic(p, op);
        break;
    }
}

static void print_op(printer *p, const ct_op *op)
{
    const ct_op_info *info = ct_op_info_of(op->code);
    put_results(p, op);
    switch (info->format) {
    case CT_FMT_BIN:
    case CT_FMT_UN:
    case CT_FMT_TERN:
        P(p, info->name);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_FMT_CAST:
    case CT_FMT_ARROW:
        P(p, info->name);
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

char *ct_print_module(const ct_module *m, unsigned flags)
{
    printer p = {.flags = flags};
    ct_sb_init(&p.out);
    namer_init(&p.nm);
    for (const ct_op *op = m->body->first; op; op = op->next)
        name_top_op(&p.nm, op);
    P(&p, "module");
    if (m->nattrs) {
        P(&p, " attributes");
        put_attr_dict(&p, m->attrs, m->nattrs, NULL, true);
    }
    P(&p, " {");
    p.indent = 2;
    for (const ct_op *op = m->body->first; op; op = op->next) {
        nl(&p);
        print_op(&p, op);
    }
    p.indent = 0;
    nl(&p);
    P(&p, "}");
    put_trailing_loc(&p, m->loc);
    P(&p, "\n");
    printer_free(&p);
    return ct_sb_take(&p.out);
}

char *ct_print_op(const ct_op *op, unsigned flags)
{
    printer p = {.flags = flags};
    ct_sb_init(&p.out);
    namer_init(&p.nm);
    const ct_op *top = op;
    while (ct_op_parent_op(top))
        top = ct_op_parent_op(top);
    name_top_op(&p.nm, top);
    print_op(&p, op);
    printer_free(&p);
    return ct_sb_take(&p.out);
}
