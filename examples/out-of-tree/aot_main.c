/*
 * aot_main.c - a program that launches bias_gelu_kernel through the launcher
 * `ctriton aot` wrote (bias_gelu_kernel_B1024.{h,c}): no Python, no Triton,
 * no ctriton library at run time; libcuda.so.1 is opened when it runs.
 *
 * Exit status: 0 correct, 1 a failure, 77 no GPU driver (skipped).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>

#include "bias_gelu_kernel_B1024.h"

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;

int main(void)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cuda) {
        printf("no GPU driver: the launcher links and loads; skipping the launch\n");
        return 77;
    }
    CUresult (*init)(unsigned) = (CUresult(*)(unsigned))dlsym(cuda, "cuInit");
    CUresult (*retain)(CUcontext *, int) = (CUresult(*)(CUcontext *, int))dlsym(cuda, "cuDevicePrimaryCtxRetain");
    CUresult (*setcur)(CUcontext) = (CUresult(*)(CUcontext))dlsym(cuda, "cuCtxSetCurrent");
    CUresult (*alloc)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))dlsym(cuda, "cuMemAlloc_v2");
    CUresult (*htod)(CUdeviceptr, const void *, size_t) =
        (CUresult(*)(CUdeviceptr, const void *, size_t))dlsym(cuda, "cuMemcpyHtoD_v2");
    CUresult (*dtoh)(void *, CUdeviceptr, size_t) = (CUresult(*)(void *, CUdeviceptr, size_t))dlsym(cuda, "cuMemcpyDtoH_v2");
    CUcontext ctx;
    if (!init || init(0) || retain(&ctx, 0) || setcur(ctx)) {
        printf("no usable GPU: skipping the launch\n");
        return 77;
    }
    enum { M = 64, N = 1000 };
    static float x[M * N], b[N], y[M * N];
    for (int i = 0; i < M * N; i++)
        x[i] = (float)((i % 61) - 30) / 10.0f;
    for (int j = 0; j < N; j++)
        b[j] = (float)(j % 7) / 20.0f;
    CUdeviceptr dx, db, dy;
    if (alloc(&dx, sizeof x) || alloc(&db, sizeof b) || alloc(&dy, sizeof y) || htod(dx, x, sizeof x) ||
        htod(db, b, sizeof b))
        return 1;
    bias_gelu_kernel_B1024_args a = {.x_ptr = dx, .b_ptr = db, .y_ptr = dy, .n_cols = N};
    int err = bias_gelu_kernel_B1024_launch(NULL, M, 1, 1, &a);
    if (err || dtoh(y, dy, sizeof y)) {
        fprintf(stderr, "launch: %s\n", bias_gelu_kernel_B1024_error());
        return 1;
    }
    double worst = 0;
    for (int i = 0; i < M * N; i++) {
        double h = (double)(x[i] + b[i % N]);
        worst = fmax(worst, fabs(y[i] - 0.5 * h * (1 + erf(h / sqrt(2.0)))));
    }
    printf("GPU (%s): max error %.3g: %s\n", bias_gelu_kernel_B1024_archs, worst, worst < 1e-6 ? "PASS" : "FAIL");
    return worst < 1e-6 ? 0 : 1;
}
