/*
 * normalize.c - the canonical form two modules are compared in.
 *
 * Two modules that lower to the same code should print the same after
 * ct_normalize; two modules whose LLIR differs must not (soundness).  So
 * the normalizer only does what Triton's own ttir passes are certain to do
 * to every module, and nothing that could hide a difference:
 *
 *   1. inline every tt.call to a function of the module whose body is one
 *      block ending in tt.return, unless the callee is `noinline = true`
 *      (Triton's inliner keeps those calls, and so do we);
 *   2. drop the blocks no path from their region's entry reaches (the
 *      `^bb1:  // no predecessors` + ub.poison tails of Triton's functions);
 *   3. drop ops whose results are all unused and that have no effect: the
 *      op table's PURE ops, non-volatile tt.load and tt.descriptor_load
 *      (MLIR treats reads as removable), extern_elementwise and inline asm
 *      marked pure, and scf.for/if/while whose bodies hold only such ops;
 *      then the private functions no call refers to (symbol DCE);
 *   4. replace every location by `unknown`, so that values print numbered
 *      (%0, %cst, %c1_i32) instead of named after the source.
 *
 * It never reorders or merges anything: operands (even of commutative
 * ops), iter_args, results and ops keep their order, casts stay where they
 * are, types are untouched (an i32 offset made i64 stays different), a
 * load keeps its `other` operand, and constants are neither merged nor
 * hoisted.  Renaming private functions (CT_NORM_RENAME_SYMBOLS) is off by
 * default: the functions that survive normalization are noinline ones, and
 * their names are their LLVM symbols.
 *
 * What Triton's ttir passes do and this file deliberately does not model
 * (so `ctriton diff` of a raw `.source` against the `.ttir` of the same
 * kernel reports exactly these; the raw gate compares raw against raw, where
 * none of them applies):
 *   - constant CSE and hoisting (the ttir has one `%cst` per value, at the
 *     top of the function; the raw text has one per use, where used);
 *   - CSE of other pure ops (two identical `tt.splat %x` become one);
 *   - folding and canonicalization patterns: splat of a constant into a
 *     dense constant, `x + 0`, `x * 1`, cmpi of constants, broadcast/
 *     expand_dims/reshape of splats, addptr chains, select of constants;
 *   - scf canonicalizations: removal of unused or pass-through iter_args
 *     and results, loops of known trip count, if with constant condition;
 *   - loop-invariant code motion, loop unrolling (tt.loop_unroll_factor);
 *   - block merging and cf canonicalization after inlining;
 *   - rewriting of tensor pointers and descriptors (rewrite_tensor_pointer,
 *     rewrite_tensor_descriptor_to_pointer);
 *   - combine/reorder_broadcast patterns (dot + add into dot with an
 *     accumulator, broadcast moved after elementwise ops, ...).
 */
#include "ctriton/text.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "text_internal.h"
#include "util/util.h"

typedef struct norm {
    ct_module *m;
    unsigned flags;
    ct_diags *diags;
    bool ok;
    const ct_loc *unknown;
    ct_strset recursive; /* functions that can reach themselves through calls */
    ct_ptrmap repl;      /* call result -> the value that replaces it */
} norm;

static void warn(norm *N, const ct_op *op, const char *fmt, const char *arg)
{
    const ct_loc *l = ct_loc_file_of(op ? op->loc : NULL);
    ct_diag_add(N->diags, CT_WARNING, l ? l->file : NULL, l ? l->line : 0, l ? l->col : 0, fmt,
                arg);
}

/* ------------------------------------------------------------------ */
/* Unreachable blocks                                                  */
/* ------------------------------------------------------------------ */

static void drop_unreachable_in_op(norm *N, ct_op *op);

