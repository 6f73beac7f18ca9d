/*
 * jit.c - ct_launch: `kernel[grid](*args)` from C.
 *
 * A ct_kernel is a kernel definition with its constexprs and options (what
 * @triton.jit plus the launch keywords fix).  Each launch computes the
 * specialization codes of its arguments (spec.c), finds the compiled
 * specialization in a lock-free table (open addressing over atomic
 * pointers; inserts take the kernel's mutex and publish with release
 * stores; a grown table replaces the old one, which is kept until
 * ct_kernel_free since readers may still hold it), finds the module loaded
 * in the current context in the entry's list (prepend-only), packs the
 * arguments into stack slots and launches.  The hot path allocates
 * nothing, hashes a few bytes, and makes one driver call (cuCtxGetCurrent)
 * besides the launch.
 *
 * A miss builds the TTIR for the signature the codes spell, then goes
 * through the cache (compile layer): memory, then disk, then Triton.
 */
#include "compile_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctriton/launch.h"

#define MAX_PARAMS 64

typedef struct ctx_node {
    struct ctx_node *next;
    ct_loaded loaded;
} ctx_node;

typedef struct spec_entry {
    uint32_t hash;
    int n;                    /* bytes of codes (ct_spec_len) */
    bool has_desc;            /* some argument is a tensor descriptor */
    uint8_t codes[CT_SPEC_CODES_MAX];
    ct_artifact art;
    _Atomic(ctx_node *) loaded;
} spec_entry;

typedef struct spec_table {
    uint32_t cap, count;
    struct spec_table *retired_next;
    _Atomic(spec_entry *) slots[];
} spec_table;

/* A declared type: what `types` says a parameter must be. */
typedef struct decl_type {
    enum { DECL_ANY = 0, DECL_PTR_ANY, DECL_PTR, DECL_INT_ANY, DECL_SCALAR } kind;
    tl_scalar sc;
} decl_type;

struct ct_kernel {
    const tl_kernel_def *def;
    char *constexprs;
    tl_options topts;
    ct_lower_opts lopts;
    bool arch_fixed;          /* lopts.arch known (given, or set at the first compile) */
    ct_spec_flags flags;
    decl_type decl[MAX_PARAMS];
    pthread_mutex_t mu;
    _Atomic(spec_table *) tab;
    spec_table *retired;
    ct_kernel_stats stats;
    /* churn: the hash of the last launch's codes (a changed one takes the slow path) */
    _Atomic uint32_t last_hash;
    ct_churn churn;                       /* under mu */
    void (*churn_report)(const char *message, void *ud);
    void *churn_ud;
    bool no_churn_report;
};

static uint32_t fnv(const uint8_t *p, int n)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static spec_table *table_new(uint32_t cap)
{
    spec_table *t = calloc(1, sizeof *t + cap * sizeof(t->slots[0]));
    if (t)
        t->cap = cap;
    return t;
}

/* ---- options -------------------------------------------------------- */

static bool parse_decl(const char *t, decl_type *out)
{
    if (!strcmp(t, "*")) {
        out->kind = DECL_PTR_ANY;
        return true;
    }
    if (!strcmp(t, "int")) {
        out->kind = DECL_INT_ANY;
        return true;
    }
    bool ptr = *t == '*';
    tl_dtype dt = tl_dtype_from_name(ptr ? t + (t[1] == 'k' ? 2 : 1) : t);
    if (!dt || dt->kind != TL_TY_SCALAR)
        return false;
    out->kind = ptr ? DECL_PTR : DECL_SCALAR;
    out->sc = dt->sc;
    return true;
}

static ct_status parse_types(ct_kernel *k, const char *types)
{
    int pos = 0;
    for (const char *p = types ? types : ""; *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        const char *s = p;
        while (*p && *p != ' ' && *p != ',')
            p++;
        char tok[96];
        snprintf(tok, sizeof tok, "%.*s", (int)(p - s), s);
        char *eq = strchr(tok, '=');
        int idx = pos++;
        char *ty = tok;
        if (eq) {
            *eq = 0;
            idx = ct__param_index(k->def, tok, strlen(tok));
            ty = eq + 1;
            if (idx < 0)
                return ct_fail(CT_ERR_INVALID, "types: %s has no parameter named `%s`",
                               k->def->name, tok);
        }
        if (idx >= k->def->nparams)
            return ct_fail(CT_ERR_INVALID, "types: %s has only %d runtime parameters",
                           k->def->name, k->def->nparams);
        if (!parse_decl(ty, &k->decl[idx]))
            return ct_fail(CT_ERR_INVALID, "types: unknown type `%s` for `%s`", ty,
                           k->def->params[idx]);
    }
    return CT_OK;
}

