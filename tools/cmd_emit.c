/* ctriton emit KERNEL [--config NAME] [--locs]: print a kernel's TTIR. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "ctriton/text.h"
#include "kernels.h"

static const char *config;
static bool locs;
static const char *pos[1];
static int npos;

static const cli_opt opts[] = {
    {"config", 0, CLI_STR, &config, "NAME", "the config to build (default: the first)", 0, 0, NULL},
    {"locs", 0, CLI_FLAG, &locs, NULL, "with source locations (loc(...)), as Python's .source has", 0, 0, NULL},
    CLI_OPT_KERNELS,
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

const cli_spec emit_spec = {
    "emit", "KERNEL [--config NAME] [--locs]",
    "print the TTIR a kernel builds for a config (what Python's frontend writes as .source)",
    NULL, opts, pos, 1, &npos, "KERNEL",
};

int cmd_emit(int argc, char **argv)
{
    int rc = cli_parse(&emit_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    if (!npos)
        return cli_fail(2, "emit: missing KERNEL (see `ctriton list`)");
    const ct_kernel_entry *k;
    const tl_config *cfg;
    if ((rc = cli_kernel_config(pos[0], config, &k, &cfg)))
        return rc;
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(k->def, cfg, &d);
    ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    if (!m)
        return 1;
    char *s = ct_print_module(m, locs ? CT_PRINT_LOCS : 0);
    fputs(s, stdout);
    free(s);
    ct_module_destroy(m);
    return 0;
}
