/*
 * jit.c - calls of @jit functions: a private tt.func per specialization and
 * a tt.call, exactly as Python's CodeGenerator.call_JitFunction does.
 *
 * The callee's name is mangled from its full name, the types of its tensor
 * arguments and the values of its constexpr arguments, as the target
 * release's mangle_fn does ("triton.language.standard.max__fp32S1024S__(1,)cconstexpr_0__..."
 * before 3.7, "triton.language.standard.max__fp32S1024S_c0_cFalse_cTrue_cFalse" from 3.7).  The
 * function is appended to the module before its body is built, so callees
 * made while building it come after it, in Python's order.  Its body ends
 * with `tt.return`, then a dead block returning poison, as the frontend
 * leaves it (the inliner removes both).
 */
#include "lang.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Result types of the jit functions built so far, by mangled name. */
/* Result types of the jit functions built so far, by mangled name; a
 * function whose body failed is remembered as failed, so its calls are
 * poison rather than void. */
typedef struct jit_rec {
    struct jit_rec *next;
    const char *name;
    int nrets;                 /* values the call gives */
    bool failed;
    const tl_type *rets[TL_MAX_ARGS];   /* the type of each, NULL for a constexpr (3.7) ... */
    tl_tensor cx[TL_MAX_ARGS];          /* ... which is this value, not a result of the call */
} jit_rec;

static jit_rec *find_rec(const char *name)
{
    for (jit_rec *r = B->jits; r; r = r->next)
        if (!strcmp(r->name, name))
            return r;
    return NULL;
}

static void mangle_constexpr(ct_strbuf *cs, const char *path, const char *repr)
{
    if (cs->len)
        ct_sb_putc(cs, '_');
    ct_sb_puts(cs, path);
    ct_sb_putc(cs, 'c');
    const char *run = repr, *c;
    for (c = repr; *c; c++) {
        if (*c != '.' && *c != '\'' && *c != '[' && *c != ']')
            continue;
        ct_sb_putn(cs, run, (size_t)(c - run));
        if (*c == '.')
            ct_sb_puts(cs, "_d_");
        else if (*c == '\'')
            ct_sb_puts(cs, "_sq_");
        else
            ct_sb_putc(cs, '_');
        run = c + 1;
    }
    ct_sb_putn(cs, run, (size_t)(c - run));
}

/* Triton's repr of a constexpr argument: constexpr[v] for numbers, dtypes
 * and strings; a parameter left to its default None is plain None. */
static void number_repr(tl_tensor x, ct_strbuf *out)
{
    if (x.kind == TL_K_NONE) {
        ct_sb_puts(out, "None");
        return;
    }
    ct_sb_puts(out, "constexpr[");
    tl__repr_number(x, out);
    ct_sb_puts(out, "]");
}

static const tl_jit_cx *cx_at(int ncx, const tl_jit_cx *cx, int i)
{
    for (int k = 0; k < ncx; k++)
        if (cx[k].pos == i)
            return &cx[k];
    return NULL;
}

/* 3.6's mangle_fn: name__<runtime types>__<i>c<repr of each constexpr>, the
 * constexprs by their path in the arguments ("(1,)", "(0, 1)" inside a tuple). */
static void mangle_v36(ct_strbuf *name, const char *fullname, int nargs, const tl_tensor *args,
                       int ncx, const tl_jit_cx *cx)
{
    ct_strbuf types, consts;
    ct_sb_init(&types);
    ct_sb_init(&consts);
    for (int i = 0; i < nargs; i++) {
        if (args[i].kind != TL_K_TENSOR)
            continue;
        if (types.len)
            ct_sb_putc(&types, '_');
        tl__mangle_type(args[i].type, &types);
    }
    for (int i = 0; i < nargs; i++) {
        if (args[i].kind == TL_K_TENSOR)
            continue;
        const tl_jit_cx *x = cx_at(ncx, cx, i);
        char path[32];
        if (x && x->is_shape) {
            /* a tuple constexpr: one entry per element, at path (i, j) */
            for (int j = 0; j < x->rank; j++) {
                char r[64];
                snprintf(path, sizeof path, "(%d, %d)", i, j);
                snprintf(r, sizeof r, "constexpr[%lld]", (long long)x->shape[j]);
                mangle_constexpr(&consts, path, r);
            }
            continue;
        }
        snprintf(path, sizeof path, "(%d,)", i);
        ct_strbuf r;
        ct_sb_init(&r);
        if (x && x->explicit_none)
            ct_sb_puts(&r, "constexpr[None]");
        else
            number_repr(args[i], &r);
        mangle_constexpr(&consts, path, r.s);
        ct_sb_free(&r);
    }
    ct_sb_puts(name, fullname);
    ct_sb_puts(name, "__");
    ct_sb_putn(name, types.s ? types.s : "", types.len);
    ct_sb_puts(name, "__");
    ct_sb_putn(name, consts.s ? consts.s : "", consts.len);
    ct_sb_free(&types);
    ct_sb_free(&consts);
}

