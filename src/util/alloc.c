/* alloc.c - the embedder's allocator, the scopes that turn out-of-memory into an
 * error, and the set of blocks a scope has allocated (util/alloc.h). */
#include "util/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *ud, void *p, size_t n)
{
    (void)ud;
    if (n == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, n);
}

static ct_alloc_fn g_fn = default_alloc;
static void *g_ud;

void ct_set_allocator(ct_alloc_fn fn, void *ud)
{
    g_fn = fn ? fn : default_alloc;
    g_ud = fn ? ud : NULL;
}

void ct_get_allocator(ct_alloc_fn *fn, void **ud)
{
    if (fn)
        *fn = g_fn == default_alloc ? NULL : g_fn;
    if (ud)
        *ud = g_ud;
}

void *ct_raw_alloc(size_t n)
{
    return g_fn(g_ud, NULL, n ? n : 1);
}

void *ct_raw_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t t = n * size;
    void *p = ct_raw_alloc(t);
    if (p)
        memset(p, 0, t ? t : 1);
    return p;
}

void *ct_raw_realloc(void *p, size_t n)
{
    return g_fn(g_ud, p, n ? n : 1);
}

void ct_raw_free(void *p)
{
    if (p)
        g_fn(g_ud, p, 0);
}

char *ct_raw_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = ct_raw_alloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void *ct_malloc(size_t n)
{
    return ct_raw_alloc(n);
}

void ct_free(void *p)
{
    ct_raw_free(p);
}

/* ---- the blocks allocated within the open scopes ----------------------------
 * Open addressing with linear probing: block -> depth of the scope that owns it. */

typedef struct tracked {
    const void **keys;
    int *depth;
    size_t cap, len;
} tracked;

static _Thread_local tracked T;
static _Thread_local ct_oom_scope *cur;

static size_t hp(const void *p, size_t cap)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x & (cap - 1);
}

static size_t slot_of(const void *p)
{
    if (!T.cap)
        return SIZE_MAX;
    for (size_t i = hp(p, T.cap); T.keys[i]; i = (i + 1) & (T.cap - 1))
        if (T.keys[i] == p)
            return i;
    return SIZE_MAX;
}

static bool grow(void)
{
    size_t nc = T.cap ? T.cap * 2 : 256;
    const void **nk = g_fn(g_ud, NULL, nc * sizeof *nk);
    int *nd = g_fn(g_ud, NULL, nc * sizeof *nd);
    if (!nk || !nd) {
        ct_raw_free(nk);
        ct_raw_free(nd);
        return false;
    }
    memset(nk, 0, nc * sizeof *nk);
    for (size_t i = 0; i < T.cap; i++) {
        if (!T.keys[i])
            continue;
        size_t j = hp(T.keys[i], nc);
        while (nk[j])
            j = (j + 1) & (nc - 1);
        nk[j] = T.keys[i];
        nd[j] = T.depth[i];
    }
    ct_raw_free((void *)T.keys);
    ct_raw_free(T.depth);
    T.keys = nk;
    T.depth = nd;
    T.cap = nc;
    return true;
}

static bool put(const void *p, int depth)
{
    if ((T.len + 1) * 2 > T.cap && !grow())
        return false;
    size_t i = hp(p, T.cap);
    while (T.keys[i] && T.keys[i] != p)
        i = (i + 1) & (T.cap - 1);
    if (!T.keys[i])
        T.len++;
    T.keys[i] = p;
    T.depth[i] = depth;
    return true;
}

/* Removes slot i, moving later members of its run back (no tombstones). */
static void remove_slot(size_t i)
{
    size_t m = T.cap - 1;
    T.keys[i] = NULL;
    T.len--;
    for (size_t j = (i + 1) & m; T.keys[j]; j = (j + 1) & m) {
        size_t h = hp(T.keys[j], T.cap);
        /* j's entry may move to i when its home h is not in (i, j] */
        bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!stays) {
            T.keys[i] = T.keys[j];
            T.depth[i] = T.depth[j];
            T.keys[j] = NULL;
            i = j;
        }
    }
}

static void drop_table(void)
{
    ct_raw_free((void *)T.keys);
    ct_raw_free(T.depth);
    memset(&T, 0, sizeof T);
}

bool ct_oom_scoped(void)
{
    return cur != NULL;
}

void ct_oom_push(ct_oom_scope *s)
{
    s->parent = cur;
    s->depth = cur ? cur->depth + 1 : 1;
    cur = s;
}

void ct_oom_pop(ct_oom_scope *s)
{
    cur = s->parent;
    if (!cur) {
        drop_table();
        return;
    }
    for (size_t i = 0; i < T.cap; i++)
        if (T.keys[i] && T.depth[i] >= s->depth)
            T.depth[i] = cur->depth;
}

void ct_oom_unwind(ct_oom_scope *s)
{
    for (size_t i = 0; i < T.cap;) {
        if (T.keys[i] && T.depth[i] >= s->depth) {
            void *p = (void *)T.keys[i];
            remove_slot(i); /* a later entry may have moved into i: look again */
            g_fn(g_ud, p, 0);
            continue;
        }
        i++;
    }
    cur = s->parent;
    if (!cur)
        drop_table();
}

_Noreturn void ct_oom_fail(void)
{
    if (cur)
        longjmp(cur->jb, 1);
    fputs("ctriton: out of memory\n", stderr);
    abort();
}

void ct_oom_track(void *p)
{
    if (cur && p && !put(p, cur->depth)) {
        g_fn(g_ud, p, 0);
        ct_oom_fail();
    }
}

void ct_oom_untrack(void *p)
{
    size_t i;
    if (cur && p && (i = slot_of(p)) != SIZE_MAX)
        remove_slot(i);
}

bool ct_oom_tracked(const void *p)
{
    return cur && p && slot_of(p) != SIZE_MAX;
}

void *ct_xrealloc(void *p, size_t n)
{
    if (n == 0)
        n = 1;
    size_t i = p && cur ? slot_of(p) : SIZE_MAX;
    void *q = g_fn(g_ud, p, n);
    if (!q)
        ct_oom_fail(); /* p is as it was: tracked if it was */
    if (!cur)
        return q;
    if (i != SIZE_MAX) { /* a tracked block moved */
        if (q != p) {
            int d = T.depth[i];
            remove_slot(i);
            if (!put(q, d)) {
                g_fn(g_ud, q, 0);
                ct_oom_fail();
            }
        }
    } else if (!p && !put(q, cur->depth)) {
        g_fn(g_ud, q, 0);
        ct_oom_fail();
    }
    return q;
}

void *ct_xmalloc(size_t n)
{
    return ct_xrealloc(NULL, n);
}

void *ct_xcalloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        ct_oom_fail();
    size_t total = n * size;
    void *p = ct_xrealloc(NULL, total);
    memset(p, 0, total ? total : 1);
    return p;
}

char *ct_xstrndup(const char *s, size_t n)
{
    char *d = ct_xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *ct_xstrdup(const char *s)
{
    return ct_xstrndup(s, strlen(s));
}

void ct_xfree(void *p)
{
    if (!p)
        return;
    ct_oom_untrack(p);
    g_fn(g_ud, p, 0);
}
