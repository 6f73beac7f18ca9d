/*
 * parse_internal.h - the TTIR parser's state and the helpers its files share.
 *
 * The parser (see parse.c for the overview) is split along its grammar:
 *   parse_lex.c    name tables, errors, characters, literals
 *   parse_type.c   types (the place for a Triton version's own type spellings)
 *   parse_loc.c    locations and #loc aliases
 *   parse_attr.c   attributes
 *   parse_op.c     values, blocks and regions, the generic op form, ops
 *   parse.c        the module and the entry points
 * The ops' own forms are read by format.c (the forms of ops.def) and forms.c
 * (the custom ones), shared with the printer (format_internal.h).
 * The functions shared between them carry the prefix ct_tp_ in the library
 * (the #defines below), so that it exports no generic names; the small
 * lexing helpers are inline here.
 */
#ifndef CTRITON_PARSE_INTERNAL_H
#define CTRITON_PARSE_INTERNAL_H

#include <ctype.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ctriton/text.h"
#include "text_internal.h"
#include "util/util.h"

/* nesting of productions (two per region: the op and its region), a clear limit
 * instead of a stack overflow on hostile input */
#define MAX_DEPTH 1024
#define MAX_NUMEL (INT64_C(1) << 31) /* Triton caps tensors at 2^20 elements */
#define MAX_RANK CT_MAX_RANK

/* A span of the input text: names are not copied while parsing. */
typedef struct span {
    const char *s;
    size_t n;
} span;

/* Open-addressing map from spans to small integers (indexes into a
 * parallel array kept by the user). */
typedef struct smap {
    span *keys;
    int *vals;
    size_t cap, len;
} smap;

/* A growable array of fixed-size items (malloc'd, owned by the parser). */
typedef struct vec {
    void *items;
    size_t len, cap, size;
} vec;

#define VEC_AT(v, T, i) (((T *)(v).items)[i])

/* ------------------------------------------------------------------ */
/* Parser state                                                        */
/* ------------------------------------------------------------------ */

/* What a value name stands for: `count` consecutive values starting at
 * `vals[0]` (an op's results), or one block argument. */
typedef struct binding {
    span name;
    ct_value *first;  /* results: &op->res[k]; argument: the argument */
    int count;
    bool bound;
} binding;

/* A block label of the region being parsed. */
typedef struct label {
    span name;
    ct_block *block;
    const char *first_use; /* where it was first referenced (for errors) */
    bool defined;
} label;

/* An op with successors and where it was written. */
typedef struct branch {
    const ct_op *op;
    const char *at;
} branch;

/* A #loc alias: `loc` is filled in when the definition is read; uses seen
 * before that point at the same (still empty) struct. */
typedef struct alias {
    span name;
    ct_loc *loc;
    const char *first_use;
    bool defined;
    int same_as;  /* 1 + the alias whose struct the definition named, undefined then (#a = loc(#b)) */
    int state;    /* check_aliases: 0 new, 1 on the stack, 2 done */
    int64_t size; /* check_aliases: nodes when expanded */
} alias;

typedef struct parser {
    const char *src, *p, *end;
    const char *file;
    ct_diags *diags;
    jmp_buf fail;
    int depth;
    ct_module *m;

    smap vnames;   /* value name -> index in `binds` */
    vec binds;     /* binding */
    vec undo;      /* int: bindings made in the open scopes, in order */

    vec labels;    /* label: a stack; each region parses above its base */
    size_t nlabel_base;
    vec branches;  /* branch: ops with successors, checked when their region ends */
    smap opnames;  /* op name -> opcode */

    smap anames;   /* alias name -> index in `aliases` */
    int last_alias;  /* the alias the last alias_use returned */
    vec aliases;   /* alias */

    ct_ptrmap positions; /* op -> where it was written, for ops without a file location */

    const ct_type *i1, *i32, *i64, *f64, *index;
    const char *last_file; /* the file of the last file:line:col location */

    /* the Triton releases the spellings read so far belong to (bit i: row i of
     * src/ir/triton_version.c), and the spelling that last narrowed them (release.c) */
    unsigned releases;
    char why[160];
} parser;

/* An operand as written: %name or %name#N. */
typedef struct uref {
    span name;
    int resno;
    const char *at;
} uref;

typedef struct attrs {
    ct_named_attr *e;
    int n;
    const char *at;
} attrs;

/* Arguments of an entry block declared by the op's own syntax
 * (function signature, scf.for header). */
typedef struct entry_args {
    int n;
    const ct_type **types;
    uref *names;          /* may be NULL: arguments without names */
    const ct_loc **locs;  /* may be NULL */
} entry_args;

/* ---- functions shared between the parser's files ------------------- */

