/*
 * semantic.c - Triton 3.6's typing rules (python/triton/language/semantic.py)
 * in C.
 *
 * Each function keeps the name, the order of checks and the order of
 * emitted ops of its Python original, because that order is what makes
 * the TTIR identical: e.g. a Python-number operand is first materialized by
 * to_tensor() (a constant that stays dead) and then again as a constant of
 * the promoted type; integer +, -, * emit the int64 overflow check
 * (sanitize_overflow) before the op itself.  Where ctriton is stricter than
 * Python (a store that narrows a value implicitly), the check is marked.
 * sanitize_overflow makes the ops of its calls directly (see there): it is
 * about a third of a kernel's build.
 */
#include "lang.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TN(t, buf) tl_type_name((t), (buf), sizeof(buf))

static const tl_type *ty(tl_tensor x)
{
    return x.type;
}

static const tl_type *sca(tl_tensor x)
{
    return tl__scalar(x.type);
}

static bool is_block(tl_tensor x)
{
    return tl__is_block(x.type);
}

/* "int32" or "int32[64, 16]" for messages */
static const char *vty(tl_tensor x, char *buf, size_t cap)
{
    switch (x.kind) {
    case TL_K_INT:
        return "constexpr int";
    case TL_K_FLOAT:
        return "constexpr float";
    case TL_K_BOOL:
        return "constexpr bool";
    case TL_K_NONE:
        return "None";
    case TL_K_POISON:
        return "<error>";
    case TL_K_DTYPE:
        return "constexpr dtype";
    case TL_K_STR:
        return "constexpr str";
    default:
        return tl_type_name(x.type, buf, cap);
    }
}

/* ------------------------------------------------------------------ */
/* Programming model                                                   */
/* ------------------------------------------------------------------ */

static tl_tensor sem_program_id_like(ct_opcode code, int axis)
{
    static const char *const names[] = {"x", "y", "z"};
    if (axis < 0 || axis > 2)
        return tl__err("program_id axis must be 0, 1, or 2 but got %d", axis);
    ct_op *op = b_op(code, 0, NULL, 1, (const ct_type *[]){tl__ir_type(tl_int32)});
    b_enum(op, "axis", names[axis]);
    return tl__tensor(&op->res[0], tl_int32);
}

tl_tensor tl__program_id(int axis, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    return sem_program_id_like(CT_OP_TT_GET_PROGRAM_ID, axis);
}

tl_tensor tl__num_programs(int axis, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    return sem_program_id_like(CT_OP_TT_GET_NUM_PROGRAMS, axis);
}

/* ------------------------------------------------------------------ */
/* Implicit casting utilities                                          */
/* ------------------------------------------------------------------ */

const tl_type *sem_integer_promote(const tl_type *a, const tl_type *b)
{
    int ar = tl__int_bits(a), br = tl__int_bits(b);
    bool as = tl__is_signed(a), bs = tl__is_signed(b);
    if (as == bs)
        return ar > br ? a : b;
    if (!as) /* a unsigned */
        return ar >= br ? a : b;
    return br >= ar ? b : a;
}

const tl_type *sem_computation_type(const tl_type *a, bool a_scalar, const tl_type *b,
                                    bool b_scalar, bool div_or_mod, bool *ok)
{
    char b1[64], b2[64];
    *ok = true;
    /* 0) a Python scalar of a lower or equal kind does not participate: before
     * 3.9 the tensor's type is the answer (fp32 for / and % of fp16 and bf16);
     * from 3.9 the rules below decide with the tensor's type on both sides */
    if (a_scalar != b_scalar) {
        const tl_type *scalar_ty = a_scalar ? a : b, *tensor_ty = a_scalar ? b : a;
        if (tl__kind_rank(scalar_ty) <= tl__kind_rank(tensor_ty)) {
            if (TV->promote_ignores_scalar) {
                a = b = tensor_ty;
            } else {
                if (div_or_mod && (tensor_ty->sc == TL_FP16 || tensor_ty->sc == TL_BF16))
                    return tl_float32;
                return tensor_ty;
            }
        }
    }
    /* 1) double, 2) float */
    if (a->sc == TL_FP64 || b->sc == TL_FP64)
        return tl_float64;
    /* 3.9: div and mod of any float are done in fp32 */
    if (TV->promote_ignores_scalar && div_or_mod && (tl__is_floating(a) || tl__is_floating(b)))
        return tl_float32;
    if (a->sc == TL_FP32 || b->sc == TL_FP32)
        return tl_float32;
    /* 3) half, unless / or %, which PTX lacks for fp16 */
    if (a->sc == TL_FP16 || b->sc == TL_FP16)
        return div_or_mod ? tl_float32 : tl_float16;
    /* 4) bf16 only if both are */
    if (a->sc == TL_BF16 && b->sc == TL_BF16)
        return div_or_mod ? tl_float32 : tl_bfloat16;
    if (a->sc == TL_BF16 || b->sc == TL_BF16)
        return tl_float32;
    /* 5) fp16 for two different fp8 */
    if (tl__is_fp8(a) && tl__is_fp8(b))
        return a->sc == b->sc ? a : tl_float16;
    if (!tl__is_int(a) || !tl__is_int(b)) {
        tl__err("unexpected type %s and %s", TN(a, b1), TN(b, b2));
        *ok = false;
        return a;
    }
    /* 6) integer promotion */
    if (div_or_mod && tl__is_signed(a) != tl__is_signed(b)) {
        tl__err("Cannot use /, #, or %% with %s and %s because they have different "
                "signedness;this is unlikely to result in a useful answer. Cast them to the "
                "same signedness.",
                TN(a, b1), TN(b, b2));
        *ok = false;
        return a;
    }
    return sem_integer_promote(a, b);
}

static bool in_range_i(const tl_tensor *v, int64_t lo, int64_t hi_signed, bool hi_is_u64)
{
    if (v->big)
        return hi_is_u64;
    return v->i >= lo && (hi_is_u64 || v->i <= hi_signed);
}

const tl_type *sem_to_tensor_type(tl_tensor x)
{
    switch (x.kind) {
    case TL_K_BOOL:
        return tl_int1;
    case TL_K_INT:
        if (!x.big && x.i >= -2147483648LL && x.i < 2147483648LL)
            return tl_int32;
        if (!x.big && x.i >= 2147483648LL && x.i < 4294967296LL)
            return tl_uint32;
        return x.big ? tl_uint64 : tl_int64;
    case TL_K_FLOAT: {
        double a = fabs(x.f);
        const double min_f32 = ldexp(1.0, -126), max_f32 = (2 - ldexp(1.0, -23)) * ldexp(1.0, 127);
        return (isinf(a) || a == 0.0 || x.f != x.f || (min_f32 <= a && a <= max_f32)) ? tl_float32
                                                                                     : tl_float64;
    }
    default:
        return NULL;
    }
}

tl_tensor sem_to_tensor(tl_tensor x)
{
    switch (x.kind) {
    case TL_K_BOOL:
        return tl__tensor(b_const_int(tl__ir_type(tl_int1), x.i != 0), tl_int1);
    case TL_K_INT:
    case TL_K_FLOAT:
        return sem_scalar_constant(x, sem_to_tensor_type(x));
    case TL_K_TENSOR:
    case TL_K_POISON:
        return x;
    case TL_K_DTYPE:
        return tl__err("a constexpr dtype cannot be used as a tensor");
    case TL_K_STR:
        return tl__err("a constexpr string cannot be used as a tensor");
    case TL_K_AGG:
        return tl__err("a block pointer cannot be used as a tensor");
    case TL_K_NONE:
        break;
    }
    return tl__err("cannot convert None to a tensor");
}

static double num_as_double(tl_tensor v)
{
    if (v.kind == TL_K_FLOAT)
        return v.f;
    if (v.big)
        return (double)(uint64_t)v.i;
    return (double)v.i;
}

tl_tensor sem_scalar_constant(tl_tensor value, const tl_type *dtype)
{
    const ct_type *it = tl__ir_type(dtype);
    bool zero = value.kind == TL_K_FLOAT ? value.f == 0.0 : (value.i == 0 && !value.big);
    if (value.kind == TL_K_NONE)
        return tl__err("dtype must be specified when value is not a tensor");
    if (zero && (!TV->scalar_operands || tl__is_int(dtype))) {
        /* builder.get_null_value; from 3.9 only for integers (a float 0.0 or -0.0
         * goes through get_<dtype> below) */
        if (it->kind == CT_TY_FLOAT)
            return tl__tensor(b_const_float(it, 0.0), dtype);
        return tl__tensor(b_const_int(it, 0), dtype);
    }
    if (tl__is_int(dtype)) {
        if (value.kind == TL_K_FLOAT)
            return tl__err("cannot make a constant of type %s from the float %g",
                           tl__scalar_name(dtype->sc), value.f);
        return tl__tensor(b_const_int(it, value.i), dtype);
    }
    double v = num_as_double(value);
    switch (dtype->sc) {
    case TL_FP16:
        /* get_fp16(float v): through a C float, then half */
        return tl__tensor(b_const_float(it, (float)v), dtype);
    case TL_BF16: {
        /* get_bf16: APFloat(bf16, std::to_string((float)v)) - six decimals */
        char buf[64];
        snprintf(buf, sizeof buf, "%f", (double)(float)v);
        return tl__tensor(b_const_float(it, strtod(buf, NULL)), dtype);
    }
    case TL_FP32:
        return tl__tensor(b_const_float(it, (float)v), dtype);
    case TL_FP64:
        return tl__tensor(b_const_float(it, v), dtype);
    default:
        if (TV->fp8_scalar_via_f32 && tl__is_fp8(dtype)) {
            /* 3.7: builder.get_fp32(value), then create_fp_trunc to the fp8 type */
            ct_value *f = b_const_float(tl__ir_type(tl_float32), (float)v);
            return tl__tensor(b_op1(CT_OP_ARITH_TRUNCF, 1, &f, it), dtype);
        }
        return tl__err("cannot make a constant of type %s (Triton has no builder for it)",
                       tl__scalar_name(dtype->sc));
    }
}

tl_tensor sem_make_scalar(tl_tensor value, const tl_type *dtype)
{
    if (value.kind == TL_K_TENSOR) {
        if (tl_numel(value) != 1)
            return tl__err("only accepts size-1 tensor");
        return sem_cast(value, dtype, NULL);
    }
    return sem_scalar_constant(value, dtype);
}

/* ------------------------------------------------------------------ */
/* Binary operators                                                    */
/* ------------------------------------------------------------------ */

static bool check_ptr_type(const tl_type *a, const tl_type *b, bool allow_ptr_a)
{
    char b1[96], b2[96];
    if (!tl__is_ptr(a))
        return true;
    if (!allow_ptr_a || (tl__is_ptr(b) && !tl_type_eq(a, b)) || tl__is_floating(b)) {
        tl__err("invalid operands of type %s and %s", TN(a, b1), TN(b, b2));
        return false;
    }
    return true;
}

bool sem_binary_checking(tl_tensor *lhs, tl_tensor *rhs, bool allow_lhs_ptr, bool allow_rhs_ptr,
                         bool arithmetic_check, bool div_or_mod)
{
    bool lhs_is_scalar = tl__is_number(*lhs), rhs_is_scalar = tl__is_number(*rhs);
    tl_tensor lhs_scalar = *lhs, rhs_scalar = *rhs;
    if (lhs->kind == TL_K_NONE || rhs->kind == TL_K_NONE) {
        tl__err("%s (an operand is None: a parameter specialized to None, or TL_NONE)",
                TV->none_arith_error);
        return false;
    }
    /* before 3.9 the numbers become tensors (their own constants) before typing;
     * from 3.9 only their to_tensor_type is looked at */
    if (!TV->scalar_operands) {
        if (lhs_is_scalar)
            *lhs = sem_to_tensor(*lhs);
        if (rhs_is_scalar)
            *rhs = sem_to_tensor(*rhs);
    }
    if (tl__is_poison(*lhs) || tl__is_poison(*rhs))
        return false;
    const tl_type *ls = lhs_is_scalar ? sem_to_tensor_type(lhs_scalar) : sca(*lhs);
    const tl_type *rs = rhs_is_scalar ? sem_to_tensor_type(rhs_scalar) : sca(*rhs);
    if (!check_ptr_type(ls, rs, allow_lhs_ptr) || !check_ptr_type(rs, ls, allow_rhs_ptr))
        return false;
    if (arithmetic_check && !tl__is_ptr(ls) && !tl__is_ptr(rs)) {
        bool ok;
        const tl_type *ret = sem_computation_type(ls, lhs_is_scalar, rs, rhs_is_scalar,
                                                  div_or_mod, &ok);
        if (!ok)
            return false;
        bool lneg = lhs_is_scalar && num_as_double(lhs_scalar) < 0;
        bool rneg = rhs_is_scalar && num_as_double(rhs_scalar) < 0;
        if ((lneg || rneg) && tl__is_unsigned(ret)) {
            tl__err("Cannot perform a binary operation between an unsigned tensor and a "
                    "negative scalar. Perform a explicit cast on one of them.");
            return false;
        }
        if (tl__is_int(ret)) {
            int bits = tl__int_bits(ret);
            bool sgn = tl__is_signed(ret);
            int64_t lo = sgn ? (bits == 64 ? INT64_MIN : -(1LL << (bits - 1))) : 0;
            int64_t hi = bits == 64 ? INT64_MAX : (sgn ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1);
            bool hi_u64 = !sgn && bits == 64;
            for (int k = 0; k < 2; k++) {
                const tl_tensor *s = k ? &rhs_scalar : &lhs_scalar;
                if ((k ? rhs_is_scalar : lhs_is_scalar) && s->kind == TL_K_INT &&
                    !in_range_i(s, lo, hi, hi_u64)) {
                    ct_strbuf r;
                    ct_sb_init(&r);
                    tl__repr_number(*s, &r);
                    char b1[64];
                    tl__err("Scalar %s is out of range for type %s", r.s, TN(ret, b1));
                    ct_sb_free(&r);
                    return false;
                }
            }
        }
        *lhs = lhs_is_scalar ? sem_scalar_constant(lhs_scalar, ret) : sem_cast(*lhs, ret, NULL);
        *rhs = rhs_is_scalar ? sem_scalar_constant(rhs_scalar, ret) : sem_cast(*rhs, ret, NULL);
        if (tl__is_poison(*lhs) || tl__is_poison(*rhs))
            return false;
    } else if (TV->scalar_operands) {
        *lhs = sem_to_tensor(*lhs);
        *rhs = sem_to_tensor(*rhs);
        if (tl__is_poison(*lhs) || tl__is_poison(*rhs))
            return false;
    }
    return sem_broadcast_value(lhs, rhs);
}

