# Cumulative maximum along rows with the index of each maximum (torch.cummax), one block
# of a row per program, plus each block's maximum and its index for the pass that
# carries them from block to block.  Both use a user combine function on (value, index)
# pairs: tl.associative_scan for the running maximum, tl.reduce for the block's.
# The C port is kernels/cummax.c.
import triton
import triton.language as tl


@triton.jit
def max_index_combine(value1, index1, value2, index2):
    # the larger value wins; on a tie the larger index (the last occurrence, as
    # torch.cummax), which makes the result independent of the combining order
    take2 = (value2 > value1) | ((value2 == value1) & (index2 > index1))
    value = tl.where(take2, value2, value1)
    index = tl.where(take2, index2, index1)
    return value, index


@triton.jit
def cummax_kernel(x_ptr, values_ptr, indices_ptr, block_max_ptr, block_idx_ptr, n_cols,
                  BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    block = tl.program_id(1)
    offs = block * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=float("-inf"))  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    # lanes past the row's end lose every tie
    idx = tl.where(mask, offs, -1)
    values, indices = tl.associative_scan((x, idx), 0, max_index_combine)
    tl.store(values_ptr + row * n_cols + offs, values, mask=mask)  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    tl.store(indices_ptr + row * n_cols + offs, indices, mask=mask)  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    block_max, block_idx = tl.reduce((x, idx), 0, max_index_combine)
    num_blocks = tl.num_programs(1)
    tl.store(block_max_ptr + row * num_blocks + block, block_max)
    tl.store(block_idx_ptr + row * num_blocks + block, block_idx)
