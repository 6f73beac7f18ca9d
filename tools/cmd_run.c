/*
 * ctriton run: run a kernel on the CPU emulator.
 *
 *   ctriton run KERNEL [--config NAME] --emu [--seed N] [--threads N] [--report]
 *               [--dump-case DIR] [--ttgir FILE | --no-layouts] [--fast-dot]
 *   ctriton run --all --emu
 *       builds the library kernel for each config (or the one named), makes
 *       seeded random inputs sized from the config's `problem` string
 *       (kernels/ref/<kernel>.c), runs it on the emulator, compares every
 *       output with the plain C reference, prints the verdict and the times,
 *       and exits 1 on any failure.  --dump-case DIR (one config) writes the
 *       case for scripts/gpu_emu_capture.py: DIR/case.txt, the inputs
 *       DIR/in_<arg>.bin and the emulator's outputs DIR/emu_<arg>.bin.
 *
 *   ctriton run --ttir FILE --grid X[,Y,Z] --arg SPEC ... [--kernel NAME]
 *       [--num-warps N] [--seed N] [--threads N] [--dump DIR] [--fast-dot]
 *       runs the kernel of a TTIR file (e.g. one Python Triton wrote) with
 *       arguments given in order:
 *         fp32[1024]        input buffer of 1024 seeded random values in [-1, 1)
 *         fp32[1024]:out    output buffer (poisoned, then reported)
 *         i32[64]:zeros     input buffer of zeros (also :ones, :inout for read-write)
 *         fp16[8]@FILE      input buffer read from a raw binary file
 *         1000 / -3         integer scalar
 *         1.5 / 1e-5        float scalar
 *         null              null pointer
 *       --dump DIR writes each output buffer to DIR/argN.bin.
 *
 *   --fast-dot (both forms): dots of f16, bf16 and fp8 operands into f32 run as
 *   f32 fused multiply-adds in k order (CT_EMU_DOT_FAST) instead of the
 *   tensor cores' accumulation: faster, not the GPU's bits.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "ctriton/emu.h"
#include "ctriton/text.h"
#include "kernels.h"
#include "ref/ref.h"

/* The TTIR parser (src/text/parse.c) lands separately: without it, --ttir says so. */
#ifdef CTRITON_HAVE_PARSER
#define HAVE_PARSER 1
#else
#define HAVE_PARSER 0
static ct_module *ct_parse_file(const char *path, ct_diags *diags)
{
    (void)path;
    ct_diag_add(diags, CT_ERROR, NULL, 0, 0, "the TTIR parser is not part of this build");
    return NULL;
}
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct run_opts {
    const char *kernel, *config, *ttir, *dump, *func, *dump_case, *ttgir;
    bool no_layouts, fast_dot;
    bool emu, all, report, quiet;
    uint64_t seed;
    int threads, num_warps;
    int grid[3];
    int nargs;
    const char *args[64];
} run_opts;

static int usage_run(void)
{
    return cli_fail(2, "usage: ctriton run KERNEL [--config NAME] --emu [--seed N] [--threads N] "
                       "[--report] [--fast-dot]\n       ctriton run --all --emu\n       ctriton run --ttir "
                       "FILE --grid X[,Y,Z] --arg SPEC ... (see `ctriton help`)");
}

/* ---- library kernels ------------------------------------------------------------ */

static bool write_file(const char *dir, const char *prefix, const char *name, const void *data,
                       size_t bytes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s.bin", dir, prefix, name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, bytes, f) == bytes;
    if (f)
        ok &= fclose(f) == 0;
    return ok;
}

/* --dump-case DIR: the case as the GPU capture script (scripts/gpu_emu_capture.py)
 * reads it: DIR/case.txt, the inputs DIR/in_<arg>.bin, and after the run the
 * emulator's outputs DIR/emu_<arg>.bin */