static ct_value *binop_ir(ct_opcode code, tl_tensor a, tl_tensor b)
{
    ct_value *ops[2] = {a.handle, b.handle};
    return b_op1(code, 2, ops, a.handle->type);
}

/* `x <pred> bound` for an int64 x and a scalar int64 constant: what
 * sem_compare(c, x, bound) reduces to (no casts; a block x has the bound
 * splat to its shape, which folds into a dense constant). */
static ct_value *compare_i64(tl_tensor x, tl_tensor bound, const char *pred, const ct_type *i1t)
{
    ct_value *b = is_block(x) ? b_splat(x.handle->type, bound.handle) : bound.handle;
    ct_value *ops[2] = {x.handle, b};
    ct_op *op = b_op(CT_OP_ARITH_CMPI, 2, ops, 1, &i1t);
    b_enum(op, "predicate", pred);
    return &op->res[0];
}

/* Python's overflow check of an integer +, - or * (`code`): the operation
 * again in int64, and an assert that the result fits.  The ops are exactly
 * those of semantic.py's calls (cast, add/sub/mul, two scalar constants,
 * less_equal, greater_equal, and_, device_assert); after binary checking
 * both operands have one int type and one shape, so the int64 operation
 * and the comparisons need no further checking, casting or broadcasting
 * and are made directly. */
static void sanitize_overflow(tl_tensor lhs, tl_tensor rhs, ct_opcode code, const char *opname)
{
    if (tl__int_bits(sca(lhs)) >= 64 || !B->opts.sanitize_overflow)
        return;
    const tl_type *lt = sca(lhs);
    tl_tensor l64 = sem_cast(lhs, tl_int64, NULL), r64 = sem_cast(rhs, tl_int64, NULL);
    if (tl__any_poison(2, l64, r64))
        return;
    tl_tensor ret = tl__tensor(binop_ir(code, l64, r64), ty(l64));
    int bits = tl__int_bits(lt);
    bool sgn = tl__is_signed(lt);
    int64_t maxv = sgn ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
    int64_t minv = sgn ? -(1LL << (bits - 1)) : 0;
    tl_tensor maxc = sem_scalar_constant(tl__from_i64(maxv), tl_int64);
    tl_tensor minc = sem_scalar_constant(tl__from_i64(minv), tl_int64);
    const tl_type *i1 = tl__with_elem(ty(ret), tl_int1);
    const ct_type *i1t = tl__ir_type(i1);
    ct_value *le = compare_i64(ret, maxc, "sle", i1t);
    ct_value *ge = compare_i64(ret, minc, "sge", i1t);
    ct_value *both[2] = {le, ge};
    tl_tensor cond = tl__tensor(b_op1(CT_OP_ARITH_ANDI, 2, both, i1t), i1);
    if (!B->opts.debug)
        return; /* sem_device_assert emits nothing: the message is not needed */
    char msg[96];
    snprintf(msg, sizeof msg, "int%d overflow detected for operation %s", bits, opname);
    sem_device_assert(cond, msg, TL_NONE);
}

tl_tensor sem_add(tl_tensor input, tl_tensor other, bool sanitize)
{
    if (!sem_binary_checking(&input, &other, true, true, true, false))
        return tl__poison();
    const tl_type *is = sca(input), *os = sca(other);
    if (tl__is_ptr(is) && tl__is_ptr(os))
        return tl__err("cannot add pointers together");
    if (tl__is_ptr(os) && !tl__is_ptr(is)) {
        tl_tensor t = input;
        input = other;
        other = t;
        is = sca(input);
        os = sca(other);
    }
    if (tl__is_ptr(is)) {
        ct_value *oh = other.handle;
        if (tl__is_unsigned(os) && tl__int_bits(os) < 64) {
            /* addptr treats the offset as signed: zero-extend unsigned offsets */
            oh = b_int_cast(oh, tl__ir_type(tl__with_elem(ty(other), tl_int64)), false);
        }
        ct_value *ops[2] = {input.handle, oh};
        return tl__tensor(b_op1(CT_OP_TT_ADDPTR, 2, ops, input.handle->type), ty(input));
    }
    if (tl__is_floating(is))
        return tl__tensor(binop_ir(CT_OP_ARITH_ADDF, input, other), ty(input));
    if (tl__is_int(is)) {
        if (sanitize)
            sanitize_overflow(input, other, CT_OP_ARITH_ADDI, "add");
        return tl__tensor(binop_ir(CT_OP_ARITH_ADDI, input, other), ty(input));
    }
    char b1[64];
    return tl__err("unexpected type %s", TN(is, b1));
}

tl_tensor sem_sub(tl_tensor input, tl_tensor other, bool sanitize)
{
    if (!sem_binary_checking(&input, &other, true, false, true, false))
        return tl__poison();
    const tl_type *s = sca(input);
    if (tl__is_ptr(s))
        return sem_add(input, sem_minus(other), false);
    if (tl__is_floating(s))
        return tl__tensor(binop_ir(CT_OP_ARITH_SUBF, input, other), ty(input));
    if (tl__is_int(s)) {
        if (sanitize)
            sanitize_overflow(input, other, CT_OP_ARITH_SUBI, "sub");
        return tl__tensor(binop_ir(CT_OP_ARITH_SUBI, input, other), ty(input));
    }
    char b1[64];
    return tl__err("unexpected type %s", TN(s, b1));
}

tl_tensor sem_mul(tl_tensor input, tl_tensor other, bool sanitize)
{
    if (!sem_binary_checking(&input, &other, false, false, true, false))
        return tl__poison();
    const tl_type *s = sca(input);
    if (tl__is_floating(s))
        return tl__tensor(binop_ir(CT_OP_ARITH_MULF, input, other), ty(input));
    if (tl__is_int(s)) {
        if (sanitize)
            sanitize_overflow(input, other, CT_OP_ARITH_MULI, "mul");
        return tl__tensor(binop_ir(CT_OP_ARITH_MULI, input, other), ty(input));
    }
    char b1[64];
    return tl__err("unexpected type %s", TN(s, b1));
}

tl_tensor sem_truediv(tl_tensor input, tl_tensor other)
{
    if (!sem_binary_checking(&input, &other, false, false, true, true))
        return tl__poison();
    const tl_type *is = sca(input), *os = sca(other);
    if (tl__is_floating(is) && tl__is_int(os)) {
        other = sem_cast(other, is, NULL);
    } else if (tl__is_int(is) && tl__is_floating(os)) {
        input = sem_cast(input, os, NULL);
    } else if (tl__is_int(is) && tl__is_int(os)) {
        input = sem_cast(input, tl_float32, NULL);
        other = sem_cast(other, tl_float32, NULL);
    } else if (tl__is_floating(is) && tl__is_floating(os)) {
        if (tl__fp_mantissa(is) > tl__fp_mantissa(os))
            other = sem_cast(other, is, NULL);
        else
            input = sem_cast(input, os, NULL);
    } else {
        char b1[64];
        return tl__err("unexpected type %s", TN(is, b1));
    }
    if (tl__any_poison(2, input, other))
        return tl__poison();
    return tl__tensor(binop_ir(CT_OP_ARITH_DIVF, input, other), ty(input));
}

tl_tensor sem_floordiv(tl_tensor input, tl_tensor other)
{
    if (!sem_binary_checking(&input, &other, false, false, true, true))
        return tl__poison();
    const tl_type *is = sca(input), *os = sca(other);
    if (tl__is_int(is) && tl__is_int(os)) {
        const tl_type *ret = sem_integer_promote(is, os);
        input = sem_cast(input, ret, NULL);
        other = sem_cast(other, ret, NULL);
        ct_opcode c = tl__is_signed(ret) ? CT_OP_ARITH_DIVSI : CT_OP_ARITH_DIVUI;
        return tl__tensor(binop_ir(c, input, other), ty(input));
    }
    char b1[64];
    return tl__err("unexpected type %s (// needs integers)", TN(is, b1));
}

tl_tensor sem_fdiv(tl_tensor input, tl_tensor other, bool ieee_rounding)
{
    char b1[64], b2[64];
    if (TV->scalar_operands) {
        /* 3.9: the operands are promoted as for `/` (numbers too), then checked */
        if (!sem_binary_checking(&input, &other, false, false, true, true))
            return tl__poison();
        if (!tl__is_floating(sca(input)))
            return tl__err("fdiv requires floating-point operands after type promotion");
    } else {
        if (!tl__is_floating(sca(input)) || !tl__is_floating(sca(other)))
            return tl__err("both operands of fdiv must have floating scalar type, got %s and %s",
                           TN(sca(input), b1), TN(sca(other), b2));
        if (!sem_binary_checking(&input, &other, false, false, false, true))
            return tl__poison();
    }
    /* ieee_rounding: tt.precise_divf from 3.8; ignored before */
    ct_opcode code = ieee_rounding && TV->fdiv_ieee_precise ? CT_OP_TT_PRECISE_DIVF : CT_OP_ARITH_DIVF;
    return tl__tensor(binop_ir(code, input, other), ty(input));
}

tl_tensor sem_mod(tl_tensor input, tl_tensor other)
{
    if (!sem_binary_checking(&input, &other, false, false, true, true))
        return tl__poison();
    const tl_type *s = sca(input), *os = sca(other);
    char b1[64], b2[64];
    if (tl__is_floating(s))
        return tl__tensor(binop_ir(CT_OP_ARITH_REMF, input, other), ty(input));
    if (tl__is_int(s)) {
        if (tl__is_signed(s) != tl__is_signed(os))
            return tl__err("Cannot mod %s by %s because they have different signedness;this is "
                           "unlikely to result in a useful answer. Cast them to the same "
                           "signedness.",
                           TN(s, b1), TN(os, b2));
        ct_opcode c = tl__is_signed(s) ? CT_OP_ARITH_REMSI : CT_OP_ARITH_REMUI;
        return tl__tensor(binop_ir(c, input, other), ty(input));
    }
    return tl__err("unexpected type %s", TN(s, b1));
}

static tl_tensor minmax(tl_tensor x, tl_tensor y, bool propagate_all, bool is_max)
{
    if (!sem_binary_checking(&x, &y, false, false, true, false))
        return tl__poison();
    const tl_type *d = sca(x);
    ct_opcode c;
    if (tl__is_floating(d))
        c = is_max ? (propagate_all ? CT_OP_ARITH_MAXIMUMF : CT_OP_ARITH_MAXNUMF)
                   : (propagate_all ? CT_OP_ARITH_MINIMUMF : CT_OP_ARITH_MINNUMF);
    else if (tl__is_signed(d))
        c = is_max ? CT_OP_ARITH_MAXSI : CT_OP_ARITH_MINSI;
    else if (tl__is_unsigned(d))
        c = is_max ? CT_OP_ARITH_MAXUI : CT_OP_ARITH_MINUI;
    else {
        char b1[64];
        return tl__err("Unexpected dtype %s", TN(d, b1));
    }
    return tl__tensor(binop_ir(c, x, y), ty(x));
}

tl_tensor sem_minimum(tl_tensor x, tl_tensor y, bool propagate_all)
{
    return minmax(x, y, propagate_all, false);
}

tl_tensor sem_maximum(tl_tensor x, tl_tensor y, bool propagate_all)
{
    return minmax(x, y, propagate_all, true);
}

/* ternary_op_type_checking_impl (3.9): the tensors' common type and the
 * scalars' common type are found apart, then joined; the numbers become
 * constants of the final type only then, and everything is broadcast. */
bool sem_ternary_checking(tl_tensor *a, tl_tensor *b, tl_tensor *c)
{
    tl_tensor *args[3] = {a, b, c};
    const tl_type *tensor_dt = NULL, *scalar_dt = NULL;
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        if (args[i]->kind == TL_K_NONE || tl__is_poison(*args[i])) {
            if (!tl__is_poison(*args[i]))
                tl__err("invalid operand None");
            return false;
        }
        if (tl__is_number(*args[i])) {
            const tl_type *d = sem_to_tensor_type(*args[i]);
            scalar_dt = scalar_dt ? sem_computation_type(scalar_dt, true, d, true, false, &ok) : d;
        } else {
            const tl_type *d = sca(*args[i]);
            tensor_dt = tensor_dt ? sem_computation_type(tensor_dt, false, d, false, false, &ok) : d;
        }
        if (!ok)
            return false;
    }
    const tl_type *dt = !tensor_dt ? scalar_dt : !scalar_dt ? tensor_dt
                                        : sem_computation_type(tensor_dt, false, scalar_dt, true,
                                                               false, &ok);
    if (!ok)
        return false;
    for (int i = 0; i < 3; i++) {
        /* _cast_to_computation_type */
        tl_tensor v = *args[i];
        if (tl__is_number(v)) {
            if (num_as_double(v) < 0 && tl__is_unsigned(dt)) {
                tl__err("Cannot perform a binary operation between an unsigned tensor and a "
                        "negative scalar. Perform a explicit cast on one of them.");
                return false;
            }
            v = sem_scalar_constant(v, dt);
        } else {
            v = sem_cast(v, dt, NULL);
        }
        if (tl__is_poison(v))
            return false;
        *args[i] = v;
    }
    return sem_broadcast_value(a, b) && sem_broadcast_value(a, c) && sem_broadcast_value(b, c);
}