/* Keeps the blocks reachable from the entry through successors. */
static void drop_unreachable(norm *N, ct_region *r)
{
    if (r->first && r->first != r->last) {
        ct_ptrmap seen;
        ct_pm_init(&seen);
        int n = ct_region_nblocks(r);
        ct_block **stack = ct_raw_alloc(sizeof(*stack) * (size_t)n);
        int sp = 0;
        stack[sp++] = r->first;
        ct_pm_put(&seen, r->first, (void *)1);
        while (sp) {
            ct_block *b = stack[--sp];
            ct_op *t = b->last;
            for (int i = 0; t && i < t->nsucc; i++) {
                if (!ct_pm_has(&seen, t->succ[i]) && t->succ[i]->parent == r) {
                    ct_pm_put(&seen, t->succ[i], (void *)1);
                    stack[sp++] = t->succ[i];
                }
            }
        }
        for (ct_block *b = r->first; b;) {
            ct_block *next = b->next;
            if (!ct_pm_has(&seen, b))
                ct_block_unlink(b);
            b = next;
        }
        ct_raw_free(stack);
        ct_pm_free(&seen);
    }
    for (ct_block *b = r->first; b; b = b->next)
        for (ct_op *op = b->first; op; op = op->next)
            drop_unreachable_in_op(N, op);
}

static void drop_unreachable_in_op(norm *N, ct_op *op)
{
    for (int i = 0; i < op->nregions; i++)
        drop_unreachable(N, &op->regions[i]);
}

/* ------------------------------------------------------------------ */
/* Inlining                                                            */
/* ------------------------------------------------------------------ */

typedef struct cloner {
    norm *N;
    ct_ptrmap vmap; /* callee value -> caller value */
    ct_ptrmap bmap; /* callee block -> clone */
    const ct_loc *callsite;
} cloner;

static ct_value *map_value(cloner *C, ct_value *v)
{
    ct_value *m = ct_pm_get(&C->vmap, v);
    return m ? m : v;
}

static const ct_loc *map_loc(cloner *C, const ct_loc *l)
{
    if (!(C->N->flags & CT_NORM_KEEP_LOCS))
        return C->N->unknown;
    /* what MLIR's inliner does: callsite(callee location at call location) */
    return ct_loc_callsite(C->N->m, l ? l : C->N->unknown, C->callsite);
}

static ct_op *clone_op(cloner *C, const ct_op *op);

static void clone_region(cloner *C, const ct_region *from, ct_region *to)
{
    for (ct_block *b = from->first; b; b = b->next) {
        ct_block *nb = ct_block_new(C->N->m);
        ct_region_append(to, nb);
        ct_pm_put(&C->bmap, b, nb);
        for (int i = 0; i < b->nargs; i++) {
            ct_value *a = ct_block_add_arg(C->N->m, nb, b->args[i]->type, map_loc(C, b->args[i]->loc));
            ct_pm_put(&C->vmap, b->args[i], a);
        }
    }
    for (ct_block *b = from->first; b; b = b->next) {
        ct_block *nb = ct_pm_get(&C->bmap, b);
        for (ct_op *op = b->first; op; op = op->next)
            ct_block_append(nb, clone_op(C, op));
    }
}

static ct_op *clone_op(cloner *C, const ct_op *op)
{
    ct_module *m = C->N->m;
    ct_value *small_o[8];
    const ct_type *small_t[8];
    ct_value **opnds = op->nopnds <= 8 ? small_o : ct_raw_alloc(sizeof(*opnds) * (size_t)op->nopnds);
    const ct_type **rt = op->nres <= 8 ? small_t : ct_raw_alloc(sizeof(*rt) * (size_t)op->nres);
    for (int i = 0; i < op->nopnds; i++)
        opnds[i] = map_value(C, op->opnds[i]);
    for (int i = 0; i < op->nres; i++)
        rt[i] = op->res[i].type;
    ct_op *n = ct_op_new(m, op->code, op->nopnds, opnds, op->nres, rt, op->nregions,
                         map_loc(C, op->loc));
    if (opnds != small_o)
        ct_raw_free(opnds);
    if (rt != small_t)
        ct_raw_free(rt);
    /* attributes are immutable and live in this module: share them (the
     * array is already sorted by name) */
    if (op->nattrs) {
        n->attrs = ct_arena_alloc(m->arena, sizeof(ct_named_attr) * (size_t)op->nattrs);
        memcpy(n->attrs, op->attrs, sizeof(ct_named_attr) * (size_t)op->nattrs);
        n->nattrs = n->cattrs = op->nattrs;
    }
    for (int i = 0; i < op->nres; i++)
        ct_pm_put(&C->vmap, &op->res[i], &n->res[i]);
    for (int i = 0; i < op->nregions; i++)
        clone_region(C, &op->regions[i], &n->regions[i]);
    if (op->nsucc) {
        /* successors are blocks of the same region: cloned before their ops */
        ct_block *succ[2];
        for (int i = 0; i < op->nsucc && i < 2; i++) {
            ct_block *s = ct_pm_get(&C->bmap, op->succ[i]);
            succ[i] = s ? s : op->succ[i];
        }
        ct_op_set_successors(m, n, op->nsucc, succ, op->succ_nopnds);
    }
    return n;
}

