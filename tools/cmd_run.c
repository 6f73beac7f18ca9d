/*
 * ctriton run: run a kernel on the CPU emulator.
 *
 *   ctriton run KERNEL [--config NAME] --emu [--seed N] [--threads N] [--report]
 *               [--dump-case DIR] [--ttgir FILE | --no-layouts] [--fast-dot] [--json]
 *   ctriton run --all --emu
 *       builds a registered kernel for each config (or the one named), makes
 *       seeded random inputs sized from the config's `problem` string (its C
 *       reference, ctriton/ref.h), runs it on the emulator, compares every
 *       output with the reference, prints the verdict and the times, and
 *       exits 1 on any failure.  --dump-case DIR (one config) writes the
 *       case for scripts/gpu_emu_capture.py: DIR/case.txt, the inputs
 *       DIR/in_<arg>.bin and the emulator's outputs DIR/emu_<arg>.bin.
 *
 *   ctriton run --ttir FILE --grid X[,Y,Z] --arg SPEC ... [--kernel NAME]
 *       [--num-warps N] [--seed N] [--threads N] [--dump DIR] [--fast-dot] [--json]
 *       runs the kernel of a TTIR file (e.g. one Python Triton wrote) with
 *       arguments given in order (tools/argspec.h); --dump DIR writes each
 *       output buffer to DIR/argN.bin, an @FILE output goes back to FILE.
 *
 *   --fast-dot (both forms): dots of f16, bf16 and fp8 operands into f32 run as
 *   f32 fused multiply-adds in k order (CT_EMU_DOT_FAST) instead of the
 *   tensor cores' accumulation: faster, not the GPU's bits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "argspec.h"
#include "cli.h"
#include "ctriton/emu.h"
#include "ctriton/text.h"
#include "kernels.h"

#define MAX_ARGS 64

static struct {
    const char *config, *ttir, *dump, *func, *dump_case, *ttgir;
    bool no_layouts, fast_dot, emu, all, report, json;
    uint64_t seed, max_steps;
    int threads, num_warps;
    const char *grid;
    const char *args[MAX_ARGS];
    cli_list arglist;
} o = {.seed = 1234, .arglist = {o.args, 0, MAX_ARGS}};
static const char *pos[1];
static int npos;

static const cli_opt opts[] = {
    {"emu", 0, CLI_FLAG, &o.emu, NULL, "on the CPU emulator (the only target of `run`)", 0, 0, NULL},
    {"config", 0, CLI_STR, &o.config, "NAME", "one config (default: all of the kernel's)", 0, 0, NULL},
    {"all", 0, CLI_FLAG, &o.all, NULL, "every registered kernel that has a reference, every config", 0, 0, NULL},
    {"seed", 0, CLI_U64, &o.seed, "N", "the inputs' random seed (default 1234)", 0, 0, NULL},
    {"threads", 0, CLI_INT, &o.threads, "N", "emulator threads (default 0: one per core)", 0, 1024, NULL},
    {"max-steps", 0, CLI_U64, &o.max_steps, "N",
     "each program's step budget: loop iterations before it stops (default 0: 2^30)", 0, 0, NULL},
    {"report", 0, CLI_FLAG, &o.report, NULL, "a line per written buffer: NaN, Inf, unwritten elements", 0, 0, NULL},
    {"fast-dot", 0, CLI_FLAG, &o.fast_dot, NULL, "f32 FMA dots: faster, not the GPU's bits", 0, 0, NULL},
    {"ttgir", 0, CLI_STR, &o.ttgir, "FILE",
     "reduction layouts from Triton's .ttgir (default: tests/golden/K/C/py.ttgir if present)", 0, 0, NULL},
    {"no-layouts", 0, CLI_FLAG, &o.no_layouts, NULL, "Triton's default layouts, no .ttgir", 0, 0, NULL},
    {"dump-case", 0, CLI_STR, &o.dump_case, "DIR", "write the case for the GPU capture (one config)", 0, 0, NULL},
    {"ttir", 0, CLI_STR, &o.ttir, "FILE", "run the kernel of a TTIR file instead (with --grid, --arg)", 0, 0, NULL},
    {"kernel", 0, CLI_STR, &o.func, "NAME", "--ttir: the function to run (default: the public one)", 0, 0, NULL},
    {"grid", 0, CLI_STR, &o.grid, "X[,Y,Z]", "--ttir: the grid (default 1)", 0, 0, NULL},
    {"arg", 0, CLI_LIST, &o.arglist, "SPEC", "--ttir: the next argument (repeat, in order; see below)", 0, 0, NULL},
    {"num-warps", 0, CLI_FN, &o.num_warps, "N", "--ttir: num_warps (default: the module's, else 4)", 0, 0,
     cli_num_warps},
    {"dump", 0, CLI_STR, &o.dump, "DIR", "--ttir: write each output buffer to DIR/argN.bin", 0, 0, NULL},
    {"json", 0, CLI_FLAG, &o.json, NULL, "one JSON object: the results and the counts", 0, 0, NULL},
    CLI_OPT_KERNELS,
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

/* --max-steps as ct_emu_launch.max_steps (0: the default) */
static int64_t steps_budget(void)
{
    return o.max_steps > (uint64_t)INT64_MAX ? -1 : (int64_t)o.max_steps;
}


