# One pass of a least-significant-digit radix sort of 32-bit keys, RADIX_BITS
# bits at `shift`, with decoupled look-back.  radix_histogram_kernel counts every
# digit over all keys (atomics into hist, which starts at zero).  In
# radix_sort_pass_kernel each program takes the next tile from a counter (so an
# earlier tile always belongs to a program already running), counts its digits,
# publishes them at once as an aggregate (flag 1 in bits 29-30 of its status
# words), then walks back over the earlier tiles, digit by digit, adding their
# aggregates until it meets an inclusive prefix (flag 2) or tile 0, waiting on a
# tile that has published nothing yet; it then publishes its own inclusive
# prefix.  A key goes to: the keys of smaller digits (the exclusive scan of hist)
# + the same digit's keys in earlier tiles + its rank among the tile's keys of
# that digit.  The pass is stable.  status (tiles * RADIX words) and the tile
# counter start at zero.  The C port is kernels/radix_sort.c.
import triton
import triton.language as tl


@triton.jit
def radix_histogram_kernel(keys_ptr, hist_ptr, n, shift, RADIX_BITS: tl.constexpr, BLOCK: tl.constexpr):
    RADIX: tl.constexpr = 1 << RADIX_BITS
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    keys = tl.load(keys_ptr + offs, mask=mask, other=0)
    digit = tl.where(mask, (keys >> shift) & (RADIX - 1), RADIX)
    bins = tl.arange(0, RADIX)
    counts = tl.sum((digit[:, None] == bins[None, :]).to(tl.int32), axis=0)
    tl.atomic_add(hist_ptr + bins, counts)


@triton.jit
def radix_sort_pass_kernel(keys_ptr, out_ptr, hist_ptr, status_ptr, tile_counter_ptr, n, shift,
                           RADIX_BITS: tl.constexpr, BLOCK: tl.constexpr):
    RADIX: tl.constexpr = 1 << RADIX_BITS
    tile = tl.atomic_add(tile_counter_ptr, 1)
    offs = tile * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    keys = tl.load(keys_ptr + offs, mask=mask, other=0)
    digit = tl.where(mask, (keys >> shift) & (RADIX - 1), RADIX)
    bins = tl.arange(0, RADIX)
    onehot = (digit[:, None] == bins[None, :]).to(tl.int32)
    counts = tl.sum(onehot, axis=0)
    # each key's rank among the tile's keys of its digit
    rank = tl.sum(tl.cumsum(onehot, axis=0) * onehot, axis=1) - 1
    # publish the aggregate, then look back over the earlier tiles
    tl.atomic_xchg(status_ptr + tile * RADIX + bins, counts | (1 << 29))
    prefix = tl.zeros([RADIX], dtype=tl.int32)
    done = tl.zeros([RADIX], dtype=tl.int32) + (tile == 0).to(tl.int32)
    j = tl.zeros([RADIX], dtype=tl.int32) + tile - 1
    while tl.min(done, axis=0) == 0:
        st = tl.atomic_add(status_ptr + j * RADIX + bins, 0, mask=done == 0)
        flag = tl.where(done == 0, (st >> 29) & 3, 0)
        ready = flag != 0
        prefix += tl.where(ready, st & ((1 << 29) - 1), 0)
        done = tl.where(ready & ((flag == 2) | (j == 0)), 1, done)
        j = tl.where(ready & (done == 0), j - 1, j)
    tl.atomic_xchg(status_ptr + tile * RADIX + bins, (prefix + counts) | (2 << 29))
    # where each key goes
    hist = tl.load(hist_ptr + bins)
    base = tl.cumsum(hist, axis=0) - hist + prefix
    dest = tl.sum(onehot * base[None, :], axis=1) + rank
    tl.store(out_ptr + dest, keys, mask=mask)
