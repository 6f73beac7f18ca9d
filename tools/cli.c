/*
 * cli.c - the argument parser every subcommand uses, and the helpers they
 * share: failing with a message, finding a kernel, reading and writing
 * files, JSON strings, grids and architecture lists.
 */
#include "cli.h"
#include "ctriton/triton_version.h"

#include "ctriton/text.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsing ----------------------------------------------------------------- */

static int bad(const cli_spec *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(const cli_spec *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ctriton %s: ", s->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see `ctriton %s --help`)\n", s->name);
    va_end(ap);
    return 2;
}

static const cli_opt *find_long(const cli_spec *s, const char *name, size_t n)
{
    for (const cli_opt *o = s->opts; o && o->name; o++)
        if (strlen(o->name) == n && !strncmp(o->name, name, n))
            return o;
    return NULL;
}

static const cli_opt *find_short(const cli_spec *s, char c)
{
    for (const cli_opt *o = s->opts; o && o->name; o++)
        if (o->short_name == c)
            return o;
    return NULL;
}

/* Stores one value; an exit status (2) on error, else CLI_GO. */
static int store(const cli_spec *s, const cli_opt *o, const char *v)
{
    char *end;
    switch (o->kind) {
    case CLI_FLAG:
        *(bool *)o->dest = true;
        return CLI_GO;
    case CLI_STR:
        *(const char **)o->dest = v;
        return CLI_GO;
    case CLI_INT: {
        errno = 0;
        long long x = strtoll(v, &end, 10);
        if (end == v || *end || errno || (unsigned char)*v <= ' ')
            return bad(s, "--%s: `%s` is not an integer", o->name, v);
        if (x < (long long)o->min || x > (long long)o->max)
            return bad(s, "--%s: %s is out of range (%.0f to %.0f)", o->name, v, o->min, o->max);
        *(int *)o->dest = (int)x;
        return CLI_GO;
    }
    case CLI_U64: {
        errno = 0;
        unsigned long long x = strtoull(v, &end, 0);
        if (end == v || *end || errno || *v == '-' || (unsigned char)*v <= ' ')
            return bad(s, "--%s: `%s` is not an unsigned integer", o->name, v);
        *(uint64_t *)o->dest = x;
        return CLI_GO;
    }
    case CLI_DOUBLE: {
        errno = 0;
        double x = strtod(v, &end);
        if (end == v || *end || errno || !isfinite(x) || (unsigned char)*v <= ' ')
            return bad(s, "--%s: `%s` is not a number", o->name, v);
        if (x < o->min || x > o->max)
            return bad(s, "--%s: %s is out of range (%g to %g)", o->name, v, o->min, o->max);
        *(double *)o->dest = x;
        return CLI_GO;
    }
    case CLI_LIST: {
        cli_list *l = o->dest;
        if (l->n >= l->cap)
            return bad(s, "--%s: at most %d of them", o->name, l->cap);
        l->v[l->n++] = v;
        return CLI_GO;
    }
    case CLI_FN: {
        char err[1024] = "";
        if (!o->fn(v, o->dest, err, sizeof err))
            return bad(s, "--%s %s: %s", o->name, v, err);
        return CLI_GO;
    }
    }
    return bad(s, "--%s: unknown option kind", o->name);
}

int cli_parse(const cli_spec *s, int argc, char **argv)
{
    if (s->npos)
        *s->npos = 0;
    bool only_pos = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const cli_opt *o = NULL;
        const char *value = NULL;
        bool is_opt = !only_pos && a[0] == '-' && a[1] != 0;
        if (is_opt && !strcmp(a, "--")) {
            only_pos = true;
            continue;
        }
        if (is_opt && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            cli_help(s, stdout);
            return 0;
        }
        if (is_opt && a[1] == '-') {
            const char *name = a + 2, *eq = strchr(name, '=');
            size_t n = eq ? (size_t)(eq - name) : strlen(name);
            if (!(o = find_long(s, name, n)))
                return bad(s, "unknown option `--%.*s`", (int)n, name);
            if (eq && o->kind == CLI_FLAG)
                return bad(s, "--%s takes no value (got `%s`)", o->name, eq + 1);
            value = eq ? eq + 1 : NULL;
        } else if (is_opt) {
            if (!(o = find_short(s, a[1])))
                return bad(s, "unknown option `%s`", a);
            if (a[2] && o->kind == CLI_FLAG)
                return bad(s, "-%c takes no value (got `%s`)", a[1], a + 2);
            value = a[2] ? a + 2 : NULL;
        }
        if (!o) {
            if (!s->npos || *s->npos >= s->max_pos)
                return s->max_pos
                           ? bad(s, "unexpected argument `%s` (one %s only)", a,
                                 s->pos_name ? s->pos_name : "argument")
                           : bad(s, "unexpected argument `%s`", a);
            s->pos[(*s->npos)++] = a;
            continue;
        }
        if (o->kind != CLI_FLAG && !value) {
            /* the next word is the value, even one starting with '-' (--arg -3) */
            if (i + 1 >= argc)
                return bad(s, "--%s needs a value (%s)", o->name, o->metavar ? o->metavar : "VALUE");
            value = argv[++i];
        }
        int rc = store(s, o, value);
        if (rc != CLI_GO)
            return rc;
    }
    return CLI_GO;
}

