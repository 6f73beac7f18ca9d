"""Kernels whose reductions and scans take their layouts from different passes of
Triton's make_ttgir, for the test of the short TTGIR pipeline (test_ctriton.py,
LayoutPipeline; python/ctriton/_ttgir.py): 2-D reductions along each axis of
row- and column-major loads (coalescing picks the order), scans, argmin/argmax,
a multi-operand tl.reduce, reductions of dot results (MMA layouts) and of a
reduction's result (slices), reductions in loops whose loads Triton pipelines,
a 3-D reduction, and a helper called twice (inlined).

CASES: (kernel, args (NumPy), constexprs); each is compiled under several
num_warps."""
import numpy as np
import triton
import triton.language as tl


@triton.jit
def reduce_2d(x_ptr, out0_ptr, out1_ptr, stride_m, stride_n, M: tl.constexpr, N: tl.constexpr):
    # stride_n == 1: row-major loads; stride_m == 1: column-major (coalescing picks the order)
    m = tl.arange(0, M)[:, None]
    n = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + m * stride_m + n * stride_n)
    tl.store(out0_ptr + tl.arange(0, N), tl.sum(x, axis=0))
    tl.store(out1_ptr + tl.arange(0, M), tl.max(x, axis=1))


@triton.jit
def reduce_2d_colmajor(x_ptr, out0_ptr, out1_ptr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] + tl.arange(0, N)[None, :] * M)
    tl.store(out0_ptr + tl.arange(0, N), tl.sum(x, axis=0))
    tl.store(out1_ptr + tl.arange(0, M), tl.min(x, axis=1))


@triton.jit
def scans(x_ptr, out0_ptr, out1_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out0_ptr + offs, tl.cumsum(x, axis=0))
    tl.store(out1_ptr + offs, tl.cumprod(x, axis=1, reverse=True))


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def scan_1d_custom(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.store(out_ptr + tl.arange(0, N), tl.associative_scan(x, 0, _max_combine))


@triton.jit
def arg_reductions(x_ptr, imin_ptr, imax_ptr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(imin_ptr + tl.arange(0, M), tl.argmin(x, axis=1))
    tl.store(imax_ptr + tl.arange(0, N), tl.argmax(x, axis=0))


@triton.jit
def _sum_and_sq(a, b, c, d):
    return a + c, b + d * d


@triton.jit
def multi_operand_reduce(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    s, q = tl.reduce((x, x), 0, _sum_and_sq)
    tl.store(out_ptr, s)
    tl.store(out_ptr + 1, q)


@triton.jit
def dot_then_reduce(a_ptr, b_ptr, rows_ptr, cols_ptr, total_ptr, M: tl.constexpr, N: tl.constexpr,
                    K: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    c = tl.dot(a, b)
    rows = tl.sum(c, axis=1)  # an MMA layout
    tl.store(rows_ptr + tl.arange(0, M), rows)
    tl.store(cols_ptr + tl.arange(0, N), tl.max(c, axis=0))
    tl.store(total_ptr, tl.sum(rows, axis=0))  # a slice of it


@triton.jit
def loop_reduce(x_ptr, out_ptr, n_cols, M: tl.constexpr, BLOCK: tl.constexpr):
    # the loads in the loop are pipelined (num_stages); the sum is carried by the loop
    acc = tl.zeros((M,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + tl.arange(0, M)[:, None] * n_cols + cols[None, :], mask=cols[None, :] < n_cols,
                    other=0.0)
        acc += tl.sum(x, axis=1)
    tl.store(out_ptr + tl.arange(0, M), acc)


@triton.jit
def loop_dot_max(q_ptr, k_ptr, out_ptr, n_blocks, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    # an attention-like loop: the row maximum of dot results, carried by the loop
    q = tl.load(q_ptr + tl.arange(0, M)[:, None] * D + tl.arange(0, D)[None, :])
    m = tl.full((M,), float("-inf"), tl.float32)
    for j in range(0, n_blocks):
        kt = tl.load(k_ptr + j * N * D + tl.arange(0, D)[:, None] + tl.arange(0, N)[None, :] * D)
        s = tl.dot(q, kt)
        m = tl.maximum(m, tl.max(s, axis=1))
    tl.store(out_ptr + tl.arange(0, M), m)


@triton.jit
def reduce_3d(x_ptr, out_ptr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = (tl.arange(0, A)[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C +
            tl.arange(0, C)[None, None, :])
    x = tl.load(x_ptr + offs)
    s = tl.sum(x, axis=1)
    tl.store(out_ptr + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], s)


@triton.jit
def _row_norm(x):
    return tl.sqrt(tl.sum(x * x, axis=1))


@triton.jit
def helper_twice(x_ptr, y_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = _row_norm(tl.load(x_ptr + offs))
    b = _row_norm(tl.load(y_ptr + offs))
    tl.store(out_ptr + tl.arange(0, M), a + b)


def _f32(*shape):
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def _zeros(n, dt=np.float32):
    return np.zeros(n, dt)


CASES = [
    (reduce_2d, lambda: (_f32(32, 64), _zeros(64), _zeros(32), 64, 1), {"M": 32, "N": 64}),
    (reduce_2d, lambda: (_f32(64, 32), _zeros(32), _zeros(64), 1, 64), {"M": 64, "N": 32}),
    (reduce_2d, lambda: (_f32(1, 256), _zeros(256), _zeros(1), 256, 1), {"M": 1, "N": 256}),
    (reduce_2d_colmajor, lambda: (_f32(128, 16), _zeros(16), _zeros(128)), {"M": 128, "N": 16}),
    (scans, lambda: (_f32(16, 64), _zeros(16 * 64), _zeros(16 * 64)), {"M": 16, "N": 64}),
    (scan_1d_custom, lambda: (_f32(512), _zeros(512)), {"N": 512}),
    (arg_reductions, lambda: (_f32(32, 32), _zeros(32, np.int32), _zeros(32, np.int32)), {"M": 32, "N": 32}),
    (multi_operand_reduce, lambda: (_f32(1024), _zeros(2)), {"N": 1024}),
    (dot_then_reduce, lambda: (_f32(64, 32).astype(np.float16), _f32(32, 64).astype(np.float16), _zeros(64),
                               _zeros(64), _zeros(1)), {"M": 64, "N": 64, "K": 32}),
    (loop_reduce, lambda: (_f32(16, 1000), _zeros(16), 1000), {"M": 16, "BLOCK": 128}),
    (loop_dot_max, lambda: (_f32(64, 64).astype(np.float16), _f32(4 * 32, 64).astype(np.float16), _zeros(64), 4),
     {"M": 64, "N": 32, "D": 64}),
    (reduce_3d, lambda: (_f32(4, 8, 32), _zeros(4 * 32)), {"A": 4, "B": 8, "C": 32}),
    (helper_twice, lambda: (_f32(32, 32), _f32(32, 32), _zeros(32)), {"M": 32, "N": 32}),
]
