# Cross-entropy forward over a large vocabulary: an online softmax in chunks
# (the running max and sum are loop-carried), ignored labels return early.
# config: cross_entropy_fwd_kernel v32000 | logits_ptr=*fp32:16 labels_ptr=*i64:16 loss_ptr=*fp32:16 stride=i64 n_cols=i32 | BLOCK=4096 IGNORE_INDEX=-100
# config: cross_entropy_fwd_kernel v1000_bf16 | logits_ptr=*bf16:16 labels_ptr=*i64:16 loss_ptr=*fp32:16 stride=i64 n_cols=i32 | BLOCK=1024 IGNORE_INDEX=-100
import triton
import triton.language as tl


@triton.jit
def cross_entropy_fwd_kernel(logits_ptr, labels_ptr, loss_ptr, stride, n_cols, BLOCK: tl.constexpr,
                             IGNORE_INDEX: tl.constexpr):
    row = tl.program_id(0)
    label = tl.load(labels_ptr + row)
    if label == IGNORE_INDEX:
        tl.store(loss_ptr + row, 0.0)
        return
    base = logits_ptr + row * stride
    m = -float("inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    target = tl.load(base + label).to(tl.float32)
    tl.store(loss_ptr + row, tl.log(d) + m - target)
