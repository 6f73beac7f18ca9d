/*
 * compile_ops.c - compiling the data ops: constants, elementwise arithmetic
 * (with the fma contraction model), casts, shape ops, memory, block
 * pointers, dot, print.  Each turns one op into one or a few instructions.
 */
#include "compile_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- FMA contraction ---------------------------------------------------------------------- */

bool emu_cc_splits_block(const ct_op *op)
{
    switch (op->code) {
    case CT_OP_SCF_FOR:
    case CT_OP_SCF_IF:
    case CT_OP_SCF_WHILE:
    case CT_OP_TT_ASSERT:
    case CT_OP_CF_BR:
    case CT_OP_CF_COND_BR:
        return true;
    default:
        return false;
    }
}

/* the mulf defining v, if LLVM would see it in the same basic block as `user` */
const ct_op *emu_cc_fusable_mul(cctx *C, const ct_op *user, const ct_value *v)
{
    const ct_op *m = v->def;
    if (!m || m->code != CT_OP_ARITH_MULF || m->parent != user->parent || !emu_cc_is_live(C, m))
        return NULL;
    if (m->res[0].type != user->res[0].type)
        return NULL;
    for (const ct_op *o = m->next; o && o != user; o = o->next)
        if (emu_cc_splits_block(o))
            return NULL;
    return m;
}

/* Is v a float constant with one value in every lane (arith.constant, or a tt.splat of one)?
 * A divisor that is one reaches ptxas as an immediate, and ptxas folds div.full's sequence
 * (emu_div_full_const). */
static bool uniform_float_const(const ct_value *v)
{
    const ct_op *d = v->def;
    if (d && d->code == CT_OP_TT_SPLAT)
        d = d->opnds[0]->def;
    if (!d || d->code != CT_OP_ARITH_CONSTANT)
        return false;
    const ct_attr *a = emu_cc_attr(d, "value");
    if (!a)
        return false;
    if (a->kind == CT_ATTR_FLOAT || a->kind == CT_ATTR_INT)
        return true;
    if (a->kind != CT_ATTR_DENSE || !a->fvals || a->n < 1)
        return false;
    for (int i = 1; i < a->n; i++)
        if (memcmp(&a->fvals[i], &a->fvals[0], sizeof a->fvals[0]) != 0)
            return false;
    return true;
}

/* Is `q` (an f32 divf) contracted by ptxas into every one of its uses?  div.full.f32 ends in
 * an FMUL, which ptxas fuses with the add.f32s of the same block that use the quotient when
 * that leaves the FMUL dead: every use is an addf/subf later in the block (before anything
 * that starts another block), the quotient once among its operands, and not the addend of an
 * fma LLVM already contracted there.  Seen in the H200's SASS: `tl.sum(x) / N + eps` is FFMA
 * rcp, sum, eps, and the layer norm's mean, also stored, stays an FMUL; in ptxas's SASS of
 * ops_float's captured PTX, `x / 3` added to two sums is two FFMAs x, 1/3, acc. */
static bool div_fuses_into_all_uses(cctx *C, const ct_op *q)
{
    const ct_value *v = &q->res[0];
    int want = emu_cc_uses_of(C, v), found = 0;
    for (const ct_op *o = q->next; o && found < want; o = o->next) {
        if (emu_cc_splits_block(o))
            break;
        int k = 0;
        for (int i = 0; i < o->nopnds; i++)
            k += o->opnds[i] == v;
        if (!k)
            continue;
        if (k != 1 || (o->code != CT_OP_ARITH_ADDF && o->code != CT_OP_ARITH_SUBF) ||
            o->res[0].type != q->res[0].type || !emu_cc_is_live(C, o) ||
            emu_cc_fusable_mul(C, o, o->opnds[0]) || emu_cc_fusable_mul(C, o, o->opnds[1]))
            return false;
        found++;
    }
    return found == want;
}

/* the f32 divf defining v, if ptxas contracts it into `user` */
static const ct_op *fusable_div(cctx *C, const ct_op *user, const ct_value *v)
{
    const ct_op *m = v->def;
    if (!m || m->code != CT_OP_ARITH_DIVF || m->parent != user->parent || !emu_cc_is_live(C, m))
        return NULL;
    if (m->res[0].type != user->res[0].type || emu_cc_ek_of(m->res[0].type) != EK_F32)
        return NULL;
    return div_fuses_into_all_uses(C, m) ? m : NULL;
}

/* addf/subf of an f32 divf that ptxas contracts -> one contracted instruction; returns true if emitted */
static bool try_div_fma(cctx *C, const ct_op *op)
{
    const ct_op *q0 = fusable_div(C, op, op->opnds[0]);
    const ct_op *q1 = q0 ? NULL : fusable_div(C, op, op->opnds[1]);
    if (!q0 && !q1)
        return false;
    const ct_op *q = q0 ? q0 : q1;
    const ct_value *other = q0 ? op->opnds[1] : op->opnds[0];
    int form = op->code == CT_OP_ARITH_ADDF ? 0 : q0 ? 1 : 2;
    int a = emu_cc_val(C, op, q->opnds[0]), b = emu_cc_val(C, op, q->opnds[1]), c = emu_cc_val(C, op, other);
    int d = emu_cc_new_val(C, op, op->res[0].type);
    emu_cc_bind(C, &op->res[0], d);
    int i = emu_cc_emit(C, emu_divfma_fn(form, uniform_float_const(q->opnds[1])), op);
    emu_ins *I = INS(i);
    I->d = OFF(d);
    I->a = OFF(a);
    I->b = OFF(b);
    I->c = OFF(c);
    I->n = C->vals[d].n;
    I->ek = EK_F32;
    return true;
}

/* The order of the two operands of an fadd as LLVM's Reassociate pass leaves it, which decides
 * the product the DAG combiner contracts when both are products with as many uses: Reassociate
 * puts every commutative operation's operands in the order of their ranks, the lower first
 * (canonicalizeOperands, also without fast-math flags).  A rank is 0 for a constant, 3, 4, ...
 * for the kernel's arguments, a fresh increasing rank for each instruction that touches memory
 * (Triton's loads are inline asm with side effects) in program order, above the arguments',
 * and 1 + the largest operand rank for any other value (a negation adds nothing).  Here, on the
 * TTIR: a tt.load (any op that reads memory) counts once, whatever number of load instructions
 * it becomes, values of loops and of inlined calls' arguments rank as memory ops would at their
 * place.  Seen in rope_kernel h32_d128_fp16: `q2 * cos + q1 * sin` (q1 loaded before q2) is
 * fma(q1, sin, q2 * cos) in Triton's PTX. */
