/* bench_sweep.c - the sizes, problems, table and plot of `ctriton bench --sweep`
 * (bench_sweep.h); the timing itself is cmd_bench.c's. */
#include "bench_sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool parse_size(const char *s, const char *end, int64_t *v)
{
    if (s == end || !isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *e;
    long long x = strtoll(s, &e, 10);
    if (e != end || errno || x < 1 || x > INT32_MAX)
        return false;
    *v = x;
    return true;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int bs_parse_sweep(const char *spec, char *dim, size_t dcap, int64_t *sizes, char *err,
                   size_t ecap)
{
    const char *eq = spec ? strchr(spec, '=') : NULL;
    if (!eq || eq == spec || (size_t)(eq - spec) >= dcap) {
        snprintf(err, ecap, "`%s` is not DIM=a:b, DIM=a:b:K or DIM=s1,s2,...", spec ? spec : "");
        return -1;
    }
    for (const char *p = spec; p < eq; p++)
        if (!isalnum((unsigned char)*p) && *p != '_') {
            snprintf(err, ecap, "`%.*s` is not a dimension's name", (int)(eq - spec), spec);
            return -1;
        }
    snprintf(dim, dcap, "%.*s", (int)(eq - spec), spec);
    const char *v = eq + 1, *end = v + strlen(v);
    int n = 0;
    const char *c1 = strchr(v, ':');
    if (!c1) { /* a list */
        for (const char *p = v; p <= end;) {
            const char *q = strchr(p, ',');
            if (!q)
                q = end;
            if (n == BS_MAX_SIZES) {
                snprintf(err, ecap, "more than %d sizes", BS_MAX_SIZES);
                return -1;
            }
            if (!parse_size(p, q, &sizes[n])) {
                snprintf(err, ecap, "`%.*s` is not a size from 1 to 2^31-1", (int)(q - p), p);
                return -1;
            }
            n++;
            p = q + 1;
        }
        qsort(sizes, (size_t)n, sizeof *sizes, cmp64);
        int m = 0; /* without repeats */
        for (int i = 0; i < n; i++)
            if (!m || sizes[m - 1] != sizes[i])
                sizes[m++] = sizes[i];
        return m;
    }
    const char *c2 = strchr(c1 + 1, ':');
    int64_t a, b, k = 2;
    if (!parse_size(v, c1, &a) || !parse_size(c1 + 1, c2 ? c2 : end, &b)) {
        snprintf(err, ecap, "`%s`: a and b of a:b must be sizes from 1 to 2^31-1", v);
        return -1;
    }
    if (c2 && (!parse_size(c2 + 1, end, &k) || k < 2)) {
        snprintf(err, ecap, "`%s`: the factor K of a:b:K must be an integer of at least 2", v);
        return -1;
    }
    if (b < a) {
        snprintf(err, ecap, "`%s`: the sweep runs from a up to b, and b < a", v);
        return -1;
    }
    for (int64_t s = a;;) { /* a, ak, ak^2, ... while at most b, then b */
        int64_t next = s >= b ? b : s > b / k ? b : s * k;
        if (n == BS_MAX_SIZES) {
            snprintf(err, ecap, "`%s` makes more than %d sizes: use a larger factor (a:b:K)", v,
                     BS_MAX_SIZES);
            return -1;
        }
        sizes[n++] = s;
        if (s >= b)
            break;
        s = next;
    }
    return n;
}

bool bs_problem_with(const char *base, const char *dim, int64_t v, char *out, size_t cap)
{
    size_t len = 0, dl = strlen(dim);
    bool done = false;
    out[0] = 0;
    for (const char *p = base ? base : ""; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        int w;
        if ((size_t)(e - p) > dl && !strncmp(p, dim, dl) && p[dl] == '=') {
            w = snprintf(out + len, cap - len, "%s%s=%lld", len ? " " : "", dim, (long long)v);
            done = true;
        } else {
            w = snprintf(out + len, cap - len, "%s%.*s", len ? " " : "", (int)(e - p), p);
        }
        if (w < 0 || (size_t)w >= cap - len)
            return false;
        len += (size_t)w;
        p = e;
    }
    if (!done) {
        int w = snprintf(out + len, cap - len, "%s%s=%lld", len ? " " : "", dim, (long long)v);
        if (w < 0 || (size_t)w >= cap - len)
            return false;
    }
    return true;
}

void bs_print_table(FILE *f, const char *what, const char *dim, const bs_point *p, int n)
{
    fprintf(f, "%s: a sweep of %s\n", what, dim);
    fprintf(f, "  first launch: lowering (or the disk cache), loading and one run; steady: "
               "do_bench's median, L2 flushed\n");
    fprintf(f, "  %10s  %-16s %12s %12s  %12s %25s %10s %10s\n", dim, "grid", "first ms", "lowering ms",
            "steady ms", "(p20 - p80)", "GB/s", "TFLOP/s");
    for (int i = 0; i < n; i++) {
        char grid[48], range[64], low[32];
        snprintf(grid, sizeof grid, "(%u,%u,%u)", p[i].grid[0], p[i].grid[1], p[i].grid[2]);
        snprintf(range, sizeof range, "(%.4f - %.4f)", p[i].p20_ms, p[i].p80_ms);
        if (p[i].lowered)
            snprintf(low, sizeof low, "%.1f", p[i].compile_ms);
        else
            snprintf(low, sizeof low, "cached");
        fprintf(f, "  %10lld  %-16s %12.2f %12s  %12.4f %25s %10.1f %10.3f\n", (long long)p[i].size,
                grid, p[i].first_ms, low, p[i].median_ms, range, p[i].gbs, p[i].tflops);
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

void bs_print_json(FILE *f, const char *what, const char *dim, const bs_point *p, int n)
{
    fprintf(f, "{\"kernel\": ");
    json_str(f, what);
    fprintf(f, ", \"dim\": ");
    json_str(f, dim);
    fprintf(f, ", \"points\": [");
    for (int i = 0; i < n; i++)
        fprintf(f,
                "%s{\"size\": %lld, \"grid\": [%u, %u, %u], \"first_ms\": %.6f, \"lowered\": %s, "
                "\"compile_ms\": %.6f, \"median_ms\": %.6f, \"p20_ms\": %.6f, \"p80_ms\": %.6f, "
                "\"gbs\": %.3f, \"tflops\": %.4f}",
                i ? ", " : "", (long long)p[i].size, p[i].grid[0], p[i].grid[1], p[i].grid[2],
                p[i].first_ms, p[i].lowered ? "true" : "false", p[i].compile_ms, p[i].median_ms,
                p[i].p20_ms, p[i].p80_ms, p[i].gbs, p[i].tflops);
    fprintf(f, "]}\n");
}

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

/* plot geometry */
enum { W = 720, H = 440, ML = 70, MR = 20, MT = 40, MB = 60 };

typedef struct axes {
    double x0, x1, y0, y1; /* log2 of the sizes, log10 of the ms */
} axes;

static double px(const axes *a, double size)
{
    double t = a->x1 > a->x0 ? (log2(size) - a->x0) / (a->x1 - a->x0) : 0.5;
    return ML + t * (W - ML - MR);
}

static double py(const axes *a, double ms)
{
    double t = (log10(ms) - a->y0) / (a->y1 - a->y0);
    return H - MB - t * (H - MT - MB);
}

static void series(FILE *f, const axes *a, const bs_point *p, int n, bool first, const char *color)
{
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", color);
    for (int i = 0; i < n; i++) {
        double v = first ? p[i].first_ms : p[i].median_ms;
        if (v > 0)
            fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(a, (double)p[i].size), py(a, v));
    }
    fprintf(f, "\"/>\n");
    for (int i = 0; i < n; i++) {
        double v = first ? p[i].first_ms : p[i].median_ms;
        if (v > 0)
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s=%lld: %.4f ms</title></circle>\n",
                    px(a, (double)p[i].size), py(a, v), color, "size", (long long)p[i].size, v);
    }
}

bool bs_write_svg(FILE *f, const char *what, const char *dim, const bs_point *p, int n)
{
    axes a = {0, 1, -3, 3};
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < n; i++) {
        double v[2] = {p[i].first_ms, p[i].median_ms};
        for (int j = 0; j < 2; j++)
            if (v[j] > 0) {
                lo = fmin(lo, v[j]);
                hi = fmax(hi, v[j]);
            }
        if (i == 0 || log2((double)p[i].size) < a.x0)
            a.x0 = log2((double)p[i].size);
        if (i == 0 || log2((double)p[i].size) > a.x1)
            a.x1 = log2((double)p[i].size);
    }
    if (hi > 0) {
        a.y0 = floor(log10(lo));
        a.y1 = ceil(log10(hi));
        if (a.y1 <= a.y0)
            a.y1 = a.y0 + 1;
    }
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", W, H);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
    fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"14\">", ML);
    xml_text(f, what);
    fprintf(f, ": time against ");
    xml_text(f, dim);
    fprintf(f, "</text>\n");
    /* the ms axis: a line per decade */
    for (int e = (int)a.y0; e <= (int)a.y1; e++) {
        double y = py(&a, pow(10, e));
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", ML, y,
                W - MR, y);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g ms</text>\n", ML - 6, y + 4,
                pow(10, e));
    }
    /* the size axis: a tick per size */
    for (int i = 0; i < n; i++) {
        double x = px(&a, (double)p[i].size);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\"/>\n", x,
                H - MB, x, H - MB + 5);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%lld</text>\n", x, H - MB + 18,
                (long long)p[i].size);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, H - MB,
            W - MR, H - MB);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, MT, ML,
            H - MB);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (W + ML - MR) / 2, H - 20);
    xml_text(f, dim);
    fprintf(f, " (log scale)</text>\n");
    series(f, &a, p, n, true, "#d62728");
    series(f, &a, p, n, false, "#1f77b4");
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#1f77b4\"/>"
               "<text x=\"%d\" y=\"%d\">steady state (do_bench median)</text>\n",
            W - MR - 260, MT, W - MR - 245, MT + 9);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#d62728\"/>"
               "<text x=\"%d\" y=\"%d\">first launch (lowering, loading, one run)</text>\n",
            W - MR - 260, MT + 16, W - MR - 245, MT + 25);
    fprintf(f, "</svg>\n");
    return !ferror(f);
}
