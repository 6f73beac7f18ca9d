/*
 * argstack.c - the argument stack that fixes the evaluation order of the
 * builtins' tensor arguments (see "Argument order" in ctriton/tl.h), and
 * the stack-taking entry points the macros expand to.  Each pops its
 * arguments (last pushed first) and calls the builtin.
 */
#include "lang.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define STACK_MAX 1024

static _Thread_local tl_tensor stack[STACK_MAX];
static _Thread_local int sp;
static _Thread_local tl_tensor popped[TL_MAX_ARGS];

/* keyword options: a byte stack of (struct, size) records */
#define KSTACK_MAX 16384
static _Thread_local unsigned char kstack[KSTACK_MAX];
static _Thread_local unsigned ksp;

int tl__pushk(const void *opts, unsigned size)
{
    unsigned need = (size + 15u) & ~15u;
    if (ksp + need + 16 > KSTACK_MAX) {
        if (tl__cur)
            tl__err("expression nested too deeply (keyword arguments)");
        return 0;
    }
    memcpy(kstack + ksp, opts, size);
    ksp += need;
    memcpy(kstack + ksp, &need, sizeof need);
    ksp += 16;
    return 0;
}

void tl__popk(void *opts, unsigned size)
{
    memset(opts, 0, size);
    if (ksp < 16)
        return;
    unsigned need;
    memcpy(&need, kstack + ksp - 16, sizeof need);
    if (need > ksp - 16)
        return;
    ksp -= 16 + need;
    memcpy(opts, kstack + ksp, size < need ? size : need);
}

int tl__push(tl_tensor x)
{
    if (sp >= STACK_MAX) {
        if (tl__cur)
            tl__err("expression nested too deeply (more than %d pending arguments)", STACK_MAX);
        return 0;
    }
    stack[sp++] = x;
    return 0;
}

tl_tensor tl__pop(void)
{
    if (sp <= 0)
        return tl__poison();
    return stack[--sp];
}

const tl_tensor *tl__popn(int n)
{
    if (n > TL_MAX_ARGS)
        n = TL_MAX_ARGS;
    for (int i = n - 1; i >= 0; i--)
        popped[i] = tl__pop();
    return popped;
}

tl_tensor tl__binop_s(tl_binop op, tl_src at)
{
    tl_tensor b = tl__pop(), a = tl__pop();
    return tl__binop(op, a, b, at);
}

tl_tensor tl__arith_nsan_s(tl_binop op, tl_src at)
{
    tl_tensor b = tl__pop(), a = tl__pop();
    return tl__arith_nsan(op, a, b, at);
}

tl_tensor tl__where_s(tl_src at)
{
    tl_tensor y = tl__pop(), x = tl__pop(), c = tl__pop();
    return tl__where(c, x, y, at);
}

bool tl__named(double unnamed, const char *builtin, tl_src at)
{
    if (unnamed == TL__NAMED_MARK)
        return true;
    if (tl__active()) {
        tl__at(at);
        tl__err("%s: an optional argument was passed without its name; in C, optional "
                "arguments are named: `.axis = 1`, `.mask = m`, `.acc = acc`, `.num_stages = 2`",
                builtin);
    }
    return false;
}

static double number_value(tl_tensor v)
{
    if (v.kind == TL_K_FLOAT)
        return v.f;
    return v.big ? (double)(uint64_t)v.i : (double)v.i;
}

/* -1, 0, 1 as Python compares two numbers (exactly for ints) */
static int number_cmp(tl_tensor a, tl_tensor b)
{
    if (a.kind != TL_K_FLOAT && b.kind != TL_K_FLOAT) {
        if (a.big != b.big)
            return a.big ? 1 : -1;
        if (a.big)
            return (uint64_t)a.i < (uint64_t)b.i ? -1 : (uint64_t)a.i > (uint64_t)b.i;
        return a.i < b.i ? -1 : a.i > b.i;
    }
    double x = number_value(a), y = number_value(b);
    return x < y ? -1 : x > y;
}

/* core.builtin_min / builtin_max: all constants -> Python's min/max of them */
tl_tensor tl__builtin_minmax_s(int is_max, tl_src at)
{
    tl_tensor b = tl__pop(), a = tl__pop();
    if (!tl__active())
        return tl__poison();
    if (tl__is_number(a) && tl__is_number(b)) {
        double x = number_value(a), y = number_value(b);
        if (isnan(x) || isnan(y) || (x == 0 && signbit(x)) || (y == 0 && signbit(y))) {
            tl__at(at);
            return tl__err("builtin %s of constants: NaN and -0.0 are not supported",
                           is_max ? "max" : "min");
        }
        /* builtins.min / max return the first of equal values */
        int c = number_cmp(b, a);
        return is_max ? (c > 0 ? b : a) : (c < 0 ? b : a);
    }
    tl_minmax_opts o = TL__OPTS(tl_minmax_opts, TL__POS);
    return is_max ? tl__maximum(a, b, o, at) : tl__minimum(a, b, o, at);
}

