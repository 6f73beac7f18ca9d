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
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "argspec.h"
#include "sizeexpr.h"
#include "cli.h"
#include "ctriton/emu.h"
#include "ctriton/text.h"
#include "kernels.h"

#define MAX_ARGS 64

static struct {
    const char *config, *ttir, *dump, *func, *dump_case, *ttgir;
    const char *inputs;
    bool no_layouts, fast_dot, emu, all, report, json, sweep, quick;
    double max_mem;
    uint64_t seed, max_steps;
    int threads, num_warps;
    const char *grid;
    const char *args[MAX_ARGS];
    cli_list arglist;
    const char *sizes[SX_MAX_VARS];
    cli_list sizelist;
} o = {.seed = 1234, .max_mem = 2, .arglist = {o.args, 0, MAX_ARGS}, .sizelist = {o.sizes, 0, SX_MAX_VARS}};
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
    {"size", 0, CLI_LIST, &o.sizelist, "NAME=V",
     "--ttir: a size the --arg and --grid expressions name (NAME:BLOCK or NAME=V1,V2,...: swept)", 0, 0,
     NULL},
    {"sweep", 0, CLI_FLAG, &o.sweep, NULL,
     "each config at the boundary sizes of its reference's sweep dimension (see below)", 0, 0, NULL},
    {"inputs", 0, CLI_STR, &o.inputs, "MODE", "random (default) or hard: difficult values (see below)", 0, 0,
     NULL},
    {"quick", 0, CLI_FLAG, &o.quick, NULL, "--sweep: the block's sizes only, not the int32 limit", 0, 0, NULL},
    {"max-mem", 0, CLI_DOUBLE, &o.max_mem, "GIB",
     "--sweep: run an int32-limit size only if its buffers fit in GIB (default 2)", 0, 1 << 20, NULL},
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
    "--sweep runs each config at the sizes of the dimension its reference names (.sweep in\n"
    "ct_kernel_ref, e.g. \"N:BLOCK_SIZE\"): 1, BLOCK-1, BLOCK, BLOCK+1, a size that is no\n"
    "multiple of any config's block, the largest size whose buffers' offsets fit in int32\n"
    "and one past it (these two SKIP, with the memory they need, above --max-mem), each\n"
    "re-specialized as Triton's JIT would (==1, divisibility by 16, i64), one line per case;\n"
    "a size the reference refuses is SKIP.  --inputs hard: the ends of each input's range,\n"
    "zeros, subnormals, cancelling pairs, large magnitudes, NaN and Inf where the reference\n"
    "defines them (docs/checks.md).\n"
    "--ttir --size N=1000 names a size for expressions in --arg and --grid: 'fp32[N]',\n"
    "'N - 1', --grid 'cdiv(N, 256)' (+ - * / %, cdiv, min, max).  With --sweep, --size N:256\n"
    "runs the TTIR at the sizes above around 256 (N=1,255,... lists them): a verdict line per\n"
    "size, CRASH on a fault, FAIL when an :out buffer has unwritten elements; a size the\n"
    "TTIR's specialization excludes (tt.divisibility, i32) is SKIP.\n"
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
    const char *kernel;
    char config[96];       /* the config, and the sweep's size */
    const char *verdict;   /* PASS, FAIL, CRASH, BUILD FAILED, UNSUPPORTED, SETUP FAILED, ... */
    char detail[2048];     /* the outputs' checks, the fault, or why it could not run */
    int grid[3];
    double emu_ms, ref_ms;
    int threads;
    bool ran;
} run_result;

static int nresults, nskipped;

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
        else if (r->ref_ms < 0) /* a TTIR file's: no reference */
            printf("%-24s %-12s grid %-14s emu %8.2f ms (%d threads)  %s  %s\n", r->kernel,
                   r->config, gridbuf, r->emu_ms, r->threads, r->verdict, r->detail);
        else
            printf("%-24s %-12s grid %-14s emu %8.2f ms (%d threads)  ref %8.2f ms  %s  %s\n",
                   r->kernel, r->config, gridbuf, r->emu_ms, r->threads, r->ref_ms, r->verdict,
                   r->detail);
    } else {
        printf("%-24s %-12s %s%s%s\n", r->kernel, r->config, r->verdict, *r->detail ? ": " : "",
               r->detail);
    nskipped += !strcmp(r->verdict, "SKIP");
    }
    nresults++;
}

/* diagnostics into a result's detail, one line */
static void diags_detail(run_result *r, const ct_diags *d)
{
    const char *e = ct_diags_first_error(d);
    snprintf(r->detail, sizeof r->detail, "%s", e ? e : "");
}

/* ---- re-specialization at a sweep's size ------------------------------------------- */

