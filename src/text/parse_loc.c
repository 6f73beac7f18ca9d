/*
 * parse_loc.c - locations (file, name, callsite, fused) and #loc aliases.
 */
#include "parse_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Locations                                                           */
/* ------------------------------------------------------------------ */

static ct_loc *new_loc(parser *P, ct_loc_kind k)
{
    ct_loc *l = ct_arena_alloc(P->m->arena, sizeof *l);
    l->kind = k;
    return l;
}

/* A use of #name: the alias's struct, created empty if not defined yet. */
static const ct_loc *alias_use(parser *P, span name, const char *at)
{
    int i = smap_get(&P->anames, name);
    if (i < 0) {
        alias *a = push(P, &P->aliases);
        a->name = name;
        a->loc = new_loc(P, CT_LOC_UNKNOWN);
        a->first_use = at;
        i = (int)P->aliases.len - 1;
        if (!smap_put(&P->anames, name, i))
            oom(P);
    }
    P->last_alias = i;
    return VEC_AT(P->aliases, alias, i).loc;
}

static const ct_loc *parse_loc_inner(parser *P);

/* loc-ref ::= '#' alias-name | loc-inner */
static const ct_loc *parse_loc_ref(parser *P)
{
    if (peek(P) == '#') {
        const char *at = P->p++;
        span name = parse_suffix_id(P, "a location alias name after '#'");
        return alias_use(P, name, at);
    }
    return parse_loc_inner(P);
}

/* loc-inner ::= 'unknown'
 *             | 'callsite' '(' loc-ref 'at' loc-ref ')'
 *             | 'fused' '[' loc-ref (',' loc-ref)* ']'
 *             | string ':' int ':' int            (file:line:col)
 *             | string ('(' loc-ref ')')?         (a name location) */
static const ct_loc *parse_loc_inner(parser *P)
{
    enter(P);
    const ct_loc *res;
    int c = peek(P);
    if (c == '"') {
        char *s = parse_string(P);
        if (accept(P, ':')) {
            ct_loc *l = new_loc(P, CT_LOC_FILE);
            /* most locations of a file name one file: share the string */
            if (P->last_file && !strcmp(P->last_file, s))
                s = (char *)P->last_file;
            P->last_file = s;
            l->file = s;
            l->line = (int)parse_small_int(P, 0, INT_MAX, "line number");
            expect(P, ':', "between line and column");
            l->col = (int)parse_small_int(P, 0, INT_MAX, "column number");
            if (peek_kw(P, "to"))
                fail(P, "location ranges are not supported");
            res = l;
        } else {
            ct_loc *l = new_loc(P, CT_LOC_NAME);
            l->name = s;
            if (accept(P, '(')) {
                l->child = parse_loc_ref(P);
                expect(P, ')', "to close a name location");
            } else {
                l->child = new_loc(P, CT_LOC_UNKNOWN);
            }
            res = l;
        }
    } else if (accept_kw(P, "unknown")) {
        res = new_loc(P, CT_LOC_UNKNOWN);
    } else if (accept_kw(P, "callsite")) {
        ct_loc *l = new_loc(P, CT_LOC_CALLSITE);
        expect(P, '(', "after 'callsite'");
        l->child = parse_loc_ref(P);
        expect_kw(P, "at", "in a callsite location");
        l->caller = parse_loc_ref(P);
        expect(P, ')', "to close a callsite location");
        res = l;
    } else if (accept_kw(P, "fused")) {
        if (peek(P) == '<')
            fail(P, "fused locations with metadata are not supported");
        expect(P, '[', "after 'fused'");
        int n = 0, cap = 4;
        const ct_loc **arr = ct_arena_alloc(P->m->arena, sizeof(*arr) * (size_t)cap);
        do {
            if (n == cap) {
                const ct_loc **na = ct_arena_alloc(P->m->arena, sizeof(*na) * (size_t)cap * 2);
                memcpy(na, arr, sizeof(*na) * (size_t)n);
                arr = na;
                cap *= 2;
            }
            arr[n++] = parse_loc_ref(P);
        } while (accept(P, ','));
        expect(P, ']', "to close a fused location");
        ct_loc *l = new_loc(P, CT_LOC_FUSED);
        l->nfused = n;
        l->fused = arr;
        res = l;
    } else {
        char b[64];
        fail(P, "expected a location, found %s", found(P, b, sizeof b));
    }
    leave(P);
    return res;
}

/* loc ::= 'loc' '(' loc-ref ')' */
static const ct_loc *parse_loc(parser *P)
{
    expect_kw(P, "loc", "");
    expect(P, '(', "after 'loc'");
    const ct_loc *l = parse_loc_ref(P);
    expect(P, ')', "to close the location");
    return l;
}

/* trailing-loc ::= loc? */
const ct_loc *parse_opt_loc(parser *P)
{
    if (peek_kw(P, "loc"))
        return parse_loc(P);
    return NULL;
}

