/*
 * launch.c - loading a cubin into a context and launching it the way
 * Triton's NVIDIA launcher does (backends/nvidia/driver.py and driver.c):
 *
 *   - block = 32 * num_warps threads, dynamic shared memory = metadata.shared,
 *     opted in above 48 KiB (cuFuncSetAttribute MAX_DYNAMIC_SHARED_SIZE_BYTES);
 *   - the kernel's own arguments, then two hidden pointers: global_scratch and
 *     profile_scratch, each NULL unless the metadata gives it a size, in which
 *     case grid_x * grid_y * grid_z * num_ctas * size bytes are needed; they
 *     come from a buffer kept per context, stream and kind, grown when a launch
 *     needs more (stream-ordered), as Triton's launcher gets them from the
 *     allocator of triton.set_allocator (in practice torch's caching allocator);
 *     ct_launch_release_scratch frees those buffers;
 *   - num_ctas > 1: grid x multiplied by num_ctas, a cluster of num_ctas along
 *     x with the spread scheduling policy, through cuLaunchKernelEx;
 *   - a grid with a zero dimension launches nothing (Triton skips it too).
 */
#include "ctriton/cuda.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ATTR_SHARED_SIZE_BYTES = 1,
    ATTR_LOCAL_SIZE_BYTES = 3,
    ATTR_NUM_REGS = 4,
    ATTR_MAX_DYNAMIC_SHARED = 8,
    ATTR_NON_PORTABLE_CLUSTER = 14,
    DEV_MAX_SHARED_PER_SM = 81,
    DEV_SHARED_OPTIN = 97,
    DEV_CC_MAJOR = 75,
    DEV_CC_MINOR = 76,
    LAUNCH_ATTR_COOPERATIVE = 2,
    LAUNCH_ATTR_CLUSTER_DIM = 4,
    LAUNCH_ATTR_CLUSTER_SCHED = 5,
    LAUNCH_ATTR_PDL = 6,
    CACHE_PREFER_SHARED = 1,
    CU_NO_BINARY_FOR_GPU = 209,
};

ct_status ct_load_cubin(const void *cubin, size_t size, const ct_launch_meta *meta, ct_loaded *out)
{
    memset(out, 0, sizeof *out);
    (void)size;
    ct_context ctx;
    ct_status s = ct_cuda_context(0, &ctx);
    if (s != CT_OK)
        return s;
    const ct_cuda_api *cu = ct_cuda();
    ct_cudevice dev;
    if ((s = ct_cu_check(cu->cuCtxGetDevice(&dev), "cuCtxGetDevice")) != CT_OK)
        return s;
    int major = 0, minor = 0, optin = 0;
    if ((s = ct_cu_check(cu->cuDeviceGetAttribute(&major, DEV_CC_MAJOR, dev), "cuDeviceGetAttribute")) !=
            CT_OK ||
        (s = ct_cu_check(cu->cuDeviceGetAttribute(&minor, DEV_CC_MINOR, dev), "cuDeviceGetAttribute")) !=
            CT_OK)
        return s;
    int cc = major * 10 + minor;
    /* sm_90a and later "a" targets run only on their own architecture; older
     * cubins run on later minors of the same major */
    bool fits = meta->arch >= 90 ? meta->arch == cc : meta->arch / 10 == major && meta->arch <= cc;
    if (!fits)
        return ct_fail(CT_ERR_NO_BINARY,
                       "%s was compiled for sm_%d%s but the device (%d) is sm_%d: compile it "
                       "for this architecture",
                       meta->name, meta->arch, meta->arch >= 90 ? "a" : "", (int)dev, cc);
    ct_cumodule mod;
    int res = cu->cuModuleLoadData(&mod, cubin);
    if (res == CU_NO_BINARY_FOR_GPU)
        return ct_fail(CT_ERR_NO_BINARY, "the cubin of %s (sm_%d) does not run on device %d (sm_%d)",
                       meta->name, meta->arch, (int)dev, cc);
    if ((s = ct_cu_check(res, "cuModuleLoadData")) != CT_OK)
        return s;
    ct_cufunction fn;
    if ((s = ct_cu_check(cu->cuModuleGetFunction(&fn, mod, meta->name), "cuModuleGetFunction")) !=
        CT_OK)
        goto fail;
    if ((s = ct_cu_check(cu->cuFuncGetAttribute(&out->n_regs, ATTR_NUM_REGS, fn),
                         "cuFuncGetAttribute(NUM_REGS)")) != CT_OK ||
        (s = ct_cu_check(cu->cuFuncGetAttribute(&out->n_spills, ATTR_LOCAL_SIZE_BYTES, fn),
                         "cuFuncGetAttribute(LOCAL_SIZE_BYTES)")) != CT_OK)
        goto fail;
    out->n_spills /= 4;
    if ((s = ct_cu_check(cu->cuDeviceGetAttribute(&optin, DEV_SHARED_OPTIN, dev),
                         "cuDeviceGetAttribute")) != CT_OK)
        goto fail;
    if (meta->shared > optin) {
        s = ct_fail(CT_ERR_INVALID,
                    "%s needs %d bytes of shared memory; the device allows %d per block "
                    "(use fewer stages or smaller blocks)",
                    meta->name, meta->shared, optin);
        goto fail;
    }
    if (meta->shared > 49152) {
        int shared_static = 0;
        if ((s = ct_cu_check(cu->cuFuncSetCacheConfig(fn, CACHE_PREFER_SHARED),
                             "cuFuncSetCacheConfig")) != CT_OK ||
            (s = ct_cu_check(cu->cuFuncGetAttribute(&shared_static, ATTR_SHARED_SIZE_BYTES, fn),
                             "cuFuncGetAttribute")) != CT_OK ||
            (s = ct_cu_check(cu->cuFuncSetAttribute(fn, ATTR_MAX_DYNAMIC_SHARED,
                                                    optin - shared_static),
                             "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)")) != CT_OK)
            goto fail;
    }
    if (meta->num_ctas == 16 &&
        (s = ct_cu_check(cu->cuFuncSetAttribute(fn, ATTR_NON_PORTABLE_CLUSTER, 1),
                         "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)")) != CT_OK)
        goto fail;
    out->ctx = ctx;
    out->module = mod;
    out->function = fn;
    out->meta = *meta;
    return CT_OK;
fail:
    cu->cuModuleUnload(mod);
    return s;
}

