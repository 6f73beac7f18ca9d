/* ctriton lint KERNEL [--config NAME]: lints for the classic kernel mistakes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/check.h"
#include "kernels.h"

static int lint_one(const ct_kernel_entry *k, const tl_config *cfg, bool quiet_notes,
                    int *nwarn)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(k->def, cfg, &d);
    if (m)
        ct_lint_module(m, &d);
    ct_diags shown;
    ct_diags_init(&shown);
    for (int i = 0; i < d.n; i++) {
        const ct_diag *g = &d.items[i];
        if (g->severity == CT_NOTE && quiet_notes)
            continue;
        if (g->severity == CT_WARNING)
            (*nwarn)++;
        ct_diag_add(&shown, g->severity, g->file, g->line, g->col, "%s", g->message);
    }
    if (shown.n)
        printf("%s/%s:\n", k->def->name, cfg->name);
    fflush(stdout);
    ct_diags_print(&shown, stdout, true);
    ct_diags_free(&shown);
    ct_diags_free(&d);
    if (!m)
        return 1;
    ct_module_destroy(m);
    return 0;
}

int cmd_lint(int argc, char **argv)
{
    const char *kname = NULL, *cname = NULL;
    bool all = false, quiet_notes = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc)
            cname = argv[++i];
        else if (!strcmp(argv[i], "--all"))
            all = true;
        else if (!strcmp(argv[i], "--no-notes"))
            quiet_notes = true;
        else if (argv[i][0] != '-' && !kname)
            kname = argv[i];
        else
            return cli_fail(2, "lint: unexpected argument `%s`", argv[i]);
    }
    int nwarn = 0, failed = 0;
    if (all) {
        int n;
        const ct_kernel_entry *ks = ct_kernels_all(&n);
        for (int i = 0; i < n; i++)
            for (int c = 0; c < ks[i].nconfigs; c++)
                failed |= lint_one(&ks[i], &ks[i].configs[c], quiet_notes, &nwarn);
    } else {
        if (!kname)
            return cli_fail(2, "usage: ctriton lint KERNEL [--config NAME] [--no-notes] | --all");
        const ct_kernel_entry *k = ct_kernel_find(kname);
        if (!k)
            return cli_fail(1, "no kernel named `%s` (see `ctriton list`)", kname);
        const tl_config *cfg = ct_kernel_config(k, cname);
        if (!cfg)
            return cli_fail(1, "%s has no config `%s`", kname, cname ? cname : "");
        failed = lint_one(k, cfg, quiet_notes, &nwarn);
    }
    return failed ? 1 : nwarn ? 3 : 0;
}
