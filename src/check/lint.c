/*
 * lint.c - lints for the classic kernel mistakes (see ctriton/check.h).
 *
 * Each lint is a small pass over TTIR, so it runs the same on a kernel
 * built in C and on TTIR parsed from Python's output.  A lint reports at
 * the location of the op at fault, with its id in brackets.  Warnings are
 * almost surely bugs; notes are hazards worth a look.
 *
 *   masked-reduce   (warning) a load with a mask and no `other` whose value
 *                   reaches a reduction, scan or dot with no tl.where in
 *                   between: the masked-off lanes are undefined and get
 *                   summed (or maxed) in.
 *   unused-load     (warning) a load whose value is never used.
 *   div-by-zero     (warning) an integer division or remainder by a
 *                   constant zero (undefined behaviour on the GPU).
 *   int32-offset    (note) a pointer offset computed in 32 bits from
 *                   program_id times a runtime argument: it wraps once the
 *                   tensor has more than 2**31 elements.
 *   tf32-dot        (note) a dot of fp32 inputs in TF32, Triton's default
 *                   on this target: 10 bits of mantissa per product.
 */
#include "ctriton/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ------------------------------------------------------------------ */
/* Use lists                                                           */
/* ------------------------------------------------------------------ */

typedef struct uses {
    int n, cap;
    const ct_op **ops;
    int *slots;        /* which operand */
} uses;

typedef struct linter {
    const ct_module *m;
    ct_diags *d;
    int nwarnings;
    ct_ptrmap users;   /* ct_value* -> uses* */
    uses **all;        /* every uses record, for freeing */
    int nall, call;
    ct_ptrmap reported; /* int32-offset: products already reported */
} linter;

static uses *uses_of(linter *L, const ct_value *v, bool create)
{
    uses *u = ct_pm_get(&L->users, v);
    if (u || !create)
        return u;
    u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    ct_pm_put(&L->users, v, u);
    if (L->nall == L->call) {
        L->call = L->call ? 2 * L->call : 64;
        uses **na = realloc(L->all, sizeof *na * (size_t)L->call);
        if (!na)
            return u;
        L->all = na;
    }
    L->all[L->nall++] = u;
    return u;
}

static bool collect_uses(ct_op *op, void *ud)
{
    linter *L = ud;
    for (int i = 0; i < op->nopnds; i++) {
        uses *u = uses_of(L, op->opnds[i], true);
        if (!u)
            continue;
        if (u->n == u->cap) {
            u->cap = u->cap ? 2 * u->cap : 4;
            u->ops = realloc(u->ops, sizeof *u->ops * (size_t)u->cap);
            u->slots = realloc(u->slots, sizeof *u->slots * (size_t)u->cap);
        }
        u->ops[u->n] = op;
        u->slots[u->n++] = i;
    }
    return true;
}

