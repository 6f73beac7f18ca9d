/*
 * standard.c - triton/language/standard.py: the @jit library functions
 * (max, min, sum, argmax, cumsum, zeros, sigmoid, cdiv, ravel, ...).
 *
 * Python emits each of them as a private tt.func reached by tt.call, with
 * their combine functions (_elementwise_max, _sum_combine, ...) as jit
 * functions called from inside the reduce region; so do we, through
 * tl__jit, with the same full names and argument lists (defaults included,
 * since they appear in the mangled names).  The bodies below follow the
 * Python bodies line by line.  Nested calls are written so that each call
 * has at most one argument that emits ops: C does not order the evaluation
 * of arguments, Python does (left to right).
 */
#include "lang.h"

#include <stdio.h>
#include <string.h>

#define STD "triton.language.standard."
#define CUR (B->loc_src)

static tl_tensor F(bool v)
{
    return tl__from_bool(v);
}

static tl_tensor I(long long v)
{
    return tl__from_i64(v);
}

/* ---- reductions: core.reduce / core.associative_scan ---------------- */

/* semantic.reduction / associative_scan with the combine region built by a
 * call to the combine jit function. */
int sem_reduction(int n, const tl_tensor *inputs, int axis, bool axis_none, bool scan,
                  bool reverse, tl_combine_fn combine, void *ud, tl_tensor *outs)
{
    tl_tensor in[8];
    for (int i = 0; i < n; i++) {
        in[i] = inputs[i];
        if (tl__is_poison(in[i]) || in[i].kind != TL_K_TENSOR) {
            if (!tl__is_poison(in[i]))
                tl__err("reductions need a tensor");
            return -1;
        }
    }
    if (axis_none && !scan) {
        for (int i = 0; i < n; i++) {
            int64_t numel = tl_numel(in[i]);
            in[i] = sem_reshape(in[i], 1, &numel, true);
        }
        axis = 0;
    }
    int rank = tl_rank(in[0]);
    if (scan) {
        if (axis < -rank || axis >= rank) {
            tl__err("scan axis %d must be < inputs rank (%d)", axis, rank);
            return -1;
        }
        if (axis < 0)
            axis += rank;
    } else if (axis >= rank) {
        tl__err("reduction axis must be < inputs rank (%d)", rank);
        return -1;
    }
    for (int i = 1; i < n; i++)
        if (!tl_type_eq(tl__with_elem(in[i].type, tl_int1), tl__with_elem(in[0].type, tl_int1))) {
            tl__err("all reduction inputs must have the same shape");
            return -1;
        }
    int64_t ret_shape[CT_MAX_RANK];
    int rr = 0;
    for (int i = 0; i < rank; i++)
        if (scan || i != axis)
            ret_shape[rr++] = in[0].type->shape[i];
    const tl_type *rts[8];
    const ct_type *irts[8];
    ct_value *ops[8];
    for (int i = 0; i < n; i++) {
        const tl_type *s = tl__scalar(in[i].type);
        rts[i] = rr ? tl__block_type(s, rr, ret_shape) : s;
        irts[i] = tl__ir_type(rts[i]);
        ops[i] = in[i].handle;
    }
    ct_op *op = b_op(scan ? CT_OP_TT_SCAN : CT_OP_TT_REDUCE, n, ops, n, irts);
    op->regions = ct_arena_alloc(B->m->arena, sizeof(ct_region));
    op->nregions = 1;
    op->regions[0].parent = op;
    b_attr(op, "axis", ct_attr_int(B->m, ct_type_int(B->m, 32), axis));
    if (scan)
        b_attr(op, "reverse", ct_attr_bool(B->m, reverse));
    /* the combine region: block(args: scalars of the inputs, twice) */
    ct_block *sblock = B->block;
    ct_op *sbefore = B->before;
    ct_block *blk = b_new_block_in(&op->regions[0]);
    tl_tensor params[16];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < n; i++) {
            const tl_type *s = tl__scalar(in[i].type);
            ct_value *a = ct_block_add_arg(B->m, blk, tl__ir_type(s), ct_loc_unknown(B->m));
            params[k * n + i] = tl__tensor(a, s);
        }
    b_set_ip(blk, NULL);
    tl_tensor res[8] = {{0}};
    combine(params, res, ud);
    ct_value *rh[8];
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (tl__is_poison(res[i]) || res[i].kind != TL_K_TENSOR) {
            ok = false;
            break;
        }
        rh[i] = res[i].handle;
    }
    if (ok)
        b_op(scan ? CT_OP_TT_SCAN_RETURN : CT_OP_TT_REDUCE_RETURN, n, rh, 0, NULL);
    b_set_ip(sblock, sbefore);
    if (!ok)
        return -1;
    for (int i = 0; i < n; i++)
        outs[i] = tl__tensor(&op->res[i], rts[i]);
    return n;
}

/* core.reduce(input, axis, combine_fn, keep_dims) */
tl_tensor core_reduce(int n, const tl_tensor *inputs, int axis, bool axis_none, bool keep_dims,
                      tl_combine_fn combine, void *ud, tl_tensor *outs)
{
    int rank = tl_rank(inputs[0]);
    if (!axis_none) {
        if (!(-rank <= axis && axis < rank)) {
            tl__err("invalid axis %d. Expected %d <= axis < %d", axis, -rank, rank);
            return tl__poison();
        }
        if (axis < 0)
            axis += rank;
    }
    if (sem_reduction(n, inputs, axis, axis_none, false, false, combine, ud, outs) < 0)
        return tl__poison();
    if (keep_dims) {
        for (int i = 0; i < n; i++) {
            if (!axis_none) {
                int a = axis;
                outs[i] = core_expand_dims(outs[i], 1, &a);
            } else {
                for (int d = 0; d < rank; d++) {
                    int z = 0;
                    outs[i] = core_expand_dims(outs[i], 1, &z);
                }
            }
        }
    }
    return outs[0];
}

/* ---- combine functions ------------------------------------------------ */

static const char *const ab_names[] = {"a", "b"};

/* @jit def _elementwise_max(a, b): return core.maximum(a, b) */
static void elementwise_max_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    r[0] = tl__maximum(a[0], a[1], TL__OPTS(tl_minmax_opts, TL__POS), CUR);
}

static void elementwise_min_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    r[0] = tl__minimum(a[0], a[1], TL__OPTS(tl_minmax_opts, TL__POS), CUR);
}

/* @jit def _sum_combine(a, b): return a + b */
static void sum_combine_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    r[0] = tl__binop(TL_ADD, a[0], a[1], CUR);
}

static void prod_combine_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    r[0] = tl__binop(TL_MUL, a[0], a[1], CUR);
}

