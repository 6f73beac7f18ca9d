/*
 * print_internal.h - the TTIR printer's state and the helpers its files share.
 *
 * The printer (see print.c for the overview) is split by job:
 *   print_names.c  SSA names and block labels (MLIR's SSANameState)
 *   print_attr.c   types, values, strings, symbols and attributes
 *   print_loc.c    locations and #loc aliases (MLIR's AliasInitializer)
 *   print.c        blocks, regions, ops and the module
 * The functions shared between them carry the prefix ct_tw_ in the library
 * (the #defines below), so that it exports no generic names.
 */
#ifndef CTRITON_PRINT_INTERNAL_H
#define CTRITON_PRINT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ctriton/text.h"
#include "text_internal.h"
#include "util/util.h"

typedef struct name_entry {
    uint64_t h;
    size_t off, len; /* the name is text.s + off; text.s[off - 1] is its '%' */
    int next;        /* the next entry of the bucket, -1 at the end */
} name_entry;

typedef struct counters {
    int value, arg, conflict;
} counters;

/* The printed name of a value, with its '%' ("%x", "%12", "%c0_i32").  A
 * value finds its entry through the namer's own map (value -> index): the
 * printer writes nothing into the module, so several threads may print one
 * module at once.  The printer looks a value up two or three times. */
typedef struct vname {
    const ct_value *v;
    size_t off, len;  /* the text, in the namer's text buffer */
    bool separate;    /* its op's results are named one by one (tt.split) */
} vname;

typedef struct namer {
    bool numbered;    /* CT_PRINT_NUMBERED: ignore name locations */
    ct_arena *arena;  /* the printer's cached pieces of text */
    ct_strbuf text;   /* all names, one after another */
    vname *v;         /* the named values, indexed by ct_value.id */
    int nv, cv;
    int nops;         /* ops seen: the printer sizes its output from it */
    ct_ptrmap bnames; /* ct_block* -> (intptr_t)id + 1 */
    ct_ptrmap vidx;   /* ct_value* -> (intptr_t)index in v + 1 */
    int *buckets;     /* the first entry of each bucket, -1 if none */
    size_t nbuckets;  /* a power of two */
    name_entry *stack;
    size_t nstack, cstack;
} namer;
/* ASCII character classes, as LLVM's isAlpha/isDigit (one table lookup per
 * character: names, symbols and strings are scanned character by character) */
enum {
    CH_ALPHA = 1,
    CH_DIGIT = 2,
    CH_SYM = 4,  /* _ $ . : also in a bare identifier */
    CH_DASH = 8, /* - : also in a value name */
    CH_ESC = 16  /* escaped in a string literal */
};

static const unsigned char ch_class[256] = {
    [0 ... 0x1f] = CH_ESC, ['"'] = CH_ESC, ['\\'] = CH_ESC, [0x7f ... 0xff] = CH_ESC,
    ['a' ... 'z'] = CH_ALPHA, ['A' ... 'Z'] = CH_ALPHA, ['0' ... '9'] = CH_DIGIT,
    ['_'] = CH_SYM, ['$'] = CH_SYM, ['.'] = CH_SYM, ['-'] = CH_DASH,
};

static inline bool is_digit(char c)
{
    return ch_class[(unsigned char)c] & CH_DIGIT;
}

/* a character MLIR keeps in a value name (sanitizeIdentifier) */
static inline bool is_id_char(char c)
{
    return ch_class[(unsigned char)c] & (CH_ALPHA | CH_DIGIT | CH_SYM | CH_DASH);
}

/* ------------------------------------------------------------------ */
/* Printer                                                             */
/* ------------------------------------------------------------------ */

/* ---- location aliases -------------------------------------------- */

/* MLIR prints each distinct location once, as `#locN = loc(...)`, and
 * refers to it as `loc(#locN)`.  Its AliasInitializer walks the module in
 * print order, visiting every location (an op's location before its body,
 * block arguments' locations wherever the arguments are printed with their
 * types) and what it is made of (a name location's child unless unknown, a
 * callsite's callee then caller, a fused location's parts).  Aliases are
 * numbered in the order of a stable sort by depth (a location without
 * children has depth 1, others one more than their deepest child), and
 * printed before the module when a block argument uses them (directly or
 * through a parent), after it otherwise ("deferred").  Identical locations
 * are one attribute in MLIR, so they are interned here by structure. */
typedef struct locent {
    char *key;         /* structural key (interning) */
    const ct_loc *loc; /* a representative */
    int kids[2];       /* canonical ids of the children MLIR visits; fused: see fkids */
    int nkids;
    int *fkids;
    int depth;         /* 0: not visited */
    bool deferred;
    int order;         /* visit order */
    int alias;         /* alias number after sorting */
} locent;

typedef struct aliases {
    ct_ptrmap canon;   /* ct_loc* -> id + 1 */
    locent *e;
    int n, cap;
    int *htab;         /* open addressing over keys: id + 1 */
    int hcap;
    int nvisited;
} aliases;

