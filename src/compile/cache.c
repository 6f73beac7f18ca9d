/*
 * cache.c - the content-addressed cache of lowered kernels.
 *
 * Layout under the cache directory (ct_cache_dir):
 *     v1/<k0k1>/<key>/   an entry: source.ttir, kernel.{ttir,ttgir,llir,ptx,cubin,json}, MANIFEST
 *     v1/tmp/            entries being built (private until renamed into place)
 *     v1/locks/<key>     lock files: one builder per key at a time (flock)
 *     v1/trash/          corrupt entries moved aside before removal
 *
 * MANIFEST lists every file with its size and SHA-256 and ends with the
 * SHA-256 of everything above that line, so a truncated or altered MANIFEST
 * is detected as surely as a truncated cubin.  Readers verify the files
 * they read.  An entry that fails verification is renamed into trash/ (one
 * atomic step, so a concurrent reader either sees it whole or not at all)
 * and rebuilt.
 */
#define _GNU_SOURCE
#include "compile_internal.h"
#include "ctriton/ctriton_version.h"

#include "ctriton/text.h"
#include "ctriton/triton_version.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_LAYOUT "v1"
/* Bump when lower.py or the entry format changes what an entry holds. */
#define LOWER_ABI 1

static const char *const entry_files[] = {"source.ttir", "kernel.ttir", "kernel.ttgir",
                                          "kernel.llir", "kernel.ptx",  "kernel.cubin",
                                          "kernel.json"};
enum { N_ENTRY_FILES = sizeof entry_files / sizeof entry_files[0] };

/* Triton's cache-invalidating environment variables (GetEnv.hpp) that can
 * change what the NVIDIA backend produces, plus the tool paths it honours. */
static const char *const triton_env[] = {
    "DISABLE_LLVM_OPT", "DISABLE_MMA_V3", "DISABLE_MMA_V5", "DISABLE_PTXAS_OPT",
    "LLVM_PASS_PLUGIN_PATH", "LLVM_EXTRACT_DI_LOCAL_VARIABLES", "TRITON_DEFAULT_FP_FUSION",
    "TRITON_FORCE_DISABLE_FP_FUSION", /* 3.9: overrides even an explicit enable_fp_fusion */
    "TRITON_DISABLE_LINE_INFO", "TRITON_ENABLE_LLVM_DEBUG", "TRITON_LLVM_DEBUG_ONLY",
    "TRITON_OVERRIDE_ARCH", "USE_IR_LOC", "ALLOW_LHS_TMEM_LAYOUT_CONVERSION", "TRITON_F32_DEFAULT",
    "TRITON_PREFER_TMEM_16x256_LAYOUT", "TRITON_ENABLE_EXPERIMENTAL_CONSAN", "TRITON_PTXAS_PATH",
    "TRITON_PTXAS_BLACKWELL_PATH", "TRITON_LIBDEVICE_PATH", "PTXAS_OPTIONS"};

void ct_lower_opts_default(ct_lower_opts *o)
{
    memset(o, 0, sizeof *o);
    o->arch = 90;
    o->num_warps = 4;
    o->num_stages = 3;
    o->num_ctas = 1;
    o->enable_fp_fusion = true;
    o->line_info = true;
}

void ct_lower_opts_from_tl(ct_lower_opts *o, const tl_options *t)
{
    ct_lower_opts_default(o);
    if (!t)
        return;
    if (t->arch)
        o->arch = t->arch;
    if (t->num_warps)
        o->num_warps = t->num_warps;
    if (t->num_stages)
        o->num_stages = t->num_stages;
    if (t->num_ctas)
        o->num_ctas = t->num_ctas;
    o->maxnreg = t->maxnreg;
    o->enable_fp_fusion = t->enable_fp_fusion;
    o->debug = t->debug;
    o->triton = t->triton;
}

void ct_cache_dir(char *buf, size_t cap)
{
    ct_util_cache_dir(buf, cap);
}