static void xor_combine_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    r[0] = tl__binop(TL_XOR, a[0], a[1], CUR);
}

static void or_combine_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    r[0] = tl__binop(TL_OR, a[0], a[1], CUR);
}

/* @jit def _argmax_combine(value1, index1, value2, index2, tie_break_left) */
static void arg_combine_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    bool is_max = ud != NULL;
    tl_tensor v1 = a[0], i1 = a[1], v2 = a[2], i2 = a[3];
    bool tie_break_left = a[4].i != 0;
    tl_tensor tie;
    if (tie_break_left) {
        /* value1 == value2 and index1 < index2, left to right */
        tl_tensor eq = tl__binop(TL_EQ, v1, v2, CUR);
        tl_tensor lt = tl__binop(TL_LT, i1, i2, CUR);
        tie = tl__binop(TL_LOGICAL_AND, eq, lt, CUR);
    } else {
        tie = tl__to_tensor(F(false), CUR); /* `tie = False` assigns a tensor */
    }
    tl_tensor gt = tl__binop(TL_LOGICAL_OR, tl__binop(is_max ? TL_GT : TL_LT, v1, v2, CUR), tie, CUR);
    r[0] = tl__where(gt, v1, v2, CUR);
    r[1] = tl__where(gt, i1, i2, CUR);
}

static const char *const arg5_names[] = {"value1", "index1", "value2", "index2", "tie_break_left"};
static const char *const arg4_names[] = {"value1", "index1", "value2", "index2"};

/* @jit def _argmax_combine_tie_break_left(v1, i1, v2, i2): return _argmax_combine(..., True) */
static void arg_tie_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    bool is_max = ((intptr_t)ud & 1) != 0, left = ((intptr_t)ud & 2) != 0;
    tl_tensor args[5] = {a[0], a[1], a[2], a[3], F(left)};
    tl__jit(is_max ? STD "_argmax_combine" : STD "_argmin_combine", 5, arg5_names, args, 0, NULL,
             arg_combine_body, is_max ? (void *)1 : NULL, r);
}

typedef struct simple_combine {
    const char *name;
    tl__jit_body body;
} simple_combine;

static void simple_combine_fn(const tl_tensor *lr, tl_tensor *out, void *ud)
{
    const simple_combine *c = ud;
    tl__jit(c->name, 2, ab_names, lr, 0, NULL, c->body, NULL, out);
}

static void arg_combine_fn(const tl_tensor *lr, tl_tensor *out, void *ud)
{
    intptr_t mode = (intptr_t)ud;
    bool is_max = mode & 1, left = mode & 2;
    const char *name = is_max ? (left ? STD "_argmax_combine_tie_break_left"
                                      : STD "_argmax_combine_tie_break_fast")
                              : (left ? STD "_argmin_combine_tie_break_left"
                                      : STD "_argmin_combine_tie_break_fast");
    tl__jit(name, 4, arg4_names, lr, 0, NULL, arg_tie_body, (void *)mode, out);
}

/* ---- the reductions ---------------------------------------------------- */

typedef struct red_args {
    tl_reduce_kind kind;
    tl_reduce_opts o;
} red_args;

/* core._reduce_with_indices(input, axis, combine_fn, keep_dims) */
static void reduce_with_indices(tl_tensor input, int axis, bool keep_dims, intptr_t mode,
                                tl_tensor *out)
{
    int rank = tl_rank(input);
    if (axis < -rank || axis >= rank) {
        out[0] = out[1] = tl__err("invalid axis %d for a tensor of rank %d", axis, rank);
        return;
    }
    int n = (int)tl_dim(input, axis);
    tl_tensor index = sem_arange(0, n);
    if (rank > 1) {
        int axes[CT_MAX_RANK], na = 0;
        for (int d = 0; d < rank; d++)
            if (d != (axis < 0 ? axis + rank : axis))
                axes[na++] = d;
        index = core_expand_dims(index, na, axes);
        index = sem_broadcast_shape(index, rank, input.type->shape);
    }
    tl_tensor ins[2] = {input, index};
    core_reduce(2, ins, axis, false, keep_dims, arg_combine_fn, (void *)mode, out);
}

static const char *const max_names[] = {"input", "axis", "return_indices",
                                        "return_indices_tie_break_left", "keep_dims"};

/* @jit def max(input, axis=None, return_indices=False, return_indices_tie_break_left=True,
 *              keep_dims=False)   (and min) */
static void max_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    bool is_max = ud != NULL;
    /* 3.9: no _promote_bfloat16_to_float32 (the < 32-bit cast below still applies) */
    tl_tensor input = TV->reduce_keeps_bf16 ? a[0] : core_promote_bf16(a[0]);
    bool axis_none = a[1].kind == TL_K_NONE;
    int axis = (int)a[1].i;
    bool return_indices = a[2].i != 0, left = a[3].i != 0, keep_dims = a[4].i != 0;
    if (return_indices) {
        if (axis_none) {
            r[0] = tl__err("return_indices needs an axis");
            return;
        }
        reduce_with_indices(input, axis, keep_dims, (is_max ? 1 : 0) | (left ? 2 : 0), r);
        return;
    }
    const tl_type *d = tl__scalar(input.type);
    if (tl__prim_bits(d) < 32) {
        if (tl__is_floating(d))
            input = sem_cast(input, tl_float32, NULL);
        else if (tl__is_int(d))
            input = sem_cast(input, tl_int32, NULL);
        else {
            r[0] = tl__err("Expecting input to be integer type");
            return;
        }
    }
    simple_combine c = {is_max ? STD "_elementwise_max" : STD "_elementwise_min",
                        is_max ? elementwise_max_body : elementwise_min_body};
    r[0] = core_reduce(1, &input, axis, axis_none, keep_dims, simple_combine_fn, &c, r);
}

/* _pick_sum_dtype(in_dtype, dtype) */
static const tl_type *pick_sum_dtype(const tl_type *in, const tl_type *dtype)
{
    if (dtype)
        return dtype;
    if (tl__is_signed(in) && tl__int_bits(in) < 32)
        return tl_int32;
    if (tl__is_unsigned(in) && tl__int_bits(in) < 32)
        return tl_uint32;
    return NULL;
}

typedef struct sum_ud {
    const tl_type *dtype;
    bool scan, prod;
} sum_ud;

static const char *const sum_names[] = {"input", "axis", "keep_dims", "dtype"};
static const char *const cumsum_names[] = {"input", "axis", "reverse", "dtype"};
static const char *const cumprod_names[] = {"input", "axis", "reverse", "dtype"};

