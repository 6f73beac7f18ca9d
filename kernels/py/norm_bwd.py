# LayerNorm and RMSNorm backward.  One program per row (the whole row in one
# block, BLOCK_N >= N) computes dx from the row's saved mean and 1/std:
#   x_hat = (x - mean) * rstd,  g = w * dy,
#   dx = (g - x_hat * mean(g * x_hat) - mean(g)) * rstd   (RMSNorm: no mean(g) term).
# The rows' weight (and bias) gradients, dy * x_hat and dy, are added to one of
# GROUP_SIZE_M partial rows (row % GROUP_SIZE_M) under that partial row's spin
# lock (taken with atomic_cas, released with atomic_xchg after a barrier: the
# atomic is one thread's, the stores are every warp's), so only rows of the same
# group wait for each other; the partial rows start at zero.
# norm_bwd_dwdb_kernel then sums the partial rows column by column.
# The C port is kernels/norm_bwd.c.
import triton
import triton.language as tl


@triton.jit
def layer_norm_bwd_dx_kernel(DX, DY, X, W, Mean, Rstd, DW_partial, DB_partial, Locks, stride, N,
                             GROUP_SIZE_M: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.).to(tl.float32)  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.).to(tl.float32)  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    w = tl.load(W + cols, mask=mask, other=0.).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    x_hat = tl.where(mask, (x - mean) * rstd, 0.)
    g = w * dy
    c1 = tl.sum(g * x_hat, axis=0) / N
    c2 = tl.sum(g, axis=0) / N
    dx = (g - (x_hat * c1 + c2)) * rstd
    tl.store(DX + row * stride + cols, dx.to(DX.dtype.element_ty), mask=mask)  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    # this row's dw and db into its group's partial rows, under the group's lock
    group = row % GROUP_SIZE_M
    lock = Locks + group
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    offs = group * N + cols
    tl.store(DW_partial + offs, tl.load(DW_partial + offs, mask=mask) + dy * x_hat, mask=mask)
    tl.store(DB_partial + offs, tl.load(DB_partial + offs, mask=mask) + dy, mask=mask)
    # every warp's stores are done before the lock is released
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def rms_norm_bwd_dx_kernel(DX, DY, X, W, Rstd, DW_partial, Locks, stride, N,
                           GROUP_SIZE_M: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.).to(tl.float32)  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    dy = tl.load(DY + row * stride + cols, mask=mask, other=0.).to(tl.float32)  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    w = tl.load(W + cols, mask=mask, other=0.).to(tl.float32)
    rstd = tl.load(Rstd + row)
    x_hat = x * rstd
    g = w * dy
    c1 = tl.sum(g * x_hat, axis=0) / N
    dx = (g - x_hat * c1) * rstd
    tl.store(DX + row * stride + cols, dx.to(DX.dtype.element_ty), mask=mask)  # lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements)
    # this row's dw into its group's partial row, under the group's lock
    group = row % GROUP_SIZE_M
    lock = Locks + group
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    offs = group * N + cols
    tl.store(DW_partial + offs, tl.load(DW_partial + offs, mask=mask) + dy * x_hat, mask=mask)
    # every warp's stores are done before the lock is released
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


@triton.jit
def norm_bwd_dwdb_kernel(DW_partial, DB_partial, DW, DB, M, N, HAS_BIAS: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # the column sums of the M partial rows, BLOCK_N columns per program
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    db = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for i in range(0, M, BLOCK_M):
        rows = i + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW_partial + offs, mask=mask, other=0.)
        if HAS_BIAS:
            db += tl.load(DB_partial + offs, mask=mask, other=0.)
    tl.store(DW + cols, tl.sum(dw, axis=0).to(DW.dtype.element_ty), mask=cols < N)
    if HAS_BIAS:
        tl.store(DB + cols, tl.sum(db, axis=0).to(DB.dtype.element_ty), mask=cols < N)
