/*
 * ctriton/tl.h - the kernel language: Triton's `triton.language` in C.
 *
 * A kernel is a C function that builds Triton IR when it runs, the way
 * `@triton.jit` traces a Python function.  Each builtin mirrors its Python
 * twin (tl.load -> tl_load, a + b -> tl_add(a, b), x[:, None] ->
 * tl_idx(x, ":, None")) and applies Triton's typing rules (semantic.py),
 * so that a port emits the same TTIR as its Python original.
 *
 * Values.  `tl_tensor` is what a Python variable holds inside a kernel: a
 * tensor (an IR value with its Triton type), or a Python number not yet
 * materialized (int, float, bool), or None (the zero value).  C numbers
 * passed to the builtins are lifted to Python numbers: an `int` is a
 * Python int literal, a `double` a Python float literal, a `bool` a Python
 * bool, with the same promotion Python gives them.  Constexprs are plain
 * C values: a constexpr `if` is a C `if`, `tl.static_range` a C `for`.
 *
 * Keyword arguments are designated initializers after the positional ones:
 *     tl_load(p, .mask = m, .other = tl_c(0.0), .cache_modifier = ".cg")
 * (`tl_c` lifts a C number where a field needs a tl_tensor).
 *
 * Errors are values: a type error records a diagnostic with the C file and
 * line of the builtin call and yields a poison tensor that silences the
 * follow-on errors; the kernel is then refused.  Nothing aborts.
 *
 * Runtime control flow uses scoped macros naming the Python variables the
 * loop carries, in the order Python first assigned them:
 *     TL_FOR(k, tl_range(0, n, 1), a_ptrs, b_ptrs, acc) { ... }
 *     TL_IF(tl_eq(pid, 0), s) { ... } TL_ELSE { ... }
 *     TL_WHILE(tl_lt(t, n), t) { ... }
 */
#ifndef CTRITON_TL_H
#define CTRITON_TL_H

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "ctriton/diag.h"
#include "ctriton/ir.h"
#include "ctriton/export.h"
#include "ctriton/tl_macros.h"

CT_BEGIN_DECLS


/* ------------------------------------------------------------------ */
/* Types (triton.language.dtype and friends)                           */
/* ------------------------------------------------------------------ */

typedef enum tl_scalar {
    TL_VOID,
    TL_INT1,
    TL_INT8,
    TL_INT16,
    TL_INT32,
    TL_INT64,
    TL_UINT8,
    TL_UINT16,
    TL_UINT32,
    TL_UINT64,
    TL_FP8E4B15,
    TL_FP8E4NV,
    TL_FP8E4B8,
    TL_FP8E5,
    TL_FP8E5B16,
    TL_FP16,
    TL_BF16,
    TL_FP32,
    TL_FP64
} tl_scalar;

typedef enum tl_type_kind { TL_TY_SCALAR, TL_TY_PTR, TL_TY_BLOCK, TL_TY_DESC } tl_type_kind;

/* A Triton type: a dtype, a pointer_type, a block_type or a tensor_descriptor type (DESC, elem =
 * the block type). */
typedef struct tl_type {
    tl_type_kind kind;
    tl_scalar sc;                /* SCALAR */
    const struct tl_type *elem;  /* PTR pointee; BLOCK element (scalar or ptr) */
    int addrspace;               /* PTR */
    bool is_const;               /* PTR */
    int rank;                    /* BLOCK */
    int64_t shape[CT_MAX_RANK];  /* BLOCK */
} tl_type;

typedef const tl_type *tl_dtype;

extern const tl_type tl__dtypes[];
#define tl_void (&tl__dtypes[TL_VOID])
#define tl_int1 (&tl__dtypes[TL_INT1])
#define tl_int8 (&tl__dtypes[TL_INT8])
#define tl_int16 (&tl__dtypes[TL_INT16])
#define tl_int32 (&tl__dtypes[TL_INT32])
#define tl_int64 (&tl__dtypes[TL_INT64])
#define tl_uint8 (&tl__dtypes[TL_UINT8])
#define tl_uint16 (&tl__dtypes[TL_UINT16])
#define tl_uint32 (&tl__dtypes[TL_UINT32])
#define tl_uint64 (&tl__dtypes[TL_UINT64])
#define tl_float8e4b15 (&tl__dtypes[TL_FP8E4B15])
#define tl_float8e4nv (&tl__dtypes[TL_FP8E4NV])
#define tl_float8e4b8 (&tl__dtypes[TL_FP8E4B8])
#define tl_float8e5 (&tl__dtypes[TL_FP8E5])
#define tl_float8e5b16 (&tl__dtypes[TL_FP8E5B16])
#define tl_float16 (&tl__dtypes[TL_FP16])
#define tl_bfloat16 (&tl__dtypes[TL_BF16])
#define tl_float32 (&tl__dtypes[TL_FP32])
#define tl_float64 (&tl__dtypes[TL_FP64])
#define tl_bool tl_int1

/* tl.pointer_type(elem, address_space=1, const=False) */
tl_dtype tl_pointer_type(tl_dtype elem);
tl_dtype tl_pointer_type_ex(tl_dtype elem, int addrspace, bool is_const);
/* Structural equality (Python's `==` on dtypes). */
bool tl_type_eq(tl_dtype a, tl_dtype b);
/* "fp32", "*fp16", "int32[64, 16]" */
const char *tl_type_name(tl_dtype t, char *buf, size_t cap);
/* Parses a dtype name ("fp16", "int32", "bf16", ...); NULL if unknown. */
tl_dtype tl_dtype_from_name(const char *name);

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

typedef enum tl_kind {
    TL_K_NONE = 0, /* Python None; the zero value of tl_tensor */
    TL_K_TENSOR,   /* an IR value */
    TL_K_INT,      /* a Python int constant */
    TL_K_FLOAT,    /* a Python float constant */
    TL_K_BOOL,     /* a Python bool constant */
    TL_K_POISON,   /* the result of an error */
    TL_K_DTYPE,    /* a constexpr dtype (tl.float16), passed to a @jit helper */
    TL_K_STR,      /* a constexpr string, passed to a @jit helper */
    TL_K_AGG       /* several IR values as one Python value: a block pointer of Triton
                      3.8 (core._block_ptr: base, shape, strides, offsets) */
} tl_kind;

typedef struct tl_tensor {
    tl_kind kind;
    bool big;             /* INT >= 2**63: the value is `(uint64_t)i` */
    ct_value *handle;     /* TENSOR */
    const tl_type *type;  /* TENSOR: dtype, pointer_type or block_type */
    int64_t i;            /* INT, BOOL */
    double f;             /* FLOAT */
    const char *s;        /* STR */
    const struct tl_agg *agg; /* AGG: its values (type: the block pointer's type) */
} tl_tensor;

/* Where a builtin was called from, for locations and diagnostics. */
typedef struct tl_src {
    const char *file;
    int line, col;
} tl_src;

#if defined(__clang__)
#define TL_HERE ((tl_src){__FILE__, __LINE__, __builtin_COLUMN()})
#else
#define TL_HERE ((tl_src){__FILE__, __LINE__, 0})
#endif

tl_tensor tl__id(tl_tensor x);
tl_tensor tl__from_i64(long long v);
tl_tensor tl__from_u64(unsigned long long v);
tl_tensor tl__from_f64(double v);
tl_tensor tl__from_bool(bool v);
tl_tensor tl__from_dtype(tl_dtype t);
tl_tensor tl__from_str(const char *s);

/* Lifts a C number (or passes a tl_tensor through). */
#define tl_c(x)                                                                               \
    _Generic((x),                                                                             \
        tl_tensor: tl__id,                                                                    \
        _Bool: tl__from_bool,                                                                 \
        char: tl__from_i64,                                                                   \
        signed char: tl__from_i64,                                                            \
        short: tl__from_i64,                                                                  \
        int: tl__from_i64,                                                                    \
        long: tl__from_i64,                                                                   \
        long long: tl__from_i64,                                                              \
        unsigned char: tl__from_u64,                                                          \
        unsigned short: tl__from_u64,                                                         \
        unsigned int: tl__from_u64,                                                           \
        unsigned long: tl__from_u64,                                                          \
        unsigned long long: tl__from_u64,                                                     \
        float: tl__from_f64,                                                                  \
        double: tl__from_f64,                                                                 \
        tl_dtype: tl__from_dtype,                                                             \
        tl_type *: tl__from_dtype,                                                            \
        char *: tl__from_str,                                                                 \
        const char *: tl__from_str)(x)

/*
 * Argument order.  C leaves the order in which a call's arguments are
 * evaluated unspecified (GCC often goes right to left), but the order in
 * which the ops of nested builtins are emitted is what makes the TTIR equal
 * to Python's, which evaluates left to right.  So every builtin with two or
 * more tensor arguments passes them through a small per-thread stack inside
 * a comma expression, which C sequences left to right:
 *     tl_add(a, b)  ->  (tl__push(a), tl__push(b), tl__binop_s(TL_ADD, ...))
 * Python's code generator evaluates a call's keyword arguments before its
 * positional ones (`tl.load(X + cols, mask=cols < N)` builds the mask
 * first); the keyword options (designated initializers) are therefore
 * evaluated first too, and kept on a second stack.  When more than one
 * keyword argument builds ops, bind them to variables first: C does not
 * order the fields of an initializer.
 */
int tl__push(tl_tensor x);
tl_tensor tl__pop(void);
int tl__pushk(const void *opts, unsigned size);
void tl__popk(void *opts, unsigned size);
/*
 * Optional arguments are named in C (`.mask = m`), never positional.  Every
 * options struct ends with TL__OPTS_TAIL, and the macros build it as
 *     (type){.tl__unnamed = TL__NAMED_MARK, defaults..., TL__POS, __VA_ARGS__}
 * so that a value passed without a name (`tl_sum(x, 1)`, `tl_dot(a, b, acc)`)
 * lands in `tl__unnamed`: a tensor or a string there does not compile, and a
 * number is reported by the builtin with the C line.  Nothing is silently
 * taken for another option.
 */
#define TL__NAMED_MARK (-0x1.4b57p+1000)
#define TL__OPTS_TAIL                                                                         \
    int tl__pos;                                                                              \
    double tl__unnamed
#define TL__POS .tl__pos = 0
/* A default overridden by the caller's option (`.num_stages = -1, ..., .num_stages = 2`) is
 * what -Woverride-init (GCC) and -Winitializer-overrides (Clang) warn about: the warning is
 * turned off inside these initializers only (a statement expression: a pragma cannot stand
 * inside an expression), never for the including file. */
#if defined(__clang__)
#define TL__OVR_PUSH                                                                          \
    _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Winitializer-overrides\"")
#define TL__OVR_POP _Pragma("clang diagnostic pop")
#else
#define TL__OVR_PUSH                                                                          \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Woverride-init\"")
#define TL__OVR_POP _Pragma("GCC diagnostic pop")
#endif
#define TL__OPTS(type, ...) TL__OPTS_(TL__CAT(tl__opts_, __COUNTER__), type, __VA_ARGS__)
#define TL__OPTS_(v, type, ...)                                                               \
    (__extension__({                                                                          \
        TL__OVR_PUSH type v = {.tl__unnamed = TL__NAMED_MARK, __VA_ARGS__};                   \
        TL__OVR_POP v;                                                                        \
    }))
