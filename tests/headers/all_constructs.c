/* A kernel file as a user writes it, using every construct of the kernel language that takes
 * a list or options: TL_KERNEL with more than 16 parameters, None parameters and constexpr
 * defaults; TL_FOR carrying nothing and carrying many; TL_WHILE, TL_IF / TL_ELSE, TL_IFEXP;
 * TL_JIT, TL_JIT_TUPLE, TL_CALL, TL_UNPACK, tl_tuple; tl_pyrange, tl_range with options,
 * keyword options of loads, stores and reductions; the dtype API; TL_CONFIGS with options.
 *
 * CTest compiles it with `-std=c11 -Wall -Wextra -Wpedantic -Werror` (headers_clean_c11,
 * tests/CMakeLists.txt): ctriton's headers must add no warning to a kernel file.  It is also
 * linked into test_lang_limits (t_all_constructs), which builds the kernel, so that what
 * compiles here is also a kernel ctriton accepts. */
#include "ctriton/registry.h"
#include "ctriton/tl.h"

TL_JIT(clamp_add, (x, y, lo))
{
    tl_tensor s = tl_add(x, y);
    return tl_maximum(s, lo);
}

TL_JIT_TUPLE(split3, (x))
{
    return tl_tuple(tl_add(x, 1.0), tl_mul(x, 2.0), tl_sub(x, 3.0));
}

/* x.dtype decides the branch at trace time, as a Python kernel's `if x.dtype.is_fp8():` */
TL_JIT(to_acc, (x))
{
    tl_dtype dt = tl_dtype_of(x);
    if (tl_dtype_is_fp8(dt) || tl_dtype_is_bf16(dt) || tl_dtype_is_fp16(dt))
        return tl_to(x, tl_float32);
    if (tl_dtype_is_int(dt) && tl_primitive_bitwidth(dt) < 32)
        return tl_to(x, tl_get_int_dtype(32, tl_dtype_is_int_signed(dt)));
    return x;
}

