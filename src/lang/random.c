/*
 * random.c - triton/language/random.py: Philox-based tl.rand, tl.randn,
 * tl.randint and tl.randint4x, as @jit functions with Python's bodies.
 *
 * Note the Python details kept here: `A = PHILOX_ROUND_A` inside the loop is
 * an assignment, which turns the constexpr into a tensor constant each round;
 * the keys are added as constexprs; the multiplications and additions skip
 * the overflow sanitizer (sanitize_overflow=False).
 */
#include "lang.h"

#include <string.h>

#define RND "triton.language.random."
#define CUR (B->loc_src)

static tl_tensor U(unsigned long long v)
{
    return tl__from_u64(v);
}

static tl_tensor I(long long v)
{
    return tl__from_i64(v);
}

/* @jit def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds) */
static void philox_impl_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor c0 = a[0], c1 = a[1], c2 = a[2], c3 = a[3], k0 = a[4], k1 = a[5];
    int n_rounds = (int)a[6].i;
    unsigned long long KEY_A, KEY_B, ROUND_A, ROUND_B;
    if (tl__scalar(c0.type)->sc == TL_UINT32) {
        KEY_A = 0x9E3779B9ull;
        KEY_B = 0xBB67AE85ull;
        ROUND_A = 0xD2511F53ull;
        ROUND_B = 0xCD9E8D57ull;
    } else {
        if (tl__scalar(c0.type)->sc != TL_UINT64) {
            r[0] = tl__err("dtype not supported in philox_impl");
            return;
        }
        KEY_A = 0x9E3779B97F4A7C15ull;
        KEY_B = 0xBB67AE8584CAA73Bull;
        ROUND_A = 0xD2E7470EE14C6C93ull;
        ROUND_B = 0xCA5A826395121157ull;
    }
    for (int i = 0; i < n_rounds; i++) {
        tl_tensor A = tl__to_tensor(U(ROUND_A), CUR);
        tl_tensor B_ = tl__to_tensor(U(ROUND_B), CUR);
        tl_tensor _c0 = c0, _c2 = c2;
        c0 = tl__binop(TL_XOR, tl__binop(TL_XOR, tl__umulhi(B_, _c2, CUR), c1, CUR), k0, CUR);
        c2 = tl__binop(TL_XOR, tl__binop(TL_XOR, tl__umulhi(A, _c0, CUR), c3, CUR), k1, CUR);
        c1 = tl__arith_nsan(TL_MUL, B_, _c2, CUR);
        c3 = tl__arith_nsan(TL_MUL, A, _c0, CUR);
        k0 = tl__arith_nsan(TL_ADD, k0, U(KEY_A), CUR);
        k1 = tl__arith_nsan(TL_ADD, k1, U(KEY_B), CUR);
    }
    r[0] = c0;
    r[1] = c1;
    r[2] = c2;
    r[3] = c3;
}

/* @jit def philox(seed, c0, c1, c2, c3, n_rounds) */
static void philox_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor seed = tl__to_tensor(a[0], CUR);
    if (!tl__is_int(tl__scalar(seed.type))) {
        r[0] = tl__err("the seed of tl.rand must be an integer");
        return;
    }
    seed = tl__cast(seed, tl_uint64, TL__OPTS(tl_cast_opts, TL__POS), CUR);
    tl_tensor c0 = tl__to_tensor(a[1], CUR), c1 = tl__to_tensor(a[2], CUR);
    tl_tensor c2 = tl__to_tensor(a[3], CUR), c3 = tl__to_tensor(a[4], CUR);
    const tl_type *int_dtype;
    tl_tensor seed_hi, seed_lo;
    if (tl__prim_bits(tl__scalar(c0.type)) == 32) {
        int_dtype = tl_uint32;
        seed_hi = tl__cast(tl__binop(TL_AND, tl__binop(TL_SHR, seed, I(32), CUR), U(0xffffffffull), CUR),
                           tl_uint32, TL__OPTS(tl_cast_opts, TL__POS), CUR);
        seed_lo = tl__cast(tl__binop(TL_AND, seed, U(0xffffffffull), CUR), tl_uint32,
                           TL__OPTS(tl_cast_opts, TL__POS), CUR);
    } else {
        int_dtype = tl_uint64;
        seed_hi = tl__full(tl_shape(1), I(0), int_dtype, CUR);
        seed_lo = seed;
    }
    c0 = tl__cast(c0, int_dtype, TL__OPTS(tl_cast_opts, .bitcast = true), CUR);
    c1 = tl__cast(c1, int_dtype, TL__OPTS(tl_cast_opts, .bitcast = true), CUR);
    c2 = tl__cast(c2, int_dtype, TL__OPTS(tl_cast_opts, .bitcast = true), CUR);
    c3 = tl__cast(c3, int_dtype, TL__OPTS(tl_cast_opts, .bitcast = true), CUR);
    static const char *const names[] = {"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds"};
    tl_tensor args[7] = {c0, c1, c2, c3, seed_lo, seed_hi, a[5]};
    if (tl__jit(RND "philox_impl", 7, names, args, 0, NULL, philox_impl_body, NULL, r) != 4)
        r[0] = tl__poison();
}

