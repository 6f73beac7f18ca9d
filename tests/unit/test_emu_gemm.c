/*
 * test_emu_gemm.c - the fast paths of tt.dot (src/emu/dot_gemm.c) give the reference loops'
 * bits (src/emu/dot.c), on every instruction set level this machine has:
 *  - the micro-kernels directly, on random shapes with odd sizes (tile edges in M, N and a
 *    partial last group in K), every operand kind and group size, with NaN, infinities,
 *    signed zeros, subnormals and values far apart in magnitude;
 *  - whole kernels through the emulator, fast against reference (emu_dot_use_reference):
 *    f16, bf16, tf32, tf32x3, bf16x3, bf16x6, ieee, an accumulator carried through a K loop
 *    (updated in place), a batched 3-D dot;
 *  - CT_EMU_DOT_FAST: f16, bf16 and fp8 dots give the fmaf chain in k order computed here, on
 *    the fast paths and the reference loops, and differ from the default (the GPU's model).
 * NaN results must be NaN in both; their payloads may differ (see dot_gemm.c).
 */
#include <math.h>
#include <stdint.h>

#include "emu/emu_internal.h"
#include "emu_test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int cur_isa = -1; /* the level forced, for messages */
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* a random float with special values sprinkled in; `spread`: binary exponents in
 * [-spread, spread] */
static float rand_value(int spread, bool specials)
{
    uint32_t r = rnd() % 1000;
    if (specials) {
        if (r < 6)
            return NAN;
        if (r < 12)
            return r & 1 ? INFINITY : -INFINITY;
        if (r < 30)
            return r & 1 ? 0.0f : -0.0f;
        if (r < 40)
            return ldexpf((float)(rnd() % 1024) + 1, -150 + (int)(rnd() % 20)); /* subnormal */
    }
    float m = (float)(rnd() % 4096) / 2048.0f - 1.0f;
    return ldexpf(m, (int)(rnd() % (2 * spread + 1)) - spread);
}

static bool same(float x, float y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    uint32_t a, b;
    memcpy(&a, &x, 4);
    memcpy(&b, &y, 4);
    return a == b;
}

static double decoded(emu_ek ek, const void *p, int64_t i, bool tf32)
{
    double v = emu_load_f64(ek, p, i);
    if (ek == EK_F32 && tf32 && isfinite(v)) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        u &= 0xffffe000u;
        memcpy(&f, &u, 4);
        v = f;
    }
    return v;
}

/* one random case of the MMA-group kernel against emu_dot_mma_ref */
static void check_groups(int64_t M, int64_t N, int64_t K, emu_ek ek, bool tf32, int G,
                         int spread, bool specials)
{
    size_t es = emu_ek_size(ek);
    uint8_t *a = malloc(es * (size_t)(M * K)), *b = malloc(es * (size_t)(K * N));
    float *c = malloc(sizeof(float) * (size_t)(M * N));
    double *da = malloc(sizeof(double) * (size_t)(M * K)), *db = malloc(sizeof(double) * (size_t)(K * N));
    double *acc = malloc(sizeof(double) * (size_t)(M * N));
    void *scratch = aligned_alloc(64, (emu_gemm_scratch_bytes(M, N, K) + 63) & ~(size_t)63);
    for (int64_t i = 0; i < M * K; i++)
        emu_store_f64(ek, a, i, rand_value(spread, specials));
    for (int64_t i = 0; i < K * N; i++)
        emu_store_f64(ek, b, i, rand_value(spread, specials));
    for (int64_t i = 0; i < M * K; i++)
        da[i] = decoded(ek, a, i, tf32);
    for (int64_t i = 0; i < K * N; i++)
        db[i] = decoded(ek, b, i, tf32);
    for (int64_t i = 0; i < M * N; i++) {
        c[i] = rand_value(spread, specials);
        acc[i] = c[i];
    }
    emu_dot_mma_ref(da, db, acc, M, N, K, G, EK_F32);
    emu_gemm_opnd ga = {a, ek, tf32}, gb = {b, ek, tf32};
    /* the decoded-doubles operands (the decompositions' parts) on every other case */
    emu_gemm_opnd gda = {da, EK_F64, false}, gdb = {db, EK_F64, false};
    bool dbl = rnd() & 1;
    emu_gemm_groups_f32(dbl ? &gda : &ga, dbl ? &gdb : &gb, c, M, N, K, G, scratch);
    for (int64_t i = 0; i < M * N; i++)
        if (!same(c[i], (float)acc[i])) {
            fail_msg("%lldx%lldx%lld %s%s G=%d isa %d dbl %d: element %lld: %a, reference %a",
                     (long long)M, (long long)N, (long long)K, emu_ek_name(ek), tf32 ? " tf32" : "",
                     G, cur_isa, dbl, (long long)i, c[i], (float)acc[i]);
        }
    free(a);
    free(b);
    free(c);
    free(da);
    free(db);
    free(acc);
    free(scratch);
}

