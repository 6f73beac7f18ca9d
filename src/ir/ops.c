/*
 * ops.c - the op table, and the construction and editing of ops, blocks,
 * regions and modules.
 */
#include "ctriton/ir.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---- module ------------------------------------------------------- */

ct_module *ct_module_new(void)
{
    ct_arena *a = ct_arena_new();
    ct_module *m = ct_arena_alloc(a, sizeof *m);
    m->arena = a;
    m->body = ct_block_new(m);
    m->loc = ct_loc_unknown(m);
    return m;
}

void ct_module_destroy(ct_module *m)
{
    if (m)
        ct_arena_free(m->arena);
}

bool ct_module_op_position(const ct_module *m, const ct_op *op, const char **file, int *line,
                           int *col)
{
    const ct_op_positions *p = m ? m->positions : NULL;
    if (!p || !op)
        return false;
    int lo = 0, hi = p->n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (p->at[mid].op == op) {
            *file = p->file;
            *line = p->at[mid].line;
            *col = p->at[mid].col;
            return true;
        }
        if ((uintptr_t)p->at[mid].op < (uintptr_t)op)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return false;
}

/* Sets an attribute in a sorted list; `copy`: the name is copied into the
 * module, else it is kept as given (a literal). */
static void set_named(ct_module *m, int *n, int *cap, ct_named_attr **arr, const char *name,
                      const ct_attr *attr, bool copy)
{
    for (int i = 0; i < *n; i++) {
        if (ct_streq((*arr)[i].name, name)) {
            (*arr)[i].attr = attr;
            return;
        }
    }
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 2;
        ct_named_attr *na = ct_arena_alloc(m->arena, sizeof(*na) * (size_t)nc);
        if (*n)
            memcpy(na, *arr, sizeof(*na) * (size_t)*n);
        *arr = na;
        *cap = nc;
    }
    /* keep sorted by name, the order MLIR prints them in */
    int j = *n;
    while (j > 0 && strcmp((*arr)[j - 1].name, name) > 0) {
        (*arr)[j] = (*arr)[j - 1];
        j--;
    }
    (*arr)[j].name = copy ? ct_arena_strdup(m->arena, name) : name;
    (*arr)[j].attr = attr;
    (*n)++;
}

void ct_module_set_attr(ct_module *m, const char *name, const ct_attr *attr)
{
    set_named(m, &m->nattrs, &m->cattrs, &m->attrs, name, attr, true);
}

void ct_module_append_func(ct_module *m, ct_op *func)
{
    ct_block_append(m->body, func);
}

ct_op *ct_module_lookup_func(const ct_module *m, const char *name)
{
    for (ct_op *op = m->body->first; op; op = op->next) {
        if (op->code != CT_OP_TT_FUNC)
            continue;
        const char *n = ct_func_name(op);
        if (n && !strcmp(n, name))
            return op;
    }
    return NULL;
}

const char *ct_func_name(const ct_op *func)
{
    const ct_attr *a = ct_op_attr(func, "sym_name");
    return a ? a->s : NULL;
}

const ct_type *ct_func_type(const ct_op *func)
{
    const ct_attr *a = ct_op_attr(func, "function_type");
    return a ? a->type : NULL;
}

ct_block *ct_func_entry(const ct_op *func)
{
    return func->nregions ? func->regions[0].first : NULL;
}

/* ---- ops ---------------------------------------------------------- */

/* One allocation holds the op, its results, its operand array and room
 * for one attribute (in that order: the results are 16-byte aligned like
 * the op); most ops have at most one attribute. */
