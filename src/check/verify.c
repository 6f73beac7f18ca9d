/*
 * verify.c - the structural verifier (see ctriton/check.h).
 *
 * One pass over the module.  For each op: the generic checks (operands are
 * set and visible from the op, terminators end their blocks), then the
 * typing rule of its opcode (one case per op family, in op-table order),
 * then its regions.  Errors are reported at the op's location with the op
 * name first, so that a message reads like MLIR's verifier:
 *
 *   k.ttir:12:5: error: tt.load: result type tensor<64xf16> is not the pointee
 *                of tensor<64x!tt.ptr<f32>>
 *
 * Dominance: a value is visible from an op when it is defined earlier in
 * the same block, is an argument of that block, or is visible from the op
 * that owns the block (walking outwards).  In a region of several blocks
 * (a function lowered to cf.br form) a definition in block A is visible in
 * block B when A dominates B in the region's control-flow graph; the
 * dominator sets are computed once per region (iterative data flow; these
 * regions have a handful of blocks).
 *
 * Positions live in the scratch slots: before its ops are checked, a block's
 * ops get their 1-based position in op->id and a region's blocks their index
 * in block->id (the verifier writes them even though it takes the module as
 * const; nothing else is changed).  Ops linked into a block are numbered
 * before anything in that block is checked, and an op whose parent is the
 * block is linked into it, so a position read for dominance is always fresh.
 */
#include "ctriton/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

typedef struct region_dom {
    int n;                    /* blocks */
    unsigned char *dom;       /* dom[a * n + b]: block a dominates block b */
} region_dom;

typedef struct verifier {
    const ct_module *m;
    ct_diags *d;
    int nerrors;
    ct_ptrmap doms;           /* region -> region_dom*, for multi-block regions */
} verifier;

/* ------------------------------------------------------------------ */
/* Reporting                                                           */
/* ------------------------------------------------------------------ */

static void tstr(const ct_type *t, char *buf, size_t cap)
{
    if (!t)
        snprintf(buf, cap, "<null type>");
    else
        ct_type_str(t, buf, cap);
}

