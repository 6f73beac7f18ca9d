/*
 * parse_op.c - values and their scopes, blocks and regions, the generic op
 * form, functions, and the op production that dispatches to the forms.
 */
#include "format_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

uref parse_uref(parser *P)
{
    skip_ws(P);
    uref u = {.at = P->p};
    if (P->p >= P->end || *P->p != '%') {
        char b[64];
        fail(P, "expected a value (%%name), found %s", found(P, b, sizeof b));
    }
    P->p++;
    u.name = parse_suffix_id(P, "a value name after '%'");
    if (P->p < P->end && *P->p == '#') {
        P->p++;
        if (P->p >= P->end || !isdigit((unsigned char)*P->p))
            fail(P, "expected a result number after '#'");
        u.resno = (int)parse_small_int(P, 0, INT_MAX, "result number");
    }
    return u;
}

/* uref-list ::= uref (',' uref)* ; a list of at least one */
int parse_uref_list(parser *P, uref **out)
{
    int n = 0, cap = 8;
    uref *u = ct_arena_alloc(P->m->arena, sizeof(*u) * (size_t)cap);
    do {
        if (n == cap) {
            uref *nu = ct_arena_alloc(P->m->arena, sizeof(*nu) * (size_t)cap * 2);
            memcpy(nu, u, sizeof(*nu) * (size_t)n);
            u = nu;
            cap *= 2;
        }
        u[n++] = parse_uref(P);
    } while (accept(P, ','));
    *out = u;
    return n;
}

/* A possibly empty uref list: present only when the next char is '%'. */
int parse_opt_uref_list(parser *P, uref **out)
{
    if (peek(P) != '%') {
        *out = NULL;
        return 0;
    }
    return parse_uref_list(P, out);
}

static ct_value *lookup(parser *P, uref u)
{
    int i = smap_get(&P->vnames, u.name);
    binding *b = i >= 0 ? &VEC_AT(P->binds, binding, i) : NULL;
    if (!b || !b->bound)
        fail_at(P, u.at, "use of undefined value %%%.*s", (int)u.name.n, u.name.s);
    if (u.resno >= b->count)
        fail_at(P, u.at, "%%%.*s has %d result%s, no #%d", (int)u.name.n, u.name.s, b->count,
                b->count == 1 ? "" : "s", u.resno);
    return &b->first[u.resno];
}

static void type_mismatch(parser *P, uref u, const ct_type *have, const ct_type *want)
    __attribute__((noreturn));
static void type_mismatch(parser *P, uref u, const ct_type *have, const ct_type *want)
{
    char a[256], b[256];
    ct_type_str(have, a, sizeof a);
    ct_type_str(want, b, sizeof b);
    fail_at(P, u.at, "%%%.*s has type %s but is used as %s", (int)u.name.n, u.name.s, a, b);
}

/* The value of u, which must have type t. */
ct_value *resolve(parser *P, uref u, const ct_type *t)
{
    ct_value *v = lookup(P, u);
    if (v->type != t)
        type_mismatch(P, u, v->type, t);
    return v;
}