/* parse_lex.c */
#define at_float_lit ct_tp_at_float_lit
bool at_float_lit(parser *P);
#define dup_span ct_tp_dup_span
char *dup_span(parser *P, span s);
#define expect ct_tp_expect
void expect(parser *P, char c, const char *context);
#define expect_arrow ct_tp_expect_arrow
void expect_arrow(parser *P, const char *context);
#define expect_kw ct_tp_expect_kw
void expect_kw(parser *P, const char *w, const char *context);
/* the line and column of a place in the text */
#define where ct_tp_where
void where(const parser *P, const char *at, int *line, int *col);
#define fail_at ct_tp_fail_at
void fail_at(parser *P, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
#define found ct_tp_found
const char *found(parser *P, char *buf, size_t cap);
#define oom ct_tp_oom
void oom(parser *P);
#define parse_float_lit ct_tp_parse_float_lit
double parse_float_lit(parser *P, ct_float_kind fk);
#define parse_id ct_tp_parse_id
span parse_id(parser *P, const char *what);
#define parse_small_int ct_tp_parse_small_int
int64_t parse_small_int(parser *P, int64_t lo, int64_t hi, const char *what);
#define parse_string ct_tp_parse_string
char *parse_string(parser *P);
#define parse_suffix_id ct_tp_parse_suffix_id
span parse_suffix_id(parser *P, const char *what);
#define parse_uint_lit ct_tp_parse_uint_lit
uint64_t parse_uint_lit(parser *P, bool *neg, bool *hex);
#define push ct_tp_push
void *push(parser *P, vec *v);
#define smap_free ct_tp_smap_free
void smap_free(smap *m);
#define smap_get ct_tp_smap_get
int smap_get(const smap *m, span k);
#define smap_put ct_tp_smap_put
bool smap_put(smap *m, span k, int v);

/* parse_type.c */
#define is_type_start ct_tp_is_type_start
bool is_type_start(parser *P);
#define parse_stripped ct_tp_parse_stripped
const ct_type *parse_stripped(parser *P, ct_type_kind kind);
#define parse_type ct_tp_parse_type
const ct_type *parse_type(parser *P);
#define parse_type_list_paren ct_tp_parse_type_list_paren
int parse_type_list_paren(parser *P, const ct_type ***out);

/* parse_loc.c */
#define check_aliases ct_tp_check_aliases
void check_aliases(parser *P);
#define parse_alias_def ct_tp_parse_alias_def
void parse_alias_def(parser *P);
#define parse_opt_loc ct_tp_parse_opt_loc
const ct_loc *parse_opt_loc(parser *P);

/* parse_attr.c */
#define parse_attr ct_tp_parse_attr
const ct_attr *parse_attr(parser *P);
#define parse_dict_entries ct_tp_parse_dict_entries
int parse_dict_entries(parser *P, ct_named_attr **out);

/* parse_op.c */
#define apply_attrs ct_tp_apply_attrs
void apply_attrs(parser *P, ct_op *op, attrs a);
#define functional_operands ct_tp_functional_operands
ct_value **functional_operands(parser *P, const uref *u, int n, int *nres,
                                      const ct_type ***rt);
#define new_op ct_tp_new_op
ct_op *new_op(parser *P, ct_opcode code, int nopnds, ct_value **opnds, int nres,
                     const ct_type *const *rt, int nregions);
#define opname ct_tp_opname
const char *opname(ct_opcode code);
#define parse_bracket_list ct_tp_parse_bracket_list
int parse_bracket_list(parser *P, uref **out);
#define record_position ct_tp_record_position
void record_position(parser *P, const ct_op *op, const char *at);
#define parse_op ct_tp_parse_op
void parse_op(parser *P, ct_block *blk);
#define parse_opt_attrs ct_tp_parse_opt_attrs
attrs parse_opt_attrs(parser *P);
#define parse_opt_uref_list ct_tp_parse_opt_uref_list
int parse_opt_uref_list(parser *P, uref **out);
#define parse_region ct_tp_parse_region
void parse_region(parser *P, ct_region *r, const entry_args *ea);
#define parse_results ct_tp_parse_results
int parse_results(parser *P, const ct_type ***out);
#define parse_successor ct_tp_parse_successor
int parse_successor(parser *P, ct_block **out, ct_value ***vals);
#define parse_uref ct_tp_parse_uref
uref parse_uref(parser *P);
#define parse_uref_list ct_tp_parse_uref_list
int parse_uref_list(parser *P, uref **out);
#define resolve ct_tp_resolve
ct_value *resolve(parser *P, uref u, const ct_type *t);
#define resolve_all ct_tp_resolve_all
ct_value **resolve_all(parser *P, const uref *u, int n, const ct_type *const *types);
#define resolve_same ct_tp_resolve_same
ct_value **resolve_same(parser *P, const uref *u, int n, const ct_type *t);
#define type_colon ct_tp_type_colon
const ct_type *type_colon(parser *P, const char *what);
#define want_count ct_tp_want_count
void want_count(parser *P, const uref *u, int n, int lo, int hi, ct_opcode code);



#define fail(P, ...) fail_at((P), (P)->p, __VA_ARGS__)

/* ---- inline helpers -------------------------------------------------- */

/* Character classes by table (ASCII only, independent of the locale):
 * 1 starts an identifier, 2 continues one, 4 continues a suffix-id
 * (%names, ^labels and #aliases also allow '-'). */
#define CC_ALPHA 7
#define CC_DIGIT 6
static const unsigned char cclass[256] = {
    ['a' ... 'z'] = CC_ALPHA, ['A' ... 'Z'] = CC_ALPHA, ['_'] = CC_ALPHA,
    ['0' ... '9'] = CC_DIGIT, ['$'] = 6, ['.'] = 6, ['-'] = 4,
};

static inline uint64_t span_hash(span k)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < k.n; i++)
        h = (h ^ (unsigned char)k.s[i]) * 1099511628211ull;
    return h;
}

