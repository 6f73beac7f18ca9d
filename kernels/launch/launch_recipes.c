/*
 * launch_recipes.c - running each library kernel from C (see
 * launch_recipes.h): one setup function and one reference per kernel.
 *
 * Arguments are made the way the Python caller would pass them (tensors as
 * ct_ptr with their dtype, Python ints as ct_int, floats as ct_float), so
 * ct_launch specializes exactly like Triton's JIT and lowers the same TTIR;
 * lr_signature shows the result, which should equal the config's signature.
 * Inputs are seeded and exactly representable in their dtype, so the C
 * reference (computed in double) and Python's replay see the same values.
 */
#include "launch_recipes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctriton/float.h"

/* ---- dtypes ---------------------------------------------------------- */

size_t lr_dtype_size(tl_scalar dt)
{
    switch (dt) {
    case TL_INT8: case TL_UINT8: case TL_INT1:
    case TL_FP8E4B15: case TL_FP8E4NV: case TL_FP8E4B8: case TL_FP8E5: case TL_FP8E5B16:
        return 1;
    case TL_INT16: case TL_UINT16: case TL_FP16: case TL_BF16: return 2;
    case TL_INT32: case TL_UINT32: case TL_FP32: return 4;
    default: return 8;
    }
}

const char *lr_dtype_name(tl_scalar dt)
{
    switch (dt) {
    case TL_FP32: return "fp32";
    case TL_FP16: return "fp16";
    case TL_BF16: return "bf16";
    case TL_FP64: return "fp64";
    case TL_FP8E4NV: return "fp8e4nv";
    case TL_FP8E5: return "fp8e5";
    case TL_INT32: return "i32";
    case TL_INT64: return "i64";
    case TL_INT8: return "i8";
    case TL_UINT8: return "u8";
    default: return "?";
    }
}

static bool float_kind(tl_scalar dt, ct_float_kind *fk)
{
    switch (dt) {
    case TL_FP16: *fk = CT_F16; return true;
    case TL_BF16: *fk = CT_BF16; return true;
    case TL_FP32: *fk = CT_F32; return true;
    case TL_FP64: *fk = CT_F64; return true;
    case TL_FP8E4NV: *fk = CT_F8E4M3FN; return true;
    case TL_FP8E5: *fk = CT_F8E5M2; return true;
    default: return false;
    }
}

double lr_get(const lr_buf *b, const unsigned char *data, size_t i)
{
    size_t sz = lr_dtype_size(b->dt);
    uint64_t bits = 0;
    memcpy(&bits, data + i * sz, sz);
    ct_float_kind fk;
    if (float_kind(b->dt, &fk))
        return ct_float_from_bits(bits, fk);
    switch (b->dt) {
    case TL_INT32: return (double)(int32_t)bits;
    case TL_INT64: return (double)(int64_t)bits;
    case TL_INT8: return (double)(int8_t)bits;
    default: return (double)bits;
    }
}

static void put(lr_buf *b, unsigned char *data, size_t i, double v)
{
    size_t sz = lr_dtype_size(b->dt);
    ct_float_kind fk;
    uint64_t bits = float_kind(b->dt, &fk) ? ct_float_to_bits(v, fk) : (uint64_t)(int64_t)v;
    memcpy(data + i * sz, &bits, sz);
}

/* Rounds v to the dtype (what storing it does). */
static double rnd(tl_scalar dt, double v)
{
    ct_float_kind fk;
    return float_kind(dt, &fk) ? ct_float_round(v, fk) : v;
}

/* ---- problems, buffers, arguments -------------------------------------- */

static double dimf(const lr_run *r, const char *name, double dflt)
{
    size_t n = strlen(name);
    for (const char *p = r->problem; (p = strstr(p, name)); p += n)
        if ((p == r->problem || p[-1] == ' ') && p[n] == '=')
            return strtod(p + n + 1, NULL);
    return dflt;
}

static int64_t dim(const lr_run *r, const char *name, int64_t dflt)
{
    return (int64_t)dimf(r, name, (double)dflt);
}

static int64_t cx(const lr_run *r, const char *name, int64_t dflt)
{
    return ct_cx_int(r->cfg->constexprs, name, dflt);
}