/* one random case of the Hopper f16 kernels against emu_dot_f16_hopper_ref (accumulators with
 * binary exponents in [-cspread, cspread]); `wide`: operands
 * with f16's largest mantissas and one exponent, so that the int32 sums of the kernels pass
 * 2^31 (the accumulator near the same magnitude) */
static void check_hopper(int64_t M, int64_t N, int64_t K, int spread, int cspread, bool specials,
                         bool wide)
{
    uint16_t *a = malloc(2 * (size_t)(M * K)), *b = malloc(2 * (size_t)(K * N));
    float *c = malloc(sizeof(float) * (size_t)(M * N));
    double *da = malloc(sizeof(double) * (size_t)(M * K)), *db = malloc(sizeof(double) * (size_t)(K * N));
    double *acc = malloc(sizeof(double) * (size_t)(M * N));
    void *scratch = aligned_alloc(64, (emu_gemm_scratch_bytes(M, N, K) + 63) & ~(size_t)63);
    bool neg = rnd() & 1;
    for (int64_t i = 0; i < M * K; i++)
        a[i] = wide ? (uint16_t)(0x7bf0 + rnd() % 16) : emu_f2h(rand_value(spread, specials));
    for (int64_t i = 0; i < K * N; i++)
        b[i] = wide ? (uint16_t)((neg ? 0xfbf0 : 0x7bf0) + rnd() % 16) : emu_f2h(rand_value(spread, specials));
    for (int64_t i = 0; i < M * K; i++)
        da[i] = emu_h2f(a[i]);
    for (int64_t i = 0; i < K * N; i++)
        db[i] = emu_h2f(b[i]);
    for (int64_t i = 0; i < M * N; i++) {
        /* wide: products just below 2^32 (exponent sums 30) and an accumulator of exponent 30:
         * 16 products' terms and the accumulator's pass 2^31 */
        c[i] = wide ? (neg ? -1.0f : 1.0f) * ldexpf(1.0f + (float)(rnd() % 1024) / 1024, 30)
                    : rand_value(cspread, specials);
        acc[i] = c[i];
    }
    emu_dot_f16_hopper_ref(da, db, acc, M, N, K);
    emu_gemm_hopper_f16(a, b, c, M, N, K, scratch);
    for (int64_t i = 0; i < M * N; i++)
        if (!same(c[i], (float)acc[i]))
            fail_msg("hopper f16 %lldx%lldx%lld isa %d spread %d wide %d: element %lld: %a, reference %a",
                     (long long)M, (long long)N, (long long)K, cur_isa, spread, wide, (long long)i, c[i],
                     (float)acc[i]);
    free(a);
    free(b);
    free(c);
    free(da);
    free(db);
    free(acc);
    free(scratch);
}

/* a random fp8 byte of kind ek: every encoding (subnormals, both zeros, max finite) with equal
 * weight, inf and NaN encodings only when `specials` and then rarely (one in `rare` draws), so
 * that some tiles have them and most do not; `big`: the largest finite magnitudes */
static uint8_t rand_fp8(emu_ek ek, bool specials, int rare, bool big)
{
    bool e4 = ek == EK_F8E4NV;
    if (specials && rnd() % (uint32_t)rare == 0) {
        if (e4)
            return (uint8_t)(0x7f | (rnd() & 0x80));          /* NaN */
        return (uint8_t)(0x7c + rnd() % 4) | (rnd() & 0x80); /* inf or NaN */
    }
    if (big)
        return (uint8_t)((e4 ? 0x78 + rnd() % 7 : 0x78 + rnd() % 4) | (rnd() & 0x80));
    for (;;) {
        uint8_t v = (uint8_t)rnd();
        if (e4 ? (v & 0x7f) != 0x7f : (v & 0x7c) != 0x7c)
            return v;
    }
}

/* one random case of the Hopper fp8 kernels against emu_dot_fp8_hopper_ref: operands of a_ek and
 * b_ek, accumulators with binary exponents in [-cspread, cspread] (with specials: NaN, inf,
 * zeros of both signs, f32 subnormals, values near FLT_MAX), mi: maxNumImpreciseAcc */
