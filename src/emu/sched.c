/*
 * sched.c - handing a run's programs to its worker threads, and parking the
 * programs that wait on other programs.
 *
 * Programs are numbered x-fastest (lin = x + gx * (y + gy * z)) and started in
 * increasing order from one atomic counter, so the set of programs that ran
 * and the fault reported (the lowest program id's) do not depend on the
 * thread count.
 *
 * A program that spin-waits yields: memory.c's emu_poll stops it when its
 * polls (atomics that write nothing) return what they returned before
 * EMU_SPIN_POLLS times in a row with no write in between.  Its frame is then
 * copied aside (parked) and its thread goes on with other programs; so a
 * program waiting for a later one (one thread) or for one in flight on another
 * thread costs a few polls per slice of other work, not a spin for as long as
 * the wait.  A parked program is resumed, oldest first, when memory may have
 * changed since its last slice began (some slice that wrote has ended since),
 * or when its own last slice changed its frame.  A program whose slices keep
 * finding nothing new backs off: it is next resumed only after twice as many
 * writing slices as the last time (up to EMU_BACKOFF_MAX) have ended, unless no
 * new program is left to start; so a program waiting for the last of many
 * programs is resumed a logarithmic number of times, not after every one.
 * Among the programs due, the oldest goes first, before new programs.
 *
 * Deadlock.  A slice of a resumed program is stale when it wrote nothing and
 * parked again at the same instruction with the same frame bytes: run again on
 * the same memory it would do exactly the same.  When no program is left to
 * start, no thread runs one, and every parked program's last slice was stale
 * and began after the last slice that wrote ended, nothing can change what
 * they wait for: the run stops with CT_EMU_ERR_DEADLOCK at the lowest such
 * program's poll, where the GPU would hang.
 *
 * Parked frames take memory: at most EMU_PARK_BYTES of them (and at least 8
 * programs).  A program that cannot be parked spins in place, as it would on
 * the GPU, under the step budget.
 */
#include "emu_internal.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

enum { EMU_PARK_BYTES = 512 << 20, EMU_BACKOFF_MAX = 4096 };

typedef struct emu_parked {
    struct emu_parked *next;
    emu_frame F;    /* its registers: pc (after the poll), pid, steps; F.mem unused */
    uint8_t *mem;   /* its frame */
    uint64_t epoch; /* the run's write count (wrote_total) when its last slice began */
    uint64_t backoff; /* writing slices to wait for before it is due again */
    bool stale;     /* its last slice changed nothing (see the head of the file) */
} emu_parked;

/* due: worth resuming before new programs; waiting: worth resuming at all */
static inline bool due(const emu_parked *p, uint64_t E)
{
    return !p->stale || E - p->epoch >= p->backoff;
}
static inline bool waiting(const emu_parked *p, uint64_t E)
{
    return !p->stale || E != p->epoch;
}

void emu_sched_init(emu_run *R, emu_runner *ws, int nworkers)
{
    pthread_mutex_init(&R->sched, NULL);
    R->park_head = R->park_tail = NULL;
    atomic_init(&R->nparked, 0);
    int64_t lim = R->k->frame_bytes ? (int64_t)(EMU_PARK_BYTES / R->k->frame_bytes) : INT64_MAX;
    R->park_limit = lim < 8 ? 8 : lim;
    R->workers = ws;
    R->nworkers = nworkers;
}

static void free_parked(emu_parked *p)
{
    if (p) {
        free(p->mem);
        free(p);
    }
}

void emu_sched_fini(emu_run *R)
{
    for (emu_parked *p = R->park_head, *n; p; p = n) {
        n = p->next;
        free_parked(p);
    }
    R->park_head = R->park_tail = NULL;
    atomic_store(&R->nparked, 0);
    pthread_mutex_destroy(&R->sched);
}

/* the slices that wrote, run-wide: only grows */
static uint64_t wrote_total(const emu_run *R)
{
    uint64_t t = 0;
    for (int i = 0; i < R->nworkers; i++)
        t += atomic_load(&R->workers[i].wrote);
    return t;
}

