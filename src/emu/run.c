/*
 * run.c - sessions, buffers, argument checking, and running a kernel over
 * its grid on worker threads.
 *
 * Each worker owns one frame (the kernel's scratch: every value of one
 * program), allocated once per run; constants and arguments are written into
 * it before the first program.  Which programs a worker runs, and parking the
 * ones that wait on others, is sched.c's.
 */
#include "emu_internal.h"
#include "util/alloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* ---- dtypes ---------------------------------------------------------------- */

static const struct {
    const char *name, *alt;
    size_t size;
} dtypes[] = {
    [CT_EMU_BYTES] = {"bytes", "u8x", 1},   [CT_EMU_I1] = {"i1", "bool", 1},
    [CT_EMU_I8] = {"i8", "int8", 1},        [CT_EMU_I16] = {"i16", "int16", 2},
    [CT_EMU_I32] = {"i32", "int32", 4},     [CT_EMU_I64] = {"i64", "int64", 8},
    [CT_EMU_U8] = {"u8", "uint8", 1},       [CT_EMU_U16] = {"u16", "uint16", 2},
    [CT_EMU_U32] = {"u32", "uint32", 4},    [CT_EMU_U64] = {"u64", "uint64", 8},
    [CT_EMU_F16] = {"fp16", "float16", 2},  [CT_EMU_BF16] = {"bf16", "bfloat16", 2},
    [CT_EMU_F32] = {"fp32", "float32", 4},  [CT_EMU_F64] = {"fp64", "float64", 8},
    [CT_EMU_F8E4NV] = {"fp8e4nv", "float8e4nv", 1}, [CT_EMU_F8E5] = {"fp8e5", "float8e5", 1},
    [CT_EMU_F8E4B8] = {"fp8e4b8", "float8e4b8", 1}, [CT_EMU_F8E5B16] = {"fp8e5b16", "float8e5b16", 1},
};
#define NDTYPES ((int)(sizeof dtypes / sizeof dtypes[0]))

size_t ct_emu_dtype_size(ct_emu_dtype t)
{
    return (int)t >= 0 && (int)t < NDTYPES ? dtypes[t].size : 0;
}

const char *ct_emu_dtype_name(ct_emu_dtype t)
{
    return (int)t >= 0 && (int)t < NDTYPES ? dtypes[t].name : "?";
}

int ct_emu_dtype_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < NDTYPES; i++)
        if (!strcmp(name, dtypes[i].name) || !strcmp(name, dtypes[i].alt))
            return i;
    if (!strcmp(name, "f32"))
        return CT_EMU_F32;
    if (!strcmp(name, "f16"))
        return CT_EMU_F16;
    if (!strcmp(name, "f64"))
        return CT_EMU_F64;
    return -1;
}

bool ct_emu_dtype_is_float(ct_emu_dtype t)
{
    return t >= CT_EMU_F16 && t <= CT_EMU_F8E5B16;
}

/* the element kind that stores a dtype */
static emu_ek dtype_ek(ct_emu_dtype t)
{
    switch (t) {
    case CT_EMU_I1:
        return EK_I1;
    case CT_EMU_I8:
    case CT_EMU_U8:
    case CT_EMU_BYTES:
        return EK_I8;
    case CT_EMU_I16:
    case CT_EMU_U16:
        return EK_I16;
    case CT_EMU_I32:
    case CT_EMU_U32:
        return EK_I32;
    case CT_EMU_I64:
    case CT_EMU_U64:
        return EK_I64;
    case CT_EMU_F16:
        return EK_F16;
    case CT_EMU_BF16:
        return EK_BF16;
    case CT_EMU_F32:
        return EK_F32;
    case CT_EMU_F64:
        return EK_F64;
    case CT_EMU_F8E4NV:
        return EK_F8E4NV;
    case CT_EMU_F8E5:
        return EK_F8E5;
    case CT_EMU_F8E4B8:
        return EK_F8E4B8;
    case CT_EMU_F8E5B16:
        return EK_F8E5B16;
    }
    return EK_I8;
}

static bool dtype_unsigned(ct_emu_dtype t)
{
    return t == CT_EMU_U8 || t == CT_EMU_U16 || t == CT_EMU_U32 || t == CT_EMU_U64 ||
           t == CT_EMU_BYTES;
}

