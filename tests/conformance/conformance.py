# Conformance kernels: small kernels that exercise the constructs of
# triton.language one by one.  Each has a C twin in conformance.c, statement
# for statement; the fidelity harness checks both lower to the same code.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def cf_if_else(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    s = tl.load(x_ptr + pid)
    t = s * 2
    if pid == 0:
        s = s + 1
    else:
        s = s - 1
        t = t * 3
    if pid > n:
        s = s * t
    tl.store(y_ptr + pid, s + t)


@triton.jit
def cf_while(x_ptr, y_ptr, n):
    i = 0
    acc = tl.load(x_ptr)
    while i < n:
        acc = acc * 2.0
        i += 1
    tl.store(y_ptr, acc)


@triton.jit
def cf_early_return(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def cf_ternary_nested(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    w = v if pid % 2 == 0 else v * 2.0
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, n):
        for j in tl.range(0, 4, 1, loop_unroll_factor=2):
            acc += w * j
        acc = acc - i
    for k in range(8, 0, -2):
        acc += k
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)


@triton.jit
def ops_int(a_ptr, b_ptr, c_ptr, u_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    u = tl.load(u_ptr + offs)
    c = (a // b) + (a % b) - (-a)
    c = c + (a << 2) + (a >> 1) + (~a)
    c = c + (a & b) + (a | b) + (a ^ b)
    c = c + tl.minimum(a, b) + tl.maximum(a, 7) + tl.abs(a)
    c = c + tl.umulhi(u, u).to(tl.int32)
    d = (u // 3) + (u % 5) + (u >> 3)
    e = a.to(tl.int64) * 3 + n
    f = (a > b) & (a >= 0) | (a < n) ^ (a <= b)
    f = f | (a == 1) | (a != b)
    g = tl.where(f, c, d.to(tl.int32)) + e.to(tl.int32)
    g = g + a.to(tl.int8).to(tl.int32) + a.to(tl.uint16).to(tl.int32)
    tl.store(c_ptr + offs, g + (1 - a) * 2)


@triton.jit
def ops_float(x_ptr, h_ptr, b_ptr, y_ptr, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    h = tl.load(h_ptr + offs)
    b = tl.load(b_ptr + offs)
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x)
    y = y + tl.sqrt(x) + tl.sqrt_rn(x) + tl.rsqrt(x)
    y = y + tl.sin(x) + tl.cos(x) + tl.erf(x)
    y = y + tl.floor(x) + tl.ceil(x) + tl.abs(x) + tl.sigmoid(x)
    y = y + tl.fma(x, x, 1.0) + tl.fdiv(x, 3.0) + tl.div_rn(x, x)
    y = y + x % 2.0 + x / 3 + 2 / x
    y = y + tl.minimum(x, 0.5) + tl.maximum(x, 0.5, propagate_nan=tl.PropagateNan.ALL)
    y = y + tl.clamp(x, -1.0, 1.0)
    y = y + (h * 2).to(tl.float32) + (h / h) + (b + b).to(tl.float32)
    y = y + (h + b) + (h * scale)
    y = y + libdevice.pow(x, 2.0) + libdevice.pow(x, 3) + libdevice.tanh(x)
    y = tl.where(x > 0.5, y, -y) + (x != x).to(tl.float32) + (h < 1).to(tl.float32)
    tl.store(y_ptr + offs, y + 1e-6 + 1e300 * 0 + 2.0 ** 0.5)


@triton.jit
def ops_cast(x_ptr, y_ptr, q_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    h = x.to(tl.float16)
    b = x.to(tl.bfloat16)
    f8 = x.to(tl.float8e4nv)
    f5 = h.to(tl.float8e5)
    z = x.to(tl.float16, fp_downcast_rounding="rtz")
    i = x.to(tl.int32)
    u = x.to(tl.uint8)
    bits = x.to(tl.int32, bitcast=True)
    back = bits.to(tl.float32, bitcast=True)
    flag = x.to(tl.int1)
    d = x.to(tl.float64)
    y = h.to(tl.float32) + b.to(tl.float32) + f8.to(tl.float32)
    y = y + f5.to(tl.float32) + z.to(tl.float32) + i.to(tl.float32)
    y = y + u.to(tl.float32) + back + flag.to(tl.float32) + d.to(tl.float32)
    tl.store(y_ptr + offs, y)
    tl.store(q_ptr + offs, f8)


@triton.jit
def ops_reduce(x_ptr, i_ptr, y_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * BLOCK_N + cols[None, :])
    iv = tl.load(i_ptr + rows[:, None] * BLOCK_N + cols[None, :])
    a = tl.sum(x, axis=1) + tl.max(x, axis=1) + tl.min(x, axis=1)
    b = tl.sum(x, axis=0, keep_dims=True)
    c = tl.argmax(x, axis=1) + tl.argmin(x, axis=1, tie_break_left=False)
    v, idx = tl.max(x, axis=1, return_indices=True)
    d = tl.cumsum(x, axis=1) + tl.cumprod(x, axis=1, reverse=True)
    e = tl.xor_sum(iv, axis=0) + tl.reduce_or(iv, axis=0) + tl.sum(iv.to(tl.int8), axis=0)
    s = tl.sum(x) + tl.max(x) + tl.sum(x, axis=1, dtype=tl.float64).to(tl.float32)
    tl.store(y_ptr + rows, a + c.to(tl.float32) + v + idx.to(tl.float32) + s)
    tl.store(y_ptr + rows[:, None] * BLOCK_N + cols[None, :], d + b)
    tl.store(i_ptr + cols, e)


@triton.jit
def add_combine(a, b):
    return a + b


@triton.jit
def max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def ops_combine(x_ptr, y_ptr, z_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * BLOCK_N + cols[None, :])
    m = tl.reduce(x, 1, max_combine, keep_dims=True)
    s = tl.reduce(x, None, add_combine)
    c = tl.associative_scan(x, 1, add_combine, reverse=True)
    t = tl.associative_scan(x, -2, max_combine)
    tl.store(y_ptr + rows[:, None] * BLOCK_N + cols[None, :], c + t - m)
    tl.store(z_ptr, s)


@triton.jit
def ops_sort(x_ptr, i_ptr, y_ptr, j_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, K: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    offs = rows[:, None] * BLOCK_N + cols[None, :]
    x = tl.load(x_ptr + offs)
    iv = tl.load(i_ptr + offs)
    tl.store(y_ptr + offs, tl.sort(x))
    tl.store(y_ptr + BLOCK_M * BLOCK_N + offs, tl.sort(x, descending=True))
    tl.store(y_ptr + 2 * BLOCK_M * BLOCK_N + offs, tl.flip(x, 0))
    tl.store(y_ptr + 3 * BLOCK_M * BLOCK_N + offs, tl.bitonic_merge(x))
    top = tl.topk(x, K).to(x.dtype)  # topk of fp16 comes back as fp32 (its max promotes)
    tl.store(y_ptr + 4 * BLOCK_M * BLOCK_N + rows[:, None] * K + tl.arange(0, K)[None, :], top)
    tl.store(j_ptr + offs, tl.sort(iv, dim=1) + tl.flip(iv, -1))


@triton.jit
def ops_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block_ptr = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                                    offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_block_ptr = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                                    offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_block_ptr, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block_ptr, boundary_check=(1, 0), padding_option="zero")
        acc += tl.dot(a, b)
        a_block_ptr = tl.advance(a_block_ptr, (0, BLOCK_K))
        b_block_ptr = tl.advance(b_block_ptr, (BLOCK_K, 0))
    c_block_ptr = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                                    offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N),
                                    order=(1, 0))
    tl.store(c_block_ptr, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def ops_block_ptr_desc(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                       stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # ops_block_ptr with tensor descriptors, as Triton 3.9 asks in place of block pointers
    # (out-of-bounds elements read as zero, like boundary_check with padding "zero")
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[stride_am, stride_ak],
                                       block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_bk, stride_bn],
                                       block_shape=[BLOCK_K, BLOCK_N])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = a_desc.load([pid_m * BLOCK_M, k])
        b = b_desc.load([k, pid_n * BLOCK_N])
        acc += tl.dot(a, b)
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, stride_cn],
                                       block_shape=[BLOCK_M, BLOCK_N])
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))


