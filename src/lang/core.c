/*
 * core.c - the tl_* builtins: triton.language.core (and math.py) in C.
 *
 * Each builtin does what its Python twin does before reaching semantic.py:
 * which arguments are turned into tensors first (to_tensor) and which are
 * passed on as Python numbers changes the emitted constants and the type
 * promotion, so the choice is copied exactly.  Operators follow the tensor
 * dunder methods (tensor.__add__, __radd__, __lt__ with its to_tensor,
 * __rshift__ picking ashr/lshr from the left operand's signedness).
 * Operations on two Python numbers are folded, as Python folds constexprs.
 */
#include "lang.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define ENTER(at)                                                                             \
    do {                                                                                      \
        if (!tl__active())                                                                    \
            return tl__poison();                                                              \
        tl__at(at);                                                                           \
    } while (0)

static bool truthy(tl_tensor x)
{
    switch (x.kind) {
    case TL_K_INT:
    case TL_K_BOOL:
        return x.i != 0 || x.big;
    case TL_K_FLOAT:
        return x.f != 0.0;
    default:
        return false;
    }
}

static double as_f(tl_tensor x)
{
    if (x.kind == TL_K_FLOAT)
        return x.f;
    return x.big ? (double)(uint64_t)x.i : (double)x.i;
}

/* Python arithmetic on two numbers (constexpr folding). */
static tl_tensor fold(tl_binop op, tl_tensor a, tl_tensor b)
{
    bool fl = a.kind == TL_K_FLOAT || b.kind == TL_K_FLOAT;
    int64_t x = a.i, y = b.i;
    double fx = as_f(a), fy = as_f(b);
    switch (op) {
    case TL_ADD:
        return fl ? tl__from_f64(fx + fy) : tl__from_i64(x + y);
    case TL_SUB:
        return fl ? tl__from_f64(fx - fy) : tl__from_i64(x - y);
    case TL_MUL:
        return fl ? tl__from_f64(fx * fy) : tl__from_i64(x * y);
    case TL_TRUEDIV:
        if (fy == 0)
            return tl__err("ZeroDivisionError: division by zero");
        return tl__from_f64(fx / fy);
    case TL_FLOORDIV:
        if (fl) {
            if (fy == 0)
                return tl__err("ZeroDivisionError: float floor division by zero");
            return tl__from_f64(floor(fx / fy));
        }
        if (y == 0)
            return tl__err("ZeroDivisionError: integer division or modulo by zero");
        {
            int64_t q = x / y;
            if ((x % y != 0) && ((x < 0) != (y < 0)))
                q--;
            return tl__from_i64(q);
        }
    case TL_MOD:
        if (fl) {
            if (fy == 0)
                return tl__err("ZeroDivisionError: float modulo");
            double r = fmod(fx, fy);
            if (r != 0 && ((r < 0) != (fy < 0)))
                r += fy;
            return tl__from_f64(r);
        }
        if (y == 0)
            return tl__err("ZeroDivisionError: integer division or modulo by zero");
        {
            int64_t r = x % y;
            if (r != 0 && ((r < 0) != (y < 0)))
                r += y;
            return tl__from_i64(r);
        }
    case TL_LT:
        return tl__from_bool(fl ? fx < fy : x < y);
    case TL_LE:
        return tl__from_bool(fl ? fx <= fy : x <= y);
    case TL_GT:
        return tl__from_bool(fl ? fx > fy : x > y);
    case TL_GE:
        return tl__from_bool(fl ? fx >= fy : x >= y);
    case TL_EQ:
        return tl__from_bool(fl ? fx == fy : x == y);
    case TL_NE:
        return tl__from_bool(fl ? fx != fy : x != y);
    case TL_AND:
    case TL_OR:
    case TL_XOR:
    case TL_SHL:
    case TL_SHR:
        if (fl)
            return tl__err("unsupported operand types for a bitwise operation: float");
        {
            int64_t r = op == TL_AND ? (x & y)
                        : op == TL_OR ? (x | y)
                        : op == TL_XOR ? (x ^ y)
                        : op == TL_SHL ? (int64_t)((uint64_t)x << (y & 63))
                                       : (x >> (y & 63));
            if (a.kind == TL_K_BOOL && b.kind == TL_K_BOOL && op <= TL_XOR)
                return tl__from_bool(r != 0);
            return tl__from_i64(r);
        }
    case TL_LOGICAL_AND:
        return truthy(a) ? b : a;
    case TL_LOGICAL_OR:
        return truthy(a) ? a : b;
    }
    return tl__poison();
}

/* Python's class name of a constexpr value */
static const char *py_class(tl_tensor x)
{
    switch (x.kind) {
    case TL_K_NONE: return "NoneType";
    case TL_K_INT: return "int";
    case TL_K_FLOAT: return "float";
    case TL_K_BOOL: return "bool";
    case TL_K_STR: return "str";
    case TL_K_DTYPE: return "dtype";
    default: return "tensor";
    }
}

/* constexpr(a) <op> constexpr(b) where one is not a number (None, a dtype, a string):
 * Python's operator on the two values; == and != compare them, the rest raise */