/* The integer scalars of a case, by name: what a sweep's case is re-specialized against. */
typedef struct int_vals {
    int n;
    const char *name[CT_REF_MAX_ARGS];
    int64_t v[CT_REF_MAX_ARGS];
} int_vals;

static void case_ints(const ct_ref_case *c, int_vals *iv)
{
    iv->n = 0;
    for (int j = 0; j < c->nargs; j++)
        if (c->args[j].kind == CT_REF_INT) {
            iv->name[iv->n] = c->args[j].name;
            iv->v[iv->n++] = c->args[j].i;
        }
}

static bool ints_find(const int_vals *iv, const char *name, size_t len, int64_t *v)
{
    for (int i = 0; i < iv->n; i++)
        if (strlen(iv->name[i]) == len && !strncmp(iv->name[i], name, len)) {
            *v = iv->v[i];
            return true;
        }
    return false;
}

/* The type of an integer argument of value v as Triton's JIT specializes it, given the
 * config's type `orig` for the config's own value `base`: an entry that ignored a
 * specialization at `base` (no :16 on a multiple of 16, no 1 for a 1) keeps ignoring it,
 * as do_not_specialize would.  NULL when `orig` is not an integer's. */
static const char *respec(const char *orig, size_t len, int64_t base, int64_t v, char *buf,
                          size_t cap)
{
    bool one = len == 1 && orig[0] == '1';
    bool div = len > 3 && !strncmp(orig + len - 3, ":16", 3);
    size_t tl = div ? len - 3 : len;
    if (!one && !(tl == 3 && (!strncmp(orig, "i32", 3) || !strncmp(orig, "i64", 3) ||
                              !strncmp(orig, "u64", 3))))
        return NULL;
    bool may_one = !(base == 1 && !one), may_div = one || div || base % 16 != 0 || base == 1;
    if (v == 1 && may_one)
        return "1";
    const char *ty = !one && !strncmp(orig, "u64", 3)          ? "u64"
                     : v >= INT32_MIN && v <= INT32_MAX ? "i32"
                                                        : "i64";
    snprintf(buf, cap, "%s%s", ty, may_div && v % 16 == 0 ? ":16" : "");
    return buf;
}

/* cfg's signature with each integer argument whose value moved from base to c's
 * re-specialized; false if it does not fit. */
static bool respec_signature(const char *sig, const int_vals *base, const ct_ref_case *c,
                             char *out, size_t cap, char *changed, size_t ccap)
{
    size_t clen = 0;
    changed[0] = 0;
    int_vals now;
    case_ints(c, &now);
    size_t len = 0;
    out[0] = 0;
    for (const char *p = sig; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        const char *eq = memchr(p, '=', (size_t)(e - p));
        char tbuf[16];
        const char *ty = NULL;
        int64_t b, v;
        if (eq && ints_find(base, p, (size_t)(eq - p), &b) && ints_find(&now, p, (size_t)(eq - p), &v) &&
            b != v)
            ty = respec(eq + 1, (size_t)(e - eq - 1), b, v, tbuf, sizeof tbuf);
        if (ty && (strlen(ty) != (size_t)(e - eq - 1) || strncmp(ty, eq + 1, strlen(ty)))) {
            int w = snprintf(changed + clen, ccap - clen, "%s%.*s=%s", clen ? " " : "", (int)(eq - p), p, ty);
            clen = w > 0 && (size_t)w < ccap - clen ? clen + (size_t)w : clen;
        }
        int w = ty ? snprintf(out + len, cap - len, "%s%.*s=%s", len ? " " : "", (int)(eq - p), p, ty)
                   : snprintf(out + len, cap - len, "%s%.*s", len ? " " : "", (int)(e - p), p);
        if (w < 0 || (size_t)w >= cap - len)
            return false;
        len += (size_t)w;
        p = e;
    }
    return true;
}

/* ---- registered kernels: one case ----------------------------------------------------- */

/* What run_case does beyond the config: a sweep's size and the config's own integer
 * arguments (the specialization to move from), hard inputs. */
typedef struct case_spec {
    ct_ref_opts ro;
    const int_vals *base; /* set: re-specialize; a setup failure is a SKIP */
} case_spec;

