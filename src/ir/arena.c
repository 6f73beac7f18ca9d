/*
 * arena.c - bump allocator owning all memory of a module.
 *
 * Chunks are 64 KiB (below glibc's mmap threshold), recycled per thread
 * when an arena is freed; an allocation larger than a chunk gets a chunk of
 * its own.  Memory is zeroed and 16-byte aligned.  Nothing is freed
 * individually: ct_arena_free releases everything at once.
 *
 * Memory comes from the embedder's allocator (util/alloc.h): when it runs
 * out inside an entry point's scope, the entry point gets the error; a chunk
 * of an arena made outside the scope (a module the caller passed in) is not
 * tracked by it, so an unwind leaves that arena whole.
 */
#include "ctriton/ir.h"

#include "util/alloc.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
    struct chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} chunk;

struct ct_arena {
    chunk *head;
    size_t total;
};

ct_arena *ct_arena_new(void)
{
    return ct_xcalloc(1, sizeof(ct_arena));
}

/* Chunks of the standard size are kept for reuse by this thread (up to
 * RECYCLE_MAX of them), so that building module after module does not hand
 * memory back to the system and fault it in again each time. */
#define CHUNK_STD ((64u << 10) - sizeof(chunk))
#define RECYCLE_MAX 32
static _Thread_local chunk *recycled;
static _Thread_local int nrecycled;
static pthread_key_t recycle_key;
static pthread_once_t recycle_once = PTHREAD_ONCE_INIT;

/* At thread exit: hand the thread's recycled chunks back. */
static void recycle_release(void *unused)
{
    (void)unused;
    while (recycled) {
        chunk *n = recycled->next;
        ct_raw_free(recycled);
        recycled = n;
    }
    nrecycled = 0;
}

static void recycle_key_init(void)
{
    pthread_key_create(&recycle_key, recycle_release);
}

/* A chunk for arena a: one the scope's unwind releases when a was made within
 * the scope, one it leaves alone when a belongs to the caller. */
static chunk *chunk_new(const ct_arena *a, size_t cs)
{
    bool own = ct_oom_scoped() && ct_oom_tracked(a);
    if (cs == CHUNK_STD && recycled) {
        chunk *c = recycled;
        if (own)
            ct_oom_track(c);
        recycled = c->next;
        nrecycled--;
        c->used = 0;
        return c;
    }
    if (cs > SIZE_MAX - sizeof(chunk))
        ct_oom_fail();
    chunk *n = own ? ct_xmalloc(sizeof(chunk) + cs) : ct_raw_alloc(sizeof(chunk) + cs);
    if (!n)
        ct_oom_fail();
    n->size = cs;
    n->used = 0;
    return n;
}

void ct_arena_free(ct_arena *a)
{
    if (!a)
        return;
    chunk *c = a->head;
    while (c) {
        chunk *n = c->next;
        if (c->size == CHUNK_STD && nrecycled < RECYCLE_MAX) {
            if (!recycled) { /* arm the thread-exit release */
                pthread_once(&recycle_once, recycle_key_init);
                pthread_setspecific(recycle_key, &recycled);
            }
            ct_oom_untrack(c);
            c->next = recycled;
            recycled = c;
            nrecycled++;
        } else {
            ct_xfree(c);
        }
        c = n;
    }
    ct_xfree(a);
}

void *ct_arena_alloc(ct_arena *a, size_t size)
{
    if (size > SIZE_MAX - 15)
        ct_oom_fail();
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t cs = CHUNK_STD;
        if (cs < size)
            cs = size;
        chunk *n = chunk_new(a, cs);
        if (c && size > c->size - c->used && cs == size && c->size - c->used > 1024) {
            /* keep the current chunk in front: the big block goes behind it */
            n->next = c->next;
            c->next = n;
            n->used = size;
            a->total += size;
            memset(n->data, 0, size);
            return n->data;
        }
        n->next = c;
        a->head = n;
        c = n;
    }
    void *p = c->data + c->used;
    c->used += size;
    a->total += size;
    memset(p, 0, size);
    return p;
}

char *ct_arena_strndup(ct_arena *a, const char *s, size_t n)
{
    char *d = ct_arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *ct_arena_strdup(ct_arena *a, const char *s)
{
    return ct_arena_strndup(a, s, strlen(s));
}

size_t ct_arena_bytes(const ct_arena *a)
{
    return a->total;
}
