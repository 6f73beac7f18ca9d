/*
 * Conformance kernels: the C twins of tests/conformance/conformance.py,
 * statement for statement, one construct of triton.language after another.
 * The fidelity harness checks that each lowers to the same code as its
 * Python original.
 */
#include <math.h>
#include <string.h>

#include "ctriton/registry.h"

TL_KERNEL(cf_if_else, (x_ptr, y_ptr, n), (int, BLOCK))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor s = tl_load(tl_add(x_ptr, pid));
    tl_tensor t = tl_mul(s, 2);
    TL_IF(tl_eq(pid, 0), s, t) {
        s = tl_add(s, 1);
    } TL_ELSE {
        s = tl_sub(s, 1);
        t = tl_mul(t, 3);
    }
    TL_IF(tl_gt(pid, n), s) {
        s = tl_mul(s, t);
    }
    tl_store(tl_add(y_ptr, pid), tl_add(s, t));
}

TL_KERNEL(cf_while, (x_ptr, y_ptr, n))
{
    tl_tensor i = tl_to_tensor(0); /* Python: `i = 0` makes a tensor */
    tl_tensor acc = tl_load(x_ptr);
    TL_WHILE(tl_lt(i, n), i, acc) {
        acc = tl_mul(acc, 2.0);
        i = tl_add(i, 1);
    }
    tl_store(y_ptr, acc);
}

TL_KERNEL(cf_early_return, (x_ptr, y_ptr, n), (int, BLOCK))
{
    tl_tensor pid = tl_program_id(0);
    TL_IF(tl_ge(tl_mul(pid, BLOCK), n)) {
        TL_RETURN();
    }
    tl_tensor offs = tl_add(tl_mul(pid, BLOCK), tl_arange(0, BLOCK));
    tl_store(tl_add(y_ptr, offs), tl_load(tl_add(x_ptr, offs), .mask = tl_lt(offs, n)), .mask = tl_lt(offs, n));
}

TL_KERNEL(cf_ternary_nested, (x_ptr, y_ptr, n), (int, BLOCK))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor v = tl_load(tl_add(x_ptr, pid));
    tl_tensor w = TL_IFEXP(tl_eq(tl_mod(pid, 2), 0), v, tl_mul(v, 2.0));
    tl_tensor acc = tl_zeros(tl_shape(BLOCK), tl_float32);
    TL_FOR(i, tl_range(0, n, 1), acc) {
        TL_FOR(j, tl_range(0, 4, 1, .loop_unroll_factor = 2), acc) {
            acc = tl_add(acc, tl_mul(w, j));
        }
        acc = tl_sub(acc, i);
    }
    TL_FOR(k, tl_range(8, 0, -2), acc) {
        acc = tl_add(acc, k);
    }
    tl_store(tl_add(y_ptr, tl_arange(0, BLOCK)), acc);
}

TL_KERNEL(ops_int, (a_ptr, b_ptr, c_ptr, u_ptr, n), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor a = tl_load(tl_add(a_ptr, offs));
    tl_tensor b = tl_load(tl_add(b_ptr, offs));
    tl_tensor u = tl_load(tl_add(u_ptr, offs));
    tl_tensor c = tl_sub(tl_add(tl_floordiv(a, b), tl_mod(a, b)), tl_neg(a));
    c = tl_add(tl_add(tl_add(c, tl_shl(a, 2)), tl_shr(a, 1)), tl_invert(a));
    c = tl_add(tl_add(tl_add(c, tl_and(a, b)), tl_or(a, b)), tl_xor(a, b));
    c = tl_add(tl_add(tl_add(c, tl_minimum(a, b)), tl_maximum(a, 7)), tl_abs(a));
    c = tl_add(c, tl_to(tl_umulhi(u, u), tl_int32));
    tl_tensor d = tl_add(tl_add(tl_floordiv(u, 3), tl_mod(u, 5)), tl_shr(u, 3));
    tl_tensor e = tl_add(tl_mul(tl_to(a, tl_int64), 3), n);
    /* (a > b) & (a >= 0) | (a < n) ^ (a <= b): & binds tighter than ^, ^ than | */
    tl_tensor f = tl_or(tl_and(tl_gt(a, b), tl_ge(a, 0)), tl_xor(tl_lt(a, n), tl_le(a, b)));
    f = tl_or(tl_or(f, tl_eq(a, 1)), tl_ne(a, b));
    tl_tensor g = tl_add(tl_where(f, c, tl_to(d, tl_int32)), tl_to(e, tl_int32));
    g = tl_add(tl_add(g, tl_to(tl_to(a, tl_int8), tl_int32)), tl_to(tl_to(a, tl_uint16), tl_int32));
    tl_store(tl_add(c_ptr, offs), tl_add(g, tl_mul(tl_sub(1, a), 2)));
}

