/*
 * verify.c - the structural verifier (see ctriton/check.h).
 *
 * One pass over the module.  For each op: what its row in the op table
 * (ops.def) says, checked the same way for every op (the counts of operands,
 * results, regions and successors; the attributes it names, with their kinds
 * and enum words; the types its segments' rules imply; SAME/INT/FLOAT; the
 * terminators of its regions), that operands are set and visible from the
 * op, then the typing rule of its opcode (Triton's op verifiers: one case
 * per op family, in op-table order), then its regions.  Errors are reported
 * at the op's location with the op name first (ct_diag_op), so that a
 * message reads like MLIR's verifier:
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
#include "util/alloc.h"

#include <setjmp.h>
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
    const ct_op_where *where; /* places in the text, for ops without a file location */
    int nerrors;
    ct_ptrmap doms;           /* region -> region_dom*, for multi-block regions */
    bool oom;                 /* a dominator table could not be made */
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
    const char *more = v->nerrors == CT_VERIFY_MAX_ERRORS ? " (further verifier errors suppressed)" : "";
    ct_diag_op(v->d, CT_ERROR, op, v->where, op ? "" : "module: ", "%s%s", msg, more);
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
    rd = ct_xcalloc(1, sizeof *rd);
    unsigned char *nw = ct_xmalloc((size_t)n);
    if (rd)
        rd->dom = ct_xmalloc((size_t)n * n);
    if (!rd || !rd->dom || !nw) {
        if (rd)
            ct_xfree(rd->dom);
        ct_xfree(rd);
        ct_xfree(nw);
        v->oom = true;
        return NULL;
    }
    rd->n = n;
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
            memset(nw, 0, (size_t)n);
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
        }
    }
    ct_xfree(nw);
    ct_pm_put(&v->doms, r, rd);
    if (!ct_pm_get(&v->doms, r)) { /* the map could not grow */
        ct_xfree(rd->dom);
        ct_xfree(rd);
        v->oom = true;
        return NULL;
    }
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
            if (!rd)
                return true; /* out of memory: reported once, at the end */
            int a = block_index(db), b = block_index(ub);
            if (a >= 0 && b >= 0 && rd->dom[a * rd->n + b])
                return true;
        }
        cur = ub->parent ? ub->parent->parent : NULL;
    }
    return false;
}

/* The loop or branch that holds val's definition but not `user`, if any:
 * the value of a construct that ended before its use. */
static const ct_op *closed_control(const ct_value *val, const ct_op *user)
{
    const ct_block *b = val->def ? val->def->parent : val->owner;
    while (b && b->parent && b->parent->parent) {
        const ct_op *owner = b->parent->parent;
        if (owner->code == CT_OP_TT_FUNC)
            return NULL;
        if (owner->code == CT_OP_SCF_FOR || owner->code == CT_OP_SCF_WHILE ||
            owner->code == CT_OP_SCF_IF) {
            const ct_op *u = user;
            while (u && u != owner)
                u = ct_op_parent_op(u);
            if (!u)
                return owner;
        }
        b = owner->parent;
    }
    return NULL;
}

static int ctl_line(const ct_op *op)
{
    const ct_loc *l = op->loc ? ct_loc_file_of(op->loc) : NULL;
    return l ? l->line : 0;
}

/* ------------------------------------------------------------------ */
/* What the op table says, for every op                                */
/* ------------------------------------------------------------------ */

static const ct_type *opty(const ct_op *op, int i) { return op->opnds[i]->type; }
static const ct_type *resty(const ct_op *op, int i) { return op->res[i].type; }
/* operand `name` (ops.def's segment), NULL when absent */
static const ct_value *opnd(const ct_op *op, const char *name) { return ct_op_get(op, name); }
static const ct_type *opnd_ty(const ct_op *op, const char *name)
{
    const ct_value *x = ct_op_get(op, name);
    return x ? x->type : NULL;
}

/* the counts of operands, results, regions and successors (ct_op_arity_ok) */
static bool check_arity(verifier *v, const ct_op *op)
{
    char why[128];
    if (ct_op_arity_ok(op, why, sizeof why))
        return true;
    err(v, op, "%s", why);
    return false;
}

static const char *const attr_kind_names[] = {
    [CT_AK_STR] = "a string",      [CT_AK_SYMREF] = "a symbol", [CT_AK_UNIT] = "a unit attribute",
    [CT_AK_BOOL] = "a boolean",    [CT_AK_I32] = "an i32 integer", [CT_AK_ARRAY_I32] = "an array<i32>",
    [CT_AK_TYPE] = "a type",       [CT_AK_VALUE] = "a typed value",
};

/* the attributes ops.def names: present when required, of their kind, enum words valid */
static bool is_i32(const ct_type *t)
{
    return t && t->kind == CT_TY_INT && t->bits == 32 && t->signedness == 0;
}

