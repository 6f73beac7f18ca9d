/*
 * forms.c - the ops whose textual form is their own (ops.def's custom<Name>,
 * MLIR's hasCustomAssemblyFormat): scf.for, scf.if, scf.while,
 * scf.execute_region, tt.func, cf.br and cf.cond_br, arith.select.  Each
 * printer sits beside its parser, the grammar in a comment above both.
 */
#include "format_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- shared ---------------------------------------------------------------- */

/* A block argument that an op header names (`scf.for %k = ...`) carries
 * no location in the text, so its name would be lost.  Keep it as a name
 * hint for the printer (see ct_loc_name_hint in text_internal.h). */
static const ct_loc *header_arg_loc(parser *P, uref u)
{
    span n = u.name;
    bool digits = true;
    for (size_t i = 0; i < n.n; i++)
        digits &= isdigit((unsigned char)n.s[i]) != 0;
    if (digits)
        return NULL;
    if (n.n > 3 && !memcmp(n.s, "arg", 3)) {
        bool argn = true;
        for (size_t i = 3; i < n.n; i++)
            argn &= isdigit((unsigned char)n.s[i]) != 0;
        if (argn)
            return NULL;
    }
    return ct_loc_name(P->m, dup_span(P, n), &ct_loc_name_hint);
}

/* Appends an implicit `scf.yield` (no operands) to a region whose block
 * has no terminator, as MLIR's parser does for ops with such regions. */
static void ensure_yield(parser *P, ct_region *r)
{
    if (!r->first)
        ct_region_append(r, ct_block_new(P->m));
    ct_block *b = r->last;
    if (!ct_block_terminator(b))
        ct_block_append(b, new_op(P, CT_OP_SCF_YIELD, 0, NULL, 0, NULL, 0));
}

/* `-> T` or `-> (T, U)` (MLIR's optional arrow type list); 0 when absent */
static int parse_opt_arrow_types(parser *P, const ct_type ***out)
{
    *out = NULL;
    if (!accept_arrow(P))
        return 0;
    return parse_results(P, out);
}

/* MLIR's printArrowTypeList: ` -> T`, or ` -> (T, U)` for several (or a function type) */
static void print_arrow_types(printer *p, const ct_op *op)
{
    if (!op->nres)
        return;
    P(p, " -> ");
    bool wrap = op->nres != 1 || op->res[0].type->kind == CT_TY_FUNC;
    if (wrap)
        P(p, "(");
    for (int i = 0; i < op->nres; i++) {
        if (i)
            P(p, ", ");
        put_type(p, op->res[i].type);
    }
    if (wrap)
        P(p, ")");
}

/* ---- arith.select ------------------------------------------------------------
 * arith.select %c ',' %a ',' %b attr-dict ':' (cond-type ',')? type
 * (the condition's type is written only when it is a tensor) */

static void print_select(printer *p, const ct_op *op)
{
    P(p, " ");
    put_values(p, op->opnds, op->nopnds);
    put_op_attrs(p, op, NULL);
    P(p, " : ");
    if (op->nopnds && op->opnds[0]->type->kind == CT_TY_TENSOR) {
        put_type(p, op->opnds[0]->type);
        P(p, ", ");
    }
    if (op->nres)
        put_type(p, op->res[0].type);
}

/* arith.select %c ',' %a ',' %b attr-dict ':' (cond-type ',')? type */
static ct_op *parse_select(parser *P, ct_opcode code, const char *opat)
{
    (void)opat;
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, 3, 3, CT_OP_ARITH_SELECT);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the operand type");
    const ct_type *ct = P->i1;
    if (accept(P, ',')) {
        ct = t;
        t = parse_type(P);
    }
    ct_value *v[3] = {resolve(P, u[0], ct), resolve(P, u[1], t), resolve(P, u[2], t)};
    ct_op *op = new_op(P, CT_OP_ARITH_SELECT, 3, v, 1, &t, 0);
    apply_attrs(P, op, a);
    return op;
}

/* ---- scf.for -------------------------------------------------------------------
 * scf.for %iv '=' %lb 'to' %ub 'step' %st
 *   ('iter_args' '(' %a '=' %init (',' ...)* ')' '->' (type | '(' types ')'))?
 *   (':' type)? region attr-dict
 * (the yield of a loop without iter_args is not printed) */

