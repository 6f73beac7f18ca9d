/*
 * fake_cuda.c - a stand-in libcuda.so.1 for the CPU machines, built by
 * test_pack_driver.c.  There is no GPU in CI, so the host side of every
 * launch path (contexts, modules per context, shared-memory opt-in,
 * clusters, scratch, streams, events, errors) is checked against this
 * driver, which enforces the rules the real one does and records what it
 * was asked: it runs no kernels (GPU results come from the GPU machine).
 *
 * Memory is host memory; a device pointer is its address.  Time is virtual:
 * each launch advances a clock by a cost that grows with its block size, so
 * do_bench and autotuning see deterministic numbers.  $FAKE_CC sets the
 * compute capability (default 90); $FAKE_FAIL_LAUNCH makes launches fail with
 * that CUresult.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, INVALID_IMAGE = 200, INVALID_CONTEXT = 201,
       INVALID_HANDLE = 400, NOT_FOUND = 500 };

typedef struct fmod {
    void *ctx;
    const unsigned char *image;
    size_t size;
    struct ffunc *funcs[16];
    int nfuncs;
} fmod;

typedef struct ffunc {
    fmod *m;
    char name[128];
    int max_dynamic_shared;
} ffunc;

typedef struct fake_launch {
    void *fn, *ctx, *stream;
    char name[128];
    unsigned grid[3], block[3], shared;
    int ex, cluster[3], nattrs;
    uint64_t params[12];
} fake_launch;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int initialized;
static _Thread_local void *current;
static char primary_ctx, other_ctx[8];
static int nother;
static fake_launch launches[1 << 16];
static int nlaunches, nloads, expect_params = 0;
static double clock_ms;
static size_t last_async_alloc;
static int async_live, async_allocs;

/* ---- for the test ---- */
/* the last tensor map encoded: the arguments as given; the map's first 8 bytes are the
 * global address and the next 4 the rank, so a launch record shows which map it got */
typedef struct fake_tmap {
    int dtype, swizzle, l2, fill, interleave;
    unsigned rank;
    uint64_t addr, dims[5], strides[5];
    unsigned box[5], elem_strides[5];
    int calls;
} fake_tmap;
static fake_tmap last_tmap;
const fake_tmap *fake_last_tmap(void) { return &last_tmap; }

CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                                const uint64_t *strides, const unsigned *box,
                                const unsigned *elem_strides, int interleave, int swizzle, int l2,
                                int fill)
{
    if (rank < 1 || rank > 5 || ((uintptr_t)map & 63) || ((uintptr_t)addr & 15))
        return INVALID_VALUE;
    pthread_mutex_lock(&mu);
    int calls = last_tmap.calls + 1;
    memset(&last_tmap, 0, sizeof last_tmap);
    last_tmap.calls = calls;
    last_tmap.dtype = dtype;
    last_tmap.rank = rank;
    last_tmap.addr = (uint64_t)(uintptr_t)addr;
    for (unsigned i = 0; i < rank; i++) {
        last_tmap.dims[i] = dims[i];
        last_tmap.strides[i] = i + 1 < rank ? strides[i] : 0;
        last_tmap.box[i] = box[i];
        last_tmap.elem_strides[i] = elem_strides[i];
    }
    last_tmap.interleave = interleave;
    last_tmap.swizzle = swizzle;
    last_tmap.l2 = l2;
    last_tmap.fill = fill;
    pthread_mutex_unlock(&mu);
    memset(map, 0, 128);
    memcpy(map, &last_tmap.addr, 8);
    memcpy((char *)map + 8, &rank, 4);
    return OK;
}

int fake_nlaunches(void) { return nlaunches; }
const fake_launch *fake_launch_at(int i) { return i >= 0 && i < nlaunches ? &launches[i] : NULL; }
int fake_nloads(void) { return nloads; }
void fake_expect_params(int n) { expect_params = n; }
size_t fake_last_async_alloc(void) { return last_async_alloc; }
int fake_async_allocs(void) { return async_allocs; }
int fake_async_live(void) { return async_live; }

static int cc(void)
{
    const char *e = getenv("FAKE_CC");
    return e ? atoi(e) : 90;
}

