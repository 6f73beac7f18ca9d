/*
 * pool.c - the threads of ct_emu_run, kept from one run to the next, and the frame memory
 * each of them reuses.
 *
 * Starting threads and mapping fresh frames (page faults on megabytes of zeroed memory) cost
 * about as much as a small kernel's whole run, so a run borrows idle workers from a
 * process-wide pool (starting more when there are not enough idle ones), the calling thread
 * working as the first of them, and each thread keeps its frame memory for the next run.
 * Waking a sleeping thread takes tens of microseconds, so a worker that finished a job spins
 * for a while (SPIN_NS) before it sleeps, and so does a run waiting for its workers: runs back
 * to back, and the end of a run, cost no sleep.  A run gives its workers back to the pool only
 * after they finished, so the worker objects (never freed) are the only shared state.  Runs
 * from several threads at once each take their own workers.  After fork() the child starts
 * with an empty pool (the parent's threads do not exist there).
 */
#include "emu_internal.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <time.h>

typedef struct emu_worker {
    pthread_t th;
    pthread_mutex_t m;
    pthread_cond_t wake;     /* a job was posted */
    pthread_cond_t done_cv;  /* the job finished */
    _Atomic int go;          /* a job is posted and not yet taken */
    _Atomic int finished;    /* the posted job is done */
    void (*job)(void *arg, int index, emu_scratch *s);
    void *arg;
    int index;
    emu_scratch scratch;
    struct emu_worker *next_idle;
} emu_worker;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static emu_worker *idle;     /* idle workers, a stack */

/* how long a worker waits for its next job, and a run for its workers, before sleeping */
enum { SPIN_NS = 100000 };
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
        ct_raw_free(s->mem);
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
    ct_raw_free(s->mem);
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
    ct_raw_free(s);
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
        s = ct_raw_calloc(1, sizeof *s);
        if (s && pthread_setspecific(caller_key, s) != 0) {
            ct_raw_free(s);
            s = NULL;
        }
    }
    return s;
}

/* ---- workers ----------------------------------------------------------------------------------------- */

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* true once *flag is set, false after SPIN_NS without it */
static bool spin_until(_Atomic int *flag)
{
    double t0 = 0;
    for (int i = 0;; i++) {
        if (atomic_load_explicit(flag, memory_order_acquire))
            return true;
        if ((i & 63) == 63) {
            double t = mono_ns();
            if (t0 == 0)
                t0 = t;
            else if (t - t0 > SPIN_NS)
                return false;
        }
        cpu_relax();
    }
}

static void *worker_main(void *p)
{
    emu_worker *w = p;
    for (;;) {
        if (!spin_until(&w->go)) {
            pthread_mutex_lock(&w->m);
            while (!atomic_load_explicit(&w->go, memory_order_acquire))
                pthread_cond_wait(&w->wake, &w->m);
            pthread_mutex_unlock(&w->m);
        }
        atomic_store_explicit(&w->go, 0, memory_order_relaxed);
        w->job(w->arg, w->index, &w->scratch);
        pthread_mutex_lock(&w->m);
        atomic_store_explicit(&w->finished, 1, memory_order_release);
        pthread_cond_signal(&w->done_cv);
        pthread_mutex_unlock(&w->m);
    }
    return NULL;
}

/* an idle worker, or a new one; NULL when no thread can be started */
static emu_worker *take_worker(void)
{
    pthread_mutex_lock(&pool_lock);
    emu_worker *w = idle;
    if (w)
        idle = w->next_idle;
    pthread_mutex_unlock(&pool_lock);
    if (w)
        return w;
    w = ct_raw_calloc(1, sizeof *w);
    if (!w)
        return NULL;
    pthread_mutex_init(&w->m, NULL);
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->done_cv, NULL);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&w->th, &at, worker_main, w);
    pthread_attr_destroy(&at);
    if (rc != 0) {
        pthread_cond_destroy(&w->done_cv);
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->m);
        ct_raw_free(w);
        return NULL;
    }
    return w;
}

static void post(emu_worker *w, void (*job)(void *, int, emu_scratch *), void *arg, int index)
{
    w->job = job;
    w->arg = arg;
    w->index = index;
    atomic_store_explicit(&w->finished, 0, memory_order_relaxed);
    pthread_mutex_lock(&w->m);
    atomic_store_explicit(&w->go, 1, memory_order_release);
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->m);
}

static void wait_finished(emu_worker *w)
{
    if (spin_until(&w->finished))
        return;
    pthread_mutex_lock(&w->m);
    while (!atomic_load_explicit(&w->finished, memory_order_acquire))
        pthread_cond_wait(&w->done_cv, &w->m);
    pthread_mutex_unlock(&w->m);
}

int emu_pool_run(int n, void (*job)(void *arg, int index, emu_scratch *s), void *arg)
{
    pthread_once(&fork_once, register_fork);
    emu_worker *small[16], **ws = n - 1 <= 16 ? small : ct_raw_alloc(sizeof(emu_worker *) * (size_t)(n - 1));
    int started = 1;
    if (ws)
        for (int i = 1; i < n; i++) {
            emu_worker *w = take_worker();
            if (!w)
                break;
            ws[started - 1] = w;
            post(w, job, arg, started);
            started++;
        }

    emu_scratch *mine = caller_scratch();
    emu_scratch tmp = {0};
    job(arg, 0, mine ? mine : &tmp);
    emu_scratch_release(&tmp);

    for (int i = 0; i < started - 1; i++)
        wait_finished(ws[i]);
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < started - 1; i++) {
        ws[i]->next_idle = idle;
        idle = ws[i];
    }
    pthread_mutex_unlock(&pool_lock);
    if (ws != small)
        ct_raw_free(ws);
    return started;
}
