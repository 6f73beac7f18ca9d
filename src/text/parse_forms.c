/*
 * parse_forms.c - the custom (pretty) forms of the ops, one function per
 * form, the grammar in a comment above each.
 */
#include "parse_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Ops: the custom forms                                               */
/* ------------------------------------------------------------------ */

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

/* BIN, UN, TERN:  op uref-list attr-dict ':' type */
static ct_op *parse_same_type(parser *P, ct_opcode code, int nopnds)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, nopnds, nopnds, code);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the operation's type");
    ct_op *op = new_op(P, code, n, resolve_same(P, u, n, t), 1, &t, 0);
    apply_attrs(P, op, a);
    return op;
}

/* CAST, ARROW:  op uref attr-dict ':' type ('to' | '->') type */
static ct_op *parse_conversion(parser *P, ct_opcode code, bool arrow)
{
    uref u = parse_uref(P);
    attrs a = parse_opt_attrs(P);
    const ct_type *from = type_colon(P, "before the operand type");
    if (arrow)
        expect_arrow(P, "between the operand and result types");
    else
        expect_kw(P, "to", "between the operand and result types");
    const ct_type *to = parse_type(P);
    ct_value *v = resolve(P, u, from);
    ct_op *op = new_op(P, code, 1, &v, 1, &to, 0);
    apply_attrs(P, op, a);
    return op;
}

/* arith.constant attr-dict typed-attr */
static ct_op *parse_constant(parser *P)
{
    attrs a = parse_opt_attrs(P);
    skip_ws(P);
    const char *at = P->p;
    const ct_attr *v = parse_attr(P);
    const ct_type *t;
    if (v->kind == CT_ATTR_INT || v->kind == CT_ATTR_FLOAT || v->kind == CT_ATTR_DENSE)
        t = v->type;
    else if (v->kind == CT_ATTR_BOOL)
        t = P->i1;
    else
        fail_at(P, at, "arith.constant needs an integer, float or dense value");
    ct_op *op = new_op(P, CT_OP_ARITH_CONSTANT, 0, NULL, 1, &t, 0);
    ct_op_set_attr(P->m, op, "value", v);
    apply_attrs(P, op, a);
    return op;
}

/* arith.cmpi/cmpf PRED ',' %a ',' %b attr-dict ':' type */
static ct_op *parse_cmp(parser *P, ct_opcode code)
{
    const ct_attr *pred = enum_word(P, code, "predicate");
    expect(P, ',', "after the predicate");
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, 2, 2, code);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the operand type");
    const ct_type *rt = bool_like(P, t);
    ct_op *op = new_op(P, code, 2, resolve_same(P, u, 2, t), 1, &rt, 0);
    ct_op_set_attr(P->m, op, "predicate", pred);
    apply_attrs(P, op, a);
    return op;
}

