/*
 * main.c - a plain C program running two ctriton kernels ahead of time:
 * no Python, no Triton, no ctriton library, no link against libcuda.
 *
 * The launchers (gen/add_kernel_B1024.{h,c}, gen/softmax_kernel_B1024.{h,c},
 * gen/ops_host_desc_64x32_fp32.{h,c}) come from `ctriton aot` (see the
 * Makefile); they embed cubins for sm_80, sm_90a and sm_100a and pick one for
 * the device.  This program opens the driver itself for the little it needs (a
 * context, memory, copies), runs vector add, row softmax and a kernel taking
 * two tensor descriptors (TMA descriptors on sm_90, encoded by the launcher),
 * checks them against plain C, shows an error being returned rather than the
 * process exiting, and times the launcher.
 *
 * Exit status: 0 all correct, 1 a failure, 77 no GPU driver (skipped).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "add_kernel_B1024.h"
#include "ops_host_desc_64x32_fp32.h"
#include "softmax_kernel_B1024.h"

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;

static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(int *, int);
    CUresult (*DeviceGetName)(char *, int, int);
    CUresult (*PrimaryCtxRetain)(CUcontext *, int);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*CtxSynchronize)(void);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*HtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*DtoH)(void *, CUdeviceptr, size_t);
} cu;

#define CHECK(call)                                                                           \
    do {                                                                                      \
        CUresult r_ = (call);                                                                 \
        if (r_) {                                                                             \
            fprintf(stderr, "%s failed: %d\n", #call, r_);                                    \
            return 1;                                                                         \
        }                                                                                     \
    } while (0)

static int open_driver(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h)
        return 0;
    *(void **)&cu.Init = dlsym(h, "cuInit");
    *(void **)&cu.DeviceGet = dlsym(h, "cuDeviceGet");
    *(void **)&cu.DeviceGetName = dlsym(h, "cuDeviceGetName");
    *(void **)&cu.PrimaryCtxRetain = dlsym(h, "cuDevicePrimaryCtxRetain");
    *(void **)&cu.CtxSetCurrent = dlsym(h, "cuCtxSetCurrent");
    *(void **)&cu.CtxSynchronize = dlsym(h, "cuCtxSynchronize");
    *(void **)&cu.MemAlloc = dlsym(h, "cuMemAlloc_v2");
    *(void **)&cu.MemFree = dlsym(h, "cuMemFree_v2");
    *(void **)&cu.HtoD = dlsym(h, "cuMemcpyHtoD_v2");
    *(void **)&cu.DtoH = dlsym(h, "cuMemcpyDtoH_v2");
    return cu.Init && cu.MemAlloc && cu.DtoH && cu.Init(0) == 0;
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static float frand(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)((*s >> 8) & 0xffff) / 65536.0f * 4.0f - 2.0f;
}

int main(void)
{
    if (!open_driver()) {
        /* what the launchers say in the same situation */
        add_kernel_B1024_args a = {0, 0, 0, 16};
        int err = add_kernel_B1024_launch(NULL, 1, 1, 1, &a);
        printf("no GPU driver here (launcher returned %d: %s); skipping\n", err,
               add_kernel_B1024_error());
        return 77;
    }
    int dev;
    CUcontext ctx;
    char name[128] = "";
    CHECK(cu.DeviceGet(&dev, 0));
    cu.DeviceGetName(name, sizeof name, dev);
    CHECK(cu.PrimaryCtxRetain(&ctx, dev));
    CHECK(cu.CtxSetCurrent(ctx));
    printf("device: %s; embedded cubins: %s\n", name, add_kernel_B1024_archs);

    /* vector add: n is a multiple of 16, as the B1024 signature promises */
    enum { N = 98304 };
    static float x[N], y[N], z[N];
    unsigned seed = 1;
    for (int i = 0; i < N; i++) {
        x[i] = frand(&seed);
        y[i] = frand(&seed);
    }
    CUdeviceptr dx, dy, dz;
    CHECK(cu.MemAlloc(&dx, sizeof x));
    CHECK(cu.MemAlloc(&dy, sizeof y));
    CHECK(cu.MemAlloc(&dz, sizeof z));
    CHECK(cu.HtoD(dx, x, sizeof x));
    CHECK(cu.HtoD(dy, y, sizeof y));
    add_kernel_B1024_args aa = {.x_ptr = dx, .y_ptr = dy, .output_ptr = dz, .n_elements = N};
    int err = add_kernel_B1024_launch(NULL, N / 1024, 1, 1, &aa);
    if (err) {
        fprintf(stderr, "add: %s\n", add_kernel_B1024_error());
        return 1;
    }
    CHECK(cu.DtoH(z, dz, sizeof z));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += z[i] != x[i] + y[i];
    printf("add_kernel      %d elements: %s\n", N, bad ? "WRONG" : "ok (exact)");

    /* softmax over rows of 1000 columns */
    enum { M = 256, C = 1000 };
    static float s[M * C], t[M * C];
    for (int i = 0; i < M * C; i++)
        s[i] = frand(&seed) * 4;
    CUdeviceptr ds, dt;
    CHECK(cu.MemAlloc(&ds, sizeof s));
    CHECK(cu.MemAlloc(&dt, sizeof t));
    CHECK(cu.HtoD(ds, s, sizeof s));
    softmax_kernel_B1024_args sa = {.x_ptr = ds, .y_ptr = dt, .n_cols = C};
    if ((err = softmax_kernel_B1024_launch(NULL, M, 1, 1, &sa))) {
        fprintf(stderr, "softmax: %s\n", softmax_kernel_B1024_error());
        return 1;
    }
    CHECK(cu.DtoH(t, dt, sizeof t));
    double maxerr = 0;
    for (int r = 0; r < M; r++) {
        double mx = -INFINITY, sum = 0;
        for (int c = 0; c < C; c++)
            mx = fmax(mx, s[r * C + c]);
        for (int c = 0; c < C; c++)
            sum += exp(s[r * C + c] - mx);
        for (int c = 0; c < C; c++) {
            double ref = exp(s[r * C + c] - mx) / sum;
            double e = fabs(t[r * C + c] - ref) / ref;
            maxerr = e > maxerr ? e : maxerr;
        }
    }
    printf("softmax_kernel  %dx%d: max rel error %.2e: %s\n", M, C, maxerr,
           maxerr < 1e-5 ? "ok" : "WRONG");
    bad += maxerr >= 1e-5;

    /* two tensor descriptor arguments: c = a + 1 over a 100 x 72 tensor in 64 x 32 blocks */
    enum { DM = 100, DN = 72, GUARD = 64 };
    static float da[DM * DN], dc[DM * DN + GUARD];
    for (int i = 0; i < DM * DN; i++)
        da[i] = frand(&seed);
    for (int i = 0; i < DM * DN + GUARD; i++)
        dc[i] = -7.0f;
    CUdeviceptr pa, pc;
    CHECK(cu.MemAlloc(&pa, sizeof da));
    CHECK(cu.MemAlloc(&pc, sizeof dc));
    CHECK(cu.HtoD(pa, da, sizeof da));
    CHECK(cu.HtoD(pc, dc, sizeof dc));
    ops_host_desc_64x32_fp32_args ha = {
        .a_desc = {.base = pa, .shape = {DM, DN}, .strides = {DN, 1}},
        .c_desc = {.base = pc, .shape = {DM, DN}, .strides = {DN, 1}},
    };
    if ((err = ops_host_desc_64x32_fp32_launch(NULL, (DM + 63) / 64, (DN + 31) / 32, 1, &ha))) {
        fprintf(stderr, "ops_host_desc: %s\n", ops_host_desc_64x32_fp32_error());
        return 1;
    }
    CHECK(cu.DtoH(dc, pc, sizeof dc));
    int dbad = 0;
    for (int i = 0; i < DM * DN; i++)
        dbad += dc[i] != da[i] + 1.0f;
    for (int i = DM * DN; i < DM * DN + GUARD; i++)
        dbad += dc[i] != -7.0f;
    printf("ops_host_desc   %dx%d through two tensor descriptors: %s\n", DM, DN,
           dbad ? "WRONG" : "ok (exact, nothing written past the tensor)");
    bad += dbad != 0;

    /* errors are values: a grid the hardware cannot take */
    err = softmax_kernel_B1024_launch(NULL, 1, 70000, 1, &sa);
    printf("grid (1, 70000, 1) -> %d: %s\n", err, softmax_kernel_B1024_error());
    bad += err != CT_AOT_ERR_GRID;

    /* host cost of a launch through the generated launcher */
    for (int i = 0; i < 100; i++)
        add_kernel_B1024_launch(NULL, N / 1024, 1, 1, &aa);
    CHECK(cu.CtxSynchronize());
    enum { REPS = 20000 };
    double t0 = now_us();
    for (int i = 0; i < REPS; i++)
        add_kernel_B1024_launch(NULL, 1, 1, 1, &aa);
    double t1 = now_us();
    CHECK(cu.CtxSynchronize());
    printf("aot launch: %.2f us per launch (host side, %d launches)\n", (t1 - t0) / REPS, REPS);

    cu.MemFree(dx);
    cu.MemFree(dy);
    cu.MemFree(dz);
    cu.MemFree(ds);
    cu.MemFree(dt);
    cu.MemFree(pa);
    cu.MemFree(pc);
    add_kernel_B1024_unload();
    ops_host_desc_64x32_fp32_unload();
    softmax_kernel_B1024_unload();
    printf("%s\n", bad ? "FAILED" : "all ok");
    return bad ? 1 : 0;
}
