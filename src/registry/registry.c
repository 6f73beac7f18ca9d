/*
 * registry.c - the process-wide table of kernels (ctriton/registry.h).
 *
 * Entries are copied into blocks that never move or go away, so the
 * pointers handed out stay valid for the life of the process while more
 * kernels are registered (a plugin loaded later, from another thread).
 */
#include "ctriton/registry.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/ref.h"
#include "registry/registry_internal.h"

#define BLOCK 64
#define MAX_BLOCKS 256 /* 16384 kernels */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ct_kernel_entry *blocks[MAX_BLOCKS];
static int count; /* written under the lock; read with acquire loads */

/* The plugin whose ctriton_plugin_init is running (plugin.c), recorded on
 * each entry it registers; its registration failures are counted. */
static __thread const char *current_plugin;
static __thread int current_failures;

void ct__registry_begin_plugin(const char *path)
{
    current_plugin = path;
    current_failures = 0;
}

int ct__registry_end_plugin(void)
{
    current_plugin = NULL;
    return current_failures;
}

int ct_kernel_count(void)
{
    return __atomic_load_n(&count, __ATOMIC_ACQUIRE);
}

const ct_kernel_entry *ct_kernel_at(int i)
{
    if (i < 0 || i >= ct_kernel_count())
        return NULL;
    return &blocks[i / BLOCK][i % BLOCK];
}

const ct_kernel_entry *ct_kernel_find(const char *name)
{
    int n = ct_kernel_count();
    for (int i = 0; name && i < n; i++) {
        const ct_kernel_entry *e = ct_kernel_at(i);
        if (!strcmp(e->def->name, name))
            return e;
    }
    return NULL;
}

const tl_config *ct_kernel_config(const ct_kernel_entry *k, const char *name)
{
    if (!k || k->nconfigs <= 0 || !k->configs)
        return NULL;
    if (!name)
        return &k->configs[0];
    for (int i = 0; i < k->nconfigs; i++)
        if (!strcmp(k->configs[i].name, name))
            return &k->configs[i];
    return NULL;
}

/* a refused registration: counted against the plugin being loaded */
#define refuse(...) (current_failures++, ct_fail(CT_ERR_INVALID, __VA_ARGS__))

/* What is wrong with an entry, before it is taken. */
static ct_status check_entry(const ct_kernel_entry *e)
{
    if (!e || !e->def || !e->def->name || !e->def->body)
        return refuse("register: an entry without a kernel definition");
    const char *name = e->def->name;
    if (!e->configs || e->nconfigs <= 0)
        return refuse("register %s: no configs (TL_CONFIGS)", name);
    for (int i = 0; i < e->nconfigs; i++) {
        const tl_config *c = &e->configs[i];
        if (!c->name || !*c->name || !c->signature)
            return refuse("register %s: config %d has no name or no signature", name, i);
        for (int j = 0; j < i; j++)
            if (!strcmp(e->configs[j].name, c->name))
                return refuse("register %s: two configs named `%s`", name, c->name);
    }
    if (e->ref && (!e->ref->setup || !e->ref->reference ||
                   (e->ref->kernel && strcmp(e->ref->kernel, name))))
        return refuse("register %s: its reference is incomplete or belongs to `%s`", name,
                      e->ref->kernel ? e->ref->kernel : "?");
    return CT_OK;
}

/* py_file relative to the directory of the registering file, when there is one */
static const char *resolve_py(const ct_kernel_entry *e)
{
    if (!e->py_file || !e->file || e->py_file[0] == '/')
        return e->py_file;
    const char *slash = strrchr(e->file, '/');
    if (!slash)
        return e->py_file;
    size_t dl = (size_t)(slash - e->file);
    size_t n = dl + 1 + strlen(e->py_file) + 1;
    char *p = malloc(n);
    if (!p)
        return e->py_file;
    snprintf(p, n, "%.*s/%s", (int)dl, e->file, e->py_file);
    return p;
}

ct_status ct_register_kernel(const ct_kernel_entry *e)
{
    ct_status s = check_entry(e);
    if (s != CT_OK)
        return s;
    pthread_mutex_lock(&lock);
    int n = count;
    for (int i = 0; i < n; i++) {
        const ct_kernel_entry *o = &blocks[i / BLOCK][i % BLOCK];
        if (strcmp(o->def->name, e->def->name))
            continue;
        bool same = o->def == e->def && o->configs == e->configs;
        pthread_mutex_unlock(&lock);
        if (same)
            return CT_OK;
        return refuse("register %s: a kernel of that name is already registered (from %s)",
                      e->def->name, o->plugin ? o->plugin : "the program");
    }
    if (n / BLOCK >= MAX_BLOCKS) {
        pthread_mutex_unlock(&lock);
        return refuse("register %s: more than %d kernels", e->def->name, BLOCK * MAX_BLOCKS);
    }
    if (!blocks[n / BLOCK] && !(blocks[n / BLOCK] = calloc(BLOCK, sizeof(ct_kernel_entry)))) {
        pthread_mutex_unlock(&lock);
        current_failures++;
        return ct_fail(CT_ERR_NOMEM, "register %s: out of memory", e->def->name);
    }
    ct_kernel_entry *slot = &blocks[n / BLOCK][n % BLOCK];
    *slot = *e;
    slot->py_file = resolve_py(e);
    slot->plugin = current_plugin ? current_plugin : e->plugin;
    __atomic_store_n(&count, n + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
    return CT_OK;
}