static tl_tensor py_constexpr_binop(tl_binop op, tl_tensor a, tl_tensor b)
{
    static const char *const sym[] = {
        [TL_ADD] = "+", [TL_SUB] = "-", [TL_MUL] = "*", [TL_TRUEDIV] = "/",
        [TL_FLOORDIV] = "//", [TL_MOD] = "%", [TL_LT] = "<", [TL_LE] = "<=", [TL_GT] = ">",
        [TL_GE] = ">=", [TL_AND] = "&", [TL_OR] = "|", [TL_XOR] = "^", [TL_SHL] = "<<",
        [TL_SHR] = ">>"};
    if (op == TL_EQ || op == TL_NE) {
        bool eq = a.kind == b.kind &&
                  (a.kind == TL_K_NONE || (a.kind == TL_K_DTYPE && tl_type_eq(a.type, b.type)) ||
                   (a.kind == TL_K_STR && a.s && b.s && !strcmp(a.s, b.s)));
        return tl__from_bool(eq == (op == TL_EQ));
    }
    if (op >= TL_LT && op <= TL_GE)
        return tl__err("'%s' not supported between instances of '%s' and '%s'", sym[op],
                       py_class(a), py_class(b));
    return tl__err("unsupported operand type(s) for %s: '%s' and '%s'", sym[op], py_class(a),
                   py_class(b));
}

static void check_bit_width(tl_tensor value, tl_tensor shift)
{
    if (value.kind == TL_K_TENSOR && shift.kind == TL_K_INT) {
        int bw = tl__prim_bits(tl__scalar(value.type));
        if (shift.i >= bw)
            tl__warn("Value %lld exceeds the maximum bitwidth (%d) for type '%s'. This may result "
                     "in undefined behavior.",
                     (long long)shift.i, bw, tl__scalar_name(tl__scalar(value.type)->sc));
    }
}

tl_tensor tl__binop(tl_binop op, tl_tensor a, tl_tensor b, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, a, b))
        return tl__poison();
    bool at_ = a.kind == TL_K_TENSOR, bt = b.kind == TL_K_TENSOR;
    if (op == TL_LOGICAL_AND || op == TL_LOGICAL_OR) {
        /* BoolOp: constexpr operands short-circuit or drop out */
        bool is_and = op == TL_LOGICAL_AND;
        if (!at_) {
            if (truthy(a) != is_and)
                return a;
            return b;
        }
        if (!bt) {
            if (truthy(b) != is_and && b.kind != TL_K_NONE)
                return b;
            return a;
        }
        /* tensor.logical_and: other = to_tensor(other) (3.9: unwrapped; the
         * constexpr short-circuit above leaves no number here) */
        tl_tensor o = sem_to_tensor(b);
        return is_and ? sem_logical_and(a, o) : sem_logical_or(a, o);
    }
    if (!at_ && !bt) {
        if (!tl__is_number(a) || !tl__is_number(b))
            return py_constexpr_binop(op, a, b);
        return fold(op, a, b);
    }
    switch (op) {
    case TL_ADD:
        return sem_add(a, b, true);
    case TL_SUB:
        return sem_sub(a, b, true);
    case TL_MUL:
        return sem_mul(a, b, true);
    case TL_TRUEDIV:
        return sem_truediv(a, b);
    case TL_FLOORDIV:
        return sem_floordiv(a, b);
    case TL_MOD:
        return sem_mod(a, b);
    case TL_LT:
    case TL_LE:
    case TL_GT:
    case TL_GE:
    case TL_EQ:
    case TL_NE: {
        static const sem_cmp cmp[] = {[TL_LT] = CMP_LT, [TL_LE] = CMP_LE, [TL_GT] = CMP_GT,
                                      [TL_GE] = CMP_GE, [TL_EQ] = CMP_EQ, [TL_NE] = CMP_NE};
        /* __lt__: other = to_tensor(other); __rlt__: other(left) = to_tensor(left);
         * 3.9 unwraps instead: a number is typed as a scalar by the comparison */
        if (!TV->scalar_operands) {
            if (at_)
                b = sem_to_tensor(b);
            else
                a = sem_to_tensor(a);
        }
        if (tl__any_poison(2, a, b))
            return tl__poison();
        return sem_compare(cmp[op], a, b);
    }
    case TL_AND:
        return sem_and(a, b);
    case TL_OR:
        return sem_or(a, b);
    case TL_XOR:
        return sem_xor(a, b);
    case TL_SHL:
        check_bit_width(a, b);
        return sem_shl(a, b);
    case TL_SHR:
        if (!at_)
            return tl__err("`number >> tensor` is miscompiled by Triton %s (it computes `not "
                           "tensor`); convert the number with tl_to_tensor first", TV->name);
        check_bit_width(a, b);
        return tl__is_signed(tl__scalar(a.type)) ? sem_ashr(a, b) : sem_lshr(a, b);
    default:
        break;
    }
    return tl__poison();
}

tl_tensor tl__arith_nsan(tl_binop op, tl_tensor a, tl_tensor b, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, a, b))
        return tl__poison();
    if (a.kind != TL_K_TENSOR && b.kind != TL_K_TENSOR)
        return fold(op, a, b);
    switch (op) {
    case TL_ADD:
        return sem_add(a, b, false);
    case TL_SUB:
        return sem_sub(a, b, false);
    case TL_MUL:
        return sem_mul(a, b, false);
    default:
        return tl__err("only add, sub and mul take sanitize_overflow");
    }
}

tl_tensor tl__neg(tl_tensor x, tl_src at)
{
    ENTER(at);
    switch (x.kind) {
    case TL_K_TENSOR:
        return sem_minus(x);
    case TL_K_INT:
    case TL_K_BOOL:
        return tl__from_i64(-x.i);
    case TL_K_FLOAT:
        return tl__from_f64(-x.f);
    default:
        return tl__is_poison(x) ? x : tl__err("bad operand type for unary -: None");
    }
}

