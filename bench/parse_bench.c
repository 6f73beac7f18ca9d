/*
 * parse_bench.c - how long the raw gate takes per file: parsing a TTIR
 * file, and parsing plus normalizing it, for the largest golden (every
 * tests/golden/<kernel>/<config>/{py.source,py.ttir,c.source}) and the
 * largest file of the parser corpus (tests/text/corpus).  The goal is under
 * a millisecond for the largest golden.  Reports the median and the best of
 * many runs; no assertion (timing belongs in benchmarks, not tests).
 *
 * usage: parse_bench [FILE...]   (default: the files above; run from the
 *                                 source tree or set CTRITON_SOURCE_DIR)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ctriton/text.h"
#include "util/util.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The largest regular file among dir/<a>/<b>/<names...> (depth 2) or dir/<name>. */
static void largest(const char *dir, int depth, const char *const *names, char *best, size_t cap,
                    off_t *best_size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth > 0) {
            largest(path, depth - 1, names, best, cap, best_size);
            continue;
        }
        if (!S_ISREG(st.st_mode) || depth != 0)
            continue;
        bool want = !names;
        for (int i = 0; names && names[i]; i++)
            want |= !strcmp(e->d_name, names[i]);
        if (want && st.st_size > *best_size) {
            *best_size = st.st_size;
            snprintf(best, cap, "%s", path);
        }
    }
    if (d)
        closedir(d);
}

static unsigned nflags; /* CT_NORM_* from $PARSE_BENCH_NORM_FLAGS, to time the phases */

static void bench(const char *path)
{
    size_t len;
    char *text = ct_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "parse_bench: cannot read %s\n", path);
        return;
    }
    enum { RUNS = 400 };
    static double tp[RUNS], tn[RUNS];
    int ops = 0;
    for (int r = 0; r < RUNS; r++) {
        double t0 = now_us();
        ct_module *m = ct_parse_module(text, len, path, NULL);
        double t1 = now_us();
        if (!m) {
            fprintf(stderr, "parse_bench: %s does not parse\n", path);
            free(text);
            return;
        }
        ct_normalize(m, nflags, NULL);
        double t2 = now_us();
        if (r == 0) {
            char *s = ct_print_module(m, 0);
            for (const char *c = s; *c; c++)
                ops += *c == '\n';
            free(s);
        }
        ct_module_destroy(m);
        tp[r] = t1 - t0;
        tn[r] = t2 - t0;
    }
    qsort(tp, RUNS, sizeof tp[0], cmp_double);
    qsort(tn, RUNS, sizeof tn[0], cmp_double);
    printf("%s (%zu bytes, %d lines normalized)\n", path, len, ops);
    printf("  parse             median %7.1f us   best %7.1f us\n", tp[RUNS / 2], tp[0]);
    printf("  parse + normalize median %7.1f us   best %7.1f us   %s\n", tn[RUNS / 2], tn[0],
           tn[RUNS / 2] < 1000 ? "(under 1 ms)" : "(OVER 1 ms)");
    free(text);
}

int main(int argc, char **argv)
{
    const char *nf = getenv("PARSE_BENCH_NORM_FLAGS");
    nflags = nf ? (unsigned)atoi(nf) : 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            bench(argv[i]);
        return 0;
    }
    const char *root = getenv("CTRITON_SOURCE_DIR");
    root = root && *root ? root : ".";
    static const char *const golden_names[] = {"py.source", "py.ttir", "c.source", NULL};
    char dir[4096], best[8192] = "";
    off_t size = 0;
    snprintf(dir, sizeof dir, "%s/tests/golden", root);
    largest(dir, 2, golden_names, best, sizeof best, &size);
    if (!size) {
        fprintf(stderr, "parse_bench: no goldens under %s (run from the source tree)\n", dir);
        return 1;
    }
    printf("largest golden:\n");
    bench(best);
    size = 0;
    snprintf(dir, sizeof dir, "%s/tests/text/corpus", root);
    largest(dir, 0, NULL, best, sizeof best, &size);
    if (size) {
        printf("largest file of the parser corpus:\n");
        bench(best);
    }
    return 0;
}