tl_tensor sem_clamp(tl_tensor x, tl_tensor lo, tl_tensor hi, bool propagate_all)
{
    if (TV->ternary_typing) {
        if (!sem_ternary_checking(&x, &lo, &hi))
            return tl__poison();
        if (tl__is_int(sca(x)))
            /* 3.9: integer clamp is minimum(maximum(x, min), max) */
            return sem_minimum(sem_maximum(x, lo, propagate_all), hi, propagate_all);
    } else if (!sem_binary_checking(&lo, &hi, false, false, true, false) ||
               !sem_binary_checking(&x, &lo, false, false, true, false) ||
               !sem_binary_checking(&x, &hi, false, false, true, false))
        return tl__poison();
    if (!tl__is_floating(sca(x))) {
        char b1[64];
        return tl__err("Unexpected dtype %s. Only floating point clamp is supported",
                       TN(sca(x), b1));
    }
    ct_value *ops[3] = {x.handle, lo.handle, hi.handle};
    ct_op *op = b_op(CT_OP_TT_CLAMPF, 3, ops, 1, (const ct_type *[]){x.handle->type});
    b_enum(op, "propagateNan", propagate_all ? "all" : "none");
    return tl__tensor(&op->res[0], ty(x));
}

/* ------------------------------------------------------------------ */
/* Bitwise                                                             */
/* ------------------------------------------------------------------ */

static bool bitwise_checking(tl_tensor *input, tl_tensor *other)
{
    if (!sem_binary_checking(input, other, false, false, true, false))
        return false;
    const tl_type *is = sca(*input), *os = sca(*other);
    if (!tl__is_int(is) || !tl__is_int(os)) {
        char b1[64], b2[64];
        tl__err("invalid operands of type %s and %s (bitwise operations need integers)",
                TN(is, b1), TN(os, b2));
        return false;
    }
    const tl_type *ret = sem_integer_promote(is, os);
    if (!tl_type_eq(ret, is))
        *input = sem_cast(*input, ret, NULL);
    if (!tl_type_eq(ret, os))
        *other = sem_cast(*other, ret, NULL);
    return !tl__any_poison(2, *input, *other);
}

static tl_tensor bitwise(ct_opcode c, tl_tensor a, tl_tensor b)
{
    if (!bitwise_checking(&a, &b))
        return tl__poison();
    return tl__tensor(binop_ir(c, a, b), ty(a));
}

tl_tensor sem_and(tl_tensor a, tl_tensor b)
{
    return bitwise(CT_OP_ARITH_ANDI, a, b);
}

tl_tensor sem_or(tl_tensor a, tl_tensor b)
{
    return bitwise(CT_OP_ARITH_ORI, a, b);
}

tl_tensor sem_xor(tl_tensor a, tl_tensor b)
{
    return bitwise(CT_OP_ARITH_XORI, a, b);
}

tl_tensor sem_lshr(tl_tensor a, tl_tensor b)
{
    return bitwise(CT_OP_ARITH_SHRUI, a, b);
}

tl_tensor sem_ashr(tl_tensor a, tl_tensor b)
{
    return bitwise(CT_OP_ARITH_SHRSI, a, b);
}

tl_tensor sem_shl(tl_tensor a, tl_tensor b)
{
    return bitwise(CT_OP_ARITH_SHLI, a, b);
}

/* `type.is_int1()`: false for block types (their name is not "int1") */
static bool type_is_int1(const tl_type *t)
{
    return t->kind == TL_TY_SCALAR && t->sc == TL_INT1;
}

tl_tensor sem_logical_and(tl_tensor a, tl_tensor b)
{
    if (!type_is_int1(ty(a)))
        a = sem_bitcast(a, tl_int1);
    if (!type_is_int1(ty(b)))
        b = sem_bitcast(b, tl_int1);
    if (tl__any_poison(2, a, b))
        return tl__poison();
    return sem_and(a, b);
}

tl_tensor sem_logical_or(tl_tensor a, tl_tensor b)
{
    if (!type_is_int1(ty(a)))
        a = sem_bitcast(a, tl_int1);
    if (!type_is_int1(ty(b)))
        b = sem_bitcast(b, tl_int1);
    if (tl__any_poison(2, a, b))
        return tl__poison();
    return sem_or(a, b);
}

tl_tensor sem_not(tl_tensor a)
{
    if (!type_is_int1(ty(a)))
        a = sem_bitcast(a, tl_int1);
    if (tl__is_poison(a))
        return a;
    return sem_invert(a);
}

/* ------------------------------------------------------------------ */
/* Unary                                                               */
/* ------------------------------------------------------------------ */

tl_tensor sem_minus(tl_tensor input)
{
    const tl_type *s = sca(input);
    if (tl__is_ptr(s)) {
        char b1[64];
        return tl__err("wrong type argument to unary minus (%s)", TN(s, b1));
    }
    const ct_type *it = tl__ir_type(s);
    if (TV->neg_float_negf && it->kind == CT_TY_FLOAT) {
        ct_value *o[1] = {input.handle};
        return tl__tensor(b_op1(CT_OP_ARITH_NEGF, 1, o, input.handle->type), ty(input));
    }
    ct_value *z = it->kind == CT_TY_FLOAT ? b_const_float(it, 0.0) : b_const_int(it, 0);
    return sem_sub(tl__tensor(z, s), input, true);
}

tl_tensor sem_invert(tl_tensor input)
{
    const tl_type *s = sca(input);
    if (tl__is_ptr(s) || tl__is_floating(s)) {
        char b1[64];
        return tl__err("wrong type argument to unary invert (%s)", TN(s, b1));
    }
    ct_value *ones = b_const_int(tl__ir_type(s), -1);
    return sem_xor(input, tl__tensor(ones, s));
}

/* ------------------------------------------------------------------ */
/* Comparison                                                          */
/* ------------------------------------------------------------------ */

tl_tensor sem_compare(sem_cmp c, tl_tensor input, tl_tensor other)
{
    static const char *const fpred[] = {"ogt", "oge", "olt", "ole", "oeq", "une"};
    static const char *const spred[] = {"sgt", "sge", "slt", "sle", "eq", "ne"};
    static const char *const upred[] = {"ugt", "uge", "ult", "ule", "eq", "ne"};
    if (!sem_binary_checking(&input, &other, false, false, true, false))
        return tl__poison();
    const tl_type *s = sca(input);
    const char *pred;
    ct_opcode code;
    if (tl__is_floating(s)) {
        pred = fpred[c];
        code = CT_OP_ARITH_CMPF;
    } else if (tl__is_int(s)) {
        pred = tl__is_signed(s) ? spred[c] : upred[c];
        code = CT_OP_ARITH_CMPI;
    } else {
        char b1[64];
        return tl__err("unexpected type %s", TN(s, b1));
    }
    const tl_type *rt = tl__with_elem(ty(input), tl_int1);
    ct_value *ops[2] = {input.handle, other.handle};
    ct_op *op = b_op(code, 2, ops, 1, (const ct_type *[]){tl__ir_type(rt)});
    b_enum(op, "predicate", pred);
    return tl__tensor(&op->res[0], rt);
}

/* ------------------------------------------------------------------ */
/* Block creation                                                      */
/* ------------------------------------------------------------------ */

tl_tensor sem_arange(int64_t start, int64_t end)
{
    if ((start >> 32) || (end >> 32))
        return tl__err("arange must fit in int32");
    if (end <= start)
        return tl__err("arange's end argument must be greater than the start argument");
    int64_t range = end - start;
    if (range & (range - 1))
        return tl__err("arange's range must be a power of 2 (got %lld)", (long long)range);
    const tl_type *rt = tl__block_type(tl_int32, 1, &range);
    ct_op *op = b_op(CT_OP_TT_MAKE_RANGE, 0, NULL, 1, (const ct_type *[]){tl__ir_type(rt)});
    const ct_type *i32 = ct_type_int(B->m, 32);
    b_attr(op, "start", ct_attr_int(B->m, i32, start));
    b_attr(op, "end", ct_attr_int(B->m, i32, end));
    return tl__tensor(&op->res[0], rt);
}

tl_tensor sem_splat(tl_tensor value, int rank, const int64_t *shape)
{
    if (is_block(value))
        return tl__err("Cannot splat a block tensor");
    if (rank == 0)
        return value;
    const tl_type *rt = tl__block_type(ty(value), rank, shape);
    return tl__tensor(b_splat(tl__ir_type(rt), value.handle), rt);
}

tl_tensor sem_full(int rank, const int64_t *shape, tl_tensor value, const tl_type *dtype)
{
    tl_tensor s = sem_make_scalar(value, dtype);
    if (tl__is_poison(s))
        return s;
    return sem_splat(s, rank, shape);
}

tl_tensor sem_unsplat(tl_tensor value)
{
    const tl_type *s = sca(value);
    return tl__tensor(b_op1(CT_OP_TT_UNSPLAT, 1, &value.handle, tl__ir_type(s)), s);
}

/* ------------------------------------------------------------------ */
/* Shape manipulation                                                  */
/* ------------------------------------------------------------------ */

tl_tensor sem_reshape(tl_tensor input, int rank, const int64_t *shape, bool can_reorder)
{
    int64_t numel = 1;
    for (int i = 0; i < rank; i++)
        numel *= shape[i];
    if (tl_numel(input) != numel)
        return tl__err("reshape() cannot change total number of elements in tensor (%lld to %lld)",
                       (long long)tl_numel(input), (long long)numel);
    const tl_type *rt = tl__block_type(sca(input), rank, shape);
    ct_op *op = b_op(CT_OP_TT_RESHAPE, 1, &input.handle, 1, (const ct_type *[]){tl__ir_type(rt)});
    if (can_reorder)
        b_attr(op, "allow_reorder", ct_attr_unit(B->m));
    return tl__tensor(&op->res[0], rt);
}

tl_tensor sem_expand_dims(tl_tensor input, int axis)
{
    int64_t dst[CT_MAX_RANK];
    int r = tl_rank(input);
    if (r + 1 > CT_MAX_RANK)
        return tl__err("tensors of rank above %d are not supported", CT_MAX_RANK);
    /* Python's dst_shape.insert(axis, 1): an axis past the end appends (a scalar's
     * s[:, None] is a splat to [1]) */
    int at = axis > r ? r : axis;
    for (int i = 0, j = 0; i <= r; i++)
        dst[i] = (i == at) ? 1 : input.type->shape[j++];
    if (!is_block(input))
        return sem_splat(input, r + 1, dst);
    const tl_type *rt = tl__block_type(sca(input), r + 1, dst);
    ct_op *op = b_op(CT_OP_TT_EXPAND_DIMS, 1, &input.handle, 1, (const ct_type *[]){tl__ir_type(rt)});
    b_attr(op, "axis", ct_attr_int(B->m, ct_type_int(B->m, 32), axis));
    return tl__tensor(&op->res[0], rt);
}

tl_tensor sem_cat(tl_tensor lhs, tl_tensor rhs, bool can_reorder)
{
    if (!can_reorder)
        return tl__err("current implementation of `cat` always may reorder elements "
                       "(pass .can_reorder = true)");
    if (tl_rank(lhs) != 1 || tl_rank(rhs) != 1)
        return tl__err("cat expects two rank-1 tensors");
    int64_t n = tl_dim(lhs, 0) + tl_dim(rhs, 0);
    const tl_type *rt = tl__block_type(sca(lhs), 1, &n);
    ct_value *ops[2] = {lhs.handle, rhs.handle};
    return tl__tensor(b_op1(CT_OP_TT_CAT, 2, ops, tl__ir_type(rt)), rt);
}

tl_tensor sem_join(tl_tensor a, tl_tensor b)
{
    if (!sem_broadcast_value(&a, &b))
        return tl__poison();
    bool was_rank_1 = tl_rank(a) == 0;
    if (was_rank_1) {
        a = sem_expand_dims(a, 0);
        b = sem_expand_dims(b, 0);
    }
    int64_t shape[CT_MAX_RANK];
    int r = tl_rank(a);
    for (int i = 0; i < r; i++)
        shape[i] = a.type->shape[i];
    shape[r] = 2;
    const tl_type *rt = tl__block_type(sca(a), r + 1, shape);
    ct_value *ops[2] = {a.handle, b.handle};
    tl_tensor ret = tl__tensor(b_op1(CT_OP_TT_JOIN, 2, ops, tl__ir_type(rt)), rt);
    if (was_rank_1) {
        int64_t two = 2;
        ret = sem_reshape(ret, 1, &two, false);
    }
    return ret;
}

