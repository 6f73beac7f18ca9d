/* Seeded dropout.  Python original: kernels/py/dropout.py */
#include "kernels.h"

TL_KERNEL(dropout_kernel, (x_ptr, output_ptr, n_elements, p, seed), (int, BLOCK_SIZE))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor block_start = tl_mul(pid, BLOCK_SIZE);
    tl_tensor offsets = tl_add(block_start, tl_arange(0, BLOCK_SIZE));
    tl_tensor mask = tl_lt(offsets, n_elements);
    tl_tensor x = tl_load(tl_add(x_ptr, offsets), .mask = mask);
    // keep an element with probability 1 - p, and rescale it
    tl_tensor random = tl_rand(seed, offsets);
    tl_tensor x_keep = tl_gt(random, p);
    tl_tensor output = tl_where(x_keep, tl_div(x, tl_sub(1, p)), 0.0);
    tl_store(tl_add(output_ptr, offsets), output, .mask = mask);
}

TL_CONFIGS(dropout_kernel,
    {.name = "B1024", .signature = "x_ptr=*fp32:16 output_ptr=*fp32:16 n_elements=i32:16 p=fp32 seed=i32",
     .constexprs = "BLOCK_SIZE=1024", .problem = "N=65536 P=0.25 SEED=123", .num_warps = 4},
    {.name = "B256_tail", .signature = "x_ptr=*fp32:16 output_ptr=*fp32:16 n_elements=i32 p=fp32 seed=i32",
     .constexprs = "BLOCK_SIZE=256", .problem = "N=1001 P=0.5 SEED=7", .num_warps = 4});