CUresult cuInit(unsigned f) { (void)f; initialized = 1; return OK; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; }
CUresult cuGetErrorName(CUresult r, const char **s)
{
    static _Thread_local char buf[64];
    snprintf(buf, sizeof buf, "CUDA_ERROR_FAKE_%d", r);
    *s = buf;
    return OK;
}
CUresult cuGetErrorString(CUresult r, const char **s) { (void)r; *s = "fake driver error"; return OK; }
CUresult cuDeviceGet(int *d, int i) { if (!initialized) return NOT_INITIALIZED; *d = i; return i == 0 ? OK : INVALID_VALUE; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return OK; }
CUresult cuDeviceGetName(char *s, int n, int d) { (void)d; snprintf(s, (size_t)n, "Fake H200"); return OK; }
CUresult cuDeviceGetAttribute(int *v, int attr, int d)
{
    (void)d;
    switch (attr) {
    case 75: *v = cc() / 10; break;
    case 76: *v = cc() % 10; break;
    case 16: *v = 132; break;
    case 97: *v = 232448; break;
    case 81: *v = 233472; break;
    case 38: *v = 52428800; break;
    case 36: *v = 2619000; break;
    case 37: *v = 6144; break;
    default: *v = 0;
    }
    return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = &primary_ctx; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(int d) { (void)d; return OK; }
CUresult cuCtxGetCurrent(void **c) { *c = current; return OK; }
CUresult cuCtxSetCurrent(void *c) { current = c; return OK; }
CUresult cuCtxGetDevice(int *d) { if (!current) return INVALID_CONTEXT; *d = 0; return OK; }
CUresult cuCtxSynchronize(void) { return current ? OK : INVALID_CONTEXT; }
CUresult cuCtxCreate_v2(void **c, unsigned f, int d)
{
    (void)f, (void)d;
    pthread_mutex_lock(&mu);
    *c = &other_ctx[nother++ % 8];
    pthread_mutex_unlock(&mu);
    current = *c;
    return OK;
}
CUresult cuCtxDestroy_v2(void *c) { if (current == c) current = NULL; return OK; }

CUresult cuModuleLoadData(fmod **m, const void *image)
{
    if (!current)
        return INVALID_CONTEXT;
    const unsigned char *p = image;
    if (memcmp(p, "\177ELF", 4) != 0 || p[4] != 2)
        return INVALID_IMAGE;
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, p + 0x28, 8);
    memcpy(&shentsize, p + 0x3a, 2);
    memcpy(&shnum, p + 0x3c, 2);
    *m = calloc(1, sizeof **m);
    (*m)->ctx = current;
    (*m)->image = p;
    (*m)->size = shoff + (size_t)shentsize * shnum;
    pthread_mutex_lock(&mu);
    nloads++;
    pthread_mutex_unlock(&mu);
    return OK;
}
CUresult cuModuleUnload(fmod *m)
{
    if (current != m->ctx)
        return INVALID_CONTEXT; /* unloaded from its own context only */
    for (int i = 0; i < m->nfuncs; i++)
        free(m->funcs[i]);
    free(m);
    return OK;
}
CUresult cuModuleGetFunction(ffunc **f, fmod *m, const char *name)
{
    if (!memmem(m->image, m->size, name, strlen(name) + 1))
        return NOT_FOUND;
    if (m->nfuncs == 16)
        return INVALID_VALUE;
    *f = calloc(1, sizeof **f); /* owned by the module */
    m->funcs[m->nfuncs++] = *f;
    (*f)->m = m;
    snprintf((*f)->name, sizeof (*f)->name, "%s", name);
    return OK;
}
CUresult cuFuncGetAttribute(int *v, int attr, ffunc *f)
{
    (void)f;
    *v = attr == 4 ? 40 : attr == 0 ? 1024 : 0;
    return OK;
}
CUresult cuFuncSetAttribute(ffunc *f, int attr, int v)
{
    if (attr == 8) {
        if (v > 232448)
            return INVALID_VALUE;
        f->max_dynamic_shared = v;
    }
    return OK;
}
CUresult cuFuncSetCacheConfig(ffunc *f, int c) { (void)f, (void)c; return OK; }

static CUresult record(ffunc *f, const unsigned g[3], const unsigned b[3], unsigned shared,
                       void *stream, void **params, int ex, const unsigned cl[3], int nattrs)
{
    const char *fail = getenv("FAKE_FAIL_LAUNCH");
    if (fail)
        return atoi(fail);
    if (!current)
        return INVALID_CONTEXT;
    if (f->m->ctx != current)
        return INVALID_HANDLE; /* a function of another context's module */
    if (g[0] == 0 || g[1] == 0 || g[2] == 0 || g[0] > 0x7fffffffu || g[1] > 65535 || g[2] > 65535)
        return INVALID_VALUE;
    if (b[0] * b[1] * b[2] > 1024 || b[0] % 32)
        return INVALID_VALUE;
    if (shared > 49152 && (int)shared > f->max_dynamic_shared)
        return INVALID_VALUE; /* not opted in */
    if (cl && (g[0] % cl[0]))
        return INVALID_VALUE;
    pthread_mutex_lock(&mu);
    if (nlaunches < (int)(sizeof launches / sizeof launches[0])) {
        fake_launch *l = &launches[nlaunches++];
        memset(l, 0, sizeof *l);
        l->fn = f;
        l->ctx = current;
        l->stream = stream;
        snprintf(l->name, sizeof l->name, "%s", f->name);
        memcpy(l->grid, g, sizeof l->grid);
        memcpy(l->block, b, sizeof l->block);
        l->shared = shared;
        l->ex = ex;
        l->nattrs = nattrs;
        if (cl)
            for (int i = 0; i < 3; i++)
                l->cluster[i] = (int)cl[i];
        for (int i = 0; i < expect_params && i < 12; i++)
            memcpy(&l->params[i], params[i], 8); /* slots are 8 bytes */
    }
    clock_ms += 0.002 + 1e-6 * b[0] * ((double)g[0] * g[1] * g[2]);
    pthread_mutex_unlock(&mu);
    return OK;
}

