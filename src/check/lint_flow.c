/*
 * lint_flow.c - the lints that follow a kernel's memory accesses and
 * control flow (see lint.c for the others).
 *
 *   store-load     (warning) a load that may read what a store of the same
 *                  program wrote through the same pointer argument (other
 *                  offsets, or a later trip of a loop) with no
 *                  tl.debug_barrier() between them: Triton does not order a
 *                  thread's read after another thread's write of the block.
 *   unmasked-dim   (warning) a load, store or atomic whose offsets run over
 *                  a tl.arange the kernel bounds elsewhere (`offs < n`), but
 *                  whose mask is missing or does not test that range: the
 *                  lanes past the bound touch memory past the tensor.
 *   lost-update    (warning) a value computed in a loop or branch from a
 *                  variable of the enclosing code, of the same type, and
 *                  used nowhere: the reassignment of a variable that is not
 *                  carried out (in C: not listed in TL_FOR/TL_WHILE/TL_IF).
 */
#include "lint_internal.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* store-load                                                          */
/* ------------------------------------------------------------------ */

/* The pointer a pointer value is an offset of: a function argument (or the
 * pointer a loop starts from), through addptr, splat, broadcast, reshaping,
 * loop-carried pointers and the results of loops and branches.  Anything
 * else (a loaded pointer, int_to_ptr) is its own base. */
static const ct_value *ptr_base(const ct_value *v)
{
    for (int depth = 0; depth < 64; depth++) {
        const ct_op *d = v->def;
        if (!d) {
            const ct_block *b = v->owner;
            const ct_op *owner = b && b->parent ? b->parent->parent : NULL;
            const ct_value *init = owner && owner->code == CT_OP_SCF_FOR
                                       ? ct_op_get_at(owner, "initArgs", v->index - 1)
                                       : NULL;
            if (init) {
                v = init;
                continue;
            }
            if (owner && owner->code == CT_OP_SCF_WHILE && b == owner->regions[0].first &&
                v->index < owner->nopnds) {
                v = owner->opnds[v->index];
                continue;
            }
            return v;
        }
        switch (d->code) {
        case CT_OP_TT_ADDPTR: case CT_OP_TT_SPLAT: case CT_OP_TT_BROADCAST:
        case CT_OP_TT_EXPAND_DIMS: case CT_OP_TT_RESHAPE: case CT_OP_TT_TRANS:
        case CT_OP_TT_ADVANCE:
            v = d->opnds[0];
            continue;
        case CT_OP_ARITH_SELECT:
            v = d->opnds[1];
            continue;
        case CT_OP_SCF_FOR:
            if (3 + v->index < d->nopnds) {
                v = d->opnds[3 + v->index];
                continue;
            }
            return v;
        case CT_OP_SCF_WHILE:
            if (v->index < d->nopnds) {
                v = d->opnds[v->index];
                continue;
            }
            return v;
        case CT_OP_TT_MAKE_TENSOR_PTR:
            v = d->opnds[0];
            continue;
        default:
            return v;
        }
    }
    return v;
}

typedef struct pending {
    const ct_op **stores;
    int n, cap;
    bool oom;
} pending;

static void pend_add(pending *p, const ct_op *st)
{
    for (int i = 0; i < p->n; i++)
        if (p->stores[i] == st)
            return;
    if (p->n == p->cap) {
        int ncap = p->cap ? 2 * p->cap : 8;
        const ct_op **ns = ct_raw_realloc(p->stores, sizeof *ns * (size_t)ncap);
        if (!ns) {
            p->oom = true;
            return;
        }
        p->stores = ns;
        p->cap = ncap;
    }
    p->stores[p->n++] = st;
}

static void pend_copy(pending *dst, const pending *src)
{
    dst->n = 0;
    for (int i = 0; i < src->n; i++)
        pend_add(dst, src->stores[i]);
}

static void scan_block(linter *L, const ct_block *b, pending *p);

