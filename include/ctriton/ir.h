/*
 * ctriton/ir.h - the IR core: types, attributes, locations, values, ops,
 * blocks, regions and modules.
 *
 * The IR mirrors the MLIR structure Triton uses (an op has operands,
 * results, attributes, regions of blocks, and successors), restricted to
 * what Triton IR needs.  A module owns everything made for it: all memory
 * comes from the module's arena and is released by ct_module_destroy.
 * Types are interned per module, so within one module two types are equal
 * exactly when their pointers are; across modules use ct_type_equal.
 *
 * The structs are visible so that the passes (printer, parser, normalizer,
 * emulator) can walk the IR directly.  Build and edit IR only through the
 * functions below so that parent links stay consistent.  The `id` fields are
 * scratch: a pass may overwrite them.  Printing writes nothing (several
 * threads may print one module at once); verifying writes the op and block
 * ids although it takes the module as const, so one module is not verified
 * on two threads at once.
 */
#ifndef CTRITON_IR_H
#define CTRITON_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctriton/export.h"

CT_BEGIN_DECLS

typedef struct ct_arena ct_arena;
typedef struct ct_module ct_module;
typedef struct ct_type ct_type;
typedef struct ct_attr ct_attr;
typedef struct ct_loc ct_loc;
typedef struct ct_value ct_value;
typedef struct ct_op ct_op;
typedef struct ct_block ct_block;
typedef struct ct_region ct_region;
struct ct_triton; /* a Triton release: ctriton/triton_version.h */

/* ------------------------------------------------------------------ */
/* Op table (ops.def; src/ir/optable.c)                                */
/* ------------------------------------------------------------------ */

typedef enum ct_opcode {
#define CT_OP(E, NAME, OPERANDS, RESULTS, REGIONS, TRAITS, FORMAT) CT_OP_##E,
#include "ctriton/ops.def"
    CT_OP__COUNT
} ct_opcode;

/* The traits of ops.def, as flags. */
enum {
    CT_OPF_PURE = 1 << 0,
    CT_OPF_COMM = 1 << 1,
    CT_OPF_TERM = 1 << 2,
    CT_OPF_ELEM = 1 << 3,
    CT_OPF_MOVE = 1 << 4,
    CT_OPF_SAME = 1 << 5,
    CT_OPF_INT = 1 << 6,
    CT_OPF_FLOAT = 1 << 7,
    CT_OPF_READ = 1 << 8,
    CT_OPF_WRITE = 1 << 9,
    CT_OPF_PROGRAM = 1 << 10,
    CT_OPF_TRAPS = 1 << 11,
    CT_OPF_ASSOC = 1 << 12,
};

/* A row of ops.def as written. */
typedef struct ct_op_info {
    const char *name;     /* "arith.addi" */
    unsigned flags;       /* CT_OPF_* */
    unsigned name_len;    /* strlen(name) */
    const char *operands; /* the segment lists, regions and textual form (ops.def) */
    const char *results;
    const char *regions;
    const char *format;
} ct_op_info;

/* The op table, one row per opcode. */
extern const ct_op_info ct_op_table[CT_OP__COUNT];

/* The row of the op table for an opcode (inline: the printer and the
 * verifier ask it for every op). */
static inline const ct_op_info *ct_op_info_of(ct_opcode code)
{
    return &ct_op_table[code];
}
/* Opcode for a printed name, or -1 when the name is unknown. */
int ct_opcode_from_name(const char *name, size_t len);

/* ---- an op's signature: its rows' segment lists, read once --------- */

/* How the type of a value follows from the others (ops.def's RULE). */
typedef enum ct_rule_kind {
    CT_RULE_SEG,      /* the type of segment `seg` (of the results when `result`) */
    CT_RULE_I1,       /* i1, i32, i64 */
    CT_RULE_I32,
    CT_RULE_I64,
    CT_RULE_I1_LIKE,  /* i1 in the shape of arg */
    CT_RULE_POINTEE,  /* what arg points at, in its shape */
    CT_RULE_ELEM,     /* the element type of arg */
    CT_RULE_BASE,     /* the pointer to the element type of the block arg points at */
    CT_RULE_ATTR      /* the type of the typed attribute `attr` */
} ct_rule_kind;

