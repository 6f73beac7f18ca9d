/*
 * control.c - runtime control flow: for, while, if/else, the ternary and
 * return, as Python's CodeGenerator emits them.
 *
 * The C macros (TL_FOR, TL_WHILE, TL_IF, TL_IFEXP, TL_RETURN) run the C
 * body once, inside the region being built.  The variables a construct
 * carries are named by the macro; like Python, only those whose value the
 * body changes become iter_args / results (the others are dropped after
 * the body is built), in the order listed, which must be the order Python
 * first assigned them.  An `if` that contains a return is built with
 * unstructured control flow (cf.cond_br to blocks, joined by a block with
 * arguments), any other with scf.if, as Python decides.
 */
#include "lang.h"
#include "util/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* Moves every op of `src` to `dst`, before `before` (NULL: at the end). */
static void move_ops(ct_block *src, ct_block *dst, ct_op *before)
{
    for (ct_op *op = src->first; op;) {
        ct_op *next = op->next;
        ct_op_unlink(op);
        ct_block_insert_before(dst, before, op);
        op = next;
    }
}

/* Drops operand i of an op (the trailing operands shift down). */
static void drop_operand(ct_op *op, int i)
{
    memmove(&op->opnds[i], &op->opnds[i + 1], sizeof(ct_value *) * (size_t)(op->nopnds - i - 1));
    op->nopnds--;
}

/* Drops argument i of a block; its uses in `scope` become `repl`. */
static void drop_block_arg(ct_block *b, int i, ct_op *scope, ct_value *repl)
{
    ct_replace_uses(B->m, scope, b->args[i], repl);
    memmove(&b->args[i], &b->args[i + 1], sizeof(ct_value *) * (size_t)(b->nargs - i - 1));
    b->nargs--;
    for (int k = 0; k < b->nargs; k++)
        b->args[k]->index = k;
}

/* Drops result i of an op that has no uses yet. */
static void drop_result(ct_op *op, int i)
{
    for (int k = i; k < op->nres - 1; k++) {
        op->res[k] = op->res[k + 1];
        op->res[k].index = k;
    }
    op->nres--;
}

