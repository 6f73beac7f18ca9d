/*
 * test_emu_gpu_runs.c - the emulator's differential suite against the H200.
 *
 * tests/golden/gpu_runs/<kernel>/<config>/ holds the first launch of every Python original
 * kernel and config of scripts/gpu/check_py_kernels.py as it ran on the GPU
 * (`--record DIR`): run.txt (grid, num_warps, every runtime argument in the
 * signature's order) and, for every tensor argument, its bytes before the launch
 * (NAME.in.bin) and, when the kernel changed them, after it (NAME.out.bin).
 *
 * For each run, Python's TTIR of the same config (tests/golden/<kernel>/<config>/py.source)
 * is run on the emulator with the reductions' layouts read from Triton's TTGIR
 * (py.ttgir), on the recorded inputs, and every buffer is compared with the GPU's bytes:
 * bit for bit, except the outputs listed in `known` (the most ulps each may differ by, and
 * the measured reason).  The table of every run (tests/golden/EMU_VS_GPU.md) is generated
 * here and must match the committed one; CTRITON_EMU_VS_GPU=write rewrites it
 * (`make emu-vs-gpu`).  Missing recorded data fails the test: the suite is part of CI.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sys/stat.h>

#include "ctriton/text.h"
#include "emu_test.h"
#include "util/util.h"

static const char *src_dir(void)
{
    const char *s = getenv("CTRITON_SOURCE_DIR");
    return s ? s : CTRITON_SOURCE_DIR;
}

/* ---- run.txt ---------------------------------------------------------------------- */

enum { MAX_ARGS = 64 };

typedef struct run_arg {
    char name[96];
    enum { A_BUF, A_INT, A_FLOAT, A_NONE } kind;
    int dtype;
    int64_t n;
    bool changed;
    int64_t i;
    double f;
} run_arg;

typedef struct run_rec {
    char kernel[128], config[128];
    int grid[3], num_warps, nargs;
    run_arg args[MAX_ARGS];
} run_rec;

/* false with a message in `why` on a malformed file */
static bool read_run(const char *path, run_rec *r, char *why, size_t wn)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, wn, "%s: %s", path, strerror(errno));
        return false;
    }
    char line[1024];
    int lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char a[96], b[64], c[64];
        long long n;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "kernel %127s", r->kernel) == 1 || sscanf(line, "config %127s", r->config) == 1 ||
            sscanf(line, "grid %d %d %d", &r->grid[0], &r->grid[1], &r->grid[2]) == 3 ||
            sscanf(line, "num_warps %d", &r->num_warps) == 1)
            continue;
        if (r->nargs == MAX_ARGS) {
            snprintf(why, wn, "%s:%d: more than %d arguments", path, lineno, MAX_ARGS);
            ok = false;
            break;
        }
        run_arg *x = &r->args[r->nargs];
        if (sscanf(line, "arg %95s buf %63s %lld %63s", a, b, &n, c) == 4) {
            x->kind = A_BUF;
            x->dtype = ct_emu_dtype_from_name(b);
            x->n = n;
            x->changed = !strcmp(c, "out");
            ok = x->dtype >= 0 && n >= 0 && (x->changed || !strcmp(c, "same"));
        } else if (sscanf(line, "arg %95s int %lld", a, &n) == 2) {
            x->kind = A_INT;
            x->i = n;
        } else if (sscanf(line, "arg %95s float %63s", a, b) == 2) {
            char *end;
            x->kind = A_FLOAT;
            x->f = strtod(b, &end);
            ok = *end == 0;
        } else if (sscanf(line, "arg %95s non%1s", a, b) == 2) {
            x->kind = A_NONE;
        } else {
            ok = false;
        }
        if (!ok) {
            snprintf(why, wn, "%.4000s:%d: not understood: %.200s", path, lineno, line);
            break;
        }
        snprintf(x->name, sizeof x->name, "%s", a);
        r->nargs++;
    }
    fclose(f);
    if (ok && (!r->kernel[0] || !r->config[0] || r->grid[0] <= 0 || r->num_warps <= 0)) {
        snprintf(why, wn, "%s: kernel, config, grid or num_warps missing", path);
        ok = false;
    }
    return ok;
}

/* ---- known deviations --------------------------------------------------------------- */

/* The outputs that are not bit-identical to the H200, each with the most ulps and elements it
 * may differ by and the measured reason (docs/emulator.md's table).  A listed output that becomes
 * bit-identical fails the test too, so the list stays true. */
static const struct {
    const char *kernel, *config, *out;
    int ulp;        /* float buffers: the most ulps an element may differ by */
    int64_t elems;  /* the most elements that may differ */
    const char *why;
} known[] = {
#include "emu_gpu_known.inc"
};

