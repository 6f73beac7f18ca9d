/*
 * aot.c - ahead-of-time kernels: a .h/.c pair a C program compiles with no
 * Python, no Triton and no ctriton at run time.
 *
 * The header declares a struct of the kernel's runtime arguments (named
 * fields in parameter order: no positional mix-ups; fp32 scalars are
 * `float`, not the `double` Triton's compile.py declares) and a launcher
 * returning an error code (never exit()).  The source embeds one cubin per
 * requested architecture, each lowered through the cache like any other
 * kernel, with its launch metadata; loads libcuda.so.1 at run time; keeps one
 * module per CUDA context (found lock-free; loaded under a mutex on first
 * use); picks the cubin by the device's compute capability; checks the grid
 * limits and the 16-divisibility the signature promised; allocates the
 * global/profile scratch Triton asks for; and launches with clusters when
 * num_ctas > 1.  These are the gaps of Triton's own AOT tool (compile.py,
 * link.py): double for fp32, no scratch, exit() on errors, one context.
 */
#include "compile_internal.h"

#include "ctriton/check.h"
#include "ctriton/text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 64

typedef struct aot_param {
    const char *name;
    bool const_one;       /* specialized to 1 or None: not an argument */
    bool none;            /* specialized to None */
    bool ptr;
    tl_scalar sc;         /* scalar type, or the pointee's, or a descriptor's element */
    bool div16;
    bool desc;            /* a tensor descriptor (tensordesc<...>) */
    int rank, block[5];   /* desc */
} aot_param;

/* The parameters as tl_build reads the signature (tl_parse_signature), plus
 * what a C launcher can pass: pointers, and scalars of the C-representable types. */
static ct_status parse_sig(const tl_kernel_def *def, const char *sig, aot_param *ps)
{
    tl_sig_param sp[MAX_PARAMS];
    ct_diags d;
    ct_diags_init(&d);
    bool ok = tl_parse_signature(def, sig, sp, &d);
    ct_status s = ok ? CT_OK
                     : ct_fail(CT_ERR_INVALID, "signature of %s: %s", def->name,
                               ct_diags_first_error(&d));
    ct_diags_free(&d);
    if (!ok)
        return s;
    for (int i = 0; i < def->nparams; i++) {
        aot_param *a = &ps[i];
        *a = (aot_param){.name = def->params[i], .sc = TL_VOID,
                         .const_one = sp[i].is_const_one || sp[i].is_none, .none = sp[i].is_none,
                         .div16 = sp[i].divisibility == 16};
        if (a->const_one)
            continue;
        if (sp[i].type->kind == TL_TY_DESC) {
            const tl_type *blk = sp[i].type->elem;
            a->desc = true;
            a->sc = blk->elem->sc;
            a->rank = blk->rank;
            for (int j = 0; j < blk->rank; j++)
                a->block[j] = (int)blk->shape[j];
            continue;
        }
        a->ptr = sp[i].type->kind == TL_TY_PTR;
        a->sc = a->ptr ? sp[i].type->elem->sc : sp[i].type->sc;
        if (!a->ptr && (a->sc < TL_INT1 || a->sc > TL_FP64 ||
                        (a->sc >= TL_FP8E4B15 && a->sc <= TL_FP8E5B16)))
            return ct_fail(CT_ERR_INVALID, "signature: `%s` cannot be a scalar argument (%s)",
                           a->name, ct__triton_name(a->sc));
    }
    return CT_OK;
}

/* The C type of a struct field. */
static const char *c_type(const aot_param *a)
{
    if (a->desc)
        return "ct_aot_tensordesc";
    if (a->ptr)
        return "uint64_t";
    switch (a->sc) {
    case TL_INT1: return "bool";
    case TL_INT8: return "int8_t";
    case TL_INT16: return "int16_t";
    case TL_INT32: return "int32_t";
    case TL_INT64: return "int64_t";
    case TL_UINT8: return "uint8_t";
    case TL_UINT16: return "uint16_t";
    case TL_UINT32: return "uint32_t";
    case TL_UINT64: return "uint64_t";
    case TL_FP16: case TL_BF16: case TL_FP32: return "float";
    case TL_FP64: return "double";
    default: return "?";
    }
}

static bool valid_ident(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

static void put_bytes(ct_strbuf *b, const unsigned char *d, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        if (i % 20 == 0)
            ct_sb_puts(b, i ? "\n    " : "    ");
        char t[6] = {'0', 'x', hx[d[i] >> 4], hx[d[i] & 15], ',', 0};
        ct_sb_puts(b, t);
    }
    ct_sb_putc(b, '\n');
}