ct_value **resolve_all(parser *P, const uref *u, int n, const ct_type *const *types)
{
    ct_value **v = ct_arena_alloc(P->m->arena, sizeof(*v) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        v[i] = types ? resolve(P, u[i], types[i]) : lookup(P, u[i]);
    return v;
}

ct_value **resolve_same(parser *P, const uref *u, int n, const ct_type *t)
{
    ct_value **v = ct_arena_alloc(P->m->arena, sizeof(*v) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        v[i] = resolve(P, u[i], t);
    return v;
}

static int scope_mark(parser *P)
{
    return (int)P->undo.len;
}

static void scope_pop(parser *P, int mark)
{
    while ((int)P->undo.len > mark) {
        int i = VEC_AT(P->undo, int, P->undo.len - 1);
        VEC_AT(P->binds, binding, i).bound = false;
        P->undo.len--;
    }
}

/* Binds %name to `count` values starting at `first`. */
static void bind(parser *P, span name, const char *at, ct_value *first, int count)
{
    int i = smap_get(&P->vnames, name);
    if (i >= 0 && VEC_AT(P->binds, binding, i).bound)
        fail_at(P, at, "redefinition of %%%.*s", (int)name.n, name.s);
    if (i < 0) {
        push(P, &P->binds);
        i = (int)P->binds.len - 1;
        if (!smap_put(&P->vnames, name, i))
            oom(P);
    }
    binding *b = &VEC_AT(P->binds, binding, i);
    b->name = name;
    b->first = first;
    b->count = count;
    b->bound = true;
    *(int *)push(P, &P->undo) = i;
}

/* ------------------------------------------------------------------ */
/* Ops: helpers                                                        */
/* ------------------------------------------------------------------ */

/* attr-dict? ; applied to the op once it exists */
attrs parse_opt_attrs(parser *P)
{
    attrs a = {NULL, 0, NULL};
    if (peek(P) == '{') {
        a.at = P->p;
        a.n = parse_dict_entries(P, &a.e);
    }
    return a;
}

void apply_attrs(parser *P, ct_op *op, attrs a)
{
    for (int i = 0; i < a.n; i++) {
        if (ct_op_attr(op, a.e[i].name))
            fail_at(P, a.at, "attribute '%s' given twice", a.e[i].name);
        ct_op_set_attr(P->m, op, a.e[i].name, a.e[i].attr);
    }
}

ct_op *new_op(parser *P, ct_opcode code, int nopnds, ct_value **opnds, int nres,
                     const ct_type *const *rt, int nregions)
{
    return ct_op_new(P->m, code, nopnds, opnds, nres, rt, nregions, NULL);
}

const char *opname(ct_opcode code)
{
    return ct_op_info_of(code)->name;
}

void want_count(parser *P, const uref *u, int n, int lo, int hi, ct_opcode code)
{
    if (n < lo || n > hi) {
        if (lo == hi)
            fail_at(P, n ? u[0].at : P->p, "'%s' takes %d operand%s, not %d", opname(code), lo,
                    lo == 1 ? "" : "s", n);
        fail_at(P, n ? u[0].at : P->p, "'%s' takes %d to %d operands, not %d", opname(code), lo,
                hi, n);
    }
}

const ct_type *type_colon(parser *P, const char *what)
{
    expect(P, ':', what);
    return parse_type(P);
}

/* results ::= type | '(' types ')'   (for functional types: -> T or -> (T, U)) */
int parse_results(parser *P, const ct_type ***out)
{
    if (peek(P) == '(')
        return parse_type_list_paren(P, out);
    *out = ct_arena_alloc(P->m->arena, sizeof(**out));
    (*out)[0] = parse_type(P);
    return 1;
}

/* ':' '(' operand types ')' '->' results, checked against the operands */
ct_value **functional_operands(parser *P, const uref *u, int n, int *nres,
                                      const ct_type ***rt)
{
    expect(P, ':', "before the operation's type");
    const char *at = P->p;
    const ct_type **ins;
    int nin = parse_type_list_paren(P, &ins);
    if (nin != n)
        fail_at(P, at, "%d operand types for %d operands", nin, n);
    expect_arrow(P, "in the operation's type");
    *nres = parse_results(P, rt);
    return resolve_all(P, u, n, ins);
}

/* '[' uref-list? ']' */
int parse_bracket_list(parser *P, uref **out)
{
    expect(P, '[', "");
    int n = 0;
    *out = NULL;
    if (!accept(P, ']')) {
        n = parse_uref_list(P, out);
        expect(P, ']', "to close the operand list");
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Regions and blocks                                                  */
/* ------------------------------------------------------------------ */

static ct_block *label_ref(parser *P, size_t base, span name, const char *at)
{
    for (size_t i = base; i < P->labels.len; i++) {
        label *l = &VEC_AT(P->labels, label, i);
        if (span_eq(l->name, name))
            return l->block;
    }
    label *l = push(P, &P->labels);
    l->name = name;
    l->block = ct_block_new(P->m);
    l->first_use = at;
    return l->block;
}

/* The labels of the current region start at this index of P->labels. */
static size_t label_base(parser *P)
{
    return P->nlabel_base;
}

/* A block argument: %name ':' type loc? */
static ct_value *parse_block_arg(parser *P, ct_block *b)
{
    uref u = parse_uref(P);
    if (u.resno)
        fail_at(P, u.at, "a block argument cannot have a result number");
    const ct_type *t = type_colon(P, "after a block argument");
    const ct_loc *l = parse_opt_loc(P);
    ct_value *v = ct_block_add_arg(P->m, b, t, l);
    bind(P, u.name, u.at, v, 1);
    return v;
}

/* block-label ::= '^' suffix-id ('(' block-arg (',' block-arg)* ')')? ':' */
static ct_block *parse_block_label(parser *P, ct_region *r)
{
    const char *at = P->p;
    expect(P, '^', "");
    span name = parse_suffix_id(P, "a block name after '^'");
    ct_block *b = label_ref(P, label_base(P), name, at);
    for (size_t i = label_base(P); i < P->labels.len; i++) {
        label *l = &VEC_AT(P->labels, label, i);
        if (l->block == b) {
            if (l->defined)
                fail_at(P, at, "redefinition of block ^%.*s", (int)name.n, name.s);
            l->defined = true;
        }
    }
    ct_region_append(r, b);
    if (accept(P, '(')) {
        if (!accept(P, ')')) {
            do
                parse_block_arg(P, b);
            while (accept(P, ','));
            expect(P, ')', "to close the block arguments");
        }
    }
    expect(P, ':', "after a block label");
    return b;
}

static void parse_block_ops(parser *P, ct_block *b)
{
    for (;;) {
        int c = peek(P);
        if (c == '^' || c == '}' || c == -1)
            break;
        parse_op(P, b);
    }
}

/* region ::= '{' (ops)? (block-label ops)* '}'
 * With `ea`, the entry block exists with those arguments and cannot carry a
 * label; without, an unlabeled entry block is made only if ops come first. */
void parse_region(parser *P, ct_region *r, const entry_args *ea)
{
    enter(P);
    int mark = scope_mark(P);
    size_t saved_base = P->nlabel_base;
    size_t branch_base = P->branches.len;
    P->nlabel_base = P->labels.len;
    expect(P, '{', "to open a region");
    ct_block *entry = NULL;
    if (ea) {
        entry = ct_block_new(P->m);
        ct_region_append(r, entry);
        for (int i = 0; i < ea->n; i++) {
            ct_value *v = ct_block_add_arg(P->m, entry, ea->types[i], ea->locs ? ea->locs[i] : NULL);
            if (ea->names)
                bind(P, ea->names[i].name, ea->names[i].at, v, 1);
        }
        if (peek(P) == '^')
            fail(P, "this region's entry block takes its arguments from the operation; it "
                    "cannot have a label");
    }
    int c = peek(P);
    if (c != '^' && c != '}') {
        if (!entry) {
            entry = ct_block_new(P->m);
            ct_region_append(r, entry);
        }
        parse_block_ops(P, entry);
    }
    while (peek(P) == '^') {
        ct_block *b = parse_block_label(P, r);
        parse_block_ops(P, b);
    }
    expect(P, '}', "to close the region");
    for (size_t i = P->nlabel_base; i < P->labels.len; i++) {
        label *l = &VEC_AT(P->labels, label, i);
        if (!l->defined)
            fail_at(P, l->first_use, "reference to undefined block ^%.*s", (int)l->name.n,
                    l->name.s);
    }
    /* branches pass their successors exactly the arguments they take: checked
     * now that every block of the region is defined */
    for (size_t i = branch_base; i < P->branches.len; i++) {
        branch *br = &VEC_AT(P->branches, branch, i);
        const ct_op *op = br->op;
        int k = op->code == CT_OP_CF_COND_BR ? 1 : 0;
        for (int j = 0; j < op->nsucc; j++) {
            const ct_block *sb = op->succ[j];
            bool ok = op->succ_nopnds[j] == sb->nargs;
            for (int a = 0; ok && a < sb->nargs; a++)
                ok = op->opnds[k + a]->type == sb->args[a]->type;
            if (!ok)
                fail_at(P, br->at, "the operands of '%s' do not match the arguments of its successor",
                        opname(op->code));
            k += op->succ_nopnds[j];
        }
    }
    P->branches.len = branch_base;
    P->labels.len = P->nlabel_base;
    P->nlabel_base = saved_base;
    scope_pop(P, mark);
    leave(P);
}

/* A successor: ^label ('(' uref-list ':' types ')')? ; returns the operand count */
int parse_successor(parser *P, ct_block **out, ct_value ***vals)
{
    skip_ws(P);
    const char *at = P->p;
    expect(P, '^', "before a successor block");
    span name = parse_suffix_id(P, "a block name");
    *out = label_ref(P, label_base(P), name, at);
    *vals = NULL;
    if (!accept(P, '('))
        return 0;
    uref *u;
    int n = parse_uref_list(P, &u);
    expect(P, ':', "before the types of successor operands");
    const ct_type **t = ct_arena_alloc(P->m->arena, sizeof(*t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (i)
            expect(P, ',', "between successor operand types");
        t[i] = parse_type(P);
    }
    expect(P, ')', "to close the successor operands");
    *vals = resolve_all(P, u, n, t);
    return n;
}

/* ------------------------------------------------------------------ */
/* Ops: the generic form                                               */
/* ------------------------------------------------------------------ */

/* Generic attributes into ctriton's conventions: enum integers become
 * their keywords, and the default-valued properties MLIR writes out in the
 * generic form (but never in the custom one) are dropped, so that the op
 * prints as Triton prints its custom form. */
static void canonicalize_generic_attrs(parser *P, ct_op *op, const char *at)
{
    int n;
    const ct_attr_spec *const *sp = ct_attr_specs_of(op->code, &n);
    for (int i = 0; i < n; i++) {
        const ct_attr_spec *s = sp[i];
        const ct_attr *a = ct_op_attr(op, s->name);
        bool spelled = false;
        for (const char *const *w = form_spelled(op->code); *w && !spelled; w++)
            spelled = !strcmp(*w, s->name);
        /* enums the custom form spells are keywords; others stay integers, as in
         * MLIR's attribute dictionaries (a load's padding) */
        if (a && s->enum_id >= 0 && a->kind == CT_ATTR_INT && spelled) {
            const char *w = ct_enum_word((ct_enum_id)s->enum_id, a->i);
            if (!w)
                fail_at(P, at, "%" PRId64 " is not a valid %s of '%s'", a->i, s->name,
                        opname(op->code));
            ct_op_set_attr_lit(P->m, op, s->name, a = ct_attr_enum_lit(P->m, w));
        }
        if (a && s->kind == CT_AK_UNIT && a->kind == CT_ATTR_BOOL) {
            if (a->i)
                ct_op_set_attr_lit(P->m, op, s->name, ct_attr_unit(P->m));
            else
                ct_op_remove_attr(op, s->name);
        } else if (a && (s->flags & CT_AF_DROP) && ct_attr_is_default(s, a)) {
            ct_op_remove_attr(op, s->name);
        } else if (!a && (s->flags & CT_AF_KEEP) && s->enum_id >= 0) {
            ct_op_set_attr_lit(P->m, op, s->name, ct_attr_enum_lit(P->m, s->dflt));
        }
    }
    /* operand segments are implied by the operand count in ctriton's IR: optional
     * operands are filled in order, so one cannot be left out before another */
    const ct_attr *a = ct_op_attr(op, "operandSegmentSizes");
    if (a && op->code != CT_OP_CF_COND_BR) {
        int64_t sum = 0;
        for (int i = 0; a->kind == CT_ATTR_DENSE_ARRAY && i < a->n; i++)
            sum += a->ivals[i];
        if (a->kind != CT_ATTR_DENSE_ARRAY || sum != op->nopnds)
            fail_at(P, at, "operandSegmentSizes does not match the operands");
        const ct_op_sig *g = ct_op_sig_of(op->code);
        bool gap = false;
        for (int i = 0; i < a->n && i < g->nopnd_segs; i++) {
            if (g->opnd[i].kind != CT_SEG_OPT)
                continue;
            if (a->ivals[i] && gap)
                fail_at(P, at, "'%s' with operand `%s` but not the optional ones before it "
                        "cannot be represented", opname(op->code), g->opnd[i].name);
            gap |= a->ivals[i] == 0;
        }
        ct_op_remove_attr(op, "operandSegmentSizes");
    }
}

/* generic-op ::= string '(' uref-list? ')' ('[' successors ']')? ('<' dict '>')?
 *                ('(' region (',' region)* ')')? dict? ':' function-type */
static ct_op *parse_generic(parser *P, const char *at)
{
    skip_ws(P);
    const char *nat = P->p;
    const char *name = parse_string(P);
    int code = smap_get(&P->opnames, (span){name, strlen(name)});
    if (code < 0)
        fail_at(P, nat, "unknown operation '%s'", name);
    if (code == CT_OP_TT_FUNC)
        fail_at(P, nat, "tt.func in generic form is not supported");
    expect(P, '(', "to open the operands");
    uref *u = NULL;
    int n = 0;
    if (!accept(P, ')')) {
        n = parse_uref_list(P, &u);
        expect(P, ')', "to close the operands");
    }
    int ns = 0;
    ct_block *succ[2];
    if (accept(P, '[')) {
        do {
            skip_ws(P);
            const char *sat = P->p;
            expect(P, '^', "before a successor");
            span sn = parse_suffix_id(P, "a block name");
            if (ns == 2)
                fail_at(P, sat, "too many successors");
            succ[ns++] = label_ref(P, label_base(P), sn, sat);
        } while (accept(P, ','));
        expect(P, ']', "to close the successors");
    }
    ct_named_attr *props = NULL;
    int nprops = 0;
    if (accept(P, '<')) {
        nprops = parse_dict_entries(P, &props);
        expect(P, '>', "to close the properties");
    }
    int nreg = 0, rcap = 2;
    ct_region *regs = ct_arena_alloc(P->m->arena, sizeof(*regs) * (size_t)rcap);
    if (peek(P) == '(' && peek2(P) == '{') {
        P->p++;
        do {
            if (nreg == rcap) {
                ct_region *nr = ct_arena_alloc(P->m->arena, sizeof(*nr) * (size_t)rcap * 2);
                memcpy(nr, regs, sizeof(*nr) * (size_t)nreg);
                regs = nr;
                rcap *= 2;
            }
            parse_region(P, &regs[nreg++], NULL);
        } while (accept(P, ','));
        expect(P, ')', "to close the regions");
    }
    attrs a = parse_opt_attrs(P);
    expect(P, ':', "before the operation's type");
    const char *tat = P->p;
    const ct_type *ft = parse_type(P);
    if (ft->kind != CT_TY_FUNC)
        fail_at(P, tat, "the generic form needs a function type");
    if (ft->nin != n)
        fail_at(P, tat, "%d operand types for %d operands", ft->nin, n);
    ct_op *op = new_op(P, (ct_opcode)code, n, resolve_all(P, u, n, ft->ins), ft->nout, ft->outs,
                       nreg);
    for (int i = 0; i < nreg; i++) {
        op->regions[i].first = regs[i].first;
        op->regions[i].last = regs[i].last;
        for (ct_block *b = regs[i].first; b; b = b->next)
            b->parent = &op->regions[i];
    }
    for (int i = 0; i < nprops; i++) {
        if (ct_op_attr(op, props[i].name))
            fail_at(P, at, "property '%s' given twice", props[i].name);
        ct_op_set_attr(P->m, op, props[i].name, props[i].attr);
    }
    apply_attrs(P, op, a);
    if (ns) {
        int cnt[2] = {n, 0};
        if (code == CT_OP_CF_COND_BR) {
            const ct_attr *seg = ct_op_attr(op, "operandSegmentSizes");
            if (!seg || seg->kind != CT_ATTR_DENSE_ARRAY || seg->n != 3 || seg->ivals[0] != 1 ||
                seg->ivals[1] < 0 || seg->ivals[2] < 0 || seg->ivals[1] + seg->ivals[2] + 1 != n)
                fail_at(P, at, "cf.cond_br in generic form needs operandSegmentSizes");
            cnt[0] = (int)seg->ivals[1];
            cnt[1] = (int)seg->ivals[2];
            ct_op_remove_attr(op, "operandSegmentSizes");
        } else if (code != CT_OP_CF_BR) {
            fail_at(P, at, "'%s' has no successors", name);
        }
        ct_op_set_successors(P->m, op, ns, succ, cnt);
    }
    canonicalize_generic_attrs(P, op, at);
    return op;
}

/* ------------------------------------------------------------------ */
/* Functions                                                           */
/* ------------------------------------------------------------------ */


/* op ::= (result (',' result)* '=')? (generic-op | bare-id custom-op) trailing-loc?
 * result ::= '%' suffix-id (':' count)? */
void parse_op(parser *P, ct_block *blk)
{
    skip_ws(P);
    const char *at = P->p;
    enter(P);
    struct rname {
        span name;
        int count;
        const char *at;
    } rn[16];
    int nrn = 0, total = 0;
    if (peek(P) == '%') {
        do {
            uref u = parse_uref(P);
            if (u.resno)
                fail_at(P, u.at, "a result name cannot have a result number");
            if (nrn == 16)
                fail_at(P, u.at, "too many result names");
            rn[nrn].name = u.name;
            rn[nrn].at = u.at;
            rn[nrn].count = 1;
            if (P->p < P->end && *P->p == ':' && !(P->end - P->p >= 2 && P->p[1] == ':')) {
                P->p++;
                rn[nrn].count = (int)parse_small_int(P, 1, 1 << 20, "result count");
            }
            total += rn[nrn].count;
            nrn++;
        } while (accept(P, ','));
        expect(P, '=', "after the result names");
    }
    ct_op *op;
    const char *oat;
    skip_ws(P);
    oat = P->p;
    if (peek(P) == '"') {
        op = parse_generic(P, oat);
    } else {
        span id = parse_id(P, "an operation");
        int code = smap_get(&P->opnames, id);
        if (code < 0)
            fail_at(P, oat, "unknown operation '%.*s'", (int)id.n, id.s);
        if (code == CT_OP_TT_FUNC && blk != P->m->body)
            fail_at(P, oat, "tt.func must be at the top level of the module");
        op = form_parse(P, (ct_opcode)code, oat);
    }
    if (op->code != CT_OP_TT_FUNC && blk == P->m->body)
        fail_at(P, oat, "only tt.func can be at the top level of the module");
    const ct_loc *l = parse_opt_loc(P);
    if (l)
        op->loc = l;
    /* results need not be named (MLIR's parser binds none then) */
    if (nrn && total != op->nres)
        fail_at(P, at, "'%s' has %d result%s but %d %s named", opname(op->code), op->nres,
                op->nres == 1 ? "" : "s", total, total == 1 ? "is" : "are");
    record_position(P, op, oat);
    rel_op(P, op, oat);
    if (ct_block_terminator(blk))
        fail_at(P, oat, "an operation after the terminator of its block");
    if (op->nsucc) {
        branch *br = push(P, &P->branches);
        br->op = op;
        br->at = oat;
    }
    int k = 0;
    for (int i = 0; i < nrn; i++) {
        bind(P, rn[i].name, rn[i].at, &op->res[k], rn[i].count);
        k += rn[i].count;
    }
    ct_block_append(blk, op);
    leave(P);
}