static void check_fp8(int64_t M, int64_t N, int64_t K, emu_ek a_ek, emu_ek b_ek, int cspread,
                      bool specials, bool big, int64_t mi)
{
    uint8_t *a = malloc((size_t)(M * K)), *b = malloc((size_t)(K * N));
    float *c = malloc(sizeof(float) * (size_t)(M * N));
    double *da = malloc(sizeof(double) * (size_t)(M * K)), *db = malloc(sizeof(double) * (size_t)(K * N));
    double *acc = malloc(sizeof(double) * (size_t)(M * N));
    void *scratch = aligned_alloc(64, (emu_gemm_scratch_bytes(M, N, K) + 63) & ~(size_t)63);
    int rare = 4 * (int)(M * K + K * N) + 1;
    for (int64_t i = 0; i < M * K; i++)
        a[i] = rand_fp8(a_ek, specials, rare, big);
    for (int64_t i = 0; i < K * N; i++)
        b[i] = rand_fp8(b_ek, specials, rare, big);
    for (int64_t i = 0; i < M * K; i++)
        da[i] = emu_fp8_to_f32(a[i], a_ek);
    for (int64_t i = 0; i < K * N; i++)
        db[i] = emu_fp8_to_f32(b[i], b_ek);
    for (int64_t i = 0; i < M * N; i++) {
        float v = rand_value(cspread, specials);
        if (specials && rnd() % 50 == 0)
            v = (rnd() & 1 ? 1 : -1) * ldexpf(1.0f + (float)(rnd() % 4096) / 4096, 127);
        c[i] = v;
        acc[i] = v;
    }
    emu_dot_fp8_hopper_ref(da, a_ek, db, b_ek, acc, M, N, K, mi);
    emu_gemm_hopper_fp8(a, a_ek, b, b_ek, c, M, N, K, mi, scratch);
    for (int64_t i = 0; i < M * N; i++)
        if (!same(c[i], (float)acc[i]))
            fail_msg("hopper fp8 %s x %s %lldx%lldx%lld isa %d cspread %d spec %d big %d mi %lld: "
                     "element %lld: %a, reference %a",
                     emu_ek_name(a_ek), emu_ek_name(b_ek), (long long)M, (long long)N, (long long)K,
                     cur_isa, cspread, specials, big, (long long)mi, (long long)i, c[i], (float)acc[i]);
    free(a);
    free(b);
    free(c);
    free(da);
    free(db);
    free(acc);
    free(scratch);
}

/* the fp8 cases on one shape: both formats, mixed, both accumulator modes */
static void check_fp8_all(int64_t M, int64_t N, int64_t K)
{
    static const emu_ek kinds[][2] = {{EK_F8E4NV, EK_F8E4NV}, {EK_F8E5, EK_F8E5},
                                      {EK_F8E4NV, EK_F8E5},   {EK_F8E5, EK_F8E4NV}};
    const int64_t mis[] = {1 << 30, 0, 32, 40, K, 96};
    for (size_t t = 0; t < sizeof kinds / sizeof kinds[0]; t++)
        for (int spec = 0; spec < 2; spec++) {
            int64_t mi = mis[rnd() % (sizeof mis / sizeof mis[0])];
            check_fp8(M, N, K, kinds[t][0], kinds[t][1], 7, spec, false, 1 << 30);
            check_fp8(M, N, K, kinds[t][0], kinds[t][1], 40, spec, false, mi);
            check_fp8(M, N, K, kinds[t][0], kinds[t][1], 126, spec, rnd() & 1, mi);
        }
}

static void check_fma(int64_t M, int64_t N, int64_t K, bool specials)
{
    float *a = malloc(sizeof(float) * (size_t)(M * K)), *b = malloc(sizeof(float) * (size_t)(K * N));
    float *c = malloc(sizeof(float) * (size_t)(M * N)), *want = malloc(sizeof(float) * (size_t)(M * N));
    void *scratch = aligned_alloc(64, (emu_gemm_scratch_bytes(M, N, K) + 63) & ~(size_t)63);
    for (int64_t i = 0; i < M * K; i++)
        a[i] = rand_value(20, specials);
    for (int64_t i = 0; i < K * N; i++)
        b[i] = rand_value(20, specials);
    for (int64_t i = 0; i < M * N; i++)
        c[i] = want[i] = rand_value(20, specials);
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < N; n++)
            for (int64_t k = 0; k < K; k++)
                want[m * N + n] = fmaf(a[m * K + k], b[k * N + n], want[m * N + n]);
    emu_gemm_fma_f32(a, b, c, M, N, K, scratch);
    for (int64_t i = 0; i < M * N; i++)
        if (!same(c[i], want[i]))
            fail_msg("fma %lldx%lldx%lld: element %lld: %a, reference %a", (long long)M,
                     (long long)N, (long long)K, (long long)i, c[i], want[i]);
    free(a);
    free(b);
    free(c);
    free(want);
    free(scratch);
}

