/*
 * parse.c - the TTIR parser.
 *
 * Reads the MLIR text Triton 3.6 prints for a module (the raw frontend
 * output and the output of the ttir passes) into ctriton's IR: the custom
 * form of every op in the op table (the same syntax print.c writes), the
 * generic form ("tt.reduce"(...) <{...}> ({...}) : (...) -> ...), blocks and
 * regions, attributes, types and locations with their #loc aliases.
 *
 * A hand-written recursive descent over the characters (MLIR's lexing is
 * context dependent: `16x4xf32` is a shape, `%c-1_i64` a name), in the
 * style of chibicc: one function per production, its grammar in a comment
 * above it.  On the first error the parser records a diagnostic with
 * file:line:col and unwinds with longjmp to ct_parse_module, which frees
 * everything: all IR lives in the module's arena, and the parser's own
 * tables are owned by the parser struct, so nothing can leak.  Recursion is
 * bounded (MAX_DEPTH) so that hostile input cannot exhaust the stack.
 *
 * Restrictions (errors, never silent): values must be defined before they
 * are used (MLIR allows forward references across blocks; Triton never
 * prints them), and attribute or type aliases other than #loc ones (TTGIR's
 * #blocked and friends) are refused.
 *
 * The parser is split along its grammar into parse_*.c (parse_internal.h
 * lists them); this file holds the module production and the entry points.
 */
#include "parse_internal.h"
#include "util/alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/check.h"

/* ------------------------------------------------------------------ */
/* Module                                                              */
/* ------------------------------------------------------------------ */

/* resources ::= '{-#' ... '#-}' : MLIR's dialect resources (a reproducer's pass
 * pipeline, blobs) after the module.  They carry no IR: skipped, not kept. */
static void skip_resources(parser *P)
{
    const char *at = P->p;
    P->p += 2;
    if (P->p >= P->end || *P->p != '#')
        fail_at(P, at, "expected '{-#' to open the dialect resources");
    for (const char *c = P->p; c + 1 < P->end; c++)
        if (c[0] == '#' && c[1] == '-' && c + 2 < P->end && c[2] == '}') {
            P->p = c + 3;
            return;
        }
    fail_at(P, at, "dialect resources ({-# ... #-}) not closed");
}

/* file ::= alias-def* ('module' ('attributes' dict)? '{' op* '}' loc? | op*) alias-def* */
static void parse_file(parser *P)
{
    while (peek(P) == '#')
        parse_alias_def(P);
    if (accept_kw(P, "module")) {
        if (peek(P) == '@')
            fail(P, "named modules are not supported");
        if (accept_kw(P, "attributes")) {
            ct_named_attr *e;
            int n = parse_dict_entries(P, &e);
            for (int i = 0; i < n; i++)
                ct_module_set_attr(P->m, e[i].name, e[i].attr);
        }
        expect(P, '{', "to open the module");
        while (peek(P) != '}' && peek(P) != -1) {
            if (peek(P) == '^')
                fail(P, "a module has a single block");
            parse_op(P, P->m->body);
        }
        expect(P, '}', "to close the module");
        const ct_loc *l = parse_opt_loc(P);
        if (l)
            P->m->loc = l;
    } else {
        /* ops without the module wrapper, as MLIR accepts them */
        while (peek(P) != -1 && peek(P) != '#')
            parse_op(P, P->m->body);
    }
    while (peek(P) == '#')
        parse_alias_def(P);
    if (peek(P) == '{' && peek2(P) == '-')
        skip_resources(P);
    if (peek(P) != -1) {
        char b[64];
        fail(P, "unexpected %s after the module", found(P, b, sizeof b));
    }
    check_aliases(P);
}

void record_position(parser *P, const ct_op *op, const char *at)
{
    if (!ct_loc_innermost(op->loc, NULL, 0))
        ct_pm_put(&P->positions, op, (void *)at);
}

typedef struct pos_entry {
    const char *at;
    const ct_op *op;
} pos_entry;

static int by_text(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const pos_entry *)a)->at, y = (uintptr_t)((const pos_entry *)b)->at;
    return x < y ? -1 : x > y;
}

static int by_op(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const ct_op_position *)a)->op;
    uintptr_t y = (uintptr_t)((const ct_op_position *)b)->op;
    return x < y ? -1 : x > y;
}

/* The module keeps where the text had its ops without a file location (m->positions), for
 * the verifier's errors and every later layer's (lints, the emulator's faults): the recorded
 * places in text order, their lines and columns in one pass over the text, then sorted by op
 * for ct_module_op_position. */
