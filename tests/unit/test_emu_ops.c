/*
 * test_emu_ops.c - the emulator's semantics, op by op: integer wraparound
 * and C-style division, fp8/f16 conversions against brute-force rounding
 * tables, maxnumf vs maximumf, fma contraction, Philox against Triton's own
 * Python code, reductions and scans in the GPU's order, dot, control flow,
 * shape ops, atomics, asserts, prints, and determinism across thread counts.
 */
#include <math.h>

#include "emu_test.h"

float emu_mufu_rcp(float x); /* MUFU.RCP (src/emu/mufu.c) */

/* ---- a tiny harness: one kernel, float/int arrays in and out ------------------------ */

typedef struct io {
    ct_emu *e;
    int id[8];
    int n;
} io;

static void io_init(io *o)
{
    memset(o, 0, sizeof *o);
    o->e = ct_emu_new();
}

static ct_emu_arg io_buf(io *o, const char *name, void *p, size_t bytes, ct_emu_dtype t,
                         ct_emu_access acc)
{
    int id = ct_emu_add_buffer(o->e, name, p, bytes, t, acc);
    assert_true(id >= 0);
    o->id[o->n++] = id;
    return ct_emu_ptr(id);
}

static void run_ok(io *o, const ct_emu_kernel *k, int grid, int nargs, const ct_emu_arg *a)
{
    ct_emu_result r;
    if (emu_go(o->e, k, grid, 1, 1, 2, nargs, a, &r) != CT_EMU_OK)
        fprintf(stderr, "%s\n", r.fault.message);
    assert_int_equal(r.status, CT_EMU_OK);
}

/* ---- integers --------------------------------------------------------------------- */

TL_KERNEL(k_int, (a_ptr, b_ptr, out_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor a = tl_load(tl_add(a_ptr, o)), b = tl_load(tl_add(b_ptr, o));
    tl_store(tl_add(out_ptr, o), tl_floordiv(a, b));               /* divsi (truncates) */
    tl_store(tl_add(tl_add(out_ptr, N), o), tl_mod(a, b));         /* remsi */
    tl_store(tl_add(tl_add(out_ptr, 2 * N), o), tl_mul_nsan(a, b)); /* wraps */
    tl_store(tl_add(tl_add(out_ptr, 3 * N), o), tl_shl(a, tl_and(b, 63)));
    tl_store(tl_add(tl_add(out_ptr, 4 * N), o), tl_shr(a, tl_and(b, 63)));
    tl_tensor ua = tl_to(a, tl_uint32), ub = tl_to(b, tl_uint32);
    tl_store(tl_add(tl_add(out_ptr, 5 * N), o), tl_to(tl_floordiv(ua, ub), tl_int32));
    tl_store(tl_add(tl_add(out_ptr, 6 * N), o), tl_to(tl_shr(ua, tl_and(ub, 63u)), tl_int32));
    tl_store(tl_add(tl_add(out_ptr, 7 * N), o), tl_to(tl_umulhi(ua, ub), tl_int32));
}

static void t_integers(void **s)
{
    (void)s;
    enum { N = 8 };
    int32_t a[N] = {7, -7, INT32_MIN, 5, -1, 123456789, 100, -100};
    int32_t b[N] = {2, 2, -1, 0, 33, 40000, 31, 7};
    int32_t out[8 * N];
    ct_emu_kernel *k = emu_build(&k_int, "a_ptr=*i32 b_ptr=*i32 out_ptr=*i32", "N=8");
    io o;
    io_init(&o);
    ct_emu_arg args[] = {io_buf(&o, "a", a, sizeof a, CT_EMU_I32, CT_EMU_IN),
                         io_buf(&o, "b", b, sizeof b, CT_EMU_I32, CT_EMU_IN),
                         io_buf(&o, "out", out, sizeof out, CT_EMU_I32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 3, args);
    for (int i = 0; i < N; i++) {
        int64_t x = a[i], y = b[i];
        uint32_t ux = (uint32_t)a[i], uy = (uint32_t)b[i];
        int32_t q = y == 0 ? -1 : (y == -1 ? (int32_t)(0u - ux) : (int32_t)(x / y));
        int32_t r = y == 0 ? (int32_t)x : (y == -1 ? 0 : (int32_t)(x % y));
        assert_int_equal(out[i], q);
        assert_int_equal(out[N + i], r);
        assert_int_equal(out[2 * N + i], (int32_t)(ux * uy));
        uint32_t sh = uy & 63;
        assert_int_equal(out[3 * N + i], sh >= 32 ? 0 : (int32_t)(ux << sh));
        assert_int_equal(out[4 * N + i], sh >= 32 ? (a[i] < 0 ? -1 : 0) : a[i] >> sh);
        assert_int_equal(out[5 * N + i], uy == 0 ? -1 : (int32_t)(ux / uy));
        assert_int_equal(out[6 * N + i], sh >= 32 ? 0 : (int32_t)(ux >> sh));
        assert_int_equal(out[7 * N + i], (int32_t)(uint32_t)(((uint64_t)ux * uy) >> 32));
    }
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- float conversions -------------------------------------------------------------- */

TL_KERNEL(k_to_fp8, (x_ptr, e4_ptr, e5_ptr, h_ptr, hz_ptr, bz_ptr, e5z_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, o));
    tl_store(tl_add(e4_ptr, o), tl_to(x, tl_float8e4nv));
    tl_store(tl_add(e5_ptr, o), tl_to(x, tl_float8e5));
    tl_store(tl_add(h_ptr, o), tl_to(x, tl_float16));
    tl_store(tl_add(hz_ptr, o), tl_to(x, tl_float16, .fp_downcast_rounding = "rtz"));
    tl_store(tl_add(bz_ptr, o), tl_to(x, tl_bfloat16, .fp_downcast_rounding = "rtz"));
    tl_store(tl_add(e5z_ptr, o), tl_to(x, tl_float8e5, .fp_downcast_rounding = "rtz"));
}

/* every value of an 8-bit format, by brute force (no shared code with the emulator) */
static double fp8_value(int bits, int ebits, int mbits, int bias, bool fn)
{
    int s = bits >> 7, e = (bits >> mbits) & ((1 << ebits) - 1), m = bits & ((1 << mbits) - 1);
    double v;
    if (fn && e == (1 << ebits) - 1 && m == (1 << mbits) - 1)
        return NAN;
    if (!fn && e == (1 << ebits) - 1)
        return m ? NAN : (s ? -INFINITY : INFINITY);
    if (e == 0)
        v = ldexp(m, 1 - bias - mbits);
    else
        v = ldexp(m + (1 << mbits), e - bias - mbits);
    return s ? -v : v;
}

/* nearest-even to x among the finite values, saturating (cvt.rn.satfinite) */
static int fp8_rne_sat(double x, int ebits, int mbits, int bias, bool fn)
{
    if (isnan(x))
        return -1;
    int best = -1;
    double bd = INFINITY, maxv = 0;
    for (int b = 0; b < 128; b++) {
        double v = fp8_value(b, ebits, mbits, bias, fn);
        if (isfinite(v) && v > maxv)
            maxv = v;
    }
    double ax = fabs(x);
    if (ax >= maxv)
        ax = maxv;
    for (int b = 0; b < 128; b++) {
        double v = fp8_value(b, ebits, mbits, bias, fn);
        if (!isfinite(v))
            continue;
        double d = fabs(v - ax);
        if (d < bd || (d == bd && (b & 1) == 0 && (best & 1))) {
            bd = d;
            best = b;
        }
    }
    return (x < 0 || (x == 0 && signbit(x))) ? best | 0x80 : best;
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void t_fp_conversions(void **s)
{
    (void)s;
    enum { N = 1024 };
    static float x[N];
    static uint8_t e4[N], e5[N], e5z[N];
    static uint16_t h[N], hz[N], bz[N];
    uint64_t r = 7;
    for (int i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        /* wide exponent range, exact midpoints of fp8 values, and specials */
        int e = (int)((r >> 33) % 40) - 24;
        x[i] = ldexpf((float)((r >> 40) & 0xffff) / 65536.0f + 1.0f, e) * ((r >> 20) & 1 ? -1 : 1);
        if (i % 7 == 0)
            x[i] = (float)fp8_value((int)(r >> 50) & 0x7f, 4, 3, 7, true) +
                   ldexpf(1, -12); /* near e4m3 values */
        if (i % 11 == 0) {
            /* an exact e4m3 midpoint: ties to even */
            double v = fp8_value((int)(r >> 50) & 0x7e, 4, 3, 7, true);
            double w = fp8_value(((int)(r >> 50) & 0x7e) + 1, 4, 3, 7, true);
            if (isfinite(v) && isfinite(w))
                x[i] = (float)((v + w) / 2);
        }
    }
    x[0] = 1e9f;
    x[1] = -1e9f;
    x[2] = INFINITY;
    x[3] = NAN;
    x[4] = 448.0f;
    x[5] = 464.0f; /* halfway to 480: saturates to 448 */
    x[6] = 70000.0f;
    x[7] = -0.0f;
    x[8] = from_bits(0x387fffff); /* just below the f16 normal range */
    ct_emu_kernel *k = emu_build(&k_to_fp8,
                                 "x_ptr=*fp32 e4_ptr=*fp8e4nv e5_ptr=*fp8e5 h_ptr=*fp16 "
                                 "hz_ptr=*fp16 bz_ptr=*bf16 e5z_ptr=*fp8e5",
                                 "N=1024");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "e4", e4, sizeof e4, CT_EMU_F8E4NV, CT_EMU_OUT),
                      io_buf(&o, "e5", e5, sizeof e5, CT_EMU_F8E5, CT_EMU_OUT),
                      io_buf(&o, "h", h, sizeof h, CT_EMU_F16, CT_EMU_OUT),
                      io_buf(&o, "hz", hz, sizeof hz, CT_EMU_F16, CT_EMU_OUT),
                      io_buf(&o, "bz", bz, sizeof bz, CT_EMU_BF16, CT_EMU_OUT),
                      io_buf(&o, "e5z", e5z, sizeof e5z, CT_EMU_F8E5, CT_EMU_OUT)};
    run_ok(&o, k, 1, 7, a);
    for (int i = 0; i < N; i++) {
        int w4 = fp8_rne_sat(x[i], 4, 3, 7, true), w5 = fp8_rne_sat(x[i], 5, 2, 15, false);
        if (w4 < 0) {
            assert_true((e4[i] & 0x7f) == 0x7f);
            assert_true((e5[i] & 0x7f) > 0x7c);
            continue;
        }
        if (e4[i] != w4 || e5[i] != w5)
            fprintf(stderr, "x = %a: e4 %02x want %02x, e5 %02x want %02x\n", x[i], e4[i], w4,
                    e5[i], w5);
        assert_int_equal(e4[i], w4);
        assert_int_equal(e5[i], w5);
        /* f16: the nearest by brute force over the neighbours of a truncation */
        double xv = x[i];
        if (isfinite(xv) && fabs(xv) < 65520) {
            double got = ct_emu_get(CT_EMU_F16, &h[i], 0);
            uint16_t sign = h[i] & 0x8000, mag = h[i] & 0x7fff;
            double dg = fabs(got - xv);
            for (int dlt = -1; dlt <= 1; dlt += 2) {
                int nm = mag + dlt;
                if (nm < 0 || nm >= 0x7c00)
                    continue;
                uint16_t nb = (uint16_t)(sign | nm);
                double dn = fabs(ct_emu_get(CT_EMU_F16, &nb, 0) - xv);
                assert_true(dg <= dn);
                if (dg == dn)
                    assert_int_equal(mag & 1, 0);
            }
            /* rtz: |hz| <= |x| and the next one up is beyond */
            double z = ct_emu_get(CT_EMU_F16, &hz[i], 0);
            uint16_t up = (uint16_t)(hz[i] + 1);
            double zu = ct_emu_get(CT_EMU_F16, &up, 0);
            assert_true(fabs(z) <= fabs(xv));
            if ((hz[i] & 0x7fff) < 0x7bff)
                assert_true(fabs(zu) > fabs(xv));
        }
        /* bf16 rtz is the top half of the f32 */
        uint32_t u;
        memcpy(&u, &x[i], 4);
        if (!isnan(x[i]))
            assert_int_equal(bz[i], u >> 16);
        /* e5m2 rtz is the top byte of the f16 rtz */
        if (!isnan(x[i]))
            assert_int_equal(e5z[i], hz[i] >> 8);
    }
    assert_int_equal(e4[0], 0x7e);  /* 1e9 -> 448 */
    assert_int_equal(e4[1], 0xfe);  /* -448 */
    assert_int_equal(e4[2], 0x7e);  /* inf saturates */
    assert_int_equal(e5[2], 0x7b);  /* 57344 */
    assert_int_equal(e4[5], 0x7e);
    assert_int_equal(h[6], 0x7c00); /* 70000 -> inf in f16 (round to nearest) */
    assert_int_equal(hz[6], 0x7bff); /* rtz stays finite */
    assert_int_equal(e4[7], 0x80);  /* -0 */
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- min/max and NaN ------------------------------------------------------------------ */

/* math.absf on fp8 clears the sign bit, as the GPU's lowering does (fp8 is i8 there):
 * every bit pattern, NaNs and the fnuz formats' 0x80 included */
TL_KERNEL(k_abs_fp8, (a_ptr, b_ptr, c_ptr, d_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_store(tl_add(b_ptr, o), tl_abs(tl_load(tl_add(a_ptr, o))));
    tl_store(tl_add(d_ptr, o), tl_abs(tl_load(tl_add(c_ptr, o))));
}

static void t_abs_fp8(void **s)
{
    (void)s;
    uint8_t a[256], b[256], c[256], d[256];
    for (int i = 0; i < 256; i++)
        a[i] = c[i] = (uint8_t)i;
    ct_emu_kernel *k = emu_build(&k_abs_fp8, "a_ptr=*fp8e4nv b_ptr=*fp8e4nv c_ptr=*fp8e5 d_ptr=*fp8e5",
                                 "N=256");
    io o;
    io_init(&o);
    ct_emu_arg args[] = {io_buf(&o, "a", a, sizeof a, CT_EMU_F8E4NV, CT_EMU_IN),
                         io_buf(&o, "b", b, sizeof b, CT_EMU_F8E4NV, CT_EMU_OUT),
                         io_buf(&o, "c", c, sizeof c, CT_EMU_F8E5, CT_EMU_IN),
                         io_buf(&o, "d", d, sizeof d, CT_EMU_F8E5, CT_EMU_OUT)};
    run_ok(&o, k, 1, 4, args);
    for (int i = 0; i < 256; i++) {
        assert_int_equal(b[i], i & 0x7f);
        assert_int_equal(d[i], i & 0x7f);
    }
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

TL_KERNEL(k_minmax, (x_ptr, y_ptr, out_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, o)), y = tl_load(tl_add(y_ptr, o));
    tl_store(tl_add(out_ptr, o), tl_maximum(x, y));
    tl_store(tl_add(tl_add(out_ptr, N), o), tl_minimum(x, y));
    tl_store(tl_add(tl_add(out_ptr, 2 * N), o), tl_maximum(x, y, .propagate_nan = TL_PROPAGATE_NAN_ALL));
    tl_store(tl_add(tl_add(out_ptr, 3 * N), o), tl_minimum(x, y, .propagate_nan = TL_PROPAGATE_NAN_ALL));
    tl_store(tl_add(tl_add(out_ptr, 4 * N), o), tl_max(x, .axis = 0));
}

static void t_minmax_nan(void **s)
{
    (void)s;
    float x[4] = {NAN, 1, -0.0f, 3}, y[4] = {2, NAN, 0.0f, -5};
    float out[5 * 4];
    ct_emu_kernel *k = emu_build(&k_minmax, "x_ptr=*fp32 y_ptr=*fp32 out_ptr=*fp32", "N=4");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "y", y, sizeof y, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "out", out, sizeof out, CT_EMU_F32, CT_EMU_INOUT)};
    run_ok(&o, k, 1, 3, a);
    /* maxnumf / minnumf ignore a NaN operand */
    assert_true(out[0] == 2 && out[1] == 1 && out[4] == 2 && out[5] == 1);
    assert_true(out[2] == 0 && !signbit(out[2])); /* max(-0, +0) = +0 */
    assert_true(out[6] == 0 && signbit(out[6]));  /* min(-0, +0) = -0 */
    /* maximumf / minimumf: NaN wins, and it is the GPU's canonical NaN */
    uint32_t u;
    memcpy(&u, &out[8], 4);
    assert_int_equal(u, 0x7fffffff);
    assert_true(isnan(out[9]) && isnan(out[12]) && isnan(out[13]));
    assert_true(out[11] == 3 && out[15] == -5);
    /* tl.max reduces with maxnumf: the NaN is ignored */
    assert_true(out[16] == 3);
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- fma contraction ------------------------------------------------------------------- */

TL_KERNEL(k_fma, (x_ptr, y_ptr, z_ptr, out_ptr, n), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, o)), y = tl_load(tl_add(y_ptr, o)),
              z = tl_load(tl_add(z_ptr, o));
    tl_tensor p = tl_mul(x, y);
    tl_store(tl_add(out_ptr, o), tl_add(p, z));                        /* fma(x, y, z) */
    tl_store(tl_add(tl_add(out_ptr, N), o), tl_sub(z, p));             /* fma(-x, y, z) */
    tl_tensor acc = tl_zeros(tl_shape(N), tl_float32);
    TL_FOR(i, tl_range(0, n, 1), acc)
    {
        acc = tl_add(acc, p); /* p comes from outside the loop: not fused */
    }
    tl_store(tl_add(tl_add(out_ptr, 2 * N), o), acc);
}