static void t_kernels(void **s)
{
    (void)s;
    emu_numeric_init(); /* the f16 and fp8 tables */
    for (int isa = 0; isa < emu_gemm_isa_levels(); isa++) {
        emu_gemm_force_isa(isa);
        cur_isa = isa;
        /* the bench's tile, exact tiles, and odd sizes cutting every tile and group */
        static const int64_t shapes[][3] = {{128, 128, 32}, {16, 16, 16}, {8, 16, 64},
                                            {1, 1, 1},      {3, 5, 7},    {17, 33, 19},
                                            {9, 15, 24},    {31, 47, 40}, {64, 24, 17}};
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            const int64_t *sh = shapes[i];
            for (int spec = 0; spec < 2; spec++) {
                check_groups(sh[0], sh[1], sh[2], EK_F16, false, 16, 7, spec);
                check_groups(sh[0], sh[1], sh[2], EK_BF16, false, 16, 60, spec);
                check_groups(sh[0], sh[1], sh[2], EK_F32, true, 8, 60, spec);
                check_groups(sh[0], sh[1], sh[2], EK_F8E5, false, 32, 7, spec);
                check_fma(sh[0], sh[1], sh[2], spec);
                check_hopper(sh[0], sh[1], sh[2], 7, 7, spec, false);
                check_hopper(sh[0], sh[1], sh[2], 20, 20, spec, false);
                check_hopper(sh[0], sh[1], sh[2], 7, 126, spec, false);
            }
            check_hopper(sh[0], sh[1], sh[2], 0, 0, false, true);
            check_fp8_all(sh[0], sh[1], sh[2]);
        }
        /* fp8: K past one instruction and not a multiple of 32, tiles cut in M and N */
        static const int64_t fp8_shapes[][3] = {{64, 128, 128}, {5, 70, 100}, {9, 33, 65},
                                                {4, 64, 31},    {2, 32, 33},  {13, 129, 160}};
        for (size_t i = 0; i < sizeof fp8_shapes / sizeof fp8_shapes[0]; i++)
            check_fp8_all(fp8_shapes[i][0], fp8_shapes[i][1], fp8_shapes[i][2]);
        for (int r = 0; r < 40; r++) {
            int64_t M = 1 + rnd() % 40, N = 1 + rnd() % 70, K = 1 + rnd() % 70;
            static const emu_ek eks[] = {EK_F16, EK_BF16, EK_F32};
            emu_ek ek = eks[rnd() % 3];
            int G = ek == EK_F32 ? 8 : 16;
            /* far-apart magnitudes: the double sums round */
            check_groups(M, N, K, ek, ek == EK_F32, G, ek == EK_F16 ? 14 : 100, rnd() & 1);
            check_fma(M, N, K, rnd() & 1);
            check_hopper(M, N, K, 1 + rnd() % 20, 1 + rnd() % 126, rnd() & 1, rnd() % 8 == 0);
            check_fp8(M, N, K, rnd() & 1 ? EK_F8E4NV : EK_F8E5, rnd() & 1 ? EK_F8E4NV : EK_F8E5,
                      1 + rnd() % 126, rnd() & 1, rnd() % 8 == 0, rnd() & 1 ? 1 << 30 : 32 * (rnd() % 4));
        }
    }
    emu_gemm_force_isa(-1);
}

/* ---- whole kernels: fast paths against the reference loops ------------------------------------ */

