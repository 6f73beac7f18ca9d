/*
 * compile.c - from IR to the emulator's internal form (emu_internal.h).
 *
 * One pass over the kernel function, with tt.call inlined:
 *  - dead pure ops are dropped (the frontend's dead overflow checks, unused
 *    constants), so the emulator does only the work the GPU does;
 *  - every SSA value gets a slot in the frame (values that move no data,
 *    like reshape or expand_dims, share their operand's slot);
 *  - every op becomes one or a few instructions with resolved handlers;
 *    control flow becomes jumps and parallel copies;
 *  - addf/subf of a mulf in the same block become fused multiply-adds, as
 *    the NVPTX backend contracts them (AllowFPOpFusion=Fast, aggressive FMA
 *    fusion: a mulf with several uses is fused into each of them; with two
 *    candidate mulfs, the one with fewer uses, else the first operand);
 *  - combine regions of tt.reduce/tt.scan are compiled "batched": their
 *    values hold a whole batch of elements and their element count is the
 *    frame's batch at run time.
 * Errors (unknown ops, unsupported types or attributes) are diagnostics
 * with the op's location; the kernel is then refused.
 */
#include "compile_internal.h"
#include "ctriton/check.h"
#include "util/alloc.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- diagnostics --------------------------------------------------------------- */

static const ct_loc *file_loc(const ct_loc *l, const ct_loc **caller)
{
    if (caller)
        *caller = NULL;
    while (l) {
        switch (l->kind) {
        case CT_LOC_FILE:
            return l;
        case CT_LOC_NAME:
            l = l->child;
            break;
        case CT_LOC_CALLSITE:
            if (caller && !*caller)
                *caller = l->caller;
            l = l->child;
            break;
        case CT_LOC_FUSED:
            l = l->nfused ? l->fused[0] : NULL;
            break;
        default:
            return NULL;
        }
    }
    return NULL;
}

void emu_cc_err(cctx *C, const ct_op *op, const char *fmt, ...)
{
    const ct_loc *l = op ? file_loc(op->loc, NULL) : NULL;
    const char *file = l ? l->file : NULL;
    int line = l ? l->line : 0, col = l ? l->col : 0;
    if (!l && op) /* no loc(): where the parsed text had the op */
        ct_module_op_position(C->m, op, &file, &line, &col);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *name = op ? ct_op_info_of(op->code)->name : "";
    ct_diag_add(C->d, CT_ERROR, file, line, col, "emulator: %s%s%s", name, *name ? ": " : "",
                msg);
    C->nerr++;
}

/* ---- growable arrays ----------------------------------------------------------- */


void emu_cc_abort_oom(void)
{
    ct_oom_fail(); /* to ct_emu_compile_ex's scope: an error, not an abort */
}

void *emu_cc_aux(cctx *C, size_t bytes)
{
    return ct_arena_alloc(C->A, bytes ? bytes : 1);
}

/* ---- locations ------------------------------------------------------------------ */

/* the index of location file:line:col called from parent, added when new */
static int add_loc(cctx *C, const char *file, int line, int col, int parent)
{
    for (int i = C->nlocs - 1; i >= 0 && i >= C->nlocs - 64; i--)
        if (C->locs[i].line == line && C->locs[i].col == col && C->locs[i].caller == parent &&
            !strcmp(C->locs[i].file, file))
            return i;
    GROW(C->locs, C->nlocs, C->clocs);
    emu_loc *L = &C->locs[C->nlocs];
    L->file = ct_arena_strdup(C->A, file);
    L->line = line;
    L->col = col;
    L->caller = parent;
    return C->nlocs++;
}

int emu_cc_loc_index(cctx *C, const ct_loc *l)
{
    const ct_loc *caller = NULL;
    const ct_loc *f = file_loc(l, &caller);
    int parent = C->caller_loc;
    if (caller) {
        /* a callsite location (inlined by Triton's passes): record its caller */
        const ct_loc *cf = file_loc(caller, NULL);
        if (cf) {
            int saved = C->caller_loc;
            C->caller_loc = parent;
            parent = emu_cc_loc_index(C, cf);
            C->caller_loc = saved;
        }
    }
    if (!f || !f->file)
        return parent >= 0 ? parent : -1;
    return add_loc(C, f->file, f->line, f->col, parent);
}

int emu_cc_op_loc(cctx *C, const ct_op *op)
{
    const char *file;
    int line, col;
    /* an op without a file location (TTIR written without loc()): its place in the text */
    if (!file_loc(op->loc, NULL) && ct_module_op_position(C->m, op, &file, &line, &col))
        return add_loc(C, file, line, col, C->caller_loc);
    return emu_cc_loc_index(C, op->loc);
}

/* ---- values ---------------------------------------------------------------------- */

int emu_cc_ek_of(const ct_type *t)
{
    t = ct_type_scalar(t);
    if (!t)
        return -1;
    switch (t->kind) {
    case CT_TY_INT:
        switch (t->bits) {
        case 1:
            return EK_I1;
        case 8:
            return EK_I8;
        case 16:
            return EK_I16;
        case 32:
            return EK_I32;
        case 64:
            return EK_I64;
        default:
            return -1;
        }
    case CT_TY_INDEX:
        return EK_I64;
    case CT_TY_FLOAT:
        switch (t->fk) {
        case CT_F16:
            return EK_F16;
        case CT_BF16:
            return EK_BF16;
        case CT_F32:
            return EK_F32;
        case CT_F64:
            return EK_F64;
        case CT_F8E4M3FN:
            return EK_F8E4NV;
        case CT_F8E5M2:
            return EK_F8E5;
        case CT_F8E4M3FNUZ:
            return EK_F8E4B8;
        case CT_F8E5M2FNUZ:
            return EK_F8E5B16;
        case CT_F8E4M3B11FNUZ:
            return EK_F8E4B15;
        }
        return -1;
    case CT_TY_PTR:
        return t->elem && t->elem->kind == CT_TY_TENSOR ? EK_BPTR : EK_PTR;
    case CT_TY_TENSORDESC:
        return EK_BPTR; /* a descriptor is a block pointer at offset 0 */
    default:
        return -1;
    }
}

size_t emu_cc_alloc_frame(cctx *C, size_t bytes)
{
    size_t off = (C->frame + 63) & ~(size_t)63;
    C->frame = off + (bytes ? bytes : 1);
    return off;
}

static int add_val(cctx *C, uint32_t off, int64_t n, emu_ek ek, const ct_type *t)
{
    GROW(C->vals, C->nvals, C->cvals);
    C->vals[C->nvals] = (val){off, n, ek, t, false, -1, -1, false};
    return C->nvals++;
}