void cli_help(const cli_spec *s, FILE *f)
{
    fprintf(f, "usage: ctriton %s %s\n\n%s\n\n", s->name, s->synopsis, s->summary);
    fprintf(f, "  %-28s %s\n", "-h, --help", "show this help and exit");
    for (const cli_opt *o = s->opts; o && o->name; o++) {
        char left[96];
        int n = o->short_name ? snprintf(left, sizeof left, "-%c, ", o->short_name) : 0;
        snprintf(left + n, sizeof left - (size_t)n, "--%s%s%s", o->name, o->metavar ? " " : "",
                 o->metavar ? o->metavar : "");
        if (strlen(left) > 28)
            fprintf(f, "  %s\n  %-28s %s\n", left, "", o->help);
        else
            fprintf(f, "  %-28s %s\n", left, o->help);
    }
    if (s->details)
        fprintf(f, "\n%s", s->details);
}

bool cli_load_plugin(const char *value, void *dest, char *err, size_t cap)
{
    (void)dest;
    if (ct_load_kernels(value) == CT_OK)
        return true;
    snprintf(err, cap, "%s", ct_errmsg());
    return false;
}

bool cli_set_triton(const char *value, void *dest, char *err, size_t cap)
{
    (void)dest;
    char list[256];
    if (!ct_triton_find(value)) {
        snprintf(err, cap, "Triton %s is not supported; supported: %s", value,
                 ct_triton_supported(list, sizeof list));
        return false;
    }
    setenv("CTRITON_TRITON_VERSION", value, 1);
    return true;
}

bool cli_num_warps(const char *value, void *dest, char *err, size_t cap)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (end == value || *end || errno || v < 1 || v > 32 || (v & (v - 1))) {
        snprintf(err, cap, "num_warps must be a power of two from 1 to 32");
        return false;
    }
    *(int *)dest = (int)v;
    return true;
}

/* ---- helpers ---------------------------------------------------------------- */

int cli_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ctriton: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

int cli_kernel_config(const char *kname, const char *cname, const ct_kernel_entry **k,
                      const tl_config **cfg)
{
    *k = ct_kernel_find(kname);
    if (!*k)
        return cli_fail(1, "no kernel named `%s` (see `ctriton list`; a plugin's kernels need "
                           "--kernels LIB)",
                        kname);
    *cfg = ct_kernel_config(*k, cname);
    if (!*cfg)
        return cli_fail(1, "%s has no config `%s` (see `ctriton list`)", kname, cname ? cname : "");
    return 0;
}

char *cli_read_file(const char *path, size_t limit, size_t *len, char *err, size_t cap)
{
    bool in = !strcmp(path, "-");
    FILE *f = in ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, cap, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = 0, room = 65536;
    char *buf = malloc(room + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, room - n, f);
        n += got;
        if (n > limit) {
            snprintf(err, cap, "%s is larger than the limit of %zu bytes", in ? "the input" : path,
                     limit);
            free(buf);
            buf = NULL;
            break;
        }
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err, cap, "cannot read %s: %s", in ? "the input" : path, strerror(errno));
                free(buf);
                buf = NULL;
            }
            break;
        }
        if (n == room) {
            room = room * 2 > limit + 1 ? limit + 1 : room * 2;
            char *nb = realloc(buf, room + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
            } else {
                buf = nb;
            }
        }
    }
    if (!in)
        fclose(f);
    if (!buf) {
        if (!*err)
            snprintf(err, cap, "out of memory reading %s", path);
        return NULL;
    }
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

ct_module *cli_parse_ttir(const char *path, ct_diags *d)
{
    char err[1024] = "";
    size_t len;
    char *text = cli_read_file(path, CLI_MAX_FILE, &len, err, sizeof err);
    if (!text) {
        ct_diag_add(d, CT_ERROR, NULL, 0, 0, "%s", err);
        return NULL;
    }
    ct_module *m = ct_parse_module(text, len, strcmp(path, "-") ? path : "<stdin>", d);
    free(text);
    return m;
}

bool cli_write_file(const char *path, const void *data, size_t len, char *err, size_t cap)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, cap, "cannot create %s: %s", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok)
        snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
    return ok;
}

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void cli_json_diags(FILE *f, const ct_diags *d, bool notes)
{
    static const char *const sev[] = {"note", "warning", "error"};
    fputc('[', f);
    bool first = true;
    for (int i = 0; i < d->n; i++) {
        const ct_diag *g = &d->items[i];
        if (g->severity == CT_NOTE && !notes)
            continue;
        fprintf(f, "%s{\"severity\": \"%s\", \"file\": ", first ? "" : ", ", sev[g->severity]);
        first = false;
        cli_json_str(f, g->file);
        fprintf(f, ", \"line\": %d, \"col\": %d, \"message\": ", g->line, g->col);
        cli_json_str(f, g->message);
        fputc('}', f);
    }
    fputc(']', f);
}

bool cli_parse_grid(const char *s, int grid[3])
{
    grid[0] = grid[1] = grid[2] = 1;
    char *end = (char *)s;
    for (int d = 0; d < 3; d++) {
        if (!(*s >= '0' && *s <= '9'))
            return false;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < 1 || v > 2147483647)
            return false;
        grid[d] = (int)v;
        if (*end == 0)
            return true;
        if (*end != ',' && *end != 'x')
            return false;
        s = end + 1;
    }
    return false;
}

int cli_parse_archs(const char *s, int *archs, int cap)
{
    int n = 0;
    for (const char *p = s;;) {
        if (!(*p >= '0' && *p <= '9') || n >= cap)
            return -1;
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || v < 50 || v > 200)
            return -1;
        archs[n++] = (int)v;
        if (*end == 0)
            return n;
        if (*end != ',')
            return -1;
        p = end + 1;
    }
}