static unsigned rng(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static ct_status new_buf(lr_run *r, const char *name, tl_scalar dt, size_t n, int role, double lo,
                         double hi, int *out)
{
    if (r->nbufs == LR_MAX_BUFS)
        return ct_fail(CT_ERR_INVALID, "recipe: too many buffers");
    lr_buf *b = &r->bufs[r->nbufs];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->dt = dt;
    b->n = n;
    b->role = role;
    size_t bytes = n * lr_dtype_size(dt);
    b->host = malloc(bytes ? bytes : 1);
    if (!b->host)
        return ct_fail(CT_ERR_NOMEM, "recipe: out of memory for %s (%zu bytes)", name, bytes);
    if (role == LR_OUT) {
        memset(b->host, 0xff, bytes); /* poison: unwritten outputs show as NaN */
    } else if (dt == TL_FP32) {
        float *f = (float *)b->host;
        for (size_t i = 0; i < n; i++)
            f[i] = (float)(lo + (hi - lo) * (rng(&r->seed) & 0xffffff) / 16777216.0);
    } else {
        for (size_t i = 0; i < n; i++)
            put(b, b->host, i, lo + (hi - lo) * (rng(&r->seed) & 0xffffff) / 16777216.0);
    }
    ct_status s = ct_mem_alloc(&b->dev, bytes);
    if (s == CT_OK)
        s = ct_mem_upload(b->dev, b->host, bytes);
    if (s != CT_OK)
        return s;
    *out = r->nbufs++;
    return CT_OK;
}

static void arg(lr_run *r, ct_arg a, int buf)
{
    r->argbuf[r->nargs] = buf;
    r->args[r->nargs++] = a;
}

static void ptr(lr_run *r, int b)
{
    arg(r, ct_ptr(r->bufs[b].dev, &tl__dtypes[r->bufs[b].dt]), b);
}

/* The element type the config's signature gives a pointer parameter. */
static tl_scalar sig_dtype(const lr_run *r, const char *param, tl_scalar dflt)
{
    char key[64];
    snprintf(key, sizeof key, "%s=*", param);
    const char *p = strstr(r->cfg->signature, key);
    if (!p || (p != r->cfg->signature && p[-1] != ' '))
        return dflt;
    p += strlen(key);
    char name[16];
    size_t n = 0;
    while (p[n] && p[n] != ':' && p[n] != ' ' && n < sizeof name - 1) {
        name[n] = p[n];
        n++;
    }
    name[n] = 0;
    tl_dtype d = tl_dtype_from_name(name);
    return d ? d->sc : dflt;
}

static unsigned cdiv(int64_t a, int64_t b) { return (unsigned)((a + b - 1) / b); }

#define TRY(x)                                                                                \
    do {                                                                                      \
        ct_status s_ = (x);                                                                   \
        if (s_ != CT_OK)                                                                      \
            return s_;                                                                        \
    } while (0)

/* ---- recipes ------------------------------------------------------------- */

typedef struct recipe {
    const char *kernel;
    ct_status (*setup)(lr_run *r);
    ct_status (*check)(lr_run *r, char *msg, size_t cap);
} recipe;

/* compares out[i] to ref(i) with a tolerance; reports the worst element */
typedef double (*ref_fn)(lr_run *r, size_t i, void *ud);

static ct_status compare_n(lr_run *r, int b, size_t n, ref_fn ref, void *ud, double rtol,
                           double atol, size_t max_checks, char *msg, size_t cap)
{
    lr_buf *o = &r->bufs[b];
    /* large outputs are sampled evenly (a prime stride, to cross rows and columns) */
    size_t stride = 1;
    if (n > max_checks) {
        stride = n / max_checks;
        stride += stride % 2 == 0;
    }
    double worst = 0;
    size_t worst_i = 0, bad = 0, checked = 0;
    double worst_got = 0, worst_want = 0;
    for (size_t i = 0; i < n; i += stride) {
        double want = ref(r, i, ud), got = lr_get(o, o->result, i);
        double err = fabs(got - want), lim = atol + rtol * fabs(want);
        checked++;
        if (!(err <= lim) && !(isnan(want) && isnan(got))) {
            bad++;
            if (!(err <= worst)) {
                worst = err;
                worst_i = i;
                worst_got = got;
                worst_want = want;
            }
        }
    }
    if (bad) {
        snprintf(msg, cap, "%s: %zu of %zu elements differ; worst at %zu: got %.9g, want %.9g",
                 o->name, bad, checked, worst_i, worst_got, worst_want);
        return CT_ERR_INVALID;
    }
    size_t len = strlen(msg);
    snprintf(msg + len, cap - len, "%s%s ok (%zu checked)", len ? "; " : "", o->name, checked);
    return CT_OK;
}

static ct_status compare(lr_run *r, int b, size_t n, ref_fn ref, void *ud, double rtol, double atol,
                         char *msg, size_t cap)
{
    return compare_n(r, b, n, ref, ud, rtol, atol, 1u << 22, msg, cap);
}

static double in(lr_run *r, int b, size_t i) { return lr_get(&r->bufs[b], r->bufs[b].host, i); }

/* add */
static ct_status add_setup(lr_run *r)
{
    int64_t n = dim(r, "N", 98304);
    int x, y, o;
    TRY(new_buf(r, "x", TL_FP32, (size_t)n, LR_IN, -1, 1, &x));
    TRY(new_buf(r, "y", TL_FP32, (size_t)n, LR_IN, -1, 1, &y));
    TRY(new_buf(r, "output", TL_FP32, (size_t)n, LR_OUT, 0, 0, &o));
    ptr(r, x), ptr(r, y), ptr(r, o), arg(r, ct_int(n), -1);
    r->grid = ct_grid(cdiv(n, cx(r, "BLOCK_SIZE", 1024)));
    r->bytes = 12.0 * n;
    return CT_OK;
}
static double add_ref(lr_run *r, size_t i, void *ud) { (void)ud; return (float)(in(r, 0, i) + in(r, 1, i)); }
static ct_status add_check(lr_run *r, char *m, size_t c) { return compare(r, 2, r->bufs[2].n, add_ref, NULL, 0, 0, m, c); }

/* asin */
static ct_status asin_setup(lr_run *r)
{
    int64_t n = dim(r, "N", 98304);
    int x, y;
    TRY(new_buf(r, "x", TL_FP32, (size_t)n, LR_IN, -1, 1, &x));
    TRY(new_buf(r, "y", TL_FP32, (size_t)n, LR_OUT, 0, 0, &y));
    ptr(r, x), ptr(r, y), arg(r, ct_int(n), -1);
    r->grid = ct_grid(cdiv(n, cx(r, "BLOCK_SIZE", 1024)));
    r->bytes = 8.0 * n;
    return CT_OK;
}
static double asin_ref(lr_run *r, size_t i, void *ud) { (void)ud; return asin(in(r, 0, i)); }
static ct_status asin_check(lr_run *r, char *m, size_t c) { return compare(r, 1, r->bufs[1].n, asin_ref, NULL, 4e-7, 1e-7, m, c); }

/* dropout: every output is 0 or x / (1 - p); the fraction dropped is near p */
static ct_status dropout_setup(lr_run *r)
{
    int64_t n = dim(r, "N", 65536);
    int x, o;
    TRY(new_buf(r, "x", TL_FP32, (size_t)n, LR_IN, 1, 2, &x));
    TRY(new_buf(r, "output", TL_FP32, (size_t)n, LR_OUT, 0, 0, &o));
    ptr(r, x), ptr(r, o), arg(r, ct_int(n), -1);
    arg(r, ct_float(dimf(r, "P", 0.25)), -1);
    arg(r, ct_int(dim(r, "SEED", 123)), -1);
    r->grid = ct_grid(cdiv(n, cx(r, "BLOCK_SIZE", 1024)));
    r->bytes = 8.0 * n;
    return CT_OK;
}
static ct_status dropout_check(lr_run *r, char *msg, size_t cap)
{
    float p = (float)r->args[3].v.f;
    size_t n = r->bufs[1].n, zeros = 0;
    for (size_t i = 0; i < n; i++) {
        double got = lr_get(&r->bufs[1], r->bufs[1].result, i);
        float keep = (float)in(r, 0, i) / (1.0f - p);
        /* the GPU's fp32 division (div.full) is within 2 ulp of the IEEE quotient
         * (seen on the H200: 2.63069296 for 2.63069272) */
        if (got == 0) {
            zeros++;
        } else if (fabs(got - keep) > 2.5e-7 * fabs(keep)) {
            snprintf(msg, cap, "output[%zu] = %.9g is neither 0 nor x / (1 - p) = %.9g", i, got, keep);
            return CT_ERR_INVALID;
        }
    }
    double frac = (double)zeros / n, sigma = sqrt(p * (1 - p) / n);
    if (fabs(frac - p) > 6 * sigma + 1.0 / n) {
        snprintf(msg, cap, "dropped %.4f of the elements, p = %.4f", frac, p);
        return CT_ERR_INVALID;
    }
    snprintf(msg, cap, "output ok (dropped %.4f, p = %.2f)", frac, p);
    return CT_OK;
}

/* geglu, swiglu: c = act(a).cast(dt) * b over rows */
static ct_status glu_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 16), n = dim(r, "N", 1024);
    tl_scalar dt = sig_dtype(r, "a_ptr", TL_FP32);
    int a, b, c;
    TRY(new_buf(r, "a", dt, (size_t)(m * n), LR_IN, -3, 3, &a));
    TRY(new_buf(r, "b", dt, (size_t)(m * n), LR_IN, -2, 2, &b));
    TRY(new_buf(r, "c", dt, (size_t)(m * n), LR_OUT, 0, 0, &c));
    ptr(r, a), ptr(r, b), ptr(r, c), arg(r, ct_int(n), -1), arg(r, ct_int(n), -1);
    r->grid = ct_grid((unsigned)m);
    r->bytes = 3.0 * m * n * lr_dtype_size(dt);
    return CT_OK;
}
static double geglu_ref(lr_run *r, size_t i, void *ud)
{
    (void)ud;
    double a = in(r, 0, i), b = in(r, 1, i);
    double g = 0.5 * a * (1 + tanh(0.7978845608028654 * (a + 0.044715 * a * a * a)));
    return rnd(r->bufs[2].dt, rnd(r->bufs[2].dt, g) * b);
}
static double swiglu_ref(lr_run *r, size_t i, void *ud)
{
    (void)ud;
    double a = in(r, 0, i), b = in(r, 1, i);
    return rnd(r->bufs[2].dt, rnd(r->bufs[2].dt, a / (1 + exp(-a))) * b);
}
static double glu_tol(tl_scalar dt) { return dt == TL_FP32 ? 2e-6 : dt == TL_FP16 ? 2e-3 : 1.6e-2; }
static ct_status geglu_check(lr_run *r, char *m, size_t c)
{
    double t = glu_tol(r->bufs[2].dt);
    return compare(r, 2, r->bufs[2].n, geglu_ref, NULL, t, t, m, c);
}
static ct_status swiglu_check(lr_run *r, char *m, size_t c)
{
    double t = glu_tol(r->bufs[2].dt);
    return compare(r, 2, r->bufs[2].n, swiglu_ref, NULL, t, t, m, c);
}