/* Reports an optional argument passed without its name; true when there was none. */
bool tl__named(double unnamed, const char *builtin, tl_src at);
#define TL__K(type, ...) TL__K_(TL__CAT(tl__opts_, __COUNTER__), type, __VA_ARGS__)
#define TL__K_(v, type, ...)                                                                  \
    (__extension__({                                                                          \
        TL__OVR_PUSH type v = {.tl__unnamed = TL__NAMED_MARK, __VA_ARGS__};                   \
        TL__OVR_POP tl__pushk(&v, sizeof v);                                                  \
    }))
#define TL__P(x) tl__push(tl_c(x))

#define TL_NONE ((tl_tensor){0})
/* Python's True and False (C's true/false are ints, which Python treats differently) */
#define TL_TRUE (tl__from_bool(1))
#define TL_FALSE (tl__from_bool(0))
#define tl_none TL_NONE

bool tl_is_none(tl_tensor x);
/* x is not None */
#define tl_is_not_none(x) (!tl_is_none(x))
bool tl_is_tensor(tl_tensor x);
/* The Triton type of a tensor (NULL for numbers and None). */
tl_dtype tl_type_of(tl_tensor x);
/* x.dtype: the scalar type (element type of a block). */
tl_dtype tl_dtype_of(tl_tensor x);
/* x.dtype.element_ty for a pointer tensor. */
tl_dtype tl_element_ty(tl_tensor x);
/* len(x.shape) and x.shape[i]. */
int tl_rank(tl_tensor x);
int64_t tl_dim(tl_tensor x, int i);
int64_t tl_numel(tl_tensor x);

/* The dtype API of triton.language, on a dtype (`x.dtype`, tl_dtype_of(x); a pointer's
 * `p.dtype` is its pointer type): dt.is_fp8() is tl_dtype_is_fp8(dt), and so on for every
 * is_* method of tl.dtype.  A tensor passed where the dtype belongs, or a NULL dtype (a
 * Python number's), is an error reported at the C line. */
typedef enum tl_dtype_pred {
    TL_DT_FP8, TL_DT_FP8E4NV, TL_DT_FP8E4B8, TL_DT_FP8E4B15, TL_DT_FP8E5, TL_DT_FP8E5B16, TL_DT_FP16, TL_DT_BF16, TL_DT_FP32, TL_DT_FP64, TL_DT_INT1, TL_DT_INT8, TL_DT_INT16, TL_DT_INT32, TL_DT_INT64, TL_DT_UINT8, TL_DT_UINT16, TL_DT_UINT32, TL_DT_UINT64, TL_DT_FLOATING, TL_DT_STANDARD_FLOATING, TL_DT_INT_SIGNED, TL_DT_INT_UNSIGNED, TL_DT_INT, TL_DT_BOOL, TL_DT_PTR, TL_DT_BLOCK, TL_DT_CONST
} tl_dtype_pred;
bool tl__dtype_pred(tl_dtype_pred p, tl_dtype t, tl_src at);
bool tl__dtype_pred_t(tl_dtype_pred p, tl_tensor x, tl_src at);
#define TL__DTPRED(p, dt) _Generic((dt), tl_tensor: tl__dtype_pred_t, default: tl__dtype_pred)((p), (dt), TL_HERE)
#define tl_dtype_is_fp8(dt) TL__DTPRED(TL_DT_FP8, dt)
#define tl_dtype_is_fp8e4nv(dt) TL__DTPRED(TL_DT_FP8E4NV, dt)
#define tl_dtype_is_fp8e4b8(dt) TL__DTPRED(TL_DT_FP8E4B8, dt)
#define tl_dtype_is_fp8e4b15(dt) TL__DTPRED(TL_DT_FP8E4B15, dt)
#define tl_dtype_is_fp8e5(dt) TL__DTPRED(TL_DT_FP8E5, dt)
#define tl_dtype_is_fp8e5b16(dt) TL__DTPRED(TL_DT_FP8E5B16, dt)
#define tl_dtype_is_fp16(dt) TL__DTPRED(TL_DT_FP16, dt)
#define tl_dtype_is_bf16(dt) TL__DTPRED(TL_DT_BF16, dt)
#define tl_dtype_is_fp32(dt) TL__DTPRED(TL_DT_FP32, dt)
#define tl_dtype_is_fp64(dt) TL__DTPRED(TL_DT_FP64, dt)
#define tl_dtype_is_int1(dt) TL__DTPRED(TL_DT_INT1, dt)
#define tl_dtype_is_int8(dt) TL__DTPRED(TL_DT_INT8, dt)
#define tl_dtype_is_int16(dt) TL__DTPRED(TL_DT_INT16, dt)
#define tl_dtype_is_int32(dt) TL__DTPRED(TL_DT_INT32, dt)
#define tl_dtype_is_int64(dt) TL__DTPRED(TL_DT_INT64, dt)
#define tl_dtype_is_uint8(dt) TL__DTPRED(TL_DT_UINT8, dt)
#define tl_dtype_is_uint16(dt) TL__DTPRED(TL_DT_UINT16, dt)
#define tl_dtype_is_uint32(dt) TL__DTPRED(TL_DT_UINT32, dt)
#define tl_dtype_is_uint64(dt) TL__DTPRED(TL_DT_UINT64, dt)
#define tl_dtype_is_floating(dt) TL__DTPRED(TL_DT_FLOATING, dt)
#define tl_dtype_is_standard_floating(dt) TL__DTPRED(TL_DT_STANDARD_FLOATING, dt)
#define tl_dtype_is_int_signed(dt) TL__DTPRED(TL_DT_INT_SIGNED, dt)
#define tl_dtype_is_int_unsigned(dt) TL__DTPRED(TL_DT_INT_UNSIGNED, dt)
#define tl_dtype_is_int(dt) TL__DTPRED(TL_DT_INT, dt)
#define tl_dtype_is_bool(dt) TL__DTPRED(TL_DT_BOOL, dt)
#define tl_dtype_is_ptr(dt) TL__DTPRED(TL_DT_PTR, dt)
#define tl_dtype_is_block(dt) TL__DTPRED(TL_DT_BLOCK, dt)
#define tl_dtype_is_const(dt) TL__DTPRED(TL_DT_CONST, dt)
/* dt.primitive_bitwidth (a pointer type has none: an error, as in Python) */
#define tl_primitive_bitwidth(dt) tl__primitive_bitwidth((dt), TL_HERE)
int tl__primitive_bitwidth(tl_dtype t, tl_src at);
/* dt.scalar: a block type's element type, else dt itself */
tl_dtype tl_dtype_scalar(tl_dtype t);
/* dt.element_ty of a pointer type (or of a block type) */
#define tl_dtype_element_ty(dt) tl__dtype_element_ty((dt), TL_HERE)
tl_dtype tl__dtype_element_ty(tl_dtype t, tl_src at);
/* tl.core.get_int_dtype(bitwidth, signed): int1, int8 ... uint64 (tl.dtype(f"uint{n}") is
 * tl_get_int_dtype(n, false)); an unsupported pair is an error (NULL) */
#define tl_get_int_dtype(bitwidth, is_signed) tl__get_int_dtype((bitwidth), (is_signed), TL_HERE)
tl_dtype tl__get_int_dtype(int bitwidth, bool is_signed, tl_src at);

/* The value of a constexpr parameter of a @jit helper (a tl_tensor holding a
 * Python number); a tensor there is a type error, reported at the call. */
#define tl_cx_int(x) tl__cx_int((x), TL_HERE)
#define tl_cx_float(x) tl__cx_float((x), TL_HERE)
#define tl_cx_bool(x) tl__cx_bool((x), TL_HERE)
/* a dtype constexpr passed to a @jit helper (NULL for None) */
#define tl_cx_dtype(x) tl__cx_dtype((x), TL_HERE)
/* a string constexpr passed to a @jit helper (NULL for None) */
#define tl_cx_str(x) tl__cx_str((x), TL_HERE)
tl_dtype tl__cx_dtype(tl_tensor x, tl_src at);
const char *tl__cx_str(tl_tensor x, tl_src at);
int64_t tl__cx_int(tl_tensor x, tl_src at);
double tl__cx_float(tl_tensor x, tl_src at);
bool tl__cx_bool(tl_tensor x, tl_src at);

/* A shape: tl_shape(BLOCK_M, BLOCK_N). */
typedef struct tl_shape_t {
    int rank;
    int64_t d[CT_MAX_RANK];
} tl_shape_t;
#define tl_shape(...) ((tl_shape_t){TL__NARGS0(__VA_ARGS__), {__VA_ARGS__}})
/* x.shape */
tl_shape_t tl_shape_of(tl_tensor x);

/* A list of constexpr ints: tl_ints(16, 16) for multiple_of and friends. */
typedef tl_shape_t tl_ints_t;
#define tl_ints(...) tl_shape(__VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Programming model                                                   */
/* ------------------------------------------------------------------ */

#define tl_program_id(axis) tl__program_id((axis), TL_HERE)
#define tl_num_programs(axis) tl__num_programs((axis), TL_HERE)
tl_tensor tl__program_id(int axis, tl_src at);
tl_tensor tl__num_programs(int axis, tl_src at);

/* ------------------------------------------------------------------ */
/* Creation                                                            */
/* ------------------------------------------------------------------ */

#define tl_arange(start, end) tl__arange((start), (end), TL_HERE)
tl_tensor tl__arange(int64_t start, int64_t end, tl_src at);
/* tl.full(shape, value, dtype) */
#define tl_full(shape, value, dtype) tl__full((shape), tl_c(value), (dtype), TL_HERE)
tl_tensor tl__full(tl_shape_t shape, tl_tensor value, tl_dtype dtype, tl_src at);
/* tl.zeros(shape, dtype), tl.zeros_like(x) */
#define tl_zeros(shape, dtype) tl__zeros((shape), (dtype), TL_HERE)
tl_tensor tl__zeros(tl_shape_t shape, tl_dtype dtype, tl_src at);
#define tl_zeros_like(x) tl__zeros_like((x), TL_HERE)
tl_tensor tl__zeros_like(tl_tensor x, tl_src at);
/* x = <python literal> inside a kernel: tl.tensor from a number */
#define tl_to_tensor(x) tl__to_tensor(tl_c(x), TL_HERE)
tl_tensor tl__to_tensor(tl_tensor x, tl_src at);

/* ------------------------------------------------------------------ */
/* Arithmetic, comparison, logic (Python operators)                    */
/* ------------------------------------------------------------------ */

typedef enum tl_binop {
    TL_ADD, TL_SUB, TL_MUL, TL_TRUEDIV, TL_FLOORDIV, TL_MOD,
    TL_LT, TL_LE, TL_GT, TL_GE, TL_EQ, TL_NE,
    TL_AND, TL_OR, TL_XOR, TL_SHL, TL_SHR,
    TL_LOGICAL_AND, TL_LOGICAL_OR
} tl_binop;

tl_tensor tl__binop(tl_binop op, tl_tensor a, tl_tensor b, tl_src at);
tl_tensor tl__binop_s(tl_binop op, tl_src at);
#define TL__BIN(op, a, b) (TL__P(a), TL__P(b), tl__binop_s((op), TL_HERE))