/* runs one case of a config; returns 0 pass (or skip), 1 fail */
static int run_case(const ct_kernel_entry *ke, const tl_config *cfg0, const case_spec *cs)
{
    const char *kname = ke->def->name;
    run_result r = {.kernel = kname, .verdict = "FAIL"};
    if (cs && cs->ro.size_name)
        snprintf(r.config, sizeof r.config, "%s %s=%lld", cfg0->name, cs->ro.size_name,
                 (long long)cs->ro.size);
    else
        snprintf(r.config, sizeof r.config, "%s", cfg0->name);
    const ct_kernel_ref *ref = ke->ref;
    if (!ref) {
        r.verdict = "NO REFERENCE";
        snprintf(r.detail, sizeof r.detail,
                 "register one with the kernel (ctriton/ref.h; the library's: kernels/ref/%s.c)", kname);
        print_result(&r);
        return 1;
    }
    /* the case first: at a sweep's size its integers re-specialize the signature */
    ct_ref_case c;
    ct_emu *e = NULL;
    ct_emu_kernel *k = NULL;
    int rc = 1;
    tl_config cfgv = *cfg0;
    const tl_config *cfg = &cfgv;
    char sig[2048];
    if (!ct_ref_case_init_ex(&c, ref, cfg0, o.seed, cs ? &cs->ro : NULL)) {
        r.verdict = cs && cs->base ? "SKIP" : "SETUP FAILED";
        rc = cs && cs->base ? 0 : 1;
        snprintf(r.detail, sizeof r.detail, "%s%s", cs && cs->base ? "the reference refuses it: " : "", c.err);
        goto done;
    }
    if (cs && cs->base) {
        char changed[256];
        if (!respec_signature(cfg0->signature, cs->base, &c, sig, sizeof sig, changed, sizeof changed)) {
            r.verdict = "SETUP FAILED";
            snprintf(r.detail, sizeof r.detail, "the re-specialized signature is too long");
            goto done;
        }
        cfgv.signature = sig;
        c.cfg = cfg;
        if (*changed) { /* the re-specialized arguments, after the size */
            size_t len = strlen(r.config);
            snprintf(r.config + len, sizeof r.config - len, " [%s]", changed);
        }
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
        ct_ref_case_free(&c);
        return 1;
    }
    ct_emu_layout layouts[64];
    int nl = load_layouts(kname, cfg->name, layouts, 64);
    ct_emu_options eo = {cfg->num_warps ? cfg->num_warps : 4, nl ? layouts : NULL, nl,
                         o.fast_dot ? CT_EMU_DOT_FAST : CT_EMU_DOT_GPU};
    k = ct_emu_compile_ex(m, kname, &eo, &d);
    ct_module_destroy(m);
    if (!k) {
        r.verdict = "UNSUPPORTED";
        diags_detail(&r, &d);
        print_result(&r);
        if (!o.json)
            ct_diags_print(&d, stdout, true);
        ct_diags_free(&d);
        ct_ref_case_free(&c);
        return 1;
    }
    ct_diags_free(&d);
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

static int run_config(const ct_kernel_entry *ke, const tl_config *cfg)
{
    case_spec cs = {.ro = {.inputs = o.inputs && !strcmp(o.inputs, "hard") ? CT_REF_INPUTS_HARD
                                                                            : CT_REF_INPUTS_RANDOM}};
    return run_case(ke, cfg, &cs);
}

/* ---- registered kernels: sweeps ---------------------------------------------------------- */

static int skip_line(const char *kname, const char *config, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int skip_line(const char *kname, const char *config, const char *fmt, ...)
{
    run_result r = {.kernel = kname, .verdict = "SKIP"};
    snprintf(r.config, sizeof r.config, "%s", config);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r.detail, sizeof r.detail, fmt, ap);
    va_end(ap);
    print_result(&r);
    return 0;
}

/* "N:BLOCK_SIZE" into the dimension and the block's constexpr ("" when none) */
static bool parse_sweep(const char *s, char *dim, size_t dcap, char *blk, size_t bcap)
{
    const char *colon = strchr(s, ':');
    size_t dl = colon ? (size_t)(colon - s) : strlen(s);
    if (!dl || dl >= dcap || (colon && (!colon[1] || strlen(colon + 1) >= bcap)))
        return false;
    snprintf(dim, dcap, "%.*s", (int)dl, s);
    snprintf(blk, bcap, "%s", colon ? colon + 1 : "");
    return true;
}

/* The sizes the guidelines name around a block b of kernel ke (b 0: no block). */
static int run_sweep_sizes(int64_t b, const int64_t *blocks, int nblocks, int64_t *out, int cap)
{
    int64_t cand[5];
    int nc = 0;
    if (b > 0) {
        cand[nc++] = 1;
        cand[nc++] = b - 1;
        cand[nc++] = b;
        cand[nc++] = b + 1;
        /* past two blocks, a multiple of none of the configs' blocks (nor of 16) */
        int64_t odd = 2 * b + b / 2 + 1;
        for (bool again = true; again;) {
            again = odd % 16 == 0;
            for (int i = 0; i < nblocks; i++)
                again |= blocks[i] > 1 && odd % blocks[i] == 0;
            odd += again;
        }
        cand[nc++] = odd;
    } else {
        cand[nc++] = 1;
        cand[nc++] = 2;
        cand[nc++] = 17;
    }
    int n = 0;
    for (int i = 0; i < nc; i++) {
        bool dup = cand[i] < 1;
        for (int j = 0; j < n && !dup; j++)
            dup = out[j] == cand[i];
        if (!dup && n < cap)
            out[n++] = cand[i];
    }
    return n;
}

/* Buffers at two sizes fitted linearly: the largest size at which no buffer has more than
 * 2^31 elements (every element offset fits in int32) and the bytes a size needs (the
 * buffers, and the reference's copies of the outputs).  False with why in err. */
static bool fit_limit(const ct_kernel_entry *ke, const tl_config *cfg, const char *dim, int64_t s1,
                      int64_t *limit, double *bytes_a, double *bytes_b, char *err, size_t cap)
{
    int64_t s2 = 2 * s1;
    ct_ref_case c1, c2;
    ct_ref_opts r1 = {dim, s1, CT_REF_INPUTS_RANDOM}, r2 = {dim, s2, CT_REF_INPUTS_RANDOM};
    bool ok1 = ct_ref_case_init_ex(&c1, ke->ref, cfg, o.seed, &r1);
    bool ok2 = ok1 && ct_ref_case_init_ex(&c2, ke->ref, cfg, o.seed, &r2);
    bool ok = false;
    if (!ok1 || !ok2) {
        snprintf(err, cap, "the reference refuses %s=%lld: %s", dim, (long long)(ok1 ? s2 : s1),
                 ok1 ? c2.err : c1.err);
        goto out;
    }
    if (c1.nargs != c2.nargs) {
        snprintf(err, cap, "the reference makes other arguments at %s=%lld and %lld", dim,
                 (long long)s1, (long long)s2);
        goto out;
    }
    double lim = -1, ba = 0, bb = 0;
    for (int j = 0; j < c1.nargs; j++) {
        const ct_ref_arg *a = &c1.args[j], *b = &c2.args[j];
        if (a->kind != CT_REF_BUF)
            continue;
        double slope = (double)(b->n - a->n) / (double)(s2 - s1), icpt = (double)a->n - slope * (double)s1;
        double per = (double)ct_emu_dtype_size(a->dtype) * (a->want ? 2 : 1);
        ba += slope * per;
        bb += icpt * per;
        if (slope > 0) {
            double l = floor((2147483648.0 - icpt) / slope);
            if (lim < 0 || l < lim)
                lim = l;
        }
    }
    if (lim < 0) {
        snprintf(err, cap, "no buffer grows with %s", dim);
        goto out;
    }
    *limit = (int64_t)lim;
    *bytes_a = ba;
    *bytes_b = bb;
    ok = true;
out:
    if (ok1)
        ct_ref_case_free(&c1);
    if (ok2)
        ct_ref_case_free(&c2);
    return ok;
}

/* every size of a config's sweep; returns the failures */
static int sweep_config(const ct_kernel_entry *ke, const tl_config *cfg, int *runs)
{
    const char *kname = ke->def->name;
    const ct_kernel_ref *ref = ke->ref;
    if (!ref)
        return run_config(ke, cfg); /* NO REFERENCE */
    if (!ref->sweep) {
        skip_line(kname, cfg->name, "the reference names no dimension to sweep (.sweep in ct_kernel_ref)");
        return 0;
    }
    char dim[64], blk[64];
    if (!parse_sweep(ref->sweep, dim, sizeof dim, blk, sizeof blk)) {
        run_result r = {.kernel = kname, .verdict = "SWEEP FAILED"};
        snprintf(r.config, sizeof r.config, "%s", cfg->name);
        snprintf(r.detail, sizeof r.detail, "the reference's .sweep \"%s\" is not DIM or DIM:BLOCK",
                 ref->sweep);
        print_result(&r);
        return 1;
    }
    ct_ref_case probe = {.cfg = cfg};
    int64_t b = 0, blocks[64];
    int nblocks = 0;
    if (*blk) {
        b = ct_ref_constexpr(&probe, blk, 0);
        if (b < 1) {
            run_result r = {.kernel = kname, .verdict = "SWEEP FAILED"};
            snprintf(r.config, sizeof r.config, "%s", cfg->name);
            snprintf(r.detail, sizeof r.detail,
                     "the reference sweeps %s around the constexpr %s, which the config does not set",
                     dim, blk);
            print_result(&r);
            return 1;
        }
        for (int i = 0; i < ke->nconfigs && nblocks < 64; i++) {
            ct_ref_case pc = {.cfg = &ke->configs[i]};
            blocks[nblocks++] = ct_ref_constexpr(&pc, blk, 0);
        }
    }
    /* the config's own integers: what each size's specialization moves from */
    ct_ref_case base;
    int_vals iv;
    if (!ct_ref_case_init(&base, ref, cfg, o.seed)) {
        run_result r = {.kernel = kname, .verdict = "SETUP FAILED"};
        snprintf(r.config, sizeof r.config, "%s", cfg->name);
        snprintf(r.detail, sizeof r.detail, "%s", base.err);
        print_result(&r);
        return 1;
    }
    case_ints(&base, &iv); /* the names are setup's string constants: they outlive the case */
    ct_ref_case_free(&base);
    ct_ref_inputs inputs =
        o.inputs && !strcmp(o.inputs, "hard") ? CT_REF_INPUTS_HARD : CT_REF_INPUTS_RANDOM;
    int64_t sizes[8];
    int ns = run_sweep_sizes(b, blocks, nblocks, sizes, 8);
    int fails = 0;
    for (int i = 0; i < ns; i++) {
        case_spec cs = {{dim, sizes[i], inputs}, &iv};
        fails += run_case(ke, cfg, &cs);
        ++*runs;
    }
    if (o.quick)
        return fails;
    /* the int32 limit of the offsets, and one past it */
    int64_t limit;
    double ba, bb;
    char err[512], label[96];
    if (!fit_limit(ke, cfg, dim, b > 0 ? b : 16, &limit, &ba, &bb, err, sizeof err)) {
        snprintf(label, sizeof label, "%s %s=int32", cfg->name, dim);
        skip_line(kname, label, "no int32-limit size: %s", err);
        return fails;
    }
    for (int64_t s = limit; s <= limit + 1; s++) {
        double need = (ba * (double)s + bb) / 1073741824.0;
        snprintf(label, sizeof label, "%s %s=%lld", cfg->name, dim, (long long)s);
        if (need > o.max_mem) {
            skip_line(kname, label, "%s: its buffers need %.1f GiB (--max-mem %g)",
                      s == limit ? "the largest size whose offsets fit in int32" : "one past the int32 limit",
                      need, o.max_mem);
            continue;
        }
        case_spec cs = {{dim, s, inputs}, &iv};
        fails += run_case(ke, cfg, &cs);
        ++*runs;
    }
    return fails;
}

static int run_one(const ct_kernel_entry *k, const tl_config *cfg, int *passes, int *fails)
{
    if (o.sweep) {
        int runs = 0, lines = nresults, skipped = nskipped, f = sweep_config(k, cfg, &runs);
        *fails += f;
        *passes += (nresults - lines) - (nskipped - skipped) - f;
        return f;
    }
    int f = run_config(k, cfg);
    *fails += f;
    *passes += !f;
    return f;
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
            for (int c = 0; c < k->nconfigs; c++)
                run_one(k, &k->configs[c], &passes, &fails);
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
            run_one(k, &k->configs[c], &passes, &fails);
        }
    }
    if (o.json)
        printf("\n], \"passed\": %d, \"failed\": %d, \"skipped\": %d}\n", passes, fails, nskipped);
    else if (nskipped)
        printf("%d passed, %d failed, %d skipped\n", passes, fails, nskipped);
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

