/*
 * ctriton bench: time a kernel launched from C on the GPU.
 *
 *   ctriton bench KERNEL [--config NAME] [--problem "M=.. N=.."] [--large] [--check]
 *                 [--warmup MS] [--rep MS] [--dump DIR] [--json]
 *       a registered kernel.  ctriton's library kernels run from their launch
 *       recipes (kernels/launch/launch_recipes.c: inputs from the config's
 *       problem sizes, or --problem, or --large, bytes and flops, dumps for
 *       bench/launch_py.py); any other kernel with a C reference (a plugin's)
 *       runs on the reference's inputs (ctriton/ref.h), and --check compares
 *       its outputs with the reference.
 *   ctriton bench --ttir FILE --grid X[,Y,Z] --arg SPEC... [--num-warps N] ...
 *       the kernel of a TTIR file (a kernel written in Python), lowered
 *       through Triton for this GPU, its arguments as `run --ttir` takes them
 *       (an @FILE output gets the GPU's result).
 *   ctriton bench KERNEL --sweep DIM=a:b [--svg FILE] ...
 *       the kernel at each size of DIM from a to b (doubling; a:b:K multiplies by K;
 *       s1,s2,... lists them), decode to prefill: per size the first launch (lowering
 *       or the disk cache, loading, one run; the lowering's own time) apart from the
 *       steady state, as a table, --json, and an SVG plot (bench_sweep.c).
 * Times with do_bench (L2 flushed before each run): the median with the
 * 20th-80th percentiles, and GB/s (the buffers' bytes) or TFLOP/s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "argspec.h"
#include "bench_sweep.h"
#include "cli.h"
#include "ctriton/compile.h"
#include "ctriton/float.h"
#include "ctriton/launch.h"
#include "ctriton/check.h"
#include "ctriton/text.h"
#include "kernels.h"
#include "launch_recipes.h"

#define MAX_ARGS 64

static const char *config, *problem, *dump, *ttir, *func, *grid_s, *sweep_s, *svg;
static bool large, check, json;
static double warmup = 25, rep = 100;
static int num_warps, num_stages;
static const char *argv_args[MAX_ARGS];
static cli_list arglist = {argv_args, 0, MAX_ARGS};
static uint64_t seed = 1234;
static const char *pos[1];
static int npos;

static const cli_opt opts[] = {
    {"config", 0, CLI_STR, &config, "NAME", "the config (default: the first)", 0, 0, NULL},
    {"problem", 0, CLI_STR, &problem, "SIZES", "library kernels: sizes other than the config's: \"M=4096 N=4096\"", 0, 0, NULL},
    {"large", 0, CLI_FLAG, &large, NULL, "library kernels: the recipe's timing problem", 0, 0, NULL},
    {"check", 0, CLI_FLAG, &check, NULL, "compare the outputs with the C reference", 0, 0, NULL},
    {"warmup", 0, CLI_DOUBLE, &warmup, "MS", "do_bench's warm-up budget (default 25)", 0, 1e6, NULL},
    {"rep", 0, CLI_DOUBLE, &rep, "MS", "do_bench's measuring budget (default 100)", 0.001, 1e6, NULL},
    {"dump", 0, CLI_STR, &dump, "DIR", "library kernels: inputs and outputs for bench/launch_py.py", 0, 0, NULL},
    {"seed", 0, CLI_U64, &seed, "N", "plugin kernels and --ttir: the inputs' seed (default 1234)", 0, 0, NULL},
    {"ttir", 0, CLI_STR, &ttir, "FILE", "the kernel of a TTIR file instead (with --grid, --arg)", 0, 0, NULL},
    {"kernel", 0, CLI_STR, &func, "NAME", "--ttir: the function (default: the public one)", 0, 0, NULL},
    {"grid", 0, CLI_STR, &grid_s, "X[,Y,Z]", "--ttir: the grid (default 1)", 0, 0, NULL},
    {"arg", 0, CLI_LIST, &arglist, "SPEC", "--ttir: the next argument, as `ctriton run --help` says", 0, 0, NULL},
    {"num-warps", 0, CLI_FN, &num_warps, "N", "--ttir: num_warps (default 4)", 0, 0, cli_num_warps},
    {"num-stages", 0, CLI_INT, &num_stages, "N", "--ttir: num_stages (default 3)", 1, 16, NULL},
    {"sweep", 0, CLI_STR, &sweep_s, "DIM=a:b",
     "the problem size DIM from a to b, doubling (a:b:K: times K; s1,s2,...: these)", 0, 0, NULL},
    {"svg", 0, CLI_STR, &svg, "FILE", "--sweep: a plot of the times against the size", 0, 0, NULL},
    {"json", 0, CLI_FLAG, &json, NULL, "one JSON object", 0, 0, NULL},
    CLI_OPT_KERNELS,
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

const cli_spec bench_spec = {
    "bench", "KERNEL [--config NAME] [--problem SIZES | --large] [--check] | --ttir FILE --grid G --arg SPEC...",
    "time a kernel launched from C on the GPU: ms, GB/s or TFLOP/s (needs an NVIDIA GPU)",
    "--sweep DIM=a:b runs the kernel at each size of the problem's DIM (\"M=1:8192\": 1, 2, 4,\n"
    "... 8192, decode to prefill), each with a new ct_kernel: its first launch (lowering, or\n"
    "the disk cache, then loading and one run; the lowering's own ms) is reported apart\n"
    "from the steady state (do_bench), in a table (or --json) and with --svg FILE a plot.\n",
    opts, pos, 1, &npos, "KERNEL",
};

/* ---- the report ---------------------------------------------------------------- */