TL_KERNEL(k_gdot, (a_ptr, b_ptr, c_ptr, d_ptr), (int, M), (int, N), (int, K), (int, STEPS),
          (const char *, PREC))
{
    tl_tensor rm = tl_arange(0, M), rn = tl_arange(0, N), rk = tl_arange(0, K);
    tl_tensor acc = tl_load(tl_add(c_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"))));
    tl_tensor ap = tl_add(a_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), K * STEPS), tl_idx(rk, "None, :")));
    tl_tensor bp = tl_add(b_ptr, tl_add(tl_mul(tl_idx(rk, ":, None"), N), tl_idx(rn, "None, :")));
    TL_FOR(s, tl_range(0, STEPS, 1), acc, ap, bp)
    {
        (void)s;
        acc = tl_dot(tl_load(ap), tl_load(bp), .acc = acc, .input_precision = PREC);
        ap = tl_add(ap, K);
        bp = tl_add(bp, K * N);
    }
    tl_store(tl_add(d_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"))), acc);
}

TL_KERNEL(k_bdot, (a_ptr, b_ptr, d_ptr), (int, B), (int, M), (int, N), (int, K))
{
    tl_tensor rb = tl_arange(0, B), rm = tl_arange(0, M), rn = tl_arange(0, N), rk = tl_arange(0, K);
    tl_tensor ia = tl_add(tl_mul(tl_idx(rb, ":, None, None"), M * K),
                          tl_add(tl_mul(tl_idx(rm, "None, :, None"), K), tl_idx(rk, "None, None, :")));
    tl_tensor ib = tl_add(tl_mul(tl_idx(rb, ":, None, None"), K * N),
                          tl_add(tl_mul(tl_idx(rk, "None, :, None"), N), tl_idx(rn, "None, None, :")));
    tl_tensor id = tl_add(tl_mul(tl_idx(rb, ":, None, None"), M * N),
                          tl_add(tl_mul(tl_idx(rm, "None, :, None"), N), tl_idx(rn, "None, None, :")));
    tl_store(tl_add(d_ptr, id), tl_dot(tl_load(tl_add(a_ptr, ia)), tl_load(tl_add(b_ptr, ib))));
}

/* builds k_gdot with tf32 and rewrites its tt.dot's inputPrecision to `prec` (the frontend
 * refuses bf16x3 and bf16x6, which come from other producers' IR) */
typedef struct prec_rw {
    ct_module *m;
    const char *prec;
} prec_rw;

static bool set_prec(ct_op *op, void *ud)
{
    prec_rw *w = ud;
    if (op->code == CT_OP_TT_DOT)
        ct_op_set_attr(w->m, op, "inputPrecision", ct_attr_enum(w->m, w->prec));
    return true;
}

static ct_emu_kernel *build_prec(const char *sig, const char *cx, const char *prec)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(&k_gdot, sig, cx, NULL, &d);
    assert_non_null(m);
    prec_rw w = {m, prec};
    ct_walk_module(m, set_prec, &w);
    ct_emu_kernel *k = ct_emu_compile(m, k_gdot.name, &d);
    if (!k)
        ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    ct_module_destroy(m);
    assert_non_null(k);
    return k;
}

/* runs k on the buffers with the fast paths and with the reference; same bits */
static void both_ways(const ct_emu_kernel *k, ct_emu *e, int nargs, const ct_emu_arg *args,
                      float *out, int64_t n, const char *what)
{
    float *ref = malloc(sizeof(float) * (size_t)n);
    ct_emu_result r;
    atomic_store(&emu_dot_use_reference, 1);
    assert_int_equal(emu_go(e, k, 1, 1, 1, 1, nargs, args, &r), CT_EMU_OK);
    memcpy(ref, out, sizeof(float) * (size_t)n);
    atomic_store(&emu_dot_use_reference, 0);
    assert_int_equal(emu_go(e, k, 1, 1, 1, 1, nargs, args, &r), CT_EMU_OK);
    for (int64_t i = 0; i < n; i++)
        if (!same(out[i], ref[i]))
            fail_msg("%s: element %lld: %a, reference %a", what, (long long)i, out[i], ref[i]);
    free(ref);
}

