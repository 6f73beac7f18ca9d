/*
 * kernels.h - the kernel library: each kernel's C port (kernels/NAME.c),
 * its configs, and its Python original (kernels/py/NAME.py).
 */
#ifndef CTRITON_KERNELS_H
#define CTRITON_KERNELS_H

#include "ctriton/tl.h"

typedef struct ct_kernel_entry {
    const tl_kernel_def *def;
    const tl_config *configs;
    int nconfigs;
    const char *py_file; /* the Python original, relative to the source tree */
    bool conformance;    /* a conformance kernel (tests/conformance), not a library one */
} ct_kernel_entry;

/* The kernels of the library, in the order of kernels/kernels.def. */
const ct_kernel_entry *ct_kernels(int *n);
/* The library kernels followed by the conformance kernels. */
const ct_kernel_entry *ct_kernels_all(int *n);
const ct_kernel_entry *ct_kernel_find(const char *name);
/* A config by name; NULL picks the first. */
const tl_config *ct_kernel_config(const ct_kernel_entry *k, const char *name);

/* TL_CONFIGS(kernel, {config}, ...) defines the config table of a kernel. */
#define TL_CONFIGS(kernel, ...)                                                               \
    const tl_config kernel##__configs[] = {__VA_ARGS__};                                      \
    const int kernel##__nconfigs = (int)(sizeof kernel##__configs / sizeof kernel##__configs[0])

#endif
