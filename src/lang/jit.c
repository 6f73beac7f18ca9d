/*
 * jit.c - calls of @jit functions: a private tt.func per specialization and
 * a tt.call, exactly as Python's CodeGenerator.call_JitFunction does.
 *
 * The callee's name is mangled from its full name, the types of its tensor
 * arguments and the values of its constexpr arguments
 * ("triton.language.standard.max__fp32S1024S__(1,)cconstexpr_0__...").  The
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
    int nrets;
    bool failed;
    const tl_type *rets[16];
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

int tl__jit(const char *fullname, int nargs, const char *const *argnames, const tl_tensor *args,
            int ncx_extra, const int *cx_pos, const char *const *cx_repr, tl__jit_body body,
            void *ud, tl_tensor *rets)
{
    tl_builder *b = B;
    for (int i = 0; i < nargs; i++)
        if (tl__is_poison(args[i]))
            return -1;
    /* mangle */
    ct_strbuf name, types, consts;
    ct_sb_init(&name);
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
        const char *extra = NULL;
        for (int k = 0; k < ncx_extra; k++)
            if (cx_pos[k] == i)
                extra = cx_repr[k];
        char path[32], dg[12]; /* "(i,)" */
        int pl = 0, nd = 0;
        for (int x = i; nd == 0 || x; x /= 10)
            dg[nd++] = (char)('0' + x % 10);
        path[pl++] = '(';
        while (nd)
            path[pl++] = dg[--nd];
        path[pl++] = ',';
        path[pl++] = ')';
        path[pl] = 0;
        if (extra) {
            /* a pre-mangled entry: "(0, 0)cconstexpr_64__(0, 1)c..." or a repr */
            if (extra[0] == '(') {
                if (consts.len)
                    ct_sb_putc(&consts, '_');
                ct_sb_puts(&consts, extra);
            } else {
                mangle_constexpr(&consts, path, extra);
            }
        } else {
            ct_strbuf r;
            ct_sb_init(&r);
            number_repr(args[i], &r);
            mangle_constexpr(&consts, path, r.s);
            ct_sb_free(&r);
        }
    }
    ct_sb_puts(&name, fullname); /* fullname__types__consts */
    ct_sb_puts(&name, "__");
    ct_sb_putn(&name, types.s ? types.s : "", types.len);
    ct_sb_puts(&name, "__");
    ct_sb_putn(&name, consts.s ? consts.s : "", consts.len);
    ct_sb_free(&types);
    ct_sb_free(&consts);

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
        tl_tensor out[16] = {{0}};
        body(bound, out, ud);
        int n = 0;
        while (n < 16 && out[n].kind != TL_K_NONE)
            n++;
        /* the trailing `return` of the body */
        tl_tensor dec[16];
        bool bad = b->nerrors > errors_before;
        for (int i = 0; i < n; i++) {
            dec[i] = sem_to_tensor(out[i]);
            bad |= tl__is_poison(dec[i]);
        }
        if (!bad && n > 0)
            tl__return(n, dec, b->loc_src);
        /* finalize: void functions end with tt.return; others have the dead block */
        const tl_type *rt[16];
        int nr = fn.nrets < 0 ? 0 : fn.nrets;
        for (int i = 0; i < nr; i++)
            rt[i] = fn.ret_types[i];
        ct_block *last = b->block;
        if (nr == 0) {
            if (!ct_block_terminator(last))
                b_op(CT_OP_TT_RETURN, 0, NULL, 0, NULL);
        } else {
            ct_value *ps[16];
            for (int i = 0; i < nr; i++)
                ps[i] = b_poison(tl__ir_type(rt[i]));
            b_op(CT_OP_TT_RETURN, nr, ps, 0, NULL);
        }
        const ct_type *outs[16];
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
        rec->nrets = nr;
        for (int i = 0; i < nr; i++)
            rec->rets[i] = rt[i];
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
    const ct_type *rts[16];
    for (int i = 0; i < rec->nrets; i++)
        rts[i] = tl__ir_type(rec->rets[i]);
    ct_op *call = b_op(CT_OP_TT_CALL, no, ops, rec->nrets, rts);
    b_attr(call, "callee", ct_attr_symref(b->m, name.s));
    for (int i = 0; i < rec->nrets; i++)
        rets[i] = tl__tensor(&call->res[i], rec->rets[i]);
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
    int cx_pos[64], ncx = 0;
    const char *cx_repr[64];
    for (int i = 0; i < nargs && ncx < 64; i++)
        if (args[i].kind == TL_K_NONE) {
            cx_pos[ncx] = i;
            cx_repr[ncx++] = "constexpr[None]";
        }
    tl_tensor out[16];
    int n = tl__jit(full, nargs, argnames, args, ncx, cx_pos, cx_repr, body, ud, out);
    for (int i = 0; i < nrets; i++)
        rets[i] = i < n ? out[i] : (n < 0 ? tl__poison() : TL_NONE);
    return n;
}