static bool any_busy(const emu_run *R)
{
    for (int i = 0; i < R->nworkers; i++)
        if (atomic_load(&R->workers[i].busy))
            return true;
    return false;
}

/* a program number to start, or -1 when none is left */
static int64_t next_program(emu_run *R)
{
    int64_t lin = atomic_fetch_add(&R->next, 1);
    return lin >= R->nprog || lin > atomic_load(&R->min_fault) ? -1 : lin;
}

/* R->sched held: unlinks p (prev: the one before it, or NULL) */
static void unlink_parked(emu_run *R, emu_parked *prev, emu_parked *p)
{
    if (prev)
        prev->next = p->next;
    else
        R->park_head = p->next;
    if (R->park_tail == p)
        R->park_tail = prev;
    p->next = NULL;
    atomic_fetch_sub(&R->nparked, 1);
}

/* R->sched held: every parked program waits forever; the lowest's poll is the fault */
static void deadlock(emu_run *R)
{
    emu_parked *low = R->park_head;
    int64_t n = 0;
    for (emu_parked *p = R->park_head; p; p = p->next, n++)
        if (p->F.lin < low->F.lin)
            low = p;
    emu_frame F = low->F;
    const emu_ins *I = &R->k->code[F.pc - 1]; /* the poll */
    emu_fault(&F, I, CT_EMU_ERR_DEADLOCK, -1, -1, 0, 0,
              "deadlock: the program waits here for a value that no program will change "
              "(%lld program%s waiting, every other program done)",
              (long long)n, n == 1 ? "" : "s");
    for (emu_parked *p = R->park_head, *q; p; p = q) {
        q = p->next;
        free_parked(p);
    }
    R->park_head = R->park_tail = NULL;
    atomic_store(&R->nparked, 0);
}

enum { TAKE_NONE, TAKE_NEW, TAKE_RESUME, TAKE_WAIT };

/* What W runs next while programs are parked: a parked one (*resume, its slice's start
 * epoch in *epoch) or a new one (*lin); TAKE_WAIT when the parked ones can only wait for
 * the programs other threads run. */
static int take(emu_run *R, emu_runner *W, emu_parked **resume, int64_t *lin, uint64_t *epoch)
{
    pthread_mutex_lock(&R->sched);
    /* after a fault, the programs past the lowest faulting one are not run */
    int64_t mf = atomic_load(&R->min_fault);
    for (emu_parked *prev = NULL, *p = R->park_head, *n; p; p = n) {
        n = p->next;
        if (p->F.lin > mf || (mf != INT64_MAX && (R->flags & CT_EMU_STOP_AT_FIRST))) {
            unlink_parked(R, prev, p);
            free_parked(p);
        } else {
            prev = p;
        }
    }
    int rc = TAKE_NONE;
    uint64_t E = wrote_total(R);
    emu_parked *prev = NULL, *p = R->park_head;
    /* the oldest parked program that is due */
    while (p && !due(p, E)) {
        prev = p;
        p = p->next;
    }
    if (!p && (*lin = next_program(R)) >= 0) {
        rc = TAKE_NEW;
    } else if (!p) {
        /* no new program is left: the oldest that could find something new, due or not */
        for (prev = NULL, p = R->park_head; p && !waiting(p, E); prev = p, p = p->next)
            ;
    }
    if (p) {
        unlink_parked(R, prev, p);
        *resume = p;
        *epoch = E;
        rc = TAKE_RESUME;
    } else if (rc != TAKE_NEW && R->park_head) {
        /* every parked program waits on memory that has not changed since it last looked */
        if (any_busy(R))
            rc = TAKE_WAIT;
        else if (E == wrote_total(R))
            deadlock(R);
        else
            rc = TAKE_WAIT; /* a slice that wrote ended meanwhile: look again */
    }
    if (rc == TAKE_NEW || rc == TAKE_RESUME)
        atomic_store(&W->busy, 1);
    pthread_mutex_unlock(&R->sched);
    return rc;
}

