/*
 * bench_sweep.h - what `ctriton bench KERNEL --sweep DIM=a:b` needs that runs without a
 * GPU: the sizes of a sweep, the problem string at each size, the table and the SVG plot.
 */
#ifndef CTRITON_BENCH_SWEEP_H
#define CTRITON_BENCH_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BS_MAX_SIZES 64

/* "DIM=a:b" (a, 2a, 4a, ... up to b, and b), "DIM=a:b:K" (times K), or "DIM=s1,s2,...":
 * the dimension into dim and the sizes in increasing order.  Returns the count, or -1
 * with why in err (sizes from 1 to 2^31-1, at most BS_MAX_SIZES of them). */
int bs_parse_sweep(const char *spec, char *dim, size_t dcap, int64_t *sizes, char *err,
                   size_t ecap);

/* The problem string base ("M=64 N=1000") with DIM set to v (replaced, or added at the
 * end); false if it does not fit in cap. */
bool bs_problem_with(const char *base, const char *dim, int64_t v, char *out, size_t cap);

/* One size of a sweep, measured. */
typedef struct bs_point {
    int64_t size;
    unsigned grid[3];
    double first_ms;       /* the first launch: lowering (or the disk cache), loading, one run */
    double compile_ms;     /* of that, the lowering (0: the disk cache had it) */
    bool lowered;
    double median_ms, p20_ms, p80_ms; /* steady state (do_bench) */
    double gbs, tflops;
} bs_point;

/* The table, one row per size. */
void bs_print_table(FILE *f, const char *what, const char *dim, const bs_point *p, int n);
/* The sweep as JSON: {"kernel": what, "dim": dim, "points": [...]}. */
void bs_print_json(FILE *f, const char *what, const char *dim, const bs_point *p, int n);
/* A log-log plot of the steady-state time and the first launch against the size, as a
 * standalone SVG document.  False if f fails. */
bool bs_write_svg(FILE *f, const char *what, const char *dim, const bs_point *p, int n);

#endif