TL_KERNEL(ops_float, (x_ptr, h_ptr, b_ptr, y_ptr, scale), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor h = tl_load(tl_add(h_ptr, offs));
    tl_tensor b = tl_load(tl_add(b_ptr, offs));
    tl_tensor y = tl_add(tl_add(tl_add(tl_exp(x), tl_exp2(x)), tl_log(x)), tl_log2(x));
    y = tl_add(tl_add(tl_add(y, tl_sqrt(x)), tl_sqrt_rn(x)), tl_rsqrt(x));
    y = tl_add(tl_add(tl_add(y, tl_sin(x)), tl_cos(x)), tl_erf(x));
    y = tl_add(tl_add(tl_add(tl_add(y, tl_floor(x)), tl_ceil(x)), tl_abs(x)), tl_sigmoid(x));
    y = tl_add(tl_add(tl_add(y, tl_fma(x, x, 1.0)), tl_fdiv(x, 3.0)), tl_div_rn(x, x));
    y = tl_add(tl_add(tl_add(y, tl_mod(x, 2.0)), tl_div(x, 3)), tl_div(2, x));
    y = tl_add(tl_add(y, tl_minimum(x, 0.5)), tl_maximum(x, 0.5, .propagate_nan = TL_PROPAGATE_NAN_ALL));
    y = tl_add(y, tl_clamp(x, -1.0, 1.0));
    y = tl_add(tl_add(tl_add(y, tl_to(tl_mul(h, 2), tl_float32)), tl_div(h, h)), tl_to(tl_add(b, b), tl_float32));
    y = tl_add(tl_add(y, tl_add(h, b)), tl_mul(h, scale));
    y = tl_add(tl_add(tl_add(y, tl_libdevice("pow", x, 2.0)), tl_libdevice("pow", x, 3)), tl_libdevice("tanh", x));
    y = tl_add(tl_add(tl_where(tl_gt(x, 0.5), y, tl_neg(y)), tl_to(tl_ne(x, x), tl_float32)), tl_to(tl_lt(h, 1), tl_float32));
    tl_store(tl_add(y_ptr, offs), tl_add(tl_add(tl_add(y, 1e-6), 1e300 * 0), pow(2.0, 0.5)));
}

TL_KERNEL(ops_cast, (x_ptr, y_ptr, q_ptr), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor h = tl_to(x, tl_float16);
    tl_tensor b = tl_to(x, tl_bfloat16);
    tl_tensor f8 = tl_to(x, tl_float8e4nv);
    tl_tensor f5 = tl_to(h, tl_float8e5);
    tl_tensor z = tl_to(x, tl_float16, .fp_downcast_rounding = "rtz");
    tl_tensor i = tl_to(x, tl_int32);
    tl_tensor u = tl_to(x, tl_uint8);
    tl_tensor bits = tl_to(x, tl_int32, .bitcast = true);
    tl_tensor back = tl_to(bits, tl_float32, .bitcast = true);
    tl_tensor flag = tl_to(x, tl_int1);
    tl_tensor d = tl_to(x, tl_float64);
    tl_tensor y = tl_add(tl_add(tl_to(h, tl_float32), tl_to(b, tl_float32)), tl_to(f8, tl_float32));
    y = tl_add(tl_add(tl_add(y, tl_to(f5, tl_float32)), tl_to(z, tl_float32)), tl_to(i, tl_float32));
    y = tl_add(tl_add(tl_add(tl_add(y, tl_to(u, tl_float32)), back), tl_to(flag, tl_float32)), tl_to(d, tl_float32));
    tl_store(tl_add(y_ptr, offs), y);
    tl_store(tl_add(q_ptr, offs), f8);
}

TL_KERNEL(ops_reduce, (x_ptr, i_ptr, y_ptr), (int, BLOCK_M), (int, BLOCK_N))
{
    tl_tensor rows = tl_arange(0, BLOCK_M);
    tl_tensor cols = tl_arange(0, BLOCK_N);
    tl_tensor x = tl_load(tl_add(tl_add(x_ptr, tl_mul(tl_idx(rows, ":, None"), BLOCK_N)), tl_idx(cols, "None, :")));
    tl_tensor iv = tl_load(tl_add(tl_add(i_ptr, tl_mul(tl_idx(rows, ":, None"), BLOCK_N)), tl_idx(cols, "None, :")));
    tl_tensor a = tl_add(tl_add(tl_sum(x, .axis = 1), tl_max(x, .axis = 1)), tl_min(x, .axis = 1));
    tl_tensor b = tl_sum(x, .axis = 0, .keep_dims = true);
    tl_tensor c = tl_add(tl_argmax(x, 1), tl_argmin(x, 1, .tie_break_left = false));
    tl_tensor v, idx;
    tl_max_with_indices(x, &v, &idx, .axis = 1);
    tl_tensor d = tl_add(tl_cumsum(x, .axis = 1), tl_cumprod(x, .axis = 1, .reverse = true));
    tl_tensor e = tl_add(tl_add(tl_xor_sum(iv, .axis = 0), tl_reduce_or(iv, 0)), tl_sum(tl_to(iv, tl_int8), .axis = 0));
    tl_tensor s = tl_add(tl_add(tl_sum(x), tl_max(x)), tl_to(tl_sum(x, .axis = 1, .dtype = tl_float64), tl_float32));
    tl_store(tl_add(y_ptr, rows), tl_add(tl_add(tl_add(tl_add(a, tl_to(c, tl_float32)), v), tl_to(idx, tl_float32)), s));
    tl_store(tl_add(tl_add(y_ptr, tl_mul(tl_idx(rows, ":, None"), BLOCK_N)), tl_idx(cols, "None, :")), tl_add(d, b));
    tl_store(tl_add(i_ptr, cols), e);
}

