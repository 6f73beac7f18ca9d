/*
 * driver.c - the CUDA driver API, dlopen'ed at run time.
 *
 * libcuda.so.1 is loaded once per process (pthread_once); each entry point
 * is resolved by its ABI name (cuMemAlloc_v2 and friends, as <cuda.h> maps
 * them).  Where there is no driver, ct_cuda() returns NULL and every GPU
 * call answers CT_ERR_NO_DRIVER with a message that says so.
 */
#define _GNU_SOURCE
#include "ctriton/cuda.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ct__set_cuda_result(int res);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static ct_cuda_api api;
static const ct_cuda_api *api_ok;
static char load_error[1024];

static void *sym(void *h, const char *a, const char *b, bool *missing, const char **which)
{
    void *p = dlsym(h, a);
    if (!p && b)
        p = dlsym(h, b);
    if (!p) {
        *missing = true;
        if (!*which)
            *which = a;
    }
    return p;
}

static void load(void)
{
    const char *path = getenv("CTRITON_LIBCUDA");
    if (!path || !*path)
        path = "libcuda.so.1";
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(load_error, sizeof load_error,
                 "no CUDA driver: cannot load %s (%s); GPU launches need an NVIDIA driver, "
                 "everything else in ctriton works without one",
                 path, e ? e : "not found");
        return;
    }
    bool missing = false;
    const char *which = NULL;