tl_tensor tl__invert(tl_tensor x, tl_src at)
{
    ENTER(at);
    if (x.kind == TL_K_TENSOR)
        return sem_invert(x);
    if (x.kind == TL_K_INT || x.kind == TL_K_BOOL)
        return tl__from_i64(~x.i);
    return tl__is_poison(x) ? x : tl__err("bad operand type for unary ~");
}

tl_tensor tl__logical_not(tl_tensor x, tl_src at)
{
    ENTER(at);
    if (x.kind == TL_K_TENSOR)
        return sem_not(x);
    if (tl__is_poison(x))
        return x;
    return tl__from_bool(!truthy(x));
}

tl_tensor tl__to_tensor(tl_tensor x, tl_src at)
{
    ENTER(at);
    return sem_to_tensor(x);
}

tl_tensor tl__where(tl_tensor c, tl_tensor x, tl_tensor y, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(3, c, x, y))
        return tl__poison();
    c = sem_to_tensor(c);
    if (tl__is_poison(c))
        return c;
    return sem_where(c, x, y);
}

tl_tensor core_promote_bf16(tl_tensor x)
{
    if (x.kind == TL_K_TENSOR && tl__scalar(x.type)->kind == TL_TY_SCALAR &&
        tl__scalar(x.type)->sc == TL_BF16)
        return sem_cast(x, tl_float32, NULL);
    return x;
}

tl_tensor tl__minimum(tl_tensor x, tl_tensor y, tl_minmax_opts o, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, x, y))
        return tl__poison();
    if (!TV->scalar_operands) {
        /* 3.9: unwrapped, and no bf16 promotion */
        x = core_promote_bf16(sem_to_tensor(x));
        y = core_promote_bf16(sem_to_tensor(y));
    }
    if (tl__any_poison(2, x, y))
        return tl__poison();
    return sem_minimum(x, y, o.propagate_nan == TL_PROPAGATE_NAN_ALL);
}

tl_tensor tl__maximum(tl_tensor x, tl_tensor y, tl_minmax_opts o, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, x, y))
        return tl__poison();
    if (!TV->scalar_operands) {
        /* 3.9: unwrapped, and no bf16 promotion */
        x = core_promote_bf16(sem_to_tensor(x));
        y = core_promote_bf16(sem_to_tensor(y));
    }
    if (tl__any_poison(2, x, y))
        return tl__poison();
    return sem_maximum(x, y, o.propagate_nan == TL_PROPAGATE_NAN_ALL);
}

tl_tensor tl__clamp(tl_tensor x, tl_tensor lo, tl_tensor hi, tl_minmax_opts o, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(3, x, lo, hi))
        return tl__poison();
    if (!TV->scalar_operands) {
        /* 3.9: unwrapped, and no bf16 promotion */
        x = sem_to_tensor(x);
        lo = sem_to_tensor(lo);
        hi = sem_to_tensor(hi);
        x = core_promote_bf16(x);
        lo = core_promote_bf16(lo);
        hi = core_promote_bf16(hi);
    }
    if (tl__any_poison(3, x, lo, hi))
        return tl__poison();
    return sem_clamp(x, lo, hi, o.propagate_nan == TL_PROPAGATE_NAN_ALL);
}

tl_tensor tl__cast(tl_tensor x, tl_dtype dtype, tl_cast_opts o, tl_src at)
{
    ENTER(at);
    if (!tl__named(o.tl__unnamed, "tl_to", at))
        return tl__poison();
    if (tl__is_poison(x))
        return x;
    if (!dtype)
        return tl__err("tl.cast needs a dtype");
    x = sem_to_tensor(x);
    if (tl__is_poison(x))
        return x;
    if (o.bitcast)
        return sem_bitcast(x, dtype);
    return sem_cast(x, dtype, o.fp_downcast_rounding);
}

/* ---- memory -------------------------------------------------------- */

tl_tensor tl__load(tl_tensor ptr, tl_load_opts o, tl_src at)
{
    ENTER(at);
    if (!tl__named(o.tl__unnamed, "tl_load", at))
        return tl__poison();
    if (tl__any_poison(3, ptr, o.mask, o.other))
        return tl__poison();
    if (TV->block_ptrs == CT_BLOCK_PTR_REMOVED) {
        /* 3.9's load() has no such parameters */
        if (o.boundary_check.rank)
            return tl__err("load() got an unexpected keyword argument 'boundary_check' (Triton %s "
                           "removed block pointers)", TV->name);
        if (o.padding_option && *o.padding_option)
            return tl__err("load() got an unexpected keyword argument 'padding_option' (Triton %s "
                           "removed block pointers)", TV->name);
    }
    if (ptr.kind == TL_K_NONE)
        return tl__err("'constexpr_type' object has no attribute '%s' (tl_load of None: the "
                       "pointer is a parameter specialized to None, or TL_NONE)",
                       TV->none_load_attr);
    if (agg_is_block_ptr(ptr))
        return agg_load(ptr, o.mask, o.other, o.boundary_check, o.padding_option,
                        o.cache_modifier, o.eviction_policy, o.is_volatile);
    tl_tensor mask = o.mask, other = o.other;
    if (mask.kind != TL_K_NONE)
        mask = sem_to_tensor(mask);
    if (other.kind != TL_K_NONE)
        other = sem_to_tensor(other);
    if (tl__any_poison(2, mask, other))
        return tl__poison();
    if (sem_is_block_ptr(ptr))
        return sem_load_block_ptr(ptr, mask, other, o.boundary_check, o.padding_option,
                                  o.cache_modifier, o.eviction_policy, o.is_volatile);
    if ((o.padding_option && *o.padding_option) || o.boundary_check.rank)
        return tl__err("`padding_option` or `boundary_check` argument is not supported for "
                       "loading a tensor of pointers or loading a scalar. Because the compiler "
                       "does not know the boundary; please use block pointers (defined by "
                       "`make_block_ptr`) instead");
    return sem_load(ptr, mask, other, o.cache_modifier, o.eviction_policy, o.is_volatile);
}

