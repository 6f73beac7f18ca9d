/*
 * compile_flow.c - compiling what has regions or changes the flow:
 * tt.reduce/tt.scan (batched combine regions and their order model, from
 * Triton's default layout or the layouts given), tt.call (inlined),
 * scf.for/if/while, cf.br/cond_br and tt.return.
 */
#include "compile_internal.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>

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

/* The order model of a reduction over an operand in a #ttg.nvidia_mma layout
 * (a dot result; versionMajor 2: mma.sync, 3: wgmma), from Triton's linear
 * layout of it (nvidiaMmaTile, then the warps and repetitions): registers
 * [col 1], [row 8], [col 8, 16, .., n/2]; lanes [col 2, 4], [row 1, 2, 4];
 * warps [row 16, 32, ..] then [col n, 2n, ..] (the tile is 16 x n, n the
 * instruction's N, 8 for mma.sync); then registers repeating the warps' tile
 * along columns, then rows.  Only the bases along the axis matter: register r
 * of thread t = l + L * w sums the register bases of r's bits, the lane bases
 * of l's and the warp bases of w's; the lanes and warps fold in the order of
 * their bits (xor shuffles, then shared memory), as for blocked layouts.
 * `pa` is the MMA layout's dim of the axis (a slice's operand has the other
 * dim removed).  Returns false (the default is kept) when the tile's extent
 * along the axis exceeds the tensor's. */
static bool mma_order(cctx *C, emu_reduce_aux *x, const ct_emu_layout *l, int pa)
{
    int rank = l->base_rank ? l->base_rank : l->rank;
    if (rank != 2 || (l->mma_version != 2 && l->mma_version != 3))
        return false;
    /* only the axis's extent matters: the bases of the other dim (cut off when the
     * tensor is smaller, gone in a slice) hold other positions */
    int64_t S0 = x->len, S1 = x->len;
    int64_t n = l->mma_version == 3 ? l->instr_shape[1] : 8;
    int64_t w0 = l->warps_per_cta[0], w1 = l->warps_per_cta[1];
#define POW2(v) ((v) > 0 && ((v) & ((v)-1)) == 0)
    if (!POW2(x->len) || !POW2(n) || n < 8 || !POW2(w0) || !POW2(w1) ||
        (pa == 0 && S0 < 16 * w0) || (pa == 1 && S1 < n * w1))
        return false;
#undef POW2
    int64_t rb[32], lb[8], wb[8];
    int nr = 0, nl = 0, nw = 0;
    if (pa == 1) {
        rb[nr++] = 1;
        for (int64_t c = 8; c < n; c *= 2)
            rb[nr++] = c;
        for (int64_t c = n * w1; c < S1; c *= 2)
            rb[nr++] = c;
        lb[nl++] = 2;
        lb[nl++] = 4;
        for (int64_t c = n; c < n * w1; c *= 2)
            wb[nw++] = c;
    } else {
        rb[nr++] = 8;
        for (int64_t r = 16 * w0; r < S0; r *= 2)
            rb[nr++] = r;
        lb[nl++] = 1;
        lb[nl++] = 2;
        lb[nl++] = 4;
        for (int64_t r = 16; r < 16 * w0; r *= 2)
            wb[nw++] = r;
    }
    int L = 1 << nl, W = 1 << nw, R = 1 << nr;
    if ((int64_t)L * W * R != x->len)
        return false;
    int32_t *map = emu_cc_aux(C, sizeof(int32_t) * (size_t)x->len);
    for (int w = 0; w < W; w++)
        for (int ln = 0; ln < L; ln++)
            for (int r = 0; r < R; r++) {
                int64_t v = 0;
                for (int b = 0; b < nr; b++)
                    v += (r >> b & 1) * rb[b];
                for (int b = 0; b < nl; b++)
                    v += (ln >> b & 1) * lb[b];
                for (int b = 0; b < nw; b++)
                    v += (w >> b & 1) * wb[b];
                map[((int64_t)w * L + ln) * R + r] = (int32_t)v;
            }
    x->lanes = L;
    x->warps = W;
    x->nthr = L * W;
    x->nreg = R;
    x->spt = 1;
    x->regmap = map;
    return true;
}

/* Layouts that do not describe these reductions (Triton's passes restructured them: e.g.
 * optimize-thread-locality splits a sum accumulated in a loop into a per-thread accumulation
 * and one reduction after the loop) leave every reduction in the default order: a warning says
 * so, unless each one is an integer combine whose order cannot show (ASSOC). */
static void layouts_unused(cctx *C, const char *why, int n)
{
    for (int i = 0; i < C->nreds; i++)
        if (!C->reds[i]->assoc) {
            ct_diag_add(C->d, CT_WARNING, NULL, 0, 0,
                        "emulator: the given layouts (%d, from the TTGIR) do not describe the kernel's %d "
                        "reductions and scans (%s): they run in the default order, whose float results "
                        "may differ from the GPU's in the last bits",
                        n, C->nreds, why);
            return;
        }
}