void ct_cache_key(const char *ttir, const ct_lower_opts *o, char key[65])
{
    ct_strbuf b;
    ct_sb_init(&b);
    /* ctriton's version too: a release may lower the same TTIR differently (lower.py) */
    ct_sb_printf(&b, "ctriton-cache %s lower-abi %d ctriton %s\ntriton %s\ntarget cuda:%d:32\n",
                 CACHE_LAYOUT, LOWER_ABI, ct_version(), ct_lower_target(o), o->arch);
    ct_sb_printf(&b,
                 "num_warps=%d num_stages=%d num_ctas=%d maxnreg=%d enable_fp_fusion=%d debug=%d "
                 "line_info=%d\n",
                 o->num_warps, o->num_stages, o->num_ctas, o->maxnreg, o->enable_fp_fusion,
                 o->debug, o->line_info);
    for (size_t i = 0; i < sizeof triton_env / sizeof triton_env[0]; i++) {
        const char *v = getenv(triton_env[i]);
        if (v)
            ct_sb_printf(&b, "env %s=%s\n", triton_env[i], v);
    }
    ct_sb_printf(&b, "ttir %zu\n", strlen(ttir));
    ct_sha256_ctx c;
    uint8_t d[32];
    ct_sha256_init(&c);
    ct_sha256_update(&c, b.s, b.len);
    ct_sha256_update(&c, ttir, strlen(ttir));
    ct_sha256_final(&c, d);
    ct_hex(d, 32, key);
    ct_sb_free(&b);
}

void ct_artifact_free(ct_artifact *a)
{
    if (!a)
        return;
    free(a->dir);
    free(a->cubin);
    free(a->json);
    memset(a, 0, sizeof *a);
}

/* ---- paths ---------------------------------------------------------- */

static char *path_join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", a, b);
    return p;
}

static char *entry_dir(const char *key)
{
    char root[4096], sub[4200];
    ct_cache_dir(root, sizeof root);
    snprintf(sub, sizeof sub, "%s/" CACHE_LAYOUT "/%.2s/%s", root, key, key);
    return strdup(sub);
}

static char *layout_dir(const char *what)
{
    char root[4096], sub[4200];
    ct_cache_dir(root, sizeof root);
    snprintf(sub, sizeof sub, "%s/" CACHE_LAYOUT "/%s", root, what);
    return strdup(sub);
}

/* ---- MANIFEST ------------------------------------------------------- */

typedef struct manifest_item {
    char name[32];
    size_t size;
    char sha[65];
} manifest_item;

typedef struct manifest {
    char key[65];
    int n;
    manifest_item items[N_ENTRY_FILES];
} manifest;

/* Writes DIR/MANIFEST for the files of a freshly lowered entry. */
static bool write_manifest(const char *dir, const char *key)
{
    ct_strbuf b;
    ct_sb_init(&b);
    ct_sb_printf(&b, "ctriton-manifest 1\nkey %s\n", key);
    for (int i = 0; i < N_ENTRY_FILES; i++) {
        char *p = path_join(dir, entry_files[i]);
        size_t len = 0;
        unsigned char *data = p ? ct_read_all(p, &len) : NULL;
        free(p);
        if (!data) {
            ct_sb_free(&b);
            return false;
        }
        char sha[65];
        ct_sha256_hex(data, len, sha);
        free(data);
        ct_sb_printf(&b, "file %s %zu %s\n", sha, len, entry_files[i]);
    }
    char end[65];
    ct_sha256_hex(b.s, b.len, end);
    ct_sb_printf(&b, "end %s\n", end);
    char *p = path_join(dir, "MANIFEST");
    bool ok = p && ct_write_all(p, b.s, b.len);
    free(p);
    ct_sb_free(&b);
    return ok;
}