#define tl_add(a, b) TL__BIN(TL_ADD, a, b)       /* a + b */
#define tl_sub(a, b) TL__BIN(TL_SUB, a, b)       /* a - b */
#define tl_mul(a, b) TL__BIN(TL_MUL, a, b)       /* a * b */
#define tl_div(a, b) TL__BIN(TL_TRUEDIV, a, b)   /* a / b */
#define tl_floordiv(a, b) TL__BIN(TL_FLOORDIV, a, b) /* a // b */
#define tl_mod(a, b) TL__BIN(TL_MOD, a, b)       /* a % b */
#define tl_lt(a, b) TL__BIN(TL_LT, a, b)         /* a < b */
#define tl_le(a, b) TL__BIN(TL_LE, a, b)         /* a <= b */
#define tl_gt(a, b) TL__BIN(TL_GT, a, b)         /* a > b */
#define tl_ge(a, b) TL__BIN(TL_GE, a, b)         /* a >= b */
#define tl_eq(a, b) TL__BIN(TL_EQ, a, b)         /* a == b */
#define tl_ne(a, b) TL__BIN(TL_NE, a, b)         /* a != b */
#define tl_and(a, b) TL__BIN(TL_AND, a, b)       /* a & b */
#define tl_or(a, b) TL__BIN(TL_OR, a, b)         /* a | b */
#define tl_xor(a, b) TL__BIN(TL_XOR, a, b)       /* a ^ b */
#define tl_shl(a, b) TL__BIN(TL_SHL, a, b)       /* a << b */
#define tl_shr(a, b) TL__BIN(TL_SHR, a, b)       /* a >> b */
#define tl_logical_and(a, b) TL__BIN(TL_LOGICAL_AND, a, b) /* a and b */
#define tl_logical_or(a, b) TL__BIN(TL_LOGICAL_OR, a, b)   /* a or b */

/* tl.add(x, y, sanitize_overflow=False) and friends */
#define tl_add_nsan(a, b) (TL__P(a), TL__P(b), tl__arith_nsan_s(TL_ADD, TL_HERE))
#define tl_sub_nsan(a, b) (TL__P(a), TL__P(b), tl__arith_nsan_s(TL_SUB, TL_HERE))
#define tl_mul_nsan(a, b) (TL__P(a), TL__P(b), tl__arith_nsan_s(TL_MUL, TL_HERE))
tl_tensor tl__arith_nsan(tl_binop op, tl_tensor a, tl_tensor b, tl_src at);
tl_tensor tl__arith_nsan_s(tl_binop op, tl_src at);

#define tl_neg(x) tl__neg(tl_c(x), TL_HERE)                 /* -x */
#define tl_invert(x) tl__invert(tl_c(x), TL_HERE)           /* ~x */
#define tl_logical_not(x) tl__logical_not(tl_c(x), TL_HERE) /* not x */
tl_tensor tl__neg(tl_tensor x, tl_src at);
tl_tensor tl__invert(tl_tensor x, tl_src at);
tl_tensor tl__logical_not(tl_tensor x, tl_src at);

/* tl.where(cond, x, y) */
#define tl_where(c, x, y) (TL__P(c), TL__P(x), TL__P(y), tl__where_s(TL_HERE))
tl_tensor tl__where(tl_tensor c, tl_tensor x, tl_tensor y, tl_src at);
tl_tensor tl__where_s(tl_src at);

typedef enum tl_propagate_nan { TL_PROPAGATE_NAN_NONE = 0, TL_PROPAGATE_NAN_ALL = 1 } tl_propagate_nan;
typedef struct tl_minmax_opts {
    tl_propagate_nan propagate_nan;
    TL__OPTS_TAIL;
} tl_minmax_opts;
/* tl.minimum(x, y, propagate_nan=...), tl.maximum, tl.clamp */
#define tl_minimum(x, ...) tl__o_minimum(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_minimum(x, y, ...) (TL__P(x), TL__P(y), tl__minmax_s(0, TL__OPTS(tl_minmax_opts, TL__POS, __VA_ARGS__), TL_HERE))
#define tl_maximum(x, ...) tl__o_maximum(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_maximum(x, y, ...) (TL__P(x), TL__P(y), tl__minmax_s(1, TL__OPTS(tl_minmax_opts, TL__POS, __VA_ARGS__), TL_HERE))
#define tl_clamp(x, lo, ...) tl__o_clamp(x, lo, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_clamp(x, lo, hi, ...)                                                              \
    (TL__P(x), TL__P(lo), TL__P(hi), tl__minmax_s(2, TL__OPTS(tl_minmax_opts, TL__POS, __VA_ARGS__), TL_HERE))
tl_tensor tl__minmax_s(int which, tl_minmax_opts o, tl_src at);
tl_tensor tl__minimum(tl_tensor x, tl_tensor y, tl_minmax_opts o, tl_src at);
tl_tensor tl__maximum(tl_tensor x, tl_tensor y, tl_minmax_opts o, tl_src at);
tl_tensor tl__clamp(tl_tensor x, tl_tensor lo, tl_tensor hi, tl_minmax_opts o, tl_src at);
/* Python's builtin min(a, b) / max(a, b) on tensors */
/* (constants fold to a constant, as in Python; otherwise tl.minimum / tl.maximum) */
#define tl_builtin_min(a, b) (TL__P(a), TL__P(b), tl__builtin_minmax_s(0, TL_HERE))
#define tl_builtin_max(a, b) (TL__P(a), TL__P(b), tl__builtin_minmax_s(1, TL_HERE))
tl_tensor tl__builtin_minmax_s(int is_max, tl_src at);

/* ------------------------------------------------------------------ */
/* Casts                                                               */
/* ------------------------------------------------------------------ */

typedef struct tl_cast_opts {
    const char *fp_downcast_rounding; /* "rtne", "rtz" or NULL */
    bool bitcast;
    TL__OPTS_TAIL;
} tl_cast_opts;
/* x.to(dtype, fp_downcast_rounding=None, bitcast=False); tl.cast(x, ...) */
#define tl_to(x, ...) tl__o_to(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_to(x, dtype, ...) tl__cast(tl_c(x), (dtype), TL__OPTS(tl_cast_opts, TL__POS, __VA_ARGS__), TL_HERE)
#define tl_cast(x, ...) tl__o_cast(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_cast(x, dtype, ...) tl__cast(tl_c(x), (dtype), TL__OPTS(tl_cast_opts, TL__POS, __VA_ARGS__), TL_HERE)
tl_tensor tl__cast(tl_tensor x, tl_dtype dtype, tl_cast_opts o, tl_src at);

/* ------------------------------------------------------------------ */
/* Memory                                                              */
/* ------------------------------------------------------------------ */

typedef struct tl_load_opts {
    tl_tensor mask;
    tl_tensor other;
    tl_ints_t boundary_check;
    const char *padding_option;
    const char *cache_modifier;  /* "", ".ca", ".cg", ".cv" */
    const char *eviction_policy; /* "", "evict_first", "evict_last" */
    bool is_volatile;
    TL__OPTS_TAIL;
} tl_load_opts;
#define tl_load(...) tl__o_load(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_load(ptr, ...) (TL__K(tl_load_opts, TL__POS, __VA_ARGS__), TL__P(ptr), tl__load_s(TL_HERE))
tl_tensor tl__load_s(tl_src at);
tl_tensor tl__load(tl_tensor ptr, tl_load_opts o, tl_src at);

typedef struct tl_store_opts {
    tl_tensor mask;
    tl_ints_t boundary_check;
    const char *cache_modifier;  /* "", ".wb", ".cg", ".cs", ".wt" */
    const char *eviction_policy;
    TL__OPTS_TAIL;
} tl_store_opts;
#define tl_store(ptr, ...) tl__o_store(ptr, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_store(ptr, value, ...) (TL__K(tl_store_opts, TL__POS, __VA_ARGS__), TL__P(ptr), TL__P(value), tl__store_s(TL_HERE))
void tl__store_s(tl_src at);
void tl__store(tl_tensor ptr, tl_tensor value, tl_store_opts o, tl_src at);

typedef struct tl_atomic_opts {
    tl_tensor mask;
    const char *sem;   /* "acquire", "release", "acq_rel" (default), "relaxed" */
    const char *scope; /* "gpu" (default), "cta", "sys" */
    TL__OPTS_TAIL;
} tl_atomic_opts;
typedef enum tl_atomic_op {
    TL_ATOMIC_ADD, TL_ATOMIC_MAX, TL_ATOMIC_MIN, TL_ATOMIC_AND,
    TL_ATOMIC_OR, TL_ATOMIC_XOR, TL_ATOMIC_XCHG
} tl_atomic_op;
tl_tensor tl__atomic(tl_atomic_op op, tl_tensor ptr, tl_tensor val, tl_atomic_opts o, tl_src at);
tl_tensor tl__atomic_s(tl_atomic_op op, tl_src at);
#define tl_atomic_add(p, ...) tl__o_atomic_add(p, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_atomic_add(p, v, ...) (TL__K(tl_atomic_opts, TL__POS, __VA_ARGS__), TL__P(p), TL__P(v), tl__atomic_s(TL_ATOMIC_ADD, TL_HERE))
#define tl_atomic_max(p, ...) tl__o_atomic_max(p, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_atomic_max(p, v, ...) (TL__K(tl_atomic_opts, TL__POS, __VA_ARGS__), TL__P(p), TL__P(v), tl__atomic_s(TL_ATOMIC_MAX, TL_HERE))
#define tl_atomic_min(p, ...) tl__o_atomic_min(p, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_atomic_min(p, v, ...) (TL__K(tl_atomic_opts, TL__POS, __VA_ARGS__), TL__P(p), TL__P(v), tl__atomic_s(TL_ATOMIC_MIN, TL_HERE))
#define tl_atomic_and(p, ...) tl__o_atomic_and(p, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_atomic_and(p, v, ...) (TL__K(tl_atomic_opts, TL__POS, __VA_ARGS__), TL__P(p), TL__P(v), tl__atomic_s(TL_ATOMIC_AND, TL_HERE))
#define tl_atomic_or(p, ...) tl__o_atomic_or(p, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_atomic_or(p, v, ...) (TL__K(tl_atomic_opts, TL__POS, __VA_ARGS__), TL__P(p), TL__P(v), tl__atomic_s(TL_ATOMIC_OR, TL_HERE))
#define tl_atomic_xor(p, ...) tl__o_atomic_xor(p, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_atomic_xor(p, v, ...) (TL__K(tl_atomic_opts, TL__POS, __VA_ARGS__), TL__P(p), TL__P(v), tl__atomic_s(TL_ATOMIC_XOR, TL_HERE))
#define tl_atomic_xchg(p, ...) tl__o_atomic_xchg(p, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_atomic_xchg(p, v, ...) (TL__K(tl_atomic_opts, TL__POS, __VA_ARGS__), TL__P(p), TL__P(v), tl__atomic_s(TL_ATOMIC_XCHG, TL_HERE))
/* tl.atomic_cas(ptr, cmp, val, sem=None, scope=None) */
#define tl_atomic_cas(p, cmp, ...) tl__o_atomic_cas(p, cmp, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_atomic_cas(p, cmp, v, ...)                                                         \
    (TL__K(tl_atomic_opts, TL__POS, __VA_ARGS__), TL__P(p), TL__P(cmp), TL__P(v), tl__atomic_cas_s(TL_HERE))
tl_tensor tl__atomic_cas_s(tl_src at);
tl_tensor tl__atomic_cas(tl_tensor ptr, tl_tensor cmp, tl_tensor val, tl_atomic_opts o, tl_src at);

/* ------------------------------------------------------------------ */
/* Math (triton.language.math)                                         */
/* ------------------------------------------------------------------ */