typedef struct ct_type_rule {
    ct_rule_kind kind;
    bool result;
    int seg;
    const char *attr;
    const struct ct_type_rule *arg;
} ct_type_rule;

typedef enum ct_seg_kind { CT_SEG_ONE, CT_SEG_OPT, CT_SEG_VAR } ct_seg_kind;

typedef struct ct_op_seg {
    const char *name;
    ct_seg_kind kind;
    const ct_type_rule *rule; /* NULL: the textual form spells the type */
} ct_op_seg;

typedef struct ct_op_region_sig {
    const char *name;
    bool many_blocks;  /* `+` */
    bool may_be_empty; /* `?` */
    int term;          /* the opcode its blocks end in */
} ct_op_region_sig;

#define CT_OP_MAX_SEGS 6
#define CT_OP_MAX_REGIONS 2

typedef struct ct_op_sig {
    int nopnd_segs, nres_segs;
    ct_op_seg opnd[CT_OP_MAX_SEGS], res[CT_OP_MAX_SEGS];
    int nregions;
    ct_op_region_sig region[CT_OP_MAX_REGIONS];
    int nsucc;
    int min_opnds, max_opnds;  /* max_opnds -1: unbounded (successor operands not counted) */
    int min_res, max_res;      /* max_res -1: unbounded */
} ct_op_sig;

/* The signature of an opcode (made from its row on first use; thread-safe). */
const ct_op_sig *ct_op_sig_of(ct_opcode code);
/* Index of the operand (or result) segment `name` of an opcode, -1 if none. */
int ct_op_seg_index(ct_opcode code, bool result, const char *name);
/* Where the values of segment `seg` of op are: *start and *count (an absent
 * optional value counts 0).  False when op's counts fit no reading of its
 * signature (the verifier reports that). */
bool ct_op_segment(const ct_op *op, bool result, int seg, int *start, int *count);
/* The operand of segment `name` (its first value), NULL when it is absent. */
ct_value *ct_op_get(const ct_op *op, const char *name);
/* The number of operands of segment `name`. */
int ct_op_count(const ct_op *op, const char *name);
/* Operand i of segment `name` (scf.for's "initArgs"), NULL when it has fewer. */
ct_value *ct_op_get_at(const ct_op *op, const char *name, int i);
/* Whether op has the counts of operands, results, regions and successors its
 * signature allows; if not, a message into why (may be NULL). */
bool ct_op_arity_ok(const ct_op *op, char *why, size_t cap);

/* What a rule reads: the type of a segment (its first value's; NULL when
 * unknown) and an attribute. */
typedef struct ct_rule_env {
    const ct_type *(*seg)(void *ud, bool result, int seg);
    const ct_attr *(*attr)(void *ud, const char *name);
    void *ud;
} ct_rule_env;

/* The type rule r yields, built in scratch (nscratch entries; 8 are enough for
 * the rules of ops.def) when it is not one of the given types; NULL when a
 * type it needs is unknown.  The result is for comparing (ct_type_equal);
 * ct_type_import interns it. */
const ct_type *ct_rule_eval(const ct_type_rule *r, const ct_rule_env *env, ct_type *scratch,
                            int nscratch);
/* The same, with the types and attributes of op. */
const ct_type *ct_rule_type(const ct_type_rule *r, const ct_op *op, ct_type *scratch, int nscratch);

/* ---- enum attributes (ops.def's CT_ENUM, CT_CASE) ------------------ */

typedef enum ct_enum_id {
#define CT_ENUM(E, BITS) CT_EN_##E,
#include "ctriton/ops.def"
    CT_EN__COUNT
} ct_enum_id;