void tl__store(tl_tensor ptr, tl_tensor value, tl_store_opts o, tl_src at)
{
    if (!tl__active())
        return;
    tl__at(at);
    if (!tl__named(o.tl__unnamed, "tl_store", at))
        return;
    if (tl__any_poison(3, ptr, value, o.mask))
        return;
    if (TV->block_ptrs == CT_BLOCK_PTR_REMOVED && o.boundary_check.rank) {
        tl__err("store() got an unexpected keyword argument 'boundary_check' (Triton %s removed "
                "block pointers)", TV->name);
        return;
    }
    if (ptr.kind == TL_K_NONE) {
        tl__err("'constexpr_type' object has no attribute 'is_const' (tl_store to None: the "
                "pointer is a parameter specialized to None, or TL_NONE)");
        return;
    }
    if (agg_is_block_ptr(ptr)) {
        tl_tensor m = o.mask.kind != TL_K_NONE ? sem_to_tensor(o.mask) : o.mask;
        agg_store(ptr, value, m, o.boundary_check, o.cache_modifier, o.eviction_policy);
        return;
    }
    value = sem_to_tensor(value);
    tl_tensor mask = o.mask;
    if (mask.kind != TL_K_NONE)
        mask = sem_to_tensor(mask);
    if (tl__any_poison(2, value, mask))
        return;
    if (sem_is_block_ptr(ptr)) {
        sem_store_block_ptr(ptr, value, mask, o.boundary_check, o.cache_modifier, o.eviction_policy);
        return;
    }
    if (o.boundary_check.rank) {
        tl__err("`boundary_check` argument is not supported for storing a tensor of pointers or "
                "storing a scalar. Because the compiler does not know the boundary; please use "
                "block pointers (defined by `make_block_ptr`) instead");
        return;
    }
    sem_store(ptr, value, mask, o.cache_modifier, o.eviction_policy);
}

tl_tensor tl__atomic(tl_atomic_op op, tl_tensor ptr, tl_tensor val, tl_atomic_opts o, tl_src at)
{
    ENTER(at);
    if (!tl__named(o.tl__unnamed, "tl_atomic_*", at))
        return tl__poison();
    if (tl__any_poison(3, ptr, val, o.mask))
        return tl__poison();
    val = sem_to_tensor(val);
    if (tl__is_poison(val))
        return val;
    return sem_atomic(op, ptr, val, o.mask, o.sem, o.scope);
}

tl_tensor tl__atomic_cas(tl_tensor ptr, tl_tensor cmp, tl_tensor val, tl_atomic_opts o, tl_src at)
{
    ENTER(at);
    if (!tl__named(o.tl__unnamed, "tl_atomic_cas", at))
        return tl__poison();
    if (tl__any_poison(3, ptr, cmp, val))
        return tl__poison();
    cmp = sem_to_tensor(cmp);
    val = sem_to_tensor(val);
    if (tl__any_poison(2, cmp, val))
        return tl__poison();
    return sem_atomic_cas(ptr, cmp, val, o.sem, o.scope);
}

/* ---- creation ------------------------------------------------------ */

static bool validate_block_shape(int rank, const int64_t *shape)
{
    int64_t numel = 1;
    for (int i = 0; i < rank; i++) {
        if (shape[i] <= 0 || (shape[i] & (shape[i] - 1))) {
            tl__err("Shape element %d must be a power of 2 (got %lld)", i, (long long)shape[i]);
            return false;
        }
        numel *= shape[i];
    }
    if (numel > 1048576) {
        tl__err("numel (%lld) exceeds triton maximum tensor numel (1048576)", (long long)numel);
        return false;
    }
    return true;
}

tl_tensor tl__arange(int64_t start, int64_t end, tl_src at)
{
    ENTER(at);
    return sem_arange(start, end);
}

tl_tensor tl__full(tl_shape_t shape, tl_tensor value, tl_dtype dtype, tl_src at)
{
    ENTER(at);
    if (tl__is_poison(value))
        return value;
    if (!validate_block_shape(shape.rank, shape.d))
        return tl__poison();
    if (!dtype)
        return tl__err("tl.full needs a dtype");
    return sem_full(shape.rank, shape.d, value, dtype);
}

/* ---- shapes -------------------------------------------------------- */

static int wrap_axis(int axis, int ndim, bool *ok)
{
    *ok = true;
    if (!(-ndim <= axis && axis < ndim)) {
        tl__err("invalid axis %d. Expected %d <= axis < %d", axis, -ndim, ndim);
        *ok = false;
        return 0;
    }
    return axis >= 0 ? axis : axis + ndim;
}