static void scan_region(linter *L, const ct_region *r, pending *p)
{
    for (const ct_block *b = r->first; b; b = b->next)
        scan_block(L, b, p);
}

/* The pointer operand of a memory op (tt.load, tt.store, descriptor ops). */
static const ct_value *mem_ptr(const ct_op *op)
{
    return op->nopnds ? op->opnds[0] : NULL;
}

static void check_load(linter *L, const ct_op *ld, const pending *p)
{
    if (ct_pm_has(&L->reported, ld))
        return;
    const ct_value *lp = mem_ptr(ld), *lb = ptr_base(lp);
    for (int i = 0; i < p->n; i++) {
        const ct_op *st = p->stores[i];
        const ct_value *sp = mem_ptr(st);
        if (ptr_base(sp) != lb || lint_same_value(sp, lp, 0))
            continue;
        ct_pm_put(&L->reported, ld, (void *)ld);
        const char *name = lint_value_name(lb);
        lint_report(L, CT_WARNING, "store-load", ld, st,
                    "this load may read what the store at line %d wrote through the same pointer "
                    "`%s`, and no tl.debug_barrier() separates them: Triton does not order one "
                    "thread's load after another thread's store; put tl.debug_barrier() between "
                    "them (it orders the threads of one program, not separate programs)",
                    lint_line_of(st), name ? name : "?");
        return;
    }
}

static void scan_block(linter *L, const ct_block *b, pending *p)
{
    for (const ct_op *op = b->first; op; op = op->next) {
        switch (op->code) {
        case CT_OP_TT_STORE: case CT_OP_TT_DESCRIPTOR_STORE:
            pend_add(p, op);
            break;
        case CT_OP_TT_LOAD: case CT_OP_TT_DESCRIPTOR_LOAD:
            check_load(L, op, p);
            break;
        case CT_OP_GPU_BARRIER: case CT_OP_TTG_BARRIER:
            p->n = 0;
            break;
        case CT_OP_SCF_FOR: case CT_OP_SCF_WHILE:
            /* twice: what a trip stores, the next trip's loads may read */
            for (int trip = 0; trip < 2; trip++)
                for (int r = 0; r < op->nregions; r++)
                    scan_region(L, &op->regions[r], p);
            break;
        case CT_OP_SCF_IF: {
            pending other = {0};
            pend_copy(&other, p);
            scan_region(L, &op->regions[0], p);
            for (int r = 1; r < op->nregions; r++) /* the else region */
                scan_region(L, &op->regions[r], &other);
            for (int i = 0; i < other.n; i++)
                pend_add(p, other.stores[i]);
            ct_raw_free(other.stores);
            break;
        }
        default:
            break;
        }
    }
}

void lint_store_load(linter *L)
{
    for (const ct_op *f = L->m->body->first; f; f = f->next) {
        if (f->code != CT_OP_TT_FUNC || !f->nregions)
            continue;
        pending p = {0};
        scan_region(L, &f->regions[0], &p);
        ct_raw_free(p.stores);
    }
}

/* ------------------------------------------------------------------ */
/* unmasked-dim                                                        */
/* ------------------------------------------------------------------ */

/* A small set of tt.make_range ops, each with the dimension of the tensor
 * at hand it runs along (-1: unknown, after a reshape). */
typedef struct ranges {
    const ct_op *r[16];
    int dim[16];
    int n;
} ranges;

static void ranges_add(ranges *s, const ct_op *r, int dim)
{
    for (int i = 0; i < s->n; i++)
        if (s->r[i] == r && s->dim[i] == dim)
            return;
    if (s->n < 16) {
        s->r[s->n] = r;
        s->dim[s->n++] = dim;
    }
}

/* The ranges of an operand, in the coordinates of the op's result: an
 * expand_dims inserts a dimension, a trans permutes them, a reshape loses
 * track. */