/* @jit def sum(input, axis=None, keep_dims=False, dtype=None) */
static void sum_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    const sum_ud *u = ud;
    tl_tensor input = a[0];
    const tl_type *out = pick_sum_dtype(tl__scalar(input.type), u->dtype);
    if (out)
        input = sem_cast(input, out, NULL);
    simple_combine c = {STD "_sum_combine", sum_combine_body};
    r[0] = core_reduce(1, &input, (int)a[1].i, a[1].kind == TL_K_NONE, a[2].i != 0,
                       simple_combine_fn, &c, r);
}

/* @jit def cumsum(input, axis=0, reverse=False, dtype=None), cumprod(input, axis=0, reverse=False) */
static void scan_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    const sum_ud *u = ud;
    tl_tensor input = TV->reduce_keeps_bf16 ? a[0] : core_promote_bf16(a[0]);
    /* cumsum picks the sum dtype; cumprod too from 3.9 (its dtype parameter) */
    if (!u->prod || TV->cumprod_dtype) {
        const tl_type *out = pick_sum_dtype(tl__scalar(input.type), u->dtype);
        if (out)
            input = sem_cast(input, out, NULL);
    }
    simple_combine c = {u->prod ? STD "_prod_combine" : STD "_sum_combine",
                        u->prod ? prod_combine_body : sum_combine_body};
    int rank = tl_rank(input);
    int axis = (int)a[1].i;
    if (!(-rank <= axis && axis < rank)) {
        r[0] = tl__err("invalid axis %d. Expected %d <= axis < %d", axis, -rank, rank);
        return;
    }
    if (axis < 0)
        axis += rank;
    if (sem_reduction(1, &input, axis, false, true, a[2].i != 0, simple_combine_fn, &c, r) < 0)
        r[0] = tl__poison();
}

static const char *const xs_names[] = {"input", "axis", "keep_dims"};

/* @jit def xor_sum(input, axis=None, keep_dims=False), reduce_or(input, axis, keep_dims=False) */
static void bitred_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    bool is_or = ud != NULL;
    tl_tensor input = a[0];
    if (!tl__is_int(tl__scalar(input.type))) {
        r[0] = tl__err("%s only supported for integers", is_or ? "reduce_or" : "xor_sum");
        return;
    }
    simple_combine c = {is_or ? STD "_or_combine" : STD "_xor_combine",
                        is_or ? or_combine_body : xor_combine_body};
    r[0] = core_reduce(1, &input, (int)a[1].i, a[1].kind == TL_K_NONE, a[2].i != 0,
                       simple_combine_fn, &c, r);
}

static const char *const argmax_names[] = {"input", "axis", "tie_break_left", "keep_dims"};

/* @jit def argmax(input, axis, tie_break_left=True, keep_dims=False) */
static void argmax_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    bool is_max = ud != NULL;
    tl_tensor args[5] = {a[0], a[1], F(true), a[2], a[3]};
    tl_tensor out[2];
    int n = tl__jit(is_max ? STD "max" : STD "min", 5, max_names, args, 0, NULL, max_body,
                    is_max ? (void *)1 : NULL, out);
    r[0] = n == 2 ? out[1] : tl__poison();
}

static tl_tensor axis_arg(tl_reduce_opts o)
{
    return o.axis == TL_AXIS_NONE ? TL_NONE : I(o.axis);
}

tl_tensor tl__reduce_std(tl_reduce_kind k, tl_tensor x, tl_reduce_opts o, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (!tl__named(o.tl__unnamed, "reduction", at))
        return tl__poison();
    if (tl__is_poison(x))
        return x;
    if (x.kind != TL_K_TENSOR)
        return tl__err("reductions need a tensor, got a constexpr");
    tl_tensor out[2] = {{0}};
    int n = -1;
    switch (k) {
    case TL_RED_MAX:
    case TL_RED_MIN: {
        tl_tensor args[5] = {x, axis_arg(o), F(false), F(o.tie_break_left), F(o.keep_dims)};
        n = tl__jit(k == TL_RED_MAX ? STD "max" : STD "min", 5, max_names, args, 0, NULL,
                    max_body, k == TL_RED_MAX ? (void *)1 : NULL, out);
        break;
    }
    case TL_RED_ARGMAX:
    case TL_RED_ARGMIN: {
        if (o.axis == TL_AXIS_NONE)
            return tl__err("argmax/argmin need an axis");
        tl_tensor args[4] = {x, I(o.axis), F(o.tie_break_left), F(o.keep_dims)};
        n = tl__jit(k == TL_RED_ARGMAX ? STD "argmax" : STD "argmin", 4, argmax_names, args, 0,
                    NULL, argmax_body, k == TL_RED_ARGMAX ? (void *)1 : NULL, out);
        break;
    }
    case TL_RED_SUM: {
        tl_tensor args[4] = {x, axis_arg(o), F(o.keep_dims),
                             o.dtype ? tl__from_dtype(o.dtype) : TL_NONE};
        sum_ud u = {o.dtype, false, false};
        n = tl__jit(STD "sum", 4, sum_names, args, 0, NULL, sum_body, &u, out);
        break;
    }
    case TL_RED_XOR_SUM:
    case TL_RED_OR: {
        tl_tensor args[3] = {x, axis_arg(o), F(o.keep_dims)};
        n = tl__jit(k == TL_RED_OR ? STD "reduce_or" : STD "xor_sum", 3, xs_names, args, 0, NULL,
                     bitred_body, k == TL_RED_OR ? (void *)1 : NULL, out);
        break;
    }
    case TL_SCAN_CUMSUM: {
        tl_tensor args[4] = {x, I(o.axis), F(o.reverse), o.dtype ? tl__from_dtype(o.dtype) : TL_NONE};
        sum_ud u = {o.dtype, true, false};
        n = tl__jit(STD "cumsum", 4, cumsum_names, args, 0, NULL, scan_body, &u, out);
        break;
    }
    case TL_SCAN_CUMPROD: {
        tl_tensor args[4] = {x, I(o.axis), F(o.reverse), TL_NONE};
        sum_ud u = {NULL, true, true};
        /* 3.9 adds the dtype parameter (None) */
        n = tl__jit(STD "cumprod", TV->cumprod_dtype ? 4 : 3, cumprod_names, args, 0, NULL,
                    scan_body, &u, out);
        break;
    }
    }
    return n >= 1 ? out[0] : tl__poison();
}

/* ---- core.reduce / core.associative_scan with a user combine function ------------------- */

typedef struct user_combine {
    tl_combine_def def;
    int n;
    bool scan;
    tl_src at;
} user_combine;

