# A small flash-attention forward: the inner loop is a @jit helper returning a
# tuple (acc, l_i, m_i), called with keyword arguments; Python's min/max on
# constexprs; the softmax scale folded into exp2.
# config: attn_fwd d64 | q_ptr=*fp16:16 k_ptr=*fp16:16 v_ptr=*fp16:16 o_ptr=*fp16:16 seq_len=i32:16 sm_scale=fp32 | BLOCK_M=64 BLOCK_N=64 HEAD_DIM=64 | 4 3
import triton
import triton.language as tl


@triton.jit
def _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, seq_len, qk_scale, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    for start_n in range(0, seq_len, BLOCK_N):
        k = tl.load(k_ptrs + start_n * HEAD_DIM)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs + start_n * HEAD_DIM)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def attn_fwd(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, sm_scale,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    k_ptrs = k_ptr + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    v_ptrs = v_ptr + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)
    acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, k_ptrs, v_ptrs, seq_len, qk_scale,
                                BLOCK_N=min(BLOCK_N, max(16, BLOCK_M // 2)), HEAD_DIM=HEAD_DIM)
    acc = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16))