TL_JIT(add_combine, (a, b))
{
    return tl_add(a, b);
}

TL_JIT(max_combine, (a, b))
{
    return tl_maximum(a, b);
}

TL_KERNEL(ops_combine, (x_ptr, y_ptr, z_ptr), (int, BLOCK_M), (int, BLOCK_N))
{
    tl_tensor rows = tl_arange(0, BLOCK_M);
    tl_tensor cols = tl_arange(0, BLOCK_N);
    tl_tensor x = tl_load(tl_add(tl_add(x_ptr, tl_mul(tl_idx(rows, ":, None"), BLOCK_N)), tl_idx(cols, "None, :")));
    tl_tensor m = tl_reduce(x, 1, max_combine, .keep_dims = true);
    tl_tensor s = tl_reduce(x, TL_AXIS_NONE, add_combine);
    tl_tensor c = tl_associative_scan(x, 1, add_combine, .reverse = true);
    tl_tensor t = tl_associative_scan(x, -2, max_combine);
    tl_store(tl_add(tl_add(y_ptr, tl_mul(tl_idx(rows, ":, None"), BLOCK_N)), tl_idx(cols, "None, :")), tl_sub(tl_add(c, t), m));
    tl_store(z_ptr, s);
}

TL_KERNEL(ops_sort, (x_ptr, i_ptr, y_ptr, j_ptr), (int, BLOCK_M), (int, BLOCK_N), (int, K))
{
    tl_tensor rows = tl_arange(0, BLOCK_M);
    tl_tensor cols = tl_arange(0, BLOCK_N);
    tl_tensor offs = tl_add(tl_mul(tl_idx(rows, ":, None"), BLOCK_N), tl_idx(cols, "None, :"));
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor iv = tl_load(tl_add(i_ptr, offs));
    tl_store(tl_add(y_ptr, offs), tl_sort(x));
    tl_store(tl_add(tl_add(y_ptr, BLOCK_M * BLOCK_N), offs), tl_sort(x, .descending = true));
    tl_store(tl_add(tl_add(y_ptr, 2 * BLOCK_M * BLOCK_N), offs), tl_flip(x, 0));
    tl_store(tl_add(tl_add(y_ptr, 3 * BLOCK_M * BLOCK_N), offs), tl_bitonic_merge(x));
    tl_tensor top = tl_to(tl_topk(x, K), tl_dtype_of(x)); /* topk of fp16 comes back as fp32 (its max promotes) */
    tl_store(tl_add(tl_add(tl_add(y_ptr, 4 * BLOCK_M * BLOCK_N), tl_mul(tl_idx(rows, ":, None"), K)), tl_idx(tl_arange(0, K), "None, :")), top);
    tl_store(tl_add(j_ptr, offs), tl_add(tl_sort(iv, .dim = 1), tl_flip(iv, -1)));
}

TL_KERNEL(ops_block_ptr, (a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                          stride_cm, stride_cn), (int, BLOCK_M), (int, BLOCK_N), (int, BLOCK_K))
{
    tl_tensor pid_m = tl_program_id(0);
    tl_tensor pid_n = tl_program_id(1);
    tl_tensor a_block_ptr = tl_make_block_ptr(a_ptr, tl_tuple(M, K), tl_tuple(stride_am, stride_ak),
                                              tl_tuple(tl_mul(pid_m, BLOCK_M), 0), tl_shape(BLOCK_M, BLOCK_K), tl_ints(1, 0));
    tl_tensor b_block_ptr = tl_make_block_ptr(b_ptr, tl_tuple(K, N), tl_tuple(stride_bk, stride_bn),
                                              tl_tuple(0, tl_mul(pid_n, BLOCK_N)), tl_shape(BLOCK_K, BLOCK_N), tl_ints(1, 0));
    tl_tensor acc = tl_zeros(tl_shape(BLOCK_M, BLOCK_N), tl_float32);
    TL_FOR(k, tl_range(0, K, BLOCK_K), a_block_ptr, b_block_ptr, acc)
    {
        tl_tensor a = tl_load(a_block_ptr, .boundary_check = tl_ints(0, 1), .padding_option = "zero");
        tl_tensor b = tl_load(b_block_ptr, .boundary_check = tl_ints(1, 0), .padding_option = "zero");
        acc = tl_add(acc, tl_dot(a, b));
        a_block_ptr = tl_advance(a_block_ptr, tl_tuple(0, BLOCK_K));
        b_block_ptr = tl_advance(b_block_ptr, tl_tuple(BLOCK_K, 0));
    }
    tl_tensor c_block_ptr = tl_make_block_ptr(c_ptr, tl_tuple(M, N), tl_tuple(stride_cm, stride_cn),
                                              tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)), tl_shape(BLOCK_M, BLOCK_N),
                                              tl_ints(1, 0));
    tl_store(c_block_ptr, tl_to(acc, tl_float16), .boundary_check = tl_ints(0, 1));
}