typedef struct printer {
    const struct ct_triton *tv; /* the release whose spellings are written (the module's) */
    ct_strbuf out;
    namer nm;
    unsigned flags;
    int indent;
    aliases *al;       /* non-NULL when printing with location aliases */
    /* ct_print_module_lines: where each op starts */
    bool record;
    const ct_op **rec_op;
    size_t *rec_off;
    int nrec, caprec;
    ct_ptrmap tstr; /* ct_type* -> text_piece (in the namer's arena): types recur */
    struct {        /* in front of tstr: a direct-mapped cache */
        const ct_type *t;
        const struct text_piece *tp;
    } tcache[64];
    ct_ptrmap lstr; /* ct_loc* -> text_piece: ops of one call site share a location */
} printer;

/* A cached piece of output text with its length. */
typedef struct text_piece {
    size_t n;
    char s[];
} text_piece;
typedef enum { ELIDE_NEVER, ELIDE_MAY } elision;

/* ---- functions shared between the printer's files ------------------ */

/* print_names.c */
#define bare_ident ct_tw_bare_ident
bool bare_ident(const char *s);
#define name_top_op ct_tw_name_top_op
void name_top_op(namer *n, const ct_op *op);
#define namer_free ct_tw_namer_free
void namer_free(namer *n);
#define namer_init ct_tw_namer_init
void namer_init(namer *n);
#define vname_of ct_tw_vname_of
const vname *vname_of(const namer *n, const ct_value *v);

/* print_attr.c */
#define Pf ct_tw_Pf
void Pf(printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define in_list ct_tw_in_list
bool in_list(const char *name, const char *const *list);
#define nl ct_tw_nl
void nl(printer *p);
#define piece_new ct_tw_piece_new
text_piece *piece_new(ct_arena *a, const char *s, size_t n);
#define printer_free ct_tw_printer_free
void printer_free(printer *p);
#define put_attr ct_tw_put_attr
void put_attr(printer *p, const ct_attr *a, elision el);
#define put_attr_dict ct_tw_put_attr_dict
void put_attr_dict(printer *p, const ct_named_attr *attrs, int n,
                          const char *const *elided, bool leading_space);
#define put_op_attrs ct_tw_put_op_attrs
void put_op_attrs(printer *p, const ct_op *op, const char *const *elided);
#define put_string ct_tw_put_string
void put_string(printer *p, const char *s);
#define put_stripped_type ct_tw_put_stripped_type
void put_stripped_type(printer *p, const ct_type *t);
#define put_symbol ct_tw_put_symbol
void put_symbol(printer *p, const char *s);
#define put_type ct_tw_put_type
void put_type(printer *p, const ct_type *t);
#define put_types_of ct_tw_put_types_of
void put_types_of(printer *p, ct_value *const *v, int n);
#define put_value ct_tw_put_value
void put_value(printer *p, const ct_value *v);
#define put_values ct_tw_put_values
void put_values(printer *p, ct_value *const *v, int n);
#define put_vname ct_tw_put_vname
void put_vname(printer *p, const vname *nm);

/* print_loc.c */
#define al_free ct_tw_al_free
void al_free(aliases *a);
#define al_number ct_tw_al_number
locent **al_number(aliases *a, int *n);
#define al_visit ct_tw_al_visit
void al_visit(aliases *a, const ct_loc *l, bool deferred);
#define al_visit_op ct_tw_al_visit_op
void al_visit_op(aliases *a, const ct_op *op);
#define put_alias ct_tw_put_alias
bool put_alias(printer *p, const ct_loc *l);
#define put_arg_loc ct_tw_put_arg_loc
void put_arg_loc(printer *p, const ct_loc *l);
#define put_loc_inner ct_tw_put_loc_inner
void put_loc_inner(printer *p, const ct_loc *l, bool top);
#define put_trailing_loc ct_tw_put_trailing_loc
void put_trailing_loc(printer *p, const ct_loc *l);

/* print.c */
#define put_block_name ct_tw_put_block_name
void put_block_name(printer *p, const ct_block *b);
#define print_region ct_tw_print_region
void print_region(printer *p, const ct_region *r, bool entry_args, bool terminators);

/* inline, so that the length of a literal is known when compiling */
static inline void P(printer *p, const char *s)
{
    ct_sb_puts(&p->out, s);
}

/* ---- the spellings of each Triton release (release.c) ------------------------------ */

/* A cache hint attribute (cache, evict) of load, store, descriptor_load. */
#define rel_hint_attr ct_tw_rel_hint_attr
bool rel_hint_attr(const char *name);
/* From 3.9 the hints are one attribute: the oilist prints none of them... */
#define rel_hints_as_attr ct_tw_rel_hints_as_attr
bool rel_hints_as_attr(const printer *p, const ct_op *op);
/* ...and the attribute dictionary starts with it (shown: entries printed so far) */
#define rel_put_cache_policy ct_tw_rel_put_cache_policy
void rel_put_cache_policy(printer *p, const ct_op *op, int *shown);

#endif
