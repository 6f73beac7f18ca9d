/* plugin.c - libctriton_conformance.so: the conformance kernels as a kernel
 * plugin, for `ctriton --kernels build/libctriton_conformance.so ...`
 * (make fidelity, the raw gate, the GPU scripts). */
#include "conformance.h"

CT_KERNEL_PLUGIN
{
    ct_register_conformance_kernels();
}