TL_KERNEL(ops_block_ptr_desc, (a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                               stride_cm, stride_cn), (int, BLOCK_M), (int, BLOCK_N), (int, BLOCK_K))
{
    /* ops_block_ptr with tensor descriptors, as Triton 3.9 asks in place of block pointers
     * (out-of-bounds elements read as zero, like boundary_check with padding "zero") */
    tl_tensor pid_m = tl_program_id(0);
    tl_tensor pid_n = tl_program_id(1);
    tl_tensor a_desc = tl_make_tensor_descriptor(a_ptr, tl_tuple(M, K), tl_tuple(stride_am, stride_ak),
                                                 tl_shape(BLOCK_M, BLOCK_K));
    tl_tensor b_desc = tl_make_tensor_descriptor(b_ptr, tl_tuple(K, N), tl_tuple(stride_bk, stride_bn),
                                                 tl_shape(BLOCK_K, BLOCK_N));
    tl_tensor acc = tl_zeros(tl_shape(BLOCK_M, BLOCK_N), tl_float32);
    TL_FOR(k, tl_range(0, K, BLOCK_K), acc)
    {
        tl_tensor a = tl_desc_load(a_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), k));
        tl_tensor b = tl_desc_load(b_desc, tl_tuple(k, tl_mul(pid_n, BLOCK_N)));
        acc = tl_add(acc, tl_dot(a, b));
    }
    tl_tensor c_desc = tl_make_tensor_descriptor(c_ptr, tl_tuple(M, N), tl_tuple(stride_cm, stride_cn),
                                                 tl_shape(BLOCK_M, BLOCK_N));
    tl_desc_store(c_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)), tl_to(acc, tl_float16));
}

TL_KERNEL(ops_tensor_desc, (a_ptr, c_ptr, M, N, stride_am, stride_cm), (int, BLOCK_M), (int, BLOCK_N))
{
    tl_tensor pid_m = tl_program_id(0);
    tl_tensor pid_n = tl_program_id(1);
    tl_tensor a_desc = tl_make_tensor_descriptor(a_ptr, tl_tuple(M, N), tl_tuple(stride_am, 1), tl_shape(BLOCK_M, BLOCK_N));
    tl_tensor c_desc = tl_make_tensor_descriptor(c_ptr, tl_tuple(M, N), tl_tuple(stride_cm, 1), tl_shape(BLOCK_M, BLOCK_N));
    tl_tensor a = tl_desc_load(a_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)));
    tl_desc_store(c_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)), tl_mul(a, 2));
}

TL_KERNEL(ops_extras, (x_ptr, y_ptr, r_ptr, i_ptr, seed), (int, BLOCK_M), (int, BLOCK_N), (int, GROUP))
{
    tl_tensor rows = tl_arange(0, BLOCK_M);
    tl_tensor cols = tl_arange(0, BLOCK_N);
    tl_tensor offs = tl_add(tl_mul(tl_idx(rows, ":, None"), BLOCK_N), tl_idx(cols, "None, :"));
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_store(tl_add(y_ptr, offs), tl_softmax(x, .dim = 1, .keep_dims = true));
    tl_store(tl_add(tl_add(y_ptr, BLOCK_M * BLOCK_N), cols), tl_softmax(tl_load(tl_add(x_ptr, cols))));
    tl_tensor new_i, new_j;
    TL_UNPACK(tl_swizzle2d(tl_idx(rows, ":, None"), tl_idx(cols, "None, :"), BLOCK_M, BLOCK_N, GROUP), new_i, new_j);
    tl_store(tl_add(i_ptr, offs), tl_add(tl_mul(new_i, BLOCK_N), new_j));
    tl_tensor u[4], n[4], c[4], g[2];
    tl_rand4x(seed, offs, u);
    tl_randn4x(seed, offs, n);
    tl_philox(seed, offs, 0, 0, 0, c);
    tl_tensor f = tl_uint_to_uniform_float(c[0]);
    tl_pair_uniform_to_normal(u[0], u[1], g);
    tl_tensor v = tl_rand(seed, offs, .n_rounds = 7);
    tl_store(tl_add(r_ptr, offs),
             tl_add(tl_add(tl_add(tl_add(tl_add(tl_add(tl_add(tl_add(tl_add(tl_add(tl_add(u[0], u[1]), u[2]), u[3]), n[0]), n[1]), n[2]), n[3]), f), g[0]), g[1]), v));
}

TL_KERNEL(ops_inline_asm, (x_ptr, y_ptr, a_ptr, b_ptr, c_ptr, d_ptr), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    // rotate left by 3 (a funnel shift of x with itself); the 3 is broadcast like x
    tl_tensor y = tl_inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r", tl_tuple(x, x, 3), tl_int32,
                                            true, 1);
    tl_store(tl_add(y_ptr, offs), y);
    tl_tensor a = tl_load(tl_add(a_ptr, offs));
    tl_tensor b = tl_load(tl_add(b_ptr, offs));
    // four uint8 of a packed in one register: c = a, d = max(float(a), b)
    tl_tensor c, d;
    TL_UNPACK(tl_inline_asm_elementwise(
        "{ .reg .b8 t<4>; mov.b32 {t0, t1, t2, t3}, $8; cvt.u32.u8 $0, t0; cvt.u32.u8 $1, t1; "
        "cvt.u32.u8 $2, t2; cvt.u32.u8 $3, t3; } cvt.rn.f32.s32 $4, $0; cvt.rn.f32.s32 $5, $1; "
        "cvt.rn.f32.s32 $6, $2; cvt.rn.f32.s32 $7, $3; max.f32 $4, $4, $9; max.f32 $5, $5, $10; "
        "max.f32 $6, $6, $11; max.f32 $7, $7, $12;", "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r",
        tl_tuple(a, b), tl_dtypes(tl_int32, tl_float32), true, 4), c, d);
    tl_store(tl_add(c_ptr, offs), c);
    tl_store(tl_add(d_ptr, offs), d);
}