tl_tensor tl__minmax_s(int which, tl_minmax_opts o, tl_src at)
{
    if (which == 2) {
        tl_tensor hi = tl__pop(), lo = tl__pop(), x = tl__pop();
        if (!tl__named(o.tl__unnamed, "tl_clamp", at))
            return tl__poison();
        return tl__clamp(x, lo, hi, o, at);
    }
    tl_tensor y = tl__pop(), x = tl__pop();
    if (!tl__named(o.tl__unnamed, which ? "tl_maximum" : "tl_minimum", at))
        return tl__poison();
    return which ? tl__maximum(x, y, o, at) : tl__minimum(x, y, o, at);
}

tl_tensor tl__load_s(tl_src at)
{
    tl_load_opts o;
    tl_tensor ptr = tl__pop();
    tl__popk(&o, sizeof o);
    return tl__load(ptr, o, at);
}

void tl__store_s(tl_src at)
{
    tl_store_opts o;
    tl_tensor v = tl__pop(), ptr = tl__pop();
    tl__popk(&o, sizeof o);
    tl__store(ptr, v, o, at);
}

tl_tensor tl__atomic_s(tl_atomic_op op, tl_src at)
{
    tl_atomic_opts o;
    tl_tensor v = tl__pop(), ptr = tl__pop();
    tl__popk(&o, sizeof o);
    return tl__atomic(op, ptr, v, o, at);
}

tl_tensor tl__atomic_cas_s(tl_src at)
{
    tl_atomic_opts o;
    tl_tensor v = tl__pop(), cmp = tl__pop(), ptr = tl__pop();
    tl__popk(&o, sizeof o);
    return tl__atomic_cas(ptr, cmp, v, o, at);
}

tl_tensor tl__nary_s(tl__nary op, tl_src at)
{
    switch (op) {
    case TL__FMA: {
        tl_tensor z = tl__pop(), y = tl__pop(), x = tl__pop();
        return tl__fma(x, y, z, at);
    }
    default:
        break;
    }
    tl_tensor b = tl__pop(), a = tl__pop();
    switch (op) {
    case TL__UMULHI:
        return tl__umulhi(a, b, at);
    case TL__FDIV:
        return tl__fdiv(a, b, at);
    case TL__DIV_RN:
        return tl__div_rn(a, b, at);
    case TL__CDIV:
        return tl__cdiv(a, b, at);
    case TL__JOIN:
        return tl__join(a, b, at);
    case TL__INTERLEAVE:
        return tl__interleave(a, b, at);
    case TL__RAND:
        return tl__rand(TL_RAND, a, b, 10, at);
    case TL__RANDN:
        return tl__rand(TL_RANDN, a, b, 10, at);
    case TL__RANDINT:
        return tl__rand(TL_RANDINT, a, b, 10, at);
    default:
        return tl__poison();
    }
}

tl_tensor tl__libdevice_s(const char *name, int nargs, tl_src at)
{
    const tl_tensor *a = tl__popn(nargs);
    tl_tensor args[4];
    for (int i = 0; i < nargs && i < 4; i++)
        args[i] = a[i];
    return tl__libdevice(name, nargs, args, at);
}

tl_tensor tl__cat_s(tl_cat_opts o, tl_src at)
{
    tl_tensor b = tl__pop(), a = tl__pop();
    return tl__cat(a, b, o, at);
}

tl_tensor tl__gather_s(int axis, tl_src at)
{
    tl_tensor index = tl__pop(), src = tl__pop();
    return tl__gather(src, index, axis, at);
}

tl_tensor tl__histogram_s(int num_bins, tl_src at)
{
    tl_tensor mask = tl__pop(), x = tl__pop();
    return tl__histogram(x, num_bins, mask, at);
}

void tl__broadcast_s(tl_tensor *oa, tl_tensor *ob, tl_src at)
{
    tl_tensor b = tl__pop(), a = tl__pop();
    tl__broadcast(a, b, oa, ob, at);
}

tl_tensor tl__dot_s(tl_src at)
{
    tl_dot_opts o;
    tl_tensor b = tl__pop(), a = tl__pop();
    tl__popk(&o, sizeof o);
    return tl__dot(a, b, o, at);
}