tl_tensor core_expand_dims(tl_tensor x, int naxes, const int *axes_in)
{
    x = sem_to_tensor(x);
    if (tl__is_poison(x))
        return x;
    int new_ndim = tl_rank(x) + naxes;
    int axes[CT_MAX_RANK];
    for (int i = 0; i < naxes; i++) {
        bool ok;
        axes[i] = wrap_axis(axes_in[i], new_ndim, &ok);
        if (!ok)
            return tl__poison();
        for (int j = 0; j < i; j++)
            if (axes[j] == axes[i])
                return tl__err("expand_dims received duplicate axes");
    }
    /* sorted */
    for (int i = 1; i < naxes; i++)
        for (int j = i; j > 0 && axes[j - 1] > axes[j]; j--) {
            int t = axes[j];
            axes[j] = axes[j - 1];
            axes[j - 1] = t;
        }
    for (int i = 0; i < naxes && !tl__is_poison(x); i++)
        x = sem_expand_dims(x, axes[i]);
    return x;
}

tl_tensor tl__expand_dims(tl_tensor x, tl_ints_t axes, tl_src at)
{
    ENTER(at);
    if (tl__is_poison(x))
        return x;
    int a[CT_MAX_RANK];
    for (int i = 0; i < axes.rank; i++)
        a[i] = (int)axes.d[i];
    return core_expand_dims(x, axes.rank, a);
}

tl_tensor tl__idx(tl_tensor x, const char *spec, tl_src at)
{
    ENTER(at);
    if (tl__is_poison(x))
        return x;
    if (x.kind != TL_K_TENSOR)
        return tl__err("only tensors can be indexed, got a constexpr");
    const char *p = spec;
    int dim = 0;
    tl_tensor ret = x;
    while (*p) {
        while (*p == ' ' || *p == '[')
            p++;
        if (!*p || *p == ']')
            break;
        if (!strncmp(p, "None", 4)) {
            ret = sem_expand_dims(ret, dim);
            p += 4;
        } else if (*p == ':') {
            p++; /* an unsqueeze: nothing to do */
        } else if (!strncmp(p, "...", 3)) {
            return tl__err("unsupported tensor index: ... (write the slices out)");
        } else {
            return tl__err("unsupported tensor index in \"%s\": only `:` and `None` are allowed",
                           spec);
        }
        while (*p == ' ')
            p++;
        if (*p == ',') {
            p++;
            dim++;
        } else if (*p && *p != ']') {
            return tl__err("malformed index \"%s\"", spec);
        }
        if (tl__is_poison(ret))
            return ret;
    }
    return ret;
}

tl_tensor tl__broadcast_to(tl_tensor x, tl_shape_t shape, tl_src at)
{
    ENTER(at);
    if (tl__is_poison(x))
        return x;
    if (!validate_block_shape(shape.rank, shape.d))
        return tl__poison();
    if (x.kind != TL_K_TENSOR)
        return tl__err("broadcast_to expects a tensor");
    return sem_broadcast_shape(x, shape.rank, shape.d);
}

void tl__broadcast(tl_tensor a, tl_tensor b, tl_tensor *oa, tl_tensor *ob, tl_src at)
{
    *oa = *ob = tl__poison();
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__any_poison(2, a, b))
        return;
    if (sem_broadcast_value(&a, &b)) {
        *oa = a;
        *ob = b;
    }
}

tl_tensor tl__reshape(tl_tensor x, tl_shape_t shape, tl_reshape_opts o, tl_src at)
{
    ENTER(at);
    if (!tl__named(o.tl__unnamed, "tl_reshape", at))
        return tl__poison();
    if (tl__is_poison(x))
        return x;
    if (o.can_reorder && TV->can_reorder_deprecated)
        tl__warn("tl.reshape(can_reorder=True) is deprecated and will be removed in Triton 3.10. "
                 "Pass can_reorder=False (the default) to adopt the new behavior.");
    if (!validate_block_shape(shape.rank, shape.d))
        return tl__poison();
    if (shape.rank == 0) {
        if (tl_rank(x) == 0)
            return x;
        if (tl_numel(x) != 1)
            return tl__err("can only unsplat single-element tensors");
        return sem_unsplat(x);
    }
    return sem_reshape(x, shape.rank, shape.d, o.can_reorder);
}

tl_tensor tl__permute(tl_tensor x, tl_ints_t dims, tl_src at)
{
    ENTER(at);
    if (tl__is_poison(x))
        return x;
    return sem_permute(x, dims.rank, dims.d);
}

tl_tensor tl__trans(tl_tensor x, tl_ints_t dims, tl_src at)
{
    ENTER(at);
    if (tl__is_poison(x))
        return x;
    if (dims.rank == 0) {
        int n = tl_rank(x);
        if (n < 2)
            return tl__err("tl.trans invoked with a 0- or 1-dimensional tensor");
        for (int i = 0; i < n - 2; i++)
            dims.d[i] = i;
        dims.d[n - 2] = n - 1;
        dims.d[n - 1] = n - 2;
        dims.rank = n;
    }
    return sem_permute(x, dims.rank, dims.d);
}

tl_tensor tl__join(tl_tensor a, tl_tensor b, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, a, b))
        return tl__poison();
    return sem_join(a, b);
}

void tl__split(tl_tensor a, tl_tensor *l, tl_tensor *r, tl_src at)
{
    *l = *r = tl__poison();
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__is_poison(a))
        return;
    bool was_rank_1 = tl_rank(a) == 1;
    if (was_rank_1)
        a = sem_expand_dims(a, 0);
    sem_split(a, l, r);
    if (was_rank_1 && !tl__is_poison(*l)) {
        *l = sem_unsplat(*l);
        *r = sem_unsplat(*r);
    }
}

