/* The plugin's entry point: the kernels `ctriton --kernels libmykernels.so ...` gets.
 * Python originals are given relative to this file's directory. */
#include <ctriton/ref.h>
#include <ctriton/registry.h>

TL_DECLARE_KERNEL(bias_gelu_kernel);
TL_DECLARE_KERNEL(row_sum_kernel);
extern const ct_kernel_ref bias_gelu_kernel__ref, row_sum_kernel__ref;

CT_KERNEL_PLUGIN
{
    CT_REGISTER_KERNEL(bias_gelu_kernel, "../py/bias_gelu.py", &bias_gelu_kernel__ref);
    CT_REGISTER_KERNEL(row_sum_kernel, "../py/row_sum.py", &row_sum_kernel__ref);
}