void ct_unload(ct_loaded *l)
{
    const ct_cuda_api *cu = ct_cuda();
    if (cu && l->module) {
        /* a module is unloaded from its own context: make it current meanwhile
         * (errors ignored: the context may be gone, and its modules with it) */
        ct_context cur = NULL;
        cu->cuCtxGetCurrent(&cur);
        if (cur != l->ctx)
            cu->cuCtxSetCurrent(l->ctx);
        cu->cuModuleUnload(l->module);
        if (cur != l->ctx)
            cu->cuCtxSetCurrent(cur);
    }
    memset(l, 0, sizeof *l);
}

ct_status ct_check_grid(const unsigned grid[3], int num_ctas)
{
    unsigned long long gx = (unsigned long long)grid[0] * (unsigned)(num_ctas > 0 ? num_ctas : 1);
    if (gx > 0x7fffffffULL)
        return ct_fail(CT_ERR_INVALID,
                       "grid[0] = %u%s exceeds the limit 2^31 - 1 (cuLaunchKernel would fail)",
                       grid[0], num_ctas > 1 ? " times num_ctas" : "");
    for (int i = 1; i < 3; i++)
        if (grid[i] > 65535)
            return ct_fail(CT_ERR_INVALID,
                           "grid[%d] = %u exceeds 65535, the limit of grid dimensions 1 and 2: put "
                           "the large dimension in grid[0] or tile it",
                           i, grid[i]);
    return CT_OK;
}

/* The scratch buffers kept between launches: one per (context, stream, kind),
 * used only by launches on that stream, so stream order keeps a launch from
 * touching a buffer an earlier launch still uses.  A buffer that is too small
 * is freed in stream order and replaced.  When the table is full, a launch
 * allocates its own scratch and frees it after itself. */
enum { SCRATCH_SLOTS = 32 };
typedef struct scratch_slot {
    ct_context ctx;
    ct_stream stream;
    int kind; /* 0 global, 1 profile */
    ct_devptr p;
    size_t bytes;
} scratch_slot;
static scratch_slot scratch_slots[SCRATCH_SLOTS];
static pthread_mutex_t scratch_mu = PTHREAD_MUTEX_INITIALIZER;
/* $CTRITON_SCRATCH_CACHE=0: every launch allocates and frees its own scratch
 * (the behaviour before the cache; for measuring what the cache saves) */