@triton.jit
def ops_tensor_desc(a_ptr, c_ptr, M, N, stride_am, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[stride_am, 1], block_shape=[BLOCK_M, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, 1], block_shape=[BLOCK_M, BLOCK_N])
    a = a_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], a * 2)


@triton.jit
def ops_extras(x_ptr, y_ptr, r_ptr, i_ptr, seed, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    offs = rows[:, None] * BLOCK_N + cols[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.softmax(x, dim=1, keep_dims=True))
    tl.store(y_ptr + BLOCK_M * BLOCK_N + cols, tl.softmax(tl.load(x_ptr + cols)))
    new_i, new_j = tl.swizzle2d(rows[:, None], cols[None, :], BLOCK_M, BLOCK_N, GROUP)
    tl.store(i_ptr + offs, new_i * BLOCK_N + new_j)
    u1, u2, u3, u4 = tl.rand4x(seed, offs)
    n1, n2, n3, n4 = tl.randn4x(seed, offs)
    c0, c1, c2, c3 = tl.philox(seed, offs, 0, 0, 0)
    f = tl.uint_to_uniform_float(c0)
    g1, g2 = tl.pair_uniform_to_normal(u1, u2)
    v = tl.rand(seed, offs, n_rounds=7)
    tl.store(r_ptr + offs, u1 + u2 + u3 + u4 + n1 + n2 + n3 + n4 + f + g1 + g2 + v)


@triton.jit
def ops_inline_asm(x_ptr, y_ptr, a_ptr, b_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    # rotate left by 3 (a funnel shift of x with itself); the 3 is broadcast like x
    y = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r", [x, x, 3], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(y_ptr + offs, y)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    # four uint8 of a packed in one register: c = a, d = max(float(a), b)
    (c, d) = tl.inline_asm_elementwise(
        asm="{ .reg .b8 t<4>; mov.b32 {t0, t1, t2, t3}, $8; cvt.u32.u8 $0, t0; cvt.u32.u8 $1, t1; "
        "cvt.u32.u8 $2, t2; cvt.u32.u8 $3, t3; } cvt.rn.f32.s32 $4, $0; cvt.rn.f32.s32 $5, $1; "
        "cvt.rn.f32.s32 $6, $2; cvt.rn.f32.s32 $7, $3; max.f32 $4, $4, $9; max.f32 $5, $5, $10; "
        "max.f32 $6, $6, $11; max.f32 $7, $7, $12;", constraints="=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r",
        args=[a, b], dtype=(tl.int32, tl.float32), is_pure=True, pack=4)
    tl.store(c_ptr + offs, c)
    tl.store(d_ptr + offs, d)


@triton.jit
def ops_host_desc(a_desc, c_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a = a_desc.load([pid_m * BLOCK_M, pid_n * BLOCK_N])
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], a + 1)


@triton.jit
def ops_persistent_tma(a_ptr, b_ptr, c_ptr, M, N, K, NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, FLATTEN: tl.constexpr,
                       WARP_SPECIALIZE: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N // 2])
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    # each program walks over tiles NUM_SMS apart
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=FLATTEN, warp_specialize=WARP_SPECIALIZE):
        pid_m = tile_id // num_pid_n
        pid_n = tile_id % num_pid_n
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            accumulator = tl.dot(a, b.T, accumulator)
        # the epilogue in two halves of BLOCK_N // 2 columns
        acc = tl.reshape(accumulator, (BLOCK_M, 2, BLOCK_N // 2))
        acc = tl.permute(acc, (0, 2, 1))
        acc0, acc1 = tl.split(acc)
        c_desc.store([offs_am, offs_bn], acc0.to(tl.float16))
        c_desc.store([offs_am, offs_bn + BLOCK_N // 2], acc1.to(tl.float16))


@triton.jit
def ops_shape(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    a = tl.reshape(x, (BLOCK // 16, 16))
    t = tl.trans(a)
    p = tl.permute(a, (1, 0))
    j = tl.join(x, x)
    l, r = tl.split(j)
    e = tl.expand_dims(x, 0)
    bb = tl.broadcast_to(x[:, None], (BLOCK, 4))
    c = tl.cat(x, x, can_reorder=True)
    il = tl.interleave(x, x)
    z = tl.zeros_like(x) + tl.full((BLOCK,), 3, tl.float32) + tl.ravel(a)
    g = tl.gather(x, offs % 7, 0)
    h = tl.histogram(offs % 16, 16)
    y = l + r + tl.sum(tl.sum(t, 0)) + tl.sum(p, 1).sum()
    y = y + tl.sum(e, 0) + tl.sum(bb, 1) + z + g
    y = y + tl.sum(c) + tl.sum(il) + tl.sum(h)
    tl.store(y_ptr + offs, y)


@triton.jit
def ops_memory(x_ptr, y_ptr, i_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, 16), 16)
    tl.assume(n > 0)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0, cache_modifier=".cg")
    s = tl.load(x_ptr, volatile=True)
    flags = tl.load(b_ptr + offs, mask=m, other=False, eviction_policy="evict_last")
    tl.store(y_ptr + offs, x + s, mask=m & flags, cache_modifier=".cs")
    tl.store(b_ptr + offs, x > 0, mask=m)
    tl.debug_barrier()
    tl.atomic_add(y_ptr + offs, x, mask=m)
    tl.atomic_max(y_ptr + offs, x, mask=m, sem="relaxed", scope="cta")
    tl.atomic_min(y_ptr + offs, x, mask=m)
    iv = tl.load(i_ptr + offs)  # lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only
    tl.atomic_and(i_ptr + offs, iv)  # lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only
    tl.atomic_or(i_ptr + offs, iv, sem="release")  # lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only
    tl.atomic_xor(i_ptr + offs, iv, scope="sys")  # lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only
    tl.atomic_xchg(i_ptr + offs, iv)  # lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only
    tl.atomic_max(i_ptr + offs, iv)  # lint-ok: unmasked-dim i_ptr holds BLOCK elements; n bounds x, y and b only
    tl.atomic_cas(i_ptr, 0, 1, sem="acquire")
    tl.store(i_ptr + 1, (i_ptr + 3).to(tl.int64).to(tl.int32))


@triton.jit
def ops_dot(a_ptr, b_ptr, c_ptr, f_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b)
    d = tl.dot(a, b, out_dtype=tl.float16)
    fa = tl.load(f_ptr + rm[:, None] * K + rk[None, :])
    fb = tl.load(f_ptr + rk[:, None] * N + rn[None, :])
    e = tl.dot(fa, fb, input_precision="ieee") + tl.dot(fa, fb, input_precision="tf32x3")
    e = e + tl.dot(fa, fb, c)  # lint-ok: tf32-dot the default precision is what this case covers
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], (c + d.to(tl.float32) + e).to(tl.float16))


@triton.jit
def ops_random(y_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = tl.rand(seed, offs) + tl.randn(seed, offs) + tl.randint(seed, offs).to(tl.float32)
    r1, r2, r3, r4 = tl.randint4x(seed, offs)
    r = r + (r1 ^ r2 ^ r3 ^ r4).to(tl.float32) + tl.rand(123, offs.to(tl.int64))
    tl.store(y_ptr + offs, r, mask=offs < n)


@triton.jit
def scale_shift(x, scale: tl.constexpr, shift):
    return x * scale + shift


@triton.jit
def two_values(x):
    return x + 1, x * 2


@triton.jit
def jit_helpers(x_ptr, y_ptr, BLOCK: tl.constexpr, ALPHA: tl.constexpr, USE_SHIFT: tl.constexpr,
                DTYPE: tl.constexpr, NAME: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = scale_shift(x, ALPHA, 1.0)
    if USE_SHIFT:
        y = scale_shift(y, 2, x)
    a, b = two_values(y)
    if NAME == "double":
        a = a * 2
    tl.static_assert(BLOCK >= 16, "BLOCK too small")
    tl.store(y_ptr + offs, (a + b + tl.cdiv(BLOCK, 16)).to(DTYPE).to(tl.float32))


@triton.jit
def convert_as(x, DT, MODE: tl.constexpr):
    if MODE == "double":
        x = x * 2
    return x.to(DT)


@triton.jit
def jit_cx_args(x_ptr, y_ptr, z_ptr, BLOCK: tl.constexpr):
    # dtypes, strings and an explicit None as constexpr arguments of a helper
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = convert_as(x, tl.float16, "double")
    z = convert_as(x, tl.bfloat16, None)
    tl.store(y_ptr + offs, y)
    tl.store(z_ptr + offs, z)


@triton.jit
def selu_scalar(x, alpha):
    if x > 0:
        y = x
    else:
        y = alpha * (tl.exp(x) - 1)
    return y


@triton.jit
def pair_scalar(a0, a1, b0, b1):
    if a0 > b0:
        s0 = a0 - b0
    else:
        s0 = b0 - a0
    return s0, a1 + b1, a0 * b0, a1 * b1


@triton.jit
def ops_map_elementwise(x_ptr, y_ptr, s_ptr, p_ptr, alpha, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(s_ptr + offs, tl.map_elementwise(selu_scalar, x, alpha))
    s, p = tl.map_elementwise(pair_scalar, x, y, pack=2)
    tl.store(p_ptr + offs, s * p)


@triton.jit
def ops_desc_atomic(a_ptr, i_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[stride_m, 1], block_shape=[BLOCK_M, BLOCK_N])
    i_desc = tl.make_tensor_descriptor(i_ptr, shape=[M, N], strides=[stride_m, 1], block_shape=[BLOCK_M, BLOCK_N])
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    k = rows * 3 - cols
    a_desc.atomic_add([pid_m * BLOCK_M, pid_n * BLOCK_N], (k * 0.5).to(tl.float32))
    i_desc.atomic_max([pid_m * BLOCK_M, pid_n * BLOCK_N], k)
    i_desc.atomic_min([pid_m * BLOCK_M, pid_n * BLOCK_N], k + 40)
    i_desc.atomic_xor([pid_m * BLOCK_M, pid_n * BLOCK_N], k & 7)
