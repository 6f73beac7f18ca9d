/*
 * ctriton/triton_version.h - the Triton releases ctriton follows, and every way in
 * which they differ for the kernel language and the TTIR text.
 *
 * One row per supported release (src/ir/triton_version.c).  A row is a list of
 * facts, each the behaviour of one release's frontend (semantic.py, core.py,
 * standard.py, random.py, code_generator.py) or of its TTIR text; the
 * builtins, the printer and the parser consult the fact instead of comparing
 * version numbers, so adding a release is adding a row (docs/triton-versions.md
 * says how, and scripts/triton_diff.py lists what changed).
 *
 * The target release of a build is, in order: what the caller asks for
 * (tl_options.triton, `ctriton --triton X.Y.Z`), $CTRITON_TRITON_VERSION, the
 * release installed beside the Python that lowers (the one `ct_compile_*`
 * runs: $CTRITON_PYTHON, else ~/.cache/ctriton/venv/bin/python, else
 * python3), and 3.6.0 when no Triton is found.  It is part of every cache key.
 *
 * Ownership: rows are static; nothing here allocates except where noted.
 */
#ifndef CTRITON_TRITON_VERSION_H
#define CTRITON_TRITON_VERSION_H

#include <stdbool.h>
#include <stddef.h>

#include "ctriton/diag.h"
#include "ctriton/export.h"

CT_BEGIN_DECLS

/* How a release spells tl.make_block_ptr. */
typedef enum ct_block_ptrs {
    /* tt.make_tensor_ptr / tt.advance on !tt.ptr<tensor<...>> values (3.6, 3.7) */
    CT_BLOCK_PTR_OPS,
    /* core._block_ptr, an aggregate of scalars (base; shape, strides, offsets as
     * i64) that loops carry field by field, turned into a tensor of pointers and
     * a mask at each load and store; the dialect has no block-pointer ops (3.8) */
    CT_BLOCK_PTR_AGGREGATE,
    /* tl.make_block_ptr and tl.advance raise NotImplementedError (3.9) */
    CT_BLOCK_PTR_REMOVED,
} ct_block_ptrs;