static void ranges_lift(const ct_op *d, const ranges *in, ranges *out)
{
    const ct_attr *ax = d->code == CT_OP_TT_EXPAND_DIMS ? ct_op_attr(d, "axis") : NULL;
    const ct_attr *order = d->code == CT_OP_TT_TRANS ? ct_op_attr(d, "order") : NULL;
    for (int i = 0; i < in->n; i++) {
        int dim = in->dim[i];
        if (ax && ax->kind == CT_ATTR_INT && dim >= 0)
            dim = dim >= ax->i ? dim + 1 : dim;
        else if (d->code == CT_OP_TT_EXPAND_DIMS || d->code == CT_OP_TT_RESHAPE)
            dim = -1;
        else if (d->code == CT_OP_TT_TRANS) {
            int to = -1;
            for (int k = 0; order && order->ivals && k < order->n; k++)
                if (order->ivals[k] == dim)
                    to = k;
            dim = to;
        }
        ranges_add(out, in->r[i], dim);
    }
}

/* The aranges an index (or pointer) runs over: through the integer
 * arithmetic, casts, data movement and addptr that keep it an index; not
 * through what bounds it (%, min, max, where), and not into loads.  A
 * loop-carried value runs over what it starts from.  With `mask`, through
 * every op but loads, calls and ops with regions (a mask's comparisons). */
static void walk_ranges(const ct_value *v, ranges *out, int depth, bool mask)
{
    if (depth > 32)
        return;
    const ct_op *d = v->def;
    if (!d) {
        const ct_block *b = v->owner;
        const ct_op *owner = b && b->parent ? b->parent->parent : NULL;
        const ct_value *init = owner && owner->code == CT_OP_SCF_FOR
                                   ? ct_op_get_at(owner, "initArgs", v->index - 1)
                                   : NULL;
        if (init)
            walk_ranges(init, out, depth + 1, mask);
        return;
    }
    bool through;
    switch (d->code) {
    case CT_OP_TT_MAKE_RANGE:
        ranges_add(out, d, 0);
        return;
    case CT_OP_SCF_FOR:
        if (3 + v->index < d->nopnds)
            walk_ranges(d->opnds[3 + v->index], out, depth + 1, mask);
        return;
    case CT_OP_ARITH_ADDI: case CT_OP_ARITH_SUBI: case CT_OP_ARITH_MULI:
    case CT_OP_ARITH_EXTSI: case CT_OP_ARITH_EXTUI: case CT_OP_ARITH_TRUNCI:
    case CT_OP_ARITH_SHLI: case CT_OP_TT_SPLAT: case CT_OP_TT_BROADCAST:
    case CT_OP_TT_EXPAND_DIMS: case CT_OP_TT_RESHAPE: case CT_OP_TT_TRANS:
    case CT_OP_TT_ADDPTR:
        through = true;
        break;
    default:
        through = mask && !d->nregions && d->code != CT_OP_TT_LOAD && d->code != CT_OP_TT_CALL;
        break;
    }
    if (!through)
        return;
    for (int i = 0; i < d->nopnds; i++) {
        ranges sub = {0};
        walk_ranges(d->opnds[i], &sub, depth + 1, mask);
        ranges_lift(d, &sub, out);
    }
}

static void index_ranges(const ct_value *v, ranges *out, int depth)
{
    walk_ranges(v, out, depth, false);
}

typedef struct bound {
    const ct_op *range, *cmp;
} bound;

typedef struct mask_lint {
    linter *L;
    bound *b;
    int n, cap;
} mask_lint;

/* The mask operand of a load, store or atomic, or -1 when the op has none. */
static int mask_slot(const ct_op *op)
{
    switch (op->code) {
    case CT_OP_TT_LOAD: return 1;
    case CT_OP_TT_STORE: case CT_OP_TT_ATOMIC_RMW: return 2;
    default: return -1;
    }
}

