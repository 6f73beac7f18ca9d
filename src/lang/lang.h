/*
 * lang.h - internals of the kernel language: the builder, and the port of
 * Triton's semantic.py that every tl_* builtin goes through.
 *
 * Naming: sem_* functions are semantic.py's methods (same names, same
 * order of checks and emitted ops); b_* functions are the `builder.create_*`
 * calls of Triton's ir.cc, with their folding (splat and broadcast of
 * constants fold into dense constants, as createOrFold does).
 */
#ifndef CTRITON_LANG_H
#define CTRITON_LANG_H

#include <stdarg.h>

#include "ctriton/float.h"
#include "ctriton/tl.h"
#include "ctriton/triton_version.h"
#include "util/util.h"

/* ---- the builder --------------------------------------------------- */

typedef struct tl_ifstate tl_ifstate;

/* A `return` of a @jit body whose values are typed after the body, as
 * code_generator.handle_returns does (TV->constexpr_returns): a placeholder
 * tt.return at its place, the values as returned (numbers included). */
typedef struct tl_pending_ret {
    struct tl_pending_ret *next;
    ct_op *op;
    const ct_loc *loc;
    int n;
    tl_tensor vals[TL_MAX_ARGS];
} tl_pending_ret;

/* A function being built (the kernel, or a @jit callee). */
typedef struct tl_fn {
    struct tl_fn *parent;
    ct_op *func;
    int nrets;                 /* -1 until the first return */
    const tl_type *ret_types[TL_MAX_ARGS];
    bool returned;             /* a return was emitted in the current block */
    tl_pending_ret *pending, **pending_tail; /* the returns, in program order (3.7) */
} tl_fn;

typedef struct tl_builder {
    ct_module *m;
    const ct_triton *tv;       /* the target release: its facts (ctriton/triton_version.h) */
    ct_diags *diags;
    tl_options opts;
    const char *kernel_name;
    ct_block *block;           /* insertion block */
    ct_op *before;             /* insert before this op, or at the end if NULL */
    const ct_loc *loc;         /* location of the ops being made */
    tl_src loc_src;            /* the call site `loc` was made from */
    tl_fn *fn;
    tl_ifstate *ifs;           /* innermost runtime if being traced */
    int loop_depth;            /* runtime for/while nesting (no return allowed inside) */
    int nerrors;
    const ct_value *stale[8];  /* values reported used outside their construct (control.c) */
    int nstale;
    struct jit_rec *jits;      /* the @jit functions built so far (jit.c) */
    struct tl_type_cache *types; /* interned types, their MLIR types (types.c) */
} tl_builder;

/* The builder of the kernel being built on this thread. */
extern _Thread_local tl_builder *tl__cur;

#define B (tl__cur)

/* The thread's argument stacks (argstack.c) and open conditional expressions
 * (control.c), saved by tl_build and put back when memory runs out in a build. */
typedef struct tl__stacks {
    int sp, tsp;
    unsigned ksp;
} tl__stacks;
void tl__stacks_save(tl__stacks *s);
void tl__stacks_restore(const tl__stacks *s);
void *tl__ifexp_top(void);
void tl__ifexp_reset(void *top);
/* The facts of the release being built for: `if (TV->neg_float_negf)`. */
#define TV (tl__cur->tv)

/* Sets the location of the ops the builtin is about to make. */
void tl__at(tl_src at);
/* Reports a type error at the current call site; returns a poison value. */
tl_tensor tl__err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tl__warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline tl_tensor tl__poison(void)
{
    return (tl_tensor){.kind = TL_K_POISON};
}

static inline bool tl__is_poison(tl_tensor x)
{
    return x.kind == TL_K_POISON || (x.kind == TL_K_TENSOR && (!x.handle || !x.type));
}

/* True when some argument is poison: the builtin returns poison silently.
 * `n` is the literal 2, 3 or 5. */
#define tl__any_poison(n, ...) tl__any_poison##n(__VA_ARGS__)

static inline bool tl__any_poison5(tl_tensor a, tl_tensor b, tl_tensor c, tl_tensor d, tl_tensor e)
{
    return tl__is_poison(a) || tl__is_poison(b) || tl__is_poison(c) || tl__is_poison(d) ||
           tl__is_poison(e) || !tl__cur;
}