/* the combine region's body: _generator.call_JitFunction(combine_fn, args) */
static void user_combine_fn(const tl_tensor *lr, tl_tensor *out, void *ud)
{
    const user_combine *u = ud;
    tl_tensor args[16], r[8];
    for (int i = 0; i < 2 * u->n; i++)
        args[i] = lr[i];
    int got = tl__call_jit(u->def.name, u->def.file, 2 * u->n, u->def.argnames, args, 8, r,
                           u->def.body, NULL, u->at);
    for (int i = 0; i < u->n; i++)
        out[i] = tl__poison();
    if (got < 0)
        return;
    if (got != u->n) {
        tl__at(u->at);
        tl__err("%s: combine_fn `%s` returns %d value%s for %d input%s (one per input)",
                u->scan ? "associative_scan" : "reduce", u->def.name, got, got == 1 ? "" : "s",
                u->n, u->n == 1 ? "" : "s");
        return;
    }
    for (int i = 0; i < u->n; i++)
        out[i] = r[i];
}

static int reduce_user(int n, const tl_tensor *in, tl_combine_def def, tl_reduce_opts o, bool scan,
                       tl_src at, tl_tensor *out)
{
    const char *what = scan ? "tl_associative_scan" : "tl_reduce";
    for (int i = 0; i < n; i++)
        out[i] = tl__poison();
    if (!tl__active())
        return -1;
    tl__at(at);
    if (!tl__named(o.tl__unnamed, what, at))
        return -1;
    if (n < 1 || n > 8) {
        tl__err("%s takes 1 to 8 input tensors, got %d", what, n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (tl__is_poison(in[i]))
            return -1;
        if (in[i].kind != TL_K_TENSOR) {
            tl__err("%s: input %d is not a tensor", what, i);
            return -1;
        }
    }
    if (o.dtype) {
        tl__err("%s has no dtype= option", what);
        return -1;
    }
    if (scan ? o.keep_dims : o.reverse) {
        tl__err("%s has no %s= option", what, scan ? "keep_dims" : "reverse");
        return -1;
    }
    user_combine u = {def, n, scan, at};
    int rank = tl_rank(in[0]);
    if (scan) {
        if (o.axis == TL_AXIS_NONE) {
            tl__err("associative_scan needs an axis");
            return -1;
        }
        if (!(-rank <= o.axis && o.axis < rank)) {
            tl__err("invalid axis %d. Expected %d <= axis < %d", o.axis, -rank, rank);
            return -1;
        }
        int axis = o.axis < 0 ? o.axis + rank : o.axis;
        return sem_reduction(n, in, axis, false, true, o.reverse, user_combine_fn, &u, out) < 0 ? -1 : n;
    }
    tl_tensor r = core_reduce(n, in, o.axis, o.axis == TL_AXIS_NONE, o.keep_dims, user_combine_fn,
                              &u, out);
    return tl__is_poison(r) ? -1 : n;
}

tl_tensor tl__reduce_user(tl_tensor input, tl_combine_def fn, tl_reduce_opts o, bool scan, tl_src at)
{
    tl_tensor out[1];
    return reduce_user(1, &input, fn, o, scan, at, out) == 1 ? out[0] : tl__poison();
}

tl_tuple_t tl__reduce_user_tuple(tl_tuple_t input, tl_combine_def fn, tl_reduce_opts o, bool scan,
                                 tl_src at)
{
    tl_tuple_t r = {0};
    int n = reduce_user(input.n, input.v, fn, o, scan, at, r.v);
    r.n = n < 0 ? 0 : n;
    return r;
}

/* ---- core.map_elementwise ------------------------------------------------------------------ */

/* As core.map_elementwise: the region's block is built first (its arguments, the call of
 * scalar_fn, the return at the call's location), then semantic.map_elementwise broadcasts
 * the inputs, makes the op and moves the block into its region. */
static int map_elementwise(int n, const tl_tensor *in_args, tl_combine_def def, tl_map_opts o,
                           tl_src at, tl_tensor *out)
{
    for (int i = 0; i < 8; i++)
        out[i] = tl__poison();
    tl_tensor in[16];
    for (int i = 0; i < n && i < 16; i++)
        in[i] = in_args[i];
    if (!tl__active())
        return -1;
    tl__at(at);
    if (!tl__named(o.tl__unnamed, "tl_map_elementwise", at))
        return -1;
    if (o.pack < 1) {
        tl__err("map_elementwise: pack must be >= 1, got %d", o.pack);
        return -1;
    }
    if (n < 1 || n * o.pack > 16) {
        tl__err("map_elementwise takes 1 to 16 scalar arguments (inputs x pack), got %d x %d", n,
                o.pack);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (tl__is_poison(in[i]))
            return -1;
        if (in[i].kind != TL_K_TENSOR) {
            tl__err("map_elementwise: argument %d is not a tensor", i);
            return -1;
        }
    }
    const ct_loc *original_loc = B->loc;
    ct_block *sblock = B->block;
    ct_op *sbefore = B->before;
    ct_block *blk = b_new_block_in(NULL);
    tl_tensor params[16];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < o.pack; j++) {
            const tl_type *s = tl__scalar(in[i].type);
            ct_value *a = ct_block_add_arg(B->m, blk, tl__ir_type(s), original_loc);
            params[i * o.pack + j] = tl__tensor(a, s);
        }
    b_set_ip(blk, NULL);
    tl_tensor r[8];
    int got = tl__call_jit(def.name, def.file, n * o.pack, def.argnames, params, 8, r, def.body,
                           NULL, at);
    bool ok = got > 0;
    ct_value *rh[8];
    for (int i = 0; ok && i < got; i++) {
        if (tl__is_poison(r[i]) || r[i].kind != TL_K_TENSOR) {
            ok = false;
            break;
        }
        rh[i] = r[i].handle;
    }
    B->loc = original_loc;
    if (ok)
        b_op(CT_OP_TT_MAP_ELEMENTWISE_RETURN, got, rh, 0, NULL);
    b_set_ip(sblock, sbefore);
    if (!ok)
        return -1;
    /* the results' types: every pack-th returned value's */
    int nres = got / o.pack;
    if (got % o.pack) {
        tl__at(at);
        tl__err("map_elementwise: `%s` returns %d values, not a multiple of pack %d", def.name,
                got, o.pack);
        return -1;
    }
    for (int k = 0; k < nres; k++)
        for (int p = 1; p < o.pack; p++)
            if (!tl_type_eq(r[k * o.pack + p].type, r[k * o.pack].type)) {
                tl__at(at);
                tl__err("type mismatch in unpacked results");
                return -1;
            }
    /* semantic.map_elementwise: broadcast_tensors, then the op */
    tl__at(at);
    tl_tensor head = in[0];
    for (int i = 1; i < n; i++)
        if (!sem_broadcast_value(&head, &in[i]))
            return -1;
    for (int i = 1; i + 1 < n; i++)
        if (!sem_broadcast_value(&head, &in[i]))
            return -1;
    in[0] = head;
    const tl_type *rts[8];
    const ct_type *irts[8];
    ct_value *ops[16];
    for (int k = 0; k < nres; k++) {
        rts[k] = tl__with_elem(in[0].type, tl__scalar(r[k * o.pack].type));
        irts[k] = tl__ir_type(rts[k]);
    }
    for (int i = 0; i < n; i++)
        ops[i] = in[i].handle;
    ct_op *op = b_op(CT_OP_TT_MAP_ELEMENTWISE, n, ops, nres, irts);
    op->regions = ct_arena_alloc(B->m->arena, sizeof(ct_region));
    op->nregions = 1;
    op->regions[0].parent = op;
    op->regions[0].first = op->regions[0].last = NULL;
    ct_region_append(&op->regions[0], blk);
    b_attr(op, "pack", ct_attr_int(B->m, ct_type_int(B->m, 32), o.pack));
    for (int k = 0; k < nres; k++)
        out[k] = tl__tensor(&op->res[k], rts[k]);
    return nres;
}