/* layer norm and RMS norm: per-row statistics in double */
typedef struct norm_stats {
    double *mean, *rstd;
} norm_stats;

static ct_status layer_norm_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 32), n = dim(r, "N", 1024);
    tl_scalar dt = sig_dtype(r, "X", TL_FP32);
    int x, y, w, b, mean, rstd;
    TRY(new_buf(r, "X", dt, (size_t)(m * n), LR_IN, -2, 2, &x));
    TRY(new_buf(r, "Y", dt, (size_t)(m * n), LR_OUT, 0, 0, &y));
    TRY(new_buf(r, "W", TL_FP32, (size_t)n, LR_IN, 0.5, 1.5, &w));
    TRY(new_buf(r, "B", TL_FP32, (size_t)n, LR_IN, -0.5, 0.5, &b));
    TRY(new_buf(r, "Mean", TL_FP32, (size_t)m, LR_OUT, 0, 0, &mean));
    TRY(new_buf(r, "Rstd", TL_FP32, (size_t)m, LR_OUT, 0, 0, &rstd));
    ptr(r, x), ptr(r, y), ptr(r, w), ptr(r, b), ptr(r, mean), ptr(r, rstd);
    arg(r, ct_int(n), -1), arg(r, ct_int(n), -1), arg(r, ct_float(1e-5), -1);
    r->grid = ct_grid((unsigned)m);
    r->bytes = 2.0 * m * n * lr_dtype_size(dt) + 8.0 * n + 8.0 * m;
    return CT_OK;
}
static double ln_y(lr_run *r, size_t i, void *ud)
{
    norm_stats *st = ud;
    size_t n = r->bufs[2].n, row = i / n;
    return rnd(r->bufs[1].dt, (in(r, 0, i) - st->mean[row]) * st->rstd[row] * in(r, 2, i % n) + in(r, 3, i % n));
}
static double ln_mean(lr_run *r, size_t i, void *ud) { (void)r; return ((norm_stats *)ud)->mean[i]; }
static double ln_rstd(lr_run *r, size_t i, void *ud) { (void)r; return ((norm_stats *)ud)->rstd[i]; }
static ct_status layer_norm_check(lr_run *r, char *msg, size_t cap)
{
    size_t m = r->bufs[4].n, n = r->bufs[2].n;
    norm_stats st = {calloc(m, sizeof(double)), calloc(m, sizeof(double))};
    if (!st.mean || !st.rstd) {
        free(st.mean);
        free(st.rstd);
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    }
    for (size_t row = 0; row < m; row++) {
        double s = 0, v = 0;
        for (size_t j = 0; j < n; j++)
            s += in(r, 0, row * n + j);
        s /= n;
        for (size_t j = 0; j < n; j++)
            v += (in(r, 0, row * n + j) - s) * (in(r, 0, row * n + j) - s);
        st.mean[row] = s;
        st.rstd[row] = 1 / sqrt(v / n + 1e-5);
    }
    double t = r->bufs[1].dt == TL_FP32 ? 2e-5 : 4e-3;
    ct_status s = compare(r, 1, m * n, ln_y, &st, t, t, msg, cap);
    if (s == CT_OK)
        s = compare(r, 4, m, ln_mean, &st, 1e-5, 1e-6, msg, cap);
    if (s == CT_OK)
        s = compare(r, 5, m, ln_rstd, &st, 1e-5, 1e-6, msg, cap);
    free(st.mean);
    free(st.rstd);
    return s;
}

