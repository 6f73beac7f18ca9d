/*
 * test_lang_errors.c - type errors in kernels are diagnostics: each names
 * the C file and line of the offending builtin and the rule broken, the
 * kernel is refused (tl_build returns NULL), nothing aborts, and one
 * mistake gives one diagnostic (poison silences the follow-on errors).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/tl.h"

/* Lines of the offending calls, recorded by the kernels themselves. */
static int line_of;

/* exp of an integer tensor */
TL_KERNEL(k_exp_int, (x_ptr, y_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor y = tl_exp(x);
    tl_store(tl_add(y_ptr, tl_arange(0, B)), y);
}

/* a non-boolean mask on a load */
TL_KERNEL(k_load_int_mask, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    line_of = __LINE__; tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = offs);
    tl_store(tl_add(y_ptr, offs), x);
}

/* a non-boolean mask on a store */
TL_KERNEL(k_store_int_mask, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    line_of = __LINE__; tl_store(tl_add(y_ptr, offs), x, .mask = offs);
}

/* storing fp32 through a pointer to fp16 */
TL_KERNEL(k_store_narrowing, (x_ptr, y_ptr), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    line_of = __LINE__; tl_store(tl_add(y_ptr, offs), x);
}

/* incompatible broadcast shapes */
TL_KERNEL(k_broadcast, (x_ptr, y_ptr), (int, B))
{
    tl_tensor a = tl_arange(0, B);
    tl_tensor b = tl_arange(0, 2 * B);
    line_of = __LINE__; tl_tensor c = tl_add(a, b);
    tl_store(tl_add(y_ptr, a), tl_to(c, tl_float32));
}

/* a dot with mismatched inner sizes */
TL_KERNEL(k_dot_inner, (a_ptr, b_ptr, c_ptr))
{
    tl_tensor r16 = tl_arange(0, 16), r32 = tl_arange(0, 32);
    tl_tensor a = tl_load(tl_add(tl_add(a_ptr, tl_mul(tl_idx(r16, ":, None"), 32)), tl_idx(r32, "None, :")));
    tl_tensor b = tl_load(tl_add(tl_add(b_ptr, tl_mul(tl_idx(r16, ":, None"), 16)), tl_idx(r16, "None, :")));
    line_of = __LINE__; tl_tensor c = tl_dot(a, b);
    tl_store(tl_add(tl_add(c_ptr, tl_mul(tl_idx(r16, ":, None"), 16)), tl_idx(r16, "None, :")), c);
}

