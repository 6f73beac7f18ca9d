/* registry.c - the table of kernels: the library (kernels/kernels.def), then
 * the conformance kernels (tests/conformance/conformance.def). */
#include "kernels.h"

#include <string.h>

#define KERNEL(name, py)                                                                      \
    extern const tl_kernel_def name;                                                          \
    extern const tl_config name##__configs[];                                                 \
    extern const int name##__nconfigs;
#include "kernels.def"
#include "../tests/conformance/conformance.def"
#undef KERNEL

static ct_kernel_entry table[] = {
#define KERNEL(name, py) {&name, name##__configs, 0, py, false},
#include "kernels.def"
#undef KERNEL
#define KERNEL(name, py) {&name, name##__configs, 0, py, true},
#include "../tests/conformance/conformance.def"
#undef KERNEL
};

static const int *const counts[] = {
#define KERNEL(name, py) &name##__nconfigs,
#include "kernels.def"
#include "../tests/conformance/conformance.def"
#undef KERNEL
};

const ct_kernel_entry *ct_kernels_all(int *n)
{
    int k = (int)(sizeof table / sizeof table[0]);
    for (int i = 0; i < k; i++)
        table[i].nconfigs = *counts[i];
    if (n)
        *n = k;
    return table;
}

const ct_kernel_entry *ct_kernels(int *n)
{
    int k;
    const ct_kernel_entry *t = ct_kernels_all(&k);
    int lib = 0;
    while (lib < k && !t[lib].conformance)
        lib++;
    if (n)
        *n = lib;
    return t;
}

const ct_kernel_entry *ct_kernel_find(const char *name)
{
    int n;
    const ct_kernel_entry *t = ct_kernels_all(&n);
    for (int i = 0; i < n; i++)
        if (!strcmp(t[i].def->name, name))
            return &t[i];
    return NULL;
}

const tl_config *ct_kernel_config(const ct_kernel_entry *k, const char *name)
{
    if (!k || k->nconfigs == 0)
        return NULL;
    if (!name)
        return &k->configs[0];
    for (int i = 0; i < k->nconfigs; i++)
        if (!strcmp(k->configs[i].name, name))
            return &k->configs[i];
    return NULL;
}