TL_KERNEL(ops_host_desc, (a_desc, c_desc), (int, BLOCK_M), (int, BLOCK_N))
{
    tl_tensor pid_m = tl_program_id(0);
    tl_tensor pid_n = tl_program_id(1);
    tl_tensor a = tl_desc_load(a_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)));
    tl_desc_store(c_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)), tl_add(a, 1));
}

TL_KERNEL(ops_persistent_tma, (a_ptr, b_ptr, c_ptr, M, N, K), (int, NUM_SMS), (int, BLOCK_M),
          (int, BLOCK_N), (int, BLOCK_K), (bool, FLATTEN), (bool, WARP_SPECIALIZE))
{
    tl_tensor a_desc = tl_make_tensor_descriptor(a_ptr, tl_tuple(M, K), tl_tuple(K, 1), tl_shape(BLOCK_M, BLOCK_K));
    tl_tensor b_desc = tl_make_tensor_descriptor(b_ptr, tl_tuple(N, K), tl_tuple(K, 1), tl_shape(BLOCK_N, BLOCK_K));
    tl_tensor c_desc = tl_make_tensor_descriptor(c_ptr, tl_tuple(M, N), tl_tuple(N, 1), tl_shape(BLOCK_M, BLOCK_N / 2));
    tl_tensor start_pid = tl_program_id(0);
    tl_tensor num_pid_m = tl_cdiv(M, BLOCK_M);
    tl_tensor num_pid_n = tl_cdiv(N, BLOCK_N);
    tl_tensor k_tiles = tl_cdiv(K, BLOCK_K);
    tl_tensor num_tiles = tl_mul(num_pid_m, num_pid_n);
    // each program walks over tiles NUM_SMS apart
    TL_FOR(tile_id, tl_range(start_pid, num_tiles, NUM_SMS, .flatten = FLATTEN, .warp_specialize = WARP_SPECIALIZE))
    {
        tl_tensor pid_m = tl_floordiv(tile_id, num_pid_n);
        tl_tensor pid_n = tl_mod(tile_id, num_pid_n);
        tl_tensor offs_am = tl_mul(pid_m, BLOCK_M);
        tl_tensor offs_bn = tl_mul(pid_n, BLOCK_N);
        tl_tensor accumulator = tl_zeros(tl_shape(BLOCK_M, BLOCK_N), tl_float32);
        TL_FOR(ki, tl_range(0, k_tiles, 1), accumulator)
        {
            tl_tensor offs_k = tl_mul(ki, BLOCK_K);
            tl_tensor a = tl_desc_load(a_desc, tl_tuple(offs_am, offs_k));
            tl_tensor b = tl_desc_load(b_desc, tl_tuple(offs_bn, offs_k));
            accumulator = tl_dot(a, tl_T(b), .acc = accumulator);
        }
        // the epilogue in two halves of BLOCK_N // 2 columns
        tl_tensor acc = tl_reshape(accumulator, tl_shape(BLOCK_M, 2, BLOCK_N / 2));
        acc = tl_permute(acc, tl_ints(0, 2, 1));
        tl_tensor acc0, acc1;
        tl_split(acc, &acc0, &acc1);
        tl_desc_store(c_desc, tl_tuple(offs_am, offs_bn), tl_to(acc0, tl_float16));
        tl_desc_store(c_desc, tl_tuple(offs_am, tl_add(offs_bn, BLOCK_N / 2)), tl_to(acc1, tl_float16));
    }
}

TL_KERNEL(ops_shape, (x_ptr, y_ptr), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor a = tl_reshape(x, tl_shape(BLOCK / 16, 16));
    tl_tensor t = tl_trans(a);
    tl_tensor p = tl_permute(a, tl_ints(1, 0));
    tl_tensor j = tl_join(x, x);
    tl_tensor l, r;
    tl_split(j, &l, &r);
    tl_tensor e = tl_expand_dims(x, 0);
    tl_tensor bb = tl_broadcast_to(tl_idx(x, ":, None"), tl_shape(BLOCK, 4));
    tl_tensor c = tl_cat(x, x, .can_reorder = true);
    tl_tensor il = tl_interleave(x, x);
    tl_tensor z = tl_add(tl_add(tl_zeros_like(x), tl_full(tl_shape(BLOCK), 3, tl_float32)), tl_ravel(a));
    tl_tensor g = tl_gather(x, tl_mod(offs, 7), 0);
    tl_tensor h = tl_histogram(tl_mod(offs, 16), 16);
    tl_tensor y = tl_add(tl_add(tl_add(l, r), tl_sum(tl_sum(t, .axis = 0))), tl_sum(tl_sum(p, .axis = 1)));
    y = tl_add(tl_add(tl_add(tl_add(y, tl_sum(e, .axis = 0)), tl_sum(bb, .axis = 1)), z), g);
    y = tl_add(tl_add(tl_add(y, tl_sum(c)), tl_sum(il)), tl_sum(h));
    tl_store(tl_add(y_ptr, offs), y);
}