ct_status ct_kernel_new(const tl_kernel_def *def, const ct_kernel_opts *o, ct_kernel **out)
{
    *out = NULL;
    if (!def)
        return ct_fail(CT_ERR_INVALID, "ct_kernel_new: no kernel definition");
    if (def->nparams > MAX_PARAMS)
        return ct_fail(CT_ERR_INVALID, "%s has %d runtime parameters; ct_launch supports %d",
                       def->name, def->nparams, MAX_PARAMS);
    ct_kernel_opts none = {0};
    if (!o)
        o = &none;
    ct_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    k->def = def;
    k->constexprs = strdup(o->constexprs ? o->constexprs : "");
    tl_options_default(&k->topts);
    if (o->num_warps)
        k->topts.num_warps = o->num_warps;
    if (o->num_stages)
        k->topts.num_stages = o->num_stages;
    if (o->num_ctas)
        k->topts.num_ctas = o->num_ctas;
    k->topts.maxnreg = o->maxnreg;
    k->topts.debug = o->debug;
    k->topts.enable_fp_fusion = !o->disable_fp_fusion;
    if (o->arch)
        k->topts.arch = o->arch;
    k->arch_fixed = o->arch != 0;
    ct_lower_opts_from_tl(&k->lopts, &k->topts);
    k->churn_report = o->churn_report;
    k->churn_ud = o->churn_ud;
    k->no_churn_report = o->no_churn_report;
    pthread_mutex_init(&k->mu, NULL);
    atomic_init(&k->tab, table_new(16));
    ct_status s = CT_OK;
    if (!k->constexprs || !atomic_load(&k->tab))
        s = ct_fail(CT_ERR_NOMEM, "out of memory");
    if (s == CT_OK)
        s = ct__param_mask(def, o->do_not_specialize, "do_not_specialize", &k->flags.do_not_specialize);
    if (s == CT_OK)
        s = ct__param_mask(def, o->do_not_specialize_on_alignment, "do_not_specialize_on_alignment",
                      &k->flags.do_not_specialize_on_alignment);
    if (s == CT_OK)
        s = parse_types(k, o->types);
    if (s != CT_OK) {
        ct_kernel_free(k);
        return s;
    }
    *out = k;
    return CT_OK;
}

const tl_kernel_def *ct_kernel_def(const ct_kernel *k) { return k->def; }

void ct_kernel_get_stats(const ct_kernel *k, ct_kernel_stats *out) { *out = k->stats; }

void ct_kernel_free(ct_kernel *k)
{
    if (!k)
        return;
    spec_table *t = atomic_load(&k->tab);
    for (uint32_t i = 0; t && i < t->cap; i++) {
        spec_entry *e = atomic_load(&t->slots[i]);
        if (!e)
            continue;
        for (ctx_node *nd = atomic_load(&e->loaded); nd;) {
            ctx_node *next = nd->next;
            ct_unload(&nd->loaded);
            free(nd);
            nd = next;
        }
        ct_artifact_free(&e->art);
        free(e);
    }
    free(t);
    for (spec_table *r = k->retired; r;) {
        spec_table *next = r->retired_next;
        free(r);
        r = next;
    }
    pthread_mutex_destroy(&k->mu);
    free(k->constexprs);
    free(k);
}

/* ---- lookup ---------------------------------------------------------- */

static spec_entry *lookup(ct_kernel *k, const uint8_t *codes, int n, uint32_t h)
{
    spec_table *t = atomic_load_explicit(&k->tab, memory_order_acquire);
    uint32_t mask = t->cap - 1;
    for (uint32_t i = h & mask;; i = (i + 1) & mask) {
        spec_entry *e = atomic_load_explicit(&t->slots[i], memory_order_acquire);
        if (!e)
            return NULL;
        if (e->hash == h && e->n == n && !memcmp(e->codes, codes, (size_t)n))
            return e;
    }
}

