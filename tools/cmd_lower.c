/*
 * ctriton lower KERNEL [--config NAME] [--arch N] [--stage ttir|ttgir|llir|ptx|source|json]
 * Lowers a library kernel's config through Triton (or finds it in the cache)
 * and prints one stage, or, without --stage, where the entry is and its
 * launch metadata.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/compile.h"
#include "kernels.h"

int cmd_lower(int argc, char **argv)
{
    const char *kname = NULL, *cname = NULL, *stage = NULL;
    int arch = 90;
    for (int i = 0; i < argc; i++) {
        bool v = i + 1 < argc;
        if (!strcmp(argv[i], "--config") && v)
            cname = argv[++i];
        else if (!strcmp(argv[i], "--arch") && v)
            arch = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stage") && v)
            stage = argv[++i];
        else if (argv[i][0] != '-' && !kname)
            kname = argv[i];
        else
            return cli_fail(2, "lower: unexpected argument `%s`", argv[i]);
    }
    if (!kname)
        return cli_fail(2, "usage: ctriton lower KERNEL [--config NAME] [--arch N] [--stage S]");
    const ct_kernel_entry *k;
    const tl_config *cfg;
    int rc = cli_kernel_config(kname, cname, &k, &cfg);
    if (rc)
        return rc;
    tl_options o;
    tl_options_default(&o);
    if (cfg->num_warps)
        o.num_warps = cfg->num_warps;
    if (cfg->num_stages)
        o.num_stages = cfg->num_stages;
    o.arch = arch;
    ct_diags d;
    ct_diags_init(&d);
    ct_artifact a;
    ct_status s = ct_compile_kernel(k->def, cfg->signature, cfg->constexprs, &o, NULL, &a, &d);
    ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    if (s != CT_OK)
        return cli_fail(1, "lower: %s", ct_errmsg());
    rc = 0;
    if (stage && !strcmp(stage, "json")) {
        fputs(a.json, stdout);
    } else if (stage) {
        char *text = ct_artifact_stage(&a, stage, NULL);
        if (text)
            fputs(text, stdout);
        else
            rc = cli_fail(1, "lower: no stage `%s` (ttir, ttgir, llir, ptx, source, json)", stage);
        free(text);
    } else {
        printf("%s/%s  sm_%d  %s\n", kname, cfg->name, arch, a.hit ? "(cache hit)" : "(lowered now)");
        printf("  entry       %s\n", a.dir);
        printf("  kernel      %s: %d warps, %d CTAs, %d bytes of shared memory, cubin %zu bytes\n",
               a.meta.name, a.meta.num_warps, a.meta.num_ctas, a.meta.shared, a.cubin_size);
        printf("  scratch     global %lld, profile %lld bytes per program\n",
               (long long)a.meta.global_scratch_size, (long long)a.meta.profile_scratch_size);
    }
    ct_artifact_free(&a);
    return rc;
}
