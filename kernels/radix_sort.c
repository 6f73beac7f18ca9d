/* One pass of an LSD radix sort with decoupled look-back (a spin-wait on the earlier
 * tiles' status words), and the digit histogram it needs.
 * Python original: kernels/py/radix_sort.py */
#include "kernels.h"

TL_KERNEL(radix_histogram_kernel, (keys_ptr, hist_ptr, n, shift), (int, RADIX_BITS), (int, BLOCK))
{
    int RADIX = 1 << RADIX_BITS;
    tl_tensor offs = tl_add(tl_mul(tl_program_id(0), BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor keys = tl_load(tl_add(keys_ptr, offs), .mask = mask, .other = tl_c(0));
    tl_tensor digit = tl_where(mask, tl_and(tl_shr(keys, shift), RADIX - 1), RADIX);
    tl_tensor bins = tl_arange(0, RADIX);
    tl_tensor counts = tl_sum(tl_to(tl_eq(tl_idx(digit, ":, None"), tl_idx(bins, "None, :")), tl_int32), .axis = 0);
    tl_atomic_add(tl_add(hist_ptr, bins), counts);
}

TL_KERNEL(radix_sort_pass_kernel, (keys_ptr, out_ptr, hist_ptr, status_ptr, tile_counter_ptr, n, shift),
          (int, RADIX_BITS), (int, BLOCK))
{
    int RADIX = 1 << RADIX_BITS;
    tl_tensor tile = tl_atomic_add(tile_counter_ptr, 1);
    tl_tensor offs = tl_add(tl_mul(tile, BLOCK), tl_arange(0, BLOCK));
    tl_tensor mask = tl_lt(offs, n);
    tl_tensor keys = tl_load(tl_add(keys_ptr, offs), .mask = mask, .other = tl_c(0));
    tl_tensor digit = tl_where(mask, tl_and(tl_shr(keys, shift), RADIX - 1), RADIX);
    tl_tensor bins = tl_arange(0, RADIX);
    tl_tensor onehot = tl_to(tl_eq(tl_idx(digit, ":, None"), tl_idx(bins, "None, :")), tl_int32);
    tl_tensor counts = tl_sum(onehot, .axis = 0);
    // each key's rank among the tile's keys of its digit
    tl_tensor rank = tl_sub(tl_sum(tl_mul(tl_cumsum(onehot, .axis = 0), onehot), .axis = 1), 1);
    // publish the aggregate, then look back over the earlier tiles
    tl_atomic_xchg(tl_add(tl_add(status_ptr, tl_mul(tile, RADIX)), bins), tl_or(counts, 1 << 29));
    tl_tensor prefix = tl_zeros(tl_shape(RADIX), tl_int32);
    tl_tensor done = tl_add(tl_zeros(tl_shape(RADIX), tl_int32), tl_to(tl_eq(tile, 0), tl_int32));
    tl_tensor j = tl_sub(tl_add(tl_zeros(tl_shape(RADIX), tl_int32), tile), 1);
    TL_WHILE(tl_eq(tl_min(done, .axis = 0), 0), prefix, done, j) {
        tl_tensor st = tl_atomic_add(tl_add(tl_add(status_ptr, tl_mul(j, RADIX)), bins), 0, .mask = tl_eq(done, 0));
        tl_tensor flag = tl_where(tl_eq(done, 0), tl_and(tl_shr(st, 29), 3), 0);
        tl_tensor ready = tl_ne(flag, 0);
        prefix = tl_add(prefix, tl_where(ready, tl_and(st, (1 << 29) - 1), 0));
        done = tl_where(tl_and(ready, tl_or(tl_eq(flag, 2), tl_eq(j, 0))), 1, done);
        j = tl_where(tl_and(ready, tl_eq(done, 0)), tl_sub(j, 1), j);
    }
    tl_atomic_xchg(tl_add(tl_add(status_ptr, tl_mul(tile, RADIX)), bins), tl_or(tl_add(prefix, counts), 2 << 29));
    // where each key goes
    tl_tensor hist = tl_load(tl_add(hist_ptr, bins));
    tl_tensor base = tl_add(tl_sub(tl_cumsum(hist, .axis = 0), hist), prefix);
    tl_tensor dest = tl_add(tl_sum(tl_mul(onehot, tl_idx(base, "None, :")), .axis = 1), rank);
    tl_store(tl_add(out_ptr, dest), keys, .mask = mask);
}

TL_CONFIGS(radix_histogram_kernel,
    {.name = "i32_r4_B1024", .signature = "keys_ptr=*i32:16 hist_ptr=*i32:16 n=i32 shift=i32",
     .constexprs = "RADIX_BITS=4 BLOCK=1024", .problem = "N=5000 SHIFT=4", .num_warps = 4},
    {.name = "i32_r8_B512_n16", .signature = "keys_ptr=*i32:16 hist_ptr=*i32:16 n=i32:16 shift=i32:16",
     .constexprs = "RADIX_BITS=8 BLOCK=512", .problem = "N=4096 SHIFT=16", .num_warps = 4});

TL_CONFIGS(radix_sort_pass_kernel,
    {.name = "i32_r4_B1024", .signature = "keys_ptr=*i32:16 out_ptr=*i32:16 hist_ptr=*i32:16 status_ptr=*i32:16 "
                                          "tile_counter_ptr=*i32:16 n=i32 shift=i32",
     .constexprs = "RADIX_BITS=4 BLOCK=1024", .problem = "N=5000 SHIFT=4", .num_warps = 4},
    {.name = "i32_r8_B512_n16", .signature = "keys_ptr=*i32:16 out_ptr=*i32:16 hist_ptr=*i32:16 status_ptr=*i32:16 "
                                             "tile_counter_ptr=*i32:16 n=i32:16 shift=i32:16",
     .constexprs = "RADIX_BITS=8 BLOCK=512", .problem = "N=4096 SHIFT=16", .num_warps = 4});