tl_tensor tl__map_elementwise(int n, tl_combine_def fn, tl_map_opts o, tl_src at)
{
    const tl_tensor *a = tl__popn(n);
    tl_tensor out[8];
    /* a TL_JIT helper returns one value: one result (TL_JIT_TUPLE ones take the other path) */
    return map_elementwise(n, a, fn, o, at, out) == 1 ? out[0] : tl__poison();
}

tl_tuple_t tl__map_elementwise_tuple(int n, tl_combine_def fn, tl_map_opts o, tl_src at)
{
    const tl_tensor *a = tl__popn(n);
    tl_tuple_t t = {0};
    int k = map_elementwise(n, a, fn, o, at, t.v);
    t.n = k < 0 ? 0 : k;
    return t;
}

/* ---- sort, topk, bitonic_merge, flip: standard.py's bitonic network on a hypercube -------- */

/* _log2 and _is_power_of_two (constexpr functions) */
static int log2_floor(int64_t i)
{
    int l = 0;
    for (int64_t n = i; n > 1; n >>= 1)
        l++;
    return l;
}

static bool is_power_of_two(int64_t i)
{
    return (i & (i - 1)) == 0 && i != 0;
}

/* core.get_int_dtype(bitwidth, signed=True) */
static const tl_type *signed_int_dtype(int bits)
{
    switch (bits) {
    case 1:
        return tl_int1;
    case 8:
        return tl_int8;
    case 16:
        return tl_int16;
    case 32:
        return tl_int32;
    case 64:
        return tl_int64;
    }
    return NULL;
}

/* x.to(int type of x's width, bitcast=True) */
static tl_tensor as_int_bits(tl_tensor x)
{
    const tl_type *it = signed_int_dtype(tl__prim_bits(tl__scalar(x.type)));
    if (!it)
        return tl__err("no integer type of %d bits", tl__prim_bits(tl__scalar(x.type)));
    return sem_bitcast(x, it);
}

/* core.reshape(x, [2] * n (or [1] when n is 0)) */
static tl_tensor to_hypercube(tl_tensor x, int n)
{
    if (n > CT_MAX_RANK)
        return tl__err("a tensor of %lld elements would be reshaped to rank %d; ranks above %d "
                       "are not supported", (long long)tl_numel(x), n, CT_MAX_RANK);
    int64_t shape[CT_MAX_RANK];
    for (int d = 0; d < n; d++)
        shape[d] = 2;
    if (n == 0)
        shape[0] = 1;
    return sem_reshape(x, n ? n : 1, shape, false);
}

/* xor_sum(x, axis, True) */
static tl_tensor xor_sum_keep(tl_tensor x, int axis)
{
    tl_tensor args[3] = {x, I(axis), F(true)}, out[1];
    return tl__jit(STD "xor_sum", 3, xs_names, args, 0, NULL, bitred_body, NULL, out) == 1
               ? out[0]
               : tl__poison();
}

static const char *const indicator_names[] = {"n_dims", "j"};

/* @jit def _indicator(n_dims, j): arange(0, 2) reshaped to [1] * (n_dims - j - 1) + [2] + [1] * j */
static void indicator_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    int n_dims = (int)a[0].i, j = (int)a[1].i;
    tl_tensor ar = sem_arange(0, 2);
    int64_t shape[CT_MAX_RANK];
    int rank = 0;
    for (int d = 0; d < n_dims - j - 1 && rank < CT_MAX_RANK; d++)
        shape[rank++] = 1;
    shape[rank++] = 2;
    for (int d = 0; d < j && rank < CT_MAX_RANK; d++)
        shape[rank++] = 1;
    r[0] = sem_reshape(ar, rank, shape, false);
}

static tl_tensor indicator(int n_dims, int j)
{
    tl_tensor args[2] = {I(n_dims), I(j)}, out[1];
    return tl__jit(STD "_indicator", 2, indicator_names, args, 0, NULL, indicator_body, NULL,
                   out) == 1
               ? out[0]
               : tl__poison();
}

static const char *const cas_names[] = {"x", "flip", "i"};

/* @jit def _compare_and_swap(x, flip, i): compare-and-swap on the i-th innermost dimension */
static void cas_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0], flip = a[1];
    int i = (int)a[2].i;
    int n_dims = log2_floor(tl_numel(x));
    /* the partner along the dimension, by xor (optimised away later) */
    tl_tensor ix = as_int_bits(x);
    tl_tensor iy = tl__binop(TL_XOR, ix, xor_sum_keep(ix, n_dims - 1 - i), CUR);
    tl_tensor y = sem_bitcast(iy, tl__scalar(x.type));
    /* whether we are the right (rather than left) element along the axis */
    tl_tensor is_right = indicator(n_dims, i);
    /* conditional swap */
    tl_tensor gt = tl__binop(TL_GT, x, y, CUR);
    tl_tensor fx = tl__binop(TL_XOR, flip, is_right, CUR);
    if (TV->sort_flip_to_int1) /* 3.9: (flip ^ is_right).to(core.int1) */
        fx = sem_cast(fx, tl_int1, NULL);
    tl_tensor ne = tl__binop(TL_NE, gt, fx, CUR);
    r[0] = tl__where(ne, y, x, CUR);
}

static const char *const hyper_names[] = {"x", "stage", "order"};

/* @jit def _bitonic_merge_hypercube(x, stage, order): order 0 ascending, 1 descending, 2
 * alternating */