/* @jit def randint4x(seed, offset, n_rounds) */
static void randint4x_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor seed = a[0], offset = a[1];
    tl_tensor offset_lo = tl__cast(offset, tl_uint32, TL__OPTS(tl_cast_opts, TL__POS), CUR);
    tl_tensor _0 = tl__binop(TL_MUL, offset_lo, I(0), CUR);
    tl_tensor offset_hi;
    if (tl__prim_bits(tl__scalar(offset.type)) > 32)
        offset_hi = tl__cast(tl__binop(TL_SHR, offset, I(32), CUR), tl_uint32, TL__OPTS(tl_cast_opts, TL__POS), CUR);
    else
        offset_hi = _0;
    static const char *const names[] = {"seed", "c0", "c1", "c2", "c3", "n_rounds"};
    tl_tensor args[6] = {seed, offset_lo, offset_hi, _0, _0, a[2]};
    if (tl__jit(RND "philox", 6, names, args, 0, NULL, philox_body, NULL, r) != 4)
        r[0] = tl__poison();
}

static const char *const so_names[] = {"seed", "offset", "n_rounds"};

static int call_randint4x(tl_tensor seed, tl_tensor offset, tl_tensor n_rounds, tl_tensor *out)
{
    tl_tensor args[3] = {seed, offset, n_rounds};
    return tl__jit(RND "randint4x", 3, so_names, args, 0, NULL, randint4x_body, NULL, out);
}

/* @jit def randint(seed, offset, n_rounds): ret, _, _, _ = randint4x(...) */
static void randint_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor out[4];
    r[0] = call_randint4x(a[0], a[1], a[2], out) == 4 ? out[0] : tl__poison();
}

/* @jit def uint_to_uniform_float(x) */
static void uint_to_uniform_float_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor x = a[0], scale;
    tl_scalar s = tl__scalar(x.type)->sc;
    if (s == TL_UINT32 || s == TL_INT32) {
        x = tl__cast(x, tl_int32, TL__OPTS(tl_cast_opts, .bitcast = true), CUR);
        scale = tl__to_tensor(tl__from_f64(4.6566127342e-10), CUR);
    } else {
        if (s != TL_UINT64 && s != TL_INT64) {
            r[0] = tl__err("uint_to_uniform_float needs 32- or 64-bit integers");
            return;
        }
        x = tl__cast(x, tl_int64, TL__OPTS(tl_cast_opts, .bitcast = true), CUR);
        scale = tl__to_tensor(tl__from_f64(1.0842020432385337e-19), CUR);
    }
    /* x = tl.where(x < 0, -x - 1, x) (3.8: ~x), evaluated left to right */
    tl_tensor neg = tl__binop(TL_LT, x, I(0), CUR);
    tl_tensor flipped = TV->uniform_invert ? tl__invert(x, CUR)
                                           : tl__binop(TL_SUB, tl__neg(x, CUR), I(1), CUR);
    x = tl__where(neg, flipped, x, CUR);
    r[0] = tl__binop(TL_MUL, x, scale, CUR);
}

static tl_tensor call_uniform(tl_tensor x)
{
    static const char *const names[] = {"x"};
    tl_tensor out[1];
    return tl__jit(RND "uint_to_uniform_float", 1, names, &x, 0, NULL,
                   uint_to_uniform_float_body, NULL, out) == 1
               ? out[0]
               : tl__poison();
}

/* @jit def rand(seed, offset, n_rounds) */
static void rand_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor source;
    tl_tensor args[3] = {a[0], a[1], a[2]};
    if (tl__jit(RND "randint", 3, so_names, args, 0, NULL, randint_body, NULL, &source) != 1) {
        r[0] = tl__poison();
        return;
    }
    r[0] = call_uniform(source);
}

/* @jit def pair_uniform_to_normal(u1, u2) */
static void pair_uniform_to_normal_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor u1 = a[0], u2 = a[1];
    u1 = tl__maximum(tl__from_f64(1.0e-7), u1, TL__OPTS(tl_minmax_opts, TL__POS), CUR);
    tl_tensor th = tl__binop(TL_MUL, tl__from_f64(6.283185307179586), u2, CUR);
    tl_tensor rr = tl__unary(TL_SQRT, tl__binop(TL_MUL, tl__from_f64(-2.0), tl__unary(TL_LOG, u1, CUR), CUR), CUR);
    r[0] = tl__binop(TL_MUL, rr, tl__unary(TL_COS, th, CUR), CUR);
    r[1] = tl__binop(TL_MUL, rr, tl__unary(TL_SIN, th, CUR), CUR);
}