typedef struct ct_enum_case {
    const char *word;  /* the keyword of the custom form: "slt" */
    int64_t value;     /* the integer of the generic form: 2 */
} ct_enum_case;

/* The cases of an enum, their number and the integer width of its generic form. */
const ct_enum_case *ct_enum_cases(ct_enum_id e, int *n, int *bits);
/* The value of a word (len bytes), false if it is not one of the enum's. */
bool ct_enum_value(ct_enum_id e, const char *word, size_t len, int64_t *value);
/* The word of a value, NULL if none. */
const char *ct_enum_word(ct_enum_id e, int64_t value);

/* ---- the attributes ops name (ops.def's CT_ATTR) ------------------- */

typedef enum ct_attr_spec_kind {
    CT_AK_STR,
    CT_AK_SYMREF,
    CT_AK_UNIT,
    CT_AK_BOOL,
    CT_AK_I32,
    CT_AK_ARRAY_I32,
    CT_AK_TYPE,
    CT_AK_VALUE,
#define CT_ENUM(E, BITS) CT_AK_E_##E,
#include "ctriton/ops.def"
} ct_attr_spec_kind;

enum { CT_AF_REQ = 1, CT_AF_DROP = 2, CT_AF_KEEP = 4 };

typedef struct ct_attr_spec {
    ct_opcode op;
    const char *name;
    ct_attr_spec_kind kind;
    int enum_id;       /* CT_EN_* for enum kinds, else -1 */
    const char *dflt;  /* the default's word or integer, "" when none */
    unsigned flags;    /* CT_AF_* */
} ct_attr_spec;

/* The spec of attribute `name` of an opcode, NULL if ops.def names none. */
const ct_attr_spec *ct_attr_spec_of(ct_opcode op, const char *name);
/* The specs of an opcode's attributes, *n of them. */
const ct_attr_spec *const *ct_attr_specs_of(ct_opcode op, int *n);
/* Whether a is the default value of its spec. */
bool ct_attr_is_default(const ct_attr_spec *s, const ct_attr *a);
/* The integer of op's enum attribute `name` (its keyword where the op's form
 * spells it, else the integer MLIR's attribute dictionary holds): dflt when
 * it is absent, -1 when it is not one of its enum's. */
int64_t ct_op_enum(const ct_op *op, const char *name, int64_t dflt);

/* ------------------------------------------------------------------ */
/* Arena                                                               */
/* ------------------------------------------------------------------ */

/* The memory of a module: allocations freed all at once (ct_arena_free). */
ct_arena *ct_arena_new(void);
void ct_arena_free(ct_arena *a);
/* Zeroed, 16-byte aligned memory; aborts only if the system is out of memory. */
void *ct_arena_alloc(ct_arena *a, size_t size);
char *ct_arena_strdup(ct_arena *a, const char *s);
char *ct_arena_strndup(ct_arena *a, const char *s, size_t n);
size_t ct_arena_bytes(const ct_arena *a);

/* ------------------------------------------------------------------ */
/* Types                                                               */
/* ------------------------------------------------------------------ */

typedef enum ct_type_kind {
    CT_TY_NONE,       /* MLIR's `none`: the void of function results */
    CT_TY_INT,        /* signless iN */
    CT_TY_INDEX,
    CT_TY_FLOAT,
    CT_TY_PTR,        /* !tt.ptr<T, addrspace> */
    CT_TY_TENSOR,     /* tensor<AxBxT> */
    CT_TY_TENSORDESC, /* !tt.tensordesc<tensor<...>> */
    CT_TY_FUNC        /* (ins) -> outs */
} ct_type_kind;

