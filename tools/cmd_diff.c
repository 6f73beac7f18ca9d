/*
 * ctriton diff A B [--json] [--quiet] [--no-notes]: compare two TTIR files
 * after normalization (see ct_normalize).  Prints the first diverging op of
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
#include "util/util.h"

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

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", f);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

int cmd_diff(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    int nf = 0;
    bool json = false, quiet = false, show_notes = true;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q"))
            quiet = true;
        else if (!strcmp(argv[i], "--no-notes"))
            show_notes = false;
        else if ((argv[i][0] != '-' || !strcmp(argv[i], "-")) && nf < 2)
            files[nf++] = argv[i];
        else
            return cli_fail(2, "diff: unexpected argument `%s`", argv[i]);
    }
    if (nf != 2)
        return cli_fail(2, "usage: ctriton diff A.ttir B.ttir [--json] [--quiet] [--no-notes]");
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m[2];
    for (int i = 0; i < 2; i++) {
        if (!strcmp(files[i], "-")) {
            files[i] = "<stdin>";
            ct_strbuf in;
            ct_sb_init(&in);
            char buf[65536];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
                ct_sb_putn(&in, buf, n);
            m[i] = ct_parse_module(in.s ? in.s : "", in.len, files[i], &d);
            ct_sb_free(&in);
        } else {
            m[i] = ct_parse_file(files[i], &d);
        }
        if (!m[i]) {
            ct_diags_print(&d, stderr, true);
            ct_diags_free(&d);
            if (i)
                ct_module_destroy(m[0]);
            return 2;
        }
    }
    ct_diff_result r;
    ct_diff_modules(m[0], m[1], files[0], files[1], &r, &d);
    ct_diags_print(&d, stderr, false);
    if (json) {
        printf("{\"equal\": %s, \"added\": %d, \"removed\": %d, \"first\": ", r.equal ? "true" : "false",
               r.nadded, r.nremoved);
        json_str(stdout, r.first ? r.first : "");
        printf(", \"diff\": ");
        json_str(stdout, r.text);
        printf("}\n");
    } else if (r.equal) {
        if (!quiet)
            printf("equal after normalization\n");
    } else if (!quiet) {
        printf("different after normalization: +%d/-%d lines\n%s\n%s", r.nadded, r.nremoved,
               r.first, r.text);
        if (show_notes)
            printf("\n%s", notes);
    }
    int rc = r.equal ? 0 : 1;
    ct_diff_result_free(&r);
    ct_module_destroy(m[0]);
    ct_module_destroy(m[1]);
    ct_diags_free(&d);
    return rc;
}