static void print_for(printer *p, const ct_op *op)
{
    const ct_block *body = op->regions[0].first;
    int st, ni;
    ct_op_segment(op, false, ct_op_seg_index(op->code, false, "initArgs"), &st, &ni);
    P(p, " ");
    put_value(p, body->args[0]);
    P(p, " = ");
    put_value(p, ct_op_get(op, "lowerBound"));
    P(p, " to ");
    put_value(p, ct_op_get(op, "upperBound"));
    P(p, " step ");
    put_value(p, ct_op_get(op, "step"));
    if (ni) {
        P(p, " iter_args(");
        for (int i = 0; i < ni; i++) {
            if (i)
                P(p, ", ");
            put_value(p, body->args[i + 1]);
            P(p, " = ");
            put_value(p, op->opnds[st + i]);
        }
        P(p, ") -> (");
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_type(p, op->res[i].type);
        }
        P(p, ")");
    }
    const ct_type *ivt = ct_op_get(op, "lowerBound")->type;
    if (ivt->kind != CT_TY_INDEX) {
        P(p, "  : ");
        put_type(p, ivt);
    }
    P(p, " ");
    print_region(p, &op->regions[0], false, ni > 0);
    put_op_attrs(p, op, NULL);
}

/* scf.for %iv '=' %lb 'to' %ub 'step' %st
 *   ('iter_args' '(' %a '=' %init (',' ...)* ')' '->' '(' types ')')?
 *   (':' type)? region attr-dict */
static ct_op *parse_for(parser *P, ct_opcode code, const char *opat)
{
    if (peek_kw(P, "unsigned"))
        fail(P, "unsigned scf.for loops are not supported");
    uref hdr[4];
    hdr[0] = parse_uref(P);
    expect(P, '=', "after the induction variable");
    hdr[1] = parse_uref(P);
    expect_kw(P, "to", "after the lower bound");
    hdr[2] = parse_uref(P);
    expect_kw(P, "step", "after the upper bound");
    hdr[3] = parse_uref(P);
    int ni = 0, cap = 4;
    uref *args = ct_arena_alloc(P->m->arena, sizeof(*args) * (size_t)cap);
    uref *inits = ct_arena_alloc(P->m->arena, sizeof(*inits) * (size_t)cap);
    const ct_type **it = NULL;
    if (accept_kw(P, "iter_args")) {
        expect(P, '(', "after 'iter_args'");
        do {
            if (ni == cap) {
                uref *na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                uref *nn = ct_arena_alloc(P->m->arena, sizeof(*nn) * (size_t)cap * 2);
                memcpy(na, args, sizeof(*na) * (size_t)ni);
                memcpy(nn, inits, sizeof(*nn) * (size_t)ni);
                args = na;
                inits = nn;
                cap *= 2;
            }
            args[ni] = parse_uref(P);
            expect(P, '=', "in iter_args");
            inits[ni] = parse_uref(P);
            ni++;
        } while (accept(P, ','));
        expect(P, ')', "to close iter_args");
        expect_arrow(P, "after iter_args");
        const char *at = P->p;
        int nt = parse_results(P, &it); /* `-> (T, U)`, or `-> T` as MLIR also reads */
        if (nt != ni)
            fail_at(P, at, "%d result types for %d iter_args", nt, ni);
    }
    const ct_type *t = P->index;
    if (accept(P, ':'))
        t = parse_type(P);
    ct_value **ops = ct_arena_alloc(P->m->arena, sizeof(*ops) * (size_t)(3 + ni));
    for (int i = 0; i < 3; i++)
        ops[i] = resolve(P, hdr[1 + i], t);
    for (int i = 0; i < ni; i++)
        ops[3 + i] = resolve(P, inits[i], it[i]);
    ct_op *op = new_op(P, CT_OP_SCF_FOR, 3 + ni, ops, ni, it, 1);
    entry_args ea = {.n = 1 + ni};
    ea.types = ct_arena_alloc(P->m->arena, sizeof(*ea.types) * (size_t)(1 + ni));
    ea.names = ct_arena_alloc(P->m->arena, sizeof(*ea.names) * (size_t)(1 + ni));
    ea.locs = ct_arena_alloc(P->m->arena, sizeof(*ea.locs) * (size_t)(1 + ni));
    ea.types[0] = t;
    ea.names[0] = hdr[0];
    for (int i = 0; i < ni; i++) {
        ea.types[1 + i] = it[i];
        ea.names[1 + i] = args[i];
    }
    for (int i = 0; i < 1 + ni; i++) {
        if (ea.names[i].resno)
            fail_at(P, ea.names[i].at, "a loop variable cannot have a result number");
        ea.locs[i] = header_arg_loc(P, ea.names[i]);
    }
    parse_region(P, &op->regions[0], &ea);
    if (ni == 0)
        ensure_yield(P, &op->regions[0]);
    apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* ---- scf.if ----------------------------------------------------------------------
 * scf.if %c ('->' (type | '(' types ')'))? region ('else' region)? attr-dict
 * (yields are printed only when the if has results) */

static void print_if(printer *p, const ct_op *op)
{
    P(p, " ");
    put_value(p, op->opnds[0]);
    if (op->nres) {
        P(p, " -> (");
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_type(p, op->res[i].type);
        }
        P(p, ")");
    }
    P(p, " ");
    bool terms = op->nres > 0;
    print_region(p, &op->regions[0], false, terms);
    if (op->nregions > 1 && op->regions[1].first) {
        P(p, " else ");
        print_region(p, &op->regions[1], false, terms);
    }
    put_op_attrs(p, op, NULL);
}