const cli_spec run_spec = {
    "run", "KERNEL [--config NAME] --emu | --all --emu | --ttir FILE --grid X,Y,Z --arg SPEC...",
    "run a kernel on the CPU emulator and check it against its C reference, or run any TTIR file",
    "--arg SPEC, in the kernel's parameter order:\n"
    "  fp32[1024]              input buffer of seeded random values (floats in [-1, 1), ints in [0, 16))\n"
    "  fp32[1024]:zeros        input buffer of zeros (:ones: of ones)\n"
    "  fp32[1024]:out          output buffer (poisoned, then reported)\n"
    "  fp32[1024]:inout        read and written, zeros to start with\n"
    "  fp16[8]@x.bin           input read from a raw file of exactly the buffer's size\n"
    "  fp32[1024]@y.bin:out    output written to y.bin after the run\n"
    "  fp32[1024]@x.bin:inout  read from x.bin and written back to it (in-place kernels)\n"
    "  1000, -3, 0x10          integer scalar;  1.5, 1e-5: float scalar;  null: null pointer\n"
    "Exit status: 0 all passed (or ran), 1 a failure or a fault, 2 bad usage.\n",
    opts, pos, 1, &npos, "KERNEL",
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- layouts ------------------------------------------------------------------ */

/* --ttgir FILE, read once: its layouts, or a refusal (exit 2) when it cannot
 * be read or is no TTGIR. */
static ct_emu_layout given[64];
static int ngiven;

static int read_ttgir(void)
{
    char err[1024] = "";
    size_t len;
    char *text = cli_read_file(o.ttgir, CLI_MAX_FILE, &len, err, sizeof err);
    if (!text)
        return cli_fail(2, "run: --ttgir: %s", err);
    int n = strstr(text, "ttg.num-warps") ? ct_emu_layouts_from_ttgir(text, given, 64) : -2;
    free(text);
    if (n == -2)
        return cli_fail(2, "run: --ttgir %s: not a TTGIR file (no \"ttg.num-warps\" module "
                           "attribute: give the .ttgir Triton wrote for the kernel)",
                        o.ttgir);
    if (n < 0 || n > 64)
        return cli_fail(2, "run: --ttgir %s: %s", o.ttgir,
                        n < 0 ? "its reduction layouts are malformed" : "more than 64 reductions");
    ngiven = n;
    return 0;
}

/* The layouts of a kernel's reductions: --ttgir FILE's, else those of
 * tests/golden/<kernel>/<config>/py.ttgir under $CTRITON_SOURCE_DIR or the
 * current directory when it exists.  Returns the count (0: none). */
static int load_layouts(const char *kname, const char *cname, ct_emu_layout *out, int max)
{
    if (o.ttgir) {
        memcpy(out, given, sizeof given[0] * (size_t)(ngiven < max ? ngiven : max));
        return ngiven < max ? ngiven : max;
    }
    if (o.no_layouts || !kname)
        return 0;
    char path[4096], err[1024];
    const char *root = getenv("CTRITON_SOURCE_DIR");
    snprintf(path, sizeof path, "%s%stests/golden/%s/%s/py.ttgir", root ? root : "",
             root ? "/" : "", kname, cname);
    char *text = cli_read_file(path, CLI_MAX_FILE, NULL, err, sizeof err);
    if (!text)
        return 0; /* none for this kernel: the default layouts */
    int n = ct_emu_layouts_from_ttgir(text, out, max);
    free(text);
    return n > 0 && n <= max ? n : 0;
}

/* ---- registered kernels ----------------------------------------------------------- */

static bool write_bin(const char *dir, const char *prefix, const char *name, const void *data,
                      size_t bytes)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/%s%s.bin", dir, prefix, name);
    return cli_write_file(path, data, bytes, err, sizeof err);
}

