/*
 * kernels.h - ctriton's kernel library: each kernel's C port
 * (kernels/NAME.c), its configs, its Python original (kernels/py/NAME.py)
 * and its C reference (kernels/ref/NAME.c), one row each in kernels.def.
 * The kernels are registered with the public registry (ctriton/registry.h),
 * where every command finds them beside a plugin's.
 */
#ifndef CTRITON_KERNELS_H
#define CTRITON_KERNELS_H

#include "ctriton/ref.h"
#include "ctriton/registry.h"

/* Registers the library's kernels, in the order of kernels.def (once; later
 * calls do nothing).  CT_OK, or the first refusal. */
ct_status ct_register_library_kernels(void);

/* The registered kernels in order, into out[0..cap) (without the conformance
 * ones unless `conformance`); returns how many there are. */
static inline int ct_kernels_list(const ct_kernel_entry **out, int cap, bool conformance)
{
    int n = 0;
    for (int i = 0; i < ct_kernel_count(); i++) {
        const ct_kernel_entry *e = ct_kernel_at(i);
        if (e->conformance && !conformance)
            continue;
        if (n < cap)
            out[n] = e;
        n++;
    }
    return n;
}

#endif
