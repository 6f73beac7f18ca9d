# A fused residual add + RMSNorm, in the style of LLM inference engines: one
# program per row, the residual written back when there is one.
# config: fused_add_rms_norm_kernel res_bf16 | x_ptr=*bf16:16 r_ptr=*bf16:16 w_ptr=*bf16:16 y_ptr=*bf16:16 stride=i32:16 n_cols=i32 eps=fp32 | BLOCK_SIZE=1024 HAS_RESIDUAL=True
# config: fused_add_rms_norm_kernel plain_fp32 | x_ptr=*fp32:16 r_ptr=*fp32:16 w_ptr=*fp32:16 y_ptr=*fp32:16 stride=i32:16 n_cols=i32:16 eps=fp32 | BLOCK_SIZE=2048 HAS_RESIDUAL=False
import triton
import triton.language as tl


@triton.jit
def fused_add_rms_norm_kernel(x_ptr, r_ptr, w_ptr, y_ptr, stride, n_cols, eps,
                              BLOCK_SIZE: tl.constexpr, HAS_RESIDUAL: tl.constexpr):
    """y = rms_norm(x + r) * w; r = x + r when HAS_RESIDUAL."""
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    if HAS_RESIDUAL:
        r = tl.load(r_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        x += r
        tl.store(r_ptr + row * stride + cols, x.to(r_ptr.dtype.element_ty), mask=mask)
    var = tl.sum(x * x, axis=0) / n_cols
    rstd = tl.rsqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=1.0)
    y = (x * rstd).to(w.dtype) * w
    tl.store(y_ptr + row * stride + cols, y, mask=mask)
