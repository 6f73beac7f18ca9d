/*
 * pool.c - the threads of ct_emu_run, kept from one run to the next, and the frame memory
 * each of them reuses.
 *
 * Starting threads and mapping fresh frames (page faults on megabytes of zeroed memory) cost
 * about as much as a small kernel's whole run, so a run borrows idle workers from a
 * process-wide pool (starting more when there are not enough idle ones), the calling thread
 * working as the first of them, and each thread keeps its frame memory for the next run.
 * A worker sleeps on its own condition variable between jobs; the run waits on a count of
 * the workers still busy.  Runs from several threads at once each take their own workers.
 * After fork() the child starts with an empty pool (the parent's threads do not exist there).
 */
#include "emu_internal.h"

#include <stdlib.h>

struct emu_scratch_slot {
    uint8_t *mem;
    size_t cap;
};

typedef struct emu_worker {
    pthread_t th;
    pthread_cond_t wake;
    bool has_job;
    void (*job)(void *arg, int index, emu_scratch *s);
    void *arg;
    int index;
    struct emu_job_done *done;
    emu_scratch scratch;
    struct emu_worker *next_idle;
} emu_worker;

typedef struct emu_job_done {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int busy;
} emu_job_done;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static emu_worker *idle;     /* idle workers, a stack */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void after_fork_child(void)
{
    /* the workers are the parent's threads: forget them (their memory stays allocated) */
    pthread_mutex_init(&pool_lock, NULL);
    idle = NULL;
}

static void register_fork(void)
{
    pthread_atfork(NULL, NULL, after_fork_child);
}

/* ---- frame memory ---------------------------------------------------------------------------------- */

uint8_t *emu_scratch_get(emu_scratch *s, size_t bytes, uint64_t owner, bool *fresh)
{
    size_t need = (bytes + 63) & ~(size_t)63;
    if (!need)
        need = 64;
    if (s->cap < need) {
        free(s->mem);
        s->mem = aligned_alloc(64, need);
        s->cap = s->mem ? need : 0;
        s->owner = 0;
        if (!s->mem)
            return NULL;
    }
    *fresh = s->owner != owner;
    s->owner = owner;
    return s->mem;
}

void emu_scratch_release(emu_scratch *s)
{
    free(s->mem);
    s->mem = NULL;
    s->cap = 0;
    s->owner = 0;
}

/* the calling thread's frame memory, freed when the thread exits */
static pthread_key_t caller_key;
static pthread_once_t caller_once = PTHREAD_ONCE_INIT;

static void caller_free(void *p)
{
    emu_scratch *s = p;
    emu_scratch_release(s);
    free(s);
}

static void caller_key_init(void)
{
    pthread_key_create(&caller_key, caller_free);
}

static emu_scratch *caller_scratch(void)
{
    pthread_once(&caller_once, caller_key_init);
    emu_scratch *s = pthread_getspecific(caller_key);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (s && pthread_setspecific(caller_key, s) != 0) {
            free(s);
            s = NULL;
        }
    }
    return s;
}

/* ---- workers ----------------------------------------------------------------------------------------- */

static void *worker_main(void *p)
{
    emu_worker *w = p;
    pthread_mutex_lock(&pool_lock);
    for (;;) {
        while (!w->has_job)
            pthread_cond_wait(&w->wake, &pool_lock);
        w->has_job = false;
        pthread_mutex_unlock(&pool_lock);
        w->job(w->arg, w->index, &w->scratch);
        emu_job_done *d = w->done;
        pthread_mutex_lock(&pool_lock);
        w->next_idle = idle; /* back on the idle stack before the run can return */
        idle = w;
        pthread_mutex_unlock(&pool_lock);
        pthread_mutex_lock(&d->lock);
        if (--d->busy == 0)
            pthread_cond_signal(&d->cond);
        pthread_mutex_unlock(&d->lock);
        pthread_mutex_lock(&pool_lock);
    }
    return NULL;
}

/* an idle worker, or a new one; NULL when no thread can be started (pool_lock held) */
static emu_worker *take_worker(void)
{
    if (idle) {
        emu_worker *w = idle;
        idle = w->next_idle;
        return w;
    }
    emu_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    pthread_cond_init(&w->wake, NULL);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&w->th, &at, worker_main, w);
    pthread_attr_destroy(&at);
    if (rc != 0) {
        pthread_cond_destroy(&w->wake);
        free(w);
        return NULL;
    }
    return w;
}

int emu_pool_run(int n, void (*job)(void *arg, int index, emu_scratch *s), void *arg)
{
    pthread_once(&fork_once, register_fork);
    emu_job_done d;
    pthread_mutex_init(&d.lock, NULL);
    pthread_cond_init(&d.cond, NULL);
    d.busy = 0;
    int started = 1;
    pthread_mutex_lock(&pool_lock);
    for (int i = 1; i < n; i++) {
        emu_worker *w = take_worker();
        if (!w)
            break;
        w->job = job;
        w->arg = arg;
        w->index = i;
        w->done = &d;
        w->has_job = true;
        d.busy++; /* the workers decrement under d.lock, after pool_lock is released */
        started++;
        pthread_cond_signal(&w->wake);
    }
    pthread_mutex_unlock(&pool_lock);

    emu_scratch *mine = caller_scratch();
    emu_scratch tmp = {0};
    job(arg, 0, mine ? mine : &tmp);
    emu_scratch_release(&tmp);

    pthread_mutex_lock(&d.lock);
    while (d.busy > 0)
        pthread_cond_wait(&d.cond, &d.lock);
    pthread_mutex_unlock(&d.lock);
    pthread_cond_destroy(&d.cond);
    pthread_mutex_destroy(&d.lock);
    return started;
}
