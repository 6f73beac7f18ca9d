/*
 * diff.c - the normalized difference of two modules.
 *
 * Both modules are normalized (ct_normalize, keeping their locations so the
 * report can point at sources), printed with numbered values, and compared
 * line by line with Myers' O(ND) algorithm.  The report names the first
 * diverging op of each side with its source location (file:line:col, and
 * the call it was inlined from), and a unified diff of the normalized text.
 */
#include "ctriton/text.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

#include "text_internal.h"
#include "util/util.h"

/* Lines of a text, split in place (the text is modified). */
typedef struct lines {
    char **l;
    uint64_t *h;
    int n;
} lines;

static void split_lines(char *text, lines *out)
{
    int n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    out->l = ct_raw_alloc(sizeof(char *) * (size_t)(n + 1));
    out->h = ct_raw_alloc(sizeof(uint64_t) * (size_t)(n + 1));
    out->n = 0;
    char *c = text;
    while (*c) {
        char *e = strchr(c, '\n');
        if (e)
            *e = 0;
        uint64_t h = 1469598103934665603ull;
        for (const char *q = c; *q; q++)
            h = (h ^ (unsigned char)*q) * 1099511628211ull;
        out->l[out->n] = c;
        out->h[out->n++] = h;
        if (!e)
            break;
        c = e + 1;
    }
}

static bool same_line(const lines *a, int i, const lines *b, int j)
{
    return a->h[i] == b->h[j] && !strcmp(a->l[i], b->l[j]);
}

/* An edit script: for each step, ' ' (both), '-' (only a) or '+' (only b). */
typedef struct edit {
    char op;
    int ia, ib;
} edit;

/* Myers' greedy diff, keeping the frontier of every step to backtrack.
 * Beyond MAX_D differences (huge rewrites) it gives up on a minimal script
 * and reports the middle, between the common prefix and suffix, replaced. */
#define MAX_D 1000

