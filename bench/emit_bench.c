/*
 * emit_bench - time to build and print each library kernel's TTIR in C.
 *
 *   emit_bench [REPEATS [KERNEL]]  prints "kernel config median_us min_us bytes" lines
 *
 * Each measurement builds the module with the kernel language and prints it
 * to text without locations (what `ctriton emit` prints and what
 * Python's str(module) prints), minus process start; the median of
 * REPEATS runs (default 200) is reported.  bench/emit_bench.py runs this
 * next to Python's frontend (ASTSource.make_ir) and writes the comparison.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctriton/text.h"
#include "kernels.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 200;
    if (reps < 1)
        reps = 1;
    double *t = malloc(sizeof(double) * (size_t)reps);
    ct_register_library_kernels();
    const ct_kernel_entry *k[256];
    int n = ct_kernels_list(k, 256, false);
    const char *only = argc > 2 ? argv[2] : NULL;
    /* warm up: one build and print of every kernel first (first-touch page
     * faults, caches, the CPU's clock), as the Python side discards its first call */
    for (int i = 0; i < n; i++)
        for (int c = 0; c < k[i]->nconfigs; c++) {
            ct_diags d;
            ct_diags_init(&d);
            ct_module *m = tl_build_config(k[i]->def, &k[i]->configs[c], &d);
            free(m ? ct_print_module(m, 0) : NULL);
            ct_module_destroy(m);
            ct_diags_free(&d);
        }
    for (int i = 0; i < n; i++) {
        if (only && strcmp(only, k[i]->def->name) != 0)
            continue;
        for (int c = 0; c < k[i]->nconfigs; c++) {
            const tl_config *cfg = &k[i]->configs[c];
            size_t bytes = 0;
            for (int r = 0; r < reps; r++) {
                double t0 = now_us();
                ct_diags d;
                ct_diags_init(&d);
                ct_module *m = tl_build_config(k[i]->def, cfg, &d);
                char *s = m ? ct_print_module(m, 0) : NULL; /* as str(mod) in Python: no locations */
                t[r] = now_us() - t0;
                if (!m) {
                    ct_diags_print(&d, stderr, false);
                    return 1;
                }
                bytes = strlen(s);
                free(s);
                ct_module_destroy(m);
                ct_diags_free(&d);
            }
            qsort(t, (size_t)reps, sizeof(double), cmp);
            printf("%s %s %.2f %.2f %zu\n", k[i]->def->name, cfg->name, t[reps / 2], t[0], bytes);
        }
    }
    free(t);
    return 0;
}