void sem_split(tl_tensor a, tl_tensor *l, tl_tensor *r)
{
    int rank = tl_rank(a);
    if (rank == 0 || tl_dim(a, -1) != 2) {
        *l = *r = tl__err("split expects a tensor whose last dimension is 2");
        return;
    }
    const tl_type *rt = tl__block_type(sca(a), rank - 1, a.type->shape);
    const ct_type *irt = tl__ir_type(rt);
    ct_op *op = b_op(CT_OP_TT_SPLIT, 1, &a.handle, 2, (const ct_type *[]){irt, irt});
    *l = tl__tensor(&op->res[0], rt);
    *r = tl__tensor(&op->res[1], rt);
}

tl_tensor sem_permute(tl_tensor input, int n, const int64_t *dims)
{
    int r = tl_rank(input);
    if (r != n)
        return tl__err("permute dims must have the same length as input shape");
    bool seen[CT_MAX_RANK] = {0};
    for (int i = 0; i < n; i++) {
        if (dims[i] < 0 || dims[i] >= n || seen[dims[i]])
            return tl__err("permute dims must be a permutation of 0, 1, ..., n-1");
        seen[dims[i]] = true;
    }
    int64_t shape[CT_MAX_RANK];
    for (int i = 0; i < n; i++)
        shape[i] = input.type->shape[dims[i]];
    const tl_type *rt = tl__block_type(sca(input), n, shape);
    ct_op *op = b_op(CT_OP_TT_TRANS, 1, &input.handle, 1, (const ct_type *[]){tl__ir_type(rt)});
    b_attr(op, "order", ct_attr_dense_array(B->m, ct_type_int(B->m, 32), n, dims));
    return tl__tensor(&op->res[0], rt);
}

tl_tensor sem_broadcast_shape(tl_tensor input, int rank, const int64_t *shape)
{
    if (!is_block(input))
        return sem_splat(input, rank, shape);
    int sr = tl_rank(input);
    if (sr != rank)
        return tl__err("Cannot broadcast, rank mismatch: %d, %d", sr, rank);
    bool same = true;
    for (int i = 0; i < rank; i++)
        if (shape[i] != input.type->shape[i])
            same = false;
    if (same)
        return input;
    for (int i = 0; i < rank; i++) {
        int64_t item = input.type->shape[i];
        if (shape[i] != item && item != 1)
            return tl__err("Cannot broadcast, the expanded size of the tensor (%lld) must match "
                           "the existing size (%lld) at non-singleton dimension %d",
                           (long long)shape[i], (long long)item, i);
    }
    const tl_type *rt = tl__block_type(sca(input), rank, shape);
    return tl__tensor(b_broadcast(tl__ir_type(rt), input.handle), rt);
}

static void shape_str(const tl_type *t, char *buf, size_t cap)
{
    ct_strbuf b;
    ct_sb_init(&b);
    ct_sb_putc(&b, '[');
    for (int i = 0; t && t->kind == TL_TY_BLOCK && i < t->rank; i++)
        ct_sb_printf(&b, i ? ", %lld" : "%lld", (long long)t->shape[i]);
    ct_sb_putc(&b, ']');
    snprintf(buf, cap, "%s", b.s);
    ct_sb_free(&b);
}

bool sem_broadcast_value(tl_tensor *lhs, tl_tensor *rhs)
{
    if (tl__any_poison(2, *lhs, *rhs))
        return false;
    const tl_type *lt = ty(*lhs), *rt = ty(*rhs);
    if (tl__is_block(lt) && !tl__is_block(rt)) {
        const tl_type *nt = tl__with_elem(lt, tl__scalar(rt));
        *rhs = tl__tensor(b_splat(tl__ir_type(nt), rhs->handle), nt);
    } else if (!tl__is_block(lt) && tl__is_block(rt)) {
        const tl_type *nt = tl__with_elem(rt, tl__scalar(lt));
        *lhs = tl__tensor(b_splat(tl__ir_type(nt), lhs->handle), nt);
    } else if (tl__is_block(lt) && tl__is_block(rt)) {
        while (lhs->type->rank < rhs->type->rank) {
            int64_t s[CT_MAX_RANK];
            s[0] = 1;
            for (int i = 0; i < lhs->type->rank; i++)
                s[i + 1] = lhs->type->shape[i];
            const tl_type *nt = tl__block_type(tl__scalar(lhs->type), lhs->type->rank + 1, s);
            ct_op *op = b_op(CT_OP_TT_EXPAND_DIMS, 1, &lhs->handle, 1,
                             (const ct_type *[]){tl__ir_type(nt)});
            b_attr(op, "axis", ct_attr_int(B->m, ct_type_int(B->m, 32), 0));
            *lhs = tl__tensor(&op->res[0], nt);
        }
        while (rhs->type->rank < lhs->type->rank) {
            int64_t s[CT_MAX_RANK];
            s[0] = 1;
            for (int i = 0; i < rhs->type->rank; i++)
                s[i + 1] = rhs->type->shape[i];
            const tl_type *nt = tl__block_type(tl__scalar(rhs->type), rhs->type->rank + 1, s);
            ct_op *op = b_op(CT_OP_TT_EXPAND_DIMS, 1, &rhs->handle, 1,
                             (const ct_type *[]){tl__ir_type(nt)});
            b_attr(op, "axis", ct_attr_int(B->m, ct_type_int(B->m, 32), 0));
            *rhs = tl__tensor(&op->res[0], nt);
        }
        int r = lhs->type->rank;
        int64_t ret[CT_MAX_RANK];
        for (int i = 0; i < r; i++) {
            int64_t left = lhs->type->shape[i], right = rhs->type->shape[i];
            if (left == 1) {
                ret[i] = right;
            } else if (right == 1 || right == left) {
                ret[i] = left;
            } else {
                char b1[128], b2[128];
                shape_str(lhs->type, b1, sizeof b1);
                shape_str(rhs->type, b2, sizeof b2);
                tl__err("Cannot make_shape_compatible: incompatible dimensions at index %d: %lld "
                        "and %lld (shapes %s and %s)",
                        i, (long long)left, (long long)right, b1, b2);
                return false;
            }
        }
        bool lsame = true, rsame = true;
        for (int i = 0; i < r; i++) {
            lsame &= lhs->type->shape[i] == ret[i];
            rsame &= rhs->type->shape[i] == ret[i];
        }
        if (!lsame) {
            const tl_type *nt = tl__block_type(tl__scalar(lhs->type), r, ret);
            *lhs = tl__tensor(b_broadcast(tl__ir_type(nt), lhs->handle), nt);
        }
        if (!rsame) {
            const tl_type *nt = tl__block_type(tl__scalar(rhs->type), r, ret);
            *rhs = tl__tensor(b_broadcast(tl__ir_type(nt), rhs->handle), nt);
        }
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Casts                                                               */
/* ------------------------------------------------------------------ */

tl_tensor sem_bitcast(tl_tensor input, const tl_type *dst)
{
    const tl_type *src = ty(input);
    if (tl__is_block(src))
        dst = tl__with_elem(src, tl__scalar(dst));
    if (tl_type_eq(src, dst))
        return input;
    const tl_type *ss = tl__scalar(src), *ds = tl__scalar(dst);
    if (tl__is_ptr(ss) || tl__is_ptr(ds))
        return sem_cast(input, dst, NULL);
    int sb = tl__prim_bits(ss), db = tl__prim_bits(ds);
    if (sb != db)
        return tl__err("Cannot bitcast data-type of size %d to data-type of size %d", sb, db);
    return tl__tensor(b_op1(CT_OP_TT_BITCAST, 1, &input.handle, tl__ir_type(dst)), dst);
}

tl_tensor sem_cast(tl_tensor input, const tl_type *dst_ty, const char *rounding)
{
    if (tl__is_poison(input))
        return input;
    const tl_type *src_ty = ty(input), *ss = tl__scalar(src_ty), *ds = tl__scalar(dst_ty);
    if (tl_type_eq(ss, ds))
        return input;
    if (tl__is_block(src_ty))
        dst_ty = tl__with_elem(src_ty, ds);
    char b1[64], b2[64];
    int rmode = -1; /* -1 none, 0 rtne, 1 rtz */
    if (rounding) {
        if (!strcmp(rounding, "rtne"))
            rmode = 0;
        else if (!strcmp(rounding, "rtz"))
            rmode = 1;
        else
            return tl__err("Invalid rounding mode: %s. Supported rounding modes are 'rtne' and "
                           "'rtz'.",
                           rounding);
    }
    bool use_custom_rounding = false;
    if (tl__is_floating(ds) && tl__is_floating(ss) && tl__prim_bits(ds) < tl__prim_bits(ss)) {
        if (rmode < 0)
            rmode = 0;
        else if (rmode != 0)
            use_custom_rounding = true;
    } else if (rmode >= 0) {
        return tl__err("fp_downcast_rounding should be set only for truncating fp conversions. "
                       "Source scalar type is %s and destination type is %s",
                       TN(ss, b1), TN(ds, b2));
    }
    const ct_type *dir = tl__ir_type(dst_ty);
    /* 3.9: fp16 <-> bf16 stays one conversion (tt.fp_to_fp rtne), for a native one */
    if (TV->fp16_bf16_direct && ((ss->sc == TL_BF16 && ds->sc == TL_FP16) ||
                                 (ss->sc == TL_FP16 && ds->sc == TL_BF16))) {
        ct_op *op = b_op(CT_OP_TT_FP_TO_FP, 1, &input.handle, 1, &dir);
        b_enum(op, "rounding", "rtne");
        return tl__tensor(&op->res[0], dst_ty);
    }
    if (ss->kind == TL_TY_SCALAR && ds->kind == TL_TY_SCALAR &&
        (ss->sc == TL_FP8E4B15 || ds->sc == TL_FP8E4B15))
        return tl__err("casts to and from fp8e4b15 are not supported on this target");
    /* fp8 <=> other floats, and non-default rounding: tt.fp_to_fp */
    if ((tl__is_fp8(ss) && tl__is_floating(ds)) || (tl__is_floating(ss) && tl__is_fp8(ds)) ||
        use_custom_rounding) {
        ct_op *op = b_op(CT_OP_TT_FP_TO_FP, 1, &input.handle, 1, &dir);
        if (rmode >= 0)
            b_enum(op, "rounding", rmode ? "rtz" : "rtne");
        return tl__tensor(&op->res[0], dst_ty);
    }
    /* fp16 / bf16 to anything but fp32 goes through fp32 */
    if ((ss->sc == TL_FP16 && ds->sc != TL_FP32) || (ss->sc == TL_BF16 && ds->sc != TL_FP32))
        return sem_cast(sem_cast(input, tl_float32, NULL), ds, NULL);
    if (tl__is_floating(ss) && tl__is_floating(ds) && tl__prim_bits(ss) > tl__prim_bits(ds))
        return tl__tensor(b_op1(CT_OP_ARITH_TRUNCF, 1, &input.handle, dir), dst_ty);
    if (tl__is_floating(ss) && tl__is_floating(ds) && tl__prim_bits(ss) < tl__prim_bits(ds))
        return tl__tensor(b_op1(CT_OP_ARITH_EXTF, 1, &input.handle, dir), dst_ty);
    if (tl__is_int(ss) && tl__is_int(ds) &&
        (tl__int_bits(ss) != tl__int_bits(ds) || tl__is_signed(ss) != tl__is_signed(ds))) {
        bool sign_extend = tl__is_signed(ss) && !tl__is_bool(ss);
        if (tl__is_bool(ds)) {
            ct_value *z = b_const_int(tl__ir_type(ss), 0);
            return sem_compare(CMP_NE, input, tl__tensor(z, ss));
        }
        return tl__tensor(b_int_cast(input.handle, dir, sign_extend), dst_ty);
    }
    if (tl__is_standard_floating(ss) && tl__is_int(ds)) {
        if (tl__is_bool(ds)) {
            ct_value *z = b_const_float(tl__ir_type(ss), 0.0);
            return sem_compare(CMP_NE, input, tl__tensor(z, ss));
        }
        ct_opcode c = tl__is_signed(ds) ? CT_OP_ARITH_FPTOSI : CT_OP_ARITH_FPTOUI;
        return tl__tensor(b_op1(c, 1, &input.handle, dir), dst_ty);
    }
    if (tl__is_int(ss) && tl__is_standard_floating(ds)) {
        ct_opcode c = (tl__is_bool(ss) || !tl__is_signed(ss)) ? CT_OP_ARITH_UITOFP
                                                              : CT_OP_ARITH_SITOFP;
        return tl__tensor(b_op1(c, 1, &input.handle, dir), dst_ty);
    }
    if (tl__is_ptr(ss) && tl__is_int(ds)) {
        int bw = tl__int_bits(ds);
        if (bw == 64)
            return tl__tensor(b_op1(CT_OP_TT_PTR_TO_INT, 1, &input.handle, dir), dst_ty);
        if (bw == 1) {
            tl_tensor i64 = sem_cast(input, tl_int64, NULL);
            ct_value *z = b_const_int(ct_type_int(B->m, 64), 0);
            return sem_compare(CMP_NE, i64, tl__tensor(z, tl_int64));
        }
    }
    if (tl__is_int(ss) && tl__is_ptr(ds))
        return tl__tensor(b_op1(CT_OP_TT_INT_TO_PTR, 1, &input.handle, dir), dst_ty);
    if (tl__is_ptr(ss) && tl__is_ptr(ds))
        return tl__tensor(b_op1(CT_OP_TT_BITCAST, 1, &input.handle, dir), dst_ty);
    return tl__err("cannot cast %s to %s", TN(src_ty, b1), TN(dst_ty, b2));
}

/* ------------------------------------------------------------------ */
/* Memory                                                              */
/* ------------------------------------------------------------------ */

static bool cache_word(const char *s, bool is_load, const char **out)
{
    *out = NULL;
    if (!s || !*s)
        return true;
    if (TV->cache_policy_attr) {
        /* 3.9: core._CachePolicy takes any of its words, with or without the dot,
         * for loads and stores alike ("none" is the default) */
        const char *w = s[0] == '.' ? s + 1 : s;
        int64_t v, none;
        ct_enum_value(CT_EN_CACHE, "none", 4, &none);
        if (ct_enum_value(CT_EN_CACHE, w, strlen(w), &v)) {
            *out = v == none ? NULL : ct_enum_word(CT_EN_CACHE, v);
            return true;
        }
        tl__err("Unsupported cache modifier '%s'", w);
        return false;
    }
    if (is_load && TV->load_cache_cs && !strcmp(s, ".cs")) { /* 3.8 */
        *out = "cs";
        return true;
    }
    /* which of the CACHE words a load or a store takes (semantic.py
     * _str_to_load_cache_modifier, _str_to_store_cache_modifier), dot first */
    static const struct {
        const char *text;
        bool load, store;
    } table[] = {{".ca", 1, 0}, {".cg", 1, 1}, {".cv", 1, 0},
                 {".wb", 0, 1}, {".cs", 0, 1}, {".wt", 0, 1}};
    int64_t v;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!strcmp(table[i].text, s) && (is_load ? table[i].load : table[i].store) &&
            ct_enum_value(CT_EN_CACHE, s + 1, strlen(s + 1), &v)) {
            *out = ct_enum_word(CT_EN_CACHE, v);
            return true;
        }
    }
    tl__err("Cache modifier %s not supported", s);
    return false;
}