static void report(const char *what, const char *prob, const char *sig, const ct_bench_result *br,
                   double bytes, double flops, const char *checked, const char *msg)
{
    double gbs = bytes / (br->median_ms * 1e-3) / 1e9;
    double tflops = flops / (br->median_ms * 1e-3) / 1e12;
    if (json) {
        printf("{\"kernel\": ");
        cli_json_str(stdout, what);
        printf(", \"problem\": ");
        cli_json_str(stdout, prob);
        printf(", \"signature\": ");
        cli_json_str(stdout, sig);
        printf(", \"median_ms\": %.6f, \"p20_ms\": %.6f, \"p80_ms\": %.6f, \"reps\": %d, "
               "\"gbs\": %.2f, \"tflops\": %.3f, \"check\": \"%s\"}\n",
               br->median_ms, br->p20_ms, br->p80_ms, br->reps, gbs, tflops, checked);
        return;
    }
    printf("%s  %s\n  signature  %s\n", what, prob, sig);
    printf("  time       %.4f ms median (p20 %.4f, p80 %.4f, %d runs)\n", br->median_ms, br->p20_ms,
           br->p80_ms, br->reps);
    if (flops > 0)
        printf("  compute    %.1f TFLOP/s\n", tflops);
    printf("  memory     %.1f GB/s\n", gbs);
    if (strcmp(checked, "not run"))
        printf("  check      %s: %s\n", checked, msg);
}

/* ---- library kernels: launch recipes ----------------------------------------------- */

static ct_status recipe_once(void *ud, ct_stream s) { return lr_launch(ud, s); }

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* what a sweep's first launch did: lowered (and how long) or found in the disk cache */
static void first_launch_stats(const ct_kernel *k, bs_point *pt)
{
    ct_kernel_stats st;
    ct_kernel_get_stats(k, &st);
    pt->lowered = st.lowered > 0;
    pt->compile_ms = pt->lowered ? st.last_compile_ms : 0;
}