static ct_op *parse_if(parser *P, ct_opcode code, const char *opat)
{
    uref c = parse_uref(P);
    const ct_type **rt = NULL;
    int nres = 0;
    if (accept_arrow(P))
        nres = parse_results(P, &rt);
    ct_value *cv = resolve(P, c, P->i1);
    ct_op *op = new_op(P, CT_OP_SCF_IF, 1, &cv, nres, rt, 2);
    parse_region(P, &op->regions[0], NULL);
    if (nres == 0)
        ensure_yield(P, &op->regions[0]);
    if (accept_kw(P, "else")) {
        parse_region(P, &op->regions[1], NULL);
        if (nres == 0)
            ensure_yield(P, &op->regions[1]);
    }
    apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* ---- scf.while ----------------------------------------------------------------------
 * scf.while ('(' %a '=' %init (',' ...)* ')')? ':' '(' types ')' '->' results
 *   region 'do' region ('attributes' dict)?
 * (MLIR writes no list at all when there are no operands: `scf.while : () -> ()`) */

static void print_while(printer *p, const ct_op *op)
{
    const ct_block *before = op->regions[0].first;
    if (op->nopnds) {
        P(p, " (");
        for (int i = 0; i < op->nopnds; i++) {
            if (i)
                P(p, ", ");
            put_value(p, before->args[i]);
            P(p, " = ");
            put_value(p, op->opnds[i]);
        }
        P(p, ")");
    }
    P(p, " : (");
    put_types_of(p, op->opnds, op->nopnds);
    P(p, ") -> ");
    if (op->nres == 1) {
        put_type(p, op->res[0].type);
    } else {
        P(p, "(");
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_type(p, op->res[i].type);
        }
        P(p, ")");
    }
    P(p, " ");
    print_region(p, &op->regions[0], false, true);
    P(p, " do ");
    print_region(p, &op->regions[1], true, true);
    if (op->nattrs) {
        P(p, " attributes");
        put_attr_dict(p, op->attrs, op->nattrs, NULL, true);
    }
}