double ct_emu_get(ct_emu_dtype t, const void *data, int64_t i)
{
    emu_numeric_init();
    emu_ek k = dtype_ek(t);
    if (emu_ek_is_float(k))
        return emu_load_f64(k, data, i);
    int64_t v = emu_load_i64(k, data, i);
    if (dtype_unsigned(t)) {
        int bits = emu_ek_int_bits(k);
        uint64_t u = bits >= 64 ? (uint64_t)v : (uint64_t)v & ((1ull << bits) - 1);
        return (double)u;
    }
    return (double)v;
}

void ct_emu_set(ct_emu_dtype t, void *data, int64_t i, double v)
{
    emu_numeric_init();
    emu_ek k = dtype_ek(t);
    if (emu_ek_is_float(k)) {
        emu_store_f64(k, data, i, v);
        return;
    }
    if (v != v)
        v = 0;
    if (dtype_unsigned(t) && v >= 9223372036854775808.0)
        emu_store_i64(k, data, i, (int64_t)(uint64_t)v);
    else if (v >= 9223372036854775807.0)
        emu_store_i64(k, data, i, INT64_MAX);
    else if (v <= -9223372036854775808.0)
        emu_store_i64(k, data, i, INT64_MIN);
    else
        emu_store_i64(k, data, i, (int64_t)v);
}

uint8_t ct_emu_poison_byte(ct_emu_dtype t)
{
    switch (t) {
    case CT_EMU_F8E4B8:
    case CT_EMU_F8E5B16:
        return 0x80; /* the only NaN of the fnuz formats */
    default:
        return ct_emu_dtype_is_float(t) ? 0xff : 0xa5; /* NaN in every other float format */
    }
}

/* ---- sessions ---------------------------------------------------------------- */

ct_emu *ct_emu_new(void)
{
    emu_numeric_init();
    return ct_raw_calloc(1, sizeof(ct_emu));
}

void ct_emu_free(ct_emu *e)
{
    if (!e)
        return;
    ct_raw_free(e->bufs);
    ct_raw_free(e);
}

static int seterr(ct_emu *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int seterr(ct_emu *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err, sizeof e->err, fmt, ap);
    va_end(ap);
    return -1;
}

const char *ct_emu_error(const ct_emu *e)
{
    return e ? e->err : "no session";
}

int ct_emu_add_buffer(ct_emu *e, const char *name, void *host, size_t bytes, ct_emu_dtype dtype,
                      ct_emu_access access)
{
    if (!e)
        return -1;
    if ((int)dtype < 0 || (int)dtype >= NDTYPES)
        return seterr(e, "unknown dtype %d", (int)dtype);
    if (access < CT_EMU_IN || access > CT_EMU_INOUT)
        return seterr(e, "bad access %d", (int)access);
    if (!host && bytes)
        return seterr(e, "buffer `%s`: NULL host memory", name ? name : "");
    if (bytes > EMU_MAX_BUFFER_BYTES)
        return seterr(e, "buffer `%s`: %zu bytes is above the emulator's limit of 2^39",
                      name ? name : "", bytes);
    if (e->nbufs >= (1 << 22))
        return seterr(e, "too many buffers");
    if (e->nbufs == e->cbufs) {
        int nc = e->cbufs ? e->cbufs * 2 : 8;
        emu_buffer *nb = ct_raw_realloc(e->bufs, sizeof(*nb) * (size_t)nc);
        if (!nb)
            return seterr(e, "out of memory");
        e->bufs = nb;
        e->cbufs = nc;
    }
    emu_buffer *b = &e->bufs[e->nbufs];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name && *name ? name : "buf");
    b->host = host;
    b->bytes = bytes;
    b->dtype = dtype;
    b->access = access;
    e->err[0] = 0;
    return e->nbufs++;
}

int ct_emu_nbuffers(const ct_emu *e)
{
    return e ? e->nbufs : 0;
}

const char *ct_emu_buffer_name(const ct_emu *e, int buf)
{
    return e && buf >= 0 && buf < e->nbufs ? e->bufs[buf].name : NULL;
}