static void keep_positions(parser *P)
{
    size_t n = P->positions.len;
    if (!n)
        return;
    pos_entry *e = ct_xmalloc(n * sizeof *e);
    size_t k = 0;
    for (size_t i = 0; i < P->positions.cap && k < n; i++)
        if (P->positions.keys[i]) {
            e[k].op = P->positions.keys[i];
            e[k].at = P->positions.vals[i];
            k++;
        }
    qsort(e, k, sizeof *e, by_text);
    ct_op_position *at = ct_arena_alloc(P->m->arena, k * sizeof *at);
    const char *c = P->src, *bol = P->src;
    int line = 1;
    for (size_t i = 0; i < k; i++) {
        for (; c < e[i].at && c < P->end; c++)
            if (*c == '\n') {
                line++;
                bol = c + 1;
            }
        at[i].op = e[i].op;
        at[i].line = line;
        at[i].col = (int)(e[i].at - bol) + 1;
    }
    ct_xfree(e);
    qsort(at, k, sizeof *at, by_op);
    ct_op_positions *ps = ct_arena_alloc(P->m->arena, sizeof *ps);
    ps->file = ct_arena_strdup(P->m->arena, P->file);
    ps->n = (int)k;
    ps->at = at;
    P->m->positions = ps;
}

static void parser_free(parser *P)
{
    ct_pm_free(&P->positions);
    smap_free(&P->vnames);
    smap_free(&P->anames);
    smap_free(&P->opnames);
    ct_xfree(P->binds.items);
    ct_xfree(P->undo.items);
    ct_xfree(P->labels.items);
    ct_xfree(P->aliases.items);
    ct_xfree(P->branches.items);
}

static ct_module *parse_text(const char *text, size_t len, const char *filename,
                             ct_diags *diags)
{
    parser *P = ct_xcalloc(1, sizeof *P);
    if (!P) {
        ct_diag_add(diags, CT_ERROR, filename, 0, 0, "out of memory");
        return NULL;
    }
    P->src = P->p = text ? text : "";
    P->end = P->src + (text ? len : 0);
    P->file = filename ? filename : "<input>";
    P->diags = diags;
    P->binds.size = sizeof(binding);
    P->undo.size = sizeof(int);
    P->labels.size = sizeof(label);
    P->aliases.size = sizeof(alias);
    P->last_alias = -1;
    P->branches.size = sizeof(branch);
    P->m = ct_module_new();
    rel_init(P);
    ct_module *volatile m = P->m;
    if (setjmp(P->fail)) {
        parser_free(P);
        ct_xfree(P);
        ct_module_destroy(m);
        return NULL;
    }
    for (int i = 0; i < CT_OP__COUNT; i++) {
        const char *n = ct_op_info_of((ct_opcode)i)->name;
        if (!smap_put(&P->opnames, (span){n, strlen(n)}, i))
            oom(P);
    }
    P->i1 = ct_type_int(P->m, 1);
    P->i32 = ct_type_int(P->m, 32);
    P->i64 = ct_type_int(P->m, 64);
    P->f64 = ct_type_float(P->m, CT_F64);
    P->index = ct_type_index(P->m);
    if (memchr(P->src, 0, (size_t)(P->end - P->src)))
        fail_at(P, memchr(P->src, 0, (size_t)(P->end - P->src)), "NUL character in the text");
    parse_file(P);
    rel_finish(P);
    keep_positions(P);
    /* the gate: nothing parsed reaches another layer unverified */
    ct_op_where w = ct_module_where(P->m);
    bool ok = ct_verify_module_at(P->m, diags, &w);
    parser_free(P);
    ct_xfree(P);
    if (!ok) {
        ct_module_destroy(m);
        return NULL;
    }
    return m;
}

/* The entry point: out of memory anywhere in the parse (or in the verifier it
 * ends with) releases what the parse allocated and is an error (util/alloc.h). */
ct_module *ct_parse_module(const char *text, size_t len, const char *filename, ct_diags *diags)
{
    ct_oom_scope s;
    ct_oom_push(&s);
    if (setjmp(s.jb)) {
        ct_oom_unwind(&s);
        ct_diag_add(diags, CT_ERROR, filename ? filename : "<input>", 0, 0, "out of memory");
        return NULL;
    }
    ct_module *m = parse_text(text, len, filename, diags);
    ct_oom_pop(&s);
    return m;
}

ct_module *ct_parse_file(const char *path, ct_diags *diags)
{
    size_t len;
    char *text = ct_read_file(path, &len);
    if (!text) {
        ct_diag_add(diags, CT_ERROR, path, 0, 0, "cannot read the file: %s",
                    errno == EFBIG ? "larger than 256 MiB" : strerror(errno));
        return NULL;
    }
    ct_module *m = ct_parse_module(text, len, path, diags);
    ct_xfree(text);
    return m;
}