static void report(linter *L, ct_severity sev, const ct_op *op, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void report(linter *L, ct_severity sev, const ct_op *op, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const ct_loc *l = op->loc ? ct_loc_file_of(op->loc) : NULL;
    ct_diag_add(L->d, sev, l ? l->file : NULL, l ? l->line : 0, l ? l->col : 0, "%s", msg);
    if (sev == CT_WARNING)
        L->nwarnings++;
}

static int line_of(const ct_op *op)
{
    const ct_loc *l = op->loc ? ct_loc_file_of(op->loc) : NULL;
    return l ? l->line : 0;
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
    if (op->nres != 1 || op->nregions || op->code == CT_OP_ARITH_SELECT ||
        op->code == CT_OP_TT_INLINE_ASM || ct_type_is_ptr(op->res[0].type))
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
        uses *u = uses_of(L, v, false);
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

static bool lint_op(ct_op *op, void *ud)
{
    linter *L = ud;
    switch (op->code) {
    case CT_OP_TT_LOAD: {
        uses *u = uses_of(L, &op->res[0], false);
        if (!u || u->n == 0) {
            report(L, CT_WARNING, op,
                   "[unused-load] the value of this load is never used (Triton removes the load)");
            break;
        }
        if (op->nopnds == 2) { /* a mask and no `other` */
            const ct_op *r = reaches_reduction(L, &op->res[0], 0);
            if (r && r->code == CT_OP_TT_CALL)
                report(L, CT_WARNING, op,
                       "[masked-reduce] this load has a mask but no `other`: its masked-off lanes "
                       "are undefined, and they reach a reduction inside `%s`, called at line %d; "
                       "pass `other=` (0 for a sum or a dot, -inf for a max) or select with "
                       "tl.where first",
                       ct_op_attr(r, "callee")->s, line_of(r));
            else if (r)
                report(L, CT_WARNING, op,
                       "[masked-reduce] this load has a mask but no `other`: its masked-off lanes "
                       "are undefined, and they reach the %s at line %d; pass `other=` (0 for a "
                       "sum or a dot, -inf for a max) or select with tl.where first",
                       ct_op_info_of(r->code)->name, line_of(r));
        }
        break;
    }
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
            report(L, CT_WARNING, op,
                   "[div-by-zero] integer %s by a constant zero (undefined on the GPU)",
                   op->code == CT_OP_ARITH_REMSI || op->code == CT_OP_ARITH_REMUI ? "remainder"
                                                                                : "division");
        break;
    }
    case CT_OP_TT_DOT: {
        const ct_type *a = ct_type_scalar(op->opnds[0]->type);
        const ct_attr *p = ct_op_attr(op, "inputPrecision");
        if (a && a->kind == CT_TY_FLOAT && a->fk == CT_F32 &&
            (!p || (p->s && strcmp(p->s, "tf32") == 0)))
            report(L, CT_NOTE, op,
                   "[tf32-dot] fp32 inputs are multiplied in TF32 here (Triton's default on this "
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

enum { SRC_PID = 1, SRC_ARG = 2 };

/* Where an i32 value comes from: program ids, function arguments (through
 * arithmetic, splats and broadcasts). */
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
    case CT_OP_ARITH_ADDI: case CT_OP_ARITH_SUBI: case CT_OP_ARITH_MULI:
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

/* Does the offset contain a 32-bit product of a program id and an argument? */
static const ct_op *pid_times_arg(const ct_value *v, int depth)
{
    if (depth > 24 || !v->def)
        return NULL;
    const ct_op *d = v->def;
    const ct_type *t = ct_type_scalar(v->type);
    if (!t || t->kind != CT_TY_INT || t->bits != 32)
        return NULL;
    if (d->code == CT_OP_ARITH_MULI) {
        unsigned a = sources(d->opnds[0], 0), b = sources(d->opnds[1], 0);
        if (((a & SRC_PID) && (b & SRC_ARG)) || ((b & SRC_PID) && (a & SRC_ARG)))
            return d;
    }
    switch (d->code) {
    case CT_OP_ARITH_ADDI: case CT_OP_ARITH_SUBI: case CT_OP_ARITH_MULI:
    case CT_OP_TT_SPLAT: case CT_OP_TT_BROADCAST: case CT_OP_TT_EXPAND_DIMS:
        for (int i = 0; i < d->nopnds; i++) {
            const ct_op *r = pid_times_arg(d->opnds[i], depth + 1);
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
    const ct_op *mul = pid_times_arg(op->opnds[1], 0);
    if (mul && !ct_pm_has(&L->reported, mul)) {
        ct_pm_put(&L->reported, mul, (void *)mul);
        report(L, CT_NOTE, op,
               "[int32-offset] this pointer offset is computed in 32 bits from program_id times "
               "an argument (line %d); it wraps for tensors of more than 2**31 elements: cast "
               "to tl.int64 first (e.g. pid.to(tl.int64) * stride)",
               line_of(mul));
    }
    return true;
}

bool ct_lint_module(const ct_module *m, ct_diags *d)
{
    linter L = {.m = m, .d = d};
    ct_pm_init(&L.users);
    ct_pm_init(&L.reported);
    ct_walk_module((ct_module *)m, collect_uses, &L);
    ct_walk_module((ct_module *)m, lint_op, &L);
    ct_walk_module((ct_module *)m, lint_offsets, &L);
    for (int i = 0; i < L.nall; i++) {
        uses *u = L.all[i];
        free(u->ops);
        free(u->slots);
        free(u);
    }
    free(L.all);
    ct_pm_free(&L.users);
    ct_pm_free(&L.reported);
    return L.nwarnings == 0;
}