static bool evict_word(const char *s, const char **out)
{
    *out = NULL;
    if (!s || !*s)
        return true;
    if (!strcmp(s, "evict_last") || !strcmp(s, "evict_first")) {
        *out = s;
        return true;
    }
    if (TV->cache_policy_attr) { /* 3.9's _CachePolicy: evict_normal is a word too */
        if (!strcmp(s, "evict_normal"))
            return true;
        tl__err("Unsupported eviction policy '%s'", s);
        return false;
    }
    tl__err("Eviction policy %s not supported", s);
    return false;
}

/* a load's cache, evict and isVolatile attributes, when not the defaults */
static void load_attrs(ct_op *op, const char *cw, const char *ew, bool is_volatile)
{
    if (cw)
        b_enum(op, "cache", cw);
    if (ew)
        b_enum(op, "evict", ew);
    if (is_volatile)
        b_attr(op, "isVolatile", ct_attr_bool(B->m, true));
}

tl_tensor sem_load(tl_tensor ptr, tl_tensor mask, tl_tensor other, const char *cache,
                   const char *evict, bool is_volatile)
{
    const char *cw, *ew;
    char b1[96];
    if (!cache_word(cache, true, &cw) || !evict_word(evict, &ew))
        return tl__poison();
    if (ptr.kind != TL_K_TENSOR)
        return tl__err("tl.load expects a pointer or a tensor of pointers, got a %s",
                       vty(ptr, b1, sizeof b1));
    if (!tl__is_ptr(sca(ptr)))
        return tl__err("Unsupported ptr type %s in `tl.load`", TN(ty(ptr), b1));
    if (mask.kind == TL_K_NONE && other.kind != TL_K_NONE)
        return tl__err("`other` cannot be provided without `mask`");
    if (!is_block(ptr)) {
        if (mask.kind == TL_K_TENSOR && is_block(mask))
            return tl__err("Mask argument cannot be block type if pointer argument is not a block");
        if (other.kind == TL_K_TENSOR && is_block(other))
            return tl__err("Other argument cannot be block type if pointer argument is not a block");
    }
    if (mask.kind == TL_K_TENSOR && !tl__is_bool(sca(mask)))
        /* Python lets the MLIR verifier reject this later, without a line */
        return tl__err("the mask of tl.load must be boolean (int1), got %s", TN(sca(mask), b1));
    if (is_block(ptr)) {
        if (mask.kind != TL_K_NONE && !sem_broadcast_value(&ptr, &mask))
            return tl__poison();
        if (other.kind != TL_K_NONE && !sem_broadcast_value(&ptr, &other))
            return tl__poison();
    }
    const tl_type *ptr_ty = sca(ptr), *elt = ptr_ty->elem;
    bool is_bool = tl__is_bool(elt);
    if (is_bool) {
        elt = tl_int8;
        ptr_ty = tl_pointer_type_ex(elt, ptr_ty->addrspace, false);
        ptr = sem_cast(ptr, ptr_ty, NULL);
    }
    if (other.kind != TL_K_NONE)
        other = sem_cast(other, elt, NULL);
    if (tl__any_poison(2, ptr, other))
        return tl__poison();
    const tl_type *dst = is_block(ptr) ? tl__with_elem(ty(ptr), elt) : elt;
    ct_value *ops[3] = {ptr.handle, mask.handle, other.handle};
    int n = mask.kind == TL_K_NONE ? 1 : other.kind == TL_K_NONE ? 2 : 3;
    ct_op *op = b_op(CT_OP_TT_LOAD, n, ops, 1, (const ct_type *[]){tl__ir_type(dst)});
    load_attrs(op, cw, ew, is_volatile);
    tl_tensor ret = tl__tensor(&op->res[0], dst);
    if (is_bool)
        ret = sem_cast(ret, tl_int1, NULL);
    return ret;
}

/* broadcast_tensors(head, *tail) */
static bool broadcast_tensors(int n, tl_tensor **v)
{
    for (int i = 1; i < n; i++)
        if (!sem_broadcast_value(v[0], v[i]))
            return false;
    for (int i = 1; i < n - 1; i++)
        if (!sem_broadcast_value(v[0], v[i]))
            return false;
    return true;
}

/* ctriton's stricter rule: a store may not narrow or convert float values
 * implicitly (Python casts silently; write the .to() to say you mean it). */
static bool store_conversion_ok(const tl_type *val, const tl_type *elt)
{
    if (tl_type_eq(val, elt))
        return true;
    if (tl__is_floating(val) && tl__is_floating(elt))
        return tl__prim_bits(elt) >= tl__prim_bits(val) && !tl__is_fp8(elt);
    if (tl__is_floating(val) && tl__is_int(elt))
        return false;
    if (tl__is_int(val) && tl__is_int(elt))
        return tl__is_bool(val) || tl__int_bits(elt) >= tl__int_bits(val);
    return true;
}

void sem_store(tl_tensor ptr, tl_tensor val, tl_tensor mask, const char *cache, const char *evict)
{
    const char *cw, *ew;
    char b1[96], b2[96];
    if (!cache_word(cache, false, &cw) || !evict_word(evict, &ew))
        return;
    if (ptr.kind != TL_K_TENSOR) {
        tl__err("tl.store expects a pointer or a tensor of pointers, got a %s",
                vty(ptr, b1, sizeof b1));
        return;
    }
    if (tl__is_ptr(ty(ptr)) && ty(ptr)->is_const) {
        tl__err("Cannot store to a constant pointer");
        return;
    }
    if (!tl__is_ptr(sca(ptr))) {
        tl__err("Unsupported ptr type %s in `tl.store`", TN(ty(ptr), b1));
        return;
    }
    if (!is_block(ptr)) {
        if (is_block(val)) {
            tl__err("Value argument cannot be block type if pointer argument is not a block");
            return;
        }
        if (mask.kind == TL_K_TENSOR && is_block(mask)) {
            tl__err("Mask argument cannot be block type if pointer argument is not a block");
            return;
        }
    }
    if (is_block(ptr)) {
        const tl_type *pt = ty(ptr);
        tl_tensor *v[3] = {&ptr, &val, &mask};
        if (!broadcast_tensors(mask.kind == TL_K_NONE ? 2 : 3, v))
            return;
        if (!tl_type_eq(tl__with_elem(pt, tl_int1), tl__with_elem(ty(ptr), tl_int1))) {
            char s1[64], s2[64];
            shape_str(ty(ptr), s1, sizeof s1);
            shape_str(pt, s2, sizeof s2);
            tl__err("Expected pointer argument to have shape %s but got %s", s1, s2);
            return;
        }
    }
    const tl_type *ptr_ty = sca(ptr), *elt = ptr_ty->elem;
    if (tl__is_bool(elt)) {
        elt = tl_int8;
        ptr_ty = tl_pointer_type_ex(elt, ptr_ty->addrspace, false);
        ptr = sem_cast(ptr, ptr_ty, NULL);
    }
    if (!B->opts.implicit_store_casts && !store_conversion_ok(sca(val), elt)) {
        tl__err("storing %s values through a pointer to %s converts them implicitly; write "
                "tl_to(value, tl_%s) to make the conversion explicit (Python converts silently)",
                TN(sca(val), b1), TN(elt, b2),
                elt->sc == TL_FP16 ? "float16" : elt->sc == TL_BF16 ? "bfloat16"
                : elt->sc == TL_FP32 ? "float32" : elt->sc == TL_FP8E4NV ? "float8e4nv"
                : elt->sc == TL_FP8E5 ? "float8e5" : tl__scalar_name(elt->sc));
        return;
    }
    val = sem_cast(val, elt, NULL);
    if (tl__any_poison(2, ptr, val))
        return;
    if (mask.kind != TL_K_NONE && !tl__is_bool(sca(mask))) {
        tl__err("Mask must have boolean scalar type, got %s", TN(sca(mask), b1));
        return;
    }
    ct_value *ops[3] = {ptr.handle, val.handle, mask.handle};
    ct_op *op = b_op(CT_OP_TT_STORE, mask.kind == TL_K_NONE ? 2 : 3, ops, 0, NULL);
    if (cw)
        b_enum(op, "cache", cw);
    if (ew)
        b_enum(op, "evict", ew);
}

/* ------------------------------------------------------------------ */
/* Atomics                                                             */
/* ------------------------------------------------------------------ */

static bool sem_word(const char *s, const char **out)
{
    /* Python's words are the IR's (semantic.py _str_to_sem) */
    int64_t v;
    *out = "acq_rel";
    if (!s || !*s)
        return true;
    if (ct_enum_value(CT_EN_SEM, s, strlen(s), &v)) {
        *out = ct_enum_word(CT_EN_SEM, v);
        return true;
    }
    tl__err("Memory semantic %s not supported", s);
    return false;
}

static bool scope_word(const char *s, const char **out)
{
    int64_t v;
    *out = "gpu";
    if (!s || !*s)
        return true;
    if (ct_enum_value(CT_EN_SCOPE, s, strlen(s), &v)) { /* gpu, cta, sys: _str_to_scope */
        *out = ct_enum_word(CT_EN_SCOPE, v);
        return true;
    }
    tl__err("Memory semantic %s not supported", s);
    return false;
}

tl_tensor sem_atomic_cas(tl_tensor ptr, tl_tensor cmp, tl_tensor val, const char *sem,
                         const char *scope)
{
    const char *sw, *cw;
    if (!sem_word(sem, &sw) || !scope_word(scope, &cw))
        return tl__poison();
    if (ptr.kind != TL_K_TENSOR || !tl__is_ptr(sca(ptr)))
        return tl__err("atomic_cas expects a pointer");
    const tl_type *elt = sca(ptr)->elem;
    int bw = tl__prim_bits(elt);
    if (bw != 16 && bw != 32 && bw != 64)
        return tl__err("atomic_cas only supports elements with width {16, 32, 64}");
    ct_value *ops[3] = {ptr.handle, cmp.handle, val.handle};
    const tl_type *rt = ty(val);
    ct_op *op = b_op(CT_OP_TT_ATOMIC_CAS, 3, ops, 1, (const ct_type *[]){tl__ir_type(rt)});
    b_enum(op, "sem", sw);
    b_enum(op, "scope", cw);
    return tl__tensor(&op->res[0], rt);
}

static bool atom_red_checking(tl_tensor *ptr, tl_tensor *val, tl_tensor *mask, const char *opn)
{
    char b1[96];
    if (ptr->kind != TL_K_TENSOR || !tl__is_ptr(sca(*ptr))) {
        tl__err("Pointer argument of store instruction is %s", vty(*ptr, b1, sizeof b1));
        return false;
    }
    if (sca(*ptr)->is_const) {
        tl__err("Cannot store to a constant pointer");
        return false;
    }
    const tl_type *elt = sca(*ptr)->elem;
    if (elt->sc == TL_FP16 && strcmp(opn, "add")) {
        tl__err("atomic_%s does not support fp16", opn);
        return false;
    }
    if (elt->sc == TL_BF16 && strcmp(opn, "add")) {
        tl__err("atomic_%s does not support bf16", opn);
        return false;
    }
    if (elt->sc == TL_INT16 || elt->sc == TL_UINT16 || tl__prim_bits(elt) < 16) {
        tl__err("atomic_%s does not support %s", opn, TN(elt, b1));
        return false;
    }
    if (is_block(*ptr)) {
        const tl_type *pt = ty(*ptr);
        if (mask->kind != TL_K_NONE)
            *mask = sem_broadcast_shape(*mask, pt->rank, pt->shape);
        *val = sem_broadcast_shape(*val, pt->rank, pt->shape);
    }
    *val = sem_cast(*val, elt, NULL);
    if (mask->kind == TL_K_NONE) {
        ct_value *t = b_const_int(ct_type_int(B->m, 1), 1);
        const tl_type *mt = tl_int1;
        if (is_block(*ptr)) {
            mt = tl__with_elem(ty(*ptr), tl_int1);
            t = b_splat(tl__ir_type(mt), t);
        }
        *mask = tl__tensor(t, mt);
    }
    return !tl__any_poison(3, *ptr, *val, *mask);
}

