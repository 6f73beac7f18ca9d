/*
 * ctriton rawgate [--golden DIR] [--json FILE] [--quiet] [--exact] [KERNEL...]: the
 * raw gate.  For every kernel and config of the library (and the conformance
 * kernels), the TTIR the C port
 * emits and the raw TTIR Python's frontend wrote (DIR/<kernel>/<config>/
 * py.source, default tests/golden) are normalized and compared; no Triton is
 * involved.  Prints one verdict per row (✓, or +a/-b: lines added/removed on
 * the C side) and the diff of each mismatch; --json writes the verdicts as
 * {"kernel/config": verdict} for scripts/fidelity.py --raw-column.  --exact
 * compares without the normalizer (ct_diff_modules_flags, CT_DIFF_EXACT).
 * Exit status: 0 when every row is ✓, 1 otherwise.
 *
 * ctriton rawgate --check-verdicts VERDICTS.md: the gate's soundness against
 * Triton's own lowering: every row whose raw column is ✓ must have ✓ in the
 * llir and ptx columns too (exit 1 and the rows otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ctriton/text.h"
#include "kernels.h"

/* The C side, printed and read back: exactly what `ctriton emit --locs`
 * gives to anyone comparing files. */
static ct_module *c_side(const ct_kernel_entry *k, const tl_config *cfg, ct_diags *d)
{
    ct_module *m = tl_build_config(k->def, cfg, d);
    if (!m)
        return NULL;
    char *text = ct_print_module(m, CT_PRINT_LOCS);
    ct_module_destroy(m);
    m = ct_parse_module(text, strlen(text), "ctriton emit", d);
    free(text);
    return m;
}

/* The cells of a markdown table row "| a | b | c |", trimmed, in place. */
static int split_row(char *line, char **cells, int cap)
{
    int n = 0;
    char *p = strchr(line, '|');
    while (p && n < cap) {
        char *q = strchr(p + 1, '|');
        if (!q)
            break;
        *q = 0;
        char *s = p + 1;
        while (*s == ' ')
            s++;
        char *e = s + strlen(s);
        while (e > s && e[-1] == ' ')
            *--e = 0;
        cells[n++] = s;
        p = q;
    }
    return n;
}

static int check_verdicts(const char *path)
{
    char err[1024] = "";
    char *text = cli_read_file(path, CLI_MAX_FILE, NULL, err, sizeof err);
    if (!text)
        return cli_fail(2, "rawgate: %s", err);
    int raw = -1, llir = -1, ptx = -1, rows = 0, bad = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] != '|')
            continue;
        char *c[16];
        int n = split_row(line, c, 16);
        if (n > 2 && !strcmp(c[0], "kernel")) {
            for (int i = 0; i < n; i++) {
                if (!strcmp(c[i], "raw"))
                    raw = i;
                else if (!strcmp(c[i], "llir"))
                    llir = i;
                else if (!strcmp(c[i], "ptx"))
                    ptx = i;
            }
            continue;
        }
        if (raw < 0 || llir < 0 || ptx < 0 || n <= raw || n <= llir || n <= ptx ||
            !strncmp(c[0], "---", 3))
            continue;
        rows++;
        if (!strcmp(c[raw], "✓") && (strcmp(c[llir], "✓") || strcmp(c[ptx], "✓"))) {
            printf("unsound: %s/%s is raw ✓ but llir %s, ptx %s\n", c[0], c[1], c[llir], c[ptx]);
            bad++;
        }
    }
    free(text);
    if (!rows)
        return cli_fail(2, "rawgate: no verdict rows in %s", path);
    printf("raw gate soundness: %d rows of %s, %d with raw ✓ but llir or ptx ✗\n", rows, path, bad);
    return bad ? 1 : 0;
}

static const char *golden = "tests/golden", *json, *verdicts;
static bool quiet, exact;
static const char *only[256];
static int nonly;