/* Reads and verifies DIR/MANIFEST; false with a reason if it is not whole. */
static bool read_manifest(const char *dir, const char *key, manifest *m, char *why, size_t wcap)
{
    char *p = path_join(dir, "MANIFEST");
    size_t len = 0;
    char *text = p ? (char *)ct_read_all(p, &len) : NULL;
    free(p);
    if (!text) {
        snprintf(why, wcap, "MANIFEST is missing");
        return false;
    }
    bool ok = false;
    char *end = strstr(text, "\nend ");
    if (!end || strlen(end) < 5 + 64 + 1) {
        snprintf(why, wcap, "MANIFEST is truncated");
        goto out;
    }
    char sum[65];
    ct_sha256_hex(text, (size_t)(end + 1 - text), sum);
    if (strncmp(end + 5, sum, 64) != 0) {
        snprintf(why, wcap, "MANIFEST checksum mismatch");
        goto out;
    }
    memset(m, 0, sizeof *m);
    end[1] = 0;
    char *save = NULL;
    int line = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save), line++) {
        if (line == 0) {
            if (strcmp(l, "ctriton-manifest 1") != 0) {
                snprintf(why, wcap, "MANIFEST has an unknown format");
                goto out;
            }
        } else if (!strncmp(l, "key ", 4)) {
            snprintf(m->key, sizeof m->key, "%s", l + 4);
        } else if (!strncmp(l, "file ", 5) && m->n < N_ENTRY_FILES) {
            manifest_item *it = &m->items[m->n];
            if (sscanf(l + 5, "%64s %zu %31s", it->sha, &it->size, it->name) != 3) {
                snprintf(why, wcap, "MANIFEST line %d is malformed", line + 1);
                goto out;
            }
            m->n++;
        }
    }
    if (strcmp(m->key, key) != 0) {
        snprintf(why, wcap, "MANIFEST belongs to another key");
        goto out;
    }
    ok = true;
out:
    free(text);
    return ok;
}

/* Reads DIR/NAME and checks it against the manifest; NULL with a reason. */
static unsigned char *read_verified(const char *dir, const manifest *m, const char *name,
                                    size_t *len, char *why, size_t wcap)
{
    const manifest_item *it = NULL;
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->items[i].name, name))
            it = &m->items[i];
    if (!it) {
        snprintf(why, wcap, "%s is not in the MANIFEST", name);
        return NULL;
    }
    char *p = path_join(dir, name);
    size_t n = 0;
    unsigned char *data = p ? ct_read_all(p, &n) : NULL;
    free(p);
    if (!data) {
        snprintf(why, wcap, "%s is missing", name);
        return NULL;
    }
    if (n != it->size) {
        snprintf(why, wcap, "%s has %zu bytes, the MANIFEST says %zu (truncated?)", name, n,
                 it->size);
        free(data);
        return NULL;
    }
    char sha[65];
    ct_sha256_hex(data, n, sha);
    if (strcmp(sha, it->sha) != 0) {
        snprintf(why, wcap, "%s checksum mismatch (corrupt)", name);
        free(data);
        return NULL;
    }
    if (len)
        *len = n;
    return data;
}