/* The runtime part of every generated source, with P as the prefix. */
static const char *const runtime_src =
    "/* ---- the CUDA driver, loaded at run time (no link-time dependency) ---- */\n"
    "typedef int P_CUresult;\n"
    "typedef struct CUctx_st *P_CUcontext;\n"
    "typedef struct CUmod_st *P_CUmodule;\n"
    "typedef struct CUfunc_st *P_CUfunction;\n"
    "typedef struct CUstream_st *P_CUstream;\n"
    "typedef struct {\n"
    "    int id;\n"
    "    char pad[4];\n"
    "    union { char pad[64]; struct { unsigned x, y, z; } cluster; int policy; } value;\n"
    "} P_CUlaunchAttribute;\n"
    "typedef struct {\n"
    "    unsigned gx, gy, gz, bx, by, bz, shared;\n"
    "    P_CUstream stream;\n"
    "    P_CUlaunchAttribute *attrs;\n"
    "    unsigned nattrs;\n"
    "} P_CUlaunchConfig;\n"
    "\n"
    "static struct {\n"
    "    P_CUresult (*Init)(unsigned);\n"
    "    P_CUresult (*GetErrorName)(P_CUresult, const char **);\n"
    "    P_CUresult (*DeviceGet)(int *, int);\n"
    "    P_CUresult (*DeviceGetAttribute)(int *, int, int);\n"
    "    P_CUresult (*DevicePrimaryCtxRetain)(P_CUcontext *, int);\n"
    "    P_CUresult (*CtxGetCurrent)(P_CUcontext *);\n"
    "    P_CUresult (*CtxSetCurrent)(P_CUcontext);\n"
    "    P_CUresult (*CtxGetDevice)(int *);\n"
    "    P_CUresult (*ModuleLoadData)(P_CUmodule *, const void *);\n"
    "    P_CUresult (*ModuleUnload)(P_CUmodule);\n"
    "    P_CUresult (*ModuleGetFunction)(P_CUfunction *, P_CUmodule, const char *);\n"
    "    P_CUresult (*FuncGetAttribute)(int *, int, P_CUfunction);\n"
    "    P_CUresult (*FuncSetAttribute)(P_CUfunction, int, int);\n"
    "    P_CUresult (*FuncSetCacheConfig)(P_CUfunction, int);\n"
    "    P_CUresult (*LaunchKernel)(P_CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,\n"
    "                               unsigned, unsigned, P_CUstream, void **, void **);\n"
    "    P_CUresult (*LaunchKernelEx)(const P_CUlaunchConfig *, P_CUfunction, void **, void **);\n"
    "    P_CUresult (*MemAllocAsync)(uint64_t *, size_t, P_CUstream);\n"
    "    P_CUresult (*MemFreeAsync)(uint64_t, P_CUstream);\n"
    "    P_CUresult (*TensorMapEncodeTiled)(void *, int, unsigned, void *, const uint64_t *,\n"
    "                                       const uint64_t *, const unsigned *, const unsigned *,\n"
    "                                       int, int, int, int);\n"
    "} P_cu;\n"
    "static int P_cu_state; /* 1: loaded, -1: no driver */\n"
    "static char P_cu_why[512];\n"
    "static pthread_once_t P_cu_once = PTHREAD_ONCE_INIT;\n"
    "\n"
    "static _Thread_local char P_msg[1024];\n"
    "static _Thread_local int P_res;\n"
    "\n"
    "static int P_fail(int code, int res, const char *fmt, ...)\n"
    "{\n"
    "    va_list ap;\n"
    "    va_start(ap, fmt);\n"
    "    vsnprintf(P_msg, sizeof P_msg, fmt, ap);\n"
    "    va_end(ap);\n"
    "    P_res = res;\n"
    "    return code;\n"
    "}\n"
    "\n"
    "static int P_check(P_CUresult r, const char *what)\n"
    "{\n"
    "    const char *name = NULL;\n"
    "    if (r == 0)\n"
    "        return CT_AOT_OK;\n"
    "    if (P_cu.GetErrorName)\n"
    "        P_cu.GetErrorName(r, &name);\n"
    "    return P_fail(CT_AOT_ERR_CUDA, r, \"KNAME: %s failed: %s (%d)\", what,\n"
    "                  name ? name : \"CUDA_ERROR\", r);\n"
    "}\n"
    "\n"
    "#define P_SYM(field, name)                                                               \\\n"
    "    do {                                                                                 \\\n"
    "        *(void **)&P_cu.field = dlsym(h, name);                                          \\\n"
    "        if (!P_cu.field && !missing)                                                     \\\n"
    "            missing = name;                                                              \\\n"
    "    } while (0)\n"
    "\n"
    "static void P_load_driver(void)\n"
    "{\n"
    "    const char *missing = NULL;\n"
    "    void *h = dlopen(\"libcuda.so.1\", RTLD_NOW | RTLD_LOCAL);\n"
    "    if (!h) {\n"
    "        const char *e = dlerror();\n"
    "        snprintf(P_cu_why, sizeof P_cu_why, \"no CUDA driver: cannot load libcuda.so.1 (%s)\",\n"
    "                 e ? e : \"not found\");\n"
    "        P_cu_state = -1;\n"
    "        return;\n"
    "    }\n"
    "    P_SYM(Init, \"cuInit\");\n"
    "    P_SYM(GetErrorName, \"cuGetErrorName\");\n"
    "    P_SYM(DeviceGet, \"cuDeviceGet\");\n"
    "    P_SYM(DeviceGetAttribute, \"cuDeviceGetAttribute\");\n"
    "    P_SYM(DevicePrimaryCtxRetain, \"cuDevicePrimaryCtxRetain\");\n"
    "    P_SYM(CtxGetCurrent, \"cuCtxGetCurrent\");\n"
    "    P_SYM(CtxSetCurrent, \"cuCtxSetCurrent\");\n"
    "    P_SYM(CtxGetDevice, \"cuCtxGetDevice\");\n"
    "    P_SYM(ModuleLoadData, \"cuModuleLoadData\");\n"
    "    P_SYM(ModuleUnload, \"cuModuleUnload\");\n"
    "    P_SYM(ModuleGetFunction, \"cuModuleGetFunction\");\n"
    "    P_SYM(FuncGetAttribute, \"cuFuncGetAttribute\");\n"
    "    P_SYM(FuncSetAttribute, \"cuFuncSetAttribute\");\n"
    "    P_SYM(FuncSetCacheConfig, \"cuFuncSetCacheConfig\");\n"
    "    P_SYM(LaunchKernel, \"cuLaunchKernel\");\n"
    "    if (missing) {\n"
    "        snprintf(P_cu_why, sizeof P_cu_why, \"the CUDA driver lacks %s\", missing);\n"
    "        P_cu_state = -1;\n"
    "        return;\n"
    "    }\n"
    "    /* newer drivers only; needed for clusters and scratch */\n"
    "    *(void **)&P_cu.LaunchKernelEx = dlsym(h, \"cuLaunchKernelEx\");\n"
    "    *(void **)&P_cu.MemAllocAsync = dlsym(h, \"cuMemAllocAsync\");\n"
    "    *(void **)&P_cu.MemFreeAsync = dlsym(h, \"cuMemFreeAsync\");\n"
    "    *(void **)&P_cu.TensorMapEncodeTiled = dlsym(h, \"cuTensorMapEncodeTiled\");\n"
    "    P_CUresult r = P_cu.Init(0);\n"
    "    if (r != 0) {\n"
    "        const char *name = NULL;\n"
    "        P_cu.GetErrorName(r, &name);\n"
    "        snprintf(P_cu_why, sizeof P_cu_why, \"cuInit failed: %s (%d)\", name ? name : \"?\", r);\n"
    "        P_cu_state = -1;\n"
    "        return;\n"
    "    }\n"
    "    P_cu_state = 1;\n"
    "}\n"
    "\n"
    "/* ---- one module per CUDA context ---- */\n"
    "typedef struct {\n"
    "    P_CUcontext ctx;\n"
    "    P_CUmodule mod;\n"
    "    P_CUfunction fn;\n"
    "    const P_variant *v;\n"
    "} P_loaded;\n"
    "\n"
    "#define P_MAX_CONTEXTS 64\n"
    "static P_loaded P_mods[P_MAX_CONTEXTS];\n"
    "static atomic_int P_nmods;\n"
    "static pthread_mutex_t P_mu = PTHREAD_MUTEX_INITIALIZER;\n"
    "\n"
    "static const P_variant *P_pick(int cc)\n"
    "{\n"
    "    const P_variant *best = NULL;\n"
    "    for (int i = 0; i < P_NVARIANTS; i++) {\n"
    "        const P_variant *v = &P_variants[i];\n"
    "        if (v->arch == cc)\n"
    "            return v;\n"
    "        /* sm_90a, sm_100a: that architecture only; older: later minors of the major */\n"
    "        if (v->arch < 90 && v->arch / 10 == cc / 10 && v->arch < cc && (!best || v->arch > best->arch))\n"
    "            best = v;\n"
    "    }\n"
    "    return best;\n"
    "}\n"
    "\n"
    "static int P_get(const P_loaded **out)\n"
    "{\n"
    "    pthread_once(&P_cu_once, P_load_driver);\n"
    "    if (P_cu_state != 1)\n"
    "        return P_fail(CT_AOT_ERR_NO_DRIVER, 0, \"KNAME: %s\", P_cu_why);\n"
    "    P_CUcontext ctx = NULL;\n"
    "    int err = P_check(P_cu.CtxGetCurrent(&ctx), \"cuCtxGetCurrent\");\n"
    "    if (err)\n"
    "        return err;\n"
    "    if (!ctx) {\n"
    "        /* no current context: device 0's primary context, as the runtime API would */\n"
    "        int dev;\n"
    "        if ((err = P_check(P_cu.DeviceGet(&dev, 0), \"cuDeviceGet\")) ||\n"
    "            (err = P_check(P_cu.DevicePrimaryCtxRetain(&ctx, dev), \"cuDevicePrimaryCtxRetain\")) ||\n"
    "            (err = P_check(P_cu.CtxSetCurrent(ctx), \"cuCtxSetCurrent\")))\n"
    "            return err;\n"
    "    }\n"
    "    int n = atomic_load_explicit(&P_nmods, memory_order_acquire);\n"
    "    for (int i = 0; i < n; i++)\n"
    "        if (P_mods[i].ctx == ctx) {\n"
    "            *out = &P_mods[i];\n"
    "            return CT_AOT_OK;\n"
    "        }\n"
    "    pthread_mutex_lock(&P_mu);\n"
    "    n = atomic_load_explicit(&P_nmods, memory_order_relaxed);\n"
    "    for (int i = 0; i < n; i++)\n"
    "        if (P_mods[i].ctx == ctx) {\n"
    "            *out = &P_mods[i];\n"
    "            pthread_mutex_unlock(&P_mu);\n"
    "            return CT_AOT_OK;\n"
    "        }\n"
    "    P_loaded l = {ctx, NULL, NULL, NULL};\n"
    "    int dev = 0, major = 0, minor = 0, optin = 0;\n"
    "    if ((err = P_check(P_cu.CtxGetDevice(&dev), \"cuCtxGetDevice\")) ||\n"
    "        (err = P_check(P_cu.DeviceGetAttribute(&major, 75, dev), \"cuDeviceGetAttribute\")) ||\n"
    "        (err = P_check(P_cu.DeviceGetAttribute(&minor, 76, dev), \"cuDeviceGetAttribute\")) ||\n"
    "        (err = P_check(P_cu.DeviceGetAttribute(&optin, 97, dev), \"cuDeviceGetAttribute\")))\n"
    "        goto out;\n"
    "    l.v = P_pick(major * 10 + minor);\n"
    "    if (!l.v) {\n"
    "        err = P_fail(CT_AOT_ERR_NO_BINARY, 0,\n"
    "                     \"KNAME: no cubin for device %d (sm_%d%d); this launcher has %s\", dev,\n"
    "                     major, minor, P_ARCHS);\n"
    "        goto out;\n"
    "    }\n"
    "    if (l.v->shared > optin) {\n"
    "        err = P_fail(CT_AOT_ERR_SHARED, 0,\n"
    "                     \"KNAME: needs %d bytes of shared memory, device %d allows %d\", l.v->shared,\n"
    "                     dev, optin);\n"
    "        goto out;\n"
    "    }\n"
    "    if (n == P_MAX_CONTEXTS) {\n"
    "        err = P_fail(CT_AOT_ERR_NOMEM, 0, \"KNAME: loaded in %d contexts already\", n);\n"
    "        goto out;\n"
    "    }\n"
    "    if ((err = P_check(P_cu.ModuleLoadData(&l.mod, l.v->cubin), \"cuModuleLoadData\")))\n"
    "        goto out;\n"
    "    if ((err = P_check(P_cu.ModuleGetFunction(&l.fn, l.mod, l.v->name), \"cuModuleGetFunction\")))\n"
    "        goto unload;\n"
    "    if (l.v->shared > 49152) {\n"
    "        int shared_static = 0;\n"
    "        if ((err = P_check(P_cu.FuncSetCacheConfig(l.fn, 1), \"cuFuncSetCacheConfig\")) ||\n"
    "            (err = P_check(P_cu.FuncGetAttribute(&shared_static, 1, l.fn), \"cuFuncGetAttribute\")) ||\n"
    "            (err = P_check(P_cu.FuncSetAttribute(l.fn, 8, optin - shared_static),\n"
    "                           \"cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)\")))\n"
    "            goto unload;\n"
    "    }\n"
    "    if (l.v->num_ctas == 16 &&\n"
    "        (err = P_check(P_cu.FuncSetAttribute(l.fn, 14, 1), \"cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)\")))\n"
    "        goto unload;\n"
    "    P_mods[n] = l;\n"
    "    atomic_store_explicit(&P_nmods, n + 1, memory_order_release);\n"
    "    *out = &P_mods[n];\n"
    "    goto out;\n"
    "unload:\n"
    "    P_cu.ModuleUnload(l.mod);\n"
    "out:\n"
    "    pthread_mutex_unlock(&P_mu);\n"
    "    return err;\n"
    "}\n"
    "\n"
    "int P_load(void)\n"
    "{\n"
    "    const P_loaded *l;\n"
    "    return P_get(&l);\n"
    "}\n"
    "\n"
    "void P_unload(void)\n"
    "{\n"
    "    pthread_mutex_lock(&P_mu);\n"
    "    int n = atomic_load_explicit(&P_nmods, memory_order_relaxed);\n"
    "    P_CUcontext cur = NULL;\n"
    "    if (n)\n"
    "        P_cu.CtxGetCurrent(&cur);\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        /* each module from its own context */\n"
    "        P_cu.CtxSetCurrent(P_mods[i].ctx);\n"
    "        P_cu.ModuleUnload(P_mods[i].mod);\n"
    "    }\n"
    "    if (n)\n"
    "        P_cu.CtxSetCurrent(cur);\n"
    "    atomic_store_explicit(&P_nmods, 0, memory_order_release);\n"
    "    pthread_mutex_unlock(&P_mu);\n"
    "}\n"
    "\n"
    "const char *P_error(void) { return P_msg; }\n"
    "\n"
    "int P_cuda_result(void) { return P_res; }\n"
    "\n"
    "static int P_scratch(uint64_t *p, long long per_program, unsigned long long programs,\n"
    "                     P_CUstream stream)\n"
    "{\n"
    "    *p = 0;\n"
    "    if (per_program <= 0)\n"
    "        return CT_AOT_OK;\n"
    "    if (!P_cu.MemAllocAsync)\n"
    "        return P_fail(CT_AOT_ERR_CUDA, 0, \"KNAME: scratch memory needs cuMemAllocAsync (CUDA 11.2+)\");\n"
    "    return P_check(P_cu.MemAllocAsync(p, (size_t)(per_program * (long long)programs), stream),\n"
    "                   \"cuMemAllocAsync (scratch)\");\n"
    "}\n"
    "\n"
    "static int P_launch_packed(P_CUstream stream, unsigned gx, unsigned gy, unsigned gz, void **params,\n"
    "                           int nparams)\n"
    "{\n"
    "    const P_loaded *l;\n"
    "    int err;\n"
    "    if (gx > 0x7fffffffu / (unsigned)P_NUM_CTAS)\n"
    "        return P_fail(CT_AOT_ERR_GRID, 0, \"KNAME: grid x = %u exceeds 2^31 - 1%s\", gx,\n"
    "                      P_NUM_CTAS > 1 ? \" / num_ctas\" : \"\");\n"
    "    if (gy > 65535 || gz > 65535)\n"
    "        return P_fail(CT_AOT_ERR_GRID, 0, \"KNAME: grid y = %u, z = %u: each must be at most 65535\",\n"
    "                      gy, gz);\n"
    "    if (gx == 0 || gy == 0 || gz == 0)\n"
    "        return CT_AOT_OK; /* nothing to run, as in Triton */\n"
    "    if ((err = P_get(&l)))\n"
    "        return err;\n"
    "    const P_variant *v = l->v;\n"
    "    unsigned long long programs = (unsigned long long)gx * gy * gz * (unsigned)v->num_ctas;\n"
    "    uint64_t gs = 0, ps = 0;\n"
    "    if ((err = P_scratch(&gs, v->global_scratch, programs, stream)))\n"
    "        return err;\n"
    "    if ((err = P_scratch(&ps, v->profile_scratch, programs, stream)))\n"
    "        goto free_gs;\n"
    "    params[nparams] = &gs;\n"
    "    params[nparams + 1] = &ps;\n"
    "    if (v->num_ctas == 1 && !v->cooperative && !v->pdl) {\n"
    "        err = P_check(P_cu.LaunchKernel(l->fn, gx, gy, gz, 32u * (unsigned)v->num_warps, 1, 1,\n"
    "                                        (unsigned)v->shared, stream, params, NULL),\n"
    "                      \"cuLaunchKernel\");\n"
    "    } else if (!P_cu.LaunchKernelEx) {\n"
    "        err = P_fail(CT_AOT_ERR_CUDA, 0, \"KNAME: needs cuLaunchKernelEx (CUDA 12+)\");\n"
    "    } else {\n"
    "        P_CUlaunchAttribute attrs[4];\n"
    "        unsigned na = 0;\n"
    "        memset(attrs, 0, sizeof attrs);\n"
    "        if (v->pdl) {\n"
    "            attrs[na].id = 6; /* PROGRAMMATIC_STREAM_SERIALIZATION */\n"
    "            attrs[na++].value.policy = 1;\n"
    "        }\n"
    "        if (v->cooperative) {\n"
    "            attrs[na].id = 2; /* COOPERATIVE */\n"
    "            attrs[na++].value.policy = 1;\n"
    "        }\n"
    "        if (v->num_ctas > 1) {\n"
    "            attrs[na].id = 4; /* CLUSTER_DIMENSION */\n"
    "            attrs[na].value.cluster.x = (unsigned)v->num_ctas;\n"
    "            attrs[na].value.cluster.y = 1;\n"
    "            attrs[na++].value.cluster.z = 1;\n"
    "            attrs[na].id = 5; /* CLUSTER_SCHEDULING_POLICY_PREFERENCE: spread */\n"
    "            attrs[na++].value.policy = 1;\n"
    "        }\n"
    "        P_CUlaunchConfig cfg = {gx * (unsigned)v->num_ctas, gy, gz, 32u * (unsigned)v->num_warps, 1, 1,\n"
    "                                (unsigned)v->shared, stream, attrs, na};\n"
    "        err = P_check(P_cu.LaunchKernelEx(&cfg, l->fn, params, NULL), \"cuLaunchKernelEx\");\n"
    "    }\n"
    "    if (ps)\n"
    "        P_cu.MemFreeAsync(ps, stream);\n"
    "free_gs:\n"
    "    if (gs)\n"
    "        P_cu.MemFreeAsync(gs, stream);\n"
    "    return err;\n"
    "}\n";

