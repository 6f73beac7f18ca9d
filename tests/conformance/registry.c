/* registry.c - registers the conformance kernels (conformance.def; a KERNEL_REF row
 * with its C reference, port_refs.c, for `ctriton run KERNEL --emu`), and the
 * plugin entry point of libctriton_conformance.so. */
#include "conformance.h"
#include "ctriton/ref.h"

#define KERNEL(name, py) TL_DECLARE_KERNEL(name);
#define KERNEL_REF(name, py) TL_DECLARE_KERNEL(name); extern const ct_kernel_ref name##__ref;
#include "conformance.def"
#undef KERNEL
#undef KERNEL_REF

ct_status ct_register_conformance_kernels(void)
{
    ct_status s = CT_OK;
#define KERNEL(name, py)                                                                      \
    if (s == CT_OK)                                                                           \
        s = ct_register_kernel(&(ct_kernel_entry){.def = &name, .configs = name##__configs,   \
                                                  .nconfigs = name##__nconfigs, .py_file = py, \
                                                  .conformance = true});
#define KERNEL_REF(name, py)                                                                  \
    if (s == CT_OK)                                                                           \
        s = ct_register_kernel(&(ct_kernel_entry){.def = &name, .configs = name##__configs,   \
                                                  .nconfigs = name##__nconfigs, .py_file = py, \
                                                  .ref = &name##__ref, .conformance = true});
#include "conformance.def"
#undef KERNEL
#undef KERNEL_REF
    return s;
}