static void add_bound(mask_lint *M, const ct_op *range, const ct_op *cmp)
{
    for (int i = 0; i < M->n; i++)
        if (M->b[i].range == range)
            return;
    if (M->n == M->cap) {
        int ncap = M->cap ? 2 * M->cap : 16;
        bound *nb = ct_raw_realloc(M->b, sizeof *nb * (size_t)ncap);
        if (!nb)
            return;
        M->b = nb;
        M->cap = ncap;
    }
    M->b[M->n++] = (bound){range, cmp};
}

/* The comparisons a mask is made of (through and, or, and data movement):
 * for each, when one side runs over aranges and the other over none (a
 * size, a constant, a loop's remaining length), those aranges are bounded. */
static void mask_bounds(mask_lint *M, const ct_value *v, int depth)
{
    const ct_op *d = v->def;
    if (!d || depth > 16)
        return;
    switch (d->code) {
    case CT_OP_ARITH_CMPI: {
        /* an ordering (slt, ule, ...), not eq/ne: `offs == 0` picks a lane, bounds nothing */
        if (ct_op_enum(d, "predicate", 0) < 2)
            return;
        ranges a = {0}, b = {0};
        index_ranges(d->opnds[0], &a, 0);
        index_ranges(d->opnds[1], &b, 0);
        ranges *r = a.n && !b.n ? &a : b.n && !a.n ? &b : NULL;
        for (int i = 0; r && i < r->n; i++)
            add_bound(M, r->r[i], d);
        return;
    }
    case CT_OP_ARITH_ANDI: case CT_OP_ARITH_ORI: case CT_OP_TT_BROADCAST:
    case CT_OP_TT_EXPAND_DIMS: case CT_OP_TT_SPLAT: case CT_OP_TT_RESHAPE: case CT_OP_TT_TRANS:
        for (int i = 0; i < d->nopnds; i++)
            mask_bounds(M, d->opnds[i], depth + 1);
        return;
    default:
        return;
    }
}

/* The bounds the kernel states in the masks of its memory ops. */
static bool find_bounds(ct_op *op, void *ud)
{
    int slot = mask_slot(op);
    if (slot >= 0 && op->nopnds > slot)
        mask_bounds(ud, op->opnds[slot], 0);
    return true;
}

/* Whether two aranges are the same range of the same function (a kernel
 * may call tl.arange(0, B) once for the offsets and again for the mask). */
static bool same_range(const ct_op *a, const ct_op *b)
{
    return a == b || (ct_op_parent_func(a) == ct_op_parent_func(b) &&
                      lint_same_value(&a->res[0], &b->res[0], 0));
}

static bool check_mask(ct_op *op, void *ud)
{
    mask_lint *M = ud;
    int slot = mask_slot(op);
    if (slot < 0)
        return true;
    const ct_type *pt = op->opnds[0]->type;
    if (pt->kind != CT_TY_TENSOR || !ct_type_is_ptr(pt))
        return true; /* scalars, block pointers (boundary_check) */
    ranges idx = {0}, tested = {0};
    index_ranges(op->opnds[0], &idx, 0);
    const ct_value *mask = op->nopnds > slot ? op->opnds[slot] : NULL;
    double c;
    if (mask && lint_const_of(mask, &c) && c != 0)
        mask = NULL; /* an all-true mask (atomics always carry one) */
    if (mask)
        walk_ranges(mask, &tested, 0, true);
    for (int i = 0; i < idx.n; i++) {
        bool covered = false;
        for (int k = 0; k < tested.n && !covered; k++)
            covered = same_range(tested.r[k], idx.r[i]) &&
                      (tested.dim[k] == idx.dim[i] || tested.dim[k] < 0 || idx.dim[i] < 0);
        if (covered)
            continue;
        const ct_op *cmp = NULL;
        for (int k = 0; k < M->n && !cmp; k++)
            if (same_range(M->b[k].range, idx.r[i]))
                cmp = M->b[k].cmp;
        if (!cmp)
            continue;
        const char *what = op->code == CT_OP_TT_LOAD ? "load" : op->code == CT_OP_TT_STORE ? "store"
                                                                                         : "atomic";
        if (!mask)
            lint_report(M->L, CT_WARNING, "unmasked-dim", op, cmp,
                        "this %s has no mask, but its offsets run over the tl.arange of line %d, "
                        "which the comparison at line %d bounds: the lanes past the bound reach "
                        "past the tensor; pass the mask (mask=...)",
                        what, lint_line_of(idx.r[i]), lint_line_of(cmp));
        else
            lint_report(M->L, CT_WARNING, "unmasked-dim", op, cmp,
                        "the mask of this %s does not test the tl.arange of line %d its offsets "
                        "run over, which the comparison at line %d bounds: the lanes past that "
                        "bound reach past the tensor; add that comparison to the mask (&)",
                        what, lint_line_of(idx.r[i]), lint_line_of(cmp));
        break;
    }
    return true;
}