/* Tensor descriptor arguments: the CUtensorMap as Python's launcher encodes it (see tma.c). */
static const char *const desc_src =
    "/* ---- tensor descriptor arguments: CUtensorMap encoding (cuTensorMapEncodeTiled) ---- */\n"
    "static int P_encode(const ct_aot_tensordesc *d, const P_descmeta *m, int rank, void *map,\n"
    "                    const char *name)\n"
    "{\n"
    "    uint64_t dims[5], strides[5];\n"
    "    unsigned box[5], es[5] = {1, 1, 1, 1, 1};\n"
    "    if (!P_cu.TensorMapEncodeTiled)\n"
    "        return P_fail(CT_AOT_ERR_CUDA, 0, \"KNAME: `%s` needs cuTensorMapEncodeTiled (CUDA 12+)\", name);\n"
    "    if (d->strides[rank - 1] != 1 || d->base % 16)\n"
    "        return P_fail(CT_AOT_ERR_ALIGN, 0, \"KNAME: `%s` needs a 16-byte aligned base and a last \"\n"
    "                      \"stride of 1\", name);\n"
    "    for (int j = 0; j < rank; j++) {\n"
    "        int64_t v = d->shape[j];\n"
    "        if (j == rank - 1 && m->fp4_padded)\n"
    "            v *= 2;\n"
    "        dims[rank - 1 - j] = (uint64_t)v;\n"
    "        box[rank - 1 - j] = (unsigned)m->block[j];\n"
    "    }\n"
    "    for (int j = 0; j + 1 < rank; j++)\n"
    "        strides[rank - 2 - j] = (uint64_t)(m->elem_size * d->strides[j]);\n"
    "    strides[rank - 1] = dims[rank - 1] * (rank == 1 ? (uint64_t)m->elem_size : strides[rank - 2]);\n"
    "    int t = m->elem_type == 8 ? 10 : m->elem_type == 9 ? 8 : m->elem_type == 10 ? 9 : m->elem_type;\n"
    "    return P_check(P_cu.TensorMapEncodeTiled(map, t, (unsigned)rank, (void *)(uintptr_t)d->base,\n"
    "                                             dims, strides, box, es, 0, m->swizzle, 2,\n"
    "                                             d->padding_nan ? 1 : 0),\n"
    "                   \"cuTensorMapEncodeTiled\");\n"
    "}\n";