static void check_attrs(verifier *v, const ct_op *op)
{
    int n;
    const ct_attr_spec *const *sp = ct_attr_specs_of(op->code, &n);
    for (int i = 0; i < n; i++) {
        const ct_attr_spec *s = sp[i];
        const ct_attr *a = ct_op_attr(op, s->name);
        if (!a) {
            if (s->flags & CT_AF_REQ)
                err(v, op, "missing attribute '%s'", s->name);
            continue;
        }
        bool ok;
        switch (s->kind) {
        case CT_AK_STR: ok = a->kind == CT_ATTR_STR; break;
        case CT_AK_SYMREF: ok = a->kind == CT_ATTR_SYMREF; break;
        case CT_AK_UNIT: ok = a->kind == CT_ATTR_UNIT; break;
        case CT_AK_BOOL: ok = a->kind == CT_ATTR_BOOL; break;
        /* Triton's I32Attr and DenseI32ArrayAttr: 32-bit signless integers, not just integers */
        case CT_AK_I32: ok = a->kind == CT_ATTR_INT && is_i32(a->type); break;
        case CT_AK_ARRAY_I32:
            ok = a->kind == CT_ATTR_DENSE_ARRAY && !a->fvals && is_i32(a->type);
            break;
        case CT_AK_TYPE: ok = a->kind == CT_ATTR_TYPE && a->type; break;
        case CT_AK_VALUE:
            ok = a->kind == CT_ATTR_INT || a->kind == CT_ATTR_FLOAT || a->kind == CT_ATTR_DENSE ||
                 a->kind == CT_ATTR_BOOL;
            break;
        default: /* an enum: its keyword where the op's form spells it, else its integer
                    (as MLIR prints an enum in an attribute dictionary) */
            if (a->kind == CT_ATTR_ENUM) {
                if (!ct_enum_value((ct_enum_id)s->enum_id, a->s, strlen(a->s), NULL)) {
                    err(v, op, "'%s' is not a valid %s", a->s, s->name);
                    continue;
                }
                ok = true;
            } else if (a->kind == CT_ATTR_INT) {
                if (!ct_enum_word((ct_enum_id)s->enum_id, a->i)) {
                    err(v, op, "%lld is not a valid %s", (long long)a->i, s->name);
                    continue;
                }
                ok = true;
            } else {
                ok = false;
            }
            break;
        }
        if (!ok)
            err(v, op, "attribute '%s' must be %s", s->name,
                s->enum_id >= 0 ? "an enum keyword" : attr_kind_names[s->kind]);
    }
}

/* the types the segments' rules imply (a load's mask is i1 in the pointee's shape) */
static void check_rules(verifier *v, const ct_op *op)
{
    const ct_op_sig *g = ct_op_sig_of(op->code);
    for (int r = 0; r < 2; r++) {
        bool result = r == 1;
        int nseg = result ? g->nres_segs : g->nopnd_segs;
        for (int s = 0; s < nseg; s++) {
            const ct_op_seg *seg = result ? &g->res[s] : &g->opnd[s];
            int st, n;
            if (!seg->rule || !ct_op_segment(op, result, s, &st, &n) || !n)
                continue;
            ct_type sc[8];
            const ct_type *want = ct_rule_type(seg->rule, op, sc, 8);
            if (!want)
                continue; /* what it follows from is wrong: reported there */
            for (int i = 0; i < n; i++) {
                const ct_type *have = result ? resty(op, st + i) : opty(op, st + i);
                if (!type_eq(have, want)) {
                    T1(have); T2(want);
                    err(v, op, "%s `%s` has type %s, expected %s", result ? "result" : "operand",
                        seg->name, t1_, t2_);
                    return;
                }
            }
        }
    }
}

/* SAME: all operands and results share one type; INT / FLOAT: of that class */
static void check_same(verifier *v, const ct_op *op, unsigned flags)
{
    const ct_type *t = op->nres ? resty(op, 0) : op->nopnds ? opty(op, 0) : NULL;
    if (!t)
        return;
    for (int i = 0; i < op->nopnds; i++)
        if (!type_eq(opty(op, i), t)) {
            T1(opty(op, i)); T2(t);
            err(v, op, "operand %d has type %s, expected %s (all operands and the result share one type)",
                i, t1_, t2_);
            return;
        }
    const ct_type *e = elem(t);
    if ((flags & CT_OPF_INT) && !(e && (e->kind == CT_TY_INT || e->kind == CT_TY_INDEX))) {
        T1(t);
        err(v, op, "expects integer operands, got %s", t1_);
    } else if ((flags & CT_OPF_FLOAT) && !elem_float(t)) {
        T1(t);
        err(v, op, "expects floating-point operands, got %s", t1_);
    }
}

/* ------------------------------------------------------------------ */
/* The typing rules of the ops (Triton's op verifiers)                 */
/* ------------------------------------------------------------------ */

static bool need_attr(verifier *v, const ct_op *op, const char *name, ct_attr_kind kind)
{
    const ct_attr *a = ct_op_attr(op, name);
    return a && a->kind == kind; /* reported by check_attrs */
}

static void check_cast(verifier *v, const ct_op *op)
{
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
        if (ab != rb || !(ai || af) || !(ri || rf)) /* signless integers and floats only */
            bad = "an integer or float to another of the same width";
        break;
    case CT_OP_ARITH_INDEX_CAST:
        /* MLIR: index to a signless integer or back, never two integers or two indexes */
        if (!is_int_or_index(elem(a)) || !is_int_or_index(elem(r)) ||
            (elem(a)->kind == CT_TY_INDEX) == (elem(r)->kind == CT_TY_INDEX) ||
            (elem(a)->kind == CT_TY_INT && elem(a)->signedness) ||
            (elem(r)->kind == CT_TY_INT && elem(r)->signedness))
            bad = "between index and a signless integer";
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
    const ct_type *p = opnd_ty(op, "ptr");
    bool blockp;
    const ct_type *pe = pointee_value_type(p, &blockp);
    if (!pe) {
        T1(p);
        err(v, op, "operand 0 must be a pointer or a tensor of pointers, got %s", t1_);
        return;
    }
    const ct_type *val = is_load ? resty(op, 0) : opnd_ty(op, "value");
    bool ok = blockp ? type_eq(val, pe) : is_shape_of_with_elem(val, p, pe);
    if (!ok) {
        T1(val); T2(p);
        err(v, op, "%s type %s is not the pointee of %s in its shape",
            is_load ? "result" : "stored value", t1_, t2_);
        return;
    }
    const ct_type *mt = opnd_ty(op, "mask");
    if (mt && (!elem_i1(mt) || !same_shape(mt, val))) {
        T1(mt); T2(val);
        err(v, op, "mask %s must be i1 in the shape of %s", t1_, t2_);
    }
    const ct_type *ot = is_load ? opnd_ty(op, "other") : NULL;
    if (ot && !type_eq(ot, val)) {
        T1(ot); T2(val);
        err(v, op, "'other' has type %s, expected the result type %s", t1_, t2_);
    }
}

