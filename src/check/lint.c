/*
 * lint.c - lints for the classic kernel mistakes (see ctriton/check.h and
 * docs/checks.md), and what the lint passes share.
 *
 * Each lint is a small pass over TTIR, so it runs the same on a kernel
 * built in C and on TTIR parsed from Python's output.  A lint reports at
 * the location of the op at fault, with its id in brackets.  Warnings are
 * almost surely bugs; notes are hazards worth a look.  A finding can be
 * justified in the kernel's source: a comment "lint-ok: ID reason" on its
 * line (ct_lint_module_ex).
 *
 *   masked-reduce   (warning) a load with a mask and no `other` whose value
 *                   reaches a reduction, scan or dot with no tl.where in
 *                   between: the masked-off lanes are undefined and get
 *                   summed (or maxed) in.
 *   reduce-fill     (warning) a masked load whose `other` reaches a
 *                   reduction unchanged but is not its identity (a sum
 *                   filled with -inf, a max filled with 0).
 *   unused-load     (warning) a load whose value is never used.
 *   div-by-zero     (warning) an integer division or remainder by a
 *                   constant zero (undefined behaviour on the GPU).
 *   atomic-same-address (warning) a tensor atomic whose lanes all aim at
 *                   one address: one lane (a scalar atomic of the reduced
 *                   value) would do, and a splatted value is added per lane.
 *   int32-offset    (note) a pointer offset computed in 32 bits from a
 *                   product of program_id, a loaded value or an argument
 *                   with an argument (a loaded value also with a constant):
 *                   it wraps once the tensor passes 2**31 elements.
 *   tf32-dot        (note) a dot of fp32 inputs in TF32, Triton's default
 *                   on this target: 10 bits of mantissa per product.
 *   store-load, unmasked-dim, lost-update: lint_flow.c.
 */
#include "lint_internal.h"
#include "util/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>
#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Use lists, reporting, justification                                 */
/* ------------------------------------------------------------------ */

lint_uses *lint_uses_of(linter *L, const ct_value *v, bool create)
{
    lint_uses *u = ct_pm_get(&L->users, v);
    if (u || !create)
        return u;
    u = ct_raw_calloc(1, sizeof *u);
    if (!u)
        return NULL;
    if (L->nall == L->call) {
        int ncap = L->call ? 2 * L->call : 64;
        lint_uses **na = ct_raw_realloc(L->all, sizeof *na * (size_t)ncap);
        if (!na) {
            ct_raw_free(u);
            return NULL;
        }
        L->all = na;
        L->call = ncap;
    }
    ct_pm_put(&L->users, v, u);
    L->all[L->nall++] = u;
    return u;
}

int lint_line_of(const ct_op *op)
{
    const ct_loc *l = op && op->loc ? ct_loc_file_of(op->loc) : NULL;
    return l ? l->line : 0;
}

const char *lint_value_name(const ct_value *v)
{
    if (v->def)
        return v->def->loc ? ct_loc_name_of(v->def->loc) : NULL;
    return v->loc ? ct_loc_name_of(v->loc) : NULL;
}

/* The text of a source file named by a location (read once; NULL if unreadable). */
static const char *source_text(linter *L, const char *file)
{
    for (int i = 0; i < L->nsrc; i++)
        if (!strcmp(L->srcfiles[i], file))
            return L->srctexts[i];
    char path[4096];
    const char *root = L->opts->source_root;
    if (file[0] == '/' || !root || !*root)
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s/%s", root, file);
    char *text = ct_read_file(path, NULL); /* NULL when unreadable: no justification */
    char **nf = ct_raw_realloc(L->srcfiles, sizeof *nf * (size_t)(L->nsrc + 1));
    if (nf)
        L->srcfiles = nf;
    char **nt = ct_raw_realloc(L->srctexts, sizeof *nt * (size_t)(L->nsrc + 1));
    if (nt)
        L->srctexts = nt;
    char *name = ct_raw_strdup(file);
    if (!nf || !nt || !name) {
        ct_raw_free(name);
        ct_raw_free(text);
        return NULL;
    }
    L->srcfiles[L->nsrc] = name;
    L->srctexts[L->nsrc++] = text;
    return text;
}