static bool dump_case(const char *dir, const char *kname, const tl_config *cfg, ct_ref_case *c,
                      const int *bufid, bool after)
{
    (void)bufid;
    if (after) {
        bool ok = true;
        for (int j = 0; j < c->nargs; j++)
            if (c->args[j].kind == CT_REF_BUF && c->args[j].access != CT_EMU_IN)
                ok &= write_file(dir, "emu_", c->args[j].name, c->args[j].data,
                                 (size_t)c->args[j].n * ct_emu_dtype_size(c->args[j].dtype));
        return ok;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/case.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "# a case of the emulator's differential test: the C reference's seeded inputs\n");
    fprintf(f, "kernel %s\nconfig %s\nseed %llu\ngrid %d %d %d\nnum_warps %d\nnum_stages %d\n",
            kname, cfg->name, (unsigned long long)c->seed, c->grid[0], c->grid[1], c->grid[2],
            cfg->num_warps ? cfg->num_warps : 4, cfg->num_stages ? cfg->num_stages : 3);
    bool ok = true;
    for (int j = 0; j < c->nargs; j++) {
        ct_ref_arg *a = &c->args[j];
        if (a->kind == CT_REF_INT) {
            fprintf(f, "arg %s int %lld\n", a->name, (long long)a->i);
        } else if (a->kind == CT_REF_FLOAT) {
            fprintf(f, "arg %s float %.17g\n", a->name, a->f);
        } else {
            size_t bytes = (size_t)a->n * ct_emu_dtype_size(a->dtype);
            const char *acc = a->access == CT_EMU_IN ? "in" : a->access == CT_EMU_OUT ? "out" : "inout";
            fprintf(f, "arg %s buf %s %lld %s fnv1a=%016llx\n", a->name,
                    ct_emu_dtype_name(a->dtype), (long long)a->n, acc,
                    (unsigned long long)ct_ref_fnv1a(a->data, bytes));
            if (a->access != CT_EMU_OUT)
                ok &= write_file(dir, "in_", a->name, a->data, bytes);
        }
    }
    ok &= fclose(f) == 0;
    return ok;
}

/* The layouts of a kernel's reductions, from a TTGIR file: --ttgir FILE, else
 * tests/golden/<kernel>/<config>/py.ttgir under $CTRITON_SOURCE_DIR or the
 * current directory.  Returns the count (0: none). */