static void t_through_emulator(void **s)
{
    (void)s;
    enum { M = 32, N = 64, K = 16, STEPS = 3 };
    static const struct {
        const char *dt, *prec;
        ct_emu_dtype dtype;
        int spread;
    } cases[] = {
        {"fp16", "tf32", CT_EMU_F16, 7},   {"bf16", "tf32", CT_EMU_BF16, 60},
        {"fp32", "tf32", CT_EMU_F32, 60},  {"fp32", "tf32x3", CT_EMU_F32, 30},
        {"fp32", "bf16x3", CT_EMU_F32, 30}, {"fp32", "bf16x6", CT_EMU_F32, 30},
        {"fp32", "ieee", CT_EMU_F32, 30},
    };
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        char sig[160], cx[128];
        snprintf(sig, sizeof sig, "a_ptr=*%s b_ptr=*%s c_ptr=*fp32 d_ptr=*fp32", cases[ci].dt,
                 cases[ci].dt);
        bool bf = !strncmp(cases[ci].prec, "bf16x", 5);
        snprintf(cx, sizeof cx, "M=%d N=%d K=%d STEPS=%d PREC='%s'", M, N, K, STEPS,
                 bf ? "tf32" : cases[ci].prec);
        ct_emu_kernel *k = bf ? build_prec(sig, cx, cases[ci].prec) : emu_build(&k_gdot, sig, cx);
        /* the accumulator the loop carries is updated in place (no copies) */
        int dots = 0;
        for (int i = 0; i < k->ncode; i++)
            if (k->code[i].fn == emu_h_dot) {
                assert_int_equal(k->code[i].d, k->code[i].c);
                dots++;
            }
        assert_int_equal(dots, 1);
        size_t es = ct_emu_dtype_size(cases[ci].dtype);
        void *a = malloc(es * M * K * STEPS), *b = malloc(es * K * STEPS * N);
        float *c = malloc(sizeof(float) * M * N), *d = malloc(sizeof(float) * M * N);
        for (int spec = 0; spec < 2; spec++) {
            for (int i = 0; i < M * K * STEPS; i++)
                ct_emu_set(cases[ci].dtype, a, i, rand_value(cases[ci].spread, spec));
            for (int i = 0; i < K * STEPS * N; i++)
                ct_emu_set(cases[ci].dtype, b, i, rand_value(cases[ci].spread, spec));
            for (int i = 0; i < M * N; i++)
                c[i] = rand_value(cases[ci].spread, spec);
            ct_emu *e = ct_emu_new();
            ct_emu_arg args[] = {
                ct_emu_ptr(ct_emu_add_buffer(e, "a", a, es * M * K * STEPS, cases[ci].dtype, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "b", b, es * K * STEPS * N, cases[ci].dtype, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "c", c, sizeof(float) * M * N, CT_EMU_F32, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "d", d, sizeof(float) * M * N, CT_EMU_F32, CT_EMU_OUT))};
            both_ways(k, e, 4, args, d, M * N, cases[ci].prec);
            ct_emu_free(e);
        }
        free(a);
        free(b);
        free(c);
        free(d);
        ct_emu_kernel_free(k);
    }
    /* a batched dot */
    enum { BB = 2, BM = 16, BN = 32, BK = 32 };
    ct_emu_kernel *k = emu_build(&k_bdot, "a_ptr=*fp16 b_ptr=*fp16 d_ptr=*fp32",
                                 "B=2 M=16 N=32 K=32");
    static uint16_t a[BB * BM * BK], b[BB * BK * BN];
    static float d[BB * BM * BN];
    for (int i = 0; i < BB * BM * BK; i++)
        ct_emu_set(CT_EMU_F16, a, i, rand_value(7, true));
    for (int i = 0; i < BB * BK * BN; i++)
        ct_emu_set(CT_EMU_F16, b, i, rand_value(7, true));
    ct_emu *e = ct_emu_new();
    ct_emu_arg args[] = {ct_emu_ptr(ct_emu_add_buffer(e, "a", a, sizeof a, CT_EMU_F16, CT_EMU_IN)),
                         ct_emu_ptr(ct_emu_add_buffer(e, "b", b, sizeof b, CT_EMU_F16, CT_EMU_IN)),
                         ct_emu_ptr(ct_emu_add_buffer(e, "d", d, sizeof d, CT_EMU_F32, CT_EMU_OUT))};
    both_ways(k, e, 3, args, d, BB * BM * BN, "batched");
    ct_emu_free(e);
    ct_emu_kernel_free(k);
}

/* fp8 dots through the emulator on wgmma shapes (M a multiple of 64, 4 warps): an accumulator
 * carried through a K loop, maxNumImpreciseAcc the default (2^30) or 32 / 64 (partial sums) */
TL_KERNEL(k_qdot, (a_ptr, b_ptr, c_ptr, d_ptr), (int, M), (int, N), (int, K), (int, STEPS), (int, MI))
{
    tl_tensor rm = tl_arange(0, M), rn = tl_arange(0, N), rk = tl_arange(0, K);
    tl_tensor acc = tl_load(tl_add(c_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"))));
    tl_tensor ap = tl_add(a_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), K * STEPS), tl_idx(rk, "None, :")));
    tl_tensor bp = tl_add(b_ptr, tl_add(tl_mul(tl_idx(rk, ":, None"), N), tl_idx(rn, "None, :")));
    TL_FOR(s, tl_range(0, STEPS, 1), acc, ap, bp)
    {
        (void)s;
        acc = tl_dot(tl_load(ap), tl_load(bp), .acc = acc, .max_num_imprecise_acc = MI);
        ap = tl_add(ap, K);
        bp = tl_add(bp, K * N);
    }
    tl_store(tl_add(d_ptr, tl_add(tl_mul(tl_idx(rm, ":, None"), N), tl_idx(rn, "None, :"))), acc);
}