/* --dump-case DIR: the case as the GPU capture script (scripts/gpu_emu_capture.py)
 * reads it: DIR/case.txt, the inputs DIR/in_<arg>.bin, and after the run the
 * emulator's outputs DIR/emu_<arg>.bin */
static bool dump_case(const char *dir, const char *kname, const tl_config *cfg, ct_ref_case *c,
                      bool after)
{
    if (after) {
        bool ok = true;
        for (int j = 0; j < c->nargs; j++)
            if (c->args[j].kind == CT_REF_BUF && c->args[j].access != CT_EMU_IN)
                ok &= write_bin(dir, "emu_", c->args[j].name, c->args[j].data,
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
                ok &= write_bin(dir, "in_", a->name, a->data, bytes);
        }
    }
    ok &= fclose(f) == 0;
    return ok;
}

/* One config's outcome, printed as a line or as JSON. */
typedef struct run_result {
    const char *kernel, *config;
    const char *verdict;   /* PASS, FAIL, CRASH, BUILD FAILED, UNSUPPORTED, SETUP FAILED, ... */
    char detail[2048];     /* the outputs' checks, the fault, or why it could not run */
    int grid[3];
    double emu_ms, ref_ms;
    int threads;
    bool ran;
} run_result;

static int nresults;

static void print_result(const run_result *r)
{
    if (o.json) {
        printf("%s    {\"kernel\": ", nresults ? ",\n" : "");
        cli_json_str(stdout, r->kernel);
        printf(", \"config\": ");
        cli_json_str(stdout, r->config);
        printf(", \"verdict\": ");
        cli_json_str(stdout, r->verdict);
        printf(", \"detail\": ");
        cli_json_str(stdout, r->detail);
        if (r->ran)
            printf(", \"grid\": [%d, %d, %d], \"emu_ms\": %.3f, \"ref_ms\": %.3f, \"threads\": %d",
                   r->grid[0], r->grid[1], r->grid[2], r->emu_ms, r->ref_ms, r->threads);
        printf("}");
    } else if (r->ran) {
        char gridbuf[48];
        snprintf(gridbuf, sizeof gridbuf, "(%d,%d,%d)", r->grid[0], r->grid[1], r->grid[2]);
        if (!strcmp(r->verdict, "CRASH"))
            printf("%-24s %-12s grid %-14s CRASH: %s\n", r->kernel, r->config, gridbuf, r->detail);
        else
            printf("%-24s %-12s grid %-14s emu %8.2f ms (%d threads)  ref %8.2f ms  %s  %s\n",
                   r->kernel, r->config, gridbuf, r->emu_ms, r->threads, r->ref_ms, r->verdict,
                   r->detail);
    } else {
        printf("%-24s %-12s %s%s%s\n", r->kernel, r->config, r->verdict, *r->detail ? ": " : "",
               r->detail);
    }
    nresults++;
}

/* diagnostics into a result's detail, one line */
static void diags_detail(run_result *r, const ct_diags *d)
{
    const char *e = ct_diags_first_error(d);
    snprintf(r->detail, sizeof r->detail, "%s", e ? e : "");
}