/* ---- TTIR files: sizes and sweeps ------------------------------------------------- */

/* --size: the fixed sizes (vars) and the swept one (its index, its sizes); -1: none */
typedef struct ttir_sizes {
    sx_vars vars;
    int swept;
    int64_t block;       /* NAME:BLOCK, else 0 */
    int64_t list[64];    /* NAME=V1,V2,...  */
    int nlist;
} ttir_sizes;

static int parse_sizes(ttir_sizes *ts)
{
    memset(ts, 0, sizeof *ts);
    ts->swept = -1;
    char err[512];
    for (int i = 0; i < o.sizelist.n; i++) {
        const char *s = o.sizes[i], *eq = strchr(s, '='), *colon = strchr(s, ':');
        const char *sep = eq && (!colon || eq < colon) ? eq : colon;
        size_t nl = sep ? (size_t)(sep - s) : 0;
        bool ok_name = nl > 0 && nl < sizeof ts->vars.name[0] && !isdigit((unsigned char)s[0]);
        for (size_t j = 0; ok_name && j < nl; j++)
            ok_name = isalnum((unsigned char)s[j]) || s[j] == '_';
        if (!ok_name)
            return cli_fail(2, "run: --size `%s` is not NAME=V, NAME=V1,V2,... or NAME:BLOCK", s);
        for (int j = 0; j < ts->vars.n; j++)
            if (strlen(ts->vars.name[j]) == nl && !strncmp(ts->vars.name[j], s, nl))
                return cli_fail(2, "run: --size: `%.*s` is given twice", (int)nl, s);
        int k = ts->vars.n++;
        snprintf(ts->vars.name[k], sizeof ts->vars.name[k], "%.*s", (int)nl, s);
        bool list = sep == eq && strchr(sep + 1, ',');
        if (sep == colon || list) {
            if (ts->swept >= 0)
                return cli_fail(2, "run: --size: one size is swept, not both `%s` and `%s`",
                                ts->vars.name[ts->swept], ts->vars.name[k]);
            ts->swept = k;
        }
        int64_t v;
        if (sep == colon) {
            if (!sx_eval(sep + 1, &ts->vars, &v, err, sizeof err) || v < 1)
                return cli_fail(2, "run: --size %s: the block must be a positive size%s%s", s,
                                *err ? ": " : "", err);
            ts->block = v;
            ts->vars.v[k] = v;
        } else if (list) {
            for (const char *p = sep + 1; *p;) {
                const char *e = strchr(p, ',');
                char one[128];
                snprintf(one, sizeof one, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
                if (ts->nlist == 64)
                    return cli_fail(2, "run: --size %s: more than 64 sizes", s);
                if (!sx_eval(one, &ts->vars, &ts->list[ts->nlist++], err, sizeof err))
                    return cli_fail(2, "run: --size %s: %s", s, err);
                p = e ? e + 1 : p + strlen(p);
            }
            ts->vars.v[k] = ts->list[0];
        } else {
            if (!sx_eval(sep + 1, &ts->vars, &v, err, sizeof err))
                return cli_fail(2, "run: --size %s: %s", s, err);
            ts->vars.v[k] = v;
        }
    }
    if (ts->swept >= 0 && !o.sweep)
        return cli_fail(2, "run: --size %s sweeps %s: add --sweep", o.sizes[ts->swept],
                        ts->vars.name[ts->swept]);
    if (o.sweep && ts->swept < 0)
        return cli_fail(2, "run: --sweep --ttir sweeps a size: give --size NAME:BLOCK or NAME=V1,V2,...");
    return 0;
}

/* the specs with the sizes' values; false with why (which --arg) in err */
static bool subst_all(const sx_vars *v, char (*args)[512], char *grid, size_t gcap, char *err,
                      size_t cap)
{
    char e[512];
    for (int i = 0; i < o.arglist.n; i++)
        if (!sx_subst_arg(o.args[i], v, args[i], sizeof args[i], e, sizeof e)) {
            snprintf(err, cap, "--arg %d: %s", i, e);
            return false;
        }
    if (o.grid && !sx_subst_grid(o.grid, v, grid, gcap, e, sizeof e)) {
        snprintf(err, cap, "--grid: %s", e);
        return false;
    }
    if (!o.grid)
        snprintf(grid, gcap, "1");
    return true;
}

/* elements and bytes of the buffers at the sizes v; false if a spec does not evaluate */
static bool ttir_buffers(const sx_vars *v, long long *maxn, double *bytes)
{
    static char args[MAX_ARGS][512];
    char grid[128], err[512];
    if (!subst_all(v, args, grid, sizeof grid, err, sizeof err))
        return false;
    *maxn = 0;
    *bytes = 0;
    for (int i = 0; i < o.arglist.n; i++) {
        cli_arg a;
        if (!cli_arg_parse(args[i], &a, err, sizeof err))
            return false;
        if (a.kind == CLI_ARG_BUF) {
            *maxn = a.n > *maxn ? a.n : *maxn;
            *bytes += (double)a.bytes;
        }
    }
    return true;
}

/* one size of a TTIR sweep: 0 pass or skip, 1 fail */
static int ttir_case(ct_emu_kernel *k, const ttir_sizes *ts, int64_t size)
{
    sx_vars v = ts->vars;
    v.v[ts->swept] = size;
    static char specs[MAX_ARGS][512];
    char gridtxt[128], err[1024];
    const char *kname = ct_emu_kernel_name(k);
    char label[96];
    snprintf(label, sizeof label, "%s=%lld", v.name[ts->swept], (long long)size);
    run_result r = {.kernel = kname, .verdict = "FAIL", .ref_ms = -1};
    snprintf(r.config, sizeof r.config, "%s", label);
    if (!subst_all(&v, specs, gridtxt, sizeof gridtxt, err, sizeof err)) {
        r.verdict = "SKIP";
        snprintf(r.detail, sizeof r.detail, "%s", err);
        print_result(&r);
        return 0;
    }
    int grid[3];
    if (!cli_parse_grid(gridtxt, grid)) {
        snprintf(r.detail, sizeof r.detail, "the grid %s is not X[,Y,Z]", gridtxt);
        print_result(&r);
        return 1;
    }
    int np = ct_emu_kernel_nparams(k);
    cli_arg args[MAX_ARGS];
    memset(args, 0, sizeof args);
    for (int i = 0; i < np; i++)
        if (!cli_arg_parse(specs[i], &args[i], err, sizeof err)) {
            snprintf(r.detail, sizeof r.detail, "--arg %d (`%.400s`): %.1000s", i, specs[i], err);
            print_result(&r);
            return 1;
        }
    /* a size the TTIR's specialization excludes is not the kernel's to handle */
    for (int i = 0; i < np; i++) {
        const ct_emu_param *p = ct_emu_kernel_param(k, i);
        if (p->kind != CT_EMU_PARAM_INT || args[i].kind != CLI_ARG_INT)
            continue;
        const char *why = NULL;
        char wb[160];
        if (p->divisibility > 1 && args[i].i % p->divisibility) {
            snprintf(wb, sizeof wb, "tt.divisibility = %d", p->divisibility);
            why = wb;
        } else if (p->bits == 32 && (args[i].i > INT32_MAX || args[i].i < INT32_MIN)) {
            why = "it is i32 there (Triton makes an i64 of a larger value)";
        }
        if (why) {
            r.verdict = "SKIP";
            snprintf(r.detail, sizeof r.detail,
                     "`%s` = %lld, which this TTIR's specialization excludes (%s): lower the kernel "
                     "for it", p->name, args[i].i, why);
            print_result(&r);
            return 0;
        }
    }
    ct_emu *e = ct_emu_new();
    ct_emu_arg eargs[MAX_ARGS];
    uint64_t rng = o.seed ^ 0x6a09e667f3bcc909ull;
    int rc = 1;
    for (int i = 0; i < np; i++) {
        cli_arg *a = &args[i];
        if (!cli_arg_load(a, &rng, err, sizeof err)) {
            snprintf(r.detail, sizeof r.detail, "--arg %d: %s", i, err);
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
                snprintf(r.detail, sizeof r.detail, "--arg %d: %s", i, ct_emu_error(e));
                goto out;
            }
            eargs[i] = ct_emu_ptr(id);
        }
    }
    ct_emu_launch l = {{grid[0], grid[1], grid[2]}, o.threads, 0, NULL, steps_budget()};
    ct_emu_result res;
    ct_emu_run(e, k, &l, np, eargs, &res);
    memcpy(r.grid, grid, sizeof r.grid);
    r.ran = true;
    r.emu_ms = 1e3 * res.seconds;
    r.threads = res.threads;
    if (res.status != CT_EMU_OK) {
        r.verdict = "CRASH";
        snprintf(r.detail, sizeof r.detail, "%s", res.fault.message);
        goto out;
    }
    rc = 0;
    for (int i = 0; i < np; i++) {
        ct_emu_report rep;
        if (args[i].kind != CLI_ARG_BUF || args[i].access != CT_EMU_OUT ||
            ct_emu_buffer_report(e, eargs[i].buffer, &rep))
            continue;
        size_t len = strlen(r.detail);
        snprintf(r.detail + len, sizeof r.detail - len, "%sarg%d: %lld of %lld unwritten", len ? "; " : "",
                 i, (long long)rep.unwritten, (long long)rep.elems);
        rc |= rep.unwritten > 0;
    }
    r.verdict = rc ? "FAIL" : "PASS";
out:
    print_result(&r);
    for (int i = 0; i < np; i++)
        cli_arg_free(&args[i]);
    ct_emu_free(e);
    return rc;
}