const char *ct_emu_status_name(ct_emu_status s)
{
    switch (s) {
    case CT_EMU_OK:
        return "ok";
    case CT_EMU_ERR_ARGS:
        return "bad arguments";
    case CT_EMU_ERR_OOB:
        return "out of bounds";
    case CT_EMU_ERR_NULL:
        return "address in no buffer";
    case CT_EMU_ERR_MISALIGNED:
        return "misaligned access";
    case CT_EMU_ERR_READONLY:
        return "write to a read-only buffer";
    case CT_EMU_ERR_ASSERT:
        return "assertion failed";
    case CT_EMU_ERR_UNSUPPORTED:
        return "unsupported";
    case CT_EMU_ERR_NOMEM:
        return "out of memory";
    case CT_EMU_ERR_BUDGET:
        return "step budget exhausted";
    case CT_EMU_ERR_DEADLOCK:
        return "deadlock";
    }
    return "?";
}

/* ---- kernels: accessors -------------------------------------------------------- */

const char *ct_emu_kernel_name(const ct_emu_kernel *k)
{
    return k ? k->name : NULL;
}

int ct_emu_kernel_nparams(const ct_emu_kernel *k)
{
    return k ? k->nparams : 0;
}

const ct_emu_param *ct_emu_kernel_param(const ct_emu_kernel *k, int i)
{
    return k && i >= 0 && i < k->nparams ? &k->params[i] : NULL;
}

size_t ct_emu_kernel_frame_bytes(const ct_emu_kernel *k)
{
    return k ? k->frame_bytes : 0;
}

/* ---- running ----------------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ct_emu_status arg_error(ct_emu_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static ct_emu_status arg_error(ct_emu_result *res, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    res->status = CT_EMU_ERR_ARGS;
    res->fault.status = CT_EMU_ERR_ARGS;
    res->fault.lane = -1;
    res->fault.buffer = -1;
    vsnprintf(res->fault.message, sizeof res->fault.message, fmt, ap);
    va_end(ap);
    return res->status;
}

static const char *kind_name(ct_emu_param_kind k)
{
    return k == CT_EMU_PARAM_PTR    ? "a pointer"
           : k == CT_EMU_PARAM_DESC ? "a buffer (a tensor descriptor's base)"
           : k == CT_EMU_PARAM_INT  ? "an integer"
                                    : "a float";
}

/* a buffer of dtype b can back a pointer to a: the same floats, or integers of one width (TTIR's
 * integers are signless) */
static bool same_elements(ct_emu_dtype b, ct_emu_dtype a)
{
    if (ct_emu_dtype_is_float(a) || ct_emu_dtype_is_float(b))
        return a == b;
    return ct_emu_dtype_size(a) == ct_emu_dtype_size(b);
}

