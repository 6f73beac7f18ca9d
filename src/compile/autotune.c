/*
 * autotune.c - ct_autotune: triton.autotune in C, with the choice kept.
 *
 * For a new key (the values of the key parameters and the dtypes of the
 * pointer arguments, as Triton's Autotuner builds it) every config is built
 * and lowered (all at once: one lowering subprocess working in parallel),
 * then timed with do_bench on the real arguments.  A config the language
 * refuses, Triton cannot lower, or the driver cannot launch is recorded as
 * failed and skipped.  The pick is deterministic: among the configs whose
 * median is within (1 + tolerance) of the fastest, the one listed first.
 *
 * Choices live in memory, and in <cache>/tune/<kernel>.tsv (appended under
 * an flock; the last line for a key wins), one line per key:
 *     kernel  gpu  triton  configs-hash  key  best  best-config  times(ms, "fail")
 * so later processes on the same GPU model with the same Triton and the same
 * config list reuse them.  ct_autotuner_export writes the same format; a
 * shipped table is read first (opts.table or $CTRITON_TUNE_TABLE).
 */
#define _GNU_SOURCE
#include "compile_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ctriton/launch.h"

typedef struct tune_entry {
    char *key;
    int best;
    char *times; /* "0.123,fail,0.456" */
} tune_entry;

struct ct_autotuner {
    ct_autotune_opts o;
    ct_tune_config *cfgs;
    ct_kernel **kernels;
    int key_idx[16], nkey;
    uint64_t dns, dnsa;
    char cfg_hash[17];
    char gpu[128];
    int cc;
    bool loaded; /* the tables were read */
    pthread_mutex_t mu;
    tune_entry *entries;
    int n, cap;
};

int64_t ct_cx_int(const char *constexprs, const char *name, int64_t dflt)
{
    size_t nl = strlen(name);
    for (const char *p = constexprs ? constexprs : ""; (p = strstr(p, name)); p += nl) {
        bool start = p == constexprs || p[-1] == ' ' || p[-1] == ',';
        if (start && p[nl] == '=')
            return strtoll(p + nl + 1, NULL, 0);
    }
    return dflt;
}

static void cfg_desc(const ct_tune_config *c, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s num_warps=%d num_stages=%d num_ctas=%d maxnreg=%d",
             c->constexprs ? c->constexprs : "", c->num_warps ? c->num_warps : 4,
             c->num_stages ? c->num_stages : 3, c->num_ctas ? c->num_ctas : 1, c->maxnreg);
}

void ct_autotuner_free(ct_autotuner *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->o.nconfigs; i++) {
        if (t->kernels)
            ct_kernel_free(t->kernels[i]);
        if (t->cfgs)
            free((char *)t->cfgs[i].constexprs);
    }
    for (int i = 0; i < t->n; i++) {
        free(t->entries[i].key);
        free(t->entries[i].times);
    }
    free(t->entries);
    free(t->kernels);
    free(t->cfgs);
    free((char *)t->o.key);
    free((char *)t->o.table);
    free((char *)t->o.do_not_specialize);
    free((char *)t->o.do_not_specialize_on_alignment);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