typedef struct ct_triton {
    const char *name;               /* "3.9.0" */
    int major, minor, patch;

    /* ---- compiler/code_generator.py ---------------------------------- */
    /* mangle_fn(name, arg_tys): every argument's type in order, a constexpr
     * as `c<repr>` ("f__fp32S64S_c2_fp32S64S"); before 3.7 the runtime
     * arguments, then the constexprs by position ("f__fp32S64S__(1,)cconstexpr_2_") */
    bool mangle_in_order;
    /* handle_returns: the return type is decided after the body; a helper that
     * returns only constexprs returns nothing in IR and its call gives the
     * constexpr; otherwise constexprs become constants at each return.  Before
     * 3.7 every returned number was to_tensor'd where it was returned. */
    bool constexpr_returns;
    /* visit_While casts a tensor condition .to(tl.int1) (3.9) */
    bool while_cond_to_int1;

    /* ---- language/semantic.py, core.py ------------------------------- */
    /* minus(x) of a float is arith.negf; before, 0 - x (3.8) */
    bool neg_float_negf;
    /* scalar_constant of an fp8 dtype: an f32 constant and arith.truncf (3.7);
     * before, builder.get_fp8... does not exist and Python fails */
    bool fp8_scalar_via_f32;
    /* math.fdiv(ieee_rounding=True) is tt.precise_divf (3.8); before, the flag
     * was ignored (arith.divf) */
    bool fdiv_ieee_precise;
    /* tl.dot's out_dtype defaults to None: the accumulator's element type, or
     * fp32 without one (3.8); before, fp32 (an fp16 acc needs out_dtype=fp16) */
    bool dot_out_dtype_from_acc;
    /* tl.cat(can_reorder=False, dim=d) is join, permute and reshape (3.7);
     * before, cat asserted can_reorder */
    bool cat_by_join;
    /* tl.cat(can_reorder=True) and tl.reshape(can_reorder=True) warn that they
     * are deprecated; cat without it needs equal shapes (3.9) */
    bool can_reorder_deprecated;
    /* tl.load(cache_modifier=".cs") (3.8); before, a store-only hint */
    bool load_cache_cs;
    /* atomic_min of a float types its unsigned half's result as the value, not
     * the pointer (3.8), so tl.where casts it (an arith.bitcast) */
    bool atomic_min_typed;
    /* how tl.make_block_ptr, tl.advance and loads/stores through them lower */
    ct_block_ptrs block_ptrs;
    /* tl.make_block_ptr warns "tl.make_block_ptr is deprecated. ..." (3.7, 3.8) */
    bool block_ptr_deprecated;
    /* the comparisons (tensor.__lt__ ...) and logical_and/or keep a Python number
     * as a scalar (`_unwrap_if_constexpr`, typed by the scalar rules of
     * computation_type_impl) where before they made it an i32/fp32 tensor
     * first (`to_tensor`); the math builtins (umulhi, fdiv, div_rn, fma) too (3.9) */
    bool scalar_operands;
    /* computation_type_impl: a scalar next to a tensor of a kind at least its own
     * is ignored and the remaining rules decide (div/mod of any float: fp32) (3.9) */
    bool promote_ignores_scalar;
    /* cast between fp16 and bf16 is one tt.fp_to_fp (rtne) (3.9); before, through fp32 */
    bool fp16_bf16_direct;
    /* clamp/fma: ternary_op_type_checking_impl (scalars typed once, against the
     * tensors' type), integer clamp as max/min (3.9) */
    bool ternary_typing;

    /* ---- language/standard.py, random.py ----------------------------- */
    /* uint_to_uniform_float: tl.where(x < 0, ~x, x) (3.8); before, -x - 1 */
    bool uniform_invert;
    /* minimum/maximum/clamp, max/min, cumsum/cumprod do not promote bf16 to fp32
     * first (_promote_bfloat16_to_float32 is gone) (3.9) */
    bool reduce_keeps_bf16;
    /* cumprod(input, axis, reverse, dtype=None): the sum's dtype rule (small
     * integers in 32 bits) (3.9) */
    bool cumprod_dtype;
    /* _compare_and_swap: (x > y) != (flip ^ is_right).to(int1) (3.9) */
    bool sort_flip_to_int1;
    /* inline_asm_elementwise broadcasts its arguments with broadcast_tensors
     * (each against the first, twice) instead of two rounds of binary
     * type checking (3.9) */
    bool inline_asm_broadcast_tensors;
    /* topk(x, k, dim=None, descending=True) (3.8) */
    bool topk_descending;
    /* softmax's keep_dims defaults to None and is ignored (deprecated): max and
     * sum always keep the reduced dimension (3.9) */
    bool softmax_keeps_dims;
    /* Python's words for an operation on None (a parameter specialized to None):
     * arithmetic, `None + n`: AttributeError("'NoneType' object has no attribute 'type'")
     * (semantic.binary_op_type_checking_impl), from 3.9 'NoneType' object has no attribute
     * 'dtype' (the operand's dtype is read first); tl.load(None): 'constexpr_type' object has
     * no attribute 'is_ptr', from 3.8 ... 'scalar' (semantic.load) */
    const char *none_arith_error;
    const char *none_load_attr;

    /* ---- the TTIR text ------------------------------------------------ */
    /* tl.debug_barrier() is `ttg.barrier all` (3.7); before, `gpu.barrier` */
    bool barrier_ttg;
    /* a tensor descriptor type is !tt.tensordesc<64x64xf16> (3.8); before,
     * !tt.tensordesc<tensor<64x64xf16>> */
    bool tensordesc_bare;
    /* load/store cache and eviction hints are one attribute (core._CachePolicy,
     * which also takes its words with or without the dot, for loads and stores
     * alike, and "evict_normal"),
     * {cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy = ...>}
     * (3.9); before, `cacheModifier = cg evictionPolicy = evict_last` */
    bool cache_policy_attr;
} ct_triton;

/* The supported releases, oldest first. */
int ct_triton_count(void);
const ct_triton *ct_triton_at(int i);
/* The row of a release ("3.9.0"), NULL if ctriton does not support it. */
const ct_triton *ct_triton_find(const char *name);
/* 3.6.0: the release ctriton was first written for, and the fallback target. */
const ct_triton *ct_triton_baseline(void);
/* "3.6.0, 3.7.0, 3.7.1, 3.8.0, 3.9.0" into buf. */
const char *ct_triton_supported(char *buf, size_t cap);
/* <0, 0, >0 as a is older than, the same as, newer than b. */
int ct_triton_cmp(const ct_triton *a, const ct_triton *b);

/* Whether a release's dialect has the op (tt.make_tensor_ptr and tt.advance
 * until 3.7, ttg.barrier from 3.7; every other op of ctriton's table in all). */
bool ct_triton_has_op(const ct_triton *t, int opcode);

/* The target of a build: `requested` if not NULL, else the default (the
 * environment, then the detected release, as above).  NULL, with an error in
 * `d` (may be NULL) naming the supported releases, when the release asked
 * for or found is not supported. */
const ct_triton *ct_triton_resolve(const char *requested, ct_diags *d);
/* The release installed for the Python that lowers, "" if none is found
 * (cached per process). */
const char *ct_triton_detected(void);

CT_END_DECLS
#endif