static int load_layouts(const run_opts *o, const char *kname, const char *cname,
                        ct_emu_layout *out, int max, const char **from)
{
    static char path[4096];
    const char *cands[2];
    int nc = 0;
    if (o->ttgir)
        cands[nc++] = o->ttgir;
    else if (!o->no_layouts && kname) {
        const char *root = getenv("CTRITON_SOURCE_DIR");
        snprintf(path, sizeof path, "%s%stests/golden/%s/%s/py.ttgir", root ? root : "",
                 root ? "/" : "", kname, cname);
        cands[nc++] = path;
    }
    for (int i = 0; i < nc; i++) {
        FILE *f = fopen(cands[i], "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        char *text = len > 0 ? malloc((size_t)len + 1) : NULL;
        size_t got = text ? fread(text, 1, (size_t)len, f) : 0;
        fclose(f);
        if (!text)
            continue;
        text[got] = 0;
        int n = ct_emu_layouts_from_ttgir(text, out, max);
        free(text);
        if (n > 0 && n <= max) {
            *from = cands[i];
            return n;
        }
    }
    return 0;
}

/* runs one config; returns 0 pass, 1 fail */
static int run_config(const run_opts *o, const ct_kernel_entry *ke, const tl_config *cfg)
{
    const char *kname = ke->def->name;
    const ct_kernel_ref *ref = ct_ref_find(kname);
    if (!ref) {
        printf("%-24s %-12s NO REFERENCE: add kernels/ref/%s.c and a row in kernels/ref/refs.def\n",
               kname, cfg->name, kname);
        return 1;
    }
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(ke->def, cfg, &d);
    if (!m) {
        printf("%-24s %-12s BUILD FAILED\n", kname, cfg->name);
        ct_diags_print(&d, stdout, true);
        ct_diags_free(&d);
        return 1;
    }
    ct_emu_layout layouts[64];
    const char *lfrom = NULL;
    int nl = load_layouts(o, kname, cfg->name, layouts, 64, &lfrom);
    ct_emu_options eo = {cfg->num_warps ? cfg->num_warps : 4, nl ? layouts : NULL, nl,
                         o->fast_dot ? CT_EMU_DOT_FAST : CT_EMU_DOT_GPU};
    ct_emu_kernel *k = ct_emu_compile_ex(m, kname, &eo, &d);
    ct_module_destroy(m);
    if (!k) {
        printf("%-24s %-12s UNSUPPORTED by the emulator\n", kname, cfg->name);
        ct_diags_print(&d, stdout, true);
        ct_diags_free(&d);
        return 1;
    }
    ct_diags_free(&d);
    ct_ref_case c;
    int rc = 1;
    ct_emu *e = NULL;
    if (!ct_ref_case_init(&c, ref, cfg, o->seed)) {
        printf("%-24s %-12s SETUP FAILED: %s\n", kname, cfg->name, c.err);
        goto done;
    }
    e = ct_emu_new();
    int bufid[CT_REF_MAX_ARGS];
    for (int i = 0; i < c.nargs; i++) {
        bufid[i] = -1;
        ct_ref_arg *a = &c.args[i];
        if (a->kind == CT_REF_BUF) {
            bufid[i] = ct_emu_add_buffer(e, a->name, a->data,
                                         (size_t)a->n * ct_emu_dtype_size(a->dtype), a->dtype,
                                         a->access);
            if (bufid[i] < 0) {
                printf("%-24s %-12s SETUP FAILED: %s\n", kname, cfg->name, ct_emu_error(e));
                goto done;
            }
        }
    }
    /* the kernel's parameters by name; specialized-away ones must be 1 */
    int np = ct_emu_kernel_nparams(k);
    ct_emu_arg args[CT_REF_MAX_ARGS];
    if (np > CT_REF_MAX_ARGS) {
        printf("%-24s %-12s too many parameters\n", kname, cfg->name);
        goto done;
    }
    for (int p = 0; p < np; p++) {
        const ct_emu_param *pp = ct_emu_kernel_param(k, p);
        int j;
        for (j = 0; j < c.nargs && strcmp(c.args[j].name, pp->name); j++)
            ;
        if (j == c.nargs) {
            printf("%-24s %-12s SETUP FAILED: the reference gives no argument `%s`\n", kname,
                   cfg->name, pp->name);
            goto done;
        }
        ct_ref_arg *a = &c.args[j];
        args[p] = a->kind == CT_REF_BUF   ? ct_emu_ptr(bufid[j])
                  : a->kind == CT_REF_INT ? ct_emu_int(a->i)
                                          : ct_emu_float(a->f);
    }
    for (int j = 0; j < c.nargs; j++) {
        bool found = false;
        for (int p = 0; p < np && !found; p++)
            found = !strcmp(ct_emu_kernel_param(k, p)->name, c.args[j].name);
        if (!found && !(c.args[j].kind == CT_REF_INT && c.args[j].i == 1)) {
            printf("%-24s %-12s SETUP FAILED: `%s` is not a parameter of the compiled kernel "
                   "(specialized to 1?) but the reference gives it another value\n",
                   kname, cfg->name, c.args[j].name);
            goto done;
        }
    }
    if (o->dump_case && !dump_case(o->dump_case, kname, cfg, &c, bufid, false)) {
        printf("%-24s %-12s cannot write the case to %s\n", kname, cfg->name, o->dump_case);
        goto done;
    }
    /* the reference first: it reads the inputs, which in-place kernels overwrite */
    double t0 = now();
    ref->reference(&c);
    double tref = now() - t0;
    ct_emu_launch l = {{c.grid[0], c.grid[1], c.grid[2]}, o->threads, 0, NULL};
    ct_emu_result res;
    ct_emu_run(e, k, &l, np, args, &res);
    char gridbuf[48];
    snprintf(gridbuf, sizeof gridbuf, "(%d,%d,%d)", c.grid[0], c.grid[1], c.grid[2]);
    if (res.status != CT_EMU_OK) {
        printf("%-24s %-12s grid %-14s CRASH: %s\n", kname, cfg->name, gridbuf, res.fault.message);
        goto done;
    }
    rc = 0;
    char verdicts[2048] = "";
    for (int j = 0; j < c.nargs; j++) {
        ct_ref_arg *a = &c.args[j];
        if (a->kind != CT_REF_BUF || !a->want)
            continue;
        ct_emu_check chk;
        ct_emu_check_output(e, &res, bufid[j], a->want, a->n, a->rtol, a->atol, &chk);
        if (chk.verdict != CT_EMU_PASS)
            rc = 1;
        size_t len = strlen(verdicts);
        snprintf(verdicts + len, sizeof verdicts - len, "%s%s: %s", len ? "; " : "", a->name,
                 chk.message);
    }
    printf("%-24s %-12s grid %-14s emu %8.2f ms (%d threads)  ref %8.2f ms  %s  %s\n", kname,
           cfg->name, gridbuf, 1e3 * res.seconds, res.threads, 1e3 * tref, rc ? "FAIL" : "PASS",
           verdicts);
    if (o->report)
        ct_emu_print_reports(e, stdout);
    if (o->dump_case)
        dump_case(o->dump_case, kname, cfg, &c, bufid, true);
done:
    ct_emu_free(e);
    ct_ref_case_free(&c);
    ct_emu_kernel_free(k);
    return rc;
}

static int run_library(const run_opts *o)
{
    int fails = 0, n;
    const ct_kernel_entry *ks = ct_kernels(&n);
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (!o->all && strcmp(ks[i].def->name, o->kernel))
            continue;
        any = true;
        bool cany = false;
        for (int c = 0; c < ks[i].nconfigs; c++) {
            if (o->config && strcmp(ks[i].configs[c].name, o->config))
                continue;
            cany = true;
            fails += run_config(o, &ks[i], &ks[i].configs[c]);
        }
        if (!cany)
            return cli_fail(1, "%s has no config `%s`", ks[i].def->name, o->config);
    }
    if (!any)
        return cli_fail(1, "no kernel named `%s` (see `ctriton list`)", o->kernel);
    return fails ? 1 : 0;
}