static void check_atomic(verifier *v, const ct_op *op)
{
    bool cas = op->code == CT_OP_TT_ATOMIC_CAS;
    const ct_type *p = opnd_ty(op, "ptr");
    bool blockp;
    const ct_type *pe = pointee_value_type(p, &blockp);
    if (!pe || blockp) {
        T1(p);
        err(v, op, "operand 0 must be a pointer or a tensor of pointers, got %s", t1_);
        return;
    }
    const ct_type *val = opnd_ty(op, "val");
    if (!is_shape_of_with_elem(val, p, pe) || !type_eq(resty(op, 0), val)) {
        T1(val); T2(p);
        err(v, op, "value type %s is not the pointee of %s in its shape, or the result differs",
            t1_, t2_);
        return;
    }
    if (cas && !type_eq(opnd_ty(op, "cmp"), val))
        err(v, op, "compare value and new value differ in type");
    const ct_type *mt = cas ? NULL : opnd_ty(op, "mask");
    if (mt && (!elem_i1(mt) || !same_shape(mt, val)))
        err(v, op, "mask must be i1 in the shape of the value");
}

static void check_dot(verifier *v, const ct_op *op)
{
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
    /* Triton's DotOp::verify: A and B of one bit width */
    if (elem_bits(a) != elem_bits(b)) {
        T1(a); T2(b);
        err(v, op, "element types of operands A and B must have the same bit width: %s and %s",
            t1_, t2_);
    }
}

