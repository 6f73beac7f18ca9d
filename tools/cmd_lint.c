/* ctriton lint KERNEL [--config NAME] | --all | --ttir FILE: lints for the
 * classic kernel mistakes, on a registered kernel or on any TTIR file (e.g.
 * one Python Triton wrote), which is verified first. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "ctriton/check.h"
#include "ctriton/text.h"
#include "kernels.h"

static const char *config, *ttir;
static bool all, no_notes, json, show_justified, no_justify;
static int njustified;
static const char *pos[1];
static int npos;

static const cli_opt opts[] = {
    {"config", 0, CLI_STR, &config, "NAME", "one config (default: the first)", 0, 0, NULL},
    {"all", 0, CLI_FLAG, &all, NULL, "every config of every registered kernel", 0, 0, NULL},
    {"ttir", 0, CLI_STR, &ttir, "FILE", "a TTIR file instead of a kernel (`-`: standard input)", 0, 0, NULL},
    {"no-notes", 0, CLI_FLAG, &no_notes, NULL, "warnings and errors only", 0, 0, NULL},
    {"justified", 0, CLI_FLAG, &show_justified, NULL,
     "show the findings justified in the source (`lint-ok: ID reason`) as notes", 0, 0, NULL},
    {"no-justify", 0, CLI_FLAG, &no_justify, NULL, "ignore `lint-ok:` comments: every finding", 0, 0,
     NULL},
    {"json", 0, CLI_FLAG, &json, NULL,
     "a JSON list of {kernel, config | file, ok, diagnostics: [{severity, file, line, col, message}]}", 0, 0, NULL},
    CLI_OPT_KERNELS,
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

const cli_spec lint_spec = {
    "lint", "KERNEL [--config NAME] | --all | --ttir FILE  [--no-notes] [--json]",
    "lints for the classic kernel mistakes (int32 offsets, unmasked tails, ...) on a kernel or "
    "any TTIR file",
    "A finding is justified by a comment on its line (or on comment lines right above it)\n"
    "in the kernel's source: `lint-ok: ID reason`; the sources are read relative to\n"
    "$CTRITON_SOURCE_DIR, else the current directory.\n"
    "Exit status: 0 clean, 3 warnings, 1 a kernel that does not build or a file that does not\n"
    "parse or verify, 2 bad usage.  The lints: docs/checks.md.\n",
    opts, pos, 1, &npos, "KERNEL",
};

static int nshown; /* results printed so far (JSON separators) */

/* Prints one result's diagnostics (dropping notes if asked); counts warnings. */
static void show(const ct_diags *d, int *nwarn, const char *kernel, const char *cfg,
                 const char *file, bool ok)
{
    for (int i = 0; i < d->n; i++)
        *nwarn += d->items[i].severity == CT_WARNING;
    if (json) {
        printf("%s  {", nshown++ ? ",\n" : "");
        if (kernel) {
            printf("\"kernel\": ");
            cli_json_str(stdout, kernel);
            printf(", \"config\": ");
            cli_json_str(stdout, cfg);
        } else {
            printf("\"file\": ");
            cli_json_str(stdout, file);
        }
        printf(", \"ok\": %s, \"diagnostics\": ", ok ? "true" : "false");
        cli_json_diags(stdout, d, !no_notes);
        printf("}");
        return;
    }
    ct_diags shown;
    ct_diags_init(&shown);
    for (int i = 0; i < d->n; i++) {
        const ct_diag *g = &d->items[i];
        if (g->severity != CT_NOTE || !no_notes)
            ct_diag_add(&shown, g->severity, g->file, g->line, g->col, "%s", g->message);
    }
    if (shown.n && kernel)
        printf("%s/%s:\n", kernel, cfg);
    fflush(stdout);
    ct_diags_print(&shown, stdout, true);
    ct_diags_free(&shown);
}

/* Lints m with the justification comments read from the sources. */
static void lint_module(const ct_module *m, ct_diags *d)
{
    ct_lint_opts lo = {.read_sources = !no_justify, .source_root = getenv("CTRITON_SOURCE_DIR"),
                       .show_justified = show_justified};
    ct_lint_module_ex(m, &lo, d);
    njustified += lo.justified;
}

static int lint_file(const char *path, int *nwarn)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = cli_parse_ttir(path, &d);
    bool ok = m && ct_verify_module(m, &d);
    if (ok)
        lint_module(m, &d);
    show(&d, nwarn, NULL, NULL, path, ok);
    ct_diags_free(&d);
    ct_module_destroy(m);
    return ok ? 0 : 1;
}

static int lint_one(const ct_kernel_entry *k, const tl_config *cfg, int *nwarn)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = tl_build_config(k->def, cfg, &d);
    if (m)
        lint_module(m, &d);
    show(&d, nwarn, k->def->name, cfg->name, NULL, m != NULL);
    ct_diags_free(&d);
    ct_module_destroy(m);
    return m ? 0 : 1;
}

int cmd_lint(int argc, char **argv)
{
    int rc = cli_parse(&lint_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    if ((ttir != NULL) + all + (npos > 0) != 1)
        return cli_fail(2, "lint: give one of KERNEL, --all or --ttir FILE");
    if (config && !npos)
        return cli_fail(2, "lint: --config goes with a KERNEL");
    int nwarn = 0, failed = 0;
    if (json)
        printf("[\n");
    if (ttir) {
        failed = lint_file(ttir, &nwarn);
    } else if (all) {
        for (int i = 0; i < ct_kernel_count(); i++) {
            const ct_kernel_entry *k = ct_kernel_at(i);
            for (int c = 0; c < k->nconfigs; c++)
                failed |= lint_one(k, &k->configs[c], &nwarn);
        }
    } else {
        const ct_kernel_entry *k;
        const tl_config *cfg;
        if ((rc = cli_kernel_config(pos[0], config, &k, &cfg))) {
            if (json)
                printf("]\n");
            return rc;
        }
        failed = lint_one(k, cfg, &nwarn);
    }
    if (json)
        printf("\n]\n");
    else if (njustified && !show_justified)
        fprintf(stderr, "(%d finding%s justified in the source: --justified shows them)\n",
                njustified, njustified == 1 ? "" : "s");
    return failed ? 1 : nwarn ? 3 : 0;
}