static int myers(const lines *a, const lines *b, int lo_a, int hi_a, int lo_b, int hi_b,
                 edit *out)
{
    int n = hi_a - lo_a, m = hi_b - lo_b, max = n + m;
    int dmax = max < MAX_D ? max : MAX_D;
    int off = dmax + 1;
    int *v = ct_raw_calloc((size_t)(2 * off + 1), sizeof(int));
    int **trace = ct_raw_calloc((size_t)(dmax + 1), sizeof(int *));
    int found = -1;
    for (int d = 0; d <= dmax && found < 0; d++) {
        for (int k = -d; k <= d; k += 2) {
            int x;
            if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
                x = v[off + k + 1];
            else
                x = v[off + k - 1] + 1;
            int y = x - k;
            while (x < n && y < m && same_line(a, lo_a + x, b, lo_b + y))
                x++, y++;
            v[off + k] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
        trace[d] = ct_raw_alloc(sizeof(int) * (size_t)(2 * off + 1));
        memcpy(trace[d], v, sizeof(int) * (size_t)(2 * off + 1));
    }
    int ne = 0;
    if (found < 0) {
        for (int i = 0; i < n; i++)
            out[ne++] = (edit){'-', lo_a + i, -1};
        for (int j = 0; j < m; j++)
            out[ne++] = (edit){'+', -1, lo_b + j};
    } else {
        /* backtrack from the end, collecting the script in reverse */
        edit *rev = ct_raw_alloc(sizeof(edit) * (size_t)(n + m + 1));
        int nr = 0, x = n, y = m;
        for (int d = found; d > 0; d--) {
            int *pv = trace[d - 1];
            int k = x - y;
            int pk = (k == -d || (k != d && pv[off + k - 1] < pv[off + k + 1])) ? k + 1 : k - 1;
            int px = pv[off + pk], py = px - pk;
            while (x > px && y > py) {
                x--, y--;
                rev[nr++] = (edit){' ', lo_a + x, lo_b + y};
            }
            if (x == px)
                rev[nr++] = (edit){'+', -1, lo_b + --y};
            else
                rev[nr++] = (edit){'-', lo_a + --x, -1};
        }
        while (x > 0 && y > 0) {
            x--, y--;
            rev[nr++] = (edit){' ', lo_a + x, lo_b + y};
        }
        for (int i = nr - 1; i >= 0; i--)
            out[ne++] = rev[i];
        ct_raw_free(rev);
    }
    for (int d = 0; d <= dmax; d++)
        ct_raw_free(trace[d]);
    ct_raw_free(trace);
    ct_raw_free(v);
    return ne;
}

/* The whole script: common prefix and suffix, Myers in between. */
static int diff_lines(const lines *a, const lines *b, edit **out)
{
    int pre = 0;
    while (pre < a->n && pre < b->n && same_line(a, pre, b, pre))
        pre++;
    int suf = 0;
    while (suf < a->n - pre && suf < b->n - pre && same_line(a, a->n - 1 - suf, b, b->n - 1 - suf))
        suf++;
    edit *e = ct_raw_alloc(sizeof(edit) * (size_t)(a->n + b->n + 1));
    int ne = 0;
    for (int i = 0; i < pre; i++)
        e[ne++] = (edit){' ', i, i};
    ne += myers(a, b, pre, a->n - suf, pre, b->n - suf, e + ne);
    for (int i = suf; i > 0; i--)
        e[ne++] = (edit){' ', a->n - i, b->n - i};
    *out = e;
    return ne;
}

/* ---- the report ----------------------------------------------------- */

static void describe_loc(ct_strbuf *b, const ct_loc *l, int depth)
{
    if (!l || depth > 50) {
        ct_sb_puts(b, "unknown location");
        return;
    }
    switch (l->kind) {
    case CT_LOC_FILE:
        ct_sb_printf(b, "%s:%d:%d", l->file, l->line, l->col);
        break;
    case CT_LOC_NAME:
        if (l->child && l->child->kind != CT_LOC_UNKNOWN)
            describe_loc(b, l->child, depth + 1);
        else
            ct_sb_printf(b, "(value %s, no file location)", l->name);
        break;
    case CT_LOC_CALLSITE:
        describe_loc(b, l->child, depth + 1);
        ct_sb_puts(b, ", inlined at ");
        describe_loc(b, l->caller, depth + 1);
        break;
    case CT_LOC_FUSED:
        if (l->nfused)
            describe_loc(b, l->fused[0], depth + 1);
        else
            ct_sb_puts(b, "unknown location");
        break;
    default:
        ct_sb_puts(b, "unknown location");
        break;
    }
}

/* The op printed on line i, or the nearest one above it. */
static const ct_op *op_at(const ct_op **map, int n, int i)
{
    if (i >= n)
        i = n - 1;
    for (; i >= 0; i--)
        if (map[i])
            return map[i];
    return NULL;
}

/* One side of the first difference: its changed line, or (when only the
 * other side changes there) the line before which the other side adds. */
static void report_side(ct_strbuf *b, const char *name, const lines *t, int i, bool changed,
                        const ct_op **map, int nmap)
{
    ct_sb_printf(b, "  %s: ", name);
    if (i < t->n) {
        const char *s = t->l[i];
        while (*s == ' ')
            s++;
        ct_sb_printf(b, "%sline %d: %s\n", changed ? "" : "nothing before ", i + 1, s);
    } else {
        ct_sb_puts(b, "nothing at the end\n");
    }
    const ct_op *op = op_at(map, nmap, i < t->n ? i : t->n - 1);
    if (op) {
        ct_sb_printf(b, "    in %s at ", ct_op_info_of(op->code)->name);
        describe_loc(b, op->loc, 0);
        ct_sb_putc(b, '\n');
    }
}

static void unified(ct_strbuf *o, const lines *a, const lines *b, const edit *e, int ne,
                    const char *na, const char *nb, int ctx)
{
    ct_sb_printf(o, "--- %s\n+++ %s\n", na, nb);
    int i = 0;
    while (i < ne) {
        while (i < ne && e[i].op == ' ')
            i++;
        if (i >= ne)
            break;
        int start = i - ctx < 0 ? 0 : i - ctx;
        /* extend the hunk while changes are closer than 2*ctx lines apart */
        int end = i;
        for (;;) {
            while (end < ne && e[end].op != ' ')
                end++;
            int k = end;
            while (k < ne && e[k].op == ' ' && k - end < 2 * ctx)
                k++;
            if (k < ne && e[k].op != ' ') {
                end = k;
                continue;
            }
            break;
        }
        int stop = end + ctx > ne ? ne : end + ctx;
        int sa = -1, sb = -1, ca = 0, cb = 0;
        for (int k = start; k < stop; k++) {
            if (e[k].op != '+') {
                if (sa < 0)
                    sa = e[k].ia;
                ca++;
            }
            if (e[k].op != '-') {
                if (sb < 0)
                    sb = e[k].ib;
                cb++;
            }
        }
        /* an empty side starts after the line before the hunk */
        if (sa < 0) {
            sa = 0;
            for (int k = start - 1; k >= 0; k--)
                if (e[k].op != '+') {
                    sa = e[k].ia + 1;
                    break;
                }
        }
        if (sb < 0) {
            sb = 0;
            for (int k = start - 1; k >= 0; k--)
                if (e[k].op != '-') {
                    sb = e[k].ib + 1;
                    break;
                }
        }
        ct_sb_printf(o, "@@ -%d,%d +%d,%d @@\n", ca ? sa + 1 : sa, ca, cb ? sb + 1 : sb, cb);
        for (int k = start; k < stop; k++) {
            const char *s = e[k].op == '+' ? b->l[e[k].ib] : a->l[e[k].ia];
            ct_sb_printf(o, "%c%s\n", e[k].op, s);
        }
        i = stop;
    }
}

bool ct_diff_modules(ct_module *a, ct_module *b, const char *name_a, const char *name_b,
                     ct_diff_result *out, ct_diags *diags)
{
    return ct_diff_modules_flags(a, b, name_a, name_b, 0, out, diags);
}

bool ct_diff_modules_flags(ct_module *a, ct_module *b, const char *name_a, const char *name_b,
                           unsigned flags, ct_diff_result *out, ct_diags *diags)
{
    memset(out, 0, sizeof *out);
    name_a = name_a ? name_a : "a";
    name_b = name_b ? name_b : "b";
    bool exact = flags & CT_DIFF_EXACT;
    if (!exact) {
        ct_normalize(a, CT_NORM_KEEP_LOCS, diags);
        ct_normalize(b, CT_NORM_KEEP_LOCS, diags);
    }
    const ct_op **ma, **mb;
    int nma, nmb;
    char *ta = ct_print_module_lines(a, CT_PRINT_NUMBERED, &ma, &nma);
    /* both in one release's spellings (a's): TTIR of two releases compares by
     * what it says, not by how each release spells it */
    const struct ct_triton *bt = b->triton;
    b->triton = a->triton;
    char *tb = ct_print_module_lines(b, CT_PRINT_NUMBERED, &mb, &nmb);
    b->triton = bt;
    out->equal = !strcmp(ta, tb);
    if (out->equal) {
        out->text = ct_raw_strdup("");
    } else {
        lines la, lb;
        split_lines(ta, &la);
        split_lines(tb, &lb);
        edit *e;
        int ne = diff_lines(&la, &lb, &e);
        int first = -1;
        for (int i = 0; i < ne; i++) {
            if (e[i].op == '+')
                out->nadded++;
            else if (e[i].op == '-')
                out->nremoved++;
            if (e[i].op != ' ' && first < 0)
                first = i;
        }
        /* where the first change sits on each side */
        int ia = 0, ib = 0;
        for (int i = 0; i < first; i++) {
            if (e[i].op != '+')
                ia = e[i].ia + 1;
            if (e[i].op != '-')
                ib = e[i].ib + 1;
        }
        bool ca = false, cb = false;
        for (int i = first; i < ne && e[i].op != ' '; i++) {
            if (e[i].op == '-') {
                ia = e[i].ia;
                ca = true;
                break;
            }
        }
        for (int i = first; i < ne && e[i].op != ' '; i++) {
            if (e[i].op == '+') {
                ib = e[i].ib;
                cb = true;
                break;
            }
        }
        ct_strbuf r;
        ct_sb_init(&r);
        ct_sb_printf(&r, exact ? "first difference (exact):\n"
                               : "first difference (after normalization):\n");
        report_side(&r, name_a, &la, ia, ca, ma, nma);
        report_side(&r, name_b, &lb, ib, cb, mb, nmb);
        out->first = ct_sb_take(&r);
        ct_strbuf u;
        ct_sb_init(&u);
        unified(&u, &la, &lb, e, ne, name_a, name_b, 3);
        out->text = ct_sb_take(&u);
        ct_raw_free(e);
        ct_raw_free(la.l);
        ct_raw_free(la.h);
        ct_raw_free(lb.l);
        ct_raw_free(lb.h);
    }
    ct_raw_free(ta);
    ct_raw_free(tb);
    ct_raw_free(ma);
    ct_raw_free(mb);
    return true;
}

void ct_diff_result_free(ct_diff_result *r)
{
    if (!r)
        return;
    ct_raw_free(r->text);
    ct_raw_free(r->first);
    memset(r, 0, sizeof *r);
}
