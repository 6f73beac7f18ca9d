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
#include "format_internal.h"
#include "ctriton/triton_version.h"
#include "util/alloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- blocks and regions ------------------------------------------- */

void put_block_name(printer *p, const ct_block *b)
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

void print_region(printer *p, const ct_region *r, bool entry_args, bool terminators)
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

static void print_op(printer *p, const ct_op *op)
{
    if (p->record) {
        if (p->nrec == p->caprec) {
            p->caprec = p->caprec ? p->caprec * 2 : 256;
            p->rec_op = ct_xrealloc(p->rec_op, sizeof(*p->rec_op) * (size_t)p->caprec);
            p->rec_off = ct_xrealloc(p->rec_off, sizeof(*p->rec_off) * (size_t)p->caprec);
        }
        p->rec_op[p->nrec] = op;
        p->rec_off[p->nrec++] = p->out.len;
    }
    put_results(p, op);
    form_print(p, op);
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
    p->tv = ct_module_triton(m);
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
        ct_xfree(order);
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
    const ct_op **l = ct_xcalloc((size_t)n + 1, sizeof(*l));
    /* offsets were recorded in increasing order: one pass maps them to lines */
    int line = 0;
    size_t off = 0;
    for (int k = 0; k < p.nrec; k++) {
        for (; off < p.rec_off[k]; off++)
            line += s[off] == '\n';
        if (!l[line])
            l[line] = p.rec_op[k];
    }
    ct_xfree(p.rec_op);
    ct_xfree(p.rec_off);
    *lines = l;
    *nlines = n;
    return s;
}

char *ct_print_op(const ct_op *op, unsigned flags)
{
    /* an op alone: the baseline's spellings (ct_print_module writes the module's) */
    printer p = {.flags = flags, .tv = ct_triton_baseline()};
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