/* the given layouts, when they describe these reductions exactly */
void emu_cc_apply_layouts(cctx *C, const ct_emu_options *o)
{
    if (!o || !o->layouts)
        return;
    if (o->nlayouts != C->nreds) {
        layouts_unused(C, "not as many", o->nlayouts);
        return;
    }
    for (int i = 0; i < C->nreds; i++) {
        const ct_emu_layout *l = &o->layouts[i];
        emu_reduce_aux *x = C->reds[i];
        if (l->rank < 1 || l->axis < 0 || l->axis >= l->rank) {
            layouts_unused(C, "an invalid axis", o->nlayouts);
            return;
        }
        int64_t len = 1, outer = 1, inner = 1;
        for (int d = 0; d < l->rank; d++) {
            if (d < l->axis)
                outer *= l->shape[d];
            else if (d > l->axis)
                inner *= l->shape[d];
            else
                len = l->shape[d];
        }
        if (len != x->len || outer != x->outer || inner != x->inner || l->is_scan != x->is_scan) {
            layouts_unused(C, "other shapes", o->nlayouts); /* not the same ops */
            return;
        }
    }
    for (int i = 0; i < C->nreds; i++) {
        const ct_emu_layout *l = &o->layouts[i];
        emu_reduce_aux *x = C->reds[i];
        int a = l->axis;
        if (l->base_rank) { /* a slice: the base layout's values along its dim of the axis */
            if (x->is_scan || l->base_rank > CT_MAX_RANK || l->base_dim[a] < 0 ||
                l->base_dim[a] >= l->base_rank)
                continue; /* Triton lowers scans of blocked layouts only */
            a = l->base_dim[a];
        }
        if (l->mma_version && !x->is_scan) {
            mma_order(C, x, l, a);
            continue;
        }
        if (!l->blocked)
            continue;
        set_order(x, x->len, l->size_per_thread[a], l->threads_per_warp[a], l->warps_per_cta[a]);
    }
}

/* is the region `b(x, y) = x + y` (directly or through a call)? */
static bool region_is_addf(cctx *C, const ct_region *r, int depth)
{
    const ct_block *b = r->first;
    /* a function body (depth > 0) may have blocks after its entry that nothing reaches (the
     * `^bb1: ub.poison; tt.return` Triton's code generator leaves): the entry ends in its return */
    if (!b || (b->next && depth == 0) || b->nargs != 2 || depth > 4)
        return false;
    const ct_op *o = b->first;
    if (!o || !o->next || !(ct_op_info_of(o->next->code)->flags & CT_OPF_TERM))
        return false;
    const ct_op *t = o->next;
    if (b->next && t->code != CT_OP_TT_RETURN)
        return false;
    if (t->nopnds != 1 || t->opnds[0] != &o->res[0] || o->nopnds != 2 ||
        o->opnds[0] != b->args[0] || o->opnds[1] != b->args[1])
        return false;
    if (o->code == CT_OP_ARITH_ADDF)
        return true;
    if (o->code == CT_OP_TT_CALL) {
        const ct_attr *ca = emu_cc_attr(o, "callee");
        const ct_op *f = ca ? ct_module_lookup_func(C->m, ca->s) : NULL;
        return f && f->nregions && region_is_addf(C, &f->regions[0], depth + 1);
    }
    return false;
}

/* The op of a combine region `b(x, y) = op(x, y)` (or op(y, x)), directly or through a
 * call, when op is ASSOC in the op table (one result whatever the order), else 0.  Ops of
 * the block that the returned value does not depend on must be pure and region-free (the
 * dead overflow checks Triton's sum combine carries). */
static int region_assoc(cctx *C, const ct_region *r, int depth)
{
    const ct_block *b = r->first;
    if (!b || (b->next && depth == 0) || b->nargs != 2 || depth > 4)
        return 0;
    const ct_op *t = b->last;
    if (!t || !(ct_op_info_of(t->code)->flags & CT_OPF_TERM) || t->nopnds != 1)
        return 0;
    if (b->next && t->code != CT_OP_TT_RETURN)
        return 0;
    const ct_op *o = t->opnds[0]->def;
    if (!o || o->parent != b || o->nopnds != 2 || o->nres != 1 || o->nregions)
        return 0;
    bool direct = o->opnds[0] == b->args[0] && o->opnds[1] == b->args[1];
    bool swapped = o->opnds[0] == b->args[1] && o->opnds[1] == b->args[0];
    if (!direct && !swapped)
        return 0;
    for (const ct_op *p = b->first; p && p != t; p = p->next) {
        unsigned f = ct_op_info_of(p->code)->flags;
        if (p != o && (!(f & CT_OPF_PURE) || p->nregions || p->code == CT_OP_TT_CALL))
            return 0;
    }
    const ct_type *ty = o->res[0].type;
    if (ty != b->args[0]->type || ty != b->args[1]->type)
        return 0;
    if (o->code == CT_OP_TT_CALL) {
        const ct_attr *ca = emu_cc_attr(o, "callee");
        const ct_op *f = ca && ca->s ? ct_module_lookup_func(C->m, ca->s) : NULL;
        return f && f->nregions ? region_assoc(C, &f->regions[0], depth + 1) : 0;
    }
    return ct_op_info_of(o->code)->flags & CT_OPF_ASSOC ? (int)o->code : 0;
}