void lint_masks(linter *L)
{
    mask_lint M = {.L = L};
    ct_walk_module((ct_module *)L->m, find_bounds, &M);
    if (M.n)
        ct_walk_module((ct_module *)L->m, check_mask, &M);
    ct_raw_free(M.b);
}

/* ------------------------------------------------------------------ */
/* lost-update                                                         */
/* ------------------------------------------------------------------ */

/* The innermost runtime loop or branch op enclosing op, within its function. */
static const ct_op *control_parent(const ct_op *op)
{
    for (const ct_op *p = ct_op_parent_op(op); p && p->code != CT_OP_TT_FUNC; p = ct_op_parent_op(p))
        if (p->code == CT_OP_SCF_FOR || p->code == CT_OP_SCF_WHILE || p->code == CT_OP_SCF_IF)
            return p;
    return NULL;
}

/* Whether the value is defined outside `ctl` (not in any of its regions). */
static bool defined_outside(const ct_value *v, const ct_op *ctl)
{
    const ct_block *b = v->def ? v->def->parent : v->owner;
    while (b) {
        const ct_op *owner = b->parent ? b->parent->parent : NULL;
        if (owner == ctl)
            return false;
        b = owner ? owner->parent : NULL;
    }
    return true;
}

static bool check_lost(ct_op *op, void *ud)
{
    linter *L = ud;
    if (op->nres != 1 || op->nregions || !(ct_op_info_of(op->code)->flags & CT_OPF_PURE))
        return true; /* pure ops of one value */
    if (op->code == CT_OP_ARITH_CONSTANT || op->code == CT_OP_TT_MAKE_RANGE)
        return true;
    lint_uses *u = lint_uses_of(L, &op->res[0], false);
    if (u && u->n)
        return true;
    const ct_op *ctl = control_parent(op);
    if (!ctl)
        return true;
    for (int i = 0; i < op->nopnds; i++) {
        const ct_value *v = op->opnds[i];
        if (v->type != op->res[0].type || !defined_outside(v, ctl))
            continue;
        const char *name = lint_value_name(v);
        const char *kind = ctl->code == CT_OP_SCF_IF ? "branch" : "loop";
        const char *mac = ctl->code == CT_OP_SCF_FOR ? "TL_FOR" : ctl->code == CT_OP_SCF_WHILE
                                                                        ? "TL_WHILE" : "TL_IF";
        lint_report(L, CT_WARNING, "lost-update", op, NULL,
                    "this value is computed inside the %s of line %d from %s%s%s defined before "
                    "it, and used nowhere: a reassignment that is not carried out of the %s is "
                    "lost; in C, list the variable in %s(...)",
                    kind, lint_line_of(ctl), name ? "`" : "a value", name ? name : "",
                    name ? "`" : "", kind, mac);
        return true;
    }
    return true;
}

void lint_lost_update(linter *L)
{
    ct_walk_module((ct_module *)L->m, check_lost, L);
}
