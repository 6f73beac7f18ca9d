/*
 * plugin.c - kernel plugins: shared libraries that register kernels
 * (CT_KERNEL_PLUGIN in ctriton/registry.h), loaded with dlopen.
 *
 * A plugin links against libctriton.so, the same library the program
 * uses: its kernels build IR with the program's copy of the kernel
 * language.  It is opened RTLD_NOW (a missing symbol is an error now, not a
 * crash later) and RTLD_LOCAL, and never closed: its kernel definitions are
 * referenced by the registry for the life of the process.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctriton/registry.h"
#include "registry/registry_internal.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread bool in_init; /* a plugin's init loading a plugin would deadlock */

/* the plugins loaded so far, by resolved path */
typedef struct loaded {
    char *path;
    struct loaded *next;
} loaded;
static loaded *plugins;

static bool already_loaded(const char *path)
{
    for (loaded *l = plugins; l; l = l->next)
        if (!strcmp(l->path, path))
            return true;
    return false;
}

ct_status ct_load_kernels(const char *path)
{
    if (!path || !*path)
        return ct_fail(CT_ERR_INVALID, "kernel plugin: no file given");
    /* the same file under another name is the same plugin */
    if (in_init)
        return ct_fail(CT_ERR_INVALID, "kernel plugin %s: loaded from another plugin's init", path);
    char real[PATH_MAX];
    const char *key = strchr(path, '/') && realpath(path, real) ? real : path;
    pthread_mutex_lock(&lock);
    if (already_loaded(key)) {
        pthread_mutex_unlock(&lock);
        return CT_OK;
    }
    ct_status s = CT_OK;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        s = ct_fail(CT_ERR_INVALID, "kernel plugin %s: %s", path, why ? why : "cannot be opened");
        goto out;
    }
    const int *abi = (const int *)dlsym(h, "ctriton_plugin_abi");
    void *init_sym = dlsym(h, "ctriton_plugin_init");
    if (!abi || !init_sym) {
        s = ct_fail(CT_ERR_INVALID,
                    "kernel plugin %s: not a ctriton plugin (no ctriton_plugin_abi or "
                    "ctriton_plugin_init: define them with CT_KERNEL_PLUGIN)",
                    path);
        dlclose(h);
        goto out;
    }
    if (*abi != CT_PLUGIN_ABI) {
        s = ct_fail(CT_ERR_INVALID,
                    "kernel plugin %s: built for plugin ABI %d, this ctriton (%s) has %d: "
                    "rebuild it against this version",
                    path, *abi, ct_version(), CT_PLUGIN_ABI);
        dlclose(h);
        goto out;
    }
    loaded *l = malloc(sizeof *l);
    char *copy = strdup(key);
    if (!l || !copy) {
        free(l);
        free(copy);
        s = ct_fail(CT_ERR_NOMEM, "kernel plugin %s: out of memory", path);
        goto out; /* the library stays open: nothing of it ran */
    }
    l->path = copy;
    l->next = plugins;
    plugins = l;
    void (*init)(void);
    memcpy(&init, &init_sym, sizeof init); /* object pointer to function pointer, as POSIX allows */
    ct__registry_begin_plugin(l->path);
    in_init = true;
    init();
    in_init = false;
    int refused = ct__registry_end_plugin();
    if (refused) {
        char why[512];
        snprintf(why, sizeof why, "%s", ct_errmsg()); /* the last refusal */
        s = ct_fail(CT_ERR_INVALID, "kernel plugin %s: %d registration%s refused: %s", path,
                    refused, refused == 1 ? "" : "s", why);
    }
out:
    pthread_mutex_unlock(&lock);
    return s;
}

ct_status ct_load_kernels_list(const char *list)
{
    if (!list)
        return CT_OK;
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n) {
            char path[PATH_MAX];
            if (n >= sizeof path)
                return ct_fail(CT_ERR_INVALID, "kernel plugin: a path of %zu bytes", n);
            memcpy(path, p, n);
            path[n] = 0;
            ct_status s = ct_load_kernels(path);
            if (s != CT_OK)
                return s;
        }
        p += n + (e ? 1 : 0);
    }
    return CT_OK;
}
