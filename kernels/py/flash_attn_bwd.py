# Flash attention backward, for flash_attn_fwd_kernel (kernels/py/flash_attn.py):
# Q, K, V, O and their gradients contiguous [Z * H, N_CTX, HEAD_DIM]; the forward's
# LSE is each query's log2-sum-exp2 of its scores in base 2 (q k * sm_scale * log2(e)),
# so that P = exp2(q k * sm_scale * log2(e) - LSE) is the softmax again, without
# its maximum and sum.  With Delta = rowsum(O * dO) (the preprocess kernel):
#   dV = P^T dO,  dP = dO V^T,  dS = P * (dP - Delta),
#   dQ = dS K * sm_scale,  dK = dS^T Q * sm_scale.
# The dk/dv kernel holds one block of BLOCK_N keys and walks the queries in
# BLOCK_M blocks (with CAUSAL from the block's first key on); the dq kernel holds
# one block of BLOCK_M queries and walks the keys in BLOCK_N blocks (with CAUSAL up
# to the block's last query).  Both recompute P; no atomics.  Rows and keys past
# N_CTX are masked (any N_CTX).  The C port is kernels/flash_attn_bwd.c.
import triton
import triton.language as tl


@triton.jit
def flash_attn_bwd_preprocess_kernel(O, DO, Delta, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    mask = offs_m < N_CTX
    offs = bh * N_CTX * HEAD_DIM + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    o = tl.load(O + offs, mask=mask[:, None], other=0.).to(tl.float32)
    do = tl.load(DO + offs, mask=mask[:, None], other=0.).to(tl.float32)
    tl.store(Delta + bh * N_CTX + offs_m, tl.sum(o * do, 1), mask=mask)


@triton.jit
def flash_attn_bwd_dkdv_kernel(Q, K, V, DO, LSE, Delta, DK, DV, sm_scale, N_CTX, HEAD_DIM: tl.constexpr,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_n = tl.program_id(0) * BLOCK_N
    bh = tl.program_id(1).to(tl.int64)
    head = bh * N_CTX * HEAD_DIM
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    n_mask = offs_n < N_CTX
    kv_offs = head + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    k = tl.load(K + kv_offs, mask=n_mask[:, None], other=0.)
    v = tl.load(V + kv_offs, mask=n_mask[:, None], other=0.)
    qk_scale = sm_scale * 1.4426950408889634
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    lo = start_n if CAUSAL else 0
    for start_m in range(lo, N_CTX, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        m_mask = offs_m < N_CTX
        q_offs = head + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
        q = tl.load(Q + q_offs, mask=m_mask[:, None], other=0.)
        do = tl.load(DO + q_offs, mask=m_mask[:, None], other=0.)
        lse = tl.load(LSE + bh * N_CTX + offs_m, mask=m_mask, other=0.)
        delta = tl.load(Delta + bh * N_CTX + offs_m, mask=m_mask, other=0.)
        # P^T and dP^T of this block, keys down and queries across
        p_t = tl.math.exp2(tl.dot(k, q.T) * qk_scale - lse[None, :])
        keep = m_mask[None, :]
        if CAUSAL:
            keep = keep & (offs_m[None, :] >= offs_n[:, None])
        p_t = tl.where(keep, p_t, 0.)
        dv = tl.dot(p_t.to(do.dtype), do, dv)
        dp_t = tl.dot(v, do.T)
        ds_t = p_t * (dp_t - delta[None, :])
        dk = tl.dot(ds_t.to(q.dtype), q, dk)
    dk = dk * sm_scale
    tl.store(DK + kv_offs, dk.to(DK.dtype.element_ty), mask=n_mask[:, None])
    tl.store(DV + kv_offs, dv.to(DV.dtype.element_ty), mask=n_mask[:, None])


@triton.jit
def flash_attn_bwd_dq_kernel(Q, K, V, DO, LSE, Delta, DQ, sm_scale, N_CTX, HEAD_DIM: tl.constexpr,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    bh = tl.program_id(1).to(tl.int64)
    head = bh * N_CTX * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    m_mask = offs_m < N_CTX
    q_offs = head + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    q = tl.load(Q + q_offs, mask=m_mask[:, None], other=0.)
    do = tl.load(DO + q_offs, mask=m_mask[:, None], other=0.)
    lse = tl.load(LSE + bh * N_CTX + offs_m, mask=m_mask, other=0.)
    delta = tl.load(Delta + bh * N_CTX + offs_m, mask=m_mask, other=0.)
    qk_scale = sm_scale * 1.4426950408889634
    dq = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    hi = tl.minimum(start_m + BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        n_mask = offs_n < N_CTX
        kv_offs = head + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
        k = tl.load(K + kv_offs, mask=n_mask[:, None], other=0.)
        v = tl.load(V + kv_offs, mask=n_mask[:, None], other=0.)
        p = tl.math.exp2(tl.dot(q, k.T) * qk_scale - lse[:, None])
        keep = n_mask[None, :]
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= offs_n[None, :])
        p = tl.where(keep, p, 0.)
        dp = tl.dot(do, v.T)
        ds = p * (dp - delta[:, None])
        dq = tl.dot(ds.to(k.dtype), k, dq)
    dq = dq * sm_scale
    tl.store(DQ + q_offs, dq.to(DQ.dtype.element_ty), mask=m_mask[:, None])
