/*
 * ctriton lower KERNEL [--config NAME] | --ttir FILE  [--arch N] [--stage S] [--json]
 * Lowers a registered kernel's config, or a TTIR file (a kernel written in
 * Python: Triton's .source or .ttir), through Triton (or finds it in the
 * cache) and prints one stage, or, without --stage, where the entry is and
 * its launch metadata.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/compile.h"
#include "kernels.h"

static const char *config, *stage, *ttir;
static int arch = 90, num_warps, num_stages, num_ctas;
static bool json;
static const char *pos[1];
static int npos;

static const cli_opt opts[] = {
    {"config", 0, CLI_STR, &config, "NAME", "the config (default: the first)", 0, 0, NULL},
    {"ttir", 0, CLI_STR, &ttir, "FILE", "lower a TTIR file instead of a kernel (e.g. Python's)", 0, 0, NULL},
    {"arch", 0, CLI_INT, &arch, "N", "compute capability: 80, 90, 100, ... (default 90)", 50, 200, NULL},
    {"stage", 0, CLI_STR, &stage, "S", "print one stage: ttir, ttgir, llir, ptx, source or json", 0, 0, NULL},
    {"num-warps", 0, CLI_FN, &num_warps, "N", "override the config's num_warps (--ttir: default 4)", 0, 0,
     cli_num_warps},
    {"num-stages", 0, CLI_INT, &num_stages, "N", "override the config's num_stages (default 3)", 1, 16, NULL},
    {"num-ctas", 0, CLI_INT, &num_ctas, "N", "CTAs per cluster (default 1)", 1, 16, NULL},
    {"json", 0, CLI_FLAG, &json, NULL, "the entry and its launch metadata as one JSON object", 0, 0, NULL},
    CLI_OPT_KERNELS,
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

const cli_spec lower_spec = {
    "lower", "KERNEL [--config NAME] | --ttir FILE  [--arch N] [--stage S] [--json]",
    "lower through Triton's compiler (or find in the cache) and show the entry or one stage",
    "Needs Triton in $CTRITON_PYTHON (default ~/.cache/ctriton/venv/bin/python), no GPU.\n"
    "The cache: $CTRITON_CACHE_DIR, else ~/.cache/ctriton (docs/launch.md).\n",
    opts, pos, 1, &npos, "KERNEL",
};

int cmd_lower(int argc, char **argv)
{
    int rc = cli_parse(&lower_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    if (!!ttir + (npos > 0) != 1)
        return cli_fail(2, "lower: give a KERNEL or --ttir FILE");
    if (ttir && config)
        return cli_fail(2, "lower: --config goes with a KERNEL, not --ttir");
    if (stage && json)
        return cli_fail(2, "lower: --stage or --json, not both (--stage json prints kernel.json)");
    if (stage && strcmp(stage, "ttir") && strcmp(stage, "ttgir") && strcmp(stage, "llir") &&
        strcmp(stage, "ptx") && strcmp(stage, "source") && strcmp(stage, "json"))
        return cli_fail(2, "lower: --stage: no stage `%s` (ttir, ttgir, llir, ptx, source, json)", stage);
    const ct_kernel_entry *k = NULL;
    const tl_config *cfg = NULL;
    if (!ttir && (rc = cli_kernel_config(pos[0], config, &k, &cfg)))
        return rc;
    tl_options o;
    tl_options_default(&o);
    if (cfg)
        tl_options_for_config(&o, cfg);
    if (num_warps)
        o.num_warps = num_warps;
    if (num_stages)
        o.num_stages = num_stages;
    if (num_ctas)
        o.num_ctas = num_ctas;
    o.arch = arch;
    ct_diags d;
    ct_diags_init(&d);
    ct_artifact a;
    ct_status s;
    char what[512];
    if (ttir) {
        char err[1024] = "";
        char *text = cli_read_file(ttir, CLI_MAX_FILE, NULL, err, sizeof err);
        if (!text)
            return cli_fail(2, "lower: --ttir: %s", err);
        ct_lower_opts lo;
        ct_lower_opts_from_tl(&lo, &o);
        s = ct_compile_ttir(text, &lo, &a, &d);
        free(text);
        snprintf(what, sizeof what, "%s", ttir);
    } else {
        s = ct_compile_kernel(k->def, cfg->signature, cfg->constexprs, &o, NULL, &a, &d);
        snprintf(what, sizeof what, "%s/%s", k->def->name, cfg->name);
    }
    ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    if (s != CT_OK)
        return cli_fail(1, "lower %s: %s", what, ct_errmsg());
    rc = 0;
    if (stage && !strcmp(stage, "json")) {
        fputs(a.json, stdout);
    } else if (stage) {
        char *text = ct_artifact_stage(&a, stage, NULL);
        if (text)
            fputs(text, stdout);
        else
            rc = cli_fail(1, "lower: the cache entry %s has no valid kernel.%s", a.dir, stage);
        free(text);
    } else if (json) {
        printf("{\"what\": ");
        cli_json_str(stdout, what);
        printf(", \"arch\": %d, \"hit\": %s, \"key\": \"%s\", \"dir\": ", arch, a.hit ? "true" : "false",
               a.key);
        cli_json_str(stdout, a.dir);
        printf(", \"name\": ");
        cli_json_str(stdout, a.meta.name);
        printf(", \"num_warps\": %d, \"num_ctas\": %d, \"shared\": %d, \"cubin_bytes\": %zu, "
               "\"global_scratch\": %lld, \"profile_scratch\": %lld, \"lower_ms\": %.1f}\n",
               a.meta.num_warps, a.meta.num_ctas, a.meta.shared, a.cubin_size,
               (long long)a.meta.global_scratch_size, (long long)a.meta.profile_scratch_size,
               a.lower_ms);
    } else {
        printf("%s  sm_%d  %s\n", what, arch, a.hit ? "(cache hit)" : "(lowered now)");
        printf("  entry       %s\n", a.dir);
        printf("  kernel      %s: %d warps, %d CTAs, %d bytes of shared memory, cubin %zu bytes\n",
               a.meta.name, a.meta.num_warps, a.meta.num_ctas, a.meta.shared, a.cubin_size);
        printf("  scratch     global %lld, profile %lld bytes per program\n",
               (long long)a.meta.global_scratch_size, (long long)a.meta.profile_scratch_size);
    }
    ct_artifact_free(&a);
    return rc;
}