/* runs one config; returns 0 pass, 1 fail */
static int run_config(const ct_kernel_entry *ke, const tl_config *cfg)
{
    const char *kname = ke->def->name;
    run_result r = {.kernel = kname, .config = cfg->name, .verdict = "FAIL"};
    const ct_kernel_ref *ref = ke->ref;
    if (!ref) {
        r.verdict = "NO REFERENCE";
        snprintf(r.detail, sizeof r.detail,
                 "register one with the kernel (ctriton/ref.h; the library's: kernels/ref/%s.c)", kname);
        print_result(&r);
        return 1;
    }
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(ke->def, cfg, &d);
    if (!m) {
        r.verdict = "BUILD FAILED";
        diags_detail(&r, &d);
        print_result(&r);
        if (!o.json)
            ct_diags_print(&d, stdout, true);
        ct_diags_free(&d);
        return 1;
    }
    ct_emu_layout layouts[64];
    int nl = load_layouts(kname, cfg->name, layouts, 64);
    ct_emu_options eo = {cfg->num_warps ? cfg->num_warps : 4, nl ? layouts : NULL, nl,
                         o.fast_dot ? CT_EMU_DOT_FAST : CT_EMU_DOT_GPU};
    ct_emu_kernel *k = ct_emu_compile_ex(m, kname, &eo, &d);
    ct_module_destroy(m);
    if (!k) {
        r.verdict = "UNSUPPORTED";
        diags_detail(&r, &d);
        print_result(&r);
        if (!o.json)
            ct_diags_print(&d, stdout, true);
        ct_diags_free(&d);
        return 1;
    }
    ct_diags_free(&d);
    ct_ref_case c;
    int rc = 1;
    ct_emu *e = NULL;
    if (!ct_ref_case_init(&c, ref, cfg, o.seed)) {
        r.verdict = "SETUP FAILED";
        snprintf(r.detail, sizeof r.detail, "%s", c.err);
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
                r.verdict = "SETUP FAILED";
                snprintf(r.detail, sizeof r.detail, "%s", ct_emu_error(e));
                goto done;
            }
        }
    }
    /* the kernel's parameters by name; specialized-away ones must be 1 */
    int np = ct_emu_kernel_nparams(k);
    ct_emu_arg args[CT_REF_MAX_ARGS];
    if (np > CT_REF_MAX_ARGS) {
        r.verdict = "SETUP FAILED";
        snprintf(r.detail, sizeof r.detail, "too many parameters");
        goto done;
    }
    for (int p = 0; p < np; p++) {
        const ct_emu_param *pp = ct_emu_kernel_param(k, p);
        int j;
        for (j = 0; j < c.nargs && strcmp(c.args[j].name, pp->name); j++)
            ;
        if (j == c.nargs) {
            r.verdict = "SETUP FAILED";
            snprintf(r.detail, sizeof r.detail, "the reference gives no argument `%s`", pp->name);
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
            r.verdict = "SETUP FAILED";
            snprintf(r.detail, sizeof r.detail,
                     "`%s` is not a parameter of the compiled kernel (specialized to 1?) but "
                     "the reference gives it another value",
                     c.args[j].name);
            goto done;
        }
    }
    if (o.dump_case && !dump_case(o.dump_case, kname, cfg, &c, false)) {
        r.verdict = "SETUP FAILED";
        snprintf(r.detail, sizeof r.detail, "cannot write the case to %s", o.dump_case);
        goto done;
    }
    /* the reference first: it reads the inputs, which in-place kernels overwrite */
    double t0 = now();
    ref->reference(&c);
    r.ref_ms = 1e3 * (now() - t0);
    ct_emu_launch l = {{c.grid[0], c.grid[1], c.grid[2]}, o.threads, 0, NULL, steps_budget()};
    ct_emu_result res;
    ct_emu_run(e, k, &l, np, args, &res);
    memcpy(r.grid, c.grid, sizeof r.grid);
    r.ran = true;
    r.emu_ms = 1e3 * res.seconds;
    r.threads = res.threads;
    if (res.status != CT_EMU_OK) {
        r.verdict = "CRASH";
        snprintf(r.detail, sizeof r.detail, "%s", res.fault.message);
        goto done;
    }
    rc = 0;
    for (int j = 0; j < c.nargs; j++) {
        ct_ref_arg *a = &c.args[j];
        if (a->kind != CT_REF_BUF || !a->want)
            continue;
        ct_emu_check chk;
        ct_emu_check_output(e, &res, bufid[j], a->want, a->n, a->rtol, a->atol, &chk);
        if (chk.verdict != CT_EMU_PASS)
            rc = 1;
        size_t len = strlen(r.detail);
        snprintf(r.detail + len, sizeof r.detail - len, "%s%s: %s", len ? "; " : "", a->name,
                 chk.message);
    }
    r.verdict = rc ? "FAIL" : "PASS";
    print_result(&r);
    if (o.report && !o.json)
        ct_emu_print_reports(e, stdout);
    if (o.dump_case)
        dump_case(o.dump_case, kname, cfg, &c, true);
    ct_emu_free(e);
    ct_ref_case_free(&c);
    ct_emu_kernel_free(k);
    return rc;
done:
    print_result(&r);
    ct_emu_free(e);
    ct_ref_case_free(&c);
    ct_emu_kernel_free(k);
    return rc;
}

