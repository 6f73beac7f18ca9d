/*
 * ctriton diff A B [--json] [--quiet] [--no-notes] [--exact]: compare two TTIR
 * files after normalization (see ct_normalize), or as written (--exact: an
 * unused constant or an expression evaluated twice is a difference).  Prints the first diverging op of
 * each side with its source location and a unified diff of the normalized
 * text.  A file named `-` is read from the standard input:
 *   build/ctriton emit K --config C --locs | build/ctriton diff tests/golden/K/C/py.source -
 * Exit status: 0 equal, 1 different, 2 usage or parse error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/text.h"

/* What the normalizer leaves to Triton's passes: a raw `.source` and the
 * `.ttir` of the same kernel differ by these and nothing else. */
static const char notes[] =
    "note: the normalizer does not model these ttir passes, so a raw .source and a\n"
    "      post-pass .ttir differ by them: constant CSE and hoisting to the top of the\n"
    "      function, CSE of other ops, canonicalization and folding (splat of a constant\n"
    "      into a dense constant, x+0, x*1, constant compares and selects, reshapes of\n"
    "      splats), scf canonicalization (unused or pass-through iter_args), loop-\n"
    "      invariant code motion and unrolling, block merging, tensor pointer and\n"
    "      descriptor rewriting, and the combine / reorder-broadcast patterns.\n";

static bool json, quiet, no_notes, exact;
static const char *pos[2];
static int npos;

static const cli_opt opts[] = {
    {"json", 0, CLI_FLAG, &json, NULL, "{equal, added, removed, first, diff} as JSON", 0, 0, NULL},
    {"quiet", 'q', CLI_FLAG, &quiet, NULL, "no output: the exit status only", 0, 0, NULL},
    {"no-notes", 0, CLI_FLAG, &no_notes, NULL, "without the note on what the normalizer leaves out", 0, 0, NULL},
    {"exact", 0, CLI_FLAG, &exact, NULL,
     "no normalization: dead ops and calls count (value names and locations do not)", 0, 0, NULL},
    CLI_OPT_END,
};

const cli_spec diff_spec = {
    "diff", "A.ttir B.ttir [--json] [--quiet] [--no-notes] [--exact]",
    "compare two TTIR files after normalization (or --exact, as written): the first diverging op "
    "of each side and a diff",
    "A file named `-` is read from the standard input:\n"
    "  ctriton emit K --config C --locs | ctriton diff tests/golden/K/C/py.source -\n"
    "Exit status: 0 equal, 1 different, 2 bad usage or a file that does not parse.\n",
    opts, pos, 2, &npos, "pair of files",
};

int cmd_diff(int argc, char **argv)
{
    int rc = cli_parse(&diff_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    if (npos != 2)
        return cli_fail(2, "diff: give two TTIR files (`-`: standard input)");
    const char *files[2] = {pos[0], pos[1]};
    if (!strcmp(files[0], "-") && !strcmp(files[1], "-"))
        return cli_fail(2, "diff: only one of the files can be the standard input");
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m[2];
    for (int i = 0; i < 2; i++) {
        m[i] = cli_parse_ttir(files[i], &d);
        if (!strcmp(files[i], "-"))
            files[i] = "<stdin>";
        if (!m[i]) {
            ct_diags_print(&d, stderr, true);
            ct_diags_free(&d);
            if (i)
                ct_module_destroy(m[0]);
            return 2;
        }
    }
    ct_diff_result r;
    ct_diff_modules_flags(m[0], m[1], files[0], files[1], exact ? CT_DIFF_EXACT : 0, &r, &d);
    ct_diags_print(&d, stderr, false);
    if (json) {
        printf("{\"equal\": %s, \"added\": %d, \"removed\": %d, \"first\": ", r.equal ? "true" : "false",
               r.nadded, r.nremoved);
        cli_json_str(stdout, r.first ? r.first : "");
        printf(", \"diff\": ");
        cli_json_str(stdout, r.text);
        printf("}\n");
    } else if (r.equal) {
        if (!quiet)
            printf(exact ? "equal (exact)\n" : "equal after normalization\n");
    } else if (!quiet) {
        printf("different %s: +%d/-%d lines\n%s\n%s", exact ? "(exact)" : "after normalization",
               r.nadded, r.nremoved, r.first, r.text);
        if (!no_notes && !exact)
            printf("\n%s", notes);
    }
    rc = r.equal ? 0 : 1;
    ct_diff_result_free(&r);
    ct_module_destroy(m[0]);
    ct_module_destroy(m[1]);
    ct_diags_free(&d);
    return rc;
}