/* `rt` is the frontend type of the result; the IR result has val's type */
static tl_tensor rmw(const char *kind, tl_tensor ptr, tl_tensor val, tl_tensor mask,
                     const char *sw, const char *cw, const tl_type *rt)
{
    ct_value *ops[3] = {ptr.handle, val.handle, mask.handle};
    ct_op *op = b_op(CT_OP_TT_ATOMIC_RMW, 3, ops, 1, (const ct_type *[]){val.handle->type});
    b_enum(op, "atomic_rmw_op", kind);
    b_enum(op, "sem", sw);
    b_enum(op, "scope", cw);
    return tl__tensor(&op->res[0], rt);
}

static tl_tensor signbit_(tl_tensor x)
{
    int bw = tl__prim_bits(sca(x));
    const tl_type *idt = tl__int_dtype(bw, false);
    tl_tensor ix = sem_bitcast(x, idt);
    tl_tensor s = sem_lshr(ix, tl__from_i64(bw - 1));
    return sem_cast(s, tl_int1, NULL);
}

tl_tensor sem_atomic(tl_atomic_op op, tl_tensor ptr, tl_tensor val, tl_tensor mask,
                     const char *sem, const char *scope)
{
    static const char *const names[] = {"add", "max", "min", "and", "or", "xor", "xchg"};
    if (!atom_red_checking(&ptr, &val, &mask, names[op]))
        return tl__poison();
    const char *sw, *cw;
    if (!sem_word(sem, &sw) || !scope_word(scope, &cw))
        return tl__poison();
    const tl_type *st = sca(val);
    switch (op) {
    case TL_ATOMIC_ADD:
        return rmw(tl__is_floating(st) ? "fadd" : "add", ptr, val, mask, sw, cw, ty(val));
    case TL_ATOMIC_AND:
        return rmw("and", ptr, val, mask, sw, cw, ty(val));
    case TL_ATOMIC_OR:
        return rmw("or", ptr, val, mask, sw, cw, ty(val));
    case TL_ATOMIC_XOR:
        return rmw("xor", ptr, val, mask, sw, cw, ty(val));
    case TL_ATOMIC_XCHG:
        return rmw("exch", ptr, val, mask, sw, cw, ty(val));
    case TL_ATOMIC_MAX:
    case TL_ATOMIC_MIN: {
        bool mx = op == TL_ATOMIC_MAX;
        if (tl__is_int(st)) {
            const char *k = tl__is_signed(st) ? (mx ? "max" : "min") : (mx ? "umax" : "umin");
            return rmw(k, ptr, val, mask, sw, cw, ty(val));
        }
        if (st->sc != TL_FP32 && st->sc != TL_FP64) {
            char b1[64];
            return tl__err("atomic_%s not supported for dtype %s", names[op], TN(st, b1));
        }
        /* floats: signed max/min on the bits when >= 0, unsigned min/max when < 0 */
        const tl_type *it = st->sc == TL_FP32 ? tl_int32 : tl_int64;
        tl_tensor i_val = sem_bitcast(val, it);
        tl_tensor i_ptr = sem_bitcast(ptr, tl_pointer_type_ex(it, 1, false));
        const tl_type *ut = st->sc == TL_FP32 ? tl_uint32 : tl_uint64;
        tl_tensor ui_val = sem_bitcast(val, ut);
        tl_tensor ui_ptr = sem_bitcast(ptr, tl_pointer_type_ex(ut, 1, false));
        tl_tensor neg = signbit_(val);
        tl_tensor pos = sem_not(neg);
        tl_tensor pos_ret = rmw(mx ? "max" : "min", i_ptr, i_val, sem_and(mask, pos), sw, cw,
                                ty(i_val));
        /* Triton 3.6 and 3.7 type atomic_min's second result as the pointer (a slip
         * in semantic.py, fixed in 3.8); the IR is the same but where() then skips
         * its cast */
        tl_tensor neg_ret = rmw(mx ? "umin" : "umax", ui_ptr, ui_val, sem_and(mask, neg), sw,
                                cw, mx || TV->atomic_min_typed ? ty(ui_val) : ty(ui_ptr));
        tl_tensor ret = sem_where(pos, pos_ret, neg_ret);
        return sem_bitcast(ret, st);
    }
    }
    return tl__poison();
}

/* ------------------------------------------------------------------ */
/* Linear algebra                                                      */
/* ------------------------------------------------------------------ */

tl_tensor sem_dot(tl_tensor lhs, tl_tensor rhs, tl_tensor acc, const char *input_precision,
                  int max_num_imprecise_acc, const tl_type *out_dtype)
{
    char b1[96], b2[96];
    if (!is_block(lhs) || !is_block(rhs))
        return tl__err("dot expects two blocks");
    const tl_type *ld = sca(lhs), *rd = sca(rhs);
    if (!(tl__is_fp8(ld) && tl__is_fp8(rd))) {
        static const tl_scalar ok[] = {TL_INT8, TL_UINT8, TL_FP16, TL_BF16, TL_FP32, TL_FP64};
        bool lok = false, rok = false;
        for (int i = 0; i < 6; i++) {
            lok |= ld->kind == TL_TY_SCALAR && ld->sc == ok[i];
            rok |= rd->kind == TL_TY_SCALAR && rd->sc == ok[i];
        }
        if (!lok)
            return tl__err("Unsupported lhs dtype %s", TN(ld, b1));
        if (!rok)
            return tl__err("Unsupported rhs dtype %s", TN(rd, b1));
        if (!tl_type_eq(ld, rd))
            return tl__err("Both operands must be same dtype. Got %s and %s", TN(ld, b1),
                           TN(rd, b2));
    }
    if (ld->sc == TL_FP8E4B15 || rd->sc == TL_FP8E4B15 || ld->sc == TL_FP8E4B8 ||
        rd->sc == TL_FP8E5B16 || ld->sc == TL_FP8E5B16 || rd->sc == TL_FP8E4B8)
        return tl__err("dot of %s is not supported on sm_90", TN(ld, b1));
    const char *ip = input_precision ? input_precision : "tf32";
    const char *ipw;
    if (!strcasecmp(ip, "tf32"))
        ipw = "tf32";
    else if (!strcasecmp(ip, "tf32x3"))
        ipw = "tf32x3";
    else if (!strcasecmp(ip, "ieee"))
        ipw = "ieee";
    else
        return tl__err("input_precision must be one of ('tf32', 'tf32x3', 'ieee'). Got %s", ip);
    int lr = tl_rank(lhs), rr = tl_rank(rhs);
    if (!((lr == 2 && rr == 2) || (lr == 3 && rr == 3)))
        return tl__err("Both inputs must be either 2D or 3D; (lhs: rank %d vs rhs: rank %d)", lr, rr);
    int64_t K = tl_dim(lhs, -1);
    if (K != tl_dim(rhs, -2))
        return tl__err("First input shape and second input shape are not compatible for matmul "
                       "(second index of first shape (%lld) must be equal to first index of "
                       "second shape (%lld))",
                       (long long)K, (long long)tl_dim(rhs, -2));
    /* min_dot_size for NVIDIA: M >= 16, N >= 16, K >= 16 (8 bits: 32) */
    int64_t mink = tl__prim_bits(ld) == 8 ? 32 : 16;
    if (tl_dim(lhs, -2) < 16 || K < mink || tl_dim(rhs, -1) < 16)
        return tl__err("Input shapes should have M >= 16, N >= 16 and K >= %lld", (long long)mink);
    /* the zero constant is made first, whether an accumulator is given or not */
    const tl_type *ret_scalar;
    ct_value *zero;
    if (tl__is_int(ld)) {
        if (ld->sc != TL_INT8)
            return tl__err("only int8 supported!");
        zero = b_const_int(ct_type_int(B->m, 32), 0);
        ret_scalar = tl_int32;
    } else if (out_dtype->sc == TL_BF16) {
        return tl__err("out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16 "
                       "and cast with `.to(tl.bfloat16)`");
    } else if (ld->sc == TL_FP32 || ld->sc == TL_BF16) {
        zero = b_const_float(ct_type_float(B->m, CT_F32), 0.0);
        ret_scalar = tl_float32;
    } else if (ld->sc == TL_FP64) {
        zero = b_const_float(ct_type_float(B->m, CT_F64), 0.0);
        ret_scalar = tl_float64;
    } else {
        zero = b_const_float(ct_type_float(B->m, out_dtype->sc == TL_FP16 ? CT_F16 : CT_F32), 0.0);
        ret_scalar = out_dtype;
    }
    int64_t shape[3];
    int rank = lr;
    if (lr == 3) {
        shape[0] = tl_dim(lhs, 0);
        shape[1] = tl_dim(lhs, 1);
        shape[2] = tl_dim(rhs, 2);
    } else {
        shape[0] = tl_dim(lhs, 0);
        shape[1] = tl_dim(rhs, 1);
    }
    const tl_type *rt = tl__block_type(ret_scalar, rank, shape);
    ct_value *acc_h;
    if (acc.kind == TL_K_NONE) {
        acc_h = b_splat(tl__ir_type(rt), zero);
    } else {
        if (acc.kind != TL_K_TENSOR || !tl_type_eq(tl__with_elem(ty(acc), tl_int1),
                                                   tl__with_elem(rt, tl_int1)))
            return tl__err("accumulator shape is incompatible");
        if (!tl_type_eq(sca(acc), out_dtype) && !(tl__is_int(ld)))
            return tl__err("the accumulator has type %s but out_dtype is %s", TN(sca(acc), b1),
                           TN(out_dtype, b2));
        acc_h = acc.handle;
    }
    if (max_num_imprecise_acc < 0) {
        /* sm_90 default for fp8 x fp8: max_num_imprecise_acc_default (2**30) */
        max_num_imprecise_acc = (tl__is_fp8(ld) && tl__is_fp8(rd)) ? (1 << 30) : 0;
    } else if (tl__is_fp8(ld) && tl__is_fp8(rd) && max_num_imprecise_acc > K) {
        return tl__err("max_num_imprecise_acc (%d) must be <= K (%lld)", max_num_imprecise_acc,
                       (long long)K);
    }
    ct_value *ops[3] = {lhs.handle, rhs.handle, acc_h};
    ct_op *op = b_op(CT_OP_TT_DOT, 3, ops, 1, (const ct_type *[]){tl__ir_type(rt)});
    b_enum(op, "inputPrecision", ipw);
    if (max_num_imprecise_acc)
        b_attr(op, "maxNumImpreciseAcc",
               ct_attr_int(B->m, ct_type_int(B->m, 32), max_num_imprecise_acc));
    return tl__tensor(&op->res[0], rt);
}

/* ------------------------------------------------------------------ */
/* Indexing                                                            */
/* ------------------------------------------------------------------ */

tl_tensor sem_where(tl_tensor condition, tl_tensor x, tl_tensor y)
{
    if (condition.kind == TL_K_TENSOR && !tl__is_bool(sca(condition))) {
        char b1[64];
        tl__warn("tl.where with a non-boolean condition is deprecated and will error out in a "
                 "future triton release. Got %s",
                 TN(sca(condition), b1));
    }
    condition = sem_cast(condition, tl_int1, NULL);
    if (tl__is_poison(condition))
        return condition;
    if (!sem_binary_checking(&x, &y, true, true, true, false))
        return tl__poison();
    if (is_block(condition)) {
        if (!sem_broadcast_value(&condition, &x) || !sem_broadcast_value(&x, &y))
            return tl__poison();
    } else {
        tl_tensor xx = x;
        if (!sem_broadcast_value(&condition, &xx))
            return tl__poison();
    }
    ct_value *ops[3] = {condition.handle, x.handle, y.handle};
    return tl__tensor(b_op1(CT_OP_ARITH_SELECT, 3, ops, x.handle->type), ty(x));
}

/* ------------------------------------------------------------------ */
/* Debugging, math helpers                                             */
/* ------------------------------------------------------------------ */

void sem_device_assert(tl_tensor cond, const char *msg, tl_tensor mask)
{
    if (!B->opts.debug)
        return;
    if (mask.kind != TL_K_NONE)
        cond = sem_or(cond, sem_not(mask));
    if (tl__is_poison(cond))
        return;
    ct_op *op = b_op(CT_OP_TT_ASSERT, 1, &cond.handle, 0, NULL);
    b_attr(op, "message", ct_attr_str(B->m, msg));
}

tl_tensor sem_umulhi(tl_tensor x, tl_tensor y)
{
    if (!sem_binary_checking(&x, &y, false, false, true, false))
        return tl__poison();
    return tl__tensor(binop_ir(CT_OP_TT_MULHIUI, x, y), ty(x));
}

tl_tensor sem_gather(tl_tensor src, tl_tensor index, int axis)
{
    if (!tl__is_int(sca(index)))
        return tl__err("index must be an integer tensor");
    int rank = tl_rank(src);
    if (tl_rank(index) != rank)
        return tl__err("source and index tensors must have the same rank");
    if (axis < -rank || axis >= rank)
        return tl__err("gather axis %d must be < source rank (%d)", axis, rank);
    if (axis < 0)
        axis += rank;
    for (int d = 0; d < rank; d++)
        if (d != axis && tl_dim(index, d) != tl_dim(src, d))
            return tl__err("index dim %d must match the corresponding source dim", d);
    const tl_type *rt = tl__with_elem(ty(index), sca(src));
    ct_value *ops[2] = {src.handle, index.handle};
    ct_op *op = b_op(CT_OP_TT_GATHER, 2, ops, 1, (const ct_type *[]){tl__ir_type(rt)});
    b_attr(op, "axis", ct_attr_int(B->m, ct_type_int(B->m, 32), axis));
    return tl__tensor(&op->res[0], rt);
}