/* core.cat */
tl_tensor tl__cat(tl_tensor a, tl_tensor b, tl_cat_opts o, tl_src at)
{
    ENTER(at);
    if (!tl__named(o.tl__unnamed, "tl_cat", at))
        return tl__poison();
    if (tl__any_poison(2, a, b))
        return tl__poison();
    if (o.can_reorder || !TV->cat_by_join) {
        if (o.can_reorder && TV->can_reorder_deprecated)
            tl__warn("tl.cat(can_reorder=True) is deprecated and will be removed in Triton 3.10, "
                     "when concatenation will always be deterministic. Pass can_reorder=False (the "
                     "default) to adopt the new behavior.");
        return sem_cat(a, b, o.can_reorder);
    }
    /* 3.7: join adds a minor dimension; move it before the concat dim and merge */
    if (a.kind != TL_K_TENSOR || b.kind != TL_K_TENSOR)
        return tl__err("tl.cat expects two tensors");
    int rank = tl_rank(a);
    if (rank != tl_rank(b))
        return tl__err("tensors must have the same rank, got %d and %d", rank, tl_rank(b));
    bool ok;
    int dim = wrap_axis(o.dim, rank, &ok);
    if (!ok)
        return tl__poison();
    char sa[96], sb[96];
    bool same = true;
    for (int i = 0; i < rank; i++)
        same &= (i == dim && !TV->can_reorder_deprecated) || tl_dim(a, i) == tl_dim(b, i);
    if (!same) {
        size_t la = 0, lb = 0;
        la += (size_t)snprintf(sa + la, sizeof sa - la, "[");
        lb += (size_t)snprintf(sb + lb, sizeof sb - lb, "[");
        for (int i = 0; i < rank; i++) {
            la += (size_t)snprintf(sa + la, sizeof sa - la, "%s%lld", i ? ", " : "", (long long)tl_dim(a, i));
            lb += (size_t)snprintf(sb + lb, sizeof sb - lb, "%s%lld", i ? ", " : "", (long long)tl_dim(b, i));
        }
        snprintf(sa + la, sizeof sa - la, "]");
        snprintf(sb + lb, sizeof sb - lb, "]");
        if (TV->can_reorder_deprecated)
            return tl__err("tl.cat requires tensors of the same shape, got %s and %s", sa, sb);
        return tl__err("tensor dims must match except in the concat dimension %d, got %s and %s",
                       dim, sa, sb);
    }
    tl_tensor c = sem_join(a, b);
    int64_t order[CT_MAX_RANK + 1];
    for (int i = 0, k = 0; i <= rank; i++)
        order[i] = i == dim ? rank : k++;
    c = sem_permute(c, rank + 1, order);
    int64_t shape[CT_MAX_RANK];
    for (int i = 0; i < rank; i++)
        shape[i] = tl_dim(a, i) + (i == dim ? tl_dim(b, i) : 0);
    return sem_reshape(c, rank, shape, false);
}

tl_tensor tl__gather(tl_tensor src, tl_tensor index, int axis, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, src, index))
        return tl__poison();
    return sem_gather(src, index, axis);
}

tl_tensor tl__histogram(tl_tensor x, int num_bins, tl_tensor mask, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, x, mask))
        return tl__poison();
    if (mask.kind != TL_K_NONE)
        mask = sem_to_tensor(mask);
    return sem_histogram(x, num_bins, mask);
}

/* ---- math ---------------------------------------------------------- */

tl_tensor tl__unary(tl_unary op, tl_tensor x, tl_src at)
{
    ENTER(at);
    if (tl__is_poison(x))
        return x;
    return sem_math_unary(op, x);
}

tl_tensor tl__fma(tl_tensor x, tl_tensor y, tl_tensor z, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(3, x, y, z))
        return tl__poison();
    if (TV->ternary_typing) {
        if (!sem_ternary_checking(&x, &y, &z))
            return tl__poison();
    } else {
        x = sem_to_tensor(x);
        y = sem_to_tensor(y);
        z = sem_to_tensor(z);
        if (!sem_binary_checking(&x, &y, false, false, true, false) ||
            !sem_binary_checking(&z, &x, false, false, true, false) ||
            !sem_binary_checking(&z, &y, false, false, true, false))
            return tl__poison();
    }
    ct_value *ops[3] = {x.handle, y.handle, z.handle};
    return tl__tensor(b_op1(CT_OP_MATH_FMA, 3, ops, x.handle->type), x.type);
}

tl_tensor tl__umulhi(tl_tensor x, tl_tensor y, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, x, y))
        return tl__poison();
    /* _check_dtype looks at the tensor arguments only, before the body runs */
    for (int k = 0; k < 2; k++) {
        if ((k ? y : x).kind != TL_K_TENSOR)
            continue;
        const tl_type *d = tl__scalar((k ? y : x).type);
        if (!(d->sc == TL_INT32 || d->sc == TL_INT64 || d->sc == TL_UINT32 || d->sc == TL_UINT64))
            return tl__err("Expected dtype ['int32', 'int64', 'uint32', 'uint64'] but got %s",
                           tl__scalar_name(d->sc));
    }
    if (!TV->scalar_operands) { /* 3.9: unwrapped */
        x = sem_to_tensor(x);
        y = sem_to_tensor(y);
    }
    if (tl__any_poison(2, x, y))
        return tl__poison();
    return sem_umulhi(x, y);
}