static void t_fp8_through_emulator(void **s)
{
    (void)s;
    enum { M = 64, N = 32, K = 64, STEPS = 2 };
    static const struct {
        const char *a, *b;
        ct_emu_dtype at, bt;
        int mi;
    } cases[] = {
        {"fp8e4nv", "fp8e4nv", CT_EMU_F8E4NV, CT_EMU_F8E4NV, -1},
        {"fp8e5", "fp8e5", CT_EMU_F8E5, CT_EMU_F8E5, 32},
        {"fp8e4nv", "fp8e5", CT_EMU_F8E4NV, CT_EMU_F8E5, 64},
        {"fp8e5", "fp8e4nv", CT_EMU_F8E5, CT_EMU_F8E4NV, -1},
    };
    static uint8_t a[M * K * STEPS], b[K * STEPS * N];
    static float c[M * N], d[M * N];
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        char sig[160], cx[128];
        snprintf(sig, sizeof sig, "a_ptr=*%s b_ptr=*%s c_ptr=*fp32 d_ptr=*fp32", cases[ci].a, cases[ci].b);
        snprintf(cx, sizeof cx, "M=%d N=%d K=%d STEPS=%d MI=%d", M, N, K, STEPS, cases[ci].mi);
        ct_emu_kernel *k = emu_build(&k_qdot, sig, cx);
        int wg = 0;
        for (int i = 0; i < k->ncode; i++)
            if (k->code[i].fn == emu_h_dot) {
                const emu_dot_aux *x = k->code[i].x.p;
                wg += x->wgmma;
                assert_int_equal(x->max_imprecise, cases[ci].mi < 0 ? 1 << 30 : cases[ci].mi);
            }
        assert_int_equal(wg, 1);
        for (int spec = 0; spec < 2; spec++) {
            emu_ek aek = cases[ci].at == CT_EMU_F8E4NV ? EK_F8E4NV : EK_F8E5;
            emu_ek bek = cases[ci].bt == CT_EMU_F8E4NV ? EK_F8E4NV : EK_F8E5;
            for (int i = 0; i < M * K * STEPS; i++)
                a[i] = rand_fp8(aek, spec, 4 * M * K * STEPS, false);
            for (int i = 0; i < K * STEPS * N; i++)
                b[i] = rand_fp8(bek, spec, 4 * K * STEPS * N, false);
            for (int i = 0; i < M * N; i++)
                c[i] = rand_value(20, spec);
            ct_emu *e = ct_emu_new();
            ct_emu_arg args[] = {
                ct_emu_ptr(ct_emu_add_buffer(e, "a", a, sizeof a, cases[ci].at, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "b", b, sizeof b, cases[ci].bt, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "c", c, sizeof c, CT_EMU_F32, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "d", d, sizeof d, CT_EMU_F32, CT_EMU_OUT))};
            for (int isa = 0; isa < emu_gemm_isa_levels(); isa++) {
                emu_gemm_force_isa(isa);
                cur_isa = isa;
                both_ways(k, e, 4, args, d, M * N, cx);
            }
            emu_gemm_force_isa(-1);
            ct_emu_free(e);
        }
        ct_emu_kernel_free(k);
    }
}

/* ---- CT_EMU_DOT_FAST ------------------------------------------------------------------------- */

static ct_emu_kernel *build_mode(const char *sig, const char *cx, ct_emu_dot_mode mode)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(&k_gdot, sig, cx, NULL, &d);
    assert_non_null(m);
    ct_emu_options o = {.num_warps = 4, .dot = mode};
    ct_emu_kernel *k = ct_emu_compile_ex(m, k_gdot.name, &o, &d);
    if (!k)
        ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    ct_module_destroy(m);
    return k;
}