typedef enum tl_unary {
    TL_EXP, TL_EXP2, TL_LOG, TL_LOG2, TL_SQRT, TL_SQRT_RN, TL_RSQRT, TL_ABS,
    TL_SIN, TL_COS, TL_ERF, TL_FLOOR, TL_CEIL
} tl_unary;
tl_tensor tl__unary(tl_unary op, tl_tensor x, tl_src at);
#define tl_exp(x) tl__unary(TL_EXP, tl_c(x), TL_HERE)
#define tl_exp2(x) tl__unary(TL_EXP2, tl_c(x), TL_HERE)
#define tl_log(x) tl__unary(TL_LOG, tl_c(x), TL_HERE)
#define tl_log2(x) tl__unary(TL_LOG2, tl_c(x), TL_HERE)
#define tl_sqrt(x) tl__unary(TL_SQRT, tl_c(x), TL_HERE)
#define tl_sqrt_rn(x) tl__unary(TL_SQRT_RN, tl_c(x), TL_HERE)
#define tl_rsqrt(x) tl__unary(TL_RSQRT, tl_c(x), TL_HERE)
#define tl_abs(x) tl__unary(TL_ABS, tl_c(x), TL_HERE)
#define tl_sin(x) tl__unary(TL_SIN, tl_c(x), TL_HERE)
#define tl_cos(x) tl__unary(TL_COS, tl_c(x), TL_HERE)
#define tl_erf(x) tl__unary(TL_ERF, tl_c(x), TL_HERE)
#define tl_floor(x) tl__unary(TL_FLOOR, tl_c(x), TL_HERE)
#define tl_ceil(x) tl__unary(TL_CEIL, tl_c(x), TL_HERE)
/* tl.fma(x, y, z) */
#define tl_fma(x, y, z) (TL__P(x), TL__P(y), TL__P(z), tl__nary_s(TL__FMA, TL_HERE))
tl_tensor tl__fma(tl_tensor x, tl_tensor y, tl_tensor z, tl_src at);
/* tl.umulhi(x, y) */
#define tl_umulhi(x, y) (TL__P(x), TL__P(y), tl__nary_s(TL__UMULHI, TL_HERE))
tl_tensor tl__umulhi(tl_tensor x, tl_tensor y, tl_src at);
/* tl.fdiv(x, y, ieee_rounding=False), tl.div_rn(x, y) */
#define tl_fdiv(x, y) (TL__P(x), TL__P(y), tl__nary_s(TL__FDIV, TL_HERE))
#define tl_div_rn(x, y) (TL__P(x), TL__P(y), tl__nary_s(TL__DIV_RN, TL_HERE))
tl_tensor tl__fdiv(tl_tensor x, tl_tensor y, tl_src at);
tl_tensor tl__div_rn(tl_tensor x, tl_tensor y, tl_src at);
/* tl.sigmoid(x), tl.cdiv(x, div): standard.py functions (tt.func + tt.call) */
#define tl_sigmoid(x) tl__sigmoid(tl_c(x), TL_HERE)
#define tl_cdiv(x, d) (TL__P(x), TL__P(d), tl__nary_s(TL__CDIV, TL_HERE))
tl_tensor tl__sigmoid(tl_tensor x, tl_src at);
tl_tensor tl__cdiv(tl_tensor x, tl_tensor div, tl_src at);
/* builtins taking their tensor arguments from the argument stack */
typedef enum tl__nary {
    TL__FMA, TL__UMULHI, TL__FDIV, TL__DIV_RN, TL__CDIV, TL__JOIN, TL__GATHER, TL__RAND,
    TL__RANDN, TL__RANDINT, TL__INTERLEAVE, TL__HISTOGRAM, TL__DOT
} tl__nary;
tl_tensor tl__nary_s(tl__nary op, tl_src at);

/* libdevice (triton.language.extra.libdevice): tl_libdevice("asin", x) */
#define tl_libdevice(...) tl__o_libdevice(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_libdevice(name, ...)                                                               \
    (TL__PUSH_ALL(__VA_ARGS__) tl__libdevice_s((name), TL__NARGS(__VA_ARGS__), TL_HERE))
tl_tensor tl__libdevice_s(const char *name, int nargs, tl_src at);
tl_tensor tl__libdevice(const char *name, int nargs, const tl_tensor *args, tl_src at);
/* tl.extern_elementwise(lib_name, lib_path, args, {arg types: (symbol, ret)}, is_pure) */
typedef struct tl_extern_sig {
    tl_dtype args[4];
    const char *symbol;
    tl_dtype ret;
} tl_extern_sig;
#define tl_extern_elementwise(lib_name, lib_path, nargs, args, nsigs, sigs, is_pure)          \
    tl__extern_elementwise((lib_name), (lib_path), (nargs), (args), (nsigs), (sigs), (is_pure), \
                           TL_HERE)
tl_tensor tl__extern_elementwise(const char *lib_name, const char *lib_path, int nargs,
                                 const tl_tensor *args, int nsigs, const tl_extern_sig *sigs,
                                 bool is_pure, tl_src at);

/* ------------------------------------------------------------------ */
/* Shapes                                                              */
/* ------------------------------------------------------------------ */

/* x[:, None], x[None, :], x[None] ... : tl_idx(x, ":, None") */
#define tl_idx(x, spec) tl__idx((x), (spec), TL_HERE)
tl_tensor tl__idx(tl_tensor x, const char *spec, tl_src at);
#define tl_expand_dims(x, axis) tl__expand_dims(tl_c(x), (tl_ints_t){1, {(axis)}}, TL_HERE)
#define tl_expand_dims_n(x, axes) tl__expand_dims(tl_c(x), (axes), TL_HERE)
tl_tensor tl__expand_dims(tl_tensor x, tl_ints_t axes, tl_src at);
#define tl_broadcast_to(x, shape) tl__broadcast_to(tl_c(x), (shape), TL_HERE)
tl_tensor tl__broadcast_to(tl_tensor x, tl_shape_t shape, tl_src at);
/* tl.broadcast(a, b) -> two tensors */
void tl__broadcast(tl_tensor a, tl_tensor b, tl_tensor *oa, tl_tensor *ob, tl_src at);
#define tl_broadcast(a, b, oa, ob) (TL__P(a), TL__P(b), tl__broadcast_s((oa), (ob), TL_HERE))
void tl__broadcast_s(tl_tensor *oa, tl_tensor *ob, tl_src at);
typedef struct tl_reshape_opts {
    bool can_reorder;
    TL__OPTS_TAIL;
} tl_reshape_opts;
#define tl_reshape(x, ...) tl__o_reshape(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_reshape(x, shape, ...) tl__reshape((x), (shape), TL__OPTS(tl_reshape_opts, TL__POS, __VA_ARGS__), TL_HERE)
tl_tensor tl__reshape(tl_tensor x, tl_shape_t shape, tl_reshape_opts o, tl_src at);
#define tl_view(x, shape) tl__reshape((x), (shape), TL__OPTS(tl_reshape_opts, .can_reorder = true, TL__POS), TL_HERE)
/* tl.ravel(x, can_reorder=False): .can_reorder = true */
typedef struct tl_ravel_opts {
    bool can_reorder;
    TL__OPTS_TAIL;
} tl_ravel_opts;
#define tl_ravel(...) tl__o_ravel(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_ravel(x, ...) tl__ravel_o((x), TL__OPTS(tl_ravel_opts, TL__POS, __VA_ARGS__), TL_HERE)
tl_tensor tl__ravel_o(tl_tensor x, tl_ravel_opts o, tl_src at);
/* tl.permute(x, dims), tl.trans(x, *dims) (no dims: swap the last two), x.T */
#define tl_permute(x, dims) tl__permute((x), (dims), TL_HERE)
#define tl_trans(...) tl__o_trans(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_trans(x, ...) tl__trans((x), (tl_ints_t){TL__NARGS0(__VA_ARGS__), {__VA_ARGS__}}, TL_HERE)
#define tl_T(x) tl__permute((x), tl_ints(1, 0), TL_HERE)
tl_tensor tl__permute(tl_tensor x, tl_ints_t dims, tl_src at);
tl_tensor tl__trans(tl_tensor x, tl_ints_t dims, tl_src at);
#define tl_join(a, b) (TL__P(a), TL__P(b), tl__nary_s(TL__JOIN, TL_HERE))
tl_tensor tl__join(tl_tensor a, tl_tensor b, tl_src at);
/* a, b = tl.split(x) */
#define tl_split(x, a, b) tl__split((x), (a), (b), TL_HERE)
void tl__split(tl_tensor x, tl_tensor *a, tl_tensor *b, tl_src at);
/* tl.cat(a, b, can_reorder=False, dim=0): with .can_reorder = true the 1-D tt.cat
 * (deprecated in Triton 3.9); without, from Triton 3.7, join, permute and reshape
 * along .dim (Triton 3.6 refuses it, as Python does) */
typedef struct tl_cat_opts {
    bool can_reorder;
    int dim;
    TL__OPTS_TAIL;
} tl_cat_opts;
#define tl_cat(a, ...) tl__o_cat(a, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_cat(a, b, ...) (TL__P(a), TL__P(b), tl__cat_s(TL__OPTS(tl_cat_opts, TL__POS, __VA_ARGS__), TL_HERE))
tl_tensor tl__cat_s(tl_cat_opts o, tl_src at);
tl_tensor tl__cat(tl_tensor a, tl_tensor b, tl_cat_opts o, tl_src at);
#define tl_interleave(a, b) (TL__P(a), TL__P(b), tl__nary_s(TL__INTERLEAVE, TL_HERE))
tl_tensor tl__interleave(tl_tensor a, tl_tensor b, tl_src at);
/* tl.gather(src, index, axis), tl.histogram(x, num_bins, mask=None) */
#define tl_gather(src, index, axis) (TL__P(src), TL__P(index), tl__gather_s((axis), TL_HERE))
tl_tensor tl__gather_s(int axis, tl_src at);
tl_tensor tl__gather(tl_tensor src, tl_tensor index, int axis, tl_src at);
#define tl_histogram(x, ...) tl__o_histogram(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_histogram(x, num_bins, ...) (TL__P(x), TL__PUSH_OPT(__VA_ARGS__), tl__histogram_s((num_bins), TL_HERE))
tl_tensor tl__histogram_s(int num_bins, tl_src at);
tl_tensor tl__histogram(tl_tensor x, int num_bins, tl_tensor mask, tl_src at);

/* ------------------------------------------------------------------ */
/* Reductions and scans                                                */
/* ------------------------------------------------------------------ */

#define TL_AXIS_NONE INT_MIN

typedef struct tl_reduce_opts {
    int axis;                 /* TL_AXIS_NONE (default): every axis */
    bool keep_dims;
    tl_dtype dtype;           /* tl.sum(dtype=...) */
    bool tie_break_left;      /* argmax/argmin; with indices */
    bool reverse;             /* scans */
    TL__OPTS_TAIL;
} tl_reduce_opts;

#define TL__REDUCE_OPTS(...) TL__OPTS(tl_reduce_opts, .axis = TL_AXIS_NONE, .tie_break_left = true, TL__POS, __VA_ARGS__)
#define TL__REDUCE_OPTS_AXIS(axis_, ...) TL__OPTS(tl_reduce_opts, .axis = axis_, .tie_break_left = true, TL__POS, __VA_ARGS__)
#define TL__SCAN_OPTS(...) TL__OPTS(tl_reduce_opts, .axis = 0, .tie_break_left = true, TL__POS, __VA_ARGS__)

typedef enum tl_reduce_kind {
    TL_RED_SUM, TL_RED_MAX, TL_RED_MIN, TL_RED_ARGMAX, TL_RED_ARGMIN, TL_RED_XOR_SUM,
    TL_RED_OR, TL_SCAN_CUMSUM, TL_SCAN_CUMPROD
} tl_reduce_kind;
tl_tensor tl__reduce_std(tl_reduce_kind k, tl_tensor x, tl_reduce_opts o, tl_src at);

