# Paged decode attention, split-K: one query token per sequence against its KV
# cache, which lives in pages of PAGE_SIZE tokens ([num_pages, PAGE_SIZE,
# KV_HEADS, HEAD_DIM], rows of a block table naming each sequence's pages in
# order).  Grouped-query heads: GROUP_SIZE query heads share a KV head, and one
# program computes them together (padded to BLOCK_G rows for tl.dot).  The
# sequence's keys are cut into NUM_SPLITS chunks of whole BLOCK_N blocks; the
# program of split s walks its chunk with an online softmax in base 2 and
# writes the chunk's normalized output (fp32, [SEQS, HEADS, NUM_SPLITS,
# HEAD_DIM]) and its log2-sum-exp of the logits ([SEQS, HEADS, NUM_SPLITS]).
# SOFT_CAP squashes the logits to soft_cap * tanh(logit / soft_cap);
# SLIDING_WINDOW keeps only the last `window` keys.  A chunk with no key (past
# the sequence's end, or before its window) writes zeros and -inf, which the
# reduction weighs zero.
# decode_attn_reduce_kernel merges the splits of one (sequence, head): weights
# exp2(lse_s - max), the output their weighted mean, the row's lse
# max + log2(sum); at least one split of each row must hold a key.
# The C port is kernels/decode_attn.c.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def decode_attn_paged_splitk_kernel(Q, K_cache, V_cache, Block_tables, Seq_lens, O_part, LSE_part, sm_scale,
                                    soft_cap, window, stride_qs, stride_qh, stride_kp, stride_kt, stride_kh,
                                    stride_vp, stride_vt, stride_vh, stride_bt, HEAD_DIM: tl.constexpr,
                                    PAGE_SIZE: tl.constexpr, GROUP_SIZE: tl.constexpr, BLOCK_G: tl.constexpr,
                                    NUM_SPLITS: tl.constexpr, BLOCK_N: tl.constexpr, SOFT_CAP: tl.constexpr,
                                    SLIDING_WINDOW: tl.constexpr):
    seq = tl.program_id(0)
    kv_head = tl.program_id(1)
    split = tl.program_id(2)
    seq_len = tl.load(Seq_lens + seq)
    # the split's keys: a chunk of whole blocks
    split_len = tl.cdiv(tl.cdiv(seq_len, NUM_SPLITS), BLOCK_N) * BLOCK_N
    lo = split * split_len
    hi = tl.minimum(lo + split_len, seq_len)
    if SLIDING_WINDOW:
        lo = tl.maximum(lo, seq_len - window)
    offs_g = tl.arange(0, BLOCK_G)
    offs_d = tl.arange(0, HEAD_DIM)
    heads = kv_head * GROUP_SIZE + offs_g
    g_mask = offs_g < GROUP_SIZE
    q_ptrs = Q + seq.to(tl.int64) * stride_qs + heads[:, None] * stride_qh + offs_d[None, :]
    q = tl.load(q_ptrs, mask=g_mask[:, None], other=0.)
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.full([BLOCK_G], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_G], dtype=tl.float32)
    acc = tl.zeros([BLOCK_G, HEAD_DIM], dtype=tl.float32)
    table = Block_tables + seq.to(tl.int64) * stride_bt
    for start in range(lo, hi, BLOCK_N):
        offs_n = start + tl.arange(0, BLOCK_N)
        n_mask = offs_n < hi
        # each key's page and its slot in the page
        page = tl.load(table + offs_n // PAGE_SIZE, mask=n_mask, other=0).to(tl.int64)
        slot = offs_n % PAGE_SIZE
        k_ptrs = K_cache + page[:, None] * stride_kp + slot[:, None] * stride_kt + kv_head * stride_kh + offs_d[None, :]
        k = tl.load(k_ptrs, mask=n_mask[:, None], other=0.)
        s = tl.dot(q, k.T)
        if SOFT_CAP:
            s = soft_cap * libdevice.tanh(s * sm_scale / soft_cap) * 1.4426950408889634
        else:
            s = s * qk_scale
        s = tl.where(n_mask[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        v_ptrs = V_cache + page[:, None] * stride_vp + slot[:, None] * stride_vt + kv_head * stride_vh + offs_d[None, :]
        v = tl.load(v_ptrs, mask=n_mask[:, None], other=0.)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    # an empty chunk: l_i is 0 and m_i -inf, so zeros and -inf
    acc = acc / tl.where(l_i > 0., l_i, 1.)[:, None]
    rows = (seq * tl.num_programs(1) * GROUP_SIZE + heads).to(tl.int64) * NUM_SPLITS + split
    o_ptrs = O_part + rows[:, None] * HEAD_DIM + offs_d[None, :]
    tl.store(o_ptrs, acc, mask=g_mask[:, None])
    tl.store(LSE_part + rows, m_i + tl.math.log2(l_i), mask=g_mask)


@triton.jit
def decode_attn_reduce_kernel(O_part, LSE_part, Out, LSE, stride_os, stride_oh, HEAD_DIM: tl.constexpr,
                              NUM_SPLITS: tl.constexpr, BLOCK_S: tl.constexpr):
    seq = tl.program_id(0)
    head = tl.program_id(1)
    row = seq.to(tl.int64) * tl.num_programs(1) + head
    offs_s = tl.arange(0, BLOCK_S)
    offs_d = tl.arange(0, HEAD_DIM)
    s_mask = offs_s < NUM_SPLITS
    lse = tl.load(LSE_part + row * NUM_SPLITS + offs_s, mask=s_mask, other=float("-inf"))
    m = tl.max(lse, 0)
    w = tl.math.exp2(lse - m)
    total = tl.sum(w, 0)
    o_ptrs = O_part + (row * NUM_SPLITS + offs_s[:, None]) * HEAD_DIM + offs_d[None, :]
    o = tl.load(o_ptrs, mask=s_mask[:, None], other=0.)
    out = tl.sum(o * w[:, None], 0) / total
    out_ptrs = Out + seq.to(tl.int64) * stride_os + head * stride_oh + offs_d
    tl.store(out_ptrs, out.to(Out.dtype.element_ty))
    tl.store(LSE + row, m + tl.math.log2(total))
