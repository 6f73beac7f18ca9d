/* y = asin(x) through libdevice.  Python original: kernels/py/asin.py */
#include "kernels.h"

TL_KERNEL(asin_kernel, (x_ptr, y_ptr, n_elements), (int, BLOCK_SIZE))
{
    tl_tensor pid = tl_program_id(0);
    tl_tensor block_start = tl_mul(pid, BLOCK_SIZE);
    tl_tensor offsets = tl_add(block_start, tl_arange(0, BLOCK_SIZE));
    tl_tensor mask = tl_lt(offsets, n_elements);
    tl_tensor x = tl_load(tl_add(x_ptr, offsets), .mask = mask);
    x = tl_libdevice("asin", x);
    tl_store(tl_add(y_ptr, offsets), x, .mask = mask);
}

TL_CONFIGS(asin_kernel,
    {.name = "B1024", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n_elements=i32:16",
     .constexprs = "BLOCK_SIZE=1024", .problem = "N=98304", .num_warps = 4},
    {.name = "B512_tail", .signature = "x_ptr=*fp32:16 y_ptr=*fp32:16 n_elements=i32",
     .constexprs = "BLOCK_SIZE=512", .problem = "N=3001", .num_warps = 4});