static void t_fma_contraction(void **s)
{
    (void)s;
    enum { N = 16 };
    float x[N], y[N], z[N], out[3 * N];
    for (int i = 0; i < N; i++) {
        x[i] = 1.0f + ldexpf((float)(i + 1), -20);
        y[i] = 1.0f - ldexpf((float)(i + 1), -20);
        z[i] = -1.0f;
    }
    ct_emu_kernel *k = emu_build(&k_fma, "x_ptr=*fp32 y_ptr=*fp32 z_ptr=*fp32 out_ptr=*fp32 n=i32", "N=16");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "y", y, sizeof y, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "z", z, sizeof z, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "out", out, sizeof out, CT_EMU_F32, CT_EMU_OUT), ct_emu_int(1)};
    run_ok(&o, k, 1, 5, a);
    int fused_differs = 0;
    for (int i = 0; i < N; i++) {
        volatile float p = x[i] * y[i];
        assert_true(out[i] == fmaf(x[i], y[i], z[i]));
        assert_true(out[N + i] == fmaf(-x[i], y[i], z[i]));
        assert_true(out[2 * N + i] == 0.0f + p);
        fused_differs += fmaf(x[i], y[i], z[i]) != p + z[i];
    }
    assert_true(fused_differs > 0); /* the data can tell fused from unfused */
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* an fadd of two products with one use each contracts the product LLVM's Reassociate puts first:
 * the one of lower rank, here the one whose operands were loaded first (rope_kernel's
 * q2 * c + q1 * s is fma(q1, s, q2 * c) in Triton's PTX); a subtraction keeps its order */
TL_KERNEL(k_rank, (q1_ptr, q2_ptr, c_ptr, s_ptr, out_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor c = tl_load(tl_add(c_ptr, o)), sn = tl_load(tl_add(s_ptr, o));
    tl_tensor q1 = tl_load(tl_add(q1_ptr, o)), q2 = tl_load(tl_add(q2_ptr, o));
    tl_store(tl_add(out_ptr, o), tl_add(tl_mul(q2, c), tl_mul(q1, sn)));
    tl_store(tl_add(tl_add(out_ptr, N), o), tl_sub(tl_mul(q1, c), tl_mul(q2, sn)));
}

static void t_fma_operand_rank(void **s)
{
    (void)s;
    enum { N = 64 };
    float q1[N], q2[N], c[N], sn[N], out[2 * N];
    uint64_t r = 11;
    for (int i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        q1[i] = (float)(r >> 40) * 0x1p-23f - 1.0f;
        q2[i] = (float)((r >> 16) & 0xffffff) * 0x1p-23f - 1.0f;
        c[i] = cosf((float)i * 0.37f);
        sn[i] = sinf((float)i * 0.37f);
    }
    ct_emu_kernel *k = emu_build(&k_rank, "q1_ptr=*fp32 q2_ptr=*fp32 c_ptr=*fp32 s_ptr=*fp32 out_ptr=*fp32",
                                 "N=64");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "q1", q1, sizeof q1, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "q2", q2, sizeof q2, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "c", c, sizeof c, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "s", sn, sizeof sn, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "out", out, sizeof out, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 5, a);
    int tells = 0;
    for (int i = 0; i < N; i++) {
        volatile float p2c = q2[i] * c[i], p2s = q2[i] * sn[i], p1s = q1[i] * sn[i];
        assert_true(out[i] == fmaf(q1[i], sn[i], p2c));
        assert_true(out[N + i] == fmaf(q1[i], c[i], -p2s));
        tells += fmaf(q1[i], sn[i], p2c) != fmaf(q2[i], c[i], p1s);
    }
    assert_true(tells > 0);
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* div.full.f32 as ptxas compiles it (the H200's SASS): a quotient whose uses are all adds is
 * fused into each (FFMA rcp(y), x, a); a constant divisor is folded into a multiply by the
 * correctly rounded reciprocal (x / 33: FMUL x, RN(1/33), while MUFU.RCP(33) is an ulp lower) */
TL_KERNEL(k_div, (x_ptr, y_ptr, a_ptr, out_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, o)), y = tl_load(tl_add(y_ptr, o)),
              a = tl_load(tl_add(a_ptr, o));
    tl_tensor q = tl_div(x, y);
    tl_store(tl_add(out_ptr, o), tl_add(a, q));                         /* FFMA rcp, x, a */
    tl_store(tl_add(tl_add(out_ptr, N), o), tl_sub(a, q));              /* FFMA -rcp, x, a */
    tl_store(tl_add(tl_add(out_ptr, 2 * N), o), tl_div(x, 33.0));       /* FMUL x, RN(1/33) */
    tl_tensor k = tl_div(x, 61.0);
    tl_store(tl_add(tl_add(out_ptr, 3 * N), o), tl_add(k, a));          /* FFMA x, RN(1/61), a */
    tl_store(tl_add(tl_add(out_ptr, 4 * N), o), tl_mul(tl_add(k, y), tl_add(k, a)));
    tl_tensor r = tl_div(x, y);
    tl_store(tl_add(tl_add(out_ptr, 5 * N), o), tl_add(r, a));          /* r also stored: FMUL */
    tl_store(tl_add(tl_add(out_ptr, 6 * N), o), r);
}

static void t_div_contraction(void **s)
{
    (void)s;
    enum { N = 64 };
    float x[N], y[N], a[N], out[7 * N];
    uint64_t r = 5;
    for (int i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = 1.0f + (float)(r >> 40) * 0x1p-24f;
        y[i] = 3.0f + (float)((r >> 16) & 0xffffff) * 0x1p-22f;
        a[i] = -x[i] / y[i] * (1.0f + 0x1p-20f * (float)(i % 7));
    }
    ct_emu_kernel *k = emu_build(&k_div, "x_ptr=*fp32 y_ptr=*fp32 a_ptr=*fp32 out_ptr=*fp32", "N=64");
    io o;
    io_init(&o);
    ct_emu_arg args[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                         io_buf(&o, "y", y, sizeof y, CT_EMU_F32, CT_EMU_IN),
                         io_buf(&o, "a", a, sizeof a, CT_EMU_F32, CT_EMU_IN),
                         io_buf(&o, "out", out, sizeof out, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 4, args);
    const float k33 = 1.0f / 33.0f, k61 = 1.0f / 61.0f;
    int fused = 0, folded = 0;
    for (int i = 0; i < N; i++) {
        float rcp = emu_mufu_rcp(y[i]);
        assert_true(out[i] == fmaf(rcp, x[i], a[i]));
        assert_true(out[N + i] == fmaf(-rcp, x[i], a[i]));
        assert_true(out[2 * N + i] == x[i] * k33);
        assert_true(out[3 * N + i] == fmaf(k61, x[i], a[i]));
        assert_true(out[4 * N + i] == fmaf(k61, x[i], y[i]) * fmaf(k61, x[i], a[i]));
        volatile float qq = rcp * x[i];
        assert_true(out[5 * N + i] == qq + a[i] && out[6 * N + i] == qq);
        fused += fmaf(rcp, x[i], a[i]) != qq + a[i];
        folded += x[i] * k33 != emu_mufu_rcp(33.0f) * x[i];
    }
    assert_true(fused > 0 && folded > 0); /* the data tell the models apart */
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- Philox ------------------------------------------------------------------------------- */

TL_KERNEL(k_rand, (ri_ptr, rf_ptr, rn_ptr, seed), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_store(tl_add(ri_ptr, o), tl_randint(seed, o));
    tl_store(tl_add(rf_ptr, o), tl_rand(seed, o));
    tl_store(tl_add(rn_ptr, o), tl_randn(seed, o));
}

static void t_philox(void **s)
{
    (void)s;
    /* Triton 3.6's own random.py, run by its interpreter: seed 42, offsets 0..7 */
    static const uint32_t want_i[8] = {0x9ceaf053, 0xfcdb2127, 0xd36c0225, 0xbac70475,
                                       0x539023bc, 0x5099d809, 0x39b9314c, 0x5bbd83b1};
    static const uint32_t want_f[8] = {1061562910, 1019819957, 1051873270, 1057649142,
                                       1059528774, 1059140527, 1055319236, 1060600582};
    static const float want_n[8] = {0.66061336f,  -1.5427135f,  -0.5904636f, -0.60162544f,
                                    -0.40320325f, -0.82183725f, -1.2573463f, 0.32964435f};
    int32_t ri[8];
    float rf[8], rn[8];
    ct_emu_kernel *k = emu_build(&k_rand, "ri_ptr=*i32 rf_ptr=*fp32 rn_ptr=*fp32 seed=i32", "N=8");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "ri", ri, sizeof ri, CT_EMU_I32, CT_EMU_OUT),
                      io_buf(&o, "rf", rf, sizeof rf, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "rn", rn, sizeof rn, CT_EMU_F32, CT_EMU_OUT), ct_emu_int(42)};
    run_ok(&o, k, 1, 4, a);
    for (int i = 0; i < 8; i++) {
        uint32_t u;
        memcpy(&u, &rf[i], 4);
        assert_int_equal((uint32_t)ri[i], want_i[i]);
        assert_int_equal(u, want_f[i]);
        assert_true(fabsf(rn[i] - want_n[i]) < 2e-6f);
    }
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- reductions and scans in the GPU's order ---------------------------------------------- */

/* A test kernel built from C and compiled for the emulator with `nw` warps and the
 * reductions' and scans' layouts `l` (nl of them; NULL, 0: the default layouts). */
static ct_emu_kernel *compile_with_layouts(const tl_kernel_def *def, const char *sig, const char *consts,
                                           int nw, const ct_emu_layout *l, int nl)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(def, sig, consts, NULL, &d);
    assert_non_null(m);
    ct_emu_options o = {nw, l, nl};
    ct_emu_kernel *k = ct_emu_compile_ex(m, NULL, &o, &d);
    ct_module_destroy(m);
    ct_diags_free(&d);
    assert_non_null(k);
    return k;
}

TL_KERNEL(k_sum1d, (x_ptr, out_ptr, cs_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, o));
    tl_store(out_ptr, tl_sum(x, .axis = 0));
    tl_store(tl_add(cs_ptr, o), tl_cumsum(x, .axis = 0));
}

TL_KERNEL(k_sum2d, (x_ptr, r0_ptr, r1_ptr), (int, M), (int, N))
{
    tl_tensor rm = tl_arange(0, M), rn = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"))));
    tl_store(tl_add(r0_ptr, rn), tl_sum(x, .axis = 0));
    tl_store(tl_add(r1_ptr, rm), tl_sum(x, .axis = 1));
}

/* the model of reduce.c, written out plainly: threads fold their registers,
 * lanes fold in halves, warps fold in halves */
static float model_sum(const float *x, int len, int stride, int lanes, int warps)
{
    int T = lanes * warps, R = len / T;
    float acc[1024];
    for (int t = 0; t < T; t++) {
        acc[t] = x[(size_t)t * stride];
        for (int r = 1; r < R; r++)
            acc[t] = acc[t] + x[(size_t)(r * T + t) * stride];
    }
    for (int w = 0; w < warps; w++)
        for (int n = lanes / 2; n >= 1; n /= 2)
            for (int l = 0; l < n; l++)
                acc[w * lanes + l] = acc[w * lanes + l] + acc[w * lanes + l + n];
    for (int n = warps / 2; n >= 1; n /= 2)
        for (int w = 0; w < n; w++)
            acc[w * lanes] = acc[w * lanes] + acc[(w + n) * lanes];
    return acc[0];
}

/* the scan model: Hillis-Steele per warp, then the running prefix of groups */
static void model_cumsum(const float *x, float *out, int len, int lanes, int warps)
{
    float v[1024];
    memcpy(v, x, sizeof(float) * (size_t)len);
    int G = len / lanes;
    for (int i = 1; i < lanes; i *= 2) {
        float old[1024];
        memcpy(old, v, sizeof(float) * (size_t)len);
        for (int g = 0; g < G; g++)
            for (int l = i; l < lanes; l++)
                v[g * lanes + l] = old[g * lanes + l - i] + old[g * lanes + l];
    }
    float excl[1024];
    for (int g = 1; g < G; g++)
        excl[g] = g == 1 ? v[lanes - 1] : excl[g - 1] + v[(g - 1) * lanes + lanes - 1];
    for (int g = 1; g < G; g++)
        for (int l = 0; l < lanes; l++)
            v[g * lanes + l] = excl[g] + v[g * lanes + l];
    (void)warps;
    memcpy(out, v, sizeof(float) * (size_t)len);
}

static void t_reduce_order(void **s)
{
    (void)s;
    enum { N = 1024 };
    static float x[N], cs[N], want_cs[N];
    float out;
    uint64_t r = 99;
    for (int i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = ldexpf((float)((r >> 40) & 0xffffff) / 16777216.0f, (int)((r >> 20) % 30) - 15) *
               ((r >> 10) & 1 ? -1 : 1);
    }
    ct_emu_kernel *k = emu_build(&k_sum1d, "x_ptr=*fp32 out_ptr=*fp32 cs_ptr=*fp32", "N=1024");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "out", &out, sizeof out, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "cs", cs, sizeof cs, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 3, a);
    /* default layout for [1024] and 4 warps: 32 lanes x 4 warps, 8 registers each */
    float want = model_sum(x, N, 1, 32, 4);
    float seq = 0;
    for (int i = 0; i < N; i++)
        seq += x[i];
    assert_true(out == want);
    assert_true(seq != want); /* the data tells the orders apart */
    model_cumsum(x, want_cs, N, 32, 4);
    for (int i = 0; i < N; i++)
        assert_true(cs[i] == want_cs[i]);
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);

    /* 2-D [64, 32], 4 warps: dim 1 has 32 lanes x 1 warp; dim 0 has 1 lane x 4 warps */
    static float m[64 * 32], r0[32], r1[64];
    for (int i = 0; i < 64 * 32; i++)
        m[i] = x[i % N] * (float)(1 + i / 1024);
    k = emu_build(&k_sum2d, "x_ptr=*fp32 r0_ptr=*fp32 r1_ptr=*fp32", "M=64 N=32");
    io_init(&o);
    ct_emu_arg b[] = {io_buf(&o, "x", m, sizeof m, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "r0", r0, sizeof r0, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "r1", r1, sizeof r1, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 3, b);
    for (int j = 0; j < 32; j++)
        assert_true(r0[j] == model_sum(m + j, 64, 32, 1, 4));
    for (int i = 0; i < 64; i++)
        assert_true(r1[i] == model_sum(m + i * 32, 32, 1, 32, 1));
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

TL_KERNEL(k_argmax, (x_ptr, out_ptr, isum_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, o));
    tl_store(out_ptr, tl_argmax(x, 0));
    tl_store(tl_add(out_ptr, 1), tl_argmin(x, 0));
    tl_store(isum_ptr, tl_sum(tl_to(x, tl_int32), .axis = 0));
}