/* one size of a library kernel's sweep, from its recipe */
static int recipe_point(const ct_kernel_entry *k, const tl_config *cfg, const char *prob,
                        bs_point *pt, bool *check_ok)
{
    const char *kname = k->def->name;
    lr_run r;
    ct_status s = lr_prepare(&r, k, cfg, prob, 0);
    double t0 = now_ms();
    if (s == CT_OK)
        s = lr_launch(&r, NULL);
    if (s == CT_OK)
        s = ct_stream_sync(NULL);
    pt->first_ms = now_ms() - t0;
    if (s == CT_OK)
        s = lr_fetch(&r);
    if (s != CT_OK) {
        lr_free(&r);
        return cli_fail(1, "bench %s/%s at %s: %s", kname, cfg->name, prob, ct_errmsg());
    }
    first_launch_stats(r.k, pt);
    char msg[1024] = "";
    if (check && lr_check(&r, msg, sizeof msg) != CT_OK) {
        fprintf(stderr, "ctriton: bench %s/%s at %s: check FAILED: %s\n", kname, cfg->name, prob, msg);
        *check_ok = false;
    }
    ct_bench_opts bo = {.warmup_ms = warmup, .rep_ms = rep};
    ct_bench_result br;
    if ((s = ct_do_bench(recipe_once, &r, &bo, &br)) != CT_OK) {
        lr_free(&r);
        return cli_fail(1, "bench %s/%s at %s: %s", kname, cfg->name, prob, ct_errmsg());
    }
    pt->grid[0] = r.grid.x, pt->grid[1] = r.grid.y, pt->grid[2] = r.grid.z;
    pt->median_ms = br.median_ms, pt->p20_ms = br.p20_ms, pt->p80_ms = br.p80_ms;
    pt->gbs = r.bytes / (br.median_ms * 1e-3) / 1e9;
    pt->tflops = r.flops / (br.median_ms * 1e-3) / 1e12;
    lr_free(&r);
    return 0;
}

static int bench_recipe(const ct_kernel_entry *k, const tl_config *cfg)
{
    const char *kname = k->def->name;
    if (large && !problem && !(problem = lr_bench_problem(kname, cfg->name)))
        return cli_fail(1, "bench: no large problem is known for %s/%s: give --problem", kname,
                        cfg->name);
    if (ct_cuda_init() != CT_OK)
        return cli_fail(1, "bench needs a GPU: %s", ct_errmsg());
    lr_run r;
    ct_status s = lr_prepare(&r, k, cfg, problem, 0);
    if (s == CT_OK)
        s = lr_launch(&r, NULL); /* compiles (or finds in the cache) and loads */
    if (s == CT_OK)
        s = lr_fetch(&r);
    if (s != CT_OK) {
        lr_free(&r);
        return cli_fail(1, "bench %s/%s: %s", kname, cfg->name, ct_errmsg());
    }
    char msg[1024] = "";
    ct_status cs = check ? lr_check(&r, msg, sizeof msg) : CT_OK;
    if (dump && lr_dump(&r, dump, NULL, true) != CT_OK)
        fprintf(stderr, "ctriton: %s\n", ct_errmsg());
    ct_bench_opts bo = {.warmup_ms = warmup, .rep_ms = rep};
    ct_bench_result br;
    if ((s = ct_do_bench(recipe_once, &r, &bo, &br)) != CT_OK) {
        lr_free(&r);
        return cli_fail(1, "bench %s/%s: %s", kname, cfg->name, ct_errmsg());
    }
    char sig[2048], what[512];
    lr_signature(&r, sig, sizeof sig);
    snprintf(what, sizeof what, "%s/%s", kname, cfg->name);
    report(what, r.problem, sig, &br, r.bytes, r.flops,
           check ? (cs == CT_OK ? "ok" : "FAILED") : "not run", msg);
    lr_free(&r);
    return cs == CT_OK ? 0 : 1;
}

/* ---- other registered kernels: their C reference's case ------------------------------ */

static tl_scalar scalar_of(ct_emu_dtype t)
{
    static const tl_scalar map[] = {
        [CT_EMU_BYTES] = TL_UINT8, [CT_EMU_I1] = TL_INT1,     [CT_EMU_I8] = TL_INT8,
        [CT_EMU_I16] = TL_INT16,   [CT_EMU_I32] = TL_INT32,   [CT_EMU_I64] = TL_INT64,
        [CT_EMU_U8] = TL_UINT8,    [CT_EMU_U16] = TL_UINT16,  [CT_EMU_U32] = TL_UINT32,
        [CT_EMU_U64] = TL_UINT64,  [CT_EMU_F16] = TL_FP16,    [CT_EMU_BF16] = TL_BF16,
        [CT_EMU_F32] = TL_FP32,    [CT_EMU_F64] = TL_FP64,    [CT_EMU_F8E4NV] = TL_FP8E4NV,
        [CT_EMU_F8E5] = TL_FP8E5,  [CT_EMU_F8E4B8] = TL_FP8E4B8, [CT_EMU_F8E5B16] = TL_FP8E5B16,
    };
    return (unsigned)t < sizeof map / sizeof map[0] ? map[t] : TL_UINT8;
}