static int64_t mem_order(cctx *C, const ct_op *op)
{
    intptr_t got = (intptr_t)ct_pm_get(&C->ranks, op);
    if (got)
        return got - 1;
    /* count the ops that read memory before op in program order (its block and its ancestors'
     * blocks, nested regions included), once per op */
    int64_t n = 0;
    for (const ct_op *o = op; o; o = o->parent && o->parent->parent ? o->parent->parent->parent : NULL) {
        for (const ct_op *p = o->prev; p; p = p->prev) {
            if (ct_op_info_of(p->code)->flags & CT_OPF_READ)
                n++;
            for (int r = 0; r < p->nregions; r++)
                for (const ct_block *b = p->regions[r].first; b; b = b->next)
                    for (const ct_op *q = b->first; q; q = q->next)
                        n += (ct_op_info_of(q->code)->flags & CT_OPF_READ) != 0;
        }
    }
    ct_pm_put(&C->ranks, op, (void *)(intptr_t)(n + 1));
    return n;
}

static int64_t reassoc_rank(cctx *C, const ct_value *v, const emu_callsite *site, int depth)
{
    const int64_t mem_base = 1 << 16;
    if (depth > 4000)
        return mem_base;
    if (!v->def) {
        if (site && v->owner == site->entry && v->index < site->call->nopnds)
            return reassoc_rank(C, site->call->opnds[v->index], site->up, depth + 1);
        const ct_region *rg = v->owner ? v->owner->parent : NULL;
        if (!site && rg && rg->first == v->owner && rg->parent && rg->parent->code == CT_OP_TT_FUNC)
            return 3 + v->index;
        const ct_op *holder = rg ? rg->parent : NULL;
        return holder ? mem_base + mem_order(C, holder) : mem_base;
    }
    /* memoized: values of the kernel for good, an inlined call's for this query (within one
     * query a value is reached under one call site only) */
    ct_ptrmap *memo = site ? &C->rank_scratch : &C->ranks;
    intptr_t got = (intptr_t)ct_pm_get(memo, v);
    if (got)
        return got - 1;
    const ct_op *op = v->def;
    int64_t r;
    bool opaque = op->nregions > 0; /* a loop's or an if's results, like a memory op's */
    opaque = opaque || (ct_op_info_of(op->code)->flags & CT_OPF_READ) || op->code == CT_OP_TT_CALL;
    if (op->code == CT_OP_ARITH_CONSTANT) {
        r = 0;
    } else if (opaque) {
        r = mem_base + 1 + mem_order(C, op);
    } else {
        r = 0;
        for (int i = 0; i < op->nopnds; i++) {
            int64_t o = reassoc_rank(C, op->opnds[i], site, depth + 1);
            r = o > r ? o : r;
        }
        if (op->code != CT_OP_ARITH_NEGF)
            r++;
    }
    ct_pm_put(memo, v, (void *)(intptr_t)(r + 1));
    return r;
}

/* addf/subf -> fma when contractible; returns true if emitted */
bool emu_cc_try_fma(cctx *C, const ct_op *op)
{
    int ek = emu_cc_ek_of(op->res[0].type);
    if (ek != EK_F32 && ek != EK_F64 && ek != EK_F16 && ek != EK_BF16)
        return false;
    const ct_op *m0 = emu_cc_fusable_mul(C, op, op->opnds[0]);
    const ct_op *m1 = emu_cc_fusable_mul(C, op, op->opnds[1]);
    if (!m0 && !m1)
        return ek == EK_F32 && try_div_fma(C, op);
    bool prefer1 = false;
    if (m0 && m1) {
        int u0 = emu_cc_uses_of(C, &m0->res[0]), u1 = emu_cc_uses_of(C, &m1->res[0]);
        /* an fadd's operands in Reassociate's order first, then the product with fewer uses */
        if (u0 == u1 && op->code == CT_OP_ARITH_ADDF) {
            ct_pm_clear(&C->rank_scratch);
            prefer1 = reassoc_rank(C, op->opnds[1], C->site, 0) < reassoc_rank(C, op->opnds[0], C->site, 0);
        }
        else
            prefer1 = u0 > u1;
    }
    const ct_op *m;
    int form;
    const ct_value *other;
    if (op->code == CT_OP_ARITH_ADDF) {
        if (m0 && !prefer1) {
            m = m0;
            other = op->opnds[1];
        } else {
            m = m1;
            other = op->opnds[0];
        }
        form = 0; /* m.a * m.b + other */
    } else {
        if (m0 && !prefer1) {
            m = m0;
            other = op->opnds[1];
            form = 1; /* m.a * m.b - other */
        } else {
            m = m1;
            other = op->opnds[0];
            form = 2; /* other - m.a * m.b */
        }
    }
    int a = emu_cc_val(C, op, m->opnds[0]), b = emu_cc_val(C, op, m->opnds[1]), c = emu_cc_val(C, op, other);
    int d = emu_cc_new_val(C, op, op->res[0].type);
    emu_cc_bind(C, &op->res[0], d);
    int i = emu_cc_emit(C, emu_fma_fn((emu_ek)ek, form), op);
    emu_ins *I = INS(i);
    I->d = OFF(d);
    I->a = OFF(a);
    I->b = OFF(b);
    I->c = OFF(c);
    I->n = C->vals[d].n;
    I->ek = (uint8_t)ek;
    return true;
}

/* ---- constants ------------------------------------------------------------------------------- */

static void store_elem(emu_ek ek, uint8_t *p, int64_t i, const ct_attr *a, int j, bool is_float)
{
    if (emu_ek_is_float(ek)) {
        double v = is_float ? a->fvals[j] : (double)a->ivals[j];
        if (ek == EK_F32) {
            float f = (float)v;
            memcpy(p + i * 4, &f, 4);
        } else {
            emu_store_f64(ek, p, i, v);
        }
    } else {
        emu_store_i64(ek, p, i, is_float ? (int64_t)a->fvals[j] : a->ivals[j]);
    }
}