/* the same with a layout of 4 contiguous elements per thread (a coalesced load's) */
static float model_sum_spt(const float *x, int len, int spt, int lanes, int warps)
{
    int T = lanes * warps, R = len / T;
    float acc[1024];
    for (int t = 0; t < T; t++) {
        acc[t] = x[t * spt];
        for (int r = 1; r < R; r++)
            acc[t] = acc[t] + x[(r / spt) * spt * T + t * spt + r % spt];
    }
    for (int w = 0; w < warps; w++)
        for (int n = lanes / 2; n >= 1; n /= 2)
            for (int l = 0; l < n; l++)
                acc[w * lanes + l] = acc[w * lanes + l] + acc[w * lanes + l + n];
    for (int n = warps / 2; n >= 1; n /= 2)
        for (int w = 0; w < n; w++)
            acc[w * lanes] = acc[w * lanes] + acc[(w + n) * lanes];
    return acc[0];
}

static void t_reduce_layout_from_ttgir(void **s)
{
    (void)s;
    static const char *ttgir =
        "#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
        "#blocked1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
        "module {\n"
        "    %9 = \"tt.reduce\"(%8) <{axis = 0 : i32}> ({\n"
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %19 = arith.addf %a, %b : f32\n"
        "      tt.reduce.return %19 : f32\n"
        "    }) : (tensor<1024xf32, #blocked>) -> f32 loc(#loc)\n"
        "    %10 = \"tt.scan\"(%8) <{axis = 0 : i32, reverse = false}> ({\n"
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %19 = arith.addf %a, %b : f32\n"
        "      tt.scan.return %19 : f32\n"
        "    }) : (tensor<1024xf32, #blocked1>) -> tensor<1024xf32, #blocked1> loc(#loc)\n"
        "}\n";
    ct_emu_layout l[4];
    assert_int_equal(ct_emu_layouts_from_ttgir(ttgir, l, 4), 2);
    assert_true(l[0].blocked && !l[0].is_scan && l[0].rank == 1 && l[0].shape[0] == 1024);
    assert_int_equal(l[0].size_per_thread[0], 4);
    assert_true(l[1].blocked && l[1].is_scan && l[1].size_per_thread[0] == 1);
    enum { N = 1024 };
    static float x[N], cs[N];
    float out;
    uint64_t r = 5;
    for (int i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = ldexpf((float)((r >> 40) & 0xffffff) / 16777216.0f, (int)((r >> 20) % 40) - 20) *
               ((r >> 10) & 1 ? -1 : 1);
    }
    ct_emu_kernel *k = compile_with_layouts(&k_sum1d, "x_ptr=*fp32 out_ptr=*fp32 cs_ptr=*fp32", "N=1024", 4, l, 2);
    io io_;
    io_init(&io_);
    ct_emu_arg a[] = {io_buf(&io_, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&io_, "out", &out, sizeof out, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&io_, "cs", cs, sizeof cs, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&io_, k, 1, 3, a);
    assert_true(out == model_sum_spt(x, N, 4, 32, 4));
    assert_true(out != model_sum(x, N, 1, 32, 4)); /* the layout changed the grouping */
    ct_emu_free(io_.e);
    ct_emu_kernel_free(k);
    /* layouts that do not describe the kernel's reductions are ignored */
    k = compile_with_layouts(&k_sum1d, "x_ptr=*fp32 out_ptr=*fp32 cs_ptr=*fp32", "N=1024", 4, l, 1);
    io_init(&io_);
    ct_emu_arg b[] = {io_buf(&io_, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&io_, "out", &out, sizeof out, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&io_, "cs", cs, sizeof cs, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&io_, k, 1, 3, b);
    assert_true(out == model_sum(x, N, 1, 32, 4));
    ct_emu_free(io_.e);
    ct_emu_kernel_free(k);
}

/* ScanOpToLLVM for `s` contiguous elements per thread, `L` lanes and `W` warps along the axis,
 * transcribed thread by thread (scanThreadContiguousElements, warpScan, then AddPartialReduce
 * or AddPartialReduceOneWarp); reverse: the forward scan of the flipped axis */
static void model_cumsum_layout(const float *x, float *out, int len, int s, int L, int W, bool rev)
{
    int B = len / (s * L * W);
    float v[1024];
    for (int i = 0; i < len; i++)
        v[i] = x[rev ? len - 1 - i : i];
#define IX(b, w, l, e) ((((b) * W + (w)) * L + (l)) * s + (e))
    for (int b = 0; b < B; b++)
        for (int w = 0; w < W; w++)
            for (int l = 0; l < L; l++)
                for (int e = 1; e < s; e++)
                    v[IX(b, w, l, e)] = v[IX(b, w, l, e - 1)] + v[IX(b, w, l, e)];
    for (int b = 0; b < B; b++)
        for (int w = 0; w < W; w++)
            for (int i = 1; i <= L / 2; i <<= 1) {
                float shfl[32];
                for (int l = 0; l < L; l++)
                    shfl[l] = l >= i ? v[IX(b, w, l - i, s - 1)] : 0;
                for (int l = i; l < L; l++)
                    v[IX(b, w, l, s - 1)] = shfl[l] + v[IX(b, w, l, s - 1)];
            }
    if (W > 1) {
        float part[64][8];
        for (int b = 0; b < B; b++)
            for (int w = 0; w < W; w++)
                part[b][w] = v[IX(b, w, L - 1, s - 1)];
        for (int w = 0; w < W; w++) { /* the threads of warp w */
            float acc = 0, masked = 0;
            for (int b = 0; b < B; b++) {
                for (int i = 0; i < W; i++) {
                    if (b == 0 && i == 0) {
                        acc = masked = part[0][0];
                        continue;
                    }
                    acc = acc + part[b][i];
                    if (w >= i + 1)
                        masked = acc;
                }
                float temp[32];
                for (int l = 0; l < L; l++) {
                    temp[l] = b == 0 && w == 0 ? v[IX(b, w, l, s - 1)] : masked + v[IX(b, w, l, s - 1)];
                    v[IX(b, w, l, s - 1)] = temp[l];
                }
                for (int l = 0; l < L; l++) {
                    float last = l > 0 ? temp[l - 1] : masked;
                    for (int e = 0; e < s - 1; e++)
                        if (!(b == 0 && w == 0 && l == 0))
                            v[IX(b, w, l, e)] = last + v[IX(b, w, l, e)];
                }
                masked = acc;
            }
        }
    } else {
        float acc[32];
        for (int b = 0; b < B; b++) {
            float lastv[32], prev[32];
            for (int l = 0; l < L; l++) {
                if (b == 0)
                    acc[l] = v[IX(b, 0, l, s - 1)];
                else
                    v[IX(b, 0, l, s - 1)] = acc[l] + v[IX(b, 0, l, s - 1)];
            }
            for (int l = 0; l < L; l++)
                prev[l] = v[IX(b, 0, l, s - 1)];
            for (int l = 0; l < L; l++) {
                if (L > 1)
                    lastv[l] = l == 0 ? acc[l] : prev[l - 1];
                else
                    lastv[l] = prev[l];
            }
            for (int l = 0; l < L; l++)
                acc[l] = L > 1 ? prev[L - 1] : prev[l];
            for (int l = 0; l < L; l++)
                for (int e = 0; e < s - 1; e++)
                    if (!(b == 0 && l == 0))
                        v[IX(b, 0, l, e)] = lastv[l] + v[IX(b, 0, l, e)];
        }
    }
#undef IX
    for (int i = 0; i < len; i++)
        out[rev ? len - 1 - i : i] = v[i];
}

TL_KERNEL(k_cumsum_rev, (x_ptr, cs_ptr, rs_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, o));
    tl_store(tl_add(cs_ptr, o), tl_cumsum(x, .axis = 0));
    tl_store(tl_add(rs_ptr, o), tl_cumsum(x, .axis = 0, .reverse = true));
}

/* scans over layouts of several elements per thread: multi-warp (AddPartialReduce) with two
 * repetitions, one warp (AddPartialReduceOneWarp) with repetitions, and one lane */
static void t_scan_layout_spt(void **s)
{
    (void)s;
    static const struct {
        int spt, tpw, wpc, nw;
    } cases[] = {{2, 32, 4, 4}, {4, 32, 4, 4}, {2, 16, 1, 1}, {4, 32, 1, 1}, {2, 8, 2, 2}, {2, 1, 1, 1}};
    enum { N = 512 };
    static float x[N], cs[N], rs[N], want[N];
    uint64_t r = 17;
    for (int i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = ldexpf((float)((r >> 40) & 0xffffff) / 16777216.0f, (int)((r >> 20) % 40) - 20) *
               ((r >> 10) & 1 ? -1 : 1);
    }
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ct_emu_layout l[2];
        memset(l, 0, sizeof l);
        for (int i = 0; i < 2; i++) {
            l[i].is_scan = l[i].blocked = true;
            l[i].rank = 1;
            l[i].shape[0] = N;
            l[i].size_per_thread[0] = cases[c].spt;
            l[i].threads_per_warp[0] = cases[c].tpw;
            l[i].warps_per_cta[0] = cases[c].wpc;
        }
        ct_emu_kernel *k =
            compile_with_layouts(&k_cumsum_rev, "x_ptr=*fp32 cs_ptr=*fp32 rs_ptr=*fp32", "N=512", cases[c].nw, l, 2);
        io io_;
        io_init(&io_);
        ct_emu_arg a[] = {io_buf(&io_, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                          io_buf(&io_, "cs", cs, sizeof cs, CT_EMU_F32, CT_EMU_OUT),
                          io_buf(&io_, "rs", rs, sizeof rs, CT_EMU_F32, CT_EMU_OUT)};
        run_ok(&io_, k, 1, 3, a);
        int L = cases[c].tpw, W = cases[c].wpc;
        model_cumsum_layout(x, want, N, cases[c].spt, L, W, false);
        for (int i = 0; i < N; i++)
            assert_true(cs[i] == want[i]);
        float one[N];
        model_cumsum_layout(x, one, N, 1, L, W, false);
        assert_true(memcmp(one, want, sizeof one) != 0); /* the layout changed the grouping */
        model_cumsum_layout(x, want, N, cases[c].spt, L, W, true);
        for (int i = 0; i < N; i++)
            assert_true(rs[i] == want[i]);
        ct_emu_free(io_.e);
        ct_emu_kernel_free(k);
    }
}

/* A #ttg.nvidia_mma layout (LinearLayoutConversions: nvidiaMmaTile, then the warps, then the
 * repetitions) as lists of bases (row, col): the coordinates of register r of lane `ln` of warp
 * `wp` of an S0 x S1 tensor */
typedef struct mma_ll {
    int nr, nl, nw;
    int rb[16][2], lb[5][2], wb[8][2];
} mma_ll;

static void mma_ll_init(mma_ll *m, int version, int n, int w0, int w1, int S0, int S1)
{
    memset(m, 0, sizeof *m);
#define B(arr, cnt, r_, c_) (m->arr[m->cnt][0] = (r_), m->arr[m->cnt][1] = (c_), m->cnt++)
    B(rb, nr, 0, 1);
    B(rb, nr, 8, 0);
    for (int c = 8; c < n; c *= 2)
        B(rb, nr, 0, c);
    B(lb, nl, 0, 2);
    B(lb, nl, 0, 4);
    B(lb, nl, 1, 0);
    B(lb, nl, 2, 0);
    B(lb, nl, 4, 0);
    if (version == 3) { /* Hopper: warps column-major */
        for (int r = 16; r < 16 * w0; r *= 2)
            B(wb, nw, r, 0);
        for (int c = n; c < n * w1; c *= 2)
            B(wb, nw, 0, c);
    } else {
        for (int c = n; c < n * w1; c *= 2)
            B(wb, nw, 0, c);
        for (int r = 16; r < 16 * w0; r *= 2)
            B(wb, nw, r, 0);
    }
    for (int c = n * w1; c < S1; c *= 2) /* repetitions: columns first (the repOrder) */
        B(rb, nr, 0, c);
    for (int r = 16 * w0; r < S0; r *= 2)
        B(rb, nr, r, 0);
#undef B
}

static void mma_coord(const mma_ll *m, int r, int ln, int wp, int *row, int *col)
{
    *row = *col = 0;
    for (int b = 0; b < m->nr; b++)
        if (r >> b & 1)
            *row += m->rb[b][0], *col += m->rb[b][1];
    for (int b = 0; b < m->nl; b++)
        if (ln >> b & 1)
            *row += m->lb[b][0], *col += m->lb[b][1];
    for (int b = 0; b < m->nw; b++)
        if (wp >> b & 1)
            *row += m->wb[b][0], *col += m->wb[b][1];
}

/* ReduceOpToLLVM on that layout, transcribed: every thread folds its registers of one key (the
 * other coordinate) in register order, the lanes fold with xor shuffles (N * interleave), the
 * warps' values (by their id along the axis) fold the same way through shared memory */
static void model_mma_sum(const float *x, float *out, const mma_ll *m, int S0, int S1, int axis)
{
    int K = axis == 1 ? S0 : S1, nwarps = 1 << m->nw, R = 1 << m->nr;
    static float acc[64][32][128]; /* [warp][lane][key] */
    static bool have[64][32][128];
    memset(have, 0, sizeof have);
    for (int wp = 0; wp < nwarps; wp++)
        for (int ln = 0; ln < 32; ln++)
            for (int r = 0; r < R; r++) {
                int row, col;
                mma_coord(m, r, ln, wp, &row, &col);
                int key = axis == 1 ? row : col;
                float v = x[row * S1 + col];
                acc[wp][ln][key] = have[wp][ln][key] ? acc[wp][ln][key] + v : v;
                have[wp][ln][key] = true;
            }
    int interleave = 1, size = 1;
    for (int b = 0; b < m->nl; b++)
        if (m->lb[b][axis]) {
            if (size == 1)
                interleave = 1 << b;
            size *= 2;
        }
    for (int wp = 0; wp < nwarps; wp++)
        for (int key = 0; key < K; key++)
            for (int N = size / 2; N > 0; N /= 2) {
                float old[32];
                for (int ln = 0; ln < 32; ln++)
                    old[ln] = acc[wp][ln][key];
                for (int ln = 0; ln < 32; ln++)
                    if (have[wp][ln][key])
                        acc[wp][ln][key] = old[ln] + old[ln ^ (N * interleave)];
            }
    for (int key = 0; key < K; key++) {
        float smem[64];
        int W = 1;
        for (int wp = 0; wp < nwarps; wp++)
            for (int ln = 0; ln < 32; ln++) {
                if (!have[wp][ln][key])
                    continue;
                int wa = 0, bit = 0; /* the warp's id along the axis */
                for (int b = 0; b < m->nw; b++)
                    if (m->wb[b][axis])
                        wa |= (wp >> b & 1) << bit++;
                W = 1 << bit;
                smem[wa] = acc[wp][ln][key];
            }
        for (int N = W / 2; N > 0; N /= 2) {
            float old[64];
            memcpy(old, smem, sizeof old);
            for (int w = 0; w < W; w++)
                smem[w] = old[w] + old[w ^ N];
        }
        out[key] = smem[0];
    }
}

/* reductions of an operand in an MMA layout (a dot result's), wgmma and mma.sync */
static void t_reduce_mma_layout(void **s)
{
    (void)s;
    static const char *ttgir =
        "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>\n"
        "module {\n"
        "    %9 = \"tt.reduce\"(%8) <{axis = 1 : i32}> ({\n"
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %19 = arith.addf %a, %b : f32\n"
        "      tt.reduce.return %19 : f32\n"
        "    }) : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #mma}>> loc(#loc)\n"
        "}\n";
    ct_emu_layout pl[2];
    assert_int_equal(ct_emu_layouts_from_ttgir(ttgir, pl, 2), 1);
    assert_true(!pl[0].blocked && pl[0].mma_version == 3 && pl[0].axis == 1 && pl[0].rank == 2);
    assert_true(pl[0].warps_per_cta[0] == 8 && pl[0].warps_per_cta[1] == 1);
    assert_true(pl[0].instr_shape[0] == 16 && pl[0].instr_shape[1] == 64 && pl[0].shape[0] == 128);
    static const struct {
        int version, n, w0, w1, M, N;
    } cases[] = {{3, 64, 8, 1, 128, 64}, {3, 32, 4, 2, 128, 128}, {3, 64, 4, 1, 64, 128}, {2, 8, 2, 2, 64, 64}};
    static float x[128 * 128], r0[128], r1[128], w0v[128], w1v[128];
    uint64_t r = 23;
    for (int i = 0; i < 128 * 128; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = ldexpf((float)((r >> 40) & 0xffffff) / 16777216.0f, (int)((r >> 20) % 40) - 20) *
               ((r >> 10) & 1 ? -1 : 1);
    }
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int M = cases[c].M, N = cases[c].N, nw = cases[c].w0 * cases[c].w1;
        ct_emu_layout l[2];
        memset(l, 0, sizeof l);
        for (int i = 0; i < 2; i++) {
            l[i].mma_version = cases[c].version;
            l[i].axis = i; /* k_sum2d sums axis 0, then axis 1 */
            l[i].rank = 2;
            l[i].shape[0] = M;
            l[i].shape[1] = N;
            l[i].warps_per_cta[0] = cases[c].w0;
            l[i].warps_per_cta[1] = cases[c].w1;
            l[i].instr_shape[0] = 16;
            l[i].instr_shape[1] = cases[c].n;
        }
        char consts[64];
        snprintf(consts, sizeof consts, "M=%d N=%d", M, N);
        for (int with = 0; with < 2; with++) {
            ct_emu_kernel *k = compile_with_layouts(&k_sum2d, "x_ptr=*fp32 r0_ptr=*fp32 r1_ptr=*fp32", consts, nw,
                                                    with ? l : NULL, with ? 2 : 0);
            io io_;
            io_init(&io_);
            ct_emu_arg a[] = {io_buf(&io_, "x", x, sizeof(float) * (size_t)(M * N), CT_EMU_F32, CT_EMU_IN),
                              io_buf(&io_, "r0", r0, sizeof(float) * (size_t)N, CT_EMU_F32, CT_EMU_OUT),
                              io_buf(&io_, "r1", r1, sizeof(float) * (size_t)M, CT_EMU_F32, CT_EMU_OUT)};
            run_ok(&io_, k, 1, 3, a);
            ct_emu_free(io_.e);
            ct_emu_kernel_free(k);
            if (!with) {
                memcpy(w0v, r0, sizeof r0);
                memcpy(w1v, r1, sizeof r1);
            }
        }
        mma_ll ll;
        mma_ll_init(&ll, cases[c].version, cases[c].n, cases[c].w0, cases[c].w1, M, N);
        float want[128];
        model_mma_sum(x, want, &ll, M, N, 0);
        for (int j = 0; j < N; j++)
            assert_true(r0[j] == want[j]);
        assert_true(memcmp(r0, w0v, sizeof(float) * (size_t)N) != 0); /* the layout changed it */
        model_mma_sum(x, want, &ll, M, N, 1);
        for (int i = 0; i < M; i++)
            assert_true(r1[i] == want[i]);
        assert_true(memcmp(r1, w1v, sizeof(float) * (size_t)M) != 0);
    }
}