/* Launch metadata from Triton's kernel.json. */
static bool parse_meta(const char *json, ct_launch_meta *m)
{
    memset(m, 0, sizeof *m);
    int64_t v;
    if (!ct_json_str(json, "name", m->name, sizeof m->name))
        return false;
    if (!ct_json_int(json, "num_warps", &v) || v <= 0)
        return false;
    m->num_warps = (int)v;
    m->num_ctas = ct_json_int(json, "num_ctas", &v) ? (int)v : 1;
    if (!ct_json_int(json, "shared", &v))
        return false;
    m->shared = (int)v;
    m->global_scratch_size = ct_json_int(json, "global_scratch_size", &v) ? v : 0;
    m->global_scratch_align = ct_json_int(json, "global_scratch_align", &v) ? v : 1;
    m->profile_scratch_size = ct_json_int(json, "profile_scratch_size", &v) ? v : 0;
    m->profile_scratch_align = ct_json_int(json, "profile_scratch_align", &v) ? v : 1;
    bool b;
    m->launch_cooperative_grid = ct_json_bool(json, "launch_cooperative_grid", &b) && b;
    m->launch_pdl = ct_json_bool(json, "launch_pdl", &b) && b;
    const char *t = ct_json_find(json, "target");
    if (!t || !ct_json_int(t, "arch", &v))
        return false;
    m->arch = (int)v;
    /* tensordesc_meta: null, or a list of {swizzle, elem_size, elem_type, block_size, fp4_padded} */
    const char *dm = ct_json_find(json, "tensordesc_meta"), *el[8];
    int nd = dm ? ct_json_array(dm, el, 8) : 0;
    if (nd > 8)
        return false;
    for (int i = 0; i < nd; i++) {
        struct ct_desc_meta *d = &m->descs[i];
        int64_t sw, es, et;
        if (!ct_json_int(el[i], "swizzle", &sw) || !ct_json_int(el[i], "elem_size", &es) ||
            !ct_json_int(el[i], "elem_type", &et))
            return false;
        d->swizzle = (int)sw;
        d->elem_size = (int)es;
        d->elem_type = (int)et;
        d->fp4_padded = ct_json_bool(el[i], "fp4_padded", &b) && b;
        const char *bs = ct_json_find(el[i], "block_size"), *be[5];
        int r = bs ? ct_json_array(bs, be, 5) : -1;
        if (r < 1 || r > 5)
            return false;
        d->rank = r;
        for (int j = 0; j < r; j++)
            d->block[j] = atoi(be[j]);
    }
    m->ndescs = nd < 0 ? 0 : nd;
    return true;
}

/* Moves a bad entry out of the way (atomically) and deletes it. */
static void quarantine(const char *dir, const char *key)
{
    char *trash = layout_dir("trash");
    if (trash && ct_mkdirs(trash)) {
        char suf[64], name[200];
        ct_unique_suffix(suf, sizeof suf);
        snprintf(name, sizeof name, "%s.%s", key, suf);
        char *dst = path_join(trash, name);
        if (dst && rename(dir, dst) == 0)
            ct_rmtree(dst);
        free(dst);
    }
    free(trash);
    if (ct_path_exists(dir))
        ct_rmtree(dir);
}

/* Loads a published entry; CT_ERR_IO if it is missing or corrupt (a corrupt
 * one is quarantined, and `corrupt` set). */
static ct_status load_entry(const char *key, ct_artifact *out, bool *corrupt)
{
    *corrupt = false;
    memset(out, 0, sizeof *out);
    char *dir = entry_dir(key);
    if (!dir)
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    if (!ct_path_exists(dir)) {
        free(dir);
        return ct_fail(CT_ERR_IO, "cache miss: %s", key);
    }
    manifest m;
    char why[256] = "";
    size_t jl = 0, cl = 0;
    unsigned char *json = NULL, *cubin = NULL;
    if (!read_manifest(dir, key, &m, why, sizeof why))
        goto bad;
    if (!(json = read_verified(dir, &m, "kernel.json", &jl, why, sizeof why)))
        goto bad;
    if (!(cubin = read_verified(dir, &m, "kernel.cubin", &cl, why, sizeof why)))
        goto bad;
    if (!parse_meta((char *)json, &out->meta)) {
        snprintf(why, sizeof why, "kernel.json lacks the launch metadata");
        goto bad;
    }
    memcpy(out->key, key, 65);
    out->dir = dir;
    out->json = (char *)json;
    out->cubin = cubin;
    out->cubin_size = cl;
    out->hit = true;
    return CT_OK;
bad:
    free(json);
    free(cubin);
    *corrupt = true;
    quarantine(dir, key);
    ct_status s = ct_fail(CT_ERR_IO, "cache entry %s was corrupt (%s); removed", key, why);
    free(dir);
    return s;
}