tl_tensor sem_histogram(tl_tensor x, int num_bins, tl_tensor mask)
{
    if (tl_rank(x) != 1)
        return tl__err("histogram only supports 1D input");
    if (!tl__is_int(sca(x)))
        return tl__err("histogram only supports integer input");
    ct_value *ops[2] = {x.handle, NULL};
    int n = 1;
    if (mask.kind != TL_K_NONE) {
        mask = sem_broadcast_shape(mask, 1, x.type->shape);
        if (tl__is_poison(mask))
            return mask;
        if (!tl__is_bool(sca(mask)))
            return tl__err("Mask must have boolean scalar type");
        ops[1] = mask.handle;
        n = 2;
    }
    int64_t nb = num_bins;
    const tl_type *rt = tl__block_type(tl_int32, 1, &nb);
    return tl__tensor(b_op1(CT_OP_TT_HISTOGRAM, n, ops, tl__ir_type(rt)), rt);
}

tl_tensor sem_math_unary(tl_unary op, tl_tensor x)
{
    static const ct_opcode codes[] = {
        [TL_EXP] = CT_OP_MATH_EXP,       [TL_EXP2] = CT_OP_MATH_EXP2,
        [TL_LOG] = CT_OP_MATH_LOG,       [TL_LOG2] = CT_OP_MATH_LOG2,
        [TL_SQRT] = CT_OP_MATH_SQRT,     [TL_SQRT_RN] = CT_OP_TT_PRECISE_SQRT,
        [TL_RSQRT] = CT_OP_MATH_RSQRT,   [TL_SIN] = CT_OP_MATH_SIN,
        [TL_COS] = CT_OP_MATH_COS,       [TL_ERF] = CT_OP_MATH_ERF,
        [TL_FLOOR] = CT_OP_MATH_FLOOR,   [TL_CEIL] = CT_OP_MATH_CEIL,
        [TL_ABS] = CT_OP_MATH_ABSF,
    };
    static const char *const names[] = {
        [TL_EXP] = "exp",   [TL_EXP2] = "exp2", [TL_LOG] = "log",     [TL_LOG2] = "log2",
        [TL_SQRT] = "sqrt", [TL_SQRT_RN] = "sqrt_rn", [TL_RSQRT] = "rsqrt", [TL_ABS] = "abs",
        [TL_SIN] = "sin",   [TL_COS] = "cos",   [TL_ERF] = "erf",     [TL_FLOOR] = "floor",
        [TL_CEIL] = "ceil",
    };
    x = sem_to_tensor(x);
    if (tl__is_poison(x))
        return x;
    const tl_type *d = sca(x);
    char b1[64];
    if (op == TL_ABS) {
        if (d->sc == TL_FP8E4B15)
            return tl__err("abs of fp8e4b15 is not supported");
        if (tl__is_floating(d))
            return tl__tensor(b_op1(CT_OP_MATH_ABSF, 1, &x.handle, x.handle->type), ty(x));
        if (tl__is_signed(d))
            return tl__tensor(b_op1(CT_OP_MATH_ABSI, 1, &x.handle, x.handle->type), ty(x));
        if (tl__is_unsigned(d))
            return x;
        return tl__err("tl.abs: unexpected dtype %s", TN(d, b1));
    }
    bool fp32_only = op == TL_SQRT_RN;
    if (!(d->kind == TL_TY_SCALAR && (d->sc == TL_FP32 || (!fp32_only && d->sc == TL_FP64))))
        return tl__err("tl.%s expects dtype %s but got %s (cast it with tl_to first)", names[op],
                       fp32_only ? "fp32" : "fp32 or fp64", TN(d, b1));
    return tl__tensor(b_op1(codes[op], 1, &x.handle, x.handle->type), ty(x));
}

/* ------------------------------------------------------------------ */
/* Block pointers (make_block_ptr, advance, and loads/stores through them)  */
/* ------------------------------------------------------------------ */

bool sem_is_block_ptr(tl_tensor p)
{
    return p.kind == TL_K_TENSOR && tl__is_ptr(ty(p)) && tl__is_block(ty(p)->elem);
}

/* _convert_elem_to_ir_value(elem, require_i64) */
static ct_value *bp_value(tl_tensor e, bool require_i64, const char *what)
{
    char b1[64];
    if (e.kind == TL_K_BOOL)
        return b_const_int(ct_type_int(B->m, 1), e.i != 0);
    if (e.kind == TL_K_INT) {
        if (!require_i64 && (e.i < -2147483648LL || e.i > 2147483647LL)) {
            tl__err("Block pointers only support 32 bit `offsets/block_shape`, got a value %lld "
                    "which is out of the range", (long long)e.i);
            return NULL;
        }
        return b_const_int(ct_type_int(B->m, require_i64 ? 64 : 32), e.i);
    }
    if (e.kind != TL_K_TENSOR) {
        tl__err("Unsupported element type in %s: %s", what, vty(e, b1, sizeof b1));
        return NULL;
    }
    if (tl__is_block(ty(e)) && tl_numel(e) != 1) {
        tl__err("Expected a scalar in shape/strides/offsets, got %s", TN(ty(e), b1));
        return NULL;
    }
    const tl_type *d = sca(e);
    if (!tl__is_int(d)) {
        tl__err("Expected an integer scalar type in shape/strides/offsets, got %s", TN(d, b1));
        return NULL;
    }
    if (d->sc != TL_INT64 && require_i64)
        return b_int_cast(e.handle, ct_type_int(B->m, 64), tl__is_signed(d));
    if (d->sc == TL_INT64 && !require_i64) {
        tl__err("Block pointers only support 32 bit `offsets/block_shape`, add a `.to(tl.int32)` "
                "or use regular indexing for 64 bit support");
        return NULL;
    }
    return e.handle;
}

tl_tensor sem_make_block_ptr(tl_tensor base, tl_tuple_t shape, tl_tuple_t strides,
                             tl_tuple_t offsets, tl_shape_t block_shape, tl_ints_t order)
{
    char b1[96];
    int r = block_shape.rank;
    ct_value *ops[1 + 3 * CT_MAX_RANK];
    if (r < 1 || r > CT_MAX_RANK)
        return tl__err("make_block_ptr: block_shape needs 1 to %d dimensions, got %d", CT_MAX_RANK, r);
    /* shapes and strides are converted to i64, offsets stay i32, in this order */
    const tl_tuple_t *lists[3] = {&shape, &strides, &offsets};
    for (int g = 0; g < 3; g++)
        for (int i = 0; i < lists[g]->n; i++)
            if (tl__is_poison(lists[g]->v[i]))
                return tl__poison();
    int k = 1;
    for (int g = 0; g < 3; g++)
        for (int i = 0; i < lists[g]->n && k < 1 + 3 * CT_MAX_RANK; i++) {
            ct_value *v = bp_value(lists[g]->v[i], g < 2, g == 0 ? "shape" : g == 1 ? "strides" : "offsets");
            if (!v)
                return tl__poison();
            ops[k++] = v;
        }
    if (base.kind != TL_K_TENSOR || !tl__is_ptr(ty(base)) || tl__is_block(ty(base)->elem))
        return tl__err("Expected `base` to be a pointer type (but not a block pointer type or "
                       "others), got %s", vty(base, b1, sizeof b1));
    if (tl__is_bool(ty(base)->elem))
        base = sem_cast(base, tl_pointer_type_ex(tl_int8, ty(base)->addrspace, false), NULL);
    for (int i = 0; i < r; i++)
        if (block_shape.d[i] < -2147483648LL || block_shape.d[i] > 2147483647LL)
            return tl__err("Expected a list of constant integers (`int32_t` range) in `block_shape`");
    bool seen[CT_MAX_RANK] = {0};
    for (int i = 0; i < order.rank; i++) {
        if (order.d[i] < 0 || order.d[i] >= order.rank || seen[order.d[i]])
            return tl__err("Expected a permutation of (0, 1, ..., len(order)-1) in order");
        seen[order.d[i]] = true;
    }
    if (shape.n != r || strides.n != r || offsets.n != r || order.rank != r)
        return tl__err("Expected shape/strides/offsets/block_shape to have the same length "
                       "(got %d, %d, %d, %d and order %d)", shape.n, strides.n, offsets.n, r,
                       order.rank);
    if (tl__is_poison(base))
        return base;
    ops[0] = base.handle;
    const tl_type *blk = tl__block_type(ty(base)->elem, r, block_shape.d);
    const tl_type *pt = tl_pointer_type_ex(blk, ty(base)->addrspace, false);
    ct_op *op = b_op(CT_OP_TT_MAKE_TENSOR_PTR, 1 + 3 * r, ops, 1, (const ct_type *[]){tl__ir_type(pt)});
    int64_t ord[CT_MAX_RANK];
    for (int i = 0; i < r; i++)
        ord[i] = order.d[i];
    b_attr(op, "order", ct_attr_dense_array(B->m, ct_type_int(B->m, 32), r, ord));
    return tl__tensor(&op->res[0], pt);
}

tl_tensor sem_advance(tl_tensor base, tl_tuple_t offsets)
{
    char b1[96];
    ct_value *ops[1 + CT_MAX_RANK];
    for (int i = 0; i < offsets.n; i++)
        if (tl__is_poison(offsets.v[i]))
            return tl__poison();
    int k = 1;
    for (int i = 0; i < offsets.n && k < 1 + CT_MAX_RANK; i++) {
        ct_value *v = bp_value(offsets.v[i], false, "offsets");
        if (!v)
            return tl__poison();
        ops[k++] = v;
    }
    if (!sem_is_block_ptr(base))
        return tl__err("tl.advance expects a block pointer (made by make_block_ptr), got %s",
                       vty(base, b1, sizeof b1));
    if (offsets.n != ty(base)->elem->rank)
        return tl__err("tl.advance: %d offsets for a block of rank %d", offsets.n,
                       ty(base)->elem->rank);
    ops[0] = base.handle;
    ct_op *op = b_op(CT_OP_TT_ADVANCE, k, ops, 1, (const ct_type *[]){tl__ir_type(ty(base))});
    return tl__tensor(&op->res[0], ty(base));
}