ct_status ct_autotuner_new(const ct_autotune_opts *o, ct_autotuner **out)
{
    *out = NULL;
    if (!o || !o->def || o->nconfigs <= 0 || !o->configs || !o->grid)
        return ct_fail(CT_ERR_INVALID, "ct_autotuner_new: needs a kernel, configs and a grid function");
    ct_autotuner *t = calloc(1, sizeof *t);
    if (!t)
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    pthread_mutex_init(&t->mu, NULL);
    t->o = *o;
    t->o.key = dup_or_null(o->key);
    t->o.table = dup_or_null(o->table);
    t->o.do_not_specialize = dup_or_null(o->do_not_specialize);
    t->o.do_not_specialize_on_alignment = dup_or_null(o->do_not_specialize_on_alignment);
    if (t->o.tolerance <= 0)
        t->o.tolerance = 0.02;
    t->cfgs = calloc((size_t)o->nconfigs, sizeof *t->cfgs);
    t->kernels = calloc((size_t)o->nconfigs, sizeof *t->kernels);
    if (!t->cfgs || !t->kernels) {
        ct_autotuner_free(t);
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    }
    ct_sha256_ctx h;
    ct_sha256_init(&h);
    ct_sha256_update(&h, o->def->name, strlen(o->def->name));
    ct_status s = CT_OK;
    for (int i = 0; i < o->nconfigs; i++) {
        t->cfgs[i] = o->configs[i];
        t->cfgs[i].constexprs = strdup(o->configs[i].constexprs ? o->configs[i].constexprs : "");
        char d[512];
        cfg_desc(&t->cfgs[i], d, sizeof d);
        ct_sha256_update(&h, d, strlen(d) + 1);
        ct_kernel_opts ko = {.constexprs = t->cfgs[i].constexprs,
                             .num_warps = t->cfgs[i].num_warps,
                             .num_stages = t->cfgs[i].num_stages,
                             .num_ctas = t->cfgs[i].num_ctas,
                             .maxnreg = t->cfgs[i].maxnreg,
                             .do_not_specialize = t->o.do_not_specialize,
                             .do_not_specialize_on_alignment = t->o.do_not_specialize_on_alignment};
        if (s == CT_OK)
            s = ct_kernel_new(o->def, &ko, &t->kernels[i]);
    }
    if (s == CT_OK)
        s = ct__param_mask(o->def, t->o.do_not_specialize, "autotune do_not_specialize", &t->dns);
    if (s == CT_OK)
        s = ct__param_mask(o->def, t->o.do_not_specialize_on_alignment,
                           "autotune do_not_specialize_on_alignment", &t->dnsa);
    uint8_t dg[32];
    ct_sha256_final(&h, dg);
    ct_hex(dg, 8, t->cfg_hash);
    for (const char *p = t->o.key ? t->o.key : ""; *p && s == CT_OK;) {
        while (*p == ',' || *p == ' ')
            p++;
        const char *b = p;
        while (*p && *p != ',' && *p != ' ')
            p++;
        if (p == b)
            continue;
        int i = ct__param_index(o->def, b, (size_t)(p - b));
        if (i < 0)
            s = ct_fail(CT_ERR_INVALID, "autotune key: %s has no parameter `%.*s`", o->def->name,
                        (int)(p - b), b);
        else if (t->nkey < 16)
            t->key_idx[t->nkey++] = i;
    }
    if (s != CT_OK) {
        ct_autotuner_free(t);
        return s;
    }
    *out = t;
    return CT_OK;
}

ct_kernel *ct_autotuner_kernel(ct_autotuner *t, int i)
{
    return i >= 0 && i < t->o.nconfigs ? t->kernels[i] : NULL;
}

/* Triton's key: the key arguments' values, then every pointer's dtype. */
static void make_key(const ct_autotuner *t, const ct_arg *args, int nargs, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < t->nkey && len < cap; k++) {
        const ct_arg *a = &args[t->key_idx[k]];
        if (a->kind == CT_ARG_FLOAT || (a->kind == CT_ARG_TYPED && a->type >= TL_FP16))
            len += (size_t)snprintf(buf + len, cap - len, "%s%.17g", k ? "," : "", a->v.f);
        else if (a->big || (a->kind == CT_ARG_TYPED && a->type == TL_UINT64))
            len += (size_t)snprintf(buf + len, cap - len, "%s%llu", k ? "," : "",
                                    (unsigned long long)a->v.u);
        else
            len += (size_t)snprintf(buf + len, cap - len, "%s%lld", k ? "," : "", (long long)a->v.i);
    }
    for (int i = 0; i < nargs && len < cap; i++)
        if (args[i].kind == CT_ARG_PTR)
            len += (size_t)snprintf(buf + len, cap - len, "|%s",
                                    tl_type_name(&tl__dtypes[args[i].type], (char[32]){0}, 32));
}