ct_status ct_cache_lookup(const char *key, ct_artifact *out)
{
    bool corrupt;
    return load_entry(key, out, &corrupt);
}

char *ct_artifact_stage(const ct_artifact *a, const char *ext, size_t *len)
{
    if (!a || !a->dir)
        return NULL;
    manifest m;
    char why[256];
    if (!read_manifest(a->dir, a->key, &m, why, sizeof why))
        return NULL;
    char name[32];
    snprintf(name, sizeof name, "%s.%s", !strcmp(ext, "source") ? "source" : "kernel",
             !strcmp(ext, "source") ? "ttir" : ext);
    return (char *)read_verified(a->dir, &m, name, len, why, sizeof why);
}

/* ---- building entries ----------------------------------------------- */

typedef struct build {
    const char *ttir;
    const ct_lower_opts *opts;
    char key[65];
    char *tmp;       /* private build directory */
    int lock_fd;
    bool todo;       /* needs lowering */
    bool dup;        /* same key as an earlier job of the batch */
    ct_status st;
} build;

static int take_lock(const char *key)
{
    char *locks = layout_dir("locks");
    int fd = -1;
    if (locks && ct_mkdirs(locks)) {
        char *p = path_join(locks, key);
        if (p)
            fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        free(p);
        if (fd >= 0) {
            while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
                ;
        }
    }
    free(locks);
    return fd; /* -1: no lock; the rename still keeps the entry whole */
}

static void drop_lock(int fd)
{
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
}

static void put_opts_json(ct_strbuf *b, const ct_lower_opts *o)
{
    ct_sb_printf(b,
                 "{\"arch\": %d, \"num_warps\": %d, \"num_stages\": %d, \"num_ctas\": %d, "
                 "\"maxnreg\": %d, \"enable_fp_fusion\": %s, \"debug\": %s, \"line_info\": %s}",
                 o->arch, o->num_warps, o->num_stages, o->num_ctas, o->maxnreg,
                 o->enable_fp_fusion ? "true" : "false", o->debug ? "true" : "false",
                 o->line_info ? "true" : "false");
}

/* Publishes a built directory as the entry for its key. */
static ct_status publish(build *b)
{
    if (!write_manifest(b->tmp, b->key))
        return ct_fail(CT_ERR_IO, "cannot write the MANIFEST in %s", b->tmp);
    ct_fsync_dir(b->tmp);
    if (ct_fault("cache-crash-before-publish"))
        _exit(77); /* a crash between building and publishing */
    char *dst = entry_dir(b->key);
    if (!dst)
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    char *parent = strdup(dst);
    *strrchr(parent, '/') = 0;
    ct_status st = CT_OK;
    if (!ct_mkdirs(parent)) {
        st = ct_fail(CT_ERR_IO, "cannot create %s", parent);
    } else if (rename(b->tmp, dst) != 0) {
        if (errno == EEXIST || errno == ENOTEMPTY) {
            /* another writer published first (no working locks here): keep
             * theirs if it is whole, else replace it with ours */
            ct_artifact a;
            bool corrupt;
            if (load_entry(b->key, &a, &corrupt) == CT_OK) {
                ct_artifact_free(&a);
                ct_rmtree(b->tmp);
            } else if (rename(b->tmp, dst) != 0) {
                st = ct_fail(CT_ERR_IO, "cannot publish %s: %s", dst, strerror(errno));
            }
        } else {
            st = ct_fail(CT_ERR_IO, "cannot publish %s: %s", dst, strerror(errno));
        }
    } else {
        ct_fsync_dir(parent);
    }
    free(parent);
    free(dst);
    return st;
}

/* The tail of the lowering output, for a message. */
static const char *tail(const char *s, size_t max)
{
    size_t n = strlen(s);
    return n > max ? s + n - max : s;
}

