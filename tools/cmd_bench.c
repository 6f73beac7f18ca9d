/*
 * ctriton bench KERNEL [--config NAME] [--problem "M=.. N=.."] [--large] [--check]
 *                      [--warmup MS] [--rep MS] [--dump DIR] [--json]
 * Launches a library kernel from C on the GPU (inputs from the config's
 * problem sizes, or --problem, or --large: the timing problem of
 * bench/launch_recipes.c), times it with do_bench (L2 flushed before each
 * run) and prints the median time with the 20th-80th percentiles, and GB/s
 * or TFLOP/s.  --check compares the outputs with the C reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/launch.h"
#include "kernels.h"
#include "launch_recipes.h"

#define BENCH_USAGE                                                                           \
    "bench KERNEL [--config NAME] [--problem SIZES | --large] [--check] [--warmup MS] "       \
    "[--rep MS] [--dump DIR] [--json]"

static ct_status run_once(void *ud, ct_stream s) { return lr_launch(ud, s); }

int cmd_bench(int argc, char **argv)
{
    const char *kname = NULL, *cname = NULL, *problem = NULL, *dump = NULL;
    bool large = false, check = false, json = false;
    double warmup = 25, rep = 100;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool v = i + 1 < argc;
        if (!strcmp(a, "--config") && v)
            cname = argv[++i];
        else if (!strcmp(a, "--problem") && v)
            problem = argv[++i];
        else if (!strcmp(a, "--large"))
            large = true;
        else if (!strcmp(a, "--check"))
            check = true;
        else if (!strcmp(a, "--json"))
            json = true;
        else if (!strcmp(a, "--warmup") && v)
            warmup = atof(argv[++i]);
        else if (!strcmp(a, "--rep") && v)
            rep = atof(argv[++i]);
        else if (!strcmp(a, "--dump") && v)
            dump = argv[++i];
        else if (a[0] != '-' && !kname)
            kname = a;
        else
            return cli_fail(2, "bench: unexpected argument `%s`\nusage: ctriton " BENCH_USAGE, a);
    }
    if (!kname)
        return cli_fail(2, "usage: ctriton " BENCH_USAGE);
    const ct_kernel_entry *k;
    const tl_config *cfg;
    int rc = cli_kernel_config(kname, cname, &k, &cfg);
    if (rc)
        return rc;
    if (!lr_has_recipe(kname))
        return cli_fail(1, "bench: no launch recipe for %s yet (bench/launch_recipes.c)", kname);
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
    ct_status cs = CT_OK;
    if (check)
        cs = lr_check(&r, msg, sizeof msg);
    if (dump && lr_dump(&r, dump, NULL, true) != CT_OK)
        fprintf(stderr, "ctriton: %s\n", ct_errmsg());
    ct_bench_opts bo = {.warmup_ms = warmup, .rep_ms = rep};
    ct_bench_result br;
    s = ct_do_bench(run_once, &r, &bo, &br);
    if (s != CT_OK) {
        lr_free(&r);
        return cli_fail(1, "bench %s/%s: %s", kname, cfg->name, ct_errmsg());
    }
    char sig[2048];
    lr_signature(&r, sig, sizeof sig);
    double gbs = r.bytes / (br.median_ms * 1e-3) / 1e9;
    double tflops = r.flops / (br.median_ms * 1e-3) / 1e12;
    if (json) {
        printf("{\"kernel\": \"%s\", \"config\": \"%s\", \"problem\": \"%s\", \"signature\": \"%s\", "
               "\"median_ms\": %.6f, \"p20_ms\": %.6f, \"p80_ms\": %.6f, \"reps\": %d, "
               "\"gbs\": %.2f, \"tflops\": %.3f, \"check\": \"%s\"}\n",
               kname, cfg->name, r.problem, sig, br.median_ms, br.p20_ms, br.p80_ms, br.reps, gbs,
               tflops, check ? (cs == CT_OK ? "ok" : "FAILED") : "not run");
    } else {
        printf("%s/%s  %s\n  signature  %s\n", kname, cfg->name, r.problem, sig);
        printf("  time       %.4f ms median (p20 %.4f, p80 %.4f, %d runs)\n", br.median_ms,
               br.p20_ms, br.p80_ms, br.reps);
        if (r.flops > 0)
            printf("  compute    %.1f TFLOP/s\n", tflops);
        printf("  memory     %.1f GB/s\n", gbs);
        if (check)
            printf("  check      %s: %s\n", cs == CT_OK ? "ok" : "FAILED", msg);
    }
    lr_free(&r);
    return cs == CT_OK ? 0 : 1;
}
