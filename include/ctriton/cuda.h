/*
 * ctriton/cuda.h - the CUDA driver API, loaded at run time, and what
 * ctriton builds on it: devices and contexts, modules loaded per context,
 * device memory for tests and benchmarks, and do_bench.
 *
 * ctriton never links against libcuda: `libcuda.so.1` is dlopen'ed on first
 * use and the few entry points it needs are declared here with the driver's
 * own ABI.  On a machine without a driver every function below returns
 * CT_ERR_NO_DRIVER with a message saying so, and the rest of ctriton (the
 * kernel language, lowering, the cache, AOT generation) works as usual.
 *
 * Errors are values: functions return a ct_status; the detail of the last
 * failure on the calling thread is in ct_errmsg() (a thread-local buffer,
 * overwritten by the next failure on that thread).  Nothing exits or aborts.
 *
 * Handles are the driver's: ct_stream is a CUstream, ct_context a CUcontext,
 * ct_devptr a CUdeviceptr (same struct tags and types), so a program that
 * also includes <cuda.h> passes its own handles straight in.  ctriton owns
 * none of the handles it is given; it owns the modules it loads (released
 * by ct_module_cache_unload or at ct_kernel_free).
 */
#ifndef CTRITON_CUDA_H
#define CTRITON_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctriton/export.h"

CT_BEGIN_DECLS

typedef enum ct_status {
    CT_OK = 0,
    CT_ERR_NO_DRIVER,   /* libcuda.so.1 missing or unusable: no GPU driver on this machine */
    CT_ERR_CUDA,        /* a driver call failed: ct_last_cuda_result() has its CUresult */
    CT_ERR_INVALID,     /* a bad argument: count, type, grid, option */
    CT_ERR_COMPILE,     /* the kernel was refused, or lowering through Triton failed */
    CT_ERR_IO,          /* the cache or a file could not be read or written */
    CT_ERR_NOMEM,       /* host allocation failed */
    CT_ERR_NO_BINARY,   /* no cubin for this device's architecture */
    CT_ERR_UNSUPPORTED  /* asked for something this build or device cannot do */
} ct_status;