/* Replaces every "P_" prefix token and KNAME in the template. */
static void put_template(ct_strbuf *b, const char *tpl, const char *prefix, const char *kname)
{
    for (const char *p = tpl; *p;) {
        bool word_start = p == tpl || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if (word_start && p[0] == 'P' && p[1] == '_') {
            ct_sb_puts(b, prefix);
            ct_sb_putc(b, '_');
            p += 2;
        } else if (word_start && !strncmp(p, "KNAME", 5)) {
            ct_sb_puts(b, kname);
            p += 5;
        } else {
            ct_sb_putc(b, *p++);
        }
    }
}

static const char *const fp16_src =
    "/* float -> fp16 / bf16 bits, round to nearest even (what Triton's launcher packs) */\n"
    "static inline uint16_t P_to_fp16(float f)\n"
    "{\n"
    "    uint32_t x;\n"
    "    memcpy(&x, &f, 4);\n"
    "    uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;\n"
    "    if (e == 0xff)\n"
    "        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));\n"
    "    int exp = (int)e - 127 + 15;\n"
    "    if (exp >= 31)\n"
    "        return (uint16_t)(sign | 0x7c00u);\n"
    "    if (exp <= 0) {\n"
    "        if (exp < -10)\n"
    "            return (uint16_t)sign;\n"
    "        m |= 0x800000u;\n"
    "        int shift = 14 - exp;\n"
    "        uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);\n"
    "        if (rem > half || (rem == half && (h & 1)))\n"
    "            h++;\n"
    "        return (uint16_t)(sign | h);\n"
    "    }\n"
    "    uint32_t h = ((uint32_t)exp << 10) | (m >> 13), rem = m & 0x1fffu;\n"
    "    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))\n"
    "        h++;\n"
    "    return (uint16_t)(sign | h);\n"
    "}\n"
    "\n"
    "static inline uint16_t P_to_bf16(float f)\n"
    "{\n"
    "    uint32_t x;\n"
    "    memcpy(&x, &f, 4);\n"
    "    if ((x & 0x7fffffffu) > 0x7f800000u)\n"
    "        return (uint16_t)((x >> 16) | 0x40u);\n"
    "    x += 0x7fffu + ((x >> 16) & 1u);\n"
    "    return (uint16_t)(x >> 16);\n"
    "}\n\n";