TL_KERNEL(k_sum_sum, (x_ptr, r1_ptr, t_ptr), (int, M), (int, N))
{
    tl_tensor rm = tl_arange(0, M), rn = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"))));
    tl_tensor r1 = tl_sum(x, .axis = 1);
    tl_store(tl_add(r1_ptr, rm), r1);
    tl_store(t_ptr, tl_sum(r1, .axis = 0));
}

/* a reduction of a reduction's result: its operand is a #ttg.slice of the first one's layout */
static void t_reduce_slice_layout(void **s)
{
    (void)s;
    static const char *ttgir =
        "#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>\n"
        "module {\n"
        "    %9 = \"tt.reduce\"(%8) <{axis = 1 : i32}> ({\n"
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %19 = arith.addf %a, %b : f32\n"
        "      tt.reduce.return %19 : f32\n"
        "    }) : (tensor<64x32xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc)\n"
        "    %10 = \"tt.reduce\"(%9) <{axis = 0 : i32}> ({\n"
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %19 = arith.addf %a, %b : f32\n"
        "      tt.reduce.return %19 : f32\n"
        "    }) : (tensor<64xf32, #ttg.slice<{dim = 1, parent = #blocked}>>) -> f32 loc(#loc)\n"
        "}\n";
    ct_emu_layout l[2];
    assert_int_equal(ct_emu_layouts_from_ttgir(ttgir, l, 2), 2);
    assert_true(l[0].blocked && l[0].base_rank == 0 && l[0].rank == 2);
    assert_true(l[1].blocked && l[1].rank == 1 && l[1].shape[0] == 64 && l[1].base_rank == 2);
    assert_true(l[1].base_dim[0] == 0 && l[1].threads_per_warp[0] == 4 && l[1].warps_per_cta[0] == 4);
    static float x[128 * 64], r1[128], x2[128 * 64], want[128];
    float t, t_default;
    uint64_t r = 31;
    for (int i = 0; i < 128 * 64; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = ldexpf((float)((r >> 40) & 0xffffff) / 16777216.0f, (int)((r >> 20) % 40) - 20) *
               ((r >> 10) & 1 ? -1 : 1);
    }
    for (int c = 0; c < 3; c++) {
        /* c 0: the blocked layout above; 1: a slice of wgmma's layout; 2: none (the default) */
        int M = c == 0 ? 64 : 128, N = c == 0 ? 32 : 64;
        ct_emu_layout ml[2];
        memset(ml, 0, sizeof ml);
        for (int i = 0; i < 2; i++) {
            ml[i].mma_version = 3;
            ml[i].rank = 2 - i;
            ml[i].axis = 1 - i;
            ml[i].shape[0] = M;
            ml[i].shape[1] = N;
            ml[i].warps_per_cta[0] = 8;
            ml[i].warps_per_cta[1] = 1;
            ml[i].instr_shape[0] = 16;
            ml[i].instr_shape[1] = 64;
        }
        ml[1].base_rank = 2; /* #ttg.slice<{dim = 1, parent = #mma}> */
        ml[1].base_dim[0] = 0;
        char consts[64];
        snprintf(consts, sizeof consts, "M=%d N=%d", M, N);
        ct_emu_kernel *k = compile_with_layouts(&k_sum_sum, "x_ptr=*fp32 r1_ptr=*fp32 t_ptr=*fp32", consts,
                                                c == 0 ? 4 : 8, c == 0 ? l : c == 1 ? ml : NULL, c == 2 ? 0 : 2);
        io io_;
        io_init(&io_);
        ct_emu_arg a[] = {io_buf(&io_, "x", x, sizeof(float) * (size_t)(M * N), CT_EMU_F32, CT_EMU_IN),
                          io_buf(&io_, "r1", r1, sizeof(float) * (size_t)M, CT_EMU_F32, CT_EMU_OUT),
                          io_buf(&io_, "t", &t, sizeof t, CT_EMU_F32, CT_EMU_OUT)};
        run_ok(&io_, k, 1, 3, a);
        ct_emu_free(io_.e);
        ct_emu_kernel_free(k);
        if (c == 0) {
            for (int i = 0; i < M; i++)
                assert_true(r1[i] == model_sum_spt(x + i * N, N, 4, 8, 1));
            /* the slice keeps the parent's dim 0: 1 element x 4 lanes x 4 warps, 4 repetitions */
            assert_true(t == model_sum_spt(r1, M, 1, 4, 4));
            assert_true(t != model_sum(r1, M, 1, 32, 2)); /* the default's grouping differs */
        } else if (c == 1) {
            mma_ll ll;
            mma_ll_init(&ll, 3, 64, 8, 1, M, N);
            model_mma_sum(x, want, &ll, M, N, 1);
            for (int i = 0; i < M; i++)
                assert_true(r1[i] == want[i]);
            /* the slice folds the rows as a column of the parent does */
            memset(x2, 0, sizeof x2);
            for (int i = 0; i < M; i++)
                x2[i * N] = r1[i];
            model_mma_sum(x2, want, &ll, M, N, 0);
            assert_true(t == want[0]);
            t_default = t;
        } else {
            assert_true(t != t_default);
        }
    }
}