/* n_rounds must be named and positive */
static bool rounds_ok(tl_rand_opts o, const char *what, tl_src at)
{
    if (!tl__active() || !tl__named(o.tl__unnamed, what, at))
        return false;
    if (o.n_rounds < 1) {
        tl__at(at);
        tl__err("%s: n_rounds must be positive, got %d", what, o.n_rounds);
        return false;
    }
    return true;
}

tl_tensor tl__rand_s(tl_rand_kind k, tl_rand_opts o, tl_src at)
{
    tl_tensor offset = tl__pop(), seed = tl__pop();
    static const char *const names[] = {"tl_rand", "tl_randn", "tl_randint"};
    if (!rounds_ok(o, names[k], at))
        return tl__poison();
    return tl__rand(k, seed, offset, o.n_rounds, at);
}

void tl__randint4x_s(tl_tensor out[4], tl_rand_opts o, tl_src at)
{
    tl_tensor offset = tl__pop(), seed = tl__pop();
    for (int i = 0; i < 4; i++)
        out[i] = tl__poison();
    if (rounds_ok(o, "tl_randint4x", at))
        tl__randint4x(seed, offset, o.n_rounds, out, at);
}

void tl__rand4x_s(bool normal, tl_tensor out[4], tl_rand_opts o, tl_src at)
{
    tl_tensor offset = tl__pop(), seed = tl__pop();
    for (int i = 0; i < 4; i++)
        out[i] = tl__poison();
    if (rounds_ok(o, normal ? "tl_randn4x" : "tl_rand4x", at))
        tl__rand4x(normal, seed, offset, o.n_rounds, out, at);
}

void tl__philox_s(tl_tensor out[4], tl_rand_opts o, tl_src at)
{
    const tl_tensor *a = tl__popn(5);
    tl_tensor v[5] = {a[0], a[1], a[2], a[3], a[4]};
    for (int i = 0; i < 4; i++)
        out[i] = tl__poison();
    if (rounds_ok(o, "tl_philox", at))
        tl__philox(v[0], v[1], v[2], v[3], v[4], o.n_rounds, out, at);
}

void tl__pair_uniform_to_normal_s(tl_tensor out[2], tl_src at)
{
    tl_tensor u2 = tl__pop(), u1 = tl__pop();
    tl__pair_uniform_to_normal(u1, u2, out, at);
}

tl_tuple_t tl__swizzle2d_s(tl_src at)
{
    const tl_tensor *a = tl__popn(5);
    tl_tensor v[5] = {a[0], a[1], a[2], a[3], a[4]};
    return tl__swizzle2d(v[0], v[1], v[2], v[3], v[4], at);
}

tl_tensor tl__inline_asm_1(const char *asm_, const char *constraints, tl_dtype dtype, bool is_pure,
                           int pack, tl_src at)
{
    tl_tuple_t args = tl__popt();
    tl_tensor out[1];
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    for (int i = 0; i < args.n; i++)
        if (tl__is_poison(args.v[i]))
            return tl__poison();
    return sem_inline_asm(asm_, constraints, args, 1, &dtype, is_pure, pack, out) == 1 ? out[0]
                                                                                      : tl__poison();
}

tl_tuple_t tl__inline_asm_n(const char *asm_, const char *constraints, tl_dtypes_t dtypes,
                            bool is_pure, int pack, tl_src at)
{
    tl_tuple_t args = tl__popt(), r = {0};
    if (!tl__active())
        return r;
    tl__at(at);
    for (int i = 0; i < args.n; i++)
        if (tl__is_poison(args.v[i]))
            return r;
    int n = sem_inline_asm(asm_, constraints, args, dtypes.n, dtypes.v, is_pure, pack, r.v);
    r.n = n < 0 ? 0 : n;
    return r;
}

void tl__device_assert_s(const char *msg, tl_src at)
{
    tl_tensor cond = tl__pop();
    tl_assert_opts o;
    tl__popk(&o, sizeof o);
    if (!tl__active() || !tl__named(o.tl__unnamed, "tl_device_assert", at))
        return;
    tl__device_assert(cond, msg, o.mask, at);
}

void tl__device_print_s(const char *prefix, int n, bool hex, tl_src at)
{
    const tl_tensor *a = tl__popn(n);
    tl_tensor args[TL_MAX_ARGS];
    for (int i = 0; i < n && i < TL_MAX_ARGS; i++)
        args[i] = a[i];
    tl__device_print(prefix, n, args, hex, at);
}

tl_range_t tl__range_s(tl_range_t r)
{
    r.step = tl__pop();
    r.end = tl__pop();
    r.start = tl__pop();
    return r;
}

/* range(n): n, then 0, n, 1 on the stack; the first n is Python's unused
 * evaluation of the argument list */