static ct_emu_status check_args(const ct_emu *e, const ct_emu_kernel *k, int nargs,
                                const ct_emu_arg *args, ct_emu_result *res)
{
    if (nargs != k->nparams)
        return arg_error(res, "%s takes %d arguments, %d given", k->name, k->nparams, nargs);
    for (int i = 0; i < nargs; i++) {
        const ct_emu_param *p = &k->params[i];
        const ct_emu_arg *a = &args[i];
        ct_emu_param_kind ak = a->kind == CT_EMU_ARG_PTR   ? CT_EMU_PARAM_PTR
                               : a->kind == CT_EMU_ARG_INT ? CT_EMU_PARAM_INT
                                                           : CT_EMU_PARAM_FLOAT;
        if (a->kind > CT_EMU_ARG_FLOAT)
            return arg_error(res, "argument %d (%s): unknown kind", i, p->name);
        if (ak != p->kind && !(ak == CT_EMU_PARAM_INT && p->kind == CT_EMU_PARAM_FLOAT) &&
            !(ak == CT_EMU_PARAM_PTR && p->kind == CT_EMU_PARAM_DESC))
            return arg_error(res, "argument %d (%s) must be %s, got %s", i, p->name,
                             kind_name(p->kind), kind_name(ak));
        if (p->kind == CT_EMU_PARAM_DESC) {
            if (a->buffer < 0 || a->buffer >= e->nbufs)
                return arg_error(res, "argument %d (%s): a tensor descriptor needs a buffer", i,
                                 p->name);
            if (a->offset < 0 || a->offset > (int64_t)(EMU_MAX_BUFFER_BYTES / 2))
                return arg_error(res, "argument %d (%s): offset out of range", i, p->name);
            for (int d = 0; d < p->rank; d++) {
                const ct_emu_arg *sh = &args[i + 1 + d], *st = &args[i + 1 + p->rank + d];
                if (sh->kind != CT_EMU_ARG_INT || st->kind != CT_EMU_ARG_INT || sh->i < 0)
                    return arg_error(res, "argument %d (%s): the descriptor's shape and strides "
                                     "(the %d integers after it) must be integers, the shape >= 0",
                                     i, p->name, 2 * p->rank);
            }
            if (args[i + 2 * p->rank].i != 1)
                return arg_error(res, "argument %d (%s): the descriptor's last stride must be 1, "
                                 "got %lld", i, p->name, (long long)args[i + 2 * p->rank].i);
        } else if (p->kind == CT_EMU_PARAM_PTR) {
            if (a->buffer < -1 || a->buffer >= e->nbufs)
                return arg_error(res, "argument %d (%s): no buffer %d (%d registered)", i,
                                 p->name, a->buffer, e->nbufs);
            if (a->buffer >= 0 && (a->offset < -(int64_t)(EMU_MAX_BUFFER_BYTES / 2) ||
                                   a->offset > (int64_t)(EMU_MAX_BUFFER_BYTES / 2)))
                return arg_error(res, "argument %d (%s): offset out of range", i, p->name);
            ct_emu_dtype bt = a->buffer >= 0 ? e->bufs[a->buffer].dtype : CT_EMU_BYTES;
            if (bt != CT_EMU_BYTES && p->elem != CT_EMU_BYTES && !same_elements(bt, p->elem))
                return arg_error(res, "argument %d (%s) points to %s, but buffer `%s` holds %s",
                                 i, p->name, ct_emu_dtype_name(p->elem), e->bufs[a->buffer].name,
                                 ct_emu_dtype_name(bt));
            if (p->divisibility > 1 && a->buffer >= 0 && a->offset % p->divisibility)
                return arg_error(res,
                                 "argument %d (%s) is declared %d-byte aligned "
                                 "(tt.divisibility) but points at byte offset %lld of `%s`",
                                 i, p->name, p->divisibility, (long long)a->offset,
                                 e->bufs[a->buffer].name);
        } else if (p->kind == CT_EMU_PARAM_INT) {
            int64_t v = a->i;
            if (p->bits < 64) {
                int64_t lo = p->bits == 1 ? 0 : -(1ll << (p->bits - 1));
                int64_t hi = p->bits == 1 ? 1 : (1ll << p->bits) - 1; /* signless: either reading */
                if (v < lo || v > hi)
                    return arg_error(res, "argument %d (%s) = %lld does not fit in i%d", i,
                                     p->name, (long long)v, p->bits);
            }
            if (p->divisibility > 1 && v % p->divisibility)
                return arg_error(res,
                                 "argument %d (%s) = %lld is declared divisible by %d "
                                 "(tt.divisibility): the GPU code would assume it is",
                                 i, p->name, (long long)v, p->divisibility);
        }
    }
    return CT_EMU_OK;
}

typedef struct run_job {
    emu_run *R;
    emu_runner *ws;
} run_job;

static void write_args(const emu_run *R, uint8_t *mem)
{
    const ct_emu_kernel *k = R->k;
    for (int i = 0; i < k->nparams; i++) {
        const ct_emu_arg *a = &R->args[i];
        uint8_t *p = mem + k->pslots[i].off;
        emu_ek ek = k->pslots[i].ek;
        switch (k->params[i].kind) {
        case CT_EMU_PARAM_PTR: {
            uint64_t v = a->buffer < 0 ? 0 : EMU_BASE(a->buffer) + (uint64_t)a->offset;
            memcpy(p, &v, 8);
            break;
        }
        case CT_EMU_PARAM_DESC: {
            const ct_emu_param *q = &k->params[i];
            emu_bptr b;
            memset(&b, 0, sizeof b);
            b.base = EMU_BASE(a->buffer) + (uint64_t)a->offset;
            b.rank = q->rank;
            b.fill = 1; /* TensorDescriptor's default padding, zero */
            for (int d = 0; d < q->rank; d++) {
                b.shape[d] = R->args[i + 1 + d].i;
                b.strides[d] = R->args[i + 1 + q->rank + d].i;
            }
            memcpy(p, &b, sizeof b);
            break;
        }
        case CT_EMU_PARAM_INT:
            emu_store_i64(ek, p, 0, a->i);
            break;
        case CT_EMU_PARAM_FLOAT:
            emu_store_f64(ek, p, 0, a->kind == CT_EMU_ARG_INT ? (double)a->i : a->f);
            break;
        }
    }
}

