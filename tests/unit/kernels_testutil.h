/* kernels_testutil.h - the tests' view of the registry: ctriton's kernel
 * library and the conformance kernels, registered on first use. */
#ifndef CTRITON_KERNELS_TESTUTIL_H
#define CTRITON_KERNELS_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "conformance.h"
#include "kernels.h"

static inline void tu_register_kernels(void)
{
    if (ct_register_library_kernels() != CT_OK || ct_register_conformance_kernels() != CT_OK) {
        fprintf(stderr, "registering the kernels: %s\n", ct_errmsg());
        exit(1);
    }
}

/* A kernel of the library or of the conformance set, or NULL. */
static inline const ct_kernel_entry *tu_kernel(const char *name)
{
    tu_register_kernels();
    return ct_kernel_find(name);
}

/* The library kernels (and the conformance ones when `conformance`), in order. */
static inline int tu_kernels(const ct_kernel_entry **out, int cap, bool conformance)
{
    tu_register_kernels();
    return ct_kernels_list(out, cap, conformance);
}

#endif
