/* util.c - string buffer, pointer map, string set and file helpers. */
#include "util/util.h"

#include "util/alloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


void ct_sb_init(ct_strbuf *b)
{
    b->s = NULL;
    b->len = b->cap = 0;
}

void ct_sb_free(ct_strbuf *b)
{
    ct_xfree(b->s);
    ct_sb_init(b);
}

void ct_sb_reserve(ct_strbuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t nc = b->cap ? b->cap * 2 : 256;
    while (nc < b->len + extra + 1)
        nc *= 2;
    b->s = ct_xrealloc(b->s, nc);
    b->cap = nc;
}

void ct_sb_vprintf(ct_strbuf *b, const char *fmt, va_list ap)
{
    ct_sb_reserve(b, 64);
    va_list ap2;
    va_copy(ap2, ap);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->s + b->len, room, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if ((size_t)n >= room) {
        ct_sb_reserve(b, (size_t)n);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void ct_sb_putint(ct_strbuf *b, long long v)
{
    /* the digits go straight into the buffer (a temporary written byte by
     * byte and then copied as a block would stall the copy) */
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    size_t nd = 1;
    for (unsigned long long t = u; t >= 10; t /= 10)
        nd++;
    size_t n = nd + (v < 0);
    if (b->len + n + 1 > b->cap)
        ct_sb_reserve(b, n);
    char *d = b->s + b->len;
    if (v < 0)
        *d++ = '-';
    for (size_t i = nd; i > 0; i--, u /= 10)
        d[i - 1] = (char)('0' + u % 10);
    b->len += n;
    b->s[b->len] = 0;
}

void ct_sb_spaces(ct_strbuf *b, int n)
{
    static const char spaces[] = "                                "; /* 32 */
    if (n <= 0)
        return;
    if (n <= 32) { /* an indentation: a copy, not a memset call */
        ct_sb_putn(b, spaces, (size_t)n);
        return;
    }
    ct_sb_reserve(b, (size_t)n);
    memset(b->s + b->len, ' ', (size_t)n);
    b->len += (size_t)n;
    b->s[b->len] = 0;
}

void ct_sb_printf(ct_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ct_sb_vprintf(b, fmt, ap);
    va_end(ap);
}

char *ct_sb_take(ct_strbuf *b)
{
    char *s = b->s;
    if (!s) {
        s = ct_xrealloc(NULL, 1);
        s[0] = 0;
    }
    ct_sb_init(b);
    return s;
}

/* ---- pointer map -------------------------------------------------- */

static size_t hptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

void ct_pm_init(ct_ptrmap *m)
{
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->len = 0;
}

void ct_pm_free(ct_ptrmap *m)
{
    ct_xfree(m->keys);
    ct_xfree(m->vals);
    ct_pm_init(m);
}

void ct_pm_clear(ct_ptrmap *m)
{
    if (m->cap)
        memset(m->keys, 0, sizeof(*m->keys) * m->cap);
    m->len = 0;
}

static void pm_grow(ct_ptrmap *m)
{
    size_t oc = m->cap, nc = oc ? oc * 2 : 64;
    const void **ok = m->keys;
    void **ov = m->vals;
    /* the map changes only once both arrays are there (an allocation that fails
     * leaves it as it was) */
    const void **nk = ct_xcalloc(nc, sizeof(*nk));
    void **nv = ct_xcalloc(nc, sizeof(*nv));
    m->keys = nk;
    m->vals = nv;
    m->cap = nc;
    m->len = 0;
    for (size_t i = 0; i < oc; i++)
        if (ok[i])
            ct_pm_put(m, ok[i], ov[i]);
    ct_xfree(ok);
    ct_xfree(ov);
}

void ct_pm_put(ct_ptrmap *m, const void *key, void *val)
{
    if ((m->len + 1) * 2 > m->cap)
        pm_grow(m);
    size_t i = hptr(key) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) {
        m->keys[i] = key;
        m->len++;
    }
    m->vals[i] = val;
}

void *ct_pm_get(const ct_ptrmap *m, const void *key)
{
    if (!m->cap)
        return NULL;
    size_t i = hptr(key) & (m->cap - 1);
    while (m->keys[i]) {
        if (m->keys[i] == key)
            return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

bool ct_pm_has(const ct_ptrmap *m, const void *key)
{
    if (!m->cap)
        return false;
    size_t i = hptr(key) & (m->cap - 1);
    while (m->keys[i]) {
        if (m->keys[i] == key)
            return true;
        i = (i + 1) & (m->cap - 1);
    }
    return false;
}

/* ---- string set --------------------------------------------------- */

static size_t hstr(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 1099511628211ull;
    }
    return (size_t)h;
}

void ct_ss_init(ct_strset *s)
{
    s->keys = NULL;
    s->cap = s->len = 0;
}

void ct_ss_free(ct_strset *s)
{
    for (size_t i = 0; i < s->cap; i++)
        ct_xfree(s->keys[i]);
    ct_xfree(s->keys);
    ct_ss_init(s);
}

bool ct_ss_has(const ct_strset *s, const char *k)
{
    if (!s->cap)
        return false;
    size_t i = hstr(k) & (s->cap - 1);
    while (s->keys[i]) {
        if (!strcmp(s->keys[i], k))
            return true;
        i = (i + 1) & (s->cap - 1);
    }
    return false;
}

void ct_ss_add(ct_strset *s, const char *k)
{
    if ((s->len + 1) * 2 > s->cap) {
        size_t oc = s->cap;
        char **ok = s->keys;
        char **nk = ct_xcalloc(oc ? oc * 2 : 64, sizeof(char *));
        s->keys = nk;
        s->cap = oc ? oc * 2 : 64;
        s->len = 0;
        for (size_t i = 0; i < oc; i++) {
            if (ok[i]) {
                size_t j = hstr(ok[i]) & (s->cap - 1);
                while (s->keys[j])
                    j = (j + 1) & (s->cap - 1);
                s->keys[j] = ok[i];
                s->len++;
            }
        }
        ct_xfree(ok);
    }
    size_t i = hstr(k) & (s->cap - 1);
    while (s->keys[i]) {
        if (!strcmp(s->keys[i], k))
            return;
        i = (i + 1) & (s->cap - 1);
    }
    char *d = ct_xstrdup(k);
    s->keys[i] = d;
    s->len++;
}

/* ---- files -------------------------------------------------------- */

char *ct_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    ct_strbuf b;
    ct_sb_init(&b);
    char tmp[65536];
    size_t n;
    bool big = false;
    while (!big && (n = fread(tmp, 1, sizeof tmp, f)) > 0) {
        big = b.len + n > CT_READ_FILE_MAX; /* /dev/zero, a runaway pipe */
        if (!big)
            ct_sb_putn(&b, tmp, n);
    }
    bool err = ferror(f) || big;
    int e = big ? EFBIG : errno;
    fclose(f);
    if (err) {
        ct_sb_free(&b);
        errno = e;
        return NULL;
    }
    if (len)
        *len = b.len;
    return ct_sb_take(&b);
}

bool ct_mkdirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return false;
            buf[i] = c;
        }
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool ct_write_file(const char *path, const void *data, size_t len)
{
    size_t pl = strlen(path);
    char *tmp = ct_raw_alloc(pl + 32);
    if (!tmp)
        return false;
    snprintf(tmp, pl + 32, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        ct_raw_free(tmp);
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fsync(fileno(f)) == 0 || errno == EINVAL) && ok;
    ok = (fclose(f) == 0) && ok;
    if (ok)
        ok = rename(tmp, path) == 0;
    if (!ok)
        remove(tmp);
    ct_raw_free(tmp);
    return ok;
}

void ct_util_cache_dir(char *buf, size_t cap)
{
    const char *e = getenv("CTRITON_CACHE_DIR");
    if (e && *e) {
        snprintf(buf, cap, "%s", e);
        return;
    }
    e = getenv("XDG_CACHE_HOME");
    if (e && *e) {
        snprintf(buf, cap, "%s/ctriton", e);
        return;
    }
    e = getenv("HOME");
    snprintf(buf, cap, "%s/.cache/ctriton", e && *e ? e : "/tmp");
}

void ct_util_lower_python(char *buf, size_t cap)
{
    const char *e = getenv("CTRITON_PYTHON");
    if (e && *e) {
        snprintf(buf, cap, "%s", e);
        return;
    }
    /* the virtual environment `make deps-py` creates */
    const char *home = getenv("HOME");
    if (home && *home) {
        snprintf(buf, cap, "%s/.cache/ctriton/venv/bin/python", home);
        if (access(buf, X_OK) == 0)
            return;
    }
    snprintf(buf, cap, "python3");
}
