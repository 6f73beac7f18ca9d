# Flash attention forward: O = softmax(Q K^T * sm_scale) V per (batch, head), one
# program per BLOCK_M queries of one head, the keys and values walked in BLOCK_N
# blocks with an online softmax (running row maximum m_i and row sum l_i; the
# accumulator rescaled by exp2(m_old - m_new) at every block).  Scores are kept in
# base 2 (sm_scale * log2(e) folded into one factor).  Q, K, V, O are contiguous
# [Z * H, N_CTX, HEAD_DIM], read and written through tensor descriptors made in the
# kernel with 3-D blocks [1, BLOCK, HEAD_DIM], so that a block past a head's last
# row reads zeros and stores nothing (any N_CTX); keys past N_CTX are masked.
# CAUSAL masks keys after the query and stops the walk at the query block's end.
# LSE receives each query's log2-sum-exp2 of the scaled scores (the backward pass
# needs it).  WARP_SPECIALIZE asks the compiler to split the key loop into
# producer and consumer warps.  The C port is kernels/flash_attn.c.
import triton
import triton.language as tl


@triton.jit
def flash_attn_fwd_kernel(Q, K, V, O, LSE, sm_scale, Z_H, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                          BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    q_desc = tl.make_tensor_descriptor(Q, shape=[Z_H, N_CTX, HEAD_DIM], strides=[N_CTX * HEAD_DIM, HEAD_DIM, 1],
                                       block_shape=[1, BLOCK_M, HEAD_DIM])
    k_desc = tl.make_tensor_descriptor(K, shape=[Z_H, N_CTX, HEAD_DIM], strides=[N_CTX * HEAD_DIM, HEAD_DIM, 1],
                                       block_shape=[1, BLOCK_N, HEAD_DIM])
    v_desc = tl.make_tensor_descriptor(V, shape=[Z_H, N_CTX, HEAD_DIM], strides=[N_CTX * HEAD_DIM, HEAD_DIM, 1],
                                       block_shape=[1, BLOCK_N, HEAD_DIM])
    o_desc = tl.make_tensor_descriptor(O, shape=[Z_H, N_CTX, HEAD_DIM], strides=[N_CTX * HEAD_DIM, HEAD_DIM, 1],
                                       block_shape=[1, BLOCK_M, HEAD_DIM])
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    q = q_desc.load([bh, start_m * BLOCK_M, 0]).reshape(BLOCK_M, HEAD_DIM)
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in tl.range(0, hi, BLOCK_N, warp_specialize=WARP_SPECIALIZE):
        k = k_desc.load([bh, start_n, 0]).reshape(BLOCK_N, HEAD_DIM)
        s = tl.dot(q, k.T) * qk_scale
        offs_n = start_n + tl.arange(0, BLOCK_N)
        keep = offs_n[None, :] < N_CTX
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= offs_n[None, :])
        s = tl.where(keep, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v = v_desc.load([bh, start_n, 0]).reshape(BLOCK_N, HEAD_DIM)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(LSE + bh.to(tl.int64) * N_CTX + offs_m, m_i + tl.math.log2(l_i), mask=offs_m < N_CTX)
    o_desc.store([bh, start_m * BLOCK_M, 0], acc.to(O.dtype.element_ty).reshape(1, BLOCK_M, HEAD_DIM))
