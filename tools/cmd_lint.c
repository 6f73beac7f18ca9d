/* ctriton lint KERNEL [--config NAME] | --all | --ttir FILE: lints for the
 * classic kernel mistakes, on a library kernel or on any TTIR file (e.g. one
 * Python Triton wrote), which is verified first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/check.h"
#include "ctriton/text.h"
#include "kernels.h"

/* Prints diagnostics, dropping notes if asked; counts warnings. */
static void show(const ct_diags *d, bool quiet_notes, int *nwarn, const char *title)
{
    ct_diags shown;
    ct_diags_init(&shown);
    for (int i = 0; i < d->n; i++) {
        const ct_diag *g = &d->items[i];
        if (g->severity == CT_NOTE && quiet_notes)
            continue;
        if (g->severity == CT_WARNING)
            (*nwarn)++;
        ct_diag_add(&shown, g->severity, g->file, g->line, g->col, "%s", g->message);
    }
    if (shown.n && title)
        printf("%s:\n", title);
    fflush(stdout);
    ct_diags_print(&shown, stdout, true);
    ct_diags_free(&shown);
}

static int lint_file(const char *path, bool quiet_notes, int *nwarn)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_file(path, &d);
    bool ok = m && ct_verify_module(m, &d);
    if (ok)
        ct_lint_module(m, &d);
    show(&d, quiet_notes, nwarn, NULL);
    ct_diags_free(&d);
    ct_module_destroy(m);
    return ok ? 0 : 1;
}

static int lint_one(const ct_kernel_entry *k, const tl_config *cfg, bool quiet_notes,
                    int *nwarn)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(k->def, cfg, &d);
    if (m)
        ct_lint_module(m, &d);
    char title[256];
    snprintf(title, sizeof title, "%s/%s", k->def->name, cfg->name);
    show(&d, quiet_notes, nwarn, title);
    ct_diags_free(&d);
    if (!m)
        return 1;
    ct_module_destroy(m);
    return 0;
}

int cmd_lint(int argc, char **argv)
{
    const char *kname = NULL, *cname = NULL, *ttir = NULL;
    bool all = false, quiet_notes = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc)
            cname = argv[++i];
        else if (!strcmp(argv[i], "--ttir") && i + 1 < argc)
            ttir = argv[++i];
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
    if (ttir) {
        failed = lint_file(ttir, quiet_notes, &nwarn);
    } else if (all) {
        int n;
        const ct_kernel_entry *ks = ct_kernels_all(&n);
        for (int i = 0; i < n; i++)
            for (int c = 0; c < ks[i].nconfigs; c++)
                failed |= lint_one(&ks[i], &ks[i].configs[c], quiet_notes, &nwarn);
    } else {
        if (!kname)
            return cli_fail(2, "usage: ctriton lint KERNEL [--config NAME] [--no-notes] | --all | --ttir FILE");
        const ct_kernel_entry *k;
        const tl_config *cfg;
        int rc = cli_kernel_config(kname, cname, &k, &cfg);
        if (rc)
            return rc;
        failed = lint_one(k, cfg, quiet_notes, &nwarn);
    }
    return failed ? 1 : nwarn ? 3 : 0;
}