CUresult cuLaunchKernel(ffunc *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void *stream, void **params, void **extra)
{
    (void)extra;
    unsigned g[3] = {gx, gy, gz}, b[3] = {bx, by, bz};
    return record(f, g, b, shared, stream, params, 0, NULL, 0);
}

typedef struct attr {
    int id;
    char pad[4];
    union {
        char pad[64];
        struct {
            unsigned x, y, z;
        } cluster;
        int value;
    } v;
} attr;
typedef struct launch_config {
    unsigned gx, gy, gz, bx, by, bz, shared;
    void *stream;
    attr *attrs;
    unsigned nattrs;
} launch_config;

CUresult cuLaunchKernelEx(const launch_config *c, ffunc *f, void **params, void **extra)
{
    (void)extra;
    unsigned g[3] = {c->gx, c->gy, c->gz}, b[3] = {c->bx, c->by, c->bz}, cl[3] = {1, 1, 1};
    bool has_cluster = false;
    for (unsigned i = 0; i < c->nattrs; i++)
        if (c->attrs[i].id == 4) {
            cl[0] = c->attrs[i].v.cluster.x;
            cl[1] = c->attrs[i].v.cluster.y;
            cl[2] = c->attrs[i].v.cluster.z;
            has_cluster = true;
        }
    return record(f, g, b, c->shared, c->stream, params, 1, has_cluster ? cl : NULL, (int)c->nattrs);
}

static void *alloc(size_t n) { return aligned_alloc(256, (n + 255) / 256 * 256); }
CUresult cuMemAlloc_v2(uint64_t *p, size_t n) { if (!current) return INVALID_CONTEXT; *p = (uint64_t)(uintptr_t)alloc(n); return OK; }
CUresult cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return OK; }
CUresult cuMemAllocAsync(uint64_t *p, size_t n, void *s)
{
    (void)s;
    *p = (uint64_t)(uintptr_t)alloc(n);
    last_async_alloc = n;
    async_live++;
    async_allocs++;
    return OK;
}
CUresult cuMemFreeAsync(uint64_t p, void *s) { (void)s; free((void *)(uintptr_t)p); async_live--; return OK; }
CUresult cuMemcpyHtoD_v2(uint64_t d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *d, uint64_t s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return OK; }
CUresult cuMemcpyDtoD_v2(uint64_t d, uint64_t s, size_t n)
{
    memcpy((void *)(uintptr_t)d, (void *)(uintptr_t)s, n);
    clock_ms += n * 1e-9;
    return OK;
}
CUresult cuMemsetD8_v2(uint64_t p, unsigned char v, size_t n) { memset((void *)(uintptr_t)p, v, n); return OK; }
/* only the L2 flush of do_bench uses it: the contents do not matter, the time does */
CUresult cuMemsetD32Async(uint64_t p, unsigned v, size_t n, void *s)
{
    (void)s, (void)p, (void)v, (void)n;
    clock_ms += 0.01;
    return OK;
}
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) { *f = *t = (size_t)1 << 37; return OK; }
CUresult cuPointerGetAttribute(void *d, int a, uint64_t p) { (void)a; memcpy(d, &p, 8); return OK; }
CUresult cuStreamCreate(void **s, unsigned f) { (void)f; *s = malloc(1); return OK; }
CUresult cuStreamDestroy_v2(void *s) { free(s); return OK; }
CUresult cuStreamSynchronize(void *s) { (void)s; return current ? OK : INVALID_CONTEXT; }
CUresult cuEventCreate(double **e, unsigned f) { (void)f; *e = calloc(1, sizeof **e); return OK; }
CUresult cuEventDestroy_v2(double *e) { free(e); return OK; }
CUresult cuEventRecord(double *e, void *s) { (void)s; *e = clock_ms; return OK; }
CUresult cuEventSynchronize(double *e) { (void)e; return OK; }
CUresult cuEventElapsedTime_v2(float *ms, double *a, double *b) { *ms = (float)(*b - *a); return OK; }
