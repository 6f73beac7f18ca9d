/*
 * fuzz_parse.c - libFuzzer target for the TTIR parser.
 *
 * Feeds arbitrary bytes to ct_parse_module.  Malformed text must give an
 * error (never a crash, a leak or an out-of-bounds read: the build uses
 * ASan and UBSan).  Text that parses must also survive the rest of the text
 * layer, and its printed form must be a fixed point: print, parse the
 * printed text, print again, and the two prints must be identical (with
 * and without location aliases).  Then the normalizer and the differ run
 * on it: the module and the module read back from its printed text must
 * compare equal, and normalizing a second time must change nothing.
 *
 * Build and run: fuzz/run.sh (see there).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/text.h"

static void must_roundtrip(const char *printed, unsigned flags)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module(printed, strlen(printed), "printed", &d);
    if (!m) {
        fprintf(stderr, "printed text does not parse:\n%s\n", printed);
        ct_diags_print(&d, stderr, false);
        abort();
    }
    char *again = ct_print_module(m, flags);
    if (strcmp(again, printed) != 0) {
        fprintf(stderr, "print(parse(print(x))) != print(x):\n--- first\n%s--- second\n%s", printed,
                again);
        abort();
    }
    free(again);
    ct_module_destroy(m);
    ct_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ct_diags d;
    ct_diags_init(&d);
    ct_module *m = ct_parse_module((const char *)data, size, "fuzz", &d);
    if (!m) {
        if (!ct_diags_has_errors(&d))
            abort(); /* a failure must say why */
        ct_diags_free(&d);
        return 0;
    }
    static const unsigned flags[] = {CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES, CT_PRINT_LOCS};
    for (int i = 0; i < 2; i++) {
        char *s = ct_print_module(m, flags[i]);
        must_roundtrip(s, flags[i]);
        free(s);
    }
#ifdef FUZZ_NORMALIZE
    {
        char *s = ct_print_module(m, CT_PRINT_LOCS | CT_PRINT_LOC_ALIASES);
        ct_module *m2 = ct_parse_module(s, strlen(s), "printed", &d);
        if (!m2)
            abort(); /* must_roundtrip parsed it already */
        ct_diff_result r;
        ct_diff_modules(m, m2, "a", "b", &r, &d);
        /* inlining stops at a budget (exponential call chains): then a
         * second normalization would go on, and the oracles do not hold */
        bool budget = false;
        for (int i = 0; i < d.n; i++)
            budget |= strstr(d.items[i].message, "inlining stopped") != NULL;
        if (!r.equal && !budget) {
            fprintf(stderr, "a module and its printed form differ:\n%s%s", r.first, r.text);
            abort();
        }
        ct_diff_result_free(&r);
        char *a = ct_print_module(m, CT_PRINT_NUMBERED);
        ct_normalize(m, 0, &d);
        char *b = ct_print_module(m, CT_PRINT_NUMBERED);
        if (!budget && strcmp(a, b) != 0) {
            fprintf(stderr, "normalize is not idempotent:\n--- once\n%s--- twice\n%s", a, b);
            abort();
        }
        free(a);
        free(b);
        free(s);
        ct_module_destroy(m2);
    }
#endif
    ct_module_destroy(m);
    ct_diags_free(&d);
    return 0;
}