static bool type_check_carried(tl_tensor init, tl_tensor now, const char *what)
{
    if (!tl__is_ir(now) || now.kind != init.kind) {
        tl__err("a variable %s changed from a tensor to a constexpr", what);
        return false;
    }
    if (!tl_type_eq(init.type, now.type)) {
        char b1[96], b2[96];
        tl__err("Loop-carried variable has initial type %s but is re-assigned to %s in %s! "
                "Please make sure that the type stays consistent.",
                tl_type_name(init.type, b1, sizeof b1), tl_type_name(now.type, b2, sizeof b2), what);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* for                                                                 */
/* ------------------------------------------------------------------ */

/* The IR values all carried variables may hold together (a 3.8 block
 * pointer is several, flattened as Python flattens it). */
enum { MAXC = 4 * TL_MAX_ARGS };

typedef struct loop_state {
    ct_op *op;
    ct_block *body;
    ct_block *sblock;         /* insertion point around the loop */
    ct_op *sbefore;
    tl_tensor init[TL_MAX_ARGS];       /* values of the listed variables before the loop */
    int carried[TL_MAX_ARGS];          /* index of the first iter_arg of each variable, -1 if none */
    int cnt[TL_MAX_ARGS];              /* how many iter_args it has */
    int ncarried;
    ct_value *placeholder;    /* the ub.poison standing for the induction variable */
    const tl_type *iv_type;
    bool negative_step;
    ct_value *lb, *ub;
    bool failed;
    tl_src at;
} loop_state;

/* Records the listed variables and their IR values as the loop's inits:
 * ops[k], rts[k] for k < return value; false if some value is poison. */
static bool collect_carried(loop_state *s, int n, tl_tensor **vars, ct_value **ops,
                            const ct_type **rts, int *nc)
{
    *nc = 0;
    for (int i = 0; i < n; i++) {
        s->init[i] = *vars[i];
        s->carried[i] = -1;
        s->cnt[i] = 0;
        if (tl__is_poison(*vars[i]))
            return false;
        ct_value *hs[TL_AGG_MAX];
        int k = tl__flatten(*vars[i], hs);
        if (k == 0)
            continue;
        if (*nc + k > MAXC) {
            tl__err("too many loop-carried values (at most %d)", MAXC);
            return false;
        }
        s->carried[i] = *nc;
        s->cnt[i] = k;
        for (int j = 0; j < k; j++) {
            ops[*nc + j] = hs[j];
            rts[*nc + j] = hs[j]->type;
        }
        *nc += k;
    }
    return true;
}

/* Gives each carried variable its block arguments of `b` from `first` on. */
static void bind_carried(loop_state *s, int n, tl_tensor **vars, ct_block *b, int first)
{
    for (int i = 0; i < n; i++)
        if (s->carried[i] >= 0) {
            ct_value *hs[TL_AGG_MAX];
            for (int j = 0; j < s->cnt[i]; j++)
                hs[j] = b->args[first + s->carried[i] + j];
            *vars[i] = tl__unflatten(s->init[i], hs);
        } else {
            *vars[i] = s->init[i];
        }
}

/* The values the loop yields for the carried variables, into ys. */
static void yield_values(loop_state *s, tl__ctl *c, ct_block *args_of, int first, ct_value **ys)
{
    for (int i = 0; i < c->n; i++) {
        if (s->carried[i] < 0)
            continue;
        ct_value *hs[TL_AGG_MAX];
        int k = tl__is_ir(*c->vars[i]) && c->vars[i]->kind == s->init[i].kind
                    ? tl__flatten(*c->vars[i], hs)
                    : 0;
        for (int j = 0; j < s->cnt[i]; j++)
            ys[s->carried[i] + j] = k == s->cnt[i] ? hs[j] : args_of->args[first + s->carried[i] + j];
    }
}

/* The variables after the loop: its results. */
static void bind_results(loop_state *s, tl__ctl *c, bool ok)
{
    for (int i = 0; i < c->n; i++) {
        if (s->carried[i] < 0)
            continue;
        if (!ok) {
            *c->vars[i] = tl__poison();
            continue;
        }
        ct_value *hs[TL_AGG_MAX];
        for (int j = 0; j < s->cnt[i]; j++)
            hs[j] = &s->op->res[s->carried[i] + j];
        *c->vars[i] = tl__unflatten(s->init[i], hs);
    }
}

static loop_state *new_state(void)
{
    return ct_arena_alloc(B->m->arena, sizeof(loop_state));
}

static tl__ctl failed_ctl(void)
{
    tl__ctl c = {0};
    c.done = true;
    return c;
}

tl__ctl tl__for_begin(tl_range_t r, int n, tl_tensor **vars, tl_src at)
{
    if (!tl__active())
        return failed_ctl();
    tl__at(at);
    if (!tl__named(r.tl__unnamed, "tl_range", at))
        return failed_ctl();
    if (n > TL_MAX_ARGS) {
        tl__err("too many loop-carried variables (%d, at most %d)", n, TL_MAX_ARGS);
        return failed_ctl();
    }
    tl_tensor lb = r.start, ub = r.end, step = r.step;
    if (tl__any_poison(3, lb, ub, step))
        return failed_ctl();
    bool negative_step = false;
    if (step.kind == TL_K_INT && step.i < 0) {
        step.i = -step.i;
        negative_step = true;
        tl_tensor t = lb;
        lb = ub;
        ub = t;
    }
    lb = sem_to_tensor(lb);
    ub = sem_to_tensor(ub);
    step = sem_to_tensor(step);
    if (tl__any_poison(3, lb, ub, step))
        return failed_ctl();
    const tl_type *ld = tl__scalar(lb.type), *ud = tl__scalar(ub.type), *sd = tl__scalar(step.type);
    if (!tl__is_int(ld) || !tl__is_int(ud) || !tl__is_int(sd)) {
        tl__err("For loop bounds and step must all be ints, are (%s, %s, %s)",
                tl__scalar_name(ld->sc), tl__scalar_name(ud->sc), tl__scalar_name(sd->sc));
        return failed_ctl();
    }
    if (tl_numel(lb) != 1 || tl_numel(ub) != 1 || tl_numel(step) != 1) {
        tl__err("For loop bounds and step must be scalars");
        return failed_ctl();
    }
    const tl_type *iv = sem_integer_promote(sem_integer_promote(ld, ud), sd);
    const ct_type *ivt = tl__ir_type(iv);
    bool sgn = tl__is_signed(iv);
    ct_value *lbv = b_int_cast(lb.handle, ivt, sgn);
    ct_value *ubv = b_int_cast(ub.handle, ivt, sgn);
    ct_value *stv = b_int_cast(step.handle, ivt, sgn);
    loop_state *s = new_state();
    s->placeholder = b_poison(ivt);
    s->iv_type = iv;
    s->negative_step = negative_step;
    s->lb = lbv;
    s->ub = ubv;
    s->at = at;
    /* iter_args: the IR values of the listed variables */
    ct_value *ops[3 + MAXC];
    const ct_type *rts[MAXC];
    ops[0] = lbv;
    ops[1] = ubv;
    ops[2] = stv;
    int nc = 0;
    if (!collect_carried(s, n, vars, ops + 3, rts, &nc))
        return failed_ctl();
    s->ncarried = nc;
    tl__check_uses(3 + nc, ops); /* a carried value a previous construct did not carry out */
    ct_op *op = ct_op_new(B->m, CT_OP_SCF_FOR, 3 + nc, ops, nc, rts, 1, B->loc);
    ct_block_insert_before(B->block, B->before, op);
    if (r.num_stages >= 0)
        b_attr(op, "tt.num_stages", ct_attr_int(B->m, ct_type_int(B->m, 32), r.num_stages));
    if (r.loop_unroll_factor >= 0)
        b_attr(op, "tt.loop_unroll_factor",
               ct_attr_int(B->m, ct_type_int(B->m, 32), r.loop_unroll_factor));
    if (r.disallow_acc_multi_buffer)
        b_attr(op, "tt.disallow_acc_multi_buffer", ct_attr_unit(B->m));
    if (r.flatten)
        b_attr(op, "tt.flatten", ct_attr_unit(B->m));
    if (r.warp_specialize)
        b_attr(op, "tt.warp_specialize", ct_attr_unit(B->m));
    if (r.disable_licm)
        b_attr(op, "llvm.loop_annotation",
               ct_attr_opaque(B->m, "#llvm.loop_annotation<licm = #llvm.loop_licm<disable = true>>"));
    ct_block *body = b_new_block_in(&op->regions[0]);
    ct_block_add_arg(B->m, body, ivt, B->loc);
    for (int k = 0; k < nc; k++)
        ct_block_add_arg(B->m, body, rts[k], B->loc);
    bind_carried(s, n, vars, body, 1);
    s->op = op;
    s->body = body;
    s->sblock = B->block;
    s->sbefore = B->before;
    if (nc == 0) /* ForOp::build adds the empty terminator itself */
        ct_block_append(body, ct_op_new(B->m, CT_OP_SCF_YIELD, 0, NULL, 0, NULL, 0, B->loc));
    tl__ctl c = {0};
    c.n = n;
    c.vars = vars;
    c.state = s;
    return c;
}

bool tl__for_enter(tl__ctl *c, tl_tensor *iv)
{
    loop_state *s = c->state;
    if (c->done || !s)
        return false;
    if (c->phase++ > 0)
        return false;
    *iv = tl__tensor(s->placeholder, s->iv_type);
    b_set_ip(s->body, s->ncarried == 0 ? s->body->last : NULL);
    B->loop_depth++;
    return true;
}

/* Common end of for/while: check and drop the unchanged carried variables.
 * `region_op` is the loop; `yblock` holds the yield; the before-block of a
 * while is `cblock` (NULL for for).  Returns false on a type error. */
static bool finish_carried(loop_state *s, tl__ctl *c, ct_op *yield, ct_block *arg_block,
                           int arg_base, ct_block *cblock, ct_op *cond_op, int cond_base)
{
    bool ok = true;
    int ob = s->op->code == CT_OP_SCF_FOR ? 3 : 0;
    /* walk from the last so indices stay valid while dropping */
    for (int i = c->n - 1; i >= 0; i--) {
        int k = s->carried[i];
        tl_tensor now = *c->vars[i];
        if (k < 0) {
            /* a constexpr (or None) in the list: Python cannot reassign it in a loop */
            bool changed = now.kind != s->init[i].kind || now.i != s->init[i].i ||
                           now.f != s->init[i].f || now.handle != s->init[i].handle;
            if (changed && !tl__is_poison(now)) {
                if (s->init[i].kind == TL_K_NONE)
                    tl__err("loop-carried variable #%d is not defined before the loop", i + 1);
                else
                    tl__err("cannot reassign constexpr variable #%d in the loop (a Python "
                            "assignment `x = <number>` makes a tensor: write tl_to_tensor)",
                            i + 1);
                ok = false;
            }
            *c->vars[i] = s->init[i];
            continue;
        }
        if (tl__is_poison(now)) {
            ok = false;
            continue;
        }
        if (!type_check_carried(s->init[i], now, "the loop")) {
            ok = false;
            continue;
        }
        ct_value *hs[TL_AGG_MAX];
        int cnt = s->cnt[i];
        tl__flatten(now, hs);
        /* Python carries a variable when any of its values changed (_find_carries
         * compares the flattened handles) */
        bool same = true;
        for (int j = 0; j < cnt; j++) {
            yield->opnds[k + j] = hs[j];
            same &= hs[j] == arg_block->args[arg_base + k + j];
        }
        if (!same)
            continue;
        for (int j = cnt - 1; j >= 0; j--) {
            ct_value *init = s->op->opnds[ob + k + j];
            drop_block_arg(arg_block, arg_base + k + j, s->op, init);
            if (cblock) {
                drop_block_arg(cblock, k + j, s->op, init);
                drop_operand(cond_op, cond_base + k + j);
            }
            drop_operand(yield, k + j);
            drop_operand(s->op, ob + k + j);
            drop_result(s->op, k + j);
        }
        for (int j = 0; j < c->n; j++)
            if (s->carried[j] > k)
                s->carried[j] -= cnt;
        s->carried[i] = -1;
        s->ncarried -= cnt;
        *c->vars[i] = s->init[i];
    }
    return ok;
}

void tl__for_end(tl__ctl *c)
{
    loop_state *s = c->state;
    c->done = true;
    if (!s)
        return;
    B->loop_depth--;
    tl__at(s->at); /* problems with the carried variables are reported at the loop */
    ct_op *op = s->op;
    ct_op *yield;
    if (s->ncarried > 0) {
        ct_value *ys[MAXC];
        yield_values(s, c, s->body, 1, ys);
        yield = ct_op_new(B->m, CT_OP_SCF_YIELD, s->ncarried, ys, 0, NULL, 0, B->loc);
        ct_block_append(s->body, yield);
    } else {
        yield = s->body->last;
    }
    bool ok = finish_carried(s, c, yield, s->body, 1, NULL, NULL, 0);
    /* the induction variable replaces its placeholder */
    b_set_ip(s->body, s->body->first);
    ct_value *iv = s->body->args[0];
    if (s->negative_step) {
        ct_value *o1[2] = {s->ub, iv};
        iv = b_op1(CT_OP_ARITH_SUBI, 2, o1, iv->type);
        ct_value *o2[2] = {iv, s->lb};
        iv = b_op1(CT_OP_ARITH_ADDI, 2, o2, iv->type);
    }
    ct_replace_uses(B->m, op, s->placeholder, iv);
    b_set_ip(s->sblock, s->sbefore);
    bind_results(s, c, ok);
}

/* ------------------------------------------------------------------ */
/* while                                                               */
/* ------------------------------------------------------------------ */

tl__ctl tl__while_begin(int n, tl_tensor **vars, tl_src at)
{
    if (!tl__active())
        return failed_ctl();
    tl__at(at);
    if (n > TL_MAX_ARGS) {
        tl__err("too many loop-carried variables (%d, at most %d)", n, TL_MAX_ARGS);
        return failed_ctl();
    }
    loop_state *s = new_state();
    s->at = at;
    ct_value *ops[MAXC];
    const ct_type *rts[MAXC];
    int nc = 0;
    if (!collect_carried(s, n, vars, ops, rts, &nc))
        return failed_ctl();
    s->ncarried = nc;
    tl__check_uses(nc, ops);
    ct_op *op = ct_op_new(B->m, CT_OP_SCF_WHILE, nc, ops, nc, rts, 2, B->loc);
    ct_block_insert_before(B->block, B->before, op);
    ct_block *before = b_new_block_in(&op->regions[0]);
    for (int k = 0; k < nc; k++)
        ct_block_add_arg(B->m, before, rts[k], B->loc);
    bind_carried(s, n, vars, before, 0);
    s->op = op;
    s->sblock = B->block;
    s->sbefore = B->before;
    b_set_ip(before, NULL);
    B->loop_depth++;
    tl__ctl c = {0};
    c.n = n;
    c.vars = vars;
    c.state = s;
    return c;
}

bool tl__while_cond(tl__ctl *c, tl_tensor cond)
{
    loop_state *s = c->state;
    if (c->done || !s || c->phase++ > 0)
        return false;
    ct_block *before = s->op->regions[0].first;
    if (!tl__is_poison(cond))
        cond = sem_to_tensor(cond);
    /* 3.9: visit_While casts a tensor condition .to(tl.int1) */
    if (TV->while_cond_to_int1 && !tl__is_poison(cond) && tl_numel(cond) == 1)
        cond = sem_cast(cond, tl_int1, NULL);
    if (tl__is_poison(cond) || tl_numel(cond) != 1 || !tl__is_bool(tl__scalar(cond.type))) {
        if (!tl__is_poison(cond))
            tl__err("the condition of a while loop must be a boolean scalar");
        s->failed = true;
        cond = tl__tensor(b_const_int(ct_type_int(B->m, 1), 0), tl_int1);
    }
    ct_value *ops[1 + MAXC];
    ops[0] = cond.handle;
    for (int i = 0; i < before->nargs; i++)
        ops[1 + i] = before->args[i];
    b_op(CT_OP_SCF_CONDITION, 1 + before->nargs, ops, 0, NULL);
    ct_block *after = b_new_block_in(&s->op->regions[1]);
    for (int k = 0; k < s->ncarried; k++)
        ct_block_add_arg(B->m, after, s->op->opnds[k]->type, B->loc);
    bind_carried(s, c->n, c->vars, after, 0);
    s->body = after;
    b_set_ip(after, NULL);
    return true;
}

void tl__while_end(tl__ctl *c)
{
    loop_state *s = c->state;
    c->done = true;
    if (!s)
        return;
    B->loop_depth--;
    tl__at(s->at);
    ct_value *ys[MAXC];
    yield_values(s, c, s->body, 0, ys);
    ct_op *yield = ct_op_new(B->m, CT_OP_SCF_YIELD, s->ncarried, ys, 0, NULL, 0, B->loc);
    ct_block_append(s->body, yield);
    ct_block *before = s->op->regions[0].first;
    ct_op *cond_op = before->last;
    bool ok = finish_carried(s, c, yield, s->body, 0, before, cond_op, 1) && !s->failed;
    b_set_ip(s->sblock, s->sbefore);
    bind_results(s, c, ok);
}

/* ------------------------------------------------------------------ */
/* if                                                                  */
/* ------------------------------------------------------------------ */

struct tl_ifstate {
    tl_ifstate *parent;
    bool is_static;           /* constexpr condition: a plain C if */
    bool static_taken;
    bool contains_return;
    bool failed;
    tl_tensor cond;
    ct_block *sblock;         /* where the if starts */
    ct_op *sbefore;
    ct_block *then_b, *else_b;
    ct_block *then_end, *else_end;
    tl_tensor live[TL_MAX_ARGS], then_v[TL_MAX_ARGS];
    tl_src at;
    /* blocks made under this if, in the order Python makes them */
    ct_block **blocks;
    int nblocks, cblocks;
};

static void add_block(tl_ifstate *s, ct_block *b)
{
    if (s->nblocks == s->cblocks) {
        int nc = s->cblocks ? s->cblocks * 2 : 8;
        ct_block **nb = ct_arena_alloc(B->m->arena, sizeof(*nb) * (size_t)nc);
        if (s->nblocks)
            memcpy(nb, s->blocks, sizeof(*nb) * (size_t)s->nblocks);
        s->blocks = nb;
        s->cblocks = nc;
    }
    s->blocks[s->nblocks++] = b;
}

/* A block for unstructured control flow, placed like Python's create_block. */
static ct_block *cf_block(void)
{
    ct_block *b = ct_block_new(B->m);
    if (B->ifs)
        add_block(B->ifs, b);
    else
        ct_region_append(&B->fn->func->regions[0], b);
    return b;
}

tl__ctl tl__if_begin(tl_tensor cond, int n, tl_tensor **vars, tl_src at)
{
    tl__ctl c = {0};
    c.n = n > TL_MAX_ARGS ? TL_MAX_ARGS : n; /* more is an error below */
    c.vars = vars;
    if (!tl__active()) {
        c.done = true;
        return c;
    }
    tl__at(at);
    tl_ifstate *s = ct_arena_alloc(B->m->arena, sizeof *s);
    c.state = s;
    if (n > TL_MAX_ARGS) {
        tl__err("too many variables assigned in an if (%d, at most %d)", n, TL_MAX_ARGS);
        s->failed = true;
    }
    if (tl__is_number(cond) || cond.kind == TL_K_NONE) {
        s->is_static = true;
        s->static_taken = cond.kind != TL_K_NONE && (cond.i != 0 || cond.f != 0.0 || cond.big);
        return c;
    }
    if (tl__is_poison(cond))
        s->failed = true;
    else if (tl_numel(cond) != 1) {
        tl__err("Boolean value of Tensor with more than one value is ambiguous");
        s->failed = true;
    } else {
        if (tl_rank(cond) > 0) {
            tl__warn("If conditional called with multidimensional Tensor instead of scalar; "
                     "please use tl_reshape(cond, tl_shape()) (Python: .item()) instead");
            cond = sem_unsplat(cond);
        }
        cond = sem_cast(cond, tl_int1, NULL);
    }
    s->cond = cond;
    s->at = at;
    for (int i = 0; i < n && i < TL_MAX_ARGS; i++)
        s->live[i] = *vars[i];
    s->sblock = B->block;
    s->sbefore = B->before;
    s->parent = B->ifs;
    B->ifs = s;
    s->then_b = ct_block_new(B->m);
    s->else_b = ct_block_new(B->m);
    add_block(s, s->then_b);
    add_block(s, s->else_b);
    return c;
}

static void if_finish(tl__ctl *c, tl_ifstate *s);

bool tl__if_step(tl__ctl *c)
{
    tl_ifstate *s = c->state;
    if (c->done || !s)
        return false;
    c->phase++;
    if (s->is_static) {
        /* phase 1 runs the then-branch, phase 2 the else-branch, each only if chosen */
        while (c->phase <= 2) {
            if ((c->phase == 1) == s->static_taken)
                return true;
            c->phase++;
        }
        c->done = true;
        return false;
    }
    switch (c->phase) {
    case 1:
        b_set_ip(s->then_b, NULL);
        return true;
    case 2:
        s->then_end = B->block;
        for (int i = 0; i < c->n; i++) {
            s->then_v[i] = *c->vars[i];
            *c->vars[i] = s->live[i];
        }
        b_set_ip(s->else_b, NULL);
        return true;
    default:
        s->else_end = B->block;
        B->ifs = s->parent;
        if_finish(c, s);
        c->done = true;
        return false;
    }
}

static void if_finish(tl__ctl *c, tl_ifstate *s)
{
    tl_tensor else_v[TL_MAX_ARGS];
    tl__at(s->at);
    int names[TL_MAX_ARGS], nn = 0;
    bool ok = !s->failed;
    for (int i = 0; i < c->n; i++) {
        else_v[i] = *c->vars[i];
        tl_tensor tv = s->then_v[i], ev = else_v[i], lv = s->live[i];
        bool tpo = tl__is_poison(tv), epo = tl__is_poison(ev);
        if (tpo || epo) {
            ok = false;
            continue;
        }
        if (tl__is_ir(lv)) {
            ct_value *th[TL_AGG_MAX], *eh[TL_AGG_MAX];
            int nt = tl__flatten(tv, th), ne = tl__flatten(ev, eh);
            bool same = tv.kind == ev.kind && nt == ne;
            for (int j = 0; same && j < nt; j++)
                same = th[j] == eh[j];
            if (same)
                continue;
            if (!type_check_carried(lv, tv, "the then block") ||
                !type_check_carried(lv, ev, "the else block")) {
                ok = false;
                continue;
            }
            names[nn++] = i;
        } else if (tl__is_ir(tv) && tv.kind == ev.kind) {
            /* defined in both branches: carried out */
            if (!tl_type_eq(tv.type, ev.type)) {
                char b1[96], b2[96];
                tl__err("Mismatched type between then block (%s) and else block (%s)",
                        tl_type_name(tv.type, b1, sizeof b1), tl_type_name(ev.type, b2, sizeof b2));
                ok = false;
                continue;
            }
            names[nn++] = i;
        } else if (tv.kind != lv.kind || ev.kind != lv.kind || tv.i != lv.i || ev.i != lv.i ||
                   tv.f != lv.f || ev.f != lv.f) {
            tl__err("variable #%d is given a value in only one branch of a runtime if, or is a "
                    "constexpr (assign a tensor before the if, e.g. tl_to_tensor(0))",
                    i + 1);
            ok = false;
        }
    }
    if (!ok) {
        b_set_ip(s->sblock, s->sbefore);
        if (s->contains_return && s->parent)
            s->parent->contains_return = true;
        for (int i = 0; i < c->n; i++)
            *c->vars[i] = tl__poison();
        return;
    }
    /* the values the if gives out: every IR value of each variable, flattened */
    enum { MAXV = 4 * TL_MAX_ARGS };
    const ct_type *rts[MAXV];
    ct_value *tv[MAXV], *ev[MAXV];
    int first[TL_MAX_ARGS], nv = 0;
    for (int k = 0; k < nn; k++) {
        int i = names[k];
        ct_value *th[TL_AGG_MAX], *eh[TL_AGG_MAX];
        int nt = tl__flatten(s->then_v[i], th);
        tl__flatten(else_v[i], eh);
        if (nv + nt > MAXV) {
            tl__err("too many values assigned in an if (at most %d)", MAXV);
            b_set_ip(s->sblock, s->sbefore);
            for (int j = 0; j < c->n; j++)
                *c->vars[j] = tl__poison();
            return;
        }
        first[k] = nv;
        for (int j = 0; j < nt; j++) {
            tv[nv] = th[j];
            ev[nv] = eh[j];
            rts[nv] = th[j]->type;
            nv++;
        }
    }
    if (s->contains_return) {
        /* unstructured: cond_br to then/else, both branch to the endif block */
        tl_ifstate *p = s->parent;
        ct_region *region = &B->fn->func->regions[0];
        ct_block *endif = ct_block_new(B->m);
        add_block(s, endif);
        b_set_ip(s->sblock, NULL);
        ct_op *br = b_op(CT_OP_CF_COND_BR, 1, &s->cond.handle, 0, NULL);
        ct_op_set_successors(B->m, br, 2, (ct_block *[]){s->then_b, s->else_b}, NULL);
        b_set_ip(s->then_end, NULL);
        ct_op *bt = b_op(CT_OP_CF_BR, nv, tv, 0, NULL);
        ct_op_set_successors(B->m, bt, 1, &endif, (int[]){nv});
        b_set_ip(s->else_end, NULL);
        ct_op *be = b_op(CT_OP_CF_BR, nv, ev, 0, NULL);
        ct_op_set_successors(B->m, be, 1, &endif, (int[]){nv});
        for (int k = 0; k < nv; k++)
            ct_block_add_arg(B->m, endif, rts[k], ct_loc_unknown(B->m));
        /* the blocks land in the region now, or in the enclosing if's list */
        for (int i = 0; i < s->nblocks; i++) {
            if (p)
                add_block(p, s->blocks[i]);
            else
                ct_region_append(region, s->blocks[i]);
        }
        if (p)
            p->contains_return = true;
        b_set_ip(endif, NULL);
        for (int k = 0; k < nn; k++) {
            int i = names[k];
            *c->vars[i] = tl__unflatten(s->then_v[i], endif->args + first[k]);
        }
        return;
    }
    /* structured: scf.if */
    b_set_ip(s->sblock, s->sbefore);
    ct_op *op = b_op(CT_OP_SCF_IF, 1, &s->cond.handle, nv, rts);
    op->regions = ct_arena_alloc(B->m->arena, sizeof(ct_region) * 2);
    op->nregions = 2;
    op->regions[0].parent = op->regions[1].parent = op;
    ct_block *tb = b_new_block_in(&op->regions[0]);
    ct_block *eb = b_new_block_in(&op->regions[1]);
    move_ops(s->then_b, tb, NULL);
    move_ops(s->else_b, eb, NULL);
    ct_block_append(tb, ct_op_new(B->m, CT_OP_SCF_YIELD, nv, tv, 0, NULL, 0, op->loc));
    ct_block_append(eb, ct_op_new(B->m, CT_OP_SCF_YIELD, nv, ev, 0, NULL, 0, op->loc));
    b_set_ip(s->sblock, s->sbefore);
    for (int k = 0; k < nn; k++) {
        int i = names[k];
        ct_value *hs[TL_AGG_MAX];
        for (int j = 0; j < TL_AGG_MAX && first[k] + j < nv; j++)
            hs[j] = &op->res[first[k] + j];
        *c->vars[i] = tl__unflatten(s->then_v[i], hs);
    }
}

/* ------------------------------------------------------------------ */
/* ternary                                                             */
/* ------------------------------------------------------------------ */

typedef struct ifexp_state {
    struct ifexp_state *parent;
    bool is_static, taken, failed;
    tl_tensor cond, then_v;
    ct_block *sblock, *then_b, *else_b;
    ct_op *sbefore;
} ifexp_state;

static _Thread_local ifexp_state *ifexps;

void *tl__ifexp_top(void)
{
    return ifexps;
}

void tl__ifexp_reset(void *top)
{
    ifexps = top;
}

tl_tensor tl__ifexp_begin(tl_tensor cond, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    ifexp_state *s = ct_arena_alloc(B->m->arena, sizeof *s);
    s->parent = ifexps;
    ifexps = s;
    s->sblock = B->block;
    s->sbefore = B->before;
    if (tl__is_number(cond)) {
        s->is_static = true;
        s->taken = cond.i != 0 || cond.f != 0.0 || cond.big;
    } else if (tl__is_poison(cond) || cond.kind == TL_K_NONE) {
        s->failed = true;
    } else {
        cond = sem_cast(cond, tl_int1, NULL);
        s->failed = tl__is_poison(cond);
    }
    s->cond = cond;
    s->then_b = ct_block_new(B->m);
    b_set_ip(s->then_b, NULL);
    return TL_NONE;
}

tl_tensor tl__ifexp_then(tl_tensor v)
{
    ifexp_state *s = ifexps;
    if (!s)
        return tl__poison();
    if (!s->is_static && !tl__is_poison(v))
        v = sem_to_tensor(v);
    s->then_v = v;
    s->else_b = ct_block_new(B->m);
    b_set_ip(s->else_b, NULL);
    return TL_NONE;
}

tl_tensor tl__ifexp_else(tl_tensor v)
{
    ifexp_state *s = ifexps;
    if (!s)
        return tl__poison();
    ifexps = s->parent;
    b_set_ip(s->sblock, s->sbefore);
    if (s->is_static) {
        /* only the chosen branch is kept, as Python visits only it */
        move_ops(s->taken ? s->then_b : s->else_b, s->sblock, s->sbefore);
        return s->taken ? s->then_v : v;
    }
    if (!tl__is_poison(v))
        v = sem_to_tensor(v);
    if (s->failed || tl__any_poison(2, s->then_v, v))
        return tl__poison();
    if (!tl_type_eq(s->then_v.type, v.type)) {
        char b1[96], b2[96];
        return tl__err("Ternary expression with dynamic condition has inconsistent types %s and %s",
                       tl_type_name(s->then_v.type, b1, sizeof b1),
                       tl_type_name(v.type, b2, sizeof b2));
    }
    const ct_type *rt = s->then_v.handle->type;
    ct_op *op = b_op(CT_OP_SCF_IF, 1, &s->cond.handle, 1, &rt);
    op->regions = ct_arena_alloc(B->m->arena, sizeof(ct_region) * 2);
    op->nregions = 2;
    op->regions[0].parent = op->regions[1].parent = op;
    ct_block *tb = b_new_block_in(&op->regions[0]);
    ct_block *eb = b_new_block_in(&op->regions[1]);
    move_ops(s->then_b, tb, NULL);
    move_ops(s->else_b, eb, NULL);
    ct_block_append(tb, ct_op_new(B->m, CT_OP_SCF_YIELD, 1, &s->then_v.handle, 0, NULL, 0, op->loc));
    ct_block_append(eb, ct_op_new(B->m, CT_OP_SCF_YIELD, 1, &v.handle, 0, NULL, 0, op->loc));
    return tl__tensor(&op->res[0], s->then_v.type);
}

/* ------------------------------------------------------------------ */
/* return                                                              */
/* ------------------------------------------------------------------ */

void tl__return(int n, const tl_tensor *vals, tl_src at)
{
    if (!tl__active())
        return;
    tl__at(at);
    tl_fn *fn = B->fn;
    if (B->loop_depth > 0) {
        tl__err("Cannot have `return` statements inside `while` or `for` statements in triton.");
        return;
    }
    if (n > TL_MAX_ARGS)
        n = TL_MAX_ARGS;
    if (TV->constexpr_returns && fn->parent) {
        /* 3.7: visit_Return records the value where it is returned; the type is
         * decided after the body (jit.c, handle_returns) */
        for (int i = 0; i < n; i++)
            if (tl__is_poison(vals[i]))
                return;
        tl_pending_ret *r = ct_arena_alloc(B->m->arena, sizeof *r);
        r->op = b_op(CT_OP_TT_RETURN, 0, NULL, 0, NULL);
        r->loc = B->loc;
        r->n = n;
        for (int i = 0; i < n; i++)
            r->vals[i] = vals[i];
        if (!fn->pending_tail)
            fn->pending_tail = &fn->pending;
        *fn->pending_tail = r;
        fn->pending_tail = &r->next;
        for (tl_ifstate *s = B->ifs; s; s = s->parent)
            s->contains_return = true;
        b_set_ip(cf_block(), NULL);
        return;
    }
    ct_value *hs[TL_MAX_ARGS];
    const tl_type *ts[TL_MAX_ARGS];
    for (int i = 0; i < n; i++) {
        tl_tensor v = sem_to_tensor(vals[i]);
        if (tl__is_poison(v))
            return;
        hs[i] = v.handle;
        ts[i] = v.type;
    }
    if (fn->parent == NULL && n > 0) {
        tl__err("a kernel cannot return a value");
        return;
    }
    if (fn->nrets < 0) {
        fn->nrets = n;
        for (int i = 0; i < n; i++)
            fn->ret_types[i] = ts[i];
    } else {
        bool same = fn->nrets == n;
        for (int i = 0; same && i < n; i++)
            same = tl_type_eq(fn->ret_types[i], ts[i]);
        if (!same) {
            tl__err("Inconsistent return types in a @jit function");
            return;
        }
    }
    for (tl_ifstate *s = B->ifs; s; s = s->parent)
        s->contains_return = true;
    b_op(CT_OP_TT_RETURN, n, hs, 0, NULL);
    /* a return ends its block: what follows goes to a fresh (dead) block */
    b_set_ip(cf_block(), NULL);
}

/* ------------------------------------------------------------------ */
/* uses outside a construct: a variable reassigned but not listed      */
/* ------------------------------------------------------------------ */

/* The open if (or ternary) whose branch block, not yet in a region, b is; NULL if none. */
static const tl_ifstate *open_if_of(const ct_block *b)
{
    for (const tl_ifstate *s = B->ifs; s; s = s->parent)
        for (int i = 0; i < s->nblocks; i++)
            if (s->blocks[i] == b)
                return s;
    return NULL;
}

static const ifexp_state *open_ifexp_of(const ct_block *b)
{
    for (const ifexp_state *s = ifexps; s; s = s->parent)
        if (s->then_b == b || s->else_b == b)
            return s;
    return NULL;
}

/* The block enclosing b: its region's op's block, or for a branch being built (not yet in a
 * region) the block its if starts in; NULL at the top, or for a block ctriton does not know. */
static const ct_block *outer_block(const ct_block *b)
{
    if (b->parent)
        return b->parent->parent ? b->parent->parent->parent : NULL;
    const tl_ifstate *s = open_if_of(b);
    if (s)
        return s->sblock;
    const ifexp_state *e = open_ifexp_of(b);
    return e ? e->sblock : NULL;
}

/* Whether the insertion point is inside region r (true too when its place is unknown). */
static bool ip_in_region(const ct_region *r)
{
    for (const ct_block *b = B->block; b; b = outer_block(b)) {
        if (b->parent == r)
            return true;
        if (b->parent && b->parent->parent && b->parent->parent->code == CT_OP_TT_FUNC)
            return false; /* the function's body, and r was not on the way */
        if (!b->parent && !open_if_of(b) && !open_ifexp_of(b))
            return true; /* somewhere ctriton did not make: do not judge */
    }
    return false;
}

/* Whether the insertion point is inside block d or a block nested in it. */
static bool ip_under(const ct_block *d)
{
    for (const ct_block *b = B->block; b; b = outer_block(b))
        if (b == d)
            return true;
    return false;
}

static int line_of_loc(const ct_loc *l)
{
    l = l ? ct_loc_file_of(l) : NULL;
    return l ? l->line : 0;
}

static const char *file_of_loc(const ct_loc *l)
{
    l = l ? ct_loc_file_of(l) : NULL;
    return l ? l->file : NULL;
}

/* The variable a statement of the kernel's source assigns: the name before the first `=`
 * (not `==`, `<=`, ...) outside parentheses of the statement that holds line `line` (a
 * statement of several lines has its builtins at any of them).  The file is read as the
 * location names it, else under $CTRITON_SOURCE_DIR; false when it cannot be read or the
 * statement assigns nothing. */
static bool assigned_name(const char *file, int line, char *out, size_t cap)
{
    if (!file || line <= 0 || cap < 2)
        return false;
    char *text = ct_read_file(file, NULL);
    const char *root = getenv("CTRITON_SOURCE_DIR");
    if (!text && file[0] != '/' && root && *root) {
        size_t n = strlen(root) + strlen(file) + 2;
        char *path = ct_raw_alloc(n);
        if (path) {
            snprintf(path, n, "%s/%s", root, file);
            text = ct_read_file(path, NULL);
            ct_raw_free(path);
        }
    }
    if (!text)
        return false;
    /* the start of the line, then back to the end of the previous statement */
    const char *p = text;
    for (int i = 1; i < line && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    bool ok = false;
    if (p && *p) {
        const char *s = p, *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        /* two statements on the line (`line_of = __LINE__; x = ...`): the last one */
        for (const char *c = p; c < eol; c++)
            if (*c == ';') {
                const char *r = c + 1;
                while (r < eol && (*r == ' ' || *r == '\t' || *r == '\r'))
                    r++;
                if (r < eol && !(r[0] == '/' && (r[1] == '*' || r[1] == '/')))
                    s = r;
            }
        /* a statement begun on an earlier line: back to the end of the previous one */
        for (int back = 0; back < 16 && s == p && s > text; back++) {
            const char *ls = s - 1; /* the '\n' ending the previous line */
            while (ls > text && ls[-1] != '\n')
                ls--;
            const char *e = s - 1;
            while (e > ls && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
                e--;
            if (e == ls || strchr(";{}", e[-1]) || (e - ls >= 2 && e[-1] == '/' && e[-2] == '*'))
                break;
            s = p = ls;
        }
        int depth = 0;
        for (const char *c = s; *c && *c != ';' && depth >= 0; c++) {
            if (*c == '(' || *c == '[')
                depth++;
            else if (*c == ')' || *c == ']')
                depth--;
            else if (*c == '=' && depth == 0 && c[1] != '=' && c > s &&
                     !strchr("=!<>+-*/%&|^", c[-1])) {
                const char *e = c;
                while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
                    e--;
                const char *b = e;
                while (b > s && (b[-1] == '_' || b[-1] == '.' || (b[-1] >= 'a' && b[-1] <= 'z') ||
                                 (b[-1] >= 'A' && b[-1] <= 'Z') || (b[-1] >= '0' && b[-1] <= '9')))
                    b--;
                size_t n = (size_t)(e - b);
                if (n > 0 && n < cap && !(*b >= '0' && *b <= '9')) {
                    memcpy(out, b, n);
                    out[n] = '\0';
                    ok = true;
                }
                break;
            }
        }
    }
    ct_raw_free(text);
    return ok;
}

static const char *construct_macro(const ct_op *o)
{
    return o->code == CT_OP_SCF_FOR ? "TL_FOR" : o->code == CT_OP_SCF_WHILE ? "TL_WHILE" : "TL_IF";
}

static void report_stale(const ct_value *v, const char *macro, int ctl_line, const char *where)
{
    for (int i = 0; i < B->nstale; i++)
        if (B->stale[i] == v)
            return; /* one message per variable */
    if (B->nstale < (int)(sizeof B->stale / sizeof B->stale[0]))
        B->stale[B->nstale++] = v;
    const ct_loc *dl = v->def ? v->def->loc : v->loc;
    int def_line = line_of_loc(dl);
    char name[64];
    if (assigned_name(file_of_loc(dl), def_line, name, sizeof name))
        tl__err("%s is reassigned inside %s but not listed as carried: list it in the %s at "
                "line %d (its value from line %d is used here, %s)",
                name, macro, macro, ctl_line, def_line, where);
    else
        tl__err("a variable is reassigned inside %s but not listed as carried: list it in the %s "
                "at line %d (its value from line %d is used here, %s)",
                macro, macro, ctl_line, def_line, where);
}

bool tl__check_uses(int n, ct_value *const *vals)
{
    if (!B || !B->block)
        return true;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        const ct_value *v = vals[i];
        if (!v)
            continue;
        const ct_block *b = v->def ? v->def->parent : v->owner;
        while (b) {
            if (!b->parent) {
                /* a branch being built: its values are not seen from the other branch */
                const tl_ifstate *s = open_if_of(b);
                if (s && !ip_under(b)) {
                    for (int k = 0; k < s->nblocks; k++)
                        if (s->blocks[k] != b && ip_under(s->blocks[k])) {
                            report_stale(v, "TL_IF", s->at.line, "in the other branch");
                            ok = false;
                            break;
                        }
                }
                break;
            }
            const ct_op *o = b->parent->parent;
            if (!o || o->code == CT_OP_TT_FUNC)
                break;
            if ((o->code == CT_OP_SCF_FOR || o->code == CT_OP_SCF_WHILE || o->code == CT_OP_SCF_IF) &&
                !ip_in_region(b->parent)) {
                report_stale(v, construct_macro(o), line_of_loc(o->loc),
                             o->code == CT_OP_SCF_IF ? "outside it" : "after the loop");
                ok = false;
                break;
            }
            b = o->parent;
        }
    }
    return ok;
}