static ct_status rms_norm_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 32), n = dim(r, "N", 1024);
    tl_scalar dt = sig_dtype(r, "X", TL_FP32);
    int x, y, w, rstd;
    TRY(new_buf(r, "X", dt, (size_t)(m * n), LR_IN, -2, 2, &x));
    TRY(new_buf(r, "Y", dt, (size_t)(m * n), LR_OUT, 0, 0, &y));
    TRY(new_buf(r, "W", dt, (size_t)n, LR_IN, 0.5, 1.5, &w));
    TRY(new_buf(r, "Rstd", TL_FP32, (size_t)m, LR_OUT, 0, 0, &rstd));
    ptr(r, x), ptr(r, y), ptr(r, w), ptr(r, rstd);
    arg(r, ct_int(n), -1), arg(r, ct_int(n), -1), arg(r, ct_float(1e-6), -1);
    r->grid = ct_grid((unsigned)m);
    r->bytes = 2.0 * m * n * lr_dtype_size(dt) + (double)n * lr_dtype_size(dt) + 4.0 * m;
    return CT_OK;
}
static double rms_y(lr_run *r, size_t i, void *ud)
{
    norm_stats *st = ud;
    size_t n = r->bufs[2].n;
    return rnd(r->bufs[1].dt, in(r, 0, i) * st->rstd[i / n] * in(r, 2, i % n));
}
static ct_status rms_norm_check(lr_run *r, char *msg, size_t cap)
{
    size_t m = r->bufs[3].n, n = r->bufs[2].n;
    norm_stats st = {NULL, calloc(m, sizeof(double))};
    if (!st.rstd)
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    for (size_t row = 0; row < m; row++) {
        double s = 0;
        for (size_t j = 0; j < n; j++)
            s += in(r, 0, row * n + j) * in(r, 0, row * n + j);
        st.rstd[row] = 1 / sqrt(s / n + 1e-6);
    }
    double t = r->bufs[1].dt == TL_FP32 ? 2e-5 : 1.6e-2;
    ct_status s = compare(r, 1, m * n, rms_y, &st, t, t, msg, cap);
    if (s == CT_OK)
        s = compare(r, 3, m, ln_rstd, &st, 1e-5, 1e-6, msg, cap);
    free(st.rstd);
    return s;
}

/* per-token-group fp8 quantization */
static ct_status quant_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 32), n = dim(r, "N", 1024), g = dim(r, "G", 128);
    tl_scalar dt = sig_dtype(r, "y_ptr", TL_FP16);
    int y, q, s;
    TRY(new_buf(r, "y", dt, (size_t)(m * n), LR_IN, -4, 4, &y));
    TRY(new_buf(r, "y_q", TL_FP8E4NV, (size_t)(m * n), LR_OUT, 0, 0, &q));
    TRY(new_buf(r, "y_s", TL_FP32, (size_t)(m * n / g), LR_OUT, 0, 0, &s));
    ptr(r, y), ptr(r, q), ptr(r, s);
    arg(r, ct_int(g), -1), arg(r, ct_int(n), -1), arg(r, ct_int(n), -1);
    arg(r, ct_float(1e-10), -1), arg(r, ct_float(-448.0), -1), arg(r, ct_float(448.0), -1);
    r->grid = ct_grid((unsigned)(m * n / g));
    r->bytes = (double)m * n * (lr_dtype_size(dt) + 1) + 4.0 * m * n / g;
    return CT_OK;
}
static double quant_scale(lr_run *r, size_t grp, void *ud)
{
    (void)ud;
    int64_t g = r->args[3].v.i;
    double mx = 1e-10;
    for (int64_t j = 0; j < g; j++)
        mx = fmax(mx, fabs(in(r, 0, grp * g + j)));
    return (float)((float)mx / 448.0f);
}
static double quant_q(lr_run *r, size_t i, void *ud)
{
    (void)ud;
    int64_t g = r->args[3].v.i;
    float s = (float)quant_scale(r, i / g, NULL);
    float v = (float)in(r, 0, i) / s;
    v = v < -448 ? -448 : v > 448 ? 448 : v;
    return rnd(TL_FP8E4NV, v);
}
static ct_status quant_check(lr_run *r, char *m, size_t c)
{
    ct_status s = compare(r, 2, r->bufs[2].n, quant_scale, NULL, 1e-6, 0, m, c);
    /* fp8e4nv has 3 mantissa bits: a one-ulp disagreement is 1/8 relative */
    return s == CT_OK ? compare(r, 1, r->bufs[1].n, quant_q, NULL, 0.126, 1.0 / 512, m, c) : s;
}