static void t_fast_dot(void **s)
{
    (void)s;
    enum { M = 32, N = 64, K = 32, STEPS = 3 };
    static const struct {
        const char *dt;
        ct_emu_dtype dtype;
        int spread;
    } cases[] = {{"fp16", CT_EMU_F16, 7}, {"bf16", CT_EMU_BF16, 60}, {"fp8e5", CT_EMU_F8E5, 7}};
    char sig[160], cx[128];
    snprintf(cx, sizeof cx, "M=%d N=%d K=%d STEPS=%d PREC='tf32'", M, N, K, STEPS);
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        snprintf(sig, sizeof sig, "a_ptr=*%s b_ptr=*%s c_ptr=*fp32 d_ptr=*fp32", cases[ci].dt,
                 cases[ci].dt);
        ct_emu_kernel *fast = build_mode(sig, cx, CT_EMU_DOT_FAST);
        ct_emu_kernel *gpu = build_mode(sig, cx, CT_EMU_DOT_GPU);
        assert_non_null(fast);
        assert_non_null(gpu);
        size_t es = ct_emu_dtype_size(cases[ci].dtype);
        void *a = malloc(es * M * K * STEPS), *b = malloc(es * K * STEPS * N);
        float *c = malloc(sizeof(float) * M * N), *d = malloc(sizeof(float) * M * N);
        float *want = malloc(sizeof(float) * M * N);
        for (int spec = 0; spec < 2; spec++) {
            for (int i = 0; i < M * K * STEPS; i++)
                ct_emu_set(cases[ci].dtype, a, i, rand_value(cases[ci].spread, spec));
            for (int i = 0; i < K * STEPS * N; i++)
                ct_emu_set(cases[ci].dtype, b, i, rand_value(cases[ci].spread, spec));
            for (int i = 0; i < M * N; i++)
                c[i] = rand_value(cases[ci].spread, spec);
            /* the chain: row m of A is K * STEPS long, B's rows follow each other */
            for (int m = 0; m < M; m++)
                for (int n = 0; n < N; n++) {
                    float acc = c[m * N + n];
                    for (int k = 0; k < K * STEPS; k++)
                        acc = fmaf((float)ct_emu_get(cases[ci].dtype, a, m * K * STEPS + k),
                                   (float)ct_emu_get(cases[ci].dtype, b, k * N + n), acc);
                    want[m * N + n] = acc;
                }
            ct_emu *e = ct_emu_new();
            ct_emu_arg args[] = {
                ct_emu_ptr(ct_emu_add_buffer(e, "a", a, es * M * K * STEPS, cases[ci].dtype, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "b", b, es * K * STEPS * N, cases[ci].dtype, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "c", c, sizeof(float) * M * N, CT_EMU_F32, CT_EMU_IN)),
                ct_emu_ptr(ct_emu_add_buffer(e, "d", d, sizeof(float) * M * N, CT_EMU_F32, CT_EMU_OUT))};
            for (int isa = 0; isa < emu_gemm_isa_levels(); isa++) {
                emu_gemm_force_isa(isa);
                cur_isa = isa;
                both_ways(fast, e, 4, args, d, M * N, cases[ci].dt);
                for (int i = 0; i < M * N; i++)
                    if (!same(d[i], want[i]))
                        fail_msg("fast dot %s: element %d: %a, fmaf chain %a", cases[ci].dt, i,
                                 d[i], want[i]);
            }
            emu_gemm_force_isa(-1);
            /* the default is the GPU's model, which rounds otherwise */
            ct_emu_result r;
            assert_int_equal(emu_go(e, gpu, 1, 1, 1, 1, 4, args, &r), CT_EMU_OK);
            int differ = 0;
            for (int i = 0; i < M * N; i++)
                differ += !same(d[i], want[i]);
            if (!spec)
                assert_true(differ > 0);
            ct_emu_free(e);
        }
        free(a);
        free(b);
        free(c);
        free(d);
        free(want);
        ct_emu_kernel_free(fast);
        ct_emu_kernel_free(gpu);
    }
    /* f32 operands keep their precision's model; an unknown mode is an error */
    snprintf(sig, sizeof sig, "a_ptr=*fp32 b_ptr=*fp32 c_ptr=*fp32 d_ptr=*fp32");
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build(&k_gdot, sig, cx, NULL, &d);
    assert_non_null(m);
    ct_emu_options bad = {.num_warps = 4, .dot = (ct_emu_dot_mode)7};
    assert_null(ct_emu_compile_ex(m, k_gdot.name, &bad, &d));
    assert_non_null(strstr(d.items[d.n - 1].message, "unknown dot mode 7"));
    ct_diags_free(&d);
    ct_module_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_kernels),
        cmocka_unit_test(t_through_emulator),
        cmocka_unit_test(t_fp8_through_emulator),
        cmocka_unit_test(t_fast_dot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
