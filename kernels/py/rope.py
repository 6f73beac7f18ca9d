# Rotary position embedding applied in place to q, one program per token:
# the heads x head_dim tile is split into its two halves, rotated by cos/sin.
# The C port is kernels/rope.c.
import triton
import triton.language as tl


@triton.jit
def rope_kernel(q_ptr, q_row_stride, cos_ptr, cos_row_stride, sin_ptr, sin_row_stride, seq_len,
                n_qh: tl.constexpr, hd: tl.constexpr, pad_n_qh: tl.constexpr, pad_hd: tl.constexpr,
                BACKWARD_PASS: tl.constexpr):
    pid = tl.program_id(0)
    # locate the token's row of q, and its position's row of cos and sin
    q_ptr = q_ptr + pid * q_row_stride  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    cos_row_idx = pid % seq_len
    cos_ptr = cos_ptr + cos_row_idx * cos_row_stride
    sin_ptr = sin_ptr + cos_row_idx * sin_row_stride
    cos_offsets = tl.arange(0, pad_hd // 2)
    cos_mask = cos_offsets < hd // 2
    cos_row = tl.load(cos_ptr + cos_offsets, mask=cos_mask, other=0)
    sin_row = tl.load(sin_ptr + cos_offsets, mask=cos_mask, other=0)
    # the two halves of every head, as [pad_n_qh, pad_hd // 2] tiles
    first_half_q_offsets = tl.arange(0, pad_n_qh)[:, None] * hd + tl.arange(0, pad_hd // 2)[None, :]
    first_q_mask = (tl.arange(0, pad_n_qh)[:, None] < n_qh) & (tl.arange(0, pad_hd // 2)[None, :] < hd // 2)
    q_tile_1 = tl.load(q_ptr + first_half_q_offsets, mask=first_q_mask, other=0).to(sin_row.dtype)
    second_half_q_offsets = first_half_q_offsets + (hd // 2)
    second_q_mask = first_q_mask
    q_tile_2 = tl.load(q_ptr + second_half_q_offsets, mask=second_q_mask, other=0).to(sin_row.dtype)
    if not BACKWARD_PASS:
        # y = [x1, x2] * [cos, cos] + [-x2, x1] * [sin, sin]
        new_q_tile_1 = q_tile_1 * cos_row - q_tile_2 * sin_row
        tl.store(q_ptr + first_half_q_offsets, new_q_tile_1.to(q_ptr.dtype.element_ty), mask=first_q_mask)
        new_q_tile_2 = q_tile_2 * cos_row + q_tile_1 * sin_row
        tl.store(q_ptr + second_half_q_offsets, new_q_tile_2.to(q_ptr.dtype.element_ty), mask=second_q_mask)
    else:
        # the inverse rotation: y = [x1, x2] * [cos, cos] + [x2, -x1] * [sin, sin]
        new_q_tile_1 = q_tile_1 * cos_row + q_tile_2 * sin_row
        tl.store(q_ptr + first_half_q_offsets, new_q_tile_1.to(q_ptr.dtype.element_ty), mask=first_q_mask)
        new_q_tile_2 = q_tile_2 * cos_row - q_tile_1 * sin_row
        tl.store(q_ptr + second_half_q_offsets, new_q_tile_2.to(q_ptr.dtype.element_ty), mask=second_q_mask)