TL_KERNEL(k_dot_sum, (x_ptr, y_ptr, out_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor p = tl_mul(tl_load(tl_add(x_ptr, o)), tl_load(tl_add(y_ptr, o)));
    tl_store(out_ptr, tl_sum(p, .axis = 0)); /* tl.sum: a call; LLVM sees it inlined */
}

/* the sum of a product: each thread's fold is contracted into fmas as LLVM does,
 * fma(x0, y0, x1 * y1) (the left operand of the first add), then fma(x, y, acc); the lanes and
 * warps add their results */
static void t_reduce_fma_fold(void **s)
{
    (void)s;
    enum { N = 1024 };
    static float x[N], y[N];
    uint64_t r = 41;
    for (int i = 0; i < N; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        float m = (float)((r >> 40) & 0xffffff) / 16777216.0f;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        float n = (float)((r >> 40) & 0xffffff) / 16777216.0f;
        /* registers 0 and 1 of each thread cancel but for x0 * y0's rounding error, which
         * only the contraction keeps; the later registers are of that error's size */
        x[i] = i < 128 ? m : i < 256 ? -x[i - 128] : ldexpf(m, -30);
        y[i] = i < 128 ? n : i < 256 ? y[i - 128] : ldexpf(n, -30);
    }
    float out;
    ct_emu_kernel *k = emu_build(&k_dot_sum, "x_ptr=*fp32 y_ptr=*fp32 out_ptr=*fp32", "N=1024");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "y", y, sizeof y, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "out", &out, sizeof out, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 3, a);
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
    /* default layout, 4 warps: thread t holds t, t + 128, ..., 8 registers */
    enum { T = 128, R = N / T };
    float acc[T], plain[T], late[T];
    for (int t = 0; t < T; t++) {
        acc[t] = fmaf(x[t], y[t], x[T + t] * y[T + t]);
        plain[t] = x[t] * y[t] + x[T + t] * y[T + t];
        late[t] = fmaf(x[T + t], y[T + t], x[t] * y[t]);
        for (int q = 2; q < R; q++) {
            acc[t] = fmaf(x[q * T + t], y[q * T + t], acc[t]);
            plain[t] = plain[t] + x[q * T + t] * y[q * T + t];
            late[t] = fmaf(x[q * T + t], y[q * T + t], late[t]);
        }
    }
    float *v[3] = {acc, plain, late};
    for (int m = 0; m < 3; m++) {
        for (int w = 0; w < 4; w++)
            for (int n = 16; n >= 1; n /= 2)
                for (int l = 0; l < n; l++)
                    v[m][w * 32 + l] = v[m][w * 32 + l] + v[m][w * 32 + l + n];
        for (int n = 2; n >= 1; n /= 2)
            for (int w = 0; w < n; w++)
                v[m][w * 32] = v[m][w * 32] + v[m][(w + n) * 32];
    }
    assert_true(out == acc[0]);
    assert_true(acc[0] != plain[0]); /* without the contraction */
    assert_true(acc[0] != late[0]);  /* contracting the other product first */
}

/* the same fold with one register per thread (N = 128: the plain products) and in f64
 * (N = 512: fma in double), against the GPU's order computed here */
static void t_reduce_fma_fold_shapes(void **s)
{
    (void)s;
    enum { T = 128, NMAX = 512 };
    static double xd[NMAX], yd[NMAX];
    static float xf[NMAX], yf[NMAX];
    uint64_t r = 97;
    for (int i = 0; i < NMAX; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        xd[i] = (double)(int64_t)(r >> 11) * 0x1p-52 - 1.0;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        yd[i] = (double)(int64_t)(r >> 11) * 0x1p-52 - 1.0;
        xf[i] = (float)xd[i];
        yf[i] = (float)yd[i];
    }
    for (int f64 = 0; f64 < 2; f64++) {
        int N = f64 ? 512 : 128, R = N / T;
        ct_emu_kernel *k = emu_build(&k_dot_sum, f64 ? "x_ptr=*fp64 y_ptr=*fp64 out_ptr=*fp64"
                                                     : "x_ptr=*fp32 y_ptr=*fp32 out_ptr=*fp32",
                                     f64 ? "N=512" : "N=128");
        double outd = 0;
        float outf = 0;
        io o;
        io_init(&o);
        ct_emu_arg a[] = {
            f64 ? io_buf(&o, "x", xd, sizeof(double) * (size_t)N, CT_EMU_F64, CT_EMU_IN)
                : io_buf(&o, "x", xf, sizeof(float) * (size_t)N, CT_EMU_F32, CT_EMU_IN),
            f64 ? io_buf(&o, "y", yd, sizeof(double) * (size_t)N, CT_EMU_F64, CT_EMU_IN)
                : io_buf(&o, "y", yf, sizeof(float) * (size_t)N, CT_EMU_F32, CT_EMU_IN),
            f64 ? io_buf(&o, "out", &outd, sizeof outd, CT_EMU_F64, CT_EMU_OUT)
                : io_buf(&o, "out", &outf, sizeof outf, CT_EMU_F32, CT_EMU_OUT)};
        run_ok(&o, k, 1, 3, a);
        ct_emu_free(o.e);
        ct_emu_kernel_free(k);
        double v[T];
        float w[T];
        for (int t = 0; t < T; t++) {
            if (R == 1) {
                w[t] = xf[t] * yf[t];
                v[t] = xd[t] * yd[t];
                continue;
            }
            w[t] = fmaf(xf[t], yf[t], xf[T + t] * yf[T + t]);
            v[t] = fma(xd[t], yd[t], xd[T + t] * yd[T + t]);
            for (int q = 2; q < R; q++) {
                w[t] = fmaf(xf[q * T + t], yf[q * T + t], w[t]);
                v[t] = fma(xd[q * T + t], yd[q * T + t], v[t]);
            }
        }
        for (int wp = 0; wp < 4; wp++)
            for (int n = 16; n >= 1; n /= 2)
                for (int l = 0; l < n; l++) {
                    w[wp * 32 + l] = w[wp * 32 + l] + w[wp * 32 + l + n];
                    v[wp * 32 + l] = v[wp * 32 + l] + v[wp * 32 + l + n];
                }
        for (int n = 2; n >= 1; n /= 2)
            for (int wp = 0; wp < n; wp++) {
                w[wp * 32] = w[wp * 32] + w[(wp + n) * 32];
                v[wp * 32] = v[wp * 32] + v[(wp + n) * 32];
            }
        if (f64)
            assert_true(outd == v[0]);
        else
            assert_true(outf == w[0]);
    }
}

static void t_argmax_ties(void **s)
{
    (void)s;
    float x[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)(i % 10);
    x[3] = 20;
    x[40] = 20; /* tie: the first index wins */
    x[50] = -1;
    x[60] = -1;
    int32_t out[2], isum;
    ct_emu_kernel *k = emu_build(&k_argmax, "x_ptr=*fp32 out_ptr=*i32 isum_ptr=*i32", "N=64");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "out", out, sizeof out, CT_EMU_I32, CT_EMU_OUT),
                      io_buf(&o, "isum", &isum, sizeof isum, CT_EMU_I32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 3, a);
    assert_int_equal(out[0], 3);
    assert_int_equal(out[1], 50);
    int want = 0;
    for (int i = 0; i < 64; i++)
        want += (int)x[i];
    assert_int_equal(isum, want);
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- dot ------------------------------------------------------------------------------------ */