bool emu_cc_constant(cctx *C, const ct_op *op)
{
    const ct_attr *a = emu_cc_attr(op, "value");
    const ct_type *t = op->res[0].type;
    int d = emu_cc_new_val(C, op, t);
    val *v = &C->vals[d];
    int64_t n = v->n < 0 ? C->batch : v->n;
    size_t es = emu_ek_size(v->ek);
    uint8_t *data = emu_cc_aux(C, (size_t)n * es);
    if (!a) {
        emu_cc_err(C, op, "constant without a value");
        return false;
    }
    switch (a->kind) {
    case CT_ATTR_INT:
    case CT_ATTR_BOOL:
        for (int64_t i = 0; i < n; i++) {
            if (emu_ek_is_float(v->ek))
                emu_store_f64(v->ek, data, i, (double)a->i);
            else
                emu_store_i64(v->ek, data, i, a->i);
        }
        break;
    case CT_ATTR_FLOAT:
        for (int64_t i = 0; i < n; i++) {
            if (v->ek == EK_F32) {
                float f = (float)a->f;
                memcpy(data + i * 4, &f, 4);
            } else {
                emu_store_f64(v->ek, data, i, a->f);
            }
        }
        break;
    case CT_ATTR_DENSE: {
        bool fl = a->fvals != NULL;
        if (a->n != 1 && a->n != n) {
            emu_cc_err(C, op, "dense constant with %d values for %lld elements", a->n, (long long)n);
            return false;
        }
        for (int64_t i = 0; i < n; i++)
            store_elem(v->ek, data, i, a, a->n == 1 ? 0 : (int)i, fl);
        break;
    }
    default:
        emu_cc_err(C, op, "unsupported constant attribute");
        return false;
    }
    emu_cc_add_init(C, v->off, data, (size_t)n * es);
    emu_cc_bind(C, &op->res[0], d);
    return true;
}

/* ---- elementwise ops --------------------------------------------------------------------------- */

/* a parsed module is not trusted: sizes that the handlers rely on */
#define REQUIRE(cond, what)                                                                    \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            emu_cc_err(C, op, "%s", what);                                                     \
            return false;                                                                      \
        }                                                                                      \
    } while (0)
#define NE_(v) (C->vals[(v)].n)
#define ES_(v) emu_ek_size(C->vals[(v)].ek)

/* The scalar a splat operand (value index v, operand idx of op) was made from, when op may read
 * the scalar instead: the splat has no other use and the scalar's storage no other value (an
 * in-place overwrite).  The scalar is then pinned (never overwritten later).  -1 if not. */
static int forward_splat(cctx *C, const ct_op *op, int idx, int v)
{
    const val *sv = &C->vals[v];
    if (sv->splat_src < 0 || sv->n < 0 || emu_cc_uses_of(C, op->opnds[idx]) != 1)
        return -1;
    int s = sv->splat_src;
    for (int i = 0; i < C->nvals; i++)
        if (i != s && C->vals[i].off == C->vals[s].off)
            return -1;
    return s;
}

/* A one-element copy (value index) of v when v is an integer constant tensor whose elements
 * are all equal (arith.constant dense<64> : tensor<128x64xi32>, what Python emits for a
 * constexpr offset); -1 otherwise.  Written once per thread, never overwritten. */
static int uniform_int_const(cctx *C, const ct_value *v)
{
    const ct_op *d = v->def;
    if (!d || d->code != CT_OP_ARITH_CONSTANT || v->type->kind != CT_TY_TENSOR)
        return -1;
    const ct_attr *a = emu_cc_attr(d, "value");
    if (!a || a->kind != CT_ATTR_DENSE || a->fvals || !a->ivals || a->n < 1)
        return -1;
    for (int i = 1; i < a->n; i++)
        if (a->ivals[i] != a->ivals[0])
            return -1;
    int sc = emu_cc_new_val(C, d, ct_type_scalar(v->type));
    val *sv = &C->vals[sc];
    if (sv->n != 1 || emu_ek_is_float(sv->ek))
        return -1;
    uint8_t *data = emu_cc_aux(C, emu_ek_size(sv->ek));
    emu_store_i64(sv->ek, data, 0, a->ivals[0]);
    emu_cc_add_init(C, sv->off, data, emu_ek_size(sv->ek));
    sv->inv = true;
    sv->pinned = true;
    return sc;
}

bool emu_cc_elementwise(cctx *C, const ct_op *op, emu_fn fn, int nin, emu_ek operand_ek)
{
    if (!fn) {
        int d = emu_cc_new_val(C, op, op->res[0].type);
        emu_cc_err(C, op, "not supported on %s", emu_ek_name(operand_ek));
        emu_cc_bind(C, &op->res[0], d);
        return false;
    }
    /* div.full by a constant: ptxas folds it (emu_div_full_const) */
    if (op->code == CT_OP_ARITH_DIVF && nin == 2 && uniform_float_const(op->opnds[1]) &&
        emu_divk_fn(operand_ek))
        fn = emu_divk_fn(operand_ek);
    int ops[EMU_ELEM_MAX_IN] = {0};
    for (int i = 0; i < nin && i < op->nopnds && i < EMU_ELEM_MAX_IN; i++)
        ops[i] = emu_cc_val(C, op, op->opnds[i]);
    /* pointer arithmetic on a splat reads the scalar (the splat is dropped): a row's base
     * pointer plus offsets, or a tile's pointers plus a step */
    if (fn == emu_h_addptr)
        for (int k = 0; k < 2; k++) {
            int sc = forward_splat(C, op, k, ops[k]);
            if (sc < 0)
                continue;
            C->code[C->vals[ops[k]].splat_ins].fn = emu_h_nop;
            C->vals[sc].pinned = true;
            ops[k] = sc;
            fn = k == 0 ? emu_h_addptr_sp : emu_h_addptr_so;
            break;
        }
    /* ... and on a constant offset that is the same in every lane, the scalar */
    if (fn == emu_h_addptr) {
        int sc = uniform_int_const(C, op->opnds[1]);
        if (sc >= 0) {
            ops[1] = sc;
            fn = emu_h_addptr_so;
        }
    }
    /* a pointer tensor advanced in a loop (p = p + step) is advanced in place, so that the
     * loop's yield does not copy it */
    int d = (fn == emu_h_addptr || fn == emu_h_addptr_so) &&
                    emu_cc_overwritable(C, op, 0, ops[0])
                ? emu_cc_alias_val(C, ops[0], op->res[0].type)
                : emu_cc_new_val(C, op, op->res[0].type);
    /* a parsed module is not trusted: the handler reads n elements of each */
    const val *dv = &C->vals[d];
    for (int i = 0; i < nin && i < op->nopnds; i++) {
        const val *v = &C->vals[ops[i]];
        bool scalar_cond = (fn == emu_h_select_scalar || fn == emu_h_addptr_sp) ? i == 0
                           : fn == emu_h_addptr_so                           ? i == 1
                                                                             : false;
        if (scalar_cond && v->n != 1) {
            emu_cc_err(C, op, "operand %d is not a scalar", i);
            return false;
        }
        if (!scalar_cond && v->n >= 0 && dv->n >= 0 && v->n != dv->n) {
            emu_cc_err(C, op, "operand %d has %lld elements, the result %lld", i,
                       (long long)v->n, (long long)dv->n);
            return false;
        }
        size_t want = emu_ek_size(operand_ek);
        if (fn == emu_h_select || fn == emu_h_select_scalar)
            want = i == 0 ? 1 : emu_ek_size(dv->ek);
        else if (fn == emu_h_addptr || fn == emu_h_addptr_sp || fn == emu_h_addptr_so)
            want = i == 0 ? 8 : emu_ek_size(v->ek);
        else if (op->code == CT_OP_TT_EXTERN_ELEMENTWISE)
            want = emu_ek_size(v->ek);
        if (emu_ek_size(v->ek) != want) {
            emu_cc_err(C, op, "operand %d has elements of %s", i, emu_ek_name(v->ek));
            return false;
        }
    }
    int i = emu_cc_emit(C, fn, op);
    emu_ins *I = INS(i);
    I->d = OFF(d);
    I->a = OFF(ops[0]);
    I->b = OFF(ops[1]);
    I->c = OFF(ops[2]);
    I->n = C->vals[d].n;
    I->ek = (uint8_t)C->vals[d].ek;
    I->ek2 = (uint8_t)operand_ek;
    emu_cc_bind(C, &op->res[0], d);
    return true;
}