static int run_ttir_sweep(ct_emu_kernel *k, const ttir_sizes *ts)
{
    int64_t sizes[64];
    int ns;
    if (ts->nlist) {
        ns = ts->nlist;
        memcpy(sizes, ts->list, sizeof sizes[0] * (size_t)ns);
    } else {
        ns = run_sweep_sizes(ts->block, &ts->block, 1, sizes, 8);
    }
    int fails = 0, passes = 0, lines = nresults, skipped = nskipped;
    for (int i = 0; i < ns; i++)
        fails += ttir_case(k, ts, sizes[i]);
    if (!ts->nlist && !o.quick) {
        /* the int32 limit: the largest size at which no buffer has more than 2^31 elements */
        sx_vars v = ts->vars;
        const char *name = v.name[ts->swept];
        long long n;
        double bytes;
        int64_t lo = ts->block, hi = 0;
        v.v[ts->swept] = lo;
        bool ok = ttir_buffers(&v, &n, &bytes) && n <= 2147483648LL;
        for (int64_t t = lo * 2; ok && t <= ((int64_t)1 << 42); t *= 2) {
            v.v[ts->swept] = t;
            if (!ttir_buffers(&v, &n, &bytes))
                break;
            if (n > 2147483648LL) {
                hi = t;
                break;
            }
            lo = t;
        }
        char label[96];
        snprintf(label, sizeof label, "%s=int32", name);
        if (!ok || !hi) {
            skip_line(ct_emu_kernel_name(k), label, "no int32-limit size: %s",
                      ok ? "no buffer grows past 2^31 elements" : "the buffers do not evaluate");
        } else {
            while (hi - lo > 1) { /* lo fits, hi does not */
                int64_t mid = lo + (hi - lo) / 2;
                v.v[ts->swept] = mid;
                if (ttir_buffers(&v, &n, &bytes) && n <= 2147483648LL)
                    lo = mid;
                else
                    hi = mid;
            }
            for (int64_t s = lo; s <= lo + 1; s++) {
                v.v[ts->swept] = s;
                ttir_buffers(&v, &n, &bytes);
                double need = bytes / 1073741824.0;
                snprintf(label, sizeof label, "%s=%lld", name, (long long)s);
                if (need > o.max_mem)
                    skip_line(ct_emu_kernel_name(k), label, "%s: its buffers need %.1f GiB (--max-mem %g)",
                              s == lo ? "the largest size whose offsets fit in int32"
                                      : "one past the int32 limit",
                              need, o.max_mem);
                else
                    fails += ttir_case(k, ts, s);
            }
        }
    }
    passes = (nresults - lines) - (nskipped - skipped) - fails;
    printf("%d passed, %d failed, %d skipped\n", passes, fails, nskipped - skipped);
    return fails ? 1 : 0;
}