static void err(verifier *v, const ct_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void err(verifier *v, const ct_op *op, const char *fmt, ...)
{
    if (++v->nerrors > CT_VERIFY_MAX_ERRORS)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const ct_loc *l = op && op->loc ? ct_loc_file_of(op->loc) : NULL;
    const char *name = op ? ct_op_info_of(op->code)->name : "module";
    if (v->nerrors == CT_VERIFY_MAX_ERRORS)
        ct_diag_add(v->d, CT_ERROR, l ? l->file : NULL, l ? l->line : 0, l ? l->col : 0,
                    "%s: %s (further verifier errors suppressed)", name, msg);
    else
        ct_diag_add(v->d, CT_ERROR, l ? l->file : NULL, l ? l->line : 0, l ? l->col : 0,
                    "%s: %s", name, msg);
}

/* Shorthands that format one or two types into the message. */
#define T1(t) char t1_[256]; tstr((t), t1_, sizeof t1_)
#define T2(t) char t2_[256]; tstr((t), t2_, sizeof t2_)

/* ------------------------------------------------------------------ */
/* Type predicates                                                     */
/* ------------------------------------------------------------------ */

static bool is_tensor(const ct_type *t) { return t && t->kind == CT_TY_TENSOR; }
static const ct_type *elem(const ct_type *t) { return t && t->kind == CT_TY_TENSOR ? t->elem : t; }

/* ct_type_equal, without the call for the usual case: types of one module
 * are interned, so equal types are mostly the same pointer */
static inline bool type_eq(const ct_type *a, const ct_type *b)
{
    return a == b || ct_type_equal(a, b);
}
static bool elem_int(const ct_type *t) { const ct_type *e = elem(t); return e && e->kind == CT_TY_INT; }
static bool elem_float(const ct_type *t) { const ct_type *e = elem(t); return e && e->kind == CT_TY_FLOAT; }
static bool elem_ptr(const ct_type *t) { const ct_type *e = elem(t); return e && e->kind == CT_TY_PTR; }
static bool elem_i1(const ct_type *t)
{
    const ct_type *e = elem(t);
    return e && e->kind == CT_TY_INT && e->bits == 1;
}
static bool is_int_or_index(const ct_type *t)
{
    return t && (t->kind == CT_TY_INT || t->kind == CT_TY_INDEX);
}

/* Same shape (both scalars, or tensors of equal shape). */
static bool same_shape(const ct_type *a, const ct_type *b)
{
    if (!a || !b)
        return false;
    if (is_tensor(a) != is_tensor(b))
        return false;
    if (!is_tensor(a))
        return true;
    if (a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

/* Storage width of an element type in bits; pointers are 64. */
static int elem_bits(const ct_type *t)
{
    const ct_type *e = elem(t);
    if (!e)
        return 0;
    if (e->kind == CT_TY_PTR)
        return 64;
    if (e->kind == CT_TY_INT || e->kind == CT_TY_FLOAT)
        return e->bits;
    return 0;
}

/* t with the element type replaced by `e`, compared structurally. */
static bool is_shape_of_with_elem(const ct_type *t, const ct_type *shape_of, const ct_type *e)
{
    return same_shape(t, shape_of) && type_eq(elem(t), e);
}

/* ------------------------------------------------------------------ */
/* Dominance                                                           */
/* ------------------------------------------------------------------ */

static int op_pos(const ct_op *op)
{
    return op->id;
}

static int block_index(const ct_block *b)
{
    return b->id;
}

static region_dom *region_doms(verifier *v, const ct_region *r)
{
    region_dom *rd = ct_pm_get(&v->doms, r);
    if (rd)
        return rd;
    int n = ct_region_nblocks(r);
    rd = calloc(1, sizeof *rd);
    rd->n = n;
    rd->dom = malloc((size_t)n * n);
    /* dom[a*n+b]: a dominates b.  Entry: only itself; others: all, then
     * intersect over predecessors until nothing changes. */
    memset(rd->dom, 1, (size_t)n * n);
    for (int a = 1; a < n; a++)
        rd->dom[a * n + 0] = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        int bi = 0;
        for (ct_block *b = r->first; b; b = b->next, bi++) {
            if (bi == 0)
                continue;
            /* new set = {b} U intersection over preds p of dom(p) */
            unsigned char *nw = calloc((size_t)n, 1);
            bool any_pred = false;
            int pi = 0;
            for (ct_block *p = r->first; p; p = p->next, pi++) {
                ct_op *t = ct_block_terminator(p);
                bool is_pred = false;
                for (int s = 0; t && s < t->nsucc; s++)
                    if (t->succ[s] == b)
                        is_pred = true;
                if (!is_pred)
                    continue;
                for (int a = 0; a < n; a++) {
                    unsigned char x = rd->dom[a * n + pi];
                    nw[a] = any_pred ? (nw[a] & x) : x;
                }
                any_pred = true;
            }
            if (!any_pred) /* unreachable: dominated by everything (MLIR skips it) */
                for (int a = 0; a < n; a++)
                    nw[a] = 1;
            nw[bi] = 1;
            for (int a = 0; a < n; a++)
                if (rd->dom[a * n + bi] != nw[a]) {
                    rd->dom[a * n + bi] = nw[a];
                    changed = true;
                }
            free(nw);
        }
    }
    ct_pm_put(&v->doms, r, rd);
    return rd;
}

/* Is `val` visible from `user`? */
static bool visible(verifier *v, const ct_value *val, const ct_op *user)
{
    const ct_block *db = val->def ? val->def->parent : val->owner;
    if (!db)
        return false;
    const ct_op *cur = user;
    while (cur && cur->parent) {
        const ct_block *ub = cur->parent;
        if (ub == db) {
            if (!val->def)
                return true;
            int dp = op_pos(val->def), up = op_pos(cur);
            return dp && up && dp < up;
        }
        if (ub->parent && ub->parent == db->parent && ub->parent->first != ub->parent->last) {
            region_dom *rd = region_doms(v, ub->parent);
            int a = block_index(db), b = block_index(ub);
            if (a >= 0 && b >= 0 && rd->dom[a * rd->n + b])
                return true;
        }
        cur = ub->parent ? ub->parent->parent : NULL;
    }
    return false;
}

/* ------------------------------------------------------------------ */
/* Helpers for the rules                                               */
/* ------------------------------------------------------------------ */

static bool arity(verifier *v, const ct_op *op, int min_opnds, int max_opnds, int nres)
{
    if (op->nopnds < min_opnds || op->nopnds > max_opnds) {
        if (min_opnds == max_opnds)
            err(v, op, "expects %d operand%s, has %d", min_opnds, min_opnds == 1 ? "" : "s",
                op->nopnds);
        else
            err(v, op, "expects %d to %d operands, has %d", min_opnds, max_opnds, op->nopnds);
        return false;
    }
    if (nres >= 0 && op->nres != nres) {
        err(v, op, "expects %d result%s, has %d", nres, nres == 1 ? "" : "s", op->nres);
        return false;
    }
    return true;
}

static const ct_type *opty(const ct_op *op, int i) { return op->opnds[i]->type; }
static const ct_type *resty(const ct_op *op, int i) { return op->res[i].type; }

static bool need_attr(verifier *v, const ct_op *op, const char *name, ct_attr_kind kind)
{
    const ct_attr *a = ct_op_attr(op, name);
    if (!a) {
        err(v, op, "missing attribute '%s'", name);
        return false;
    }
    if (a->kind != kind) {
        err(v, op, "attribute '%s' has the wrong kind", name);
        return false;
    }
    return true;
}

/* All operands and results have one type; `what` names the element rule. */
static void same_types(verifier *v, const ct_op *op)
{
    const ct_type *t = op->nres ? resty(op, 0) : opty(op, 0);
    for (int i = 0; i < op->nopnds; i++)
        if (!type_eq(opty(op, i), t)) {
            T1(opty(op, i)); T2(t);
            err(v, op, "operand %d has type %s, expected %s (all operands and the result share one type)",
                i, t1_, t2_);
            return;
        }
}

typedef enum { EL_ANY, EL_INT, EL_FLOAT } elem_rule;

static void check_elem(verifier *v, const ct_op *op, const ct_type *t, elem_rule r)
{
    if (r == EL_INT && !(elem_int(t) || (elem(t) && elem(t)->kind == CT_TY_INDEX))) {
        T1(t);
        err(v, op, "expects integer operands, got %s", t1_);
    } else if (r == EL_FLOAT && !elem_float(t)) {
        T1(t);
        err(v, op, "expects floating-point operands, got %s", t1_);
    }
}

static elem_rule elementwise_rule(ct_opcode c)
{
    switch (c) {
    case CT_OP_ARITH_ADDF: case CT_OP_ARITH_SUBF: case CT_OP_ARITH_MULF: case CT_OP_ARITH_DIVF:
    case CT_OP_ARITH_REMF: case CT_OP_ARITH_MAXIMUMF: case CT_OP_ARITH_MINIMUMF:
    case CT_OP_ARITH_MAXNUMF: case CT_OP_ARITH_MINNUMF: case CT_OP_ARITH_NEGF:
    case CT_OP_MATH_EXP: case CT_OP_MATH_EXP2: case CT_OP_MATH_LOG: case CT_OP_MATH_LOG2:
    case CT_OP_MATH_SQRT: case CT_OP_MATH_RSQRT: case CT_OP_MATH_ABSF: case CT_OP_MATH_SIN:
    case CT_OP_MATH_COS: case CT_OP_MATH_ERF: case CT_OP_MATH_FLOOR: case CT_OP_MATH_CEIL:
    case CT_OP_MATH_TANH: case CT_OP_MATH_FMA: case CT_OP_TT_PRECISE_SQRT:
    case CT_OP_TT_PRECISE_DIVF:
        return EL_FLOAT;
    case CT_OP_MATH_ABSI: case CT_OP_TT_MULHIUI:
        return EL_INT;
    default:
        return ct_op_info_of(c)->format == CT_FMT_BIN ? EL_INT : EL_ANY;
    }
}

static void check_cast(verifier *v, const ct_op *op)
{
    if (!arity(v, op, 1, 1, 1))
        return;
    const ct_type *a = opty(op, 0), *r = resty(op, 0);
    if (!same_shape(a, r)) {
        T1(a); T2(r);
        err(v, op, "operand %s and result %s differ in shape", t1_, t2_);
        return;
    }
    int ab = elem_bits(a), rb = elem_bits(r);
    bool ai = elem_int(a), ri = elem_int(r), af = elem_float(a), rf = elem_float(r);
    const char *bad = NULL;
    switch (op->code) {
    case CT_OP_ARITH_EXTSI: case CT_OP_ARITH_EXTUI:
        if (!ai || !ri || rb <= ab) bad = "an integer to a wider integer";
        break;
    case CT_OP_ARITH_TRUNCI:
        if (!ai || !ri || rb >= ab) bad = "an integer to a narrower integer";
        break;
    case CT_OP_ARITH_EXTF:
        if (!af || !rf || rb <= ab) bad = "a float to a wider float";
        break;
    case CT_OP_ARITH_TRUNCF:
        if (!af || !rf || rb >= ab) bad = "a float to a narrower float";
        break;
    case CT_OP_ARITH_SITOFP: case CT_OP_ARITH_UITOFP:
        if (!ai || !rf) bad = "an integer to a float";
        break;
    case CT_OP_ARITH_FPTOSI: case CT_OP_ARITH_FPTOUI:
        if (!af || !ri) bad = "a float to an integer";
        break;
    case CT_OP_ARITH_BITCAST:
        if (ab != rb || elem_ptr(a) || elem_ptr(r)) bad = "a value to another of the same width";
        break;
    case CT_OP_ARITH_INDEX_CAST:
        if (!is_int_or_index(elem(a)) || !is_int_or_index(elem(r))) bad = "between index and integer";
        break;
    default:
        break;
    }
    if (bad) {
        T1(a); T2(r);
        err(v, op, "casts %s; cannot cast %s to %s", bad, t1_, t2_);
    }
}

/* tt.load / tt.store / tt.atomic_*: the pointee of `ptr` in its shape. */
static const ct_type *pointee_value_type(const ct_type *ptr, bool *block_ptr)
{
    *block_ptr = false;
    const ct_type *e = elem(ptr);
    if (!e || e->kind != CT_TY_PTR)
        return NULL;
    if (!is_tensor(ptr) && e->elem && e->elem->kind == CT_TY_TENSOR) {
        *block_ptr = true;    /* pointer to a block (tt.make_tensor_ptr) */
        return e->elem;
    }
    return e->elem;
}

static void check_memory(verifier *v, const ct_op *op)
{
    bool is_load = op->code == CT_OP_TT_LOAD;
    if (is_load ? !arity(v, op, 1, 3, 1) : !arity(v, op, 2, 3, 0))
        return;
    const ct_type *p = opty(op, 0);
    bool blockp;
    const ct_type *pe = pointee_value_type(p, &blockp);
    if (!pe) {
        T1(p);
        err(v, op, "operand 0 must be a pointer or a tensor of pointers, got %s", t1_);
        return;
    }
    const ct_type *val = is_load ? resty(op, 0) : opty(op, 1);
    bool ok = blockp ? type_eq(val, pe) : is_shape_of_with_elem(val, p, pe);
    if (!ok) {
        T1(val); T2(p);
        err(v, op, "%s type %s is not the pointee of %s in its shape",
            is_load ? "result" : "stored value", t1_, t2_);
        return;
    }
    int mask_i = is_load ? 1 : 2;
    if (op->nopnds > mask_i) {
        const ct_type *mt = opty(op, mask_i);
        if (!elem_i1(mt) || !same_shape(mt, val)) {
            T1(mt); T2(val);
            err(v, op, "mask %s must be i1 in the shape of %s", t1_, t2_);
        }
    }
    if (is_load && op->nopnds > 2 && !type_eq(opty(op, 2), val)) {
        T1(opty(op, 2)); T2(val);
        err(v, op, "'other' has type %s, expected the result type %s", t1_, t2_);
    }
}

static void check_atomic(verifier *v, const ct_op *op)
{
    bool cas = op->code == CT_OP_TT_ATOMIC_CAS;
    if (!arity(v, op, cas ? 3 : 2, 3, 1))
        return;
    const ct_type *p = opty(op, 0);
    bool blockp;
    const ct_type *pe = pointee_value_type(p, &blockp);
    if (!pe || blockp) {
        T1(p);
        err(v, op, "operand 0 must be a pointer or a tensor of pointers, got %s", t1_);
        return;
    }
    const ct_type *val = opty(op, cas ? 2 : 1);
    if (!is_shape_of_with_elem(val, p, pe) || !type_eq(resty(op, 0), val)) {
        T1(val); T2(p);
        err(v, op, "value type %s is not the pointee of %s in its shape, or the result differs",
            t1_, t2_);
        return;
    }
    if (cas && !type_eq(opty(op, 1), val))
        err(v, op, "compare value and new value differ in type");
    if (!cas && op->nopnds == 3 && (!elem_i1(opty(op, 2)) || !same_shape(opty(op, 2), val)))
        err(v, op, "mask must be i1 in the shape of the value");
    if (!cas)
        need_attr(v, op, "atomic_rmw_op", CT_ATTR_ENUM);
}

static void check_dot(verifier *v, const ct_op *op)
{
    if (!arity(v, op, 3, 3, 1))
        return;
    const ct_type *a = opty(op, 0), *b = opty(op, 1), *c = opty(op, 2), *r = resty(op, 0);
    if (!is_tensor(a) || !is_tensor(b) || !is_tensor(c) || a->rank < 2 || a->rank > 3 ||
        b->rank != a->rank || c->rank != a->rank) {
        err(v, op, "operands must be tensors of rank 2 (or 3, batched) alike");
        return;
    }
    int k = a->rank;
    bool batch_ok = k == 2 || (a->shape[0] == b->shape[0] && a->shape[0] == c->shape[0]);
    if (a->shape[k - 1] != b->shape[k - 2] || c->shape[k - 2] != a->shape[k - 2] ||
        c->shape[k - 1] != b->shape[k - 1] || !batch_ok) {
        T1(a); T2(b);
        err(v, op, "shapes do not compose: %s times %s", t1_, t2_);
        return;
    }
    if (!type_eq(r, c)) {
        T1(r); T2(c);
        err(v, op, "result type %s differs from the accumulator type %s", t1_, t2_);
    }
    if (!type_eq(elem(a), elem(b)) && !(elem_float(a) && elem_float(b) &&
                                              elem_bits(a) == 8 && elem_bits(b) == 8)) {
        T1(a); T2(b);
        err(v, op, "operand element types differ: %s and %s", t1_, t2_);
    }
}

/* The block of a single-block region, checked to take `n` arguments of the given types. */
static const ct_block *region_block(verifier *v, const ct_op *op, int ri, const char *what)
{
    const ct_region *r = ct_op_region(op, ri);
    if (!r || ct_region_empty(r)) {
        err(v, op, "%s region is empty", what);
        return NULL;
    }
    if (r->first != r->last) {
        err(v, op, "%s region must have exactly one block", what);
        return NULL;
    }
    return r->first;
}

static void check_arg_types(verifier *v, const ct_op *op, const ct_block *b, int n,
                            const ct_type *(*want)(const ct_op *, int, void *), void *ud,
                            const char *what)
{
    if (b->nargs != n) {
        err(v, op, "%s block takes %d arguments, expected %d", what, b->nargs, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const ct_type *w = want(op, i, ud);
        if (!type_eq(b->args[i]->type, w)) {
            T1(b->args[i]->type); T2(w);
            err(v, op, "%s block argument %d has type %s, expected %s", what, i, t1_, t2_);
            return;
        }
    }
}

/* Terminator operand types against a list of types. */
static void check_term_types(verifier *v, const ct_op *term, int first, int n,
                             const ct_type *(*want)(const ct_op *, int, void *), const ct_op *owner,
                             void *ud)
{
    if (term->nopnds - first != n) {
        err(v, term, "yields %d values, the enclosing %s expects %d", term->nopnds - first,
            ct_op_info_of(owner->code)->name, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const ct_type *w = want(owner, i, ud);
        if (!type_eq(term->opnds[first + i]->type, w)) {
            T1(term->opnds[first + i]->type); T2(w);
            err(v, term, "value %d has type %s, the enclosing %s expects %s", i, t1_,
                ct_op_info_of(owner->code)->name, t2_);
            return;
        }
    }
}

static const ct_type *want_result(const ct_op *op, int i, void *ud) { return resty(op, i); }
static const ct_type *want_operand(const ct_op *op, int i, void *ud)
{
    return opty(op, i + (int)(intptr_t)ud);
}
static const ct_type *want_elem_of_operand(const ct_op *op, int i, void *ud)
{
    int n = (int)(intptr_t)ud;
    return elem(opty(op, i % n));
}
static const ct_type *want_elem_of_operand1(const ct_op *op, int i, void *ud)
{
    return elem(opty(op, i));
}

static void check_reduce_scan(verifier *v, const ct_op *op)
{
    bool scan = op->code == CT_OP_TT_SCAN;
    int n = op->nopnds;
    if (n < 1 || op->nres != n) {
        err(v, op, "expects as many results as operands (at least one), has %d and %d", n,
            op->nres);
        return;
    }
    if (!need_attr(v, op, "axis", CT_ATTR_INT))
        return;
    int64_t axis = ct_op_attr(op, "axis")->i;
    const ct_type *t0 = opty(op, 0);
    if (!is_tensor(t0) || axis < 0 || axis >= t0->rank) {
        T1(t0);
        err(v, op, "axis %lld is out of range for %s", (long long)axis, t1_);
        return;
    }
    for (int i = 0; i < n; i++) {
        const ct_type *t = opty(op, i), *r = resty(op, i);
        if (!same_shape(t, t0)) {
            err(v, op, "operands differ in shape");
            return;
        }
        bool ok;
        if (scan)
            ok = type_eq(t, r);
        else if (t0->rank == 1)
            ok = type_eq(r, elem(t));
        else {
            ok = is_tensor(r) && r->rank == t0->rank - 1 && type_eq(elem(r), elem(t));
            for (int d = 0, e = 0; ok && d < t0->rank; d++)
                if (d != axis)
                    ok = r->shape[e++] == t0->shape[d];
        }
        if (!ok) {
            T1(r); T2(t);
            err(v, op, "result %d has type %s, which is not %s %s along axis %lld", i, t1_,
                t2_, scan ? "scanned" : "reduced", (long long)axis);
            return;
        }
    }
    const ct_block *b = region_block(v, op, 0, "combine");
    if (!b)
        return;
    check_arg_types(v, op, b, 2 * n, want_elem_of_operand, (void *)(intptr_t)n, "combine");
    const ct_op *t = ct_block_terminator(b);
    if (t && t->code == (scan ? CT_OP_TT_SCAN_RETURN : CT_OP_TT_REDUCE_RETURN))
        check_term_types(v, t, 0, n, want_elem_of_operand1, op, NULL);
}

static void check_func(verifier *v, const ct_op *op)
{
    const ct_attr *ft = ct_op_attr(op, "function_type");
    if (!ct_op_attr(op, "sym_name") || ct_op_attr(op, "sym_name")->kind != CT_ATTR_STR) {
        err(v, op, "missing symbol name");
        return;
    }
    if (!ft || ft->kind != CT_ATTR_TYPE || !ft->type || ft->type->kind != CT_TY_FUNC) {
        err(v, op, "missing function type");
        return;
    }
    const ct_region *r = ct_op_region(op, 0);
    if (!r || ct_region_empty(r))
        return; /* a declaration */
    const ct_block *b = r->first;
    if (b->nargs != ft->type->nin) {
        err(v, op, "entry block takes %d arguments, the function type has %d", b->nargs,
            ft->type->nin);
        return;
    }
    for (int i = 0; i < b->nargs; i++)
        if (!type_eq(b->args[i]->type, ft->type->ins[i])) {
            T1(b->args[i]->type); T2(ft->type->ins[i]);
            err(v, op, "argument %d has type %s, the function type says %s", i, t1_, t2_);
        }
}

static void check_return(verifier *v, const ct_op *op)
{
    const ct_op *f = ct_op_parent_func(op);
    if (!f || ct_op_parent_op(op) != f) {
        err(v, op, "must be directly inside a tt.func");
        return;
    }
    const ct_attr *ft = ct_op_attr(f, "function_type");
    if (!ft || ft->kind != CT_ATTR_TYPE || !ft->type || ft->type->kind != CT_TY_FUNC)
        return;
    if (op->nopnds != ft->type->nout) {
        err(v, op, "returns %d values, the function returns %d", op->nopnds, ft->type->nout);
        return;
    }
    for (int i = 0; i < op->nopnds; i++)
        if (!type_eq(opty(op, i), ft->type->outs[i])) {
            T1(opty(op, i)); T2(ft->type->outs[i]);
            err(v, op, "value %d has type %s, the function returns %s", i, t1_, t2_);
        }
}

static void check_call(verifier *v, const ct_op *op)
{
    const ct_attr *c = ct_op_attr(op, "callee");
    if (!c || c->kind != CT_ATTR_SYMREF) {
        err(v, op, "missing callee");
        return;
    }
    const ct_op *f = ct_module_lookup_func(v->m, c->s);
    if (!f) {
        err(v, op, "calls @%s, which is not defined in the module", c->s);
        return;
    }
    const ct_type *ft = ct_func_type(f);
    if (!ft)
        return;
    if (op->nopnds != ft->nin || op->nres != ft->nout) {
        err(v, op, "@%s takes %d arguments and returns %d values; the call has %d and %d", c->s,
            ft->nin, ft->nout, op->nopnds, op->nres);
        return;
    }
    for (int i = 0; i < op->nopnds; i++)
        if (!type_eq(opty(op, i), ft->ins[i])) {
            T1(opty(op, i)); T2(ft->ins[i]);
            err(v, op, "argument %d has type %s, @%s takes %s", i, t1_, c->s, t2_);
        }
    for (int i = 0; i < op->nres; i++)
        if (!type_eq(resty(op, i), ft->outs[i])) {
            T1(resty(op, i)); T2(ft->outs[i]);
            err(v, op, "result %d has type %s, @%s returns %s", i, t1_, c->s, t2_);
        }
}

static const ct_type *want_for_iter(const ct_op *op, int i, void *ud)
{
    /* block argument i: the induction variable, then the iter_args */
    return i == 0 ? opty(op, 0) : opty(op, 2 + i);
}
static const ct_type *want_iter(const ct_op *op, int i, void *ud) { return opty(op, 3 + i); }

static void check_for(verifier *v, const ct_op *op)
{
    if (op->nopnds < 3) {
        err(v, op, "expects lower bound, upper bound and step");
        return;
    }
    const ct_type *iv = opty(op, 0);
    if (!is_int_or_index(iv) || !type_eq(opty(op, 1), iv) ||
        !type_eq(opty(op, 2), iv)) {
        err(v, op, "bounds and step must be scalars of one integer type");
        return;
    }
    int n = op->nopnds - 3;
    if (op->nres != n) {
        err(v, op, "has %d iter_args but %d results", n, op->nres);
        return;
    }
    for (int i = 0; i < n; i++)
        if (!type_eq(resty(op, i), opty(op, 3 + i))) {
            err(v, op, "result %d and iter_arg %d differ in type", i, i);
            return;
        }
    const ct_block *b = region_block(v, op, 0, "body");
    if (!b)
        return;
    check_arg_types(v, op, b, n + 1, want_for_iter, NULL, "body");
    const ct_op *t = ct_block_terminator(b);
    if (t && t->code == CT_OP_SCF_YIELD)
        check_term_types(v, t, 0, n, want_iter, op, NULL);
}

static void check_if(verifier *v, const ct_op *op)
{
    if (!arity(v, op, 1, 1, -1))
        return;
    const ct_type *c = opty(op, 0);
    if (!c || c->kind != CT_TY_INT || c->bits != 1) {
        T1(c);
        err(v, op, "condition must be i1, got %s", t1_);
    }
    for (int ri = 0; ri < op->nregions; ri++) {
        const ct_region *r = ct_op_region(op, ri);
        if (ct_region_empty(r)) {
            if (ri == 0 || op->nres)
                err(v, op, "%s region is empty%s", ri ? "else" : "then",
                    op->nres ? " but the if has results" : "");
            continue;
        }
        const ct_block *b = region_block(v, op, ri, ri ? "else" : "then");
        if (!b)
            continue;
        if (b->nargs)
            err(v, op, "%s block takes no arguments", ri ? "else" : "then");
        const ct_op *t = ct_block_terminator(b);
        if (t && t->code == CT_OP_SCF_YIELD)
            check_term_types(v, t, 0, op->nres, want_result, op, NULL);
    }
}

static void check_while(verifier *v, const ct_op *op)
{
    const ct_block *before = region_block(v, op, 0, "before");
    const ct_block *after = op->nregions > 1 ? region_block(v, op, 1, "after") : NULL;
    if (!before || !after) {
        if (before && op->nregions < 2)
            err(v, op, "expects a before and an after region");
        return;
    }
    check_arg_types(v, op, before, op->nopnds, want_operand, (void *)0, "before");
    check_arg_types(v, op, after, op->nres, want_result, NULL, "after");
    const ct_op *c = ct_block_terminator(before);
    if (c && c->code == CT_OP_SCF_CONDITION) {
        if (c->nopnds < 1 || !opty(c, 0) || opty(c, 0)->kind != CT_TY_INT ||
            opty(c, 0)->bits != 1)
            err(v, c, "first operand must be the i1 condition");
        else
            check_term_types(v, c, 1, op->nres, want_result, op, NULL);
    }
    const ct_op *y = ct_block_terminator(after);
    if (y && y->code == CT_OP_SCF_YIELD)
        check_term_types(v, y, 0, op->nopnds, want_operand, op, (void *)0);
}

static void check_branch(verifier *v, const ct_op *op)
{
    int fixed = op->code == CT_OP_CF_COND_BR ? 1 : 0;
    int want_succ = op->code == CT_OP_CF_COND_BR ? 2 : 1;
    if (op->nsucc != want_succ) {
        err(v, op, "expects %d successor%s, has %d", want_succ, want_succ == 1 ? "" : "s",
            op->nsucc);
        return;
    }
    if (fixed && (op->nopnds < 1 || !opty(op, 0) || opty(op, 0)->kind != CT_TY_INT ||
                  opty(op, 0)->bits != 1)) {
        err(v, op, "condition must be a scalar i1");
        return;
    }
    int at = fixed;
    for (int s = 0; s < op->nsucc; s++) {
        const ct_block *b = op->succ[s];
        int n = op->succ_nopnds ? op->succ_nopnds[s] : 0;
        if (!b || b->parent != op->parent->parent) {
            err(v, op, "successor %d is not a block of the same region", s);
            return;
        }
        if (at + n > op->nopnds || n != b->nargs) {
            err(v, op, "passes %d values to successor %d, which takes %d", n, s, b->nargs);
            return;
        }
        for (int i = 0; i < n; i++)
            if (!type_eq(opty(op, at + i), b->args[i]->type)) {
                T1(opty(op, at + i)); T2(b->args[i]->type);
                err(v, op, "value %d for successor %d has type %s, the block takes %s", i, s,
                    t1_, t2_);
                return;
            }
        at += n;
    }
}

static void check_shape_op(verifier *v, const ct_op *op)
{
    switch (op->code) {
    case CT_OP_TT_SPLAT: {
        if (!arity(v, op, 1, 1, 1)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        if (is_tensor(a) || !is_tensor(r) || !type_eq(elem(r), a)) {
            T1(a); T2(r);
            err(v, op, "splats a scalar into a tensor of it; got %s to %s", t1_, t2_);
        }
        break;
    }
    case CT_OP_TT_UNSPLAT: {
        if (!arity(v, op, 1, 1, 1)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        if (!is_tensor(a) || ct_type_numel(a) != 1 || !type_eq(elem(a), r))
            err(v, op, "expects a one-element tensor and its element type");
        break;
    }
    case CT_OP_TT_BROADCAST: {
        if (!arity(v, op, 1, 1, 1)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        bool ok = is_tensor(a) && is_tensor(r) && a->rank == r->rank &&
                  type_eq(elem(a), elem(r));
        for (int i = 0; ok && i < a->rank; i++)
            ok = a->shape[i] == r->shape[i] || a->shape[i] == 1;
        if (!ok) {
            T1(a); T2(r);
            err(v, op, "cannot broadcast %s to %s (same rank; only dimensions of 1 grow)", t1_,
                t2_);
        }
        break;
    }
    case CT_OP_TT_EXPAND_DIMS: {
        if (!arity(v, op, 1, 1, 1) || !need_attr(v, op, "axis", CT_ATTR_INT)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        int64_t ax = ct_op_attr(op, "axis")->i;
        bool ok = is_tensor(a) && is_tensor(r) && r->rank == a->rank + 1 && ax >= 0 &&
                  ax <= a->rank && type_eq(elem(a), elem(r)) && r->shape[ax] == 1;
        for (int i = 0, j = 0; ok && i < r->rank; i++)
            if (i != ax)
                ok = r->shape[i] == a->shape[j++];
        if (!ok) {
            T1(a); T2(r);
            err(v, op, "%s with axis %lld does not give %s", t1_, (long long)ax, t2_);
        }
        break;
    }
    case CT_OP_TT_RESHAPE: {
        if (!arity(v, op, 1, 1, 1)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        if (!is_tensor(a) || !is_tensor(r) || ct_type_numel(a) != ct_type_numel(r) ||
            !type_eq(elem(a), elem(r))) {
            T1(a); T2(r);
            err(v, op, "cannot reshape %s to %s (element count and type must agree)", t1_, t2_);
        }
        break;
    }
    case CT_OP_TT_TRANS: {
        if (!arity(v, op, 1, 1, 1) || !need_attr(v, op, "order", CT_ATTR_DENSE_ARRAY)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        const ct_attr *o = ct_op_attr(op, "order");
        bool ok = is_tensor(a) && is_tensor(r) && a->rank == r->rank && o->n == a->rank &&
                  type_eq(elem(a), elem(r));
        unsigned seen = 0;
        for (int i = 0; ok && i < o->n; i++) {
            int64_t p = o->ivals[i];
            ok = p >= 0 && p < a->rank && !(seen & (1u << p)) && r->shape[i] == a->shape[p];
            if (ok)
                seen |= 1u << p;
        }
        if (!ok) {
            T1(a); T2(r);
            err(v, op, "order is not a permutation taking %s to %s", t1_, t2_);
        }
        break;
    }
    case CT_OP_TT_JOIN: {
        if (!arity(v, op, 2, 2, 1)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        bool ok = type_eq(a, opty(op, 1)) && is_tensor(r) &&
                  type_eq(elem(a), elem(r)) &&
                  r->rank == (is_tensor(a) ? a->rank : 0) + 1 && r->shape[r->rank - 1] == 2;
        for (int i = 0; ok && is_tensor(a) && i < a->rank; i++)
            ok = r->shape[i] == a->shape[i];
        if (!ok)
            err(v, op, "joins two values of one type into a new minor dimension of 2");
        break;
    }
    case CT_OP_TT_SPLIT: {
        if (!arity(v, op, 1, 1, 2)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        bool ok = is_tensor(a) && a->shape[a->rank - 1] == 2 && type_eq(r, resty(op, 1)) &&
                  type_eq(elem(a), elem(r)) &&
                  (is_tensor(r) ? r->rank : 0) == a->rank - 1;
        for (int i = 0; ok && i < a->rank - 1; i++)
            ok = r->shape[i] == a->shape[i];
        if (!ok)
            err(v, op, "splits the minor dimension of 2 into two values of one type");
        break;
    }
    case CT_OP_TT_CAT: {
        if (!arity(v, op, 2, 2, 1)) return;
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        if (!type_eq(a, opty(op, 1)) || !is_tensor(a) || !is_tensor(r) ||
            ct_type_numel(r) != 2 * ct_type_numel(a) || !type_eq(elem(a), elem(r)))
            err(v, op, "concatenates two tensors of one type");
        break;
    }
    default:
        break;
    }
}

/* ------------------------------------------------------------------ */
/* The per-op rule                                                     */
/* ------------------------------------------------------------------ */

static void check_rule(verifier *v, const ct_op *op)
{
    const ct_op_info *info = ct_op_info_of(op->code);
    switch (info->format) {
    case CT_FMT_BIN: case CT_FMT_UN: case CT_FMT_TERN: {
        int n = info->format == CT_FMT_BIN ? 2 : info->format == CT_FMT_UN ? 1 : 3;
        if (!arity(v, op, n, n, 1))
            return;
        same_types(v, op);
        check_elem(v, op, resty(op, 0), elementwise_rule(op->code));
        return;
    }
    case CT_FMT_CAST:
        check_cast(v, op);
        return;
    case CT_FMT_ARROW:
        if (op->code == CT_OP_TT_BITCAST || op->code == CT_OP_TT_INT_TO_PTR ||
            op->code == CT_OP_TT_PTR_TO_INT) {
            if (!arity(v, op, 1, 1, 1))
                return;
            const ct_type *a = opty(op, 0), *r = resty(op, 0);
            bool ok = same_shape(a, r);
            if (op->code == CT_OP_TT_BITCAST)
                ok = ok && elem_bits(a) == elem_bits(r);
            else if (op->code == CT_OP_TT_INT_TO_PTR)
                ok = ok && elem_int(a) && elem_bits(a) == 64 && elem_ptr(r);
            else
                ok = ok && elem_ptr(a) && elem_int(r) && elem_bits(r) == 64;
            if (!ok) {
                T1(a); T2(r);
                err(v, op, "cannot convert %s to %s", t1_, t2_);
            }
            return;
        }
        check_shape_op(v, op);
        return;
    case CT_FMT_CUSTOM:
        break;
    }

    switch (op->code) {
    case CT_OP_ARITH_CONSTANT: {
        const ct_attr *a = ct_op_attr(op, "value");
        if (!arity(v, op, 0, 0, 1) || !a) {
            if (!a)
                err(v, op, "missing attribute 'value'");
            return;
        }
        const ct_type *t = a->kind == CT_ATTR_BOOL ? NULL : a->type;
        if (a->kind == CT_ATTR_BOOL) {
            if (!(resty(op, 0)->kind == CT_TY_INT && resty(op, 0)->bits == 1))
                err(v, op, "a boolean constant must be i1");
        } else if (!t || !type_eq(t, resty(op, 0))) {
            T1(t); T2(resty(op, 0));
            err(v, op, "value of type %s for a result of type %s", t1_, t2_);
        }
        return;
    }
    case CT_OP_ARITH_CMPI: case CT_OP_ARITH_CMPF: {
        if (!arity(v, op, 2, 2, 1) || !need_attr(v, op, "predicate", CT_ATTR_ENUM))
            return;
        const ct_type *a = opty(op, 0);
        if (!type_eq(a, opty(op, 1))) {
            T1(a); T2(opty(op, 1));
            err(v, op, "compares %s with %s", t1_, t2_);
            return;
        }
        check_elem(v, op, a, op->code == CT_OP_ARITH_CMPI ? EL_INT : EL_FLOAT);
        if (!elem_i1(resty(op, 0)) || !same_shape(resty(op, 0), a))
            err(v, op, "result must be i1 in the shape of the operands");
        return;
    }
    case CT_OP_ARITH_SELECT: {
        if (!arity(v, op, 3, 3, 1))
            return;
        const ct_type *c = opty(op, 0), *r = resty(op, 0);
        if (!type_eq(opty(op, 1), r) || !type_eq(opty(op, 2), r)) {
            err(v, op, "true and false values must have the result type");
            return;
        }
        if (!elem_i1(c) || (is_tensor(c) && !same_shape(c, r))) {
            T1(c);
            err(v, op, "condition %s must be i1, scalar or in the shape of the result", t1_);
        }
        return;
    }
    case CT_OP_TT_FUNC:
        check_func(v, op);
        return;
    case CT_OP_TT_RETURN:
        check_return(v, op);
        return;
    case CT_OP_TT_CALL:
        check_call(v, op);
        return;
    case CT_OP_TT_GET_PROGRAM_ID: case CT_OP_TT_GET_NUM_PROGRAMS: {
        if (!arity(v, op, 0, 0, 1))
            return;
        const ct_type *r = resty(op, 0);
        if (r->kind != CT_TY_INT || r->bits != 32)
            err(v, op, "result must be i32");
        const ct_attr *a = ct_op_attr(op, "axis");
        if (!a || (a->kind != CT_ATTR_INT && a->kind != CT_ATTR_ENUM))
            err(v, op, "missing attribute 'axis'");
        else if (a->kind == CT_ATTR_INT && (a->i < 0 || a->i > 2))
            err(v, op, "axis %lld is not 0, 1 or 2", (long long)a->i);
        return;
    }
    case CT_OP_TT_MAKE_RANGE: {
        if (!arity(v, op, 0, 0, 1) || !need_attr(v, op, "start", CT_ATTR_INT) ||
            !need_attr(v, op, "end", CT_ATTR_INT))
            return;
        int64_t s = ct_op_attr(op, "start")->i, e = ct_op_attr(op, "end")->i;
        const ct_type *r = resty(op, 0);
        if (!is_tensor(r) || r->rank != 1 || !elem_int(r) || elem_bits(r) != 32 ||
            r->shape[0] != e - s || e <= s) {
            T1(r);
            err(v, op, "range [%lld, %lld) does not fit %s", (long long)s, (long long)e, t1_);
        }
        return;
    }
    case CT_OP_TT_EXPAND_DIMS: case CT_OP_TT_RESHAPE: case CT_OP_TT_TRANS: case CT_OP_TT_JOIN:
    case CT_OP_TT_SPLIT: case CT_OP_TT_CAT:
        check_shape_op(v, op);
        return;
    case CT_OP_TT_ADDPTR: {
        if (!arity(v, op, 2, 2, 1))
            return;
        const ct_type *p = opty(op, 0), *o = opty(op, 1), *r = resty(op, 0);
        if (!elem_ptr(p) || !type_eq(r, p)) {
            T1(p); T2(r);
            err(v, op, "adds to a pointer (or tensor of pointers) and keeps its type; got %s to %s",
                t1_, t2_);
        } else if (!elem_int(o) || !same_shape(o, p)) {
            T1(o); T2(p);
            err(v, op, "offset %s must be an integer in the shape of %s", t1_, t2_);
        }
        return;
    }
    case CT_OP_TT_LOAD: case CT_OP_TT_STORE:
        check_memory(v, op);
        return;
    case CT_OP_TT_ATOMIC_RMW: case CT_OP_TT_ATOMIC_CAS:
        check_atomic(v, op);
        return;
    case CT_OP_TT_FP_TO_FP: {
        if (!arity(v, op, 1, 1, 1))
            return;
        if (!elem_float(opty(op, 0)) || !elem_float(resty(op, 0)) ||
            !same_shape(opty(op, 0), resty(op, 0)))
            err(v, op, "converts between float types of one shape");
        return;
    }
    case CT_OP_TT_CLAMPF:
        if (!arity(v, op, 3, 3, 1))
            return;
        same_types(v, op);
        check_elem(v, op, resty(op, 0), EL_FLOAT);
        return;
    case CT_OP_TT_DOT:
        check_dot(v, op);
        return;
    case CT_OP_TT_REDUCE: case CT_OP_TT_SCAN:
        check_reduce_scan(v, op);
        return;
    case CT_OP_TT_REDUCE_RETURN:
        if (!ct_op_parent_op(op) || ct_op_parent_op(op)->code != CT_OP_TT_REDUCE)
            err(v, op, "must be directly inside a tt.reduce");
        return;
    case CT_OP_TT_SCAN_RETURN:
        if (!ct_op_parent_op(op) || ct_op_parent_op(op)->code != CT_OP_TT_SCAN)
            err(v, op, "must be directly inside a tt.scan");
        return;
    case CT_OP_TT_EXTERN_ELEMENTWISE: case CT_OP_TT_INLINE_ASM:
        for (int i = 0; i < op->nopnds; i++)
            for (int r = 0; r < op->nres; r++)
                if (!same_shape(opty(op, i), resty(op, r))) {
                    err(v, op, "operands and results must have one shape");
                    return;
                }
        return;
    case CT_OP_TT_ASSERT:
        if (arity(v, op, 1, 1, 0) && !elem_i1(opty(op, 0)))
            err(v, op, "condition must be i1");
        return;
    case CT_OP_SCF_FOR:
        check_for(v, op);
        return;
    case CT_OP_SCF_IF:
        check_if(v, op);
        return;
    case CT_OP_SCF_WHILE:
        check_while(v, op);
        return;
    case CT_OP_SCF_YIELD: {
        const ct_op *p = ct_op_parent_op(op);
        if (!p || (p->code != CT_OP_SCF_FOR && p->code != CT_OP_SCF_IF &&
                   !(p->code == CT_OP_SCF_WHILE && op->parent->parent == &p->regions[1])))
            err(v, op, "must end the body of an scf.for, scf.if or the after region of scf.while");
        return;
    }
    case CT_OP_SCF_CONDITION: {
        const ct_op *p = ct_op_parent_op(op);
        if (!p || p->code != CT_OP_SCF_WHILE || op->parent->parent != &p->regions[0])
            err(v, op, "must end the before region of an scf.while");
        return;
    }
    case CT_OP_CF_BR: case CT_OP_CF_COND_BR:
        check_branch(v, op);
        return;
    case CT_OP_UB_POISON:
        arity(v, op, 0, 0, 1);
        return;
    case CT_OP_LLVM_ASSUME:
        if (arity(v, op, 1, 1, 0) &&
            !(opty(op, 0)->kind == CT_TY_INT && opty(op, 0)->bits == 1))
            err(v, op, "operand must be a scalar i1");
        return;
    case CT_OP_GPU_BARRIER:
        arity(v, op, 0, 0, 0);
        return;
    case CT_OP_TTG_BARRIER: {
        arity(v, op, 0, 0, 0);
        const ct_attr *a = ct_op_attr(op, "addrSpace");
        if (!a || a->kind != CT_ATTR_ENUM)
            err(v, op, "needs its address spaces (addrSpace: all, local, global_read, ...)");
        return;
    }
    default:
        /* tt.gather, tt.histogram, tt.print, tt.make_tensor_ptr, tt.advance:
         * only the generic checks. */
        return;
    }
}

/* ------------------------------------------------------------------ */
/* Walk                                                                */
/* ------------------------------------------------------------------ */

static bool region_needs_terminator(const ct_op *owner)
{
    switch (owner->code) {
    case CT_OP_TT_FUNC: case CT_OP_SCF_FOR: case CT_OP_SCF_IF: case CT_OP_SCF_WHILE:
    case CT_OP_TT_REDUCE: case CT_OP_TT_SCAN:
        return true;
    default:
        return false;
    }
}

static void verify_op(verifier *v, const ct_op *op);

static void verify_block(verifier *v, const ct_op *owner, const ct_block *b)
{
    int i = 0;
    for (const ct_op *o = b->first; o; o = o->next)
        ((ct_op *)o)->id = ++i; /* the position, in the scratch slot */
    for (const ct_op *o = b->first; o; o = o->next) {
        if (o->parent != b)
            err(v, o, "parent link is broken");
        if ((ct_op_info_of(o->code)->flags & CT_OPF_TERM) && o->next)
            err(v, o, "terminator is not the last op of its block");
        verify_op(v, o);
    }
    if (owner && region_needs_terminator(owner)) {
        const ct_op *t = b->last;
        if (!t || !(ct_op_info_of(t->code)->flags & CT_OPF_TERM))
            err(v, t ? t : owner, "block in a %s region does not end with a terminator",
                ct_op_info_of(owner->code)->name);
    }
}

static void verify_op(verifier *v, const ct_op *op)
{
    if (v->nerrors > CT_VERIFY_MAX_ERRORS)
        return;
    if ((unsigned)op->code >= CT_OP__COUNT) {
        err(v, NULL, "op with an invalid opcode %d", (int)op->code);
        return;
    }
    for (int i = 0; i < op->nopnds; i++) {
        const ct_value *val = op->opnds[i];
        if (!val || !val->type) {
            err(v, op, "operand %d is not set", i);
            return;
        }
        if (!visible(v, val, op)) {
            err(v, op, "operand %d is used where its definition does not dominate", i);
            return;
        }
    }
    for (int i = 0; i < op->nres; i++)
        if (!op->res[i].type) {
            err(v, op, "result %d has no type", i);
            return;
        }
    check_rule(v, op);
    for (int ri = 0; ri < op->nregions; ri++) {
        const ct_region *r = &op->regions[ri];
        int bi = 0;
        for (const ct_block *b = r->first; b; b = b->next)
            ((ct_block *)b)->id = bi++; /* the index, in the scratch slot */
        /* branches: a function body, and the body of tt.map_elementwise once Triton has
         * inlined a scalar function that returns early */
        if (bi > 1 && op->code != CT_OP_TT_FUNC && op->code != CT_OP_TT_MAP_ELEMENTWISE)
            err(v, op, "region %d has %d blocks; only a tt.func or tt.map_elementwise body may have several", ri, bi);
        for (const ct_block *b = r->first; b; b = b->next)
            verify_block(v, op, b);
    }
}

bool ct_verify_module(const ct_module *m, ct_diags *d)
{
    verifier v = {.m = m, .d = d};
    ct_pm_init(&v.doms);
    if (!m || !m->body) {
        err(&v, NULL, "module has no body");
    } else {
        for (const ct_op *o = m->body->first; o; o = o->next) {
            if (o->code != CT_OP_TT_FUNC) {
                err(&v, o, "only tt.func may appear at module level");
                continue;
            }
            verify_op(&v, o);
        }
    }
    /* free the dominator tables */
    for (size_t i = 0; i < v.doms.cap; i++)
        if (v.doms.keys[i]) {
            region_dom *rd = v.doms.vals[i];
            free(rd->dom);
            free(rd);
        }
    ct_pm_free(&v.doms);
    return v.nerrors == 0;
}