/* rope, in place on q */
static ct_status rope_setup(lr_run *r)
{
    int64_t t = dim(r, "T", 64), sl = dim(r, "S", 32), nh = cx(r, "n_qh", 32), hd = cx(r, "hd", 128);
    tl_scalar dt = sig_dtype(r, "q_ptr", TL_FP32);
    int q, c, s;
    TRY(new_buf(r, "q", dt, (size_t)(t * nh * hd), LR_INOUT, -2, 2, &q));
    TRY(new_buf(r, "cos", TL_FP32, (size_t)(sl * hd), LR_IN, -1, 1, &c));
    TRY(new_buf(r, "sin", TL_FP32, (size_t)(sl * hd), LR_IN, -1, 1, &s));
    ptr(r, q), arg(r, ct_int(nh * hd), -1), ptr(r, c), arg(r, ct_int(hd), -1), ptr(r, s);
    arg(r, ct_int(hd), -1), arg(r, ct_int(sl), -1);
    r->grid = ct_grid((unsigned)t);
    r->bytes = 2.0 * t * nh * hd * lr_dtype_size(dt) + 4.0 * t * hd;
    return CT_OK;
}
static double rope_ref(lr_run *r, size_t i, void *ud)
{
    (void)ud;
    int64_t nh = cx(r, "n_qh", 32), hd = cx(r, "hd", 128), sl = r->args[6].v.i;
    bool bwd = strstr(r->cfg->constexprs, "BACKWARD_PASS=True") != NULL;
    size_t tok = i / (size_t)(nh * hd), j = i % (size_t)hd, half = (size_t)hd / 2;
    size_t base = i - j, pos = tok % (size_t)sl;
    size_t k = j % half;
    double c = in(r, 1, pos * hd + k), s = in(r, 2, pos * hd + k);
    double x1 = in(r, 0, base + k), x2 = in(r, 0, base + k + half);
    double y = j < half ? (bwd ? x1 * c + x2 * s : x1 * c - x2 * s)
                        : (bwd ? x2 * c - x1 * s : x2 * c + x1 * s);
    return rnd(r->bufs[0].dt, y);
}
static ct_status rope_check(lr_run *r, char *m, size_t c)
{
    double t = r->bufs[0].dt == TL_FP32 ? 2e-6 : 2e-3;
    return compare(r, 0, r->bufs[0].n, rope_ref, NULL, t, t, m, c);
}

/* softmax (one program per row) and its persistent form */
static ct_status softmax_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 64), n = dim(r, "N", 1000);
    int x, y;
    TRY(new_buf(r, "x", TL_FP32, (size_t)(m * n), LR_IN, -4, 4, &x));
    TRY(new_buf(r, "y", TL_FP32, (size_t)(m * n), LR_OUT, 0, 0, &y));
    ptr(r, x), ptr(r, y), arg(r, ct_int(n), -1);
    r->grid = ct_grid((unsigned)m);
    r->bytes = 8.0 * m * n;
    return CT_OK;
}
static ct_status softmax_persistent_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 64), n = dim(r, "N", 1000), g = dim(r, "G", 32);
    int x, y;
    TRY(new_buf(r, "output", TL_FP32, (size_t)(m * n), LR_OUT, 0, 0, &y));
    TRY(new_buf(r, "input", TL_FP32, (size_t)(m * n), LR_IN, -4, 4, &x));
    ptr(r, y), ptr(r, x), arg(r, ct_int(n), -1), arg(r, ct_int(n), -1), arg(r, ct_int(m), -1);
    arg(r, ct_int(n), -1);
    r->grid = ct_grid((unsigned)g);
    r->bytes = 8.0 * m * n;
    return CT_OK;
}
typedef struct softmax_ref {
    int in, n;
    size_t row;
    double mx, sum;
} softmax_ref;
static double sm_ref(lr_run *r, size_t i, void *ud)
{
    softmax_ref *s = ud;
    size_t row = i / (size_t)s->n;
    if (row != s->row) {
        s->row = row;
        s->mx = -INFINITY;
        s->sum = 0;
        for (int j = 0; j < s->n; j++)
            s->mx = fmax(s->mx, in(r, s->in, row * s->n + j));
        for (int j = 0; j < s->n; j++)
            s->sum += exp(in(r, s->in, row * s->n + j) - s->mx);
    }
    return exp(in(r, s->in, i) - s->mx) / s->sum;
}
/* large outputs: the first million elements, whole rows (a row costs its length) */
static size_t head(size_t n) { return n < (1u << 20) ? n : (1u << 20); }

static ct_status softmax_check(lr_run *r, char *m, size_t c)
{
    softmax_ref s = {0, (int)r->args[2].v.i, (size_t)-1, 0, 0};
    return compare(r, 1, head(r->bufs[1].n), sm_ref, &s, 1e-5, 1e-8, m, c);
}
static ct_status softmax_persistent_check(lr_run *r, char *m, size_t c)
{
    softmax_ref s = {1, (int)r->args[5].v.i, (size_t)-1, 0, 0};
    return compare(r, 0, head(r->bufs[0].n), sm_ref, &s, 1e-5, 1e-8, m, c);
}

