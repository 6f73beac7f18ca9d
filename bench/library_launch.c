/*
 * library_launch.c - the library's C kernels launched with ct_launch from another
 * language's process (scripts/gpu/library_gpu.py loads it with ctypes): so that a C
 * launch, the Python original's launch and PyTorch run on the same tensors, in the
 * same CUDA context and stream, interleaved.
 *
 *   ll_new("topk_kernel", "fp32_V32000_k8", &k)     the kernel with the config's
 *                                                   constexprs, num_warps, num_stages
 *   ll_launch(k, gx, gy, gz, stream, n, kinds, ints, floats)
 *       kinds[i]: "*fp16" ... a tensor (ints[i] its device address), "None" an absent
 *       optional argument (ct_none), "int" a Python
 *       int (ints[i]), "float" a Python float (floats[i])
 *   ll_signature(...)    the signature string the specialization gives those arguments
 *   ll_errmsg()          the last failure's message
 * Every function returns a ct_status (0: CT_OK).
 */
#include <stdio.h>
#include <string.h>

#include "ctriton/launch.h"
#include "kernels.h"

#define LL_API __attribute__((visibility("default")))

#define LL_MAX_ARGS 64

LL_API int ll_new(const char *kernel, const char *config, void **out);
LL_API int ll_launch(void *k, unsigned gx, unsigned gy, unsigned gz, void *stream, int nargs,
                     const char *const *kinds, const long long *ints, const double *floats);
LL_API int ll_signature(void *k, int nargs, const char *const *kinds, const long long *ints,
                        const double *floats, char *buf, size_t cap);
LL_API const char *ll_errmsg(void);

int ll_new(const char *kernel, const char *config, void **out)
{
    ct_status s = ct_register_library_kernels();
    if (s != CT_OK)
        return s;
    const ct_kernel_entry *e = ct_kernel_find(kernel);
    if (!e)
        return ct_fail(CT_ERR_INVALID, "library_launch: no kernel %s", kernel);
    const tl_config *c = ct_kernel_config(e, config);
    if (!c)
        return ct_fail(CT_ERR_INVALID, "library_launch: %s has no config %s", kernel, config);
    ct_kernel_opts o = {.constexprs = c->constexprs, .num_warps = c->num_warps, .num_stages = c->num_stages};
    return ct_kernel_new(e->def, &o, (ct_kernel **)out);
}

static ct_status make_args(int n, const char *const *kinds, const long long *ints, const double *floats,
                           ct_arg *args)
{
    if (n < 0 || n > LL_MAX_ARGS)
        return ct_fail(CT_ERR_INVALID, "library_launch: %d arguments (at most %d)", n, LL_MAX_ARGS);
    for (int i = 0; i < n; i++) {
        if (kinds[i][0] == '*') {
            tl_dtype d = tl_dtype_from_name(kinds[i] + 1);
            if (!d)
                return ct_fail(CT_ERR_INVALID, "library_launch: argument %d: unknown dtype %s", i, kinds[i]);
            args[i] = ct_ptr((ct_devptr)ints[i], d);
        } else if (!strcmp(kinds[i], "int")) {
            args[i] = ct_int(ints[i]);
        } else if (!strcmp(kinds[i], "float")) {
            args[i] = ct_float(floats[i]);
        } else if (!strcmp(kinds[i], "None")) {
            args[i] = ct_none();
        } else {
            return ct_fail(CT_ERR_INVALID, "library_launch: argument %d: unknown kind %s", i, kinds[i]);
        }
    }
    return CT_OK;
}

int ll_launch(void *k, unsigned gx, unsigned gy, unsigned gz, void *stream, int nargs,
              const char *const *kinds, const long long *ints, const double *floats)
{
    ct_arg args[LL_MAX_ARGS];
    ct_status s = make_args(nargs, kinds, ints, floats, args);
    if (s != CT_OK)
        return s;
    return ct_launch((ct_kernel *)k, (ct_dim3){gx, gy, gz}, (ct_stream)stream, args, nargs);
}

int ll_signature(void *k, int nargs, const char *const *kinds, const long long *ints,
                 const double *floats, char *buf, size_t cap)
{
    ct_arg args[LL_MAX_ARGS];
    uint8_t codes[LL_MAX_ARGS];
    const tl_kernel_def *def = ct_kernel_def((ct_kernel *)k);
    ct_status s = make_args(nargs, kinds, ints, floats, args);
    if (s == CT_OK)
        s = ct_spec_codes(args, nargs, NULL, def->params, codes);
    if (s == CT_OK)
        ct_spec_signature(codes, nargs, def->params, buf, cap);
    return s;
}

const char *ll_errmsg(void) { return ct_errmsg(); }