ct_op *ct_op_new(ct_module *m, ct_opcode code, int nopnds, ct_value *const *opnds, int nres,
                 const ct_type *const *restypes, int nregions, const ct_loc *loc)
{
    size_t head = (sizeof(ct_op) + 15) & ~(size_t)15;
    size_t res_bytes = sizeof(ct_value) * (size_t)nres;
    size_t opnd_bytes = sizeof(ct_value *) * (size_t)nopnds;
    char *mem = ct_arena_alloc(m->arena, head + res_bytes + opnd_bytes + sizeof(ct_named_attr));
    ct_op *op = (ct_op *)mem;
    op->code = code;
    op->attrs = (ct_named_attr *)(mem + head + res_bytes + opnd_bytes);
    op->cattrs = 1;
    op->nopnds = nopnds;
    if (nopnds) {
        op->opnds = (ct_value **)(mem + head + res_bytes);
        if (opnds)
            memcpy(op->opnds, opnds, sizeof(ct_value *) * (size_t)nopnds);
    }
    op->nres = nres;
    if (nres) {
        op->res = (ct_value *)(mem + head);
        for (int i = 0; i < nres; i++) {
            op->res[i].type = restypes[i];
            op->res[i].def = op;
            op->res[i].index = i;
        }
    }
    op->nregions = nregions;
    if (nregions) {
        op->regions = ct_arena_alloc(m->arena, sizeof(ct_region) * (size_t)nregions);
        for (int i = 0; i < nregions; i++)
            op->regions[i].parent = op;
    }
    op->loc = loc ? loc : ct_loc_unknown(m);
    return op;
}

void ct_op_set_successors(ct_module *m, ct_op *op, int n, ct_block *const *succ,
                          const int *counts)
{
    op->nsucc = n;
    op->succ = ct_arena_alloc(m->arena, sizeof(ct_block *) * (size_t)(n ? n : 1));
    op->succ_nopnds = ct_arena_alloc(m->arena, sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        op->succ[i] = succ[i];
        op->succ_nopnds[i] = counts ? counts[i] : 0;
    }
}

void ct_op_set_operand(ct_op *op, int i, ct_value *v)
{
    op->opnds[i] = v;
}

void ct_op_set_attr(ct_module *m, ct_op *op, const char *name, const ct_attr *attr)
{
    set_named(m, &op->nattrs, &op->cattrs, &op->attrs, name, attr, true);
}

void ct_op_set_attr_lit(ct_module *m, ct_op *op, const char *name, const ct_attr *attr)
{
    set_named(m, &op->nattrs, &op->cattrs, &op->attrs, name, attr, false);
}

const ct_attr *ct_op_attr(const ct_op *op, const char *name)
{
    for (int i = 0; i < op->nattrs; i++)
        if (ct_streq(op->attrs[i].name, name))
            return op->attrs[i].attr;
    return NULL;
}

bool ct_op_flag(const ct_op *op, const char *name)
{
    const ct_attr *a = ct_op_attr(op, name);
    return a && (a->kind == CT_ATTR_UNIT || ((a->kind == CT_ATTR_BOOL || a->kind == CT_ATTR_INT) && a->i));
}

void ct_op_remove_attr(ct_op *op, const char *name)
{
    for (int i = 0; i < op->nattrs; i++) {
        if (!strcmp(op->attrs[i].name, name)) {
            memmove(&op->attrs[i], &op->attrs[i + 1],
                    sizeof(ct_named_attr) * (size_t)(op->nattrs - i - 1));
            op->nattrs--;
            return;
        }
    }
}

ct_value *ct_op_result(const ct_op *op, int i)
{
    return &op->res[i];
}

ct_op *ct_op_parent_op(const ct_op *op)
{
    if (!op->parent || !op->parent->parent)
        return NULL;
    return op->parent->parent->parent;
}

ct_op *ct_op_parent_func(const ct_op *op)
{
    for (ct_op *p = ct_op_parent_op(op); p; p = ct_op_parent_op(p))
        if (p->code == CT_OP_TT_FUNC)
            return p;
    return NULL;
}

/* ---- blocks and regions ------------------------------------------- */

ct_block *ct_block_new(ct_module *m)
{
    return ct_arena_alloc(m->arena, sizeof(ct_block));
}