/* ---- TTIR files ------------------------------------------------------------------ */

typedef struct ttir_buf {
    void *data;
    size_t bytes;
    int id;
    bool out;
} ttir_buf;

static bool parse_grid(const char *s, int grid[3])
{
    grid[0] = grid[1] = grid[2] = 1;
    char *end;
    for (int d = 0; d < 3; d++) {
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < 1 || v > 2147483647)
            return false;
        grid[d] = (int)v;
        if (*end == 0)
            return true;
        if (*end != ',' && *end != 'x')
            return false;
        s = end + 1;
    }
    return *end == 0;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* one --arg; buffers are registered in `e` */
static bool make_arg(ct_emu *e, const char *spec, int index, uint64_t *rng, ct_emu_arg *out,
                     ttir_buf *b)
{
    memset(b, 0, sizeof *b);
    b->id = -1;
    if (!strcmp(spec, "null")) {
        *out = ct_emu_ptr(-1);
        return true;
    }
    const char *lb = strchr(spec, '[');
    if (!lb) {
        char *end;
        errno = 0;
        long long iv = strtoll(spec, &end, 0);
        if (*end == 0 && end != spec && !errno) {
            *out = ct_emu_int(iv);
            return true;
        }
        double dv = strtod(spec, &end);
        if (*end == 0 && end != spec) {
            *out = ct_emu_float(dv);
            return true;
        }
        cli_fail(2, "run: cannot read argument %d `%s` (a number, null, or DTYPE[N][:out])", index,
                 spec);
        return false;
    }
    char dt[32];
    snprintf(dt, sizeof dt, "%.*s", (int)(lb - spec) < 31 ? (int)(lb - spec) : 31, spec);
    int t = ct_emu_dtype_from_name(dt);
    char *end;
    long long n = strtoll(lb + 1, &end, 0);
    if (t < 0 || *end != ']' || n < 0 || n > (1ll << 34)) {
        cli_fail(2, "run: bad buffer argument %d `%s`", index, spec);
        return false;
    }
    const char *mode = end + 1;
    size_t es = ct_emu_dtype_size((ct_emu_dtype)t);
    b->bytes = (size_t)n * es;
    b->data = calloc(b->bytes ? b->bytes : 1, 1);
    if (!b->data) {
        cli_fail(1, "run: out of memory for argument %d", index);
        return false;
    }
    ct_emu_access acc = CT_EMU_IN;
    if (!strcmp(mode, ":out")) {
        acc = CT_EMU_OUT;
        b->out = true;
    } else if (!strcmp(mode, ":inout")) {
        acc = CT_EMU_INOUT;
        b->out = true;
    } else if (!strcmp(mode, ":zeros")) {
    } else if (!strcmp(mode, ":ones")) {
        for (long long i = 0; i < n; i++)
            ct_emu_set((ct_emu_dtype)t, b->data, i, 1);
    } else if (*mode == '@') {
        FILE *f = fopen(mode + 1, "rb");
        size_t got = f ? fread(b->data, 1, b->bytes, f) : 0;
        if (f)
            fclose(f);
        if (got != b->bytes) {
            cli_fail(1, "run: could not read %zu bytes for argument %d from %s", b->bytes, index,
                     mode + 1);
            return false;
        }
    } else if (*mode == 0) {
        bool fl = ct_emu_dtype_is_float((ct_emu_dtype)t);
        for (long long i = 0; i < n; i++) {
            double u = (double)(splitmix(rng) >> 11) * 0x1p-53;
            ct_emu_set((ct_emu_dtype)t, b->data, i, fl ? 2 * u - 1 : floor(u * 16));
        }
    } else {
        cli_fail(2, "run: unknown buffer mode `%s` in argument %d", mode, index);
        return false;
    }
    char name[32];
    snprintf(name, sizeof name, "arg%d", index);
    b->id = ct_emu_add_buffer(e, name, b->data, b->bytes, (ct_emu_dtype)t, acc);
    if (b->id < 0) {
        cli_fail(1, "run: %s", ct_emu_error(e));
        return false;
    }
    *out = ct_emu_ptr(b->id);
    return true;
}

