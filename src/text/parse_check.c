/*
 * parse_check.c - what a parsed op must look like before the later layers
 * read it: counts, attributes, regions and their terminators.
 */
#include "parse_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Structure checks                                                    */
/* ------------------------------------------------------------------ */

/* What an op must look like for the printer, normalizer and emulator to
 * rely on it: counts of operands, results and regions, the attributes
 * they read, the shape of regions and the terminators that end them.  The
 * custom forms cannot produce most of these errors; the generic form can. */

/* v[off..off+n) have the types t[0..nt) (v may be NULL when n is 0) */
static bool types_match(ct_value *const *v, int off, int n, const ct_type *const *t, int nt)
{
    if (n != nt)
        return false;
    for (int i = 0; i < n; i++)
        if (v[off + i]->type != t[i])
            return false;
    return true;
}

static const ct_type **result_types(parser *P, const ct_op *op)
{
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(op->nres + 1));
    for (int i = 0; i < op->nres; i++)
        t[i] = op->res[i].type;
    return t;
}

static const ct_type **value_types(parser *P, ct_value *const *v, int n)
{
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        t[i] = v[i]->type;
    return t;
}

/* A single-block region ending in `term` whose operands have types t[0..n). */
static void check_body(parser *P, const ct_op *op, const ct_region *r, const char *what,
                       ct_opcode term, int skip, const ct_type *const *t, int n, const char *at)
{
    if (!r->first || r->first != r->last)
        fail_at(P, at, "the %s region of '%s' must have one block", what, opname(op->code));
    const ct_op *last = r->first->last;
    if (!last || last->code != term)
        fail_at(P, at, "the %s region of '%s' must end with '%s'", what, opname(op->code),
                opname(term));
    if (!types_match(last->opnds, skip, last->nopnds - skip, t, n))
        fail_at(P, at, "'%s' in the %s region of '%s' does not match its types", opname(term),
                what, opname(op->code));
}

static bool attr_is(const ct_op *op, const char *name, ct_attr_kind k)
{
    const ct_attr *a = ct_op_attr(op, name);
    return a && a->kind == k;
}

static void need_attr(parser *P, const ct_op *op, const char *name, ct_attr_kind k, const char *at)
{
    if (!attr_is(op, name, k))
        fail_at(P, at, "'%s' needs the attribute '%s'", opname(op->code), name);
}