static bool is_noinline(const ct_op *func)
{
    return ct_op_flag(func, "noinline");
}

/* Why a call cannot be inlined, or NULL if it can. */
static const char *not_inlinable(const ct_op *call, const ct_op *callee)
{
    if (!callee)
        return "callee %s is not a function of the module";
    if (is_noinline(callee))
        return "";
    const ct_block *e = ct_func_entry(callee);
    if (!e)
        return "callee %s has no body";
    if (e != callee->regions[0].last)
        return "callee %s has more than one reachable block";
    const ct_op *ret = e->last;
    if (!ret || ret->code != CT_OP_TT_RETURN)
        return "callee %s does not end with tt.return";
    if (e->nargs != call->nopnds || ret->nopnds != call->nres)
        return "call of %s does not match its signature";
    for (int i = 0; i < e->nargs; i++)
        if (!ct_type_equal(e->args[i]->type, call->opnds[i]->type))
            return "call of %s does not match its signature";
    for (int i = 0; i < call->nres; i++)
        if (!ct_type_equal(ret->opnds[i]->type, call->res[i].type))
            return "call of %s does not match its signature";
    return NULL;
}

/* Inlining stops after copying this many ops: a chain of functions each
 * calling the next twice grows exponentially.  (Recursive functions are
 * never inlined: see find_recursive.) */
#define INLINE_BUDGET 200000

/* Replaces `call` by a copy of the callee's body.  Returns the first copied
 * op (where scanning resumes, so calls in the copy are inlined in turn), or
 * NULL if nothing was copied. */
static ct_op *inline_call(norm *N, ct_op *call, long *budget)
{
    const char *name = ct_op_attr(call, "callee")->s;
    const ct_op *callee = ct_module_lookup_func(N->m, name);
    const char *why = not_inlinable(call, callee);
    if (why) {
        if (*why)
            warn(N, call, why, name);
        return NULL;
    }
    const ct_block *e = ct_func_entry(callee);
    long size = 0;
    for (const ct_op *op = e->first; op; op = op->next)
        size++;
    if (*budget < size) {
        if (*budget >= 0)
            warn(N, call, "inlining stopped at %s: recursive or too large", name);
        *budget = -1;
        return NULL;
    }
    *budget -= size;
    cloner C = {.N = N, .callsite = call->loc};
    ct_pm_init(&C.vmap);
    ct_pm_init(&C.bmap);
    if (ct_ss_has(&N->recursive, name)) {
        warn(N, call, "%s is recursive: not inlined", name);
        return NULL;
    }
    for (int i = 0; i < e->nargs; i++)
        ct_pm_put(&C.vmap, e->args[i], call->opnds[i]);
    /* copy from a snapshot: the callee may be the function being edited */
    const ct_op **body = ct_raw_alloc(sizeof(*body) * (size_t)size);
    long k = 0;
    for (const ct_op *op = e->first; op != e->last; op = op->next)
        body[k++] = op;
    ct_block *blk = call->parent;
    ct_op *first = NULL;
    for (long i = 0; i < k; i++) {
        ct_op *n = clone_op(&C, body[i]);
        ct_block_insert_before(blk, call, n);
        if (!first)
            first = n;
    }
    ct_raw_free(body);
    /* uses of the results are rewritten once, after all inlining (resolve) */
    const ct_op *ret = e->last;
    for (int i = 0; i < call->nres; i++)
        ct_pm_put(&N->repl, &call->res[i], map_value(&C, ret->opnds[i]));
    ct_op_unlink(call);
    ct_pm_free(&C.vmap);
    ct_pm_free(&C.bmap);
    return first;
}

/* The final replacement of a value: a call result may be replaced by the
 * result of another call that was inlined later. */
static ct_value *final_value(norm *N, ct_value *v)
{
    for (int guard = 0; guard < 1000000; guard++) {
        ct_value *r = ct_pm_get(&N->repl, v);
        if (!r || r == v)
            return v;
        v = r;
    }
    return v;
}