static inline bool tl__any_poison2(tl_tensor a, tl_tensor b)
{
    return tl__is_poison(a) || tl__is_poison(b) || !tl__cur;
}

static inline bool tl__any_poison3(tl_tensor a, tl_tensor b, tl_tensor c)
{
    return tl__is_poison(a) || tl__is_poison(b) || tl__is_poison(c) || !tl__cur;
}
/* Aborts the build if no builder is active (a builtin called outside a kernel). */
bool tl__active(void);

/* ---- types -----------------------------------------------------------
 *
 * The kind tests are inline: every builtin asks several of them. */

const tl_type *tl__block_type(const tl_type *elem, int rank, const int64_t *shape);
/* type.with_element_ty(elem): block of the same shape, or elem */
const tl_type *tl__with_elem(const tl_type *t, const tl_type *elem);

/* type.scalar: the element of a block, the type itself otherwise */
static inline const tl_type *tl__scalar(const tl_type *t)
{
    return t && t->kind == TL_TY_BLOCK ? t->elem : t;
}

const tl_type *tl__desc_type(const tl_type *block);
static inline bool tl__is_desc(const tl_type *t)
{
    return t && t->kind == TL_TY_DESC;
}

static inline bool tl__is_block(const tl_type *t)
{
    return t && t->kind == TL_TY_BLOCK;
}

/* the type itself is a pointer */
static inline bool tl__is_ptr(const tl_type *t)
{
    return t && t->kind == TL_TY_PTR;
}

static inline tl_scalar tl__sc_of(const tl_type *t)
{
    return t && t->kind == TL_TY_SCALAR ? t->sc : TL_VOID;
}

/* scalar kind tests on a dtype */
static inline bool tl__is_int(const tl_type *t)
{
    tl_scalar s = tl__sc_of(t);
    return s >= TL_INT1 && s <= TL_UINT64;
}

static inline bool tl__is_signed(const tl_type *t)
{
    tl_scalar s = tl__sc_of(t);
    return s >= TL_INT1 && s <= TL_INT64;
}

static inline bool tl__is_unsigned(const tl_type *t)
{
    tl_scalar s = tl__sc_of(t);
    return s >= TL_UINT8 && s <= TL_UINT64;
}

static inline bool tl__is_bool(const tl_type *t)
{
    return tl__sc_of(t) == TL_INT1;
}

static inline bool tl__is_floating(const tl_type *t)
{
    tl_scalar s = tl__sc_of(t);
    return s >= TL_FP8E4B15 && s <= TL_FP64;
}

static inline bool tl__is_fp8(const tl_type *t)
{
    tl_scalar s = tl__sc_of(t);
    return s >= TL_FP8E4B15 && s <= TL_FP8E5B16;
}

static inline bool tl__is_standard_floating(const tl_type *t)
{
    tl_scalar s = tl__sc_of(t);
    return s >= TL_FP16 && s <= TL_FP64;
}

static inline int tl__int_bits(const tl_type *t)
{
    switch (tl__sc_of(t)) {
    case TL_INT1:
        return 1;
    case TL_INT8:
    case TL_UINT8:
        return 8;
    case TL_INT16:
    case TL_UINT16:
        return 16;
    case TL_INT32:
    case TL_UINT32:
        return 32;
    case TL_INT64:
    case TL_UINT64:
        return 64;
    default:
        return 0;
    }
}

int tl__prim_bits(const tl_type *t);
int tl__fp_mantissa(const tl_type *t);
int tl__kind_rank(const tl_type *t);    /* bool 0 < int 1 < float 2 */
const tl_type *tl__int_dtype(int bits, bool is_signed);
/* The MLIR type of a Triton type. */
const ct_type *tl__ir_type(const tl_type *t);
/* Triton's mangle(): "fp32S64S", "Pfp16", "i32" */
void tl__mangle_type(const tl_type *t, ct_strbuf *out);
const char *tl__scalar_name(tl_scalar s);

/* ---- values ---------------------------------------------------------- */

static inline tl_tensor tl__tensor(ct_value *v, const tl_type *t)
{
    if (!v || !t)
        return tl__poison();
    return (tl_tensor){.kind = TL_K_TENSOR, .handle = v, .type = t};
}