static void hyper_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0], order = a[2];
    int stage = (int)a[1].i;
    tl_tensor flip;
    if (order.kind == TL_K_INT && order.i == 2)
        flip = indicator(log2_floor(tl_numel(x)), stage);
    else
        flip = tl__to_tensor(order, CUR); /* `flip = order` assigns a tensor */
    for (int i = 0; i < stage; i++) {
        tl_tensor args[3] = {x, flip, I(stage - 1 - i)}, out[1];
        x = tl__jit(STD "_compare_and_swap", 3, cas_names, args, 0, NULL, cas_body, NULL, out) == 1
                ? out[0]
                : tl__poison();
    }
    r[0] = x;
}

static tl_tensor hypercube_merge(tl_tensor h, int stage, tl_tensor order)
{
    tl_tensor args[3] = {h, I(stage), order}, out[1];
    return tl__jit(STD "_bitonic_merge_hypercube", 3, hyper_names, args, 0, NULL, hyper_body,
                   NULL, out) == 1
               ? out[0]
               : tl__poison();
}

/* a constexpr's truth value, as Python's `if descending` */
static bool cx_true(tl_tensor c)
{
    return c.kind == TL_K_FLOAT ? c.f != 0 : c.i != 0;
}

/* the minor dimension a sort runs along: dim None or the last one */
static bool minor_dim(tl_tensor x, tl_tensor dim)
{
    int rank = tl_rank(x);
    int d = dim.kind == TL_K_NONE ? rank - 1 : (int)dim.i;
    if (d != rank - 1) {
        tl__err("static_assert failed: only minor dimension is currently supported");
        return false;
    }
    return true;
}

static const char *const sort_impl_names[] = {"x", "k", "dim", "descending"};

/* @jit def sort_impl(x, k=None, dim=None, descending=CONSTEXPR_0) */
static void sort_impl_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0], descending = a[3];
    r[0] = tl__poison();
    if (!minor_dim(x, a[2]))
        return;
    int rank = tl_rank(x);
    int log_n = log2_floor(tl_dim(x, rank - 1));
    int log_k = a[1].kind == TL_K_NONE ? log_n : log2_floor(a[1].i);
    int n_dims = log2_floor(tl_numel(x));
    tl_tensor h = to_hypercube(x, n_dims);
    /* the first log_k bitonic sort iterations */
    for (int i = 1; i <= log_k; i++)
        h = hypercube_merge(h, i, i < log_n ? I(2) : descending);
    /* the top k elements by bitonic top-k */
    for (int i = log_k + 1; i <= log_n; i++) {
        bool is_max = cx_true(descending);
        tl_tensor args[5] = {h, I(log2_floor(tl_numel(h)) - 1 - log_k), F(false), F(true), F(false)},
                  out[2];
        h = tl__jit(is_max ? STD "max" : STD "min", 5, max_names, args, 0, NULL, max_body,
                    is_max ? (void *)1 : NULL, out) == 1
                ? out[0]
                : tl__poison();
        h = hypercube_merge(h, log_k, i < log_n ? I(2) : descending);
    }
    if (tl__is_poison(h))
        return;
    int64_t shape[CT_MAX_RANK];
    for (int d = 0; d < rank - 1; d++)
        shape[d] = tl_dim(x, d);
    shape[rank - 1] = (int64_t)1 << log_k;
    r[0] = sem_reshape(h, rank, shape, false);
}

/* sort_impl(x, k=k, dim=dim, descending=descending): dim, passed on, is an explicit None */
static int call_sort_impl(tl_tensor x, tl_tensor k, tl_tensor dim, tl_tensor descending, tl_tensor *r)
{
    tl_tensor args[4] = {x, k, dim, descending};
    tl_jit_cx none = {.pos = 2, .explicit_none = true};
    return tl__jit(STD "sort_impl", 4, sort_impl_names, args, dim.kind == TL_K_NONE ? 1 : 0, &none,
                   sort_impl_body, NULL, r);
}

/* @jit def sort(x, dim=None, descending=CONSTEXPR_0) */
static void sort_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    if (call_sort_impl(a[0], TL_NONE, a[1], a[2], r) != 1)
        r[0] = tl__poison();
}

/* @jit def topk(x, k, dim=None) */
static void topk_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    /* descending=True before 3.8; its parameter from 3.8 */
    if (call_sort_impl(a[0], a[1], a[2], TV->topk_descending ? a[3] : F(true), r) != 1)
        r[0] = tl__poison();
}

static const char *const merge_names[] = {"x", "stage", "order", "n_dims"};

/* @jit def _bitonic_merge(x, stage, order, n_dims) */
static void merge_inner_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0];
    tl_tensor h = to_hypercube(x, log2_floor(tl_numel(x)));
    h = hypercube_merge(h, (int)a[1].i, a[2]);
    r[0] = tl__is_poison(h) ? h : sem_reshape(h, tl_rank(x), x.type->shape, false);
}

/* @jit def bitonic_merge(x, dim=None, descending=CONSTEXPR_0) */
static void bitonic_merge_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0];
    r[0] = tl__poison();
    if (!minor_dim(x, a[1]))
        return;
    int n_dims = log2_floor(tl_dim(x, tl_rank(x) - 1));
    tl_tensor args[4] = {x, I(n_dims), a[2], I(n_dims)};
    if (tl__jit(STD "_bitonic_merge", 4, merge_names, args, 0, NULL, merge_inner_body, NULL, r) != 1)
        r[0] = tl__poison();
}

static const char *const flip_names[] = {"x", "dim"};

/* @jit def flip(x, dim=None) */
static void flip_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0];
    int rank = tl_rank(x), dim = (int)a[1].i;
    r[0] = tl__poison();
    if (!(-rank <= dim && dim < rank)) {
        tl__err("static_assert failed: flip dim %d is out of range for a tensor of rank %d", dim, rank);
        return;
    }
    if (dim < 0)
        dim += rank;
    if (!is_power_of_two(tl_dim(x, dim))) {
        tl__err("static_assert failed: flip needs a power-of-two size along dim %d, got %lld", dim,
                (long long)tl_dim(x, dim));
        return;
    }
    int steps = log2_floor(tl_dim(x, dim));
    if (rank - 1 + steps > CT_MAX_RANK) {
        tl__err("flip would reshape to rank %d; ranks above %d are not supported", rank - 1 + steps,
                CT_MAX_RANK);
        return;
    }
    /* reshape the swap dimension to (2, 2, ..., 2) */
    int64_t shape[CT_MAX_RANK];
    int n = 0;
    for (int d = 0; d < dim; d++)
        shape[n++] = tl_dim(x, d);
    for (int d = 0; d < steps; d++)
        shape[n++] = 2;
    for (int d = dim + 1; d < rank; d++)
        shape[n++] = tl_dim(x, d);
    tl_tensor y = sem_reshape(as_int_bits(x), n, shape, false);
    for (int i = 0; i < steps; i++)
        y = tl__binop(TL_XOR, y, xor_sum_keep(y, dim + i), CUR);
    if (tl__is_poison(y))
        return;
    r[0] = sem_bitcast(sem_reshape(y, rank, x.type->shape, false), tl__scalar(x.type));
}