/* matmul: fp16 or fp8 inputs, fp32 accumulation, fp16 output */
static ct_status matmul_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 512), n = dim(r, "N", 512), k = dim(r, "K", 512);
    tl_scalar dt = sig_dtype(r, "a_ptr", TL_FP16);
    int a, b, c;
    TRY(new_buf(r, "a", dt, (size_t)(m * k), LR_IN, -1, 1, &a));
    TRY(new_buf(r, "b", dt, (size_t)(k * n), LR_IN, -1, 1, &b));
    TRY(new_buf(r, "c", TL_FP16, (size_t)(m * n), LR_OUT, 0, 0, &c));
    ptr(r, a), ptr(r, b), ptr(r, c);
    arg(r, ct_int(m), -1), arg(r, ct_int(n), -1), arg(r, ct_int(k), -1);
    arg(r, ct_int(k), -1), arg(r, ct_int(1), -1), arg(r, ct_int(n), -1), arg(r, ct_int(1), -1);
    arg(r, ct_int(n), -1), arg(r, ct_int(1), -1);
    r->grid = ct_grid(cdiv(m, cx(r, "BLOCK_SIZE_M", 128)) * cdiv(n, cx(r, "BLOCK_SIZE_N", 128)));
    r->flops = 2.0 * m * n * k;
    r->bytes = (double)(m * k + k * n) * lr_dtype_size(dt) + 2.0 * m * n;
    return CT_OK;
}
static double mm_ref(lr_run *r, size_t i, void *ud)
{
    (void)ud;
    int64_t n = r->args[4].v.i, k = r->args[5].v.i;
    size_t row = i / (size_t)n, col = i % (size_t)n;
    double acc = 0;
    for (int64_t j = 0; j < k; j++)
        acc += in(r, 0, row * (size_t)k + (size_t)j) * in(r, 1, (size_t)j * (size_t)n + col);
    if (strstr(r->cfg->constexprs, "leaky_relu") && acc < 0)
        acc *= 0.01;
    return rnd(TL_FP16, acc);
}
static ct_status matmul_check(lr_run *r, char *m, size_t c)
{
    /* fp32 accumulation in another order, then one fp16 rounding */
    double k = (double)r->args[5].v.i;
    size_t most = (size_t)(4e7 / (k + 1)) + 64; /* each reference element costs K */
    return compare_n(r, 2, r->bufs[2].n, mm_ref, NULL, 2e-3, 1e-3 * sqrt(k), most, m, c);
}

/* cummax: per block of BLOCK_SIZE columns of each row, the running maximum and the index of
 * its last occurrence; the block's maximum and index */
static ct_status cummax_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 8), n = dim(r, "N", 3000);
    unsigned nb = cdiv(n, cx(r, "BLOCK_SIZE", 1024));
    tl_scalar dt = sig_dtype(r, "x_ptr", TL_FP32);
    int x, v, i, bm, bi;
    TRY(new_buf(r, "x", dt, (size_t)(m * n), LR_IN, -4, 4, &x));
    TRY(new_buf(r, "values", dt, (size_t)(m * n), LR_OUT, 0, 0, &v));
    TRY(new_buf(r, "indices", TL_INT32, (size_t)(m * n), LR_OUT, 0, 0, &i));
    TRY(new_buf(r, "block_max", dt, (size_t)m * nb, LR_OUT, 0, 0, &bm));
    TRY(new_buf(r, "block_idx", TL_INT32, (size_t)m * nb, LR_OUT, 0, 0, &bi));
    ptr(r, x), ptr(r, v), ptr(r, i), ptr(r, bm), ptr(r, bi), arg(r, ct_int(n), -1);
    r->grid = ct_grid((unsigned)m, nb);
    r->bytes = (double)m * n * (2.0 * lr_dtype_size(dt) + 4);
    return CT_OK;
}
static double from_array(lr_run *r, size_t i, void *ud)
{
    (void)r;
    return ((const double *)ud)[i];
}
static ct_status cummax_check(lr_run *r, char *m, size_t c)
{
    int64_t n = r->args[5].v.i, rows = (int64_t)r->bufs[1].n / n, bs = cx(r, "BLOCK_SIZE", 1024);
    int64_t nb = (n + bs - 1) / bs;
    double *w = malloc(sizeof(double) * (size_t)(2 * rows * n + 2 * rows * nb));
    if (!w)
        return ct_fail(CT_ERR_NOMEM, "cummax check: out of memory");
    double *wv = w, *wi = w + rows * n, *wbm = wi + rows * n, *wbi = wbm + rows * nb;
    for (int64_t row = 0; row < rows; row++)
        for (int64_t b = 0; b < nb; b++) {
            double v = -INFINITY, idx = -1;
            for (int64_t j = b * bs; j < (b + 1) * bs && j < n; j++) {
                double x = in(r, 0, (size_t)(row * n + j));
                if (x >= v) { /* larger, or equal with the larger index */
                    v = x;
                    idx = (double)j;
                }
                wv[row * n + j] = v;
                wi[row * n + j] = idx;
            }
            wbm[row * nb + b] = v;
            wbi[row * nb + b] = idx;
        }
    ct_status s = compare(r, 1, r->bufs[1].n, from_array, wv, 0, 0, m, c);
    if (s == CT_OK)
        s = compare(r, 2, r->bufs[2].n, from_array, wi, 0, 0, m, c);
    if (s == CT_OK)
        s = compare(r, 3, r->bufs[3].n, from_array, wbm, 0, 0, m, c);
    if (s == CT_OK)
        s = compare(r, 4, r->bufs[4].n, from_array, wbi, 0, 0, m, c);
    free(w);
    return s;
}

