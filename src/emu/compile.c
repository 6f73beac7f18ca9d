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
#include "emu_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/util.h"


typedef struct val {
    uint32_t off;
    int64_t n;         /* elements; -1 when batched */
    emu_ek ek;
    const ct_type *type;
} val;

typedef struct patch {
    int ins;
    const ct_block *block;
} patch;

typedef struct fnret {
    int nres;
    int *res;          /* result vals, or NULL when results alias the return */
    int *jumps;        /* ins indices of jumps to the exit */
    int njumps, cjumps;
} fnret;

typedef struct cctx {
    ct_emu_kernel *k;
    ct_arena *A;
    const ct_module *m;
    ct_diags *d;
    emu_ins *code;
    int ncode, ccode;
    size_t frame;
    val *vals;
    int nvals, cvals;
    ct_ptrmap *vmap;        /* value -> val index + 1, per function instance */
    emu_loc *locs;
    int nlocs, clocs;
    emu_init *inits;
    int ninits, cinits;
    ct_ptrmap live;
    ct_ptrmap uses;         /* value -> live uses */
    int caller_loc;
    int64_t batch;          /* capacity of batched values, 0 outside combine regions */
    int depth;
    int num_warps;
    bool kernel_level;      /* compiling the kernel's own body (tt.return ends) */
    fnret *ret;
    patch *patches;
    int npatches, cpatches;
    emu_reduce_aux **reds;  /* the reductions and scans, in the order compiled */
    int nreds, creds;
    ct_ptrmap blockpc;      /* block -> pc + 1 */
    ct_ptrmap blockargs;    /* block -> int* val indices of its args */
    int nerr;
} cctx;

static bool compile_block_ops(cctx *C, const ct_block *b, bool stop_at_term);

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

static void cerr(cctx *C, const ct_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cerr(cctx *C, const ct_op *op, const char *fmt, ...)
{
    const ct_loc *l = op ? file_loc(op->loc, NULL) : NULL;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *name = op ? ct_op_info_of(op->code)->name : "";
    ct_diag_add(C->d, CT_ERROR, l ? l->file : NULL, l ? l->line : 0, l ? l->col : 0,
                "emulator: %s%s%s", name, *name ? ": " : "", msg);
    C->nerr++;
}

/* ---- growable arrays ----------------------------------------------------------- */

#define GROW(arr, n, cap)                                                                      \
    do {                                                                                       \
        if ((n) == (cap)) {                                                                    \
            int nc_ = (cap) ? (cap) * 2 : 64;                                                  \
            void *np_ = realloc((arr), sizeof(*(arr)) * (size_t)nc_);                          \
            if (!np_)                                                                          \
                abort_oom();                                                                   \
            (arr) = np_;                                                                       \
            (cap) = nc_;                                                                       \
        }                                                                                      \
    } while (0)

static void abort_oom(void)
{
    /* the arena aborts on exhaustion too; there is nothing sensible to return */
    fputs("ctriton emulator: out of memory\n", stderr);
    abort();
}

static void *aux(cctx *C, size_t bytes)
{
    return ct_arena_alloc(C->A, bytes ? bytes : 1);
}

/* ---- locations ------------------------------------------------------------------ */

static int loc_index(cctx *C, const ct_loc *l)
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
            parent = loc_index(C, cf);
            C->caller_loc = saved;
        }
    }
    if (!f || !f->file)
        return parent >= 0 ? parent : -1;
    for (int i = C->nlocs - 1; i >= 0 && i >= C->nlocs - 64; i--)
        if (C->locs[i].line == f->line && C->locs[i].col == f->col &&
            C->locs[i].caller == parent && !strcmp(C->locs[i].file, f->file))
            return i;
    GROW(C->locs, C->nlocs, C->clocs);
    emu_loc *L = &C->locs[C->nlocs];
    L->file = ct_arena_strdup(C->A, f->file);
    L->line = f->line;
    L->col = f->col;
    L->caller = parent;
    return C->nlocs++;
}

/* ---- values ---------------------------------------------------------------------- */

static int ek_of(const ct_type *t)
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
    default:
        return -1;
    }
}

static size_t alloc_frame(cctx *C, size_t bytes)
{
    size_t off = (C->frame + 63) & ~(size_t)63;
    C->frame = off + (bytes ? bytes : 1);
    return off;
}

static int add_val(cctx *C, uint32_t off, int64_t n, emu_ek ek, const ct_type *t)
{
    GROW(C->vals, C->nvals, C->cvals);
    C->vals[C->nvals] = (val){off, n, ek, t};
    return C->nvals++;
}

/* A fresh value of type t (batched inside combine regions). */
static int new_val(cctx *C, const ct_op *op, const ct_type *t)
{
    int ek = ek_of(t);
    if (ek < 0) {
        char buf[128];
        ct_type_str(t, buf, sizeof buf);
        cerr(C, op, "values of type %s are not supported", buf);
        ek = EK_I8;
    }
    int64_t n = ct_type_numel(t);
    if (n < 1)
        n = 1;
    if (C->batch > 0) {
        if (t->kind == CT_TY_TENSOR)
            cerr(C, op, "tensor values inside a combine region are not supported");
        size_t off = alloc_frame(C, (size_t)C->batch * emu_ek_size((emu_ek)ek));
        return add_val(C, (uint32_t)off, -1, (emu_ek)ek, t);
    }
    size_t off = alloc_frame(C, (size_t)n * emu_ek_size((emu_ek)ek));
    return add_val(C, (uint32_t)off, n, (emu_ek)ek, t);
}

/* A value sharing the storage of `from` with another type (no data moves). */
static int alias_val(cctx *C, int from, const ct_type *t)
{
    int ek = ek_of(t);
    val v = C->vals[from];
    return add_val(C, v.off, v.n < 0 ? -1 : ct_type_numel(t), ek < 0 ? v.ek : (emu_ek)ek, t);
}

static void bind(cctx *C, const ct_value *v, int idx)
{
    ct_pm_put(C->vmap, v, (void *)(intptr_t)(idx + 1));
}

static int V(cctx *C, const ct_op *op, const ct_value *v)
{
    intptr_t i = (intptr_t)ct_pm_get(C->vmap, v);
    if (!i) {
        cerr(C, op, "operand used outside the scope the emulator compiled it in");
        return 0;
    }
    int idx = (int)(i - 1);
    if (C->batch > 0 && C->vals[idx].n >= 0)
        cerr(C, op, "a combine region uses a value defined outside it (not supported)");
    return idx;
}

#define OFF(i) (C->vals[(i)].off)

/* ---- instructions ------------------------------------------------------------------ */

static int emit(cctx *C, emu_fn fn, const ct_op *op)
{
    GROW(C->code, C->ncode, C->ccode);
    emu_ins *I = &C->code[C->ncode];
    memset(I, 0, sizeof *I);
    I->fn = fn;
    I->code = op ? (uint16_t)op->code : 0;
    I->loc = op ? loc_index(C, op->loc) : -1;
    I->n = C->batch > 0 ? -1 : 1;
    return C->ncode++;
}

#define INS(i) (&C->code[(i)])

static void add_init(cctx *C, uint32_t off, const void *data, size_t bytes)
{
    GROW(C->inits, C->ninits, C->cinits);
    C->inits[C->ninits++] = (emu_init){off, (uint32_t)bytes, data};
}

/* Parallel copy dst[i] <- src[i] (val indices), ordered through temporaries
 * when a source is also some other copy's destination. */