/* Under k->mu. */
static bool insert(ct_kernel *k, spec_entry *e)
{
    spec_table *t = atomic_load_explicit(&k->tab, memory_order_relaxed);
    if ((t->count + 1) * 2 > t->cap) {
        spec_table *nt = table_new(t->cap * 2);
        if (!nt)
            return false;
        for (uint32_t i = 0; i < t->cap; i++) {
            spec_entry *x = atomic_load_explicit(&t->slots[i], memory_order_relaxed);
            if (!x)
                continue;
            uint32_t j = x->hash & (nt->cap - 1);
            while (atomic_load_explicit(&nt->slots[j], memory_order_relaxed))
                j = (j + 1) & (nt->cap - 1);
            atomic_store_explicit(&nt->slots[j], x, memory_order_relaxed);
        }
        nt->count = t->count;
        atomic_store_explicit(&k->tab, nt, memory_order_release);
        t->retired_next = k->retired;
        k->retired = t;
        t = nt;
    }
    uint32_t j = e->hash & (t->cap - 1);
    while (atomic_load_explicit(&t->slots[j], memory_order_relaxed))
        j = (j + 1) & (t->cap - 1);
    atomic_store_explicit(&t->slots[j], e, memory_order_release);
    t->count++;
    return true;
}

/* ---- the slow path: a new specialization ------------------------------ */

static const char *code_desc(uint8_t c, char *buf, size_t cap)
{
    ct_spec_key_str(&c, 1, buf, cap);
    return buf;
}

static ct_status check_decl(const ct_kernel *k, const uint8_t *codes)
{
    for (int i = 0; i < k->def->nparams; i++) {
        const decl_type *d = &k->decl[i];
        int t = codes[i] & CT_SPEC_TYPE_MASK;
        bool ptr = t >= CT_SPEC_PTR && t != CT_SPEC_DESC;
        bool ok = true;
        switch (t == CT_SPEC_CONSTNONE ? DECL_ANY : d->kind) { /* None: any parameter */
        case DECL_ANY: break;
        case DECL_PTR_ANY: ok = ptr; break;
        case DECL_PTR: ok = ptr && t - CT_SPEC_PTR == (int)d->sc; break;
        case DECL_INT_ANY:
            ok = t == CT_SPEC_CONST1 || (!ptr && (t - CT_SPEC_SCALAR == TL_INT32 ||
                                                   t - CT_SPEC_SCALAR == TL_INT64 ||
                                                   t - CT_SPEC_SCALAR == TL_UINT64));
            break;
        case DECL_SCALAR:
            ok = (t == CT_SPEC_CONST1 && d->sc >= TL_INT8 && d->sc <= TL_UINT64) ||
                 (!ptr && t != CT_SPEC_CONST1 && t - CT_SPEC_SCALAR == (int)d->sc);
            break;
        }
        if (!ok) {
            char got[64];
            char want[32];
            if (d->kind == DECL_PTR_ANY)
                snprintf(want, sizeof want, "a pointer");
            else if (d->kind == DECL_INT_ANY)
                snprintf(want, sizeof want, "an int");
            else
                snprintf(want, sizeof want, "%s%s", d->kind == DECL_PTR ? "*" : "",
                         tl_type_name(&tl__dtypes[d->sc], (char[32]){0}, 32));
            return ct_fail(CT_ERR_INVALID,
                           "%s: argument %d (`%s`) should be %s but is %s", k->def->name, i,
                           k->def->params[i], want, code_desc(codes[i], got, sizeof got));
        }
    }
    return CT_OK;
}