TL_KERNEL(k_dot, (a_ptr, b_ptr, c_ptr), (int, M), (int, N), (int, K), (const char *, PREC))
{
    tl_tensor rm = tl_arange(0, M), rn = tl_arange(0, N), rk = tl_arange(0, K);
    tl_tensor a = tl_load(tl_add(a_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), K), tl_idx(rk, "None, :"))));
    tl_tensor b = tl_load(tl_add(b_ptr, tl_add(tl_mul(tl_idx(rk, ":, None"), N), tl_idx(rn, "None, :"))));
    tl_tensor c = tl_dot(a, b, .input_precision = PREC);
    tl_store(tl_add(c_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"))), c);
}

static void t_dot(void **s)
{
    (void)s;
    enum { M = 16, N = 16, K = 32 };
    static float a[M * K], b[K * N], c[M * N];
    for (int i = 0; i < M * K; i++)
        a[i] = ldexpf((float)((i * 7919) % 1000) - 500, -(i % 13));
    for (int i = 0; i < K * N; i++)
        b[i] = ldexpf((float)((i * 104729) % 1000) - 500, -(i % 11));
    /* ieee: the FMA dot, k in order: bit-exact */
    ct_emu_kernel *k = emu_build(&k_dot, "a_ptr=*fp32 b_ptr=*fp32 c_ptr=*fp32",
                                 "M=16 N=16 K=32 PREC='ieee'");
    io o;
    io_init(&o);
    ct_emu_arg args[] = {io_buf(&o, "a", a, sizeof a, CT_EMU_F32, CT_EMU_IN),
                         io_buf(&o, "b", b, sizeof b, CT_EMU_F32, CT_EMU_IN),
                         io_buf(&o, "c", c, sizeof c, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 3, args);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            float acc = 0;
            for (int kk = 0; kk < K; kk++)
                acc = fmaf(a[m * K + kk], b[kk * N + n], acc);
            assert_true(c[m * N + n] == acc);
        }
    ct_emu_kernel_free(k);
    /* tf32: inputs truncated to 10 mantissa bits, within the MMA model */
    k = emu_build(&k_dot, "a_ptr=*fp32 b_ptr=*fp32 c_ptr=*fp32", "M=16 N=16 K=32 PREC='tf32'");
    run_ok(&o, k, 1, 3, args);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double acc = 0, mag = 0;
            for (int kk = 0; kk < K; kk++) {
                uint32_t ua, ub;
                memcpy(&ua, &a[m * K + kk], 4);
                memcpy(&ub, &b[kk * N + n], 4);
                ua &= 0xffffe000u;
                ub &= 0xffffe000u;
                float ta, tb;
                memcpy(&ta, &ua, 4);
                memcpy(&tb, &ub, 4);
                acc += (double)ta * tb;
                mag += fabs((double)ta * tb);
            }
            assert_true(fabs(c[m * N + n] - acc) <= 4 * ldexp(mag, -24));
        }
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* fp8 x fp8 -> f32: the model of Hopper's wgmma (src/emu/dot.c, fitted to an H200) */
TL_KERNEL(k_dot8, (a_ptr, b_ptr, c_ptr), (int, M), (int, N), (int, K), (int, IMPRECISE))
{
    tl_tensor rm = tl_arange(0, M), rn = tl_arange(0, N), rk = tl_arange(0, K);
    tl_tensor a = tl_load(tl_add(a_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), K), tl_idx(rk, "None, :"))));
    tl_tensor b = tl_load(tl_add(b_ptr, tl_add(tl_mul(tl_idx(rk, ":, None"), N), tl_idx(rn, "None, :"))));
    tl_tensor c = tl_dot(a, b, .max_num_imprecise_acc = IMPRECISE);
    tl_store(tl_add(c_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"))), c);
}

static uint8_t e4m3_code(double v)
{
    for (int b = 0; b < 256; b++)
        if (fp8_value(b, 4, 3, 7, true) == v && (v != 0 || b == 0))
            return (uint8_t)b;
    fail_msg("%g is not an e4m3 value", v);
    return 0;
}

static void t_dot_fp8(void **s)
{
    (void)s;
    /* M = 64, 4 warps: Triton picks wgmma (the fp8 model; a smaller tile is mma.sync on f16) */
    enum { M = 64, N = 16, K = 64 };
    static uint8_t a[M * K], b[K * N];
    static float c[M * N];
    /* row 0 of A against columns 0-3 of B */
    a[0] = e4m3_code(1);
    a[1] = e4m3_code(0x1p-6);
    for (int k = 2; k < 18; k++)
        a[k] = e4m3_code(1);
    a[32] = e4m3_code(0x1p-6);
    a[1 * K + 40] = 0x7f; /* NaN in row 1 */
    for (int k = 0; k < 18; k++)
        b[k * N + 0] = e4m3_code(1);
    b[1 * N + 0] = e4m3_code(0x1p-7);  /* 1 + 2^-13 + 16: 18 bits, cut to 14: 17 */
    b[32 * N + 0] = e4m3_code(0x1p-7); /* + 2^-13 in the second instruction */
    b[0 * N + 1] = e4m3_code(1);
    b[1 * N + 1] = e4m3_code(0x1p-8);  /* 1 + 2^-14: below 2^(0 - 13), cut: 1 */
    b[0 * N + 2] = e4m3_code(-1);
    b[1 * N + 2] = e4m3_code(-0x1p-8); /* toward zero: -1 */
    for (int imprecise = 0; imprecise < 2; imprecise++) {
        char cx[96];
        snprintf(cx, sizeof cx, "M=64 N=16 K=64 IMPRECISE=%d", imprecise ? 32 : -1);
        ct_emu_kernel *k = emu_build(&k_dot8, "a_ptr=*fp8e4nv b_ptr=*fp8e4nv c_ptr=*fp32", cx);
        io o;
        io_init(&o);
        ct_emu_arg args[] = {io_buf(&o, "a", a, sizeof a, CT_EMU_F8E4NV, CT_EMU_IN),
                             io_buf(&o, "b", b, sizeof b, CT_EMU_F8E4NV, CT_EMU_IN),
                             io_buf(&o, "c", c, sizeof c, CT_EMU_F32, CT_EMU_OUT)};
        run_ok(&o, k, 1, 3, args);
        /* the default (maxNumImpreciseAcc 2^30): one accumulator through both instructions, the
         * second one's 2^-13 falls below 2^(4 - 13); with 32: each instruction's sum is added to
         * the accumulator by an f32 add */
        assert_true(c[0] == (imprecise ? 17 + 0x1p-13f : 17.0f));
        assert_true(c[1] == 1.0f);
        assert_true(c[2] == -1.0f);
        for (int n = 3; n < N; n++)
            assert_true(c[n] == 0);
        for (int n = 0; n < N; n++) /* NaN x 0 included */
            assert_true(isnan(c[N + n]));
        for (int i = 2 * N; i < M * N; i++)
            assert_true(c[i] == 0);
        ct_emu_free(o.e);
        ct_emu_kernel_free(k);
    }
}

/* ---- control flow ------------------------------------------------------------------------ */

TL_KERNEL(k_flow, (out_ptr, n), (int, UNUSED))
{
    (void)UNUSED;
    tl_tensor s = tl_to_tensor(0);
    tl_tensor t = tl_to_tensor(1);
    TL_FOR(i, tl_range(0, n, 1), s, t)
    {
        s = tl_add(s, i);
        TL_IF(tl_eq(tl_mod(i, 2), 0), t) { t = tl_mul(t, 2); }
        TL_ELSE { t = tl_add(t, 1); }
    }
    tl_tensor w = tl_to_tensor(1);
    TL_WHILE(tl_lt(w, 1000), w) { w = tl_mul(w, 3); }
    tl_store(out_ptr, s);
    tl_store(tl_add(out_ptr, 1), t);
    tl_store(tl_add(out_ptr, 2), w);
    TL_IF(tl_gt(n, 5)) { TL_RETURN(); }
    tl_store(tl_add(out_ptr, 3), 77);
}

static void t_control_flow(void **s)
{
    (void)s;
    for (int n = 4; n <= 6; n += 2) {
        int32_t out[4] = {0, 0, 0, -5};
        ct_emu_kernel *k = emu_build(&k_flow, "out_ptr=*i32 n=i32", "UNUSED=0");
        io o;
        io_init(&o);
        ct_emu_arg a[] = {io_buf(&o, "out", out, sizeof out, CT_EMU_I32, CT_EMU_INOUT),
                          ct_emu_int(n)};
        run_ok(&o, k, 1, 2, a);
        int ws = 0, wt = 1, ww = 1;
        for (int i = 0; i < n; i++) {
            ws += i;
            wt = i % 2 == 0 ? wt * 2 : wt + 1;
        }
        while (ww < 1000)
            ww *= 3;
        assert_int_equal(out[0], ws);
        assert_int_equal(out[1], wt);
        assert_int_equal(out[2], ww);
        assert_int_equal(out[3], n > 5 ? -5 : 77);
        ct_emu_free(o.e);
        ct_emu_kernel_free(k);
    }
}

/* Values a loop carries are updated in place when nothing reads the old value afterwards
 * (compile.c, emu_cc_overwritable); here p is advanced in place, q is not (its old value is
 * loaded after the advance), and the dot accumulates in place except where its old value is
 * stored after the dot. */
TL_KERNEL(k_inplace, (x_ptr, out_ptr, n), (int, B))
{
    tl_tensor r = tl_arange(0, B);
    tl_tensor p = tl_add(x_ptr, r), q = tl_add(x_ptr, r);
    tl_tensor s = tl_zeros(tl_shape(B), tl_float32), t = tl_zeros(tl_shape(B), tl_float32);
    tl_tensor acc = tl_zeros(tl_shape(16, 16), tl_float32);
    tl_tensor old = tl_zeros(tl_shape(16, 16), tl_float32);
    tl_tensor ones = tl_full(tl_shape(16, 16), 1.0, tl_float16);
    TL_FOR(i, tl_range(0, n, 1), p, q, s, t, acc, old)
    {
        s = tl_add(s, tl_load(p));
        p = tl_add(p, B);
        tl_tensor q2 = tl_add(q, B);
        t = tl_add(t, tl_load(q)); /* the old q, after q + B */
        q = q2;
        tl_tensor acc2 = tl_dot(ones, ones, .acc = acc);
        old = tl_add(old, acc); /* the old acc, after the dot */
        acc = acc2;
    }
    tl_store(tl_add(out_ptr, r), s);
    tl_store(tl_add(out_ptr, tl_add(r, B)), t);
    tl_tensor i16 = tl_add(tl_mul(tl_idx(tl_arange(0, 16), ":, None"), 16),
                           tl_idx(tl_arange(0, 16), "None, :"));
    tl_store(tl_add(out_ptr, tl_add(i16, 2 * B)), acc);
    tl_store(tl_add(out_ptr, tl_add(i16, 2 * B + 256)), old);
}

/* Pointer arithmetic on a splat reads the scalar (compile_ops.c, forward_splat); the scalar
 * must then keep its value: here it is advanced in place (addptr over a value nothing reads
 * later) after the splat was read (order A) and before (order B). */
TL_KERNEL(k_pinned, (x_ptr, out_ptr), (int, B))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor r = tl_arange(0, B);
    /* A: splat(s) + r, then s + 1 */
    tl_tensor s = tl_add(x_ptr, pid);
    tl_tensor va = tl_load(tl_add(s, r));
    tl_tensor s2 = tl_add(s, 1);
    tl_tensor wa = tl_load(s2);
    /* B: splat(u), then u + 2, then splat(u) + r */
    tl_tensor u = tl_add(x_ptr, pid);
    tl_tensor tu = tl_broadcast_to(u, tl_shape(B));
    tl_tensor u2 = tl_add(u, 2);
    tl_tensor wb = tl_load(u2);
    tl_tensor vb = tl_load(tl_add(tu, r));
    tl_store(tl_add(out_ptr, r), tl_add(tl_add(va, wa), tl_add(vb, wb)));
}

static void t_pinned(void **s)
{
    (void)s;
    enum { B = 16 };
    static float x[64], out[B];
    for (int i = 0; i < 64; i++)
        x[i] = (float)(i * i % 23);
    ct_emu_kernel *k = emu_build(&k_pinned, "x_ptr=*fp32 out_ptr=*fp32", "B=16");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "out", out, sizeof out, CT_EMU_F32, CT_EMU_OUT)};
    ct_emu_result r;
    assert_int_equal(emu_go(o.e, k, 3, 1, 1, 1, 2, a, &r), CT_EMU_OK);
    int pid = 2; /* the last program's row */
    for (int j = 0; j < B; j++)
        assert_true(out[j] == (x[pid + j] + x[pid + 1]) + (x[pid + j] + x[pid + 2]));
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

static void t_inplace(void **s)
{
    (void)s;
    enum { B = 32, STEPS = 5 };
    static float x[B * STEPS], out[2 * B + 512];
    for (int i = 0; i < B * STEPS; i++)
        x[i] = (float)(i % 17);
    ct_emu_kernel *k = emu_build(&k_inplace, "x_ptr=*fp32 out_ptr=*fp32 n=i32", "B=32");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "out", out, sizeof out, CT_EMU_F32, CT_EMU_OUT), ct_emu_int(STEPS)};
    run_ok(&o, k, 1, 3, a);
    for (int j = 0; j < B; j++) {
        float want = 0;
        for (int i = 0; i < STEPS; i++)
            want += x[i * B + j];
        assert_true(out[j] == want);
        assert_true(out[B + j] == want);
    }
    for (int j = 0; j < 256; j++) {
        assert_true(out[2 * B + j] == 16.0f * STEPS);
        assert_true(out[2 * B + 256 + j] == 16.0f * STEPS * (STEPS - 1) / 2);
    }
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- shapes ------------------------------------------------------------------------------ */

TL_KERNEL(k_shapes, (x_ptr, t_ptr, j_ptr, g_ptr, h_ptr), (int, M), (int, N))
{
    tl_tensor rm = tl_arange(0, M), rn = tl_arange(0, N);
    tl_tensor idx = tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"));
    tl_tensor x = tl_load(tl_add(x_ptr, idx));
    /* transpose: t[n][m] = x[m][n] */
    tl_tensor tidx = tl_add(tl_mul(tl_idx(rn, ":, None"), M), tl_idx(rm, "None, :"));
    tl_store(tl_add(t_ptr, tidx), tl_trans(x));
    /* join then split back, and interleave */
    tl_tensor a, b;
    tl_split(tl_join(x, tl_add(x, 100)), &a, &b);
    tl_store(tl_add(j_ptr, idx), tl_sub(b, a));
    /* gather along axis 1 with reversed column indices */
    tl_tensor rev = tl_broadcast_to(tl_idx(tl_sub(N - 1, rn), "None, :"), tl_shape(M, N));
    tl_store(tl_add(g_ptr, idx), tl_gather(x, rev, 1));
    /* histogram of x mod 8 */
    tl_tensor flat = tl_reshape(tl_to(x, tl_int32), tl_shape(M * N));
    tl_store(tl_add(h_ptr, tl_arange(0, 8)), tl_histogram(tl_mod(flat, 8), 8));
}

static void t_shapes(void **s)
{
    (void)s;
    enum { M = 4, N = 8 };
    float x[M * N], t[M * N], j[M * N], g[M * N];
    int32_t h[8];
    for (int i = 0; i < M * N; i++)
        x[i] = (float)((i * 5) % 13);
    ct_emu_kernel *k = emu_build(&k_shapes, "x_ptr=*fp32 t_ptr=*fp32 j_ptr=*fp32 g_ptr=*fp32 h_ptr=*i32", "M=4 N=8");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "t", t, sizeof t, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "j", j, sizeof j, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "g", g, sizeof g, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "h", h, sizeof h, CT_EMU_I32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 5, a);
    int wh[8] = {0};
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            assert_true(t[n * M + m] == x[m * N + n]);
            assert_true(j[m * N + n] == 100);
            assert_true(g[m * N + n] == x[m * N + (N - 1 - n)]);
            wh[(int)x[m * N + n] % 8]++;
        }
    assert_memory_equal(h, wh, sizeof h);
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- integer reductions and scans: one result in any order, folded directly ------------- */

TL_JIT(int_or_combine, (a, b))
{
    return tl_or(a, b);
}

TL_JIT(int_add_checked, (a, b))
{
    /* the dead overflow check beside the add, as Triton's own _sum_combine carries it */
    tl_tensor wide = tl_add(tl_to(a, tl_int64), tl_to(b, tl_int64));
    (void)tl_le(wide, 2147483647);
    return tl_add(a, b);
}