#define tl_sum(...) tl__o_sum(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_sum(x, ...) tl__reduce_std(TL_RED_SUM, (x), TL__REDUCE_OPTS(__VA_ARGS__), TL_HERE)
#define tl_max(...) tl__o_max(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_max(x, ...) tl__reduce_std(TL_RED_MAX, (x), TL__REDUCE_OPTS(__VA_ARGS__), TL_HERE)
#define tl_min(...) tl__o_min(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_min(x, ...) tl__reduce_std(TL_RED_MIN, (x), TL__REDUCE_OPTS(__VA_ARGS__), TL_HERE)
#define tl_argmax(x, ...) tl__o_argmax(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_argmax(x, axis_, ...) tl__reduce_std(TL_RED_ARGMAX, (x), TL__REDUCE_OPTS_AXIS((axis_), __VA_ARGS__), TL_HERE)
#define tl_argmin(x, ...) tl__o_argmin(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_argmin(x, axis_, ...) tl__reduce_std(TL_RED_ARGMIN, (x), TL__REDUCE_OPTS_AXIS((axis_), __VA_ARGS__), TL_HERE)
#define tl_xor_sum(...) tl__o_xor_sum(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_xor_sum(x, ...) tl__reduce_std(TL_RED_XOR_SUM, (x), TL__REDUCE_OPTS(__VA_ARGS__), TL_HERE)
#define tl_reduce_or(x, ...) tl__o_reduce_or(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_reduce_or(x, axis_, ...) tl__reduce_std(TL_RED_OR, (x), TL__REDUCE_OPTS_AXIS((axis_), __VA_ARGS__), TL_HERE)
#define tl_cumsum(...) tl__o_cumsum(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_cumsum(x, ...) tl__reduce_std(TL_SCAN_CUMSUM, (x), TL__SCAN_OPTS(__VA_ARGS__), TL_HERE)
#define tl_cumprod(...) tl__o_cumprod(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_cumprod(x, ...) tl__reduce_std(TL_SCAN_CUMPROD, (x), TL__SCAN_OPTS(__VA_ARGS__), TL_HERE)
/* v, i = tl.max(x, axis, return_indices=True) */
#define tl_max_with_indices(x, v, ...) tl__o_max_with_indices(x, v, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_max_with_indices(x, v, i, ...) tl__max_idx(true, (x), (v), (i), TL__REDUCE_OPTS(__VA_ARGS__), TL_HERE)
#define tl_min_with_indices(x, v, ...) tl__o_min_with_indices(x, v, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_min_with_indices(x, v, i, ...) tl__max_idx(false, (x), (v), (i), TL__REDUCE_OPTS(__VA_ARGS__), TL_HERE)
void tl__max_idx(bool is_max, tl_tensor x, tl_tensor *v, tl_tensor *i, tl_reduce_opts o, tl_src at);

/* tl.sort(x, dim=None, descending=...), tl.topk(x, k, dim=None), tl.bitonic_merge(x, dim=None,
 * descending=...): along the last dimension, whose size (and the tensor's) must be powers of two.
 * `.descending = true` is Python's descending=True; left out, Python's default (the integer 0). */
typedef struct tl_sort_opts {
    int dim;          /* TL_AXIS_NONE (default): None, the last dimension */
    int descending;   /* -1 (default): Python's default; 0/1: False/True */
    TL__OPTS_TAIL;
} tl_sort_opts;
#define TL__SORT_OPTS(...) TL__OPTS(tl_sort_opts, .dim = TL_AXIS_NONE, .descending = -1, TL__POS, __VA_ARGS__)
#define tl_sort(...) tl__o_sort(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_sort(x, ...) tl__sort_std(0, (x), 0, TL__SORT_OPTS(__VA_ARGS__), TL_HERE)
#define tl_topk(x, ...) tl__o_topk(x, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_topk(x, k, ...) tl__sort_std(1, (x), (k), TL__SORT_OPTS(__VA_ARGS__), TL_HERE)
#define tl_bitonic_merge(...) tl__o_bitonic_merge(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_bitonic_merge(x, ...) tl__sort_std(2, (x), 0, TL__SORT_OPTS(__VA_ARGS__), TL_HERE)
tl_tensor tl__sort_std(int what, tl_tensor x, int k, tl_sort_opts o, tl_src at);
/* tl.flip(x, dim): dim is required (Triton 3.6 fails on dim=None) */
#define tl_flip(x, dim) tl__flip((x), (dim), TL_HERE)
tl_tensor tl__flip(tl_tensor x, int dim, tl_src at);

/* ------------------------------------------------------------------ */
/* Linear algebra                                                      */
/* ------------------------------------------------------------------ */

typedef struct tl_dot_opts {
    tl_tensor acc;
    const char *input_precision; /* "tf32", "tf32x3", "ieee"; NULL: the default */
    int max_num_imprecise_acc;   /* -1: None */
    tl_dtype out_dtype;          /* default tl_float32 */
    int allow_tf32;              /* -1: None, 0, 1 (deprecated) */
    TL__OPTS_TAIL;
} tl_dot_opts;
/* tl.dot(a, b, acc=None, input_precision=None, max_num_imprecise_acc=None, out_dtype=float32) */
#define tl_dot(a, ...) tl__o_dot(a, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_dot(a, b, ...)                                                                     \
    (TL__K(tl_dot_opts, .max_num_imprecise_acc = -1, .allow_tf32 = -1, TL__POS, __VA_ARGS__), TL__P(a),  \
     TL__P(b), tl__dot_s(TL_HERE))
tl_tensor tl__dot_s(tl_src at);
tl_tensor tl__dot(tl_tensor a, tl_tensor b, tl_dot_opts o, tl_src at);

/* ------------------------------------------------------------------ */
/* Random (triton.language.random, Philox)                             */
/* ------------------------------------------------------------------ */

typedef enum tl_rand_kind { TL_RAND, TL_RANDN, TL_RANDINT } tl_rand_kind;
tl_tensor tl__rand(tl_rand_kind k, tl_tensor seed, tl_tensor offset, int n_rounds, tl_src at);
/* n_rounds= of every random function: .n_rounds = 7 (default 10, Triton's N_ROUNDS_DEFAULT) */
typedef struct tl_rand_opts {
    int n_rounds;
    TL__OPTS_TAIL;
} tl_rand_opts;
#define TL__RAND_OPTS(...) TL__OPTS(tl_rand_opts, .n_rounds = 10, TL__POS, __VA_ARGS__)
tl_tensor tl__rand_s(tl_rand_kind k, tl_rand_opts o, tl_src at);
#define tl_rand(seed, ...) tl__o_rand(seed, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_rand(seed, offset, ...) (TL__P(seed), TL__P(offset), tl__rand_s(TL_RAND, TL__RAND_OPTS(__VA_ARGS__), TL_HERE))
#define tl_randn(seed, ...) tl__o_randn(seed, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_randn(seed, offset, ...) (TL__P(seed), TL__P(offset), tl__rand_s(TL_RANDN, TL__RAND_OPTS(__VA_ARGS__), TL_HERE))
#define tl_randint(seed, ...) tl__o_randint(seed, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_randint(seed, offset, ...) (TL__P(seed), TL__P(offset), tl__rand_s(TL_RANDINT, TL__RAND_OPTS(__VA_ARGS__), TL_HERE))
/* a, b, c, d = tl.randint4x(seed, offset) */
void tl__randint4x(tl_tensor seed, tl_tensor offset, int n_rounds, tl_tensor out[4], tl_src at);
#define tl_randint4x(seed, offset, ...) tl__o_randint4x(seed, offset, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_randint4x(seed, offset, out, ...)                                                  \
    (TL__P(seed), TL__P(offset), tl__randint4x_s((out), TL__RAND_OPTS(__VA_ARGS__), TL_HERE))
void tl__randint4x_s(tl_tensor out[4], tl_rand_opts o, tl_src at);
/* u1, u2, u3, u4 = tl.rand4x(seed, offsets); n1, ..., n4 = tl.randn4x(seed, offsets) */
void tl__rand4x(bool normal, tl_tensor seed, tl_tensor offset, int n_rounds, tl_tensor out[4], tl_src at);
#define tl_rand4x(seed, offset, ...) tl__o_rand4x(seed, offset, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_rand4x(seed, offset, out, ...)                                                     \
    (TL__P(seed), TL__P(offset), tl__rand4x_s(false, (out), TL__RAND_OPTS(__VA_ARGS__), TL_HERE))
#define tl_randn4x(seed, offset, ...) tl__o_randn4x(seed, offset, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_randn4x(seed, offset, out, ...)                                                    \
    (TL__P(seed), TL__P(offset), tl__rand4x_s(true, (out), TL__RAND_OPTS(__VA_ARGS__), TL_HERE))
void tl__rand4x_s(bool normal, tl_tensor out[4], tl_rand_opts o, tl_src at);
/* c0, c1, c2, c3 = tl.philox(seed, c0, c1, c2, c3) */
void tl__philox(tl_tensor seed, tl_tensor c0, tl_tensor c1, tl_tensor c2, tl_tensor c3,
                int n_rounds, tl_tensor out[4], tl_src at);
#define tl_philox(seed, c0, c1, c2, c3, ...) tl__o_philox(seed, c0, c1, c2, c3, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_philox(seed, c0, c1, c2, c3, out, ...)                                             \
    (TL__P(seed), TL__P(c0), TL__P(c1), TL__P(c2), TL__P(c3),                                 \
     tl__philox_s((out), TL__RAND_OPTS(__VA_ARGS__), TL_HERE))
void tl__philox_s(tl_tensor out[4], tl_rand_opts o, tl_src at);
/* tl.uint_to_uniform_float(x); n1, n2 = tl.pair_uniform_to_normal(u1, u2) */
tl_tensor tl__uint_to_uniform_float(tl_tensor x, tl_src at);
#define tl_uint_to_uniform_float(x) tl__uint_to_uniform_float(tl_c(x), TL_HERE)
void tl__pair_uniform_to_normal(tl_tensor u1, tl_tensor u2, tl_tensor out[2], tl_src at);
#define tl_pair_uniform_to_normal(u1, u2, out)                                                \
    (TL__P(u1), TL__P(u2), tl__pair_uniform_to_normal_s((out), TL_HERE))
void tl__pair_uniform_to_normal_s(tl_tensor out[2], tl_src at);

/* ------------------------------------------------------------------ */
/* Compiler hints and debugging                                        */
/* ------------------------------------------------------------------ */

#define tl_multiple_of(...) tl__o_multiple_of(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_multiple_of(x, ...) tl__hint(0, (x), tl_ints(__VA_ARGS__), TL_HERE)
#define tl_max_contiguous(...) tl__o_max_contiguous(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_max_contiguous(x, ...) tl__hint(1, (x), tl_ints(__VA_ARGS__), TL_HERE)
#define tl_max_constancy(...) tl__o_max_constancy(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_max_constancy(x, ...) tl__hint(2, (x), tl_ints(__VA_ARGS__), TL_HERE)
tl_tensor tl__hint(int which, tl_tensor x, tl_ints_t values, tl_src at);
#define tl_assume(cond) tl__assume(tl_c(cond), TL_HERE)
void tl__assume(tl_tensor cond, tl_src at);
#define tl_debug_barrier() tl__debug_barrier(TL_HERE)
void tl__debug_barrier(tl_src at);
/* tl.static_assert(cond, msg): checked while the kernel is built */
#define tl_static_assert(...) tl__o_static_assert(__VA_ARGS__, "", ~)
#define tl__o_static_assert(cond, msg, ...) tl__static_assert((cond), "" msg, #cond, TL_HERE)
void tl__static_assert(bool cond, const char *msg, const char *text, tl_src at);
/* tl.device_print(prefix, *args), tl.device_assert(cond, msg, mask=None) */
#define tl_device_print(...) tl__o_device_print(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_device_print(prefix, ...)                                                          \
    (TL__PUSH_ALL(__VA_ARGS__) tl__device_print_s((prefix), TL__NARGS0(__VA_ARGS__), false, TL_HERE))