/* A fresh value of type t (batched inside combine regions). */
int emu_cc_new_val(cctx *C, const ct_op *op, const ct_type *t)
{
    int ek = emu_cc_ek_of(t);
    if (ek < 0) {
        char buf[128];
        ct_type_str(t, buf, sizeof buf);
        emu_cc_err(C, op, "values of type %s are not supported", buf);
        ek = EK_I8;
    }
    int64_t n = ct_type_numel(t);
    if (n < 1)
        n = 1;
    if (C->batch > 0) {
        if (t->kind == CT_TY_TENSOR)
            emu_cc_err(C, op, "tensor values inside a combine region are not supported");
        size_t off = emu_cc_alloc_frame(C, (size_t)C->batch * emu_ek_size((emu_ek)ek));
        return add_val(C, (uint32_t)off, -1, (emu_ek)ek, t);
    }
    size_t off = emu_cc_alloc_frame(C, (size_t)n * emu_ek_size((emu_ek)ek));
    return add_val(C, (uint32_t)off, n, (emu_ek)ek, t);
}

/* A value sharing the storage of `from` with another type (no data moves). */
int emu_cc_alias_val(cctx *C, int from, const ct_type *t)
{
    int ek = emu_cc_ek_of(t);
    val v = C->vals[from];
    return add_val(C, v.off, v.n < 0 ? -1 : ct_type_numel(t), ek < 0 ? v.ek : (emu_ek)ek, t);
}

void emu_cc_bind(cctx *C, const ct_value *v, int idx)
{
    ct_pm_put(C->vmap, v, (void *)(intptr_t)(idx + 1));
}

int emu_cc_val(cctx *C, const ct_op *op, const ct_value *v)
{
    intptr_t i = (intptr_t)ct_pm_get(C->vmap, v);
    if (!i) {
        emu_cc_err(C, op, "operand used outside the scope the emulator compiled it in");
        return 0;
    }
    int idx = (int)(i - 1);
    if (C->batch > 0 && C->vals[idx].n >= 0)
        emu_cc_err(C, op, "a combine region uses a value defined outside it (not supported)");
    return idx;
}


/* ---- instructions ------------------------------------------------------------------ */

int emu_cc_emit(cctx *C, emu_fn fn, const ct_op *op)
{
    GROW(C->code, C->ncode, C->ccode);
    emu_ins *I = &C->code[C->ncode];
    memset(I, 0, sizeof *I);
    I->fn = fn;
    I->code = op ? (uint16_t)op->code : 0;
    I->loc = op ? emu_cc_op_loc(C, op) : -1;
    I->n = C->batch > 0 ? -1 : 1;
    return C->ncode++;
}


void emu_cc_add_init(cctx *C, uint32_t off, const void *data, size_t bytes)
{
    GROW(C->inits, C->ninits, C->cinits);
    C->inits[C->ninits++] = (emu_init){off, (uint32_t)bytes, data};
}

/* Parallel copy dst[i] <- src[i] (val indices), ordered through temporaries
 * when a source is also some other copy's destination. */
