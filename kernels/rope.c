/* Rotary position embedding, in place.  Python original: kernels/py/rope.py */
#include "kernels.h"

TL_KERNEL(rope_kernel, (q_ptr, q_row_stride, cos_ptr, cos_row_stride, sin_ptr, sin_row_stride, seq_len),
          (int, n_qh), (int, hd), (int, pad_n_qh), (int, pad_hd), (bool, BACKWARD_PASS))
{
    tl_tensor pid = tl_program_id(0);
    // locate the token's row of q, and its position's row of cos and sin
    q_ptr = tl_add(q_ptr, tl_mul(pid, q_row_stride)); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    tl_tensor cos_row_idx = tl_mod(pid, seq_len);
    cos_ptr = tl_add(cos_ptr, tl_mul(cos_row_idx, cos_row_stride));
    sin_ptr = tl_add(sin_ptr, tl_mul(cos_row_idx, sin_row_stride));
    tl_tensor cos_offsets = tl_arange(0, pad_hd / 2);
    tl_tensor cos_mask = tl_lt(cos_offsets, hd / 2);
    tl_tensor cos_row = tl_load(tl_add(cos_ptr, cos_offsets), .mask = cos_mask, .other = tl_c(0));
    tl_tensor sin_row = tl_load(tl_add(sin_ptr, cos_offsets), .mask = cos_mask, .other = tl_c(0));
    // the two halves of every head, as [pad_n_qh, pad_hd // 2] tiles
    tl_tensor first_half_q_offsets = tl_add(tl_mul(tl_idx(tl_arange(0, pad_n_qh), ":, None"), hd), tl_idx(tl_arange(0, pad_hd / 2), "None, :"));
    tl_tensor first_q_mask = tl_and(tl_lt(tl_idx(tl_arange(0, pad_n_qh), ":, None"), n_qh), tl_lt(tl_idx(tl_arange(0, pad_hd / 2), "None, :"), hd / 2));
    tl_tensor q_tile_1 = tl_to(tl_load(tl_add(q_ptr, first_half_q_offsets), .mask = first_q_mask, .other = tl_c(0)), tl_dtype_of(sin_row));
    tl_tensor second_half_q_offsets = tl_add(first_half_q_offsets, hd / 2);
    tl_tensor second_q_mask = first_q_mask;
    tl_tensor q_tile_2 = tl_to(tl_load(tl_add(q_ptr, second_half_q_offsets), .mask = second_q_mask, .other = tl_c(0)), tl_dtype_of(sin_row));
    if (!BACKWARD_PASS) {
        // y = [x1, x2] * [cos, cos] + [-x2, x1] * [sin, sin]
        tl_tensor new_q_tile_1 = tl_sub(tl_mul(q_tile_1, cos_row), tl_mul(q_tile_2, sin_row));
        tl_store(tl_add(q_ptr, first_half_q_offsets), tl_to(new_q_tile_1, tl_element_ty(q_ptr)), .mask = first_q_mask);
        tl_tensor new_q_tile_2 = tl_add(tl_mul(q_tile_2, cos_row), tl_mul(q_tile_1, sin_row));
        tl_store(tl_add(q_ptr, second_half_q_offsets), tl_to(new_q_tile_2, tl_element_ty(q_ptr)), .mask = second_q_mask);
    } else {
        // the inverse rotation: y = [x1, x2] * [cos, cos] + [x2, -x1] * [sin, sin]
        tl_tensor new_q_tile_1 = tl_add(tl_mul(q_tile_1, cos_row), tl_mul(q_tile_2, sin_row));
        tl_store(tl_add(q_ptr, first_half_q_offsets), tl_to(new_q_tile_1, tl_element_ty(q_ptr)), .mask = first_q_mask);
        tl_tensor new_q_tile_2 = tl_sub(tl_mul(q_tile_2, cos_row), tl_mul(q_tile_1, sin_row));
        tl_store(tl_add(q_ptr, second_half_q_offsets), tl_to(new_q_tile_2, tl_element_ty(q_ptr)), .mask = second_q_mask);
    }
}

TL_CONFIGS(rope_kernel,
    {.name = "h32_d128_fp16", .signature = "q_ptr=*fp16:16 q_row_stride=i32:16 cos_ptr=*fp32:16 cos_row_stride=i32:16 "
                                           "sin_ptr=*fp32:16 sin_row_stride=i32:16 seq_len=i32:16",
     .constexprs = "n_qh=32 hd=128 pad_n_qh=32 pad_hd=128 BACKWARD_PASS=False", .problem = "T=64 S=32",
     .num_warps = 4},
    {.name = "h12_d80_bwd", .signature = "q_ptr=*fp32:16 q_row_stride=i32:16 cos_ptr=*fp32:16 cos_row_stride=i32:16 "
                                         "sin_ptr=*fp32:16 sin_row_stride=i32:16 seq_len=i32",
     .constexprs = "n_qh=12 hd=80 pad_n_qh=16 pad_hd=128 BACKWARD_PASS=True", .problem = "T=50 S=25",
     .num_warps = 4});
