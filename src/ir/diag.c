/* diag.c - collected diagnostics with file:line:col and a source excerpt.
 *
 * The list belongs to the caller: its memory is untracked (util/alloc.h), so a
 * diagnostic added inside an entry point's scope survives the scope's unwind,
 * and running out of memory here loses the diagnostic (d->oom), never jumps. */
#include "ctriton/diag.h"

#include "ctriton/ir.h"

#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/util.h"

void ct_diags_init(ct_diags *d)
{
    memset(d, 0, sizeof *d);
}

void ct_diags_clear(ct_diags *d)
{
    for (int i = 0; i < d->n; i++) {
        ct_raw_free(d->items[i].file);
        ct_raw_free(d->items[i].message);
        ct_raw_free(d->items[i].op);
        ct_raw_free(d->items[i].called_from);
    }
    d->n = 0;
    d->nerrors = 0;
    d->oom = false;
}

void ct_diags_free(ct_diags *d)
{
    ct_diags_clear(d);
    ct_raw_free(d->items);
    ct_diags_init(d);
}

/* Adds a diagnostic with the message msg (taken over, NULL when it could not be
 * made); when memory runs out it is counted (errors) and marked lost. */
static ct_diag *diag_put(ct_diags *d, ct_severity sev, const char *file, int line, int col,
                         char *msg)
{
    if (sev == CT_ERROR)
        d->nerrors++;
    char *f = file ? ct_raw_strdup(file) : NULL;
    if (d->n == d->cap && msg) {
        int nc = d->cap ? d->cap * 2 : 8;
        ct_diag *ni = ct_raw_realloc(d->items, sizeof(ct_diag) * (size_t)nc);
        if (ni) {
            d->items = ni;
            d->cap = nc;
        }
    }
    if (!msg || (file && !f) || d->n == d->cap) {
        ct_raw_free(msg);
        ct_raw_free(f);
        d->oom = true;
        return NULL;
    }
    ct_diag *g = &d->items[d->n++];
    memset(g, 0, sizeof *g);
    g->severity = sev;
    g->file = f;
    g->line = line;
    g->col = col;
    g->message = msg;
    return g;
}

/* "<head><fmt...>" in untracked memory, NULL when there is none */
static char *vformat(const char *head, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    size_t h = head ? strlen(head) : 0;
    if (n < 0)
        n = 0;
    char *s = ct_raw_alloc(h + (size_t)n + 1);
    if (!s)
        return NULL;
    memcpy(s, head ? head : "", h);
    vsnprintf(s + h, (size_t)n + 1, fmt, ap);
    s[h + (size_t)n] = 0;
    return s;
}

void ct_diag_vadd(ct_diags *d, ct_severity sev, const char *file, int line, int col,
                  const char *fmt, va_list ap)
{
    if (!d)
        return;
    diag_put(d, sev, file, line, col, vformat(NULL, fmt, ap));
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
    return d && d->nerrors ? "out of memory" : NULL;
}

void ct_diag_vop(ct_diags *d, ct_severity sev, const ct_op *op, const ct_op_where *w,
                 const char *prefix, const char *fmt, va_list ap)
{
    if (!d)
        return;
    char called[512];
    const ct_loc *l = op ? ct_loc_innermost(op->loc, called, sizeof called) : NULL;
    const char *file = l ? l->file : NULL;
    int line = l ? l->line : 0, col = l ? l->col : 0;
    if (!l && op && w && w->find && w->find(w->ud, op, &line, &col))
        file = w->file;
    const char *name = op ? ct_op_info_of(op->code)->name : "";
    char head[256] = "";
    if (prefix)
        snprintf(head, sizeof head, "%s%s%s", prefix, name, *name ? ": " : "");
    ct_diag *g = diag_put(d, sev, file, line, col, vformat(head, fmt, ap));
    if (!g || !op)
        return;
    g->op = ct_raw_strdup(name);
    if (l && called[0])
        g->called_from = ct_raw_strdup(called);
    if (!g->op || (l && called[0] && !g->called_from))
        d->oom = true;
}

void ct_diag_op(ct_diags *d, ct_severity sev, const ct_op *op, const ct_op_where *w,
                const char *prefix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_diag_vop(d, sev, op, w, prefix, fmt, ap);
    va_end(ap);
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
    if (d && d->oom)
        fprintf(out, "error: out of memory (diagnostics were lost)\n");
    for (int i = 0; d && i < d->n; i++) {
        const ct_diag *g = &d->items[i];
        if (g->file && g->line > 0 && g->col > 0)
            fprintf(out, "%s:%d:%d: ", g->file, g->line, g->col);
        else if (g->file && g->line > 0)
            fprintf(out, "%s:%d: ", g->file, g->line);
        else if (g->file)
            fprintf(out, "%s: ", g->file);
        fprintf(out, "%s: %s\n", names[g->severity], g->message);
        if (g->called_from)
            fprintf(out, "  called from %s\n", g->called_from);
        if (show_source && g->file && g->line > 0)
            print_source_line(out, g->file, g->line, g->col);
    }
}

static bool module_find(const void *ud, const ct_op *op, int *line, int *col)
{
    const char *file;
    return ct_module_op_position(ud, op, &file, line, col);
}

ct_op_where ct_module_where(const ct_module *m)
{
    ct_op_where w = {m && m->positions ? m->positions->file : NULL, module_find, m};
    return w;
}