void tl__device_print_s(const char *prefix, int n, bool hex, tl_src at);
void tl__device_print(const char *prefix, int n, const tl_tensor *args, bool hex, tl_src at);
/* tl.device_print(prefix, *args, hex=True) */
#define tl_device_print_hex(...) tl__o_device_print_hex(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_device_print_hex(prefix, ...)                                                      \
    (TL__PUSH_ALL(__VA_ARGS__) tl__device_print_s((prefix), TL__NARGS0(__VA_ARGS__), true, TL_HERE))
/* tl.device_assert(cond, msg, mask=m): .mask = m (a keyword: built before cond, as in Python) */
typedef struct tl_assert_opts {
    tl_tensor mask;
    TL__OPTS_TAIL;
} tl_assert_opts;
#define tl_device_assert(cond, ...) tl__o_device_assert(cond, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_device_assert(cond, msg, ...)                                                      \
    (TL__K(tl_assert_opts, TL__POS, __VA_ARGS__), TL__P(cond), tl__device_assert_s((msg), TL_HERE))
void tl__device_assert_s(const char *msg, tl_src at);
void tl__device_assert(tl_tensor cond, const char *msg, tl_tensor mask, tl_src at);

/* ------------------------------------------------------------------ */
/* Runtime control flow                                                */
/* ------------------------------------------------------------------ */

/* tl.range(start, end, step, num_stages=..., ...) and Python's range(). */
typedef struct tl_range_t {
    tl_tensor start, end, step;
    int num_stages;           /* -1: None */
    int loop_unroll_factor;   /* -1: None */
    bool disallow_acc_multi_buffer, flatten, warp_specialize, disable_licm;
    TL__OPTS_TAIL;
} tl_range_t;
#define tl_range(start, end, ...) tl__o_range(start, end, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_range(start, end, step, ...)                                                       \
    (TL__P(start), TL__P(end), TL__P(step),                                                   \
     tl__range_s(TL__OPTS(tl_range_t, .num_stages = -1, .loop_unroll_factor = -1, TL__POS, __VA_ARGS__)))
tl_range_t tl__range_s(tl_range_t r);
/* Python's builtin range(), as Triton's code generator reads it: range(n) is
 * range(0, n, 1) with n evaluated twice (the arguments once, then n again for
 * the bound; the first value goes unused, as in Python's raw TTIR);
 * range(a, b) and range(a, b, s) are tl_range(a, b, 1) and tl_range(a, b, s).
 * tl.range(...) is tl_range. */
#define tl_pyrange(...) TL__CAT(tl__pyrange_, TL__NARGS(__VA_ARGS__))(__VA_ARGS__)
#define tl__pyrange_1(n)                                                                      \
    (TL__P(n), TL__P(0), TL__P(n), TL__P(1),                                                  \
     tl__pyrange1_s(TL__OPTS(tl_range_t, .num_stages = -1, .loop_unroll_factor = -1, TL__POS)))
#define tl__pyrange_2(start, end) tl_range(start, end, 1)
#define tl__pyrange_3(start, end, step) tl_range(start, end, step)
tl_range_t tl__pyrange1_s(tl_range_t r);

typedef struct tl__ctl {
    int phase;
    bool done;
    int n;
    tl_tensor **vars;
    void *state;
} tl__ctl;

tl__ctl tl__for_begin(tl_range_t r, int n, tl_tensor **vars, tl_src at);
bool tl__for_enter(tl__ctl *c, tl_tensor *iv);
void tl__for_end(tl__ctl *c);
tl__ctl tl__while_begin(int n, tl_tensor **vars, tl_src at);
bool tl__while_cond(tl__ctl *c, tl_tensor cond);
void tl__while_end(tl__ctl *c);
tl__ctl tl__if_begin(tl_tensor cond, int n, tl_tensor **vars, tl_src at);
bool tl__if_step(tl__ctl *c);
tl_tensor tl__ifexp_begin(tl_tensor cond, tl_src at);
tl_tensor tl__ifexp_then(tl_tensor v);
tl_tensor tl__ifexp_else(tl_tensor v);
void tl__return(int n, const tl_tensor *vals, tl_src at);

#define TL__CTL TL__CAT(tl__ctl_, __LINE__)

/* for iv in range/tl.range (runtime loop) carrying the listed variables */
#define TL_FOR(iv, ...)                                                                       \
    for (tl_tensor iv = {0}, *TL__CAT(tl__ivp_, __LINE__) = &iv; TL__CAT(tl__ivp_, __LINE__);  \
         TL__CAT(tl__ivp_, __LINE__) = NULL)                                                   \
        for (tl__ctl TL__CTL = tl__for_begin((TL__HEAD(__VA_ARGS__)), TL__NTAIL(__VA_ARGS__),  \
                                             (tl_tensor *[]){TL__MAP1(TL__ADDR_, __VA_ARGS__) NULL}, \
                                             TL_HERE);                                        \
             !TL__CTL.done && tl__for_enter(&TL__CTL, &iv); tl__for_end(&TL__CTL))

/* while cond: ... carrying the listed variables (cond is re-read each trip) */
#define TL_WHILE(...)                                                                         \
    for (tl__ctl TL__CTL = tl__while_begin(TL__NTAIL(__VA_ARGS__),                             \
                                           (tl_tensor *[]){TL__MAP1(TL__ADDR_, __VA_ARGS__) NULL}, \
                                           TL_HERE);                                          \
         !TL__CTL.done && tl__while_cond(&TL__CTL, tl_c(TL__HEAD(__VA_ARGS__)));               \
         tl__while_end(&TL__CTL))

/* if cond: ... [else: ...] assigning the listed variables */
#define TL_IF(...)                                                                            \
    for (tl__ctl TL__CTL = tl__if_begin(tl_c(TL__HEAD(__VA_ARGS__)), TL__NTAIL(__VA_ARGS__),   \
                                        (tl_tensor *[]){TL__MAP1(TL__ADDR_, __VA_ARGS__) NULL}, \
                                        TL_HERE);                                             \
         tl__if_step(&TL__CTL);)                                                              \
        if (TL__CTL.phase == 1)
#define TL_ELSE else

/* then_value if cond else else_value, with a runtime condition */
#define TL_IFEXP(cond, then_v, else_v)                                                        \
    (tl__ifexp_begin(tl_c(cond), TL_HERE), tl__ifexp_then(tl_c(then_v)),                       \
     tl__ifexp_else(tl_c(else_v)))

/* return [values] from a kernel or @jit function (early return inside TL_IF) */
#define TL_RETURN(...) (TL__PUSH_ALL(__VA_ARGS__) tl__return_s(TL__NARGS0(__VA_ARGS__), TL_HERE))
void tl__return_s(int n, tl_src at);

/* ------------------------------------------------------------------ */
/* Kernels and @jit helper functions                                   */
/* ------------------------------------------------------------------ */

/* A constexpr value as configs carry it. */
typedef enum tl_cx_kind { TL_CX_NONE, TL_CX_INT, TL_CX_FLOAT, TL_CX_BOOL, TL_CX_STR, TL_CX_DTYPE } tl_cx_kind;
typedef struct tl_cx {
    tl_cx_kind kind;
    int64_t i;
    double f;
    const char *s;
    tl_dtype dtype;
} tl_cx;

typedef struct tl_kernel_def {
    const char *name;
    const char *file;
    int nparams;
    const char *const *params;    /* runtime parameters, in order */
    int ncx;
    const char *const *cx_names;  /* constexpr parameters */
    const tl_cx_kind *cx_kinds;
    void (*body)(const tl_tensor *args, const tl_cx *cx);
    const tl_cx *cx_defaults;     /* each constexpr's default (kind TL_CX_NONE: none); may be NULL */
} tl_kernel_def;

/* Kernel options: what Triton's `num_warps=` etc. carry. */
typedef struct tl_options {
    int num_warps;              /* default 4 */
    int num_stages;             /* default 3 */
    int num_ctas;               /* default 1 */
    int maxnreg;                /* 0: none */
    bool debug;                 /* device asserts, overflow checks enabled */
    bool sanitize_overflow;     /* default true (the checks are dead without debug) */
    bool enable_fp_fusion;      /* default true */
    int arch;                   /* default 90 */
    bool implicit_store_casts;  /* accept stores that convert values implicitly, as
                                   Python does (default false: they are errors) */
    const char *triton;         /* the Triton release to build for ("3.9.0"); NULL: the
                                   default target (ctriton/triton_version.h: $CTRITON_TRITON_VERSION,
                                   else the Triton installed for lowering) */
} tl_options;

/* One compiled variant of a kernel: its specialization. */
typedef struct tl_config {
    const char *name;
    const char *signature;      /* "x_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32" */
    const char *constexprs;     /* "BLOCK_SIZE=1024 ACTIVATION='leaky_relu'" */
    const char *problem;        /* sizes for running it: "M=4096 N=1000" */
    int num_warps, num_stages;
    const char *options;        /* other tl_options, as text (tl_options_parse):
                                   "implicit_store_casts=True enable_fp_fusion=False" */
} tl_config;

/* Builds the TTIR module of a kernel for a signature and constexprs.
 * Returns NULL (and diagnostics) if the kernel is refused. */
/* One runtime parameter of a Triton signature string ("x_ptr=*fp32:16 n=i32 m=1 s_ptr=None").
 * "1" and "None" are the JIT's constexpr specializations of an int equal to 1 and of a None
 * argument: the parameter leaves the kernel's signature, and the body sees the Python int 1,
 * or None (tl_is_none). */
typedef struct tl_sig_param {
    tl_dtype type;       /* a scalar dtype, or a pointer type; NULL when specialized to 1 or None */
    int divisibility;    /* 16 or 0 */
    bool is_const_one;   /* "1": the argument is the constant 1 and not passed */
    bool is_none;        /* "None": the argument is None and not passed */
} tl_sig_param;
/* Parses a signature for the kernel's runtime parameters (entries by name or in
 * order) into out[k->nparams]; false with errors in d (may be NULL) if malformed. */
bool tl_parse_signature(const tl_kernel_def *k, const char *signature, tl_sig_param *out,
                        ct_diags *d);

ct_module *tl_build(const tl_kernel_def *k, const char *signature, const char *constexprs,
                    const tl_options *opts, ct_diags *diags);
ct_module *tl_build_config(const tl_kernel_def *k, const tl_config *cfg, ct_diags *diags);
/* tl_options_default, then a config's num_warps and num_stages: what tl_build_config builds
 * with (set .triton on top to build a config for another release) */
void tl_options_for_config(tl_options *o, const tl_config *cfg);
/* Sets options from text, "NAME=VALUE ...": implicit_store_casts, debug, sanitize_overflow,
 * enable_fp_fusion (True/False), num_warps, num_stages, num_ctas, maxnreg, arch (ints).
 * false with an error in d (may be NULL) naming a bad entry; o keeps the entries before it. */
bool tl_options_parse(tl_options *o, const char *text, ct_diags *d);
void tl_options_default(tl_options *o);

