/*
 * util/alloc.h - the library's heap: the embedder's allocator (ctriton/alloc.h)
 * and the scopes that turn a failed allocation into an error.
 *
 * ct_xmalloc & co. never return NULL.  Inside a scope (ct_oom_push at an API
 * entry point) a failure jumps back to the scope's setjmp; the entry point then
 * calls ct_oom_unwind, which releases every block allocated within the scope and
 * not yet released, and returns an error.  Outside every scope a failure prints
 * and aborts.  Blocks allocated within a scope are tracked (a hash set beside
 * the heap, no header on the blocks), so the code between the entry point and
 * the failing allocation needs no cleanup path of its own.
 *
 * The rules for code that runs inside a scope:
 *   - heap memory through these functions only (ct_xfree what ct_x* gave);
 *   - memory that must survive a failure of the scope (a diagnostic in the
 *     caller's list) through ct_raw_alloc / ct_raw_free: untracked, NULL on
 *     failure;
 *   - no lock held, no file open across an allocation (a jump would skip the
 *     release), and thread-local state restored by the entry point.
 *
 * Usage at an entry point:
 *     ct_oom_scope s;
 *     ct_oom_push(&s);
 *     if (setjmp(s.jb)) { ct_oom_unwind(&s); ...report, return failure... }
 *     ...work...
 *     ct_oom_pop(&s);
 * Scopes nest; a scope that ends (pop) hands its blocks to the enclosing one.
 */
#ifndef CTRITON_UTIL_ALLOC_H
#define CTRITON_UTIL_ALLOC_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "ctriton/alloc.h"

typedef struct ct_oom_scope {
    jmp_buf jb;
    struct ct_oom_scope *parent;
    int depth;
} ct_oom_scope;

void ct_oom_push(ct_oom_scope *s);
void ct_oom_pop(ct_oom_scope *s);
void ct_oom_unwind(ct_oom_scope *s);
/* Whether a scope is open on this thread. */
bool ct_oom_scoped(void);
/* Fails as an allocation does: jumps to the innermost scope, or aborts. */
_Noreturn void ct_oom_fail(void);

void *ct_xmalloc(size_t n);
void *ct_xcalloc(size_t n, size_t size);
void *ct_xrealloc(void *p, size_t n);
char *ct_xstrdup(const char *s);
char *ct_xstrndup(const char *s, size_t n);
void ct_xfree(void *p);

/* Tracking by hand, for blocks that move between an owner outside the scope and
 * one inside it (the arena's recycled chunks): track makes p released by an
 * unwind of the current scope, untrack makes it not. */
void ct_oom_track(void *p);
void ct_oom_untrack(void *p);
bool ct_oom_tracked(const void *p);

/* Untracked, never jumps: NULL on failure. */
void *ct_raw_alloc(size_t n);
void *ct_raw_calloc(size_t n, size_t size);
void *ct_raw_realloc(void *p, size_t n);
char *ct_raw_strdup(const char *s);
void ct_raw_free(void *p);

#endif