typedef struct ref_run {
    ct_kernel *k;
    ct_dim3 grid;
    ct_arg args[CT_REF_MAX_ARGS];
    int nargs;
} ref_run;

static ct_status ref_once(void *ud, ct_stream s)
{
    ref_run *r = ud;
    return ct_launch(r->k, r->grid, s, r->args, r->nargs);
}

/* a kernel on its reference's case; with pt, one size of a sweep (ro: the size), measured
 * into pt rather than reported */
static int bench_ref(const ct_kernel_entry *k, const tl_config *cfg, const ct_ref_opts *ro,
                     bs_point *pt, bool *check_ok)
{
    const char *kname = k->def->name;
    if (problem || large || dump)
        return cli_fail(2, "bench: --problem, --large and --dump need a launch recipe; %s runs on "
                           "its reference's case (the config's problem)",
                        kname);
    ct_ref_case c;
    if (!ct_ref_case_init_ex(&c, k->ref, cfg, seed, ro)) {
        int rc = cli_fail(1, "bench %s/%s: the reference's setup failed: %s", kname, cfg->name, c.err);
        ct_ref_case_free(&c);
        return rc;
    }
    k->ref->reference(&c); /* before the inputs are touched: the host copies stay as they are */
    ref_run r = {.grid = {(unsigned)c.grid[0], (unsigned)c.grid[1], (unsigned)c.grid[2]}};
    ct_devptr dev[CT_REF_MAX_ARGS] = {0};
    double bytes = 0;
    int rc = 1;
    char msg[2048] = "";
    const char *checked = "not run";
    if (ct_cuda_init() != CT_OK) {
        cli_fail(1, "bench needs a GPU: %s", ct_errmsg());
        goto out;
    }
    ct_kernel_opts ko = {.constexprs = cfg->constexprs, .num_warps = cfg->num_warps,
                         .num_stages = cfg->num_stages};
    if (ct_kernel_new(k->def, &ko, &r.k) != CT_OK) {
        cli_fail(1, "bench %s: %s", kname, ct_errmsg());
        goto out;
    }
    /* the kernel's parameters in order, by name from the reference's case */
    for (int p = 0; p < k->def->nparams; p++) {
        ct_ref_arg *a = ct_ref_find_arg(&c, k->def->params[p]);
        if (!a) {
            cli_fail(1, "bench %s/%s: the reference gives no argument `%s`", kname, cfg->name,
                     k->def->params[p]);
            goto out;
        }
        if (a->kind == CT_REF_INT) {
            r.args[r.nargs++] = ct_int(a->i);
        } else if (a->kind == CT_REF_FLOAT) {
            r.args[r.nargs++] = ct_float(a->f);
        } else {
            int j = (int)(a - c.args);
            size_t nb = (size_t)a->n * ct_emu_dtype_size(a->dtype);
            if (ct_mem_alloc(&dev[j], nb ? nb : 1) != CT_OK) {
                cli_fail(1, "bench %s: %s", kname, ct_errmsg());
                goto out;
            }
            if (a->access == CT_EMU_OUT) {
                void *poison = malloc(nb ? nb : 1);
                if (poison)
                    memset(poison, ct_emu_poison_byte(a->dtype), nb);
                ct_status s = poison ? ct_mem_upload(dev[j], poison, nb) : CT_ERR_NOMEM;
                free(poison);
                if (s != CT_OK) {
                    cli_fail(1, "bench %s: cannot prepare `%s`", kname, a->name);
                    goto out;
                }
            } else if (ct_mem_upload(dev[j], a->data, nb) != CT_OK) {
                cli_fail(1, "bench %s: %s", kname, ct_errmsg());
                goto out;
            }
            bytes += (double)nb * (a->access == CT_EMU_INOUT ? 2 : 1);
            r.args[r.nargs++] = (ct_arg){.kind = CT_ARG_PTR, .type = scalar_of(a->dtype), .v.p = dev[j]};
        }
    }
    /* one launch, checked, then the timing */
    double t0 = now_ms();
    if (ref_once(&r, NULL) != CT_OK || ct_stream_sync(NULL) != CT_OK) {
        cli_fail(1, "bench %s/%s: %s", kname, cfg->name, ct_errmsg());
        goto out;
    }
    if (pt) {
        pt->first_ms = now_ms() - t0;
        first_launch_stats(r.k, pt);
    }
    bool ok = true;
    if (check) {
        for (int j = 0; j < c.nargs; j++) {
            ct_ref_arg *a = &c.args[j];
            if (a->kind != CT_REF_BUF || !a->want)
                continue;
            size_t nb = (size_t)a->n * ct_emu_dtype_size(a->dtype);
            void *got = malloc(nb ? nb : 1);
            ct_emu_check chk;
            if (!got || ct_mem_download(got, dev[j], nb) != CT_OK) {
                free(got);
                cli_fail(1, "bench %s: cannot read `%s` back", kname, a->name);
                goto out;
            }
            ct_emu_compare(a->dtype, got, a->n, a->want, a->n, a->rtol, a->atol, true, &chk);
            free(got);
            ok &= chk.verdict == CT_EMU_PASS;
            size_t len = strlen(msg);
            snprintf(msg + len, sizeof msg - len, "%s%s: %s", len ? "; " : "", a->name, chk.message);
        }
        checked = ok ? "ok" : "FAILED";
        if (!ok && pt) {
            fprintf(stderr, "ctriton: bench %s/%s at %s=%lld: check FAILED: %s\n", kname, cfg->name,
                    ro->size_name, (long long)ro->size, msg);
            *check_ok = false;
        }
    }
    ct_bench_opts bo = {.warmup_ms = warmup, .rep_ms = rep};
    ct_bench_result br;
    if (ct_do_bench(ref_once, &r, &bo, &br) != CT_OK) {
        cli_fail(1, "bench %s/%s: %s", kname, cfg->name, ct_errmsg());
        goto out;
    }
    if (pt) {
        memcpy(pt->grid, &r.grid, sizeof pt->grid);
        pt->median_ms = br.median_ms, pt->p20_ms = br.p20_ms, pt->p80_ms = br.p80_ms;
        pt->gbs = bytes / (br.median_ms * 1e-3) / 1e9;
        pt->tflops = 0;
        rc = 0;
        goto out;
    }
    uint8_t codes[CT_SPEC_CODES_MAX];
    char sig[2048] = "", what[512];
    if (ct_spec_codes(r.args, r.nargs, NULL, k->def->params, codes) == CT_OK)
        ct_spec_signature(codes, r.nargs, k->def->params, sig, sizeof sig);
    snprintf(what, sizeof what, "%s/%s", kname, cfg->name);
    report(what, cfg->problem ? cfg->problem : "", sig, &br, bytes, 0, checked, msg);
    rc = ok ? 0 : 1;
out:
    for (int j = 0; j < CT_REF_MAX_ARGS; j++)
        if (dev[j])
            ct_mem_free(dev[j]);
    ct_kernel_free(r.k);
    ct_ref_case_free(&c);
    return rc;
}