/* Removes what crashed builders left in tmp/ and trash/ (older than an hour:
 * a live build takes seconds). */
static void sweep(const char *what)
{
    char *dir = layout_dir(what);
    DIR *d = dir ? opendir(dir) : NULL;
    if (d) {
        time_t now = time(NULL);
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char *p = path_join(dir, e->d_name);
            struct stat st;
            if (p && lstat(p, &st) == 0 && now - st.st_mtime > 3600)
                ct_rmtree(p);
            free(p);
        }
        closedir(d);
    }
    free(dir);
}

/* Lowers every build marked todo with one run of lower.py. */
static ct_status lower_batch(build *bs, int n, ct_diags *diags)
{
    /* one run of lower.py imports one Triton: every job targets the same release */
    const char *target = NULL;
    ct_status bad = CT_OK;
    for (int i = 0; i < n && bad == CT_OK; i++) {
        if (!bs[i].todo)
            continue;
        ct_diags d;
        ct_diags_init(&d);
        const char *t = ct_lower_target(bs[i].opts);
        if (!ct_triton_resolve(bs[i].opts->triton, &d))
            bad = ct_fail(CT_ERR_INVALID, "%s", ct_diags_first_error(&d));
        else if (target && strcmp(target, t))
            bad = ct_fail(CT_ERR_INVALID,
                          "one batch of lowerings targets one Triton release, not %s and %s",
                          target, t);
        ct_diags_free(&d);
        target = t;
    }
    if (bad != CT_OK) {
        ct_diag_add(diags, CT_ERROR, NULL, 0, 0, "%s", ct_errmsg());
        for (int i = 0; i < n; i++)
            if (bs[i].todo)
                bs[i].st = bad;
        return bad;
    }
    if (!target)
        return CT_OK;
    /* TTIR that spells another release than the target is refused here with
     * what gives it away (Triton would refuse it with less to go on, or could
     * read it otherwise); text ctriton cannot parse goes to Triton as it is */
    const ct_triton *tv = ct_triton_find(target);
    for (int i = 0; i < n; i++) {
        if (!bs[i].todo)
            continue;
        ct_diags pd;
        ct_diags_init(&pd);
        ct_module *m = ct_parse_module(bs[i].ttir, strlen(bs[i].ttir), "<ttir>", &pd);
        if (m && m->text_lo && (ct_triton_cmp(tv, m->text_lo) < 0 || ct_triton_cmp(tv, m->text_hi) > 0)) {
            bs[i].st = ct_fail(CT_ERR_INVALID,
                               "the TTIR is written for Triton %s%s%s (it spells %s), but the "
                               "target is Triton %s: print the module for the target (ctriton "
                               "builds each release's text) or target %s",
                               m->text_lo->name, m->text_lo == m->text_hi ? "" : " to ",
                               m->text_lo == m->text_hi ? "" : m->text_hi->name,
                               m->text_why ? m->text_why : "its ops", target, m->text_lo->name);
            ct_diag_add(diags, CT_ERROR, NULL, 0, 0, "%s", ct_errmsg());
            bs[i].todo = false;
        }
        ct_module_destroy(m);
        ct_diags_free(&pd);
    }
    char python[4096], script[4096];
    ct_lower_python(python, sizeof python);
    if (!ct_lower_script(script, sizeof script))
        return ct_fail(CT_ERR_COMPILE,
                       "cannot find scripts/lower.py (set CTRITON_LOWER_SCRIPT or "
                       "CTRITON_SOURCE_DIR)");
    sweep("tmp");
    sweep("trash");
    char *tmproot = layout_dir("tmp");
    if (!tmproot || !ct_mkdirs(tmproot)) {
        ct_status s = ct_fail(CT_ERR_IO, "cannot create the cache directory %s (set "
                              "CTRITON_CACHE_DIR)", tmproot ? tmproot : "");
        free(tmproot);
        return s;
    }
    ct_strbuf jobs;
    ct_sb_init(&jobs);
    ct_sb_puts(&jobs, "[\n");
    int njobs = 0;
    ct_status st = CT_OK;
    for (int i = 0; i < n; i++) {
        build *b = &bs[i];
        if (!b->todo)
            continue;
        char suf[64], name[200];
        ct_unique_suffix(suf, sizeof suf);
        snprintf(name, sizeof name, "%s.%s", b->key, suf);
        b->tmp = path_join(tmproot, name);
        char *src = b->tmp ? path_join(b->tmp, "source.ttir") : NULL;
        if (!src || !ct_mkdirs(b->tmp) || !ct_write_all(src, b->ttir, strlen(b->ttir))) {
            free(src);
            b->st = st = ct_fail(CT_ERR_IO, "cannot write into %s", b->tmp ? b->tmp : tmproot);
            b->todo = false;
            continue;
        }
        ct_sb_puts(&jobs, njobs ? ",\n {\"ttir\": " : " {\"ttir\": ");
        ct_json_put_str(&jobs, src);
        ct_sb_puts(&jobs, ", \"out\": ");
        ct_json_put_str(&jobs, b->tmp);
        ct_sb_puts(&jobs, ", \"options\": ");
        put_opts_json(&jobs, b->opts);
        ct_sb_puts(&jobs, "}");
        njobs++;
        free(src);
    }
    ct_sb_puts(&jobs, "\n]\n");
    if (njobs == 0) {
        ct_sb_free(&jobs);
        free(tmproot);
        return st;
    }
    char suf[64], jname[128];
    ct_unique_suffix(suf, sizeof suf);
    snprintf(jname, sizeof jname, "jobs.%s.json", suf);
    char *jpath = path_join(tmproot, jname);
    if (!jpath || !ct_write_all(jpath, jobs.s, jobs.len)) {
        st = ct_fail(CT_ERR_IO, "cannot write %s", jpath ? jpath : jname);
        goto done;
    }
    char *argv[] = {python, script, "--jobs", jpath, "--expect-version", (char *)target, NULL};
    char *output = NULL;
    int code = -1;
    ct_status rs = ct_run_process(argv, &output, &code);
    if (rs != CT_OK) {
        st = rs;
        for (int i = 0; i < n; i++)
            if (bs[i].todo)
                bs[i].st = rs;
        free(output);
        goto done;
    }
    if (code == 3 || code == 2 || code >= 126 || (code != 0 && code != 1)) {
        /* the whole run failed: wrong Triton, no Triton, no Python, a crash */
        const char *what = code == 127 ? "the Python for lowering was not found"
                                       : "lowering through Triton failed";
        st = ct_fail(CT_ERR_COMPILE, "%s (`%s %s`, exit %d):\n%s", what, python, script, code,
                     tail(output ? output : "", 4000));
        ct_diag_add(diags, CT_ERROR, NULL, 0, 0, "%s", ct_errmsg());
        for (int i = 0; i < n; i++)
            if (bs[i].todo)
                bs[i].st = CT_ERR_COMPILE;
        free(output);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        build *b = &bs[i];
        if (!b->todo)
            continue;
        char *errp = path_join(b->tmp, "error.txt");
        char *err = errp ? (char *)ct_read_all(errp, NULL) : NULL;
        free(errp);
        if (err) {
            /* Triton's own message, and what it printed before raising */
            b->st = ct_fail(CT_ERR_COMPILE, "Triton could not lower the kernel: %s%s%s", err,
                            output && *output ? "\nTriton's output:\n" : "",
                            output ? tail(output, 4000) : "");
            ct_diag_add(diags, CT_ERROR, NULL, 0, 0, "%s", ct_errmsg());
            free(err);
            if (st == CT_OK)
                st = b->st;
            continue;
        }
        b->st = publish(b);
        if (b->st != CT_OK && st == CT_OK)
            st = b->st;
    }
    free(output);
done:
    if (jpath)
        unlink(jpath);
    free(jpath);
    for (int i = 0; i < n; i++)
        if (bs[i].tmp && ct_path_exists(bs[i].tmp))
            ct_rmtree(bs[i].tmp);
    ct_sb_free(&jobs);
    free(tmproot);
    return st;
}