TL_KERNEL(k_int_reduce, (x_ptr, o_ptr), (int, R), (int, C))
{
    tl_tensor rr = tl_arange(0, R), rc = tl_arange(0, C);
    tl_tensor idx = tl_add(tl_mul(tl_idx(rr, ":, None"), C), tl_idx(rc, "None, :"));
    tl_tensor x = tl_load(tl_add(x_ptr, idx));
    tl_tensor u = tl_to(x, tl_uint32);
    tl_store(tl_add(o_ptr, rr), tl_sum(x, .axis = 1));                                   /* R */
    tl_store(tl_add(tl_add(o_ptr, R), rc), tl_sum(x, .axis = 0));                        /* C */
    tl_store(tl_add(tl_add(o_ptr, R + C), rc), tl_to(tl_max(u, .axis = 0), tl_int32));   /* C */
    tl_store(tl_add(tl_add(o_ptr, R + 2 * C), rr), tl_min(x, .axis = 1));                /* R */
    tl_store(tl_add(tl_add(o_ptr, 2 * R + 2 * C), rc),
             tl_to(tl_xor_sum(tl_to(x, tl_int8), .axis = 0), tl_int32));                 /* C */
    tl_tensor odd = tl_ne(tl_and(x, 1), 0);
    tl_store(tl_add(tl_add(o_ptr, 2 * R + 3 * C), rr),
             tl_to(tl_reduce(odd, 1, int_or_combine), tl_int32));                /* R */
    tl_store(tl_add(tl_add(o_ptr, 3 * R + 3 * C), rr),
             tl_reduce(x, 1, int_add_checked));                                  /* R */
    tl_tensor base = tl_add(o_ptr, 4 * R + 3 * C);
    tl_store(tl_add(base, idx), tl_cumsum(x, .axis = 1, .reverse = true));                /* R*C */
    tl_store(tl_add(tl_add(base, R * C), idx), tl_cumsum(x, .axis = 0));                  /* R*C */
    tl_store(tl_add(tl_add(base, 2 * R * C), idx), tl_cumprod(tl_or(x, 1), .axis = 1));   /* R*C */
    /* a reverse scan down the columns, and rows folded in i64 and i16 */
    tl_store(tl_add(tl_add(base, 3 * R * C), idx), tl_cumsum(x, .axis = 0, .reverse = true)); /* R*C */
    tl_tensor more = tl_add(o_ptr, 4 * R + 3 * C + 4 * R * C);
    tl_store(tl_add(more, rr), tl_to(tl_sum(tl_to(x, tl_int64), .axis = 1), tl_int32));       /* R */
    tl_store(tl_add(tl_add(more, R), rr), tl_to(tl_max(tl_to(x, tl_int16), .axis = 1), tl_int32)); /* R */
    /* four columns: narrower than a vector */
    tl_tensor x4 = tl_reshape(x, tl_shape(R * C / 4, 4)), i4 = tl_reshape(idx, tl_shape(R * C / 4, 4));
    tl_tensor b4 = tl_add(more, 2 * R);
    tl_store(tl_add(b4, i4), tl_cumsum(x4, .axis = 0, .reverse = true));                     /* R*C */
    tl_store(tl_add(tl_add(b4, R * C), tl_arange(0, 4)),
             tl_to(tl_sum(tl_to(x4, tl_int64), .axis = 0), tl_int32));                      /* 4 */
}

static void t_reduce_integer_ops(void **s)
{
    (void)s;
    enum { R = 8, C = 64, NOUT = 6 * R + 3 * C + 5 * R * C + 4 };
    static int32_t x[R * C], o[NOUT];
    uint64_t g = 11;
    for (int i = 0; i < R * C; i++) {
        g = g * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (int32_t)(uint32_t)(g >> 32); /* full range: sums and products wrap */
    }
    ct_emu_kernel *k = emu_build(&k_int_reduce, "x_ptr=*i32 o_ptr=*i32", "R=8 C=64");
    io io_;
    io_init(&io_);
    ct_emu_arg a[] = {io_buf(&io_, "x", x, sizeof x, CT_EMU_I32, CT_EMU_IN),
                      io_buf(&io_, "o", o, sizeof o, CT_EMU_I32, CT_EMU_OUT)};
    run_ok(&io_, k, 1, 2, a);
    for (int r = 0; r < R; r++) {
        uint32_t sum = 0, any = 0;
        int32_t mn = INT32_MAX;
        for (int c = 0; c < C; c++) {
            uint32_t v = (uint32_t)x[r * C + c];
            sum += v;
            any |= v & 1;
            mn = x[r * C + c] < mn ? x[r * C + c] : mn;
        }
        assert_int_equal(o[r], (int32_t)sum);
        assert_int_equal(o[R + 2 * C + r], mn);
        assert_int_equal(o[2 * R + 3 * C + r], (int32_t)any);
        assert_int_equal(o[3 * R + 3 * C + r], (int32_t)sum);
        uint32_t rev = 0, prod = 1;
        for (int c = C - 1; c >= 0; c--) {
            rev += (uint32_t)x[r * C + c];
            assert_int_equal(o[4 * R + 3 * C + r * C + c], (int32_t)rev);
        }
        int16_t mx16 = INT16_MIN;
        for (int c = 0; c < C; c++) {
            prod *= (uint32_t)x[r * C + c] | 1u;
            assert_int_equal(o[4 * R + 3 * C + 2 * R * C + r * C + c], (int32_t)prod);
            int16_t h = (int16_t)x[r * C + c];
            mx16 = h > mx16 ? h : mx16;
        }
        assert_int_equal(o[4 * R + 3 * C + 4 * R * C + r], (int32_t)sum);
        assert_int_equal(o[5 * R + 3 * C + 4 * R * C + r], mx16);
    }
    for (int c = 0; c < C; c++) {
        uint32_t sum = 0, mx = 0;
        int8_t xs = 0;
        for (int r = 0; r < R; r++) {
            uint32_t v = (uint32_t)x[r * C + c];
            sum += v;
            mx = v > mx ? v : mx;
            xs = (int8_t)(xs ^ (int8_t)v);
            assert_int_equal(o[4 * R + 3 * C + R * C + r * C + c], (int32_t)sum);
        }
        assert_int_equal(o[R + c], (int32_t)sum);
        assert_int_equal(o[R + C + c], (int32_t)mx);
        uint32_t rsum = 0;
        for (int r = R - 1; r >= 0; r--) {
            rsum += (uint32_t)x[r * C + c];
            assert_int_equal(o[4 * R + 3 * C + 3 * R * C + r * C + c], (int32_t)rsum);
        }
        assert_int_equal(o[2 * R + 2 * C + c], xs);
    }
    for (int c = 0; c < 4; c++) {
        uint32_t rsum = 0;
        for (int r = R * C / 4 - 1; r >= 0; r--) {
            rsum += (uint32_t)x[r * 4 + c];
            assert_int_equal(o[6 * R + 3 * C + 4 * R * C + r * 4 + c], (int32_t)rsum);
        }
        assert_int_equal(o[6 * R + 3 * C + 5 * R * C + c], (int32_t)rsum);
    }
    ct_emu_free(io_.e);
    ct_emu_kernel_free(k);
}

/* ---- sort, topk, flip, user combine functions ------------------------------------------------ */

TL_JIT(sort_test_add, (a, b))
{
    return tl_add(a, b);
}

TL_KERNEL(k_sort, (x_ptr, s_ptr, d_ptr, f_ptr, t_ptr, c_ptr, r_ptr), (int, M), (int, N), (int, K))
{
    tl_tensor rm = tl_arange(0, M), rn = tl_arange(0, N);
    tl_tensor idx = tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"));
    tl_tensor x = tl_load(tl_add(x_ptr, idx));
    tl_store(tl_add(s_ptr, idx), tl_sort(x));
    tl_store(tl_add(d_ptr, idx), tl_sort(x, .descending = true));
    tl_store(tl_add(f_ptr, idx), tl_flip(x, 1));
    tl_tensor kidx = tl_add(tl_mul(tl_idx(rm, ":, None"), K), tl_idx(tl_arange(0, K), "None, :"));
    tl_store(tl_add(t_ptr, kidx), tl_topk(x, K));
    /* a reverse cumulative sum along rows, and each row's total, with a user combine */
    tl_store(tl_add(c_ptr, idx), tl_associative_scan(x, 1, sort_test_add, .reverse = true));
    tl_store(tl_add(r_ptr, rm), tl_reduce(x, 1, sort_test_add));
}

static int cmp_desc(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

static void t_sort(void **s)
{
    (void)s;
    enum { M = 4, N = 32, K = 8 };
    float x[M * N], so[M * N], de[M * N], fl[M * N], tk[M * K], cs[M * N], rs[M];
    for (int i = 0; i < M * N; i++)
        x[i] = (float)((i * 37) % 61) - 30; /* integers: sums are exact in any order */
    ct_emu_kernel *k = emu_build(&k_sort, "x_ptr=*fp32 s_ptr=*fp32 d_ptr=*fp32 f_ptr=*fp32 t_ptr=*fp32 c_ptr=*fp32 r_ptr=*fp32", "M=4 N=32 K=8");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                      io_buf(&o, "s", so, sizeof so, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "d", de, sizeof de, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "f", fl, sizeof fl, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "t", tk, sizeof tk, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "c", cs, sizeof cs, CT_EMU_F32, CT_EMU_OUT),
                      io_buf(&o, "r", rs, sizeof rs, CT_EMU_F32, CT_EMU_OUT)};
    run_ok(&o, k, 1, 7, a);
    for (int m = 0; m < M; m++) {
        float want[N];
        memcpy(want, x + m * N, sizeof want);
        qsort(want, N, sizeof(float), cmp_desc);
        float total = 0;
        for (int n = 0; n < N; n++) {
            assert_true(de[m * N + n] == want[n]);
            assert_true(so[m * N + n] == want[N - 1 - n]);
            assert_true(fl[m * N + n] == x[m * N + N - 1 - n]);
            total += x[m * N + n];
        }
        for (int j = 0; j < K; j++)
            assert_true(tk[m * K + j] == want[j]);
        float run = 0;
        for (int n = N - 1; n >= 0; n--) {
            run += x[m * N + n];
            assert_true(cs[m * N + n] == run);
        }
        assert_true(rs[m] == total);
    }
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- atomics across programs --------------------------------------------------------------- */

TL_KERNEL(k_atomics, (acc_ptr, f_ptr), (int, N))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor o = tl_arange(0, N);
    tl_tensor v = tl_add(tl_mul(pid, N), o);
    tl_atomic_add(tl_add(acc_ptr, 0), tl_sum(v, .axis = 0));
    tl_atomic_max(tl_add(acc_ptr, 1), tl_sum(v, .axis = 0));
    tl_atomic_min(tl_add(acc_ptr, 2), tl_sum(v, .axis = 0));
    tl_atomic_or(tl_add(acc_ptr, 3), tl_shl(1, pid));
    tl_atomic_xor(tl_add(acc_ptr, 4), tl_add(pid, 1));
    tl_atomic_and(tl_add(acc_ptr, 5), tl_xor(tl_shl(1, pid), -1));
    tl_atomic_add(tl_add(tl_add(acc_ptr, 8), o), 1);
    tl_debug_barrier();
    tl_atomic_xchg(tl_add(acc_ptr, 6), tl_add(pid, 100));
    tl_atomic_add(f_ptr, 0.5);
}

static void t_atomics(void **s)
{
    (void)s;
    enum { N = 8, P = 24 };
    int32_t acc[8 + N] = {0, INT32_MIN, INT32_MAX, 0, 0, -1, 0, 0};
    float f = 0;
    ct_emu_kernel *k = emu_build(&k_atomics, "acc_ptr=*i32 f_ptr=*fp32", "N=8");
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "acc", acc, sizeof acc, CT_EMU_I32, CT_EMU_INOUT),
                      io_buf(&o, "f", &f, sizeof f, CT_EMU_F32, CT_EMU_INOUT)};
    ct_emu_result r;
    assert_int_equal(emu_go(o.e, k, P, 1, 1, 3, 2, a, &r), CT_EMU_OK);
    int sum = 0, mx = INT32_MIN, mn = INT32_MAX, x = 0;
    for (int p = 0; p < P; p++) {
        int v = 0;
        for (int i = 0; i < N; i++)
            v += p * N + i;
        sum += v;
        mx = v > mx ? v : mx;
        mn = v < mn ? v : mn;
        x ^= p + 1;
    }
    assert_int_equal(acc[0], sum);
    assert_int_equal(acc[1], mx);
    assert_int_equal(acc[2], mn);
    assert_int_equal(acc[3], (1 << P) - 1);
    assert_int_equal(acc[4], x);
    assert_int_equal(acc[5], (int32_t)~((1u << P) - 1));
    assert_true(acc[6] >= 100 && acc[6] < 100 + P); /* the last exchange wins */
    for (int i = 0; i < N; i++)
        assert_int_equal(acc[8 + i], P);
    assert_true(f == 0.5f * P);
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

/* ---- asserts, prints, argument checks, errors ------------------------------------------------ */

static int L_assert;

TL_KERNEL(k_assert, (x_ptr), (int, N))
{
    tl_tensor o = tl_arange(0, N);
    tl_tensor x = tl_load(tl_add(x_ptr, o));
    /* lanes holding -5 are masked off */
    tl_device_assert(tl_ge(x, 0), "x must be non-negative", .mask = tl_ne(x, -5)); MARK(L_assert);
    tl_device_print("x", x);
    tl_device_print_hex("h", tl_to(x, tl_int32));
}

static void t_assert_and_print(void **s)
{
    (void)s;
    tl_options opts;
    tl_options_default(&opts);
    opts.debug = true;
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(&k_assert, "x_ptr=*fp32", "N=4", &opts, &d);
    assert_non_null(m);
    ct_emu_kernel *k = ct_emu_compile(m, NULL, &d);
    ct_module_destroy(m);
    ct_diags_free(&d);
    assert_non_null(k);
    float x[4] = {1, 2, 3, 4};
    io o;
    io_init(&o);
    ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN)};
    FILE *f = tmpfile();
    ct_emu_launch l = {{1, 1, 1}, 1, 0, f};
    ct_emu_result r;
    assert_int_equal(ct_emu_run(o.e, k, &l, 1, a, &r), CT_EMU_OK);
    rewind(f);
    char line[256];
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, "pid (0, 0, 0) idx (  0) x: 1.0"));
    bool hex = false;
    while (fgets(line, sizeof line, f))
        hex |= strstr(line, "h: 0x") != NULL;
    assert_true(hex);
    fclose(f);
    x[1] = -5; /* masked off: no fault */
    assert_int_equal(emu_go(o.e, k, 1, 1, 1, 1, 1, a, &r), CT_EMU_OK);
    x[2] = -1;
    l.print = NULL;
    emu_go(o.e, k, 1, 1, 1, 1, 1, a, &r);
    expect_fault(&r, CT_EMU_ERR_ASSERT, L_assert, __FILE__);
    assert_int_equal(r.fault.lane, 2);
    assert_non_null(strstr(r.fault.message, "x must be non-negative"));
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