/* ---- TTIR files ------------------------------------------------------------------- */

typedef struct ttir_run {
    ct_loaded l;
    unsigned grid[3];
    void *params[MAX_ARGS + 2];
    int n;
} ttir_run;

static ct_status ttir_once(void *ud, ct_stream s)
{
    ttir_run *r = ud;
    return ct_launch_packed(&r->l, r->grid, s, r->params, r->n);
}

/* The slot of a scalar argument in its parameter's type (what Triton's launcher packs). */
static bool pack_scalar(const ct_ttir_param *p, const cli_arg *a, uint64_t *slot, char *err, size_t cap)
{
    *slot = 0;
    bool is_int = p->type >= TL_INT1 && p->type <= TL_UINT64;
    if (is_int && a->kind != CLI_ARG_INT) {
        snprintf(err, cap, "`%s` is an integer parameter", p->name);
        return false;
    }
    if (!is_int && a->kind != CLI_ARG_FLOAT && a->kind != CLI_ARG_INT) {
        snprintf(err, cap, "`%s` is a float parameter", p->name);
        return false;
    }
    if (is_int && p->div16 && a->i % 16) {
        snprintf(err, cap, "`%s` = %lld: the TTIR was specialized for a multiple of 16", p->name, a->i);
        return false;
    }
    double f = a->kind == CLI_ARG_INT ? (double)a->i : a->f;
    switch (p->type) {
    case TL_INT1: *(uint8_t *)slot = a->i != 0; break;
    case TL_INT8: case TL_UINT8: *(uint8_t *)slot = (uint8_t)a->i; break;
    case TL_INT16: case TL_UINT16: *(uint16_t *)slot = (uint16_t)a->i; break;
    case TL_INT32: case TL_UINT32: *(uint32_t *)slot = (uint32_t)a->i; break;
    case TL_INT64: case TL_UINT64: *slot = (uint64_t)a->i; break;
    case TL_FP16: *(uint16_t *)slot = (uint16_t)ct_float_encode(f, CT_F16); break;
    case TL_BF16: *(uint16_t *)slot = (uint16_t)ct_float_encode(f, CT_BF16); break;
    case TL_FP32: { float x = (float)f; memcpy(slot, &x, 4); break; }
    case TL_FP64: memcpy(slot, &f, 8); break;
    default:
        snprintf(err, cap, "`%s`: a scalar of this type cannot be passed", p->name);
        return false;
    }
    return true;
}