static int cmp_build_key(const void *a, const void *b)
{
    const build *const *x = a, *const *y = b;
    return strcmp((*x)->key, (*y)->key);
}

ct_status ct_compile_ttir_many(int n, const char *const *ttirs, const ct_lower_opts *opts,
                               ct_artifact *outs, ct_status *sts, ct_diags *diags)
{
    build *bs = calloc((size_t)(n > 0 ? n : 1), sizeof *bs);
    build **order = calloc((size_t)(n > 0 ? n : 1), sizeof *order);
    if (!bs || !order) {
        free(bs);
        free(order);
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < n; i++) {
        bs[i].ttir = ttirs[i];
        bs[i].opts = &opts[i];
        bs[i].lock_fd = -1;
        ct_cache_key(ttirs[i], &opts[i], bs[i].key);
        memset(&outs[i], 0, sizeof outs[i]);
        order[i] = &bs[i];
    }
    /* fast path: everything already cached */
    bool all = true;
    for (int i = 0; i < n; i++) {
        bool corrupt;
        bs[i].st = load_entry(bs[i].key, &outs[i], &corrupt);
        bs[i].todo = bs[i].st != CT_OK;
        all &= !bs[i].todo;
    }
    if (!all) {
        /* lock the misses in key order (no deadlock between two batches),
         * once per key, then look again: another process may have built them */
        qsort(order, (size_t)n, sizeof *order, cmp_build_key);
        for (int i = 0; i < n; i++) {
            build *b = order[i];
            if (!b->todo)
                continue;
            if (i > 0 && !strcmp(order[i - 1]->key, b->key) &&
                (order[i - 1]->todo || order[i - 1]->dup)) {
                b->todo = false;
                b->dup = true;
                continue;
            }
            b->lock_fd = take_lock(b->key);
            bool corrupt;
            if (load_entry(b->key, &outs[b - bs], &corrupt) == CT_OK) {
                b->todo = false;
                b->st = CT_OK;
                drop_lock(b->lock_fd);
                b->lock_fd = -1;
            }
        }
        lower_batch(bs, n, diags);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        for (int i = 0; i < n; i++) {
            build *b = &bs[i];
            if (b->todo && b->st == CT_OK) {
                bool corrupt;
                b->st = load_entry(b->key, &outs[i], &corrupt);
                outs[i].hit = false;
                outs[i].lower_ms = ms;
            }
            drop_lock(b->lock_fd);
            b->lock_fd = -1;
        }
        for (int i = 0; i < n; i++) {
            build *b = &bs[i];
            if (!b->dup)
                continue;
            /* the twin (an earlier job with the same key) built it */
            bool corrupt;
            b->st = load_entry(b->key, &outs[i], &corrupt);
            if (b->st != CT_OK)
                for (int j = 0; j < n; j++)
                    if (j != i && !bs[j].dup && !strcmp(bs[j].key, b->key))
                        b->st = bs[j].st;
        }
    }
    ct_status first = CT_OK;
    for (int i = 0; i < n; i++) {
        if (sts)
            sts[i] = bs[i].st;
        if (bs[i].st != CT_OK && first == CT_OK)
            first = bs[i].st;
        free(bs[i].tmp);
    }
    free(bs);
    free(order);
    return first;
}

ct_status ct_compile_ttir(const char *ttir, const ct_lower_opts *o, ct_artifact *out,
                          ct_diags *diags)
{
    ct_status st;
    ct_status r = ct_compile_ttir_many(1, &ttir, o, out, &st, diags);
    return r;
}
