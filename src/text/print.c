/*
 * print.c - the TTIR printer.
 *
 * Writes Triton IR in the textual form MLIR (as configured by Triton 3.6)
 * prints: the custom assembly of each op, SSA names taken from name
 * locations (MLIR's printNameLocAsPrefix), constants named %c0_i32 / %cst /
 * %true, numbers for the rest, conflicts resolved with _N suffixes, block
 * labels with their predecessor comments, and MLIR's float literals.
 *
 * Naming follows MLIR's SSANameState: each region is numbered completely
 * (block labels per region from ^bb0, values and conflict suffixes from
 * counters inherited from the enclosing region) before the regions nested
 * in its ops, which all start from the counters the region ended with.
 *
 * Speed (the printer runs once per build; a matmul is 24 KB of text): the
 * names are made in the naming pass, written once into one text buffer,
 * and found when printing through the value's scratch `id` (an index into
 * the namer's array, checked against the value), so printing a value is an
 * array access and a copy; the scoped name table is chained by index and
 * allocates nothing per name.  A type's text is made once per print and
 * found through a small direct-mapped cache; the output is reserved from
 * the number of ops; numbers, names and keywords are appended without
 * printf.  Printing a module therefore writes the `id` of its values.
 *
 * The printer is split by job into print_*.c (print_internal.h lists them);
 * this file prints blocks, regions, ops and the module.
 */
#include "print_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- blocks and regions ------------------------------------------- */

static void put_block_name(printer *p, const ct_block *b)
{
    intptr_t id = (intptr_t)ct_pm_get(&p->nm.bnames, b);
    P(p, "^bb");
    ct_sb_putint(&p->out, id ? id - 1 : -1);
}

static void print_op(printer *p, const ct_op *op);

/* predecessor edges of block b, in block order of the region */
static int collect_preds(const ct_block *b, const ct_block **preds, int cap)
{
    int n = 0;
    const ct_region *r = b->parent;
    for (const ct_block *q = r ? r->first : NULL; q; q = q->next) {
        const ct_op *t = q->last;
        if (!t)
            continue;
        for (int i = 0; i < t->nsucc; i++)
            if (t->succ[i] == b && n < cap)
                preds[n++] = q;
    }
    return n;
}

static void print_block(printer *p, const ct_block *b, bool header, bool terminators)
{
    if (header) {
        nl(p);
        /* labels sit one level out from the ops of their block */
        p->out.len -= 2;
        p->out.s[p->out.len] = 0;
        put_block_name(p, b);
        if (b->nargs) {
            P(p, "(");
            for (int i = 0; i < b->nargs; i++) {
                if (i)
                    P(p, ", ");
                put_value(p, b->args[i]);
                P(p, ": ");
                put_type(p, b->args[i]->type);
                put_arg_loc(p, b->args[i]->loc);
            }
            P(p, ")");
        }
        P(p, ":");
        const ct_block *preds[64];
        int np = collect_preds(b, preds, 64);
        bool entry = b->parent && b->parent->first == b;
        if (np == 0) {
            if (!entry)
                P(p, "  // no predecessors");
        } else {
            /* MLIR's getSinglePredecessor: two edges from one block are two preds */
            if (np == 1) {
                P(p, "  // pred: ");
                put_block_name(p, preds[0]);
            } else {
                Pf(p, "  // %d preds: ", np);
                for (int i = 0; i < np; i++) {
                    if (i)
                        P(p, ", ");
                    put_block_name(p, preds[i]);
                }
            }
        }
    }
    for (const ct_op *op = b->first; op; op = op->next) {
        if (!terminators && op == b->last && (ct_op_info_of(op->code)->flags & CT_OPF_TERM))
            continue;
        nl(p);
        print_op(p, op);
    }
}

static void print_region(printer *p, const ct_region *r, bool entry_args, bool terminators)
{
    P(p, "{");
    p->indent += 2;
    if (r->first) {
        const ct_block *e = r->first;
        print_block(p, e, entry_args && e->nargs, terminators);
        for (const ct_block *b = e->next; b; b = b->next)
            print_block(p, b, true, terminators);
    }
    p->indent -= 2;
    nl(p);
    P(p, "}");
}