/* "CT_ERR_CUDA" and so on. */
const char *ct_status_name(ct_status s);
/* The message of the last failure on this thread ("" if none). */
const char *ct_errmsg(void);
/* The CUresult of the last failed driver call on this thread (0 if none). */
int ct_last_cuda_result(void);
/* Records a failure (used across ctriton's layers); returns `s`. */
ct_status ct_fail(ct_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Driver handle types, ABI-identical to <cuda.h>. */
typedef unsigned long long ct_devptr;       /* CUdeviceptr */
typedef int ct_cudevice;                    /* CUdevice */
typedef struct CUctx_st *ct_context;        /* CUcontext */
typedef struct CUstream_st *ct_stream;      /* CUstream */
typedef struct CUmod_st *ct_cumodule;       /* CUmodule */
typedef struct CUfunc_st *ct_cufunction;    /* CUfunction */
typedef struct CUevent_st *ct_event;        /* CUevent */

/* cuLaunchKernelEx's configuration, as <cuda.h> lays it out. */
typedef struct ct_cu_launch_attr {
    int id;                     /* CUlaunchAttributeID */
    char pad[4];
    union {
        char pad[64];
        int cooperative;
        struct {
            unsigned x, y, z;
        } cluster_dim;
        int cluster_scheduling_policy;
        int programmatic_stream_serialization;
    } value;
} ct_cu_launch_attr;

typedef struct ct_cu_launch_config {
    unsigned grid_x, grid_y, grid_z;
    unsigned block_x, block_y, block_z;
    unsigned shared_mem_bytes;
    ct_stream stream;
    ct_cu_launch_attr *attrs;
    unsigned num_attrs;
} ct_cu_launch_config;

/* The driver entry points ctriton uses, resolved with dlsym (the _v2 ABI
 * where the driver has one).  Every function returns a CUresult. */
typedef struct ct_cuda_api {
    int (*cuInit)(unsigned flags);
    int (*cuDriverGetVersion)(int *v);
    int (*cuGetErrorName)(int res, const char **s);
    int (*cuGetErrorString)(int res, const char **s);
    int (*cuDeviceGet)(ct_cudevice *d, int ordinal);
    int (*cuDeviceGetCount)(int *n);
    int (*cuDeviceGetName)(char *name, int len, ct_cudevice d);
    int (*cuDeviceGetAttribute)(int *v, int attr, ct_cudevice d);
    int (*cuDevicePrimaryCtxRetain)(ct_context *c, ct_cudevice d);
    int (*cuDevicePrimaryCtxRelease)(ct_cudevice d);
    int (*cuCtxGetCurrent)(ct_context *c);
    int (*cuCtxSetCurrent)(ct_context c);
    int (*cuCtxGetDevice)(ct_cudevice *d);
    int (*cuCtxSynchronize)(void);
    int (*cuModuleLoadData)(ct_cumodule *m, const void *image);
    int (*cuModuleUnload)(ct_cumodule m);
    int (*cuModuleGetFunction)(ct_cufunction *f, ct_cumodule m, const char *name);
    int (*cuFuncGetAttribute)(int *v, int attr, ct_cufunction f);
    int (*cuFuncSetAttribute)(ct_cufunction f, int attr, int v);
    int (*cuFuncSetCacheConfig)(ct_cufunction f, int config);
    int (*cuLaunchKernel)(ct_cufunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                          unsigned by, unsigned bz, unsigned shared, ct_stream s, void **params,
                          void **extra);
    int (*cuLaunchKernelEx)(const ct_cu_launch_config *config, ct_cufunction f, void **params,
                            void **extra); /* NULL on drivers before CUDA 12 */
    int (*cuMemAlloc)(ct_devptr *p, size_t bytes);
    int (*cuMemFree)(ct_devptr p);
    int (*cuMemAllocAsync)(ct_devptr *p, size_t bytes, ct_stream s);
    int (*cuMemFreeAsync)(ct_devptr p, ct_stream s);
    int (*cuMemcpyHtoD)(ct_devptr dst, const void *src, size_t bytes);
    int (*cuMemcpyDtoH)(void *dst, ct_devptr src, size_t bytes);
    int (*cuMemcpyDtoD)(ct_devptr dst, ct_devptr src, size_t bytes);
    int (*cuMemsetD8)(ct_devptr p, unsigned char v, size_t n);
    int (*cuMemsetD32Async)(ct_devptr p, unsigned v, size_t n, ct_stream s);
    int (*cuMemGetInfo)(size_t *free_bytes, size_t *total_bytes);
    int (*cuPointerGetAttribute)(void *data, int attr, ct_devptr p);
    int (*cuStreamCreate)(ct_stream *s, unsigned flags);
    int (*cuStreamDestroy)(ct_stream s);
    int (*cuStreamSynchronize)(ct_stream s);
    int (*cuEventCreate)(ct_event *e, unsigned flags);
    int (*cuEventDestroy)(ct_event e);
    int (*cuEventRecord)(ct_event e, ct_stream s);
    int (*cuEventSynchronize)(ct_event e);
    int (*cuEventElapsedTime)(float *ms, ct_event start, ct_event end);
    /* optional (NULL if the driver lacks them): contexts besides the primary one */
    int (*cuCtxCreate)(ct_context *c, unsigned flags, ct_cudevice d); /* cuCtxCreate_v2 */
    int (*cuCtxDestroy)(ct_context c);
    /* optional: CUDA 12 drivers; tensor descriptor arguments (TMA) need it */
    int (*cuTensorMapEncodeTiled)(void *map, int dtype, unsigned rank, void *addr,
                                  const uint64_t *dims, const uint64_t *strides,
                                  const unsigned *box, const unsigned *elem_strides, int interleave,
                                  int swizzle, int l2promotion, int oob_fill);
} ct_cuda_api;

/* Loads libcuda.so.1 once (thread-safe) and returns the table, or NULL with
 * CT_ERR_NO_DRIVER in ct_errmsg().  $CTRITON_LIBCUDA names another file. */
const ct_cuda_api *ct_cuda(void);
/* ct_cuda() and cuInit(0); CT_OK when a driver is usable. */
ct_status ct_cuda_init(void);
/* Checks a CUresult: CT_OK for 0, else CT_ERR_CUDA with "what: NAME (string)". */
ct_status ct_cu_check(int res, const char *what);

/* The context launches use: the current one, or else the primary context of
 * `device`, retained (once per process) and made current. */
ct_status ct_cuda_context(int device, ct_context *ctx);

typedef struct ct_device_info {
    int ordinal;
    char name[128];
    int cc_major, cc_minor;     /* compute capability */
    int sm_count;
    int shared_optin;           /* max dynamic shared memory per block, opted in */
    int l2_bytes;
    double mem_bandwidth_gbs;   /* theoretical, from clock and bus width (0 if unknown) */
} ct_device_info;
/* The device of the current context (making device 0's primary current if
 * there is none). */
ct_status ct_device_query(ct_device_info *out);

/* Device memory in the current context, for tests and benchmarks. */
ct_status ct_mem_alloc(ct_devptr *p, size_t bytes);
ct_status ct_mem_free(ct_devptr p);
ct_status ct_mem_upload(ct_devptr dst, const void *src, size_t bytes);
ct_status ct_mem_download(void *dst, ct_devptr src, size_t bytes);
ct_status ct_stream_sync(ct_stream s);

/* ------------------------------------------------------------------ */
/* A cubin loaded in a context, ready to launch                        */
/* ------------------------------------------------------------------ */

/* What a launch needs from Triton's metadata (kernel.json). */
typedef struct ct_launch_meta {
    char name[128];             /* the kernel's symbol in the cubin */
    int num_warps;              /* block = 32 * num_warps */
    int num_ctas;               /* cluster size along x (grid x is multiplied by it) */
    int shared;                 /* dynamic shared memory, bytes */
    int64_t global_scratch_size, global_scratch_align;   /* per program */
    int64_t profile_scratch_size, profile_scratch_align; /* per program */
    bool launch_cooperative_grid, launch_pdl;
    int arch;                   /* compute capability it was built for, e.g. 90 */
    /* tensordesc_meta: the TMA descriptors Triton expects for the descriptor arguments, in
     * order (none: the kernel takes each as base pointer, shape and strides) */
    int ndescs;
    struct ct_desc_meta {
        int swizzle, elem_size, elem_type, rank;
        int block[5];
        bool fp4_padded;
    } descs[8];
} ct_launch_meta;

/* A module loaded in one context, its function, and its launch data. */
typedef struct ct_loaded {
    ct_context ctx;
    ct_cumodule module;
    ct_cufunction function;
    ct_launch_meta meta;
    int n_regs, n_spills;
} ct_loaded;

/* Loads `cubin` in the current context: cuModuleLoadData, the function by
 * name, dynamic shared memory above 48 KiB opted in (as Triton does), the
 * non-portable cluster size allowed for num_ctas == 16. */
ct_status ct_load_cubin(const void *cubin, size_t size, const ct_launch_meta *meta, ct_loaded *out);
void ct_unload(ct_loaded *l);

/* Grid checks done before every launch: grid[0] < 2^31 (after multiplying by
 * num_ctas), grid[1] and grid[2] <= 65535, no zero. */
ct_status ct_check_grid(const unsigned grid[3], int num_ctas);

/* Launches with packed parameters: `params` holds one pointer per kernel
 * argument, then the two hidden scratch pointers, which this function fills
 * when the metadata asks for scratch (tensor descriptors made in the kernel,
 * profiling).  The scratch comes from a buffer kept per context, stream and
 * kind and grown in stream order when a launch needs more (as Triton takes it
 * from triton.set_allocator's allocator, in practice torch's caching one), so
 * a launch costs no allocation once warm ($CTRITON_SCRATCH_CACHE=0: a buffer
 * per launch, freed after it).  `nparams` counts the kernel's own. */
ct_status ct_launch_packed(const ct_loaded *k, const unsigned grid[3], ct_stream stream,
                           void **params, int nparams);
/* Frees the kept scratch buffers (the library owns them; a context's teardown
 * frees them too).  Call it with no launch in flight, e.g. before destroying a
 * stream that launched kernels with scratch, or to give the memory back. */
void ct_launch_release_scratch(void);

/* ------------------------------------------------------------------ */
/* do_bench: triton.testing.do_bench in C                              */
/* ------------------------------------------------------------------ */

/* One run of what is measured, enqueued on `stream`; returns CT_OK or an error. */
typedef ct_status (*ct_bench_fn)(void *ud, ct_stream stream);

typedef struct ct_bench_opts {
    double warmup_ms;   /* default 25 */
    double rep_ms;      /* default 100 */
    size_t flush_bytes; /* L2 flush buffer cleared before each run; default 256 MB, 0: none */
    int max_reps;       /* cap on repeats (0: 100000) */
    ct_stream stream;   /* default: the NULL stream */
} ct_bench_opts;

typedef struct ct_bench_result {
    int reps, warmup;
    double estimate_ms;          /* one run with a flush, from the first 5 */
    double median_ms, mean_ms, min_ms, max_ms, p20_ms, p80_ms, std_ms;
} ct_bench_result;

/* Runs fn once, estimates its time over 5 runs (flush included, as Triton
 * does), then n_warmup = warmup_ms / estimate and n_repeat = rep_ms / estimate
 * runs each timed by a pair of events after an L2 flush.  Quantiles are
 * linear interpolations, like torch.quantile.  opts may be NULL. */
ct_status ct_do_bench(ct_bench_fn fn, void *ud, const ct_bench_opts *opts, ct_bench_result *out);

/* Quantile q in [0,1] of n values (sorted in place), linear interpolation. */
double ct_quantile(double *v, int n, double q);

CT_END_DECLS
#endif