typedef enum ct_float_kind {
    CT_F16,
    CT_BF16,
    CT_F32,
    CT_F64,
    CT_F8E4M3FN,      /* tl.float8e4nv */
    CT_F8E5M2,        /* tl.float8e5 */
    CT_F8E4M3FNUZ,    /* tl.float8e4b8 */
    CT_F8E5M2FNUZ,    /* tl.float8e5b16 */
    CT_F8E4M3B11FNUZ  /* tl.float8e4b15 */
} ct_float_kind;

#define CT_MAX_RANK 16

struct ct_type {
    ct_type_kind kind;
    int bits;                  /* INT width; FLOAT storage width */
    int signedness;            /* INT: 0 signless (iN), 1 signed (siN), 2 unsigned (uiN) */
    ct_float_kind fk;          /* FLOAT */
    const ct_type *elem;       /* PTR pointee, TENSOR element, TENSORDESC block */
    int addrspace;             /* PTR */
    int rank;                  /* TENSOR */
    const int64_t *shape;      /* TENSOR, rank entries */
    int nin, nout;             /* FUNC */
    const ct_type *const *ins, *const *outs;
    /* interning */
    uint64_t hash;
    const ct_type *next;
};

/* The types of a module, interned: equal types are the same pointer. */
const ct_type *ct_type_none(ct_module *m);
const ct_type *ct_type_index(ct_module *m);
const ct_type *ct_type_int(ct_module *m, int bits);
/* siN (signedness 1) and uiN (2), as in a signed integer tensor descriptor's block type */
const ct_type *ct_type_int_signed(ct_module *m, int bits, int signedness);
const ct_type *ct_type_float(ct_module *m, ct_float_kind fk);
const ct_type *ct_type_ptr(ct_module *m, const ct_type *pointee, int addrspace);
const ct_type *ct_type_tensor(ct_module *m, const ct_type *elem, int rank, const int64_t *shape);
const ct_type *ct_type_tensordesc(ct_module *m, const ct_type *block);
const ct_type *ct_type_func(ct_module *m, int nin, const ct_type *const *ins, int nout,
                            const ct_type *const *outs);
/* The same type interned in another module. */
const ct_type *ct_type_import(ct_module *m, const ct_type *t);

bool ct_type_equal(const ct_type *a, const ct_type *b);
/* Element type of a tensor, the type itself otherwise. */
const ct_type *ct_type_scalar(const ct_type *t);
/* A tensor of the same shape with another element type, or `elem` for scalars. */
const ct_type *ct_type_with_elem(ct_module *m, const ct_type *t, const ct_type *elem);
int64_t ct_type_numel(const ct_type *t);
bool ct_type_is_int(const ct_type *t);     /* scalar kind test on the element */
bool ct_type_is_float(const ct_type *t);
bool ct_type_is_ptr(const ct_type *t);
int ct_float_bits(ct_float_kind fk);
/* Writes the MLIR spelling ("tensor<64x!tt.ptr<f32>>") into buf; returns its length. */
size_t ct_type_str(const ct_type *t, char *buf, size_t cap);
/* The same as a Triton release spells it (NULL: 3.6.0): from 3.8 a tensor
 * descriptor is !tt.tensordesc<64x64xf16>, before !tt.tensordesc<tensor<64x64xf16>>. */
size_t ct_type_str_for(const ct_type *t, const struct ct_triton *tv, char *buf, size_t cap);

/* ------------------------------------------------------------------ */
/* Locations                                                           */
/* ------------------------------------------------------------------ */

typedef enum ct_loc_kind {
    CT_LOC_UNKNOWN,
    CT_LOC_FILE,      /* "file":line:col */
    CT_LOC_NAME,      /* "name"(child) ; child may be NULL */
    CT_LOC_CALLSITE,  /* callsite(callee at caller) */
    CT_LOC_FUSED      /* fused[a, b, ...] */
} ct_loc_kind;