static const cli_opt opts[] = {
    {"golden", 0, CLI_STR, &golden, "DIR", "where the goldens are (default tests/golden)", 0, 0, NULL},
    {"json", 0, CLI_STR, &json, "FILE", "write the verdicts to FILE as {\"kernel/config\": verdict}", 0, 0, NULL},
    {"quiet", 'q', CLI_FLAG, &quiet, NULL, "verdicts only, no diffs", 0, 0, NULL},
    {"exact", 0, CLI_FLAG, &exact, NULL,
     "compare the raw modules as written, without the normalizer: an unused op or an "
     "expression evaluated twice is a difference", 0, 0, NULL},
    {"check-verdicts", 0, CLI_STR, &verdicts, "FILE",
     "instead: every raw ✓ row of FILE (VERDICTS.md) must be llir ✓ and ptx ✓", 0, 0, NULL},
    CLI_OPT_KERNELS,
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

const cli_spec rawgate_spec = {
    "rawgate", "[KERNEL...] [--golden DIR] [--json FILE] [--quiet] [--exact] | --check-verdicts FILE",
    "C kernels against Python's raw TTIR goldens (DIR/KERNEL/CONFIG/py.source), normalized; no "
    "Triton involved",
    "Every registered kernel (or the ones named), every config.  Exit status: 0 when every row\n"
    "is ✓, 1 otherwise.\n",
    opts, only, 256, &nonly, "KERNEL",
};

int cmd_rawgate(int argc, char **argv)
{
    int rc = cli_parse(&rawgate_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    if (verdicts)
        return check_verdicts(verdicts);
    for (int j = 0; j < nonly; j++)
        if (!ct_kernel_find(only[j]))
            return cli_fail(1, "rawgate: no kernel named `%s`", only[j]);
    char *js = NULL;
    size_t jslen = 0;
    FILE *jf = open_memstream(&js, &jslen);
    if (!jf)
        return cli_fail(1, "rawgate: out of memory");
    fputs("{", jf);
    int rows = 0, bad = 0;
    for (int i = 0; i < ct_kernel_count(); i++) {
        const ct_kernel_entry *k = ct_kernel_at(i);
        bool want = nonly == 0;
        for (int j = 0; j < nonly; j++)
            want |= !strcmp(only[j], k->def->name);
        if (!want)
            continue;
        for (int c = 0; c < k->nconfigs; c++) {
            const tl_config *cfg = &k->configs[c];
            char key[512], path[1024], verdict[64];
            snprintf(key, sizeof key, "%s/%s", k->def->name, cfg->name);
            snprintf(path, sizeof path, "%s/%s/py.source", golden, key);
            ct_diags d;
            ct_diags_init(&d);
            ct_diff_result r = {0};
            ct_module *py = NULL, *cm = NULL;
            FILE *f = fopen(path, "r");
            if (!f) {
                snprintf(verdict, sizeof verdict, "no golden");
            } else {
                fclose(f);
                py = cli_parse_ttir(path, &d);
                cm = py ? c_side(k, cfg, &d) : NULL;
                if (!py || !cm) {
                    snprintf(verdict, sizeof verdict, "error");
                } else {
                    char cname[600];
                    snprintf(cname, sizeof cname, "C %s", key);
                    ct_diff_modules_flags(py, cm, path, cname, exact ? CT_DIFF_EXACT : 0, &r, &d);
                    if (r.equal)
                        snprintf(verdict, sizeof verdict, "✓");
                    else
                        snprintf(verdict, sizeof verdict, "+%d/-%d", r.nadded, r.nremoved);
                }
            }
            bool ok = !strcmp(verdict, "✓");
            bad += !ok;
            printf("%-40s raw %s\n", key, verdict);
            if (!ok && !quiet) {
                if (!strcmp(verdict, "no golden"))
                    printf("  %s is missing: run `make fidelity` to make the goldens\n", path);
                ct_diags_print(&d, stdout, false);
                if (r.first)
                    printf("%s%s\n", r.first, r.text);
            }
            fprintf(jf, "%s\n  ", rows ? "," : "");
            cli_json_str(jf, key);
            fprintf(jf, ": \"%s\"", verdict);
            rows++;
            ct_diff_result_free(&r);
            ct_module_destroy(py);
            ct_module_destroy(cm);
            ct_diags_free(&d);
        }
    }
    fputs("\n}\n", jf);
    bool jok = fclose(jf) == 0;
    char err[1024] = "";
    if (json && (!jok || !cli_write_file(json, js, jslen, err, sizeof err))) {
        free(js);
        return cli_fail(2, "rawgate: %s", *err ? err : "out of memory");
    }
    free(js);
    printf("raw gate: %d of %d rows identical %s\n", rows - bad, rows,
           exact ? "(exact)" : "after normalization");
    return bad ? 1 : 0;
}