static int run_ttir(const run_opts *o)
{
    if (!HAVE_PARSER)
        return cli_fail(1, "run --ttir: the TTIR parser is not part of this build yet");
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_file(o->ttir, &d);
    if (!m) {
        ct_diags_print(&d, stderr, true);
        ct_diags_free(&d);
        return 1;
    }
    ct_emu_layout layouts[64];
    const char *lfrom = NULL;
    int nl = load_layouts(o, NULL, NULL, layouts, 64, &lfrom);
    ct_emu_options eo = {o->num_warps, nl ? layouts : NULL, nl,
                         o->fast_dot ? CT_EMU_DOT_FAST : CT_EMU_DOT_GPU};
    ct_emu_kernel *k = ct_emu_compile_ex(m, o->func, &eo, &d);
    ct_module_destroy(m);
    ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    if (!k)
        return 1;
    int np = ct_emu_kernel_nparams(k);
    if (o->nargs != np) {
        fprintf(stderr, "ctriton: %s takes %d arguments, %d given:\n", ct_emu_kernel_name(k), np,
                o->nargs);
        for (int i = 0; i < np; i++) {
            const ct_emu_param *p = ct_emu_kernel_param(k, i);
            fprintf(stderr, "  %d: %s (%s)\n", i, p->name,
                    p->kind == CT_EMU_PARAM_PTR    ? "pointer"
                    : p->kind == CT_EMU_PARAM_DESC ? "tensor descriptor: its buffer, then shape and strides"
                    : p->kind == CT_EMU_PARAM_INT  ? "integer"
                                                   : "float");
        }
        ct_emu_kernel_free(k);
        return 2;
    }
    ct_emu *e = ct_emu_new();
    ct_emu_arg args[64];
    ttir_buf bufs[64];
    uint64_t rng = o->seed ^ 0x6a09e667f3bcc909ull;
    int rc = 1, made = 0;
    for (int i = 0; i < o->nargs; i++, made++)
        if (!make_arg(e, o->args[i], i, &rng, &args[i], &bufs[i]))
            goto out;
    ct_emu_launch l = {{o->grid[0], o->grid[1], o->grid[2]}, o->threads, 0, NULL};
    ct_emu_result res;
    ct_emu_run(e, k, &l, o->nargs, args, &res);
    if (res.status != CT_EMU_OK) {
        printf("%s grid (%d,%d,%d): CRASH: %s\n", ct_emu_kernel_name(k), o->grid[0], o->grid[1],
               o->grid[2], res.fault.message);
        goto out;
    }
    printf("%s grid (%d,%d,%d): ran %lld programs in %.2f ms on %d threads\n",
           ct_emu_kernel_name(k), o->grid[0], o->grid[1], o->grid[2], (long long)res.programs,
           1e3 * res.seconds, res.threads);
    ct_emu_print_reports(e, stdout);
    rc = 0;
    if (o->dump && mkdir(o->dump, 0777) != 0 && errno != EEXIST) {
        cli_fail(1, "run: cannot create %s: %s", o->dump, strerror(errno));
        rc = 1;
    }
    for (int i = 0; o->dump && i < o->nargs; i++) {
        if (!bufs[i].out)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/arg%d.bin", o->dump, i);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bufs[i].data, 1, bufs[i].bytes, f) != bufs[i].bytes) {
            cli_fail(1, "run: cannot write %s", path);
            rc = 1;
        }
        if (f)
            fclose(f);
    }