TL_KERNEL(ops_memory, (x_ptr, y_ptr, i_ptr, b_ptr, n), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    offs = tl_max_contiguous(tl_multiple_of(offs, 16), 16);
    tl_assume(tl_gt(n, 0));
    tl_tensor m = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = m, .other = tl_c(0.0), .cache_modifier = ".cg");
    tl_tensor s = tl_load(x_ptr, .is_volatile = true);
    tl_tensor flags = tl_load(tl_add(b_ptr, offs), .mask = m, .other = TL_FALSE, .eviction_policy = "evict_last");
    tl_store(tl_add(y_ptr, offs), tl_add(x, s), .mask = tl_and(m, flags), .cache_modifier = ".cs");
    tl_store(tl_add(b_ptr, offs), tl_gt(x, 0), .mask = m);
    tl_debug_barrier();
    tl_atomic_add(tl_add(y_ptr, offs), x, .mask = m);
    tl_atomic_max(tl_add(y_ptr, offs), x, .mask = m, .sem = "relaxed", .scope = "cta");
    tl_atomic_min(tl_add(y_ptr, offs), x, .mask = m);
    tl_tensor iv = tl_load(tl_add(i_ptr, offs)); /* lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only */
    tl_atomic_and(tl_add(i_ptr, offs), iv); /* lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only */
    tl_atomic_or(tl_add(i_ptr, offs), iv, .sem = "release"); /* lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only */
    tl_atomic_xor(tl_add(i_ptr, offs), iv, .scope = "sys"); /* lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only */
    tl_atomic_xchg(tl_add(i_ptr, offs), iv); /* lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only */
    tl_atomic_max(tl_add(i_ptr, offs), iv); /* lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only */
    tl_atomic_cas(i_ptr, 0, 1, .sem = "acquire");
    tl_store(tl_add(i_ptr, 1), tl_to(tl_to(tl_add(i_ptr, 3), tl_int64), tl_int32));
}

TL_KERNEL(ops_dot, (a_ptr, b_ptr, c_ptr, f_ptr), (int, M), (int, N), (int, K))
{
    tl_tensor rm = tl_arange(0, M);
    tl_tensor rn = tl_arange(0, N);
    tl_tensor rk = tl_arange(0, K);
    tl_tensor a = tl_load(tl_add(tl_add(a_ptr, tl_mul(tl_idx(rm, ":, None"), K)), tl_idx(rk, "None, :")));
    tl_tensor b = tl_load(tl_add(tl_add(b_ptr, tl_mul(tl_idx(rk, ":, None"), N)), tl_idx(rn, "None, :")));
    tl_tensor c = tl_dot(a, b);
    tl_tensor d = tl_dot(a, b, .out_dtype = tl_float16);
    tl_tensor fa = tl_load(tl_add(tl_add(f_ptr, tl_mul(tl_idx(rm, ":, None"), K)), tl_idx(rk, "None, :")));
    tl_tensor fb = tl_load(tl_add(tl_add(f_ptr, tl_mul(tl_idx(rk, ":, None"), N)), tl_idx(rn, "None, :")));
    tl_tensor e = tl_add(tl_dot(fa, fb, .input_precision = "ieee"), tl_dot(fa, fb, .input_precision = "tf32x3"));
    e = tl_add(e, tl_dot(fa, fb, .acc = c)); /* lint-ok: tf32-dot the default precision is what this case covers */
    tl_store(tl_add(tl_add(c_ptr, tl_mul(tl_idx(rm, ":, None"), N)), tl_idx(rn, "None, :")),
             tl_to(tl_add(tl_add(c, tl_to(d, tl_float32)), e), tl_float16));
}

TL_KERNEL(ops_random, (y_ptr, seed, n), (int, BLOCK))
{
    tl_tensor offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_tensor r = tl_add(tl_add(tl_rand(seed, offs), tl_randn(seed, offs)), tl_to(tl_randint(seed, offs), tl_float32));
    tl_tensor r4[4];
    tl_randint4x(seed, offs, r4);
    r = tl_add(tl_add(r, tl_to(tl_xor(tl_xor(tl_xor(r4[0], r4[1]), r4[2]), r4[3]), tl_float32)), tl_rand(123, tl_to(offs, tl_int64)));
    tl_store(tl_add(y_ptr, offs), r, .mask = tl_lt(offs, n));
}

TL_JIT(scale_shift, (x, scale, shift))
{
    return tl_add(tl_mul(x, scale), shift);
}

TL_JIT_TUPLE(two_values, (x))
{
    return tl_tuple(tl_add(x, 1), tl_mul(x, 2));
}

TL_KERNEL(jit_helpers, (x_ptr, y_ptr), (int, BLOCK), (double, ALPHA), (bool, USE_SHIFT),
          (tl_dtype, DTYPE), (const char *, NAME))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor y = TL_CALL(scale_shift, x, ALPHA, 1.0);
    if (USE_SHIFT)
        y = TL_CALL(scale_shift, y, 2, x);
    tl_tensor a, b;
    TL_UNPACK(TL_CALL_TUPLE(two_values, y), a, b);
    if (NAME && !strcmp(NAME, "double"))
        a = tl_mul(a, 2);
    tl_static_assert(BLOCK >= 16, "BLOCK too small");
    tl_store(tl_add(y_ptr, offs), tl_to(tl_to(tl_add(tl_add(a, b), tl_cdiv(BLOCK, 16)), DTYPE), tl_float32));
}

