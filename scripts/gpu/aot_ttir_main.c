/*
 * aot_ttir_main.c - runs a launcher `ctriton aot --ttir` wrote for a kernel written in
 * Python (scripts/gpu/check_aot_ttir.py builds it), on inputs from files, and writes
 * the output to a file for a bitwise comparison with the Python kernel's own launch.
 *
 *   cc -DPREFIX=name -DHEADER='"name.h"' -DKIND_BIAS_GELU|-DKIND_SOFTMAX aot_ttir_main.c name.c
 *   ./a.out M N x.bin [b.bin] y.bin
 *
 * No Python, Triton or ctriton here: the launcher opens libcuda.so.1 itself; this
 * program opens it only for memory and copies.  Exit status 0, 1 on any failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include HEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;

static void *read_all(const char *path, size_t bytes)
{
    FILE *f = fopen(path, "rb");
    void *p = malloc(bytes);
    if (!f || !p || fread(p, 1, bytes, f) != bytes) {
        fprintf(stderr, "cannot read %zu bytes from %s\n", bytes, path);
        exit(1);
    }
    fclose(f);
    return p;
}

int main(int argc, char **argv)
{
#ifdef KIND_BIAS_GELU
    if (argc != 6)
        return fprintf(stderr, "usage: %s M N x.bin b.bin y.bin\n", argv[0]), 1;
#else
    if (argc != 5)
        return fprintf(stderr, "usage: %s M N x.bin y.bin\n", argv[0]), 1;
#endif
    int m = atoi(argv[1]), n = atoi(argv[2]);
    void *cu = dlopen("libcuda.so.1", RTLD_NOW);
    if (!cu)
        return fprintf(stderr, "no libcuda.so.1\n"), 1;
    CUresult (*init)(unsigned) = (CUresult(*)(unsigned))dlsym(cu, "cuInit");
    CUresult (*retain)(CUcontext *, int) = (CUresult(*)(CUcontext *, int))dlsym(cu, "cuDevicePrimaryCtxRetain");
    CUresult (*setcur)(CUcontext) = (CUresult(*)(CUcontext))dlsym(cu, "cuCtxSetCurrent");
    CUresult (*alloc)(CUdeviceptr *, size_t) = (CUresult(*)(CUdeviceptr *, size_t))dlsym(cu, "cuMemAlloc_v2");
    CUresult (*htod)(CUdeviceptr, const void *, size_t) =
        (CUresult(*)(CUdeviceptr, const void *, size_t))dlsym(cu, "cuMemcpyHtoD_v2");
    CUresult (*dtoh)(void *, CUdeviceptr, size_t) = (CUresult(*)(void *, CUdeviceptr, size_t))dlsym(cu, "cuMemcpyDtoH_v2");
    CUresult (*sync)(void) = (CUresult(*)(void))dlsym(cu, "cuCtxSynchronize");
    CUcontext ctx;
    if (init(0) || retain(&ctx, 0) || setcur(ctx))
        return fprintf(stderr, "no usable GPU\n"), 1;
    size_t xb = (size_t)m * n * 4;
    float *x = read_all(argv[3], xb), *y = malloc(xb);
    CUdeviceptr dx, dy;
    if (alloc(&dx, xb) || alloc(&dy, xb) || htod(dx, x, xb))
        return fprintf(stderr, "device memory\n"), 1;
    CAT(PREFIX, _args) a = {0};
    a.x_ptr = dx;
    a.y_ptr = dy;
    a.n_cols = n;
#ifdef KIND_BIAS_GELU
    float *b = read_all(argv[4], (size_t)n * 4);
    CUdeviceptr db;
    if (alloc(&db, (size_t)n * 4) || htod(db, b, (size_t)n * 4))
        return fprintf(stderr, "device memory\n"), 1;
    a.b_ptr = db;
    const char *out = argv[5];
#else
    const char *out = argv[4];
#endif
    int err = CAT(PREFIX, _launch)(NULL, (unsigned)m, 1, 1, &a);
    if (err || sync() || dtoh(y, dy, xb))
        return fprintf(stderr, "launch: %d %s\n", err, CAT(PREFIX, _error)()), 1;
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(y, 1, xb, f) != xb || fclose(f))
        return fprintf(stderr, "cannot write %s\n", out), 1;
    printf("%s: %d rows of %d on %s\n", CAT(PREFIX, _archs), m, n, out);
    return 0;
}