/* Internal: the body of a @jit helper, called through tl__call_jit. */
typedef void (*tl__jit_body)(const tl_tensor *args, tl_tensor *rets, void *ud);
int tl__call_jit(const char *name, const char *file, int nargs, const char *const *argnames,
                 const tl_tensor *args, int nrets, tl_tensor *rets, tl__jit_body body, void *ud,
                 tl_src at);

/* ---- macro machinery for parameter lists ---------------------------- */

#define TL__ADDR_(v, i) &(v),
#define TL__ADDR_ALL(...) TL__MAP(TL__ADDR_, __VA_ARGS__)
#define TL__LIFT_(v, i) tl_c(v),
#define TL__LIFT_ALL(...) TL__MAP(TL__LIFT_, __VA_ARGS__)
#define TL__PUSH_(v, i) TL__P(v),
#define TL__PUSH_ALL(...) TL__MAP(TL__PUSH_, __VA_ARGS__)
#define TL__PUSH_OPT(...) tl__push(tl__opt_tensor(__VA_ARGS__))
#define TL__COMMA_(v, i) , v
#define TL__STR_(v, i) #v,
#define TL__STR_ALL(...) TL__MAP(TL__STR_, __VA_ARGS__)
/* parameters a port does not use (Python does not mind) are not warned about */
#define TL__PARAM_(v, i) , __attribute__((unused)) tl_tensor v
#define TL__PARAMS(...) TL__MAP(TL__PARAM_, __VA_ARGS__)
/* positional arguments a[0], a[1], ... (the map counts down, so index from the end) */
#define TL__ARGREF_(v, i) , tl__a[tl__n - 1 - (i)]
#define TL__ARGREFS(...) TL__MAP(TL__ARGREF_, __VA_ARGS__)
#define TL__UNPAREN(...) __VA_ARGS__
/* the first parameter of a body function, which keeps its list non-empty */
#define TL__UNUSED_ARG __attribute__((unused)) int tl__unused

/* constexpr parameter pairs: (int, BLOCK_SIZE) */
/* (type, NAME) or, with Python's default (`NAME: tl.constexpr = 64`), (type, NAME, 64) */
#define TL__CXT(p) TL__CXT_ p
#define TL__CXT_(type, ...) type
#define TL__CXN(p) TL__CXN_ p
#define TL__CXN_(type, ...) TL__HEAD(__VA_ARGS__)
/* the default as a tl_cx (kind TL_CX_NONE: none), a constant initializer */
#define TL__CXDEF_(p, i) TL__APPLY(TL__CAT(TL__CXDEF_, TL__NARGS(TL__UNPAREN p)), p),
#define TL__APPLY(m, args) m args
#define TL__CXDEF_2(type, name) {TL_CX_NONE, 0, 0.0, NULL, NULL}
#define TL__CXDEF_3(type, name, d)                                                            \
    {TL__CXKIND(type),                                                                        \
     _Generic((type){0}, bool: (d), int: (d), long: (d), long long: (d), default: 0),         \
     _Generic((type){0}, double: (d), float: (d), default: 0.0),                              \
     _Generic((type){0}, const char *: (d), char *: (d), default: NULL),                      \
     _Generic((type){0}, tl_dtype: (d), default: NULL)}
#define TL__CXDECL_(p, i) , __attribute__((unused)) TL__CXT(p) TL__CXN(p)
#define TL__CXNAME_(p, i) TL__STR2(TL__CXN(p)),
#define TL__STR2(x) TL__STR3(x)
#define TL__STR3(x) #x
#define TL__CXKIND(type)                                                                      \
    _Generic((type){0}, bool: TL_CX_BOOL, int: TL_CX_INT, long: TL_CX_INT, long long: TL_CX_INT, \
             double: TL_CX_FLOAT, float: TL_CX_FLOAT, const char *: TL_CX_STR, char *: TL_CX_STR, \
             tl_dtype: TL_CX_DTYPE)
#define TL__CXKIND_(p, i) TL__CXKIND(TL__CXT(p)),
#define TL__CXGET(type, c)                                                                    \
    _Generic((type){0}, bool: (c).i != 0, int: (int)(c).i, long: (long)(c).i,                  \
             long long: (long long)(c).i, double: (c).f, float: (float)(c).f,                 \
             const char *: (c).s, char *: (char *)(c).s, tl_dtype: (c).dtype)
#define TL__CXREF_(p, i) , TL__CXGET(TL__CXT(p), tl__c[tl__m - 1 - (i)])

/*
 * TL_KERNEL(name, (runtime params...), (type, CONSTEXPR)...)
 *
 *   TL_KERNEL(softmax_kernel, (x_ptr, y_ptr, n_cols), (int, BLOCK_SIZE)) { ... }
 *
 * defines `const tl_kernel_def name` and the body as a C function whose
 * runtime parameters are tl_tensor and whose constexprs have their C type.
 */
#define TL_KERNEL(name, ...) TL__KERNEL_(name, TL__HEAD(__VA_ARGS__), __VA_ARGS__)
#define TL__KERNEL_(name, params, ...)                                                        \
    static void name##__body(TL__UNUSED_ARG TL__PARAMS params TL__MAP1(TL__CXDECL_, __VA_ARGS__)); \
    static void name##__thunk(const tl_tensor *tl__a, const tl_cx *tl__c)                     \
    {                                                                                         \
        enum { tl__n = TL__NARGS0 params, tl__m = TL__NTAIL(__VA_ARGS__) };                     \
        (void)tl__a;                                                                          \
        (void)tl__c;                                                                          \
        name##__body(0 TL__ARGREFS params TL__MAP1(TL__CXREF_, __VA_ARGS__));                 \
    }                                                                                         \
    static const char *const name##__params[] = {TL__STR_ALL params NULL};                    \
    static const char *const name##__cxnames[] = {TL__MAP1(TL__CXNAME_, __VA_ARGS__) NULL};  \
    static const tl_cx_kind name##__cxkinds[] = {TL__MAP1(TL__CXKIND_, __VA_ARGS__) TL_CX_NONE}; \
    static const tl_cx name##__cxdefaults[] = {TL__MAP1(TL__CXDEF_, __VA_ARGS__)             \
                                              {TL_CX_NONE, 0, 0.0, NULL, NULL}};            \
    const tl_kernel_def name = {#name,          __FILE__,        TL__NARGS0 params,          \
                                name##__params, TL__NTAIL(__VA_ARGS__), name##__cxnames,       \
                                name##__cxkinds, name##__thunk,  name##__cxdefaults};         \
    static void name##__body(TL__UNUSED_ARG TL__PARAMS params TL__MAP1(TL__CXDECL_, __VA_ARGS__))

/*
 * TL_JIT(name, (params...)) { ... return value; }
 *
 * A @triton.jit helper: calls emit `tt.call` to a private `tt.func` made once
 * per argument types and constexpr values, as Python does.  Parameters are
 * tl_tensor; a C number passed for one is a constexpr of the specialization.
 * The body returns a tl_tensor (TL_NONE for no value).
 */
#define TL_JIT(name, params)                                                                  \
    static tl_tensor name##__body(TL__UNUSED_ARG TL__PARAMS params);                         \
    static void name##__thunk(const tl_tensor *tl__a, tl_tensor *tl__r, void *tl__ud)          \
    {                                                                                         \
        enum { tl__n = TL__NARGS0 params };                                                    \
        (void)tl__a;                                                                          \
        (void)tl__ud;                                                                         \
        tl__r[0] = name##__body(0 TL__ARGREFS params);                                        \
    }                                                                                         \
    static const char *const name##__argnames[] = {TL__STR_ALL params NULL};                  \
    __attribute__((unused)) static tl_tensor name##__call(tl_src tl__at, int tl__k,             \
                                                          const tl_tensor *tl__args)         \
    {                                                                                         \
        tl_tensor r = {0}, a[TL_MAX_ARGS];                                                    \
        for (int i = 0; i < tl__k && i < TL_MAX_ARGS; i++)                                    \
            a[i] = tl__args[i]; /* the stack slots are reused by the body */                  \
        tl__call_jit(#name, __FILE__, tl__k, name##__argnames, a, 1, &r, name##__thunk, NULL,  \
                     tl__at);                                                                 \
        return r;                                                                             \
    }                                                                                         \
    static tl_tensor name##__body(TL__UNUSED_ARG TL__PARAMS params)

/* Tuples: what a @jit helper returns with `return a, b`. */
typedef struct tl_tuple_t {
    int n;
    tl_tensor v[TL_MAX_ARGS];
} tl_tuple_t;
tl_tuple_t tl__tuple_s(int n);
#define tl_tuple(...) (TL__PUSH_ALL(__VA_ARGS__) tl__tuple_s(TL__NARGS0(__VA_ARGS__)))
/* a, b = t */
#define TL_UNPACK(t, ...)                                                                     \
    tl__unpack((t), TL__NARGS(__VA_ARGS__), (tl_tensor *[]){TL__ADDR_ALL(__VA_ARGS__) NULL}, TL_HERE)
void tl__unpack(tl_tuple_t t, int n, tl_tensor **out, tl_src at);

/* TL_JIT_TUPLE(name, (params)) { return tl_tuple(a, b); }: a helper returning a tuple */
#define TL_JIT_TUPLE(name, params)                                                            \
    static tl_tuple_t name##__body(TL__UNUSED_ARG TL__PARAMS params);                        \
    static void name##__thunk(const tl_tensor *tl__a, tl_tensor *tl__r, void *tl__ud)          \
    {                                                                                         \
        enum { tl__n = TL__NARGS0 params };                                                    \
        (void)tl__a;                                                                          \
        (void)tl__ud;                                                                         \
        tl_tuple_t t = name##__body(0 TL__ARGREFS params);                                    \
        for (int i = 0; i < t.n && i < TL_MAX_ARGS; i++)                                      \
            tl__r[i] = t.v[i];                                                                \
    }                                                                                         \
    static const char *const name##__argnames[] = {TL__STR_ALL params NULL};                  \
    __attribute__((unused)) static tl_tuple_t name##__call(tl_src tl__at, int tl__k,            \
                                                           const tl_tensor *tl__args)        \
    {                                                                                         \
        tl_tensor a[TL_MAX_ARGS];                                                             \
        tl_tuple_t r = {0};                                                                   \
        for (int i = 0; i < tl__k && i < TL_MAX_ARGS; i++)                                    \
            a[i] = tl__args[i];                                                               \
        r.n = tl__call_jit(#name, __FILE__, tl__k, name##__argnames, a, TL_MAX_ARGS, r.v,       \
                           name##__thunk,                                                     \
                           NULL, tl__at);                                                     \
        if (r.n < 0)                                                                          \
            r.n = 0;                                                                          \
        return r;                                                                             \
    }                                                                                         \
    static tl_tuple_t name##__body(TL__UNUSED_ARG TL__PARAMS params)

#define TL_CALL_TUPLE(...) TL_CALL(__VA_ARGS__)

/* tl.softmax(x, dim=None, keep_dims=False, ieee_rounding=False) */
typedef struct tl_softmax_opts {
    int dim;            /* TL_AXIS_NONE (default): None, which softmax reads as 0 */
    bool keep_dims;
    bool ieee_rounding; /* accepted and ignored, as Triton's fdiv does */
    TL__OPTS_TAIL;
} tl_softmax_opts;
#define tl_softmax(...) tl__o_softmax(TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_softmax(x, ...)                                                                    \
    tl__softmax((x), TL__OPTS(tl_softmax_opts, .dim = TL_AXIS_NONE, TL__POS, __VA_ARGS__), TL_HERE)
tl_tensor tl__softmax(tl_tensor x, tl_softmax_opts o, tl_src at);
/* new_i, new_j = tl.swizzle2d(i, j, size_i, size_j, size_g):
 * TL_UNPACK(tl_swizzle2d(i, j, size_i, size_j, size_g), new_i, new_j) */