/* Line `line` (1-based) of text, as [*start, *end). */
static bool line_span(const char *text, int line, const char **start, const char **end)
{
    const char *p = text;
    for (int i = 1; i < line && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return false;
    const char *e = strchr(p, '\n');
    *start = p;
    *end = e ? e : p + strlen(p);
    return true;
}

/* Whether [s, e) holds "lint-ok:" followed by a list naming id. */
static bool span_allows(const char *s, const char *e, const char *id)
{
    size_t idn = strlen(id);
    for (const char *p = s; p + 8 <= e; p++) {
        if (strncmp(p, "lint-ok:", 8))
            continue;
        for (const char *q = p + 8;;) {
            while (q < e && (*q == ' ' || *q == ','))
                q++;
            const char *w = q;
            while (q < e && (*q == '-' || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')))
                q++;
            if (q == w)
                break;
            if ((size_t)(q - w) == idn && !strncmp(w, id, idn))
                return true;
            if (q >= e || *q != ',')
                break;
        }
    }
    return false;
}

/* A comment-only line: blank, then // or / * or * or #. */
static bool comment_only(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    return s < e && (*s == '#' || (s + 1 < e && s[0] == '/' && (s[1] == '/' || s[1] == '*')) ||
                     *s == '*');
}

static bool justified_at(linter *L, const ct_op *op, const char *id)
{
    const ct_loc *l = op && op->loc ? ct_loc_file_of(op->loc) : NULL;
    if (!l || !l->file || l->line <= 0)
        return false;
    const char *text = source_text(L, l->file);
    const char *s, *e;
    if (!text || !line_span(text, l->line, &s, &e))
        return false;
    if (span_allows(s, e, id))
        return true;
    /* comment-only lines right above */
    for (int k = l->line - 1; k >= 1 && k >= l->line - 4; k--) {
        if (!line_span(text, k, &s, &e) || !comment_only(s, e))
            return false;
        if (span_allows(s, e, id))
            return true;
    }
    return false;
}

void lint_report(linter *L, ct_severity sev, const char *id, const ct_op *op, const ct_op *cause,
                 const char *fmt, ...)
{
    char msg[1536];
    int n = snprintf(msg, sizeof msg, "[%s] ", id);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    const ct_loc *l = op->loc ? ct_loc_file_of(op->loc) : NULL;
    const char *file = l ? l->file : NULL;
    int line = l ? l->line : 0, col = l ? l->col : 0;
    if (!l) /* no loc(): where the parsed text had the op */
        ct_module_op_position(L->m, op, &file, &line, &col);
    if (L->opts->read_sources && (justified_at(L, op, id) || justified_at(L, cause, id))) {
        L->njustified++;
        if (L->opts->show_justified)
            ct_diag_add(L->d, CT_NOTE, file, line, col, "justified: %s", msg);
        return;
    }
    ct_diag_add(L->d, sev, file, line, col, "%s", msg);
    if (sev == CT_WARNING)
        L->nwarnings++;
}

bool lint_same_value(const ct_value *a, const ct_value *b, int depth)
{
    if (a == b)
        return true;
    if (!a->def || !b->def || depth > 12 || a->index != b->index || a->type != b->type)
        return false;
    const ct_op *x = a->def, *y = b->def;
    if (x->code != y->code || x->nopnds != y->nopnds || x->nregions || y->nregions ||
        !(ct_op_info_of(x->code)->flags & CT_OPF_PURE) || x->nattrs != y->nattrs)
        return false;
    for (int i = 0; i < x->nattrs; i++) {
        const ct_attr *o = ct_op_attr(y, x->attrs[i].name);
        if (!o || !ct_attr_equal(o, x->attrs[i].attr))
            return false;
    }
    for (int i = 0; i < x->nopnds; i++)
        if (!lint_same_value(x->opnds[i], y->opnds[i], depth + 1))
            return false;
    return true;
}

bool lint_const_of(const ct_value *v, double *out)
{
    for (int depth = 0; v->def && depth < 8; depth++) {
        const ct_op *d = v->def;
        if (d->code == CT_OP_TT_SPLAT || d->code == CT_OP_TT_BROADCAST ||
            d->code == CT_OP_TT_EXPAND_DIMS || d->code == CT_OP_TT_RESHAPE) {
            v = d->opnds[0];
            continue;
        }
        if (d->code != CT_OP_ARITH_CONSTANT)
            return false;
        const ct_attr *a = ct_op_attr(d, "value");
        if (!a)
            return false;
        bool is_int = ct_type_is_int(v->type);
        if (a->kind == CT_ATTR_INT || a->kind == CT_ATTR_BOOL)
            *out = (double)a->i;
        else if (a->kind == CT_ATTR_FLOAT)
            *out = a->f;
        else if (a->kind == CT_ATTR_DENSE && a->n == 1 && is_int && a->ivals)
            *out = (double)a->ivals[0];
        else if (a->kind == CT_ATTR_DENSE && a->n == 1 && a->fvals)
            *out = a->fvals[0];
        else
            return false;
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------ */
/* Use lists                                                           */
/* ------------------------------------------------------------------ */

static bool collect_uses(ct_op *op, void *ud)
{
    linter *L = ud;
    for (int i = 0; i < op->nopnds; i++) {
        lint_uses *u = lint_uses_of(L, op->opnds[i], true);
        if (!u)
            continue;
        if (u->n == u->cap) {
            u->cap = u->cap ? 2 * u->cap : 4;
            u->ops = ct_raw_realloc(u->ops, sizeof *u->ops * (size_t)u->cap);
            u->slots = ct_raw_realloc(u->slots, sizeof *u->slots * (size_t)u->cap);
        }
        u->ops[u->n] = op;
        u->slots[u->n++] = i;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* masked-reduce                                                       */
/* ------------------------------------------------------------------ */

/* Ops through which undefined lanes flow unchanged into the result: the
 * elementwise and data-moving ops of the op table (its ELEM and MOVE traits),
 * except a select (tl.where is what makes the lanes defined), opaque inline
 * asm, and what turns them into pointers or back. */
static bool propagates(const ct_op *op)
{
    if (op->nres != 1 || op->nregions || ct_type_is_ptr(op->res[0].type))
        return false; /* ops of one value */
    if (op->code == CT_OP_ARITH_SELECT || op->code == CT_OP_TT_INLINE_ASM)
        return false;
    for (int i = 0; i < op->nopnds; i++)
        if (ct_type_is_ptr(op->opnds[i]->type))
            return false;
    return (ct_op_info_of(op->code)->flags & (CT_OPF_ELEM | CT_OPF_MOVE)) != 0;
}

/* Follows the value of a masked load; returns the first reduction, scan
 * or dot it reaches without a select in between (or the call of a @jit
 * function, tl.sum and friends included, in which it does), or NULL. */
static const ct_op *reaches_reduction(linter *L, const ct_value *start, int depth)
{
    const ct_value *stack[256];
    int sp = 0, visited = 0;
    stack[sp++] = start;
    while (sp && visited < 4096) {
        const ct_value *v = stack[--sp];
        visited++;
        lint_uses *u = lint_uses_of(L, v, false);
        for (int i = 0; u && i < u->n; i++) {
            const ct_op *op = u->ops[i];
            switch (op->code) {
            case CT_OP_TT_REDUCE: case CT_OP_TT_SCAN:
                return op;
            case CT_OP_TT_DOT:
                if (u->slots[i] < 2)
                    return op;
                break;
            case CT_OP_ARITH_SELECT:
                break; /* tl.where: the author chose the masked-off values */
            case CT_OP_TT_CALL: {
                const ct_attr *c = ct_op_attr(op, "callee");
                const ct_op *f = c && c->kind == CT_ATTR_SYMREF && depth < 8
                                     ? ct_module_lookup_func(L->m, c->s) : NULL;
                const ct_block *entry = f ? ct_func_entry(f) : NULL;
                if (entry && u->slots[i] < entry->nargs &&
                    reaches_reduction(L, entry->args[u->slots[i]], depth + 1))
                    return op;
                break;
            }
            default:
                if (propagates(op) && sp < 256)
                    stack[sp++] = &op->res[0];
                break;
            }
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* reduce-fill                                                         */
/* ------------------------------------------------------------------ */

/* What a reduction combines with: its region's one op, through the @jit
 * combine function Python calls (tl.sum's _sum_combine, tl.max's
 * _elementwise_max and its maximum); -1 when it is something else. */
static int combine_code(const ct_module *m, const ct_value *v, int depth)
{
    const ct_op *d = v->def;
    if (!d || depth > 6)
        return -1;
    if (d->code == CT_OP_TT_CALL) {
        const ct_attr *c = ct_op_attr(d, "callee");
        const ct_op *f = c && c->kind == CT_ATTR_SYMREF ? ct_module_lookup_func(m, c->s) : NULL;
        const ct_block *entry = f ? ct_func_entry(f) : NULL;
        const ct_op *ret = entry ? ct_block_terminator(entry) : NULL;
        return ret && ret->code == CT_OP_TT_RETURN && ct_op_count(ret, "srcs") == 1
                   ? combine_code(m, ret->opnds[0], depth + 1)
                   : -1;
    }
    if (d->code == CT_OP_ARITH_SELECT) /* maximum(a, b) with propagate_nan: the cmp's choice */
        return -1;
    return d->nopnds == 2 ? (int)d->code : -1;
}

/* The identity of a combine op for an element type t; false if none is known. */
static bool identity_ok(int code, const ct_type *t, double c, char *want, size_t cap)
{
    int bits = t->kind == CT_TY_INT ? t->bits : 64;
    double imin = bits >= 64 ? -9223372036854775808.0 : -ldexp(1, bits - 1);
    double imax = bits >= 64 ? 9223372036854775807.0 : ldexp(1, bits - 1) - 1;
    double fmax_ = t->kind == CT_TY_FLOAT ? (t->fk == CT_F16 ? 65504.0 : t->fk == CT_F32 ||
                                             t->fk == CT_BF16 ? 3.3895313892515355e38 : 1.79e308)
                                          : 0;
    switch (code) {
    case CT_OP_ARITH_ADDF: case CT_OP_ARITH_ADDI: case CT_OP_ARITH_ORI: case CT_OP_ARITH_XORI:
    case CT_OP_ARITH_MAXUI:
        snprintf(want, cap, "0");
        return c == 0;
    case CT_OP_ARITH_MULF: case CT_OP_ARITH_MULI:
        snprintf(want, cap, "1");
        return c == 1;
    case CT_OP_ARITH_MAXNUMF: case CT_OP_ARITH_MAXIMUMF:
        snprintf(want, cap, "-inf");
        return c == -INFINITY || c <= -fmax_;
    case CT_OP_ARITH_MINNUMF: case CT_OP_ARITH_MINIMUMF:
        snprintf(want, cap, "inf");
        return c == INFINITY || c >= fmax_;
    case CT_OP_ARITH_MAXSI:
        snprintf(want, cap, "the lowest i%d, %.0f", bits, imin);
        return c <= imin;
    case CT_OP_ARITH_MINSI:
        snprintf(want, cap, "the largest i%d, %.0f", bits, imax);
        return c >= imax;
    case CT_OP_ARITH_MINUI: case CT_OP_ARITH_ANDI:
        snprintf(want, cap, "-1 (all ones)");
        return c == -1;
    default:
        return true; /* not a combine we know the identity of */
    }
}

static const char *combine_name(int code)
{
    switch (code) {
    case CT_OP_ARITH_ADDF: case CT_OP_ARITH_ADDI: return "sum";
    case CT_OP_ARITH_MULF: case CT_OP_ARITH_MULI: return "product";
    case CT_OP_ARITH_MAXNUMF: case CT_OP_ARITH_MAXIMUMF: case CT_OP_ARITH_MAXSI:
    case CT_OP_ARITH_MAXUI: return "max";
    case CT_OP_ARITH_MINNUMF: case CT_OP_ARITH_MINIMUMF: case CT_OP_ARITH_MINSI:
    case CT_OP_ARITH_MINUI: return "min";
    default: return "reduction";
    }
}

/* Ops that carry a fill value unchanged: data movement and value-keeping casts. */
static bool keeps_fill(const ct_op *op)
{
    switch (op->code) {
    case CT_OP_TT_BROADCAST: case CT_OP_TT_EXPAND_DIMS: case CT_OP_TT_RESHAPE:
    case CT_OP_TT_TRANS: case CT_OP_TT_SPLAT: case CT_OP_ARITH_EXTF: case CT_OP_ARITH_TRUNCF:
    case CT_OP_ARITH_EXTSI: case CT_OP_ARITH_SITOFP: case CT_OP_TT_FP_TO_FP:
        return true;
    default:
        return false;
    }
}

/* The first single-operand reduction v reaches through fill-keeping ops and
 * @jit calls (tl.sum is one), with its combine op in *code. */
static const ct_op *fill_reduction(linter *L, const ct_value *v, int depth, int *code)
{
    lint_uses *u = lint_uses_of(L, v, false);
    for (int i = 0; u && i < u->n && depth < 16; i++) {
        const ct_op *op = u->ops[i];
        if (op->code == CT_OP_TT_REDUCE && ct_op_count(op, "srcs") == 1) {
            const ct_block *b = op->regions[0].first;
            const ct_op *ret = b ? ct_block_terminator(b) : NULL;
            if (ret && ret->nopnds == 1 && (*code = combine_code(L->m, ret->opnds[0], 0)) >= 0)
                return op;
        } else if (op->code == CT_OP_TT_CALL) {
            const ct_attr *c = ct_op_attr(op, "callee");
            const ct_op *f = c && c->kind == CT_ATTR_SYMREF ? ct_module_lookup_func(L->m, c->s) : NULL;
            const ct_block *entry = f ? ct_func_entry(f) : NULL;
            if (entry && u->slots[i] < entry->nargs &&
                fill_reduction(L, entry->args[u->slots[i]], depth + 1, code))
                return op;
        } else if (keeps_fill(op) && op->nres == 1) {
            const ct_op *r = fill_reduction(L, &op->res[0], depth + 1, code);
            if (r)
                return r;
        }
    }
    return NULL;
}

static void check_fill(linter *L, const ct_op *load)
{
    double c;
    int code = -1;
    if (!lint_const_of(ct_op_get(load, "other"), &c))
        return;
    const ct_op *r = fill_reduction(L, &load->res[0], 0, &code);
    if (!r)
        return;
    const ct_type *t = ct_type_scalar(load->res[0].type);
    char want[64];
    if (identity_ok(code, t, c, want, sizeof want))
        return;
    lint_report(L, CT_WARNING, "reduce-fill", load, NULL,
                "this load fills its masked-off lanes with %g, and they reach a %s (%s at line %d) "
                "unchanged: %g is not its identity, so the result depends on the mask; pass "
                "other=%s",
                c, combine_name(code),
                r->code == CT_OP_TT_CALL ? ct_op_attr(r, "callee")->s : ct_op_info_of(r->code)->name,
                lint_line_of(r), c, want);
}

/* ------------------------------------------------------------------ */
/* atomic-same-address                                                 */
/* ------------------------------------------------------------------ */

/* Whether every lane of a tensor holds the same value (a splat of a scalar,
 * a splatted constant, and what data movement, elementwise ops and @jit
 * calls such as tl.zeros make of those). */
static bool uniform_in(const ct_module *m, const ct_value *v, int depth, bool args_uniform)
{
    if (v->type->kind != CT_TY_TENSOR)
        return true;
    const ct_op *d = v->def;
    if (!d)
        return args_uniform; /* inside a callee whose arguments are uniform */
    if (depth > 16)
        return false;
    switch (d->code) {
    case CT_OP_TT_SPLAT:
        return true;
    case CT_OP_ARITH_CONSTANT: {
        const ct_attr *a = ct_op_attr(d, "value");
        return a && a->kind == CT_ATTR_DENSE && a->n == 1;
    }
    case CT_OP_TT_BROADCAST: case CT_OP_TT_EXPAND_DIMS: case CT_OP_TT_RESHAPE: case CT_OP_TT_TRANS:
        return uniform_in(m, d->opnds[0], depth + 1, args_uniform);
    case CT_OP_TT_CALL: {
        /* tl.zeros, tl.full: a @jit function of uniform arguments returning a uniform value */
        for (int i = 0; i < d->nopnds; i++)
            if (!uniform_in(m, d->opnds[i], depth + 1, args_uniform))
                return false;
        const ct_attr *c = ct_op_attr(d, "callee");
        const ct_op *f = c && c->kind == CT_ATTR_SYMREF ? ct_module_lookup_func(m, c->s) : NULL;
        const ct_block *entry = f ? ct_func_entry(f) : NULL;
        const ct_op *ret = entry ? ct_block_terminator(entry) : NULL;
        return ret && ret->code == CT_OP_TT_RETURN && v->index < ret->nopnds &&
               uniform_in(m, ret->opnds[v->index], depth + 1, true);
    }
    default:
        if (!(ct_op_info_of(d->code)->flags & CT_OPF_ELEM) || d->nregions)
            return false;
        for (int i = 0; i < d->nopnds; i++)
            if (!uniform_in(m, d->opnds[i], depth + 1, args_uniform))
                return false;
        return true;
    }
}

static bool uniform(const ct_module *m, const ct_value *v)
{
    return uniform_in(m, v, 0, false);
}

static void check_atomic(linter *L, const ct_op *op)
{
    const ct_value *ptr = op->opnds[0];
    if (ptr->type->kind != CT_TY_TENSOR || !uniform(L->m, ptr))
        return;
    /* a mask that picks lanes (lane == 0) is the author's own choice of one */
    const ct_value *mask = ct_op_get(op, "mask");
    if (mask && !uniform(L->m, mask))
        return;
    const ct_value *val = ct_op_get(op, "val");
    int64_t lanes = ct_type_numel(ptr->type);
    if (uniform(L->m, val))
        lint_report(L, CT_WARNING, "atomic-same-address", op, NULL,
                    "all %lld lanes of this atomic aim at the same address with the same value: "
                    "it is applied %lld times (an add adds it %lld times over); use a scalar "
                    "pointer for one atomic per program",
                    (long long)lanes, (long long)lanes, (long long)lanes);
    else
        lint_report(L, CT_WARNING, "atomic-same-address", op, NULL,
                    "all %lld lanes of this atomic aim at the same address: %lld serialized "
                    "atomics where one would do; reduce the values first (tl.sum, tl.max) and "
                    "make one scalar atomic",
                    (long long)lanes, (long long)lanes);
}

static bool lint_op(ct_op *op, void *ud)
{
    linter *L = ud;
    switch (op->code) {
    case CT_OP_TT_LOAD: {
        lint_uses *u = lint_uses_of(L, &op->res[0], false);
        if (!u || u->n == 0) {
            lint_report(L, CT_WARNING, "unused-load", op, NULL,
                   "the value of this load is never used (Triton removes the load)");
            break;
        }
        if (ct_op_get(op, "mask") && !ct_op_get(op, "other")) {
            const ct_op *r = reaches_reduction(L, &op->res[0], 0);
            if (r && r->code == CT_OP_TT_CALL)
                lint_report(L, CT_WARNING, "masked-reduce", op, NULL,
                       "this load has a mask but no `other`: its masked-off lanes "
                       "are undefined, and they reach a reduction inside `%s`, called at line %d; "
                       "pass `other=` (0 for a sum or a dot, -inf for a max) or select with "
                       "tl.where first",
                       ct_op_attr(r, "callee")->s, lint_line_of(r));
            else if (r)
                lint_report(L, CT_WARNING, "masked-reduce", op, NULL,
                       "this load has a mask but no `other`: its masked-off lanes "
                       "are undefined, and they reach the %s at line %d; pass `other=` (0 for a "
                       "sum or a dot, -inf for a max) or select with tl.where first",
                       ct_op_info_of(r->code)->name, lint_line_of(r));
        } else if (ct_op_get(op, "other")) {
            check_fill(L, op);
        }
        break;
    }
    case CT_OP_TT_ATOMIC_RMW: case CT_OP_TT_ATOMIC_CAS:
        check_atomic(L, op);
        break;
    case CT_OP_ARITH_DIVSI: case CT_OP_ARITH_DIVUI: case CT_OP_ARITH_REMSI:
    case CT_OP_ARITH_REMUI: case CT_OP_ARITH_FLOORDIVSI: case CT_OP_ARITH_CEILDIVSI: {
        const ct_op *c = op->opnds[1]->def;
        const ct_attr *a = c && c->code == CT_OP_ARITH_CONSTANT ? ct_op_attr(c, "value") : NULL;
        bool zero = false;
        if (a && a->kind == CT_ATTR_INT)
            zero = a->i == 0;
        else if (a && a->kind == CT_ATTR_DENSE && a->n == 1 && a->ivals)
            zero = a->ivals[0] == 0;
        if (zero)
            lint_report(L, CT_WARNING, "div-by-zero", op, NULL,
                   "integer %s by a constant zero (undefined on the GPU)",
                   op->code == CT_OP_ARITH_REMSI || op->code == CT_OP_ARITH_REMUI ? "remainder"
                                                                                : "division");
        break;
    }
    case CT_OP_TT_DOT: {
        const ct_type *a = ct_type_scalar(op->opnds[0]->type);
        const ct_attr *p = ct_op_attr(op, "inputPrecision");
        if (a && a->kind == CT_TY_FLOAT && a->fk == CT_F32 &&
            (!p || (p->s && strcmp(p->s, "tf32") == 0)))
            lint_report(L, CT_NOTE, "tf32-dot", op, NULL,
                   "fp32 inputs are multiplied in TF32 here (Triton's default on this "
                   "target, 10-bit mantissas); pass input_precision=\"ieee\" for full fp32 products");
        break;
    }
    default:
        break;
    }
    return true;
}


/* ------------------------------------------------------------------ */
/* int32-offset                                                        */
/* ------------------------------------------------------------------ */

enum { SRC_PID = 1, SRC_ARG = 2, SRC_LOAD = 4, SRC_CONST = 8 };

/* Where an integer value comes from: program ids, function arguments,
 * loaded values, constants other than 0 and +-1 (through arithmetic, casts,
 * splats and broadcasts). */
static unsigned sources(const ct_value *v, int depth)
{
    if (depth > 24)
        return 0;
    if (!v->def) {
        /* an argument of the function's entry block */
        const ct_block *b = v->owner;
        const ct_op *owner = b && b->parent ? b->parent->parent : NULL;
        return owner && owner->code == CT_OP_TT_FUNC ? SRC_ARG : 0;
    }
    const ct_op *d = v->def;
    switch (d->code) {
    case CT_OP_TT_GET_PROGRAM_ID:
        return SRC_PID;
    case CT_OP_TT_LOAD:
        return ct_type_is_int(v->type) ? SRC_LOAD : 0;
    case CT_OP_ARITH_CONSTANT: {
        double c;
        return lint_const_of(v, &c) && (c > 1 || c < -1) ? SRC_CONST : 0;
    }
    case CT_OP_ARITH_ADDI: case CT_OP_ARITH_SUBI: case CT_OP_ARITH_MULI:
    case CT_OP_ARITH_EXTSI: case CT_OP_ARITH_EXTUI: case CT_OP_ARITH_TRUNCI:
    case CT_OP_TT_SPLAT: case CT_OP_TT_BROADCAST: case CT_OP_TT_EXPAND_DIMS: {
        unsigned s = 0;
        for (int i = 0; i < d->nopnds; i++)
            s |= sources(d->opnds[i], depth + 1);
        return s;
    }
    default:
        return 0;
    }
}

/* Whether a 32-bit product of sides with sources a and b can pass 2**31 for
 * sizes the kernel does not see: an index (program id, loaded value,
 * argument) times an argument (a stride, a size), or a loaded index times a
 * constant. */
static bool risky_product(unsigned a, unsigned b)
{
    unsigned idx = SRC_PID | SRC_ARG | SRC_LOAD;
    return ((a & idx) && (b & SRC_ARG)) || ((b & idx) && (a & SRC_ARG)) ||
           ((a & SRC_LOAD) && (b & SRC_CONST)) || ((b & SRC_LOAD) && (a & SRC_CONST));
}

/* The first 32-bit risky product the offset is computed from (widening
 * after the product does not undo its wrap); *a and *b: its sides' sources. */
static const ct_op *narrow_product(const ct_value *v, int depth, unsigned *a, unsigned *b)
{
    if (depth > 24 || !v->def)
        return NULL;
    const ct_op *d = v->def;
    const ct_type *t = ct_type_scalar(v->type);
    if (!t || t->kind != CT_TY_INT)
        return NULL;
    if (d->code == CT_OP_ARITH_MULI && t->bits == 32) {
        *a = sources(d->opnds[0], 0);
        *b = sources(d->opnds[1], 0);
        if (risky_product(*a, *b))
            return d;
    }
    switch (d->code) {
    case CT_OP_ARITH_ADDI: case CT_OP_ARITH_SUBI: case CT_OP_ARITH_MULI:
    case CT_OP_ARITH_EXTSI: case CT_OP_ARITH_EXTUI:
    case CT_OP_TT_SPLAT: case CT_OP_TT_BROADCAST: case CT_OP_TT_EXPAND_DIMS:
        for (int i = 0; i < d->nopnds; i++) {
            const ct_op *r = narrow_product(d->opnds[i], depth + 1, a, b);
            if (r)
                return r;
        }
        return NULL;
    default:
        return NULL;
    }
}

static bool lint_offsets(ct_op *op, void *ud)
{
    linter *L = ud;
    if (op->code != CT_OP_TT_ADDPTR)
        return true;
    unsigned a = 0, b = 0;
    const ct_op *mul = narrow_product(op->opnds[1], 0, &a, &b);
    if (mul && !ct_pm_has(&L->reported, mul)) {
        ct_pm_put(&L->reported, mul, (void *)mul);
        unsigned both = a | b;
        /* name the index side: a loaded value first, then a program id */
        const char *idx = (both & SRC_LOAD) ? "a loaded index"
                          : (both & SRC_PID) ? "program_id" : "an argument";
        const char *by = (both & SRC_LOAD) && !((a & SRC_ARG) || (b & SRC_ARG)) ? "a constant"
                                                                                : "an argument";
        lint_report(L, CT_NOTE, "int32-offset", op, mul,
                    "this pointer offset is computed in 32 bits from %s times %s (line %d); it "
                    "wraps past 2**31 elements: cast to tl.int64 before the multiplication "
                    "(e.g. pid.to(tl.int64) * stride)",
                    idx, by, lint_line_of(mul));
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

bool ct_lint_module_ex(const ct_module *m, ct_lint_opts *o, ct_diags *d)
{
    ct_lint_opts none = {0};
    linter L = {.m = m, .d = d, .opts = o ? o : &none};
    ct_pm_init(&L.users);
    ct_pm_init(&L.reported);
    ct_walk_module((ct_module *)m, collect_uses, &L);
    ct_walk_module((ct_module *)m, lint_op, &L);
    ct_walk_module((ct_module *)m, lint_offsets, &L);
    lint_store_load(&L);
    lint_masks(&L);
    lint_lost_update(&L);
    for (int i = 0; i < L.nall; i++) {
        lint_uses *u = L.all[i];
        ct_raw_free(u->ops);
        ct_raw_free(u->slots);
        ct_raw_free(u);
    }
    ct_raw_free(L.all);
    for (int i = 0; i < L.nsrc; i++) {
        ct_raw_free(L.srcfiles[i]);
        ct_raw_free(L.srctexts[i]);
    }
    ct_raw_free(L.srcfiles);
    ct_raw_free(L.srctexts);
    ct_pm_free(&L.users);
    ct_pm_free(&L.reported);
    if (o)
        o->justified = L.njustified;
    return L.nwarnings == 0;
}

bool ct_lint_module(const ct_module *m, ct_diags *d)
{
    return ct_lint_module_ex(m, NULL, d);
}