static int resolve_arch(ct_kernel *k)
{
    if (k->arch_fixed)
        return k->lopts.arch;
    ct_device_info di;
    if (ct_device_query(&di) == CT_OK)
        k->lopts.arch = di.cc_major * 10 + di.cc_minor;
    /* no device: ctriton's default target (sm_90) */
    k->arch_fixed = true;
    return k->lopts.arch;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Builds and compiles the specialization for `codes`; under k->mu. */
static ct_status compile_spec(ct_kernel *k, const uint8_t *codes, uint32_t h, spec_entry **out)
{
    int n = k->def->nparams;
    ct_status s = check_decl(k, codes);
    if (s != CT_OK)
        return s;
    char sig[4096];
    ct_spec_signature(codes, n, k->def->params, sig, sizeof sig);
    k->topts.arch = resolve_arch(k);
    ct_diags d;
    ct_diags_init(&d);
    double t0 = now_ms();
    spec_entry *e = calloc(1, sizeof *e);
    if (!e) {
        ct_diags_free(&d);
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    }
    s = ct_compile_kernel(k->def, sig, k->constexprs, &k->topts, &k->lopts, &e->art, &d);
    if (s != CT_OK) {
        /* the kernel language's diagnostics carry the C file and line */
        if (d.n > 0 && s == CT_ERR_COMPILE) {
            char *msg = NULL;
            size_t ml = 0;
            FILE *f = open_memstream(&msg, &ml);
            if (f) {
                ct_diags_print(&d, f, false);
                fclose(f);
            }
            char prev[1024];
            snprintf(prev, sizeof prev, "%s", ct_errmsg());
            ct_fail(s, "%s with signature \"%s\" and constexprs \"%s\": %s%s%s", k->def->name,
                    sig, k->constexprs, prev, msg && *msg ? "\n" : "", msg ? msg : "");
            free(msg);
        }
        ct_diags_free(&d);
        free(e);
        return s;
    }
    ct_diags_free(&d);
    k->stats.last_compile_ms = now_ms() - t0;
    if (e->art.hit)
        k->stats.disk_hits++;
    else
        k->stats.lowered++;
    e->hash = h;
    e->n = ct_spec_len(codes, n);
    memcpy(e->codes, codes, (size_t)e->n);
    for (int i = 0; i < n; i++)
        e->has_desc |= (codes[i] & CT_SPEC_TYPE_MASK) == CT_SPEC_DESC;
    atomic_init(&e->loaded, NULL);
    if (!insert(k, e)) {
        ct_artifact_free(&e->art);
        free(e);
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    }
    k->stats.specializations++;
    *out = e;
    return CT_OK;
}

/* Notes a launch's codes for the churn report (the slow path: the codes
 * differ from the last launch's). */
static void note_churn(ct_kernel *k, const uint8_t *codes, uint32_t h)
{
    int n = k->def->nparams;
    char msg[1024];
    pthread_mutex_lock(&k->mu);
    uint8_t prev[CT_SPEC_CODES_MAX];
    memcpy(prev, k->churn.last, sizeof prev);
    int report = ct__churn_step(&k->churn, codes, n);
    atomic_store_explicit(&k->last_hash, h, memory_order_relaxed);
    if (report >= 0) {
        k->stats.churn_reports = k->churn.nreports;
        ct__churn_message(k->def->name, k->def->params, report, prev[report], codes[report],
                          k->churn.flips[report], msg, sizeof msg);
    }
    pthread_mutex_unlock(&k->mu);
    if (report < 0 || k->no_churn_report)
        return;
    if (k->churn_report)
        k->churn_report(msg, k->churn_ud);
    else
        fprintf(stderr, "%s\n", msg);
}

static ct_status get_entry(ct_kernel *k, const ct_arg *args, int nargs, uint8_t *codes,
                           spec_entry **out)
{
    const tl_kernel_def *def = k->def;
    if (nargs != def->nparams) {
        char names[1024] = "";
        size_t len = 0;
        for (int i = 0; i < def->nparams && len < sizeof names; i++)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                    def->params[i]);
        return ct_fail(CT_ERR_INVALID, "%s takes %d arguments (%s), %d given", def->name,
                       def->nparams, names, nargs);
    }
    ct_status s = ct_spec_codes(args, nargs, &k->flags, def->params, codes);
    if (s != CT_OK)
        return s;
    int len = ct_spec_len(codes, nargs);
    uint32_t h = fnv(codes, len);
    spec_entry *e = lookup(k, codes, len, h);
    if (!e) {
        pthread_mutex_lock(&k->mu);
        e = lookup(k, codes, len, h);
        if (!e)
            s = compile_spec(k, codes, h, &e);
        pthread_mutex_unlock(&k->mu);
        if (s != CT_OK)
            return s;
    }
    *out = e;
    return CT_OK;
}

