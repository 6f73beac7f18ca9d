/*
 * test_rawgate.c - the raw gate: for every kernel and config of the library
 * (conformance kernels included), the TTIR the C port emits, printed and
 * read back, must equal Python's raw TTIR golden (tests/golden/<kernel>/
 * <config>/py.source), exactly (CT_DIFF_EXACT: no normalization, so an
 * unused constant or an expression evaluated twice counts) and after
 * normalization.  No Triton involved; on a mismatch the test prints where the
 * two diverge and the diff.  (`ctriton rawgate [--exact]` is the same check as
 * a command.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kernels_testutil.h"
#include "text_testutil.h"

static void t_raw_gate(void **state)
{
    (void)state;
    const ct_kernel_entry *ks[256];
    int nk = tu_kernels(ks, 256, true);
    assert_true(nk > 0);
    int rows = 0, bad = 0, inexact = 0;
    for (int i = 0; i < nk; i++) {
        for (int c = 0; c < ks[i]->nconfigs; c++) {
            const tl_config *cfg = &ks[i]->configs[c];
            char rel[1024];
            snprintf(rel, sizeof rel, "tests/golden/%s/%s/py.source", ks[i]->def->name, cfg->name);
            rows++;
            size_t len;
            char *golden = read_src(rel, &len);
            if (!golden) {
                fprintf(stderr, "%s is missing: run `make fidelity`\n", rel);
                bad++;
                continue;
            }
            ct_module *py = parse_or_report(golden, len, rel);
            free(golden);
            ct_diags d;
            ct_diags_init(&d);
            ct_module *built = tl_build_config(ks[i]->def, cfg, &d);
            if (!py || !built) {
                ct_diags_print(&d, stderr, false);
                bad++;
                ct_module_destroy(py);
                ct_module_destroy(built);
                ct_diags_free(&d);
                continue;
            }
            char *text = ct_print_module(built, CT_PRINT_LOCS);
            ct_module_destroy(built);
            ct_module *cm = parse_or_report(text, strlen(text), "ctriton emit");
            free(text);
            assert_non_null(cm);
            char cname[600];
            snprintf(cname, sizeof cname, "C %s/%s", ks[i]->def->name, cfg->name);
            ct_diff_result r;
            /* exact first: the normalized diff rewrites both modules */
            ct_diff_modules_flags(py, cm, rel, cname, CT_DIFF_EXACT, &r, &d);
            if (!r.equal) {
                fprintf(stderr, "raw gate (exact): %s/%s differs (+%d/-%d)\n%s%s\n",
                        ks[i]->def->name, cfg->name, r.nadded, r.nremoved, r.first, r.text);
                inexact++;
            }
            ct_diff_result_free(&r);
            ct_diff_modules(py, cm, rel, cname, &r, &d);
            if (!r.equal) {
                fprintf(stderr, "raw gate: %s/%s differs (+%d/-%d)\n%s%s\n", ks[i]->def->name,
                        cfg->name, r.nadded, r.nremoved, r.first, r.text);
                bad++;
            }
            ct_diff_result_free(&r);
            ct_module_destroy(py);
            ct_module_destroy(cm);
            ct_diags_free(&d);
        }
    }
    fprintf(stderr, "raw gate: %d of %d rows identical after normalization, %d exactly\n",
            rows - bad, rows, rows - inexact);
    assert_int_equal(bad, 0);
    assert_int_equal(inexact, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(t_raw_gate)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
