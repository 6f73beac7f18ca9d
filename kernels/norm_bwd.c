/* LayerNorm and RMSNorm backward: dx per row, the weight and bias gradients summed into
 * partial rows under spin locks (atomic_cas / atomic_xchg), then reduced column by column.
 * Python original: kernels/py/norm_bwd.py */
#include "kernels.h"

TL_KERNEL(layer_norm_bwd_dx_kernel, (DX, DY, X, W, Mean, Rstd, DW_partial, DB_partial, Locks, stride, N),
          (int, GROUP_SIZE_M), (int, BLOCK_N))
{
    tl_tensor row = tl_program_id(0);
    tl_tensor cols = tl_arange(0, BLOCK_N);
    tl_tensor mask = tl_lt(cols, N);
    tl_tensor x = tl_to(tl_load(tl_add(tl_add(X, tl_mul(row, stride)), cols), .mask = mask, .other = tl_c(0.)), tl_float32); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    tl_tensor dy = tl_to(tl_load(tl_add(tl_add(DY, tl_mul(row, stride)), cols), .mask = mask, .other = tl_c(0.)), tl_float32); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    tl_tensor w = tl_to(tl_load(tl_add(W, cols), .mask = mask, .other = tl_c(0.)), tl_float32);
    tl_tensor mean = tl_load(tl_add(Mean, row));
    tl_tensor rstd = tl_load(tl_add(Rstd, row));
    tl_tensor x_hat = tl_where(mask, tl_mul(tl_sub(x, mean), rstd), 0.);
    tl_tensor g = tl_mul(w, dy);
    tl_tensor c1 = tl_div(tl_sum(tl_mul(g, x_hat), .axis = 0), N);
    tl_tensor c2 = tl_div(tl_sum(g, .axis = 0), N);
    tl_tensor dx = tl_mul(tl_sub(g, tl_add(tl_mul(x_hat, c1), c2)), rstd);
    tl_store(tl_add(tl_add(DX, tl_mul(row, stride)), cols), tl_to(dx, tl_element_ty(DX)), .mask = mask); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    // this row's dw and db into its group's partial rows, under the group's lock
    tl_tensor group = tl_mod(row, GROUP_SIZE_M);
    tl_tensor lock = tl_add(Locks, group);
    TL_WHILE(tl_eq(tl_atomic_cas(lock, 0, 1), 1)) {
    }
    tl_tensor offs = tl_add(tl_mul(group, N), cols);
    tl_store(tl_add(DW_partial, offs), tl_add(tl_load(tl_add(DW_partial, offs), .mask = mask), tl_mul(dy, x_hat)), .mask = mask);
    tl_store(tl_add(DB_partial, offs), tl_add(tl_load(tl_add(DB_partial, offs), .mask = mask), dy), .mask = mask);
    // every warp's stores are done before the lock is released
    tl_debug_barrier();
    tl_atomic_xchg(lock, 0);
}

TL_KERNEL(rms_norm_bwd_dx_kernel, (DX, DY, X, W, Rstd, DW_partial, Locks, stride, N),
          (int, GROUP_SIZE_M), (int, BLOCK_N))
{
    tl_tensor row = tl_program_id(0);
    tl_tensor cols = tl_arange(0, BLOCK_N);
    tl_tensor mask = tl_lt(cols, N);
    tl_tensor x = tl_to(tl_load(tl_add(tl_add(X, tl_mul(row, stride)), cols), .mask = mask, .other = tl_c(0.)), tl_float32); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    tl_tensor dy = tl_to(tl_load(tl_add(tl_add(DY, tl_mul(row, stride)), cols), .mask = mask, .other = tl_c(0.)), tl_float32); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    tl_tensor w = tl_to(tl_load(tl_add(W, cols), .mask = mask, .other = tl_c(0.)), tl_float32);
    tl_tensor rstd = tl_load(tl_add(Rstd, row));
    tl_tensor x_hat = tl_mul(x, rstd);
    tl_tensor g = tl_mul(w, dy);
    tl_tensor c1 = tl_div(tl_sum(tl_mul(g, x_hat), .axis = 0), N);
    tl_tensor dx = tl_mul(tl_sub(g, tl_mul(x_hat, c1)), rstd);
    tl_store(tl_add(tl_add(DX, tl_mul(row, stride)), cols), tl_to(dx, tl_element_ty(DX)), .mask = mask); /* lint-ok: int32-offset i32 row offsets as in the Python original (tensors under 2**31 elements) */
    // this row's dw into its group's partial row, under the group's lock
    tl_tensor group = tl_mod(row, GROUP_SIZE_M);
    tl_tensor lock = tl_add(Locks, group);
    TL_WHILE(tl_eq(tl_atomic_cas(lock, 0, 1), 1)) {
    }
    tl_tensor offs = tl_add(tl_mul(group, N), cols);
    tl_store(tl_add(DW_partial, offs), tl_add(tl_load(tl_add(DW_partial, offs), .mask = mask), tl_mul(dy, x_hat)), .mask = mask);
    // every warp's stores are done before the lock is released
    tl_debug_barrier();
    tl_atomic_xchg(lock, 0);
}