/* The recorded launches the emulator cannot run, and why; each must still fail to compile or run.
 * None today (ops_inline_asm was, until the PTX interpreter, src/emu/ptx.c); the last entry is a
 * placeholder that matches no launch. */
static const struct {
    const char *kernel, *config, *why;
} not_run[] = {
    {"", "", ""},
};

static int not_run_index(const char *kernel, const char *config)
{
    for (size_t i = 0; i + 1 < sizeof not_run / sizeof not_run[0]; i++)
        if (!strcmp(kernel, not_run[i].kernel) && !strcmp(config, not_run[i].config))
            return (int)i;
    return -1;
}

static int known_index(const char *kernel, const char *config, const char *out)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(kernel, known[i].kernel) && !strcmp(config, known[i].config) &&
            !strcmp(out, known[i].out))
            return (int)i;
    return -1;
}

/* ---- one run ----------------------------------------------------------------------- */

typedef struct table {
    char *text;
    size_t len, cap;
} table;

static void tprintf(table *t, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof buf)
        n = sizeof buf - 1;
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->text = realloc(t->text, t->cap);
        assert_non_null(t->text);
    }
    memcpy(t->text + t->len, buf, (size_t)n + 1);
    t->len += (size_t)n;
}

static int *known_seen;

/* returns true when every buffer is as the GPU left it (or within its listed bound) */
static bool run_one(const char *rundir, const run_rec *r, table *t)
{
    char path[8600], why[512] = "";
    bool ok = true;
    /* the launched kernel's own TTIR and TTGIR when recorded, else the golden of its config */
    snprintf(path, sizeof path, "%s/kernel.ttir", rundir);
    size_t len = 0;
    char *text = ct_read_file(path, &len);
    if (!text) {
        snprintf(path, sizeof path, "%s/tests/golden/%s/%s/py.source", src_dir(), r->kernel, r->config);
        text = ct_read_file(path, &len);
    }
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = text ? ct_parse_module(text, len, path, &d) : NULL;
    free(text);
    snprintf(path, sizeof path, "%s/kernel.ttgir", rundir);
    char *ttgir = ct_read_file(path, &len);
    if (!ttgir) {
        snprintf(path, sizeof path, "%s/tests/golden/%s/%s/py.ttgir", src_dir(), r->kernel, r->config);
        ttgir = ct_read_file(path, &len);
    }
    ct_emu_layout layouts[64];
    int nl = ttgir ? ct_emu_layouts_from_ttgir(ttgir, layouts, 64) : 0;
    free(ttgir);
    ct_emu_options eo = {r->num_warps, nl > 0 && nl <= 64 ? layouts : NULL, nl > 0 && nl <= 64 ? nl : 0,
                         CT_EMU_DOT_GPU};
    ct_emu_kernel *k = m ? ct_emu_compile_ex(m, NULL, &eo, &d) : NULL;
    int nr = not_run_index(r->kernel, r->config);
    if (nr >= 0 && !k) {
        ct_module_destroy(m);
        ct_diags_free(&d);
        tprintf(t, "| %s | %s | | | | not run | %s |\n", r->kernel, r->config, not_run[nr].why);
        return true;
    }
    if (!k) {
        printf("  %s/%s: FAIL: Python's TTIR does not %s\n", r->kernel, r->config, m ? "compile" : "parse");
        ct_diags_print(&d, stdout, false);
    }
    ct_module_destroy(m);
    ct_diags_free(&d);
    if (!k)
        return false;

    ct_emu *e = ct_emu_new();
    void *host[MAX_ARGS] = {0};
    int bufid[MAX_ARGS];
    for (int i = 0; i < r->nargs; i++) {
        bufid[i] = -1;
        const run_arg *a = &r->args[i];
        if (a->kind != A_BUF)
            continue;
        size_t bytes = (size_t)a->n * ct_emu_dtype_size((ct_emu_dtype)a->dtype);
        snprintf(path, sizeof path, "%s/%s.in.bin", rundir, a->name);
        size_t got = 0;
        host[i] = ct_read_file(path, &got);
        if (!host[i] || got != bytes) {
            printf("  %s/%s: FAIL: %s: %zu bytes, run.txt says %zu\n", r->kernel, r->config, path,
                   host[i] ? got : 0, bytes);
            ok = false;
            goto out;
        }
        /* every buffer in and out: a buffer the GPU left unchanged must stay unchanged */
        bufid[i] = ct_emu_add_buffer(e, a->name, host[i], bytes, (ct_emu_dtype)a->dtype, CT_EMU_INOUT);
    }
    int np = ct_emu_kernel_nparams(k);
    ct_emu_arg args[MAX_ARGS];
    for (int p = 0; p < np && p < MAX_ARGS; p++) {
        const char *name = ct_emu_kernel_param(k, p)->name;
        int j = -1;
        for (int i = 0; i < r->nargs; i++)
            if (!strcmp(r->args[i].name, name))
                j = i;
        if (j < 0 || r->args[j].kind == A_NONE) {
            printf("  %s/%s: FAIL: the TTIR's parameter %s is not in run.txt\n", r->kernel, r->config, name);
            ok = false;
            goto out;
        }
        const run_arg *a = &r->args[j];
        args[p] = a->kind == A_BUF ? ct_emu_ptr(bufid[j]) : a->kind == A_INT ? ct_emu_int(a->i)
                                                                         : ct_emu_float(a->f);
    }
    ct_emu_result res;
    /* one thread: programs run in order, so the kernels whose programs take a lock in turn
     * (the norms' backward partial sums) give the same bits on every run and the table is stable */
    ct_emu_launch l = {{r->grid[0], r->grid[1], r->grid[2]}, 1, 0, NULL};
    if (np > MAX_ARGS || ct_emu_run(e, k, &l, np, args, &res) != CT_EMU_OK) {
        if (nr >= 0) {
            tprintf(t, "| %s | %s | | | | not run | %s |\n", r->kernel, r->config, not_run[nr].why);
            goto out;
        }
        printf("  %s/%s: FAIL: %s\n", r->kernel, r->config, np > MAX_ARGS ? "too many parameters" : res.fault.message);
        ok = false;
        goto out;
    }
    if (nr >= 0) {
        printf("  %s/%s: FAIL: listed as not runnable (%s), but it runs\n", r->kernel, r->config,
               not_run[nr].why);
        ok = false;
        goto out;
    }
    for (int i = 0; i < r->nargs; i++) {
        const run_arg *a = &r->args[i];
        if (a->kind != A_BUF)
            continue;
        size_t es = ct_emu_dtype_size((ct_emu_dtype)a->dtype), bytes = (size_t)a->n * es, got = 0;
        uint8_t *gpu;
        if (a->changed) {
            snprintf(path, sizeof path, "%s/%s.out.bin", rundir, a->name);
            gpu = (uint8_t *)ct_read_file(path, &got);
        } else {
            snprintf(path, sizeof path, "%s/%s.in.bin", rundir, a->name);
            gpu = (uint8_t *)ct_read_file(path, &got);
        }
        if (!gpu || got != bytes) {
            printf("  %s/%s %s: FAIL: %s missing or of the wrong size\n", r->kernel, r->config, a->name, path);
            free(gpu);
            ok = false;
            continue;
        }
        int64_t differ = 0;
        for (int64_t j = 0; j < a->n; j++)
            differ += memcmp((uint8_t *)host[i] + (size_t)j * es, gpu + (size_t)j * es, es) != 0;
        int64_t max_ulp = 0;
        if (differ) {
            ct_emu_check chk;
            ct_emu_compare((ct_emu_dtype)a->dtype, host[i], a->n, gpu, a->n, 0, 0, false, &chk);
            max_ulp = ct_emu_dtype_is_float((ct_emu_dtype)a->dtype) ? chk.max_ulp : -1;
        }
        int ki = known_index(r->kernel, r->config, a->name);
        bool pass;
        const char *verdict;
        if (ki < 0) {
            pass = differ == 0;
            verdict = pass ? "bit-identical" : "differs (not listed)";
        } else {
            known_seen[ki] = 1;
            pass = differ > 0 && differ <= known[ki].elems && max_ulp <= known[ki].ulp;
            verdict = differ == 0 ? "bit-identical (listed as not: remove the entry)"
                                  : pass ? "listed" : "beyond its listed bound";
        }
        if (!pass) {
            printf("  %s/%s %s: FAIL: %lld of %lld elements differ, max %lld ulp: %s\n", r->kernel,
                   r->config, a->name, (long long)differ, (long long)a->n, (long long)max_ulp, verdict);
            ok = false;
        }
        if (differ == 0)
            tprintf(t, "| %s | %s | %s | %s | %lld | ✓ bit-identical | |\n", r->kernel, r->config, a->name,
                    ct_emu_dtype_name((ct_emu_dtype)a->dtype), (long long)a->n);
        else
            tprintf(t, "| %s | %s | %s | %s | %lld | ✗ %lld differ, max %lld ulp | %s |\n", r->kernel,
                    r->config, a->name, ct_emu_dtype_name((ct_emu_dtype)a->dtype), (long long)a->n,
                    (long long)differ, (long long)max_ulp, ki >= 0 ? known[ki].why : "not listed");
        free(gpu);
    }
out:
    for (int i = 0; i < r->nargs; i++)
        free(host[i]);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    (void)why;
    return ok;
}