out:
    for (int i = 0; i < made; i++)
        free(bufs[i].data);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    o.seed = 1234;
    o.grid[0] = o.grid[1] = o.grid[2] = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--emu"))
            o.emu = true;
        else if (!strcmp(a, "--all"))
            o.all = true;
        else if (!strcmp(a, "--report"))
            o.report = true;
        else if (!strcmp(a, "--config") && has)
            o.config = argv[++i];
        else if (!strcmp(a, "--ttir") && has)
            o.ttir = argv[++i];
        else if (!strcmp(a, "--kernel") && has)
            o.func = argv[++i];
        else if (!strcmp(a, "--dump") && has)
            o.dump = argv[++i];
        else if (!strcmp(a, "--dump-case") && has)
            o.dump_case = argv[++i];
        else if (!strcmp(a, "--ttgir") && has)
            o.ttgir = argv[++i];
        else if (!strcmp(a, "--no-layouts"))
            o.no_layouts = true;
        else if (!strcmp(a, "--fast-dot"))
            o.fast_dot = true;
        else if (!strcmp(a, "--seed") && has)
            o.seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "--threads") && has)
            o.threads = atoi(argv[++i]);
        else if (!strcmp(a, "--num-warps") && has)
            o.num_warps = atoi(argv[++i]);
        else if (!strcmp(a, "--grid") && has) {
            if (!parse_grid(argv[++i], o.grid))
                return cli_fail(2, "run: bad --grid `%s` (X[,Y,Z], each >= 1)", argv[i]);
        } else if (!strcmp(a, "--arg") && has) {
            if (o.nargs >= 64)
                return cli_fail(2, "run: at most 64 --arg");
            o.args[o.nargs++] = argv[++i];
        } else if (a[0] != '-' && !o.kernel)
            o.kernel = a;
        else
            return cli_fail(2, "run: unexpected argument `%s`", a);
    }
    if (o.ttir) {
        if (o.kernel || o.all)
            return cli_fail(2, "run: --ttir runs a file; do not name a library kernel too");
        return run_ttir(&o);
    }
    if (!o.kernel && !o.all)
        return usage_run();
    if (!o.emu)
        return cli_fail(2, "run: only the emulator is available here: add --emu");
    if (o.dump_case && o.fast_dot)
        return cli_fail(2, "run: --dump-case records the GPU's dot model for a capture: drop --fast-dot");
    if (o.dump_case && (o.all || !o.config))
        return cli_fail(2, "run: --dump-case writes one case: name the kernel and its --config");
    return run_library(&o);
}