/* one thread of a run: set up its frame, then run programs until none is left (sched.c) */
static void work(void *arg, int index, emu_scratch *scratch)
{
    run_job *J = arg;
    emu_runner *W = &J->ws[index];
    emu_run *R = J->R;
    const ct_emu_kernel *k = R->k;
    bool fresh;
    uint8_t *mem = emu_scratch_get(scratch, k->frame_bytes, k->uid, &fresh);
    if (!mem) {
        W->alloc_failed = true;
        return;
    }
    /* a frame that last held this kernel is used as it is, as by the next program of a run:
     * its constants are still there (no instruction writes a constant's slot:
     * emu_cc_overwritable refuses them) */
    if (fresh) {
        memset(mem, 0, k->frame_bytes);
        for (int i = 0; i < k->ninits; i++)
            memcpy(mem + k->inits[i].off, k->inits[i].data, k->inits[i].bytes);
    }
    write_args(R, mem);
    emu_frame F;
    memset(&F, 0, sizeof F);
    F.mem = mem;
    F.run = R;
    F.k = k;
    for (int d = 0; d < 3; d++)
        F.npid[d] = R->grid[d];
    /* the values that are the same in every program (compile.c: hoistable_op) */
    for (int i = 0; i < k->npro; i++)
        k->pro[i].fn(&F, &k->pro[i]);
    emu_sched_programs(R, W, &F);
}

/* Outputs are poisoned before a run.  Large outputs are split between the run's threads:
 * part i of n of the outputs' bytes, taken in buffer order. */
typedef struct poison_job {
    ct_emu *e;
    int parts;
    uint64_t total;
} poison_job;

static void poison_part(void *arg, int index, emu_scratch *scratch)
{
    (void)scratch;
    poison_job *P = arg;
    uint64_t lo = P->total * (uint64_t)index / (uint64_t)P->parts;
    uint64_t hi = P->total * (uint64_t)(index + 1) / (uint64_t)P->parts, at = 0;
    for (int i = 0; i < P->e->nbufs; i++) {
        emu_buffer *b = &P->e->bufs[i];
        if (b->access != CT_EMU_OUT || !b->bytes)
            continue;
        uint64_t s = lo > at ? lo - at : 0, t = hi < at + b->bytes ? hi - at : b->bytes;
        if (hi > at && s < t)
            memset(b->host + s, ct_emu_poison_byte(b->dtype), (size_t)(t - s));
        at += b->bytes;
    }
}

static void poison_outputs(ct_emu *e, int nth)
{
    poison_job P = {e, 1, 0};
    for (int i = 0; i < e->nbufs; i++)
        if (e->bufs[i].access == CT_EMU_OUT)
            P.total += e->bufs[i].bytes;
    /* a thread per 4 MiB at most */
    int64_t parts = (int64_t)(P.total >> 22) + 1;
    P.parts = parts < nth ? (int)parts : nth;
    int done = P.parts > 1 ? emu_pool_run(P.parts, poison_part, &P) : 0;
    for (int i = done; i < P.parts; i++) /* parts no thread could take */
        poison_part(&P, i, NULL);
}

