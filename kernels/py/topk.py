# Top-k of each row: the K largest values, largest first, and their column
# indices (the smaller index first among equal values).  Each element becomes
# one int64 key that orders like (value, -index): the value's fp32 bits made
# to order as integers (negative floats have their magnitude bits flipped) in
# the high half, 0x7fffffff - column in the low half.  The row is walked in
# BLOCK_N chunks; each chunk's K best keys are merged with the K best so far
# by one more tl.topk over both.  n_cols must be at least K.
# The C port is kernels/topk.c.
import triton
import triton.language as tl


@triton.jit
def topk_kernel(x_ptr, values_ptr, indices_ptr, row_stride, n_cols, K: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_ptr += row * row_stride
    best = tl.full([K], -2**63, tl.int64)
    for off in range(0, n_cols, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < n_cols
        x = tl.load(x_ptr + cols, mask=mask, other=0.).to(tl.float32)
        bits = x.to(tl.int32, bitcast=True)
        bits = tl.where(bits < 0, bits ^ 0x7fffffff, bits)
        key = (bits.to(tl.int64) << 32) | (0x7fffffff - cols).to(tl.int64)
        key = tl.where(mask, key, -2**63)
        top = tl.topk(key, K)
        best = tl.topk(tl.reshape(tl.join(best, top), [2 * K]), K)
    # back from the keys to the values and the columns
    bits = (best >> 32).to(tl.int32)
    bits = tl.where(bits < 0, bits ^ 0x7fffffff, bits)
    values = bits.to(tl.float32, bitcast=True)
    indices = 0x7fffffff - (best & 0x7fffffff).to(tl.int32)
    out = row * K + tl.arange(0, K)
    tl.store(values_ptr + out, values.to(values_ptr.dtype.element_ty))
    tl.store(indices_ptr + out, indices)