/* alias-def ::= '#' name '=' loc   (only location aliases) */
void parse_alias_def(parser *P)
{
    const char *at = P->p;
    expect(P, '#', "");
    span name = parse_suffix_id(P, "an alias name after '#'");
    expect(P, '=', "in an alias definition");
    if (!peek_kw(P, "loc"))
        fail(P, "only location aliases are supported (TTGIR attribute aliases are not)");
    P->last_alias = -1;
    const ct_loc *l = parse_loc(P);
    int b = P->last_alias;
    int i = smap_get(&P->anames, name);
    if (i < 0) {
        alias_use(P, name, at);
        i = smap_get(&P->anames, name);
    }
    alias *a = &VEC_AT(P->aliases, alias, i);
    if (a->defined)
        fail_at(P, at, "redefinition of alias #%.*s", (int)name.n, name.s);
    a->defined = true;
    /* an alias of an alias not defined yet: its struct is filled when that one is (or the
     * chain is found to be a cycle), after the whole text (resolve_same_as) */
    if (b == i)
        fail_at(P, at, "location alias #%.*s refers to itself", (int)name.n, name.s);
    if (b >= 0 && b < (int)P->aliases.len && VEC_AT(P->aliases, alias, b).loc == l &&
        (!VEC_AT(P->aliases, alias, b).defined || VEC_AT(P->aliases, alias, b).same_as)) {
        a->same_as = b + 1;
        return;
    }
    /* fill the struct every use already points at */
    *a->loc = *l;
}

/* Fills the aliases defined as another alias defined later (#a = loc(#b), then #b = ...),
 * following each chain to its end once; a chain that comes back to itself is an error. */
static void resolve_same_as(parser *P)
{
    size_t n = P->aliases.len;
    for (size_t i = 0; i < n; i++) {
        alias *a = &VEC_AT(P->aliases, alias, i);
        if (!a->same_as)
            continue;
        /* walk to the chain's end, marking the way (state 1) */
        size_t j = i;
        while (VEC_AT(P->aliases, alias, j).same_as) {
            alias *x = &VEC_AT(P->aliases, alias, j);
            if (x->state == 1)
                fail_at(P, a->first_use, "location alias #%.*s refers to itself",
                        (int)a->name.n, a->name.s);
            x->state = 1;
            j = (size_t)x->same_as - 1;
        }
        /* copy the end back along the chain */
        const ct_loc *end = VEC_AT(P->aliases, alias, j).loc;
        for (size_t k = i; VEC_AT(P->aliases, alias, k).same_as;) {
            alias *x = &VEC_AT(P->aliases, alias, k);
            size_t next = (size_t)x->same_as - 1;
            *x->loc = *end;
            x->same_as = 0;
            x->state = 0;
            k = next;
        }
    }
}

/* After the whole text: every alias is defined, none is made of itself,
 * and none expands to a huge tree (aliases may share children, so a chain
 * of `callsite(#a at #a)` would double at each step when printed inline). */
#define MAX_LOC_NODES 100000

static int64_t loc_size(parser *P, ct_ptrmap *index, const ct_loc *l, int depth);

static void resolve_same_as(parser *P);

void check_aliases(parser *P)
{
    for (size_t i = 0; i < P->aliases.len; i++) {
        alias *a = &VEC_AT(P->aliases, alias, i);
        if (!a->defined)
            fail_at(P, a->first_use, "use of undefined location alias #%.*s", (int)a->name.n,
                    a->name.s);
    }
    if (!P->aliases.len)
        return;
    resolve_same_as(P);
    ct_ptrmap index;
    ct_pm_init(&index);
    for (size_t i = 0; i < P->aliases.len; i++)
        ct_pm_put(&index, VEC_AT(P->aliases, alias, i).loc, (void *)(intptr_t)(i + 1));
    /* the map is freed on success; on failure fail_at longjmps, so free first */
    for (size_t i = 0; i < P->aliases.len; i++) {
        alias *a = &VEC_AT(P->aliases, alias, i);
        int64_t n = loc_size(P, &index, a->loc, 0);
        if (n < 0 || n > MAX_LOC_NODES) {
            ct_pm_free(&index);
            fail_at(P, a->first_use, n < 0 ? "location alias #%.*s refers to itself"
                                           : "location alias #%.*s is too large when expanded",
                    (int)a->name.n, a->name.s);
        }
    }
    ct_pm_free(&index);
}

/* Expanded node count of a location (saturating), -1 on a cycle.  Alias
 * structs are memoized in their `size` slot through the alias table. */
static int64_t loc_size(parser *P, ct_ptrmap *index, const ct_loc *l, int depth)
{
    if (!l)
        return 0;
    if (depth > 1000) /* a chain of aliases this long is as bad as a huge tree */
        return MAX_LOC_NODES + 1;
    intptr_t ai = (intptr_t)ct_pm_get(index, l);
    alias *a = ai ? &VEC_AT(P->aliases, alias, ai - 1) : NULL;
    if (a) {
        if (a->state == 1)
            return -1;
        if (a->state == 2)
            return a->size;
        a->state = 1;
    }
    int64_t n = 1, k;
    switch (l->kind) {
    case CT_LOC_NAME:
        k = loc_size(P, index, l->child, depth + 1);
        n = k < 0 ? -1 : n + k;
        break;
    case CT_LOC_CALLSITE: {
        int64_t k1 = loc_size(P, index, l->child, depth + 1), k2 = k1 < 0 ? -1 : loc_size(P, index, l->caller, depth + 1);
        n = (k1 < 0 || k2 < 0) ? -1 : n + k1 + k2;
        break;
    }
    case CT_LOC_FUSED:
        for (int i = 0; i < l->nfused && n >= 0; i++) {
            k = loc_size(P, index, l->fused[i], depth + 1);
            n = k < 0 ? -1 : n + k;
        }
        break;
    default:
        break;
    }
    if (n > MAX_LOC_NODES)
        n = MAX_LOC_NODES + 1;
    if (a) {
        a->state = 2;
        a->size = n;
    }
    return n;
}