static const char *const sort_names[] = {"x", "dim", "descending"};
static const char *const topk_names[] = {"x", "k", "dim", "descending"};

tl_tensor tl__sort_std(int what, tl_tensor x, int k, tl_sort_opts o, tl_src at)
{
    static const char *const fn[] = {"tl_sort", "tl_topk", "tl_bitonic_merge"};
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (!tl__named(o.tl__unnamed, fn[what], at))
        return tl__poison();
    if (tl__is_poison(x))
        return x;
    if (x.kind != TL_K_TENSOR || !tl__is_block(x.type))
        return tl__err("%s needs a block tensor", fn[what]);
    tl_tensor dim = o.dim == TL_AXIS_NONE ? TL_NONE : I(o.dim);
    /* descending: Python's default is the integer 0; .descending = true/false are True/False */
    tl_tensor desc = o.descending < 0 ? I(0) : F(o.descending != 0);
    tl_tensor out[1];
    int n = -1;
    if (what == 1) {
        if (o.descending >= 0 && !TV->topk_descending)
            return tl__err("topk() got an unexpected keyword argument 'descending' (Triton %s; "
                           "it sorts in descending order)", TV->name);
        tl_tensor args[4] = {x, I(k), dim, F(o.descending != 0 /* -1: True */)};
        n = tl__jit(STD "topk", TV->topk_descending ? 4 : 3, topk_names, args, 0, NULL, topk_body,
                    NULL, out);
    } else {
        tl_tensor args[3] = {x, dim, desc};
        n = tl__jit(what == 0 ? STD "sort" : STD "bitonic_merge", 3, sort_names, args, 0, NULL,
                    what == 0 ? sort_body : bitonic_merge_body, NULL, out);
    }
    return n == 1 ? out[0] : tl__poison();
}

tl_tensor tl__flip(tl_tensor x, int dim, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (tl__is_poison(x))
        return x;
    if (x.kind != TL_K_TENSOR || !tl__is_block(x.type))
        return tl__err("tl_flip needs a block tensor");
    tl_tensor args[2] = {x, I(dim)}, out[1];
    return tl__jit(STD "flip", 2, flip_names, args, 0, NULL, flip_body, NULL, out) == 1
               ? out[0]
               : tl__poison();
}

/* ---- softmax, swizzle2d ------------------------------------------------------------------------ */

static const char *const softmax_names[] = {"x", "dim", "keep_dims", "ieee_rounding"};

/* @jit def softmax(x, dim=None, keep_dims=False, ieee_rounding=False) */
static void softmax_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0];
    int dim = a[1].kind == TL_K_NONE ? 0 : (int)a[1].i;
    /* 3.9: keep_dims is ignored, the reductions always keep them */
    bool keep_dims = TV->softmax_keeps_dims || a[2].i != 0;
    bool ieee = a[3].i != 0;
    tl_tensor margs[5] = {x, I(dim), F(false), F(true), F(keep_dims)}, m[2];
    if (tl__jit(STD "max", 5, max_names, margs, 0, NULL, max_body, (void *)1, m) != 1) {
        r[0] = tl__poison();
        return;
    }
    tl_tensor z = tl__binop(TL_SUB, x, m[0], CUR);
    tl_tensor num = tl__unary(TL_EXP, z, CUR);
    tl_tensor sargs[4] = {num, I(dim), F(keep_dims), TL_NONE}, den[1];
    sum_ud u = {NULL, false, false};
    if (tl__jit(STD "sum", 4, sum_names, sargs, 0, NULL, sum_body, &u, den) != 1) {
        r[0] = tl__poison();
        return;
    }
    tl__at(CUR);
    r[0] = sem_fdiv(num, den[0], ieee);
}

tl_tensor tl__softmax(tl_tensor x, tl_softmax_opts o, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (!tl__named(o.tl__unnamed, "tl_softmax", at) || tl__is_poison(x))
        return tl__poison();
    if (x.kind != TL_K_TENSOR)
        return tl__err("tl_softmax needs a tensor");
    /* 3.9: keep_dims=None by default, and any other value is deprecated */
    tl_tensor keep = F(o.keep_dims);
    if (TV->softmax_keeps_dims) {
        keep = o.keep_dims ? F(true) : TL_NONE;
        if (o.keep_dims)
            tl__warn("The keep_dims argument to tl.softmax is deprecated and ignored; softmax "
                     "always preserves the input shape.");
    }
    tl_tensor args[4] = {x, o.dim == TL_AXIS_NONE ? TL_NONE : I(o.dim), keep, F(o.ieee_rounding)},
              out[1];
    return tl__jit(STD "softmax", 4, softmax_names, args, 0, NULL, softmax_body, NULL, out) == 1
               ? out[0]
               : tl__poison();
}

static const char *const swizzle_names[] = {"i", "j", "size_i", "size_j", "size_g"};

/* @jit def swizzle2d(i, j, size_i, size_j, size_g) */
static void swizzle2d_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor i = a[0], j = a[1], size_i = a[2], size_j = a[3], size_g = a[4];
    /* "unrolled index in array" */
    tl_tensor ij = tl__binop(TL_ADD, tl__binop(TL_MUL, i, size_j, CUR), j, CUR);
    /* number of elements in `size_g` groups of `size_j` columns (a product of
     * constexprs is a constexpr, which the assignment makes a tensor, as Python's
     * visit_Assign does: one arith.constant here, not one per use) */
    tl_tensor size_gj = tl__to_tensor(tl__binop(TL_MUL, size_g, size_j, CUR), CUR);
    /* index of the group in which (i,j) is */
    tl_tensor group_id = tl__binop(TL_FLOORDIV, ij, size_gj, CUR);
    /* row-index of the first element of this group */
    tl_tensor off_i = tl__binop(TL_MUL, group_id, size_g, CUR);
    /* last group may have fewer rows */
    size_g = tl__minimum(tl__binop(TL_SUB, size_i, off_i, CUR), size_g,
                         TL__OPTS(tl_minmax_opts, TL__POS), CUR);
    /* linear index with respect to the first element in this group */
    ij = tl__binop(TL_MOD, ij, size_gj, CUR);
    /* new row and column indices */
    r[0] = tl__binop(TL_ADD, off_i, tl__binop(TL_MOD, ij, size_g, CUR), CUR);
    r[1] = tl__binop(TL_FLOORDIV, ij, size_g, CUR);
}