/* Python's repr of a str: single quotes unless it holds one and no double quote */
static void py_str_repr(const char *s, ct_strbuf *out)
{
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    ct_sb_putc(out, q);
    for (const char *p = s; *p; p++) {
        if (*p == q || *p == '\\')
            ct_sb_putc(out, '\\');
        ct_sb_putc(out, *p);
    }
    ct_sb_putc(out, q);
}

/* 3.7's mangle_fn: name__ and every argument's type.mangle() in order, a
 * constexpr as constexpr_type.mangle(): "c" and value.mangle() or repr(value);
 * then ' -> _sq_, [ and ] -> _ ("f__fp32S64S_c2_fp32S64S", "zeros__Tc64_c64T_cfp32"). */
static void mangle_in_order(ct_strbuf *name, const char *fullname, int nargs,
                            const tl_tensor *args, int ncx, const tl_jit_cx *cx)
{
    ct_strbuf a;
    ct_sb_init(&a);
    for (int i = 0; i < nargs; i++) {
        if (i)
            ct_sb_putc(&a, '_');
        const tl_jit_cx *x = cx_at(ncx, cx, i);
        if (x && x->is_shape) {
            ct_sb_putc(&a, 'T');
            for (int j = 0; j < x->rank; j++)
                ct_sb_printf(&a, "%sc%lld", j ? "_" : "", (long long)x->shape[j]);
            ct_sb_putc(&a, 'T');
            continue;
        }
        switch (args[i].kind) {
        case TL_K_TENSOR:
            tl__mangle_type(args[i].type, &a);
            break;
        case TL_K_DTYPE:
            ct_sb_putc(&a, 'c');
            tl__mangle_type(args[i].type, &a);
            break;
        case TL_K_STR:
            ct_sb_putc(&a, 'c');
            if (args[i].s)
                py_str_repr(args[i].s, &a);
            else
                ct_sb_puts(&a, "None");
            break;
        case TL_K_NONE:
            ct_sb_puts(&a, "cNone");
            break;
        default:
            ct_sb_putc(&a, 'c');
            tl__repr_number(args[i], &a);
            break;
        }
    }
    ct_sb_puts(name, fullname);
    ct_sb_puts(name, "__");
    for (size_t i = 0; i < a.len; i++) {
        char c = a.s[i];
        if (c == '\'')
            ct_sb_puts(name, "_sq_");
        else
            ct_sb_putc(name, c == '[' || c == ']' ? '_' : c);
    }
    ct_sb_free(&a);
}

/* Python's `==` on two constexpr values (1 == 1.0 == True) */
static bool cx_equal(tl_tensor a, tl_tensor b)
{
    bool an = tl__is_number(a), bn = tl__is_number(b);
    if (an && bn) {
        if (a.kind == TL_K_FLOAT || b.kind == TL_K_FLOAT)
            return (a.kind == TL_K_FLOAT ? a.f : (double)a.i) ==
                   (b.kind == TL_K_FLOAT ? b.f : (double)b.i);
        return a.i == b.i && a.big == b.big;
    }
    if (a.kind != b.kind)
        return false;
    if (a.kind == TL_K_DTYPE)
        return tl_type_eq(a.type, b.type);
    if (a.kind == TL_K_STR)
        return a.s && b.s ? !strcmp(a.s, b.s) : a.s == b.s;
    return a.kind == TL_K_NONE;
}