static bool resolve_uses(ct_op *op, void *ud)
{
    norm *N = ud;
    for (int i = 0; i < op->nopnds; i++)
        op->opnds[i] = final_value(N, op->opnds[i]);
    return true;
}

/* ------------------------------------------------------------------ */
/* The call graph                                                      */
/* ------------------------------------------------------------------ */

/* Functions of the module and, for each, the functions it calls (indexes;
 * calls of unknown symbols are left out). */
typedef struct cgraph {
    int n;
    ct_op **funcs;
    int *nedges, *cedges;
    int **edges;
    struct fname_ix {
        const char *name;
        int ix;
    } *byname; /* sorted by name */
} cgraph;

static int cmp_fname(const void *a, const void *b)
{
    return strcmp(((const struct fname_ix *)a)->name, ((const struct fname_ix *)b)->name);
}

static int cg_find(const cgraph *g, const char *name)
{
    struct fname_ix key = {name, 0};
    struct fname_ix *r = bsearch(&key, g->byname, (size_t)g->n, sizeof key, cmp_fname);
    return r ? r->ix : -1;
}

typedef struct cg_walk {
    cgraph *g;
    int from;
} cg_walk;

static bool cg_edges(ct_op *op, void *ud)
{
    cg_walk *w = ud;
    const ct_attr *c;
    if (op->code == CT_OP_TT_CALL && (c = ct_op_attr(op, "callee")) && c->kind == CT_ATTR_SYMREF) {
        int to = cg_find(w->g, c->s);
        if (to >= 0) {
            cgraph *g = w->g;
            int f = w->from;
            if (g->nedges[f] == g->cedges[f]) {
                g->cedges[f] = g->cedges[f] ? g->cedges[f] * 2 : 8;
                g->edges[f] = ct_raw_realloc(g->edges[f], sizeof(int) * (size_t)g->cedges[f]);
            }
            g->edges[f][g->nedges[f]++] = to;
        }
    }
    return true;
}

static void cg_build(cgraph *g, ct_module *m)
{
    memset(g, 0, sizeof *g);
    for (ct_op *f = m->body->first; f; f = f->next)
        g->n++;
    int n = g->n ? g->n : 1;
    g->funcs = ct_raw_calloc((size_t)n, sizeof(ct_op *));
    g->nedges = ct_raw_calloc((size_t)n, sizeof(int));
    g->cedges = ct_raw_calloc((size_t)n, sizeof(int));
    g->edges = ct_raw_calloc((size_t)n, sizeof(int *));
    g->byname = ct_raw_calloc((size_t)n, sizeof(*g->byname));
    int k = 0;
    for (ct_op *f = m->body->first; f; f = f->next, k++) {
        const char *name = f->code == CT_OP_TT_FUNC ? ct_func_name(f) : NULL;
        g->funcs[k] = f;
        g->byname[k].name = name ? name : "";
        g->byname[k].ix = k;
    }
    qsort(g->byname, (size_t)g->n, sizeof(*g->byname), cmp_fname);
    for (k = 0; k < g->n; k++) {
        cg_walk w = {g, k};
        ct_walk(g->funcs[k], cg_edges, &w);
    }
}

static void cg_free(cgraph *g)
{
    for (int i = 0; i < g->n; i++)
        ct_raw_free(g->edges[i]);
    ct_raw_free(g->edges);
    ct_raw_free(g->nedges);
    ct_raw_free(g->cedges);
    ct_raw_free(g->funcs);
    ct_raw_free(g->byname);
}

/* Marks in `seen` the functions reachable from f through calls (f itself
 * only if a call chain comes back to it). */
static void cg_reach(const cgraph *g, int f, char *seen, int *stack)
{
    int sp = 0;
    for (int e = 0; e < g->nedges[f]; e++)
        if (!seen[g->edges[f][e]]) {
            seen[g->edges[f][e]] = 1;
            stack[sp++] = g->edges[f][e];
        }
    while (sp) {
        int v = stack[--sp];
        for (int e = 0; e < g->nedges[v]; e++)
            if (!seen[g->edges[v][e]]) {
                seen[g->edges[v][e]] = 1;
                stack[sp++] = g->edges[v][e];
            }
    }
}