void check_op(parser *P, ct_op *op, const char *at)
{
    const ct_op_info *info = ct_op_info_of(op->code);
    int lo = 0, hi = INT_MAX, rlo = 0, rhi = 0, nreg = 0;
    switch (info->format) {
    case CT_FMT_BIN:
        lo = hi = 2, rlo = rhi = 1;
        break;
    case CT_FMT_UN:
    case CT_FMT_CAST:
    case CT_FMT_ARROW:
        lo = hi = 1, rlo = rhi = 1;
        break;
    case CT_FMT_TERN:
        lo = hi = 3, rlo = rhi = 1;
        break;
    case CT_FMT_CUSTOM:
        break;
    }
    switch (op->code) {
    case CT_OP_ARITH_CONSTANT:
        lo = hi = 0, rlo = rhi = 1;
        if (!ct_op_attr(op, "value"))
            fail_at(P, at, "arith.constant needs a value");
        break;
    case CT_OP_ARITH_CMPI:
    case CT_OP_ARITH_CMPF:
        lo = hi = 2, rlo = rhi = 1;
        need_attr(P, op, "predicate", CT_ATTR_ENUM, at);
        break;
    case CT_OP_ARITH_SELECT:
    case CT_OP_TT_CLAMPF:
    case CT_OP_TT_DOT:
        lo = hi = 3, rlo = rhi = 1;
        if (op->code == CT_OP_TT_CLAMPF)
            need_attr(P, op, "propagateNan", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_FUNC:
        lo = hi = 0, nreg = 1;
        need_attr(P, op, "sym_name", CT_ATTR_STR, at);
        need_attr(P, op, "function_type", CT_ATTR_TYPE, at);
        if (ct_func_type(op)->kind != CT_TY_FUNC)
            fail_at(P, at, "the type of a function must be a function type");
        break;
    case CT_OP_TT_RETURN:
    case CT_OP_SCF_YIELD:
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
    case CT_OP_TT_MAP_ELEMENTWISE_RETURN:
    case CT_OP_TT_PRINT:
        break;
    case CT_OP_TT_CALL:
        rhi = INT_MAX;
        need_attr(P, op, "callee", CT_ATTR_SYMREF, at);
        break;
    case CT_OP_TT_GET_PROGRAM_ID:
    case CT_OP_TT_GET_NUM_PROGRAMS:
        lo = hi = 0, rlo = rhi = 1;
        need_attr(P, op, "axis", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_MAKE_RANGE:
        lo = hi = 0, rlo = rhi = 1;
        need_attr(P, op, "start", CT_ATTR_INT, at);
        need_attr(P, op, "end", CT_ATTR_INT, at);
        break;
    case CT_OP_UB_POISON:
        lo = hi = 0, rlo = rhi = 1;
        break;
    case CT_OP_TT_UNSPLAT:
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_RESHAPE:
    case CT_OP_TT_TRANS:
    case CT_OP_TT_FP_TO_FP:
        lo = hi = 1, rlo = rhi = 1;
        break;
    case CT_OP_TT_JOIN:
    case CT_OP_TT_CAT:
    case CT_OP_TT_GATHER:
    case CT_OP_TT_ADDPTR:
        lo = hi = 2, rlo = rhi = 1;
        break;
    case CT_OP_TT_SPLIT:
        lo = hi = 1, rlo = rhi = 2;
        break;
    case CT_OP_TT_HISTOGRAM:
        lo = 1, hi = 2, rlo = rhi = 1;
        break;
    case CT_OP_TT_LOAD:
        lo = 1, hi = 3, rlo = rhi = 1;
        break;
    case CT_OP_TT_STORE:
        lo = 2, hi = 3;
        break;
    case CT_OP_TT_ATOMIC_RMW:
        lo = 2, hi = 3, rlo = rhi = 1;
        need_attr(P, op, "atomic_rmw_op", CT_ATTR_ENUM, at);
        need_attr(P, op, "sem", CT_ATTR_ENUM, at);
        need_attr(P, op, "scope", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_ATOMIC_CAS:
        lo = hi = 3, rlo = rhi = 1;
        need_attr(P, op, "sem", CT_ATTR_ENUM, at);
        need_attr(P, op, "scope", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_REDUCE:
    case CT_OP_TT_SCAN:
        lo = 1, rlo = 1, rhi = INT_MAX, nreg = 1;
        if (op->nres != op->nopnds)
            fail_at(P, at, "'%s' has as many results as operands", info->name);
        need_attr(P, op, "axis", CT_ATTR_INT, at);
        break;
    case CT_OP_TT_MAP_ELEMENTWISE:
        rhi = INT_MAX, nreg = 1;
        break;
    case CT_OP_TT_EXTERN_ELEMENTWISE:
        rlo = rhi = 1;
        break;
    case CT_OP_TT_INLINE_ASM:
        rhi = INT_MAX;
        need_attr(P, op, "asm_string", CT_ATTR_STR, at);
        break;
    case CT_OP_TT_ASSERT:
        lo = hi = 1;
        need_attr(P, op, "message", CT_ATTR_STR, at);
        break;
    case CT_OP_TT_MAKE_TENSOR_PTR:
        lo = 4, rlo = rhi = 1;
        if ((op->nopnds - 1) % 3)
            fail_at(P, at, "tt.make_tensor_ptr takes a base and three lists of one length");
        break;
    case CT_OP_TT_MAKE_TENSOR_DESC:
        lo = 3, rlo = rhi = 1;
        if ((op->nopnds - 1) % 2)
            fail_at(P, at, "tt.make_tensor_descriptor takes a base and two lists of one length");
        break;
    case CT_OP_TT_ADVANCE:
    case CT_OP_TT_DESCRIPTOR_LOAD:
        lo = 1, rlo = rhi = 1;
        break;
    case CT_OP_TT_DESCRIPTOR_STORE:
    case CT_OP_TT_DESCRIPTOR_REDUCE:
        lo = 2;
        if (op->code == CT_OP_TT_DESCRIPTOR_REDUCE)
            need_attr(P, op, "kind", CT_ATTR_ENUM, at);
        break;
    case CT_OP_TT_DESCRIPTOR_GATHER:
        lo = hi = 3, rlo = rhi = 1;
        break;
    case CT_OP_TT_DESCRIPTOR_SCATTER:
        lo = hi = 4;
        break;
    case CT_OP_SCF_FOR:
        lo = 3, rhi = INT_MAX, nreg = 1;
        if (op->nres != op->nopnds - 3)
            fail_at(P, at, "scf.for has one result per iter_arg");
        break;
    case CT_OP_SCF_IF:
        lo = hi = 1, rhi = INT_MAX, nreg = 2;
        break;
    case CT_OP_SCF_WHILE:
        rhi = INT_MAX, nreg = 2;
        break;
    case CT_OP_SCF_CONDITION:
        lo = 1;
        break;
    case CT_OP_CF_BR:
    case CT_OP_CF_COND_BR:
        break;
    case CT_OP_LLVM_ASSUME:
        lo = hi = 1;
        break;
    case CT_OP_GPU_BARRIER:
        lo = hi = 0;
        break;
    default:
        break;
    }
    if (op->nopnds < lo || op->nopnds > hi)
        fail_at(P, at, "'%s' does not take %d operand%s", info->name, op->nopnds,
                op->nopnds == 1 ? "" : "s");
    if (op->nres < rlo || op->nres > rhi)
        fail_at(P, at, "'%s' does not have %d result%s", info->name, op->nres,
                op->nres == 1 ? "" : "s");
    if (op->nregions != nreg)
        fail_at(P, at, "'%s' does not have %d region%s", info->name, op->nregions,
                op->nregions == 1 ? "" : "s");
    int nsucc = op->code == CT_OP_CF_BR ? 1 : op->code == CT_OP_CF_COND_BR ? 2 : 0;
    if (op->nsucc != nsucc)
        fail_at(P, at, "'%s' needs %d successor%s", info->name, nsucc, nsucc == 1 ? "" : "s");
    if (nsucc && op->code == CT_OP_CF_COND_BR && op->opnds[0]->type != P->i1)
        fail_at(P, at, "cf.cond_br needs an i1 condition");
    /* successor arguments are checked when the region ends (check_branches):
     * the blocks may not be defined yet */
    const ct_type **rt = result_types(P, op);
    switch (op->code) {
    case CT_OP_TT_FUNC: {
        const ct_type *ft = ct_func_type(op);
        ct_block *e = ct_func_entry(op);
        if (!e)
            break;
        if (!types_match(e->args, 0, e->nargs, ft->ins, ft->nin))
            fail_at(P, at, "the entry block of a function takes its arguments");
        for (ct_block *b = e; b; b = b->next) {
            const ct_op *t = b->last;
            if (!t || !(t->code == CT_OP_TT_RETURN || t->code == CT_OP_CF_BR ||
                        t->code == CT_OP_CF_COND_BR))
                fail_at(P, at, "every block of a function must end with tt.return or a branch");
            if (t->code == CT_OP_TT_RETURN && !types_match(t->opnds, 0, t->nopnds, ft->outs, ft->nout))
                fail_at(P, at, "tt.return does not match the function's result types");
        }
        break;
    }
    case CT_OP_SCF_FOR: {
        const ct_region *r = &op->regions[0];
        if (!r->first || r->first->nargs != op->nopnds - 2 || r->first->args[0]->type != op->opnds[0]->type)
            fail_at(P, at, "malformed scf.for body");
        if (!types_match(op->opnds, 3, op->nopnds - 3, rt, op->nres) ||
            !types_match(r->first->args, 1, r->first->nargs - 1, rt, op->nres))
            fail_at(P, at, "scf.for iter_args do not match its results");
        if (op->opnds[0]->type != op->opnds[1]->type || op->opnds[0]->type != op->opnds[2]->type)
            fail_at(P, at, "scf.for bounds and step must have one type");
        check_body(P, op, r, "body", CT_OP_SCF_YIELD, 0, rt, op->nres, at);
        break;
    }
    case CT_OP_SCF_IF:
        if (op->opnds[0]->type != P->i1)
            fail_at(P, at, "scf.if needs an i1 condition");
        check_body(P, op, &op->regions[0], "then", CT_OP_SCF_YIELD, 0, rt, op->nres, at);
        if (op->regions[1].first || op->nres)
            check_body(P, op, &op->regions[1], "else", CT_OP_SCF_YIELD, 0, rt, op->nres, at);
        break;
    case CT_OP_SCF_WHILE: {
        const ct_type **it = value_types(P, op->opnds, op->nopnds);
        const ct_region *b = &op->regions[0], *a = &op->regions[1];
        if (!b->first || !types_match(b->first->args, 0, b->first->nargs, it, op->nopnds))
            fail_at(P, at, "the before region of scf.while takes its operands");
        if (!a->first || !types_match(a->first->args, 0, a->first->nargs, rt, op->nres))
            fail_at(P, at, "the after region of scf.while takes its results");
        check_body(P, op, b, "before", CT_OP_SCF_CONDITION, 1, rt, op->nres, at);
        if (b->first->last->opnds[0]->type != P->i1)
            fail_at(P, at, "scf.condition needs an i1 condition");
        check_body(P, op, a, "after", CT_OP_SCF_YIELD, 0, it, op->nopnds, at);
        break;
    }
    case CT_OP_TT_REDUCE:
    case CT_OP_TT_SCAN: {
        const ct_region *r = &op->regions[0];
        ct_opcode term = op->code == CT_OP_TT_REDUCE ? CT_OP_TT_REDUCE_RETURN : CT_OP_TT_SCAN_RETURN;
        if (!r->first || r->first->nargs != 2 * op->nopnds)
            fail_at(P, at, "the combine region of '%s' takes two arguments per operand",
                    info->name);
        for (const ct_block *b = r->first; b; b = b->next) {
            const ct_op *t = b->last;
            if (!t || (t->code != term && t->code != CT_OP_CF_BR && t->code != CT_OP_CF_COND_BR))
                fail_at(P, at, "the combine region of '%s' must end with '%s'", info->name,
                        opname(term));
            if (t->code == term && t->nopnds != op->nopnds)
                fail_at(P, at, "'%s' returns one value per operand", opname(term));
        }
        break;
    }
    case CT_OP_TT_MAP_ELEMENTWISE: {
        const ct_region *r = &op->regions[0];
        if (!r->first)
            fail_at(P, at, "tt.map_elementwise needs a body");
        for (const ct_block *b = r->first; b; b = b->next) {
            const ct_op *t = b->last;
            if (!t || (t->code != CT_OP_TT_MAP_ELEMENTWISE_RETURN && t->code != CT_OP_CF_BR &&
                       t->code != CT_OP_CF_COND_BR))
                fail_at(P, at, "tt.map_elementwise's body must end with its return");
        }
        break;
    }
    default:
        break;
    }
}