/* a Python number (int, float, bool) */
static inline bool tl__is_number(tl_tensor x)
{
    return x.kind == TL_K_INT || x.kind == TL_K_FLOAT || x.kind == TL_K_BOOL;
}
/* Python's repr of a constexpr value as used in mangled names. */
void tl__repr_number(tl_tensor x, ct_strbuf *out);

/* ---- aggregates ------------------------------------------------------ */

/* The values of a TL_K_AGG in Python's flatten order (_flatten_ir): for a
 * 3.8 block pointer base, shape[rank], strides[rank], offsets[rank] (i64
 * scalars), with its static block_shape and order. */
#define TL_AGG_MAX (1 + 3 * CT_MAX_RANK)
typedef struct tl_agg {
    int nvals;
    ct_value *vals[TL_AGG_MAX];
    const tl_type *types[TL_AGG_MAX];
    int rank;
    int64_t block_shape[CT_MAX_RANK];
    int order[CT_MAX_RANK];
} tl_agg;

/* The IR values a Python variable holds, flattened (one for a tensor, the
 * fields of an aggregate, none for a constexpr); `out` has room for TL_AGG_MAX. */
int tl__flatten(tl_tensor v, ct_value **out);
/* `proto` with its IR values replaced by hs[0..tl__flatten(proto)) */
tl_tensor tl__unflatten(tl_tensor proto, ct_value *const *hs);
/* holds IR values (a tensor or an aggregate) */
static inline bool tl__is_ir(tl_tensor v)
{
    return v.kind == TL_K_TENSOR || v.kind == TL_K_AGG;
}

/* ---- IR emission (builder.create_*) ------------------------------------ */

ct_op *b_op(ct_opcode code, int nopnds, ct_value *const *opnds, int nres,
            const ct_type *const *restypes);
ct_value *b_op1(ct_opcode code, int nopnds, ct_value *const *opnds, const ct_type *restype);
/* `name` is a string literal (it is not copied). */
void b_attr(ct_op *op, const char *name, const ct_attr *a);
/* An enum attribute: `word` is a keyword of the enum op's row gives `name`
 * (ops.def); any other word is reported (a defect of the language layer). */
void b_enum(ct_op *op, const char *name, const char *word);
ct_value *b_const_int(const ct_type *t, int64_t v);
ct_value *b_const_float(const ct_type *t, double v);
ct_value *b_const_attr(const ct_attr *a, const ct_type *t);
ct_value *b_splat(const ct_type *t, ct_value *v);       /* createOrFold<SplatOp> */
ct_value *b_broadcast(const ct_type *t, ct_value *v);   /* createOrFold<BroadcastOp> */
ct_value *b_int_cast(ct_value *v, const ct_type *t, bool is_signed);
ct_value *b_poison(const ct_type *t);
/* Reports operands that a TL_FOR / TL_WHILE / TL_IF defined and the insertion point is
 * outside of (a variable the construct reassigns that its list lacks), naming the variable
 * and the construct's line; false when one was reported (control.c). */
bool tl__check_uses(int n, ct_value *const *vals);
/* Moves the insertion point. */
void b_set_ip(ct_block *b, ct_op *before);
ct_block *b_new_block_in(ct_region *r);

/* ---- semantic.py --------------------------------------------------------- */

tl_tensor sem_to_tensor(tl_tensor x);
/* semantic.to_tensor_type: the dtype a Python number would get; NULL if x is not one */
const tl_type *sem_to_tensor_type(tl_tensor x);
tl_tensor sem_scalar_constant(tl_tensor value, const tl_type *dtype);
tl_tensor sem_make_scalar(tl_tensor value, const tl_type *dtype);
const tl_type *sem_integer_promote(const tl_type *a, const tl_type *b);
const tl_type *sem_computation_type(const tl_type *a, bool a_scalar, const tl_type *b,
                                    bool b_scalar, bool div_or_mod, bool *ok);
bool sem_binary_checking(tl_tensor *lhs, tl_tensor *rhs, bool allow_lhs_ptr, bool allow_rhs_ptr,
                         bool arithmetic_check, bool div_or_mod);