static int bench_ttir(void)
{
    int grid[3] = {1, 1, 1};
    if (grid_s && !cli_parse_grid(grid_s, grid))
        return cli_fail(2, "bench: --grid: `%s` is not X[,Y,Z] with each from 1 to 2^31-1", grid_s);
    cli_arg args[MAX_ARGS];
    char err[1024] = "";
    for (int i = 0; i < arglist.n; i++)
        if (!cli_arg_parse(argv_args[i], &args[i], err, sizeof err))
            return cli_fail(2, "bench: --arg %d: %s", i, err);
    size_t tlen;
    char *text = cli_read_file(ttir, CLI_MAX_FILE, &tlen, err, sizeof err);
    if (!text)
        return cli_fail(2, "bench: --ttir: %s", err);
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(text, tlen, ttir, &d);
    int rc = 1;
    ct_ttir_param tp[CT_TTIR_MAX_PARAMS];
    const char *kname = "?";
    int np = -1;
    ttir_run r = {.grid = {(unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2]}};
    uint64_t slots[MAX_ARGS];
    ct_devptr dev[MAX_ARGS] = {0};
    ct_artifact a = {0};
    bool loaded = false;
    double bytes = 0;
    if (!m || !ct_verify_module(m, &d)) {
        ct_diags_print(&d, stderr, true);
        goto out;
    }
    if ((np = ct_ttir_kernel_params(m, func, &kname, tp)) < 0) {
        cli_fail(1, "bench: %s: %s", ttir, ct_errmsg());
        goto out;
    }
    if (np != arglist.n) {
        fprintf(stderr, "ctriton: %s takes %d arguments, %d given:\n", kname, np, arglist.n);
        for (int i = 0; i < np; i++)
            fprintf(stderr, "  %d: %s (%s)\n", i, tp[i].name,
                    tp[i].desc ? "tensor descriptor" : tp[i].ptr ? "pointer" : "scalar");
        rc = 2;
        goto out;
    }
    for (int i = 0; i < np; i++) {
        if (tp[i].desc) {
            cli_fail(2, "bench --ttir: `%s` is a tensor descriptor, which --arg cannot give "
                        "(write a launcher with `ctriton aot --ttir`)", tp[i].name);
            rc = 2;
            goto out;
        }
        if (tp[i].ptr != (args[i].kind == CLI_ARG_BUF || args[i].kind == CLI_ARG_NULL)) {
            cli_fail(2, "bench: --arg %d: `%s` is %s", i, tp[i].name,
                     tp[i].ptr ? "a pointer: give DTYPE[N] or null" : "a scalar: give a number");
            rc = 2;
            goto out;
        }
        if (!tp[i].ptr && !pack_scalar(&tp[i], &args[i], &slots[i], err, sizeof err)) {
            cli_fail(2, "bench: --arg %d: %s", i, err);
            rc = 2;
            goto out;
        }
    }
    /* lower for this GPU (through the cache) */
    if (ct_cuda_init() != CT_OK) {
        cli_fail(1, "bench needs a GPU: %s", ct_errmsg());
        goto out;
    }
    ct_device_info di;
    if (ct_device_query(&di) != CT_OK) {
        cli_fail(1, "bench: %s", ct_errmsg());
        goto out;
    }
    ct_lower_opts lo;
    ct_lower_opts_default(&lo);
    lo.arch = di.cc_major * 10 + di.cc_minor;
    if (num_warps)
        lo.num_warps = num_warps;
    if (num_stages)
        lo.num_stages = num_stages;
    if (ct_compile_ttir(text, &lo, &a, &d) != CT_OK) {
        ct_diags_print(&d, stderr, true);
        cli_fail(1, "bench: lowering %s: %s", ttir, ct_errmsg());
        goto out;
    }
    if (ct_load_cubin(a.cubin, a.cubin_size, &a.meta, &r.l) != CT_OK) {
        cli_fail(1, "bench: %s", ct_errmsg());
        goto out;
    }
    loaded = true;
    uint64_t rng = seed ^ 0x6a09e667f3bcc909ull;
    for (int i = 0; i < np; i++) {
        r.params[i] = &slots[i];
        if (args[i].kind == CLI_ARG_NULL) {
            slots[i] = 0;
            continue;
        }
        if (!tp[i].ptr)
            continue;
        if (!cli_arg_load(&args[i], &rng, err, sizeof err)) {
            cli_fail(1, "bench: --arg %d (%s): %s", i, tp[i].name, err);
            goto out;
        }
        if (ct_mem_alloc(&dev[i], args[i].bytes ? args[i].bytes : 1) != CT_OK ||
            ct_mem_upload(dev[i], args[i].data, args[i].bytes) != CT_OK) {
            cli_fail(1, "bench: --arg %d: %s", i, ct_errmsg());
            goto out;
        }
        slots[i] = dev[i];
        bytes += (double)args[i].bytes * (args[i].access == CT_EMU_INOUT ? 2 : 1);
    }
    r.n = np;
    if (ttir_once(&r, NULL) != CT_OK || ct_stream_sync(NULL) != CT_OK) {
        cli_fail(1, "bench %s: %s", kname, ct_errmsg());
        goto out;
    }
    /* the first run's outputs go to their @FILEs */
    for (int i = 0; i < np; i++) {
        if (args[i].kind != CLI_ARG_BUF || args[i].access == CT_EMU_IN || !args[i].file[0])
            continue;
        if (ct_mem_download(args[i].data, dev[i], args[i].bytes) != CT_OK ||
            !cli_arg_store(&args[i], err, sizeof err)) {
            cli_fail(1, "bench: --arg %d: %s", i, *err ? err : ct_errmsg());
            goto out;
        }
    }
    ct_bench_opts bo = {.warmup_ms = warmup, .rep_ms = rep};
    ct_bench_result br;
    if (ct_do_bench(ttir_once, &r, &bo, &br) != CT_OK) {
        cli_fail(1, "bench %s: %s", kname, ct_errmsg());
        goto out;
    }
    char what[1024], gridtxt[64];
    snprintf(what, sizeof what, "%s (%s)", kname, ttir);
    snprintf(gridtxt, sizeof gridtxt, "grid (%d,%d,%d), sm_%d", grid[0], grid[1], grid[2], lo.arch);
    char sig[4096];
    ct_ttir_signature(tp, np, sig, sizeof sig);
    report(what, gridtxt, sig, &br, bytes, 0, "not run", "");
    rc = 0;
out:
    for (int i = 0; i < arglist.n; i++)
        cli_arg_free(&args[i]);
    for (int i = 0; i < MAX_ARGS; i++)
        if (dev[i])
            ct_mem_free(dev[i]);
    if (loaded)
        ct_unload(&r.l);
    ct_artifact_free(&a);
    ct_module_destroy(m);
    ct_diags_free(&d);
    free(text);
    return rc;
}