tl_range_t tl__pyrange1_s(tl_range_t r)
{
    r = tl__range_s(r);
    (void)tl__pop();
    return r;
}

void tl__return_s(int n, tl_src at)
{
    const tl_tensor *a = tl__popn(n);
    tl_tensor vals[TL_MAX_ARGS];
    for (int i = 0; i < n && i < TL_MAX_ARGS; i++)
        vals[i] = a[i];
    tl__return(n, vals, at);
}

tl_tuple_t tl__tuple_s(int n)
{
    tl_tuple_t t = {0};
    const tl_tensor *a = tl__popn(n);
    t.n = n > TL_MAX_ARGS ? TL_MAX_ARGS : n;
    for (int i = 0; i < t.n; i++)
        t.v[i] = a[i];
    return t;
}

/* tuples passed to builtins (tl_make_block_ptr's shape, strides, offsets): a stack, so that
 * several tuple arguments are built left to right */
#define TSTACK_MAX 32
static _Thread_local tl_tuple_t tstack[TSTACK_MAX];
static _Thread_local int tsp;

int tl__pusht(tl_tuple_t t)
{
    if (tsp >= TSTACK_MAX) {
        if (tl__cur)
            tl__err("expression nested too deeply (tuple arguments)");
        return 0;
    }
    tstack[tsp++] = t;
    return 0;
}

tl_tuple_t tl__popt(void)
{
    tl_tuple_t t = {0};
    if (tsp > 0)
        t = tstack[--tsp];
    return t;
}

tl_tensor tl__make_block_ptr_s(tl_shape_t block_shape, tl_ints_t order, tl_src at)
{
    tl_tuple_t offsets = tl__popt(), strides = tl__popt(), shape = tl__popt();
    tl_tensor base = tl__pop();
    return tl__make_block_ptr(base, shape, strides, offsets, block_shape, order, at);
}

tl_tensor tl__make_tensor_descriptor_s(tl_shape_t block_shape, tl_desc_opts o, tl_src at)
{
    tl_tuple_t strides = tl__popt(), shape = tl__popt();
    tl_tensor base = tl__pop();
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (!tl__named(o.tl__unnamed, "tl_make_tensor_descriptor", at) || tl__is_poison(base))
        return tl__poison();
    return sem_make_tensor_descriptor(base, shape, strides, block_shape, o.padding_option);
}

tl_tensor tl__desc_load_s(tl_src at)
{
    tl_tuple_t offsets = tl__popt();
    tl_tensor desc = tl__pop();
    if (!tl__active())
        return tl__poison();
    tl__at(at);
    if (tl__is_poison(desc))
        return desc;
    return sem_descriptor_load(desc, offsets);
}

void tl__desc_store_s(tl_src at)
{
    tl_tensor value = tl__pop();
    tl_tuple_t offsets = tl__popt();
    tl_tensor desc = tl__pop();
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__is_poison(desc) || tl__is_poison(value))
        return;
    value = sem_to_tensor(value);
    if (tl__is_poison(value))
        return;
    sem_descriptor_store(desc, offsets, value);
}

void tl__desc_reduce_s(const char *kind, tl_src at)
{
    tl_tensor value = tl__pop();
    tl_tuple_t offsets = tl__popt();
    tl_tensor desc = tl__pop();
    if (!tl__active())
        return;
    tl__at(at);
    if (tl__is_poison(desc) || tl__is_poison(value))
        return;
    sem_descriptor_reduce(desc, offsets, value, kind);
}

tl_tensor tl__advance_s(tl_src at)
{
    tl_tuple_t offsets = tl__popt();
    tl_tensor base = tl__pop();
    return tl__advance(base, offsets, at);
}

void tl__unpack(tl_tuple_t t, int n, tl_tensor **out, tl_src at)
{
    if (t.n != n) {
        if (tl__cur) {
            tl__at(at);
            bool poisoned = false;
            for (int i = 0; i < t.n; i++)
                poisoned |= tl__is_poison(t.v[i]);
            if (!poisoned && t.n > 0)
                tl__err("cannot unpack %d values into %d variables", t.n, n);
        }
        for (int i = 0; i < n; i++)
            *out[i] = tl__poison();
        return;
    }
    for (int i = 0; i < n; i++)
        *out[i] = t.v[i];
}

/* The stacks' heights at the start of a build, put back when the build is
 * abandoned half way (out of memory: the builtins it was in never popped). */
void tl__stacks_save(tl__stacks *s)
{
    s->sp = sp;
    s->ksp = ksp;
    s->tsp = tsp;
}

void tl__stacks_restore(const tl__stacks *s)
{
    sp = s->sp;
    ksp = s->ksp;
    tsp = s->tsp;
}