tl_tensor tl__fdiv(tl_tensor x, tl_tensor y, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, x, y))
        return tl__poison();
    if (!TV->scalar_operands) {
        x = sem_to_tensor(x);
        y = sem_to_tensor(y);
    }
    if (tl__any_poison(2, x, y))
        return tl__poison();
    return sem_fdiv(x, y, false);
}

tl_tensor tl__div_rn(tl_tensor x, tl_tensor y, tl_src at)
{
    ENTER(at);
    if (tl__any_poison(2, x, y))
        return tl__poison();
    for (int k = 0; k < 2; k++) {
        if ((k ? y : x).kind != TL_K_TENSOR)
            continue;
        const tl_type *d = tl__scalar((k ? y : x).type);
        if (d->sc != TL_FP32)
            return tl__err("Expected dtype ['fp32'] but got %s", tl__scalar_name(d->sc));
    }
    if (!TV->scalar_operands) { /* 3.9: unwrapped */
        x = sem_to_tensor(x);
        y = sem_to_tensor(y);
    }
    if (tl__any_poison(2, x, y))
        return tl__poison();
    if (!sem_binary_checking(&x, &y, false, false, true, false))
        return tl__poison();
    ct_value *ops[2] = {x.handle, y.handle};
    return tl__tensor(b_op1(CT_OP_TT_PRECISE_DIVF, 2, ops, x.handle->type), x.type);
}

/* ---- hints and debugging ------------------------------------------- */

tl_tensor tl__hint(int which, tl_tensor x, tl_ints_t values, tl_src at)
{
    static const char *const names[] = {"multiple_of", "max_contiguous", "max_constancy"};
    static const char *const attrs[] = {"tt.divisibility", "tt.contiguity", "tt.constancy"};
    ENTER(at);
    if (tl__is_poison(x))
        return x;
    if (x.kind != TL_K_TENSOR)
        return tl__err("%s expects a tensor", names[which]);
    int r = tl_rank(x);
    int need = which == 0 ? (r > 1 ? r : 1) : r;
    if (need != values.rank)
        return tl__err("Shape of input to %s does not match the length of values", names[which]);
    if (!x.handle->def)
        return tl__err("%s needs a value computed in the kernel (not a kernel argument)",
                       names[which]);
    int64_t n = values.rank;
    const ct_type *t = ct_type_tensor(B->m, ct_type_int(B->m, 32), 1, &n);
    bool splat = true;
    for (int i = 1; i < values.rank; i++)
        splat &= values.d[i] == values.d[0];
    ct_op_set_attr(B->m, x.handle->def, attrs[which],
                   ct_attr_dense_int(B->m, t, splat ? 1 : values.rank, values.d));
    return x;
}

void tl__assume(tl_tensor cond, tl_src at)
{
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__is_poison(cond))
        return;
    cond = sem_to_tensor(cond);
    if (tl__is_poison(cond))
        return;
    b_op(CT_OP_LLVM_ASSUME, 1, &cond.handle, 0, NULL);
}

void tl__debug_barrier(tl_src at)
{
    if (!tl__active())
        return;
    tl__at(at);
    if (TV->barrier_ttg) { /* 3.7: builder.create_barrier makes ttg.barrier all */
        ct_op *op = b_op(CT_OP_TTG_BARRIER, 0, NULL, 0, NULL);
        b_enum(op, "addrSpace", "all");
    } else {
        b_op(CT_OP_GPU_BARRIER, 0, NULL, 0, NULL);
    }
}

void tl__static_assert(bool cond, const char *msg, const char *text, tl_src at)
{
    if (!tl__active())
        return;
    tl__at(at);
    if (!cond)
        tl__err("static_assert failed: %s%s%s", text, msg && *msg ? ": " : "", msg ? msg : "");
}

void tl__device_print(const char *prefix, int n, const tl_tensor *args, bool hex, tl_src at)
{
    if (!tl__active())
        return;
    tl__at(at);
    ct_strbuf p;
    ct_sb_init(&p);
    ct_sb_puts(&p, prefix ? prefix : "");
    for (const char *c = p.s ? p.s : ""; *c; c++)
        if ((unsigned char)*c >= 0x80) {
            tl__err("%s is not an ascii string", prefix);
            ct_sb_free(&p);
            return;
        }
    if (n && !(p.len && p.s[p.len - 1] == ' '))
        ct_sb_putc(&p, ' ');
    if (n && !(p.len >= 2 && p.s[p.len - 2] == ':' && p.s[p.len - 1] == ' ')) {
        p.s[--p.len] = 0;
        ct_sb_puts(&p, ": ");
    }
    if (p.len > 2 && p.s[0] != ' ') {
        ct_strbuf q;
        ct_sb_init(&q);
        ct_sb_putc(&q, ' ');
        ct_sb_puts(&q, p.s);
        ct_sb_free(&p);
        p = q;
    }
    ct_value *vals[TL_MAX_ARGS];
    int64_t sgn[TL_MAX_ARGS];
    if (n > TL_MAX_ARGS)
        n = TL_MAX_ARGS;
    for (int i = 0; i < n; i++) {
        tl_tensor t = sem_to_tensor(args[i]);
        if (tl__is_poison(t)) {
            ct_sb_free(&p);
            return;
        }
        vals[i] = t.handle;
        sgn[i] = tl__is_signed(tl__scalar(t.type));
    }
    ct_op *op = b_op(CT_OP_TT_PRINT, n, vals, 0, NULL);
    b_attr(op, "prefix", ct_attr_str(B->m, p.s ? p.s : ""));
    b_attr(op, "hex", ct_attr_bool(B->m, hex));
    b_attr(op, "isSigned", ct_attr_dense_array(B->m, ct_type_int(B->m, 32), n, sgn));
    ct_sb_free(&p);
}