/* ---- ops ---------------------------------------------------------- */

static void put_results(printer *p, const ct_op *op)
{
    if (op->nres == 0)
        return;
    const vname *nm = vname_of(&p->nm, &op->res[0]);
    if (nm && nm->separate) {
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_value(p, &op->res[i]);
        }
    } else {
        if (nm)
            put_vname(p, nm);
        else
            P(p, "%<<UNKNOWN SSA VALUE>>");
        if (op->nres > 1) {
            ct_sb_putc(&p->out, ':');
            ct_sb_putint(&p->out, op->nres);
        }
    }
    P(p, " = ");
}

static const char *attr_word(const ct_op *op, const char *name, const char *dflt)
{
    const ct_attr *a = ct_op_attr(op, name);
    if (!a)
        return dflt;
    if (a->kind == CT_ATTR_ENUM || a->kind == CT_ATTR_STR)
        return a->s;
    return dflt;
}

static void print_generic(printer *p, const ct_op *op)
{
    /* "name"(operands) <{attrs}> ({regions}) : (types) -> (types) */
    put_string(p, ct_op_info_of(op->code)->name);
    P(p, "(");
    put_values(p, op->opnds, op->nopnds);
    P(p, ")");
    if (op->nattrs) {
        P(p, " <");
        put_attr_dict(p, op->attrs, op->nattrs, NULL, false);
        P(p, ">");
    }
    if (op->nregions) {
        P(p, " (");
        for (int i = 0; i < op->nregions; i++) {
            if (i)
                P(p, ", ");
            print_region(p, &op->regions[i], true, true);
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
}

static void print_func(printer *p, const ct_op *op)
{
    const ct_attr *vis = ct_op_attr(op, "sym_visibility");
    const ct_type *ft = ct_func_type(op);
    const ct_attr *argattrs = ct_op_attr(op, "arg_attrs");
    P(p, "tt.func ");
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

static void put_op_name(printer *p, const ct_op_info *info)
{
    ct_sb_putn(&p->out, info->name, info->name_len);
}

static void put_cache_evict(printer *p, const char *cache, const char *evict)
{
    if (cache) {
        P(p, " cacheModifier = ");
        P(p, cache);
    }
    if (evict) {
        P(p, " evictionPolicy = ");
        P(p, evict);
    }
}

static void print_custom(printer *p, const ct_op *op)
{
    const ct_op_info *info = ct_op_info_of(op->code);
    switch (op->code) {
    case CT_OP_ARITH_CONSTANT: {
        static const char *const el[] = {"value", NULL};
        put_op_name(p, info);
        put_op_attrs(p, op, el);
        P(p, " ");
        const ct_attr *v = ct_op_attr(op, "value");
        if (v)
            put_attr(p, v, ELIDE_NEVER);
        break;
    }
    case CT_OP_ARITH_CMPI:
    case CT_OP_ARITH_CMPF: {
        static const char *const el[] = {"predicate", NULL};
        put_op_name(p, info);
        P(p, " ");
        P(p, attr_word(op, "predicate", "?"));
        P(p, ", ");
        put_values(p, op->opnds, 2);
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    }
    case CT_OP_ARITH_SELECT:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 3);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        if (op->opnds[0]->type->kind == CT_TY_TENSOR) {
            put_type(p, op->opnds[0]->type);
            P(p, ", ");
        }
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_FUNC:
        print_func(p, op);
        break;
    case CT_OP_TT_RETURN:
    case CT_OP_SCF_YIELD:
    case CT_OP_TT_MAP_ELEMENTWISE_RETURN:
        /* attr-dict ($values^ : type($values))? */
        put_op_name(p, info);
        put_op_attrs(p, op, NULL);
        if (op->nopnds) {
            P(p, " ");
            put_values(p, op->opnds, op->nopnds);
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        }
        break;
    case CT_OP_TT_REDUCE_RETURN:
    case CT_OP_TT_SCAN_RETURN:
        /* $result attr-dict : type($result) */
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_types_of(p, op->opnds, op->nopnds);
        break;
    case CT_OP_TT_CALL: {
        static const char *const el[] = {"callee", NULL};
        put_op_name(p, info);
        P(p, " ");
        const ct_attr *c = ct_op_attr(op, "callee");
        put_symbol(p, c ? c->s : "?");
        P(p, "(");
        put_values(p, op->opnds, op->nopnds);
        P(p, ")");
        put_op_attrs(p, op, el);
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
        break;
    }
    case CT_OP_TT_GET_PROGRAM_ID:
    case CT_OP_TT_GET_NUM_PROGRAMS: {
        static const char *const el[] = {"axis", NULL};
        put_op_name(p, info);
        P(p, " ");
        P(p, attr_word(op, "axis", "x"));
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_MAKE_RANGE:
        put_op_name(p, info);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_EXPAND_DIMS:
    case CT_OP_TT_TRANS:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_RESHAPE: {
        static const char *const el[] = {"allow_reorder", "efficient_layout", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        if (ct_op_attr(op, "allow_reorder"))
            P(p, " allow_reorder");
        if (ct_op_attr(op, "efficient_layout"))
            P(p, " efficient_layout");
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_JOIN:
    case CT_OP_TT_CAT:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 2);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_SPLIT:
    case CT_OP_TT_HISTOGRAM:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_GATHER:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, "[");
        put_value(p, op->opnds[1]);
        P(p, "]");
        put_op_attrs(p, op, NULL);
        P(p, " : (");
        put_types_of(p, op->opnds, 2);
        P(p, ") -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_ADDPTR:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 2);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        P(p, ", ");
        put_type(p, op->opnds[1]->type);
        break;
    case CT_OP_TT_LOAD:
    case CT_OP_TT_STORE: {
        static const char *const el[] = {"cache", "evict", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        const char *cache = attr_word(op, "cache", NULL);
        const char *evict = attr_word(op, "evict", NULL);
        put_cache_evict(p, cache, evict);
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    }
    case CT_OP_TT_ATOMIC_RMW:
    case CT_OP_TT_ATOMIC_CAS: {
        static const char *const el[] = {"atomic_rmw_op", "sem", "scope", NULL};
        put_op_name(p, info);
        P(p, " ");
        if (op->code == CT_OP_TT_ATOMIC_RMW)
            Pf(p, "%s, ", attr_word(op, "atomic_rmw_op", "?"));
        Pf(p, "%s, %s, ", attr_word(op, "sem", "acq_rel"), attr_word(op, "scope", "gpu"));
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, el);
        P(p, " : (");
        put_types_of(p, op->opnds, op->nopnds);
        P(p, ") -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_FP_TO_FP: {
        static const char *const el[] = {"rounding", NULL};
        /* $src attr-dict (`,` `rounding` `=` $rounding^)? */
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, el);
        const char *r = attr_word(op, "rounding", NULL);
        if (r)
            Pf(p, ", rounding = %s", r);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_CLAMPF: {
        static const char *const el[] = {"propagateNan", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 3);
        Pf(p, ", propagateNan = %s", attr_word(op, "propagateNan", "none"));
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_DOT: {
        static const char *const el[] = {"inputPrecision", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, 3);
        const char *ip = attr_word(op, "inputPrecision", NULL);
        if (ip && strcmp(ip, "ieee") != 0)
            Pf(p, ", inputPrecision = %s", ip);
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, " * ");
        put_type(p, op->opnds[1]->type);
        P(p, " -> ");
        put_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_REDUCE:
    case CT_OP_TT_SCAN:
        print_generic(p, op);
        break;
    case CT_OP_TT_EXTERN_ELEMENTWISE:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : (");
        put_types_of(p, op->opnds, op->nopnds);
        P(p, ") -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_TT_INLINE_ASM: {
        static const char *const el[] = {"asm_string", NULL};
        put_op_name(p, info);
        P(p, " ");
        const ct_attr *s = ct_op_attr(op, "asm_string");
        put_string(p, s ? s->s : "");
        put_op_attrs(p, op, el);
        if (op->nopnds) {
            P(p, " ");
            put_values(p, op->opnds, op->nopnds);
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        }
        P(p, " -> ");
        for (int i = 0; i < op->nres; i++) {
            if (i)
                P(p, ", ");
            put_type(p, op->res[i].type);
        }
        break;
    }
    case CT_OP_TT_ASSERT: {
        static const char *const el[] = {"message", NULL};
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, ", ");
        const ct_attr *m = ct_op_attr(op, "message");
        put_string(p, m ? m->s : "");
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    }
    case CT_OP_TT_PRINT: {
        static const char *const el[] = {"prefix", NULL};
        put_op_name(p, info);
        P(p, " ");
        const ct_attr *m = ct_op_attr(op, "prefix");
        put_string(p, m ? m->s : "");
        put_op_attrs(p, op, el);
        if (op->nopnds) {
            P(p, " : ");
            put_values(p, op->opnds, op->nopnds);
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        }
        break;
    }
    case CT_OP_TT_MAKE_TENSOR_PTR: {
        /* $base, [shape], [strides], [offsets] attr-dict : type($result), the
         * result type stripped of its mnemonic (ODS does that for a typed result) */
        int rank = (op->nopnds - 1) / 3;
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        for (int g = 0; g < 3; g++) {
            P(p, ", [");
            put_values(p, op->opnds + 1 + g * rank, rank);
            P(p, "]");
        }
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_stripped_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_MAKE_TENSOR_DESC: {
        /* $base, [shape], [strides] attr-dict : type($base), type($result), both stripped */
        int rank = (op->nopnds - 1) / 2;
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        for (int g = 0; g < 2; g++) {
            P(p, ", [");
            put_values(p, op->opnds + 1 + g * rank, rank);
            P(p, "]");
        }
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_stripped_type(p, op->opnds[0]->type);
        P(p, ", ");
        put_stripped_type(p, op->res[0].type);
        break;
    }
    case CT_OP_TT_DESCRIPTOR_LOAD:
    case CT_OP_TT_DESCRIPTOR_STORE:
    case CT_OP_TT_DESCRIPTOR_REDUCE: {
        static const char *const el[] = {"cache", "evict", "kind", NULL};
        bool store = op->code != CT_OP_TT_DESCRIPTOR_LOAD;
        int nidx = op->nopnds - 1 - (store ? 1 : 0);
        put_op_name(p, info);
        P(p, " ");
        if (op->code == CT_OP_TT_DESCRIPTOR_REDUCE)
            Pf(p, "%s, ", attr_word(op, "kind", "?"));
        put_value(p, op->opnds[0]);
        P(p, "[");
        put_values(p, op->opnds + 1, nidx);
        P(p, "]");
        if (store) {
            P(p, ", ");
            put_value(p, op->opnds[op->nopnds - 1]);
        } else {
            const char *cache = attr_word(op, "cache", NULL);
            const char *evict = attr_word(op, "evict", NULL);
            put_cache_evict(p, cache, evict);
        }
        put_op_attrs(p, op, el);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        if (store) {
            P(p, ", ");
            put_type(p, op->opnds[op->nopnds - 1]->type);
        } else {
            P(p, " -> ");
            put_type(p, op->res[0].type);
        }
        break;
    }
    case CT_OP_TT_DESCRIPTOR_GATHER:
    case CT_OP_TT_DESCRIPTOR_SCATTER: {
        /* $desc[$x_offsets, $y_offset] (, $src)? attr-dict : functional-type | type(operands) */
        bool scatter = op->code == CT_OP_TT_DESCRIPTOR_SCATTER;
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, "[");
        put_values(p, op->opnds + 1, 2);
        P(p, "]");
        if (scatter) {
            P(p, ", ");
            put_value(p, op->opnds[3]);
        }
        put_op_attrs(p, op, NULL);
        if (scatter) {
            P(p, " : ");
            put_types_of(p, op->opnds, op->nopnds);
        } else {
            P(p, " : (");
            put_types_of(p, op->opnds, op->nopnds);
            P(p, ") -> ");
            put_type(p, op->res[0].type);
        }
        break;
    }
    case CT_OP_TT_UNSPLAT:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    case CT_OP_TT_ADVANCE:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, ", [");
        put_values(p, op->opnds + 1, op->nopnds - 1);
        P(p, "]");
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_stripped_type(p, op->res[0].type);
        break;
    case CT_OP_SCF_FOR: {
        /* scf.for %iv = %lb to %ub step %st iter_args(%a = %x) -> (T)  : i32 { */
        const ct_block *body = op->regions[0].first;
        put_op_name(p, info);
        P(p, " ");
        put_value(p, body->args[0]);
        P(p, " = ");
        put_value(p, op->opnds[0]);
        P(p, " to ");
        put_value(p, op->opnds[1]);
        P(p, " step ");
        put_value(p, op->opnds[2]);
        int ni = op->nopnds - 3;
        if (ni) {
            P(p, " iter_args(");
            for (int i = 0; i < ni; i++) {
                if (i)
                    P(p, ", ");
                put_value(p, body->args[i + 1]);
                P(p, " = ");
                put_value(p, op->opnds[3 + i]);
            }
            P(p, ") -> (");
            for (int i = 0; i < op->nres; i++) {
                if (i)
                    P(p, ", ");
                put_type(p, op->res[i].type);
            }
            P(p, ")");
        }
        if (op->opnds[0]->type->kind != CT_TY_INDEX) {
            P(p, "  : ");
            put_type(p, op->opnds[0]->type);
        }
        P(p, " ");
        print_region(p, &op->regions[0], false, ni > 0);
        put_op_attrs(p, op, NULL);
        break;
    }
    case CT_OP_SCF_IF: {
        put_op_name(p, info);
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
        break;
    }
    case CT_OP_SCF_WHILE: {
        const ct_block *before = op->regions[0].first;
        put_op_name(p, info);
        P(p, " (");
        for (int i = 0; i < op->nopnds; i++) {
            if (i)
                P(p, ", ");
            put_value(p, before->args[i]);
            P(p, " = ");
            put_value(p, op->opnds[i]);
        }
        P(p, ") : (");
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
        break;
    }
    case CT_OP_SCF_CONDITION:
        /* `(` $condition `)` attr-dict ($args^ `:` type($args))? */
        put_op_name(p, info);
        P(p, "(");
        put_value(p, op->opnds[0]);
        P(p, ")");
        put_op_attrs(p, op, NULL);
        if (op->nopnds > 1) {
            P(p, " ");
            put_values(p, op->opnds + 1, op->nopnds - 1);
            P(p, " : ");
            put_types_of(p, op->opnds + 1, op->nopnds - 1);
        }
        break;
    case CT_OP_CF_BR:
        put_op_name(p, info);
        P(p, " ");
        put_succ(p, op, 0, 0);
        break;
    case CT_OP_CF_COND_BR:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        P(p, ", ");
        put_succ(p, op, 0, 1);
        P(p, ", ");
        put_succ(p, op, 1, 1 + op->succ_nopnds[0]);
        break;
    case CT_OP_UB_POISON:
        put_op_name(p, info);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_OP_LLVM_ASSUME:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        break;
    case CT_OP_GPU_BARRIER:
        put_op_name(p, info);
        put_op_attrs(p, op, NULL);
        break;
    default:
        print_generic(p, op);
        break;
    }
}

static void print_op(printer *p, const ct_op *op)
{
    if (p->record) {
        if (p->nrec == p->caprec) {
            p->caprec = p->caprec ? p->caprec * 2 : 256;
            p->rec_op = realloc(p->rec_op, sizeof(*p->rec_op) * (size_t)p->caprec);
            p->rec_off = realloc(p->rec_off, sizeof(*p->rec_off) * (size_t)p->caprec);
        }
        p->rec_op[p->nrec] = op;
        p->rec_off[p->nrec++] = p->out.len;
    }
    const ct_op_info *info = ct_op_info_of(op->code);
    put_results(p, op);
    switch (info->format) {
    case CT_FMT_BIN:
    case CT_FMT_UN:
    case CT_FMT_TERN:
        put_op_name(p, info);
        P(p, " ");
        put_values(p, op->opnds, op->nopnds);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->res[0].type);
        break;
    case CT_FMT_CAST:
    case CT_FMT_ARROW:
        put_op_name(p, info);
        P(p, " ");
        put_value(p, op->opnds[0]);
        put_op_attrs(p, op, NULL);
        P(p, " : ");
        put_type(p, op->opnds[0]->type);
        P(p, info->format == CT_FMT_CAST ? " to " : " -> ");
        put_type(p, op->res[0].type);
        break;
    case CT_FMT_CUSTOM:
        print_custom(p, op);
        break;
    }
    if (op->code != CT_OP_TT_FUNC || true)
        put_trailing_loc(p, op->loc);
}

static void put_alias_defs(printer *p, locent **v, int n, bool deferred)
{
    for (int i = 0; i < n; i++) {
        if (v[i]->deferred != deferred)
            continue;
        put_alias(p, v[i]->loc);
        P(p, " = loc(");
        put_loc_inner(p, v[i]->loc, true);
        P(p, ")\n");
    }
}

/* Output bytes per op to reserve up front (the library's kernels print 50
 * to 60 without locations), so that the text is not copied as it grows. */
#define BYTES_PER_OP 64

static char *print_module(const ct_module *m, unsigned flags, printer *p)
{
    p->flags = flags;
    ct_sb_init(&p->out);
    namer_init(&p->nm);
    p->nm.numbered = (flags & CT_PRINT_NUMBERED) != 0;
    for (const ct_op *op = m->body->first; op; op = op->next)
        name_top_op(&p->nm, op);
    ct_sb_reserve(&p->out, (size_t)p->nm.nops * BYTES_PER_OP * ((flags & CT_PRINT_LOCS) ? 2 : 1));
    aliases al = {0};
    locent **order = NULL;
    int nalias = 0;
    if ((flags & CT_PRINT_LOCS) && (flags & CT_PRINT_LOC_ALIASES)) {
        ct_pm_init(&al.canon);
        al_visit(&al, m->loc, true);
        for (const ct_op *op = m->body->first; op; op = op->next)
            al_visit_op(&al, op);
        order = al_number(&al, &nalias);
        p->al = &al;
        put_alias_defs(p, order, nalias, false);
    }
    P(p, "module");
    if (m->nattrs) {
        P(p, " attributes");
        put_attr_dict(p, m->attrs, m->nattrs, NULL, true);
    }
    P(p, " {");
    p->indent = 2;
    for (const ct_op *op = m->body->first; op; op = op->next) {
        nl(p);
        print_op(p, op);
    }
    p->indent = 0;
    nl(p);
    P(p, "}");
    put_trailing_loc(p, m->loc);
    P(p, "\n");
    if (p->al) {
        put_alias_defs(p, order, nalias, true);
        free(order);
        al_free(&al);
        p->al = NULL;
    }
    printer_free(p);
    return ct_sb_take(&p->out);
}

char *ct_print_module(const ct_module *m, unsigned flags)
{
    printer p = {0};
    return print_module(m, flags, &p);
}

char *ct_print_module_lines(const ct_module *m, unsigned flags, const ct_op ***lines, int *nlines)
{
    printer p = {.record = true};
    char *s = print_module(m, flags, &p);
    int n = 1;
    for (const char *c = s; *c; c++)
        n += *c == '\n';
    const ct_op **l = calloc((size_t)n + 1, sizeof(*l));
    /* offsets were recorded in increasing order: one pass maps them to lines */
    int line = 0;
    size_t off = 0;
    for (int k = 0; k < p.nrec; k++) {
        for (; off < p.rec_off[k]; off++)
            line += s[off] == '\n';
        if (!l[line])
            l[line] = p.rec_op[k];
    }
    free(p.rec_op);
    free(p.rec_off);
    *lines = l;
    *nlines = n;
    return s;
}

char *ct_print_op(const ct_op *op, unsigned flags)
{
    printer p = {.flags = flags};
    ct_sb_init(&p.out);
    namer_init(&p.nm);
    p.nm.numbered = (flags & CT_PRINT_NUMBERED) != 0;
    const ct_op *top = op;
    while (ct_op_parent_op(top))
        top = ct_op_parent_op(top);
    name_top_op(&p.nm, top);
    print_op(&p, op);
    printer_free(&p);
    return ct_sb_take(&p.out);
}

const ct_loc ct_loc_name_hint = {.kind = CT_LOC_UNKNOWN};