/* MLIR's inliner leaves calls inside a recursive cycle alone; so do we.
 * A function is recursive when a call chain from its body comes back to it. */
static void find_recursive(norm *N)
{
    cgraph g;
    cg_build(&g, N->m);
    char *seen = ct_raw_alloc((size_t)g.n + 1);
    int *stack = ct_raw_alloc(sizeof(int) * ((size_t)g.n + 1));
    for (int f = 0; f < g.n; f++) {
        memset(seen, 0, (size_t)g.n + 1);
        cg_reach(&g, f, seen, stack);
        const char *name = g.funcs[f]->code == CT_OP_TT_FUNC ? ct_func_name(g.funcs[f]) : NULL;
        if (seen[f] && name)
            ct_ss_add(&N->recursive, name);
    }
    ct_raw_free(seen);
    ct_raw_free(stack);
    cg_free(&g);
}

static void inline_region(norm *N, ct_region *r, long *budget)
{
    for (ct_block *b = r->first; b; b = b->next) {
        for (ct_op *op = b->first; op;) {
            ct_op *next = op->next;
            if (op->code == CT_OP_TT_CALL) {
                ct_op *first = inline_call(N, op, budget);
                if (first)
                    next = first;
            } else {
                for (int i = 0; i < op->nregions; i++)
                    inline_region(N, &op->regions[i], budget);
            }
            op = next;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Dead code                                                           */
/* ------------------------------------------------------------------ */

/* Would MLIR delete this op when its results are unused?  (Ops without
 * memory effects, reads included, and region ops whose bodies hold only
 * such ops: RecursiveMemoryEffects.) */
static bool removable(const ct_op *op)
{
    unsigned f = ct_op_info_of(op->code)->flags;
    if (f & CT_OPF_TERM)
        return false;
    if (f & CT_OPF_PURE)
        return true;
    switch (op->code) {
    case CT_OP_TT_LOAD:
        return !ct_op_flag(op, "isVolatile");
    case CT_OP_TT_DESCRIPTOR_LOAD:
        return true;
    case CT_OP_TT_EXTERN_ELEMENTWISE:
    case CT_OP_TT_INLINE_ASM:
        return ct_op_flag(op, "pure");
    case CT_OP_SCF_FOR:
    case CT_OP_SCF_IF:
    case CT_OP_SCF_WHILE:
    case CT_OP_TT_MAP_ELEMENTWISE:
        for (int i = 0; i < op->nregions; i++)
            for (const ct_block *b = op->regions[i].first; b; b = b->next)
                for (const ct_op *o = b->first; o; o = o->next)
                    if (!(ct_op_info_of(o->code)->flags & CT_OPF_TERM) && !removable(o))
                        return false;
        return true;
    default:
        return false;
    }
}

/* Use counts live in the values' scratch slot (ct_value.id). */
static bool count_uses(ct_op *op, void *ud)
{
    int delta = *(int *)ud;
    for (int i = 0; i < op->nopnds; i++)
        op->opnds[i]->id += delta;
    return true;
}

static bool zero_ids(ct_op *op, void *ud)
{
    (void)ud;
    for (int i = 0; i < op->nres; i++)
        op->res[i].id = 0;
    for (int r = 0; r < op->nregions; r++)
        for (ct_block *b = op->regions[r].first; b; b = b->next)
            for (int i = 0; i < b->nargs; i++)
                b->args[i]->id = 0;
    return true;
}

static bool dce_region(ct_region *r);

/* One backward sweep over a block; true if something was removed. */
static bool dce_block(ct_block *b)
{
    bool changed = false;
    for (ct_op *op = b->last; op;) {
        ct_op *prev = op->prev;
        for (int i = 0; i < op->nregions; i++)
            changed |= dce_region(&op->regions[i]);
        bool dead = removable(op);
        for (int i = 0; dead && i < op->nres; i++)
            dead = op->res[i].id == 0;
        if (dead) {
            int minus = -1;
            ct_walk(op, count_uses, &minus);
            ct_op_unlink(op);
            changed = true;
        }
        op = prev;
    }
    return changed;
}

static bool dce_region(ct_region *r)
{
    bool changed = false;
    for (ct_block *b = r->last; b; b = b->prev)
        changed |= dce_block(b);
    return changed;
}

static void dce_func(ct_op *func)
{
    ct_walk(func, zero_ids, NULL);
    /* values defined outside the function are never counted; none are used */
    int plus = 1;
    ct_walk(func, count_uses, &plus);
    while (func->nregions && dce_region(&func->regions[0])) {
    }
}

static bool is_private(const ct_op *func)
{
    const ct_attr *v = ct_op_attr(func, "sym_visibility");
    return v && v->kind == CT_ATTR_STR && !strcmp(v->s, "private");
}

/* Symbol DCE: the private functions no call chain from a public one reaches. */
static void drop_unused_functions(norm *N)
{
    cgraph g;
    cg_build(&g, N->m);
    char *live = ct_raw_calloc((size_t)g.n + 1, 1);
    int *stack = ct_raw_alloc(sizeof(int) * ((size_t)g.n + 1));
    for (int f = 0; f < g.n; f++) {
        if (g.funcs[f]->code != CT_OP_TT_FUNC || !is_private(g.funcs[f])) {
            live[f] = 1;
            cg_reach(&g, f, live, stack);
        }
    }
    for (int f = 0; f < g.n; f++)
        if (!live[f])
            ct_op_unlink(g.funcs[f]);
    ct_raw_free(live);
    ct_raw_free(stack);
    cg_free(&g);
}

/* ------------------------------------------------------------------ */
/* Locations and symbols                                               */
/* ------------------------------------------------------------------ */

static bool strip_locs(ct_op *op, void *ud)
{
    const ct_loc *u = ud;
    op->loc = u;
    for (int r = 0; r < op->nregions; r++)
        for (ct_block *b = op->regions[r].first; b; b = b->next)
            for (int i = 0; i < b->nargs; i++)
                b->args[i]->loc = u;
    return true;
}

typedef struct rename_ud {
    ct_module *m;
    const char *from, *to;
} rename_ud;

static bool rename_calls(ct_op *op, void *ud)
{
    rename_ud *r = ud;
    const ct_attr *c;
    if (op->code == CT_OP_TT_CALL && (c = ct_op_attr(op, "callee")) && !strcmp(c->s, r->from))
        ct_op_set_attr(r->m, op, "callee", ct_attr_symref(r->m, r->to));
    return true;
}

/* Private functions become f0, f1, ... in module order (unless taken). */
static void rename_symbols(norm *N)
{
    int k = 0;
    for (ct_op *f = N->m->body->first; f; f = f->next) {
        if (f->code != CT_OP_TT_FUNC || !is_private(f))
            continue;
        char want[32];
        do
            snprintf(want, sizeof want, "f%d", k++);
        while (ct_module_lookup_func(N->m, want));
        rename_ud r = {N->m, ct_func_name(f), want};
        ct_walk_module(N->m, rename_calls, &r);
        ct_op_set_attr(N->m, f, "sym_name", ct_attr_str(N->m, want));
    }
}

bool ct_normalize(ct_module *m, unsigned flags, ct_diags *diags)
{
    norm N = {.m = m, .flags = flags, .diags = diags, .ok = true};
    N.unknown = ct_loc_unknown(m);
    for (ct_op *f = m->body->first; f; f = f->next)
        drop_unreachable_in_op(&N, f);
    /* dead code goes before inlining too: what is dead in a callee is dead
     * in every copy of it, and the copies come out smaller */
    for (ct_op *f = m->body->first; f; f = f->next)
        dce_func(f);
    if (!(flags & CT_NORM_NO_INLINE)) {
        ct_ss_init(&N.recursive);
        ct_pm_init(&N.repl);
        find_recursive(&N);
        long budget = INLINE_BUDGET;
        for (ct_op *f = m->body->first; f; f = f->next)
            for (int i = 0; i < f->nregions; i++)
                inline_region(&N, &f->regions[i], &budget);
        ct_walk_module(m, resolve_uses, &N);
        ct_ss_free(&N.recursive);
        ct_pm_free(&N.repl);
    }
    for (ct_op *f = m->body->first; f; f = f->next)
        dce_func(f);
    drop_unused_functions(&N);
    if (!(flags & CT_NORM_KEEP_LOCS)) {
        m->loc = N.unknown;
        ct_walk_module(m, strip_locs, (void *)N.unknown);
    }
    if (flags & CT_NORM_RENAME_SYMBOLS)
        rename_symbols(&N);
    return N.ok;
}
