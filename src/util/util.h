/*
 * util.h - small internal helpers: a growable string buffer and a pointer
 * map.  Not part of the public API.
 */
#ifndef CTRITON_UTIL_H
#define CTRITON_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Growable, NUL-terminated string (malloc'd).  The appends are inline: the
 * printer makes several per op, mostly of a few bytes. */
typedef struct ct_strbuf {
    char *s;
    size_t len, cap;
} ct_strbuf;

void ct_sb_init(ct_strbuf *b);
void ct_sb_free(ct_strbuf *b);
/* strcmp(a, b) == 0 for short names (attribute names, keywords), which
 * mostly differ at once: no call */
static inline bool ct_streq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* Makes room for `extra` more bytes and the NUL. */
void ct_sb_reserve(ct_strbuf *b, size_t extra);

/* memcpy for the few bytes of a name or a type: two overlapping moves of a
 * fixed width, where memcpy's call and dispatch would cost more than the copy */
static inline void ct_copy_small(char *d, const char *s, size_t n)
{
    uint64_t x, y;
    if (n >= 8 && n <= 16) {
        memcpy(&x, s, 8);
        memcpy(&y, s + n - 8, 8);
        memcpy(d, &x, 8);
        memcpy(d + n - 8, &y, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, c;
        memcpy(&a, s, 4);
        memcpy(&c, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &c, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    } else {
        memcpy(d, s, n);
    }
}

static inline void ct_sb_putn(ct_strbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap)
        ct_sb_reserve(b, n);
    ct_copy_small(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static inline void ct_sb_puts(ct_strbuf *b, const char *s)
{
    ct_sb_putn(b, s, strlen(s));
}

static inline void ct_sb_putc(ct_strbuf *b, char c)
{
    if (b->len + 2 > b->cap)
        ct_sb_reserve(b, 1);
    b->s[b->len++] = c;
    b->s[b->len] = 0;
}

void ct_sb_printf(ct_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ct_sb_vprintf(ct_strbuf *b, const char *fmt, va_list ap);
void ct_sb_putint(ct_strbuf *b, long long v);
void ct_sb_spaces(ct_strbuf *b, int n);
/* Takes the string out of the buffer (caller frees); the buffer is reset. */
char *ct_sb_take(ct_strbuf *b);

/* Open-addressing map from pointers to pointers (NULL keys not allowed). */
typedef struct ct_ptrmap {
    const void **keys;
    void **vals;
    size_t cap, len;
} ct_ptrmap;

void ct_pm_init(ct_ptrmap *m);
void ct_pm_free(ct_ptrmap *m);
void ct_pm_put(ct_ptrmap *m, const void *key, void *val);
void *ct_pm_get(const ct_ptrmap *m, const void *key);
bool ct_pm_has(const ct_ptrmap *m, const void *key);
void ct_pm_clear(ct_ptrmap *m);

/* Set of strings (copies kept), for name uniquing. */
typedef struct ct_strset {
    char **keys;
    size_t cap, len;
} ct_strset;

void ct_ss_init(ct_strset *s);
void ct_ss_free(ct_strset *s);
bool ct_ss_has(const ct_strset *s, const char *k);
void ct_ss_add(ct_strset *s, const char *k);

/* Reads a whole file; returns malloc'd text (NUL-terminated) or NULL (errno
 * says why: EFBIG above CT_READ_FILE_MAX bytes, the command's limit too). */
#define CT_READ_FILE_MAX ((size_t)256 << 20)
char *ct_read_file(const char *path, size_t *len);
/* Writes text to path atomically (temp file + rename); false on error. */
bool ct_write_file(const char *path, const void *data, size_t len);
/* mkdir -p (mode 0755); true if path is a directory afterwards. */
bool ct_mkdirs(const char *path);

/* ctriton's cache directory: $CTRITON_CACHE_DIR, else $XDG_CACHE_HOME/ctriton, else
 * ~/.cache/ctriton (resolved from the environment each call; ct_cache_dir of
 * ctriton/compile.h is this, for the lowering cache; the emulator keeps its decoded MUFU
 * tables below it). */
void ct_util_cache_dir(char *buf, size_t cap);

/* The Python that lowers through Triton: $CTRITON_PYTHON, else the venv
 * `make deps-py` creates (~/.cache/ctriton/venv/bin/python), else python3.
 * Lowering (src/compile) runs it; the target release is detected beside it
 * (src/ir/triton_version.c). */
void ct_util_lower_python(char *buf, size_t cap);

#endif