#define tl_swizzle2d(i, j, size_i, size_j, size_g)                                            \
    (TL__P(i), TL__P(j), TL__P(size_i), TL__P(size_j), TL__P(size_g), tl__swizzle2d_s(TL_HERE))
tl_tuple_t tl__swizzle2d_s(tl_src at);
tl_tuple_t tl__swizzle2d(tl_tensor i, tl_tensor j, tl_tensor size_i, tl_tensor size_j,
                         tl_tensor size_g, tl_src at);

/*
 * tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
 *   y = tl_inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", tl_tuple(x), tl_float32, true, 1);
 *   TL_UNPACK(tl_inline_asm_elementwise(asm, cons, tl_tuple(a, b), tl_dtypes(tl_int32, tl_float32),
 *                                       true, 4), c, d);
 * One dtype gives a tensor, tl_dtypes(...) a tuple (Python's tuple of dtypes).  The emulator
 * cannot run PTX: it refuses these kernels with the line.
 */
typedef struct tl_dtypes_t {
    int n;
    tl_dtype v[8];
} tl_dtypes_t;
#define tl_dtypes(...) ((tl_dtypes_t){TL__NARGS(__VA_ARGS__), {__VA_ARGS__}})
#define tl_inline_asm_elementwise(asm_, constraints, args, dtype, is_pure, pack)              \
    (tl__pusht(args),                                                                         \
     _Generic((dtype), tl_dtypes_t: tl__inline_asm_n, default: tl__inline_asm_1)(             \
         (asm_), (constraints), (dtype), (is_pure), (pack), TL_HERE))
tl_tensor tl__inline_asm_1(const char *asm_, const char *constraints, tl_dtype dtype, bool is_pure,
                           int pack, tl_src at);
tl_tuple_t tl__inline_asm_n(const char *asm_, const char *constraints, tl_dtypes_t dtypes,
                            bool is_pure, int pack, tl_src at);

/*
 * Block pointers:
 *   tl.make_block_ptr(base, shape=(M, K), strides=(sm, sk), offsets=(pid * BM, 0),
 *                     block_shape=(BM, BK), order=(1, 0))
 *   tl_make_block_ptr(base, tl_tuple(M, K), tl_tuple(sm, sk), tl_tuple(tl_mul(pid, BM), 0),
 *                     tl_shape(BM, BK), tl_ints(1, 0))
 *   tl.advance(p, (0, BK))  ->  tl_advance(p, tl_tuple(0, BK))
 * Load and store through them with .boundary_check = tl_ints(0, 1) and .padding_option.
 */
int tl__pusht(tl_tuple_t t);
tl_tuple_t tl__popt(void);
#define tl_make_block_ptr(base, shape, strides, offsets, block_shape, order)                  \
    (TL__P(base), tl__pusht(shape), tl__pusht(strides), tl__pusht(offsets),                   \
     tl__make_block_ptr_s((block_shape), (order), TL_HERE))
tl_tensor tl__make_block_ptr_s(tl_shape_t block_shape, tl_ints_t order, tl_src at);
tl_tensor tl__make_block_ptr(tl_tensor base, tl_tuple_t shape, tl_tuple_t strides, tl_tuple_t offsets,
                             tl_shape_t block_shape, tl_ints_t order, tl_src at);
#define tl_advance(base, offsets) (TL__P(base), tl__pusht(offsets), tl__advance_s(TL_HERE))
tl_tensor tl__advance_s(tl_src at);
tl_tensor tl__advance(tl_tensor base, tl_tuple_t offsets, tl_src at);

/*
 * Tensor descriptors made in the kernel (TMA on Hopper):
 *   desc = tl.make_tensor_descriptor(p, shape=[M, N], strides=[sm, 1], block_shape=[BM, BN])
 *   desc = tl_make_tensor_descriptor(p, tl_tuple(M, N), tl_tuple(sm, 1), tl_shape(BM, BN))
 *   x = desc.load([m0, n0])       ->  x = tl_desc_load(desc, tl_tuple(m0, n0))
 *   desc.store([m0, n0], x)       ->  tl_desc_store(desc, tl_tuple(m0, n0), x)
 * (tl.load_tensor_descriptor / tl.store_tensor_descriptor are the same two.)  Option:
 * .padding_option = "nan" (default "zero": what a load reads outside the tensor).
 */
typedef struct tl_desc_opts {
    const char *padding_option;
    TL__OPTS_TAIL;
} tl_desc_opts;
#define tl_make_tensor_descriptor(base, shape, strides, ...) tl__o_make_tensor_descriptor(base, shape, strides, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_make_tensor_descriptor(base, shape, strides, block_shape, ...)                    \
    (TL__P(base), tl__pusht(shape), tl__pusht(strides),                                       \
     tl__make_tensor_descriptor_s((block_shape), TL__OPTS(tl_desc_opts, TL__POS, __VA_ARGS__), TL_HERE))
tl_tensor tl__make_tensor_descriptor_s(tl_shape_t block_shape, tl_desc_opts o, tl_src at);
#define tl_desc_load(desc, offsets) (TL__P(desc), tl__pusht(offsets), tl__desc_load_s(TL_HERE))
tl_tensor tl__desc_load_s(tl_src at);
#define tl_desc_store(desc, offsets, value)                                                   \
    (TL__P(desc), tl__pusht(offsets), TL__P(value), tl__desc_store_s(TL_HERE))
void tl__desc_store_s(tl_src at);
/* desc.atomic_add([m0, n0], x) -> tl_desc_atomic_add(desc, tl_tuple(m0, n0), x); also _min,
 * _max, _and, _or, _xor: a TMA reduction of the block into the tensor (no result) */
#define tl_desc_atomic_add(desc, offsets, value) TL__DESC_RED("add", desc, offsets, value)
#define tl_desc_atomic_min(desc, offsets, value) TL__DESC_RED("min", desc, offsets, value)
#define tl_desc_atomic_max(desc, offsets, value) TL__DESC_RED("max", desc, offsets, value)
#define tl_desc_atomic_and(desc, offsets, value) TL__DESC_RED("and", desc, offsets, value)
#define tl_desc_atomic_or(desc, offsets, value) TL__DESC_RED("or", desc, offsets, value)
#define tl_desc_atomic_xor(desc, offsets, value) TL__DESC_RED("xor", desc, offsets, value)
#define TL__DESC_RED(kind, desc, offsets, value)                                              \
    (TL__P(desc), tl__pusht(offsets), TL__P(value), tl__desc_reduce_s((kind), TL_HERE))
void tl__desc_reduce_s(const char *kind, tl_src at);

/*
 * tl.reduce(input, axis, combine_fn, keep_dims=False) and
 * tl.associative_scan(input, axis, combine_fn, reverse=False) with a user combine function:
 * a TL_JIT helper for one input tensor (the result is a tensor), a TL_JIT_TUPLE helper for a
 * tuple of inputs, tl_tuple(values, indices) (the result is a tuple).  The helper takes the
 * left operands then the right ones, as in Python:
 *
 *   TL_JIT_TUPLE(combine, (v1, i1, v2, i2)) { ...; return tl_tuple(v, i); }
 *   TL_UNPACK(tl_associative_scan(tl_tuple(x, idx), 0, combine), values, indices);
 *   tl_tensor m = tl_reduce(x, 1, my_max, .keep_dims = true);
 *
 * axis may be TL_AXIS_NONE (every axis) for tl_reduce.
 */
typedef struct tl_combine_def {
    const char *name, *file;
    const char *const *argnames;
    tl__jit_body body;
} tl_combine_def;
#define TL__COMBINE(fn) ((tl_combine_def){#fn, __FILE__, fn##__argnames, fn##__thunk})
#define tl_reduce(input, axis_, ...) tl__o_reduce(input, axis_, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_reduce(input, axis_, combine_fn, ...)                                              \
    _Generic((input), tl_tuple_t: tl__reduce_user_tuple, default: tl__reduce_user)(            \
        (input), TL__COMBINE(combine_fn), TL__REDUCE_OPTS_AXIS((axis_), __VA_ARGS__), false,   \
        TL_HERE)
#define tl_associative_scan(input, axis_, ...) tl__o_associative_scan(input, axis_, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_associative_scan(input, axis_, combine_fn, ...)                                    \
    _Generic((input), tl_tuple_t: tl__reduce_user_tuple, default: tl__reduce_user)(            \
        (input), TL__COMBINE(combine_fn), TL__REDUCE_OPTS_AXIS((axis_), __VA_ARGS__), true,    \
        TL_HERE)
tl_tensor tl__reduce_user(tl_tensor input, tl_combine_def fn, tl_reduce_opts o, bool scan,
                          tl_src at);
tl_tuple_t tl__reduce_user_tuple(tl_tuple_t input, tl_combine_def fn, tl_reduce_opts o, bool scan,
                                 tl_src at);

/*
 * tl.map_elementwise(scalar_fn, *args, pack=1): scalar_fn (TL_JIT, or TL_JIT_TUPLE for
 * several results) runs per element; the inputs, in parentheses, are broadcast to one shape.
 * With pack = k the function takes k consecutive elements of each input (arguments: input 0's
 * k elements, then input 1's, ...) and returns k values per result, result by result.
 *
 *   TL_JIT(selu_scalar, (x, alpha)) { ...; return ...; }
 *   tl_tensor y = tl_map_elementwise(selu_scalar, (x, alpha));
 *   TL_UNPACK(tl_map_elementwise(pair_fn, (x, y), .pack = 2), s, p);
 */
typedef struct tl_map_opts {
    int pack;
    TL__OPTS_TAIL;
} tl_map_opts;
#define tl_map_elementwise(scalar_fn, ...) tl__o_map_elementwise(scalar_fn, TL__HEAD(__VA_ARGS__), TL__TAIL(__VA_ARGS__))
#define tl__o_map_elementwise(scalar_fn, args, ...)                                               \
    (TL__PUSH_ALL args _Generic(&scalar_fn##__call,                                            \
         tl_tuple_t(*)(tl_src, int, const tl_tensor *): tl__map_elementwise_tuple,               \
         default: tl__map_elementwise)(TL__NARGS0 args, TL__COMBINE(scalar_fn),                \
                                       TL__OPTS(tl_map_opts, .pack = 1, TL__POS, __VA_ARGS__), \
                                       TL_HERE))
tl_tensor tl__map_elementwise(int n, tl_combine_def fn, tl_map_opts o, tl_src at);
tl_tuple_t tl__map_elementwise_tuple(int n, tl_combine_def fn, tl_map_opts o, tl_src at);

/* Calls a TL_JIT helper: TL_CALL(leaky_relu, x) */
#define TL_CALL(...) TL__CALL_(TL__HEAD(__VA_ARGS__), __VA_ARGS__)
#define TL__CALL_(name, ...)                                                                  \
    (TL__MAP1(TL__PUSH_, __VA_ARGS__) TL__CAT(name, __call)(TL_HERE, TL__NTAIL(__VA_ARGS__),    \
                                                            tl__popn(TL__NTAIL(__VA_ARGS__))))
/* Pops n arguments; returns them in order (valid until the next pop). */
const tl_tensor *tl__popn(int n);

/* Internal helpers used by the macros above. */
tl_tensor tl__opt_tensor_(int n, ...);
#define tl__opt_tensor(...) tl__opt_tensor_(TL__NARGS0(__VA_ARGS__) TL__MAP(TL__COMMA_, __VA_ARGS__))

CT_END_DECLS
#endif