/* Parks the program in F (cur: its record when it was resumed, else NULL); false when it
 * cannot be parked (the limit, or no memory). */
static bool park(emu_run *R, emu_frame *F, emu_parked *cur, uint64_t epoch)
{
    size_t fb = R->k->frame_bytes;
    emu_parked *p = cur;
    if (!p) {
        if (atomic_load(&R->nparked) >= R->park_limit)
            return false;
        p = calloc(1, sizeof *p);
        uint8_t *m = p ? malloc(fb ? fb : 1) : NULL;
        if (!m) {
            free(p);
            return false;
        }
        p->mem = m;
        p->stale = false; /* its first slice began from nothing comparable */
        p->backoff = 1;
    } else {
        p->stale = F->writes == 0 && F->pc == p->F.pc && !memcmp(p->mem, F->mem, fb);
        p->backoff = !p->stale ? 1 : p->backoff < EMU_BACKOFF_MAX ? 2 * p->backoff : p->backoff;
    }
    if (!p->stale)
        memcpy(p->mem, F->mem, fb);
    p->F = *F;
    p->F.mem = NULL;
    p->epoch = epoch;
    p->next = NULL;
    pthread_mutex_lock(&R->sched);
    if (R->park_tail)
        R->park_tail->next = p;
    else
        R->park_head = p;
    R->park_tail = p;
    atomic_fetch_add(&R->nparked, 1);
    pthread_mutex_unlock(&R->sched);
    return true;
}

void emu_sched_programs(emu_run *R, emu_runner *W, emu_frame *F)
{
    const ct_emu_kernel *k = R->k;
    uint8_t *mem = F->mem;
    int64_t gxy = (int64_t)R->grid[0] * R->grid[1];
    for (;;) {
        emu_parked *cur = NULL;
        int64_t lin = -1;
        uint64_t epoch = 0;
        int rc = TAKE_NEW;
        if (atomic_load(&R->nparked) == 0) {
            atomic_store(&W->busy, 1);
            lin = next_program(R);
            if (lin < 0) {
                atomic_store(&W->busy, 0);
                if (atomic_load(&R->nparked) == 0)
                    return;
            }
        }
        if (lin < 0) {
            rc = take(R, W, &cur, &lin, &epoch);
            if (rc == TAKE_NONE)
                return;
            if (rc == TAKE_WAIT) {
                sched_yield();
                continue;
            }
        }
        int32_t pc = 0;
        if (cur) {
            *F = cur->F;
            F->mem = mem;
            memcpy(mem, cur->mem, k->frame_bytes);
            pc = F->pc;
        } else {
            F->lin = lin;
            F->pid[0] = (int)(lin % R->grid[0]);
            F->pid[1] = (int)((lin / R->grid[0]) % R->grid[1]);
            F->pid[2] = (int)(lin / gxy);
            F->batch = 0;
            F->steps = R->max_steps;
            F->no_yield = 0;
        }
        F->status = CT_EMU_OK;
        F->writes = F->spin_writes = 0;
        F->spin_n = 0;
        memset(F->spin_sig, 0, sizeof F->spin_sig);
        emu_exec(F, pc);
        while (F->status == EMU_YIELDED) {
            if (park(R, F, cur, epoch)) {
                W->parks++;
                break;
            }
            /* no room to park: spin in place */
            F->no_yield = 1;
            F->status = CT_EMU_OK;
            emu_exec(F, F->pc);
        }
        if (F->writes)
            atomic_fetch_add(&W->wrote, 1);
        if (F->status != EMU_YIELDED) {
            free_parked(cur);
            if (F->status == CT_EMU_OK)
                W->done++;
            else if (R->flags & CT_EMU_STOP_AT_FIRST)
                atomic_store(&R->next, R->nprog);
        }
        atomic_store(&W->busy, 0);
    }
}