static bool scratch_cache_off;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static void scratch_read_env(void)
{
    const char *v = getenv("CTRITON_SCRATCH_CACHE");
    scratch_cache_off = v && strcmp(v, "0") == 0;
    if (v && *v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
        fprintf(stderr, "ctriton: warning: CTRITON_SCRATCH_CACHE=%.40s is neither 0 nor 1: the scratch "
                        "cache stays on\n", v);
}

static int scratch_new(const ct_cuda_api *cu, ct_devptr *p, size_t bytes, ct_stream stream)
{
    return cu->cuMemAllocAsync ? cu->cuMemAllocAsync(p, bytes, stream) : cu->cuMemAlloc(p, bytes);
}

/* Frees scratch in stream order.  A failure here is not reported: the
 * launch's own result matters more, and a broken context shows on the next
 * call anyway. */
static void scratch_free(const ct_cuda_api *cu, ct_devptr p, ct_stream stream)
{
    if (!p)
        return;
    if (cu->cuMemFreeAsync) {
        if (cu->cuMemFreeAsync(p, stream) != 0)
            cu->cuMemFree(p);
    } else {
        cu->cuStreamSynchronize(stream);
        cu->cuMemFree(p);
    }
}

/* Scratch of `per_program` bytes per program for a launch on `stream`:
 * *p from the kept buffer (*own false) or, with the table full, a buffer of
 * the launch's own (*own true, freed after it).  Called with scratch_mu held,
 * and the caller keeps it until the launch is enqueued: another thread's
 * launch on the same stream could otherwise grow the buffer, enqueueing its
 * free ahead of this launch. */
static ct_status scratch_get(const ct_cuda_api *cu, int kind, ct_devptr *p, bool *own,
                             int64_t per_program, const unsigned grid[3], int num_ctas,
                             ct_stream stream, const char *name)
{
    *p = 0;
    *own = false;
    if (per_program <= 0)
        return CT_OK;
    size_t bytes = (size_t)per_program;
    if (__builtin_mul_overflow(bytes, (size_t)grid[0], &bytes) ||
        __builtin_mul_overflow(bytes, (size_t)grid[1], &bytes) ||
        __builtin_mul_overflow(bytes, (size_t)grid[2], &bytes) ||
        __builtin_mul_overflow(bytes, (size_t)(num_ctas > 1 ? num_ctas : 1), &bytes))
        return ct_fail(CT_ERR_INVALID,
                       "%s: %s scratch of %lld bytes per program for grid (%u, %u, %u) overflows "
                       "the address space",
                       name, kind ? "profile" : "global", (long long)per_program, grid[0], grid[1],
                       grid[2]);
    ct_context ctx = NULL;
    if (cu->cuCtxGetCurrent(&ctx) != 0)
        ctx = NULL;
    int res = 0;
    scratch_slot *slot = NULL, *empty = NULL;
    for (int i = 0; i < SCRATCH_SLOTS && !slot && !scratch_cache_off; i++) {
        scratch_slot *e = &scratch_slots[i];
        if (e->p && e->ctx == ctx && e->stream == stream && e->kind == kind)
            slot = e;
        else if (!e->p && !empty)
            empty = e;
    }
    if (slot && slot->bytes >= bytes) {
        *p = slot->p;
    } else if (slot || empty) {
        if (!slot) {
            slot = empty;
            slot->ctx = ctx;
            slot->stream = stream;
            slot->kind = kind;
        } else {
            scratch_free(cu, slot->p, stream);
            slot->p = 0;
        }
        res = scratch_new(cu, &slot->p, bytes, stream);
        if (res == 0) {
            slot->bytes = bytes;
            *p = slot->p;
        } else {
            memset(slot, 0, sizeof *slot);
        }
    } else {
        res = scratch_new(cu, p, bytes, stream);
        *own = res == 0;
    }
    if (res != 0) {
        *p = 0;
        char what[200];
        snprintf(what, sizeof what, "allocating %zu bytes of %s scratch for %s", bytes,
                 kind ? "profile" : "global", name);
        return ct_cu_check(res, what);
    }
    return CT_OK;
}

void ct_launch_release_scratch(void)
{
    const ct_cuda_api *cu = ct_cuda();
    pthread_mutex_lock(&scratch_mu);
    for (int i = 0; i < SCRATCH_SLOTS; i++) {
        scratch_slot *e = &scratch_slots[i];
        if (e->p && cu)
            scratch_free(cu, e->p, e->stream);
        memset(e, 0, sizeof *e);
    }
    pthread_mutex_unlock(&scratch_mu);
}

static ct_status launch_failed(int res, const ct_loaded *k)
{
    char what[200];
    snprintf(what, sizeof what, "launching %s", k->meta.name);
    return ct_cu_check(res, what);
}

ct_status ct_launch_packed(const ct_loaded *k, const unsigned grid[3], ct_stream stream,
                           void **params, int nparams)
{
    const ct_launch_meta *m = &k->meta;
    ct_status s = ct_check_grid(grid, m->num_ctas);
    if (s != CT_OK)
        return s;
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
        return CT_OK;
    const ct_cuda_api *cu = ct_cuda();
    if (!cu)
        return CT_ERR_NO_DRIVER;
    ct_devptr global_scratch = 0, profile_scratch = 0;
    bool own_global = false, own_profile = false;
    bool locked = m->global_scratch_size > 0 || m->profile_scratch_size > 0;
    if (locked) {
        pthread_once(&scratch_once, scratch_read_env);
        pthread_mutex_lock(&scratch_mu);
        if ((s = scratch_get(cu, 0, &global_scratch, &own_global, m->global_scratch_size, grid,
                             m->num_ctas, stream, m->name)) != CT_OK ||
            (s = scratch_get(cu, 1, &profile_scratch, &own_profile, m->profile_scratch_size, grid,
                             m->num_ctas, stream, m->name)) != CT_OK) {
            pthread_mutex_unlock(&scratch_mu);
            if (own_global)
                scratch_free(cu, global_scratch, stream);
            return s;
        }
    }
    params[nparams] = &global_scratch;
    params[nparams + 1] = &profile_scratch;
    int res;
    unsigned block = 32u * (unsigned)m->num_warps;
    if (m->num_ctas <= 1 && !m->launch_cooperative_grid && !m->launch_pdl) {
        res = cu->cuLaunchKernel(k->function, grid[0], grid[1], grid[2], block, 1, 1,
                                 (unsigned)m->shared, stream, params, NULL);
    } else if (!cu->cuLaunchKernelEx) {
        res = -1;
        s = ct_fail(CT_ERR_UNSUPPORTED,
                    "%s needs cuLaunchKernelEx (clusters, cooperative or PDL launch): the driver "
                    "is older than CUDA 12",
                    m->name);
    } else {
        ct_cu_launch_attr attrs[4];
        memset(attrs, 0, sizeof attrs);
        unsigned na = 0;
        if (m->launch_pdl) {
            attrs[na].id = LAUNCH_ATTR_PDL;
            attrs[na++].value.programmatic_stream_serialization = 1;
        }
        if (m->launch_cooperative_grid) {
            attrs[na].id = LAUNCH_ATTR_COOPERATIVE;
            attrs[na++].value.cooperative = 1;
        }
        if (m->num_ctas > 1) {
            attrs[na].id = LAUNCH_ATTR_CLUSTER_DIM;
            attrs[na].value.cluster_dim.x = (unsigned)m->num_ctas;
            attrs[na].value.cluster_dim.y = 1;
            attrs[na++].value.cluster_dim.z = 1;
            attrs[na].id = LAUNCH_ATTR_CLUSTER_SCHED;
            attrs[na++].value.cluster_scheduling_policy = 1; /* spread */
        }
        ct_cu_launch_config cfg = {grid[0] * (unsigned)(m->num_ctas > 1 ? m->num_ctas : 1),
                                   grid[1], grid[2], block, 1, 1, (unsigned)m->shared, stream,
                                   attrs, na};
        res = cu->cuLaunchKernelEx(&cfg, k->function, params, NULL);
    }
    if (locked)
        pthread_mutex_unlock(&scratch_mu);
    if (res > 0)
        s = launch_failed(res, k);
    if (own_global)
        scratch_free(cu, global_scratch, stream);
    if (own_profile)
        scratch_free(cu, profile_scratch, stream);
    return s;
}