/* What the generator needs of a kernel, from a C kernel or from TTIR. */
typedef struct aot_kernel {
    const char *name, *file;      /* the kernel and where it comes from (the header's comment) */
    const char *signature, *constexprs;
    int nparams;
    aot_param ps[MAX_PARAMS];
    char sigbuf[4096];            /* a TTIR kernel's signature, written out */
} aot_kernel;

/* The kernel of a TTIR module (ct_ttir_kernel_params), as the generator wants it. */
static ct_status ttir_kernel(const ct_aot_request *r, ct_diags *diags, ct_module **mout, aot_kernel *K)
{
    const char *file = r->ttir_file ? r->ttir_file : "<ttir>";
    ct_module *m = ct_parse_module(r->ttir, strlen(r->ttir), file, diags);
    *mout = m;
    if (!m || !ct_verify_module(m, diags)) {
        const char *e = ct_diags_first_error(diags);
        return ct_fail(CT_ERR_INVALID, "%s: %s", file, e ? e : "does not parse");
    }
    ct_ttir_param tp[CT_TTIR_MAX_PARAMS];
    int n = ct_ttir_kernel_params(m, r->func, &K->name, tp);
    if (n < 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", ct_errmsg());
        return ct_fail(CT_ERR_INVALID, "%s: %s", file, why);
    }
    K->file = file;
    K->constexprs = "(in the TTIR)";
    K->nparams = n;
    for (int i = 0; i < n; i++) {
        aot_param *a = &K->ps[i];
        *a = (aot_param){.name = tp[i].name, .ptr = tp[i].ptr, .sc = tp[i].type,
                         .div16 = tp[i].div16, .desc = tp[i].desc, .rank = tp[i].rank};
        memcpy(a->block, tp[i].block, sizeof a->block);
        if (!a->ptr && !a->desc && a->sc >= TL_FP8E4B15 && a->sc <= TL_FP8E5B16)
            return ct_fail(CT_ERR_INVALID, "aot: %s: `%s` cannot be a scalar argument (%s)",
                           K->name, a->name, ct__triton_name(a->sc));
    }
    ct_ttir_signature(tp, n, K->sigbuf, sizeof K->sigbuf);
    K->signature = K->sigbuf;
    return CT_OK;
}

static ct_status emit(const ct_aot_request *r, const aot_kernel *K, const char *prefix,
                      const int *archs, int narch, const ct_artifact *arts, const ct_lower_opts *lo,
                      char **header, char **source);

/* ct_aot_generate, also saying the prefix of the generated symbols and files. */
static ct_status generate(const ct_aot_request *r, char **header, char **source, char *prefix_out,
                          size_t cap, ct_diags *diags)
{
    *header = *source = NULL;
    if (!r->def && !r->ttir)
        return ct_fail(CT_ERR_INVALID, "aot: no kernel (give a definition or TTIR)");
    if (r->def && r->ttir)
        return ct_fail(CT_ERR_INVALID, "aot: a definition or TTIR, not both");
    static const int default_arch[] = {90};
    const int *archs = r->narchs > 0 ? r->archs : default_arch;
    int narch = r->narchs > 0 ? r->narchs : 1;
    if (narch > 16)
        return ct_fail(CT_ERR_INVALID, "aot: at most 16 architectures");
    for (int i = 0; i < narch; i++)
        for (int j = 0; j < i; j++)
            if (archs[i] == archs[j])
                return ct_fail(CT_ERR_INVALID, "aot: sm_%d is listed twice", archs[i]);
    aot_kernel *K = calloc(1, sizeof *K);
    if (!K)
        return ct_fail(CT_ERR_NOMEM, "out of memory");
    ct_module *tm = NULL;
    ct_status s = CT_OK;
    if (r->ttir) {
        s = ttir_kernel(r, diags, &tm, K);
    } else if (r->def->nparams > MAX_PARAMS) {
        s = ct_fail(CT_ERR_INVALID, "aot: too many parameters");
    } else {
        K->name = r->def->name;
        K->file = r->def->file;
        K->signature = r->signature ? r->signature : "";
        K->constexprs = r->constexprs && *r->constexprs ? r->constexprs : "(none)";
        K->nparams = r->def->nparams;
        s = parse_sig(r->def, r->signature, K->ps);
    }
    const char *prefix = r->name && *r->name ? r->name : K->name;
    if (s == CT_OK && !valid_ident(prefix))
        s = ct_fail(CT_ERR_INVALID, "aot: `%s` is not a C identifier", prefix);
    char *ttirs[16] = {0};
    ct_lower_opts lo[16];
    ct_artifact arts[16];
    ct_status sts[16];
    memset(arts, 0, sizeof arts);
    if (s == CT_OK) {
        /* the TTIR per architecture (the language may emit arch-dependent IR), lowered together */
        for (int i = 0; i < narch && s == CT_OK; i++) {
            tl_options o = r->opts;
            if (!o.num_warps)
                tl_options_default(&o);
            o.arch = archs[i];
            ttirs[i] = r->ttir ? strdup(r->ttir)
                               : ct_kernel_ttir(r->def, r->signature, r->constexprs, &o, diags);
            if (!ttirs[i]) {
                const char *first = ct_diags_first_error(diags);
                s = ct_fail(CT_ERR_COMPILE, "%s was refused: %s", K->name, first ? first : "?");
            }
            ct_lower_opts_from_tl(&lo[i], &o);
        }
        if (s == CT_OK)
            s = ct_compile_ttir_many(narch, (const char *const *)ttirs, lo, arts, sts, diags);
    }
    for (int i = 0; i < narch; i++)
        free(ttirs[i]);
    if (s == CT_OK)
        s = emit(r, K, prefix, archs, narch, arts, lo, header, source);
    if (s == CT_OK)
        snprintf(prefix_out, cap, "%s", prefix);
    for (int i = 0; i < narch; i++)
        ct_artifact_free(&arts[i]);
    ct_module_destroy(tm);
    free(K);
    return s;
}