TL_KERNEL(norm_bwd_dwdb_kernel, (DW_partial, DB_partial, DW, DB, M, N), (bool, HAS_BIAS), (int, BLOCK_M),
          (int, BLOCK_N))
{
    // the column sums of the M partial rows, BLOCK_N columns per program
    tl_tensor pid = tl_program_id(0);
    tl_tensor cols = tl_add(tl_mul(pid, BLOCK_N), tl_arange(0, BLOCK_N));
    tl_tensor dw = tl_zeros(tl_shape(BLOCK_M, BLOCK_N), tl_float32);
    tl_tensor db = tl_zeros(tl_shape(BLOCK_M, BLOCK_N), tl_float32);
    TL_FOR(i, tl_range(0, M, BLOCK_M), dw, db) {
        tl_tensor rows = tl_add(i, tl_arange(0, BLOCK_M));
        tl_tensor mask = tl_and(tl_lt(tl_idx(rows, ":, None"), M), tl_lt(tl_idx(cols, "None, :"), N));
        tl_tensor offs = tl_add(tl_mul(tl_idx(rows, ":, None"), N), tl_idx(cols, "None, :"));
        dw = tl_add(dw, tl_load(tl_add(DW_partial, offs), .mask = mask, .other = tl_c(0.)));
        if (HAS_BIAS)
            db = tl_add(db, tl_load(tl_add(DB_partial, offs), .mask = mask, .other = tl_c(0.)));
    }
    tl_store(tl_add(DW, cols), tl_to(tl_sum(dw, .axis = 0), tl_element_ty(DW)), .mask = tl_lt(cols, N));
    if (HAS_BIAS)
        tl_store(tl_add(DB, cols), tl_to(tl_sum(db, .axis = 0), tl_element_ty(DB)), .mask = tl_lt(cols, N));
}

TL_CONFIGS(layer_norm_bwd_dx_kernel,
    {.name = "fp16_N1000_G8", .signature = "DX=*fp16:16 DY=*fp16:16 X=*fp16:16 W=*fp32:16 Mean=*fp32:16 Rstd=*fp32:16 "
                                           "DW_partial=*fp32:16 DB_partial=*fp32:16 Locks=*i32:16 stride=i32 N=i32",
     .constexprs = "GROUP_SIZE_M=8 BLOCK_N=1024", .problem = "M=40 N=1000", .num_warps = 4},
    {.name = "bf16_N4096_G32", .signature = "DX=*bf16:16 DY=*bf16:16 X=*bf16:16 W=*fp32:16 Mean=*fp32:16 Rstd=*fp32:16 "
                                            "DW_partial=*fp32:16 DB_partial=*fp32:16 Locks=*i32:16 stride=i32:16 N=i32:16",
     .constexprs = "GROUP_SIZE_M=32 BLOCK_N=4096", .problem = "M=96 N=4096", .num_warps = 8});

TL_CONFIGS(rms_norm_bwd_dx_kernel,
    {.name = "bf16_N1000_G8", .signature = "DX=*bf16:16 DY=*bf16:16 X=*bf16:16 W=*fp32:16 Rstd=*fp32:16 "
                                           "DW_partial=*fp32:16 Locks=*i32:16 stride=i32 N=i32",
     .constexprs = "GROUP_SIZE_M=8 BLOCK_N=1024", .problem = "M=40 N=1000", .num_warps = 4},
    {.name = "fp32_N2048_G16", .signature = "DX=*fp32:16 DY=*fp32:16 X=*fp32:16 W=*fp32:16 Rstd=*fp32:16 "
                                            "DW_partial=*fp32:16 Locks=*i32:16 stride=i32:16 N=i32:16",
     .constexprs = "GROUP_SIZE_M=16 BLOCK_N=2048", .problem = "M=64 N=2048", .num_warps = 8});

TL_CONFIGS(norm_bwd_dwdb_kernel,
    {.name = "bias_G8_N1000", .signature = "DW_partial=*fp32:16 DB_partial=*fp32:16 DW=*fp32:16 DB=*fp32:16 M=i32 N=i32",
     .constexprs = "HAS_BIAS=True BLOCK_M=32 BLOCK_N=128", .problem = "G=8 N=1000", .num_warps = 4},
    {.name = "nobias_G48_N4096", .signature = "DW_partial=*fp32:16 DB_partial=*fp32:16 DW=*bf16:16 DB=*bf16:16 M=i32:16 N=i32:16",
     .constexprs = "HAS_BIAS=False BLOCK_M=32 BLOCK_N=128", .problem = "G=48 N=4096", .num_warps = 4});
