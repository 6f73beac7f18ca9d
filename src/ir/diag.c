/* diag.c - collected diagnostics with file:line:col and a source excerpt. */
#include "ctriton/diag.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void ct_diags_init(ct_diags *d)
{
    memset(d, 0, sizeof *d);
}

void ct_diags_clear(ct_diags *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->items[i].file);
        free(d->items[i].message);
    }
    d->n = 0;
    d->nerrors = 0;
}

void ct_diags_free(ct_diags *d)
{
    ct_diags_clear(d);
    free(d->items);
    ct_diags_init(d);
}

void ct_diag_vadd(ct_diags *d, ct_severity sev, const char *file, int line, int col,
                  const char *fmt, va_list ap)
{
    if (!d)
        return;
    if (d->n == d->cap) {
        int nc = d->cap ? d->cap * 2 : 8;
        ct_diag *ni = realloc(d->items, sizeof(ct_diag) * (size_t)nc);
        if (!ni)
            return;
        d->items = ni;
        d->cap = nc;
    }
    ct_strbuf b;
    ct_sb_init(&b);
    ct_sb_vprintf(&b, fmt, ap);
    ct_diag *g = &d->items[d->n++];
    g->severity = sev;
    g->file = file ? strdup(file) : NULL;
    g->line = line;
    g->col = col;
    g->message = ct_sb_take(&b);
    if (sev == CT_ERROR)
        d->nerrors++;
}

void ct_diag_add(ct_diags *d, ct_severity sev, const char *file, int line, int col,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_diag_vadd(d, sev, file, line, col, fmt, ap);
    va_end(ap);
}

bool ct_diags_has_errors(const ct_diags *d)
{
    return d && d->nerrors > 0;
}

const char *ct_diags_first_error(const ct_diags *d)
{
    for (int i = 0; d && i < d->n; i++)
        if (d->items[i].severity == CT_ERROR)
            return d->items[i].message;
    return NULL;
}

static void print_source_line(FILE *out, const char *file, int line, int col)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return;
    char buf[4096];
    int ln = 0;
    while (fgets(buf, sizeof buf, f)) {
        if (++ln == line) {
            size_t n = strlen(buf);
            if (n && buf[n - 1] == '\n')
                buf[--n] = 0;
            fprintf(out, "  %s\n", buf);
            if (col > 0) {
                fputs("  ", out);
                for (int i = 1; i < col && i <= (int)n; i++)
                    fputc(buf[i - 1] == '\t' ? '\t' : ' ', out);
                fputs("^\n", out);
            }
            break;
        }
    }
    fclose(f);
}

void ct_diags_print(const ct_diags *d, FILE *out, bool show_source)
{
    static const char *names[] = {"note", "warning", "error"};
    for (int i = 0; d && i < d->n; i++) {
        const ct_diag *g = &d->items[i];
        if (g->file && g->line > 0 && g->col > 0)
            fprintf(out, "%s:%d:%d: ", g->file, g->line, g->col);
        else if (g->file && g->line > 0)
            fprintf(out, "%s:%d: ", g->file, g->line);
        else if (g->file)
            fprintf(out, "%s: ", g->file);
        fprintf(out, "%s: %s\n", names[g->severity], g->message);
        if (show_source && g->file && g->line > 0)
            print_source_line(out, g->file, g->line, g->col);
    }
}