static void emit_pcopy(cctx *C, const ct_op *op, int n, const int *dst, const int *src)
{
    if (n == 0)
        return;
    int cap = 2 * n;
    emu_copy_aux *x = aux(C, sizeof *x);
    x->dst = aux(C, sizeof(uint32_t) * (size_t)cap);
    x->src = aux(C, sizeof(uint32_t) * (size_t)cap);
    x->bytes = aux(C, sizeof(uint32_t) * (size_t)cap);
    int m = 0;
    uint32_t sd[64], ss[64], sb[64];
    uint32_t *d = n <= 64 ? sd : aux(C, sizeof(uint32_t) * (size_t)n);
    uint32_t *s = n <= 64 ? ss : aux(C, sizeof(uint32_t) * (size_t)n);
    uint32_t *b = n <= 64 ? sb : aux(C, sizeof(uint32_t) * (size_t)n);
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
        uint32_t *tmp = aux(C, sizeof(uint32_t) * (size_t)(m ? m : 1));
        for (int i = 0; i < m; i++) {
            tmp[i] = (uint32_t)alloc_frame(C, b[i]);
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
    int i = emit(C, emu_h_pcopy, op);
    INS(i)->x.p = x;
}

/* ---- attributes (words as the printer writes them, or MLIR's enum integers) ---- */

static const ct_attr *attr(const ct_op *op, const char *name)
{
    return ct_op_attr(op, name);
}

static int64_t attr_int(const ct_op *op, const char *name, int64_t dflt)
{
    const ct_attr *a = attr(op, name);
    if (!a)
        return dflt;
    if (a->kind == CT_ATTR_INT || a->kind == CT_ATTR_BOOL)
        return a->i;
    return dflt;
}

/* an enum attribute: its word, or its integer mapped through `words` */
static int attr_enum(const ct_op *op, const char *name, const char *const *words, int nwords,
                     const int *values, int dflt)
{
    const ct_attr *a = attr(op, name);
    if (!a)
        return dflt;
    if (a->kind == CT_ATTR_ENUM || a->kind == CT_ATTR_STR) {
        for (int i = 0; i < nwords; i++)
            if (!strcmp(a->s, words[i]))
                return values ? values[i] : i;
        return -2;
    }
    if (a->kind == CT_ATTR_INT) {
        if (!values)
            return (a->i >= 0 && a->i < nwords) ? (int)a->i : -2;
        for (int i = 0; i < nwords; i++)
            if (values[i] == a->i)
                return values[i];
        return -2;
    }
    return -2;
}

static const char *const cmpi_words[] = {"eq", "ne", "slt", "sle", "sgt", "sge",
                                         "ult", "ule", "ugt", "uge"};
static const char *const cmpf_words[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                         "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"};

/* ---- liveness -------------------------------------------------------------------------- */

static bool is_live(cctx *C, const ct_op *op)
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
    free(w.a);
}

static int uses_of(cctx *C, const ct_value *v)
{
    return (int)(intptr_t)ct_pm_get(&C->uses, v);
}

/* ---- FMA contraction ---------------------------------------------------------------------- */

static bool splits_block(const ct_op *op)
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
static const ct_op *fusable_mul(cctx *C, const ct_op *user, const ct_value *v)
{
    const ct_op *m = v->def;
    if (!m || m->code != CT_OP_ARITH_MULF || m->parent != user->parent || !is_live(C, m))
        return NULL;
    if (m->res[0].type != user->res[0].type)
        return NULL;
    for (const ct_op *o = m->next; o && o != user; o = o->next)
        if (splits_block(o))
            return NULL;
    return m;
}

/* addf/subf -> fma when contractible; returns true if emitted */
static bool try_fma(cctx *C, const ct_op *op)
{
    int ek = ek_of(op->res[0].type);
    if (ek != EK_F32 && ek != EK_F64 && ek != EK_F16 && ek != EK_BF16)
        return false;
    const ct_op *m0 = fusable_mul(C, op, op->opnds[0]);
    const ct_op *m1 = fusable_mul(C, op, op->opnds[1]);
    if (!m0 && !m1)
        return false;
    bool prefer1 = m0 && m1 && uses_of(C, &m0->res[0]) > uses_of(C, &m1->res[0]);
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
    int a = V(C, op, m->opnds[0]), b = V(C, op, m->opnds[1]), c = V(C, op, other);
    int d = new_val(C, op, op->res[0].type);
    bind(C, &op->res[0], d);
    int i = emit(C, emu_fma_fn((emu_ek)ek, form), op);
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

static bool compile_constant(cctx *C, const ct_op *op)
{
    const ct_attr *a = attr(op, "value");
    const ct_type *t = op->res[0].type;
    int d = new_val(C, op, t);
    val *v = &C->vals[d];
    int64_t n = v->n < 0 ? C->batch : v->n;
    size_t es = emu_ek_size(v->ek);
    uint8_t *data = aux(C, (size_t)n * es);
    if (!a) {
        cerr(C, op, "constant without a value");
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
            cerr(C, op, "dense constant with %d values for %lld elements", a->n, (long long)n);
            return false;
        }
        for (int64_t i = 0; i < n; i++)
            store_elem(v->ek, data, i, a, a->n == 1 ? 0 : (int)i, fl);
        break;
    }
    default:
        cerr(C, op, "unsupported constant attribute");
        return false;
    }
    add_init(C, v->off, data, (size_t)n * es);
    bind(C, &op->res[0], d);
    return true;
}

/* ---- elementwise ops --------------------------------------------------------------------------- */

static bool elementwise(cctx *C, const ct_op *op, emu_fn fn, int nin, emu_ek operand_ek)
{
    int d = new_val(C, op, op->res[0].type);
    if (!fn) {
        cerr(C, op, "not supported on %s", emu_ek_name(operand_ek));
        bind(C, &op->res[0], d);
        return false;
    }
    int ops[3] = {0, 0, 0};
    for (int i = 0; i < nin && i < op->nopnds; i++)
        ops[i] = V(C, op, op->opnds[i]);
    int i = emit(C, fn, op);
    emu_ins *I = INS(i);
    I->d = OFF(d);
    I->a = OFF(ops[0]);
    I->b = OFF(ops[1]);
    I->c = OFF(ops[2]);
    I->n = C->vals[d].n;
    I->ek = (uint8_t)C->vals[d].ek;
    I->ek2 = (uint8_t)operand_ek;
    bind(C, &op->res[0], d);
    return true;
}

static emu_ek opnd_ek(const ct_op *op, int i)
{
    int e = ek_of(op->opnds[i]->type);
    return e < 0 ? EK_I8 : (emu_ek)e;
}

static bool compile_cast(cctx *C, const ct_op *op)
{
    emu_ek src = opnd_ek(op, 0);
    int dst = ek_of(op->res[0].type);
    if (dst < 0) {
        cerr(C, op, "unsupported result type");
        return false;
    }
    int rounding = 0;
    if (op->code == CT_OP_TT_FP_TO_FP) {
        static const char *const w[] = {"rtz", "rtne"};
        static const int vals[] = {0, 1};
        int r = attr_enum(op, "rounding", w, 2, vals, 1);
        if (r == -2) {
            cerr(C, op, "unknown rounding mode");
            return false;
        }
        rounding = r == 0 ? 1 : 0; /* internal: 0 rtne, 1 rtz */
        if (rounding == 1 && emu_ek_is_fp8((emu_ek)dst) && src != EK_F32 &&
            !(src == EK_F16 && dst == EK_F8E5)) {
            cerr(C, op, "rounding toward zero to fp8 is only supported from f32 (Triton "
                        "rejects it too)");
            return false;
        }
    }
    emu_fn fn = emu_cast_fn(op->code, src, (emu_ek)dst, rounding);
    if (!fn) {
        cerr(C, op, "cast from %s to %s is not supported", emu_ek_name(src),
             emu_ek_name((emu_ek)dst));
        return false;
    }
    int d = new_val(C, op, op->res[0].type);
    int a = V(C, op, op->opnds[0]);
    int i = emit(C, fn, op);
    emu_ins *I = INS(i);
    I->d = OFF(d);
    I->a = OFF(a);
    I->n = C->vals[d].n;
    I->ek = (uint8_t)dst;
    I->ek2 = (uint8_t)src;
    I->x.i = emu_cast_mode(op->code);
    I->y.i = rounding;
    bind(C, &op->res[0], d);
    return true;
}

static bool compile_alias(cctx *C, const ct_op *op)
{
    int a = V(C, op, op->opnds[0]);
    const ct_type *t = op->res[0].type;
    int ek = ek_of(t);
    if (ek < 0) {
        cerr(C, op, "unsupported result type");
        return false;
    }
    int64_t n = ct_type_numel(t);
    val *s = &C->vals[a];
    if ((s->n >= 0 && n != s->n) || emu_ek_size((emu_ek)ek) != emu_ek_size(s->ek)) {
        cerr(C, op, "size mismatch between operand and result");
        return false;
    }
    bind(C, &op->res[0], alias_val(C, a, t));
    return true;
}

/* ---- tensor shape ops ----------------------------------------------------------------------------- */

static emu_shape_aux *shape_aux(cctx *C, const ct_type *src, const ct_type *dst)
{
    emu_shape_aux *x = aux(C, sizeof *x);
    x->rank = dst->kind == CT_TY_TENSOR ? dst->rank : 0;
    for (int i = 0; src->kind == CT_TY_TENSOR && i < src->rank; i++)
        x->src[i] = src->shape[i];
    for (int i = 0; dst->kind == CT_TY_TENSOR && i < dst->rank; i++)
        x->dst[i] = dst->shape[i];
    int ek = ek_of(src);
    x->esize = emu_ek_size(ek < 0 ? EK_I8 : (emu_ek)ek);
    return x;
}

static bool no_batch(cctx *C, const ct_op *op)
{
    if (C->batch > 0) {
        cerr(C, op, "not supported inside a combine region");
        return false;
    }
    return true;
}