static void type_words(tl_tensor v, ct_strbuf *out)
{
    char b[96];
    if (v.kind == TL_K_TENSOR) {
        ct_sb_puts(out, tl_type_name(v.type, b, sizeof b));
    } else {
        ct_sb_puts(out, "constexpr_type[");
        tl__repr_number(v, out);
        ct_sb_putc(out, ']');
    }
}

/* code_generator.handle_returns (3.7): the common type of every return,
 * position by position (decide_return_type: equal constexprs stay constexpr,
 * otherwise each constexpr takes to_tensor_type and must equal the tensors'
 * type), then each placeholder return becomes a tt.return of its values cast
 * to it (cast_to: scalar_constant at the return).  Returns the number of
 * values; `cx[i]` holds the constexpr of a constexpr position, `rt[i]` the
 * type otherwise; -1 after an error. */
static int handle_returns_at(tl_pending_ret *first, tl_tensor *cx, const tl_type **rt);

static int handle_returns(tl_fn *fn, tl_tensor *cx, const tl_type **rt)
{
    tl_pending_ret *first = fn->pending;
    if (!first)
        return 0;
    ct_block *sblock = B->block;
    ct_op *sbefore = B->before;
    const ct_loc *sloc = B->loc;
    int n = handle_returns_at(first, cx, rt);
    b_set_ip(sblock, sbefore);
    B->loc = sloc;
    return n;
}

