# The real-kernel-shaped workloads of the emulator's speed benchmark (issue 13, part 5):
# each kernel is the shape of a kernel that serves models today, written here (none is copied):
#
#   ce_fwd_kernel           cross entropy over a 32k vocabulary, loss and gradient in place,
#                           online log-sum-exp over 4096-wide chunks (the Liger/unsloth family)
#   attn_fwd_kernel         fused attention forward (Triton's tutorial 06 without TMA), fp16
#   moe_fp8_kernel          MoE grouped GEMM with fp8 e4m3 operands and 1x128 / 128x128 block
#                           scales over sorted token ids (vLLM's fused_moe family)
#   decode_stage1_kernel,   decode attention with split-K (flash-decoding): partial softmax per
#   decode_stage2_kernel    KV split, then the combination, GQA 4:1
#   chunk_la_kernel         chunked linear attention forward (the fla family): intra-chunk
#                           causal scores plus the carried K^T V state
#   matmul_kernel           the tutorial matmul (03) with grouped ordering, fp16
#   radix_hist_kernel,      one pass of a 4-bit LSD radix sort: the digit histogram, then the
#   radix_scatter_kernel    scatter with decoupled look-back between programs (they wait on
#                           flags the programs before them publish)
#
# Loop bounds are constexprs: Triton 3.6's interpreter cannot run loops whose bound is a
# runtime value with numpy >= 2.4 (bench/kernels_py.py).  The TTIR the emulator runs is made
# from this file by bench/gen_workloads.sh; bench/interp_workloads.py times the same kernels
# under TRITON_INTERPRET=1; bench/bench_workloads.c runs the TTIR on the emulator.
import triton
import triton.language as tl


@triton.jit
def ce_fwd_kernel(logits_ptr, stride, target_ptr, loss_ptr, inv_n, V: tl.constexpr,
                  BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    y = tl.load(target_ptr + row)
    x_y = tl.load(base + y).to(tl.float32)
    m = float("-inf")
    d = 0.0
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    lse = m + tl.log(d)
    for off in range(0, V, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        g = tl.exp(x - m) / d
        g = tl.where(cols == y, g - 1.0, g) * inv_n
        tl.store(base + cols, g, mask=cols < V)
    tl.store(loss_ptr + row, (lse - x_y) * inv_n)


@triton.jit
def attn_fwd_kernel(Q, K, V, Out, sm_scale, N_CTX: tl.constexpr, HEAD_DIM: tl.constexpr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, N_CTX, BLOCK_N):
        kt = tl.load(K + base + (start_n + offs_n)[None, :] * HEAD_DIM + offs_d[:, None])
        qk = tl.dot(q, kt)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + base + (start_n + offs_n)[:, None] * HEAD_DIM + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16))


