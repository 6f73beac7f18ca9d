/* ctriton emit KERNEL [--config NAME] [--locs]: print a kernel's TTIR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/text.h"
#include "kernels.h"

int cmd_emit(int argc, char **argv)
{
    const char *kname = NULL, *cname = NULL;
    unsigned flags = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc)
            cname = argv[++i];
        else if (!strcmp(argv[i], "--locs"))
            flags |= CT_PRINT_LOCS;
        else if (argv[i][0] != '-' && !kname)
            kname = argv[i];
        else
            return cli_fail(2, "emit: unexpected argument `%s`", argv[i]);
    }
    if (!kname)
        return cli_fail(2, "usage: ctriton emit KERNEL [--config NAME] [--locs]");
    const ct_kernel_entry *k;
    const tl_config *cfg;
    int rc = cli_kernel_config(kname, cname, &k, &cfg);
    if (rc)
        return rc;
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(k->def, cfg, &d);
    ct_diags_print(&d, stderr, true);
    ct_diags_free(&d);
    if (!m)
        return 1;
    char *s = ct_print_module(m, flags);
    fputs(s, stdout);
    free(s);
    ct_module_destroy(m);
    return 0;
}
