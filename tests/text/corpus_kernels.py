# Python Triton kernels whose IR makes the parser's corpus (tests/text/corpus).
#
# Not library kernels: each one exists to make Triton 3.6 print some op,
# attribute, type or location form, so that the parser, printer and
# normalizer are checked against what Triton really writes.  The CASES table
# at the bottom lists (name, kernel, signature, constexprs, options).
# Regenerate with: python tests/text/gen_corpus.py
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def softmax(x_ptr, y_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_start = row * n_cols
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row_start + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row_start + cols, y, mask=mask)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def layernorm(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def helper(x, alpha: tl.constexpr):
    return tl.where(x >= 0, x, alpha * x)


@triton.jit
def elementwise(x_ptr, y_ptr, i_ptr, n, seed, f, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    npg = tl.num_programs(1)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    offs = tl.multiple_of(offs, 16)
    offs = tl.max_contiguous(offs, 16)
    tl.assume(n > 0)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0, cache_modifier=".cg", eviction_policy="evict_last", volatile=True)
    s = tl.load(x_ptr)
    ii = tl.load(i_ptr + offs, mask=m)
    h = x.to(tl.float16)
    h8 = x.to(tl.float8e4nv)
    h5 = h.to(tl.float8e5)
    hb = x.to(tl.bfloat16)
    hz = x.to(tl.float16, fp_downcast_rounding="rtz")
    bc = x.to(tl.int32, bitcast=True)
    fi = x.to(tl.int32)
    fu = x.to(tl.uint32)
    ui = fu.to(tl.float32)
    i64 = ii.to(tl.int64)
    i8 = ii.to(tl.int8)
    b = ii.to(tl.int1)
    d = x.to(tl.float64) * 1.5
    e = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sqrt(x) + tl.sqrt_rn(x) + tl.rsqrt(x) + tl.abs(x) + tl.sin(x) + tl.cos(x) + tl.erf(x) + tl.floor(x) + tl.ceil(x) + tl.fma(x, x, x) + tl.sigmoid(x)
    e = e + libdevice.asin(x) + tl.fdiv(x, x) + tl.div_rn(x, x) + tl.abs(ii) + helper(x, 0.25)
    mn = tl.minimum(x, e) + tl.maximum(x, e) + tl.minimum(x, e, propagate_nan=tl.PropagateNan.ALL) + tl.clamp(x, 0.0, 1.0)
    im = tl.minimum(ii, 3) + tl.maximum(ii, 3) + (ii // 3) + (ii % 3) + (ii >> 1) + (ii << 1) + (ii & 1) + (ii | 1) + (ii ^ 1) + (-ii) + (~ii)
    u = fu // fu + fu % fu + (fu >> 1)
    fr = x % e + x / e
    c = (x > e) & (x >= e) | (x < e) ^ (x <= e) | (x == e) | (x != e)
    wh = tl.where(c, x, e)
    um = tl.umulhi(fu, fu)
    out = wh + mn + fr + um.to(tl.float32) + u.to(tl.float32) + im.to(tl.float32) + h.to(tl.float32)
    out += h8.to(tl.float32) + h5.to(tl.float32) + hb.to(tl.float32) + hz.to(tl.float32) + bc.to(tl.float32)
    out += fi.to(tl.float32) + ui + i64.to(tl.float32) + i8.to(tl.float32) + b.to(tl.float32) + d.to(tl.float32) + npg + f
    tl.store(y_ptr + offs, out, mask=m, cache_modifier=".cs", eviction_policy="evict_first")
    tl.store(y_ptr, s)


@triton.jit
def random(y_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r = tl.rand(seed, offs) + tl.randn(seed, offs) + tl.randint(seed, offs).to(tl.float32)
    tl.store(y_ptr + offs, r, mask=offs < n)


@triton.jit
def atomics(x_ptr, i_ptr, l_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    ii = tl.load(i_ptr + offs, mask=m)
    tl.atomic_add(x_ptr + offs, x, mask=m)
    tl.atomic_max(x_ptr + offs, x, mask=m, sem="relaxed", scope="cta")
    tl.atomic_min(i_ptr + offs, ii)
    tl.atomic_and(i_ptr + offs, ii, sem="release", scope="sys")
    tl.atomic_or(i_ptr + offs, ii, sem="acquire")
    tl.atomic_xor(i_ptr + offs, ii)
    old = tl.atomic_xchg(x_ptr + offs, x, mask=m)
    c = tl.atomic_cas(i_ptr, 0, 1)
    c2 = tl.atomic_cas(l_ptr + offs, ii.to(tl.int64), offs.to(tl.int64))
    tl.store(x_ptr + offs + 1, old + c + c2.to(tl.float32), mask=m)
    tl.debug_barrier()


@triton.jit
def control(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    p = x_ptr
    for k in tl.range(0, n, BLOCK, num_stages=2, loop_unroll_factor=2):
        acc += tl.load(p + tl.arange(0, BLOCK))
        p += BLOCK
    for k in tl.range(0, n, flatten=True, disallow_acc_multi_buffer=True):
        acc = acc * 2
    for k in tl.static_range(3):
        acc = acc + k
    s = tl.sum(acc)
    if pid == 0:
        s = s + 1
    else:
        s = s - 1
    t = 0
    while t < n:
        t += 1
    i = 0
    j = 1.0
    while i < n and j < 100.0:
        i += 2
        j = j * 1.5
    if pid > 5:
        return
    q = s if pid == 1 else s * 2.0
    tl.store(y_ptr + t, q + j + i)


@triton.jit
def early_return(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if tl.sum(x) > 0:
        tl.store(x_ptr + offs, x * 2, mask=offs < n)


@triton.jit
def combine_fn(a0, a1, b0, b1):
    return a0 + b0, tl.maximum(a1, b1)


@triton.jit
def max_and_arg(a, ia, b, ib):
    gt = a > b
    return tl.where(gt, a, b), tl.where(gt, ia, ib)


@triton.jit
def reductions(x_ptr, y_ptr, i_ptr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    s = tl.sum(x, axis=1)
    mx = tl.max(x, axis=0)
    am = tl.argmax(x, axis=1)
    amin = tl.argmin(x, axis=0)
    cs = tl.cumsum(x, axis=1)
    cp = tl.cumprod(x, axis=0, reverse=True)
    a, b = tl.associative_scan((x, x), 1, combine_fn)
    v, ix = tl.reduce((x, rm[:, None] + rn[None, :] * 0), 1, max_and_arg)
    xs = tl.sort(x, dim=1)
    fl = tl.flip(x, 1)
    mn = tl.min(x)
    xr = tl.xor_sum(rm)
    tl.store(y_ptr + rm, s + v + ix.to(tl.float32) + am.to(tl.float32) + mn + xr)
    tl.store(y_ptr + rn, mx + amin.to(tl.float32))
    tl.store(y_ptr + rm[:, None] * BN + rn[None, :], cs + cp + a + b + xs + fl)


@triton.jit
def shapes(x_ptr, y_ptr, i_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r)
    x2 = tl.reshape(x, (B // 4, 4))
    x3 = tl.reshape(x, (4, B // 4), can_reorder=True)
    t = tl.trans(x2)
    p = tl.permute(tl.reshape(x, (2, B // 8, 4)), (2, 0, 1))
    j = tl.join(x, x)
    a, b = tl.split(j)
    c = tl.cat(x, x, can_reorder=True)
    e = tl.expand_dims(x, 0)
    bc = tl.broadcast_to(e, (4, B))
    idx = tl.load(i_ptr + r)
    g = tl.gather(x, idx, 0)
    h = tl.histogram(idx, 16)
    hm = tl.histogram(idx, 16, mask=idx > 2)
    v = tl.view(x, (B // 2, 2))
    s = tl.sum(tl.reshape(x, (B,)))
    tl.store(y_ptr + r, a + b + g + s)
    tl.store(y_ptr + tl.arange(0, 4)[:, None] * B + r[None, :], bc)
    tl.store(y_ptr + tl.arange(0, B // 4)[None, :] * 4 + tl.arange(0, 4)[:, None], t)
    tl.store(y_ptr + tl.arange(0, 2 * B), c)
    tl.store(i_ptr + tl.arange(0, 16), h + hm)
    tl.store(y_ptr + tl.arange(0, 4)[:, None] * (B // 4) + tl.arange(0, B // 4)[None, :], x3)
    tl.store(y_ptr + tl.arange(0, B // 2)[:, None] * 2 + tl.arange(0, 2)[None, :], v)
    tl.store(y_ptr + tl.arange(0, 4)[:, None, None] * 0 + tl.arange(0, 2)[None, :, None] * 0 + tl.arange(0, B // 8)[None, None, :], p)


@triton.jit
def dots(a_ptr, b_ptr, c_ptr, i_ptr, M: tl.constexpr):
    r = tl.arange(0, M)
    a = tl.load(a_ptr + r[:, None] * M + r[None, :])
    b = tl.load(b_ptr + r[:, None] * M + r[None, :])
    c = tl.dot(a, b)
    c2 = tl.dot(a, b, input_precision="ieee")
    c3 = tl.dot(a, b, input_precision="tf32x3")
    ah = a.to(tl.float16)
    c4 = tl.dot(ah, ah, out_dtype=tl.float16)
    a8 = a.to(tl.float8e5)
    c5 = tl.dot(a8, a8, max_num_imprecise_acc=32)
    ai = a.to(tl.int8)
    c6 = tl.dot(ai, ai)
    tl.store(c_ptr + r[:, None] * M + r[None, :], c + c2 + c3 + c4.to(tl.float32) + c5 + c6.to(tl.float32))


@triton.jit
def block_ptrs(a_ptr, out_ptr, M, N, stride_m, stride_n, BM: tl.constexpr, BN: tl.constexpr):
    pa = tl.make_block_ptr(a_ptr, shape=(M, N), strides=(stride_m, stride_n), offsets=(0, 0),
                           block_shape=(BM, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for i in range(0, N, BN):
        acc += tl.load(pa, boundary_check=(0, 1), padding_option="zero")
        pa = tl.advance(pa, (0, BN))
    po = tl.make_block_ptr(out_ptr, shape=(M, N), strides=(stride_m, stride_n), offsets=(0, 0),
                           block_shape=(BM, BN), order=(1, 0))
    tl.store(po, acc, boundary_check=(1,))


@triton.jit
def descriptors(a_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    da = tl.make_tensor_descriptor(a_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    do = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    x = da.load([0, 0])
    do.store([BM, 0], x)


@triton.jit
def descriptors_int(a_desc, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # a signed-integer descriptor argument (its block is si32) and one made in the kernel
    do = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN],
                                   padding_option="zero")
    x = a_desc.load([0, 0])
    do.store([0, BN], x + 1)


@triton.jit
def debug_ops(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.device_print("x = ", x)
    tl.device_print("offs", offs, hex=True)
    tl.device_print("plain")
    tl.device_assert(x >= 0, "x must be non-negative")
    tl.static_print("static")
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)
    z, w = tl.inline_asm_elementwise("mov.b32 $0, $2; mov.b32 $1, $2;", "=r,=r,r", [x],
                                     dtype=(tl.float32, tl.float32), is_pure=False, pack=1)
    tl.store(x_ptr + offs, y + z + w + libdevice.pow(x, 2.0) + libdevice.tanh(x))


@triton.jit(noinline=True)
def noinline_pair(x, y):
    return x + y, x * y


@triton.jit(noinline=True)
def noinline_void(p, x):
    tl.store(p, x)


@triton.jit
def calls(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    a, b = noinline_pair(tl.sum(x), n)
    noinline_void(x_ptr + 1, a + b)
    tl.store(x_ptr + offs + BLOCK, tl.cdiv(n, 4) + offs)


@triton.jit
def types(x8, x16, x64, u8, f64, bf, b1, n64, c, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    a = tl.load(x8 + o)
    b = tl.load(x16 + o)
    d = tl.load(x64 + o)
    e = tl.load(u8 + o)
    f = tl.load(f64 + o)
    g = tl.load(bf + o)
    h = tl.load(b1 + o)
    k = a.to(tl.int64) + b + d + e + n64 + c
    z = f * 0.1 + g.to(tl.float64) + 3.0e38 + 1e-300 + float("nan")
    tl.store(x64 + o, k + h.to(tl.int64))
    tl.store(f64 + o, z)
    tl.store(x8 + o, (k >> 3).to(tl.int8))
    tl.store(u8 + o, e // 3)
    tl.store(bf + o, (g * 0.5).to(tl.bfloat16))
    tl.store(x16 + o, b * 7 - 32767)


@triton.jit
def empty(x_ptr, n):
    pass


@triton.jit
def one_constexpr(x_ptr, n, one, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK) * one
    tl.store(x_ptr + offs, offs.to(tl.float32), mask=offs < n)


# (name, kernel, signature, constexprs, options)
CASES = [
    ("softmax", softmax, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n_cols": "i32", "BLOCK_SIZE": "constexpr"},
     {"BLOCK_SIZE": 1024}, {"tt.divisibility": [0, 1]}),
    ("matmul", matmul, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                        "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                        "stride_cm": "i32", "stride_cn": "constexpr", "BLOCK_M": "constexpr",
                        "BLOCK_N": "constexpr", "BLOCK_K": "constexpr", "GROUP_M": "constexpr"},
     {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32,
      "GROUP_M": 8}, {"tt.divisibility": [0, 1, 2, 3, 4, 5, 6, 8, 10]}),
    ("layernorm", layernorm, {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Mean": "*fp32",
                              "Rstd": "*fp32", "stride": "i32", "N": "i32", "eps": "fp32",
                              "BLOCK_SIZE": "constexpr"}, {"BLOCK_SIZE": 512}, {}),
    ("elementwise", elementwise, {"x_ptr": "*fp32", "y_ptr": "*fp32", "i_ptr": "*i32", "n": "i32",
                                  "seed": "i32", "f": "fp32", "BLOCK": "constexpr"}, {"BLOCK": 256},
     {"tt.divisibility": [0, 1, 2]}),
    ("random", random, {"y_ptr": "*fp32", "seed": "i64", "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 128}, {}),
    ("atomics", atomics, {"x_ptr": "*fp32", "i_ptr": "*i32", "l_ptr": "*i64", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 64}, {}),
    ("control", control, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 64}, {}),
    ("early_return", early_return, {"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 64}, {}),
    ("reductions", reductions, {"x_ptr": "*fp32", "y_ptr": "*fp32", "i_ptr": "*i32", "BM": "constexpr",
                                "BN": "constexpr"}, {"BM": 16, "BN": 32}, {}),
    ("shapes", shapes, {"x_ptr": "*fp32", "y_ptr": "*fp32", "i_ptr": "*i32", "B": "constexpr"}, {"B": 64}, {}),
    ("dots", dots, {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "i_ptr": "*i8", "M": "constexpr"},
     {"M": 32}, {}),
    ("block_ptrs", block_ptrs, {"a_ptr": "*fp16", "out_ptr": "*fp32", "M": "i32", "N": "i32",
                                "stride_m": "i64", "stride_n": "i64", "BM": "constexpr", "BN": "constexpr"},
     {"BM": 32, "BN": 64}, {}),
    ("descriptors", descriptors, {"a_ptr": "*fp16", "out_ptr": "*fp16", "M": "i32", "N": "i32",
                                  "BM": "constexpr", "BN": "constexpr"}, {"BM": 64, "BN": 64},
     {"tt.divisibility": [0, 1, 3]}),
    ("descriptors_int", descriptors_int, {"a_desc": "tensordesc<i32[32, 32]>", "out_ptr": "*i32", "M": "i32",
                                          "N": "i32", "BM": "constexpr", "BN": "constexpr"},
     {"BM": 32, "BN": 32}, {}),
    ("debug_ops", debug_ops, {"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 32}, {}),
    ("calls", calls, {"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 32}, {}),
    ("types", types, {"x8": "*i8", "x16": "*i16", "x64": "*i64", "u8": "*u8", "f64": "*fp64", "bf": "*bf16",
                      "b1": "*i1", "n64": "i64", "c": "u32", "BLOCK": "constexpr"}, {"BLOCK": 16}, {}),
    ("empty", empty, {"x_ptr": "*fp32", "n": "i32"}, {}, {}),
    ("one_constexpr", one_constexpr, {"x_ptr": "*fp32", "n": "i32", "one": "constexpr", "BLOCK": "constexpr"},
     {"one": 1, "BLOCK": 32}, {}),
]