struct ct_loc {
    ct_loc_kind kind;
    const char *file;      /* FILE */
    int line, col;         /* FILE */
    const char *name;      /* NAME */
    const ct_loc *child;   /* NAME child, CALLSITE callee */
    const ct_loc *caller;  /* CALLSITE */
    int nfused;            /* FUSED */
    const ct_loc *const *fused;
};

/* Locations, interned in the module: loc(unknown), "file":line:col, "name"(child),
 * callsite(callee at caller). */
const ct_loc *ct_loc_unknown(ct_module *m);
const ct_loc *ct_loc_file(ct_module *m, const char *file, int line, int col);
const ct_loc *ct_loc_name(ct_module *m, const char *name, const ct_loc *child);
const ct_loc *ct_loc_callsite(ct_module *m, const ct_loc *callee, const ct_loc *caller);
/* The file location of the outermost call site, following names and
 * callsite callers (where a kernel's own code called what the op is in). */
const ct_loc *ct_loc_file_of(const ct_loc *l);
/* The op's own file location, following names, callsite callees and the first
 * of fused locations (the line inside an inlined helper); the "file:line" of
 * each call site on the way, innermost first, into called_from (cap bytes,
 * "" when none; may be NULL). */
const ct_loc *ct_loc_innermost(const ct_loc *l, char *called_from, size_t cap);
/* The outermost name of a NameLoc, or NULL. */
const char *ct_loc_name_of(const ct_loc *l);

/* ------------------------------------------------------------------ */
/* Attributes                                                          */
/* ------------------------------------------------------------------ */

typedef enum ct_attr_kind {
    CT_ATTR_UNIT,        /* present, no value */
    CT_ATTR_BOOL,        /* true / false */
    CT_ATTR_INT,         /* 16 : i32 */
    CT_ATTR_FLOAT,       /* 1.0 : f32 */
    CT_ATTR_STR,         /* "text" */
    CT_ATTR_TYPE,        /* a type */
    CT_ATTR_SYMREF,      /* @name */
    CT_ATTR_ENUM,        /* a bare keyword printed as is: cg, tf32, slt */
    CT_ATTR_DENSE,       /* dense<...> : tensor<...> ; n == 1 means splat */
    CT_ATTR_DENSE_ARRAY, /* array<i32: 1, 0> */
    CT_ATTR_ARRAY,       /* [a, b] */
    CT_ATTR_DICT,        /* {a = x, b} */
    CT_ATTR_OPAQUE       /* text kept verbatim, e.g. #llvm.loop_annotation<...> */
} ct_attr_kind;

typedef struct ct_named_attr {
    const char *name;
    const ct_attr *attr;
} ct_named_attr;

struct ct_attr {
    ct_attr_kind kind;
    const ct_type *type;      /* INT, FLOAT: value type; DENSE: tensor type; DENSE_ARRAY: element */
    int64_t i;                /* INT (as the signed value of its bits), BOOL */
    double f;                 /* FLOAT (exact for every float type up to f64) */
    const char *s;            /* STR, SYMREF, ENUM, OPAQUE */
    int n;                    /* DENSE, DENSE_ARRAY, ARRAY, DICT element count */
    const int64_t *ivals;     /* DENSE (int/bool), DENSE_ARRAY */
    const double *fvals;      /* DENSE (float) */
    const ct_attr *const *elems;      /* ARRAY */
    const ct_named_attr *entries;     /* DICT */
};

