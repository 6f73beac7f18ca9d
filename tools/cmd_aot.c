/*
 * ctriton aot KERNEL [--config NAME | --signature SIG [--constexprs CX]] [options]:
 * writes DIR/NAME.h and DIR/NAME.c, a typed launcher with the kernel's cubins
 * embedded, for C programs that run with neither Python nor Triton.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/compile.h"
#include "kernels.h"

#define AOT_USAGE                                                                             \
    "aot KERNEL [--config NAME | --signature SIG [--constexprs CX]] [--num-warps N] "       \
    "[--num-stages N] [--num-ctas N] [--arch 80,90,100] [--name PREFIX] [-o DIR]"

int cmd_aot(int argc, char **argv)
{
    const char *kname = NULL, *cname = NULL, *sig = NULL, *cx = NULL, *name = NULL, *out = ".";
    const char *arch_list = "90";
    int num_warps = 0, num_stages = 0, num_ctas = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--config") && v)
            cname = argv[++i];
        else if (!strcmp(a, "--signature") && v)
            sig = argv[++i];
        else if (!strcmp(a, "--constexprs") && v)
            cx = argv[++i];
        else if (!strcmp(a, "--num-warps") && v)
            num_warps = atoi(argv[++i]);
        else if (!strcmp(a, "--num-stages") && v)
            num_stages = atoi(argv[++i]);
        else if (!strcmp(a, "--num-ctas") && v)
            num_ctas = atoi(argv[++i]);
        else if (!strcmp(a, "--arch") && v)
            arch_list = argv[++i];
        else if (!strcmp(a, "--name") && v)
            name = argv[++i];
        else if (!strcmp(a, "-o") && v)
            out = argv[++i];
        else if (a[0] != '-' && !kname)
            kname = a;
        else
            return cli_fail(2, "aot: unexpected argument `%s`\nusage: ctriton " AOT_USAGE, a);
    }
    if (!kname)
        return cli_fail(2, "usage: ctriton " AOT_USAGE);
    const ct_kernel_entry *k = ct_kernel_find(kname);
    if (!k)
        return cli_fail(1, "no kernel named `%s` (see `ctriton list`)", kname);
    const tl_config *cfg = NULL;
    if (!sig) {
        cfg = ct_kernel_config(k, cname);
        if (!cfg)
            return cli_fail(1, "%s has no config `%s`", kname, cname ? cname : "");
        sig = cfg->signature;
        if (!cx)
            cx = cfg->constexprs;
    } else if (cname) {
        return cli_fail(2, "aot: give --config or --signature, not both");
    }
    ct_aot_request r = {.def = k->def, .signature = sig, .constexprs = cx ? cx : ""};
    tl_options_default(&r.opts);
    if (cfg && cfg->num_warps)
        r.opts.num_warps = cfg->num_warps;
    if (cfg && cfg->num_stages)
        r.opts.num_stages = cfg->num_stages;
    if (num_warps)
        r.opts.num_warps = num_warps;
    if (num_stages)
        r.opts.num_stages = num_stages;
    if (num_ctas)
        r.opts.num_ctas = num_ctas;
    int archs[16], narch = 0;
    for (const char *p = arch_list; *p && narch < 16;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 50 || v > 200)
            return cli_fail(2, "aot: --arch takes compute capabilities like 80,90,100 (got `%s`)",
                            arch_list);
        archs[narch++] = (int)v;
        p = *end == ',' ? end + 1 : end;
    }
    r.archs = archs;
    r.narchs = narch;
    char defname[256];
    if (!name) {
        if (cfg)
            snprintf(defname, sizeof defname, "%s_%s", kname, cfg->name);
        else
            snprintf(defname, sizeof defname, "%s", kname);
        name = defname;
    }
    r.name = name;
    char origin[1024];
    snprintf(origin, sizeof origin, "ctriton aot %s %s%s --arch %s", kname,
             cfg ? "--config " : "--signature ", cfg ? cfg->name : sig, arch_list);
    r.origin = origin;
    ct_diags d;
    ct_diags_init(&d);
    ct_status s = ct_aot_write(&r, out, &d);
    ct_diags_free(&d);
    if (s != CT_OK)
        return cli_fail(1, "aot: %s", ct_errmsg());
    printf("%s/%s.h\n%s/%s.c\n", out, name, out, name);
    return 0;
}
