# The grouped GEMM of a fused MoE over the rows that moe_align_block_size_kernel sorted:
# row t of C (one (token, k) pair, t = token * TOP_K + k) is row t // TOP_K of A times
# the transposed weights B[e] of its expert e, C[t] = A[t // TOP_K] @ B[e]^T, times the
# pair's routing weight with MUL_ROUTED_WEIGHT.  A is [tokens, K], B is [E, N, K] and C
# [tokens * TOP_K, N], each contiguous in its last dimension.  Each program takes BLOCK_M
# sorted slots (one expert's: the alignment padded every expert to a multiple of BLOCK_M)
# and BLOCK_N columns, in grouped order; a slot holding num_valid_tokens is padding, and
# a block past the padded total does nothing.  With USE_FP8_W8A8, A and B are fp8 with
# per-block scales: A's one per row and GROUP_K columns ([tokens, cdiv(K, GROUP_K)]),
# B's one per GROUP_N x GROUP_K block of each expert ([E, cdiv(N, GROUP_N),
# cdiv(K, GROUP_K)]); each BLOCK_K step (BLOCK_K divides GROUP_K) adds its dot times the
# scales of its group.  C is bf16, the accumulator fp32.
# The C port is kernels/fused_moe.c.
import triton
import triton.language as tl


@triton.jit
def fused_moe_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr,
                     expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens,
                     stride_am, stride_be, stride_bn, stride_cm,
                     stride_asm, stride_ask, stride_bse, stride_bsn, stride_bsk,
                     GROUP_N: tl.constexpr, GROUP_K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, MUL_ROUTED_WEIGHT: tl.constexpr,
                     TOP_K: tl.constexpr, USE_FP8_W8A8: tl.constexpr):
    # the tile of C, in grouped order: GROUP_SIZE_M blocks of slots walk the columns together
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(EM, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_M >= num_tokens_post_padded:
        return
    # the block's slots, their rows of C (num_valid_tokens: padding) and its expert
    offs_token_id = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id, mask=offs_token_id < num_tokens_post_padded,
                         other=num_valid_tokens)
    token_mask = offs_token < num_valid_tokens
    expert = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_token[:, None] // TOP_K * stride_am + offs_k[None, :])
    b_ptrs = b_ptr + expert * stride_be + (offs_k[:, None] + offs_bn[None, :] * stride_bn)
    if USE_FP8_W8A8:
        a_scale_ptrs = a_scale_ptr + offs_token // TOP_K * stride_asm
        b_scale_ptrs = b_scale_ptr + expert * stride_bse + offs_bn // GROUP_N * stride_bsn
    # accumulate over K
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_mask = offs_k < K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=token_mask[:, None] & k_mask[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=k_mask[:, None], other=0.0)
        if USE_FP8_W8A8:
            group_k = k * BLOCK_K // GROUP_K
            a_s = tl.load(a_scale_ptrs + group_k * stride_ask, mask=token_mask, other=0.0)
            b_s = tl.load(b_scale_ptrs + group_k * stride_bsk)
            accumulator += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        else:
            accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    if MUL_ROUTED_WEIGHT:
        weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0.0)
        accumulator = accumulator * weight[:, None]
    c = accumulator.to(c_ptr.dtype.element_ty)
    # write back the rows of C
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    # in 64 bits: C may hold more than 2**31 elements (TOKENS * TOP_K * N)
    c_ptrs = c_ptr + stride_cm * offs_token[:, None].to(tl.int64) + offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)
