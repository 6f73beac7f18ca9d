/*
 * test_emit_golden.c - IR goldens: the TTIR each kernel config emits (with
 * locations, as `ctriton emit --locs` prints it) is byte-identical to the
 * committed tests/golden/<kernel>/<config>/c.source.
 *
 * The fidelity harness checks that this text lowers like Python's; this test
 * pins the text itself, runs without Triton, and names the first differing
 * line.  After an intended change, regenerate the goldens with
 * `make fidelity` (which rewrites c.source) and review the diff.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ctriton/text.h"
#include "kernels_testutil.h"
#include "util/util.h"

static const char *source_dir(void)
{
    const char *s = getenv("CTRITON_SOURCE_DIR");
    return s ? s : CTRITON_SOURCE_DIR;
}

/* Reports the first line where a and b differ. */
static void report_first_diff(const char *what, const char *a, const char *b)
{
    int line = 1;
    const char *pa = a, *pb = b;
    while (*pa && *pa == *pb) {
        if (*pa == '\n')
            line++;
        pa++, pb++;
    }
    const char *la = pa, *lb = pb;
    while (la > a && la[-1] != '\n')
        la--;
    while (lb > b && lb[-1] != '\n')
        lb--;
    print_error("%s: first difference at line %d\n  golden:  %.*s\n  emitted: %.*s\n", what, line,
                (int)strcspn(la, "\n"), la, (int)strcspn(lb, "\n"), lb);
}

static void test_emitted_ttir_matches_goldens(void **state)
{
    int compared = 0, failed = 0;
    const ct_kernel_entry *ks[256];
    int n = tu_kernels(ks, 256, true);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < ks[i]->nconfigs; c++) {
            const char *kn = ks[i]->def->name, *cn = ks[i]->configs[c].name;
            char path[1024];
            snprintf(path, sizeof path, "%s/tests/golden/%s/%s/c.source", source_dir(), kn, cn);
            size_t len;
            char *golden = ct_read_file(path, &len);
            if (!golden) {
                print_error("missing golden %s (run `make fidelity`)\n", path);
                failed++;
                continue;
            }
            ct_diags d;
            ct_diags_init(&d);
            ct_module *m = tl_build_config(ks[i]->def, &ks[i]->configs[c], &d);
            assert_non_null(m);
            char *text = ct_print_module(m, CT_PRINT_LOCS);
            if (strcmp(text, golden) != 0) {
                char what[512];
                snprintf(what, sizeof what, "%s/%s", kn, cn);
                report_first_diff(what, golden, text);
                failed++;
            }
            compared++;
            free(text);
            free(golden);
            ct_module_destroy(m);
            ct_diags_free(&d);
        }
    assert_int_equal(failed, 0);
    assert_true(compared >= 39);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_emitted_ttir_matches_goldens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