static tune_entry *find(ct_autotuner *t, const char *key)
{
    for (int i = t->n - 1; i >= 0; i--)
        if (!strcmp(t->entries[i].key, key))
            return &t->entries[i];
    return NULL;
}

static void remember(ct_autotuner *t, const char *key, int best, const char *times)
{
    tune_entry *e = find(t, key);
    if (!e) {
        if (t->n == t->cap) {
            int nc = t->cap ? t->cap * 2 : 8;
            tune_entry *ne = realloc(t->entries, (size_t)nc * sizeof *ne);
            if (!ne)
                return;
            t->entries = ne;
            t->cap = nc;
        }
        e = &t->entries[t->n++];
        e->key = strdup(key);
        e->times = NULL;
    }
    e->best = best;
    free(e->times);
    e->times = strdup(times ? times : "");
}

static void table_path(const ct_autotuner *t, char *buf, size_t cap)
{
    char root[4096];
    ct_cache_dir(root, sizeof root);
    snprintf(buf, cap, "%s/tune/%s.tsv", root, t->o.def->name);
}

/* Reads the lines of a table that match this tuner (kernel, GPU, Triton, configs). */
static void read_table(ct_autotuner *t, const char *path)
{
    char *text = (char *)ct_read_all(path, NULL);
    if (!text)
        return;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        char *f[8];
        int nf = 0;
        for (char *p = line; nf < 8; nf++) {
            f[nf] = p;
            char *tab = strchr(p, '\t');
            if (!tab) {
                nf++;
                break;
            }
            *tab = 0;
            p = tab + 1;
        }
        if (nf < 8 || strcmp(f[0], t->o.def->name) || strcmp(f[1], t->gpu) ||
            strcmp(f[2], ct_lower_target(NULL)) || strcmp(f[3], t->cfg_hash))
            continue;
        int best = atoi(f[5]);
        if (best < 0 || best >= t->o.nconfigs)
            continue;
        remember(t, f[4], best, f[7]);
    }
    free(text);
}

static void query_gpu(ct_autotuner *t)
{
    ct_device_info di;
    if (ct_device_query(&di) != CT_OK)
        return;
    memcpy(t->gpu, di.name, sizeof t->gpu);
    t->gpu[sizeof t->gpu - 1] = 0;
    t->cc = di.cc_major * 10 + di.cc_minor;
}

static void load_tables(ct_autotuner *t)
{
    if (t->loaded)
        return;
    t->loaded = true;
    query_gpu(t);
    const char *shipped = t->o.table ? t->o.table : getenv("CTRITON_TUNE_TABLE");
    if (shipped && *shipped)
        read_table(t, shipped);
    char path[4200];
    table_path(t, path, sizeof path);
    read_table(t, path);
}

static void entry_line(const ct_autotuner *t, const tune_entry *e, ct_strbuf *b)
{
    char d[512];
    cfg_desc(&t->cfgs[e->best], d, sizeof d);
    ct_sb_printf(b, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", t->o.def->name, t->gpu,
                 ct_lower_target(NULL), t->cfg_hash, e->key, e->best, d, e->times);
}

static void append_table(ct_autotuner *t, const tune_entry *e)
{
    char path[4200];
    table_path(t, path, sizeof path);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = 0;
    if (!ct_mkdirs(dir))
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    flock(fd, LOCK_EX);
    ct_strbuf b;
    ct_sb_init(&b);
    entry_line(t, e, &b);
    /* one write of a whole line: readers never see half of it */
    ssize_t w = write(fd, b.s, b.len);
    (void)w;
    flock(fd, LOCK_UN);
    close(fd);
    ct_sb_free(&b);
}