@triton.jit
def moe_fp8_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr,
                   sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr,
                   num_valid_tokens, N: tl.constexpr, K: tl.constexpr, EM: tl.constexpr,
                   top_k: tl.constexpr, group_n: tl.constexpr, group_k: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                   GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(EM, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    num_tokens_post_padded = tl.load(num_tokens_post_padded_ptr)
    if pid_m * BLOCK_M >= num_tokens_post_padded:
        return
    offs_token_id = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_token = tl.load(sorted_token_ids_ptr + offs_token_id)
    token_mask = offs_token < num_valid_tokens
    off_experts = tl.load(expert_ids_ptr + pid_m).to(tl.int64)
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_token[:, None] // top_k * K + offs_k[None, :])
    b_ptrs = b_ptr + off_experts * N * K + (offs_k[:, None] + offs_bn[None, :] * K)
    a_scale_ptrs = a_scale_ptr + (offs_token // top_k) * (K // group_k)
    offs_bsn = offs_bn // group_n
    b_scale_ptrs = b_scale_ptr + off_experts * (N // group_n) * (K // group_k) + \
        offs_bsn * (K // group_k)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K // BLOCK_K):
        a = tl.load(a_ptrs, mask=token_mask[:, None], other=0.0)
        b = tl.load(b_ptrs)
        k_start = k * BLOCK_K
        offs_ks = k_start // group_k
        a_scale = tl.load(a_scale_ptrs + offs_ks, mask=token_mask, other=0.0)
        b_scale = tl.load(b_scale_ptrs + offs_ks)
        accumulator += tl.dot(a, b) * a_scale[:, None] * b_scale[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    moe_weight = tl.load(topk_weights_ptr + offs_token, mask=token_mask, other=0)
    accumulator = accumulator * moe_weight[:, None]
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + N * offs_token[:, None] + offs_cn[None, :]
    c_mask = token_mask[:, None] & (offs_cn[None, :] < N)
    tl.store(c_ptrs, accumulator.to(tl.float16), mask=c_mask)


@triton.jit
def decode_stage1_kernel(Q, K_cache, V_cache, sm_scale, Mid_O, Mid_lse, H: tl.constexpr,
                         KV_GROUP: tl.constexpr, SEQ: tl.constexpr, D: tl.constexpr,
                         NUM_SPLITS: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    split = tl.program_id(2)
    kvh = h // KV_GROUP
    HKV: tl.constexpr = H // KV_GROUP
    offs_d = tl.arange(0, D)
    q = tl.load(Q + (b * H + h) * D + offs_d).to(tl.float32)
    SPLIT_LEN: tl.constexpr = SEQ // NUM_SPLITS
    start = split * SPLIT_LEN
    e_max = float("-inf")
    e_sum = 0.0
    acc = tl.zeros([D], dtype=tl.float32)
    kv_base = (b.to(tl.int64) * SEQ * HKV + kvh) * D
    for n0 in range(0, SPLIT_LEN, BLOCK_N):
        offs_n = start + n0 + tl.arange(0, BLOCK_N)
        kv_off = kv_base + offs_n[:, None] * (HKV * D) + offs_d[None, :]
        k = tl.load(K_cache + kv_off).to(tl.float32)
        qk = tl.sum(q[None, :] * k, 1) * sm_scale
        v = tl.load(V_cache + kv_off).to(tl.float32)
        n_max = tl.maximum(tl.max(qk, 0), e_max)
        re_scale = tl.exp(e_max - n_max)
        p = tl.exp(qk - n_max)
        acc = acc * re_scale + tl.sum(p[:, None] * v, 0)
        e_sum = e_sum * re_scale + tl.sum(p, 0)
        e_max = n_max
    mid = ((b * H + h) * NUM_SPLITS + split)
    tl.store(Mid_O + mid * D + offs_d, acc / e_sum)
    tl.store(Mid_lse + mid, e_max + tl.log(e_sum))


@triton.jit
def decode_stage2_kernel(Mid_O, Mid_lse, O, H: tl.constexpr, D: tl.constexpr,
                         NUM_SPLITS: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    offs_d = tl.arange(0, D)
    e_sum = 0.0
    e_max = float("-inf")
    acc = tl.zeros([D], dtype=tl.float32)
    base = (b * H + h) * NUM_SPLITS
    for s in range(0, NUM_SPLITS):
        tv = tl.load(Mid_O + (base + s) * D + offs_d)
        tlogic = tl.load(Mid_lse + base + s)
        n_e_max = tl.maximum(tlogic, e_max)
        old_scale = tl.exp(e_max - n_e_max)
        acc *= old_scale
        exp_logic = tl.exp(tlogic - n_e_max)
        acc += exp_logic * tv
        e_sum = e_sum * old_scale + exp_logic
        e_max = n_e_max
    tl.store(O + (b * H + h) * D + offs_d, (acc / e_sum).to(tl.float16))


@triton.jit
def chunk_la_kernel(Q, K, V, O, scale, T: tl.constexpr, DK: tl.constexpr, DV: tl.constexpr,
                    BT: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    offs_t = tl.arange(0, BT)
    offs_k = tl.arange(0, DK)
    offs_v = tl.arange(0, DV)
    causal = offs_t[:, None] >= offs_t[None, :]
    h = tl.zeros([DK, DV], dtype=tl.float32)
    for i in range(0, T // BT):
        rows = i * BT + offs_t
        q = tl.load(Q + bh * T * DK + rows[:, None] * DK + offs_k[None, :])
        k = tl.load(K + bh * T * DK + rows[:, None] * DK + offs_k[None, :])
        v = tl.load(V + bh * T * DV + rows[:, None] * DV + offs_v[None, :])
        q = (q * scale).to(tl.float16)
        s = tl.dot(q, tl.trans(k))
        s = tl.where(causal, s, 0.0)
        o = tl.dot(q, h.to(tl.float16))
        o = tl.dot(s.to(tl.float16), v, o)
        h = tl.dot(tl.trans(k), v, h)
        tl.store(O + bh * T * DV + rows[:, None] * DV + offs_v[None, :], o.to(tl.float16))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K: tl.constexpr, stride_am, stride_ak, stride_bk,
                  stride_bn, stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr,
                  BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def radix_hist_kernel(keys_ptr, hist_ptr, shift, BLOCK: tl.constexpr, RADIX: tl.constexpr):
    pid = tl.program_id(0)
    keys = tl.load(keys_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    digit = (keys >> shift) & (RADIX - 1)
    tl.atomic_add(hist_ptr + tl.arange(0, RADIX), tl.histogram(digit, RADIX))


@triton.jit
def radix_scatter_kernel(keys_in, keys_out, digit_offsets, status, shift, BLOCK: tl.constexpr,
                         RADIX: tl.constexpr):
    # status[p * RADIX + d] = flag << 28 | count: flag 1 (the program's own count of digit d),
    # 2 (the count of digit d in programs 0..p, inclusive)
    pid = tl.program_id(0)
    keys = tl.load(keys_in + pid * BLOCK + tl.arange(0, BLOCK))
    digit = (keys >> shift) & (RADIX - 1)
    bins = tl.arange(0, RADIX)
    onehot = (digit[:, None] == bins[None, :]).to(tl.int32)
    local = tl.sum(onehot, 0)
    rank = tl.sum(tl.cumsum(onehot, 0) * onehot, 1) - 1
    excl = tl.zeros([RADIX], dtype=tl.int32)
    if pid == 0:
        tl.atomic_xchg(status + bins, local | (2 << 28))
    else:
        tl.atomic_xchg(status + pid * RADIX + bins, local | (1 << 28))
        done = tl.zeros([RADIX], dtype=tl.int32)
        j = pid - 1
        while tl.min(done, 0) == 0:
            s = tl.atomic_add(status + j * RADIX + bins, 0, sem="acquire")
            flag = s >> 28
            if tl.min(tl.where(done != 0, 1, flag), 0) > 0:
                excl += tl.where(done != 0, 0, s & ((1 << 28) - 1))
                done = tl.where(flag == 2, 1, done)
                j -= 1
        tl.atomic_xchg(status + pid * RADIX + bins, (excl + local) | (2 << 28))
    base = tl.load(digit_offsets + bins) + excl
    pos = tl.sum(onehot * base[None, :], 1) + rank
    tl.store(keys_out + pos, keys)