TL_KERNEL(all_constructs,
          (x_ptr, y_ptr, scale_ptr, idx_ptr, n, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11,
           s12, s13, s14),
          (int, BLOCK, 64), (double, EPS, 1e-6), (bool, REVERSE, false), (const char *, ACT, "relu"),
          (tl_dtype, OUT_DTYPE, NULL), (int, NO_DEFAULT))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor offs = tl_add(tl_mul(pid, BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor x = tl_load(tl_add(x_ptr, offs), .mask = mask, .other = tl_c(0.0));
    x = TL_CALL(to_acc, x);
    if (tl_is_not_none(scale_ptr)) { /* options nested in options */
        tl_tensor has = tl_gt(n, 0);
        x = tl_mul(x, tl_load(scale_ptr, .mask = has, .cache_modifier = ".ca",
                              .other = tl_load(scale_ptr, .eviction_policy = "evict_last")));
    }
    if (!tl_is_none(idx_ptr))
        offs = tl_load(tl_add(idx_ptr, offs), .mask = mask, .other = tl_c(0));
    tl_tensor s = tl_to_tensor(0);
    s = tl_add(s, s0);
    s = tl_add(s, tl_add(s1, tl_add(s2, tl_add(s3, tl_add(s4, tl_add(s5, s6))))));
    s = tl_add(s, tl_add(s7, tl_add(s8, tl_add(s9, tl_add(s10, tl_add(s11, s12))))));
    s = tl_add(s, tl_add(s13, s14));

    /* a loop carrying nothing (a spin of loads), and one carrying twenty values */
    TL_FOR(i, tl_pyrange(2)) {
        tl_tensor unused = tl_load(tl_add(x_ptr, i));
        (void)unused;
    }
    tl_tensor a0 = tl_zeros(tl_shape(BLOCK), tl_float32), a1 = a0, a2 = a0, a3 = a0, a4 = a0,
              a5 = a0, a6 = a0, a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0, a12 = a0, a13 = a0,
              a14 = a0, a15 = a0, a16 = a0, a17 = a0, a18 = a0, a19 = a0;
    TL_FOR(k, tl_range(0, n, BLOCK, .num_stages = 2, .loop_unroll_factor = 1), a0, a1, a2, a3, a4,
           a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19) {
        tl_tensor v = tl_load(tl_add(tl_add(x_ptr, k), tl_arange(0, BLOCK)),
                              .mask = tl_lt(tl_add(k, tl_arange(0, BLOCK)), n), .other = tl_c(0.0));
        a0 = tl_add(a0, v);
        a1 = tl_add(a1, a0);
        a2 = tl_add(a2, a1);
        a3 = tl_add(a3, a2);
        a4 = tl_add(a4, a3);
        a5 = tl_add(a5, a4);
        a6 = tl_add(a6, a5);
        a7 = tl_add(a7, a6);
        a8 = tl_add(a8, a7);
        a9 = tl_add(a9, a8);
        a10 = tl_add(a10, a9);
        a11 = tl_add(a11, a10);
        a12 = tl_add(a12, a11);
        a13 = tl_add(a13, a12);
        a14 = tl_add(a14, a13);
        a15 = tl_add(a15, a14);
        a16 = tl_add(a16, a15);
        a17 = tl_add(a17, a16);
        a18 = tl_add(a18, a17);
        a19 = tl_add(a19, a18);
    }
    x = tl_add(x, tl_add(a0, a19));

    /* a while holding an if with an early exit */
    tl_tensor t = tl_to_tensor(0);
    tl_tensor done = tl_to_tensor(0);
    TL_WHILE(tl_and(tl_eq(done, 0), tl_lt(t, s)), t, done) {
        TL_IF(tl_gt(t, 100), done) {
            done = tl_to_tensor(1);
        }
        TL_ELSE {
            done = tl_to_tensor(0);
        }
        t = tl_add(t, 1);
    }
    TL_IF(tl_gt(t, 3), x) {
        x = tl_add(x, 1.0);
    }
    x = tl_add(x, TL_IFEXP(tl_gt(t, 5), 1.0, 2.0));

    tl_tensor lo = tl_to_tensor(0.0);
    x = TL_CALL(clamp_add, x, tl_c(EPS), lo);
    tl_tensor p, q, r;
    TL_UNPACK(TL_CALL_TUPLE(split3, x), p, q, r);
    tl_tuple_t parts = tl_tuple(p, q, r);
    tl_tensor sum = tl_zeros(tl_shape(BLOCK), tl_float32);
    for (int i = 0; i < parts.n; i++) /* tl.static_range */
        sum = tl_add(sum, parts.v[i]);
    if (REVERSE)
        sum = tl_neg(sum);
    if (ACT && ACT[0] == 'r')
        sum = tl_maximum(sum, 0.0);
    tl_static_assert(BLOCK >= 16, "BLOCK too small");
    tl_tensor total = tl_sum(sum, .axis = 0, .keep_dims = false);
    sum = tl_add(sum, total);
    tl_dtype out_dt = OUT_DTYPE ? OUT_DTYPE : tl_dtype_element_ty(tl_dtype_of(y_ptr));
    if (!tl_type_eq(out_dt, tl_float32))
        sum = tl_to(sum, out_dt);
    tl_store(tl_add(y_ptr, offs), sum, .mask = mask);
    (void)NO_DEFAULT;
}

TL_CONFIGS(all_constructs,
    {.name = "with_ptrs",
     .signature = "x_ptr=*fp16:16 y_ptr=*fp32:16 scale_ptr=*fp32 idx_ptr=*i32:16 n=i32 s0=i32 s1=i32 "
                  "s2=i32 s3=i32 s4=i32 s5=i32 s6=i32 s7=i32 s8=i32 s9=i32 s10=i32 s11=i32 s12=i32 "
                  "s13=i32 s14=i32",
     .constexprs = "NO_DEFAULT=1"},
    {.name = "none_bf16",
     .signature = "x_ptr=*bf16:16 y_ptr=*bf16:16 scale_ptr=None idx_ptr=None n=i32 s0=i32 s1=i32 "
                  "s2=i32 s3=i32 s4=i32 s5=i32 s6=i32 s7=i32 s8=i32 s9=i32 s10=i32 s11=i32 s12=i32 "
                  "s13=i32 s14=i32",
     .constexprs = "NO_DEFAULT=2 BLOCK=128 REVERSE=True ACT='none'",
     .options = "implicit_store_casts=True"});