/* matmul through tensor descriptors: A (M x K) @ B (K x N), row-major fp16 */
static ct_status matmul_tma_setup(lr_run *r)
{
    int64_t m = dim(r, "M", 512), n = dim(r, "N", 512), k = dim(r, "K", 512);
    int a, b, c;
    TRY(new_buf(r, "a", TL_FP16, (size_t)(m * k), LR_IN, -1, 1, &a));
    TRY(new_buf(r, "b", TL_FP16, (size_t)(k * n), LR_IN, -1, 1, &b));
    TRY(new_buf(r, "c", TL_FP16, (size_t)(m * n), LR_OUT, 0, 0, &c));
    ptr(r, a), ptr(r, b), ptr(r, c), arg(r, ct_int(m), -1), arg(r, ct_int(n), -1), arg(r, ct_int(k), -1);
    r->grid = ct_grid(cdiv(m, cx(r, "BLOCK_SIZE_M", 128)) * cdiv(n, cx(r, "BLOCK_SIZE_N", 128)));
    r->bytes = 2.0 * (m * k + k * n + m * n);
    r->flops = 2.0 * m * n * k;
    return CT_OK;
}
static double mm_tma_ref(lr_run *r, size_t i, void *ud)
{
    (void)ud;
    int64_t n = r->args[4].v.i, k = r->args[5].v.i;
    int64_t row = (int64_t)i / n, col = (int64_t)i % n;
    double acc = 0;
    for (int64_t kk = 0; kk < k; kk++)
        acc += in(r, 0, (size_t)(row * k + kk)) * in(r, 1, (size_t)(kk * n + col));
    return rnd(TL_FP16, acc);
}
static ct_status matmul_tma_check(lr_run *r, char *m, size_t c)
{
    double k = (double)r->args[5].v.i;
    size_t most = (size_t)(4e7 / (k + 1)) + 64;
    return compare_n(r, 2, r->bufs[2].n, mm_tma_ref, NULL, 2e-3, 1e-3 * sqrt(k), most, m, c);
}

static const recipe recipes[] = {
    {"add_kernel", add_setup, add_check},
    {"asin_kernel", asin_setup, asin_check},
    {"dropout_kernel", dropout_setup, dropout_check},
    {"geglu_kernel", glu_setup, geglu_check},
    {"swiglu_kernel", glu_setup, swiglu_check},
    {"layer_norm_fwd_kernel", layer_norm_setup, layer_norm_check},
    {"rms_norm_fwd_kernel", rms_norm_setup, rms_norm_check},
    {"per_token_group_quant_fp8_kernel", quant_setup, quant_check},
    {"rope_kernel", rope_setup, rope_check},
    {"softmax_kernel", softmax_setup, softmax_check},
    {"softmax_persistent_kernel", softmax_persistent_setup, softmax_persistent_check},
    {"matmul_kernel", matmul_setup, matmul_check},
    {"cummax_kernel", cummax_setup, cummax_check},
    {"matmul_tma_kernel", matmul_tma_setup, matmul_tma_check},
};

static const recipe *find_recipe(const char *kernel)
{
    for (size_t i = 0; i < sizeof recipes / sizeof recipes[0]; i++)
        if (!strcmp(recipes[i].kernel, kernel))
            return &recipes[i];
    return NULL;
}

bool lr_has_recipe(const char *kernel) { return find_recipe(kernel) != NULL; }

/* Timing problems: the config's shapes grown, residues mod 16 kept. */
static const struct {
    const char *kernel, *config, *problem;
} bench_problems[] = {
    {"add_kernel", "B1024", "N=67108864"},
    {"add_kernel", "B256_tail", "N=67108872"},
    {"asin_kernel", "B1024", "N=67108864"},
    {"asin_kernel", "B512_tail", "N=67108873"},
    {"dropout_kernel", "B1024", "N=67108864 P=0.25 SEED=123"},
    {"dropout_kernel", "B256_tail", "N=67108873 P=0.5 SEED=7"},
    {"geglu_kernel", "bf16_N2048", "M=16384 N=2048"},
    {"geglu_kernel", "fp32_N1000", "M=16384 N=1000"},
    {"swiglu_kernel", "fp16_N4096", "M=16384 N=4096"},
    {"swiglu_kernel", "fp32_N1000", "M=16384 N=1000"},
    {"layer_norm_fwd_kernel", "fp16_N1000", "M=16384 N=1000"},
    {"layer_norm_fwd_kernel", "fp32_N4096", "M=16384 N=4096"},
    {"rms_norm_fwd_kernel", "bf16_N1000", "M=16384 N=1000"},
    {"rms_norm_fwd_kernel", "fp32_N2048", "M=16384 N=2048"},
    {"per_token_group_quant_fp8_kernel", "g128", "M=16384 N=1024 G=128"},
    {"per_token_group_quant_fp8_kernel", "g100_bf16", "M=16384 N=700 G=100"},
    {"rope_kernel", "h32_d128_fp16", "T=16384 S=32"},
    {"rope_kernel", "h12_d80_bwd", "T=16384 S=25"},
    {"softmax_kernel", "B1024", "M=32768 N=1000"},
    {"softmax_kernel", "B128", "M=262144 N=128"},
    {"softmax_persistent_kernel", "B1024_S2", "M=32772 N=1000 G=528"},
    {"softmax_persistent_kernel", "B256_S3", "M=131072 N=256 G=528"},
    {"matmul_kernel", "fp16_128x128x64", "M=4096 N=4096 K=4096"},
    {"matmul_kernel", "fp16_64x64x32_relu_tail", "M=4104 N=4104 K=4100"},
    {"matmul_kernel", "fp8_128x128x64", "M=4096 N=4096 K=4096"},
    {"cummax_kernel", "fp32_N3000_B1024", "M=16384 N=3000"},
    {"cummax_kernel", "fp16_N500_B256", "M=65536 N=500"},
    {"matmul_tma_kernel", "fp16_128x128x64", "M=4096 N=4096 K=4096"},
    {"matmul_tma_kernel", "fp16_64x64x32_tail", "M=4104 N=4104 K=4104"},
};

const char *lr_bench_problem(const char *kernel, const char *config)
{
    for (size_t i = 0; i < sizeof bench_problems / sizeof bench_problems[0]; i++)
        if (!strcmp(bench_problems[i].kernel, kernel) && !strcmp(bench_problems[i].config, config))
            return bench_problems[i].problem;
    return NULL;
}

/* ---- runs ------------------------------------------------------------------ */