static inline bool span_eq(span a, span b)
{
    return a.n == b.n && memcmp(a.s, b.s, a.n) == 0;
}

static inline void enter(parser *P)
{
    if (++P->depth > MAX_DEPTH)
        fail(P, "nesting deeper than %d levels (ctriton's limit)", MAX_DEPTH);
}

static inline void leave(parser *P)
{
    P->depth--;
}

/* Skips blanks and // comments. */
static inline void skip_ws(parser *P)
{
    for (;;) {
        while (P->p < P->end && (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r'))
            P->p++;
        if (P->end - P->p >= 2 && P->p[0] == '/' && P->p[1] == '/') {
            while (P->p < P->end && *P->p != '\n')
                P->p++;
            continue;
        }
        return;
    }
}

static inline int peek(parser *P)
{
    skip_ws(P);
    return P->p < P->end ? (unsigned char)*P->p : -1;
}

static inline int peek2(parser *P)
{
    skip_ws(P);
    return P->end - P->p >= 2 ? (unsigned char)P->p[1] : -1;
}

static inline bool id_start(int c)
{
    return c >= 0 && (cclass[c & 255] & 1);
}

static inline bool id_char(int c)
{
    return c >= 0 && (cclass[c & 255] & 2);
}

static inline bool suffix_char(int c)
{
    return c >= 0 && (cclass[c & 255] & 4);
}

static inline bool accept(parser *P, char c)
{
    if (peek(P) == (unsigned char)c) {
        P->p++;
        return true;
    }
    return false;
}

static inline bool accept_arrow(parser *P)
{
    if (peek(P) == '-' && peek2(P) == '>') {
        P->p += 2;
        return true;
    }
    return false;
}

/* A bare identifier at the cursor: [a-zA-Z_][a-zA-Z0-9_$.]* ; len 0 if none. */
static inline span peek_id(parser *P)
{
    skip_ws(P);
    span s = {P->p, 0};
    if (P->p < P->end && id_start((unsigned char)*P->p)) {
        const char *c = P->p;
        while (c < P->end && id_char((unsigned char)*c))
            c++;
        s.n = (size_t)(c - P->p);
    }
    return s;
}

static inline bool span_is(span s, const char *w)
{
    return s.n == strlen(w) && memcmp(s.s, w, s.n) == 0;
}

static inline bool peek_kw(parser *P, const char *w)
{
    return span_is(peek_id(P), w);
}

static inline bool accept_kw(parser *P, const char *w)
{
    span s = peek_id(P);
    if (!span_is(s, w))
        return false;
    P->p += s.n;
    return true;
}

/* ---- the spellings of each Triton release (release.c) ------------------------------ */

typedef enum rel_spelling {
    REL_DESC_WRAPPED,  /* !tt.tensordesc<tensor<...>>: until 3.7 */
    REL_DESC_BARE,     /* !tt.tensordesc<64x64xf16>: from 3.8 */
    REL_HINT_KEYWORDS, /* cacheModifier = ...: until 3.8 */
    REL_HINT_ATTR,     /* {cachePolicy = #tt.cache_policy<...>}: from 3.9 */
} rel_spelling;

#define rel_init ct_tp_rel_init
void rel_init(parser *P);
/* A spelling read at `at` narrows the releases the text can be; a text that
 * mixes two releases' spellings fails there. */
#define rel_note ct_tp_rel_note
void rel_note(parser *P, const char *at, rel_spelling s);
/* An op read: the releases that have it; 3.9's cachePolicy read into the op's
 * cache and evict attributes. */
#define rel_op ct_tp_rel_op
void rel_op(parser *P, ct_op *op, const char *at);
/* The module's text_lo, text_hi, text_why and triton. */
#define rel_finish ct_tp_rel_finish
void rel_finish(parser *P);

#endif