#define REQ(field, name) api.field = sym(h, name, NULL, &missing, &which)
#define REQ2(field, name, alt) api.field = sym(h, name, alt, &missing, &which)
    REQ(cuInit, "cuInit");
    REQ(cuDriverGetVersion, "cuDriverGetVersion");
    REQ(cuGetErrorName, "cuGetErrorName");
    REQ(cuGetErrorString, "cuGetErrorString");
    REQ(cuDeviceGet, "cuDeviceGet");
    REQ(cuDeviceGetCount, "cuDeviceGetCount");
    REQ(cuDeviceGetName, "cuDeviceGetName");
    REQ(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    REQ(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    REQ2(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease");
    REQ(cuCtxGetCurrent, "cuCtxGetCurrent");
    REQ(cuCtxSetCurrent, "cuCtxSetCurrent");
    REQ(cuCtxGetDevice, "cuCtxGetDevice");
    REQ(cuCtxSynchronize, "cuCtxSynchronize");
    REQ(cuModuleLoadData, "cuModuleLoadData");
    REQ(cuModuleUnload, "cuModuleUnload");
    REQ(cuModuleGetFunction, "cuModuleGetFunction");
    REQ(cuFuncGetAttribute, "cuFuncGetAttribute");
    REQ(cuFuncSetAttribute, "cuFuncSetAttribute");
    REQ(cuFuncSetCacheConfig, "cuFuncSetCacheConfig");
    REQ(cuLaunchKernel, "cuLaunchKernel");
    REQ(cuMemAlloc, "cuMemAlloc_v2");
    REQ(cuMemFree, "cuMemFree_v2");
    REQ(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    REQ(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    REQ(cuMemcpyDtoD, "cuMemcpyDtoD_v2");
    REQ(cuMemsetD8, "cuMemsetD8_v2");
    REQ(cuMemsetD32Async, "cuMemsetD32Async");
    REQ(cuMemGetInfo, "cuMemGetInfo_v2");
    REQ(cuPointerGetAttribute, "cuPointerGetAttribute");
    REQ(cuStreamCreate, "cuStreamCreate");
    REQ2(cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy");
    REQ(cuStreamSynchronize, "cuStreamSynchronize");
    REQ(cuEventCreate, "cuEventCreate");
    REQ2(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy");
    REQ(cuEventRecord, "cuEventRecord");
    REQ(cuEventSynchronize, "cuEventSynchronize");
    REQ2(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
#undef REQ
#undef REQ2
    /* optional: newer drivers only */
    api.cuLaunchKernelEx = dlsym(h, "cuLaunchKernelEx");
    api.cuMemAllocAsync = dlsym(h, "cuMemAllocAsync");
    api.cuMemFreeAsync = dlsym(h, "cuMemFreeAsync");
    api.cuCtxCreate = dlsym(h, "cuCtxCreate_v2");
    api.cuCtxDestroy = dlsym(h, "cuCtxDestroy_v2");
    api.cuTensorMapEncodeTiled = dlsym(h, "cuTensorMapEncodeTiled");
    if (missing) {
        snprintf(load_error, sizeof load_error,
                 "the CUDA driver %s is too old: it lacks %s", path, which);
        dlclose(h);
        return;
    }
    api_ok = &api; /* the handle stays open for the life of the process */
}

const ct_cuda_api *ct_cuda(void)
{
    pthread_once(&once, load);
    if (!api_ok)
        ct_fail(CT_ERR_NO_DRIVER, "%s", load_error);
    return api_ok;
}

ct_status ct_cu_check(int res, const char *what)
{
    if (res == 0)
        return CT_OK;
    const char *name = NULL, *str = NULL;
    if (api_ok) {
        api_ok->cuGetErrorName(res, &name);
        api_ok->cuGetErrorString(res, &str);
    }
    ct_status s = ct_fail(CT_ERR_CUDA, "%s failed: %s (%d): %s", what,
                          name ? name : "CUDA_ERROR", res, str ? str : "unknown error");
    ct__set_cuda_result(res);
    return s;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result;

static void do_init(void) { init_result = api_ok->cuInit(0); }

ct_status ct_cuda_init(void)
{
    if (!ct_cuda())
        return CT_ERR_NO_DRIVER;
    pthread_once(&init_once, do_init);
    if (init_result == 100) /* CUDA_ERROR_NO_DEVICE */
        return ct_cu_check(init_result, "cuInit (no CUDA device is visible)");
    return ct_cu_check(init_result, "cuInit");
}

ct_status ct_cuda_context(int device, ct_context *ctx)
{
    ct_status s = ct_cuda_init();
    if (s != CT_OK)
        return s;
    const ct_cuda_api *cu = api_ok;
    if ((s = ct_cu_check(cu->cuCtxGetCurrent(ctx), "cuCtxGetCurrent")) != CT_OK)
        return s;
    if (*ctx)
        return CT_OK;
    ct_cudevice dev;
    if ((s = ct_cu_check(cu->cuDeviceGet(&dev, device), "cuDeviceGet")) != CT_OK)
        return s;
    /* retained (and never released: it lives as long as the process), as Triton's loader does */
    if ((s = ct_cu_check(cu->cuDevicePrimaryCtxRetain(ctx, dev), "cuDevicePrimaryCtxRetain")) != CT_OK)
        return s;
    return ct_cu_check(cu->cuCtxSetCurrent(*ctx), "cuCtxSetCurrent");
}

ct_status ct_device_query(ct_device_info *out)
{
    memset(out, 0, sizeof *out);
    ct_context ctx;
    ct_status s = ct_cuda_context(0, &ctx);
    if (s != CT_OK)
        return s;
    const ct_cuda_api *cu = api_ok;
    ct_cudevice dev;
    if ((s = ct_cu_check(cu->cuCtxGetDevice(&dev), "cuCtxGetDevice")) != CT_OK)
        return s;
    out->ordinal = dev;
    if ((s = ct_cu_check(cu->cuDeviceGetName(out->name, (int)sizeof out->name, dev),
                         "cuDeviceGetName")) != CT_OK)
        return s;
    int clock_khz = 0, bus = 0;
    struct {
        int *v;
        int attr;
    } q[] = {{&out->cc_major, 75}, {&out->cc_minor, 76},     {&out->sm_count, 16},
             {&out->shared_optin, 97}, {&out->l2_bytes, 38}, {&clock_khz, 36}, {&bus, 37}};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        if ((s = ct_cu_check(cu->cuDeviceGetAttribute(q[i].v, q[i].attr, dev),
                             "cuDeviceGetAttribute")) != CT_OK)
            return s;
    /* DDR: two transfers per clock */
    out->mem_bandwidth_gbs = 2.0 * clock_khz * 1e3 * (bus / 8.0) / 1e9;
    return CT_OK;
}

ct_status ct_mem_alloc(ct_devptr *p, size_t bytes)
{
    ct_context ctx;
    ct_status s = ct_cuda_context(0, &ctx);
    if (s != CT_OK)
        return s;
    return ct_cu_check(api_ok->cuMemAlloc(p, bytes ? bytes : 1), "cuMemAlloc");
}

ct_status ct_mem_free(ct_devptr p)
{
    if (!ct_cuda())
        return CT_ERR_NO_DRIVER;
    return p ? ct_cu_check(api_ok->cuMemFree(p), "cuMemFree") : CT_OK;
}

ct_status ct_mem_upload(ct_devptr dst, const void *src, size_t bytes)
{
    if (!ct_cuda())
        return CT_ERR_NO_DRIVER;
    return ct_cu_check(api_ok->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

ct_status ct_mem_download(void *dst, ct_devptr src, size_t bytes)
{
    if (!ct_cuda())
        return CT_ERR_NO_DRIVER;
    return ct_cu_check(api_ok->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

ct_status ct_stream_sync(ct_stream s)
{
    if (!ct_cuda())
        return CT_ERR_NO_DRIVER;
    return ct_cu_check(api_ok->cuStreamSynchronize(s), "cuStreamSynchronize");
}