/* @jit def randn(seed, offset, n_rounds) */
static void randn_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor i4[4];
    if (call_randint4x(a[0], a[1], a[2], i4) != 4) {
        r[0] = tl__poison();
        return;
    }
    tl_tensor u1 = call_uniform(i4[0]);
    tl_tensor u2 = call_uniform(i4[1]);
    static const char *const names[] = {"u1", "u2"};
    tl_tensor args[2] = {u1, u2}, n[2];
    r[0] = tl__jit(RND "pair_uniform_to_normal", 2, names, args, 0, NULL,
                   pair_uniform_to_normal_body, NULL, n) == 2
               ? n[0]
               : tl__poison();
}

tl_tensor tl__rand(tl_rand_kind k, tl_tensor seed, tl_tensor offset, int n_rounds, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (tl__any_poison(2, seed, offset))
        return tl__poison();
    static const char *const full[] = {RND "rand", RND "randn", RND "randint"};
    static tl__jit_body const bodies[] = {rand_body, randn_body, randint_body};
    tl_tensor args[3] = {seed, offset, I(n_rounds)};
    tl_tensor out[1];
    return tl__jit(full[k], 3, so_names, args, 0, NULL, bodies[k], NULL, out) == 1
               ? out[0]
               : tl__poison();
}

void tl__randint4x(tl_tensor seed, tl_tensor offset, int n_rounds, tl_tensor out[4], tl_src at)
{
    for (int i = 0; i < 4; i++)
        out[i] = tl__poison();
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__any_poison(2, seed, offset))
        return;
    if (call_randint4x(seed, offset, I(n_rounds), out) != 4)
        for (int i = 0; i < 4; i++)
            out[i] = tl__poison();
}

/* ---- the rest of random.py's public functions ------------------------------------------------- */

static const char *const so_names4[] = {"seed", "offsets", "n_rounds"};
static const char *const pair_names[] = {"u1", "u2"};

static int call_pair(tl_tensor u1, tl_tensor u2, tl_tensor *out)
{
    tl_tensor args[2] = {u1, u2};
    return tl__jit(RND "pair_uniform_to_normal", 2, pair_names, args, 0, NULL,
                   pair_uniform_to_normal_body, NULL, out);
}

/* @jit def rand4x(seed, offsets, n_rounds) */
static void rand4x_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor i4[4];
    if (call_randint4x(a[0], a[1], a[2], i4) != 4) {
        r[0] = tl__poison();
        return;
    }
    for (int k = 0; k < 4; k++)
        r[k] = call_uniform(i4[k]);
}

static int call_rand4x(tl_tensor seed, tl_tensor offset, tl_tensor n_rounds, tl_tensor *out)
{
    tl_tensor args[3] = {seed, offset, n_rounds};
    return tl__jit(RND "rand4x", 3, so_names4, args, 0, NULL, rand4x_body, NULL, out);
}

/* @jit def randn4x(seed, offset, n_rounds) */
static void randn4x_body(const tl_tensor *a, tl_tensor *r, void *ud)
{
    (void)ud;
    tl_tensor u[4];
    if (call_rand4x(a[0], a[1], a[2], u) != 4 || call_pair(u[0], u[1], r) != 2 ||
        call_pair(u[2], u[3], r + 2) != 2)
        r[0] = tl__poison();
}

void tl__rand4x(bool normal, tl_tensor seed, tl_tensor offset, int n_rounds, tl_tensor out[4],
                tl_src at)
{
    for (int i = 0; i < 4; i++)
        out[i] = tl__poison();
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__any_poison(2, seed, offset))
        return;
    tl_tensor args[3] = {seed, offset, I(n_rounds)}, r[4];
    int n = normal ? tl__jit(RND "randn4x", 3, so_names, args, 0, NULL, randn4x_body, NULL, r)
                   : call_rand4x(seed, offset, I(n_rounds), r);
    if (n == 4)
        for (int i = 0; i < 4; i++)
            out[i] = r[i];
}

void tl__philox(tl_tensor seed, tl_tensor c0, tl_tensor c1, tl_tensor c2, tl_tensor c3,
                int n_rounds, tl_tensor out[4], tl_src at)
{
    static const char *const names[] = {"seed", "c0", "c1", "c2", "c3", "n_rounds"};
    for (int i = 0; i < 4; i++)
        out[i] = tl__poison();
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__any_poison(5, seed, c0, c1, c2, c3))
        return;
    tl_tensor args[6] = {seed, c0, c1, c2, c3, I(n_rounds)}, r[4];
    if (tl__jit(RND "philox", 6, names, args, 0, NULL, philox_body, NULL, r) == 4)
        for (int i = 0; i < 4; i++)
            out[i] = r[i];
}

tl_tensor tl__uint_to_uniform_float(tl_tensor x, tl_src at)
{
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (tl__is_poison(x))
        return x;
    return call_uniform(x);
}

void tl__pair_uniform_to_normal(tl_tensor u1, tl_tensor u2, tl_tensor out[2], tl_src at)
{
    out[0] = out[1] = tl__poison();
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__any_poison(2, u1, u2))
        return;
    tl_tensor r[2];
    if (call_pair(u1, u2, r) == 2) {
        out[0] = r[0];
        out[1] = r[1];
    }
}