ct_emu_status ct_emu_run(ct_emu *e, const ct_emu_kernel *k, const ct_emu_launch *l, int nargs,
                         const ct_emu_arg *args, ct_emu_result *res)
{
    ct_emu_result dummy;
    if (!res)
        res = &dummy;
    memset(res, 0, sizeof *res);
    res->fault.lane = -1;
    res->fault.buffer = -1;
    if (!e || !k)
        return arg_error(res, "no session or no kernel");
    snprintf(res->kernel, sizeof res->kernel, "%s", k->name);
    ct_emu_launch dl = {{1, 1, 1}, 0, 0, NULL};
    if (!l)
        l = &dl;
    if (nargs > 0 && !args)
        return arg_error(res, "arguments missing");
    int grid[3];
    for (int d = 0; d < 3; d++) {
        grid[d] = l->grid[d] == 0 ? 1 : l->grid[d];
        if (grid[d] < 0)
            return arg_error(res, "grid[%d] = %d is negative", d, grid[d]);
    }
    if (grid[1] > 65535 || grid[2] > 65535)
        return arg_error(res, "grid (%d, %d, %d): CUDA limits grid y and z to 65535", grid[0],
                         grid[1], grid[2]);
    if (check_args(e, k, nargs, args, res) != CT_EMU_OK)
        return res->status;

    emu_run R;
    memset(&R, 0, sizeof R);
    R.e = e;
    R.k = k;
    memcpy(R.grid, grid, sizeof grid);
    R.nprog = (int64_t)grid[0] * grid[1] * grid[2];
    R.flags = l->flags;
    R.max_steps = l->max_steps < 0 ? INT64_MAX : l->max_steps ? l->max_steps : CT_EMU_DEFAULT_MAX_STEPS;
    R.print = l->print;
    R.args = args;
    atomic_init(&R.next, 0);
    atomic_init(&R.min_fault, INT64_MAX);
    atomic_init(&R.nfaults, 0);
    atomic_init(&R.done, 0);
    R.fault_pid = INT64_MAX;
    pthread_mutex_init(&R.lock, NULL);

    int nth = l->threads;
    if (nth <= 0) {
        long nc = sysconf(_SC_NPROCESSORS_ONLN);
        nth = nc > 0 ? (int)nc : 1;
    }
    if (nth > 1024)
        nth = 1024;
    if (!(l->flags & CT_EMU_NO_POISON))
        poison_outputs(e, nth);
    if ((int64_t)nth > R.nprog)
        nth = (int)(R.nprog > 0 ? R.nprog : 1);
    emu_runner *ws = aligned_alloc(64, sizeof(emu_runner) * (size_t)nth);
    if (!ws) {
        pthread_mutex_destroy(&R.lock);
        res->status = CT_EMU_ERR_NOMEM;
        return res->status;
    }
    memset(ws, 0, sizeof(emu_runner) * (size_t)nth);
    emu_sched_init(&R, ws, nth);
    run_job J = {&R, ws};
    double t0 = now();
    int started = emu_pool_run(nth, work, &J);
    res->seconds = now() - t0;
    res->threads = started;
    bool nomem = false;
    for (int i = 0; i < started; i++) {
        res->programs += ws[i].done;
        res->parks += ws[i].parks;
        nomem |= ws[i].alloc_failed;
    }
    emu_sched_fini(&R);
    ct_raw_free(ws);
    res->nfaults = atomic_load(&R.nfaults);
    if (R.fault_pid != INT64_MAX) {
        res->fault = R.fault;
        res->status = R.fault.status;
    } else if (nomem) {
        res->status = CT_EMU_ERR_NOMEM;
        snprintf(res->fault.message, sizeof res->fault.message,
                 "could not allocate the %zu-byte frame of %s", k->frame_bytes, k->name);
    }
    pthread_mutex_destroy(&R.lock);
    return res->status;
}

/* ---- after a run ------------------------------------------------------------------ */

int ct_emu_buffer_report(const ct_emu *e, int buf, ct_emu_report *r)
{
    if (!e || buf < 0 || buf >= e->nbufs || !r)
        return -1;
    const emu_buffer *b = &e->bufs[buf];
    memset(r, 0, sizeof *r);
    size_t es = ct_emu_dtype_size(b->dtype);
    r->elems = (int64_t)(b->bytes / es);
    uint8_t pb = ct_emu_poison_byte(b->dtype);
    bool fl = ct_emu_dtype_is_float(b->dtype);
    for (int64_t i = 0; i < r->elems; i++) {
        const uint8_t *p = b->host + (size_t)i * es;
        bool poisoned = b->access == CT_EMU_OUT;
        for (size_t j = 0; j < es && poisoned; j++)
            poisoned = p[j] == pb;
        if (poisoned) {
            r->unwritten++;
            continue;
        }
        double v = ct_emu_get(b->dtype, b->host, i);
        if (fl && isnan(v))
            r->nan++;
        else if (fl && isinf(v))
            r->inf++;
        else if (v == 0)
            r->zero++;
    }
    r->all_zero = r->elems > 0 && r->zero == r->elems;
    return 0;
}

void ct_emu_print_reports(const ct_emu *e, FILE *out)
{
    for (int i = 0; e && i < e->nbufs; i++) {
        if (e->bufs[i].access == CT_EMU_IN)
            continue;
        ct_emu_report r;
        ct_emu_buffer_report(e, i, &r);
        fprintf(out, "  %s: %lld x %s, %lld unwritten, %lld NaN, %lld Inf, %lld zero%s\n",
                e->bufs[i].name, (long long)r.elems, ct_emu_dtype_name(e->bufs[i].dtype),
                (long long)r.unwritten, (long long)r.nan, (long long)r.inf, (long long)r.zero,
                r.all_zero ? " (ALL ZERO)" : "");
    }
}