emu_ek emu_cc_opnd_ek(const ct_op *op, int i)
{
    int e = emu_cc_ek_of(op->opnds[i]->type);
    return e < 0 ? EK_I8 : (emu_ek)e;
}

bool emu_cc_cast(cctx *C, const ct_op *op)
{
    emu_ek src = emu_cc_opnd_ek(op, 0);
    int dst = emu_cc_ek_of(op->res[0].type);
    if (dst < 0) {
        emu_cc_err(C, op, "unsupported result type");
        return false;
    }
    int rounding = 0;
    if (op->code == CT_OP_TT_FP_TO_FP) {
        int64_t rtz;
        ct_enum_value(CT_EN_ROUNDING, "rtz", 3, &rtz);
        int64_t r = ct_op_enum(op, "rounding", rtz + 1);
        if (r < 0) {
            emu_cc_err(C, op, "unknown rounding mode");
            return false;
        }
        rounding = r == rtz; /* internal: 0 rtne, 1 rtz */
        if (rounding == 1 && emu_ek_is_fp8((emu_ek)dst) && src != EK_F32 &&
            !(src == EK_F16 && dst == EK_F8E5)) {
            emu_cc_err(C, op, "rounding toward zero to fp8 is only supported from f32 (Triton "
                        "rejects it too)");
            return false;
        }
    }
    emu_fn fn = emu_cast_fn(op->code, src, (emu_ek)dst, rounding);
    if (!fn) {
        emu_cc_err(C, op, "cast from %s to %s is not supported", emu_ek_name(src),
             emu_ek_name((emu_ek)dst));
        return false;
    }
    int d = emu_cc_new_val(C, op, op->res[0].type);
    int a = emu_cc_val(C, op, op->opnds[0]);
    if (C->vals[a].n != C->vals[d].n) {
        emu_cc_err(C, op, "operand and result shapes differ");
        return false;
    }
    int i = emu_cc_emit(C, fn, op);
    emu_ins *I = INS(i);
    I->d = OFF(d);
    I->a = OFF(a);
    I->n = C->vals[d].n;
    I->ek = (uint8_t)dst;
    I->ek2 = (uint8_t)src;
    I->x.i = emu_cast_mode(op->code);
    I->y.i = rounding;
    emu_cc_bind(C, &op->res[0], d);
    return true;
}

bool emu_cc_alias(cctx *C, const ct_op *op)
{
    int a = emu_cc_val(C, op, op->opnds[0]);
    const ct_type *t = op->res[0].type;
    int ek = emu_cc_ek_of(t);
    if (ek < 0) {
        emu_cc_err(C, op, "unsupported result type");
        return false;
    }
    int64_t n = ct_type_numel(t);
    val *s = &C->vals[a];
    if ((s->n >= 0 && n != s->n) || emu_ek_size((emu_ek)ek) != emu_ek_size(s->ek)) {
        emu_cc_err(C, op, "size mismatch between operand and result");
        return false;
    }
    emu_cc_bind(C, &op->res[0], emu_cc_alias_val(C, a, t));
    return true;
}

/* ---- tensor shape ops ----------------------------------------------------------------------------- */

emu_shape_aux *emu_cc_shape_aux(cctx *C, const ct_type *src, const ct_type *dst)
{
    emu_shape_aux *x = emu_cc_aux(C, sizeof *x);
    x->rank = dst->kind == CT_TY_TENSOR ? dst->rank : 0;
    for (int i = 0; src->kind == CT_TY_TENSOR && i < src->rank; i++)
        x->src[i] = src->shape[i];
    for (int i = 0; dst->kind == CT_TY_TENSOR && i < dst->rank; i++)
        x->dst[i] = dst->shape[i];
    int ek = emu_cc_ek_of(src);
    x->esize = emu_ek_size(ek < 0 ? EK_I8 : (emu_ek)ek);
    return x;
}

bool emu_cc_no_batch(cctx *C, const ct_op *op)
{
    if (C->batch > 0) {
        emu_cc_err(C, op, "not supported inside a combine region");
        return false;
    }
    return true;
}