/* ---- sweeps ------------------------------------------------------------------------ */

static int bench_sweep(const ct_kernel_entry *k, const tl_config *cfg)
{
    char dim[64], err[512];
    int64_t sizes[BS_MAX_SIZES];
    int n = bs_parse_sweep(sweep_s, dim, sizeof dim, sizes, err, sizeof err);
    if (n < 0)
        return cli_fail(2, "bench: --sweep: %s", err);
    bool recipe = !k->plugin && lr_has_recipe(k->def->name);
    if (!recipe && !k->ref)
        return cli_fail(1, "bench: %s has no C reference to make its inputs (register one: "
                           "ctriton/ref.h)", k->def->name);
    if (!recipe && problem)
        return cli_fail(2, "bench: --problem needs a launch recipe; %s sweeps its reference's "
                           "case", k->def->name);
    const char *base = problem ? problem : cfg->problem;
    bool has = false; /* DIM is one of the problem's sizes */
    for (const char *p = base ? base : ""; (p = strstr(p, dim)); p++)
        has |= (p == base || p[-1] == ' ') && p[strlen(dim)] == '=';
    if (!has)
        return cli_fail(2, "bench: --sweep: the problem of %s/%s (\"%s\") has no size %s", k->def->name,
                        cfg->name, base ? base : "", dim);
    if (ct_cuda_init() != CT_OK)
        return cli_fail(1, "bench needs a GPU: %s", ct_errmsg());
    bs_point pts[BS_MAX_SIZES];
    bool check_ok = true;
    memset(pts, 0, sizeof pts);
    for (int i = 0; i < n; i++) {
        pts[i].size = sizes[i];
        int rc;
        if (recipe) {
            char prob[512];
            if (!bs_problem_with(problem ? problem : cfg->problem, dim, sizes[i], prob, sizeof prob))
                return cli_fail(2, "bench: --sweep: the problem string is too long");
            rc = recipe_point(k, cfg, prob, &pts[i], &check_ok);
        } else {
            ct_ref_opts ro = {.size_name = dim, .size = sizes[i]};
            rc = bench_ref(k, cfg, &ro, &pts[i], &check_ok);
        }
        if (rc)
            return rc;
    }
    char what[512];
    snprintf(what, sizeof what, "%s/%s", k->def->name, cfg->name);
    if (json)
        bs_print_json(stdout, what, dim, pts, n);
    else
        bs_print_table(stdout, what, dim, pts, n);
    if (svg) {
        FILE *f = fopen(svg, "w");
        bool ok = f && bs_write_svg(f, what, dim, pts, n);
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok)
            return cli_fail(1, "bench: --svg: cannot write %s", svg);
    }
    return check_ok ? 0 : 1;
}