/* ---- the suite ---------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the names in a directory, sorted (the table's order must not depend on the file system) */
static int list_dir(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    int n = 0, cap = 0;
    char **v = NULL;
    struct dirent *de;
    while (d && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            v = realloc(v, (size_t)cap * sizeof *v);
            assert_non_null(v);
        }
        v[n++] = strdup(de->d_name);
    }
    if (d)
        closedir(d);
    if (n)
        qsort(v, (size_t)n, sizeof *v, cmp_str);
    *out = v;
    return n;
}

static void t_gpu_runs(void **s)
{
    (void)s;
    char top[4200];
    /* the recordings are committed as tests/golden/gpu_runs.tar.xz; CMake unpacks them into the
     * build tree at configure time and CTest names the folder */
    const char *runs_dir = getenv("CTRITON_GPU_RUNS");
    if (runs_dir)
        snprintf(top, sizeof top, "%s", runs_dir);
    else
        snprintf(top, sizeof top, "%s/tests/golden/gpu_runs", src_dir());
    known_seen = calloc(sizeof known / sizeof known[0] + 1, sizeof *known_seen);
    table t = {0};
    tprintf(&t, "# The emulator against the H200, run by run\n\n"
                "Generated by tests/unit/test_emu_gpu_runs.c (`make emu-vs-gpu` rewrites it; the test "
                "fails when it is not current).  Each row is one buffer of one recorded launch of a "
                "Python original on the H200 (the 11 launches of the port_* conformance kernels on "
                "an H100, the same sm_90 SM: each run.txt names its GPU) (tests/golden/gpu_runs.tar.xz, "
                "recorded by "
                "`scripts/gpu/check_py_kernels.py --record`): Python's TTIR of that config run on the "
                "emulator with the recorded inputs, grid and num_warps, and the reductions' layouts "
                "from Triton's TTGIR, compared byte for byte with the GPU's buffer after the launch "
                "(inputs included: a buffer the GPU left alone must stay as it was).\n\n"
                "| kernel | config | buffer | type | elements | emulator vs H200 | why |\n"
                "|---|---|---|---|---|---|---|\n");
    char **kernels;
    int nk = list_dir(top, &kernels), runs = 0, fails = 0, configs_kernels = 0;
    for (int i = 0; i < nk; i++) {
        char kdir[4600];
        snprintf(kdir, sizeof kdir, "%s/%s", top, kernels[i]);
        char **configs;
        int nc = list_dir(kdir, &configs);
        configs_kernels += nc > 0;
        for (int j = 0; j < nc; j++) {
            char rdir[5000], rpath[5100], why[6000];
            snprintf(rdir, sizeof rdir, "%s/%s", kdir, configs[j]);
            snprintf(rpath, sizeof rpath, "%s/run.txt", rdir);
            run_rec *r = malloc(sizeof *r);
            assert_non_null(r);
            runs++;
            if (!read_run(rpath, r, why, sizeof why)) {
                printf("  FAIL: %s\n", why);
                fails++;
            } else if (!run_one(rdir, r, &t)) {
                fails++;
            }
            free(r);
            free(configs[j]);
        }
        free(configs);
        free(kernels[i]);
    }
    free(kernels);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!known_seen[i]) {
            printf("  FAIL: the listed deviation %s/%s %s matches no recorded buffer\n", known[i].kernel,
                   known[i].config, known[i].out);
            fails++;
        }
    free(known_seen);
    tprintf(&t, "\n%d launches of %d kernels; %zu buffers listed as not bit-identical.\n", runs,
            configs_kernels, sizeof known / sizeof known[0]);
    printf("%d recorded GPU launches (%d kernels): %d failed\n", runs, configs_kernels, fails);
    /* the suite's size is part of what it promises (issue 13: at least 40 configs) */
    if (runs < 40) {
        printf("  FAIL: only %d recorded launches under %s (tests/golden/gpu_runs.tar.xz, unpacked by CMake)\n", runs, top);
        fails++;
    }

    char tpath[4300];
    snprintf(tpath, sizeof tpath, "%s/tests/golden/EMU_VS_GPU.md", src_dir());
    const char *mode = getenv("CTRITON_EMU_VS_GPU");
    if (mode && !strcmp(mode, "write")) {
        FILE *f = fopen(tpath, "w");
        assert_non_null(f);
        fputs(t.text, f);
        fclose(f);
        printf("wrote %s\n", tpath);
    } else {
        size_t len = 0;
        char *have = ct_read_file(tpath, &len);
        if (!have || len != t.len || memcmp(have, t.text, len)) {
            printf("  FAIL: %s is not current (make emu-vs-gpu)\n", tpath);
            fails++;
        }
        free(have);
    }
    free(t.text);
    assert_int_equal(fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_gpu_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