ct_status ct_autotuner_export(ct_autotuner *t, const char *path)
{
    pthread_mutex_lock(&t->mu);
    load_tables(t);
    ct_strbuf b;
    ct_sb_init(&b);
    ct_sb_puts(&b, "# ctriton tuning table: kernel, gpu, triton, configs-hash, key, best, "
                   "best-config, times (ms)\n");
    for (int i = 0; i < t->n; i++)
        entry_line(t, &t->entries[i], &b);
    pthread_mutex_unlock(&t->mu);
    bool ok = ct_write_file(path, b.s, b.len);
    ct_sb_free(&b);
    return ok ? CT_OK : ct_fail(CT_ERR_IO, "cannot write %s", path);
}

typedef struct bench_ctx {
    ct_autotuner *t;
    int i;
    const ct_arg *args;
    int nargs;
    ct_dim3 grid;
} bench_ctx;

static ct_status bench_one(void *ud, ct_stream s)
{
    bench_ctx *b = ud;
    return ct_launch(b->t->kernels[b->i], b->grid, s, b->args, b->nargs);
}

/* Tunes a new key; under t->mu. */
static int tune(ct_autotuner *t, ct_stream stream, const ct_arg *args, int nargs, const char *key,
                ct_status *st)
{
    if ((*st = ct_cuda_init()) != CT_OK)
        return -1; /* no GPU to time anything on: nothing is recorded */
    int nc = t->o.nconfigs;
    double *ms = calloc((size_t)nc, sizeof *ms);
    char **why = calloc((size_t)nc, sizeof *why);
    char **ttirs = calloc((size_t)nc, sizeof *ttirs);
    int best = -1;
    if (!ms || !why || !ttirs) {
        *st = ct_fail(CT_ERR_NOMEM, "out of memory");
        goto done;
    }
    /* 1. build every config for this specialization and lower them together */
    uint8_t codes[CT_SPEC_CODES_MAX];
    ct_spec_flags fl = {t->dns, t->dnsa};
    if ((*st = ct_spec_codes(args, nargs, &fl, t->o.def->params, codes)) != CT_OK)
        goto done;
    char sig[4096];
    ct_spec_signature(codes, nargs, t->o.def->params, sig, sizeof sig);
    int arch = t->cc ? t->cc : 90;
    const char *lower_in[256];
    ct_lower_opts lower_opts[256];
    int idx[256], nl = 0;
    for (int i = 0; i < nc; i++) {
        ms[i] = INFINITY;
        tl_options to;
        tl_options_default(&to);
        if (t->cfgs[i].num_warps)
            to.num_warps = t->cfgs[i].num_warps;
        if (t->cfgs[i].num_stages)
            to.num_stages = t->cfgs[i].num_stages;
        if (t->cfgs[i].num_ctas)
            to.num_ctas = t->cfgs[i].num_ctas;
        to.maxnreg = t->cfgs[i].maxnreg;
        to.arch = arch;
        ct_diags d;
        ct_diags_init(&d);
        ttirs[i] = ct_kernel_ttir(t->o.def, sig, t->cfgs[i].constexprs, &to, &d);
        if (!ttirs[i]) {
            const char *e = ct_diags_first_error(&d);
            why[i] = strdup(e ? e : "refused");
        } else if (nl < 256) {
            ct_lower_opts_from_tl(&lower_opts[nl], &to);
            lower_in[nl] = ttirs[i];
            idx[nl++] = i;
        }
        ct_diags_free(&d);
    }
    if (nl) {
        ct_artifact tmp[256];
        ct_status st[256];
        ct_diags d;
        ct_diags_init(&d);
        ct_compile_ttir_many(nl, lower_in, lower_opts, tmp, st, &d);
        ct_diags_free(&d);
        for (int j = 0; j < nl; j++) {
            if (st[j] != CT_OK && !why[idx[j]])
                why[idx[j]] = strdup("Triton could not lower it");
            ct_artifact_free(&tmp[j]);
        }
    }
    /* 2. time each config that compiled; a failed launch only skips it */
    for (int i = 0; i < nc; i++) {
        if (why[i])
            continue;
        bench_ctx b = {t, i, args, nargs, t->o.grid(&t->cfgs[i], args, nargs, t->o.grid_ud)};
        ct_bench_opts bo = {.warmup_ms = t->o.warmup_ms, .rep_ms = t->o.rep_ms, .stream = stream};
        ct_bench_result r;
        ct_status s = ct_do_bench(bench_one, &b, &bo, &r);
        if (s != CT_OK) {
            why[i] = strdup(ct_errmsg());
            continue;
        }
        ms[i] = r.median_ms;
    }
    /* 3. the pick: the first config within the tolerance band of the fastest */
    double fastest = INFINITY;
    for (int i = 0; i < nc; i++)
        fastest = ms[i] < fastest ? ms[i] : fastest;
    for (int i = 0; i < nc && isfinite(fastest); i++)
        if (ms[i] <= fastest * (1 + t->o.tolerance)) {
            best = i;
            break;
        }
    ct_strbuf times;
    ct_sb_init(&times);
    for (int i = 0; i < nc; i++) {
        if (why[i])
            ct_sb_printf(&times, "%sfail", i ? "," : "");
        else
            ct_sb_printf(&times, "%s%.6f", i ? "," : "", ms[i]);
        if (t->o.verbose) {
            char d[512];
            cfg_desc(&t->cfgs[i], d, sizeof d);
            if (why[i])
                fprintf(stderr, "autotune %s [%s] config %d (%s): failed: %s\n", t->o.def->name,
                        key, i, d, why[i]);
            else
                fprintf(stderr, "autotune %s [%s] config %d (%s): %.4f ms%s\n", t->o.def->name,
                        key, i, d, ms[i], i == best ? "  <- best" : "");
        }
    }
    if (best < 0) {
        *st = ct_fail(CT_ERR_COMPILE, "autotune %s [%s]: every config failed (first: %s)",
                      t->o.def->name, key, why[0] ? why[0] : "?");
    } else {
        remember(t, key, best, times.s);
        append_table(t, find(t, key));
    }
    ct_sb_free(&times);
done:
    for (int i = 0; i < nc; i++) {
        if (why)
            free(why[i]);
        if (ttirs)
            free(ttirs[i]);
    }
    free(ms);
    free(why);
    free(ttirs);
    return best;
}