ct_status ct_aot_generate(const ct_aot_request *r, char **header, char **source, ct_diags *diags)
{
    char prefix[256];
    return generate(r, header, source, prefix, sizeof prefix, diags);
}

/* Writes the header and the source of a kernel whose cubins are lowered. */
static ct_status emit(const ct_aot_request *r, const aot_kernel *K, const char *prefix,
                      const int *archs, int narch, const ct_artifact *arts, const ct_lower_opts *lo,
                      char **header, char **source)
{
    const aot_param *ps = K->ps;
    int ndesc = 0;
    for (int i = 0; i < K->nparams; i++)
        ndesc += !ps[i].const_one && ps[i].desc;
    if (ndesc > 8)
        return ct_fail(CT_ERR_INVALID, "aot: at most 8 tensor descriptor arguments");
    char arch_list[256] = "";
    for (int i = 0; i < narch; i++) {
        size_t l = strlen(arch_list);
        snprintf(arch_list + l, sizeof arch_list - l, "%ssm_%d%s", i ? " " : "", archs[i],
                 archs[i] >= 90 ? "a" : "");
    }
    int num_ctas = arts[0].meta.num_ctas;
    char guard[256];
    snprintf(guard, sizeof guard, "%s_H", prefix);
    for (char *g = guard; *g; g++)
        *g = (char)toupper((unsigned char)*g);

    /* ---- header ---- */
    ct_strbuf h;
    ct_sb_init(&h);
    ct_sb_printf(&h, "/*\n * %s.h - %s, ahead of time: generated by ctriton with Triton %s.\n",
                 prefix, K->name, ct_lower_target(&lo[0]));
    if (r->origin)
        ct_sb_printf(&h, " * Made by: %s\n", r->origin);
    ct_sb_printf(&h, " * Do not edit.\n *\n * Kernel:     %s (%s)\n", K->name, K->file);
    ct_sb_printf(&h, " * Signature:  %s\n", K->signature);
    ct_sb_printf(&h, " * Constexprs: %s\n", K->constexprs);
    ct_sb_printf(&h, " * Options:    num_warps=%d num_stages=%d num_ctas=%d\n",
                 arts[0].meta.num_warps, lo[0].num_stages, num_ctas);
    ct_sb_printf(&h, " * Cubins:     %s (the launcher picks one by the device's compute capability)\n",
                 arch_list);
    ct_sb_printf(&h,
                 " *\n"
                 " * Use:\n"
                 " *     %s_args a = {", prefix);
    bool first = true;
    for (int i = 0; i < K->nparams; i++) {
        if (ps[i].const_one)
            continue;
        ct_sb_printf(&h, "%s.%s = ...", first ? "" : ", ", ps[i].name);
        first = false;
    }
    ct_sb_printf(&h,
                 "};\n"
                 " *     int err = %s_launch(stream, grid_x, grid_y, grid_z, &a);\n"
                 " *     if (err) fprintf(stderr, \"%%s\\n\", %s_error());\n"
                 " *\n"
                 " * Needs libc, libdl and pthreads only: libcuda.so.1 is opened at run time.  The\n"
                 " * module is loaded once per CUDA context (the current one; if none is current,\n"
                 " * device 0's primary context is made current).  Call %s_unload() before\n"
                 " * destroying a context the kernel ran in.\n"
                 " */\n",
                 prefix, prefix, prefix);
    ct_sb_printf(&h, "#ifndef %s\n#define %s\n\n#include <stdbool.h>\n#include <stdint.h>\n\n",
                 guard, guard);
    ct_sb_puts(&h, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    ct_sb_puts(&h,
               "#ifndef CTRITON_AOT_STATUS\n"
               "#define CTRITON_AOT_STATUS\n"
               "/* What every ctriton AOT launcher returns. */\n"
               "enum {\n"
               "    CT_AOT_OK = 0,\n"
               "    CT_AOT_ERR_NO_DRIVER = 1, /* libcuda.so.1 missing or unusable */\n"
               "    CT_AOT_ERR_CUDA = 2,      /* a driver call failed (see _cuda_result()) */\n"
               "    CT_AOT_ERR_NO_BINARY = 3, /* no embedded cubin runs on this device */\n"
               "    CT_AOT_ERR_GRID = 4,      /* grid x >= 2^31, or y or z > 65535 */\n"
               "    CT_AOT_ERR_ALIGN = 5,     /* an argument the signature says is a multiple of 16 is not */\n"
               "    CT_AOT_ERR_SHARED = 6,    /* the device has too little shared memory */\n"
               "    CT_AOT_ERR_NOMEM = 7,     /* too many contexts */\n"
               "    CT_AOT_ERR_ARGS = 8       /* no arguments given */\n"
               "};\n"
               "#endif\n\n");
    if (ndesc)
        ct_sb_puts(&h,
                   "#ifndef CTRITON_AOT_TENSORDESC\n"
                   "#define CTRITON_AOT_TENSORDESC\n"
                   "/* A tensor descriptor argument (Python's TensorDescriptor): the tensor; the block is\n"
                   " * fixed by the signature.  Strides in elements, the last 1; base 16-byte aligned. */\n"
                   "typedef struct ct_aot_tensordesc {\n"
                   "    uint64_t base;\n"
                   "    int64_t shape[5];\n"
                   "    int64_t strides[5];\n"
                   "    bool padding_nan;\n"
                   "} ct_aot_tensordesc;\n"
                   "#endif\n\n");
    ct_sb_printf(&h, "/* The runtime arguments of %s, in its parameter order. */\ntypedef struct %s_args {\n",
                 K->name, prefix);
    int nfields = 0;
    for (int i = 0; i < K->nparams; i++) {
        const aot_param *a = &ps[i];
        if (a->const_one) {
            ct_sb_printf(&h, "    /* %s: specialized to %s, not an argument */\n", a->name,
                         a->none ? "None" : "1");
            continue;
        }
        char note[128];
        if (a->desc) {
            int l = snprintf(note, sizeof note, "tensor descriptor of %s, rank %d, block ",
                             ct__triton_name(a->sc), a->rank);
            for (int j = 0; j < a->rank && l < (int)sizeof note; j++)
                l += snprintf(note + l, sizeof note - (size_t)l, "%s%d", j ? " x " : "", a->block[j]);
        } else if (a->ptr)
            snprintf(note, sizeof note, "device pointer to %s%s", ct__triton_name(a->sc),
                     a->div16 ? ", 16-byte aligned" : "");
        else
            snprintf(note, sizeof note, "%s%s", ct__triton_name(a->sc),
                     a->div16 ? ", a multiple of 16" : "");
        ct_sb_printf(&h, "    %s %s; /* %s */\n", c_type(a), a->name, note);
        nfields++;
    }
    if (!nfields)
        ct_sb_puts(&h, "    char unused_; /* the kernel takes no runtime arguments */\n");
    ct_sb_printf(&h, "} %s_args;\n\n", prefix);
    ct_sb_printf(&h,
                 "/* Launches on `stream` (a CUstream; NULL: the default stream) over the grid.\n"
                 " * Returns CT_AOT_OK or an error code; %s_error() says what went wrong. */\n"
                 "int %s_launch(void *stream, unsigned grid_x, unsigned grid_y, unsigned grid_z,\n"
                 "              const %s_args *args);\n",
                 prefix, prefix, prefix);
    ct_sb_printf(&h, "/* Loads the module in the current context now (the first launch would). */\n"
                     "int %s_load(void);\n", prefix);
    ct_sb_printf(&h, "/* Unloads the module from every context it was loaded in. */\nvoid %s_unload(void);\n",
                 prefix);
    ct_sb_printf(&h, "/* The last error on this thread, and its CUresult (0 if not a driver error). */\n"
                     "const char *%s_error(void);\nint %s_cuda_result(void);\n",
                 prefix, prefix);
    ct_sb_printf(&h, "/* The embedded architectures: \"%s\". */\nextern const char %s_archs[];\n\n",
                 arch_list, prefix);
    ct_sb_printf(&h, "#ifdef __cplusplus\n}\n#endif\n#endif\n");

    /* ---- source ---- */
    ct_strbuf c;
    ct_sb_init(&c);
    ct_sb_printf(&c,
                 "/*\n * %s.c - %s, ahead of time: the cubins (%s) and their launcher.\n"
                 " * Generated by ctriton with Triton %s.  Do not edit.\n */\n",
                 prefix, K->name, arch_list, ct_lower_target(&lo[0]));
    ct_sb_printf(&c,
                 "#include \"%s.h\"\n\n#include <dlfcn.h>\n#include <pthread.h>\n#include <stdarg.h>\n"
                 "#include <stdatomic.h>\n#include <stddef.h>\n#include <stdio.h>\n#include <string.h>\n\n",
                 prefix);
    for (int i = 0; i < narch; i++) {
        ct_sb_printf(&c, "/* %s for sm_%d%s: %zu bytes, cache key %s */\n",
                     arts[i].meta.name, archs[i], archs[i] >= 90 ? "a" : "", arts[i].cubin_size,
                     arts[i].key);
        ct_sb_printf(&c, "static const _Alignas(16) unsigned char %s_cubin_sm%d[%zu] = {\n", prefix,
                     archs[i], arts[i].cubin_size);
        put_bytes(&c, arts[i].cubin, arts[i].cubin_size);
        ct_sb_puts(&c, "};\n\n");
    }
    if (ndesc) {
        /* what Triton chose for each descriptor argument, per architecture (tensordesc_meta) */
        ct_sb_printf(&c, "typedef struct {\n    int swizzle, elem_size, elem_type, block[5], fp4_padded;\n"
                         "} %s_descmeta;\n\n", prefix);
        for (int i = 0; i < narch; i++) {
            const ct_launch_meta *m = &arts[i].meta;
            if (!m->ndescs)
                continue;
            ct_sb_printf(&c, "static const %s_descmeta %s_descs_sm%d[] = {\n", prefix, prefix, archs[i]);
            for (int d = 0; d < m->ndescs; d++) {
                const struct ct_desc_meta *dm = &m->descs[d];
                ct_sb_printf(&c, "    {%d, %d, %d, {%d, %d, %d, %d, %d}, %d},\n", dm->swizzle,
                             dm->elem_size, dm->elem_type, dm->block[0], dm->block[1], dm->block[2],
                             dm->block[3], dm->block[4], dm->fp4_padded);
            }
            ct_sb_puts(&c, "};\n");
        }
        ct_sb_putc(&c, '\n');
    }
    ct_sb_printf(&c,
                 "typedef struct {\n"
                 "    int arch;\n"
                 "    const unsigned char *cubin;\n"
                 "    const char *name;\n"
                 "    int num_warps, num_ctas, shared, cooperative, pdl;\n"
                 "    long long global_scratch, profile_scratch; /* bytes per program */\n"
                 "%s"
                 "} %s_variant;\n\n",
                 ndesc ? "    int ndescs; /* TMA descriptors (0: base, shape, strides instead) */\n"
                         "    const void *descs;\n"
                       : "",
                 prefix);
    ct_sb_printf(&c, "static const %s_variant %s_variants[] = {\n", prefix, prefix);
    for (int i = 0; i < narch; i++) {
        const ct_launch_meta *m = &arts[i].meta;
        ct_sb_printf(&c, "    {%d, %s_cubin_sm%d, \"%s\", %d, %d, %d, %d, %d, %lldLL, %lldLL",
                     archs[i], prefix, archs[i], m->name, m->num_warps, m->num_ctas, m->shared,
                     m->launch_cooperative_grid, m->launch_pdl, (long long)m->global_scratch_size,
                     (long long)m->profile_scratch_size);
        if (ndesc && m->ndescs)
            ct_sb_printf(&c, ", %d, %s_descs_sm%d", m->ndescs, prefix, archs[i]);
        else if (ndesc)
            ct_sb_puts(&c, ", 0, NULL");
        ct_sb_puts(&c, "},\n");
    }
    ct_sb_puts(&c, "};\n");
    ct_sb_printf(&c, "#define %s_NVARIANTS %d\n#define %s_NUM_CTAS %d\n#define %s_ARCHS \"%s\"\n",
                 prefix, narch, prefix, num_ctas, prefix, arch_list);
    ct_sb_printf(&c, "const char %s_archs[] = %s_ARCHS;\n\n", prefix, prefix);
    put_template(&c, runtime_src, prefix, K->name);
    bool need_half = false;
    for (int i = 0; i < K->nparams; i++)
        need_half |= !ps[i].const_one && !ps[i].ptr && !ps[i].desc &&
                     (ps[i].sc == TL_FP16 || ps[i].sc == TL_BF16);
    if (need_half) {
        ct_sb_putc(&c, '\n');
        put_template(&c, fp16_src, prefix, K->name);
    }
    if (ndesc) {
        ct_sb_putc(&c, '\n');
        ct_strbuf t;
        ct_sb_init(&t);
        put_template(&t, desc_src, prefix, K->name);
        ct_sb_puts(&c, t.s ? t.s : "");
        ct_sb_free(&t);
    }

    /* the launcher proper */
    ct_sb_printf(&c,
                 "\nint %s_launch(void *stream, unsigned grid_x, unsigned grid_y, unsigned grid_z,\n"
                 "              const %s_args *args)\n{\n",
                 prefix, prefix);
    ct_sb_printf(&c, "    if (!args)\n        return %s_fail(CT_AOT_ERR_ARGS, 0, \"%s: no arguments\");\n",
                 prefix, K->name);
    for (int i = 0; i < K->nparams; i++) {
        const aot_param *a = &ps[i];
        if (a->const_one || !a->div16 || a->desc)
            continue;
        bool is_signed = !a->ptr && (a->sc == TL_INT8 || a->sc == TL_INT16 ||
                                     a->sc == TL_INT32 || a->sc == TL_INT64);
        ct_sb_printf(&c,
                     "    if ((%s)args->%s %% 16 != 0)\n"
                     "        return %s_fail(CT_AOT_ERR_ALIGN, 0,\n"
                     "                       \"%s: `%s` = %s is not a multiple of 16, which this "
                     "launcher was compiled for\",\n"
                     "                       %sargs->%s);\n",
                     is_signed ? "long long" : "unsigned long long", a->name, prefix, K->name,
                     a->name, is_signed ? "%lld" : "%#llx",
                     is_signed ? "(long long)" : "(unsigned long long)", a->name);
    }
    if (ndesc) {
        /* descriptors: the variant decides how they are passed (TMA map or base/shape/strides) */
        ct_sb_printf(&c, "    const %s_loaded *l;\n    int err;\n    if ((err = %s_get(&l)))\n"
                         "        return err;\n    const %s_variant *v = l->v;\n", prefix, prefix, prefix);
        ct_sb_printf(&c, "    _Alignas(64) unsigned char maps[%d][128];\n", ndesc);
        ct_sb_printf(&c, "    uint64_t slots[%d];\n    void *params[%d];\n    int np = 0, ns = 0;\n",
                     K->nparams * 32, K->nparams * 32 + 2);
        int di = 0;
        for (int i = 0; i < K->nparams; i++) {
            const aot_param *a = &ps[i];
            if (a->const_one)
                continue;
            if (a->desc) {
                ct_sb_printf(&c,
                             "    if (v->ndescs) {\n"
                             "        if ((err = %s_encode(&args->%s, &((const %s_descmeta *)v->descs)[%d], %d, maps[%d], \"%s\")))\n"
                             "            return err;\n"
                             "        params[np++] = maps[%d];\n"
                             "    } else {\n"
                             "        params[np++] = (void *)&args->%s.base;\n"
                             "        for (int j = 0; j < %d; j++)\n"
                             "            params[np++] = (void *)&args->%s.shape[j];\n"
                             "        for (int j = 0; j < %d; j++)\n"
                             "            params[np++] = (void *)&args->%s.strides[j];\n"
                             "        slots[ns] = args->%s.padding_nan ? 1 : 0;\n"
                             "        params[np++] = &slots[ns++];\n"
                             "    }\n"
                             "    for (int j = 0; j < %d; j++) {\n"
                             "        int32_t s32 = (int32_t)args->%s.shape[j];\n"
                             "        slots[ns] = 0;\n"
                             "        memcpy(&slots[ns], &s32, 4);\n"
                             "        params[np++] = &slots[ns++];\n"
                             "    }\n"
                             "    for (int j = 0; j < %d; j++)\n"
                             "        params[np++] = (void *)&args->%s.strides[j];\n",
                             prefix, a->name, prefix, di, a->rank, di, a->name, di, a->name, a->rank,
                             a->name, a->rank, a->name, a->name, a->rank, a->name, a->rank, a->name);
                di++;
            } else if (!a->ptr && (a->sc == TL_FP16 || a->sc == TL_BF16)) {
                ct_sb_printf(&c, "    uint16_t %s_bits = %s_to_%s(args->%s);\n    params[np++] = &%s_bits;\n",
                             a->name, prefix, a->sc == TL_FP16 ? "fp16" : "bf16", a->name, a->name);
            } else if (!a->ptr && a->sc == TL_INT1) {
                ct_sb_printf(&c, "    uint8_t %s_byte = args->%s ? 1 : 0;\n    params[np++] = &%s_byte;\n",
                             a->name, a->name, a->name);
            } else {
                ct_sb_printf(&c, "    params[np++] = (void *)&args->%s;\n", a->name);
            }
        }
        ct_sb_printf(&c, "    (void)ns;\n    return %s_launch_packed((%s_CUstream)stream, grid_x, grid_y, grid_z, params, np);\n}\n",
                     prefix, prefix);
        *header = ct_sb_take(&h);
        *source = ct_sb_take(&c);
        return CT_OK;
    }
    int np = 0;
    for (int i = 0; i < K->nparams; i++) {
        const aot_param *a = &ps[i];
        if (a->const_one)
            continue;
        if (!a->ptr && (a->sc == TL_FP16 || a->sc == TL_BF16))
            ct_sb_printf(&c, "    uint16_t %s_bits = %s_to_%s(args->%s);\n", a->name, prefix,
                         a->sc == TL_FP16 ? "fp16" : "bf16", a->name);
        else if (!a->ptr && a->sc == TL_INT1)
            ct_sb_printf(&c, "    uint8_t %s_byte = args->%s ? 1 : 0;\n", a->name, a->name);
        np++;
    }
    ct_sb_printf(&c, "    void *params[%d] = {", np + 2);
    int j = 0;
    for (int i = 0; i < K->nparams; i++) {
        const aot_param *a = &ps[i];
        if (a->const_one)
            continue;
        const char *sep = j++ ? ", " : "";
        if (!a->ptr && (a->sc == TL_FP16 || a->sc == TL_BF16))
            ct_sb_printf(&c, "%s&%s_bits", sep, a->name);
        else if (!a->ptr && a->sc == TL_INT1)
            ct_sb_printf(&c, "%s&%s_byte", sep, a->name);
        else
            ct_sb_printf(&c, "%s(void *)&args->%s", sep, a->name);
    }
    ct_sb_printf(&c, "%sNULL, NULL};\n", j ? ", " : "");
    ct_sb_printf(&c, "    return %s_launch_packed((%s_CUstream)stream, grid_x, grid_y, grid_z, params, %d);\n}\n",
                 prefix, prefix, np);

    *header = ct_sb_take(&h);
    *source = ct_sb_take(&c);
    return CT_OK;
}

ct_status ct_aot_write(const ct_aot_request *r, const char *dir, ct_diags *diags)
{
    return ct_aot_write_ex(r, dir, NULL, 0, diags);
}

ct_status ct_aot_write_ex(const ct_aot_request *r, const char *dir, char *prefix_out, size_t cap,
                          ct_diags *diags)
{
    char *h, *c, prefix[256];
    ct_status s = generate(r, &h, &c, prefix, sizeof prefix, diags);
    if (s != CT_OK)
        return s;
    if (prefix_out && cap)
        snprintf(prefix_out, cap, "%s", prefix);
    if (!ct_mkdirs(dir)) {
        s = ct_fail(CT_ERR_IO, "aot: cannot create %s", dir);
    } else {
        size_t n = strlen(dir) + strlen(prefix) + 8;
        char *ph = malloc(n), *pc = malloc(n);
        if (!ph || !pc) {
            s = ct_fail(CT_ERR_NOMEM, "out of memory");
        } else {
            snprintf(ph, n, "%s/%s.h", dir, prefix);
            snprintf(pc, n, "%s/%s.c", dir, prefix);
            if (!ct_write_file(ph, h, strlen(h)) || !ct_write_file(pc, c, strlen(c)))
                s = ct_fail(CT_ERR_IO, "aot: cannot write %s", ph);
        }
        free(ph);
        free(pc);
    }
    free(h);
    free(c);
    return s;
}