bool emu_cc_shape_op(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    const ct_type *rt = op->res[0].type;
    switch (op->code) {
    case CT_OP_TT_SPLAT: {
        int a = emu_cc_val(C, op, op->opnds[0]);
        int d = emu_cc_new_val(C, op, rt);
        REQUIRE(NE_(a) == 1 && ES_(a) == ES_(d), "splat of a tensor or of another type");
        int i = emu_cc_emit(C, emu_h_splat, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->n = C->vals[d].n;
        INS(i)->ek = (uint8_t)C->vals[d].ek;
        C->vals[d].splat_src = a;
        C->vals[d].splat_ins = i;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_BROADCAST: {
        const ct_type *st = op->opnds[0]->type;
        int a = emu_cc_val(C, op, op->opnds[0]);
        if (st->kind != CT_TY_TENSOR) { /* a scalar: a splat */
            int d = emu_cc_new_val(C, op, rt);
            REQUIRE(ES_(a) == ES_(d), "broadcast to another type");
            int i = emu_cc_emit(C, emu_h_splat, op);
            INS(i)->d = OFF(d);
            INS(i)->a = OFF(a);
            INS(i)->n = C->vals[d].n;
            INS(i)->ek = (uint8_t)C->vals[d].ek;
            emu_cc_bind(C, &op->res[0], d);
            return true;
        }
        if (ct_type_numel(st) == ct_type_numel(rt)) {
            emu_cc_bind(C, &op->res[0], emu_cc_alias_val(C, a, rt));
            return true;
        }
        if (st->rank != rt->rank || rt->kind != CT_TY_TENSOR) {
            emu_cc_err(C, op, "broadcast between different ranks");
            return false;
        }
        for (int k = 0; k < st->rank; k++)
            REQUIRE(st->shape[k] == rt->shape[k] || st->shape[k] == 1, "broadcast of a non-1 dimension");
        REQUIRE(emu_ek_size((emu_ek)emu_cc_ek_of(st)) == emu_ek_size((emu_ek)emu_cc_ek_of(rt)),
                "broadcast to another type");
        int d = emu_cc_new_val(C, op, rt);
        int i = emu_cc_emit(C, emu_h_broadcast, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->n = C->vals[d].n;
        INS(i)->x.p = emu_cc_shape_aux(C, st, rt);
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_RESHAPE:
    case CT_OP_TT_UNSPLAT:
        return emu_cc_alias(C, op);
    case CT_OP_TT_TRANS: {
        const ct_type *st = op->opnds[0]->type;
        const ct_attr *o = emu_cc_attr(op, "order");
        int a = emu_cc_val(C, op, op->opnds[0]);
        if (!o || o->kind != CT_ATTR_DENSE_ARRAY || st->kind != CT_TY_TENSOR || o->n != st->rank) {
            emu_cc_err(C, op, "trans without a valid order");
            return false;
        }
        REQUIRE(rt->kind == CT_TY_TENSOR && rt->rank == st->rank &&
                    ct_type_numel(rt) == ct_type_numel(st),
                "trans changes the number of elements");
        emu_shape_aux *x = emu_cc_shape_aux(C, st, rt);
        for (int i = 0; i < o->n; i++) {
            if (o->ivals[i] < 0 || o->ivals[i] >= st->rank) {
                emu_cc_err(C, op, "bad order");
                return false;
            }
            x->perm[i] = (int32_t)o->ivals[i];
        }
        int d = emu_cc_new_val(C, op, rt);
        int i = emu_cc_emit(C, emu_h_trans, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->n = C->vals[d].n;
        INS(i)->x.p = x;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_JOIN: {
        int a = emu_cc_val(C, op, op->opnds[0]), b = emu_cc_val(C, op, op->opnds[1]);
        int d = emu_cc_new_val(C, op, rt);
        REQUIRE(NE_(a) == NE_(b) && NE_(d) == 2 * NE_(a) && ES_(a) == ES_(d) && ES_(b) == ES_(d),
                "join of mismatched tensors");
        int i = emu_cc_emit(C, emu_h_join, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->b = OFF(b);
        INS(i)->n = C->vals[a].n;
        INS(i)->x.p = emu_cc_shape_aux(C, op->opnds[0]->type, rt);
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_SPLIT: {
        int a = emu_cc_val(C, op, op->opnds[0]);
        int d0 = emu_cc_new_val(C, op, rt), d1 = emu_cc_new_val(C, op, op->res[1].type);
        REQUIRE(NE_(a) == 2 * NE_(d0) && NE_(d1) == NE_(d0) && ES_(a) == ES_(d0) && ES_(a) == ES_(d1),
                "split of mismatched tensors");
        emu_shape_aux *x = emu_cc_shape_aux(C, op->opnds[0]->type, rt);
        x->b2 = OFF(d1);
        int i = emu_cc_emit(C, emu_h_split, op);
        INS(i)->d = OFF(d0);
        INS(i)->a = OFF(a);
        INS(i)->n = C->vals[d0].n;
        INS(i)->x.p = x;
        emu_cc_bind(C, &op->res[0], d0);
        emu_cc_bind(C, &op->res[1], d1);
        return true;
    }
    case CT_OP_TT_CAT: {
        int a = emu_cc_val(C, op, op->opnds[0]), b = emu_cc_val(C, op, op->opnds[1]);
        int d = emu_cc_new_val(C, op, rt);
        REQUIRE(NE_(d) == NE_(a) + NE_(b) && ES_(a) == ES_(d) && ES_(b) == ES_(d),
                "cat of mismatched tensors");
        emu_shape_aux *x = emu_cc_shape_aux(C, op->opnds[0]->type, rt);
        x->src[0] = (int64_t)((size_t)C->vals[a].n * emu_ek_size(C->vals[a].ek));
        x->dst[0] = (int64_t)((size_t)C->vals[b].n * emu_ek_size(C->vals[b].ek));
        int i = emu_cc_emit(C, emu_h_cat, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->b = OFF(b);
        INS(i)->x.p = x;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_GATHER: {
        int a = emu_cc_val(C, op, op->opnds[0]), b = emu_cc_val(C, op, op->opnds[1]);
        int d = emu_cc_new_val(C, op, rt);
        const ct_type *gs = op->opnds[0]->type, *gi = op->opnds[1]->type;
        REQUIRE(gs->kind == CT_TY_TENSOR && gi->kind == CT_TY_TENSOR && gs->rank == gi->rank &&
                    NE_(d) == NE_(b) && ES_(a) == ES_(d),
                "gather of mismatched tensors");
        emu_shape_aux *x = emu_cc_shape_aux(C, op->opnds[0]->type, op->opnds[1]->type);
        x->axis = (int)emu_cc_attr_int(op, "axis", 0);
        if (x->axis < 0 || x->axis >= x->rank) {
            emu_cc_err(C, op, "bad axis");
            return false;
        }
        int i = emu_cc_emit(C, emu_h_gather, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->b = OFF(b);
        INS(i)->n = C->vals[d].n;
        INS(i)->ek2 = (uint8_t)C->vals[b].ek;
        INS(i)->x.p = x;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_HISTOGRAM: {
        int a = emu_cc_val(C, op, op->opnds[0]);
        int d = emu_cc_new_val(C, op, rt);
        int i = emu_cc_emit(C, emu_h_histogram, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        ct_value *mask = ct_op_get(op, "mask");
        if (mask) {
            INS(i)->b = OFF(emu_cc_val(C, op, mask));
            INS(i)->flags = 1;
        }
        INS(i)->n = C->vals[a].n;
        INS(i)->ek = (uint8_t)C->vals[d].ek;
        INS(i)->ek2 = (uint8_t)C->vals[a].ek;
        INS(i)->x.i = C->vals[d].n;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_MAKE_RANGE: {
        int d = emu_cc_new_val(C, op, rt);
        int i = emu_cc_emit(C, emu_h_make_range, op);
        INS(i)->d = OFF(d);
        INS(i)->n = C->vals[d].n;
        INS(i)->x.i = emu_cc_attr_int(op, "start", 0);
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    default:
        return false;
    }
}

/* ---- memory ------------------------------------------------------------------------------------------- */

size_t emu_cc_pointee_size(const ct_type *t)
{
    const ct_type *p = ct_type_scalar(t);
    if (!p || p->kind != CT_TY_PTR || !p->elem)
        return 0;
    int ek = emu_cc_ek_of(p->elem);
    return ek < 0 ? 0 : emu_ek_size((emu_ek)ek);
}

bool emu_cc_memory(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    const ct_type *pt = op->opnds[0]->type;
    const ct_type *ps = ct_type_scalar(pt);
    bool bptr = ps->kind == CT_TY_PTR && ps->elem && ps->elem->kind == CT_TY_TENSOR;
    emu_mem_aux *x = emu_cc_aux(C, sizeof *x);
    x->scalar = pt->kind != CT_TY_TENSOR && !bptr; /* a block pointer's lanes are its block's */
    x->inner = pt->kind == CT_TY_TENSOR && pt->rank > 0 ? pt->shape[pt->rank - 1] : 1;
    if (bptr) {
        const ct_type *blk = ps->elem;
        int ek = emu_cc_ek_of(blk->elem);
        if (ek < 0) {
            emu_cc_err(C, op, "unsupported element type");
            return false;
        }
        x->ek = (emu_ek)ek;
        x->esize = emu_ek_size(x->ek);
        x->rank = blk->rank;
        for (int i = 0; i < blk->rank; i++)
            x->shape[i] = blk->shape[i];
        const ct_attr *bc = emu_cc_attr(op, "boundaryCheck");
        if (bc && bc->kind == CT_ATTR_DENSE_ARRAY)
            for (int i = 0; i < bc->n; i++)
                if (bc->ivals[i] >= 0 && bc->ivals[i] < 32)
                    x->boundary |= 1u << bc->ivals[i];
        x->padding = (int)ct_op_enum(op, "padding", PAD_ZERO);
    } else {
        x->esize = emu_cc_pointee_size(pt);
        int ek = emu_cc_ek_of(ps->elem);
        x->ek = ek < 0 ? EK_I8 : (emu_ek)ek;
        if (!x->esize) {
            emu_cc_err(C, op, "unsupported pointer type");
            return false;
        }
    }
    int p = emu_cc_val(C, op, op->opnds[0]);
    switch (op->code) {
    case CT_OP_TT_LOAD: {
        int d = emu_cc_new_val(C, op, op->res[0].type);
        REQUIRE(ES_(d) == x->esize && (bptr ? NE_(d) == ct_type_numel(ps->elem) : NE_(p) == NE_(d)),
                "the result does not match the pointers");
        ct_value *mask = ct_op_get(op, "mask"), *other = ct_op_get(op, "other");
        REQUIRE(!other || (NE_(emu_cc_val(C, op, other)) == NE_(d) &&
                           ES_(emu_cc_val(C, op, other)) == ES_(d)),
                "`other` does not match the result");
        /* a volatile load is a poll (a spin-wait reads a flag so): it may yield (sched.c) */
        int i = emu_cc_emit(C, bptr                             ? emu_h_load_bptr
                               : ct_op_flag(op, "isVolatile") ? emu_h_load_volatile
                                                              : emu_h_load,
                            op);
        emu_ins *I = INS(i);
        I->d = OFF(d);
        I->a = OFF(p);
        I->n = C->vals[d].n;
        if (!bptr && mask) {
            int mk = emu_cc_val(C, op, mask);
            if (C->vals[mk].n != C->vals[d].n) {
                emu_cc_err(C, op, "mask shape differs from the pointer's");
                return false;
            }
            INS(i)->b = OFF(mk);
            x->has_mask = true;
        }
        if (!bptr && other) {
            INS(i)->c = OFF(emu_cc_val(C, op, other));
            x->has_other = true;
        }
        INS(i)->x.p = x;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_STORE: {
        ct_value *mask = ct_op_get(op, "mask");
        int v = emu_cc_val(C, op, ct_op_get(op, "value"));
        REQUIRE(ES_(v) == x->esize && (bptr ? NE_(v) == ct_type_numel(ps->elem) : NE_(p) == NE_(v)),
                "the value does not match the pointers");
        REQUIRE(bptr || !mask || NE_(emu_cc_val(C, op, mask)) == NE_(v),
                "the mask does not match the pointers");
        int i = emu_cc_emit(C, bptr ? emu_h_store_bptr : emu_h_store, op);
        INS(i)->a = OFF(p);
        INS(i)->b = OFF(v);
        INS(i)->n = C->vals[v].n;
        if (!bptr && mask) {
            INS(i)->c = OFF(emu_cc_val(C, op, mask));
            x->has_mask = true;
        }
        INS(i)->x.p = x;
        return true;
    }
    case CT_OP_TT_ATOMIC_RMW: {
        x->rmw = (int)ct_op_enum(op, "atomic_rmw_op", -1); /* RMW_* are ops.def's values */
        if (x->rmw < 0 || bptr) {
            emu_cc_err(C, op, "unsupported atomic");
            return false;
        }
        if (x->esize != 2 && x->esize != 4 && x->esize != 8) {
            emu_cc_err(C, op, "atomics on %zu-byte elements are not supported", x->esize);
            return false;
        }
        ct_value *mask = ct_op_get(op, "mask");
        int v = emu_cc_val(C, op, ct_op_get(op, "val"));
        int d = emu_cc_new_val(C, op, op->res[0].type);
        REQUIRE(NE_(p) == NE_(v) && NE_(d) == NE_(v) && ES_(v) == x->esize && ES_(d) == x->esize &&
                    (!mask || NE_(emu_cc_val(C, op, mask)) == NE_(v)),
                "atomic operands do not match");
        int i = emu_cc_emit(C, emu_h_atomic_rmw, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(p);
        INS(i)->b = OFF(v);
        INS(i)->n = C->vals[d].n;
        if (mask) {
            INS(i)->c = OFF(emu_cc_val(C, op, mask));
            x->has_mask = true;
        }
        INS(i)->x.p = x;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_ATOMIC_CAS: {
        if (bptr || (x->esize != 2 && x->esize != 4 && x->esize != 8)) {
            emu_cc_err(C, op, "unsupported atomic_cas");
            return false;
        }
        int cmp = emu_cc_val(C, op, ct_op_get(op, "cmp")), v = emu_cc_val(C, op, ct_op_get(op, "val"));
        int d = emu_cc_new_val(C, op, op->res[0].type);
        REQUIRE(NE_(p) == NE_(v) && NE_(cmp) == NE_(v) && NE_(d) == NE_(v) && ES_(v) == x->esize &&
                    ES_(cmp) == x->esize && ES_(d) == x->esize,
                "atomic_cas operands do not match");
        int i = emu_cc_emit(C, emu_h_atomic_cas, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(p);
        INS(i)->b = OFF(cmp);
        INS(i)->c = OFF(v);
        INS(i)->n = C->vals[d].n;
        INS(i)->x.p = x;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    default:
        return false;
    }
}


bool emu_cc_bptr(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    bptr_ops *o = emu_cc_aux(C, sizeof *o);
    int d = emu_cc_new_val(C, op, op->res[0].type);
    int i;
    if (op->code == CT_OP_TT_MAKE_TENSOR_PTR) {
        int r = ct_op_count(op, "shape"); /* shape, strides and offsets: one length */
        if (r < 1 || r > CT_MAX_RANK) {
            emu_cc_err(C, op, "malformed make_tensor_ptr");
            return false;
        }
        o->rank = r;
        o->base = OFF(emu_cc_val(C, op, op->opnds[0]));
        o->shape_ek = emu_cc_opnd_ek(op, 1);
        o->stride_ek = emu_cc_opnd_ek(op, 1 + r);
        o->off_ek = emu_cc_opnd_ek(op, 1 + 2 * r);
        for (int j = 0; j < r; j++) {
            o->shape[j] = OFF(emu_cc_val(C, op, op->opnds[1 + j]));
            o->strides[j] = OFF(emu_cc_val(C, op, op->opnds[1 + r + j]));
            o->offsets[j] = OFF(emu_cc_val(C, op, op->opnds[1 + 2 * r + j]));
        }
        i = emu_cc_emit(C, emu_h_make_bptr, op);
    } else {
        int r = op->nopnds - 1;
        if (r < 1 || r > CT_MAX_RANK) {
            emu_cc_err(C, op, "malformed advance");
            return false;
        }
        o->rank = r;
        o->off_ek = emu_cc_opnd_ek(op, 1);
        for (int j = 0; j < r; j++)
            o->offsets[j] = OFF(emu_cc_val(C, op, op->opnds[1 + j]));
        i = emu_cc_emit(C, emu_h_advance, op);
        INS(i)->a = OFF(emu_cc_val(C, op, op->opnds[0]));
    }
    INS(i)->d = OFF(d);
    INS(i)->x.p = o;
    emu_cc_bind(C, &op->res[0], d);
    return true;
}

/* ---- tensor descriptors ---------------------------------------------------------------------------------- */

bool emu_cc_desc(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    if (op->code == CT_OP_TT_MAKE_TENSOR_DESC) {
        int r = ct_op_count(op, "shape"); /* shape and strides: one length */
        const ct_type *dt = op->res[0].type;
        if (r < 1 || r > CT_MAX_RANK || dt->kind != CT_TY_TENSORDESC) {
            emu_cc_err(C, op, "malformed make_tensor_descriptor");
            return false;
        }
        bptr_ops *o = emu_cc_aux(C, sizeof *o);
        int d = emu_cc_new_val(C, op, dt);
        o->rank = r;
        o->base = OFF(emu_cc_val(C, op, op->opnds[0]));
        o->shape_ek = emu_cc_opnd_ek(op, 1);
        o->stride_ek = emu_cc_opnd_ek(op, 1 + r);
        for (int j = 0; j < r; j++) {
            o->shape[j] = OFF(emu_cc_val(C, op, op->opnds[1 + j]));
            o->strides[j] = OFF(emu_cc_val(C, op, op->opnds[1 + r + j]));
        }
        o->fill = (int)ct_op_enum(op, "padding", PAD_ZERO);
        int i = emu_cc_emit(C, emu_h_make_desc, op);
        INS(i)->d = OFF(d);
        INS(i)->x.p = o;
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    const ct_type *dt = op->opnds[0]->type;
    if (dt->kind != CT_TY_TENSORDESC || !dt->elem || dt->elem->kind != CT_TY_TENSOR) {
        emu_cc_err(C, op, "the first operand is not a tensor descriptor");
        return false;
    }
    const ct_type *blk = dt->elem;
    int r = blk->rank;
    bool store = op->code == CT_OP_TT_DESCRIPTOR_STORE || op->code == CT_OP_TT_DESCRIPTOR_REDUCE;
    if (r < 1 || r > CT_MAX_RANK || ct_op_count(op, "indices") != r) {
        emu_cc_err(C, op, "a descriptor access needs one index per dimension");
        return false;
    }
    desc_ops *o = emu_cc_aux(C, sizeof *o);
    int ek = emu_cc_ek_of(blk->elem);
    if (ek < 0) {
        emu_cc_err(C, op, "unsupported descriptor element type");
        return false;
    }
    o->m.ek = (emu_ek)ek;
    o->m.esize = emu_ek_size(o->m.ek);
    o->m.rank = r;
    for (int j = 0; j < r; j++)
        o->m.shape[j] = blk->shape[j];
    o->m.boundary = (uint32_t)((1ull << r) - 1);
    o->idx_ek = emu_cc_opnd_ek(op, 1);
    for (int j = 0; j < r; j++)
        o->idx[j] = OFF(emu_cc_val(C, op, op->opnds[1 + j]));
    int p = emu_cc_val(C, op, op->opnds[0]);
    int i;
    if (store) {
        int v = emu_cc_val(C, op, op->opnds[1 + r]);
        REQUIRE(ES_(v) == o->m.esize && NE_(v) == ct_type_numel(blk), "the value does not match the block");
        int rmw = 0;
        if (op->code == CT_OP_TT_DESCRIPTOR_REDUCE) {
            /* TMA reductions: each element as one atomic (tt.atomic_rmw's), in element order */
            /* each kind is the atomic of its name (inc and dec have none) */
            int64_t kval = ct_op_enum(op, "kind", -1), atomic = -1;
            const char *kw = kval >= 0 ? ct_enum_word(CT_EN_REDUCE_KIND, kval) : NULL;
            if (kw)
                ct_enum_value(CT_EN_RMW, kw, strlen(kw), &atomic);
            bool fl = emu_ek_is_float(o->m.ek), uns = blk->elem->signedness == 2;
            if (atomic < 0 || (fl && atomic != RMW_ADD)) {
                const ct_attr *ka = emu_cc_attr(op, "kind");
                emu_cc_err(C, op, "descriptor reduction `%s` on %s values is not supported",
                           ka && ka->s ? ka->s : "?", emu_ek_name(o->m.ek));
                return false;
            }
            rmw = fl ? RMW_FADD : (int)atomic;
            if (uns && rmw == RMW_MIN)
                rmw = RMW_UMIN;
            if (uns && rmw == RMW_MAX)
                rmw = RMW_UMAX;
        }
        i = emu_cc_emit(C, rmw ? emu_h_desc_reduce : emu_h_desc_store, op);
        INS(i)->flags = (uint32_t)rmw;
        INS(i)->b = OFF(v);
        INS(i)->n = C->vals[v].n;
    } else {
        int d = emu_cc_new_val(C, op, op->res[0].type);
        REQUIRE(ES_(d) == o->m.esize && NE_(d) == ct_type_numel(blk), "the result does not match the block");
        i = emu_cc_emit(C, emu_h_desc_load, op);
        INS(i)->d = OFF(d);
        INS(i)->n = C->vals[d].n;
        emu_cc_bind(C, &op->res[0], d);
    }
    INS(i)->a = OFF(p);
    INS(i)->x.p = o;
    return true;
}

/* ---- dot ---------------------------------------------------------------------------------------------------- */

bool emu_cc_dot(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    const ct_type *at = op->opnds[0]->type, *bt = op->opnds[1]->type, *ct = op->res[0].type;
    if (at->kind != CT_TY_TENSOR || bt->kind != CT_TY_TENSOR || ct->kind != CT_TY_TENSOR ||
        at->rank != bt->rank || at->rank < 2 || at->rank > 3) {
        emu_cc_err(C, op, "dot operands must be 2-D or 3-D tensors");
        return false;
    }
    emu_dot_aux *x = emu_cc_aux(C, sizeof *x);
    int r = at->rank;
    x->batch = r == 3 ? at->shape[0] : 1;
    x->M = at->shape[r - 2];
    x->K = at->shape[r - 1];
    x->N = bt->shape[r - 1];
    if (bt->shape[r - 2] != x->K) {
        emu_cc_err(C, op, "dot shapes do not agree");
        return false;
    }
    x->a_ek = emu_cc_opnd_ek(op, 0);
    x->b_ek = emu_cc_opnd_ek(op, 1);
    x->c_ek = (emu_ek)emu_cc_ek_of(ct);
    x->precision = (int)ct_op_enum(op, "inputPrecision", PREC_TF32);
    if (x->precision < 0) {
        emu_cc_err(C, op, "unknown inputPrecision");
        return false;
    }
    x->max_imprecise = emu_cc_attr_int(op, "maxNumImpreciseAcc", 0);
    /* Triton's choice on sm_90 (AccelerateMatmul's MMA v3 conditions, as measured on the H200's
     * captures, tests/golden/dots): wgmma for 2-D dots with num_warps a multiple of 4, M a
     * multiple of 64 and N of 16, and for fp8 into f32 maxNumImpreciseAcc >= 32; else mma.sync */
    bool fp8 = x->a_ek == EK_F8E4NV || x->a_ek == EK_F8E5;
    x->wgmma = r == 2 && C->num_warps % 4 == 0 && x->M % 64 == 0 && x->N % 16 == 0 &&
               !(fp8 && x->c_ek == EK_F32 && x->max_imprecise < 32);
    x->fast = C->fast_dot && x->c_ek == EK_F32 && emu_ek_is_float(x->a_ek) &&
              emu_ek_size(x->a_ek) <= 2 && emu_ek_size(x->b_ek) <= 2;
    x->scratch = (uint32_t)emu_cc_alloc_frame(C, emu_dot_scratch_bytes(x));
    int a = emu_cc_val(C, op, op->opnds[0]), b = emu_cc_val(C, op, op->opnds[1]);
    int c = emu_cc_val(C, op, op->opnds[2]);
    /* the accumulator of a K loop is updated in place: neither the dot nor the yield copies it */
    int d = emu_cc_overwritable(C, op, 2, c) ? emu_cc_alias_val(C, c, ct) : emu_cc_new_val(C, op, ct);
    REQUIRE(ct->rank == r && NE_(d) == x->batch * x->M * x->N && NE_(c) == NE_(d) &&
                C->vals[c].ek == C->vals[d].ek && (r < 3 || bt->shape[0] == x->batch),
            "dot operands do not match");
    int i = emu_cc_emit(C, emu_h_dot, op);
    INS(i)->d = OFF(d);
    INS(i)->a = OFF(a);
    INS(i)->b = OFF(b);
    INS(i)->c = OFF(c);
    INS(i)->n = C->vals[d].n;
    INS(i)->x.p = x;
    emu_cc_bind(C, &op->res[0], d);
    return true;
}

/* ---- misc ---------------------------------------------------------------------------------------------------- */

bool emu_cc_print(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    emu_print_aux *x = emu_cc_aux(C, sizeof *x);
    const ct_attr *p = emu_cc_attr(op, "prefix");
    x->prefix = ct_arena_strdup(C->A, p && p->s ? p->s : "");
    x->hex = emu_cc_attr_int(op, "hex", 0) != 0;
    x->n = op->nopnds;
    x->off = emu_cc_aux(C, sizeof(uint32_t) * (size_t)(op->nopnds + 1));
    x->numel = emu_cc_aux(C, sizeof(int64_t) * (size_t)(op->nopnds + 1));
    x->ek = emu_cc_aux(C, sizeof(emu_ek) * (size_t)(op->nopnds + 1));
    x->is_signed = emu_cc_aux(C, sizeof(bool) * (size_t)(op->nopnds + 1));
    const ct_attr *sg = emu_cc_attr(op, "isSigned");
    for (int i = 0; i < op->nopnds; i++) {
        int v = emu_cc_val(C, op, op->opnds[i]);
        x->off[i] = OFF(v);
        x->numel[i] = C->vals[v].n;
        x->ek[i] = C->vals[v].ek;
        x->is_signed[i] = sg && sg->kind == CT_ATTR_DENSE_ARRAY && i < sg->n ? sg->ivals[i] != 0 : true;
        const ct_type *t = op->opnds[i]->type;
        if (t->kind == CT_TY_TENSOR && x->rank == 0) {
            x->rank = t->rank;
            for (int d = 0; d < t->rank; d++)
                x->shape[d] = t->shape[d];
        }
    }
    /* the first operand drives the element count */
    for (int i = 1; i < op->nopnds; i++)
        if (x->numel[i] > x->numel[0]) {
            int64_t tn = x->numel[0];
            x->numel[0] = x->numel[i];
            x->numel[i] = tn;
        }
    int i = emu_cc_emit(C, emu_h_print, op);
    INS(i)->x.p = x;
    return true;
}