/* Attributes, allocated in the module (strings copied). */
const ct_attr *ct_attr_unit(ct_module *m);
const ct_attr *ct_attr_bool(ct_module *m, bool v);
const ct_attr *ct_attr_int(ct_module *m, const ct_type *t, int64_t v);
const ct_attr *ct_attr_float(ct_module *m, const ct_type *t, double v);
const ct_attr *ct_attr_str(ct_module *m, const char *s);
const ct_attr *ct_attr_type(ct_module *m, const ct_type *t);
const ct_attr *ct_attr_symref(ct_module *m, const char *sym);
const ct_attr *ct_attr_enum(ct_module *m, const char *word);
/* The same for a word that outlives the module (a string literal): not copied. */
const ct_attr *ct_attr_enum_lit(ct_module *m, const char *word);
const ct_attr *ct_attr_opaque(ct_module *m, const char *text);
/* Dense int/bool attribute; n == 1 is a splat of the whole tensor type t. */
const ct_attr *ct_attr_dense_int(ct_module *m, const ct_type *t, int n, const int64_t *v);
const ct_attr *ct_attr_dense_float(ct_module *m, const ct_type *t, int n, const double *v);
const ct_attr *ct_attr_dense_array(ct_module *m, const ct_type *elem, int n, const int64_t *v);
const ct_attr *ct_attr_array(ct_module *m, int n, const ct_attr *const *elems);
const ct_attr *ct_attr_dict(ct_module *m, int n, const ct_named_attr *entries);
bool ct_attr_equal(const ct_attr *a, const ct_attr *b);
/* Look up an entry of a DICT attribute. */
const ct_attr *ct_attr_dict_get(const ct_attr *dict, const char *name);
/* Wraps an integer to the width of t (i1: 0/1, others sign-extended). */
int64_t ct_int_wrap(int64_t v, int bits);

/* ------------------------------------------------------------------ */
/* Values, ops, blocks, regions                                        */
/* ------------------------------------------------------------------ */

struct ct_value {
    const ct_type *type;
    ct_op *def;           /* defining op, NULL for a block argument */
    ct_block *owner;      /* block of a block argument */
    int index;            /* result or argument number */
    const ct_loc *loc;    /* block arguments only (results use their op's) */
    int id;               /* scratch slot for passes (the normalizer: use counts) */
};

struct ct_op {
    ct_opcode code;
    int nopnds;
    ct_value **opnds;
    int nres;
    ct_value *res;               /* nres values */
    int nregions;
    ct_region *regions;          /* nregions regions */
    int nsucc;
    ct_block **succ;
    int *succ_nopnds;            /* operands forwarded to each successor (tail of opnds) */
    int nattrs, cattrs;
    ct_named_attr *attrs;
    const ct_loc *loc;
    ct_block *parent;
    ct_op *prev, *next;
    int id;                      /* scratch slot for passes (the verifier: position) */
};

struct ct_block {
    ct_region *parent;
    int nargs, cargs;
    ct_value **args;
    ct_op *first, *last;
    ct_block *prev, *next;
    int id;                      /* scratch slot for passes (the verifier: index) */
};

struct ct_region {
    ct_op *parent;
    ct_block *first, *last;
};

struct ct_module {
    ct_arena *arena;
    ct_block *body;              /* holds the tt.func ops */
    int nattrs, cattrs;
    ct_named_attr *attrs;        /* module attributes */
    const ct_loc *loc;
    void *types;                 /* interning table (private) */
    /* The Triton release the module is written for (ctriton/triton_version.h): the
     * language builds for it, the printer spells it; NULL is 3.6.0.  The parser
     * sets it to a release the text's spellings belong to (text_lo..text_hi). */
    const struct ct_triton *triton;
    const struct ct_triton *text_lo, *text_hi; /* parsed: the releases that spell it so */
    const char *text_why;        /* parsed: the spelling that narrowed them ("... (line 5)") */
    /* parsed: where the text had the ops that carry no file location (no loc(), or
     * loc(unknown)), so that the verifier, the lints and the emulator's faults name their
     * line (ct_module_op_position); NULL for a module that was built */
    const struct ct_op_positions *positions;
};

/* A module's record of where its text had ops without a file location: n entries
 * sorted by op address, in the module's arena. */
typedef struct ct_op_position {
    const struct ct_op *op;
    int line, col;
} ct_op_position;
typedef struct ct_op_positions {
    const char *file;
    int n;
    const ct_op_position *at;
} ct_op_positions;

