/* sizeexpr.c - integer expressions of named sizes (sizeexpr.h). */
#include "sizeexpr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *s, *p;
    const sx_vars *vars;
    char *err;
    size_t cap;
    bool failed;
} parser;

static bool fail(parser *ps, const char *msg)
{
    if (!ps->failed)
        snprintf(ps->err, ps->cap, "`%s`: %s at offset %d", ps->s, msg, (int)(ps->p - ps->s));
    ps->failed = true;
    return false;
}

static void skip(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static bool expr(parser *ps, int64_t *v);

static bool primary(parser *ps, int64_t *v)
{
    skip(ps);
    if (*ps->p == '(') {
        ps->p++;
        if (!expr(ps, v))
            return false;
        skip(ps);
        if (*ps->p != ')')
            return fail(ps, "`)` expected");
        ps->p++;
        return true;
    }
    if (isdigit((unsigned char)*ps->p)) {
        errno = 0;
        char *e;
        long long x = strtoll(ps->p, &e, 0);
        if (errno)
            return fail(ps, "the number is too large");
        ps->p = e;
        *v = x;
        return true;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        const char *n = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
            ps->p++;
        size_t len = (size_t)(ps->p - n);
        skip(ps);
        if (*ps->p == '(') { /* cdiv, min, max */
            int f = len == 4 && !strncmp(n, "cdiv", 4) ? 0
                    : len == 3 && !strncmp(n, "min", 3) ? 1
                    : len == 3 && !strncmp(n, "max", 3) ? 2
                                                        : -1;
            if (f < 0)
                return fail(ps, "unknown function (cdiv, min, max)");
            ps->p++;
            int64_t a, b;
            if (!expr(ps, &a))
                return false;
            skip(ps);
            if (*ps->p != ',')
                return fail(ps, "`,` expected");
            ps->p++;
            if (!expr(ps, &b))
                return false;
            skip(ps);
            if (*ps->p != ')')
                return fail(ps, "`)` expected");
            ps->p++;
            if (f == 0) {
                if (b == 0)
                    return fail(ps, "cdiv by zero");
                int64_t q = a / b;
                *v = q + ((a % b != 0) && ((a < 0) == (b < 0)));
            } else {
                *v = f == 1 ? (a < b ? a : b) : (a > b ? a : b);
            }
            return true;
        }
        for (int i = 0; i < ps->vars->n; i++)
            if (strlen(ps->vars->name[i]) == len && !strncmp(ps->vars->name[i], n, len)) {
                *v = ps->vars->v[i];
                return true;
            }
        ps->p = n;
        return fail(ps, "no size of that name (give it with --size NAME=...)");
    }
    return fail(ps, *ps->p ? "a number, a size's name or `(` expected" : "unexpected end");
}

static bool unary(parser *ps, int64_t *v)
{
    skip(ps);
    if (*ps->p == '-') {
        ps->p++;
        if (!unary(ps, v))
            return false;
        if (*v == INT64_MIN)
            return fail(ps, "overflow");
        *v = -*v;
        return true;
    }
    return primary(ps, v);
}

static bool term(parser *ps, int64_t *v)
{
    if (!unary(ps, v))
        return false;
    for (;;) {
        skip(ps);
        char op = *ps->p;
        if (op != '*' && op != '/' && op != '%')
            return true;
        ps->p++;
        int64_t b;
        if (!unary(ps, &b))
            return false;
        if (op == '*') {
            if (__builtin_mul_overflow(*v, b, v))
                return fail(ps, "overflow");
        } else {
            if (b == 0)
                return fail(ps, "division by zero");
            if (*v == INT64_MIN && b == -1)
                return fail(ps, "overflow");
            *v = op == '/' ? *v / b : *v % b;
        }
    }
}

static bool expr(parser *ps, int64_t *v)
{
    if (!term(ps, v))
        return false;
    for (;;) {
        skip(ps);
        char op = *ps->p;
        if (op != '+' && op != '-')
            return true;
        ps->p++;
        int64_t b;
        if (!term(ps, &b))
            return false;
        if (op == '+' ? __builtin_add_overflow(*v, b, v) : __builtin_sub_overflow(*v, b, v))
            return fail(ps, "overflow");
    }
}

bool sx_eval(const char *s, const sx_vars *vars, int64_t *out, char *err, size_t cap)
{
    parser ps = {s, s, vars, err, cap, false};
    if (!expr(&ps, out))
        return false;
    skip(&ps);
    if (*ps.p)
        return fail(&ps, "unexpected text");
    return true;
}

/* evaluates s[0, len) */
static bool eval_n(const char *s, size_t len, const sx_vars *vars, int64_t *v, char *err, size_t cap)
{
    char buf[512];
    if (len >= sizeof buf) {
        snprintf(err, cap, "an expression of more than %d characters", (int)sizeof buf - 1);
        return false;
    }
    memcpy(buf, s, len);
    buf[len] = 0;
    return sx_eval(buf, vars, v, err, cap);
}

static bool is_number(const char *s)
{
    if (!strcmp(s, "null"))
        return true;
    if (!*s)
        return false;
    char *e;
    strtod(s, &e);
    return *e == 0 && (isdigit((unsigned char)s[0]) || s[0] == '.' ||
                       ((s[0] == '-' || s[0] == '+') && (isdigit((unsigned char)s[1]) || s[1] == '.')));
}

bool sx_subst_arg(const char *spec, const sx_vars *vars, char *out, size_t cap, char *err,
                  size_t ecap)
{
    size_t len = 0;
    int64_t v;
    if (!strchr(spec, '[')) {
        if (is_number(spec)) {
            if ((size_t)snprintf(out, cap, "%s", spec) >= cap)
                goto toolong;
            return true;
        }
        if (!sx_eval(spec, vars, &v, err, ecap))
            return false;
        if ((size_t)snprintf(out, cap, "%lld", (long long)v) >= cap)
            goto toolong;
        return true;
    }
    for (const char *p = spec; *p;) {
        const char *o = strchr(p, '[');
        const char *c = o ? strchr(o, ']') : NULL;
        if (!o || !c) {
            if ((size_t)snprintf(out + len, cap - len, "%s", p) >= cap - len)
                goto toolong;
            return true;
        }
        if (!eval_n(o + 1, (size_t)(c - o - 1), vars, &v, err, ecap))
            return false;
        int w = snprintf(out + len, cap - len, "%.*s[%lld]", (int)(o - p), p, (long long)v);
        if (w < 0 || (size_t)w >= cap - len)
            goto toolong;
        len += (size_t)w;
        p = c + 1;
    }
    return true;
toolong:
    snprintf(err, ecap, "`%s`: too long once evaluated", spec);
    return false;
}

bool sx_subst_grid(const char *spec, const sx_vars *vars, char *out, size_t cap, char *err,
                   size_t ecap)
{
    size_t len = 0;
    int d = 0;
    for (const char *p = spec;; d++) {
        int depth = 0;
        const char *e = p;
        for (; *e && !(*e == ',' && depth == 0); e++)
            depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
        int64_t v;
        if (d == 3) {
            snprintf(err, ecap, "`%s`: more than 3 dimensions", spec);
            return false;
        }
        if (!eval_n(p, (size_t)(e - p), vars, &v, err, ecap))
            return false;
        if (v < 1 || v > 2147483647) {
            snprintf(err, ecap, "`%s`: dimension %d is %lld, not from 1 to 2^31-1", spec, d,
                     (long long)v);
            return false;
        }
        int w = snprintf(out + len, cap - len, "%s%lld", d ? "," : "", (long long)v);
        if (w < 0 || (size_t)w >= cap - len) {
            snprintf(err, ecap, "`%s`: too long", spec);
            return false;
        }
        len += (size_t)w;
        if (!*e)
            return true;
        p = e + 1;
    }
}