static int handle_returns_at(tl_pending_ret *first, tl_tensor *cx, const tl_type **rt)
{
    int n = first->n;
    for (tl_pending_ret *r = first->next; r; r = r->next) {
        if (r->n != n) {
            b_set_ip(r->op->parent, r->op);
            B->loc = r->loc;
            if (r->n == 0 || n == 0)
                tl__err("cannot convert None of type <class 'NoneType'> to tensor (a @jit "
                        "function returns a value on one path and nothing on another)");
            else
                tl__err("Return type mismatch: a tuple of %d and a tuple of %d values", n, r->n);
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        tl_tensor c = first->vals[i];
        const tl_type *t = c.kind == TL_K_TENSOR ? c.type : NULL;
        for (tl_pending_ret *r = first->next; r; r = r->next) {
            tl_tensor v = r->vals[i];
            const tl_type *vt = v.kind == TL_K_TENSOR ? v.type : NULL;
            if (!t && !vt && cx_equal(c, v))
                continue;
            const tl_type *a = t ? t : sem_to_tensor_type(c);
            const tl_type *b = vt ? vt : sem_to_tensor_type(v);
            if (!a || !b || !tl_type_eq(a, b)) {
                ct_strbuf m;
                ct_sb_init(&m);
                ct_sb_puts(&m, "Return type mismatch: ");
                if (t) {
                    char tb[96];
                    ct_sb_puts(&m, tl_type_name(t, tb, sizeof tb));
                } else {
                    type_words(c, &m);
                }
                ct_sb_puts(&m, " and ");
                type_words(v, &m);
                b_set_ip(r->op->parent, r->op);
                B->loc = r->loc;
                tl__err("%s", m.s);
                ct_sb_free(&m);
                return -1;
            }
            t = a;
        }
        rt[i] = t;
        cx[i] = t ? TL_NONE : c;
    }
    for (tl_pending_ret *r = first; r; r = r->next) {
        b_set_ip(r->op->parent, r->op);
        B->loc = r->loc;
        ct_value *hs[TL_MAX_ARGS];
        int nh = 0;
        for (int i = 0; i < n; i++) {
            if (!rt[i])
                continue;
            tl_tensor v = r->vals[i];
            if (v.kind != TL_K_TENSOR)
                v = sem_scalar_constant(v, rt[i]);
            if (tl__is_poison(v))
                return -1;
            hs[nh++] = v.handle;
        }
        b_op(CT_OP_TT_RETURN, nh, hs, 0, NULL);
        ct_op_unlink(r->op);
    }
    return n;
}

int tl__jit(const char *fullname, int nargs, const char *const *argnames, const tl_tensor *args,
            int ncx, const tl_jit_cx *cx, tl__jit_body body, void *ud, tl_tensor *rets)
{
    tl_builder *b = B;
    for (int i = 0; i < nargs; i++) {
        if (tl__is_poison(args[i]))
            return -1;
        if (args[i].kind == TL_K_AGG) {
            tl__err("a block pointer cannot be passed to a @jit helper by ctriton under Triton %s "
                    "(its aggregate is not flattened into call arguments): inline the helper",
                    TV->name);
            return -1;
        }
    }
    ct_strbuf name;
    ct_sb_init(&name);
    if (TV->mangle_in_order)
        mangle_in_order(&name, fullname, nargs, args, ncx, cx);
    else
        mangle_v36(&name, fullname, nargs, args, ncx, cx);

    jit_rec *rec = find_rec(name.s);
    ct_op *func = ct_module_lookup_func(b->m, name.s);
    if (!func) {
        /* build the callee */
        const ct_type *ins[64];
        int nin = 0;
        for (int i = 0; i < nargs && nin < 64; i++)
            if (args[i].kind == TL_K_TENSOR)
                ins[nin++] = tl__ir_type(args[i].type);
        const ct_loc *floc = b->loc;
        func = ct_op_new(b->m, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1, floc);
        ct_op_set_attr_lit(b->m, func, "sym_name", ct_attr_str(b->m, name.s));
        ct_op_set_attr_lit(b->m, func, "sym_visibility", ct_attr_str(b->m, "private"));
        ct_op_set_attr_lit(b->m, func, "noinline", ct_attr_bool(b->m, false));
        ct_op_set_attr_lit(b->m, func, "function_type",
                       ct_attr_type(b->m, ct_type_func(b->m, nin, ins, 0, NULL)));
        ct_module_append_func(b->m, func);
        ct_block *entry = b_new_block_in(&func->regions[0]);
        tl_tensor bound[64];
        for (int i = 0, k = 0; i < nargs && i < 64; i++) {
            if (args[i].kind == TL_K_TENSOR) {
                const char *an = argnames && argnames[i] ? argnames[i] : NULL;
                const ct_loc *al = an ? ct_loc_name(b->m, an, floc) : floc;
                ct_value *a = ct_block_add_arg(b->m, entry, ins[k++], al);
                bound[i] = tl__tensor(a, args[i].type);
            } else {
                bound[i] = args[i];
            }
        }
        /* save the insertion state and build the body */
        ct_block *sblock = b->block;
        ct_op *sbefore = b->before;
        const ct_loc *sloc = b->loc;
        tl_src ssrc = b->loc_src;
        tl_ifstate *sifs = b->ifs;
        int sdepth = b->loop_depth;
        int errors_before = b->nerrors;
        tl_fn fn = {.parent = b->fn, .func = func, .nrets = -1};
        b->fn = &fn;
        b->ifs = NULL;
        b->loop_depth = 0;
        b_set_ip(entry, NULL);
        tl_tensor out[TL_MAX_ARGS] = {{0}};
        body(bound, out, ud);
        int n = 0;
        while (n < TL_MAX_ARGS && out[n].kind != TL_K_NONE)
            n++;
        /* the trailing `return` of the body: before 3.7 visit_Return decays
         * numbers to tensors there; from 3.7 handle_returns types all returns */
        tl_tensor dec[TL_MAX_ARGS];
        bool bad = b->nerrors > errors_before;
        for (int i = 0; i < n; i++) {
            dec[i] = TV->constexpr_returns ? out[i] : sem_to_tensor(out[i]);
            bad |= tl__is_poison(dec[i]);
        }
        if (!bad && n > 0)
            tl__return(n, dec, b->loc_src);
        const tl_type *allt[TL_MAX_ARGS] = {0}; /* each returned value's type, NULL: constexpr */
        tl_tensor allcx[TL_MAX_ARGS];
        int nall;
        if (TV->constexpr_returns) {
            nall = bad ? -1 : handle_returns(&fn, allcx, allt);
            bad |= nall < 0;
            if (nall < 0)
                nall = 0;
        } else {
            nall = fn.nrets < 0 ? 0 : fn.nrets;
            for (int i = 0; i < nall; i++)
                allt[i] = fn.ret_types[i];
        }
        /* finalize: void functions end with tt.return; others have the dead block */
        const tl_type *rt[TL_MAX_ARGS];
        int nr = 0;
        for (int i = 0; i < nall; i++)
            if (allt[i])
                rt[nr++] = allt[i];
        ct_block *last = b->block;
        if (nr == 0) {
            if (!ct_block_terminator(last))
                b_op(CT_OP_TT_RETURN, 0, NULL, 0, NULL);
        } else {
            ct_value *ps[TL_MAX_ARGS];
            for (int i = 0; i < nr; i++)
                ps[i] = b_poison(tl__ir_type(rt[i]));
            b_op(CT_OP_TT_RETURN, nr, ps, 0, NULL);
        }
        const ct_type *outs[TL_MAX_ARGS];
        for (int i = 0; i < nr; i++)
            outs[i] = tl__ir_type(rt[i]);
        ct_op_set_attr_lit(b->m, func, "function_type",
                       ct_attr_type(b->m, ct_type_func(b->m, nin, ins, nr, outs)));
        b->fn = fn.parent;
        b->ifs = sifs;
        b->loop_depth = sdepth;
        b_set_ip(sblock, sbefore);
        b->loc = sloc;
        b->loc_src = ssrc;
        rec = ct_arena_alloc(b->m->arena, sizeof *rec);
        rec->name = ct_arena_strdup(b->m->arena, name.s);
        rec->nrets = nall;
        for (int i = 0; i < nall; i++) {
            rec->rets[i] = allt[i];
            rec->cx[i] = allt[i] ? TL_NONE : allcx[i];
        }
        rec->failed = bad;
        rec->next = b->jits;
        b->jits = rec;
    }
    if (!rec || rec->failed) {
        ct_sb_free(&name);
        return -1;
    }
    /* the call */
    ct_value *ops[64];
    int no = 0;
    for (int i = 0; i < nargs && no < 64; i++)
        if (args[i].kind == TL_K_TENSOR)
            ops[no++] = args[i].handle;
    const ct_type *rts[TL_MAX_ARGS];
    int nres = 0;
    for (int i = 0; i < rec->nrets; i++)
        if (rec->rets[i])
            rts[nres++] = tl__ir_type(rec->rets[i]);
    ct_op *call = b_op(CT_OP_TT_CALL, no, ops, nres, rts);
    b_attr(call, "callee", ct_attr_symref(b->m, name.s));
    for (int i = 0, k = 0; i < rec->nrets; i++)
        rets[i] = rec->rets[i] ? tl__tensor(&call->res[k++], rec->rets[i]) : rec->cx[i];
    ct_sb_free(&name);
    return rec->nrets;
}

int tl__call_jit(const char *name, const char *file, int nargs, const char *const *argnames,
                 const tl_tensor *args, int nrets, tl_tensor *rets, tl__jit_body body, void *ud,
                 tl_src at)
{
    if (!tl__active())
        return -1;
    tl__at(at);
    int nparams = 0;
    while (argnames && argnames[nparams])
        nparams++;
    if (nargs != nparams) {
        tl__err("@jit helper `%s` takes %d argument%s, but %d %s given", name, nparams,
                nparams == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        for (int i = 0; i < nrets; i++)
            rets[i] = tl__poison();
        return -1;
    }
    /* Python names a helper by module and function: "<module>.<name>" */
    char full[512];
    const char *base = file ? strrchr(file, '/') : NULL;
    base = base ? base + 1 : (file ? file : "kernel");
    size_t bl = strcspn(base, ".");
    snprintf(full, sizeof full, "%.*s.%s", (int)bl, base, name);
    /* a None passed explicitly is constexpr[None] (only defaults are plain None) */
    tl_jit_cx cx[64];
    int ncx = 0;
    for (int i = 0; i < nargs && ncx < 64; i++)
        if (args[i].kind == TL_K_NONE)
            cx[ncx++] = (tl_jit_cx){.pos = i, .explicit_none = true};
    tl_tensor out[TL_MAX_ARGS];
    int n = tl__jit(full, nargs, argnames, args, ncx, cx, body, ud, out);
    for (int i = 0; i < nrets; i++)
        rets[i] = i < n ? out[i] : (n < 0 ? tl__poison() : TL_NONE);
    return n;
}