bool sem_broadcast_value(tl_tensor *lhs, tl_tensor *rhs);
tl_tensor sem_broadcast_shape(tl_tensor x, int rank, const int64_t *shape);
tl_tensor sem_add(tl_tensor a, tl_tensor b, bool sanitize);
tl_tensor sem_sub(tl_tensor a, tl_tensor b, bool sanitize);
tl_tensor sem_mul(tl_tensor a, tl_tensor b, bool sanitize);
tl_tensor sem_truediv(tl_tensor a, tl_tensor b);
tl_tensor sem_floordiv(tl_tensor a, tl_tensor b);
tl_tensor sem_fdiv(tl_tensor a, tl_tensor b, bool ieee_rounding);
tl_tensor sem_mod(tl_tensor a, tl_tensor b);
tl_tensor sem_minimum(tl_tensor a, tl_tensor b, bool propagate_all);
tl_tensor sem_maximum(tl_tensor a, tl_tensor b, bool propagate_all);
tl_tensor sem_clamp(tl_tensor x, tl_tensor lo, tl_tensor hi, bool propagate_all);
bool sem_ternary_checking(tl_tensor *a, tl_tensor *b, tl_tensor *c);
tl_tensor sem_and(tl_tensor a, tl_tensor b);
tl_tensor sem_or(tl_tensor a, tl_tensor b);
tl_tensor sem_xor(tl_tensor a, tl_tensor b);
tl_tensor sem_logical_and(tl_tensor a, tl_tensor b);
tl_tensor sem_logical_or(tl_tensor a, tl_tensor b);
tl_tensor sem_not(tl_tensor a);
tl_tensor sem_lshr(tl_tensor a, tl_tensor b);
tl_tensor sem_ashr(tl_tensor a, tl_tensor b);
tl_tensor sem_shl(tl_tensor a, tl_tensor b);
tl_tensor sem_minus(tl_tensor a);
tl_tensor sem_invert(tl_tensor a);
typedef enum sem_cmp { CMP_GT, CMP_GE, CMP_LT, CMP_LE, CMP_EQ, CMP_NE } sem_cmp;
tl_tensor sem_compare(sem_cmp c, tl_tensor a, tl_tensor b);
tl_tensor sem_arange(int64_t start, int64_t end);
tl_tensor sem_full(int rank, const int64_t *shape, tl_tensor value, const tl_type *dtype);
tl_tensor sem_splat(tl_tensor v, int rank, const int64_t *shape);
tl_tensor sem_unsplat(tl_tensor v);
tl_tensor sem_reshape(tl_tensor x, int rank, const int64_t *shape, bool can_reorder);
tl_tensor sem_expand_dims(tl_tensor x, int axis);
tl_tensor sem_cat(tl_tensor a, tl_tensor b, bool can_reorder);
tl_tensor sem_join(tl_tensor a, tl_tensor b);
void sem_split(tl_tensor a, tl_tensor *l, tl_tensor *r);
tl_tensor sem_permute(tl_tensor x, int n, const int64_t *dims);
tl_tensor sem_bitcast(tl_tensor x, const tl_type *dst);
tl_tensor sem_cast(tl_tensor x, const tl_type *dst, const char *fp_downcast_rounding);
bool sem_is_block_ptr(tl_tensor p);
/* 3.8's core._block_ptr (block_ptr.c) */
tl_tensor agg_make_block_ptr(tl_tensor base, tl_tuple_t shape, tl_tuple_t strides,
                             tl_tuple_t offsets, tl_shape_t block_shape, tl_ints_t order);
bool agg_is_block_ptr(tl_tensor p);
tl_tensor agg_advance(tl_tensor bp, tl_tuple_t offsets);
tl_tensor agg_load(tl_tensor bp, tl_tensor mask, tl_tensor other, tl_ints_t boundary,
                   const char *padding, const char *cache, const char *evict, bool is_volatile);
void agg_store(tl_tensor bp, tl_tensor value, tl_tensor mask, tl_ints_t boundary,
               const char *cache, const char *evict);
tl_tensor sem_make_block_ptr(tl_tensor base, tl_tuple_t shape, tl_tuple_t strides,
                             tl_tuple_t offsets, tl_shape_t block_shape, tl_ints_t order);
tl_tensor sem_advance(tl_tensor base, tl_tuple_t offsets);
tl_tensor sem_load_block_ptr(tl_tensor ptr, tl_tensor mask, tl_tensor other, tl_ints_t boundary,
                             const char *padding, const char *cache, const char *evict,
                             bool is_volatile);
