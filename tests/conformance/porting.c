/*
 * Conformance kernels for what real kernels do (issue 9), the C twins of
 * tests/conformance/porting.py, statement for statement: long parameter and
 * carried-variable lists, None arguments, ...
 */
#include <string.h>

#include "ctriton/registry.h"

TL_KERNEL(port_many_params, (x0, x1, x2, x3, x4, x5, x6, x7, x8, x9,
                             s0, s1, s2, s3, s4, s5, s6, s7, s8, s9,
                             w0, w1, w2, w3, w4, w5, w6, w7, w8, w9,
                             y0, y1, y2, y3, y4, y5, y6, y7, y8, y9,
                             n, k_iters), (int, BLOCK))
{
    tl_tensor offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor p0 = tl_add(x0, tl_mul(offs, s0)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p1 = tl_add(x1, tl_mul(offs, s1)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p2 = tl_add(x2, tl_mul(offs, s2)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p3 = tl_add(x3, tl_mul(offs, s3)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p4 = tl_add(x4, tl_mul(offs, s4)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p5 = tl_add(x5, tl_mul(offs, s5)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p6 = tl_add(x6, tl_mul(offs, s6)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p7 = tl_add(x7, tl_mul(offs, s7)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p8 = tl_add(x8, tl_mul(offs, s8)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor p9 = tl_add(x9, tl_mul(offs, s9)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor a0 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a1 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a2 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a3 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a4 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a5 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a6 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a7 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a8 = tl_zeros(tl_shape(BLOCK), tl_float32);
    tl_tensor a9 = tl_zeros(tl_shape(BLOCK), tl_float32);
    TL_FOR(k, tl_range(0, k_iters, 1), p0, p1, p2, p3, p4, p5, p6, p7, p8, p9,
           a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) {
        a0 = tl_add(a0, tl_mul(tl_load(p0, .mask = mask, .other = tl_c(0.0)), w0));
        a1 = tl_add(a1, tl_mul(tl_load(p1, .mask = mask, .other = tl_c(0.0)), w1));
        a2 = tl_add(a2, tl_mul(tl_load(p2, .mask = mask, .other = tl_c(0.0)), w2));
        a3 = tl_add(a3, tl_mul(tl_load(p3, .mask = mask, .other = tl_c(0.0)), w3));
        a4 = tl_add(a4, tl_mul(tl_load(p4, .mask = mask, .other = tl_c(0.0)), w4));
        a5 = tl_add(a5, tl_mul(tl_load(p5, .mask = mask, .other = tl_c(0.0)), w5));
        a6 = tl_add(a6, tl_mul(tl_load(p6, .mask = mask, .other = tl_c(0.0)), w6));
        a7 = tl_add(a7, tl_mul(tl_load(p7, .mask = mask, .other = tl_c(0.0)), w7));
        a8 = tl_add(a8, tl_mul(tl_load(p8, .mask = mask, .other = tl_c(0.0)), w8));
        a9 = tl_add(a9, tl_mul(tl_load(p9, .mask = mask, .other = tl_c(0.0)), w9));
        p0 = tl_add(p0, 1);
        p1 = tl_add(p1, 1);
        p2 = tl_add(p2, 1);
        p3 = tl_add(p3, 1);
        p4 = tl_add(p4, 1);
        p5 = tl_add(p5, 1);
        p6 = tl_add(p6, 1);
        p7 = tl_add(p7, 1);
        p8 = tl_add(p8, 1);
        p9 = tl_add(p9, 1);
    }
    tl_store(tl_add(y0, offs), a0, .mask = mask);
    tl_store(tl_add(y1, offs), a1, .mask = mask);
    tl_store(tl_add(y2, offs), a2, .mask = mask);
    tl_store(tl_add(y3, offs), a3, .mask = mask);
    tl_store(tl_add(y4, offs), a4, .mask = mask);
    tl_store(tl_add(y5, offs), a5, .mask = mask);
    tl_store(tl_add(y6, offs), a6, .mask = mask);
    tl_store(tl_add(y7, offs), a7, .mask = mask);
    tl_store(tl_add(y8, offs), a8, .mask = mask);
    tl_store(tl_add(y9, offs), a9, .mask = mask);
}

TL_JIT(_apply_scale, (x, s_ptr))
{
    if (!tl_is_none(s_ptr))
        x = tl_mul(x, tl_load(s_ptr));
    return x;
}

TL_KERNEL(port_none_args, (x_ptr, scale_ptr, idx_ptr, y_ptr, n), (int, BLOCK))
{
    tl_tensor offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor src;
    if (!tl_is_none(idx_ptr))
        src = tl_load(tl_add(idx_ptr, offs), .mask = mask, .other = tl_c(0));
    else
        src = offs;
    tl_tensor x = tl_load(tl_add(x_ptr, src), .mask = mask, .other = tl_c(0.0));
    x = TL_CALL(_apply_scale, x, scale_ptr);
    if (tl_is_none(scale_ptr))
        x = tl_mul(x, 2.0);
    tl_store(tl_add(y_ptr, offs), x, .mask = mask);
}

TL_KERNEL(port_cx_defaults, (x_ptr, y_ptr, n), (int, BLOCK, 64), (double, SCALE, 0.5),
          (bool, BACKWARD, false), (const char *, ACT, "relu"), (tl_dtype, OUT_DTYPE, tl_float16))
{
    tl_tensor offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_mul(tl_load(tl_add(x_ptr, offs), .mask = mask, .other = tl_c(0.0)), SCALE);
    if (ACT && !strcmp(ACT, "relu"))
        x = tl_maximum(x, 0.0);
    if (BACKWARD)
        x = tl_neg(x);
    tl_store(tl_add(y_ptr, offs), tl_to(x, OUT_DTYPE), .mask = mask);
}

TL_JIT(_to_compute, (x))
{
    tl_tensor y;
    if (tl_dtype_is_fp8(tl_dtype_of(x)))
        y = tl_mul(tl_to(x, tl_float32), 0.5);
    else if (tl_dtype_is_bf16(tl_dtype_of(x)))
        y = tl_mul(tl_to(x, tl_float32), 2.0);
    else
        y = tl_mul(x, 1.5);
    return y;
}

TL_KERNEL(port_dtype_dispatch, (x_ptr, y_ptr, n), (int, BLOCK))
{
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = mask);
    tl_tensor y = TL_CALL(_to_compute, x);
    if (tl_primitive_bitwidth(tl_dtype_element_ty(tl_dtype_of(y_ptr))) == 16)
        y = tl_to(y, tl_dtype_element_ty(tl_dtype_of(y_ptr)));
    tl_store(tl_add(y_ptr, offs), y, .mask = mask);
}

TL_KERNEL(port_while_exit, (x_ptr, out_ptr, n, thresh), (int, BLOCK))
{
    tl_tensor row = tl_program_id(0);
    tl_tensor base = tl_add(x_ptr, tl_mul(row, n)); /* lint-ok: int32-offset as in the Python original */
    tl_tensor start = tl_to_tensor(0); /* Python: `start = 0` becomes a carried i32 */
    tl_tensor found = tl_to_tensor(-1);
    tl_tensor done = tl_to_tensor(0);
    TL_WHILE(tl_and(tl_eq(done, 0), tl_lt(start, n)), start, found, done) {
        tl_tensor offs = tl_add(start, tl_arange(0, BLOCK));
        tl_tensor mask = tl_lt(offs, n);
        tl_tensor v = tl_load(tl_add(base, offs), .mask = mask, .other = tl_c(0.0));
        tl_tensor hit = tl_and(tl_gt(v, thresh), mask);
        TL_IF(tl_gt(tl_max(tl_to(hit, tl_int32), .axis = 0), 0), found, done) {
            found = tl_min(tl_where(hit, offs, n), .axis = 0);
            done = tl_to_tensor(1);
        }
        start = tl_add(start, BLOCK);
    }
    tl_store(tl_add(out_ptr, row), found);
}

TL_KERNEL(port_spin_wait, (x_ptr, y_ptr, sums_ptr, flags_ptr, counter_ptr, lock_ptr, total_ptr),
          (int, BLOCK))
{
    tl_tensor tile = tl_atomic_add(counter_ptr, 1);
    tl_tensor offs = tl_add(tl_mul(tile, BLOCK), tl_arange(0, BLOCK));
    tl_tensor x = tl_load(tl_add(x_ptr, offs));
    tl_tensor agg = tl_sum(x, .axis = 0);
    tl_tensor prefix = tl_zeros(tl_shape(), tl_int32);
    TL_IF(tl_gt(tile, 0), prefix) {
        TL_WHILE(tl_eq(tl_atomic_add(tl_sub(tl_add(flags_ptr, tile), 1), 0), 0)) {
        }
        prefix = tl_atomic_add(tl_sub(tl_add(sums_ptr, tile), 1), 0);
    }
    tl_atomic_xchg(tl_add(sums_ptr, tile), tl_add(prefix, agg));
    tl_atomic_xchg(tl_add(flags_ptr, tile), 1);
    tl_store(tl_add(y_ptr, offs), tl_add(tl_cumsum(x, .axis = 0), prefix));
    TL_WHILE(tl_eq(tl_atomic_cas(lock_ptr, 0, 1), 1)) {
    }
    tl_store(total_ptr, tl_add(tl_load(total_ptr), agg));
    tl_debug_barrier();
    tl_atomic_xchg(lock_ptr, 0);
}

TL_KERNEL(port_block_ptr_pad, (x_ptr, sum_ptr, nan_ptr, M, N, stride_m, stride_n),
          (int, BLOCK_M), (int, BLOCK_N))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor x_blk = tl_make_block_ptr(x_ptr, tl_tuple(M, N), tl_tuple(stride_m, stride_n),
                                        tl_tuple(tl_mul(pid, BLOCK_M), 0), tl_shape(BLOCK_M, BLOCK_N), tl_ints(1, 0));
    tl_tensor acc = tl_zeros(tl_shape(BLOCK_M), tl_float32);
    tl_tensor nans = tl_zeros(tl_shape(BLOCK_M), tl_int32);
    TL_FOR(k, tl_range(0, tl_cdiv(N, BLOCK_N), 1), x_blk, acc, nans) {
        tl_tensor z = tl_load(x_blk, .boundary_check = tl_ints(0, 1), .padding_option = "zero");
        acc = tl_add(acc, tl_sum(z, .axis = 1));
        tl_tensor w = tl_load(x_blk, .boundary_check = tl_ints(1, 0), .padding_option = "nan");
        nans = tl_add(nans, tl_sum(tl_to(tl_ne(w, w), tl_int32), .axis = 1));
        x_blk = tl_advance(x_blk, tl_tuple(0, BLOCK_N));
    }
    tl_tensor s_blk = tl_make_block_ptr(sum_ptr, tl_tuple(M), tl_tuple(1), tl_tuple(tl_mul(pid, BLOCK_M)),
                                        tl_shape(BLOCK_M), tl_ints(0));
    tl_store(s_blk, acc, .boundary_check = tl_ints(0));
    tl_tensor n_blk = tl_make_block_ptr(nan_ptr, tl_tuple(M), tl_tuple(1), tl_tuple(tl_mul(pid, BLOCK_M)),
                                        tl_shape(BLOCK_M), tl_ints(0));
    tl_store(n_blk, nans, .boundary_check = tl_ints(0));
}

TL_KERNEL(port_block_ptr_pad_desc, (x_ptr, sum_ptr, nan_ptr, M, N, stride_m, stride_n),
          (int, BLOCK_M), (int, BLOCK_N))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor z_desc = tl_make_tensor_descriptor(x_ptr, tl_tuple(M, N), tl_tuple(stride_m, stride_n),
                                                 tl_shape(BLOCK_M, BLOCK_N));
    tl_tensor w_desc = tl_make_tensor_descriptor(x_ptr, tl_tuple(M, N), tl_tuple(stride_m, stride_n),
                                                 tl_shape(BLOCK_M, BLOCK_N), .padding_option = "nan");
    tl_tensor acc = tl_zeros(tl_shape(BLOCK_M), tl_float32);
    tl_tensor nans = tl_zeros(tl_shape(BLOCK_M), tl_int32);
    TL_FOR(k, tl_range(0, tl_cdiv(N, BLOCK_N), 1), acc, nans) {
        tl_tensor z = tl_desc_load(z_desc, tl_tuple(tl_mul(pid, BLOCK_M), tl_mul(k, BLOCK_N)));
        acc = tl_add(acc, tl_sum(z, .axis = 1));
        tl_tensor w = tl_desc_load(w_desc, tl_tuple(tl_mul(pid, BLOCK_M), tl_mul(k, BLOCK_N)));
        nans = tl_add(nans, tl_sum(tl_to(tl_ne(w, w), tl_int32), .axis = 1));
    }
    tl_tensor offs = tl_add(tl_mul(pid, BLOCK_M), tl_arange(0, BLOCK_M));
    tl_store(tl_add(sum_ptr, offs), acc, .mask = tl_lt(offs, M));
    tl_store(tl_add(nan_ptr, offs), nans, .mask = tl_lt(offs, M));
}

TL_KERNEL(port_ptr_tuple, (x0_ptr, x1_ptr, x2_ptr, y_ptr, n), (int, BLOCK))
{
    tl_tensor offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tuple_t ptrs = tl_tuple(x0_ptr, x1_ptr, x2_ptr);
    tl_tuple_t weights = tl_tuple(tl_to_tensor(0.5), tl_to_tensor(2.0), tl_to_tensor(-1.0)); /* Python's assignment makes each number a tensor */
    tl_tensor acc = tl_zeros(tl_shape(BLOCK), tl_float32);
    for (int i = 0; i < ptrs.n; i++) {
        acc = tl_add(acc, tl_mul(tl_load(tl_add(ptrs.v[i], offs), .mask = mask, .other = tl_c(0.0)), weights.v[i]));
    }
    tl_store(tl_add(y_ptr, offs), acc, .mask = mask);
}

TL_KERNEL(port_raw_forms, (x_ptr, y_ptr, n), (int, BLOCK))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor offs = tl_arange(0, BLOCK);
    tl_tensor acc = tl_zeros(tl_shape(BLOCK), tl_float32);
    TL_FOR(k, tl_pyrange(tl_cdiv(n, BLOCK)), acc) {
        acc = tl_add(acc, tl_load(tl_add(tl_add(x_ptr, tl_mul(k, BLOCK)), offs),
                                  .mask = tl_lt(tl_add(tl_mul(k, BLOCK), offs), n), .other = tl_c(0.0)));
    }
    TL_FOR(j, tl_pyrange(tl_add(tl_mod(pid, 3), 1)), acc) {
        acc = tl_mul(acc, 0.5);
    }
    TL_FOR(j, tl_pyrange(1, 3), acc) {
        acc = tl_add(acc, j);
    }
    TL_FOR(j, tl_pyrange(BLOCK / 32), acc) {
        acc = tl_add(acc, 1.0);
    }
    tl_store(tl_add(tl_add(y_ptr, tl_mul(pid, BLOCK)), offs), acc); /* lint-ok: unmasked-dim y holds a whole block per program */
}

TL_CONFIGS(port_many_params,
    {.name = "B64", .signature = "x0=*fp32:16 x1=*fp32:16 x2=*fp32:16 x3=*fp32:16 x4=*fp32:16 x5=*fp32:16 x6=*fp32:16 x7=*fp32:16 x8=*fp32:16 x9=*fp32:16 s0=i32 s1=i32 s2=i32 s3=i32 s4=i32 s5=i32 s6=i32 s7=i32 s8=i32 s9=i32 w0=fp32 w1=fp32 w2=fp32 w3=fp32 w4=fp32 w5=fp32 w6=fp32 w7=fp32 w8=fp32 w9=fp32 y0=*fp32:16 y1=*fp32:16 y2=*fp32:16 y3=*fp32:16 y4=*fp32:16 y5=*fp32:16 y6=*fp32:16 y7=*fp32:16 y8=*fp32:16 y9=*fp32:16 n=i32 k_iters=i32",
     .constexprs = "BLOCK=64"});
TL_CONFIGS(port_none_args,
    {.name = "with_ptrs", .signature = "x_ptr=*fp32:16 scale_ptr=*fp32:16 idx_ptr=*i32:16 y_ptr=*fp32:16 n=i32",
     .constexprs = "BLOCK=128"},
    {.name = "none_ptrs", .signature = "x_ptr=*fp32:16 scale_ptr=None idx_ptr=None y_ptr=*fp32:16 n=i32",
     .constexprs = "BLOCK=128"});
TL_CONFIGS(port_cx_defaults,
    {.name = "defaults", .signature = "x_ptr=*fp32:16 y_ptr=*fp16:16 n=i32"},
    {.name = "bwd_gelu_fp32", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32",
     .constexprs = "BLOCK=128 BACKWARD=True ACT='none' OUT_DTYPE=fp32"},
    /* fp32 values stored through a bf16 pointer: Python converts; ctriton wants the option */
    {.name = "implicit_bf16", .signature = "x_ptr=*fp32:16 y_ptr=*bf16:16 n=i32",
     .constexprs = "OUT_DTYPE=fp32", .options = "implicit_store_casts=True enable_fp_fusion=False"});
TL_CONFIGS(port_dtype_dispatch,
    {.name = "fp8_fp32", .signature = "x_ptr=*fp8e4nv:16 y_ptr=*fp32:16 n=i32", .constexprs = "BLOCK=64"},
    {.name = "bf16_bf16", .signature = "x_ptr=*bf16:16 y_ptr=*bf16:16 n=i32", .constexprs = "BLOCK=64"},
    {.name = "fp32_fp16", .signature = "x_ptr=*fp32:16 y_ptr=*fp16:16 n=i32", .constexprs = "BLOCK=64"});
TL_CONFIGS(port_while_exit,
    {.name = "B64", .signature = "x_ptr=*fp32:16 out_ptr=*i32:16 n=i32 thresh=fp32",
     .constexprs = "BLOCK=64", .problem = "ROWS=24 N=1000"},
    {.name = "B128_n16", .signature = "x_ptr=*fp32:16 out_ptr=*i32:16 n=i32:16 thresh=fp32",
     .constexprs = "BLOCK=128", .problem = "ROWS=16 N=4096"});
TL_CONFIGS(port_spin_wait,
    {.name = "i32_B256", .signature = "x_ptr=*i32:16 y_ptr=*i32:16 sums_ptr=*i32:16 flags_ptr=*i32:16 "
                                       "counter_ptr=*i32 lock_ptr=*i32 total_ptr=*i32",
     .constexprs = "BLOCK=256", .problem = "TILES=40"});
TL_CONFIGS(port_block_ptr_pad,
    {.name = "f32_32x64", .signature = "x_ptr=*fp32:16 sum_ptr=*fp32:16 nan_ptr=*i32:16 M=i32 N=i32 "
                                        "stride_m=i32 stride_n=i32",
     .constexprs = "BLOCK_M=32 BLOCK_N=64", .problem = "M=100 N=300"},
    {.name = "f16_16x128", .signature = "x_ptr=*fp16:16 sum_ptr=*fp32:16 nan_ptr=*i32:16 M=i32 N=i32 "
                                         "stride_m=i32:16 stride_n=i32",
     .constexprs = "BLOCK_M=16 BLOCK_N=128", .problem = "M=77 N=496"});
TL_CONFIGS(port_block_ptr_pad_desc,
    {.name = "f32_32x64", .signature = "x_ptr=*fp32:16 sum_ptr=*fp32:16 nan_ptr=*i32:16 M=i32 N=i32 "
                                        "stride_m=i32:16 stride_n=1",
     .constexprs = "BLOCK_M=32 BLOCK_N=64", .problem = "M=100 N=304"},
    {.name = "f16_16x128", .signature = "x_ptr=*fp16:16 sum_ptr=*fp32:16 nan_ptr=*i32:16 M=i32 N=i32 "
                                         "stride_m=i32:16 stride_n=1",
     .constexprs = "BLOCK_M=16 BLOCK_N=128", .problem = "M=77 N=496"});
TL_CONFIGS(port_ptr_tuple,
    {.name = "f32_B256", .signature = "x0_ptr=*fp32:16 x1_ptr=*fp32:16 x2_ptr=*fp32:16 y_ptr=*fp32:16 n=i32",
     .constexprs = "BLOCK=256", .problem = "N=5000"},
    {.name = "mixed_B128", .signature = "x0_ptr=*fp32:16 x1_ptr=*fp16:16 x2_ptr=*bf16:16 y_ptr=*fp32:16 n=i32",
     .constexprs = "BLOCK=128", .problem = "N=1000"});
TL_CONFIGS(port_raw_forms,
    {.name = "B64", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32", .constexprs = "BLOCK=64"},
    {.name = "B128", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n=i32", .constexprs = "BLOCK=128"});