/* Where the text m was parsed from had op, when op carries no file location: true with the
 * file, line and column; false when m was not parsed or op is not one of its ops. */
bool ct_module_op_position(const ct_module *m, const struct ct_op *op, const char **file,
                           int *line, int *col);

/* m->triton, or 3.6.0 */
const struct ct_triton *ct_module_triton(const ct_module *m);

/* An empty module (its own arena and type table), and its destruction with all it holds. */
ct_module *ct_module_new(void);
void ct_module_destroy(ct_module *m);

/* Creates a detached op.  Results get the given types; regions are empty. */
ct_op *ct_op_new(ct_module *m, ct_opcode code, int nopnds, ct_value *const *opnds, int nres,
                 const ct_type *const *restypes, int nregions, const ct_loc *loc);
/* Successors for cf.br / cf.cond_br; `counts[i]` trailing operands go to succ i. */
void ct_op_set_successors(ct_module *m, ct_op *op, int n, ct_block *const *succ,
                          const int *counts);
void ct_op_set_operand(ct_op *op, int i, ct_value *v);
void ct_op_set_attr(ct_module *m, ct_op *op, const char *name, const ct_attr *attr);
/* The same for a name that outlives the module (a string literal): not copied. */
void ct_op_set_attr_lit(ct_module *m, ct_op *op, const char *name, const ct_attr *attr);
const ct_attr *ct_op_attr(const ct_op *op, const char *name);
/* Whether a flag attribute is set: `name` present as a unit attribute, `true`, or a nonzero
 * integer (isVolatile, noinline, pure, ...).  False when absent. */
bool ct_op_flag(const ct_op *op, const char *name);
void ct_op_remove_attr(ct_op *op, const char *name);
ct_value *ct_op_result(const ct_op *op, int i);
/* The function (tt.func) an op is nested in, or NULL. */
ct_op *ct_op_parent_func(const ct_op *op);
/* The op owning the block the op sits in (NULL at module level). */
ct_op *ct_op_parent_op(const ct_op *op);

ct_block *ct_block_new(ct_module *m);
ct_value *ct_block_add_arg(ct_module *m, ct_block *b, const ct_type *t, const ct_loc *loc);
void ct_block_append(ct_block *b, ct_op *op);
void ct_block_insert_before(ct_block *b, ct_op *before, ct_op *op); /* before NULL: append */
void ct_op_unlink(ct_op *op);
/* The op that ends the block if it is a terminator, else NULL. */
ct_op *ct_block_terminator(const ct_block *b);

void ct_region_append(ct_region *r, ct_block *b);
void ct_block_unlink(ct_block *b);
ct_region *ct_op_region(const ct_op *op, int i);
bool ct_region_empty(const ct_region *r);
int ct_region_nblocks(const ct_region *r);

/* Replaces every use of `from` inside `root` (an op and all ops nested in it;
 * NULL means the whole module) by `to`. */
void ct_replace_uses(ct_module *m, ct_op *root, ct_value *from, ct_value *to);

/* Module-level symbols. */
void ct_module_append_func(ct_module *m, ct_op *func);
ct_op *ct_module_lookup_func(const ct_module *m, const char *name);
const char *ct_func_name(const ct_op *func);
const ct_type *ct_func_type(const ct_op *func);
ct_block *ct_func_entry(const ct_op *func);
void ct_module_set_attr(ct_module *m, const char *name, const ct_attr *attr);

/* Walks every op nested in `op` (pre-order, op itself first).  The callback
 * returns false to stop; ct_walk returns false if stopped. */
typedef bool (*ct_walk_fn)(ct_op *op, void *ud);
/* ct_walk: every op nested in `op`; ct_walk_module: every op of the module. */
bool ct_walk(ct_op *op, ct_walk_fn fn, void *ud);
bool ct_walk_module(ct_module *m, ct_walk_fn fn, void *ud);

CT_END_DECLS
#endif