/* The block of a single-block region (region_structure checked the count). */
static const ct_block *region_block(const ct_op *op, int ri)
{
    const ct_region *r = ct_op_region(op, ri);
    return r && r->first && r->first == r->last ? r->first : NULL;
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

/* every terminator of the region's blocks that ends it (not a branch) */
static void check_region_terms(verifier *v, const ct_op *owner, int ri, int first, int n,
                               const ct_type *(*want)(const ct_op *, int, void *), void *ud)
{
    int term = ct_op_sig_of(owner->code)->region[ri].term;
    for (const ct_block *b = owner->regions[ri].first; b; b = b->next) {
        const ct_op *t = ct_block_terminator(b);
        if (t && (int)t->code == term)
            check_term_types(v, t, first, n, want, owner, ud);
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
static const ct_type *want_elem_of_result(const ct_op *op, int i, void *ud)
{
    return elem(resty(op, i));
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
    const ct_block *b = region_block(op, 0);
    if (!b)
        return;
    check_arg_types(v, op, b, 2 * n, want_elem_of_operand, (void *)(intptr_t)n, "combine");
    check_region_terms(v, op, 0, 0, n, want_elem_of_operand1, NULL);
}

/* the first op in a region (nested ones too) that writes memory, as MLIR's memory effects
 * say: the ops of the WRITE trait, and inline asm and extern calls not marked pure */
static const ct_op *first_write(const ct_region *r)
{
    for (const ct_block *b = r->first; b; b = b->next)
        for (const ct_op *o = b->first; o; o = o->next) {
            bool w = ct_op_info_of(o->code)->flags & CT_OPF_WRITE;
            if (o->code == CT_OP_TT_INLINE_ASM || o->code == CT_OP_TT_EXTERN_ELEMENTWISE)
                w = !ct_op_flag(o, "pure");
            if (w)
                return o;
            for (int i = 0; i < o->nregions; i++) {
                const ct_op *in = first_write(&o->regions[i]);
                if (in)
                    return in;
            }
        }
    return NULL;
}

static void check_map_elementwise(verifier *v, const ct_op *op)
{
    int n = op->nopnds;
    const ct_attr *pk = ct_op_attr(op, "pack");
    int64_t pack = pk && pk->kind == CT_ATTR_INT ? pk->i : 1;
    if (n < 1) {
        err(v, op, "must have at least 1 operand");
        return;
    }
    if (pack < 1 || pack > 1024 || (pack & (pack - 1))) {
        err(v, op, "pack must be a power of 2, not %lld", (long long)pack);
        return;
    }
    for (int i = 0; i < n; i++)
        for (int r = 0; r < op->nres; r++)
            if (!same_shape(opty(op, i), resty(op, r))) {
                err(v, op, "operands and results must have one shape");
                return;
            }
    const ct_block *b = op->regions[0].first;
    if (!b)
        return;
    if (b->nargs != n * pack) {
        err(v, op, "region has %d arguments, expected %lld (one per operand and packed element)",
            b->nargs, (long long)(n * pack));
        return;
    }
    for (int i = 0; i < b->nargs; i++)
        if (!type_eq(b->args[i]->type, elem(opty(op, (int)(i / pack))))) {
            T1(b->args[i]->type); T2(elem(opty(op, (int)(i / pack))));
            err(v, op, "region argument %d has type %s, expected %s", i, t1_, t2_);
            return;
        }
    /* Triton: the masking would not be right for a store treated as a scalar */
    const ct_op *w = first_write(&op->regions[0]);
    if (w) {
        err(v, w, "stores are not supported inside tt.map_elementwise");
        return;
    }
    if (pack == 1)
        check_region_terms(v, op, 0, 0, op->nres, want_elem_of_result, NULL);
}

static void check_func(verifier *v, const ct_op *op)
{
    const ct_attr *ft = ct_op_attr(op, "function_type");
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
    const ct_op *f = ct_op_parent_op(op);
    if (!f || f->code != CT_OP_TT_FUNC)
        return; /* placement: check_placement */
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
    if (!c || c->kind != CT_ATTR_SYMREF)
        return;
    const ct_op *f = ct_module_lookup_func(v->m, c->s);
    if (!f) {
        err(v, op, "calls @%s, which is not defined in the module", c->s);
        return;
    }
    const ct_type *ft = ct_func_type(f);
    if (!ft || ft->kind != CT_TY_FUNC)
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

/* block argument i of an scf.for body: the induction variable, then the iter_args */
static const ct_type *want_for_iter(const ct_op *op, int i, void *ud)
{
    int st, n;
    ct_op_segment(op, false, ct_op_seg_index(op->code, false, "initArgs"), &st, &n);
    return i == 0 ? opnd_ty(op, "lowerBound") : opty(op, st + i - 1);
}
static const ct_type *want_iter(const ct_op *op, int i, void *ud)
{
    return want_for_iter(op, i + 1, ud);
}

/* The integer value of a constant, if v is one. */
static bool const_int(const ct_value *v, int64_t *out)
{
    const ct_op *d = v ? v->def : NULL;
    const ct_attr *a = d && d->code == CT_OP_ARITH_CONSTANT ? ct_op_attr(d, "value") : NULL;
    if (!a || a->kind != CT_ATTR_INT)
        return false;
    *out = a->i;
    return true;
}

static void check_for(verifier *v, const ct_op *op)
{
    const ct_type *iv = opnd_ty(op, "lowerBound");
    if (!is_int_or_index(iv) || !type_eq(opnd_ty(op, "upperBound"), iv) ||
        !type_eq(opnd_ty(op, "step"), iv)) {
        err(v, op, "bounds and step must be scalars of one integer type");
        return;
    }
    /* MLIR's ForOp::verify: a constant step must be positive (0 never ends) */
    int64_t step;
    if (const_int(opnd(op, "step"), &step) && step <= 0) {
        err(v, op, "constant step operand must be positive, not %lld", (long long)step);
        return;
    }
    int n = ct_op_count(op, "initArgs");
    if (op->nres != n) {
        err(v, op, "has %d iter_args but %d results", n, op->nres);
        return;
    }
    for (int i = 0; i < n; i++)
        if (!type_eq(resty(op, i), want_iter(op, i, NULL))) {
            err(v, op, "result %d and iter_arg %d differ in type", i, i);
            return;
        }
    const ct_block *b = region_block(op, 0);
    if (!b)
        return;
    check_arg_types(v, op, b, n + 1, want_for_iter, NULL, "body");
    check_region_terms(v, op, 0, 0, n, want_iter, NULL);
}

static void check_if(verifier *v, const ct_op *op)
{
    for (int ri = 0; ri < op->nregions; ri++) {
        const ct_region *r = ct_op_region(op, ri);
        if (ct_region_empty(r)) {
            if (op->nres)
                err(v, op, "else region is empty but the if has results");
            continue;
        }
        const ct_block *b = region_block(op, ri);
        if (b && b->nargs)
            err(v, op, "%s block takes no arguments", ri ? "else" : "then");
        check_region_terms(v, op, ri, 0, op->nres, want_result, NULL);
    }
}

static void check_while(verifier *v, const ct_op *op)
{
    const ct_block *before = region_block(op, 0), *after = region_block(op, 1);
    if (!before || !after)
        return;
    check_arg_types(v, op, before, op->nopnds, want_operand, (void *)0, "before");
    check_arg_types(v, op, after, op->nres, want_result, NULL, "after");
    check_region_terms(v, op, 0, 1, op->nres, want_result, NULL);
    check_region_terms(v, op, 1, 0, op->nopnds, want_operand, (void *)0);
}

static void check_execute_region(verifier *v, const ct_op *op)
{
    const ct_region *r = ct_op_region(op, 0);
    if (r->first && r->first->nargs)
        err(v, op, "region's entry block takes no arguments");
    check_region_terms(v, op, 0, 0, op->nres, want_result, NULL);
}

static void check_branch(verifier *v, const ct_op *op)
{
    int at = op->code == CT_OP_CF_COND_BR ? 1 : 0;
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
    const ct_type *a = opty(op, 0), *r = resty(op, 0);
    switch (op->code) {
    case CT_OP_TT_SPLAT: {
        /* a scalar, or a 0-d tensor of it (Triton: SameOperandsAndResultElementType) */
        bool src_ok = !is_tensor(a) || a->rank == 0;
        if (!src_ok || !is_tensor(r) || !type_eq(elem(r), elem(a))) {
            T1(a); T2(r);
            err(v, op, "splats a scalar (or 0-d tensor) into a tensor of it; got %s to %s", t1_,
                t2_);
        }
        break;
    }
    case CT_OP_TT_UNSPLAT:
        if (!is_tensor(a) || ct_type_numel(a) != 1 || !type_eq(elem(a), r))
            err(v, op, "source tensor must have exactly one element, the result its element type");
        break;
    case CT_OP_TT_BROADCAST: {
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
        if (!need_attr(v, op, "axis", CT_ATTR_INT))
            return;
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
    case CT_OP_TT_RESHAPE:
        if (!is_tensor(a) || !is_tensor(r) || ct_type_numel(a) != ct_type_numel(r) ||
            !type_eq(elem(a), elem(r))) {
            T1(a); T2(r);
            err(v, op, "cannot reshape %s to %s (element count and type must agree)", t1_, t2_);
        }
        break;
    case CT_OP_TT_TRANS: {
        if (!need_attr(v, op, "order", CT_ATTR_DENSE_ARRAY))
            return;
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
        /* Triton: tensors (0-d included) of one type, into a new minor dimension of 2 */
        bool ok = is_tensor(a) && is_tensor(r) && type_eq(elem(a), elem(r)) &&
                  r->rank == a->rank + 1 && r->shape[r->rank - 1] == 2;
        for (int i = 0; ok && i < a->rank; i++)
            ok = r->shape[i] == a->shape[i];
        if (!ok) {
            T1(a); T2(r);
            err(v, op, "result shape must be the operands' shape with a minor dimension of 2; "
                       "got %s to %s", t1_, t2_);
        }
        break;
    }
    case CT_OP_TT_SPLIT: {
        /* the results are tensors, 0-d when the operand is 1-d (Triton: TT_Tensor) */
        bool ok = is_tensor(a) && a->rank >= 1 && a->shape[a->rank - 1] == 2 &&
                  type_eq(elem(a), elem(r)) && is_tensor(r) && r->rank == a->rank - 1;
        for (int i = 0; ok && i < a->rank - 1; i++)
            ok = r->shape[i] == a->shape[i];
        if (!ok)
            err(v, op, "splits the minor dimension of 2 into two values of one type");
        break;
    }
    case CT_OP_TT_CAT:
        if (!is_tensor(a) || !is_tensor(r) || ct_type_numel(r) != 2 * ct_type_numel(a) ||
            !type_eq(elem(a), elem(r)))
            err(v, op, "concatenates two tensors of one type");
        break;
    default:
        break;
    }
}

/* Triton's GatherOp::verify */
static void check_gather(verifier *v, const ct_op *op)
{
    const ct_type *src = opnd_ty(op, "src"), *idx = opnd_ty(op, "indices"), *r = resty(op, 0);
    if (!is_tensor(src) || !is_tensor(idx) || !is_tensor(r) || !elem_int(idx)) {
        err(v, op, "gathers from a tensor by a tensor of integer indices into a tensor");
        return;
    }
    if (!same_shape(idx, r)) {
        err(v, op, "indices and output shapes must match");
        return;
    }
    if (!type_eq(elem(src), elem(r))) {
        err(v, op, "input and output element types must match");
        return;
    }
    if (src->rank != idx->rank) {
        err(v, op, "input and indices ranks must match");
        return;
    }
    const ct_attr *ax = ct_op_attr(op, "axis");
    if (!ax || ax->kind != CT_ATTR_INT)
        return;
    if (ax->i < 0 || ax->i >= src->rank) {
        err(v, op, "gather dimension %lld must be less than the input rank %d", (long long)ax->i,
            src->rank);
        return;
    }
    for (int d = 0; d < idx->rank; d++)
        if (d != ax->i && idx->shape[d] != src->shape[d]) {
            err(v, op, "indices dimension %d must match the corresponding input dimension", d);
            return;
        }
}

static void check_histogram(verifier *v, const ct_op *op)
{
    const ct_type *src = opnd_ty(op, "src"), *r = resty(op, 0);
    if (!is_tensor(src) || src->rank != 1 || !elem_int(src) || !is_tensor(r) || r->rank != 1 ||
        !elem_int(r))
        err(v, op, "counts a 1-d tensor of integers into a 1-d tensor of integer bins");
}

/* the block a descriptor (or the pointer to it) describes */
static const ct_type *desc_block(const ct_type *d)
{
    return d && d->kind == CT_TY_TENSORDESC && d->elem && d->elem->kind == CT_TY_TENSOR ? d->elem
                                                                                      : NULL;
}

/* Triton's verifyDescriptorLoadStoreType: one element type, and the tensor's shape is the
 * block's (whose leading dimensions of 1 a load or store may drop); a descriptor_reduce,
 * which Triton does not verify, needs the block's element count */
static void check_desc_access(verifier *v, const ct_op *op)
{
    const ct_type *blk = desc_block(opnd_ty(op, "desc"));
    const ct_type *t = op->code == CT_OP_TT_DESCRIPTOR_LOAD ? resty(op, 0) : opnd_ty(op, "src");
    if (!blk) {
        T1(opnd_ty(op, "desc"));
        err(v, op, "operand 0 must be a tensor descriptor, got %s", t1_);
        return;
    }
    if (ct_op_count(op, "indices") != blk->rank) {
        err(v, op, "takes %d indices for a descriptor of rank %d", ct_op_count(op, "indices"),
            blk->rank);
        return;
    }
    const ct_type *be = blk->elem, *te = elem(t);
    bool same_elem = type_eq(be, te) || (be && te && be->kind == CT_TY_INT &&
                                         te->kind == CT_TY_INT && be->bits == te->bits);
    if (!is_tensor(t) || !same_elem) {
        T1(blk); T2(t);
        err(v, op, "descriptor block %s and tensor %s element types must match", t1_, t2_);
        return;
    }
    if (op->code == CT_OP_TT_DESCRIPTOR_REDUCE) {
        if (ct_type_numel(blk) != ct_type_numel(t)) {
            T1(blk); T2(t);
            err(v, op, "descriptor block %s and tensor %s must have the same number of elements",
                t1_, t2_);
        }
        return;
    }
    int drop = blk->rank - t->rank;
    for (int i = 0; i < drop; i++)
        if (blk->shape[i] != 1) {
            T1(blk); T2(t);
            err(v, op, "the block %s has more dimensions than the tensor %s, and only leading "
                       "dimensions of 1 may be dropped", t1_, t2_);
            return;
        }
    bool ok = drop >= 0;
    for (int i = 0; ok && i < t->rank; i++)
        ok = blk->shape[drop + i] == t->shape[i];
    if (!ok) {
        T1(blk); T2(t);
        err(v, op, "descriptor block %s and tensor %s must have the same shape", t1_, t2_);
    }
}

/* Triton's verifyGatherScatterOp: a 1 x M block, N x-offsets into N x M */
static void check_desc_gather(verifier *v, const ct_op *op)
{
    const ct_type *blk = desc_block(opnd_ty(op, "desc"));
    const ct_type *res = op->code == CT_OP_TT_DESCRIPTOR_GATHER ? resty(op, 0) : opnd_ty(op, "src");
    const ct_type *xo = opnd_ty(op, "x_offsets"), *yo = opnd_ty(op, "y_offset");
    if (!blk || blk->rank != 2 || blk->shape[0] != 1) {
        T1(opnd_ty(op, "desc"));
        err(v, op, "descriptor block must be a 2-d tensor of exactly 1 row, got %s", t1_);
        return;
    }
    if (!is_tensor(xo) || xo->rank != 1 || !elem_int(xo) || elem_bits(xo) != 32) {
        T1(xo);
        err(v, op, "x offsets must be a 1-d tensor of i32, but got %s", t1_);
        return;
    }
    if (!yo || yo->kind != CT_TY_INT || yo->bits != 32) {
        err(v, op, "the y offset must be an i32");
        return;
    }
    if (!is_tensor(res) || res->rank != 2) {
        T1(res);
        err(v, op, "result must be a 2-d tensor, but got %s", t1_);
        return;
    }
    int bits = elem_bits(res);
    if (res->shape[0] < 8) {
        err(v, op, "must have at least 8 rows, but got %lld", (long long)res->shape[0]);
        return;
    }
    if (bits > 32 || bits <= 0) {
        err(v, op, "TMA dtype cannot be greater than 32 bits");
        return;
    }
    int64_t min_cols = 32 / bits * 8;
    if (res->shape[1] < min_cols) {
        err(v, op, "must have at least %lld columns, but got %lld", (long long)min_cols,
            (long long)res->shape[1]);
        return;
    }
    if (res->shape[0] != xo->shape[0]) {
        err(v, op, "result tensor must have as many rows as indices (%lld), but got %lld",
            (long long)xo->shape[0], (long long)res->shape[0]);
        return;
    }
    if (res->shape[1] != blk->shape[1] || !type_eq(elem(res), blk->elem)) {
        T1(res); T2(blk);
        err(v, op, "result tensor %s must match the block %s in columns and element type", t1_,
            t2_);
    }
}

/* MLIR's Elementwise trait (tt.extern_elementwise, tt.elementwise_inline_asm): scalars may
 * mix with tensors, the tensors have one shape, and tensor operands give tensor results */
static bool check_elementwise_trait(verifier *v, const ct_op *op)
{
    const ct_type *shape = NULL;
    int tin = 0, tout = 0;
    bool one_shape = true;
    for (int i = 0; i < op->nopnds + op->nres; i++) {
        const ct_type *t = i < op->nopnds ? opty(op, i) : resty(op, i - op->nopnds);
        if (!is_tensor(t))
            continue;
        if (i < op->nopnds)
            tin++;
        else
            tout++;
        if (!shape)
            shape = t;
        else if (!same_shape(shape, t))
            one_shape = false;
    }
    const char *why = NULL;
    if (tout && !tin)
        why = "if a result is a tensor, at least one operand must be a tensor";
    else if (tin && !tout)
        why = "if an operand is a tensor, there must be a tensor result";
    else if (tin && tout != op->nres)
        why = "if an operand is a tensor, every result must be a tensor";
    else if (!one_shape)
        why = "all tensor operands and results must have the same shape";
    if (why)
        err(v, op, "%s", why);
    return !why;
}

/* Triton's ElementwiseInlineAsmOp::verify */
static void check_inline_asm(verifier *v, const ct_op *op)
{
    if (!check_elementwise_trait(v, op))
        return;
    const ct_attr *pk = ct_op_attr(op, "packed_element");
    if (!pk || pk->kind != CT_ATTR_INT || !op->nopnds)
        return;
    if (pk->i < 1) { /* Triton divides by it */
        err(v, op, "packed_element must be positive, not %lld", (long long)pk->i);
        return;
    }
    int64_t n = is_tensor(opty(op, 0)) ? ct_type_numel(opty(op, 0)) : 0;
    if (n % pk->i)
        err(v, op, "number of input elements %lld must be a multiple of the op's packed_element "
                   "attribute, %lld", (long long)n, (long long)pk->i);
}

/* ------------------------------------------------------------------ */
/* The per-op rule                                                     */
/* ------------------------------------------------------------------ */

static void check_rule(verifier *v, const ct_op *op)
{
    switch (op->code) {
    case CT_OP_ARITH_CONSTANT: {
        const ct_attr *a = ct_op_attr(op, "value");
        if (!a)
            return;
        if (a->kind == CT_ATTR_BOOL) {
            if (!(resty(op, 0)->kind == CT_TY_INT && resty(op, 0)->bits == 1))
                err(v, op, "a boolean constant must be i1");
        } else if (!a->type || !type_eq(a->type, resty(op, 0))) {
            T1(a->type); T2(resty(op, 0));
            err(v, op, "value of type %s for a result of type %s", t1_, t2_);
        }
        return;
    }
    case CT_OP_ARITH_CMPI: case CT_OP_ARITH_CMPF: {
        const ct_type *a = opty(op, 0);
        if (!type_eq(a, opty(op, 1))) {
            T1(a); T2(opty(op, 1));
            err(v, op, "compares %s with %s", t1_, t2_);
            return;
        }
        const ct_type *e = elem(a);
        if (op->code == CT_OP_ARITH_CMPF ? !elem_float(a)
                                         : !(e && (e->kind == CT_TY_INT || e->kind == CT_TY_INDEX ||
                                                   e->kind == CT_TY_PTR))) {
            T1(a);
            err(v, op, "expects %s operands, got %s",
                op->code == CT_OP_ARITH_CMPF ? "floating-point" : "integer", t1_);
        }
        if (!elem_i1(resty(op, 0)) || !same_shape(resty(op, 0), a))
            err(v, op, "result must be i1 in the shape of the operands");
        return;
    }
    case CT_OP_ARITH_SELECT: {
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
    case CT_OP_ARITH_EXTSI: case CT_OP_ARITH_EXTUI: case CT_OP_ARITH_TRUNCI:
    case CT_OP_ARITH_EXTF: case CT_OP_ARITH_TRUNCF: case CT_OP_ARITH_SITOFP:
    case CT_OP_ARITH_UITOFP: case CT_OP_ARITH_FPTOSI: case CT_OP_ARITH_FPTOUI:
    case CT_OP_ARITH_BITCAST: case CT_OP_ARITH_INDEX_CAST:
        check_cast(v, op);
        return;
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
        const ct_type *r = resty(op, 0);
        if (r->kind != CT_TY_INT || r->bits != 32)
            err(v, op, "result must be i32");
        return;
    }
    case CT_OP_TT_MAKE_RANGE: {
        if (!need_attr(v, op, "start", CT_ATTR_INT) || !need_attr(v, op, "end", CT_ATTR_INT))
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
    case CT_OP_TT_SPLAT: case CT_OP_TT_UNSPLAT: case CT_OP_TT_BROADCAST:
    case CT_OP_TT_EXPAND_DIMS: case CT_OP_TT_RESHAPE: case CT_OP_TT_TRANS: case CT_OP_TT_JOIN:
    case CT_OP_TT_SPLIT: case CT_OP_TT_CAT:
        check_shape_op(v, op);
        return;
    case CT_OP_TT_GATHER:
        check_gather(v, op);
        return;
    case CT_OP_TT_HISTOGRAM:
        check_histogram(v, op);
        return;
    case CT_OP_TT_ADDPTR: {
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
    case CT_OP_TT_BITCAST: case CT_OP_TT_INT_TO_PTR: case CT_OP_TT_PTR_TO_INT: {
        const ct_type *a = opty(op, 0), *r = resty(op, 0);
        bool ok = same_shape(a, r);
        if (op->code == CT_OP_TT_BITCAST && ok && (elem_ptr(a) || elem_ptr(r))) {
            /* Triton's BitcastOp::verify: pointer to pointer only, in one address space */
            if (!elem_ptr(a) || !elem_ptr(r)) {
                T1(a); T2(r);
                err(v, op, "cannot bitcast a pointer to a non-pointer type or back (%s to %s)",
                    t1_, t2_);
            } else if (elem(a)->addrspace != elem(r)->addrspace) {
                err(v, op, "cannot bitcast a pointer between address spaces");
            }
            return;
        }
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
    case CT_OP_TT_FP_TO_FP:
        if (!elem_float(opty(op, 0)) || !elem_float(resty(op, 0)) ||
            !same_shape(opty(op, 0), resty(op, 0)))
            err(v, op, "converts between float types of one shape");
        else if (elem_bits(resty(op, 0)) < elem_bits(opty(op, 0)) && !ct_op_attr(op, "rounding"))
            err(v, op, "rounding mode is required for an fp downcast"); /* Triton's FpToFpOp */
        return;
    case CT_OP_TT_DOT:
        check_dot(v, op);
        return;
    case CT_OP_TT_REDUCE: case CT_OP_TT_SCAN:
        check_reduce_scan(v, op);
        return;
    case CT_OP_TT_EXTERN_ELEMENTWISE:
        check_elementwise_trait(v, op);
        return;
    case CT_OP_TT_INLINE_ASM:
        check_inline_asm(v, op);
        return;
    case CT_OP_TT_ASSERT:
        if (!elem_i1(opty(op, 0)))
            err(v, op, "condition must be i1");
        return;
    case CT_OP_TT_DESCRIPTOR_LOAD: case CT_OP_TT_DESCRIPTOR_STORE:
    case CT_OP_TT_DESCRIPTOR_REDUCE:
        check_desc_access(v, op);
        return;
    case CT_OP_TT_DESCRIPTOR_GATHER: case CT_OP_TT_DESCRIPTOR_SCATTER:
        check_desc_gather(v, op);
        return;
    case CT_OP_TT_MAP_ELEMENTWISE:
        check_map_elementwise(v, op);
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
    case CT_OP_SCF_EXECUTE_REGION:
        check_execute_region(v, op);
        return;
    case CT_OP_CF_BR: case CT_OP_CF_COND_BR:
        check_branch(v, op);
        return;
    default:
        /* tt.print, tt.make_tensor_ptr, tt.advance, tt.make_tensor_descriptor, llvm.intr.assume,
         * ub.poison: what the op table implies is all there is. */
        return;
    }
}

/* ------------------------------------------------------------------ */
/* Walk                                                                */
/* ------------------------------------------------------------------ */

/* the rank of every tensor in a type is at most CT_MAX_RANK (the one limit of the
 * IR, the parser and the emulator's fixed arrays) */
static bool rank_ok(const ct_type *t, int depth)
{
    if (!t || depth > 8)
        return true;
    if (t->kind == CT_TY_TENSOR && t->rank > CT_MAX_RANK)
        return false;
    return t->kind == CT_TY_FUNC || rank_ok(t->elem, depth + 1);
}

/* a region as its row says: present or empty, one block or several, each ending in
 * the region's terminator (or a branch, where several blocks are allowed) */
static void check_region(verifier *v, const ct_op *op, int ri)
{
    const ct_op_region_sig *rs = &ct_op_sig_of(op->code)->region[ri];
    const ct_region *r = &op->regions[ri];
    int n = ct_region_nblocks(r);
    const char *opn = ct_op_info_of(op->code)->name;
    if (n == 0) {
        if (!rs->may_be_empty)
            err(v, op, "%s region is empty", rs->name);
        return;
    }
    if (n > 1 && !rs->many_blocks) {
        err(v, op, "%s region has %d blocks; it may have only one", rs->name, n);
        return;
    }
    for (const ct_block *b = r->first; b; b = b->next) {
        const ct_op *t = b->last;
        bool term = t && (ct_op_info_of(t->code)->flags & CT_OPF_TERM);
        bool ok = term && ((int)t->code == rs->term ||
                           (rs->many_blocks && (t->code == CT_OP_CF_BR || t->code == CT_OP_CF_COND_BR)));
        if (!term) {
            err(v, t ? t : op, "block in a %s region does not end with a terminator", opn);
            return;
        }
        if (!ok) {
            err(v, t, "ends a block of the %s region of %s, which ends with %s", rs->name, opn,
                ct_op_info_of(rs->term)->name);
            return;
        }
    }
}

static void verify_op(verifier *v, const ct_op *op);

static void verify_block(verifier *v, const ct_op *owner, const ct_block *b)
{
    int i = 0;
    for (const ct_op *o = b->first; o; o = o->next)
        ((ct_op *)o)->id = ++i; /* the position, in the scratch slot */
    for (int a = 0; a < b->nargs; a++)
        if (!b->args[a] || !b->args[a]->type || !rank_ok(b->args[a]->type, 0)) {
            err(v, owner, "block argument %d has no type or a tensor of rank above %d", a,
                CT_MAX_RANK);
            return;
        }
    for (const ct_op *o = b->first; o; o = o->next) {
        if (o->parent != b)
            err(v, o, "parent link is broken");
        if ((ct_op_info_of(o->code)->flags & CT_OPF_TERM) && o->next)
            err(v, o, "terminator is not the last op of its block");
        verify_op(v, o);
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
    if (!check_arity(v, op))
        return;
    for (int i = 0; i < op->nopnds; i++) {
        const ct_value *val = op->opnds[i];
        if (!val->type) {
            err(v, op, "operand %d has no type", i);
            return;
        }
        if (!visible(v, val, op)) {
            const ct_op *ctl = closed_control(val, op);
            if (ctl)
                err(v, op,
                    "operand %d is used where its definition does not dominate: it is defined "
                    "inside the %s at line %d and used after it (in C: a variable reassigned in "
                    "the body but not listed in %s(...), so not carried out)",
                    i, ctl->code == CT_OP_SCF_IF ? "branch" : "loop", ctl_line(ctl),
                    ctl->code == CT_OP_SCF_FOR ? "TL_FOR" : ctl->code == CT_OP_SCF_WHILE ? "TL_WHILE"
                                                                                       : "TL_IF");
            else
                err(v, op, "operand %d is used where its definition does not dominate", i);
            return;
        }
    }
    for (int i = 0; i < op->nres; i++) {
        if (!op->res[i].type) {
            err(v, op, "result %d has no type", i);
            return;
        }
        if (!rank_ok(op->res[i].type, 0)) {
            err(v, op, "result %d is a tensor of rank above %d", i, CT_MAX_RANK);
            return;
        }
    }
    /* a terminator ends a region of the op its row names it for */
    if (ct_op_info_of(op->code)->flags & CT_OPF_TERM) {
        const ct_op *p = ct_op_parent_op(op);
        bool ok = false;
        if (p && op->parent && op->parent->parent) {
            int ri = (int)(op->parent->parent - p->regions);
            const ct_op_region_sig *rs = &ct_op_sig_of(p->code)->region[ri];
            ok = ri >= 0 && ri < p->nregions &&
                 ((int)op->code == rs->term ||
                  (rs->many_blocks && (op->code == CT_OP_CF_BR || op->code == CT_OP_CF_COND_BR)));
        }
        if (!ok) {
            err(v, op, "must end a region of an op that ends with it (%s)",
                p ? ct_op_info_of(p->code)->name : "here: no op");
            return;
        }
    }
    int before = v->nerrors;
    unsigned flags = ct_op_info_of(op->code)->flags;
    check_attrs(v, op);
    if (flags & CT_OPF_SAME)
        check_same(v, op, flags);
    if (v->nerrors == before)
        check_rule(v, op);
    if (v->nerrors == before)
        check_rules(v, op);
    for (int ri = 0; ri < op->nregions; ri++) {
        const ct_region *r = &op->regions[ri];
        int bi = 0;
        for (const ct_block *b = r->first; b; b = b->next)
            ((ct_block *)b)->id = bi++; /* the index, in the scratch slot */
        check_region(v, op, ri);
        for (const ct_block *b = r->first; b; b = b->next)
            verify_block(v, op, b);
    }
}

static bool verify_module(const ct_module *m, ct_diags *d, const ct_op_where *where)
{
    verifier v = {.m = m, .d = d, .where = where};
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
    if (v.oom)
        err(&v, NULL, "out of memory");
    /* free the dominator tables */
    for (size_t i = 0; i < v.doms.cap; i++)
        if (v.doms.keys[i]) {
            region_dom *rd = v.doms.vals[i];
            ct_xfree(rd->dom);
            ct_xfree(rd);
        }
    ct_pm_free(&v.doms);
    return v.nerrors == 0;
}

/* The entry point: out of memory while verifying releases the verifier's tables
 * and is an error (util/alloc.h). */
bool ct_verify_module_at(const ct_module *m, ct_diags *d, const ct_op_where *where)
{
    ct_oom_scope s;
    ct_oom_push(&s);
    if (setjmp(s.jb)) {
        ct_oom_unwind(&s);
        ct_diag_add(d, CT_ERROR, where ? where->file : NULL, 0, 0, "verifier: out of memory");
        return false;
    }
    bool ok = verify_module(m, d, where);
    ct_oom_pop(&s);
    return ok;
}

bool ct_verify_module(const ct_module *m, ct_diags *d)
{
    /* a parsed module's ops without loc(): where its text had them */
    ct_op_where w = ct_module_where(m);
    return ct_verify_module_at(m, d, &w);
}