static int run_ttir(void)
{
    /* --size: the expressions of --arg and --grid evaluated (a sweep: per size, later) */
    static ttir_sizes ts;
    static char sargs[MAX_ARGS][512], sgrid[128];
    int rc0;
    if (o.sizelist.n && (rc0 = parse_sizes(&ts)))
        return rc0;
    bool sweeping = o.sizelist.n && ts.swept >= 0;
    if (o.sizelist.n && !sweeping) {
        char err[1024];
        if (!subst_all(&ts.vars, sargs, sgrid, sizeof sgrid, err, sizeof err))
            return cli_fail(2, "run: %s", err);
        for (int i = 0; i < o.arglist.n; i++)
            o.args[i] = sargs[i];
        o.grid = sgrid;
    }
    if (sweeping && (o.json || o.dump || o.report))
        return cli_fail(2, "run: a --ttir sweep prints a line per size: no --json, --dump or --report");
    int grid[3] = {1, 1, 1};
    if (!sweeping && o.grid && !cli_parse_grid(o.grid, grid))
        return cli_fail(2, "run: --grid: `%s` is not X[,Y,Z] with each from 1 to 2^31-1", o.grid);
    /* every --arg is checked before anything runs */
    cli_arg args[MAX_ARGS];
    char err[1024] = "";
    for (int i = 0; !sweeping && i < o.arglist.n; i++)
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
    if (sweeping) {
        int rc = run_ttir_sweep(k, &ts);
        ct_emu_kernel_free(k);
        return rc;
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
        printf("%s grid (%d,%d,%d): ran %lld programs in %.2f ms on %d threads",
               ct_emu_kernel_name(k), grid[0], grid[1], grid[2], (long long)res.programs,
               1e3 * res.seconds, res.threads);
        if (res.parks)
            printf(" (%lld waits on other programs parked)", (long long)res.parks);
        printf("\n");
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
    bool ttir_only = o.grid || o.arglist.n || o.func || o.dump || o.num_warps || o.sizelist.n;
    if (o.ttir) {
        if (npos || o.all || o.config || o.dump_case)
            return cli_fail(2, "run: --ttir runs a file: no KERNEL, --all, --config or --dump-case with it");
        if (o.inputs)
            return cli_fail(2, "run --ttir: --inputs needs a kernel's C reference (a KERNEL)");
        if ((o.quick || o.max_mem != 2) && !o.sweep)
            return cli_fail(2, "run: --quick and --max-mem go with --sweep");
        if (o.ttgir && (rc = read_ttgir()))
            return rc;
        return run_ttir();
    }
    if (ttir_only)
        return cli_fail(2, "run: --grid, --arg, --kernel, --num-warps, --dump and --size go with --ttir FILE");
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
    if (o.inputs && strcmp(o.inputs, "random") && strcmp(o.inputs, "hard"))
        return cli_fail(2, "run: --inputs: `%s` is not `random` or `hard`", o.inputs);
    if ((o.quick || o.max_mem != 2) && !o.sweep)
        return cli_fail(2, "run: --quick and --max-mem go with --sweep");
    if (o.sweep && o.dump_case)
        return cli_fail(2, "run: --dump-case writes one case: not with --sweep");
    if (o.ttgir && (rc = read_ttgir()))
        return rc;
    return run_registered();
}