ct_status lr_prepare(lr_run *r, const ct_kernel_entry *e, const tl_config *c, const char *problem,
                     unsigned seed)
{
    memset(r, 0, sizeof *r);
    r->entry = e;
    r->cfg = c;
    r->seed = seed ? seed : 0x9e3779b9u;
    snprintf(r->problem, sizeof r->problem, "%s", problem ? problem : c->problem ? c->problem : "");
    const recipe *rc = find_recipe(e->def->name);
    if (!rc)
        return ct_fail(CT_ERR_UNSUPPORTED, "no launch recipe for %s (bench/launch_recipes.c)",
                       e->def->name);
    ct_kernel_opts ko = {.constexprs = c->constexprs, .num_warps = c->num_warps,
                         .num_stages = c->num_stages};
    TRY(ct_kernel_new(e->def, &ko, &r->k));
    return rc->setup(r);
}

ct_status lr_reset(lr_run *r)
{
    for (int i = 0; i < r->nbufs; i++) {
        lr_buf *b = &r->bufs[i];
        if (b->role != LR_IN)
            TRY(ct_mem_upload(b->dev, b->host, b->n * lr_dtype_size(b->dt)));
    }
    return CT_OK;
}

ct_status lr_launch(lr_run *r, ct_stream s) { return ct_launch(r->k, r->grid, s, r->args, r->nargs); }

ct_status lr_fetch(lr_run *r)
{
    TRY(ct_stream_sync(NULL));
    for (int i = 0; i < r->nbufs; i++) {
        lr_buf *b = &r->bufs[i];
        if (b->role == LR_IN)
            continue;
        size_t bytes = b->n * lr_dtype_size(b->dt);
        if (!b->result && !(b->result = malloc(bytes ? bytes : 1)))
            return ct_fail(CT_ERR_NOMEM, "out of memory");
        TRY(ct_mem_download(b->result, b->dev, bytes));
    }
    return CT_OK;
}

ct_status lr_check(lr_run *r, char *msg, size_t cap)
{
    msg[0] = 0;
    const recipe *rc = find_recipe(r->entry->def->name);
    return rc->check(r, msg, cap);
}

void lr_signature(const lr_run *r, char *buf, size_t cap)
{
    uint8_t codes[64];
    if (ct_spec_codes(r->args, r->nargs, NULL, r->entry->def->params, codes) != CT_OK) {
        snprintf(buf, cap, "?");
        return;
    }
    ct_spec_signature(codes, r->nargs, r->entry->def->params, buf, cap);
}

static bool write_bin(const char *dir, const char *name, const char *ext, const void *data, size_t n)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, n, f) == n;
    return (fclose(f) == 0) && ok;
}

ct_status lr_dump(const lr_run *r, const char *dir, const char *extra_json, bool with_data)
{
    mkdir(dir, 0755);
    char path[4300];
    snprintf(path, sizeof path, "%s/meta.json", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return ct_fail(CT_ERR_IO, "cannot write %s", path);
    char sig[2048];
    lr_signature(r, sig, sizeof sig);
    fprintf(f, "{\"kernel\": \"%s\", \"config\": \"%s\", \"py\": \"%s\",\n", r->entry->def->name,
            r->cfg->name, r->entry->py_file);
    fprintf(f, " \"problem\": \"%s\", \"signature\": \"%s\", \"config_signature\": \"%s\",\n",
            r->problem, sig, r->cfg->signature);
    fprintf(f, " \"constexprs\": \"");
    for (const char *p = r->cfg->constexprs; *p; p++)
        fprintf(f, *p == '"' ? "\\\"" : "%c", *p);
    fprintf(f, "\", \"num_warps\": %d, \"num_stages\": %d,\n",
            r->cfg->num_warps ? r->cfg->num_warps : 4, r->cfg->num_stages ? r->cfg->num_stages : 3);
    fprintf(f, " \"grid\": [%u, %u, %u], \"bytes\": %.0f, \"flops\": %.0f,\n", r->grid.x,
            r->grid.y, r->grid.z, r->bytes, r->flops);
    fprintf(f, " \"args\": [");
    for (int i = 0; i < r->nargs; i++) {
        const ct_arg *a = &r->args[i];
        const char *sep = i ? ", " : "";
        if (r->argbuf[i] >= 0)
            fprintf(f, "%s{\"buf\": \"%s\"}", sep, r->bufs[r->argbuf[i]].name);
        else if (a->kind == CT_ARG_FLOAT)
            fprintf(f, "%s{\"float\": %.17g}", sep, a->v.f);
        else
            fprintf(f, "%s{\"int\": %lld}", sep, (long long)a->v.i);
    }
    fprintf(f, "],\n \"buffers\": [");
    for (int i = 0; i < r->nbufs; i++) {
        const lr_buf *b = &r->bufs[i];
        static const char *const roles[] = {"in", "out", "inout"};
        fprintf(f, "%s{\"name\": \"%s\", \"dtype\": \"%s\", \"count\": %zu, \"role\": \"%s\"}",
                i ? ", " : "", b->name, lr_dtype_name(b->dt), b->n, roles[b->role]);
    }
    fprintf(f, "]%s%s}\n", extra_json ? ",\n " : "", extra_json ? extra_json : "");
    bool ok = fclose(f) == 0;
    for (int i = 0; i < r->nbufs && ok && with_data; i++) {
        const lr_buf *b = &r->bufs[i];
        size_t bytes = b->n * lr_dtype_size(b->dt);
        ok = write_bin(dir, b->name, "in", b->host, bytes);
        if (ok && b->role != LR_IN && b->result)
            ok = write_bin(dir, b->name, "out", b->result, bytes);
    }
    return ok ? CT_OK : ct_fail(CT_ERR_IO, "cannot write the dump in %s", dir);
}

void lr_free(lr_run *r)
{
    for (int i = 0; i < r->nbufs; i++) {
        if (r->bufs[i].dev)
            ct_mem_free(r->bufs[i].dev);
        free(r->bufs[i].host);
        free(r->bufs[i].result);
    }
    ct_kernel_free(r->k);
    memset(r, 0, sizeof *r);
}