/* arith.select %c ',' %a ',' %b attr-dict ':' (cond-type ',')? type */
static ct_op *parse_select(parser *P)
{
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

/* Terminators with the values last: op attr-dict (uref-list ':' types)?
 * (tt.return, scf.yield, tt.map_elementwise.return) */
static ct_op *parse_return_like(parser *P, ct_opcode code)
{
    attrs a = parse_opt_attrs(P);
    uref *u;
    int n = parse_opt_uref_list(P, &u);
    ct_value **v = NULL;
    if (n) {
        expect(P, ':', "before the operand types");
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
        for (int i = 0; i < n; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[i] = parse_type(P);
        }
        v = resolve_all(P, u, n, t);
    }
    ct_op *op = new_op(P, code, n, v, 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.reduce.return / tt.scan.return: uref-list attr-dict ':' types */
static ct_op *parse_combine_return(parser *P, ct_opcode code)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    attrs a = parse_opt_attrs(P);
    expect(P, ':', "before the operand types");
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (i)
            expect(P, ',', "between operand types");
        t[i] = parse_type(P);
    }
    ct_op *op = new_op(P, code, n, resolve_all(P, u, n, t), 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.call @callee '(' uref-list? ')' attr-dict ':' functional-type */
static ct_op *parse_call(parser *P)
{
    skip_ws(P);
    expect(P, '@', "before the callee");
    const char *callee = peek(P) == '"' ? parse_string(P) : dup_span(P, parse_id(P, "a callee"));
    expect(P, '(', "to open the call's operands");
    uref *u = NULL;
    int n = 0;
    if (!accept(P, ')')) {
        n = parse_uref_list(P, &u);
        expect(P, ')', "to close the call's operands");
    }
    attrs a = parse_opt_attrs(P);
    int nres;
    const ct_type **rt;
    ct_value **v = functional_operands(P, u, n, &nres, &rt);
    ct_op *op = new_op(P, CT_OP_TT_CALL, n, v, nres, rt, 0);
    ct_op_set_attr(P->m, op, "callee", ct_attr_symref(P->m, callee));
    apply_attrs(P, op, a);
    return op;
}

/* tt.get_program_id / tt.get_num_programs AXIS attr-dict ':' type */
static ct_op *parse_program_query(parser *P, ct_opcode code)
{
    const ct_attr *axis = enum_word(P, code, "axis");
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the result type");
    ct_op *op = new_op(P, code, 0, NULL, 1, &t, 0);
    ct_op_set_attr(P->m, op, "axis", axis);
    apply_attrs(P, op, a);
    return op;
}

/* op attr-dict ':' type   (tt.make_range, ub.poison) */
static ct_op *parse_nullary(parser *P, ct_opcode code)
{
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the result type");
    ct_op *op = new_op(P, code, 0, NULL, 1, &t, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.unsplat %a attr-dict ':' tensor-type  -> its element */
static ct_op *parse_unsplat(parser *P)
{
    uref u = parse_uref(P);
    attrs a = parse_opt_attrs(P);
    const char *at = P->p;
    const ct_type *t = type_colon(P, "before the operand type");
    if (t->kind != CT_TY_TENSOR)
        fail_at(P, at, "tt.unsplat takes a tensor");
    ct_value *v = resolve(P, u, t);
    ct_op *op = new_op(P, CT_OP_TT_UNSPLAT, 1, &v, 1, &t->elem, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.reshape %a ('allow_reorder')? ('efficient_layout')? attr-dict ':' T '->' T */
static ct_op *parse_reshape(parser *P)
{
    uref u = parse_uref(P);
    bool reorder = accept_kw(P, "allow_reorder");
    bool eff = accept_kw(P, "efficient_layout");
    attrs a = parse_opt_attrs(P);
    const ct_type *from = type_colon(P, "before the operand type");
    expect_arrow(P, "between the operand and result types");
    const ct_type *to = parse_type(P);
    ct_value *v = resolve(P, u, from);
    ct_op *op = new_op(P, CT_OP_TT_RESHAPE, 1, &v, 1, &to, 0);
    if (reorder)
        ct_op_set_attr(P->m, op, "allow_reorder", ct_attr_unit(P->m));
    if (eff)
        ct_op_set_attr(P->m, op, "efficient_layout", ct_attr_unit(P->m));
    apply_attrs(P, op, a);
    return op;
}

/* tt.join / tt.cat %a ',' %b attr-dict ':' T '->' T2
 * tt.split %a attr-dict ':' T '->' T2  (two results) */
static ct_op *parse_join_split(parser *P, ct_opcode code)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, code == CT_OP_TT_SPLIT ? 1 : 2, code == CT_OP_TT_SPLIT ? 1 : 2, code);
    attrs a = parse_opt_attrs(P);
    const ct_type *from = type_colon(P, "before the operand type");
    expect_arrow(P, "between the operand and result types");
    const ct_type *to = parse_type(P);
    const ct_type *rt[2] = {to, to};
    ct_op *op = new_op(P, code, n, resolve_same(P, u, n, from), code == CT_OP_TT_SPLIT ? 2 : 1,
                       rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.histogram %src (',' %mask)? attr-dict ':' T '->' T2 */
static ct_op *parse_histogram(parser *P)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, 1, 2, CT_OP_TT_HISTOGRAM);
    attrs a = parse_opt_attrs(P);
    const ct_type *from = type_colon(P, "before the operand type");
    expect_arrow(P, "between the operand and result types");
    const ct_type *to = parse_type(P);
    const ct_type *types[2] = {from, bool_like(P, from)};
    ct_op *op = new_op(P, CT_OP_TT_HISTOGRAM, n, resolve_all(P, u, n, types), 1, &to, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.gather %src '[' %idx ']' attr-dict ':' '(' T ',' T ')' '->' T */
static ct_op *parse_gather(parser *P)
{
    uref u[2];
    u[0] = parse_uref(P);
    expect(P, '[', "before the indices");
    u[1] = parse_uref(P);
    expect(P, ']', "after the indices");
    attrs a = parse_opt_attrs(P);
    int nres;
    const ct_type **rt;
    ct_value **v = functional_operands(P, u, 2, &nres, &rt);
    ct_op *op = new_op(P, CT_OP_TT_GATHER, 2, v, nres, rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.addptr %p ',' %off attr-dict ':' T ',' Toff */
static ct_op *parse_addptr(parser *P)
{
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, 2, 2, CT_OP_TT_ADDPTR);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the pointer type");
    expect(P, ',', "between the pointer and offset types");
    const ct_type *ot = parse_type(P);
    ct_value *v[2] = {resolve(P, u[0], t), resolve(P, u[1], ot)};
    ct_op *op = new_op(P, CT_OP_TT_ADDPTR, 2, v, 1, &t, 0);
    apply_attrs(P, op, a);
    return op;
}

/* oilist(cacheModifier = W | evictionPolicy = W) */
static void parse_cache_evict(parser *P, ct_op *op)
{
    for (;;) {
        if (accept_kw(P, "cacheModifier"))
            keyword_enum(P, op, "cache");
        else if (accept_kw(P, "evictionPolicy"))
            keyword_enum(P, op, "evict");
        else
            return;
    }
}

/* tt.load %ptr (',' %mask)? (',' %other)? oilist attr-dict ':' ptr-type
 * tt.store %ptr ',' %value (',' %mask)? oilist attr-dict ':' ptr-type */
static ct_op *parse_load_store(parser *P, ct_opcode code)
{
    bool load = code == CT_OP_TT_LOAD;
    uref *u;
    int n = parse_uref_list(P, &u);
    want_count(P, u, n, load ? 1 : 2, 3, code);
    /* attributes are gathered on a scratch op until the types are known */
    ct_op *tmp = new_op(P, code, 0, NULL, 0, NULL, 0);
    parse_cache_evict(P, tmp);
    attrs a = parse_opt_attrs(P);
    skip_ws(P);
    const char *at = P->p;
    const ct_type *pt = type_colon(P, "before the pointer type");
    const ct_type *vt = pointee_of(P, pt, at, code);
    /* the mask has the shape of the loaded value (block pointers included) */
    const ct_type *types[3] = {pt, load ? bool_like(P, vt) : vt, load ? vt : bool_like(P, vt)};
    ct_op *op = new_op(P, code, n, resolve_all(P, u, n, types), load ? 1 : 0, &vt, 0);
    for (int i = 0; i < tmp->nattrs; i++)
        ct_op_set_attr(P->m, op, tmp->attrs[i].name, tmp->attrs[i].attr);
    apply_attrs(P, op, a);
    return op;
}

/* tt.atomic_rmw OP ',' SEM ',' SCOPE ',' %ptr ',' %val (',' %mask)? attr-dict ':' fn-type
 * tt.atomic_cas SEM ',' SCOPE ',' %ptr ',' %cmp ',' %val attr-dict ':' fn-type */
static ct_op *parse_atomic(parser *P, ct_opcode code)
{
    const ct_attr *rmw = NULL;
    if (code == CT_OP_TT_ATOMIC_RMW) {
        rmw = enum_word(P, code, "atomic_rmw_op");
        expect(P, ',', "after the atomic operation");
    }
    const ct_attr *sem = enum_word(P, code, "sem");
    expect(P, ',', "after the memory semantics");
    const ct_attr *scope = enum_word(P, code, "scope");
    expect(P, ',', "after the memory scope");
    uref *u;
    int n = parse_uref_list(P, &u);
    if (code == CT_OP_TT_ATOMIC_RMW)
        want_count(P, u, n, 2, 3, code);
    else
        want_count(P, u, n, 3, 3, code);
    attrs a = parse_opt_attrs(P);
    int nres;
    const ct_type **rt;
    ct_value **v = functional_operands(P, u, n, &nres, &rt);
    ct_op *op = new_op(P, code, n, v, nres, rt, 0);
    if (rmw)
        ct_op_set_attr(P->m, op, "atomic_rmw_op", rmw);
    ct_op_set_attr(P->m, op, "sem", sem);
    ct_op_set_attr(P->m, op, "scope", scope);
    apply_attrs(P, op, a);
    return op;
}

/* tt.fp_to_fp %a attr-dict (',' 'rounding' '=' W)? ':' T '->' T */
static ct_op *parse_fp_to_fp(parser *P)
{
    uref u = parse_uref(P);
    attrs a = parse_opt_attrs(P);
    const ct_attr *rounding = NULL;
    if (accept(P, ',')) {
        expect_kw(P, "rounding", "after ','");
        expect(P, '=', "after 'rounding'");
        rounding = enum_word(P, CT_OP_TT_FP_TO_FP, "rounding");
    }
    if (!a.n)
        a = parse_opt_attrs(P); /* accepted after the rounding as well */
    const ct_type *from = type_colon(P, "before the operand type");
    expect_arrow(P, "between the operand and result types");
    const ct_type *to = parse_type(P);
    ct_value *v = resolve(P, u, from);
    ct_op *op = new_op(P, CT_OP_TT_FP_TO_FP, 1, &v, 1, &to, 0);
    if (rounding)
        ct_op_set_attr(P->m, op, "rounding", rounding);
    apply_attrs(P, op, a);
    return op;
}

/* tt.clampf %x ',' %lo ',' %hi ',' 'propagateNan' '=' W attr-dict ':' T */
static ct_op *parse_clampf(parser *P)
{
    uref u[3];
    for (int i = 0; i < 3; i++) {
        u[i] = parse_uref(P);
        expect(P, ',', "after an operand of tt.clampf");
    }
    expect_kw(P, "propagateNan", "in tt.clampf");
    expect(P, '=', "after 'propagateNan'");
    const ct_attr *nan = enum_word(P, CT_OP_TT_CLAMPF, "propagateNan");
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the type");
    ct_op *op = new_op(P, CT_OP_TT_CLAMPF, 3, resolve_same(P, u, 3, t), 1, &t, 0);
    ct_op_set_attr(P->m, op, "propagateNan", nan);
    apply_attrs(P, op, a);
    return op;
}

/* tt.dot %a ',' %b ',' %c (',' 'inputPrecision' '=' W)? attr-dict ':' Ta '*' Tb '->' Tc
 * An absent inputPrecision is its default, ieee (which is not printed). */
static ct_op *parse_dot(parser *P)
{
    uref u[3];
    for (int i = 0; i < 3; i++) {
        if (i)
            expect(P, ',', "between the operands of tt.dot");
        u[i] = parse_uref(P);
    }
    const ct_attr *prec = NULL;
    if (accept(P, ',')) {
        expect_kw(P, "inputPrecision", "after ','");
        expect(P, '=', "after 'inputPrecision'");
        prec = enum_word(P, CT_OP_TT_DOT, "inputPrecision");
    }
    attrs a = parse_opt_attrs(P);
    const ct_type *ta = type_colon(P, "before the operand types");
    expect(P, '*', "between the operand types of tt.dot");
    const ct_type *tb = parse_type(P);
    expect_arrow(P, "before the result type");
    const ct_type *tc = parse_type(P);
    ct_value *v[3] = {resolve(P, u[0], ta), resolve(P, u[1], tb), resolve(P, u[2], tc)};
    ct_op *op = new_op(P, CT_OP_TT_DOT, 3, v, 1, &tc, 0);
    ct_op_set_attr(P->m, op, "inputPrecision", prec ? prec : ct_attr_enum(P->m, "ieee"));
    apply_attrs(P, op, a);
    return op;
}

/* tt.extern_elementwise uref-list? attr-dict ':' fn-type */
static ct_op *parse_extern(parser *P)
{
    uref *u;
    int n = parse_opt_uref_list(P, &u);
    attrs a = parse_opt_attrs(P);
    int nres;
    const ct_type **rt;
    ct_value **v = functional_operands(P, u, n, &nres, &rt);
    ct_op *op = new_op(P, CT_OP_TT_EXTERN_ELEMENTWISE, n, v, nres, rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.elementwise_inline_asm STRING attr-dict (uref-list ':' types)? '->' types */
static ct_op *parse_inline_asm(parser *P)
{
    const char *s = parse_string(P);
    attrs a = parse_opt_attrs(P);
    uref *u;
    int n = parse_opt_uref_list(P, &u);
    ct_value **v = NULL;
    if (n) {
        expect(P, ':', "before the operand types");
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
        for (int i = 0; i < n; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[i] = parse_type(P);
        }
        v = resolve_all(P, u, n, t);
    }
    expect_arrow(P, "before the result types");
    int nres = 0, cap = 4;
    const ct_type **rt = ct_arena_alloc(P->m->arena, sizeof(*rt) * (size_t)cap);
    do {
        if (nres == cap) {
            const ct_type **nr = ct_arena_alloc(P->m->arena, sizeof(*nr) * (size_t)cap * 2);
            memcpy(nr, rt, sizeof(*nr) * (size_t)nres);
            rt = nr;
            cap *= 2;
        }
        rt[nres++] = parse_type(P);
    } while (accept(P, ','));
    ct_op *op = new_op(P, CT_OP_TT_INLINE_ASM, n, v, nres, rt, 0);
    ct_op_set_attr(P->m, op, "asm_string", ct_attr_str(P->m, s));
    apply_attrs(P, op, a);
    return op;
}

/* tt.assert %cond ',' STRING attr-dict ':' T */
static ct_op *parse_assert(parser *P)
{
    uref u = parse_uref(P);
    expect(P, ',', "before the message");
    const char *msg = parse_string(P);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the condition type");
    ct_value *v = resolve(P, u, t);
    ct_op *op = new_op(P, CT_OP_TT_ASSERT, 1, &v, 0, NULL, 0);
    ct_op_set_attr(P->m, op, "message", ct_attr_str(P->m, msg));
    apply_attrs(P, op, a);
    return op;
}

/* tt.print STRING attr-dict (':' uref-list ':' types)? */
static ct_op *parse_print(parser *P)
{
    const char *prefix = parse_string(P);
    attrs a = parse_opt_attrs(P);
    uref *u = NULL;
    int n = 0;
    ct_value **v = NULL;
    if (accept(P, ':')) {
        n = parse_uref_list(P, &u);
        expect(P, ':', "before the operand types");
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
        for (int i = 0; i < n; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[i] = parse_type(P);
        }
        v = resolve_all(P, u, n, t);
    }
    ct_op *op = new_op(P, CT_OP_TT_PRINT, n, v, 0, NULL, 0);
    ct_op_set_attr(P->m, op, "prefix", ct_attr_str(P->m, prefix));
    apply_attrs(P, op, a);
    return op;
}

/* Concatenates operand lists. */
static uref *cat_urefs(parser *P, uref *a, int na, uref *b, int nb)
{
    uref *u = ct_arena_alloc(P->m->arena, sizeof(*u) * (size_t)(na + nb + 1));
    if (na)
        memcpy(u, a, sizeof(*u) * (size_t)na);
    if (nb)
        memcpy(u + na, b, sizeof(*u) * (size_t)nb);
    return u;
}

/* tt.make_tensor_ptr %base ',' '[' shape ']' ',' '[' strides ']' ',' '[' offsets ']'
 *   attr-dict ':' stripped-ptr-type */
static ct_op *parse_make_tensor_ptr(parser *P)
{
    uref base = parse_uref(P);
    uref *l[3];
    int n[3];
    for (int g = 0; g < 3; g++) {
        expect(P, ',', "between the operand groups of tt.make_tensor_ptr");
        n[g] = parse_bracket_list(P, &l[g]);
    }
    if (n[0] != n[1] || n[1] != n[2])
        fail(P, "tt.make_tensor_ptr needs as many shape, stride and offset operands");
    attrs a = parse_opt_attrs(P);
    skip_ws(P);
    const char *at = P->p;
    expect(P, ':', "before the result type");
    const ct_type *rt = parse_stripped(P, CT_TY_PTR);
    if (rt->kind != CT_TY_PTR || rt->elem->kind != CT_TY_TENSOR)
        fail_at(P, at, "tt.make_tensor_ptr makes a pointer to a tensor");
    int r = n[0];
    uref *u = cat_urefs(P, &base, 1, l[0], r);
    u = cat_urefs(P, u, 1 + r, l[1], r);
    u = cat_urefs(P, u, 1 + 2 * r, l[2], r);
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(1 + 3 * r));
    t[0] = ct_type_ptr(P->m, rt->elem->elem, rt->addrspace);
    for (int i = 0; i < r; i++) {
        t[1 + i] = P->i64;
        t[1 + r + i] = P->i64;
        t[1 + 2 * r + i] = P->i32;
    }
    ct_op *op = new_op(P, CT_OP_TT_MAKE_TENSOR_PTR, 1 + 3 * r, resolve_all(P, u, 1 + 3 * r, t), 1,
                       &rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.advance %ptr ',' '[' offsets ']' attr-dict ':' stripped-ptr-type */
static ct_op *parse_advance(parser *P)
{
    uref p = parse_uref(P);
    expect(P, ',', "after the pointer");
    uref *l;
    int n = parse_bracket_list(P, &l);
    attrs a = parse_opt_attrs(P);
    expect(P, ':', "before the result type");
    const ct_type *rt = parse_stripped(P, CT_TY_PTR);
    uref *u = cat_urefs(P, &p, 1, l, n);
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(1 + n));
    t[0] = rt;
    for (int i = 0; i < n; i++)
        t[1 + i] = P->i32;
    ct_op *op = new_op(P, CT_OP_TT_ADVANCE, 1 + n, resolve_all(P, u, 1 + n, t), 1, &rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* tt.make_tensor_descriptor %base ',' '[' shape ']' ',' '[' strides ']' attr-dict
 *   ':' stripped-ptr ',' stripped-desc */
static ct_op *parse_make_desc(parser *P)
{
    uref base = parse_uref(P);
    uref *l[2];
    int n[2];
    for (int g = 0; g < 2; g++) {
        expect(P, ',', "between the operand groups of tt.make_tensor_descriptor");
        n[g] = parse_bracket_list(P, &l[g]);
    }
    if (n[0] != n[1])
        fail(P, "tt.make_tensor_descriptor needs as many shape as stride operands");
    attrs a = parse_opt_attrs(P);
    expect(P, ':', "before the types");
    const ct_type *bt = parse_stripped(P, CT_TY_PTR);
    expect(P, ',', "between the types");
    const ct_type *rt = parse_stripped(P, CT_TY_TENSORDESC);
    int r = n[0];
    uref *u = cat_urefs(P, &base, 1, l[0], r);
    u = cat_urefs(P, u, 1 + r, l[1], r);
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(1 + 2 * r));
    t[0] = bt;
    for (int i = 0; i < r; i++) {
        t[1 + i] = P->i32;
        t[1 + r + i] = P->i64;
    }
    ct_op *op = new_op(P, CT_OP_TT_MAKE_TENSOR_DESC, 1 + 2 * r, resolve_all(P, u, 1 + 2 * r, t),
                       1, &rt, 0);
    apply_attrs(P, op, a);
    return op;
}

/* The descriptor ops:
 *   tt.descriptor_load %d '[' idx ']' oilist attr-dict ':' desc '->' T
 *   tt.descriptor_store %d '[' idx ']' ',' %src attr-dict ':' desc ',' T
 *   tt.descriptor_reduce KIND ',' %d '[' idx ']' ',' %src attr-dict ':' desc ',' T
 *   tt.descriptor_gather %d '[' %x ',' %y ']' attr-dict ':' fn-type
 *   tt.descriptor_scatter %d '[' %x ',' %y ']' ',' %src attr-dict ':' types */
static ct_op *parse_descriptor(parser *P, ct_opcode code)
{
    const ct_attr *kind = NULL;
    if (code == CT_OP_TT_DESCRIPTOR_REDUCE) {
        kind = enum_word(P, code, "kind");
        expect(P, ',', "after the reduction kind");
    }
    uref d = parse_uref(P);
    uref *idx;
    int n = parse_bracket_list(P, &idx);
    uref src = {0};
    bool has_src = code != CT_OP_TT_DESCRIPTOR_LOAD && code != CT_OP_TT_DESCRIPTOR_GATHER;
    if (has_src) {
        expect(P, ',', "before the source operand");
        src = parse_uref(P);
    }
    ct_op *tmp = new_op(P, code, 0, NULL, 0, NULL, 0);
    if (code == CT_OP_TT_DESCRIPTOR_LOAD)
        parse_cache_evict(P, tmp);
    attrs a = parse_opt_attrs(P);
    uref *u = cat_urefs(P, &d, 1, idx, n);
    if (has_src)
        u = cat_urefs(P, u, 1 + n, &src, 1);
    int nu = 1 + n + has_src;
    ct_op *op;
    if (code == CT_OP_TT_DESCRIPTOR_GATHER) {
        int nres;
        const ct_type **rt;
        ct_value **v = functional_operands(P, u, nu, &nres, &rt);
        op = new_op(P, code, nu, v, nres, rt, 0);
    } else if (code == CT_OP_TT_DESCRIPTOR_SCATTER) {
        expect(P, ':', "before the operand types");
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)nu);
        for (int i = 0; i < nu; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[i] = parse_type(P);
        }
        op = new_op(P, code, nu, resolve_all(P, u, nu, t), 0, NULL, 0);
    } else {
        expect(P, ':', "before the descriptor type");
        const ct_type *dt = parse_type(P);
        const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)nu);
        t[0] = dt;
        for (int i = 0; i < n; i++)
            t[1 + i] = P->i32;
        const ct_type *other;
        if (code == CT_OP_TT_DESCRIPTOR_LOAD) {
            expect_arrow(P, "before the result type");
            other = parse_type(P);
            op = new_op(P, code, nu, resolve_all(P, u, nu, t), 1, &other, 0);
        } else {
            expect(P, ',', "between the descriptor and source types");
            other = parse_type(P);
            t[1 + n] = other;
            op = new_op(P, code, nu, resolve_all(P, u, nu, t), 0, NULL, 0);
        }
    }
    for (int i = 0; i < tmp->nattrs; i++)
        ct_op_set_attr(P->m, op, tmp->attrs[i].name, tmp->attrs[i].attr);
    if (kind)
        ct_op_set_attr(P->m, op, "kind", kind);
    apply_attrs(P, op, a);
    return op;
}

/* llvm.intr.assume %c attr-dict ':' i1 */
static ct_op *parse_assume(parser *P)
{
    uref u = parse_uref(P);
    attrs a = parse_opt_attrs(P);
    const ct_type *t = type_colon(P, "before the condition type");
    ct_value *v = resolve(P, u, t);
    ct_op *op = new_op(P, CT_OP_LLVM_ASSUME, 1, &v, 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* An op without operands or results: gpu.barrier attr-dict */
static ct_op *parse_bare(parser *P, ct_opcode code)
{
    attrs a = parse_opt_attrs(P);
    ct_op *op = new_op(P, code, 0, NULL, 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
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

/* scf.for %iv '=' %lb 'to' %ub 'step' %st
 *   ('iter_args' '(' %a '=' %init (',' ...)* ')' '->' '(' types ')')?
 *   (':' type)? region attr-dict */
static ct_op *parse_for(parser *P)
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
        int nt = parse_type_list_paren(P, &it);
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

/* scf.if %c ('->' '(' types ')')? region ('else' region)? attr-dict */
static ct_op *parse_if(parser *P)
{
    uref c = parse_uref(P);
    const ct_type **rt = NULL;
    int nres = 0;
    if (accept_arrow(P))
        nres = parse_type_list_paren(P, &rt);
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

/* scf.while '(' (%a '=' %init (',' ...)*)? ')' ':' '(' types ')' '->' results
 *   region 'do' region ('attributes' dict)? */
static ct_op *parse_while(parser *P)
{
    expect(P, '(', "after scf.while");
    int n = 0, cap = 4;
    uref *args = ct_arena_alloc(P->m->arena, sizeof(*args) * (size_t)cap);
    uref *inits = ct_arena_alloc(P->m->arena, sizeof(*inits) * (size_t)cap);
    if (!accept(P, ')')) {
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

/* scf.condition '(' %c ')' attr-dict (uref-list ':' types)? */
static ct_op *parse_condition(parser *P)
{
    expect(P, '(', "after scf.condition");
    uref c = parse_uref(P);
    expect(P, ')', "after the condition");
    attrs a = parse_opt_attrs(P);
    uref *u;
    int n = parse_opt_uref_list(P, &u);
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(n + 1));
    t[0] = P->i1;
    if (n) {
        expect(P, ':', "before the operand types");
        for (int i = 0; i < n; i++) {
            if (i)
                expect(P, ',', "between operand types");
            t[1 + i] = parse_type(P);
        }
    }
    uref *all = cat_urefs(P, &c, 1, u, n);
    ct_op *op = new_op(P, CT_OP_SCF_CONDITION, 1 + n, resolve_all(P, all, 1 + n, t), 0, NULL, 0);
    apply_attrs(P, op, a);
    return op;
}

/* cf.br successor attr-dict
 * cf.cond_br %c ',' successor ',' successor attr-dict */
static ct_op *parse_branch(parser *P, ct_opcode code)
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

/* ------------------------------------------------------------------ */
/* Ops                                                                 */
/* ------------------------------------------------------------------ */

ct_op *parse_custom(parser *P, ct_opcode code, const char *at)
{
    switch (ct_op_info_of(code)->format) {
    case CT_FMT_BIN:
        return parse_same_type(P, code, 2);
    case CT_FMT_UN:
        return parse_same_type(P, code, 1);
    case CT_FMT_TERN:
        return parse_same_type(P, code, 3);
    case CT_FMT_CAST:
        return parse_conversion(P, code, false);
    case CT_FMT_ARROW:
        return parse_conversion(P, code, true);
    case CT_FMT_CUSTOM:
        break;
    }
    switch (code) {
    case CT_OP_ARITH_CONSTANT:
        return parse_constant(P);
    case CT_OP_ARITH_CMPI:
    case CT_OP_ARITH_CMPF:
        return parse_cmp(P, code);
    case CT_OP_ARITH_SELECT:
        return parse_select(P);
    case CT_OP_TT_FUNC:
        return parse_func(P);
    case CT_OP_TT_RETURN:
    case CT_OP_SCF_YIELD:
    case CT_OP_TT_MAP_ELEMENTWISE_RETURN:
        return parse_return_like(P, code);
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
        return parse_combine_return(P, code);
    case CT_OP_TT_CALL:
        return parse_call(P);
    case CT_OP_TT_GET_PROGRAM_ID:
    case CT_OP_TT_GET_NUM_PROGRAMS:
        return parse_program_query(P, code);
    case CT_OP_TT_MAKE_RANGE:
    case CT_OP_UB_POISON:
        return parse_nullary(P, code);
    case CT_OP_TT_UNSPLAT:
        return parse_unsplat(P);
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_TRANS:
        return parse_conversion(P, code, true);
    case CT_OP_TT_RESHAPE:
        return parse_reshape(P);
    case CT_OP_TT_JOIN:
    case CT_OP_TT_CAT:
    case CT_OP_TT_SPLIT:
        return parse_join_split(P, code);
    case CT_OP_TT_HISTOGRAM:
        return parse_histogram(P);
    case CT_OP_TT_GATHER:
        return parse_gather(P);
    case CT_OP_TT_ADDPTR:
        return parse_addptr(P);
    case CT_OP_TT_LOAD:
    case CT_OP_TT_STORE:
        return parse_load_store(P, code);
    case CT_OP_TT_ATOMIC_RMW:
    case CT_OP_TT_ATOMIC_CAS:
        return parse_atomic(P, code);
    case CT_OP_TT_FP_TO_FP:
        return parse_fp_to_fp(P);
    case CT_OP_TT_CLAMPF:
        return parse_clampf(P);
    case CT_OP_TT_DOT:
        return parse_dot(P);
    case CT_OP_TT_EXTERN_ELEMENTWISE:
        return parse_extern(P);
    case CT_OP_TT_INLINE_ASM:
        return parse_inline_asm(P);
    case CT_OP_TT_ASSERT:
        return parse_assert(P);
    case CT_OP_TT_PRINT:
        return parse_print(P);
    case CT_OP_TT_MAKE_TENSOR_PTR:
        return parse_make_tensor_ptr(P);
    case CT_OP_TT_ADVANCE:
        return parse_advance(P);
    case CT_OP_TT_MAKE_TENSOR_DESC:
        return parse_make_desc(P);
    case CT_OP_TT_DESCRIPTOR_LOAD:
    case CT_OP_TT_DESCRIPTOR_STORE:
    case CT_OP_TT_DESCRIPTOR_REDUCE:
    case CT_OP_TT_DESCRIPTOR_GATHER:
    case CT_OP_TT_DESCRIPTOR_SCATTER:
        return parse_descriptor(P, code);
    case CT_OP_SCF_FOR:
        return parse_for(P);
    case CT_OP_SCF_IF:
        return parse_if(P);
    case CT_OP_SCF_WHILE:
        return parse_while(P);
    case CT_OP_SCF_CONDITION:
        return parse_condition(P);
    case CT_OP_CF_BR:
    case CT_OP_CF_COND_BR:
        return parse_branch(P, code);
    case CT_OP_LLVM_ASSUME:
        return parse_assume(P);
    case CT_OP_GPU_BARRIER:
        return parse_bare(P, code);
    default:
        fail_at(P, at, "'%s' has no custom form; write it in the generic form", opname(code));
    }
}