TL_JIT(convert_as, (x, DT, MODE))
{
    const char *mode = tl_cx_str(MODE);
    if (mode && !strcmp(mode, "double"))
        x = tl_mul(x, 2);
    return tl_to(x, tl_cx_dtype(DT));
}

TL_KERNEL(jit_cx_args, (x_ptr, y_ptr, z_ptr), (int, BLOCK))
{
    // dtypes, strings and an explicit None as constexpr arguments of a helper
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor y = TL_CALL(convert_as, x, tl_float16, "double");
    tl_tensor z = TL_CALL(convert_as, x, tl_bfloat16, TL_NONE);
    tl_store(tl_add(y_ptr, offs), y);
    tl_store(tl_add(z_ptr, offs), z);
}

TL_JIT(selu_scalar, (x, alpha))
{
    tl_tensor y = TL_NONE;
    TL_IF(tl_gt(x, 0), y) {
        y = x;
    } TL_ELSE {
        y = tl_mul(alpha, tl_sub(tl_exp(x), 1));
    }
    return y;
}

TL_JIT_TUPLE(pair_scalar, (a0, a1, b0, b1))
{
    tl_tensor s0 = TL_NONE;
    TL_IF(tl_gt(a0, b0), s0) {
        s0 = tl_sub(a0, b0);
    } TL_ELSE {
        s0 = tl_sub(b0, a0);
    }
    return tl_tuple(s0, tl_add(a1, b1), tl_mul(a0, b0), tl_mul(a1, b1));
}

TL_KERNEL(ops_map_elementwise, (x_ptr, y_ptr, s_ptr, p_ptr, alpha), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor y = tl_load(tl_add(y_ptr, offs));
    tl_store(tl_add(s_ptr, offs), tl_map_elementwise(selu_scalar, (x, alpha)));
    tl_tensor s, p;
    TL_UNPACK(tl_map_elementwise(pair_scalar, (x, y), .pack = 2), s, p);
    tl_store(tl_add(p_ptr, offs), tl_mul(s, p));
}

TL_KERNEL(ops_desc_atomic, (a_ptr, i_ptr, M, N, stride_m), (int, BLOCK_M), (int, BLOCK_N))
{
    tl_tensor pid_m = tl_program_id(0);
    tl_tensor pid_n = tl_program_id(1);
    tl_tensor a_desc = tl_make_tensor_descriptor(a_ptr, tl_tuple(M, N), tl_tuple(stride_m, 1), tl_shape(BLOCK_M, BLOCK_N));
    tl_tensor i_desc = tl_make_tensor_descriptor(i_ptr, tl_tuple(M, N), tl_tuple(stride_m, 1), tl_shape(BLOCK_M, BLOCK_N));
    tl_tensor rows = tl_idx(tl_arange(0, BLOCK_M), ":, None");
    tl_tensor cols = tl_idx(tl_arange(0, BLOCK_N), "None, :");
    tl_tensor k = tl_sub(tl_mul(rows, 3), cols);
    tl_desc_atomic_add(a_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)), tl_to(tl_mul(k, 0.5), tl_float32));
    tl_desc_atomic_max(i_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)), k);
    tl_desc_atomic_min(i_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)), tl_add(k, 40));
    tl_desc_atomic_xor(i_desc, tl_tuple(tl_mul(pid_m, BLOCK_M), tl_mul(pid_n, BLOCK_N)), tl_and(k, 7));
}

