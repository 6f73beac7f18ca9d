/* registry.c - registers the library's kernels (kernels/kernels.def), each with
 * its reference (kernels/ref/<kernel>.c). */
#include "kernels.h"

#define KERNEL(name, py)                                                                      \
    TL_DECLARE_KERNEL(name);                                                                  \
    extern const ct_kernel_ref name##__ref;
#include "kernels.def"
#undef KERNEL

ct_status ct_register_library_kernels(void)
{
    ct_status s = CT_OK;
#define KERNEL(name, py)                                                                      \
    if (s == CT_OK)                                                                           \
        s = ct_register_kernel(&(ct_kernel_entry){.def = &name, .configs = name##__configs,   \
                                                  .nconfigs = name##__nconfigs, .py_file = py, \
                                                  .ref = &name##__ref});
#include "kernels.def"
#undef KERNEL
    return s;
}