static bool compile_region_batched(cctx *C, const ct_op *op, const ct_region *r, int k,
                                   int64_t width, emu_region *out)
{
    const ct_block *b = r->first;
    if (!b || b->next || b->nargs != 2 * k) {
        emu_cc_err(C, op, "combine region must have one block with %d arguments", 2 * k);
        return false;
    }
    int64_t saved = C->batch;
    C->batch = width;
    int jmp = emu_cc_emit(C, emu_h_jmp, NULL);
    INS(jmp)->n = 1;
    out->pc = C->ncode;
    out->nargs = 2 * k;
    out->width = width;
    out->arg_off = emu_cc_aux(C, sizeof(uint32_t) * (size_t)(2 * k));
    out->res_off = emu_cc_aux(C, sizeof(uint32_t) * (size_t)k);
    for (int i = 0; i < 2 * k; i++) {
        int v = emu_cc_new_val(C, op, b->args[i]->type);
        emu_cc_bind(C, b->args[i], v);
        out->arg_off[i] = OFF(v);
    }
    bool ok = emu_cc_block_ops(C, b, true);
    const ct_op *t = b->last;
    if (ok && t && (t->code == CT_OP_TT_REDUCE_RETURN || t->code == CT_OP_TT_SCAN_RETURN) &&
        t->nopnds == k) {
        for (int i = 0; i < k; i++)
            out->res_off[i] = OFF(emu_cc_val(C, t, t->opnds[i]));
    } else if (ok) {
        emu_cc_err(C, op, "combine region must end with a return of %d values", k);
        ok = false;
    }
    int ret = emu_cc_emit(C, emu_h_ret, t);
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

/* The mulf whose product a sum reduces, when LLVM sees both in one basic block (and so
 * contracts the thread's fold into fmas): in the reduce's block, or, through inlined calls
 * (tl.sum is a call to triton.language.standard.sum), in the block of the call whose
 * argument the operand is, the callee's ops before the reduce not splitting the block.
 * *map: the map of the function instance holding the mulf. */
static const ct_op *reduce_mul(cctx *C, const ct_op *op, ct_ptrmap **map)
{
    const ct_value *v = op->opnds[0];
    const ct_op *user = op;
    for (emu_callsite *cs = C->site; !v->def && cs && user->parent == cs->entry; cs = cs->up) {
        int idx = -1;
        for (int i = 0; i < cs->entry->nargs; i++)
            if (cs->entry->args[i] == v)
                idx = i;
        if (idx < 0 || idx >= cs->call->nopnds)
            return NULL;
        for (const ct_op *o = cs->entry->first; o && o != user; o = o->next)
            if (emu_cc_splits_block(o))
                return NULL;
        v = cs->call->opnds[idx];
        user = cs->call;
        *map = cs->vmap;
    }
    const ct_op *m = v->def;
    if (!m || m->code != CT_OP_ARITH_MULF || m->parent != user->parent || !emu_cc_is_live(C, m) ||
        m->res[0].type != op->opnds[0]->type)
        return NULL;
    for (const ct_op *o = m->next; o && o != user; o = o->next)
        if (emu_cc_splits_block(o))
            return NULL;
    return m;
}

bool emu_cc_reduce(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    int k = op->nopnds;
    if (k < 1 || op->nregions != 1 || op->nres != k) {
        emu_cc_err(C, op, "malformed reduce/scan");
        return false;
    }
    const ct_type *t = op->opnds[0]->type;
    if (t->kind != CT_TY_TENSOR) {
        emu_cc_err(C, op, "operand is not a tensor");
        return false;
    }
    int axis = (int)emu_cc_attr_int(op, "axis", 0);
    if (axis < 0 || axis >= t->rank) {
        emu_cc_err(C, op, "axis %d out of range", axis);
        return false;
    }
    emu_reduce_aux *x = emu_cc_aux(C, sizeof *x);
    x->k = k;
    x->in_off = emu_cc_aux(C, sizeof(uint32_t) * (size_t)k);
    x->out_off = emu_cc_aux(C, sizeof(uint32_t) * (size_t)k);
    x->acc_off = emu_cc_aux(C, sizeof(uint32_t) * (size_t)k);
    x->esize = emu_cc_aux(C, sizeof(size_t) * (size_t)k);
    x->ek = emu_cc_aux(C, sizeof(emu_ek) * (size_t)k);
    x->outer = 1;
    x->inner = 1;
    for (int i = 0; i < axis; i++)
        x->outer *= t->shape[i];
    for (int i = axis + 1; i < t->rank; i++)
        x->inner *= t->shape[i];
    x->len = t->shape[axis];
    x->reverse = op->code == CT_OP_TT_SCAN && emu_cc_attr_int(op, "reverse", 0);
    x->is_scan = op->code == CT_OP_TT_SCAN;
    order_model(C, x, t, axis);
    GROW(C->reds, C->nreds, C->creds);
    C->reds[C->nreds++] = x;
    int64_t numel = ct_type_numel(t);
    for (int j = 0; j < k; j++) {
        int in = emu_cc_val(C, op, op->opnds[j]);
        x->in_off[j] = OFF(in);
        x->ek[j] = C->vals[in].ek;
        x->esize[j] = emu_ek_size(x->ek[j]);
        x->acc_off[j] = (uint32_t)emu_cc_alloc_frame(C, (size_t)numel * x->esize[j]);
    }
    if (x->is_scan)
        x->idx_off = (uint32_t)emu_cc_alloc_frame(C, sizeof(int64_t) * 3 * (size_t)x->len);
    if (!compile_region_batched(C, op, &op->regions[0], k, numel, &x->region))
        return false;
    if (k == 1 && (x->ek[0] == EK_I1 || x->ek[0] == EK_I8 || x->ek[0] == EK_I16 ||
                   x->ek[0] == EK_I32 || x->ek[0] == EK_I64)) {
        int code = region_assoc(C, &op->regions[0], 0);
        /* on i1, signed min/max are not the unsigned ones the 0/1 storage gives */
        bool i1_ok = code == CT_OP_ARITH_ADDI || code == CT_OP_ARITH_MULI ||
                     code == CT_OP_ARITH_ANDI || code == CT_OP_ARITH_ORI ||
                     code == CT_OP_ARITH_XORI;
        if (code && (x->ek[0] != EK_I1 || i1_ok))
            x->assoc = code;
    }
    if (op->code == CT_OP_TT_REDUCE && k == 1 && (x->ek[0] == EK_F32 || x->ek[0] == EK_F64) &&
        region_is_addf(C, &op->regions[0], 0)) {
        ct_ptrmap *map = C->vmap;
        const ct_op *m = reduce_mul(C, op, &map);
        if (m) {
            ct_ptrmap *saved = C->vmap;
            C->vmap = map;
            x->fuse = true;
            x->fa = OFF(emu_cc_val(C, op, m->opnds[0]));
            x->fb = OFF(emu_cc_val(C, op, m->opnds[1]));
            C->vmap = saved;
        }
    }
    for (int j = 0; j < k; j++) {
        int d = emu_cc_new_val(C, op, op->res[j].type);
        x->out_off[j] = OFF(d);
        emu_cc_bind(C, &op->res[j], d);
    }
    int i = emu_cc_emit(C, op->code == CT_OP_TT_REDUCE ? emu_h_reduce : emu_h_scan, op);
    INS(i)->x.p = x;
    return true;
}

/* ---- calls and control flow ------------------------------------------------------------------------------------ */

bool emu_cc_call(cctx *C, const ct_op *op)
{
    const ct_attr *ca = emu_cc_attr(op, "callee");
    const ct_op *f = ca && ca->s ? ct_module_lookup_func(C->m, ca->s) : NULL;
    if (!f || !f->nregions || !f->regions[0].first) {
        emu_cc_err(C, op, "callee `%s` not found in the module", ca && ca->s ? ca->s : "?");
        return false;
    }
    if (C->depth > 32) {
        emu_cc_err(C, op, "calls nested deeper than 32 (recursion?)");
        return false;
    }
    const ct_block *entry = f->regions[0].first;
    if (entry->nargs != op->nopnds) {
        emu_cc_err(C, op, "callee `%s` takes %d arguments, %d given", ca->s, entry->nargs, op->nopnds);
        return false;
    }
    int args[64];
    if (op->nopnds > 64) {
        emu_cc_err(C, op, "too many call arguments");
        return false;
    }
    for (int i = 0; i < op->nopnds; i++)
        args[i] = emu_cc_val(C, op, op->opnds[i]);
    ct_ptrmap local, *saved_map = C->vmap;
    ct_pm_init(&local);
    C->vmap = &local;
    int saved_caller = C->caller_loc;
    C->caller_loc = emu_cc_op_loc(C, op);
    emu_callsite site = {op, entry, saved_map, C->site};
    C->site = &site;
    fnret *saved_ret = C->ret;
    bool saved_kernel = C->kernel_level;
    C->kernel_level = false;
    C->depth++;
    for (int i = 0; i < op->nopnds; i++)
        emu_cc_bind(C, entry->args[i], args[i]);
    bool ok;
    int results[64];
    int nres = op->nres;
    const ct_op *term = entry->last;
    if (nres > 64) {
        emu_cc_err(C, op, "too many call results");
        ok = false;
    } else if (term && term->code == CT_OP_TT_RETURN && term->nopnds == nres) {
        /* one block ending in its return: results alias the returned values */
        C->ret = NULL;
        ok = emu_cc_block_ops(C, entry, true);
        for (int i = 0; ok && i < nres; i++)
            results[i] = emu_cc_val(C, term, term->opnds[i]);
    } else {
        fnret fr = {0};
        fr.nres = nres;
        fr.res = results;
        for (int i = 0; i < nres; i++)
            results[i] = emu_cc_new_val(C, op, op->res[i].type);
        C->ret = &fr;
        ok = emu_cc_blocks(C, f, &f->regions[0]);
        for (int i = 0; i < fr.njumps; i++)
            INS(fr.jumps[i])->target = C->ncode;
        ct_xfree(fr.jumps);
    }
    C->depth--;
    C->ret = saved_ret;
    C->kernel_level = saved_kernel;
    C->caller_loc = saved_caller;
    C->site = site.up;
    C->vmap = saved_map;
    ct_pm_free(&local);
    for (int i = 0; ok && i < nres; i++)
        emu_cc_bind(C, &op->res[i], emu_cc_alias_val(C, results[i], op->res[i].type));
    return ok;
}

/* values of a terminator's operands as val indices */
int *emu_cc_opnd_vals(cctx *C, const ct_op *op, int from, int n)
{
    int *v = emu_cc_aux(C, sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        v[i] = emu_cc_val(C, op, op->opnds[from + i]);
    return v;
}

int *emu_cc_fresh_args(cctx *C, const ct_op *op, const ct_block *b, int from)
{
    int n = b->nargs - from;
    int *v = emu_cc_aux(C, sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        v[i] = emu_cc_new_val(C, op, b->args[from + i]->type);
        emu_cc_bind(C, b->args[from + i], v[i]);
    }
    return v;
}

/* A pointer tensor the loop carries and whose only change in the body is an in-place
 * addptr of a scalar (p = p + step, yielded) stays a tile of rows at a constant stride, or
 * stays no such tile, through the loop: the loads and stores through it check that once per
 * entry of the loop (a byte per access, zeroed by `reset` before the loop's head) instead of
 * scanning the pointers every iteration.  Nothing else writes the carried slot: the only op
 * that may overwrite a value in place is its last use (emu_cc_overwritable), here the addptr,
 * and the yield's copy into the slot is a copy onto itself.  Body: instructions [from, to). */
static void remember_tiles(cctx *C, const int *carried, const int *yv, int nc, int reset,
                           int from, int to)
{
    int *acc = NULL, nacc = 0, cacc = 0; /* the accesses through such tensors */
    for (int i = 0; i < nc; i++) {
        const val *pv = &C->vals[carried[i]];
        if (pv->ek != EK_PTR || pv->n < 2 || C->vals[yv[i]].off != pv->off)
            continue;
        int writers = 0;
        bool advanced = false;
        for (int j = from; j < to; j++) {
            const emu_ins *J = INS(j);
            if (J->d == pv->off) {
                writers++;
                advanced |= J->fn == emu_h_addptr_so && J->a == pv->off;
            }
        }
        if (writers != 1 || !advanced)
            continue;
        for (int j = from; j < to; j++)
            if ((INS(j)->fn == emu_h_load || INS(j)->fn == emu_h_store) && INS(j)->a == pv->off) {
                GROW(acc, nacc, cacc);
                acc[nacc++] = j;
            }
    }
    if (nacc) {
        size_t base = emu_cc_alloc_frame(C, (size_t)nacc);
        for (int k = 0; k < nacc; k++)
            ((emu_mem_aux *)INS(acc[k])->x.p)->tile_rec = (uint32_t)(base + (size_t)k) + 1;
        INS(reset)->fn = emu_h_zero;
        INS(reset)->d = (uint32_t)base;
        INS(reset)->x.i = nacc;
    }
    ct_xfree(acc);
}

bool emu_cc_for(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    const ct_block *b = op->nregions ? op->regions[0].first : NULL;
    int nc = op->nopnds - 3;
    if (!b || nc < 0 || b->nargs != nc + 1 || op->nres != nc) {
        emu_cc_err(C, op, "malformed scf.for");
        return false;
    }
    int lb = emu_cc_val(C, op, op->opnds[0]), ub = emu_cc_val(C, op, op->opnds[1]), st = emu_cc_val(C, op, op->opnds[2]);
    int iv = emu_cc_new_val(C, op, b->args[0]->type);
    emu_cc_bind(C, b->args[0], iv);
    int *carried = emu_cc_fresh_args(C, op, b, 1);
    int *inits = emu_cc_opnd_vals(C, op, 3, nc);
    emu_cc_pcopy(C, op, 1, &iv, &lb);
    emu_cc_pcopy(C, op, nc, carried, inits);
    emu_cc_hoist_splats(C, op, b);
    int reset = emu_cc_emit(C, emu_h_nop, op); /* becomes emu_h_zero, see below */
    int head = emu_cc_emit(C, emu_h_for_test, op);
    INS(head)->a = OFF(iv);
    INS(head)->b = OFF(ub);
    INS(head)->ek = (uint8_t)C->vals[iv].ek;
    INS(head)->flags = emu_cc_attr(op, "unsignedCmp") ? 1 : 0;
    if (!emu_cc_block_ops(C, b, true))
        return false;
    const ct_op *y = b->last;
    if (!y || y->code != CT_OP_SCF_YIELD || y->nopnds != nc) {
        emu_cc_err(C, op, "scf.for body must end with scf.yield of %d values", nc);
        return false;
    }
    int *yv = emu_cc_opnd_vals(C, y, 0, nc);
    emu_cc_pcopy(C, y, nc, carried, yv);
    remember_tiles(C, carried, yv, nc, reset, head + 1, C->ncode);
    int step = emu_cc_emit(C, emu_h_for_step, op);
    INS(step)->a = OFF(iv);
    INS(step)->b = OFF(st);
    INS(step)->ek = (uint8_t)C->vals[iv].ek;
    INS(step)->target = head;
    INS(head)->target = C->ncode;
    for (int i = 0; i < nc; i++)
        emu_cc_bind(C, &op->res[i], carried[i]);
    return true;
}

/* an 8-byte integer constant of the frame (written once per thread) */
static uint32_t const_i64(cctx *C, int64_t v)
{
    uint32_t off = (uint32_t)emu_cc_alloc_frame(C, 8);
    int64_t *data = emu_cc_aux(C, 8);
    *data = v;
    emu_cc_add_init(C, off, data, 8);
    return off;
}

/* tt.map_elementwise: the region once per group of `pack` elements, in element order, as a
 * function body whose tt.map_elementwise.return is its return:
 *
 *   i = 0
 *   head: if !(i < n) goto out
 *         args[j * pack + p] = input_j[i + p]     (emu_h_elem_get)
 *         <the region's blocks>; each return copies into rets and jumps to `set`
 *   set:  result_k[i + p] = rets[k * pack + p]    (emu_h_elem_set)
 *         i += pack; goto head
 *   out:
 *
 * Inputs and results have one shape (the frontend broadcast them). */
bool emu_cc_map_elementwise(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    const ct_block *entry = op->nregions ? op->regions[0].first : NULL;
    int64_t pack = emu_cc_attr_int(op, "pack", 1);
    int nin = op->nopnds, nres = op->nres;
    if (!entry || nin < 1 || nres < 1 || pack < 1 || pack > 64 || nres * pack > 256) {
        emu_cc_err(C, op, "no body, operands, results or a pack in 1..64");
        return false;
    }
    if (entry->nargs != nin * pack) {
        emu_cc_err(C, op, "the body takes %d arguments; %d operands with pack %lld need %lld",
                   entry->nargs, nin, (long long)pack, (long long)(nin * pack));
        return false;
    }
    int *in = emu_cc_opnd_vals(C, op, 0, nin);
    int *res = emu_cc_aux(C, sizeof(int) * (size_t)nres);
    int64_t n = C->vals[in[0]].n;
    for (int k = 0; k < nres; k++)
        res[k] = emu_cc_new_val(C, op, op->res[k].type);
    for (int j = 0; j < nin; j++)
        if (C->vals[in[j]].n != n) {
            emu_cc_err(C, op, "tt.map_elementwise operands of different shapes");
            return false;
        }
    for (int k = 0; k < nres; k++)
        if (C->vals[res[k]].n != n) {
            emu_cc_err(C, op, "tt.map_elementwise results of another shape than the operands");
            return false;
        }
    if (n < 1 || n % pack) {
        emu_cc_err(C, op, "tt.map_elementwise: %lld elements are not a multiple of pack %lld",
                   (long long)n, (long long)pack);
        return false;
    }
    /* the region's arguments and returned values: scalars of the element types */
    int *args = emu_cc_fresh_args(C, op, entry, 0);
    for (int a = 0; a < entry->nargs; a++)
        if (C->vals[args[a]].n != 1 ||
            C->vals[args[a]].ek != C->vals[in[a / pack]].ek) {
            emu_cc_err(C, op, "tt.map_elementwise: argument %d does not match its operand", a);
            return false;
        }
    int nr = (int)(nres * pack);
    int *rets = emu_cc_aux(C, sizeof(int) * (size_t)nr);
    for (int r = 0; r < nr; r++)
        rets[r] = emu_cc_new_val(C, op, ct_type_scalar(op->res[r / pack].type));
    uint32_t iv = (uint32_t)emu_cc_alloc_frame(C, 8);
    uint32_t ub = const_i64(C, n), st = const_i64(C, pack);
    int z = emu_cc_emit(C, emu_h_zero, op);
    INS(z)->d = iv;
    INS(z)->x.i = 8;
    int head = emu_cc_emit(C, emu_h_for_test, op);
    INS(head)->a = iv;
    INS(head)->b = ub;
    INS(head)->ek = EK_I64;
    for (int a = 0; a < entry->nargs; a++) {
        int g = emu_cc_emit(C, emu_h_elem_get, op);
        INS(g)->d = OFF(args[a]);
        INS(g)->a = OFF(in[a / pack]);
        INS(g)->b = iv;
        INS(g)->x.i = a % pack;
        INS(g)->y.i = (int64_t)emu_ek_size(C->vals[args[a]].ek);
    }
    /* the body, its returns as a callee's */
    fnret fr = {0};
    fr.nres = nr;
    fr.res = rets;
    fnret *saved_ret = C->ret;
    bool saved_kernel = C->kernel_level;
    C->ret = &fr;
    C->kernel_level = false;
    bool ok = emu_cc_blocks(C, op, &op->regions[0]);
    C->ret = saved_ret;
    C->kernel_level = saved_kernel;
    for (int i = 0; i < fr.njumps; i++)
        INS(fr.jumps[i])->target = C->ncode;
    ct_xfree(fr.jumps);
    if (!ok)
        return false;
    for (int r = 0; r < nr; r++) {
        int k = (int)(r / pack);
        if (C->vals[rets[r]].ek != C->vals[res[k]].ek) {
            emu_cc_err(C, op, "tt.map_elementwise: returned value %d does not match result %d", r, k);
            return false;
        }
        int e = emu_cc_emit(C, emu_h_elem_set, op);
        INS(e)->d = OFF(res[k]);
        INS(e)->a = OFF(rets[r]);
        INS(e)->b = iv;
        INS(e)->x.i = r % pack;
        INS(e)->y.i = (int64_t)emu_ek_size(C->vals[res[k]].ek);
    }
    int step = emu_cc_emit(C, emu_h_for_step, op);
    INS(step)->a = iv;
    INS(step)->b = st;
    INS(step)->ek = EK_I64;
    INS(step)->target = head;
    INS(head)->target = C->ncode;
    for (int k = 0; k < nres; k++)
        emu_cc_bind(C, &op->res[k], res[k]);
    return true;
}

bool emu_cc_if(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    if (op->nopnds != 1 || op->nregions < 1) {
        emu_cc_err(C, op, "malformed scf.if");
        return false;
    }
    int cond = emu_cc_val(C, op, op->opnds[0]);
    int nr = op->nres;
    int *res = emu_cc_aux(C, sizeof(int) * (size_t)(nr ? nr : 1));
    for (int i = 0; i < nr; i++)
        res[i] = emu_cc_new_val(C, op, op->res[i].type);
    int br = emu_cc_emit(C, emu_h_brz, op);
    INS(br)->a = OFF(cond);
    int jend = -1;
    for (int r = 0; r < 2; r++) {
        const ct_block *b = r < op->nregions ? op->regions[r].first : NULL;
        if (r == 1)
            INS(br)->target = C->ncode;
        if (!b) {
            if (nr) {
                emu_cc_err(C, op, "scf.if with results needs an else region");
                return false;
            }
            continue;
        }
        if (!emu_cc_block_ops(C, b, true))
            return false;
        const ct_op *y = b->last;
        if (!y || y->code != CT_OP_SCF_YIELD || y->nopnds != nr) {
            emu_cc_err(C, op, "scf.if region must end with scf.yield of %d values", nr);
            return false;
        }
        emu_cc_pcopy(C, y, nr, res, emu_cc_opnd_vals(C, y, 0, nr));
        if (r == 0) {
            jend = emu_cc_emit(C, emu_h_jmp, op);
            INS(jend)->n = 1;
        }
    }
    if (jend >= 0)
        INS(jend)->target = C->ncode;
    for (int i = 0; i < nr; i++)
        emu_cc_bind(C, &op->res[i], res[i]);
    return true;
}

/* scf.execute_region: its block runs once, in place; the scf.yield gives the results */
bool emu_cc_execute_region(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    const ct_block *b = op->nregions ? op->regions[0].first : NULL;
    if (!b || b->next || b->nargs) {
        emu_cc_err(C, op, "scf.execute_region: the emulator runs a region of one block without "
                          "arguments (this one has %s)",
                   !b ? "no block" : b->nargs ? "block arguments" : "several blocks");
        return false;
    }
    int nr = op->nres;
    if (!emu_cc_block_ops(C, b, true))
        return false;
    const ct_op *y = b->last;
    if (!y || y->code != CT_OP_SCF_YIELD || y->nopnds != nr) {
        emu_cc_err(C, op, "scf.execute_region must end with scf.yield of %d values", nr);
        return false;
    }
    int *res = emu_cc_aux(C, sizeof(int) * (size_t)(nr ? nr : 1));
    for (int i = 0; i < nr; i++)
        res[i] = emu_cc_new_val(C, op, op->res[i].type);
    emu_cc_pcopy(C, y, nr, res, emu_cc_opnd_vals(C, y, 0, nr));
    for (int i = 0; i < nr; i++)
        emu_cc_bind(C, &op->res[i], res[i]);
    return true;
}

bool emu_cc_while(cctx *C, const ct_op *op)
{
    if (!emu_cc_no_batch(C, op))
        return false;
    const ct_block *before = op->nregions > 0 ? op->regions[0].first : NULL;
    const ct_block *after = op->nregions > 1 ? op->regions[1].first : NULL;
    if (!before || !after || before->nargs != op->nopnds) {
        emu_cc_err(C, op, "malformed scf.while");
        return false;
    }
    int *bargs = emu_cc_fresh_args(C, op, before, 0);
    emu_cc_pcopy(C, op, op->nopnds, bargs, emu_cc_opnd_vals(C, op, 0, op->nopnds));
    int head = C->ncode;
    if (!emu_cc_block_ops(C, before, true))
        return false;
    const ct_op *cnd = before->last;
    if (!cnd || cnd->code != CT_OP_SCF_CONDITION || ct_op_count(cnd, "args") != after->nargs ||
        after->nargs != op->nres) {
        emu_cc_err(C, op, "scf.while: the before region must end with scf.condition");
        return false;
    }
    int cond = emu_cc_val(C, cnd, cnd->opnds[0]);
    int *cvals = emu_cc_opnd_vals(C, cnd, 1, after->nargs);
    int br = emu_cc_emit(C, emu_h_brz, cnd);
    INS(br)->a = OFF(cond);
    int *aargs = emu_cc_fresh_args(C, op, after, 0);
    emu_cc_pcopy(C, cnd, after->nargs, aargs, cvals);
    if (!emu_cc_block_ops(C, after, true))
        return false;
    const ct_op *y = after->last;
    if (!y || y->code != CT_OP_SCF_YIELD || y->nopnds != op->nopnds) {
        emu_cc_err(C, op, "scf.while: the after region must end with scf.yield");
        return false;
    }
    emu_cc_pcopy(C, y, op->nopnds, bargs, emu_cc_opnd_vals(C, y, 0, op->nopnds));
    int j = emu_cc_emit(C, emu_h_back, y);
    INS(j)->n = 1;
    INS(j)->target = head;
    INS(br)->target = C->ncode;
    int *res = emu_cc_aux(C, sizeof(int) * (size_t)(op->nres ? op->nres : 1));
    for (int i = 0; i < op->nres; i++)
        res[i] = emu_cc_new_val(C, op, op->res[i].type);
    emu_cc_pcopy(C, cnd, op->nres, res, cvals);
    for (int i = 0; i < op->nres; i++)
        emu_cc_bind(C, &op->res[i], res[i]);
    return true;
}

/* a branch: copies into the target's block arguments, then a patched jump */
void emu_cc_branch(cctx *C, const ct_op *op, const ct_block *target, int from, int n)
{
    int *args = ct_pm_get(&C->blockargs, target);
    if (!args && target->nargs) {
        emu_cc_err(C, op, "branch to a block the emulator did not see");
        return;
    }
    if (n != target->nargs) {
        emu_cc_err(C, op, "branch passes %d values to a block of %d arguments", n, target->nargs);
        return;
    }
    emu_cc_pcopy(C, op, n, args, emu_cc_opnd_vals(C, op, from, n));
    int j = emu_cc_emit(C, emu_h_jmp, op);
    INS(j)->n = 1;
    GROW(C->patches, C->npatches, C->cpatches);
    C->patches[C->npatches++] = (patch){j, target};
}

bool emu_cc_return(cctx *C, const ct_op *op)
{
    if (C->kernel_level) {
        emu_cc_emit(C, emu_h_end, op);
        return true;
    }
    fnret *fr = C->ret;
    if (!fr || op->nopnds != fr->nres) {
        emu_cc_err(C, op, "return of %d values from a call expecting %d", op->nopnds,
             fr ? fr->nres : 0);
        return false;
    }
    emu_cc_pcopy(C, op, fr->nres, fr->res, emu_cc_opnd_vals(C, op, 0, fr->nres));
    int j = emu_cc_emit(C, emu_h_jmp, op);
    INS(j)->n = 1;
    GROW(fr->jumps, fr->njumps, fr->cjumps);
    fr->jumps[fr->njumps++] = j;
    return true;
}