/* ---- configs --------------------------------------------------------- */
TL_CONFIGS(cf_if_else, {.name = "B16", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32", .constexprs = "BLOCK=16"});
TL_CONFIGS(cf_while, {.name = "default", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32"});
TL_CONFIGS(cf_early_return, {.name = "B128", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32", .constexprs = "BLOCK=128"});
TL_CONFIGS(cf_ternary_nested, {.name = "B64", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32", .constexprs = "BLOCK=64"});
TL_CONFIGS(ops_int, {.name = "B64", .signature = "a_ptr=*i32:16 b_ptr=*i32:16 c_ptr=*i32:16 u_ptr=*u32:16 n=i32", .constexprs = "BLOCK=64"});
TL_CONFIGS(ops_float, {.name = "B64", .signature = "x_ptr=*fp32:16 h_ptr=*fp16:16 b_ptr=*bf16:16 y_ptr=*fp32:16 scale=fp32", .constexprs = "BLOCK=64"});
TL_CONFIGS(ops_cast, {.name = "B64", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 q_ptr=*fp8e4nv:16", .constexprs = "BLOCK=64"});
TL_CONFIGS(ops_reduce, {.name = "8x32", .signature = "x_ptr=*fp32:16 i_ptr=*i32:16 y_ptr=*fp32:16", .constexprs = "BLOCK_M=8 BLOCK_N=32"});
TL_CONFIGS(ops_combine, {.name = "8x32", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 z_ptr=*fp32:16", .constexprs = "BLOCK_M=8 BLOCK_N=32"});
TL_CONFIGS(ops_sort,
    {.name = "4x16_k4", .signature = "x_ptr=*fp32:16 i_ptr=*i32:16 y_ptr=*fp32:16 j_ptr=*i32:16", .constexprs = "BLOCK_M=4 BLOCK_N=16 K=4"},
    {.name = "2x64_k8_fp16", .signature = "x_ptr=*fp16:16 i_ptr=*i32:16 y_ptr=*fp16:16 j_ptr=*i32:16", .constexprs = "BLOCK_M=2 BLOCK_N=64 K=8"});
TL_CONFIGS(ops_block_ptr,
    {.name = "64x64x32_tail", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32 N=i32 K=i32 stride_am=i32 stride_ak=1 stride_bk=i32 stride_bn=1 stride_cm=i32 stride_cn=1",
     .constexprs = "BLOCK_M=64 BLOCK_N=64 BLOCK_K=32", .problem = "M=100 N=72 K=90"});
TL_CONFIGS(ops_block_ptr_desc,
    {.name = "64x64x32_tail", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32 N=i32 K=i32 stride_am=i32:16 stride_ak=1 stride_bk=i32:16 stride_bn=1 stride_cm=i32:16 stride_cn=1",
     .constexprs = "BLOCK_M=64 BLOCK_N=64 BLOCK_K=32", .problem = "M=100 N=72 K=88"});
TL_CONFIGS(ops_tensor_desc,
    {.name = "64x64_tail", .signature = "a_ptr=*fp16:16 c_ptr=*fp16:16 M=i32 N=i32 stride_am=i32:16 stride_cm=i32:16",
     .constexprs = "BLOCK_M=64 BLOCK_N=64", .problem = "M=100 N=80"});
TL_CONFIGS(ops_extras,
    {.name = "8x16_g3", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 r_ptr=*fp32:16 i_ptr=*i32:16 seed=i32", .constexprs = "BLOCK_M=8 BLOCK_N=16 GROUP=3"});
TL_CONFIGS(ops_inline_asm,
    {.name = "B256", .signature = "x_ptr=*i32:16 y_ptr=*i32:16 a_ptr=*u8:16 b_ptr=*fp32:16 c_ptr=*i32:16 d_ptr=*fp32:16", .constexprs = "BLOCK=256"});
TL_CONFIGS(ops_host_desc,
    {.name = "64x32_fp32", .signature = "a_desc=tensordesc<fp32[64,32]> c_desc=tensordesc<fp32[64,32]>",
     .constexprs = "BLOCK_M=64 BLOCK_N=32", .problem = "M=100 N=80"});
TL_CONFIGS(ops_persistent_tma,
    {.name = "128x128x64_ws", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32 N=i32 K=i32",
     .constexprs = "NUM_SMS=8 BLOCK_M=128 BLOCK_N=128 BLOCK_K=64 FLATTEN=True WARP_SPECIALIZE=True",
     .problem = "M=300 N=264 K=200", .num_warps = 4, .num_stages = 3},
    {.name = "64x64x32", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 M=i32 N=i32 K=i32",
     .constexprs = "NUM_SMS=5 BLOCK_M=64 BLOCK_N=64 BLOCK_K=32 FLATTEN=False WARP_SPECIALIZE=False",
     .problem = "M=200 N=136 K=104", .num_warps = 4, .num_stages = 3});
TL_CONFIGS(ops_map_elementwise, {.name = "B256", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 s_ptr=*fp32:16 p_ptr=*fp32:16 alpha=fp32", .constexprs = "BLOCK=256"});
TL_CONFIGS(ops_desc_atomic,
    {.name = "64x32_tail", .signature = "a_ptr=*fp32:16 i_ptr=*i32:16 M=i32 N=i32 stride_m=i32:16",
     .constexprs = "BLOCK_M=64 BLOCK_N=32", .problem = "M=100 N=80"});
TL_CONFIGS(ops_shape, {.name = "B64", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16", .constexprs = "BLOCK=64"});
TL_CONFIGS(ops_memory, {.name = "B64", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 i_ptr=*i32:16 b_ptr=*i1:16 n=i32", .constexprs = "BLOCK=64"});
TL_CONFIGS(ops_dot, {.name = "32x32x16", .signature = "a_ptr=*fp16:16 b_ptr=*fp16:16 c_ptr=*fp16:16 f_ptr=*fp32:16", .constexprs = "M=32 N=32 K=16"});
TL_CONFIGS(ops_random, {.name = "B256", .signature = "y_ptr=*fp32:16 seed=i32 n=i32", .constexprs = "BLOCK=256"});
TL_CONFIGS(jit_cx_args, {.name = "B64", .signature = "x_ptr=*fp32:16 y_ptr=*fp16:16 z_ptr=*bf16:16", .constexprs = "BLOCK=64", .problem = "N=64"});
TL_CONFIGS(jit_helpers,
    {.name = "shift_fp16", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16", .constexprs = "BLOCK=64 ALPHA=0.5 USE_SHIFT=True DTYPE=fp16 NAME='double'"},
    {.name = "plain_bf16", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16", .constexprs = "BLOCK=32 ALPHA=3.0 USE_SHIFT=False DTYPE=bf16 NAME=None"});
