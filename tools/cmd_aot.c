/*
 * ctriton aot KERNEL [--config NAME | --signature SIG [--constexprs CX]] [options]
 * ctriton aot --ttir FILE [--kernel NAME] [options]
 * writes DIR/NAME.h and DIR/NAME.c, a typed launcher with the kernel's cubins
 * embedded, for C programs that run with neither Python nor Triton.  With
 * --ttir the kernel is a TTIR file (a kernel written in Python, specialized
 * by Triton: its signature says which arguments are 16-aligned; constexprs
 * are inside), and no C port is involved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/compile.h"
#include "kernels.h"

static const char *config, *sig, *cx, *name, *out = ".", *arch_list = "90", *ttir, *func;
static int num_warps, num_stages, num_ctas;
static bool json;
static const char *pos[1];
static int npos;

static const cli_opt opts[] = {
    {"config", 0, CLI_STR, &config, "NAME", "the kernel's config (default: the first)", 0, 0, NULL},
    {"signature", 0, CLI_STR, &sig, "SIG", "a specialization of your own: \"x_ptr=*fp32:16 n=i32\"", 0, 0, NULL},
    {"constexprs", 0, CLI_STR, &cx, "CX", "with --signature: \"BLOCK_SIZE=1024\"", 0, 0, NULL},
    {"ttir", 0, CLI_STR, &ttir, "FILE", "the kernel of a TTIR file (e.g. Python's) instead of KERNEL", 0, 0, NULL},
    {"kernel", 0, CLI_STR, &func, "NAME", "--ttir: the function (default: the public tt.func)", 0, 0, NULL},
    {"num-warps", 0, CLI_FN, &num_warps, "N", "num_warps (default: the config's, else 4)", 0, 0, cli_num_warps},
    {"num-stages", 0, CLI_INT, &num_stages, "N", "num_stages (default: the config's, else 3)", 1, 16, NULL},
    {"num-ctas", 0, CLI_INT, &num_ctas, "N", "CTAs per cluster (default 1)", 1, 16, NULL},
    {"arch", 0, CLI_STR, &arch_list, "LIST", "compute capabilities to embed: 80,90,100 (default 90)", 0, 0, NULL},
    {"name", 0, CLI_STR, &name, "PREFIX", "C prefix of the symbols and files (default KERNEL_CONFIG)", 0, 0, NULL},
    {"out", 'o', CLI_STR, &out, "DIR", "where to write PREFIX.h and PREFIX.c (default .)", 0, 0, NULL},
    {"json", 0, CLI_FLAG, &json, NULL, "{header, source, prefix, archs} as JSON", 0, 0, NULL},
    CLI_OPT_KERNELS,
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

const cli_spec aot_spec = {
    "aot", "KERNEL [--config NAME | --signature SIG [--constexprs CX]] | --ttir FILE  [options] [-o DIR]",
    "write a C launcher with the kernel's cubins embedded (PREFIX.h, PREFIX.c)",
    "The launcher needs libc, libdl and pthreads only (libcuda.so.1 is opened at run time) and\n"
    "compiles with -std=c11 -Wall -Wextra; making it needs Triton (lowering), not a GPU.\n"
    "A kernel written in Python: its TTIR (scripts/ttir_from_py.py, or Triton's cache) with\n"
    "--ttir; `aot --ttir k.ttir --name k` then writes k.h and k.c (docs/using.md).\n",
    opts, pos, 1, &npos, "KERNEL",
};

int cmd_aot(int argc, char **argv)
{
    int rc = cli_parse(&aot_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    if (!!ttir + (npos > 0) != 1)
        return cli_fail(2, "aot: give a KERNEL or --ttir FILE");
    if (ttir && (config || sig || cx))
        return cli_fail(2, "aot: --config, --signature and --constexprs go with a KERNEL, not --ttir");
    if (!ttir && func)
        return cli_fail(2, "aot: --kernel names the function of a --ttir file");
    if (sig && config)
        return cli_fail(2, "aot: give --config or --signature, not both");
    if (cx && !sig)
        return cli_fail(2, "aot: --constexprs goes with --signature (a config has its own)");
    int archs[16];
    int narch = cli_parse_archs(arch_list, archs, 16);
    if (narch < 0)
        return cli_fail(2, "aot: --arch: `%s` is not a list of compute capabilities like 80,90,100",
                        arch_list);
    const ct_kernel_entry *k = NULL;
    const tl_config *cfg = NULL;
    char *text = NULL;
    ct_aot_request r = {0};
    tl_options_default(&r.opts);
    if (ttir) {
        char err[1024] = "";
        if (!(text = cli_read_file(ttir, CLI_MAX_FILE, NULL, err, sizeof err)))
            return cli_fail(2, "aot: --ttir: %s", err);
        r.ttir = text;
        r.ttir_file = ttir;
        r.func = func;
    } else {
        if (!(k = ct_kernel_find(pos[0])))
            return cli_kernel_config(pos[0], NULL, &k, &cfg);
        if (!sig) {
            if ((rc = cli_kernel_config(pos[0], config, &k, &cfg)))
                return rc;
            sig = cfg->signature;
            cx = cfg->constexprs;
        }
        r.def = k->def;
        r.signature = sig;
        r.constexprs = cx ? cx : "";
        if (cfg)
            tl_options_for_config(&r.opts, cfg);
    }
    if (num_warps)
        r.opts.num_warps = num_warps;
    if (num_stages)
        r.opts.num_stages = num_stages;
    if (num_ctas)
        r.opts.num_ctas = num_ctas;
    r.archs = archs;
    r.narchs = narch;
    char defname[256];
    if (!name && !ttir) {
        if (cfg)
            snprintf(defname, sizeof defname, "%s_%s", k->def->name, cfg->name);
        else
            snprintf(defname, sizeof defname, "%s", k->def->name);
        name = defname;
    }
    r.name = name; /* --ttir without --name: the kernel's own name */
    char origin[2048];
    if (ttir)
        snprintf(origin, sizeof origin, "ctriton aot --ttir %s%s%s --arch %s", ttir,
                 func ? " --kernel " : "", func ? func : "", arch_list);
    else
        snprintf(origin, sizeof origin, "ctriton aot %s %s%s --arch %s", k->def->name,
                 cfg ? "--config " : "--signature ", cfg ? cfg->name : sig, arch_list);
    r.origin = origin;
    ct_diags d;
    ct_diags_init(&d);
    char prefix[256] = "";
    ct_status s = ct_aot_write_ex(&r, out, prefix, sizeof prefix, &d);
    free(text);
    if (s != CT_OK) {
        ct_diags_print(&d, stderr, true);
        ct_diags_free(&d);
        const char *m = ct_errmsg();
        return cli_fail(1, "%s%s", strncmp(m, "aot: ", 5) ? "aot: " : "", m);
    }
    ct_diags_free(&d);
    if (json) {
        char hp[4096], cp[4096];
        snprintf(hp, sizeof hp, "%s/%s.h", out, prefix);
        snprintf(cp, sizeof cp, "%s/%s.c", out, prefix);
        printf("{\"header\": ");
        cli_json_str(stdout, hp);
        printf(", \"source\": ");
        cli_json_str(stdout, cp);
        printf(", \"prefix\": ");
        cli_json_str(stdout, prefix);
        printf(", \"archs\": [");
        for (int i = 0; i < narch; i++)
            printf("%s%d", i ? ", " : "", archs[i]);
        printf("]}\n");
    } else {
        printf("%s/%s.h\n%s/%s.c\n", out, prefix, out, prefix);
    }
    return 0;
}