int cmd_bench(int argc, char **argv)
{
    int rc = cli_parse(&bench_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    if (!!ttir + (npos > 0) != 1)
        return cli_fail(2, "bench: give a KERNEL or --ttir FILE");
    if (svg && !sweep_s)
        return cli_fail(2, "bench: --svg plots a --sweep");
    if (sweep_s && (ttir || large || dump))
        return cli_fail(2, "bench: --sweep runs a KERNEL at its sizes: not with --ttir, --large or "
                           "--dump");
    if (sweep_s) { /* bad sweeps are refused before anything needs the GPU */
        char dim[64], err[512];
        int64_t sizes[BS_MAX_SIZES];
        if (bs_parse_sweep(sweep_s, dim, sizeof dim, sizes, err, sizeof err) < 0)
            return cli_fail(2, "bench: --sweep: %s", err);
    }
    if (ttir) {
        if (config || problem || large || check || dump)
            return cli_fail(2, "bench --ttir: --config, --problem, --large, --check and --dump go "
                               "with a KERNEL");
        return bench_ttir();
    }
    if (grid_s || arglist.n || func || num_warps || num_stages)
        return cli_fail(2, "bench: --grid, --arg, --kernel, --num-warps and --num-stages go with --ttir");
    const ct_kernel_entry *k;
    const tl_config *cfg;
    if ((rc = cli_kernel_config(pos[0], config, &k, &cfg)))
        return rc;
    if (sweep_s)
        return bench_sweep(k, cfg);
    if (!k->plugin && lr_has_recipe(k->def->name))
        return bench_recipe(k, cfg);
    if (k->ref)
        return bench_ref(k, cfg, NULL, NULL, NULL);
    return cli_fail(1, "bench: %s has no C reference to make its inputs (register one: ctriton/ref.h)",
                    k->def->name);
}