tl_tuple_t tl__swizzle2d(tl_tensor i, tl_tensor j, tl_tensor size_i, tl_tensor size_j,
                         tl_tensor size_g, tl_src at)
{
    tl_tuple_t t = {0};
    if (!tl__active())
        return t;
    tl__at(at);
    if (tl__any_poison(5, i, j, size_i, size_j, size_g))
        return t;
    tl_tensor args[5] = {i, j, size_i, size_j, size_g};
    int n = tl__jit(STD "swizzle2d", 5, swizzle_names, args, 0, NULL, swizzle2d_body, NULL, t.v);
    t.n = n == 2 ? 2 : 0;
    return t;
}

void tl__max_idx(bool is_max, tl_tensor x, tl_tensor *v, tl_tensor *i, tl_reduce_opts o, tl_src at)
{
    *v = *i = tl__poison();
    if (!tl__active())
        return;
    tl__at(at);
    if (!tl__named(o.tl__unnamed, "tl_max_with_indices", at))
        return;
    if (tl__is_poison(x))
        return;
    tl_tensor args[5] = {x, axis_arg(o), F(true), F(o.tie_break_left), F(o.keep_dims)};
    tl_tensor out[2];
    int n = tl__jit(is_max ? STD "max" : STD "min", 5, max_names, args, 0, NULL, max_body,
                    is_max ? (void *)1 : NULL, out);
    if (n == 2) {
        *v = out[0];
        *i = out[1];
    }
}

/* ---- small library functions ------------------------------------------- */

/* @jit def zeros(shape, dtype): return core.full(shape, 0, dtype) */
typedef struct zeros_ud {
    tl_shape_t shape;
    const tl_type *dtype;
} zeros_ud;

static void zeros_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)a;
    const zeros_ud *z = ud;
    r[0] = tl__full(z->shape, I(0), z->dtype, CUR);
}

static tl_tensor call_zeros(tl_shape_t shape, const tl_type *dtype)
{
    /* shape is a tuple constexpr, dtype a constexpr dtype */
    tl_jit_cx cx = {.pos = 0, .is_shape = true, .rank = shape.rank, .shape = shape.d};
    static const char *const names[] = {"shape", "dtype"};
    zeros_ud z = {shape, dtype};
    tl_tensor args[2] = {TL_NONE, tl__from_dtype(dtype)};
    tl_tensor out[1];
    int n = tl__jit(STD "zeros", 2, names, args, 1, &cx, zeros_body, &z, out);
    return n == 1 ? out[0] : tl__poison();
}

tl_tensor tl__zeros(tl_shape_t shape, tl_dtype dtype, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (!dtype)
        return tl__err("tl.zeros needs a dtype");
    return call_zeros(shape, dtype);
}

/* @jit def zeros_like(input): return zeros(input.shape, input.dtype) */
static void zeros_like_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    r[0] = call_zeros(tl_shape_of(a[0]), tl__scalar(a[0].type));
}

tl_tensor tl__zeros_like(tl_tensor x, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (tl__is_poison(x) || x.kind != TL_K_TENSOR)
        return tl__is_poison(x) ? x : tl__err("zeros_like expects a tensor");
    static const char *const names[] = {"input"};
    tl_tensor out[1];
    int n = tl__jit(STD "zeros_like", 1, names, &x, 0, NULL, zeros_like_body, NULL, out);
    return n == 1 ? out[0] : tl__poison();
}

/* @jit def sigmoid(x): return 1 / (1 + math.exp(-x)) */
static void sigmoid_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor e = tl__unary(TL_EXP, tl__neg(a[0], CUR), CUR);
    r[0] = tl__binop(TL_TRUEDIV, I(1), tl__binop(TL_ADD, I(1), e, CUR), CUR);
}

tl_tensor tl__sigmoid(tl_tensor x, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    static const char *const names[] = {"x"};
    tl_tensor out[1];
    int n = tl__jit(STD "sigmoid", 1, names, &x, 0, NULL, sigmoid_body, NULL, out);
    return n == 1 ? out[0] : tl__poison();
}

/* @jit def cdiv(x, div): return (x + (div - 1)) // div */
static void cdiv_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0], div = a[1];
    r[0] = tl__binop(TL_FLOORDIV, tl__binop(TL_ADD, x, tl__binop(TL_SUB, div, I(1), CUR), CUR), div,
                     CUR);
}

tl_tensor tl__cdiv(tl_tensor x, tl_tensor div, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (tl__any_poison(2, x, div))
        return tl__poison();
    if (x.kind != TL_K_TENSOR && div.kind != TL_K_TENSOR) {
        /* cdiv of two constexprs folds (Python calls the jit function all the same,
         * but with only constexpr arguments it emits nothing but the call) */
        if (div.i == 0)
            return tl__err("cdiv by zero");
    }
    tl_tensor args[2] = {x, div};
    tl_tensor out[1];
    static const char *const names[] = {"x", "div"};
    int n = tl__jit(STD "cdiv", 2, names, args, 0, NULL, cdiv_body, NULL, out);
    return n == 1 ? out[0] : tl__poison();
}

/* @jit def ravel(x, can_reorder=False): return core.reshape(x, [x.numel], can_reorder) */
static void ravel_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_shape_t s = {1, {tl_numel(a[0])}};
    r[0] = tl__reshape(a[0], s, TL__OPTS(tl_reshape_opts, .can_reorder = a[1].i != 0), CUR);
}

tl_tensor tl__ravel_o(tl_tensor x, tl_ravel_opts o, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (!tl__named(o.tl__unnamed, "tl_ravel", at))
        return tl__poison();
    static const char *const names[] = {"x", "can_reorder"};
    tl_tensor args[2] = {x, F(o.can_reorder)};
    tl_tensor out[1];
    int n = tl__jit(STD "ravel", 2, names, args, 0, NULL, ravel_body, NULL, out);
    return n == 1 ? out[0] : tl__poison();
}

/* @jit def interleave(a, b) */
static void interleave_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor c = tl__join(a[0], a[1], CUR);
    if (tl_rank(c) == 1) {
        r[0] = c;
        return;
    }
    tl_shape_t s = tl_shape_of(c);
    s.rank -= 1;
    s.d[s.rank - 1] = 2 * tl_dim(c, -2);
    r[0] = tl__reshape(c, s, TL__OPTS(tl_reshape_opts, TL__POS), CUR);
}

tl_tensor tl__interleave(tl_tensor a, tl_tensor b, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    tl_tensor args[2] = {a, b};
    tl_tensor out[1];
    int n = tl__jit(STD "interleave", 2, ab_names, args, 0, NULL, interleave_body, NULL, out);
    return n == 1 ? out[0] : tl__poison();
}