void sem_store_block_ptr(tl_tensor ptr, tl_tensor val, tl_tensor mask, tl_ints_t boundary,
                         const char *cache, const char *evict);
tl_tensor sem_make_tensor_descriptor(tl_tensor base, tl_tuple_t shape, tl_tuple_t strides,
                                     tl_shape_t block_shape, const char *padding_option);
tl_tensor sem_descriptor_load(tl_tensor desc, tl_tuple_t offsets);
void sem_descriptor_store(tl_tensor desc, tl_tuple_t offsets, tl_tensor value);
/* semantic.descriptor_atomic_<kind>: kind "add", "min", "max", "and", "or", "xor" */
void sem_descriptor_reduce(tl_tensor desc, tl_tuple_t offsets, tl_tensor value, const char *kind);
int sem_inline_asm(const char *asm_, const char *constraints, tl_tuple_t args, int ndt,
                   const tl_type *const *dts, bool is_pure, int pack, tl_tensor *out);
tl_tensor sem_load(tl_tensor ptr, tl_tensor mask, tl_tensor other, const char *cache,
                   const char *evict, bool is_volatile);
void sem_store(tl_tensor ptr, tl_tensor val, tl_tensor mask, const char *cache,
               const char *evict);
tl_tensor sem_where(tl_tensor c, tl_tensor x, tl_tensor y);
tl_tensor sem_dot(tl_tensor a, tl_tensor b, tl_tensor acc, const char *input_precision,
                  int max_num_imprecise_acc, const tl_type *out_dtype);
void sem_device_assert(tl_tensor cond, const char *msg, tl_tensor mask);
tl_tensor sem_atomic(tl_atomic_op op, tl_tensor ptr, tl_tensor val, tl_tensor mask,
                     const char *sem, const char *scope);
tl_tensor sem_atomic_cas(tl_tensor ptr, tl_tensor cmp, tl_tensor val, const char *sem,
                         const char *scope);
tl_tensor sem_umulhi(tl_tensor x, tl_tensor y);
tl_tensor sem_math_unary(tl_unary op, tl_tensor x);
tl_tensor sem_gather(tl_tensor src, tl_tensor index, int axis);
tl_tensor sem_histogram(tl_tensor x, int num_bins, tl_tensor mask);

/* Reductions and scans: combine regions built by a C callback. */
typedef void (*tl_combine_fn)(const tl_tensor *lhs_rhs, tl_tensor *out, void *ud);
int sem_reduction(int n, const tl_tensor *inputs, int axis, bool axis_none, bool scan,
                  bool reverse, tl_combine_fn combine, void *ud, tl_tensor *outs);

/* core.py wrappers used by standard.c */
tl_tensor core_reduce(int n, const tl_tensor *inputs, int axis, bool axis_none, bool keep_dims,
                      tl_combine_fn combine, void *ud, tl_tensor *outs);
tl_tensor core_expand_dims(tl_tensor x, int naxes, const int *axes);
tl_tensor core_promote_bf16(tl_tensor x);

/* ---- @jit functions ----------------------------------------------------- */

/* A constexpr argument of a jit call that a tl_tensor does not hold as
 * Python has it, for the mangled name: a tuple of ints (a shape), or a None
 * passed explicitly (3.6 spells `constexpr[None]` unlike a defaulted None). */
typedef struct tl_jit_cx {
    int pos;                /* argument position */
    bool explicit_none;
    bool is_shape;          /* a shape tuple: rank elements (0 for `[]`, mangled TT from 3.7) */
    int rank;
    const int64_t *shape;
} tl_jit_cx;

/* Emits a call to the jit function `fullname` (e.g. "triton.language.standard.max"),
 * building its tt.func on first use.  `args[i]` of kind TENSOR are runtime
 * arguments; numbers, dtypes, strings and None are constexprs; `cx` (ncx of
 * them, may be NULL) overrides some positions (shapes, explicit Nones).  The
 * name is mangled as the target release's mangle_fn does.  Returns the number
 * of results written to rets (a constexpr the callee returns is one of them). */
int tl__jit(const char *fullname, int nargs, const char *const *argnames, const tl_tensor *args,
            int ncx, const tl_jit_cx *cx, tl__jit_body body, void *ud, tl_tensor *rets);

#endif