static ct_op *parse_while(parser *P, ct_opcode code, const char *opat)
{
    bool list = accept(P, '(');
    int n = 0, cap = 4;
    uref *args = ct_arena_alloc(P->m->arena, sizeof(*args) * (size_t)cap);
    uref *inits = ct_arena_alloc(P->m->arena, sizeof(*inits) * (size_t)cap);
    if (list && !accept(P, ')')) {
        do {
            if (n == cap) {
                uref *na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                uref *nn = ct_arena_alloc(P->m->arena, sizeof(*nn) * (size_t)cap * 2);
                memcpy(na, args, sizeof(*na) * (size_t)n);
                memcpy(nn, inits, sizeof(*nn) * (size_t)n);
                args = na;
                inits = nn;
                cap *= 2;
            }
            args[n] = parse_uref(P);
            expect(P, '=', "in scf.while's arguments");
            inits[n] = parse_uref(P);
            n++;
        } while (accept(P, ','));
        expect(P, ')', "to close scf.while's arguments");
    }
    expect(P, ':', "before scf.while's type");
    const char *at = P->p;
    const ct_type **ins;
    int nin = parse_type_list_paren(P, &ins);
    if (nin != n)
        fail_at(P, at, "%d operand types for %d operands", nin, n);
    expect_arrow(P, "in scf.while's type");
    const ct_type **rt;
    int nres = parse_results(P, &rt);
    ct_op *op = new_op(P, CT_OP_SCF_WHILE, n, resolve_all(P, inits, n, ins), nres, rt, 2);
    entry_args ea = {.n = n, .types = ins, .names = args};
    ea.locs = ct_arena_alloc(P->m->arena, sizeof(*ea.locs) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        if (args[i].resno)
            fail_at(P, args[i].at, "an argument cannot have a result number");
        ea.locs[i] = header_arg_loc(P, args[i]);
    }
    parse_region(P, &op->regions[0], &ea);
    expect_kw(P, "do", "between the regions of scf.while");
    parse_region(P, &op->regions[1], NULL);
    if (accept_kw(P, "attributes"))
        apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* ---- scf.execute_region -------------------------------------------------------------
 * scf.execute_region ('->' (type | '(' types ')'))? 'no_inline'? region attr-dict
 * (a region of one or more blocks run once, its scf.yield giving the results) */

static void print_execute_region(printer *p, const ct_op *op)
{
    print_arrow_types(p, op);
    P(p, " ");
    if (ct_op_attr(op, "no_inline"))
        P(p, "no_inline ");
    print_region(p, &op->regions[0], false, true);
    static const char *const el[] = {"no_inline", NULL};
    put_op_attrs(p, op, el);
}

static ct_op *parse_execute_region(parser *P, ct_opcode code, const char *opat)
{
    (void)opat;
    const ct_type **rt;
    int nres = parse_opt_arrow_types(P, &rt);
    bool noinline = accept_kw(P, "no_inline");
    ct_op *op = new_op(P, code, 0, NULL, nres, rt, 1);
    parse_region(P, &op->regions[0], NULL);
    if (noinline)
        ct_op_set_attr_lit(P->m, op, "no_inline", ct_attr_unit(P->m));
    apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* ---- tt.func ---------------------------------------------------------------------- */

static void print_func(printer *p, const ct_op *op)
{
    const ct_attr *vis = ct_op_attr(op, "sym_visibility");
    const ct_type *ft = ct_func_type(op);
    const ct_attr *argattrs = ct_op_attr(op, "arg_attrs");
    P(p, " ");
    if (vis && vis->kind == CT_ATTR_STR) {
        P(p, vis->s);
        P(p, " ");
    }
    put_symbol(p, ct_func_name(op));
    P(p, "(");
    const ct_block *e = ct_func_entry(op);
    for (int i = 0; ft && i < ft->nin; i++) {
        if (i)
            P(p, ", ");
        if (e) {
            put_value(p, e->args[i]);
            P(p, ": ");
        }
        put_type(p, ft->ins[i]);
        const ct_attr *aa = argattrs && argattrs->kind == CT_ATTR_ARRAY && i < argattrs->n
                                ? argattrs->elems[i]
                                : NULL;
        if (aa && aa->kind == CT_ATTR_DICT && aa->n) {
            P(p, " ");
            put_attr(p, aa, ELIDE_MAY);
        }
        if (e)
            put_arg_loc(p, e->args[i]->loc);
    }
    P(p, ")");
    if (ft && ft->nout) {
        P(p, " -> ");
        if (ft->nout == 1) {
            put_type(p, ft->outs[0]);
        } else {
            P(p, "(");
            for (int i = 0; i < ft->nout; i++) {
                if (i)
                    P(p, ", ");
                put_type(p, ft->outs[i]);
            }
            P(p, ")");
        }
    }
    static const char *const elided[] = {"sym_name", "function_type", "sym_visibility",
                                         "arg_attrs", "res_attrs", NULL};
    int shown = 0;
    for (int i = 0; i < op->nattrs; i++)
        if (!in_list(op->attrs[i].name, elided))
            shown++;
    if (shown) {
        P(p, " attributes");
        put_op_attrs(p, op, elided);
    }
    if (op->nregions && op->regions[0].first) {
        P(p, " ");
        print_region(p, &op->regions[0], false, true);
    }
}

/* tt.func ('public' | 'private' | 'nested')? '@' sym '(' args ')' ('->' results)?
 *   ('attributes' dict)? region?
 * arg ::= (%name ':')? type dict? loc?    ; results ::= type | '(' (type dict?)* ')' */
static ct_op *parse_func(parser *P, ct_opcode code, const char *opat)
{
    const char *vis = NULL;
    if (accept_kw(P, "public"))
        vis = "public";
    else if (accept_kw(P, "private"))
        vis = "private";
    else if (accept_kw(P, "nested"))
        vis = "nested";
    expect(P, '@', "before the function name");
    const char *name = peek(P) == '"' ? parse_string(P) : dup_span(P, parse_id(P, "a function name"));
    expect(P, '(', "to open the function's arguments");
    int n = 0, cap = 8;
    const ct_type **ins = ct_arena_alloc(P->m->arena, sizeof(*ins) * (size_t)cap);
    const ct_attr **aattr = ct_arena_alloc(P->m->arena, sizeof(*aattr) * (size_t)cap);
    uref *names = ct_arena_alloc(P->m->arena, sizeof(*names) * (size_t)cap);
    const ct_loc **locs = ct_arena_alloc(P->m->arena, sizeof(*locs) * (size_t)cap);
    bool named = peek(P) == '%', any_attr = false;
    if (!accept(P, ')')) {
        do {
            if (n == cap) {
                const ct_type **ni = ct_arena_alloc(P->m->arena, sizeof(*ni) * (size_t)cap * 2);
                const ct_attr **na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                uref *nn = ct_arena_alloc(P->m->arena, sizeof(*nn) * (size_t)cap * 2);
                const ct_loc **nl = ct_arena_alloc(P->m->arena, sizeof(*nl) * (size_t)cap * 2);
                memcpy(ni, ins, sizeof(*ni) * (size_t)n);
                memcpy(na, aattr, sizeof(*na) * (size_t)n);
                memcpy(nn, names, sizeof(*nn) * (size_t)n);
                memcpy(nl, locs, sizeof(*nl) * (size_t)n);
                ins = ni;
                aattr = na;
                names = nn;
                locs = nl;
                cap *= 2;
            }
            if ((peek(P) == '%') != named)
                fail(P, "either all or none of the function's arguments are named");
            if (named) {
                names[n] = parse_uref(P);
                if (names[n].resno)
                    fail_at(P, names[n].at, "an argument cannot have a result number");
                expect(P, ':', "after the argument name");
            }
            ins[n] = parse_type(P);
            ct_named_attr *e = NULL;
            int ne = peek(P) == '{' ? parse_dict_entries(P, &e) : 0;
            aattr[n] = ct_attr_dict(P->m, ne, e);
            any_attr |= ne > 0;
            locs[n] = parse_opt_loc(P);
            n++;
        } while (accept(P, ','));
        expect(P, ')', "to close the function's arguments");
    }
    int nout = 0;
    const ct_type **outs = NULL;
    const ct_attr **rattr = NULL;
    bool any_rattr = false;
    if (accept_arrow(P)) {
        if (accept(P, '(')) {
            int rc = 4;
            outs = ct_arena_alloc(P->m->arena, sizeof(*outs) * (size_t)rc);
            rattr = ct_arena_alloc(P->m->arena, sizeof(*rattr) * (size_t)rc);
            if (!accept(P, ')')) {
                do {
                    if (nout == rc) {
                        const ct_type **no = ct_arena_alloc(P->m->arena, sizeof(*no) * (size_t)rc * 2);
                        const ct_attr **nr = ct_arena_alloc(P->m->arena, sizeof(*nr) * (size_t)rc * 2);
                        memcpy(no, outs, sizeof(*no) * (size_t)nout);
                        memcpy(nr, rattr, sizeof(*nr) * (size_t)nout);
                        outs = no;
                        rattr = nr;
                        rc *= 2;
                    }
                    outs[nout] = parse_type(P);
                    ct_named_attr *e = NULL;
                    int ne = peek(P) == '{' ? parse_dict_entries(P, &e) : 0;
                    rattr[nout] = ct_attr_dict(P->m, ne, e);
                    any_rattr |= ne > 0;
                    nout++;
                } while (accept(P, ','));
                expect(P, ')', "to close the function's results");
            }
        } else {
            outs = ct_arena_alloc(P->m->arena, sizeof(*outs));
            outs[0] = parse_type(P);
            nout = 1;
        }
    }
    attrs extra = {0};
    if (accept_kw(P, "attributes"))
        extra = parse_opt_attrs(P);
    ct_op *op = new_op(P, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1);
    ct_op_set_attr(P->m, op, "sym_name", ct_attr_str(P->m, name));
    if (vis)
        ct_op_set_attr(P->m, op, "sym_visibility", ct_attr_str(P->m, vis));
    ct_op_set_attr(P->m, op, "function_type",
                   ct_attr_type(P->m, ct_type_func(P->m, n, ins, nout, outs)));
    if (any_attr)
        ct_op_set_attr(P->m, op, "arg_attrs", ct_attr_array(P->m, n, aattr));
    if (any_rattr)
        ct_op_set_attr(P->m, op, "res_attrs", ct_attr_array(P->m, nout, rattr));
    for (int i = 0; i < extra.n; i++) {
        static const char *const reserved[] = {"sym_name", "sym_visibility", "function_type",
                                               "arg_attrs", "res_attrs"};
        for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
            if (!strcmp(extra.e[i].name, reserved[k]))
                fail_at(P, extra.at, "'%s' cannot be given in the attributes of tt.func",
                        reserved[k]);
    }
    apply_attrs(P, op, extra);
    if (peek(P) == '{') {
        if (!named && n)
            fail(P, "a function with a body needs named arguments");
        entry_args ea = {.n = n, .types = ins, .names = named ? names : NULL, .locs = locs};
        parse_region(P, &op->regions[0], &ea);
    } else if (named && n) {
        /* a declaration with named arguments: MLIR accepts it; keep the locations */
    }
    return op;
}

/* ---- cf.br, cf.cond_br ---------------------------------------------------------------
 * cf.br successor attr-dict
 * cf.cond_br %c ',' successor ',' successor attr-dict
 * successor ::= ^label ('(' values ':' types ')')? */

static void put_succ(printer *p, const ct_op *op, int si, int first_opnd)
{
    put_block_name(p, op->succ[si]);
    int n = op->succ_nopnds[si];
    if (n) {
        P(p, "(");
        put_values(p, op->opnds + first_opnd, n);
        P(p, " : ");
        put_types_of(p, op->opnds + first_opnd, n);
        P(p, ")");
    }
}

static void print_branch(printer *p, const ct_op *op)
{
    P(p, " ");
    if (op->code == CT_OP_CF_COND_BR) {
        put_value(p, op->opnds[0]);
        P(p, ", ");
        put_succ(p, op, 0, 1);
        P(p, ", ");
        put_succ(p, op, 1, 1 + op->succ_nopnds[0]);
    } else {
        put_succ(p, op, 0, 0);
    }
}

/* cf.br successor attr-dict
 * cf.cond_br %c ',' successor ',' successor attr-dict */
static ct_op *parse_branch(parser *P, ct_opcode code, const char *opat)
{
    ct_value *cond = NULL;
    if (code == CT_OP_CF_COND_BR) {
        uref c = parse_uref(P);
        cond = resolve(P, c, P->i1);
        expect(P, ',', "after the condition");
    }
    ct_block *succ[2];
    ct_value **vals[2];
    int cnt[2] = {0, 0};
    int ns = code == CT_OP_CF_COND_BR ? 2 : 1;
    for (int i = 0; i < ns; i++) {
        if (i)
            expect(P, ',', "between the successors");
        cnt[i] = parse_successor(P, &succ[i], &vals[i]);
    }
    int nop = (cond ? 1 : 0) + cnt[0] + cnt[1];
    ct_value **ops = ct_arena_alloc(P->m->arena, sizeof(*ops) * (size_t)(nop ? nop : 1));
    int k = 0;
    if (cond)
        ops[k++] = cond;
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < cnt[i]; j++)
            ops[k++] = vals[i][j];
    ct_op *op = new_op(P, code, nop, ops, 0, NULL, 0);
    ct_op_set_successors(P->m, op, ns, succ, cnt);
    apply_attrs(P, op, parse_opt_attrs(P));
    return op;
}

/* ---- the table ------------------------------------------------------------------------ */

static const custom_form customs[] = {
    {"Select", print_select, parse_select, 0, false, false},
    {"For", print_for, parse_for, 1, false, true},
    {"If", print_if, parse_if, 0, false, true},
    {"While", print_while, parse_while, 1, false, false},
    {"ExecuteRegion", print_execute_region, parse_execute_region, 0, false, false},
    {"Func", print_func, parse_func, 1, true, false},
    {"Branch", print_branch, parse_branch, 0, false, false},
};

const custom_form *custom_form_named(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof customs / sizeof customs[0]; i++)
        if (strlen(customs[i].name) == len && !memcmp(customs[i].name, name, len))
            return &customs[i];
    return NULL;
}