void emu_cc_pcopy(cctx *C, const ct_op *op, int n, const int *dst, const int *src)
{
    if (n == 0)
        return;
    int cap = 2 * n;
    emu_copy_aux *x = emu_cc_aux(C, sizeof *x);
    x->dst = emu_cc_aux(C, sizeof(uint32_t) * (size_t)cap);
    x->src = emu_cc_aux(C, sizeof(uint32_t) * (size_t)cap);
    x->bytes = emu_cc_aux(C, sizeof(uint32_t) * (size_t)cap);
    int m = 0;
    uint32_t sd[64], ss[64], sb[64];
    uint32_t *d = n <= 64 ? sd : emu_cc_aux(C, sizeof(uint32_t) * (size_t)n);
    uint32_t *s = n <= 64 ? ss : emu_cc_aux(C, sizeof(uint32_t) * (size_t)n);
    uint32_t *b = n <= 64 ? sb : emu_cc_aux(C, sizeof(uint32_t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        val *dv = &C->vals[dst[i]], *sv = &C->vals[src[i]];
        if (dv->off == sv->off)
            continue;
        int64_t ne = dv->n < 0 ? C->batch : dv->n;
        d[m] = dv->off;
        s[m] = sv->off;
        b[m] = (uint32_t)((size_t)ne * emu_ek_size(dv->ek));
        m++;
    }
    bool conflict = false;
    for (int i = 0; i < m && !conflict; i++)
        for (int j = 0; j < m; j++)
            if (i != j && s[i] < d[j] + b[j] && d[j] < s[i] + b[i])
                conflict = true;
    if (!conflict) {
        for (int i = 0; i < m; i++) {
            x->dst[x->n] = d[i];
            x->src[x->n] = s[i];
            x->bytes[x->n++] = b[i];
        }
    } else {
        uint32_t *tmp = emu_cc_aux(C, sizeof(uint32_t) * (size_t)(m ? m : 1));
        for (int i = 0; i < m; i++) {
            tmp[i] = (uint32_t)emu_cc_alloc_frame(C, b[i]);
            x->dst[x->n] = tmp[i];
            x->src[x->n] = s[i];
            x->bytes[x->n++] = b[i];
        }
        for (int i = 0; i < m; i++) {
            x->dst[x->n] = d[i];
            x->src[x->n] = tmp[i];
            x->bytes[x->n++] = b[i];
        }
    }
    if (x->n == 0)
        return;
    int i = emu_cc_emit(C, emu_h_pcopy, op);
    INS(i)->x.p = x;
}

/* ---- attributes (words as the printer writes them, or MLIR's enum integers) ---- */

const ct_attr *emu_cc_attr(const ct_op *op, const char *name)
{
    return ct_op_attr(op, name);
}

int64_t emu_cc_attr_int(const ct_op *op, const char *name, int64_t dflt)
{
    const ct_attr *a = emu_cc_attr(op, name);
    if (!a)
        return dflt;
    if (a->kind == CT_ATTR_INT || a->kind == CT_ATTR_BOOL)
        return a->i;
    return dflt;
}

/* ---- liveness -------------------------------------------------------------------------- */

bool emu_cc_is_live(cctx *C, const ct_op *op)
{
    return ct_pm_has(&C->live, op);
}

typedef struct wl {
    const ct_op **a;
    int n, cap;
} wl;

static void wl_push(wl *w, const ct_op *op)
{
    if (!op)
        return;
    GROW(w->a, w->n, w->cap);
    w->a[w->n++] = op;
}

static void push_terminators(wl *w, const ct_op *op)
{
    for (int r = 0; r < op->nregions; r++)
        for (ct_block *b = op->regions[r].first; b; b = b->next)
            if (b->last && (ct_op_info_of(b->last->code)->flags & CT_OPF_TERM))
                wl_push(w, b->last);
}

static bool seed_fn(ct_op *op, void *ud)
{
    wl *w = ud;
    unsigned fl = ct_op_info_of(op->code)->flags;
    if (op->code == CT_OP_TT_FUNC)
        return true;
    if (fl & CT_OPF_TERM) {
        const ct_op *p = ct_op_parent_op(op);
        if (p && p->code == CT_OP_TT_FUNC)
            wl_push(w, op);
        return true;
    }
    if (!(fl & CT_OPF_PURE))
        wl_push(w, op);
    return true;
}

static void compute_liveness(cctx *C)
{
    wl w = {0};
    ct_walk_module((ct_module *)C->m, seed_fn, &w);
    while (w.n) {
        const ct_op *op = w.a[--w.n];
        if (ct_pm_has(&C->live, op))
            continue;
        ct_pm_put(&C->live, op, (void *)1);
        for (int i = 0; i < op->nopnds; i++) {
            const ct_value *v = op->opnds[i];
            if (!v)
                continue;
            ct_pm_put(&C->uses, v, (void *)((intptr_t)ct_pm_get(&C->uses, v) + 1));
            if (v->def)
                wl_push(&w, v->def);
            else if (v->owner && v->owner->parent && v->owner->parent->parent &&
                     v->owner->parent->parent->code != CT_OP_TT_FUNC)
                wl_push(&w, v->owner->parent->parent);
        }
        const ct_op *p = ct_op_parent_op(op);
        if (p && p->code != CT_OP_TT_FUNC)
            wl_push(&w, p);
        push_terminators(&w, op);
        /* terminators of blocks reached by branches */
        for (int s = 0; s < op->nsucc; s++)
            if (op->succ[s] && op->succ[s]->last)
                wl_push(&w, op->succ[s]->last);
    }
    ct_xfree(w.a);
}

int emu_cc_uses_of(cctx *C, const ct_value *v)
{
    return (int)(intptr_t)ct_pm_get(&C->uses, v);
}

/* May op write its result over its operand `idx` (value index v), element i over element i?
 * Only when nothing can read the operand's storage afterwards: every use of it is op itself
 * or an operand of an earlier op of the same block (none nested in a region); it is defined
 * afresh each time the block runs (a result of an op of the block, or an argument of an
 * scf.for body, which the loop's copies rewrite every iteration); no other value shares its
 * storage (an alias, or the value it aliases); it is no constant or argument written once per
 * thread; it is not a batched value of a combine region. */
bool emu_cc_overwritable(cctx *C, const ct_op *op, int idx, int v)
{
    const ct_value *x = op->opnds[idx];
    if (C->batch > 0 || C->vals[v].n < 0 || C->vals[v].inv || C->vals[v].pinned)
        return false;
    if (x->def ? x->def->parent != op->parent
               : !(x->owner == op->parent && x->owner->parent && x->owner->parent->parent &&
                   x->owner->parent->parent->code == CT_OP_SCF_FOR && x->index > 0))
        return false;
    int seen = 0;
    for (const ct_op *o = op; o; o = o->prev)
        for (int i = 0; i < o->nopnds; i++)
            seen += o->opnds[i] == x;
    if (emu_cc_uses_of(C, x) != seen)
        return false;
    uint32_t off = C->vals[v].off;
    for (int i = 0; i < C->nvals; i++)
        if (i != v && C->vals[i].off == off)
            return false;
    for (int i = 0; i < C->ninits; i++)
        if (C->inits[i].off == off)
            return false;
    for (int i = 0; i < C->k->nparams; i++)
        if (C->k->pslots && C->k->pslots[i].off == off)
            return false;
    return true;
}

/* ---- dispatch and blocks ------------------------------------------------------------ */

/* the counts of operands, results, regions and successors an op must have
 * before its compiler reads them: its row in ops.def (ct_op_arity_ok); the
 * verifier checks the same, this keeps a module that skipped it from being
 * read out of bounds */
static bool arity_ok(cctx *C, const ct_op *op)
{
    char why[160];
    if (ct_op_arity_ok(op, why, sizeof why))
        return true;
    emu_cc_err(C, op, "%s", why);
    return false;
}

/* An elementwise op whose operands and result have one type (ELEM | SAME in
 * ops.def): one function per element kind, from emu_arith_fn or emu_math_fn,
 * applied to its operands (as many as its row has). */
static bool same_elementwise(cctx *C, const ct_op *op)
{
    emu_ek ek = emu_cc_opnd_ek(op, 0);
    emu_fn fn = emu_arith_fn(op->code, ek, 0);
    if (!fn)
        fn = emu_math_fn(op->code, ek);
    return emu_cc_elementwise(C, op, fn, op->nopnds, ek);
}

/* An op of one operand and one result: the inline asm the emulator knows (the
 * conversions Triton's frontend emits) has that shape; others of the row's
 * variadic args and results it cannot run. */
static bool one_to_one(const ct_op *op)
{
    return op->nopnds == 1 && op->nres == 1;
}

static bool emu_cc_op_inner(cctx *C, const ct_op *op)
{
    if (!emu_cc_is_live(C, op))
        return true;
    if (!arity_ok(C, op))
        return false;
    switch (op->code) {
    case CT_OP_ARITH_CONSTANT:
        return emu_cc_constant(C, op);
    case CT_OP_ARITH_ADDF:
    case CT_OP_ARITH_SUBF:
        /* a multiply whose only use is this add: one fused multiply-add, as ptxas does */
        if (emu_cc_try_fma(C, op))
            return true;
        return same_elementwise(C, op);
    case CT_OP_ARITH_CMPI:
    case CT_OP_ARITH_CMPF: {
        emu_ek ek = emu_cc_opnd_ek(op, 0);
        bool isi = op->code == CT_OP_ARITH_CMPI;
        int pred = (int)ct_op_enum(op, "predicate", -1); /* ops.def's CMPI / CMPF values */
        if (pred < 0) {
            emu_cc_err(C, op, "missing or unknown predicate");
            return false;
        }
        if (ek == EK_PTR && isi)
            ek = EK_I64;
        return emu_cc_elementwise(C, op, emu_arith_fn(op->code, ek, pred), 2, ek);
    }
    case CT_OP_ARITH_SELECT: {
        bool scalar_cond = op->opnds[0]->type->kind != CT_TY_TENSOR &&
                           op->res[0].type->kind == CT_TY_TENSOR;
        return emu_cc_elementwise(C, op, scalar_cond ? emu_h_select_scalar : emu_h_select, 3,
                           emu_cc_opnd_ek(op, 1));
    }
    case CT_OP_TT_CLAMPF: {
        emu_ek ek = emu_cc_opnd_ek(op, 0);
        int64_t all;
        ct_enum_value(CT_EN_NAN, "all", 3, &all);
        bool nan = ct_op_enum(op, "propagateNan", 0) == all;
        return emu_cc_elementwise(C, op, nan ? emu_clampnan_fn(ek) : emu_math_fn(op->code, ek), 3,
                                  ek);
    }
    case CT_OP_ARITH_EXTSI:
    case CT_OP_ARITH_EXTUI:
    case CT_OP_ARITH_TRUNCI:
    case CT_OP_ARITH_EXTF:
    case CT_OP_ARITH_TRUNCF:
    case CT_OP_ARITH_SITOFP:
    case CT_OP_ARITH_UITOFP:
    case CT_OP_ARITH_FPTOSI:
    case CT_OP_ARITH_FPTOUI:
    case CT_OP_ARITH_INDEX_CAST:
    case CT_OP_TT_FP_TO_FP:
        return emu_cc_cast(C, op);
    case CT_OP_ARITH_BITCAST:
    case CT_OP_TT_BITCAST:
    case CT_OP_TT_INT_TO_PTR:
    case CT_OP_TT_PTR_TO_INT:
        return emu_cc_alias(C, op);
    case CT_OP_TT_GET_PROGRAM_ID:
    case CT_OP_TT_GET_NUM_PROGRAMS: {
        int axis = (int)ct_op_enum(op, "axis", 0); /* x 0, y 1, z 2 */
        if (axis < 0) {
            emu_cc_err(C, op, "bad axis");
            return false;
        }
        int d = emu_cc_new_val(C, op, op->res[0].type);
        int i = emu_cc_emit(C,
                     op->code == CT_OP_TT_GET_PROGRAM_ID ? emu_h_program_id : emu_h_num_programs,
                     op);
        INS(i)->d = OFF(d);
        INS(i)->x.i = axis;
        emu_cc_bind(C, &op->res[0], d);
        return emu_cc_no_batch(C, op);
    }
    case CT_OP_TT_SPLAT:
    case CT_OP_TT_BROADCAST:
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_RESHAPE:
    case CT_OP_TT_UNSPLAT:
    case CT_OP_TT_TRANS:
    case CT_OP_TT_JOIN:
    case CT_OP_TT_SPLIT:
    case CT_OP_TT_CAT:
    case CT_OP_TT_GATHER:
    case CT_OP_TT_HISTOGRAM:
    case CT_OP_TT_MAKE_RANGE:
        return emu_cc_shape_op(C, op);
    case CT_OP_TT_ADDPTR: {
        if (!emu_cc_no_batch(C, op))
            return false;
        size_t es = emu_cc_pointee_size(op->res[0].type);
        if (!es) {
            emu_cc_err(C, op, "unsupported pointer type");
            return false;
        }
        if (!emu_cc_elementwise(C, op, emu_h_addptr, 2, emu_cc_opnd_ek(op, 1)))
            return false;
        C->code[C->ncode - 1].x.i = (int64_t)es;
        return true;
    }
    case CT_OP_TT_LOAD:
    case CT_OP_TT_STORE:
    case CT_OP_TT_ATOMIC_RMW:
    case CT_OP_TT_ATOMIC_CAS:
        return emu_cc_memory(C, op);
    case CT_OP_TT_MAKE_TENSOR_PTR:
    case CT_OP_TT_ADVANCE:
        return emu_cc_bptr(C, op);
    case CT_OP_TT_MAKE_TENSOR_DESC:
    case CT_OP_TT_DESCRIPTOR_LOAD:
    case CT_OP_TT_DESCRIPTOR_STORE:
    case CT_OP_TT_DESCRIPTOR_REDUCE:
        return emu_cc_desc(C, op);
    case CT_OP_TT_DOT:
        return emu_cc_dot(C, op);
    case CT_OP_TT_REDUCE:
    case CT_OP_TT_SCAN:
        return emu_cc_reduce(C, op);
    case CT_OP_TT_EXTERN_ELEMENTWISE: {
        const ct_attr *s = emu_cc_attr(op, "symbol");
        int ret = emu_cc_ek_of(op->res[0].type);
        emu_ek ins[4] = {EK_I8, EK_I8, EK_I8, EK_I8};
        for (int i = 0; i < op->nopnds && i < 4; i++)
            ins[i] = emu_cc_opnd_ek(op, i);
        const void *xa = NULL;
        emu_fn fn = s && s->s && op->nopnds <= EMU_ELEM_MAX_IN && ret >= 0
                        ? emu_libdevice_fn(s->s, op->nopnds, (emu_ek)ret, ins, C->A, &xa)
                        : NULL;
        if (!fn) {
            emu_cc_err(C, op, "extern function `%s` is not emulated", s && s->s ? s->s : "?");
            return false;
        }
        if (!emu_cc_elementwise(C, op, fn, op->nopnds, ins[0]))
            return false;
        C->code[C->ncode - 1].x.p = xa;
        return true;
    }
    case CT_OP_TT_INLINE_ASM: {
        const ct_attr *s = emu_cc_attr(op, "asm_string"), *c = emu_cc_attr(op, "constraints");
        const ct_attr *pk = emu_cc_attr(op, "packed_element");
        emu_fn fn = NULL;
        if (one_to_one(op) && s && c && pk) {
            int ret = emu_cc_ek_of(op->res[0].type);
            emu_ek in = emu_cc_opnd_ek(op, 0);
            fn = ret >= 0 ? emu_inline_asm_fn(s->s, c->s, (int)pk->i, in, (emu_ek)ret) : NULL;
        }
        if (!fn) /* the PTX interpreter (compile_asm.c) */
            return emu_cc_inline_asm(C, op);
        return emu_cc_elementwise(C, op, fn, 1, emu_cc_opnd_ek(op, 0));
    }
    case CT_OP_TT_ASSERT:
    case CT_OP_LLVM_ASSUME: {
        if (!emu_cc_no_batch(C, op))
            return false;
        int c = emu_cc_val(C, op, op->opnds[0]);
        int i = emu_cc_emit(C, op->code == CT_OP_TT_ASSERT ? emu_h_assert : emu_h_assume, op);
        INS(i)->a = OFF(c);
        INS(i)->n = C->vals[c].n;
        const ct_attr *m = emu_cc_attr(op, "message");
        INS(i)->x.p = ct_arena_strdup(C->A, m && m->s ? m->s : "");
        return true;
    }
    case CT_OP_TT_PRINT:
        return emu_cc_print(C, op);
    case CT_OP_GPU_BARRIER:
    case CT_OP_TTG_BARRIER:
        /* a program is one CPU thread running whole-tensor ops: always in step, and its
         * memory operations are done in order (every address space is synchronized) */
        return true;
    case CT_OP_UB_POISON: {
        int d = emu_cc_new_val(C, op, op->res[0].type);
        emu_cc_bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_CALL:
        return emu_cc_call(C, op);
    case CT_OP_SCF_FOR:
        return emu_cc_for(C, op);
    case CT_OP_SCF_IF:
        return emu_cc_if(C, op);
    case CT_OP_SCF_WHILE:
        return emu_cc_while(C, op);
    case CT_OP_SCF_EXECUTE_REGION:
        return emu_cc_execute_region(C, op);
    case CT_OP_TT_RETURN:
    case CT_OP_TT_MAP_ELEMENTWISE_RETURN:
        return emu_cc_return(C, op);
    case CT_OP_TT_MAP_ELEMENTWISE:
        return emu_cc_map_elementwise(C, op);
    case CT_OP_CF_BR:
        emu_cc_branch(C, op, op->succ[0], 0, op->succ_nopnds[0]);
        return true;
    case CT_OP_CF_COND_BR: {
        int c = emu_cc_val(C, op, op->opnds[0]);
        int br = emu_cc_emit(C, emu_h_brz, op);
        INS(br)->a = OFF(c);
        int n0 = op->succ_nopnds[0], n1 = op->succ_nopnds[1];
        emu_cc_branch(C, op, op->succ[0], 1, n0);
        INS(br)->target = C->ncode;
        emu_cc_branch(C, op, op->succ[1], 1 + n0, n1);
        return true;
    }
    case CT_OP_SCF_YIELD:
    case CT_OP_SCF_CONDITION:
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
        emu_cc_err(C, op, "terminator in an unexpected place");
        return false;
    case CT_OP_TT_FUNC:
    default:
        if ((ct_op_info_of(op->code)->flags & (CT_OPF_ELEM | CT_OPF_SAME)) ==
            (CT_OPF_ELEM | CT_OPF_SAME))
            return same_elementwise(C, op);
        emu_cc_err(C, op, "op not supported by the emulator");
        return false;
    }
}

/* ---- values computed once per thread ---------------------------------------------------------------
 * A value computed only from constants, kernel arguments and the grid size is the same in every
 * program of a run: make_range, a splat of an argument, a cast of a constant `other`.  Its
 * instruction moves to the kernel's prologue, which runs once per thread and run, before the
 * first program (the instruction's place in the code becomes a no-op).  Only pure ops whose
 * handlers cannot fault are moved (an op under an scf.if is then computed even if the branch
 * is not taken, which is harmless for them), and nothing writes such a value afterwards
 * (emu_cc_overwritable refuses them; pcopy only writes block arguments and scf.if results,
 * which are never invariant). */
static bool hoistable_op(ct_opcode c)
{
    /* from the op's row: pure, the same in every program, no fault to fear, and
     * elementwise, a move of elements or a value from nothing (make_range,
     * get_num_programs); not dot, reduce, scan, block pointers or descriptors */
    const ct_op_sig *s = ct_op_sig_of(c);
    unsigned f = ct_op_info_of(c)->flags;
    if (!(f & CT_OPF_PURE) || (f & (CT_OPF_PROGRAM | CT_OPF_TRAPS)) || s->nregions)
        return false;
    return (f & (CT_OPF_ELEM | CT_OPF_MOVE)) || s->max_opnds == 0;
}

static int val_of(cctx *C, const ct_value *v)
{
    intptr_t i = (intptr_t)ct_pm_get(C->vmap, v);
    return i ? (int)(i - 1) : -1;
}

static bool emu_cc_op(cctx *C, const ct_op *op)
{
    int n0 = C->ncode;
    bool ok = emu_cc_op_inner(C, op);
    if (!ok || C->batch > 0 || op->nres != 1 || !emu_cc_is_live(C, op))
        return ok;
    int d = val_of(C, &op->res[0]);
    if (d < 0 || C->vals[d].n < 0)
        return ok;
    if (op->code == CT_OP_ARITH_CONSTANT) {
        C->vals[d].inv = C->ncode == n0; /* written by the frame's initialization */
        return ok;
    }
    if (!hoistable_op(op->code) || C->ncode - n0 > 1)
        return ok;
    bool shares = false;
    for (int i = 0; i < op->nopnds; i++) {
        int v = val_of(C, op->opnds[i]);
        if (v < 0 || !C->vals[v].inv)
            return ok;
        shares |= C->vals[v].off == C->vals[d].off;
    }
    if (C->ncode == n0) {
        /* no instruction: a view of an invariant operand */
        C->vals[d].inv = shares;
        return ok;
    }
    if (shares)
        return ok;
    C->vals[d].inv = true;
    GROW(C->hoist, C->nhoist, C->choist);
    C->hoist[C->nhoist++] = n0;
    return ok;
}

/* is value v defined outside op (not by an op in it, not an argument of one of its blocks)? */
static bool defined_outside(const ct_value *v, const ct_op *op)
{
    const ct_op *o = v->def ? v->def : v->owner ? v->owner->parent ? v->owner->parent->parent : NULL : NULL;
    if (!v->def && !o)
        return false;
    for (; o; o = o->parent && o->parent->parent ? o->parent->parent->parent : NULL)
        if (o == op)
            return false;
    return true;
}

/* Loop-invariant splats: a tt.splat at the top of a loop's body whose scalar is defined
 * outside the loop (a row's maximum, a scale, a bound) fills the same tensor on every
 * iteration; it is compiled here, before the loop's first test, and the body skips it
 * (C->early).  Its value is pinned, so no op of the body overwrites it in place.  The GPU's
 * compiler hoists these too (the splat is a register copy there); a splat cannot fault, so
 * running it when the loop runs zero times is harmless. */
void emu_cc_hoist_splats(cctx *C, const ct_op *loop, const ct_block *body)
{
    if (C->batch > 0)
        return;
    for (const ct_op *op = body->first; op; op = op->next) {
        if (op->code != CT_OP_TT_SPLAT || !defined_outside(op->opnds[0], loop) ||
            !emu_cc_is_live(C, op))
            continue;
        if (!emu_cc_op(C, op))
            return; /* the body compiles it again and reports the error */
        ct_pm_put(&C->early, op, (void *)1);
        int d = val_of(C, &op->res[0]);
        if (d >= 0)
            C->vals[d].pinned = true;
    }
}

/* Common subexpressions: the frontend's TTIR recomputes what it needs again (a store's mask and
 * pointers after the load's, from equal constants), which the GPU's compiler computes once.
 * An op of a block equal to an earlier compiled one of the same block (same op, attributes,
 * result type, and operands in the same values) takes that op's value, pinned so that no op
 * writes over it in place.  Only pure ops that cannot fault and give no float, and constants:
 * which float ops the NVPTX backend contracts depends on their values' uses (emu_cc_try_fma),
 * so those stay as the IR has them.  Splats are not merged (a splat read by one op may never be
 * written: emu_cc_elementwise reads its scalar instead), but two splats of one scalar count as
 * the same operand, and a splat only the merged op read is then not filled. */
static bool cse_candidate(const ct_op *op)
{
    unsigned f = ct_op_info_of(op->code)->flags;
    const ct_op_sig *sig = ct_op_sig_of(op->code);
    if (!(f & CT_OPF_PURE) || (f & (CT_OPF_PROGRAM | CT_OPF_TRAPS)) || sig->nregions || sig->nsucc ||
        sig->min_res != sig->max_res || sig->max_res != 1 || op->code == CT_OP_TT_SPLAT)
        return false;
    const ct_type *e = ct_type_scalar(op->res[0].type);
    return op->code == CT_OP_ARITH_CONSTANT || (e && e->kind != CT_TY_FLOAT);
}

/* do value indices x and y hold the same values (the same value, or splats of the same scalar)? */
static bool same_val(cctx *C, int x, int y)
{
    if (x < 0 || y < 0)
        return false;
    const val *a = &C->vals[x], *b = &C->vals[y];
    return x == y || (a->splat_src >= 0 && a->splat_src == b->splat_src && a->n == b->n &&
                      a->ek == b->ek && ct_type_equal(a->type, b->type));
}

/* op, merged into an earlier op: the splats only it read are not filled */
static void drop_splat_operands(cctx *C, const ct_op *op)
{
    for (int i = 0; i < op->nopnds; i++) {
        int v = val_of(C, op->opnds[i]);
        if (v < 0 || C->vals[v].splat_src < 0 || emu_cc_uses_of(C, op->opnds[i]) != 1)
            continue;
        emu_ins *I = &C->code[C->vals[v].splat_ins];
        if (I->fn == emu_h_splat && I->d == C->vals[v].off)
            I->fn = emu_h_nop;
    }
}

static bool same_op(cctx *C, const ct_op *a, const ct_op *b)
{
    if (a->code != b->code || a->nopnds != b->nopnds || a->nattrs != b->nattrs ||
        !ct_type_equal(a->res[0].type, b->res[0].type))
        return false;
    for (int i = 0; i < a->nopnds; i++)
        if (!same_val(C, val_of(C, a->opnds[i]), val_of(C, b->opnds[i])))
            return false;
    for (int i = 0; i < a->nattrs; i++)
        if (strcmp(a->attrs[i].name, b->attrs[i].name) || !ct_attr_equal(a->attrs[i].attr, b->attrs[i].attr))
            return false;
    return true;
}

enum { CSE_MAX = 256 }; /* compiled candidates of a block compared against */

/* compiles the ops of a block; the terminator too unless stop_at_term
 * (then the caller handles it: yield, condition, reduce.return, return) */
bool emu_cc_block_ops(cctx *C, const ct_block *b, bool stop_at_term)
{
    bool ok = true;
    const ct_op *seen[CSE_MAX];
    int nseen = 0;
    for (const ct_op *op = b->first; op; op = op->next) {
        if (ct_pm_get(&C->early, op))
            continue; /* compiled before its loop (emu_cc_hoist_splats) */
        bool cand = C->batch == 0 && cse_candidate(op);
        if (cand && emu_cc_is_live(C, op)) {
            int i = 0;
            while (i < nseen && !same_op(C, seen[i], op))
                i++;
            if (i < nseen) {
                int v = val_of(C, &seen[i]->res[0]);
                C->vals[v].pinned = true;
                emu_cc_bind(C, &op->res[0], v);
                drop_splat_operands(C, op);
                continue;
            }
        }
        bool term = (ct_op_info_of(op->code)->flags & CT_OPF_TERM) != 0;
        if (term && stop_at_term && op == b->last && op->code != CT_OP_CF_BR &&
            op->code != CT_OP_CF_COND_BR)
            break;
        if (!emu_cc_op(C, op))
            ok = false;
        else if (cand && nseen < CSE_MAX && val_of(C, &op->res[0]) >= 0)
            seen[nseen++] = op;
        if (C->nerr > 20)
            return false;
    }
    return ok && C->nerr == 0;
}

/* a function body (kernel or callee): every block reachable from the entry */
bool emu_cc_blocks(cctx *C, const ct_op *owner, const ct_region *r)
{
    (void)owner;
    /* reachability */
    const ct_block *stack[4096];
    const ct_block *order[4096];
    int ns = 0, no = 0;
    ct_ptrmap seen;
    ct_pm_init(&seen);
    stack[ns++] = r->first;
    ct_pm_put(&seen, r->first, (void *)1);
    while (ns) {
        const ct_block *b = stack[--ns];
        if (no >= 4096)
            break;
        order[no++] = b;
        const ct_op *t = b->last;
        for (int s = 0; t && s < t->nsucc; s++)
            if (t->succ[s] && !ct_pm_has(&seen, t->succ[s]) && ns < 4096) {
                ct_pm_put(&seen, t->succ[s], (void *)1);
                stack[ns++] = t->succ[s];
            }
    }
    ct_pm_free(&seen);
    /* keep source order for readability of the code */
    int nb = 0;
    const ct_block *blocks[4096];
    for (const ct_block *b = r->first; b && nb < 4096; b = b->next)
        for (int i = 0; i < no; i++)
            if (order[i] == b) {
                blocks[nb++] = b;
                break;
            }
    for (int i = 1; i < nb; i++)
        ct_pm_put(&C->blockargs, blocks[i], emu_cc_fresh_args(C, NULL, blocks[i], 0));
    int first_patch = C->npatches;
    bool ok = true;
    for (int i = 0; i < nb; i++) {
        ct_pm_put(&C->blockpc, blocks[i], (void *)(intptr_t)(C->ncode + 1));
        if (!emu_cc_block_ops(C, blocks[i], false))
            ok = false;
        const ct_op *t = blocks[i]->last;
        if (!t || !(ct_op_info_of(t->code)->flags & CT_OPF_TERM)) {
            emu_cc_err(C, t, "block without a terminator");
            ok = false;
        }
    }
    for (int i = first_patch; i < C->npatches; i++) {
        intptr_t pc = (intptr_t)ct_pm_get(&C->blockpc, C->patches[i].block);
        if (!pc) {
            emu_cc_err(C, NULL, "branch to an unknown block");
            ok = false;
            continue;
        }
        INS(C->patches[i].ins)->target = (int32_t)(pc - 1);
        if (pc - 1 <= C->patches[i].ins) /* a back edge: it costs a step */
            INS(C->patches[i].ins)->fn = emu_h_back;
    }
    C->npatches = first_patch;
    return ok;
}

/* ---- entry point ------------------------------------------------------------------------------------ */

/* The function to run: `func`, else the module's public tt.func (else its only one).  NULL
 * with an error in d when there is none, or when more than one is public and none is named. */
static const ct_op *find_kernel(const ct_module *m, const char *func, ct_diags *d)
{
    if (func) {
        const ct_op *f = ct_module_lookup_func(m, func);
        if (!f)
            ct_diag_add(d, CT_ERROR, NULL, 0, 0, "emulator: no function `%s` in the module", func);
        return f;
    }
    const ct_op *first = NULL, *pub = NULL;
    int nfuncs = 0;
    for (const ct_op *op = m->body->first; op; op = op->next) {
        if (op->code != CT_OP_TT_FUNC)
            continue;
        nfuncs++;
        if (!first)
            first = op;
        const ct_attr *v = ct_op_attr(op, "sym_visibility");
        if (v && v->s && !strcmp(v->s, "private"))
            continue;
        if (pub) {
            const ct_attr *n1 = ct_op_attr(pub, "sym_name"), *n2 = ct_op_attr(op, "sym_name");
            ct_op_where mw = ct_module_where(m);
            ct_diag_op(d, CT_ERROR, op, &mw, NULL,
                       "emulator: the module has more than one public function (@%s, @%s, ...): "
                       "name the one to run",
                       n1 && n1->s ? n1->s : "?", n2 && n2->s ? n2->s : "?");
            return NULL;
        }
        pub = op;
    }
    if (!pub && nfuncs > 1) {
        ct_diag_add(d, CT_ERROR, NULL, 0, 0,
                    "emulator: the module has %d functions and none is public: name the one to run",
                    nfuncs);
        return NULL;
    }
    if (!pub && !first)
        ct_diag_add(d, CT_ERROR, NULL, 0, 0, "emulator: the module has no function");
    return pub ? pub : first;
}

static int num_warps_of(const ct_module *m)
{
    for (int i = 0; i < m->nattrs; i++)
        if (!strcmp(m->attrs[i].name, "ttg.num-warps") && m->attrs[i].attr->kind == CT_ATTR_INT)
            return (int)m->attrs[i].attr->i;
    return 4;
}

static ct_emu_dtype dtype_of_ek(emu_ek k)
{
    switch (k) {
    case EK_I1:
        return CT_EMU_I1;
    case EK_I8:
        return CT_EMU_I8;
    case EK_I16:
        return CT_EMU_I16;
    case EK_I32:
        return CT_EMU_I32;
    case EK_I64:
        return CT_EMU_I64;
    case EK_F16:
        return CT_EMU_F16;
    case EK_BF16:
        return CT_EMU_BF16;
    case EK_F32:
        return CT_EMU_F32;
    case EK_F64:
        return CT_EMU_F64;
    case EK_F8E4NV:
        return CT_EMU_F8E4NV;
    case EK_F8E5:
        return CT_EMU_F8E5;
    case EK_F8E4B8:
        return CT_EMU_F8E4B8;
    case EK_F8E5B16:
        return CT_EMU_F8E5B16;
    default:
        return CT_EMU_BYTES;
    }
}

static bool setup_params(cctx *C, const ct_op *f)
{
    const ct_block *entry = f->regions[0].first;
    ct_emu_kernel *k = C->k;
    k->nparams = entry->nargs;
    k->params = emu_cc_aux(C, sizeof(ct_emu_param) * (size_t)(entry->nargs + 1));
    k->pslots = emu_cc_aux(C, sizeof(emu_param_slot) * (size_t)(entry->nargs + 1));
    const ct_attr *aattrs = ct_op_attr(f, "arg_attrs");
    for (int i = 0; i < entry->nargs; i++) {
        const ct_value *a = entry->args[i];
        ct_emu_param *p = &k->params[i];
        const char *nm = ct_loc_name_of(a->loc);
        char buf[32];
        snprintf(buf, sizeof buf, "arg%d", i);
        p->name = ct_arena_strdup(C->A, nm ? nm : buf);
        const ct_type *t = a->type;
        int ek = emu_cc_ek_of(t);
        if (t->kind == CT_TY_TENSORDESC && t->elem && t->elem->kind == CT_TY_TENSOR) {
            /* a host descriptor, then its shape (i32) and strides (i64) */
            int r = t->elem->rank, pe = emu_cc_ek_of(t->elem->elem);
            bool ok = r >= 1 && r <= CT_MAX_RANK && i + 2 * r < entry->nargs && pe >= 0;
            for (int j = 1; ok && j <= 2 * r; j++) {
                const ct_type *x = entry->args[i + j]->type;
                ok = x->kind == CT_TY_INT && x->bits == (j <= r ? 32 : 64);
            }
            if (!ok) {
                emu_cc_err(C, f, "tensor descriptor parameter %s is not followed by its shape and "
                                 "strides", p->name);
                return false;
            }
            p->kind = CT_EMU_PARAM_DESC;
            p->bits = 64;
            p->elem = dtype_of_ek((emu_ek)pe);
            p->rank = r;
        } else if (t->kind == CT_TY_TENSOR || ek < 0 || ek == EK_BPTR) {
            char tb[128];
            ct_type_str(t, tb, sizeof tb);
            emu_cc_err(C, f, "kernel parameter %s has unsupported type %s", p->name, tb);
            return false;
        }
        if (p->kind == CT_EMU_PARAM_DESC) {
            /* set above */
        } else if (ek == EK_PTR) {
            p->kind = CT_EMU_PARAM_PTR;
            p->bits = 64;
            int pe = emu_cc_ek_of(t->elem);
            p->elem = pe < 0 ? CT_EMU_BYTES : dtype_of_ek((emu_ek)pe);
        } else if (emu_ek_is_float((emu_ek)ek)) {
            p->kind = CT_EMU_PARAM_FLOAT;
            p->bits = t->bits;
            p->elem = dtype_of_ek((emu_ek)ek);
        } else {
            p->kind = CT_EMU_PARAM_INT;
            p->bits = t->kind == CT_TY_INDEX ? 64 : t->bits;
            p->elem = dtype_of_ek((emu_ek)ek);
        }
        if (aattrs && aattrs->kind == CT_ATTR_ARRAY && i < aattrs->n) {
            const ct_attr *dv = ct_attr_dict_get(aattrs->elems[i], "tt.divisibility");
            if (dv && dv->kind == CT_ATTR_INT)
                p->divisibility = (int)dv->i;
        }
        int v = emu_cc_new_val(C, f, t);
        emu_cc_bind(C, a, v);
        C->vals[v].inv = true; /* written before the first program */
        k->pslots[i].off = OFF(v);
        k->pslots[i].ek = (emu_ek)ek;
    }
    return true;
}

ct_emu_kernel *ct_emu_compile(const ct_module *m, const char *func, ct_diags *d)
{
    return ct_emu_compile_ex(m, func, NULL, d);
}

static ct_emu_kernel *compile_kernel(const ct_module *m, const char *func,
                                     const ct_emu_options *o, ct_diags *d)
{
    ct_diags local;
    if (!d) {
        ct_diags_init(&local);
        d = &local;
    }
    if (!m) {
        ct_diag_add(d, CT_ERROR, NULL, 0, 0, "emulator: no module");
        if (d == &local)
            ct_diags_free(&local);
        return NULL;
    }
    if (o && o->dot != CT_EMU_DOT_GPU && o->dot != CT_EMU_DOT_FAST) {
        ct_diag_add(d, CT_ERROR, NULL, 0, 0, "emulator: unknown dot mode %d", (int)o->dot);
        if (d == &local)
            ct_diags_free(&local);
        return NULL;
    }
    /* the one gate: whatever built the module, the emulator runs only verified IR */
    if (!ct_verify_module(m, d)) {
        if (d == &local)
            ct_diags_free(&local);
        return NULL;
    }
    const ct_op *f = find_kernel(m, func, d);
    if (f && (!f->nregions || !f->regions[0].first)) {
        ct_op_where mw = ct_module_where(m);
        ct_diag_op(d, CT_ERROR, f, &mw, NULL, "emulator: the function has no body");
    }
    if (!f || !f->nregions || !f->regions[0].first) {
        if (d == &local)
            ct_diags_free(&local);
        return NULL;
    }
    cctx C;
    memset(&C, 0, sizeof C);
    C.m = m;
    C.d = d;
    C.caller_loc = -1;
    C.num_warps = o && o->num_warps > 0 ? o->num_warps : num_warps_of(m);
    if (C.num_warps < 1 || C.num_warps > 32 || (C.num_warps & (C.num_warps - 1)))
        C.num_warps = 4;
    C.fast_dot = o && o->dot == CT_EMU_DOT_FAST;
    C.kernel_level = true;
    ct_arena *A = ct_arena_new();
    ct_emu_kernel *k = ct_arena_alloc(A, sizeof *k);
    k->arena = A;
    C.k = k;
    C.A = A;
    const char *name = ct_func_name(f);
    k->name = ct_arena_strdup(A, name ? name : "kernel");
    ct_pm_init(&C.live);
    ct_pm_init(&C.uses);
    ct_pm_init(&C.ranks);
    ct_pm_init(&C.rank_scratch);
    ct_pm_init(&C.blockpc);
    ct_pm_init(&C.blockargs);
    ct_pm_init(&C.early);
    ct_ptrmap vmap;
    ct_pm_init(&vmap);
    C.vmap = &vmap;
    compute_liveness(&C);
    bool ok = setup_params(&C, f) && emu_cc_blocks(&C, f, &f->regions[0]);
    if (ok)
        emu_cc_apply_layouts(&C, o);
    if (ok && C.nerr == 0) {
        /* a safety net: falling off the end of the code ends the program */
        emu_cc_emit(&C, emu_h_end, NULL);
        if (C.frame >= (1ull << 32)) {
            emu_cc_err(&C, f, "the kernel needs %zu bytes of scratch per program, above 4 GiB", C.frame);
        }
    }
    ok = ok && C.nerr == 0;
    if (ok) {
        /* the prologue: the invariant values' instructions, in order */
        k->pro = ct_arena_alloc(A, sizeof(emu_ins) * (size_t)(C.nhoist ? C.nhoist : 1));
        for (int i = 0; i < C.nhoist; i++) {
            emu_ins *I = &C.code[C.hoist[i]];
            k->pro[i] = *I;
            I->fn = emu_h_nop;
        }
        k->npro = C.nhoist;
        k->code = ct_arena_alloc(A, sizeof(emu_ins) * (size_t)C.ncode);
        memcpy(k->code, C.code, sizeof(emu_ins) * (size_t)C.ncode);
        k->ncode = C.ncode;
        k->locs = ct_arena_alloc(A, sizeof(emu_loc) * (size_t)(C.nlocs ? C.nlocs : 1));
        if (C.nlocs)
            memcpy(k->locs, C.locs, sizeof(emu_loc) * (size_t)C.nlocs);
        k->nlocs = C.nlocs;
        k->inits = ct_arena_alloc(A, sizeof(emu_init) * (size_t)(C.ninits ? C.ninits : 1));
        if (C.ninits)
            memcpy(k->inits, C.inits, sizeof(emu_init) * (size_t)C.ninits);
        k->ninits = C.ninits;
        k->frame_bytes = (C.frame + 63) & ~(size_t)63;
        static _Atomic uint64_t next_uid = 1;
        k->uid = atomic_fetch_add(&next_uid, 1);
    }
    ct_xfree(C.code);
    ct_xfree(C.hoist);
    ct_xfree(C.vals);
    ct_xfree(C.locs);
    ct_xfree(C.inits);
    ct_xfree(C.patches);
    ct_xfree(C.reds);
    ct_pm_free(&C.live);
    ct_pm_free(&C.uses);
    ct_pm_free(&C.ranks);
    ct_pm_free(&C.rank_scratch);
    ct_pm_free(&C.blockpc);
    ct_pm_free(&C.blockargs);
    ct_pm_free(&C.early);
    ct_pm_free(&vmap);
    if (d == &local)
        ct_diags_free(&local);
    if (!ok) {
        ct_arena_free(A);
        return NULL;
    }
    return k;
}

/* The entry point: out of memory while compiling releases what the compilation
 * allocated and is an error (util/alloc.h); the module is left as it was. */
ct_emu_kernel *ct_emu_compile_ex(const ct_module *m, const char *func, const ct_emu_options *o,
                                 ct_diags *d)
{
    emu_numeric_init();
    ct_oom_scope s;
    ct_oom_push(&s);
    if (setjmp(s.jb)) {
        ct_oom_unwind(&s);
        ct_diag_add(d, CT_ERROR, NULL, 0, 0, "emulator: out of memory");
        return NULL;
    }
    ct_emu_kernel *k = compile_kernel(m, func, o, d);
    ct_oom_pop(&s);
    return k;
}

void ct_emu_kernel_free(ct_emu_kernel *k)
{
    if (k)
        ct_arena_free(k->arena);
}