/* The module of entry e in context ctx, loading it there the first time. */
static ct_status get_loaded(ct_kernel *k, spec_entry *e, ct_context ctx, const ct_loaded **out)
{
    for (ctx_node *nd = atomic_load_explicit(&e->loaded, memory_order_acquire); nd; nd = nd->next)
        if (nd->loaded.ctx == ctx) {
            *out = &nd->loaded;
            return CT_OK;
        }
    pthread_mutex_lock(&k->mu);
    ct_status s = CT_OK;
    ctx_node *nd;
    for (nd = atomic_load_explicit(&e->loaded, memory_order_acquire); nd; nd = nd->next)
        if (nd->loaded.ctx == ctx)
            break;
    if (!nd) {
        nd = calloc(1, sizeof *nd);
        if (!nd) {
            s = ct_fail(CT_ERR_NOMEM, "out of memory");
        } else if ((s = ct_load_cubin(e->art.cubin, e->art.cubin_size, &e->art.meta,
                                      &nd->loaded)) != CT_OK) {
            free(nd);
            nd = NULL;
        } else {
            nd->next = atomic_load_explicit(&e->loaded, memory_order_relaxed);
            atomic_store_explicit(&e->loaded, nd, memory_order_release);
            k->stats.loads++;
        }
    }
    pthread_mutex_unlock(&k->mu);
    if (nd)
        *out = &nd->loaded;
    return s;
}

ct_status ct_launch(ct_kernel *k, ct_dim3 grid, ct_stream stream, const ct_arg *args, int nargs)
{
    uint8_t codes[CT_SPEC_CODES_MAX];
    spec_entry *e;
    ct_status s = get_entry(k, args, nargs, codes, &e);
    if (s != CT_OK)
        return s;
    if (e->hash != atomic_load_explicit(&k->last_hash, memory_order_relaxed))
        note_churn(k, codes, e->hash);
    const ct_cuda_api *cu = ct_cuda();
    if (!cu)
        return CT_ERR_NO_DRIVER;
    ct_context ctx = NULL;
    if (cu->cuCtxGetCurrent(&ctx) != 0 || !ctx) {
        if ((s = ct_cuda_context(0, &ctx)) != CT_OK)
            return s;
    }
    const ct_loaded *l;
    if ((s = get_loaded(k, e, ctx, &l)) != CT_OK)
        return s;
    uint64_t slots[MAX_PARAMS * 4];
    void *params[MAX_PARAMS * 4 + 2];
    int np;
    if (e->has_desc) {
        _Alignas(64) unsigned char maps[8 * 128];
        if ((s = ct__pack_args_desc(args, codes, nargs, k->def->params, &l->meta, slots, maps,
                                    params, &np)) != CT_OK)
            return s;
        unsigned g[3] = {grid.x, grid.y, grid.z};
        return ct_launch_packed(l, g, stream, params, np);
    }
    np = ct_pack_args(args, codes, nargs, slots, params);
    if (np < 0)
        return ct_fail(CT_ERR_INVALID, "%s: an argument cannot be passed to a kernel",
                       k->def->name);
    unsigned g[3] = {grid.x, grid.y, grid.z};
    return ct_launch_packed(l, g, stream, params, np);
}

ct_status ct_kernel_warmup(ct_kernel *k, const ct_arg *args, int nargs, bool load)
{
    uint8_t codes[CT_SPEC_CODES_MAX];
    spec_entry *e;
    ct_status s = get_entry(k, args, nargs, codes, &e);
    if (s != CT_OK || !load)
        return s;
    ct_context ctx;
    if ((s = ct_cuda_context(0, &ctx)) != CT_OK)
        return s;
    const ct_loaded *l;
    return get_loaded(k, e, ctx, &l);
}

const ct_artifact *ct_kernel_artifact(ct_kernel *k, const ct_arg *args, int nargs)
{
    uint8_t codes[CT_SPEC_CODES_MAX];
    if (nargs != k->def->nparams ||
        ct_spec_codes(args, nargs, &k->flags, k->def->params, codes) != CT_OK)
        return NULL;
    int len = ct_spec_len(codes, nargs);
    spec_entry *e = lookup(k, codes, len, fnv(codes, len));
    return e ? &e->art : NULL;
}