void tl__device_assert(tl_tensor cond, const char *msg, tl_tensor mask, tl_src at)
{
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__any_poison(2, cond, mask))
        return;
    if (mask.kind != TL_K_NONE)
        mask = sem_to_tensor(mask);
    cond = sem_to_tensor(cond);
    sem_device_assert(cond, msg ? msg : "", mask);
}

/* ---- dot ----------------------------------------------------------- */

tl_tensor tl__dot(tl_tensor a, tl_tensor b, tl_dot_opts o, tl_src at)
{
    ENTER(at);
    if (!tl__named(o.tl__unnamed, "tl_dot", at))
        return tl__poison();
    if (tl__any_poison(3, a, b, o.acc))
        return tl__poison();
    if (o.input_precision && o.allow_tf32 >= 0)
        return tl__err("Only one of input_precision and allow_tf32 can be specified");
    const char *ip = o.input_precision;
    if (!ip)
        ip = (o.allow_tf32 != 0) ? "tf32" : "ieee";
    /* out_dtype=float32 (3.8: None, the accumulator's element type, else float32) */
    const tl_type *out_dtype = o.out_dtype ? o.out_dtype : tl_float32;
    if (!o.out_dtype && TV->dot_out_dtype_from_acc && o.acc.kind == TL_K_TENSOR)
        out_dtype = tl__scalar(o.acc.type);
    if (a.kind != TL_K_TENSOR || b.kind != TL_K_TENSOR)
        return tl__err("tl.dot expects two tensors");
    int ra = tl_rank(a), rb = tl_rank(b);
    if (ra != rb || ra < 2)
        return tl__err("input and other must have equal ranks >= 2 (got %d and %d)", ra, rb);
    for (int i = 0; i < ra - 2; i++)
        if (tl_dim(a, i) != tl_dim(b, i))
            return tl__err("input and other must have equal batch shapes");
    if (tl_dim(a, -1) != tl_dim(b, -2))
        return tl__err("input and other must have equal reduction dimensions (a is [.., %lld] and "
                       "b is [%lld, ..])",
                       (long long)tl_dim(a, -1), (long long)tl_dim(b, -2));
    int64_t c_shape[CT_MAX_RANK];
    for (int i = 0; i < ra - 1; i++)
        c_shape[i] = tl_dim(a, i);
    c_shape[ra - 1] = tl_dim(b, -1);
    if (o.acc.kind != TL_K_NONE) {
        bool same = tl_rank(o.acc) == ra;
        for (int i = 0; same && i < ra; i++)
            same = tl_dim(o.acc, i) == c_shape[i];
        if (!same)
            return tl__err("accumulator shape is incompatible");
    }
    if (ra >= 4) {
        int64_t batch = 1;
        for (int i = 0; i < ra - 2; i++)
            batch *= c_shape[i];
        int64_t s[3] = {batch, tl_dim(a, -2), tl_dim(a, -1)};
        a = sem_reshape(a, 3, s, false);
        s[1] = tl_dim(b, -2);
        s[2] = tl_dim(b, -1);
        b = sem_reshape(b, 3, s, false);
        if (o.acc.kind != TL_K_NONE) {
            s[1] = c_shape[ra - 2];
            s[2] = c_shape[ra - 1];
            o.acc = sem_reshape(o.acc, 3, s, false);
        }
    }
    tl_tensor res = sem_dot(a, b, o.acc, ip, o.max_num_imprecise_acc, out_dtype);
    if (ra >= 4 && !tl__is_poison(res))
        res = sem_reshape(res, ra, c_shape, false);
    return res;
}

/* 3.9: core.make_block_ptr and core.advance raise NotImplementedError */
static tl_tensor block_ptrs_removed(const char *what)
{
    return tl__err("Block pointers have been removed in favor of the tensor descriptor API "
                   "(Triton %s refuses %s: use tl_make_tensor_descriptor)", TV->name, what);
}

tl_tensor tl__make_block_ptr(tl_tensor base, tl_tuple_t shape, tl_tuple_t strides, tl_tuple_t offsets,
                             tl_shape_t block_shape, tl_ints_t order, tl_src at)
{
    ENTER(at);
    if (TV->block_ptrs == CT_BLOCK_PTR_REMOVED)
        return block_ptrs_removed("tl.make_block_ptr");
    if (tl__is_poison(base))
        return base;
    if (TV->block_ptr_deprecated)
        tl__warn("tl.make_block_ptr is deprecated. Use TensorDescriptor or "
                 "tl.make_tensor_descriptor instead.");
    if (TV->block_ptrs == CT_BLOCK_PTR_AGGREGATE)
        return agg_make_block_ptr(base, shape, strides, offsets, block_shape, order);
    return sem_make_block_ptr(base, shape, strides, offsets, block_shape, order);
}

tl_tensor tl__advance(tl_tensor base, tl_tuple_t offsets, tl_src at)
{
    ENTER(at);
    if (TV->block_ptrs == CT_BLOCK_PTR_REMOVED)
        return block_ptrs_removed("tl.advance");
    if (tl__is_poison(base))
        return base;
    if (TV->block_ptrs == CT_BLOCK_PTR_AGGREGATE)
        return agg_advance(base, offsets);
    return sem_advance(base, offsets);
}