static void t_argument_errors(void **s)
{
    (void)s;
    ct_emu_kernel *k = emu_build(&k_minmax, "x_ptr=*fp32:16 y_ptr=*fp32 out_ptr=*fp32", "N=4");
    assert_int_equal(ct_emu_kernel_nparams(k), 3);
    assert_string_equal(ct_emu_kernel_param(k, 0)->name, "x_ptr");
    assert_int_equal(ct_emu_kernel_param(k, 0)->divisibility, 16);
    float x[8], y[4], out[20];
    io o;
    io_init(&o);
    ct_emu_arg bx = io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN);
    ct_emu_arg by = io_buf(&o, "y", y, sizeof y, CT_EMU_F32, CT_EMU_IN);
    ct_emu_arg bo = io_buf(&o, "out", out, sizeof out, CT_EMU_F32, CT_EMU_OUT);
    ct_emu_result r;
    ct_emu_arg two[] = {bx, by};
    assert_int_equal(emu_go(o.e, k, 1, 1, 1, 1, 2, two, &r), CT_EMU_ERR_ARGS);
    assert_non_null(strstr(r.fault.message, "takes 3 arguments, 2 given"));
    ct_emu_arg kinds[] = {bx, ct_emu_int(3), bo};
    assert_int_equal(emu_go(o.e, k, 1, 1, 1, 1, 3, kinds, &r), CT_EMU_ERR_ARGS);
    assert_non_null(strstr(r.fault.message, "must be a pointer"));
    ct_emu_arg misal[] = {ct_emu_ptr_at(o.id[0], 4), by, bo};
    assert_int_equal(emu_go(o.e, k, 1, 1, 1, 1, 3, misal, &r), CT_EMU_ERR_ARGS);
    assert_non_null(strstr(r.fault.message, "16-byte aligned"));
    ct_emu_arg nobuf[] = {ct_emu_ptr(17), by, bo};
    assert_int_equal(emu_go(o.e, k, 1, 1, 1, 1, 3, nobuf, &r), CT_EMU_ERR_ARGS);
    ct_emu_arg ok[] = {bx, by, bo};
    assert_int_equal(emu_go(o.e, k, 1, 70000, 1, 1, 3, ok, &r), CT_EMU_ERR_ARGS);
    assert_int_equal(emu_go(o.e, k, -1, 1, 1, 1, 3, ok, &r), CT_EMU_ERR_ARGS);
    assert_int_equal(ct_emu_run(NULL, k, NULL, 0, NULL, &r), CT_EMU_ERR_ARGS);
    assert_true(ct_emu_add_buffer(o.e, "bad", NULL, 4, CT_EMU_F32, CT_EMU_IN) < 0);
    assert_non_null(strstr(ct_emu_error(o.e), "NULL"));
    ct_emu_kernel_free(k);
    /* an integer declared divisible by 16 that is not */
    k = emu_build(&k_flow, "out_ptr=*i32 n=i32:16", "UNUSED=0");
    int32_t fo[4];
    ct_emu_arg fa[] = {io_buf(&o, "fo", fo, sizeof fo, CT_EMU_I32, CT_EMU_OUT), ct_emu_int(20)};
    assert_int_equal(emu_go(o.e, k, 1, 1, 1, 1, 2, fa, &r), CT_EMU_ERR_ARGS);
    assert_non_null(strstr(r.fault.message, "divisible by 16"));
    fa[1] = ct_emu_int(1ll << 40);
    assert_int_equal(emu_go(o.e, k, 1, 1, 1, 1, 2, fa, &r), CT_EMU_ERR_ARGS);
    assert_non_null(strstr(r.fault.message, "does not fit in i32"));
    ct_emu_free(o.e);
    ct_emu_kernel_free(k);
}

static void t_compile_errors(void **s)
{
    (void)s;
    /* a module with inline asm the PTX interpreter refuses: a diagnostic at its line, not a crash */
    ct_module *m = ct_module_new();
    const ct_type *f32 = ct_type_float(m, CT_F32);
    ct_op *fn = ct_op_new(m, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1, NULL);
    ct_op_set_attr(m, fn, "sym_name", ct_attr_str(m, "k"));
    ct_op_set_attr(m, fn, "function_type",
                   ct_attr_type(m, ct_type_func(m, 1, &f32, 0, NULL)));
    ct_module_append_func(m, fn);
    ct_block *b = ct_block_new(m);
    ct_region_append(&fn->regions[0], b);
    ct_value *arg = ct_block_add_arg(m, b, f32, NULL);
    ct_op *asmop = ct_op_new(m, CT_OP_TT_INLINE_ASM, 1, &arg, 1, &f32, 0,
                             ct_loc_file(m, "k.py", 7, 3));
    ct_op_set_attr(m, asmop, "asm_string", ct_attr_str(m, "tanh.approx.f32 $0, $1;")); /* not modelled */
    ct_op_set_attr(m, asmop, "constraints", ct_attr_str(m, "=f,f"));
    ct_op_set_attr(m, asmop, "pure", ct_attr_bool(m, true));
    ct_op_set_attr(m, asmop, "packed_element", ct_attr_int(m, ct_type_int(m, 32), 1));
    ct_block_append(b, asmop);
    ct_value *av = &asmop->res[0];
    ct_op *st = ct_op_new(m, CT_OP_TT_PRINT, 1, &av, 0, NULL, 0, NULL);
    ct_op_set_attr(m, st, "prefix", ct_attr_str(m, " x: "));
    ct_op_set_attr(m, st, "hex", ct_attr_bool(m, false));
    ct_block_append(b, st);
    ct_block_append(b, ct_op_new(m, CT_OP_TT_RETURN, 0, NULL, 0, NULL, 0, NULL));
    ct_diags d;
    ct_diags_init(&d);
    assert_null(ct_emu_compile(m, NULL, &d));
    assert_true(ct_diags_has_errors(&d));
    assert_non_null(strstr(ct_diags_first_error(&d), "inline PTX"));
    assert_non_null(strstr(ct_diags_first_error(&d), "`tanh` is not emulated"));
    assert_int_equal(d.items[0].line, 7);
    ct_diags_free(&d);
    /* no such function */
    ct_diags_init(&d);
    assert_null(ct_emu_compile(m, "nope", &d));
    assert_true(ct_diags_has_errors(&d));
    ct_diags_free(&d);
    assert_null(ct_emu_compile(NULL, NULL, NULL));
    /* the gate: IR the verifier refuses is not compiled (here the asm without its attributes) */
    asmop->nattrs = 0;
    ct_diags_init(&d);
    assert_null(ct_emu_compile(m, NULL, &d));
    assert_non_null(strstr(ct_diags_first_error(&d), "missing attribute"));
    ct_diags_free(&d);
    ct_module_destroy(m);

    /* malformed: an addf of a tensor<4xf32> giving a tensor<8xf32>, a store with no value */
    m = ct_module_new();
    int64_t s4 = 4, s8 = 8;
    const ct_type *t4 = ct_type_tensor(m, ct_type_float(m, CT_F32), 1, &s4);
    const ct_type *t8 = ct_type_tensor(m, ct_type_float(m, CT_F32), 1, &s8);
    fn = ct_op_new(m, CT_OP_TT_FUNC, 0, NULL, 0, NULL, 1, NULL);
    ct_op_set_attr(m, fn, "sym_name", ct_attr_str(m, "bad"));
    const ct_type *pf32 = ct_type_ptr(m, ct_type_float(m, CT_F32), 1);
    ct_op_set_attr(m, fn, "function_type", ct_attr_type(m, ct_type_func(m, 1, &pf32, 0, NULL)));
    ct_module_append_func(m, fn);
    b = ct_block_new(m);
    ct_region_append(&fn->regions[0], b);
    ct_value *x4 = ct_block_add_arg(m, b, pf32, NULL);
    double zero = 0;
    ct_op *cst = ct_op_new(m, CT_OP_ARITH_CONSTANT, 0, NULL, 1, &t4, 0, NULL);
    ct_op_set_attr(m, cst, "value", ct_attr_dense_float(m, t4, 1, &zero));
    ct_block_append(b, cst);
    ct_value *two[2] = {&cst->res[0], &cst->res[0]};
    ct_op *add = ct_op_new(m, CT_OP_ARITH_ADDF, 2, two, 1, &t8, 0, ct_loc_file(m, "bad.py", 3, 1));
    ct_block_append(b, add);
    ct_value *pv = &add->res[0];
    ct_block_append(b, ct_op_new(m, CT_OP_TT_PRINT, 1, &pv, 0, NULL, 0, NULL));
    ct_block_append(b, ct_op_new(m, CT_OP_TT_STORE, 1, &x4, 0, NULL, 0, ct_loc_file(m, "bad.py", 4, 1)));
    ct_block_append(b, ct_op_new(m, CT_OP_TT_RETURN, 0, NULL, 0, NULL, 0, NULL));
    ct_diags_init(&d);
    assert_null(ct_emu_compile(m, NULL, &d));
    assert_true(d.nerrors >= 2);
    /* the verifier's words (the gate), at the op's line */
    assert_non_null(strstr(d.items[0].message, "arith.addf: operand 0 has type tensor<4xf32>"));
    assert_int_equal(d.items[0].line, 3);
    ct_diags_free(&d);
    ct_module_destroy(m);
}

static void t_check_api(void **s)
{
    (void)s;
    float want[4] = {1, 2, 3, 4}, got[4] = {1, 2, 3, 4.0001f};
    ct_emu_check c;
    assert_int_equal(ct_emu_compare(CT_EMU_F32, got, 4, want, 4, 1e-3, 0, false, &c), CT_EMU_PASS);
    assert_int_equal(ct_emu_compare(CT_EMU_F32, got, 4, want, 4, 0, 0, false, &c), CT_EMU_MISMATCH);
    assert_int_equal(c.worst, 3);
    assert_int_equal(c.max_ulp, 210); /* 0.0001 / 2^-21 */
    assert_int_equal(ct_emu_compare(CT_EMU_F32, got, 3, want, 4, 1e-3, 0, false, &c), CT_EMU_SHAPE);
    float nan_[4] = {1, NAN, 3, 4};
    assert_int_equal(ct_emu_compare(CT_EMU_F32, nan_, 4, want, 4, 1e-3, 0, false, &c), CT_EMU_MISMATCH);
    assert_true(c.flags & CT_EMU_HAS_NAN);
    float zero[4] = {0};
    ct_emu_compare(CT_EMU_F32, zero, 4, want, 4, 1e-3, 0, false, &c);
    assert_true(c.flags & CT_EMU_ALL_ZERO);
    assert_non_null(strstr(c.message, "ALL_ZERO"));
    float pois[4];
    memset(pois, 0xff, sizeof pois);
    pois[0] = 1;
    ct_emu_compare(CT_EMU_F32, pois, 4, want, 4, 1e-3, 0, true, &c);
    assert_true(c.flags & CT_EMU_UNWRITTEN);
    assert_int_equal(c.nbad, 3);
    ct_emu_result run;
    memset(&run, 0, sizeof run);
    run.status = CT_EMU_ERR_OOB;
    snprintf(run.fault.message, sizeof run.fault.message, "k.c:3: boom");
    assert_int_equal(ct_emu_check_output(NULL, &run, 0, want, 4, 0, 0, &c), CT_EMU_CRASH);
    assert_non_null(strstr(c.message, "k.c:3"));
}

extern const tl_kernel_def softmax_kernel;

static void t_thread_count_determinism(void **s)
{
    (void)s;
    enum { M = 37, N = 1000 };
    static float x[M * N], y1[M * N], y4[M * N];
    for (int i = 0; i < M * N; i++)
        x[i] = sinf((float)i) * 5;
    ct_emu_kernel *k = emu_build(&softmax_kernel, "x_ptr=*fp32:16 y_ptr=*fp32:16 n_cols=i32", "BLOCK_SIZE=1024");
    for (int t = 1; t <= 4; t += 3) {
        io o;
        io_init(&o);
        ct_emu_arg a[] = {io_buf(&o, "x", x, sizeof x, CT_EMU_F32, CT_EMU_IN),
                          io_buf(&o, "y", t == 1 ? y1 : y4, sizeof y1, CT_EMU_F32, CT_EMU_OUT),
                          ct_emu_int(N)};
        ct_emu_result r;
        assert_int_equal(emu_go(o.e, k, M, 1, 1, t, 3, a, &r), CT_EMU_OK);
        assert_int_equal(r.programs, M);
        ct_emu_free(o.e);
    }
    assert_memory_equal(y1, y4, sizeof y1);
    ct_emu_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_integers),          cmocka_unit_test(t_fp_conversions),
        cmocka_unit_test(t_abs_fp8),
        cmocka_unit_test(t_minmax_nan),        cmocka_unit_test(t_fma_contraction),
        cmocka_unit_test(t_div_contraction),
        cmocka_unit_test(t_fma_operand_rank),
        cmocka_unit_test(t_philox),            cmocka_unit_test(t_reduce_order),
        cmocka_unit_test(t_reduce_layout_from_ttgir), cmocka_unit_test(t_scan_layout_spt), cmocka_unit_test(t_reduce_mma_layout), cmocka_unit_test(t_reduce_slice_layout), cmocka_unit_test(t_reduce_fma_fold), cmocka_unit_test(t_reduce_fma_fold_shapes), cmocka_unit_test(t_reduce_integer_ops), cmocka_unit_test(t_sort),
        cmocka_unit_test(t_argmax_ties),       cmocka_unit_test(t_dot), cmocka_unit_test(t_dot_fp8), cmocka_unit_test(t_inplace), cmocka_unit_test(t_pinned),
        cmocka_unit_test(t_control_flow),      cmocka_unit_test(t_shapes),
        cmocka_unit_test(t_atomics),           cmocka_unit_test(t_assert_and_print),
        cmocka_unit_test(t_argument_errors),   cmocka_unit_test(t_compile_errors),
        cmocka_unit_test(t_check_api),         cmocka_unit_test(t_thread_count_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