ct_value *ct_block_add_arg(ct_module *m, ct_block *b, const ct_type *t, const ct_loc *loc)
{
    if (b->nargs == b->cargs) {
        int nc = b->cargs ? b->cargs * 2 : 4;
        ct_value **na = ct_arena_alloc(m->arena, sizeof(*na) * (size_t)nc);
        if (b->nargs)
            memcpy(na, b->args, sizeof(*na) * (size_t)b->nargs);
        b->args = na;
        b->cargs = nc;
    }
    ct_value *v = ct_arena_alloc(m->arena, sizeof *v);
    v->type = t;
    v->owner = b;
    v->index = b->nargs;
    v->loc = loc ? loc : ct_loc_unknown(m);
    b->args[b->nargs++] = v;
    return v;
}

void ct_block_insert_before(ct_block *b, ct_op *before, ct_op *op)
{
    op->parent = b;
    if (!before) {
        op->prev = b->last;
        op->next = NULL;
        if (b->last)
            b->last->next = op;
        else
            b->first = op;
        b->last = op;
        return;
    }
    op->next = before;
    op->prev = before->prev;
    if (before->prev)
        before->prev->next = op;
    else
        b->first = op;
    before->prev = op;
}

void ct_block_append(ct_block *b, ct_op *op)
{
    ct_block_insert_before(b, NULL, op);
}

void ct_op_unlink(ct_op *op)
{
    ct_block *b = op->parent;
    if (!b)
        return;
    if (op->prev)
        op->prev->next = op->next;
    else
        b->first = op->next;
    if (op->next)
        op->next->prev = op->prev;
    else
        b->last = op->prev;
    op->prev = op->next = NULL;
    op->parent = NULL;
}

ct_op *ct_block_terminator(const ct_block *b)
{
    if (b->last && (ct_op_info_of(b->last->code)->flags & CT_OPF_TERM))
        return b->last;
    return NULL;
}

void ct_region_append(ct_region *r, ct_block *b)
{
    b->parent = r;
    b->next = NULL;
    b->prev = r->last;
    if (r->last)
        r->last->next = b;
    else
        r->first = b;
    r->last = b;
}

void ct_block_unlink(ct_block *b)
{
    ct_region *r = b->parent;
    if (!r)
        return;
    if (b->prev)
        b->prev->next = b->next;
    else
        r->first = b->next;
    if (b->next)
        b->next->prev = b->prev;
    else
        r->last = b->prev;
    b->prev = b->next = NULL;
    b->parent = NULL;
}

ct_region *ct_op_region(const ct_op *op, int i)
{
    return &op->regions[i];
}

bool ct_region_empty(const ct_region *r)
{
    return r->first == NULL;
}

int ct_region_nblocks(const ct_region *r)
{
    int n = 0;
    for (ct_block *b = r->first; b; b = b->next)
        n++;
    return n;
}

/* ---- walking ------------------------------------------------------ */

bool ct_walk(ct_op *op, ct_walk_fn fn, void *ud)
{
    if (!fn(op, ud))
        return false;
    for (int r = 0; r < op->nregions; r++)
        for (ct_block *b = op->regions[r].first; b; b = b->next)
            for (ct_op *o = b->first; o;) {
                ct_op *next = o->next;
                if (!ct_walk(o, fn, ud))
                    return false;
                o = next;
            }
    return true;
}

bool ct_walk_module(ct_module *m, ct_walk_fn fn, void *ud)
{
    for (ct_op *o = m->body->first; o;) {
        ct_op *next = o->next;
        if (!ct_walk(o, fn, ud))
            return false;
        o = next;
    }
    return true;
}

typedef struct repl {
    ct_value *from, *to;
} repl;

static bool repl_fn(ct_op *op, void *ud)
{
    repl *r = ud;
    for (int i = 0; i < op->nopnds; i++)
        if (op->opnds[i] == r->from)
            op->opnds[i] = r->to;
    return true;
}

void ct_replace_uses(ct_module *m, ct_op *root, ct_value *from, ct_value *to)
{
    repl r = {from, to};
    if (root)
        ct_walk(root, repl_fn, &r);
    else
        ct_walk_module(m, repl_fn, &r);
}
