/*
 * json.c - just enough JSON to read Triton's metadata (kernel.json) and
 * ctriton's own small files: look up top-level keys of an object, skipping
 * over everything else.  Malformed text makes lookups fail, never crash.
 */
#include "compile_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *ws(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    return p;
}

/* Skips a string starting at '"'; returns the char after it, or NULL. */
static const char *skip_str(const char *p)
{
    for (p++; *p; p++) {
        if (*p == '\\') {
            if (!*++p)
                return NULL;
        } else if (*p == '"') {
            return p + 1;
        }
    }
    return NULL;
}

static const char *skip_value(const char *p, int depth)
{
    p = ws(p);
    if (depth > 64)
        return NULL;
    if (*p == '"')
        return skip_str(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                if (*p != '"' || !(p = skip_str(p)))
                    return NULL;
                p = ws(p);
                if (*p++ != ':')
                    return NULL;
            }
            if (!(p = skip_value(p, depth + 1)))
                return NULL;
            p = ws(p);
            if (*p == ',') {
                p = ws(p + 1);
                continue;
            }
            return *p == close ? p + 1 : NULL;
        }
    }
    /* number, true, false, null */
    const char *s = p;
    while (*p && (isalnum((unsigned char)*p) || *p == '-' || *p == '+' || *p == '.'))
        p++;
    return p > s ? p : NULL;
}

const char *ct_json_find(const char *obj, const char *key)
{
    if (!obj)
        return NULL;
    const char *p = ws(obj);
    if (*p != '{')
        return NULL;
    p = ws(p + 1);
    size_t kl = strlen(key);
    while (*p == '"') {
        const char *ks = p + 1;
        const char *ke = skip_str(p);
        if (!ke)
            return NULL;
        bool match = (size_t)(ke - 1 - ks) == kl && !memcmp(ks, key, kl);
        p = ws(ke);
        if (*p++ != ':')
            return NULL;
        p = ws(p);
        if (match)
            return p;
        if (!(p = skip_value(p, 0)))
            return NULL;
        p = ws(p);
        if (*p != ',')
            return NULL;
        p = ws(p + 1);
    }
    return NULL;
}

bool ct_json_num(const char *obj, const char *key, double *out)
{
    const char *v = ct_json_find(obj, key);
    if (!v || !(*v == '-' || isdigit((unsigned char)*v)))
        return false;
    char *end;
    *out = strtod(v, &end);
    return end != v;
}

bool ct_json_int(const char *obj, const char *key, int64_t *out)
{
    const char *v = ct_json_find(obj, key);
    if (!v || !(*v == '-' || isdigit((unsigned char)*v)))
        return false;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end == '.' || *end == 'e' || *end == 'E')
        return false;
    *out = x;
    return true;
}

bool ct_json_bool(const char *obj, const char *key, bool *out)
{
    const char *v = ct_json_find(obj, key);
    if (!v)
        return false;
    if (!strncmp(v, "true", 4)) {
        *out = true;
        return true;
    }
    if (!strncmp(v, "false", 5)) {
        *out = false;
        return true;
    }
    return false;
}

bool ct_json_str(const char *obj, const char *key, char *buf, size_t cap)
{
    const char *v = ct_json_find(obj, key);
    if (!v || *v != '"' || cap == 0)
        return false;
    size_t n = 0;
    for (v++; *v && *v != '"'; v++) {
        char c = *v;
        if (c == '\\') {
            c = *++v;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': /* only ASCII escapes are expected here */
                if (strlen(v) < 5)
                    return false;
                c = (char)strtol((char[]){v[1], v[2], v[3], v[4], 0}, NULL, 16);
                v += 4;
                break;
            case 0: return false;
            default: break;
            }
        }
        if (n + 1 >= cap)
            return false;
        buf[n++] = c;
    }
    if (*v != '"')
        return false;
    buf[n] = 0;
    return true;
}

void ct_json_put_str(ct_strbuf *b, const char *s)
{
    ct_sb_putc(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            ct_sb_putc(b, '\\');
            ct_sb_putc(b, (char)c);
        } else if (c < 0x20) {
            ct_sb_printf(b, "\\u%04x", c);
        } else {
            ct_sb_putc(b, (char)c);
        }
    }
    ct_sb_putc(b, '"');
}

int ct_json_array(const char *val, const char **elems, int max)
{
    if (!val)
        return -1;
    const char *p = ws(val);
    if (*p != '[')
        return -1;
    p = ws(p + 1);
    int n = 0;
    if (*p == ']')
        return 0;
    for (;;) {
        if (n < max)
            elems[n] = p;
        n++;
        if (!(p = skip_value(p, 1)))
            return -1;
        p = ws(p);
        if (*p == ',') {
            p = ws(p + 1);
            continue;
        }
        return *p == ']' ? n : -1;
    }
}