static bool compile_shape_op(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    const ct_type *rt = op->res[0].type;
    switch (op->code) {
    case CT_OP_TT_SPLAT: {
        int a = V(C, op, op->opnds[0]);
        int d = new_val(C, op, rt);
        int i = emit(C, emu_h_splat, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->n = C->vals[d].n;
        INS(i)->ek = (uint8_t)C->vals[d].ek;
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_BROADCAST: {
        const ct_type *st = op->opnds[0]->type;
        int a = V(C, op, op->opnds[0]);
        if (st->kind != CT_TY_TENSOR) { /* a scalar: a splat */
            int d = new_val(C, op, rt);
            int i = emit(C, emu_h_splat, op);
            INS(i)->d = OFF(d);
            INS(i)->a = OFF(a);
            INS(i)->n = C->vals[d].n;
            INS(i)->ek = (uint8_t)C->vals[d].ek;
            bind(C, &op->res[0], d);
            return true;
        }
        if (ct_type_numel(st) == ct_type_numel(rt)) {
            bind(C, &op->res[0], alias_val(C, a, rt));
            return true;
        }
        if (st->rank != rt->rank) {
            cerr(C, op, "broadcast between different ranks");
            return false;
        }
        int d = new_val(C, op, rt);
        int i = emit(C, emu_h_broadcast, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->n = C->vals[d].n;
        INS(i)->x.p = shape_aux(C, st, rt);
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_RESHAPE:
    case CT_OP_TT_UNSPLAT:
        return compile_alias(C, op);
    case CT_OP_TT_TRANS: {
        const ct_type *st = op->opnds[0]->type;
        const ct_attr *o = attr(op, "order");
        int a = V(C, op, op->opnds[0]);
        if (!o || o->kind != CT_ATTR_DENSE_ARRAY || st->kind != CT_TY_TENSOR || o->n != st->rank) {
            cerr(C, op, "trans without a valid order");
            return false;
        }
        emu_shape_aux *x = shape_aux(C, st, rt);
        for (int i = 0; i < o->n; i++) {
            if (o->ivals[i] < 0 || o->ivals[i] >= st->rank) {
                cerr(C, op, "bad order");
                return false;
            }
            x->perm[i] = (int32_t)o->ivals[i];
        }
        int d = new_val(C, op, rt);
        int i = emit(C, emu_h_trans, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->n = C->vals[d].n;
        INS(i)->x.p = x;
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_JOIN: {
        int a = V(C, op, op->opnds[0]), b = V(C, op, op->opnds[1]);
        int d = new_val(C, op, rt);
        int i = emit(C, emu_h_join, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->b = OFF(b);
        INS(i)->n = C->vals[a].n;
        INS(i)->x.p = shape_aux(C, op->opnds[0]->type, rt);
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_SPLIT: {
        int a = V(C, op, op->opnds[0]);
        int d0 = new_val(C, op, rt), d1 = new_val(C, op, op->res[1].type);
        emu_shape_aux *x = shape_aux(C, op->opnds[0]->type, rt);
        x->b2 = OFF(d1);
        int i = emit(C, emu_h_split, op);
        INS(i)->d = OFF(d0);
        INS(i)->a = OFF(a);
        INS(i)->n = C->vals[d0].n;
        INS(i)->x.p = x;
        bind(C, &op->res[0], d0);
        bind(C, &op->res[1], d1);
        return true;
    }
    case CT_OP_TT_CAT: {
        int a = V(C, op, op->opnds[0]), b = V(C, op, op->opnds[1]);
        int d = new_val(C, op, rt);
        emu_shape_aux *x = shape_aux(C, op->opnds[0]->type, rt);
        x->src[0] = (int64_t)((size_t)C->vals[a].n * emu_ek_size(C->vals[a].ek));
        x->dst[0] = (int64_t)((size_t)C->vals[b].n * emu_ek_size(C->vals[b].ek));
        int i = emit(C, emu_h_cat, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->b = OFF(b);
        INS(i)->x.p = x;
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_GATHER: {
        int a = V(C, op, op->opnds[0]), b = V(C, op, op->opnds[1]);
        int d = new_val(C, op, rt);
        emu_shape_aux *x = shape_aux(C, op->opnds[0]->type, op->opnds[1]->type);
        x->axis = (int)attr_int(op, "axis", 0);
        if (x->axis < 0 || x->axis >= x->rank) {
            cerr(C, op, "bad axis");
            return false;
        }
        int i = emit(C, emu_h_gather, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        INS(i)->b = OFF(b);
        INS(i)->n = C->vals[d].n;
        INS(i)->ek2 = (uint8_t)C->vals[b].ek;
        INS(i)->x.p = x;
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_HISTOGRAM: {
        int a = V(C, op, op->opnds[0]);
        int d = new_val(C, op, rt);
        int i = emit(C, emu_h_histogram, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(a);
        if (op->nopnds > 1) {
            INS(i)->b = OFF(V(C, op, op->opnds[1]));
            INS(i)->flags = 1;
        }
        INS(i)->n = C->vals[a].n;
        INS(i)->ek = (uint8_t)C->vals[d].ek;
        INS(i)->ek2 = (uint8_t)C->vals[a].ek;
        INS(i)->x.i = C->vals[d].n;
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_MAKE_RANGE: {
        int d = new_val(C, op, rt);
        int i = emit(C, emu_h_make_range, op);
        INS(i)->d = OFF(d);
        INS(i)->n = C->vals[d].n;
        INS(i)->x.i = attr_int(op, "start", 0);
        bind(C, &op->res[0], d);
        return true;
    }
    default:
        return false;
    }
}

/* ---- memory ------------------------------------------------------------------------------------------- */

static size_t pointee_size(const ct_type *t)
{
    const ct_type *p = ct_type_scalar(t);
    if (!p || p->kind != CT_TY_PTR || !p->elem)
        return 0;
    int ek = ek_of(p->elem);
    return ek < 0 ? 0 : emu_ek_size((emu_ek)ek);
}

static bool compile_memory(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    const ct_type *pt = op->opnds[0]->type;
    const ct_type *ps = ct_type_scalar(pt);
    bool bptr = ps->kind == CT_TY_PTR && ps->elem && ps->elem->kind == CT_TY_TENSOR;
    emu_mem_aux *x = aux(C, sizeof *x);
    x->scalar = pt->kind != CT_TY_TENSOR;
    if (bptr) {
        const ct_type *blk = ps->elem;
        int ek = ek_of(blk->elem);
        if (ek < 0) {
            cerr(C, op, "unsupported element type");
            return false;
        }
        x->ek = (emu_ek)ek;
        x->esize = emu_ek_size(x->ek);
        x->rank = blk->rank;
        for (int i = 0; i < blk->rank; i++)
            x->shape[i] = blk->shape[i];
        const ct_attr *bc = attr(op, "boundaryCheck");
        if (bc && bc->kind == CT_ATTR_DENSE_ARRAY)
            for (int i = 0; i < bc->n; i++)
                if (bc->ivals[i] >= 0 && bc->ivals[i] < 32)
                    x->boundary |= 1u << bc->ivals[i];
        static const char *const pw[] = {"zero", "nan"};
        static const int pv[] = {1, 2};
        x->padding = attr_enum(op, "padding", pw, 2, pv, 1);
    } else {
        x->esize = pointee_size(pt);
        int ek = ek_of(ps->elem);
        x->ek = ek < 0 ? EK_I8 : (emu_ek)ek;
        if (!x->esize) {
            cerr(C, op, "unsupported pointer type");
            return false;
        }
    }
    int p = V(C, op, op->opnds[0]);
    switch (op->code) {
    case CT_OP_TT_LOAD: {
        int d = new_val(C, op, op->res[0].type);
        int i = emit(C, bptr ? emu_h_load_bptr : emu_h_load, op);
        emu_ins *I = INS(i);
        I->d = OFF(d);
        I->a = OFF(p);
        I->n = C->vals[d].n;
        if (!bptr && op->nopnds > 1 && op->opnds[1]) {
            int mk = V(C, op, op->opnds[1]);
            if (C->vals[mk].n != C->vals[d].n) {
                cerr(C, op, "mask shape differs from the pointer's");
                return false;
            }
            INS(i)->b = OFF(mk);
            x->has_mask = true;
        }
        if (!bptr && op->nopnds > 2 && op->opnds[2]) {
            INS(i)->c = OFF(V(C, op, op->opnds[2]));
            x->has_other = true;
        }
        INS(i)->x.p = x;
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_STORE: {
        if (op->nopnds < 2) {
            cerr(C, op, "store without a value");
            return false;
        }
        int v = V(C, op, op->opnds[1]);
        int i = emit(C, bptr ? emu_h_store_bptr : emu_h_store, op);
        INS(i)->a = OFF(p);
        INS(i)->b = OFF(v);
        INS(i)->n = C->vals[v].n;
        if (!bptr && op->nopnds > 2 && op->opnds[2]) {
            INS(i)->c = OFF(V(C, op, op->opnds[2]));
            x->has_mask = true;
        }
        INS(i)->x.p = x;
        return true;
    }
    case CT_OP_TT_ATOMIC_RMW: {
        static const char *const w[] = {"and", "or", "xor", "add", "fadd",
                                        "max", "min", "umax", "umin", "exch"};
        static const int vals[] = {RMW_AND, RMW_OR,  RMW_XOR,  RMW_ADD,  RMW_FADD,
                                   RMW_MAX, RMW_MIN, RMW_UMAX, RMW_UMIN, RMW_XCHG};
        x->rmw = attr_enum(op, "atomic_rmw_op", w, 10, vals, -2);
        if (x->rmw < 0 || bptr || op->nopnds < 2) {
            cerr(C, op, "unsupported atomic");
            return false;
        }
        if (x->esize != 2 && x->esize != 4 && x->esize != 8) {
            cerr(C, op, "atomics on %zu-byte elements are not supported", x->esize);
            return false;
        }
        int v = V(C, op, op->opnds[1]);
        int d = new_val(C, op, op->res[0].type);
        int i = emit(C, emu_h_atomic_rmw, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(p);
        INS(i)->b = OFF(v);
        INS(i)->n = C->vals[d].n;
        if (op->nopnds > 2 && op->opnds[2]) {
            INS(i)->c = OFF(V(C, op, op->opnds[2]));
            x->has_mask = true;
        }
        INS(i)->x.p = x;
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_ATOMIC_CAS: {
        if (op->nopnds < 3 || bptr || (x->esize != 2 && x->esize != 4 && x->esize != 8)) {
            cerr(C, op, "unsupported atomic_cas");
            return false;
        }
        int cmp = V(C, op, op->opnds[1]), v = V(C, op, op->opnds[2]);
        int d = new_val(C, op, op->res[0].type);
        int i = emit(C, emu_h_atomic_cas, op);
        INS(i)->d = OFF(d);
        INS(i)->a = OFF(p);
        INS(i)->b = OFF(cmp);
        INS(i)->c = OFF(v);
        INS(i)->n = C->vals[d].n;
        INS(i)->x.p = x;
        bind(C, &op->res[0], d);
        return true;
    }
    default:
        return false;
    }
}


static bool compile_bptr(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    bptr_ops *o = aux(C, sizeof *o);
    int d = new_val(C, op, op->res[0].type);
    int i;
    if (op->code == CT_OP_TT_MAKE_TENSOR_PTR) {
        int r = (op->nopnds - 1) / 3;
        if (r < 1 || r > CT_MAX_RANK || op->nopnds != 1 + 3 * r) {
            cerr(C, op, "malformed make_tensor_ptr");
            return false;
        }
        o->rank = r;
        o->base = OFF(V(C, op, op->opnds[0]));
        o->shape_ek = opnd_ek(op, 1);
        o->stride_ek = opnd_ek(op, 1 + r);
        o->off_ek = opnd_ek(op, 1 + 2 * r);
        for (int j = 0; j < r; j++) {
            o->shape[j] = OFF(V(C, op, op->opnds[1 + j]));
            o->strides[j] = OFF(V(C, op, op->opnds[1 + r + j]));
            o->offsets[j] = OFF(V(C, op, op->opnds[1 + 2 * r + j]));
        }
        i = emit(C, emu_h_make_bptr, op);
    } else {
        int r = op->nopnds - 1;
        if (r < 1 || r > CT_MAX_RANK) {
            cerr(C, op, "malformed advance");
            return false;
        }
        o->rank = r;
        o->off_ek = opnd_ek(op, 1);
        for (int j = 0; j < r; j++)
            o->offsets[j] = OFF(V(C, op, op->opnds[1 + j]));
        i = emit(C, emu_h_advance, op);
        INS(i)->a = OFF(V(C, op, op->opnds[0]));
    }
    INS(i)->d = OFF(d);
    INS(i)->x.p = o;
    bind(C, &op->res[0], d);
    return true;
}

/* ---- dot ---------------------------------------------------------------------------------------------------- */

static bool compile_dot(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    if (op->nopnds < 3) {
        cerr(C, op, "dot needs a, b and the accumulator");
        return false;
    }
    const ct_type *at = op->opnds[0]->type, *bt = op->opnds[1]->type, *ct = op->res[0].type;
    if (at->kind != CT_TY_TENSOR || bt->kind != CT_TY_TENSOR || ct->kind != CT_TY_TENSOR ||
        at->rank != bt->rank || at->rank < 2 || at->rank > 3) {
        cerr(C, op, "dot operands must be 2-D or 3-D tensors");
        return false;
    }
    emu_dot_aux *x = aux(C, sizeof *x);
    int r = at->rank;
    x->batch = r == 3 ? at->shape[0] : 1;
    x->M = at->shape[r - 2];
    x->K = at->shape[r - 1];
    x->N = bt->shape[r - 1];
    if (bt->shape[r - 2] != x->K) {
        cerr(C, op, "dot shapes do not agree");
        return false;
    }
    x->a_ek = opnd_ek(op, 0);
    x->b_ek = opnd_ek(op, 1);
    x->c_ek = (emu_ek)ek_of(ct);
    static const char *const w[] = {"tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"};
    x->precision = attr_enum(op, "inputPrecision", w, 5, NULL, 0);
    if (x->precision < 0) {
        cerr(C, op, "unknown inputPrecision");
        return false;
    }
    x->scratch = (uint32_t)alloc_frame(C, emu_dot_scratch_bytes(x));
    int a = V(C, op, op->opnds[0]), b = V(C, op, op->opnds[1]), c = V(C, op, op->opnds[2]);
    int d = new_val(C, op, ct);
    int i = emit(C, emu_h_dot, op);
    INS(i)->d = OFF(d);
    INS(i)->a = OFF(a);
    INS(i)->b = OFF(b);
    INS(i)->c = OFF(c);
    INS(i)->n = C->vals[d].n;
    INS(i)->x.p = x;
    bind(C, &op->res[0], d);
    return true;
}

/* ---- reduce and scan ---------------------------------------------------------------------------------------- */

/* Triton's default blocked layout (getDefaultBlockedEncoding): one element
 * per thread, threads then warps along the fastest dimension first. */
static void default_layout(int rank, const int64_t *shape, int num_warps, int *tpw, int *wpc)
{
    int remL = 32, remT = 32 * num_warps, remW = num_warps, prevL = 1, prevW = 1;
    for (int j = 0; j < rank - 1; j++) {
        int i = rank - 1 - j; /* order = [rank-1, ..., 0] */
        int64_t cap = shape[i] > 1 ? shape[i] : 1;
        int tpc = remT < 1 ? 1 : remT;
        if (tpc > cap)
            tpc = (int)cap;
        int t = tpc < 1 ? 1 : (tpc > remL ? remL : tpc);
        int w = tpc / t;
        if (w < 1)
            w = 1;
        if (w > remW)
            w = remW;
        tpw[i] = t;
        wpc[i] = w;
        remW /= w;
        remL /= t;
        remT /= tpc;
        prevL *= t;
        prevW *= w;
    }
    tpw[0] = 32 / prevL;
    wpc[0] = num_warps / prevW;
}

/* the order model for `len` elements along the axis, held `spt` contiguous
 * elements per thread and repetition by `tpw` lanes and `wpc` warps (the
 * layout's values along the axis), keeping only threads with unique data */
static void set_order(emu_reduce_aux *x, int64_t len, int spt, int tpw, int wpc)
{
    int s = spt < len ? spt : (int)len;
    if (s < 1)
        s = 1;
    int L = tpw < len / s ? tpw : (int)(len / s);
    if (L < 1)
        L = 1;
    int W = wpc < len / ((int64_t)s * L) ? wpc : (int)(len / ((int64_t)s * L));
    if (W < 1)
        W = 1;
    x->spt = s;
    x->lanes = L;
    x->warps = W;
    x->nthr = L * W;
    x->nreg = (int)(len / x->nthr);
    if (x->nreg < 1)
        x->nreg = 1;
}

/* fills the order model of a reduce/scan over `axis` of `shape` */
static void order_model(cctx *C, emu_reduce_aux *x, const ct_type *t, int axis)
{
    int tpw[CT_MAX_RANK], wpc[CT_MAX_RANK];
    default_layout(t->rank, t->shape, C->num_warps, tpw, wpc);
    set_order(x, t->shape[axis], 1, tpw[axis], wpc[axis]);
}

/* the given layouts, when they describe these reductions exactly */
static void apply_layouts(cctx *C, const ct_emu_options *o)
{
    if (!o || !o->layouts || o->nlayouts != C->nreds)
        return;
    for (int i = 0; i < C->nreds; i++) {
        const ct_emu_layout *l = &o->layouts[i];
        emu_reduce_aux *x = C->reds[i];
        if (l->rank < 1 || l->axis < 0 || l->axis >= l->rank)
            return;
        int64_t len = 1, outer = 1, inner = 1;
        for (int d = 0; d < l->rank; d++) {
            if (d < l->axis)
                outer *= l->shape[d];
            else if (d > l->axis)
                inner *= l->shape[d];
            else
                len = l->shape[d];
        }
        if (len != x->len || outer != x->outer || inner != x->inner || l->is_scan != x->is_scan)
            return; /* not the same ops: keep the default everywhere */
    }
    for (int i = 0; i < C->nreds; i++) {
        const ct_emu_layout *l = &o->layouts[i];
        emu_reduce_aux *x = C->reds[i];
        int a = l->axis;
        if (!l->blocked || (x->is_scan && l->size_per_thread[a] != 1))
            continue; /* scans: only one element per thread is modelled */
        set_order(x, x->len, l->size_per_thread[a], l->threads_per_warp[a], l->warps_per_cta[a]);
    }
}

/* is the region `b(x, y) = x + y` (directly or through a call)? */
static bool region_is_addf(cctx *C, const ct_region *r, int depth)
{
    const ct_block *b = r->first;
    if (!b || b->next || b->nargs != 2 || depth > 4)
        return false;
    const ct_op *o = b->first;
    if (!o || !o->next || !(ct_op_info_of(o->next->code)->flags & CT_OPF_TERM))
        return false;
    const ct_op *t = o->next;
    if (t->nopnds != 1 || t->opnds[0] != &o->res[0] || o->nopnds != 2 ||
        o->opnds[0] != b->args[0] || o->opnds[1] != b->args[1])
        return false;
    if (o->code == CT_OP_ARITH_ADDF)
        return true;
    if (o->code == CT_OP_TT_CALL) {
        const ct_attr *ca = attr(o, "callee");
        const ct_op *f = ca ? ct_module_lookup_func(C->m, ca->s) : NULL;
        return f && f->nregions && region_is_addf(C, &f->regions[0], depth + 1);
    }
    return false;
}

static bool compile_region_batched(cctx *C, const ct_op *op, const ct_region *r, int k,
                                   int64_t width, emu_region *out)
{
    const ct_block *b = r->first;
    if (!b || b->next || b->nargs != 2 * k) {
        cerr(C, op, "combine region must have one block with %d arguments", 2 * k);
        return false;
    }
    int64_t saved = C->batch;
    C->batch = width;
    int jmp = emit(C, emu_h_jmp, NULL);
    INS(jmp)->n = 1;
    out->pc = C->ncode;
    out->nargs = 2 * k;
    out->width = width;
    out->arg_off = aux(C, sizeof(uint32_t) * (size_t)(2 * k));
    out->res_off = aux(C, sizeof(uint32_t) * (size_t)k);
    for (int i = 0; i < 2 * k; i++) {
        int v = new_val(C, op, b->args[i]->type);
        bind(C, b->args[i], v);
        out->arg_off[i] = OFF(v);
    }
    bool ok = compile_block_ops(C, b, true);
    const ct_op *t = b->last;
    if (ok && t && (t->code == CT_OP_TT_REDUCE_RETURN || t->code == CT_OP_TT_SCAN_RETURN) &&
        t->nopnds == k) {
        for (int i = 0; i < k; i++)
            out->res_off[i] = OFF(V(C, t, t->opnds[i]));
    } else if (ok) {
        cerr(C, op, "combine region must end with a return of %d values", k);
        ok = false;
    }
    int ret = emit(C, emu_h_ret, t);
    INS(ret)->n = 1;
    INS(jmp)->target = C->ncode;
    /* one elementwise op computing res = f(arg0, arg1): run it directly */
    if (ok && k == 1 && ret == out->pc + 1) {
        const emu_ins *I0 = INS(out->pc);
        if (I0->a == out->arg_off[0] && I0->b == out->arg_off[1] && I0->d == out->res_off[0] &&
            I0->n < 0 && I0->fn != emu_h_pcopy) {
            out->fast = true;
            out->fast_ins = *I0;
        }
    }
    C->batch = saved;
    return ok;
}

static bool compile_reduce(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    int k = op->nopnds;
    if (k < 1 || op->nregions != 1 || op->nres != k) {
        cerr(C, op, "malformed reduce/scan");
        return false;
    }
    const ct_type *t = op->opnds[0]->type;
    if (t->kind != CT_TY_TENSOR) {
        cerr(C, op, "operand is not a tensor");
        return false;
    }
    int axis = (int)attr_int(op, "axis", 0);
    if (axis < 0 || axis >= t->rank) {
        cerr(C, op, "axis %d out of range", axis);
        return false;
    }
    emu_reduce_aux *x = aux(C, sizeof *x);
    x->k = k;
    x->in_off = aux(C, sizeof(uint32_t) * (size_t)k);
    x->out_off = aux(C, sizeof(uint32_t) * (size_t)k);
    x->acc_off = aux(C, sizeof(uint32_t) * (size_t)k);
    x->esize = aux(C, sizeof(size_t) * (size_t)k);
    x->ek = aux(C, sizeof(emu_ek) * (size_t)k);
    x->outer = 1;
    x->inner = 1;
    for (int i = 0; i < axis; i++)
        x->outer *= t->shape[i];
    for (int i = axis + 1; i < t->rank; i++)
        x->inner *= t->shape[i];
    x->len = t->shape[axis];
    x->reverse = op->code == CT_OP_TT_SCAN && attr_int(op, "reverse", 0);
    x->is_scan = op->code == CT_OP_TT_SCAN;
    order_model(C, x, t, axis);
    GROW(C->reds, C->nreds, C->creds);
    C->reds[C->nreds++] = x;
    int64_t numel = ct_type_numel(t);
    for (int j = 0; j < k; j++) {
        int in = V(C, op, op->opnds[j]);
        x->in_off[j] = OFF(in);
        x->ek[j] = C->vals[in].ek;
        x->esize[j] = emu_ek_size(x->ek[j]);
        x->acc_off[j] = (uint32_t)alloc_frame(C, (size_t)numel * x->esize[j]);
    }
    if (!compile_region_batched(C, op, &op->regions[0], k, numel, &x->region))
        return false;
    if (op->code == CT_OP_TT_REDUCE && k == 1 && (x->ek[0] == EK_F32 || x->ek[0] == EK_F64) &&
        region_is_addf(C, &op->regions[0], 0)) {
        const ct_op *m = fusable_mul(C, op, op->opnds[0]);
        if (m && m->res[0].type == op->opnds[0]->type) {
            x->fuse = true;
            x->fa = OFF(V(C, op, m->opnds[0]));
            x->fb = OFF(V(C, op, m->opnds[1]));
        }
    }
    for (int j = 0; j < k; j++) {
        int d = new_val(C, op, op->res[j].type);
        x->out_off[j] = OFF(d);
        bind(C, &op->res[j], d);
    }
    int i = emit(C, op->code == CT_OP_TT_REDUCE ? emu_h_reduce : emu_h_scan, op);
    INS(i)->x.p = x;
    return true;
}

/* ---- misc ---------------------------------------------------------------------------------------------------- */

static bool compile_print(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    emu_print_aux *x = aux(C, sizeof *x);
    const ct_attr *p = attr(op, "prefix");
    x->prefix = ct_arena_strdup(C->A, p && p->s ? p->s : "");
    x->hex = attr_int(op, "hex", 0) != 0;
    x->n = op->nopnds;
    x->off = aux(C, sizeof(uint32_t) * (size_t)(op->nopnds + 1));
    x->numel = aux(C, sizeof(int64_t) * (size_t)(op->nopnds + 1));
    x->ek = aux(C, sizeof(emu_ek) * (size_t)(op->nopnds + 1));
    x->is_signed = aux(C, sizeof(bool) * (size_t)(op->nopnds + 1));
    const ct_attr *sg = attr(op, "isSigned");
    for (int i = 0; i < op->nopnds; i++) {
        int v = V(C, op, op->opnds[i]);
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
    int i = emit(C, emu_h_print, op);
    INS(i)->x.p = x;
    return true;
}

/* ---- calls and control flow ------------------------------------------------------------------------------------ */

static bool compile_blocks(cctx *C, const ct_op *owner, const ct_region *r);

static bool compile_call(cctx *C, const ct_op *op)
{
    const ct_attr *ca = attr(op, "callee");
    const ct_op *f = ca && ca->s ? ct_module_lookup_func(C->m, ca->s) : NULL;
    if (!f || !f->nregions || !f->regions[0].first) {
        cerr(C, op, "callee `%s` not found in the module", ca && ca->s ? ca->s : "?");
        return false;
    }
    if (C->depth > 32) {
        cerr(C, op, "calls nested deeper than 32 (recursion?)");
        return false;
    }
    const ct_block *entry = f->regions[0].first;
    if (entry->nargs != op->nopnds) {
        cerr(C, op, "callee `%s` takes %d arguments, %d given", ca->s, entry->nargs, op->nopnds);
        return false;
    }
    int args[64];
    if (op->nopnds > 64) {
        cerr(C, op, "too many call arguments");
        return false;
    }
    for (int i = 0; i < op->nopnds; i++)
        args[i] = V(C, op, op->opnds[i]);
    ct_ptrmap local, *saved_map = C->vmap;
    ct_pm_init(&local);
    C->vmap = &local;
    int saved_caller = C->caller_loc;
    C->caller_loc = loc_index(C, op->loc);
    fnret *saved_ret = C->ret;
    bool saved_kernel = C->kernel_level;
    C->kernel_level = false;
    C->depth++;
    for (int i = 0; i < op->nopnds; i++)
        bind(C, entry->args[i], args[i]);
    bool ok;
    int results[64];
    int nres = op->nres;
    const ct_op *term = entry->last;
    if (nres > 64) {
        cerr(C, op, "too many call results");
        ok = false;
    } else if (term && term->code == CT_OP_TT_RETURN && term->nopnds == nres) {
        /* one block ending in its return: results alias the returned values */
        C->ret = NULL;
        ok = compile_block_ops(C, entry, true);
        for (int i = 0; ok && i < nres; i++)
            results[i] = V(C, term, term->opnds[i]);
    } else {
        fnret fr = {0};
        fr.nres = nres;
        fr.res = results;
        for (int i = 0; i < nres; i++)
            results[i] = new_val(C, op, op->res[i].type);
        C->ret = &fr;
        ok = compile_blocks(C, f, &f->regions[0]);
        for (int i = 0; i < fr.njumps; i++)
            INS(fr.jumps[i])->target = C->ncode;
        free(fr.jumps);
    }
    C->depth--;
    C->ret = saved_ret;
    C->kernel_level = saved_kernel;
    C->caller_loc = saved_caller;
    C->vmap = saved_map;
    ct_pm_free(&local);
    for (int i = 0; ok && i < nres; i++)
        bind(C, &op->res[i], alias_val(C, results[i], op->res[i].type));
    return ok;
}

/* values of a terminator's operands as val indices */
static int *opnd_vals(cctx *C, const ct_op *op, int from, int n)
{
    int *v = aux(C, sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        v[i] = V(C, op, op->opnds[from + i]);
    return v;
}

static int *fresh_vals_for_args(cctx *C, const ct_op *op, const ct_block *b, int from)
{
    int n = b->nargs - from;
    int *v = aux(C, sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        v[i] = new_val(C, op, b->args[from + i]->type);
        bind(C, b->args[from + i], v[i]);
    }
    return v;
}

static bool compile_for(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    const ct_block *b = op->nregions ? op->regions[0].first : NULL;
    int nc = op->nopnds - 3;
    if (!b || nc < 0 || b->nargs != nc + 1 || op->nres != nc) {
        cerr(C, op, "malformed scf.for");
        return false;
    }
    int lb = V(C, op, op->opnds[0]), ub = V(C, op, op->opnds[1]), st = V(C, op, op->opnds[2]);
    int iv = new_val(C, op, b->args[0]->type);
    bind(C, b->args[0], iv);
    int *carried = fresh_vals_for_args(C, op, b, 1);
    int *inits = opnd_vals(C, op, 3, nc);
    emit_pcopy(C, op, 1, &iv, &lb);
    emit_pcopy(C, op, nc, carried, inits);
    int head = emit(C, emu_h_for_test, op);
    INS(head)->a = OFF(iv);
    INS(head)->b = OFF(ub);
    INS(head)->ek = (uint8_t)C->vals[iv].ek;
    INS(head)->flags = attr(op, "unsignedCmp") ? 1 : 0;
    if (!compile_block_ops(C, b, true))
        return false;
    const ct_op *y = b->last;
    if (!y || y->code != CT_OP_SCF_YIELD || y->nopnds != nc) {
        cerr(C, op, "scf.for body must end with scf.yield of %d values", nc);
        return false;
    }
    emit_pcopy(C, y, nc, carried, opnd_vals(C, y, 0, nc));
    int step = emit(C, emu_h_for_step, op);
    INS(step)->a = OFF(iv);
    INS(step)->b = OFF(st);
    INS(step)->ek = (uint8_t)C->vals[iv].ek;
    INS(step)->target = head;
    INS(head)->target = C->ncode;
    for (int i = 0; i < nc; i++)
        bind(C, &op->res[i], carried[i]);
    return true;
}

static bool compile_if(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    if (op->nopnds != 1 || op->nregions < 1) {
        cerr(C, op, "malformed scf.if");
        return false;
    }
    int cond = V(C, op, op->opnds[0]);
    int nr = op->nres;
    int *res = aux(C, sizeof(int) * (size_t)(nr ? nr : 1));
    for (int i = 0; i < nr; i++)
        res[i] = new_val(C, op, op->res[i].type);
    int br = emit(C, emu_h_brz, op);
    INS(br)->a = OFF(cond);
    int jend = -1;
    for (int r = 0; r < 2; r++) {
        const ct_block *b = r < op->nregions ? op->regions[r].first : NULL;
        if (r == 1)
            INS(br)->target = C->ncode;
        if (!b) {
            if (nr) {
                cerr(C, op, "scf.if with results needs an else region");
                return false;
            }
            continue;
        }
        if (!compile_block_ops(C, b, true))
            return false;
        const ct_op *y = b->last;
        if (!y || y->code != CT_OP_SCF_YIELD || y->nopnds != nr) {
            cerr(C, op, "scf.if region must end with scf.yield of %d values", nr);
            return false;
        }
        emit_pcopy(C, y, nr, res, opnd_vals(C, y, 0, nr));
        if (r == 0) {
            jend = emit(C, emu_h_jmp, op);
            INS(jend)->n = 1;
        }
    }
    if (jend >= 0)
        INS(jend)->target = C->ncode;
    for (int i = 0; i < nr; i++)
        bind(C, &op->res[i], res[i]);
    return true;
}

static bool compile_while(cctx *C, const ct_op *op)
{
    if (!no_batch(C, op))
        return false;
    const ct_block *before = op->nregions > 0 ? op->regions[0].first : NULL;
    const ct_block *after = op->nregions > 1 ? op->regions[1].first : NULL;
    if (!before || !after || before->nargs != op->nopnds) {
        cerr(C, op, "malformed scf.while");
        return false;
    }
    int *bargs = fresh_vals_for_args(C, op, before, 0);
    emit_pcopy(C, op, op->nopnds, bargs, opnd_vals(C, op, 0, op->nopnds));
    int head = C->ncode;
    if (!compile_block_ops(C, before, true))
        return false;
    const ct_op *cnd = before->last;
    if (!cnd || cnd->code != CT_OP_SCF_CONDITION || cnd->nopnds != 1 + after->nargs ||
        after->nargs != op->nres) {
        cerr(C, op, "scf.while: the before region must end with scf.condition");
        return false;
    }
    int cond = V(C, cnd, cnd->opnds[0]);
    int *cvals = opnd_vals(C, cnd, 1, after->nargs);
    int br = emit(C, emu_h_brz, cnd);
    INS(br)->a = OFF(cond);
    int *aargs = fresh_vals_for_args(C, op, after, 0);
    emit_pcopy(C, cnd, after->nargs, aargs, cvals);
    if (!compile_block_ops(C, after, true))
        return false;
    const ct_op *y = after->last;
    if (!y || y->code != CT_OP_SCF_YIELD || y->nopnds != op->nopnds) {
        cerr(C, op, "scf.while: the after region must end with scf.yield");
        return false;
    }
    emit_pcopy(C, y, op->nopnds, bargs, opnd_vals(C, y, 0, op->nopnds));
    int j = emit(C, emu_h_jmp, y);
    INS(j)->n = 1;
    INS(j)->target = head;
    INS(br)->target = C->ncode;
    int *res = aux(C, sizeof(int) * (size_t)(op->nres ? op->nres : 1));
    for (int i = 0; i < op->nres; i++)
        res[i] = new_val(C, op, op->res[i].type);
    emit_pcopy(C, cnd, op->nres, res, cvals);
    for (int i = 0; i < op->nres; i++)
        bind(C, &op->res[i], res[i]);
    return true;
}

/* a branch: copies into the target's block arguments, then a patched jump */
static void emit_branch(cctx *C, const ct_op *op, const ct_block *target, int from, int n)
{
    int *args = ct_pm_get(&C->blockargs, target);
    if (!args && target->nargs) {
        cerr(C, op, "branch to a block the emulator did not see");
        return;
    }
    if (n != target->nargs) {
        cerr(C, op, "branch passes %d values to a block of %d arguments", n, target->nargs);
        return;
    }
    emit_pcopy(C, op, n, args, opnd_vals(C, op, from, n));
    int j = emit(C, emu_h_jmp, op);
    INS(j)->n = 1;
    GROW(C->patches, C->npatches, C->cpatches);
    C->patches[C->npatches++] = (patch){j, target};
}

static bool compile_return(cctx *C, const ct_op *op)
{
    if (C->kernel_level) {
        emit(C, emu_h_end, op);
        return true;
    }
    fnret *fr = C->ret;
    if (!fr || op->nopnds != fr->nres) {
        cerr(C, op, "return of %d values from a call expecting %d", op->nopnds,
             fr ? fr->nres : 0);
        return false;
    }
    emit_pcopy(C, op, fr->nres, fr->res, opnd_vals(C, op, 0, fr->nres));
    int j = emit(C, emu_h_jmp, op);
    INS(j)->n = 1;
    GROW(fr->jumps, fr->njumps, fr->cjumps);
    fr->jumps[fr->njumps++] = j;
    return true;
}

static bool compile_op(cctx *C, const ct_op *op)
{
    if (!is_live(C, op))
        return true;
    switch (op->code) {
    case CT_OP_ARITH_CONSTANT:
        return compile_constant(C, op);
    case CT_OP_ARITH_ADDF:
    case CT_OP_ARITH_SUBF: {
        if (try_fma(C, op))
            return true;
        emu_ek ek = opnd_ek(op, 0);
        return elementwise(C, op, emu_arith_fn(op->code, ek, 0), 2, ek);
    }
    case CT_OP_ARITH_ADDI:
    case CT_OP_ARITH_SUBI:
    case CT_OP_ARITH_MULI:
    case CT_OP_ARITH_DIVSI:
    case CT_OP_ARITH_DIVUI:
    case CT_OP_ARITH_CEILDIVSI:
    case CT_OP_ARITH_FLOORDIVSI:
    case CT_OP_ARITH_REMSI:
    case CT_OP_ARITH_REMUI:
    case CT_OP_ARITH_ANDI:
    case CT_OP_ARITH_ORI:
    case CT_OP_ARITH_XORI:
    case CT_OP_ARITH_SHLI:
    case CT_OP_ARITH_SHRSI:
    case CT_OP_ARITH_SHRUI:
    case CT_OP_ARITH_MAXSI:
    case CT_OP_ARITH_MAXUI:
    case CT_OP_ARITH_MINSI:
    case CT_OP_ARITH_MINUI:
    case CT_OP_ARITH_MULF:
    case CT_OP_ARITH_DIVF:
    case CT_OP_ARITH_REMF:
    case CT_OP_ARITH_MAXIMUMF:
    case CT_OP_ARITH_MINIMUMF:
    case CT_OP_ARITH_MAXNUMF:
    case CT_OP_ARITH_MINNUMF:
    case CT_OP_TT_MULHIUI:
    case CT_OP_TT_PRECISE_DIVF: {
        emu_ek ek = opnd_ek(op, 0);
        return elementwise(C, op, emu_arith_fn(op->code, ek, 0), 2, ek);
    }
    case CT_OP_ARITH_CMPI:
    case CT_OP_ARITH_CMPF: {
        emu_ek ek = opnd_ek(op, 0);
        bool isi = op->code == CT_OP_ARITH_CMPI;
        int pred = attr_enum(op, "predicate", isi ? cmpi_words : cmpf_words, isi ? 10 : 16, NULL,
                             -2);
        if (pred < 0) {
            cerr(C, op, "missing or unknown predicate");
            return false;
        }
        if (ek == EK_PTR && isi)
            ek = EK_I64;
        return elementwise(C, op, emu_arith_fn(op->code, ek, pred), 2, ek);
    }
    case CT_OP_ARITH_SELECT: {
        if (op->nopnds != 3) {
            cerr(C, op, "select needs 3 operands");
            return false;
        }
        bool scalar_cond = op->opnds[0]->type->kind != CT_TY_TENSOR &&
                           op->res[0].type->kind == CT_TY_TENSOR;
        return elementwise(C, op, scalar_cond ? emu_h_select_scalar : emu_h_select, 3,
                           opnd_ek(op, 1));
    }
    case CT_OP_ARITH_NEGF:
    case CT_OP_MATH_EXP:
    case CT_OP_MATH_EXP2:
    case CT_OP_MATH_LOG:
    case CT_OP_MATH_LOG2:
    case CT_OP_MATH_SQRT:
    case CT_OP_MATH_RSQRT:
    case CT_OP_MATH_ABSF:
    case CT_OP_MATH_ABSI:
    case CT_OP_MATH_SIN:
    case CT_OP_MATH_COS:
    case CT_OP_MATH_ERF:
    case CT_OP_MATH_FLOOR:
    case CT_OP_MATH_CEIL:
    case CT_OP_MATH_TANH:
    case CT_OP_TT_PRECISE_SQRT: {
        emu_ek ek = opnd_ek(op, 0);
        return elementwise(C, op, emu_math_fn(op->code, ek), 1, ek);
    }
    case CT_OP_MATH_FMA: {
        emu_ek ek = opnd_ek(op, 0);
        return elementwise(C, op, emu_math_fn(op->code, ek), 3, ek);
    }
    case CT_OP_TT_CLAMPF: {
        emu_ek ek = opnd_ek(op, 0);
        static const char *const w[] = {"none", "all"};
        static const int v[] = {0, 0xFFFF};
        int pn = attr_enum(op, "propagateNan", w, 2, v, 0);
        return elementwise(C, op, pn == 0xFFFF ? emu_clampnan_fn(ek) : emu_math_fn(op->code, ek),
                           3, ek);
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
        return compile_cast(C, op);
    case CT_OP_ARITH_BITCAST:
    case CT_OP_TT_BITCAST:
    case CT_OP_TT_INT_TO_PTR:
    case CT_OP_TT_PTR_TO_INT:
        return compile_alias(C, op);
    case CT_OP_TT_GET_PROGRAM_ID:
    case CT_OP_TT_GET_NUM_PROGRAMS: {
        static const char *const w[] = {"x", "y", "z"};
        int axis = attr_enum(op, "axis", w, 3, NULL, 0);
        if (axis < 0) {
            cerr(C, op, "bad axis");
            return false;
        }
        int d = new_val(C, op, op->res[0].type);
        int i = emit(C,
                     op->code == CT_OP_TT_GET_PROGRAM_ID ? emu_h_program_id : emu_h_num_programs,
                     op);
        INS(i)->d = OFF(d);
        INS(i)->x.i = axis;
        bind(C, &op->res[0], d);
        return no_batch(C, op);
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
        return compile_shape_op(C, op);
    case CT_OP_TT_ADDPTR: {
        if (!no_batch(C, op))
            return false;
        size_t es = pointee_size(op->res[0].type);
        if (!es) {
            cerr(C, op, "unsupported pointer type");
            return false;
        }
        if (!elementwise(C, op, emu_h_addptr, 2, opnd_ek(op, 1)))
            return false;
        C->code[C->ncode - 1].x.i = (int64_t)es;
        return true;
    }
    case CT_OP_TT_LOAD:
    case CT_OP_TT_STORE:
    case CT_OP_TT_ATOMIC_RMW:
    case CT_OP_TT_ATOMIC_CAS:
        return compile_memory(C, op);
    case CT_OP_TT_MAKE_TENSOR_PTR:
    case CT_OP_TT_ADVANCE:
        return compile_bptr(C, op);
    case CT_OP_TT_DOT:
        return compile_dot(C, op);
    case CT_OP_TT_REDUCE:
    case CT_OP_TT_SCAN:
        return compile_reduce(C, op);
    case CT_OP_TT_EXTERN_ELEMENTWISE: {
        const ct_attr *s = attr(op, "symbol");
        int ret = ek_of(op->res[0].type);
        emu_ek ins[4] = {EK_I8, EK_I8, EK_I8, EK_I8};
        for (int i = 0; i < op->nopnds && i < 4; i++)
            ins[i] = opnd_ek(op, i);
        const void *xa = NULL;
        emu_fn fn = s && s->s && op->nopnds <= 3 && ret >= 0
                        ? emu_libdevice_fn(s->s, op->nopnds, (emu_ek)ret, ins, C->A, &xa)
                        : NULL;
        if (!fn) {
            cerr(C, op, "extern function `%s` is not emulated", s && s->s ? s->s : "?");
            return false;
        }
        if (!elementwise(C, op, fn, op->nopnds, ins[0]))
            return false;
        C->code[C->ncode - 1].x.p = xa;
        return true;
    }
    case CT_OP_TT_INLINE_ASM:
        cerr(C, op, "inline PTX (elementwise_inline_asm) cannot be emulated");
        return false;
    case CT_OP_TT_ASSERT:
    case CT_OP_LLVM_ASSUME: {
        if (!no_batch(C, op) || op->nopnds < 1)
            return false;
        int c = V(C, op, op->opnds[0]);
        int i = emit(C, op->code == CT_OP_TT_ASSERT ? emu_h_assert : emu_h_assume, op);
        INS(i)->a = OFF(c);
        INS(i)->n = C->vals[c].n;
        const ct_attr *m = attr(op, "message");
        INS(i)->x.p = ct_arena_strdup(C->A, m && m->s ? m->s : "");
        return true;
    }
    case CT_OP_TT_PRINT:
        return compile_print(C, op);
    case CT_OP_GPU_BARRIER:
        /* a program is one CPU thread running whole-tensor ops: always in step */
        return true;
    case CT_OP_UB_POISON: {
        int d = new_val(C, op, op->res[0].type);
        bind(C, &op->res[0], d);
        return true;
    }
    case CT_OP_TT_CALL:
        return compile_call(C, op);
    case CT_OP_SCF_FOR:
        return compile_for(C, op);
    case CT_OP_SCF_IF:
        return compile_if(C, op);
    case CT_OP_SCF_WHILE:
        return compile_while(C, op);
    case CT_OP_TT_RETURN:
        return compile_return(C, op);
    case CT_OP_CF_BR:
        if (op->nsucc != 1) {
            cerr(C, op, "malformed branch");
            return false;
        }
        emit_branch(C, op, op->succ[0], 0, op->succ_nopnds[0]);
        return true;
    case CT_OP_CF_COND_BR: {
        if (op->nsucc != 2 || op->nopnds < 1) {
            cerr(C, op, "malformed conditional branch");
            return false;
        }
        int c = V(C, op, op->opnds[0]);
        int br = emit(C, emu_h_brz, op);
        INS(br)->a = OFF(c);
        int n0 = op->succ_nopnds[0], n1 = op->succ_nopnds[1];
        emit_branch(C, op, op->succ[0], 1, n0);
        INS(br)->target = C->ncode;
        emit_branch(C, op, op->succ[1], 1 + n0, n1);
        return true;
    }
    case CT_OP_SCF_YIELD:
    case CT_OP_SCF_CONDITION:
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
        cerr(C, op, "terminator in an unexpected place");
        return false;
    case CT_OP_TT_FUNC:
    default:
        cerr(C, op, "op not supported by the emulator");
        return false;
    }
}

/* compiles the ops of a block; the terminator too unless stop_at_term
 * (then the caller handles it: yield, condition, reduce.return, return) */
static bool compile_block_ops(cctx *C, const ct_block *b, bool stop_at_term)
{
    bool ok = true;
    for (const ct_op *op = b->first; op; op = op->next) {
        bool term = (ct_op_info_of(op->code)->flags & CT_OPF_TERM) != 0;
        if (term && stop_at_term && op == b->last && op->code != CT_OP_CF_BR &&
            op->code != CT_OP_CF_COND_BR)
            break;
        if (!compile_op(C, op))
            ok = false;
        if (C->nerr > 20)
            return false;
    }
    return ok && C->nerr == 0;
}

/* a function body (kernel or callee): every block reachable from the entry */
static bool compile_blocks(cctx *C, const ct_op *owner, const ct_region *r)
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
        ct_pm_put(&C->blockargs, blocks[i], fresh_vals_for_args(C, NULL, blocks[i], 0));
    int first_patch = C->npatches;
    bool ok = true;
    for (int i = 0; i < nb; i++) {
        ct_pm_put(&C->blockpc, blocks[i], (void *)(intptr_t)(C->ncode + 1));
        if (!compile_block_ops(C, blocks[i], false))
            ok = false;
        const ct_op *t = blocks[i]->last;
        if (!t || !(ct_op_info_of(t->code)->flags & CT_OPF_TERM)) {
            cerr(C, t, "block without a terminator");
            ok = false;
        }
    }
    for (int i = first_patch; i < C->npatches; i++) {
        intptr_t pc = (intptr_t)ct_pm_get(&C->blockpc, C->patches[i].block);
        if (!pc) {
            cerr(C, NULL, "branch to an unknown block");
            ok = false;
            continue;
        }
        INS(C->patches[i].ins)->target = (int32_t)(pc - 1);
    }
    C->npatches = first_patch;
    return ok;
}

/* ---- entry point ------------------------------------------------------------------------------------ */

static const ct_op *find_kernel(const ct_module *m, const char *func)
{
    if (func)
        return ct_module_lookup_func(m, func);
    const ct_op *first = NULL;
    for (const ct_op *op = m->body->first; op; op = op->next) {
        if (op->code != CT_OP_TT_FUNC)
            continue;
        if (!first)
            first = op;
        const ct_attr *v = ct_op_attr(op, "sym_visibility");
        if (!v || !v->s || strcmp(v->s, "private"))
            return op;
    }
    return first;
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
    k->params = aux(C, sizeof(ct_emu_param) * (size_t)(entry->nargs + 1));
    k->pslots = aux(C, sizeof(emu_param_slot) * (size_t)(entry->nargs + 1));
    const ct_attr *aattrs = ct_op_attr(f, "arg_attrs");
    for (int i = 0; i < entry->nargs; i++) {
        const ct_value *a = entry->args[i];
        ct_emu_param *p = &k->params[i];
        const char *nm = ct_loc_name_of(a->loc);
        char buf[32];
        snprintf(buf, sizeof buf, "arg%d", i);
        p->name = ct_arena_strdup(C->A, nm ? nm : buf);
        const ct_type *t = a->type;
        int ek = ek_of(t);
        if (t->kind == CT_TY_TENSOR || ek < 0 || ek == EK_BPTR) {
            char tb[128];
            ct_type_str(t, tb, sizeof tb);
            cerr(C, f, "kernel parameter %s has unsupported type %s", p->name, tb);
            return false;
        }
        if (ek == EK_PTR) {
            p->kind = CT_EMU_PARAM_PTR;
            p->bits = 64;
            int pe = ek_of(t->elem);
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
        int v = new_val(C, f, t);
        bind(C, a, v);
        k->pslots[i].off = OFF(v);
        k->pslots[i].ek = (emu_ek)ek;
    }
    return true;
}

ct_emu_kernel *ct_emu_compile(const ct_module *m, const char *func, ct_diags *d)
{
    return ct_emu_compile_ex(m, func, NULL, d);
}

ct_emu_kernel *ct_emu_compile_ex(const ct_module *m, const char *func, const ct_emu_options *o,
                                 ct_diags *d)
{
    emu_numeric_init();
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
    const ct_op *f = find_kernel(m, func);
    if (!f || !f->nregions || !f->regions[0].first) {
        ct_diag_add(d, CT_ERROR, NULL, 0, 0, "emulator: no function `%s` in the module",
                    func ? func : "(public)");
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
    ct_pm_init(&C.blockpc);
    ct_pm_init(&C.blockargs);
    ct_ptrmap vmap;
    ct_pm_init(&vmap);
    C.vmap = &vmap;
    compute_liveness(&C);
    bool ok = setup_params(&C, f) && compile_blocks(&C, f, &f->regions[0]);
    if (ok)
        apply_layouts(&C, o);
    if (ok && C.nerr == 0) {
        /* a safety net: falling off the end of the code ends the program */
        emit(&C, emu_h_end, NULL);
        if (C.frame >= (1ull << 32)) {
            cerr(&C, f, "the kernel needs %zu bytes of scratch per program, above 4 GiB", C.frame);
        }
    }
    ok = ok && C.nerr == 0;
    if (ok) {
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
    }
    free(C.code);
    free(C.vals);
    free(C.locs);
    free(C.inits);
    free(C.patches);
    free(C.reds);
    ct_pm_free(&C.live);
    ct_pm_free(&C.uses);
    ct_pm_free(&C.blockpc);
    ct_pm_free(&C.blockargs);
    ct_pm_free(&vmap);
    if (d == &local)
        ct_diags_free(&local);
    if (!ok) {
        ct_arena_free(A);
        return NULL;
    }
    return k;
}

void ct_emu_kernel_free(ct_emu_kernel *k)
{
    if (k)
        ct_arena_free(k->arena);
}