static int run_registered(void)
{
    int fails = 0, passes = 0;
    if (o.json)
        printf("{\"results\": [\n");
    if (o.all) {
        for (int i = 0; i < ct_kernel_count(); i++) {
            const ct_kernel_entry *k = ct_kernel_at(i);
            if (k->conformance || !k->ref)
                continue; /* conformance kernels have no references: the fidelity harness checks them */
            for (int c = 0; c < k->nconfigs; c++) {
                int f = run_config(k, &k->configs[c]);
                fails += f;
                passes += !f;
            }
        }
    } else {
        const ct_kernel_entry *k = ct_kernel_find(pos[0]);
        const tl_config *only = k && o.config ? ct_kernel_config(k, o.config) : NULL;
        if (!k || (o.config && !only)) {
            if (o.json)
                printf("]}\n");
            const tl_config *dummy;
            return cli_kernel_config(pos[0], o.config, &k, &dummy);
        }
        for (int c = 0; c < k->nconfigs; c++) {
            if (only && only != &k->configs[c])
                continue;
            int f = run_config(k, &k->configs[c]);
            fails += f;
            passes += !f;
        }
    }
    if (o.json)
        printf("\n], \"passed\": %d, \"failed\": %d}\n", passes, fails);
    else if (o.all || nresults > 1)
        printf("%d passed, %d failed\n", passes, fails);
    return fails ? 1 : 0;
}

/* ---- TTIR files ------------------------------------------------------------------ */

static const char *param_kind(const ct_emu_param *p)
{
    return p->kind == CT_EMU_PARAM_PTR    ? "pointer"
           : p->kind == CT_EMU_PARAM_DESC ? "tensor descriptor: its buffer, then shape and strides"
           : p->kind == CT_EMU_PARAM_INT  ? "integer"
                                          : "float";
}