static int best_of(ct_autotuner *t, ct_stream stream, const ct_arg *args, int nargs,
                   ct_status *st)
{
    *st = CT_OK;
    if (nargs != t->o.def->nparams) {
        *st = ct_fail(CT_ERR_INVALID, "%s takes %d arguments, %d given", t->o.def->name,
                      t->o.def->nparams, nargs);
        return -1;
    }
    char key[1024];
    make_key(t, args, nargs, key, sizeof key);
    pthread_mutex_lock(&t->mu);
    load_tables(t);
    tune_entry *e = find(t, key);
    int best = e ? e->best : tune(t, stream, args, nargs, key, st);
    pthread_mutex_unlock(&t->mu);
    return best;
}

int ct_autotune_best(ct_autotuner *t, ct_stream stream, const ct_arg *args, int nargs)
{
    ct_status st;
    return best_of(t, stream, args, nargs, &st);
}

ct_status ct_autotune(ct_autotuner *t, ct_stream stream, const ct_arg *args, int nargs)
{
    ct_status st;
    int best = best_of(t, stream, args, nargs, &st);
    if (best < 0)
        return st;
    ct_dim3 g = t->o.grid(&t->cfgs[best], args, nargs, t->o.grid_ud);
    return ct_launch(t->kernels[best], g, stream, args, nargs);
}
