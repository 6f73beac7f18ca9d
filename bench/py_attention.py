# Fused attention forward (flash-attention style: one program per block of
# queries of one head, K and V walked in blocks, a running max and sum of the
# exponentials, the output rescaled as they grow), fp16 inputs, fp32
# accumulation.  Written for bench/py_bench.py.
import triton
import triton.language as tl


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, seq, scale, HEAD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    qb = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * seq * HEAD
    rm = qb * BM + tl.arange(0, BM)
    rd = tl.arange(0, HEAD)
    q = tl.load(q_ptr + base + rm[:, None] * HEAD + rd[None, :], mask=rm[:, None] < seq, other=0.0)
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, HEAD], tl.float32)
    for start in range(0, seq, BN):
        rn = start + tl.arange(0, BN)
        k = tl.load(k_ptr + base + rn[None, :] * HEAD + rd[:, None], mask=rn[None, :] < seq, other=0.0)
        s = tl.dot(q, k) * scale
        s = tl.where(rn[None, :] < seq, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + rn[:, None] * HEAD + rd[None, :], mask=rn[:, None] < seq, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * HEAD + rd[None, :], out.to(tl.float16), mask=rm[:, None] < seq)
