/* registry.c - registers the conformance kernels (conformance.def), and the
 * plugin entry point of libctriton_conformance.so. */
#include "conformance.h"

#define KERNEL(name, py) TL_DECLARE_KERNEL(name);
#include "conformance.def"
#undef KERNEL

ct_status ct_register_conformance_kernels(void)
{
    ct_status s = CT_OK;
#define KERNEL(name, py)                                                                      \
    if (s == CT_OK)                                                                           \
        s = ct_register_kernel(&(ct_kernel_entry){.def = &name, .configs = name##__configs,   \
                                                  .nconfigs = name##__nconfigs, .py_file = py, \
                                                  .conformance = true});
#include "conformance.def"
#undef KERNEL
    return s;
}
