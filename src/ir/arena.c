/*
 * arena.c - bump allocator owning all memory of a module.
 *
 * Chunks are 64 KiB (below glibc's mmap threshold), recycled per thread
 * when an arena is freed; an allocation larger than a chunk gets a chunk of
 * its own.  Memory is zeroed and 16-byte aligned.  Nothing is freed
 * individually: ct_arena_free releases everything at once.
 */
#include "ctriton/ir.h"

#include <pthread.h>
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

static void oom(void)
{
    fputs("ctriton: out of memory\n", stderr);
    abort();
}

ct_arena *ct_arena_new(void)
{
    ct_arena *a = calloc(1, sizeof *a);
    if (!a)
        oom();
    return a;
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
        free(recycled);
        recycled = n;
    }
    nrecycled = 0;
}

static void recycle_key_init(void)
{
    pthread_key_create(&recycle_key, recycle_release);
}

static chunk *chunk_new(size_t cs)
{
    if (cs == CHUNK_STD && recycled) {
        chunk *c = recycled;
        recycled = c->next;
        nrecycled--;
        c->used = 0;
        return c;
    }
    chunk *n = malloc(sizeof(chunk) + cs);
    if (!n)
        oom();
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
            c->next = recycled;
            recycled = c;
            nrecycled++;
        } else {
            free(c);
        }
        c = n;
    }
    free(a);
}

void *ct_arena_alloc(ct_arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t cs = CHUNK_STD;
        if (cs < size)
            cs = size;
        chunk *n = chunk_new(cs);
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