/* a reduction axis out of range */
TL_KERNEL(k_axis, (x_ptr, y_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor s = tl_sum(x, .axis = 1);
    tl_store(y_ptr, s);
}

/* a constexpr where a tensor is needed */
TL_KERNEL(k_cx_as_tensor, (x_ptr, y_ptr), (int, B))
{
    line_of = __LINE__; tl_tensor x = tl_load(tl_c(B));
    tl_store(y_ptr, x);
}

/* a tensor where a constexpr is needed */
TL_JIT(block_of, (x, n))
{
    line_of = __LINE__; return tl_add(x, tl_arange(0, tl_cx_int(n)));
}

TL_KERNEL(k_tensor_as_cx, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    tl_tensor y = TL_CALL(block_of, x, n);
    tl_store(tl_add(y_ptr, tl_arange(0, B)), y);
}

/* one mistake, one report: the poison from the first error spreads silently */
TL_KERNEL(k_cascade, (x_ptr, y_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor y = tl_exp(x);
    y = tl_add(y, tl_mul(y, 2.0));
    y = tl_sum(y, .axis = 0);
    tl_store(y_ptr, y);
}

/* two independent mistakes, two reports */
static int line_first;
TL_KERNEL(k_two, (x_ptr, y_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_first = __LINE__; tl_tensor a = tl_exp(x);
    line_of = __LINE__; tl_tensor b = tl_log(x);
    tl_store(y_ptr, tl_add(tl_sum(a), tl_sum(b)));
}

/* a static assertion */
TL_KERNEL(k_static_assert, (x_ptr), (int, B))
{
    line_of = __LINE__; tl_static_assert(B >= 16, "BLOCK too small");
    tl_store(x_ptr, 1.0);
}

/* a loop-carried variable whose type changes */
TL_KERNEL(k_loop_type, (x_ptr, n), (int, B))
{
    tl_tensor acc = tl_zeros(tl_shape(B), tl_float32);
    line_of = __LINE__; TL_FOR(i, tl_range(0, n, 1), acc) {
        acc = tl_to(acc, tl_float16);
    }
    tl_store(tl_add(x_ptr, tl_arange(0, B)), tl_to(acc, tl_float32));
}

/* return inside a loop */
TL_KERNEL(k_return_in_loop, (x_ptr, n))
{
    TL_FOR(i, tl_range(0, n, 1)) {
        line_of = __LINE__; TL_RETURN();
    }
    tl_store(x_ptr, 1.0);
}

/* an optional argument passed without its name: Python's tl.sum(x, 0) */
TL_KERNEL(k_positional_axis, (x_ptr, y_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor s = tl_sum(x, 0);
    tl_store(y_ptr, s);
}

/* ... and tl.range(0, n, 1, 2) */
TL_KERNEL(k_positional_stages, (x_ptr, n))
{
    tl_tensor acc = tl_to_tensor(0.0);
    line_of = __LINE__; TL_FOR(i, tl_range(0, n, 1, 2), acc) {
        acc = tl_add(acc, 1.0);
    }
    tl_store(x_ptr, acc);
}

/* a @jit helper called with too few arguments */
TL_JIT(two_args, (a, b))
{
    return tl_add(a, b);
}

TL_KERNEL(k_jit_arity, (x_ptr))
{
    tl_tensor x = tl_load(x_ptr);
    line_of = __LINE__; tl_tensor y = TL_CALL(two_args, x);
    tl_store(x_ptr, y);
}

/* user combine functions: one result for two inputs, a scan option of reductions, an axis
 * out of range, a combine helper of the wrong arity */
TL_JIT_TUPLE(first_only, (v1, i1, v2, i2))
{
    return tl_tuple(tl_maximum(v1, v2));
}

TL_JIT(add2, (a, b))
{
    return tl_add(a, b);
}

TL_JIT(add3, (a, b, c))
{
    return tl_add(tl_add(a, b), c);
}

TL_JIT_TUPLE(three_out, (a, b))
{
    return tl_tuple(a, b, tl_add(a, b));
}

/* map_elementwise: pack 2 over a function of 3 results (not a multiple of pack) */
TL_KERNEL(k_map_pack, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    tl_tensor u, v;
    line_of = __LINE__; TL_UNPACK(tl_map_elementwise(three_out, (x), .pack = 2), u, v);
    tl_store(tl_add(x_ptr, tl_arange(0, B)), tl_add(u, v));
}

/* map_elementwise on a number */
TL_KERNEL(k_map_number, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor y = tl_map_elementwise(add2, (x, 2));
    tl_store(tl_add(x_ptr, tl_arange(0, B)), y);
}

/* desc.atomic_and on f32, and atomic_add of an i32 block into an f32 descriptor */
TL_KERNEL(k_desc_and_float, (x_ptr), (int, B))
{
    tl_tensor d = tl_make_tensor_descriptor(x_ptr, tl_tuple(B, B), tl_tuple(B, 1), tl_shape(B, B));
    line_of = __LINE__; tl_desc_atomic_and(d, tl_tuple(0, 0), tl_zeros(tl_shape(B, B), tl_float32));
}

TL_KERNEL(k_desc_add_mixed, (x_ptr), (int, B))
{
    tl_tensor d = tl_make_tensor_descriptor(x_ptr, tl_tuple(B, B), tl_tuple(B, 1), tl_shape(B, B));
    line_of = __LINE__; tl_desc_atomic_add(d, tl_tuple(0, 0), tl_zeros(tl_shape(B, B), tl_int32));
}

TL_KERNEL(k_combine_count, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    tl_tensor v, i;
    line_of = __LINE__; TL_UNPACK(tl_reduce(tl_tuple(x, tl_arange(0, B)), 0, first_only), v, i);
    tl_store(tl_add(x_ptr, tl_arange(0, B)), tl_add(v, tl_to(i, tl_float32)));
}

TL_KERNEL(k_scan_keep_dims, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor y = tl_associative_scan(x, 0, add2, .keep_dims = true);
    tl_store(tl_add(x_ptr, tl_arange(0, B)), y);
}

TL_KERNEL(k_scan_axis, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor y = tl_associative_scan(x, 1, add2);
    tl_store(tl_add(x_ptr, tl_arange(0, B)), y);
}

TL_KERNEL(k_combine_arity, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor y = tl_reduce(x, 0, add3);
    tl_store(x_ptr, y);
}

/* sorting: a dimension other than the last, a flip dim out of range, topk with descending=
 * (block dimensions are always powers of two, so flip's own check of that cannot fire) */
TL_KERNEL(k_sort_dim, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_add(tl_mul(tl_idx(tl_arange(0, B), ":, None"), B), tl_idx(tl_arange(0, B), "None, :"))));
    line_of = __LINE__; tl_tensor y = tl_sort(x, .dim = 0);
    tl_store(x_ptr, tl_sum(y));
}

TL_KERNEL(k_flip_dim, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor y = tl_flip(x, 1);
    tl_store(tl_add(x_ptr, tl_arange(0, B)), y);
}

TL_KERNEL(k_topk_desc, (x_ptr), (int, B))
{
    tl_tensor x = tl_load(tl_add(x_ptr, tl_arange(0, B)));
    line_of = __LINE__; tl_tensor y = tl_topk(x, 4, .descending = false);
    tl_store(tl_add(x_ptr, tl_arange(0, 4)), y);
}

/* block pointers: a mask on a block-pointer load, a boundary_check dimension out of range,
 * shape and block_shape of different lengths, a store of another element type */
TL_KERNEL(k_bp_mask, (x_ptr, n), (int, B))
{
    tl_tensor p = tl_make_block_ptr(x_ptr, tl_tuple(n), tl_tuple(1), tl_tuple(0), tl_shape(B), tl_ints(0));
    line_of = __LINE__; tl_tensor x = tl_load(p, .mask = tl_lt(tl_arange(0, B), n));
    tl_store(p, x);
}

TL_KERNEL(k_bp_check, (x_ptr, n), (int, B))
{
    tl_tensor p = tl_make_block_ptr(x_ptr, tl_tuple(n), tl_tuple(1), tl_tuple(0), tl_shape(B), tl_ints(0));
    line_of = __LINE__; tl_tensor x = tl_load(p, .boundary_check = tl_ints(1));
    tl_store(p, x);
}

TL_KERNEL(k_bp_len, (x_ptr, n), (int, B))
{
    line_of = __LINE__; tl_tensor p = tl_make_block_ptr(x_ptr, tl_tuple(n, n), tl_tuple(n, 1), tl_tuple(0, 0), tl_shape(B), tl_ints(0));
    tl_store(p, tl_load(p));
}

TL_KERNEL(k_bp_store_type, (x_ptr, n), (int, B))
{
    tl_tensor p = tl_make_block_ptr(x_ptr, tl_tuple(n), tl_tuple(1), tl_tuple(0), tl_shape(B), tl_ints(0));
    tl_tensor x = tl_load(p);
    line_of = __LINE__; tl_store(p, tl_to(x, tl_float16));
}

/* tensor descriptors: a last stride other than 1, a block row under 16 bytes, offsets of the wrong
 * count, a stored value of another shape */
TL_KERNEL(k_td_stride, (x_ptr, n), (int, B))
{
    line_of = __LINE__; tl_tensor d = tl_make_tensor_descriptor(x_ptr, tl_tuple(n, n), tl_tuple(n, 2), tl_shape(B, B));
    tl_desc_store(d, tl_tuple(0, 0), tl_desc_load(d, tl_tuple(0, 0)));
}

TL_KERNEL(k_td_narrow, (x_ptr, n), (int, B))
{
    line_of = __LINE__; tl_tensor d = tl_make_tensor_descriptor(x_ptr, tl_tuple(n, n), tl_tuple(n, 1), tl_shape(B, 2));
    tl_desc_store(d, tl_tuple(0, 0), tl_desc_load(d, tl_tuple(0, 0)));
}

TL_KERNEL(k_td_offsets, (x_ptr, n), (int, B))
{
    tl_tensor d = tl_make_tensor_descriptor(x_ptr, tl_tuple(n, n), tl_tuple(n, 1), tl_shape(B, B));
    line_of = __LINE__; tl_tensor x = tl_desc_load(d, tl_tuple(0));
    tl_desc_store(d, tl_tuple(0, 0), x);
}

TL_KERNEL(k_td_shape, (x_ptr, n), (int, B))
{
    tl_tensor d = tl_make_tensor_descriptor(x_ptr, tl_tuple(n, n), tl_tuple(n, 1), tl_shape(B, B));
    tl_tensor x = tl_desc_load(d, tl_tuple(0, 0));
    line_of = __LINE__; tl_desc_store(d, tl_tuple(0, 0), tl_sum(x, .axis = 0));
}

static const char *FILE_NAME = "tests/unit/test_lang_errors.c";

/* Builds k and checks it is refused with exactly `nerr` errors, the last at
 * `line` with a message containing `needle`. */
/* a variable the construct reassigns but its list lacks, used where the construct's value
 * cannot be seen: named, with the construct's line, at the use's line */
static int ctl_line;
TL_KERNEL(k_unlisted_for, (x_ptr, y_ptr, n), (int, B))
{
    tl_tensor offs = tl_arange(0, B);
    tl_tensor acc = tl_zeros(tl_shape(B), tl_float32);
    ctl_line = __LINE__; TL_FOR(i, tl_range(0, n, 1)) {
        acc = tl_add(acc,
                     tl_load(tl_add(tl_add(x_ptr, tl_mul(i, B)), offs)));
    }
    line_of = __LINE__; tl_store(tl_add(y_ptr, offs), acc);
    tl_store(tl_add(y_ptr, offs), tl_mul(acc, 2.0)); /* the same variable: no second report */
}

TL_KERNEL(k_unlisted_while, (x_ptr, n), (int, B))
{
    tl_tensor acc = tl_zeros(tl_shape(B), tl_float32);
    tl_tensor t = tl_to_tensor(0);
    ctl_line = __LINE__; TL_WHILE(tl_lt(t, n), t) {
        acc = tl_add(acc, 1.0);
        t = tl_add(t, 1);
    }
    line_of = __LINE__; tl_store(x_ptr, tl_sum(acc, .axis = 0));
}

TL_KERNEL(k_unlisted_if, (x_ptr, n))
{
    tl_tensor x = tl_load(x_ptr);
    ctl_line = __LINE__; TL_IF(tl_gt(n, 0)) {
        x = tl_add(x, 1.0);
    }
    line_of = __LINE__; tl_store(x_ptr, x);
}

TL_KERNEL(k_unlisted_else, (x_ptr, n))
{
    tl_tensor x = tl_load(x_ptr);
    ctl_line = __LINE__; TL_IF(tl_gt(n, 0)) {
        x = tl_add(x, 1.0);
    }
    TL_ELSE {
        line_of = __LINE__; tl_store(x_ptr, x);
    }
}

/* listed in the inner loop, not in the outer one */
TL_KERNEL(k_unlisted_outer, (x_ptr, n))
{
    tl_tensor s = tl_load(x_ptr);
    ctl_line = __LINE__; TL_FOR(i, tl_range(0, n, 1)) {
        TL_FOR(j, tl_range(0, n, 1), s) {
            s = tl_add(s, 1.0);
        }
    }
    line_of = __LINE__; tl_store(x_ptr, s);
}

/* not carried out of the first loop, then carried by the second */
TL_KERNEL(k_unlisted_then_carried, (x_ptr, n))
{
    tl_tensor s = tl_load(x_ptr);
    ctl_line = __LINE__; TL_FOR(i, tl_range(0, n, 1)) {
        s = tl_add(s, 1.0);
    }
    line_of = __LINE__; TL_FOR(i, tl_range(0, n, 1), s) {
        s = tl_mul(s, 2.0);
    }
    tl_store(x_ptr, s);
}

/* listed everywhere: built */
TL_KERNEL(k_listed_ok, (x_ptr, n))
{
    tl_tensor s = tl_load(x_ptr);
    TL_FOR(i, tl_range(0, n, 1), s) {
        TL_FOR(j, tl_range(0, n, 1), s) {
            s = tl_add(s, 1.0);
        }
        TL_IF(tl_gt(i, 2), s) {
            s = tl_mul(s, 2.0);
        }
        TL_ELSE {
            s = tl_add(s, tl_where(tl_gt(s, 0.0), s, 1.0));
        }
    }
    tl_store(x_ptr, s);
}

static void expect_error(const tl_kernel_def *k, const char *sig, const char *cx, int nerr,
                         const char *needle)
{
    ct_diags d;
    ct_diags_init(&d);
    line_of = 0;
    ct_module *m = tl_build(k, sig, cx, NULL, &d);
    if (m || d.nerrors != nerr) {
        ct_diags_print(&d, stderr, false);
        ct_module_destroy(m);
    }
    assert_null(m);
    assert_int_equal(d.nerrors, nerr);
    const ct_diag *g = NULL;
    for (int i = 0; i < d.n; i++)
        if (d.items[i].severity == CT_ERROR)
            g = &d.items[i];
    assert_non_null(g);
    assert_non_null(g->file);
    assert_string_equal(g->file, FILE_NAME);
    assert_int_equal(g->line, line_of);
    if (!strstr(g->message, needle))
        fprintf(stderr, "message was: %s\n", g->message);
    assert_non_null(strstr(g->message, needle));
    ct_diags_free(&d);
}

static void t_exp_of_int(void **s)
{
    (void)s;
    expect_error(&k_exp_int, "*i32:16 *fp32:16", "B=64", 1, "tl.exp expects dtype fp32 or fp64 but got int32");
}

static void t_load_mask(void **s)
{
    (void)s;
    expect_error(&k_load_int_mask, "*fp32 *fp32", "B=64", 1, "mask of tl.load must be boolean");
}

static void t_store_mask(void **s)
{
    (void)s;
    expect_error(&k_store_int_mask, "*fp32 *fp32", "B=64", 1, "Mask must have boolean scalar type");
}

static void t_store_narrowing(void **s)
{
    (void)s;
    expect_error(&k_store_narrowing, "*fp32 *fp16", "B=64", 1,
                 "storing fp32 values through a pointer to fp16");
    /* the explicit conversion, or Python's implicit one when asked for, is fine */
    ct_diags d;
    ct_diags_init(&d);
    tl_options o;
    tl_options_default(&o);
    o.implicit_store_casts = true;
    ct_module *m = tl_build(&k_store_narrowing, "*fp32 *fp16", "B=64", &o, &d);
    assert_non_null(m);
    ct_module_destroy(m);
    ct_diags_free(&d);
}

static void t_broadcast(void **s)
{
    (void)s;
    expect_error(&k_broadcast, "*fp32 *fp32", "B=16", 1, "incompatible dimensions at index 0: 16 and 32");
}

static void t_dot_inner(void **s)
{
    (void)s;
    expect_error(&k_dot_inner, "*fp16 *fp16 *fp32", "", 1, "equal reduction dimensions");
}

static void t_axis(void **s)
{
    (void)s;
    expect_error(&k_axis, "*fp32 *fp32", "B=64", 1, "invalid axis 1");
}

static void t_constexpr_as_tensor(void **s)
{
    (void)s;
    expect_error(&k_cx_as_tensor, "*fp32 *fp32", "B=64", 1, "got a constexpr int");
}

static void t_tensor_as_constexpr(void **s)
{
    (void)s;
    expect_error(&k_tensor_as_cx, "*fp32 *fp32 i32", "B=64", 1, "expected a constexpr int here, got a tensor");
}

static void t_one_report_per_mistake(void **s)
{
    (void)s;
    expect_error(&k_cascade, "*i32 *fp32", "B=64", 1, "tl.exp expects");
}

static void t_two_mistakes(void **s)
{
    (void)s;
    expect_error(&k_two, "*i32 *fp32", "B=64", 2, "tl.log expects");
    ct_diags d;
    ct_diags_init(&d);
    assert_null(tl_build(&k_two, "*i32 *fp32", "B=64", NULL, &d));
    assert_int_equal(d.items[0].line, line_first);
    ct_diags_free(&d);
}

static void t_static_assert(void **s)
{
    (void)s;
    expect_error(&k_static_assert, "*fp32", "B=8", 1, "static_assert failed: B >= 16: BLOCK too small");
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(&k_static_assert, "*fp32", "B=16", NULL, &d);
    assert_non_null(m);
    ct_module_destroy(m);
    ct_diags_free(&d);
}

static void t_loop_type(void **s)
{
    (void)s;
    expect_error(&k_loop_type, "*fp32 i32", "B=16", 1, "has initial type fp32[16] but is re-assigned to fp16[16]");
}

static void t_return_in_loop(void **s)
{
    (void)s;
    expect_error(&k_return_in_loop, "*fp32 i32", "", 1, "Cannot have `return` statements inside");
}

static void t_positional_options(void **s)
{
    (void)s;
    expect_error(&k_positional_axis, "*fp32 *fp32", "B=64", 1,
                 "reduction: an optional argument was passed without its name");
    expect_error(&k_positional_stages, "*fp32 i32", "", 1,
                 "tl_range: an optional argument was passed without its name");
}

static void t_jit_arity(void **s)
{
    (void)s;
    expect_error(&k_jit_arity, "*fp32", "", 1, "`two_args` takes 2 arguments, but 1 was given");
}

static void t_bad_signature(void **s)
{
    (void)s;
    ct_diags d;
    ct_diags_init(&d);
    assert_null(tl_build(&k_exp_int, "*i32:16 *flt32", "B=64", NULL, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "unknown type `*flt32`"));
    ct_diags_clear(&d);
    assert_null(tl_build(&k_exp_int, "*i32:16 *fp32:7", "B=64", NULL, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "divisibility"));
    ct_diags_clear(&d);
    assert_null(tl_build(&k_exp_int, "*i32:16", "B=64", NULL, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "gives no type for parameter `y_ptr`"));
    ct_diags_clear(&d);
    assert_null(tl_build(&k_exp_int, "*i32 *fp32", "B=sixty", NULL, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "must be an int"));
    ct_diags_clear(&d);
    assert_null(tl_build(&k_exp_int, "*i32 *fp32", "", NULL, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "constexpr B of k_exp_int has no value"));
    ct_diags_clear(&d);
    assert_null(tl_build(&k_exp_int, "*i32 *fp32", "B=64 C=2", NULL, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "has no constexpr named `C`"));
    ct_diags_free(&d);
}

static void t_user_combine(void **s)
{
    (void)s;
    expect_error(&k_combine_count, "*fp32", "B=64", 1, "combine_fn `first_only` returns 1 value for 2 inputs");
    expect_error(&k_scan_keep_dims, "*fp32", "B=64", 1, "tl_associative_scan has no keep_dims= option");
    expect_error(&k_scan_axis, "*fp32", "B=64", 1, "invalid axis 1. Expected -1 <= axis < 1");
    expect_error(&k_combine_arity, "*fp32", "B=64", 1, "`add3` takes 3 arguments, but 2 were given");
    expect_error(&k_map_pack, "*fp32", "B=64", 1, "`three_out` returns 3 values, not a multiple of pack 2");
    expect_error(&k_map_number, "*fp32", "B=64", 1, "map_elementwise: argument 1 is not a tensor");
    expect_error(&k_desc_and_float, "*fp32", "B=16", 1, "descriptor atomic_and: unsupported dtype fp32");
    expect_error(&k_desc_add_mixed, "*fp32", "B=16", 1, "descriptor atomic_add: the value is int32, the descriptor holds fp32");
}

static void t_sort_rules(void **s)
{
    (void)s;
    expect_error(&k_sort_dim, "*fp32", "B=16", 1, "only minor dimension is currently supported");
    expect_error(&k_flip_dim, "*fp32", "B=16", 1, "flip dim 1 is out of range for a tensor of rank 1");
    expect_error(&k_topk_desc, "*fp32", "B=16", 1, "topk() got an unexpected keyword argument 'descending' (Triton 3.6.0");
}

static void t_block_ptr_rules(void **s)
{
    (void)s;
    expect_error(&k_bp_mask, "*fp32 i32", "B=16", 1, "`mask` and `other` arguments cannot be specified for loading block pointers");
    expect_error(&k_bp_check, "*fp32 i32", "B=16", 1, "boundary_check dimension 1 is out of range for a block of rank 1");
    expect_error(&k_bp_len, "*fp32 i32", "B=16", 1, "Expected shape/strides/offsets/block_shape to have the same length");
    expect_error(&k_bp_store_type, "*fp32 i32", "B=16", 1, "Block element type(fp32) and value element type(fp16) mismatch");
}

static void t_tensor_desc_rules(void **s)
{
    (void)s;
    expect_error(&k_td_stride, "*fp32 i32", "B=16", 1, "Tensor descriptor last dim must be 1 but got 2");
    expect_error(&k_td_narrow, "*fp32 i32", "B=16", 1, "at least 16 bytes in the last dimension, but got 2 * 4 = 8 bytes");
    expect_error(&k_td_offsets, "*fp32 i32", "B=16", 1, "expected 2 offsets, but got 1");
    expect_error(&k_td_shape, "*fp32 i32", "B=16", 1, "a descriptor store needs a value of the block's shape");
}

static void expect_unlisted(const tl_kernel_def *k, const char *sig, const char *cx,
                            const char *var, const char *macro, const char *where)
{
    expect_error(k, sig, cx, 1, where); /* the build sets ctl_line */
    char want[256];
    snprintf(want, sizeof want, "%s is reassigned inside %s but not listed as carried: list it in the %s at line %d",
             var, macro, macro, ctl_line);
    expect_error(k, sig, cx, 1, want);
}

static void t_unlisted_carried(void **s)
{
    (void)s;
    expect_unlisted(&k_unlisted_for, "*fp32 *fp32 i32", "B=64", "acc", "TL_FOR", "after the loop");
    expect_unlisted(&k_unlisted_while, "*fp32 i32", "B=64", "acc", "TL_WHILE", "after the loop");
    expect_unlisted(&k_unlisted_if, "*fp32 i32", "", "x", "TL_IF", "outside it");
    expect_unlisted(&k_unlisted_else, "*fp32 i32", "", "x", "TL_IF", "in the other branch");
    expect_unlisted(&k_unlisted_outer, "*fp32 i32", "", "s", "TL_FOR", "after the loop");
    expect_unlisted(&k_unlisted_then_carried, "*fp32 i32", "", "s", "TL_FOR", "after the loop");
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(&k_listed_ok, "*fp32 i32", "", NULL, &d);
    assert_non_null(m);
    ct_module_destroy(m);
    ct_diags_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_exp_of_int),        cmocka_unit_test(t_load_mask),
        cmocka_unit_test(t_store_mask),        cmocka_unit_test(t_store_narrowing),
        cmocka_unit_test(t_broadcast),         cmocka_unit_test(t_dot_inner),
        cmocka_unit_test(t_axis),              cmocka_unit_test(t_constexpr_as_tensor),
        cmocka_unit_test(t_tensor_as_constexpr), cmocka_unit_test(t_one_report_per_mistake),
        cmocka_unit_test(t_two_mistakes),      cmocka_unit_test(t_static_assert),
        cmocka_unit_test(t_loop_type),         cmocka_unit_test(t_return_in_loop),
        cmocka_unit_test(t_bad_signature),   cmocka_unit_test(t_positional_options),
        cmocka_unit_test(t_jit_arity),         cmocka_unit_test(t_user_combine),
        cmocka_unit_test(t_sort_rules),        cmocka_unit_test(t_block_ptr_rules),
        cmocka_unit_test(t_tensor_desc_rules), cmocka_unit_test(t_unlisted_carried),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