static int run_ttir(void)
{
    int grid[3] = {1, 1, 1};
    if (o.grid && !cli_parse_grid(o.grid, grid))
        return cli_fail(2, "run: --grid: `%s` is not X[,Y,Z] with each from 1 to 2^31-1", o.grid);
    /* every --arg is checked before anything runs */
    cli_arg args[MAX_ARGS];
    char err[1024] = "";
    for (int i = 0; i < o.arglist.n; i++)
        if (!cli_arg_parse(o.args[i], &args[i], err, sizeof err))
            return cli_fail(2, "run: --arg %d: %s", i, err);
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = cli_parse_ttir(o.ttir, &d);
    if (!m) {
        ct_diags_print(&d, stderr, true);
        ct_diags_free(&d);
        return 1;
    }
    ct_emu_layout layouts[64];
    int nl = load_layouts(NULL, NULL, layouts, 64);
    ct_emu_options eo = {o.num_warps, nl ? layouts : NULL, nl,
                         o.fast_dot ? CT_EMU_DOT_FAST : CT_EMU_DOT_GPU};
    ct_emu_kernel *k = ct_emu_compile_ex(m, o.func, &eo, &d);
    ct_module_destroy(m);
    ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    if (!k)
        return 1;
    int np = ct_emu_kernel_nparams(k);
    if (o.arglist.n != np) {
        fprintf(stderr, "ctriton: %s takes %d arguments, %d given:\n", ct_emu_kernel_name(k), np,
                o.arglist.n);
        for (int i = 0; i < np; i++) {
            const ct_emu_param *p = ct_emu_kernel_param(k, i);
            fprintf(stderr, "  %d: %s (%s)\n", i, p->name, param_kind(p));
        }
        ct_emu_kernel_free(k);
        return 2;
    }
    ct_emu *e = ct_emu_new();
    ct_emu_arg eargs[MAX_ARGS];
    uint64_t rng = o.seed ^ 0x6a09e667f3bcc909ull;
    int rc = 1;
    for (int i = 0; i < np; i++) {
        cli_arg *a = &args[i];
        if (!cli_arg_load(a, &rng, err, sizeof err)) {
            cli_fail(1, "run: --arg %d (%s): %s", i, ct_emu_kernel_param(k, i)->name, err);
            goto out;
        }
        if (a->kind == CLI_ARG_NULL) {
            eargs[i] = ct_emu_ptr(-1);
        } else if (a->kind == CLI_ARG_INT) {
            eargs[i] = ct_emu_int(a->i);
        } else if (a->kind == CLI_ARG_FLOAT) {
            eargs[i] = ct_emu_float(a->f);
        } else {
            char name[32];
            snprintf(name, sizeof name, "arg%d", i);
            int id = ct_emu_add_buffer(e, name, a->data, a->bytes, a->dtype, a->access);
            if (id < 0) {
                cli_fail(1, "run: --arg %d: %s", i, ct_emu_error(e));
                goto out;
            }
            eargs[i] = ct_emu_ptr(id);
        }
    }
    ct_emu_launch l = {{grid[0], grid[1], grid[2]}, o.threads, 0, NULL, steps_budget()};
    ct_emu_result res;
    ct_emu_run(e, k, &l, np, eargs, &res);
    bool crashed = res.status != CT_EMU_OK;
    if (o.json) {
        printf("{\"kernel\": ");
        cli_json_str(stdout, ct_emu_kernel_name(k));
        printf(", \"grid\": [%d, %d, %d], \"status\": \"%s\", \"fault\": ", grid[0], grid[1],
               grid[2], crashed ? "crash" : "ok");
        cli_json_str(stdout, crashed ? res.fault.message : "");
        printf(", \"programs\": %lld, \"ms\": %.3f, \"threads\": %d, \"buffers\": [",
               (long long)res.programs, 1e3 * res.seconds, res.threads);
        int nb = 0;
        for (int i = 0; i < np; i++) {
            ct_emu_report rep;
            if (args[i].kind != CLI_ARG_BUF || ct_emu_buffer_report(e, eargs[i].buffer, &rep))
                continue;
            printf("%s{\"arg\": %d, \"access\": \"%s\", \"elements\": %lld, \"unwritten\": %lld, "
                   "\"nan\": %lld, \"inf\": %lld, \"zero\": %lld}",
                   nb++ ? ", " : "", i,
                   args[i].access == CT_EMU_IN ? "in" : args[i].access == CT_EMU_OUT ? "out" : "inout",
                   (long long)rep.elems, (long long)rep.unwritten, (long long)rep.nan,
                   (long long)rep.inf, (long long)rep.zero);
        }
        printf("]}\n");
    } else if (crashed) {
        printf("%s grid (%d,%d,%d): CRASH: %s\n", ct_emu_kernel_name(k), grid[0], grid[1], grid[2],
               res.fault.message);
    } else {
        printf("%s grid (%d,%d,%d): ran %lld programs in %.2f ms on %d threads\n",
               ct_emu_kernel_name(k), grid[0], grid[1], grid[2], (long long)res.programs,
               1e3 * res.seconds, res.threads);
        ct_emu_print_reports(e, stdout);
    }
    if (crashed)
        goto out;
    rc = 0;
    if (o.dump && mkdir(o.dump, 0777) != 0 && errno != EEXIST) {
        cli_fail(1, "run: cannot create %s: %s", o.dump, strerror(errno));
        rc = 1;
    }
    for (int i = 0; i < np; i++) {
        if (args[i].kind != CLI_ARG_BUF || args[i].access == CT_EMU_IN)
            continue;
        if (!cli_arg_store(&args[i], err, sizeof err)) {
            cli_fail(1, "run: --arg %d: %s", i, err);
            rc = 1;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/arg%d.bin", o.dump, i);
        if (o.dump && rc == 0 && !cli_write_file(path, args[i].data, args[i].bytes, err, sizeof err)) {
            cli_fail(1, "run: %s", err);
            rc = 1;
        }
    }
out:
    /* every argument, loaded or not, failed half way or not (data is NULL until loaded) */
    for (int i = 0; i < np; i++)
        cli_arg_free(&args[i]);
    ct_emu_free(e);
    ct_emu_kernel_free(k);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    int rc = cli_parse(&run_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    bool ttir_only = o.grid || o.arglist.n || o.func || o.dump || o.num_warps;
    if (o.ttir) {
        if (npos || o.all || o.config || o.dump_case)
            return cli_fail(2, "run: --ttir runs a file: no KERNEL, --all, --config or --dump-case with it");
        if (o.ttgir && (rc = read_ttgir()))
            return rc;
        return run_ttir();
    }
    if (ttir_only)
        return cli_fail(2, "run: --grid, --arg, --kernel, --num-warps and --dump go with --ttir FILE");
    if (!npos && !o.all)
        return cli_fail(2, "run: give a KERNEL, --all, or --ttir FILE (see `ctriton run --help`)");
    if (npos && o.all)
        return cli_fail(2, "run: a KERNEL or --all, not both");
    if (!o.emu)
        return cli_fail(2, "run: only the emulator is available here: add --emu");
    if (o.dump_case && o.fast_dot)
        return cli_fail(2, "run: --dump-case records the GPU's dot model for a capture: drop --fast-dot");
    if (o.dump_case && (o.all || !o.config))
        return cli_fail(2, "run: --dump-case writes one case: name the kernel and its --config");
    if (o.ttgir && o.no_layouts)
        return cli_fail(2, "run: --ttgir or --no-layouts, not both");
    if (o.ttgir && (rc = read_ttgir()))
        return rc;
    return run_registered();
}