/* _canonicalize_boundary_check: sorted, each dimension once */
static bool boundary_dims(tl_ints_t bc, int rank, int64_t *out, int *n)
{
    *n = bc.rank;
    for (int i = 0; i < bc.rank; i++) {
        if (bc.d[i] < 0 || bc.d[i] >= rank) {
            tl__err("boundary_check dimension %lld is out of range for a block of rank %d",
                    (long long)bc.d[i], rank);
            return false;
        }
        out[i] = bc.d[i];
    }
    for (int i = 1; i < *n; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int64_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    for (int i = 1; i < *n; i++)
        if (out[i] == out[i - 1]) {
            tl__err("Duplicate dimension in `boundary_check`");
            return false;
        }
    return true;
}

tl_tensor sem_load_block_ptr(tl_tensor ptr, tl_tensor mask, tl_tensor other, tl_ints_t boundary,
                             const char *padding, const char *cache, const char *evict,
                             bool is_volatile)
{
    const char *cw, *ew;
    if (!cache_word(cache, true, &cw) || !evict_word(evict, &ew))
        return tl__poison();
    int pad = 0;
    if (padding && *padding) {
        if (!strcmp(padding, "zero"))
            pad = 1;
        else if (!strcmp(padding, "nan"))
            pad = 2;
        else
            return tl__err("Padding option %s not supported", padding);
    }
    if (mask.kind != TL_K_NONE || other.kind != TL_K_NONE)
        return tl__err("`mask` and `other` arguments cannot be specified for loading block pointers");
    const tl_type *dst = ty(ptr)->elem, *elt = dst->elem;
    if (tl__is_int(elt) && pad == 2)
        return tl__err("Padding option `nan` is not supported for integer block pointers");
    int64_t dims[CT_MAX_RANK];
    int nd;
    if (!boundary_dims(boundary, dst->rank, dims, &nd))
        return tl__poison();
    ct_op *op = b_op(CT_OP_TT_LOAD, 1, &ptr.handle, 1, (const ct_type *[]){tl__ir_type(dst)});
    if (nd)
        b_attr(op, "boundaryCheck", ct_attr_dense_array(B->m, ct_type_int(B->m, 32), nd, dims));
    if (pad)
        b_attr(op, "padding", ct_attr_int(B->m, ct_type_int(B->m, 32), pad));
    load_attrs(op, cw, ew, is_volatile);
    return tl__tensor(&op->res[0], dst);
}

void sem_store_block_ptr(tl_tensor ptr, tl_tensor val, tl_tensor mask, tl_ints_t boundary,
                         const char *cache, const char *evict)
{
    const char *cw, *ew;
    char b1[96], b2[96];
    if (!cache_word(cache, false, &cw) || !evict_word(evict, &ew))
        return;
    if (mask.kind != TL_K_NONE) {
        tl__err("`mask` and `other` arguments cannot be specified for loading block pointers");
        return;
    }
    const tl_type *blk = ty(ptr)->elem, *elt = blk->elem;
    if (!is_block(val)) {
        val = sem_broadcast_shape(val, blk->rank, blk->shape);
        if (tl__is_poison(val))
            return;
    }
    if (!tl_type_eq(tl__with_elem(ty(val), tl_int1), tl__with_elem(blk, tl_int1))) {
        char s1[64], s2[64];
        shape_str(blk, s1, sizeof s1);
        shape_str(ty(val), s2, sizeof s2);
        tl__err("Block shape(%s) and value shape(%s) mismatch", s1, s2);
        return;
    }
    if (!tl_type_eq(elt, sca(val))) {
        tl__err("Block element type(%s) and value element type(%s) mismatch", TN(elt, b1),
                TN(sca(val), b2));
        return;
    }
    int64_t dims[CT_MAX_RANK];
    int nd;
    if (!boundary_dims(boundary, blk->rank, dims, &nd))
        return;
    ct_value *ops[2] = {ptr.handle, val.handle};
    ct_op *op = b_op(CT_OP_TT_STORE, 2, ops, 0, NULL);
    if (nd)
        b_attr(op, "boundaryCheck", ct_attr_dense_array(B->m, ct_type_int(B->m, 32), nd, dims));
    if (cw)
        b_enum(op, "cache", cw);
    if (ew)
        b_enum(op, "evict", ew);
}

/* ------------------------------------------------------------------ */
/* Tensor descriptors (device-side: make_tensor_descriptor, desc.load/store) */
/* ------------------------------------------------------------------ */

/* make_scalar(value, dtype): a constant, or a size-1 tensor cast to dtype */
static tl_tensor desc_scalar(tl_tensor v, const tl_type *dt)
{
    char b1[96];
    if (v.kind == TL_K_TENSOR) {
        if (tl__is_block(ty(v)) && tl_numel(v) != 1)
            return tl__err("only accepts size-1 tensor, got %s", TN(ty(v), b1));
        return sem_cast(v, dt, NULL);
    }
    if (v.kind != TL_K_INT && v.kind != TL_K_BOOL)
        return tl__err("tensor descriptor shapes and strides are integers, got %s", vty(v, b1, sizeof b1));
    return sem_scalar_constant(v, dt);
}

tl_tensor sem_make_tensor_descriptor(tl_tensor base, tl_tuple_t shape, tl_tuple_t strides,
                                     tl_shape_t block_shape, const char *padding_option)
{
    char b1[96];
    int nd = shape.n;
    for (int i = 0; i < shape.n; i++)
        if (tl__is_poison(shape.v[i]))
            return tl__poison();
    for (int i = 0; i < strides.n; i++)
        if (tl__is_poison(strides.v[i]))
            return tl__poison();
    if (nd < 1 || nd > 5)
        return tl__err("Expected 1 <= ndim <= 5 but got %d dimensions", nd);
    if (strides.n != nd)
        return tl__err("Expected %d strides but got %d", nd, strides.n);
    if (block_shape.rank != nd)
        return tl__err("Expected block_shape to have %d dimensions but got %d", nd, block_shape.rank);
    if (base.kind != TL_K_TENSOR || !tl__is_ptr(ty(base)) || tl__is_block(ty(base)->elem))
        return tl__err("make_tensor_descriptor expects a pointer as its base, got %s",
                       vty(base, b1, sizeof b1));
    const tl_type *elt = ty(base)->elem;
    int elem_size = tl__prim_bits(elt) / 8;
    int64_t contig = block_shape.d[nd - 1];
    if (contig * elem_size < 16)
        return tl__err("Descriptor block shape must have at least 16 bytes in the last dimension, "
                       "but got %lld * %d = %lld bytes", (long long)contig, elem_size,
                       (long long)(contig * elem_size));
    tl_tensor last = strides.v[nd - 1];
    if (last.kind != TL_K_INT || last.i != 1) {
        if (last.kind == TL_K_INT)
            return tl__err("Tensor descriptor last dim must be 1 but got %lld", (long long)last.i);
        return tl__err("Tensor descriptor last dim must be the constant 1 (a runtime stride cannot "
                       "be checked; Python fails on it too)");
    }
    int pad = 1;
    if (padding_option && *padding_option) {
        if (!strcmp(padding_option, "nan"))
            pad = 2;
        else if (strcmp(padding_option, "zero"))
            return tl__err("Padding option %s not supported", padding_option);
    }
    ct_value *ops[1 + 2 * 5];
    for (int i = 0; i < nd; i++) {
        tl_tensor v = desc_scalar(shape.v[i], tl_int32);
        if (tl__is_poison(v))
            return v;
        ops[1 + i] = v.handle;
    }
    for (int i = 0; i < nd; i++) {
        tl_tensor v = desc_scalar(strides.v[i], tl_int64);
        if (tl__is_poison(v))
            return v;
        ops[1 + nd + i] = v.handle;
    }
    if (tl__is_int(elt) && pad == 2)
        return tl__err("Padding option `nan` is not supported for integer blocks");
    const tl_type *blk = tl__block_type(elt, nd, block_shape.d);
    const tl_type *dt = tl__desc_type(blk);
    ops[0] = base.handle;
    ct_op *op = b_op(CT_OP_TT_MAKE_TENSOR_DESC, 1 + 2 * nd, ops, 1, (const ct_type *[]){tl__ir_type(dt)});
    if (pad != 1)
        b_attr(op, "padding", ct_attr_int(B->m, ct_type_int(B->m, 32), pad));
    return tl__tensor(&op->res[0], dt);
}

static bool desc_offsets(tl_tensor desc, tl_tuple_t offsets, ct_value **out)
{
    int nd = ty(desc)->elem->rank;
    for (int i = 0; i < offsets.n; i++)
        if (tl__is_poison(offsets.v[i]))
            return false;
    if (offsets.n != nd) {
        tl__err("expected %d offsets, but got %d", nd, offsets.n);
        return false;
    }
    for (int i = 0; i < nd; i++)
        if (!(out[i] = bp_value(offsets.v[i], false, "offsets")))
            return false;
    return true;
}

static bool is_desc(tl_tensor d, const char *what)
{
    char b1[96];
    if (d.kind == TL_K_TENSOR && tl__is_desc(ty(d)))
        return true;
    tl__err("%s expects a tensor descriptor (make_tensor_descriptor), got %s", what,
            vty(d, b1, sizeof b1));
    return false;
}

tl_tensor sem_descriptor_load(tl_tensor desc, tl_tuple_t offsets)
{
    if (!is_desc(desc, "descriptor load"))
        return tl__poison();
    ct_value *ops[1 + 5];
    if (!desc_offsets(desc, offsets, ops + 1))
        return tl__poison();
    ops[0] = desc.handle;
    const tl_type *blk = ty(desc)->elem;
    ct_op *op = b_op(CT_OP_TT_DESCRIPTOR_LOAD, 1 + blk->rank, ops, 1, (const ct_type *[]){tl__ir_type(blk)});
    return tl__tensor(&op->res[0], blk);
}

/* semantic.validate_store_like: one offset per dimension, a value of the block's shape */
static bool validate_store_like(const tl_type *blk, tl_tuple_t offsets, tl_tensor value,
                                const char *what)
{
    if (offsets.n != blk->rank) {
        tl__err("expected %d offsets, but got %d", blk->rank, offsets.n);
        return false;
    }
    if (!is_block(value) || !tl_type_eq(tl__with_elem(ty(value), tl_int1), tl__with_elem(blk, tl_int1))) {
        char s1[64], s2[64];
        shape_str(blk, s1, sizeof s1);
        if (is_block(value))
            shape_str(ty(value), s2, sizeof s2);
        else
            snprintf(s2, sizeof s2, "a scalar");
        tl__err("%s needs a value of the block's shape %s, got %s", what, s1, s2);
        return false;
    }
    return true;
}

void sem_descriptor_store(tl_tensor desc, tl_tuple_t offsets, tl_tensor value)
{
    char b1[96], b2[96];
    if (!is_desc(desc, "descriptor store"))
        return;
    const tl_type *blk = ty(desc)->elem, *elt = blk->elem;
    int nd = blk->rank;
    if (!validate_store_like(blk, offsets, value, "a descriptor store"))
        return;
    if (!B->opts.implicit_store_casts && !store_conversion_ok(sca(value), elt)) {
        tl__err("storing %s values through a descriptor of %s converts them implicitly; write "
                "tl_to(value, ...) to make the conversion explicit (Python converts silently)",
                TN(sca(value), b1), TN(elt, b2));
        return;
    }
    value = sem_cast(value, elt, NULL);
    if (tl__is_poison(value))
        return;
    ct_value *ops[1 + 5 + 1];
    if (!desc_offsets(desc, offsets, ops + 1))
        return;
    ops[0] = desc.handle;
    ops[1 + nd] = value.handle;
    b_op(CT_OP_TT_DESCRIPTOR_STORE, 2 + nd, ops, 0, NULL);
}

/* semantic.descriptor_atomic_add/min/max/and/or/xor: validate_store_like, the kind's dtypes
 * (16-bit float min/max need native TMA: sm_90, which is the target), no conversion of the
 * value (the op needs the descriptor's element type: Python's would fail in the verifier) */
void sem_descriptor_reduce(tl_tensor desc, tl_tuple_t offsets, tl_tensor value, const char *kind)
{
    char b1[96], b2[96], what[48];
    snprintf(what, sizeof what, "descriptor atomic_%s", kind);
    if (!is_desc(desc, what))
        return;
    const tl_type *blk = ty(desc)->elem, *elt = blk->elem;
    int nd = blk->rank;
    if (!validate_store_like(blk, offsets, value, what))
        return;
    const tl_type *add_ok[] = {tl_uint32, tl_int32, tl_uint64, tl_float32, tl_float16, tl_bfloat16};
    const tl_type *mm_ok[] = {tl_uint32, tl_int32, tl_uint64, tl_int64, tl_float16, tl_bfloat16};
    const tl_type *bit_ok[] = {tl_uint32, tl_int32, tl_uint64, tl_int64};
    const tl_type *const *ok = bit_ok;
    int nok = 4;
    if (!strcmp(kind, "add")) {
        ok = add_ok;
        nok = 6;
    } else if (!strcmp(kind, "min") || !strcmp(kind, "max")) {
        ok = mm_ok;
        nok = 6;
    }
    bool good = false;
    for (int i = 0; i < nok; i++)
        good |= tl_type_eq(elt, ok[i]);
    if (!good) {
        tl__err("%s: unsupported dtype %s", what, TN(elt, b1));
        return;
    }
    if (!tl_type_eq(sca(value), elt)) {
        tl__err("%s: the value is %s, the descriptor holds %s (write tl_to(value, ...))", what,
                TN(sca(value), b1), TN(elt, b2));
        return;
    }
    ct_value *ops[1 + 5 + 1];
    if (!desc_offsets(desc, offsets, ops + 1))
        return;
    ops[0] = desc.handle;
    ops[1 + nd] = value.handle;
    ct_op *op = b_op(CT_OP_TT_DESCRIPTOR_REDUCE, 2 + nd, ops, 0, NULL);
    b_enum(op, "kind", kind);
}

/* ------------------------------------------------------------------ */
/* core.inline_asm_elementwise                                         */
/* ------------------------------------------------------------------ */

int sem_inline_asm(const char *asm_, const char *constraints, tl_tuple_t args, int ndt,
                   const tl_type *const *dts, bool is_pure, int pack, tl_tensor *out)
{
    tl_tensor d[8] = {{0}};
    int n = args.n > 8 ? 8 : args.n;
    if (ndt < 1 || ndt > 8) {
        tl__err("inline_asm_elementwise takes 1 to 8 result dtypes, got %d", ndt);
        return -1;
    }
    for (int i = 0; i < ndt; i++)
        if (!dts[i] || dts[i]->kind != TL_TY_SCALAR) {
            tl__err("inline_asm_elementwise: result %d needs a scalar dtype", i);
            return -1;
        }
    for (int i = 0; i < n; i++) {
        d[i] = sem_to_tensor(args.v[i]);
        if (tl__is_poison(d[i]))
            return -1;
    }
    const tl_type *res[8];
    for (int i = 0; i < ndt; i++)
        res[i] = dts[i];
    if (n && TV->inline_asm_broadcast_tensors) {
        /* 3.9: semantic.broadcast_tensors over the arguments, the results shaped
         * like the first */
        tl_tensor *pv[8];
        for (int i = 0; i < n; i++)
            pv[i] = &d[i];
        if (!broadcast_tensors(n, pv))
            return -1;
        if (is_block(d[0]))
            for (int i = 0; i < ndt; i++)
                res[i] = tl__with_elem(ty(d[0]), dts[i]);
    } else if (n) {
        /* the broadcast shape over all the arguments */
        tl_tensor bc = d[0];
        for (int i = 0; i < n; i++) {
            tl_tensor item = d[i];
            if (!sem_binary_checking(&item, &bc, true, true, false, false))
                return -1;
        }
        if (is_block(bc)) {
            for (int i = 0; i < n; i++) {
                tl_tensor other = bc;
                if (!sem_binary_checking(&d[i], &other, true, true, false, false))
                    return -1;
            }
            for (int i = 0; i < ndt; i++)
                res[i] = tl__with_elem(ty(bc), dts[i]);
        }
    }
    ct_value *h[8];
    const ct_type *rt[8];
    for (int i = 0; i < n; i++)
        h[i] = d[i].handle;
    for (int i = 0; i < ndt; i++)
        rt[i] = tl__ir_type(res[i]);
    ct_op *op = b_op(CT_OP_TT_INLINE_ASM, n, h, ndt, rt);
    b_attr(op, "asm_string", ct_attr_str(B->m, asm_ ? asm_ : ""));
    b_attr(op, "constraints", ct_attr_str(B->m, constraints ? constraints : ""));
    b_attr(op, "packed_element", ct_attr_int(B->m, ct_type_int(B->m, 32), pack));
    b_attr(op, "pure", ct_attr_bool(B->m, is_pure));
    for (int i = 0; i < ndt; i++)
        out[i] = tl__tensor(&op->res[i], res[i]);
    return ndt;
}
